//! Several worker processes on one property, sharing seeds through the corpus directory:
//! `TYPEFUZZ_JOBS=N` ([`Config::jobs`], `cargo typefuzz test -j N`) makes [`check`](crate::check)
//! use N cores on one test.
//!
//! # How it works
//!
//! - The test binary is run again once per worker, filtered to the running test
//!   (`<test binary> <test name> --exact`; libtest runs each test on a thread named after it,
//!   which is how the engine knows the name). An environment variable tells each copy which
//!   worker it is and which [`check`](crate::check) call of the test to run; the test's other
//!   `check` calls return at once in a worker, with an empty passing report.
//! - Each worker runs the ordinary loop with its own seed (the run's seed plus its index), its
//!   share of the count budgets (`cases`, `max_tests` and `max_discards` divided by N, rounded
//!   up; `time` is not divided: every worker runs that long), and the same corpus directory:
//!   the one the user named ([`Config::corpus`]) or a temporary one. A test's kept corpus
//!   ([`Config::corpus_path`], one file) is replayed by each worker within its share of the
//!   budget and written back by each when it ends, merged with what the others wrote (see
//!   `corpus::kept`).
//! - About once a second each worker lists the directory and runs the inputs the other workers
//!   wrote since (new file names) through the ordinary path: an input is kept if it is
//!   interesting to *this* worker's feedback. The directory is safe for concurrent writers
//!   (one file per input, written to a temporary name and renamed).
//! - A worker writes its results (statistics, failure) and then a `done` file, and exits with
//!   status 0 as soon as its loop is over, before the rest of the test runs. A worker that exits
//!   otherwise (a panic, an abort, a signal, a result it could not write) ends the run as a
//!   failure, with the last lines of its output: nothing a worker found is lost silently.
//! - The first worker to fail shrinks its failure and writes the minimal input; the others are
//!   stopped, and this process replays the minimal input itself, so the report, the regression
//!   file and the panic message are those of an ordinary run. The statistics of all workers are
//!   merged: counts are summed ([`Stats::unique_valid`] too, so an input two workers both ran
//!   counts twice), coverage, label and structure counts are the best worker's, and
//!   [`Stats::workers`] and [`Stats::seeds_imported`] say how many workers ran and how many
//!   seeds they took from each other. Per-site label, `assume!` and target statistics are not
//!   merged (they are empty in the merged report).
//!
//! Only libtest test binaries (`cargo test`, `cargo typefuzz test`) can be re-run this way.
//! Elsewhere — a doctest, a custom test harness, a thread the test spawned itself — the run
//! stays in this process and says so once on stderr. With `cargo test`'s parallel test threads,
//! every running test starts its own N workers: filter to the property you want to campaign on
//! (`TYPEFUZZ_JOBS=2 TYPEFUZZ_TIME=10m cargo test my_property`).
//!
//! ```
//! use typefuzz::{check, Config};
//!
//! // Doctests are not libtest binaries: this run stays in one process (and says so).
//! let config = Config::default().with_jobs(2).with_cases(100).with_seed(1);
//! let report = check(&config, |cx| cx.generate::<u8>(), |_| ());
//! assert!(report.passed());
//! assert_eq!(report.stats.workers, 0);
//! ```
//!
//! For more than one machine, use cargo-fuzz's libFuzzer `-fork`/`-jobs` or ClusterFuzzLite
//! with a `typefuzz::fuzz_target!` (see the `cargo-typefuzz` crate's documentation).

use std::cell::Cell;
use std::fmt::Debug;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;
use std::time::{Duration, Instant};

use crate::files::write_atomically;
use crate::{codec, Config, InputSource, Mutate, Report, Stats, StopReason};

