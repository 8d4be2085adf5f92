//! The lines measured with automatic feedback: typefuzz on IFC and the micro targets with code
//! coverage as its only feedback (no hand-placed label), which is what a user of the drop-ins gets.
//!
//! Code coverage needs a SanitizerCoverage build, which `cargo typefuzz test` makes for test
//! binaries only. `quick` and `full` therefore run that build as a child process, through the
//! repository's own subcommand:
//!
//! ```text
//! CARGO_TYPEFUZZ_INSTRUMENT=typefuzz_bench_targets \
//! cargo run --release -p cargo-typefuzz -- typefuzz test [--trace-compares] --release \
//!     --target-dir target/typefuzz-bench[-cmp] -p typefuzz-bench --test sancov \
//!     -- --ignored --nocapture --test-threads=1
//! ```
//!
//! with the runner's arguments in [`ARGS_VAR`] (`tests/sancov.rs` reads them). Only the code
//! under test is instrumented (the `typefuzz-bench-targets` crate: the IFC machine and SSNI, the
//! micro targets), as a user instruments the crate they test: the benchmark crate around it
//! (runner, generators, baselines, charts) would add ~70,000 counters that the engine resets and
//! scans around every property call, never hit by a property, and costing most of the time of a
//! test. The child builds into its own target directory (cargo does not track the selection
//! variable), runs the `sancov` mode and prints its summary lines, which the parent passes on. If
//! the build or the run fails, or the child's build turns out not to be instrumented, the line
//! says so instead of a number.

use std::ffi::OsString;
use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::jobs::Workload;

/// The environment variable that carries the `sancov` mode's arguments into the child test,
/// separated by `\x1f` (as cargo's `CARGO_ENCODED_RUSTFLAGS`, so a path may contain spaces).
pub const ARGS_VAR: &str = "TYPEFUZZ_BENCH_ARGS";

/// The only crate the child instruments (see the module docs).
const INSTRUMENTED_CRATE: &str = "typefuzz_bench_targets";

/// Which instrumented build a child runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Build {
    /// Edge coverage: inline 8-bit counters with AFL hit-count buckets.
    Coverage,
    /// Edge coverage plus comparison tracing (`cargo typefuzz test --trace-compares`).
    Compares,
}

impl Build {
    /// How the summary lines name the feedback of this build.
    ///
    /// With comparison tracing the engine turns comparison operands into value-profile features
    /// (distance to the constant) and substitutes them into the input's typed leaves (typed
    /// CmpLog, `typefuzz_engine::feedback::cmplog`).
    pub(crate) fn feedback_name(self) -> &'static str {
        match self {
            Build::Coverage => "coverage only",
            Build::Compares => "coverage + CmpLog",
        }
    }

    /// The results subdirectory of this build's child run.
    fn out_dir(self) -> &'static str {
        match self {
            Build::Coverage => "coverage-only",
            Build::Compares => "coverage-compares",
        }
    }

    /// The child's target directory, under the workspace's `target/`.
    fn target_dir(self) -> &'static str {
        match self {
            Build::Coverage => "target/typefuzz-bench",
            Build::Compares => "target/typefuzz-bench-cmp",
        }
    }
}

/// What the parent asks of a child run.
pub(crate) struct Request<'a> {
    pub(crate) build: Build,
    pub(crate) workloads: &'a [Workload],
    pub(crate) trials: usize,
    pub(crate) control_trials: Option<usize>,
    /// `--tasks`, passed on.
    pub(crate) tasks: Option<&'a [String]>,
    pub(crate) cap_seconds: f64,
    pub(crate) seed: u64,
    /// The parent's results directory; the child writes into a subdirectory of it.
    pub(crate) out: &'a Path,
}

/// The command line the child runs, as a user would type it.
pub(crate) fn command_line(build: Build) -> String {
    format!(
        "CARGO_TYPEFUZZ_INSTRUMENT={INSTRUMENTED_CRATE} cargo run --release -p cargo-typefuzz -- \
         typefuzz test{} --release --target-dir {} -p typefuzz-bench --test sancov -- --ignored \
         --nocapture --test-threads=1",
        if build == Build::Compares {
            " --trace-compares"
        } else {
            ""
        },
        build.target_dir()
    )
}

