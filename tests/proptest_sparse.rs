//! A sparse precondition: a BST insert that loses a subtree only in trees of 7+ nodes, guarded
//! by `prop_assume!(is_bst(&t))`. Plain proptest (default configuration) does not find it;
//! typefuzz's drop-in finds and shrinks it at a fixed seed.

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed, TestCaseError, TestRunner};

#[path = "support/bst.rs"]
mod bst;
use bst::{insert, insert_correct, is_bst, keys, tree, Tree};

/// The property, shared by both harnesses.
fn insert_keeps_keys((t, k): (Tree, u8)) -> Result<(), TestCaseError> {
    prop_assume!(is_bst(&t));
    let mut before = Vec::new();
    keys(&t, &mut before);
    let after_tree = insert(t, k);
    let mut after = Vec::new();
    keys(&after_tree, &mut after);
    prop_assert!(is_bst(&after_tree), "not a BST after insert");
    for key in before.iter().chain([&k]) {
        prop_assert!(after.contains(key), "key {} lost", key);
    }
    Ok(())
}

#[test]
fn the_bug_exists() {
    let mut t = Tree::Leaf;
    for k in [4, 2, 6, 1, 3, 5, 7] {
        t = insert_correct(t, k);
    }
    assert!(insert_keeps_keys((t, 8)).is_err());
}

#[test]
fn plain_proptest_misses_it() {
    // proptest's default configuration (256 cases, 1024 global rejects) at a fixed seed.
    let mut runner = TestRunner::deterministic();
    let result = runner.run(&(tree(), any::<u8>()), insert_keeps_keys);
    assert!(result.is_ok(), "plain proptest found it: {result:?}");
}

impl Arbitrary for Tree {
    type Parameters = ();
    type Strategy = BoxedStrategy<Tree>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        tree()
    }
}

/// `t: Tree` for a `Tree` that derives `Mutate`: seeded by the `Arbitrary` strategy, mutated as
/// a tree (a value built through many `prop_oneof!`s is not replayable from its choices, see
/// `typefuzz::proptest::choices::Recording`).
#[test]
fn typefuzz_finds_and_shrinks_it() {
    let config = ProptestConfig {
        rng_seed: RngSeed::Fixed(1),
        failure_persistence: None,
        ..ProptestConfig::with_cases(20_000)
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        typefuzz::proptest!(config, |(t: Tree, k: u8)| {
            insert_keeps_keys((t, k))?;
        });
    }));
    let message = *result
        .expect_err("typefuzz finds the 7-node bug")
        .downcast::<String>()
        .expect("a formatted message");
    let first = message.lines().next().unwrap_or_default();
    assert!(first.contains("lost"), "{message}");
    // Shrunk to the smallest trees that trigger it: exactly 7 nodes.
    let minimal = first
        .split("minimal failing input: ")
        .nth(1)
        .unwrap_or_default();
    assert_eq!(minimal.matches("Node(").count(), 7, "{message}");
}

typefuzz::proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: RngSeed::Fixed(3),
        failure_persistence: None,
        ..ProptestConfig::with_cases(256)
    })]

    /// One input in a million (by a hash, so no interesting value or comparison operand meets
    /// it) meets the precondition. The drop-in's discards are bounded by time, not by proptest's
    /// reject count; it finds about one valid input in that time, which is not proptest's 256
    /// valid cases (nor is that one input rerun 256 times), so the test fails as plain
    /// proptest's would instead of passing.
    #[test]
    #[should_panic(expected = "Too many global rejects\n\ttypefuzz: ")]
    fn a_precondition_met_once_in_a_million_fails_as_in_proptest(x in any::<u64>()) {
        prop_assume!(x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 44 == 0x5_4321);
    }
}

/// A failing value that is already minimal: many smaller choice sequences build the same string
/// `"q"`. Before, each was accepted as a shrink step, until the candidate bound (100,000) or the
/// time bound (30 s), and the report said the input "may not be minimal". Now shrinking takes
/// only steps that change the value and stops when no candidate does.
#[test]
fn an_input_that_cannot_shrink_ends_shrinking_at_once() {
    for seed in 1..=4 {
        let config = ProptestConfig {
            rng_seed: RngSeed::Fixed(seed),
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        let report = typefuzz::proptest::run("[a-z]{0,6}", &config, |a: String| {
            prop_assert!(!a.contains('q'));
            Ok(())
        });
        let failure = report.failure.expect("some string holds a q");
        assert_eq!(failure.minimal, "q", "seed {seed}");
        assert_eq!(failure.shrink_note, None, "seed {seed}");
        assert!(
            failure.shrink_candidates < 10_000,
            "seed {seed}: {} candidates for {} steps",
            failure.shrink_candidates,
            failure.shrink_steps
        );
    }
}
