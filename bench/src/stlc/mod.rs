//! A typed expression language (simply typed lambda calculus with integers, booleans, pairs and
//! `let`): [`Expr`] with de Bruijn variables, [`Typ`], a type checker, a call-by-value
//! small-step evaluator with fuel, a reference evaluator (environments and closures), 13
//! run-time switchable [`Bug`]s and 6 [`Property`] checks whose precondition is "closed and well
//! typed". Part of the evaluation set of the drop-in comparison: nothing is tuned on it.
//!
//! ```
//! use typefuzz_bench::stlc::{Bug, Expr, Property, Stlc, Typ};
//! use typefuzz_bench::Verdict;
//! // (\x: Int. \y: Bool. x) 5
//! let e = Expr::App(
//!     Box::new(Expr::Lam(Typ::Int, Box::new(Expr::Lam(Typ::Bool, Box::new(Expr::Var(1)))))),
//!     Box::new(Expr::Int(5)),
//! );
//! assert_eq!(Property::Preservation.run(&Stlc::correct(), &e), Verdict::Pass);
//! // Substituting under a binder without raising the index replaces `y` instead of `x`.
//! let buggy = Stlc::with_bug(Some(Bug::SubstLamSameIndex));
//! assert_eq!(Property::Preservation.run(&buggy, &e), Verdict::Fail);
//! ```

mod generate;
mod lang;
mod properties;

pub use generate::{expr_strategy, typ_strategy, well_typed};
pub use lang::{Bug, Expr, Obs, Stlc, Typ, FUEL, MAX_NODES};
pub use properties::{Property, CONTROLS, TASKS};
