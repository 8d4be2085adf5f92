//! The runner end to end on a tiny budget: it finds easy bugs, never reports one on the
//! controls, and writes its report files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn run(args: &[&str]) -> i32 {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    typefuzz_bench::runner::run_cli(&args)
}

/// The rows of a `trials.csv`, each a map from column name to field.
fn trials(dir: &Path) -> Vec<HashMap<String, String>> {
    csv::Reader::from_path(dir.join("trials.csv"))
        .expect("trials.csv")
        .deserialize()
        .map(|row| row.expect("a well-formed row"))
        .collect()
}

fn out_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("typefuzz-bench-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn micro_run_writes_every_report_file_and_finds_bad() {
    let dir = out_dir("micro");
    let code = run(&[
        "quick",
        "--only",
        "micro",
        "--strategies",
        "typefuzz,naive-generator",
        "--cap",
        "0.3",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let rows = trials(&dir);
    // 5 targets x 2 strategies.
    assert_eq!(rows.len(), 10, "{rows:?}");
    let bad_typefuzz = rows
        .iter()
        .find(|r| r["workload"] == "micro" && r["task"] == "bad!" && r["strategy"] == "typefuzz")
        .expect("a typefuzz row for bad!");
    assert_eq!(bad_typefuzz["control"], "false");
    assert_eq!(
        bad_typefuzz["found"], "true",
        "labels guide typefuzz to bad!: {bad_typefuzz:?}"
    );
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("## micro: per task"));
    let chart = std::fs::read_to_string(dir.join("micro_buckets.svg")).unwrap();
    assert!(chart.starts_with("<svg") || chart.contains("<svg"));
}

#[test]
fn ifc_controls_stay_silent_and_an_easy_mutant_is_found() {
    let dir = out_dir("ifc");
    let code = run(&[
        "quick",
        "--only",
        "ifc",
        "--strategies",
        "typefuzz",
        "--cap",
        "0.2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "the correct machine must not fail");
    let rows = trials(&dir);
    let row = |task: &str| {
        rows.iter()
            .find(|r| r["workload"] == "IFC" && r["task"] == task)
            .unwrap_or_else(|| panic!("no row for {task}"))
    };
    let correct = row("correct");
    assert_eq!(
        (
            &*correct["control"],
            &*correct["strategy"],
            &*correct["trial"],
            &*correct["found"]
        ),
        ("true", "typefuzz", "0", "false"),
        "{correct:?}"
    );
    // Push pc -> ⊥ is found in well under a millisecond by every strategy with feedback.
    assert_eq!(row("7")["found"], "true", "{:?}", row("7"));
    assert!(dir.join("ifc_time_to_failure.svg").exists());
}

#[test]
fn usage_errors_are_reported() {
    assert_eq!(run(&["fast"]), 2);
    assert_eq!(run(&["quick", "--strategies", "afl"]), 2);
    assert_eq!(run(&["quick", "--trials", "0"]), 2);
}

#[test]
fn throughput_mode_reports_every_tool_with_its_ratios() {
    let dir = out_dir("throughput");
    let code = run(&[
        "throughput",
        "--tasks",
        "machines",
        "--cap",
        "0.05",
        "--trials",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "no throughput property has a bug");
    let csv = std::fs::read_to_string(dir.join("throughput.csv")).unwrap();
    let tools: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|line| line.split(',').nth(1).expect("a tool column"))
        .collect();
    assert_eq!(
        tools,
        [
            "proptest",
            "quickcheck",
            "quickcheck-runner",
            "quickcheck-cycled",
            "quickcheck+hash",
            "derived-generate",
            "typefuzz-generate",
            "typefuzz",
        ],
        "{csv}"
    );
    for line in csv.lines().skip(1) {
        let tests: u64 = line.split(',').nth(3).unwrap().parse().unwrap();
        assert!(tests > 0, "every tool ran tests: {line}");
    }
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("## machines"), "{report}");
    // The baseline's own row reads 1.00x against itself, in tests/s and in nodes/s.
    let quickcheck_row = report
        .lines()
        .find(|l| l.starts_with("| quickcheck |"))
        .expect("a quickcheck row");
    let cells: Vec<&str> = quickcheck_row.split('|').map(str::trim).collect();
    assert_eq!((cells[5], cells[6]), ("1.00x", "1.00x"), "{quickcheck_row}");
    assert!(report.contains("| quickcheck+hash |"), "{report}");
}
