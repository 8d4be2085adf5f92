//! The command line of `cargo typefuzz` (clap): typefuzz's own options and `cargo test`'s, which
//! go to `cargo test` as given. `cargo test`'s options are declared here, as cargo-nextest does,
//! so that a misspelt or unknown option is an error with a suggestion before anything is built,
//! and typefuzz's options may come anywhere among them.

use std::ffi::OsString;

use clap::{Args, Parser, Subcommand};

/// The usage line of `cargo typefuzz test`.
const USAGE: &str = "cargo typefuzz test [--trace-compares] [-j N] [cargo test arguments] \
                     [-- test binary arguments]";

/// What `cargo typefuzz --help` adds after the options.
const AFTER_HELP: &str = "\
The other options are `cargo test`'s, passed on as given (see `cargo test --help`), except
`-j`/`--jobs`: cargo's build jobs are set with CARGO_BUILD_JOBS.

Only the workspace's own crates are instrumented (not dependencies, build scripts or proc
macros), for the host target unless `--target` is given, into `<target-dir>/typefuzz`.
Tip: `cargo typefuzz test -- --test-threads=1` keeps other tests' code out of a property's
coverage.";

/// `cargo typefuzz`.
#[derive(Debug, Parser)]
#[command(
    name = "cargo-typefuzz",
    bin_name = "cargo typefuzz",
    version,
    about = "Run tests with SanitizerCoverage instrumentation, so typefuzz properties get code \
             coverage feedback (stable Rust).",
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Run `cargo test` with the workspace's crates instrumented for coverage.
    #[command(override_usage = USAGE, after_help = AFTER_HELP)]
    Test(TestArgs),
}

/// The `test` subcommand.
#[derive(Debug, Default, PartialEq, Eq, Args)]
pub struct TestArgs {
    /// Also instrument comparisons: distance to constants becomes feedback (helps with magic
    /// numbers; slower, rebuilds into its own target directory).
    #[arg(long)]
    pub trace_compares: bool,
    /// Run each property on N worker processes sharing seeds through its corpus directory (sets
    /// TYPEFUZZ_JOBS=N; filter to the property you campaign on). Not cargo's build jobs: set
    /// those with CARGO_BUILD_JOBS.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
    /// Build for this target triple (passed to `cargo test`; default: the host).
    #[arg(long, value_name = "TRIPLE")]
    pub target: Option<String>,
    /// Directory for all generated artifacts (passed to `cargo test`; default:
    /// `<workspace target dir>/typefuzz`).
    #[arg(long, value_name = "DIRECTORY")]
    pub target_dir: Option<OsString>,
    /// Path to Cargo.toml (passed to `cargo test`).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<OsString>,
    /// `cargo test`'s other options.
    #[command(flatten)]
    pub cargo: CargoTestOptions,
    /// If given, only run tests containing this string in their names.
    #[arg(value_name = "TESTNAME")]
    pub test_name: Option<OsString>,
    /// Arguments for the test binaries, after `--`.
    #[arg(last = true, value_name = "TEST BINARY ARGUMENTS")]
    pub test_binary_args: Vec<OsString>,
}

impl TestArgs {
    /// The arguments for `cargo test`: the ones the subcommand read that cargo needs too, the
    /// others in order, then `--` and the test binaries' arguments.
    pub fn cargo_test_args(&self) -> Vec<OsString> {
        let mut args = Vec::new();
        if let Some(target) = &self.target {
            args.push("--target".into());
            args.push(target.into());
        }
        if let Some(dir) = &self.target_dir {
            args.push("--target-dir".into());
            args.push(dir.clone());
        }
        if let Some(path) = &self.manifest_path {
            args.push("--manifest-path".into());
            args.push(path.clone());
        }
        self.cargo.push_args(&mut args);
        args.extend(self.test_name.iter().cloned());
        if !self.test_binary_args.is_empty() {
            args.push("--".into());
            args.extend(self.test_binary_args.iter().cloned());
        }
        args
    }
}

