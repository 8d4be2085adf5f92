//! The drop-in comparison's report: the CSV (one row per trial) and the markdown tables.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;

use super::workloads::Set;
use super::{Budget, Row, Tool};
use crate::runner::csv_file;
use crate::runner::stats::median;
use crate::runner::trials_report::{machine, secs};

/// A drop-in is worse on a task when its median time exceeds the plain framework's by more
/// than this factor and by more than [`WORSE_FLOOR_SECS`] (or when the plain framework solves
/// the task and the drop-in does not).
pub(crate) const WORSE_FACTOR: f64 = 1.5;
/// Below this difference in median time (seconds) a drop-in is not called slower: a bug both
/// find within a few milliseconds differs by the first inputs' draw and the process's warm-up
/// (0.1 ms against 0.3 ms is a 3x ratio no user waits for), not by the schedule.
pub(crate) const WORSE_FLOOR_SECS: f64 = 0.05;

/// Writes `<stem>.csv` and `<stem>.md` into `dir`, replacing the previous ones.
pub(crate) fn write(dir: &Path, stem: &str, rows: &[Row], markdown: &str) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    write_csv(&dir.join(format!("{stem}.csv")), rows)?;
    fs::write(dir.join(format!("{stem}.md")), markdown)?;
    eprintln!(
        "typefuzz-bench dropin: wrote {}/{stem}.csv and {stem}.md",
        dir.display()
    );
    Ok(())
}

/// One row of the CSV: one trial.
#[derive(serde::Serialize)]
struct TrialRecord<'a> {
    set: &'static str,
    workload: &'static str,
    tool: &'static str,
    budget: String,
    bug: &'a str,
    property: &'a str,
    seed: u64,
    found: bool,
    crashed: bool,
    #[serde(serialize_with = "csv_file::fixed::<6, _>")]
    seconds: f64,
    tests: u64,
    valid: u64,
    discards: u64,
    #[serde(serialize_with = "csv_file::fixed::<1, _>")]
    mean_nodes: f64,
    #[serde(serialize_with = "csv_file::fixed::<6, _>")]
    cpu_seconds: f64,
    note: &'a str,
}

fn write_csv(path: &Path, rows: &[Row]) -> io::Result<()> {
    csv_file::write(
        path,
        rows.iter().map(|row| {
            let (r, o) = (&row.request, &row.outcome);
            TrialRecord {
                set: row.set.name(),
                workload: row.workload,
                tool: r.tool.name(),
                budget: r.budget.arg(),
                bug: r.bug.as_deref().unwrap_or("none"),
                property: &r.property,
                seed: r.seed,
                found: o.found,
                crashed: o.crashed,
                seconds: o.seconds,
                tests: o.tests,
                valid: o.valid,
                discards: o.discards,
                mean_nodes: o.mean_nodes(),
                cpu_seconds: o.cpu_seconds,
                note: &o.note,
            }
        }),
    )
}

/// One (workload, task, tool) over its seeds.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cell {
    pub(crate) found: Vec<bool>,
    /// Time to failure per seed, the cap for seeds that did not find it.
    pub(crate) capped_seconds: Vec<f64>,
    pub(crate) crashes: usize,
}

impl Cell {
    /// Found in every seed (ETNA's "solved").
    pub(crate) fn solved(&self) -> bool {
        !self.found.is_empty() && self.found.iter().all(|&f| f)
    }

    pub(crate) fn found_any(&self) -> bool {
        self.found.iter().any(|&f| f)
    }

    fn found_count(&self) -> usize {
        self.found.iter().filter(|&&f| f).count()
    }

    pub(crate) fn median(&self) -> Option<f64> {
        median(&self.capped_seconds)
    }
}

