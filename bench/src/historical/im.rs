//! im: persistent collections. A bug of `Vector` in 14.1.0, fixed in 14.2.0 (control: 15.0.0),
//! and one of `OrdMap` in 15.0.0, fixed in 15.1.0 (control: the same code published as im-rc
//! 15.1.0, since cargo keeps one im 15 per build).
//!
//! ```
//! use typefuzz_bench::historical::{im::{VecOp, VectorInput}, im, Build};
//! use typefuzz_bench::Verdict;
//! let input = VectorInput { items: vec![1, 2, 3], ops: vec![VecOp::PushFront(0), VecOp::PopBack] };
//! assert_eq!((im::vector_into_iter().property)(Build::Buggy, &input), Verdict::Pass);
//! ```

use std::collections::{BTreeMap, VecDeque};

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

use super::{outcome, verdict, Bug, Build, Case, Input};
use crate::Verdict;

/// One operation on a vector, replayed on `im::Vector` and on a `VecDeque` model.
#[derive(Clone, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
pub enum VecOp {
    /// `push_back(x)`.
    PushBack(i32),
    /// `push_front(x)`.
    PushFront(i32),
    /// `pop_back()`.
    PopBack,
    /// `pop_front()`.
    PopFront,
}

/// A vector built from `items`, then changed by `ops`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
pub struct VectorInput {
    /// The initial contents (`Vector::from(items)`).
    pub items: Vec<i32>,
    /// Replayed in order.
    pub ops: Vec<VecOp>,
}

impl Input for VectorInput {
    fn strategy() -> BoxedStrategy<Self> {
        let op = prop_oneof![
            any::<i32>().prop_map(VecOp::PushBack),
            any::<i32>().prop_map(VecOp::PushFront),
            Just(VecOp::PopBack),
            Just(VecOp::PopFront),
        ];
        (
            proptest::collection::vec(any::<i32>(), 0..100),
            proptest::collection::vec(op, 0..100),
        )
            .prop_map(|(items, ops)| VectorInput { items, ops })
            .boxed()
    }
}

/// Builds a `$vector` (`im::Vector`, or the `VecDeque` model) from the input's items and replays
/// its operations on it.
macro_rules! replay_vector {
    ($vector:ty, $input:expr) => {{
        let mut vector = <$vector>::from($input.items.clone());
        for op in &$input.ops {
            match *op {
                VecOp::PushBack(x) => vector.push_back(x),
                VecOp::PushFront(x) => vector.push_front(x),
                VecOp::PopBack => drop(vector.pop_back()),
                VecOp::PopFront => drop(vector.pop_front()),
            }
        }
        vector
    }};
}

/// Consuming the replayed vector from the back yields the model's contents reversed.
fn vector_into_iter_property(build: Build, input: &VectorInput) -> Verdict {
    let model = replay_vector!(VecDeque<i32>, input);
    let expected: Vec<i32> = model.into_iter().rev().collect();
    let actual: Option<Vec<i32>> = match build {
        Build::Buggy => {
            let vector = replay_vector!(im_14_1_0::Vector<i32>, input);
            outcome(|| vector.into_iter().rev().collect())
        }
        Build::Fixed => {
            let vector = replay_vector!(im_15_0_0::Vector<i32>, input);
            outcome(|| vector.into_iter().rev().collect())
        }
    };
    verdict(actual.as_ref() == Some(&expected))
}

/// Keys inserted into an ordered map, then a range query `start..end`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
pub struct RangeInput {
    /// Inserted in order (value = key).
    pub keys: Vec<u8>,
    /// The query's start (inclusive).
    pub start: u8,
    /// The query's end (exclusive).
    pub end: u8,
}

impl Input for RangeInput {
    fn strategy() -> BoxedStrategy<Self> {
        (
            proptest::collection::vec(any::<u8>(), 0..100),
            any::<u8>(),
            any::<u8>(),
        )
            .prop_map(|(keys, start, end)| RangeInput { keys, start, end })
            .boxed()
    }
}

/// Builds `$krate::OrdMap` from the keys and collects the range query, forwards.
macro_rules! ordmap_range {
    ($krate:ident, $input:expr) => {{
        let mut map = $krate::OrdMap::new();
        for &k in &$input.keys {
            map.insert(k, k);
        }
        map.range($input.start..$input.end)
            .map(|(k, _)| *k)
            .collect::<Vec<u8>>()
    }};
}

/// `OrdMap::range(start..end)` yields exactly `BTreeMap::range`'s keys.
fn ordmap_range_property(build: Build, input: &RangeInput) -> Verdict {
    if input.start > input.end {
        // `BTreeMap::range` panics on a decreasing range: outside the property's domain.
        return Verdict::Discard;
    }
    let model: BTreeMap<u8, u8> = input.keys.iter().map(|&k| (k, k)).collect();
    let expected: Vec<u8> = model
        .range(input.start..input.end)
        .map(|(k, _)| *k)
        .collect();
    let actual = match build {
        Build::Buggy => outcome(|| ordmap_range!(im_15_0_0, input)),
        Build::Fixed => outcome(|| ordmap_range!(im_rc_15_1_0, input)),
    };
    verdict(actual.as_ref() == Some(&expected))
}

/// `Vector`'s consuming iterator misbehaves when reversed (fixed in 14.2.0).
pub fn vector_into_iter() -> Case<VectorInput> {
    Case {
        bug: Bug {
            id: "im-vector-into-iter",
            krate: "im",
            buggy: "14.1.0",
            fixed: "15.0.0",
            summary: "reversing a consuming iterator over a Vector goes wrong (CHANGELOG 14.2.0, \
                      #116)",
        },
        property: vector_into_iter_property,
        // More than three chunks of 64: the consuming iterator walks the middle tree (with 193
        // or fewer elements 14.1.0 is right).
        witness: || VectorInput {
            items: (0..200).collect(),
            ops: vec![],
        },
    }
}

/// `OrdMap::range` yields keys past an end bound that is not in the map (fixed in 15.1.0).
pub fn ordmap_range() -> Case<RangeInput> {
    Case {
        bug: Bug {
            id: "im-ordmap-range",
            krate: "im",
            buggy: "15.0.0",
            fixed: "im-rc 15.1.0",
            summary: "OrdMap::range includes keys outside the range when the end bound is not in \
                      the map (#143, released in 15.1.0)",
        },
        property: ordmap_range_property,
        witness: || RangeInput {
            keys: vec![1, 2, 3, 4, 5, 7],
            start: 0,
            end: 6,
        },
    }
}
