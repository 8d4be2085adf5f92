//! Strategy domains: bringing typed mutants back into the set of values a strategy can produce.
//!
//! typefuzz mutates the argument *values*, so a mutant of `x in 1..10u8` may be `0` or `200`,
//! values proptest would never pass to the test. For the strategies whose domain is a simple set
//! the adapter knows, every input is *projected* into that set before the property runs:
//!
//! | strategy | projection of an out-of-domain mutant |
//! |---|---|
//! | integer `a..b`, `a..=b`, `a..`, `..b`, `..=b` | `a + (x mod width)` (in-domain values are unchanged; `0` maps to `a`, so shrinking towards zero shrinks towards `a`) |
//! | float `a..b`, `a..=b`, `a..`, `..b`, `..=b` | clamped into the range; NaN becomes `a` |
//! | `any::<f32>()`, `any::<f64>()`, `prop::num::f64::POSITIVE` etc. | NaN and infinities are replaced unless the classes include them; a forbidden sign is flipped |
//! | `Just(v)` | `v` |
//! | `any::<T>()` for integers, `bool`, `char`, ... and `x: T` arguments | none needed: the domain is the whole type |
//!
//! Every other strategy — `prop_map`, `prop_flat_map`, `prop_filter`, regexes, collection sizes,
//! `prop_oneof!`, tuples of strategies in one argument — is **a source of seeds only**: its values
//! start the search, and mutants range over the whole type. A property that only holds on such a
//! strategy's image must say so with `prop_assume!` (for example
//! `prop_assume!(s.len() <= 10)` for `s in "[a-z]{0,10}"`), or typefuzz reports a failure proptest
//! could not produce.
//!
//! The `proptest!` macro picks the projection of each `x in strategy` argument from the
//! strategy's type at compile time (autoref specialization: unknown strategies get [`Whole`]).
//! The function API ([`run`](crate::run), [`check`](crate::check)) cannot see the strategy's
//! type through its generic parameter, so it does not project; use the macro's closure form
//! (`typefuzz::proptest!(config, |(x in 1..10u8)| ...)`) or [`run_in`](crate::run_in) with an
//! explicit domain.

use std::fmt::Debug;
use std::ops::{Range, RangeFrom, RangeInclusive, RangeTo, RangeToInclusive};

/// A set of values that out-of-domain inputs are projected into.
///
/// `project` must leave values already in the domain unchanged and be deterministic, so replayed
/// regression files and shrinking see the same inputs as the run that found them.
///
/// ```
/// use typefuzz_proptest::domain::{Domain, IntRange};
/// let d = IntRange::from(1..10u8);
/// let mut x = 200u8;
/// d.project(&mut x);
/// assert!((1..10).contains(&x));
/// let mut y = 5u8;
/// d.project(&mut y);
/// assert_eq!(y, 5);
/// ```
pub trait Domain<T> {
    /// Replaces `value` by a value of the domain if it is not in it.
    fn project(&self, value: &mut T);
}

/// The whole type: nothing to project (unknown strategies, `any::<u32>()`, `x: T` arguments).
///
/// ```
/// use typefuzz_proptest::domain::{Domain, Whole};
/// let mut s = String::from("anything");
/// Whole.project(&mut s);
/// assert_eq!(s, "anything");
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Whole;

impl<T> Domain<T> for Whole {
    #[inline]
    fn project(&self, _: &mut T) {}
}

/// Exactly one value: proptest's `Just(v)`.
///
/// ```
/// use typefuzz_proptest::domain::{Domain, Exactly};
/// let mut x = 7;
/// Exactly(0).project(&mut x);
/// assert_eq!(x, 0);
/// ```
#[derive(Clone, Debug)]
pub struct Exactly<T>(pub T);

impl<T: Clone + PartialEq> Domain<T> for Exactly<T> {
    fn project(&self, value: &mut T) {
        if *value != self.0 {
            value.clone_from(&self.0);
        }
    }
}

/// An inclusive integer range `lo..=hi` (empty ranges project nothing: proptest rejects them
/// before any test runs).
///
/// Out-of-range values map to `lo + (x mod width)`, with `x` read as unsigned: deterministic,
/// spread over the whole range, and `0` maps to `lo`.
///
/// ```
/// use typefuzz_proptest::domain::{Domain, IntRange};
/// let d = IntRange::from(-1000..1000i32);
/// for x in [i32::MIN, -1001, 1000, i32::MAX] {
///     let mut y = x;
///     d.project(&mut y);
///     assert!((-1000..1000).contains(&y), "{x} -> {y}");
/// }
/// let mut zero = 0u8;
/// IntRange::from(25u8..).project(&mut zero);
/// assert_eq!(zero, 25);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct IntRange<T> {
    lo: T,
    hi: T,
    empty: bool,
}

