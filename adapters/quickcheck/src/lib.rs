//! typefuzz's drop-in for quickcheck: `typefuzz::quickcheck!` accepts `quickcheck::quickcheck!`'s
//! syntax (and patterns in argument position) and runs each property under typefuzz's
//! coverage-guided loop; `QuickCheck` and `quickcheck(f)` are quickcheck's builder and function.
//!
//! Upgrading costs the macro path; `#[derive(Mutate)]` next to your `Arbitrary` impls adds typed
//! mutation (standard types and tuples already implement [`Mutate`](typefuzz_engine::Mutate)).
//!
//! ```
//! # #[cfg(feature = "quickcheck1")] {
//! use quickcheck::TestResult;
//!
//! typefuzz_quickcheck::quickcheck! {
//!     fn reverse_reverse(xs: Vec<u32>) -> bool {
//!         let rev: Vec<u32> = xs.iter().rev().rev().cloned().collect();
//!         rev == xs
//!     }
//!     fn division(a: u32, b: u32) -> TestResult {
//!         if b == 0 {
//!             return TestResult::discard();
//!         }
//!         TestResult::from_bool(a / b <= a)
//!     }
//! }
//! # }
//! ```
//!
//! # quickcheck versions
//!
//! | feature (adapter / `typefuzz` facade) | quickcheck | tested with |
//! | --- | --- | --- |
//! | `quickcheck1` / `quickcheck` (default) | 1.1 or later 1.x | 1.1.0 |
//! | `quickcheck09` / `quickcheck09` | 0.9.x | 0.9.2 |
//! | `quickcheck08` / `quickcheck08` | 0.8.x | 0.8.5 |
//!
//! `typefuzz::quickcheck!`, `QuickCheck` and `quickcheck(f)` stand for quickcheck 1.x when its
//! feature is on, otherwise for 0.9, otherwise for 0.8, so a 0.9 or 0.8 suite enables its
//! feature only and changes the macro path alone. Several can be on in one build (the versions
//! are distinct crates to cargo): `v1`, `v0_9` and `v0_8` name each explicitly
//! (`typefuzz::quickcheck::v0_9::quickcheck!`).
//!
//! # How a quickcheck property runs under typefuzz
//!
//! - **Seeds and resets come from `Arbitrary`**: each fresh input is `Arbitrary::arbitrary` on a
//!   `Gen` of size `QUICKCHECK_GENERATOR_SIZE` (default 100) seeded from the engine's random
//!   state, so a run is a function of its seed (`TYPEFUZZ_SEED`).
//! - **Mutation is typed where it can be**: in `quickcheck!` on quickcheck 1.x, an argument
//!   tuple whose types all implement `Mutate` is mutated by `Mutate` ([`genotype::Args`]);
//!   mutants are values of the argument types (quickcheck 1.x's `Arbitrary` has no domain
//!   narrower than the type, except in newtypes whose invariants a property should check with
//!   `TestResult::discard()`). quickcheck 0.8 and 0.9 draw every value below the generator size
//!   and suites rely on it, so there arguments are mutated through `Arbitrary` as below
//!   ([`Version::SIZE_BOUNDED`](bridge::Version::SIZE_BOUNDED)). Types
//!   that only implement `Arbitrary` need nothing more: they are mutated by regenerating and by
//!   `Arbitrary::shrink` steps ([`genotype::Generated`]), with a one-line note on stderr
//!   suggesting `#[derive(Mutate)]`. The builder and `quickcheck(f)`, generic functions that
//!   cannot tell whether `Mutate` is implemented, always take the second way.
//! - **Outcomes as quickcheck reads them**: `true`/`TestResult::passed()` pass,
//!   `false`/`TestResult::failed()`/`TestResult::error(..)`/`Err(..)`/a panic fail,
//!   `TestResult::discard()` discards.
//! - **Shrinking** tries your `Arbitrary::shrink` candidates first, then typefuzz's typed ones, at
//!   every step.
//! - **Feedback**: coverage under `cargo typefuzz test`; `typefuzz::cover!`, `target!`, `assume!`
//!   in the body; and the engine's feedback without instrumentation.
//! - **Budgets**: `QUICKCHECK_TESTS` (default 100) counts non-discarded tests, as in
//!   quickcheck, so a plain `cargo test` costs what quickcheck's would, and that many (at most
//!   a builder's `tests`) are fresh `Arbitrary` values, as quickcheck's are, before any
//!   mutation (or until `max_tests` fresh discards) ([`Config::fresh_first`](typefuzz_engine::Config::fresh_first)); discards do not
//!   end the run but are bounded by time
//!   ([`Config::for_framework`](typefuzz_engine::Config::for_framework));
//!   `QUICKCHECK_MIN_TESTS_PASSED` is checked; then the `TYPEFUZZ_*` variables apply
//!   (`TYPEFUZZ_CASES=100000` or `TYPEFUZZ_TIME=5m` makes a campaign). Every run keeps the seeds
//!   it found under `target/typefuzz/corpus/` and starts from them next time
//!   ([`Config::keep_seeds`](typefuzz_engine::Config::keep_seeds)).
//! - **Failures** panic with quickcheck's `[quickcheck] TEST FAILED. Arguments: (...)` followed
//!   by typefuzz's seed, statistics and the regression file, replayed first next time.
//!   quickcheck keeps no file of its own, so it goes to the documented default,
//!   `typefuzz-regressions/<name>.txt` beside the crate's `Cargo.toml` (or where
//!   `TYPEFUZZ_REGRESSIONS` says). The macro names it after the test's path, and saves nothing
//!   for a `#[should_panic]` property, whose failure is expected; the builder names it after
//!   [`Builder::name`], else the test thread's name and the call's line. Arguments longer than
//!   400 characters are elided in the message, never in the file.
//!
//! Through the `typefuzz` facade (feature `quickcheck` or `quickcheck09`) this crate is
//! `typefuzz::quickcheck`: the macro is `typefuzz::quickcheck!`, the function API
//! `typefuzz::quickcheck::quickcheck` and the builder `typefuzz::quickcheck::QuickCheck`.
#![deny(missing_docs)]
// The examples show tests as users write them, `#[test]` included; they call them from `main`.
#![allow(clippy::test_attr_in_doctest)]

