//! quickcheck_macros' own test suite (`quickcheck_macros/tests/macro.rs`) and example
//! (`examples/attribute.rs`), rewritten, run under typefuzz with only the path changed
//! (`quickcheck_macros::quickcheck` -> `typefuzz::quickcheck_macros::quickcheck`); then the
//! attribute's forms that suite does not show.
#![allow(non_upper_case_globals)]

use quickcheck::TestResult;
use typefuzz::quickcheck_macros::quickcheck;

// tests/macro.rs
#[quickcheck]
fn min(x: isize, y: isize) -> TestResult {
    if x < y {
        TestResult::discard()
    } else {
        TestResult::from_bool(::std::cmp::min(x, y) == y)
    }
}

#[quickcheck]
#[should_panic]
fn fail_fn() -> bool {
    false
}

#[quickcheck]
static static_bool: bool = true;

#[quickcheck]
#[should_panic]
static fail_static_bool: bool = false;

// If static_bool wasn't turned into a test function, then this should result in a compiler
// error.
#[test]
fn static_bool_test_is_function() {
    static_bool()
}

// examples/attribute.rs
fn reverse<T: Clone>(xs: &[T]) -> Vec<T> {
    let mut rev = vec![];
    for x in xs {
        rev.insert(0, x.clone())
    }
    rev
}

#[quickcheck]
fn double_reversal_is_identity(xs: Vec<isize>) -> bool {
    xs == reverse(&reverse(&xs))
}

// The attribute by its full path, with patterns, several arguments and a `()` property.
#[typefuzz::quickcheck_macros::quickcheck]
fn sort_is_idempotent((mut xs, extra): (Vec<u8>, u8), flag: bool) {
    xs.push(extra);
    xs.sort();
    let once = xs.clone();
    xs.sort();
    assert_eq!(xs, once, "{flag}");
}

// A false property fails with quickcheck's message and a counterexample typefuzz found.
#[quickcheck]
#[should_panic(expected = "[quickcheck] TEST FAILED")]
fn every_vector_is_short(xs: Vec<u8>) -> bool {
    xs.len() < 3
}

// A discarding property whose precondition no random input meets fails on discards only if
// it never checks anything; this one passes on the inputs that meet it.
#[quickcheck]
fn discards_until_sorted_pairs(a: u8, b: u8) -> TestResult {
    if a >= b {
        return TestResult::discard();
    }
    TestResult::from_bool(a.max(b) == b)
}

// A static function pointer is checked as the property.
fn double_is_even(x: u16) -> bool {
    u32::from(x) * 2 % 2 == 0
}

#[quickcheck]
static static_fn: fn(u16) -> bool = double_is_even;
