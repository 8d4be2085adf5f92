//! `Vec<T>` and `VecDeque<T>`: insert, duplicate, remove, swap, truncate, and element mutation.
//!
//! # Shrink order
//!
//! Sequences are ordered by length first, then lexicographically by the elements' own shrink
//! orders. Candidates are shorter (empty, chunks of halving size removed down to single
//! elements, see [`chunk_removals`]) or keep the length and
//! replace one element by one of its shrink candidates, so each is strictly smaller; for a fixed
//! length the lexicographic product of well-founded orders is well-founded, hence so is this.

use std::collections::VecDeque;
use std::mem::{ManuallyDrop, MaybeUninit};

use crate::__private::{split_size, MAX_MUTATION_DEPTH};
use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::leaves::Leaves;
use crate::mutate::undo::{enter_deque, enter_vec, Hop};
use crate::structure::{length_class, mix, token, Structure};
use crate::{Context, Mutate, Operator};

/// At most this many removals (of one element or a chunk) in a shrink list.
pub(super) const SHRINK_REMOVALS: usize = 256;
/// Elements whose own shrink candidates are offered, and how many candidates each.
pub(super) const SHRINK_ELEMENTS: usize = 4;
/// Shrink candidates offered per element at least.
pub(super) const SHRINK_PER_ELEMENT: usize = 4;
/// Element shrink candidates offered in all (spread over the elements, each getting at least
/// [`SHRINK_PER_ELEMENT`]): a short sequence gets its elements' full candidate lists, so
/// integers inside it shrink by the same binary search as on their own.
pub(super) const SHRINK_ELEMENT_BUDGET: usize = 256;
/// The copies a materialised shrink list ([`Mutate::shrink`] of a sequence or string, a derived
/// type's sequence field) may hold in all, in bytes of elements (or twice the sequence, if
/// more): every candidate is a copy of up to the whole sequence, and the full list of a 100 MB
/// `Vec<u8>` (up to 512 candidates) would be tens of gigabytes. The most aggressive candidates
/// come first and stay; [`Mutate::shrink_each`], which the engine's shrinker uses, makes one
/// candidate at a time and needs no cap.
pub(super) const SHRINK_COPY_BYTES: usize = 64 << 20;

/// The elements (of `element_size` bytes each) a materialised shrink list of a `len`-element
/// sequence may copy in all: [`SHRINK_COPY_BYTES`] worth, or twice the sequence.
pub(super) fn shrink_copy_budget(len: usize, element_size: usize) -> usize {
    (SHRINK_COPY_BYTES / element_size.max(1)).max(len.saturating_mul(2))
}

/// Longest run one Remove takes out.
pub(super) const MAX_REMOVE_RUN: usize = 8;

/// Whether mutating a `T` inside the current value can change it: a zero-sized type has a single
/// value, and past [`MAX_MUTATION_DEPTH`] mutations stop descending.
pub(super) fn can_descend<T>(cx: &Context) -> bool {
    core::mem::size_of::<T>() != 0 && cx.depth() < MAX_MUTATION_DEPTH
}

/// Mutates `value` one level deeper, with one unit of the size budget spent on the container
/// (through [`Mutate::mutate_undoable`]: the containers save only what they change themselves).
pub(super) fn mutate_child<T: Mutate>(value: &mut T, cx: &mut Context) {
    crate::__private::mutate_field(value, cx, T::mutate_undoable);
}

/// Generates a `T` one level deeper for insertion into a container.
pub(super) fn generate_child<T: Mutate>(cx: &mut Context) -> T {
    let size = cx.size().saturating_sub(1);
    crate::__private::generate_field(cx, size, T::generate)
}

