//! The toy binary search tree of the drop-in scenarios, written once: `tests/proptest_sparse.rs`,
//! `tests/quickcheck_sparse.rs`, `examples/proptest.rs` and `examples/quickcheck.rs` include it
//! with `#[path = ".../support/bst.rs"] mod bst;`.
//!
//! The bug: [`insert`] loses the root's left subtree, but only in trees of 7 or more nodes, and a
//! random tree is rarely a search tree, so a property guarded by [`is_bst`] (`prop_assume!`,
//! `TestResult::discard()`) almost never reaches it by generation alone.
// Each includer uses the part for its own framework.
#![allow(dead_code)]

use proptest::prelude::*;
use quickcheck::{Arbitrary, Gen};

/// A binary tree of `u8` keys; a search tree when [`is_bst`] says so.
#[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
pub enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

/// Random binary trees of depth at most 5, mostly small (few are search trees).
impl Arbitrary for Tree {
    fn arbitrary(g: &mut Gen) -> Self {
        fn sized(g: &mut Gen, depth: usize) -> Tree {
            if depth == 0 || bool::arbitrary(g) {
                Tree::Leaf
            } else {
                Tree::Node(
                    Box::new(sized(g, depth - 1)),
                    u8::arbitrary(g),
                    Box::new(sized(g, depth - 1)),
                )
            }
        }
        sized(g, 5)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        match self {
            Tree::Leaf => quickcheck::empty_shrinker(),
            Tree::Node(l, _, r) => {
                Box::new(vec![Tree::Leaf, (**l).clone(), (**r).clone()].into_iter())
            }
        }
    }
}

/// proptest's counterpart of the `Arbitrary` impl: random binary trees of depth at most 5.
pub fn tree() -> BoxedStrategy<Tree> {
    tree_of_depth(5)
}

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

/// The number of nodes.
pub fn size(t: &Tree) -> usize {
    match t {
        Tree::Leaf => 0,
        Tree::Node(l, _, r) => 1 + size(l) + size(r),
    }
}

/// The keys in order, appended to `out`.
pub fn keys(t: &Tree, out: &mut Vec<u8>) {
    if let Tree::Node(l, k, r) = t {
        keys(l, out);
        out.push(*k);
        keys(r, out);
    }
}

/// Whether the in-order keys are strictly increasing.
pub fn is_bst(t: &Tree) -> bool {
    let mut ks = Vec::new();
    keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1])
}

/// Insert, with the injected bug: in a tree of 7 or more nodes the root's left subtree is lost.
pub fn insert(t: Tree, k: u8) -> Tree {
    let big = size(&t) >= 7;
    match insert_correct(t, k) {
        Tree::Node(_, key, r) if big => Tree::Node(Box::new(Tree::Leaf), key, r),
        other => other,
    }
}

/// Insert without the bug.
pub fn insert_correct(t: Tree, k: u8) -> Tree {
    match t {
        Tree::Leaf => Tree::Node(Box::new(Tree::Leaf), k, Box::new(Tree::Leaf)),
        Tree::Node(l, key, r) if k < key => Tree::Node(Box::new(insert_correct(*l, k)), key, r),
        Tree::Node(l, key, r) if k > key => Tree::Node(l, key, Box::new(insert_correct(*r, k))),
        node => node,
    }
}
