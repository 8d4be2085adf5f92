//! Drop-ins against their plain frameworks: `typefuzz::proptest!` against proptest's
//! `TestRunner` and `typefuzz::quickcheck!` against quickcheck's `QuickCheck`, each run as its
//! users run it, on the same naive generators, with the same budget.
//!
//! ```text
//! cargo run --release -p typefuzz-bench -- dropin [--set evaluation|development|all]
//!     [--workloads a,b] [--tools a,b] [--seeds N] [--seed N] [--cap SECONDS | --cases framework]
//!     [--jobs N] [--out DIR]
//! cargo run --release -p typefuzz-bench -- dropin --throughput SECONDS [--set S] [--workloads a,b]
//!     [--tools a,b] [--jobs N] [--out DIR]
//! cargo run --release -p typefuzz-bench -- dropin --ci [--weaken-dropins] [--jobs N]
//! cargo run --release -p typefuzz-bench -- dropin --recheck CAMPAIGN.csv [--seeds N] [--jobs N]
//! ```
//!
//! **Workloads** ([`workloads`]): the evaluation set, on which nothing is ever tuned (the typed
//! expression language [`crate::stlc`], the red-black tree [`crate::rbt`], the leftist heap
//! [`crate::heap`]), and the development set (the ETNA BST, [`crate::bst`]), on which defaults
//! may be tuned. A task is a (bug, property) pair where the property fails under the bug; the
//! controls run properties without a bug and must never fail.
//!
//! **Tools**, each as users run it ([`trial`]): `proptest` (the real `TestRunner::run` over the
//! user's strategy, `RngSeed::Fixed`, no failure persistence, rejections as `prop_assume!`
//! makes them), `proptest-dropin` (the `typefuzz::proptest!` macro on the same strategy, the
//! campaign budget from `TYPEFUZZ_TIME`), `quickcheck` (the real `QuickCheck` with
//! `Gen::from_size_and_seed(100, seed)`), `quickcheck-dropin` (what `typefuzz::quickcheck!`
//! expands to for an argument type with `#[derive(Mutate)]`, seeded by `TYPEFUZZ_SEED`). Drop-in
//! runs are unnamed, so they neither load nor save a corpus or regression file: trials are
//! independent. Every trial is a child process of the bench binary (`dropin-trial`), so a crash
//! is recorded as a crash, never as a find.
//!
//! **Budgets**: `--cap SECONDS` (default 10; every tool the same wall-clock cap; time to
//! failure is when the property first fails, before shrinking), or `--cases framework` (a plain
//! `cargo test`: proptest's 256 valid cases and 1024 rejects, quickcheck's 100 tests, the
//! drop-ins without `TYPEFUZZ_TIME`), which reports the fraction of seeds that found each bug.
//!
//! **Outputs** (in `--out`, default `bench/results/dropin`, each replacing the previous run of
//! its mode and set): `campaign-<set>.csv`/`.md` (`<set>`: `evaluation`, `development` or
//! `all`), `framework-<set>.csv`/`.md`, `throughput.csv`/`.md`, `ci.csv`/`.md`,
//! `recheck-<set>.csv`/`.md`.
//!
//! **`--recheck CAMPAIGN.csv`** ([`recheck`]): the tasks a campaign marked worse for a drop-in,
//! run again for it and its plain framework with `--seeds` new seeds, with medians of tests to
//! failure beside the times: five seeds of a near-exponential time to failure cannot tell a
//! slower drop-in from an unlucky draw.
//!
//! **`--ci`**: the bounded regression line over the evaluation set ([`ci`]); exits 1 if on any
//! workload a drop-in finds fewer tasks than its plain framework. `--weaken-dropins` stops each
//! drop-in trial after 20 tests, to show the line failing.

mod ci;
mod recheck;
mod report;
pub(crate) mod trial;
mod workloads;

use std::io::Read as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use trial::{Outcome, Request};
use workloads::{Set, Spec};

/// The four tools compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Tool {
    Proptest,
    ProptestDropIn,
    Quickcheck,
    QuickcheckDropIn,
}

impl Tool {
    pub(crate) const ALL: [Tool; 4] = [
        Tool::Proptest,
        Tool::ProptestDropIn,
        Tool::Quickcheck,
        Tool::QuickcheckDropIn,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Tool::Proptest => "proptest",
            Tool::ProptestDropIn => "proptest-dropin",
            Tool::Quickcheck => "quickcheck",
            Tool::QuickcheckDropIn => "quickcheck-dropin",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|t| t.name() == name)
    }

    pub(crate) fn is_dropin(self) -> bool {
        matches!(self, Tool::ProptestDropIn | Tool::QuickcheckDropIn)
    }

    /// The plain framework a drop-in replaces (itself for a plain one).
    pub(crate) fn plain(self) -> Tool {
        match self {
            Tool::ProptestDropIn => Tool::Proptest,
            Tool::QuickcheckDropIn => Tool::Quickcheck,
            plain => plain,
        }
    }
}

