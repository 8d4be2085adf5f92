//! Crash capture: when a property ends the process instead of returning or panicking — an abort
//! (`std::process::abort`, a panic that cannot unwind such as a double panic, an allocation
//! failure), a stack overflow or another fatal signal, or a call to `exit` — the input it was
//! running is written to `crash-<sha1>` and the seed and the replay command are printed before
//! the process dies, as libFuzzer does. The next run of the test replays saved crash inputs
//! first.
//!
//! How: before each property call the engine points a thread-local slot at the input as it can
//! be saved (an [`InFlight`]): its codec bytes, or — so that no input needs encoding before its
//! call — a *recipe*: for a mutant of a seed, the seed's codec bytes (encoded once, when the
//! seed was kept) and the random state and count of the mutations that made the mutant; for a
//! fresh generation, the random state and size the generator was called with. The next run
//! rebuilds the input exactly from it (`crash-<sha1>.recipe`; see `fuzzer/artifacts.rs`). Arming costs a few stores. A handler for SIGABRT,
//! SIGSEGV, SIGBUS, SIGILL and SIGFPE, running on an alternate signal stack (a stack overflow
//! leaves no room on the thread's own), and an `atexit` handler find the slot of the dying
//! thread and write the file with async-signal-safe calls only (`mkdir`, `open`, `write`). The
//! signal handlers then hand the signal to the handler installed before them (Rust's own stack
//! overflow message, a sanitizer's), so the process still dies as it would have.
//!
//! Unix only; elsewhere this compiles to nothing. Under `cfg(fuzzing)` (cargo-fuzz) libFuzzer
//! owns the signals and writes its own crash files, so this steps aside.

use std::path::Path;

/// Exit status of a process ended by `exit` inside a property (libFuzzer's `-error_exitcode`).
#[cfg_attr(any(fuzzing, miri), allow(dead_code))] // under cargo-fuzz libFuzzer handles crashes; Miri runs no signal handlers
pub(crate) const CRASH_EXIT_CODE: i32 = 77;

/// The crash reporting state of one run: where crash inputs go and what to print.
pub(crate) struct CrashGuard {
    #[cfg_attr(not(all(unix, not(fuzzing), not(miri))), allow(dead_code))]
    report: Box<imp::Report>,
}

/// A property call in flight; dropping it marks the end of the call.
pub(crate) struct Armed {
    #[cfg_attr(not(all(unix, not(fuzzing), not(miri))), allow(dead_code))]
    previous: imp::Slot,
}

/// The input of a property call as the guards save it if the call never returns: `parts`
/// concatenated are its codec bytes, or, when `recipe` is set, a recipe that rebuilds it.
#[derive(Clone, Copy)]
pub(crate) struct InFlight<'a> {
    pub(crate) parts: [&'a [u8]; 2],
    pub(crate) recipe: bool,
}

impl CrashGuard {
    /// Crash inputs of this run go to `dir`; `replay` is printed after the seed (how to run the
    /// test again).
    pub(crate) fn new(dir: &Path, seed: u64, replay: &str) -> CrashGuard {
        imp::install();
        CrashGuard {
            report: Box::new(imp::Report::new(dir, seed, replay)),
        }
    }

    /// Marks the start of a property call on `input`, whose bytes must stay unchanged until the
    /// returned token is dropped.
    #[inline]
    pub(crate) fn arm(&self, input: InFlight<'_>) -> Armed {
        Armed {
            previous: imp::arm(&self.report, input),
        }
    }
}

impl Drop for Armed {
    #[inline]
    fn drop(&mut self) {
        imp::disarm(self.previous);
    }
}

/// Keeps the message of a panic the engine silenced, so that if the panic turns out not to
/// unwind (a panic while panicking aborts the process) the crash report can show it.
pub(crate) fn remember_panic(message: &str) {
    imp::remember_panic(message);
}

