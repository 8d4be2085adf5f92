//! Typed input-to-state feedback ("CmpLog"): the operands of the comparisons a test made, fed
//! back into the typed leaves of the input that produced them.
//!
//! The log of one test ([`Log`]), the leaf visitor ([`Leaves`]) and the candidates a log offers
//! an input are the type model's ([`typefuzz_core::leaves`], whose docs tell the method). This
//! module records the log while the property runs and keeps each seed's copy.
//!
//! Where the pairs come from:
//! - under `cargo typefuzz test --trace-compares`, every comparison the instrumented code makes
//!   (the `__sanitizer_cov_trace_cmp*` and `switch` hooks in [`coverage`](super::coverage) call
//!   [`record_integers`]);
//! - without instrumentation, the comparisons written in `assume!` (and `sometimes!`)
//!   expressions: `assume!(x == 42)` logs `(x, 42)`, `assume!(name == "admin")` logs the two
//!   strings, and `assume!(v[0] == Shape::Circle(3))` logs the leaves that differ between the
//!   two values.
//!
//! Under cargo-fuzz (`typefuzz::fuzz_target!`) libFuzzer defines the comparison hooks, so their
//! operands never reach this module: libFuzzer keeps them in its own tables (TORC), which its
//! byte-level mutator (called for a share of the mutations) uses on the codec bytes. Byte-string
//! comparisons (`memcmp`/`bcmp`, which Rust's `[u8]` and `str` equality call) are not logged
//! under `cargo typefuzz` either: SanitizerCoverage reports them only through the
//! `__sanitizer_weak_hook_memcmp` interceptors of a sanitizer runtime, which a stable build
//! without `-Zsanitizer` does not link; their operands reach the log through `assume!` and
//! `sometimes!`.
//!
//! The log of the current test is thread-local (the comparison hooks are a C ABI with no context
//! to hand it through) and fixed-size (no allocation per test); it only records while the engine
//! runs the property. A test that becomes a seed keeps a copy (`SeedComparisons`), and the first
//! time the seed is mutated its candidates — which leaf fed which comparison — are computed once
//! and cached with it; each later pick of the seed tries the next candidate (the deterministic
//! stage of Redqueen), then falls back to ordinary mutation.
//!
//! ```
//! use typefuzz::feedback::cmplog;
//! use typefuzz::{Context, Mutate};
//!
//! // What the instrumentation (or `assume!(x == 1234)`) would log while the property runs.
//! let log = cmplog::Log::from_pairs(&[(7, 1234, 2)]);
//! let mut input: (u8, u16) = (7, 7);
//! let mut cx = Context::new(1);
//! let candidates = cmplog::candidates(&mut input, &log);
//! // The `u16` leaf held 7, one side of the comparison: it may take 1234 (or 1233, 1235, ...).
//! assert!(candidates.iter().any(|c| c.leaf == 1 && c.value == cmplog::Replacement::Integer(1234)));
//! cmplog::apply(&mut input, &candidates[0], &mut cx);
//! assert_ne!(input, (7, 7));
//! ```

use std::cell::{Cell, OnceCell, RefCell};

pub use typefuzz_core::leaves::*;

use crate::{Context, Mutate, Operator};

/// The thread's log and whether the property is running (comparisons made by the generator,
/// the mutator or the engine's own use of derived code are not the property's).
struct Recorder {
    active: bool,
    log: Log,
}

thread_local! {
    static RECORDER: RefCell<Recorder> = const {
        RefCell::new(Recorder { active: false, log: Log::new() })
    };
}

/// Runs `f` on the log if the property is running on this thread.
#[inline]
fn with_active_log(f: impl FnOnce(&mut Log)) {
    // `try_with` / `try_borrow_mut`: a hook may fire in a thread-local destructor, or inside
    // another hook's call (never from ours: the engine is not instrumented).
    let _ = RECORDER.try_with(|recorder| {
        if let Ok(mut recorder) = recorder.try_borrow_mut() {
            if recorder.active {
                f(&mut recorder.log);
            }
        }
    });
}

