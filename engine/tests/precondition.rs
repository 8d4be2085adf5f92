//! Preconditions: `assume!` discards exactly when its condition is false (its score is >= 0
//! exactly when the expression is true), and with only assume feedback the loop climbs into a
//! sparse precondition (valid binary search trees) far more often than plain generation.

// The expression shapes are deliberately written out, not simplified: they are what is tested.
#![allow(
    clippy::nonminimal_bool,
    clippy::manual_contains,
    clippy::overly_complex_bool_expr
)]

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

use proptest::prelude::*;
use typefuzz::{assume, check, Config, Discarded, FeedbackSources, Mutate, Schedule};

/// Whether `run` discarded (unwound with [`Discarded`]) rather than returned.
fn discarded(run: impl FnOnce() -> bool) -> bool {
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(_) => false,
        Err(payload) => {
            assert!(payload.is::<Discarded>(), "only discards unwind");
            true
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn assume_discards_exactly_when_false(
        a in any::<i64>(), b in any::<i64>(), c in -4i64..4, d in -4i64..4,
        x in any::<u8>(), y in any::<u8>(),
        f in prop_oneof![any::<f64>(), Just(f64::NAN), Just(f64::INFINITY), Just(-0.0), -3.0f64..3.0],
        g in prop_oneof![any::<f64>(), Just(f64::NAN), Just(f64::NEG_INFINITY), Just(0.0), -3.0f64..3.0],
        v in proptest::collection::vec(-3i32..3, 0..5),
        flag in any::<bool>(),
    ) {
        // One shape per operator, and nestings of them; `truth` is Rust's own evaluation.
        let shapes: Vec<(bool, Box<dyn Fn() -> bool>)> = vec![
            (a < b, Box::new(move || { assume!(a < b); true })),
            (a <= b, Box::new(move || { assume!(a <= b); true })),
            (a > b, Box::new(move || { assume!(a > b); true })),
            (a >= b, Box::new(move || { assume!(a >= b); true })),
            (c == d, Box::new(move || { assume!(c == d); true })),
            (c != d, Box::new(move || { assume!(c != d); true })),
            (x < y, Box::new(move || { assume!(x < y); true })),
            (i64::from(x) <= c, Box::new(move || { assume!(i64::from(x) <= c); true })),
            (f < g, Box::new(move || { assume!(f < g); true })),
            (f <= g, Box::new(move || { assume!(f <= g); true })),
            (f == g, Box::new(move || { assume!(f == g); true })),
            (f > 1.5, Box::new(move || { assume!(f > 1.5); true })),
            (c < 2 && d >= -1, Box::new(move || { assume!(c < 2 && d >= -1); true })),
            (c == 0 || !(d != 3), Box::new(move || { assume!(c == 0 || !(d != 3)); true })),
            (!(c <= d), Box::new(move || { assume!(!(c <= d)); true })),
            (!(c == d) && (flag || a < b), Box::new(move || { assume!(!(c == d) && (flag || a < b)); true })),
            (!flag, Box::new(move || { assume!(!flag); true })),
            (true && flag, Box::new(move || { assume!(true && flag); true })),
            (false, Box::new(|| { assume!(false); true })),
            (v.iter().all(|&e| e < c as i32), { let v = v.clone(); Box::new(move || { assume!(v.iter().all(|&e| e < c as i32)); true }) }),
            (v.iter().any(|e| *e == d as i32), { let v = v.clone(); Box::new(move || { assume!(v.iter().any(|e| *e == d as i32)); true }) }),
            (!v.is_empty() && v[0] > -2, { let v = v.clone(); Box::new(move || { assume!(!v.is_empty() && v[0] > -2); true }) }),
            (v.len() < 3 || v.iter().all(|x: &i32| x != &0), { let v = v.clone(); Box::new(move || { assume!(v.len() < 3 || v.iter().all(|x: &i32| x != &0)); true }) }),
            ("abc" < "abd", Box::new(|| { assume!("abc" < "abd"); true })),
        ];
        for (index, (truth, run)) in shapes.iter().enumerate() {
            prop_assert_eq!(discarded(run), !truth, "shape {}", index);
        }
    }
}

#[test]
fn each_operand_is_evaluated_once_and_short_circuits_hold() {
    let evaluations = Cell::new(0);
    let count = |value: i32| {
        evaluations.set(evaluations.get() + 1);
        value
    };
    assert!(!discarded(|| {
        assume!(count(1) < count(2));
        true
    }));
    assert_eq!(evaluations.get(), 2);
    let v: Vec<u8> = Vec::new();
    // `v[0]` would panic if the right side ran.
    assert!(discarded(|| {
        assume!(!v.is_empty() && v[0] == 1);
        true
    }));
}

/// A binary search tree over bytes; every derived mutation keeps it a tree, few keep it ordered.
#[derive(Clone, Debug, PartialEq, Mutate)]
enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

fn is_bst(tree: &Tree) -> bool {
    fn within(tree: &Tree, low: Option<u8>, high: Option<u8>) -> bool {
        match tree {
            Tree::Leaf => true,
            Tree::Node(left, key, right) => {
                low.map_or(true, |low| *key > low)
                    && high.map_or(true, |high| *key < high)
                    && within(left, low, Some(*key))
                    && within(right, Some(*key), high)
            }
        }
    }
    within(tree, None, None)
}

fn size(tree: &Tree) -> usize {
    match tree {
        Tree::Leaf => 0,
        Tree::Node(left, _, right) => 1 + size(left) + size(right),
    }
}

/// Valid inputs among the second half of a 200,000-test run.
fn second_half_valid_rate(schedule: Schedule) -> f64 {
    const TESTS: u64 = 200_000;
    let (calls, valid) = (Cell::new(0u64), Cell::new(0u64));
    let config = Config::default()
        .with_seed(42)
        .with_schedule(schedule)
        .with_feedback(FeedbackSources {
            assume: true,
            ..FeedbackSources::none()
        })
        .with_max_size(8)
        .with_cases(u64::MAX)
        .with_max_discards(None)
        .with_max_tests(TESTS)
        .with_progress(false);
    // Trees of at least four keys: smaller ones are ordered too often for a sparse precondition.
    let generate = |cx: &mut typefuzz::Context| cx.generate_sized::<Tree>(8);
    let report = check(&config, generate, |tree: &Tree| {
        calls.set(calls.get() + 1);
        assume!(size(tree) >= 4 && is_bst(tree));
        if calls.get() > TESTS / 2 {
            valid.set(valid.get() + 1);
        }
    });
    assert!(report.passed());
    assert_eq!(report.stats.tests, TESTS);
    valid.get() as f64 / (TESTS / 2) as f64
}

#[test]
fn assume_feedback_raises_the_valid_rate_five_fold() {
    let guided = second_half_valid_rate(Schedule::Default);
    let generated = second_half_valid_rate(Schedule::Generate);
    assert!(
        generated > 0.0,
        "the generator does produce valid trees sometimes"
    );
    eprintln!("valid rate, second half: guided {guided:.4}, generation only {generated:.4}");
    assert!(
        guided >= 5.0 * generated,
        "guided {guided:.4} vs generated {generated:.4}"
    );
}

/// Before, `Report::passed` was true for a run whose every test was discarded: a property that
/// never ran counted as holding.
#[test]
fn a_check_with_no_valid_test_has_not_passed() {
    let config = Config::default()
        .with_seed(3)
        .with_max_discards(Some(300))
        .with_keep_seeds(false);
    let report = check(
        &config,
        |cx| cx.generate::<u8>(),
        |_| -> bool { typefuzz::Discard::discard() },
    );
    assert_eq!((report.stats.valid, report.stats.discards), (0, 300));
    assert!(report.failure.is_none());
    assert!(!report.passed(), "{:?}", report.stats);
}
