//! Configuration: one [`Config`] per run — budgets, seed, schedule, feedback sources, persistence.
//!
//! Every field documents its default and, where there is one, the `TYPEFUZZ_*` environment
//! variable that overrides it. [`check`](crate::check) applies the variables to the
//! configuration it is given (unless [`Config::read_env`] is off), and the adapters apply them
//! to the framework's own configuration, so `TYPEFUZZ_TIME=10m cargo test my_property` turns any
//! test into a ten-minute campaign.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::{Mutate, Operators};

/// Which seed scheduling policy the loop uses (see the `schedule` module).
///
/// ```
/// use typefuzz::{Config, Schedule};
/// let faithful = Config::default().with_schedule(Schedule::FuzzChick);
/// assert_eq!(faithful.schedule, Schedule::FuzzChick);
/// assert_eq!(Config::default().schedule, Schedule::Default);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Schedule {
    /// Algorithm 3 of the FuzzChick paper, faithfully: the valid queue's head first, then the
    /// discard queue's head alternating with fresh generation, AFL-style energy, discards a third.
    FuzzChick,
    /// typefuzz's schedule: fresh generation through the user's generator keeps at least half
    /// the work (counted by input size, so large mutants cannot crowd it out) and up to nine
    /// tenths when mutation finds nothing the generator does not reach too; mutation has the
    /// rest: a pool that is revisited, fresh finds first (LIFO), energy doubled for
    /// productive seeds, stacked mutations, favour for seeds that found more.
    #[default]
    Default,
    /// Fresh generation only, never mutation: plain QuickCheck/proptest behaviour, the baseline.
    Generate,
}

/// Which feedback sources make an input interesting. All on by default.
///
/// ```
/// use typefuzz::FeedbackSources;
/// let only_assume = FeedbackSources { assume: true, ..FeedbackSources::none() };
/// assert!(!only_assume.coverage && only_assume.assume);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeedbackSources {
    /// SanitizerCoverage counters (only when the test binary is instrumented, see
    /// `cargo typefuzz test`).
    pub coverage: bool,
    /// `cover!` / `sometimes!` labels.
    pub labels: bool,
    /// `target!` values to maximize.
    pub targets: bool,
    /// `assume!` closeness-to-true scores.
    pub assume: bool,
    /// Size classes of valid inputs: once the property has discarded an input (it has a
    /// precondition), a valid input whose encoding falls in a length class (exact below 64
    /// bytes, quarter-octaves above) where no valid input was seen before is kept.
    /// Needs no instrumentation and no annotation, so a plain `prop_assume!`/`TestResult::discard`
    /// test still climbs from small valid inputs to bigger ones.
    pub valid_sizes: bool,
    /// Input-structure coverage (see [`feedback::structure`](crate::feedback::structure)): an
    /// input showing a constructor path or a value class (zero, boundaries, small, large, a
    /// length class) no earlier input showed is kept. Needs nothing from the user or the
    /// compiler, so the engine keeps seeds and mutates even when nothing else gives feedback.
    /// It is the fallback: once another source finds something new in a run, structure stops
    /// keeping seeds for the rest of that run. Ignored by [`Schedule::FuzzChick`] (the paper's
    /// feedback only) and [`Schedule::Generate`] (which never mutates), and for the valid inputs
    /// of a run that ends within its [fresh prefix](Config::fresh_first) without a campaign's
    /// kept corpus or a corpus directory (a drop-in under a plain `cargo test`): such a run
    /// mutates nothing and keeps no seed for its structure alone.
    pub structure: bool,
    /// Whether structure feedback may observe only a sample of the inputs once no input showed a
    /// new feature for a long stretch (4096 inputs; then one in 2, ... one in 16 as the stretch
    /// doubles; see `feedback::structure`'s `StructureMap`): the walk costs about as much as
    /// building the input, and a quiet map makes almost every walk worthless. Default `true`
    /// since distinct inputs are counted by [`Mutate::hash_value`]
    /// instead of the walk's fingerprint (before, an input the walk skipped had to be encoded to
    /// be counted, which ate the saving). The state-machine drop-in turns it off: its command
    /// sequences' structure features are the model states reached, rare and decisive (with
    /// sampling, seed 4 of the bank test missed its bug in 300,000 tests).
    pub structure_sampling: bool,
}

impl Default for FeedbackSources {
    fn default() -> Self {
        FeedbackSources {
            coverage: true,
            labels: true,
            targets: true,
            assume: true,
            valid_sizes: true,
            structure: true,
            structure_sampling: true,
        }
    }
}

impl FeedbackSources {
    /// No feedback at all: nothing is ever interesting.
    ///
    /// ```
    /// assert!(!typefuzz::FeedbackSources::none().labels);
    /// ```
    pub fn none() -> Self {
        FeedbackSources {
            coverage: false,
            labels: false,
            targets: false,
            assume: false,
            valid_sizes: false,
            structure: false,
            structure_sampling: false,
        }
    }
}

/// A test framework's own budget, as its configuration states it: what an adapter hands to
/// [`Config::for_framework`].
///
/// ```
/// let quickcheck = typefuzz::Framework { name: "quickcheck", cases: 100, max_rejects: 10_000 };
/// assert_eq!(quickcheck.cases, 100);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Framework {
    /// The framework's name, for messages (`"proptest"`, `"quickcheck"`).
    pub name: &'static str,
    /// The non-discarded tests it runs (proptest's `cases`, quickcheck's `tests`).
    pub cases: u64,
    /// The discards after which it gives up (proptest's `max_global_rejects`, quickcheck's
    /// `max_tests`).
    pub max_rejects: u64,
}