/// Tells a re-run test binary that it is a worker: `<index> <jobs> <call> <seed>`.
const WORKER_VAR: &str = "__TYPEFUZZ_WORKER";
/// The directory where workers write their statistics and failures.
const DIR_VAR: &str = "__TYPEFUZZ_WORKER_DIR";
/// The shared corpus directory.
const CORPUS_VAR: &str = "__TYPEFUZZ_WORKER_CORPUS";
/// Set when the run keeps its corpus itself ([`Config::keep_seeds`]): each worker replays and
/// writes back the kept file like any run (see `corpus::kept`), and the shared directory is a
/// temporary one for the exchange only; unset for a directory the user named or a run that
/// keeps no corpus.
const KEPT_VAR: &str = "__TYPEFUZZ_WORKER_CORPUS_KEPT";
/// Makes a worker's writes of the files whose names start with its value fail (see
/// [`Worker::finish`]); for tests.
const FAULT_VAR: &str = "__TYPEFUZZ_WORKER_WRITE_FAULT";

/// How often a worker publishes its statistics and imports the others' seeds.
const SYNC_INTERVAL: Duration = Duration::from_secs(1);
/// Tests between two looks at the clock (a cheap property runs ~10^6 tests/s).
const SYNC_CHECK_EVERY: u64 = 512;
/// How often the parent looks at its workers.
const POLL_INTERVAL: Duration = Duration::from_millis(10);

thread_local! {
    /// [`check`](crate::check) calls made so far on this thread (libtest: in this test).
    static CALLS: Cell<u32> = const { Cell::new(0) };
}

/// What this [`check`](crate::check) call does.
pub(crate) enum Role {
    /// An ordinary run in this process.
    Single,
    /// Starts the workers and waits for them.
    Parent(Parent),
    /// Runs as one worker of a parent's run.
    Worker(Worker),
    /// A worker process, but another `check` call of the test is the one it runs.
    Skip,
}

/// The role of the current [`check`](crate::check) call under `config`.
pub(crate) fn role(config: &Config) -> Role {
    let call = CALLS.with(|calls| calls.replace(calls.get() + 1));
    if let Some(spec) = std::env::var_os(WORKER_VAR) {
        return match Worker::from_env(&spec.to_string_lossy()) {
            Some(worker) if worker.call == call => Role::Worker(worker),
            Some(_) => Role::Skip,
            None => {
                eprintln!("typefuzz: ignoring malformed {WORKER_VAR}={spec:?}");
                Role::Single
            }
        };
    }
    if config.jobs <= 1 {
        return Role::Single;
    }
    let thread = std::thread::current();
    match thread.name().filter(|name| *name != "main") {
        Some(test) => Role::Parent(Parent {
            test: test.to_owned(),
            call,
            jobs: config.jobs,
        }),
        None => {
            warn_once_single();
            Role::Single
        }
    }
}

fn warn_once_single() {
    static WARNED: Once = Once::new();
    WARNED.call_once(|| {
        eprintln!(
            "typefuzz: TYPEFUZZ_JOBS asks for several workers, but this check does not run on a \
             libtest test thread (a doctest, a custom harness or a thread of its own), so its \
             test binary cannot be re-run for one test; running in this process only"
        );
    });
}

/// A run's workers, seen from the process that starts them.
pub(crate) struct Parent {
    /// The test's name, as libtest filters it.
    test: String,
    /// Which `check` call of the test this is.
    call: u32,
    jobs: usize,
}

/// A started worker process.
struct Running {
    child: Child,
    status: Option<ExitStatus>,
}