/// `cargo test`'s options other than those [`TestArgs`] reads itself (cargo 1.95's list), passed
/// on as given.
#[derive(Debug, Default, PartialEq, Eq, Args)]
pub struct CargoTestOptions {
    /// Compile, but don't run tests.
    #[arg(long, help_heading = "cargo test")]
    no_run: bool,
    /// Run all tests regardless of failure.
    #[arg(long, help_heading = "cargo test")]
    no_fail_fast: bool,
    /// Outputs a future incompatibility report at the end of the build.
    #[arg(long, help_heading = "cargo test")]
    future_incompat_report: bool,
    /// Error format.
    #[arg(long, value_name = "FMT", help_heading = "cargo test")]
    message_format: Vec<String>,
    /// Display one character per test instead of one line.
    #[arg(short, long, help_heading = "cargo test")]
    quiet: bool,
    /// Use verbose output (-vv very verbose/build.rs output).
    #[arg(short, long, action = clap::ArgAction::Count, help_heading = "cargo test")]
    verbose: u8,
    /// Coloring: auto, always, never.
    #[arg(long, value_name = "WHEN", help_heading = "cargo test")]
    color: Option<String>,
    /// Override a configuration value.
    #[arg(long, value_name = "KEY=VALUE|PATH", help_heading = "cargo test")]
    config: Vec<String>,
    /// Unstable (nightly-only) flags to Cargo.
    #[arg(short = 'Z', value_name = "FLAG", help_heading = "cargo test")]
    unstable: Vec<String>,
    /// Package to run tests for.
    #[arg(short, long, value_name = "SPEC", help_heading = "Package Selection")]
    package: Vec<String>,
    /// Test all packages in the workspace.
    #[arg(long, help_heading = "Package Selection")]
    workspace: bool,
    /// Exclude packages from the test.
    #[arg(long, value_name = "SPEC", help_heading = "Package Selection")]
    exclude: Vec<String>,
    /// Alias for --workspace (deprecated).
    #[arg(long, help_heading = "Package Selection")]
    all: bool,
    /// Test only this package's library.
    #[arg(long, help_heading = "Target Selection")]
    lib: bool,
    /// Test all binaries.
    #[arg(long, help_heading = "Target Selection")]
    bins: bool,
    /// Test only the specified binary.
    #[arg(long, value_name = "NAME", num_args = 0..=1, help_heading = "Target Selection")]
    bin: Option<Vec<String>>,
    /// Test all examples.
    #[arg(long, help_heading = "Target Selection")]
    examples: bool,
    /// Test only the specified example.
    #[arg(long, value_name = "NAME", num_args = 0..=1, help_heading = "Target Selection")]
    example: Option<Vec<String>>,
    /// Test all targets that have `test = true` set.
    #[arg(long, help_heading = "Target Selection")]
    tests: bool,
    /// Test only the specified test target.
    #[arg(long, value_name = "NAME", num_args = 0..=1, help_heading = "Target Selection")]
    test: Option<Vec<String>>,
    /// Test all targets that have `bench = true` set.
    #[arg(long, help_heading = "Target Selection")]
    benches: bool,
    /// Test only the specified bench target.
    #[arg(long, value_name = "NAME", num_args = 0..=1, help_heading = "Target Selection")]
    bench: Option<Vec<String>>,
    /// Test all targets (does not include doctests).
    #[arg(long, help_heading = "Target Selection")]
    all_targets: bool,
    /// Test only this library's documentation.
    #[arg(long, help_heading = "Target Selection")]
    doc: bool,
    /// Space or comma separated list of features to activate.
    #[arg(
        short = 'F',
        long,
        value_name = "FEATURES",
        help_heading = "Feature Selection"
    )]
    features: Vec<String>,
    /// Activate all available features.
    #[arg(long, help_heading = "Feature Selection")]
    all_features: bool,
    /// Do not activate the `default` feature.
    #[arg(long, help_heading = "Feature Selection")]
    no_default_features: bool,
    /// Build artifacts in release mode, with optimizations.
    #[arg(short, long, help_heading = "Compilation Options")]
    release: bool,
    /// Build artifacts with the specified profile.
    #[arg(
        long,
        value_name = "PROFILE-NAME",
        help_heading = "Compilation Options"
    )]
    profile: Option<String>,
    /// Output build graph in JSON (unstable).
    #[arg(long, help_heading = "Compilation Options")]
    unit_graph: bool,
    /// Output a build timing report at the end of the build.
    #[arg(long, help_heading = "Compilation Options")]
    timings: bool,
    /// Ignore `rust-version` specification in packages.
    #[arg(long, help_heading = "Manifest Options")]
    ignore_rust_version: bool,
    /// Assert that `Cargo.lock` will remain unchanged.
    #[arg(long, help_heading = "Manifest Options")]
    locked: bool,
    /// Run without accessing the network.
    #[arg(long, help_heading = "Manifest Options")]
    offline: bool,
    /// Equivalent to specifying both --locked and --offline.
    #[arg(long, help_heading = "Manifest Options")]
    frozen: bool,
}

