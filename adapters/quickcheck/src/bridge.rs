//! The version-neutral bridge: what the runner needs from a quickcheck major version (a seeded
//! `Gen`, `Arbitrary`, `Testable`), so one runner serves quickcheck 0.9 and 1.x.
//!
//! Each supported version is a marker type implementing [`Version`] (`v1::V1`, `v0_9::V0_9`);
//! [`Generate`] and [`Property`] are implemented for that version's `Arbitrary` types and
//! function pointers by `impl_version!`. Types are distinct per version, so quickcheck 0.9 and
//! 1.x can both be enabled in one build without overlapping impls.

use std::fmt::Debug;

use typefuzz_engine::{DebugArgs, Outcome};

/// One quickcheck major version.
///
/// ```
/// # #[cfg(feature = "quickcheck1")] {
/// use typefuzz_quickcheck::bridge::Version;
/// use typefuzz_quickcheck::v1::V1;
/// let mut gen = V1::gen(10, 7);
/// let x: u8 = quickcheck::Arbitrary::arbitrary(&mut gen);
/// let mut again = V1::gen(10, 7);
/// assert_eq!(x, quickcheck::Arbitrary::arbitrary(&mut again)); // a function of the seed
/// # }
/// ```
pub trait Version: 'static {
    /// Whether every value this version's `Arbitrary` impls draw is bounded by the generator
    /// size (quickcheck 0.8 and 0.9: integers below `size`, collections shorter than `size`).
    /// Suites written for such a version rely on it (itertools' `repeat_n(x, n)` iterates `n`
    /// times), so `quickcheck!` mutates their arguments through `Arbitrary` (regeneration and
    /// shrink steps, which stay in that domain) rather than by typed mutation, whose mutants
    /// range over the whole type; [`Builder::quicktest_typed`](crate::Builder::quicktest_typed)
    /// still asks for typed mutation. quickcheck 1.x draws from the whole type.
    const SIZE_BOUNDED: bool;
    /// The version's generator.
    type Gen;
    /// A generator of `size` whose draws are a function of `seed`.
    fn gen(size: usize, seed: u64) -> Self::Gen;
}

/// A type quickcheck version `V` can generate and shrink: its `Arbitrary` types.
///
/// ```
/// # #[cfg(feature = "quickcheck1")] {
/// use typefuzz_quickcheck::bridge::{Generate, Version};
/// use typefuzz_quickcheck::v1::V1;
/// let value = <Vec<u8> as Generate<V1>>::arbitrary(&mut V1::gen(5, 1));
/// assert!(value.len() <= 5);
/// assert!(<u8 as Generate<V1>>::shrink(&9).next().is_some());
/// # }
/// ```
pub trait Generate<V: Version>: Clone + Debug + 'static {
    /// `Arbitrary::arbitrary`.
    fn arbitrary(gen: &mut V::Gen) -> Self;
    /// `Arbitrary::shrink`.
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>>;
}

/// A function quickcheck version `V` can test: `fn(A, B, ...) -> R` with `Arbitrary + Debug`
/// arguments (up to eight) and a `Testable` result (`bool`, `TestResult`, `()`, `Result`).
///
/// ```
/// # #[cfg(feature = "quickcheck1")] {
/// use typefuzz_quickcheck::bridge::Property;
/// use typefuzz_quickcheck::v1::V1;
/// fn prop(x: u8, y: u8) -> bool { x.wrapping_add(y) == y.wrapping_add(x) }
/// let f = prop as fn(u8, u8) -> bool;
/// assert_eq!(Property::<V1>::call(&f, (1, 2)), typefuzz::Outcome::Pass);
/// # }
/// ```
pub trait Property<V: Version>: 'static {
    /// The argument tuple.
    type Args: Generate<V> + DebugArgs;
    /// Calls the function on the arguments and reads its result as quickcheck does.
    fn call(&self, args: Self::Args) -> Outcome;
}

/// The failure message of a plain failure (`false`, `TestResult::failed()`): quickcheck prints
/// no error line for it.
pub(crate) const FAILED: &str = "the property returned false (TestResult::failed)";

