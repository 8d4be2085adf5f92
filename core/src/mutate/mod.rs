//! Type-aware mutation: the [`Mutate`] trait, its [`Context`], and the named [`Operator`]s.
//!
//! A type that implements [`Mutate`] can be generated fresh at a bounded size, mutated in place
//! by one small type-preserving change, shrunk towards simpler values, and encoded to and decoded
//! from bytes. `#[derive(Mutate)]` writes all of it for structs and enums; this module holds the
//! contract and the impls for the standard library's types (one file per type family).

mod context;
mod extensions;
mod hash;
mod operator;
pub(crate) mod undo;

mod array;
mod collections;
mod float;
mod int;
mod marker;
mod option;
mod pointer;
mod scalar;
mod string;
mod tuple;
pub(crate) mod vec;

// Std types through a representation (`via`), one file per family.
mod net;
mod nonzero;
mod range;
mod sequences;
mod text;
mod time;
mod via;

pub use crate::byte_hash::hash_bytes;
pub use context::{Context, Operators};
pub use hash::ValueHasher;
pub use operator::Operator;

use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::leaves::Leaves;
use crate::structure::Structure;

/// A type whose values typefuzz can generate, mutate, shrink and (de)serialize.
///
/// # Contract
///
/// Implementations (derived or hand-written) must satisfy, for every value `v` and context `cx`:
///
/// 1. **Bounded generation.** [`generate`](Mutate::generate) terminates and builds a value whose
///    nesting depth is at most `cx.size()` levels of this type's own recursive structure plus the
///    fixed depth of its non-recursive fields; at size 0 it builds a smallest value (for enums,
///    a variant that needs no further recursion).
/// 2. **One mutation.** [`mutate`](Mutate::mutate) applies one random type-aware change in place,
///    records the [`Operator`] it applied with [`Context::record`], and never makes the value
///    deeper than `cx.max_size()`. It may leave the value unchanged only when the type has a
///    single value (e.g. `()`).
/// 3. **Strictly simpler shrinks.** Every candidate returned by [`shrink`](Mutate::shrink) is
///    strictly smaller than `self` in a well-founded order (fewer nodes, shorter collections,
///    integers closer to zero, ...), so repeated shrinking terminates. The list is bounded (at
///    most a few hundred candidates: an integer offers one per bit so that greedy shrinking
///    binary-searches the failing boundary), most aggressive first.
/// 4. **Total, bounded codec.** [`decode`](Mutate::decode) accepts every byte string, never
///    panics, allocates at most O(input length) and recurses at most [`Decoder::MAX_DEPTH`]
///    levels; `decode(encode(v)) == v` for every value no deeper than that bound.
/// 5. **Shape fingerprint.** [`fingerprint`](Mutate::fingerprint) describes everything the
///    codec's meaning depends on (variants in order, fields in order, their names and types), so
///    two types whose encodings could be confused have different fingerprints.
/// 6. **Subterms.** [`visit_subterms`](Mutate::visit_subterms) visits the values of type `Self`
///    found directly inside `self` (fields of type `Self`, or inside `Box`, `Rc`, `Arc`, `Option`,
///    `Vec`, arrays and tuples); it is what crossover splices.
///
/// # Example
///
/// ```
/// use typefuzz_core::{Context, Mutate};
///
/// #[derive(Clone, Debug, PartialEq, typefuzz_derive::Mutate)]
/// #[mutate(crate = "typefuzz_core")]
/// enum Tree {
///     Leaf(u8),
///     Node(Box<Tree>, Box<Tree>),
/// }
///
/// let mut cx = Context::new(7);
/// let mut tree = Tree::generate(&mut cx);
/// tree.mutate(&mut cx);
/// assert!(!cx.trace().is_empty()); // the operators that were applied
/// let bytes = typefuzz_core::codec::to_bytes(&tree);
/// assert_eq!(typefuzz_core::codec::from_bytes::<Tree>(&bytes), tree);
/// ```
pub trait Mutate: Clone + Sized {
    /// Generates a fresh value whose size is bounded by `cx.size()`.
    fn generate(cx: &mut Context) -> Self;

    /// Applies one random type-aware mutation in place and records its [`Operator`].
    fn mutate(&mut self, cx: &mut Context);

