//! `--recheck CSV`: the tasks a campaign marked worse for a drop-in, run again with more seeds.
//!
//! A time to failure is close to exponential when a bug is found by one lucky input in many:
//! the median of five such times has a wide spread, and the ratio of two medians of five
//! comes out above 1.5x by chance for tools of the same speed (on a bug of the typed
//! expression language plain quickcheck's median was 2.3k tests over a campaign's five seeds
//! and 10.5k over thirty others). So a task a campaign marks worse is
//! re-run for the drop-in and its plain framework with `--seeds` seeds the campaign did not
//! use, and judged again by the same rule on them; the report gives the medians of tests to
//! failure beside the times, since tests do not move with the machine's load.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use super::report::{self, Cell, TaskKey};
use super::trial::Outcome;
use super::workloads;
use super::{Budget, Row, Tool};
use crate::runner::stats::median;
use crate::runner::trials_report::{machine, secs};

/// One row of a campaign's CSV, as [`report::write`] wrote it.
#[derive(serde::Deserialize)]
struct TrialRecord {
    workload: String,
    tool: String,
    budget: String,
    bug: String,
    property: String,
    seed: u64,
    found: bool,
    crashed: bool,
    seconds: f64,
    tests: u64,
    valid: u64,
    discards: u64,
    cpu_seconds: f64,
    note: String,
}

/// The trials of a campaign's CSV. A row naming a workload, tool or budget this binary does
/// not know is an error (the file is from another version of the bench), not skipped.
pub(crate) fn read_campaign(path: &Path) -> Result<Vec<Row>, String> {
    let mut reader =
        csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut rows = Vec::new();
    for (line, record) in reader.deserialize::<TrialRecord>().enumerate() {
        let at = |what: String| format!("{} row {}: {what}", path.display(), line + 1);
        let record = record.map_err(|e| at(e.to_string()))?;
        let spec = workloads::find(&record.workload)
            .ok_or_else(|| at(format!("unknown workload `{}`", record.workload)))?;
        let tool = Tool::parse(&record.tool)
            .ok_or_else(|| at(format!("unknown tool `{}`", record.tool)))?;
        let budget = Budget::parse(&record.budget).map_err(at)?;
        if budget == Budget::Framework {
            return Err(at(
                "a framework-budget report has no times to recheck".into()
            ));
        }
        let bug = (record.bug != "none").then_some(record.bug);
        let mut row = Row::planned(&spec, tool, bug, &record.property, record.seed, budget);
        row.outcome = Outcome {
            found: record.found,
            crashed: record.crashed,
            seconds: record.seconds,
            tests: record.tests,
            valid: record.valid,
            discards: record.discards,
            nodes: 0,
            cpu_seconds: record.cpu_seconds,
            note: record.note,
        };
        rows.push(row);
    }
    Ok(rows)
}

/// The tasks `rows` mark worse for a drop-in ([`report::worse`]), with that drop-in.
pub(crate) fn worse_tasks(rows: &[Row]) -> Vec<(TaskKey, Tool)> {
    let (order, cells) = report::cells(rows);
    let mut worse = Vec::new();
    for dropin in [Tool::ProptestDropIn, Tool::QuickcheckDropIn] {
        for key in &order {
            let (Some(plain), Some(ours)) = (
                cells.get(&(key.clone(), dropin.plain())),
                cells.get(&(key.clone(), dropin)),
            ) else {
                continue;
            };
            if report::worse(plain, ours).is_some() {
                worse.push((key.clone(), dropin));
            }
        }
    }
    worse
}

/// The recheck's trials: each task of `worse` for its drop-in and plain framework, `seeds`
/// seeds from `base` that the campaign's `used` seeds do not include, the tools of one seed
/// next to each other.
pub(crate) fn plan(
    worse: &[(TaskKey, Tool)],
    budget: Budget,
    seeds: usize,
    base: u64,
    used: &BTreeSet<u64>,
) -> Vec<Row> {
    let fresh_seeds: Vec<u64> = (0..)
        .map(|trial| super::super::trial_seed(base, trial))
        .filter(|seed| !used.contains(seed))
        .take(seeds)
        .collect();
    let mut rows = Vec::new();
    for ((workload, bug, property), dropin) in worse {
        let Some(spec) = workloads::find(workload) else {
            continue;
        };
        for &seed in &fresh_seeds {
            for tool in [dropin.plain(), *dropin] {
                let bug = Some(bug.clone());
                rows.push(Row::planned(&spec, tool, bug, property, seed, budget));
            }
        }
    }
    rows
}

