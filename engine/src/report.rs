//! Reporting: the [`Report`] a run returns — its [`Stats`] and, if the property failed, the
//! [`Failure`] with original and minimal input, the seed that replays it and where it was saved.

use std::fmt::{self, Debug};
use std::path::PathBuf;

use crate::{format_bounded, FailureKind, Operator, Stats, StopReason, MAX_FORMATTED};

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
    /// Whether the property held for every test and was checked at all: a run whose every
    /// test was discarded ([`never_checked`](Report::never_checked)) proves nothing and has not
    /// passed.
    ///
    /// ```
    /// use typefuzz::{check, Config, Discard};
    /// let config = Config::default().with_max_discards(Some(50));
    /// assert!(check(&config, |cx| cx.generate::<u8>(), |_| true).passed());
    /// let discarded = check(&config, |cx| cx.generate::<u8>(), |_| -> bool { Discard::discard() });
    /// assert!(!discarded.passed());
    /// ```
    pub fn passed(&self) -> bool {
        self.failure.is_none() && self.never_checked().is_none()
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
        if let Some(message) = self.never_checked() {
            panic!("{message}");
        }
        if let Some(note) = self.cut_short() {
            eprintln!("{note}");
        }
        self.stats
    }
}

impl<T> Report<T> {
    /// The one "everything was discarded" message, if every test was discarded: a property that
    /// never ran proves nothing, so every adapter fails the test with this text (after its
    /// framework's own headline, if it has one).
    ///
    /// ```
    /// use typefuzz::{check, Config, Discard};
    /// let config = Config::default().with_max_discards(Some(50));
    /// let report = check(&config, |cx| cx.generate::<u8>(), |_| -> bool { Discard::discard() });
    /// assert!(report.never_checked().unwrap().contains("all 50 tests were discarded"));
    /// assert!(check(&config, |cx| cx.generate::<u8>(), |_| true).never_checked().is_none());
    /// ```
    pub fn never_checked(&self) -> Option<String> {
        let stats = &self.stats;
        (self.failure.is_none() && stats.valid == 0 && stats.tests > 0).then(|| {
            format!(
                "typefuzz: all {} tests were discarded (seed {}), so the property was never \
                 checked; raise Config::max_discards (TYPEFUZZ_MAX_DISCARDS) or TYPEFUZZ_TIME, \
                 or check the precondition",
                stats.tests, stats.seed
            )
        })
    }

    /// A note when the discard budget, not the case count, ended a run that checked something.
    ///
    /// ```
    /// use typefuzz::{check, Config, Discard};
    /// let config = Config::default().with_max_discards(Some(50)).with_seed(1);
    /// let report = check(&config, |cx| cx.generate::<u8>(), |x| -> bool {
    ///     if *x > 3 { Discard::discard() } else { true }
    /// });
    /// assert!(report.cut_short().unwrap().contains("stopped after 50 discards"));
    /// ```
    pub fn cut_short(&self) -> Option<String> {
        let stats = &self.stats;
        (stats.stop == StopReason::Discards && stats.valid > 0).then(|| {
            format!(
                "typefuzz: stopped after {} discards with only {} valid tests (seed {}); for \
                 more, make a campaign (TYPEFUZZ_TIME=5m) or raise Config::max_discards \
                 (TYPEFUZZ_MAX_DISCARDS) / Config::discard_time",
                stats.discards, stats.valid, stats.seed
            )
        })
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
    /// Where the failing input was saved, to be replayed first on the next run; `None` if it
    /// was not saved.
    pub regression_file: Option<PathBuf>,
    /// Why the failing input was not saved although a regression file was configured (the file
    /// is unreadable or not a regular file, the input is deeper than the codec's bound, ...).
    pub not_saved: Option<String>,
    /// What else the engine noticed about this failure (e.g. that it is flaky).
    pub notes: Vec<String>,
    /// The property's name, if configured.
    pub name: Option<String>,
    /// Tests run until the failure.
    pub tests: u64,
    /// Discards until the failure.
    pub discards: u64,
    /// Where the first failing input came from.
    pub source: InputSource,
}

/// Where a failing input came from, which decides what replays it.
///
/// ```
/// use typefuzz::{check, Config, InputSource};
/// let config = Config::default().with_seed(2).with_keep_seeds(false).with_read_env(false);
/// let report = check(&config, |cx| cx.generate::<u8>(), |x| *x < 100);
/// let failure = report.failure.unwrap();
/// assert_eq!(failure.source, InputSource::Search { corpus_loaded: 0, timed: false });
/// assert!(failure.to_string().contains("replay this run: TYPEFUZZ_SEED=2 TYPEFUZZ_CORPUS=off"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputSource {
    /// A saved input replayed first: a regression-file entry, a crash or hang file, or
    /// [`Config::replay_first`](crate::Config::replay_first) (a proptest `cc` seed).
    Regression,
    /// An input of the corpus directory: the test's kept corpus under `target/`, or one the
    /// user named.
    Corpus {
        /// Whether it is the corpus the engine keeps by itself ([`Config::keep_seeds`]),
        /// which a clean checkout does not have.
        ///
        /// [`Config::keep_seeds`]: crate::Config::keep_seeds
        kept: bool,
    },
    /// Found by one of several worker processes ([`Config::jobs`](crate::Config::jobs)), which
    /// shared seeds: no seed replays such a run.
    Workers,
    /// Generated or mutated by this run's search, which started from `corpus_loaded` corpus
    /// inputs, under a time budget (`timed`) or not.
    Search {
        /// Corpus inputs replayed before the search, which shaped it.
        corpus_loaded: u64,
        /// Whether the run had a time budget (where it stops depends on the machine).
        timed: bool,
    },
}

