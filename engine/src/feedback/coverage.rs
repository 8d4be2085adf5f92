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

// ---------------------------------------------------------------------------------------------
// Attribution: which counters are reset and scanned around a property call.
// ---------------------------------------------------------------------------------------------

/// The crates whose functions' counters are left out: the type model and the engine (their
/// generic mutators, derived `Mutate` impls and loop are compiled into the user's crate and
/// instrumented there; none of it is the property's coverage) and the facade. Not the drop-in adapters: their glue calls the
/// user's property (a quickcheck `Property::call`, a proptest test-body closure), so the
/// property's code may be inlined into one of their functions.
#[cfg_attr(fuzzing, allow(dead_code))] // under cargo-fuzz libFuzzer owns the counters
const RUNTIME_CRATES: [&str; 3] = ["typefuzz", "typefuzz_core", "typefuzz_engine"];

/// Counters per block: one 64-byte block is read with vector loads and tested with one branch.
const BLOCK_BYTES: usize = 64;

/// A run of counters that is reset and scanned byte for byte: `len` bytes from `start`, the
/// first with feature index `base` (the ends of a range that do not fill a whole block).
#[derive(Clone, Copy, Debug)]
struct Span {
    start: *mut u8,
    len: usize,
    base: usize,
}

/// A 64-byte, 8-aligned block of a counter range holding at least one counter to scan, and
/// which of its bytes those are (`0xff` per scanned byte of each word, in memory order).
#[derive(Clone, Copy, Debug)]
struct Block {
    start: *mut u8,
    base: usize,
    mask: [u64; 8],
}

/// The counters reset and scanned around each property call, computed once.
struct Scanned {
    blocks: Vec<Block>,
    /// The ends of the ranges, outside whole blocks, scanned whole.
    edges: Vec<Span>,
    /// How many registered modules `blocks` and `edges` cover: a module registered later (a
    /// `dlopen`ed library) is reset and scanned whole.
    modules: usize,
    /// The feature index after the covered modules' counters.
    end: usize,
    /// How many counters of the covered modules are scanned.
    scanned: usize,
}

// SAFETY: the blocks and spans point into the counter ranges, static storage of the executable
// that this module only touches through raw pointers and atomics (see `reset`); sharing the
// addresses between threads is what the process-global counters are.
unsafe impl Send for Scanned {}
// SAFETY: as for `Send`; `Scanned` itself is never mutated after it is built.
unsafe impl Sync for Scanned {}

static SCANNED: OnceLock<Scanned> = OnceLock::new();

#[inline(always)]
fn scanned() -> &'static Scanned {
    SCANNED.get_or_init(attribute)
}

/// Calls `f(start, len, base)` for each run of counters scanned byte for byte (the ranges' ends,
/// and modules registered after the blocks were computed), in index order.
#[inline(always)]
fn for_each_edge(scanned: &Scanned, mut f: impl FnMut(*mut u8, usize, usize)) {
    for span in &scanned.edges {
        f(span.start, span.len, span.base);
    }
    let mut base = scanned.end;
    for (start, len) in modules().skip(scanned.modules) {
        f(start, len, base);
        base += len;
    }
}

/// How many edge counters [`reset`] clears and the scan reads around each property call.
///
/// All of them unless the executable says which function each counter belongs to (its PC
/// table, which `cargo typefuzz test` has LLVM emit, and its symbol table): then the counters
/// of typefuzz's own functions are left out. typefuzz's generic loop, its mutators and the
/// derived `Mutate` impls are compiled into the instrumented crate that uses them, and their
/// counters, most of the map in a small test crate, are never the property's coverage, only
/// a cost per test (each one the loop's glue hits around the property call is a hit to look
/// up). Code the property inlines from typefuzz (e.g. `assume!`'s helpers) is counted as the
/// property's, since it lives in the property's function.
///
/// ```
/// use typefuzz::feedback::coverage;
/// assert!(coverage::counters_scanned() <= coverage::counters_len());
/// ```
pub fn counters_scanned() -> usize {
    let scanned = scanned();
    let later: usize = modules().skip(scanned.modules).map(|(_, len)| len).sum();
    scanned.scanned + later
}

