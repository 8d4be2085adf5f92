//! The undo log: how the engine mutates a seed in place and puts it back after the test, so
//! that a mutant costs what its mutation changes rather than a clone and a drop of the whole
//! seed (issue 11: "mutation cost proportional to the part that changes").
//!
//! While the log is [recording](UndoLog::start), [`Mutate::mutate_undoable`] saves each place it
//! is about to change: [`UndoLog::save`] moves the original value out of the place into the
//! log and leaves a clone there, which the mutation then changes. [`UndoLog::undo`] moves the
//! originals back, newest first, dropping what the mutation made. A node rewritten whole
//! (regeneration, subterm, a constructor transition) is not cloned: [`UndoLog::keep`] logs the
//! old value as it is, and a wrap is logged by [`UndoLog::wrapped`] and undone by moving the value
//! back out of its wrapper. The derived impls and the container impls save only the node an
//! operator rewrites (a replaced subterm, a `Vec` that gains an element, one integer leaf) and
//! descend into the field they mutate; every other impl is saved whole by the default
//! `mutate_undoable`, which is exactly as dear as the clone it replaces, and records nothing
//! inside it (its `mutate` may mutate temporaries, whose addresses are gone by the undo; debug
//! builds assert that no place in a stack frame newer than the one that started recording is
//! saved).
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

use core::alloc::Layout;
use core::mem::{self, ManuallyDrop, MaybeUninit};
use core::ptr;

/// Values up to this many words (and a word's alignment) are kept inside the record; larger
/// ones in an allocation of their own.
const INLINE_WORDS: usize = 4;

type Storage = MaybeUninit<[usize; INLINE_WORDS]>;

/// What a record keeps of the place it saved.
#[derive(Clone, Copy)]
enum Kept {
    /// The original value's bytes: inline when they fit the storage, else in an allocation of
    /// `layout` whose pointer the storage holds. `drop` is the value type's drop glue
    /// (`ptr::drop_in_place::<T>`): everything else about the value is bytes, so the code of a
    /// record is compiled once, not once per saved type in the user's crate.
    Value {
        layout: Layout,
        drop: unsafe fn(*mut ()),
    },
    /// The place's value went into a wrapper as the subterm whose index the storage holds;
    /// `unwrap` (`unwrap::<T>`) moves it back out.
    Wrapped { unwrap: unsafe fn(*mut (), usize) },
}

/// One saved place and what it held.
struct Record {
    /// The place (a `*mut T`).
    slot: *mut (),
    storage: Storage,
    kept: Kept,
}

/// `ptr::drop_in_place::<T>` as a function of an untyped pointer.
fn drop_glue<T>() -> unsafe fn(*mut ()) {
    let glue: unsafe fn(*mut T) = ptr::drop_in_place::<T>;
    // SAFETY: the same function; a `*mut T` of a sized `T` is passed like a `*mut ()`.
    unsafe { mem::transmute::<unsafe fn(*mut T), unsafe fn(*mut ())>(glue) }
}

/// [`Kept::Wrapped`]'s undo: the value at `slot` is a wrapper holding the original as its
/// subterm number `index`; the original moves back out, the wrapper is dropped.
///
/// # Safety
/// `slot` is a live `*mut T` holding that wrapper.
unsafe fn unwrap<T: crate::Mutate>(slot: *mut (), index: usize) {
    // SAFETY: the caller's.
    let place = unsafe { &mut *slot.cast::<T>() };
    // Placeholders at size 0 from a context of its own: undoing draws nothing from the search's.
    let mut cx = super::Context::new(0);
    let mut wrapper = mem::replace(place, cx.generate_sized(0));
    let placeholder = cx.generate_sized(0);
    match crate::__private::replace_subterm(&mut wrapper, index, placeholder) {
        Some(original) => *place = original,
        None => unreachable!("a wrapper keeps its subterm until undone"),
    }
}

impl Record {
    /// A record of `slot`, which held the value whose bytes are at `original` (now owned by
    /// the record).
    ///
    /// # Safety
    /// `original` points to a value of `layout` that nothing else will drop.
    unsafe fn value(
        slot: *mut (),
        original: *const u8,
        layout: Layout,
        drop: unsafe fn(*mut ()),
    ) -> Record {
        let mut storage = Storage::uninit();
        let inline = layout.size() <= mem::size_of::<Storage>()
            && layout.align() <= mem::align_of::<Storage>();
        // SAFETY: the bytes are copied into room of their size and alignment.
        unsafe {
            if inline {
                ptr::copy_nonoverlapping(
                    original,
                    storage.as_mut_ptr().cast::<u8>(),
                    layout.size(),
                );
            } else {
                let block = if layout.size() == 0 {
                    layout.align() as *mut u8
                } else {
                    let block = std::alloc::alloc(layout);
                    if block.is_null() {
                        std::alloc::handle_alloc_error(layout);
                    }
                    block
                };
                ptr::copy_nonoverlapping(original, block, layout.size());
                storage.as_mut_ptr().cast::<*mut u8>().write(block);
            }
        }
        Record {
            slot,
            storage,
            kept: Kept::Value { layout, drop },
        }
    }