/// Builds and runs the instrumented child; returns its summary lines (one per workload), or a
/// line per workload saying why nothing was measured. Also returns the number of control runs
/// the child reported as failing.
pub(crate) fn run(request: &Request) -> (Vec<String>, usize) {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = request.out.join(request.build.out_dir());
    let mut args: Vec<String> = vec![
        "sancov".into(),
        "--strategies".into(),
        "typefuzz-sancov".into(),
    ];
    if request.build == Build::Compares {
        args.push("--trace-compares".into());
    }
    for w in request.workloads {
        args.extend(["--only".into(), w.name().to_lowercase()]);
    }
    args.extend([
        "--trials".into(),
        request.trials.to_string(),
        "--cap".into(),
        request.cap_seconds.to_string(),
        "--seed".into(),
        request.seed.to_string(),
        "--out".into(),
        out.display().to_string(),
    ]);
    if let Some(tasks) = request.tasks {
        args.extend(["--tasks".into(), tasks.join(",")]);
    }
    if let Some(n) = request.control_trials {
        args.extend(["--control-trials".into(), n.to_string()]);
    }
    match super::strategy::MAX_TESTS.load(std::sync::atomic::Ordering::Relaxed) {
        0 => {}
        n => args.extend(["--max-tests".into(), n.to_string()]),
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut command = Command::new(cargo);
    command.current_dir(&workspace).args([
        "run",
        "--release",
        "-q",
        "-p",
        "cargo-typefuzz",
        "--",
        "typefuzz",
        "test",
    ]);
    if request.build == Build::Compares {
        command.arg("--trace-compares");
    }
    command
        .args(["--release", "--target-dir", request.build.target_dir()])
        .args(["-p", "typefuzz-bench", "--test", "sancov", "--"])
        .args([
            "--ignored",
            "--nocapture",
            "--test-threads=1",
            "--exact",
            "sancov_line",
        ])
        .env(ARGS_VAR, args.join("\x1f"))
        .env("CARGO_TYPEFUZZ_INSTRUMENT", INSTRUMENTED_CRATE)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    eprintln!(
        "typefuzz-bench: {} line: building and running `{}`",
        request.build.feedback_name(),
        command_line(request.build)
    );
    let not_measured = |why: &str| -> Vec<String> {
        request
            .workloads
            .iter()
            .map(|w| {
                format!(
                    "{} ({}): typefuzz NOT MEASURED: {why}",
                    w.name(),
                    request.build.feedback_name()
                )
            })
            .collect()
    };
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => return (not_measured(&format!("could not run cargo: {error}")), 0),
    };
    let mut lines = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(summary) = summary_line(&line) {
                lines.push(summary.to_string());
            }
        }
    }
    let status = child.wait();
    let false_alarms = lines.iter().filter(|l| l.contains("FALSE ALARMS")).count();
    if lines.is_empty() {
        let why = match status {
            Ok(status) => format!(
                "the instrumented build or run failed ({status}); run `{}` to see why",
                command_line(request.build)
            ),
            Err(error) => format!("the child process failed: {error}"),
        };
        return (not_measured(&why), 0);
    }
    (lines, false_alarms)
}

/// The summary line (`IFC (...): ...`) in a line of the child's output, if any. The test
/// harness prints `test sancov_line ... ` without a newline before the test runs, so the first
/// summary line arrives behind it.
fn summary_line(line: &str) -> Option<&str> {
    Workload::ALL
        .iter()
        .filter_map(|w| line.find(&format!("{} (", w.name())))
        .min()
        .map(|at| &line[at..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lines_are_recognised() {
        assert_eq!(
            summary_line("IFC (coverage only): typefuzz found 19/20"),
            Some("IFC (coverage only): typefuzz found 19/20")
        );
        assert_eq!(
            summary_line("test sancov_line ... IFC (coverage only): typefuzz found 13/20"),
            Some("IFC (coverage only): typefuzz found 13/20")
        );
        assert!(summary_line("micro (coverage only): typefuzz NOT MEASURED: no build").is_some());
        assert_eq!(summary_line("test sancov_line ... ok"), None);
        assert_eq!(summary_line("running 1 test"), None);
    }

    #[test]
    fn the_documented_command_matches_the_build() {
        assert!(command_line(Build::Compares).contains("--trace-compares"));
        assert!(!command_line(Build::Coverage).contains("--trace-compares"));
    }
}