/// A float range, closed or half-open; out-of-range values (and NaN) are clamped into it.
///
/// ```
/// use typefuzz_proptest::domain::{Domain, FloatRange};
/// let d = FloatRange::from(0.0..1.0f64);
/// for x in [f64::NAN, -3.0, 1.0, f64::INFINITY] {
///     let mut y = x;
///     d.project(&mut y);
///     assert!((0.0..1.0).contains(&y), "{x} -> {y}");
/// }
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FloatRange<T> {
    lo: T,
    hi: T,
    hi_inclusive: bool,
}

/// The float classes of proptest's `prop::num::f64::Any` constants (`any::<f64>()` is
/// `POSITIVE | NEGATIVE | NORMAL | SUBNORMAL | ZERO`: no NaN, no infinities).
///
/// Only the sign, NaN and infinity classes are projected: NaN becomes `0.0`, an infinity the
/// largest finite value of its sign, and a value of a sign not generated is negated.
///
/// ```
/// use typefuzz_proptest::domain::{Domain, FloatClasses};
/// let d = FloatClasses::of(&proptest::prelude::any::<f64>());
/// let mut x = f64::NAN;
/// d.project(&mut x);
/// assert_eq!(x, 0.0);
/// let mut y = f64::NEG_INFINITY;
/// d.project(&mut y);
/// assert_eq!(y, f64::MIN);
/// let positive = FloatClasses::of(&proptest::num::f64::POSITIVE);
/// let mut z = -2.5;
/// positive.project(&mut z);
/// assert_eq!(z, 2.5);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FloatClasses {
    nan: bool,
    infinite: bool,
    positive: bool,
    negative: bool,
}

impl FloatClasses {
    /// Reads the classes of a `prop::num::f32::Any`/`f64::Any` strategy. Their fields are
    /// private; their `Debug` lists the class names, which is what is read here.
    pub fn of(strategy: &impl Debug) -> Self {
        let classes = format!("{strategy:?}");
        let positive = classes.contains("POSITIVE");
        let negative = classes.contains("NEGATIVE");
        FloatClasses {
            nan: classes.contains("NAN"),
            infinite: classes.contains("INFINITE"),
            // proptest: with neither sign given, POSITIVE is assumed.
            positive: positive || !negative,
            negative,
        }
    }
}

macro_rules! int_domains {
    ($($t:ty => $u:ty;)*) => {$(
        impl From<Range<$t>> for IntRange<$t> {
            fn from(r: Range<$t>) -> Self {
                IntRange { lo: r.start, hi: r.end.wrapping_sub(1), empty: r.start >= r.end }
            }
        }
        impl From<RangeInclusive<$t>> for IntRange<$t> {
            fn from(r: RangeInclusive<$t>) -> Self {
                IntRange { lo: *r.start(), hi: *r.end(), empty: r.start() > r.end() }
            }
        }
        impl From<RangeFrom<$t>> for IntRange<$t> {
            fn from(r: RangeFrom<$t>) -> Self {
                IntRange { lo: r.start, hi: <$t>::MAX, empty: false }
            }
        }
        impl From<RangeTo<$t>> for IntRange<$t> {
            fn from(r: RangeTo<$t>) -> Self {
                IntRange { lo: <$t>::MIN, hi: r.end.wrapping_sub(1), empty: r.end == <$t>::MIN }
            }
        }
        impl From<RangeToInclusive<$t>> for IntRange<$t> {
            fn from(r: RangeToInclusive<$t>) -> Self {
                IntRange { lo: <$t>::MIN, hi: r.end, empty: false }
            }
        }
        impl Domain<$t> for IntRange<$t> {
            #[inline]
            fn project(&self, value: &mut $t) {
                if self.empty || (self.lo <= *value && *value <= self.hi) {
                    return;
                }
                let width = (self.hi as $u).wrapping_sub(self.lo as $u).wrapping_add(1);
                if width != 0 {
                    *value = (self.lo as $u).wrapping_add((*value as $u) % width) as $t;
                }
            }
        }
    )*};
}

int_domains! {
    u8 => u8; u16 => u16; u32 => u32; u64 => u64; u128 => u128; usize => usize;
    i8 => u8; i16 => u16; i32 => u32; i64 => u64; i128 => u128; isize => usize;
}

