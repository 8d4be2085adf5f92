//! Derived measures: per (workload, task, strategy) aggregates, ETNA buckets, Vargha-Delaney A12.

use std::collections::BTreeMap;
use std::time::Duration;

use super::{Row, Strategy, Workload};

/// The aggregate of one (workload, task, strategy) cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cell {
    pub(crate) task: String,
    pub(crate) detail: String,
    pub(crate) control: bool,
    pub(crate) ifc_index: Option<usize>,
    pub(crate) trials: usize,
    pub(crate) found: usize,
    pub(crate) cap: Duration,
    /// Seconds to failure of the successful trials.
    pub(crate) times: Vec<f64>,
    /// Per trial: seconds to failure, or `None` if not found.
    pub(crate) per_trial: Vec<Option<f64>>,
    /// Tests (passed + discarded) to failure of the successful trials.
    pub(crate) tests_to_failure: Vec<u64>,
    pub(crate) passed: u64,
    pub(crate) discarded: u64,
    pub(crate) seconds: f64,
    pub(crate) unique_valid: Vec<u64>,
    pub(crate) counterexample: String,
}

impl Cell {
    /// ETNA's "solved": found in every trial.
    pub(crate) fn solved(&self) -> bool {
        self.trials > 0 && self.found == self.trials
    }

    pub(crate) fn failure_rate(&self) -> f64 {
        self.found as f64 / self.trials.max(1) as f64
    }

    /// Mean time to failure over the successful trials.
    pub(crate) fn mttf_found(&self) -> Option<f64> {
        mean(&self.times)
    }

    /// Mean over all trials, counting a trial without failure as its full cap (a lower bound
    /// on the true mean when some trials time out).
    pub(crate) fn mttf_capped(&self) -> f64 {
        let cap = self.cap.as_secs_f64();
        let sum: f64 = self.per_trial.iter().map(|t| t.unwrap_or(cap)).sum();
        sum / self.trials.max(1) as f64
    }

    pub(crate) fn median_time(&self) -> Option<f64> {
        median(&self.times)
    }

    pub(crate) fn max_time(&self) -> Option<f64> {
        self.times
            .iter()
            .copied()
            .fold(None, |m, t| Some(m.map_or(t, |m: f64| m.max(t))))
    }

    pub(crate) fn mean_tests(&self) -> Option<f64> {
        let v: Vec<f64> = self.tests_to_failure.iter().map(|&t| t as f64).collect();
        mean(&v)
    }

    pub(crate) fn valid_rate(&self) -> f64 {
        self.passed as f64 / (self.passed + self.discarded).max(1) as f64
    }

    pub(crate) fn mean_unique(&self) -> Option<f64> {
        let v: Vec<f64> = self.unique_valid.iter().map(|&t| t as f64).collect();
        mean(&v)
    }

    /// ETNA's task bucket by mean solve time; 4 = unsolved.
    pub(crate) fn bucket(&self) -> usize {
        match (self.solved(), self.mttf_found()) {
            (true, Some(t)) if t < 0.1 => 0,
            (true, Some(t)) if t < 1.0 => 1,
            (true, Some(t)) if t < 10.0 => 2,
            (true, Some(t)) if t < 60.0 => 3,
            _ => 4,
        }
    }
}

pub(crate) const BUCKETS: [&str; 5] = ["< 0.1 s", "< 1 s", "< 10 s", "< 60 s", "unsolved"];

pub(crate) fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

pub(crate) fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// Vargha-Delaney A12: the probability that a trial of `a` finds the bug sooner than one of `b`
/// (ties count half; a trial that found nothing is slower than any that did, and ties with
/// another that found nothing). 0.5 = no difference; > 0.5 favours `a`.
pub(crate) fn a12(a: &[Option<f64>], b: &[Option<f64>]) -> Option<f64> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let key = |t: &Option<f64>| t.unwrap_or(f64::INFINITY);
    let mut score = 0.0;
    for x in a {
        for y in b {
            let (x, y) = (key(x), key(y));
            if x < y {
                score += 1.0;
            } else if x == y {
                score += 0.5;
            }
        }
    }
    Some(score / (a.len() * b.len()) as f64)
}

/// All cells, keyed by (workload, job order, strategy).
pub(crate) struct Summary {
    pub(crate) cells: BTreeMap<(Workload, usize, Strategy), Cell>,
}