impl InputSource {
    /// The source of the input that failed at test `tests` of a run that replayed
    /// `regressions` saved inputs, then `corpus_loaded` corpus inputs, before its search.
    pub(crate) fn of(
        tests: u64,
        regressions: u64,
        corpus_loaded: u64,
        config: &crate::Config,
    ) -> InputSource {
        if tests <= regressions {
            InputSource::Regression
        } else if tests <= regressions + corpus_loaded {
            InputSource::Corpus {
                kept: config.corpus.is_none(),
            }
        } else {
            InputSource::Search {
                corpus_loaded,
                timed: config.time.is_some(),
            }
        }
    }
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
            not_saved: self.not_saved,
            notes: self.notes,
            name: self.name,
            tests: self.tests,
            discards: self.discards,
            source: self.source,
        }
    }

    /// The typefuzz part of a failure report, for adapters that open with the headline their
    /// framework's users know: the run's statistics, the original input (formatted by the caller,
    /// e.g. with argument names), shrinking, the operators that produced the input, `notes`
    /// (adapter-specific lines), the seed that replays the run and where the input was saved.
    /// `Display` prints the same lines, after the minimal input and the message.
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
        let mut out = String::new();
        // Writing to a `String` cannot fail.
        let _ = self.write_details(&mut out, Some(stats), None, original, notes);
        out
    }

    /// The one rendering of a failure: the headline (with the run's statistics when known),
    /// `lead` (what `Display` shows before the rest: the minimal input and the message), the
    /// original input, shrinking, provenance, `notes`, the replay seed and the regression file.
    fn write_details(
        &self,
        out: &mut dyn fmt::Write,
        stats: Option<&Stats>,
        lead: Option<&str>,
        original: &str,
        notes: &[&str],
    ) -> fmt::Result {
        let name = self
            .name
            .as_deref()
            .map(|n| format!(" `{n}`"))
            .unwrap_or_default();
        write!(
            out,
            "typefuzz: property{name} failed ({}) after {} tests ({} discarded",
            self.kind, self.tests, self.discards
        )?;
        match stats {
            Some(stats) => writeln!(
                out,
                ", {} generated, {} mutated, {} regressions replayed) in {:.2?}; {} seeds kept, \
                 {} coverage points",
                stats.generated,
                stats.mutated,
                stats.regressions_replayed,
                stats.elapsed,
                stats.seeds_found,
                stats.coverage_points,
            )?,
            None => writeln!(out, ")")?,
        }
        if let Some(lead) = lead {
            writeln!(out, "{lead}")?;
        }
        writeln!(out, "original failing input: {original}")?;
        writeln!(
            out,
            "shrunk in {} steps ({} candidates tried)",
            self.shrink_steps, self.shrink_candidates
        )?;
        if let Some(note) = &self.shrink_note {
            writeln!(out, "note: {note}")?;
        }
        if !self.operators.is_empty() {
            let ops: Vec<&str> = self.operators.iter().map(|op| op.name()).collect();
            writeln!(out, "produced by: generate, then {}", ops.join(" > "))?;
        }
        for note in &self.notes {
            writeln!(out, "note: {note}")?;
        }
        for note in notes {
            writeln!(out, "{note}")?;
        }
        self.write_replay(out)?;
        // Never "saved" unless the write succeeded.
        match (&self.regression_file, &self.not_saved) {
            (Some(path), _) => write!(
                out,
                "saved to {} (replayed first on the next run)",
                path.display()
            ),
            (None, Some(why)) => write!(out, "not saved: {why}"),
            (None, None) => write!(
                out,
                "not saved: the property has no name (Config::name) and no regression file \
                 (Config::regressions)"
            ),
        }
    }
}

