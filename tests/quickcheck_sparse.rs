//! The sparse BST precondition for quickcheck: `TestResult::discard()` guards a 7+-node bug that
//! plain quickcheck misses and typefuzz's drop-in finds and shrinks at a fixed seed.

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

fn insert(t: Tree, k: u8) -> Tree {
    let big = size(&t) >= 7;
    match insert_correct(t, k) {
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
    // Seeds 2 and 4-7 find it (1 and 3 do not, within the default budget).
    let report = typefuzz::quickcheck::QuickCheck::new()
        .seed(2)
        .quicktest_typed(insert_keeps_keys as fn(Tree, u8) -> TestResult);
    let stats = report.stats.clone();
    let failure = report
        .failure
        .unwrap_or_else(|| panic!("typefuzz finds the 7-node bug: {stats:#?}"));
    let (t, _) = &failure.minimal.0;
    assert!(is_bst(t));
    assert_eq!(size(t), 7, "{:?}", failure.minimal);
}
