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

use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

#[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

impl Arbitrary for Tree {
    fn arbitrary(g: &mut Gen) -> Self {
        fn sized(g: &mut Gen, depth: usize) -> Tree {
            if depth == 0 || bool::arbitrary(g) {
                Tree::Leaf
            } else {
                let l = sized(g, depth - 1);
                Tree::Node(Box::new(l), u8::arbitrary(g), Box::new(sized(g, depth - 1)))
            }
        }
        sized(g, 5)
    }
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

    let report = typefuzz::quickcheck::QuickCheck::new()
        .seed(1)
        .quicktest_typed(insert_keeps_keys as fn(Tree, u8) -> TestResult);
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
