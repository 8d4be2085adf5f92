//! Type fingerprints: a stable 64-bit digest of a type's shape — its variants and fields, their
//! names and types, recursively — so a saved input is never replayed as a value of a different
//! shape.
//!
//! The codec writes a variant as its index and a struct as its fields in order, so reordering
//! `enum Op { Add(u64), Sub(u64) }` to `enum Op { Sub(u64), Add(u64) }` turns the bytes of a saved
//! `Sub(101)` into `Add(101)`. Regression entries therefore record the fingerprint of the type
//! that wrote them, and an entry whose fingerprint differs from the current type's is kept but
//! not replayed.
//!
//! The digest is FNV-1a over a length-prefixed description, so it is the same on every platform
//! and every compiler version. Recursive types (`enum List { Nil, Cons(u8, Box<List>) }`) are
//! described with a back-reference where a type occurs inside itself, so describing them ends.
//!
//! ```
//! use typefuzz_core::fingerprint::of;
//! assert_eq!(of::<Vec<u8>>(), of::<Vec<u8>>());
//! assert_ne!(of::<Vec<u8>>(), of::<Vec<u16>>());
//! assert_ne!(of::<(u8, bool)>(), of::<(bool, u8)>());
//! ```

use crate::Mutate;

/// How deep a description nests before it is cut off: a type like
/// `enum Nested<T> { Leaf(T), Node(Box<Nested<Vec<T>>>) }` contains ever new types, so the
/// back-references alone would not end it.
const MAX_NESTING: usize = 64;

/// The fingerprint of `T`'s shape.
///
/// ```
/// #[derive(Clone, Debug, typefuzz_derive::Mutate)]
/// #[mutate(crate = "typefuzz_core")]
/// enum List { Nil, Cons(u8, Box<List>) }
/// let fingerprint = typefuzz_core::fingerprint::of::<List>();
/// assert_eq!(fingerprint, typefuzz_core::fingerprint::of::<List>());
/// ```
pub fn of<T: Mutate>() -> u64 {
    let mut fingerprint = Fingerprint::new();
    T::fingerprint(&mut fingerprint);
    fingerprint.finish()
}

/// The state of a fingerprint being computed: what [`Mutate::fingerprint`] writes to.
///
/// Implementations describe their type with [`name`](Fingerprint::name) (a type constructor, a
/// variant or a field name) and by calling their parameters' `fingerprint` in order. Derived
/// implementations wrap the description in [`nominal`](Fingerprint::nominal), which ends the
/// recursion of recursive types.
///
/// ```
/// use typefuzz_core::fingerprint::Fingerprint;
/// let mut a = Fingerprint::new();
/// a.name("Vec");
/// let mut b = Fingerprint::new();
/// b.name("VecDeque");
/// assert_ne!(a.finish(), b.finish());
/// ```
#[derive(Clone, Debug)]
pub struct Fingerprint {
    state: u64,
    /// The named types being described, innermost last (by `type_name`, which is only compared,
    /// never hashed: it is not stable across compiler versions).
    open: Vec<&'static str>,
    /// Whether a part's mutation depends on more than its value and the context (see
    /// [`mark_order_dependent`](Fingerprint::mark_order_dependent)); not part of the digest.
    order_dependent: bool,
}

/// Whether mutating a `T` depends only on the value and the [`Context`](crate::Context): false
/// when it contains a part whose iteration order differs between equal values (`HashMap`,
/// `HashSet` with a random hasher), which the engine's mutant recipes (see `engine/src/fuzzer/artifacts.rs`)
/// cannot rebuild.
#[doc(hidden)]
pub fn mutation_is_replayable<T: Mutate>() -> bool {
    let mut fingerprint = Fingerprint::new();
    T::fingerprint(&mut fingerprint);
    !fingerprint.order_dependent
}

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint::new()
    }
}

impl Fingerprint {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// An empty fingerprint.
    ///
    /// ```
    /// let empty = typefuzz_core::fingerprint::Fingerprint::new().finish();
    /// # let _ = empty;
    /// ```
    pub fn new() -> Self {
        Fingerprint {
            state: Self::OFFSET,
            open: Vec::new(),
            order_dependent: false,
        }
    }

    /// Marks the type described as one whose mutation depends on its iteration order, which
    /// differs between equal values (hash tables with a random hasher).
    pub(crate) fn mark_order_dependent(&mut self) {
        self.order_dependent = true;
    }