/// The median of the tests each seed ran (to the failure, or to the cap).
fn median_tests(rows: &[Row], key: &TaskKey, tool: Tool) -> Option<f64> {
    let tests: Vec<f64> = rows
        .iter()
        .filter(|r| r.request.tool == tool && r.workload == key.0)
        .filter(|r| r.request.bug.as_deref() == Some(key.1.as_str()) && r.request.property == key.2)
        .map(|r| r.outcome.tests as f64)
        .collect();
    median(&tests)
}

/// The recheck's markdown: per task, each tool's finds, median time and median tests, the
/// ratios, and whether the drop-in is still worse by the campaign's rule.
pub(crate) fn markdown(
    rows: &[Row],
    worse: &[(TaskKey, Tool)],
    source: &Path,
    command: &str,
) -> String {
    let seeds = rows
        .iter()
        .map(|r| r.request.seed)
        .collect::<BTreeSet<_>>()
        .len();
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Recheck of the tasks a campaign marked worse for a drop-in\n\n`{command}`\n\n{}; \
         the tasks of `{}` where a drop-in was worse than its plain framework, each run again \
         for both with {seeds} seed(s) the campaign did not use; each trial a child process. \
         Worse: solved by plain and not by the drop-in, or median time more than {}x plain's \
         and more than {} ms longer (the campaign's rule). Tests: the median of the tests each \
         seed ran, to the failure or to the cap (they do not move with the machine's load).\n",
        machine(),
        source.display(),
        report::WORSE_FACTOR,
        report::WORSE_FLOOR_SECS * 1000.0,
    );
    md.push_str(
        "| workload | bug | property | drop-in | plain found | plain median | plain tests | \
         drop-in found | drop-in median | drop-in tests | time ratio | tests ratio | still worse |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let (_, cells) = report::cells(rows);
    let mut still = 0;
    for (key, dropin) in worse {
        let plain = dropin.plain();
        let empty = Cell::default();
        let p = cells.get(&(key.clone(), plain)).unwrap_or(&empty);
        let d = cells.get(&(key.clone(), *dropin)).unwrap_or(&empty);
        let verdict = report::worse(p, d);
        still += usize::from(verdict.is_some());
        let (pt, dt) = (
            median_tests(rows, key, plain),
            median_tests(rows, key, *dropin),
        );
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => format!("{:.2}", b / a.max(1e-9)),
            _ => "–".into(),
        };
        let count = |c: &Cell| {
            format!(
                "{}/{}",
                c.found.iter().filter(|&&f| f).count(),
                c.found.len()
            )
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            key.0,
            key.1,
            key.2,
            dropin.name(),
            count(p),
            secs(p.median()),
            pt.map_or("–".into(), |t| format!("{t:.0}")),
            count(d),
            secs(d.median()),
            dt.map_or("–".into(), |t| format!("{t:.0}")),
            ratio(p.median(), d.median()),
            ratio(pt, dt),
            verdict.unwrap_or_else(|| "no".into()),
        );
    }
    let _ = writeln!(
        md,
        "\nStill worse after the recheck: {still} of the {} task(s) rechecked.",
        worse.len()
    );
    md
}

