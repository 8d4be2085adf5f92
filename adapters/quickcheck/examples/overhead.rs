//! Per-test overhead of `typefuzz::quickcheck` against plain quickcheck on a property with no
//! precondition: same `Arbitrary` types, same number of tests, release build; the drop-in's
//! builder (`Arbitrary` genotype) and its typed mutation (`quickcheck_typed`).
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

        let start = Instant::now();
        let typed = typefuzz_quickcheck::QuickCheck::new()
            .tests(tests)
            .quickcheck_typed(property as fn(u32, u32, Vec<u8>) -> bool);
        let drop_in_typed = start.elapsed();
        assert_eq!(typed.valid, tests);

        let per_test = |d: std::time::Duration| d.as_nanos() as f64 / tests as f64;
        println!(
            "round {round}: {tests} tests: plain quickcheck {:.0} ns/test, typefuzz::quickcheck \
             {:.0} ns/test (Arbitrary genotype: {} generated, {} mutated), typed {:.0} ns/test \
             ({} generated, {} mutated)",
            per_test(plain),
            per_test(drop_in),
            stats.generated,
            stats.mutated,
            per_test(drop_in_typed),
            typed.generated,
            typed.mutated,
        );
    }
}