impl CargoTestOptions {
    /// Appends the options as `cargo test` spells them.
    fn push_args(&self, args: &mut Vec<OsString>) {
        let flags = [
            (self.no_run, "--no-run"),
            (self.no_fail_fast, "--no-fail-fast"),
            (self.future_incompat_report, "--future-incompat-report"),
            (self.quiet, "--quiet"),
            (self.workspace, "--workspace"),
            (self.all, "--all"),
            (self.lib, "--lib"),
            (self.bins, "--bins"),
            (self.examples, "--examples"),
            (self.tests, "--tests"),
            (self.benches, "--benches"),
            (self.all_targets, "--all-targets"),
            (self.doc, "--doc"),
            (self.all_features, "--all-features"),
            (self.no_default_features, "--no-default-features"),
            (self.release, "--release"),
            (self.unit_graph, "--unit-graph"),
            (self.timings, "--timings"),
            (self.ignore_rust_version, "--ignore-rust-version"),
            (self.locked, "--locked"),
            (self.offline, "--offline"),
            (self.frozen, "--frozen"),
        ];
        args.extend(flags.iter().filter(|(on, _)| *on).map(|(_, f)| f.into()));
        args.extend((0..self.verbose).map(|_| "--verbose".into()));
        let valued = [
            ("--message-format", &self.message_format),
            ("--config", &self.config),
            ("-Z", &self.unstable),
            ("--package", &self.package),
            ("--exclude", &self.exclude),
            ("--features", &self.features),
        ];
        let single = [("--color", &self.color), ("--profile", &self.profile)];
        let values = valued
            .iter()
            .flat_map(|(name, values)| values.iter().map(move |v| (*name, v)))
            .chain(
                single
                    .iter()
                    .filter_map(|(name, v)| Some((*name, v.as_ref()?))),
            );
        for (name, value) in values {
            args.push(name.into());
            args.push(value.into());
        }
        let optional = [
            ("--bin", &self.bin),
            ("--example", &self.example),
            ("--test", &self.test),
            ("--bench", &self.bench),
        ];
        for (name, values) in optional {
            match values.as_deref() {
                None => {}
                // Without a name cargo lists the targets there are.
                Some([]) => args.push(name.into()),
                Some(names) => {
                    for value in names {
                        args.push(name.into());
                        args.push(value.into());
                    }
                }
            }
        }
    }
}

