//! Typed CmpLog under cargo-fuzz: the operands of the comparisons an execution made, fed back
//! into the typed leaves of the input that made them ([`typefuzz_engine::feedback::cmplog`]).
//!
//! libFuzzer defines the SanitizerCoverage comparison hooks (`__sanitizer_cov_trace_cmp*`,
//! `const_cmp*`, `switch`) and keeps their operands to itself, so this crate cannot define them.
//! It *wraps* them instead: linked with `-Wl,--wrap=<hook>` for each hook in [`WRAPPED_HOOKS`]
//! (GNU ld and lld on Linux), every call the instrumented code makes to a hook reaches this
//! module's `__wrap_<hook>`, which writes the operands to a fixed table and jumps on to
//! libFuzzer's hook (`__real_<hook>`), so libFuzzer's value profile and its comparison tables
//! see every comparison as before. The jump is a tail call (a `jmp`, checked by `fuzz/ci.sh`
//! on the built target): libFuzzer's hook reads the comparison's site from its return address,
//! which is then still the instrumented code's, so `-use_value_profile=1` keeps one feature set
//! per comparison site instead of one for all of them.
//!
//! On x86-64 Linux the wrappers are written in assembly (`global_asm!`), so they are not
//! instrumented: a Rust wrapper is (cargo-fuzz instruments every crate) and cost about fifteen
//! instructions per comparison even while typefuzz's mutator runs and the wrapper only returns
//! (its own coverage counters, the stack-depth check, the mode read twice through the GOT);
//! typefuzz's own encoding of each mutant makes several comparisons per element, and the Rust
//! wrappers were a fifth to a quarter of a typed target's time. Elsewhere they are Rust, and make no comparison of their
//! own: a comparison would call the hook, i.e. the wrapper again. Both store into the table at a
//! slot computed by masks and shifts only.
//!
//! What reaches the mutator: [`fuzz_target!`](crate::fuzz_target) empties the table right before
//! the property runs and notes how far it got when the body returns, before the closure drops
//! the input (whose capacity checks would otherwise be the most recent comparisons). Words
//! compared with zero are left out too: null and capacity checks of values the body itself
//! drops, and zero is a value mutation reaches anyway. The mutator then substitutes, as the engine's
//! [`cmplog`](typefuzz_engine::feedback::cmplog) does, the other operand of a logged comparison
//! into a leaf holding one operand (an enum's variant, an integer field, a vector's length):
//! - libFuzzer starts each chain of `-mutate_depth` mutations from a corpus input. The first
//!   time the mutator sees one, it runs the property on it once more to log its comparisons
//!   (as AFL++ runs a CmpLog binary on each new queue entry) and keeps its candidates, most
//!   recent comparison first (the one the input stopped at); each later chain from that input
//!   starts with its next untried candidate (Redqueen's deterministic stage), and once all were
//!   tried, with a random one in 1 chain of 16. These extra runs are not in libFuzzer's
//!   execution count: the panic hook prints how many there were (`typefuzz: CmpLog seed runs`).
//! - Within a chain, libFuzzer mutates the input it just ran, whose comparisons are in the
//!   table: one typed mutation in [`CMPLOG_ONE_IN`] substitutes from them.
//! - An input libFuzzer just added to its corpus (seen as a chain that ended before
//!   `-mutate_depth` executions) is kept, with its candidates, in a small queue of fresh
//!   inputs; one mutation call in 4 serves the newest one's next candidate, whatever input
//!   libFuzzer passed, so that each stage of a nested condition is tried as soon as it is
//!   reached rather than when libFuzzer picks that input again (`fresh.rs`).
//!
//! To turn it on for a fuzz crate, give the crate a `build.rs` that, under cargo-fuzz
//! (`--cfg fuzzing`) on Linux, sets `--cfg typefuzz_cmplog`, under which `fuzz_target!` defines
//! the wrappers, and passes the link arguments to each binary that calls `fuzz_target!` (and
//! only those: a binary with the link arguments but no wrappers, or wrappers without the link
//! arguments, does not link):
//!
//! ```no_run
//! // fuzz/build.rs, for targets `tree` and `parser` (files fuzz_targets/tree.rs, parser.rs)
//! fn main() {
//!     println!("cargo:rustc-check-cfg=cfg(typefuzz_cmplog)");
//!     let fuzzing = std::env::var_os("CARGO_CFG_FUZZING").is_some();
//!     if !fuzzing || std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
//!         return;
//!     }
//!     println!("cargo:rustc-cfg=typefuzz_cmplog");
//!     // The names in `typefuzz_libfuzzer::WRAPPED_HOOKS`, written out: a build script that
//!     // depended on the crate would compile it, and libFuzzer, a second time for the host.
//!     let mut hooks = vec!["__sanitizer_cov_trace_switch".to_string()];
//!     for kind in ["cmp", "const_cmp"] {
//!         for width in [1, 2, 4, 8] {
//!             hooks.push(format!("__sanitizer_cov_trace_{kind}{width}"));
//!         }
//!     }
//!     for target in ["tree", "parser"] {
//!         for hook in &hooks {
//!             println!("cargo:rustc-link-arg-bin={target}=-Wl,--wrap={hook}");
//!         }
//!     }
//! }
//! ```
//!
//! The repository's `fuzz/build.rs` finds the typed targets itself (the files under
//! `fuzz_targets/` that call `typefuzz::fuzz_target!`).
//!
//! The target prints `typefuzz: CmpLog on` at start when the wrapping took effect (and
//! `CmpLog off` with the reason otherwise); `TYPEFUZZ_CMPLOG=0` switches the substitutions off
//! in the same binary (the comparisons are still logged and passed on), for comparisons.