/// Decides which counters to reset and scan: those outside typefuzz's own functions, or every
/// counter when that cannot be told.
#[cold]
fn attribute() -> Scanned {
    let modules: Vec<(*mut u8, usize)> = modules().collect();
    let total = modules.iter().map(|&(_, len)| len).sum();
    let runtime = runtime_counters(total).unwrap_or_default();
    let (blocks, edges) = blocks(&modules, &runtime);
    let in_blocks: usize = blocks
        .iter()
        .flat_map(|block| block.mask)
        .map(|word| word.count_ones() as usize / 8)
        .sum();
    Scanned {
        scanned: in_blocks + edges.iter().map(|span| span.len).sum::<usize>(),
        blocks,
        edges,
        modules: modules.len(),
        end: total,
    }
}

/// The blocks of `modules` (`(start, len)`, indices counted across them in order) holding a
/// counter whose entry in `runtime` is not `true` (missing entries count as `false`), with
/// their masks, and the ends of each range outside whole blocks (bytes before the first 8-byte
/// boundary, and after the last whole block).
fn blocks(modules: &[(*mut u8, usize)], runtime: &[bool]) -> (Vec<Block>, Vec<Span>) {
    let scanned = |index: usize| !runtime.get(index).copied().unwrap_or(false);
    let (mut blocks, mut edges) = (Vec::new(), Vec::new());
    let mut base = 0;
    for &(start, len) in modules {
        let head = start.align_offset(8).min(len);
        let whole = (len - head) / BLOCK_BYTES;
        let tail = head + whole * BLOCK_BYTES;
        for (first, end) in [(0, head), (tail, len)] {
            if (first..end).any(|offset| scanned(base + offset)) {
                edges.push(Span {
                    // `wrapping_add`: only dereferenced by `reset` and the scan, and
                    // `first < len` keeps it inside the registered range.
                    start: start.wrapping_add(first),
                    len: end - first,
                    base: base + first,
                });
            }
        }
        for block in 0..whole {
            let first = head + block * BLOCK_BYTES;
            let mut mask = [0u64; 8];
            for (offset, byte) in (first..first + BLOCK_BYTES).enumerate() {
                if scanned(base + byte) {
                    // Byte `k` of a word in memory is bits `8k..8k + 8` of its little-endian
                    // reading (the scan converts with `from_le` after masking).
                    mask[offset / 8] |= u64::to_le(0xff << (offset % 8 * 8));
                }
            }
            if mask != [0; 8] {
                blocks.push(Block {
                    start: start.wrapping_add(first),
                    base: base + first,
                    mask,
                });
            }
        }
        base += len;
    }
    (blocks, edges)
}

/// For each of the `total` counters, in index order, whether it belongs to a function of
/// typefuzz's runtime; `None` when the PC tables do not cover every counter or the executable's
/// symbols cannot be read (a stripped binary, a build without the PC table).
#[cfg(not(fuzzing))]
fn runtime_counters(total: usize) -> Option<Vec<bool>> {
    use object::{Object, ObjectSymbol, SymbolKind};

    let count = PC_TABLE_COUNT.load(Ordering::Acquire);
    let tables: Vec<&[usize]> = PC_TABLES[..count]
        .iter()
        .map(|table| {
            let (start, len) = (
                table.start.load(Ordering::Relaxed),
                table.len.load(Ordering::Relaxed),
            );
            // SAFETY: a PC table the instrumentation registered: static, read-only after
            // relocation, `len` bytes of `usize` pairs, aligned as `usize`.
            unsafe { std::slice::from_raw_parts(start.cast::<usize>(), len / size_of::<usize>()) }
        })
        .collect();
    let entries: usize = tables.iter().map(|table| table.len() / 2).sum();
    if total == 0 || entries != total {
        return None;
    }
    let file = std::fs::File::open("/proc/self/exe")
        .or_else(|_| std::fs::File::open(std::env::current_exe()?))
        .ok()?;
    let cache = object::ReadCache::new(file);
    let executable = object::File::parse(&cache).ok()?;
    let mut functions: Vec<(u64, &str)> = executable
        .symbols()
        .filter(|symbol| symbol.kind() == SymbolKind::Text && symbol.address() != 0)
        .filter_map(|symbol| Some((symbol.address(), symbol.name().ok()?)))
        .collect();
    functions.sort_unstable_by_key(|&(address, _)| address);
    // Where the executable was loaded: a function's address now against its symbol's. The
    // symbol's own address, not the Rust function's: on Linux the symbol is a trampoline that
    // lies elsewhere (with the function's address every counter was attributed to whatever
    // code lay a few kilobytes before its own).
    let anchor = hooks::counters_init_symbol() as u64;
    let linked = functions
        .iter()
        .find(|&&(_, name)| name == "__sanitizer_cov_8bit_counters_init")?
        .0;
    let bias = anchor.wrapping_sub(linked);
    let function = |address: u64| {
        let after = functions.partition_point(|&(start, _)| start <= address);
        (after > 0).then(|| format!("{:#}", rustc_demangle::demangle(functions[after - 1].1)))
    };
    // Checked on a second function, this one: a wrong bias would attribute each counter to
    // unrelated code, and scanning every counter is the safe answer.
    let this = runtime_counters as fn(usize) -> Option<Vec<bool>> as usize as u64;
    if !function(this.wrapping_sub(bias))?.ends_with("feedback::coverage::runtime_counters") {
        return None;
    }
    let mut runtime = Vec::with_capacity(total);
    let mut current = false;
    for table in tables {
        for entry in table.chunks_exact(2) {
            // Bit 0 of the flags: the entry block of a function, whose address is the function's.
            if entry[1] & 1 != 0 {
                current = function((entry[0] as u64).wrapping_sub(bias))
                    .is_some_and(|name| is_runtime_function(&name));
            }
            runtime.push(current);
        }
    }
    Some(runtime)
}

