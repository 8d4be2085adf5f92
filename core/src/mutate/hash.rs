//! [`ValueHasher`]: a 64-bit hash of a value's exact contents, by one pass over it, which the
//! engine counts distinct inputs by (`Stats::unique_valid`).
//!
//! Counting distinct inputs runs on every valid test, so it must cost far less than the test.
//! The structure walk ([`Mutate::visit_structure`]) can fold a value into a fingerprint too, but
//! it keeps a parent and sibling context at every step for its features and costs about as much
//! as generating the value; [`Mutate::hash_value`] only folds each leaf's bits, each collection's
//! length and each enum's variant index into one word (three to ten times cheaper on the
//! benchmark's machines, terms and trees), so the walk can run on a sample of the inputs while
//! every input is still counted.

use crate::byte_hash::hash_bytes;
use crate::structure::{mix, Structure};
use crate::Mutate;

/// Where a hash starts (the first digits of pi's fractional part, as `structure`'s root).
const START: u64 = 0x243F_6A88_85A3_08D3;

/// Folds a value's leaves into a 64-bit hash for counting distinct values: equal values hash
/// equally; values that differ anywhere differ in their hash but for collisions (about 2^-64 per
/// pair). A value some part of which cannot be hashed (a hand-written [`Mutate`] impl whose
/// [`visit_structure`](Mutate::visit_structure) reports nothing) makes the hash
/// [`opaque`](Self::opaque): [`finish`](Self::finish) is then `None`.
///
/// [`Mutate::hash_value`] feeds it; `#[derive(Mutate)]` writes that method (each variant's
/// index, then its fields), and the standard types write their bits, lengths and elements.
///
/// ```
/// use typefuzz_core::mutate::ValueHasher;
/// assert_eq!(ValueHasher::of(&vec![1u8, 2]), ValueHasher::of(&vec![1u8, 2]));
/// assert_ne!(ValueHasher::of(&vec![1u8, 2]), ValueHasher::of(&vec![2u8, 1]));
/// // Lengths are part of the hash: nesting cannot be confused.
/// assert_ne!(ValueHasher::of(&vec![vec![1u8], vec![2]]), ValueHasher::of(&vec![vec![1u8, 2]]));
/// ```
#[derive(Clone, Debug)]
pub struct ValueHasher {
    state: u64,
    opaque: bool,
}

impl Default for ValueHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl ValueHasher {
    /// An empty hash.
    ///
    /// ```
    /// let hasher = typefuzz_core::mutate::ValueHasher::new();
    /// assert!(hasher.finish().is_some());
    /// ```
    pub fn new() -> Self {
        ValueHasher {
            state: START,
            opaque: false,
        }
    }

    /// The hash of `value` (`None` if some part of it is opaque; see the type's docs).
    ///
    /// ```
    /// use typefuzz_core::mutate::ValueHasher;
    /// assert_ne!(ValueHasher::of(&Some(0u32)), ValueHasher::of(&None::<u32>));
    /// ```
    pub fn of<T: Mutate>(value: &T) -> Option<u64> {
        let mut hasher = ValueHasher::new();
        value.hash_value(&mut hasher);
        hasher.finish()
    }

    /// Folds one word in (a leaf's bits, a length, a variant index); order matters.
    ///
    /// ```
    /// use typefuzz_core::mutate::ValueHasher;
    /// let hash = |words: &[u64]| {
    ///     let mut hasher = ValueHasher::new();
    ///     words.iter().for_each(|&w| hasher.write(w));
    ///     hasher.finish()
    /// };
    /// assert_ne!(hash(&[1, 2]), hash(&[2, 1]));
    /// ```
    #[inline]
    pub fn write(&mut self, word: u64) {
        self.state = mix(self.state, word);
    }