    /// [`mutate`](Mutate::mutate), saving first what it is about to change when the engine
    /// mutates a seed in place: the engine runs the property on the mutant where it stands and
    /// then moves the saved parts back, so a test costs what its mutation changed rather than
    /// a clone and a drop of the whole seed. It makes the same random draws as `mutate`, so it
    /// makes the same mutant.
    ///
    /// The default saves the whole value (a clone) and records nothing inside it, which is
    /// always right: hand-written impls keep it. `#[derive(Mutate)]` and the containers (`Box`,
    /// `Option`, `Vec`, `VecDeque`, arrays, tuples) override it to save only the node an
    /// operator rewrites and to call `mutate_undoable` on the field or element they descend
    /// into. An override that changes the value without saving it changes the seed; the engine
    /// compares seeds with their bytes now and then and stops mutating in place when one
    /// differs. An override descends into a field inline in `self` directly, and into another
    /// allocation (what a `Box` or a `Vec` owns) only through that container's own
    /// `mutate_undoable`, which logs the way back in for the undo (see `mutate/undo.rs`).
    ///
    /// ```
    /// use typefuzz_core::{Context, Mutate};
    /// let (mut a, mut b) = (vec![1u8, 2, 3], vec![1u8, 2, 3]);
    /// let (mut cx, mut same) = (Context::new(5), Context::new(5));
    /// a.mutate(&mut cx);
    /// b.mutate_undoable(&mut same);
    /// assert_eq!(a, b);
    /// ```
    fn mutate_undoable(&mut self, cx: &mut Context) {
        cx.save(self);
        // The whole value is saved: what `mutate` does inside it (to temporaries too: a map's
        // key is mutated out of the map and put back) records nothing.
        let recording = cx.pause_undo();
        self.mutate(cx);
        cx.resume_undo(recording);
    }

    /// Returns candidates strictly simpler than `self`, most aggressive first.
    fn shrink(&self, cx: &mut Context) -> Vec<Self>;

    /// Hands [`shrink`](Mutate::shrink)'s candidates to `visit` one at a time, in the same
    /// order, until `visit` returns [`ControlFlow::Break`](core::ops::ControlFlow::Break): how
    /// the engine's shrinker takes them. The default collects `shrink`; `Vec` and `String` make
    /// each candidate only when it is visited, so shrinking a 100 MB vector holds
    /// one candidate at a time rather than hundreds (their `shrink` lists are capped to about
    /// 64 MiB of copies, or twice the value, and so may be shorter than what this visits).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use typefuzz_core::{Context, Mutate};
    /// let mut cx = Context::new(1);
    /// let mut seen = Vec::new();
    /// vec![3u8, 4].shrink_each(&mut cx, &mut |candidate| {
    ///     seen.push(candidate);
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!(seen, vec![3u8, 4].shrink(&mut cx));
    /// ```
    fn shrink_each(
        &self,
        cx: &mut Context,
        visit: &mut dyn FnMut(Self) -> core::ops::ControlFlow<()>,
    ) {
        let mut candidates = self.shrink(cx);
        // Taken in order by `pop`: no `vec::IntoIter` compiled per type.
        crate::__private::reverse(&mut candidates);
        while let Some(candidate) = candidates.pop() {
            if visit(candidate).is_break() {
                return;
            }
        }
    }

    /// A copy of `self`, equal to `self.clone()`: how the engine copies values (the part of a
    /// seed saved before a mutation, a subterm moved up, the fields a shrink candidate keeps).
    ///
    /// The default is `Clone::clone`. `#[derive(Mutate)]` writes it field by field through the
    /// fields' own `duplicate`, as `#[derive(Clone)]` would, and `Box`, `Option`, `Vec`,
    /// `VecDeque`, arrays and tuples copy through their contents' `duplicate`: the engine's
    /// copies of a derived type then compile no `Clone` impl of it or of its `Box`es and
    /// `Vec`s, code the rest of the derive has no use for (a tenth of what a debug build
    /// compiled for the compile-time benchmark's mutually recursive pair). A
    /// hand-written `Clone` of a derived type is therefore not what the engine copies it with;
    /// the two must agree.
    ///
    /// ```
    /// use typefuzz_core::Mutate;
    /// let tree = vec![Some(Box::new(3u8)), None];
    /// assert_eq!(tree.duplicate(), tree.clone());
    /// ```
    fn duplicate(&self) -> Self {
        self.clone()
    }

    /// Copies of `items` in order, for `Vec<Self>`'s [`duplicate`](Mutate::duplicate). The
    /// default duplicates each element in turn; the integer types, `bool` and `char` copy the
    /// slice at once.
    ///
    /// ```
    /// use typefuzz_core::Mutate;
    /// assert_eq!(u16::duplicate_slice(&[1, 2, 3]), [1, 2, 3]);
    /// assert_eq!(String::duplicate_slice(&["a".into()]), ["a"]);
    /// ```
    fn duplicate_slice(items: &[Self]) -> Vec<Self> {
        vec::clone_without(items, 0..0)
    }

    /// Appends the byte encoding of `self` to `out`.
    fn encode(&self, out: &mut Encoder);

    /// Decodes a value from any byte string; total and bounded (see the trait contract).
    fn decode(input: &mut Decoder<'_>) -> Self;

    /// Describes this type's shape for [`fingerprint::of`](crate::fingerprint::of): its
    /// constructor name, then its parameters' fingerprints in order. `#[derive(Mutate)]` writes
    /// the variants and fields with their names and types; saved regressions are replayed only
    /// into a type with the fingerprint they were written with.
    ///
    /// The default adds the type's name as `core::any::type_name` spells it, which is safe (a
    /// different type never matches) but may change with the compiler version, which would make
    /// saved regressions of the type be kept without being replayed; hand-written impls should
    /// override it.
    ///
    /// ```
    /// use typefuzz_core::fingerprint::{of, Fingerprint};
    /// use typefuzz_core::Mutate;
    /// let mut f = Fingerprint::new();
    /// <Vec<u8>>::fingerprint(&mut f);
    /// assert_eq!(f.finish(), of::<Vec<u8>>());
    /// ```
    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name(core::any::type_name::<Self>());
    }

