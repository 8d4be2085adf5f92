//! The throughput mode: tests per second *and* nodes per second on three properties without
//! precondition ([`crate::throughput`]), every tool side by side in one run, so the ratios hold
//! even on a loaded machine.
//!
//! Rows per workload: plain proptest (the workload's strategy), plain quickcheck (its
//! `Arbitrary` at a fixed `Gen` size, as `quickcheck()` runs it, in the baselines' own loop:
//! generate, call, count), quickcheck's own runner on the same generator
//! (`quickcheck-runner`: `QuickCheck::quicktest` on a `fn(T) -> bool`, which clones each input
//! before the call so that it can shrink a failure, as a user's `quickcheck!` test runs), quickcheck with its size
//! cycling through `0..=size` test after test (`quickcheck-cycled`: the size distribution the
//! engine generates with), quickcheck in
//! the baselines' loop with the engine's distinct-input hash ([`ValueHasher`]) of every input
//! added (`quickcheck+hash`: what the hash behind the unique count costs by itself, next to
//! generating the inputs; the count's set insert is not in it), the derived
//! `generate` alone (the same loop as the baselines, so it compares generators),
//! `typefuzz::check` with the generate-only schedule, and `typefuzz::check` with the
//! default schedule (mutation, structure feedback, unique counting; coverage off). quickcheck and
//! the derived generator get the same target size; each row reports the mean node count of what
//! it actually ran, so a tool cannot look faster by running smaller inputs. Trials interleave the
//! rows (trial 1 of every row, then trial 2, ...), so a change in the machine's load hits all
//! of them alike.

use std::cell::Cell;
use std::fmt::Write as _;
use std::fs;
use std::hash::Hash;
use std::time::{Duration, Instant};

use proptest::strategy::{BoxedStrategy, Strategy as _, ValueTree};
use typefuzz::mutate::ValueHasher;
use typefuzz::{Context, Mutate};

use super::csv_file;
use super::jobs::BST_MAX_SIZE;
use super::stats::mean;
use super::strategy::{baseline_loop, proptest_runner, typefuzz_trial, Strategy};
use super::Options;
use crate::bst::{generate as bgen, Tree};
use crate::throughput::{self as workload, Machine, Term};
use crate::Verdict;

/// quickcheck's and the derived generator's size for terms: about 50 nodes each.
const TERM_SIZE: usize = 48;

/// quickcheck's and the derived generator's size for machines: programs shorter than this.
const MACHINE_SIZE: usize = 100;

/// One row of the report: a tool and how it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tool {
    Proptest,
    Quickcheck,
    /// quickcheck's `Arbitrary` under quickcheck's own runner (`QuickCheck::quicktest`).
    QuickcheckRunner,
    /// quickcheck's `Arbitrary` with its `Gen` size cycling through `0..=size`, test after
    /// test, as the engine's generation sizes do: the baseline with the engine's size
    /// distribution for generated inputs.
    QuickcheckCycled,
    /// quickcheck's `Arbitrary` in the baselines' loop plus the engine's distinct-input hash of
    /// every input ([`ValueHasher::of`], which `typefuzz::check` runs on every valid input):
    /// the cost of that hash alone, beside the cost of generating the input.
    QuickcheckHashed,
    /// The derived `Mutate::generate` in the baselines' loop.
    DerivedGenerate,
    /// `typefuzz::check` under a benchmark strategy's configuration.
    Check(Strategy),
}

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::Proptest => "proptest",
            Tool::Quickcheck => "quickcheck",
            Tool::QuickcheckRunner => "quickcheck-runner",
            Tool::QuickcheckCycled => "quickcheck-cycled",
            Tool::QuickcheckHashed => "quickcheck+hash",
            Tool::DerivedGenerate => "derived-generate",
            Tool::Check(s) => s.name(),
        }
    }

    /// The rows for `--strategies` (the derived generator is always measured: it is the
    /// generator half of the comparison).
    fn from_strategies(strategies: &[Strategy]) -> Vec<Tool> {
        let mut tools: Vec<Tool> = strategies
            .iter()
            .map(|&s| match s {
                Strategy::Proptest => Tool::Proptest,
                // The throughput workloads' naive generators are their quickcheck `Arbitrary`
                // impls: here the naive-generator line is quickcheck's generator.
                Strategy::NaiveGenerator => Tool::Quickcheck,
                other => Tool::Check(other),
            })
            .collect();
        let at = tools
            .iter()
            .position(|t| matches!(t, Tool::Check(_)))
            .unwrap_or(tools.len());
        tools.insert(at, Tool::DerivedGenerate);
        if let Some(at) = tools.iter().position(|&t| t == Tool::Quickcheck) {
            tools.insert(at + 1, Tool::QuickcheckRunner);
            tools.insert(at + 2, Tool::QuickcheckCycled);
            tools.insert(at + 3, Tool::QuickcheckHashed);
        }
        tools
    }
}

