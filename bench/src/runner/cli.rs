//! The benchmark's command line: one `typefuzz-bench` binary with a subcommand per measurement,
//! declared as types (clap derive), so an unknown flag or an unparsable value is an error and
//! every subcommand has its `--help`.

use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};

use super::dropin::Tool as DropinTool;
use super::jobs::Workload;
use super::strategy::Strategy;

/// `typefuzz-bench`: typefuzz measured against proptest and quickcheck.
#[derive(Debug, Parser)]
#[command(
    name = "typefuzz-bench",
    about = "typefuzz's benchmark: strategies side by side on every workload, and the per-test, \
             shrinking and fixed-work measurements",
    after_help = "`cargo run --release -p typefuzz-bench -- quick` is the README demo; \
                  `typefuzz-bench <SUBCOMMAND> --help` explains each subcommand."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands, one per measurement.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// The README demo: every IFC mutant, the BST tasks and the micro targets, one trial, short
    /// caps (about a minute after the builds). IFC and the micro targets run twice: with code
    /// coverage only (an instrumented child build) and with the hand-placed labels. Results go
    /// to `target/typefuzz-bench/quick` unless `--out` says otherwise.
    Quick(RunArgs),
    /// The protocol: 10 trials, 60 s caps, every strategy and ablation, all controls; the
    /// instrumented lines are coverage only and coverage with comparison tracing. Results go to
    /// `bench/results/full`.
    Full(RunArgs),
    /// Tests and nodes per second on three properties without precondition, every tool side by
    /// side (default cap 2 s per trial); `--tasks` picks workloads among `mirror,terms,machines`.
    Throughput(RunArgs),
    /// The instrumented lines themselves: only meaningful in an instrumented build (see
    /// `tests/sancov.rs`), which `quick` and `full` make and run on their own.
    Sancov(SancovArgs),
    /// Real bugs of published crate releases: plain proptest, the proptest drop-in and
    /// `typefuzz::check` on the derived types, 5 trials, 10 s caps; the fixed releases are
    /// controls.
    Historical(RunArgs),
    /// The drop-ins against their plain frameworks, each run as its users run it, on the
    /// held-out evaluation set and the development set (every trial a child process).
    Dropin(DropinArgs),
    /// One drop-in comparison trial in this process: the child `dropin` spawns.
    #[command(hide = true)]
    DropinTrial {
        /// WORKLOAD TOOL BUG PROPERTY SEED BUDGET [MAX_TESTS], as the driver writes them.
        #[arg(num_args = 0.., allow_hyphen_values = true, trailing_var_arg = true)]
        request: Vec<String>,
    },
    /// The per-test cost of the drop-ins: `typefuzz::quickcheck` and `typefuzz::proptest!`
    /// against plain quickcheck and proptest, same generator and property, on terms of about 50
    /// nodes, every side in turn each round; prints a markdown table.
    PerTestCost(PerTestCostArgs),
    /// Where mutants' size goes: for each workload, the mean nodes of the seeds and of one mutant
    /// per seed, per mutation operator, and after chains of mutations (no timing).
    MutantSize(MutantSizeArgs),
    /// The minimal inputs typefuzz, proptest and quickcheck shrink to on the same failing
    /// inputs: a markdown table of median sizes per case; exits 1 when typefuzz's median is
    /// larger than a framework's on some case.
    Shrink(ShrinkArgs),
    /// The engine loop on a fixed amount of work (deterministic, for counting instructions
    /// under cachegrind or callgrind): one line per workload with what the run did.
    FixedWork(FixedWorkArgs),
    /// Regenerates README.md's results table from the committed quick report
    /// (`bench/results/quick/report.md`).
    ReadmeTable {
        /// Changes nothing: exits 1 if README.md's table differs from the report.
        #[arg(long)]
        check: bool,
    },
}

