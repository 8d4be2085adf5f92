//! smallvec: `drain` computed its range bounds with unchecked `+ 1` in 1.6.1, so in a release
//! build `drain(..=usize::MAX)` wrapped to `drain(..0)` and silently drained nothing where `Vec`
//! panics (smallvec's #258, fixed in 1.7.0 by "Panic on arithmetic overflow in drain"). Control:
//! 2.0.0-alpha.11, which contains the fix (cargo keeps one smallvec 1.x per build).
//!
//! The bug only shows where overflow checks are off: the published behaviour of a release build
//! (`cargo run --release`, the benchmark); the workspace turns them off for smallvec in the test
//! profile too, so the witness test sees what users' release builds did.
//!
//! ```
//! use typefuzz_bench::historical::{smallvec::{DrainBound, DrainInput}, smallvec, Build};
//! use typefuzz_bench::Verdict;
//! let input = DrainInput { items: vec![1, 2, 3], start: DrainBound::Included(1), end: DrainBound::Unbounded };
//! assert_eq!((smallvec::drain_overflow().property)(Build::Buggy, &input), Verdict::Pass);
//! ```

use std::ops::Bound;

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

use super::{outcome, verdict, Bug, Build, Case, Input};
use crate::Verdict;

/// One end of a drain range (`std::ops::Bound<usize>`, owned by this crate so it can derive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
pub enum DrainBound {
    /// `Bound::Included(n)`.
    Included(usize),
    /// `Bound::Excluded(n)`.
    Excluded(usize),
    /// `Bound::Unbounded`.
    Unbounded,
}

impl DrainBound {
    fn bound(self) -> Bound<usize> {
        match self {
            DrainBound::Included(n) => Bound::Included(n),
            DrainBound::Excluded(n) => Bound::Excluded(n),
            DrainBound::Unbounded => Bound::Unbounded,
        }
    }
}

/// A vector's contents and the range drained from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
pub struct DrainInput {
    /// The contents before draining.
    pub items: Vec<u8>,
    /// The range's start bound.
    pub start: DrainBound,
    /// The range's end bound.
    pub end: DrainBound,
}

impl Input for DrainInput {
    fn strategy() -> BoxedStrategy<Self> {
        let bound = || {
            prop_oneof![
                any::<usize>().prop_map(DrainBound::Included),
                any::<usize>().prop_map(DrainBound::Excluded),
                Just(DrainBound::Unbounded),
            ]
        };
        (
            proptest::collection::vec(any::<u8>(), 0..100),
            bound(),
            bound(),
        )
            .prop_map(|(items, start, end)| DrainInput { items, start, end })
            .boxed()
    }
}

/// What a drain did: the drained elements and what remained, or `None` if it panicked.
type Drained = Option<(Vec<u8>, Vec<u8>)>;

fn drain_vec(input: &DrainInput) -> Drained {
    let mut v = input.items.clone();
    let range = (input.start.bound(), input.end.bound());
    outcome(|| v.drain(range).collect::<Vec<u8>>()).map(|drained| (drained, v))
}

fn drain_smallvec(build: Build, input: &DrainInput) -> Drained {
    let range = (input.start.bound(), input.end.bound());
    match build {
        Build::Buggy => {
            let mut v = smallvec_1_6_1::SmallVec::<[u8; 8]>::from_slice(&input.items);
            outcome(|| v.drain(range).collect::<Vec<u8>>()).map(|drained| (drained, v.to_vec()))
        }
        Build::Fixed => {
            let mut v = smallvec_2_0_0_alpha_11::SmallVec::<u8, 8>::from_slice(&input.items);
            outcome(|| v.drain(range).collect::<Vec<u8>>()).map(|drained| (drained, v.to_vec()))
        }
    }
}

/// `SmallVec::drain` behaves as `Vec::drain`: the same elements drained and kept, and a panic
/// exactly where `Vec` panics.
fn drain_property(build: Build, input: &DrainInput) -> Verdict {
    verdict(drain_smallvec(build, input) == drain_vec(input))
}

/// `drain` with a bound at `usize::MAX` wraps instead of panicking (fixed in 1.7.0).
pub fn drain_overflow() -> Case<DrainInput> {
    Case {
        bug: Bug {
            id: "smallvec-drain-overflow",
            krate: "smallvec",
            buggy: "1.6.1",
            fixed: "2.0.0-alpha.11",
            summary: "drain(..=usize::MAX) wraps to an empty range instead of panicking (#258, \
                      \"Panic on arithmetic overflow in drain\", released in 1.7.0)",
        },
        property: drain_property,
        witness: || DrainInput {
            items: vec![1, 2, 3],
            start: DrainBound::Unbounded,
            end: DrainBound::Included(usize::MAX),
        },
    }
}
