//! Typed cargo-fuzz targets: `typefuzz::fuzz_target!(|x: MyType| ...)` runs your property under
//! libFuzzer with typefuzz's derived mutator and crossover in place of byte flipping.
//!
//! libFuzzer keeps what it is good at — SanitizerCoverage feedback, the corpus, `-fork`/`-jobs`,
//! crash artifacts, minimization, OSS-Fuzz and ClusterFuzzLite — and typefuzz supplies the input
//! structure. The one macro defines the four libFuzzer entry points:
//!
//! | libFuzzer hook               | what typefuzz does                                             |
//! |------------------------------|----------------------------------------------------------------|
//! | `LLVMFuzzerTestOneInput`     | runs the body on the value the bytes decode to ([`run`]); the mutant just written comes from the [`InputCache`], cloned, not decoded |
//! | `LLVMFuzzerCustomMutator`    | one typed mutation of the input's value, re-encoded within `max_size` ([`InputCache::mutate`]); 1 in [`BYTE_MUTATION_ONE_IN`] calls go to libFuzzer's byte mutator |
//! | `LLVMFuzzerCustomCrossOver`  | splices a same-type subterm of the other input ([`InputCache::crossover`]) |
//! | `LLVMFuzzerInitialize`       | the panic hook ([`initialize`]) and your `init:` expression    |
//!
//! # Quick start
//!
//! `fuzz/Cargo.toml` (created by `cargo fuzz init`) depends on typefuzz with the `libfuzzer`
//! feature; `libfuzzer-sys` comes with it:
//!
//! ```toml
//! [dependencies]
//! typefuzz = { version = "0.1", features = ["libfuzzer"] }
//! ```
//!
//! `fuzz/fuzz_targets/tree.rs`:
//!
//! ```ignore
//! #![no_main]
//! use typefuzz::Mutate;
//!
//! #[derive(Clone, Debug, Mutate)]
//! enum Tree { Leaf(u8), Node(Box<Tree>, Box<Tree>) }
//!
//! typefuzz::fuzz_target!(|tree: Tree| {
//!     typefuzz::assume!(depth(&tree) < 10); // false: the input is not added to the corpus
//!     assert!(my_crate::balance(&tree).is_ok());
//! });
//! ```
//!
//! (`ignore`: a fuzz target is a `#![no_main]` binary whose `main` is libFuzzer's; it cannot run
//! as a doctest. The [`fuzz_target!`] docs hold a compiled example.)
//!
//! Then `cargo +nightly fuzz run tree` (cargo-fuzz's default AddressSanitizer build needs the
//! nightly toolchain), or on stable `cargo fuzz run -s none tree`. libFuzzer's `NEW` status lines
//! list `Custom` among the mutations: that is this crate's mutator at work.
//!
//! # The body
//!
//! The input arrives by value. The body may return `()` or anything
//! [`IntoOutcome`](typefuzz_engine::IntoOutcome) accepts (`bool`, `Result`, `Outcome`), and may
//! use `typefuzz::assume!`: a discarded input is reported to libFuzzer as
//! [`Corpus::Reject`], so it never enters the corpus. A failure (`false`, `Err`, a panic) aborts
//! the process, which is how libFuzzer recognizes a crash; the panic message is preceded by the
//! decoded input's `Debug` form.
//!
//! # One property, two harnesses
//!
//! Write the property once, as a function over `&T`, and call it from both a unit test
//! (`typefuzz::check` or the proptest/quickcheck adapters) and a fuzz target. Both read and write
//! the same bytes — the derived codec — in the same corpus layout (one file per input named by its
//! SHA-1), so `TYPEFUZZ_CORPUS=fuzz/corpus/tree cargo test` replays what `cargo fuzz run tree`
//! found, and `cargo fuzz run tree <dir>` accepts what the engine wrote.
//!
//! ```
//! use typefuzz::{check, Config, Mutate};
//!
//! #[derive(Clone, Debug, Mutate)]
//! struct Pair(u8, u8);
//!
//! fn property(pair: &Pair) {
//!     assert_eq!(pair.0.max(pair.1), pair.1.max(pair.0));
//! }
//!
//! // In a unit test:
//! let report = check(&Config::default(), |cx| cx.generate::<Pair>(), property);
//! assert!(report.failure.is_none());
//! // In fuzz/fuzz_targets/pair.rs:  typefuzz::fuzz_target!(|pair: Pair| property(&pair));
//! let verdict = typefuzz_libfuzzer::run::<Pair, _>(&[1, 2], |pair| property(&pair));
//! assert!(matches!(verdict, typefuzz_libfuzzer::Corpus::Keep));
//! ```
//!
//! # Coverage
//!
//! Under cargo-fuzz (`--cfg fuzzing`) libFuzzer defines the SanitizerCoverage hooks and the
//! engine defines none, so both link into one binary; typefuzz's own coverage runtime is only for
//! `cargo typefuzz test`.
//!
//! Without `--cfg fuzzing` (this crate's own tests, a fuzz crate's `cargo test`), a binary links
//! both libFuzzer (through `libfuzzer-sys`) and the engine, and both define the hooks. On x86-64
//! and AArch64 Linux the engine's definitions are weak and libFuzzer's win at link time. On every
//! other target they are strong, and such a binary fails to link with `duplicate symbol:
//! __sanitizer_cov_8bit_counters_init` (and the other hooks) whenever the engine's hooks share a
//! codegen unit with code the binary uses (always with `codegen-units = 1`); build it with
//! `RUSTFLAGS="--cfg fuzzing"` (what cargo-fuzz passes), under which the engine defines no hooks.
//!
//! cargo-fuzz instruments every crate of the build, typefuzz's mutator and codec included
//! (`-Cpasses=sancov-module` with inline 8-bit counters, a PC table, `trace-compares` and, on
//! Linux, `stack-depth`). What that does to a typed target:
//!
//! - *Coverage stays clean.* libFuzzer clears its counters and value-profile map right before
//!   each execution (`TracePC::ResetMaps`), so what the mutator and the crossover touch never
//!   counts as coverage of the input (on `enum_vector`, 1,735 counters against 376 for the
//!   `arbitrary` target: the mutator's code is in the map, its hits are not). Only code run
//!   inside the execution counts: the property, and decoding when the input is not the mutant
//!   just written (see [`InputCache`]).
//! - *Decoding in the execution was tried.* The decoder's counters are structural feedback (how
//!   many elements of each variant, in libFuzzer's hit-count buckets). Decoding every input in
//!   the execution instead of serving the mutant found `enum_vector`'s bug in a median of 0.97M
//!   executions over six runs against 1.16M served, within the spread of repeated runs at
//!   one seed (0.31M to 1.25M at `-seed=1` here), and ran at 0.71x `arbitrary`'s exec/s in
//!   that comparison against 1.18x served (`fuzz/compare.sh 3 3000000 20` each): served it is.
//! - *It costs time.* With `trace-compares` every integer comparison calls a libFuzzer hook, in
//!   the mutator as in the target; measured with `perf` on `fuzz/fuzz_targets/enum_vector.rs`,
//!   these hooks in the codec took half the time before the codec and the cache were written to
//!   avoid them: the decoder tests for the end of its input by pointer (which `trace-compares`
//!   does not hook), and the cache decodes an input about once per seed instead of three times
//!   per execution.
//! - *With typed CmpLog on* (see below), the comparison hooks the mutator and the crossover
//!   reach skip libFuzzer's side while they run: they cost the recording only, and keep the
//!   mutator's own comparisons out of libFuzzer's tables.
//! - *No opt-out on stable.* There is no stable way to leave one crate or function out of the
//!   instrumentation: per-package `rustflags` in a Cargo profile need the nightly
//!   `profile-rustflags` feature, `#[coverage(off)]` is nightly and concerns
//!   `-Cinstrument-coverage` rather than SanitizerCoverage, and LLVM's
//!   `-fsanitize-coverage-ignorelist` is a clang driver option, not an LLVM one (rustc 1.95
//!   rejects `-Cllvm-args=-sanitizer-coverage-ignorelist=...` as an unknown argument). Nor does
//!   nightly's `profile-rustflags` help: cargo puts a package's profile `rustflags` before
//!   cargo-fuzz's `RUSTFLAGS`, and LLVM combines SanitizerCoverage's options by maximum and
//!   logical or, so a `-Cllvm-args=-sanitizer-coverage-level=0` for `typefuzz-engine` left its
//!   instrumentation as it was (measured: the same `__sancov_cntrs` size and comparison-hook
//!   call sites in `enum_vector`); and the mutator's hot code, generic over the input type, is
//!   compiled into the fuzz crate anyway.
//!   `cargo fuzz build --no-trace-compares` removes the hooks everywhere, which also blinds
//!   `-use_value_profile=1` in your own code: a trade only a target without constant
//!   comparisons should make.
//!
//! # Typed CmpLog
//!
//! With a `build.rs` in the fuzz crate that links the typed targets with `-Wl,--wrap` for
//! libFuzzer's comparison hooks (Linux; the script is in the [`cmplog`] module docs and in the
//! repository's `fuzz/build.rs`), the operands of the comparisons the property makes are written
//! back into the input's typed leaves, as `cargo typefuzz test --trace-compares` does: a matched
//! enum variant becomes the variant the comparison wanted, an integer field the constant it was
//! compared with. libFuzzer still sees every comparison (value profile, its own tables). The target
//! says `typefuzz: CmpLog on` at start; `TYPEFUZZ_CMPLOG=0` turns the substitutions off.
//!
//! # More than one core, more than one machine
//!
//! Scale a typed target the way any cargo-fuzz target scales; typefuzz adds no runner of its own.
//!
//! - *Cores:* `cargo fuzz run -s none tree -- -fork=N` runs N libFuzzer worker processes that
//!   merge what they find into the corpus directory (`-jobs=N -workers=N` is the older,
//!   independent-processes mode). Each worker loads the typed mutator; the cache is per process.
//!   `fuzz/ci.sh` runs the example target under `-fork=2` and requires it to find its bug.
//! - *Machines:* ClusterFuzzLite (in CI, on every pull request or on a schedule) or OSS-Fuzz run
//!   the same binaries on many machines and keep the corpus between runs. The repository's
//!   `.clusterfuzzlite/` holds a working configuration: `project.yaml` (`language: rust`), a
//!   `Dockerfile` on `base-builder-rust`, and `build.sh`, which runs `cargo fuzz build -O` and
//!   copies each target with its `.options` file (libFuzzer flags such as
//!   `use_value_profile = 1`) to `$OUT`. `fuzz/ci.sh` checks that every target `build.sh` ships
//!   is a cargo-fuzz target and starts with its options file.
//! - *Corpora move freely:* the corpus files are the codec bytes `typefuzz::check` reads and
//!   writes too (see "One property, two harnesses"), so a corpus grown on a fleet replays in a
//!   unit test.
#![deny(missing_docs)]