    /// Where the original's bytes are, and whether that is an allocation of its own.
    fn original(&mut self, layout: Layout) -> (*mut u8, bool) {
        let inline = layout.size() <= mem::size_of::<Storage>()
            && layout.align() <= mem::align_of::<Storage>();
        if inline {
            (self.storage.as_mut_ptr().cast::<u8>(), false)
        } else {
            // SAFETY: `value` wrote the allocation's pointer.
            (
                unsafe { self.storage.as_ptr().cast::<*mut u8>().read() },
                layout.size() != 0,
            )
        }
    }

    /// Puts the original back, or (not `restore`) drops it.
    ///
    /// # Safety
    /// With `restore`, the place must be alive and hold a value of the record's type (see the
    /// module docs).
    unsafe fn finish(self, restore: bool) {
        let mut this = ManuallyDrop::new(self);
        match this.kept {
            Kept::Value { layout, drop } => {
                let (original, allocated) = this.original(layout);
                // SAFETY: the caller's; the original's bytes are valid and owned by the record.
                // Swapped first, so the place holds the original even if the drop panics.
                unsafe {
                    if restore {
                        ptr::swap_nonoverlapping(original, this.slot.cast::<u8>(), layout.size());
                    }
                    drop(original.cast());
                    if allocated {
                        std::alloc::dealloc(original, layout);
                    }
                }
            }
            Kept::Wrapped { unwrap } => {
                if restore {
                    // SAFETY: the caller's; the storage holds the index `wrapped` wrote.
                    unsafe { unwrap(this.slot, this.storage.as_ptr().cast::<usize>().read()) }
                }
            }
        }
    }
}

impl Drop for Record {
    fn drop(&mut self) {
        let record = Record {
            slot: self.slot,
            storage: self.storage,
            kept: self.kept,
        };
        // SAFETY: a record not restored still owns its original; dropping it needs no place.
        unsafe { record.finish(false) }
    }
}

/// The places a mutation changed, with their original values (see the module docs). Kept in
/// the [`Context`](super::Context); records nothing unless the engine started it.
#[derive(Default)]
pub(crate) struct UndoLog {
    recording: bool,
    records: Vec<Record>,
    /// Debug builds: an address in the frame that started recording. The stack grows down, so
    /// a place between a later frame and this one is a temporary of the mutation (a map's key
    /// mutated out of the map), which must never be saved: it is gone by the undo.
    #[cfg(debug_assertions)]
    frame: usize,
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
    /// Starts recording (after dropping any records left). Debug builds inline it, so that the
    /// frame it marks is its caller's: every frame the caller calls afterwards (the mutation)
    /// lies below every place of that frame, so a saved place between the mark and the frame
    /// saving it is a temporary. The caller keeps the value being mutated out of its own frame
    /// (on the heap, or in a frame above), where its order against the mark is unknown.
    #[cfg_attr(debug_assertions, inline(always))]
    #[cfg_attr(not(debug_assertions), inline(never))]
    pub(crate) fn start(&mut self) {
        self.records.clear();
        self.recording = true;
        #[cfg(debug_assertions)]
        {
            let marker = 0u8;
            self.frame = core::hint::black_box(&marker) as *const u8 as usize;
        }
    }

    /// Before a change of `place` (recording: see [`Context::save`](super::Context::save)):
    /// moves its value into the log and leaves a clone in its place.
    #[inline(never)]
    pub(crate) fn save<T: Clone>(&mut self, place: &mut T) {
        let copy = place.clone();
        let original = mem::replace(place, copy);
        self.keep(place, original);
    }

    /// Stops recording, returning whether it was ([`resume`](Self::resume) takes it back).
    #[inline]
    pub(crate) fn pause(&mut self) -> bool {
        core::mem::replace(&mut self.recording, false)
    }

    /// Records again if `recording` (what [`pause`](Self::pause) returned).
    #[inline]
    pub(crate) fn resume(&mut self, recording: bool) {
        self.recording = recording;
    }

    /// Whether saves are recorded (the engine is mutating a seed in place).
    #[inline]
    pub(crate) fn is_recording(&self) -> bool {
        self.recording
    }

