//! Output: one CSV row per trial, a markdown report and SVG charts.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;
use std::time::Duration;

use plotters::prelude::*;

use super::csv_file;
use super::jobs::Workload;
use super::stats::{a12, mean, median, Summary, BUCKETS};
use super::strategy::Strategy;
use super::{Options, Row};

/// Published per-mutant numbers (the FuzzChick and MUTAGEN papers' IFC results, as the MUTAGEN
/// authors' raw data gives them): FuzzChick failure rate out of 30 one-hour
/// runs, MUTAGEN mean and max time (s, every run found it) and mean tests.
const PUBLISHED_IFC: [(u32, f64, f64, u32); 20] = [
    (30, 0.34, 0.76, 3_633),
    (21, 0.67, 2.56, 7_122),
    (20, 0.44, 1.40, 4_634),
    (19, 1.57, 17.5, 16_831),
    (28, 0.22, 0.60, 2_327),
    (22, 0.21, 0.95, 2_313),
    (30, 0.03, 0.25, 333),
    (30, 0.03, 0.15, 299),
    (11, 2.47, 18.1, 26_342),
    (4, 2.36, 10.6, 25_044),
    (21, 0.24, 0.64, 2_537),
    (8, 1.35, 5.29, 14_483),
    (16, 1.26, 4.95, 13_455),
    (28, 0.37, 1.28, 3_928),
    (26, 4.10, 9.61, 43_678),
    (30, 2.59, 8.92, 27_602),
    (30, 4.92, 32.3, 52_345),
    (8, 11.7, 46.7, 123_401),
    (15, 2.88, 15.9, 30_682),
    (26, 1.51, 5.05, 15_842),
];

pub(crate) fn write_all(
    options: &Options,
    rows: &[Row],
    summary: &Summary,
    elapsed: Duration,
) -> io::Result<()> {
    fs::create_dir_all(&options.out)?;
    write_csv(&options.out.join("trials.csv"), rows)?;
    let strategies = strategies_in(rows);
    let workloads = workloads_in(rows);
    let markdown = markdown(options, summary, &strategies, &workloads, elapsed);
    fs::write(options.out.join("report.md"), markdown)?;
    if workloads.contains(&Workload::Ifc) {
        ifc_chart(
            &options.out.join("ifc_time_to_failure.svg"),
            summary,
            &strategies,
        )
        .map_err(|e| io::Error::other(e.to_string()))?;
    }
    for &w in &workloads {
        let file = format!("{}_buckets.svg", w.name().to_lowercase());
        buckets_chart(&options.out.join(file), summary, w, &strategies)
            .map_err(|e| io::Error::other(e.to_string()))?;
    }
    eprintln!(
        "typefuzz-bench: wrote trials.csv, report.md and charts to {}",
        options.out.display()
    );
    Ok(())
}

fn strategies_in(rows: &[Row]) -> Vec<Strategy> {
    let mut v: Vec<Strategy> = rows.iter().map(|r| r.strategy).collect();
    v.sort();
    v.dedup();
    v
}

fn workloads_in(rows: &[Row]) -> Vec<Workload> {
    let mut v: Vec<Workload> = rows.iter().map(|r| r.job.workload).collect();
    v.sort();
    v.dedup();
    v
}

/// One row of `trials.csv`: one trial.
#[derive(serde::Serialize)]
struct TrialRecord<'a> {
    workload: &'a str,
    task: &'a str,
    control: bool,
    strategy: &'a str,
    trial: usize,
    seed: u64,
    #[serde(serialize_with = "csv_file::shortest")]
    cap_s: f64,
    found: bool,
    #[serde(serialize_with = "csv_file::fixed::<6, _>")]
    seconds: f64,
    passed: u64,
    discarded: u64,
    tests: u64,
    #[serde(serialize_with = "csv_file::fixed::<4, _>")]
    valid_rate: f64,
    unique_valid: Option<u64>,
    #[serde(serialize_with = "csv_file::fixed::<0, _>")]
    tests_per_s: f64,
    shrink_steps: u64,
    coverage_points: u64,
    coverage_features: u64,
    seeds_found: u64,
    restarts: u64,
    counterexample: &'a str,
}