/// A task's key: workload, bug, property.
pub(crate) type TaskKey = (&'static str, String, String);

/// The cells of the bug tasks (controls left out), by task and tool, in plan order.
pub(crate) fn cells(rows: &[Row]) -> (Vec<TaskKey>, BTreeMap<(TaskKey, Tool), Cell>) {
    let mut order = Vec::new();
    let mut cells: BTreeMap<(TaskKey, Tool), Cell> = BTreeMap::new();
    for row in rows.iter().filter(|r| !r.control) {
        let key: TaskKey = (
            row.workload,
            row.request.bug.clone().unwrap_or_default(),
            row.request.property.clone(),
        );
        if !order.contains(&key) {
            order.push(key.clone());
        }
        let cap = match row.request.budget {
            Budget::Cap(cap) => cap.as_secs_f64(),
            Budget::Framework => row.outcome.seconds,
        };
        let cell = cells.entry((key, row.request.tool)).or_default();
        let found = row.outcome.found && !row.outcome.crashed;
        cell.found.push(found);
        cell.capped_seconds
            .push(if found { row.outcome.seconds } else { cap });
        cell.crashes += usize::from(row.outcome.crashed);
    }
    (order, cells)
}

/// Why a drop-in is worse than its plain framework on a task, if it is.
pub(crate) fn worse(plain: &Cell, dropin: &Cell) -> Option<String> {
    if plain.solved() && !dropin.solved() {
        return Some(format!(
            "solved by plain ({}/{}), drop-in {}/{}",
            plain.found_count(),
            plain.found.len(),
            dropin.found_count(),
            dropin.found.len()
        ));
    }
    let (p, d) = (plain.median()?, dropin.median()?);
    (plain.found_any() && d > WORSE_FACTOR * p && d - p > WORSE_FLOOR_SECS).then(|| {
        format!(
            "median {} vs {} ({:.1}x)",
            secs(Some(d)),
            secs(Some(p)),
            d / p.max(1e-9)
        )
    })
}

fn workloads_in(rows: &[Row]) -> Vec<(Set, &'static str)> {
    let mut v: Vec<(Set, &'static str)> = Vec::new();
    for row in rows {
        if !v.contains(&(row.set, row.workload)) {
            v.push((row.set, row.workload));
        }
    }
    v
}

fn tools_in(rows: &[Row]) -> Vec<Tool> {
    let mut v: Vec<Tool> = rows.iter().map(|r| r.request.tool).collect();
    v.sort();
    v.dedup();
    v
}

/// Per workload and tool: tasks solved (all seeds), found in any seed, of all tasks.
pub(crate) fn solved_counts(rows: &[Row]) -> Vec<(&'static str, Tool, usize, usize, usize)> {
    let (order, cells) = cells(rows);
    let mut out = Vec::new();
    for (_, w) in workloads_in(rows) {
        for tool in tools_in(rows) {
            let tasks: Vec<&Cell> = order
                .iter()
                .filter(|k| k.0 == w)
                .filter_map(|k| cells.get(&(k.clone(), tool)))
                .collect();
            let solved = tasks.iter().filter(|c| c.solved()).count();
            let any = tasks.iter().filter(|c| c.found_any()).count();
            out.push((w, tool, solved, any, tasks.len()));
        }
    }
    out
}

/// The lines printed at the end of a run: `<workload>: <tool> solved <n>/<total> (any seed <m>)`.
pub(crate) fn summary_lines(rows: &[Row]) -> String {
    let mut out = String::new();
    for (w, tool, solved, any, total) in solved_counts(rows) {
        let _ = writeln!(
            out,
            "{w}: {} solved {solved}/{total} (found in any seed: {any})",
            tool.name()
        );
    }
    out
}

/// The markdown report of a task run.
pub(crate) fn tasks_markdown(rows: &[Row], budget: Budget, command: &str) -> String {
    let mut md = String::new();
    let seeds = rows
        .iter()
        .map(|r| r.request.seed)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let _ = writeln!(
        md,
        "# Drop-ins against their plain frameworks ({})\n\n`{command}`\n\n{}; {seeds} seed(s) \
         per task and tool; each trial a child process.\n",
        budget.label(),
        machine()
    );
    let (order, cells) = cells(rows);
    let tools = tools_in(rows);
    md.push_str(
        "## Tasks solved\n\nSolved = found in every seed (ETNA's rule); any = found in at least \
         one seed. Controls: no-bug trials that reported a failure (must be 0). Crashes: trials \
         whose child died.\n\n| set | workload | tool | solved | any seed | tasks | controls \
         failed | crashes |\n|---|---|---|---|---|---|---|---|\n",
    );
    for (w, tool, solved, any, total) in solved_counts(rows) {
        let set = rows.iter().find(|r| r.workload == w).map(|r| r.set.name());
        let of_tool = |r: &&Row| r.workload == w && r.request.tool == tool;
        let alarms = rows
            .iter()
            .filter(of_tool)
            .filter(|r| r.control && r.outcome.found)
            .count();
        let crashes = rows
            .iter()
            .filter(of_tool)
            .filter(|r| r.outcome.crashed)
            .count();
        let _ = writeln!(
            md,
            "| {} | {w} | {} | {solved} | {any} | {total} | {alarms} | {crashes} |",
            set.unwrap_or(""),
            tool.name()
        );
    }
    if budget == Budget::Framework {
        md.push_str("\n## Fraction of seeds that found each bug\n\n| workload | bug | property |");
        for tool in &tools {
            let _ = write!(md, " {} |", tool.name());
        }
        md.push_str(&format!("\n|---|---|---|{}\n", "---|".repeat(tools.len())));
        for key in &order {
            let _ = write!(md, "| {} | {} | {} |", key.0, key.1, key.2);
            for &tool in &tools {
                let cell = cells.get(&(key.clone(), tool));
                let text = cell.map_or("–".to_string(), |c| {
                    format!("{}/{}", c.found_count(), c.found.len())
                });
                let _ = write!(md, " {text} |");
            }
            md.push('\n');
        }
        return md;
    }
    for dropin in [Tool::ProptestDropIn, Tool::QuickcheckDropIn] {
        let plain = dropin.plain();
        if !tools.contains(&dropin) || !tools.contains(&plain) {
            continue;
        }
        let _ = writeln!(
            md,
            "\n## {} against {}\n\nMedian time to failure over the seeds (a seed that did not \
             find the bug counts as the cap); ratio = drop-in / plain. Worse: solved by plain \
             and not by the drop-in, or median more than {WORSE_FACTOR}x plain's and more than \
             {floor_ms} ms longer.\n\n| workload \
             | bug | property | {} found | {} median | {} found | {} median | ratio | worse |\n\
             |---|---|---|---|---|---|---|---|---|",
            dropin.name(),
            plain.name(),
            plain.name(),
            plain.name(),
            dropin.name(),
            dropin.name(),
            floor_ms = WORSE_FLOOR_SECS * 1000.0
        );
        let mut worse_count: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for key in &order {
            let (Some(p), Some(d)) = (
                cells.get(&(key.clone(), plain)),
                cells.get(&(key.clone(), dropin)),
            ) else {
                continue;
            };
            let entry = worse_count.entry(key.0).or_default();
            entry.1 += 1;
            let verdict = worse(p, d);
            entry.0 += usize::from(verdict.is_some());
            if !p.found_any() && !d.found_any() {
                continue;
            }
            let (pm, dm) = (p.median(), d.median());
            let ratio = match (pm, dm) {
                (Some(p), Some(d)) => format!("{:.2}", d / p.max(1e-9)),
                _ => "–".into(),
            };
            let _ = writeln!(
                md,
                "| {} | {} | {} | {}/{} | {} | {}/{} | {} | {ratio} | {} |",
                key.0,
                key.1,
                key.2,
                p.found_count(),
                p.found.len(),
                secs(pm),
                d.found_count(),
                d.found.len(),
                secs(dm),
                verdict.unwrap_or_default()
            );
        }
        md.push_str("\nTasks where the drop-in is worse, per workload: ");
        let parts: Vec<String> = worse_count
            .iter()
            .map(|(w, (n, total))| format!("{w} {n}/{total}"))
            .collect();
        md.push_str(&parts.join(", "));
        md.push_str(".\n");
    }
    md
}

/// The markdown of a throughput run: per workload and tool, inputs, valid inputs and nodes per
/// second (wall clock) and per CPU second, the valid share and mean nodes, and each drop-in's
/// ratios to its plain framework.
pub(crate) fn throughput_markdown(
    rows: &[Row],
    seconds: std::time::Duration,
    command: &str,
) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Throughput of the drop-ins and their plain frameworks\n\n`{command}`\n\n{}; each tool \
         runs a no-bug property for {} s in its own child process. Rates per CPU second divide by \
         the CPU time of the trial's process: on a shared machine a trial also waits for a core, \
         which moves the wall-clock rates with the load.\n\n| workload | property | tool | \
         inputs/s | valid/s | valid % | mean nodes | nodes/s | inputs/CPU s | nodes/CPU s | vs \
         plain: inputs/s | nodes/s | inputs/CPU s | nodes/CPU s |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        machine(),
        seconds.as_secs_f64()
    );
    let rates = |r: &Row| {
        let o = &r.outcome;
        let (wall, cpu) = (o.seconds.max(1e-9), o.cpu_seconds.max(1e-9));
        let (tests, nodes) = (o.tests as f64, o.nodes as f64);
        [tests / wall, nodes / wall, tests / cpu, nodes / cpu]
    };
    for row in rows {
        let o = &row.outcome;
        let rate = rates(row);
        let plain = rows
            .iter()
            .find(|p| p.workload == row.workload && p.request.tool == row.request.tool.plain());
        let ratios = match plain {
            Some(p) if row.request.tool.is_dropin() => {
                let base = rates(p);
                let ratio: Vec<String> = (0..4)
                    .map(|i| format!("{:.2}", rate[i] / base[i].max(1e-9)))
                    .collect();
                ratio.join(" | ")
            }
            _ => "– | – | – | –".into(),
        };
        let crashed = if o.crashed { " (crashed)" } else { "" };
        let _ = writeln!(
            md,
            "| {} | {} | {}{crashed} | {:.0} | {:.0} | {:.1} | {:.1} | {:.0} | {:.0} | {:.0} | \
             {ratios} |",
            row.workload,
            row.request.property,
            row.request.tool.name(),
            rate[0],
            o.valid as f64 / o.seconds.max(1e-9),
            100.0 * o.valid as f64 / o.tests.max(1) as f64,
            o.mean_nodes(),
            rate[1],
            rate[2],
            rate[3],
        );
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::dropin::trial::{Outcome, Request};

    fn row(tool: Tool, tests: u64, nodes: u64, cpu_seconds: f64) -> Row {
        Row {
            set: Set::Development,
            workload: "bst",
            request: Request {
                workload: "bst".into(),
                tool,
                bug: None,
                property: "InsertValid".into(),
                seed: 1,
                budget: Budget::Cap(std::time::Duration::from_secs(2)),
                dropin_max_tests: None,
            },
            control: true,
            outcome: Outcome {
                seconds: 2.0,
                tests,
                valid: tests / 2,
                discards: tests / 2,
                nodes,
                cpu_seconds,
                ..Outcome::default()
            },
        }
    }

    #[test]
    fn throughput_rows_carry_wall_and_cpu_rates_and_the_drop_ins_ratios() {
        let rows = [
            row(Tool::Proptest, 1000, 10_000, 1.0),
            // Fewer inputs per wall-clock second, but its process waited more for a core.
            row(Tool::ProptestDropIn, 900, 4_500, 0.6),
        ];
        let md = throughput_markdown(&rows, std::time::Duration::from_secs(2), "cmd");
        let line = |tool: &str| {
            md.lines()
                .find(|l| l.contains(&format!("| {tool} |")))
                .unwrap()
                .to_string()
        };
        // inputs/s, valid/s, valid %, mean nodes, nodes/s, inputs/CPU s, nodes/CPU s.
        assert!(
            line("proptest").contains("| 500 | 250 | 50.0 | 10.0 | 5000 | 1000 | 10000 | – |"),
            "{md}"
        );
        // Ratios to plain proptest: 450/500, 2250/5000, 1500/1000, 7500/10000.
        assert!(
            line("proptest-dropin").ends_with("| 0.90 | 0.45 | 1.50 | 0.75 |"),
            "{md}"
        );
    }

    fn cell(seconds: &[f64]) -> Cell {
        Cell {
            found: seconds.iter().map(|&s| s < 10.0).collect(),
            capped_seconds: seconds.to_vec(),
            crashes: 0,
        }
    }

    #[test]
    fn worse_needs_the_factor_and_the_floor_or_a_lost_task() {
        // 3x slower but 0.2 ms apart: the first inputs' draw, not the schedule.
        assert_eq!(
            worse(&cell(&[0.0001, 0.0001]), &cell(&[0.0003, 0.0003])),
            None
        );
        // 3x slower and 200 ms apart.
        let slower = worse(&cell(&[0.1, 0.1]), &cell(&[0.3, 0.3])).expect("worse");
        assert!(slower.contains("3.0x"), "{slower}");
        // 1.4x slower, however long.
        assert_eq!(worse(&cell(&[5.0, 5.0]), &cell(&[7.0, 7.0])), None);
        // Solved by plain, not by the drop-in (a 10 s cap).
        let lost = worse(&cell(&[0.01, 0.01]), &cell(&[0.01, 10.0])).expect("worse");
        assert!(
            lost.starts_with("solved by plain (2/2), drop-in 1/2"),
            "{lost}"
        );
    }
}