// The build script example's `main` is the point of the example.
#![allow(clippy::needless_doctest_main)]

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher};
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};
use std::sync::OnceLock;

use typefuzz_engine::feedback::cmplog::{apply, candidates, Candidate, Log};
use typefuzz_engine::{Context, Mutate};

/// The comparison hooks `__wrap_<hook>` is defined for: link with `-Wl,--wrap=<hook>` for each.
///
/// ```
/// assert!(typefuzz_libfuzzer::WRAPPED_HOOKS.contains(&"__sanitizer_cov_trace_const_cmp1"));
/// assert_eq!(typefuzz_libfuzzer::WRAPPED_HOOKS.len(), 9);
/// ```
pub const WRAPPED_HOOKS: &[&str] = &[
    "__sanitizer_cov_trace_cmp1",
    "__sanitizer_cov_trace_cmp2",
    "__sanitizer_cov_trace_cmp4",
    "__sanitizer_cov_trace_cmp8",
    "__sanitizer_cov_trace_const_cmp1",
    "__sanitizer_cov_trace_const_cmp2",
    "__sanitizer_cov_trace_const_cmp4",
    "__sanitizer_cov_trace_const_cmp8",
    "__sanitizer_cov_trace_switch",
];

/// One typed mutation in this many of an input whose comparisons are known substitutes a
/// logged operand (when the input's leaves hold one); the others mutate as usual.
///
/// Each such substitution computes the candidates of the whole input, in instrumented code: at
/// 1 in 8 that was a tenth of `enum_vector`'s time. Since the inputs libFuzzer adds get their
/// candidates served from the fresh-input queue, 1 in 32 finds its bug as fast (medians of
/// 3.7k executions either way, seeds 1-5 in both orders) at about a fifth more executions per
/// CPU second.
///
/// ```
/// assert_eq!(typefuzz_libfuzzer::CMPLOG_ONE_IN, 32);
/// ```
pub const CMPLOG_ONE_IN: u32 = 32;

/// How many of the latest comparisons a substitution within a chain draws from: finding the
/// leaves that match a comparison costs a pass over the input per comparison, in instrumented
/// code, once per mutation.
const CHAIN_PAIRS: usize = 8;
/// log2 of the table's slots.
#[doc(hidden)]
pub const SLOTS_LOG2: u32 = 9;
/// Slots of the table: comparisons past the last slot overwrite it.
#[doc(hidden)]
pub const SLOTS: usize = 1 << SLOTS_LOG2;
// The assembly wrappers of `__wrap_comparison_hooks!` write these two numbers out.
const _: () = assert!(SLOTS_LOG2 == 9 && SLOTS - 1 == 511);
/// The width marking a `switch` entry: `right` is then the address of the hook's case table.
const SWITCH: u8 = 0;
/// How many cases of one `switch` are logged at most.
const MAX_SWITCH_CASES: u64 = 64;
/// The table's length while the property runs (no snapshot taken yet).
const RUNNING: usize = usize::MAX;

/// The comparison table, one entry per slot in three arrays. Global rather than per thread: a
/// wrapper must not compare, and a lazily initialized thread-local checks its state. Relaxed
/// atomics: a property's own threads may race on a slot, which only garbles that entry.
/// Public for the assembly wrappers only (see [`__wrap_comparison_hooks`](crate::__wrap_comparison_hooks)).
#[doc(hidden)]
pub static LEFT: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];
#[doc(hidden)]
pub static RIGHT: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];
#[doc(hidden)]
pub static WIDTH: [AtomicU8; SLOTS] = [const { AtomicU8::new(0) }; SLOTS];
/// The next slot to write, at most `SLOTS - 1`.
#[doc(hidden)]
pub static NEXT: AtomicUsize = AtomicUsize::new(0);
/// How many slots the last property call filled, or [`RUNNING`].
static LOGGED: AtomicUsize = AtomicUsize::new(0);

/// Writes one comparison into the next slot. Compare-free (see the module docs): the slot is
/// masked and the next index saturates at the last slot by arithmetic.
#[doc(hidden)]
#[inline(always)]
pub fn record(left: u64, right: u64, width: u8) {
    let slot = NEXT.load(Relaxed) & (SLOTS - 1);
    LEFT[slot].store(left, Relaxed);
    RIGHT[slot].store(right, Relaxed);
    WIDTH[slot].store(width, Relaxed);
    let next = slot + 1;
    NEXT.store(next - (next >> SLOTS_LOG2), Relaxed);
}

