//! The engine loop on a fixed amount of work, for counting what it executes.
//!
//! ```text
//! cargo run --release -p typefuzz-bench -- fixed-work [WORKLOAD] [TESTS] [--max-size N]
//! valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes target/release/typefuzz-bench fixed-work machines
//! ```
//!
//! `typefuzz::check` with the default schedule (coverage off, as in a plain `cargo test`) on
//! one of the throughput mode's workloads (`machines`, `terms`, `mirror`, or all three when
//! `WORKLOAD` is missing or `all`) for exactly `TESTS` tests (default: 200,000 for machines and
//! mirror, 60,000 for terms), seed 1, at the throughput mode's sizes (or at the engine's maximum
//! size `--max-size`, for inputs larger than the throughput mode's). The run is deterministic:
//! two builds that make the same draws print the same line (tests, generated inputs, seeds
//! kept, restarts, distinct valid inputs, mean nodes per test) and do the same work, so the
//! instructions and branch mispredictions cachegrind counts for each compare their per-test
//! cost exactly, whatever the machine's load (wall time on this shared machine moves by 20%
//! between identical runs). The throughput mode (`typefuzz-bench throughput`) measures tests
//! per second against the other tools; this measures a change to the engine.
//!
//! `generate-WORKLOAD` and `quickcheck-WORKLOAD` run the throughput mode's `derived-generate`
//! and `quickcheck` loops instead, for the same number of tests: a fresh input per test from
//! the derived `Mutate::generate` or from quickcheck's `Arbitrary`, at the same size, and the
//! property. Their counts compare the derived generator with quickcheck's instruction for
//! instruction (print the mean size too: the two draw different shapes).

use std::time::{Duration, Instant};

use typefuzz::{Config, Mutate};

use super::cli::FixedWorkArgs;
use crate::bst::Tree;
use crate::throughput::{depth_within_size, mirror_twice, runs_to_completion};
use crate::throughput::{Machine, Term};
use crate::Verdict;

/// Runs `property` for `tests` tests at maximum size `max_size`; prints what the run did.
fn run<T: Mutate + std::fmt::Debug>(
    name: &str,
    max_size: usize,
    tests: u64,
    property: fn(&T) -> Verdict,
    nodes: fn(&T) -> usize,
) {
    let total_nodes = std::cell::Cell::new(0u64);
    let config = Config::default()
        // A trial runs exactly as configured, whatever TYPEFUZZ_* the shell holds.
        .with_read_env(false)
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
        |x: &T| {
            total_nodes.set(total_nodes.get() + nodes(x) as u64);
            property(x) == Verdict::Pass
        },
    );
    let seconds = start.elapsed().as_secs_f64();
    let s = &report.stats;
    let mean = total_nodes.get() as f64 / s.tests.max(1) as f64;
    println!(
        "{name}: tests {} generated {} seeds {} restarts {} distinct {} mean nodes {mean:.2} \
         ({seconds:.2} s)",
        s.tests, s.generated, s.seeds_found, s.restarts, s.unique_valid
    );
}

/// `tests` fresh inputs from `fresh`, each checked by `property`; prints their mean size.
fn fresh_loop<T>(
    name: &str,
    tests: u64,
    mut fresh: impl FnMut() -> T,
    property: fn(&T) -> Verdict,
    nodes: fn(&T) -> usize,
) {
    let start = Instant::now();
    let (mut passed, mut total_nodes) = (0u64, 0u64);
    for _ in 0..tests {
        let x = fresh();
        total_nodes += nodes(&x) as u64;
        passed += u64::from(property(&x) == Verdict::Pass);
    }
    let seconds = start.elapsed().as_secs_f64();
    let mean = total_nodes as f64 / tests.max(1) as f64;
    println!("{name}: tests {tests} passed {passed} mean nodes {mean:.2} ({seconds:.2} s)");
}

/// The generator loops: `generate-*` (derived) and `quickcheck-*` (quickcheck's `Arbitrary`).
fn generator_loop(workload: &str, tests: Option<u64>) -> bool {
    fn both<T: Mutate + quickcheck::Arbitrary>(
        tool: &str,
        name: &str,
        size: usize,
        tests: u64,
        property: fn(&T) -> Verdict,
        nodes: fn(&T) -> usize,
    ) {
        let label = format!("{tool}-{name}");
        if tool == "generate" {
            let mut cx = typefuzz::Context::new(1).with_max_size(size);
            fresh_loop(&label, tests, || T::generate(&mut cx), property, nodes);
        } else {
            let mut gen = quickcheck::Gen::from_size_and_seed(size, 1);
            fresh_loop(&label, tests, || T::arbitrary(&mut gen), property, nodes);
        }
    }
    let Some((tool, name)) = workload.split_once('-') else {
        return false;
    };
    if tool != "generate" && tool != "quickcheck" {
        return false;
    }
    match name {
        "machines" => both::<Machine>(
            tool,
            name,
            100,
            tests.unwrap_or(200_000),
            runs_to_completion,
            Machine::nodes,
        ),
        "terms" => both::<Term>(
            tool,
            name,
            48,
            tests.unwrap_or(60_000),
            depth_within_size,
            Term::nodes,
        ),
        "mirror" => both::<Tree>(
            tool,
            name,
            16,
            tests.unwrap_or(200_000),
            mirror_twice,
            Tree::size,
        ),
        _ => return false,
    }
    true
}

/// `fixed-work [WORKLOAD] [TESTS] [--max-size N]`: runs the workload (see the module docs).
pub(crate) fn run_cli(args: &FixedWorkArgs) -> i32 {
    let (workload, tests) = (args.workload.as_str(), args.tests);
    if workload.contains('-') {
        if args.max_size.is_some() {
            eprintln!(
                "typefuzz-bench fixed-work: --max-size applies to the engine workloads \
                 (machines, terms, mirror), not to `{workload}`"
            );
            return 2;
        }
        let known = generator_loop(workload, tests);
        assert!(known, "the command line admits only known workloads");
        return 0;
    }
    // The engine's maximum size instead of the throughput mode's.
    let size = |default: usize| args.max_size.unwrap_or(default);
    let all = workload == "all";
    if all || workload == "machines" {
        run::<Machine>(
            "machines",
            size(100),
            tests.unwrap_or(200_000),
            runs_to_completion,
            Machine::nodes,
        );
    }
    if all || workload == "terms" {
        run::<Term>(
            "terms",
            size(48),
            tests.unwrap_or(60_000),
            depth_within_size,
            Term::nodes,
        );
    }
    if all || workload == "mirror" {
        run::<Tree>(
            "mirror",
            size(16),
            tests.unwrap_or(200_000),
            mirror_twice,
            Tree::size,
        );
    }
    0
}
