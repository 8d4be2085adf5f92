//! Helpers for the code `#[derive(Mutate)]` generates: operator choice, variant choice, sizes.
//!
//! # Unwind cleanups
//!
//! The generic helpers here and in `mutate/` are compiled once per field or element type of
//! every derived type, in the user's crate. In a debug build each call made while such a helper
//! holds an owned value needs a landing pad dropping that value if the call unwinds: with
//! `-Cpanic=abort` the compile-time benchmark's mutually recursive crate loses 22.5% of its LLVM
//! IR. So the helpers avoid holding values across calls where the order allows (state read as
//! fields, the call that consumes a value made last), and hold a `Vec` they fill across calls in
//! `ManuallyDrop`: if a generator, decoder or clone panics meanwhile, what was built leaks
//! instead of being dropped; the panic ends the run either way.

use core::mem::ManuallyDrop;

pub use crate::mutate::vec::SequenceShrinks;
use crate::structure::Structure;
use crate::{Context, Mutate};

/// Past this depth a mutation stops descending into fields (it still applies the operators that
/// act at the current level), so mutating a very deep value cannot overflow the stack.
pub const MAX_MUTATION_DEPTH: usize = 512;

/// How many candidate mutants each operator family has for the current value.
#[derive(Clone, Copy, Debug, Default)]
pub struct Candidates {
    /// Fields that can be mutated (recursive).
    pub recursive: usize,
    /// Same-type subterms (subterm).
    pub subterm: usize,
    /// Variants reachable by constructor drop.
    pub drop: usize,
    /// Variants reachable by constructor grow.
    pub grow: usize,
    /// Whether regenerating the whole value is a candidate (enums: a restart of the subterm;
    /// structs: redundant with mutating their fields).
    pub regenerate: bool,
}

/// The chosen mutation: a family and the index of the candidate within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Mutate field number `.0`.
    Recursive(usize),
    /// Replace by subterm number `.0`.
    Subterm(usize),
    /// Drop to drop-target number `.0`.
    Drop(usize),
    /// Grow to grow-target number `.0`.
    Grow(usize),
    /// Regenerate the whole value.
    Regenerate,
}

/// Chooses one mutation among `candidates` following the context's [`Operators`](crate::Operators).
/// Returns `None` when no family has a candidate (a type with a single value).
pub fn choose(cx: &mut Context, mut candidates: Candidates) -> Option<Choice> {
    let ops = *cx.operators();
    if cx.depth() >= MAX_MUTATION_DEPTH {
        candidates.recursive = 0;
    }
    if cx.size() == 0 {
        // No depth budget left: growing would make the value deeper than the budget.
        candidates.grow = 0;
    }
    let enabled = |weight: u32, count: usize| if weight == 0 { 0 } else { count };
    let recursive = enabled(ops.recursive, candidates.recursive);
    let subterm = enabled(ops.subterm, candidates.subterm);
    let drop = enabled(ops.drop, candidates.drop);
    let grow = enabled(ops.grow, candidates.grow);
    if ops.faithful {
        let total = recursive + subterm + drop + grow;
        if total == 0 {
            return (candidates.regenerate && ops.regenerate > 0).then_some(Choice::Regenerate);
        }
        let mut ticket = cx.below(total);
        for (count, make) in [
            (recursive, Choice::Recursive as fn(usize) -> Choice),
            (subterm, Choice::Subterm),
            (drop, Choice::Drop),
            (grow, Choice::Grow),
        ] {
            if ticket < count {
                return Some(make(ticket));
            }
            ticket -= count;
        }
        unreachable!("ticket below the candidate total");
    }
    let weight = |w: u32, count: usize| if count == 0 { 0 } else { w };
    let family = cx.weighted(&[
        weight(ops.recursive, recursive),
        weight(ops.subterm, subterm),
        weight(ops.drop, drop),
        weight(ops.grow, grow),
        if candidates.regenerate {
            ops.regenerate
        } else {
            0
        },
    ])?;
    Some(match family {
        0 => Choice::Recursive(cx.below(recursive)),
        1 => Choice::Subterm(cx.below(subterm)),
        2 => Choice::Drop(cx.below(drop)),
        3 => Choice::Grow(cx.below(grow)),
        _ => Choice::Regenerate,
    })
}

/// An enum's variants as generation sees them, computed by `#[derive(Mutate)]` at compile time.
///
/// `levels[i]` is 0 for a variant needing no `Box`/`Rc`/`Arc`, 1 for one that needs an
/// indirection but not its own type, 2 for one that always contains its own type; `weights[i]`
/// is its `#[mutate(weight = N)]` (default 1). The totals are what [`choose_variant`] would
/// otherwise add up for every generated node.
#[derive(Clone, Copy, Debug)]
pub struct Variants {
    /// Each variant's weight.
    pub weights: &'static [u32],
    /// Each variant's generation level.
    pub levels: &'static [u8],
    /// The lowest level present.
    pub lowest: u8,
    /// Total weight of the variants of the lowest level (the only ones eligible at size 0).
    pub lowest_total: u64,
    /// Total weight of the level-0 variants.
    pub flat_total: u64,
    /// Total weight of the variants of level > 0 (weighted up with the size).
    pub boosted_total: u64,
    /// The common weight when every variant has level 0 and the same non-zero weight (the draw
    /// is then a division), else 0.
    pub uniform_weight: u32,
}

/// Chooses one of `count` variants of weight `weight` each, for an enum whose variants all have
/// level 0 and the same weight (see [`Variants::uniform_weight`]): the same draw as
/// [`choose_variant`], with the constants folded in where the derive calls it (a weight of 1
/// needs no division).
#[inline(always)]
pub fn choose_uniform_variant(cx: &mut Context, count: u64, weight: u64) -> usize {
    (cx.rng().u64(..count * weight) / weight) as usize
}