/// Everything one run of the engine needs to know besides the generator and the property.
///
/// ```
/// use std::time::Duration;
/// use typefuzz::Config;
/// let config = Config::default().with_cases(1000).with_seed(7).with_time(Duration::from_secs(5));
/// assert_eq!(config.cases, 1000);
/// assert_eq!(config.seed, Some(7));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// Stop after this many non-discarded tests. Default 10,000 for a direct [`check`]: a
    /// coverage-guided search needs more tests than a random tester to climb (tens of
    /// milliseconds for a cheap property in an optimized test build). The proptest and
    /// quickcheck drop-ins use their framework's own count ([`Config::for_framework`]).
    /// `TYPEFUZZ_CASES`.
    ///
    /// [`check`]: crate::check
    /// When `TYPEFUZZ_TIME` is set and `TYPEFUZZ_CASES` is not, [`Config::from_env`] makes this
    /// unlimited: the time budget alone ends the campaign.
    pub cases: u64,
    /// Stop after this many discarded tests; `None` = unlimited. Default `Some(65_536)`:
    /// the engine climbs towards valid inputs, so it affords more discards than proptest's 1024.
    /// `TYPEFUZZ_MAX_DISCARDS`.
    pub max_discards: Option<u64>,
    /// Stop after this many tests in all, valid or discarded; `None` = unlimited. Default `None`.
    /// `TYPEFUZZ_MAX_TESTS`.
    pub max_tests: Option<u64>,
    /// Stop after this much wall-clock time; `None` = unlimited. Default `None`. `TYPEFUZZ_TIME`
    /// (`500ms`, `30s`, `5m`, `2h`, or plain seconds).
    pub time: Option<Duration>,
    /// The run's seed; `None` = a fresh random seed, printed with any failure so it can be
    /// replayed. Default `None`. `TYPEFUZZ_SEED`.
    pub seed: Option<u64>,
    /// The size bound of generation and mutation ([`Context::with_max_size`](crate::Context)).
    /// Fresh generation cycles its size through `0..=max_size`. Default 32. `TYPEFUZZ_MAX_SIZE`.
    pub max_size: usize,
    /// The seed scheduling policy. Default [`Schedule::Default`]. `TYPEFUZZ_SCHEDULE` (`default`,
    /// `fuzzchick` or `generate`).
    pub schedule: Schedule,
    /// The mutation operator weights. Default [`Operators::default`].
    pub operators: Operators,
    /// A corpus directory in libFuzzer's layout (one file per input, named by the SHA-1 of its
    /// bytes): loaded at start, interesting inputs written to it. Default `None`.
    /// `TYPEFUZZ_CORPUS=<dir>`; with a [`name`](Config::name) the test's corpus is
    /// `<dir>/<name>/`, so tests of different types sharing one variable do not mix.
    pub corpus: Option<PathBuf>,
    /// The regression file: failing inputs are saved there and replayed first on every run.
    /// Default `None`, which means `$CARGO_MANIFEST_DIR/typefuzz-regressions/<name>.txt` when
    /// [`name`](Config::name) is set, and no persistence otherwise. `TYPEFUZZ_REGRESSIONS`.
    /// A directory (one that exists, or a path ending in `/`) holds one file per test,
    /// `<dir>/<name>.txt`, so tests sharing the variable never share a file. Entries record the
    /// [fingerprint](crate::fingerprint) of the type that wrote them and are replayed only into
    /// that shape. Inputs that ended the process (crash, hang) are saved as `crash-<sha1>` and
    /// `hang-<sha1>` in `<file stem>.artifacts/` beside the file and replayed first.
    pub regressions: Option<PathBuf>,
    /// The property's name (adapters use the test's path), used for file names and reports.
    /// Default `None`.
    pub name: Option<String>,
    /// Live status line on stderr (and, with its first line, the note that coverage is off):
    /// `Some(true)` always, `Some(false)` never, `None` for campaigns (a [`time`](Config::time)
    /// budget, `TYPEFUZZ_TIME` or `TYPEFUZZ_CASES`) once they are about two seconds old, so a
    /// plain `cargo test` prints nothing between libtest's lines. Default `None`.
    /// `TYPEFUZZ_PROGRESS` (`1`/`0`).
    pub progress: Option<bool>,
    /// A property call running longer than this is a hang: its input is saved to a `hang-<hash>`
    /// file in the test's artifact directory (beside the regression file), the seed and the
    /// replay command are printed, and the process exits with status 70, so a hanging property
    /// fails `cargo test` instead of hanging CI. The next run replays the input first.
    /// Default 10 s; `None` or a zero duration means no limit. `TYPEFUZZ_TEST_TIMEOUT` (`0` for
    /// none).
    pub test_timeout: Option<Duration>,
    /// Wall-clock bound on shrinking a failure. Default 30 s. `TYPEFUZZ_SHRINK_TIME`.
    pub shrink_time: Duration,
    /// Bound on the shrink candidates tried. Default 100,000. `TYPEFUZZ_SHRINK_STEPS`.
    pub shrink_steps: u64,
    /// Which feedback sources count. Default all.
    pub feedback: FeedbackSources,
    /// In-memory bound on each seed queue (valid, discarded). Default 4096.
    pub max_queue: usize,
    /// Fresh tests first: the schedule generates (never mutates) until this many fresh inputs
    /// passed the precondition, or [`fresh_first_discards`](Config::fresh_first_discards) were
    /// discarded, whichever comes first: so a drop-in's run starts exactly as the plain
    /// framework's does, up to where the framework would stop (its case count, or its give-up
    /// point), and under a plain `cargo test` it tests at least the fresh values the framework
    /// would (plus the seeds it replays). Mutation and the work shares ([`Schedule::Default`])
    /// start after. Default 0 for a direct [`check`](crate::check); the drop-ins set their
    /// framework's default case count (proptest's 256, quickcheck's 100, or `PROPTEST_CASES` /
    /// `QUICKCHECK_TESTS`), at most their configured count: a test that asks for more cases
    /// than the default gets the default fresh, then the shares. No variable.
    ///
    /// ```
    /// use typefuzz::{check, Config};
    /// let config = Config::default().with_seed(1).with_cases(500).with_fresh_first(300, 1_000);
    /// let report = check(&config, |cx| cx.generate::<u8>(), |_| ());
    /// assert!(report.stats.generated >= 300);
    /// ```
    pub fresh_first: u64,
    /// Fresh discards that end the [`fresh_first`](Config::fresh_first) prefix: the drop-ins
    /// set their framework's give-up point (proptest's `max_global_rejects`, quickcheck's
    /// `max_tests`), past which the framework would have stopped and the engine climbs out of
    /// the discards by mutation instead. Default `u64::MAX`. No variable.
    pub fresh_first_discards: u64,
    /// Discards are bounded by time instead of by count: once the run has lasted this long and
    /// at least as many tests were discarded as passed, it stops ([`StopReason::Discards`]).
    /// A property that rarely discards runs its full case count however slow it is; one that
    /// mostly discards costs at most about this long. Default `None` (no such bound);
    /// [`Config::for_framework`] sets [`DISCARD_TIME`] for a drop-in outside a campaign.
    ///
    /// [`StopReason::Discards`]: crate::StopReason::Discards
    pub discard_time: Option<Duration>,
    /// Whether a named run keeps the seeds it found under
    /// `target/typefuzz/corpus/<name>-<fingerprint of the input type>.seeds` and starts from
    /// them the next time, so repeated `cargo test` runs keep climbing where the last one
    /// stopped (see [`corpus_path`](Config::corpus_path)). Default `true`;
    /// `TYPEFUZZ_CORPUS=off` turns it off, `TYPEFUZZ_CORPUS=<dir>` puts the corpus elsewhere.
    ///
    /// The seeds kept are those that found something about the property (coverage, a label, a
    /// target or `assume!` score, a valid input of a new size); a campaign also keeps those
    /// found for their input structure alone. It costs no more as runs add up: the file is read
    /// once when a run starts and written once when it ends, if the run changed it;
    /// a run replays at most a quarter of its own budget from it (the most
    /// recently useful seeds, and a few of the oldest in turn), and removes the seeds it found
    /// redundant, keeping the file to at most four times that (at least 64 seeds, and never
    /// more than 4096 seeds or 4 MiB). A campaign (a [`time`](Config::time) budget, or more
    /// cases than the default) removes nothing and marks the seeds it left; later runs keep all
    /// of them. A directory the user names (`TYPEFUZZ_CORPUS=<dir>`,
    /// [`corpus`](Config::corpus)) is replayed in full and never pruned.
    pub keep_seeds: bool,
    /// Worker processes that run this one property together, sharing seeds through the corpus
    /// directory (see [`workers`](crate::workers)). Default 1 (the run stays in this process).
    /// `TYPEFUZZ_JOBS`; `cargo typefuzz test -j N` sets it.
    pub jobs: usize,
    /// Whether [`check`](crate::check) applies the `TYPEFUZZ_*` environment variables
    /// ([`apply_env`](Config::apply_env)) on top of this configuration before it runs. Default
    /// `true`, so every test written against `check` honours `TYPEFUZZ_TIME`, `TYPEFUZZ_SEED`,
    /// `TYPEFUZZ_JOBS` and the rest; `apply_env` turns it off once it has applied them (they
    /// apply once). Turn it off ([`with_read_env(false)`](Config::with_read_env)) for a run
    /// whose configuration must stay exactly as written: a benchmark's trials, a test of the
    /// engine's own behaviour at a fixed budget.
    ///
    /// ```
    /// use typefuzz::Config;
    /// assert!(Config::default().read_env);
    /// assert!(!Config::default().apply_env().read_env, "applied once");
    /// assert!(!Config::default().with_read_env(false).read_env);
    /// ```
    pub read_env: bool,
    /// Inputs (codec bytes, [`codec::to_bytes`](crate::codec::to_bytes)) replayed first, after
    /// the regression file's entries and before the corpus, and counted as regressions
    /// replayed ([`Stats::regressions_replayed`](crate::Stats::regressions_replayed)). Default
    /// empty. The proptest drop-in puts the values of the test's `.proptest-regressions` seeds
    /// here, so a checked-in failure fails the next run at once, as under plain proptest.
    ///
    /// ```
    /// use typefuzz::{check, codec, Config};
    /// let config = Config::default().with_seed(1).with_replay_first(vec![codec::to_bytes(&250u8)]);
    /// let report = check(&config, |cx| cx.generate::<u8>(), |x| *x < 200);
    /// assert_eq!(report.failure.unwrap().tests, 1, "the saved input fails first");
    /// assert_eq!(report.stats.regressions_replayed, 1);
    /// ```
    pub replay_first: Vec<Vec<u8>>,
    /// Whether `TYPEFUZZ_CASES` or `TYPEFUZZ_TIME` made this run a campaign (for the status
    /// line, [`status_line`](Config::status_line)).
    campaign: bool,
}

