//! rangemap: the gaps iterators of `RangeMap` and `RangeInclusiveMap` in 0.1.14 (the last 0.1
//! release; 1.0.0 changed nothing functional), fixed in 1.0.1 according to rangemap's CHANGELOG
//! ("Fix empty gaps returned by `Gaps` iterator for `RangeMap`, and incorrect gaps returned by
//! `Gaps` iterator for `RangeInclusiveMap`"). Control: 1.8.0. (The 1.0.2 and 1.0.3 gaps fixes
//! repaired regressions of the 1.0.1 rewrite: 0.1.14 does not have them, so they are not cases.)
//!
//! Every property replays a list of [`RangeOp`]s on a map with `u8` keys and on a model (one
//! slot per key), then compares `gaps(outer)` with the model's maximal unmapped runs.
//!
//! ```
//! use typefuzz_bench::historical::{rangemap::{GapsInput, RangeOp}, rangemap, Build};
//! use typefuzz_bench::Verdict;
//! // No stored range: the only gap of 3..7 is 3..7 itself, in either release.
//! let input = GapsInput { ops: vec![], start: 3, end: 7 };
//! assert_eq!((rangemap::gaps_empty().property)(Build::Fixed, &input), Verdict::Pass);
//! ```

use std::ops::{Range, RangeInclusive};

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

use super::{outcome, verdict, Bug, Build, Case, Input};
use crate::Verdict;

/// One operation on a range map with `u8` keys and values; empty ranges are skipped (both
/// releases panic on them by design, which is not the bug measured here).
#[derive(Clone, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
pub enum RangeOp {
    /// `insert(start..end, value)`, or `insert(start..=end, value)` on the inclusive map.
    Insert(u8, u8, u8),
    /// `remove(start..end)`, or `remove(start..=end)` on the inclusive map.
    Remove(u8, u8),
}

/// Operations to replay, then the outer range whose gaps are asked for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
pub struct GapsInput {
    /// Replayed in order on an empty map.
    pub ops: Vec<RangeOp>,
    /// The outer range's start.
    pub start: u8,
    /// The outer range's end (exclusive for `RangeMap`, inclusive for `RangeInclusiveMap`).
    pub end: u8,
}

impl Input for GapsInput {
    fn strategy() -> BoxedStrategy<Self> {
        let op = prop_oneof![
            (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(a, b, v)| RangeOp::Insert(a, b, v)),
            (any::<u8>(), any::<u8>()).prop_map(|(a, b)| RangeOp::Remove(a, b)),
        ];
        (
            proptest::collection::vec(op, 0..16),
            any::<u8>(),
            any::<u8>(),
        )
            .prop_map(|(ops, start, end)| GapsInput { ops, start, end })
            .boxed()
    }
}

/// Which keys the operations leave mapped; `inclusive` replays them as `start..=end`.
fn model(ops: &[RangeOp], inclusive: bool) -> [bool; 256] {
    let mut mapped = [false; 256];
    let span = |a: u8, b: u8| {
        let (a, b) = (usize::from(a), usize::from(b));
        if inclusive {
            a..b + 1
        } else {
            a..b.max(a)
        }
    };
    for op in ops {
        match *op {
            RangeOp::Insert(a, b, _) => span(a, b).for_each(|k| mapped[k] = true),
            RangeOp::Remove(a, b) => span(a, b).for_each(|k| mapped[k] = false),
        }
    }
    mapped
}

/// The model's gaps: maximal runs of unmapped keys in `keys`, as (first, last) pairs.
fn model_gaps(mapped: &[bool; 256], keys: RangeInclusive<usize>) -> Vec<(usize, usize)> {
    let mut gaps: Vec<(usize, usize)> = Vec::new();
    for k in keys {
        if mapped[k] {
            continue;
        }
        match gaps.last_mut() {
            Some(last) if last.1 + 1 == k => last.1 = k,
            _ => gaps.push((k, k)),
        }
    }
    gaps
}

/// Replays `ops` on `$krate::RangeMap` and collects `gaps(&outer)`.
macro_rules! exclusive_gaps {
    ($krate:ident, $ops:expr, $outer:expr) => {{
        let mut map = $krate::RangeMap::<u8, u8>::new();
        for op in $ops {
            match *op {
                RangeOp::Insert(a, b, v) if a < b => map.insert(a..b, v),
                RangeOp::Remove(a, b) if a < b => map.remove(a..b),
                _ => {}
            }
        }
        map.gaps($outer).collect::<Vec<Range<u8>>>()
    }};
}

/// Replays `ops` on `$krate::RangeInclusiveMap` and collects `gaps(&outer)`.
macro_rules! inclusive_gaps {
    ($krate:ident, $ops:expr, $outer:expr) => {{
        let mut map = $krate::RangeInclusiveMap::<u8, u8>::new();
        for op in $ops {
            match *op {
                RangeOp::Insert(a, b, v) if a <= b => map.insert(a..=b, v),
                RangeOp::Remove(a, b) if a <= b => map.remove(a..=b),
                _ => {}
            }
        }
        map.gaps($outer).collect::<Vec<RangeInclusive<u8>>>()
    }};
}

