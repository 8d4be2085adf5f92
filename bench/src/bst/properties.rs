//! The 18 properties, each a function from its own typed input to a [`Verdict`]: the
//! precondition (the trees are BSTs) becomes a discard, the postcondition a pass or a fail.
//!
//! Each function takes exactly the inputs the property quantifies over, so a fuzzer never spends
//! mutations on an argument the property ignores. [`Property::run`] dispatches on a uniform
//! [`Args`] for code that handles every property alike.

use super::tree::{Bst, Tree};
use crate::Verdict;

/// Keys and values.
type K = i32;
type V = i32;

/// `toList` after removing key `k`.
fn delete_key(k: K, list: Vec<(K, V)>) -> Vec<(K, V)> {
    list.into_iter().filter(|&(k2, _)| k2 != k).collect()
}

/// Haskell's `L.insert (k, v)` into a sorted list of pairs.
fn insert_sorted(pair: (K, V), mut list: Vec<(K, V)>) -> Vec<(K, V)> {
    let at = list.partition_point(|&p| p <= pair);
    list.insert(at, pair);
    list
}

/// `isBST(insert k v t)` for BST `t`. A no-bug control.
pub fn insert_valid(bst: &Bst, (t, k, v): &(Tree, K, V)) -> Verdict {
    Verdict::check(t.is_bst(), || bst.insert(*k, *v, t).is_bst())
}

/// `isBST(delete k t)` for BST `t`. A no-bug control.
pub fn delete_valid(bst: &Bst, (t, k): &(Tree, K)) -> Verdict {
    Verdict::check(t.is_bst(), || bst.delete(*k, t).is_bst())
}

/// `isBST(union t1 t2)` for BSTs `t1`, `t2`.
pub fn union_valid(bst: &Bst, (t1, t2): &(Tree, Tree)) -> Verdict {
    Verdict::check(t1.is_bst() && t2.is_bst(), || bst.union(t1, t2).is_bst())
}

/// `find k' (insert k v t) = if k = k' then Some v else find k' t`.
pub fn insert_post(bst: &Bst, (t, k, k2, v): &(Tree, K, K, V)) -> Verdict {
    Verdict::check(t.is_bst(), || {
        let expected = if k == k2 { Some(*v) } else { t.find(*k2) };
        bst.insert(*k, *v, t).find(*k2) == expected
    })
}

/// `find k' (delete k t) = if k = k' then None else find k' t`.
pub fn delete_post(bst: &Bst, (t, k, k2): &(Tree, K, K)) -> Verdict {
    Verdict::check(t.is_bst(), || {
        let expected = if k == k2 { None } else { t.find(*k2) };
        bst.delete(*k, t).find(*k2) == expected
    })
}

/// `find k (union t t') = find k t <|> find k t'`; only `t` must be a BST (as in ETNA).
pub fn union_post(bst: &Bst, (t, t2, k): &(Tree, Tree, K)) -> Verdict {
    Verdict::check(t.is_bst(), || {
        bst.union(t, t2).find(*k) == t.find(*k).or_else(|| t2.find(*k))
    })
}

/// `toList (insert k v t) = L.insert (k, v) (deleteKey k (toList t))`.
pub fn insert_model(bst: &Bst, (t, k, v): &(Tree, K, V)) -> Verdict {
    Verdict::check(t.is_bst(), || {
        bst.insert(*k, *v, t).to_list() == insert_sorted((*k, *v), delete_key(*k, t.to_list()))
    })
}

/// `toList (delete k t) = deleteKey k (toList t)`.
pub fn delete_model(bst: &Bst, (t, k): &(Tree, K)) -> Verdict {
    Verdict::check(t.is_bst(), || {
        bst.delete(*k, t).to_list() == delete_key(*k, t.to_list())
    })
}

/// `toList (union t t') = sort (unionBy ((==) `on` fst) (toList t) (toList t'))`.
pub fn union_model(bst: &Bst, (t1, t2): &(Tree, Tree)) -> Verdict {
    Verdict::check(t1.is_bst() && t2.is_bst(), || {
        let left = t1.to_list();
        let mut expected: Vec<(K, V)> = t2
            .to_list()
            .into_iter()
            .filter(|(k, _)| !left.iter().any(|(k1, _)| k1 == k))
            .chain(left.iter().copied())
            .collect();
        expected.sort();
        bst.union(t1, t2).to_list() == expected
    })
}

/// `insert k v (insert k' v' t) =~= (k = k' ? insert k v t : insert k' v' (insert k v t))`.
pub fn insert_insert(bst: &Bst, (t, k, k2, v, v2): &(Tree, K, K, V, V)) -> Verdict {
    Verdict::check(t.is_bst(), || {
        let lhs = bst.insert(*k, *v, &bst.insert(*k2, *v2, t));
        let rhs = if k == k2 {
            bst.insert(*k, *v, t)
        } else {
            bst.insert(*k2, *v2, &bst.insert(*k, *v, t))
        };
        lhs.to_list() == rhs.to_list()
    })
}

