//! A leftist heap priority queue (Okasaki): [`Heap`] with stored ranks and `i32` elements, 11
//! run-time switchable [`Bug`]s and 10 [`Property`] checks, each with the precondition "the
//! heaps are valid leftist heaps" (heap order, every left child's rank at least its sibling's,
//! every stored rank correct). Part of the evaluation set of the drop-in comparison: nothing is
//! tuned on it.
//!
//! ```
//! use typefuzz_bench::heap::{Args, Bug, Heap, LeftistHeap, Property};
//! use typefuzz_bench::Verdict;
//! let q = LeftistHeap::correct();
//! let h = q.from_list(&[3, 1, 2]);
//! assert!(h.is_valid());
//! let args = Args { h1: h.clone(), h2: Heap::E, x: 1 };
//! assert_eq!(Property::InsertModel.run(&q, &args), Verdict::Pass);
//! let buggy = LeftistHeap::with_bug(Some(Bug::InsertDropsEqual));
//! assert_eq!(Property::InsertModel.run(&buggy, &args), Verdict::Fail);
//! ```

use fastrand::Rng;
use proptest::prelude::*;
use quickcheck::{Arbitrary, Gen};
use typefuzz::Mutate;

use crate::Verdict;

/// A leftist heap: `E | T(rank, element, left, right)`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Mutate)]
pub enum Heap {
    /// The empty heap.
    #[default]
    E,
    /// A node: its stored rank, its element, its children.
    T(u32, i32, Box<Heap>, Box<Heap>),
}

use Heap::{E, T};

impl Heap {
    /// Nodes in the heap.
    pub fn size(&self) -> usize {
        match self {
            E => 0,
            T(_, _, l, r) => 1 + l.size() + r.size(),
        }
    }

    /// The elements in ascending order.
    pub fn sorted(&self) -> Vec<i32> {
        let mut out = Vec::new();
        fn walk(h: &Heap, out: &mut Vec<i32>) {
            if let T(_, x, l, r) = h {
                out.push(*x);
                walk(l, out);
                walk(r, out);
            }
        }
        walk(self, &mut out);
        out.sort_unstable();
        out
    }

    /// The smallest element (the root).
    pub fn find_min(&self) -> Option<i32> {
        match self {
            E => None,
            T(_, x, _, _) => Some(*x),
        }
    }

    /// The length of the right spine (the rank a node should store).
    fn true_rank(&self) -> u32 {
        match self {
            E => 0,
            T(_, _, _, r) => 1 + r.true_rank(),
        }
    }

    /// Heap order, the leftist property and correct stored ranks.
    pub fn is_valid(&self) -> bool {
        match self {
            E => true,
            T(rank, x, l, r) => {
                let ordered = |c: &Heap| c.find_min().map_or(true, |y| *x <= y);
                *rank == self.true_rank()
                    && l.true_rank() >= r.true_rank()
                    && ordered(l)
                    && ordered(r)
                    && l.is_valid()
                    && r.is_valid()
            }
        }
    }
}

/// The injected bugs.
///
/// ```
/// use typefuzz_bench::heap::Bug;
/// assert_eq!(Bug::ALL.len(), 11);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    /// `merge` puts the larger root on top.
    MergeKeepsLargerRoot,
    /// `make` never swaps the children to keep the higher rank on the left.
    MakeNoSwap,
    /// `make` stores one more than the left child's rank.
    RankFromLeft,
    /// `make` stores the right child's rank without adding one.
    RankNoIncrement,
    /// `merge` drops the right child of the root it keeps.
    MergeDropsRightChild,
    /// Inserting the current minimum again leaves the heap unchanged.
    InsertDropsEqual,
    /// `delete_min` keeps only the left child.
    DeleteMinDropsRight,
    /// `delete_min` of a single element returns it unchanged.
    DeleteMinKeepsSingleton,
    /// `merge` of two heaps with equal roots drops one root.
    MergeEqualRootsDropsOne,
    /// `delete_min` merges the right child with itself.
    DeleteMinDuplicatesRight,
    /// The empty heap's rank is taken as 1.
    EmptyRankOne,
}

impl Bug {
    /// Every bug.
    pub const ALL: [Bug; 11] = [
        Bug::MergeKeepsLargerRoot,
        Bug::MakeNoSwap,
        Bug::RankFromLeft,
        Bug::RankNoIncrement,
        Bug::MergeDropsRightChild,
        Bug::InsertDropsEqual,
        Bug::DeleteMinDropsRight,
        Bug::DeleteMinKeepsSingleton,
        Bug::MergeEqualRootsDropsOne,
        Bug::DeleteMinDuplicatesRight,
        Bug::EmptyRankOne,
    ];

