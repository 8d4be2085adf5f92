//! Executor: runs the property once on one input and turns whatever happens — a return value, a
//! panic, a [`Discarded`] panic — into a [`Verdict`] ([`run_once`], public for adapters), with
//! the feedback recorders armed around the call only. A [`Watchdog`] turns a call that runs past
//! the per-test limit into a hang report; one thread per process watches every run.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Once, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::crash::InFlight;
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
                if !info.payload().is::<Discarded>() {
                    // Kept in case the panic cannot unwind (a panic while panicking aborts).
                    crate::crash::remember_panic(&info.to_string());
                }
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
    let result = panic::catch_unwind(AssertUnwindSafe(|| call_property(call).into_outcome()));
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

/// Calls the property. Never inlined, so the property's code (its closure, inlined here) lives in
/// a function of its own that coverage attribution counts as the property's although its name is
/// typefuzz's (`feedback::coverage`'s `PROPERTY_HOST`; the rest of typefuzz's generic code is
/// left out of the coverage map).
#[inline(never)]
fn call_property<R>(call: impl FnOnce() -> R) -> R {
    call()
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

/// One watched run: what the fuzzer's thread and the watchdog thread share. Arming and
/// disarming a call cost a store and a compare-and-swap, no lock and no clock read, so watching
/// every call stays cheap (the watchdog thread reads the clock, every period).
struct WatchState {
    /// Odd while a call is in flight, even between calls; each call adds 2. The watchdog sets
    /// [`CLAIMED`] on an odd value it judged hung: from then on the call cannot be disarmed, so
    /// the input bytes stay alive and unchanged while the watchdog saves them.
    calls: AtomicU64,
    /// The in-flight call's input, as [`InFlight`] parts (set before `calls` turns odd).
    parts: [(AtomicPtr<u8>, AtomicUsize); 2],
    recipe: AtomicBool,
    limit: Duration,
    report: HangReport,
    /// The in-flight call the watchdog thread saw last, and when it first saw it (only the
    /// watchdog thread touches it).
    seen: Mutex<Option<(u64, Instant)>>,
}

const CLAIMED: u64 = 1 << 63;

/// The runs under watch, which the one watchdog thread of the process visits.
struct Registry {
    runs: Vec<Arc<WatchState>>,
    /// The watchdog thread's period: the shortest of the runs registered when it last looked
    /// (kept while none is); `None` until the thread is started by the first run watched.
    period: Option<Duration>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    runs: Vec::new(),
    period: None,
});
/// Wakes the watchdog thread when a run that needs a shorter period than its own is registered.
/// (Only then: waking it for every run would cost a context switch per property.)
static REGISTERED: Condvar = Condvar::new();

fn registry() -> MutexGuard<'static, Registry> {
    // A panic while holding the lock leaves the list whole (pushes and removals only).
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The longest period of the watchdog thread.
const MAX_PERIOD: Duration = Duration::from_millis(100);

/// How often the watchdog thread looks at a run with per-test limit `limit`.
fn period(limit: Duration) -> Duration {
    (limit / 4).clamp(Duration::from_millis(1), MAX_PERIOD)
}

/// A run's registration with the process's watchdog thread, which ends the process when one of
/// the run's property calls runs past its `limit`, after saving its input to `hang-<sha1>` in
/// the report's `artifact_dir` (libFuzzer's `-timeout`). One thread watches every run of the
/// process (started by the first, visiting each registered run at the shortest period any of
/// them needs); dropping the `Watchdog` ends the run's watch.
pub(crate) struct Watchdog {
    state: Arc<WatchState>,
}

/// A property call under watch; dropping it ends the watch.
pub(crate) struct Watched<'a> {
    state: &'a WatchState,
    armed: u64,
    _input: std::marker::PhantomData<&'a [u8]>,
}

