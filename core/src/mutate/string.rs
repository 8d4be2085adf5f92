//! `String`: the sequence mutators at the level of characters, so every mutant is valid UTF-8.
//!
//! # Shrink order
//!
//! Strings are ordered by number of characters, then lexicographically by the `char` shrink
//! order (`'a'` first, then by code point). Candidates are shorter, or replace one character by a
//! simpler one; as for `Vec`, this order is well-founded.

use super::scalar::interesting_char;
use super::vec::{
    can_descend, chunk_removals, generate_child, mutate_child, remove_run, resize_length,
    shrink_copy_budget, SHRINK_ELEMENTS, SHRINK_PER_ELEMENT,
};
use crate::__private::split_size;
use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::leaves::Leaves;
use crate::structure::{length_class, mix, token, Structure};
use crate::{Context, Mutate, Operator};
use core::ops::ControlFlow;

/// Byte offset of character number `index` (the string's length for `index == chars`).
fn offset(s: &str, index: usize) -> usize {
    s.char_indices()
        .nth(index)
        .map_or(s.len(), |(offset, _)| offset)
}

/// Character number `index` and its byte offset (`index` must be in range).
fn char_at(s: &str, index: usize) -> (usize, char) {
    s.char_indices()
        .nth(index)
        .expect("character index in range")
}

/// Replaces the character at byte offset `at` by `c`, without allocating a temporary string.
fn replace_char(s: &mut String, at: usize, old: char, c: char) {
    let mut buffer = [0u8; 4];
    s.replace_range(at..at + old.len_utf8(), c.encode_utf8(&mut buffer));
}

/// Strings of at most `cx.size()` characters, mostly printable ASCII. Mutations insert a fresh
/// or interesting character, duplicate, remove, swap or mutate characters, or resize to a
/// generated length (truncate, or append fresh characters), so mutants keep their seeds' length
/// on average; the result is always valid UTF-8. Encodes as the byte length and the UTF-8 bytes; decoding is
/// lossy (invalid UTF-8 becomes U+FFFD), so every byte string decodes.
///
/// ```
/// use typefuzz_core::{codec, Context, Mutate};
/// let mut cx = Context::new(5).with_max_size(10);
/// let mut s: String = cx.generate();
/// assert!(s.chars().count() <= 10);
/// let before = s.clone();
/// cx.mutate(&mut s);
/// assert_ne!(s, before);
/// assert_eq!(codec::from_bytes::<String>(&codec::to_bytes(&s)), s);
/// assert_eq!(codec::from_bytes::<String>(&[2, 0xff, b'x']), "\u{fffd}x");
/// ```
impl Mutate for String {
    fn generate(cx: &mut Context) -> Self {
        let size = cx.size();
        let len = cx.below(size + 1);
        let child = split_size(size, len);
        let mut s = String::with_capacity(len);
        for _ in 0..len {
            s.push(crate::__private::generate_field(cx, child, char::generate));
        }
        s
    }

