//! Schedule: the policy that decides what the next test is — a fresh value from the generator or
//! a mutant of which seed — how much energy (how many mutants) each seed gets, and when the
//! search starts over.
//!
//! The loop ([`fuzzer`](crate::fuzzer)) asks [`Scheduler::pick`] for the next test, tells
//! [`Scheduler::after_run`] whether it found something, hands new seeds to
//! [`Scheduler::admit`], and asks [`Scheduler::restart_if_stagnated`] after every test. The
//! scheduler owns the in-memory [`Queues`] and one [`Stagnation`] counter (tests since the last
//! find); what differs between schedules is a [`Policy`], one per [`Schedule`]:
//!
//! - [`Schedule::FuzzChick`] ([`fuzzchick`]): Algorithm 3 of the FuzzChick paper, faithfully.
//! - [`Schedule::Default`] ([`default`]): fresh generation keeps at least half the work, and
//!   more while mutation finds nothing the generator does not reach too ([`arms`]), after a
//!   prefix of fresh tests ([`Config::fresh_first`](crate::Config::fresh_first));
//!   mutation gets LIFO fresh finds, a revisited pool, rarity tournaments, stacked mutations,
//!   restarts after long stagnation (and, with coverage or input-to-state feedback, after each
//!   fixed-length epoch, keeping the widest seed).
//! - [`Schedule::Generate`] ([`generate`]): always a fresh generation (the QuickCheck baseline).

mod arms;
mod default;
mod fuzzchick;
mod generate;
mod policy;

use crate::corpus::{QueueKind, Queues, Seed, SeedId};
use crate::{Context, Schedule};
pub(crate) use arms::MEASURE_FRESH_ONE_IN;
use arms::{Arm, Arms};
use policy::{EnergyScale, Policy};

/// The next test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// A freshly generated value.
    Generate,
    /// `mutations` stacked mutations of seed `seed`, which sits in `queue`.
    Mutate {
        queue: QueueKind,
        seed: SeedId,
        mutations: u32,
    },
}

/// How a test went, as the schedule hears it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ran {
    /// Whether the input was kept as a new seed.
    pub(crate) kept: bool,
    /// Whether the input passed the precondition (was not discarded).
    pub(crate) valid: bool,
    /// The codec size of a fresh input, when it was measured.
    pub(crate) fresh_size: Option<u64>,
    /// Whether the input raised a target or an `assume!` score.
    pub(crate) scored: bool,
}

impl Ran {
    /// A test kept (`kept`) or not, with nothing else known: what the tests of the schedule use.
    #[cfg(test)]
    pub(crate) fn kept(kept: bool) -> Ran {
        Ran {
            kept,
            valid: true,
            fresh_size: None,
            scored: false,
        }
    }
}

/// The fresh tests a run starts with ([`Config::fresh_first`](crate::Config::fresh_first)):
/// generation until `valid` fresh tests passed the precondition or `discards` were discarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FreshFirst {
    pub(crate) valid: u64,
    pub(crate) discards: u64,
}

#[cfg(test)]
impl FreshFirst {
    /// No prefix.
    pub(crate) const NONE: FreshFirst = FreshFirst {
        valid: 0,
        discards: u64::MAX,
    };
}

/// Largest energy a seed can accumulate.
pub(crate) const MAX_ENERGY: u32 = 1 << 16;

/// Tests without a find after which the search counts as stuck, and after which it first starts
/// over.
const STUCK_AFTER: u64 = 50_000;
/// Each restart waits this much longer (numerator, denominator) than the last before the next.
const RESTART_GROWTH: (u64, u64) = (3, 2);
/// Longest stagnation tolerated before a restart, however many restarts came before.
const MAX_RESTART_AFTER: u64 = 10_000_000;
/// Tests in the first epoch of a run with coverage or input-to-state feedback (see
/// [`Stagnation::epochs`]).
const EPOCH: u64 = 60_000;
/// Each epoch is this much longer (numerator, denominator) than the last.
const EPOCH_GROWTH: (u64, u64) = (11, 10);

