//! One trial, in the child process: a tool run as its users run it, on one workload's property
//! with one bug switched on, observed through the property itself.
//!
//! The property every tool calls is wrapped by [`observe`]: it counts tests, valid tests,
//! discards and input nodes, and ends the process at the first failure (time to failure is when
//! the property first fails, before any shrinking) or once the cap has passed, printing the
//! result line the driver parses ([`Outcome::line`]). A tool that returns by itself (its
//! framework budget spent) prints the same line, not found.

use std::any::Any;
use std::io::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed, TestRunner};
use quickcheck::TestResult;

use super::workloads::Workload;
use super::{Budget, Tool};
use crate::Verdict;

/// What the driver asks one child for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Request {
    pub(crate) workload: String,
    pub(crate) tool: Tool,
    pub(crate) bug: Option<String>,
    pub(crate) property: String,
    pub(crate) seed: u64,
    pub(crate) budget: Budget,
    /// Stop a drop-in after this many tests (the CI line's deliberately weakened drop-in).
    pub(crate) dropin_max_tests: Option<u64>,
}

impl Request {
    /// The child's command line (after the binary): `dropin-trial` and its flags.
    pub(crate) fn args(&self) -> Vec<String> {
        let mut args = vec![
            "dropin-trial".to_string(),
            self.workload.clone(),
            self.tool.name().into(),
            self.bug.clone().unwrap_or_else(|| "none".into()),
            self.property.clone(),
            self.seed.to_string(),
            self.budget.arg(),
        ];
        if let Some(n) = self.dropin_max_tests {
            args.push(n.to_string());
        }
        args
    }

    /// Parses [`args`](Request::args) (without `dropin-trial`).
    pub(crate) fn parse(args: &[String]) -> Result<Request, String> {
        let [workload, tool, bug, property, seed, budget, rest @ ..] = args else {
            return Err("dropin-trial WORKLOAD TOOL BUG PROPERTY SEED BUDGET [MAX_TESTS]".into());
        };
        let dropin_max_tests = match rest {
            [] => None,
            [n] => Some(n.parse().map_err(|e| format!("max tests `{n}`: {e}"))?),
            _ => return Err("dropin-trial: too many arguments".into()),
        };
        Ok(Request {
            workload: workload.clone(),
            tool: Tool::parse(tool).ok_or(format!("unknown tool `{tool}`"))?,
            bug: (bug != "none").then(|| bug.clone()),
            property: property.clone(),
            seed: seed.parse().map_err(|e| format!("seed `{seed}`: {e}"))?,
            budget: Budget::parse(budget)?,
            dropin_max_tests,
        })
    }
}

/// What one trial measured, as the child prints it and the driver reads it back.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Outcome {
    pub(crate) found: bool,
    /// The child died (signal, abort, stack overflow) or printed no result.
    pub(crate) crashed: bool,
    /// Seconds to the first failure, or to the end of the run.
    pub(crate) seconds: f64,
    pub(crate) tests: u64,
    pub(crate) valid: u64,
    pub(crate) discards: u64,
    /// Nodes of all tested inputs together.
    pub(crate) nodes: u64,
    /// CPU seconds (user and system) the trial's process had used when it ended. On a shared
    /// machine a trial waits for a core, and rates per wall-clock second move with the load;
    /// rates per CPU second move much less.
    pub(crate) cpu_seconds: f64,
    /// Why a run ended without a failure, when it was not its budget (a tool's own panic, a
    /// crash, the driver's kill).
    pub(crate) note: String,
}

impl Outcome {
    /// The result line: `trial found=1 seconds=0.25 tests=.. valid=.. discards=.. nodes=.. cpu=..
    /// note=..`.
    pub(crate) fn line(&self) -> String {
        format!(
            "trial found={} seconds={:.6} tests={} valid={} discards={} nodes={} cpu={:.6} note={}",
            u8::from(self.found),
            self.seconds,
            self.tests,
            self.valid,
            self.discards,
            self.nodes,
            self.cpu_seconds,
            self.note.replace('\n', " ")
        )
    }

    /// Parses a [`line`](Outcome::line).
    pub(crate) fn parse(line: &str) -> Option<Outcome> {
        let rest = line.strip_prefix("trial ")?;
        let (fields, note) = rest.split_once(" note=")?;
        let mut outcome = Outcome {
            note: note.trim().to_string(),
            ..Outcome::default()
        };
        for field in fields.split(' ') {
            let (key, value) = field.split_once('=')?;
            match key {
                "found" => outcome.found = value == "1",
                "seconds" => outcome.seconds = value.parse().ok()?,
                "tests" => outcome.tests = value.parse().ok()?,
                "valid" => outcome.valid = value.parse().ok()?,
                "discards" => outcome.discards = value.parse().ok()?,
                "nodes" => outcome.nodes = value.parse().ok()?,
                "cpu" => outcome.cpu_seconds = value.parse().ok()?,
                _ => return None,
            }
        }
        Some(outcome)
    }

