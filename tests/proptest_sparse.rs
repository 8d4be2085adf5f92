//! A sparse precondition: a BST insert that loses a subtree only in trees of 7+ nodes, guarded
//! by `prop_assume!(is_bst(&t))`. Plain proptest (default configuration) does not find it;
//! typefuzz's drop-in finds and shrinks it at a fixed seed.

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed, TestCaseError, TestRunner};

#[path = "support/bst.rs"]
mod bst;
use bst::{insert, insert_correct, is_bst, keys, size, tree, Tree};

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

#[test]
fn typefuzz_finds_and_shrinks_it() {
    // A campaign of 10,000 cases: a plain run spends proptest's 256 (the seeds it keeps carry
    // the search into the next run instead).
    let config = ProptestConfig {
        cases: 10_000,
        rng_seed: RngSeed::Fixed(1),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let report = typefuzz::proptest::run((tree(), any::<u8>()), &config, insert_keeps_keys);
    let stats = report.stats.clone();
    let failure = report
        .failure
        .unwrap_or_else(|| panic!("typefuzz finds the 7-node bug: {stats:#?}"));
    let (t, _) = &failure.minimal;
    assert!(is_bst(t));
    // Shrunk to the smallest trees that trigger it: exactly 7 nodes.
    assert_eq!(size(t), 7, "{:?}", failure.minimal);
    assert!(failure.message.contains("lost"), "{}", failure.message);
}
