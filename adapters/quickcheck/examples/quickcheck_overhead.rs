//! Per-test overhead of `typefuzz::quickcheck` against plain quickcheck on a property with no
//! precondition: same `Arbitrary` types, same number of tests, release build; the drop-in's
//! builder (`Arbitrary` genotype) and its typed mutation (`quickcheck_typed`).
//!
//! ```text
//! cargo run --release -p typefuzz-quickcheck --example quickcheck_overhead [tests]
//! ```
use std::time::Instant;

fn property(a: u32, b: u32, v: Vec<u8>) -> bool {
    a.wrapping_add(b) == b.wrapping_add(a) && v.len() < 1 << 20
}

/// `f`'s result and how long it took.
fn timed<R>(f: impl FnOnce() -> R) -> (R, std::time::Duration) {
    let start = Instant::now();
    let result = f();
    (result, start.elapsed())
}

fn main() {
    let tests: u64 = match std::env::args().nth(1) {
        None => 200_000,
        Some(arg) => arg.parse().unwrap_or_else(|error| {
            eprintln!("usage: quickcheck_overhead [TESTS]   (`{arg}`: {error})");
            std::process::exit(2)
        }),
    };

    for round in 0..3 {
        let (_, plain) = timed(|| {
            quickcheck::QuickCheck::new()
                .tests(tests)
                .max_tests(tests)
                .quickcheck(property as fn(u32, u32, Vec<u8>) -> bool)
        });
        let builder = typefuzz_quickcheck::QuickCheck::new().tests(tests);
        let (stats, drop_in) =
            timed(|| builder.quickcheck(property as fn(u32, u32, Vec<u8>) -> bool));
        let (typed, drop_in_typed) =
            timed(|| builder.quickcheck_typed(property as fn(u32, u32, Vec<u8>) -> bool));
        assert_eq!((stats.valid, typed.valid), (tests, tests));

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