impl Drop for Watched<'_> {
    fn drop(&mut self) {
        let done = self.armed + 1;
        if (self.state.calls)
            .compare_exchange(self.armed, done, Ordering::Release, Ordering::Relaxed)
            .is_err()
        {
            // The watchdog claimed this call as hung and is saving its input before it ends
            // the process: the bytes must not change, so this thread waits for the end.
            loop {
                thread::park();
            }
        }
    }
}

/// libFuzzer's exit code for timeouts.
pub(crate) const HANG_EXIT_CODE: i32 = 70;

/// What the hang report says besides the input: the seed and how to replay.
pub(crate) struct HangReport {
    pub(crate) artifact_dir: PathBuf,
    pub(crate) seed: u64,
    pub(crate) replay: String,
    /// Decodes and formats an input (a plain `fn`, so the thread needs no `'static` bound on
    /// the input type).
    pub(crate) describe: fn(&[u8]) -> String,
    /// Rebuilds the codec bytes of an input saved as a recipe (see [`InFlight`]), with a few
    /// words on how it was made; `None` if the recipe does not rebuild one.
    pub(crate) rebuild: Rebuild,
}

/// How the watchdog rebuilds a recipe's input bytes (see [`HangReport::rebuild`]).
pub(crate) type Rebuild = Box<dyn Fn(&[u8]) -> Option<(Vec<u8>, &'static str)> + Send + Sync>;

impl Watchdog {
    /// Registers a run whose property calls may last `limit` each, starting the process's
    /// watchdog thread if it is not running yet.
    pub(crate) fn start(limit: Duration, report: HangReport) -> Watchdog {
        let state = Arc::new(WatchState {
            calls: AtomicU64::new(0),
            parts: Default::default(),
            recipe: AtomicBool::new(false),
            limit,
            report,
            seen: Mutex::new(None),
        });
        let period = period(limit);
        let mut registry = registry();
        match registry.period {
            // Miri rejects a process that ends while a thread still runs, and the watchdog
            // thread lives as long as the process: under Miri no call is watched.
            None if cfg!(miri) => {}
            None => match thread::Builder::new()
                .name("typefuzz-watchdog".into())
                .spawn(watch)
            {
                Ok(_) => registry.period = Some(period),
                Err(error) => eprintln!(
                    "typefuzz: could not start the hang watchdog ({error}); test_timeout is \
                     not enforced"
                ),
            },
            Some(current) if period < current => {
                registry.period = Some(period);
                REGISTERED.notify_one();
            }
            Some(_) => {}
        }
        registry.runs.push(Arc::clone(&state));
        Watchdog { state }
    }

    /// Marks the start of a property call on `input`, until the returned guard drops.
    #[inline]
    pub(crate) fn arm<'a>(&'a self, input: InFlight<'a>) -> Watched<'a> {
        let state = &*self.state;
        // Only this (the fuzzer's) thread changes an even count.
        let idle = state.calls.load(Ordering::Relaxed);
        for ((start, len), part) in state.parts.iter().zip(input.parts) {
            start.store(part.as_ptr().cast_mut(), Ordering::Relaxed);
            len.store(part.len(), Ordering::Relaxed);
        }
        state.recipe.store(input.recipe, Ordering::Relaxed);
        state.calls.store(idle + 1, Ordering::Release);
        Watched {
            state,
            armed: idle + 1,
            _input: std::marker::PhantomData,
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        registry().runs.retain(|run| !Arc::ptr_eq(run, &self.state));
    }
}

/// The watchdog thread: visits the registered runs at the shortest period any of them needs
/// (while there are none, at the last such period), and ends the process on the first hung call
/// it claims.
fn watch() {
    let mut registry = registry();
    loop {
        let shortest = registry.runs.iter().map(|run| period(run.limit)).min();
        let period = shortest.or(registry.period).unwrap_or(MAX_PERIOD);
        registry.period = Some(period);
        registry = REGISTERED
            .wait_timeout(registry, period)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
        let hung = registry.runs.iter().find_map(|run| {
            let (calls, elapsed) = run.overdue()?;
            Some((Arc::clone(run), calls, elapsed))
        });
        if let Some((run, calls, elapsed)) = hung {
            // Other runs register and end meanwhile; this one cannot end (see below).
            drop(registry);
            let claimed = run.calls.compare_exchange(
                calls,
                calls | CLAIMED,
                Ordering::Acquire,
                Ordering::Relaxed,
            );
            if claimed.is_ok() {
                run.report_claimed(elapsed);
            }
            registry = self::registry();
        }
    }
}

impl WatchState {
    /// The in-flight call and how long it has been seen running, if past the limit.
    fn overdue(&self) -> Option<(u64, Duration)> {
        let calls = self.calls.load(Ordering::Acquire);
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if calls % 2 == 0 {
            *seen = None;
            return None;
        }
        let since = match *seen {
            Some((call, since)) if call == calls => since,
            _ => {
                *seen = Some((calls, Instant::now()));
                return None;
            }
        };
        let elapsed = since.elapsed();
        (elapsed > self.limit).then_some((calls, elapsed))
    }

    /// Saves and reports the claimed call's input, then ends the process.
    fn report_claimed(&self, elapsed: Duration) -> ! {
        let mut input = Vec::new();
        for (start, len) in &self.parts {
            let (start, len) = (start.load(Ordering::Relaxed), len.load(Ordering::Relaxed));
            if len > 0 {
                // SAFETY: the call that armed these is claimed, so it cannot end and its
                // borrowed bytes stay alive and unchanged (see `Watched::drop`); its run's
                // `Watchdog` cannot drop either while the call is in flight.
                input.extend_from_slice(unsafe { std::slice::from_raw_parts(start, len) });
            }
        }
        let recipe = self.recipe.load(Ordering::Relaxed);
        report_hang(&input, recipe, elapsed, self.limit, &self.report);
        std::process::exit(HANG_EXIT_CODE);
    }
}

fn report_hang(
    input: &[u8],
    recipe: bool,
    elapsed: Duration,
    limit: Duration,
    report: &HangReport,
) {
    // This thread may allocate: a recipe is rebuilt into the input here, not by the next run.
    let rebuilt = recipe.then(|| (report.rebuild)(input)).flatten();
    let (input, described) = match &rebuilt {
        Some((bytes, _)) => (&bytes[..], (report.describe)(bytes)),
        None if recipe => (
            input,
            "(saved as a recipe that did not rebuild here; the next run tries again)".into(),
        ),
        None => (input, (report.describe)(input)),
    };
    let saved = if recipe && rebuilt.is_none() {
        let name = format!(
            "hang-{}{}",
            crate::files::sha1_hex(input),
            crate::files::RECIPE_SUFFIX
        );
        let path = report.artifact_dir.join(name);
        crate::files::write_atomically(&path, input).map(|()| path)
    } else {
        crate::files::write_artifact(&report.artifact_dir, "hang", input)
    };
    let mut message = format!(
        "\n==== typefuzz: hang: a property call has run for at least {:.1?} (limit {:.1?}) ====\n\
         input: {described}\n",
        elapsed, limit,
    );
    if let Some((_, made)) = rebuilt {
        message.push_str(&format!("({made})\n"));
    }
    match saved {
        Ok(path) => message.push_str(&format!(
            "the input was saved to {} (the next run of this test replays it first)\n",
            path.display()
        )),
        Err(error) => message.push_str(&format!("could not save the input: {error}\n")),
    }
    message.push_str(&format!(
        "seed: TYPEFUZZ_SEED={}\nreplay: {}\nthe limit is Config::test_timeout \
         (TYPEFUZZ_TEST_TIMEOUT, 0 for none); raise it if this input is merely slow\n",
        report.seed, report.replay
    ));
    eprint!("{message}");
}
