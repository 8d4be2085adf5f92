//! The mutation context: randomness, the size budget, depth, and operator weights.

use super::Operator;

/// Weights of the derived-type mutation operator families, and the FuzzChick-faithful switch.
///
/// A weight of 0 switches a family off. In the default mode a family is chosen with probability
/// proportional to its weight among the families that have a candidate for the current value,
/// then one of its candidates uniformly. In [`faithful`](Operators::faithful) mode every
/// candidate mutant of every enabled family has equal probability (FuzzChick section 3.2) and
/// constructor grow only maps to variants whose fields are a superset of the current ones.
///
/// ```
/// use typefuzz_core::Operators;
/// let no_grow = Operators { grow: 0, ..Operators::default() };
/// assert!(no_grow.recursive > 0);
/// assert!(Operators::fuzzchick().faithful);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operators {
    /// Weight of *recursive*: mutate one field with its own mutator. Default 6.
    pub recursive: u32,
    /// Weight of *subterm*: replace the value by a same-type subterm. Default 2.
    pub subterm: u32,
    /// Weight of *constructor drop*. Default 2.
    pub drop: u32,
    /// Weight of *constructor grow*. Default 2.
    pub grow: u32,
    /// Weight of regenerating a derived value from scratch (not a FuzzChick operator). Default 1.
    pub regenerate: u32,
    /// FuzzChick-faithful candidate selection (see the type's docs). Default `false`.
    pub faithful: bool,
    /// Input-to-state mutation: a seed whose run logged comparisons first tries writing their
    /// operands into its typed leaves ([`leaves`](crate::leaves)). Default
    /// `true`; `false` in [`fuzzchick`](Operators::fuzzchick).
    pub cmplog: bool,
}

impl Default for Operators {
    fn default() -> Self {
        Operators {
            recursive: 6,
            subterm: 2,
            drop: 2,
            grow: 2,
            regenerate: 1,
            faithful: false,
            cmplog: true,
        }
    }
}

impl Operators {
    /// The operator set of the FuzzChick paper: the four families, equal weight per candidate,
    /// grow restricted to superset mappings, no regeneration.
    ///
    /// ```
    /// assert_eq!(typefuzz_core::Operators::fuzzchick().regenerate, 0);
    /// ```
    pub fn fuzzchick() -> Self {
        Operators {
            recursive: 1,
            subterm: 1,
            drop: 1,
            grow: 1,
            regenerate: 0,
            faithful: true,
            cmplog: false,
        }
    }
}

/// Generation and recursion guard: past this many nested derived values, generation panics
/// with an explanation instead of overflowing the stack.
const MAX_GENERATION_DEPTH: usize = 1024;

/// The panic of [`Context::descend`] past [`MAX_GENERATION_DEPTH`], out of line: `descend` runs
/// once per generated field.
#[cold]
#[inline(never)]
fn too_deep() -> ! {
    panic!(
        "typefuzz: values nested more than {MAX_GENERATION_DEPTH} levels deep while generating \
         or mutating at size 0; a type in this cycle has no variant that ends the recursion \
         (every variant needs a Box/Rc/Arc of the same cycle). Add a non-recursive variant, or \
         implement Mutate by hand for it."
    );
}

/// Everything a [`Mutate`](crate::Mutate) impl may consult: the random number generator, the
/// size budget, the nesting depth, the operator weights, and the trace of applied operators.
///
/// The size is a depth budget: generating at size `n` builds at most `n` nested levels of
/// recursive structure and collections of at most `n` elements; mutating at size `n` never adds
/// more than `n` levels below the point being mutated.
///
/// ```
/// use typefuzz_core::{Context, Mutate};
/// let mut cx = Context::new(42).with_max_size(8);
/// let v: Vec<u8> = cx.generate();
/// assert!(v.len() <= 8);
/// ```
#[derive(Clone, Debug)]
pub struct Context {
    rng: fastrand::Rng,
    pub(crate) size: usize,
    max_size: usize,
    pub(crate) depth: usize,
    operators: Operators,
    trace: Vec<Operator>,
    probe: Probe,
    pub(crate) undo: super::undo::UndoLog,
    /// Armed by constructor grow's wrap (see [`Hole`]).
    hole: Option<Hole>,
    /// Run-scoped values for mutators (see [`set_extension`](Self::set_extension)).
    extensions: super::extensions::Extensions,
}