/// How long the search has gone without a find, and how long the current search (epoch) has
/// run: what decides when the search starts over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stagnation {
    /// Tests picked since the last find (or the last restart), the current one included.
    tests_without_find: u64,
    /// The stagnation that triggers the next restart (for policies that restart).
    restart_after: u64,
    /// Tests picked since the last restart (or the start).
    tests_in_epoch: u64,
    /// The length of the current epoch, once epochs are on.
    epoch_len: u64,
    /// Whether the search also starts over after each epoch, finding or not. On once a seed's
    /// run hit coverage counters (`cargo typefuzz test`) or carries logged comparisons while
    /// input-to-state mutation is on (`--trace-compares`, or comparing `assume!`s, with
    /// [`Operators::cmplog`](crate::Operators::cmplog)). Sparse bugs are found early in a
    /// search more often than late (a fresh corpus concentrates the energy), so independent
    /// epochs beat one long search that keeps finding new hit counts in a region where the bug
    /// is not. What a long search has that epochs would lose — a chain of conditions climbed
    /// by chance, 100,000 tests and more per stage (fuzzcheck's enum vector under coverage
    /// only) — the restart keeps: the seed that hit the most counters starts the next search
    /// ([`Queues::into_widest`]). IFC's hard mutants, 8 x 4 trials at 700,000 tests, coverage
    /// only: 11/32 without epochs, 20/32 with, 19/32 with the widest seed kept; the enum
    /// vector (both orders, 5 trials each at 2M tests): 10/10, 6/10, 8/10 (`bench/RESULTS.md`).
    epochs: bool,
}

impl Stagnation {
    fn new() -> Self {
        Stagnation {
            tests_without_find: 0,
            restart_after: STUCK_AFTER,
            tests_in_epoch: 0,
            epoch_len: EPOCH,
            epochs: false,
        }
    }

    fn picked(&mut self) {
        self.tests_without_find += 1;
        self.tests_in_epoch += 1;
    }

    fn found(&mut self) {
        self.tests_without_find = 0;
    }

    /// Whether no find has been made for a long time.
    #[cfg(test)]
    pub(crate) fn is_stuck(&self) -> bool {
        self.tests_without_find > STUCK_AFTER
    }

    fn restart_due(&self) -> bool {
        self.tests_without_find > self.restart_after
            || (self.epochs && self.tests_in_epoch > self.epoch_len)
    }

    /// Starts counting anew, and waits longer for the next restart.
    fn restarted(&mut self) {
        self.tests_without_find = 0;
        self.tests_in_epoch = 0;
        let (numerator, denominator) = RESTART_GROWTH;
        self.restart_after =
            (self.restart_after.saturating_mul(numerator) / denominator).min(MAX_RESTART_AFTER);
        if self.epochs {
            let (numerator, denominator) = EPOCH_GROWTH;
            self.epoch_len =
                (self.epoch_len.saturating_mul(numerator) / denominator).min(MAX_RESTART_AFTER);
        }
    }
}

/// The scheduling state of a run: the policy, the queues it manages, the stagnation counter, and
/// the running novelty average that scales new seeds' energy.
pub(crate) struct Scheduler<T> {
    policy: Box<dyn Policy<T>>,
    queues: Queues<T>,
    stagnation: Stagnation,
    novelty_total: u64,
    seeds_admitted: u64,
    /// How the work is shared between fresh generation and mutation, for policies that share
    /// it ([`Policy::shares_work`]); the others decide generation themselves.
    arms: Option<Arms>,
    /// Fresh tests that must pass the precondition, or be discarded, before anything else is
    /// picked ([`Config::fresh_first`](crate::Config::fresh_first)), and those that have.
    fresh_first: FreshFirst,
    fresh_valid: u64,
    fresh_discarded: u64,
    /// Whether the test picked last counts towards its arm's work: not a fresh test of the
    /// [`fresh_first`](Self::fresh_first) prefix, nor one made while there was nothing to
    /// mutate (neither is a choice between the arms, so charging it would owe mutation a
    /// catch-up burst of back-to-back mutants once seeds arrive).
    charge: bool,
    /// The arm of the last charged test when it was kept: the seed admitted next is its find.
    finder: Option<Arm>,
}

impl<T> Scheduler<T> {
    /// A scheduler for `schedule` with queues of at most `capacity` seeds each, which generates
    /// until the `fresh_first` prefix is done.
    pub(crate) fn new(schedule: Schedule, capacity: usize, fresh_first: FreshFirst) -> Self {
        let policy = policy::for_schedule(schedule);
        let arms = policy.shares_work().then(Arms::new);
        Scheduler {
            policy,
            queues: Queues::new(capacity),
            stagnation: Stagnation::new(),
            novelty_total: 0,
            seeds_admitted: 0,
            arms,
            fresh_first,
            fresh_valid: 0,
            fresh_discarded: 0,
            charge: false,
            finder: None,
        }
    }