/// What [`same_encoding`] needs of an element, as a trait object: per element type a vtable of
/// two one-call methods, so that the comparison itself is compiled once rather than once per
/// element type.
pub(super) trait Comparable {
    /// [`Mutate::visit_structure`].
    fn observe(&self, structure: &mut Structure<'_>);
    /// [`Mutate::encode`].
    fn encode_into(&self, out: &mut Encoder);
}

impl<T: Mutate> Comparable for T {
    fn observe(&self, structure: &mut Structure<'_>) {
        self.visit_structure(structure);
    }
    fn encode_into(&self, out: &mut Encoder) {
        self.encode(out);
    }
}

/// The [`Structure::fingerprint_of`] of a [`Comparable`].
fn fingerprint(value: &dyn Comparable) -> Option<u64> {
    let mut structure = Structure::for_fingerprint();
    value.observe(&mut structure);
    structure.fingerprint()
}

/// Whether `a` and `b` (two values of one type) have the same encoding, i.e. are equal values
/// (the codec round-trips). `Mutate` has no `PartialEq` bound, so this is how Swap avoids
/// swapping equal elements.
///
/// Compared by their structure fingerprints when both have one (no allocation; equal values
/// have equal fingerprints, and a collision only turns one Swap into an element mutation), by
/// their encodings otherwise.
pub(super) fn same_encoding(a: &dyn Comparable, b: &dyn Comparable) -> bool {
    if let (Some(a), Some(b)) = (fingerprint(a), fingerprint(b)) {
        return a == b;
    }
    let mut out = Encoder::new();
    a.encode_into(&mut out);
    let split = out.as_bytes().len();
    b.encode_into(&mut out);
    let bytes = out.as_bytes();
    bytes[..split] == bytes[split..]
}

/// A start index and run length for Remove: usually one element, sometimes a short run.
pub(super) fn remove_run(cx: &mut Context, len: usize) -> (usize, usize) {
    let start = cx.below(len);
    let count = if cx.chance(3, 4) {
        1
    } else {
        1 + cx.below((len - start).min(MAX_REMOVE_RUN))
    };
    (start, count)
}

/// The length Truncate resizes a non-empty collection of `len` elements to: a length drawn as
/// generation draws one (uniform in `0..=cx.size()`), so that resizing leaves lengths spread
/// as generated ones are instead of halving them each time; a draw equal to `len` cuts it short
/// instead. Longer than `len` means the caller appends fresh elements.
pub(super) fn resize_length(cx: &mut Context, len: usize) -> usize {
    let drawn = cx.below(cx.size() + 1);
    if drawn == len {
        cx.below(len)
    } else {
        drawn
    }
}

/// The sequence operations the `Vec` and `VecDeque` mutators share: the few per-element-type
/// steps a [`SequenceEdit`] needs, so that everything else is compiled once.
trait Sequence<T> {
    fn length(&self) -> usize;
    fn at(&self, index: usize) -> &T;
    fn at_mut(&mut self, index: usize) -> &mut T;
    fn insert_at(&mut self, index: usize, value: T);
    fn remove_range(&mut self, start: usize, count: usize);
    fn swap_at(&mut self, a: usize, b: usize);
    fn truncate_to(&mut self, len: usize);
    /// The undo's way into the elements ([`Hop`]'s `enter`, see `mutate/undo.rs`).
    const ENTER: unsafe fn(*mut u8, usize) -> *mut u8;
}

impl<T> Sequence<T> for Vec<T> {
    fn length(&self) -> usize {
        self.len()
    }
    fn at(&self, index: usize) -> &T {
        &self[index]
    }
    fn at_mut(&mut self, index: usize) -> &mut T {
        &mut self[index]
    }
    // Insertion, removal and swaps move the elements' bytes with functions compiled once
    // (`rotate_bytes`, `swap_bytes`) rather than with `insert`, `drain` or `swap` on `[T]`,
    // whose shifting, iterators and drop guards would be compiled once more per element type:
    // the same elements in the same order as theirs, in O(len) moves.
    fn insert_at(&mut self, index: usize, value: T) {
        // Checked after the push (the vector then has one element more): no call while `value`
        // is held (see "Unwind cleanups" in `derive_support.rs`).
        self.push(value);
        assert!(index < self.len(), "insertion index within the vector");
        // The new last element moves to `index`, the ones from `index` on one place up.
        let size = core::mem::size_of::<T>();
        rotate_bytes(element_bytes(self, index), size, Rotation::Right);
    }
    fn remove_range(&mut self, start: usize, count: usize) {
        // The removed run moves to the end, in order, and is dropped there (`rotate_left`
        // panics on a run past the end, as `drain` would).
        let size = core::mem::size_of::<T>();
        rotate_bytes(element_bytes(self, start), count * size, Rotation::Left);
        self.truncate(self.len() - count);
    }
    fn swap_at(&mut self, a: usize, b: usize) {
        // Slicing in `swap_bytes` panics on an index past the end, as `swap` would.
        let (low, high) = (a.min(b), a.max(b));
        let size = core::mem::size_of::<T>();
        swap_bytes(element_bytes(self, low), (high - low) * size, size);
    }
    fn truncate_to(&mut self, len: usize) {
        self.truncate(len);
    }
    const ENTER: unsafe fn(*mut u8, usize) -> *mut u8 = enter_vec::<T>;
}

/// The bytes of elements `start..` of `items`, for the type-erased moves of [`rotate_bytes`]
/// and [`swap_bytes`], which only ever permute whole elements.
fn element_bytes<T>(items: &mut Vec<T>, start: usize) -> &mut [MaybeUninit<u8>] {
    let len = items.len();
    // SAFETY: the vector's `len` initialized elements of `size_of::<T>()` bytes each start at
    // its pointer, borrowed mutably through `items` for the returned lifetime.
    unsafe {
        bytes_from(
            items.as_mut_ptr().cast(),
            len,
            core::mem::size_of::<T>(),
            start,
        )
    }
}

/// The bytes of elements `start..len` of the `len` elements of `size` bytes at `elements`;
/// compiled once (the generic part of [`element_bytes`] is the pointer and the sizes).
///
/// # Safety
///
/// `elements` must point to `len` initialized elements of `size` bytes, valid for reads and
/// writes, and not otherwise accessed for the returned lifetime.
unsafe fn bytes_from<'a>(
    elements: *mut MaybeUninit<u8>,
    len: usize,
    size: usize,
    start: usize,
) -> &'a mut [MaybeUninit<u8>] {
    assert!(start <= len, "element range within the vector");
    // SAFETY: elements `start..len` occupy the `(len - start) * size` bytes from element
    // `start` (`start <= len`, so the offset stays in the allocation). `MaybeUninit<u8>`
    // accepts any byte, padding included; callers move whole elements only (by multiples of
    // `size`), so every element stays whole and initialized.
    unsafe { core::slice::from_raw_parts_mut(elements.add(start * size), (len - start) * size) }
}

