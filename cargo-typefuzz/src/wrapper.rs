//! Wrapper mode: cargo runs this binary as `RUSTC_WORKSPACE_WRAPPER`, i.e. for every rustc
//! invocation of a workspace member, as `cargo-typefuzz <rustc> <rustc arguments>`. Here we
//! decide per invocation whether to add the SanitizerCoverage flags, then run rustc.

use std::ffi::{OsStr, OsString};
use std::process::Command;

/// Set by the subcommand for the wrappers it spawns: the path of the no-op hooks library.
pub const HOOKS_LIBRARY_VAR: &str = "__CARGO_TYPEFUZZ_HOOKS_LIBRARY";
/// Set to `1` by the subcommand when `--trace-compares` was given.
pub const TRACE_COMPARES_VAR: &str = "__CARGO_TYPEFUZZ_TRACE_COMPARES";
/// A `RUSTC_WORKSPACE_WRAPPER` the user had set, which we run in turn.
pub const INNER_WRAPPER_VAR: &str = "__CARGO_TYPEFUZZ_INNER_WRAPPER";

/// The crates of typefuzz's own runtime. The coverage hooks live in the engine, so instrumenting
/// it would make hooks call hooks (and the type model's comparisons would feed them); and coverage of the engine's own work is noise for the user's
/// property. (They only go through the wrapper when they are workspace members, i.e. when
/// typefuzz tests itself.)
pub const RUNTIME_CRATES: [&str; 7] = [
    "typefuzz",
    "typefuzz_core",
    "typefuzz_engine",
    "typefuzz_derive",
    "typefuzz_proptest",
    "typefuzz_quickcheck",
    "typefuzz_libfuzzer",
];

/// Set by the user to a comma-separated list of crate names (`my_crate,other_crate`, as rustc
/// spells them: `-` becomes `_`) to instrument only those workspace crates: the counters of the
/// others are not reset and scanned around every property call. Unset or empty: every workspace
/// crate but typefuzz's runtime. Cargo does not track the variable; use a separate
/// `--target-dir` per setting, or the crates built before keep their instrumentation.
pub const INSTRUMENT_VAR: &str = "CARGO_TYPEFUZZ_INSTRUMENT";

/// Whether `crate_name` is among the crates `selection` (the value of [`INSTRUMENT_VAR`]) names;
/// `None` or an empty list selects every crate.
pub fn selected(crate_name: &str, selection: Option<&str>) -> bool {
    match selection.map(str::trim).filter(|s| !s.is_empty()) {
        None => true,
        Some(list) => list
            .split(',')
            .any(|name| name.trim().replace('-', "_") == crate_name),
    }
}

/// The flags that turn on inline 8-bit counters (rustc 1.95 stable, LLVM 22), with the PC
/// table and v0 symbol names that tell the engine which function each counter belongs to: it
/// leaves typefuzz's own generic code, and std code instantiated for it (v0 names carry the
/// generic arguments), out of the map it scans per test.
pub const COVERAGE_FLAGS: [&str; 5] = [
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=3",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Csymbol-mangling-version=v0",
];
/// Added with `--trace-compares`.
pub const TRACE_COMPARES_FLAG: &str = "-Cllvm-args=-sanitizer-coverage-trace-compares";

/// What to do with one rustc invocation.
#[derive(Debug, PartialEq, Eq)]
pub struct Plan {
    /// Add the coverage flags.
    pub instrument: bool,
    /// Link the no-op hooks library (harmless where nothing is linked).
    pub link_hooks: bool,
}

/// Decides from rustc's arguments. Instrument only code compiled for the target (`--target` is
/// present: cargo passes it to target units only when `cargo test` got `--target`, which the
/// subcommand ensures), and never build scripts, proc macros or typefuzz's runtime: build
/// scripts and proc macros run inside the build, where nothing defines the hooks. Every target
/// unit gets the hooks library, even when not instrumented itself, because it may link
/// instrumented workspace libraries.
pub fn plan(args: &[OsString]) -> Plan {
    let value_of = |name: &str| -> Vec<&str> {
        let mut values = Vec::new();
        let mut iter = args.iter().filter_map(|a| a.to_str());
        while let Some(arg) = iter.next() {
            if arg == name {
                values.extend(iter.next());
            } else if let Some(value) = arg.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
                values.push(value);
            }
        }
        values
    };
    let crate_name = value_of("--crate-name")
        .first()
        .copied()
        .unwrap_or_default()
        .to_owned();
    let for_target = !value_of("--target").is_empty();
    let querying = args
        .iter()
        .any(|a| a == "--print" || a.to_str().is_some_and(|a| a.starts_with("--print=")));
    let proc_macro = value_of("--crate-type").contains(&"proc-macro");
    let build_script = crate_name.starts_with("build_script_");
    let compiles_target_code = for_target && !querying && !proc_macro && !build_script;
    Plan {
        instrument: compiles_target_code && !RUNTIME_CRATES.contains(&crate_name.as_str()),
        link_hooks: compiles_target_code,
    }
}

