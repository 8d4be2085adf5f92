//! Structure: input-structure coverage, the feedback that always exists. An input is interesting
//! when its *shape* shows something no earlier input showed: a constructor under a parent
//! constructor and field never seen there, a path of three constructors never seen, an integer
//! in a value class (zero, ±1, small, boundaries such as `MAX`/`MIN`, magnitudes) never seen at
//! that place, a collection length class never seen there.
//!
//! With no instrumentation, no labels and no discards, nothing else ever says "interesting", so
//! the engine would never keep a seed and never mutate: it would be a random tester. Structure
//! coverage makes it keep inputs of new shapes and mutate them, so it climbs towards nested
//! shapes and boundary values that random generation rarely builds all at once (the FuzzChick
//! loop over the input's own grammar instead of the program's branches).
//!
//! # How it is computed
//!
//! [`Mutate::visit_structure`] walks a value: each node reports a *constructor token* (a `u64`
//! naming its type and variant, or its type and value class) with [`Structure::node`], and
//! enters each child with [`Structure::child`], which records the step (constructor, field)
//! taken. Each node sets three features: the token alone, the token under its parent step, and
//! the token under its grandparent and parent steps (constructor k-paths for k = 1, 2, 3); each
//! child after the first also sets a fourth, its token next to its previous sibling's (so
//! `Range(MIN, MAX, _)` is new even when `MIN` and `MAX` were each seen in that place before). A
//! feature is a bit in a fixed map of 2^16 bits indexed by a multiplicative hash, so observing a
//! run costs one pass over the value and no allocation; the walk stops after [`MAX_NODES`] nodes
//! or [`MAX_DEPTH`] levels, so it stays cheap on huge inputs and cannot overflow the stack.
//! With the engine's `FeedbackSources::structure_sampling` on
//! (the default), once no input has shown a new feature for 4096 inputs in a row the engine
//! observes only a sample of the inputs (one in 2, then 4, ... 16 as the quiet stretch doubles)
//! until one does: a saturated map makes almost every walk worthless.
//!
//! `#[derive(Mutate)]` writes `visit_structure` for structs and enums; the standard types report
//! integer, float, character and length classes. A hand-written [`Mutate`] impl inherits the
//! default, which reports nothing (its values are then invisible to this source, not wrong).
//!
//! ```
//! use typefuzz_core::{Mutate, structure::Structure};
//!
//! #[derive(Clone, Debug, typefuzz_derive::Mutate)]
//! #[mutate(crate = "typefuzz_core")]
//! enum Shape {
//!     Dot,
//!     Pair(Box<Shape>, Box<Shape>),
//! }
//!
//! let mut map = vec![0u64; Structure::MAP_WORDS];
//! let mut first = Structure::new(&mut map);
//! Shape::Pair(Box::new(Shape::Dot), Box::new(Shape::Dot)).visit_structure(&mut first);
//! assert!(first.new_features() > 0);
//! let mut again = Structure::new(&mut map);
//! Shape::Pair(Box::new(Shape::Dot), Box::new(Shape::Dot)).visit_structure(&mut again);
//! assert_eq!(again.new_features(), 0, "the same shape shows nothing new");
//! ```

use crate::Mutate;

/// Log2 of the number of feature bits.
const MAP_BITS: u32 = 16;

/// Words (`u64`) of a feature map ([`Structure::MAP_WORDS`]).
const MAP_WORDS: usize = 1 << (MAP_BITS - 6);

/// Most nodes one observation visits.
pub const MAX_NODES: u32 = 4096;

/// Deepest level one observation descends to.
pub const MAX_DEPTH: u32 = 256;

/// Features remembered per observation as the ones it discovered.
#[doc(hidden)]
pub const MAX_DISCOVERED: usize = 4;

/// The parent step of the root.
const ROOT: u64 = 0x243F_6A88_85A3_08D3;