    /// The bug's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Bug::MergeKeepsLargerRoot => "merge_keeps_larger_root",
            Bug::MakeNoSwap => "make_no_swap",
            Bug::RankFromLeft => "rank_from_left",
            Bug::RankNoIncrement => "rank_no_increment",
            Bug::MergeDropsRightChild => "merge_drops_right_child",
            Bug::InsertDropsEqual => "insert_drops_equal",
            Bug::DeleteMinDropsRight => "delete_min_drops_right",
            Bug::DeleteMinKeepsSingleton => "delete_min_keeps_singleton",
            Bug::MergeEqualRootsDropsOne => "merge_equal_roots_drops_one",
            Bug::DeleteMinDuplicatesRight => "delete_min_duplicates_right",
            Bug::EmptyRankOne => "empty_rank_one",
        }
    }

    /// The bug named `name`.
    pub fn parse(name: &str) -> Option<Bug> {
        Bug::ALL.into_iter().find(|b| b.name() == name)
    }
}

/// The implementation, with at most one bug switched on.
#[derive(Clone, Copy, Debug, Default)]
pub struct LeftistHeap {
    bug: Option<Bug>,
}

impl LeftistHeap {
    /// The correct implementation.
    pub fn correct() -> LeftistHeap {
        LeftistHeap { bug: None }
    }

    /// The implementation with `bug` switched on (`None`: correct).
    pub fn with_bug(bug: Option<Bug>) -> LeftistHeap {
        LeftistHeap { bug }
    }

    fn has(&self, bug: Bug) -> bool {
        self.bug == Some(bug)
    }

    fn rank(&self, h: &Heap) -> u32 {
        match h {
            E if self.has(Bug::EmptyRankOne) => 1,
            E => 0,
            T(rank, ..) => *rank,
        }
    }

    /// A node of `x` over `a` and `b`, the higher-ranked child on the left.
    fn make(&self, x: i32, a: Heap, b: Heap) -> Heap {
        let (ra, rb) = (self.rank(&a), self.rank(&b));
        let (l, r) = if ra >= rb || self.has(Bug::MakeNoSwap) {
            (a, b)
        } else {
            (b, a)
        };
        let rank = if self.has(Bug::RankFromLeft) {
            self.rank(&l) + 1
        } else if self.has(Bug::RankNoIncrement) {
            self.rank(&r)
        } else {
            self.rank(&r) + 1
        };
        T(rank, x, Box::new(l), Box::new(r))
    }

    /// The union of two heaps.
    pub fn merge(&self, h1: &Heap, h2: &Heap) -> Heap {
        match (h1, h2) {
            (E, h) | (h, E) => h.clone(),
            (T(_, x, a1, b1), T(_, y, a2, b2)) => {
                if x == y && self.has(Bug::MergeEqualRootsDropsOne) {
                    return self.merge(h1, &self.merge(a2, b2));
                }
                let first = if self.has(Bug::MergeKeepsLargerRoot) {
                    x >= y
                } else {
                    x <= y
                };
                if first {
                    let rest = if self.has(Bug::MergeDropsRightChild) {
                        h2.clone()
                    } else {
                        self.merge(b1, h2)
                    };
                    self.make(*x, (**a1).clone(), rest)
                } else {
                    let rest = if self.has(Bug::MergeDropsRightChild) {
                        h1.clone()
                    } else {
                        self.merge(h1, b2)
                    };
                    self.make(*y, (**a2).clone(), rest)
                }
            }
        }
    }

    /// `h` with `x` added.
    pub fn insert(&self, x: i32, h: &Heap) -> Heap {
        if self.has(Bug::InsertDropsEqual) && h.find_min() == Some(x) {
            return h.clone();
        }
        self.merge(&T(1, x, Box::new(E), Box::new(E)), h)
    }

    /// `h` without its smallest element.
    pub fn delete_min(&self, h: &Heap) -> Heap {
        match h {
            E => E,
            T(_, _, l, r) => {
                if self.has(Bug::DeleteMinDropsRight) {
                    (**l).clone()
                } else if self.has(Bug::DeleteMinKeepsSingleton) && **l == E && **r == E {
                    h.clone()
                } else if self.has(Bug::DeleteMinDuplicatesRight) {
                    self.merge(l, &self.merge(r, r))
                } else {
                    self.merge(l, r)
                }
            }
        }
    }

    /// The heap of `xs` inserted in order.
    pub fn from_list(&self, xs: &[i32]) -> Heap {
        xs.iter().fold(E, |h, &x| self.insert(x, &h))
    }

