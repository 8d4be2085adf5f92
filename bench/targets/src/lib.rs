//! The code under test of typefuzz's benchmark: what a property runs, and nothing else.
//!
//! - [`ifc`]: the FuzzChick information-flow-control stack machine, its 20 rule-table mutants
//!   and single-step noninterference (SSNI);
//! - [`branches`]: nested-branch micro-benchmarks ("bad!", the greedy trap, Dan Luu's bit loop,
//!   fuzzcheck's enum vector).
//!
//! It is a crate of its own so that the benchmark's coverage build instruments only this code
//! (`CARGO_TYPEFUZZ_INSTRUMENT=typefuzz_bench_targets`): the benchmark crate around it (runner,
//! generators, baselines, report, charts) holds some 70,000 edge counters, which the engine
//! would otherwise reset and scan around every property call. `typefuzz-bench` re-exports
//! everything here under the same paths (`typefuzz_bench::ifc`, `typefuzz_bench::Verdict`).
//!
//! ```
//! use typefuzz_bench_targets::{ifc, Verdict};
//! let rules = ifc::Rules::with_mutant(None);
//! let st = ifc::State::default();
//! // An empty instruction memory has no instruction at the pc: the precondition fails.
//! assert_eq!(ifc::ssni(&rules, &st, &st), Verdict::Discard);
//! ```
#![deny(missing_docs)]

pub mod branches;
pub mod ifc;
mod verdict;

pub use verdict::Verdict;