mod cache;
pub mod cmplog;
mod crossover;
mod fresh;
mod mutator;
mod target;

pub use cache::InputCache;
pub use cmplog::{CMPLOG_ONE_IN, WRAPPED_HOOKS};
pub use crossover::crossover;
pub use libfuzzer_sys::Corpus;
pub use mutator::{mutate, BYTE_MUTATION_ONE_IN};
pub use target::{initialize, run, test_input};

/// What the expansion of [`fuzz_target!`] calls. Not public API: no stability promise.
#[doc(hidden)]
pub mod __private {
    pub use crate::cmplog::{end_execution, fuzzing, record, record_switch, recording};

    /// The comparison table and mode the assembly wrappers of `__wrap_comparison_hooks!` use.
    pub mod cmplog_table {
        pub use crate::cmplog::{LEFT, MODE, NEXT, RIGHT, WIDTH};
    }
    pub use libfuzzer_sys;

    /// The per-thread [`InputCache`](crate::InputCache) `fuzz_target!` declares.
    pub type Inputs<T> = std::thread::LocalKey<std::cell::RefCell<crate::InputCache<T>>>;

    /// `rust_fuzzer_test_input`: [`test_input`](crate::test_input), taking the value from the
    /// cache when the bytes are the mutant just written.
    pub fn test_input<T, R>(
        inputs: &'static Inputs<T>,
        bytes: &[u8],
        property: impl FnOnce(T) -> R,
    ) -> crate::Corpus
    where
        T: typefuzz_engine::Mutate + std::fmt::Debug,
        R: typefuzz_engine::IntoOutcome,
    {
        crate::target::test_input_with(bytes, property, |bytes| {
            inputs.with(|inputs| inputs.borrow_mut().value_of(bytes))
        })
    }

