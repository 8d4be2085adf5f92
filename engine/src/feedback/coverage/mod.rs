//! Code coverage: the SanitizerCoverage runtime that receives LLVM's inline 8-bit counters and
//! turns them into AFL-style hit-count features for the engine.
//!
//! # How coverage is switched on
//!
//! Run your tests with `cargo typefuzz test [cargo test arguments]` (package `cargo-typefuzz`).
//! It compiles your workspace crates, and only those, with SanitizerCoverage on stable Rust.
//! LLVM then inserts one byte counter per basic-block edge and, at program start, calls
//! `__sanitizer_cov_8bit_counters_init` (defined here) with the range holding all of them.
//! Without instrumentation that call never happens, [`is_enabled`] is `false`, and the engine
//! says so once ([`warn_once_if_disabled`]) and falls back to its other feedback sources.
//!
//! The raw recipe, for setups that cannot use the subcommand, is documented in the
//! `cargo-typefuzz` crate: the flags must only reach the crates you want measured, and every
//! binary that links instrumented code must define the hooks of this module.
//!
//! # What is measured
//!
//! The engine calls [`reset`] right before the property and [`for_each_hit`] right after it, so
//! only code the property ran counts, not the generator, the mutator or the engine (which is
//! never instrumented). Each touched counter is reported once, as the AFL hit-count bucket of its
//! value: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+ executions map to bits `1 << 0` .. `1 << 7`.
//!
//! # What it costs
//!
//! Every test pays one clearing of the counters ([`reset`]) and one scan of them: 64 counters
//! per block, read with vector loads and tested with one branch, so an untouched block costs a
//! few instructions. The scan zeroes each word it finds non-zero as it reports it, and the
//! engine's own scan hands each hit straight to the feedback update (no buffer, no indirect
//! call). typefuzz's generic loop, its mutators and the derived `Mutate` impls are compiled
//! into the instrumented crate that uses them, so they have counters too; when the executable
//! says which function each counter belongs to (the PC table and v0 symbol names that
//! `cargo typefuzz test` asks for), their counters are neither cleared nor read
//! ([`counters_scanned`]), and only blocks holding a counter of other code are visited, through
//! a mask. What stays is the instrumentation itself: every edge run increments a counter.
//!
//! With `cargo typefuzz test --trace-compares`, LLVM also reports every comparison whose one side
//! is a constant (`x == 0x21`, `match` arms). This module turns the *distance* between the two
//! sides into extra features after the counters (libFuzzer's "value profile"): the number of
//! differing bits and the bit length of the numeric difference, per constant. An input that gets
//! one bit closer to a magic value is thereby new coverage, which is what cracks 32-bit magic
//! numbers that plain edge coverage sees as a single all-or-nothing branch.
//!
//! # Threads
//!
//! `cargo test` runs tests on several threads. What the comparison hooks record is per thread:
//! a hook records only while *its own* thread runs a property (between [`reset`] and the scan on
//! that thread), into that thread's value-profile map and comparison log
//! ([`cmplog`](super::cmplog)). Parallel properties therefore never see each other's
//! comparisons, and comparisons made by the generator, the mutator or typefuzz's loop code on
//! any thread are never recorded. Comparisons made on threads the property spawns itself are
//! not recorded either.
//!
//! The edge counters cannot be attributed that way: LLVM's instrumentation increments one
//! process-global byte per edge, whichever thread runs it. While properties run on parallel
//! threads, a property's coverage includes edges that the others ran meanwhile (noise: an input
//! may be kept as a seed for coverage it did not cause), and one thread's [`reset`] or scan can
//! clear counts another thread's property made (an edge it ran may go unseen in that run).
//! Neither ever changes a verdict, only how well the search is guided. Use
//! `cargo typefuzz test -- --test-threads=1` for exact per-property edge coverage.
//!
//! # cargo-fuzz
//!
//! Under `--cfg fuzzing` libFuzzer owns the counters and defines these hooks itself (a second
//! definition would fail to link), so this module defines none and reports coverage as off.
//!
//! ```
//! use typefuzz::feedback::coverage;
//!
//! coverage::reset();
//! // ... run the property ...
//! let mut features = Vec::new();
//! coverage::for_each_hit(|index, bucket| features.push((index, bucket)));
//! if !coverage::is_enabled() {
//!     // A plain `cargo test` build: nothing is instrumented, so nothing was hit.
//!     assert!(features.is_empty());
//!     assert_eq!(coverage::counters_len(), 0);
//! }
//! ```

