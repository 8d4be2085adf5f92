//! `Box<T>`, `Rc<T>` and `Arc<T>`: transparent wrappers that delegate to `T`.
//!
//! They add no level of their own: the derive, which sees `Box<Self>` fields, is what charges
//! recursion through them against the size budget. Shrinking follows `T`'s order.

use std::mem::ManuallyDrop;
use std::rc::Rc;
use std::sync::Arc;

use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::leaves::Leaves;
use crate::mutate::undo::{enter_box, Hop};
use crate::structure::Structure;
use crate::{Context, Mutate};

/// Appends each of `candidates` to `out`, in order, wrapped by `wrap` (`Box::new`, `Some`, ...):
/// shrink candidates of a payload as candidates of the value around it. One loop taking them by
/// `pop` after a [`reverse`](crate::__private::reverse) instead of
/// `into_iter().map(wrap).collect()`, whose iterator adapters and in-place collection (or, for
/// a plain `for` loop, `vec::IntoIter`) would be compiled once per payload type.
pub(super) fn wrap_each<T, P>(out: &mut Vec<P>, candidates: Vec<T>, wrap: fn(T) -> P) {
    // Held without drop glue across the calls (see "Unwind cleanups" in `derive_support.rs`).
    let mut candidates = ManuallyDrop::new(candidates);
    out.reserve(candidates.len());
    crate::__private::reverse(&mut candidates);
    while let Some(candidate) = candidates.pop() {
        out.push(wrap(candidate));
    }
    drop(ManuallyDrop::into_inner(candidates));
}

/// The shrink candidates of `payload`, each wrapped by `wrap`.
pub(super) fn shrink_wrapped<T: Mutate, P>(
    payload: &T,
    cx: &mut Context,
    wrap: fn(T) -> P,
) -> Vec<P> {
    // Held without drop glue across `shrink` (see "Unwind cleanups" in `derive_support.rs`).
    let mut out = ManuallyDrop::new(Vec::new());
    wrap_each(&mut out, payload.shrink(cx), wrap);
    ManuallyDrop::into_inner(out)
}

/// Delegates every operation to the boxed value.
///
/// ```
/// use typefuzz_core::{codec, Context, Mutate};
/// let mut cx = Context::new(1);
/// let mut b = Box::new(7u8);
/// cx.mutate(&mut b);
/// assert_ne!(*b, 7);
/// assert_eq!(codec::to_bytes(&b), codec::to_bytes(&*b));
/// ```
impl<T: Mutate> Mutate for Box<T> {
    fn generate(cx: &mut Context) -> Self {
        Box::new(T::generate(cx))
    }

    fn mutate(&mut self, cx: &mut Context) {
        self.mutate_undoable(cx);
    }

    /// The box stays; its contents save their own changes (a hop into another allocation for
    /// the undo, see `mutate/undo.rs`).
    fn mutate_undoable(&mut self, cx: &mut Context) {
        let entered = cx
            .undo_log()
            .enter(Hop::new(self as *mut Self as *mut u8, enter_box));
        (**self).mutate_undoable(cx);
        cx.undo_log().leave(entered);
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        shrink_wrapped(&**self, cx, Box::new)
    }

    /// A new box of the contents' [`Mutate::duplicate`].
    fn duplicate(&self) -> Self {
        Box::new((**self).duplicate())
    }

    fn encode(&self, out: &mut Encoder) {
        (**self).encode(out);
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        Box::new(T::decode(input))
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("Box");
        T::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        (**self).visit_structure(structure);
    }

    fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
        (**self).hash_value(hasher);
    }

    fn visit_leaves(&mut self, leaves: &mut Leaves<'_>) {
        (**self).visit_leaves(leaves);
    }
}

/// Delegates to the shared value; mutation goes through [`Rc::make_mut`], so other handles to
/// the same allocation keep the old value.
///
/// ```
/// use std::rc::Rc;
/// use typefuzz_core::{Context, Mutate};
/// let mut cx = Context::new(1);
/// let original = Rc::new(String::from("abc"));
/// let mut copy = Rc::clone(&original);
/// cx.mutate(&mut copy);
/// assert_eq!(*original, "abc");
/// assert_ne!(*copy, "abc");
/// ```
impl<T: Mutate> Mutate for Rc<T> {
    fn generate(cx: &mut Context) -> Self {
        Rc::new(T::generate(cx))
    }

    fn mutate(&mut self, cx: &mut Context) {
        Rc::make_mut(self).mutate(cx);
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        shrink_wrapped(&**self, cx, Rc::new)
    }

    fn encode(&self, out: &mut Encoder) {
        (**self).encode(out);
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        Rc::new(T::decode(input))
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("Rc");
        T::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        (**self).visit_structure(structure);
    }

    fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
        (**self).hash_value(hasher);
    }
}

/// Delegates to the shared value; mutation goes through [`Arc::make_mut`].
///
/// ```
/// use std::sync::Arc;
/// use typefuzz_core::{codec, Context, Mutate};
/// let mut cx = Context::new(1);
/// let mut shared = Arc::new(-5i64);
/// cx.mutate(&mut shared);
/// assert_ne!(*shared, -5);
/// assert_eq!(codec::from_bytes::<Arc<i64>>(&codec::to_bytes(&shared)), shared);
/// ```
impl<T: Mutate> Mutate for Arc<T> {
    fn generate(cx: &mut Context) -> Self {
        Arc::new(T::generate(cx))
    }

    fn mutate(&mut self, cx: &mut Context) {
        Arc::make_mut(self).mutate(cx);
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        shrink_wrapped(&**self, cx, Arc::new)
    }

    fn encode(&self, out: &mut Encoder) {
        (**self).encode(out);
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        Arc::new(T::decode(input))
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("Arc");
        T::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        (**self).visit_structure(structure);
    }

    fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
        (**self).hash_value(hasher);
    }
}