impl<T> Failure<T> {
    /// Where the input came from, and what replays it on a clean checkout (`check` reads
    /// `TYPEFUZZ_SEED` unless its config has [`read_env`](crate::Config::read_env) off; then
    /// `Config::with_seed` does).
    fn write_replay(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        let seed = self.seed;
        let saved = if self.regression_file.is_some() {
            "the regression file it was saved to replays it first on any checkout"
        } else {
            "it was not saved (below)"
        };
        match self.source {
            InputSource::Regression => writeln!(
                out,
                "found by replaying a saved input (regression file, crash or hang file, or a \
                 proptest seed) on the run's first tests: run the test again to replay it"
            ),
            InputSource::Corpus { kept: true } => writeln!(
                out,
                "found by replaying the kept corpus (target/typefuzz/corpus/), which a clean \
                 checkout does not have, so TYPEFUZZ_SEED={seed} alone does not replay it; \
                 {saved}"
            ),
            InputSource::Corpus { kept: false } => writeln!(
                out,
                "found by replaying the corpus directory (TYPEFUZZ_CORPUS, Config::corpus); \
                 TYPEFUZZ_SEED={seed} with the same directory replays the run; {saved}"
            ),
            InputSource::Workers => writeln!(
                out,
                "found by a worker that shared seeds with others, so no seed replays the run; \
                 {saved}"
            ),
            InputSource::Search {
                corpus_loaded: 0,
                timed,
            } => {
                write!(
                    out,
                    "replay this run: TYPEFUZZ_SEED={seed} TYPEFUZZ_CORPUS=off (or \
                     Config::with_seed({seed}).with_keep_seeds(false))"
                )?;
                if timed {
                    write!(out, " with at least this run's time budget")?;
                }
                writeln!(out)
            }
            InputSource::Search { corpus_loaded, .. } => writeln!(
                out,
                "found by the search after replaying {corpus_loaded} kept corpus inputs, so \
                 TYPEFUZZ_SEED={seed} repeats the run only where that corpus exists; {saved}"
            ),
        }
    }
}

/// The minimal input (`{:#?}`) and the message, then the lines of [`Failure::details`] without
/// the run's statistics. Each input shows at most [`MAX_FORMATTED`] bytes (see
/// [`format_bounded`]).
impl<T: Debug> fmt::Display for Failure<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minimal = format_bounded(MAX_FORMATTED, format_args!("{:#?}", self.minimal));
        let lead = format!(
            "minimal failing input: {minimal}\nfailure: {}",
            self.message
        );
        let original = format_bounded(MAX_FORMATTED, format_args!("{:?}", self.original));
        self.write_details(f, None, Some(&lead), &original, &[])
    }
}

/// Formats a property's argument tuple the way test frameworks print counterexamples: each
/// argument's `Debug` text, comma-separated (quickcheck), or with the argument names (proptest).
/// Implemented for `()` and tuples of up to twelve `Debug` values. The text is bounded like
/// [`format_bounded`]'s, at [`MAX_FORMATTED`] bytes for all the arguments together.
///
/// ```
/// use typefuzz::DebugArgs;
/// assert_eq!((1u8, "a").debug_args(), r#"1, "a""#);
/// assert_eq!((1u8, "a").named(&["x", "y"]), r#"x = 1, y = "a""#);
/// assert_eq!(().debug_args(), "");
/// assert!((vec![0u8; 1 << 20], 1u8).debug_args().len() < 70_000);
/// ```
pub trait DebugArgs {
    /// The arguments' `Debug` texts, comma-separated.
    fn debug_args(&self) -> String {
        self.named(&[])
    }

