//! Statistics: what a run did — tests, valid inputs, discards (per `assume!` site), unique valid
//! inputs, coverage, queue sizes, speed — and the live status line printed while it runs.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

use crate::feedback::FeedbackStats;
pub(crate) use crate::mutate::hash_bytes;
use crate::Operator;

/// Why a run stopped.
///
/// ```
/// let report = typefuzz::check(&typefuzz::Config::default().with_cases(5), |cx| cx.generate::<u8>(), |_| ());
/// assert_eq!(report.stats.stop, typefuzz::StopReason::Cases);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum StopReason {
    /// [`Config::cases`](crate::Config::cases) non-discarded tests ran.
    #[default]
    Cases,
    /// [`Config::max_discards`](crate::Config::max_discards) tests were discarded, or the
    /// [`Config::discard_time`](crate::Config::discard_time) bound passed with discards dominating.
    Discards,
    /// [`Config::max_tests`](crate::Config::max_tests) tests ran.
    Tests,
    /// The [`Config::time`](crate::Config::time) budget ran out.
    Time,
    /// A failure was found.
    Failure,
}

/// One `assume!` call site's counts.
///
/// ```
/// let site = typefuzz::AssumeStats::default();
/// assert_eq!(site.discard_rate(), 0.0);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AssumeStats {
    /// `file:line:column` of the call.
    pub location: String,
    /// The assumed expression's source text.
    pub expression: String,
    /// How many runs evaluated it.
    pub evaluations: u64,
    /// How many of those it discarded.
    pub discards: u64,
}

impl AssumeStats {
    /// `discards / evaluations` (0 when never evaluated).
    pub fn discard_rate(&self) -> f64 {
        if self.evaluations == 0 {
            0.0
        } else {
            self.discards as f64 / self.evaluations as f64
        }
    }
}

/// One label's counts.
///
/// ```
/// assert_eq!(typefuzz::LabelStats::default().hits, 0);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelStats {
    /// The label's name.
    pub name: String,
    /// How many runs hit it (0 for a `sometimes!` never satisfied).
    pub hits: u64,
}

/// What a run did.
///
/// ```
/// use typefuzz::{check, Config};
/// let report = check(&Config::default().with_cases(50).with_seed(1), |cx| cx.generate::<u16>(), |_| ());
/// let stats = &report.stats;
/// assert_eq!(stats.valid, 50);
/// assert_eq!(stats.tests, stats.valid + stats.discards);
/// assert!(stats.unique_valid <= stats.valid);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Stats {
    /// The seed that replays this run (`TYPEFUZZ_SEED`).
    pub seed: u64,
    /// Property calls (not counting shrinking).
    pub tests: u64,
    /// Calls that were not discarded (passed, or the failing one).
    pub valid: u64,
    /// Calls that were discarded.
    pub discards: u64,
    /// Tests that were fresh generations (the rest were mutants, regressions or corpus entries).
    pub generated: u64,
    /// Tests that were mutants of a seed.
    pub mutated: u64,
    /// Distinct valid inputs, told apart by a 64-bit hash of their leaves
    /// ([`Mutate::hash_value`](crate::Mutate::hash_value); of their codec bytes for inputs some
    /// part of which it cannot see), not by encoding each input: exact up to 2^16 (but for hash
    /// collisions), then a HyperLogLog estimate.
    pub unique_valid: u64,
    /// Coverage counters hit at least once (0 without instrumentation).
    pub coverage_points: u64,
    /// Coverage features: (counter, AFL hit-count bucket) pairs seen.
    pub coverage_features: u64,
    /// Distinct labels hit.
    pub label_points: u64,
    /// Input-structure features seen (constructor paths, value classes; see
    /// [`feedback::structure`](crate::feedback::structure)) in the inputs observed: every input,
    /// or with [`FeedbackSources::structure_sampling`](crate::FeedbackSources::structure_sampling)
    /// only a sample once 4096 inputs in a row showed nothing new.
    pub structure_features: u64,
    /// Seeds kept because they were interesting.
    pub seeds_found: u64,
    /// Seeds now in the valid queue.
    pub queue_valid: usize,
    /// Seeds now in the discarded queue.
    pub queue_discarded: usize,
    /// Regression-file inputs replayed.
    pub regressions_replayed: u64,
    /// Corpus-directory inputs loaded.
    pub corpus_loaded: u64,
    /// Per `assume!` site: evaluations and discards.
    pub assume_sites: Vec<AssumeStats>,
    /// Per label: runs that hit it.
    pub labels: Vec<LabelStats>,
    /// Per `target!`: the best value seen.
    pub targets: Vec<(String, f64)>,
    /// For the seeds kept, how often each operator was in the mutation that produced them.
    pub operators_kept: Vec<(Operator, u64)>,
    /// Wall-clock time of the run (not counting shrinking).
    pub elapsed: Duration,
    /// `tests / elapsed`.
    pub tests_per_second: f64,
    /// Why the run stopped.
    pub stop: StopReason,
    /// How often the default schedule started its search over: after a long stagnation, or,
    /// with coverage or input-to-state feedback, after each epoch.
    pub restarts: u64,
    /// Worker processes whose statistics these are, summed ([`Config::jobs`](crate::Config::jobs));
    /// 0 when the run stayed in this process.
    pub workers: u32,
    /// Inputs a worker imported from the corpus files other workers wrote during the run.
    pub seeds_imported: u64,
}

