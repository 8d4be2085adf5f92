//! Throughput: a property without precondition, so every generated input is a valid test and
//! tests per second measure the tool alone.

use crate::bst::Tree;
use crate::Verdict;

/// The tree with every node's children swapped.
///
/// ```
/// use typefuzz_bench::{bst::Tree, throughput::mirror};
/// let t = Tree::from_pairs(&[(1, 1), (2, 2)]);
/// assert_eq!(mirror(&t).to_list(), vec![(2, 2), (1, 1)]);
/// ```
pub fn mirror(t: &Tree) -> Tree {
    match t {
        Tree::E => Tree::E,
        Tree::T(l, k, v, r) => Tree::T(Box::new(mirror(r)), *k, *v, Box::new(mirror(l))),
    }
}

/// `mirror(mirror(t)) == t`: always passes.
///
/// ```
/// use typefuzz_bench::{bst::Tree, throughput::mirror_twice, Verdict};
/// assert_eq!(mirror_twice(&Tree::from_pairs(&[(3, 1), (1, 2)])), Verdict::Pass);
/// ```
pub fn mirror_twice(t: &Tree) -> Verdict {
    Verdict::from(mirror(&mirror(t)) == *t)
}
