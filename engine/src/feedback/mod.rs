//! Feedback: what makes an input interesting — generalized targeted property-based testing: a
//! state S, an observation of each run, and an update f that folds the observation into S and
//! says whether it changed (the input is "interesting" and kept as a seed).
//!
//! Sources, each switchable in [`FeedbackSources`](crate::FeedbackSources):
//! - [`coverage`]: SanitizerCoverage 8-bit counters, bucketed as AFL does;
//! - [`labels`]: `cover!` / `sometimes!` user coverage points;
//! - [`targets`]: `target!` values, maximized;
//! - [`assume`]: `assume!` closeness-to-true scores, maximized per call site;
//! - [`structure`]: input-structure coverage (constructor paths, value classes), which needs
//!   nothing from the user or the compiler.
//!
//! Validity (discarded or not) decides which queue an interesting input joins; the loop reads it
//! from the [`Outcome`](crate::Outcome).
//!
//! The state (`Feedback`) also keeps the per-`assume!`-site counts and gives the statistics
//! their feedback part (`FeedbackStats`, from `Feedback::snapshot`).
//!
//! The label, target and assume recorders are thread-local: the engine resets them before each
//! property call and reads them after it, so only what the property itself did counts.

pub mod coverage;

pub mod assume;
pub mod cmplog;
pub mod labels;
pub mod structure;
pub mod targets;

mod recorder;
mod snapshot;
mod state;

pub(crate) use recorder::{begin_run, end_run, with_last_run};
pub(crate) use snapshot::FeedbackStats;
pub(crate) use state::{Feature, Feedback, Novelty};