    /// Calls `visit` on each value of type `Self` directly inside `self`.
    ///
    /// The default visits nothing, which is right for every type that cannot contain itself.
    fn visit_subterms(&self, visit: &mut dyn FnMut(&Self)) {
        let _ = visit;
    }

    /// Like [`visit_subterms`](Mutate::visit_subterms), with mutable access.
    fn visit_subterms_mut(&mut self, visit: &mut dyn FnMut(&mut Self)) {
        let _ = visit;
    }

    /// Reports the shape of `self` to the structure feedback: the constructor (or value class)
    /// of each node with [`Structure::node`] and each child with [`Structure::child`]. See
    /// [`structure`](crate::structure) for what the features are.
    ///
    /// The default reports nothing, which is always correct (such values only give the
    /// structure feedback nothing to go on); `#[derive(Mutate)]` and the standard types
    /// override it.
    ///
    /// ```
    /// use typefuzz_core::{Mutate, structure::Structure};
    /// let mut map = vec![0u64; Structure::MAP_WORDS];
    /// let mut structure = Structure::new(&mut map);
    /// Some(u8::MAX).visit_structure(&mut structure);
    /// assert!(structure.new_features() > 0);
    /// ```
    fn visit_structure(&self, structure: &mut Structure<'_>) {
        let _ = structure;
    }

    /// Reports the typed leaves of `self` — integers, `char`s, `bool`s, collection lengths,
    /// enum variants and strings — in a fixed order to the input-to-state feedback, and writes
    /// the replacement a leaf method returns (see [`leaves`](crate::leaves)).
    /// After a replacement (`leaves.is_done()`), stop visiting.
    ///
    /// The default reports nothing, which is always correct (the comparisons the property makes
    /// are then never fed back into such values); `#[derive(Mutate)]` and the standard types
    /// override it.
    ///
    /// ```
    /// use typefuzz_core::leaves::{candidates, Log, Replacement};
    /// // The property compared 300 with 7 (say `x == 7`): the leaf holding 300 may become 7.
    /// let log = Log::from_pairs(&[(300, 7, 2)]);
    /// let found = candidates(&mut Some(300u16), &log);
    /// assert_eq!(found[0].value, Replacement::Integer(7));
    /// ```
    fn visit_leaves(&mut self, leaves: &mut Leaves<'_>) {
        let _ = leaves;
    }

    /// Folds the exact contents of `self` into `hasher`: what the engine counts distinct valid
    /// inputs by (the engine's `Stats::unique_valid`), on every valid test.
    /// Equal values must hash equally, and values that differ should differ somewhere in what
    /// they write (lengths before elements, variant indices before fields).
    ///
    /// The default folds in the value's structure walk's
    /// [`fingerprint`](crate::structure::Structure::fingerprint)
    /// ([`ValueHasher::walk`]): correct, and opaque when
    /// [`visit_structure`](Mutate::visit_structure) reports nothing, but several times slower
    /// than writing the leaves; `#[derive(Mutate)]` and the standard types override it.
    ///
    /// ```
    /// use typefuzz_core::{Mutate, mutate::ValueHasher};
    /// let mut hasher = ValueHasher::new();
    /// (7u8, Some('x')).hash_value(&mut hasher);
    /// assert_eq!(hasher.finish(), ValueHasher::of(&(7u8, Some('x'))));
    /// assert_ne!(hasher.finish(), ValueHasher::of(&(7u8, Some('y'))));
    /// ```
    fn hash_value(&self, hasher: &mut ValueHasher) {
        hasher.walk(self);
    }

    /// Folds the elements of a slice of `Self` into `hasher`, for `Vec<Self>`'s
    /// [`hash_value`](Mutate::hash_value) (which writes the length first). The default hashes
    /// each element in turn; the integer types write the slice's bytes at once, eight per
    /// step, so a `Vec<u8>` costs about what copying it does (`std::hash::Hash::hash_slice`
    /// does the same).
    ///
    /// ```
    /// use typefuzz_core::{Mutate, mutate::ValueHasher};
    /// let hash = |items: &[u8]| {
    ///     let mut hasher = ValueHasher::new();
    ///     u8::hash_slice(items, &mut hasher);
    ///     hasher.finish()
    /// };
    /// assert_eq!(hash(b"abc"), hash(b"abc"));
    /// assert_ne!(hash(b"abc"), hash(b"acb"));
    /// ```
    fn hash_slice(items: &[Self], hasher: &mut ValueHasher) {
        for item in items {
            item.hash_value(hasher);
        }
    }
}