/// One observation of an input's structure, recording its features into a feature map.
///
/// See the [module documentation](self) for what the features are.
///
/// Along the way it folds the walk — node tokens, steps into and out of children, and the exact
/// values leaves report with [`value`](Self::value) and [`bytes`](Self::bytes) — into a 64-bit
/// [`fingerprint`](Self::fingerprint) of the whole value: what the default
/// [`Mutate::hash_value`] counts distinct inputs by for types that do not write their leaves
/// themselves.
pub struct Structure<'a> {
    /// The feature map; `None` for an observation that makes a fingerprint alone. A fixed-size
    /// array, so that a feature's word (`index / 64 < MAP_WORDS`) needs no bounds check.
    seen: Option<&'a mut [u64; MAP_WORDS]>,
    /// Whether the walk is folded into [`hash`](Self::fingerprint) (not in the engine's own
    /// observations, which only want the features: see [`features_only`](Self::features_only)).
    fingerprinting: bool,
    /// The walk so far, folded (see [`fingerprint`](Self::fingerprint)).
    hash: u64,
    /// Nodes and children reported so far: a child that reports neither is opaque.
    events: u32,
    /// Whether part of the value went unreported (an opaque child, or the node or depth bound).
    pub(crate) partial: bool,
    /// The first features this observation set first.
    discovered: [u32; MAX_DISCOVERED],
    parent: u64,
    grandparent: u64,
    /// The token of the node at the current place (the first one reported there).
    own: u64,
    /// The token of the previous child of the current node.
    sibling: u64,
    depth: u32,
    remaining: u32,
    new: u32,
    /// How the current place is walked: [`FULL`], [`FOCUSED`] or [`SHALLOW`] (see
    /// [`focus`](Self::focus)).
    mode: u8,
    /// In [`FOCUSED`] mode, the index in `focus` of the child to take next.
    level: u32,
    /// The way down to the part of the value that changed (see [`focus`](Self::focus)).
    focus: &'a [u32],
    /// The mode of the changed node: [`FULL`], or [`RANGED`] with `range` set.
    target: u8,
    /// In [`RANGED`] mode, the new elements.
    range: (usize, usize),
}

/// Where a mutant differs from its seed, for a [`Structure`] walk that looks only there: the
/// children taken from the root down to the changed node
/// ([`UndoLog::changed`](crate::mutate::undo::UndoLog::changed)), and, when that node is a
/// sequence whose own edit was the whole mutation, the elements the edit made
/// ([`UndoLog::note_elements`](crate::mutate::undo::UndoLog::note_elements)).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Focus<'a> {
    pub path: &'a [u32],
    pub elements: Option<(u32, u32)>,
}

/// Walk mode: every node's features (the whole value, or the changed part of it).
const FULL: u8 = 0;
/// Walk mode: a node on the way down to the changed part: only its child on the way down (or,
/// at the last step, that child and its siblings) is visited. Its own features are marked again
/// (a few nodes per walk), in case an impl reports features of the run rather than of the value.
const FOCUSED: u8 = 1;
/// Walk mode: the changed node, a sequence whose own edit (the mutation's only change) made
/// new elements `range.0..range.1` (see [`Focus::elements`]): only the elements around them are
/// visited, [`FULL`] from one before to one after, [`SHALLOW`] one further on each side.
const RANGED: u8 = 3;
/// Walk mode: a sibling of the changed part, visited only for its own token (the sibling
/// features next to the changed node); nothing below it is visited.
const SHALLOW: u8 = 2;

impl<'a> Structure<'a> {
    /// Words (`u64`) of a feature map.
    pub const MAP_WORDS: usize = MAP_WORDS;

    /// Starts observing one input against `seen`, the features of earlier inputs (a map of
    /// [`MAP_WORDS`](Self::MAP_WORDS) words; a shorter one is treated as full, recording nothing).
    ///
    /// ```
    /// let mut map = vec![0u64; typefuzz_core::structure::Structure::MAP_WORDS];
    /// let structure = typefuzz_core::structure::Structure::new(&mut map);
    /// assert_eq!(structure.new_features(), 0);
    /// ```
    pub fn new(seen: &'a mut [u64]) -> Self {
        // Features index the first `MAP_WORDS` words only.
        let seen = seen
            .get_mut(..Self::MAP_WORDS)
            .and_then(|words| <&mut [u64; MAP_WORDS]>::try_from(words).ok());
        let usable = seen.is_some();
        Structure {
            seen,
            fingerprinting: true,
            hash: ROOT,
            events: 0,
            partial: false,
            discovered: [0; MAX_DISCOVERED],
            parent: ROOT,
            grandparent: ROOT,
            own: 0,
            sibling: 0,
            depth: 0,
            remaining: if usable { MAX_NODES } else { 0 },
            new: 0,
            mode: FULL,
            level: 0,
            focus: &[],
            target: FULL,
            range: (0, 0),
        }
    }

