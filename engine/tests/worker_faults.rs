//! A worker that cannot write its results fails the run: a found failure never turns into a
//! pass because the disk was full. Alone in its binary because the fault is injected through
//! the environment, which every worker this binary starts inherits.

use typefuzz_engine::{check, Config};

#[test]
fn a_worker_whose_failure_write_fails_fails_the_run() {
    // `failure` matches the worker's `failure-<index>` and `failure-<index>.txt` files: writing
    // them fails as it would on a full disk. Before, the worker wrote `done` first and ignored
    // the error, and the parent read "done, no failure file" as a pass.
    std::env::set_var("__TYPEFUZZ_WORKER_WRITE_FAULT", "failure");
    let config = Config::default()
        .with_seed(4)
        .with_cases(100_000)
        .with_progress(false)
        .with_keep_seeds(false)
        .with_read_env(false)
        .with_jobs(2);
    let outcome =
        std::panic::catch_unwind(|| check(&config, |cx| cx.generate::<u8>(), |x: &u8| *x < 100));
    let message = match outcome {
        Ok(report) => panic!("the run passed: {:?}", report.stats),
        Err(payload) => payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default(),
    };
    assert!(
        message.contains("without reporting a failing input")
            && message.contains("could not write")
            && message.contains("injected by __TYPEFUZZ_WORKER_WRITE_FAULT"),
        "{message}"
    );
}