/// Parses the arguments after the program name. Cargo runs `cargo-typefuzz typefuzz <args>` for
/// `cargo typefuzz <args>`; running the binary directly (`cargo-typefuzz test ...`) works too.
/// `--help`, `--version` and usage errors come back as clap errors, to print with
/// [`clap::Error::exit`].
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<TestArgs, clap::Error> {
    let mut args = args.into_iter().peekable();
    if args.peek().is_some_and(|a| a == "typefuzz") {
        args.next();
    }
    let program = std::iter::once(OsString::from("cargo-typefuzz"));
    let Cli {
        command: Command::Test(test),
    } = Cli::try_parse_from(program.chain(args))?;
    Ok(test)
}

#[cfg(test)]
mod tests {
    use clap::error::ErrorKind;

    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    fn test_args(args: &[&str]) -> TestArgs {
        parse(os(args)).unwrap_or_else(|error| panic!("{args:?}: {error}"))
    }

    fn error(args: &[&str]) -> clap::Error {
        match parse(os(args)) {
            Ok(test) => panic!("{args:?} parsed as {test:?}"),
            Err(error) => error,
        }
    }

    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn cargo_invocation_and_direct_invocation_agree() {
        assert_eq!(
            test_args(&["typefuzz", "test", "--release"]),
            test_args(&["test", "--release"])
        );
    }

    #[test]
    fn passes_cargo_arguments_through_in_order() {
        let test = test_args(&[
            "typefuzz",
            "test",
            "--release",
            "-p",
            "foo",
            "my_test",
            "--",
            "--nocapture",
        ]);
        assert_eq!(
            test.cargo_test_args(),
            os(&[
                "--release",
                "--package",
                "foo",
                "my_test",
                "--",
                "--nocapture"
            ])
        );
        assert!(!test.trace_compares);
        assert_eq!(test.target, None);
    }

    #[test]
    fn takes_typefuzz_options_out_of_cargo_arguments_wherever_they_are() {
        let test = test_args(&["typefuzz", "test", "--release", "--trace-compares", "name"]);
        assert!(test.trace_compares);
        assert_eq!(test.cargo_test_args(), os(&["--release", "name"]));
        let test = test_args(&["test", "--features", "x", "-j", "2", "--target", "t", "f"]);
        assert_eq!((test.jobs, test.target.as_deref()), (Some(2), Some("t")));
        assert_eq!(
            test.cargo_test_args(),
            os(&["--target", "t", "--features", "x", "f"])
        );
    }

    #[test]
    fn leaves_everything_after_the_separator_to_the_test_binary() {
        let test = test_args(&["test", "--", "--trace-compares", "--help", "--target", "x"]);
        assert!(!test.trace_compares);
        assert_eq!(test.target, None);
        assert_eq!(
            test.cargo_test_args(),
            os(&["--", "--trace-compares", "--help", "--target", "x"])
        );
    }

    #[test]
    fn reads_target_target_dir_and_manifest_path_in_both_spellings() {
        for args in [
            &[
                "test",
                "--target",
                "t",
                "--target-dir",
                "d",
                "--manifest-path",
                "m",
            ][..],
            &["test", "--target=t", "--target-dir=d", "--manifest-path=m"],
        ] {
            let test = test_args(args);
            assert_eq!(test.target.as_deref(), Some("t"));
            assert_eq!(test.target_dir, Some("d".into()));
            assert_eq!(test.manifest_path, Some("m".into()));
            assert_eq!(
                test.cargo_test_args(),
                os(&["--target", "t", "--target-dir", "d", "--manifest-path", "m"])
            );
        }
    }

    #[test]
    fn jobs_in_every_spelling_become_typefuzz_jobs_not_cargo_build_jobs() {
        for args in [
            &["test", "-j", "3", "--release"][..],
            &["test", "-j3", "--release"],
            &["test", "--jobs", "3", "--release"],
            &["test", "--jobs=3", "--release"],
        ] {
            let test = test_args(args);
            assert_eq!(test.jobs, Some(3), "{args:?}");
            assert_eq!(test.cargo_test_args(), os(&["--release"]), "{args:?}");
        }
        assert_eq!(test_args(&["test"]).jobs, None);
        assert_eq!(test_args(&["test", "--", "-j", "2"]).jobs, None);
    }

