//! `NonZero*` integers, `Wrapping<T>` and `Saturating<T>`, through the plain integer.
//!
//! # Shrink order
//!
//! The integer's order (towards zero, then positive before negative); a `NonZero*` never
//! reaches 0: a representation of 0 reads as 1, the simplest non-zero value.

use std::num::{
    NonZeroI128, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI8, NonZeroIsize, NonZeroU128,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU8, NonZeroUsize, Saturating, Wrapping,
};

use super::via::via;
use crate::Mutate;

macro_rules! non_zero {
    ($($t:ident: $int:ty, $to:ident, $from:ident;)*) => {$(
        fn $to(n: &$t) -> $int {
            n.get()
        }

        /// Total: 0 reads as 1.
        fn $from(n: $int) -> $t {
            $t::new(n).or($t::new(1)).expect("1 is not zero")
        }

        via! {
            [] $t => $int, $to, $from, normalizing, stringify!($t)
        }
    )*};
}

non_zero! {
    NonZeroU8: u8, non_zero_u8_to, non_zero_u8_from;
    NonZeroU16: u16, non_zero_u16_to, non_zero_u16_from;
    NonZeroU32: u32, non_zero_u32_to, non_zero_u32_from;
    NonZeroU64: u64, non_zero_u64_to, non_zero_u64_from;
    NonZeroU128: u128, non_zero_u128_to, non_zero_u128_from;
    NonZeroUsize: usize, non_zero_usize_to, non_zero_usize_from;
    NonZeroI8: i8, non_zero_i8_to, non_zero_i8_from;
    NonZeroI16: i16, non_zero_i16_to, non_zero_i16_from;
    NonZeroI32: i32, non_zero_i32_to, non_zero_i32_from;
    NonZeroI64: i64, non_zero_i64_to, non_zero_i64_from;
    NonZeroI128: i128, non_zero_i128_to, non_zero_i128_from;
    NonZeroIsize: isize, non_zero_isize_to, non_zero_isize_from;
}

fn wrapping_to<T: Clone>(w: &Wrapping<T>) -> T {
    w.0.clone()
}

via! {
    [T: Mutate] Wrapping<T> => T, wrapping_to, Wrapping, injective, "Wrapping"
}

fn saturating_to<T: Clone>(s: &Saturating<T>) -> T {
    s.0.clone()
}

via! {
    [T: Mutate] Saturating<T> => T, saturating_to, Saturating, injective, "Saturating"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{codec, Context};

    #[test]
    fn non_zero_never_reaches_zero() {
        let mut cx = Context::new(1);
        let mut n = NonZeroU8::new(1).unwrap();
        for _ in 0..1000 {
            cx.mutate(&mut n);
        }
        assert_eq!(codec::from_bytes::<NonZeroU8>(&[0]).get(), 1);
        assert!(NonZeroI32::new(1).unwrap().shrink(&mut cx).is_empty());
        assert_eq!(NonZeroI32::new(-9).unwrap().shrink(&mut cx)[0].get(), 1);
    }

    #[test]
    fn wrappers_follow_the_integer() {
        let mut cx = Context::new(2);
        assert_eq!(Wrapping(9u8).shrink(&mut cx)[0], Wrapping(0));
        assert_eq!(
            codec::from_bytes::<Saturating<i16>>(&codec::to_bytes(&Saturating(-3i16))),
            Saturating(-3)
        );
    }
}