/// Under cargo-fuzz libFuzzer owns the counters; nothing is attributed here.
#[cfg(fuzzing)]
fn runtime_counters(_total: usize) -> Option<Vec<bool>> {
    None
}

/// The engine module that calls the property: the never-inlined `call_property`, where the
/// property's closure is inlined, and the glue around it. Any function naming it (its own
/// functions, std shims instantiated for its closures) may hold the property's code, so it is
/// the property's coverage although its name is typefuzz's.
#[cfg_attr(fuzzing, allow(dead_code))] // under cargo-fuzz libFuzzer owns the counters
const PROPERTY_HOST: &str = "typefuzz_engine::executor::";

/// Whether the demangled function `name` is typefuzz's own code: any path in its name starts in
/// one of typefuzz's crates — its own path, its impl's self type or trait
/// (`<T as typefuzz::Mutate>::mutate`, which is how derived impls are named), or, with v0
/// symbol names (which `cargo typefuzz test` asks rustc for), a generic argument
/// (`HashMap<u64, typefuzz_engine::corpus::Entry>::insert`: a std or dependency function
/// instantiated for typefuzz's loop). A name mentioning [`PROPERTY_HOST`] is the exception.
#[cfg_attr(fuzzing, allow(dead_code))] // under cargo-fuzz libFuzzer owns the counters
fn is_runtime_function(name: &str) -> bool {
    if name.contains(PROPERTY_HOST) {
        return false;
    }
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    name.match_indices("::").any(|(at, _)| {
        let before = &name[..at];
        let root = before.rfind(|c: char| !is_ident(c)).map_or(0, |i| i + 1);
        // A path's first segment: not itself preceded by `::`.
        RUNTIME_CRATES.contains(&&before[root..]) && !before[..root].ends_with("::")
    })
}

