//! The benchmark runner: strategies side by side on every workload, measured ETNA's way (several
//! trials per task with a timeout; a task is solved only when every trial finds the bug; time and
//! tests to failure recorded per run), and the report (CSV, markdown, SVG charts).
//!
//! Modes (`cargo run --release -p typefuzz-bench -- <mode> [flags]`):
//!
//! - `quick`: the README demo — every IFC mutant, the BST tasks and the micro targets, one
//!   trial, short caps, about a minute; ends with `<workload>: <strategy> found <n>/<total>`.
//! - `full`: the protocol — 10 trials, 60 s cap, every strategy and ablation, all controls.
//! - `throughput`: tests per second on a property without precondition.
//! - `sancov`: the SanitizerCoverage line; only meaningful in an instrumented build (see
//!   `tests/sancov.rs`).
//! - `historical`: real bugs of published crate releases ([`crate::historical`]), plain proptest,
//!   the proptest drop-in and `typefuzz::check` on the derived types, 5 trials, 10 s caps; the
//!   fixed releases are controls.
//!
//! Flags: `--trials N`, `--control-trials N` (at most `--trials`; the no-bug controls, which
//! always run to their cap), `--cap SECONDS` (every strategy), `--only ifc|bst|micro` (repeatable),
//! `--strategies a,b,...`, `--seed N`, `--out DIR` (default: `target/typefuzz-bench/quick` for
//! `quick`, `bench/results/<mode>` otherwise), `--max-size N` (overrides every workload's
//! typefuzz size bound).

mod historical;
mod report;
mod stats;
mod strategy;
mod workloads;

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(crate) use strategy::{Strategy, Trial};
pub(crate) use workloads::{Job, Workload};

/// One measured trial.
pub(crate) struct Row {
    pub(crate) job: Arc<Job>,
    pub(crate) strategy: Strategy,
    pub(crate) trial: usize,
    pub(crate) seed: u64,
    pub(crate) cap: Duration,
    pub(crate) result: Trial,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Quick,
    Full,
    Throughput,
    Sancov,
    Historical,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Quick => "quick",
            Mode::Full => "full",
            Mode::Throughput => "throughput",
            Mode::Sancov => "sancov",
            Mode::Historical => "historical",
        }
    }
}

struct Options {
    mode: Mode,
    trials: usize,
    cap: Option<Duration>,
    only: Vec<Workload>,
    /// Trials of the no-bug controls (`--control-trials`; default: `trials`).
    control_trials: Option<usize>,
    strategies: Option<Vec<Strategy>>,
    seed: u64,
    out: PathBuf,
    command: String,
}

const USAGE: &str = "\
usage: typefuzz-bench <quick|full|throughput|sancov|historical> [--trials N] [--control-trials N]
                      [--cap SECONDS]
                      [--only ifc|bst|micro|historical]... [--strategies a,b,...] [--seed N]
                      [--out DIR] [--max-size N]
strategies: proptest, proptest-dropin, quickcheck, typefuzz-generate, typefuzz-fuzzchick, typefuzz,
            typefuzz-no-grow, typefuzz-no-drop, typefuzz-no-subterm, typefuzz-no-feedback,
            typefuzz-sancov, smart-generator";

