//! quickcheck 0.8 (feature `quickcheck08`): its rand 0.6 based `Gen` (`StdGen`), `Arbitrary`
//! and `Testable` behind the [`bridge`](crate::bridge). Suites on quickcheck 0.8 (petgraph's)
//! switch with the macro path alone.
//!
//! ```
//! use quickcheck08 as quickcheck;
//! fn revrev(xs: Vec<u8>) -> bool {
//!     xs.iter().rev().rev().eq(xs.iter())
//! }
//! typefuzz_quickcheck::v0_8::quickcheck(revrev as fn(Vec<u8>) -> bool);
//! ```

use quickcheck08 as quickcheck;

/// quickcheck 0.8.
#[derive(Clone, Copy, Debug)]
pub enum V0_8 {}

crate::bridge::rand_version!(quickcheck, rand_core04, "quickcheck08", "v0_8", V0_8);

/// `quickcheck::quickcheck!` on quickcheck 0.8 (see [`quickcheck!`](crate::quickcheck!)).
///
/// ```
/// typefuzz_quickcheck::v0_8::quickcheck! {
///     fn double_reverse(xs: Vec<u8>) -> bool {
///         xs.iter().rev().rev().eq(xs.iter())
///     }
/// }
/// ```
pub use crate::__typefuzz_quickcheck_v0_8 as quickcheck;
