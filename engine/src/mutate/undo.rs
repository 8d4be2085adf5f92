//! The undo log: how the engine mutates a seed in place and puts it back after the test, so
//! that a mutant costs what its mutation changes rather than a clone and a drop of the whole
//! seed (issue 11: "mutation cost proportional to the part that changes").
//!
//! While the log is [recording](UndoLog::start), [`Mutate::mutate_undoable`] saves each place it
//! is about to change: [`UndoLog::save`] moves the original value out of the place into the
//! log and leaves a clone there, which the mutation then changes. [`UndoLog::undo`] moves the
//! originals back, newest first, dropping what the mutation made. The derived impls and the
//! container impls save only the node an operator rewrites (a replaced subterm, a `Vec` that
//! gains an element, one integer leaf) and descend into the field they mutate; every other impl
//! is saved whole by the default `mutate_undoable`, which is exactly as dear as the clone it
//! replaces.
//!
//! # Why the pointers stay valid
//!
//! A record holds the address of the place it saved. Undoing newest first restores memory to
//! the state each record saw: a save moves the original out and never touches the original's
//! heap (boxes, vector buffers) again, so a place inside it that an older record names is
//! alive (owned by the log) and unchanged until the newer record moves it back. The engine
//! keeps the mutated value where it is (no move) between [`start`](UndoLog::start) and
//! [`undo`](UndoLog::undo), and runs the property on it by shared reference.
//!
//! The addresses are raw pointers taken from the `&mut` each save was given. A later mutation
//! reborrows the value from its root again before the older pointers are written through at
//! undo time; no reference to the value is live then, and the pointers have escaped into the
//! log, so the compiler cannot assume them unused, but Rust's proposed aliasing models (Stacked
//! and Tree Borrows, as Miri checks them) treat such a write through a pointer older than the
//! last reborrow as undefined. Miri is not installed on the machine this was written on; the
//! behaviour is checked by `__private::check_undo` (every derived shape of
//! `tests/derive_shapes.rs`, the std types, and every mutant of the engine's own unit tests).

use core::mem::{self, MaybeUninit};

/// Values up to this many words (and a word's alignment) are kept inside the record; larger
/// ones in a box of their own.
const INLINE_WORDS: usize = 4;

type Storage = MaybeUninit<[usize; INLINE_WORDS]>;

/// Whether a `T` is kept inline in a record's [`Storage`].
const fn fits<T>() -> bool {
    mem::size_of::<T>() <= mem::size_of::<Storage>()
        && mem::align_of::<T>() <= mem::align_of::<Storage>()
}

/// One saved place and the value it held.
struct Record {
    /// The place (a `*mut T`).
    slot: *mut (),
    /// The original `T`, inline when it [`fits`], else a `Box<T>`'s pointer; or what `finish`
    /// needs instead (wrapping: an index).
    original: Storage,
    /// With `restore`: moves the original back into the place, dropping what is there; else
    /// drops the original (the log was discarded). One function per type, not two: each is
    /// compiled once per saved type, in the user's crate.
    finish: unsafe fn(*mut (), &mut Storage, bool),
}

/// [`UndoLog::wrapped`]'s restore: the value at `slot` is a wrapper holding the original as its
/// subterm number `index` (in the storage); the original moves back out, the wrapper is dropped.
///
/// # Safety
/// With `restore`, `slot` is a live `*mut T` holding that wrapper.
unsafe fn unwrap<T: crate::Mutate>(slot: *mut (), storage: &mut Storage, restore: bool) {
    if !restore {
        return;
    }
    // SAFETY: the caller's; the storage holds the index `wrapped` wrote.
    let (place, index) = unsafe { (&mut *slot.cast::<T>(), storage.as_ptr().cast::<usize>().read()) };
    // Placeholders at size 0 from a context of its own: undoing draws nothing from the search's.
    let mut cx = super::Context::new(0);
    let mut wrapper = mem::replace(place, cx.generate_sized(0));
    let placeholder = cx.generate_sized(0);
    match crate::__private::replace_subterm(&mut wrapper, index, placeholder) {
        Some(original) => *place = original,
        None => unreachable!("a wrapper keeps its subterm until undone"),
    }
}

/// A record of `slot`, which held `original`.
fn record<T>(slot: &mut T, original: T) -> Record {
    let mut storage = Storage::uninit();
    // SAFETY: `storage` is big and aligned enough for a `T` when `fits::<T>()`, and for a
    // pointer always (`INLINE_WORDS >= 1`).
    unsafe {
        if fits::<T>() {
            storage.as_mut_ptr().cast::<T>().write(original);
        } else {
            let boxed = Box::into_raw(Box::new(original));
            storage.as_mut_ptr().cast::<*mut T>().write(boxed);
        }
    }
    Record {
        slot: (slot as *mut T).cast(),
        original: storage,
        finish: finish::<T>,
    }
}

/// [`Record::finish`] for a `T` saved by [`record`]: takes the original out of the storage and
/// moves it back into the place (`restore`) or drops it.
///
/// # Safety
/// `storage` holds the original, taken once; with `restore`, `slot` is a live `*mut T`.
unsafe fn finish<T>(slot: *mut (), storage: &mut Storage, restore: bool) {
    // SAFETY: the caller's: the storage holds what `record` wrote for a `T`.
    let original = unsafe {
        if fits::<T>() {
            storage.as_mut_ptr().cast::<T>().read()
        } else {
            *Box::from_raw(storage.as_mut_ptr().cast::<*mut T>().read())
        }
    };
    if restore {
        // SAFETY: the caller's.
        drop(unsafe { mem::replace(&mut *slot.cast::<T>(), original) });
    } else {
        drop(original);
    }
}

