//! Reporting: the [`Report`] a run returns — its [`Stats`] and, if the property failed, the
//! [`Failure`] with original and minimal input, the seed that replays it and where it was saved.

use std::fmt::{self, Debug};
use std::path::PathBuf;

use crate::{FailureKind, Operator, Stats, StopReason};

/// What [`check`](crate::check) found.
///
/// ```
/// use typefuzz::{check, Config};
/// let report = check(&Config::default().with_seed(3), |cx| cx.generate::<u8>(), |x| *x < 200);
/// let failure = report.failure.as_ref().expect("some u8 is >= 200");
/// assert!(failure.minimal >= 200);
/// ```
#[derive(Clone, Debug)]
pub struct Report<T> {
    /// What the run did.
    pub stats: Stats,
    /// The failure, if the property failed.
    pub failure: Option<Failure<T>>,
}

impl<T: Debug> Report<T> {
    /// Whether the property held for every test.
    ///
    /// ```
    /// let report = typefuzz::check(&typefuzz::Config::default(), |cx| cx.generate::<u8>(), |_| true);
    /// assert!(report.passed());
    /// ```
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }

    /// Panics with the formatted failure if the property failed, or if every test was discarded
    /// (a property that never ran proves nothing); otherwise returns the statistics.
    ///
    /// ```should_panic
    /// typefuzz::check(&typefuzz::Config::default(), |cx| cx.generate::<u8>(), |x| *x < 100).assert_passed();
    /// ```
    pub fn assert_passed(self) -> Stats {
        if let Some(failure) = &self.failure {
            panic!("{failure}");
        }
        if self.stats.valid == 0 && self.stats.tests > 0 {
            panic!(
                "typefuzz: all {} tests were discarded, so the property was never checked; \
                 raise Config::max_discards (TYPEFUZZ_MAX_DISCARDS) or TYPEFUZZ_TIME, or check \
                 the precondition",
                self.stats.tests
            );
        }
        if self.stats.stop == StopReason::Discards {
            eprintln!(
                "typefuzz: stopped after {} discards with only {} valid tests; raise \
                 Config::max_discards (TYPEFUZZ_MAX_DISCARDS) for more",
                self.stats.discards, self.stats.valid
            );
        }
        self.stats
    }
}

/// A failing input, shrunk, with everything needed to understand and replay it.
///
/// ```
/// use typefuzz::{check, Config, FailureKind};
/// let report = check(&Config::default().with_seed(1), |cx| cx.generate::<Vec<u8>>(), |v| {
///     assert!(v.len() < 3, "too long");
/// });
/// let failure = report.failure.unwrap();
/// assert_eq!(failure.kind, FailureKind::Panic);
/// assert_eq!(failure.minimal.len(), 3);
/// assert!(failure.message.contains("too long"));
/// assert!(failure.to_string().contains(&format!("TYPEFUZZ_SEED={}", failure.seed)));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Failure<T> {
    /// The input that failed first.
    pub original: T,
    /// The shrunk input.
    pub minimal: T,
    /// Why the minimal input fails (the panic message with its location, or the returned error).
    pub message: String,
    /// How it fails.
    pub kind: FailureKind,
    /// The run's seed: `TYPEFUZZ_SEED=<seed>` replays it.
    pub seed: u64,
    /// Accepted shrink steps.
    pub shrink_steps: u64,
    /// Shrink candidates tried.
    pub shrink_candidates: u64,
    /// Why shrinking stopped early, naming the knob to raise; `None` if it reached a minimum.
    pub shrink_note: Option<String>,
    /// The mutation operators that produced the failing input from a generated value (most
    /// recent 64), empty if it was generated, replayed or loaded.
    pub operators: Vec<Operator>,
    /// Where the failing input was saved, to be replayed first on the next run.
    pub regression_file: Option<PathBuf>,
    /// The property's name, if configured.
    pub name: Option<String>,
    /// Tests run until the failure.
    pub tests: u64,
    /// Discards until the failure.
    pub discards: u64,
}