fn parse(args: &[String]) -> Result<Options, String> {
    let mut it = args.iter();
    let mode = match it.next().map(String::as_str) {
        Some("quick") => Mode::Quick,
        Some("full") => Mode::Full,
        Some("throughput") => Mode::Throughput,
        Some("sancov") => Mode::Sancov,
        Some("historical") => Mode::Historical,
        Some(other) => return Err(format!("unknown mode `{other}`")),
        None => return Err("missing mode".into()),
    };
    let mut options = Options {
        mode,
        trials: match mode {
            Mode::Full => 10,
            Mode::Historical => 5,
            _ => 1,
        },
        cap: None,
        only: Vec::new(),
        control_trials: None,
        strategies: None,
        seed: 0x7f4a_7c15,
        out: default_out(mode),
        command: format!(
            "cargo run --release -p typefuzz-bench -- {}",
            args.join(" ")
        ),
    };
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--trials" => {
                options.trials = value()?.parse().map_err(|e| format!("--trials: {e}"))?;
            }
            "--control-trials" => {
                options.control_trials = Some(
                    value()?
                        .parse()
                        .map_err(|e| format!("--control-trials: {e}"))?,
                );
            }
            "--cap" => {
                let secs: f64 = value()?.parse().map_err(|e| format!("--cap: {e}"))?;
                options.cap =
                    Some(Duration::try_from_secs_f64(secs).map_err(|e| format!("--cap: {e}"))?);
            }
            "--only" => {
                let name = value()?;
                options.only.push(
                    Workload::parse(name).ok_or(format!("--only: unknown workload `{name}`"))?,
                );
            }
            "--strategies" => {
                let list = value()?;
                let parsed: Result<Vec<_>, _> = list
                    .split(',')
                    .map(|s| Strategy::parse(s.trim()).ok_or(format!("unknown strategy `{s}`")))
                    .collect();
                options.strategies = Some(parsed?);
            }
            "--max-size" => {
                let n: usize = value()?.parse().map_err(|e| format!("--max-size: {e}"))?;
                strategy::MAX_SIZE_OVERRIDE.store(n, std::sync::atomic::Ordering::Relaxed);
            }
            "--seed" => options.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--out" => options.out = PathBuf::from(value()?),
            other => return Err(format!("unknown flag `{other}`")),
        }
    }
    if options.trials == 0 {
        return Err("--trials must be at least 1".into());
    }
    Ok(options)
}

/// Where results go without `--out`. The README demo (`quick`) writes under the workspace's
/// `target/`, so trying it does not rewrite the committed results in `bench/results/quick`
/// (`--out bench/results/quick` updates those on purpose); the other modes write their
/// committed directory.
fn default_out(mode: Mode) -> PathBuf {
    let bench = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    match mode {
        Mode::Quick => bench
            .join("..")
            .join("target")
            .join("typefuzz-bench")
            .join("quick"),
        _ => bench.join("results").join(mode.name()),
    }
}

/// Runs the benchmark with command-line `args` (without the program name) and returns the
/// process exit code: 0 on success, 1 if a no-bug control reported a failure, 2 on a usage
/// error.
///
/// ```no_run
/// let code = typefuzz_bench::runner::run_cli(&["quick".to_string()]);
/// std::process::exit(code);
/// ```
pub fn run_cli(args: &[String]) -> i32 {
    let options = match parse(args) {
        Ok(options) => options,
        Err(error) => {
            eprintln!("typefuzz-bench: {error}\n{USAGE}");
            return 2;
        }
    };
    // The SUTs may panic (that is a failure, counted by the loops); keep stderr for the status.
    std::panic::set_hook(Box::new(|_| {}));
    match options.mode {
        Mode::Throughput => report::throughput(&options),
        _ => run_jobs(&options),
    }
}

/// Strategies per mode (before `--strategies`).
fn default_strategies(mode: Mode) -> Vec<Strategy> {
    match mode {
        Mode::Quick => vec![
            Strategy::Proptest,
            Strategy::Quickcheck,
            Strategy::TypefuzzFuzzChick,
            Strategy::Typefuzz,
        ],
        Mode::Full => Strategy::ALL
            .into_iter()
            .filter(|&s| s != Strategy::Sancov)
            .collect(),
        Mode::Sancov => vec![Strategy::Sancov, Strategy::Typefuzz],
        Mode::Historical => vec![
            Strategy::Proptest,
            Strategy::ProptestDropIn,
            Strategy::Typefuzz,
        ],
        Mode::Throughput => vec![],
    }
}

/// The cap of one trial: `--cap` if given, else the mode's default for this workload and
/// strategy. Quick mode gives the baselines half of typefuzz's cap on IFC and the micro
/// targets, where they are not expected to find anything, to stay near a minute.
fn cap_for(options: &Options, workload: Workload, strategy: Strategy) -> Duration {
    if let Some(cap) = options.cap {
        return cap;
    }
    let baseline = matches!(strategy, Strategy::Proptest | Strategy::Quickcheck);
    let ms = match (options.mode, workload) {
        (Mode::Quick, Workload::Bst) => 250,
        (Mode::Quick, _) if baseline => 500,
        (Mode::Quick, _) => 1000,
        (Mode::Sancov, _) => 5000,
        (Mode::Historical, _) => 10_000,
        _ => 60_000,
    };
    Duration::from_millis(ms)
}

