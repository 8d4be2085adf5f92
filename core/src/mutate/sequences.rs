//! Sequences beside `Vec` and `VecDeque`: `BinaryHeap<T>`, `LinkedList<T>`, `Box<[T]>`,
//! `Rc<[T]>` and `Arc<[T]>`, through a `Vec<T>`.
//!
//! # Shrink order
//!
//! `Vec<T>`'s (fewer elements, then simpler ones). A `BinaryHeap` is represented by its sorted
//! elements, so two heaps with the same elements are the same value and encode alike.

use std::collections::{BinaryHeap, LinkedList};
use std::rc::Rc;
use std::sync::Arc;

use super::via::via;
use crate::Mutate;

fn heap_to<T: Ord + Clone>(heap: &BinaryHeap<T>) -> Vec<T> {
    heap.clone().into_sorted_vec()
}

via! {
    [T: Mutate + Ord] BinaryHeap<T> => Vec<T>, heap_to, BinaryHeap::from, normalizing, "BinaryHeap"
}

fn list_to<T: Clone>(list: &LinkedList<T>) -> Vec<T> {
    list.iter().cloned().collect()
}

fn list_from<T>(elements: Vec<T>) -> LinkedList<T> {
    elements.into_iter().collect()
}

via! {
    [T: Mutate] LinkedList<T> => Vec<T>, list_to, list_from, injective, "LinkedList"
}

/// `Box<[T]>`, `Rc<[T]>` and `Arc<[T]>` dereference to it.
fn slice_to<T: Clone>(slice: &[T]) -> Vec<T> {
    slice.to_vec()
}

via! {
    [T: Mutate] Box<[T]> => Vec<T>, slice_to, Vec::into_boxed_slice, injective, "Box<[]>"
}

via! {
    [T: Mutate] Rc<[T]> => Vec<T>, slice_to, Rc::from, injective, "Rc<[]>"
}

via! {
    [T: Mutate] Arc<[T]> => Vec<T>, slice_to, Arc::from, injective, "Arc<[]>"
}