    /// `LLVMFuzzerCustomMutator` over raw pointers.
    ///
    /// # Safety
    /// libFuzzer's contract: `data` is valid for reads and writes of `max(size, max_size)` bytes.
    pub unsafe fn custom_mutator<T, R>(
        inputs: &'static Inputs<T>,
        data: *mut u8,
        size: usize,
        max_size: usize,
        seed: u32,
        property: impl FnOnce(T) -> R,
    ) -> usize
    where
        T: typefuzz_engine::Mutate + std::fmt::Debug,
        R: typefuzz_engine::IntoOutcome,
    {
        // libFuzzer may call with `size > max_size` when it shrinks the length limit; the buffer
        // holds the larger of the two (libfuzzer-sys's `fuzz_mutator!` relies on the same).
        let capacity = size.max(max_size);
        // SAFETY: see the function's contract.
        let data = unsafe { std::slice::from_raw_parts_mut(data, capacity) };
        let mutating = crate::cmplog::Mutating::enter();
        // Typed CmpLog may run the property once on a corpus input to log its comparisons.
        let mut property = Some(property);
        let mut run = |value: T, bytes: &[u8]| {
            if let Some(property) = property.take() {
                mutating.recording(|| crate::target::run_value(value, bytes, property));
            }
        };
        inputs.with(|inputs| {
            inputs.borrow_mut().mutate_with(
                data,
                size,
                max_size,
                seed,
                libfuzzer_sys::fuzzer_mutate,
                Some(&mut run),
            )
        })
    }

