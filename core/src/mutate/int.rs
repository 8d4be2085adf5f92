//! Integers: AFL-style bit flips, small additions (by one half the time), interesting values,
//! values drawn as generation draws them, and shrinking towards 0.
//!
//! Every integer type gets the same mutator from one macro. Shrinking orders integers by
//! magnitude, then sign (`|x|` first, and a negative number is bigger than its absolute value):
//! every candidate is strictly smaller in that order, which has no infinite descending chain.
//! Candidates are `0`, `|x|` for negative `x`, the small values `1..=8` (and their negations)
//! below `|x|`, then `x` moved `2^j` towards 0 for each power of two below `|x|`, the largest
//! first: greedy shrinking over them is a binary search for the point where the property starts
//! failing (`x <= 1000` failing ends on 1001), and the small values catch modular conditions.
//!
//! The codec is fixed-width little-endian; `usize` and `isize` use 8 bytes on every platform.
//!
//! ```
//! use typefuzz_core::{codec, Context, Mutate, Operator};
//! let mut cx = Context::new(1);
//! let mut x = 100i32;
//! let op = cx.mutate(&mut x)[0];
//! assert_ne!(x, 100);
//! assert!(matches!(op, Operator::BitFlip | Operator::AddSub | Operator::Interesting
//!     | Operator::Random | Operator::Toggle));
//! assert_eq!((-6i32).shrink(&mut cx), vec![0, 6, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5]);
//! assert_eq!(1086u32.shrink(&mut cx)[9..], [62, 574, 830, 958, 1022, 1054, 1070, 1078, 1082, 1084, 1085]);
//! assert_eq!(codec::to_bytes(&1usize), vec![1, 0, 0, 0, 0, 0, 0, 0]);
//! ```

use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::leaves::Leaves;
use crate::structure::{integer_class, mix, token, Structure};
use crate::{Context, Mutate, Operator};

/// AFL's interesting magnitudes (boundaries of the usual integer widths and a few round numbers),
/// ascending, so the ones that fit a type form a prefix. MIN, MAX, MIN+1, MAX-1 and -1 are added
/// per type.
const INTERESTING_MAGNITUDES: [u128; 27] = [
    0,
    1,
    2,
    16,
    32,
    64,
    100,
    0x7f,
    0x80,
    0xff,
    0x100,
    1000,
    1024,
    4096,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    1_000_000,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x1_0000_0000,
    0x7fff_ffff_ffff_ffff,
    0x8000_0000_0000_0000,
    0xffff_ffff_ffff_ffff,
    0x1_0000_0000_0000_0000,
];

/// How many entries of [`INTERESTING_MAGNITUDES`] are at most `max`.
const fn magnitudes_up_to(max: u128) -> usize {
    let mut count = 0;
    while count < INTERESTING_MAGNITUDES.len() && INTERESTING_MAGNITUDES[count] <= max {
        count += 1;
    }
    count
}

/// Shrinking tries the values `1..=SMALL_VALUES` (and their negations) below `|x|`.
const SMALL_VALUES: u8 = 8;

