//! The workloads typefuzz is measured on, shared by the benchmark runner and its witness tests.
//!
//! Every workload has its bugs switchable at run time, so one binary runs every mutant:
//!
//! - [`ifc`]: the FuzzChick information-flow-control stack machine, its 20 rule-table mutants
//!   and single-step noninterference (SSNI);
//! - [`bst`]: the ETNA binary search tree with 8 mutants, 18 properties and 53 tasks;
//! - [`stlc`], [`rbt`], [`heap`]: the drop-in comparison's evaluation set (a typed expression
//!   language, a red-black tree, a leftist heap), on which nothing is tuned;
//! - [`branches`]: nested-branch micro-benchmarks ("bad!", the greedy trap, Dan Luu's bit loop,
//!   fuzzcheck's enum vector);
//! - [`cmplog`]: the enum vector and "bad!" with their comparisons visible to input-to-state
//!   mutation, with it on and off;
//! - [`historical`]: real bugs of published crate releases (rangemap, im, smallvec), each against
//!   a later release with the fix as the control;
//! - [`throughput`]: a property without precondition, for tests per second;
//! - [`shrink`]: the shrink benchmark, typefuzz's minimal inputs next to proptest's and
//!   quickcheck's on the same failing inputs;
//! - [`runner`]: the benchmark runner and its report (`cargo run --release -p typefuzz-bench -- quick`).
//!
//! The code the properties run (the IFC machine and SSNI, the nested-branch targets) lives in
//! the `typefuzz-bench-targets` crate and is re-exported here, so that the coverage-only line
//! instruments only it (see [`runner`]).
//!
//! Each workload's module documents its specification (types, generators, properties and
//! injected bugs); every property returns a [`Verdict`].
//!
//! ```
//! use typefuzz_bench::{ifc, Verdict};
//! let rules = ifc::Rules::with_mutant(None);
//! let st = ifc::State::default();
//! // An empty instruction memory has no instruction at the pc: the precondition fails.
//! assert_eq!(ifc::ssni(&rules, &st, &st), Verdict::Discard);
//! ```
#![deny(missing_docs)]

pub mod bst;
pub mod cmplog;
pub mod heap;
pub mod historical;
pub mod ifc;
pub mod rbt;
pub mod runner;
pub mod shrink;
pub mod stlc;
pub mod throughput;

pub use typefuzz_bench_targets::{branches, Verdict};