fn write_csv(path: &Path, rows: &[Row]) -> io::Result<()> {
    csv_file::write(
        path,
        rows.iter().map(|row| {
            let r = &row.result;
            TrialRecord {
                workload: row.job.workload.name(),
                task: &row.job.task,
                control: row.job.control,
                strategy: row.strategy.name(),
                trial: row.trial,
                seed: row.seed,
                cap_s: row.cap.as_secs_f64(),
                found: r.found,
                seconds: r.seconds,
                passed: r.passed,
                discarded: r.discarded,
                tests: r.tests(),
                valid_rate: r.passed as f64 / r.tests().max(1) as f64,
                unique_valid: r.unique_valid,
                tests_per_s: r.tests_per_second(),
                shrink_steps: r.shrink_steps,
                coverage_points: r.coverage_points,
                coverage_features: r.coverage_features,
                seeds_found: r.seeds_found,
                restarts: r.restarts,
                counterexample: &r.counterexample,
            }
        }),
    )
}

pub(crate) fn secs(t: Option<f64>) -> String {
    match t {
        None => "–".into(),
        Some(t) if t < 0.001 => format!("{:.2} ms", t * 1000.0),
        Some(t) if t < 1.0 => format!("{:.0} ms", t * 1000.0),
        Some(t) => format!("{t:.2} s"),
    }
}

fn count(t: Option<f64>) -> String {
    t.map_or("–".into(), |t| format!("{t:.0}"))
}

fn markdown(
    options: &Options,
    summary: &Summary,
    strategies: &[Strategy],
    workloads: &[Workload],
    elapsed: Duration,
) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# typefuzz benchmark: `{}` mode\n", options.mode.name());
    let _ = writeln!(md, "Command: `{}`  ", options.command);
    let _ = writeln!(
        md,
        "Trials per (task, strategy): {}; base seed {}; wall time {:.0} s; machine: {}.\n",
        options.trials,
        options.seed,
        elapsed.as_secs_f64(),
        machine()
    );
    let _ = writeln!(
        md,
        "Times are wall-clock seconds to the first failure, excluding shrinking. \"MTTF\" is the \
         mean over the trials that found the bug; \"capped mean\" counts a trial that found \
         nothing as its full cap. Tests = property calls (passed + discarded) up to and \
         including the failing one. A task is solved when every trial found it (ETNA).\n"
    );
    // Summary.
    let _ = writeln!(md, "## Summary\n");
    let _ = writeln!(
        md,
        "| workload | strategy | solved | trials found (rate) | median time | worst time | capped mean | valid rate | unique valid / trial | tests/s | controls |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|");
    for &w in workloads {
        for &s in strategies {
            let cells: Vec<_> = summary.of(w, s);
            if cells.is_empty() {
                continue;
            }
            let tasks: Vec<_> = cells.iter().filter(|c| !c.control).collect();
            let (solved, total) = summary.solved(w, s);
            let found: usize = tasks.iter().map(|c| c.found).sum();
            let trials: usize = tasks.iter().map(|c| c.trials).sum();
            let times: Vec<f64> = tasks.iter().flat_map(|c| c.times.iter().copied()).collect();
            let capped = mean(&tasks.iter().map(|c| c.mttf_capped()).collect::<Vec<_>>());
            let passed: u64 = cells.iter().map(|c| c.passed).sum();
            let discarded: u64 = cells.iter().map(|c| c.discarded).sum();
            let seconds: f64 = cells.iter().map(|c| c.seconds).sum();
            let (bad, runs) = summary.false_alarms(w, s);
            let worst = tasks
                .iter()
                .filter_map(|c| c.max_time())
                .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.max(t))));
            let unique = mean(
                &cells
                    .iter()
                    .filter_map(|c| c.mean_unique())
                    .collect::<Vec<_>>(),
            );
            let rate = mean(&tasks.iter().map(|c| c.failure_rate()).collect::<Vec<_>>());
            let _ = writeln!(
                md,
                "| {} | {} | {solved}/{total} | {found}/{trials} ({:.2}) | {} | {} | {} | {:.3} | {} | {:.0} | {} |",
                w.name(),
                s.name(),
                rate.unwrap_or(0.0),
                secs(median(&times)),
                secs(worst),
                secs(capped),
                passed as f64 / (passed + discarded).max(1) as f64,
                count(unique),
                (passed + discarded) as f64 / seconds.max(1e-9),
                if runs == 0 {
                    "–".to_string()
                } else {
                    format!("{bad} failures / {runs} runs")
                }
            );
        }
    }
    for &w in workloads {
        per_task_table(&mut md, summary, w, strategies);
        buckets_table(&mut md, summary, w, strategies);
    }
    if workloads.contains(&Workload::Ifc) || workloads.contains(&Workload::Bst) {
        a12_table(&mut md, summary, workloads);
    }
    md
}