impl Parent {
    /// Runs the workers and returns the merged report; `single` runs the loop in this process
    /// (used to replay a worker's failure, or when workers cannot be started).
    pub(crate) fn run<T: Mutate + Debug>(
        self,
        config: &Config,
        single: impl FnOnce(&Config) -> Report<T>,
    ) -> Report<T> {
        let started = Instant::now();
        let dir = work_dir();
        let kept = config.corpus.is_none() && config.corpus_path::<T>().is_some();
        // A directory the user named is shared as it is; a kept corpus is a file, which each
        // worker replays and writes back itself, exchanging its finds through a directory of
        // the run's own.
        let corpus = match config.corpus_path::<T>() {
            Some(named) if !kept => named,
            _ => dir.join("corpus"),
        };
        let seed = config.seed.unwrap_or_else(crate::fuzzer::random_seed);
        let mut workers = match self.spawn(&dir, &corpus, kept, seed) {
            Ok(workers) => workers,
            Err(why) => {
                eprintln!("typefuzz: could not start workers ({why}); running in this process");
                let _ = fs::remove_dir_all(&dir);
                return single(config);
            }
        };
        // The first worker to finish with a failure (or to die) ends the run for all.
        let mut ended = None;
        while workers.iter().any(|w| w.status.is_none()) {
            for (index, worker) in workers.iter_mut().enumerate() {
                if worker.status.is_some() {
                    continue;
                }
                if let Ok(Some(status)) = worker.child.try_wait() {
                    worker.status = Some(status);
                    // A worker finished its loop cleanly when it wrote `done` (after everything
                    // else), reported no failure, and exited successfully: a worker whose test
                    // panicked, aborted or was killed after its loop (a failed write, an
                    // assertion on the report) ends the run as a failure.
                    // A worker that exits successfully without ever publishing statistics did
                    // not run the property (checked after the loop).
                    let finished = status.success()
                        && done_path(&dir, index).exists()
                        && !failure_path(&dir, index).exists();
                    let never_ran = status.success() && !stats_path(&dir, index).exists();
                    if !finished && !never_ran && ended.is_none() {
                        ended = Some(index);
                    }
                }
            }
            if ended.is_some() {
                for worker in workers.iter_mut().filter(|w| w.status.is_none()) {
                    // Our own child: stop it, and reap it so no zombie is left.
                    let _ = worker.child.kill();
                    worker.status = worker.child.wait().ok();
                }
                break;
            }
            std::thread::sleep(POLL_INTERVAL);
        }
        let per_worker: Vec<Option<Stats>> = (0..self.jobs)
            .map(|index| read_stats(&stats_path(&dir, index)))
            .collect();
        let mut merged = merge(&per_worker, seed);
        merged.elapsed = started.elapsed();
        merged.tests_per_second = merged.tests as f64 / merged.elapsed.as_secs_f64().max(1e-9);
        self.print_summary(&per_worker);
        let report = match ended {
            None if per_worker.iter().all(Option::is_none) => {
                // Every worker exited normally without running the property: the binary did
                // not run the test by name (not a libtest binary after all).
                warn_once_single();
                single(config)
            }
            None => Report {
                stats: merged,
                failure: None,
            },
            Some(index) => {
                let ended = (index, workers[index].status);
                self.failed(config, &dir, ended, seed, merged, single)
            }
        };
        let _ = fs::remove_dir_all(&dir);
        report
    }

    /// Starts the workers, their output going to `<dir>/worker-<index>.log`.
    fn spawn(
        &self,
        dir: &Path,
        corpus: &Path,
        kept: bool,
        seed: u64,
    ) -> std::io::Result<Vec<Running>> {
        fs::create_dir_all(dir)?;
        fs::create_dir_all(corpus)?;
        let exe = std::env::current_exe()?;
        let mut workers: Vec<Running> = Vec::with_capacity(self.jobs);
        for index in 0..self.jobs {
            let log = File::create(log_path(dir, index))?;
            let mut command = Command::new(&exe);
            if kept {
                command.env(KEPT_VAR, "1");
            } else {
                command.env_remove(KEPT_VAR);
            }
            let spawned = command
                .args([self.test.as_str(), "--exact", "--include-ignored"])
                .args(["--test-threads=1", "--nocapture"])
                .env(
                    WORKER_VAR,
                    format!(
                        "{index} {} {} {}",
                        self.jobs,
                        self.call,
                        worker_seed(seed, index)
                    ),
                )
                .env(DIR_VAR, dir)
                .env(CORPUS_VAR, corpus)
                .stdin(Stdio::null())
                .stdout(log.try_clone()?)
                .stderr(log)
                .spawn();
            match spawned {
                Ok(child) => workers.push(Running {
                    child,
                    status: None,
                }),
                Err(error) => {
                    for worker in &mut workers {
                        let _ = worker.child.kill();
                        let _ = worker.child.wait();
                    }
                    return Err(error);
                }
            }
        }
        Ok(workers)
    }