    /// Starts observing one input for its features alone, as [`new`](Self::new) does but
    /// without folding the walk into a [`fingerprint`](Self::fingerprint) (which is then
    /// `None`): the engine's structure feedback, which runs on many of the inputs and reads
    /// only the features. The fingerprint's fold is a chain of dependent multiplications, one
    /// per node, step and leaf value, and a string leaf's bytes are hashed only for it: about
    /// as much work as the features.
    #[doc(hidden)]
    pub fn features_only(seen: &'a mut [u64]) -> Self {
        Structure {
            fingerprinting: false,
            ..Structure::new(seen)
        }
    }

    /// Observes only what can be new in a mutant whose seed was observed before: the subtree
    /// reached by taking child `path[0]` of the root, then child `path[1]` of that, ... (as
    /// [`UndoLog::changed`](crate::mutate::undo::UndoLog::changed) names it), and the sibling
    /// features of its root. Everything else is node for node the seed, whose features are in
    /// the map already, so the walk visits no other child on the way down but (at the last
    /// step) the changed one's siblings, for their tokens alone. An impl whose
    /// walk follows no numbering ([`enter`](Self::enter) rather than `enter_at`) is walked whole
    /// from there. An empty path walks the whole value.
    ///
    /// With [`Focus::elements`] the changed node is a sequence of which only some elements are
    /// new: the walk visits the elements from one before them to one after them whole (an
    /// element next to an insertion or removal may have become the first or the last), and one
    /// more on each side for its token.
    #[doc(hidden)]
    pub fn focus(&mut self, focus: Focus<'a>) {
        self.focus = focus.path;
        self.level = 0;
        if let Some((lo, hi)) = focus.elements {
            self.target = RANGED;
            self.range = (lo as usize, hi as usize);
        }
        self.mode = if focus.path.is_empty() {
            self.target
        } else {
            FOCUSED
        };
    }

    /// Folds one word of the walk into the fingerprint, if this observation makes one.
    #[inline(always)]
    fn fold(&mut self, word: u64) {
        if self.fingerprinting {
            self.hash = mix(self.hash, word);
        }
    }

    /// Observes `value` for its [`fingerprint`](Self::fingerprint) alone, recording no feature.
    ///
    /// ```
    /// use typefuzz_core::structure::Structure;
    /// let fingerprint = |v: &Vec<u16>| Structure::fingerprint_of(v);
    /// assert_eq!(fingerprint(&vec![1, 2]), fingerprint(&vec![1, 2]));
    /// assert_ne!(fingerprint(&vec![1, 2]), fingerprint(&vec![2, 1]));
    /// ```
    pub fn fingerprint_of<T: Mutate>(value: &T) -> Option<u64> {
        let mut structure = Self::for_fingerprint();
        value.visit_structure(&mut structure);
        structure.fingerprint()
    }