/// The wall-clock bound on a drop-in's discards under a plain `cargo test` (see
/// [`Config::discard_time`]): long enough to climb out of a sparse precondition for a while
/// (tens of thousands of tests of a cheap property in a debug build), short enough that a suite
/// of such tests stays a CI job: it is what a property that discards (nearly) everything costs,
/// where plain quickcheck stops after 10,000 tests and proptest after 1,024 rejects. The corpus
/// kept across runs ([`Config::keep_seeds`]) carries the climb on; `TYPEFUZZ_TIME` makes a
/// campaign instead.
pub const DISCARD_TIME: Duration = Duration::from_secs(2);

impl Default for Config {
    fn default() -> Self {
        Config {
            cases: 10_000,
            max_discards: Some(65_536),
            max_tests: None,
            time: None,
            seed: None,
            max_size: crate::Context::DEFAULT_MAX_SIZE,
            schedule: Schedule::Default,
            operators: Operators::default(),
            corpus: None,
            regressions: None,
            name: None,
            progress: None,
            test_timeout: Some(Duration::from_secs(10)),
            shrink_time: Duration::from_secs(30),
            shrink_steps: 100_000,
            feedback: FeedbackSources::default(),
            max_queue: 4096,
            fresh_first: 0,
            fresh_first_discards: u64::MAX,
            discard_time: None,
            keep_seeds: true,
            jobs: 1,
            read_env: true,
            replay_first: Vec::new(),
            campaign: false,
        }
    }
}

