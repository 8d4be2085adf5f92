//! A checked-in `.proptest-regressions` file is replayed first: its `cc` seed (written by plain
//! proptest for `x % 1000 != 777`) makes the drop-in fail on its very first test, through the
//! macro and through the `TestRunner` drop-in. One test in this binary, because it sets
//! `TYPEFUZZ_REGRESSIONS` for the process (typefuzz's own regression file would otherwise be
//! written beside this source file).

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed, TestError};

fn config() -> ProptestConfig {
    ProptestConfig {
        rng_seed: RngSeed::Fixed(3),
        ..ProptestConfig::default()
    }
}

fn macro_failure(config: ProptestConfig) -> Option<String> {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        typefuzz::proptest!(config, |(x in 0..1_000_000u32, s in "[a-z]{0,4}")| {
            prop_assert!(x % 1000 != 777, "x ends in 777");
            let _ = s;
        });
    }));
    result
        .err()
        .map(|payload| *payload.downcast::<String>().expect("a formatted message"))
}

#[test]
fn proptest_regression_seeds_are_replayed_first() {
    let dir = std::env::temp_dir().join(format!("typefuzz-proptest-seeds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::env::set_var("TYPEFUZZ_REGRESSIONS", dir.join("regressions.txt"));

    // The macro reads tests/proptest_seeds.proptest-regressions (proptest's location for this
    // file) and fails on the seed's value at once, then shrinks it.
    let message = macro_failure(config()).expect("the seed's value fails");
    assert!(
        message.starts_with("Test failed: x ends in 777"),
        "{message}"
    );
    assert!(
        message.contains("failed (failure) after 1 tests"),
        "{message}"
    );
    // Replayed as a regression, before the kept corpus (which, after earlier runs, used to
    // come first: "0 regressions replayed", the failure found again after 61 tests).
    assert!(message.contains("1 regressions replayed"), "{message}");
    // Shrunk as far as proptest itself shrinks it (its file says `shrinks to (47777, "")`):
    // neither shrinker steps from one multiple of 1000 plus 777 to a smaller one.
    let minimal = message
        .lines()
        .next()
        .and_then(|l| l.split("minimal failing input: x = ").nth(1));
    let x: u32 = minimal
        .and_then(|m| m.split(',').next())
        .and_then(|x| x.parse().ok())
        .expect("x");
    assert_eq!(x % 1000, 777, "{message}");
    assert!(message.contains(", s = \"\""), "{message}");

    // The control: without proptest's persistence the same run does not fail at once.
    let _ = std::fs::remove_dir_all(&dir);
    let control = macro_failure(ProptestConfig {
        failure_persistence: None,
        ..config()
    });
    if let Some(control) = control {
        assert!(!control.contains("after 1 tests"), "{control}");
    }

    // The TestRunner drop-in reads the calling file's seeds too.
    let _ = std::fs::remove_dir_all(&dir);
    let mut runner = typefuzz::proptest::TestRunner::new(config());
    let result = runner.run(&(0..1_000_000u32, "[a-z]{0,4}"), |(x, _)| {
        prop_assert!(x % 1000 != 777, "x ends in 777");
        Ok(())
    });
    match result {
        Err(TestError::Fail(reason, minimal)) => {
            assert!(reason.message().contains("x ends in 777"));
            assert_eq!((minimal.0 % 1000, minimal.1.as_str()), (777, ""));
        }
        other => panic!("expected the seed to fail: {other:?}"),
    }

    std::env::remove_var("TYPEFUZZ_REGRESSIONS");
    let _ = std::fs::remove_dir_all(&dir);
}
