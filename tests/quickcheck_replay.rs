//! A failure names its minimal input, the seed that replays the run and the regression file;
//! the next run replays that file first and fails on its first test. One test in this binary,
//! because it sets `TYPEFUZZ_REGRESSIONS` for the process.

use typefuzz::quickcheck::genotype::Genotype;

fn small(x: u32, _label: String) -> bool {
    x % 1000 != 999
}

fn failure_message(seed: u64) -> String {
    let result = std::panic::catch_unwind(|| {
        // A 10,000-test campaign: quickcheck's 100 tests rarely meet `x % 1000 == 999`.
        typefuzz::quickcheck::QuickCheck::new()
            .tests(10_000)
            .seed(seed)
            .name("quickcheck_replay::small")
            .quickcheck(small as fn(u32, String) -> bool);
    });
    *result
        .expect_err("the property fails")
        .downcast::<String>()
        .expect("a formatted message")
}

#[test]
fn failure_is_saved_then_replayed_first() {
    let dir =
        std::env::temp_dir().join(format!("typefuzz-quickcheck-replay-{}", std::process::id()));
    let file = dir.join("regressions.txt");
    let _ = std::fs::remove_dir_all(&dir);
    // The control, with a regression file of its own: seed 99's first generated input passes,
    // so failing on the first test later can only come from the replay.
    std::env::set_var("TYPEFUZZ_REGRESSIONS", dir.join("control.txt"));
    let control = typefuzz::quickcheck::QuickCheck::new()
        .seed(99)
        .quicktest(small as fn(u32, String) -> bool);
    assert!(control.failure.map_or(true, |f| f.tests > 1));
    std::env::set_var("TYPEFUZZ_REGRESSIONS", &file);

    let first = failure_message(4);
    assert!(
        first.starts_with("[quickcheck] TEST FAILED. Arguments: ("),
        "{first}"
    );
    let arguments = first
        .lines()
        .next()
        .and_then(|line| line.split("Arguments: ").nth(1))
        .expect("the first line names the arguments")
        .to_string();
    assert!(first.contains("TYPEFUZZ_SEED=4"), "{first}");
    assert!(
        first.contains(&format!("saved to {}", file.display())),
        "{first}"
    );
    assert!(first.contains("0 regressions replayed"), "{first}");
    assert!(file.exists());

    // With the file, the saved input is replayed first and fails at once (seed 99's own first
    // input passes: the control above).
    let second = failure_message(99);
    assert!(
        second.contains("failed (failure) after 1 tests"),
        "{second}"
    );
    assert!(second.contains("1 regressions replayed"), "{second}");
    assert!(
        second.contains(&format!("Arguments: {arguments}")),
        "{second}"
    );

    let report = typefuzz::quickcheck::QuickCheck::new()
        .seed(7)
        .quicktest(small as fn(u32, String) -> bool);
    assert_eq!(report.stats.regressions_replayed, 1);
    let failure = report.failure.expect("the replayed input fails");
    assert_eq!(failure.tests, 1);
    assert_eq!(failure.minimal.args().0 % 1000, 999);

    std::env::remove_var("TYPEFUZZ_REGRESSIONS");
    let _ = std::fs::remove_dir_all(&dir);
}
