//! Configuration: one [`Config`] per run — budgets, seed, schedule, feedback sources, persistence.
//!
//! Every field documents its default and, where there is one, the `TYPEFUZZ_*` environment
//! variable that overrides it in [`Config::from_env`]. Adapters start from `Config::from_env()`,
//! so `TYPEFUZZ_TIME=10m cargo test my_property` turns any test into a ten-minute campaign.

use std::path::PathBuf;
use std::time::Duration;

use crate::Operators;

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
    /// typefuzz's schedule: a pool that is revisited, fresh finds first (LIFO), energy doubled
    /// for productive seeds, stacked mutations, favour for seeds that found more, and more fresh
    /// generation when the search is stuck.
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
}

impl Default for FeedbackSources {
    fn default() -> Self {
        FeedbackSources {
            coverage: true,
            labels: true,
            targets: true,
            assume: true,
            valid_sizes: true,
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
    /// Stop after this many non-discarded tests. Default 10,000: a coverage-guided search needs
    /// more tests than a random tester to climb (tens of milliseconds for a cheap property in an
    /// optimized test build); the proptest and quickcheck drop-ins use the larger of this and
    /// their framework's own count. `TYPEFUZZ_CASES`.
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
    /// The seed scheduling policy. Default [`Schedule::Default`].
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
    pub regressions: Option<PathBuf>,
    /// The property's name (adapters use the test's path), used for file names and reports.
    /// Default `None`.
    pub name: Option<String>,
    /// Live status line on stderr: `Some(true)` always, `Some(false)` never, `None` for runs
    /// longer than about two seconds. Default `None`. `TYPEFUZZ_PROGRESS` (`1`/`0`).
    pub progress: Option<bool>,
    /// A property call running longer than this is a hang: its input is saved to a `hang-<hash>`
    /// file beside the regression file and the process exits. Default `None` (no limit).
    /// `TYPEFUZZ_TEST_TIMEOUT`.
    pub test_timeout: Option<Duration>,
    /// Wall-clock bound on shrinking a failure. Default 30 s. `TYPEFUZZ_SHRINK_TIME`.
    pub shrink_time: Duration,
    /// Bound on the shrink candidates tried. Default 100,000. `TYPEFUZZ_SHRINK_STEPS`.
    pub shrink_steps: u64,
    /// Which feedback sources count. Default all.
    pub feedback: FeedbackSources,
    /// In-memory bound on each seed queue (valid, discarded). Default 4096.
    pub max_queue: usize,
}

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
            test_timeout: None,
            shrink_time: Duration::from_secs(30),
            shrink_steps: 100_000,
            feedback: FeedbackSources::default(),
            max_queue: 4096,
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
}

impl Config {
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
    /// A malformed value is reported on stderr, naming the variable, and ignored.
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
        let read = |name: &str| {
            var(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let cases =
            read("TYPEFUZZ_CASES").and_then(|v| parse_or_warn("TYPEFUZZ_CASES", &v, parse_u64));
        let time =
            read("TYPEFUZZ_TIME").and_then(|v| parse_or_warn("TYPEFUZZ_TIME", &v, parse_duration));
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
                self.max_size = usize::try_from(n).unwrap_or(usize::MAX);
            }
        }
        if let Some(dir) = read("TYPEFUZZ_CORPUS") {
            let dir = PathBuf::from(dir);
            self.corpus = Some(match &self.name {
                Some(name) => dir.join(file_name(name)),
                None => dir,
            });
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
            if let Some(d) = parse_or_warn("TYPEFUZZ_TEST_TIMEOUT", &v, parse_duration) {
                self.test_timeout = Some(d);
            }
        }
        if let Some(v) = read("TYPEFUZZ_SHRINK_TIME") {
            if let Some(d) = parse_or_warn("TYPEFUZZ_SHRINK_TIME", &v, parse_duration) {
                self.shrink_time = d;
            }
        }
        if let Some(v) = read("TYPEFUZZ_SHRINK_STEPS") {
            if let Some(n) = parse_or_warn("TYPEFUZZ_SHRINK_STEPS", &v, parse_u64) {
                self.shrink_steps = n;
            }
        }
        self
    }