/// Which way [`rotate_bytes`] turns.
#[derive(Clone, Copy)]
enum Rotation {
    Left,
    Right,
}

/// Rotates `bytes` by `by` bytes (a whole number of elements); compiled once.
fn rotate_bytes(bytes: &mut [MaybeUninit<u8>], by: usize, rotation: Rotation) {
    match rotation {
        Rotation::Left => bytes.rotate_left(by),
        Rotation::Right => bytes.rotate_right(by),
    }
}

/// Swaps the first `size` bytes of `bytes` with the `size` bytes at `offset` (two distinct
/// elements when `offset >= size`); compiled once.
fn swap_bytes(bytes: &mut [MaybeUninit<u8>], offset: usize, size: usize) {
    if offset == 0 {
        return;
    }
    let (first, rest) = bytes.split_at_mut(offset);
    first[..size].swap_with_slice(&mut rest[..size]);
}

impl<T> Sequence<T> for VecDeque<T> {
    fn length(&self) -> usize {
        self.len()
    }
    fn at(&self, index: usize) -> &T {
        &self[index]
    }
    fn at_mut(&mut self, index: usize) -> &mut T {
        &mut self[index]
    }
    fn insert_at(&mut self, index: usize, value: T) {
        self.insert(index, value);
    }
    fn remove_range(&mut self, start: usize, count: usize) {
        self.drain(start..start + count);
    }
    fn swap_at(&mut self, a: usize, b: usize) {
        self.swap(a, b);
    }
    fn truncate_to(&mut self, len: usize) {
        self.truncate(len);
    }
    const ENTER: unsafe fn(*mut u8, usize) -> *mut u8 = enter_deque::<T>;
}

/// `len` elements generated at generation's size for each, pushed in order.
fn generate_elements<T: Mutate>(cx: &mut Context) -> Vec<T> {
    let size = cx.size();
    let len = cx.below(size + 1);
    let child = split_size(size, len);
    // Without drop glue while the elements are generated (see "Unwind cleanups" in
    // `derive_support.rs`).
    let mut elements = ManuallyDrop::new(Vec::with_capacity(len));
    for _ in 0..len {
        elements.push(crate::__private::generate_field(cx, child, T::generate));
    }
    ManuallyDrop::into_inner(elements)
}

/// One sequence mutation as [`plan_sequence`] chooses it: operation and indices, drawn from the
/// length alone, so that the choice is compiled once rather than once per element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SequenceEdit {
    /// Insert a fresh element at `at` (Insert, recorded).
    Insert { at: usize },
    /// Insert a copy of element `from` at `at` (Duplicate, recorded).
    Duplicate { from: usize, at: usize },
    /// Remove `count` elements from `start` (Remove, recorded).
    Remove { start: usize, count: usize },
    /// Swap elements `a` and `b`, or mutate `a` when they are equal (not recorded: which one
    /// applies depends on the elements).
    Swap { a: usize, b: usize },
    /// Truncate to `len` elements (Truncate, recorded).
    Truncate { len: usize },
    /// Append fresh elements of size `size` up to `len` elements (Insert, recorded).
    Grow { len: usize, size: usize },
    /// Mutate element `index` (Element, recorded).
    Element { index: usize },
}

/// Chooses the mutation of a sequence of `len` elements, `elements` telling whether its
/// elements can be mutated ([`can_descend`]), and records its operator where the choice alone
/// decides it. The random draws are those the per-type mutator made before this was split out,
/// in the same order, so seeded runs mutate as they did.
fn plan_sequence(cx: &mut Context, len: usize, elements: bool) -> SequenceEdit {
    if len == 0 {
        // The only change an empty sequence admits, even at a maximum size of 0.
        cx.record(Operator::Insert);
        return SequenceEdit::Insert { at: 0 };
    }
    let room = len < cx.max_size();
    let weights = [
        if room { 2 } else { 0 },                 // Insert
        if room { 1 } else { 0 },                 // Duplicate
        2,                                        // Remove
        if len >= 2 && elements { 1 } else { 0 }, // Swap
        1,                                        // Truncate
        if elements { 4 } else { 0 },             // Element
    ];
    match cx.weighted(&weights) {
        Some(0) => {
            cx.record(Operator::Insert);
            SequenceEdit::Insert {
                at: cx.below(len + 1),
            }
        }
        Some(1) => {
            cx.record(Operator::Duplicate);
            let from = cx.below(len);
            let at = cx.below(len + 1);
            SequenceEdit::Duplicate { from, at }
        }
        Some(2) => {
            cx.record(Operator::Remove);
            let (start, count) = remove_run(cx, len);
            SequenceEdit::Remove { start, count }
        }
        Some(3) => {
            let a = cx.below(len);
            let b = (a + 1 + cx.below(len - 1)) % len;
            SequenceEdit::Swap { a, b }
        }
        Some(4) => {
            let target = resize_length(cx, len);
            if target < len {
                cx.record(Operator::Truncate);
                SequenceEdit::Truncate { len: target }
            } else {
                // Grown to a generated length: the new elements at generation's size.
                cx.record(Operator::Insert);
                SequenceEdit::Grow {
                    len: target,
                    size: split_size(cx.size(), target),
                }
            }
        }
        _ => {
            cx.record(Operator::Element);
            SequenceEdit::Element {
                index: cx.below(len),
            }
        }
    }
}