/// Chooses the variant to generate. At size 0 only the lowest level present is eligible;
/// above it, variants of level > 0 are weighted up with the size, at most 16 times
/// (QuickChick's sized generation).
///
/// One random draw, then a scan that stops at the chosen variant; enums whose variants all
/// have level 0 and one weight (fieldless enums, instruction sets) skip the scan.
#[inline]
pub fn choose_variant(cx: &mut Context, variants: &Variants) -> usize {
    let count = variants.weights.len() as u64;
    if variants.uniform_weight > 0 {
        let weight = u64::from(variants.uniform_weight);
        return (cx.rng().u64(..count * weight) / weight) as usize;
    }
    let size = cx.size();
    let boost = size.min(16) as u64;
    let total = if size == 0 {
        variants.lowest_total
    } else {
        variants.flat_total + boost * variants.boosted_total
    };
    if total == 0 {
        // Every eligible variant has weight 0: fall back to the first lowest-level variant.
        return (variants.levels.iter())
            .position(|&l| l == variants.lowest)
            .unwrap_or(0);
    }
    let mut ticket = cx.rng().u64(..total);
    for (index, (&weight, &level)) in variants.weights.iter().zip(variants.levels).enumerate() {
        let weight = u64::from(weight);
        let effective = if size == 0 {
            if level == variants.lowest {
                weight
            } else {
                0
            }
        } else if level > 0 {
            weight * boost
        } else {
            weight
        };
        if ticket < effective {
            return index;
        }
        ticket -= effective;
    }
    unreachable!("ticket below the total weight")
}

/// The size each of `parts` sized children gets out of `size` (one unit for the node itself).
#[inline]
pub fn split_size(size: usize, parts: usize) -> usize {
    size.saturating_sub(1) / parts.max(1)
}

/// Generates a field with `generate` (its type's `Mutate::generate`) one level down at size
/// `size`: `cx.descend(size, generate)` without the closure, so that the derived fresh
/// constructors cost one instantiation of this helper per field type instead of one
/// `Context::descend` and one `FnOnce::call_once` per field type's `generate`.
///
/// ```
/// use typefuzz_core::{Context, Mutate, __private::generate_field};
/// let mut cx = Context::new(1);
/// let size = cx.size();
/// let _byte: u8 = generate_field(&mut cx, 0, <u8 as Mutate>::generate);
/// assert_eq!((cx.depth(), cx.size()), (0, size));
/// ```
pub fn generate_field<T>(cx: &mut Context, size: usize, generate: fn(&mut Context) -> T) -> T {
    let depth = cx.depth;
    let saved_size = cx.enter(size);
    let value = generate(cx);
    // `cx.leave(saved_size)` as plain stores, no call while `value` is held (see the module
    // docs): this helper is compiled once per field type of every derived type.
    cx.depth = depth;
    cx.size = saved_size;
    value
}

/// [`generate_field`] for a `Box<Self>` field at its share `size` of the node's size: a leaf
/// (size 0) when the node is the wrapper [`wrap`] is generating, which puts the wrapped value
/// in one such field and generates the others at `size` once it knows which.
///
/// ```
/// use typefuzz_core::{Context, Mutate, __private::generate_subterm};
/// let mut cx = Context::new(1);
/// // No wrap is generating here: the field gets its size, one level down.
/// let empty: Vec<u8> = generate_subterm(&mut cx, 0, <Vec<u8> as Mutate>::generate);
/// assert!(empty.is_empty());
/// let sized: Vec<u8> = generate_subterm(&mut cx, 3, <Vec<u8> as Mutate>::generate);
/// assert!(sized.len() <= 3);
/// assert_eq!(cx.depth(), 0);
/// ```
#[inline]
pub fn generate_subterm<T>(cx: &mut Context, size: usize, generate: fn(&mut Context) -> T) -> T {
    let size = cx.subterm_size(size);
    generate_field(cx, size, generate)
}

/// Observes field number `field` of a node whose constructor is `constructor` with `visit` (the
/// field type's `Mutate::visit_structure`): [`Structure::child`], which the derived
/// `visit_structure` calls once per field. A helper compiled once per field type keeps the
/// `enter` / `leave` bookkeeping out of the derived code; the derive passes
/// `<Field as Mutate>::visit_structure`, so a field type without `Mutate` is reported there.
///
/// ```
/// use typefuzz_core::{Mutate, __private::structure_field};
/// use typefuzz_core::structure::{token, Structure};
/// let mut map = vec![0u64; Structure::MAP_WORDS];
/// let mut structure = Structure::new(&mut map);
/// structure_field(&mut structure, token("Wrapper"), 0, &7u8, <u8 as Mutate>::visit_structure);
/// assert!(structure.new_features() > 0);
/// ```
// Inlined into the derived walk in optimized builds (its focused part is out of line), as it
// was before the focus; a debug build keeps one copy per field type.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn structure_field<T>(
    structure: &mut Structure<'_>,
    constructor: u64,
    field: u32,
    value: &T,
    visit: fn(&T, &mut Structure<'_>),
) {
    if let Some(step) = structure.enter_at(constructor, field, field as usize, false) {
        visit(value, structure);
        structure.leave(step);
    }
}

/// Mutates a field with `mutate` (its type's `Mutate::mutate`) one level down (the size budget
/// minus the node itself): what the recursive operator does to an element of the engine's
/// containers (the derive brackets its whole match over fields with [`enter_field`] and
/// [`leave_field`] instead).
///
/// ```
/// use typefuzz_core::{Context, Mutate, __private::mutate_field};
/// let mut cx = Context::new(1);
/// let mut x = 7u8;
/// mutate_field(&mut x, &mut cx, <u8 as Mutate>::mutate);
/// assert_eq!(cx.depth(), 0);
/// ```
pub fn mutate_field<T>(value: &mut T, cx: &mut Context, mutate: fn(&mut T, &mut Context)) {
    // `Context::descend` without its closure (one instantiation fewer per element type). No
    // child is named to the undo log (`enter_field` does): which child this is depends on the
    // caller, which says so itself where its structure walk follows it.
    let saved_size = cx.enter(cx.size().saturating_sub(1));
    mutate(value, cx);
    cx.leave(saved_size);
}

/// Before the derived `mutate` rewrites `value` itself (subterm, constructor drop and grow,
/// regeneration; a field with its own mutator): when the engine mutates a seed in place, moves
/// the value into the undo log and leaves a clone to rewrite (see
/// [`Mutate::mutate_undoable`]). Only for the value being mutated: the engine writes the saved
/// value back to this place after the test.
///
/// ```
/// use typefuzz_core::{Context, __private::save};
/// let mut x = 3u8;
/// save(&mut x, &mut Context::new(1)); // outside the engine's loop: nothing happens
/// assert_eq!(x, 3);
/// ```
#[inline]
pub fn save<T: Mutate>(value: &mut T, cx: &mut Context) {
    cx.save(value);
}