/// A workload's input type: the property and the node count, as functions of the type, so that
/// quickcheck's runner can take the property as a plain `fn(T) -> bool`.
trait Input: Sized {
    /// The workload's property.
    fn property(&self) -> Verdict;
    /// How many constructors the input has.
    fn nodes(&self) -> usize;
}

impl Input for Tree {
    fn property(&self) -> Verdict {
        workload::mirror_twice(self)
    }
    fn nodes(&self) -> usize {
        self.size()
    }
}

impl Input for Term {
    fn property(&self) -> Verdict {
        workload::depth_within_size(self)
    }
    fn nodes(&self) -> usize {
        Term::nodes(self)
    }
}

impl Input for Machine {
    fn property(&self) -> Verdict {
        workload::runs_to_completion(self)
    }
    fn nodes(&self) -> usize {
        Machine::nodes(self)
    }
}

thread_local! {
    /// Tests and nodes counted by [`runner_property`] on this thread.
    static RUNNER_COUNTS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

/// The property as quickcheck's runner takes it, counting what it ran.
fn runner_property<T: Input>(input: T) -> bool {
    RUNNER_COUNTS.with(|counts| {
        let (tests, nodes) = counts.get();
        counts.set((tests + 1, nodes + input.nodes() as u64));
    });
    input.property() != Verdict::Fail
}

/// Tests per `QuickCheck::quicktest` call of the `quickcheck-runner` row (the clock is read
/// between calls).
const RUNNER_CHUNK: u64 = 256;

/// A throughput workload: its name, sizes and the proptest strategy.
struct Workload<T> {
    name: &'static str,
    /// The proptest strategy.
    strategy: fn() -> BoxedStrategy<T>,
    /// quickcheck's `Gen` size and the derived generator's size in its loop.
    size: usize,
    /// The engine's maximum size.
    max_size: usize,
    description: &'static str,
}

/// What one trial measured.
#[derive(Clone, Copy, Default)]
struct Measured {
    tests: u64,
    nodes: u64,
    seconds: f64,
}

impl Measured {
    fn tests_per_second(&self) -> f64 {
        self.tests as f64 / self.seconds.max(1e-9)
    }

    fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }

    fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / self.tests.max(1) as f64
    }
}