/// The flags of the trial modes (`quick`, `full`, `throughput`, `sancov`, `historical`).
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// Trials per task (default: 1; 10 in `full`, 5 in `historical`).
    #[arg(long, value_name = "N", value_parser = at_least_one::<usize>)]
    pub(crate) trials: Option<usize>,
    /// Trials of the no-bug controls, which always run to their cap (at most `--trials`).
    #[arg(long, value_name = "N")]
    pub(crate) control_trials: Option<usize>,
    /// Every strategy's time cap per trial, in seconds (default: the mode's, per workload).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub(crate) cap: Option<Duration>,
    /// Only this workload (repeatable).
    #[arg(long, value_name = "WORKLOAD", ignore_case = true, value_parser = workload_parser())]
    pub(crate) only: Vec<Workload>,
    /// Only these strategies (comma-separated).
    #[arg(long, value_name = "A,B", value_delimiter = ',', value_parser = strategy_parser())]
    pub(crate) strategies: Option<Vec<Strategy>>,
    /// Only the jobs with these task names (comma-separated), e.g. IFC mutants `3,17` or
    /// `correct` for the control; in `throughput`, workloads `mirror,terms,machines`.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub(crate) tasks: Option<Vec<String>>,
    /// The base seed; trial `i`'s seed is derived from it, shared by the strategies.
    #[arg(long, value_name = "N", default_value_t = 0x7f4a_7c15)]
    pub(crate) seed: u64,
    /// Where the report goes (default: `target/typefuzz-bench/quick` for `quick`,
    /// `bench/results/<mode>` otherwise).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Overrides every workload's typefuzz size bound.
    #[arg(long, value_name = "N", value_parser = at_least_one::<usize>)]
    pub(crate) max_size: Option<usize>,
    /// Stops every typefuzz trial after N tests as well as at its cap (side-by-side comparisons
    /// on a loaded machine then give each variant the same tests).
    #[arg(long, value_name = "N", value_parser = at_least_one::<u64>)]
    pub(crate) max_tests: Option<u64>,
}

/// `sancov`'s flags: the trial modes' and which instrumented build this process is.
#[derive(Debug, Args)]
pub(crate) struct SancovArgs {
    #[command(flatten)]
    pub(crate) run: RunArgs,
    /// This build traces comparisons as well as coverage (`cargo typefuzz test --trace-compares`).
    #[arg(long)]
    pub(crate) trace_compares: bool,
}

/// The drop-in comparison's flags.
#[derive(Debug, Args)]
#[command(
    after_help = "Without --throughput or --ci: the tasks, each a (bug, property) pair, \
                        every tool `--seeds` times. Outputs (in --out, each replacing the \
                        previous run of its mode and set): campaign-<set>.csv/.md, \
                        framework-<set>.csv/.md, throughput.csv/.md, ci.csv/.md, \
                        recheck-<set>.csv/.md."
)]
pub(crate) struct DropinArgs {
    /// Which workloads: the held-out evaluation set (stlc, rbt, heap), the development set
    /// (bst), or both.
    #[arg(long, value_name = "SET", default_value = "all",
          value_parser = ["evaluation", "development", "all"])]
    pub(crate) set: String,
    /// Only these workloads (comma-separated).
    #[arg(long, value_name = "A,B", value_delimiter = ',',
          value_parser = PossibleValuesParser::new(super::dropin::workload_names()))]
    pub(crate) workloads: Option<Vec<String>>,
    /// Only these tools (comma-separated).
    #[arg(long, value_name = "A,B", value_delimiter = ',', value_parser = dropin_tool_parser())]
    pub(crate) tools: Option<Vec<DropinTool>>,
    /// Trials (seeds) per task and tool.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = at_least_one::<usize>)]
    pub(crate) seeds: usize,
    /// The base seed.
    #[arg(long, value_name = "N", default_value_t = 0x5eed_d201)]
    pub(crate) seed: u64,
    /// Every tool's wall-clock cap per trial, in seconds (default 10; time to failure is when
    /// the property first fails, before shrinking).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, conflicts_with = "cases")]
    pub(crate) cap: Option<Duration>,
    /// `framework`: each framework's default budget, as a plain `cargo test` runs it
    /// (proptest's 256 cases, quickcheck's 100 tests, the drop-ins without `TYPEFUZZ_TIME`);
    /// reports the fraction of seeds that found each bug.
    #[arg(long, value_name = "framework", value_parser = ["framework"])]
    pub(crate) cases: Option<String>,
    /// Trials run at once (child processes).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = at_least_one::<usize>)]
    pub(crate) jobs: usize,
    /// Where the reports go (default: `bench/results/dropin`).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Tests and nodes per second instead of the tasks, per wall-clock and per CPU second:
    /// every tool for SECONDS per workload.
    #[arg(long, value_name = "SECONDS", value_parser = seconds, conflicts_with = "ci")]
    pub(crate) throughput: Option<Duration>,
    /// The bounded regression line over the evaluation set: exits 1 if on any workload a
    /// drop-in finds fewer tasks than its plain framework.
    #[arg(long)]
    pub(crate) ci: bool,
    /// With `--ci`: stops each drop-in trial after 20 tests, to show the line failing.
    #[arg(long, requires = "ci")]
    pub(crate) weaken_dropins: bool,
    /// Re-runs the tasks a campaign's CSV marks worse for a drop-in, for it and its plain
    /// framework, with `--seeds` seeds the campaign did not use; writes recheck-<set>.csv/.md.
    #[arg(long, value_name = "CSV", conflicts_with_all = ["throughput", "ci", "cases", "cap"])]
    pub(crate) recheck: Option<PathBuf>,
}