/// What each trial may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Budget {
    /// The same wall-clock cap for every tool (a campaign).
    Cap(Duration),
    /// Each framework's default budget (a plain `cargo test`).
    Framework,
}

impl Budget {
    fn arg(self) -> String {
        match self {
            Budget::Cap(cap) => format!("{}ms", cap.as_millis()),
            Budget::Framework => "framework".into(),
        }
    }

    fn parse(arg: &str) -> Result<Budget, String> {
        if arg == "framework" {
            return Ok(Budget::Framework);
        }
        let ms = arg
            .strip_suffix("ms")
            .and_then(|ms| ms.parse().ok())
            .ok_or(format!("budget `{arg}`: `framework` or `<N>ms`"))?;
        Ok(Budget::Cap(Duration::from_millis(ms)))
    }

    fn label(self) -> String {
        match self {
            Budget::Cap(cap) => format!("cap {} s", cap.as_secs_f64()),
            Budget::Framework => "framework cases".into(),
        }
    }
}

/// One measured trial.
#[derive(Clone, Debug)]
pub(crate) struct Row {
    pub(crate) set: Set,
    pub(crate) workload: &'static str,
    pub(crate) request: Request,
    /// A no-bug control (the property must never fail).
    pub(crate) control: bool,
    pub(crate) outcome: Outcome,
}

impl Row {
    /// A trial of `spec` not run yet: `bug` `None` is a control.
    pub(crate) fn planned(
        spec: &Spec,
        tool: Tool,
        bug: Option<String>,
        property: &str,
        seed: u64,
        budget: Budget,
    ) -> Row {
        Row {
            set: spec.set,
            workload: spec.name,
            control: bug.is_none(),
            request: Request {
                workload: spec.name.to_string(),
                tool,
                bug,
                property: property.to_string(),
                seed,
                budget,
                dropin_max_tests: None,
            },
            outcome: Outcome::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Mode {
    Tasks,
    Throughput(Duration),
    Ci,
    Recheck(PathBuf),
}

#[derive(Debug)]
struct Options {
    mode: Mode,
    sets: Vec<Set>,
    workloads: Option<Vec<String>>,
    tools: Vec<Tool>,
    seeds: usize,
    seed: u64,
    budget: Budget,
    jobs: usize,
    out: PathBuf,
    weaken: bool,
    command: String,
}

/// The drop-in weakened by `--weaken-dropins` stops after this many tests.
const WEAKENED_TESTS: u64 = 20;

impl Options {
    /// The options of `typefuzz-bench dropin` from its flags (parsed and checked by clap, see
    /// `runner::cli`); `command` is the command line the reports record.
    fn new(flags: super::cli::DropinArgs, command: String) -> Options {
        Options {
            mode: match (flags.throughput, flags.ci, flags.recheck) {
                (Some(seconds), _, _) => Mode::Throughput(seconds),
                (None, true, _) => Mode::Ci,
                (None, false, Some(campaign)) => Mode::Recheck(campaign),
                (None, false, None) => Mode::Tasks,
            },
            sets: match flags.set.as_str() {
                "evaluation" => vec![Set::Evaluation],
                "development" => vec![Set::Development],
                _ => vec![Set::Evaluation, Set::Development],
            },
            workloads: flags.workloads,
            tools: flags.tools.unwrap_or_else(|| Tool::ALL.to_vec()),
            seeds: flags.seeds,
            seed: flags.seed,
            budget: match (flags.cases, flags.cap) {
                (Some(_), _) => Budget::Framework,
                (None, cap) => Budget::Cap(cap.unwrap_or(Duration::from_secs(10))),
            },
            jobs: flags.jobs,
            out: flags.out.unwrap_or_else(|| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("results")
                    .join("dropin")
            }),
            weaken: flags.weaken_dropins,
            command,
        }
    }
}

/// The names `--workloads` takes: every workload of both sets.
pub(crate) fn workload_names() -> Vec<&'static str> {
    workloads::all().iter().map(|spec| spec.name).collect()
}

/// `typefuzz-bench dropin ...`: returns the exit code (1 if a control failed, or in `--ci` if a
/// drop-in solved fewer tasks than its plain framework).
pub(crate) fn run_cli(flags: super::cli::DropinArgs, command: String) -> i32 {
    let options = Options::new(flags, command);
    match &options.mode {
        Mode::Tasks => run_tasks(&options),
        Mode::Throughput(seconds) => run_throughput(&options, *seconds),
        Mode::Ci => ci::run(&options),
        Mode::Recheck(campaign) => recheck::run(&options, campaign),
    }
}

/// `typefuzz-bench dropin-trial ...`: one trial in this process (the driver's child).
pub(crate) fn run_trial_cli(args: &[String]) -> i32 {
    let request = match Request::parse(args) {
        Ok(request) => request,
        Err(error) => {
            eprintln!("typefuzz-bench dropin-trial: {error}");
            return 2;
        }
    };
    let Some(spec) = workloads::find(&request.workload) else {
        eprintln!(
            "typefuzz-bench dropin-trial: unknown workload `{}`",
            request.workload
        );
        return 2;
    };
    // What a user sets to run the tool this way (`TYPEFUZZ_TIME` for a drop-in campaign, the
    // quickcheck drop-in's seed), set here while the process has one thread, so the request
    // alone determines the trial.
    for (key, value) in trial::environment(&request) {
        std::env::set_var(key, value);
    }
    std::panic::set_hook(Box::new(|_| {}));
    // Tree operations and mutators recurse: a large stack, as the other runners use.
    let handle = std::thread::Builder::new()
        .name("trial".into())
        .stack_size(64 << 20)
        .spawn(move || (spec.run)(&request))
        .expect("spawn the trial thread");
    let _ = handle.join();
    eprintln!("typefuzz-bench dropin-trial: the trial ended without a result");
    3
}

/// The sets' part of a report's file name: `evaluation`, `development` or `all`.
fn sets_name(sets: &[Set]) -> &'static str {
    match sets {
        [set] => set.name(),
        _ => "all",
    }
}