    /// An observation that records no feature, for [`fingerprint`](Self::fingerprint) alone
    /// (what [`fingerprint_of`](Self::fingerprint_of) runs the value through).
    pub(crate) fn for_fingerprint() -> Structure<'static> {
        Structure {
            remaining: MAX_NODES,
            ..Structure::new(&mut [])
        }
    }

    /// Features this observation set that no earlier one had.
    pub fn new_features(&self) -> u32 {
        self.new
    }

    /// The first features (up to [`MAX_DISCOVERED`]) this observation set first.
    #[doc(hidden)]
    pub fn discovered(&self) -> [u32; MAX_DISCOVERED] {
        self.discovered
    }

    /// A 64-bit hash of the value observed, exact up to hash collisions: equal values get equal
    /// fingerprints, and values that differ anywhere get different ones (with probability about
    /// 1 - 2^-64 per pair). `None` when the walk could not see the whole value: a part whose
    /// [`Mutate`] impl reports nothing (the default [`Mutate::visit_structure`]), or a value
    /// larger than [`MAX_NODES`] nodes or deeper than [`MAX_DEPTH`] levels; also `None` in the
    /// engine's own feedback walks, which record features only. Exactness rests on
    /// each impl reporting what tells its values apart: a hand-written `visit_structure` that
    /// reports a value class with [`node`](Self::node) but not the exact value with
    /// [`value`](Self::value) or [`bytes`](Self::bytes) makes values that differ only there
    /// share a fingerprint (the derive and the standard impls report everything).
    ///
    /// ```
    /// use typefuzz_core::structure::Structure;
    /// assert_ne!(Structure::fingerprint_of(&"ab".to_string()), Structure::fingerprint_of(&"ba".to_string()));
    /// assert_eq!(Structure::fingerprint_of(&Some(7u8)), Structure::fingerprint_of(&Some(7u8)));
    /// ```
    pub fn fingerprint(&self) -> Option<u64> {
        (self.fingerprinting && !self.partial && self.events > 0).then_some(self.hash)
    }

    /// Reports the exact value of the leaf at the current place (an integer's bits, a float's
    /// bits), after its [`node`](Self::node): it takes part in the
    /// [`fingerprint`](Self::fingerprint) only, not in the features, which see value classes.
    ///
    /// ```
    /// use typefuzz_core::structure::{token, Structure};
    /// let mut map = vec![0u64; Structure::MAP_WORDS];
    /// let mut structure = Structure::new(&mut map);
    /// structure.node(token("Port"));
    /// structure.value(8080);
    /// assert_eq!(structure.new_features(), 3, "the value adds no feature");
    /// ```
    #[inline]
    pub fn value(&mut self, bits: u64) {
        self.fold(bits);
    }

    /// Reports the exact contents of a byte-string leaf (a string's UTF-8) at the current place,
    /// like [`value`](Self::value).
    ///
    /// ```
    /// use typefuzz_core::structure::{token, Structure};
    /// let mut map = vec![0u64; Structure::MAP_WORDS];
    /// let mut structure = Structure::new(&mut map);
    /// structure.node(token("Name"));
    /// structure.bytes(b"typefuzz");
    /// assert!(structure.fingerprint().is_some());
    /// ```
    #[inline]
    pub fn bytes(&mut self, bytes: &[u8]) {
        if self.fingerprinting {
            self.fold(crate::byte_hash::hash_bytes(bytes));
        }
    }

    /// Reports the node at the current place: `constructor` names its type and variant (or its
    /// type and value class); see [`token`] to make one.
    ///
    /// ```
    /// use typefuzz_core::structure::{token, Structure};
    /// let mut map = vec![0u64; Structure::MAP_WORDS];
    /// let mut structure = Structure::new(&mut map);
    /// structure.node(token("Leaf"));
    /// assert_eq!(structure.new_features(), 3); // alone, under the root, under root and root
    /// ```
    #[inline]
    pub fn node(&mut self, constructor: u64) {
        if self.remaining == 0 {
            self.partial = true;
            return;
        }
        self.events += 1;
        self.fold(constructor);
        if self.own == 0 {
            self.own = constructor;
        }
        if self.mode == SHALLOW {
            // A sibling of the changed part: its own features are known.
            return;
        }
        let under_parent = mix(self.parent, constructor);
        self.mark(constructor);
        self.mark(under_parent);
        self.mark(mix(self.grandparent, under_parent));
    }

    /// Observes `value` as field number `field` of a node whose constructor is `constructor`.
    ///
    /// ```
    /// use typefuzz_core::structure::{token, Structure};
    /// let mut map = vec![0u64; Structure::MAP_WORDS];
    /// let mut structure = Structure::new(&mut map);
    /// structure.child(token("Wrapper"), 0, &0u8);
    /// let before = structure.new_features();
    /// structure.child(token("Wrapper"), 1, &0u8); // the same value, in another field
    /// assert!(structure.new_features() > before);
    /// ```
    #[inline]
    pub fn child<T: Mutate>(&mut self, constructor: u64, field: u32, value: &T) {
        if let Some(step) = self.enter(constructor, field) {
            value.visit_structure(self);
            self.leave(step);
        }
    }

    /// Moves to field number `field` of a node whose constructor is `constructor`; `None` when
    /// the observation has reached [`MAX_NODES`] or [`MAX_DEPTH`] and the child must not be
    /// visited. [`child`](Self::child) is `enter`, the child's `visit_structure`, then
    /// [`leave`](Self::leave) (what generated code writes out, so that a field type without
    /// `Mutate` is reported once, at the field).
    ///
    /// ```
    /// use typefuzz_core::{Mutate, structure::{token, Structure}};
    /// let mut map = vec![0u64; Structure::MAP_WORDS];
    /// let mut structure = Structure::new(&mut map);
    /// if let Some(step) = structure.enter(token("Wrapper"), 0) {
    ///     7u8.visit_structure(&mut structure);
    ///     structure.leave(step);
    /// }
    /// assert!(structure.new_features() > 0);
    /// ```
    #[inline]
    pub fn enter(&mut self, constructor: u64, field: u32) -> Option<Step> {
        // A child this numbering does not name: walked whole under a node on the way down to
        // the changed part (it may hold it), not at all under a sibling of that part.
        match self.mode {
            SHALLOW => None,
            _ => self.enter_as(constructor, field, FULL, self.level),
        }
    }

    /// Whether child `index` of a [`RANGED`] node is new or next to what is new.
    #[inline]
    fn near_range(&self, index: usize) -> bool {
        index + 1 >= self.range.0 && index <= self.range.1
    }

    /// [`enter`](Self::enter) for child number `index` of its parent as the mutation names the
    /// child it descends into ([`UndoLog::enter_child`](crate::mutate::undo::UndoLog::enter_child)):
    /// under a [`focus`](Self::focus) the walk follows the changed part's path by these numbers.
    /// With `adjacent_only` (the children are alike, so each reports a token: a sequence's
    /// elements) the siblings of the changed child that are not next to it are not visited.
    // Inlined into each sequence and derived field walk in optimized builds only: a debug
    // build would compile its body again for every field type of the user's crate.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn enter_at(
        &mut self,
        constructor: u64,
        field: u32,
        index: usize,
        adjacent_only: bool,
    ) -> Option<Step> {
        // The whole walk (every fresh input, every part that changed) as fast as `enter`.
        if self.mode == FULL {
            return self.enter_as(constructor, field, FULL, self.level);
        }
        self.enter_focused(constructor, field, index, adjacent_only)
    }

    /// [`enter_at`](Self::enter_at) under a [`focus`](Self::focus), outside the changed part
    /// (any mode but [`FULL`], which `enter_at` handles itself).
    #[inline(never)]
    fn enter_focused(
        &mut self,
        constructor: u64,
        field: u32,
        index: usize,
        adjacent_only: bool,
    ) -> Option<Step> {
        debug_assert_ne!(self.mode, FULL);
        match self.mode {
            SHALLOW => None,
            RANGED => {
                let mode = if self.near_range(index) {
                    FULL
                } else {
                    SHALLOW
                };
                self.enter_as(constructor, field, mode, self.level)
            }
            _ => {
                let level = self.level as usize;
                let toward = self.focus[level] as usize;
                let last = level + 1 == self.focus.len();
                if index == toward {
                    let mode = if last { self.target } else { FOCUSED };
                    self.enter_as(constructor, field, mode, self.level + 1)
                } else if last && !(adjacent_only && index.abs_diff(toward) > 1) {
                    // A sibling of the changed node: its token, for the sibling features.
                    self.enter_as(constructor, field, SHALLOW, self.level)
                } else {
                    // Off the way down: nothing here changed.
                    None
                }
            }
        }
    }

    /// The indices of `len` alike children (a sequence's elements) that
    /// [`enter_at`](Self::enter_at) with `adjacent_only` would enter: all of them, or under a
    /// [`focus`](Self::focus) the one on the way down (and, at the last step, its neighbours), so
    /// that a long sequence is not looped over to find them.
    #[inline]
    pub(crate) fn children_to_visit(&self, len: usize) -> core::ops::Range<usize> {
        match self.mode {
            FULL => 0..len,
            SHALLOW => 0..0,
            RANGED => self.range.0.saturating_sub(2)..len.min(self.range.1.saturating_add(2)),
            _ => {
                let level = self.level as usize;
                let toward = self.focus[level] as usize;
                if level + 1 == self.focus.len() {
                    toward.saturating_sub(1)..len.min(toward.saturating_add(2))
                } else {
                    toward.min(len)..len.min(toward.saturating_add(1))
                }
            }
        }
    }

    /// [`enter`](Self::enter), walking the child in `mode` (at `level` of the focus).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn enter_as(&mut self, constructor: u64, field: u32, mode: u8, level: u32) -> Option<Step> {
        if self.remaining == 0 || self.depth >= MAX_DEPTH {
            self.partial = true;
            return None;
        }
        self.remaining -= 1;
        self.events += 1;
        let step = Step {
            step: mix(constructor, u64::from(field) + 1),
            saved: (self.parent, self.grandparent, self.own, self.sibling),
            events: self.events,
            mode: (self.mode, mode),
            level: self.level,
        };
        self.mode = mode;
        self.level = level;
        self.fold(step.step);
        self.grandparent = self.parent;
        self.parent = step.step;
        self.own = 0;
        self.sibling = 0;
        self.depth += 1;
        Some(step)
    }

    /// Returns from the child [`enter`](Self::enter) moved to.
    #[inline]
    pub fn leave(&mut self, step: Step) {
        self.depth -= 1;
        // A child that reported nothing has an impl that hides its value from the fingerprint.
        self.partial |= self.events == step.events;
        self.fold(LEAVE);
        let token = self.own;
        (self.parent, self.grandparent, self.own, self.sibling) = step.saved;
        (self.mode, self.level) = (step.mode.0, step.level);
        // Next to a child on the way down (unchanged, its siblings not visited), nothing is new.
        if token != 0 && step.mode.1 != FOCUSED {
            // Siblings side by side: what the previous field held next to what this one holds.
            if self.sibling != 0 {
                self.mark(mix(mix(step.step, self.sibling), token));
            }
            self.sibling = token;
        }
    }

    // Always inlined: three calls per node, and the call cost more than the bit test.
    #[inline(always)]
    fn mark(&mut self, feature: u64) {
        let index = (feature.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MAP_BITS)) as usize;
        // An observation for the fingerprint alone has no map.
        let Some(map) = self.seen.as_deref_mut() else {
            return;
        };
        let word = &mut map[index / 64];
        let bit = 1u64 << (index % 64);
        if *word & bit == 0 {
            *word |= bit;
            if let Some(slot) = self.discovered.get_mut(self.new as usize) {
                *slot = index as u32;
            }
            self.new += 1;
        }
    }
}

