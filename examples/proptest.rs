//! The two-line upgrade of a proptest test, on a property with a sparse precondition.
//!
//! ```text
//! cargo run --example proptest --features proptest
//! ```
//!
//! The property: inserting into a binary search tree keeps every key. The injected bug loses the
//! root's left subtree, but only in trees of 7+ nodes, and `prop_assume!(is_bst(&t))` rejects
//! almost every random tree. Plain proptest discards its way to a pass; the same test under
//! `typefuzz::proptest!` keeps the valid trees it finds, grows them by typed mutation, and
//! reports a shrunk 7-node counterexample. The upgrade is two lines, with the tree argument
//! written `t: Tree` (its `Arbitrary` strategy seeds it; `Mutate` mutates it as a tree):
//!
//! ```text
//! -#[derive(Clone, Debug)]
//! +#[derive(Clone, Debug, typefuzz::Mutate)]
//!  enum Tree { .. }
//!
//! -proptest! {
//! +typefuzz::proptest! {
//! ```
//!
//! A `t in tree()` argument would only ever see values of `tree()`, mutated through their
//! choice sequences; a tree built through many `prop_oneof!`s is regenerated rather than
//! mutated (see `typefuzz::proptest::choices::Recording`), which does not climb.

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed, TestCaseError, TestRunner};

#[path = "../tests/support/bst.rs"]
mod bst;
use bst::{insert, is_bst, keys, tree, Tree};

fn insert_keeps_keys((t, k): (Tree, u8)) -> Result<(), TestCaseError> {
    prop_assume!(is_bst(&t));
    let mut before = Vec::new();
    keys(&t, &mut before);
    let after_tree = insert(t, k);
    let mut after = Vec::new();
    keys(&after_tree, &mut after);
    for key in before.iter().chain([&k]) {
        prop_assert!(after.contains(key), "key {} lost", key);
    }
    Ok(())
}

impl Arbitrary for Tree {
    type Parameters = ();
    type Strategy = BoxedStrategy<Tree>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        tree()
    }
}

// The test as users write it; under `cargo test` it would carry `#[test]`. With proptest's
// default 256 cases a run costs what plain proptest's does and keeps the seeds it found for the
// next run (under `target/typefuzz/corpus/`); 10,000 cases find the bug in one run.
typefuzz::proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, rng_seed: RngSeed::Fixed(1), ..ProptestConfig::default() })]
    fn insert_keeps_every_key(t: Tree, k: u8) {
        insert_keeps_keys((t, k))?;
    }
}

fn main() {
    let mut runner = TestRunner::deterministic();
    let plain = runner.run(&(tree(), any::<u8>()), insert_keeps_keys);
    println!("plain proptest (default config): {plain:?}");

    // And the macro test itself: it panics with proptest's message plus typefuzz's seed.
    std::env::set_var(
        "TYPEFUZZ_REGRESSIONS",
        std::env::temp_dir().join("typefuzz-example-proptest.txt"),
    );
    let result = std::panic::catch_unwind(insert_keeps_every_key);
    println!(
        "the macro test {}",
        if result.is_err() {
            "failed, as it should"
        } else {
            "passed?!"
        }
    );
}
