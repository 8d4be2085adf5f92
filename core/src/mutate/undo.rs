//! The undo log: how the engine mutates a seed in place and puts it back after the test, so
//! that a mutant costs what its mutation changes rather than a clone and a drop of the whole
//! seed: mutation cost proportional to the part that changes.
//!
//! While the log is [recording](UndoLog::start),
//! [`Mutate::mutate_undoable`](crate::Mutate::mutate_undoable) saves each place it is about to
//! change: [`UndoLog::save`] moves the original value out of the place into the log and leaves
//! a clone there, which the mutation then changes. [`UndoLog::undo`] moves the
//! originals back, newest first, dropping what the mutation made. A node rewritten whole
//! (regeneration, a constructor transition) is not cloned: [`UndoLog::keep`] logs the old value
//! as it is; a wrap is logged by [`UndoLog::wrapped`] and undone by moving the value back out of
//! its wrapper; a node replaced by its own subterm is logged by [`UndoLog::lifted`] (the old
//! node, a placeholder where the subterm was) and undone by moving the subterm back down into
//! it. The derived impls and the container impls save only the node an operator rewrites (a
//! replaced subterm, a `Vec` that gains an element, one integer leaf) and descend into the field
//! they mutate; every other impl is saved whole by the default
//! `mutate_undoable`, which is exactly as dear as the clone it replaces, and records nothing
//! inside it (its `mutate` may mutate temporaries, whose addresses are gone by the undo; debug
//! builds assert that no place in a stack frame newer than the one that started recording is
//! saved).
//!
//! # Why the places are reached again from the root
//!
//! Undoing newest first restores memory to the state each record saw: a save moves the original
//! out and never touches the original's heap (boxes, vector buffers) again, so a place inside it
//! that an older record names is alive (owned by the log) and unchanged until the newer record
//! moves it back. The engine keeps the mutated value where it is (no move) between
//! [`start`](UndoLog::start) and [`undo`](UndoLog::undo), and runs the property on it by shared
//! reference. So each saved place is at the address it had when it was saved.
//!
//! An address is not enough to write through, though: a pointer kept from the `&mut` a save was
//! given is stale by the undo (a later mutation reborrowed the value from its root and wrote
//! to the same bytes, the property read them through a shared reborrow), and writing through it
//! is undefined behaviour under Rust's aliasing models (Miri's Stacked and Tree Borrows both
//! reject it). So a record keeps the place's *address* and the way down to it, and the undo
//! derives every pointer afresh from the root it is handed: within one allocation a place is
//! reached by its offset from the pointer to the allocation, and a mutation that descends into
//! another allocation (the contents of a `Box`, the buffer of a `Vec` or `VecDeque`) logs a
//! [`Hop`] while it is down there ([`UndoLog::enter`]): the container's address and how to get
//! a pointer into what it owns from a pointer to the container. The undo replays a record's hops
//! from the root, each through a fresh reborrow of the container, then writes through the
//! pointer it arrived with. `cargo +nightly miri test -p typefuzz-core --lib undo` checks it
//! under Stacked Borrows, and with `MIRIFLAGS=-Zmiri-tree-borrows` under Tree Borrows.

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
    /// The place's value was replaced by its own subterm, moved up out of it (subterm
    /// replacement): the original, which holds a placeholder where that subterm was, lies in
    /// an allocation of `layout` whose pointer is the storage's first word, the subterm's index
    /// its second. `lift` (`lift_back::<T>`) moves the place's value back into the original and
    /// the original back into the place, or (not restoring) drops the original.
    Lifted {
        layout: Layout,
        lift: unsafe fn(*mut (), *mut u8, usize, bool),
    },
}

/// One saved place and what it held.
struct Record {
    /// The place's address (a `*mut T` as it was saved; written through only as re-derived
    /// from the root, see the module docs).
    slot: *mut (),
    storage: Storage,
    kept: Kept,
    /// Its hops from the root: `UndoLog::paths[path.0..path.1]`.
    path: (u32, u32),
}

/// A step of a mutation into another allocation than its parent's (see the module docs): the
/// address of the container (a `Box`, `Vec` or `VecDeque`, inside the allocation reached so
/// far), and `enter`, which takes a pointer to that container and the address of a place in
/// what it owns and returns a pointer to that place, derived from a fresh reborrow of the
/// container.
#[derive(Clone, Copy)]
pub(crate) struct Hop {
    container: usize,
    enter: unsafe fn(*mut u8, usize) -> *mut u8,
}