/// `dropin --recheck CSV`: reads the campaign, re-runs its worse tasks, writes
/// `recheck-<set>.csv`/`.md`. Returns the exit code.
pub(crate) fn run(options: &super::Options, source: &Path) -> i32 {
    let campaign = match read_campaign(source) {
        Ok(rows) => rows,
        Err(error) => {
            eprintln!("typefuzz-bench dropin --recheck: {error}");
            return 2;
        }
    };
    let Some(budget) = campaign.first().map(|r| r.request.budget) else {
        eprintln!(
            "typefuzz-bench dropin --recheck: {} has no trials",
            source.display()
        );
        return 2;
    };
    let worse = worse_tasks(&campaign);
    let used = campaign.iter().map(|r| r.request.seed).collect();
    let rows = plan(&worse, budget, options.seeds, options.seed, &used);
    eprintln!(
        "typefuzz-bench dropin --recheck: {} task(s) marked worse, {} trials",
        worse.len(),
        rows.len()
    );
    let rows = super::execute(rows, options.jobs);
    let sets: BTreeSet<&str> = campaign.iter().map(|r| r.set.name()).collect();
    let set = match sets.len() {
        1 => sets.into_iter().next().unwrap_or("all"),
        _ => "all",
    };
    let markdown = markdown(&rows, &worse, source, &options.command);
    match report::write(&options.out, &format!("recheck-{set}"), &rows, &markdown) {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("typefuzz-bench dropin: could not write the report: {error}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::dropin::trial::Request;
    use std::time::Duration;

    fn row(tool: Tool, seed: u64, found: bool, seconds: f64) -> Row {
        Row {
            set: workloads::Set::Evaluation,
            workload: "stlc",
            request: Request {
                workload: "stlc".into(),
                tool,
                bug: Some("if_swapped".into()),
                property: "eval_matches_reference".into(),
                seed,
                budget: Budget::Cap(Duration::from_secs(10)),
                dropin_max_tests: None,
            },
            control: false,
            outcome: Outcome {
                found,
                seconds,
                tests: (seconds * 1000.0) as u64,
                ..Outcome::default()
            },
        }
    }

    #[test]
    fn a_campaign_read_back_gives_its_worse_tasks_and_the_recheck_uses_new_seeds() {
        let mut rows = Vec::new();
        for seed in 1..=3 {
            rows.push(row(Tool::Quickcheck, seed, true, 0.1));
            rows.push(row(Tool::QuickcheckDropIn, seed, true, 1.0));
            rows.push(row(Tool::Proptest, seed, true, 0.1));
            rows.push(row(Tool::ProptestDropIn, seed, true, 0.12));
        }
        let dir = std::env::temp_dir().join(format!("typefuzz-recheck-{}", std::process::id()));
        report::write(&dir, "campaign-evaluation", &rows, "").unwrap();
        let read = read_campaign(&dir.join("campaign-evaluation.csv")).unwrap();
        assert_eq!(read.len(), rows.len());
        let worse = worse_tasks(&read);
        // The quickcheck drop-in is 10x slower; the proptest drop-in 1.2x, which is not worse.
        assert_eq!(worse.len(), 1, "{worse:?}");
        assert_eq!(worse[0].1, Tool::QuickcheckDropIn);
        let used = read.iter().map(|r| r.request.seed).collect();
        let plan = plan(&worse, read[0].request.budget, 4, 7, &used);
        assert_eq!(
            plan.len(),
            8,
            "4 seeds, the drop-in and its plain framework"
        );
        assert!(plan.iter().all(|r| !used.contains(&r.request.seed)));
        let tools: BTreeSet<&str> = plan.iter().map(|r| r.request.tool.name()).collect();
        assert_eq!(tools, BTreeSet::from(["quickcheck", "quickcheck-dropin"]));
        // On the recheck's seeds the drop-in is as fast: no longer worse.
        let mut rechecked = plan;
        for r in &mut rechecked {
            r.outcome = Outcome {
                found: true,
                seconds: 0.1,
                tests: 100,
                ..Outcome::default()
            };
        }
        let md = markdown(
            &rechecked,
            &worse,
            Path::new("campaign-evaluation.csv"),
            "cmd",
        );
        assert!(
            md.contains("Still worse after the recheck: 0 of the 1 task(s)"),
            "{md}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unknown_tool_in_the_campaign_is_an_error_naming_the_row() {
        let dir = std::env::temp_dir().join(format!("typefuzz-recheck-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("campaign.csv");
        std::fs::write(
            &path,
            "set,workload,tool,budget,bug,property,seed,found,crashed,seconds,tests,valid,\
             discards,mean_nodes,cpu_seconds,note\nevaluation,stlc,hypothesis,10000ms,if_swapped,\
             eval_matches_reference,1,true,false,0.1,10,1,1,3.0,0.1,\n",
        )
        .unwrap();
        let error = read_campaign(&path).unwrap_err();
        assert!(
            error.contains("row 1") && error.contains("hypothesis"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
