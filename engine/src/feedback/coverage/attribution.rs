//! Attribution: which counters are reset and scanned around a property call — the engine's own
//! code (compiled into the user's crate) is left out, by the functions the executable's symbol
//! table names — and the scan that turns the counters into features.

use super::*;

/// The crates whose functions' counters are left out: the type model and the engine (their
/// generic mutators, derived `Mutate` impls and loop are compiled into the user's crate and
/// instrumented there; none of it is the property's coverage) and the facade. Not the drop-in adapters: their glue calls the
/// user's property (a quickcheck `Property::call`, a proptest test-body closure), so the
/// property's code may be inlined into one of their functions.
#[cfg_attr(fuzzing, allow(dead_code))] // under cargo-fuzz libFuzzer owns the counters
pub(super) const RUNTIME_CRATES: [&str; 3] = ["typefuzz", "typefuzz_core", "typefuzz_engine"];

/// Counters per block: one 64-byte block is read with vector loads and tested with one branch.
pub(super) const BLOCK_BYTES: usize = 64;

/// A run of counters that is reset and scanned byte for byte: `len` bytes from `start`, the
/// first with feature index `base` (the ends of a range that do not fill a whole block).
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    pub(super) start: *mut u8,
    pub(super) len: usize,
    pub(super) base: usize,
}

/// A 64-byte, 8-aligned block of a counter range holding at least one counter to scan, and
/// which of its bytes those are (`0xff` per scanned byte of each word, in memory order).
#[derive(Clone, Copy, Debug)]
pub(super) struct Block {
    pub(super) start: *mut u8,
    pub(super) base: usize,
    pub(super) mask: [u64; 8],
}

/// The counters reset and scanned around each property call, computed once.
pub(super) struct Scanned {
    pub(super) blocks: Vec<Block>,
    /// The ends of the ranges, outside whole blocks, scanned whole.
    pub(super) edges: Vec<Span>,
    /// How many registered modules `blocks` and `edges` cover: a module registered later (a
    /// `dlopen`ed library) is reset and scanned whole.
    pub(super) modules: usize,
    /// The feature index after the covered modules' counters.
    pub(super) end: usize,
    /// How many counters of the covered modules are scanned.
    pub(super) scanned: usize,
}

// SAFETY: the blocks and spans point into the counter ranges, static storage of the executable
// that this module only touches through raw pointers and atomics (see `reset`); sharing the
// addresses between threads is what the process-global counters are.
unsafe impl Send for Scanned {}
// SAFETY: as for `Send`; `Scanned` itself is never mutated after it is built.
unsafe impl Sync for Scanned {}

pub(super) static SCANNED: OnceLock<Scanned> = OnceLock::new();

#[inline(always)]
pub(super) fn scanned() -> &'static Scanned {
    SCANNED.get_or_init(attribute)
}

/// Calls `f(start, len, base)` for each run of counters scanned byte for byte (the ranges' ends,
/// and modules registered after the blocks were computed), in index order.
#[inline(always)]
pub(super) fn for_each_edge(scanned: &Scanned, mut f: impl FnMut(*mut u8, usize, usize)) {
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
pub(super) fn attribute() -> Scanned {
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
pub(super) fn blocks(modules: &[(*mut u8, usize)], runtime: &[bool]) -> (Vec<Block>, Vec<Span>) {
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
pub(super) fn runtime_counters(total: usize) -> Option<Vec<bool>> {
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
    if !function(this.wrapping_sub(bias))?.ends_with(concat!(module_path!(), "::runtime_counters"))
    {
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
pub(super) fn runtime_counters(_total: usize) -> Option<Vec<bool>> {
    None
}

/// The engine module that calls the property: the never-inlined `call_property`, where the
/// property's closure is inlined, and the glue around it. Any function naming it (its own
/// functions, std shims instantiated for its closures) may hold the property's code, so it is
/// the property's coverage although its name is typefuzz's.
#[cfg_attr(fuzzing, allow(dead_code))] // under cargo-fuzz libFuzzer owns the counters
pub(super) const PROPERTY_HOST: &str = "typefuzz_engine::executor::";

/// Whether the demangled function `name` is typefuzz's own code: any path in its name starts in
/// one of typefuzz's crates — its own path, its impl's self type or trait
/// (`<T as typefuzz::Mutate>::mutate`, which is how derived impls are named), or, with v0
/// symbol names (which `cargo typefuzz test` asks rustc for), a generic argument
/// (`HashMap<u64, typefuzz_engine::corpus::Entry>::insert`: a std or dependency function
/// instantiated for typefuzz's loop). A name mentioning [`PROPERTY_HOST`] is the exception.
#[cfg_attr(fuzzing, allow(dead_code))] // under cargo-fuzz libFuzzer owns the counters
pub(super) fn is_runtime_function(name: &str) -> bool {
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
    pub(super) static HIT_BUFFER: std::cell::Cell<Vec<(usize, u8)>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Scans the counters and the value-profile map into the thread's hit buffer.
///
/// `inline(never)`: rustc may inline small functions into other crates, where the copy would be
/// instrumented. The same holds for `reset` and `recycle_hits`.
#[inline(never)]
pub(super) fn collect_hits() -> Vec<(usize, u8)> {
    let mut hits = HIT_BUFFER.take();
    hits.clear();
    drain_hits(|index, bucket| hits.push((index, bucket)));
    hits
}

/// Gives the buffer back for the next `for_each_hit` on this thread.
#[inline(never)]
pub(super) fn recycle_hits(hits: Vec<(usize, u8)>) {
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
pub(super) unsafe fn drain_block(block: &Block, f: &mut impl FnMut(usize, u8)) {
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
pub(super) unsafe fn drain(start: *mut u8, len: usize, base: usize, f: &mut impl FnMut(usize, u8)) {
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
pub(super) fn report_word(value: u64, first: usize, f: &mut impl FnMut(usize, u8)) {
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
    pub(super) static WARNED: Once = Once::new();
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