/// Logs an integer comparison of the current test: both operands (zero-extended) and their
/// width in bytes. A no-op outside a property call; repeated pairs are logged once.
///
/// ```
/// // What the `__sanitizer_cov_trace_cmp4` hook does for `x == 0xC0FFEE`.
/// typefuzz::feedback::cmplog::record_integers(0x12, 0xC0FFEE, 4);
/// ```
#[inline]
pub fn record_integers(left: u64, right: u64, width: u8) {
    if left != right {
        with_active_log(|log| log.push_integers(left, right, width));
    }
}

/// Logs a byte-string comparison of the current test (`str` / `[u8]` equality); each side is
/// cut to its first 32 bytes. A no-op outside a property call.
///
/// ```
/// typefuzz::feedback::cmplog::record_bytes(b"guest", b"admin");
/// ```
#[inline]
pub fn record_bytes(left: &[u8], right: &[u8]) {
    if left != right {
        with_active_log(|log| log.push_bytes(left, right));
    }
}

/// Starts logging the property call on this thread, forgetting the previous one.
pub(crate) fn begin_run() {
    let _ = RECORDER.try_with(|recorder| {
        if let Ok(mut recorder) = recorder.try_borrow_mut() {
            recorder.log.clear();
            recorder.active = true;
        }
    });
}

/// Stops logging on this thread (the log stays readable until the next [`begin_run`]).
pub(crate) fn end_run() {
    let _ = RECORDER.try_with(|recorder| {
        if let Ok(mut recorder) = recorder.try_borrow_mut() {
            recorder.active = false;
        }
    });
}

/// A copy of the last property call's log for the seed it becomes, or `None` if it logged
/// nothing (the common case without instrumentation or comparing `assume!`s).
pub(crate) fn take_for_seed() -> Option<Box<SeedComparisons>> {
    RECORDER
        .try_with(|recorder| {
            let recorder = recorder.try_borrow().ok()?;
            if recorder.log.is_empty() {
                return None;
            }
            Some(Box::new(SeedComparisons::new(recorder.log.clone())))
        })
        .ok()
        .flatten()
}

/// A seed's copy of the log its run made, and the candidates it offers (computed the first time
/// the seed is mutated, then tried one per pick).
#[derive(Clone, Debug)]
pub(crate) struct SeedComparisons {
    log: Log,
    /// Cells: the schedule lends seeds out immutably while one is mutated.
    candidates: OnceCell<Vec<Candidate>>,
    tried: Cell<usize>,
}

impl SeedComparisons {
    pub(crate) fn new(log: Log) -> Self {
        SeedComparisons {
            log,
            candidates: OnceCell::new(),
            tried: Cell::new(0),
        }
    }

    /// Builds the next input-to-state mutant of `seed` into `value` (a clone of it): the next
    /// untried candidate, or, once all were tried, a random one one pick in sixteen. Returns
    /// whether it did (otherwise the caller mutates as usual); never when
    /// [`Operators::cmplog`](crate::Operators::cmplog) is off.
    pub(crate) fn mutate<T: Mutate>(&self, value: &mut T, cx: &mut Context) -> bool {
        if !cx.operators().cmplog {
            return false;
        }
        let candidates = self
            .candidates
            .get_or_init(|| candidates(&mut value.clone(), &self.log));
        if candidates.is_empty() {
            return false;
        }
        let tried = self.tried.get();
        let index = if tried < candidates.len() {
            self.tried.set(tried + 1);
            tried
        } else if cx.chance(1, 16) {
            cx.below(candidates.len())
        } else {
            return false;
        };
        cx.clear_trace();
        if apply(value, &candidates[index], cx) {
            cx.record(Operator::CmpLog);
            true
        } else {
            false
        }
    }
}