/// Empties the table: the property is about to run.
#[inline(always)]
pub(crate) fn begin_execution() {
    LOGGED.store(RUNNING, Relaxed);
    NEXT.store(0, Relaxed);
}

/// Notes how far the property filled the table (it just returned).
///
/// [`fuzz_target!`](crate::fuzz_target) calls this at the end of the body, before the closure
/// drops the input: dropping a `Vec` compares its capacity with `isize::MAX / size_of::<T>()`,
/// and those comparisons, the latest of the execution, would come first among the candidates
/// (a vector length of `0x1555_5555_5555_5555`, tried first on every input).
#[doc(hidden)]
#[inline(always)]
pub fn end_execution() {
    LOGGED.store(NEXT.load(Relaxed), Relaxed);
}

/// [`end_execution`], unless the body already called it (it returned early with `return`, or
/// the property is not the macro's closure). The test compares `RUNNING` with itself when it
/// passes: an equal pair, which the log drops.
#[inline(always)]
pub(crate) fn end_execution_unless_ended() {
    if LOGGED.load(Relaxed) == RUNNING {
        end_execution();
    }
}

/// Forgets the last property call's comparisons (a panicking call never noted them).
pub(crate) fn forget_execution() {
    LOGGED.store(0, Relaxed);
}

/// The last property call's comparisons as the engine's [`Log`] (repeated and equal pairs
/// dropped, `switch` entries expanded into one pair per case), at most the `latest` ones, or
/// `None` if there were none.
/// The last slot is left out when the table is full: comparisons made after the property
/// overwrite it.
fn last_log(pairs: &mut Vec<(u64, u64, u8)>, latest: usize) -> Option<Log> {
    let logged = LOGGED.load(Relaxed);
    if logged == RUNNING || logged == 0 {
        return None;
    }
    let logged = logged.min(SLOTS - 1);
    pairs.clear();
    for slot in 0..logged {
        let (left, right) = (LEFT[slot].load(Relaxed), RIGHT[slot].load(Relaxed));
        match WIDTH[slot].load(Relaxed) {
            SWITCH => push_switch(left, right as *const u64, pairs),
            // A word compared with zero: null and capacity checks, such as the ones dropping
            // the input makes after the property's own comparisons (which would otherwise be
            // the most recent ones, tried first), and zero is a value mutation reaches anyway.
            8 if left == 0 || right == 0 => {}
            width => pairs.push((left, right, width)),
        }
    }
    Some(Log::from_pairs(
        &pairs[pairs.len().saturating_sub(latest)..],
    ))
}

/// The pairs a `switch` on `value` offers: `cases` is SanitizerCoverage's case table (the case
/// count, the width in bits, then the cases), a constant of the instrumented code.
fn push_switch(value: u64, cases: *const u64, pairs: &mut Vec<(u64, u64, u8)>) {
    if cases.is_null() {
        return;
    }
    // SAFETY: the table was passed to the switch hook by instrumented code, which emits it as a
    // constant array of `2 + count` words that lives as long as the program.
    let (count, bits) = unsafe { (*cases, *cases.add(1)) };
    let width = (bits / 8).clamp(1, 8) as u8;
    for case in 0..count.min(MAX_SWITCH_CASES) {
        // SAFETY: as above; `case < count`.
        let constant = unsafe { *cases.add(2 + case as usize) };
        pairs.push((value, constant, width));
    }
}

/// A hash of a whole input (std's, which cargo-fuzz does not instrument).
fn hash_of(bytes: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    BuildHasherDefault::<DefaultHasher>::default().hash_one(bytes)
}

/// Whether the substitutions are on: the hooks are wrapped and `TYPEFUZZ_CMPLOG` is not `0`.
/// Decided once per process (see [`status`]).
pub(crate) fn enabled() -> bool {
    #[cfg(test)]
    if STATUS_FOR_TESTS.with(std::cell::Cell::get) {
        return true;
    }
    status().is_ok()
}

#[cfg(test)]
thread_local! {
    /// Turns the substitutions on in this (uninstrumented) test thread.
    static STATUS_FOR_TESTS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `Ok` if the comparison hooks are wrapped and the substitutions are on, else why not.
pub(crate) fn status() -> Result<(), &'static str> {
    static STATUS: OnceLock<Result<(), &'static str>> = OnceLock::new();
    *STATUS.get_or_init(|| {
        if std::env::var("TYPEFUZZ_CMPLOG").is_ok_and(|v| v == "0") {
            return Err("TYPEFUZZ_CMPLOG=0");
        }
        if !hooks_wrapped() {
            return Err(
                "the comparison hooks are not wrapped: link with -Wl,--wrap for each of \
                 typefuzz_libfuzzer::WRAPPED_HOOKS (see the cmplog module docs)",
            );
        }
        Ok(())
    })
}

