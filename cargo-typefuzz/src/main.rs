//! `cargo typefuzz test`: run your tests with code coverage feedback for typefuzz, on stable Rust.
//!
//! ```text
//! cargo install cargo-typefuzz          # or, in the typefuzz repository:
//! cargo typefuzz test [--trace-compares] [cargo test arguments] [-- test binary arguments]
//! cargo run -p cargo-typefuzz -- typefuzz test ...
//! ```
//!
//! It runs `cargo test` with the workspace's own crates compiled with LLVM SanitizerCoverage
//! (inline 8-bit counters, and with `--trace-compares` comparison tracing). typefuzz's engine
//! defines the runtime hooks (`typefuzz::feedback::coverage`), reads the counters after each
//! property call, and keeps inputs that reach new code. Under a plain `cargo test` the same tests
//! run without coverage, and typefuzz says so once on stderr.
//!
//! # What it does
//!
//! - Sets itself as `RUSTC_WORKSPACE_WRAPPER` (chaining to yours if you set one), so only
//!   workspace members are candidates: dependencies are not instrumented (measured: instrumenting
//!   them puts proptest and std generics into 55-67% of the counters and costs x1.36 instead of
//!   x1.18).
//! - Passes `--target <host>` (from `rustc -vV`) unless you gave `--target`: cargo then compiles
//!   build scripts, proc macros and their dependencies without `--target`, and the wrapper leaves
//!   those alone (instrumented, they would fail to link: nothing defines the hooks there).
//! - Never instruments typefuzz's runtime crates (the hooks must not instrument themselves).
//! - Builds into `<target-dir>/typefuzz` (`typefuzz-cmp` with `--trace-compares`) so that
//!   switching between `cargo test` and `cargo typefuzz test` does not rebuild everything.
//! - Compiles, once, a tiny library of no-op hooks and links it *after* everything else into every
//!   target binary (via `-Clink-arg`, and `CARGO_ENCODED_RUSTDOCFLAGS` for doctests): test
//!   binaries and doctests that link instrumented code but not typefuzz then link and run
//!   normally, while in binaries that link typefuzz the engine's hooks are already defined when
//!   the linker reaches that archive, so it is ignored. This replaces your `RUSTDOCFLAGS` by an
//!   equivalent `CARGO_ENCODED_RUSTDOCFLAGS` (so `build.rustdocflags` from `.cargo/config.toml` is
//!   not applied under the subcommand).
//!
//! Coverage counters are process-wide: with `cargo test`'s parallel test threads, other tests'
//! instrumented code can show up as noise in a property's coverage;
//! `cargo typefuzz test -- --test-threads=1` avoids it.
//!
//! # All cores: `-j N`
//!
//! `cargo typefuzz test -j N my_property` (or `TYPEFUZZ_JOBS=N` with any test command) runs each
//! property on N worker processes: the engine re-runs the test binary once per worker, filtered
//! to the one test, each with its own seed, and the workers share the seeds they find through
//! the property's corpus directory (each imports the others' new files about once a second).
//! The first failure stops the others and is reported, shrunk, by the test as usual; the
//! statistics are merged. Combine it with a time budget and a filter, e.g.
//! `TYPEFUZZ_TIME=10m cargo typefuzz test --release -j 2 my_property`: without a filter every
//! test of the run starts its own N workers. Here `-j` means fuzzing workers, not cargo's build
//! jobs (set those with `CARGO_BUILD_JOBS`). Details: `typefuzz::workers`.
//!
//! # More than one machine
//!
//! typefuzz does not distribute a campaign itself. For that, write the property as a cargo-fuzz
//! target with `typefuzz::fuzz_target!` (typefuzz supplies the typed mutator, libFuzzer the
//! rest) and use libFuzzer's and ClusterFuzzLite's machinery:
//!
//! ```text
//! cargo fuzz run my_target -- -fork=8            # 8 processes on one machine, shared corpus
//! cargo fuzz run my_target -- -jobs=8 -workers=8 # 8 independent jobs, shared corpus directory
//! ```
//!
//! and on many machines, [ClusterFuzzLite](https://google.github.io/clusterfuzzlite/) (or
//! OSS-Fuzz) runs the same targets in CI, batch and continuous modes, merging corpora between
//! runs through its storage. Its Rust set-up is three files (then its CI workflow):
//!
//! ```text
//! .clusterfuzzlite/project.yaml   language: rust
//! .clusterfuzzlite/Dockerfile     FROM gcr.io/oss-fuzz-base/base-builder-rust
//!                                 COPY . $SRC/my_project
//!                                 WORKDIR $SRC/my_project
//!                                 COPY .clusterfuzzlite/build.sh $SRC/
//! .clusterfuzzlite/build.sh       cd fuzz && cargo fuzz build -O
//!                                 cp target/x86_64-unknown-linux-gnu/release/my_target $OUT/
//! ```
//!
//! The corpus directory has the same layout either way (one file per
//! input, named by its SHA-1), so `TYPEFUZZ_CORPUS=fuzz/corpus/my_target cargo test my_property`
//! replays what the fuzz farm found, and `fuzz/ci.sh` checks that cargo-fuzz corpora and engine
//! corpora move both ways and that `-fork=2` finds the same bug.
//!
//! # The raw recipe (without the subcommand)
//!
//! ```text
//! RUSTFLAGS="-Cpasses=sancov-module \
//!            -Cllvm-args=-sanitizer-coverage-level=3 \
//!            -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
//!            -Cllvm-args=-sanitizer-coverage-pc-table" \
//! cargo test --target "$(rustc -vV | sed -n 's/^host: //p')" --target-dir target/typefuzz
//! ```
//!
//! `--target` is required (without it `RUSTFLAGS` also reaches build scripts and proc macros,
//! which then fail to link). The PC table is optional: with it the engine leaves the counters of
//! typefuzz's own functions out of the map it resets and scans per test. This instruments every
//! dependency too, typefuzz included, which works but adds noise and cost; do not add `-sanitizer-coverage-trace-compares` this way (the
//! engine's comparison hooks would instrument themselves and recurse). Every binary that links
//! instrumented code must define the hooks: a test binary or doctest of a crate that does not
//! use typefuzz fails to link with undefined `__sanitizer_cov_*` symbols; link typefuzz into it
//! (`#[cfg(test)] use typefuzz as _;`) or skip it (`cargo test --tests`, no doctests).
#![deny(missing_docs)]

