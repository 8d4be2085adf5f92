//! Arms: the two sources of the default schedule's tests — fresh values from the user's own
//! generator, and mutants of kept seeds — and the share of the run's work each gets.
//!
//! A drop-in must never do worse than the framework it replaces, whose whole loop is fresh
//! generation. So fresh generation is an arm of its own that keeps at least [`GENERATE_FLOOR`]
//! of the work whatever mutation does: a bug that only the generator's values find is found at
//! no less than that share of the plain framework's rate (the engine's work on a fresh test is
//! the framework's own plus a small constant). Mutation gets the rest only while it measurably
//! pays; when it does not, generation's share rises to [`GENERATE_CEILING`] and the drop-in
//! runs close to the plain framework (mutation keeps the last tenth to go on exploring).
//!
//! **What mutation must show: finds the generator does not reach.** Mutation's credit is the
//! features (labels, coverage counters, input-structure features) it found first in the run,
//! each worth one find, decayed by half every [`HALF_LIFE`] units of work of both arms. A find
//! that a fresh value later reaches too (a label or counter the generator hits) is taken back:
//! the generator would have found it anyway, at its own speed. A credit of one find or more
//! keeps mutation's whole half; less gives it that fraction of its half. Before its first
//! find mutation has one find's credit that fades fast ([`PRIOR_HALF_LIFE`]), so that it gets
//! its chance at the start of a run but not for long if it finds nothing.
//!
//! Why not each arm's new features per unit of work (a plain two-arm bandit, measured first
//! and rejected): the generator's finds are mostly shallow (new input-structure classes, the
//! first label of a chain, found again after every restart), so they pull the share towards
//! generation, and mutation's finds are rare and deep — on the relational capability test
//! (`engine/tests/loop_capabilities.rs`) mutation finds `ba` and `bad` hundreds of thousands
//! of units of work apart, with nothing in between. So generation's finds earn nothing here
//! (it is the default arm, never in need of credit), a feature counts only when new to the
//! whole run (not found again after a restart), and mutation's credit fades slowly: with a
//! half-life of 2M and 8M units the relational test found `bad!` in 3 and 6 of seeds 1-40,
//! with 16M in 11 (the fixed half: 9). What makes the share move fast where mutation does not
//! pay is taking back the finds fresh values reach: on the stamped-record capability test
//! (mutants never pass the precondition, every label is reached by fresh values too) the
//! generator gets more than 0.8 of the work and the bug is found in 1.25x the tests
//! generation alone needs (the fixed half: 1.75x). A mutant that raises a target or an
//! `assume!` score is credited one find ([`Arms::climbed`]), never taken back: that climb is
//! what targeted and precondition feedback are for (uncredited, the valid rate of
//! `engine/tests/precondition.rs`'s guided run fell from more than five times generation's to
//! 2.8 times). Valid sizes and coverage paths are not credited: they are judged against the
//! current search, which a restart forgets, and valid sizes are what mutation finds most where
//! it finds valid inputs but not the bug. Input-structure features are credited only while
//! structure is the only signal the run has had ([`Arms::signal_beyond_structure`]), and never
//! taken back (which of them a fresh value reaches is not tracked). Once the property has shown
//! a label, a counter, a score or a valid size, structure coverage stops keeping seeds, until a
//! restart forgets the signal and the shapes mutants reach in the short stretch before the
//! property shows it again are new to the run: credited, a dozen of them from a few mutants
//! kept mutation at its half for tens of millions of units of work on a workload where only
//! fresh values found the bug.
//!
//! **Work is counted in cost units, not tests and not seconds.** Not tests: a mutant of a large
//! seed costs many times a small fresh value (building, copying, walking, running and dropping
//! an input are linear in its size), so a share of tests lets large mutants crowd the
//! generator out on recursive inputs. Not seconds: a run must stay a function of its seed (the
//! engine's determinism contract), and so must the share, which depends on finds and cost
//! units only. A test costs [`TEST_OVERHEAD`] units plus the size of its input in codec bytes:
//! a mutant is charged its parent's size, a fresh input its own when the test encoded it (or
//! one in [`MEASURE_FRESH_ONE_IN`] is encoded to measure it), else the mean of those measured.
//!
//! Which arm comes next is decided by deficit: generation whenever the work it is owed (each
//! test's cost times generation's share when it ran, less generation's own work) is positive,
//! so the share holds over any stretch of the run whatever each test costs, and a change of
//! share applies from then on (no burst of one arm to catch up on the past).
//! Only tests that were a choice between the arms are charged: not the fresh tests a run starts
//! with ([`Config::fresh_first`](crate::Config::fresh_first)), nor generation while there is
//! nothing to mutate (the start of each search). Charged to generation, those would owe
//! mutation a burst of back-to-back mutants once seeds arrive, during which a bug that only
//! fresh values find is not looked for. (On the relational capability test, whether they are
//! charged or not made no measurable difference: 9 and 10 of seeds 1-40 found `bad!`.)
//!
//! The constants were chosen on the development set only: the capability tests of
//! `engine/tests/loop_capabilities.rs` (the relational and stamped-record ones), IFC and the
//! ETNA BST of `bench/`'s quick mode, and the drop-in comparison's BST set.

