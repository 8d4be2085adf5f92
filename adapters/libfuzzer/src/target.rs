//! The target side: decoding libFuzzer's bytes, running the property, and telling libFuzzer
//! whether to keep the input.

use std::any::type_name;
use std::cell::Cell;
use std::fmt::Debug;
use std::io::Write as _;
use std::panic;
use std::sync::{Once, OnceLock};

use libfuzzer_sys::Corpus;

use crate::cmplog;
use typefuzz_engine::codec::from_bytes;
use typefuzz_engine::{format_bounded, run_once, Discarded, IntoOutcome, Mutate, Verdict};

thread_local! {
    /// The input being run on this thread, for the panic hook to decode and print. A raw slice:
    /// it borrows libFuzzer's buffer only while [`run`] is on the stack, and is cleared after.
    static CURRENT_INPUT: Cell<Option<(*const u8, usize)>> = const { Cell::new(None) };
}

/// Longest `Debug` text of a failing input printed by the panic hook.
const MAX_DEBUG_LEN: usize = 8 * 1024;

/// Runs `property` on the value `bytes` decode to and says whether libFuzzer may keep the input.
///
/// A pass is [`Corpus::Keep`]; a discard (`typefuzz::assume!` false, `Outcome::Discard`, a
/// [`Discarded`] panic) is [`Corpus::Reject`]; the property is classified by the engine's
/// [`run_once`], as every test of `typefuzz::check` is. A failure (a returned failure or a panic,
/// whose message names where it panicked) panics again with that message: under libFuzzer the
/// hook of [`initialize`] then prints the decoded input and aborts, which libFuzzer reports as a
/// crash.
///
/// ```
/// use typefuzz_libfuzzer::{run, Corpus};
///
/// let keep = run::<u8, _>(&[7], |x| assert_eq!(x, 7));
/// assert!(matches!(keep, Corpus::Keep));
/// let reject = run::<u8, _>(&[7], |x| {
///     typefuzz::assume!(x > 10);
/// });
/// assert!(matches!(reject, Corpus::Reject));
/// let failed = std::panic::catch_unwind(|| run::<u8, _>(&[7], |x| x > 10));
/// assert!(failed.is_err());
/// ```
pub fn run<T: Mutate, R: IntoOutcome>(bytes: &[u8], property: impl FnOnce(T) -> R) -> Corpus {
    run_value(from_bytes(bytes), bytes, property)
}

/// [`run`] on `value`, which `bytes` decode to.
pub(crate) fn run_value<T: Mutate, R: IntoOutcome>(
    value: T,
    bytes: &[u8],
    property: impl FnOnce(T) -> R,
) -> Corpus {
    CURRENT_INPUT.with(|current| current.set(Some((bytes.as_ptr(), bytes.len()))));
    cmplog::begin_execution();
    let verdict = run_once(|| {
        let returned = property(value);
        // Right as the property returns, if the body did not say so itself (see
        // `cmplog::end_execution`): what runs after it is not the input's doing.
        cmplog::end_execution_unless_ended();
        returned
    });
    if !matches!(verdict, Verdict::Pass) {
        cmplog::forget_execution();
    }
    CURRENT_INPUT.with(|current| current.set(None));
    match verdict {
        Verdict::Pass => Corpus::Keep,
        Verdict::Discard => Corpus::Reject,
        // Panicking (rather than aborting here) keeps `run` usable outside libFuzzer; under
        // libFuzzer the hook prints the input and aborts.
        Verdict::Fail { kind, message } => panic!("typefuzz: property failed ({kind}): {message}"),
    }
}

/// [`run`], plus what `cargo fuzz fmt` needs: when libFuzzer-sys's `RUST_LIBFUZZER_DEBUG_PATH`
/// is set, the decoded input's `Debug` form is written to that file instead of running.
/// `fuzz_target!` calls this for each input.
///
/// ```
/// use typefuzz_libfuzzer::{test_input, Corpus};
/// assert!(matches!(test_input::<bool, _>(&[1], |b| b), Corpus::Keep));
/// ```
pub fn test_input<T: Mutate + Debug, R: IntoOutcome>(
    bytes: &[u8],
    property: impl FnOnce(T) -> R,
) -> Corpus {
    test_input_with(bytes, property, from_bytes)
}

/// [`test_input`], with `decode` giving the value `bytes` decode to (`fuzz_target!` passes its
/// [`InputCache`](crate::InputCache)'s [`value_of`](crate::InputCache::value_of)).
pub(crate) fn test_input_with<T: Mutate + Debug, R: IntoOutcome>(
    bytes: &[u8],
    property: impl FnOnce(T) -> R,
    decode: impl FnOnce(&[u8]) -> T,
) -> Corpus {
    static DEBUG_PATH: OnceLock<Option<String>> = OnceLock::new();
    let debug_path = DEBUG_PATH.get_or_init(|| std::env::var("RUST_LIBFUZZER_DEBUG_PATH").ok());
    if let Some(path) = debug_path {
        let value = decode(bytes);
        let written = std::fs::File::create(path).and_then(|mut file| writeln!(file, "{value:#?}"));
        if let Err(error) = written {
            panic!("typefuzz: cannot write RUST_LIBFUZZER_DEBUG_PATH file {path}: {error}");
        }
        return Corpus::Reject;
    }
    run_value(decode(bytes), bytes, property)
}