mod args;
mod hooks_library;
mod wrapper;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{exit, Command};

use args::TestArgs;

fn main() {
    let mut argv = std::env::args_os().skip(1).collect::<Vec<_>>();
    if let Some(hooks_library) = std::env::var_os(wrapper::HOOKS_LIBRARY_VAR) {
        // Cargo runs us as `cargo-typefuzz <rustc> <args>`; a subcommand invocation inherits
        // the variable when a test itself runs `cargo typefuzz`, so look at the first argument.
        let first = argv.first().and_then(|a| a.to_str());
        if !argv.is_empty() && !matches!(first, Some("typefuzz" | "test")) {
            let rustc = argv.remove(0);
            wrapper::run(rustc, argv, hooks_library);
        }
    }
    match args::parse(argv) {
        Ok(test) => exit(run_tests(test)),
        // Help and version on stdout (exit 0), usage errors on stderr (exit 2).
        Err(error) => error.exit(),
    }
}

/// `cargo typefuzz test`: returns the exit code of `cargo test`.
fn run_tests(test: TestArgs) -> i32 {
    match prepare_and_run(test) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            101
        }
    }
}

fn prepare_and_run(test: TestArgs) -> Result<i32, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let current_dir = std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?;

    let default_target_dir = workspace_target_dir(&cargo, test.manifest_path.as_deref())?;
    let target = match &test.target {
        Some(target) => target.clone(),
        None => host_triple(&rustc)?,
    };
    let target_dir = match &test.target_dir {
        Some(dir) => current_dir.join(dir),
        None => default_target_dir.join(if test.trace_compares {
            "typefuzz-cmp"
        } else {
            "typefuzz"
        }),
    };
    let hooks = hooks_library::build(&rustc, &target, &target_dir)?;

    let mut command = Command::new(&cargo);
    command.arg("test");
    if test.target.is_none() {
        command.args(["--target", &target]);
    }
    if test.target_dir.is_none() {
        command.arg("--target-dir").arg(&target_dir);
    }
    command.args(test.cargo_test_args());
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate cargo-typefuzz: {e}"))?;
    if let Some(inner) = std::env::var_os("RUSTC_WORKSPACE_WRAPPER").filter(|w| !w.is_empty()) {
        command.env(wrapper::INNER_WRAPPER_VAR, inner);
    }
    command
        .env("RUSTC_WORKSPACE_WRAPPER", exe)
        .env(wrapper::HOOKS_LIBRARY_VAR, &hooks)
        .env(
            wrapper::TRACE_COMPARES_VAR,
            if test.trace_compares { "1" } else { "0" },
        )
        .env("CARGO_ENCODED_RUSTDOCFLAGS", rustdoc_flags(&hooks))
        .env_remove("RUSTDOCFLAGS");
    if let Some(jobs) = test.jobs {
        command.env("TYPEFUZZ_JOBS", jobs.to_string());
    }
    eprintln!(
        "cargo-typefuzz: coverage-instrumented tests for {target}{} in {}",
        if test.trace_compares {
            " (with trace-compares)"
        } else {
            ""
        },
        target_dir.display()
    );
    let status = command
        .status()
        .map_err(|e| format!("could not run `{}`: {e}", cargo.to_string_lossy()))?;
    Ok(status.code().unwrap_or(101))
}