macro_rules! float_domains {
    ($($t:ident: $bits:ty;)*) => {$(
        impl From<Range<$t>> for FloatRange<$t> {
            fn from(r: Range<$t>) -> Self {
                FloatRange { lo: r.start, hi: r.end, hi_inclusive: false }
            }
        }
        impl From<RangeInclusive<$t>> for FloatRange<$t> {
            fn from(r: RangeInclusive<$t>) -> Self {
                FloatRange { lo: *r.start(), hi: *r.end(), hi_inclusive: true }
            }
        }
        impl From<RangeFrom<$t>> for FloatRange<$t> {
            fn from(r: RangeFrom<$t>) -> Self {
                FloatRange { lo: r.start, hi: <$t>::MAX, hi_inclusive: true }
            }
        }
        impl From<RangeTo<$t>> for FloatRange<$t> {
            fn from(r: RangeTo<$t>) -> Self {
                FloatRange { lo: <$t>::MIN, hi: r.end, hi_inclusive: false }
            }
        }
        impl From<RangeToInclusive<$t>> for FloatRange<$t> {
            fn from(r: RangeToInclusive<$t>) -> Self {
                FloatRange { lo: <$t>::MIN, hi: r.end, hi_inclusive: true }
            }
        }
        impl Domain<$t> for FloatRange<$t> {
            #[inline]
            fn project(&self, value: &mut $t) {
                let x = *value;
                let below_hi = x < self.hi || (self.hi_inclusive && x == self.hi);
                if self.lo <= x && below_hi {
                    return;
                }
                *value = if x.is_nan() || x < self.lo {
                    self.lo
                } else if self.hi_inclusive {
                    self.hi
                } else {
                    // The largest value below `hi` (`next_down`, by hand for older toolchains).
                    let hi = self.hi;
                    let below = if hi == 0.0 {
                        -<$t>::from_bits(1)
                    } else if hi > 0.0 {
                        <$t>::from_bits(hi.to_bits() - 1)
                    } else {
                        <$t>::from_bits(hi.to_bits() + 1)
                    };
                    if below < self.lo { self.lo } else { below }
                };
            }
        }
        impl Domain<$t> for FloatClasses {
            #[inline]
            fn project(&self, value: &mut $t) {
                let x = *value;
                if x.is_nan() {
                    if !self.nan {
                        *value = if self.positive { 0.0 } else { -0.0 };
                    }
                    return;
                }
                let mut y = x;
                if y.is_infinite() && !self.infinite {
                    y = if y > 0.0 { <$t>::MAX } else { <$t>::MIN };
                }
                if (y.is_sign_negative() && !self.negative) || (y.is_sign_positive() && !self.positive) {
                    y = -y;
                }
                *value = y;
            }
        }
    )*};
}

float_domains! {
    f32: u32;
    f64: u64;
}

/// A tuple of domains is the domain of the tuple: each component projected by its own.
macro_rules! tuple_domains {
    ($( ($($t:ident $d:ident $index:tt),+) )+) => {$(
        impl<$($t, $d: Domain<$t>),+> Domain<($($t,)+)> for ($($d,)+) {
            #[inline]
            fn project(&self, value: &mut ($($t,)+)) {
                $(self.$index.project(&mut value.$index);)+
            }
        }
    )+};
}

tuple_domains! {
    (T0 D0 0)
    (T0 D0 0, T1 D1 1)
    (T0 D0 0, T1 D1 1, T2 D2 2)
    (T0 D0 0, T1 D1 1, T2 D2 2, T3 D3 3)
    (T0 D0 0, T1 D1 1, T2 D2 2, T3 D3 3, T4 D4 4)
    (T0 D0 0, T1 D1 1, T2 D2 2, T3 D3 3, T4 D4 4, T5 D5 5)
    (T0 D0 0, T1 D1 1, T2 D2 2, T3 D3 3, T4 D4 4, T5 D5 5, T6 D6 6)
    (T0 D0 0, T1 D1 1, T2 D2 2, T3 D3 3, T4 D4 4, T5 D5 5, T6 D6 6, T7 D7 7)
    (T0 D0 0, T1 D1 1, T2 D2 2, T3 D3 3, T4 D4 4, T5 D5 5, T6 D6 6, T7 D7 7, T8 D8 8)
    (T0 D0 0, T1 D1 1, T2 D2 2, T3 D3 3, T4 D4 4, T5 D5 5, T6 D6 6, T7 D7 7, T8 D8 8, T9 D9 9)
    (T0 D0 0, T1 D1 1, T2 D2 2, T3 D3 3, T4 D4 4, T5 D5 5, T6 D6 6, T7 D7 7, T8 D8 8, T9 D9 9, T10 D10 10)
    (T0 D0 0, T1 D1 1, T2 D2 2, T3 D3 3, T4 D4 4, T5 D5 5, T6 D6 6, T7 D7 7, T8 D8 8, T9 D9 9, T10 D10 10, T11 D11 11)
}

/// Picks a strategy's [`Domain`] from its type (what the macro expands to). Not public API.
#[doc(hidden)]
pub mod probe {
    use super::*;

