//! The benchmark runner: strategies side by side on every workload, measured ETNA's way (several
//! trials per task with a timeout; a task is solved only when every trial finds the bug; time and
//! tests to failure recorded per run), and the report (CSV, markdown, SVG charts).
//!
//! Modes (`cargo run --release -p typefuzz-bench -- <mode> [flags]`; `--help` on each, the
//! command line is declared in the `cli` module):
//!
//! - `quick`: the README demo — every IFC mutant, the BST tasks and the micro targets, one
//!   trial, short caps, about a minute after the builds; ends with
//!   `<workload>[ (<feedback>)]: <strategy> found <n>/<total>`. IFC and the micro targets are
//!   run twice: with code coverage only (`IFC (coverage only): ...`, in an instrumented child
//!   build, see the `instrumented` module) and with the hand-placed labels
//!   (`IFC (hand-placed labels): ...`).
//! - `full`: the protocol — 10 trials, 60 s cap, every strategy and ablation, all controls; the
//!   instrumented lines are coverage only and coverage with comparison tracing.
//! - `throughput`: tests and nodes per second on three properties without precondition,
//!   against quickcheck and proptest ([`crate::throughput`]).
//! - `sancov`: the instrumented lines themselves; only meaningful in an instrumented build (see
//!   `tests/sancov.rs`), which `quick` and `full` make and run on their own. `--trace-compares`
//!   names the build made with comparison tracing.
//! - `dropin`: the drop-ins against their plain frameworks, each run as users run it, on the
//!   held-out evaluation set and the development set (see the `dropin` module).
//! - `historical`: real bugs of published crate releases ([`crate::historical`]), plain proptest,
//!   the proptest drop-in and `typefuzz::check` on the derived types, 5 trials, 10 s caps; the
//!   fixed releases are controls.
//! - `per-test-cost` and `mutant-size`: the drop-ins' cost per test against their plain
//!   frameworks, and where mutants' size goes (the `per_test_cost` module).
//! - `shrink`: the minimal inputs of typefuzz, proptest and quickcheck side by side
//!   ([`crate::shrink`]).
//! - `fixed-work`: the engine loop on a fixed number of tests, for instruction counts (the
//!   `fixed_work` module).
//! - `readme-table [--check]`: README.md's results table from the committed quick report (the
//!   `readme_table` module).
//!
//! The trial modes' flags: `--trials N`, `--control-trials N` (at most `--trials`; the no-bug
//! controls, which always run to their cap), `--cap SECONDS` (every strategy), `--only
//! ifc|bst|micro|historical` (repeatable), `--strategies a,b,...`, `--tasks a,b,...` (only these
//! tasks, e.g. IFC mutants `3,17` or `correct` for the control; in `throughput`, workloads
//! `mirror,terms,machines`), `--seed N`, `--out DIR` (default: `target/typefuzz-bench/quick`
//! for `quick`, `bench/results/<mode>` otherwise), `--max-size N` (overrides every workload's
//! typefuzz size bound), `--max-tests N` (stops every typefuzz trial after N tests as well as at
//! its time cap: side-by-side comparisons on a loaded machine then give each variant the same
//! tests).

mod cli;
mod csv_file;
mod dropin;
mod fixed_work;
mod historical_jobs;
mod instrumented;
mod jobs;
mod per_test_cost;
mod readme_table;
mod stats;
mod strategy;
mod throughput_mode;
mod trials_report;

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use instrumented::Build;
pub use instrumented::ARGS_VAR;
pub(crate) use jobs::{Job, Workload};
pub(crate) use strategy::{Strategy, Trial};

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
    /// `--tasks`: only the jobs with these task names.
    tasks: Option<Vec<String>>,
    seed: u64,
    out: PathBuf,
    command: String,
    /// In `sancov` mode, which instrumented build this process is (`--trace-compares`).
    build: Build,
}

