//! A red-black tree (Okasaki's insert, Kahrs' delete, as in ETNA's `RBT` workload): [`Tree`]
//! with `i32` keys and values, 12 run-time switchable [`Bug`]s and 10 [`Property`] checks in
//! the style of Hughes' "How to Specify It!" (validity, postconditions, model, metamorphic),
//! each with the precondition "the tree is a valid red-black tree" (a search tree, no red node
//! with a red child, every path with the same number of black nodes). Part of the evaluation
//! set of the drop-in comparison: nothing is tuned on it.
//!
//! ```
//! use typefuzz_bench::rbt::{Args, Bug, Property, Rbt, Tree};
//! use typefuzz_bench::Verdict;
//! let t = Rbt::correct().from_pairs(&[(1, 10), (2, 20), (3, 30)]);
//! assert!(t.is_valid());
//! let args = Args { t, k1: 2, k2: 2, v1: 7, v2: 0 };
//! assert_eq!(Property::InsertPost.run(&Rbt::correct(), &args), Verdict::Pass);
//! let buggy = Rbt::with_bug(Some(Bug::InsertKeepsOldValue));
//! assert_eq!(Property::InsertPost.run(&buggy, &args), Verdict::Fail);
//! ```

use fastrand::Rng;
use proptest::prelude::*;
use quickcheck::{Arbitrary, Gen};
use typefuzz::Mutate;

use crate::Verdict;

/// A node's color.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Mutate)]
#[allow(missing_docs)]
pub enum Color {
    R,
    B,
}

/// A red-black tree: `E | T(color, left, key, value, right)`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Mutate)]
pub enum Tree {
    /// The empty tree.
    #[default]
    E,
    /// A node: color, left subtree, key, value, right subtree.
    T(Color, Box<Tree>, i32, i32, Box<Tree>),
}

use Color::{B, R};
use Tree::{E, T};

fn node(c: Color, l: Tree, k: i32, v: i32, r: Tree) -> Tree {
    T(c, Box::new(l), k, v, Box::new(r))
}

impl Tree {
    /// Nodes in the tree.
    pub fn size(&self) -> usize {
        match self {
            E => 0,
            T(_, l, _, _, r) => 1 + l.size() + r.size(),
        }
    }

    /// The key-value pairs in key order.
    pub fn to_list(&self) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        fn walk(t: &Tree, out: &mut Vec<(i32, i32)>) {
            if let T(_, l, k, v, r) = t {
                walk(l, out);
                out.push((*k, *v));
                walk(r, out);
            }
        }
        walk(self, &mut out);
        out
    }

    /// The value at `key`.
    pub fn find(&self, key: i32) -> Option<i32> {
        match self {
            E => None,
            T(_, l, k, v, r) => match key.cmp(k) {
                std::cmp::Ordering::Less => l.find(key),
                std::cmp::Ordering::Greater => r.find(key),
                std::cmp::Ordering::Equal => Some(*v),
            },
        }
    }

    /// A valid red-black tree: keys strictly increasing in order, no red node with a red child,
    /// the same number of black nodes on every path.
    pub fn is_valid(&self) -> bool {
        let keys = self.to_list();
        keys.windows(2).all(|w| w[0].0 < w[1].0)
            && self.no_red_red()
            && self.black_height().is_some()
    }

    fn is_red(&self) -> bool {
        matches!(self, T(R, ..))
    }

    fn no_red_red(&self) -> bool {
        match self {
            E => true,
            T(c, l, _, _, r) => {
                !(*c == R && (l.is_red() || r.is_red())) && l.no_red_red() && r.no_red_red()
            }
        }
    }

    fn black_height(&self) -> Option<u32> {
        match self {
            E => Some(1),
            T(c, l, _, _, r) => {
                let (hl, hr) = (l.black_height()?, r.black_height()?);
                (hl == hr).then_some(hl + u32::from(*c == B))
            }
        }
    }
}