/// Down into element `index` of a sequence (`hop` into its buffer): the undo log's hop and the
/// child the structure walk follows ([`visit_elements`]); compiled once, not per element type.
fn enter_element(cx: &mut Context, hop: Hop, index: usize) -> bool {
    let log = cx.undo_log();
    log.enter_child(index);
    log.enter(hop)
}

/// Back up from [`enter_element`] (`entered`: what it returned).
fn leave_element(cx: &mut Context, entered: bool) {
    let log = cx.undo_log();
    log.leave(entered);
    log.leave_child();
}

/// Applies the mutation [`plan_sequence`] chose: the per-element-type part.
fn mutate_sequence<T: Mutate, S: Sequence<T> + Mutate>(seq: &mut S, cx: &mut Context) {
    let elements = seq.length() > 0 && can_descend::<T>(cx);
    let edit = plan_sequence(cx, seq.length(), elements);
    let element = match edit {
        SequenceEdit::Element { index } => Some(index),
        SequenceEdit::Swap { a, b } if same_encoding(seq.at(a), seq.at(b)) => {
            // Swapping equal elements would change nothing: mutate one instead.
            cx.record(Operator::Element);
            Some(a)
        }
        _ => None,
    };
    if let Some(index) = element {
        // Down in the elements' buffer: a hop for the undo (see `mutate/undo.rs`).
        let hop = Hop::new(seq as *mut S as *mut u8, S::ENTER);
        let entered = enter_element(cx, hop, index);
        mutate_child(seq.at_mut(index), cx);
        leave_element(cx, entered);
        return;
    }
    // Every other edit changes the sequence itself: saved whole first.
    cx.save(seq);
    note_edit(cx, edit, seq.length());
    match edit {
        SequenceEdit::Insert { at } => seq.insert_at(at, generate_child(cx)),
        SequenceEdit::Duplicate { from, at } => {
            let copy = seq.at(from).duplicate();
            seq.insert_at(at, copy);
        }
        SequenceEdit::Remove { start, count } => seq.remove_range(start, count),
        SequenceEdit::Swap { a, b } => {
            cx.record(Operator::Swap);
            seq.swap_at(a, b);
        }
        SequenceEdit::Truncate { len } => seq.truncate_to(len),
        SequenceEdit::Grow { len, size } => {
            for at in seq.length()..len {
                seq.insert_at(at, crate::__private::generate_field(cx, size, T::generate));
            }
        }
        // Mutated above.
        SequenceEdit::Element { .. } => {}
    }
}

/// Tells the undo log which elements `edit` of a sequence of `len` elements makes new, in the
/// edited sequence's numbering (see `UndoLog::note_elements`): where the structure walk need
/// look. Compiled once, not per element type.
fn note_edit(cx: &mut Context, edit: SequenceEdit, len: usize) {
    let (lo, hi) = match edit {
        SequenceEdit::Insert { at } | SequenceEdit::Duplicate { at, .. } => (at, at + 1),
        SequenceEdit::Remove { start, .. } => (start, start),
        SequenceEdit::Swap { a, b } => (a.min(b), a.max(b) + 1),
        SequenceEdit::Truncate { len } => (len, len),
        SequenceEdit::Grow { len: to, .. } => (len, to),
        SequenceEdit::Element { index } => (index, index + 1),
    };
    cx.undo_log().note_elements(lo, hi);
}

/// A copy of `items` without the elements in `removed`, by one loop (no iterator adapters, whose
/// code would be compiled once per element type), each element copied by
/// [`Mutate::duplicate`]; with `0..0`, the default [`Mutate::duplicate_slice`].
#[allow(clippy::needless_range_loop)] // `enumerate` would be one more iterator per element type
pub(super) fn clone_without<T: Mutate>(items: &[T], removed: core::ops::Range<usize>) -> Vec<T> {
    // Held without drop glue, as in `generate_elements`.
    let mut out = ManuallyDrop::new(Vec::with_capacity(items.len() - removed.len()));
    for index in 0..items.len() {
        if !removed.contains(&index) {
            out.push(items[index].duplicate());
        }
    }
    ManuallyDrop::into_inner(out)
}

