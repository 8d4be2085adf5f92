//! quickcheck 0.9 (feature `quickcheck09`): its rand-based `Gen`, `Arbitrary` and `Testable`
//! behind the [`bridge`](crate::bridge). Suites on quickcheck 0.9 (itertools' `tests/quick.rs`)
//! switch with the macro path alone.
//!
//! ```
//! use quickcheck09 as quickcheck;
//! fn revrev(xs: Vec<u8>) -> bool {
//!     xs.iter().rev().rev().eq(xs.iter())
//! }
//! typefuzz_quickcheck::v0_9::quickcheck(revrev as fn(Vec<u8>) -> bool);
//! ```

use quickcheck09 as quickcheck;
use rand_core05::{impls, Error, RngCore};

use crate::bridge::{impl_version, Version};

/// quickcheck 0.9.
#[derive(Clone, Copy, Debug)]
pub enum V0_9 {}

/// A seeded rand 0.7 generator for quickcheck 0.9's `StdGen`, drawing from `fastrand` (the
/// engine's generator), so generation is a function of the seed.
#[derive(Clone, Debug)]
pub struct SeededRng(fastrand::Rng);

impl RngCore for SeededRng {
    fn next_u32(&mut self) -> u32 {
        self.0.u32(..)
    }

    fn next_u64(&mut self) -> u64 {
        self.0.u64(..)
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        impls::fill_bytes_via_next(self, dest);
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl Version for V0_9 {
    type Gen = quickcheck::StdGen<SeededRng>;

    fn gen(size: usize, seed: u64) -> Self::Gen {
        quickcheck::StdGen::new(SeededRng(fastrand::Rng::with_seed(seed)), size)
    }
}

thread_local! {
    /// A `Gen` only for converting results (plain results never draw from it).
    static RESULT_GEN: std::cell::RefCell<quickcheck::StdGen<SeededRng>> =
        std::cell::RefCell::new(V0_9::gen(1, 0));
}

fn with_result_gen<R>(f: impl FnOnce(&mut quickcheck::StdGen<SeededRng>) -> R) -> R {
    RESULT_GEN.with(|gen| f(&mut gen.borrow_mut()))
}

impl_version!(
    quickcheck,
    "quickcheck09",
    "v0_9",
    V0_9,
    with_result_gen,
    quickcheck::QuickCheck<quickcheck::StdGen<SeededRng>>,
    quickcheck::QuickCheck::with_gen(V0_9::gen(1, 0))
        .tests(1)
        .max_tests(1)
);

/// quickcheck 0.9's builder on typefuzz (see [`Builder`](crate::Builder)).
pub type QuickCheck = crate::Builder<V0_9>;

impl QuickCheck {
    /// quickcheck 0.9's `gen(G)`: takes the `Gen`'s size for `Arbitrary` (the run's seed stays
    /// typefuzz's: [`seed`](crate::Builder::seed)).
    ///
    /// ```
    /// use quickcheck09 as quickcheck;
    /// fn any_u8(_: u8) -> bool { true }
    /// typefuzz_quickcheck::v0_9::QuickCheck::new()
    ///     .gen(quickcheck::StdThreadGen::new(1024))
    ///     .quickcheck(any_u8 as fn(u8) -> bool);
    /// ```
    pub fn gen<G: quickcheck::Gen>(self, gen: G) -> Self {
        self.size(gen.size())
    }
}

/// quickcheck 0.9's `quickcheck(f)`: `QuickCheck::new().quickcheck(f)`, on typefuzz.
///
/// ```
/// fn commutes(a: u8, b: u8) -> bool { a.wrapping_add(b) == b.wrapping_add(a) }
/// typefuzz_quickcheck::v0_9::quickcheck(commutes as fn(u8, u8) -> bool);
/// ```
#[track_caller]
pub fn quickcheck<P: crate::bridge::Property<V0_9>>(property: P) {
    QuickCheck::new().quickcheck(property);
}

/// `quickcheck::quickcheck!` on quickcheck 0.9 (see [`quickcheck!`](crate::quickcheck!)).
///
/// ```
/// typefuzz_quickcheck::v0_9::quickcheck! {
///     fn double_reverse(xs: Vec<u8>) -> bool {
///         xs.iter().rev().rev().eq(xs.iter())
///     }
/// }
/// ```
pub use crate::__typefuzz_quickcheck_v0_9 as quickcheck;