/// The injected bugs.
///
/// ```
/// use typefuzz_bench::rbt::Bug;
/// assert_eq!(Bug::ALL.len(), 12);
/// assert_eq!(Bug::parse("insert_no_blacken"), Some(Bug::InsertNoBlacken));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    /// A new node is black.
    InsertNewNodeBlack,
    /// `insert` leaves the root red.
    InsertNoBlacken,
    /// Inserting an existing key keeps the old value.
    InsertKeepsOldValue,
    /// `insert` goes right for smaller keys and left for larger ones.
    InsertCompareFlipped,
    /// The first rotation of `balance` swaps two values.
    BalanceSwapsValues,
    /// `balance` misses its right-right case.
    BalanceMissingRightRight,
    /// `delete` goes right for smaller keys and left for larger ones.
    DeleteCompareFlipped,
    /// `delete` leaves the root red.
    DeleteNoBlacken,
    /// Deleting a node joins its subtrees in the wrong order.
    DeleteJoinSwapped,
    /// `balance_left`'s last case does not redden the subtree it rebalances.
    BalanceLeftNoRedden,
    /// Deleting to the left of a node whose left child is not black builds a black node where
    /// a red one belongs.
    DeleteLeftKeepsBlack,
    /// `join` of two red trees ignores a red middle.
    JoinRedIgnoresRedMiddle,
}

impl Bug {
    /// Every bug.
    pub const ALL: [Bug; 12] = [
        Bug::InsertNewNodeBlack,
        Bug::InsertNoBlacken,
        Bug::InsertKeepsOldValue,
        Bug::InsertCompareFlipped,
        Bug::BalanceSwapsValues,
        Bug::BalanceMissingRightRight,
        Bug::DeleteCompareFlipped,
        Bug::DeleteNoBlacken,
        Bug::DeleteJoinSwapped,
        Bug::BalanceLeftNoRedden,
        Bug::DeleteLeftKeepsBlack,
        Bug::JoinRedIgnoresRedMiddle,
    ];

    /// The bug's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Bug::InsertNewNodeBlack => "insert_new_node_black",
            Bug::InsertNoBlacken => "insert_no_blacken",
            Bug::InsertKeepsOldValue => "insert_keeps_old_value",
            Bug::InsertCompareFlipped => "insert_compare_flipped",
            Bug::BalanceSwapsValues => "balance_swaps_values",
            Bug::BalanceMissingRightRight => "balance_missing_right_right",
            Bug::DeleteCompareFlipped => "delete_compare_flipped",
            Bug::DeleteNoBlacken => "delete_no_blacken",
            Bug::DeleteJoinSwapped => "delete_join_swapped",
            Bug::BalanceLeftNoRedden => "balance_left_no_redden",
            Bug::DeleteLeftKeepsBlack => "delete_left_keeps_black",
            Bug::JoinRedIgnoresRedMiddle => "join_red_ignores_red_middle",
        }
    }

    /// The bug named `name`.
    pub fn parse(name: &str) -> Option<Bug> {
        Bug::ALL.into_iter().find(|b| b.name() == name)
    }
}

/// The implementation, with at most one bug switched on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rbt {
    bug: Option<Bug>,
}

impl Rbt {
    /// The correct implementation.
    pub fn correct() -> Rbt {
        Rbt { bug: None }
    }

    /// The implementation with `bug` switched on (`None`: correct).
    pub fn with_bug(bug: Option<Bug>) -> Rbt {
        Rbt { bug }
    }

    fn has(&self, bug: Bug) -> bool {
        self.bug == Some(bug)
    }

    /// The tree of inserting `pairs` in order into the empty tree.
    pub fn from_pairs(&self, pairs: &[(i32, i32)]) -> Tree {
        pairs.iter().fold(E, |t, &(k, v)| self.insert(k, v, &t))
    }

