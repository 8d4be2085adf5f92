//! A suite written for quickcheck 0.9 (rand-based `Gen`, `Arbitrary::arbitrary<G: Gen>`) runs
//! under the drop-in with the macro path changed: `Arbitrary`-only types, `Mutate` types,
//! patterns, `TestResult` discards, the builder, and a failure shrunk and saved.
//!
//! `cargo test -p typefuzz-quickcheck --no-default-features --features quickcheck09`
//! (`typefuzz_quickcheck::quickcheck!` is 0.9's there; with 1.x on too, `v0_9::quickcheck!`).

extern crate quickcheck09 as quickcheck;

use quickcheck::{Arbitrary, Gen, TestResult};
use typefuzz_quickcheck::genotype::Genotype;
use typefuzz_quickcheck::v0_9::QuickCheck;

/// `Arbitrary` only, written against 0.9's API.
#[derive(Clone, Debug, PartialEq)]
struct Even(u32);

impl Arbitrary for Even {
    fn arbitrary<G: Gen>(g: &mut G) -> Self {
        Even(u32::arbitrary(g) & !1)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(|x| Even(x & !1)))
    }
}

/// `Arbitrary` and `Mutate`: typed mutation.
#[derive(Clone, Debug, typefuzz::Mutate)]
enum Shape {
    Dot,
    Line(u8),
    Pair(Box<Shape>, Box<Shape>),
}

impl Arbitrary for Shape {
    fn arbitrary<G: Gen>(g: &mut G) -> Self {
        match u8::arbitrary(g) % 3 {
            0 => Shape::Dot,
            1 => Shape::Line(u8::arbitrary(g)),
            _ => Shape::Pair(
                Box::new(Shape::Dot),
                Box::new(Shape::Line(u8::arbitrary(g))),
            ),
        }
    }
}

#[cfg(not(feature = "quickcheck1"))]
use typefuzz_quickcheck::quickcheck as properties;
#[cfg(feature = "quickcheck1")]
use typefuzz_quickcheck::v0_9::quickcheck as properties;

properties! {
    fn even_stays_even(e: Even) -> bool {
        e.0 % 2 == 0
    }

    fn shapes_are_finite(s: Shape) -> bool {
        fn depth(s: &Shape) -> usize {
            match s {
                Shape::Pair(a, b) => 1 + depth(a).max(depth(b)),
                _ => 0,
            }
        }
        depth(&s) < 10_000
    }

    fn patterns((n, x): (usize, i32), mut v: Vec<i16>) -> TestResult {
        if n == 0 {
            return TestResult::discard();
        }
        v.push(1);
        TestResult::from_bool(!v.is_empty() && x.checked_mul(0) == Some(0))
    }
}

#[test]
fn failures_are_shrunk_by_arbitrary_and_replayed() {
    // quickcheck 0.9 draws integers below the generator size (100).
    fn small(e: Even) -> bool {
        e.0 < 50
    }
    let report = QuickCheck::new()
        .seed(1)
        .name("quickcheck09::small")
        .quicktest(small as fn(Even) -> bool);
    let failure = report
        .failure
        .expect("quickcheck 0.9's generator reaches 50");
    assert_eq!(failure.minimal.args(), &(Even(50),));
    let file = failure.regression_file.expect("saved");
    // The next run replays the saved seed and shrink path first.
    let again = QuickCheck::new()
        .seed(2)
        .name("quickcheck09::small")
        .quicktest(small as fn(Even) -> bool);
    assert_eq!(again.stats.regressions_replayed, 1);
    assert_eq!(again.failure.expect("replayed").tests, 1);
    let _ = std::fs::remove_file(file);
}

#[test]
fn typed_builder_mutates() {
    // quickcheck 0.9 draws integers below the generator size (100): only typed mutation
    // reaches 200. The discard gives the engine its feedback (valid inputs of new sizes).
    fn no_big_line(s: Shape) -> TestResult {
        if matches!(s, Shape::Dot) {
            return TestResult::discard();
        }
        TestResult::from_bool(!matches!(s, Shape::Line(200..)))
    }
    // Half the run's work is fresh generation (which cannot reach 200), so mutation gets about
    // half of the tests: a budget of 1,000 rather than quickcheck's 100.
    let report = QuickCheck::new()
        .seed(3)
        .tests(1_000)
        .name("quickcheck09::no_big_line")
        .quicktest_typed(no_big_line as fn(Shape) -> TestResult);
    assert!(report.stats.mutated > 0);
    let failure = report.failure.expect("a line of 200 or more");
    assert!(
        matches!(failure.minimal.0 .0, Shape::Line(200..)),
        "{:?}",
        failure.minimal
    );
    let _ = std::fs::remove_file(failure.regression_file.expect("saved"));
}
