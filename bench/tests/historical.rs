//! Every historical bug is real: its witness input fails on the published buggy release and
//! passes on the control release, and the control passes a batch of naive inputs.

use proptest::strategy::{Strategy as _, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use typefuzz_bench::historical::{self, Build, Case, Input, Visitor};
use typefuzz_bench::Verdict;

struct Witnesses(Vec<String>);

impl Visitor for Witnesses {
    fn visit<T: Input>(&mut self, case: Case<T>) {
        let witness = (case.witness)();
        let buggy = (case.property)(Build::Buggy, &witness);
        let fixed = (case.property)(Build::Fixed, &witness);
        if buggy != Verdict::Fail || fixed != Verdict::Pass {
            self.0.push(format!(
                "{}: witness {witness:?} gives {buggy:?} on {} {} and {fixed:?} on {}",
                case.bug.id, case.bug.krate, case.bug.buggy, case.bug.fixed
            ));
        }
    }
}

/// Several properties observe expected panics (`Vec::drain` out of range, overflow at `u8::MAX`):
/// keep them out of the test output.
fn quiet_panics() {
    std::panic::set_hook(Box::new(|_| {}));
}

#[test]
fn every_witness_fails_on_the_buggy_release_and_passes_on_the_fixed_one() {
    quiet_panics();
    let mut witnesses = Witnesses(Vec::new());
    historical::visit_all(&mut witnesses);
    assert!(witnesses.0.is_empty(), "{}", witnesses.0.join("\n"));
}

/// The controls never fail: 300 naive inputs per bug.
struct Controls(Vec<String>);

impl Visitor for Controls {
    fn visit<T: Input>(&mut self, case: Case<T>) {
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::deterministic_rng(RngAlgorithm::ChaCha),
        );
        let strategy = T::strategy();
        for _ in 0..300 {
            let input = strategy.new_tree(&mut runner).unwrap().current();
            if (case.property)(Build::Fixed, &input) == Verdict::Fail {
                self.0
                    .push(format!("{}: control fails on {input:?}", case.bug.id));
                return;
            }
        }
    }
}

#[test]
fn the_controls_pass_naive_inputs() {
    quiet_panics();
    let mut controls = Controls(Vec::new());
    historical::visit_all(&mut controls);
    assert!(controls.0.is_empty(), "{}", controls.0.join("\n"));
}
