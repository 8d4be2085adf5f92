//! The bank of `tests/state_machine_model/bank.rs` — a bug behind seven enabled commands in a
//! specific order — under plain proptest-state-machine and under typefuzz's drop-in, side by side.
//!
//! ```text
//! cargo run --release --example state_machine --features state-machine            # both
//! cargo run --release --example state_machine --features state-machine -- typefuzz   # one
//! cargo run --release --example state_machine --features state-machine -- proptest 100000
//! ```
//!
//! typefuzz runs five seeds (`TYPEFUZZ_SEEDS=1,3` picks others) with a budget of 300,000 tests each; proptest runs the given number of
//! cases (default 100,000) with the same impls and the same configuration.

#[path = "../tests/state_machine_model/bank.rs"]
mod bank;

use std::time::Instant;

use bank::{BankModel, BankTest};
use proptest::test_runner::{Config as ProptestConfig, TestRunner};
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};

fn proptest_config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_local_rejects: u32::MAX,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Tests per typefuzz seed: `TYPEFUZZ_MAX_TESTS`, default 300,000.
fn budget() -> u64 {
    std::env::var("TYPEFUZZ_MAX_TESTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300_000)
}

/// Seeds typefuzz runs: `TYPEFUZZ_SEEDS` (comma-separated), default 1 to 5.
fn seeds() -> Vec<u64> {
    std::env::var("TYPEFUZZ_SEEDS")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| (1..=5).collect())
}

fn typefuzz_side() {
    for seed in seeds() {
        let config = typefuzz::Config::default()
            .with_seed(seed)
            .with_cases(budget())
            .with_max_tests(budget())
            .with_max_discards(None);
        let started = Instant::now();
        let run =
            typefuzz::state_machine::run_with::<BankTest>(&config, &proptest_config(256), 1..20);
        let stats = &run.report.stats;
        match (&run.report.failure, &run.minimal) {
            (Some(failure), Some(minimal)) => println!(
                "typefuzz seed {seed}: found after {} tests ({} discarded, {:.1?} searching, \
                 {:.1?} with shrinking; {} model states)\n  minimal: {}",
                failure.tests,
                failure.discards,
                stats.elapsed,
                started.elapsed(),
                run.states,
                minimal.to_string().replace('\n', "\n  ")
            ),
            _ => println!(
                "typefuzz seed {seed}: not found in {} tests ({} discarded, {:.1?}; {} model \
                 states)\n{}",
                stats.tests,
                stats.discards,
                stats.elapsed,
                run.states,
                run.command_table()
            ),
        }
    }
}

fn proptest_side(cases: u32) {
    let mut runner = TestRunner::new(proptest_config(cases));
    let started = Instant::now();
    let tests = std::cell::Cell::new(0u64);
    let result = runner.run(
        &BankModel::sequential_strategy(1..20),
        |(initial, transitions, seen)| {
            tests.set(tests.get() + 1);
            BankTest::test_sequential(proptest_config(cases), initial, transitions, seen);
            Ok(())
        },
    );
    match result {
        Ok(()) => println!(
            "plain proptest-state-machine: not found in {cases} cases ({:.1?})",
            started.elapsed()
        ),
        Err(error) => println!(
            "plain proptest-state-machine: found after {} test calls, including shrinking \
             ({:.1?}): {error}",
            tests.get(),
            started.elapsed()
        ),
    }
}

fn main() {
    const USAGE: &str = "usage: state_machine [typefuzz | proptest [CASES]]";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cases = |arg: Option<&String>| match arg.map(|n| n.parse::<u32>()) {
        None => 100_000,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("{USAGE}  (CASES: a positive number, default 100000)");
            std::process::exit(2);
        }
    };
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => {
            typefuzz_side();
            proptest_side(cases(None));
        }
        ["typefuzz"] => typefuzz_side(),
        ["proptest"] | ["proptest", _] => proptest_side(cases(args.get(1))),
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    }
}