/// Whether a comparison made by this (instrumented) crate reaches [`record`]: makes one and
/// looks.
fn hooks_wrapped() -> bool {
    NEXT.store(0, Relaxed);
    let (a, b) = (std::hint::black_box(1u64), std::hint::black_box(2u64));
    std::hint::black_box(a == b);
    let wrapped = NEXT.load(Relaxed) > 0;
    NEXT.store(0, Relaxed);
    wrapped
}

/// How many property calls the mutator made to log a corpus input's comparisons (see
/// [`Substitutions::mutate_seed`]); the panic hook prints it, since libFuzzer's execution count
/// does not include them.
static SEED_RUNS: AtomicU64 = AtomicU64::new(0);

/// How many property calls the mutator made to log corpus inputs' comparisons, in this process.
pub(crate) fn seed_runs() -> u64 {
    SEED_RUNS.load(Relaxed)
}

/// Runs the property on a corpus input (decoded, and its bytes) to log its comparisons.
pub(crate) type SeedRun<'a, T> = &'a mut dyn FnMut(T, &[u8]);

/// How many corpus inputs' candidates are kept at most; past it the table starts over (long
/// campaigns only: libFuzzer's corpus for one target is typically hundreds to a few thousand
/// inputs). Each entry holds at most the engine's 128 candidates.
const MAX_SEEDS: usize = 1 << 14;

/// A corpus input's candidates, and how many were tried.
struct SeedCandidates {
    candidates: Vec<Candidate>,
    tried: usize,
}

/// The per-seed candidate table, by a hash of the input's bytes (already a hash: the map's own
/// hasher only has to spread it).
type SeedTable = HashMap<u64, SeedCandidates, BuildHasherDefault<DefaultHasher>>;

/// The mutator's CmpLog state: the pairs read from the table (a reused buffer), and the
/// candidates of the corpus inputs it started mutation chains from.
pub(crate) struct Substitutions {
    pairs: Vec<(u64, u64, u8)>,
    /// Every corpus input's candidates, once computed. A table of all of them rather than a
    /// direct-mapped cache: two inputs sharing a slot evicted each other, and each eviction cost
    /// a run of the property and a pass over the input to find its candidates again (about ten
    /// thousand such runs in a 20 s `enum_vector` run with a corpus of under 400 inputs).
    seeds: Option<SeedTable>,
}

impl Substitutions {
    pub(crate) const fn new() -> Self {
        Substitutions {
            pairs: Vec::new(),
            seeds: None,
        }
    }

    /// For an input from libFuzzer's corpus (`bytes`, decoded to `mutant`), which starts a
    /// chain of mutations: the first time, runs the property on it through `run` to log its
    /// comparisons and computes its candidates, most recent comparison first; then each call
    /// writes the next untried candidate into `mutant` (Redqueen's deterministic stage, one
    /// candidate per chain), and once all were tried, a random one in 1 call of 16. Returns
    /// whether it wrote one.
    pub(crate) fn mutate_seed<T: Mutate>(
        &mut self,
        bytes: &[u8],
        mutant: &mut T,
        cx: &mut Context,
        run: SeedRun<'_, T>,
    ) -> bool {
        if !enabled() {
            return false;
        }
        let hash = hash_of(bytes);
        if !self.seeds().contains_key(&hash) {
            run(mutant.clone(), bytes);
            SEED_RUNS.fetch_add(1, Relaxed);
            let found = match last_log(&mut self.pairs, usize::MAX) {
                Some(log) => candidates(mutant, &log),
                None => Vec::new(),
            };
            self.remember(
                hash,
                SeedCandidates {
                    candidates: found,
                    tried: 0,
                },
            );
        }
        let Some(seed) = self.seeds().get_mut(&hash) else {
            unreachable!("the entry was made above")
        };
        let len = seed.candidates.len();
        let index = if seed.tried < len {
            seed.tried += 1;
            seed.tried - 1
        } else if len > 0 && cx.chance(1, 16) {
            cx.below(len)
        } else {
            return false;
        };
        apply(mutant, &seed.candidates[index], cx)
    }

    /// The seed table, made on first use.
    fn seeds(&mut self) -> &mut SeedTable {
        self.seeds.get_or_insert_with(SeedTable::default)
    }

    /// Enters a corpus input's candidates, starting the table over when it is full.
    fn remember(&mut self, hash: u64, seed: SeedCandidates) {
        let seeds = self.seeds();
        if seeds.len() >= MAX_SEEDS && !seeds.contains_key(&hash) {
            seeds.clear();
        }
        seeds.insert(hash, seed);
    }

    /// The candidates the last property call's comparisons offer `value` (the input that call
    /// ran on), most recent comparison first; `None` when the substitutions are off or the
    /// call logged nothing.
    pub(crate) fn last_run_candidates<T: Mutate>(
        &mut self,
        value: &mut T,
    ) -> Option<Vec<Candidate>> {
        if !enabled() {
            return None;
        }
        let log = last_log(&mut self.pairs, usize::MAX)?;
        Some(candidates(value, &log))
    }

