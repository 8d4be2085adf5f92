//! A sparse precondition: a BST insert that loses a subtree only in trees of 7+ nodes, guarded
//! by `prop_assume!(is_bst(&t))`. Plain proptest (default configuration) does not find it;
//! typefuzz's drop-in finds and shrinks it at a fixed seed.

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed, TestCaseError, TestRunner};

#[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

fn size(t: &Tree) -> usize {
    match t {
        Tree::Leaf => 0,
        Tree::Node(l, _, r) => 1 + size(l) + size(r),
    }
}

fn keys(t: &Tree, out: &mut Vec<u8>) {
    if let Tree::Node(l, k, r) = t {
        keys(l, out);
        out.push(*k);
        keys(r, out);
    }
}

fn is_bst(t: &Tree) -> bool {
    let mut ks = Vec::new();
    keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1])
}

/// Insert with an injected bug: in a tree of 7 or more nodes the root's left subtree is lost.
fn insert(t: Tree, k: u8) -> Tree {
    let big = size(&t) >= 7;
    let inserted = insert_correct(t, k);
    match inserted {
        Tree::Node(_, key, r) if big => Tree::Node(Box::new(Tree::Leaf), key, r),
        other => other,
    }
}

fn insert_correct(t: Tree, k: u8) -> Tree {
    match t {
        Tree::Leaf => Tree::Node(Box::new(Tree::Leaf), k, Box::new(Tree::Leaf)),
        Tree::Node(l, key, r) if k < key => Tree::Node(Box::new(insert_correct(*l, k)), key, r),
        Tree::Node(l, key, r) if k > key => Tree::Node(l, key, Box::new(insert_correct(*r, k))),
        node => node,
    }
}

/// Arbitrary binary trees of depth at most `depth`, mostly small (most are not search trees).
fn tree_of_depth(depth: u32) -> BoxedStrategy<Tree> {
    if depth == 0 {
        return Just(Tree::Leaf).boxed();
    }
    let node = (
        tree_of_depth(depth - 1),
        any::<u8>(),
        tree_of_depth(depth - 1),
    )
        .prop_map(|(l, k, r)| Tree::Node(Box::new(l), k, Box::new(r)));
    prop_oneof![2 => Just(Tree::Leaf), 1 => node].boxed()
}

fn tree() -> BoxedStrategy<Tree> {
    tree_of_depth(5)
}

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
