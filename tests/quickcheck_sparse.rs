//! The sparse BST precondition for quickcheck: `TestResult::discard()` guards a 7+-node bug that
//! plain quickcheck misses and typefuzz's drop-in finds and shrinks at a fixed seed.

use quickcheck::{Gen, QuickCheck, TestResult};

#[path = "support/bst.rs"]
mod bst;
use bst::{insert, is_bst, keys, size, Tree};

fn insert_keeps_keys(t: Tree, k: u8) -> TestResult {
    if !is_bst(&t) {
        return TestResult::discard();
    }
    let mut before = Vec::new();
    keys(&t, &mut before);
    let after_tree = insert(t, k);
    let mut after = Vec::new();
    keys(&after_tree, &mut after);
    TestResult::from_bool(
        is_bst(&after_tree) && before.iter().chain([&k]).all(|x| after.contains(x)),
    )
}

#[test]
fn plain_quickcheck_misses_it() {
    // quickcheck's defaults (100 tests, 10,000 max, size 100) with a fixed generator seed.
    let result = QuickCheck::new()
        .rng(Gen::from_size_and_seed(100, 1))
        .quicktest(insert_keeps_keys as fn(Tree, u8) -> TestResult);
    assert!(result.is_ok(), "plain quickcheck found it: {result:?}");
}

#[test]
fn typefuzz_finds_and_shrinks_it() {
    // Seeds 2 and 4-7 find it (1 and 3 do not) in a campaign of 10,000 tests; a plain run
    // spends quickcheck's 100 (the seeds it keeps carry the search into the next run instead).
    let report = typefuzz::quickcheck::QuickCheck::new()
        .tests(10_000)
        .seed(2)
        .quicktest(insert_keeps_keys as fn(Tree, u8) -> TestResult);
    let stats = report.stats.clone();
    let failure = report
        .failure
        .unwrap_or_else(|| panic!("typefuzz finds the 7-node bug: {stats:#?}"));
    let (t, _) = &failure.minimal.0;
    assert!(is_bst(t));
    assert_eq!(size(t), 7, "{:?}", failure.minimal);
}
