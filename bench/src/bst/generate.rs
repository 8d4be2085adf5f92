//! BST input generators: the naive type-derived tree (ETNA's `Quick`: `E` and `T` with equal
//! weights, size-bounded, non-BSTs discarded by the property) for the proptest and quickcheck
//! baselines, and the bespoke correct-by-construction tree (ETNA's `Correct`: fold random
//! inserts into the empty tree).

use super::properties::Args;
use super::tree::Tree;
use fastrand::Rng;
use proptest::prelude::*;

/// Maximum depth of a naive tree (the size bound of the derived generator).
pub const NAIVE_DEPTH: u32 = 5;

/// Keys and values of every generator are drawn from `-INT_BOUND..=INT_BOUND`.
///
/// Small keys collide often, which the properties about equal keys need.
pub const INT_BOUND: i32 = 20;

/// Longest insert list of the bespoke generator.
pub const BESPOKE_MAX_LEN: usize = 20;

fn int(rng: &mut Rng) -> i32 {
    rng.i32(-INT_BOUND..=INT_BOUND)
}

/// A type-derived tree: at each level `E` or `T` with equal probability, `E` at depth 0.
///
/// ```
/// use typefuzz_bench::bst::generate::naive_tree;
/// let mut rng = fastrand::Rng::with_seed(1);
/// let bsts = (0..1000).filter(|_| naive_tree(&mut rng, 5).is_bst()).count();
/// assert!(bsts > 500 && bsts < 1000); // half are `E`; deep ones are rarely BSTs
/// ```
pub fn naive_tree(rng: &mut Rng, depth: u32) -> Tree {
    if depth == 0 || rng.bool() {
        return Tree::E;
    }
    let l = naive_tree(rng, depth - 1);
    let (k, v) = (int(rng), int(rng));
    let r = naive_tree(rng, depth - 1);
    Tree::T(Box::new(l), k, v, Box::new(r))
}

/// A correct-by-construction BST: up to [`BESPOKE_MAX_LEN`] random inserts into `E`.
///
/// ```
/// use typefuzz_bench::bst::generate::bespoke_tree;
/// let mut rng = fastrand::Rng::with_seed(1);
/// assert!((0..100).all(|_| bespoke_tree(&mut rng).is_bst()));
/// ```
pub fn bespoke_tree(rng: &mut Rng) -> Tree {
    let len = rng.usize(0..=BESPOKE_MAX_LEN);
    let pairs: Vec<(i32, i32)> = (0..len).map(|_| (int(rng), int(rng))).collect();
    Tree::from_pairs(&pairs)
}

fn args_with(rng: &mut Rng, mut tree: impl FnMut(&mut Rng) -> Tree) -> Args {
    Args {
        t1: tree(rng),
        t2: tree(rng),
        t3: tree(rng),
        k1: int(rng),
        k2: int(rng),
        v1: int(rng),
        v2: int(rng),
    }
}

/// Naive arguments for any property.
///
/// ```
/// let args = typefuzz_bench::bst::generate::naive_args(&mut fastrand::Rng::with_seed(2));
/// assert!(args.k1.abs() <= 20);
/// ```
pub fn naive_args(rng: &mut Rng) -> Args {
    args_with(rng, |rng| naive_tree(rng, NAIVE_DEPTH))
}

/// Bespoke arguments: every tree is a BST, so every precondition holds.
///
/// ```
/// let args = typefuzz_bench::bst::generate::bespoke_args(&mut fastrand::Rng::with_seed(2));
/// assert!(args.t1.is_bst() && args.t2.is_bst() && args.t3.is_bst());
/// ```
pub fn bespoke_args(rng: &mut Rng) -> Args {
    args_with(rng, bespoke_tree)
}

