//! `bool`, `char` and `()`.
//!
//! # Shrink orders
//!
//! - `bool`: `false < true`.
//! - `char`: `'a'` is the simplest character, every other one ranks by code point; so shrinking
//!   tries `'a'` first, then lower code points (finitely many characters: well-founded).
//! - `()`: a single value, nothing to shrink.

use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::leaves::Leaves;
use crate::structure::{mix, token, Structure};
use crate::{Context, Mutate, Operator};

/// Toggles the value; shrinks `true` to `false`; encodes as one byte (decoding reads its low bit).
///
/// ```
/// use typefuzz_core::{codec, Context, Mutate};
/// let mut cx = Context::new(1);
/// let mut flag = false;
/// cx.mutate(&mut flag);
/// assert!(flag);
/// assert_eq!(true.shrink(&mut cx), vec![false]);
/// assert!(codec::from_bytes::<bool>(&[3]));
/// ```
impl Mutate for bool {
    /// At once, like the integers.
    fn duplicate_slice(items: &[Self]) -> Vec<Self> {
        items.to_vec()
    }

    fn generate(cx: &mut Context) -> Self {
        cx.rng().bool()
    }

    fn mutate(&mut self, cx: &mut Context) {
        cx.record(Operator::Toggle);
        *self = !*self;
    }

    fn shrink(&self, _cx: &mut Context) -> Vec<Self> {
        if *self {
            vec![false]
        } else {
            Vec::new()
        }
    }

    #[inline]
    fn encode(&self, out: &mut Encoder) {
        out.write_byte(u8::from(*self));
    }

    #[inline]
    fn decode(input: &mut Decoder<'_>) -> Self {
        input.read_byte() & 1 == 1
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("bool");
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        const TYPE: u64 = token("bool");
        structure.node(mix(TYPE, u64::from(*self)));
    }

    fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
        hasher.write(u64::from(*self));
    }

    fn visit_leaves(&mut self, leaves: &mut Leaves<'_>) {
        if let Some(new) = leaves.integer(u64::from(*self), 1) {
            *self = new != 0;
        }
    }
}

/// Characters at the edges of the UTF-8 encoding lengths, control characters, and the ends of
/// the scalar value range.
const INTERESTING_CHARS: [char; 18] = [
    '\0',
    'a',
    'A',
    '0',
    ' ',
    '\n',
    '\t',
    '\u{7f}',
    '\u{80}',
    '\u{ff}',
    '\u{100}',
    '\u{7ff}',
    '\u{800}',
    '\u{d7ff}',
    '\u{e000}',
    '\u{fffd}',
    '\u{ffff}',
    '\u{10ffff}',
];

/// One of the interesting characters (also used by the `String` mutator).
pub(super) fn interesting_char(cx: &mut Context) -> char {
    INTERESTING_CHARS[cx.below(INTERESTING_CHARS.len())]
}

/// A printable ASCII character most of the time, sometimes any scalar value.
fn fresh_char(cx: &mut Context) -> char {
    if cx.chance(7, 8) {
        cx.rng().char(' '..='~')
    } else {
        cx.rng().char(..)
    }
}

/// `c` moved by `delta` code points up or down, skipping the surrogate gap and wrapping around
/// the scalar range. Never `c` itself for `1 <= delta <= 16`.
fn shift_char(c: char, delta: u32, up: bool) -> char {
    const END: u32 = char::MAX as u32 + 1;
    let code = c as u32;
    let moved = if up {
        (code + delta) % END
    } else {
        (code + END - delta) % END
    };
    match char::from_u32(moved) {
        Some(shifted) => shifted,
        // Inside the surrogate gap: continue past it in the direction of travel.
        None if up => '\u{e000}',
        None => '\u{d7ff}',
    }
}

/// The shrink order's key for characters (see the module docs).
fn char_key(c: char) -> (bool, u32) {
    (c != 'a', c as u32)
}

/// Mostly printable ASCII; mutates by random replacement, small code-point steps, or interesting
/// characters; shrinks towards `'a'`, then lower code points. Encodes as a little-endian `u32`;
/// decoding maps invalid scalar values to valid ones deterministically.
///
/// ```
/// use typefuzz_core::{codec, Context, Mutate};
/// let mut cx = Context::new(2);
/// let mut c = 'x';
/// cx.mutate(&mut c);
/// assert_ne!(c, 'x');
/// assert_eq!('z'.shrink(&mut cx)[0], 'a');
/// assert_eq!(codec::from_bytes::<char>(&codec::to_bytes(&'é')), 'é');
/// assert_eq!(codec::from_bytes::<char>(&[0x00, 0xd8, 0, 0]), '\u{fffd}'); // a surrogate
/// ```
impl Mutate for char {
    /// At once, like the integers.
    fn duplicate_slice(items: &[Self]) -> Vec<Self> {
        items.to_vec()
    }

