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
//! reports a shrunk 7-node counterexample. The upgrade is two lines:
//!
//! ```text
//! -#[derive(Clone, Debug)]
//! +#[derive(Clone, Debug, typefuzz::Mutate)]
//!  enum Tree { .. }
//!
//! -proptest! {
//! +typefuzz::proptest! {
//! ```

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed, TestCaseError, TestRunner};

#[path = "../tests/support/bst.rs"]
mod bst;
use bst::{insert, is_bst, keys, size, tree, Tree};

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

// The test as users write it; under `cargo test` it would carry `#[test]`. With proptest's
// default 256 cases a run costs what plain proptest's does and keeps the seeds it found for the
// next run (under `target/typefuzz/corpus/`); 10,000 cases find the bug in one run.
typefuzz::proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, rng_seed: RngSeed::Fixed(1), ..ProptestConfig::default() })]
    fn insert_keeps_every_key(t in tree(), k: u8) {
        insert_keeps_keys((t, k))?;
    }
}

fn main() {
    let mut runner = TestRunner::deterministic();
    let plain = runner.run(&(tree(), any::<u8>()), insert_keeps_keys);
    println!("plain proptest (default config): {plain:?}");

    // The function API, to print the report instead of panicking. A 10,000-case campaign: a
    // plain run spends proptest's 256 cases and keeps its seeds for the next run.
    let config = ProptestConfig {
        cases: 10_000,
        rng_seed: RngSeed::Fixed(1),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let report = typefuzz::proptest::run((tree(), any::<u8>()), &config, insert_keeps_keys);
    match &report.failure {
        Some(failure) => println!(
            "typefuzz::proptest: found after {} tests ({} discarded), shrunk to a {}-node tree: {:?}",
            failure.tests,
            failure.discards,
            size(&failure.minimal.0),
            failure.minimal
        ),
        None => println!("typefuzz::proptest: not found ({:?})", report.stats.stop),
    }

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