/// A sequence's shrink candidates, handed out in order by [`pop`](Self::pop): the removals of
/// `chunk_removals` (everything, then halves, quarters, ... down to single elements), then each
/// of the first `SHRINK_ELEMENT_BUDGET` (256) elements replaced by each of its own first
/// candidates (at least `SHRINK_PER_ELEMENT` (4) each, the budget spread over the elements).
/// Everything is made when it is taken: an element's candidates when the previous element's
/// are used up (hence the [`Context`] it holds), each shorter or replaced copy when it is
/// popped. A `Vec` field of a derived type so gets its candidates without a `Vec<Vec<T>>` of
/// them (whose `push`, `pop`, growth and drop glue would be compiled once per element type;
/// see [`Field`](crate::__private::Field)), and the bookkeeping is compiled once
/// (`ShrinkPlan`); `Vec::shrink` collects them.
pub struct SequenceShrinks<'a, 'c, T> {
    items: &'a [T],
    cx: &'c mut Context,
    plan: ShrinkPlan,
    /// The element whose candidates `own` holds.
    index: usize,
    /// Its candidates still to hand out, last first.
    own: Vec<T>,
}

/// What of a [`SequenceShrinks`] does not depend on the element type: compiled once.
struct ShrinkPlan {
    /// Index ranges still to remove, last first.
    removals: Vec<core::ops::Range<usize>>,
    /// The next element to replace by its candidates.
    next: usize,
    /// The elements replaced: `0..limit`.
    limit: usize,
    /// How many of each element's candidates are used.
    per_element: usize,
    /// Whether the elements are shrunk one level down at size 0 (a derived type's field), or
    /// at the caller's level (`Vec::shrink` itself).
    down: bool,
    /// The sequence's length.
    len: usize,
    /// Elements the candidates still to come may copy ([`shrink_copy_budget`]; `usize::MAX` when
    /// they are visited one at a time): once the next candidate would exceed it, there are no
    /// more.
    copy_budget: usize,
}

impl ShrinkPlan {
    fn new(len: usize, down: bool, element_size: usize) -> Self {
        ShrinkPlan {
            len,
            copy_budget: shrink_copy_budget(len, element_size),
            removals: removals_last_first(len),
            next: 0,
            limit: len.min(SHRINK_ELEMENT_BUDGET),
            // `None` for an empty sequence: no element to replace (`limit` is 0).
            per_element: SHRINK_ELEMENT_BUDGET
                .checked_div(len)
                .map_or(0, |share| share.max(SHRINK_PER_ELEMENT)),
            down,
        }
    }

    /// The next element to shrink, if any, with the level to come back to ([`Self::leave`]).
    fn next_element(&mut self, cx: &mut Context) -> Option<(usize, usize)> {
        if self.next >= self.limit || self.copy_budget < self.len {
            return None;
        }
        let index = self.next;
        self.next += 1;
        let saved_size = if self.down { cx.enter(0) } else { cx.size() };
        Some((index, saved_size))
    }

    /// Charges a candidate that copies `copied` elements to the budget; `false` (and no charge)
    /// when the budget cannot pay for it, which ends the list.
    fn charge(&mut self, copied: usize) -> bool {
        match self.copy_budget.checked_sub(copied) {
            Some(left) => {
                self.copy_budget = left;
                true
            }
            None => {
                self.copy_budget = 0;
                self.removals.clear();
                self.limit = 0;
                false
            }
        }
    }

    /// Back from shrinking an element.
    fn leave(&self, cx: &mut Context, saved_size: usize) {
        if self.down {
            cx.leave(saved_size);
        }
    }
}

impl<'a, 'c, T: Mutate> SequenceShrinks<'a, 'c, T> {
    /// The candidates of `items`, each element shrunk one level down at size 0 if `down`.
    pub(crate) fn new(items: &'a [T], cx: &'c mut Context, down: bool) -> Self {
        SequenceShrinks {
            items,
            cx,
            plan: ShrinkPlan::new(items.len(), down, core::mem::size_of::<T>()),
            index: 0,
            // A constant, not a call made while `plan` is held (see `SequenceShrinks::pop`).
            own: const { Vec::new() },
        }
    }
}

impl<T: Mutate> SequenceShrinks<'_, '_, T> {
    /// The next candidate.
    pub fn pop(&mut self) -> Option<Vec<T>> {
        if let Some(removed) = self.plan.removals.pop() {
            if !self.plan.charge(self.items.len() - removed.len()) {
                return None;
            }
            return Some(clone_without(self.items, removed));
        }
        loop {
            if let Some(candidate) = self.own.pop() {
                if !self.plan.charge(self.items.len()) {
                    return None;
                }
                // Both held without drop glue across the calls, the element swapped in by
                // `replace` rather than assigned (see "Unwind cleanups" in `derive_support.rs`).
                let candidate = ManuallyDrop::new(candidate);
                let mut replaced = ManuallyDrop::new(T::duplicate_slice(self.items));
                let slot = &mut replaced[self.index];
                drop(core::mem::replace(
                    slot,
                    ManuallyDrop::into_inner(candidate),
                ));
                return Some(ManuallyDrop::into_inner(replaced));
            }
            // `match` rather than `?`, whose `Try` impls would be compiled once more per type.
            #[allow(clippy::question_mark)]
            let (index, saved_size) = match self.plan.next_element(self.cx) {
                Some(next) => next,
                None => return None,
            };
            // Into `self.own` (empty here) at once and trimmed there: no local held across the
            // calls below (see "Unwind cleanups" in `derive_support.rs`).
            drop(core::mem::replace(
                &mut self.own,
                self.items[index].shrink(self.cx),
            ));
            self.plan.leave(self.cx, saved_size);
            self.own.truncate(self.plan.per_element);
            // Taken in order by `pop` (see `wrap_each`): no `vec::IntoIter` per type.
            crate::__private::reverse(&mut self.own);
            self.index = index;
        }
    }
}