/// Checks the engine's in-place mutation on `value` (the tests of the derive and of the std
/// impls call it): `mutations` stacked [`Mutate::mutate_undoable`] calls, recording in the undo
/// log, make the mutant that as many [`Context::mutate`] calls on a clone make from the same
/// random state (what a crash recipe replays), and undoing them gives `value` back, compared by
/// their encodings; and the structure feedback's walk of the mutant focused on where the undo
/// log says it changed (`Context::changed`) marks exactly the features a walk of the whole
/// mutant marks, in a map holding the seed's. Leaves `value` as it was and `cx`'s random state
/// after the mutations.
///
/// ```
/// use typefuzz_core::{Context, __private::check_undo};
/// let mut cx = Context::new(4);
/// let mut value = (vec![Some(1u8), None], [3u16; 4], String::from("x"));
/// for _ in 0..100 {
///     check_undo(&mut value, &mut cx, 3).unwrap();
/// }
/// ```
pub fn check_undo<T: Mutate + core::fmt::Debug>(
    value: &mut T,
    cx: &mut Context,
    mutations: usize,
) -> Result<(), String> {
    let original = crate::codec::to_bytes(value);
    let state = cx.rng().get_seed();
    let mut copy = value.clone();
    for _ in 0..mutations {
        cx.mutate(&mut copy);
    }
    cx.rng().seed(state);
    let mut seed_features = vec![0u64; Structure::MAP_WORDS];
    value.visit_structure(&mut Structure::features_only(&mut seed_features));
    cx.start_undo();
    for _ in 0..mutations {
        cx.mutate_undoable(value);
    }
    let mutant = crate::codec::to_bytes(value);
    let shown = format!("{value:?}");
    if let Some(focus) = cx.changed() {
        let (mut whole, mut focused) = (seed_features.clone(), seed_features);
        let mut walk = Structure::features_only(&mut whole);
        value.visit_structure(&mut walk);
        let cut_short = walk.partial;
        let mut walk = Structure::features_only(&mut focused);
        walk.focus(focus);
        value.visit_structure(&mut walk);
        if !cut_short && whole != focused {
            let path = (focus.path.to_vec(), focus.elements);
            // SAFETY: as below.
            unsafe { cx.undo(value) };
            return Err(format!(
                "the walk focused on {path:?} marks other features than the whole walk, in \
                 mutant {shown}"
            ));
        }
    }
    // SAFETY: `value` is borrowed for this whole call, so it has not moved since `start_undo`,
    // and only `mutate_undoable` changed it.
    unsafe { cx.undo(value) };
    if mutant != crate::codec::to_bytes(&copy) {
        return Err(format!("in place: {shown}, on a copy: {copy:?}"));
    }
    if crate::codec::to_bytes(value) != original {
        return Err(format!("undone: {value:?}, from mutant {shown}"));
    }
    Ok(())
}

/// Enters the level the derived `mutate` mutates field number `field` at (its index among the
/// active fields, as the derived `visit_structure` numbers them: the structure feedback then
/// looks only at that field's subtree when nothing else changed), with the size budget minus
/// the node itself ([`mutate_field`]'s `enter`), returning the size [`leave_field`] restores.
/// The derive brackets its match over fields with the two, so each field costs a direct call
/// to its type's `Mutate::mutate` rather than an instantiation of [`mutate_field`] per field
/// type.
///
/// ```
/// use typefuzz_core::{Context, Mutate, __private::{enter_field, leave_field}};
/// let mut cx = Context::new(1);
/// let mut x = 7u8;
/// let saved = enter_field(&mut cx, 0);
/// assert_eq!(cx.depth(), 1);
/// x.mutate(&mut cx);
/// leave_field(&mut cx, saved);
/// assert_eq!(cx.depth(), 0);
/// ```
pub fn enter_field(cx: &mut Context, field: usize) -> usize {
    cx.undo_log().enter_child(field);
    cx.enter(cx.size().saturating_sub(1))
}

/// How many mutations of a component that has a twin there are per paired one
/// ([`Operator::Paired`](crate::Operator::Paired)). Measured on the IFC benchmark at equal test
/// budgets, hard mutants (`bench/RESULTS.md`): pairing 1 in 2, 4 and 8 all need fewer tests than
/// none, 1 in 8 the fewest; a rate that followed which kind of mutant was kept more often
/// settled near 3 in 4 there (paired mutants reach new coverage more often) and found less:
/// most counterexamples of a relational property are a difference between the two sides.
pub const PAIRED_ONE_IN: u32 = 8;

/// Paired mutation: the field (or tuple component) the mutation of field `target` is replayed
/// on, if this mutation is paired (one in [`PAIRED_ONE_IN`]), chosen at random among the twins of
/// `target` — the fields whose entry in `groups` equals `target`'s (the derive and the tuple
/// impls give fields of one type one group). Draws nothing from `cx` when `target` has no twin,
/// so a value without twins mutates exactly as it would without pairing; never under the
/// FuzzChick-faithful operators. The caller replays the random state it had before mutating
/// `target`, so equal twins get the same mutation.
///
/// ```
/// use typefuzz_core::{Context, Operators, __private::paired_field};
/// let mut cx = Context::new(1);
/// assert_eq!(paired_field(&mut cx, &[0, 1, 2], 0), None, "no twin");
/// let paired = (0..800).filter(|_| paired_field(&mut cx, &[0, 1, 0], 0) == Some(2)).count();
/// assert!((50..=150).contains(&paired), "about one in 8: {paired}");
/// let mut faithful = Context::new(1).with_operators(Operators::fuzzchick());
/// assert!((0..800).all(|_| paired_field(&mut faithful, &[0, 0], 1).is_none()));
/// ```
pub fn paired_field(cx: &mut Context, groups: &[u8], target: usize) -> Option<usize> {
    let group = *groups.get(target)?;
    let is_twin = |(i, &g): &(usize, &u8)| *i != target && g == group;
    let twins = groups.iter().enumerate().filter(is_twin).count();
    if twins == 0 || cx.operators().faithful || !cx.chance(1, PAIRED_ONE_IN) {
        return None;
    }
    let pick = cx.below(twins);
    groups
        .iter()
        .enumerate()
        .filter(is_twin)
        .nth(pick)
        .map(|(i, _)| i)
}