use std::collections::{HashSet, VecDeque};

use crate::feedback::Feature;

/// The least share of the work fresh generation keeps, however much mutation finds: a bug
/// that only fresh values find is found at no less than half the plain framework's rate per
/// unit of work (the fixed share this schedule had before its share moved).
pub(crate) const GENERATE_FLOOR: f64 = 0.5;
/// The most fresh generation takes, however little mutation finds: mutation keeps exploring
/// with the rest, and a find moves the share back.
pub(crate) const GENERATE_CEILING: f64 = 0.9;
/// Units of work (both arms') after which a find of mutation's counts half: long, because a
/// climb's finds come far apart (the relational capability test: 2M and 8M lost seeds).
const HALF_LIFE: f64 = 16_000_000.0;
/// Units of work after which the credit mutation starts with counts half: short, so that a
/// mutation that finds nothing gives its share back within a few thousand small tests.
const PRIOR_HALF_LIFE: f64 = 100_000.0;
/// What a test costs besides its input's bytes: the engine's and the harness's fixed work per
/// test (the schedule, the guarded call, the statistics), in codec bytes' worth.
pub(crate) const TEST_OVERHEAD: u64 = 32;
/// Fresh inputs whose size is measured by encoding them when the test did not: one in this many.
pub(crate) const MEASURE_FRESH_ONE_IN: u64 = 16;

/// What a credit of one is worth after `work` units of work, at `half_life`.
fn decay(work: f64, half_life: f64) -> f64 {
    (-work * std::f64::consts::LN_2 / half_life).exp()
}

/// Where a test comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arm {
    /// A fresh value from the user's generator.
    Generate,
    /// A mutant of a kept seed.
    Mutate,
}

impl Arm {
    fn index(self) -> usize {
        match self {
            Arm::Generate => 0,
            Arm::Mutate => 1,
        }
    }
}

/// Mutation's finds the generator has not reached since, which earn mutation its share.
#[derive(Clone, Debug)]
struct Credit {
    /// The sum of mutation's credited finds, each decayed by [`HALF_LIFE`] since it was made.
    decayed: f64,
    /// The newest credited finds: the feature and the work done when it was found, so that it
    /// can be taken back when a fresh value reaches it.
    finds: VecDeque<(Feature, f64)>,
    /// The credit mutation starts with, one find's worth decayed by [`PRIOR_HALF_LIFE`]:
    /// its first real find replaces it.
    prior: f64,
}

/// Credited finds remembered for taking back; older ones stay in the sum (decayed by then).
const CREDITED_FINDS: usize = 64;

/// The work each arm has done, and which comes next.
#[derive(Clone, Debug)]
pub(crate) struct Arms {
    /// Work spent on generation and on mutation.
    spent: [u64; 2],
    /// Fresh input sizes measured so far (bytes, count), for fresh inputs not measured.
    fresh_bytes: (u64, u64),
    /// Work charged so far, both arms.
    work: f64,
    /// What mutation has found that generation has not.
    credit: Credit,
    /// Every feature the run has found, across restarts.
    seen: HashSet<Feature>,
    /// Whether input-structure features still earn credit: until the property shows another
    /// signal (see [`Arms::signal_beyond_structure`]).
    structure_credited: bool,
    /// Generation's share of the work now.
    share: f64,
    /// Work generation is owed at its share of the work charged so far (negative: ahead).
    owed: f64,
}

impl Default for Arms {
    fn default() -> Self {
        Arms {
            spent: [0; 2],
            fresh_bytes: (0, 0),
            work: 0.0,
            credit: Credit {
                decayed: 0.0,
                finds: VecDeque::new(),
                prior: 1.0,
            },
            seen: HashSet::new(),
            structure_credited: true,
            share: GENERATE_FLOOR,
            owed: 0.0,
        }
    }
}

impl Arms {
    /// No work done yet.
    pub(crate) fn new() -> Self {
        Arms::default()
    }

    /// The arm of the next test: generation while it is owed work at its share.
    /// The first choice mutates: it comes once there is a seed, just after the fresh tests
    /// that found it (which the scheduler does not charge).
    pub(crate) fn next(&self) -> Arm {
        if self.owed > 0.0 {
            Arm::Generate
        } else {
            Arm::Mutate
        }
    }