    /// Enters the corpus input `bytes` in the seed table with `candidates`, all tried (the
    /// fresh-input queue tries them, see [`fresh`](crate::fresh)): libFuzzer starting a chain
    /// from it later then needs no run to log its comparisons.
    pub(crate) fn remember_seed(&mut self, bytes: &[u8], candidates: Vec<Candidate>) {
        let hash = hash_of(bytes);
        let tried = candidates.len();
        self.remember(hash, SeedCandidates { candidates, tried });
    }

    /// One call in [`CMPLOG_ONE_IN`]: writes the other operand of one of the last property
    /// call's comparisons into a leaf of `mutant` that holds one operand. `mutant` must be a copy
    /// of the input that call ran on. Returns whether it did.
    pub(crate) fn mutate<T: Mutate>(&mut self, mutant: &mut T, cx: &mut Context) -> bool {
        if !cx.chance(1, CMPLOG_ONE_IN) || !enabled() {
            return false;
        }
        let Some(log) = last_log(&mut self.pairs, CHAIN_PAIRS) else {
            return false;
        };
        let found = candidates(mutant, &log);
        let Some(candidate) = pick(&found, cx) else {
            return false;
        };
        apply(mutant, candidate, cx)
    }
}

/// Half the time a candidate of the most recent comparison (the one the input stopped at; among
/// its candidates, uniformly: several leaves may hold its operand), else any candidate.
fn pick<'c>(found: &'c [Candidate], cx: &mut Context) -> Option<&'c Candidate> {
    let first = found.first()?;
    let latest = found.iter().take_while(|c| c.order == first.order).count();
    let pool = if cx.chance(1, 2) { latest } else { found.len() };
    Some(&found[cx.below(pool)])
}