    fn balance(&self, c: Color, l: Tree, k: i32, v: i32, r: Tree) -> Tree {
        if c == B {
            if let T(R, ll, lk, lv, lr) = &l {
                if let T(R, a, xk, xv, b) = &**ll {
                    let (xv, lv) = if self.has(Bug::BalanceSwapsValues) {
                        (*lv, *xv)
                    } else {
                        (*xv, *lv)
                    };
                    return node(
                        R,
                        node(B, (**a).clone(), *xk, xv, (**b).clone()),
                        *lk,
                        lv,
                        node(B, (**lr).clone(), k, v, r),
                    );
                }
                if let T(R, b, yk, yv, c2) = &**lr {
                    return node(
                        R,
                        node(B, (**ll).clone(), *lk, *lv, (**b).clone()),
                        *yk,
                        *yv,
                        node(B, (**c2).clone(), k, v, r),
                    );
                }
            }
            if let T(R, rl, rk, rv, rr) = &r {
                if let T(R, b, yk, yv, c2) = &**rl {
                    return node(
                        R,
                        node(B, l, k, v, (**b).clone()),
                        *yk,
                        *yv,
                        node(B, (**c2).clone(), *rk, *rv, (**rr).clone()),
                    );
                }
                if let (T(R, c2, zk, zv, d), false) =
                    (&**rr, self.has(Bug::BalanceMissingRightRight))
                {
                    return node(
                        R,
                        node(B, l, k, v, (**rl).clone()),
                        *rk,
                        *rv,
                        node(B, (**c2).clone(), *zk, *zv, (**d).clone()),
                    );
                }
            }
        }
        node(c, l, k, v, r)
    }

    /// Inserts (or overwrites) `key` with `value`.
    pub fn insert(&self, key: i32, value: i32, t: &Tree) -> Tree {
        let inserted = self.ins(key, value, t);
        if self.has(Bug::InsertNoBlacken) {
            inserted
        } else {
            blacken(inserted)
        }
    }

    fn ins(&self, key: i32, value: i32, t: &Tree) -> Tree {
        match t {
            E => {
                let c = if self.has(Bug::InsertNewNodeBlack) {
                    B
                } else {
                    R
                };
                node(c, E, key, value, E)
            }
            T(c, l, k, v, r) => {
                let (less, greater) = if self.has(Bug::InsertCompareFlipped) {
                    (key > *k, key < *k)
                } else {
                    (key < *k, key > *k)
                };
                if less {
                    self.balance(*c, self.ins(key, value, l), *k, *v, (**r).clone())
                } else if greater {
                    self.balance(*c, (**l).clone(), *k, *v, self.ins(key, value, r))
                } else if self.has(Bug::InsertKeepsOldValue) {
                    t.clone()
                } else {
                    node(*c, (**l).clone(), *k, value, (**r).clone())
                }
            }
        }
    }

    /// Deletes `key` (nothing if absent).
    pub fn delete(&self, key: i32, t: &Tree) -> Tree {
        let deleted = self.del(key, t);
        if self.has(Bug::DeleteNoBlacken) {
            deleted
        } else {
            blacken(deleted)
        }
    }

    fn del(&self, key: i32, t: &Tree) -> Tree {
        let T(_, l, k, v, r) = t else {
            return E;
        };
        let (less, greater) = if self.has(Bug::DeleteCompareFlipped) {
            (key > *k, key < *k)
        } else {
            (key < *k, key > *k)
        };
        if less {
            if matches!(**l, T(B, ..)) {
                self.balance_left(self.del(key, l), *k, *v, (**r).clone())
            } else {
                let c = if self.has(Bug::DeleteLeftKeepsBlack) {
                    B
                } else {
                    R
                };
                node(c, self.del(key, l), *k, *v, (**r).clone())
            }
        } else if greater {
            if matches!(**r, T(B, ..)) {
                self.balance_right((**l).clone(), *k, *v, self.del(key, r))
            } else {
                node(R, (**l).clone(), *k, *v, self.del(key, r))
            }
        } else if self.has(Bug::DeleteJoinSwapped) {
            self.join(r, l)
        } else {
            self.join(l, r)
        }
    }

    fn balance_left(&self, l: Tree, k: i32, v: i32, r: Tree) -> Tree {
        if let T(R, a, xk, xv, b) = l {
            return node(R, node(B, *a, xk, xv, *b), k, v, r);
        }
        match r {
            T(B, a, yk, yv, b) => self.balance(B, l, k, v, node(R, *a, yk, yv, *b)),
            T(R, a, zk, zv, c) => match *a {
                T(B, a2, yk, yv, b2) => {
                    let c = if self.has(Bug::BalanceLeftNoRedden) {
                        *c
                    } else {
                        redden(*c)
                    };
                    node(
                        R,
                        node(B, l, k, v, *a2),
                        yk,
                        yv,
                        self.balance(B, *b2, zk, zv, c),
                    )
                }
                a => node(B, l, k, v, node(R, a, zk, zv, *c)),
            },
            r => node(B, l, k, v, r),
        }
    }