impl Hop {
    /// A hop into what the container at `container` owns, entered by `enter` (see [`Hop`]).
    /// An address (`&mut c as *mut C as *mut u8`) rather than a reference: nothing compiled per
    /// container type.
    #[inline]
    pub(crate) fn new(container: *mut u8, enter: unsafe fn(*mut u8, usize) -> *mut u8) -> Hop {
        Hop {
            container: container as usize,
            enter,
        }
    }
}

/// [`Hop::enter`] into the contents of a `Box<T>`: the box's pointer. A `Box` of a sized type is
/// one pointer (std's documented layout), so one function serves every boxed type.
///
/// # Safety
/// `container` points to a live `Box<T>` of a sized `T`, valid for reads.
pub(crate) unsafe fn enter_box(container: *mut u8, _place: usize) -> *mut u8 {
    // SAFETY: the caller's; the box's bytes are its pointer, with the box's provenance.
    unsafe { container.cast::<*mut u8>().read() }
}

/// [`Hop::enter`] into the buffer of a `Vec<T>`.
///
/// # Safety
/// `container` points to a live `Vec<T>`, valid for reads and writes.
pub(crate) unsafe fn enter_vec<T>(container: *mut u8, _place: usize) -> *mut u8 {
    // `as` casts, not `cast`: nothing more compiled per element type.
    // SAFETY: the caller's.
    unsafe { (*(container as *mut Vec<T>)).as_mut_ptr() as *mut u8 }
}

/// [`Hop::enter`] into the buffer of a `VecDeque<T>`: the half of its ring that holds `place`.
///
/// # Safety
/// `container` points to a live `VecDeque<T>`, valid for reads and writes.
pub(crate) unsafe fn enter_deque<T>(container: *mut u8, place: usize) -> *mut u8 {
    // SAFETY: the caller's.
    let items = unsafe { &mut *(container as *mut std::collections::VecDeque<T>) };
    let (front, back) = items.as_mut_slices();
    let start = front.as_mut_ptr() as usize;
    if (start..start + mem::size_of_val(front)).contains(&place) {
        front.as_mut_ptr() as *mut u8
    } else {
        back.as_mut_ptr() as *mut u8
    }
}

/// `base` moved to `address`, keeping its provenance (the allocation it may access).
fn at(base: *mut u8, address: usize) -> *mut u8 {
    base.wrapping_add(address.wrapping_sub(base as usize))
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
    // It and the wrapper are held without drop glue across the calls, reached through plain
    // references (see "Unwind cleanups" in `derive_support.rs`).
    let mut context = ManuallyDrop::new(super::Context::new(0));
    let cx: &mut super::Context = &mut context;
    let mut wrapper = ManuallyDrop::new(mem::replace(place, cx.generate_sized(0)));
    let inside: &mut T = &mut wrapper;
    let placeholder = cx.generate_sized(0);
    match crate::__private::replace_subterm(inside, index, placeholder) {
        Some(original) => drop(mem::replace(place, original)),
        None => unreachable!("a wrapper keeps its subterm until undone"),
    }
    drop(ManuallyDrop::into_inner(wrapper));
    drop(ManuallyDrop::into_inner(context));
}

/// The bytes of a value of `layout` at `original`, copied into an allocation of their own
/// (dangling but aligned for a zero-sized value), which the caller frees with `layout`.
///
/// # Safety
/// `original` points to `layout.size()` readable bytes.
unsafe fn moved_out(original: *const u8, layout: Layout) -> *mut u8 {
    let block = if layout.size() == 0 {
        layout.align() as *mut u8
    } else {
        // SAFETY: a layout of non-zero size.
        let block = unsafe { std::alloc::alloc(layout) };
        if block.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        block
    };
    // SAFETY: the caller's; the block has room for the bytes.
    unsafe { ptr::copy_nonoverlapping(original, block, layout.size()) };
    block
}