/// Defines the `__wrap_<hook>` functions `-Wl,--wrap=<hook>` sends the instrumented code's
/// comparison hooks to: each records the operands ([`record`]) and tail-calls libFuzzer's hook
/// (`__real_<hook>`). [`fuzz_target!`](crate::fuzz_target) expands it under
/// `#[cfg(typefuzz_cmplog)]`, which the fuzz crate's build script sets together with the link
/// arguments (see the module docs): defined without them, `__real_<hook>` would not link.
#[doc(hidden)]
#[macro_export]
macro_rules! __wrap_comparison_hooks {
    () => {
        // ELF directives (`.type`, `.size`): x86-64 Linux, where `-Wl,--wrap` applies anyway.
        #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
        $crate::__wrap_comparison_hooks!(@asm);
        #[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
        const _: () = {
            $crate::__wrap_comparison_hooks!(@rust);
        };
    };
    // x86-64 Linux: written in assembly, so that the wrappers are not instrumented. Rust wrappers are
    // (cargo-fuzz instruments every crate): each call counted its own blocks, tracked the stack
    // depth and read the mode through the GOT twice, about fifteen instructions per comparison
    // while typefuzz's mutator runs (when the wrapper only returns), which made the wrappers a
    // fifth of a typed target's time. Each does what `record` and the Rust wrapper do: nothing
    // while the mutator runs (`MODE` is `SKIP`, 1), else the operands (zero-extended to 64
    // bits) into the next slot, then, unless the mutator's own property run is recording
    // (`RECORD`, 2), a jump to libFuzzer's hook with the instrumented code's return address
    // still on the stack.
    (@asm) => {
        $crate::__wrap_comparison_hooks! {@asm
            __wrap___sanitizer_cov_trace_cmp1, __real___sanitizer_cov_trace_cmp1, "1", "movzx edi, dil", "movzx esi, sil";
            __wrap___sanitizer_cov_trace_cmp2, __real___sanitizer_cov_trace_cmp2, "2", "movzx edi, di", "movzx esi, si";
            __wrap___sanitizer_cov_trace_cmp4, __real___sanitizer_cov_trace_cmp4, "4", "mov edi, edi", "mov esi, esi";
            __wrap___sanitizer_cov_trace_cmp8, __real___sanitizer_cov_trace_cmp8, "8", "", "";
            __wrap___sanitizer_cov_trace_const_cmp1, __real___sanitizer_cov_trace_const_cmp1, "1", "movzx edi, dil", "movzx esi, sil";
            __wrap___sanitizer_cov_trace_const_cmp2, __real___sanitizer_cov_trace_const_cmp2, "2", "movzx edi, di", "movzx esi, si";
            __wrap___sanitizer_cov_trace_const_cmp4, __real___sanitizer_cov_trace_const_cmp4, "4", "mov edi, edi", "mov esi, esi";
            __wrap___sanitizer_cov_trace_const_cmp8, __real___sanitizer_cov_trace_const_cmp8, "8", "", "";
            // The value and the address of the case table (`SWITCH`, width 0).
            __wrap___sanitizer_cov_trace_switch, __real___sanitizer_cov_trace_switch, "0", "", "";
        }
    };
    (@asm $($wrapper:ident, $real:ident, $width:literal, $extend_left:literal, $extend_right:literal;)*) => {
        $(
            ::core::arch::global_asm!(
                concat!(".globl ", stringify!($wrapper)),
                concat!(".type ", stringify!($wrapper), ",@function"),
                ".p2align 4",
                concat!(stringify!($wrapper), ":"),
                "mov rax, qword ptr [rip + {mode}]",
                "cmp rax, 1",
                "je 2f",
                $extend_left,
                $extend_right,
                "mov rcx, qword ptr [rip + {next}]",
                // `SLOTS - 1` and `SLOTS_LOG2` (checked where they are defined).
                "and ecx, 511",
                "lea rdx, [rip + {left}]",
                "mov qword ptr [rdx + rcx * 8], rdi",
                "lea rdx, [rip + {right}]",
                "mov qword ptr [rdx + rcx * 8], rsi",
                "lea rdx, [rip + {width}]",
                concat!("mov byte ptr [rdx + rcx], ", $width),
                "lea rdx, [rcx + 1]",
                "mov r8, rdx",
                "shr r8, 9",
                "sub rdx, r8",
                "mov qword ptr [rip + {next}], rdx",
                "test rax, rax",
                "jne 2f",
                concat!("jmp ", stringify!($real)),
                "2:",
                "ret",
                concat!(".size ", stringify!($wrapper), ", . - ", stringify!($wrapper)),
                mode = sym $crate::__private::cmplog_table::MODE,
                next = sym $crate::__private::cmplog_table::NEXT,
                left = sym $crate::__private::cmplog_table::LEFT,
                right = sym $crate::__private::cmplog_table::RIGHT,
                width = sym $crate::__private::cmplog_table::WIDTH,
            );
        )*
    };
    (@rust) => {
        $crate::__wrap_comparison_hooks! {@rust
            __wrap___sanitizer_cov_trace_cmp1 => __real___sanitizer_cov_trace_cmp1(u8, 1);
            __wrap___sanitizer_cov_trace_cmp2 => __real___sanitizer_cov_trace_cmp2(u16, 2);
            __wrap___sanitizer_cov_trace_cmp4 => __real___sanitizer_cov_trace_cmp4(u32, 4);
            __wrap___sanitizer_cov_trace_cmp8 => __real___sanitizer_cov_trace_cmp8(u64, 8);
            __wrap___sanitizer_cov_trace_const_cmp1 => __real___sanitizer_cov_trace_const_cmp1(u8, 1);
            __wrap___sanitizer_cov_trace_const_cmp2 => __real___sanitizer_cov_trace_const_cmp2(u16, 2);
            __wrap___sanitizer_cov_trace_const_cmp4 => __real___sanitizer_cov_trace_const_cmp4(u32, 4);
            __wrap___sanitizer_cov_trace_const_cmp8 => __real___sanitizer_cov_trace_const_cmp8(u64, 8);
        }

        extern "C" {
            fn __real___sanitizer_cov_trace_switch(value: u64, cases: *const u64);
        }

        /// Logs the value and the address of the case table (expanded when read), then
        /// tail-calls libFuzzer's hook.
        ///
        /// # Safety
        /// Called by SanitizerCoverage's instrumentation only.
        #[no_mangle]
        pub unsafe extern "C" fn __wrap___sanitizer_cov_trace_switch(value: u64, cases: *const u64) {
            if $crate::__private::recording() {
                $crate::__private::record_switch(value, cases);
            }
            if $crate::__private::fuzzing() {
                // SAFETY: libFuzzer's hook, with the arguments the instrumentation passed.
                unsafe { __real___sanitizer_cov_trace_switch(value, cases) }
            }
        }
    };
    (@rust $($wrapper:ident => $real:ident ($ty:ty, $width:expr);)*) => {
        extern "C" {
            $(fn $real(left: $ty, right: $ty);)*
        }
        $(
            /// Logs the operands, then tail-calls libFuzzer's hook.
            ///
            /// # Safety
            /// Called by SanitizerCoverage's instrumentation only.
            #[no_mangle]
            pub unsafe extern "C" fn $wrapper(left: $ty, right: $ty) {
                if $crate::__private::recording() {
                    $crate::__private::record(u64::from(left), u64::from(right), $width);
                }
                // libFuzzer's hook, except while typefuzz's mutator runs.
                if $crate::__private::fuzzing() {
                    // SAFETY: libFuzzer's hook, with the arguments the instrumentation passed.
                    unsafe { $real(left, right) }
                }
            }
        )*
    };
}

/// What the comparison hooks do: null while libFuzzer runs an input or its own code (record the
/// operands and call libFuzzer's hook), [`SKIP`] while typefuzz's mutator or crossover runs
/// (nothing), [`RECORD`] while the mutator runs the property on a corpus input to log its
/// comparisons (record only). A pointer: SanitizerCoverage traces integer comparisons only, so
/// testing it does not call a comparison hook.
#[doc(hidden)]
pub static MODE: AtomicPtr<()> = AtomicPtr::new(std::ptr::null_mut());
/// [`MODE`] while typefuzz's mutator or crossover runs.
const SKIP: *mut () = std::ptr::NonNull::<u8>::dangling().cast::<()>().as_ptr();
/// [`MODE`] while the mutator runs the property on a corpus input (typed CmpLog's seed run).
const RECORD: *mut () = std::ptr::NonNull::<u16>::dangling().cast::<()>().as_ptr();

