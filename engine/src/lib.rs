//! The typefuzz engine: the [`Mutate`] trait and its impls for standard types, the byte
//! [`codec`], and the coverage-guided, property-based testing loop.
//!
//! Most users depend on the `typefuzz` facade crate, which re-exports everything here together
//! with `#[derive(Mutate)]` and the proptest, quickcheck and cargo-fuzz adapters.
//!
//! ```
//! use typefuzz::{Context, Mutate};
//! let mut cx = Context::new(1);
//! let mut v: Vec<u8> = cx.generate();
//! cx.mutate(&mut v);
//! ```
#![deny(missing_docs)]

pub mod codec;
pub mod feedback;
pub mod fingerprint;
pub mod mutate;

mod artifacts;
mod config;
mod corpus;
mod crash;
mod executor;
mod fuzzer;
mod outcome;
mod report;
mod schedule;
mod shrink;
mod stats;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use config::{Config, FeedbackSources, Schedule};
pub use fuzzer::check;
pub use mutate::{Context, Mutate, Operator, Operators};
pub use outcome::{Discard, Discarded, FailureKind, IntoOutcome, Outcome};
pub use report::{Failure, Report};
pub use stats::{AssumeStats, LabelStats, Stats, StopReason};