/// Leaves the level [`enter_field`] entered, restoring the size it returned.
pub fn leave_field(cx: &mut Context, saved_size: usize) {
    cx.undo_log().leave_child();
    cx.leave(saved_size);
}

/// A field, as the derived `shrink` asks for its shrink candidates:
/// `(&Field(field)).shrinks(cx, <Type as Mutate>::shrink)`, with [`ShrinkAny`],
/// [`ShrinkOption`], [`ShrinkBox`] and [`ShrinkVec`] in scope. The method call picks the impl by
/// the field's type: an `Option`, `Box` or `Vec` field gets its candidates without their being
/// collected as a `Vec<Option<T>>`, `Vec<Box<T>>` or `Vec<Vec<T>>` (whose `push`, `pop`, growth
/// and drop glue would be compiled once per such field type; the derive names no wrapper type
/// itself, so a type of the user's own called `Option`, `Box` or `Vec` still takes the general
/// path), any other field through `shrink`. The receiver is `&Field`: the `Option`, `Box` and
/// `Vec` impls match it as it is, the general one only by auto-reference, which method lookup
/// tries last.
///
/// Either way the candidates are `shrink`'s, in its order, computed one level down at size 0,
/// and handed out by `pop`: the derive loops over them inline, so each field costs a loop in
/// the derived `shrink` instead of a closure (with its `FnOnce` shims). The derive passes
/// `<Field as Mutate>::shrink`, so a field type without `Mutate` is reported there, once, like
/// in the other derived methods.
///
/// ```
/// use typefuzz_core::{Context, Mutate};
/// use typefuzz_core::__private::{Field, ShrinkAny as _, ShrinkBox as _, ShrinkOption as _, ShrinkVec as _};
/// let mut cx = Context::new(1);
/// let mut candidates = (&Field(&4u8)).shrinks(&mut cx, <u8 as Mutate>::shrink);
/// assert_eq!(candidates.pop(), 4u8.shrink(&mut cx).first().copied());
/// let some = Some(4u8);
/// let mut candidates = (&Field(&some)).shrinks(&mut cx, <Option<u8> as Mutate>::shrink);
/// let mut all = Vec::new();
/// while let Some(candidate) = candidates.pop() {
///     all.push(candidate);
/// }
/// assert_eq!(all, some.shrink(&mut cx));
/// let list = vec![3u8, 0];
/// let mut candidates = (&Field(&list)).shrinks(&mut cx, <Vec<u8> as Mutate>::shrink);
/// assert_eq!(candidates.pop(), list.shrink(&mut cx).first().cloned());
/// assert_eq!(cx.depth(), 0);
/// ```
pub struct Field<'a, T>(pub &'a T);

/// Any field's shrink candidates (see [`Field`]): `shrink`'s, last first, for `pop`.
pub trait ShrinkAny<T> {
    /// The field's shrink candidates from `shrink`, run one level down at size 0.
    fn shrinks(&self, cx: &mut Context, shrink: fn(&T, &mut Context) -> Vec<T>) -> Vec<T>;
}

impl<T> ShrinkAny<T> for &Field<'_, T> {
    fn shrinks(&self, cx: &mut Context, shrink: fn(&T, &mut Context) -> Vec<T>) -> Vec<T> {
        // `Context::descend` without its closure (one instantiation fewer per field type).
        let saved_size = cx.enter(0);
        // Held without drop glue across the calls (see the module docs).
        let mut candidates = ManuallyDrop::new(shrink(self.0, cx));
        cx.leave(saved_size);
        reverse(&mut candidates);
        ManuallyDrop::into_inner(candidates)
    }
}

/// An `Option` field's shrink candidates (see [`Field`]).
pub trait ShrinkOption<T> {
    /// `None`, then the payload's own candidates in `Some`: what `Option::shrink` returns, run
    /// one level down at size 0. `shrink` (`Option<T>`'s) is not called.
    fn shrinks<S>(&self, cx: &mut Context, shrink: S) -> OptionShrinks<T>;
}

impl<T: Mutate> ShrinkOption<T> for Field<'_, Option<T>> {
    fn shrinks<S>(&self, cx: &mut Context, _: S) -> OptionShrinks<T> {
        let saved_size = cx.enter(0);
        // Held without drop glue across the calls (see the module docs).
        let mut payload = ManuallyDrop::new(match self.0 {
            None => Vec::new(),
            Some(payload) => payload.shrink(cx),
        });
        cx.leave(saved_size);
        reverse(&mut payload);
        OptionShrinks {
            none: self.0.is_some(),
            payload: ManuallyDrop::into_inner(payload),
        }
    }
}

/// The candidates [`ShrinkOption::shrinks`] hands out.
pub struct OptionShrinks<T> {
    /// `None` is still to come.
    none: bool,
    /// The payload's candidates, last first.
    payload: Vec<T>,
}

impl<T> OptionShrinks<T> {
    /// The next candidate, in `Option::shrink`'s order.
    #[allow(clippy::manual_map)] // `map` would be compiled once more per payload type
    pub fn pop(&mut self) -> Option<Option<T>> {
        if self.none {
            self.none = false;
            return Some(None);
        }
        match self.payload.pop() {
            Some(payload) => Some(Some(payload)),
            None => None,
        }
    }
}

/// A `Box` field's shrink candidates (see [`Field`]).
pub trait ShrinkBox<T> {
    /// The boxed value's own candidates, boxed: what `Box::shrink` returns, run one level down
    /// at size 0. `shrink` (`Box<T>`'s) is not called.
    fn shrinks<S>(&self, cx: &mut Context, shrink: S) -> BoxShrinks<T>;
}