fn per_task_table(md: &mut String, summary: &Summary, w: Workload, strategies: &[Strategy]) {
    let _ = writeln!(md, "\n## {}: per task\n", w.name());
    let _ = writeln!(
        md,
        "Each cell: trials found / trials, median time to failure, mean tests to failure \
         (successful trials), valid-input rate.\n"
    );
    let mut header = String::from("| task |");
    let mut rule = String::from("|---|");
    for s in strategies {
        let _ = write!(header, " {} |", s.name());
        rule.push_str("---|");
    }
    if w == Workload::Ifc {
        header.push_str(" FuzzChick FR /30 (published) | MUTAGEN mean / max s (published) |");
        rule.push_str("---|---|");
    }
    let _ = writeln!(md, "{header}\n{rule}");
    for (index, first) in summary.tasks(w) {
        let label = if first.detail.is_empty() {
            first.task.clone()
        } else {
            format!("{} {}", first.task, first.detail)
        };
        let mut line = format!("| {label} |");
        for &s in strategies {
            match summary.cell(w, index, s) {
                Some(c) => {
                    let _ = write!(
                        line,
                        " {}/{} {} {} v{:.2} |",
                        c.found,
                        c.trials,
                        secs(c.median_time()),
                        count(c.mean_tests()),
                        c.valid_rate()
                    );
                }
                None => line.push_str(" n/a |"),
            }
        }
        if w == Workload::Ifc {
            match first.ifc_index.map(|i| PUBLISHED_IFC[i]) {
                Some((fr, mean, max, _)) => {
                    let _ = write!(line, " {fr}/30 | {mean} / {max} |");
                }
                None => line.push_str(" – | – |"),
            }
        }
        let _ = writeln!(md, "{line}");
    }
}

fn buckets_table(md: &mut String, summary: &Summary, w: Workload, strategies: &[Strategy]) {
    let _ = writeln!(
        md,
        "\n### {}: ETNA task buckets (mean solve time over trials; unsolved = missed in some trial)\n",
        w.name()
    );
    let _ = writeln!(md, "| strategy | {} |", BUCKETS.join(" | "));
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for &s in strategies {
        let cells: Vec<_> = summary
            .of(w, s)
            .into_iter()
            .filter(|c| !c.control)
            .collect();
        if cells.is_empty() {
            continue;
        }
        let mut b = [0usize; 5];
        for c in cells {
            b[c.bucket()] += 1;
        }
        let _ = writeln!(
            md,
            "| {} | {} |",
            s.name(),
            b.map(|n| n.to_string()).join(" | ")
        );
    }
}

fn a12_table(md: &mut String, summary: &Summary, workloads: &[Workload]) {
    let _ = writeln!(
        md,
        "\n## Vargha-Delaney A12: typefuzz (default) vs typefuzz-fuzzchick\n\n\
         Probability that a default trial finds the bug sooner than a FuzzChick-schedule trial \
         (a trial that found nothing is slower than any that did). > 0.5 favours the default; \
         0.56 / 0.64 / 0.71 are the usual small / medium / large thresholds.\n"
    );
    let _ = writeln!(md, "| workload | tasks | mean A12 | favourable (> 0.56) | negligible | unfavourable (< 0.44) |");
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for &w in workloads {
        if w == Workload::Micro {
            continue;
        }
        let mut values = Vec::new();
        for (index, c) in summary.tasks(w) {
            if c.control {
                continue;
            }
            let (Some(d), Some(f)) = (
                summary.cell(w, index, Strategy::Typefuzz),
                summary.cell(w, index, Strategy::TypefuzzFuzzChick),
            ) else {
                continue;
            };
            if let Some(a) = a12(&d.per_trial, &f.per_trial) {
                values.push(a);
            }
        }
        if values.is_empty() {
            continue;
        }
        let fav = values.iter().filter(|&&a| a > 0.56).count();
        let unf = values.iter().filter(|&&a| a < 0.44).count();
        let _ = writeln!(
            md,
            "| {} | {} | {:.2} | {fav} | {} | {unf} |",
            w.name(),
            values.len(),
            mean(&values).unwrap_or(0.5),
            values.len() - fav - unf
        );
    }
}

/// CPU model and core count, from `/proc/cpuinfo` where available.
pub(crate) fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    format!(
        "{model}, {cores} cores available, trials run one at a time, {} {}",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

const COLORS: [RGBColor; 11] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 0, 0),
];