/// Implements [`Generate`] and [`Property`] for one quickcheck version: `$qc` is the crate,
/// `$version` the marker type, `$result_gen` a function lending a `&mut Gen` for
/// `Testable::result` (plain results never draw from it), `$probe` an expression building a
/// `QuickCheck` runner of that version (of type `$probe_ty`); `$crate_name` and `$module` name
/// the crate and the adapter's module in the docs.
macro_rules! impl_version {
    (
        $qc:ident, $crate_name:literal, $module:literal, $version:ty,
        $result_gen:path, $probe_ty:ty, $probe:expr
    ) => {
        impl<T: $qc::Arbitrary + ::std::fmt::Debug> $crate::bridge::Generate<$version> for T {
            fn arbitrary(gen: &mut <$version as $crate::bridge::Version>::Gen) -> Self {
                <T as $qc::Arbitrary>::arbitrary(gen)
            }
            fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
                <T as $qc::Arbitrary>::shrink(self)
            }
        }

        thread_local! {
            /// A one-test quickcheck runner, used only to ask quickcheck whether a result is a
            /// discard: `TestResult` exposes `is_failure()` and `is_error()` but no
            /// `is_discard()`, and `quicktest` counts a passed test and skips a discarded one.
            static DISCARD_PROBE: ::std::cell::RefCell<$probe_ty> = ::std::cell::RefCell::new($probe);
        }

        /// What a quickcheck result means to the engine, read through quickcheck's public API.
        ///
        /// ```
        #[doc = concat!("use ", $crate_name, "::TestResult;")]
        #[doc = concat!("use typefuzz_quickcheck::", $module, "::outcome;")]
        /// use typefuzz::Outcome;
        /// assert_eq!(outcome(TestResult::passed()), Outcome::Pass);
        /// assert_eq!(outcome(TestResult::discard()), Outcome::Discard);
        /// assert!(matches!(outcome(TestResult::failed()), Outcome::Fail(_)));
        /// let Outcome::Fail(message) = outcome(TestResult::error("disk full")) else { unreachable!() };
        /// assert!(message.contains("disk full"));
        /// ```
        pub fn outcome(result: $qc::TestResult) -> typefuzz_engine::Outcome {
            if result.is_error() {
                // The error text is private to `TestResult`; its `Debug` form shows it.
                return typefuzz_engine::Outcome::Fail(format!("{result:?}"));
            }
            if result.is_failure() {
                return typefuzz_engine::Outcome::Fail($crate::bridge::FAILED.into());
            }
            match DISCARD_PROBE.with(|probe| probe.borrow_mut().quicktest(result)) {
                Ok(0) => typefuzz_engine::Outcome::Discard,
                _ => typefuzz_engine::Outcome::Pass,
            }
        }

        /// Converts a property's result as quickcheck does.
        fn to_outcome(result: &impl $qc::Testable) -> typefuzz_engine::Outcome {
            outcome($result_gen(|gen| result.result(gen)))
        }

        $crate::bridge::property_fn!($qc, $version; );
        $crate::bridge::property_fn!($qc, $version; A);
        $crate::bridge::property_fn!($qc, $version; A, B);
        $crate::bridge::property_fn!($qc, $version; A, B, C);
        $crate::bridge::property_fn!($qc, $version; A, B, C, D);
        $crate::bridge::property_fn!($qc, $version; A, B, C, D, E);
        $crate::bridge::property_fn!($qc, $version; A, B, C, D, E, F);
        $crate::bridge::property_fn!($qc, $version; A, B, C, D, E, F, G);
        $crate::bridge::property_fn!($qc, $version; A, B, C, D, E, F, G, H);
    };
}

/// One arity of [`Property`] for one version (see [`impl_version!`]).
macro_rules! property_fn {
    ($qc:ident, $version:ty; $($name:ident),*) => {
        impl<R: $qc::Testable, $($name: $qc::Arbitrary + ::std::fmt::Debug),*>
            $crate::bridge::Property<$version> for fn($($name),*) -> R
        {
            type Args = ($($name,)*);
            #[allow(non_snake_case)]
            fn call(&self, ($($name,)*): Self::Args) -> typefuzz_engine::Outcome {
                let result = (self)($($name),*);
                // The common `-> bool` property needs no `TestResult` (a type test the
                // optimizer folds away).
                match (&result as &dyn ::std::any::Any).downcast_ref::<bool>() {
                    Some(true) => typefuzz_engine::Outcome::Pass,
                    Some(false) => typefuzz_engine::Outcome::Fail(
                        ::std::string::String::from($crate::bridge::FAILED),
                    ),
                    None => to_outcome(&result),
                }
            }
        }
    };
}

