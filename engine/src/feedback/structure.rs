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
//!
//! `#[derive(Mutate)]` writes `visit_structure` for structs and enums; the standard types report
//! integer, float, character and length classes. A hand-written [`Mutate`] impl inherits the
//! default, which reports nothing (its values are then invisible to this source, not wrong).
//!
//! ```
//! use typefuzz::{Mutate, feedback::structure::Structure};
//!
//! #[derive(Clone, Debug, Mutate)]
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

/// Most nodes one observation visits.
pub const MAX_NODES: u32 = 4096;

/// Deepest level one observation descends to.
pub const MAX_DEPTH: u32 = 256;

/// Features remembered per observation as the ones it discovered.
const MAX_DISCOVERED: usize = 4;

/// The parent step of the root.
const ROOT: u64 = 0x243F_6A88_85A3_08D3;

/// One observation of an input's structure, recording its features into a feature map.
///
/// See the [module documentation](self) for what the features are.
pub struct Structure<'a> {
    seen: &'a mut [u64],
    /// Per feature, how many times it was set (empty: not counted).
    hits: &'a mut [u32],
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
}

impl<'a> Structure<'a> {
    /// Words (`u64`) of a feature map.
    pub const MAP_WORDS: usize = 1 << (MAP_BITS - 6);

    /// Starts observing one input against `seen`, the features of earlier inputs (a map of
    /// [`MAP_WORDS`](Self::MAP_WORDS) words; a shorter one is treated as full, recording nothing).
    ///
    /// ```
    /// let mut map = vec![0u64; typefuzz::feedback::structure::Structure::MAP_WORDS];
    /// let structure = typefuzz::feedback::structure::Structure::new(&mut map);
    /// assert_eq!(structure.new_features(), 0);
    /// ```
    pub fn new(seen: &'a mut [u64]) -> Self {
        let usable = seen.len() >= Self::MAP_WORDS;
        Structure {
            seen,
            hits: &mut [],
            discovered: [0; MAX_DISCOVERED],
            parent: ROOT,
            grandparent: ROOT,
            own: 0,
            sibling: 0,
            depth: 0,
            remaining: if usable { MAX_NODES } else { 0 },
            new: 0,
        }
    }

    /// Features this observation set that no earlier one had.
    pub fn new_features(&self) -> u32 {
        self.new
    }

    /// Reports the node at the current place: `constructor` names its type and variant (or its
    /// type and value class); see [`token`] to make one.
    ///
    /// ```
    /// use typefuzz::feedback::structure::{token, Structure};
    /// let mut map = vec![0u64; Structure::MAP_WORDS];
    /// let mut structure = Structure::new(&mut map);
    /// structure.node(token("Leaf"));
    /// assert_eq!(structure.new_features(), 3); // alone, under the root, under root and root
    /// ```
    #[inline]
    pub fn node(&mut self, constructor: u64) {
        if self.remaining == 0 {
            return;
        }
        if self.own == 0 {
            self.own = constructor;
        }
        let under_parent = mix(self.parent, constructor);
        self.mark(constructor);
        self.mark(under_parent);
        self.mark(mix(self.grandparent, under_parent));
    }

    /// Observes `value` as field number `field` of a node whose constructor is `constructor`.
    ///
    /// ```
    /// use typefuzz::feedback::structure::{token, Structure};
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
    /// use typefuzz::{Mutate, feedback::structure::{token, Structure}};
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
        if self.remaining == 0 || self.depth >= MAX_DEPTH {
            return None;
        }
        self.remaining -= 1;
        let step = Step {
            step: mix(constructor, u64::from(field) + 1),
            saved: (self.parent, self.grandparent, self.own, self.sibling),
        };
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
        let token = self.own;
        (self.parent, self.grandparent, self.own, self.sibling) = step.saved;
        if token != 0 {
            // Siblings side by side: what the previous field held next to what this one holds.
            if self.sibling != 0 {
                self.mark(mix(mix(step.step, self.sibling), token));
            }
            self.sibling = token;
        }
    }

    #[inline]
    fn mark(&mut self, feature: u64) {
        let index = (feature.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MAP_BITS)) as usize;
        if let Some(count) = self.hits.get_mut(index) {
            *count = count.saturating_add(1);
        }
        let (word, bit) = (&mut self.seen[index / 64], 1u64 << (index % 64));
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
/// use typefuzz::feedback::structure::{mix, token};
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
/// use typefuzz::feedback::structure::token;
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
/// use typefuzz::feedback::structure::length_class;
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
}

/// The feature map of a run, how often each feature was set, and how many features it holds.
pub(crate) struct StructureMap {
    seen: Vec<u64>,
    hits: Vec<u32>,
    pub(crate) features: u64,
}

impl StructureMap {
    pub(crate) fn new() -> Self {
        StructureMap {
            seen: vec![0; Structure::MAP_WORDS],
            hits: vec![0; 1 << MAP_BITS],
            features: 0,
        }
    }

    /// Observes `input`; returns how many features it set first, and (some of) those features.
    pub(crate) fn observe<T: Mutate>(&mut self, input: &T) -> (u32, impl Iterator<Item = u32>) {
        let mut structure = Structure::new(&mut self.seen);
        structure.hits = &mut self.hits;
        input.visit_structure(&mut structure);
        let new = structure.new_features();
        let discovered = structure.discovered;
        self.features += u64::from(new);
        let remembered = (new as usize).min(MAX_DISCOVERED);
        (new, discovered.into_iter().take(remembered))
    }

    /// How many times feature `index` was set: the lower, the rarer.
    pub(crate) fn frequency(&self, index: u32) -> u64 {
        u64::from(self.hits.get(index as usize).copied().unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_features<T: Mutate>(map: &mut StructureMap, value: &T) -> u32 {
        map.observe(value).0
    }

    #[test]
    fn integer_classes_are_features() {
        let mut map = StructureMap::new();
        assert!(new_features(&mut map, &5i32) > 0);
        assert_eq!(new_features(&mut map, &6i32), 0, "5 and 6 share a class");
        assert!(
            new_features(&mut map, &i32::MAX) > 0,
            "MAX is a class of its own"
        );
        assert!(new_features(&mut map, &0i32) > 0);
        assert!(new_features(&mut map, &-1i32) > 0);
        assert!(new_features(&mut map, &5u32) > 0, "types are told apart");
    }

    #[test]
    fn place_matters() {
        let mut map = StructureMap::new();
        assert!(new_features(&mut map, &(0u8, 7u8)) > 0);
        assert!(
            new_features(&mut map, &(7u8, 0u8)) > 0,
            "the same values in other fields"
        );
        assert_eq!(new_features(&mut map, &(0u8, 9u8)), 0);
        assert!(new_features(&mut map, &vec![1u8; 3]) > 0);
        assert!(new_features(&mut map, &vec![1u8; 4]) > 0, "length class");
        assert!(
            new_features(&mut map, &Some(vec![1u8; 4])) > 0,
            "under Some"
        );
    }

    #[test]
    fn huge_and_deep_inputs_are_bounded() {
        let mut map = StructureMap::new();
        // 100,000 distinct magnitudes at one place: far fewer features, as the walk stops
        // after MAX_NODES nodes and magnitudes fall into a few classes.
        let long: Vec<u32> = (0..100_000).collect();
        let features = new_features(&mut map, &long);
        assert!(features > 0 && features < 200, "{features}");
    }
}