/// Implements [`Mutate`] for integer types. `signed` selects the extra Toggle (negate) operator
/// and symmetric generation; `$bytes` is the codec width (8 for `usize`/`isize`, so encodings do
/// not depend on the platform).
macro_rules! int_impls {
    ($($t:ident: signed $signed:expr, codec $wide:ident;)*) => {$(
        impl Mutate for $t {
            // Inlined across crates: derived generators call this once per integer field, and
            // a call into the engine per leaf was a measurable share of generation.
            #[inline]
            fn generate(cx: &mut Context) -> Self {
                let limit = <$t>::try_from(cx.size()).unwrap_or(<$t>::MAX);
                match cx.below(4) {
                    // Small magnitudes: most properties branch on small numbers.
                    0 | 1 => {
                        let low = if $signed { (0 as $t).wrapping_sub(limit) } else { 0 };
                        cx.rng().$t(low..=limit)
                    }
                    2 => interesting(cx),
                    _ => cx.rng().$t(..),
                }
            }

            fn mutate(&mut self, cx: &mut Context) {
                let before = *self;
                // Bit flip, add/sub, interesting, random, and (signed only) negate.
                let weights: [u32; 5] = [3, 3, 2, 1, if $signed { 1 } else { 0 }];
                let mut op = match cx.weighted(&weights) {
                    Some(0) => Operator::BitFlip,
                    Some(1) => Operator::AddSub,
                    Some(2) => Operator::Interesting,
                    Some(3) => Operator::Random,
                    _ => Operator::Toggle,
                };
                match op {
                    Operator::BitFlip => {}
                    Operator::AddSub => {
                        // 1..=16 is never a multiple of 2^8, so the value always changes.
                        // Half the steps are by one: the next index, count or case.
                        let delta = if cx.rng().bool() { 1 } else { cx.rng().$t(1..=16) };
                        *self = if cx.rng().bool() {
                            self.wrapping_add(delta)
                        } else {
                            self.wrapping_sub(delta)
                        };
                    }
                    Operator::Interesting => *self = interesting(cx),
                    // A value of the generator's own distribution: small half the time,
                    // as a leaf regenerated by FuzzChick's mutators is.
                    Operator::Random => *self = Self::generate(cx),
                    _ => *self = (0 as $t).wrapping_sub(*self),
                }
                // Interesting, random and negate may land on the same value (0, MIN, luck):
                // a bit flip always changes it.
                if op == Operator::BitFlip || *self == before {
                    op = Operator::BitFlip;
                    *self = before ^ ((1 as $t) << cx.below(<$t>::BITS as usize));
                }
                cx.record(op);
            }

            fn shrink(&self, _cx: &mut Context) -> Vec<Self> {
                let x = *self;
                let mut out: Vec<$t> = Vec::new();
                if x == 0 {
                    return out;
                }
                let mut push = |candidate: $t| {
                    if candidate != x && !out.contains(&candidate) {
                        out.push(candidate);
                    }
                };
                push(0);
                #[allow(unused_comparisons)]
                let negative = x < 0;
                if negative {
                    // Same magnitude, positive sign: smaller in the (magnitude, sign) order.
                    if let Some(positive) = x.checked_neg() {
                        push(positive);
                    }
                }
                // Small values next: a modular condition (`x % 4 == 2`) fails on one of them,
                // which no step towards the boundary would reach. Only values of smaller
                // magnitude qualify.
                let magnitude = x.abs_diff(0);
                for small in 1..=SMALL_VALUES {
                    let small = small as $t;
                    let small_magnitude = small.abs_diff(0);
                    if small_magnitude < magnitude {
                        push(small);
                        if negative {
                            push((0 as $t).wrapping_sub(small));
                        }
                    }
                }
                // x -/+ 2^j for every power of two below |x|, the largest first: the first
                // candidate that still fails is at most twice as far from the failing boundary
                // as the nearest one, so repeated shrinking is a binary search that ends on the
                // boundary itself (`x <= 1000` failing ends on 1001), in O(bits^2) runs.
                // Subtracting 2^j (j >= 2) also keeps `x % 4`, so modular failures keep failing.
                let mut power = (magnitude / magnitude) << magnitude.ilog2();
                loop {
                    if power < magnitude {
                        let step = power as $t;
                        push(if negative { x + step } else { x - step });
                    }
                    if power == 1 {
                        break;
                    }
                    power >>= 1;
                }
                out
            }

            #[inline]
            fn encode(&self, out: &mut Encoder) {
                out.write_array((*self as $wide).to_le_bytes());
            }

            #[inline]
            fn decode(input: &mut Decoder<'_>) -> Self {
                <$wide>::from_le_bytes(input.read_array()) as $t
            }

            fn fingerprint(fingerprint: &mut Fingerprint) {
                fingerprint.name(stringify!($t));
            }

            fn visit_structure(&self, structure: &mut Structure<'_>) {
                const TYPE: u64 = token(stringify!($t));
                let x = *self;
                #[allow(unused_comparisons)]
                let negative = x < 0;
                let class = integer_class(x.abs_diff(0) as u128, negative, x == <$t>::MAX, x == <$t>::MIN);
                structure.node(mix(TYPE, class));
                // The exact value, for the fingerprint (128-bit values in two halves).
                let wide = x as u128;
                structure.value(wide as u64);
                if core::mem::size_of::<$t>() > 8 {
                    structure.value((wide >> 64) as u64);
                }
            }

            fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
                let wide = *self as u128;
                hasher.write(wide as u64);
                if core::mem::size_of::<$t>() > 8 {
                    hasher.write((wide >> 64) as u64);
                }
            }

            /// At once: a `Vec` of integers is copied with one `memcpy`.
            fn duplicate_slice(items: &[Self]) -> Vec<Self> {
                items.to_vec()
            }

            fn hash_slice(items: &[Self], hasher: &mut crate::mutate::ValueHasher) {
                // SAFETY: integers have no padding and every byte pattern is initialized; the
                // bytes are read within the slice's own memory.
                let bytes = unsafe {
                    core::slice::from_raw_parts(items.as_ptr().cast::<u8>(), core::mem::size_of_val(items))
                };
                hasher.write_bytes(bytes);
            }

            fn visit_leaves(&mut self, leaves: &mut Leaves<'_>) {
                // 128-bit values take part through their low 64 bits, the widest comparison
                // the instrumentation reports.
                const WIDTH: u8 = if core::mem::size_of::<$t>() < 8 { core::mem::size_of::<$t>() as u8 } else { 8 };
                const SHIFT: u32 = 64 - 8 * WIDTH as u32;
                let bits = (*self as u64) << SHIFT >> SHIFT;
                if let Some(new) = leaves.integer(bits, WIDTH) {
                    // Signed types sign-extend the replacement from their width.
                    *self = if $signed { ((new << SHIFT) as i64 >> SHIFT) as $t } else { new as $t };
                }
            }
        }

        impl Interesting for $t {
            fn interesting(cx: &mut Context) -> Self {
                const FITTING: usize = magnitudes_up_to(<$t>::MAX as u128);
                // Five per-type specials, then the fitting magnitudes (negated half the time
                // for signed types).
                let pick = cx.below(5 + FITTING);
                match pick {
                    0 => <$t>::MIN,
                    1 => <$t>::MAX,
                    2 => <$t>::MIN.wrapping_add(1),
                    3 => <$t>::MAX - 1,
                    4 => (0 as $t).wrapping_sub(1),
                    _ => {
                        let magnitude = INTERESTING_MAGNITUDES[pick - 5] as $t;
                        if $signed && cx.rng().bool() {
                            (0 as $t).wrapping_sub(magnitude)
                        } else {
                            magnitude
                        }
                    }
                }
            }
        }
    )*};
}