    fn balance_right(&self, l: Tree, k: i32, v: i32, r: Tree) -> Tree {
        if let T(R, b, yk, yv, c) = r {
            return node(R, l, k, v, node(B, *b, yk, yv, *c));
        }
        match l {
            T(B, a, xk, xv, b) => self.balance(B, node(R, *a, xk, xv, *b), k, v, r),
            T(R, a, xk, xv, b) => match *b {
                T(B, b2, yk, yv, c2) => node(
                    R,
                    self.balance(B, redden(*a), xk, xv, *b2),
                    yk,
                    yv,
                    node(B, *c2, k, v, r),
                ),
                b => node(B, node(R, *a, xk, xv, b), k, v, r),
            },
            l => node(B, l, k, v, r),
        }
    }

    fn join(&self, l: &Tree, r: &Tree) -> Tree {
        match (l, r) {
            (E, t) | (t, E) => t.clone(),
            (T(R, a, xk, xv, b), T(R, c, yk, yv, d)) => {
                match (self.join(b, c), self.has(Bug::JoinRedIgnoresRedMiddle)) {
                    (T(R, b2, zk, zv, c2), false) => node(
                        R,
                        node(R, (**a).clone(), *xk, *xv, *b2),
                        zk,
                        zv,
                        node(R, *c2, *yk, *yv, (**d).clone()),
                    ),
                    (bc, _) => node(
                        R,
                        (**a).clone(),
                        *xk,
                        *xv,
                        node(R, bc, *yk, *yv, (**d).clone()),
                    ),
                }
            }
            (T(B, a, xk, xv, b), T(B, c, yk, yv, d)) => match self.join(b, c) {
                T(R, b2, zk, zv, c2) => node(
                    R,
                    node(B, (**a).clone(), *xk, *xv, *b2),
                    zk,
                    zv,
                    node(B, *c2, *yk, *yv, (**d).clone()),
                ),
                bc => self.balance_left(
                    (**a).clone(),
                    *xk,
                    *xv,
                    node(B, bc, *yk, *yv, (**d).clone()),
                ),
            },
            (a, T(R, b, xk, xv, c)) => node(R, self.join(a, b), *xk, *xv, (**c).clone()),
            (T(R, a, xk, xv, b), c) => node(R, (**a).clone(), *xk, *xv, self.join(b, c)),
        }
    }
}

fn blacken(t: Tree) -> Tree {
    match t {
        T(_, l, k, v, r) => T(B, l, k, v, r),
        E => E,
    }
}

fn redden(t: Tree) -> Tree {
    match t {
        T(_, l, k, v, r) => T(R, l, k, v, r),
        E => E,
    }
}

/// Every input a property takes: a tree, two keys, two values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Mutate)]
#[allow(missing_docs)]
pub struct Args {
    pub t: Tree,
    pub k1: i32,
    pub k2: i32,
    pub v1: i32,
    pub v2: i32,
}

impl Args {
    /// Constructors in the input (the tree's nodes and the four numbers).
    pub fn nodes(&self) -> usize {
        self.t.size() + 4
    }
}

/// A property of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // each is named for what it checks; see `run`
pub enum Property {
    InsertValid,
    DeleteValid,
    InsertPost,
    DeletePost,
    InsertModel,
    DeleteModel,
    InsertInsert,
    InsertDelete,
    DeleteInsert,
    DeleteDelete,
}

impl Property {
    /// Every property.
    pub const ALL: [Property; 10] = [
        Property::InsertValid,
        Property::DeleteValid,
        Property::InsertPost,
        Property::DeletePost,
        Property::InsertModel,
        Property::DeleteModel,
        Property::InsertInsert,
        Property::InsertDelete,
        Property::DeleteInsert,
        Property::DeleteDelete,
    ];

