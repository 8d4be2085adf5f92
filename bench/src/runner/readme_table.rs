//! The README's results table, regenerated from the committed quick report
//! (`bench/results/quick/report.md`) between the lines `<!-- quick-table:begin -->` and
//! `<!-- quick-table:end -->`:
//!
//! ```text
//! cargo run --release -p typefuzz-bench -- readme-table           rewrite README.md
//! cargo run --release -p typefuzz-bench -- readme-table --check   exit 1 if README.md's table differs
//! ```
//!
//! The table names the command the report records (without its `--out`) and the commit that
//! committed the report (`git log`; in a shallow clone, which cannot tell, the commit README.md
//! already names).

use std::path::Path;
use std::process::Command;

const REPORT: &str = "bench/results/quick/report.md";
const README: &str = "README.md";
const BEGIN: &str = "<!-- quick-table:begin -->";
const END: &str = "<!-- quick-table:end -->";

/// `typefuzz-bench readme-table [--check]`: returns the exit code (1 if a file is missing or
/// malformed, or with `check` if README.md's table is stale).
pub(crate) fn run_cli(check: bool) -> i32 {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match regenerate(&root) {
        Err(error) => {
            eprintln!("readme-table: {error}");
            1
        }
        Ok(table) if check => {
            if table.updated == table.readme {
                0
            } else {
                eprintln!(
                    "readme-table: README.md's results table is stale: run `cargo run --release \
                     -p typefuzz-bench -- readme-table`; from {REPORT} it reads:\n{}",
                    table.block
                );
                1
            }
        }
        Ok(table) => match std::fs::write(root.join(README), &table.updated) {
            Ok(()) => {
                println!(
                    "readme-table: README.md's table regenerated from {REPORT} ({} rows, \
                     commit {})",
                    table.rows, table.commit
                );
                0
            }
            Err(error) => {
                eprintln!("readme-table: could not write README.md: {error}");
                1
            }
        },
    }
}

/// README.md as it is and as it would be with the table regenerated.
struct Regenerated {
    readme: String,
    updated: String,
    /// The table between and with its markers.
    block: String,
    rows: usize,
    commit: String,
}

fn regenerate(root: &Path) -> Result<Regenerated, String> {
    let report = std::fs::read_to_string(root.join(REPORT))
        .map_err(|error| format!("{REPORT} is missing: {error}"))?;
    let readme =
        std::fs::read_to_string(root.join(README)).map_err(|error| format!("{README}: {error}"))?;
    if !(readme.lines().any(|l| l == BEGIN) && readme.lines().any(|l| l == END)) {
        return Err(format!("{README} has no quick-table markers"));
    }
    let command = report
        .lines()
        .find_map(|line| line.strip_prefix("Command: `")?.rsplit_once('`'))
        .map(|(command, _)| without_out(command))
        .unwrap_or_default();
    let commit = commit(root, &readme).unwrap_or_else(|| "(not committed)".into());
    let rows = summary_rows(&report);
    if rows.is_empty() {
        return Err(format!("no summary rows found in {REPORT}"));
    }
    let block = table(&command, &commit, &rows);
    Ok(Regenerated {
        updated: replace_block(&readme, &block),
        readme,
        block,
        rows: rows.len(),
        commit,
    })
}

/// `command` without its first `--out DIR`: where the report went is not how to reproduce it.
fn without_out(command: &str) -> String {
    match command.split_once(" --out ") {
        Some((before, after)) => {
            let rest = after.find(' ').map_or("", |space| &after[space..]);
            format!("{before}{rest}")
        }
        None => command.to_string(),
    }
}

