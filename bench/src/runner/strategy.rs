//! The strategies compared, and how one trial of each runs: typefuzz through its public API
//! (`typefuzz::check`), proptest's strategy and the naive generator in our own time-capped loop.

use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use proptest::strategy::{BoxedStrategy, Strategy as _, ValueTree};
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use typefuzz::{Config, Context, FeedbackSources, Mutate, Operators, Outcome, Report, Schedule};

use crate::ifc::Recording;
use crate::Verdict;

/// A way of finding bugs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Strategy {
    /// proptest: the naive strategy, rejections counted as `prop_assume!` would.
    Proptest,
    /// typefuzz's proptest drop-in (`typefuzz::proptest::run_with`) on the same naive strategy.
    ProptestDropIn,
    /// The workload's naive generator (the distribution the proptest strategy mirrors), seeded
    /// from a quickcheck `Gen` in the benchmark's own time-capped loop. It does not run
    /// quickcheck (the drop-in comparison, `dropin`, runs the real `QuickCheck`).
    NaiveGenerator,
    /// typefuzz with derived generation only (`Schedule::Generate`): the derived-generator line.
    TypefuzzGenerate,
    /// typefuzz with FuzzChick's schedule and operator set.
    TypefuzzFuzzChick,
    /// typefuzz defaults.
    Typefuzz,
    /// Ablation: no constructor grow.
    NoGrow,
    /// Ablation: no constructor drop.
    NoDrop,
    /// Ablation: no subterm replacement.
    NoSubterm,
    /// Ablation: no feedback at all (labels off; coverage is off without instrumentation).
    NoFeedback,
    /// Ablation, IFC: the labels that are branches of the code, without the hand-placed hint
    /// (which parts of an indistinguishable pair differ).
    NoHint,
    /// typefuzz defaults with SanitizerCoverage as the only feedback (needs `cargo typefuzz test`).
    Sancov,
    /// IFC only: the hand-written smart generator, generation only (the upper line).
    Smart,
}