    /// The property's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Property::InsertValid => "insert_valid",
            Property::DeleteValid => "delete_valid",
            Property::InsertPost => "insert_post",
            Property::DeletePost => "delete_post",
            Property::InsertModel => "insert_model",
            Property::DeleteModel => "delete_model",
            Property::InsertInsert => "insert_insert",
            Property::InsertDelete => "insert_delete",
            Property::DeleteInsert => "delete_insert",
            Property::DeleteDelete => "delete_delete",
        }
    }

    /// The property named `name`.
    pub fn parse(name: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Checks the property on `a` with implementation `rbt`; the precondition is that `a.t` is a
    /// valid red-black tree. Metamorphic properties compare the trees' pairs in order.
    pub fn run(self, rbt: &Rbt, a: &Args) -> Verdict {
        if !a.t.is_valid() {
            return Verdict::Discard;
        }
        let (t, k, k2, v, v2) = (&a.t, a.k1, a.k2, a.v1, a.v2);
        let same = |x: &Tree, y: &Tree| x.to_list() == y.to_list();
        Verdict::from(match self {
            Property::InsertValid => rbt.insert(k, v, t).is_valid(),
            Property::DeleteValid => rbt.delete(k, t).is_valid(),
            Property::InsertPost => {
                let expected = if k == k2 { Some(v) } else { t.find(k2) };
                rbt.insert(k, v, t).find(k2) == expected
            }
            Property::DeletePost => {
                let expected = if k == k2 { None } else { t.find(k2) };
                rbt.delete(k, t).find(k2) == expected
            }
            Property::InsertModel => {
                let mut model: Vec<(i32, i32)> =
                    t.to_list().into_iter().filter(|p| p.0 != k).collect();
                model.push((k, v));
                model.sort();
                rbt.insert(k, v, t).to_list() == model
            }
            Property::DeleteModel => {
                let model: Vec<(i32, i32)> = t.to_list().into_iter().filter(|p| p.0 != k).collect();
                rbt.delete(k, t).to_list() == model
            }
            Property::InsertInsert => {
                let lhs = rbt.insert(k, v, &rbt.insert(k2, v2, t));
                let rhs = if k == k2 {
                    rbt.insert(k, v, t)
                } else {
                    rbt.insert(k2, v2, &rbt.insert(k, v, t))
                };
                same(&lhs, &rhs)
            }
            Property::InsertDelete => {
                let lhs = rbt.insert(k, v, &rbt.delete(k2, t));
                let rhs = if k == k2 {
                    rbt.insert(k, v, t)
                } else {
                    rbt.delete(k2, &rbt.insert(k, v, t))
                };
                same(&lhs, &rhs)
            }
            Property::DeleteInsert => {
                let lhs = rbt.delete(k, &rbt.insert(k2, v2, t));
                let rhs = if k == k2 {
                    rbt.delete(k, t)
                } else {
                    rbt.insert(k2, v2, &rbt.delete(k, t))
                };
                same(&lhs, &rhs)
            }
            Property::DeleteDelete => {
                let lhs = rbt.delete(k, &rbt.delete(k2, t));
                let rhs = rbt.delete(k2, &rbt.delete(k, t));
                same(&lhs, &rhs)
            }
        })
    }
}

/// The tasks: each bug with the properties it breaks (each has a failing input, found by
/// inserting random keys with the correct implementation, in the tests).
pub const TASKS: [(Bug, &[Property]); 12] = {
    use Property::*;
    [
        (Bug::InsertNewNodeBlack, &[InsertValid]),
        (Bug::InsertNoBlacken, &[InsertValid]),
        (
            Bug::InsertKeepsOldValue,
            &[InsertPost, InsertModel, InsertInsert, InsertDelete],
        ),
        (
            Bug::InsertCompareFlipped,
            &[
                InsertValid,
                InsertPost,
                InsertModel,
                InsertInsert,
                InsertDelete,
                DeleteInsert,
            ],
        ),
        (
            Bug::BalanceSwapsValues,
            &[
                InsertPost,
                DeletePost,
                InsertModel,
                DeleteModel,
                InsertInsert,
                InsertDelete,
                DeleteInsert,
                DeleteDelete,
            ],
        ),
        (Bug::BalanceMissingRightRight, &[InsertValid, DeleteValid]),
        (
            Bug::DeleteCompareFlipped,
            &[
                DeletePost,
                DeleteModel,
                InsertDelete,
                DeleteInsert,
                DeleteDelete,
            ],
        ),
        (Bug::DeleteNoBlacken, &[DeleteValid]),
        (
            Bug::DeleteJoinSwapped,
            &[
                DeleteValid,
                DeletePost,
                DeleteModel,
                InsertDelete,
                DeleteInsert,
                DeleteDelete,
            ],
        ),
        (Bug::BalanceLeftNoRedden, &[DeleteValid]),
        (Bug::DeleteLeftKeepsBlack, &[DeleteValid]),
        (Bug::JoinRedIgnoresRedMiddle, &[DeleteValid]),
    ]
};