impl Record {
    /// Puts the original back.
    ///
    /// # Safety
    /// The place must be alive and hold a `T` (see the module docs).
    unsafe fn restore(self) {
        let mut this = mem::ManuallyDrop::new(self);
        // SAFETY: the caller's; `this` is not dropped, so the original is taken once.
        unsafe { (this.finish)(this.slot, &mut this.original, true) }
    }
}

impl Drop for Record {
    fn drop(&mut self) {
        // SAFETY: a record not restored still owns its original.
        unsafe { (self.finish)(self.slot, &mut self.original, false) }
    }
}

/// The places a mutation changed, with their original values (see the module docs). Kept in
/// the [`Context`](super::Context); records nothing unless the engine started it.
#[derive(Default)]
pub(crate) struct UndoLog {
    recording: bool,
    records: Vec<Record>,
}

// SAFETY: the records point into the value the engine is mutating on this thread; they exist
// only between `start` and `undo`/`discard`, within one engine call that owns that value.
unsafe impl Send for UndoLog {}
// SAFETY: `&UndoLog` gives no access to the records.
unsafe impl Sync for UndoLog {}

impl Clone for UndoLog {
    /// A clone records nothing: the records belong to the mutation in flight.
    fn clone(&self) -> Self {
        UndoLog::default()
    }
}

impl core::fmt::Debug for UndoLog {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UndoLog")
            .field("recording", &self.recording)
            .field("records", &self.records.len())
            .finish()
    }
}

impl UndoLog {
    /// Starts recording (after dropping any records left).
    pub(crate) fn start(&mut self) {
        self.records.clear();
        self.recording = true;
    }

    /// Before a change of `place`: moves its value into the log and leaves a clone in its
    /// place, when recording; does nothing otherwise.
    #[inline]
    pub(crate) fn save<T: Clone>(&mut self, place: &mut T) {
        if self.recording {
            self.save_now(place);
        }
    }

    #[inline(never)]
    fn save_now<T: Clone>(&mut self, place: &mut T) {
        let copy = place.clone();
        let original = mem::replace(place, copy);
        self.records.push(record(place, original));
    }

    /// Whether saves are recorded (the engine is mutating a seed in place).
    #[inline]
    pub(crate) fn is_recording(&self) -> bool {
        self.recording
    }

    /// `place` was just given a new value and `original` is what it held: kept in the log
    /// (recording only), so a rewrite of a whole node costs no clone of it.
    pub(crate) fn replaced<T>(&mut self, place: &mut T, original: T) {
        debug_assert!(self.recording);
        self.records.push(record(place, original));
    }

    /// `place`'s value was just moved into a wrapper, as its subterm number `index`, and the
    /// wrapper put in its place (constructor grow by wrapping): undoing moves it back out.
    pub(crate) fn wrapped<T: crate::Mutate>(&mut self, place: &mut T, index: usize) {
        debug_assert!(self.recording);
        let mut storage = Storage::uninit();
        // SAFETY: a `usize` fits the storage.
        unsafe { storage.as_mut_ptr().cast::<usize>().write(index) };
        self.records.push(Record {
            slot: (place as *mut T).cast(),
            original: storage,
            finish: unwrap::<T>,
        });
    }

    /// Stops recording and puts every saved place back, newest first.
    ///
    /// # Safety
    /// Every place saved since [`start`](Self::start) must still be where it was, alive and
    /// changed only through the mutation that saved it (the module docs' conditions).
    pub(crate) unsafe fn undo(&mut self) {
        self.recording = false;
        while let Some(record) = self.records.pop() {
            // SAFETY: the caller's; newest first, each place is as its record saw it.
            unsafe { record.restore() }
        }
    }

    /// Stops recording and drops the records without undoing (the mutated value is kept).
    #[cfg(test)]
    fn discard(&mut self) {
        self.recording = false;
        self.records.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::UndoLog;

    #[test]
    fn nested_saves_undo_to_the_original_inline_and_boxed() {
        // A `Vec` (inline, three words) and a large array (boxed), saved in nested places.
        let mut value = (vec![vec![1u8, 2], vec![3]], [7u64; 16]);
        let before = value.clone();
        let mut log = UndoLog::default();
        log.start();
        log.save(&mut value.0[1]);
        value.0[1].push(4);
        log.save(&mut value.0);
        value.0.insert(0, vec![9; 100]);
        log.save(&mut value.0[2]);
        value.0[2].clear();
        log.save(&mut value.1);
        value.1[3] = 0;
        assert_ne!(value, before);
        unsafe { log.undo() };
        assert_eq!(value, before);
    }

    #[test]
    fn nothing_is_saved_unless_recording_and_discard_keeps_the_mutant() {
        let mut value = vec![String::from("a")];
        let mut log = UndoLog::default();
        log.save(&mut value);
        assert!(log.records.is_empty());
        log.start();
        log.save(&mut value[0]);
        value[0].push('b');
        log.discard();
        assert_eq!(value, ["ab"]);
        assert!(log.records.is_empty() && !log.recording);
    }
}
