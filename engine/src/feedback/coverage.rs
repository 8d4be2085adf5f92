//! Code coverage: the SanitizerCoverage runtime that receives LLVM's inline 8-bit counters and
//! turns them into AFL-style hit-count features for the engine.
//!
//! # How coverage is switched on
//!
//! Run your tests with `cargo typefuzz test [cargo test arguments]` (package `cargo-typefuzz`).
//! It compiles your workspace crates, and only those, with SanitizerCoverage on stable Rust.
//! LLVM then inserts one byte counter per basic-block edge and, at program start, calls
//! [`__sanitizer_cov_8bit_counters_init`] (defined here) with the range holding all of them.
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
//! Every test pays one `memset` of the counters ([`reset`]) and one scan of them: eight counters
//! per word, eight words per branch, so an untouched 64-byte block costs a few instructions. The
//! scan zeroes each word it finds non-zero as it reports it, and the engine's own scan
//! hands each hit straight to the feedback update (no buffer, no indirect call). The counters
//! are kept as one range per instrumented module that registered a distinct one (a statically
//! linked executable registers a single range for all its crates). What stays is the
//! instrumentation itself: every edge of the code under test, *and* of typefuzz's generic loop
//! code, which is compiled into the instrumented crate that calls it, increments a counter.
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
//! The counters are process-global, like the instrumentation that writes them. `cargo test` runs
//! tests on several threads: instrumented code run by *other* tests while a property runs shows
//! up in that property's coverage as noise (never as a wrong verdict). Use
//! `cargo typefuzz test -- --test-threads=1` for exact per-property coverage.
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

use std::io::Write as _;
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, Once, PoisonError};

/// Most distinct counter ranges kept ([`__sanitizer_cov_8bit_counters_init`] is called once per
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

/// How many properties are running, on any thread: [`reset`] adds one, the scan takes one
/// away (never below zero). The comparison hooks record nothing while it is zero, so
/// comparisons made by the generator, the mutator or typefuzz's generic loop code
/// (instrumented in the caller's crate) cost one load. A count, not a flag: `cargo test` runs
/// properties on several threads, and one thread's scan must not disarm the hooks while
/// another thread's property runs (a flag lost most of a parallel property's comparisons).
static ARMED: AtomicUsize = AtomicUsize::new(0);

/// Whether any property is running (see [`ARMED`]).
#[cfg_attr(fuzzing, allow(dead_code))] // only the hooks ask, and libFuzzer owns them there
#[inline]
fn armed() -> bool {
    ARMED.load(Ordering::Relaxed) != 0
}

/// Number of value-profile features (a power of two), appended after the edge counters.
const VALUE_PROFILE_LEN: usize = 1 << 13;

/// The value-profile map: one bit per feature slot, set when the feature is seen (a bitmap keeps
/// `reset` and the scan to 128 words).
///
/// Atomic words because the comparison hooks run on whichever thread executes instrumented code.
/// Relaxed ordering is enough: the engine reads the map on the thread that ran the property,
/// after it returned, and the map is a hint for search, never a correctness signal.
static VALUE_PROFILE: [AtomicU64; VALUE_PROFILE_LEN / 64] =
    [const { AtomicU64::new(0) }; VALUE_PROFILE_LEN / 64];
/// Whether any value-profile slot may be non-zero, so `reset` and `for_each_hit` skip the map
/// entirely when trace-compares is off (the common case) or the property compared nothing.
static VALUE_PROFILE_DIRTY: AtomicBool = AtomicBool::new(false);

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

