//! Feedback: what makes an input interesting — the generalized targeted PBT of BACKGROUND.md
//! section 2: a state, an observation per run, and an update that says "interesting".
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
//! The label, target and assume recorders are thread-local: the engine resets them before each
//! property call and reads them after it, so only what the property itself did counts.

pub mod coverage;

pub mod assume;
pub mod labels;
pub mod structure;
pub mod targets;

mod recorder;
mod state;

pub(crate) use recorder::{begin_run, end_run, with_last_run};
pub(crate) use state::{Feature, Feedback, Novelty};
