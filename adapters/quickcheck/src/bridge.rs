//! The version-neutral bridge: what the runner needs from a quickcheck major version (a seeded
//! `Gen`, `Arbitrary`, `Testable`), so one runner serves quickcheck 0.9 and 1.x.
//!
//! Each supported version is a marker type implementing [`Version`] (`v1::V1`, `v0_9::V0_9`);
//! [`Generate`] and [`Property`] are implemented for that version's `Arbitrary` types and
//! function pointers by [`impl_version!`]. Types are distinct per version, so quickcheck 0.9 and
//! 1.x can both be enabled in one build without overlapping impls.

use std::fmt::{self, Debug, Write as _};

use typefuzz_engine::Outcome;

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

/// Reads a quickcheck `TestResult` as an engine outcome, given its `is_failure()` and its
/// `Debug` text's start (quickcheck exposes no discard accessor; its derived `Debug` starts
/// with the status).
pub(crate) fn outcome(is_failure: bool, result: &dyn Debug) -> Outcome {
    if is_failure {
        return Outcome::Fail(format!("{result:?}"));
    }
    if debug_prefix(result).starts_with("TestResult { status: Discard") {
        Outcome::Discard
    } else {
        Outcome::Pass
    }
}

/// The first 32 bytes of `value`'s `Debug` text, formatting no further than that.
fn debug_prefix(value: &dyn Debug) -> String {
    const LIMIT: usize = 32;
    struct Prefix(String);
    impl fmt::Write for Prefix {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let room = LIMIT - self.0.len();
            let mut end = s.len().min(room);
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.0.push_str(&s[..end]);
            if self.0.len() >= LIMIT || end < s.len() {
                Err(fmt::Error)
            } else {
                Ok(())
            }
        }
    }
    let mut prefix = Prefix(String::with_capacity(LIMIT));
    let _ = write!(prefix, "{value:?}");
    prefix.0
}

/// Formats an argument tuple as quickcheck does: each argument's `Debug`, comma-separated.
///
/// ```
/// use typefuzz_quickcheck::DebugArgs;
/// assert_eq!((1u8, "a").debug_args(), r#"1, "a""#);
/// assert_eq!((7u8,).debug_args(), "7");
/// assert_eq!(().debug_args(), "");
/// ```
pub trait DebugArgs {
    /// The arguments' `Debug` texts, comma-separated.
    fn debug_args(&self) -> String;
}

impl DebugArgs for () {
    fn debug_args(&self) -> String {
        String::new()
    }
}

macro_rules! debug_args {
    ($( ($($name:ident $index:tt),+) )+) => {$(
        impl<$($name: Debug),+> DebugArgs for ($($name,)+) {
            fn debug_args(&self) -> String {
                let mut out = String::new();
                $(
                    if $index > 0 {
                        out.push_str(", ");
                    }
                    let _ = write!(out, "{:?}", self.$index);
                )+
                out
            }
        }
    )+};
}

debug_args! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
}

/// Implements [`Generate`] and [`Property`] for one quickcheck version: `$qc` is the crate,
/// `$version` the marker type, `$gen` an expression giving a `&mut Gen` for `Testable::result`
/// (plain results never draw from it).
macro_rules! impl_version {
    ($qc:ident, $version:ty, $result_gen:path) => {
        impl<T: $qc::Arbitrary + ::std::fmt::Debug> $crate::bridge::Generate<$version> for T {
            fn arbitrary(gen: &mut <$version as $crate::bridge::Version>::Gen) -> Self {
                <T as $qc::Arbitrary>::arbitrary(gen)
            }
            fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
                <T as $qc::Arbitrary>::shrink(self)
            }
        }

        /// Converts a property's result as quickcheck does.
        fn to_outcome(result: &impl $qc::Testable) -> typefuzz_engine::Outcome {
            let result = $result_gen(|gen| result.result(gen));
            $crate::bridge::outcome(result.is_failure(), &result)
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
                        ::std::string::String::from("the property returned false"),
                    ),
                    None => to_outcome(&result),
                }
            }
        }
    };
}

pub(crate) use {impl_version, property_fn};