/// What the engine learns of the first [`Context::generate`] call after it armed the probe
/// ([`Context::watch_generation`]): enough to tell whether its generator returned exactly what
/// `T::generate` made from the context's random state, at its size, so that the input can be
/// rebuilt from that state alone (a fresh input's crash recipe).
#[derive(Clone, Copy, Debug, Default)]
struct Probe {
    armed: bool,
    seen: Option<Generation>,
}

/// One top-level [`Context::generate`] call, as [`Context::watched_generation`] reports it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Generation {
    /// The random state before and after the call.
    pub start: u64,
    pub end: u64,
    pub size: usize,
    /// `std::any::type_name` of the generated type.
    pub type_name: &'static str,
    /// [`ValueHasher::of`](crate::mutate::ValueHasher::of) the value it returned.
    pub hash: Option<u64>,
}

/// A wrapper being generated around a value (`derive_support::wrap`): the wrapper's `Box<Self>`
/// fields are generated as leaves (size 0), since one of them is replaced by the wrapped value
/// and the others regenerated at their size once wrap knows which.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hole {
    /// The depth the wrapper is generated at: its own fields, not theirs, are the leaves.
    depth: usize,
    /// The random state before the wrapper's generation (to make it again without the hole).
    pub(crate) state: u64,
    /// Fields generated as leaves.
    pub(crate) fields: usize,
    /// The size they would have been generated at.
    pub(crate) size: usize,
}

impl Context {
    /// Default maximum size (see [`with_max_size`](Context::with_max_size)).
    pub const DEFAULT_MAX_SIZE: usize = 32;

    /// A context seeded with `seed`, at size and maximum size [`Self::DEFAULT_MAX_SIZE`].
    ///
    /// ```
    /// let a: u64 = typefuzz_core::Context::new(1).generate();
    /// let b: u64 = typefuzz_core::Context::new(1).generate();
    /// assert_eq!(a, b);
    /// ```
    pub fn new(seed: u64) -> Self {
        Context {
            rng: fastrand::Rng::with_seed(seed),
            size: Self::DEFAULT_MAX_SIZE,
            max_size: Self::DEFAULT_MAX_SIZE,
            depth: 0,
            operators: Operators::default(),
            trace: Vec::new(),
            probe: Probe::default(),
            undo: super::undo::UndoLog::default(),
            hole: None,
            extensions: Default::default(),
        }
    }

    /// Sets the maximum size (and the current size) and returns the context.
    ///
    /// ```
    /// let cx = typefuzz_core::Context::new(1).with_max_size(4);
    /// assert_eq!(cx.max_size(), 4);
    /// ```
    pub fn with_max_size(mut self, max_size: usize) -> Self {
        self.max_size = max_size;
        self.size = max_size;
        self
    }

    /// Sets the operator weights and returns the context.
    ///
    /// ```
    /// let cx = typefuzz_core::Context::new(1).with_operators(typefuzz_core::Operators::fuzzchick());
    /// assert!(cx.operators().faithful);
    /// ```
    pub fn with_operators(mut self, operators: Operators) -> Self {
        self.operators = operators;
        self
    }

    /// Generates a value at the current size.
    ///
    /// ```
    /// let flag: bool = typefuzz_core::Context::new(3).generate();
    /// # let _ = flag;
    /// ```
    #[inline]
    pub fn generate<T: crate::Mutate>(&mut self) -> T {
        if self.probe.armed {
            return self.generate_watched();
        }
        T::generate(self)
    }

    /// [`generate`](Self::generate) under an armed probe: records the call (the first only:
    /// the probe is disarmed before any nested call).
    #[inline(never)]
    fn generate_watched<T: crate::Mutate>(&mut self) -> T {
        self.probe.armed = false;
        let (start, size) = (self.rng.get_seed(), self.size);
        let value = T::generate(self);
        self.probe.seen = Some(Generation {
            start,
            end: self.rng.get_seed(),
            size,
            type_name: core::any::type_name::<T>(),
            hash: crate::mutate::ValueHasher::of(&value),
        });
        value
    }

    /// Arms the probe: the next [`generate`](Self::generate) call is recorded, for
    /// [`watched_generation`](Self::watched_generation).
    #[doc(hidden)]
    pub fn watch_generation(&mut self) {
        self.probe = Probe {
            armed: true,
            seen: None,
        };
    }