    /// Mean nodes per tested input.
    pub(crate) fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / self.tests.max(1) as f64
    }
}

/// CPU seconds (user and system) this process has used so far.
fn process_cpu_seconds() -> f64 {
    // SAFETY: `getrusage` writes the struct it is given and nothing else; a zeroed `rusage` is
    // a valid value of that plain C struct.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return 0.0;
        }
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// A function of the trial's input, whatever the workload's input type.
type OfInput<R> = Box<dyn Fn(&dyn Any) -> R + Send + Sync>;

/// The trial's property and counters, shared with the property functions the tools call.
struct Observer {
    check: OfInput<Verdict>,
    nodes: OfInput<usize>,
    started: Instant,
    deadline: Option<Instant>,
    max_tests: Option<u64>,
    tests: AtomicU64,
    valid: AtomicU64,
    discards: AtomicU64,
    total_nodes: AtomicU64,
}

static OBSERVER: OnceLock<Observer> = OnceLock::new();

impl Observer {
    fn outcome(&self, found: bool, note: &str) -> Outcome {
        Outcome {
            found,
            crashed: false,
            seconds: self.started.elapsed().as_secs_f64(),
            tests: self.tests.load(Ordering::Relaxed),
            valid: self.valid.load(Ordering::Relaxed),
            discards: self.discards.load(Ordering::Relaxed),
            nodes: self.total_nodes.load(Ordering::Relaxed),
            cpu_seconds: process_cpu_seconds(),
            note: note.to_string(),
        }
    }

    /// Prints the result line and ends the process (no shrinking, no framework epilogue, no
    /// `atexit` handlers).
    fn finish(&self, found: bool, note: &str) -> ! {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", self.outcome(found, note).line());
        let _ = out.flush();
        // Not `std::process::exit`: the drop-ins' engine registers an `atexit` handler that
        // reports an exit inside a property as a crash (and saves the input); `_exit` ends the
        // process at once, which is what the trial means.
        // SAFETY: `_exit` takes no pointers and never returns; stdout was flushed above.
        unsafe { libc::_exit(0) }
    }
}

/// The property as every tool sees it: checks `input`, counts it, and ends the trial at the first
/// failure or once the cap (or the weakened drop-in's test limit) is reached. A panic of the
/// property is a failure, as every framework counts it.
fn observe<I: 'static>(input: &I) -> Verdict {
    let observer = OBSERVER
        .get()
        .expect("the trial's observer is set before the tool runs");
    if observer.deadline.is_some_and(|d| Instant::now() >= d) {
        observer.finish(false, "");
    }
    let tests = observer.tests.fetch_add(1, Ordering::Relaxed) + 1;
    if observer.max_tests.is_some_and(|max| tests > max) {
        observer.tests.fetch_sub(1, Ordering::Relaxed);
        observer.finish(false, "test limit");
    }
    let nodes = (observer.nodes)(input) as u64;
    observer.total_nodes.fetch_add(nodes, Ordering::Relaxed);
    let verdict =
        catch_unwind(AssertUnwindSafe(|| (observer.check)(input))).unwrap_or(Verdict::Fail);
    match verdict {
        Verdict::Pass => {
            observer.valid.fetch_add(1, Ordering::Relaxed);
        }
        Verdict::Discard => {
            observer.discards.fetch_add(1, Ordering::Relaxed);
        }
        Verdict::Fail => {
            observer.valid.fetch_add(1, Ordering::Relaxed);
            observer.finish(true, "");
        }
    }
    verdict
}

/// The property as a quickcheck user writes it: `fn(T) -> TestResult`.
fn quickcheck_property<I: 'static>(input: I) -> TestResult {
    match observe(&input) {
        Verdict::Pass => TestResult::passed(),
        Verdict::Discard => TestResult::discard(),
        Verdict::Fail => TestResult::failed(),
    }
}

