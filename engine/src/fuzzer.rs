//! The fuzzer: the coverage-guided, property-based testing loop, written the way libFuzzer's
//! `FuzzerLoop.cpp` reads — [`run`](Fuzzer::run) loads the seeds (regression file first, then the
//! corpus directory), then repeats [`fuzz_one`](Fuzzer::fuzz_one): pick a test
//! ([`schedule`](crate::schedule)), [`run_one`](Fuzzer::run_one) it, and
//! [`report_new_coverage`](Fuzzer::report_new_coverage) when the feedback says it was interesting.
//! A failure is persisted, shrunk and reported.

use std::fmt::Debug;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::artifacts::{one_line, RegressionFile};
use crate::codec;
use crate::corpus::disk::DiskCorpus;
use crate::corpus::{QueueKind, Queues, Seed, MAX_LINEAGE};
use crate::executor::{self, Verdict, Watchdog};
use crate::feedback::{self, Feedback, Novelty};
use crate::schedule::{Pick, Scheduler};
use crate::shrink;
use crate::stats::{StatusLine, UniqueCounter};
use crate::{
    AssumeStats, Config, Context, Failure, FailureKind, IntoOutcome, LabelStats, Mutate, Operator,
    Report, Schedule, Stats, StopReason,
};

/// Runs `property` on inputs from `generate` and their mutants until the budget of `config` is
/// spent or the property fails, and reports what happened.
///
/// The generator provides the seeds and the resets; [`Mutate`] provides mutation, shrinking and
/// the byte codec. The property returns anything [`IntoOutcome`]: `()`, `bool`, `Result`,
/// [`Outcome`](crate::Outcome), ... and may panic (a failure) or call `assume!` (a discard).
///
/// ```
/// use typefuzz::{check, cover, Config};
///
/// // "bad!" needs four exact bytes; labels on each matched prefix guide the search to it.
/// let config = Config::default().with_seed(2).with_max_size(8).with_cases(u64::MAX).with_max_tests(300_000);
/// let report = check(&config, |cx| cx.generate::<Vec<u8>>(), |input| {
///     if input.first() == Some(&b'b') {
///         cover!("b");
///         if input.get(1) == Some(&b'a') {
///             cover!("ba");
///             if input.get(2) == Some(&b'd') {
///                 cover!("bad");
///                 assert_ne!(input.get(3), Some(&b'!'), "found it");
///             }
///         }
///     }
/// });
/// let failure = report.failure.expect("guided search finds bad!");
/// assert!(failure.minimal.starts_with(b"bad!"));
/// ```
pub fn check<T, R>(
    config: &Config,
    generate: impl FnMut(&mut Context) -> T,
    property: impl FnMut(&T) -> R,
) -> Report<T>
where
    T: Mutate + Debug,
    R: IntoOutcome,
{
    Fuzzer::new(config, generate, property).run()
}

/// Tests without an interesting find before the default schedule's first restart.
const FIRST_RESTART_AFTER: u64 = 50_000;
/// Longest stagnation the default schedule tolerates, however many restarts came before.
const MAX_RESTART_AFTER: u64 = 10_000_000;

/// A failing test, before shrinking.
struct Failed<T> {
    input: T,
    kind: FailureKind,
    message: String,
    lineage: Vec<Operator>,
}

/// The state of one run.
struct Fuzzer<'c, T, G, P, R> {
    config: &'c Config,
    generate: G,
    property: P,
    cx: Context,
    seed: u64,
    queues: Queues<T>,
    scheduler: Scheduler,
    feedback: Feedback,
    stats: Stats,
    site_counts: Vec<(u64, u64)>,
    operators_kept: [u64; Operator::COUNT],
    unique: UniqueCounter,
    /// Tests at the last interesting find (or restart), and the stagnation that triggers the next
    /// restart of the default schedule.
    last_progress: u64,
    restart_after: u64,
    /// Reused for encoding valid inputs (unique counting), so the hot path does not allocate.
    scratch: codec::Encoder,
    /// Operators applied to build the current test.
    applied: Vec<Operator>,
    disk: Option<DiskCorpus>,
    regressions: Option<RegressionFile>,
    watchdog: Option<Watchdog>,
    status: StatusLine,
    started: Instant,
    deadline: Option<Instant>,
    /// Tests between two looks at the clock (adapted so that looking stays cheap).
    clock_every: u64,
    clock_next: u64,
    clock_last: Instant,
    _returns: PhantomData<fn() -> R>,
}

