//! `Bound<T>` and the range types, through their ends.
//!
//! # Shrink order
//!
//! `Bound`: `Unbounded` is simplest, then `Included` before `Excluded` for the same value, then
//! the value's order. Ranges: their ends, first end first; nothing orders the ends (a "reversed"
//! range such as `5..2` is a value the type holds, empty, and properties must handle it).

use std::ops::{Bound, Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};

use super::via::via;
use crate::Mutate;

/// `None` is `Unbounded`; `Some((false, v))` is `Included(v)`, `Some((true, v))` `Excluded(v)`
/// (`false` is the simpler `bool`, so `Included` is the simpler bound).
fn bound_to<T: Clone>(bound: &Bound<T>) -> Option<(bool, T)> {
    match bound {
        Bound::Included(v) => Some((false, v.clone())),
        Bound::Excluded(v) => Some((true, v.clone())),
        Bound::Unbounded => None,
    }
}

fn bound_from<T>(repr: Option<(bool, T)>) -> Bound<T> {
    match repr {
        Some((false, v)) => Bound::Included(v),
        Some((true, v)) => Bound::Excluded(v),
        None => Bound::Unbounded,
    }
}

via! {
    [T: Mutate] Bound<T> => Option<(bool, T)>, bound_to, bound_from, injective, "Bound"
}

fn range_to<T: Clone>(range: &Range<T>) -> (T, T) {
    (range.start.clone(), range.end.clone())
}

fn range_from<T>((start, end): (T, T)) -> Range<T> {
    start..end
}

via! {
    [T: Mutate] Range<T> => (T, T), range_to, range_from, injective, "Range"
}

fn range_inclusive_to<T: Clone>(range: &RangeInclusive<T>) -> (T, T) {
    (range.start().clone(), range.end().clone())
}

fn range_inclusive_from<T>((start, end): (T, T)) -> RangeInclusive<T> {
    start..=end
}

via! {
    [T: Mutate] RangeInclusive<T> => (T, T), range_inclusive_to, range_inclusive_from, injective, "RangeInclusive"
}

fn range_start_to<T: Clone>(range: &RangeFrom<T>) -> T {
    range.start.clone()
}

fn range_start_from<T>(start: T) -> RangeFrom<T> {
    start..
}

via! {
    [T: Mutate] RangeFrom<T> => T, range_start_to, range_start_from, injective, "RangeFrom"
}

fn range_end_to<T: Clone>(range: &RangeTo<T>) -> T {
    range.end.clone()
}

fn range_end_from<T>(end: T) -> RangeTo<T> {
    ..end
}

via! {
    [T: Mutate] RangeTo<T> => T, range_end_to, range_end_from, injective, "RangeTo"
}

fn range_to_inclusive_to<T: Clone>(range: &RangeToInclusive<T>) -> T {
    range.end.clone()
}

fn range_to_inclusive_from<T>(end: T) -> RangeToInclusive<T> {
    ..=end
}

via! {
    [T: Mutate] RangeToInclusive<T> => T, range_to_inclusive_to, range_to_inclusive_from, injective, "RangeToInclusive"
}

fn range_full_to(_: &RangeFull) {}

fn range_full_from((): ()) -> RangeFull {
    ..
}

via! {
    [] RangeFull => (), range_full_to, range_full_from, injective, "RangeFull"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{codec, Context};

    #[test]
    fn bounds_shrink_to_unbounded_first() {
        let mut cx = Context::new(1);
        let candidates = Bound::Excluded(5u8).shrink(&mut cx);
        assert_eq!(candidates[0], Bound::Unbounded);
        assert!(candidates.contains(&Bound::Included(5)));
        let bytes = codec::to_bytes(&Bound::Included(-3i32));
        assert_eq!(codec::from_bytes::<Bound<i32>>(&bytes), Bound::Included(-3));
    }

    #[test]
    fn ranges_round_trip() {
        let r = 3u16..=9;
        assert_eq!(
            codec::from_bytes::<RangeInclusive<u16>>(&codec::to_bytes(&r)),
            r
        );
        let mut cx = Context::new(3);
        let mut range = 0u8..10;
        cx.mutate(&mut range);
        assert_ne!(range, 0..10);
    }
}