    fn write_bytes(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.state ^= u64::from(byte);
            self.state = self.state.wrapping_mul(Self::PRIME);
        }
    }

    fn write_usize(&mut self, value: usize) {
        self.write_bytes(&(value as u64).to_le_bytes());
    }

    /// Adds a name (a type constructor, a variant, a field), length-prefixed so that
    /// `("ab", "c")` and `("a", "bc")` differ.
    ///
    /// ```
    /// use typefuzz_core::fingerprint::Fingerprint;
    /// let digest = |parts: &[&str]| {
    ///     let mut f = Fingerprint::new();
    ///     parts.iter().for_each(|p| f.name(p));
    ///     f.finish()
    /// };
    /// assert_ne!(digest(&["ab", "c"]), digest(&["a", "bc"]));
    /// ```
    pub fn name(&mut self, name: &str) {
        self.write_usize(name.len());
        self.write_bytes(name.as_bytes());
    }

    /// Adds a number (an array length, a count of fields).
    ///
    /// ```
    /// use typefuzz_core::fingerprint::Fingerprint;
    /// let mut f = Fingerprint::new();
    /// f.number(3);
    /// assert_ne!(f.finish(), Fingerprint::new().finish());
    /// ```
    pub fn number(&mut self, number: u64) {
        self.write_bytes(&number.to_le_bytes());
    }

    /// Describes the named type `T` (called `name`, e.g. the ident of a derived type) with
    /// `describe`, unless `T` is already being described further out: then only a
    /// back-reference (how many levels out) is added, which is what ends the description of
    /// recursive types. Past a nesting of 64 named types the description is cut off.
    ///
    /// ```
    /// use typefuzz_core::fingerprint::Fingerprint;
    /// struct Loop;
    /// fn describe(f: &mut Fingerprint) {
    ///     f.nominal::<Loop>("Loop", describe); // would recurse forever without the back-reference
    /// }
    /// let mut f = Fingerprint::new();
    /// describe(&mut f);
    /// # let _ = f.finish();
    /// ```
    pub fn nominal<T: ?Sized>(&mut self, name: &str, describe: impl FnOnce(&mut Self)) {
        if self.enter_nominal(core::any::type_name::<T>(), name) {
            describe(self);
            self.leave_nominal();
        }
    }

    /// [`nominal`](Self::nominal) without a closure, for derived fingerprints (one closure and
    /// one `nominal` instantiation fewer per type): for the type whose `core::any::type_name`
    /// is `key`, adds `name` and returns `true` when the type is to be described, followed by
    /// [`leave_nominal`](Self::leave_nominal); adds only the back-reference (or the cut-off)
    /// and returns `false` when it is being described further out (or nested too deep).
    ///
    /// ```
    /// use typefuzz_core::fingerprint::Fingerprint;
    /// let mut f = Fingerprint::new();
    /// assert!(f.enter_nominal("my::Type", "Type"));
    /// assert!(!f.enter_nominal("my::Type", "Type")); // inside itself: a back-reference
    /// f.leave_nominal();
    /// # let _ = f.finish();
    /// ```
    pub fn enter_nominal(&mut self, key: &'static str, name: &str) -> bool {
        if let Some(position) = self.open.iter().rposition(|&open| open == key) {
            self.name("<recursion>");
            self.write_usize(self.open.len() - position);
            return false;
        }
        if self.open.len() >= MAX_NESTING {
            self.name("<deep>");
            return false;
        }
        self.name(name);
        self.open.push(key);
        true
    }

    /// Ends the description [`enter_nominal`](Self::enter_nominal) began.
    ///
    /// ```
    /// let mut f = typefuzz_core::fingerprint::Fingerprint::new();
    /// if f.enter_nominal("my::Unit", "Unit") {
    ///     f.name("struct");
    ///     f.leave_nominal();
    /// }
    /// # let _ = f.finish();
    /// ```
    pub fn leave_nominal(&mut self) {
        self.open.pop();
    }

    /// The digest.
    ///
    /// ```
    /// let digest = typefuzz_core::fingerprint::Fingerprint::new().finish();
    /// # let _ = digest;
    /// ```
    pub fn finish(&self) -> u64 {
        self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{Decoder, Encoder};
    use crate::Context;

    /// `enum List { Nil, Cons(u8, Box<List>) }` written by hand, as the derive would.
    #[derive(Clone)]
    #[allow(dead_code)] // only its shape matters here
    enum List {
        Nil,
        Cons(u8, Box<List>),
    }

    impl Mutate for List {
        fn generate(_: &mut Context) -> Self {
            List::Nil
        }
        fn mutate(&mut self, _: &mut Context) {}
        fn shrink(&self, _: &mut Context) -> Vec<Self> {
            Vec::new()
        }
        fn encode(&self, out: &mut Encoder) {
            match self {
                List::Nil => out.write_byte(0),
                List::Cons(head, tail) => {
                    out.write_byte(1);
                    head.encode(out);
                    tail.encode(out);
                }
            }
        }
        fn decode(_: &mut Decoder<'_>) -> Self {
            List::Nil
        }
        fn fingerprint(f: &mut Fingerprint) {
            f.nominal::<Self>("List", |f| {
                f.name("Nil");
                f.name("Cons");
                u8::fingerprint(f);
                <Box<List>>::fingerprint(f);
            });
        }
    }

    #[test]
    fn recursive_types_have_a_finite_stable_fingerprint() {
        assert_eq!(of::<List>(), of::<List>());
        assert_ne!(of::<List>(), of::<Vec<List>>());
        assert_ne!(of::<Box<List>>(), of::<List>());
    }

    #[test]
    fn std_shapes_are_told_apart() {
        assert_ne!(of::<Option<u8>>(), of::<Result<u8, ()>>());
        assert_ne!(of::<[u8; 2]>(), of::<[u8; 3]>());
        assert_ne!(of::<u32>(), of::<i32>());
        assert_ne!(of::<String>(), of::<Vec<char>>());
        assert_ne!(of::<(u8,)>(), of::<u8>());
    }
}