impl Stats {
    /// The fraction of tests that were discarded.
    ///
    /// ```
    /// assert_eq!(typefuzz::Stats::default().discard_rate(), 0.0);
    /// ```
    pub fn discard_rate(&self) -> f64 {
        if self.tests == 0 {
            0.0
        } else {
            self.discards as f64 / self.tests as f64
        }
    }
}

/// The statistics of a run as it goes: the [`Stats`] counters, plus what is needed to finish
/// them (distinct valid inputs, operators of kept seeds) and the live status line.
#[derive(Debug)]
pub(crate) struct Tally {
    /// The counters the loop updates directly.
    pub(crate) stats: Stats,
    unique: UniqueCounter,
    operators_kept: [u64; Operator::COUNT],
    status: StatusLine,
}

impl Tally {
    /// An empty tally for the run replayed by `seed`; `progress` is
    /// [`Config::progress`](crate::Config::progress).
    pub(crate) fn new(seed: u64, progress: Option<bool>) -> Self {
        Tally {
            stats: Stats {
                seed,
                ..Stats::default()
            },
            unique: UniqueCounter::new(),
            operators_kept: [0; Operator::COUNT],
            status: StatusLine::new(progress),
        }
    }

    /// Counts a valid (passing) input, given as a 64-bit hash of its value (see
    /// [`Stats::unique_valid`]), towards the distinct ones.
    pub(crate) fn count_valid(&mut self, hash: u64) {
        self.stats.valid += 1;
        self.unique.insert(hash);
    }

    /// Counts the operators of a mutant that was kept as a seed.
    pub(crate) fn count_kept(&mut self, operators: &[Operator]) {
        for &op in operators {
            self.operators_kept[op as usize] += 1;
        }
    }

    /// Updates the queue sizes and prints the status line if it is due.
    pub(crate) fn tick(&mut self, queue_valid: usize, queue_discarded: usize) {
        self.stats.queue_valid = queue_valid;
        self.stats.queue_discarded = queue_discarded;
        self.status.tick(&self.stats);
    }

