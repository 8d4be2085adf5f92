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

/// quickcheck 0.9.
#[derive(Clone, Copy, Debug)]
pub enum V0_9 {}

crate::bridge::rand_version!(quickcheck, rand_core05, "quickcheck09", "v0_9", V0_9);

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
