//! Floating-point numbers: bit-level and arithmetic mutations, special values, and shrinking
//! towards small integers.
//!
//! Values are compared bitwise throughout (a NaN is "changed" when its bits change, and the codec
//! round-trips NaN payloads exactly).
//!
//! ```
//! use typefuzz_core::{codec, Context, Mutate};
//! let mut cx = Context::new(3);
//! let mut x = 2.5f64;
//! cx.mutate(&mut x);
//! assert_ne!(x.to_bits(), 2.5f64.to_bits());
//! assert_eq!(3.0f64.shrink(&mut cx), vec![0.0, 1.0, 2.0]);
//! let nan = f32::from_bits(0x7fc0_1234);
//! assert_eq!(codec::from_bytes::<f32>(&codec::to_bytes(&nan)).to_bits(), nan.to_bits());
//! ```
//!
//! # Shrink order
//!
//! A float `x` is ranked by the key `(non-finite, has a fractional part, bits of |x|, sign bit)`,
//! compared lexicographically: finite before infinite or NaN, integers before fractions, then
//! smaller magnitude (the bits of a non-negative float grow with its value), then `+` before `-`.
//! The key is injective and there are finitely many floats, so this strict order is well-founded;
//! [`shrink`](crate::Mutate::shrink) only returns candidates with a smaller key.

use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::structure::{mix, token, Structure};
use crate::{Context, Mutate, Operator};

macro_rules! float_impls {
    ($($t:ident: bits $bits:ident;)*) => {$(
        impl Mutate for $t {
            fn generate(cx: &mut Context) -> Self {
                match cx.below(4) {
                    0 | 1 => {
                        let limit = i64::try_from(cx.size()).unwrap_or(i64::MAX);
                        cx.rng().i64(-limit..=limit) as $t
                    }
                    2 => interesting_float::<$t>(cx),
                    _ => <$t>::from_bits(cx.rng().$bits(..)),
                }
            }

            fn mutate(&mut self, cx: &mut Context) {
                let before = self.to_bits();
                let mut op = match cx.weighted(&[3, 3, 2, 1, 1]) {
                    Some(0) => Operator::BitFlip,
                    Some(1) => Operator::AddSub,
                    Some(2) => Operator::Interesting,
                    Some(3) => Operator::Random,
                    _ => Operator::Toggle,
                };
                match op {
                    Operator::BitFlip => {}
                    Operator::AddSub => {
                        let delta = cx.rng().u8(1..=16) as $t;
                        *self = match cx.below(4) {
                            0 => *self + delta,
                            1 => *self - delta,
                            2 => *self * 2.0,
                            _ => *self / 2.0,
                        };
                    }
                    Operator::Interesting => *self = interesting_float::<$t>(cx),
                    Operator::Random => *self = <$t>::from_bits(cx.rng().$bits(..)),
                    // Negation flips the sign bit, so it always changes the bits.
                    _ => *self = -*self,
                }
                // Arithmetic on NaN, infinities, zero or huge values, and interesting or random
                // picks, can leave the bits unchanged: a bit flip always changes them.
                if op == Operator::BitFlip || self.to_bits() == before {
                    op = Operator::BitFlip;
                    let bit = cx.below(<$bits>::BITS as usize);
                    *self = <$t>::from_bits(before ^ (1 << bit));
                }
                cx.record(op);
            }

            fn shrink(&self, _cx: &mut Context) -> Vec<Self> {
                let x = *self;
                let key = shrink_key(x);
                let mut out: Vec<$t> = Vec::new();
                let mut push = |candidate: $t| {
                    let fresh = !out.iter().any(|c| c.to_bits() == candidate.to_bits());
                    if fresh && shrink_key(candidate) < key {
                        out.push(candidate);
                    }
                };
                push(0.0);
                if x.is_finite() {
                    push(x.abs());
                    push(x.trunc());
                    push(x / 2.0);
                    push((x / 2.0).trunc());
                    if x.abs() >= 1.0 {
                        push(x - x.signum());
                    }
                }
                out
            }

            fn encode(&self, out: &mut Encoder) {
                out.write_array(self.to_bits().to_le_bytes());
            }

            fn decode(input: &mut Decoder<'_>) -> Self {
                <$t>::from_bits(<$bits>::from_le_bytes(input.read_array()))
            }

            fn fingerprint(fingerprint: &mut Fingerprint) {
                fingerprint.name(stringify!($t));
            }

            fn visit_structure(&self, structure: &mut Structure<'_>) {
                const TYPE: u64 = token(stringify!($t));
                let x = *self;
                let class: u64 = if x.is_nan() {
                    0
                } else if x.is_infinite() {
                    1
                } else if x == 0.0 {
                    2
                } else if !x.is_normal() {
                    3
                } else if x.abs() < 1.0 {
                    4
                } else if x.fract() == 0.0 && x.abs() <= 1e6 {
                    5
                } else if x.abs() <= 1e6 {
                    6
                } else {
                    7
                };
                structure.node(mix(TYPE, class | (u64::from(x.is_sign_negative()) << 3)));
                structure.value(u64::from(x.to_bits()));
            }

            fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
                hasher.write(u64::from(self.to_bits()));
            }
        }

        impl Float for $t {
            type Bits = $bits;
            fn interesting() -> [$t; 12] {
                [
                <$t>::NAN,
                <$t>::INFINITY,
                <$t>::NEG_INFINITY,
                -0.0,
                0.0,
                1.0,
                -1.0,
                <$t>::MIN,
                <$t>::MAX,
                <$t>::MIN_POSITIVE,
                <$t>::EPSILON,
                // The smallest positive subnormal.
                <$t>::from_bits(1),
                ]
            }

            fn key(self) -> (bool, bool, $bits, bool) {
                let finite = self.is_finite();
                (
                    !finite,
                    finite && self.fract() != 0.0,
                    self.abs().to_bits(),
                    self.is_sign_negative(),
                )
            }
        }
    )*};
}

/// What the shrink order and the interesting table need from `f32` and `f64`.
trait Float: Copy {
    type Bits: Ord;
    fn interesting() -> [Self; 12];
    fn key(self) -> (bool, bool, Self::Bits, bool);
}

fn interesting_float<T: Float>(cx: &mut Context) -> T {
    let values = T::interesting();
    values[cx.below(values.len())]
}

/// The shrink order's key (see the module docs).
fn shrink_key<T: Float>(x: T) -> (bool, bool, T::Bits, bool) {
    x.key()
}

float_impls! {
    f32: bits u32;
    f64: bits u64;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrink_key_orders_simple_values_first() {
        assert!(shrink_key(0.0f64) < shrink_key(-0.0f64));
        assert!(shrink_key(-0.0f64) < shrink_key(1.0f64));
        assert!(shrink_key(3.0f64) < shrink_key(0.5f64));
        assert!(shrink_key(f64::MAX) < shrink_key(f64::INFINITY));
        assert!(shrink_key(f64::INFINITY) < shrink_key(f64::NAN));
    }

    #[test]
    fn integers_shrink_by_steps() {
        let mut cx = Context::new(0);
        assert_eq!(3.0f32.shrink(&mut cx), vec![0.0, 1.0, 2.0]);
        assert_eq!(f32::NAN.shrink(&mut cx), vec![0.0]);
        assert!(0.0f32.shrink(&mut cx).is_empty());
    }
}