fn selected(options: &Options) -> Vec<Spec> {
    workloads::all()
        .into_iter()
        .filter(|w| options.sets.contains(&w.set))
        .filter(|w| {
            options
                .workloads
                .as_ref()
                .map_or(true, |names| names.iter().any(|n| n == w.name))
        })
        .collect()
}

/// The trials of `specs`: every task and control, every tool, `seeds` seeds; the tools of one
/// (task, seed) run next to each other so that the machine's load hits them alike.
fn plan(specs: &[Spec], tools: &[Tool], seeds: usize, base: u64, budget: Budget) -> Vec<Row> {
    let mut rows = Vec::new();
    for spec in specs {
        let tasks = (spec.tasks)().into_iter().map(|(b, p)| (Some(b), p));
        let controls = (spec.controls)().into_iter().map(|p| (None, p));
        for (bug, property) in tasks.chain(controls) {
            for trial in 0..seeds {
                for &tool in tools {
                    let seed = super::trial_seed(base, trial);
                    let bug = bug.map(str::to_string);
                    rows.push(Row::planned(spec, tool, bug, property, seed, budget));
                }
            }
        }
    }
    rows
}

fn run_tasks(options: &Options) -> i32 {
    let specs = selected(options);
    let rows = plan(
        &specs,
        &options.tools,
        options.seeds,
        options.seed,
        options.budget,
    );
    let rows = execute(rows, options.jobs);
    let mode = match options.budget {
        Budget::Cap(_) => "campaign",
        Budget::Framework => "framework",
    };
    let stem = format!("{mode}-{}", sets_name(&options.sets));
    let markdown = report::tasks_markdown(&rows, options.budget, &options.command);
    print!("{}", report::summary_lines(&rows));
    if let Err(error) = report::write(&options.out, &stem, &rows, &markdown) {
        eprintln!("typefuzz-bench dropin: could not write the report: {error}");
        return 1;
    }
    let alarms = rows.iter().filter(|r| r.control && r.outcome.found).count();
    if alarms > 0 {
        eprintln!("typefuzz-bench dropin: {alarms} control trial(s) reported a failure");
        return 1;
    }
    0
}

