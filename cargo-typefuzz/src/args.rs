//! The command line of `cargo typefuzz`: typefuzz's own options, split from the arguments that
//! go to `cargo test` unchanged.

use std::ffi::OsString;
use std::fmt;

/// What the user asked for.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    /// `cargo typefuzz test [options] [cargo test arguments]`.
    Test(TestArgs),
    /// `--help`, `-h`, `help`, or no subcommand at all.
    Help,
    /// `--version` / `-V`.
    Version,
}

/// The `test` subcommand.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TestArgs {
    /// `--trace-compares`: also report comparisons with constants (value-profile feedback).
    pub trace_compares: bool,
    /// `-j N` / `--jobs N`: worker processes per property (`TYPEFUZZ_JOBS` for the tests).
    pub jobs: Option<u32>,
    /// Everything else, for `cargo test`, in order (including `-- <test binary args>`).
    pub cargo_args: Vec<OsString>,
    /// The value of `--target` among `cargo_args`, if the user chose a target.
    pub target: Option<String>,
    /// The value of `--target-dir` among `cargo_args`, if given.
    pub target_dir: Option<OsString>,
    /// The value of `--manifest-path` among `cargo_args`, if given.
    pub manifest_path: Option<OsString>,
}

/// A command line we cannot run.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n\n{}", self.0, USAGE)
    }
}

/// Usage text for `--help` and errors.
pub const USAGE: &str = "\
Run tests with SanitizerCoverage instrumentation, so typefuzz properties get code coverage
feedback (stable Rust).

Usage: cargo typefuzz test [--trace-compares] [-j N] [cargo test arguments] [-- test binary arguments]

Options:
      --trace-compares  Also instrument comparisons: distance to constants becomes feedback
                        (helps with magic numbers; slower, rebuilds into its own target dir)
  -j, --jobs <N>        Run each property on N worker processes sharing seeds through its
                        corpus directory (sets TYPEFUZZ_JOBS=N; filter to the property you
                        campaign on; cargo's own build jobs: CARGO_BUILD_JOBS)
  -h, --help            Print this help (see `cargo test --help` for the other arguments)
  -V, --version         Print version

Only the workspace's own crates are instrumented (not dependencies, build scripts or proc
macros), for the host target unless `--target` is given, into `<target-dir>/typefuzz`.
Tip: `cargo typefuzz test -- --test-threads=1` keeps other tests' code out of a property's
coverage.";

/// Parses the arguments after the program name. Cargo runs `cargo-typefuzz typefuzz <args>` for
/// `cargo typefuzz <args>`; running the binary directly (`cargo-typefuzz test ...`) works too.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut args = args.into_iter().peekable();
    if args.peek().is_some_and(|a| a == "typefuzz") {
        args.next();
    }
    let Some(sub) = args.next() else {
        return Ok(Command::Help);
    };
    match sub.to_str() {
        Some("test") => {}
        Some("-h" | "--help" | "help") => return Ok(Command::Help),
        Some("-V" | "--version") => return Ok(Command::Version),
        _ => {
            return Err(UsageError(format!(
                "error: unknown subcommand `{}`; the only subcommand is `test`",
                sub.to_string_lossy()
            )))
        }
    }
    let mut test = TestArgs::default();
    while let Some(arg) = args.next() {
        let Some(text) = arg.to_str().map(str::to_owned) else {
            test.cargo_args.push(arg);
            continue;
        };
        match text.as_str() {
            "--" => {
                // The rest belongs to the test binaries.
                test.cargo_args.push(arg);
                test.cargo_args.extend(args);
                break;
            }
            "--trace-compares" => test.trace_compares = true,
            "-j" | "--jobs" => {
                let value = args.next().ok_or_else(|| {
                    UsageError(format!("error: `{text}` needs a number of workers"))
                })?;
                test.jobs = Some(parse_jobs(&value.to_string_lossy())?);
            }
            _ if text.starts_with("--jobs=") => {
                test.jobs = Some(parse_jobs(&text["--jobs=".len()..])?);
            }
            _ if text.starts_with("-j") => test.jobs = Some(parse_jobs(&text["-j".len()..])?),
            "-h" | "--help" => return Ok(Command::Help),
            _ => {
                test.cargo_args.push(arg);
                let Some((option, inline_value)) = option_with_value(&text) else {
                    continue;
                };
                let value = match inline_value {
                    Some(value) => value,
                    None => {
                        let value = args.next().ok_or_else(|| {
                            UsageError(format!("error: `{}` needs a value", option.name()))
                        })?;
                        test.cargo_args.push(value.clone());
                        value
                    }
                };
                match option {
                    ValuedOption::Target => {
                        test.target = Some(value.to_string_lossy().into_owned());
                    }
                    ValuedOption::TargetDir => test.target_dir = Some(value),
                    ValuedOption::ManifestPath => test.manifest_path = Some(value),
                }
            }
        }
    }
    Ok(Command::Test(test))
}