#[cfg(not(any(
    feature = "quickcheck1",
    feature = "quickcheck09",
    feature = "quickcheck08"
)))]
compile_error!(
    "typefuzz-quickcheck needs a quickcheck version: enable feature `quickcheck1` (quickcheck \
     1.x), `quickcheck09` (quickcheck 0.9) or `quickcheck08` (quickcheck 0.8)"
);

pub mod bridge;
mod builder;
pub mod genotype;
#[cfg(feature = "quickcheck08")]
pub mod v0_8;
#[cfg(feature = "quickcheck09")]
pub mod v0_9;
#[cfg(feature = "quickcheck1")]
pub mod v1;

pub use builder::{failure_message, Builder};
pub use typefuzz_engine::DebugArgs;

#[cfg(all(
    feature = "quickcheck08",
    not(any(feature = "quickcheck1", feature = "quickcheck09"))
))]
pub use v0_8::{quickcheck, QuickCheck};
#[cfg(all(feature = "quickcheck09", not(feature = "quickcheck1")))]
pub use v0_9::{quickcheck, QuickCheck};
#[cfg(feature = "quickcheck1")]
pub use v1::{quickcheck, QuickCheck};

/// What the macro expands to. Not public API.
#[doc(hidden)]
pub mod __private {
    use std::marker::PhantomData;

    use typefuzz_engine::Mutate;

    use crate::bridge::{Property, Version};
    use crate::builder::note_untyped;
    use crate::genotype::{Args, Generated};
    use crate::Builder;

    /// A property with its quickcheck version: which of [`RunTyped::run`] and
    /// [`RunGenerated::run`] applies depends on whether its argument types implement
    /// [`Mutate`] (autoref specialization: the typed impl is found first when it applies).
    pub struct Probe<V, P>(P, PhantomData<fn() -> V>);

    impl<V: Version, P: Property<V>> Probe<V, P> {
        pub fn new(property: P) -> Self {
            Probe(property, PhantomData)
        }
    }

    /// The builder of a `quickcheck!` property, named after its test path (unnamed: saves and
    /// replays nothing).
    fn named<V: Version>(name: Option<&'static str>) -> Builder<V> {
        let builder = Builder::<V>::new();
        match name {
            Some(name) => builder.name(name),
            None => builder,
        }
    }

    pub trait RunTyped {
        fn run(&self, name: Option<&'static str>);
    }

    impl<V: Version, P: Property<V>> RunTyped for Probe<V, P>
    where
        P::Args: Mutate,
    {
        fn run(&self, name: Option<&'static str>) {
            let builder = named(name);
            if V::SIZE_BOUNDED {
                // Typed mutants would leave the domain the suite was written for.
                let report = builder.run::<P, Generated<P::Args, V>>(&self.0);
                builder.conclude(report);
            } else {
                let report = builder.run::<P, Args<P::Args, V>>(&self.0);
                builder.conclude(report);
            }
        }
    }