/// [`chunk_removals`], last first (for `pop`); compiled once.
fn removals_last_first(len: usize) -> Vec<core::ops::Range<usize>> {
    let mut removals = chunk_removals(len);
    removals.reverse();
    removals
}

/// `SequenceShrinks`' candidates, collected: what `shrink` returns.
fn collect_shrinks<T: Mutate>(mut shrinks: SequenceShrinks<'_, '_, T>) -> Vec<Vec<T>> {
    // Held without drop glue, as in `generate_elements`.
    let mut out = ManuallyDrop::new(Vec::new());
    while let Some(candidate) = shrinks.pop() {
        out.push(candidate);
    }
    ManuallyDrop::into_inner(out)
}

/// The index ranges a shrink deletes from a collection of `len` elements, as delta debugging
/// does: everything, then aligned chunks of `len/2`, `len/4`, ... down to single elements, so a
/// long failing input loses large parts first and still ends with no removable element. At most
/// [`SHRINK_REMOVALS`] ranges: a very long collection gets its coarse levels only, and the next
/// shrink step (once it is shorter) gets the finer ones.
pub(super) fn chunk_removals(len: usize) -> Vec<core::ops::Range<usize>> {
    let mut ranges = Vec::new();
    if len == 0 {
        return ranges;
    }
    ranges.push(0..len);
    let mut chunk = len / 2;
    while chunk >= 1 && ranges.len() < SHRINK_REMOVALS {
        let mut start = 0;
        while start < len && ranges.len() < SHRINK_REMOVALS {
            ranges.push(start..(start + chunk).min(len));
            start += chunk;
        }
        if chunk == 1 {
            break;
        }
        chunk /= 2;
    }
    ranges
}

/// Where element `index` of `len` sits, as a structure field: first (0), last (1), or in between
/// (2), so features tell "the first element is ..." from "some element is ...".
pub(super) fn position(index: usize, len: usize) -> u32 {
    if index == 0 {
        0
    } else if index + 1 == len {
        1
    } else {
        2
    }
}

/// Reports a sequence to the structure feedback: its length class, then each element at its
/// [`position`].
fn visit_elements<T: Mutate, S: Sequence<T>>(
    constructor: u64,
    seq: &S,
    structure: &mut Structure<'_>,
) {
    let len = seq.length();
    structure.node(mix(constructor, length_class(len)));
    for index in structure.children_to_visit(len) {
        // Numbered for the walk's focus as `enter_element` numbers the mutation's descent.
        if let Some(step) = structure.enter_at(constructor, position(index, len), index, true) {
            seq.at(index).visit_structure(structure);
            structure.leave(step);
        }
    }
}

/// The length, then each element: `VecDeque`'s `Mutate::hash_value` (element by element, so
/// that the hash does not depend on where the ring buffer splits).
fn hash_elements<T: Mutate, S: Sequence<T>>(seq: &S, hasher: &mut crate::mutate::ValueHasher) {
    let len = seq.length();
    hasher.write(len as u64);
    for index in 0..len {
        seq.at(index).hash_value(hasher);
    }
}

fn decode_elements<T: Mutate>(input: &mut Decoder<'_>) -> Vec<T> {
    // `read_len` is capped by the decoder's element budget: O(input length) elements in total.
    let len = input.read_len();
    // Held without drop glue, as in `generate_elements`.
    let mut elements = ManuallyDrop::new(Vec::with_capacity(len));
    for _ in 0..len {
        elements.push(T::decode(input));
    }
    ManuallyDrop::into_inner(elements)
}

/// Collections of at most `cx.size()` elements. Mutations insert a fresh element, duplicate one,
/// remove one or a short run, swap two, resize to a generated length (truncate, or append fresh
/// elements), or mutate one element (Insert and Duplicate only below `cx.max_size()` elements).
/// Resizing draws the length as generation does, so mutants keep their seeds' length on average
/// instead of losing half of it at each truncation. Encodes as a length followed by the
/// elements; decoding caps lengths by the input's length, so any byte string decodes in O(input)
/// memory.
///
/// ```
/// use typefuzz_core::{codec, Context, Mutate, Operator};
/// let mut cx = Context::new(4).with_max_size(6);
/// let mut v: Vec<u16> = cx.generate();
/// assert!(v.len() <= 6);
/// let before = v.clone();
/// let ops = cx.mutate(&mut v).to_vec();
/// assert_ne!(v, before);
/// assert!(matches!(ops[0], Operator::Insert | Operator::Duplicate | Operator::Remove
///     | Operator::Swap | Operator::Truncate | Operator::Element));
/// assert_eq!(codec::from_bytes::<Vec<u16>>(&codec::to_bytes(&v)), v);
/// assert_eq!(vec![3u8, 4].shrink(&mut cx)[0], Vec::<u8>::new());
/// ```
impl<T: Mutate> Mutate for Vec<T> {
    fn generate(cx: &mut Context) -> Self {
        generate_elements(cx)
    }