    /// Folds a byte string in, its length first.
    ///
    /// ```
    /// use typefuzz_core::mutate::ValueHasher;
    /// let hash = |parts: &[&[u8]]| {
    ///     let mut hasher = ValueHasher::new();
    ///     parts.iter().for_each(|p| hasher.write_bytes(p));
    ///     hasher.finish()
    /// };
    /// assert_ne!(hash(&[b"ab", b"c"]), hash(&[b"a", b"bc"]));
    /// ```
    #[inline]
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        self.write(hash_bytes(bytes));
    }

    /// Marks the value as impossible to hash whole: [`finish`](Self::finish) returns `None`
    /// (the engine then counts the value by its codec bytes).
    ///
    /// ```
    /// let mut hasher = typefuzz_core::mutate::ValueHasher::new();
    /// hasher.opaque();
    /// assert_eq!(hasher.finish(), None);
    /// ```
    pub fn opaque(&mut self) {
        self.opaque = true;
    }

    /// Folds in `value` by its structure walk's
    /// [`fingerprint`](crate::structure::Structure::fingerprint) (what the default
    /// [`Mutate::hash_value`] does), or marks the hash [`opaque`](Self::opaque) when the walk
    /// cannot see the whole value.
    ///
    /// ```
    /// use typefuzz_core::mutate::ValueHasher;
    /// let mut hasher = ValueHasher::new();
    /// hasher.walk(&"text".to_string());
    /// assert!(hasher.finish().is_some());
    /// ```
    pub fn walk<T: Mutate>(&mut self, value: &T) {
        match Structure::fingerprint_of(value) {
            Some(fingerprint) => self.write(fingerprint),
            None => self.opaque(),
        }
    }

    /// The hash, avalanched (every bit of the state affects every bit of the result, which the
    /// distinct-count estimate needs), or `None` if the value was [`opaque`](Self::opaque).
    ///
    /// ```
    /// let mut hasher = typefuzz_core::mutate::ValueHasher::new();
    /// hasher.write(7);
    /// assert!(hasher.finish().is_some());
    /// ```
    pub fn finish(&self) -> Option<u64> {
        if self.opaque {
            return None;
        }
        // splitmix64's finalizer.
        let mut h = self.state;
        h ^= h >> 30;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 27;
        h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
        Some(h ^ (h >> 31))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, HashSet, VecDeque};

    /// Distinct values of many std shapes get distinct hashes; equal ones equal hashes.
    #[test]
    fn std_values_hash_by_their_contents() {
        fn distinct<T: Mutate + std::fmt::Debug>(values: &[T]) {
            let mut seen = HashSet::new();
            for value in values {
                let hash = ValueHasher::of(value).expect("std values hash whole");
                assert_eq!(Some(hash), ValueHasher::of(&value.clone()), "{value:?}");
                assert!(seen.insert(hash), "{value:?} collides");
            }
        }
        distinct(&[0u8, 1, 255]);
        distinct(&[0i64, -1, i64::MIN, i64::MAX]);
        distinct(&[0.0f64, -0.0, 1.5, f64::NAN]);
        distinct(&['a', 'b', '\u{10FFFF}']);
        distinct(&[false, true]);
        distinct(&[None, Some(0u8), Some(1)]);
        distinct(&[Ok::<u8, u8>(0), Err(0)]);
        distinct(&[vec![], vec![0u16], vec![0, 0], vec![1, 0]]);
        distinct(&[VecDeque::from([1u8, 2]), VecDeque::from([2, 1])]);
        distinct(&[String::new(), "a".into(), "ab".into(), "b".into()]);
        distinct(&[(0u8, 1u8), (1, 0), (0, 0)]);
        distinct(&[[0u8; 3], [0, 0, 1], [1, 0, 0]]);
        distinct(&[Box::new(1u8), Box::new(2)]);
        distinct(&[
            vec![vec![1u8], vec![2]],
            vec![vec![1, 2]],
            vec![vec![], vec![1, 2]],
        ]);
        distinct(&[
            std::time::Duration::from_secs(1),
            std::time::Duration::from_nanos(1),
        ]);
        // Types without a dedicated impl hash by their walk, whole.
        distinct(&[BTreeMap::from([(1u8, 2u8)]), BTreeMap::from([(2, 1)])]);
    }

    #[test]
    fn an_opaque_part_makes_the_whole_value_opaque() {
        #[derive(Clone, Debug)]
        struct Opaque;
        impl Mutate for Opaque {
            fn generate(_: &mut crate::Context) -> Self {
                Opaque
            }
            fn mutate(&mut self, _: &mut crate::Context) {}
            fn shrink(&self, _: &mut crate::Context) -> Vec<Self> {
                Vec::new()
            }
            fn encode(&self, _: &mut crate::codec::Encoder) {}
            fn decode(_: &mut crate::codec::Decoder<'_>) -> Self {
                Opaque
            }
        }
        assert_eq!(ValueHasher::of(&Opaque), None);
        assert_eq!(ValueHasher::of(&vec![(1u8, Opaque)]), None);
        assert!(ValueHasher::of(&vec![(1u8, ())]).is_some());
    }
}