/// Types with a table of interesting values.
trait Interesting {
    fn interesting(cx: &mut Context) -> Self;
}

fn interesting<T: Interesting>(cx: &mut Context) -> T {
    T::interesting(cx)
}

int_impls! {
    u8: signed false, codec u8;
    u16: signed false, codec u16;
    u32: signed false, codec u32;
    u64: signed false, codec u64;
    u128: signed false, codec u128;
    usize: signed false, codec u64;
    i8: signed true, codec i8;
    i16: signed true, codec i16;
    i32: signed true, codec i32;
    i64: signed true, codec i64;
    i128: signed true, codec i128;
    isize: signed true, codec i64;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interesting_values_fit_their_type() {
        let mut cx = Context::new(3);
        let mut seen_boundary = false;
        for _ in 0..1000 {
            let v: u8 = interesting(&mut cx);
            seen_boundary |= v == 0x80;
        }
        assert!(seen_boundary);
        assert_eq!(magnitudes_up_to(u8::MAX as u128), 10);
        assert_eq!(magnitudes_up_to(i8::MAX as u128), 8);
    }

    /// Most properties branch on small integers (indices, counts, cases): the next value and
    /// small values are the common mutants, a far jump the rare one.
    #[test]
    fn small_moves_are_common_mutants() {
        use crate::Mutate;
        let mut cx = Context::new(5).with_max_size(4);
        let (mut neighbours, mut small, runs) = (0, 0, 10_000);
        for _ in 0..runs {
            let mut x = 2i64;
            x.mutate(&mut cx);
            neighbours += usize::from(x.abs_diff(2) == 1);
            small += usize::from(x.unsigned_abs() <= 4);
        }
        // About 18% of mutants are a neighbour and 38% small; a uniform step of 1..=16 and a
        // full-range random value gave 2.5% and 21%.
        assert!(neighbours * 10 > runs, "{neighbours} neighbours in {runs}");
        assert!(small * 10 > runs * 3, "{small} small values in {runs}");
    }

    #[test]
    fn shrink_of_min_is_well_founded() {
        let mut cx = Context::new(1);
        let candidates = i8::MIN.shrink(&mut cx);
        assert_eq!(candidates[0], 0);
        assert!(candidates.iter().all(|c| c.unsigned_abs() < 128));
    }
}