/// Whether the comparison a wrapper sees belongs to an execution (or libFuzzer's code), rather
/// than to typefuzz's mutator or crossover: the mutator's own code is instrumented too, its
/// comparisons are not the input's, and libFuzzer's hook would spend time on them (value
/// profile, which is cleared before the next execution anyway) and put them in the comparison
/// tables its byte mutator draws from.
#[doc(hidden)]
#[inline(always)]
pub fn fuzzing() -> bool {
    MODE.load(Relaxed).is_null()
}

/// Whether a wrapper records the comparison it sees: not while typefuzz's mutator or crossover
/// runs (their comparisons are not the input's, and under cargo-fuzz they are instrumented
/// too: recording each cost the mutator a third of its time), but during the property runs the
/// mutator makes to log a corpus input's comparisons.
#[doc(hidden)]
#[inline(always)]
pub fn recording() -> bool {
    MODE.load(Relaxed) != SKIP
}

/// Marks typefuzz's mutator as running until dropped.
pub(crate) struct Mutating(());

impl Mutating {
    pub(crate) fn enter() -> Self {
        MODE.store(SKIP, Relaxed);
        Mutating(())
    }

    /// Runs `f` (a property call on a corpus input) with its comparisons recorded, still
    /// without libFuzzer's hooks.
    pub(crate) fn recording<R>(&self, f: impl FnOnce() -> R) -> R {
        MODE.store(RECORD, Relaxed);
        let restore = Restore(SKIP);
        let result = f();
        drop(restore);
        result
    }
}

impl Drop for Mutating {
    fn drop(&mut self) {
        MODE.store(std::ptr::null_mut(), Relaxed);
    }
}

/// Stores its mode back into [`MODE`] when dropped (also when the property call unwinds).
struct Restore(*mut ());

impl Drop for Restore {
    fn drop(&mut self) {
        MODE.store(self.0, Relaxed);
    }
}

