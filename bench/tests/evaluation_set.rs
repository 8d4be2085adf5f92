//! The drop-in comparison's workloads: every correct implementation passes its properties on
//! inputs from every generator (no false bug), every task's property has an input that fails
//! under its bug, and the trial subcommand reports a find and a miss as such.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use quickcheck::{Arbitrary, Gen};
use typefuzz_bench::stlc::{Expr, Typ};
use typefuzz_bench::{heap, rbt, stlc, Verdict};

/// `count` inputs from the naive proptest strategy and `count` from the naive `Arbitrary`.
fn naive_inputs<T: Arbitrary>(strategy: impl Strategy<Value = T>, count: usize) -> Vec<T> {
    let mut runner = TestRunner::deterministic();
    let mut gen = Gen::from_size_and_seed(100, 1);
    let mut inputs: Vec<T> = (0..count)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect();
    inputs.extend((0..count).map(|_| T::arbitrary(&mut gen)));
    inputs
}

/// Asserts that no input fails `check` and that at least `min_valid` pass its precondition.
fn no_false_bug<T: std::fmt::Debug>(
    name: &str,
    inputs: &[T],
    min_valid: usize,
    check: impl Fn(&T) -> Verdict,
) {
    let mut valid = 0;
    for input in inputs {
        match check(input) {
            Verdict::Fail => panic!("{name} fails on the correct code: {input:?}"),
            Verdict::Pass => valid += 1,
            Verdict::Discard => {}
        }
    }
    assert!(valid >= min_valid, "{name}: only {valid} valid inputs");
}

fn stlc_inputs() -> Vec<Expr> {
    let mut inputs = naive_inputs(stlc::expr_strategy(), 3000);
    let mut rng = fastrand::Rng::with_seed(7);
    inputs.extend((0..3000).map(|i| stlc::well_typed(&mut rng, 2 + (i % 5) as u32)));
    inputs
}

#[test]
fn the_correct_language_passes_every_property() {
    let inputs = stlc_inputs();
    for p in stlc::Property::ALL {
        no_false_bug(p.name(), &inputs, 3000, |e| {
            p.run(&stlc::Stlc::correct(), e)
        });
    }
}

#[test]
fn the_correct_red_black_tree_passes_every_property() {
    let mut inputs = naive_inputs(rbt::args_strategy(), 3000);
    let mut rng = fastrand::Rng::with_seed(7);
    inputs.extend((0..3000).map(|_| rbt::valid_args(&mut rng)));
    for p in rbt::Property::ALL {
        no_false_bug(p.name(), &inputs, 3000, |a| p.run(&rbt::Rbt::correct(), a));
    }
}

#[test]
fn the_correct_heap_passes_every_property() {
    let mut inputs = naive_inputs(heap::args_strategy(), 3000);
    let mut rng = fastrand::Rng::with_seed(7);
    inputs.extend((0..3000).map(|_| heap::valid_args(&mut rng)));
    for p in heap::Property::ALL {
        no_false_bug(p.name(), &inputs, 3000, |a| {
            p.run(&heap::LeftistHeap::correct(), a)
        });
    }
}

/// The first of `inputs` on which `check` fails.
fn witness<T>(inputs: &[T], check: impl Fn(&T) -> Verdict) -> Option<&T> {
    inputs.iter().find(|i| check(i) == Verdict::Fail)
}

fn b<T>(x: T) -> Box<T> {
    Box::new(x)
}

#[test]
fn every_language_task_has_a_failing_input() {
    use stlc::Bug;
    let mut rng = fastrand::Rng::with_seed(7);
    let generated: Vec<Expr> = (0..2000)
        .map(|i| stlc::well_typed(&mut rng, 2 + (i % 5) as u32))
        .collect();
    // The type checker's bugs accept terms the correct checker rejects, which the type-directed
    // generator never builds: written by hand.
    // if false then 1 else true: typed `Int` without checking the else branch.
    let if_mismatch = Expr::If(b(Expr::Bool(false)), b(Expr::Int(1)), b(Expr::Bool(true)));
    // (\x: Int. x + 1) true: the argument's type is not checked.
    let app_mismatch = Expr::App(
        b(Expr::Lam(
            Typ::Int,
            b(Expr::Add(b(Expr::Var(0)), b(Expr::Int(1)))),
        )),
        b(Expr::Bool(true)),
    );
    for (bug, properties) in stlc::TASKS {
        let imp = stlc::Stlc::with_bug(Some(bug));
        for &p in properties {
            let by_hand: &[Expr] = match bug {
                Bug::TypeIfElseUnchecked => std::slice::from_ref(&if_mismatch),
                Bug::TypeAppArgUnchecked => std::slice::from_ref(&app_mismatch),
                _ => &generated,
            };
            let found = witness(by_hand, |e| p.run(&imp, e));
            assert!(
                found.is_some(),
                "no input fails {} under {}",
                p.name(),
                bug.name()
            );
            // The property holds on that input without the bug, or the input is not valid
            // there (the type checker's bugs): the failure is the bug's.
            let e = found.unwrap();
            assert_ne!(p.run(&stlc::Stlc::correct(), e), Verdict::Fail);
        }
    }
}