use std::cell::Cell;
use std::io::Write as _;
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, Once, OnceLock, PoisonError};

mod attribution;
#[cfg(not(fuzzing))]
mod hooks;
mod value_profile;

pub(crate) use attribution::drain_hits;
#[cfg(test)]
use attribution::*;
pub use attribution::{counters_scanned, for_each_hit, reset, warn_once_if_disabled};
use value_profile::*;

/// Most distinct counter ranges kept (`__sanitizer_cov_8bit_counters_init` is called once per
/// instrumented module; a static executable passes the same merged range every time).
const MAX_MODULES: usize = 64;

/// One registered counter range.
struct Module {
    start: AtomicPtr<u8>,
    len: AtomicUsize,
}

/// The registered ranges: entries below [`MODULE_COUNT`] are filled and never change.
static MODULES: [Module; MAX_MODULES] = [const {
    Module {
        start: AtomicPtr::new(ptr::null_mut()),
        len: AtomicUsize::new(0),
    }
}; MAX_MODULES];
/// How many entries of [`MODULES`] are filled; published with `Release` after the entry.
static MODULE_COUNT: AtomicUsize = AtomicUsize::new(0);
/// The total length in bytes of the registered ranges (counter indices run over the ranges in
/// registration order); published with `Release` after [`MODULE_COUNT`], so a non-zero length
/// always comes with its ranges.
static COUNTERS_LEN: AtomicUsize = AtomicUsize::new(0);
/// Serializes registrations (module constructors, or a `dlopen` on another thread).
#[cfg_attr(fuzzing, allow(dead_code))] // under cargo-fuzz libFuzzer registers the counters
static REGISTER: Mutex<()> = Mutex::new(());

/// What one thread's property call records besides the edge counters: whether a property is
/// running on this thread, and the value-profile map of its comparisons.
///
/// Per thread because `cargo test` runs properties on several threads at once: a comparison
/// hook records into the map of the thread that made the comparison, and only while that
/// thread runs a property, so one property never sees another's comparisons (with one
/// process-global map, parallel properties stole and flooded each other's value-profile
/// features). Comparisons made by the generator, the mutator or typefuzz's generic loop code
/// (instrumented in the caller's crate) cost one thread-local load.
struct ThreadRun {
    /// Set by [`reset`], cleared by the scan.
    running: Cell<bool>,
    /// Whether any value-profile slot may be non-zero, so `reset` and the scan skip the map
    /// entirely when trace-compares is off (the common case) or the property compared nothing.
    dirty: Cell<bool>,
    /// The value-profile map: one bit per feature slot, set when the feature is seen (a bitmap
    /// keeps `reset` and the scan to 128 words).
    value_profile: [Cell<u64>; VALUE_PROFILE_LEN / 64],
    /// Comparison sites whose constant some value of this run has equalled, one bit per site
    /// hash: their distance features are no longer recorded (see [`value_profile_compare`]).
    /// Kept across tests, cleared when a run (or a restarted search) begins.
    matched: [Cell<u64>; MATCHED_WORDS],
}

impl ThreadRun {
    /// Marks the value-profile feature `(site, kind, value)`.
    #[cfg_attr(fuzzing, allow(dead_code))]
    #[inline]
    fn mark_value_profile(&self, site: u64, kind: u64, value: u32) {
        let slot = value_profile_slot(site, kind, value);
        let word = &self.value_profile[slot / 64];
        word.set(word.get() | 1u64 << (slot % 64));
        self.dirty.set(true);
    }
}

thread_local! {
    // `const` and without a destructor: an access is a plain thread-local address, no lazy
    // initialization, and it stays valid while the thread's destructors run.
    static THREAD_RUN: ThreadRun = const {
        ThreadRun {
            running: Cell::new(false),
            dirty: Cell::new(false),
            value_profile: [const { Cell::new(0) }; VALUE_PROFILE_LEN / 64],
            matched: [const { Cell::new(0) }; MATCHED_WORDS],
        }
    };
}

/// Whether a property is running on this thread (see [`ThreadRun`]).
#[cfg_attr(fuzzing, allow(dead_code))] // only the hooks ask, and libFuzzer owns them there
#[inline]
fn armed() -> bool {
    THREAD_RUN.with(|run| run.running.get())
}

/// Log2 of the number of comparison sites [`ThreadRun::matched`] tells apart.
const MATCHED_BITS: u32 = 12;

