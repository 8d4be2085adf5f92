//! The typefuzz engine: the coverage-guided, property-based testing loop — scheduling,
//! feedback, shrinking, corpus, regression and crash files, workers, reporting — over any type
//! of the type model (`typefuzz-core`: the [`Mutate`] trait and its std impls, the [`Context`],
//! the byte [`codec`], shape [`fingerprint`]s), which it re-exports.
//!
//! The layers, each depending only on those to its right:
//!
//! ```text
//! typefuzz (facade) -> adapters (proptest, quickcheck, libfuzzer, state-machine) -> engine -> core
//!                                                        typefuzz-derive writes impls of core's trait
//! ```
//!
//! The type model knows nothing of the loop: feedback reads inputs through the visitors it
//! defines ([`feedback::structure::Structure`], [`feedback::cmplog::Leaves`]), and what a run
//! hands a type's mutators travels in the [`Context`] ([`check_prepared`]).
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
//!
//! # Writing an adapter
//!
//! An adapter runs a test framework's properties under the engine. The proptest, quickcheck
//! and libFuzzer adapters are built from these pieces only, so a new one needs nothing from
//! them:
//!
//! - [`Config::for_framework`]: the framework's budget ([`Framework`]) and the rest of its
//!   configuration become a [`Config`], with the `TYPEFUZZ_*` variables and the shared budget
//!   policy applied;
//! - [`check`]: the loop, with a generator (the framework's, for seeds) and the property, whose
//!   result the adapter maps to an [`Outcome`] *at its own call site* (the engine knows no
//!   framework's types);
//! - [`run_once`]: one call of a property, classified into a [`Verdict`] (panics caught), for
//!   adapters that run inputs themselves (libFuzzer's target, a replay);
//! - the report: [`Failure::details`] after the framework's own headline, [`DebugArgs`] for the
//!   arguments, [`Report::never_checked`] when everything was discarded, [`Report::cut_short`].
//!
//! ```
//! use typefuzz::{check, Config, DebugArgs, Framework, Outcome};
//!
//! /// The framework's own result type.
//! enum Checked {
//!     Holds,
//!     Skip,
//!     Broken(&'static str),
//! }
//!
//! /// The adapter's one piece of outcome glue.
//! fn outcome(checked: Checked) -> Outcome {
//!     match checked {
//!         Checked::Holds => Outcome::Pass,
//!         Checked::Skip => Outcome::Discard,
//!         Checked::Broken(why) => Outcome::Fail(why.into()),
//!     }
//! }
//!
//! /// What the adapter's macro would expand to: run `property`, panic with a report.
//! fn run_test(cases: u64, property: impl Fn(u8, u8) -> Checked) {
//!     let framework = Framework { name: "checked", cases, max_rejects: 1_000 };
//!     let config = Config::for_framework(framework, |config| config.with_seed(7));
//!     let report = check(&config, |cx| cx.generate::<(u8, u8)>(), |&(a, b)| outcome(property(a, b)));
//!     if let Some(failure) = &report.failure {
//!         let names = ["a", "b"];
//!         panic!(
//!             "checked: falsified by {}\n{}",
//!             failure.minimal.named(&names),
//!             failure.details(&report.stats, &failure.original.named(&names), &[]),
//!         );
//!     }
//!     if let Some(message) = report.never_checked() {
//!         panic!("{message}");
//!     }
//! }
//!
//! run_test(100, |a, b| if a == 0 { Checked::Skip } else if a.checked_add(b).is_some() || a > 0 { Checked::Holds } else { Checked::Broken("overflow") });
//! let falsified = std::panic::catch_unwind(|| run_test(100, |a, _| if a < 200 { Checked::Holds } else { Checked::Broken("too big") }));
//! let message = *falsified.unwrap_err().downcast::<String>().unwrap();
//! assert!(message.starts_with("checked: falsified by a = 200, b = 0"), "{message}");
//! ```
#![deny(missing_docs)]

pub mod feedback;
pub mod workers;

pub use typefuzz_core::{codec, fingerprint, mutate};

mod config;
mod corpus;
mod crash;
mod executor;
mod files;
mod fuzzer;
mod outcome;
mod report;
mod schedule;
mod show;
mod shrink;
mod stats;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use config::{Config, FeedbackSources, Framework, Schedule, DISCARD_TIME};
pub use executor::{run_once, Verdict};
pub use fuzzer::{check, check_described, check_prepared};
pub use outcome::{Discard, Discarded, FailureKind, IntoOutcome, Outcome};
pub use report::{DebugArgs, Failure, InputSource, Report};
pub use show::{elide, format_bounded, MAX_FORMATTED, MAX_SHOWN};
pub use stats::{AssumeStats, LabelStats, Stats, StopReason};
pub use typefuzz_core::{Context, Mutate, Operator, Operators};