/// The no-bug controls the benchmark runs (the tests check every property without a bug).
pub const CONTROLS: [Property; 2] = [Property::InsertValid, Property::DeleteModel];

/// Keys and values are drawn from `-KEY_BOUND..=KEY_BOUND` (small, so keys collide).
pub const KEY_BOUND: i32 = 20;

/// proptest's idiom: `prop_recursive` from the empty tree, any color, keys and values in a
/// small range.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let a = typefuzz_bench::rbt::args_strategy().new_tree(&mut TestRunner::deterministic()).unwrap();
/// assert!(a.current().k1.abs() <= 20);
/// ```
pub fn args_strategy() -> BoxedStrategy<Args> {
    let key = || -KEY_BOUND..=KEY_BOUND;
    let color = prop_oneof![Just(R), Just(B)];
    let tree = Just(E).prop_recursive(5, 32, 2, move |inner| {
        (color.clone(), inner.clone(), key(), key(), inner)
            .prop_map(|(c, l, k, v, r)| node(c, l, k, v, r))
    });
    (tree, key(), key(), key(), key())
        .prop_map(|(t, k1, k2, v1, v2)| Args { t, k1, k2, v1, v2 })
        .boxed()
}

fn arbitrary_key(g: &mut Gen) -> i32 {
    i32::from(u8::arbitrary(g) % (2 * KEY_BOUND as u8 + 1)) - KEY_BOUND
}

fn arbitrary_tree(g: &mut Gen, size: usize) -> Tree {
    if size == 0 || bool::arbitrary(g) {
        return E;
    }
    let c = if bool::arbitrary(g) { R } else { B };
    let l = arbitrary_tree(g, size / 2);
    let (k, v) = (arbitrary_key(g), arbitrary_key(g));
    node(c, l, k, v, arbitrary_tree(g, size / 2))
}

/// The quickcheck idiom: `E` or a node of either color with equal probability, children at half
/// the size.
impl Arbitrary for Tree {
    fn arbitrary(g: &mut Gen) -> Tree {
        arbitrary_tree(g, g.size())
    }
}

/// Every field from its own generator.
///
/// ```
/// use quickcheck::{Arbitrary, Gen};
/// let a = typefuzz_bench::rbt::Args::arbitrary(&mut Gen::from_size_and_seed(100, 1));
/// assert!(a.k2.abs() <= 20);
/// ```
impl Arbitrary for Args {
    fn arbitrary(g: &mut Gen) -> Args {
        Args {
            t: Tree::arbitrary(g),
            k1: arbitrary_key(g),
            k2: arbitrary_key(g),
            v1: arbitrary_key(g),
            v2: arbitrary_key(g),
        }
    }
}

/// Arguments whose tree is valid by construction (random inserts with the correct code, then
/// random deletes). Not what the benchmark runs: the tests use it to find each task's failing
/// input.
///
/// ```
/// let mut rng = fastrand::Rng::with_seed(1);
/// assert!((0..100).all(|_| typefuzz_bench::rbt::valid_args(&mut rng).t.is_valid()));
/// ```
pub fn valid_args(rng: &mut Rng) -> Args {
    let rbt = Rbt::correct();
    let key = |rng: &mut Rng| rng.i32(-KEY_BOUND..=KEY_BOUND);
    let mut t = E;
    for _ in 0..rng.usize(0..24) {
        t = rbt.insert(key(rng), key(rng), &t);
    }
    for _ in 0..rng.usize(0..4) {
        t = rbt.delete(key(rng), &t);
    }
    if rng.bool() {
        t = redden(t);
        if !t.is_valid() {
            t = blacken(t);
        }
    }
    Args {
        t,
        k1: key(rng),
        k2: key(rng),
        v1: key(rng),
        v2: key(rng),
    }
}