/// Every task of a workload has a failing input among `inputs`, on which the correct
/// implementation does not fail: the failure is the bug's.
macro_rules! assert_every_task_fails {
    ($inputs:expr, $tasks:expr, $implementation:path) => {
        let correct = <$implementation>::with_bug(None);
        for (bug, properties) in $tasks {
            let imp = <$implementation>::with_bug(Some(bug));
            for &p in properties {
                let found = witness(&$inputs, |a| p.run(&imp, a));
                let a = found
                    .unwrap_or_else(|| panic!("no input fails {} under {}", p.name(), bug.name()));
                assert_ne!(
                    p.run(&correct, a),
                    Verdict::Fail,
                    "{} under {}",
                    p.name(),
                    bug.name()
                );
            }
        }
    };
}

#[test]
fn every_red_black_tree_task_has_a_failing_input() {
    let mut rng = fastrand::Rng::with_seed(7);
    let inputs: Vec<rbt::Args> = (0..8000).map(|_| rbt::valid_args(&mut rng)).collect();
    assert_every_task_fails!(inputs, rbt::TASKS, rbt::Rbt);
}

#[test]
fn every_heap_task_has_a_failing_input() {
    let mut rng = fastrand::Rng::with_seed(7);
    let inputs: Vec<heap::Args> = (0..2000).map(|_| heap::valid_args(&mut rng)).collect();
    assert_every_task_fails!(inputs, heap::TASKS, heap::LeftistHeap);
}

#[test]
fn every_workload_has_at_least_ten_bugs_each_breaking_a_property() {
    assert!(stlc::TASKS.len() >= 10 && stlc::TASKS.iter().all(|(_, ps)| !ps.is_empty()));
    assert!(rbt::TASKS.len() >= 10 && rbt::TASKS.iter().all(|(_, ps)| !ps.is_empty()));
    assert!(heap::TASKS.len() >= 10 && heap::TASKS.iter().all(|(_, ps)| !ps.is_empty()));
    assert_eq!(stlc::TASKS.len(), stlc::Bug::ALL.len());
    assert_eq!(rbt::TASKS.len(), rbt::Bug::ALL.len());
    assert_eq!(heap::TASKS.len(), heap::Bug::ALL.len());
}

/// Runs the bench binary's trial subcommand and returns its result line.
fn trial(args: &[&str]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_typefuzz-bench"))
        .arg("dropin-trial")
        .args(args)
        .env_remove("TYPEFUZZ_TIME")
        .env_remove("TYPEFUZZ_SEED")
        .output()
        .expect("run the bench binary");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_trial_subcommand_reports_a_find_and_a_miss() {
    // A heap whose merge keeps the larger root breaks validity on almost any two heaps.
    for tool in [
        "proptest",
        "proptest-dropin",
        "quickcheck",
        "quickcheck-dropin",
    ] {
        let line = trial(&[
            "heap",
            tool,
            "merge_keeps_larger_root",
            "merge_valid",
            "3",
            "60000ms",
        ]);
        assert!(line.starts_with("trial found=1 "), "{tool}: {line}");
    }
    // The correct heap, a short cap: nothing to find.
    let line = trial(&["heap", "quickcheck", "none", "merge_valid", "3", "200ms"]);
    assert!(line.starts_with("trial found=0 "), "{line}");
    // Framework budgets end by themselves: quickcheck's 100 tests.
    let line = trial(&[
        "heap",
        "quickcheck",
        "none",
        "merge_valid",
        "3",
        "framework",
    ]);
    assert!(
        line.starts_with("trial found=0 ") && line.contains(" valid=100 "),
        "{line}"
    );
}

#[test]
fn the_trial_subcommand_rejects_unknown_names() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_typefuzz-bench"))
        .args([
            "dropin-trial",
            "heap",
            "quickcheck",
            "no_such_bug",
            "merge_valid",
            "1",
            "100ms",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}