/// Prepares the process for fuzzing `T`: installs, once, a panic hook that prints the failing
/// input decoded as `T` and then aborts (libFuzzer detects crashes by signal; unwinding would lose
/// the stack), except for [`Discarded`] panics, which stay silent and unwind back to [`run`].
/// `fuzz_target!` calls it from `LLVMFuzzerInitialize`, in place of `libfuzzer_sys::initialize`
/// (whose hook would abort on `assume!`'s discards too).
///
/// ```no_run
/// // `no_run`: after this call any panic other than a discard aborts the process, which would
/// // end the doctest binary.
/// typefuzz_libfuzzer::initialize::<Vec<u8>>();
/// ```
pub fn initialize<T: Mutate + Debug>() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if info.payload().is::<Discarded>() {
                return;
            }
            print_current_input::<T>();
            let seed_runs = cmplog::seed_runs();
            if seed_runs > 0 {
                // libFuzzer's execution count does not include these.
                eprintln!("typefuzz: CmpLog seed runs: {seed_runs}");
            }
            previous(info);
            std::process::abort();
        }));
        eprintln!(
            "typefuzz: typed mutator and crossover for `{}` (codec bytes)",
            type_name::<T>()
        );
        match cmplog::status() {
            Ok(()) => {
                eprintln!("typefuzz: CmpLog on (comparison operands substituted into typed leaves)")
            }
            Err(why) => eprintln!("typefuzz: CmpLog off: {why}"),
        }
    });
}

/// Prints the input being run on this thread, decoded, if there is one.
fn print_current_input<T: Mutate + Debug>() {
    let Some((data, len)) = CURRENT_INPUT.try_with(Cell::get).ok().flatten() else {
        return;
    };
    // SAFETY: `CURRENT_INPUT` is set only while `run` borrows this slice, on this thread, and the
    // hook runs on the panicking thread before any unwinding releases the borrow.
    let bytes = unsafe { std::slice::from_raw_parts(data, len) };
    let value: T = from_bytes(bytes);
    // Bounded while formatting: a huge input is not formatted whole, nor a deep one recursed
    // into past the stack (this runs in the panic hook).
    let text = format_bounded(MAX_DEBUG_LEN, format_args!("{value:?}"));
    eprintln!("typefuzz: failing input ({}): {text}", type_name::<T>());
}

#[cfg(test)]
mod tests {
    use super::*;
    use typefuzz_engine::{Discard, Outcome};

    #[test]
    fn outcomes_map_to_corpus_decisions() {
        assert!(matches!(run::<u8, _>(&[1], |_| true), Corpus::Keep));
        assert!(matches!(
            run::<u8, _>(&[1], |_| Outcome::Discard),
            Corpus::Reject
        ));
        assert!(matches!(
            run::<u8, ()>(&[1], |_| std::panic::panic_any(Discarded)),
            Corpus::Reject
        ));
        // A `Result` property discards with a `Discarded` panic too; any other `Err` fails.
        assert!(matches!(
            run::<u8, _>(&[1], |_| Result::<(), String>::discard()),
            Corpus::Reject
        ));
        // `()`'s discard is a `Discarded` panic, caught by `run`.
        assert!(matches!(
            run::<u8, _>(&[1], |_| <() as Discard>::discard()),
            Corpus::Reject
        ));
    }

    #[test]
    fn failures_and_panics_propagate() {
        let failed = panic::catch_unwind(|| run::<u8, _>(&[1], |_| Err::<(), _>("bad")));
        let message = *failed.unwrap_err().downcast::<String>().unwrap();
        assert!(message.contains("bad"), "{message}");
        let panicked = panic::catch_unwind(|| run::<u8, ()>(&[1], |_| panic!("boom")));
        let message = *panicked.unwrap_err().downcast::<String>().unwrap();
        assert!(
            message.starts_with("typefuzz: property failed (panic): panicked at "),
            "{message}"
        );
        assert!(
            message.contains("target.rs") && message.ends_with("boom"),
            "{message}"
        );
        // The slot is cleared even when the property unwinds.
        assert!(CURRENT_INPUT.with(Cell::get).is_none());
    }

    #[test]
    fn the_property_sees_the_decoded_value() {
        let bytes = typefuzz_engine::codec::to_bytes(&vec![3u16, 500]);
        let mut seen = None;
        run::<Vec<u16>, _>(&bytes, |v| seen = Some(v));
        assert_eq!(seen, Some(vec![3, 500]));
    }
}