fn run_throughput(options: &Options, seconds: Duration) -> i32 {
    let specs = selected(options);
    let mut rows = Vec::new();
    for spec in &specs {
        let property = (spec.controls)()[0];
        for &tool in &options.tools {
            rows.push(Row {
                set: spec.set,
                workload: spec.name,
                request: Request {
                    workload: spec.name.to_string(),
                    tool,
                    bug: None,
                    property: property.to_string(),
                    seed: super::trial_seed(options.seed, 0),
                    budget: Budget::Cap(seconds),
                    dropin_max_tests: None,
                },
                control: true,
                outcome: Outcome::default(),
            });
        }
    }
    let rows = execute(rows, options.jobs);
    let markdown = report::throughput_markdown(&rows, seconds, &options.command);
    print!("{markdown}");
    match report::write(&options.out, "throughput", &rows, &markdown) {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("typefuzz-bench dropin: could not write the report: {error}");
            1
        }
    }
}

/// Runs every row's trial in a child process, `jobs` at a time, and fills in its outcome.
fn execute(rows: Vec<Row>, jobs: usize) -> Vec<Row> {
    let total = rows.len();
    let bound: Duration = rows
        .iter()
        .map(|r| match r.request.budget {
            Budget::Cap(cap) => cap,
            Budget::Framework => Duration::ZERO,
        })
        .sum();
    eprintln!(
        "typefuzz-bench dropin: {total} trials, {} job(s), at most {:.0} s of caps",
        jobs,
        bound.as_secs_f64() / jobs as f64
    );
    let started = Instant::now();
    let queue = Arc::new(Mutex::new(rows.into_iter().enumerate().collect::<Vec<_>>()));
    queue.lock().unwrap().reverse();
    let done = Arc::new(Mutex::new(Vec::with_capacity(total)));
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (queue, done) = (queue.clone(), done.clone());
            scope.spawn(move || loop {
                let Some((index, mut row)) = queue.lock().unwrap().pop() else {
                    break;
                };
                row.outcome = run_child(&row.request);
                let mut done = done.lock().unwrap();
                done.push((index, row));
                let row = &done.last().unwrap().1;
                eprintln!(
                    "[{}/{total} {:.0} s] {} {} {} {} #{}: {}",
                    done.len(),
                    started.elapsed().as_secs_f64(),
                    row.workload,
                    row.request.bug.as_deref().unwrap_or("none"),
                    row.request.property,
                    row.request.tool.name(),
                    row.request.seed,
                    describe(&row.outcome)
                );
            });
        }
    });
    let mut done = Arc::try_unwrap(done)
        .expect("the workers are done")
        .into_inner()
        .unwrap();
    done.sort_by_key(|(index, _)| *index);
    done.into_iter().map(|(_, row)| row).collect()
}

fn describe(outcome: &Outcome) -> String {
    let what = if outcome.crashed {
        "CRASHED"
    } else if outcome.found {
        "found"
    } else {
        "not found"
    };
    let note = if outcome.note.is_empty() {
        String::new()
    } else {
        format!(" ({})", outcome.note)
    };
    format!(
        "{what} in {:.3} s, {} tests{note}",
        outcome.seconds, outcome.tests
    )
}

/// Runs `request` in a child process of this binary and reads its result line. A child that
/// dies without one is a crash; one that outlives [`trial::wall_limit`] is killed and counted
/// as not found, with a note.
pub(crate) fn run_child(request: &Request) -> Outcome {
    match std::env::current_exe() {
        Ok(exe) => run_child_of(&exe, request),
        Err(error) => harness_error(format!("no current executable: {error}")),
    }
}

/// [`run_child`] with the bench binary at `exe`.
fn run_child_of(exe: &std::path::Path, request: &Request) -> Outcome {
    let mut command = Command::new(exe);
    command
        .args(request.args())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // The child's settings are exactly the request's (the child sets its own variables): none
    // of the caller's knobs leak in.
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        if ["TYPEFUZZ_", "PROPTEST_", "QUICKCHECK_"]
            .iter()
            .any(|p| key.starts_with(p))
        {
            command.env_remove(key);
        }
    }
    let started = Instant::now();
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => return harness_error(format!("could not start the trial: {error}")),
    };
    // Drain both pipes on their own threads so a chatty child never blocks.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let limit = trial::wall_limit(request.budget);
    let mut killed = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > limit => {
                let _ = child.kill();
                killed = true;
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    if let Some(outcome) = stdout.lines().rev().find_map(Outcome::parse) {
        return outcome;
    }
    let seconds = started.elapsed().as_secs_f64();
    if killed {
        return Outcome {
            seconds,
            note: format!("killed after {:.0} s without a result", limit.as_secs_f64()),
            ..Outcome::default()
        };
    }
    let last = stderr.lines().last().unwrap_or("").to_string();
    Outcome {
        crashed: true,
        seconds,
        note: format!(
            "{}: {last}",
            status.map_or("no status".to_string(), |s| s.to_string())
        ),
        ..Outcome::default()
    }
}