    /// The elements in the order `delete_min` removes them (at most `size` of them, so a bug
    /// cannot make it loop).
    pub fn drain(&self, h: &Heap) -> Vec<i32> {
        let mut out = Vec::new();
        let mut h = h.clone();
        for _ in 0..h.size() {
            let Some(x) = h.find_min() else { break };
            out.push(x);
            h = self.delete_min(&h);
        }
        out
    }
}

/// Every input a property takes: two heaps and an element.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Mutate)]
#[allow(missing_docs)]
pub struct Args {
    pub h1: Heap,
    pub h2: Heap,
    pub x: i32,
}

impl Args {
    /// Constructors in the input (the heaps' nodes and the element).
    pub fn nodes(&self) -> usize {
        self.h1.size() + self.h2.size() + 1
    }
}

/// A property of the heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // each is named for what it checks; see `run`
pub enum Property {
    MergeValid,
    InsertValid,
    DeleteMinValid,
    FindMinPost,
    InsertModel,
    MergeModel,
    DeleteMinModel,
    DrainSorted,
    MergeCommutes,
    DeleteMinInsert,
}

impl Property {
    /// Every property.
    pub const ALL: [Property; 10] = [
        Property::MergeValid,
        Property::InsertValid,
        Property::DeleteMinValid,
        Property::FindMinPost,
        Property::InsertModel,
        Property::MergeModel,
        Property::DeleteMinModel,
        Property::DrainSorted,
        Property::MergeCommutes,
        Property::DeleteMinInsert,
    ];

    /// The property's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Property::MergeValid => "merge_valid",
            Property::InsertValid => "insert_valid",
            Property::DeleteMinValid => "delete_min_valid",
            Property::FindMinPost => "find_min_post",
            Property::InsertModel => "insert_model",
            Property::MergeModel => "merge_model",
            Property::DeleteMinModel => "delete_min_model",
            Property::DrainSorted => "drain_sorted",
            Property::MergeCommutes => "merge_commutes",
            Property::DeleteMinInsert => "delete_min_insert",
        }
    }

    /// The property named `name`.
    pub fn parse(name: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.name() == name)
    }

    fn uses_h2(self) -> bool {
        matches!(
            self,
            Property::MergeValid | Property::MergeModel | Property::MergeCommutes
        )
    }

    /// Checks the property on `a` with implementation `q`; the precondition is that the heaps
    /// the property reads are valid.
    pub fn run(self, q: &LeftistHeap, a: &Args) -> Verdict {
        if !a.h1.is_valid() || (self.uses_h2() && !a.h2.is_valid()) {
            return Verdict::Discard;
        }
        let (h, h2, x) = (&a.h1, &a.h2, a.x);
        Verdict::from(match self {
            Property::MergeValid => q.merge(h, h2).is_valid(),
            Property::InsertValid => q.insert(x, h).is_valid(),
            Property::DeleteMinValid => q.delete_min(h).is_valid(),
            Property::FindMinPost => {
                let expected = h.find_min().map_or(x, |m| m.min(x));
                q.insert(x, h).find_min() == Some(expected)
            }
            Property::InsertModel => {
                let mut model = h.sorted();
                model.push(x);
                model.sort_unstable();
                q.insert(x, h).sorted() == model
            }
            Property::MergeModel => {
                let mut model = h.sorted();
                model.extend(h2.sorted());
                model.sort_unstable();
                q.merge(h, h2).sorted() == model
            }
            Property::DeleteMinModel => {
                let mut model = h.sorted();
                if !model.is_empty() {
                    model.remove(0);
                }
                q.delete_min(h).sorted() == model
            }
            Property::DrainSorted => q.drain(h) == h.sorted(),
            Property::MergeCommutes => q.drain(&q.merge(h, h2)) == q.drain(&q.merge(h2, h)),
            Property::DeleteMinInsert => {
                let lhs = q.delete_min(&q.insert(x, h));
                let rhs = match h.find_min() {
                    Some(m) if m < x => q.insert(x, &q.delete_min(h)),
                    _ => h.clone(),
                };
                q.drain(&lhs) == q.drain(&rhs)
            }
        })
    }
}

