//! Per-test overhead of `typefuzz::quickcheck` against plain quickcheck on a property with no
//! precondition: same `Arbitrary` types, same number of tests, release build.
//!
//! ```text
//! cargo run --release -p typefuzz-quickcheck --example overhead [tests]
//! ```
use std::time::Instant;

fn property(a: u32, b: u32, v: Vec<u8>) -> bool {
    a.wrapping_add(b) == b.wrapping_add(a) && v.len() < 1 << 20
}

fn main() {
    let tests: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(200_000);

    for round in 0..3 {
        let start = Instant::now();
        quickcheck::QuickCheck::new()
            .tests(tests)
            .max_tests(tests)
            .quickcheck(property as fn(u32, u32, Vec<u8>) -> bool);
        let plain = start.elapsed();

        let start = Instant::now();
        let stats = typefuzz_quickcheck::QuickCheck::new()
            .tests(tests)
            .quickcheck(property as fn(u32, u32, Vec<u8>) -> bool);
        let drop_in = start.elapsed();
        assert_eq!(stats.valid, tests);

        println!(
            "round {round}: {tests} tests: plain quickcheck {:.0} ns/test, typefuzz::quickcheck {:.0} ns/test ({} generated, {} mutated)",
            plain.as_nanos() as f64 / tests as f64,
            drop_in.as_nanos() as f64 / tests as f64,
            stats.generated,
            stats.mutated,
        );
    }
}
