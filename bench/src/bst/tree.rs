//! The tree, its operations, and the injected mutants.

/// A binary tree with `i32` keys and values: `E | T(left, key, value, right)`.
///
/// ```
/// use typefuzz_bench::bst::Tree;
/// let t = Tree::from_pairs(&[(2, 20), (1, 10)]);
/// assert_eq!(t.to_list(), vec![(1, 10), (2, 20)]);
/// assert!(t.is_bst());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, typefuzz::Mutate, arbitrary::Arbitrary)]
pub enum Tree {
    /// The empty tree.
    #[default]
    E,
    /// A node: left subtree, key, value, right subtree.
    T(Box<Tree>, i32, i32, Box<Tree>),
}

/// Fuel of `union`: its maximum recursion depth (the Rust port's 10 000).
pub const UNION_FUEL: u32 = 10_000;

/// The injected bugs (ETNA's names).
///
/// ```
/// use typefuzz_bench::bst::Mutant;
/// assert_eq!(Mutant::ALL.len(), 8);
/// assert_eq!(Mutant::Union8.name(), "union_8");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mutant {
    /// `insert` at a non-empty node returns a fresh singleton.
    Insert1,
    /// `insert` has no "go right" branch: it overwrites the node's value instead.
    Insert2,
    /// `insert` keeps the old value on equal keys.
    Insert3,
    /// `delete` returns only the recursive result, dropping the node and the other subtree.
    Delete4,
    /// `delete` searches left when `k > k'` and right when `k < k'`.
    Delete5,
    /// `union` grafts without splitting by key.
    Union6,
    /// `union` pairs children on equal roots, grafts on `k < k'`, else swaps its arguments.
    Union7,
    /// Like `Union7` with a `below`/`above` split on `k < k'`.
    Union8,
}

impl Mutant {
    /// All mutants in ETNA's order.
    pub const ALL: [Mutant; 8] = [
        Mutant::Insert1,
        Mutant::Insert2,
        Mutant::Insert3,
        Mutant::Delete4,
        Mutant::Delete5,
        Mutant::Union6,
        Mutant::Union7,
        Mutant::Union8,
    ];

    /// ETNA's name, e.g. `insert_1`.
    ///
    /// ```
    /// assert_eq!(typefuzz_bench::bst::Mutant::Delete4.name(), "delete_4");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Mutant::Insert1 => "insert_1",
            Mutant::Insert2 => "insert_2",
            Mutant::Insert3 => "insert_3",
            Mutant::Delete4 => "delete_4",
            Mutant::Delete5 => "delete_5",
            Mutant::Union6 => "union_6",
            Mutant::Union7 => "union_7",
            Mutant::Union8 => "union_8",
        }
    }
}

fn node(l: Tree, k: i32, v: i32, r: Tree) -> Tree {
    Tree::T(Box::new(l), k, v, Box::new(r))
}

impl Tree {
    /// Folds correct inserts of `pairs` into the empty tree, first pair first.
    ///
    /// ```
    /// use typefuzz_bench::bst::Tree;
    /// assert_eq!(Tree::from_pairs(&[(1, 1), (1, 2)]).to_list(), vec![(1, 2)]);
    /// ```
    pub fn from_pairs(pairs: &[(i32, i32)]) -> Tree {
        let bst = Bst::correct();
        pairs
            .iter()
            .fold(Tree::E, |t, &(k, v)| bst.insert(k, v, &t))
    }

