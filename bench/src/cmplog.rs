//! The input-to-state (CmpLog) lines of the benchmark: fuzzcheck's enum vector (both orders) and
//! "bad!", tests to failure with and without input-to-state mutation, side by side in one run.
//!
//! These run in any build. Without instrumentation the comparison operands come from
//! `typefuzz::sometimes!`: the workloads below are [`branches`](crate::branches)' with each
//! condition written as `sometimes!(input[i] == TARGET[i], "...")`, i.e. with the labels a user
//! would place, plus what the macro sees of the comparison. The "cmplog off" line
//! ([`Operators::cmplog`] false) is the same run with the operands not written back, which is
//! what the labels alone achieve. Under `cargo typefuzz test --trace-compares` the hooks log the
//! operands of every comparison as well; the instrumented numbers of `bench/RESULTS.md` come
//! from `cargo-typefuzz/tests/fixture/tests/cmplog.rs`, which has no labels at all.
//!
//! ```
//! use typefuzz_bench::cmplog::{measure, Limit};
//! let lines = measure(1, Limit::Tests(10_000), 7);
//! assert_eq!(lines.len(), 6);
//! let with = &lines[0];
//! assert!(with.name.contains("enum vector") && with.cmplog);
//! assert_eq!(with.found(), 1, "{}", with.summary());
//! ```

use std::time::Duration;

use typefuzz::{check, sometimes, Config, Mutate, Operators};

use crate::branches::{SomeEnum, ENUM_TARGET};

/// The micro benchmark's size bound (`runner::jobs::MICRO_MAX_LEN`): room for the
/// 7-element enum target.
const MAX_SIZE: usize = 10;

/// fuzzcheck's enum vector with each element's test written in `sometimes!`: fails iff
/// `input.len() > 6` and its first seven elements are [`ENUM_TARGET`], checked in `order`.
///
/// ```
/// use typefuzz_bench::{branches::ENUM_TARGET, cmplog::enum_vector};
/// assert!(enum_vector(&ENUM_TARGET, [0, 1, 2, 3, 4, 5, 6]));
/// assert!(!enum_vector(&ENUM_TARGET[..6], [6, 5, 4, 3, 2, 1, 0]));
/// ```
pub fn enum_vector(input: &[SomeEnum], order: [usize; 7]) -> bool {
    if !sometimes!(input.len() > 6, "enum: long enough") {
        return false;
    }
    order.into_iter().all(|i| {
        let (element, target) = (input[i], ENUM_TARGET[i]);
        // One label per index, as `branches::enum_vector::<true>` places them.
        match i {
            0 => sometimes!(element == target, "enum: [0]"),
            1 => sometimes!(element == target, "enum: [1]"),
            2 => sometimes!(element == target, "enum: [2]"),
            3 => sometimes!(element == target, "enum: [3]"),
            4 => sometimes!(element == target, "enum: [4]"),
            5 => sometimes!(element == target, "enum: [5]"),
            _ => sometimes!(element == target, "enum: [6]"),
        }
    })
}

/// "bad!" with each test written in `sometimes!`: fails iff the input starts with `bad!`.
///
/// The length is tested first, as the enum vector's is: a comparison with a byte that is not
/// there (`input.get(1) == Some(&b'a')` on a one-byte input) has no leaf to write `a` into, while
/// `len >= 4` names the length the input needs. (With instrumentation the bounds checks of
/// `get` are comparisons of the length too, so [`branches::bad`](crate::branches::bad) needs no
/// such rewrite.)
///
/// ```
/// assert!(typefuzz_bench::cmplog::bad(b"bad!?"));
/// assert!(!typefuzz_bench::cmplog::bad(b"bad"));
/// ```
pub fn bad(input: &[u8]) -> bool {
    sometimes!(input.len() >= 4, "bad: long enough")
        && sometimes!(input[0] == b'b', "bad: b")
        && sometimes!(input[1] == b'a', "bad: ba")
        && sometimes!(input[2] == b'd', "bad: bad")
        && sometimes!(input[3] == b'!', "bad: bad!")
}

/// How long one trial may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Wall-clock time (the benchmark's caps).
    Time(Duration),
    /// Tests, discards included (machine-independent, for tests).
    Tests(u64),
}