    /// Charges a test of `arm` whose input was `size` codec bytes (a mutant: its parent's size;
    /// `None` for a fresh input whose size was not measured).
    pub(crate) fn record(&mut self, arm: Arm, size: Option<u64>) {
        let size = match (arm, size) {
            (Arm::Generate, Some(size)) => {
                self.fresh_bytes.0 += size;
                self.fresh_bytes.1 += 1;
                size
            }
            (_, Some(size)) => size,
            (_, None) => self.mean_fresh_size(),
        };
        let cost = TEST_OVERHEAD + size;
        let spent = &mut self.spent[arm.index()];
        *spent = spent.saturating_add(cost);
        let cost = cost as f64;
        self.work += cost;
        self.credit.decayed *= decay(cost, HALF_LIFE);
        self.credit.prior *= decay(cost, PRIOR_HALF_LIFE);
        self.owed += self.share * cost;
        if arm == Arm::Generate {
            self.owed -= cost;
        }
        self.share = self.share_now();
    }

    /// A test of `arm` (`None`: a test that was no choice between the arms) was kept for
    /// discovering `features`: those new to the run and found by mutation are its credit.
    pub(crate) fn found(&mut self, arm: Option<Arm>, features: &[Feature]) {
        for &feature in features {
            // Scores and paths are relative to the search, which a restart forgets.
            let lasting = match feature {
                Feature::Counter(_) | Feature::Label(_) => true,
                Feature::Structure(_) => self.structure_credited,
                Feature::Score | Feature::Path => false,
            };
            if !lasting || !self.seen.insert(feature) || arm != Some(Arm::Mutate) {
                continue;
            }
            self.credit.prior = 0.0;
            self.credit.decayed += 1.0;
            if self.credit.finds.len() == CREDITED_FINDS {
                self.credit.finds.pop_front();
            }
            self.credit.finds.push_back((feature, self.work));
        }
        self.share = self.share_now();
    }

    /// The property has shown a signal other than input structure (a label, a coverage counter,
    /// a score, a valid size): from now on, for the rest of the run, input-structure features
    /// earn mutation no credit. Structure coverage keeps seeds only until such a signal shows,
    /// so the structure features found after it are those of the stretch a restart opens before
    /// the property shows its signal again: shapes, not finds about the property.
    pub(crate) fn signal_beyond_structure(&mut self) {
        self.structure_credited = false;
    }

    /// A mutant raised a target or an `assume!` score: a climb the search makes, worth one find
    /// (never taken back: which scores fresh values reach is not tracked, and a restart
    /// forgets the scores, so they are credited whenever mutation raises them).
    pub(crate) fn climbed(&mut self) {
        self.credit.prior = 0.0;
        self.credit.decayed += 1.0;
        self.share = self.share_now();
    }

    /// A fresh value reached features for the first time: mutation's finds among them are no
    /// longer its own (`reached` says which).
    pub(crate) fn reached_by_fresh(&mut self, reached: impl Fn(Feature) -> bool) {
        let mut taken = 0.0;
        self.credit.finds.retain(|&(feature, at)| {
            let keep = !reached(feature);
            if !keep {
                taken += decay(self.work - at, HALF_LIFE);
            }
            keep
        });
        self.credit.decayed = (self.credit.decayed - taken).max(0.0);
        self.share = self.share_now();
    }

    /// Generation's share from mutation's credit: a whole find's worth or more keeps
    /// generation at its floor; less gives mutation that fraction of its half.
    fn share_now(&self) -> f64 {
        let credit = self.credit.decayed + self.credit.prior;
        let mutation = (1.0 - GENERATE_FLOOR) * credit.min(1.0);
        (1.0 - mutation).clamp(GENERATE_FLOOR, GENERATE_CEILING)
    }

    /// The mean size of the fresh inputs measured so far (0 before the first).
    fn mean_fresh_size(&self) -> u64 {
        let (bytes, count) = self.fresh_bytes;
        bytes.checked_div(count).unwrap_or(0)
    }