/// Zeroes every counter (a `memset` per registered range; this thread's value-profile map only
/// if it was touched) and arms the comparison hooks on this thread. The engine calls it right
/// before running the property.
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
    // The code between two properties (the generator, the mutator, user code they call) may
    // bump any scanned counter, so all of them are cleared: reading them to find the dirty
    // words would cost as much as these stores. Blocks without a scanned counter (typefuzz's
    // own functions, see `counters_scanned`) are neither cleared nor read.
    let scanned = scanned();
    for block in &scanned.blocks {
        // SAFETY: the block lies in a counter range the instrumentation registered in
        // `__sanitizer_cov_8bit_counters_init`: static storage of the executable, valid for
        // writes for the whole life of the process. We only touch it through raw pointers,
        // never through references, so no exclusivity is claimed. Instrumented code on other
        // threads may increment counters concurrently; like libFuzzer we accept that race on
        // plain bytes (the worst outcome is a lost or spurious hit, i.e. coverage noise). A
        // constant-size write: a few vector stores, no call.
        unsafe { ptr::write_bytes(block.start, 0, BLOCK_BYTES) };
    }
    for_each_edge(scanned, |start, len, _| {
        // In pieces of at most 2 KiB: above that glibc's `memset` switches to `rep stosb`, which
        // measured 1.8x slower here on a 2.9 KiB map (190 ns against 330 ns).
        const PIECE: usize = 2048;
        for offset in (0..len).step_by(PIECE) {
            // SAFETY: as for the blocks; `offset + PIECE.min(..) <= len`.
            unsafe { ptr::write_bytes(start.add(offset), 0, PIECE.min(len - offset)) };
        }
    });
    THREAD_RUN.with(|run| {
        if run.dirty.replace(false) {
            for word in &run.value_profile {
                word.set(0);
            }
        }
        run.running.set(true);
    });
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
    THREAD_RUN.with(|run| run.running.set(false));
    let scanned = scanned();
    for block in &scanned.blocks {
        // SAFETY: the block lies in a counter range, valid for reads and writes for the life of
        // the process (see `reset`), 8-aligned, 64 bytes.
        unsafe { drain_block(block, &mut f) };
    }
    for_each_edge(scanned, |start, len, base| {
        // SAFETY: the span lies in a counter range, valid for reads and writes for the life of
        // the process (see `reset`). Accesses go through atomic views so that concurrent writes
        // by instrumented code on other threads are not undefined behaviour on our side; the
        // instrumentation's own plain increments are outside Rust's model either way, exactly
        // as in libFuzzer.
        unsafe { drain(start, len, base, &mut f) };
    });
    let base = COUNTERS_LEN.load(Ordering::Acquire);
    // The words are zeroed as they are reported, so the map is left clean and `reset` skips it.
    THREAD_RUN.with(|run| {
        if run.dirty.replace(false) {
            for (index, word) in run.value_profile.iter().enumerate() {
                let mut bits = word.replace(0);
                while bits != 0 {
                    // A value-profile feature is seen or not: always the first bucket.
                    f(base + index * 64 + bits.trailing_zeros() as usize, 1);
                    bits &= bits - 1;
                }
            }
        }
    });
}