    /// The queues, for reading seeds and their sizes.
    pub(crate) fn queues(&self) -> &Queues<T> {
        &self.queues
    }

    /// The seed named `id`, which a queue holds, to mutate in place (see [`Queues::seed`]).
    pub(crate) fn seed_mut(&mut self, id: SeedId) -> &mut Seed<T> {
        self.queues
            .get_mut(id)
            .expect("ids read from the queues are kept")
    }

    /// Drops every seed for which `keep` is false (see [`Queues::retain`]).
    pub(crate) fn retain(&mut self, keep: impl FnMut(&Seed<T>) -> bool) {
        self.queues.retain(keep);
    }

    /// Chooses the next test.
    /// `rarity` tells how often the rarest feature a seed discovered has been hit since: the
    /// lower, the more the default schedule favours the seed.
    /// Fresh generation comes first until the fresh prefix is done; then, under a policy that
    /// shares the work, whenever its share of the work says so (see [`arms`]); the policy picks
    /// the seed to mutate otherwise.
    pub(crate) fn pick(&mut self, cx: &mut Context, rarity: &dyn Fn(&Seed<T>) -> u64) -> Pick {
        self.stagnation.picked();
        self.charge = false;
        if self.in_fresh_prefix() {
            return Pick::Generate;
        }
        if let Some(arms) = &self.arms {
            if self.queues.is_empty() {
                return Pick::Generate;
            }
            self.charge = true;
            if arms.next() == Arm::Generate {
                return Pick::Generate;
            }
        }
        self.policy
            .pick(&mut self.queues, cx, &self.stagnation, rarity)
    }

    /// Whether the run is still in its fresh prefix.
    pub(crate) fn in_fresh_prefix(&self) -> bool {
        self.fresh_valid < self.fresh_first.valid
            && self.fresh_discarded < self.fresh_first.discards
    }

    /// Bookkeeping after a test ran: `pick` is what the schedule chose (`None` for replayed and
    /// loaded inputs), `ran` how it went. Charges the test's arm, spends energy, rewards a
    /// productive seed; the seed may move or go, so read it before.
    pub(crate) fn after_run(&mut self, pick: Option<Pick>, ran: Ran) {
        let productive = ran.kept;
        if productive {
            self.stagnation.found();
        }
        if pick == Some(Pick::Generate) {
            match ran.valid {
                true => self.fresh_valid += 1,
                false => self.fresh_discarded += 1,
            }
        }
        let charged = pick.filter(|_| std::mem::take(&mut self.charge));
        self.finder = None;
        if let (Some(arms), Some(pick)) = (&mut self.arms, charged) {
            let arm = match pick {
                Pick::Generate => {
                    arms.record(Arm::Generate, ran.fresh_size);
                    Arm::Generate
                }
                Pick::Mutate { seed, .. } => {
                    let size = self.queues.get(seed).map(|parent| u64::from(parent.size));
                    arms.record(Arm::Mutate, size);
                    Arm::Mutate
                }
            };
            self.finder = ran.kept.then_some(arm);
            if ran.scored && arm == Arm::Mutate {
                arms.climbed();
            }
        }
        let Some(Pick::Mutate { queue, seed, .. }) = pick else {
            return;
        };
        if let Some(parent) = self.queues.get_mut(seed) {
            parent.picks += 1;
        }
        self.policy
            .after_run(&mut self.queues, queue, seed, productive);
    }

    /// A fresh value reached features no fresh value had reached before in this run:
    /// `reached` says which features fresh values have reached (see [`Arms::reached_by_fresh`]).
    pub(crate) fn reached_by_fresh(&mut self, reached: impl Fn(crate::feedback::Feature) -> bool) {
        if let Some(arms) = &mut self.arms {
            arms.reached_by_fresh(reached);
        }
    }

    /// The property has shown a signal other than input structure (see
    /// [`Arms::signal_beyond_structure`]).
    pub(crate) fn signal_beyond_structure(&mut self) {
        if let Some(arms) = &mut self.arms {
            arms.signal_beyond_structure();
        }
    }

    /// Gives `seed` its starting energy and hands it to the policy, which may keep it in `kind`'s
    /// queue.
    pub(crate) fn admit(&mut self, kind: QueueKind, mut seed: Seed<T>, cx: &mut Context) {
        let energy = self.energy(seed.novelty, seed.depth, kind);
        seed.energy = energy;
        seed.base_energy = energy;
        self.seeds_admitted += 1;
        self.novelty_total += u64::from(seed.novelty);
        self.stagnation.epochs |=
            seed.counters_hit > 0 || (seed.comparisons.is_some() && cx.operators().cmplog);
        if let Some(arms) = &mut self.arms {
            arms.found(self.finder.take(), &seed.features);
        }
        self.policy.admit(&mut self.queues, kind, seed, cx);
    }