/// Combines two tokens into one (order matters).
///
/// ```
/// use typefuzz_core::structure::{mix, token};
/// assert_ne!(mix(token("A"), token("B")), mix(token("B"), token("A")));
/// ```
#[inline]
pub const fn mix(a: u64, b: u64) -> u64 {
    (a.rotate_left(23) ^ b)
        .wrapping_mul(0xBF58_476D_1CE4_E5B9)
        .rotate_left(31)
}

/// A constructor token for `name` (FNV-1a), usable in `const` items; `#[derive(Mutate)]` uses
/// `"Type::Variant"`.
///
/// ```
/// use typefuzz_core::structure::token;
/// const LEAF: u64 = token("Tree::Leaf");
/// assert_ne!(LEAF, token("Tree::Node"));
/// ```
pub const fn token(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut index = 0;
    while index < bytes.len() {
        hash ^= bytes[index] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        index += 1;
    }
    hash
}

/// The class of a collection length: exact up to 4, then 5-8, 9-16, ... (one class per octave).
///
/// ```
/// use typefuzz_core::structure::length_class;
/// assert_eq!(length_class(3), 3);
/// assert_eq!(length_class(5), length_class(8));
/// assert_ne!(length_class(8), length_class(9));
/// ```
pub fn length_class(len: usize) -> u64 {
    if len <= 4 {
        len as u64
    } else {
        3 + u64::from((len - 1).ilog2())
    }
}