    fn generate(cx: &mut Context) -> Self {
        if cx.chance(1, 16) {
            interesting_char(cx)
        } else {
            fresh_char(cx)
        }
    }

    fn mutate(&mut self, cx: &mut Context) {
        let before = *self;
        let mut op = match cx.weighted(&[2, 3, 2]) {
            Some(0) => Operator::Random,
            Some(1) => Operator::AddSub,
            _ => Operator::Interesting,
        };
        match op {
            Operator::Random => *self = fresh_char(cx),
            Operator::AddSub => {}
            _ => *self = interesting_char(cx),
        }
        // A replacement may pick the same character; a small step never does.
        if op == Operator::AddSub || *self == before {
            op = Operator::AddSub;
            let delta = cx.rng().u32(1..=16);
            let up = cx.rng().bool();
            *self = shift_char(before, delta, up);
        }
        cx.record(op);
    }

    fn shrink(&self, _cx: &mut Context) -> Vec<Self> {
        let key = char_key(*self);
        let mut out = Vec::new();
        let code = *self as u32;
        let halved = char::from_u32(code / 2);
        // One code point down (past the surrogate gap); '\0' has nothing below it.
        let previous = (code > 0).then(|| shift_char(*self, 1, false));
        for candidate in [Some('a'), halved, previous].into_iter().flatten() {
            if char_key(candidate) < key && !out.contains(&candidate) {
                out.push(candidate);
            }
        }
        out
    }

    fn encode(&self, out: &mut Encoder) {
        out.write_array((*self as u32).to_le_bytes());
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        let code = u32::from_le_bytes(input.read_array());
        // Fold values above the scalar range back into it; surrogates have no character.
        char::from_u32(code % (char::MAX as u32 + 1)).unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("char");
    }

    /// Classes: NUL, other control, space, digit, lower, upper, other ASCII, then two-, three- and
    /// four-byte UTF-8 characters.
    fn visit_structure(&self, structure: &mut Structure<'_>) {
        const TYPE: u64 = token("char");
        let c = *self;
        let class: u64 = match c {
            '\0' => 0,
            _ if c.is_ascii_control() => 1,
            ' ' => 2,
            '0'..='9' => 3,
            'a'..='z' => 4,
            'A'..='Z' => 5,
            _ if c.is_ascii() => 6,
            _ => 5 + c.len_utf8() as u64,
        };
        structure.node(mix(TYPE, class));
        structure.value(u64::from(c));
    }

    fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
        hasher.write(u64::from(*self));
    }

    fn visit_leaves(&mut self, leaves: &mut Leaves<'_>) {
        // A replacement that is not a scalar value (a surrogate, or above U+10FFFF) is ignored.
        if let Some(new) = leaves.integer(u64::from(*self), 4) {
            if let Some(c) = u32::try_from(new).ok().and_then(char::from_u32) {
                *self = c;
            }
        }
    }
}

/// The single value: generation, mutation and shrinking do nothing; the codec writes one
/// placeholder byte.
///
/// ```
/// use typefuzz_core::{Context, Mutate};
/// let mut cx = Context::new(1);
/// cx.mutate(&mut ());
/// assert!(cx.trace().is_empty());
/// ```
impl Mutate for () {
    fn generate(_cx: &mut Context) -> Self {}

    fn mutate(&mut self, _cx: &mut Context) {}

    fn shrink(&self, _cx: &mut Context) -> Vec<Self> {
        Vec::new()
    }

    /// One placeholder byte: every value takes at least one byte, so a collection's elements never
    /// outnumber its encoding's bytes (the decoder's element budget relies on it).
    fn encode(&self, out: &mut Encoder) {
        out.write_byte(0);
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        input.read_byte();
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("()");
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        structure.node(token("()"));
    }

    /// One value: nothing to write.
    fn hash_value(&self, _: &mut crate::mutate::ValueHasher) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifting_skips_surrogates_and_wraps() {
        assert_eq!(shift_char('\u{d7ff}', 1, true), '\u{e000}');
        assert_eq!(shift_char('\u{e000}', 1, false), '\u{d7ff}');
        assert_eq!(shift_char(char::MAX, 1, true), '\0');
        assert_eq!(shift_char('\0', 1, false), char::MAX);
    }

    #[test]
    fn char_shrinks_towards_a_then_lower() {
        let mut cx = Context::new(0);
        assert_eq!('c'.shrink(&mut cx), vec!['a', '1', 'b']);
        assert_eq!('a'.shrink(&mut cx), Vec::<char>::new());
        assert_eq!('\0'.shrink(&mut cx), vec!['a']);
        assert_eq!(
            '\u{e000}'.shrink(&mut cx),
            vec!['a', '\u{7000}', '\u{d7ff}']
        );
    }
}