    pub trait RunGenerated {
        fn run(&self, name: Option<&'static str>);
    }

    impl<V: Version, P: Property<V>> RunGenerated for &Probe<V, P> {
        fn run(&self, name: Option<&'static str>) {
            // On a size-bounded version a `Mutate` impl would not be used by the macro either.
            if !V::SIZE_BOUNDED {
                note_untyped(std::any::type_name::<P::Args>());
            }
            let builder = named(name);
            let report = builder.run::<P, Generated<P::Args, V>>(&self.0);
            builder.conclude(report);
        }
    }
}

/// The grammar shared by every version's `quickcheck!`: `[$version] fn ...*`.
#[doc(hidden)]
#[macro_export]
macro_rules! __typefuzz_quickcheck_with {
    // quickcheck's own `@as_items` rule, which suites' wrapper macros (indexmap's
    // `quickcheck_limit!`, for one) call to emit the items they built.
    ([$version:path] @as_items $($item:item)*) => {
        $($item)*
    };
    (
        [$version:path]
        $(
            $(#$attr:tt)*
            $vis:vis fn $fn_name:ident ( $($arg:tt)* ) $(-> $ret:ty)? { $($body:tt)* }
        )*
    ) => {
        $(
            #[test]
            $(#$attr)*
            $vis fn $fn_name() {
                fn prop($($arg)*) $(-> $ret)? { $($body)* }
                #[allow(unused_imports)]
                use $crate::__private::{RunGenerated as _, RunTyped as _};
                // A `#[should_panic]` property's failure is expected: nothing to save or replay
                // (plain quickcheck writes no file either).
                let expected_failure =
                    false $(|| $crate::__typefuzz_quickcheck_with!(@should_panic $attr))*;
                let name =
                    ::core::concat!(::core::module_path!(), "::", ::core::stringify!($fn_name));
                $crate::__typefuzz_quickcheck_with!(
                    @run [$version] (!expected_failure).then_some(name), prop [] $($arg)*
                );
            }
        )*
    };
    (@should_panic [should_panic $($rest:tt)*]) => {
        true
    };
    (@should_panic $attr:tt) => {
        false
    };
    // One `_` per `:` at the top level of the argument list (patterns and types are skipped),
    // so `prop` is cast to a function pointer whose argument types the compiler fills in.
    (@run [$version:path] $name:expr, $prop:ident [$($placeholder:tt)*]) => {{
        let property: fn($($placeholder),*) -> _ = $prop;
        (&$crate::__private::Probe::<$version, _>::new(property)).run($name);
    }};
    (@run [$version:path] $name:expr, $prop:ident [$($placeholder:tt)*] : $($rest:tt)*) => {
        $crate::__typefuzz_quickcheck_with!(@run [$version] $name, $prop [$($placeholder)* _] $($rest)*)
    };
    (@run [$version:path] $name:expr, $prop:ident [$($placeholder:tt)*] $skip:tt $($rest:tt)*) => {
        $crate::__typefuzz_quickcheck_with!(@run [$version] $name, $prop [$($placeholder)*] $($rest)*)
    };
}

/// `quickcheck::quickcheck!` on quickcheck 1.x; see [`v1::quickcheck!`](crate::v1::quickcheck).
#[doc(hidden)]
#[macro_export]
macro_rules! __typefuzz_quickcheck_v1 {
    ($($input:tt)*) => {
        $crate::__typefuzz_quickcheck_with! { [$crate::v1::V1] $($input)* }
    };
}

/// `quickcheck::quickcheck!` on quickcheck 0.9; see [`v0_9::quickcheck!`](crate::v0_9::quickcheck).
#[doc(hidden)]
#[macro_export]
macro_rules! __typefuzz_quickcheck_v0_9 {
    ($($input:tt)*) => {
        $crate::__typefuzz_quickcheck_with! { [$crate::v0_9::V0_9] $($input)* }
    };
}

/// `quickcheck::quickcheck!` on quickcheck 0.8; see [`v0_8::quickcheck!`](crate::v0_8::quickcheck).
#[doc(hidden)]
#[macro_export]
macro_rules! __typefuzz_quickcheck_v0_8 {
    ($($input:tt)*) => {
        $crate::__typefuzz_quickcheck_with! { [$crate::v0_8::V0_8] $($input)* }
    };
}
