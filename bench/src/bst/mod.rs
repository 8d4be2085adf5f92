//! The ETNA binary-search-tree workload (jwshii/etna `workloads/Haskell/BST`; implementation and
//! properties from Hughes, "How to Specify It!"): [`Tree`] with `i32` keys and values, its
//! operations with 8 run-time switchable [`Mutant`]s, the 18 [`Property`] checks and the 53
//! [`TASKS`].
//!
//! **Semantics.** We follow the Haskell version: the metamorphic properties compare `toList`
//! (`=~=`), except `UnionUnionAssoc`, which compares trees structurally. (The Coq version compares
//! structurally everywhere, which is stronger.) `union` carries fuel like the Coq and Rust ports
//! and returns `E` when it runs out.
//!
//! ```
//! use typefuzz_bench::bst::{properties::insert_post, Bst, Mutant, Tree};
//! use typefuzz_bench::Verdict;
//! let t = Tree::from_pairs(&[(2, 0), (1, 0)]);
//! let input = (t, 3, 3, 7); // find 3 (insert 3 7 t) == Some 7
//! assert_eq!(insert_post(&Bst::correct(), &input), Verdict::Pass);
//! // insert_2 overwrites the root's value instead of going right.
//! assert_eq!(insert_post(&Bst::with_mutant(Some(Mutant::Insert2)), &input), Verdict::Fail);
//! ```

pub mod generate;
pub mod properties;
mod tasks;
mod tree;

pub use properties::{Args, Property};
pub use tasks::{Task, CONTROLS, TASKS};
pub use tree::{Bst, Mutant, Tree, UNION_FUEL};