/// Reports the scanned non-zero counters of `block` as `f(index, bucket)`, in order, and zeroes
/// the words holding them.
///
/// # Safety
/// The block's 64 bytes must be valid for reads and writes for the duration of the call,
/// 8-aligned, and only be accessed through raw pointers or atomics.
#[inline(always)]
unsafe fn drain_block(block: &Block, f: &mut impl FnMut(usize, u8)) {
    // SAFETY: the caller's contract. A plain read, which the compiler turns into a few vector
    // loads: it races with increments on other threads exactly like `reset`'s stores, and only
    // decides whether to look closer, with atomic loads.
    let values: [u64; 8] = unsafe { ptr::read(block.start.cast::<[u64; 8]>()) };
    let any = values
        .iter()
        .zip(&block.mask)
        .fold(0, |any, (value, mask)| any | value & mask);
    if any == 0 {
        return;
    }
    for k in 0..8 {
        // SAFETY: word `k` of the block, 8-aligned, inside it.
        let word = unsafe { AtomicU64::from_ptr(block.start.add(k * 8).cast::<u64>()) };
        let value = word.load(Ordering::Relaxed) & block.mask[k];
        if value != 0 {
            // The whole word: its other counters are typefuzz's, never read.
            word.store(0, Ordering::Relaxed);
            report_word(value, block.base + k * 8, f);
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

/// Records how close `value` is to `constant` (both of `bits` width) at the comparison site
/// identified by `site`: as the number of differing bits and as the bit length of the numeric
/// difference. Each distance is its own feature, so every step closer is new coverage — until
/// some value of the run equals the constant: from then on the site records nothing. The
/// distances exist to lead the search to a value it would not hit by chance; once one was hit
/// (and kept, with the coverage the match opened), more distances to the same constant only keep
/// seeds that differ in how far some integer is from a bound, a length or a tag it already
/// matched elsewhere, and those seeds dilute the queue (IFC's stack machine: 35 of 60 trials found
/// with every distance, 44 with this rule, 48 with no distances at all, at 400,000 tests each;
/// `bench/RESULTS.md`).
// Only the hooks call it, and under cargo-fuzz (`cfg(fuzzing)`) libFuzzer owns the hooks.
#[cfg_attr(fuzzing, allow(dead_code))]
#[inline]
fn value_profile_compare(site: u64, constant: u64, value: u64) {
    // One thread-local access for the whole hook: it runs on every traced comparison.
    THREAD_RUN.with(|run| {
        if !run.running.get() {
            return;
        }
        // The matching call still records its own (zero) distance below: that is the run that
        // reached the constant.
        let slot = (site.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MATCHED_BITS)) as usize;
        let word = &run.matched[slot / 64];
        let bit = 1u64 << (slot % 64);
        if word.get() & bit != 0 {
            return;
        }
        if value == constant {
            word.set(word.get() | bit);
        }
        let differing_bits = (constant ^ value).count_ones();
        let distance_bits = 64 - constant.abs_diff(value).leading_zeros();
        run.mark_value_profile(site, 1, differing_bits);
        run.mark_value_profile(site, 2, distance_bits);
    });
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
    //!
    //! On x86-64 and AArch64 Linux the symbols are **weak**: each is a one-instruction
    //! trampoline (written with `global_asm!`, since weak linkage is not in stable Rust) that
    //! jumps to the Rust function of the same name below. A binary that links both the engine
    //! and libFuzzer's own hooks (libFuzzer's `FuzzerTracePC.o`, linked by `libfuzzer-sys` when
    //! a crate is built without `--cfg fuzzing`, e.g. the tests of a fuzz crate in a release
    //! build) then takes libFuzzer's definitions instead of failing to link with duplicate
    //! symbols; libFuzzer owns the hooks there, as under cargo-fuzz. Elsewhere the functions
    //! keep `#[no_mangle]` (strong symbols, as before).

    use super::{armed, constant_site, register, register_pc_table, value_profile_compare};
    use crate::feedback::cmplog::record_integers;

    /// Logs a comparison's operands for input-to-state mutation
    /// ([`cmplog`](crate::feedback::cmplog)), only while this thread runs a property: otherwise
    /// the cost is one thread-local load.
    #[inline]
    fn log_operands(a: u64, b: u64, width: u8) {
        if armed() {
            record_integers(a, b, width);
        }
    }

    /// The run-time address of the symbol `__sanitizer_cov_8bit_counters_init`, whichever
    /// definition the linker kept: the attribution compares it with the address the executable's
    /// symbol table gives that name, to find where the executable was loaded.
    pub(super) fn counters_init_symbol() -> usize {
        #[cfg(all(
            target_os = "linux",
            any(target_arch = "x86_64", target_arch = "aarch64")
        ))]
        {
            extern "C" {
                // The weak trampoline below (or a strong definition that replaced it).
                #[link_name = "__sanitizer_cov_8bit_counters_init"]
                fn symbol(start: *mut u8, stop: *mut u8);
            }
            symbol as *const () as usize
        }
        #[cfg(not(all(
            target_os = "linux",
            any(target_arch = "x86_64", target_arch = "aarch64")
        )))]
        {
            __sanitizer_cov_8bit_counters_init as *const () as usize
        }
    }

    /// Defines each hook as a `#[no_mangle]` (strong) symbol, except where the weak trampolines
    /// at the end of this module stand for them: there the functions keep their Rust (mangled)
    /// names and the trampolines jump to them.
    macro_rules! hooks {
        ($($hook:item)*) => {
            $(
                #[cfg_attr(
                    not(all(
                        target_os = "linux",
                        any(target_arch = "x86_64", target_arch = "aarch64")
                    )),
                    no_mangle
                )]
                $hook
            )*
        };
    }

    hooks! {
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
        pub unsafe extern "C" fn __sanitizer_cov_8bit_counters_init(start: *mut u8, stop: *mut u8) {
            if start.is_null() || stop <= start {
                return;
            }
            // SAFETY: both pointers delimit the same array (LLVM's `__start_`/`__stop_` section
            // symbols), and `stop > start` was checked above.
            let len = unsafe { stop.offset_from(start) } as usize;
            register(start, len);
        }

        /// Registers the PC table of the executable (`-sanitizer-coverage-pc-table`): one
        /// `(address, flags)` pair per counter, which tells which function each counter belongs to
        /// (see [`counters_scanned`](super::counters_scanned)). Called like the counters' init.
        ///
        /// # Safety
        /// `start..stop` must be the PC table: `usize` pairs, valid for reads for the life of the
        /// process.
        pub unsafe extern "C" fn __sanitizer_cov_pcs_init(start: *const usize, stop: *const usize) {
            if start.is_null() || stop <= start {
                return;
            }
            // SAFETY: both pointers delimit the same array (LLVM's section symbols).
            let len = unsafe { stop.offset_from(start) } as usize * size_of::<usize>();
            register_pc_table(start.cast_mut().cast::<u8>(), len);
        }

        /// Comparison of two 1-byte variables: logged for input-to-state mutation (no constant to
        /// measure a distance to).
        pub extern "C" fn __sanitizer_cov_trace_cmp1(a: u8, b: u8) {
            log_operands(u64::from(a), u64::from(b), 1);
        }
        /// Comparison of two 2-byte variables: logged for input-to-state mutation.
        pub extern "C" fn __sanitizer_cov_trace_cmp2(a: u16, b: u16) {
            log_operands(u64::from(a), u64::from(b), 2);
        }
        /// Comparison of two 4-byte variables: logged for input-to-state mutation.
        pub extern "C" fn __sanitizer_cov_trace_cmp4(a: u32, b: u32) {
            log_operands(u64::from(a), u64::from(b), 4);
        }
        /// Comparison of two 8-byte variables: logged for input-to-state mutation.
        pub extern "C" fn __sanitizer_cov_trace_cmp8(a: u64, b: u64) {
            log_operands(a, b, 8);
        }

        /// Comparison of a 1-byte value against the constant `constant`.
        pub extern "C" fn __sanitizer_cov_trace_const_cmp1(constant: u8, value: u8) {
            let c = u64::from(constant);
            value_profile_compare(constant_site(c, 8), c, u64::from(value));
            log_operands(u64::from(value), c, 1);
        }
        /// Comparison of a 2-byte value against the constant `constant`.
        pub extern "C" fn __sanitizer_cov_trace_const_cmp2(constant: u16, value: u16) {
            let c = u64::from(constant);
            value_profile_compare(constant_site(c, 16), c, u64::from(value));
            log_operands(u64::from(value), c, 2);
        }
        /// Comparison of a 4-byte value against the constant `constant`.
        pub extern "C" fn __sanitizer_cov_trace_const_cmp4(constant: u32, value: u32) {
            let c = u64::from(constant);
            value_profile_compare(constant_site(c, 32), c, u64::from(value));
            log_operands(u64::from(value), c, 4);
        }
        /// Comparison of an 8-byte value against the constant `constant`.
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
        pub extern "C" fn __sanitizer_cov_trace_div4(_value: u32) {}
        /// Division by an 8-byte variable (`-sanitizer-coverage-trace-divs`): not used.
        pub extern "C" fn __sanitizer_cov_trace_div8(_value: u64) {}
        /// Array index computation (`-sanitizer-coverage-trace-geps`): not used.
        pub extern "C" fn __sanitizer_cov_trace_gep(_index: usize) {}
    }

    /// The instruction a trampoline jumps to its Rust function with (arguments stay in their
    /// registers: both sides use the C calling convention).
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    macro_rules! jump {
        () => {
            "jmp"
        };
    }
    #[cfg(all(target_os = "linux", target_arch = "aarch64"))]
    macro_rules! jump {
        () => {
            "b"
        };
    }

    // The weak symbols, one trampoline each (see the module documentation).
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    core::arch::global_asm!(
        ".pushsection .text.typefuzz_sancov_hooks,\"ax\",@progbits",
        ".p2align 4",
        ".weak __sanitizer_cov_8bit_counters_init",
        ".type __sanitizer_cov_8bit_counters_init,@function",
        "__sanitizer_cov_8bit_counters_init:",
        concat!(jump!(), " {__sanitizer_cov_8bit_counters_init}"),
        ".weak __sanitizer_cov_pcs_init",
        ".type __sanitizer_cov_pcs_init,@function",
        "__sanitizer_cov_pcs_init:",
        concat!(jump!(), " {__sanitizer_cov_pcs_init}"),
        ".weak __sanitizer_cov_trace_cmp1",
        ".type __sanitizer_cov_trace_cmp1,@function",
        "__sanitizer_cov_trace_cmp1:",
        concat!(jump!(), " {__sanitizer_cov_trace_cmp1}"),
        ".weak __sanitizer_cov_trace_cmp2",
        ".type __sanitizer_cov_trace_cmp2,@function",
        "__sanitizer_cov_trace_cmp2:",
        concat!(jump!(), " {__sanitizer_cov_trace_cmp2}"),
        ".weak __sanitizer_cov_trace_cmp4",
        ".type __sanitizer_cov_trace_cmp4,@function",
        "__sanitizer_cov_trace_cmp4:",
        concat!(jump!(), " {__sanitizer_cov_trace_cmp4}"),
        ".weak __sanitizer_cov_trace_cmp8",
        ".type __sanitizer_cov_trace_cmp8,@function",
        "__sanitizer_cov_trace_cmp8:",
        concat!(jump!(), " {__sanitizer_cov_trace_cmp8}"),
        ".weak __sanitizer_cov_trace_const_cmp1",
        ".type __sanitizer_cov_trace_const_cmp1,@function",
        "__sanitizer_cov_trace_const_cmp1:",
        concat!(jump!(), " {__sanitizer_cov_trace_const_cmp1}"),
        ".weak __sanitizer_cov_trace_const_cmp2",
        ".type __sanitizer_cov_trace_const_cmp2,@function",
        "__sanitizer_cov_trace_const_cmp2:",
        concat!(jump!(), " {__sanitizer_cov_trace_const_cmp2}"),
        ".weak __sanitizer_cov_trace_const_cmp4",
        ".type __sanitizer_cov_trace_const_cmp4,@function",
        "__sanitizer_cov_trace_const_cmp4:",
        concat!(jump!(), " {__sanitizer_cov_trace_const_cmp4}"),
        ".weak __sanitizer_cov_trace_const_cmp8",
        ".type __sanitizer_cov_trace_const_cmp8,@function",
        "__sanitizer_cov_trace_const_cmp8:",
        concat!(jump!(), " {__sanitizer_cov_trace_const_cmp8}"),
        ".weak __sanitizer_cov_trace_switch",
        ".type __sanitizer_cov_trace_switch,@function",
        "__sanitizer_cov_trace_switch:",
        concat!(jump!(), " {__sanitizer_cov_trace_switch}"),
        ".weak __sanitizer_cov_trace_div4",
        ".type __sanitizer_cov_trace_div4,@function",
        "__sanitizer_cov_trace_div4:",
        concat!(jump!(), " {__sanitizer_cov_trace_div4}"),
        ".weak __sanitizer_cov_trace_div8",
        ".type __sanitizer_cov_trace_div8,@function",
        "__sanitizer_cov_trace_div8:",
        concat!(jump!(), " {__sanitizer_cov_trace_div8}"),
        ".weak __sanitizer_cov_trace_gep",
        ".type __sanitizer_cov_trace_gep,@function",
        "__sanitizer_cov_trace_gep:",
        concat!(jump!(), " {__sanitizer_cov_trace_gep}"),
        ".popsection",
        __sanitizer_cov_8bit_counters_init = sym __sanitizer_cov_8bit_counters_init,
        __sanitizer_cov_pcs_init = sym __sanitizer_cov_pcs_init,
        __sanitizer_cov_trace_cmp1 = sym __sanitizer_cov_trace_cmp1,
        __sanitizer_cov_trace_cmp2 = sym __sanitizer_cov_trace_cmp2,
        __sanitizer_cov_trace_cmp4 = sym __sanitizer_cov_trace_cmp4,
        __sanitizer_cov_trace_cmp8 = sym __sanitizer_cov_trace_cmp8,
        __sanitizer_cov_trace_const_cmp1 = sym __sanitizer_cov_trace_const_cmp1,
        __sanitizer_cov_trace_const_cmp2 = sym __sanitizer_cov_trace_const_cmp2,
        __sanitizer_cov_trace_const_cmp4 = sym __sanitizer_cov_trace_const_cmp4,
        __sanitizer_cov_trace_const_cmp8 = sym __sanitizer_cov_trace_const_cmp8,
        __sanitizer_cov_trace_switch = sym __sanitizer_cov_trace_switch,
        __sanitizer_cov_trace_div4 = sym __sanitizer_cov_trace_div4,
        __sanitizer_cov_trace_div8 = sym __sanitizer_cov_trace_div8,
        __sanitizer_cov_trace_gep = sym __sanitizer_cov_trace_gep,
    );
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