    /// The share of the work that went to generation so far.
    #[cfg(test)]
    pub(crate) fn generated_share(&self) -> f64 {
        let total = self.spent[0] + self.spent[1];
        if total == 0 {
            return 0.0;
        }
        self.spent[0] as f64 / total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `tests` tests of arms whose inputs cost `sizes` bytes, mutation finding a new
    /// label every `find_every` of its tests (never: `None`), returning the work share of
    /// generation and the number of tests of each arm.
    fn simulate(tests: u64, sizes: [u64; 2], find_every: Option<u64>) -> (f64, [u64; 2]) {
        let mut arms = Arms::new();
        let mut count = [0u64; 2];
        for _ in 0..tests {
            let arm = arms.next();
            let i = arm.index();
            count[i] += 1;
            arms.record(arm, Some(sizes[i]));
            if arm == Arm::Mutate && find_every.is_some_and(|every| count[i] % every == 1) {
                arms.found(Some(arm), &[Feature::Label(count[i] as u32)]);
            }
        }
        (arms.generated_share(), count)
    }

    #[test]
    fn the_first_choice_mutates_then_generation_follows() {
        let mut arms = Arms::new();
        assert_eq!(arms.next(), Arm::Mutate);
        arms.record(Arm::Mutate, Some(8));
        assert_eq!(arms.next(), Arm::Generate);
    }

    #[test]
    fn while_mutation_pays_equal_sizes_split_the_tests_evenly() {
        let (share, count) = simulate(100_000, [40, 40], Some(1_000));
        assert!((share - GENERATE_FLOOR).abs() < 0.001, "{share}");
        assert!(count[0].abs_diff(count[1]) <= 10, "{count:?}");
    }

    #[test]
    fn work_not_tests_is_shared_when_mutants_are_larger() {
        // Mutants ten times the fresh values' size (with the overhead: 432 vs 52 units) take
        // half the work, so the generator runs about eight tests per mutant.
        let (share, count) = simulate(200_000, [20, 400], Some(1_000));
        assert!((share - GENERATE_FLOOR).abs() < 0.001, "{share}");
        let ratio = count[0] as f64 / count[1] as f64;
        assert!((ratio - 432.0 / 52.0).abs() < 0.1, "{count:?}");
    }

    #[test]
    fn a_mutation_that_finds_nothing_gives_the_work_to_generation() {
        // 100,000 tests of 72 units: the prior credit is long gone.
        let (share, count) = simulate(100_000, [40, 40], None);
        assert!(share > 0.88 && share <= GENERATE_CEILING, "{share}");
        assert!(count[1] > 9_000, "mutation keeps exploring: {count:?}");
    }

    #[test]
    fn a_find_fades_with_work_and_is_taken_back_once_a_fresh_value_reaches_it() {
        let mut arms = Arms::new();
        arms.found(Some(Arm::Mutate), &[Feature::Label(1)]);
        assert_eq!(arms.share, GENERATE_FLOOR);
        // Half a find's credit after a half-life: a quarter of the work for mutation.
        arms.record(Arm::Generate, Some(HALF_LIFE as u64 - TEST_OVERHEAD));
        assert!((arms.share - 0.75).abs() < 1e-9, "{}", arms.share);
        arms.found(Some(Arm::Mutate), &[Feature::Label(2)]);
        assert_eq!(arms.share, GENERATE_FLOOR);
        arms.reached_by_fresh(|feature| feature == Feature::Label(2));
        assert!((arms.share - 0.75).abs() < 1e-9, "{}", arms.share);
        arms.reached_by_fresh(|_| true);
        assert_eq!(arms.share, GENERATE_CEILING);
    }

    /// Arms after one fresh test long enough for mutation's prior credit to be gone.
    fn past_the_prior() -> Arms {
        let mut arms = Arms::new();
        arms.record(Arm::Generate, Some(100 * PRIOR_HALF_LIFE as u64));
        arms
    }

    #[test]
    fn only_features_new_to_the_run_and_found_by_mutation_are_credited() {
        let mut arms = past_the_prior();
        // The prior credit gone, nothing found yet: generation at its ceiling.
        assert_eq!(arms.share, GENERATE_CEILING);
        // Found first by a fresh value, or by a test of the fresh prefix: not mutation's.
        arms.found(Some(Arm::Generate), &[Feature::Label(1)]);
        arms.found(None, &[Feature::Counter(7)]);
        arms.found(Some(Arm::Mutate), &[Feature::Label(1), Feature::Counter(7)]);
        // Scores and paths belong to the current search.
        arms.found(Some(Arm::Mutate), &[Feature::Score, Feature::Path]);
        assert_eq!(arms.share, GENERATE_CEILING);
        arms.found(Some(Arm::Mutate), &[Feature::Structure(3)]);
        assert_eq!(arms.share, GENERATE_FLOOR);
    }

    #[test]
    fn structure_earns_no_credit_once_the_property_showed_another_signal() {
        let mut arms = past_the_prior();
        arms.signal_beyond_structure();
        arms.found(
            Some(Arm::Mutate),
            &[Feature::Structure(3), Feature::Structure(4)],
        );
        assert_eq!(arms.share, GENERATE_CEILING);
        // Labels and counters still do.
        arms.found(Some(Arm::Mutate), &[Feature::Label(1)]);
        assert_eq!(arms.share, GENERATE_FLOOR);
    }

    #[test]
    fn unmeasured_fresh_inputs_cost_the_mean_of_the_measured_ones() {
        let mut arms = Arms::new();
        arms.record(Arm::Generate, Some(100));
        arms.record(Arm::Generate, Some(300));
        arms.record(Arm::Generate, None);
        assert_eq!(arms.spent[0], 3 * TEST_OVERHEAD + 100 + 300 + 200);
    }
}
