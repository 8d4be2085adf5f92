//! Every form of `proptest!`'s syntax compiles and runs under `typefuzz::proptest!`.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
enum Shape {
    Circle(u8),
    Rect { w: u8, h: u8 },
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        any::<u8>().prop_map(Shape::Circle),
        (any::<u8>(), any::<u8>()).prop_map(|(w, h)| Shape::Rect { w, h }),
    ]
}

/// Fails (overflows) for `i64::MIN`, which the caller's `prop_assume!` must keep out.
fn non_negative(x: i64) -> Result<(), TestCaseError> {
    prop_assert!(x.abs() >= 0, "{} has no absolute value", x);
    Ok(())
}

typefuzz::proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// A doc comment and an extra attribute are kept.
    #[test]
    #[allow(clippy::nonminimal_bool)]
    fn strategies_and_types(a in 0..10u32, b: u16, (c, d) in (any::<bool>(), "[a-c]{0,3}"), s in shape()) {
        let _ = (a, b, c, &d, &s);
        prop_assert!(!(a >= 10), "the range strategy's domain holds for mutants too");
    }

    #[test]
    fn mutable_and_ref_patterns(mut v: Vec<u8>, ref w: String, _ : bool) {
        v.push(1);
        prop_assert_eq!(v.last(), Some(&1));
        // `ref` binds a reference: this fails to compile if the macro dropped it.
        let _: &String = w;
    }

    #[test]
    fn question_mark_and_assume(x: i64,) {
        prop_assume!(x != i64::MIN);
        non_negative(x)?;
    }
}

typefuzz::proptest! {
    #[test]
    fn default_config_runs(x in any::<u64>(), y in any::<u64>()) {
        prop_assert_eq!(x.wrapping_add(y), y.wrapping_add(x));
    }
}

#[test]
fn closure_forms() {
    typefuzz::proptest!(|(x in 0..100u8, y: u8)| {
        prop_assert!(x < 100 || y == y);
    });
    let config = ProptestConfig::with_cases(10);
    typefuzz::proptest!(&config, |(v: Vec<u8>)| {
        prop_assert!(v.len() < 1_000_000);
    });
    let offset = 3u32;
    typefuzz::proptest!(config, move |(x in any::<u16>())| {
        prop_assert!(u32::from(x) + offset > u32::from(x));
    });
}

#[test]
fn runs_at_least_the_configured_cases() {
    let runs = AtomicU64::new(0);
    typefuzz::proptest!(ProptestConfig::with_cases(40), |(_x: u8)| {
        runs.fetch_add(1, Ordering::Relaxed);
    });
    // TYPEFUZZ_CASES may raise the count, never lower it.
    assert!(runs.load(Ordering::Relaxed) >= 40, "{runs:?}");
}

#[test]
fn cases_counts_non_discarded_tests() {
    let config = ProptestConfig::with_cases(25);
    let stats = typefuzz::proptest::check(any::<u8>(), &config, |x| {
        prop_assume!(x % 2 == 0);
        Ok(())
    });
    // TYPEFUZZ_CASES may raise it, never lower it.
    assert!(stats.valid >= 25);
    assert!(stats.discards > 0);
}

#[test]
#[should_panic(expected = "minimal failing input: x = 10, y = 0")]
fn failure_names_arguments() {
    let mut config = ProptestConfig::with_cases(1000);
    config.failure_persistence = None;
    config.rng_seed = proptest::test_runner::RngSeed::Fixed(1);
    typefuzz::proptest!(config, |(x in 0..100u32, y in 0..100u32)| {
        prop_assert!(x < 10, "x too big");
        let _ = y;
    });
}

// Patterns, a superset of proptest's grammar, written from proptest's documentation of
// `proptest!` ("Syntax Sugar: proptest!" in the proptest book) and `prop_compose!`.

#[derive(Clone, Debug, PartialEq)]
struct Point {
    x: i8,
    y: i8,
}

prop_compose! {
    fn point()(x in -10..10i8, y in -10..10i8) -> Point {
        Point { x, y }
    }
}

impl Arbitrary for Point {
    type Parameters = ();
    type Strategy = BoxedStrategy<Point>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        point().boxed()
    }
}

#[derive(Clone, Debug)]
struct Meters(u16);

impl Arbitrary for Meters {
    type Parameters = ();
    type Strategy = BoxedStrategy<Meters>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        (0..1000u16).prop_map(Meters).boxed()
    }
}

typefuzz::proptest! {
    #![proptest_config(ProptestConfig::with_cases(30))]

    /// The book's first example, as written there.
    #[test]
    fn test_add(a in 0..1000i32, b in 0..1000i32) {
        let sum = a + b;
        prop_assert!(sum >= a);
        prop_assert!(sum >= b);
    }

    #[test]
    fn test_string_concat(a in ".*", b in ".*") {
        let cat = format!("{}{}", a, b);
        prop_assert_eq!(a.len() + b.len(), cat.len());
    }

    #[test]
    fn mut_and_tuple_patterns_after_in(
        mut v in proptest::collection::vec(0..10u8, 1..5),
        (a, b) in (0..10u8, 10..20u8),
        Point { x, y } in point(),
        ref r in "[a-z]{2}",
    ) {
        v.push(a);
        prop_assert!(v.len() >= 2 && a < b);
        prop_assert!((-10..10).contains(&x) && (-10..10).contains(&y));
        prop_assert_eq!(r.len(), 2);
    }

    #[test]
    fn patterns_with_types(
        (c, d): (bool, u8),
        [e, f]: [u8; 2],
        Point { x, .. }: Point,
        Meters(m): Meters,
        _: Point,
    ) {
        let _ = (c, d, e, f);
        prop_assert!((-10..10).contains(&x), "the Arbitrary strategy's image: {}", x);
        prop_assert!(m < 1000, "the Arbitrary strategy's image: {}", m);
    }
}

#[test]
fn closure_forms_from_the_docs() {
    typefuzz::proptest!(|(x in 0u32..42u32, y in 1000u32..100000u32)| {
        prop_assert!(x < 42 && y >= 1000);
    });
    typefuzz::proptest!(ProptestConfig::with_cases(64), |(x: u32, (a, b) in (0..3u8, 0..3u8))| {
        prop_assert!(x.checked_add(0) == Some(x) && a < 3 && b < 3);
    });
}