    /// The in-order list of `(key, value)` pairs.
    ///
    /// ```
    /// assert!(typefuzz_bench::bst::Tree::E.to_list().is_empty());
    /// ```
    pub fn to_list(&self) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Vec<(i32, i32)>) {
        if let Tree::T(l, k, v, r) = self {
            l.collect(out);
            out.push((*k, *v));
            r.collect(out);
        }
    }

    /// The keys in order.
    fn keys(&self) -> Vec<i32> {
        self.to_list().into_iter().map(|(k, _)| k).collect()
    }

    /// Every key of each left subtree is `<` its key, which is `<` every key of its right
    /// subtree (strict: duplicate keys are invalid).
    ///
    /// ```
    /// use typefuzz_bench::bst::Tree;
    /// let dup = Tree::T(Box::new(Tree::from_pairs(&[(1, 0)])), 1, 0, Box::new(Tree::E));
    /// assert!(!dup.is_bst());
    /// ```
    pub fn is_bst(&self) -> bool {
        // Equivalent to the recursive definition: the in-order key sequence strictly increases.
        self.keys().windows(2).all(|w| w[0] < w[1])
    }

    /// Standard lookup.
    ///
    /// ```
    /// use typefuzz_bench::bst::Tree;
    /// assert_eq!(Tree::from_pairs(&[(1, 5)]).find(1), Some(5));
    /// ```
    pub fn find(&self, key: i32) -> Option<i32> {
        let mut t = self;
        while let Tree::T(l, k, v, r) = t {
            if key < *k {
                t = l;
            } else if key > *k {
                t = r;
            } else {
                return Some(*v);
            }
        }
        None
    }

    /// The number of nodes.
    ///
    /// ```
    /// assert_eq!(typefuzz_bench::bst::Tree::from_pairs(&[(1, 1), (2, 2)]).size(), 2);
    /// ```
    pub fn size(&self) -> usize {
        match self {
            Tree::E => 0,
            Tree::T(l, _, _, r) => 1 + l.size() + r.size(),
        }
    }
}

/// The tree operations with an optional injected bug.
///
/// ```
/// use typefuzz_bench::bst::{Bst, Mutant, Tree};
/// let t = Tree::from_pairs(&[(1, 1)]);
/// assert_eq!(Bst::correct().insert(1, 9, &t).find(1), Some(9));
/// assert_eq!(Bst::with_mutant(Some(Mutant::Insert3)).insert(1, 9, &t).find(1), Some(1));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bst {
    /// The active mutant; `None` is the correct implementation.
    pub mutant: Option<Mutant>,
}

impl Bst {
    /// The correct implementation.
    ///
    /// ```
    /// assert_eq!(typefuzz_bench::bst::Bst::correct().mutant, None);
    /// ```
    pub fn correct() -> Bst {
        Bst { mutant: None }
    }

    /// The implementation with `mutant` injected (`None` = correct).
    ///
    /// ```
    /// use typefuzz_bench::bst::{Bst, Mutant};
    /// assert_eq!(Bst::with_mutant(Some(Mutant::Union6)).mutant, Some(Mutant::Union6));
    /// ```
    pub fn with_mutant(mutant: Option<Mutant>) -> Bst {
        Bst { mutant }
    }

    fn is(&self, m: Mutant) -> bool {
        self.mutant == Some(m)
    }

    /// Inserts `key ↦ value`, replacing the value of an existing key.
    ///
    /// ```
    /// use typefuzz_bench::bst::{Bst, Tree};
    /// assert_eq!(Bst::correct().insert(1, 2, &Tree::E).to_list(), vec![(1, 2)]);
    /// ```
    pub fn insert(&self, key: i32, value: i32, t: &Tree) -> Tree {
        match t {
            Tree::E => node(Tree::E, key, value, Tree::E),
            Tree::T(l, k, v, r) => {
                let (k, v) = (*k, *v);
                if self.is(Mutant::Insert1) {
                    node(Tree::E, key, value, Tree::E)
                } else if self.is(Mutant::Insert2) {
                    if key < k {
                        node(self.insert(key, value, l), k, v, (**r).clone())
                    } else {
                        node((**l).clone(), k, value, (**r).clone())
                    }
                } else if key < k {
                    node(self.insert(key, value, l), k, v, (**r).clone())
                } else if key > k {
                    node((**l).clone(), k, v, self.insert(key, value, r))
                } else if self.is(Mutant::Insert3) {
                    node((**l).clone(), k, v, (**r).clone())
                } else {
                    node((**l).clone(), k, value, (**r).clone())
                }
            }
        }
    }