macro_rules! builder {
    ($(#[$doc:meta] $method:ident($field:ident: $ty:ty) => $value:expr;)*) => {
        impl Config {
            $(
                #[$doc]
                pub fn $method(mut self, $field: $ty) -> Self {
                    self.$field = $value;
                    self
                }
            )*
        }
    };
}

builder! {
    /// Sets [`cases`](Config::cases). `assert_eq!(typefuzz::Config::default().with_cases(9).cases, 9);`
    with_cases(cases: u64) => cases;
    /// Sets [`max_discards`](Config::max_discards).
    with_max_discards(max_discards: Option<u64>) => max_discards;
    /// Sets [`max_tests`](Config::max_tests).
    with_max_tests(max_tests: u64) => Some(max_tests);
    /// Sets the wall-clock budget [`time`](Config::time).
    with_time(time: Duration) => Some(time);
    /// Sets the [`seed`](Config::seed).
    with_seed(seed: u64) => Some(seed);
    /// Sets [`max_size`](Config::max_size).
    with_max_size(max_size: usize) => max_size;
    /// Sets the [`schedule`](Config::schedule).
    with_schedule(schedule: Schedule) => schedule;
    /// Sets the mutation [`operators`](Config::operators).
    with_operators(operators: Operators) => operators;
    /// Sets the [`corpus`](Config::corpus) directory.
    with_corpus(corpus: impl Into<PathBuf>) => Some(corpus.into());
    /// Sets the [`regressions`](Config::regressions) file.
    with_regressions(regressions: impl Into<PathBuf>) => Some(regressions.into());
    /// Sets the property's [`name`](Config::name).
    with_name(name: impl Into<String>) => Some(name.into());
    /// Sets [`progress`](Config::progress).
    with_progress(progress: bool) => Some(progress);
    /// Sets the per-test time limit [`test_timeout`](Config::test_timeout).
    with_test_timeout(test_timeout: Duration) => Some(test_timeout);
    /// Sets [`shrink_time`](Config::shrink_time).
    with_shrink_time(shrink_time: Duration) => shrink_time;
    /// Sets [`shrink_steps`](Config::shrink_steps).
    with_shrink_steps(shrink_steps: u64) => shrink_steps;
    /// Sets the [`feedback`](Config::feedback) sources.
    with_feedback(feedback: FeedbackSources) => feedback;
    /// Sets [`max_queue`](Config::max_queue).
    with_max_queue(max_queue: usize) => max_queue.max(1);
    /// Sets [`discard_time`](Config::discard_time).
    with_discard_time(discard_time: Option<Duration>) => discard_time;
    /// Sets [`keep_seeds`](Config::keep_seeds).
    with_keep_seeds(keep_seeds: bool) => keep_seeds;
    /// Sets [`jobs`](Config::jobs) (at least 1).
    with_jobs(jobs: usize) => jobs.max(1);
    /// Sets [`read_env`](Config::read_env).
    with_read_env(read_env: bool) => read_env;
    /// Sets [`replay_first`](Config::replay_first).
    with_replay_first(replay_first: Vec<Vec<u8>>) => replay_first;
}

impl Config {
    /// Sets [`fresh_first`](Config::fresh_first) and
    /// [`fresh_first_discards`](Config::fresh_first_discards).
    /// `assert_eq!(typefuzz::Config::default().with_fresh_first(9, 40).fresh_first_discards, 40);`
    pub fn with_fresh_first(mut self, valid: u64, discards: u64) -> Self {
        self.fresh_first = valid;
        self.fresh_first_discards = discards;
        self
    }
}

impl Config {
    /// Whether the status line is printed (see [`progress`](Config::progress)): `Some(false)`
    /// for a run that is not a campaign and did not ask for it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use typefuzz::Config;
    /// assert_eq!(Config::default().status_line(), Some(false));
    /// assert_eq!(Config::default().with_time(Duration::from_secs(60)).status_line(), None);
    /// assert_eq!(Config::default().with_progress(true).status_line(), Some(true));
    /// ```
    pub fn status_line(&self) -> Option<bool> {
        match self.progress {
            None if self.time.is_none() && !self.campaign => Some(false),
            progress => progress,
        }
    }

    /// The feedback sources the loop uses: [`feedback`](Config::feedback), without structure
    /// coverage under the schedules that ignore it.
    pub(crate) fn effective_feedback(&self) -> FeedbackSources {
        let mut sources = self.feedback;
        sources.structure &= self.schedule == Schedule::Default;
        sources
    }

    /// The defaults with the `TYPEFUZZ_*` environment variables applied.
    ///
    /// ```
    /// let config = typefuzz::Config::from_env();
    /// # let _ = config;
    /// ```
    pub fn from_env() -> Self {
        Config::default().apply_env()
    }

    /// Applies the `TYPEFUZZ_*` environment variables on top of `self` (adapters call this after
    /// translating their framework's own configuration, so the variables win).
    ///
    /// Durations (`TYPEFUZZ_TIME`, `TYPEFUZZ_TEST_TIMEOUT`, `TYPEFUZZ_SHRINK_TIME`) are read by
    /// [humantime](https://docs.rs/humantime): `250ms`, `90s`, `5m`, `1h30m`, `2days`; a bare
    /// number is seconds. Any other malformed value, or a number too large for its field, is
    /// reported on stderr, naming the variable, and ignored. `TYPEFUZZ_TEST_TIMEOUT=0` means no
    /// per-test limit.
    ///
    /// # Panics
    ///
    /// A zero budget (`TYPEFUZZ_CASES=0`, `TYPEFUZZ_TIME=0`, `TYPEFUZZ_MAX_DISCARDS=0`) would run
    /// no test and pass, proving nothing: it fails the test with a message naming the variable.
    /// So does a duration that does not parse (`TYPEFUZZ_TIME=ten minutes`): ignoring it would turn a
    /// campaign into a two-second test that passes, or drop a time limit the user set.
    ///
    /// ```
    /// let config = typefuzz::Config::default().with_cases(10).apply_env();
    /// # let _ = config;
    /// ```
    pub fn apply_env(self) -> Self {
        self.apply_vars(|name| std::env::var(name).ok())
    }

    /// [`apply_env`](Config::apply_env) over any variable lookup (what the tests use).
    pub(crate) fn apply_vars(mut self, var: impl Fn(&str) -> Option<String>) -> Self {
        self.read_env = false;
        let read = |name: &str| {
            var(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let zero_budgets: Vec<String> =
            ["TYPEFUZZ_CASES", "TYPEFUZZ_TIME", "TYPEFUZZ_MAX_DISCARDS"]
                .into_iter()
                .filter_map(|name| {
                    let value = read(name)?;
                    let zero = if name == "TYPEFUZZ_TIME" {
                        parse_duration(&value).is_ok_and(|d| d.is_zero())
                    } else {
                        parse_u64(&value) == Ok(0)
                    };
                    zero.then(|| format!("{name}={value}"))
                })
                .collect();
        if !zero_budgets.is_empty() {
            panic!(
                "typefuzz: {} is a zero budget: no test would run and the property would pass \
                 unchecked; unset it or give it a positive value (e.g. TYPEFUZZ_CASES=1000, \
                 TYPEFUZZ_TIME=30s)",
                zero_budgets.join(" and ")
            );
        }
        let cases =
            read("TYPEFUZZ_CASES").and_then(|v| parse_or_warn("TYPEFUZZ_CASES", &v, parse_u64));
        let time = read("TYPEFUZZ_TIME").map(|v| duration_or_panic("TYPEFUZZ_TIME", &v));
        self.campaign |= cases.is_some() || time.is_some();
        if let Some(time) = time {
            self.time = Some(time);
            if cases.is_none() {
                // A campaign: the clock alone ends it.
                self.cases = u64::MAX;
                self.max_discards = None;
            }
        }
        if let Some(cases) = cases {
            self.cases = cases;
        }
        if let Some(v) = read("TYPEFUZZ_MAX_DISCARDS") {
            if let Some(n) = parse_or_warn("TYPEFUZZ_MAX_DISCARDS", &v, parse_u64) {
                self.max_discards = Some(n);
            }
        }
        if let Some(v) = read("TYPEFUZZ_MAX_TESTS") {
            if let Some(n) = parse_or_warn("TYPEFUZZ_MAX_TESTS", &v, parse_u64) {
                self.max_tests = Some(n);
            }
        }
        if let Some(v) = read("TYPEFUZZ_SEED") {
            if let Some(seed) = parse_or_warn("TYPEFUZZ_SEED", &v, parse_u64) {
                self.seed = Some(seed);
            }
        }
        if let Some(v) = read("TYPEFUZZ_MAX_SIZE") {
            if let Some(n) = parse_or_warn("TYPEFUZZ_MAX_SIZE", &v, parse_u64) {
                match usize::try_from(n) {
                    Ok(n) => self.max_size = n,
                    Err(_) => eprintln!(
                        "typefuzz: ignoring TYPEFUZZ_MAX_SIZE={v:?}: it does not fit in this \
                         platform's usize"
                    ),
                }
            }
        }
        if let Some(dir) = read("TYPEFUZZ_CORPUS") {
            if dir.eq_ignore_ascii_case("off") {
                self.keep_seeds = false;
                self.corpus = None;
            } else {
                let dir = PathBuf::from(dir);
                self.corpus = Some(match &self.name {
                    Some(name) => dir.join(file_name(name)),
                    None => dir,
                });
            }
        }
        if let Some(file) = read("TYPEFUZZ_REGRESSIONS") {
            self.regressions = Some(PathBuf::from(file));
        }
        if let Some(v) = read("TYPEFUZZ_PROGRESS") {
            if let Some(p) = parse_or_warn("TYPEFUZZ_PROGRESS", &v, parse_bool) {
                self.progress = Some(p);
            }
        }
        if let Some(v) = read("TYPEFUZZ_TEST_TIMEOUT") {
            let d = duration_or_panic("TYPEFUZZ_TEST_TIMEOUT", &v);
            self.test_timeout = (!d.is_zero()).then_some(d);
        }
        if let Some(v) = read("TYPEFUZZ_SHRINK_TIME") {
            self.shrink_time = duration_or_panic("TYPEFUZZ_SHRINK_TIME", &v);
        }
        if let Some(v) = read("TYPEFUZZ_SHRINK_STEPS") {
            if let Some(n) = parse_or_warn("TYPEFUZZ_SHRINK_STEPS", &v, parse_u64) {
                self.shrink_steps = n;
            }
        }
        if let Some(v) = read("TYPEFUZZ_SCHEDULE") {
            match v.to_ascii_lowercase().as_str() {
                "default" => self.schedule = Schedule::Default,
                "fuzzchick" => self.schedule = Schedule::FuzzChick,
                "generate" => self.schedule = Schedule::Generate,
                _ => eprintln!(
                    "typefuzz: ignoring TYPEFUZZ_SCHEDULE={v:?}: expected default, fuzzchick or \
                     generate"
                ),
            }
        }
        if let Some(v) = read("TYPEFUZZ_JOBS") {
            match parse_or_warn("TYPEFUZZ_JOBS", &v, parse_u64) {
                Some(0) => {
                    eprintln!("typefuzz: ignoring TYPEFUZZ_JOBS=0: at least one worker runs")
                }
                Some(n) => self.jobs = usize::try_from(n).unwrap_or(usize::MAX),
                None => {}
            }
        }
        self
    }

    /// The configuration of a drop-in test: the budget policy every adapter shares, in one place.
    ///
    /// `settings` translates the rest of the framework's configuration (seed, name, time limits)
    /// onto the engine's; then the `TYPEFUZZ_*` variables apply ([`apply_env`](Config::apply_env)),
    /// so they win; then the budget policy, which has two modes:
    /// - **plain `cargo test`** (neither `TYPEFUZZ_TIME` nor `TYPEFUZZ_CASES` set): the test costs
    ///   what the framework would. It runs the framework's case count, counted as the framework
    ///   counts it (non-discarded tests: proptest's 256, quickcheck's 100 by default). Discards
    ///   never abort the run; they are bounded by time instead ([`discard_time`] =
    ///   [`DISCARD_TIME`]), not by the framework's reject limit, since typefuzz climbs out of
    ///   discards where the framework would give up (`TYPEFUZZ_MAX_DISCARDS` still caps them);
    /// - **campaign** (`TYPEFUZZ_TIME` and/or `TYPEFUZZ_CASES`): the run spends what it is given:
    ///   `TYPEFUZZ_CASES` cases exactly, or with `TYPEFUZZ_TIME` alone as many as the time allows;
    ///   no discard time bound (with `TYPEFUZZ_CASES` alone, discards are capped by count:
    ///   [`max_discards`], at least the framework's reject limit).
    ///
    /// Either way a named run keeps its seeds across runs ([`keep_seeds`]).
    ///
    /// [`discard_time`]: Config::discard_time
    /// [`max_discards`]: Config::max_discards
    /// [`keep_seeds`]: Config::keep_seeds
    ///
    /// ```
    /// use typefuzz::{Config, Framework};
    /// let proptest = Framework { name: "proptest", cases: 256, max_rejects: 1024 };
    /// let config = Config::for_framework(proptest, |config| config.with_name("my_crate::prop"));
    /// assert_eq!(config.name.as_deref(), Some("my_crate::prop"));
    /// # if std::env::var_os("TYPEFUZZ_CASES").is_none() && std::env::var_os("TYPEFUZZ_TIME").is_none() {
    /// assert_eq!(config.cases, 256);
    /// assert_eq!(config.discard_time, Some(typefuzz::DISCARD_TIME));
    /// # }
    /// ```
    pub fn for_framework(framework: Framework, settings: impl FnOnce(Config) -> Config) -> Config {
        Config::for_framework_vars(framework, settings, |name| std::env::var(name).ok())
    }

    /// [`for_framework`](Config::for_framework) over any variable lookup (what the tests use).
    pub(crate) fn for_framework_vars(
        framework: Framework,
        settings: impl FnOnce(Config) -> Config,
        var: impl Fn(&str) -> Option<String>,
    ) -> Config {
        let given = |name: &str, valid: fn(&str) -> bool| {
            var(name).is_some_and(|value| valid(value.trim()))
        };
        let campaign = given("TYPEFUZZ_CASES", |v| parse_u64(v).is_ok())
            || given("TYPEFUZZ_TIME", |v| parse_duration(v).is_ok());
        let budget = Config::default()
            .with_cases(framework.cases)
            .with_max_discards(None)
            .with_discard_time(Some(DISCARD_TIME));
        let mut config = settings(budget).apply_vars(&var);
        if campaign {
            config.discard_time = None;
            if config.time.is_none() && config.max_discards.is_none() {
                config.max_discards = Config::default()
                    .max_discards
                    .map(|max| max.max(framework.max_rejects));
            }
        }
        config
    }

    /// Where this run's corpus lives, for inputs of type `T`: the directory
    /// [`corpus`](Config::corpus) if set; otherwise, for a named run that
    /// [keeps its seeds](Config::keep_seeds), the file
    /// `<target>/typefuzz/corpus/<name>-<fingerprint of T>.seeds`, where `<target>` is cargo's
    /// target directory (`CARGO_TARGET_DIR`, else the directory above the running test binary
    /// that holds cargo's `CACHEDIR.TAG` or `.rustc_info.json`, else such a `target/` beside
    /// `$CARGO_MANIFEST_DIR` or an ancestor), where nothing is committed; with no target
    /// directory found, no corpus. The fingerprint
    /// ([`fingerprint::of`](crate::fingerprint::of), the type's shape) keeps a test whose argument
    /// types changed from loading seeds of the old shape.
    ///
    /// ```
    /// let config = typefuzz::Config::default().with_name("my_crate::prop");
    /// # if std::env::var_os("TYPEFUZZ_CORPUS").is_none() {
    /// if let Some(dir) = config.corpus_path::<Vec<u8>>() {
    ///     assert!(dir.to_string_lossy().contains("typefuzz/corpus/my_crate-prop-"));
    ///     assert_ne!(Some(dir), config.corpus_path::<Vec<u16>>());
    /// }
    /// # }
    /// assert_eq!(config.with_keep_seeds(false).corpus_path::<u8>(), None);
    /// ```
    pub fn corpus_path<T: Mutate>(&self) -> Option<PathBuf> {
        if self.corpus.is_some() {
            return corpus_dir(self);
        }
        let name = self.name.as_ref().filter(|_| self.keep_seeds)?;
        let file = format!(
            "{}-{:016x}.{}",
            file_name(name),
            crate::fingerprint::of::<T>(),
            crate::corpus::kept::EXTENSION
        );
        Some(target_dir()?.join("typefuzz").join("corpus").join(file))
    }

    /// Where failing inputs are saved: [`regressions`](Config::regressions), or the default path
    /// derived from [`name`](Config::name), or nowhere.
    ///
    /// ```
    /// let config = typefuzz::Config::default().with_regressions("/tmp/r.txt");
    /// assert_eq!(config.regression_path().unwrap(), std::path::Path::new("/tmp/r.txt"));
    /// assert!(typefuzz::Config::default().regression_path().is_none());
    /// ```
    pub fn regression_path(&self) -> Option<PathBuf> {
        if let Some(path) = &self.regressions {
            // A directory holds one file per test, so tests sharing the variable never share
            // a file.
            let is_dir = path.is_dir() || path.as_os_str().to_string_lossy().ends_with('/');
            return Some(if is_dir {
                let name = self.name.as_deref().unwrap_or("property");
                path.join(format!("{}.txt", file_name(name)))
            } else {
                path.clone()
            });
        }
        let name = self.name.as_ref()?;
        let base = std::env::var_os("CARGO_MANIFEST_DIR")
            .map(PathBuf::from)
            .unwrap_or_default();
        Some(
            base.join("typefuzz-regressions")
                .join(format!("{}.txt", file_name(name))),
        )
    }
}

/// Files cargo keeps at the root of a target directory (and nowhere below it).
const CARGO_TARGET_MARKERS: [&str; 2] = ["CACHEDIR.TAG", ".rustc_info.json"];

/// Cargo's target directory for the running test: `CARGO_TARGET_DIR`; else the nearest
/// directory above the executable that holds cargo's root files ([`CARGO_TARGET_MARKERS`]; a
/// test binary lives in `<target>/[<triple>/]<profile>/deps/`); else, for doctests (whose
/// binaries live in a temporary directory), the `target/` holding those files next to
/// `$CARGO_MANIFEST_DIR` or one of its ancestors (the workspace's); else none, and the run keeps
/// no corpus rather than create a `target/` in the source tree.
fn target_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let is_target = |dir: &Path| CARGO_TARGET_MARKERS.iter().any(|m| dir.join(m).is_file());
    // Found once per process: every named run asks.
    static ABOVE_EXE: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let above_exe = ABOVE_EXE.get_or_init(|| {
        let exe = std::env::current_exe().ok()?;
        let dir = exe.ancestors().skip(1).find(|dir| is_target(dir))?;
        Some(dir.to_path_buf())
    });
    if let Some(dir) = above_exe {
        return Some(dir.clone());
    }
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    manifest
        .ancestors()
        .map(|dir| dir.join("target"))
        .find(|target| is_target(target))
}

/// A test name made safe as a file name (`my_crate::tests::prop` -> `my_crate-tests-prop`).
pub(crate) fn file_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let cleaned = cleaned.trim_matches(|c| c == '-' || c == '.');
    if cleaned.is_empty() {
        "property".into()
    } else {
        cleaned.replace("--", "-")
    }
}

/// The corpus directory of a run. `TYPEFUZZ_CORPUS` applied before the name was known
/// (`Config::from_env().with_name(n)`) still gets the name's subdirectory, as documented on
/// [`Config::corpus`].
pub(crate) fn corpus_dir(config: &Config) -> Option<PathBuf> {
    let corpus = config.corpus.clone()?;
    let from_env = std::env::var_os("TYPEFUZZ_CORPUS")
        .map(|value| PathBuf::from(value.to_string_lossy().trim()))
        .is_some_and(|dir| dir == corpus);
    match &config.name {
        Some(name) if from_env => Some(corpus.join(file_name(name))),
        _ => Some(corpus),
    }
}

fn parse_or_warn<T, E: std::fmt::Display>(
    name: &str,
    value: &str,
    parse: fn(&str) -> Result<T, E>,
) -> Option<T> {
    match parse(value) {
        Ok(parsed) => Some(parsed),
        Err(why) => {
            let why = why.to_string();
            let why = if why.is_empty() {
                expected(name).to_string()
            } else {
                why
            };
            eprintln!("typefuzz: ignoring {name}={value:?}: {why}");
            None
        }
    }
}

fn expected(name: &str) -> &'static str {
    match name {
        "TYPEFUZZ_PROGRESS" => "expected 1 or 0 (true/false, yes/no, on/off)",
        _ => "expected a non-negative integer",
    }
}

