//! The bank of `tests/state_machine_model/bank.rs` under both drop-ins. The bug needs seven
//! enabled commands in a specific order on one of five accounts, with matching amounts.
//!
//! Measured (release build, `examples/state_machine.rs`, a shared 2-core machine): plain
//! proptest-state-machine with the same impls did not find it in 100,000 cases (69.5 s);
//! typefuzz's drop-in finds it from every seed 1-5, after 153,579 / 175,606 / 61,764 / 98,869 /
//! 245,761 tests (4 to 20 s each in this debug test profile). Greedy shrinking reaches the
//! seven-command minimum from seeds 1 and 4; from seeds 2, 3 and 5 it stops at 10, 9 and 8
//! commands (a withdrawal split in two). The plain-proptest measurement is `#[ignore]`d for its
//! cost.

#[path = "state_machine_model/bank.rs"]
mod bank;

use bank::{BankTest, Command};
use proptest::test_runner::{Config as ProptestConfig, RngSeed};

/// The configuration both drop-ins get: plain proptest's local-reject limit would otherwise
/// abort its run long before 100,000 cases (preconditions reject about half of the draws).
fn proptest_config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_local_rejects: u32::MAX,
        max_global_rejects: u32::MAX,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Tests typefuzz may spend per seed: a budget, not a time limit (debug builds run tens of
/// thousands of sequences a second on this model).
const BUDGET: u64 = 300_000;

/// Whether `transitions` is the bug's pattern: open, fund, freeze, audit, unfreeze, empty,
/// close, all on one account, the withdrawal matching the deposit.
fn is_minimal_bug(transitions: &[Command]) -> bool {
    use Command::*;
    match transitions {
        [Open(a), Deposit(b, x), Freeze(c), Audit(d), Unfreeze(e), Withdraw(f, y), Close(g)] => {
            [b, c, d, e, f, g].iter().all(|id| *id == a) && x == y
        }
        _ => false,
    }
}

/// Every seed finds the bug within the budget (tests, not time) and shrinks it.
#[test]
fn typefuzz_finds_and_shrinks_the_bank_bug_from_every_seed() {
    find_and_shrink(&[1, 2, 3, 4, 5]);
}

fn find_and_shrink(seeds: &[u64]) {
    for &seed in seeds {
        let config = typefuzz::Config::default()
            .with_seed(seed)
            .with_cases(BUDGET)
            .with_max_tests(BUDGET)
            .with_max_discards(None);
        let run =
            typefuzz::state_machine::run_with::<BankTest>(&config, &proptest_config(256), 1..20);
        let stats = &run.report.stats;
        let failure = run.report.failure.as_ref().unwrap_or_else(|| {
            panic!(
                "seed {seed}: no failure in {} tests ({} discarded, {} model states)\n{}",
                stats.tests,
                stats.discards,
                run.states,
                run.command_table()
            )
        });
        eprintln!(
            "seed {seed}: found after {} tests ({} discarded) in {:.1?}, {} model states, \
             shrunk in {} steps",
            failure.tests, failure.discards, stats.elapsed, run.states, failure.shrink_steps
        );
        let minimal = run.minimal.as_ref().expect("the minimal sequence decodes");
        let transitions = minimal.transitions();
        eprintln!(
            "seed {seed}: shrunk to {} transitions (the minimum: {})",
            transitions.len(),
            is_minimal_bug(&transitions)
        );
        // From seeds 2, 3 and 5 the sequence found splits the balance over several deposits
        // and withdrawals, where deleting any one of them disables `Close`: the model-guided
        // deletions (a deletion with another command's amount mended) reach the minimum.
        let original = run
            .original
            .as_ref()
            .expect("the original sequence decodes");
        assert!(
            is_minimal_bug(&transitions),
            "seed {seed}: not the minimal sequence:\n{minimal}\nshrunk from {original}"
        );
        assert!(failure.message.contains("open"), "{}", failure.message);
        let audit = run.commands.iter().find(|c| c.name == "Audit").unwrap();
        assert!(audit.generated > 0 && audit.enabled > 0 && audit.rejected > 0);
    }
}

typefuzz::prop_state_machine! {
    #![proptest_config(ProptestConfig {
        rng_seed: RngSeed::Fixed(1),
        ..proptest_config(BUDGET as u32)
    })]
    #[test]
    #[should_panic(expected = "minimal failing input: 7 transitions")]
    fn the_drop_in_reports_the_minimal_sequence(sequential 1..20 => BankTest);
}

proptest_state_machine::prop_state_machine! {
    #![proptest_config(ProptestConfig {
        rng_seed: RngSeed::Fixed(7),
        ..proptest_config(100_000)
    })]
    /// Plain proptest-state-machine, same impls, 100,000 cases: passes, i.e. misses the bug.
    #[test]
    #[ignore = "slow in debug builds; the measurement behind the drop-in's claim"]
    fn plain_proptest_misses_the_bank_bug(sequential 1..20 => BankTest);
}