impl<T: Mutate> ShrinkBox<T> for Field<'_, Box<T>> {
    fn shrinks<S>(&self, cx: &mut Context, _: S) -> BoxShrinks<T> {
        let saved_size = cx.enter(0);
        // Held without drop glue across the calls (see the module docs).
        let mut candidates = ManuallyDrop::new((**self.0).shrink(cx));
        cx.leave(saved_size);
        reverse(&mut candidates);
        BoxShrinks(ManuallyDrop::into_inner(candidates))
    }
}

/// A `Vec` field's shrink candidates (see [`Field`]).
pub trait ShrinkVec<'a, T> {
    /// What `Vec::shrink` returns, the elements shrunk one level down at size 0, each candidate
    /// made only when it is taken (so they hold `cx` until then). `shrink` (`Vec<T>`'s) is not
    /// called.
    fn shrinks<'c, S>(&self, cx: &'c mut Context, shrink: S) -> SequenceShrinks<'a, 'c, T>;
}

impl<'a, T: Mutate> ShrinkVec<'a, T> for Field<'a, Vec<T>> {
    fn shrinks<'c, S>(&self, cx: &'c mut Context, _: S) -> SequenceShrinks<'a, 'c, T> {
        SequenceShrinks::new(self.0, cx, true)
    }
}

/// The candidates [`ShrinkBox::shrinks`] hands out: the boxed value's, last first.
pub struct BoxShrinks<T>(Vec<T>);

impl<T> BoxShrinks<T> {
    /// The next candidate, in `Box::shrink`'s order.
    #[allow(clippy::manual_map)] // `map` would be compiled once more per boxed type
    pub fn pop(&mut self) -> Option<Box<T>> {
        match self.0.pop() {
            Some(candidate) => Some(Box::new(candidate)),
            None => None,
        }
    }
}

/// Reverses `items` in place, so that `pop` hands them out in their original order: how shrink
/// candidates are moved out of the `Vec` a `shrink` returned without `vec::IntoIter` (whose
/// methods and drop guard would be compiled once per candidate type). The swaps are done on
/// bytes by one function compiled once, where `<[T]>::reverse` would be compiled per type too.
///
/// ```
/// use typefuzz_core::__private::reverse;
/// let mut items = vec![String::from("a"), String::from("b"), String::from("c")];
/// reverse(&mut items);
/// assert_eq!(items, ["c", "b", "a"]);
/// ```
#[inline]
pub fn reverse<T>(items: &mut Vec<T>) {
    // A `Vec` rather than a slice: the coercion would compile `DerefMut` once more per type.
    let len = items.len();
    // SAFETY: the vector's `len` elements are `len * size_of::<T>()` bytes at its pointer, which
    // is valid for reads and writes; `reverse_bytes` swaps the bytes of element `i` with those
    // of element `len - 1 - i` (distinct, so non-overlapping), exactly what `swap(i, len - 1 - i)`
    // moves, and leaves every element whole.
    unsafe {
        reverse_bytes(
            items.as_mut_ptr().cast::<core::mem::MaybeUninit<u8>>(),
            len,
            core::mem::size_of::<T>(),
        );
    }
}

/// Reverses the order of `len` elements of `size` bytes each starting at `start`.
///
/// # Safety
///
/// `start` must be valid for reads and writes of `len * size` bytes.
unsafe fn reverse_bytes(start: *mut core::mem::MaybeUninit<u8>, len: usize, size: usize) {
    for index in 0..len / 2 {
        // SAFETY: both elements lie within the `len * size` bytes the caller vouches for, and
        // `index < len - 1 - index`, so they do not overlap. Bytes as `MaybeUninit<u8>`: the
        // copy is untyped, padding included.
        unsafe {
            core::ptr::swap_nonoverlapping(
                start.add(index * size),
                start.add((len - 1 - index) * size),
                size,
            );
        }
    }
}

/// A field of the value a constructor transition rebuilds, for the new value: moved out of
/// `slot` (leaving a value generated at size 0 in its place), or, when the engine mutates a
/// seed in place and the old value is kept whole for the undo ([`replace`]), a clone of it. The
/// same draws either way.
///
/// ```
/// use typefuzz_core::{Context, __private::take};
/// let mut field = vec![1u8, 2];
/// assert_eq!(take(&mut field, &mut Context::new(1)), [1, 2]);
/// assert!(field.is_empty());
/// ```
#[inline]
pub fn take<T: Mutate>(slot: &mut T, cx: &mut Context) -> T {
    let placeholder = cx.generate_sized(0);
    // A field read, not a call, while `placeholder` is held (see the module docs).
    if cx.undo.recording {
        drop(placeholder);
        return slot.duplicate();
    }
    core::mem::replace(slot, placeholder)
}

/// [`take`] that always moves: `wrap` puts the value itself inside its wrapper.
fn take_moved<T: Mutate>(slot: &mut T, cx: &mut Context) -> T {
    let placeholder = cx.generate_sized(0);
    core::mem::replace(slot, placeholder)
}

/// Picks `count` distinct indices out of `0..available` in random order (`count <= available`).
pub fn distinct(cx: &mut Context, available: usize, count: usize) -> [usize; 32] {
    let mut pool = [0usize; 32];
    let available = available.min(32);
    for (index, slot) in pool.iter_mut().enumerate().take(available) {
        *slot = index;
    }
    for index in 0..count.min(available) {
        let pick = index + cx.below(available - index);
        pool.swap(index, pick);
    }
    pool
}

/// What [`walk`] counts: the nodes it may still visit, and whether it reached a node at the
/// depth where it stops descending.
struct Walk {
    /// Nodes the walk may still visit.
    left: usize,
    /// Whether a node at the bottom depth was reached.
    bottom: bool,
    /// Stop as soon as `bottom` is set.
    stop_at_bottom: bool,
}

