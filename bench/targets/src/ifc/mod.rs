//! The FuzzChick information-flow-control stack machine (Hriţcu et al.; QuickChick
//! `examples/ifc-basic` and branch `FuzzChick` `examples/fuzz-ifc`), its rule table with the 20
//! rule-table mutants, indistinguishability and single-step noninterference (SSNI).
//!
//! Layout: [`machine`] (states and the step function), [`rules`] (the rule table and how the
//! mutants are derived from it), [`indist`] (what a low observer sees) and [`property`] (SSNI).
//! The generators (FuzzChick's `(st, st)` seed, the naive pair, the hand-written smart
//! generator, the baselines' strategies) are the benchmark's, in `typefuzz_bench::ifc::generate`.
//!
//! Deviations from the Coq source, all forced by Rust and none visible to the property:
//! integers are `i64` instead of `Z` (`Add` wraps; a pc of `i64::MAX` does not step);
//! the stack is a `Vec` whose **last** element is the top.
//!
//! ```
//! use typefuzz_bench_targets::ifc::{ssni, Atom, Instr, Label, Rules, State};
//! use typefuzz_bench_targets::Verdict;
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

mod coverage;
pub mod indist;
pub mod machine;
pub mod property;
pub mod rules;

pub use coverage::{set_recording as record_labels, Recording};
pub use indist::{crop_top, indist_state};
pub use machine::{exec, Atom, Instr, Label, StackEntry, State};
pub use property::ssni;
pub use rules::{Rules, MUTANT_COUNT};
