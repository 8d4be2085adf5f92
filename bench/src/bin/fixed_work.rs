//! The engine loop on a fixed amount of work, for counting what it executes (issue 11).
//!
//! ```text
//! cargo run --release -p typefuzz-bench --bin fixed_work -- [WORKLOAD] [TESTS]
//! valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes target/release/fixed_work machines
//! ```
//!
//! `typefuzz::check` with the default schedule (coverage off, as in a plain `cargo test`) on
//! one of the throughput mode's workloads (`machines`, `terms`, `mirror`, or all three when
//! `WORKLOAD` is missing or `all`) for exactly `TESTS` tests (default: 200,000 for machines and
//! mirror, 60,000 for terms), seed 1, at the throughput mode's sizes. The run is deterministic:
//! two builds that make the same draws print the same line (tests, generated inputs, seeds
//! kept, restarts, distinct valid inputs) and do the same work, so the instructions and branch
//! mispredictions cachegrind counts for each compare their per-test cost exactly, whatever the
//! machine's load (wall time on this shared machine moves by 20% between identical runs). The
//! throughput mode (`typefuzz-bench throughput`) measures tests per second against the other
//! tools; this measures a change to the engine.

use std::time::{Duration, Instant};

use typefuzz::{Config, Mutate};
use typefuzz_bench::bst::Tree;
use typefuzz_bench::throughput::{depth_within_size, mirror_twice, runs_to_completion};
use typefuzz_bench::throughput::{Machine, Term};
use typefuzz_bench::Verdict;

/// Runs `property` for `tests` tests at maximum size `max_size`; prints what the run did.
fn run<T: Mutate + std::fmt::Debug>(
    name: &str,
    max_size: usize,
    tests: u64,
    property: fn(&T) -> Verdict,
) {
    let config = Config::default()
        .with_seed(1)
        .with_time(Duration::from_secs(3600))
        .with_cases(u64::MAX)
        .with_max_discards(None)
        .with_max_size(max_size)
        .with_max_tests(tests)
        .with_progress(false);
    let start = Instant::now();
    let report = typefuzz::check(
        &config,
        |cx| cx.generate::<T>(),
        |x: &T| property(x) == Verdict::Pass,
    );
    let seconds = start.elapsed().as_secs_f64();
    let s = &report.stats;
    println!(
        "{name}: tests {} generated {} seeds {} restarts {} distinct {} ({seconds:.2} s)",
        s.tests, s.generated, s.seeds_found, s.restarts, s.unique_valid
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let workload = args.next().unwrap_or_else(|| "all".into());
    let tests = args
        .next()
        .map(|n| n.parse::<u64>().expect("TESTS is a number"));
    let all = workload == "all";
    if all || workload == "machines" {
        run::<Machine>(
            "machines",
            100,
            tests.unwrap_or(200_000),
            runs_to_completion,
        );
    }
    if all || workload == "terms" {
        run::<Term>("terms", 48, tests.unwrap_or(60_000), depth_within_size);
    }
    if all || workload == "mirror" {
        run::<Tree>("mirror", 16, tests.unwrap_or(200_000), mirror_twice);
    }
    if !all && !["machines", "terms", "mirror"].contains(&workload.as_str()) {
        eprintln!("fixed_work: unknown workload `{workload}` (machines, terms, mirror or all)");
        std::process::exit(2);
    }
}
