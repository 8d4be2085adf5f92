//! What a user sees when a `typefuzz::quickcheck!` property fails: the panic message as
//! quickcheck words it, long arguments elided (the regression file replays them whole), no
//! doubled parentheses, the regression file where the documented default puts it; and, in the
//! test output libtest captures, no status lines and no coverage banner (those go to the
//! process's stderr live, the banner once and only when a run is long).
//!
//! The properties under test are `#[ignore]`d: the tests below call them in-process, or run
//! this test binary again on one of them, as `cargo test -- --ignored` would.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use quickcheck::{Arbitrary, Gen, TestResult};
use typefuzz::quickcheck::genotype::Genotype;

/// A row whose `Debug` text is long (35 characters), `Arbitrary` only.
#[derive(Clone, PartialEq)]
struct Row(u8);

impl std::fmt::Debug for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Row({:0>30})", self.0)
    }
}

impl Arbitrary for Row {
    fn arbitrary(g: &mut Gen) -> Self {
        Row(u8::arbitrary(g))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Row))
    }
}

static SLOW_CALLS: AtomicU64 = AtomicU64::new(0);

typefuzz::quickcheck! {
    #[ignore = "fails on purpose; called by the tests below"]
    fn few_rows(rows: Vec<Row>, _flag: bool) -> bool {
        rows.len() < 20
    }

    // These two fail on every input, so on the first test whatever the (random) seed: failing
    // only on 0 (`x > 0`) they passed for 5 seeds in 1,000 (no 0 drawn in the 100 tests).
    #[ignore = "fails on purpose; called by the tests below"]
    fn fails_at_once(_x: u8) -> bool {
        false
    }

    #[should_panic(expected = "[quickcheck] TEST FAILED")]
    fn expected_to_fail(_x: u8) -> bool {
        false
    }

    /// Runs a few seconds (each call sleeps 1 ms; with `TYPEFUZZ_CASES=4000`, more than
    /// enough tests for status lines), then fails.
    // One input in 512 is valid: some 50,000 tests for quickcheck's 100, a long run (it used
    // to end with the coverage banner) that passes.
    #[ignore = "long on purpose; called by the tests below"]
    fn passes_past_many_discards(x: u16) -> TestResult {
        if x % 512 == 0 {
            TestResult::passed()
        } else {
            TestResult::discard()
        }
    }

    #[ignore = "fails on purpose; called by the tests below"]
    fn fails_after_a_long_run(x: u16) -> TestResult {
        std::thread::sleep(std::time::Duration::from_millis(1));
        TestResult::from_bool(SLOW_CALLS.fetch_add(1, Ordering::Relaxed) < 3000 || x > 60_000)
    }
}

/// The panic message of `property`, which must fail.
fn panic_message(property: fn()) -> String {
    let payload = std::panic::catch_unwind(property).expect_err("the property fails");
    match payload.downcast::<String>() {
        Ok(message) => *message,
        Err(payload) => payload
            .downcast_ref::<&str>()
            .expect("a text panic")
            .to_string(),
    }
}

/// The documented default regression file of a `quickcheck!` property named `path`.
fn default_regression_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("typefuzz-regressions")
        .join(format!("{}.txt", path.replace("::", "-")))
}

#[test]
fn long_arguments_are_elided_and_replayed_whole() {
    let file = default_regression_file("quickcheck_output::few_rows");
    let _ = std::fs::remove_file(&file);
    let message = panic_message(few_rows);
    let first = message.lines().next().expect("a first line");
    assert!(
        first.starts_with("[quickcheck] TEST FAILED. Arguments: ([Row("),
        "{message}"
    );
    // 20 rows of 35 characters are more than 700; the line shows 300 of them.
    assert!(first.contains(" characters elided) .. "), "{first}");
    assert!(first.chars().count() < 450, "{first}");
    assert!(first.ends_with(", false)"), "{first}");
    assert!(!message.contains("(("), "doubled parentheses: {message}");
    for noise in ["pulse", "DONE", "coverage feedback is off"] {
        assert!(
            !message.contains(noise),
            "{noise:?} in the message: {message}"
        );
    }
    // Saved where the docs say (quickcheck keeps no file of its own), named in the message.
    assert!(
        message.contains(&format!("saved to {}", file.display())),
        "{message}"
    );
    assert!(file.exists());

    // The next run replays it first, whole: 20 rows again, on its first test.
    let replay = typefuzz::quickcheck::QuickCheck::new()
        .name("quickcheck_output::few_rows")
        .quicktest(few_rows_property as fn(Vec<Row>, bool) -> bool);
    assert_eq!(replay.stats.regressions_replayed, 1);
    let failure = replay.failure.expect("the saved input fails again");
    assert_eq!(failure.tests, 1);
    assert_eq!(failure.minimal.args().0.len(), 20);
    let _ = std::fs::remove_file(&file);
}

