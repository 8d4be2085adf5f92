//! The verdict of `fuzz/ci.sh` on a bounded libFuzzer run (`libfuzzer_verdict` in
//! `fuzz/verdict.sh`) on fake libFuzzer logs: a run that reports a timeout, an out-of-memory or
//! a crash, leaves an artifact, exits non-zero, or stops before its budget fails fuzz CI.

use std::fs;
use std::path::Path;
use std::process::Command;

/// libFuzzer's opening lines.
const START: &str = "INFO: Running with entropic power schedule (0xFF, 100).
INFO: Seed: 1
INFO: -max_len is not provided; libFuzzer will not generate inputs larger than 4096 bytes
#2\tINITED cov: 310 ft: 311 corp: 1/1b exec/s: 0 rss: 31Mb
#1024\tpulse  cov: 402 ft: 650 corp: 40/1201b lim: 14 exec/s: 512 rss: 33Mb
";

/// The lines of a run that used its whole 20 s budget.
const DONE: &str = "Done 123456 runs in 21 second(s)
stat::number_of_executed_units: 123456
stat::average_exec_per_sec:     5878
stat::peak_rss_mb:              41
";

/// libFuzzer's report of an input that ran past `-timeout=10`.
const TIMEOUT: &str = "ALARM: working on the last Unit for 11 seconds
       and the timeout value is 10 (use -timeout=N to change)
MS: 1 Custom-; base unit: 0000000000000000000000000000000000000000
artifact_prefix='PREFIX'; Test unit written to PREFIXtimeout-8a4e4c1b
==4242== ERROR: libFuzzer: timeout after 11 seconds
SUMMARY: libFuzzer: timeout
";

/// libFuzzer's report of an input that passed the RSS limit.
const OOM: &str = "==4242== ERROR: libFuzzer: out-of-memory (used: 2101Mb; exceeds: 2048Mb)
   To change the out-of-memory limit use -rss_limit_mb=<N>
MS: 2 Custom-Custom-; base unit: 0000000000000000000000000000000000000000
artifact_prefix='PREFIX'; Test unit written to PREFIXoom-52fd1d6e
SUMMARY: libFuzzer: out-of-memory
";

/// What `libfuzzer_verdict` said of a run.
struct Verdict {
    failed: bool,
    why: String,
}

/// The verdict on a run of budget 20 s whose log is `log` (`PREFIX` standing for the artifact
/// prefix), exit status `status`, and artifacts `artifacts` (names under the prefix).
fn verdict(name: &str, log: &str, status: i32, artifacts: &[&str]) -> Verdict {
    let dir = std::env::temp_dir().join(format!(
        "typefuzz-fuzz-ci-verdict-{name}-{}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let prefix = format!("{}/target-", dir.display());
    fs::write(dir.join("run.log"), log.replace("PREFIX", &prefix)).unwrap();
    for artifact in artifacts {
        fs::write(format!("{prefix}{artifact}"), b"input").unwrap();
    }
    let verdict_sh = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/verdict.sh");
    let output = Command::new("bash")
        .args([
            "-euo",
            "pipefail",
            "-c",
            "source \"$1\"; libfuzzer_verdict \"$2\" \"$3\" \"$4\" 20",
            "verdict",
        ])
        .arg(&verdict_sh)
        .arg(dir.join("run.log"))
        .arg(status.to_string())
        .arg(&prefix)
        .output()
        .expect("bash runs");
    let code = output.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "libfuzzer_verdict ended with {code:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    fs::remove_dir_all(&dir).unwrap();
    Verdict {
        failed: code == Some(1),
        why: String::from_utf8_lossy(&output.stdout).trim().to_string(),
    }
}

#[test]
fn a_run_of_its_whole_budget_passes() {
    let ran = verdict("done", &format!("{START}{DONE}"), 0, &[]);
    assert!(!ran.failed, "{}", ran.why);
    assert_eq!(ran.why, "ran 21 s");
}

#[test]
fn a_timeout_fails() {
    let ran = verdict(
        "timeout",
        &format!("{START}{TIMEOUT}"),
        70,
        &["timeout-8a4e4c1b"],
    );
    assert!(ran.failed);
    assert!(
        ran.why
            .contains("ERROR: libFuzzer: timeout after 11 seconds"),
        "{}",
        ran.why
    );
    assert!(ran.why.contains("target-timeout-8a4e4c1b"), "{}", ran.why);
}

#[test]
fn an_out_of_memory_fails() {
    let ran = verdict("oom", &format!("{START}{OOM}"), 71, &["oom-52fd1d6e"]);
    assert!(ran.failed);
    assert!(
        ran.why.contains("ERROR: libFuzzer: out-of-memory"),
        "{}",
        ran.why
    );
}

#[test]
fn a_crash_fails() {
    let crash = "==4242== ERROR: libFuzzer: deadly signal\nSUMMARY: libFuzzer: deadly signal\n";
    let ran = verdict("crash", &format!("{START}{crash}"), 77, &["crash-1f2e"]);
    assert!(ran.failed);
    assert!(ran.why.contains("deadly signal"), "{}", ran.why);
}

#[test]
fn an_artifact_alone_fails() {
    let ran = verdict("leak", &format!("{START}{DONE}"), 0, &["leak-77aa"]);
    assert!(ran.failed);
    assert!(ran.why.contains("saved a failing input"), "{}", ran.why);
}

#[test]
fn a_non_zero_exit_fails() {
    let ran = verdict("exit", &format!("{START}{DONE}"), 1, &[]);
    assert!(ran.failed);
    assert!(ran.why.starts_with("exited with status 1"), "{}", ran.why);
}

#[test]
fn a_run_that_dies_early_fails() {
    // Killed from outside (e.g. the kernel's OOM killer): no report, no final line.
    let ran = verdict("early", START, 0, &[]);
    assert!(ran.failed);
    assert!(
        ran.why.starts_with("ended without libFuzzer's final line"),
        "{}",
        ran.why
    );
}

#[test]
fn a_run_short_of_its_budget_fails() {
    let short = START.to_string() + "Done 5000 runs in 3 second(s)\n";
    let ran = verdict("short", &short, 0, &[]);
    assert!(ran.failed);
    assert_eq!(ran.why, "stopped after 3 s of its 20 s");
}