/// `insert k v (delete k' t) =~= (k = k' ? insert k v t : delete k' (insert k v t))`.
pub fn insert_delete(bst: &Bst, (t, k, k2, v): &(Tree, K, K, V)) -> Verdict {
    Verdict::check(t.is_bst(), || {
        let lhs = bst.insert(*k, *v, &bst.delete(*k2, t));
        let rhs = if k == k2 {
            bst.insert(*k, *v, t)
        } else {
            bst.delete(*k2, &bst.insert(*k, *v, t))
        };
        lhs.to_list() == rhs.to_list()
    })
}

/// `insert k v (union t t') =~= union (insert k v t) t'`.
pub fn insert_union(bst: &Bst, (t1, t2, k, v): &(Tree, Tree, K, V)) -> Verdict {
    Verdict::check(t1.is_bst() && t2.is_bst(), || {
        let lhs = bst.insert(*k, *v, &bst.union(t1, t2));
        let rhs = bst.union(&bst.insert(*k, *v, t1), t2);
        lhs.to_list() == rhs.to_list()
    })
}

/// `delete k (insert k' v' t) =~= (k = k' ? delete k t : insert k' v' (delete k t))`.
pub fn delete_insert(bst: &Bst, (t, k, k2, v2): &(Tree, K, K, V)) -> Verdict {
    Verdict::check(t.is_bst(), || {
        let lhs = bst.delete(*k, &bst.insert(*k2, *v2, t));
        let rhs = if k == k2 {
            bst.delete(*k, t)
        } else {
            bst.insert(*k2, *v2, &bst.delete(*k, t))
        };
        lhs.to_list() == rhs.to_list()
    })
}

/// `delete k (delete k' t) =~= delete k' (delete k t)`.
pub fn delete_delete(bst: &Bst, (t, k, k2): &(Tree, K, K)) -> Verdict {
    Verdict::check(t.is_bst(), || {
        let lhs = bst.delete(*k, &bst.delete(*k2, t));
        let rhs = bst.delete(*k2, &bst.delete(*k, t));
        lhs.to_list() == rhs.to_list()
    })
}

/// `delete k (union t t') =~= union (delete k t) (delete k t')`.
pub fn delete_union(bst: &Bst, (t1, t2, k): &(Tree, Tree, K)) -> Verdict {
    Verdict::check(t1.is_bst() && t2.is_bst(), || {
        let lhs = bst.delete(*k, &bst.union(t1, t2));
        let rhs = bst.union(&bst.delete(*k, t1), &bst.delete(*k, t2));
        lhs.to_list() == rhs.to_list()
    })
}

/// `union (delete k t) (insert k v t') =~= insert k v (union t t')`.
pub fn union_delete_insert(bst: &Bst, (t1, t2, k, v): &(Tree, Tree, K, V)) -> Verdict {
    Verdict::check(t1.is_bst() && t2.is_bst(), || {
        let lhs = bst.union(&bst.delete(*k, t1), &bst.insert(*k, *v, t2));
        let rhs = bst.insert(*k, *v, &bst.union(t1, t2));
        lhs.to_list() == rhs.to_list()
    })
}

/// `union t t =~= t`.
pub fn union_union_idem(bst: &Bst, t: &Tree) -> Verdict {
    Verdict::check(t.is_bst(), || bst.union(t, t).to_list() == t.to_list())
}

/// `union (union t1 t2) t3 == union t1 (union t2 t3)`, structurally (as in ETNA's Haskell).
pub fn union_union_assoc(bst: &Bst, (t1, t2, t3): &(Tree, Tree, Tree)) -> Verdict {
    Verdict::check(t1.is_bst() && t2.is_bst() && t3.is_bst(), || {
        bst.union(&bst.union(t1, t2), t3) == bst.union(t1, &bst.union(t2, t3))
    })
}

/// The properties by name.
///
/// ```
/// use typefuzz_bench::bst::Property;
/// assert_eq!(Property::ALL.len(), 18);
/// assert_eq!(Property::UnionUnionAssoc.name(), "UnionUnionAssoc");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // each variant is the property of the same name in this module
pub enum Property {
    InsertValid,
    DeleteValid,
    UnionValid,
    InsertPost,
    DeletePost,
    UnionPost,
    InsertModel,
    DeleteModel,
    UnionModel,
    InsertInsert,
    InsertDelete,
    InsertUnion,
    DeleteInsert,
    DeleteDelete,
    DeleteUnion,
    UnionDeleteInsert,
    UnionUnionIdem,
    UnionUnionAssoc,
}

/// Every input any property takes; [`Property::run`] reads the ones its property uses:
/// trees `t1, t2, t3` in that order, keys `k1, k2`, values `v1, v2`.
///
/// ```
/// use typefuzz_bench::bst::{Args, Tree};
/// let args = Args { t1: Tree::E, ..Args::default() };
/// assert_eq!(args.k1, 0);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, typefuzz::Mutate, arbitrary::Arbitrary)]
#[allow(missing_docs)]
pub struct Args {
    pub t1: Tree,
    pub t2: Tree,
    pub t3: Tree,
    pub k1: K,
    pub k2: K,
    pub v1: V,
    pub v2: V,
}