/// Runs `tool` on `workload` for `cap`.
fn trial<T>(tool: Tool, workload: &Workload<T>, seed: u64, cap: Duration) -> Measured
where
    T: Mutate + std::fmt::Debug + Hash + quickcheck::Arbitrary + Input,
{
    let nodes = Cell::new(0u64);
    let tests = Cell::new(0u64);
    let property = |x: &T| {
        nodes.set(nodes.get() + x.nodes() as u64);
        tests.set(tests.get() + 1);
        x.property()
    };
    let seconds = match tool {
        Tool::Proptest => {
            let strategy = (workload.strategy)();
            let mut runner = proptest_runner(seed);
            baseline_loop(cap, false, property, || {
                strategy.new_tree(&mut runner).expect("no filter").current()
            })
            .seconds
        }
        Tool::Quickcheck => {
            let mut gen = quickcheck::Gen::from_size_and_seed(workload.size, seed);
            baseline_loop(cap, false, property, || T::arbitrary(&mut gen)).seconds
        }
        Tool::QuickcheckRunner => {
            let gen = quickcheck::Gen::from_size_and_seed(workload.size, seed);
            let mut runner = quickcheck::QuickCheck::new()
                .rng(gen)
                .tests(RUNNER_CHUNK)
                .max_tests(RUNNER_CHUNK)
                .min_tests_passed(0);
            RUNNER_COUNTS.with(|counts| counts.set((0, 0)));
            let started = Instant::now();
            while started.elapsed() < cap {
                if let Err(failure) = runner.quicktest(runner_property::<T> as fn(T) -> bool) {
                    panic!("the property failed: {failure:?}");
                }
            }
            let seconds = started.elapsed().as_secs_f64();
            let (counted_tests, counted_nodes) = RUNNER_COUNTS.with(Cell::get);
            tests.set(counted_tests);
            nodes.set(counted_nodes);
            seconds
        }
        Tool::QuickcheckCycled => {
            // One `Gen` per size (quickcheck's size is fixed at construction).
            let mut gens: Vec<quickcheck::Gen> = (0..=workload.size)
                // Size 0 is read as 1 (quickcheck divides by its size; both make empty `Vec`s).
                .map(|size| quickcheck::Gen::from_size_and_seed(size.max(1), seed ^ size as u64))
                .collect();
            let mut next = 0;
            baseline_loop(cap, false, property, || {
                next = (next + 1) % gens.len();
                T::arbitrary(&mut gens[next])
            })
            .seconds
        }
        Tool::QuickcheckHashed => {
            let mut gen = quickcheck::Gen::from_size_and_seed(workload.size, seed);
            let mut hashes = 0u64;
            let seconds = baseline_loop(cap, false, property, || {
                let input = T::arbitrary(&mut gen);
                // Kept, so that the hash is not optimized away.
                hashes ^= ValueHasher::of(&input).unwrap_or(0);
                input
            })
            .seconds;
            std::hint::black_box(hashes);
            seconds
        }
        Tool::DerivedGenerate => {
            let mut cx = Context::new(seed).with_max_size(workload.size);
            baseline_loop(cap, false, property, || T::generate(&mut cx)).seconds
        }
        Tool::Check(s) => {
            let config = s
                .config(seed, cap, workload.max_size)
                .expect("a typefuzz strategy");
            typefuzz_trial(&config, |cx| cx.generate::<T>(), property).seconds
        }
    };
    Measured {
        tests: tests.get(),
        nodes: nodes.get(),
        seconds,
    }
}

/// One row of `throughput.csv`: one trial of one tool on one workload.
#[derive(serde::Serialize)]
struct ThroughputRecord {
    workload: &'static str,
    tool: &'static str,
    trial: usize,
    tests: u64,
    nodes: u64,
    #[serde(serialize_with = "csv_file::fixed::<4, _>")]
    seconds: f64,
    #[serde(serialize_with = "csv_file::fixed::<0, _>")]
    tests_per_s: f64,
    #[serde(serialize_with = "csv_file::fixed::<0, _>")]
    nodes_per_s: f64,
}