    /// Completes the statistics at the end of the run (before shrinking, if it failed) and
    /// prints the final status line.
    pub(crate) fn finish(
        &mut self,
        elapsed: Duration,
        (queue_valid, queue_discarded): (usize, usize),
        feedback: FeedbackStats,
    ) {
        let stats = &mut self.stats;
        stats.queue_valid = queue_valid;
        stats.queue_discarded = queue_discarded;
        stats.elapsed = elapsed;
        stats.tests_per_second = per_second(stats.tests, elapsed);
        stats.unique_valid = self.unique.count();
        stats.coverage_points = feedback.coverage_points;
        stats.coverage_features = feedback.coverage_features;
        stats.label_points = feedback.label_points;
        stats.structure_features = feedback.structure_features;
        stats.assume_sites = feedback.assume_sites;
        stats.labels = feedback.labels;
        stats.targets = feedback.targets;
        stats.operators_kept = Operator::ALL
            .iter()
            .map(|&op| (op, self.operators_kept[op as usize]))
            .filter(|&(_, count)| count > 0)
            .collect();
        self.status.finish(&self.stats);
    }
}

/// Counts distinct values: an exact set of 64-bit hashes up to a cap, then a HyperLogLog
/// (4096 registers, ~1.6% error), so memory stays bounded on a campaign of billions of tests.
/// The registers are filled from the set when it overflows (a register holds a maximum over
/// the hashes seen, which the set holds each once), so a run that never overflows, every
/// plain `cargo test`, neither allocates nor updates them.
#[derive(Debug)]
pub(crate) struct UniqueCounter {
    exact: HashSet<u64, BuildHasherDefault<Identity>>,
    /// Empty until the set overflows.
    registers: Vec<u8>,
}

impl UniqueCounter {
    const EXACT_CAP: usize = 1 << 16;
    const REGISTERS: usize = 1 << 12;

    pub(crate) fn new() -> Self {
        UniqueCounter {
            exact: HashSet::default(),
            registers: Vec::new(),
        }
    }

    /// Counts `hash`, a uniformly distributed hash of a value.
    pub(crate) fn insert(&mut self, hash: u64) {
        if self.registers.is_empty() {
            self.exact.insert(hash);
            if self.exact.len() >= Self::EXACT_CAP {
                self.registers = vec![0; Self::REGISTERS];
                for hash in std::mem::take(&mut self.exact) {
                    self.register(hash);
                }
            }
        } else {
            self.register(hash);
        }
    }

    /// Folds `hash` into the HyperLogLog registers.
    fn register(&mut self, hash: u64) {
        let register = (hash as usize) & (Self::REGISTERS - 1);
        let rank = ((hash >> 12) | (1 << 52)).trailing_zeros() as u8 + 1;
        if rank > self.registers[register] {
            self.registers[register] = rank;
        }
    }

    pub(crate) fn count(&self) -> u64 {
        if self.registers.is_empty() {
            return self.exact.len() as u64;
        }
        let m = Self::REGISTERS as f64;
        let sum: f64 = self
            .registers
            .iter()
            .map(|&r| 2f64.powi(-i32::from(r)))
            .sum();
        let alpha = 0.7213 / (1.0 + 1.079 / m);
        (alpha * m * m / sum) as u64
    }
}

/// The hashes are already uniform: the set uses them as they are.
#[derive(Debug, Default)]
pub(crate) struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = hash_bytes(bytes);
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// Tests between two looks at the clock by the status line.
const STATUS_CHECK_EVERY: u64 = 256;
/// Runs shorter than this print no status line unless asked to.
const STATUS_AFTER: Duration = Duration::from_secs(2);
/// At most one status line per this period.
const STATUS_PERIOD: Duration = Duration::from_secs(1);

/// `tests / elapsed`, defined for a zero `elapsed`.
fn per_second(tests: u64, elapsed: Duration) -> f64 {
    tests as f64 / elapsed.as_secs_f64().max(1e-9)
}

/// The live status line, in libFuzzer's spirit: `#tests cov: ft: lab: corp: valid/disc exec/s:`.
#[derive(Debug)]
pub(crate) struct StatusLine {
    mode: Option<bool>,
    started: Instant,
    last_print: Option<Instant>,
    tests_at_check: u64,
    check_every: u64,
}

