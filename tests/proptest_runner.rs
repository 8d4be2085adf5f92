//! The `TestRunner` drop-in: proptest's signature and result, and regression files named after
//! the test function, saved beside proptest's file and replayed first by the next run.

use std::sync::atomic::{AtomicU64, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, FileFailurePersistence, RngSeed, TestError};

fn config(dir: &std::path::Path, seed: u64) -> ProptestConfig {
    let file: &'static str = Box::leak(
        dir.join("runner.proptest-regressions")
            .to_string_lossy()
            .into_owned()
            .into_boxed_str(),
    );
    ProptestConfig {
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(file))),
        ..ProptestConfig::with_cases(10_000)
    }
}

/// What `TestRunner::run` returns for the property below.
type RunResult = Result<(), TestError<(u32, Vec<u8>)>>;

/// Runs the property and returns the call at which it first failed, and the result.
fn first_failure(config: ProptestConfig) -> (u64, RunResult) {
    let calls = AtomicU64::new(0);
    let first = AtomicU64::new(0);
    let mut runner = typefuzz::proptest::TestRunner::new(config);
    let strategy = (
        0..1_000_000u32,
        proptest::collection::vec(any::<u8>(), 0..4),
    );
    let result = runner.run(&strategy, |(x, _)| {
        let call = calls.fetch_add(1, Ordering::Relaxed) + 1;
        if x % 1000 == 999 {
            let _ = first.compare_exchange(0, call, Ordering::Relaxed, Ordering::Relaxed);
        }
        prop_assert!(x % 1000 != 999, "x ends in 999");
        Ok(())
    });
    (first.load(Ordering::Relaxed), result)
}

#[test]
fn runner_saves_and_replays_regressions_named_after_the_test() {
    let dir = std::env::temp_dir().join(format!("typefuzz-runner-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    let (first, result) = first_failure(config(&dir, 4));
    match result {
        Err(TestError::Fail(reason, (x, v))) => {
            assert!(reason.message().contains("x ends in 999"), "{reason}");
            assert_eq!(x % 1000, 999, "{x}");
            assert!(v.is_empty(), "{v:?}");
        }
        other => panic!("expected a failure: {other:?}"),
    }
    assert!(first > 1, "found by search, not replayed");
    // Named after the function that holds the closure, beside proptest's file.
    let saved = dir.join("runner.first_failure.typefuzz-regressions");
    assert!(
        saved.exists(),
        "{:?}",
        std::fs::read_dir(&dir).unwrap().collect::<Vec<_>>()
    );

    // Another seed: the saved input is replayed first.
    let (first, result) = first_failure(config(&dir, 99));
    assert!(
        matches!(result, Err(TestError::Fail(_, (x, _))) if x % 1000 == 999),
        "{result:?}"
    );
    assert_eq!(first, 1, "the regression is the first test");

    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn runner_passes_and_aborts_like_proptest() {
    let mut runner = typefuzz::proptest::TestRunner::new(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(100)
    });
    assert!(runner
        .run(&"[a-z]{1,4}", |s| {
            prop_assert!(!s.is_empty() && s.len() <= 4);
            Ok(())
        })
        .is_ok());
    let result = runner.run(&any::<u8>(), |_| Err(TestCaseError::reject("never")));
    assert!(matches!(result, Err(TestError::Abort(_))), "{result:?}");
}
