//! The historical-bugs jobs: every case of [`crate::historical`] twice, against the buggy release
//! (a task) and against the fixed release (a no-bug control).

use proptest::strategy::{Strategy as _, ValueTree};
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestRng, TestRunner};
use typefuzz::Context;

use super::jobs::{Job, Workload};
use super::strategy::{run_trial, Problem};
use crate::historical::{self, Build, Case, Input, Visitor};

/// typefuzz's size bound for the historical inputs: collections of at most 32 elements at
/// generation (the engine default); mutation may grow them.
pub(crate) const HISTORICAL_MAX_SIZE: usize = 32;

/// The naive generator for the quickcheck-style baseline: one draw of the naive proptest strategy
/// from a runner seeded by `rng`.
fn naive<T: Input>(rng: &mut fastrand::Rng) -> T {
    let mut seed = [0u8; 32];
    rng.fill(&mut seed);
    let mut runner = TestRunner::new_with_rng(
        PtConfig::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
    );
    T::strategy()
        .new_tree(&mut runner)
        .expect("the naive strategies do not filter")
        .current()
}

fn problem<T: Input>(property: fn(Build, &T) -> crate::Verdict, build: Build) -> Problem<T> {
    Problem {
        generate: |cx: &mut Context| cx.generate::<T>(),
        naive: naive::<T>,
        strategy: T::strategy,
        smart: None,
        max_size: HISTORICAL_MAX_SIZE,
        property: Box::new(move |x, _labels| property(build, x)),
    }
}

struct Jobs(Vec<Job>);

impl Visitor for Jobs {
    fn visit<T: Input>(&mut self, case: Case<T>) {
        let bug = case.bug;
        for (build, release, control) in [
            (Build::Buggy, bug.buggy, false),
            (Build::Fixed, bug.fixed, true),
        ] {
            let problem = problem(case.property, build);
            self.0.push(Job::new(
                Workload::Historical,
                if control {
                    format!("{} (control {release})", bug.id)
                } else {
                    bug.id.to_string()
                },
                format!("{} {release}: {}", bug.krate, bug.summary),
                control,
                Box::new(move |strategy, seed, cap| run_trial(&problem, strategy, seed, cap)),
            ));
        }
    }
}

/// One job per case and release.
pub(crate) fn historical_jobs() -> Vec<Job> {
    let mut jobs = Jobs(Vec::new());
    historical::visit_all(&mut jobs);
    jobs.0
}
