//! Input-to-state mutation on the benchmark's enum vector and "bad!" written with `sometimes!`
//! (no instrumentation): with it on, every trial finds the failure within a budget of tests in
//! which, with it off (labels only), none does. The budgets are test counts, so the verdict
//! does not depend on the machine.
//!
//! The numbers of `bench/RESULTS.md` (5 trials, 10 s caps) come from the ignored test:
//! `cargo test --release -p typefuzz-bench --test cmplog -- --ignored --nocapture`.

use std::time::Duration;

use typefuzz_bench::cmplog::{measure, Limit};

#[test]
fn comparison_operands_find_what_labels_alone_do_not() {
    let lines = measure(3, Limit::Tests(5_000), 1);
    for line in &lines {
        println!("{}", line.summary());
    }
    for line in &lines {
        if line.cmplog {
            assert_eq!(line.found(), 3, "{}", line.summary());
        } else if line.name.starts_with("enum") {
            assert_eq!(line.found(), 0, "{}", line.summary());
        }
    }
}

#[test]
#[ignore = "the benchmark's numbers: 5 trials, 10 s caps"]
fn cmplog_lines() {
    typefuzz_bench::cmplog::print(5, Duration::from_secs(10), 1);
}