/// The commit that committed the report; in a shallow clone, the one README.md names.
fn commit(root: &Path, readme: &str) -> Option<String> {
    let git = |args: &[&str]| {
        let output = Command::new("git")
            .current_dir(root)
            .args(args)
            .output()
            .ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        Some(text.trim().to_string()).filter(|t| output.status.success() && !t.is_empty())
    };
    if git(&["rev-parse", "--is-shallow-repository"]).as_deref() == Some("true") {
        readme.lines().find_map(|line| {
            let (_, rest) = line.split_once("`, report committed in `")?;
            let (commit, _) = rest.split_once('`')?;
            Some(commit.to_string()).filter(|c| c.chars().all(|c| c.is_ascii_hexdigit()))
        })
    } else {
        git(&["log", "-1", "--format=%h", "--", REPORT])
    }
}

/// The summary table's rows, each as the README's columns: workload, strategy, solved, median
/// time, worst time, tests/s (of the report's workload, strategy, solved, trials found, median
/// time, worst time, capped mean, valid rate, unique valid / trial, tests/s, controls).
fn summary_rows(report: &str) -> Vec<[String; 6]> {
    let mut rows = Vec::new();
    let mut in_summary = false;
    for line in report.lines() {
        if line.starts_with("## Summary") {
            in_summary = true;
            continue;
        }
        if !in_summary {
            continue;
        }
        if line.starts_with("## ") {
            break;
        }
        let Some(rest) = line.strip_prefix("| ") else {
            continue;
        };
        let cells: Vec<&str> = rest.split('|').map(|cell| cell.trim_matches(' ')).collect();
        let cell = |i: usize| cells.get(i).copied().unwrap_or_default().to_string();
        let first = cell(0);
        if first == "workload" || (!first.is_empty() && first.chars().all(|c| c == '-')) {
            continue;
        }
        rows.push([cell(0), cell(1), cell(2), cell(4), cell(5), cell(9)]);
    }
    rows
}

fn table(command: &str, commit: &str, rows: &[[String; 6]]) -> String {
    let mut block = format!(
        "{BEGIN}\n`{command}`, report committed in `{commit}` ([{REPORT}]({REPORT})):\n\n\
         | workload | tool | bugs found | median time to failure | worst time | tests/s |\n\
         |---|---|---|---|---|---|\n"
    );
    for row in rows {
        block.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    block.push_str(END);
    block.push('\n');
    block
}

/// `readme` with the lines from the begin marker to the end marker replaced by `block`.
fn replace_block(readme: &str, block: &str) -> String {
    let mut out = String::with_capacity(readme.len());
    let mut skipping = false;
    for line in readme.split_inclusive('\n') {
        let bare = line.strip_suffix('\n').unwrap_or(line);
        if bare == BEGIN {
            out.push_str(block);
            skipping = true;
        } else if bare == END {
            skipping = false;
        } else if !skipping {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT_TEXT: &str = "# report\n\nCommand: `cargo run -- quick --out x/y --seed 3`  \n\n\
        ## Summary\n\n\
        | workload | strategy | solved | found | median | worst | mean | valid | unique | tests/s | controls |\n\
        |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n\
        | IFC | typefuzz | 20/20 | 20/20 | 0.01 s | 0.5 s | 0.1 | 0.3 | 9 | 1000 | ok |\n\n\
        ## IFC: per task\n\n| IFC | other | table |\n";

    #[test]
    fn the_table_takes_the_summary_columns_and_replaces_only_the_marked_block() {
        let rows = summary_rows(REPORT_TEXT);
        assert_eq!(
            rows,
            [["IFC", "typefuzz", "20/20", "0.01 s", "0.5 s", "1000"].map(String::from)]
        );
        assert_eq!(
            without_out("cargo run -- quick --out x/y --seed 3"),
            "cargo run -- quick --seed 3"
        );
        let block = table("cargo run -- quick", "abc1234", &rows);
        let readme = format!("intro\n{BEGIN}\nold\n{END}\noutro\n");
        let updated = replace_block(&readme, &block);
        assert_eq!(updated, format!("intro\n{block}outro\n"));
        assert!(updated.contains("| IFC | typefuzz | 20/20 | 0.01 s | 0.5 s | 1000 |\n"));
        assert_eq!(replace_block(&updated, &block), updated);
    }
}