impl Options {
    /// The options of trial mode `mode` from its command-line flags; `args` is the command line
    /// (without the program name) the report records. Sets the process-wide `--max-size` and
    /// `--max-tests` overrides.
    fn new(mode: Mode, flags: cli::RunArgs, build: Build, args: &[String]) -> Options {
        if let Some(n) = flags.max_size {
            strategy::MAX_SIZE_OVERRIDE.store(n, std::sync::atomic::Ordering::Relaxed);
        }
        if let Some(n) = flags.max_tests {
            strategy::MAX_TESTS.store(n, std::sync::atomic::Ordering::Relaxed);
        }
        Options {
            mode,
            trials: flags.trials.unwrap_or(match mode {
                Mode::Full => 10,
                Mode::Historical => 5,
                _ => 1,
            }),
            cap: flags.cap,
            only: flags.only,
            control_trials: flags.control_trials,
            strategies: flags.strategies,
            tasks: flags.tasks,
            seed: flags.seed,
            out: flags.out.unwrap_or_else(|| default_out(mode)),
            command: command_line(args),
            build,
        }
    }
}

/// The command that reproduces a run with command-line `args`, as reports record it.
pub(crate) fn command_line(args: &[String]) -> String {
    format!(
        "cargo run --release -p typefuzz-bench -- {}",
        args.join(" ")
    )
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
/// process exit code: 0 on success (and after `--help`), 1 if a no-bug control reported a
/// failure (or, in `shrink`, typefuzz shrank worse than a framework), 2 on a usage error (an
/// unknown subcommand or flag, a value that does not parse).
///
/// ```no_run
/// let code = typefuzz_bench::runner::run_cli(&["quick".to_string()]);
/// std::process::exit(code);
/// ```
pub fn run_cli(args: &[String]) -> i32 {
    let command = match cli::parse(args) {
        Ok(parsed) => parsed.command,
        Err(error) => {
            // `--help` and `--version` are "errors" that print to stdout and exit 0.
            let _ = error.print();
            return error.exit_code();
        }
    };
    let trials = |mode: Mode, flags: cli::RunArgs, build: Build| {
        // The SUTs may panic (that is a failure, counted by the loops); keep stderr for the
        // status.
        std::panic::set_hook(Box::new(|_| {}));
        let options = Options::new(mode, flags, build, args);
        match mode {
            Mode::Throughput => throughput_mode::run(&options),
            _ => run_jobs(&options),
        }
    };
    use cli::Command;
    match command {
        Command::Quick(flags) => trials(Mode::Quick, flags, Build::Coverage),
        Command::Full(flags) => trials(Mode::Full, flags, Build::Coverage),
        Command::Throughput(flags) => trials(Mode::Throughput, flags, Build::Coverage),
        Command::Historical(flags) => trials(Mode::Historical, flags, Build::Coverage),
        Command::Sancov(flags) => {
            let build = if flags.trace_compares {
                Build::Compares
            } else {
                Build::Coverage
            };
            trials(Mode::Sancov, flags.run, build)
        }
        Command::Dropin(flags) => dropin::run_cli(flags, command_line(args)),
        Command::DropinTrial { request } => dropin::run_trial_cli(&request),
        Command::PerTestCost(flags) => per_test_cost::run_cli(&flags),
        Command::MutantSize(flags) => per_test_cost::mutant_size(flags.seeds),
        Command::Shrink(flags) => crate::shrink::print_table(flags.seeds),
        Command::FixedWork(flags) => fixed_work::run_cli(&flags),
        Command::ReadmeTable { check } => readme_table::run_cli(check),
    }
}

/// Strategies per mode (before `--strategies`).
fn default_strategies(mode: Mode) -> Vec<Strategy> {
    match mode {
        Mode::Quick => vec![
            Strategy::Proptest,
            Strategy::NaiveGenerator,
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

/// The cap of one trial: `--cap` if given, else the mode's default for this workload (the same
/// for every strategy: a baseline gets the cap typefuzz gets).
fn cap_for(options: &Options, workload: Workload) -> Duration {
    if let Some(cap) = options.cap {
        return cap;
    }
    let ms = match (options.mode, workload) {
        (Mode::Quick, Workload::Bst) => 250,
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
    let mut strategies = options
        .strategies
        .clone()
        .unwrap_or_else(|| default_strategies(options.mode));
    // The coverage-only lines: in `sancov` mode this process is the instrumented build (or says
    // it is not); `quick` and `full` build and run it as a child first.
    let mut instrumented_lines = Vec::new();
    let mut instrumented_alarms = 0;
    if options.mode == Mode::Sancov && !typefuzz::feedback::coverage::is_enabled() {
        if strategies.contains(&Strategy::Sancov) {
            for w in &workloads {
                instrumented_lines.push(format!(
                    "{} ({}): typefuzz NOT MEASURED: this build has no coverage instrumentation \
                     (run it through `cargo typefuzz test`, see tests/sancov.rs)",
                    w.name(),
                    options.build.feedback_name()
                ));
            }
            strategies.retain(|&s| s != Strategy::Sancov);
        }
    } else if matches!(options.mode, Mode::Quick | Mode::Full) {
        for build in instrumented_builds(options) {
            let (lines, alarms) = run_instrumented(options, build, &workloads);
            instrumented_lines.extend(lines);
            instrumented_alarms += alarms;
        }
        strategies.retain(|&s| s != Strategy::Sancov);
    }
    if strategies.is_empty() {
        for line in &instrumented_lines {
            println!("{line}");
        }
        return if options.mode == Mode::Sancov {
            3
        } else {
            i32::from(instrumented_alarms > 0)
        };
    }
    let jobs = jobs::jobs(&workloads, options.mode == Mode::Full);
    let mut plan = Vec::new();
    let wanted = |job: &Job| {
        options
            .tasks
            .as_ref()
            .map_or(true, |tasks| tasks.contains(&job.task))
    };
    for job in jobs.iter().filter(|job| wanted(job)) {
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
        .map(|(job, _, _)| cap_for(options, job.workload))
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
        let cap = cap_for(options, job.workload);
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
    if let Err(error) = trials_report::write_all(options, &rows, &summary, started.elapsed()) {
        eprintln!("typefuzz-bench: could not write the report: {error}");
    }
    for line in &instrumented_lines {
        println!("{line}");
    }
    let false_alarms = instrumented_alarms
        + summary.print_summary_lines(&strategies, &workloads, |w, s| line_name(options, w, s));
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

/// The instrumented builds `quick` and `full` run as children: coverage only in `quick`, also
/// comparison tracing in `full`; none when `--strategies` is given without `typefuzz-sancov`.
fn instrumented_builds(options: &Options) -> Vec<Build> {
    if options
        .strategies
        .as_ref()
        .is_some_and(|s| !s.contains(&Strategy::Sancov))
    {
        return Vec::new();
    }
    match options.mode {
        Mode::Quick => vec![Build::Coverage],
        Mode::Full => vec![Build::Coverage, Build::Compares],
        _ => Vec::new(),
    }
}

/// Runs `build`'s child on the workloads it measures (IFC and the micro targets).
fn run_instrumented(
    options: &Options,
    build: Build,
    workloads: &[Workload],
) -> (Vec<String>, usize) {
    let measured: Vec<Workload> = workloads
        .iter()
        .copied()
        .filter(|w| matches!(w, Workload::Ifc | Workload::Micro))
        .collect();
    if measured.is_empty() {
        return (Vec::new(), 0);
    }
    let cap = cap_for(options, Workload::Ifc);
    instrumented::run(&instrumented::Request {
        build,
        workloads: &measured,
        trials: options.trials,
        control_trials: options.control_trials,
        tasks: options.tasks.as_deref(),
        cap_seconds: cap.as_secs_f64(),
        seed: options.seed,
        out: &options.out,
    })
}

/// A summary line's prefix and strategy name: the workload, with the feedback in parentheses
/// where a typefuzz line's feedback is not what its strategy name says. On IFC and the micro
/// targets the default lines run with hand-placed labels, and say so; the coverage-only line
/// (`typefuzz-sancov`) reads `IFC (coverage only): typefuzz`.
fn line_name(options: &Options, w: Workload, s: Strategy) -> (String, &'static str) {
    let labelled =
        matches!(w, Workload::Ifc | Workload::Micro) && s.labels() && s != Strategy::NoFeedback;
    let instrumented = options.mode == Mode::Sancov;
    let feedback = match (s, options.build) {
        (Strategy::Sancov, build) => Some(build.feedback_name()),
        _ if !labelled => None,
        _ if !instrumented => Some("hand-placed labels"),
        (_, Build::Coverage) => Some("coverage + hand-placed labels"),
        (_, Build::Compares) => Some("coverage + CmpLog + hand-placed labels"),
    };
    let prefix = match feedback {
        Some(feedback) => format!("{} ({feedback})", w.name()),
        None => w.name().to_string(),
    };
    let name = if s == Strategy::Sancov {
        "typefuzz"
    } else {
        s.name()
    };
    (prefix, name)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The options of a trial mode's command line.
    fn options(args: &[&str]) -> Options {
        let (mode, flags, build) = match cli::parse(args).expect("valid arguments").command {
            cli::Command::Quick(flags) => (Mode::Quick, flags, Build::Coverage),
            cli::Command::Full(flags) => (Mode::Full, flags, Build::Coverage),
            cli::Command::Sancov(flags) if flags.trace_compares => {
                (Mode::Sancov, flags.run, Build::Compares)
            }
            cli::Command::Sancov(flags) => (Mode::Sancov, flags.run, Build::Coverage),
            other => panic!("not a trial mode these tests use: {other:?}"),
        };
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        Options::new(mode, flags, build, &args)
    }

    #[test]
    fn summary_lines_name_their_feedback() {
        let quick = options(&["quick"]);
        let name = |o: &Options, w, s| {
            let (prefix, strategy) = line_name(o, w, s);
            format!("{prefix}: {strategy}")
        };
        assert_eq!(
            name(&quick, Workload::Ifc, Strategy::Typefuzz),
            "IFC (hand-placed labels): typefuzz"
        );
        assert_eq!(
            name(&quick, Workload::Micro, Strategy::TypefuzzFuzzChick),
            "micro (hand-placed labels): typefuzz-fuzzchick"
        );
        assert_eq!(
            name(&quick, Workload::Ifc, Strategy::Proptest),
            "IFC: proptest"
        );
        assert_eq!(
            name(&quick, Workload::Bst, Strategy::Typefuzz),
            "BST: typefuzz"
        );
        let sancov = options(&["sancov"]);
        assert_eq!(
            name(&sancov, Workload::Ifc, Strategy::Sancov),
            "IFC (coverage only): typefuzz"
        );
        assert_eq!(
            name(&sancov, Workload::Ifc, Strategy::Typefuzz),
            "IFC (coverage + hand-placed labels): typefuzz"
        );
        let compares = options(&["sancov", "--trace-compares"]);
        assert_eq!(
            name(&compares, Workload::Micro, Strategy::Sancov),
            "micro (coverage + CmpLog): typefuzz"
        );
    }

    #[test]
    fn modes_default_their_trials_and_output_and_record_the_command() {
        let quick = options(&["quick"]);
        assert_eq!(quick.trials, 1);
        assert!(quick.out.ends_with("target/typefuzz-bench/quick"));
        let full = options(&["full", "--cap", "2"]);
        assert_eq!(full.trials, 10);
        assert!(full.out.ends_with("results/full"));
        assert_eq!(
            full.command,
            "cargo run --release -p typefuzz-bench -- full --cap 2"
        );
        assert_eq!(cap_for(&full, Workload::Bst), Duration::from_secs(2));
    }

    #[test]
    fn quick_and_full_run_the_instrumented_children_unless_left_out() {
        assert_eq!(instrumented_builds(&options(&["quick"])), [Build::Coverage]);
        assert_eq!(
            instrumented_builds(&options(&["full"])),
            [Build::Coverage, Build::Compares]
        );
        assert!(instrumented_builds(&options(&["full", "--strategies", "typefuzz"])).is_empty());
        assert!(instrumented_builds(&options(&["sancov"])).is_empty());
    }
}