/// The user's rustdoc flags plus the hooks library, in cargo's `\x1f`-separated encoding (which
/// keeps a path with spaces in one argument).
fn rustdoc_flags(hooks: &Path) -> OsString {
    let mut flags: Vec<OsString> = match std::env::var_os("CARGO_ENCODED_RUSTDOCFLAGS") {
        Some(encoded) if !encoded.is_empty() => encoded
            .to_string_lossy()
            .split('\x1f')
            .map(OsString::from)
            .collect(),
        _ => std::env::var("RUSTDOCFLAGS")
            .unwrap_or_default()
            .split_whitespace()
            .map(OsString::from)
            .collect(),
    };
    let mut link = OsString::from("-Clink-arg=");
    link.push(hooks);
    flags.push(link);
    flags.join(OsString::from("\x1f").as_os_str())
}

/// The workspace's target directory, from `cargo metadata` (which also honours
/// `CARGO_TARGET_DIR` and `build.target-dir`).
fn workspace_target_dir(
    cargo: &OsString,
    manifest_path: Option<&std::ffi::OsStr>,
) -> Result<PathBuf, String> {
    let mut command = Command::new(cargo);
    command.args(["metadata", "--no-deps", "--format-version", "1"]);
    if let Some(path) = manifest_path {
        command.arg("--manifest-path").arg(path);
    }
    let output = command
        .output()
        .map_err(|e| format!("could not run `{} metadata`: {e}", cargo.to_string_lossy()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(if stderr.contains("could not find `Cargo.toml`") {
            "`cargo typefuzz test` must run inside a Cargo project: no `Cargo.toml` in this \
             directory or its parents (cd into your project or pass `--manifest-path`)"
                .to_owned()
        } else {
            format!("`cargo metadata` failed:\n{}", stderr.trim_end())
        });
    }
    target_directory(&output.stdout)
}

/// The host triple, from `rustc -vV`.
fn host_triple(rustc: &OsString) -> Result<String, String> {
    let output = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("could not run `{} -vV`: {e}", rustc.to_string_lossy()))?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(|host| host.trim().to_owned())
        .ok_or_else(|| format!("`{} -vV` printed no host triple", rustc.to_string_lossy()))
}

/// The `target_directory` of `cargo metadata`'s JSON output: the top-level field, never a
/// field of the same name elsewhere (a package's `[package.metadata]` table may hold one).
fn target_directory(metadata: &[u8]) -> Result<PathBuf, String> {
    let metadata: serde_json::Value = serde_json::from_slice(metadata)
        .map_err(|e| format!("`cargo metadata` printed no JSON: {e}"))?;
    match metadata.get("target_directory") {
        Some(serde_json::Value::String(dir)) => Ok(PathBuf::from(dir)),
        _ => Err("`cargo metadata` printed no `target_directory`".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_top_level_target_directory_not_a_package_metadata_key() {
        // `[package.metadata] target_directory = "/decoy"` comes first in the output.
        let json = br#"{"packages":[{"name":"p","metadata":{"target_directory":"/decoy"}}],
            "target_directory":"C:\\work\\my \"proj\"\/target","version":1}"#;
        assert_eq!(
            target_directory(json),
            Ok(PathBuf::from(r#"C:\work\my "proj"/target"#))
        );
        let missing = target_directory(br#"{"packages":[{"target_directory":"/decoy"}]}"#);
        assert_eq!(
            missing,
            Err("`cargo metadata` printed no `target_directory`".to_owned())
        );
        let garbage = target_directory(b"warning: something").unwrap_err();
        assert!(garbage.contains("printed no JSON"), "{garbage}");
    }

    /// Through a real `cargo metadata`, on a project whose `[package.metadata]` table holds a
    /// `target_directory` key (printed before the real one).
    #[test]
    fn a_package_metadata_key_does_not_shadow_the_target_directory() {
        let project = std::env::temp_dir().join(format!(
            "cargo-typefuzz-metadata-decoy-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(project.join("src")).unwrap();
        std::fs::write(
            project.join("Cargo.toml"),
            "[package]\nname = \"decoy\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [package.metadata]\ntarget_directory = \"/decoy\"\n\n[workspace]\n",
        )
        .unwrap();
        std::fs::write(project.join("src/lib.rs"), "").unwrap();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let manifest = project.join("Cargo.toml");
        let found = workspace_target_dir(&cargo, Some(manifest.as_os_str()));
        std::fs::remove_dir_all(&project).unwrap();
        let found = found.unwrap();
        assert_ne!(found, PathBuf::from("/decoy"));
        assert!(found.ends_with("target"), "{}", found.display());
    }
}