/// What quickcheck 0.8 and 0.9 share, whose `Gen` is a trait over a `rand` `RngCore` (`StdGen<R>`):
/// a seeded `SeededRng` for `$rand_core`'s `RngCore`, [`Version`] for `$version` on
/// `StdGen<SeededRng>`, [`impl_version!`], the `QuickCheck` builder with its `gen(G)` and the
/// `quickcheck(f)` function. `$crate_name` and `$module` name the crate and the module in docs.
#[cfg(any(feature = "quickcheck08", feature = "quickcheck09"))]
macro_rules! rand_version {
    ($qc:ident, $rand_core:ident, $crate_name:literal, $module:literal, $version:ident) => {
        /// A seeded `rand` generator for this quickcheck's `StdGen`, drawing from `fastrand`
        /// (the engine's generator), so generation is a function of the seed.
        #[derive(Clone, Debug)]
        pub struct SeededRng(fastrand::Rng);

        impl $rand_core::RngCore for SeededRng {
            fn next_u32(&mut self) -> u32 {
                self.0.u32(..)
            }

            fn next_u64(&mut self) -> u64 {
                self.0.u64(..)
            }

            fn fill_bytes(&mut self, dest: &mut [u8]) {
                $rand_core::impls::fill_bytes_via_next(self, dest);
            }

            fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), $rand_core::Error> {
                self.fill_bytes(dest);
                Ok(())
            }
        }

        impl $crate::bridge::Version for $version {
            const SIZE_BOUNDED: bool = true;
            type Gen = $qc::StdGen<SeededRng>;

            fn gen(size: usize, seed: u64) -> Self::Gen {
                $qc::StdGen::new(SeededRng(fastrand::Rng::with_seed(seed)), size)
            }
        }

        thread_local! {
            /// A `Gen` only for converting results (plain results never draw from it).
            static RESULT_GEN: ::std::cell::RefCell<$qc::StdGen<SeededRng>> =
                ::std::cell::RefCell::new(<$version as $crate::bridge::Version>::gen(1, 0));
        }

        fn with_result_gen<R>(f: impl FnOnce(&mut $qc::StdGen<SeededRng>) -> R) -> R {
            RESULT_GEN.with(|gen| f(&mut gen.borrow_mut()))
        }

        $crate::bridge::impl_version!(
            $qc,
            $crate_name,
            $module,
            $version,
            with_result_gen,
            $qc::QuickCheck<$qc::StdGen<SeededRng>>,
            $qc::QuickCheck::with_gen(<$version as $crate::bridge::Version>::gen(1, 0))
                .tests(1)
                .max_tests(1)
        );

        #[doc = concat!("`", $crate_name, "`'s builder on typefuzz (see [`Builder`](crate::Builder)).")]
        pub type QuickCheck = $crate::Builder<$version>;

        impl QuickCheck {
            /// quickcheck's `gen(G)`: takes the `Gen`'s size for `Arbitrary` (the run's seed
            /// stays typefuzz's: [`seed`](crate::Builder::seed)).
            ///
            /// ```
            #[doc = concat!("use ", $crate_name, " as quickcheck;")]
            /// fn any_u8(_: u8) -> bool { true }
            #[doc = concat!("typefuzz_quickcheck::", $module, "::QuickCheck::new()")]
            ///     .gen(quickcheck::StdThreadGen::new(1024))
            ///     .quickcheck(any_u8 as fn(u8) -> bool);
            /// ```
            pub fn gen<G: $qc::Gen>(self, gen: G) -> Self {
                self.size(gen.size())
            }
        }

        #[doc = concat!("`", $crate_name, "`'s `quickcheck(f)`: `QuickCheck::new().quickcheck(f)`, on typefuzz.")]
        ///
        /// ```
        /// fn commutes(a: u8, b: u8) -> bool { a.wrapping_add(b) == b.wrapping_add(a) }
        #[doc = concat!("typefuzz_quickcheck::", $module, "::quickcheck(commutes as fn(u8, u8) -> bool);")]
        /// ```
        #[track_caller]
        pub fn quickcheck<P: $crate::bridge::Property<$version>>(property: P) {
            QuickCheck::new().quickcheck(property);
        }
    };
}

#[cfg(any(feature = "quickcheck08", feature = "quickcheck09"))]
pub(crate) use rand_version;
pub(crate) use {impl_version, property_fn};