/// The mode: every workload, every tool, `--trials` interleaved trials of `--cap` seconds
/// (default 2 s); writes `report.md` and `throughput.csv` to `--out`.
pub(crate) fn run(options: &Options) -> i32 {
    let cap = options.cap.unwrap_or(Duration::from_secs(2));
    let tools = Tool::from_strategies(&options.strategies.clone().unwrap_or(vec![
        Strategy::Proptest,
        Strategy::NaiveGenerator,
        Strategy::TypefuzzGenerate,
        Strategy::Typefuzz,
    ]));
    let mut md = format!(
        "# typefuzz benchmark: throughput\n\nCommand: `{}`  \n{} interleaved trial(s) of {:.1} s \
         per tool and workload; machine: {}.\n\nNo property has a precondition, so every test is \
         valid. quickcheck's `Gen` and the derived generator (`derived-generate`, the derived \
         `Mutate::generate` in the baselines' own loop) get the same size; `typefuzz-generate` \
         and `typefuzz` are `typefuzz::check` (coverage off) with the generate-only and the \
         default schedule, at the engine's maximum size below. Nodes are constructors; \
         `nodes/s` cannot be raised by running smaller inputs. Ratios are to quickcheck in the \
         same run (its generator in the baselines' loop), to `quickcheck-runner` (the same \
         generator under quickcheck's own runner, `QuickCheck::quicktest` on a `fn(T) -> bool`, \
         which clones each input before the call, as a user's quickcheck test runs) and to \
         `quickcheck-cycled` (quickcheck with its `Gen` size cycling through \
         `0..=size`, as the engine's generation sizes do). The baselines count no unique \
         inputs (typefuzz always does: its numbers include that cost); `quickcheck+hash` is \
         quickcheck with the engine's distinct-input hash of every input added: the hash \
         behind that count, by itself (without the count's set insert).\n",
        options.command,
        options.trials,
        cap.as_secs_f64(),
        super::trials_report::machine(),
    );
    let mut csv = Vec::new();
    let mirror = Workload::<Tree> {
        name: "mirror",
        strategy: || bgen::naive_tree_strategy(bgen::NAIVE_DEPTH),
        size: BST_MAX_SIZE,
        max_size: BST_MAX_SIZE,
        description: "`mirror(mirror(t)) == t` on the BST workload's trees; quickcheck and \
                      proptest use the naive tree generator (depth <= 5)",
    };
    let terms = Workload::<Term> {
        name: "terms",
        strategy: || workload::term_strategy(8, 64),
        size: TERM_SIZE,
        max_size: TERM_SIZE,
        description: "`depth(t) <= nodes(t)` on 7-variant expression terms; quickcheck uses \
                      QuickChick's sized generation, proptest `prop_recursive(8, 64, 3)`",
    };
    let machines = Workload::<Machine> {
        name: "machines",
        strategy: || workload::machine_strategy(MACHINE_SIZE).boxed(),
        size: MACHINE_SIZE,
        max_size: MACHINE_SIZE,
        description: "a bounded run of a stack machine whose program is a `Vec` of a \
                      30-variant instruction enum; quickcheck's `Vec` and proptest's `vec(.., \
                      0..100)`",
    };
    // `--tasks mirror,terms`: only these workloads (for profiling one of them).
    let wanted = |name: &str| {
        options
            .tasks
            .as_ref()
            .map_or(true, |tasks| tasks.iter().any(|t| t == name))
    };
    let mut failed = false;
    if wanted(mirror.name) {
        failed |= measure(&mirror, &tools, options, cap, &mut md, &mut csv);
    }
    if wanted(terms.name) {
        failed |= measure(&terms, &tools, options, cap, &mut md, &mut csv);
    }
    if wanted(machines.name) {
        failed |= measure(&machines, &tools, options, cap, &mut md, &mut csv);
    }
    let write = fs::create_dir_all(&options.out)
        .and_then(|_| fs::write(options.out.join("report.md"), md))
        .and_then(|_| csv_file::write(&options.out.join("throughput.csv"), csv));
    if let Err(e) = write {
        eprintln!("typefuzz-bench: could not write the report: {e}");
    }
    i32::from(failed)
}