/// One workload under one setting: tests to failure per trial.
#[derive(Clone, Debug)]
pub struct Line {
    /// The workload.
    pub name: &'static str,
    /// Whether input-to-state mutation was on.
    pub cmplog: bool,
    /// Tests (discards included) to the first failure, per trial; `None`: not found in the cap.
    pub tests: Vec<Option<u64>>,
}

impl Line {
    /// Trials that found the failure.
    pub fn found(&self) -> usize {
        self.tests.iter().filter(|t| t.is_some()).count()
    }

    /// The median tests to failure, counting trials that did not find it as infinite (`None`
    /// when those are at least half).
    ///
    /// ```
    /// use typefuzz_bench::cmplog::Line;
    /// let line = Line { name: "x", cmplog: true, tests: vec![Some(9), None, Some(3)] };
    /// assert_eq!(line.median(), Some(9));
    /// ```
    pub fn median(&self) -> Option<u64> {
        let mut sorted: Vec<u64> = self.tests.iter().map(|t| t.unwrap_or(u64::MAX)).collect();
        sorted.sort_unstable();
        sorted
            .get(sorted.len() / 2)
            .copied()
            .filter(|&m| m != u64::MAX)
    }

    /// `<name> (cmplog on|off): found k/n, median M tests [per-trial counts]`.
    pub fn summary(&self) -> String {
        let median = self
            .median()
            .map_or_else(|| "-".to_string(), |m| m.to_string());
        let per_trial: Vec<String> = self
            .tests
            .iter()
            .map(|t| t.map_or_else(|| "-".to_string(), |t| t.to_string()))
            .collect();
        format!(
            "{} (cmplog {}): found {}/{}, median {} tests [{}]",
            self.name,
            if self.cmplog { "on" } else { "off" },
            self.found(),
            self.tests.len(),
            median,
            per_trial.join(", ")
        )
    }
}

/// Tests to failure of `fails` on values of `T`, one run per trial (seeds `base_seed + trial`),
/// each within `limit`.
fn run<T: Mutate + std::fmt::Debug>(
    fails: fn(&T) -> bool,
    cmplog: bool,
    trials: usize,
    limit: Limit,
    base_seed: u64,
) -> Vec<Option<u64>> {
    (0..trials as u64)
        .map(|trial| {
            let config = Config::default()
                .with_read_env(false)
                .with_seed(base_seed.wrapping_add(trial));
            let config = match limit {
                Limit::Time(cap) => config.with_time(cap).with_cases(u64::MAX),
                Limit::Tests(tests) => config.with_cases(tests).with_max_tests(tests),
            };
            let config = config
                .with_max_discards(None)
                .with_max_size(MAX_SIZE)
                .with_progress(false)
                .with_keep_seeds(false)
                .with_shrink_steps(0)
                .with_operators(Operators {
                    cmplog,
                    ..Operators::default()
                });
            let report = check(&config, |cx| cx.generate::<T>(), |x: &T| assert!(!fails(x)));
            report.failure.map(|_| report.stats.tests)
        })
        .collect()
}

/// Measures every line: enum vector in order, reversed, and "bad!", each with input-to-state
/// mutation on and off (on first).
pub fn measure(trials: usize, limit: Limit, base_seed: u64) -> Vec<Line> {
    let mut lines = Vec::new();
    for name in ["enum vector, in order", "enum vector, reversed", "bad!"] {
        for cmplog in [true, false] {
            let tests = match name {
                "enum vector, in order" => run(
                    |x: &Vec<SomeEnum>| enum_vector(x, [0, 1, 2, 3, 4, 5, 6]),
                    cmplog,
                    trials,
                    limit,
                    base_seed,
                ),
                "enum vector, reversed" => run(
                    |x: &Vec<SomeEnum>| enum_vector(x, [6, 5, 4, 3, 2, 1, 0]),
                    cmplog,
                    trials,
                    limit,
                    base_seed,
                ),
                _ => run(|x: &Vec<u8>| bad(x), cmplog, trials, limit, base_seed),
            };
            lines.push(Line {
                name,
                cmplog,
                tests,
            });
        }
    }
    lines
}

/// Prints the lines, one per workload and setting, prefixed `cmplog (sometimes!): `; each
/// trial is capped at `cap` of wall time.
pub fn print(trials: usize, cap: Duration, base_seed: u64) {
    for line in measure(trials, Limit::Time(cap), base_seed) {
        println!("cmplog (sometimes!): {}", line.summary());
    }
}