    /// Removes `key`.
    ///
    /// ```
    /// use typefuzz_bench::bst::{Bst, Tree};
    /// let t = Tree::from_pairs(&[(1, 1), (2, 2)]);
    /// assert_eq!(Bst::correct().delete(1, &t).to_list(), vec![(2, 2)]);
    /// ```
    pub fn delete(&self, key: i32, t: &Tree) -> Tree {
        match t {
            Tree::E => Tree::E,
            Tree::T(l, k, v, r) => {
                let (k, v) = (*k, *v);
                let (go_left, go_right) = if self.is(Mutant::Delete5) {
                    (key > k, key < k)
                } else {
                    (key < k, key > k)
                };
                if go_left {
                    let l = self.delete(key, l);
                    if self.is(Mutant::Delete4) {
                        l
                    } else {
                        node(l, k, v, (**r).clone())
                    }
                } else if go_right {
                    let r = self.delete(key, r);
                    if self.is(Mutant::Delete4) {
                        r
                    } else {
                        node((**l).clone(), k, v, r)
                    }
                } else {
                    join(l, r)
                }
            }
        }
    }

    /// Left-biased union: on equal keys the value of `t1` wins.
    ///
    /// ```
    /// use typefuzz_bench::bst::{Bst, Tree};
    /// let u = Bst::correct().union(&Tree::from_pairs(&[(1, 1)]), &Tree::from_pairs(&[(1, 2), (0, 0)]));
    /// assert_eq!(u.to_list(), vec![(0, 0), (1, 1)]);
    /// ```
    pub fn union(&self, t1: &Tree, t2: &Tree) -> Tree {
        self.union_fuel(t1, t2, UNION_FUEL)
    }

    fn union_fuel(&self, t1: &Tree, t2: &Tree, fuel: u32) -> Tree {
        let Some(fuel) = fuel.checked_sub(1) else {
            return Tree::E;
        };
        let (Tree::T(l, k, v, r), Tree::T(l2, k2, v2, r2)) = (t1, t2) else {
            return if *t1 == Tree::E {
                t2.clone()
            } else {
                t1.clone()
            };
        };
        let (k, v, k2, v2) = (*k, *v, *k2, *v2);
        let graft = || {
            let right = node(self.union_fuel(r, l2, fuel), k2, v2, (**r2).clone());
            node((**l).clone(), k, v, right)
        };
        match self.mutant {
            Some(Mutant::Union6) => graft(),
            Some(Mutant::Union7 | Mutant::Union8) => {
                if k == k2 {
                    node(
                        self.union_fuel(l, l2, fuel),
                        k,
                        v,
                        self.union_fuel(r, r2, fuel),
                    )
                } else if k < k2 && self.is(Mutant::Union7) {
                    graft()
                } else if k < k2 {
                    let left = self.union_fuel(l, &below(k, l2), fuel);
                    let right = node(above(k, l2), k2, v2, (**r2).clone());
                    node(left, k, v, self.union_fuel(r, &right, fuel))
                } else {
                    self.union_fuel(t2, t1, fuel)
                }
            }
            _ => node(
                self.union_fuel(l, &below(k, t2), fuel),
                k,
                v,
                self.union_fuel(r, &above(k, t2), fuel),
            ),
        }
    }
}

/// Joins two trees whose keys are ordered (`l` below `r`).
fn join(l: &Tree, r: &Tree) -> Tree {
    match (l, r) {
        (Tree::E, _) => r.clone(),
        (_, Tree::E) => l.clone(),
        (Tree::T(l1, k1, v1, r1), Tree::T(l2, k2, v2, r2)) => {
            let right = node(join(r1, l2), *k2, *v2, (**r2).clone());
            node((**l1).clone(), *k1, *v1, right)
        }
    }
}

/// The subtree of keys strictly less than `key`.
fn below(key: i32, t: &Tree) -> Tree {
    match t {
        Tree::E => Tree::E,
        Tree::T(l, k, v, r) => {
            if key <= *k {
                below(key, l)
            } else {
                node((**l).clone(), *k, *v, below(key, r))
            }
        }
    }
}

/// The subtree of keys strictly greater than `key`.
fn above(key: i32, t: &Tree) -> Tree {
    match t {
        Tree::E => Tree::E,
        Tree::T(l, k, v, r) => {
            if key >= *k {
                above(key, r)
            } else {
                node(above(key, l), *k, *v, (**r).clone())
            }
        }
    }
}