impl Strategy {
    pub(crate) const ALL: [Strategy; 13] = [
        Strategy::Proptest,
        Strategy::ProptestDropIn,
        Strategy::NaiveGenerator,
        Strategy::TypefuzzGenerate,
        Strategy::TypefuzzFuzzChick,
        Strategy::Typefuzz,
        Strategy::NoGrow,
        Strategy::NoDrop,
        Strategy::NoSubterm,
        Strategy::NoFeedback,
        Strategy::NoHint,
        Strategy::Sancov,
        Strategy::Smart,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Strategy::Proptest => "proptest",
            Strategy::ProptestDropIn => "proptest-dropin",
            Strategy::NaiveGenerator => "naive-generator",
            Strategy::TypefuzzGenerate => "typefuzz-generate",
            Strategy::TypefuzzFuzzChick => "typefuzz-fuzzchick",
            Strategy::Typefuzz => "typefuzz",
            Strategy::NoGrow => "typefuzz-no-grow",
            Strategy::NoDrop => "typefuzz-no-drop",
            Strategy::NoSubterm => "typefuzz-no-subterm",
            Strategy::NoFeedback => "typefuzz-no-feedback",
            Strategy::NoHint => "typefuzz-no-hint",
            Strategy::Sancov => "typefuzz-sancov",
            Strategy::Smart => "smart-generator",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether the property should record its coverage labels (micro targets have an unlabelled
    /// version; the baselines and the sancov line run that one).
    pub(crate) fn labels(self) -> bool {
        !matches!(
            self,
            Strategy::Proptest | Strategy::NaiveGenerator | Strategy::Sancov | Strategy::Smart
        )
    }

    /// The typefuzz configuration of this strategy (`None` for the baselines).
    pub(crate) fn config(self, seed: u64, cap: Duration, max_size: usize) -> Option<Config> {
        let base = Config::default()
            // A trial runs exactly as configured, whatever TYPEFUZZ_* the shell holds.
            .with_read_env(false)
            .with_seed(seed)
            .with_time(cap)
            .with_cases(u64::MAX)
            .with_max_discards(None)
            .with_max_size(max_size)
            .with_progress(false)
            // Time to failure is the measure; shrinking only makes the counterexample readable.
            .with_shrink_time(Duration::from_millis(250));
        let base = match MAX_TESTS.load(std::sync::atomic::Ordering::Relaxed) {
            0 => base,
            max_tests => base.with_max_tests(max_tests),
        };
        let no = |f: fn(&mut Operators)| {
            let mut ops = Operators::default();
            f(&mut ops);
            ops
        };
        Some(match self {
            Strategy::Proptest | Strategy::NaiveGenerator => return None,
            // The drop-in's engine settings are typefuzz's defaults (its own proptest-config
            // translation is bypassed: the benchmark sets the budget).
            Strategy::ProptestDropIn => base,
            Strategy::TypefuzzGenerate | Strategy::Smart => base.with_schedule(Schedule::Generate),
            Strategy::TypefuzzFuzzChick => base
                .with_schedule(Schedule::FuzzChick)
                .with_operators(Operators::fuzzchick()),
            Strategy::Typefuzz | Strategy::NoHint => base,
            Strategy::NoGrow => base.with_operators(no(|o| o.grow = 0)),
            Strategy::NoDrop => base.with_operators(no(|o| o.drop = 0)),
            Strategy::NoSubterm => base.with_operators(no(|o| o.subterm = 0)),
            Strategy::NoFeedback => base.with_feedback(FeedbackSources::none()),
            Strategy::Sancov => base.with_feedback(FeedbackSources {
                labels: false,
                ..FeedbackSources::default()
            }),
        })
    }
}

/// What one trial did.
#[derive(Clone, Debug, Default)]
pub(crate) struct Trial {
    pub(crate) found: bool,
    /// Seconds to the first failure (not counting shrinking), or the run time if none.
    pub(crate) seconds: f64,
    /// Non-discarded property calls up to and including the first failure (or in all).
    pub(crate) passed: u64,
    /// Discarded property calls up to the first failure (or in all).
    pub(crate) discarded: u64,
    /// Distinct valid inputs (`None` where not measured).
    pub(crate) unique_valid: Option<u64>,
    pub(crate) shrink_steps: u64,
    pub(crate) counterexample: String,
    /// Coverage counters hit (typefuzz only; 0 without instrumentation).
    pub(crate) coverage_points: u64,
    /// Coverage features (counter x hit-count bucket) seen (typefuzz only).
    pub(crate) coverage_features: u64,
    /// Seeds kept, and restarts of the search (typefuzz only).
    pub(crate) seeds_found: u64,
    pub(crate) restarts: u64,
}

impl Trial {
    pub(crate) fn tests(&self) -> u64 {
        self.passed + self.discarded
    }

    pub(crate) fn tests_per_second(&self) -> f64 {
        self.tests() as f64 / self.seconds.max(1e-9)
    }
}

/// A property; the flag says whether to record coverage labels.
pub(crate) type PropertyFn<T> = dyn Fn(&T, bool) -> Verdict + Send + Sync;

/// A property with everything each strategy needs to produce its inputs.
pub(crate) struct Problem<T> {
    /// typefuzz's generator (the derived one, or FuzzChick's `(st, st)` seed).
    pub(crate) generate: fn(&mut Context) -> T,
    /// The naive generator, the baselines' distribution.
    pub(crate) naive: fn(&mut fastrand::Rng) -> T,
    /// proptest's version of the naive generator.
    pub(crate) strategy: fn() -> BoxedStrategy<T>,
    /// A hand-written generator (the `Smart` line), if any.
    pub(crate) smart: Option<fn(&mut fastrand::Rng) -> T>,
    /// typefuzz's size bound for this input type.
    pub(crate) max_size: usize,
    /// The property; the flag says whether to record coverage labels.
    pub(crate) property: Box<PropertyFn<T>>,
}

/// `--max-size`: overrides every workload's typefuzz size bound when non-zero (for exploring the
/// workload-side choice; the defaults are the workloads' constants).
pub(crate) static MAX_SIZE_OVERRIDE: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// `--max-tests`: when non-zero, every typefuzz trial also stops after this many tests (the
/// baselines keep their time cap only). Two engine variants compared on a loaded, shared machine
/// then get the same number of tests, whatever share of the CPU each had; with a fixed seed a
/// trial is then deterministic.
pub(crate) static MAX_TESTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Runs one trial of `strategy` on `problem`.
pub(crate) fn run_trial<T>(
    problem: &Problem<T>,
    strategy: Strategy,
    seed: u64,
    cap: Duration,
) -> Trial
where
    T: Mutate + Debug + Hash + Clone,
{
    let labels = strategy.labels();
    // The IFC labels are recorded per thread; trials run on their own thread.
    crate::ifc::record_labels(match strategy {
        _ if !labels => Recording::Off,
        Strategy::NoHint => Recording::Branches,
        _ => Recording::All,
    });
    let property = |x: &T| (problem.property)(x, labels);
    match strategy {
        Strategy::Proptest => {
            let mut runner = proptest_runner(seed);
            let strategy = (problem.strategy)();
            baseline_loop(cap, true, property, || {
                // The naive strategies have no filters, so a tree is always produced.
                strategy
                    .new_tree(&mut runner)
                    .expect("naive strategies do not reject")
                    .current()
            })
        }
        Strategy::NaiveGenerator => {
            let mut gen = quickcheck::Gen::from_size_and_seed(100, seed);
            let naive = problem.naive;
            baseline_loop(cap, true, property, || {
                let seed = <u64 as quickcheck::Arbitrary>::arbitrary(&mut gen);
                naive(&mut fastrand::Rng::with_seed(seed))
            })
        }
        Strategy::ProptestDropIn => {
            let config = strategy
                .config(seed, cap, max_size(problem))
                .expect("typefuzz strategy");
            let report =
                typefuzz::proptest::run_with(&config, (problem.strategy)(), |x: T| match property(
                    &x,
                ) {
                    Verdict::Pass => Ok(()),
                    Verdict::Discard => Err(TestCaseError::reject("precondition")),
                    Verdict::Fail => Err(TestCaseError::fail("property failed")),
                });
            trial_from_report(&report)
        }
        _ => {
            let config = strategy
                .config(seed, cap, max_size(problem))
                .expect("typefuzz strategy");
            let smart = problem.smart;
            let generate = problem.generate;
            let gen = move |cx: &mut Context| match (strategy, smart) {
                (Strategy::Smart, Some(smart)) => smart(cx.rng()),
                _ => generate(cx),
            };
            typefuzz_trial(&config, gen, property)
        }
    }
}

/// The problem's typefuzz size bound, unless `--max-size` overrides it.
fn max_size<T>(problem: &Problem<T>) -> usize {
    match MAX_SIZE_OVERRIDE.load(std::sync::atomic::Ordering::Relaxed) {
        0 => problem.max_size,
        n => n,
    }
}

pub(crate) fn typefuzz_trial<T: Mutate + Debug>(
    config: &Config,
    generate: impl FnMut(&mut Context) -> T,
    property: impl Fn(&T) -> Verdict,
) -> Trial {
    let report = typefuzz::check(config, generate, |x| match property(x) {
        Verdict::Pass => Outcome::Pass,
        Verdict::Discard => Outcome::Discard,
        Verdict::Fail => Outcome::Fail("property failed".into()),
    });
    trial_from_report(&report)
}

/// A typefuzz report as a trial: time and tests to the first failure, or the whole run.
fn trial_from_report<T: Debug>(report: &Report<T>) -> Trial {
    let stats = &report.stats;
    let mut trial = Trial {
        found: false,
        seconds: stats.elapsed.as_secs_f64(),
        passed: stats.valid,
        discarded: stats.discards,
        unique_valid: Some(stats.unique_valid),
        coverage_points: stats.coverage_points,
        coverage_features: stats.coverage_features,
        seeds_found: stats.seeds_found,
        restarts: stats.restarts,
        ..Trial::default()
    };
    if let Some(failure) = &report.failure {
        trial.found = true;
        trial.passed = failure.tests - failure.discards;
        trial.discarded = failure.discards;
        trial.shrink_steps = failure.shrink_steps;
        trial.counterexample = format!("{:?}", failure.minimal);
    }
    trial
}

/// A seeded proptest runner that never gives up on rejections (we count them ourselves).
pub(crate) fn proptest_runner(seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = PtConfig {
        cases: u32::MAX,
        max_global_rejects: u32::MAX,
        max_local_rejects: u32::MAX,
        failure_persistence: None,
        ..PtConfig::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// The baselines' loop: generate, run, count; a panic is a failure; stop at the first failure
/// or when `cap` is spent (the clock is read every test: a few tens of nanoseconds).
pub(crate) fn baseline_loop<T: Hash + Debug>(
    cap: Duration,
    count_unique: bool,
    property: impl Fn(&T) -> Verdict,
    mut next: impl FnMut() -> T,
) -> Trial {
    const UNIQUE_CAP: usize = 1 << 16;
    let started = Instant::now();
    let mut trial = Trial::default();
    let mut unique = HashSet::new();
    loop {
        let elapsed = started.elapsed();
        if elapsed >= cap {
            trial.seconds = elapsed.as_secs_f64();
            break;
        }
        let input = next();
        let verdict = catch_unwind(AssertUnwindSafe(|| property(&input))).unwrap_or(Verdict::Fail);
        match verdict {
            Verdict::Discard => trial.discarded += 1,
            Verdict::Pass | Verdict::Fail => {
                trial.passed += 1;
                if count_unique && unique.len() < UNIQUE_CAP {
                    let mut hasher = std::hash::DefaultHasher::new();
                    input.hash(&mut hasher);
                    unique.insert(hasher.finish());
                }
            }
        }
        if verdict == Verdict::Fail {
            trial.found = true;
            trial.seconds = started.elapsed().as_secs_f64();
            trial.counterexample = format!("{input:?}");
            break;
        }
    }
    trial.unique_valid = count_unique.then_some(unique.len() as u64);
    trial
}
