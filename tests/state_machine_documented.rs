//! proptest-state-machine's documented example — a heap tested against a sorted-vector model,
//! with a `MyHeap<T>` system under test — written fresh, in the shape the crate's docs use: a
//! config annotation, a type-parameterised test (`sequential 1..20 => MyHeap<i32>`). The only
//! change for typefuzz is the macro path.

use proptest::prelude::*;
use proptest::test_runner::Config;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};

/// The system under test: a max-heap with a bug — `pop` only looks at the first four slots.
#[derive(Clone, Debug, Default)]
pub struct MyHeap<T> {
    data: Vec<T>,
}

impl<T: Ord> MyHeap<T> {
    pub fn push(&mut self, value: T) {
        self.data.push(value);
    }

    pub fn pop(&mut self) -> Option<T> {
        let window = self.data.len().min(4);
        let (index, _) = self.data[..window]
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.cmp(b.1))?;
        Some(self.data.swap_remove(index))
    }

    fn len(&self) -> usize {
        self.data.len()
    }
}

/// The reference: a sorted vector.
pub struct HeapStateMachine;

#[derive(Clone, Debug)]
pub enum Transition {
    Pop,
    Push(i32),
}

impl ReferenceStateMachine for HeapStateMachine {
    type State = Vec<i32>;
    type Transition = Transition;

    fn init_state() -> BoxedStrategy<Self::State> {
        Just(vec![]).boxed()
    }

    fn transitions(_state: &Self::State) -> BoxedStrategy<Self::Transition> {
        prop_oneof![
            Just(Transition::Pop),
            (0..100i32).prop_map(Transition::Push)
        ]
        .boxed()
    }

    fn apply(mut state: Self::State, transition: &Self::Transition) -> Self::State {
        match transition {
            Transition::Pop => {
                state.pop();
            }
            Transition::Push(value) => {
                let at = state.partition_point(|x| x < value);
                state.insert(at, *value);
            }
        }
        state
    }
}

impl StateMachineTest for MyHeap<i32> {
    type SystemUnderTest = Self;
    type Reference = HeapStateMachine;

    fn init_test(_ref_state: &Vec<i32>) -> Self::SystemUnderTest {
        MyHeap::default()
    }

    fn apply(mut state: Self, ref_state: &Vec<i32>, transition: Transition) -> Self {
        match transition {
            Transition::Pop => {
                // `ref_state` is the state after the transition: the popped value was its max.
                let popped = state.pop();
                if let Some(value) = popped {
                    assert!(
                        ref_state.iter().all(|x| *x <= value),
                        "popped {value}, not the max"
                    );
                }
            }
            Transition::Push(value) => state.push(value),
        }
        state
    }

    fn check_invariants(state: &Self, ref_state: &Vec<i32>) {
        assert_eq!(state.len(), ref_state.len());
    }
}

/// A correct heap, for the passing variant.
pub struct StdHeap;

impl StateMachineTest for StdHeap {
    type SystemUnderTest = std::collections::BinaryHeap<i32>;
    type Reference = HeapStateMachine;

    fn init_test(_: &Vec<i32>) -> Self::SystemUnderTest {
        Default::default()
    }

    fn apply(
        mut heap: Self::SystemUnderTest,
        ref_state: &Vec<i32>,
        transition: Transition,
    ) -> Self::SystemUnderTest {
        match transition {
            Transition::Pop => {
                heap.pop();
            }
            Transition::Push(value) => heap.push(value),
        }
        assert_eq!(heap.peek(), ref_state.last());
        heap
    }
}

typefuzz::prop_state_machine! {
    #![proptest_config(Config {
        // Turn failure persistence off for the demonstration (as the original example does).
        failure_persistence: None,
        .. Config::default()
    })]

    #[test]
    #[should_panic(expected = "popped")]
    fn run_with_macro(sequential 1..20 => MyHeap<i32>);

    #[test]
    fn a_correct_heap_passes(sequential 1..20 => StdHeap);
}

typefuzz::prop_state_machine! {
    // Without a config annotation.
    #[test]
    fn a_correct_heap_passes_with_the_default_config(sequential 0..8 => StdHeap);
}

#[test]
fn the_failure_is_reported_as_a_trace_with_the_state_after_each_step() {
    let mut config = Config::with_cases(1000);
    config.failure_persistence = None;
    config.rng_seed = proptest::test_runner::RngSeed::Fixed(11);
    let run = typefuzz::state_machine::run::<MyHeap<i32>>(&config, 1..20);
    let minimal = run.minimal.expect("the window bug is found");
    let original = run.original.expect("the original decodes");
    // At least five pushes put a maximum out of the window; a pop shows it. Greedy deletion
    // stops at a sequence no single deletion keeps failing, not always the shortest one.
    let n = minimal.steps.len();
    assert!((6..=original.steps.len()).contains(&n), "{minimal}");
    assert!(
        matches!(minimal.steps[n - 1].0, Transition::Pop),
        "{minimal}"
    );
    let text = minimal.to_string();
    assert!(
        text.starts_with(&format!(
            "{n} transitions\n\tinitial state: []\n\t  1. Push("
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{n:>3}. Pop\n\t     => [")),
        "{text}"
    );
    let push = run.commands.iter().find(|c| c.name == "Push").unwrap();
    assert_eq!(push.rejected, 0);
}

#[test]
fn the_regression_file_stores_the_sequence_and_replays_it_first() {
    let path = std::env::temp_dir().join(format!(
        "typefuzz-state-machine-regression-{}.txt",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    let proptest = Config::default();
    let config = typefuzz::Config::default()
        .with_regressions(&path)
        .with_cases(10_000);
    let found = typefuzz::state_machine::run_with::<MyHeap<i32>>(
        &config.clone().with_seed(3),
        &proptest,
        1..20,
    );
    let minimal = found
        .minimal
        .expect("the window bug is found")
        .transitions();
    assert!(path.exists());
    // Another seed and a budget of one test: only the replayed regression can fail it.
    let replayed = typefuzz::state_machine::run_with::<MyHeap<i32>>(
        &config.with_seed(99).with_max_tests(1),
        &proptest,
        1..20,
    );
    let _ = std::fs::remove_file(&path);
    assert_eq!(replayed.report.stats.regressions_replayed, 1);
    assert_eq!(
        replayed.report.failure.as_ref().unwrap().tests,
        1,
        "the first test failed"
    );
    let again = replayed.minimal.expect("the saved sequence fails again");
    assert_eq!(format!("{:?}", again.transitions()), format!("{minimal:?}"));
}