pub(crate) fn summarize(rows: &[Row]) -> Summary {
    let mut order: Vec<*const super::Job> = Vec::new();
    let mut cells: BTreeMap<(Workload, usize, Strategy), Cell> = BTreeMap::new();
    for row in rows {
        let ptr = std::sync::Arc::as_ptr(&row.job);
        let index = order.iter().position(|&p| p == ptr).unwrap_or_else(|| {
            order.push(ptr);
            order.len() - 1
        });
        let cell = cells
            .entry((row.job.workload, index, row.strategy))
            .or_insert_with(|| Cell {
                task: row.job.task.clone(),
                detail: row.job.detail.clone(),
                control: row.job.control,
                ifc_index: row.job.ifc_index,
                cap: row.cap,
                ..Cell::default()
            });
        let r = &row.result;
        cell.trials += 1;
        cell.passed += r.passed;
        cell.discarded += r.discarded;
        cell.seconds += r.seconds;
        if let Some(u) = r.unique_valid {
            cell.unique_valid.push(u);
        }
        if r.found {
            cell.found += 1;
            cell.times.push(r.seconds);
            cell.tests_to_failure.push(r.tests());
            cell.per_trial.push(Some(r.seconds));
            if cell.counterexample.is_empty() {
                cell.counterexample = r.counterexample.clone();
            }
        } else {
            cell.per_trial.push(None);
        }
    }
    Summary { cells }
}

impl Summary {
    /// Cells of `workload` and `strategy`, in job order.
    pub(crate) fn of(&self, workload: Workload, strategy: Strategy) -> Vec<&Cell> {
        self.cells
            .iter()
            .filter(|((w, _, s), _)| *w == workload && *s == strategy)
            .map(|(_, c)| c)
            .collect()
    }

    /// The distinct tasks of `workload` in job order (first strategy's cells).
    pub(crate) fn tasks(&self, workload: Workload) -> Vec<(usize, &Cell)> {
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for ((w, i, _), c) in &self.cells {
            if *w == workload && !seen.contains(i) {
                seen.push(*i);
                out.push((*i, c));
            }
        }
        out
    }

    pub(crate) fn cell(
        &self,
        workload: Workload,
        index: usize,
        strategy: Strategy,
    ) -> Option<&Cell> {
        self.cells.get(&(workload, index, strategy))
    }

    /// `(solved tasks, tasks)` of a strategy on a workload, controls excluded.
    pub(crate) fn solved(&self, workload: Workload, strategy: Strategy) -> (usize, usize) {
        let cells: Vec<_> = self
            .of(workload, strategy)
            .into_iter()
            .filter(|c| !c.control)
            .collect();
        (cells.iter().filter(|c| c.solved()).count(), cells.len())
    }

    /// Control runs that reported a failure, per strategy of `workload`.
    pub(crate) fn false_alarms(&self, workload: Workload, strategy: Strategy) -> (usize, usize) {
        let cells: Vec<_> = self
            .of(workload, strategy)
            .into_iter()
            .filter(|c| c.control)
            .collect();
        (
            cells.iter().map(|c| c.found).sum(),
            cells.iter().map(|c| c.trials).sum(),
        )
    }

    /// Prints `<workload>: <strategy> found <n>/<total>` for every pair (and any false alarm);
    /// returns the number of control runs that reported a failure.
    /// Prints `<workload>[ (<feedback>)]: <strategy> found <n>/<total>` per workload and
    /// strategy, where `name` gives the line's prefix and strategy name; returns the number of
    /// control runs that reported a failure.
    pub(crate) fn print_summary_lines(
        &self,
        strategies: &[Strategy],
        workloads: &[Workload],
        name: impl Fn(Workload, Strategy) -> (String, &'static str),
    ) -> usize {
        let mut alarms = 0;
        for &w in workloads {
            for &s in strategies {
                let (solved, total) = self.solved(w, s);
                if total == 0 {
                    continue;
                }
                let (bad, runs) = self.false_alarms(w, s);
                alarms += bad;
                let control = if runs == 0 {
                    String::new()
                } else if bad == 0 {
                    format!(" (controls: 0 failures in {runs} runs)")
                } else {
                    format!(" (controls: {bad} FALSE ALARMS in {runs} runs)")
                };
                let (prefix, strategy) = name(w, s);
                println!("{prefix}: {strategy} found {solved}/{total}{control}");
            }
        }
        alarms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a12_counts_sooner_finds_and_ties() {
        assert_eq!(a12(&[Some(1.0)], &[Some(2.0)]), Some(1.0));
        assert_eq!(a12(&[Some(2.0)], &[Some(1.0)]), Some(0.0));
        assert_eq!(a12(&[None], &[None]), Some(0.5));
        assert_eq!(a12(&[Some(9.0), None], &[None, None]), Some(0.75));
        assert_eq!(a12(&[], &[None]), None);
    }

    #[test]
    fn buckets_follow_mean_solve_time() {
        let cell = |times: Vec<Option<f64>>| Cell {
            trials: times.len(),
            found: times.iter().flatten().count(),
            times: times.iter().flatten().copied().collect(),
            per_trial: times,
            cap: Duration::from_secs(60),
            ..Cell::default()
        };
        assert_eq!(cell(vec![Some(0.01), Some(0.05)]).bucket(), 0);
        assert_eq!(cell(vec![Some(0.01), Some(1.5)]).bucket(), 1);
        assert_eq!(cell(vec![Some(3.0), Some(5.0)]).bucket(), 2);
        assert_eq!(cell(vec![Some(0.01), None]).bucket(), 4);
        assert_eq!(cell(vec![Some(0.01), None]).mttf_capped(), 30.005);
        assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), Some(2.5));
    }
}
