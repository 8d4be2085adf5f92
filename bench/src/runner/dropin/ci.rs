//! The bounded regression line: a few evaluation-set tasks per workload, 2 seeds, a short cap;
//! it fails if on any workload a drop-in finds fewer tasks (in any seed) than its plain
//! framework. The tasks are ones the plain frameworks find within a small fraction of the cap
//! in every seed of the full campaign (`bench/results/dropin/campaign.md`), so that the line is
//! not flaky; the drop-ins are held to the same count.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use super::report::{cells, write};
use super::trial::{Outcome, Request};
use super::workloads::{self, Set};
use super::{execute, Budget, Options, Row, Tool, WEAKENED_TESTS};

/// Each trial's cap.
const CAP: Duration = Duration::from_secs(3);
/// Seeds per task and tool.
const SEEDS: usize = 2;

/// The line's tasks: (workload, bug, property).
const TASKS: &[(&str, &str, &str)] = &[
    ("stlc", "lt_flipped", "eval_matches_reference"),
    ("stlc", "fst_snd_swapped", "preservation"),
    ("stlc", "type_let_binds_int", "preservation"),
    ("stlc", "type_var_from_outside", "subst_preserves_type"),
    ("stlc", "type_if_else_unchecked", "preservation"),
    ("rbt", "insert_no_blacken", "insert_valid"),
    ("rbt", "insert_keeps_old_value", "insert_model"),
    ("rbt", "insert_compare_flipped", "insert_post"),
    ("rbt", "delete_compare_flipped", "delete_post"),
    ("rbt", "delete_no_blacken", "delete_valid"),
    ("heap", "merge_keeps_larger_root", "merge_valid"),
    ("heap", "make_no_swap", "merge_valid"),
    ("heap", "rank_from_left", "merge_valid"),
    ("heap", "delete_min_drops_right", "delete_min_model"),
];

/// Runs the line and returns its exit code: 0 when no drop-in finds fewer tasks than its plain
/// framework on any workload, 1 otherwise.
pub(crate) fn run(options: &Options) -> i32 {
    let mut rows = Vec::new();
    for &(workload, bug, property) in TASKS {
        let spec = workloads::find(workload).expect("a CI task names a known workload");
        debug_assert_eq!(spec.set, Set::Evaluation);
        for trial in 0..SEEDS {
            for tool in Tool::ALL {
                rows.push(Row {
                    set: spec.set,
                    workload: spec.name,
                    request: Request {
                        workload: workload.to_string(),
                        tool,
                        bug: Some(bug.to_string()),
                        property: property.to_string(),
                        seed: super::super::trial_seed(options.seed, trial),
                        budget: Budget::Cap(CAP),
                        dropin_max_tests: options.weaken.then_some(WEAKENED_TESTS),
                    },
                    control: false,
                    outcome: Outcome::default(),
                });
            }
        }
    }
    let rows = execute(rows, options.jobs);
    let failures = regressions(&rows);
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Drop-in regression line\n\n`{}`\n\n{} tasks, {SEEDS} seeds, cap {} s; a task counts \
         when found in any seed.\n",
        options.command,
        TASKS.len(),
        CAP.as_secs_f64()
    );
    for line in found_lines(&rows) {
        println!("{line}");
        let _ = writeln!(md, "- {line}");
    }
    if let Err(error) = write(&options.out, "ci", &rows, &md) {
        eprintln!("typefuzz-bench dropin --ci: could not write the report: {error}");
    }
    if failures.is_empty() {
        println!("dropin --ci: no drop-in finds fewer tasks than its plain framework");
        0
    } else {
        for failure in &failures {
            println!("dropin --ci: REGRESSION: {failure}");
        }
        1
    }
}

/// Tasks found in any seed, per workload and tool.
fn found_counts(rows: &[Row]) -> BTreeMap<(&'static str, Tool), usize> {
    let (_, cells) = cells(rows);
    let mut counts = BTreeMap::new();
    for ((task, tool), cell) in &cells {
        *counts.entry((task.0, *tool)).or_insert(0) += usize::from(cell.found_any());
    }
    counts
}

fn found_lines(rows: &[Row]) -> Vec<String> {
    found_counts(rows)
        .iter()
        .map(|((w, tool), n)| format!("{w}: {} found {n}", tool.name()))
        .collect()
}

/// Every (workload, drop-in) whose count of tasks found in any seed is below its plain
/// framework's.
pub(crate) fn regressions(rows: &[Row]) -> Vec<String> {
    let counts = found_counts(rows);
    let mut failures = Vec::new();
    for (&(workload, tool), &found) in &counts {
        if !tool.is_dropin() {
            continue;
        }
        let plain = counts.get(&(workload, tool.plain())).copied().unwrap_or(0);
        if found < plain {
            failures.push(format!(
                "{workload}: {} found {found} tasks, {} found {plain}",
                tool.name(),
                tool.plain().name()
            ));
        }
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(tool: Tool, bug: &str, seed: u64, found: bool) -> Row {
        Row {
            set: Set::Evaluation,
            workload: "heap",
            request: Request {
                workload: "heap".into(),
                tool,
                bug: Some(bug.into()),
                property: "merge_valid".into(),
                seed,
                budget: Budget::Cap(CAP),
                dropin_max_tests: None,
            },
            control: false,
            outcome: Outcome {
                found,
                ..Outcome::default()
            },
        }
    }

    #[test]
    fn a_dropin_that_finds_fewer_tasks_than_its_framework_fails_the_line() {
        // quickcheck finds both bugs (one in a single seed); its drop-in only one.
        let rows = vec![
            row(Tool::Quickcheck, "a", 1, true),
            row(Tool::Quickcheck, "a", 2, false),
            row(Tool::Quickcheck, "b", 1, true),
            row(Tool::Quickcheck, "b", 2, true),
            row(Tool::QuickcheckDropIn, "a", 1, false),
            row(Tool::QuickcheckDropIn, "a", 2, false),
            row(Tool::QuickcheckDropIn, "b", 1, true),
            row(Tool::QuickcheckDropIn, "b", 2, true),
            // proptest's drop-in finds more than proptest: fine.
            row(Tool::Proptest, "a", 1, false),
            row(Tool::ProptestDropIn, "a", 1, true),
        ];
        let failures = regressions(&rows);
        assert_eq!(
            failures,
            ["heap: quickcheck-dropin found 1 tasks, quickcheck found 2"]
        );
    }

    #[test]
    fn equal_counts_pass_the_line() {
        let rows = vec![
            row(Tool::Quickcheck, "a", 1, true),
            row(Tool::QuickcheckDropIn, "a", 2, true),
            row(Tool::Proptest, "a", 1, false),
            row(Tool::ProptestDropIn, "a", 1, false),
        ];
        assert!(regressions(&rows).is_empty());
    }

    #[test]
    fn a_crash_is_not_a_find() {
        let mut crashed = row(Tool::QuickcheckDropIn, "a", 1, true);
        crashed.outcome.crashed = true;
        let rows = vec![row(Tool::Quickcheck, "a", 1, true), crashed];
        assert_eq!(regressions(&rows).len(), 1);
    }
}