    /// Starts the search over if the policy restarts and the search has stagnated long enough
    /// (or, with coverage or input-to-state feedback, its epoch is over): empty queues and a
    /// fresh energy average (the caller resets the feedback state, so that seeds are judged
    /// anew, and may carry one seed over: see [`Queues::into_widest`]). Returns the last
    /// search's seeds when it did.
    ///
    /// Searches that find a sparse bug tend to find it early or to sink into a region where
    /// nothing new happens; independent restarts with growing epochs turn that all-or-nothing
    /// behaviour into a steady chance per epoch.
    #[inline]
    pub(crate) fn restart_if_stagnated(&mut self) -> Option<Queues<T>> {
        if !self.stagnation.restart_due() || !self.policy.restarts() {
            return None;
        }
        let empty = Queues::new(self.queues.capacity);
        let previous = std::mem::replace(&mut self.queues, empty);
        self.novelty_total = 0;
        self.seeds_admitted = 0;
        self.stagnation.restarted();
        Some(previous)
    }

    /// The energy a new seed starts with (AFL's `calculate_score`, without execution times):
    /// the policy's base, scaled by how much novelty the seed brought relative to the average and
    /// by its depth.
    fn energy(&self, novelty: u32, depth: u32, kind: QueueKind) -> u32 {
        let EnergyScale {
            base,
            discarded_divisor,
        } = self.policy.energy_scale();
        let average = if self.seeds_admitted == 0 {
            f64::from(novelty.max(1))
        } else {
            self.novelty_total as f64 / self.seeds_admitted as f64
        };
        let mut energy = base
            * novelty_factor(f64::from(novelty) / average.max(MIN_AVERAGE_NOVELTY))
            * depth_factor(depth);
        if kind == QueueKind::Discarded {
            energy /= discarded_divisor;
        }
        (energy as u32).clamp(1, MAX_ENERGY)
    }
}

/// Floor of the average novelty, so the ratio to it is always defined.
const MIN_AVERAGE_NOVELTY: f64 = 1e-9;

/// AFL's novelty factor: (lowest ratio of the seed's novelty to the average, factor), first match.
const NOVELTY_FACTORS: [(f64, f64); 7] = [
    (3.0, 3.0),
    (2.0, 2.0),
    (1.33, 1.5),
    (0.75, 1.0),
    (0.5, 0.75),
    (0.33, 0.5),
    (f64::NEG_INFINITY, 0.25),
];

/// AFL's depth factor: (deepest depth, factor), first match; deeper seeds get [`DEEPEST_FACTOR`].
const DEPTH_FACTORS: [(u32, f64); 4] = [(3, 1.0), (7, 2.0), (13, 3.0), (25, 4.0)];
const DEEPEST_FACTOR: f64 = 5.0;

fn novelty_factor(ratio: f64) -> f64 {
    NOVELTY_FACTORS
        .iter()
        .find(|&&(at_least, _)| ratio >= at_least)
        .map_or(1.0, |&(_, factor)| factor)
}

