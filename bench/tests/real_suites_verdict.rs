//! The real-suite step's verdict (`bench/real-suites/verdict.sh`, sourced by `run.sh`) on fake
//! test binaries: a typefuzz test binary that aborts, segfaults, hangs (exit 70) or runs past
//! the timeout fails the step, as does a false failure; a crash plain shares does not.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A libtest run whose one test passes.
const PASSES: &str = r#"echo "running 1 test"
echo "test prop ... ok"
echo
echo "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s""#;

/// A libtest run whose one test fails.
const FAILS: &str = r#"echo "running 1 test"
echo "test prop ... FAILED"
echo
echo "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s"
exit 101"#;

/// A run that dies of signal `signal` in the middle of its test.
fn dies_of(signal: &str) -> String {
    format!("echo 'running 1 test'\necho 'test prop ... '\nkill -{signal} $$")
}

/// What `judge_suite` said of a suite.
struct Judged {
    failed: bool,
    verdict: String,
    why: String,
}

/// Runs one round per entry of `rounds` (the plain binary's script, then the typefuzz one's)
/// through `timed_test` with a 2 s timeout, then `judge_suite` with wall-time ratio `ratio`.
fn judge(name: &str, rounds: &[(&str, &str)], ratio: &str, ratio_fatal: bool) -> Judged {
    let dir = std::env::temp_dir().join(format!(
        "typefuzz-real-suites-verdict-{name}-{}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let mut script = String::from("source \"$1\"\n");
    for (round, (plain, typefuzz)) in rounds.iter().enumerate() {
        for (side, body) in [("plain", plain), ("typefuzz", typefuzz)] {
            let binary = fake_binary(&dir, &format!("{side}-{round}"), body);
            script.push_str(&format!(
                "read -r wall cpu <<< \"$(timed_test \"$2\" {} \"$2/test-{side}.log\")\"\n\
                 [[ $wall =~ ^[0-9.]+$ ]] || {{ echo \"timed_test printed '$wall $cpu'\" >&2; exit 2; }}\n",
                binary.display()
            ));
        }
    }
    script.push_str("judge_suite \"$2\" \"$3\"\n");
    let verdict_sh = Path::new(env!("CARGO_MANIFEST_DIR")).join("real-suites/verdict.sh");
    let output = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script, "judge"])
        .arg(&verdict_sh)
        .arg(&dir)
        .arg(ratio)
        .env("TIMEOUT", "2")
        .env("KILL_AFTER", "1")
        .env("RATIO", "1.25")
        .env("RATIO_FATAL", if ratio_fatal { "1" } else { "0" })
        .output()
        .expect("bash runs");
    let why = String::from_utf8_lossy(&output.stderr).into_owned();
    let status = output.status.code();
    assert!(
        matches!(status, Some(0 | 1)),
        "judge_suite ended with {status:?}: {why}"
    );
    fs::remove_dir_all(&dir).unwrap();
    Judged {
        failed: status == Some(1),
        verdict: String::from_utf8_lossy(&output.stdout).trim().to_string(),
        why,
    }
}

/// An executable bash script `dir/name` running `body`.
fn fake_binary(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, format!("#!/usr/bin/env bash\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn passing_suites_pass() {
    let judged = judge("pass", &[(PASSES, PASSES), (PASSES, PASSES)], "1.0", true);
    assert!(!judged.failed, "{}", judged.why);
    assert_eq!(judged.verdict, "ok");
}

#[test]
fn an_abort_fails_the_step() {
    let judged = judge("abort", &[(PASSES, &dies_of("ABRT"))], "1.0", true);
    assert!(judged.failed);
    assert_eq!(judged.verdict, "FAIL (exit 134, signal 6)");
    assert!(judged.why.contains("test prop ..."), "{}", judged.why);
}

#[test]
fn a_segfault_fails_the_step() {
    let judged = judge("segv", &[(PASSES, &dies_of("SEGV"))], "1.0", true);
    assert!(judged.failed);
    assert_eq!(judged.verdict, "FAIL (exit 139, signal 11)");
}

#[test]
fn a_hang_fails_the_step() {
    let hangs = "echo 'typefuzz: the property ran past its time limit'\nexit 70";
    let judged = judge("hang", &[(PASSES, hangs)], "1.0", true);
    assert!(judged.failed);
    assert_eq!(judged.verdict, "FAIL (exit 70, a hang)");
}

#[test]
fn the_timeout_fails_the_step() {
    let judged = judge("timeout", &[(PASSES, "exec sleep 60")], "1.0", true);
    assert!(judged.failed);
    assert_eq!(
        judged.verdict,
        "FAIL (timeout: the run passed the 2 s limit)"
    );
}

#[test]
fn a_binary_ignoring_the_timeout_is_killed_and_fails_the_step() {
    let stubborn = "trap '' TERM\nfor _ in $(seq 600); do sleep 0.1; done";
    let judged = judge("stubborn", &[(PASSES, stubborn)], "1.0", true);
    assert!(judged.failed);
    assert_eq!(judged.verdict, "FAIL (exit 137, signal 9)");
}

#[test]
fn a_crash_in_any_round_fails_the_step() {
    // The first round aborts, the second ends with libtest's verdict on a test that fails
    // plain too: the abort still counts.
    let judged = judge(
        "later-round",
        &[(FAILS, &dies_of("ABRT")), (FAILS, FAILS)],
        "1.0",
        true,
    );
    assert!(judged.failed, "{}", judged.why);
    assert_eq!(judged.verdict, "FAIL (exit 134, signal 6)");
}

#[test]
fn a_crash_plain_shares_is_not_counted() {
    let judged = judge(
        "shared-crash",
        &[(&dies_of("SEGV"), &dies_of("SEGV"))],
        "1.0",
        true,
    );
    assert!(!judged.failed, "{}", judged.why);
    assert_eq!(judged.verdict, "ok");
}

#[test]
fn a_false_failure_fails_the_step() {
    let judged = judge("false-failure", &[(PASSES, FAILS)], "1.0", true);
    assert!(judged.failed);
    assert_eq!(judged.verdict, "FAIL (false failures)");
    assert!(judged
        .why
        .contains("false failures (pass plain, fail under typefuzz): prop"));
}

#[test]
fn a_failure_plain_shares_is_not_counted() {
    let judged = judge("shared-failure", &[(FAILS, FAILS)], "1.0", true);
    assert!(!judged.failed, "{}", judged.why);
    assert!(judged.why.contains("failing plain too (not counted): prop"));
}

#[test]
fn exit_101_without_a_failing_test_fails_the_step() {
    let panics_outside = "echo 'thread main panicked at src/main.rs:1:1'\nexit 101";
    let judged = judge("exit-101", &[(PASSES, panics_outside)], "1.0", true);
    assert!(judged.failed);
    assert_eq!(
        judged.verdict,
        "FAIL (exit 101 without a failing test: a panic outside the tests)"
    );
}

#[test]
fn the_wall_time_bar_fails_only_when_fatal() {
    let fatal = judge("slow-fatal", &[(PASSES, PASSES)], "2.0", true);
    assert!(fatal.failed);
    assert_eq!(fatal.verdict, "FAIL (wall time)");
    let reported = judge("slow-reported", &[(PASSES, PASSES)], "2.0", false);
    assert!(!reported.failed, "{}", reported.why);
    assert_eq!(reported.verdict, "over the wall-time bar (not fatal)");
}