    fn mutate(&mut self, cx: &mut Context) {
        let len = self.chars().count();
        let room = len < cx.max_size();
        let elements = can_descend::<char>(cx);
        let weights = if len == 0 {
            // The only change an empty string admits, even at a maximum size of 0.
            [1, 0, 0, 0, 0, 0]
        } else {
            [
                if room { 2 } else { 0 },                 // Insert
                if room { 1 } else { 0 },                 // Duplicate
                2,                                        // Remove
                if len >= 2 && elements { 1 } else { 0 }, // Swap
                1,                                        // Truncate
                if elements { 4 } else { 0 },             // Element
            ]
        };
        match cx.weighted(&weights) {
            Some(0) => {
                cx.record(Operator::Insert);
                let c = if cx.chance(1, 4) {
                    interesting_char(cx)
                } else {
                    generate_child(cx)
                };
                let at = offset(self, cx.below(len + 1));
                self.insert(at, c);
            }
            Some(1) => {
                cx.record(Operator::Duplicate);
                let (_, c) = char_at(self, cx.below(len));
                let at = offset(self, cx.below(len + 1));
                self.insert(at, c);
            }
            Some(2) => {
                cx.record(Operator::Remove);
                let (start, count) = remove_run(cx, len);
                let from = offset(self, start);
                let to = offset(self, start + count);
                self.replace_range(from..to, "");
            }
            Some(3) => {
                let first = cx.below(len);
                let second = (first + 1 + cx.below(len - 1)) % len;
                let (low, high) = (first.min(second), first.max(second));
                let (low_at, low_char) = char_at(self, low);
                let (high_at, high_char) = char_at(self, high);
                if low_char == high_char {
                    // Swapping equal characters would change nothing: mutate one instead.
                    cx.record(Operator::Element);
                    let mut c = low_char;
                    mutate_child(&mut c, cx);
                    replace_char(self, low_at, low_char, c);
                } else {
                    cx.record(Operator::Swap);
                    // The later one first, so the earlier offset stays valid.
                    replace_char(self, high_at, high_char, low_char);
                    replace_char(self, low_at, low_char, high_char);
                }
            }
            Some(4) => {
                let target = resize_length(cx, len);
                if target < len {
                    cx.record(Operator::Truncate);
                    let keep = offset(self, target);
                    self.truncate(keep);
                } else {
                    // Grown to a generated length: fresh characters, as generation draws them.
                    cx.record(Operator::Insert);
                    let child = split_size(cx.size(), target);
                    for _ in len..target {
                        self.push(crate::__private::generate_field(cx, child, char::generate));
                    }
                }
            }
            _ => {
                cx.record(Operator::Element);
                let (at, old) = char_at(self, cx.below(len));
                let mut c = old;
                mutate_child(&mut c, cx);
                replace_char(self, at, old, c);
            }
        }
    }

    /// Removals of chunks of characters (as [`Vec`]'s), then the first characters shrunk, capped
    /// like a sequence's list to about 64 MiB of copies or twice the string.
    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        let mut out = Vec::new();
        let mut budget = shrink_copy_budget(self.len(), 1);
        string_shrinks(
            self,
            cx,
            &mut |candidate| match budget.checked_sub(candidate.len()) {
                Some(left) => {
                    budget = left;
                    out.push(candidate);
                    ControlFlow::Continue(())
                }
                None => ControlFlow::Break(()),
            },
        );
        out
    }

    /// [`shrink`](Mutate::shrink)'s candidates without its cap, each made when it is visited.
    fn shrink_each(&self, cx: &mut Context, visit: &mut dyn FnMut(Self) -> ControlFlow<()>) {
        string_shrinks(self, cx, visit);
    }

    fn encode(&self, out: &mut Encoder) {
        out.write_len(self.len());
        out.write_bytes(self.as_bytes());
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        let len = input.read_len();
        String::from_utf8_lossy(input.read_bytes(len)).into_owned()
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("String");
    }

    /// The length class (in characters), and the first and last characters' classes.
    fn visit_structure(&self, structure: &mut Structure<'_>) {
        const TYPE: u64 = token("String");
        structure.node(mix(TYPE, length_class(self.len())));
        structure.bytes(self.as_bytes());
        if let Some(first) = self.chars().next() {
            structure.child(TYPE, 0, &first);
        }
        if let Some(last) = self.chars().next_back() {
            structure.child(TYPE, 1, &last);
        }
    }

    fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
        hasher.write_bytes(self.as_bytes());
    }

    /// The whole string is one byte-string leaf (replaced only by UTF-8).
    fn visit_leaves(&mut self, leaves: &mut Leaves<'_>) {
        if let Some(new) = leaves.bytes(self.as_bytes()) {
            if let Ok(text) = std::str::from_utf8(new) {
                text.clone_into(self);
            }
        }
    }
}

/// A string's shrink candidates, in order, to `visit` until it breaks.
fn string_shrinks(text: &str, cx: &mut Context, visit: &mut dyn FnMut(String) -> ControlFlow<()>) {
    let len = text.chars().count();
    if len == 0 {
        return;
    }
    for removed in chunk_removals(len) {
        let mut smaller = text.to_owned();
        smaller.replace_range(offset(text, removed.start)..offset(text, removed.end), "");
        if visit(smaller).is_break() {
            return;
        }
    }
    for (at, old) in text.char_indices().take(SHRINK_ELEMENTS) {
        for c in old.shrink(cx).into_iter().take(SHRINK_PER_ELEMENT) {
            let mut replaced = text.to_owned();
            replace_char(&mut replaced, at, old, c);
            if visit(replaced).is_break() {
                return;
            }
        }
    }
}