/// Runs rustc (through the user's own workspace wrapper, if any) with the flags of [`plan`], and
/// exits with its status.
pub fn run(rustc: OsString, args: Vec<OsString>, hooks_library: OsString) -> ! {
    let mut plan = plan(&args);
    if plan.instrument {
        let selection = std::env::var(INSTRUMENT_VAR).ok();
        plan.instrument = selected(&crate_name(&args), selection.as_deref());
    }
    let mut command = match std::env::var_os(INNER_WRAPPER_VAR).filter(|w| !w.is_empty()) {
        Some(inner) => {
            let mut command = Command::new(inner);
            command.arg(rustc);
            command
        }
        None => Command::new(rustc),
    };
    command.args(&args);
    if plan.instrument {
        command.args(COVERAGE_FLAGS);
        if std::env::var_os(TRACE_COMPARES_VAR).is_some_and(|v| v == "1") {
            command.arg(TRACE_COMPARES_FLAG);
        }
    }
    if plan.link_hooks {
        let mut flag = OsString::from("-Clink-arg=");
        flag.push(&hooks_library);
        command.arg(flag);
    }
    exec(command)
}

/// Replaces this process by `command` (Unix) or runs it and forwards its exit status.
fn exec(mut command: Command) -> ! {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let error = command.exec();
        fail(command.get_program(), error)
    }
    #[cfg(not(unix))]
    {
        match command.status() {
            Ok(status) => std::process::exit(status.code().unwrap_or(101)),
            Err(error) => fail(command.get_program(), error),
        }
    }
}

/// The value of `--crate-name` in rustc's arguments (empty if absent).
fn crate_name(args: &[OsString]) -> String {
    args.iter()
        .position(|a| a == "--crate-name")
        .and_then(|i| args.get(i + 1))
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn fail(program: &OsStr, error: std::io::Error) -> ! {
    eprintln!(
        "error: cargo-typefuzz could not run `{}`: {error}",
        program.to_string_lossy()
    );
    std::process::exit(101)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_of(args: &str) -> Plan {
        plan(
            &args
                .split_whitespace()
                .map(OsString::from)
                .collect::<Vec<_>>(),
        )
    }

    const TARGET: &str = "--target x86_64-unknown-linux-gnu";

    #[test]
    fn instruments_member_libraries_tests_and_binaries_for_the_target() {
        for unit in [
            "--crate-name fixture --edition=2021 src/lib.rs --crate-type lib",
            "--crate-name fixture --edition=2021 src/lib.rs --test",
            "--crate-name it --edition=2021 tests/it.rs --test",
            "--crate-name app --edition=2021 src/main.rs --crate-type bin",
        ] {
            let expected = Plan {
                instrument: true,
                link_hooks: true,
            };
            assert_eq!(plan_of(&format!("{unit} {TARGET}")), expected, "{unit}");
            assert_eq!(
                plan_of(&format!("{unit} --target=x86_64-unknown-linux-gnu")),
                expected
            );
        }
    }

    #[test]
    fn leaves_host_code_alone() {
        let nothing = Plan {
            instrument: false,
            link_hooks: false,
        };
        // Without `--target`, cargo is compiling for the host (build script dependencies).
        assert_eq!(
            plan_of("--crate-name fixture src/lib.rs --crate-type lib"),
            nothing
        );
        assert_eq!(
            plan_of(&format!(
                "--crate-name build_script_build build.rs --crate-type bin {TARGET}"
            )),
            nothing
        );
        assert_eq!(
            plan_of(&format!(
                "--crate-name my_macros src/lib.rs --crate-type proc-macro {TARGET}"
            )),
            nothing
        );
        assert_eq!(
            plan_of(&format!("- --crate-name ___ --print=file-names {TARGET}")),
            nothing
        );
    }

    #[test]
    fn the_instrument_variable_selects_crates_by_rustc_name() {
        assert!(selected("anything", None));
        assert!(selected("anything", Some(" ")));
        assert!(selected("bench_targets", Some("other, bench-targets")));
        assert!(!selected("bench", Some("bench_targets")));
        let args: Vec<OsString> = ["--crate-name", "my_crate", "src/lib.rs"]
            .iter()
            .map(OsString::from)
            .collect();
        assert_eq!(crate_name(&args), "my_crate");
        assert_eq!(crate_name(&[]), "");
    }

    #[test]
    fn never_instruments_typefuzz_itself_but_still_links_the_hooks() {
        for name in RUNTIME_CRATES {
            let plan = plan_of(&format!("--crate-name {name} src/lib.rs --test {TARGET}"));
            assert_eq!(
                plan,
                Plan {
                    instrument: false,
                    link_hooks: true
                },
                "{name}"
            );
        }
    }
}
