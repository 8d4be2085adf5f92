//! Structure: input-structure coverage, the feedback that always exists (see
//! [`typefuzz_core::structure`] for the walk and its features). This module keeps the run's
//! feature map and decides which inputs are observed; the walk itself is the type model's
//! [`Structure`] visitor, which every [`Mutate`] impl reports its shape to.

use crate::Mutate;
pub use typefuzz_core::structure::*;

/// Inputs in a row that must show nothing new before [`StructureMap`] starts sampling.
const QUIET_BEFORE_SAMPLING: u64 = 1 << 12;

/// Log2 of the sparsest sampling: near saturation one input in 16 is observed.
const MAX_STRIDE_LOG2: u32 = 4;

/// The feature map of a run, and how many features it holds.
///
/// How often each feature is hit is not counted: a counter per feature (256 KiB for 2^16 of
/// them) cost a cache miss per node, and made the whole loop about twice as slow on small
/// inputs, while rarity among structure seeds did not change what the search found.
///
/// Once the map is close to saturated (no input showed a new feature for
/// [`QUIET_BEFORE_SAMPLING`] inputs in a row) only a sample of the inputs is observed: one in 2,
/// then one in 4, ... as the quiet stretch doubles, down to one in 2^[`MAX_STRIDE_LOG2`]; any new
/// feature returns to observing every input. The walk costs about as much as building the input
/// (measured: ~0.3x throughput on a 50-node term with no other feedback), and a saturated map
/// makes almost every walk worthless. The sample depends on the count of inputs only, so runs
/// stay deterministic.
pub(crate) struct StructureMap {
    /// The features seen, one bit each: allocated by the first walk, so a run that walks no
    /// input (see `Fuzzer::walks_valid`) does not clear 8 KiB for nothing.
    seen: Vec<u64>,
    pub(crate) features: u64,
    /// Inputs offered since the last one that showed a new feature.
    quiet: u64,
    /// Inputs offered in all (the sampling clock).
    offered: u64,
    /// Whether quiet stretches are sampled at all (`FeedbackSources::structure_sampling`).
    pub(crate) sampling: bool,
    /// Whether the last input offered was observed (not skipped by the sampling): its features
    /// are then all in the map, and its mutants' can be observed where they changed.
    pub(crate) walked: bool,
}

impl StructureMap {
    pub(crate) fn new() -> Self {
        StructureMap {
            seen: Vec::new(),
            features: 0,
            quiet: 0,
            offered: 0,
            sampling: true,
            walked: false,
        }
    }

    /// Whether the next input offered is observed (see the type's docs).
    #[inline]
    fn due(&mut self) -> bool {
        self.offered += 1;
        if !self.sampling || self.quiet < QUIET_BEFORE_SAMPLING {
            return true;
        }
        let stride_log2 = ((self.quiet / QUIET_BEFORE_SAMPLING).ilog2() + 1).min(MAX_STRIDE_LOG2);
        self.offered & ((1 << stride_log2) - 1) == 0
    }

    /// Observes `input` if it is due; returns how many features it set first and (some of)
    /// those features.
    pub(crate) fn observe<T: Mutate>(
        &mut self,
        input: &T,
        focus: Option<Focus<'_>>,
    ) -> (u32, impl Iterator<Item = u32>) {
        let mut discovered = [0; MAX_DISCOVERED];
        let mut new = 0;
        self.walked = self.due();
        if self.walked {
            if self.seen.is_empty() {
                self.seen = vec![0; Structure::MAP_WORDS];
            }
            let mut structure = Structure::features_only(&mut self.seen);
            if let Some(focus) = focus {
                structure.focus(focus);
            }
            input.visit_structure(&mut structure);
            new = structure.new_features();
            discovered = structure.discovered();
        }
        if new == 0 {
            self.quiet += 1;
        } else {
            self.quiet = 0;
        }
        self.features += u64::from(new);
        let remembered = (new as usize).min(MAX_DISCOVERED);
        (new, discovered.into_iter().take(remembered))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_features<T: Mutate>(map: &mut StructureMap, value: &T) -> u32 {
        map.observe(value, None).0
    }

    #[test]
    fn integer_classes_are_features() {
        let mut map = StructureMap::new();
        assert!(new_features(&mut map, &5i32) > 0);
        assert_eq!(new_features(&mut map, &6i32), 0, "5 and 6 share a class");
        assert!(
            new_features(&mut map, &i32::MAX) > 0,
            "MAX is a class of its own"
        );
        assert!(new_features(&mut map, &0i32) > 0);
        assert!(new_features(&mut map, &-1i32) > 0);
        assert!(new_features(&mut map, &5u32) > 0, "types are told apart");
    }

    #[test]
    fn place_matters() {
        let mut map = StructureMap::new();
        assert!(new_features(&mut map, &(0u8, 7u8)) > 0);
        assert!(
            new_features(&mut map, &(7u8, 0u8)) > 0,
            "the same values in other fields"
        );
        assert_eq!(new_features(&mut map, &(0u8, 9u8)), 0);
        assert!(new_features(&mut map, &vec![1u8; 3]) > 0);
        assert!(new_features(&mut map, &vec![1u8; 4]) > 0, "length class");
        assert!(
            new_features(&mut map, &Some(vec![1u8; 4])) > 0,
            "under Some"
        );
    }

    #[test]
    fn huge_and_deep_inputs_are_bounded() {
        let mut map = StructureMap::new();
        // 100,000 distinct magnitudes at one place: far fewer features, as the walk stops
        // after MAX_NODES nodes and magnitudes fall into a few classes.
        let long: Vec<u32> = (0..100_000).collect();
        let features = new_features(&mut map, &long);
        assert!(features > 0 && features < 200, "{features}");
    }

    #[test]
    fn a_saturated_map_samples_and_a_new_feature_ends_the_sampling() {
        let mut map = StructureMap::new();
        let observed =
            |map: &mut StructureMap, inputs: u64| (0..inputs).filter(|_| map.due()).count() as u64;
        assert_eq!(
            observed(&mut map, 100),
            100,
            "a fresh map observes every input"
        );
        // Quiet stretches of 1, 2, 4 and 8+ times the threshold: strides 2, 4, 8 and 16.
        for (quiet, stride) in [(1, 2), (2, 4), (4, 8), (8, 16), (1000, 16)] {
            map.quiet = quiet * QUIET_BEFORE_SAMPLING;
            assert_eq!(observed(&mut map, 64 * stride), 64, "quiet {quiet}");
        }
        // A new feature (a value class never seen) resets the quiet count: every input again.
        map.quiet = 1000 * QUIET_BEFORE_SAMPLING;
        let shown = (0..16)
            .map(|_| map.observe(&u8::MAX, None).0)
            .find(|&new| new > 0);
        assert!(shown.is_some(), "one of 16 inputs is observed");
        assert_eq!(map.quiet, 0);
        assert_eq!(observed(&mut map, 10), 10);
    }
}