    /// `LLVMFuzzerCustomCrossOver` over raw pointers.
    ///
    /// # Safety
    /// libFuzzer's contract: `data1`/`data2` are readable for `size1`/`size2` bytes, `out` is
    /// writable for `max_out_size` bytes, and none of them overlap `out`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn custom_crossover<T: typefuzz_engine::Mutate>(
        inputs: &'static Inputs<T>,
        data1: *const u8,
        size1: usize,
        data2: *const u8,
        size2: usize,
        out: *mut u8,
        max_out_size: usize,
        seed: u32,
    ) -> usize {
        // SAFETY: see the function's contract.
        let (first, second, out) = unsafe {
            (
                slice_or_empty(data1, size1),
                slice_or_empty(data2, size2),
                std::slice::from_raw_parts_mut(out, max_out_size),
            )
        };
        let _mutating = crate::cmplog::Mutating::enter();
        inputs.with(|inputs| inputs.borrow_mut().crossover(first, second, out, seed))
    }

    /// # Safety
    /// `data` is null only with `size == 0`, else readable for `size` bytes.
    unsafe fn slice_or_empty<'a>(data: *const u8, size: usize) -> &'a [u8] {
        if data.is_null() || size == 0 {
            &[]
        } else {
            // SAFETY: non-null and readable for `size` bytes (the caller's contract).
            unsafe { std::slice::from_raw_parts(data, size) }
        }
    }
}