/// Runs the trial `request` of workload `W` and prints its result line; never returns.
pub(crate) fn run<W: Workload>(request: &Request) -> ! {
    let Some(check) = W::checker(request.bug.as_deref(), &request.property) else {
        eprintln!(
            "typefuzz-bench dropin-trial: {} has no bug `{}` or property `{}`",
            W::NAME,
            request.bug.as_deref().unwrap_or("none"),
            request.property
        );
        std::process::exit(2);
    };
    let started = Instant::now();
    let deadline = match request.budget {
        Budget::Cap(cap) => Some(started + cap),
        Budget::Framework => None,
    };
    let max_tests = request
        .dropin_max_tests
        .filter(|_| request.tool.is_dropin());
    let observer = Observer {
        check: Box::new(move |input| {
            check(input.downcast_ref().expect("the workload's input type"))
        }),
        nodes: Box::new(|input| W::nodes(input.downcast_ref().expect("the workload's input type"))),
        started,
        deadline,
        max_tests,
        tests: AtomicU64::new(0),
        valid: AtomicU64::new(0),
        discards: AtomicU64::new(0),
        total_nodes: AtomicU64::new(0),
    };
    let observer = OBSERVER.get_or_init(|| observer);
    // A tool's own panic (a drop-in that could not generate enough valid tests, a harness
    // error) is recorded as such, never as a find.
    let ended = catch_unwind(AssertUnwindSafe(|| run_tool::<W>(request)));
    let note = match ended {
        Ok(note) => note,
        Err(panic) => format!("tool panicked: {}", panic_message(&*panic)),
    };
    observer.finish(false, &note)
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    let text = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("(not a string)");
    text.lines().next().unwrap_or("").to_string()
}

/// Runs the tool until it returns by itself; the note says why it stopped if not its budget.
fn run_tool<W: Workload>(request: &Request) -> String {
    let campaign = matches!(request.budget, Budget::Cap(_));
    match request.tool {
        Tool::Proptest => {
            let mut config = proptest_config(request.seed);
            if campaign {
                // Only the cap stops it.
                config.cases = u32::MAX;
                config.max_global_rejects = u32::MAX;
            }
            let mut runner = TestRunner::new(config);
            match runner.run(&W::strategy(), |input| proptest_result(observe(&input))) {
                Ok(()) => String::new(),
                Err(error) => format!("proptest: {error}"),
            }
        }
        Tool::ProptestDropIn => {
            let config = proptest_config(request.seed);
            // What a user's test becomes with `typefuzz::proptest!` in place of
            // `proptest::proptest!` (the closure form of the same macro).
            typefuzz::proptest!(config, |(input in W::strategy())| {
                proptest_result(observe(&input))?;
            });
            String::new()
        }
        Tool::Quickcheck => {
            let mut quickcheck = quickcheck::QuickCheck::new()
                .rng(quickcheck::Gen::from_size_and_seed(100, request.seed));
            if campaign {
                quickcheck = quickcheck.tests(u64::MAX).max_tests(u64::MAX);
            }
            let property: fn(W::Input) -> TestResult = quickcheck_property::<W::Input>;
            match quickcheck.quicktest(property) {
                Ok(_) => String::new(),
                Err(result) => format!("quickcheck: {result:?}"),
            }
        }
        Tool::QuickcheckDropIn => {
            use typefuzz::quickcheck::__private::{Probe, RunTyped as _};
            // What `typefuzz::quickcheck!` expands to for `fn prop(input: W::Input) ->
            // TestResult` (an unnamed run: no corpus, no regression file); the seed comes from
            // `TYPEFUZZ_SEED`, as for a user.
            let property: fn(W::Input) -> TestResult = quickcheck_property::<W::Input>;
            Probe::<typefuzz::quickcheck::v1::V1, _>::new(property).run(None);
            String::new()
        }
    }
}

/// A proptest user's configuration with a fixed seed and no regression file.
fn proptest_config(seed: u64) -> ProptestConfig {
    ProptestConfig {
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A verdict as `prop_assume!` and `prop_assert!` report it.
fn proptest_result(verdict: Verdict) -> Result<(), TestCaseError> {
    match verdict {
        Verdict::Pass => Ok(()),
        Verdict::Discard => Err(TestCaseError::reject("precondition")),
        Verdict::Fail => Err(TestCaseError::fail("property failed")),
    }
}

/// The child's environment for `request`: what a user sets to run the tool that way.
pub(crate) fn environment(request: &Request) -> Vec<(&'static str, String)> {
    let mut vars = vec![("TYPEFUZZ_PROGRESS", "off".to_string())];
    if request.tool.is_dropin() {
        if let Budget::Cap(cap) = request.budget {
            vars.push(("TYPEFUZZ_TIME", format!("{}ms", cap.as_millis())));
        }
        if request.tool == Tool::QuickcheckDropIn {
            vars.push(("TYPEFUZZ_SEED", request.seed.to_string()));
        }
    }
    vars
}

/// How long the driver waits for a child before killing it: the cap plus room for start-up,
/// or a generous bound for the framework budgets.
pub(crate) fn wall_limit(budget: Budget) -> Duration {
    match budget {
        Budget::Cap(cap) => cap + Duration::from_secs(20),
        Budget::Framework => Duration::from_secs(120),
    }
}