impl StatusLine {
    pub(crate) fn new(mode: Option<bool>) -> Self {
        StatusLine {
            mode,
            started: Instant::now(),
            last_print: None,
            tests_at_check: 0,
            check_every: STATUS_CHECK_EVERY,
        }
    }

    /// Prints a line at most once a second, once the run is two seconds old (or always when
    /// asked for); looks at the clock only every few hundred tests. `mode` `None` is resolved
    /// before ([`Config::status_line`](crate::Config::status_line)): here it means the same as
    /// `Some(true)` after [`STATUS_AFTER`].
    pub(crate) fn tick(&mut self, stats: &Stats) {
        if self.mode == Some(false) || stats.tests - self.tests_at_check < self.check_every {
            return;
        }
        self.tests_at_check = stats.tests;
        let now = Instant::now();
        let old_enough = self.mode == Some(true) || now - self.started >= STATUS_AFTER;
        let due = self
            .last_print
            .map_or(true, |last| now - last >= STATUS_PERIOD);
        if old_enough && due {
            if self.last_print.is_none() {
                crate::feedback::coverage::warn_once_if_disabled();
            }
            self.last_print = Some(now);
            print_status(&line("pulse", stats, now - self.started));
        }
    }

    /// The final line, if any line was printed (or asked for). The coverage banner comes with
    /// the first status line only: a run that prints none (a plain `cargo test`) says nothing.
    pub(crate) fn finish(&mut self, stats: &Stats) {
        if self.mode == Some(true) || (self.mode.is_none() && self.last_print.is_some()) {
            print_status(&line("DONE ", stats, self.started.elapsed()));
        }
    }
}

/// Writes a status line to the process's stderr itself, past libtest's output capture: live
/// while the test runs, and never part of a failing test's captured output.
fn print_status(line: &str) {
    use std::io::Write as _;
    // A failed write to stderr leaves nothing to report it to.
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn line(event: &str, stats: &Stats, elapsed: Duration) -> String {
    format!(
        "#{:<10} {event} cov: {} ft: {} lab: {} corp: {}/{} valid: {} disc: {} uniq: {} exec/s: {:.0}",
        stats.tests,
        stats.coverage_points,
        stats.coverage_features,
        stats.label_points,
        stats.queue_valid,
        stats.queue_discarded,
        stats.valid,
        stats.discards,
        stats.unique_valid,
        per_second(stats.tests, elapsed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_counts_distinct_valid_inputs_and_kept_operators() {
        let mut tally = Tally::new(9, Some(false));
        tally.count_valid(hash_bytes(&[1, 2]));
        tally.count_valid(hash_bytes(&[1, 2]));
        tally.count_valid(hash_bytes(&[3]));
        tally.count_kept(&[Operator::BitFlip, Operator::BitFlip, Operator::Insert]);
        tally.stats.tests = 3;
        tally.finish(Duration::from_secs(1), (2, 1), FeedbackStats::default());
        let stats = &tally.stats;
        assert_eq!((stats.seed, stats.valid, stats.unique_valid), (9, 3, 2));
        assert_eq!((stats.queue_valid, stats.queue_discarded), (2, 1));
        assert_eq!(stats.tests_per_second, 3.0);
        assert_eq!(
            stats.operators_kept,
            [(Operator::BitFlip, 2), (Operator::Insert, 1)]
        );
    }

    #[test]
    fn unique_counter_is_exact_then_estimates() {
        let mut counter = UniqueCounter::new();
        for i in 0u32..1000 {
            counter.insert(hash_bytes(&i.to_le_bytes()));
            counter.insert(hash_bytes(&i.to_le_bytes()));
        }
        assert_eq!(counter.count(), 1000);
        assert!(counter.registers.is_empty(), "no estimate before the cap");
        for i in 0u32..200_000 {
            counter.insert(hash_bytes(&i.to_le_bytes()));
        }
        let estimate = counter.count() as f64;
        assert!(
            (estimate - 200_000.0).abs() < 200_000.0 * 0.06,
            "estimate {estimate}"
        );
    }
}