fn run_jobs(options: &Options) -> i32 {
    let workloads = if options.mode == Mode::Historical {
        vec![Workload::Historical]
    } else if options.only.is_empty() {
        Workload::ALL.to_vec()
    } else {
        options.only.clone()
    };
    let strategies = options
        .strategies
        .clone()
        .unwrap_or_else(|| default_strategies(options.mode));
    let jobs = workloads::jobs(&workloads, options.mode == Mode::Full);
    let mut plan = Vec::new();
    for job in &jobs {
        for &strategy in &strategies {
            if job.supports(strategy) {
                let trials = match options.control_trials {
                    Some(n) if job.control => n.min(options.trials),
                    _ => options.trials,
                };
                for trial in 0..trials {
                    plan.push((job.clone(), strategy, trial));
                }
            }
        }
    }
    let bound: Duration = plan
        .iter()
        .map(|(job, s, _)| cap_for(options, job.workload, *s))
        .sum();
    eprintln!(
        "typefuzz-bench {}: {} jobs x {} strategies, {} trials each: {} runs, at most {:.0} s \
         (every run hitting its cap); results in {}",
        options.mode.name(),
        jobs.len(),
        strategies.len(),
        options.trials,
        plan.len(),
        bound.as_secs_f64(),
        options.out.display()
    );
    let started = Instant::now();
    let total = plan.len();
    let mut rows = Vec::with_capacity(total);
    for (n, (job, strategy, trial)) in plan.into_iter().enumerate() {
        let cap = cap_for(options, job.workload, strategy);
        let seed = trial_seed(options.seed, trial);
        let result = run_isolated(&job, strategy, seed, cap);
        status(n + 1, total, started, &job, strategy, trial, &result);
        rows.push(Row {
            job,
            strategy,
            trial,
            seed,
            cap,
            result,
        });
    }
    eprintln!();
    let summary = stats::summarize(&rows);
    if let Err(error) = report::write_all(options, &rows, &summary, started.elapsed()) {
        eprintln!("typefuzz-bench: could not write the report: {error}");
    }
    let false_alarms = summary.print_summary_lines(&strategies, &workloads);
    if options.mode == Mode::Quick && workloads.contains(&Workload::Micro) {
        crate::cmplog::print(5, Duration::from_secs(1), options.seed);
    }
    if false_alarms > 0 {
        eprintln!("typefuzz-bench: {false_alarms} control run(s) reported a failure");
        1
    } else {
        0
    }
}

/// Trial `i`'s seed: distinct per trial, shared by the strategies (paired design).
fn trial_seed(base: u64, trial: usize) -> u64 {
    let mut x = base ^ (trial as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 31;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 29)
}

/// Runs one trial on its own thread with a large stack (tree operations and mutators recurse);
/// a panic that escapes the strategy's own handling counts as a found failure.
fn run_isolated(job: &Arc<Job>, strategy: Strategy, seed: u64, cap: Duration) -> Trial {
    let job2 = job.clone();
    let started = Instant::now();
    let handle = std::thread::Builder::new()
        .name("trial".into())
        .stack_size(64 << 20)
        .spawn(move || job2.run(strategy, seed, cap))
        .expect("spawn a trial thread");
    handle.join().unwrap_or_else(|_| Trial {
        found: true,
        seconds: started.elapsed().as_secs_f64(),
        counterexample: "panic outside the property".into(),
        ..Trial::default()
    })
}

fn status(
    done: usize,
    total: usize,
    started: Instant,
    job: &Job,
    strategy: Strategy,
    trial: usize,
    result: &Trial,
) {
    let outcome = if result.found {
        format!(
            "found in {:.3} s ({} tests)",
            result.seconds,
            result.tests()
        )
    } else {
        format!("not found in {:.1} s", result.seconds)
    };
    let line = format!(
        "[{done}/{total} {:.0} s] {} {} {} #{trial}: {outcome}",
        started.elapsed().as_secs_f64(),
        job.workload.name(),
        job.task,
        strategy.name()
    );
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r\x1b[2K{line}");
    let _ = err.flush();
}
