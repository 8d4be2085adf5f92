//! test-strategy's `#[proptest]` forms (from its README and `tests/proptest_fn.rs`), rewritten,
//! run under typefuzz with only the path changed (`test_strategy::proptest` ->
//! `typefuzz::test_strategy::proptest`).

use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use std::cell::Cell;
use typefuzz::test_strategy::proptest;

// Plain typed arguments are `any::<Type>()`.
#[proptest]
fn typed_arguments(x: u8, y: (bool, u16)) {
    prop_assert_eq!(u32::from(x) + u32::from(y.1), u32::from(y.1) + u32::from(x));
    let _ = y.0;
}

#[proptest]
fn strategy_argument(#[strategy(10..20)] input: i32) {
    prop_assert!((10..20).contains(&input));
}

#[proptest]
fn strategy_regex(#[strategy("[a-c]{1,4}")] s: String) {
    prop_assert!(!s.is_empty() && s.len() <= 4);
    prop_assert!(s.chars().all(|c| ('a'..='c').contains(&c)));
}

// `#[any(params)]`, `#[any(params, field = v)]` and `#[any(field = v)]`.
#[proptest]
fn any_with_parameters(
    #[any(proptest::collection::size_range(0..4).lift())] xs: Vec<u8>,
    #[any(((0..3).into(), ()))] ys: Vec<bool>,
) {
    prop_assert!(xs.len() < 4, "{xs:?}");
    prop_assert!(ys.len() < 3, "{ys:?}");
}

// An expression filter over `#name`, a predicate filter, a labelled one, and one on the function.
fn is_even(x: &u32) -> bool {
    x % 2 == 0
}

#[proptest]
#[filter(#a != #b)]
fn filters(
    #[filter(#a % 2 == 0)] a: u32,
    #[filter(is_even)] b: u32,
    #[filter("c is odd", #c % 2 == 1)] c: u32,
) {
    prop_assert_eq!(a % 2, 0);
    prop_assert_eq!(b % 2, 0);
    prop_assert_eq!(c % 2, 1);
    prop_assert_ne!(a, b);
}

// The configuration forms: a value, a value with fields, fields only. Each counts its tests:
// `cases` is the number of non-discarded tests, as in proptest.
thread_local! {
    static RUNS: Cell<u32> = const { Cell::new(0) };
}

fn counted() -> u32 {
    RUNS.with(|runs| {
        runs.set(runs.get() + 1);
        runs.get()
    })
}

fn cases_run(test: fn()) -> u32 {
    RUNS.with(|runs| runs.set(0));
    test();
    RUNS.with(Cell::get)
}

#[proptest(ProptestConfig { cases: 7, ..ProptestConfig::default() })]
#[ignore = "called by `config_forms` to count its cases"]
fn config_value(_input: i32) {
    counted();
}

#[proptest(ProptestConfig::default(), cases = 9)]
#[ignore = "called by `config_forms` to count its cases"]
fn config_value_and_fields(_input: i32) {
    counted();
}

#[proptest(cases = 11)]
#[ignore = "called by `config_forms` to count its cases"]
fn config_fields(_input: i32) {
    counted();
}

#[test]
fn config_forms() {
    assert_eq!(cases_run(config_value), 7);
    assert_eq!(cases_run(config_value_and_fields), 9);
    assert_eq!(cases_run(config_fields), 11);
}

// A false property fails with proptest's message, naming the minimal input.
#[proptest(failure_persistence = None)]
#[should_panic(expected = "minimal failing input: x = 10")]
fn below_ten(#[strategy(0..1000u32)] x: u32) {
    prop_assert!(x < 10);
}