/// `per-test-cost`'s arguments.
#[derive(Debug, Args)]
pub(crate) struct PerTestCostArgs {
    /// Passing tests per side and round.
    #[arg(value_name = "TESTS", default_value_t = 20_000, value_parser = at_least_one::<u64>)]
    pub(crate) tests: u64,
    /// Rounds (the table sums them and gives each round's ratio).
    #[arg(value_name = "ROUNDS", default_value_t = 3, value_parser = at_least_one::<u64>)]
    pub(crate) rounds: u64,
    /// Only the sides whose name contains this text (e.g. `proptest`, for profiling).
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub(crate) sides: String,
}

/// `mutant-size`'s arguments.
#[derive(Debug, Args)]
pub(crate) struct MutantSizeArgs {
    /// Seeds per workload.
    #[arg(value_name = "SEEDS", default_value_t = 20_000, value_parser = at_least_one::<u64>)]
    pub(crate) seeds: u64,
}

/// `shrink`'s arguments.
#[derive(Debug, Args)]
pub(crate) struct ShrinkArgs {
    /// Seeds `0..SEEDS` per case and framework.
    #[arg(value_name = "SEEDS", default_value_t = 10, value_parser = at_least_one::<u64>)]
    pub(crate) seeds: u64,
}

/// The workloads `fixed-work` runs.
pub(crate) const FIXED_WORK_WORKLOADS: [&str; 10] = [
    "all",
    "machines",
    "terms",
    "mirror",
    "generate-machines",
    "generate-terms",
    "generate-mirror",
    "quickcheck-machines",
    "quickcheck-terms",
    "quickcheck-mirror",
];

/// `fixed-work`'s arguments.
#[derive(Debug, Args)]
pub(crate) struct FixedWorkArgs {
    /// `machines`, `terms`, `mirror` (`typefuzz::check`, default schedule), `all` three, or
    /// `generate-`/`quickcheck-` and one of the three (a fresh input per test from the derived
    /// generator or from quickcheck's `Arbitrary`).
    #[arg(value_name = "WORKLOAD", default_value = "all",
          value_parser = PossibleValuesParser::new(FIXED_WORK_WORKLOADS))]
    pub(crate) workload: String,
    /// Tests per workload (default: 200,000 for machines and mirror, 60,000 for terms).
    #[arg(value_name = "TESTS", value_parser = at_least_one::<u64>)]
    pub(crate) tests: Option<u64>,
    /// The engine's maximum size instead of the throughput mode's (engine workloads only).
    #[arg(long, value_name = "N", value_parser = at_least_one::<usize>)]
    pub(crate) max_size: Option<usize>,
}

/// Parses `args` (without the program name).
pub(crate) fn parse<S: AsRef<str>>(args: &[S]) -> Result<Cli, clap::Error> {
    let program = std::iter::once("typefuzz-bench");
    Cli::try_parse_from(program.chain(args.iter().map(AsRef::as_ref)))
}

