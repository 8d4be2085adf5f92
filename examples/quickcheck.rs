//! The two-line upgrade of a quickcheck property, on a sparse precondition.
//!
//! ```text
//! cargo run --example quickcheck --features quickcheck
//! ```
//!
//! The property: inserting into a binary search tree keeps every key; the injected bug loses the
//! root's left subtree in trees of 7+ nodes, and `TestResult::discard()` rejects the random trees
//! that are not search trees. Plain quickcheck discards its way to a pass; under
//! `typefuzz::quickcheck!` the valid trees found are kept and grown by typed mutation, and a
//! shrunk 7-node counterexample is reported. The upgrade is two lines:
//!
//! ```text
//! -#[derive(Clone, Debug)]
//! +#[derive(Clone, Debug, typefuzz::Mutate)]
//!  enum Tree { .. }
//!
//! -quickcheck! {
//! +typefuzz::quickcheck! {
//! ```

use quickcheck::{Gen, QuickCheck, TestResult};

#[path = "../tests/support/bst.rs"]
mod bst;
use bst::{insert, is_bst, keys, size, Tree};

fn insert_keeps_keys(t: Tree, k: u8) -> TestResult {
    if !is_bst(&t) {
        return TestResult::discard();
    }
    let mut before = Vec::new();
    keys(&t, &mut before);
    let mut after = Vec::new();
    keys(&insert(t, k), &mut after);
    let kept = before.iter().chain([&k]).all(|x| after.contains(x));
    TestResult::from_bool(kept)
}

// The property as users write it: `typefuzz::quickcheck!` makes it a `#[test]` (only compiled
// under `cargo test`), exactly like `quickcheck!`.
typefuzz::quickcheck! {
    fn insert_keeps_every_key(t: Tree, k: u8) -> TestResult {
        insert_keeps_keys(t, k)
    }
}

fn main() {
    let plain = QuickCheck::new()
        .rng(Gen::from_size_and_seed(100, 1))
        .quicktest(insert_keeps_keys as fn(Tree, u8) -> TestResult);
    println!("plain quickcheck (default config): {plain:?}");

    // A 10,000-test campaign: a plain run spends quickcheck's 100 tests and keeps its seeds for
    // the next run.
    let report = typefuzz::quickcheck::QuickCheck::new()
        .tests(10_000)
        .seed(2)
        .quicktest(insert_keeps_keys as fn(Tree, u8) -> TestResult);
    match &report.failure {
        Some(failure) => println!(
            "typefuzz::quickcheck: found after {} tests ({} discarded), shrunk to a {}-node tree: {:?}",
            failure.tests,
            failure.discards,
            size(&failure.minimal.0 .0),
            failure.minimal
        ),
        None => println!("typefuzz::quickcheck: not found ({:?})", report.stats.stop),
    }
}