/// What one read-only pass over the subterms of a value does for each of them.
enum Visit<'a, T> {
    /// Count it ([`count_subterms`]).
    Count(&'a mut usize),
    /// Push a clone of it ([`clone_subterms`]).
    Clone(&'a mut Vec<T>),
    /// [`walk`] it, this many levels down.
    Walk(&'a mut Walk, usize),
}

/// Calls [`Mutate::visit_subterms`] on `value` with one closure that does what `visit` says:
/// the read-only subterm walks of [`walk`] (so [`deeper_than`] and [`count_nodes`]),
/// [`count_subterms`] and [`clone_subterms`] share it, so that a recursive type compiles one
/// visitor closure (with its `FnOnce` shims) for the three instead of one each. The choice
/// costs a `match` per subterm, no call.
fn visit_subterms_with<T: Mutate>(value: &T, mut visit: Visit<'_, T>) {
    value.visit_subterms(&mut |subterm| match &mut visit {
        Visit::Count(count) => **count += 1,
        Visit::Clone(out) => out.push(subterm.duplicate()),
        Visit::Walk(state, levels) => {
            if state.left > 0 && !(state.stop_at_bottom && state.bottom) {
                walk(subterm, *levels, state);
            }
        }
    });
}

/// Visits `value` and its same-type descendants (through [`Mutate::visit_subterms`]) depth-first
/// in preorder, at most `levels` levels below `value`, while `state.left > 0`. The read-only
/// subterm walk of [`deeper_than`] and [`count_nodes`].
fn walk<T: Mutate>(value: &T, levels: usize, state: &mut Walk) {
    state.left -= 1;
    if levels == 0 {
        state.bottom = true;
        return;
    }
    visit_subterms_with(value, Visit::Walk(state, levels - 1));
}

/// Counts the subterms of `value` visited by [`Mutate::visit_subterms`].
///
/// ```
/// use typefuzz_core::{Mutate, __private::count_subterms};
/// #[derive(Clone, Debug, typefuzz_derive::Mutate)]
/// #[mutate(crate = "typefuzz_core")]
/// enum Tree { Leaf, Node(Box<Tree>, Box<Tree>) }
/// let tree = Tree::Node(Box::new(Tree::Leaf), Box::new(Tree::Node(Box::new(Tree::Leaf), Box::new(Tree::Leaf))));
/// assert_eq!(count_subterms(&tree), 2);
/// ```
pub fn count_subterms<T: Mutate>(value: &T) -> usize {
    let mut count = 0;
    visit_subterms_with(value, Visit::Count(&mut count));
    count
}

/// Replaces subterm number `index` of `value` (in [`Mutate::visit_subterms_mut`] order) by
/// `replacement` and returns the subterm it replaced; `None` (dropping `replacement`) when there
/// is no such subterm. The one mutable subterm walk of [`take_subterm`], [`dispose`], [`wrap`]
/// and the undo log's returns of a wrapped or lifted subterm: a recursive type compiles one
/// visitor closure for all of them.
///
/// ```
/// use typefuzz_core::{Mutate, __private::replace_subterm};
/// #[derive(Clone, Debug, PartialEq, typefuzz_derive::Mutate)]
/// #[mutate(crate = "typefuzz_core")]
/// enum List { Nil, Cons(u8, Box<List>) }
/// let mut list = List::Cons(1, Box::new(List::Nil));
/// let old = replace_subterm(&mut list, 0, List::Cons(2, Box::new(List::Nil)));
/// assert_eq!(old, Some(List::Nil));
/// assert_eq!(list, List::Cons(1, Box::new(List::Cons(2, Box::new(List::Nil)))));
/// assert_eq!(replace_subterm(&mut List::Nil, 0, List::Nil), None);
/// ```
pub fn replace_subterm<T: Mutate>(value: &mut T, index: usize, replacement: T) -> Option<T> {
    let mut remaining = index;
    // Both held without drop glue across the walk and reached through plain references inside
    // it (see the module docs).
    let mut replacement = ManuallyDrop::new(Some(replacement));
    let mut replaced = ManuallyDrop::new(None);
    let (new_value, old_value): (&mut Option<T>, &mut Option<T>) =
        (&mut replacement, &mut replaced);
    value.visit_subterms_mut(&mut |subterm| {
        if remaining > 0 {
            remaining -= 1;
        } else if let Some(new) = new_value.take() {
            let old = core::mem::replace(subterm, new);
            drop(old_value.replace(old));
        }
    });
    drop(ManuallyDrop::into_inner(replacement));
    ManuallyDrop::into_inner(replaced)
}

/// Before the derived `mutate` mutates a field with its own mutator (`#[mutate(with = ...)]`):
/// [`save`]s the whole value and pauses recording, returning whether it was recording, for
/// [`resume`]. A custom mutator may mutate temporaries, which must record nothing.
///
/// ```
/// use typefuzz_core::{Context, __private::{resume, save_whole}};
/// let mut cx = Context::new(1);
/// let mut x = 3u8;
/// let recording = save_whole(&mut x, &mut cx);
/// x += 1;
/// resume(&mut cx, recording);
/// assert!(!recording);
/// ```
pub fn save_whole<T: Mutate>(value: &mut T, cx: &mut Context) -> bool {
    cx.save(value);
    cx.pause_undo()
}

/// Resumes the recording [`save_whole`] paused.
pub fn resume(cx: &mut Context, recording: bool) {
    cx.resume_undo(recording);
}

/// Regeneration: `value` becomes `new`. When the engine mutates a seed in place the old value
/// goes to the undo log as it is (no clone of it: see [`Mutate::mutate_undoable`]); otherwise it
/// is disposed of.
///
/// ```
/// use typefuzz_core::{Context, __private::replace};
/// let mut x = vec![1u8];
/// replace(&mut x, vec![2, 3], &mut Context::new(1));
/// assert_eq!(x, [2, 3]);
/// ```
pub fn replace<T: Mutate>(value: &mut T, new: T, cx: &mut Context) {
    // The log's state read as a field before anything moves (see the module docs).
    if cx.undo.recording {
        let old = core::mem::replace(value, new);
        cx.undo.keep(value, old);
    } else {
        dispose(core::mem::replace(value, new));
    }
}

/// Subterm: `value` becomes its subterm number `index` (in [`Mutate::visit_subterms`] order),
/// if it has one, moved out (a size-0 placeholder left in its place). In place (see
/// [`replace`]) the old value, placeholder included, is kept for the undo, which moves the
/// subterm back down into it. The same draws either way.
///
/// ```
/// use typefuzz_core::{Context, Mutate, __private::replace_by_subterm};
/// #[derive(Clone, Debug, PartialEq, typefuzz_derive::Mutate)]
/// #[mutate(crate = "typefuzz_core")]
/// enum List { Nil, Cons(u8, Box<List>) }
/// let mut list = List::Cons(1, Box::new(List::Cons(2, Box::new(List::Nil))));
/// replace_by_subterm(&mut list, 0, &mut Context::new(1));
/// assert_eq!(list, List::Cons(2, Box::new(List::Nil)));
/// ```
pub fn replace_by_subterm<T: Mutate>(value: &mut T, index: usize, cx: &mut Context) {
    if let Some(subterm) = take_subterm(value, index, cx) {
        let old = core::mem::replace(value, subterm);
        // The log's state read as a field (see the module docs).
        if cx.undo.recording {
            // The old value (a placeholder where the subterm was) kept for the undo, which
            // moves the subterm back down: nothing cloned.
            cx.undo.lifted(value, old, index);
        } else {
            dispose(old);
        }
    }
}

/// Moves subterm number `index` out of `value` (leaving a size-0 placeholder in its place).
pub fn take_subterm<T: Mutate>(value: &mut T, index: usize, cx: &mut Context) -> Option<T> {
    if index >= count_subterms(value) {
        return None;
    }
    // The placeholder `take` would generate at the subterm: the same draws.
    let placeholder = cx.generate_sized(0);
    replace_subterm(value, index, placeholder)
}

/// Most descendants [`clone_descendants`] offers as shrink candidates.
pub const MAX_SHRINK_DESCENDANTS: usize = 256;

/// Values nested deeper than this get no shrink candidates at all: every candidate is a clone
/// of a subterm, and the derived `Clone` and drop glue recurse once per level, so cloning a
/// 100,000-deep list overflows the stack. 2048 levels stay well inside a test thread's 2 MiB
/// stack in debug builds while covering every failing input the mutation bound (512) produces.
/// The engine's shrinker shrinks deeper values without copying them: it moves a same-type
/// subterm out in the value's place ([`take_subterm`]) and tries that.
pub const MAX_SHRINK_CLONE_DEPTH: usize = 2048;

/// Values nested deeper than this offer only their direct subterms (see [`clone_descendants`]).
pub const MAX_SHRINK_DESCENDANT_DEPTH: usize = 32;

/// Clones the same-type descendants of `value` at every depth, nearest first (breadth-first),
/// at most [`MAX_SHRINK_DESCENDANTS`] of them: shrink candidates that replace the value by one
/// of its descendants. Under a precondition (a search tree must stay ordered) the children may
/// all be invalid replacements while a grandchild is valid, so every depth is offered.
///
/// A value nested deeper than [`MAX_SHRINK_DESCENDANT_DEPTH`] offers its direct subterms only:
/// such values are list-like, each candidate costs a clone of up to the whole value, and the
/// greedy descent through direct subterms already reaches every depth one level per step
/// (measured: a 900-deep value shrinking towards depth 600 hit the 30 s shrink limit in debug
/// builds when it offered 256 descendants per step).
pub fn clone_descendants<T: Mutate>(value: &T, out: &mut Vec<T>) {
    let first = out.len();
    clone_subterms(value, out);
    if deeper_than(value, MAX_SHRINK_DESCENDANT_DEPTH) {
        return;
    }
    let mut next = first;
    // Without drop glue across the calls below (see the module docs); freed at the end.
    let mut found = ManuallyDrop::new(Vec::new());
    while next < out.len() && out.len() - first < MAX_SHRINK_DESCENDANTS {
        clone_subterms(&out[next], &mut found);
        let room = MAX_SHRINK_DESCENDANTS - (out.len() - first);
        found.truncate(room);
        // Moved over in order by `pop` after a `reverse`, as shrink candidates are: `append`
        // would be compiled once more per type.
        reverse(&mut found);
        while let Some(descendant) = found.pop() {
            out.push(descendant);
        }
        next += 1;
    }
    drop(ManuallyDrop::into_inner(found));
}

/// Pushes a clone of each subterm of `value` onto `out` (both of [`clone_descendants`]' walks).
fn clone_subterms<T: Mutate>(value: &T, out: &mut Vec<T>) {
    visit_subterms_with(value, Visit::Clone(out));
}

/// Is `value` nested more than `limit` levels deep through its own subterms? Recursion is
/// bounded by `limit`, so this is safe on values of any depth.
pub fn deeper_than<T: Mutate>(value: &T, limit: usize) -> bool {
    let mut state = Walk {
        left: usize::MAX,
        bottom: false,
        stop_at_bottom: true,
    };
    walk(value, limit, &mut state);
    state.bottom
}

/// Drops `value` without deep recursion when it is deeper than [`MAX_MUTATION_DEPTH`]: subterms
/// are moved onto an explicit stack first. The compiler's drop glue recurses once per level,
/// which overflows the stack on values nested ~100,000 deep (long lists, degenerate trees).
pub fn dispose<T: Mutate>(value: T) {
    if !deeper_than(&value, MAX_MUTATION_DEPTH) {
        return;
    }
    let mut cx = Context::new(0);
    // Not `vec![value]`: its boxed-slice path would be compiled once more per type.
    let mut pending = Vec::new();
    pending.push(value);
    while let Some(mut node) = pending.pop() {
        for index in 0..count_subterms(&node) {
            // What `take` does at each subterm, through the shared walk.
            let placeholder = cx.generate_sized(0);
            if let Some(subterm) = replace_subterm(&mut node, index, placeholder) {
                pending.push(subterm);
            }
        }
    }
}

/// The size fresh fields get when constructor grow adds them: small (at most 3), so a grown
/// value stays close to its parent — `Leaf(k) -> Node(Leaf, k, Leaf)` rather than a big random
/// subtree, which would undo what the parent's precondition-satisfying shape achieved.
pub fn grow_size(cx: &mut Context) -> usize {
    let limit = cx.size().min(3);
    cx.below(limit + 1)
}

/// The size a regenerated value gets: uniform in `0..=size`, so regeneration tries small
/// replacements as often as large ones.
pub fn regenerate_size(cx: &mut Context) -> usize {
    let size = cx.size();
    cx.below(size + 1)
}

/// Nodes of `value` counted through [`Mutate::visit_subterms`] (the value itself and its
/// same-type descendants), counting stops once it reaches `limit`: the size a mutation balances
/// against, bounded so that it costs at most `limit` visits.
///
/// ```
/// use typefuzz_core::{Mutate, __private::count_nodes};
/// #[derive(Clone, Debug, typefuzz_derive::Mutate)]
/// #[mutate(crate = "typefuzz_core")]
/// enum List { Nil, Cons(u8, Box<List>) }
/// let list = List::Cons(1, Box::new(List::Cons(2, Box::new(List::Nil))));
/// assert_eq!(count_nodes(&list, 100), 3);
/// assert_eq!(count_nodes(&list, 2), 2);
/// ```
pub fn count_nodes<T: Mutate>(value: &T, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    let mut state = Walk {
        left: limit,
        bottom: false,
        stop_at_bottom: false,
    };
    walk(value, usize::MAX, &mut state);
    limit - state.left
}

/// Fresh values [`wrap`] draws, at most, looking for one with a same-type field.
const WRAP_ATTEMPTS: usize = 4;

/// Constructor grow by wrapping, the inverse of subterm: `value` becomes a same-type field of a
/// freshly generated value (`x -> Add(x, y)`), whose other fields are generated at about the
/// size of `value`, so that what subterm takes away (`Add(x, y) -> x`) wrapping gives back and
/// mutants keep the size of their seeds on average. The wrapper's `Box<Self>` fields are
/// generated as leaves ([`generate_subterm`]) and the value's siblings only once its place is
/// drawn, so that no subtree is generated just to be dropped for the value. Returns `false`,
/// leaving `value` alone, when
/// wrapping would make it deeper than the size budget, no drawn value has a same-type field, or
/// the operators are FuzzChick's ([`Operators::faithful`](crate::Operators::faithful): wrapping
/// is not one of them).
///
/// ```
/// use typefuzz_core::{Context, Mutate, __private::{count_nodes, wrap}};
/// #[derive(Clone, Debug, PartialEq, typefuzz_derive::Mutate)]
/// #[mutate(crate = "typefuzz_core")]
/// enum Term { Lit(u8), Add(Box<Term>, Box<Term>) }
/// let mut cx = Context::new(3);
/// let mut term = Term::Lit(7);
/// assert!(wrap(&mut term, &mut cx));
/// let mut inside = false;
/// term.visit_subterms(&mut |t| inside |= *t == Term::Lit(7));
/// assert!(inside, "{term:?}");
/// assert!(count_nodes(&term, 100) >= 3);
/// ```
pub fn wrap<T: Mutate>(value: &mut T, cx: &mut Context) -> bool {
    let budget = cx.size();
    if cx.operators().faithful || budget == 0 {
        return false;
    }
    // A value of fewer nodes than the budget is no deeper than that: the depth walk is needed
    // only when the count reached it.
    let nodes = count_nodes(value, budget);
    if nodes >= budget && deeper_than(value, budget - 1) {
        return false;
    }
    // Siblings of about `nodes` nodes each: a value generated at size `s` has about `s` nodes,
    // split among its same-type fields.
    let size = (2 * nodes + 1).min(budget);
    for _ in 0..WRAP_ATTEMPTS {
        cx.arm_hole();
        // The wrapper is held without drop glue across the calls below, reached through a plain
        // reference (see the module docs).
        let mut fresh = ManuallyDrop::new(cx.generate_sized::<T>(size));
        let hole = cx.disarm_hole();
        let mut slots = count_subterms(&*fresh);
        // The wrapper's `Box<Self>` fields came as leaves. When they are all its subterms, the
        // one the value takes needs nothing more; else (other subterms, in a `Vec<Self>` say,
        // at unknown places among them) the wrapper is made again from the same random state
        // at full size: what generation alone makes.
        let leaves = hole.fields > 0 && hole.fields == slots;
        if hole.fields > 0 && !leaves {
            cx.rng().seed(hole.state);
            dispose(ManuallyDrop::into_inner(fresh));
            fresh = ManuallyDrop::new(cx.generate_sized(size));
            slots = count_subterms(&*fresh);
        }
        if slots == 0 {
            drop(ManuallyDrop::into_inner(fresh));
            continue;
        }
        let slot = cx.below(slots);
        let wrapper: &mut T = &mut fresh;
        let inner = take_moved(value, cx);
        if let Some(replaced) = replace_subterm(wrapper, slot, inner) {
            dispose(replaced);
        }
        if leaves {
            // A loop without iterator adapters, which would be compiled once more per type.
            for index in 0..slots {
                if index == slot {
                    continue;
                }
                // What the field's `generate_subterm` would have made (`generate_sized`, not
                // `generate_field`: one instantiation fewer per type, the same draws).
                let sibling: T = cx.generate_sized(hole.size);
                if let Some(leaf) = replace_subterm(wrapper, index, sibling) {
                    dispose(leaf);
                }
            }
        }
        // The size-0 value `take_moved` left in the value's place, disposed of before the log
        // hears of the wrapper (which reads nothing of it).
        dispose(core::mem::replace(value, ManuallyDrop::into_inner(fresh)));
        if cx.undo.recording {
            // Undone by moving the value back out of the wrapper: no clone of it.
            cx.undo.wrapped(value, slot);
        }
        return true;
    }
    false
}

/// The size constructor grow generates the new fields of a recursive type at: twice the nodes
/// of the value it changes (within the budget), so a fresh same-type field of a two-field
/// variant gets about as many nodes as the value had (`Neg(a) -> Add(a, b)` with `b` about as
/// big as `a`), which is what constructor drop takes away (`Add(a, b) -> Neg(a)`).
///
/// ```
/// use typefuzz_core::{Context, Mutate, __private::grow_size_of};
/// #[derive(Clone, Debug, typefuzz_derive::Mutate)]
/// #[mutate(crate = "typefuzz_core")]
/// enum List { Nil, Cons(u8, Box<List>) }
/// let list = List::Cons(1, Box::new(List::Nil));
/// assert_eq!(grow_size_of(&list, &mut Context::new(1)), 4);
/// assert_eq!(grow_size_of(&list, &mut Context::new(1).with_max_size(3)), 3);
/// ```
pub fn grow_size_of<T: Mutate>(value: &T, cx: &mut Context) -> usize {
    let budget = cx.size();
    (2 * count_nodes(value, budget)).min(budget)
}