    #[test]
    fn unparsable_values_are_errors_not_defaults() {
        for (bad, kind) in [
            (&["test", "-j", "0"][..], ErrorKind::ValueValidation),
            (&["test", "-jx"], ErrorKind::ValueValidation),
            (&["test", "--jobs", "-1"], ErrorKind::UnknownArgument),
            (&["test", "--jobs"], ErrorKind::InvalidValue),
            (&["test", "--target"], ErrorKind::InvalidValue),
            (&["test", "--trace-compares=yes"], ErrorKind::TooManyValues),
            (
                &["test", "--trace-compares", "--trace-compares"],
                ErrorKind::ArgumentConflict,
            ),
        ] {
            assert_eq!(error(bad).kind(), kind, "{bad:?}: {}", error(bad));
        }
        let message = error(&["test", "-j", "0"]).to_string();
        assert!(
            message.contains("'0'") && message.contains("--jobs"),
            "{message}"
        );
    }

    #[test]
    fn every_cargo_test_option_is_passed_on() {
        let given = [
            "--no-run",
            "--no-fail-fast",
            "--future-incompat-report",
            "--quiet",
            "--workspace",
            "--all",
            "--lib",
            "--bins",
            "--examples",
            "--tests",
            "--benches",
            "--all-targets",
            "--doc",
            "--all-features",
            "--no-default-features",
            "--release",
            "--unit-graph",
            "--timings",
            "--ignore-rust-version",
            "--locked",
            "--offline",
            "--frozen",
            "--verbose",
            "--verbose",
            "--message-format",
            "json",
            "--config",
            "k=v",
            "-Z",
            "flag",
            "--package",
            "a",
            "--package",
            "b",
            "--exclude",
            "c",
            "--features",
            "f",
            "--color",
            "never",
            "--profile",
            "p",
            "--bin",
            "--example",
            "e",
            "--test",
            "t1",
            "--test",
            "t2",
            "--bench",
            "be",
            "filter",
        ];
        let mut args = vec!["test"];
        args.extend(given);
        assert_eq!(test_args(&args).cargo_test_args(), os(&given));
        let short = test_args(&["test", "-qvv", "-r", "-p", "a", "-F", "f", "-Zx"]);
        assert_eq!(
            short.cargo_test_args(),
            os(&[
                "--quiet",
                "--release",
                "--verbose",
                "--verbose",
                "-Z",
                "x",
                "--package",
                "a",
                "--features",
                "f"
            ])
        );
    }

    #[test]
    fn unknown_options_are_errors_with_a_suggestion() {
        let misspelt = error(&["test", "--relase"]);
        assert_eq!(misspelt.kind(), ErrorKind::UnknownArgument);
        assert!(misspelt.to_string().contains("--release"), "{misspelt}");
        let unknown = error(&["test", "--frobnicate", "name"]);
        assert_eq!(unknown.kind(), ErrorKind::UnknownArgument);
        assert_eq!(
            error(&["test", "a", "b"]).kind(),
            ErrorKind::UnknownArgument
        );
    }

    #[test]
    fn unknown_subcommands_are_errors_and_help_and_version_are_answers() {
        assert_eq!(
            error(&["typefuzz", "run"]).kind(),
            ErrorKind::InvalidSubcommand
        );
        assert_eq!(
            error(&["typefuzz"]).kind(),
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        );
        assert_eq!(
            error(&[]).kind(),
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        );
        assert_eq!(
            error(&["typefuzz", "--help"]).kind(),
            ErrorKind::DisplayHelp
        );
        let help = error(&["typefuzz", "test", "-h"]);
        assert_eq!(help.kind(), ErrorKind::DisplayHelp);
        assert!(help.to_string().contains(USAGE), "{help}");
        assert_eq!(error(&["typefuzz", "-V"]).kind(), ErrorKind::DisplayVersion);
    }
}
