//! quickcheck 1.x (feature `quickcheck1`, on by default): its `Gen`, `Arbitrary` and
//! `Testable` behind the [`bridge`](crate::bridge).
//!
//! ```
//! fn revrev(xs: Vec<u8>) -> bool {
//!     xs.iter().rev().rev().eq(xs.iter())
//! }
//! typefuzz_quickcheck::v1::quickcheck(revrev as fn(Vec<u8>) -> bool);
//! ```

use crate::bridge::{impl_version, Version};

/// quickcheck 1.x.
#[derive(Clone, Copy, Debug)]
pub enum V1 {}

impl Version for V1 {
    const SIZE_BOUNDED: bool = false;
    type Gen = quickcheck::Gen;

    fn gen(size: usize, seed: u64) -> quickcheck::Gen {
        quickcheck::Gen::from_size_and_seed(size, seed)
    }
}

thread_local! {
    /// A `Gen` only for converting results; `Testable` impls of plain results never draw from
    /// it. One per thread: `Gen::new` seeds from the OS, far too slow to do per test.
    static RESULT_GEN: std::cell::RefCell<quickcheck::Gen> =
        std::cell::RefCell::new(quickcheck::Gen::from_size_and_seed(1, 0));
}

fn with_result_gen<R>(f: impl FnOnce(&mut quickcheck::Gen) -> R) -> R {
    RESULT_GEN.with(|gen| f(&mut gen.borrow_mut()))
}

impl_version!(
    quickcheck,
    "quickcheck",
    "v1",
    V1,
    with_result_gen,
    quickcheck::QuickCheck,
    // One per thread: it holds a `Gen`, which it seeds from the OS.
    quickcheck::QuickCheck::new().tests(1).max_tests(1)
);

/// quickcheck 1.x's builder on typefuzz (see [`Builder`](crate::Builder)).
pub type QuickCheck = crate::Builder<V1>;

impl QuickCheck {
    /// quickcheck's `rng(Gen)`: takes the `Gen`'s size for `Arbitrary` (its random state is not
    /// readable, so the run's seed stays typefuzz's: [`seed`](crate::Builder::seed)).
    ///
    /// ```
    /// fn any_u8(_: u8) -> bool { true }
    /// typefuzz_quickcheck::QuickCheck::new().rng(quickcheck::Gen::new(1024))
    ///     .quickcheck(any_u8 as fn(u8) -> bool);
    /// ```
    pub fn rng(self, gen: quickcheck::Gen) -> Self {
        self.size(gen.size())
    }

    /// quickcheck's older name for [`rng`](QuickCheck::rng) (`QuickCheck::new().gen(Gen::new(n))`).
    ///
    /// ```
    /// fn any_i8(_: i8) -> bool { true }
    /// typefuzz_quickcheck::QuickCheck::new().gen(quickcheck::Gen::new(1024))
    ///     .quickcheck(any_i8 as fn(i8) -> bool);
    /// ```
    pub fn gen(self, gen: quickcheck::Gen) -> Self {
        self.rng(gen)
    }
}

/// quickcheck's `quickcheck(f)`: `QuickCheck::new().quickcheck(f)`, on typefuzz.
///
/// ```
/// fn revrev(xs: Vec<usize>) -> bool {
///     let rev: Vec<_> = xs.clone().into_iter().rev().collect();
///     let revrev: Vec<_> = rev.into_iter().rev().collect();
///     xs == revrev
/// }
/// typefuzz_quickcheck::quickcheck(revrev as fn(Vec<usize>) -> bool);
/// ```
#[track_caller]
pub fn quickcheck<P: crate::bridge::Property<V1>>(property: P) {
    QuickCheck::new().quickcheck(property);
}

/// `quickcheck::quickcheck!` on quickcheck 1.x, whichever version `typefuzz::quickcheck!`
/// stands for (see [`quickcheck!`](crate::quickcheck!)).
///
/// ```
/// typefuzz_quickcheck::v1::quickcheck! {
///     fn double_reverse(xs: Vec<u8>) -> bool {
///         xs.iter().rev().rev().eq(xs.iter())
///     }
/// }
/// ```
pub use crate::__typefuzz_quickcheck_v1 as quickcheck;