/// The value class of an integer: zero, one, the type's boundaries (`MAX`, `MIN`, `MAX - 1`,
/// `MIN + 1`), small magnitudes (up to 16), powers of two and their neighbours, and the rest;
/// negative values have classes of their own. Few classes on purpose: each is a feature at
/// every place, and next to every sibling class, so fine magnitude classes would multiply the
/// seeds kept without pointing at boundaries a property is likely to branch on.
pub(crate) fn integer_class(magnitude: u128, negative: bool, at_max: bool, at_min: bool) -> u64 {
    let class = if magnitude == 0 {
        0
    } else if at_max {
        1
    } else if at_min {
        2
    } else if magnitude == 1 {
        3
    } else if magnitude <= 16 {
        4
    } else if magnitude.is_power_of_two()
        || (magnitude + 1).is_power_of_two()
        || (magnitude - 1).is_power_of_two()
    {
        5
    } else {
        6
    };
    class | (u64::from(negative) << 3)
}

/// Where [`Structure::enter`] came from, for [`Structure::leave`].
#[must_use = "pass the step to `Structure::leave`"]
pub struct Step {
    step: u64,
    saved: (u64, u64, u64, u64),
    /// The walk's event count after entering: unchanged at the leave, the child was opaque.
    events: u32,
    /// The walk modes of the parent and of the child.
    mode: (u8, u8),
    /// The parent's focus level.
    level: u32,
}