impl<T> Failure<T> {
    /// The same failure with its inputs converted by `f` (original first, then minimal): how an
    /// adapter that runs the engine on a representation of its inputs reports the inputs
    /// themselves.
    ///
    /// ```
    /// use typefuzz::{check, Config};
    /// let report = check(&Config::default().with_seed(2), |cx| cx.generate::<u8>(), |x| *x < 100);
    /// let failure = report.failure.expect("fails").map(|x| u32::from(x) * 2);
    /// assert_eq!(failure.minimal, 200);
    /// ```
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> Failure<U> {
        Failure {
            original: f(self.original),
            minimal: f(self.minimal),
            message: self.message,
            kind: self.kind,
            seed: self.seed,
            shrink_steps: self.shrink_steps,
            shrink_candidates: self.shrink_candidates,
            shrink_note: self.shrink_note,
            operators: self.operators,
            regression_file: self.regression_file,
            name: self.name,
            tests: self.tests,
            discards: self.discards,
        }
    }

    /// The typefuzz part of a failure report, for adapters that open with the headline their
    /// framework's users know: the run's statistics, the original input (formatted by the caller,
    /// e.g. with argument names), shrinking, the operators that produced the input, `notes`
    /// (adapter-specific lines), the seed that replays the run and where the input was saved.
    ///
    /// ```
    /// use typefuzz::{check, Config};
    /// let report = check(&Config::default().with_seed(2), |cx| cx.generate::<u8>(), |x| *x < 100);
    /// let failure = report.failure.as_ref().expect("fails");
    /// let details = failure.details(&report.stats, "x = 200", &["shrinking tries yours first"]);
    /// assert!(details.contains("original failing input: x = 200"));
    /// assert!(details.contains("shrinking tries yours first"));
    /// assert!(details.contains(&format!("TYPEFUZZ_SEED={}", failure.seed)));
    /// ```
    pub fn details(&self, stats: &Stats, original: &str, notes: &[&str]) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let name = self
            .name
            .as_deref()
            .map(|n| format!(" `{n}`"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "typefuzz: property{name} failed ({}) after {} tests ({} discarded, {} generated, {} \
             mutated, {} regressions replayed) in {:.2?}; {} seeds kept, {} coverage points",
            self.kind,
            self.tests,
            self.discards,
            stats.generated,
            stats.mutated,
            stats.regressions_replayed,
            stats.elapsed,
            stats.seeds_found,
            stats.coverage_points,
        );
        let _ = writeln!(out, "original failing input: {original}");
        let _ = writeln!(
            out,
            "shrunk in {} steps ({} candidates tried)",
            self.shrink_steps, self.shrink_candidates
        );
        if let Some(note) = &self.shrink_note {
            let _ = writeln!(out, "note: {note}");
        }
        if !self.operators.is_empty() {
            let ops: Vec<&str> = self.operators.iter().map(|op| op.name()).collect();
            let _ = writeln!(out, "produced by: generate, then {}", ops.join(" > "));
        }
        for note in notes {
            let _ = writeln!(out, "{note}");
        }
        let _ = writeln!(out, "replay this run: TYPEFUZZ_SEED={}", self.seed);
        let _ = match &self.regression_file {
            Some(path) => write!(
                out,
                "saved to {} (replayed first on the next run)",
                path.display()
            ),
            None => write!(
                out,
                "not saved: the property has no name and no regression file"
            ),
        };
        out
    }
}

impl<T: Debug> fmt::Display for Failure<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self
            .name
            .as_deref()
            .map(|n| format!(" `{n}`"))
            .unwrap_or_default();
        writeln!(
            f,
            "typefuzz: property{name} failed ({}) after {} tests ({} discarded).",
            self.kind, self.tests, self.discards
        )?;
        writeln!(f, "minimal failing input: {:#?}", self.minimal)?;
        writeln!(f, "original failing input: {:?}", self.original)?;
        writeln!(f, "failure: {}", self.message)?;
        writeln!(
            f,
            "shrunk in {} steps ({} candidates tried)",
            self.shrink_steps, self.shrink_candidates
        )?;
        if let Some(note) = &self.shrink_note {
            writeln!(f, "note: {note}")?;
        }
        if self.operators.is_empty() {
            writeln!(f, "produced by: the generator (no mutation)")?;
        } else {
            let ops: Vec<&str> = self.operators.iter().map(|op| op.name()).collect();
            writeln!(f, "produced by: generate, then {}", ops.join(" > "))?;
        }
        writeln!(f, "replay this run: TYPEFUZZ_SEED={}", self.seed)?;
        match &self.regression_file {
            Some(path) => write!(
                f,
                "saved to {} (replayed first on the next run)",
                path.display()
            ),
            None => write!(
                f,
                "not saved: set Config::name or Config::regressions to keep failing inputs"
            ),
        }
    }
}