    /// `names[i] = <Debug of argument i>`, comma-separated; an argument without a name is
    /// printed alone.
    fn named(&self, names: &[&str]) -> String;
}

impl DebugArgs for () {
    fn named(&self, _names: &[&str]) -> String {
        String::new()
    }
}

/// Arguments with their names, displayed as [`DebugArgs::named`] shows them.
struct Named<'a> {
    values: &'a [&'a dyn Debug],
    names: &'a [&'a str],
}

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, value) in self.values.iter().enumerate() {
            if index > 0 {
                f.write_str(", ")?;
            }
            match self.names.get(index) {
                Some(name) => write!(f, "{name} = {value:?}")?,
                None => write!(f, "{value:?}")?,
            }
        }
        Ok(())
    }
}

macro_rules! debug_args {
    ($( ($($name:ident $index:tt),+) )+) => {$(
        impl<$($name: Debug),+> DebugArgs for ($($name,)+) {
            fn named(&self, names: &[&str]) -> String {
                let values: &[&dyn Debug] = &[$(&self.$index),+];
                format_bounded(MAX_FORMATTED, format_args!("{}", Named { values, names }))
            }
        }
    )+};
}

debug_args! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failure whose original and minimal inputs are `input`.
    fn failure_of<T: Clone>(input: T) -> Failure<T> {
        Failure {
            original: input.clone(),
            minimal: input,
            message: "assertion failed".into(),
            kind: FailureKind::Panic,
            seed: 1,
            shrink_steps: 0,
            shrink_candidates: 0,
            shrink_note: None,
            operators: Vec::new(),
            regression_file: None,
            not_saved: None,
            notes: Vec::new(),
            name: None,
            tests: 1,
            discards: 0,
            source: InputSource::Regression,
        }
    }

    #[test]
    fn a_100_mb_input_is_reported_in_bounded_text() {
        let input = vec![7u8; 100 << 20];
        // A failure of a reference: its original and minimal are one 100 MB value.
        let failure = failure_of(&input);
        let report = failure.to_string();
        // The minimal input (pretty) and the original, each stopped at the bound.
        assert_eq!(
            report
                .matches("(formatting stopped after 65536 bytes)")
                .count(),
            2
        );
        assert!(
            report.len() < 2 * MAX_FORMATTED + 2048,
            "{} bytes",
            report.len()
        );
        assert!(report.contains("failure: assertion failed"));
        assert!(report.contains("not saved: the property has no name"));
        let arguments = (failure.minimal, 1u8).named(&["v", "n"]);
        assert!(arguments.starts_with("v = [7, 7, "));
        assert!(arguments.len() < MAX_FORMATTED + 100);
    }

    #[test]
    fn a_million_deep_input_is_reported_without_overflowing_the_stack() {
        /// A list whose derived `Debug` recurses once per level.
        #[derive(Clone, Debug)]
        #[allow(dead_code)] // the fields are read by `Debug` only
        enum List {
            Nil,
            Cons(u32, Box<List>),
        }
        /// Builds it and drops it without recursion (derived `Clone` and drop would
        /// overflow as well: the report is what is under test).
        fn with_deep_list<R>(depth: u32, f: impl FnOnce(&List) -> R) -> R {
            let mut list = List::Nil;
            for value in 0..depth {
                list = List::Cons(value, Box::new(list));
            }
            let result = f(&list);
            let mut next = list;
            while let List::Cons(_, tail) = next {
                next = *tail;
            }
            result
        }
        let (report, arguments) = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| {
                with_deep_list(1_000_000, |list| {
                    // A failure of references: cloning them is shallow.
                    let report = failure_of(list).to_string();
                    let arguments = (list,).debug_args();
                    (report, arguments)
                })
            })
            .unwrap()
            .join()
            .expect("no stack overflow");
        assert!(
            report.contains("minimal failing input: Cons(\n"),
            "{}",
            &report[..200]
        );
        assert!(report.contains("failure: assertion failed"));
        assert!(report.len() < 2 * MAX_FORMATTED + 2048);
        assert!(arguments.starts_with("Cons(999999, Cons(999998, "));
        assert!(arguments.ends_with(')'));
    }
}
