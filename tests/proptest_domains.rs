//! Mutants stay in their strategy's domain: a property true on `x in 1..10u8` passes under
//! typefuzz however far the typed mutators take `x`, for every integer and float range shape.

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed, TestCaseError};
use std::sync::atomic::{AtomicU64, Ordering};

/// Feedback that makes the engine keep and mutate inputs even without instrumentation: a
/// precondition (discards switch on the engine's valid-size feedback) and a target to climb.
/// Without feedback nothing is kept, so nothing would be mutated and the projection untested.
macro_rules! feedback {
    ($gate:expr, $climb:expr) => {
        prop_assume!($gate % 3 != 0);
        typefuzz::target!($climb as f64);
    };
}

fn many_cases() -> ProptestConfig {
    let mut config = ProptestConfig::with_cases(20_000);
    config.failure_persistence = None;
    config.rng_seed = RngSeed::Fixed(11);
    config
}

static OUT_OF_RANGE_SEEN: AtomicU64 = AtomicU64::new(0);

typefuzz::proptest! {
    #![proptest_config(many_cases())]

    #[test]
    fn u8_half_open(x in 1..10u8, gate: u16) {
        feedback!(gate, x);
        prop_assert!((1..10).contains(&x), "x = {}", x);
    }

    #[test]
    fn signed_ranges(a in -1000..1000i32, b in -5i64..=5, c in ..=-3i16, d in 100isize.., gate: u16) {
        feedback!(gate, a);
        prop_assert!((-1000..1000).contains(&a));
        prop_assert!((-5..=5).contains(&b));
        prop_assert!(c <= -3);
        prop_assert!(d >= 100);
    }

    #[test]
    fn wide_ranges(a in 10u128..20, b in i128::MIN..=i128::MIN + 1, c in ..7u64, d in 3usize..=3, gate: u16) {
        feedback!(gate, c);
        prop_assert!((10..20).contains(&a));
        prop_assert!(b <= i128::MIN + 1);
        prop_assert!(c < 7);
        prop_assert_eq!(d, 3);
    }

    #[test]
    fn untyped_literals_default_to_i32(y in 0..100, z in 25.., gate: u16) {
        feedback!(gate, y);
        let _: (i32, i32) = (y, z);
        prop_assert!((0..100).contains(&y) && z >= 25);
    }

    #[test]
    fn float_ranges(f in 0.0..1.0f64, g in -2.5f32..=2.5, h in 1e6f64.., k in ..0.0f32, gate: u16) {
        feedback!(gate, f);
        prop_assert!((0.0..1.0).contains(&f), "f = {}", f);
        prop_assert!((-2.5..=2.5).contains(&g), "g = {}", g);
        prop_assert!(h >= 1e6);
        prop_assert!(k < 0.0, "k = {}", k);
    }

    #[test]
    fn float_classes(x: f64, y in proptest::num::f32::POSITIVE | proptest::num::f32::ZERO, gate: u16) {
        feedback!(gate, x);
        prop_assert!(x.is_finite(), "x = {}", x);
        prop_assert!(y.is_finite() && y >= 0.0, "y = {}", y);
    }

    #[test]
    fn just_stays_put(a in Just(7u8), b in Just(String::from("fixed")), n: u8, gate: u16) {
        feedback!(gate, n);
        prop_assert_eq!(a, 7);
        prop_assert_eq!(b, "fixed");
        let _ = n;
    }

    #[test]
    fn other_strategies_are_seeds_only(v in proptest::collection::vec(0..10u8, 0..4), gate: u16) {
        feedback!(gate, v.len());
        // A collection strategy is not projected: mutants can be longer and hold bigger values.
        if v.len() >= 4 || v.iter().any(|&x| x >= 10) {
            OUT_OF_RANGE_SEEN.fetch_add(1, Ordering::Relaxed);
        }
    }
}

#[test]
fn mutants_leave_unprojected_strategies() {
    other_strategies_are_seeds_only();
    assert!(
        OUT_OF_RANGE_SEEN.load(Ordering::Relaxed) > 0,
        "mutation should leave the vec strategy's image (the documented limit of projection)"
    );
}

#[test]
fn a_real_failure_inside_the_domain_is_still_found_and_reported_in_it() {
    let mut config = ProptestConfig::with_cases(5000);
    config.failure_persistence = None;
    config.rng_seed = RngSeed::Fixed(3);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        typefuzz::proptest!(config, |(x in 100..200u32, y in 1..10u8)| {
            prop_assert!(x < 150 || y < 5, "both big");
        });
    }));
    let message = *result.unwrap_err().downcast::<String>().unwrap();
    assert!(
        message.contains("minimal failing input: x = 150, y = 5"),
        "{message}"
    );
}

/// The control: the same property and feedback without projection (the function API on a
/// bare strategy) reports the false failure the projection prevents.
#[test]
fn without_projection_mutants_leave_the_range() {
    let property = |(x, gate): (u8, u16)| -> Result<(), TestCaseError> {
        feedback!(gate, x);
        prop_assert!((1..10).contains(&x), "x = {}", x);
        Ok(())
    };
    let strategy = || (1..10u8, any::<u16>());
    let report = typefuzz::proptest::run(strategy(), &many_cases(), property);
    let failure = report.failure.expect("an unprojected mutant leaves 1..10");
    assert!(!(1..10).contains(&failure.minimal.0));

    let domain = (
        typefuzz::proptest::domain::IntRange::from(1..10u8),
        typefuzz::proptest::domain::Whole,
    );
    let report = typefuzz::proptest::run_in(strategy(), domain, &many_cases(), property);
    assert!(report.passed(), "{:?}", report.failure);
    assert!(report.stats.mutated > 0, "{:#?}", report.stats);
}
