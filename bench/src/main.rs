//! The benchmark runner: `cargo run --release -p typefuzz-bench -- quick` (see
//! [`typefuzz_bench::runner`] for the modes and flags).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(typefuzz_bench::runner::run_cli(&args));
}