/// Logs the comparison of two operands an `assume!` compares, by the operands' kind: strings
/// and byte strings as byte strings, integers, `char`s and `bool`s of one type as integers,
/// other [`Mutate`] values of one type leaf by leaf (the leaves that differ), anything else not
/// at all. Method resolution picks the first of [`CompareBytes`], [`CompareScalar`],
/// [`CompareMutate`] and [`CompareOther`] that applies (autoref dispatch: call it as
/// `(&&&&Operands(&a, &b)).record()`).
///
/// ```
/// use typefuzz::feedback::cmplog::{
///     CompareBytes as _, CompareMutate as _, CompareOther as _, CompareScalar as _, Operands,
/// };
/// (&&&&Operands(&3u8, &4u8)).record();
/// (&&&&Operands(&String::from("a"), &"b")).record();
/// (&&&&Operands(&Some(1u8), &None)).record();
/// (&&&&Operands(&1.5f64, &2.5f64)).record(); // floats: not logged
/// ```
pub struct Operands<'a, A: ?Sized, B: ?Sized>(pub &'a A, pub &'a B);

/// Operand types that are byte strings: `str`, `String`, `[u8]`, `Vec<u8>`, `[u8; N]`.
pub trait ByteString {
    /// The bytes.
    fn byte_string(&self) -> &[u8];
}

impl ByteString for str {
    fn byte_string(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl ByteString for String {
    fn byte_string(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl ByteString for [u8] {
    fn byte_string(&self) -> &[u8] {
        self
    }
}

impl ByteString for Vec<u8> {
    fn byte_string(&self) -> &[u8] {
        self
    }
}

impl<const N: usize> ByteString for [u8; N] {
    fn byte_string(&self) -> &[u8] {
        self
    }
}

impl<T: ByteString + ?Sized> ByteString for &T {
    fn byte_string(&self) -> &[u8] {
        (**self).byte_string()
    }
}

/// Operand types logged as one integer: the primitive integers, `char` and `bool`.
pub trait Scalar {
    /// The raw bits, zero-extended, and the width in bytes (at most 8).
    fn scalar(&self) -> (u64, u8);
}

macro_rules! scalar_integers {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            #[inline]
            fn scalar(&self) -> (u64, u8) {
                let width = core::mem::size_of::<$t>().min(8) as u8;
                // `as u64` sign-extends signed values; the mask keeps the raw bits of the width.
                (*self as u64 & mask(width), width)
            }
        }
    )*};
}
scalar_integers!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl Scalar for char {
    fn scalar(&self) -> (u64, u8) {
        (u64::from(*self), 4)
    }
}

impl Scalar for bool {
    fn scalar(&self) -> (u64, u8) {
        (u64::from(*self), 1)
    }
}

impl<T: Scalar + ?Sized> Scalar for &T {
    fn scalar(&self) -> (u64, u8) {
        (**self).scalar()
    }
}

/// The [`Operands`] case for two byte strings.
pub trait CompareBytes {
    /// Logs the comparison.
    fn record(&self);
}

impl<A: ByteString + ?Sized, B: ByteString + ?Sized> CompareBytes for &&&Operands<'_, A, B> {
    #[inline]
    fn record(&self) {
        record_bytes(self.0.byte_string(), self.1.byte_string());
    }
}

/// The [`Operands`] case for [`Scalar`] operands of one type.
pub trait CompareScalar {
    /// Logs the comparison.
    fn record(&self);
}

impl<A: Scalar + ?Sized> CompareScalar for &&Operands<'_, A, A> {
    #[inline]
    fn record(&self) {
        let ((left, width), (right, _)) = (self.0.scalar(), self.1.scalar());
        record_integers(left, right, width);
    }
}

/// The [`Operands`] case for [`Mutate`] operands of one type: the leaves that differ.
pub trait CompareMutate {
    /// Logs the comparison.
    fn record(&self);
}

impl<A: Mutate> CompareMutate for &Operands<'_, A, A> {
    fn record(&self) {
        let active = RECORDER
            .try_with(|r| r.try_borrow().is_ok_and(|r| r.active))
            .unwrap_or(false);
        if active {
            record_structured(self.0, self.1);
        }
    }
}

/// Logs the leaves in which `left` and `right` differ (see [`leaf_differences`]).
fn record_structured<A: Mutate>(left: &A, right: &A) {
    leaf_differences(left, right, |difference| match difference {
        LeafDifference::Integers(left, right) => record_integers(left, right, 8),
        LeafDifference::Variant { from, to } => with_active_log(|log| log.push_variant(from, to)),
    });
}

/// The [`Operands`] fallback: nothing is logged.
pub trait CompareOther {
    /// Does nothing.
    fn record(&self);
}