    /// The report of a run whose worker `index` failed (and exited with `status`): its minimal
    /// input replayed here.
    fn failed<T: Mutate + Debug>(
        &self,
        config: &Config,
        dir: &Path,
        (index, status): (usize, Option<ExitStatus>),
        seed: u64,
        merged: Stats,
        single: impl FnOnce(&Config) -> Report<T>,
    ) -> Report<T> {
        let Ok(bytes) = fs::read(failure_path(dir, index)) else {
            // The worker died without reporting a failing input: a crash of the process, a
            // kill from outside, or a failed write of its results.
            let status = status.map_or_else(|| "status unknown".to_owned(), |s| s.to_string());
            let log = fs::read_to_string(log_path(dir, index)).unwrap_or_default();
            // Backtraces left out (`RUST_BACKTRACE` would push the panic message out of view).
            let tail: Vec<&str> = log
                .lines()
                .filter(|line| !is_backtrace_line(line))
                .rev()
                .take(30)
                .collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            panic!(
                "typefuzz: worker {index} of {} on `{}` ended ({status}) without reporting a \
                 failing input; the last lines of its output ({}):\n{}",
                self.jobs,
                self.test,
                log_path(dir, index).display(),
                tail.join("\n")
            );
        };
        let replay = dir.join("replay");
        let replayed = fs::create_dir_all(&replay)
            .and_then(|()| write_atomically(&replay.join("failure"), &bytes));
        let mut replay_config = config.clone().with_jobs(1).with_max_tests(1);
        replay_config.corpus = Some(replay);
        let mut report = match replayed {
            Ok(()) => single(&replay_config),
            Err(error) => panic!(
                "typefuzz: worker {index} found a failure, but its input could not be written to \
                 {} for replay: {error}",
                dir.display()
            ),
        };
        let Some(failure) = &mut report.failure else {
            let message =
                fs::read_to_string(dir.join(format!("failure-{index}.txt"))).unwrap_or_default();
            panic!(
                "typefuzz: worker {index} of {} found a failure that does not happen again when \
                 its minimal input is replayed in this process (a flaky property); the worker \
                 reported:\n{message}",
                self.jobs
            );
        };
        failure.seed = worker_seed(seed, index);
        failure.source = InputSource::Workers;
        failure.tests = merged.tests;
        failure.discards = merged.discards;
        failure.notes.push(format!(
            "found by worker {index} of {} (seed {}), which shared seeds with the others: the \
             seed alone does not replay the run; the saved input does (the original input here \
             is the worker's minimal one, replayed in this process)",
            self.jobs, failure.seed
        ));
        report.stats = Stats {
            stop: StopReason::Failure,
            ..merged
        };
        report
    }

    /// One line on stderr: what each worker did.
    fn print_summary(&self, per_worker: &[Option<Stats>]) {
        let parts: Vec<String> = per_worker
            .iter()
            .enumerate()
            .map(|(index, stats)| match stats {
                Some(stats) => format!(
                    "worker {index}: {} tests, {} seeds imported",
                    stats.tests, stats.seeds_imported
                ),
                None => format!("worker {index}: no statistics"),
            })
            .collect();
        eprintln!(
            "typefuzz: {} workers on `{}`: {}",
            self.jobs,
            self.test,
            parts.join("; ")
        );
    }
}

/// Whether `line` belongs to a printed backtrace (its header, frames, locations or closing note).
fn is_backtrace_line(line: &str) -> bool {
    let trimmed = line.trim_start();
    let frame = trimmed
        .split_once(": ")
        .is_some_and(|(number, _)| number.bytes().all(|b| b.is_ascii_digit()));
    line.starts_with("stack backtrace:")
        || line.starts_with("note: Some details are omitted")
        || (line.starts_with(' ') && (frame || trimmed.starts_with("at ")))
}

/// A fresh directory for one run's worker files.
fn work_dir() -> PathBuf {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    std::env::temp_dir().join(format!(
        "typefuzz-workers-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ))
}

fn worker_seed(seed: u64, index: usize) -> u64 {
    seed.wrapping_add(index as u64)
}

fn stats_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("stats-{index}"))
}

fn failure_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("failure-{index}"))
}

fn done_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("done-{index}"))
}

fn log_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("worker-{index}.log"))
}

/// In a worker process of a run on a kept corpus, the directory through which the workers
/// exchange seeds (beside the kept file, which each worker opens as any run does); `None`
/// elsewhere.
pub(crate) fn exchange_dir() -> Option<PathBuf> {
    std::env::var_os(WORKER_VAR)?;
    std::env::var_os(KEPT_VAR)?;
    std::env::var_os(CORPUS_VAR).map(PathBuf::from)
}

