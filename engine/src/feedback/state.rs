//! The feedback state: everything seen so far, and the update that says whether a run was new.

use super::recorder::LastRun;
use super::snapshot::AssumeSiteCounts;
use super::structure::StructureMap;
use super::{coverage, with_last_run};
use crate::{FeedbackSources, Mutate};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// One feature a seed discovered, for judging later how rare it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Feature {
    Counter(u32),
    Label(u32),
    /// An input-structure feature (an index into the structure map).
    Structure(u32),
    /// A raised target or `assume!` score: no frequency is tracked for these.
    Score,
    /// A new combination of coverage counters (see [`PathSet`]): no frequency either, so a
    /// seed kept for its path alone is the last the tournament prefers once it is no longer
    /// fresh.
    Path,
}

/// A new path is worth keeping at most this many times per coverage feature found in the same
/// search (see [`PathSet`]).
const PATHS_PER_FEATURE: u64 = 16;

/// The paths of this search: each run's set of hit coverage counters (hit counts and order
/// aside), hashed. Edge coverage alone misses combinations: a load through a high pointer under
/// a low pc runs only edges that other runs have covered one by one (a high label joined into
/// a result under a high pc, the low-pc branch of the property). A run whose edges form a new
/// set is kept although no single edge is new.
///
/// Path novelty is bounded by edge progress: it counts while the search has kept fewer than
/// [`PATHS_PER_FEATURE`] paths per coverage feature, so a program where every input takes its
/// own path cannot flood the queues. The set is per search (a restart forgets it).
#[derive(Default)]
struct PathSet {
    seen: HashSet<u64, BuildHasherDefault<Prehashed>>,
    /// Paths kept for their own sake (not also bringing a new coverage feature).
    kept: u64,
}

impl PathSet {
    /// Records the path of a run (the sum of its counters' [`path_term`]s) and says whether
    /// the run is worth keeping for it: a path never seen, from a run that found no new
    /// feature (that run is kept anyway; its path is recorded, not counted), while fewer than
    /// [`PATHS_PER_FEATURE`] paths per coverage feature (`features`) have been kept.
    fn observe(&mut self, path: u64, found_feature: bool, features: u64) -> bool {
        if self.kept >= PATHS_PER_FEATURE * features {
            return false;
        }
        if self.seen.insert(path) && !found_feature {
            self.kept += 1;
            return true;
        }
        false
    }
}

