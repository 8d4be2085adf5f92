//! A failure names its minimal input, the seed that replays the run and the regression file;
//! the next run replays that file first and fails on its first test. One test in this binary,
//! because it sets `TYPEFUZZ_REGRESSIONS` for the process.

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};

fn failure_message(config: ProptestConfig) -> String {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        typefuzz::proptest!(config, |(x in 0..1_000_000u32, s: String)| {
            prop_assert!(x % 1000 != 999, "x ends in 999");
            let _ = s;
        });
    }));
    *result
        .expect_err("the property fails")
        .downcast::<String>()
        .expect("a formatted message")
}

#[test]
fn failure_is_saved_then_replayed_first() {
    let dir = std::env::temp_dir().join(format!("typefuzz-proptest-replay-{}", std::process::id()));
    let file = dir.join("regressions.txt");
    let _ = std::fs::remove_dir_all(&dir);
    std::env::set_var("TYPEFUZZ_REGRESSIONS", &file);

    let mut config = ProptestConfig::with_cases(10_000);
    config.rng_seed = RngSeed::Fixed(4);
    let first = failure_message(config.clone());
    assert!(first.starts_with("Test failed: x ends in 999"), "{first}");
    let minimal = first
        .lines()
        .next()
        .and_then(|line| line.split("minimal failing input: ").nth(1))
        .expect("the first line names the minimal input")
        .to_string();
    assert!(
        minimal.starts_with("x = ") && minimal.contains("999, s = "),
        "{first}"
    );
    assert!(first.contains("TYPEFUZZ_SEED=4"), "{first}");
    assert!(
        first.contains(&format!("saved to {}", file.display())),
        "{first}"
    );
    assert!(first.contains("0 regressions replayed"), "{first}");
    assert!(file.exists());
    // The file's comments show the values the strategies built, not their recorded choices.
    let saved = std::fs::read_to_string(&file).unwrap();
    let minimal_line = saved
        .lines()
        .find(|line| line.contains("# minimal: "))
        .unwrap_or_else(|| panic!("no minimal entry in\n{saved}"));
    let (_, shown) = minimal_line.split_once("# minimal: ").unwrap();
    assert!(shown.starts_with('(') && shown.contains("999, "), "{saved}");
    assert!(!saved.contains("Choices("), "{saved}");

    // Another seed, whose first generated input passes (the control, without any regression
    // file); with the file, the saved input is replayed first and fails at once.
    let control = typefuzz::proptest::run_with(
        &typefuzz::Config::default().with_seed(99),
        (0..1_000_000u32, any::<String>()),
        |(x, _)| {
            prop_assert!(x % 1000 != 999);
            Ok(())
        },
    );
    assert!(control.failure.map_or(true, |f| f.tests > 1));
    config.rng_seed = RngSeed::Fixed(99);
    let second = failure_message(config.clone());
    assert!(
        second.contains("failed (failure) after 1 tests"),
        "{second}"
    );
    assert!(second.contains("1 regressions replayed"), "{second}");
    assert!(
        second.contains(&format!("minimal failing input: {minimal}")),
        "{second}"
    );

    // The function API saves and replays through the same variable. Its genotype (one choice
    // sequence for the whole tuple strategy) is not the macro's (one per argument), so it keeps
    // its own entries: a new file, saved by the first run, replayed first by the second.
    std::env::set_var("TYPEFUZZ_REGRESSIONS", dir.join("function.txt"));
    let property = |(x, _): (u32, String)| {
        prop_assert!(x % 1000 != 999);
        Ok(())
    };
    let strategy = (0..1_000_000u32, any::<String>());
    config.rng_seed = RngSeed::Fixed(4);
    let first = typefuzz::proptest::run(strategy.clone(), &config, property);
    assert_eq!(first.stats.regressions_replayed, 0);
    assert!(first.failure.expect("found by search").tests > 1);
    config.rng_seed = RngSeed::Fixed(99);
    let report = typefuzz::proptest::run(strategy, &config, property);
    assert_eq!(report.stats.regressions_replayed, 1);
    let failure = report.failure.expect("the replayed input fails");
    assert_eq!(failure.tests, 1);
    assert_eq!(failure.minimal.0 % 1000, 999);

    std::env::remove_var("TYPEFUZZ_REGRESSIONS");
    let _ = std::fs::remove_dir_all(&dir);
}