/// Defines a cargo-fuzz target over a typed input: `typefuzz::fuzz_target!(|x: MyType| body)`.
///
/// `MyType` must implement `Mutate` (`#[derive(Mutate)]`) and `Debug`. The macro defines
/// libFuzzer's `LLVMFuzzerTestOneInput` (through `libfuzzer-sys`), `LLVMFuzzerCustomMutator`,
/// `LLVMFuzzerCustomCrossOver` and `LLVMFuzzerInitialize`, so use it once per binary, in a
/// `#![no_main]` file under `fuzz/fuzz_targets/`. Accepted forms, as `libfuzzer_sys::fuzz_target!`:
///
/// ```text
/// fuzz_target!(|x: T| body);                       // body returns () or any IntoOutcome
/// fuzz_target!(|x: T| -> R { body });              // explicit return type
/// fuzz_target!(init: expr, |x: T| body);           // `expr` runs once before fuzzing
/// fuzz_target!(init: expr, |x: T| -> R { body });
/// ```
///
/// What each outcome means to libFuzzer: pass -> the input may join the corpus; discard
/// (`typefuzz::assume!` false, `Outcome::Discard`, `Err(Discarded)`) -> [`Corpus::Reject`];
/// failure or panic -> the process aborts and libFuzzer saves a `crash-<sha1>` artifact.
///
/// # Example
///
/// `no_run`: the expansion is a libFuzzer entry point; the binary's `main` must be libFuzzer's
/// (`#![no_main]` under cargo-fuzz), so a doctest can compile it but not run it. The
/// `fuzz/fuzz_targets/` directory of the repository holds targets CI runs.
///
/// ```no_run
/// use typefuzz::Mutate;
///
/// #[derive(Clone, Debug, Mutate)]
/// enum Op {
///     Push(u8),
///     Pop,
/// }
///
/// typefuzz_libfuzzer::fuzz_target!(|ops: Vec<Op>| {
///     let mut stack = Vec::new();
///     for op in ops {
///         match op {
///             Op::Push(x) => stack.push(x),
///             Op::Pop => {
///                 stack.pop();
///             }
///         }
///     }
///     assert!(stack.len() < 1000);
/// });
/// ```
#[macro_export]
macro_rules! fuzz_target {
    (init: $init:expr, |$input:ident : $ty:ty| -> $returns:ty $body:block) => {
        $crate::fuzz_target!(@expand $init, $ty, |$input: $ty| -> $returns {
            $crate::fuzz_target!(@body $returns, $body)
        });
    };
    (init: $init:expr, |$input:ident : $ty:ty| $body:expr) => {
        $crate::fuzz_target!(@expand $init, $ty, |$input: $ty| $crate::fuzz_target!(@body _, $body));
    };
    (|$input:ident : $ty:ty| -> $returns:ty $body:block) => {
        $crate::fuzz_target!(@expand (), $ty, |$input: $ty| -> $returns {
            $crate::fuzz_target!(@body $returns, $body)
        });
    };
    (|$input:ident : $ty:ty| $body:expr) => {
        $crate::fuzz_target!(@expand (), $ty, |$input: $ty| $crate::fuzz_target!(@body _, $body));
    };
    // The body, then the end of the execution for typed CmpLog, before the closure drops the
    // input (see `cmplog::end_execution`).
    (@body $returns:ty, $body:expr) => {{
        let returned: $returns = $body;
        $crate::__private::end_execution();
        returned
    }};
    (@expand $init:expr, $ty:ty, $property:expr) => {
        // Typed CmpLog: set with the link arguments by the fuzz crate's build script. Outside the
        // block below: the wrappers are assembly (`global_asm!`) on x86-64 Linux, a module item.
        #[cfg(typefuzz_cmplog)]
        $crate::__wrap_comparison_hooks!();

        const _: () = {
            ::std::thread_local! {
                /// Decoded inputs kept between libFuzzer's calls (see `InputCache`).
                static INPUTS: ::core::cell::RefCell<$crate::InputCache<$ty>> =
                    const { ::core::cell::RefCell::new($crate::InputCache::new()) };
            }

            #[no_mangle]
            pub extern "C" fn LLVMFuzzerInitialize(
                _argc: *const isize,
                _argv: *const *const *const u8,
            ) -> isize {
                $crate::initialize::<$ty>();
                $init;
                0
            }

            // libFuzzer calls `LLVMFuzzerTestOneInput`, defined by libfuzzer-sys, which catches
            // stray unwinds and calls this with the input slice (a Rust-to-Rust call).
            #[no_mangle]
            #[allow(improper_ctypes_definitions)]
            pub extern "C" fn rust_fuzzer_test_input(bytes: &[u8]) -> i32 {
                $crate::__private::test_input::<$ty, _>(&INPUTS, bytes, $property)
                    .to_libfuzzer_code()
            }

            /// # Safety
            /// Called by libFuzzer only, with its buffer contract.
            #[export_name = "LLVMFuzzerCustomMutator"]
            pub unsafe extern "C" fn __typefuzz_custom_mutator(
                data: *mut u8,
                size: usize,
                max_size: usize,
                seed: ::std::os::raw::c_uint,
            ) -> usize {
                // SAFETY: libFuzzer passes a buffer of `max(size, max_size)` bytes.
                unsafe {
                    $crate::__private::custom_mutator::<$ty, _>(
                        &INPUTS,
                        data,
                        size,
                        max_size,
                        seed as u32,
                        $property,
                    )
                }
            }

            /// # Safety
            /// Called by libFuzzer only, with its buffer contract.
            #[export_name = "LLVMFuzzerCustomCrossOver"]
            pub unsafe extern "C" fn __typefuzz_custom_crossover(
                data1: *const u8,
                size1: usize,
                data2: *const u8,
                size2: usize,
                out: *mut u8,
                max_out_size: usize,
                seed: ::std::os::raw::c_uint,
            ) -> usize {
                // SAFETY: libFuzzer passes two readable inputs and a writable output buffer.
                unsafe {
                    $crate::__private::custom_crossover::<$ty>(
                        &INPUTS,
                        data1,
                        size1,
                        data2,
                        size2,
                        out,
                        max_out_size,
                        seed as u32,
                    )
                }
            }
        };
    };
}