    /// The configuration of a drop-in test: the budget policy every adapter shares, in one place.
    ///
    /// `settings` translates the rest of the framework's configuration (seed, name, time limits)
    /// onto the engine's; then the `TYPEFUZZ_*` variables apply ([`apply_env`](Config::apply_env)),
    /// so they win; then the budget policy:
    /// - the longer budget wins: the run has at least the framework's case count and at least
    ///   typefuzz's default [`cases`](Config::cases), and `TYPEFUZZ_CASES` only lengthens it;
    /// - the framework's reject limit only raises [`max_discards`](Config::max_discards), never
    ///   lowers it: typefuzz climbs out of discards where the framework would give up.
    ///
    /// ```
    /// use typefuzz::{Config, Framework};
    /// let framework = Framework { name: "quickcheck", cases: 20_000, max_rejects: 100_000 };
    /// let config = Config::for_framework(framework, |config| config.with_name("my_crate::prop"));
    /// assert!(config.cases >= 20_000);
    /// assert_eq!(config.name.as_deref(), Some("my_crate::prop"));
    /// # if std::env::var_os("TYPEFUZZ_MAX_DISCARDS").is_none() && std::env::var_os("TYPEFUZZ_TIME").is_none() {
    /// assert!(config.max_discards >= Some(100_000));
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
        let default = Config::default();
        let budget = default
            .clone()
            .with_cases(framework.cases)
            .with_max_discards(
                default
                    .max_discards
                    .map(|max| max.max(framework.max_rejects)),
            );
        let mut config = settings(budget).apply_vars(var);
        config.cases = config.cases.max(framework.cases).max(default.cases);
        config
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
            return Some(path.clone());
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

fn parse_or_warn<T>(name: &str, value: &str, parse: fn(&str) -> Option<T>) -> Option<T> {
    let parsed = parse(value);
    if parsed.is_none() {
        eprintln!("typefuzz: ignoring {name}={value:?}: {}", expected(name));
    }
    parsed
}

fn expected(name: &str) -> &'static str {
    match name {
        "TYPEFUZZ_TIME" | "TYPEFUZZ_TEST_TIMEOUT" | "TYPEFUZZ_SHRINK_TIME" => {
            "expected a duration such as 500ms, 30s, 5m or 2h"
        }
        "TYPEFUZZ_PROGRESS" => "expected 1 or 0 (true/false, yes/no, on/off)",
        _ => "expected a non-negative integer",
    }
}

fn parse_u64(value: &str) -> Option<u64> {
    value.replace('_', "").parse().ok()
}

fn parse_bool(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// Parses `500ms`, `30s`, `5m`, `2h`, `1d`, fractional values (`1.5h`) and bare seconds (`30`).
pub(crate) fn parse_duration(value: &str) -> Option<Duration> {
    let value = value.trim();
    let split = value
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(value.len());
    let (number, unit) = value.split_at(split);
    let number: f64 = number.parse().ok()?;
    let seconds = match unit.trim() {
        "" | "s" | "sec" | "secs" => 1.0,
        "ms" => 0.001,
        "m" | "min" | "mins" => 60.0,
        "h" => 3600.0,
        "d" => 86_400.0,
        _ => return None,
    };
    Duration::try_from_secs_f64(number * seconds).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_in_every_unit() {
        assert_eq!(parse_duration("500ms"), Some(Duration::from_millis(500)));
        assert_eq!(parse_duration("30s"), Some(Duration::from_secs(30)));
        assert_eq!(parse_duration("5m"), Some(Duration::from_secs(300)));
        assert_eq!(parse_duration("2h"), Some(Duration::from_secs(7200)));
        assert_eq!(parse_duration("1.5h"), Some(Duration::from_secs(5400)));
        assert_eq!(parse_duration("12"), Some(Duration::from_secs(12)));
        assert_eq!(parse_duration("5 parsecs"), None);
        assert_eq!(parse_duration("s"), None);
    }

    #[test]
    fn environment_overrides_and_campaign_mode() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
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
        let none = |_: &str| None;
        let quickcheck = Framework {
            name: "quickcheck",
            cases: 100,
            max_rejects: 200_000,
        };
        let config = Config::for_framework_vars(quickcheck, |c| c.with_seed(3), none);
        assert_eq!(
            config.cases,
            Config::default().cases,
            "the longer budget wins"
        );
        assert_eq!(config.max_discards, Some(200_000), "rejects only raise");
        assert_eq!(config.seed, Some(3));

        let long = Framework {
            cases: 50_000,
            ..quickcheck
        };
        let env = |name: &str| (name == "TYPEFUZZ_CASES").then(|| "20".to_string());
        let config = Config::for_framework_vars(long, |c| c, env);
        assert_eq!(config.cases, 50_000, "TYPEFUZZ_CASES does not shorten it");

        let env = |name: &str| (name == "TYPEFUZZ_SEED").then(|| "9".to_string());
        let config = Config::for_framework_vars(quickcheck, |c| c.with_seed(3), env);
        assert_eq!(
            config.seed,
            Some(9),
            "the variables win over the framework's settings"
        );
    }
}
