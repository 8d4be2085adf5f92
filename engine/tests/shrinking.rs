//! Shrinking reaches the minimal failing input on the cases where frameworks' shrinkers are
//! measured (`bench/src/shrink.rs`): integer boundaries, modular conditions, list
//! chunks, and trees under a precondition.

use std::fmt::Debug;

use typefuzz::{check, Config, Mutate, Outcome};

/// Shrinks `input` (which must fail `property`) with the engine and returns the minimal input.
fn shrink<T: Mutate + Debug>(input: T, property: impl Fn(&T) -> Outcome) -> T {
    let config = Config::default()
        .with_seed(1)
        .with_cases(1)
        .with_progress(false);
    let report = check(&config, |_| input.clone(), |value| property(value));
    report.failure.expect("the input fails").minimal
}

fn fail_if(bug: bool) -> Outcome {
    if bug {
        Outcome::Fail("bug".into())
    } else {
        Outcome::Pass
    }
}

#[test]
fn integers_shrink_to_the_failing_boundary() {
    assert_eq!(shrink(987_654_321_987u64, |x| fail_if(*x > 1000)), 1001);
    assert_eq!(shrink(-98_765i32, |x| fail_if(*x < -1000)), -1001);
    assert_eq!(
        shrink(u128::MAX - 7, |x| fail_if(*x > 1 << 70)),
        (1 << 70) + 1
    );
}

#[test]
fn modular_conditions_shrink_to_the_smallest_residue() {
    assert_eq!(shrink(1_086_162_154u32, |x| fail_if(x % 4 == 2)), 2);
    // Steps of 2^j (j >= 2) keep the residue mod 4, so the boundary search still works.
    assert_eq!(
        shrink(1_086_162_154u64, |x| fail_if(x % 4 == 2 && *x > 100)),
        102
    );
}

#[test]
fn lists_lose_chunks_and_shrink_elements() {
    // Adjacent move: moving element `from` to `to == from + 1` does nothing.
    let adjacent = |(list, from, to): &(Vec<u8>, usize, usize)| {
        if list.is_empty() {
            return Outcome::Pass;
        }
        let (from, to) = (from % list.len(), to % list.len());
        fail_if(to == from + 1 && list[from] != list[to])
    };
    let input = ((0..40).map(|i| (i * 37 % 251) as u8).collect(), 17, 18);
    let (list, from, to) = shrink(input, adjacent);
    // From 40 elements to at most 3 of 0s and 1s: `([0, 1], 0, 1)` is the global minimum, and
    // `([0, 1, 0], 1, 2)` a local one (removing an element shifts the indices, so no single
    // candidate fails); the shrink benchmark's median over 10 seeds is the global one.
    assert!(list.len() <= 3 && list.iter().all(|&x| x <= 1), "{list:?}");
    assert!(from <= 1 && to <= 2, "{from} {to}");
    let long: Vec<u32> = (0..1000).collect();
    assert_eq!(
        shrink(long, |v| fail_if(v.iter().any(|&x| x >= 500))),
        vec![500]
    );
}

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

impl Tree {
    fn keys(&self, out: &mut Vec<u8>) {
        if let Tree::Node(left, key, right) = self {
            left.keys(out);
            out.push(*key);
            right.keys(out);
        }
    }

    fn is_search_tree(&self) -> bool {
        let mut keys = Vec::new();
        self.keys(&mut keys);
        keys.windows(2).all(|pair| pair[0] < pair[1])
    }

    fn size(&self) -> usize {
        let mut keys = Vec::new();
        self.keys(&mut keys);
        keys.len()
    }
}

fn node(left: Tree, key: u8, right: Tree) -> Tree {
    Tree::Node(Box::new(left), key, Box::new(right))
}

#[test]
fn trees_under_a_precondition_shrink_through_descendants() {
    // A search tree of 15 keys; the bug needs 3 keys. Under the precondition, replacing a
    // node by one of its children often breaks nothing, but keys must stay ordered.
    let mut tree = Tree::Leaf;
    for key in [
        80u8, 40, 120, 20, 60, 100, 140, 10, 30, 50, 70, 90, 110, 130, 150,
    ] {
        tree = insert(tree, key);
    }
    let minimal = shrink(tree, |t| {
        if !t.is_search_tree() {
            Outcome::Discard
        } else {
            fail_if(t.size() >= 3)
        }
    });
    assert_eq!(minimal.size(), 3, "{minimal:?}");
    let mut keys = Vec::new();
    minimal.keys(&mut keys);
    assert_eq!(keys, [0, 1, 2], "{minimal:?}");
}

fn insert(tree: Tree, key: u8) -> Tree {
    match tree {
        Tree::Leaf => node(Tree::Leaf, key, Tree::Leaf),
        Tree::Node(left, k, right) if key < k => node(insert(*left, key), k, *right),
        Tree::Node(left, k, right) => node(*left, k, insert(*right, key)),
    }
}

#[derive(Clone, Debug, PartialEq, Mutate)]
enum List {
    Nil,
    Cons(u8, Box<List>),
}

/// `Cons(1, Cons(1, ... Nil))`, `depth` deep.
fn list_of_depth(depth: usize) -> List {
    let mut list = List::Nil;
    for _ in 0..depth {
        list = List::Cons(1, Box::new(list));
    }
    list
}

/// Without recursion: the lists here are deeper than a test thread's stack allows to walk.
fn depth(mut list: &List) -> usize {
    let mut depth = 0;
    while let List::Cons(_, tail) = list {
        depth += 1;
        list = tail;
    }
    depth
}

/// Values nested deeper than the shrinker can copy (`MAX_SHRINK_CLONE_DEPTH`, 2048) used to get
/// no candidates and stay as they were; they shrink by moving subterms up until the ordinary
/// candidates take over, and when no subterm fails the report says why shrinking stopped.
#[test]
fn values_too_deep_to_copy_shrink_or_say_why_not() {
    // The test's own `clone`, `Debug` and drops of a 3,000-deep list recurse once per level.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            // 3,000 levels down to 600, past the depth the derived shrinker offers subterms
            // only (512): 952 subterm moves, then ordinary candidates.
            let minimal = shrink(list_of_depth(3000), |list| fail_if(depth(list) >= 600));
            assert_eq!(minimal, list_of_depth(600));

            let config = Config::default()
                .with_seed(1)
                .with_cases(1)
                .with_progress(false);
            let report = check(
                &config,
                |_| list_of_depth(3000),
                |list| fail_if(depth(list) == 3000),
            );
            let failure = report.failure.expect("the input fails");
            assert_eq!(depth(&failure.minimal), 3000);
            let note = failure
                .shrink_note
                .expect("a note on why it was not shrunk");
            assert!(note.contains("nested more than 2048 levels deep"), "{note}");
        })
        .unwrap()
        .join()
        .unwrap();
}