/// A `#[should_panic]` property fails as expected and leaves no regression file behind (plain
/// quickcheck writes none; replaying an expected failure buys nothing).
#[test]
fn an_expected_failure_is_not_saved() {
    let file = default_regression_file("quickcheck_output::expected_to_fail");
    let message = panic_message(expected_to_fail);
    assert!(message.contains("[quickcheck] TEST FAILED"), "{message}");
    assert!(message.contains("not saved"), "{message}");
    assert!(!file.exists(), "{}", file.display());
}

/// `few_rows`'s body, for the builder.
fn few_rows_property(rows: Vec<Row>, _flag: bool) -> bool {
    rows.len() < 20
}

/// Before, a plain `cargo test` run of 10,000 tests or more than two seconds printed the
/// coverage banner (and status lines) on stderr, between libtest's `test name ...` and `ok`.
#[test]
fn a_long_passing_run_prints_no_status_line_unless_asked() {
    let (status, stdout, stderr) = run_alone_with_status("passes_past_many_discards", &[]);
    assert!(status.success(), "{stdout}{stderr}");
    for noise in [" pulse ", " DONE ", "coverage feedback is off"] {
        assert!(!stderr.contains(noise), "{noise:?}: {stderr}");
    }
    let asked = [("TYPEFUZZ_PROGRESS", "1")];
    let (_, _, asked) = run_alone_with_status("passes_past_many_discards", &asked);
    assert!(asked.contains(" DONE "), "{asked}");
}

/// Runs this test binary on the ignored property `name` (with `env` set, regressions in a
/// scratch directory), which must fail; returns (libtest's stdout, the process's stderr).
fn run_alone(name: &str, env: &[(&str, &str)]) -> (String, String) {
    let (status, stdout, stderr) = run_alone_with_status(name, env);
    assert!(!status.success(), "{name} should fail");
    (stdout, stderr)
}

/// [`run_alone`] for a property that may pass: also returns the exit status.
fn run_alone_with_status(
    name: &str,
    env: &[(&str, &str)],
) -> (std::process::ExitStatus, String, String) {
    let scratch = std::env::temp_dir().join(format!(
        "typefuzz-quickcheck-output-{}-{name}",
        std::process::id()
    ));
    let mut command = Command::new(std::env::current_exe().expect("this test binary"));
    command
        .args(["--exact", name, "--ignored", "--test-threads=1"])
        .env("TYPEFUZZ_REGRESSIONS", format!("{}/", scratch.display()))
        .env_remove("TYPEFUZZ_PROGRESS")
        .env_remove("TYPEFUZZ_CASES")
        .env_remove("TYPEFUZZ_TIME");
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("the test binary runs");
    let _ = std::fs::remove_dir_all(&scratch);
    (
        output.status,
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_short_failing_run_prints_no_banner() {
    let (stdout, stderr) = run_alone("fails_at_once", &[]);
    assert!(
        stdout.contains("[quickcheck] TEST FAILED. Arguments: (0)"),
        "{stdout}"
    );
    assert!(!stdout.contains("coverage feedback is off"), "{stdout}");
    assert!(!stderr.contains("coverage feedback is off"), "{stderr}");
}

#[test]
fn a_long_run_shows_status_and_banner_on_stderr_not_in_the_failure() {
    let (stdout, stderr) = run_alone("fails_after_a_long_run", &[("TYPEFUZZ_CASES", "4000")]);
    assert!(stdout.contains("[quickcheck] TEST FAILED"), "{stdout}");
    // libtest's captured output of the failing test: the failure alone.
    assert!(!stdout.contains(" pulse "), "{stdout}");
    assert!(!stdout.contains("coverage feedback is off"), "{stdout}");
    // Live on stderr instead; the banner once.
    assert!(stderr.contains(" pulse "), "{stderr}");
    assert_eq!(
        stderr.matches("coverage feedback is off").count(),
        1,
        "{stderr}"
    );
}
