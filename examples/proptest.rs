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

#[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

fn keys(t: &Tree, out: &mut Vec<u8>) {
    if let Tree::Node(l, k, r) = t {
        keys(l, out);
        out.push(*k);
        keys(r, out);
    }
}

fn size(t: &Tree) -> usize {
    match t {
        Tree::Leaf => 0,
        Tree::Node(l, _, r) => 1 + size(l) + size(r),
    }
}

fn is_bst(t: &Tree) -> bool {
    let mut ks = Vec::new();
    keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1])
}

/// Insert, with the injected bug: in a tree of 7 or more nodes the root's left subtree is lost.
fn insert(t: Tree, k: u8) -> Tree {
    fn correct(t: Tree, k: u8) -> Tree {
        match t {
            Tree::Leaf => Tree::Node(Box::new(Tree::Leaf), k, Box::new(Tree::Leaf)),
            Tree::Node(l, key, r) if k < key => Tree::Node(Box::new(correct(*l, k)), key, r),
            Tree::Node(l, key, r) if k > key => Tree::Node(l, key, Box::new(correct(*r, k))),
            node => node,
        }
    }
    let big = size(&t) >= 7;
    match correct(t, k) {
        Tree::Node(_, key, r) if big => Tree::Node(Box::new(Tree::Leaf), key, r),
        other => other,
    }
}

/// Random binary trees of depth at most 5, mostly small; few are search trees.
fn tree() -> BoxedStrategy<Tree> {
    let leaf = Just(Tree::Leaf).boxed();
    (0..5).fold(leaf, |sub, _| {
        let node = (sub.clone(), any::<u8>(), sub)
            .prop_map(|(l, k, r)| Tree::Node(Box::new(l), k, Box::new(r)));
        prop_oneof![2 => Just(Tree::Leaf), 1 => node].boxed()
    })
}

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

// The test as users write it; under `cargo test` it would carry `#[test]`.
typefuzz::proptest! {
    #![proptest_config(ProptestConfig { rng_seed: RngSeed::Fixed(1), ..ProptestConfig::default() })]
    fn insert_keeps_every_key(t in tree(), k: u8) {
        insert_keeps_keys((t, k))?;
    }
}

fn main() {
    let mut runner = TestRunner::deterministic();
    let plain = runner.run(&(tree(), any::<u8>()), insert_keeps_keys);
    println!("plain proptest (default config): {plain:?}");

    // The function API, to print the report instead of panicking.
    let config = ProptestConfig {
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