/// [`record`] for a `switch`: the value and the address of the case table, expanded when read.
#[doc(hidden)]
#[inline(always)]
pub fn record_switch(value: u64, cases: *const u64) {
    record(value, cases as u64, SWITCH);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use typefuzz_engine::feedback::cmplog::Replacement;

    /// Runs `f` with the table to itself and the substitutions on, as in a target linked with
    /// the wrapped hooks.
    pub(crate) fn with_cmplog_on(f: impl FnOnce()) {
        let _turn = turn();
        STATUS_FOR_TESTS.with(|status| status.set(true));
        f();
        STATUS_FOR_TESTS.with(|status| status.set(false));
    }

    /// Logs what `f` records as one property call's comparisons.
    pub(crate) fn logged_run(f: impl FnOnce()) {
        begin_execution();
        f();
        end_execution();
    }

    /// The table is global: the tests that fill it take turns.
    static TABLE: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn turn() -> std::sync::MutexGuard<'static, ()> {
        TABLE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn logged(f: impl FnOnce()) -> Option<Log> {
        begin_execution();
        f();
        end_execution();
        last_log(&mut Vec::new(), usize::MAX)
    }

    #[test]
    fn the_mutator_records_only_its_seed_runs_and_calls_no_libfuzzer_hook() {
        let _turn = turn();
        assert!(fuzzing() && recording(), "libFuzzer runs an input");
        {
            let mutating = Mutating::enter();
            assert!(!fuzzing() && !recording(), "the mutator's own comparisons");
            let during = mutating.recording(|| (fuzzing(), recording()));
            assert_eq!(
                during,
                (false, true),
                "a seed run is recorded, without libFuzzer"
            );
            assert!(!recording(), "back to the mutator's own comparisons");
            let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                mutating.recording(|| panic!("the property failed on the corpus input"))
            }));
            assert!(unwound.is_err());
            assert!(
                !fuzzing() && !recording(),
                "restored when the seed run unwinds"
            );
        }
        assert!(fuzzing() && recording(), "the mutator returned");
    }

    #[test]
    fn the_table_holds_the_property_calls_comparisons() {
        let _turn = turn();
        let log = logged(|| {
            record(3, 9, 1);
            record(3, 9, 1);
            record(4, 4, 2);
        })
        .expect("two comparisons logged");
        // Repeated and equal pairs say nothing new.
        assert_eq!(log.integers().len(), 1);
        assert_eq!((log.integers()[0].left, log.integers()[0].right), (3, 9));
        // Comparisons made after the property returned are not its own.
        record(5, 6, 1);
        assert_eq!(
            last_log(&mut Vec::new(), usize::MAX)
                .unwrap()
                .integers()
                .len(),
            1
        );
        assert!(logged(|| {}).is_none());
        forget_execution();
        assert!(last_log(&mut Vec::new(), usize::MAX).is_none());
    }

    #[test]
    fn a_full_table_keeps_its_first_comparisons() {
        let _turn = turn();
        let log = logged(|| {
            for i in 1..10 * SLOTS as u64 {
                record(i, i + 1, 8);
            }
        })
        .unwrap();
        // `Log` keeps its own first 256 of the table's first SLOTS - 1.
        assert_eq!(log.integers()[0].left, 1);
        assert!(log.integers().iter().all(|c| c.left < SLOTS as u64));
    }

    #[test]
    fn comparisons_after_the_body_returned_are_left_out() {
        let _turn = turn();
        begin_execution();
        record(7, 30, 1);
        // The body returned (the macro's closure ends the execution) ...
        end_execution();
        // ... then the closure drops the input: a capacity check.
        record(3, (isize::MAX / 6) as u64, 8);
        end_execution_unless_ended();
        let log = last_log(&mut Vec::new(), usize::MAX).unwrap();
        let pairs: Vec<_> = log.integers().iter().map(|c| (c.left, c.right)).collect();
        assert_eq!(pairs, [(7, 30)]);
    }

    #[test]
    fn words_compared_with_zero_are_left_out() {
        let _turn = turn();
        let log = logged(|| {
            record(0, 48, 8);
            record(41, 0, 8);
            record(0, 30, 1);
        })
        .unwrap();
        let pairs: Vec<_> = log.integers().iter().map(|c| (c.left, c.right)).collect();
        assert_eq!(pairs, [(0, 30)]);
    }

    #[test]
    fn switch_entries_expand_to_their_cases() {
        let _turn = turn();
        // Two cases, 32 bits: what SanitizerCoverage emits for `match x { 10 => .., 20 => .. }`.
        static CASES: [u64; 4] = [2, 32, 10, 20];
        let log = logged(|| record(7, CASES.as_ptr() as u64, SWITCH)).unwrap();
        let pairs: Vec<_> = log
            .integers()
            .iter()
            .map(|c| (c.left, c.right, c.width))
            .collect();
        assert_eq!(pairs, [(7, 10, 4), (7, 20, 4)]);
    }

    #[test]
    fn a_substitution_writes_the_compared_operand_into_the_leaf() {
        let _turn = turn();
        // `x.1 == 30` seen while running on (5, 7): the leaf holding 7 may become 30.
        let input: (u16, u8) = (5, 7);
        logged(|| record(u64::from(input.1), 30, 1));
        let log = last_log(&mut Vec::new(), usize::MAX).unwrap();
        let found = candidates(&mut input.clone(), &log);
        assert_eq!(found[0].value, Replacement::Integer(30));
        let mut cx = Context::new(1);
        let mut hits = 0;
        for _ in 0..64 {
            let mut mutant = input;
            let candidate = pick(&found, &mut cx).unwrap();
            assert!(apply(&mut mutant, candidate, &mut cx));
            hits += usize::from(mutant == (5, 30));
        }
        // The exact operand is the latest comparison's first candidate, picked at least half
        // the time among its three (30, 29, 31).
        assert!(hits >= 10, "{hits} of 64");
    }

    #[test]
    fn a_seed_runs_once_then_tries_its_candidates_in_turn() {
        with_cmplog_on(|| {
            let mut substitutions = Substitutions::new();
            let mut cx = Context::new(5);
            let mut runs = 0;
            // The "property" compares the `u8` field with 30, then with 40.
            let mut run = |value: (u16, u8), _: &[u8]| {
                runs += 1;
                logged_run(|| {
                    record(u64::from(value.1), 30, 1);
                    record(u64::from(value.1), 40, 1);
                });
            };
            let mut mutants = Vec::new();
            for _ in 0..6 {
                let mut mutant = (5u16, 7u8);
                if substitutions.mutate_seed(b"seed", &mut mutant, &mut cx, &mut run) {
                    mutants.push(mutant);
                }
            }
            // A seed the fresh-input queue already knows needs no run.
            substitutions.remember_seed(b"fresh", Vec::new());
            substitutions.mutate_seed(b"fresh", &mut (5u16, 7u8), &mut cx, &mut run);
            assert_eq!(runs, 1, "one run per seed");
            // The latest comparison's operand first, then its neighbours, then the earlier one's.
            assert_eq!(
                mutants,
                [(5, 40), (5, 41), (5, 39), (5, 30), (5, 31), (5, 29)]
            );
        });
    }

    #[test]
    fn without_wrapped_hooks_substitutions_are_off() {
        // This test binary is not instrumented: no comparison reaches `record`.
        let _turn = turn();
        assert!(!hooks_wrapped());
        assert!(status().is_err());
        let mut value = 7u8;
        let mut cx = Context::new(0);
        assert!((0..32).all(|_| !Substitutions::new().mutate(&mut value, &mut cx)));
    }
}
