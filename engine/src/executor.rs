//! Executor: runs the property once on one input and turns whatever happens — a return value, a
//! panic, a [`Discarded`] panic — into a [`Verdict`] ([`run_once`], public for adapters), with
//! the feedback recorders armed around the call only. A [`Watchdog`] turns a call that runs past the per-test limit into a hang report.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::thread;
use std::time::{Duration, Instant};

use crate::feedback::{self, Feedback};
use crate::{Discarded, FailureKind, IntoOutcome, Outcome};

/// What one call of a property said, panics included: [`Outcome`] plus how a failure failed.
///
/// ```
/// use typefuzz::{run_once, FailureKind, Verdict};
/// assert_eq!(run_once(|| true), Verdict::Pass);
/// let Verdict::Fail { kind, message } = run_once(|| -> () { panic!("boom") }) else { unreachable!() };
/// assert_eq!(kind, FailureKind::Panic);
/// assert!(message.contains("boom"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The property held.
    Pass,
    /// The input was discarded ([`Outcome::Discard`] or a [`Discarded`] panic).
    Discard,
    /// The property failed: it returned a failure ([`FailureKind::Fail`]) or panicked
    /// ([`FailureKind::Panic`], the message naming where).
    Fail {
        /// How it failed.
        kind: FailureKind,
        /// The returned failure's message, or the panic's message with its location.
        message: String,
    },
}