/// The number of workers of `-j`/`--jobs`: a positive integer.
fn parse_jobs(value: &str) -> Result<u32, UsageError> {
    match value.parse::<u32>() {
        Ok(jobs) if jobs > 0 => Ok(jobs),
        _ => Err(UsageError(format!(
            "error: `--jobs` takes a positive number of workers, not `{value}`"
        ))),
    }
}

/// The `cargo test` options whose value `cargo typefuzz` needs to know.
#[derive(Clone, Copy)]
enum ValuedOption {
    Target,
    TargetDir,
    ManifestPath,
}

impl ValuedOption {
    const ALL: [ValuedOption; 3] = [Self::Target, Self::TargetDir, Self::ManifestPath];

    fn name(self) -> &'static str {
        match self {
            Self::Target => "--target",
            Self::TargetDir => "--target-dir",
            Self::ManifestPath => "--manifest-path",
        }
    }
}

/// Recognizes `--opt` (value in the next argument: `None`) and `--opt=value` (`Some(value)`).
fn option_with_value(arg: &str) -> Option<(ValuedOption, Option<OsString>)> {
    ValuedOption::ALL.into_iter().find_map(|option| {
        let rest = arg.strip_prefix(option.name())?;
        if rest.is_empty() {
            Some((option, None))
        } else {
            Some((option, Some(rest.strip_prefix('=')?.into())))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    fn test_args(args: &[&str]) -> TestArgs {
        match parse(os(args)) {
            Ok(Command::Test(test)) => test,
            other => panic!("expected a test command, got {other:?}"),
        }
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
            test.cargo_args,
            os(&["--release", "-p", "foo", "my_test", "--", "--nocapture"])
        );
        assert!(!test.trace_compares);
        assert_eq!(test.target, None);
    }

    #[test]
    fn takes_trace_compares_out_of_cargo_arguments() {
        let test = test_args(&["typefuzz", "test", "--release", "--trace-compares", "name"]);
        assert!(test.trace_compares);
        assert_eq!(test.cargo_args, os(&["--release", "name"]));
    }

    #[test]
    fn leaves_everything_after_the_separator_to_the_test_binary() {
        let test = test_args(&["test", "--", "--trace-compares", "--help", "--target", "x"]);
        assert!(!test.trace_compares);
        assert_eq!(test.target, None);
        assert_eq!(
            test.cargo_args,
            os(&["--", "--trace-compares", "--help", "--target", "x"])
        );
    }

    #[test]
    fn reads_target_target_dir_and_manifest_path_in_both_spellings() {
        let spaced = test_args(&[
            "test",
            "--target",
            "t",
            "--target-dir",
            "d",
            "--manifest-path",
            "m",
        ]);
        assert_eq!(spaced.target.as_deref(), Some("t"));
        assert_eq!(spaced.target_dir, Some("d".into()));
        assert_eq!(spaced.manifest_path, Some("m".into()));
        assert_eq!(
            spaced.cargo_args,
            os(&["--target", "t", "--target-dir", "d", "--manifest-path", "m"])
        );
        let joined = test_args(&["test", "--target=t", "--target-dir=d", "--manifest-path=m"]);
        assert_eq!(joined.target.as_deref(), Some("t"));
        assert_eq!(joined.target_dir, Some("d".into()));
        assert_eq!(joined.manifest_path, Some("m".into()));
        assert_eq!(
            joined.cargo_args,
            os(&["--target=t", "--target-dir=d", "--manifest-path=m"])
        );
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
            assert_eq!(test.cargo_args, os(&["--release"]), "{args:?}");
        }
        assert_eq!(test_args(&["test"]).jobs, None);
        assert_eq!(test_args(&["test", "--", "-j", "2"]).jobs, None);
        for bad in [
            &["test", "-j", "0"][..],
            &["test", "-jx"],
            &["test", "--jobs"],
        ] {
            let error = parse(os(bad)).unwrap_err();
            assert!(error.0.contains("workers"), "{bad:?}: {error}");
        }
    }

    #[test]
    fn help_version_and_errors() {
        assert_eq!(parse(os(&["typefuzz"])), Ok(Command::Help));
        assert_eq!(parse(os(&[])), Ok(Command::Help));
        assert_eq!(parse(os(&["typefuzz", "--help"])), Ok(Command::Help));
        assert_eq!(parse(os(&["typefuzz", "test", "-h"])), Ok(Command::Help));
        assert_eq!(parse(os(&["typefuzz", "-V"])), Ok(Command::Version));
        let unknown = parse(os(&["typefuzz", "run"])).unwrap_err();
        assert!(unknown.0.contains("unknown subcommand `run`"), "{unknown}");
        let missing = parse(os(&["typefuzz", "test", "--target"])).unwrap_err();
        assert!(missing.0.contains("`--target` needs a value"), "{missing}");
    }
}