/// A count; an empty error means "malformed" (the caller says what was expected), a number too
/// large gets its own message.
fn parse_u64(value: &str) -> Result<u64, String> {
    let digits = value.replace('_', "");
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return digits.parse().map_err(|_| {
            format!(
                "{value} does not fit in a 64-bit count (the largest is {})",
                u64::MAX
            )
        });
    }
    Err(String::new())
}

fn parse_bool(value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(String::new()),
    }
}

/// The duration variable `name`'s value, or a panic naming the variable, the value and the
/// reason (see [`Config::apply_env`]).
fn duration_or_panic(name: &str, value: &str) -> Duration {
    parse_duration(value).unwrap_or_else(|why| {
        panic!(
            "typefuzz: {name}={value:?} is not a duration ({why}); write it as humantime \
             reads it, e.g. {name}=90s, 1h30m or 250ms (a bare number is seconds)"
        )
    })
}

/// Parses a duration the way [humantime](https://docs.rs/humantime) does (`250ms`, `90s`,
/// `1h30m`, `2days`, units summed), and a bare number of seconds (`30`), which humantime reads as
/// an error.
pub(crate) fn parse_duration(value: &str) -> Result<Duration, String> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return value
            .parse()
            .map(Duration::from_secs)
            .map_err(|_| "number is too large".to_owned());
    }
    humantime::parse_duration(value).map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_in_every_unit_and_in_combinations() {
        let ok = |value: &str| parse_duration(value).unwrap();
        assert_eq!(ok("250ms"), Duration::from_millis(250));
        assert_eq!(ok("90s"), Duration::from_secs(90));
        assert_eq!(ok("5m"), Duration::from_secs(300));
        assert_eq!(ok("2h"), Duration::from_secs(7200));
        assert_eq!(ok("1h30m"), Duration::from_secs(5400));
        assert_eq!(ok("1h 30m 5s"), Duration::from_secs(5405));
        assert_eq!(ok("2days"), Duration::from_secs(172_800));
        assert_eq!(ok("1.5h"), Duration::from_secs(5400));
        assert_eq!(ok(" 12 "), Duration::from_secs(12), "bare seconds");
        for bad in [
            "5 parsecs",
            "s",
            "ten minutes",
            "",
            "-3s",
            "99999999999999999999",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
        assert!(parse_duration("5 parsecs").unwrap_err().contains("parsecs"));
    }

    #[test]
    fn an_unparsable_duration_fails_naming_the_variable_and_the_value() {
        for name in [
            "TYPEFUZZ_TIME",
            "TYPEFUZZ_TEST_TIMEOUT",
            "TYPEFUZZ_SHRINK_TIME",
        ] {
            let panic = std::panic::catch_unwind(|| {
                Config::default().apply_vars(|var| (var == name).then(|| "ten minutes".to_owned()))
            })
            .expect_err(name);
            let message = panic.downcast_ref::<String>().expect("a formatted panic");
            assert!(
                message.contains(&format!("{name}=\"ten minutes\" is not a duration")),
                "{message}"
            );
        }
        let config = Config::default().apply_vars(vars(&[
            ("TYPEFUZZ_TIME", "1h30m"),
            ("TYPEFUZZ_TEST_TIMEOUT", "250ms"),
            ("TYPEFUZZ_SHRINK_TIME", "90s"),
        ]));
        assert_eq!(config.time, Some(Duration::from_secs(5400)));
        assert_eq!(config.test_timeout, Some(Duration::from_millis(250)));
        assert_eq!(config.shrink_time, Duration::from_secs(90));
    }

    /// A variable lookup over fixed pairs, standing in for the environment.
    fn vars(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn environment_overrides_and_campaign_mode() {
        let config =
            Config::default().apply_vars(vars(&[("TYPEFUZZ_TIME", "5m"), ("TYPEFUZZ_SEED", "42")]));
        assert_eq!(config.time, Some(Duration::from_secs(300)));
        assert_eq!(
            config.cases,
            u64::MAX,
            "a time budget alone makes a campaign"
        );
        assert_eq!(config.max_discards, None);
        assert_eq!(config.seed, Some(42));

        let config = Config::default().apply_vars(vars(&[
            ("TYPEFUZZ_TIME", "5m"),
            ("TYPEFUZZ_CASES", "10"),
            ("TYPEFUZZ_SEED", "x"),
        ]));
        assert_eq!(config.cases, 10);
        assert_eq!(config.seed, None, "a malformed seed is ignored");

        let config = Config::default().with_name("a::b").apply_vars(vars(&[
            ("TYPEFUZZ_CORPUS", "/c"),
            ("TYPEFUZZ_PROGRESS", "off"),
        ]));
        assert_eq!(config.corpus, Some(PathBuf::from("/c/a-b")));
        assert_eq!(config.progress, Some(false));
    }

    #[test]
    fn framework_budget_policy() {
        let proptest = Framework {
            name: "proptest",
            cases: 256,
            max_rejects: 1024,
        };
        // A plain `cargo test`: the framework's cases, discards bounded by time only.
        let config = Config::for_framework_vars(proptest, |c| c.with_seed(3), vars(&[]));
        assert_eq!(config.cases, 256, "no 10,000-case floor");
        assert_eq!(config.max_discards, None, "discards do not abort the run");
        assert_eq!(config.discard_time, Some(DISCARD_TIME));
        assert_eq!(config.time, None);
        assert_eq!(config.seed, Some(3));

        let config =
            Config::for_framework_vars(proptest, |c| c, vars(&[("TYPEFUZZ_MAX_DISCARDS", "10")]));
        assert_eq!(
            config.max_discards,
            Some(10),
            "an explicit cap still applies"
        );
        assert_eq!(config.discard_time, Some(DISCARD_TIME));

        // Campaigns spend what they are given.
        let config = Config::for_framework_vars(proptest, |c| c, vars(&[("TYPEFUZZ_CASES", "20")]));
        assert_eq!(config.cases, 20);
        assert_eq!(config.discard_time, None);
        assert_eq!(config.max_discards, Some(65_536));
        let config = Config::for_framework_vars(proptest, |c| c, vars(&[("TYPEFUZZ_TIME", "1m")]));
        assert_eq!(config.cases, u64::MAX);
        assert_eq!(config.time, Some(Duration::from_secs(60)));
        assert_eq!((config.max_discards, config.discard_time), (None, None));

        // A malformed budget is an error, not a plain run.
        let malformed = std::panic::catch_unwind(|| {
            Config::for_framework_vars(proptest, |c| c, vars(&[("TYPEFUZZ_TIME", "soon")]))
        });
        assert!(malformed.is_err());

        let config = Config::for_framework_vars(
            proptest,
            |c| c.with_seed(3),
            vars(&[("TYPEFUZZ_SEED", "9")]),
        );
        assert_eq!(
            config.seed,
            Some(9),
            "the variables win over the framework's settings"
        );
    }

    #[test]
    fn corpus_location() {
        let named = Config::default().with_name("a::b");
        let dir = named
            .corpus_path::<(u8, bool)>()
            .expect("a named run keeps its seeds");
        let leaf = dir.file_name().unwrap().to_string_lossy().into_owned();
        assert!(leaf.starts_with("a-b-"), "{leaf}");
        assert!(dir.ends_with(Path::new("typefuzz/corpus").join(&leaf)));
        assert!(
            !dir.starts_with(env!("CARGO_MANIFEST_DIR"))
                || dir.components().any(|c| c.as_os_str() == "target")
        );
        assert_ne!(
            named.corpus_path::<(u8, u16)>(),
            Some(dir.clone()),
            "keyed by type"
        );
        assert_eq!(
            Config::default().corpus_path::<u8>(),
            None,
            "unnamed runs keep nothing"
        );
        let off = named
            .clone()
            .apply_vars(vars(&[("TYPEFUZZ_CORPUS", "off")]));
        assert_eq!(off.corpus_path::<u8>(), None);
        let explicit = named.with_corpus("/c");
        assert_eq!(explicit.corpus_path::<u8>(), Some(PathBuf::from("/c")));
    }
}