thread_local! {
    /// Whether a property is running on this thread under the engine: the panic hook is silent.
    static SILENT: Cell<bool> = const { Cell::new(false) };
    /// Where the last silenced panic happened (`file:line:column`).
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Installs, once per process, a panic hook that stays silent while a property runs under the
/// engine (thousands of expected panics would flood the terminal) and otherwise defers to the
/// hook that was installed before.
fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let silent = SILENT.try_with(Cell::get).unwrap_or(false);
            if silent {
                let location = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                let _ = PANIC_LOCATION.try_with(|slot| {
                    if let Ok(mut slot) = slot.try_borrow_mut() {
                        *slot = location;
                    }
                });
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `property` on `input` with the feedback recorders armed around the call only.
#[inline]
pub(crate) fn execute<T, R: IntoOutcome>(
    property: &mut impl FnMut(&T) -> R,
    input: &T,
    feedback: &Feedback,
) -> Verdict {
    feedback::begin_run();
    feedback.before_run();
    let verdict = run_once(|| property(input));
    feedback::end_run();
    verdict
}

/// Calls a property once and classifies what happened: its return value through
/// [`IntoOutcome`], a [`Discarded`] panic as a discard, any other panic as a failure carrying the
/// panic's message and location. The panic hook stays silent during the call (a search panics
/// thousands of times), so the caller decides what to print.
///
/// This is the engine's single-execution entry point for adapters: the loop runs every test
/// through it, and an adapter that runs one input itself (the libFuzzer target, a replay)
/// classifies it the same way.
///
/// ```
/// use typefuzz::{run_once, Discard, FailureKind, Verdict};
/// let input = 7u8;
/// assert_eq!(run_once(|| input < 10), Verdict::Pass);
/// assert_eq!(run_once(|| -> Result<(), String> { Discard::discard() }), Verdict::Discard);
/// assert_eq!(
///     run_once(|| Err::<(), _>("too big")),
///     Verdict::Fail { kind: FailureKind::Fail, message: r#"property returned Err("too big")"#.into() },
/// );
/// ```
#[inline]
pub fn run_once<R: IntoOutcome>(call: impl FnOnce() -> R) -> Verdict {
    install_panic_hook();
    let previously_silent = SILENT.with(|s| s.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(|| call().into_outcome()));
    SILENT.with(|s| s.set(previously_silent));
    match result {
        Ok(Outcome::Pass) => Verdict::Pass,
        Ok(Outcome::Discard) => Verdict::Discard,
        Ok(Outcome::Fail(message)) => Verdict::Fail {
            kind: FailureKind::Fail,
            message,
        },
        Err(payload) if payload.is::<Discarded>() => Verdict::Discard,
        Err(payload) => Verdict::Fail {
            kind: FailureKind::Panic,
            message: panic_message(payload),
        },
    }
}

/// The panic's message, with where it happened.
fn panic_message(payload: Box<dyn Any + Send>) -> String {
    let text = if let Some(s) = payload.downcast_ref::<&'static str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "Box<dyn Any> (a panic with a non-string payload)".to_string()
    };
    let location = PANIC_LOCATION.with(|slot| slot.borrow_mut().take());
    match location {
        Some(location) => format!("panicked at {location}:\n{text}"),
        None => text,
    }
}

/// What the watchdog needs to report a hang: the input being run, encoded before the call.
struct Running {
    started: Instant,
    input: Vec<u8>,
}

struct WatchState {
    running: Mutex<Option<Running>>,
    stop: AtomicBool,
}

/// A thread that watches property calls and ends the process when one runs past `limit`,
/// after saving its input to `hang-<sha1>` in `artifact_dir` (libFuzzer's `-timeout`).
pub(crate) struct Watchdog {
    state: Arc<WatchState>,
}

/// libFuzzer's exit code for timeouts.
pub(crate) const HANG_EXIT_CODE: i32 = 70;

impl Watchdog {
    /// `describe` decodes and formats an input for the report (a plain `fn`, so the thread needs
    /// no `'static` bound on the input type).
    pub(crate) fn start(
        limit: Duration,
        artifact_dir: PathBuf,
        seed: u64,
        describe: fn(&[u8]) -> String,
    ) -> Watchdog {
        let state = Arc::new(WatchState {
            running: Mutex::new(None),
            stop: AtomicBool::new(false),
        });
        let watched = Arc::clone(&state);
        let period = (limit / 4).clamp(Duration::from_millis(1), Duration::from_millis(100));
        let spawned = thread::Builder::new()
            .name("typefuzz-watchdog".into())
            .spawn(move || {
                while !watched.stop.load(Ordering::Relaxed) {
                    thread::sleep(period);
                    let running = watched.running.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(run) = running.as_ref() {
                        let elapsed = run.started.elapsed();
                        if elapsed > limit {
                            report_hang(run, elapsed, limit, &artifact_dir, seed, describe);
                            std::process::exit(HANG_EXIT_CODE);
                        }
                    }
                }
            });
        if let Err(error) = spawned {
            eprintln!("typefuzz: could not start the hang watchdog ({error}); test_timeout is not enforced");
        }
        Watchdog { state }
    }

    /// Marks the start of a property call on `input`.
    pub(crate) fn arm(&self, input: Vec<u8>) {
        let mut running = self.state.running.lock().unwrap_or_else(|e| e.into_inner());
        *running = Some(Running {
            started: Instant::now(),
            input,
        });
    }

    /// Marks the end of the call.
    pub(crate) fn disarm(&self) {
        *self.state.running.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::Relaxed);
    }
}

fn report_hang(
    run: &Running,
    elapsed: Duration,
    limit: Duration,
    dir: &std::path::Path,
    seed: u64,
    describe: fn(&[u8]) -> String,
) {
    let saved = crate::artifacts::write_artifact(dir, "hang", &run.input);
    let mut message = format!(
        "\n==== typefuzz: hang: a property call has run for {:.1?} (limit {:.1?}) ====\n\
         input: {}\nseed: TYPEFUZZ_SEED={seed}\n",
        elapsed,
        limit,
        describe(&run.input)
    );
    match saved {
        Ok(path) => message.push_str(&format!("input saved to {}\n", path.display())),
        Err(error) => message.push_str(&format!("could not save the input: {error}\n")),
    }
    message.push_str(
        "the limit is Config::test_timeout (TYPEFUZZ_TEST_TIMEOUT); raise it if this input is merely slow\n",
    );
    eprint!("{message}");
}
