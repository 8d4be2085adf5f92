//! Arrays `[T; N]`: mutate one element or swap two; shrink one element at a time.
//!
//! Elements are generated one level deeper with an equal share of the size budget
//! ([`split_size`]), like `Vec` elements, so arrays of recursive types stay linear in the size.
//!
//! # Shrink order
//!
//! The product order (element-wise): each candidate replaces one element by a strictly smaller
//! one, so it is well-founded when the element order is.

use super::vec::{can_descend, mutate_child, position, same_encoding};
use crate::__private::split_size;
use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::leaves::Leaves;
use crate::structure::{token, Structure};
use crate::{Context, Mutate, Operator};

/// Elements whose shrink candidates are offered, and how many candidates each.
const SHRINK_ELEMENTS: usize = 16;
/// See [`SHRINK_ELEMENTS`].
const SHRINK_PER_ELEMENT: usize = 4;

/// Fixed-length arrays: mutation changes one element (Element) or swaps two different ones
/// (Swap); the codec writes the elements in order, with no length.
///
/// ```
/// use typefuzz_core::{codec, Context, Mutate};
/// let mut cx = Context::new(6);
/// let mut bytes: [u8; 4] = cx.generate();
/// let before = bytes;
/// cx.mutate(&mut bytes);
/// assert_ne!(bytes, before);
/// assert_eq!(codec::to_bytes(&bytes), bytes.to_vec());
/// assert_eq!([0u8, 3].shrink(&mut cx)[0], [0, 0]);
/// ```
impl<T: Mutate, const N: usize> Mutate for [T; N] {
    fn generate(cx: &mut Context) -> Self {
        let child = split_size(cx.size(), N);
        core::array::from_fn(|_| crate::__private::generate_field(cx, child, T::generate))
    }

    fn mutate(&mut self, cx: &mut Context) {
        if N == 0 || !can_descend::<T>(cx) {
            // No elements, or elements with a single value: the array has a single value.
            return;
        }
        let index = cx.below(N);
        if N >= 2 && cx.chance(1, 4) {
            let other = (index + 1 + cx.below(N - 1)) % N;
            // Swapping equal elements would change nothing: fall through to Element.
            if !same_encoding(&self[index], &self[other]) {
                cx.record(Operator::Swap);
                cx.save(self);
                self.swap(index, other);
                return;
            }
        }
        cx.record(Operator::Element);
        mutate_child(&mut self[index], cx);
    }

    /// Saves only what it changes itself; elements and payloads save their own changes.
    fn mutate_undoable(&mut self, cx: &mut Context) {
        self.mutate(cx);
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        let mut out = Vec::new();
        for (index, element) in self.iter().enumerate().take(SHRINK_ELEMENTS) {
            for candidate in element.shrink(cx).into_iter().take(SHRINK_PER_ELEMENT) {
                let mut smaller = self.duplicate();
                smaller[index] = candidate;
                out.push(smaller);
            }
        }
        out
    }

    /// Each element's [`Mutate::duplicate`].
    fn duplicate(&self) -> Self {
        core::array::from_fn(|index| self[index].duplicate())
    }

    fn encode(&self, out: &mut Encoder) {
        for element in self {
            element.encode(out);
        }
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        core::array::from_fn(|_| T::decode(input))
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("array");
        fingerprint.number(N as u64);
        T::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        const TYPE: u64 = token("array");
        for (index, element) in self.iter().enumerate() {
            structure.child(TYPE, position(index, N), element);
        }
    }

    fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
        self.iter().for_each(|element| element.hash_value(hasher));
    }

    fn visit_leaves(&mut self, leaves: &mut Leaves<'_>) {
        for element in self {
            element.visit_leaves(leaves);
            if leaves.is_done() {
                return;
            }
        }
    }
}
