//! Recorder: the thread-local observation of one property call (labels hit, target values,
//! assume scores), plus the process-wide registries that give each name or call site a small id.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// Interns names (or call sites) to dense ids, so recording is an index, not a string hash.
pub(crate) struct Registry {
    entries: Mutex<Vec<(&'static str, &'static str)>>,
}

impl Registry {
    pub(crate) const fn new() -> Self {
        Registry {
            entries: Mutex::new(Vec::new()),
        }
    }

    /// The id of `key`, registering it with `detail` the first time. `unique` registers every
    /// call anew (call sites, whose statics are already unique); otherwise equal keys share an id.
    pub(crate) fn intern(&self, key: &'static str, detail: &'static str, unique: bool) -> u32 {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if !unique {
            if let Some(id) = entries.iter().position(|(k, _)| *k == key) {
                return id as u32;
            }
        }
        entries.push((key, detail));
        (entries.len() - 1) as u32
    }

    /// The key and detail of `id`.
    pub(crate) fn get(&self, id: u32) -> (&'static str, &'static str) {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.get(id as usize).copied().unwrap_or(("?", ""))
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// A lazily assigned id, stored in the `static` a macro expansion declares at its call site.
pub(crate) struct LazyId(AtomicU32);

impl LazyId {
    pub(crate) const fn new() -> Self {
        LazyId(AtomicU32::new(u32::MAX))
    }

    #[inline]
    pub(crate) fn get(&self, assign: impl FnOnce() -> u32) -> u32 {
        let id = self.0.load(Ordering::Relaxed);
        if id != u32::MAX {
            return id;
        }
        // Two threads may race here; both intern the same key (or, for unique sites, the loser's
        // id is simply never used again), which is harmless.
        let id = assign();
        self.0.store(id, Ordering::Relaxed);
        id
    }
}

/// What the property did during the current call.
pub(crate) struct LastRun {
    active: bool,
    /// Label ids hit, each once.
    pub(crate) labels: Vec<u32>,
    label_hit: Vec<bool>,
    /// `(target id, value)`, each id once, with its maximum.
    pub(crate) targets: Vec<(u32, f64)>,
    /// `(assume site id, score)`, each id once, with its minimum (the conjunction of the calls).
    pub(crate) assumes: Vec<(u32, f64)>,
}

impl LastRun {
    const fn new() -> Self {
        LastRun {
            active: false,
            labels: Vec::new(),
            label_hit: Vec::new(),
            targets: Vec::new(),
            assumes: Vec::new(),
        }
    }
}

thread_local! {
    static LAST_RUN: RefCell<LastRun> = const { RefCell::new(LastRun::new()) };
}

/// Starts recording on this thread, forgetting the previous call.
pub(crate) fn begin_run() {
    LAST_RUN.with(|cell| {
        let mut run = cell.borrow_mut();
        let LastRun {
            labels,
            label_hit,
            targets,
            assumes,
            active,
        } = &mut *run;
        for &id in labels.iter() {
            label_hit[id as usize] = false;
        }
        labels.clear();
        targets.clear();
        assumes.clear();
        *active = true;
    });
    super::cmplog::begin_run();
}

/// Stops recording on this thread (what the property did stays readable).
pub(crate) fn end_run() {
    LAST_RUN.with(|cell| cell.borrow_mut().active = false);
    super::cmplog::end_run();
}

/// Reads what the last call recorded.
pub(crate) fn with_last_run<R>(f: impl FnOnce(&LastRun) -> R) -> R {
    LAST_RUN.with(|cell| f(&cell.borrow()))
}

#[inline]
pub(crate) fn record_label(id: u32) {
    // `try_with`: recording from a thread-local destructor must not panic.
    let _ = LAST_RUN.try_with(|cell| {
        let Ok(mut run) = cell.try_borrow_mut() else {
            return;
        };
        if !run.active {
            return;
        }
        let index = id as usize;
        if run.label_hit.len() <= index {
            run.label_hit.resize(index + 1, false);
        }
        if !run.label_hit[index] {
            run.label_hit[index] = true;
            run.labels.push(id);
        }
    });
}

#[inline]
pub(crate) fn record_target(id: u32, value: f64) {
    let _ = LAST_RUN.try_with(|cell| {
        let Ok(mut run) = cell.try_borrow_mut() else {
            return;
        };
        if !run.active {
            return;
        }
        match run.targets.iter_mut().find(|(i, _)| *i == id) {
            Some((_, best)) => *best = best.max(value),
            None => run.targets.push((id, value)),
        }
    });
}

#[inline]
pub(crate) fn record_assume(id: u32, score: f64) {
    let _ = LAST_RUN.try_with(|cell| {
        let Ok(mut run) = cell.try_borrow_mut() else {
            return;
        };
        if !run.active {
            return;
        }
        match run.assumes.iter_mut().find(|(i, _)| *i == id) {
            Some((_, worst)) => *worst = worst.min(score),
            None => run.assumes.push((id, score)),
        }
    });
}
