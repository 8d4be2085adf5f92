//! Budget: the limits of a run (non-discarded tests, discards, tests, wall-clock time) and the
//! adaptive clock that checks the time limit without reading the clock on every test.

use std::time::{Duration, Instant};

use crate::{Config, Stats, StopReason};

/// Most tests between two looks at the clock, so a property that suddenly slows down overshoots
/// the deadline by at most this many calls.
const MAX_CLOCK_EVERY: u64 = 4096;
/// How far apart the clock should be read: about every millisecond.
const CLOCK_PERIOD: Duration = Duration::from_millis(1);

/// The limits of one run and the clock that enforces the time limit.
#[derive(Debug)]
pub(crate) struct Budget {
    cases: u64,
    max_discards: Option<u64>,
    max_tests: Option<u64>,
    started: Instant,
    deadline: Option<Instant>,
    /// [`Config::discard_time`]: past this, a run whose discards are at least half its tests
    /// stops.
    discard_deadline: Option<Instant>,
    clock: Clock,
}

impl Budget {
    /// The budget of `config`, starting now.
    pub(crate) fn start(config: &Config) -> Self {
        let started = Instant::now();
        Budget {
            cases: config.cases,
            max_discards: config.max_discards,
            max_tests: config.max_tests,
            started,
            deadline: config.time.and_then(|t| started.checked_add(t)),
            discard_deadline: config.discard_time.and_then(|t| started.checked_add(t)),
            clock: Clock::new(started),
        }
    }

    /// Which limit the run has reached, if any, after the tests counted in `stats`.
    pub(crate) fn spent(&mut self, stats: &Stats) -> Option<StopReason> {
        if stats.valid >= self.cases {
            return Some(StopReason::Cases);
        }
        if self.max_discards.is_some_and(|max| stats.discards >= max) {
            return Some(StopReason::Discards);
        }
        if self.max_tests.is_some_and(|max| stats.tests >= max) {
            return Some(StopReason::Tests);
        }
        let discard_deadline = self
            .discard_deadline
            .filter(|_| stats.discards >= stats.valid);
        if self.deadline.is_none() && discard_deadline.is_none() {
            return None;
        }
        let now = self.clock.read(stats.tests)?;
        if self.deadline.is_some_and(|deadline| now >= deadline) {
            return Some(StopReason::Time);
        }
        discard_deadline
            .is_some_and(|deadline| now >= deadline)
            .then_some(StopReason::Discards)
    }

    /// Time since the run started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// Reads the clock only every `every` tests, a number that adapts so reading it costs little on
/// fast properties and overshoots little on slow ones.
#[derive(Debug)]
struct Clock {
    every: u64,
    next: u64,
    last: Instant,
}

impl Clock {
    fn new(now: Instant) -> Self {
        Clock {
            every: 1,
            next: 0,
            last: now,
        }
    }

    /// The time, if it is due to be read after `tests` tests.
    fn read(&mut self, tests: u64) -> Option<Instant> {
        if tests < self.next {
            return None;
        }
        let now = Instant::now();
        self.every = next_interval(self.every, now - self.last);
        self.last = now;
        self.next = tests + self.every;
        Some(now)
    }
}

/// The tests until the next look at the clock, given the current interval and the time it took:
/// doubled (up to [`MAX_CLOCK_EVERY`]) when it took less than [`CLOCK_PERIOD`], else halved.
fn next_interval(every: u64, took: Duration) -> u64 {
    if took < CLOCK_PERIOD {
        (every * 2).min(MAX_CLOCK_EVERY)
    } else {
        (every / 2).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(valid: u64, discards: u64) -> Stats {
        Stats {
            tests: valid + discards,
            valid,
            discards,
            ..Stats::default()
        }
    }

    #[test]
    fn count_limits_stop_in_order() {
        let config = Config::default()
            .with_cases(10)
            .with_max_discards(Some(5))
            .with_max_tests(12);
        let mut budget = Budget::start(&config);
        assert_eq!(budget.spent(&stats(3, 4)), None);
        assert_eq!(budget.spent(&stats(10, 0)), Some(StopReason::Cases));
        assert_eq!(budget.spent(&stats(3, 5)), Some(StopReason::Discards));
        assert_eq!(budget.spent(&stats(8, 4)), Some(StopReason::Tests));
    }

    #[test]
    fn an_elapsed_deadline_stops_at_the_first_look() {
        let config = Config::default()
            .with_cases(u64::MAX)
            .with_time(Duration::ZERO);
        let mut budget = Budget::start(&config);
        assert_eq!(budget.spent(&stats(0, 0)), Some(StopReason::Time));
    }

    #[test]
    fn the_discard_time_stops_only_runs_that_mostly_discard() {
        let config = Config::default()
            .with_cases(u64::MAX)
            .with_max_discards(None)
            .with_discard_time(Some(Duration::ZERO));
        let mut budget = Budget::start(&config);
        assert_eq!(budget.spent(&stats(10, 3)), None, "mostly valid: runs on");
        assert_eq!(budget.spent(&stats(3, 10)), Some(StopReason::Discards));
    }

    #[test]
    fn the_clock_is_read_less_often_on_fast_tests_and_more_on_slow_ones() {
        let fast = Duration::from_micros(10);
        let slow = Duration::from_millis(5);
        assert_eq!(next_interval(1, fast), 2);
        assert_eq!(next_interval(MAX_CLOCK_EVERY, fast), MAX_CLOCK_EVERY);
        assert_eq!(next_interval(64, slow), 32);
        assert_eq!(next_interval(1, slow), 1);
        let mut clock = Clock::new(Instant::now());
        assert!(clock.read(0).is_some());
        let every = clock.every;
        assert!(clock.read(every - 1).is_none(), "not due yet");
        assert!(clock.read(every).is_some());
    }
}