impl Property {
    /// All 18 properties, in the order of ETNA's BST workload.
    pub const ALL: [Property; 18] = [
        Property::InsertValid,
        Property::DeleteValid,
        Property::UnionValid,
        Property::InsertPost,
        Property::DeletePost,
        Property::UnionPost,
        Property::InsertModel,
        Property::DeleteModel,
        Property::UnionModel,
        Property::InsertInsert,
        Property::InsertDelete,
        Property::InsertUnion,
        Property::DeleteInsert,
        Property::DeleteDelete,
        Property::DeleteUnion,
        Property::UnionDeleteInsert,
        Property::UnionUnionIdem,
        Property::UnionUnionAssoc,
    ];

    /// The ETNA name (the variant's name).
    ///
    /// ```
    /// assert_eq!(typefuzz_bench::bst::Property::InsertPost.name(), "InsertPost");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Property::InsertValid => "InsertValid",
            Property::DeleteValid => "DeleteValid",
            Property::UnionValid => "UnionValid",
            Property::InsertPost => "InsertPost",
            Property::DeletePost => "DeletePost",
            Property::UnionPost => "UnionPost",
            Property::InsertModel => "InsertModel",
            Property::DeleteModel => "DeleteModel",
            Property::UnionModel => "UnionModel",
            Property::InsertInsert => "InsertInsert",
            Property::InsertDelete => "InsertDelete",
            Property::InsertUnion => "InsertUnion",
            Property::DeleteInsert => "DeleteInsert",
            Property::DeleteDelete => "DeleteDelete",
            Property::DeleteUnion => "DeleteUnion",
            Property::UnionDeleteInsert => "UnionDeleteInsert",
            Property::UnionUnionIdem => "UnionUnionIdem",
            Property::UnionUnionAssoc => "UnionUnionAssoc",
        }
    }

    /// How many trees the property takes (the trees it reads from [`Args`] are `t1..`).
    ///
    /// ```
    /// use typefuzz_bench::bst::Property;
    /// assert_eq!(Property::UnionUnionAssoc.tree_count(), 3);
    /// ```
    pub fn tree_count(self) -> usize {
        use Property::*;
        match self {
            UnionUnionAssoc => 3,
            UnionValid | UnionPost | UnionModel | InsertUnion | DeleteUnion | UnionDeleteInsert => {
                2
            }
            _ => 1,
        }
    }

    /// Runs the property on the fields of `args` it uses.
    ///
    /// ```
    /// use typefuzz_bench::bst::{Args, Bst, Property, Tree};
    /// use typefuzz_bench::Verdict;
    /// let args = Args { t1: Tree::from_pairs(&[(1, 1)]), ..Args::default() };
    /// assert_eq!(Property::UnionUnionIdem.run(&Bst::correct(), &args), Verdict::Pass);
    /// ```
    pub fn run(self, bst: &Bst, a: &Args) -> Verdict {
        // Cloning the trees into tuples keeps the typed functions the single source of truth;
        // the uniform entry point is for tests and simple drivers, not the timed loops.
        let t = || a.t1.clone();
        match self {
            Property::InsertValid => insert_valid(bst, &(t(), a.k1, a.v1)),
            Property::DeleteValid => delete_valid(bst, &(t(), a.k1)),
            Property::UnionValid => union_valid(bst, &(t(), a.t2.clone())),
            Property::InsertPost => insert_post(bst, &(t(), a.k1, a.k2, a.v1)),
            Property::DeletePost => delete_post(bst, &(t(), a.k1, a.k2)),
            Property::UnionPost => union_post(bst, &(t(), a.t2.clone(), a.k1)),
            Property::InsertModel => insert_model(bst, &(t(), a.k1, a.v1)),
            Property::DeleteModel => delete_model(bst, &(t(), a.k1)),
            Property::UnionModel => union_model(bst, &(t(), a.t2.clone())),
            Property::InsertInsert => insert_insert(bst, &(t(), a.k1, a.k2, a.v1, a.v2)),
            Property::InsertDelete => insert_delete(bst, &(t(), a.k1, a.k2, a.v1)),
            Property::InsertUnion => insert_union(bst, &(t(), a.t2.clone(), a.k1, a.v1)),
            Property::DeleteInsert => delete_insert(bst, &(t(), a.k1, a.k2, a.v1)),
            Property::DeleteDelete => delete_delete(bst, &(t(), a.k1, a.k2)),
            Property::DeleteUnion => delete_union(bst, &(t(), a.t2.clone(), a.k1)),
            Property::UnionDeleteInsert => {
                union_delete_insert(bst, &(t(), a.t2.clone(), a.k1, a.v1))
            }
            Property::UnionUnionIdem => union_union_idem(bst, &a.t1),
            Property::UnionUnionAssoc => union_union_assoc(bst, &(t(), a.t2.clone(), a.t3.clone())),
        }
    }
}
