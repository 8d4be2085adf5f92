//! The FuzzChick information-flow-control stack machine, its 20 rule-table mutants and SSNI
//! (all in [`typefuzz_bench_targets::ifc`], re-exported here), and [`generate`]: FuzzChick's
//! `(st, st)` seed, the naive pair, the hand-written smart generator, and the proptest /
//! quickcheck baselines.
//!
//! ```
//! use typefuzz_bench::ifc::{ssni, Atom, Instr, Label, Rules, State};
//! use typefuzz_bench::Verdict;
//!
//! // Pushing under a high pc: correct rules keep the pc high, mutant 7 lowers it to ⊥.
//! let st = State {
//!     imem: vec![Instr::Push(0), Instr::Push(0)],
//!     mem: vec![],
//!     stack: vec![],
//!     pc: Atom::new(0, Label::H),
//! };
//! let mut other = st.clone();
//! other.pc = Atom::new(1, Label::H);
//! assert_eq!(ssni(&Rules::with_mutant(None), &st, &other), Verdict::Pass);
//! assert_eq!(ssni(&Rules::with_mutant(Some(7)), &st, &other), Verdict::Fail);
//! ```

pub mod generate;

pub use typefuzz_bench_targets::ifc::*;
