//! The regression file's comment shows a failing command sequence as the failure message
//! does (its transitions and the reference states after them), not its recorded choices.

use proptest::prelude::*;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};

/// A counter that may be stepped up or down.
struct Counter;

#[derive(Clone, Debug)]
enum Step {
    Up,
    Down,
}

impl ReferenceStateMachine for Counter {
    type State = u32;
    type Transition = Step;

    fn init_state() -> BoxedStrategy<u32> {
        Just(0).boxed()
    }

    fn transitions(_: &u32) -> BoxedStrategy<Step> {
        prop_oneof![Just(Step::Up), Just(Step::Down)].boxed()
    }

    fn apply(count: u32, step: &Step) -> u32 {
        match step {
            Step::Up => count + 1,
            Step::Down => count.saturating_sub(1),
        }
    }
}

/// The system under test: a counter that must stay below 3 (the bug the run finds).
struct CounterTest;

impl StateMachineTest for CounterTest {
    type SystemUnderTest = u32;
    type Reference = Counter;

    fn init_test(count: &u32) -> u32 {
        *count
    }

    fn apply(count: u32, _: &u32, step: Step) -> u32 {
        let next = Counter::apply(count, &step);
        assert!(next < 3, "the counter reached 3");
        next
    }
}

#[test]
fn the_comment_shows_the_transitions_and_states() {
    let path = std::env::temp_dir().join(format!(
        "typefuzz-state-machine-comments-{}.txt",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    let run = typefuzz_state_machine::run_with::<CounterTest>(
        &typefuzz::Config::default()
            .with_seed(1)
            .with_regressions(&path)
            .with_read_env(false),
        &ProptestConfig::default(),
        1..20,
    );
    let minimal = run.minimal.expect("the counter reaches 3").to_string();
    let saved = std::fs::read_to_string(&path).expect("the failure was saved");
    let _ = std::fs::remove_file(&path);
    let comment = saved
        .lines()
        .find_map(|line| line.split_once(" # minimal: "))
        .unwrap_or_else(|| panic!("no minimal entry in\n{saved}"))
        .1;
    // The message's trace on one line.
    let one_line = minimal.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(comment, one_line);
    assert!(
        comment.starts_with("3 transitions initial state: 0 1. Up => 1 2. Up => 2 3. Up => 3"),
        "{saved}"
    );
    assert!(!comment.contains("Commands("), "{saved}");
}