/// Words of [`ThreadRun::matched`].
const MATCHED_WORDS: usize = 1 << (MATCHED_BITS - 6);

/// Forgets which comparison constants were matched on this thread, so that their distance
/// features count again: called when a run, or a restarted search, begins (a new search has
/// seen nothing yet).
pub(crate) fn forget_matched_constants() {
    THREAD_RUN.with(|run| run.matched.iter().for_each(|word| word.set(0)));
}

/// Number of value-profile features (a power of two), appended after the edge counters.
const VALUE_PROFILE_LEN: usize = 1 << 13;

/// AFL's hit-count buckets: the counter value -> one bit per bucket (0 stays 0).
///
/// A loop that runs 5 times and one that runs 6 times land in the same bucket, so they are the
/// same coverage; 3 versus 4 iterations are different coverage.
const BUCKETS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut count = 1;
    while count < 256 {
        table[count] = match count {
            1 => 1 << 0,
            2 => 1 << 1,
            3 => 1 << 2,
            4..=7 => 1 << 3,
            8..=15 => 1 << 4,
            16..=31 => 1 << 5,
            32..=127 => 1 << 6,
            _ => 1 << 7,
        };
        count += 1;
    }
    table
};

/// The AFL hit-count bucket of a raw counter value, as a single bit (`0` for `0`).
///
/// ```
/// use typefuzz::feedback::coverage::bucket;
/// assert_eq!(bucket(0), 0);
/// assert_eq!(bucket(1), 0b1);
/// assert_eq!(bucket(3), 0b100);
/// assert_eq!(bucket(5), bucket(7));
/// assert_eq!(bucket(255), 0b1000_0000);
/// ```
#[inline]
pub fn bucket(count: u8) -> u8 {
    BUCKETS[count as usize]
}

/// Whether this executable was built with coverage instrumentation (`cargo typefuzz test`): true
/// once the instrumentation registered a non-empty counter range.
///
/// ```
/// // `cargo test` builds are not instrumented; `cargo typefuzz test` builds are.
/// let _on: bool = typefuzz::feedback::coverage::is_enabled();
/// ```
#[inline]
pub fn is_enabled() -> bool {
    COUNTERS_LEN.load(Ordering::Acquire) != 0
}

/// Number of coverage features: the instrumentation's edge counters followed by the
/// value-profile slots, or `0` when coverage is off. Every index given to [`for_each_hit`] is
/// below it, and it does not change after start-up.
///
/// ```
/// use typefuzz::feedback::coverage;
/// assert_eq!(coverage::counters_len() == 0, !coverage::is_enabled());
/// ```
pub fn counters_len() -> usize {
    match COUNTERS_LEN.load(Ordering::Acquire) {
        0 => 0,
        len => len + VALUE_PROFILE_LEN,
    }
}

/// How many of the indices [`drain_hits`] reports are edge counters (the value-profile features
/// come after them).
pub(crate) fn edge_counters_len() -> usize {
    COUNTERS_LEN.load(Ordering::Acquire)
}

/// Adds the counter range `start..start + len` unless it overlaps one already registered (every
/// module of a statically linked executable passes the same merged range).
#[cfg_attr(fuzzing, allow(dead_code))] // under cargo-fuzz libFuzzer registers the counters
fn register(start: *mut u8, len: usize) {
    let _guard = REGISTER.lock().unwrap_or_else(PoisonError::into_inner);
    if add_range(&MODULES, &MODULE_COUNT, start, len) {
        let total = COUNTERS_LEN.load(Ordering::Relaxed) + len;
        COUNTERS_LEN.store(total, Ordering::Release);
    }
}

/// Adds `start..start + len` (units of the table's entries) to `table` unless it overlaps a
/// range already there or the table is full; says whether it did. Callers hold [`REGISTER`].
#[cfg_attr(fuzzing, allow(dead_code))] // under cargo-fuzz libFuzzer registers the counters
fn add_range(
    table: &[Module; MAX_MODULES],
    count: &AtomicUsize,
    start: *mut u8,
    len: usize,
) -> bool {
    let filled = count.load(Ordering::Relaxed);
    let (first, last) = (start as usize, start as usize + len);
    let overlaps = table[..filled].iter().any(|module| {
        let other = module.start.load(Ordering::Relaxed) as usize;
        first < other + module.len.load(Ordering::Relaxed) && other < last
    });
    if overlaps || filled == MAX_MODULES {
        return false;
    }
    table[filled].start.store(start, Ordering::Relaxed);
    table[filled].len.store(len, Ordering::Relaxed);
    count.store(filled + 1, Ordering::Release);
    true
}