fn map_gaps(build: Build, input: &GapsInput) -> Vec<Range<u8>> {
    let outer = input.start..input.end;
    match build {
        Build::Buggy => exclusive_gaps!(rangemap_0_1_14, &input.ops, &outer),
        Build::Fixed => exclusive_gaps!(rangemap_1_8_0, &input.ops, &outer),
    }
}

/// The inclusive map's gaps, or `None` if computing them panicked (0.1.14 computes `end + 1` of a
/// stored range ending at `u8::MAX`: an overflow panic with overflow checks, a wrap without).
fn inclusive_map_gaps(build: Build, input: &GapsInput) -> Option<Vec<RangeInclusive<u8>>> {
    let outer = input.start..=input.end;
    match build {
        Build::Buggy => outcome(|| inclusive_gaps!(rangemap_0_1_14, &input.ops, &outer)),
        Build::Fixed => outcome(|| inclusive_gaps!(rangemap_1_8_0, &input.ops, &outer)),
    }
}

/// The gaps of a non-empty outer range of a `RangeMap` are exactly the model's.
fn gaps_property(build: Build, input: &GapsInput) -> Verdict {
    if input.start >= input.end {
        return Verdict::Discard;
    }
    let expected: Vec<Range<u8>> = model_gaps(
        &model(&input.ops, false),
        usize::from(input.start)..=usize::from(input.end) - 1,
    )
    .into_iter()
    .map(|(first, last)| first as u8..(last + 1) as u8)
    .collect();
    verdict(map_gaps(build, input) == expected)
}

/// The non-empty gaps of a `RangeInclusiveMap` are exactly the model's (and computing them does
/// not panic).
fn inclusive_gaps_property(build: Build, input: &GapsInput) -> Verdict {
    if input.start > input.end {
        return Verdict::Discard;
    }
    let expected: Vec<RangeInclusive<u8>> = model_gaps(
        &model(&input.ops, true),
        usize::from(input.start)..=usize::from(input.end),
    )
    .into_iter()
    .map(|(first, last)| first as u8..=last as u8)
    .collect();
    let gaps = inclusive_map_gaps(build, input).map(|gaps| {
        gaps.into_iter()
            .filter(|gap| !gap.is_empty())
            .collect::<Vec<_>>()
    });
    verdict(gaps == Some(expected))
}

/// No gap of a `RangeInclusiveMap` is empty.
fn inclusive_gaps_empty_property(build: Build, input: &GapsInput) -> Verdict {
    if input.start > input.end {
        return Verdict::Discard;
    }
    match inclusive_map_gaps(build, input) {
        Some(gaps) => verdict(gaps.iter().all(|gap| !gap.is_empty())),
        // A panic is the other bug of this release, not this property's.
        None => Verdict::Pass,
    }
}

const fn bug(id: &'static str, summary: &'static str) -> Bug {
    Bug {
        id,
        krate: "rangemap",
        buggy: "0.1.14",
        fixed: "1.8.0",
        summary,
    }
}

/// `RangeMap::gaps` yields an empty gap between two touching stored ranges (fixed in 1.0.1).
pub fn gaps_empty() -> Case<GapsInput> {
    Case {
        bug: bug(
            "rangemap-gaps-empty",
            "RangeMap::gaps yields an empty gap between touching stored ranges (CHANGELOG 1.0.1)",
        ),
        property: gaps_property,
        // 2..4 and 4..6 hold different values, so they stay two touching ranges; 0.1.14 yields
        // the empty gap 4..4 between them.
        witness: || GapsInput {
            ops: vec![RangeOp::Insert(2, 4, 0), RangeOp::Insert(4, 6, 1)],
            start: 0,
            end: 8,
        },
    }
}

/// `RangeInclusiveMap::gaps` yields an empty gap between two touching stored ranges (fixed in
/// 1.0.1).
pub fn inclusive_gaps_empty() -> Case<GapsInput> {
    Case {
        bug: bug(
            "rangemap-inclusive-gaps-empty",
            "RangeInclusiveMap::gaps yields an empty gap between touching stored ranges \
             (CHANGELOG 1.0.1)",
        ),
        property: inclusive_gaps_empty_property,
        witness: || GapsInput {
            ops: vec![RangeOp::Insert(2, 3, 0), RangeOp::Insert(4, 5, 1)],
            start: 0,
            end: 8,
        },
    }
}

/// `RangeInclusiveMap::gaps` steps past `K::MAX` after a stored range ending at the key type's
/// maximum (fixed in 1.0.1, whose gaps code stops "so we don't overflow").
pub fn inclusive_gaps_max() -> Case<GapsInput> {
    Case {
        bug: bug(
            "rangemap-inclusive-gaps-max",
            "RangeInclusiveMap::gaps computes the successor of K::MAX after a stored range \
             ending there: incorrect gaps (CHANGELOG 1.0.1)",
        ),
        property: inclusive_gaps_property,
        witness: || GapsInput {
            ops: vec![RangeOp::Insert(5, 255, 0)],
            start: 0,
            end: 5,
        },
    }
}