/// Measures every tool on one workload and appends its table; returns whether a property
/// failed (none should: they have no bug).
fn measure<T>(
    workload: &Workload<T>,
    tools: &[Tool],
    options: &Options,
    cap: Duration,
    md: &mut String,
    csv: &mut Vec<ThroughputRecord>,
) -> bool
where
    T: Mutate + std::fmt::Debug + Hash + quickcheck::Arbitrary + Input + Send + 'static,
{
    let mut results: Vec<Vec<Measured>> = vec![Vec::new(); tools.len()];
    for trial_index in 0..options.trials {
        let seed = super::trial_seed(options.seed, trial_index);
        for (row, &tool) in tools.iter().enumerate() {
            let measured = std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .stack_size(64 << 20)
                    .spawn_scoped(scope, || trial(tool, workload, seed, cap))
                    .expect("spawn")
                    .join()
            });
            let Ok(measured) = measured else {
                eprintln!(
                    "throughput {} {}: the property failed",
                    workload.name,
                    tool.name()
                );
                return true;
            };
            csv.push(ThroughputRecord {
                workload: workload.name,
                tool: tool.name(),
                trial: trial_index,
                tests: measured.tests,
                nodes: measured.nodes,
                seconds: measured.seconds,
                tests_per_s: measured.tests_per_second(),
                nodes_per_s: measured.nodes_per_second(),
            });
            eprintln!(
                "throughput {} {} #{trial_index}: {:.0} tests/s, {:.0} nodes/s (mean {:.2} nodes)",
                workload.name,
                tool.name(),
                measured.tests_per_second(),
                measured.nodes_per_second(),
                measured.mean_nodes()
            );
            results[row].push(measured);
        }
    }
    let summary = |row: &[Measured]| {
        let of =
            |f: fn(&Measured) -> f64| mean(&row.iter().map(f).collect::<Vec<_>>()).unwrap_or(0.0);
        (
            of(Measured::tests_per_second),
            of(Measured::nodes_per_second),
            of(Measured::mean_nodes),
        )
    };
    let baseline = |tool: Tool| {
        tools
            .iter()
            .position(|&t| t == tool)
            .map(|row| summary(&results[row]))
    };
    let (quickcheck, runner, cycled) = (
        baseline(Tool::Quickcheck),
        baseline(Tool::QuickcheckRunner),
        baseline(Tool::QuickcheckCycled),
    );
    let _ = write!(
        md,
        "\n## {}\n\n{} (quickcheck and derived size {}, engine maximum size {}).\n\n\
         | tool | tests/s | nodes/s | mean nodes | tests/s vs quickcheck | nodes/s vs quickcheck \
         | tests/s vs quickcheck-runner | nodes/s vs quickcheck-runner \
         | tests/s vs quickcheck-cycled | nodes/s vs quickcheck-cycled |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
        workload.name, workload.description, workload.size, workload.max_size
    );
    for (row, &tool) in tools.iter().enumerate() {
        let (tests, nodes, size) = summary(&results[row]);
        let ratio = |x: f64, base: f64| {
            if base > 0.0 {
                format!("{:.2}x", x / base)
            } else {
                "-".into()
            }
        };
        let versus = |base: Option<(f64, f64, f64)>| {
            base.map_or(("-".into(), "-".into()), |(t, n, _)| {
                (ratio(tests, t), ratio(nodes, n))
            })
        };
        let (vs_tests, vs_nodes) = versus(quickcheck);
        let (vs_runner_tests, vs_runner_nodes) = versus(runner);
        let (vs_cycled_tests, vs_cycled_nodes) = versus(cycled);
        let _ = writeln!(
            md,
            "| {} | {tests:.0} | {nodes:.0} | {size:.2} | {vs_tests} | {vs_nodes} \
             | {vs_runner_tests} | {vs_runner_nodes} | {vs_cycled_tests} | {vs_cycled_nodes} |",
            tool.name()
        );
        println!(
            "throughput {}: {} {tests:.0} tests/s ({vs_tests} quickcheck), {nodes:.0} nodes/s \
             ({vs_nodes}), mean {size:.2} nodes",
            workload.name,
            tool.name()
        );
    }
    false
}