fn color(s: Strategy) -> RGBColor {
    COLORS[Strategy::ALL.iter().position(|&x| x == s).unwrap_or(0) % COLORS.len()]
}

/// Time to failure per IFC mutant on a log scale, one marker per trial and strategy; trials
/// that found nothing are crosses on the cap line (FuzzChick's figure 4, per trial).
fn ifc_chart(
    path: &Path,
    summary: &Summary,
    strategies: &[Strategy],
) -> Result<(), Box<dyn std::error::Error>> {
    let cap = summary
        .cells
        .values()
        .map(|c| c.cap.as_secs_f64())
        .fold(1.0, f64::max);
    let root = SVGBackend::new(path, (1000, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "IFC: time to failure per mutant (log scale; x = not found within the cap)",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..19.5f64, (1e-5f64..cap * 1.5).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("mutant index")
        .y_desc("seconds to first failure")
        .x_labels(20)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:e}"))
        .draw()?;
    chart.draw_series(LineSeries::new([(-0.5, cap), (19.5, cap)], BLACK.mix(0.3)))?;
    let n = strategies.len().max(1) as f64;
    for (k, &s) in strategies.iter().enumerate() {
        let c = color(s);
        let offset = (k as f64 - (n - 1.0) / 2.0) * (0.8 / n);
        let mut found = Vec::new();
        let mut missed = Vec::new();
        for ((_, _, st), cell) in &summary.cells {
            let Some(i) = cell.ifc_index.filter(|_| *st == s) else {
                continue;
            };
            for t in &cell.per_trial {
                match t {
                    Some(t) => found.push((i as f64 + offset, t.max(1e-5))),
                    None => missed.push((i as f64 + offset, cap)),
                }
            }
        }
        chart
            .draw_series(
                found
                    .into_iter()
                    .map(move |p| Circle::new(p, 3, c.filled())),
            )?
            .label(s.name())
            .legend(move |(x, y)| Circle::new((x, y), 4, c.filled()));
        chart.draw_series(missed.into_iter().map(move |p| Cross::new(p, 4, c)))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// ETNA's task-bucket chart: per strategy, a stacked bar of tasks by mean solve time.
fn buckets_chart(
    path: &Path,
    summary: &Summary,
    w: Workload,
    strategies: &[Strategy],
) -> Result<(), Box<dyn std::error::Error>> {
    let rows: Vec<(Strategy, [usize; 5])> = strategies
        .iter()
        .filter_map(|&s| {
            let cells: Vec<_> = summary
                .of(w, s)
                .into_iter()
                .filter(|c| !c.control)
                .collect();
            if cells.is_empty() {
                return None;
            }
            let mut b = [0usize; 5];
            for c in cells {
                b[c.bucket()] += 1;
            }
            Some((s, b))
        })
        .collect();
    let total = rows
        .first()
        .map_or(1, |(_, b)| b.iter().sum::<usize>())
        .max(1) as f64;
    let root = SVGBackend::new(path, (900, 80 + 40 * rows.len() as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let labels: Vec<&str> = rows.iter().map(|(s, _)| s.name()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{}: tasks by mean solve time (ETNA buckets)", w.name()),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(170)
        .build_cartesian_2d(0f64..total, -0.5f64..(rows.len() as f64 - 0.5))?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(rows.len().max(1))
        .y_label_formatter(&|y| {
            let i = y.round();
            if (y - i).abs() < 1e-6 && i >= 0.0 {
                labels
                    .get(i as usize)
                    .map_or(String::new(), |s| s.to_string())
            } else {
                String::new()
            }
        })
        .x_desc("tasks")
        .draw()?;
    let shades = [
        RGBColor(0, 104, 55),
        RGBColor(49, 163, 84),
        RGBColor(173, 221, 142),
        RGBColor(255, 237, 160),
        RGBColor(215, 48, 39),
    ];
    for (bucket, name) in BUCKETS.iter().enumerate() {
        let shade = shades[bucket];
        let bars: Vec<_> = rows
            .iter()
            .enumerate()
            .map(|(i, (_, b))| {
                let start: usize = b[..bucket].iter().sum();
                let y = i as f64;
                Rectangle::new(
                    [
                        (start as f64, y - 0.35),
                        ((start + b[bucket]) as f64, y + 0.35),
                    ],
                    shade.filled(),
                )
            })
            .collect();
        chart
            .draw_series(bars)?
            .label(*name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], shade.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
