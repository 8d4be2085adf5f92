//! Named mutation operators, recorded for statistics and ablations.

use core::fmt;

/// The name of one mutation step, recorded by [`Context::record`](crate::Context::record).
///
/// The first four are FuzzChick's derived-type operators; the rest are the primitive and
/// collection mutators of the standard library impls.
///
/// ```
/// use typefuzz_core::Operator;
/// assert_eq!(Operator::Subterm.name(), "subterm");
/// assert_eq!(Operator::ALL.len(), Operator::COUNT);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Operator {
    /// Mutate one field with its own type's mutator.
    Recursive,
    /// Replace the value by a same-type subterm.
    Subterm,
    /// Switch to a variant whose fields all come from distinct same-type fields.
    ConstructorDrop,
    /// Switch to a variant, keeping type-matching fields and generating the rest.
    ConstructorGrow,
    /// Replace the value by a freshly generated one.
    Regenerate,
    /// Flip one bit of a number.
    BitFlip,
    /// Add or subtract a small amount.
    AddSub,
    /// Replace by an interesting value (0, 1, -1, MIN, MAX, boundaries, NaN, ...).
    Interesting,
    /// Replace by a random value (for integers, one drawn as generation draws them: small half
    /// the time).
    Random,
    /// Negate or toggle (`bool`, sign of a number).
    Toggle,
    /// Insert a fresh element into a collection (or grow it to a generated length).
    Insert,
    /// Insert a copy of an existing element.
    Duplicate,
    /// Remove one element or a run of elements.
    Remove,
    /// Swap two elements.
    Swap,
    /// Cut the collection short.
    Truncate,
    /// Mutate one element in place.
    Element,
    /// Splice a same-type subterm from another value.
    Crossover,
    /// A user-supplied mutator (`#[mutate(with = ...)]` or a hand-written impl).
    Custom,
    /// Input-to-state: a typed leaf takes the other operand of a comparison it fed
    /// ([`leaves`](crate::leaves)).
    CmpLog,
    /// Make the value a same-type field of a fresh value (subterm's inverse: `x -> Add(x, y)`),
    /// the other fields about the value's size, so mutants keep their seeds' size on average.
    Wrap,
    /// Replay the mutation of a tuple component, or of a derived type's field, on another
    /// component or field of the same type (a *twin*; a derived type's recursive fields are
    /// never twins) from the same random state, so equal twins stay equal: `(s, s)` becomes
    /// `(s', s')`. One such mutation in 8; never under
    /// [`Operators::fuzzchick`](crate::Operators::fuzzchick).
    Paired,
}

impl Operator {
    /// Number of operators.
    pub const COUNT: usize = 21;

    /// Every operator, in declaration order (index = `op as usize`).
    pub const ALL: [Operator; Operator::COUNT] = [
        Operator::Recursive,
        Operator::Subterm,
        Operator::ConstructorDrop,
        Operator::ConstructorGrow,
        Operator::Regenerate,
        Operator::BitFlip,
        Operator::AddSub,
        Operator::Interesting,
        Operator::Random,
        Operator::Toggle,
        Operator::Insert,
        Operator::Duplicate,
        Operator::Remove,
        Operator::Swap,
        Operator::Truncate,
        Operator::Element,
        Operator::Crossover,
        Operator::Custom,
        Operator::CmpLog,
        Operator::Wrap,
        Operator::Paired,
    ];

    /// A short stable name (`"subterm"`, `"bit-flip"`, ...), used in reports and CSV output.
    ///
    /// ```
    /// assert_eq!(typefuzz_core::Operator::ConstructorGrow.name(), "grow");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Operator::Recursive => "recursive",
            Operator::Subterm => "subterm",
            Operator::ConstructorDrop => "drop",
            Operator::ConstructorGrow => "grow",
            Operator::Regenerate => "regenerate",
            Operator::BitFlip => "bit-flip",
            Operator::AddSub => "add-sub",
            Operator::Interesting => "interesting",
            Operator::Random => "random",
            Operator::Toggle => "toggle",
            Operator::Insert => "insert",
            Operator::Duplicate => "duplicate",
            Operator::Remove => "remove",
            Operator::Swap => "swap",
            Operator::Truncate => "truncate",
            Operator::Element => "element",
            Operator::Crossover => "crossover",
            Operator::Custom => "custom",
            Operator::CmpLog => "cmplog",
            Operator::Wrap => "wrap",
            Operator::Paired => "paired",
        }
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