/// The path hashes are already mixed: the set's hasher passes them through.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// One counter's share of a path hash: paths add these up, so the hash does not depend on the
/// order in which the counters are scanned.
#[inline(always)]
fn path_term(index: usize) -> u64 {
    let mut h = (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= h >> 31;
    h.wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

/// Most features remembered per seed.
pub(crate) const MAX_SEED_FEATURES: usize = 4;

/// What one run added to the state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Novelty {
    /// New coverage features (counter x hit-count bucket pairs).
    pub(crate) coverage: u32,
    /// Labels never hit before.
    pub(crate) labels: u32,
    /// Targets whose best value rose.
    pub(crate) targets: u32,
    /// `assume!` sites whose best score rose.
    pub(crate) assumes: u32,
    /// A valid input in a size class never seen valid before.
    pub(crate) valid_sizes: u32,
    /// New input-structure features (constructor paths, value classes).
    pub(crate) structure: u32,
    /// A path new to this search (see [`PathSet`]), counted only when nothing else was new.
    pub(crate) path: u32,
}

impl Novelty {
    /// Whether the run changed the state, i.e. its input is worth keeping.
    pub(crate) fn is_interesting(&self) -> bool {
        self.total() > 0
    }

    /// Whether the run found something about the property itself: new coverage, a label, a
    /// higher target or `assume!` score, a valid input of a new size. Input structure and paths
    /// alone say something about the input only.
    pub(crate) fn about_the_property(&self) -> bool {
        self.coverage + self.labels + self.targets + self.assumes + self.valid_sizes > 0
    }

    pub(crate) fn total(&self) -> u32 {
        self.coverage
            + self.path
            + self.labels
            + self.targets
            + self.assumes
            + self.valid_sizes
            + self.structure
    }
}

/// The state S of generalized targeted PBT, one part per source.
pub(crate) struct Feedback {
    sources: FeedbackSources,
    /// Per coverage counter, the AFL hit-count bucket bits seen so far ("virgin bits" inverted).
    coverage_seen: Vec<u8>,
    /// Coverage counters ever hit, and features (counter, bucket) ever seen.
    pub(super) coverage_points: u64,
    pub(super) coverage_features: u64,
    labels_seen: Vec<bool>,
    pub(super) labels_points: u64,
    targets_best: Vec<f64>,
    assume_best: Vec<f64>,
    /// Runs that hit each coverage counter, and each label (the features' frequencies).
    counter_hits: Vec<u32>,
    pub(super) label_hits: Vec<u64>,
    /// The features the last run discovered (at most [`MAX_SEED_FEATURES`]).
    discovered: Vec<Feature>,
    /// Size classes (see [`size_class`]) in which a valid input was seen, one bit each.
    valid_sizes_seen: [u64; 4],
    /// Input-structure features seen (allocated only when that source is on).
    structure: Option<StructureMap>,
    /// Whether a source other than structure has found something new in this run: structure
    /// coverage is the fallback for properties that give no other signal, and stops keeping
    /// seeds once one does (see [`observe_structure`](Self::observe_structure)).
    guided: bool,
    /// Set when `guided` became true and structure had been keeping seeds; see
    /// [`take_newly_guided`](Self::take_newly_guided).
    newly_guided: bool,
    /// Per `assume!` site, evaluations and discards over the whole run (kept across restarts).
    pub(super) assume_sites: AssumeSiteCounts,
    /// How many coverage counters the last run hit.
    last_counters_hit: u32,
    /// The paths seen in this search.
    paths: PathSet,
    /// Set while the run replays saved and kept inputs (see [`replaying`](Self::replaying)).
    replaying: bool,
    /// What fresh values have reached over the whole run (kept across restarts).
    fresh: FreshReach,
}

/// The labels and coverage counters fresh values have reached over a run, and whether the last
/// fresh value reached one first: what tells the schedule which of mutation's finds the
/// generator reaches too (see `schedule/arms.rs`).
#[derive(Clone, Debug, Default)]
struct FreshReach {
    labels: Vec<bool>,
    counters: Vec<bool>,
    /// Whether the run being observed is of a fresh value.
    observing: bool,
    /// Whether the last fresh value reached a label or counter first.
    reached_new: bool,
}

impl FreshReach {
    fn reach(seen: &mut Vec<bool>, index: usize) -> bool {
        if seen.len() <= index {
            seen.resize(index + 1, false);
        }
        !std::mem::replace(&mut seen[index], true)
    }
}

impl Feedback {
    pub(crate) fn new(mut sources: FeedbackSources) -> Self {
        if sources.coverage && !coverage::is_enabled() {
            // Said with the first status line of a long run (`StatusLine::tick`), not here.
            sources.coverage = false;
        }
        let counters = if sources.coverage {
            // A new search: the comparison constants matched so far guide it again.
            coverage::forget_matched_constants();
            coverage::counters_len()
        } else {
            0
        };
        Feedback {
            sources,
            coverage_seen: vec![0; counters],
            coverage_points: 0,
            coverage_features: 0,
            labels_seen: Vec::new(),
            labels_points: 0,
            targets_best: Vec::new(),
            assume_best: Vec::new(),
            counter_hits: vec![0; counters],
            label_hits: Vec::new(),
            discovered: Vec::new(),
            valid_sizes_seen: [0; 4],
            replaying: false,
            structure: sources.structure.then(|| {
                let mut map = StructureMap::new();
                map.sampling = sources.structure_sampling;
                map
            }),
            guided: false,
            newly_guided: false,
            assume_sites: AssumeSiteCounts::default(),
            last_counters_hit: 0,
            paths: PathSet::default(),
            fresh: FreshReach::default(),
        }
    }

    /// Forgets everything seen, so that inputs are judged anew (a restart of the search); the
    /// per-`assume!`-site counts, which are statistics of the whole run, are kept.
    pub(crate) fn restart(&mut self) {
        let assume_sites = std::mem::take(&mut self.assume_sites);
        let fresh = std::mem::take(&mut self.fresh);
        *self = Feedback::new(self.sources);
        self.assume_sites = assume_sites;
        self.fresh = fresh;
    }

    /// Says that the next run observed is of a fresh value from the generator.
    pub(crate) fn expect_fresh(&mut self) {
        self.fresh.observing = true;
    }

    /// Whether the last run, of a fresh value, reached a label or coverage counter that no fresh
    /// value had reached before in this run (once per such run).
    pub(crate) fn take_fresh_reached_new(&mut self) -> bool {
        std::mem::take(&mut self.fresh.reached_new)
    }

    /// Whether a fresh value has reached `feature` in this run (never, for the features not
    /// tracked: structure, scores, paths).
    pub(crate) fn reached_by_fresh(&self, feature: Feature) -> bool {
        let reached = |seen: &[bool], index: u32| seen.get(index as usize) == Some(&true);
        match feature {
            Feature::Label(id) => reached(&self.fresh.labels, id),
            Feature::Counter(index) => reached(&self.fresh.counters, index),
            Feature::Structure(_) | Feature::Score | Feature::Path => false,
        }
    }

    /// Coverage counters hit and coverage features seen so far (for the live status line).
    pub(crate) fn coverage(&self) -> (u64, u64) {
        (self.coverage_points, self.coverage_features)
    }

    /// How many coverage counters the last run hit (0 without coverage feedback).
    pub(crate) fn last_counters_hit(&self) -> u32 {
        self.last_counters_hit
    }

    /// The features the last run discovered.
    pub(crate) fn discovered(&self) -> &[Feature] {
        &self.discovered
    }

    /// How many runs hit `feature`: the lower, the rarer.
    pub(crate) fn frequency(&self, feature: Feature) -> u64 {
        match feature {
            Feature::Counter(index) => {
                u64::from(self.counter_hits.get(index as usize).copied().unwrap_or(0))
            }
            Feature::Label(id) => self.label_hits.get(id as usize).copied().unwrap_or(0),
            // Structure features are not counted (see `StructureMap`): never rare.
            Feature::Structure(_) => u64::MAX,
            Feature::Score | Feature::Path => u64::MAX,
        }
    }

    /// The best value of each target seen so far, by id.
    pub(crate) fn targets_best(&self) -> &[f64] {
        &self.targets_best
    }

    /// Called right before the property: resets the counters.
    #[inline]
    pub(crate) fn before_run(&self) {
        if self.sources.coverage {
            coverage::reset();
        }
    }

    /// Marks the start (`true`) and the end of the replay of saved and kept inputs that opens a
    /// run. While it lasts, a valid input claims its size class even before any input was
    /// discarded ([`wants_valid_len`](Self::wants_valid_len)), so that a fresh input of a size
    /// the replayed seeds had is not new after the first discard: a kept seed is not found
    /// again, and a repeated run that finds nothing new has nothing to save.
    pub(crate) fn replaying(&mut self, replaying: bool) {
        self.replaying = replaying;
    }

    /// Whether [`observe`](Self::observe) wants the encoded length of a valid input, after
    /// `discards` discarded tests: when the property has shown a precondition (a discard), or
    /// while the run replays its seeds. Without a precondition every input is valid and size
    /// classes would only dilute the seeds the other sources found.
    pub(crate) fn wants_valid_len(&self, discards: u64) -> bool {
        self.sources.valid_sizes && (discards > 0 || self.replaying)
    }

    /// The update f: folds the last run's observation into the state and says what was new
    /// (and counts the run's `assume!` sites for the statistics).
    /// `valid_len` is the encoded length of the input when the run was valid and
    /// [`wants_valid_len`](Self::wants_valid_len) said so; a new size class is new only once an
    /// input was discarded (`discarded_any`), and only claimed before.
    pub(crate) fn observe(&mut self, valid_len: Option<usize>, discarded_any: bool) -> Novelty {
        let mut novelty = Novelty::default();
        self.discovered.clear();
        let fresh = std::mem::take(&mut self.fresh.observing);
        if self.sources.coverage {
            (novelty.coverage, novelty.path) = self.observe_coverage(fresh);
        }
        with_last_run(|run| {
            self.assume_sites.count(run);
            if fresh {
                for &id in &run.labels {
                    self.fresh.reached_new |=
                        FreshReach::reach(&mut self.fresh.labels, id as usize);
                }
            }
            self.observe_recorded(run, &mut novelty);
        });
        if let (true, Some(len)) = (self.sources.valid_sizes, valid_len) {
            let class = size_class(len) as usize;
            let (word, bit) = (&mut self.valid_sizes_seen[class / 64], 1u64 << (class % 64));
            if *word & bit == 0 {
                *word |= bit;
                novelty.valid_sizes = u32::from(discarded_any);
            }
        }
        if !self.guided && novelty.is_interesting() {
            self.guided = true;
            self.newly_guided = self.structure.as_ref().is_some_and(|map| map.features > 0);
        }
        if novelty.targets + novelty.assumes + novelty.valid_sizes > 0
            && self.discovered.len() < MAX_SEED_FEATURES
        {
            self.discovered.push(Feature::Score);
        }
        novelty
    }

    /// Folds the structure of the last run's input into the state (call after
    /// [`observe`](Self::observe)); returns the number of new structure features.
    ///
    /// Structure coverage is the feedback that always exists, and the weakest: once another
    /// source (coverage, labels, targets, `assume!`, valid sizes) has found something in this
    /// run, the property gives a real signal and structure stops keeping seeds — its hundreds
    /// of shape features would otherwise crowd out the few seeds that signal picks (measured:
    /// the labelled "bad!" search fell from 9 to 1 of 10 seeds when both counted).
    ///
    /// `focus`: where the input differs from a seed whose structure is all in the map
    /// ([`structure_known`](Self::structure_known) when it was kept), as
    /// [`Context::changed`](crate::Context) names it: only that part is walked.
    pub(crate) fn observe_structure<T: Mutate>(
        &mut self,
        input: &T,
        focus: Option<crate::feedback::structure::Focus<'_>>,
    ) -> u32 {
        match &mut self.structure {
            Some(map) if !self.guided => {
                let (new, features) = map.observe(input, focus);
                for index in features {
                    if self.discovered.len() < MAX_SEED_FEATURES {
                        self.discovered.push(Feature::Structure(index));
                    }
                }
                new
            }
            _ => 0,
        }
    }

    /// Leaves the last run's input unobserved by structure coverage (see `Fuzzer::walks_valid`):
    /// no new features, and a seed kept from it does not have its structure known.
    pub(crate) fn skip_structure(&mut self) {
        if let Some(map) = &mut self.structure {
            map.walked = false;
        }
    }

    /// Whether every structure feature of the last input observed is in the map (its walk was
    /// not skipped by the sampling or by another source's guidance): a seed kept then can have
    /// its mutants observed only where they differ from it.
    pub(crate) fn structure_known(&self) -> bool {
        !self.guided && self.structure.as_ref().is_some_and(|map| map.walked)
    }

    /// Whether the property has shown a signal other than input structure in the current
    /// search (labels, coverage, scores, valid sizes): structure coverage then keeps no seeds.
    pub(crate) fn guided(&self) -> bool {
        self.guided
    }

    /// Whether another source has just taken over from structure coverage (true once per run):
    /// the seeds structure kept should then be dropped, or their number would dilute the
    /// seeds the real signal keeps (see [`observe_structure`](Self::observe_structure)).
    pub(crate) fn take_newly_guided(&mut self) -> bool {
        std::mem::take(&mut self.newly_guided)
    }

    /// Whether `features` were all found by structure coverage alone.
    pub(crate) fn structure_only(features: &[Feature]) -> bool {
        features.iter().all(|f| matches!(f, Feature::Structure(_)))
    }

    /// Input-structure features seen so far.
    pub(crate) fn structure_features(&self) -> u64 {
        self.structure.as_ref().map_or(0, |map| map.features)
    }

    /// Folds the run's coverage hits into the state: the new coverage features, and 1 if the
    /// run's path is new while no feature is (see [`PathSet`]).
    fn observe_coverage(&mut self, fresh: bool) -> (u32, u32) {
        let (seen, hits, discovered, reach) = (
            &mut self.coverage_seen,
            &mut self.counter_hits,
            &mut self.discovered,
            &mut self.fresh,
        );
        let (mut new_features, mut new_points, mut counters_hit) = (0u32, 0u64, 0u32);
        let edges = coverage::edge_counters_len();
        let mut path = 0u64;
        coverage::drain_hits(|index, bucket| {
            counters_hit += 1;
            if index < edges {
                path = path.wrapping_add(path_term(index));
            }
            if index >= seen.len() {
                // Counters registered after the run started (a lazily loaded module): grow.
                seen.resize(index + 1, 0);
                hits.resize(index + 1, 0);
            }
            hits[index] = hits[index].saturating_add(1);
            if fresh {
                reach.reached_new |= FreshReach::reach(&mut reach.counters, index);
            }
            let slot = &mut seen[index];
            if *slot & bucket == 0 {
                if *slot == 0 {
                    new_points += 1;
                }
                *slot |= bucket;
                new_features += 1;
                if discovered.len() < MAX_SEED_FEATURES {
                    discovered.push(Feature::Counter(index as u32));
                }
            }
        });
        self.coverage_points += new_points;
        self.coverage_features += u64::from(new_features);
        self.last_counters_hit = counters_hit;
        let mut new_path = 0;
        if counters_hit > 0
            && self
                .paths
                .observe(path, new_features > 0, self.coverage_features)
        {
            new_path = 1;
            if self.discovered.len() < MAX_SEED_FEATURES {
                self.discovered.push(Feature::Path);
            }
        }
        (new_features, new_path)
    }

    fn observe_recorded(&mut self, run: &LastRun, novelty: &mut Novelty) {
        // Label frequencies are kept even with label feedback off: the statistics report them.
        for &id in &run.labels {
            let index = id as usize;
            if self.labels_seen.len() <= index {
                self.labels_seen.resize(index + 1, false);
                self.label_hits.resize(index + 1, 0);
            }
            self.label_hits[index] += 1;
            if self.sources.labels && !self.labels_seen[index] {
                self.labels_seen[index] = true;
                self.labels_points += 1;
                novelty.labels += 1;
                if self.discovered.len() < MAX_SEED_FEATURES {
                    self.discovered.push(Feature::Label(id));
                }
            }
        }
        if self.sources.targets {
            for &(id, value) in &run.targets {
                if raise(&mut self.targets_best, id, value) {
                    novelty.targets += 1;
                }
            }
        }
        if self.sources.assume {
            for &(id, score) in &run.assumes {
                // True scores count as 0: once satisfied, "more true" is not progress.
                if raise(&mut self.assume_best, id, score.min(0.0)) {
                    novelty.assumes += 1;
                }
            }
        }
    }
}

/// The size class of an encoding of `len` bytes: exact below 64, then quarter-octaves (64-79,
/// 80-95, 96-111, 112-127, 128-159, ...), at most 255. Small inputs are told apart byte by byte,
/// where one more node matters; big ones by magnitude, so the number of classes (and of seeds)
/// stays small.
pub(crate) fn size_class(len: usize) -> u32 {
    if len < 64 {
        return len as u32;
    }
    let octave = usize::BITS - 1 - len.leading_zeros(); // >= 6
    let quarter = ((len >> (octave - 2)) & 3) as u32;
    (64 + 4 * (octave - 6) + quarter).min(255)
}

/// Raises `best[id]` to `value` if `value` is higher (or the first value seen); says whether it did.
fn raise(best: &mut Vec<f64>, id: u32, value: f64) -> bool {
    let index = id as usize;
    if best.len() <= index {
        best.resize(index + 1, f64::NEG_INFINITY);
    }
    if value > best[index] {
        best[index] = value;
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::{path_term, size_class, PathSet, PATHS_PER_FEATURE};

    fn path(counters: &[usize]) -> u64 {
        counters
            .iter()
            .fold(0u64, |sum, &index| sum.wrapping_add(path_term(index)))
    }

    #[test]
    fn a_path_is_the_set_of_counters_hit() {
        assert_eq!(path(&[3, 7, 100]), path(&[100, 3, 7]), "scan order aside");
        let distinct = [
            path(&[3]),
            path(&[7]),
            path(&[3, 7]),
            path(&[3, 7, 9]),
            path(&[3, 8]),
            path(&[0]),
            path(&[]),
        ];
        for (i, a) in distinct.iter().enumerate() {
            for b in &distinct[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn a_new_path_is_kept_once_and_paths_are_bounded_by_features() {
        let mut paths = PathSet::default();
        // A run that found a new feature: its path is recorded, not counted.
        assert!(!paths.observe(path(&[1, 2]), true, 1));
        assert!(!paths.observe(path(&[1, 2]), false, 1), "seen");
        // New combinations of known counters are kept, each once.
        assert!(paths.observe(path(&[1]), false, 1));
        assert!(!paths.observe(path(&[1]), false, 1));
        for extra in 3..3 + PATHS_PER_FEATURE as usize - 1 {
            assert!(paths.observe(path(&[1, extra]), false, 1), "{extra}");
        }
        // PATHS_PER_FEATURE paths per feature kept: the next new one waits for a new feature.
        assert!(!paths.observe(path(&[2]), false, 1));
        assert!(paths.observe(path(&[2]), false, 2));
    }

    #[test]
    fn size_classes_are_exact_then_half_octaves() {
        assert_eq!(
            (0..64).map(size_class).collect::<Vec<_>>(),
            (0..64).collect::<Vec<_>>()
        );
        assert_eq!(size_class(64), 64);
        assert_eq!(size_class(79), 64);
        assert_eq!(size_class(80), 65);
        assert_eq!(size_class(127), 67);
        assert_eq!(size_class(128), 68);
        assert_eq!(size_class(usize::MAX), 255);
        let classes: Vec<u32> = (0..100_000).map(size_class).collect();
        assert!(classes.windows(2).all(|w| w[0] <= w[1]), "monotone");
    }
}
