//! Per-test overhead of `typefuzz::proptest` against plain proptest on a property with no
//! precondition: same strategy, same number of tests, release build.
//!
//! ```text
//! cargo run --release -p typefuzz-proptest --example proptest_overhead [tests]
//! ```
use std::time::Instant;

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestRunner};

fn property((a, b, v): (u32, u32, Vec<u8>)) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.wrapping_add(b), b.wrapping_add(a));
    prop_assert!(v.len() < 1 << 20);
    Ok(())
}

fn strategy() -> impl Strategy<Value = (u32, u32, Vec<u8>)> {
    (
        any::<u32>(),
        any::<u32>(),
        proptest::collection::vec(any::<u8>(), 0..16),
    )
}

fn main() {
    let tests: u32 = match std::env::args().nth(1) {
        None => 200_000,
        Some(arg) => arg.parse().unwrap_or_else(|error| {
            eprintln!("usage: proptest_overhead [TESTS]   (`{arg}`: {error})");
            std::process::exit(2)
        }),
    };
    let mut config = ProptestConfig::with_cases(tests);
    config.failure_persistence = None;

    for round in 0..3 {
        let start = Instant::now();
        let mut runner = TestRunner::new(config.clone());
        runner.run(&strategy(), property).unwrap();
        let plain = start.elapsed();

        let start = Instant::now();
        let stats = typefuzz_proptest::check(strategy(), &config, property);
        let drop_in = start.elapsed();
        assert_eq!(stats.valid, u64::from(tests));

        println!(
            "round {round}: {tests} tests: plain proptest {:.0} ns/test, typefuzz::proptest {:.0} ns/test ({} generated, {} mutated)",
            plain.as_nanos() as f64 / f64::from(tests),
            drop_in.as_nanos() as f64 / f64::from(tests),
            stats.generated,
            stats.mutated,
        );
    }
}