    /// Wraps a strategy reference for autoref specialization: `(&Probe(&s)).__typefuzz_domain()`
    /// finds [`Known`] when an impl exists for `Probe<S>`, else [`Fallback`] one autoref later.
    pub struct Probe<'a, S>(pub &'a S);

    /// The domain of a strategy the adapter knows.
    pub trait Known {
        /// The domain type.
        type Domain;
        /// The strategy's domain.
        fn __typefuzz_domain(&self) -> Self::Domain;
    }

    /// Any other strategy: the whole type.
    pub trait Fallback {
        /// The whole type.
        fn __typefuzz_domain(&self) -> Whole;
    }

    impl<S> Fallback for &Probe<'_, S> {
        #[inline]
        fn __typefuzz_domain(&self) -> Whole {
            Whole
        }
    }

    macro_rules! known_ranges {
        ($domain:ident: $($t:ty),*) => {$(
            impl Known for Probe<'_, Range<$t>> {
                type Domain = $domain<$t>;
                fn __typefuzz_domain(&self) -> $domain<$t> { self.0.clone().into() }
            }
            impl Known for Probe<'_, RangeInclusive<$t>> {
                type Domain = $domain<$t>;
                fn __typefuzz_domain(&self) -> $domain<$t> { self.0.clone().into() }
            }
            impl Known for Probe<'_, RangeFrom<$t>> {
                type Domain = $domain<$t>;
                fn __typefuzz_domain(&self) -> $domain<$t> { self.0.clone().into() }
            }
            impl Known for Probe<'_, RangeTo<$t>> {
                type Domain = $domain<$t>;
                fn __typefuzz_domain(&self) -> $domain<$t> { (*self.0).into() }
            }
            impl Known for Probe<'_, RangeToInclusive<$t>> {
                type Domain = $domain<$t>;
                fn __typefuzz_domain(&self) -> $domain<$t> { (*self.0).into() }
            }
        )*};
    }

    known_ranges!(IntRange: u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
    known_ranges!(FloatRange: f32, f64);

    impl Known for Probe<'_, proptest::num::f32::Any> {
        type Domain = FloatClasses;
        fn __typefuzz_domain(&self) -> FloatClasses {
            FloatClasses::of(self.0)
        }
    }

    impl Known for Probe<'_, proptest::num::f64::Any> {
        type Domain = FloatClasses;
        fn __typefuzz_domain(&self) -> FloatClasses {
            FloatClasses::of(self.0)
        }
    }

    impl<T: Clone + Debug> Known for Probe<'_, proptest::strategy::Just<T>> {
        type Domain = Exactly<T>;
        fn __typefuzz_domain(&self) -> Exactly<T> {
            Exactly(self.0 .0.clone())
        }
    }
}

/// A strategy paired with its domain: generates like the strategy; the macro's argument tuple
/// is a tuple of these. Not public API.
#[doc(hidden)]
#[derive(Debug)]
pub struct Arg<S, D> {
    /// The user's strategy.
    pub strategy: S,
    /// Its domain.
    pub domain: D,
}

impl<S: proptest::strategy::Strategy, D: Debug> proptest::strategy::Strategy for Arg<S, D> {
    type Tree = S::Tree;
    type Value = S::Value;

    fn new_tree(
        &self,
        runner: &mut proptest::test_runner::TestRunner,
    ) -> proptest::strategy::NewTree<Self> {
        self.strategy.new_tree(runner)
    }
}

/// Projects a tuple of arguments, each by its own domain. Not public API.
#[doc(hidden)]
pub trait ProjectArgs: proptest::strategy::Strategy {
    /// Projects every argument.
    fn project_args(&self, value: &mut Self::Value);
}

macro_rules! project_args {
    ($( ($($s:ident $d:ident $index:tt),+) )+) => {$(
        impl<$($s: proptest::strategy::Strategy, $d: Domain<$s::Value> + Debug),+> ProjectArgs
            for ($(Arg<$s, $d>,)+)
        {
            #[inline]
            fn project_args(&self, value: &mut Self::Value) {
                $(self.$index.domain.project(&mut value.$index);)+
            }
        }
    )+};
}

project_args! {
    (S0 D0 0)
    (S0 D0 0, S1 D1 1)
    (S0 D0 0, S1 D1 1, S2 D2 2)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6, S7 D7 7)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6, S7 D7 7, S8 D8 8)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6, S7 D7 7, S8 D8 8, S9 D9 9)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6, S7 D7 7, S8 D8 8, S9 D9 9, S10 D10 10)
    (S0 D0 0, S1 D1 1, S2 D2 2, S3 D3 3, S4 D4 4, S5 D5 5, S6 D6 6, S7 D7 7, S8 D8 8, S9 D9 9, S10 D10 10, S11 D11 11)
}
