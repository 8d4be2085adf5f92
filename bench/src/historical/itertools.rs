//! itertools: two edge cases of the combinatoric adaptors, each documented in itertools'
//! CHANGELOG: `combinations(0)` of an empty iterator (0.8.2, fixed in 0.9.0 by #383; control
//! 0.12.1) and `multi_cartesian_product` of no iterators (0.12.1, fixed in 0.13.0 by #834/#835;
//! control 0.13.0).
//!
//! ```
//! use typefuzz_bench::historical::{itertools::CombinationsInput, itertools, Build};
//! use typefuzz_bench::Verdict;
//! let input = CombinationsInput { items: vec![1, 2, 3], k: 2 };
//! assert_eq!((itertools::combinations_zero().property)(Build::Buggy, &input), Verdict::Pass);
//! ```

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

use super::{outcome, verdict, Bug, Build, Case, Input};
use crate::Verdict;

/// Inputs above this many results, or longer than [`MAX_LEN`], are outside the properties'
/// domain (discarded), so that a mutated input cannot ask for billions of combinations or a
/// product of thousands of iterators.
const MAX_RESULTS: usize = 4096;

/// The longest `items` / `lists` the properties accept (above the naive strategies' 10).
const MAX_LEN: usize = 16;

/// `items.into_iter().combinations(k)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
pub struct CombinationsInput {
    /// The iterator's elements.
    pub items: Vec<u8>,
    /// The size of each combination.
    pub k: u8,
}

impl Input for CombinationsInput {
    fn strategy() -> BoxedStrategy<Self> {
        (proptest::collection::vec(any::<u8>(), 0..10), any::<u8>())
            .prop_map(|(items, k)| CombinationsInput { items, k })
            .boxed()
    }
}

/// The model: every `k`-subset of positions, in lexicographic order, as values.
fn model_combinations(items: &[u8], k: usize) -> Vec<Vec<u8>> {
    fn extend(items: &[u8], k: usize, from: usize, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if prefix.len() == k {
            out.push(prefix.clone());
            return;
        }
        for i in from..items.len() {
            prefix.push(items[i]);
            extend(items, k, i + 1, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    if k <= items.len() {
        extend(items, k, 0, &mut Vec::new(), &mut out);
    }
    out
}

/// Binomial coefficient, saturating: the number of combinations the property would enumerate.
fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1usize, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// `combinations(k)` yields exactly the model's combinations.
fn combinations_property(build: Build, input: &CombinationsInput) -> Verdict {
    let k = usize::from(input.k);
    if input.items.len() > MAX_LEN || binomial(input.items.len(), k) > MAX_RESULTS {
        return Verdict::Discard;
    }
    let items = input.items.clone();
    let actual: Option<Vec<Vec<u8>>> = match build {
        Build::Buggy => {
            outcome(|| itertools_0_8_2::Itertools::combinations(items.into_iter(), k).collect())
        }
        Build::Fixed => {
            outcome(|| itertools_0_12_1::Itertools::combinations(items.into_iter(), k).collect())
        }
    };
    verdict(actual == Some(model_combinations(&input.items, k)))
}

/// `lists.map(into_iter).multi_cartesian_product()`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
pub struct ProductInput {
    /// One iterator per inner vector.
    pub lists: Vec<Vec<u8>>,
}

impl Input for ProductInput {
    fn strategy() -> BoxedStrategy<Self> {
        proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..10), 0..10)
            .prop_map(|lists| ProductInput { lists })
            .boxed()
    }
}

/// The model: the cartesian product, the last list varying fastest; the product of no lists is
/// one empty tuple.
fn model_product(lists: &[Vec<u8>]) -> Vec<Vec<u8>> {
    // An empty list empties the product: say so before building the (possibly huge) product of
    // the lists in front of it.
    if lists.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    lists.iter().fold(vec![Vec::new()], |acc, list| {
        acc.iter()
            .flat_map(|prefix| {
                list.iter().map(move |&x| {
                    let mut tuple = prefix.clone();
                    tuple.push(x);
                    tuple
                })
            })
            .collect()
    })
}

/// `multi_cartesian_product` yields exactly the model's product.
fn product_property(build: Build, input: &ProductInput) -> Verdict {
    let size = input
        .lists
        .iter()
        .fold(1usize, |acc, list| acc.saturating_mul(list.len()));
    if input.lists.len() > MAX_LEN || size > MAX_RESULTS {
        return Verdict::Discard;
    }
    let lists = input.lists.clone();
    let actual: Option<Vec<Vec<u8>>> = match build {
        Build::Buggy => outcome(|| {
            itertools_0_12_1::Itertools::multi_cartesian_product(lists.into_iter()).collect()
        }),
        Build::Fixed => outcome(|| {
            itertools_0_13_0::Itertools::multi_cartesian_product(lists.into_iter()).collect()
        }),
    };
    verdict(actual == Some(model_product(&input.lists)))
}

/// `combinations(0)` of an empty iterator yields nothing instead of one empty combination.
pub fn combinations_zero() -> Case<CombinationsInput> {
    Case {
        bug: Bug {
            id: "itertools-combinations-zero",
            krate: "itertools",
            buggy: "0.8.2",
            fixed: "0.12.1",
            summary: "combinations(0) of an empty iterator yields no combination (CHANGELOG \
                      0.9.0: \"Fix combinations(0)\", #383)",
        },
        property: combinations_property,
        witness: || CombinationsInput {
            items: vec![],
            k: 0,
        },
    }
}

/// `multi_cartesian_product` of no iterators yields nothing instead of one empty tuple.
pub fn multi_product_empty() -> Case<ProductInput> {
    Case {
        bug: Bug {
            id: "itertools-multi-product-empty",
            krate: "itertools",
            buggy: "0.12.1",
            fixed: "0.13.0",
            summary: "multi_cartesian_product of no iterators yields nothing instead of one empty \
                      tuple (CHANGELOG 0.13.0: \"fixed on an empty iterator\", #834/#835)",
        },
        property: product_property,
        witness: || ProductInput { lists: vec![] },
    }
}