    /// The call recorded since [`watch_generation`](Self::watch_generation), if any; disarms
    /// the probe.
    #[doc(hidden)]
    pub fn watched_generation(&mut self) -> Option<Generation> {
        core::mem::take(&mut self.probe).seen
    }

    /// Generates a value at size `size` (restoring the current size afterwards).
    ///
    /// ```
    /// let v: Vec<u8> = typefuzz_core::Context::new(3).generate_sized(0);
    /// assert!(v.is_empty());
    /// ```
    #[inline]
    pub fn generate_sized<T: crate::Mutate>(&mut self, size: usize) -> T {
        // `with_size` without its closure: one `with_size` and one `FnOnce` shim fewer per type.
        let saved = core::mem::replace(&mut self.size, size);
        let value = T::generate(self);
        self.size = saved;
        value
    }

    /// Applies one top-level mutation to `value`: resets the trace, gives the mutation the whole
    /// size budget, and returns the operators applied, outermost first.
    ///
    /// ```
    /// let mut cx = typefuzz_core::Context::new(5);
    /// let mut x = 10u32;
    /// let ops = cx.mutate(&mut x).to_vec();
    /// assert_eq!(ops.len(), 1);
    /// ```
    pub fn mutate<T: crate::Mutate>(&mut self, value: &mut T) -> &[Operator] {
        self.trace.clear();
        self.depth = 0;
        self.size = self.max_size;
        // Left armed only by a generator that panicked inside a wrap.
        self.hole = None;
        value.mutate(self);
        &self.trace
    }

    /// [`mutate`](Self::mutate) through
    /// [`Mutate::mutate_undoable`](crate::Mutate::mutate_undoable), recording what changes in
    /// the undo log the engine [started](Self::start_undo).
    #[doc(hidden)]
    pub fn mutate_undoable<T: crate::Mutate>(&mut self, value: &mut T) -> &[Operator] {
        self.trace.clear();
        self.depth = 0;
        self.size = self.max_size;
        // Left armed only by a generator that panicked inside a wrap.
        self.hole = None;
        value.mutate_undoable(self);
        &self.trace
    }

    /// Starts recording saves ([`save`](Self::save)) in the undo log (debug builds: in the
    /// caller's frame, see [`UndoLog::start`](super::undo::UndoLog::start)).
    #[cfg_attr(debug_assertions, inline(always))]
    #[doc(hidden)]
    pub fn start_undo(&mut self) {
        self.undo.start();
    }

    /// Puts back every place saved since [`start_undo`](Self::start_undo), newest first, each
    /// reached again from `value`, and stops recording.
    ///
    /// # Safety
    /// `value` must be the value mutated since `start_undo`, not moved or changed other than by
    /// the mutation since (see `mutate/undo.rs`).
    #[doc(hidden)]
    pub unsafe fn undo<T>(&mut self, value: &mut T) {
        // SAFETY: the caller's.
        unsafe { self.undo.undo(value) }
    }

    /// Before a [`Mutate::mutate_undoable`](crate::Mutate::mutate_undoable) changes `place`
    /// itself (rather than a field it descends into): when the engine is mutating a seed in
    /// place, moves the value into the undo log and leaves a clone to change; otherwise does
    /// nothing (one branch). The derive calls it through `__private::save`. The one generic
    /// step before the log's own (`UndoLog::save`): each is compiled once per saved type, in
    /// the user's crate.
    #[inline]
    pub(crate) fn save<T: crate::Mutate>(&mut self, place: &mut T) {
        if self.undo.is_recording() {
            self.undo.save(place);
        }
    }

    /// Stops recording saves until [`resume_undo`](Self::resume_undo), returning whether it was
    /// recording: inside a value saved whole, nothing needs saving.
    #[inline]
    pub(crate) fn pause_undo(&mut self) -> bool {
        self.undo.pause()
    }

    /// Resumes what [`pause_undo`](Self::pause_undo) paused.
    #[inline]
    pub(crate) fn resume_undo(&mut self, recording: bool) {
        self.undo.resume(recording);
    }

    /// The undo log ([`save`](Self::save) and the rewrites that keep the old value whole).
    #[inline]
    pub(crate) fn undo_log(&mut self) -> &mut super::undo::UndoLog {
        &mut self.undo
    }