/// One worker, seen from inside the worker process.
#[derive(Clone, Debug)]
pub(crate) struct Worker {
    index: usize,
    jobs: usize,
    call: u32,
    seed: u64,
    dir: PathBuf,
    corpus: PathBuf,
    /// Whether `corpus` is the test's kept directory ([`KEPT_VAR`]).
    kept: bool,
    /// The test count at which to look at the clock again.
    check_at: u64,
    next_sync: Instant,
}

impl Worker {
    /// The worker described by `spec` (the value of [`WORKER_VAR`]) and the directory variables.
    fn from_env(spec: &str) -> Option<Worker> {
        let mut fields = spec.split_whitespace().map(str::parse::<u64>);
        let mut next = || fields.next()?.ok();
        let (index, jobs, call, seed) = (next()?, next()?, next()?, next()?);
        Some(Worker {
            index: usize::try_from(index).ok()?,
            jobs: usize::try_from(jobs).ok().filter(|&jobs| jobs > 0)?,
            call: u32::try_from(call).ok()?,
            seed,
            dir: std::env::var_os(DIR_VAR)?.into(),
            corpus: std::env::var_os(CORPUS_VAR)?.into(),
            kept: std::env::var_os(KEPT_VAR).is_some(),
            check_at: SYNC_CHECK_EVERY,
            next_sync: Instant::now() + SYNC_INTERVAL,
        })
    }

    /// This worker's configuration: its seed, its share of the count budgets, the shared
    /// corpus, no status line.
    pub(crate) fn config(&self, config: &Config) -> Config {
        let share = |count: u64| count.div_ceil(self.jobs as u64);
        let mut config = config.clone().with_seed(self.seed).with_jobs(1);
        config.cases = share(config.cases);
        config.max_tests = config.max_tests.map(share);
        config.max_discards = config.max_discards.map(share);
        if !self.kept {
            // The kept file is the one `Config::corpus_path` finds in the worker too, and the
            // exchange directory comes from `exchange_dir`.
            config.corpus = Some(self.corpus.clone());
        }
        config.progress = Some(false);
        config
    }

    /// Whether it is time to publish statistics and import seeds (about once a second).
    #[inline]
    pub(crate) fn due(&mut self, tests: u64) -> bool {
        if tests < self.check_at {
            return false;
        }
        self.check_at = tests + SYNC_CHECK_EVERY;
        let now = Instant::now();
        if now < self.next_sync {
            return false;
        }
        self.next_sync = now + SYNC_INTERVAL;
        true
    }

    /// Writes the statistics so far, for the parent (read if this worker is stopped).
    pub(crate) fn publish(&self, stats: &Stats) {
        // Best effort: a missing file only leaves this worker out of the merged counts.
        let _ = write_atomically(
            &stats_path(&self.dir, self.index),
            write_stats(stats).as_bytes(),
        );
    }