/// What the fingerprint folds in when the walk returns from a child, so that `[[a], b]` and
/// `[[a, b]]` differ.
const LEAVE: u64 = 0x1319_8A2E_0370_7344;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_tell_values_apart_and_equal_values_together() {
        let fingerprint = |value: &Vec<(u8, Option<String>)>| {
            Structure::fingerprint_of(value).expect("std types report their whole structure")
        };
        let values: Vec<Vec<(u8, Option<String>)>> = vec![
            vec![],
            vec![(0, None)],
            vec![(1, None)],
            vec![(0, Some(String::new()))],
            vec![(0, Some("a".into()))],
            vec![(0, Some("b".into()))],
            vec![(0, None), (0, None)],
            vec![(0, Some("ab".into()))],
            vec![(0, Some("a".into())), (0, Some("b".into()))],
        ];
        let mut seen = std::collections::HashSet::new();
        for value in &values {
            assert_eq!(fingerprint(value), fingerprint(&value.clone()));
            assert!(seen.insert(fingerprint(value)), "{value:?} collides");
        }
        // Same classes, different exact values: the features agree, the fingerprints do not.
        assert_ne!(
            Structure::fingerprint_of(&1000u32),
            Structure::fingerprint_of(&1001u32)
        );
        assert_ne!(
            Structure::fingerprint_of(&1.5f64),
            Structure::fingerprint_of(&2.5f64)
        );
        assert_ne!(
            Structure::fingerprint_of(&u128::MAX),
            Structure::fingerprint_of(&(u128::MAX >> 1))
        );
        // Nesting is part of the fingerprint.
        assert_ne!(
            Structure::fingerprint_of(&vec![vec![1u8], vec![2]]),
            Structure::fingerprint_of(&vec![vec![1u8, 2]])
        );
    }

    /// A focused walk enters only the children on the way down to the changed part and the
    /// changed node's neighbours, not the rest of the value (what makes it cheaper than a walk
    /// of the whole mutant; `check_undo` checks it finds the same features).
    #[test]
    fn a_focused_walk_enters_only_the_changed_part_and_its_neighbours() {
        let value: Vec<Vec<u16>> = (0..100).map(|i| vec![i; 3]).collect();
        let entered = |focus: Option<Focus<'_>>| {
            let mut map = vec![0u64; Structure::MAP_WORDS];
            let mut structure = Structure::features_only(&mut map);
            if let Some(focus) = focus {
                structure.focus(focus);
            }
            value.visit_structure(&mut structure);
            MAX_NODES - structure.remaining
        };
        // The whole value: 100 inner vectors of 3 elements.
        assert_eq!(entered(None), 400);
        // Element 50's element 1: the way down (one child), then it and its two neighbours.
        let deep = Focus {
            path: &[50, 1],
            elements: None,
        };
        assert_eq!(entered(Some(deep)), 1 + 3);
        // Element 50 as a whole: it and its neighbours (their tokens), then its 3 elements.
        let element = Focus {
            path: &[50],
            elements: None,
        };
        assert_eq!(entered(Some(element)), 3 + 3);
        // An insertion at 10: elements 9..=11 whole, 8 and 12 for their tokens.
        let inserted = Focus {
            path: &[],
            elements: Some((10, 11)),
        };
        assert_eq!(entered(Some(inserted)), 5 + 3 * 3);
        // The root changed whole: everything.
        let root = Focus {
            path: &[],
            elements: None,
        };
        assert_eq!(entered(Some(root)), 400);
    }

    /// The engine's feature-only walk sets exactly the features a full observation sets, in
    /// the same order, and makes no fingerprint.
    #[test]
    fn a_feature_only_walk_records_the_same_features() {
        let values: Vec<Vec<(u8, Option<String>)>> = vec![
            vec![],
            vec![(0, None)],
            vec![(200, Some("a".into())), (0, None), (1, Some(String::new()))],
            vec![(0, None), (0, None)],
        ];
        let (mut full_map, mut only_map) = (
            vec![0u64; Structure::MAP_WORDS],
            vec![0u64; Structure::MAP_WORDS],
        );
        for value in &values {
            let mut full = Structure::new(&mut full_map);
            value.visit_structure(&mut full);
            let mut only = Structure::features_only(&mut only_map);
            value.visit_structure(&mut only);
            assert_eq!(only.new_features(), full.new_features(), "{value:?}");
            assert!(
                full.new_features() > 0,
                "{value:?}: every value here shows something new"
            );
            assert_eq!(only.discovered, full.discovered, "{value:?}");
            assert!(full.fingerprint().is_some());
            assert_eq!(only.fingerprint(), None);
        }
        assert_eq!(only_map, full_map);
    }

    /// A map shorter than `MAP_WORDS` records nothing; a longer one is used up to `MAP_WORDS`.
    #[test]
    fn maps_of_other_lengths() {
        let value = vec![(3u8, Some("x".to_string()))];
        let mut short = vec![0u64; Structure::MAP_WORDS - 1];
        let mut walk = Structure::new(&mut short);
        value.visit_structure(&mut walk);
        assert_eq!(walk.new_features(), 0);
        assert!(short.iter().all(|&word| word == 0));
        let (mut exact, mut long) = (
            vec![0u64; Structure::MAP_WORDS],
            vec![0u64; Structure::MAP_WORDS + 3],
        );
        let mut walk = Structure::new(&mut exact);
        value.visit_structure(&mut walk);
        let found = walk.new_features();
        let mut walk = Structure::new(&mut long);
        value.visit_structure(&mut walk);
        assert!(found > 0);
        assert_eq!(walk.new_features(), found);
        assert_eq!(long[..Structure::MAP_WORDS], exact[..]);
        assert!(long[Structure::MAP_WORDS..].iter().all(|&word| word == 0));
    }

    #[test]
    fn a_value_the_walk_cannot_see_whole_has_no_fingerprint() {
        #[derive(Clone, Debug)]
        struct Opaque(u8);
        impl Mutate for Opaque {
            fn generate(cx: &mut crate::Context) -> Self {
                Opaque(cx.generate())
            }
            fn mutate(&mut self, cx: &mut crate::Context) {
                self.0.mutate(cx);
            }
            fn shrink(&self, _: &mut crate::Context) -> Vec<Self> {
                Vec::new()
            }
            fn encode(&self, out: &mut crate::codec::Encoder) {
                self.0.encode(out);
            }
            fn decode(input: &mut crate::codec::Decoder<'_>) -> Self {
                Opaque(u8::decode(input))
            }
            fn fingerprint(fingerprint: &mut crate::fingerprint::Fingerprint) {
                fingerprint.name("Opaque");
            }
        }
        assert_eq!(Structure::fingerprint_of(&Opaque(1)), None);
        assert_eq!(
            Structure::fingerprint_of(&(1u8, Opaque(1))),
            None,
            "inside a tuple"
        );
        assert!(Structure::fingerprint_of(&(1u8, ())).is_some());
        let long: Vec<u8> = vec![0; MAX_NODES as usize + 1];
        assert_eq!(
            Structure::fingerprint_of(&long),
            None,
            "past the node bound"
        );
    }
}