    fn mutate(&mut self, cx: &mut Context) {
        mutate_sequence(self, cx);
    }

    /// Saves only what it changes itself; elements and payloads save their own changes.
    fn mutate_undoable(&mut self, cx: &mut Context) {
        self.mutate(cx);
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        collect_shrinks(SequenceShrinks::new(self, cx, false))
    }

    /// [`shrink`](Mutate::shrink)'s candidates without its cap on copies, each made when it is
    /// visited.
    fn shrink_each(
        &self,
        cx: &mut Context,
        visit: &mut dyn FnMut(Self) -> core::ops::ControlFlow<()>,
    ) {
        let mut shrinks = SequenceShrinks::new(self, cx, false);
        shrinks.plan.copy_budget = usize::MAX;
        while let Some(candidate) = shrinks.pop() {
            if visit(candidate).is_break() {
                return;
            }
        }
    }

    /// [`Mutate::duplicate_slice`] of the elements: at once for integers.
    fn duplicate(&self) -> Self {
        T::duplicate_slice(self)
    }

    // By index: a `for` over `&Vec<T>` would compile `slice::Iter` once more per element type.
    #[allow(clippy::needless_range_loop)]
    fn encode(&self, out: &mut Encoder) {
        out.write_len(self.len());
        for index in 0..self.len() {
            self[index].encode(out);
        }
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        decode_elements(input)
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("Vec");
        T::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        visit_elements(token("Vec"), self, structure);
    }

    /// The length, then the elements ([`Mutate::hash_slice`]: at once for integers).
    fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
        hasher.write(self.len() as u64);
        T::hash_slice(self, hasher);
    }

    /// The length, then each element.
    #[allow(clippy::needless_range_loop)] // see `encode`
    fn visit_leaves(&mut self, leaves: &mut Leaves<'_>) {
        if let Some(len) = leaves.length(self.len() as u64, MAX_LEAF_LENGTH) {
            let len = len as usize;
            self.truncate(len);
            let cx = leaves.context();
            while self.len() < len {
                let size = cx.size();
                self.push(crate::__private::generate_field(cx, size, T::generate));
            }
        }
        // By index, like `encode`.
        for index in 0..self.len() {
            if leaves.is_done() {
                return;
            }
            self[index].visit_leaves(leaves);
        }
    }
}

/// The longest a collection grows to because a comparison asked for that length.
const MAX_LEAF_LENGTH: u64 = 1 << 12;

/// The same mutator, shrinker and codec as `Vec<T>`.
///
/// ```
/// use std::collections::VecDeque;
/// use typefuzz_core::{codec, Context};
/// let mut cx = Context::new(9);
/// let mut v: VecDeque<i8> = cx.generate();
/// cx.mutate(&mut v);
/// assert_eq!(codec::from_bytes::<VecDeque<i8>>(&codec::to_bytes(&v)), v);
/// ```
impl<T: Mutate> Mutate for VecDeque<T> {
    fn generate(cx: &mut Context) -> Self {
        VecDeque::from(generate_elements(cx))
    }

    fn mutate(&mut self, cx: &mut Context) {
        mutate_sequence(self, cx);
    }

    /// Saves only what it changes itself; elements and payloads save their own changes.
    fn mutate_undoable(&mut self, cx: &mut Context) {
        self.mutate(cx);
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        let mut copy = self.duplicate();
        let mut shrinks = SequenceShrinks::new(copy.make_contiguous(), cx, false);
        let mut out = Vec::new();
        while let Some(candidate) = shrinks.pop() {
            out.push(VecDeque::from(candidate));
        }
        out
    }

    /// Each element's [`Mutate::duplicate`], front to back.
    fn duplicate(&self) -> Self {
        let mut out = VecDeque::with_capacity(self.len());
        for element in self {
            out.push_back(element.duplicate());
        }
        out
    }

    fn encode(&self, out: &mut Encoder) {
        out.write_len(self.len());
        for element in self {
            element.encode(out);
        }
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        VecDeque::from(decode_elements(input))
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("VecDeque");
        T::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        visit_elements(token("VecDeque"), self, structure);
    }

    fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
        hash_elements(self, hasher);
    }
}

#[cfg(test)]
mod tests {
    use super::Sequence;
    use crate::{Context, Mutate};

