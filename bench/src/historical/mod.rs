//! Real bugs that shipped in published versions of real crates, in the spirit
//! of the ETNA Rust workloads: no injected mutants, but the published buggy release, pinned
//! through cargo, against a later published release that contains the fix (the no-bug control).
//!
//! Every bug is a [`Case`]: an input type that derives [`Mutate`] (an operation list replayed
//! against the crate and a model, or plain values), a *naive* proptest strategy for it (`any`,
//! `collection::vec(any)`, `prop_oneof!` over the variants: what a user writes without knowing
//! the bug), a property run against either [`Build`], and a hand-written witness input that
//! triggers the bug on the buggy release and passes on the fixed one (`bench/tests/historical.rs`
//! checks both for every case). The catalogue and where each bug is documented:
//!
//! | id | crate | buggy | control | the bug (release notes) |
//! |----|-------|-------|---------|-------------------------|
//! | `rangemap-gaps-empty` | rangemap | 0.1.14 | 1.8.0 | 1.0.1: `RangeMap::gaps` yields empty gaps |
//! | `rangemap-inclusive-gaps-empty` | rangemap | 0.1.14 | 1.8.0 | 1.0.1: empty gaps from `RangeInclusiveMap::gaps` |
//! | `rangemap-inclusive-gaps-max` | rangemap | 0.1.14 | 1.8.0 | 1.0.1: incorrect gaps from `RangeInclusiveMap::gaps` (overflow at `K::MAX`) |
//! | `im-vector-into-iter` | im | 14.1.0 | 15.0.0 | 14.2.0 (#116): the consuming iterator, reversed |
//! | `im-ordmap-range` | im | 15.0.0 | im-rc 15.1.0 | 15.1.0 (#143): `OrdMap::range` past its end bound |
//! | `smallvec-drain-overflow` | smallvec | 1.6.1 | 2.0.0-alpha.11 | 1.7.0 (#258): `drain(..=usize::MAX)` wraps |
//! | `itertools-combinations-zero` | itertools | 0.8.2 | 0.12.1 | 0.9.0 (#383): `combinations(0)` of nothing |
//! | `itertools-multi-product-empty` | itertools | 0.12.1 | 0.13.0 | 0.13.0 (#834): product of no iterators |
//!
//! Cargo allows one version per semver-compatible series in a build, so the control of a bug is
//! the first *later series* that contains the fix (rangemap 1.x for 0.1.14's gaps bugs, im 15 for
//! 14.1.0, the same code published as im-rc 15.1.0 for im 15.0.0, smallvec 2.0.0-alpha for 1.6.1,
//! itertools 0.12 for 0.8)
//! rather than the patch release that fixed it; the witness tests show each control passes.
//!
//! ```
//! use typefuzz_bench::historical::{rangemap, Build};
//! use typefuzz_bench::Verdict;
//! let case = rangemap::gaps_empty();
//! let witness = (case.witness)();
//! assert_eq!((case.property)(Build::Buggy, &witness), Verdict::Fail);
//! assert_eq!((case.property)(Build::Fixed, &witness), Verdict::Pass);
//! ```

pub mod im;
pub mod itertools;
pub mod rangemap;
pub mod smallvec;

use std::fmt::Debug;
use std::hash::Hash;
use std::panic::{catch_unwind, AssertUnwindSafe};

use proptest::strategy::BoxedStrategy;
use typefuzz::Mutate;

use crate::Verdict;

/// Which published release a property runs against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Build {
    /// The release the bug shipped in.
    Buggy,
    /// A later release that contains the fix: the control, which must never fail.
    Fixed,
}

/// What the catalogue says about one bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bug {
    /// Short id, as the report names it (`rangemap-gaps-empty`).
    pub id: &'static str,
    /// The crate's name on crates.io.
    pub krate: &'static str,
    /// The published release with the bug.
    pub buggy: &'static str,
    /// The published release used as the control.
    pub fixed: &'static str,
    /// What goes wrong, and the release notes or issue that document the fix.
    pub summary: &'static str,
}

/// An input type of a historical bug: derived typefuzz mutation plus the naive proptest strategy.
pub trait Input: Mutate + Debug + Clone + Hash + Send + Sync + 'static {
    /// The naive proptest strategy for this input (`any`, `collection::vec(any)`, ...).
    fn strategy() -> BoxedStrategy<Self>;
}

/// One bug: its catalogue entry, its property and a witness input.
pub struct Case<T> {
    /// The catalogue entry.
    pub bug: Bug,
    /// The property, run against either release; [`Verdict::Discard`] when the input is outside
    /// the property's precondition.
    pub property: fn(Build, &T) -> Verdict,
    /// A hand-written input that triggers the bug on [`Build::Buggy`] and passes on
    /// [`Build::Fixed`].
    pub witness: fn() -> T,
}

/// Receives every case of the catalogue, each with its own input type.
pub trait Visitor {
    /// Called once per case.
    fn visit<T: Input>(&mut self, case: Case<T>);
}

/// Calls `visitor` on every case of the catalogue, in the order of the table above.
///
/// ```
/// use typefuzz_bench::historical::{self, Case, Input, Visitor};
/// struct Count(usize);
/// impl Visitor for Count {
///     fn visit<T: Input>(&mut self, _case: Case<T>) {
///         self.0 += 1;
///     }
/// }
/// let mut count = Count(0);
/// historical::visit_all(&mut count);
/// assert!(count.0 >= 8);
/// ```
pub fn visit_all(visitor: &mut impl Visitor) {
    visitor.visit(rangemap::gaps_empty());
    visitor.visit(rangemap::inclusive_gaps_empty());
    visitor.visit(rangemap::inclusive_gaps_max());
    visitor.visit(im::vector_into_iter());
    visitor.visit(im::ordmap_range());
    visitor.visit(smallvec::drain_overflow());
    visitor.visit(itertools::combinations_zero());
    visitor.visit(itertools::multi_product_empty());
}

/// The verdict of a comparison: pass when `ok`, fail otherwise.
pub(crate) fn verdict(ok: bool) -> Verdict {
    if ok {
        Verdict::Pass
    } else {
        Verdict::Fail
    }
}

/// Runs `f`, returning `None` if it panicked (the panic is the observed behaviour, not a crash of
/// the harness: several properties compare a crate's panics with the model's).
pub(crate) fn outcome<R>(f: impl FnOnce() -> R) -> Option<R> {
    catch_unwind(AssertUnwindSafe(f)).ok()
}