/// The tasks: each bug with the properties it breaks (each has a failing input, found from
/// heaps built with the correct implementation, in the tests).
pub const TASKS: [(Bug, &[Property]); 11] = {
    use Property::*;
    [
        (
            Bug::MergeKeepsLargerRoot,
            &[
                MergeValid,
                InsertValid,
                DeleteMinValid,
                FindMinPost,
                DrainSorted,
                MergeCommutes,
                DeleteMinInsert,
            ],
        ),
        (Bug::MakeNoSwap, &[MergeValid, InsertValid, DeleteMinValid]),
        (
            Bug::RankFromLeft,
            &[MergeValid, InsertValid, DeleteMinValid],
        ),
        (
            Bug::RankNoIncrement,
            &[MergeValid, InsertValid, DeleteMinValid],
        ),
        (
            Bug::MergeDropsRightChild,
            &[
                InsertModel,
                MergeModel,
                DeleteMinModel,
                DrainSorted,
                MergeCommutes,
                DeleteMinInsert,
            ],
        ),
        (Bug::InsertDropsEqual, &[InsertModel, DeleteMinInsert]),
        (
            Bug::DeleteMinDropsRight,
            &[DeleteMinModel, DrainSorted, MergeCommutes, DeleteMinInsert],
        ),
        (
            Bug::DeleteMinKeepsSingleton,
            &[DeleteMinModel, DeleteMinInsert],
        ),
        (
            Bug::MergeEqualRootsDropsOne,
            &[
                InsertModel,
                MergeModel,
                DeleteMinModel,
                DrainSorted,
                MergeCommutes,
                DeleteMinInsert,
            ],
        ),
        (
            Bug::DeleteMinDuplicatesRight,
            &[DeleteMinModel, DrainSorted, MergeCommutes, DeleteMinInsert],
        ),
        (
            Bug::EmptyRankOne,
            &[MergeValid, InsertValid, DeleteMinValid],
        ),
    ]
};

/// The no-bug controls the benchmark runs (the tests check every property without a bug).
pub const CONTROLS: [Property; 2] = [Property::MergeValid, Property::DeleteMinInsert];

/// Elements are drawn from `-ELEMENT_BOUND..=ELEMENT_BOUND`, ranks from `0..4`.
pub const ELEMENT_BOUND: i32 = 20;

/// proptest's idiom: `prop_recursive` from the empty heap, a rank and an element per node.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let a = typefuzz_bench::heap::args_strategy().new_tree(&mut TestRunner::deterministic()).unwrap();
/// assert!(a.current().x.abs() <= 20);
/// ```
pub fn args_strategy() -> BoxedStrategy<Args> {
    let element = || -ELEMENT_BOUND..=ELEMENT_BOUND;
    let heap = || {
        Just(E).prop_recursive(5, 32, 2, move |inner| {
            (0..4u32, element(), inner.clone(), inner)
                .prop_map(|(rank, x, l, r)| T(rank, x, Box::new(l), Box::new(r)))
        })
    };
    (heap(), heap(), element())
        .prop_map(|(h1, h2, x)| Args { h1, h2, x })
        .boxed()
}

fn arbitrary_element(g: &mut Gen) -> i32 {
    i32::from(u8::arbitrary(g) % (2 * ELEMENT_BOUND as u8 + 1)) - ELEMENT_BOUND
}

fn arbitrary_heap(g: &mut Gen, size: usize) -> Heap {
    if size == 0 || bool::arbitrary(g) {
        return E;
    }
    let rank = u32::arbitrary(g) % 4;
    let x = arbitrary_element(g);
    let l = arbitrary_heap(g, size / 2);
    T(rank, x, Box::new(l), Box::new(arbitrary_heap(g, size / 2)))
}

/// The quickcheck idiom: `E` or a node with equal probability, children at half the size.
impl Arbitrary for Heap {
    fn arbitrary(g: &mut Gen) -> Heap {
        arbitrary_heap(g, g.size())
    }
}

/// Every field from its own generator.
///
/// ```
/// use quickcheck::{Arbitrary, Gen};
/// let a = typefuzz_bench::heap::Args::arbitrary(&mut Gen::from_size_and_seed(100, 1));
/// assert!(a.x.abs() <= 20);
/// ```
impl Arbitrary for Args {
    fn arbitrary(g: &mut Gen) -> Args {
        Args {
            h1: Heap::arbitrary(g),
            h2: Heap::arbitrary(g),
            x: arbitrary_element(g),
        }
    }
}

/// Arguments whose heaps are valid by construction (random inserts with the correct code). Not
/// what the benchmark runs: the tests use it to find each task's failing input.
///
/// ```
/// let mut rng = fastrand::Rng::with_seed(1);
/// let a = typefuzz_bench::heap::valid_args(&mut rng);
/// assert!(a.h1.is_valid() && a.h2.is_valid());
/// ```
pub fn valid_args(rng: &mut Rng) -> Args {
    let q = LeftistHeap::correct();
    let heap = |rng: &mut Rng| {
        let xs: Vec<i32> = (0..rng.usize(0..10))
            .map(|_| rng.i32(-ELEMENT_BOUND..=ELEMENT_BOUND))
            .collect();
        q.from_list(&xs)
    };
    Args {
        h1: heap(rng),
        h2: heap(rng),
        x: rng.i32(-ELEMENT_BOUND..=ELEMENT_BOUND),
    }
}