    /// `place` was just given a new value and `original` is what it held: kept in the log
    /// (recording only), so a rewrite of a whole node costs no clone of it.
    pub(crate) fn keep<T>(&mut self, place: &mut T, original: T) {
        let original = ManuallyDrop::new(original);
        // SAFETY: the record owns the original from here (it is not dropped here).
        unsafe {
            self.keep_bytes(
                (place as *mut T).cast(),
                (&*original as *const T).cast(),
                Layout::new::<T>(),
                drop_glue::<T>(),
            );
        }
    }

    /// [`keep`](Self::keep) past its generic part: compiled once (the debug builds' check
    /// too, which would otherwise be compiled again for every type saved).
    ///
    /// # Safety
    /// As [`Record::value`].
    unsafe fn keep_bytes(
        &mut self,
        slot: *mut (),
        original: *const u8,
        layout: Layout,
        drop: unsafe fn(*mut ()),
    ) {
        debug_assert!(self.recording);
        #[cfg(debug_assertions)]
        {
            // One frame deeper than `keep`'s caller: a temporary of that caller still lies
            // between this frame and the one that started recording.
            let marker = 0u8;
            let here = core::hint::black_box(&marker) as *const u8 as usize;
            assert!(
                !(here..self.frame).contains(&(slot as usize)),
                "typefuzz: a mutation saved a temporary of its own (a value on the stack) for the \
                 undo: a `mutate_undoable` override called on something that is not in place"
            );
        }
        // SAFETY: the caller's.
        let record = unsafe { Record::value(slot, original, layout, drop) };
        self.records.push(record);
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
            storage,
            kept: Kept::Wrapped {
                unwrap: unwrap::<T>,
            },
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
            unsafe { record.finish(true) }
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

    /// Starts `log` in a frame of its own, below the test's, which holds the values saved.
    #[inline(never)]
    fn started(log: &mut UndoLog) {
        log.start();
    }

    #[test]
    fn nested_saves_undo_to_the_original_inline_and_boxed() {
        // A `Vec` (inline, three words) and a large array (boxed), saved in nested places.
        let mut value = (vec![vec![1u8, 2], vec![3]], [7u64; 16]);
        let before = value.clone();
        let mut log = UndoLog::default();
        started(&mut log);
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

    /// A place in a frame newer than the one that started recording is a temporary of the
    /// mutation, gone by the undo: debug builds refuse to save it.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "saved a temporary of its own")]
    fn debug_builds_refuse_to_save_a_temporary() {
        // The engine's shape: it starts the log, then calls `Context::mutate_undoable`, which
        // calls the value's `mutate_undoable`, whose temporaries are two calls down.
        #[inline(never)]
        fn mutate_a_temporary(log: &mut UndoLog) {
            let mut temporary = core::hint::black_box(vec![1u8]);
            log.save(&mut temporary);
        }
        #[inline(never)]
        fn mutate(log: &mut UndoLog) {
            mutate_a_temporary(core::hint::black_box(log));
        }
        let mut log = UndoLog::default();
        log.start(); // in this frame, which holds no value
        mutate(&mut log);
    }

    #[test]
    fn nothing_is_saved_unless_recording_and_discard_keeps_the_mutant() {
        let mut value = vec![String::from("a")];
        let mut cx = crate::Context::new(1);
        cx.save(&mut value);
        assert!(cx.undo_log().records.is_empty());
        let log = cx.undo_log();
        started(log);
        log.save(&mut value[0]);
        value[0].push('b');
        log.discard();
        assert_eq!(value, ["ab"]);
        assert!(log.records.is_empty() && !log.recording);
    }

    #[test]
    fn every_value_is_dropped_once_restored_discarded_or_zero_sized() {
        use std::rc::Rc;
        let counter = Rc::new(());
        // Inline (one `Rc`) and allocated (an array of them) originals.
        let mut small = Rc::clone(&counter);
        let mut large: [Rc<()>; 8] = core::array::from_fn(|_| Rc::clone(&counter));
        let mut unit = ();
        let mut log = UndoLog::default();
        started(&mut log);
        log.save(&mut small);
        log.save(&mut large);
        log.save(&mut unit);
        assert_eq!(
            Rc::strong_count(&counter),
            1 + 2 * 9,
            "originals kept, clones in place"
        );
        unsafe { log.undo() };
        assert_eq!(Rc::strong_count(&counter), 1 + 9, "the clones dropped");
        started(&mut log);
        log.save(&mut small);
        log.save(&mut large);
        log.discard();
        assert_eq!(
            Rc::strong_count(&counter),
            1 + 9,
            "the originals dropped, clones kept"
        );
        drop((small, large));
        assert_eq!(Rc::strong_count(&counter), 1);
    }
}