    /// Publishes the final statistics, the minimal input if the run failed (which makes the
    /// parent stop the other workers and replay it) and, last, that the loop is done: the parent
    /// reads "done and no failure file" as a pass, so `done` is written only once everything
    /// before it is on disk.
    ///
    /// Then the worker process exits with status 0: what the test does after `check` (say, an
    /// assertion on statistics that only the merged report satisfies) is the parent's business.
    /// Any other exit status, before this point, is a failure of the run.
    ///
    /// # Panics
    ///
    /// If a file cannot be written (a full disk, a permission error): the test fails in this
    /// worker, whose exit status the parent checks, instead of a found failure vanishing.
    pub(crate) fn finish<T: Mutate + Debug>(&self, report: &Report<T>) -> ! {
        let mut files = Vec::new();
        if let Some(failure) = &report.failure {
            files.push((
                self.dir.join(format!("failure-{}.txt", self.index)),
                failure.to_string().into_bytes(),
            ));
            files.push((
                failure_path(&self.dir, self.index),
                codec::to_bytes(&failure.minimal),
            ));
        }
        files.push((
            stats_path(&self.dir, self.index),
            write_stats(&report.stats).into_bytes(),
        ));
        files.push((done_path(&self.dir, self.index), Vec::new()));
        for (path, bytes) in files {
            if let Err(error) = self.write(&path, &bytes) {
                let found = match &report.failure {
                    Some(failure) => format!("it found a failure:\n{failure}\n"),
                    None => String::new(),
                };
                panic!(
                    "typefuzz: worker {} could not write {}: {error}; {found}free disk space \
                     in {} (the system's temporary directory) and run again",
                    self.index,
                    path.display(),
                    self.dir.display()
                );
            }
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        std::process::exit(0)
    }

    /// Writes one of the files the parent reads. `__TYPEFUZZ_WORKER_WRITE_FAULT=<file name
    /// prefix>` makes writing the matching files fail, as a full disk would: how the tests check
    /// that such an error fails the run instead of passing it.
    fn write(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if let Some(prefix) = std::env::var_os(FAULT_VAR) {
            if name.starts_with(&*prefix.to_string_lossy()) {
                return Err(std::io::Error::other(
                    "injected by __TYPEFUZZ_WORKER_WRITE_FAULT",
                ));
            }
        }
        write_atomically(path, bytes)
    }
}

/// The report of a `check` call that a worker process skips (another call is its job).
pub(crate) fn skipped<T>() -> Report<T> {
    Report {
        stats: Stats::default(),
        failure: None,
    }
}

/// The statistics a worker publishes: name and value per line.
fn write_stats(stats: &Stats) -> String {
    let mut text: String = counts(stats)
        .iter()
        .map(|(name, value)| format!("{name} {value}\n"))
        .collect();
    text.push_str(&format!("stop {:?}\n", stats.stop));
    text
}

fn read_stats(path: &Path) -> Option<Stats> {
    let text = fs::read_to_string(path).ok()?;
    let mut stats = Stats::default();
    for line in text.lines() {
        let (name, value) = line.split_once(' ')?;
        if name == "stop" {
            stats.stop = match value {
                "Discards" => StopReason::Discards,
                "Tests" => StopReason::Tests,
                "Time" => StopReason::Time,
                "Failure" => StopReason::Failure,
                _ => StopReason::Cases,
            };
            continue;
        }
        set_count(&mut stats, name, value.parse().ok()?);
    }
    Some(stats)
}

/// The counts a worker publishes, by name.
fn counts(stats: &Stats) -> [(&'static str, u64); 17] {
    [
        ("tests", stats.tests),
        ("valid", stats.valid),
        ("discards", stats.discards),
        ("generated", stats.generated),
        ("mutated", stats.mutated),
        ("unique_valid", stats.unique_valid),
        ("coverage_points", stats.coverage_points),
        ("coverage_features", stats.coverage_features),
        ("label_points", stats.label_points),
        ("structure_features", stats.structure_features),
        ("seeds_found", stats.seeds_found),
        ("queue_valid", stats.queue_valid as u64),
        ("queue_discarded", stats.queue_discarded as u64),
        ("regressions_replayed", stats.regressions_replayed),
        ("corpus_loaded", stats.corpus_loaded),
        ("restarts", stats.restarts),
        ("seeds_imported", stats.seeds_imported),
    ]
}

fn set_count(stats: &mut Stats, name: &str, value: u64) {
    let size = usize::try_from(value).unwrap_or(usize::MAX);
    match name {
        "tests" => stats.tests = value,
        "valid" => stats.valid = value,
        "discards" => stats.discards = value,
        "generated" => stats.generated = value,
        "mutated" => stats.mutated = value,
        "unique_valid" => stats.unique_valid = value,
        "coverage_points" => stats.coverage_points = value,
        "coverage_features" => stats.coverage_features = value,
        "label_points" => stats.label_points = value,
        "structure_features" => stats.structure_features = value,
        "seeds_found" => stats.seeds_found = value,
        "queue_valid" => stats.queue_valid = size,
        "queue_discarded" => stats.queue_discarded = size,
        "regressions_replayed" => stats.regressions_replayed = value,
        "corpus_loaded" => stats.corpus_loaded = value,
        "restarts" => stats.restarts = value,
        "seeds_imported" => stats.seeds_imported = value,
        _ => {}
    }
}

/// The statistics of the whole run: counts summed, coverage-like counts the best worker's.
fn merge(per_worker: &[Option<Stats>], seed: u64) -> Stats {
    const BEST_OF: [&str; 4] = [
        "coverage_points",
        "coverage_features",
        "label_points",
        "structure_features",
    ];
    let mut merged = Stats {
        seed,
        workers: u32::try_from(per_worker.len()).unwrap_or(u32::MAX),
        stop: StopReason::Cases,
        ..Stats::default()
    };
    for stats in per_worker.iter().flatten() {
        // Every worker has the same budget: the first one's reason is the run's.
        if merged.tests == 0 {
            merged.stop = stats.stop;
        }
        for ((name, total), (_, value)) in counts(&merged).into_iter().zip(counts(stats)) {
            let combined = if BEST_OF.contains(&name) {
                total.max(value)
            } else {
                total.saturating_add(value)
            };
            set_count(&mut merged, name, combined);
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_survive_the_file_format() {
        let stats = Stats {
            tests: 10,
            valid: 7,
            discards: 3,
            queue_valid: 4,
            coverage_points: 99,
            seeds_imported: 2,
            stop: StopReason::Time,
            ..Stats::default()
        };
        let dir = std::env::temp_dir().join(format!("typefuzz-stats-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("stats");
        fs::write(&path, write_stats(&stats)).unwrap();
        let read = read_stats(&path).expect("readable");
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(counts(&read), counts(&stats));
        assert_eq!(read.stop, StopReason::Time);
        assert_eq!(read_stats(&dir.join("missing")), None);
    }

    #[test]
    fn merging_sums_counts_and_keeps_the_best_coverage() {
        let worker = |tests, coverage_points, seeds_imported| {
            Some(Stats {
                tests,
                coverage_points,
                seeds_imported,
                ..Stats::default()
            })
        };
        let merged = merge(&[worker(100, 5, 1), None, worker(50, 8, 2)], 7);
        assert_eq!(merged.tests, 150);
        assert_eq!(merged.coverage_points, 8);
        assert_eq!(merged.seeds_imported, 3);
        assert_eq!((merged.seed, merged.workers), (7, 3));
    }

    #[test]
    fn a_worker_gets_its_share_of_the_counts_and_its_own_seed() {
        let worker = Worker {
            index: 1,
            jobs: 3,
            call: 0,
            seed: 12,
            dir: PathBuf::from("d"),
            corpus: PathBuf::from("c"),
            kept: false,
            check_at: 0,
            next_sync: Instant::now(),
        };
        let config = Config::default()
            .with_cases(10)
            .with_max_tests(7)
            .with_time(Duration::from_secs(5))
            .with_jobs(3);
        let mine = worker.config(&config);
        assert_eq!((mine.cases, mine.max_tests), (4, Some(3)));
        assert_eq!(
            mine.time,
            Some(Duration::from_secs(5)),
            "time is not divided"
        );
        assert_eq!((mine.seed, mine.jobs), (Some(12), 1));
        assert_eq!(mine.corpus.as_deref(), Some(Path::new("c")));
        let kept = Worker {
            kept: true,
            ..worker
        };
        assert_eq!(
            kept.config(&config).corpus,
            None,
            "the kept file is found by name, and kept within its budget"
        );
    }

    #[test]
    fn backtraces_are_left_out_of_a_worker_log_tail() {
        assert!(is_backtrace_line("stack backtrace:"));
        assert!(is_backtrace_line("   0: __rustc::rust_begin_unwind"));
        assert!(is_backtrace_line(
            "             at ./tests/worker_faults.rs:30:5"
        ));
        assert!(!is_backtrace_line(
            "typefuzz: worker 0 could not write failure-0: no space"
        ));
        assert!(!is_backtrace_line("failure: property returned false"));
    }

    #[test]
    fn worker_specs_are_parsed_strictly() {
        // Without the directory variables no spec is complete; with a bad count, never.
        assert!(Worker::from_env("0 2 0").is_none());
        assert!(Worker::from_env("0 0 0 5").is_none());
        assert!(Worker::from_env("x 2 0 5").is_none());
    }
}