/// Adds the counter range `start..start + len` unless it overlaps one already registered (every
/// module of a statically linked executable passes the same merged range).
#[cfg_attr(fuzzing, allow(dead_code))] // under cargo-fuzz libFuzzer registers the counters
fn register(start: *mut u8, len: usize) {
    let _guard = REGISTER.lock().unwrap_or_else(PoisonError::into_inner);
    let count = MODULE_COUNT.load(Ordering::Relaxed);
    let end = start as usize + len;
    let overlaps = MODULES[..count].iter().any(|module| {
        let other = module.start.load(Ordering::Relaxed) as usize;
        (start as usize) < other + module.len.load(Ordering::Relaxed) && other < end
    });
    if overlaps || count == MAX_MODULES {
        return;
    }
    MODULES[count].start.store(start, Ordering::Relaxed);
    MODULES[count].len.store(len, Ordering::Relaxed);
    MODULE_COUNT.store(count + 1, Ordering::Release);
    let total = COUNTERS_LEN.load(Ordering::Relaxed) + len;
    COUNTERS_LEN.store(total, Ordering::Release);
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

/// Zeroes every counter (a `memset` per registered range; the value-profile map only if it was
/// touched) and arms the comparison hooks. The engine calls it right before running the property.
///
/// `inline(never)`: an inlined copy in an instrumented crate would bump a counter of its own.
///
/// ```
/// use typefuzz::feedback::coverage;
/// coverage::reset();
/// let mut hits = 0;
/// coverage::for_each_hit(|_, _| hits += 1);
/// // The doctest itself is not instrumented, so nothing ran since the reset.
/// assert_eq!(hits, 0);
/// ```
#[inline(never)]
pub fn reset() {
    // The code between two properties (the generator, the mutator, typefuzz's generic loop in
    // the caller's crate) bumps counters anywhere in the map, so all of it is cleared: reading it
    // to find the dirty words would cost as much as this `memset`.
    for (start, len) in modules() {
        // In pieces of at most 2 KiB: above that glibc's `memset` switches to `rep stosb`, which
        // measured 1.8x slower here on a 2.9 KiB map (190 ns against 330 ns).
        const PIECE: usize = 2048;
        for offset in (0..len).step_by(PIECE) {
            // SAFETY: `start..start + len` is a counter range the instrumentation registered in
            // `__sanitizer_cov_8bit_counters_init`: static storage of the executable, valid for
            // writes for the whole life of the process, and `offset + PIECE.min(..) <= len`. We
            // only touch it through raw pointers, never through references, so no exclusivity
            // is claimed. Instrumented code on other threads may increment counters
            // concurrently; like libFuzzer we accept that race on plain bytes (the worst
            // outcome is a lost or spurious hit, i.e. coverage noise).
            unsafe { ptr::write_bytes(start.add(offset), 0, PIECE.min(len - offset)) };
        }
    }
    if VALUE_PROFILE_DIRTY.swap(false, Ordering::Relaxed) {
        for word in &VALUE_PROFILE {
            word.store(0, Ordering::Relaxed);
        }
    }
    ARMED.fetch_add(1, Ordering::Relaxed);
}

/// Calls `f(index, bucket)` for each counter hit since the last [`reset`], in increasing index
/// order, where `bucket` is the AFL hit-count bucket as a single bit (see [`bucket`]). The
/// counters it reports are zeroed, so a second call reports nothing new.
///
/// The scan reads eight counters at a time and skips all-zero 64-byte blocks with one branch,
/// so its cost is dominated by the size of the map divided by 64 plus the number of counters hit.
///
/// ```
/// use typefuzz::feedback::coverage;
/// let mut features = Vec::new();
/// coverage::for_each_hit(|index, bucket| features.push((index, bucket)));
/// assert!(features.iter().all(|&(i, b)| i < coverage::counters_len() && b.is_power_of_two()));
/// ```
pub fn for_each_hit(mut f: impl FnMut(usize, u8)) {
    // This function is generic, so it is compiled into the caller's crate, which may be
    // instrumented: if it scanned the counters itself, its own loops would bump counters while
    // they are being read. The scan therefore runs in the (never instrumented) engine and
    // collects the hits first; `f` runs afterwards. (The engine's own feedback update calls
    // `drain_hits`, which needs no buffer.)
    let hits = collect_hits();
    for &(index, bucket) in &hits {
        f(index, bucket);
    }
    recycle_hits(hits);
}

thread_local! {
    /// The buffer `for_each_hit` collects into, reused to keep allocation out of the loop.
    static HIT_BUFFER: std::cell::Cell<Vec<(usize, u8)>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Scans the counters and the value-profile map into the thread's hit buffer.
///
/// `inline(never)`: rustc may inline small functions into other crates, where the copy would be
/// instrumented. The same holds for `reset` and `recycle_hits`.
#[inline(never)]
fn collect_hits() -> Vec<(usize, u8)> {
    let mut hits = HIT_BUFFER.take();
    hits.clear();
    drain_hits(|index, bucket| hits.push((index, bucket)));
    hits
}

/// Gives the buffer back for the next `for_each_hit` on this thread.
#[inline(never)]
fn recycle_hits(hits: Vec<(usize, u8)>) {
    HIT_BUFFER.set(hits);
}

/// [`for_each_hit`] for the engine itself: `f` is called during the scan, inlined into it.
///
/// Crate-private, and only called from non-generic engine code (the feedback update), so it is
/// always compiled into the engine, which is never instrumented.
#[inline(always)]
pub(crate) fn drain_hits(mut f: impl FnMut(usize, u8)) {
    // A scan without a `reset` before it (e.g. `for_each_hit` alone) leaves the count at zero.
    let _ = ARMED.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
    let mut base = 0;
    for (start, len) in modules() {
        // SAFETY: the range is valid for reads and writes for the life of the process (see
        // `reset`). Accesses go through atomic views so that concurrent writes by instrumented
        // code on other threads are not undefined behaviour on our side; the instrumentation's
        // own plain increments are outside Rust's model either way, exactly as in libFuzzer.
        unsafe { drain(start, len, base, &mut f) };
        base += len;
    }
    // Cleared before the words are read and zeroed: a mark made meanwhile on another thread
    // sets the flag again, and the next `reset` clears the whole map. Otherwise the map is left
    // clean and `reset` skips it.
    if VALUE_PROFILE_DIRTY.swap(false, Ordering::Relaxed) {
        for (index, word) in VALUE_PROFILE.iter().enumerate() {
            if word.load(Ordering::Relaxed) == 0 {
                continue;
            }
            let mut bits = word.swap(0, Ordering::Relaxed);
            while bits != 0 {
                // A value-profile feature is seen or not: always the first bucket.
                f(base + index * 64 + bits.trailing_zeros() as usize, 1);
                bits &= bits - 1;
            }
        }
    }
}

/// Reports the non-zero bytes of `start..start + len` as `f(base + offset, bucket)`, in order,
/// and zeroes them.
///
/// # Safety
/// `start..start + len` must be valid for reads and writes for the duration of the call, and
/// only be accessed through raw pointers or atomics (never through a live reference).
#[inline(always)]
unsafe fn drain(start: *mut u8, len: usize, base: usize, f: &mut impl FnMut(usize, u8)) {
    let byte = |offset: usize| {
        // SAFETY: `offset < len` at every call below; `AtomicU8` has the alignment of `u8`.
        unsafe { AtomicU8::from_ptr(start.add(offset)) }
    };
    let drain_byte = |offset: usize, f: &mut dyn FnMut(usize, u8)| {
        let count = byte(offset).load(Ordering::Relaxed);
        if count != 0 {
            byte(offset).store(0, Ordering::Relaxed);
            f(base + offset, bucket(count));
        }
    };
    // Bytes before the first 8-aligned address, then whole words, then the tail.
    let head = start.align_offset(8).min(len);
    for offset in 0..head {
        drain_byte(offset, f);
    }
    let words = (len - head) / 8;
    let word = |index: usize| {
        // SAFETY: `start + head` is 8-aligned (by the choice of `head`) and word `index` lies
        // inside the range (`head + (index + 1) * 8 <= head + words * 8 <= len`).
        unsafe { AtomicU64::from_ptr(start.add(head + index * 8).cast::<u64>()) }
    };
    // Most of the map is zero after one property call: test 64 bytes with one branch.
    const BLOCK: usize = 8;
    for block in 0..words / BLOCK {
        // SAFETY: the block's eight words lie inside the range (see `word`), 8-aligned. A plain
        // read, which the compiler turns into a few vector loads (1.7x faster than eight atomic
        // loads, measured): it races with increments on other threads exactly like `reset`'s
        // `memset`, and only decides whether to look closer, with atomic loads.
        let values: [u64; BLOCK] =
            unsafe { ptr::read(start.add(head + block * BLOCK * 8).cast::<[u64; BLOCK]>()) };
        if values.iter().fold(0, |any, value| any | value) == 0 {
            continue;
        }
        for k in 0..BLOCK {
            let index = block * BLOCK + k;
            let value = word(index).load(Ordering::Relaxed);
            if value != 0 {
                word(index).store(0, Ordering::Relaxed);
                report_word(value, base + head + index * 8, f);
            }
        }
    }
    for index in words / BLOCK * BLOCK..words {
        let value = word(index).load(Ordering::Relaxed);
        if value != 0 {
            word(index).store(0, Ordering::Relaxed);
            report_word(value, base + head + index * 8, f);
        }
    }
    for offset in head + words * 8..len {
        drain_byte(offset, f);
    }
}

/// Reports the non-zero bytes of the counter word `value` (as read from memory) whose first
/// counter has index `first`.
#[inline(always)]
fn report_word(value: u64, first: usize, f: &mut impl FnMut(usize, u8)) {
    // Byte `k` of the word in memory is bits `8k..8k + 8` of its little-endian reading.
    let mut rest = u64::from_le(value);
    while rest != 0 {
        let shift = rest.trailing_zeros() & !7;
        f(first + (shift / 8) as usize, bucket((rest >> shift) as u8));
        rest &= !(0xff << shift);
    }
}

/// Prints, once per process, that coverage is off and how to turn it on, unless it is on. The
/// engine calls it when a run grows long (with its first status line, or at the end of a run
/// of 10,000 tests or more), so framework-sized `cargo test` runs stay quiet. It writes to the process's stderr itself, past libtest's output capture, so
/// the line is never part of a failing test's captured output.
///
/// ```
/// // Silent under `cargo typefuzz test`; one line on stderr under plain `cargo test`.
/// typefuzz::feedback::coverage::warn_once_if_disabled();
/// typefuzz::feedback::coverage::warn_once_if_disabled(); // never a second time
/// ```
pub fn warn_once_if_disabled() {
    static WARNED: Once = Once::new();
    if is_enabled() {
        return;
    }
    WARNED.call_once(|| {
        let banner = if cfg!(fuzzing) {
            "typefuzz: under cargo-fuzz libFuzzer owns code coverage; the typefuzz loop runs \
             without it (use `typefuzz::fuzz_target!` to get both)"
        } else {
            "typefuzz: code coverage feedback is off (this test binary is not instrumented); \
             run `cargo typefuzz test` (install with `cargo install cargo-typefuzz`) to turn \
             it on. Using labels, targets and assume! feedback only."
        };
        // A failed write to stderr leaves nothing to report it to.
        let _ = writeln!(std::io::stderr(), "{banner}");
    });
}

// ---------------------------------------------------------------------------------------------
// Value profile: distance features for comparisons against constants.
// ---------------------------------------------------------------------------------------------

/// The value-profile slot of the feature `(site, kind, value)`: a hash of the site and kind, plus
/// the value, so that the distances recorded at one site never collide with each other.
// Only the hooks call it, and under cargo-fuzz (`cfg(fuzzing)`) libFuzzer owns the hooks.
#[cfg_attr(fuzzing, allow(dead_code))]
#[inline]
fn value_profile_slot(site: u64, kind: u64, value: u32) -> usize {
    let hash =
        (site ^ kind.wrapping_mul(0xBF58_476D_1CE4_E5B9)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((hash >> 32) as usize).wrapping_add(value as usize) & (VALUE_PROFILE_LEN - 1)
}

/// Marks the value-profile feature `(site, kind, value)`.
// Only the hooks call it, and under cargo-fuzz (`cfg(fuzzing)`) libFuzzer owns the hooks.
#[cfg_attr(fuzzing, allow(dead_code))]
#[inline]
fn value_profile_mark(site: u64, kind: u64, value: u32) {
    let slot = value_profile_slot(site, kind, value);
    let (word, bit) = (&VALUE_PROFILE[slot / 64], 1u64 << (slot % 64));
    // A locked read-modify-write only for a feature not seen since the last reset.
    if word.load(Ordering::Relaxed) & bit == 0 {
        word.fetch_or(bit, Ordering::Relaxed);
    }
    // Loading first keeps the flag's cache line shared between threads in the common case.
    if !VALUE_PROFILE_DIRTY.load(Ordering::Relaxed) {
        VALUE_PROFILE_DIRTY.store(true, Ordering::Relaxed);
    }
}

/// Records how close `value` is to `constant` (both of `bits` width) at the comparison site
/// identified by `site`: as the number of differing bits and as the bit length of the numeric
/// difference. Each distance is its own feature, so every step closer is new coverage.
// Only the hooks call it, and under cargo-fuzz (`cfg(fuzzing)`) libFuzzer owns the hooks.
#[cfg_attr(fuzzing, allow(dead_code))]
#[inline]
fn value_profile_compare(site: u64, constant: u64, value: u64) {
    if !armed() {
        return;
    }
    let differing_bits = (constant ^ value).count_ones();
    let distance_bits = 64 - constant.abs_diff(value).leading_zeros();
    value_profile_mark(site, 1, differing_bits);
    value_profile_mark(site, 2, distance_bits);
}

/// The site key of a comparison against a constant: the constant and its width (stable Rust
/// has no return address to identify the instruction, and the constant is what we steer to).
// Only the hooks call it, and under cargo-fuzz (`cfg(fuzzing)`) libFuzzer owns the hooks.
#[cfg_attr(fuzzing, allow(dead_code))]
#[inline]
fn constant_site(constant: u64, bits: u64) -> u64 {
    constant.rotate_left(8) ^ bits
}

#[cfg(not(fuzzing))]
mod hooks {
    //! The symbols LLVM's SanitizerCoverage instrumentation calls. Defined here, in the engine,
    //! which is never instrumented itself (the `cargo typefuzz` wrapper skips it), so a hook can
    //! never re-enter itself through its own instrumentation.
    //!
    //! `cargo typefuzz test` links a library of no-op copies of exactly these symbols *after*
    //! all crates, for test binaries that do not link the engine: an archive member is only
    //! pulled in for still-undefined symbols, so these definitions win whenever the engine is
    //! linked. The two sets are identical: a test of cargo-typefuzz
    //! (`hooks_library::tests::defines_exactly_the_hooks_of_the_engine`) compares them.

    use super::{armed, constant_site, register, value_profile_compare};
    use crate::feedback::cmplog::record_integers;

    /// Logs a comparison's operands for input-to-state mutation
    /// ([`cmplog`](crate::feedback::cmplog)), only while the property runs: otherwise the cost
    /// is one relaxed load.
    #[inline]
    fn log_operands(a: u64, b: u64, width: u8) {
        if armed() {
            record_integers(a, b, width);
        }
    }

    /// Registers the inline 8-bit counters of the executable.
    ///
    /// LLVM calls it from a module constructor, before `main`, once per instrumented module
    /// (for a static executable every module passes the same range, that of all crates, as
    /// measured with rustc 1.95). Each distinct range is kept (up to 64); a range registered
    /// later (a `dlopen`ed instrumented library) gets the indices after the earlier ones, and
    /// the value-profile features move up by its length.
    ///
    /// # Safety
    /// `start..stop` must be the counter array: valid for reads and writes for the life of the
    /// process, and written only by instrumented code and this module.
    #[no_mangle]
    pub unsafe extern "C" fn __sanitizer_cov_8bit_counters_init(start: *mut u8, stop: *mut u8) {
        if start.is_null() || stop <= start {
            return;
        }
        // SAFETY: both pointers delimit the same array (LLVM's `__start_`/`__stop_` section
        // symbols), and `stop > start` was checked above.
        let len = unsafe { stop.offset_from(start) } as usize;
        register(start, len);
    }

    /// PC table registration (`-sanitizer-coverage-pc-table`): not used by typefuzz.
    ///
    /// # Safety
    /// None required: the pointers are not dereferenced.
    #[no_mangle]
    pub unsafe extern "C" fn __sanitizer_cov_pcs_init(_start: *const usize, _stop: *const usize) {}

    /// Comparison of two 1-byte variables: logged for input-to-state mutation (no constant to
    /// measure a distance to).
    #[no_mangle]
    pub extern "C" fn __sanitizer_cov_trace_cmp1(a: u8, b: u8) {
        log_operands(u64::from(a), u64::from(b), 1);
    }
    /// Comparison of two 2-byte variables: logged for input-to-state mutation.
    #[no_mangle]
    pub extern "C" fn __sanitizer_cov_trace_cmp2(a: u16, b: u16) {
        log_operands(u64::from(a), u64::from(b), 2);
    }
    /// Comparison of two 4-byte variables: logged for input-to-state mutation.
    #[no_mangle]
    pub extern "C" fn __sanitizer_cov_trace_cmp4(a: u32, b: u32) {
        log_operands(u64::from(a), u64::from(b), 4);
    }
    /// Comparison of two 8-byte variables: logged for input-to-state mutation.
    #[no_mangle]
    pub extern "C" fn __sanitizer_cov_trace_cmp8(a: u64, b: u64) {
        log_operands(a, b, 8);
    }

    /// Comparison of a 1-byte value against the constant `constant`.
    #[no_mangle]
    pub extern "C" fn __sanitizer_cov_trace_const_cmp1(constant: u8, value: u8) {
        let c = u64::from(constant);
        value_profile_compare(constant_site(c, 8), c, u64::from(value));
        log_operands(u64::from(value), c, 1);
    }
    /// Comparison of a 2-byte value against the constant `constant`.
    #[no_mangle]
    pub extern "C" fn __sanitizer_cov_trace_const_cmp2(constant: u16, value: u16) {
        let c = u64::from(constant);
        value_profile_compare(constant_site(c, 16), c, u64::from(value));
        log_operands(u64::from(value), c, 2);
    }
    /// Comparison of a 4-byte value against the constant `constant`.
    #[no_mangle]
    pub extern "C" fn __sanitizer_cov_trace_const_cmp4(constant: u32, value: u32) {
        let c = u64::from(constant);
        value_profile_compare(constant_site(c, 32), c, u64::from(value));
        log_operands(u64::from(value), c, 4);
    }
    /// Comparison of an 8-byte value against the constant `constant`.
    #[no_mangle]
    pub extern "C" fn __sanitizer_cov_trace_const_cmp8(constant: u64, value: u64) {
        value_profile_compare(constant_site(constant, 64), constant, value);
        log_operands(value, constant, 8);
    }

    /// A `switch` on `value`: `cases[0]` is the number of cases, `cases[1]` the bit width of
    /// `value`, `cases[2..]` the case constants. Records the distance to the closest case,
    /// keyed by the case table's address (one table per switch instruction), and logs the value
    /// against every case for input-to-state mutation.
    ///
    /// # Safety
    /// `cases` must point to a case table laid out as above (LLVM emits it as a constant).
    #[no_mangle]
    pub unsafe extern "C" fn __sanitizer_cov_trace_switch(value: u64, cases: *const u64) {
        if cases.is_null() || !armed() {
            return;
        }
        // SAFETY: the caller's table holds `2 + cases[0]` readable `u64`s.
        let (count, width, table) = unsafe { (*cases, *cases.add(1) / 8, cases.add(2)) };
        let mut closest = None::<u64>;
        let mut best = u32::MAX;
        for i in 0..count as usize {
            // SAFETY: `i < cases[0]`, inside the table.
            let case = unsafe { *table.add(i) };
            log_operands(value, case, width as u8);
            let distance = (case ^ value).count_ones();
            if distance < best {
                best = distance;
                closest = Some(case);
            }
        }
        if let Some(case) = closest {
            value_profile_compare(cases as u64, case, value);
        }
    }

    /// Division by a 4-byte variable (`-sanitizer-coverage-trace-divs`): not used.
    #[no_mangle]
    pub extern "C" fn __sanitizer_cov_trace_div4(_value: u32) {}
    /// Division by an 8-byte variable (`-sanitizer-coverage-trace-divs`): not used.
    #[no_mangle]
    pub extern "C" fn __sanitizer_cov_trace_div8(_value: u64) {}
    /// Array index computation (`-sanitizer-coverage-trace-geps`): not used.
    #[no_mangle]
    pub extern "C" fn __sanitizer_cov_trace_gep(_index: usize) {}
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
        value_profile_mark(1, 1, 3);
        value_profile_mark(1, 2, 5);
        let mut seen = Vec::new();
        drain_hits(|index, bucket| seen.push((index, bucket)));
        let mut expected = vec![
            (value_profile_slot(1, 1, 3), 1),
            (value_profile_slot(1, 2, 5), 1),
        ];
        expected.sort();
        assert_eq!(seen, expected);
        assert!(!VALUE_PROFILE_DIRTY.load(Ordering::Relaxed));
        assert!(VALUE_PROFILE
            .iter()
            .all(|word| word.load(Ordering::Relaxed) == 0));
        let mut again = 0;
        drain_hits(|_, _| again += 1);
        assert_eq!(again, 0);
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