impl<A: ?Sized, B: ?Sized> CompareOther for Operands<'_, A, B> {
    #[inline]
    fn record(&self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn active<R>(f: impl FnOnce() -> R) -> (R, Log) {
        begin_run();
        let result = f();
        end_run();
        let log = RECORDER.with(|r| r.borrow().log.clone());
        (result, log)
    }

    #[test]
    fn only_the_property_call_is_logged() {
        record_integers(1, 2, 1);
        let ((), log) = active(|| record_integers(3, 4, 1));
        assert_eq!(
            log.integers(),
            &[Comparison {
                left: 3,
                right: 4,
                width: 1
            }]
        );
        record_integers(5, 6, 1);
        assert_eq!(RECORDER.with(|r| r.borrow().log.integers().len()), 1);
    }

    #[test]
    fn the_log_is_bounded() {
        let ((), log) = active(|| {
            for i in 0..10_000u64 {
                record_integers(i, i + 1, 8);
                record_bytes(&i.to_le_bytes(), &[0; 40]);
            }
        });
        assert_eq!(log.integers().len(), INTEGER_CAPACITY);
        assert_eq!(log.bytes().len(), BYTES_CAPACITY);
        assert_eq!(log.bytes()[0].right().len(), BYTES_LEN);
    }

    #[test]
    fn every_distinct_pair_is_logged_once_and_repeats_are_not() {
        // The enum vector's stage at index 3 compared the payload 64 with 8 after the pair
        // (4, 3); a one-hash filter took the two for one, and every mutant of that seed lacked
        // the comparison that leads on.
        let pairs: Vec<(u64, u64, u8)> = (0..16u64)
            .flat_map(|a| (0..16u64).map(move |b| (a, b, 1)))
            .filter(|(a, b, _)| a != b)
            .collect();
        let ((), log) = active(|| {
            for _ in 0..3 {
                for &(left, right, width) in &pairs {
                    record_integers(left, right, width);
                }
            }
            record_integers(64, 8, 1);
            record_integers(64, 8, 2);
        });
        let logged: Vec<(u64, u64, u8)> = log
            .integers()
            .iter()
            .map(|c| (c.left, c.right, c.width))
            .collect();
        let mut expected = pairs.clone();
        expected.extend([(64, 8, 1), (64, 8, 2)]);
        assert_eq!(logged, expected);
        // The next test starts from an empty table.
        let ((), log) = active(|| record_integers(4, 3, 1));
        assert_eq!(log.integers().len(), 1);
    }

    #[test]
    fn a_seed_tries_each_candidate_once_then_falls_back() {
        let log = Log::from_pairs(&[(5, 6, 1)]);
        let seed = SeedComparisons::new(log);
        let mut cx = Context::new(3);
        let mut mutants = Vec::new();
        for _ in 0..2 {
            let mut value = 5u8;
            assert!(seed.mutate(&mut value, &mut cx));
            assert_eq!(cx.trace(), &[Operator::CmpLog]);
            mutants.push(value);
        }
        // The other operand, then its neighbour (its other neighbour, 5, is the seed's own value).
        assert_eq!(mutants, [6, 7]);
        let fallbacks = (0..160).filter(|_| !seed.mutate(&mut 5u8, &mut cx)).count();
        assert!((100..160).contains(&fallbacks), "{fallbacks}");
    }

    #[test]
    #[allow(clippy::needless_borrow)] // autoref dispatch: the borrows select the impl
    fn structured_operands_log_the_differing_leaves() {
        let ((), log) = active(|| {
            (&&&&Operands(&(1u8, Some(7u16)), &(1u8, Some(9u16)))).record();
            (&&&&Operands(&String::from("guest"), &"admin")).record();
            (&&&&Operands(&-1i8, &4i8)).record();
            (&&&&Operands(&1.0f32, &2.0f32)).record();
        });
        assert!(log.integers().iter().any(|c| (c.left, c.right) == (7, 9)));
        assert!(log
            .integers()
            .iter()
            .any(|c| (c.left, c.right) == (0xff, 4)));
        assert_eq!(log.bytes()[0].left(), b"guest");
    }
}