/// The PC tables (`-sanitizer-coverage-pc-table`, which `cargo typefuzz test` turns on): for
/// each counter, in the same order, the address of its basic block and a flag word whose bit 0
/// marks a function's entry block. `len` counts bytes, like the counter ranges.
static PC_TABLES: [Module; MAX_MODULES] = [const {
    Module {
        start: AtomicPtr::new(ptr::null_mut()),
        len: AtomicUsize::new(0),
    }
}; MAX_MODULES];
/// How many entries of [`PC_TABLES`] are filled.
static PC_TABLE_COUNT: AtomicUsize = AtomicUsize::new(0);

/// Adds the PC table `start..start + len` (bytes) unless it overlaps one already registered.
#[cfg_attr(fuzzing, allow(dead_code))] // under cargo-fuzz libFuzzer registers the tables
fn register_pc_table(start: *mut u8, len: usize) {
    let _guard = REGISTER.lock().unwrap_or_else(PoisonError::into_inner);
    add_range(&PC_TABLES, &PC_TABLE_COUNT, start, len);
}

/// The registered ranges as `(start, len)`, in index order.
#[inline]
fn modules() -> impl Iterator<Item = (*mut u8, usize)> {
    let count = MODULE_COUNT.load(Ordering::Acquire);
    MODULES[..count].iter().map(|module| {
        (
            module.start.load(Ordering::Relaxed),
            module.len.load(Ordering::Relaxed),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_follow_afl() {
        let expected = |count: u8| match count {
            0 => 0,
            1 => 1,
            2 => 2,
            3 => 4,
            4..=7 => 8,
            8..=15 => 16,
            16..=31 => 32,
            32..=127 => 64,
            128..=255 => 128,
        };
        for count in 0..=255u8 {
            assert_eq!(bucket(count), expected(count), "count {count}");
        }
    }

    #[test]
    fn drain_reports_and_zeroes_every_nonzero_byte_at_any_alignment() {
        // A buffer of 8-byte words so that sub-slices start at every alignment.
        let mut storage = [0u64; 32];
        let base = storage.as_mut_ptr().cast::<u8>();
        for misalignment in 0..8 {
            for len in [0, 1, 7, 8, 9, 17, 40, 64, 100, 200, 256 - misalignment] {
                // SAFETY: `misalignment + len <= 256`, inside `storage`.
                let start = unsafe { base.add(misalignment) };
                let hits: Vec<usize> = (0..len).filter(|i| i % 3 == 1 || i % 8 == 7).collect();
                unsafe { ptr::write_bytes(base, 0, 256) };
                for (n, &i) in hits.iter().enumerate() {
                    unsafe { *start.add(i) = (n % 255 + 1) as u8 };
                }
                // A byte just outside the range must be neither reported nor zeroed.
                let outside = misalignment + len;
                if outside < 256 {
                    unsafe { *base.add(outside) = 9 };
                }
                let mut seen = Vec::new();
                unsafe { drain(start, len, 100, &mut |i, b| seen.push((i, b))) };
                let expected: Vec<(usize, u8)> = hits
                    .iter()
                    .enumerate()
                    .map(|(n, &i)| (100 + i, bucket((n % 255 + 1) as u8)))
                    .collect();
                assert_eq!(seen, expected, "misalignment {misalignment}, len {len}");
                let bytes = unsafe { std::slice::from_raw_parts(base, 256) };
                for (offset, &value) in bytes.iter().enumerate() {
                    let expected = if offset == outside { 9 } else { 0 };
                    assert_eq!(value, expected, "misalignment {misalignment}, len {len}");
                }
                let mut again = Vec::new();
                unsafe { drain(start, len, 100, &mut |i, b| again.push((i, b))) };
                assert!(again.is_empty(), "drained");
            }
        }
    }

    #[test]
    fn value_profile_features_are_reported_once_and_leave_the_map_clean() {
        // No counters are registered in this (uninstrumented) test binary, so the features
        // start at index 0.
        assert!(!is_enabled());
        THREAD_RUN.with(|run| {
            run.mark_value_profile(1, 1, 3);
            run.mark_value_profile(1, 2, 5);
        });
        let mut seen = Vec::new();
        drain_hits(|index, bucket| seen.push((index, bucket)));
        let mut expected = vec![
            (value_profile_slot(1, 1, 3), 1),
            (value_profile_slot(1, 2, 5), 1),
        ];
        expected.sort();
        assert_eq!(seen, expected);
        THREAD_RUN.with(|run| {
            assert!(!run.dirty.get());
            assert!(run.value_profile.iter().all(|word| word.get() == 0));
        });
        let mut again = 0;
        drain_hits(|_, _| again += 1);
        assert_eq!(again, 0);
    }

    #[test]
    fn a_matched_constant_stops_recording_distances_until_a_new_search() {
        // Distances recorded by one run of a property, as the scan reports them.
        let distances = |values: &[u64]| {
            reset();
            for &value in values {
                value_profile_compare(constant_site(1000, 32), 1000, value);
            }
            let mut seen = 0;
            drain_hits(|_, _| seen += 1);
            seen
        };
        forget_matched_constants();
        assert_eq!(
            distances(&[3]),
            2,
            "bits differing, bit length of the difference"
        );
        assert_eq!(
            distances(&[900, 1000]),
            4,
            "the matching run records its own distance"
        );
        assert_eq!(
            distances(&[3, 900]),
            0,
            "the constant was matched: nothing more"
        );
        // Another constant is not affected.
        reset();
        value_profile_compare(constant_site(77, 32), 77, 3);
        let mut other = 0;
        drain_hits(|_, _| other += 1);
        assert_eq!(other, 2);
        // A new search (a run, or a restart) is guided by distances again.
        forget_matched_constants();
        assert_eq!(distances(&[3]), 2);
    }

    #[test]
    fn typefuzz_functions_are_told_from_the_users() {
        for runtime in [
            "typefuzz_engine::fuzzer::Fuzzer<T,G,P,R>::run",
            "typefuzz_engine::fuzzer::Fuzzer<T,G,P,R>::fuzz_one::{{closure}}",
            "typefuzz::check",
            "<typefuzz_fixture::Shape as typefuzz_engine::mutate::Mutate>::mutate",
            "<typefuzz_engine::schedule::fuzzchick::FuzzChick as typefuzz_engine::schedule::policy::Policy<T>>::pick",
            "<typefuzz_engine::corpus::Seed<T> as core::clone::Clone>::clone",
            "typefuzz_engine::mutate::vec::<impl typefuzz_engine::mutate::Mutate for alloc::vec::Vec<T>>::mutate",
            "typefuzz_core::mutate::vec::<impl typefuzz_core::mutate::Mutate for alloc::vec::Vec<T>>::mutate",
            "<typefuzz_fixture::Shape as typefuzz_core::mutate::Mutate>::mutate",
            "core::ptr::drop_in_place<typefuzz_engine::fuzzer::Fuzzer<u8>>",
            // v0 names carry generic arguments.
            "<hashbrown::map::HashMap<u64, typefuzz_engine::corpus::Entry>>::insert",
            "<core::iter::Map<I, <X as typefuzz::Mutate>::Y> as core::iter::Iterator>::next",
        ] {
            assert!(is_runtime_function(runtime), "{runtime}");
        }
        for user in [
            "typefuzz_fixture::depth",
            "throughput::throughput::{{closure}}",
            "throughput::throughput::{closure#1}",
            "std::panicking::try::do_call",
            "<typefuzz_fixture::Shape as core::fmt::Debug>::fmt",
            "<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop",
            "<alloc::vec::Vec<u8>>::push",
            "core::ptr::drop_in_place<my_crate::State>",
            "typefuzzy::parse",
            "my_crate::typefuzz::helper",
            "typefuzz_engine::executor::call_property::<bool, typefuzz_engine::executor::execute<u8, throughput::throughput::{closure#1}>::{closure#0}>",
            "std::panicking::catch_unwind::do_call::<core::panic::unwind_safe::AssertUnwindSafe<typefuzz_engine::executor::run_once<bool, typefuzz_engine::executor::execute<u8>::{closure#0}>::{closure#0}>, bool>",
            // The adapters' glue calls the user's property, which may be inlined into it.
            "<fn(u8, u8) -> bool as typefuzz_quickcheck::property::Property<typefuzz_quickcheck::v1::V1>>::call",
            "typefuzz_proptest::run::<proptest::arbitrary::Any<u8>, my_tests::commutes::{closure#0}>::{closure#1}",
        ] {
            assert!(!is_runtime_function(user), "{user}");
        }
    }

    #[test]
    fn blocks_skip_runtime_counters() {
        // 8-byte aligned storage, as LLVM lays out the counters of a module.
        let mut first = [0u64; 60];
        let mut second = [0u64; 2];
        let modules = [
            (first.as_mut_ptr().cast::<u8>(), 400),
            (second.as_mut_ptr().cast::<u8>(), 10),
        ];
        // Scanned: 0..10, 300..305, 390..400 and, in the second module, 405..410.
        let mut runtime = vec![true; 410];
        for range in [0..10, 300..305, 390..400, 405..410] {
            runtime[range].fill(false);
        }
        let (blocks, edges) = blocks(&modules, &runtime);
        let (a, b) = (first.as_ptr() as usize, second.as_ptr() as usize);
        let found: Vec<(usize, usize, [u64; 8])> = blocks
            .iter()
            .map(|block| (block.start as usize - a, block.base, block.mask))
            .collect();
        let mut mask0 = [0; 8];
        (mask0[0], mask0[1]) = (u64::MAX, 0xffff);
        let mut mask4 = [0; 8];
        (mask4[5], mask4[6]) = (0xffff_ffff << 32, 0xff);
        // Blocks 1, 2, 3 and 5 hold only typefuzz's counters: neither reset nor read.
        assert_eq!(found, vec![(0, 0, mask0), (256, 256, mask4)]);
        let edges: Vec<(usize, usize, usize)> = edges
            .iter()
            .map(|span| (span.start as usize, span.len, span.base))
            .collect();
        assert_eq!(edges, vec![(a + 384, 16, 384), (b, 10, 400)]);
        // Without attribution every block is scanned whole.
        let (all, _) = super::blocks(&modules, &[]);
        assert_eq!(all.len(), 6);
        assert!(all.iter().all(|block| block.mask == [u64::MAX; 8]));
        // A misaligned module: the bytes before its first 8-byte boundary are an edge.
        let misaligned = [(first.as_mut_ptr().cast::<u8>().wrapping_add(3), 100)];
        let mut runtime = vec![true; 100];
        runtime[2] = false;
        runtime[50] = false;
        let (blocks, edges) = super::blocks(&misaligned, &runtime);
        let edges: Vec<(usize, usize)> = edges.iter().map(|span| (span.base, span.len)).collect();
        assert_eq!(edges, vec![(0, 5)]);
        let mut mask = [0; 8];
        mask[5] = 0xff << 40;
        assert_eq!(blocks.len(), 1);
        assert_eq!((blocks[0].base, blocks[0].mask), (5, mask));
    }

    #[test]
    fn a_block_reports_only_its_scanned_counters() {
        let mut storage = [0u64; 8];
        let start = storage.as_mut_ptr().cast::<u8>();
        let mut mask = [0u64; 8];
        mask[0] = 0xff; // byte 0
        mask[3] = 0xff00_0000_0000_0000; // byte 31
        let block = Block {
            start,
            base: 1000,
            mask,
        };
        for (offset, count) in [(0, 1), (1, 7), (31, 3), (40, 9)] {
            // SAFETY: inside `storage`.
            unsafe { *start.add(offset) = count };
        }
        let mut seen = Vec::new();
        // SAFETY: `storage` is 64 bytes, 8-aligned, only accessed through `start` here.
        unsafe { drain_block(&block, &mut |index, bucket| seen.push((index, bucket))) };
        assert_eq!(seen, vec![(1000, bucket(1)), (1031, bucket(3))]);
        // The words holding scanned counters are zeroed (their typefuzz neighbours with them);
        // other words are left alone.
        let bytes: Vec<u8> = (0..64)
            .map(|offset| unsafe { *start.add(offset) })
            .collect();
        assert!(bytes[..8].iter().chain(&bytes[24..32]).all(|&b| b == 0));
        assert_eq!(bytes[40], 9);
        let mut again = Vec::new();
        unsafe { drain_block(&block, &mut |index, bucket| again.push((index, bucket))) };
        assert!(again.is_empty());
    }

    #[test]
    fn closer_constants_give_new_features() {
        // Every distance to the same constant is its own feature: that is the search gradient.
        let site = constant_site(0x21, 8);
        for kind in [1, 2] {
            let slots: std::collections::HashSet<usize> = (0..=64)
                .map(|value| value_profile_slot(site, kind, value))
                .collect();
            assert_eq!(slots.len(), 65, "kind {kind}");
            assert!(slots.iter().all(|&slot| slot < VALUE_PROFILE_LEN));
        }
    }
}