    /// A materialised list copies at most `SHRINK_COPY_BYTES` (a 1 MiB vector's full list is
    /// about 512 MiB of copies) and keeps the most aggressive candidates; `shrink_each` visits
    /// the whole list, one candidate at a time, and for a short vector both are the same list.
    #[test]
    fn materialised_shrink_lists_are_capped_and_visited_ones_are_not() {
        use core::ops::ControlFlow;
        let mut cx = Context::new(1);
        let big = vec![1u8; 1 << 20];
        let listed = big.shrink(&mut cx);
        let copied: usize = listed.iter().map(Vec::len).sum();
        assert!(copied <= super::SHRINK_COPY_BYTES, "{copied} bytes copied");
        assert_eq!(
            listed[0],
            Vec::<u8>::new(),
            "everything removed comes first"
        );
        assert_eq!(listed[1].len(), 1 << 19, "then halves");
        let (mut visited, mut visited_bytes) = (0, 0);
        big.shrink_each(&mut cx, &mut |candidate| {
            visited += 1;
            visited_bytes += candidate.len();
            ControlFlow::Continue(())
        });
        assert!(visited > listed.len() && visited_bytes > super::SHRINK_COPY_BYTES);
        assert_eq!(
            visited,
            super::SHRINK_REMOVALS + super::SHRINK_ELEMENT_BUDGET
        );

        let text = "é".repeat(1 << 19);
        let listed = text.shrink(&mut cx);
        assert!(listed.iter().map(String::len).sum::<usize>() <= super::SHRINK_COPY_BYTES);
        let mut visited = 0;
        text.shrink_each(&mut cx, &mut |_| {
            visited += 1;
            ControlFlow::Continue(())
        });
        assert!(visited > listed.len());

        let small: Vec<Option<u16>> = (0..70).map(|i| Some(i * 937)).collect();
        let mut each = Vec::new();
        small.shrink_each(&mut cx, &mut |candidate| {
            each.push(candidate);
            ControlFlow::Continue(())
        });
        assert_eq!(each, small.shrink(&mut cx));
        let mut first = None;
        small.shrink_each(&mut cx, &mut |candidate| {
            first = Some(candidate);
            ControlFlow::Break(())
        });
        assert_eq!(first, Some(Vec::new()), "a break ends the visit");
    }

    /// The candidates `SequenceShrinks` makes as they are taken are what its docs list, made
    /// eagerly here: every removal of `chunk_removals` in order, then each element replaced by
    /// each of its own first candidates, element by element; a derived type's `Vec` field
    /// (`Field::shrinks`, elements one level down at size 0) gets the same list, and the
    /// `Context` is back at its level after either.
    #[test]
    fn lazy_shrink_candidates_are_the_documented_list() {
        let mut cx = Context::new(3);
        for items in [
            vec![],
            vec![Some(7u16)],
            vec![Some(300u16), None, Some(2), Some(0), Some(65_535)],
            (0..70).map(|i| Some(i * 937)).collect(),
        ] {
            let mut expected: Vec<Vec<Option<u16>>> = super::chunk_removals(items.len())
                .into_iter()
                .map(|removed| super::clone_without(&items, removed))
                .collect();
            if let Some(share) = super::SHRINK_ELEMENT_BUDGET.checked_div(items.len()) {
                let per_element = share.max(super::SHRINK_PER_ELEMENT);
                for index in 0..items.len().min(super::SHRINK_ELEMENT_BUDGET) {
                    for candidate in items[index].shrink(&mut cx).into_iter().take(per_element) {
                        let mut replaced = items.clone();
                        replaced[index] = candidate;
                        expected.push(replaced);
                    }
                }
            }
            let (depth, size) = (cx.depth(), cx.size());
            assert_eq!(items.shrink(&mut cx), expected, "Vec::shrink of {items:?}");
            use crate::__private::{Field, ShrinkVec as _};
            // As the derive writes it (the `&` picks the impl, see `Field`).
            #[allow(clippy::needless_borrow)]
            let mut field = (&Field(&items)).shrinks(&mut cx, <Vec<Option<u16>>>::shrink);
            let mut taken = Vec::new();
            while let Some(candidate) = field.pop() {
                taken.push(candidate);
            }
            drop(field);
            assert_eq!(taken, expected, "a field's candidates of {items:?}");
            assert_eq!((cx.depth(), cx.size()), (depth, size));
        }
    }

    /// The byte-moving `Vec` operations leave the elements `Vec::insert`, `drain` and `swap`
    /// leave, on elements that own heap memory and have padding (a torn element or a double
    /// drop shows here as a wrong value or a crash), and on zero-sized ones.
    #[test]
    fn byte_moves_match_the_std_operations() {
        let items: Vec<(u8, String)> = (0..6u8).map(|i| (i, i.to_string())).collect();
        for index in 0..=items.len() {
            let (mut ours, mut std) = (items.clone(), items.clone());
            ours.insert_at(index, (9, "new".into()));
            std.insert(index, (9, "new".into()));
            assert_eq!(ours, std);
        }
        for start in 0..items.len() {
            for count in 0..=items.len() - start {
                let (mut ours, mut std) = (items.clone(), items.clone());
                ours.remove_range(start, count);
                std.drain(start..start + count);
                assert_eq!(ours, std, "remove {count} from {start}");
            }
        }
        for a in 0..items.len() {
            for b in 0..items.len() {
                let (mut ours, mut std) = (items.clone(), items.clone());
                ours.swap_at(a, b);
                std.swap(a, b);
                assert_eq!(ours, std);
            }
        }
        let mut units = vec![(); 3];
        units.insert_at(1, ());
        units.remove_range(0, 2);
        units.swap_at(0, 1);
        assert_eq!(units.len(), 2);
    }
}