/// proptest strategy for naive trees of at most `depth` levels, `E` and `T` equally likely.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let t = typefuzz_bench::bst::generate::naive_tree_strategy(3)
///     .new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// assert!(t.size() < 8);
/// ```
pub fn naive_tree_strategy(depth: u32) -> BoxedStrategy<Tree> {
    if depth == 0 {
        return Just(Tree::E).boxed();
    }
    let sub = naive_tree_strategy(depth - 1);
    let node = (sub.clone(), int_strategy(), int_strategy(), sub)
        .prop_map(|(l, k, v, r)| Tree::T(Box::new(l), k, v, Box::new(r)));
    prop_oneof![Just(Tree::E), node].boxed()
}

/// proptest strategy for naive [`Args`] (the distribution of [`naive_args`]).
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let args = typefuzz_bench::bst::generate::naive_args_strategy()
///     .new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// assert!(args.k1.abs() <= 20);
/// ```
pub fn naive_args_strategy() -> impl Strategy<Value = Args> {
    let tree = || naive_tree_strategy(NAIVE_DEPTH);
    let ints = (
        int_strategy(),
        int_strategy(),
        int_strategy(),
        int_strategy(),
    );
    (tree(), tree(), tree(), ints).prop_map(|(t1, t2, t3, (k1, k2, v1, v2))| Args {
        t1,
        t2,
        t3,
        k1,
        k2,
        v1,
        v2,
    })
}

/// proptest strategy for keys and values.
///
/// ```
/// use proptest::strategy::Strategy;
/// let _ = typefuzz_bench::bst::generate::int_strategy().boxed();
/// ```
pub fn int_strategy() -> std::ops::RangeInclusive<i32> {
    -INT_BOUND..=INT_BOUND
}

/// quickcheck's naive trees: [`naive_tree`] seeded from the quickcheck generator (no shrinking:
/// the benchmark measures time to the first failure).
impl quickcheck::Arbitrary for Tree {
    fn arbitrary(g: &mut quickcheck::Gen) -> Tree {
        naive_tree(
            &mut Rng::with_seed(<u64 as quickcheck::Arbitrary>::arbitrary(g)),
            NAIVE_DEPTH,
        )
    }
}

/// quickcheck's naive arguments: [`naive_args`] seeded from the quickcheck generator.
impl quickcheck::Arbitrary for Args {
    fn arbitrary(g: &mut quickcheck::Gen) -> Args {
        naive_args(&mut Rng::with_seed(
            <u64 as quickcheck::Arbitrary>::arbitrary(g),
        ))
    }
}

/// [`Args`] with the `Arbitrary` impl a quickcheck user writes (the drop-in comparison's BST
/// generator): trees by size-bounded recursion on `g.size()` (`E` or `T` with equal
/// probability, children at half the size), keys and values in `-INT_BOUND..=INT_BOUND`. The
/// impls above seed this crate's own generator instead, which other benchmarks rely on.
///
/// ```
/// use quickcheck::{Arbitrary, Gen};
/// let a = typefuzz_bench::bst::generate::SizedArgs::arbitrary(&mut Gen::from_size_and_seed(100, 3));
/// assert!(a.0.k1.abs() <= 20);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
pub struct SizedArgs(pub Args);

fn sized_int(g: &mut quickcheck::Gen) -> i32 {
    i32::from(<u8 as quickcheck::Arbitrary>::arbitrary(g) % (2 * INT_BOUND as u8 + 1)) - INT_BOUND
}

fn sized_tree(g: &mut quickcheck::Gen, size: usize) -> Tree {
    if size == 0 || <bool as quickcheck::Arbitrary>::arbitrary(g) {
        return Tree::E;
    }
    let l = sized_tree(g, size / 2);
    let (k, v) = (sized_int(g), sized_int(g));
    Tree::T(Box::new(l), k, v, Box::new(sized_tree(g, size / 2)))
}

impl quickcheck::Arbitrary for SizedArgs {
    fn arbitrary(g: &mut quickcheck::Gen) -> SizedArgs {
        let size = g.size();
        SizedArgs(Args {
            t1: sized_tree(g, size),
            t2: sized_tree(g, size),
            t3: sized_tree(g, size),
            k1: sized_int(g),
            k2: sized_int(g),
            v1: sized_int(g),
            v2: sized_int(g),
        })
    }
}
