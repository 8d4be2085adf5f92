//! Value profile: distance features for comparisons against constants (what the comparison
//! hooks record besides the operands for input-to-state mutation).

use super::*;

/// The value-profile slot of the feature `(site, kind, value)`: a hash of the site and kind, plus
/// the value, so that the distances recorded at one site never collide with each other.
// Only the hooks call it, and under cargo-fuzz (`cfg(fuzzing)`) libFuzzer owns the hooks.
#[cfg_attr(fuzzing, allow(dead_code))]
#[inline]
pub(super) fn value_profile_slot(site: u64, kind: u64, value: u32) -> usize {
    let hash =
        (site ^ kind.wrapping_mul(0xBF58_476D_1CE4_E5B9)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((hash >> 32) as usize).wrapping_add(value as usize) & (VALUE_PROFILE_LEN - 1)
}

/// Records how close `value` is to `constant` (both of `bits` width) at the comparison site
/// identified by `site`: as the number of differing bits and as the bit length of the numeric
/// difference. Each distance is its own feature, so every step closer is new coverage — until
/// some value of the run equals the constant: from then on the site records nothing. The
/// distances exist to lead the search to a value it would not hit by chance; once one was hit
/// (and kept, with the coverage the match opened), more distances to the same constant only keep
/// seeds that differ in how far some integer is from a bound, a length or a tag it already
/// matched elsewhere, and those seeds dilute the queue (IFC's stack machine: 35 of 60 trials found
/// with every distance, 44 with this rule, 48 with no distances at all, at 400,000 tests each;
/// `bench/RESULTS.md`).
// Only the hooks call it, and under cargo-fuzz (`cfg(fuzzing)`) libFuzzer owns the hooks.
#[cfg_attr(fuzzing, allow(dead_code))]
#[inline]
pub(super) fn value_profile_compare(site: u64, constant: u64, value: u64) {
    // One thread-local access for the whole hook: it runs on every traced comparison.
    THREAD_RUN.with(|run| {
        if !run.running.get() {
            return;
        }
        // The matching call still records its own (zero) distance below: that is the run that
        // reached the constant.
        let slot = (site.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MATCHED_BITS)) as usize;
        let word = &run.matched[slot / 64];
        let bit = 1u64 << (slot % 64);
        if word.get() & bit != 0 {
            return;
        }
        if value == constant {
            word.set(word.get() | bit);
        }
        let differing_bits = (constant ^ value).count_ones();
        let distance_bits = 64 - constant.abs_diff(value).leading_zeros();
        run.mark_value_profile(site, 1, differing_bits);
        run.mark_value_profile(site, 2, distance_bits);
    });
}

/// The site key of a comparison against a constant: the constant and its width (stable Rust
/// has no return address to identify the instruction, and the constant is what we steer to).
// Only the hooks call it, and under cargo-fuzz (`cfg(fuzzing)`) libFuzzer owns the hooks.
#[cfg_attr(fuzzing, allow(dead_code))]
#[inline]
pub(super) fn constant_site(constant: u64, bits: u64) -> u64 {
    constant.rotate_left(8) ^ bits
}
