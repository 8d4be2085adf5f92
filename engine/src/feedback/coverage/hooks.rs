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
//! keep `#[no_mangle]` (strong symbols): a binary linking both the engine and libFuzzer without
//! `--cfg fuzzing` then fails to link with `duplicate symbol: __sanitizer_cov_*` once the hooks
//! share a codegen unit with code the binary uses (reproduced on x86-64 Linux by making these
//! strong: `cargo test -p typefuzz-libfuzzer --lib` with `CARGO_PROFILE_TEST_CODEGEN_UNITS=1`
//! fails with rust-lld's `duplicate symbol`, and links and passes with the weak trampolines).
//! The remedy there is `--cfg fuzzing`, under which this module is not compiled (the
//! libfuzzer adapter's docs say so).

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