fn depth_factor(depth: u32) -> f64 {
    DEPTH_FACTORS
        .iter()
        .find(|&&(deepest, _)| depth <= deepest)
        .map_or(DEEPEST_FACTOR, |&(_, factor)| factor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Place;

    fn seed(novelty: u32, depth: u32) -> Seed<u8> {
        Seed::new(0, Vec::new(), depth, novelty, Vec::new(), 1)
    }

    fn never_rare(_: &Seed<u8>) -> u64 {
        0
    }

    #[test]
    fn one_stagnation_counter_says_stuck_then_restarts_with_growing_epochs() {
        let mut scheduler = Scheduler::<u8>::new(Schedule::Default, 16, FreshFirst::NONE);
        let mut cx = Context::new(1);
        let mut restarts_at = Vec::new();
        for test in 1..=200_000u64 {
            let pick = scheduler.pick(&mut cx, &never_rare);
            assert_eq!(pick, Pick::Generate, "nothing to mutate");
            // A find at test 10 resets the count.
            scheduler.after_run(Some(pick), Ran::kept(test == 10));
            if test == 10 + STUCK_AFTER {
                assert!(!scheduler.stagnation.is_stuck());
            }
            if test == 10 + STUCK_AFTER + 1 {
                assert!(scheduler.stagnation.is_stuck());
            }
            if scheduler.restart_if_stagnated().is_some() {
                restarts_at.push(test);
            }
        }
        let first = 10 + STUCK_AFTER + 1;
        let second = first + STUCK_AFTER * 3 / 2 + 1;
        assert_eq!(restarts_at, [first, second]);
    }

    #[test]
    fn with_coverage_or_comparisons_the_search_restarts_each_epoch_even_while_finding() {
        let run = |comparisons: bool, cmplog: bool, counters_hit: u32| {
            let mut scheduler = Scheduler::<u8>::new(Schedule::Default, 16, FreshFirst::NONE);
            let operators = crate::Operators {
                cmplog,
                ..crate::Operators::default()
            };
            let mut cx = Context::new(1).with_operators(operators);
            let mut seed = seed(1, 0);
            seed.counters_hit = counters_hit;
            if comparisons {
                let log = crate::feedback::cmplog::Log::from_pairs(&[(1, 2, 1)]);
                seed.comparisons =
                    Some(Box::new(crate::feedback::cmplog::SeedComparisons::new(log)));
            }
            scheduler.admit(QueueKind::Valid, seed, &mut cx);
            let mut restarts_at = Vec::new();
            for test in 1..=140_000u64 {
                let pick = scheduler.pick(&mut cx, &never_rare);
                // A find every 1,000 tests: never stuck.
                scheduler.after_run(Some(pick), Ran::kept(test % 1_000 == 0));
                if scheduler.restart_if_stagnated().is_some() {
                    restarts_at.push(test);
                }
            }
            restarts_at
        };
        assert_eq!(run(false, true, 0), []);
        // Comparisons logged but not substituted: one long search, as without them.
        assert_eq!(run(true, false, 0), []);
        let epochs = [EPOCH + 1, EPOCH + 1 + EPOCH * 11 / 10 + 1];
        assert_eq!(run(true, true, 0), epochs);
        // Coverage feedback: epochs too.
        assert_eq!(run(false, false, 12), epochs);
    }

    #[test]
    fn only_the_default_schedule_restarts() {
        for schedule in [Schedule::FuzzChick, Schedule::Generate] {
            let mut scheduler = Scheduler::<u8>::new(schedule, 16, FreshFirst::NONE);
            let mut cx = Context::new(1);
            for _ in 0..=STUCK_AFTER + 1 {
                let pick = scheduler.pick(&mut cx, &never_rare);
                scheduler.after_run(Some(pick), Ran::kept(false));
            }
            assert!(scheduler.stagnation.restart_due());
            assert!(scheduler.restart_if_stagnated().is_none(), "{schedule:?}");
        }
    }

    /// Runs `tests` tests of `scheduler` (every one valid, none kept), returning how many were
    /// fresh.
    fn fresh_of(scheduler: &mut Scheduler<u8>, cx: &mut Context, tests: u64) -> u64 {
        let mut fresh = 0;
        for _ in 0..tests {
            let pick = scheduler.pick(cx, &never_rare);
            fresh += u64::from(pick == Pick::Generate);
            scheduler.after_run(Some(pick), Ran::kept(false));
        }
        fresh
    }

    #[test]
    fn the_fresh_prefix_generates_until_enough_fresh_tests_were_valid() {
        let mut scheduler = Scheduler::<u8>::new(Schedule::Default, 16, prefix(100, 1_000));
        let mut cx = Context::new(1);
        scheduler.admit(QueueKind::Valid, seed(1, 0), &mut cx);
        // A discarded fresh test does not count towards the prefix.
        let pick = scheduler.pick(&mut cx, &never_rare);
        assert_eq!(pick, Pick::Generate);
        let discarded = Ran {
            valid: false,
            ..Ran::default()
        };
        scheduler.after_run(Some(pick), discarded);
        assert_eq!(fresh_of(&mut scheduler, &mut cx, 100), 100, "a seed waits");
        // Then the work is shared from an even start: no catch-up burst of mutants.
        assert_eq!(fresh_of(&mut scheduler, &mut cx, 2), 1);
        let fuzzchick = &mut Scheduler::<u8>::new(Schedule::FuzzChick, 16, prefix(10, 1_000));
        fuzzchick.admit(QueueKind::Valid, seed(1, 0), &mut cx);
        assert_eq!(fresh_of(fuzzchick, &mut cx, 10), 10, "every schedule");
    }

    fn prefix(valid: u64, discards: u64) -> FreshFirst {
        FreshFirst { valid, discards }
    }

    #[test]
    fn the_fresh_prefix_ends_at_its_discard_limit_too() {
        let mut scheduler = Scheduler::<u8>::new(Schedule::Default, 16, prefix(100, 3));
        let mut cx = Context::new(1);
        scheduler.admit(QueueKind::Valid, seed(1, 0), &mut cx);
        let discarded = Ran {
            valid: false,
            ..Ran::default()
        };
        for _ in 0..3 {
            let pick = scheduler.pick(&mut cx, &never_rare);
            assert_eq!(pick, Pick::Generate);
            scheduler.after_run(Some(pick), discarded);
        }
        // Where the framework would have given up, mutation may start climbing.
        assert_eq!(fresh_of(&mut scheduler, &mut cx, 2), 1);
    }

    #[test]
    fn generation_while_nothing_can_be_mutated_is_not_charged() {
        let mut scheduler = Scheduler::<u8>::new(Schedule::Default, 16, FreshFirst::NONE);
        let mut cx = Context::new(1);
        assert_eq!(fresh_of(&mut scheduler, &mut cx, 1_000), 1_000);
        scheduler.admit(QueueKind::Valid, seed(1, 0), &mut cx);
        // Charged, those 1,000 fresh tests would owe mutation the next ~1,000 tests.
        let fresh = fresh_of(&mut scheduler, &mut cx, 100);
        assert!((45..=55).contains(&fresh), "{fresh} of 100 fresh");
    }

    #[test]
    fn restart_empties_the_queues() {
        let mut scheduler = Scheduler::<u8>::new(Schedule::Default, 16, FreshFirst::NONE);
        let mut cx = Context::new(1);
        scheduler.admit(QueueKind::Valid, seed(1, 0), &mut cx);
        scheduler.stagnation.tests_without_find = STUCK_AFTER + 1;
        assert!(scheduler.restart_if_stagnated().is_some());
        assert!(scheduler.queues().is_empty());
        assert_eq!(scheduler.seeds_admitted, 0);
    }

    #[test]
    fn energy_scales_with_novelty_depth_and_queue() {
        let mut scheduler = Scheduler::<u8>::new(Schedule::Default, 16, FreshFirst::NONE);
        // The first seed is its own average: base energy.
        assert_eq!(scheduler.energy(5, 0, QueueKind::Valid), 64);
        assert_eq!(scheduler.energy(5, 0, QueueKind::Discarded), 32);
        scheduler.seeds_admitted = 4;
        scheduler.novelty_total = 8; // average novelty 2
        assert_eq!(scheduler.energy(6, 0, QueueKind::Valid), 64 * 3);
        assert_eq!(scheduler.energy(2, 5, QueueKind::Valid), 64 * 2);
        assert_eq!(scheduler.energy(0, 0, QueueKind::Valid), 16);
        assert_eq!(scheduler.energy(u32::MAX, 99, QueueKind::Valid), 64 * 3 * 5);
        let fuzzchick = Scheduler::<u8>::new(Schedule::FuzzChick, 16, FreshFirst::NONE);
        assert_eq!(fuzzchick.energy(1, 0, QueueKind::Discarded), 33);
    }

    #[test]
    fn factor_tables_match_afl() {
        let factors: Vec<f64> = [0.1, 0.4, 0.6, 1.0, 1.5, 2.5, 4.0]
            .map(novelty_factor)
            .to_vec();
        assert_eq!(factors, [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0]);
        let depths: Vec<f64> = [0, 3, 4, 8, 20, 26].map(depth_factor).to_vec();
        assert_eq!(depths, [1.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    }

    #[test]
    fn admitted_seeds_are_fresh_and_picked_by_id() {
        let mut scheduler = Scheduler::<u8>::new(Schedule::FuzzChick, 16, FreshFirst::NONE);
        let mut cx = Context::new(1);
        scheduler.admit(QueueKind::Valid, seed(1, 0), &mut cx);
        let Pick::Mutate { queue, seed, .. } = scheduler.pick(&mut cx, &never_rare) else {
            panic!("a FuzzChick schedule with a valid seed mutates it");
        };
        assert_eq!(queue, QueueKind::Valid);
        let kept = scheduler.queues().seed(seed);
        assert_eq!(kept.place(), Place::Fresh);
        assert_eq!(kept.energy, 100);
    }
}