/// A positive count (`usize` or `u64`).
fn at_least_one<N>(value: &str) -> Result<N, String>
where
    N: std::str::FromStr<Err = std::num::ParseIntError> + PartialEq + From<u8>,
{
    match value.parse::<N>() {
        Ok(n) if n == N::from(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(error) => Err(error.to_string()),
    }
}

/// A positive number of seconds, fractions allowed (`0.25`).
fn seconds(value: &str) -> Result<Duration, String> {
    let secs: f64 = value.parse().map_err(|e| format!("{e}"))?;
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or(format!("{value} is not a positive number of seconds"))
}

fn workload_parser() -> impl TypedValueParser<Value = Workload> {
    PossibleValuesParser::new(["ifc", "bst", "micro", "historical"])
        .map(|name| Workload::parse(&name).expect("every possible value names a workload"))
}

fn strategy_parser() -> impl TypedValueParser<Value = Strategy> {
    PossibleValuesParser::new(Strategy::ALL.map(Strategy::name))
        .map(|name| Strategy::parse(&name).expect("every possible value names a strategy"))
}

fn dropin_tool_parser() -> impl TypedValueParser<Value = DropinTool> {
    PossibleValuesParser::new(DropinTool::ALL.map(DropinTool::name))
        .map(|name| DropinTool::parse(&name).expect("every possible value names a tool"))
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;
    use clap::CommandFactory as _;

    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn bad_values_and_unknown_flags_are_errors() {
        let kind = |args: &[&str]| parse(args).err().map(|e| e.kind());
        assert_eq!(
            kind(&["quick", "--trials", "many"]),
            Some(ErrorKind::ValueValidation)
        );
        assert_eq!(
            kind(&["quick", "--trials", "0"]),
            Some(ErrorKind::ValueValidation)
        );
        assert_eq!(
            kind(&["full", "--max-tests", "many"]),
            Some(ErrorKind::ValueValidation)
        );
        assert_eq!(
            kind(&["quick", "--cap", "soon"]),
            Some(ErrorKind::ValueValidation)
        );
        assert_eq!(
            kind(&["quick", "--strategies", "typefuzz,afl"]),
            Some(ErrorKind::InvalidValue)
        );
        assert_eq!(
            kind(&["quick", "--only", "ifc2"]),
            Some(ErrorKind::InvalidValue)
        );
        assert_eq!(
            kind(&["quick", "--trace-compares"]),
            Some(ErrorKind::UnknownArgument)
        );
        assert_eq!(kind(&["fast"]), Some(ErrorKind::InvalidSubcommand));
        assert_eq!(kind(&["shrink", "ten"]), Some(ErrorKind::ValueValidation));
        assert_eq!(
            kind(&["fixed-work", "trees"]),
            Some(ErrorKind::InvalidValue)
        );
        assert_eq!(
            kind(&["per-test-cost", "1000", "0"]),
            Some(ErrorKind::ValueValidation)
        );
    }

    #[test]
    fn flags_become_typed_values() {
        let Command::Quick(run) = parse(&[
            "quick",
            "--strategies",
            "typefuzz,proptest",
            "--only",
            "IFC",
            "--cap",
            "0.25",
        ])
        .unwrap()
        .command
        else {
            panic!("not quick")
        };
        assert_eq!(
            run.strategies,
            Some(vec![Strategy::Typefuzz, Strategy::Proptest])
        );
        assert_eq!(run.only, [Workload::Ifc]);
        assert_eq!(run.cap, Some(Duration::from_millis(250)));
        assert_eq!(run.trials, None);
    }

    #[test]
    fn the_trial_child_takes_the_request_as_written() {
        let Command::DropinTrial { request } =
            parse(&["dropin-trial", "stlc", "proptest", "none", "p", "7", "10ms"])
                .unwrap()
                .command
        else {
            panic!("not dropin-trial")
        };
        assert_eq!(request, ["stlc", "proptest", "none", "p", "7", "10ms"]);
    }
}