/// Undoes a [`Kept::Lifted`] record: the value at `slot` (the subterm, as it was moved up) goes
/// back to subterm `index` of the original at `original` (taking the placeholder's place) and
/// the original goes back to `slot`; with `restore` false the original is only dropped.
///
/// # Safety
/// `original` points to the record's original `T`, which this takes; with `restore`, `slot` to
/// the place's live `T`, derived from the root (see the module docs).
unsafe fn lift_back<T: crate::Mutate>(
    slot: *mut (),
    original: *mut u8,
    index: usize,
    restore: bool,
) {
    let original = original.cast::<T>();
    if !restore {
        // SAFETY: the caller's.
        unsafe { ptr::drop_in_place(original) };
        return;
    }
    // SAFETY: the caller's. The place always holds a value: the original swapped in first,
    // then the subterm put back into it through the place, so a panic inside the subterm walk
    // (a hand-written `visit_subterms_mut`) drops the subterm once and leaves a valid value.
    unsafe {
        let place = &mut *slot.cast::<T>();
        let subterm = mem::replace(place, ptr::read(original));
        let placeholder = crate::__private::replace_subterm(place, index, subterm);
        debug_assert!(
            placeholder.is_some(),
            "the original keeps a place for its subterm"
        );
        drop(placeholder);
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
        path: (u32, u32),
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
                let block = moved_out(original, layout);
                storage.as_mut_ptr().cast::<*mut u8>().write(block);
            }
        }
        Record {
            slot,
            storage,
            kept: Kept::Value { layout, drop },
            path,
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

    /// Puts the original back at `slot` (the record's place, re-derived from the root), or (no
    /// `slot`) drops it.
    ///
    /// # Safety
    /// A `slot` must point to the record's place, alive and holding a value of the record's type
    /// (see the module docs), and be valid for writes.
    unsafe fn finish(self, slot: Option<*mut u8>) {
        let restore = slot.is_some();
        let slot = slot.unwrap_or(core::ptr::null_mut());
        let mut this = ManuallyDrop::new(self);
        match this.kept {
            Kept::Value { layout, drop } => {
                let (original, allocated) = this.original(layout);
                // SAFETY: the caller's; the original's bytes are valid and owned by the record.
                // Swapped first, so the place holds the original even if the drop panics.
                unsafe {
                    if restore {
                        ptr::swap_nonoverlapping(original, slot, layout.size());
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
                    unsafe { unwrap(slot.cast(), this.storage.as_ptr().cast::<usize>().read()) }
                }
            }
            // SAFETY: the storage's words are what `lifted` wrote; the block holds the
            // original until `lift` takes it, then is freed.
            Kept::Lifted { layout, lift } => unsafe {
                let words = this.storage.as_ptr().cast::<usize>();
                let (block, index) = (words.read() as *mut u8, words.add(1).read());
                lift(slot.cast(), block, index, restore);
                if layout.size() != 0 {
                    std::alloc::dealloc(block, layout);
                }
            },
        }
    }
}

impl Drop for Record {
    fn drop(&mut self) {
        let record = Record {
            slot: self.slot,
            storage: self.storage,
            kept: self.kept,
            path: self.path,
        };
        // SAFETY: a record not restored still owns its original; dropping it needs no place.
        unsafe { record.finish(None) }
    }
}

/// `UndoLog::changed_len` before the first record.
const NO_CHANGE: usize = usize::MAX;

/// The places a mutation changed, with their original values (see the module docs). Kept in
/// the [`Context`](super::Context); records nothing unless the engine started it.
#[derive(Default)]
pub(crate) struct UndoLog {
    pub(crate) recording: bool,
    records: Vec<Record>,
    /// The hops of the mutation from the root down to where it is now ([`enter`](Self::enter)).
    hops: Vec<Hop>,
    /// The records' hops, one run per record (`Record::path`).
    paths: Vec<Hop>,
    /// The children the mutation descended into from the root to where it is now, as the
    /// structure walk numbers them ([`enter_child`](Self::enter_child)).
    focus: Vec<u32>,
    /// The longest descent every record so far was made under: `changed[..changed_len]`, or
    /// `changed_len == NO_CHANGE` before the first record ([`changed`](Self::changed)).
    changed: Vec<u32>,
    changed_len: usize,
    /// The elements a sequence's own edit changed, when that edit is the only record: see
    /// [`note_elements`](Self::note_elements).
    elements: Option<(u32, u32)>,
    /// Debug builds: an address in the frame that started recording. The stack grows down, so
    /// a place between a later frame and this one is a temporary of the mutation (a map's key
    /// mutated out of the map), which must never be saved: it is gone by the undo.
    #[cfg(all(debug_assertions, not(miri)))]
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
        self.hops.clear();
        self.paths.clear();
        self.focus.clear();
        self.changed_len = NO_CHANGE;
        self.elements = None;
        self.recording = true;
        #[cfg(all(debug_assertions, not(miri)))]
        {
            let marker = 0u8;
            self.frame = core::hint::black_box(&marker) as *const u8 as usize;
        }
    }

    /// Before a change of `place` (recording: see [`Context::save`](super::Context::save)):
    /// moves its value into the log and leaves a clone in its place.
    #[inline(never)]
    pub(crate) fn save<T: crate::Mutate>(&mut self, place: &mut T) {
        let copy = place.duplicate();
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
        #[cfg(all(debug_assertions, not(miri)))]
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
        let path = self.path();
        // SAFETY: the caller's.
        let record = unsafe { Record::value(slot, original, layout, drop, path) };
        self.records.push(record);
    }

    /// The current hops, logged for a record (every record is made through here, which also
    /// narrows [`changed`](Self::changed) to the descent shared with this one).
    fn path(&mut self) -> (u32, u32) {
        self.elements = None;
        if self.changed_len == NO_CHANGE {
            self.changed.clear();
            self.changed.extend_from_slice(&self.focus);
            self.changed_len = self.focus.len();
        } else {
            let shared = (self.changed[..self.changed_len].iter())
                .zip(&self.focus)
                .take_while(|(a, b)| a == b)
                .count();
            self.changed_len = shared;
        }
        let start = self.paths.len() as u32;
        self.paths.extend_from_slice(&self.hops);
        (start, self.paths.len() as u32)
    }

    /// The mutation goes down into what a container owns (`hop`); returns whether it was
    /// logged (recording), for [`leave`](Self::leave). Every `mutate_undoable` that reaches
    /// into another allocation than its own brackets that with the two, so the undo can find
    /// the places saved down there (see the module docs).
    #[inline]
    pub(crate) fn enter(&mut self, hop: Hop) -> bool {
        if self.recording {
            self.hops.push(hop);
        }
        self.recording
    }

    /// The mutation came back up from the last [`enter`](Self::enter) (`entered`: what it
    /// returned).
    #[inline]
    pub(crate) fn leave(&mut self, entered: bool) {
        if entered {
            self.hops.pop();
        }
    }

    /// The mutation goes down into child number `index` of the node it is at, as the node's
    /// `visit_structure` numbers its children (a derived type's active field, a sequence's
    /// element); [`leave_child`](Self::leave_child) comes back up. Only impls whose walk follows
    /// the same numbering with `Structure::enter_at` bracket their descent with the two (the
    /// derive and the sequences); any other impl's descent is invisible here, so whatever it
    /// changes is recorded at its own node, which the walk then observes whole.
    #[inline]
    pub(crate) fn enter_child(&mut self, index: usize) {
        self.focus.push(u32::try_from(index).unwrap_or(u32::MAX));
    }

    /// Comes back up from [`enter_child`](Self::enter_child).
    #[inline]
    pub(crate) fn leave_child(&mut self) {
        self.focus.pop();
    }

    /// Where the mutation since [`start`](Self::start) changed the value: the children taken
    /// from the root down to the deepest node whose subtree holds every place it saved (empty:
    /// the root itself was saved, or places in more than one child of the root), or `None` when
    /// it saved nothing. Outside that subtree the mutant is the seed, node for node, so the
    /// structure feedback need only look inside it (`Structure::focus`).
    pub(crate) fn changed(&self) -> Option<&[u32]> {
        (self.changed_len != NO_CHANGE).then(|| &self.changed[..self.changed_len])
    }

    /// The sequence just saved (the only record so far, made where the mutation stands) was
    /// edited so that, in its new numbering, the elements `lo..hi` are new (inserted,
    /// duplicated, swapped, grown) and every other element is one it held before, shifted by
    /// the same amount on each side (`lo == hi` for a removal or truncation at `lo`). The
    /// structure walk then visits only the elements around `lo..hi` (`Structure::focus`).
    /// Ignored after any other record, or a later one: the numbering would not be this edit's.
    pub(crate) fn note_elements(&mut self, lo: usize, hi: usize) {
        if self.recording && self.records.len() == 1 && self.changed_len == self.focus.len() {
            let index = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
            self.elements = Some((index(lo), index(hi)));
        }
    }

    /// The elements of the changed node that a sequence edit changed, if the mutation was that
    /// edit alone (see [`note_elements`](Self::note_elements)); `None`: the node changed whole.
    pub(crate) fn changed_elements(&self) -> Option<(u32, u32)> {
        self.elements
    }

    /// `place` now holds what was its own subterm number `index`, moved up out of `original`
    /// (which holds a placeholder there since): undoing moves it back down into `original` and
    /// puts `original` back, so replacing a node by one of its subterms clones nothing.
    pub(crate) fn lifted<T: crate::Mutate>(&mut self, place: &mut T, original: T, index: usize) {
        let original = ManuallyDrop::new(original);
        // SAFETY: the record owns the original from here (it is not dropped here).
        unsafe {
            self.lifted_bytes(
                (place as *mut T).cast(),
                (&*original as *const T).cast(),
                Layout::new::<T>(),
                index,
                lift_back::<T>,
            );
        }
    }

    /// [`lifted`](Self::lifted) past its generic part: compiled once, as
    /// [`keep_bytes`](Self::keep_bytes).
    ///
    /// # Safety
    /// `original` points to a value of `layout` that nothing else will drop; `lift` is
    /// `lift_back` for its type.
    unsafe fn lifted_bytes(
        &mut self,
        slot: *mut (),
        original: *const u8,
        layout: Layout,
        index: usize,
        lift: unsafe fn(*mut (), *mut u8, usize, bool),
    ) {
        debug_assert!(self.recording);
        // SAFETY: the allocation holds the original from here; the record owns it and frees it
        // in `finish`.
        let block = unsafe { moved_out(original, layout) };
        let mut storage = Storage::uninit();
        // SAFETY: two words fit the storage.
        unsafe {
            let words = storage.as_mut_ptr().cast::<usize>();
            words.write(block as usize);
            words.add(1).write(index);
        }
        let path = self.path();
        self.records.push(Record {
            slot,
            storage,
            kept: Kept::Lifted { layout, lift },
            path,
        });
    }

    /// `place`'s value was just moved into a wrapper, as its subterm number `index`, and the
    /// wrapper put in its place (constructor grow by wrapping): undoing moves it back out.
    pub(crate) fn wrapped<T: crate::Mutate>(&mut self, place: &mut T, index: usize) {
        self.wrapped_at((place as *mut T).cast(), index, unwrap::<T>);
    }

    /// [`wrapped`](Self::wrapped) past its generic part: compiled once. `unwrap` is `unwrap`
    /// for the place's type.
    fn wrapped_at(&mut self, slot: *mut (), index: usize, unwrap: unsafe fn(*mut (), usize)) {
        debug_assert!(self.recording);
        let mut storage = Storage::uninit();
        // SAFETY: a `usize` fits the storage.
        unsafe { storage.as_mut_ptr().cast::<usize>().write(index) };
        let path = self.path();
        self.records.push(Record {
            slot,
            storage,
            kept: Kept::Wrapped { unwrap },
            path,
        });
    }

    /// Stops recording and puts every saved place back, newest first, each reached again from
    /// `root` (see the module docs).
    ///
    /// # Safety
    /// `root` must be the value the mutation was given since [`start`](Self::start), and every
    /// place saved since must still be where it was, alive and changed only through the
    /// mutation that saved it (the module docs' conditions).
    pub(crate) unsafe fn undo<T>(&mut self, root: &mut T) {
        // SAFETY: the caller's.
        unsafe { self.undo_from((root as *mut T).cast()) }
    }

    /// [`undo`](Self::undo) past its generic part: compiled once.
    ///
    /// # Safety
    /// As `undo`'s, `root` derived from its `root`.
    unsafe fn undo_from(&mut self, root: *mut u8) {
        self.recording = false;
        self.hops.clear();
        while let Some(record) = self.records.pop() {
            let hops = &self.paths[record.path.0 as usize..record.path.1 as usize];
            let mut base = root;
            for (index, hop) in hops.iter().enumerate() {
                // Where the next step goes: the next container, or the place itself.
                let next = match hops.get(index + 1) {
                    Some(next) => next.container,
                    None => record.slot as usize,
                };
                // SAFETY: newest first, memory is as the record saw it: the container is where
                // the hop found it, inside what `base` may access, and `next` is inside what it
                // owns.
                base = unsafe { (hop.enter)(at(base, hop.container), next) };
            }
            let slot = at(base, record.slot as usize);
            // SAFETY: the caller's; newest first, each place is as its record saw it, and `slot`
            // is derived from `root` through the hops that reached it.
            unsafe { record.finish(Some(slot)) }
        }
        self.paths.clear();
    }

    /// Stops recording and drops the records without undoing (the mutated value is kept).
    #[cfg(test)]
    fn discard(&mut self) {
        self.recording = false;
        self.records.clear();
        self.hops.clear();
        self.paths.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::{enter_box, enter_deque, enter_vec, Hop, UndoLog};

    /// Starts `log` in a frame of its own, below the test's, which holds the values saved.
    #[inline(never)]
    fn started(log: &mut UndoLog) {
        log.start();
    }

    /// Saves `value.0[index]` (down in the outer `Vec`'s buffer, so through a hop, as
    /// `mutate_sequence` does) and changes it with `change`.
    fn change_element(
        log: &mut UndoLog,
        value: &mut (Vec<Vec<u8>>, [u64; 16]),
        index: usize,
        change: fn(&mut Vec<u8>),
    ) {
        let entered = log.enter(Hop::new(
            &mut value.0 as *mut Vec<Vec<u8>> as *mut u8,
            enter_vec::<Vec<u8>>,
        ));
        log.save(&mut value.0[index]);
        change(&mut value.0[index]);
        log.leave(entered);
    }

    #[test]
    fn nested_saves_undo_to_the_original_inline_and_boxed() {
        // A `Vec` (inline, three words) and a large array (boxed), saved in nested places, each
        // changed through a fresh borrow of the whole value after the saves before it (as the
        // engine's stacked mutations do), which a pointer kept from the save would not survive.
        let mut value = (vec![vec![1u8, 2], vec![3]], [7u64; 16]);
        let before = value.clone();
        let mut log = UndoLog::default();
        started(&mut log);
        change_element(&mut log, &mut value, 1, |element| element.push(4));
        log.save(&mut value.0);
        value.0.insert(0, vec![9; 100]);
        change_element(&mut log, &mut value, 2, Vec::clear);
        log.save(&mut value.1);
        value.1[3] = 0;
        assert_ne!(value, before);
        // What the property does between the mutation and the undo.
        assert_eq!(core::hint::black_box(&value).0.len(), 3);
        unsafe { log.undo(&mut value) };
        assert_eq!(value, before);
    }

    #[test]
    fn places_in_boxes_and_deques_are_reached_again() {
        use std::collections::VecDeque;
        // A ring buffer that wraps (elements in both halves), and boxes inside it.
        let mut value: VecDeque<Box<u32>> = VecDeque::with_capacity(4);
        for n in [1, 2, 3] {
            value.push_back(Box::new(n));
        }
        value.pop_front();
        value.push_back(Box::new(4));
        value.push_back(Box::new(5));
        assert!(!value.as_slices().1.is_empty(), "the ring wraps");
        let before = value.clone();
        let mut log = UndoLog::default();
        started(&mut log);
        for index in 0..value.len() {
            let deque = log.enter(Hop::new(
                &mut value as *mut VecDeque<Box<u32>> as *mut u8,
                enter_deque::<Box<u32>>,
            ));
            let boxed = &mut value[index];
            let inner = log.enter(Hop::new(boxed as *mut Box<u32> as *mut u8, enter_box));
            log.save(&mut **boxed);
            **boxed += 10;
            log.leave(inner);
            log.leave(deque);
        }
        assert_eq!(
            value.iter().map(|n| **n).collect::<Vec<_>>(),
            [12, 13, 14, 15]
        );
        unsafe { log.undo(&mut value) };
        assert_eq!(value, before);
    }

    /// A place in a frame newer than the one that started recording is a temporary of the
    /// mutation, gone by the undo: debug builds refuse to save it.
    #[test]
    // Miri lays frames out anywhere, not down a stack: the check is off under it.
    #[cfg(all(debug_assertions, not(miri)))]
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
        // Inline (one `Rc`) and allocated (an array of them) originals, and a zero-sized one.
        let mut value: (Rc<()>, [Rc<()>; 8], ()) = (
            Rc::clone(&counter),
            core::array::from_fn(|_| Rc::clone(&counter)),
            (),
        );
        let mut log = UndoLog::default();
        started(&mut log);
        log.save(&mut value.0);
        log.save(&mut value.1);
        log.save(&mut value.2);
        assert_eq!(
            Rc::strong_count(&counter),
            1 + 2 * 9,
            "originals kept, clones in place"
        );
        unsafe { log.undo(&mut value) };
        assert_eq!(Rc::strong_count(&counter), 1 + 9, "the clones dropped");
        started(&mut log);
        log.save(&mut value.0);
        log.save(&mut value.1);
        log.discard();
        assert_eq!(
            Rc::strong_count(&counter),
            1 + 9,
            "the originals dropped, clones kept"
        );
        drop(value);
        assert_eq!(Rc::strong_count(&counter), 1);
    }
}