fn harness_error(note: String) -> Outcome {
    Outcome {
        crashed: true,
        note,
        ..Outcome::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(list: &[&str]) -> Result<Options, clap::Error> {
        match super::super::cli::parse(list)?.command {
            super::super::cli::Command::Dropin(flags) => Ok(Options::new(flags, String::new())),
            other => panic!("not dropin: {other:?}"),
        }
    }

    #[test]
    fn flags_parse_strictly() {
        assert!(parse(&["dropin", "--cap", "soon"]).is_err());
        assert!(parse(&["dropin", "--cap", "0"]).is_err());
        assert!(parse(&["dropin", "--cases", "256"]).is_err());
        assert!(parse(&["dropin", "--bogus"]).is_err());
        assert!(parse(&["dropin", "--workloads", "ifc"]).is_err());
        assert!(parse(&["dropin", "--tools", "afl"]).is_err());
        assert!(parse(&["dropin", "--weaken-dropins"]).is_err());
        assert!(parse(&["dropin", "--cap", "5", "--cases", "framework"]).is_err());
        // A recheck takes the campaign's budget, and is a mode of its own.
        assert!(parse(&["dropin", "--recheck", "c.csv", "--cap", "3"]).is_err());
        assert!(parse(&["dropin", "--recheck", "c.csv", "--ci"]).is_err());
        let options = parse(&["dropin", "--recheck", "c.csv", "--seeds", "20"]).unwrap();
        assert_eq!(options.mode, Mode::Recheck(PathBuf::from("c.csv")));
        let options = parse(&["dropin", "--cases", "framework", "--seeds", "5"]).unwrap();
        assert_eq!(options.budget, Budget::Framework);
        assert_eq!(options.seeds, 5);
    }

    #[test]
    fn requests_round_trip_through_the_command_line() {
        let request = Request {
            workload: "stlc".into(),
            tool: Tool::QuickcheckDropIn,
            bug: Some("if_swapped".into()),
            property: "eval_matches_reference".into(),
            seed: 42,
            budget: Budget::Cap(Duration::from_millis(1500)),
            dropin_max_tests: Some(20),
        };
        assert_eq!(Request::parse(&request.args()[1..]).unwrap(), request);
        let control = Request {
            bug: None,
            budget: Budget::Framework,
            dropin_max_tests: None,
            ..request
        };
        assert_eq!(Request::parse(&control.args()[1..]).unwrap(), control);
    }

    fn request() -> Request {
        Request {
            workload: "heap".into(),
            tool: Tool::Quickcheck,
            bug: None,
            property: "merge_valid".into(),
            seed: 1,
            budget: Budget::Cap(Duration::from_millis(100)),
            dropin_max_tests: None,
        }
    }

    /// A stand-in for the bench binary: a shell script running `body`.
    #[cfg(unix)]
    fn fake_binary(name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = std::env::temp_dir().join(format!("typefuzz-dropin-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[cfg(unix)]
    #[test]
    fn the_driver_reads_a_result_line_and_records_a_child_without_one_as_a_crash() {
        let found = fake_binary(
            "found",
            "echo 'trial found=1 seconds=0.5 tests=9 valid=3 discards=6 nodes=40 note='",
        );
        let outcome = run_child_of(&found, &request());
        assert!(outcome.found && !outcome.crashed, "{outcome:?}");
        assert_eq!((outcome.tests, outcome.valid), (9, 3));

        // Dies by a signal, as a stack overflow's abort does: a crash, never a find.
        let aborts = fake_binary(
            "aborts",
            "echo 'thread overflowed its stack' >&2; kill -ABRT $$",
        );
        let outcome = run_child_of(&aborts, &request());
        assert!(outcome.crashed && !outcome.found, "{outcome:?}");
        assert!(outcome.note.contains("overflowed"), "{outcome:?}");

        // Exits without a result line (a harness error): a crash too.
        let silent = fake_binary("silent", "exit 3");
        let outcome = run_child_of(&silent, &request());
        assert!(outcome.crashed && !outcome.found, "{outcome:?}");
    }

    #[test]
    fn outcomes_round_trip_through_the_result_line() {
        let outcome = Outcome {
            found: true,
            crashed: false,
            seconds: 0.25,
            tests: 10,
            valid: 4,
            discards: 6,
            nodes: 77,
            cpu_seconds: 0.125,
            note: "a note with spaces".into(),
        };
        assert_eq!(Outcome::parse(&outcome.line()), Some(outcome));
        assert_eq!(Outcome::parse("thread 'trial' panicked"), None);
    }
}
