//! The SanitizerCoverage line of the benchmark. Code coverage needs an instrumented build, which
//! `cargo typefuzz` makes for tests only, so this line runs as an ignored test:
//!
//! ```text
//! CARGO_TYPEFUZZ_INSTRUMENT=typefuzz_bench_targets cargo run --release -p cargo-typefuzz -- \
//!     typefuzz test --release --target-dir target/typefuzz-bench -p typefuzz-bench \
//!     --test sancov -- --ignored --nocapture --test-threads=1
//! ```
//!
//! (`CARGO_TYPEFUZZ_INSTRUMENT` instruments only the code under test; without it the whole
//! benchmark crate is instrumented, which is slower but measures the same code.)
//!
//! It runs the `sancov` mode (typefuzz with coverage as the only feedback, next to the default
//! with labels) on the IFC machine and the micro targets and writes `bench/results/sancov/`.
//! `quick` and `full` run this test themselves as a child process, with their own arguments in
//! `TYPEFUZZ_BENCH_ARGS` (`\x1f`-separated).
//! Under a plain `cargo test -- --ignored` the build is not instrumented and the sancov line has
//! no feedback at all; the report's `coverage_points` column (0) shows it.

#[test]
#[ignore = "needs `cargo typefuzz test` for an instrumented build; see the file's docs"]
fn sancov_line() {
    // cargo runs a test in its package's directory (`bench/`); the paths in the arguments, like
    // the command lines the reports record, are the workspace root's.
    std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .expect("the workspace root exists");
    // `quick` and `full` pass their arguments (see `typefuzz_bench::runner::ARGS_VAR`).
    let args: Vec<String> = match std::env::var(typefuzz_bench::runner::ARGS_VAR) {
        Ok(encoded) => encoded.split('\x1f').map(str::to_string).collect(),
        Err(_) => ["sancov", "--only", "ifc", "--only", "micro"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
    };
    assert_eq!(
        typefuzz_bench::runner::run_cli(&args),
        0,
        "a control reported a failure"
    );
}