#[cfg(all(unix, not(fuzzing), not(miri)))]
mod imp {
    use std::cell::{Cell, UnsafeCell};
    use std::ffi::c_int;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::ptr;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Once, OnceLock};

    const SIGNALS: [c_int; 5] = [
        libc::SIGABRT,
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGILL,
        libc::SIGFPE,
    ];
    /// Panic messages kept per call, at most (a property panicking in a loop stays bounded).
    const MAX_PANIC_TEXT: usize = 8 << 10;
    /// Threads without an alternate signal stack (or a smaller one) get one of this size.
    const ALTERNATE_STACK: usize = 64 << 10;
    const MIN_ALTERNATE_STACK: usize = 8 << 10;
    const DIGITS: usize = 40;

    /// What the handlers write; built before any call so the handlers only copy bytes.
    pub(crate) struct Report {
        /// `<dir>/crash-` + 40 hex digits (filled in by the handler) + `.recipe` + NUL; the
        /// handler ends the name after the digits for plain inputs.
        path: UnsafeCell<Vec<u8>>,
        digits_at: usize,
        trailer: Vec<u8>,
    }

    impl Report {
        pub(crate) fn new(dir: &Path, seed: u64, replay: &str) -> Report {
            let mut path = dir.as_os_str().as_bytes().to_vec();
            if !path.ends_with(b"/") {
                path.push(b'/');
            }
            path.extend_from_slice(b"crash-");
            let digits_at = path.len();
            path.extend_from_slice(&[b'0'; DIGITS]);
            path.extend_from_slice(RECIPE_SUFFIX);
            path.push(0);
            let trailer = format!("seed: TYPEFUZZ_SEED={seed}\nreplay: {replay}\n").into_bytes();
            Report {
                path: UnsafeCell::new(path),
                digits_at,
                trailer,
            }
        }
    }

    const RECIPE_SUFFIX: &[u8] = b".recipe";

    /// The in-flight call of a thread: its report and its input's parts.
    #[derive(Clone, Copy)]
    pub(crate) struct Slot {
        report: *const Report,
        parts: [(*const u8, usize); 2],
        recipe: bool,
    }

    const EMPTY: Slot = Slot {
        report: ptr::null(),
        parts: [(ptr::null(), 0); 2],
        recipe: false,
    };

    thread_local! {
        // Const-initialized and without destructors: plain thread-local storage, which the
        // signal handlers may read.
        static CURRENT: Cell<Slot> = const { Cell::new(EMPTY) };
        static PANICS: Cell<*mut String> = const { Cell::new(ptr::null_mut()) };
        static STACK_CHECKED: Cell<bool> = const { Cell::new(false) };
    }

    static INSTALL: Once = Once::new();
    static PREVIOUS: OnceLock<[libc::sigaction; 5]> = OnceLock::new();
    /// Set by the first handler that reports: one report per process.
    static REPORTED: AtomicBool = AtomicBool::new(false);

    pub(crate) fn install() {
        INSTALL.call_once(|| unsafe {
            let mut previous: [libc::sigaction; 5] = std::mem::zeroed();
            for (slot, &signal) in previous.iter_mut().zip(&SIGNALS) {
                libc::sigaction(signal, ptr::null(), slot);
            }
            if PREVIOUS.set(previous).is_err() {
                return;
            }
            for &signal in &SIGNALS {
                let mut action: libc::sigaction = std::mem::zeroed();
                let handler: extern "C" fn(c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    on_signal;
                action.sa_sigaction = handler as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, ptr::null_mut());
            }
            libc::atexit(on_exit);
        });
    }

    #[inline]
    pub(crate) fn arm(report: &Report, input: super::InFlight<'_>) -> Slot {
        if !STACK_CHECKED.with(Cell::get) {
            ensure_alternate_stack();
            STACK_CHECKED.with(|checked| checked.set(true));
        }
        let [first, second] = input.parts;
        CURRENT.with(|current| {
            current.replace(Slot {
                report,
                parts: [
                    (first.as_ptr(), first.len()),
                    (second.as_ptr(), second.len()),
                ],
                recipe: input.recipe,
            })
        })
    }

    #[inline]
    pub(crate) fn disarm(previous: Slot) {
        CURRENT.with(|current| current.set(previous));
        let panics = PANICS.with(|panics| panics.replace(ptr::null_mut()));
        if !panics.is_null() {
            // SAFETY: only `remember_panic` stores here, a pointer from `Box::into_raw`.
            drop(unsafe { Box::from_raw(panics) });
        }
    }

    pub(crate) fn remember_panic(message: &str) {
        if CURRENT.with(Cell::get).report.is_null() {
            return;
        }
        PANICS.with(|panics| {
            if panics.get().is_null() {
                panics.set(Box::into_raw(Box::default()));
            }
            // SAFETY: a live `Box<String>` owned by this thread's slot.
            let text = unsafe { &mut *panics.get() };
            if text.len() < MAX_PANIC_TEXT {
                text.push_str(message);
                text.push('\n');
            }
        });
    }

    /// Gives this thread an alternate signal stack if it has none big enough, so the handler
    /// can run after a stack overflow. Rust's threads usually have one; it is kept then.
    fn ensure_alternate_stack() {
        unsafe {
            let mut current: libc::stack_t = std::mem::zeroed();
            if libc::sigaltstack(ptr::null(), &mut current) != 0 {
                return;
            }
            if current.ss_flags & libc::SS_DISABLE == 0 && current.ss_size >= MIN_ALTERNATE_STACK {
                return;
            }
            // Leaked on purpose: the stack must outlive every signal this thread may take.
            let stack: &'static mut [u8] = Box::leak(vec![0u8; ALTERNATE_STACK].into_boxed_slice());
            let new = libc::stack_t {
                ss_sp: stack.as_mut_ptr().cast(),
                ss_flags: 0,
                ss_size: stack.len(),
            };
            libc::sigaltstack(&new, ptr::null_mut());
        }
    }

    extern "C" fn on_signal(signal: c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        let reason: &[u8] = match signal {
            libc::SIGABRT => {
                b"the process aborted (std::process::abort, a panic that could not unwind such \
                  as a panic while panicking, or an allocation failure)"
            }
            libc::SIGSEGV => b"segmentation fault (SIGSEGV; a stack overflow ends this way)",
            libc::SIGBUS => b"bus error (SIGBUS)",
            libc::SIGILL => b"illegal instruction (SIGILL)",
            _ => b"arithmetic exception (SIGFPE)",
        };
        report(reason);
        // Hand the signal on to whoever handled it before (Rust's stack overflow message, the
        // default action that ends the process).
        unsafe {
            if let (Some(previous), Some(index)) =
                (PREVIOUS.get(), SIGNALS.iter().position(|&s| s == signal))
            {
                libc::sigaction(signal, &previous[index], ptr::null_mut());
            }
            // A fault re-executes the faulting instruction on return; a signal that was sent
            // (abort's raise, kill) must be raised again.
            if signal == libc::SIGABRT || info.is_null() || (*info).si_code <= 0 {
                libc::raise(signal);
            }
        }
    }

    extern "C" fn on_exit() {
        if report(b"`exit` was called (std::process::exit)") {
            write_all(
                2,
                b"typefuzz: ending the process with status 77 instead: a property that exits \
                  never passes\n",
            );
            unsafe { libc::_exit(super::CRASH_EXIT_CODE) };
        }
    }

    /// Saves and reports the dying thread's in-flight input; `false` if it has none (or another
    /// thread reported already). Async-signal-safe: no allocation, no locks.
    fn report(reason: &[u8]) -> bool {
        let Ok(slot) = CURRENT.try_with(Cell::get) else {
            return false;
        };
        if slot.report.is_null() || REPORTED.swap(true, Ordering::SeqCst) {
            return false;
        }
        // SAFETY: the slot is armed only while the report and the input bytes are alive and
        // unchanged (they belong to the property call this thread is running).
        let report = unsafe { &*slot.report };
        let parts = slot
            .parts
            .map(|(start, len)| unsafe { std::slice::from_raw_parts(start, len) });
        let path = unsafe { &mut *report.path.get() };
        write_all(2, b"\n==== typefuzz: ");
        write_all(2, reason);
        write_all(2, b" while a property was running ====\n");
        let end = if slot.recipe {
            path.len() - 1
        } else {
            report.digits_at + DIGITS
        };
        path[end] = 0;
        let saved = save(&mut path[..=end], report.digits_at, parts);
        let shown = &path[..end];
        if saved && slot.recipe {
            write_all(
                2,
                b"the input was saved, as a recipe (a seed and the mutations that made it, or the \
                  random state it was generated from), to ",
            );
            write_all(2, shown);
            write_all(
                2,
                b" (the next run of this test rebuilds the input from it and replays it first)\n",
            );
        } else if saved {
            write_all(2, b"the input was saved to ");
            write_all(2, shown);
            write_all(2, b" (the next run of this test replays it first)\n");
        } else {
            write_all(2, b"could not save the input to ");
            write_all(2, shown);
            write_all(2, b"\n");
        }
        if let Ok(panics) = PANICS.try_with(Cell::get) {
            if !panics.is_null() {
                // SAFETY: a live `Box<String>` of this thread, not being modified (the thread
                // is in this handler).
                let text = unsafe { &*panics };
                write_all(2, b"panics during this call:\n");
                write_all(2, text.as_bytes());
            }
        }
        write_all(2, &report.trailer);
        true
    }

    /// Writes the concatenated `parts` to `path` (NUL-terminated) with their SHA-1 filled in,
    /// creating missing directories.
    fn save(path: &mut [u8], digits_at: usize, parts: [&[u8]; 2]) -> bool {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut sha1 = sha1_smol::Sha1::new();
        for part in parts {
            sha1.update(part);
        }
        let digest = sha1.digest().bytes();
        for (index, byte) in digest.iter().enumerate() {
            path[digits_at + 2 * index] = HEX[usize::from(byte >> 4)];
            path[digits_at + 2 * index + 1] = HEX[usize::from(byte & 15)];
        }
        // mkdir -p, one level at a time (EEXIST is fine).
        for index in 1..digits_at {
            if path[index] == b'/' {
                path[index] = 0;
                unsafe { libc::mkdir(path.as_ptr().cast(), 0o755) };
                path[index] = b'/';
            }
        }
        let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC | libc::O_CLOEXEC;
        let fd = unsafe { libc::open(path.as_ptr().cast(), flags, 0o644 as libc::c_uint) };
        if fd < 0 {
            return false;
        }
        let written = parts.iter().all(|part| write_all(fd, part));
        unsafe { libc::close(fd) };
        written
    }

    fn write_all(fd: c_int, mut bytes: &[u8]) -> bool {
        while !bytes.is_empty() {
            let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
            if n <= 0 {
                return false;
            }
            bytes = &bytes[n as usize..];
        }
        true
    }
}

/// Elsewhere (and under cargo-fuzz, where libFuzzer catches crashes, and under Miri, which
/// cannot run signal handlers): nothing.
#[cfg(not(all(unix, not(fuzzing), not(miri))))]
mod imp {
    use std::path::Path;

    pub(crate) struct Report;

    impl Report {
        pub(crate) fn new(_: &Path, _: u64, _: &str) -> Report {
            Report
        }
    }

    #[derive(Clone, Copy)]
    pub(crate) struct Slot;

    pub(crate) fn install() {}

    #[inline]
    pub(crate) fn arm(_: &Report, _: super::InFlight<'_>) -> Slot {
        Slot
    }

    #[inline]
    pub(crate) fn disarm(_: Slot) {}

    pub(crate) fn remember_panic(_: &str) {}
}