impl<'c, T, G, P, R> Fuzzer<'c, T, G, P, R>
where
    T: Mutate + Debug,
    G: FnMut(&mut Context) -> T,
    P: FnMut(&T) -> R,
    R: IntoOutcome,
{
    fn new(config: &'c Config, generate: G, property: P) -> Self {
        let seed = config.seed.unwrap_or_else(random_seed);
        let cx = Context::new(seed)
            .with_max_size(config.max_size)
            .with_operators(config.operators);
        let regression_path = config.regression_path();
        let watchdog = config.test_timeout.map(|limit| {
            let dir = artifact_dir(regression_path.as_ref());
            Watchdog::start(limit, dir, seed, describe::<T>)
        });
        let started = Instant::now();
        Fuzzer {
            config,
            generate,
            property,
            cx,
            seed,
            queues: Queues::new(config.max_queue),
            scheduler: Scheduler::new(config.schedule),
            feedback: Feedback::new(config.effective_feedback()),
            stats: Stats {
                seed,
                ..Stats::default()
            },
            site_counts: Vec::new(),
            operators_kept: [0; Operator::COUNT],
            unique: UniqueCounter::new(),
            scratch: codec::Encoder::new(),
            last_progress: 0,
            restart_after: FIRST_RESTART_AFTER,
            applied: Vec::new(),
            disk: config.corpus.as_deref().map(DiskCorpus::new),
            regressions: regression_path.as_deref().map(RegressionFile::load),
            watchdog,
            status: StatusLine::new(config.progress),
            started,
            deadline: config.time.and_then(|t| started.checked_add(t)),
            clock_every: 1,
            clock_next: 0,
            clock_last: started,
            _returns: PhantomData,
        }
    }

    /// The whole run: seeds, then the loop until a budget runs out or the property fails.
    fn run(mut self) -> Report<T> {
        if let Some(failed) = self.load_seeds() {
            return self.report_failure(failed);
        }
        loop {
            if let Some(reason) = self.budget_spent() {
                self.stats.stop = reason;
                break;
            }
            if let Some(failed) = self.fuzz_one() {
                return self.report_failure(failed);
            }
            if self.stagnated() {
                self.restart();
            }
            self.refresh_queue_stats();
            self.status.tick(&self.stats);
        }
        self.finish_stats();
        self.status.finish(&self.stats);
        Report {
            stats: self.stats,
            failure: None,
        }
    }

    /// Replays the regression file, then loads the corpus directory; inputs are run like any test,
    /// so interesting ones become seeds, and a failing one ends the run at once.
    fn load_seeds(&mut self) -> Option<Failed<T>> {
        let replays: Vec<Vec<u8>> = match &self.regressions {
            Some(file) => file
                .entries()
                .iter()
                .map(|entry| entry.bytes.clone())
                .collect(),
            None => Vec::new(),
        };
        for bytes in replays {
            self.stats.regressions_replayed += 1;
            let input: T = codec::from_bytes(&bytes);
            if let Some(failed) = self.run_one(input, None) {
                return Some(failed);
            }
        }
        let loaded = self.disk.as_ref().map(DiskCorpus::load).unwrap_or_default();
        for bytes in loaded {
            self.stats.corpus_loaded += 1;
            let input: T = codec::from_bytes(&bytes);
            if let Some(failed) = self.run_one(input, None) {
                return Some(failed);
            }
        }
        None
    }

    /// Whether the default schedule has gone `restart_after` tests without anything new.
    fn stagnated(&self) -> bool {
        self.config.schedule == Schedule::Default
            && self.stats.tests - self.last_progress > self.restart_after
    }

    /// Starts the search over: empty queues, a fresh schedule and an empty feedback state, so
    /// that seeds are judged anew. Searches that find a sparse bug tend to find it early or to
    /// sink into a region where nothing new happens; independent restarts with growing epochs
    /// (each 1.5x the last) turn that all-or-nothing behaviour into a steady chance per epoch.
    /// Statistics stay cumulative.
    fn restart(&mut self) {
        self.queues = Queues::new(self.config.max_queue);
        self.scheduler = Scheduler::new(self.config.schedule);
        self.feedback = Feedback::new(self.config.effective_feedback());
        self.stats.restarts += 1;
        self.last_progress = self.stats.tests;
        self.restart_after = (self.restart_after.saturating_mul(3) / 2).min(MAX_RESTART_AFTER);
    }

    /// One test: ask the schedule what to run, build the input, run it.
    fn fuzz_one(&mut self) -> Option<Failed<T>> {
        let feedback = &self.feedback;
        let rarity = |seed: &Seed<T>| {
            seed.features
                .iter()
                .map(|&f| feedback.frequency(f))
                .min()
                .unwrap_or(u64::MAX)
        };
        let pick = self.scheduler.pick(&mut self.queues, &mut self.cx, rarity);
        self.applied.clear();
        let input = match pick {
            Pick::Generate => {
                // Sizes cycle through 0..=max_size, as QuickCheck's do, so small values come early.
                let size = (self.stats.generated % (self.config.max_size as u64 + 1)) as usize;
                self.stats.generated += 1;
                self.cx.set_size(size);
                (self.generate)(&mut self.cx)
            }
            Pick::Mutate {
                queue,
                slot,
                mutations,
            } => {
                self.stats.mutated += 1;
                let mut value = self.queues.seed(queue, slot).value.clone();
                for _ in 0..mutations {
                    let applied = self.cx.mutate(&mut value);
                    self.applied.extend_from_slice(applied);
                }
                value
            }
        };
        self.run_one(input, Some(pick))
    }

    /// Runs the property on `input` and feeds the outcome to the statistics, the feedback and
    /// the schedule. `pick` is `None` for replayed and loaded inputs.
    fn run_one(&mut self, input: T, pick: Option<Pick>) -> Option<Failed<T>> {
        let verdict = self.execute(&input);
        self.stats.tests += 1;
        match verdict {
            Verdict::Fail { kind, message } => {
                self.stats.valid += 1;
                let lineage = self.lineage(pick);
                return Some(Failed {
                    input,
                    kind,
                    message,
                    lineage,
                });
            }
            Verdict::Pass => {
                self.stats.valid += 1;
                self.scratch.clear();
                input.encode(&mut self.scratch);
                self.unique.insert(self.scratch.as_bytes());
            }
            Verdict::Discard => self.stats.discards += 1,
        }
        let valid = verdict == Verdict::Pass;
        self.count_sites();
        // Size classes of valid inputs only matter for properties with a precondition (some
        // input was discarded); without one, every input is valid and they would only dilute
        // the seeds the other sources found.
        let valid_len = (valid && self.stats.discards > 0).then(|| self.scratch.as_bytes().len());
        let mut novelty = self.feedback.observe(valid_len);
        novelty.structure = self.feedback.observe_structure(&input);
        if novelty.is_interesting() {
            self.report_new_coverage(input, pick, novelty, valid);
        } else if let Some(pick) = pick {
            self.scheduler.after_run(pick, false, &mut self.queues);
        }
        if self.feedback.take_newly_guided() {
            // The property gives a real signal now: drop the seeds kept for their shape alone.
            self.queues
                .retain(|seed| !Feedback::structure_only(&seed.features));
        }
        None
    }

    /// Keeps an interesting input: in memory (valid or discarded queue) and in the corpus
    /// directory; rewards the seed it came from.
    fn report_new_coverage(&mut self, input: T, pick: Option<Pick>, novelty: Novelty, valid: bool) {
        self.last_progress = self.stats.tests;
        let lineage = self.lineage(pick);
        let depth = match pick {
            Some(Pick::Mutate { queue, slot, .. }) => self.queues.seed(queue, slot).depth + 1,
            _ => 0,
        };
        let bytes = codec::to_bytes(&input);
        if let Some(disk) = &mut self.disk {
            disk.save(&bytes);
        }
        if let Some(pick) = pick {
            self.scheduler.after_run(pick, true, &mut self.queues);
        }
        for &op in &self.applied {
            self.operators_kept[op as usize] += 1;
        }
        self.stats.seeds_found += 1;
        let kind = if valid {
            QueueKind::Valid
        } else {
            QueueKind::Discarded
        };
        let energy = self.scheduler.energy(novelty.total(), depth, kind);
        let seed = Seed {
            value: input,
            energy,
            base_energy: energy,
            lineage,
            depth,
            novelty: novelty.total(),
            found: 0,
            picks: 0,
            features: self.feedback.discovered().to_vec(),
            size: u32::try_from(bytes.len()).unwrap_or(u32::MAX),
        };
        self.scheduler
            .admit(&mut self.queues, kind, seed, &mut self.cx);
    }

    /// Runs the property once, under the watchdog when a per-test limit is set.
    fn execute(&mut self, input: &T) -> Verdict {
        if let Some(watchdog) = &self.watchdog {
            watchdog.arm(codec::to_bytes(input));
        }
        let verdict = executor::execute(&mut self.property, input, &self.feedback);
        if let Some(watchdog) = &self.watchdog {
            watchdog.disarm();
        }
        verdict
    }

    /// The operators that produced the current test: its parent's lineage plus this mutation.
    fn lineage(&self, pick: Option<Pick>) -> Vec<Operator> {
        let mut lineage = match pick {
            Some(Pick::Mutate { queue, slot, .. }) => self.queues.seed(queue, slot).lineage.clone(),
            _ => return Vec::new(),
        };
        lineage.extend_from_slice(&self.applied);
        if lineage.len() > MAX_LINEAGE {
            lineage.drain(..lineage.len() - MAX_LINEAGE);
        }
        lineage
    }

    /// Adds the last run's `assume!` sites and labels to the per-site counts.
    fn count_sites(&mut self) {
        let sites = &mut self.site_counts;
        feedback::with_last_run(|run| {
            for &(id, score) in &run.assumes {
                let index = id as usize;
                if sites.len() <= index {
                    sites.resize(index + 1, (0, 0));
                }
                sites[index].0 += 1;
                if score < 0.0 {
                    sites[index].1 += 1;
                }
            }
        });
    }

    /// Which budget is spent, if any. The clock is read only every `clock_every` tests, a number
    /// that adapts so reading it costs little on fast properties and overshoots little on slow ones.
    fn budget_spent(&mut self) -> Option<StopReason> {
        let stats = &self.stats;
        let config = self.config;
        if stats.valid >= config.cases {
            return Some(StopReason::Cases);
        }
        if config.max_discards.is_some_and(|max| stats.discards >= max) {
            return Some(StopReason::Discards);
        }
        if config.max_tests.is_some_and(|max| stats.tests >= max) {
            return Some(StopReason::Tests);
        }
        let deadline = self.deadline?;
        if stats.tests < self.clock_next {
            return None;
        }
        let now = Instant::now();
        if now >= deadline {
            return Some(StopReason::Time);
        }
        // Aim at one look every millisecond or so.
        let since_last = now - self.clock_last;
        self.clock_last = now;
        self.clock_every = if since_last < Duration::from_millis(1) {
            (self.clock_every * 2).min(4096)
        } else {
            (self.clock_every / 2).max(1)
        };
        self.clock_next = stats.tests + self.clock_every;
        None
    }

    fn refresh_queue_stats(&mut self) {
        self.stats.queue_valid = self.queues.valid.len();
        self.stats.queue_discarded = self.queues.discarded.len();
    }

    fn finish_stats(&mut self) {
        self.refresh_queue_stats();
        let stats = &mut self.stats;
        stats.elapsed = self.started.elapsed();
        stats.tests_per_second = stats.tests as f64 / stats.elapsed.as_secs_f64().max(1e-9);
        stats.unique_valid = self.unique.count();
        stats.coverage_points = self.feedback.coverage_points;
        stats.coverage_features = self.feedback.coverage_features;
        stats.label_points = self.feedback.labels_points;
        stats.structure_features = self.feedback.structure_features();
        stats.assume_sites = self
            .site_counts
            .iter()
            .enumerate()
            .filter(|(_, (evaluations, _))| *evaluations > 0)
            .map(|(id, &(evaluations, discards))| {
                let (location, expression) = feedback::assume::site(id as u32);
                AssumeStats {
                    location: location.into(),
                    expression: expression.into(),
                    evaluations,
                    discards,
                }
            })
            .collect();
        // Every registered label, so `sometimes!` conditions never satisfied show with 0 hits.
        stats.labels = (0..feedback::labels::LABELS.len())
            .map(|id| LabelStats {
                name: feedback::labels::name(id as u32).into(),
                hits: self.feedback.label_hits.get(id).copied().unwrap_or(0),
            })
            .collect();
        stats.targets = (self.feedback.targets_best().iter().enumerate())
            .filter(|(_, best)| best.is_finite())
            .map(|(id, &best)| (feedback::targets::name(id as u32).to_string(), best))
            .collect();
        stats.operators_kept = Operator::ALL
            .iter()
            .map(|&op| (op, self.operators_kept[op as usize]))
            .filter(|&(_, count)| count > 0)
            .collect();
    }

    /// Persists the failing input, shrinks it, persists the minimal one, and builds the report.
    fn report_failure(mut self, failed: Failed<T>) -> Report<T> {
        self.stats.stop = StopReason::Failure;
        self.finish_stats();
        self.status.finish(&self.stats);
        let original_bytes = codec::to_bytes(&failed.input);
        // Saved before shrinking: shrinking may hang or crash the process.
        self.save_regression(
            &original_bytes,
            &format!("unshrunk: {:?}", failed.input),
            None,
        );
        let shrunk = {
            let Fuzzer {
                property,
                cx,
                feedback,
                watchdog,
                config,
                ..
            } = &mut self;
            shrink::minimize(
                failed.input.clone(),
                failed.kind,
                failed.message,
                cx,
                config.shrink_time,
                config.shrink_steps,
                |candidate| {
                    if let Some(watchdog) = watchdog {
                        watchdog.arm(codec::to_bytes(candidate));
                    }
                    let verdict = executor::execute(property, candidate, feedback);
                    if let Some(watchdog) = watchdog {
                        watchdog.disarm();
                    }
                    verdict
                },
            )
        };
        let minimal_bytes = codec::to_bytes(&shrunk.minimal);
        self.save_regression(
            &minimal_bytes,
            &format!("minimal: {:?}", shrunk.minimal),
            Some(&original_bytes),
        );
        let failure = Failure {
            original: failed.input,
            minimal: shrunk.minimal,
            message: shrunk.message,
            kind: shrunk.kind,
            seed: self.seed,
            shrink_steps: shrunk.steps,
            shrink_candidates: shrunk.tried,
            shrink_note: shrunk.stopped_by.map(|limit| limit.advice()),
            operators: failed.lineage,
            regression_file: self
                .regressions
                .as_ref()
                .map(|file| file.path().to_path_buf()),
            name: self.config.name.clone(),
            tests: self.stats.tests,
            discards: self.stats.discards,
        };
        Report {
            stats: self.stats,
            failure: Some(failure),
        }
    }

    fn save_regression(&mut self, bytes: &[u8], comment: &str, replacing: Option<&[u8]>) {
        if let Some(file) = &mut self.regressions {
            if let Err(error) = file.save(bytes, &one_line(comment, 200), replacing) {
                eprintln!(
                    "typefuzz: could not save the failing input to {}: {error}",
                    file.path().display()
                );
            }
        }
    }
}

/// Where hang inputs go: beside the regression file, else the current directory (libFuzzer's).
fn artifact_dir(regression_path: Option<&PathBuf>) -> PathBuf {
    regression_path
        .and_then(|path| path.parent())
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.to_path_buf())
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Decodes and formats an input (for the hang report, which only has bytes).
fn describe<T: Mutate + Debug>(bytes: &[u8]) -> String {
    format!("{:?}", codec::from_bytes::<T>(bytes))
}

/// A seed for runs without one: different on every run (the report prints it for replay).
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.write_u32(std::process::id());
    hasher.finish()
}