    /// Where the mutation since [`start_undo`](Self::start_undo) changed the value (see
    /// [`UndoLog::changed`](super::undo::UndoLog::changed)).
    #[doc(hidden)]
    pub fn changed(&self) -> Option<crate::structure::Focus<'_>> {
        let path = self.undo.changed()?;
        Some(crate::structure::Focus {
            path,
            elements: self.undo.changed_elements(),
        })
    }

    /// The random number generator.
    ///
    /// ```
    /// let x = typefuzz_core::Context::new(9).rng().u8(..);
    /// # let _ = x;
    /// ```
    #[inline]
    pub fn rng(&mut self) -> &mut fastrand::Rng {
        &mut self.rng
    }

    /// A uniform index in `0..n`; `n` must be positive.
    ///
    /// ```
    /// assert!(typefuzz_core::Context::new(1).below(3) < 3);
    /// ```
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0, "Context::below(0)");
        self.rng.usize(..n.max(1))
    }

    /// `true` with probability `numerator / denominator`.
    ///
    /// ```
    /// assert!(typefuzz_core::Context::new(1).chance(1, 1));
    /// ```
    #[inline]
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        self.rng.u32(..denominator.max(1)) < numerator
    }

    /// Picks an index with probability proportional to its weight; `None` if all are 0.
    ///
    /// ```
    /// assert_eq!(typefuzz_core::Context::new(1).weighted(&[0, 5, 0]), Some(1));
    /// ```
    #[inline]
    pub fn weighted(&mut self, weights: &[u32]) -> Option<usize> {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let mut ticket = self.rng.u64(..total);
        for (index, &weight) in weights.iter().enumerate() {
            let weight = u64::from(weight);
            if ticket < weight {
                return Some(index);
            }
            ticket -= weight;
        }
        unreachable!("ticket below the total weight")
    }

    /// The current size budget.
    ///
    /// ```
    /// assert_eq!(typefuzz_core::Context::new(1).with_max_size(5).size(), 5);
    /// ```
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The maximum size, the budget a top-level mutation starts with.
    ///
    /// ```
    /// assert_eq!(typefuzz_core::Context::new(1).max_size(), typefuzz_core::Context::DEFAULT_MAX_SIZE);
    /// ```
    #[inline]
    pub fn max_size(&self) -> usize {
        self.max_size
    }

    /// Sets the current size budget.
    ///
    /// ```
    /// let mut cx = typefuzz_core::Context::new(1);
    /// cx.set_size(3);
    /// assert_eq!(cx.size(), 3);
    /// ```
    #[inline]
    pub fn set_size(&mut self, size: usize) {
        self.size = size;
    }

    /// How many nested values the current call is inside.
    ///
    /// ```
    /// assert_eq!(typefuzz_core::Context::new(1).depth(), 0);
    /// ```
    #[inline]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Runs `f` at size `size`, then restores the current size.
    ///
    /// ```
    /// let mut cx = typefuzz_core::Context::new(1);
    /// assert_eq!(cx.with_size(2, |cx| cx.size()), 2);
    /// assert_eq!(cx.size(), typefuzz_core::Context::DEFAULT_MAX_SIZE);
    /// ```
    #[inline]
    pub fn with_size<R>(&mut self, size: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = self.size;
        self.size = size;
        let result = f(self);
        self.size = saved;
        result
    }

    /// Runs `f` one level deeper with size `size`: what a derived value does for each field.
    ///
    /// # Panics
    ///
    /// Past 1024 nested levels, with an explanation: a type whose every variant needs another
    /// value of a type in the same cycle has no finite value.
    ///
    /// ```
    /// let mut cx = typefuzz_core::Context::new(1);
    /// assert_eq!(cx.descend(0, |cx| cx.depth()), 1);
    /// ```
    #[inline]
    pub fn descend<R>(&mut self, size: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        // The bookkeeping is in two non-generic functions: `descend` is instantiated once per
        // closure (hundreds of copies in a crate of derived types), so its own body stays a
        // call, the closure and a call (compile time; inlined away in optimized builds).
        let saved_size = self.enter(size);
        let result = f(self);
        self.leave(saved_size);
        result
    }

    /// Arms the [`Hole`] for a wrapper about to be generated at this depth.
    pub(crate) fn arm_hole(&mut self) {
        self.hole = Some(Hole {
            depth: self.depth,
            state: self.rng.get_seed(),
            fields: 0,
            size: 0,
        });
    }

    /// Disarms the [`Hole`] [`arm_hole`](Self::arm_hole) armed, returning what the wrapper's
    /// generation recorded in it.
    pub(crate) fn disarm_hole(&mut self) -> Hole {
        let hole = self.hole.take();
        hole.expect("armed by `arm_hole`")
    }

    /// The size a `Box<Self>` field generated at `size` gets: 0 when it is a field of the
    /// wrapper a [`Hole`] is armed for (which it counts), else `size`.
    #[inline]
    pub(crate) fn subterm_size(&mut self, size: usize) -> usize {
        match &mut self.hole {
            Some(hole) if hole.depth == self.depth => {
                hole.fields += 1;
                hole.size = size;
                0
            }
            _ => size,
        }
    }

    /// One level down at `size`; returns the size to restore.
    #[inline]
    pub(crate) fn enter(&mut self, size: usize) -> usize {
        if self.depth >= MAX_GENERATION_DEPTH {
            too_deep();
        }
        self.depth += 1;
        core::mem::replace(&mut self.size, size)
    }

    /// Back up one level, restoring `saved_size`.
    #[inline]
    pub(crate) fn leave(&mut self, saved_size: usize) {
        self.depth -= 1;
        self.size = saved_size;
    }

    /// The operator weights.
    ///
    /// ```
    /// assert!(!typefuzz_core::Context::new(1).operators().faithful);
    /// ```
    #[inline]
    pub fn operators(&self) -> &Operators {
        &self.operators
    }

    /// Mutable access to the operator weights.
    ///
    /// ```
    /// let mut cx = typefuzz_core::Context::new(1);
    /// cx.operators_mut().grow = 0;
    /// assert_eq!(cx.operators().grow, 0);
    /// ```
    pub fn operators_mut(&mut self) -> &mut Operators {
        &mut self.operators
    }

    /// Records that `op` was applied; impls call this once per mutation step they take.
    ///
    /// ```
    /// let mut cx = typefuzz_core::Context::new(1);
    /// cx.record(typefuzz_core::Operator::Custom);
    /// assert_eq!(cx.trace(), &[typefuzz_core::Operator::Custom]);
    /// ```
    #[inline]
    pub fn record(&mut self, op: Operator) {
        // Bounded: a mutation records one operator per level it descends.
        if self.trace.len() < 64 {
            self.trace.push(op);
        }
    }

    /// The operators recorded since the last [`clear_trace`](Context::clear_trace) or
    /// [`mutate`](Context::mutate), outermost first.
    ///
    /// ```
    /// assert!(typefuzz_core::Context::new(1).trace().is_empty());
    /// ```
    pub fn trace(&self) -> &[Operator] {
        &self.trace
    }

    /// Forgets the recorded operators.
    ///
    /// ```
    /// let mut cx = typefuzz_core::Context::new(1);
    /// cx.record(typefuzz_core::Operator::Custom);
    /// cx.clear_trace();
    /// assert!(cx.trace().is_empty());
    /// ```
    pub fn clear_trace(&mut self) {
        self.trace.clear();
    }

    /// Sets the context's run-scoped value of type `T` (at most one per type), replacing and
    /// returning any earlier one. This is how an adapter hands its types' mutators what the run
    /// knows and a value does not (a pool of donor values, a model, a generator size): set it
    /// on the context the run mutates with, read it in `Mutate::generate`, `mutate` or `shrink`
    /// with [`extension`](Self::extension). Cloning the context clones its extensions; an impl
    /// must work without one (a context a user made, a regression replay), usually by falling
    /// back to a default.
    ///
    /// ```
    /// use typefuzz_core::{Context, Mutate};
    ///
    /// /// The run's generator size, as an adapter would set it.
    /// #[derive(Clone)]
    /// struct RunSize(usize);
    ///
    /// #[derive(Clone, Debug)]
    /// struct Sized(Vec<u8>);
    ///
    /// impl Mutate for Sized {
    ///     fn generate(cx: &mut Context) -> Self {
    ///         let size = cx.extension::<RunSize>().map_or(4, |size| size.0);
    ///         Sized((0..size).map(|_| cx.generate()).collect())
    ///     }
    ///     fn mutate(&mut self, cx: &mut Context) {
    ///         self.0.mutate(cx);
    ///     }
    ///     fn shrink(&self, cx: &mut Context) -> Vec<Self> {
    ///         self.0.shrink(cx).into_iter().map(Sized).collect()
    ///     }
    ///     fn encode(&self, out: &mut typefuzz_core::codec::Encoder) {
    ///         self.0.encode(out);
    ///     }
    ///     fn decode(input: &mut typefuzz_core::codec::Decoder<'_>) -> Self {
    ///         Sized(Vec::decode(input))
    ///     }
    ///     fn fingerprint(fingerprint: &mut typefuzz_core::fingerprint::Fingerprint) {
    ///         fingerprint.name("Sized");
    ///     }
    /// }
    ///
    /// let mut cx = Context::new(1);
    /// assert_eq!(Sized::generate(&mut cx).0.len(), 4, "no extension: the default");
    /// cx.set_extension(RunSize(9));
    /// assert_eq!(Sized::generate(&mut cx).0.len(), 9);
    /// ```
    pub fn set_extension<T: core::any::Any + Clone>(&mut self, value: T) -> Option<T> {
        self.extensions.set(value)
    }

    /// [`set_extension`](Self::set_extension), returning the context.
    ///
    /// ```
    /// let cx = typefuzz_core::Context::new(1).with_extension(7u32);
    /// assert_eq!(cx.extension::<u32>(), Some(&7));
    /// ```
    pub fn with_extension<T: core::any::Any + Clone>(mut self, value: T) -> Self {
        self.set_extension(value);
        self
    }

    /// The context's value of type `T`, if one was set (see
    /// [`set_extension`](Self::set_extension)).
    ///
    /// ```
    /// let mut cx = typefuzz_core::Context::new(1);
    /// assert_eq!(cx.extension::<String>(), None);
    /// cx.set_extension(String::from("model"));
    /// assert_eq!(cx.extension::<String>().map(String::as_str), Some("model"));
    /// ```
    pub fn extension<T: core::any::Any>(&self) -> Option<&T> {
        self.extensions.get()
    }

    /// The context's value of type `T` to change in place (a pool a mutator draws from and
    /// adds to), if one was set.
    ///
    /// ```
    /// let mut cx = typefuzz_core::Context::new(1).with_extension(vec![1u8]);
    /// if let Some(pool) = cx.extension_mut::<Vec<u8>>() {
    ///     pool.push(2);
    /// }
    /// assert_eq!(cx.extension::<Vec<u8>>(), Some(&vec![1, 2]));
    /// ```
    pub fn extension_mut<T: core::any::Any>(&mut self) -> Option<&mut T> {
        self.extensions.get_mut()
    }

    /// Takes the context's value of type `T` out of it, if one was set.
    ///
    /// ```
    /// let mut cx = typefuzz_core::Context::new(1).with_extension(3u8);
    /// assert_eq!(cx.remove_extension::<u8>(), Some(3));
    /// assert_eq!(cx.extension::<u8>(), None);
    /// ```
    pub fn remove_extension<T: core::any::Any>(&mut self) -> Option<T> {
        self.extensions.remove()
    }

    /// Reseeds the random number generator.
    ///
    /// ```
    /// let mut cx = typefuzz_core::Context::new(1);
    /// cx.reseed(2);
    /// ```
    pub fn reseed(&mut self, seed: u64) {
        self.rng = fastrand::Rng::with_seed(seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_records_the_first_generate_call_only() {
        let mut cx = Context::new(8).with_max_size(6);
        let _: u8 = cx.generate();
        assert!(cx.watched_generation().is_none(), "not armed");
        cx.set_size(4);
        cx.watch_generation();
        let start = cx.rng().get_seed();
        let value: Vec<Option<u16>> = cx.generate();
        let end = cx.rng().get_seed();
        let _: u8 = cx.generate();
        let seen = cx.watched_generation().expect("armed");
        assert_eq!((seen.start, seen.end, seen.size), (start, end, 4));
        assert_eq!(seen.type_name, std::any::type_name::<Vec<Option<u16>>>());
        assert_eq!(seen.hash, crate::mutate::ValueHasher::of(&value));
        assert!(cx.watched_generation().is_none(), "taken, and disarmed");
        // A tuple is recorded as itself, not as its first field.
        cx.watch_generation();
        let _: (u8, String) = cx.generate();
        let seen = cx.watched_generation().expect("armed");
        assert_eq!(seen.type_name, std::any::type_name::<(u8, String)>());
    }
}
