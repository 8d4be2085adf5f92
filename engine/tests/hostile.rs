//! Hostile properties: each way a property can go wrong is reported as such, with the failing
//! input saved to the regression file (or, for a hang, to a `hang-<sha1>` file).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use typefuzz::codec;
use typefuzz::{check, Config, FailureKind};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("typefuzz-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The regression file holds the input's codec bytes.
fn assert_saved<T: typefuzz::Mutate>(file: &Path, value: &T) {
    let text = std::fs::read_to_string(file).expect("regression file written");
    let hex: String = codec::to_bytes(value)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(text.contains(&format!("cc {hex}")), "{text}");
}

fn config(dir: &Path) -> Config {
    Config::default()
        .with_seed(11)
        .with_regressions(dir.join("regressions.txt"))
        .with_progress(false)
}

#[test]
fn a_panic_is_a_failure_with_its_message_and_location() {
    let dir = scratch("panic");
    let report = check(
        &config(&dir),
        |cx| cx.generate::<u32>(),
        |x| {
            if *x >= 1000 {
                panic!("too big: {x}");
            }
        },
    );
    let failure = report.failure.expect("fails");
    assert_eq!(failure.kind, FailureKind::Panic);
    assert_eq!(failure.minimal, 1000, "shrinks to the boundary");
    assert!(
        failure.message.contains("too big: 1000"),
        "{}",
        failure.message
    );
    assert!(
        failure.message.contains("hostile.rs"),
        "location kept: {}",
        failure.message
    );
    assert_saved(&dir.join("regressions.txt"), &failure.minimal);
}

#[test]
fn an_err_is_a_failure_with_its_debug_text() {
    let dir = scratch("err");
    let report = check(
        &config(&dir),
        |cx| cx.generate::<Vec<u8>>(),
        |v| {
            if v.len() > 2 {
                Err(format!("length {}", v.len()))
            } else {
                Ok(())
            }
        },
    );
    let failure = report.failure.expect("fails");
    assert_eq!(failure.kind, FailureKind::Fail);
    assert_eq!(failure.minimal.len(), 3);
    assert!(failure.message.contains("length 3"), "{}", failure.message);
    assert_saved(&dir.join("regressions.txt"), &failure.minimal);
}

#[test]
fn a_huge_allocation_is_a_caught_failure() {
    let dir = scratch("alloc");
    let report = check(
        &config(&dir),
        |cx| cx.generate::<u8>(),
        |x| {
            if *x > 100 {
                // More than isize::MAX bytes: a capacity-overflow panic, not an abort.
                let huge: Vec<u32> = Vec::with_capacity(usize::MAX / 2);
                assert!(huge.is_empty());
            }
        },
    );
    let failure = report.failure.expect("fails");
    assert_eq!(failure.kind, FailureKind::Panic);
    assert!(
        failure.message.contains("capacity overflow"),
        "{}",
        failure.message
    );
    assert_eq!(failure.minimal, 101);
    assert_saved(&dir.join("regressions.txt"), &failure.minimal);
}

#[test]
fn false_fails_and_the_report_names_the_seed() {
    let report = check(
        &Config::default().with_seed(5),
        |cx| cx.generate::<u8>(),
        |x| *x < 50,
    );
    let failure = report.failure.expect("fails");
    assert_eq!(failure.kind, FailureKind::Fail);
    assert_eq!(failure.minimal, 50);
    let text = failure.to_string();
    assert!(text.contains("TYPEFUZZ_SEED=5"), "{text}");
    assert!(text.contains("minimal failing input: 50"), "{text}");
}

/// Runs in a child process (the watchdog ends the process): loops forever on inputs >= 200.
#[test]
fn hang_child() {
    let Some(dir) = std::env::var_os("TYPEFUZZ_HOSTILE_HANG_DIR") else {
        return;
    };
    let config = Config::default()
        .with_seed(3)
        .with_test_timeout(Duration::from_millis(200))
        .with_regressions(PathBuf::from(dir).join("regressions.txt"));
    // With TYPEFUZZ_HOSTILE_HANG_LATE, only a mutant hangs (the generator stays below 200),
    // and only once seeds are mutated: its crash guard holds a recipe (its seed and mutation)
    // that the watchdog rebuilds.
    let late = std::env::var_os("TYPEFUZZ_HOSTILE_HANG_LATE").is_some();
    if std::env::var_os("TYPEFUZZ_HOSTILE_HANG_SECOND").is_some() {
        // A run that ends before the hanging one: the process's one watchdog thread, started
        // for it, still watches the next run.
        let first = check(
            &config.clone().with_cases(50),
            |cx| cx.generate::<u8>(),
            |_| (),
        );
        assert!(first.passed());
    }
    let calls = std::sync::atomic::AtomicU64::new(0);
    check(
        &config,
        |cx| {
            let x = cx.generate::<u8>();
            if late {
                x.min(199)
            } else {
                x
            }
        },
        |x| {
            let call = calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if *x >= 200 && (!late || call > 100) {
                loop {
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
        },
    );
    unreachable!("the watchdog ends the process");
}

#[test]
fn a_hang_is_reported_with_its_input_saved_and_the_process_ends() {
    a_hang_is_saved(false);
}

#[test]
fn a_hanging_mutant_is_rebuilt_from_its_recipe_and_saved() {
    a_hang_is_saved(true);
}

#[test]
fn a_hang_in_the_second_run_of_a_process_is_caught() {
    a_hang_is_saved_after(false, true);
}

fn a_hang_is_saved(late: bool) {
    a_hang_is_saved_after(late, false);
}

/// Runs `hang_child`; with `second`, after a first, passing run in the same process.
fn a_hang_is_saved_after(late: bool, second: bool) {
    let dir = scratch(match (late, second) {
        (true, _) => "late-hang",
        (false, true) => "second-hang",
        (false, false) => "hang",
    });
    let mut child = Command::new(std::env::current_exe().unwrap());
    child
        .args(["hang_child", "--exact", "--nocapture", "--test-threads=1"])
        .env("TYPEFUZZ_HOSTILE_HANG_DIR", &dir);
    if late {
        child.env("TYPEFUZZ_HOSTILE_HANG_LATE", "1");
    }
    if second {
        child.env("TYPEFUZZ_HOSTILE_HANG_SECOND", "1");
    }
    let output = child.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(70),
        "libFuzzer's timeout exit code; stderr:\n{stderr}"
    );
    assert!(stderr.contains("hang"), "{stderr}");
    assert!(
        stderr.contains("TYPEFUZZ_TEST_TIMEOUT"),
        "names the knob: {stderr}"
    );
    // Crash and hang inputs go to the test's own artifact directory beside its regression file.
    let hangs: Vec<_> = std::fs::read_dir(dir.join("regressions.artifacts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("hang-")
        })
        .collect();
    assert_eq!(hangs.len(), 1, "{hangs:?}");
    let input: u8 = codec::from_bytes(&std::fs::read(&hangs[0]).unwrap());
    assert!(input >= 200, "the saved input is the hanging one: {input}");
    assert!(stderr.contains(&format!("input: {input}")), "{stderr}");
    assert_eq!(stderr.contains("rebuilt from its seed"), late, "{stderr}");
    // A fresh input of `cx.generate` is saved as the random state it was generated from, and
    // rebuilt here too.
    assert_eq!(
        stderr.contains("rebuilt from the random state"),
        !late,
        "{stderr}"
    );
}

/// A counter the property can bump through `&self`: a hand-written `Mutate` over a `Cell`.
#[derive(Clone, Debug, Default)]
struct Visits(std::cell::Cell<u32>);

impl typefuzz::Mutate for Visits {
    fn generate(_cx: &mut typefuzz::Context) -> Self {
        Visits::default()
    }
    fn mutate(&mut self, cx: &mut typefuzz::Context) {
        cx.record(typefuzz::Operator::Random);
        self.0.set(cx.rng().u32(..4));
    }
    fn shrink(&self, _cx: &mut typefuzz::Context) -> Vec<Self> {
        Vec::new()
    }
    fn encode(&self, out: &mut codec::Encoder) {
        self.0.get().encode(out);
    }
    fn decode(input: &mut codec::Decoder<'_>) -> Self {
        Visits(std::cell::Cell::new(u32::decode(input)))
    }
}

#[derive(Clone, Debug, typefuzz::Mutate)]
struct Visited {
    key: u64,
    visits: Visits,
}

/// Seeds are mutated in place and put back after each test (the undo log saves what the
/// mutation changes). A property that changes its input through a `Cell` in a part the mutation
/// did not touch would change the seed itself, and every later mutant of it; the engine checks
/// that seeds come back as their bytes, rebuilds a changed one and makes copies from then on. So
/// the count never climbs past what one test adds to a generated or mutated value.
#[test]
fn a_property_changing_its_input_through_a_cell_does_not_change_the_seeds() {
    let config = Config::default()
        .with_seed(3)
        .with_progress(false)
        .with_cases(u64::MAX)
        .with_max_tests(20_000);
    let report = check(
        &config,
        |cx| cx.generate::<Visited>(),
        |input| {
            let seen = input.visits.0.get();
            input.visits.0.set(seen + 1);
            assert!(seen < 8, "a seed was changed by {seen} earlier tests");
        },
    );
    assert!(
        report.failure.is_none(),
        "{:?}",
        report.failure.map(|f| f.message)
    );
    assert_eq!(report.stats.tests, 20_000);
}
