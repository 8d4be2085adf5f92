//! The byte codec: a compact encoding of [`Mutate`] values that every byte string decodes.
//!
//! Corpus files, regression files and libFuzzer's buffers hold this encoding. Decoding is total:
//! reading past the end yields zero bytes, collection lengths are capped by a budget that starts at
//! the input's length (so decoding allocates O(input length)), and nesting deeper than
//! [`Decoder::MAX_DEPTH`] yields the smallest value of the type instead of recursing.
//!
//! ```
//! use typefuzz_core::codec::{from_bytes, to_bytes};
//! let v = vec![Some(3u16), None];
//! assert_eq!(from_bytes::<Vec<Option<u16>>>(&to_bytes(&v)), v);
//! let _any: Vec<Option<u16>> = from_bytes(b"\xff\xff\xff anything at all");
//! ```

use crate::{Context, Mutate};

/// Encodes `value` into a fresh byte vector.
///
/// ```
/// assert_eq!(typefuzz_core::codec::to_bytes(&0x0102u16), vec![2, 1]);
/// ```
pub fn to_bytes<T: Mutate>(value: &T) -> Vec<u8> {
    let mut out = Encoder::new();
    value.encode(&mut out);
    out.into_bytes()
}

/// Decodes a value from any byte string (total: never panics).
///
/// ```
/// assert_eq!(typefuzz_core::codec::from_bytes::<u16>(&[2, 1]), 0x0102);
/// assert_eq!(typefuzz_core::codec::from_bytes::<u16>(&[]), 0);
/// ```
pub fn from_bytes<T: Mutate>(bytes: &[u8]) -> T {
    T::decode(&mut Decoder::new(bytes))
}

/// The output side of the codec: a byte buffer plus the nesting depth, mirrored by [`Decoder`].
///
/// ```
/// let mut out = typefuzz_core::codec::Encoder::new();
/// out.write_len(300);
/// assert_eq!(out.as_bytes(), &[0xac, 0x02]);
/// ```
pub struct Encoder {
    /// The allocation written into. Its length stays 0: the bytes written are
    /// `buf.as_ptr()..cursor`, which `as_bytes` reads and `into_bytes` commits.
    buf: Vec<u8>,
    /// Where the next byte goes, in `buf`'s allocation (null before the first write).
    cursor: *mut u8,
    /// The end of `buf`'s allocation (null before the first write).
    ///
    /// A cursor and an end rather than `Vec::push`: the room test then compares pointers, which
    /// SanitizerCoverage's `trace-compares` (on by default under cargo-fuzz) does not hook,
    /// where `len == capacity` calls a hook for every byte written, and the typed mutator
    /// encodes every mutant it hands libFuzzer (as [`Decoder`] reads through a slice iterator).
    end: *mut u8,
    depth: Depth,
    truncated: bool,
}

// SAFETY: `cursor` and `end` only ever point into `buf`, which the encoder owns: moving or
// sharing an encoder moves or shares the buffer, as for a `Vec<u8>`.
unsafe impl Send for Encoder {}
// SAFETY: as above; `&Encoder` only reads the bytes written.
unsafe impl Sync for Encoder {}

impl Encoder {
    /// An empty encoder.
    ///
    /// ```
    /// assert!(typefuzz_core::codec::Encoder::new().as_bytes().is_empty());
    /// ```
    pub const fn new() -> Self {
        Encoder {
            buf: Vec::new(),
            cursor: core::ptr::null_mut(),
            end: core::ptr::null_mut(),
            depth: Depth::TOP,
            truncated: false,
        }
    }

    /// Makes room for `additional` more bytes, a small constant (at most 8: one value's
    /// fixed-size encoding). The test compares pointers (see the `end` field); `wrapping_add`
    /// because the cursor may be null, and no wrap-around is possible for so few bytes past a
    /// heap address or null.
    #[inline(always)]
    fn reserve_few(&mut self, additional: usize) {
        debug_assert!(additional <= 8);
        if self.cursor.wrapping_add(additional) > self.end {
            self.grow(additional);
        }
    }

    /// Makes room for `additional` more bytes, any number: an integer test of the room left
    /// (one per call, for strings and raw byte runs).
    #[inline]
    fn reserve(&mut self, additional: usize) {
        // Both null before the first write: no room.
        let room = (self.end as usize).wrapping_sub(self.cursor as usize);
        if additional > room {
            self.grow(additional);
        }
    }

    /// Moves the bytes written to an allocation with room for at least `additional` more.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, additional: usize) {
        let written = self.len();
        // SAFETY: the first `written` bytes of the allocation were written by this encoder,
        // and `written <= capacity`.
        unsafe { self.buf.set_len(written) };
        self.buf.reserve(additional.max(written).max(64));
        let start = self.buf.as_mut_ptr();
        // SAFETY: `written` and `capacity` are within (or one past) the allocation.
        unsafe {
            self.buf.set_len(0);
            self.cursor = start.add(written);
            self.end = start.add(self.buf.capacity());
        }
    }

    /// How many bytes were written.
    #[inline(always)]
    fn len(&self) -> usize {
        if self.cursor.is_null() {
            // Nothing was written, and `buf` has not allocated.
            return 0;
        }
        // SAFETY: the cursor points into (or one past) `buf`'s allocation, at or after its start.
        unsafe { self.cursor.offset_from(self.buf.as_ptr()) as usize }
    }

    /// Appends one byte.
    ///
    /// ```
    /// let mut out = typefuzz_core::codec::Encoder::new();
    /// out.write_byte(7);
    /// assert_eq!(out.as_bytes(), &[7]);
    /// ```
    #[inline]
    pub fn write_byte(&mut self, byte: u8) {
        self.reserve_few(1);
        // SAFETY: `reserve` left room for one byte at the cursor, in `buf`'s allocation.
        unsafe {
            self.cursor.write(byte);
            self.cursor = self.cursor.add(1);
        }
    }

    /// Appends raw bytes.
    ///
    /// ```
    /// let mut out = typefuzz_core::codec::Encoder::new();
    /// out.write_bytes(b"ab");
    /// assert_eq!(out.as_bytes(), b"ab");
    /// ```
    #[inline]
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len());
        // SAFETY: `reserve` left room for `bytes.len()` bytes at the cursor, in `buf`'s
        // allocation, which `bytes` (borrowed while the encoder is borrowed mutably) is not.
        unsafe {
            core::ptr::copy_nonoverlapping(bytes.as_ptr(), self.cursor, bytes.len());
            self.cursor = self.cursor.add(bytes.len());
        }
    }

    /// Appends `N` bytes known at compile time (an integer's `to_le_bytes`), mirroring
    /// [`Decoder::read_array`]: one room test and `N` stores, with no length to compare.
    ///
    /// ```
    /// let mut out = typefuzz_core::codec::Encoder::new();
    /// out.write_array(0x0102u16.to_le_bytes());
    /// assert_eq!(out.as_bytes(), &[2, 1]);
    /// ```
    #[inline]
    pub fn write_array<const N: usize>(&mut self, bytes: [u8; N]) {
        // Integers' encodings, at most 8 bytes: one pointer test; longer arrays test the room
        // as `write_bytes` does (`N` is a constant, so only one of the two is compiled).
        if N <= 8 {
            self.reserve_few(N);
        } else {
            self.reserve(N);
        }
        // `N` is a constant: the loop unrolls into `N` stores.
        for byte in bytes {
            // SAFETY: `reserve` left room for `N` bytes at the cursor, in `buf`'s allocation.
            unsafe {
                self.cursor.write(byte);
                self.cursor = self.cursor.add(1);
            }
        }
    }

    /// Appends a length or count as a LEB128 varint.
    ///
    /// ```
    /// let mut out = typefuzz_core::codec::Encoder::new();
    /// out.write_len(5);
    /// assert_eq!(out.as_bytes(), &[5]);
    /// ```
    #[inline]
    pub fn write_len(&mut self, mut len: usize) {
        loop {
            let low = (len & 0x7f) as u8;
            len >>= 7;
            if len == 0 {
                self.write_byte(low);
                return;
            }
            self.write_byte(low | 0x80);
        }
    }

    /// Appends the tag of variant `index` out of `count` variants (one byte up to 256 variants).
    ///
    /// ```
    /// let mut out = typefuzz_core::codec::Encoder::new();
    /// out.write_tag(2, 3);
    /// assert_eq!(out.as_bytes(), &[2]);
    /// ```
    #[inline]
    pub fn write_tag(&mut self, index: usize, count: usize) {
        if count <= 256 {
            self.write_byte(index as u8);
        } else {
            self.write_array((index as u32).to_le_bytes());
        }
    }

    /// Encodes a nested value one level deeper; past [`Decoder::MAX_DEPTH`] only a placeholder
    /// byte is written, matching the decoder, which skips it and produces the smallest value.
    /// (The placeholder keeps every value at least one byte long, so a collection's elements
    /// never outnumber its encoding's bytes: the decoder's element budget relies on it.)
    ///
    /// ```
    /// use typefuzz_core::codec::EncodeInto;
    /// let mut out = typefuzz_core::codec::Encoder::new();
    /// out.nested(|out| 5u8.encode_into(out));
    /// assert_eq!(out.as_bytes(), &[5]);
    /// ```
    #[inline]
    pub fn nested(&mut self, f: impl FnOnce(&mut Self)) {
        if self.enter_nested() {
            f(self);
            self.leave_nested();
        }
    }

    /// [`nested`](Self::nested) without a closure, for derived encoders (one closure and one
    /// `nested` instantiation fewer per type): `true` when the value is to be encoded, one
    /// level deeper, followed by [`leave_nested`](Self::leave_nested); `false` past
    /// [`Decoder::MAX_DEPTH`], after writing the placeholder byte.
    ///
    /// ```
    /// use typefuzz_core::codec::EncodeInto;
    /// let mut out = typefuzz_core::codec::Encoder::new();
    /// if out.enter_nested() {
    ///     5u8.encode_into(&mut out);
    ///     out.leave_nested();
    /// }
    /// assert_eq!(out.as_bytes(), &[5]);
    /// ```
    #[inline]
    pub fn enter_nested(&mut self) -> bool {
        if self.depth.at_limit() {
            self.write_byte(0);
            self.truncated = true;
            return false;
        }
        self.depth.enter();
        true
    }

    /// Leaves the level [`enter_nested`](Self::enter_nested) entered.
    ///
    /// ```
    /// let mut out = typefuzz_core::codec::Encoder::new();
    /// assert!(out.enter_nested());
    /// out.leave_nested();
    /// ```
    #[inline]
    pub fn leave_nested(&mut self) {
        self.depth.leave();
    }

    /// Forgets the bytes written, keeping the allocation: encoding into one reused encoder
    /// costs no allocation per value once the buffer has grown.
    ///
    /// ```
    /// let mut out = typefuzz_core::codec::Encoder::new();
    /// out.write_byte(1);
    /// out.clear();
    /// assert!(out.as_bytes().is_empty());
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        if !self.cursor.is_null() {
            self.cursor = self.buf.as_mut_ptr();
        }
        self.depth = Depth::TOP;
        self.truncated = false;
    }

    /// Whether a part of the value was nested deeper than [`Decoder::MAX_DEPTH`] and replaced by
    /// a placeholder: the bytes then decode to a different, smaller value, and must not be saved
    /// as if they were the value.
    ///
    /// ```
    /// use typefuzz_core::codec::{EncodeInto, Encoder};
    /// let mut out = Encoder::new();
    /// vec![vec![1u8]].encode_into(&mut out);
    /// assert!(!out.is_truncated());
    /// ```
    #[inline]
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// The bytes written so far.
    ///
    /// ```
    /// assert!(typefuzz_core::codec::Encoder::new().as_bytes().is_empty());
    /// ```
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        // SAFETY: the first `len()` bytes of `buf`'s allocation were written by this encoder
        // (for a null cursor, `len()` is 0 and the pointer is `Vec`'s dangling one).
        unsafe { core::slice::from_raw_parts(self.buf.as_ptr(), self.len()) }
    }

    /// The bytes written.
    ///
    /// ```
    /// assert!(typefuzz_core::codec::Encoder::new().into_bytes().is_empty());
    /// ```
    pub fn into_bytes(mut self) -> Vec<u8> {
        let written = self.len();
        // SAFETY: as in `as_bytes`.
        unsafe { self.buf.set_len(written) };
        core::mem::take(&mut self.buf)
    }
}

impl Default for Encoder {
    fn default() -> Self {
        Encoder::new()
    }
}

impl Clone for Encoder {
    fn clone(&self) -> Self {
        let mut copy = Encoder::new();
        copy.write_bytes(self.as_bytes());
        copy.depth = self.depth;
        copy.truncated = self.truncated;
        copy
    }
}

impl core::fmt::Debug for Encoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Encoder")
            .field("bytes", &self.as_bytes())
            .field("depth", &self.depth.level())
            .field("truncated", &self.truncated)
            .finish()
    }
}

/// The nesting depth of an [`Encoder`] or a [`Decoder`], `0..=Decoder::MAX_DEPTH`.
///
/// Kept as an address (never dereferenced) so that the bound test compares pointers: under
/// cargo-fuzz, `depth >= MAX_DEPTH` on an integer calls a comparison hook for every nested
/// value encoded or decoded, and `depth -= 1` adds an overflow check that calls another.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Depth(*const u8);

impl core::fmt::Debug for Depth {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.level().fmt(f)
    }
}

// SAFETY: the pointer is a number that is never dereferenced.
unsafe impl Send for Depth {}
// SAFETY: as above.
unsafe impl Sync for Depth {}

impl Depth {
    const TOP: Depth = Depth(core::ptr::null());
    const LIMIT: Depth = Depth(core::ptr::null::<u8>().wrapping_add(Decoder::MAX_DEPTH));

    #[inline(always)]
    fn at_limit(self) -> bool {
        self.0 >= Self::LIMIT.0
    }

    #[inline(always)]
    fn enter(&mut self) {
        self.0 = self.0.wrapping_add(1);
    }

    #[inline(always)]
    fn leave(&mut self) {
        debug_assert!(self.0 > Self::TOP.0, "left more levels than entered");
        self.0 = self.0.wrapping_sub(1);
    }

    fn level(self) -> usize {
        self.0 as usize
    }
}

/// Method-call sugar for [`Mutate::encode`], handy in hand-written impls.
///
/// ```
/// use typefuzz_core::codec::{EncodeInto, Encoder};
/// let mut out = Encoder::new();
/// true.encode_into(&mut out);
/// assert_eq!(out.as_bytes(), &[1]);
/// ```
pub trait EncodeInto {
    /// Appends the encoding of `self`.
    fn encode_into(&self, out: &mut Encoder);
}

impl<T: Mutate> EncodeInto for T {
    fn encode_into(&self, out: &mut Encoder) {
        self.encode(out)
    }
}

/// The input side of the codec: a cursor over any byte string that never fails.
///
/// ```
/// let mut input = typefuzz_core::codec::Decoder::new(&[1, 2]);
/// assert_eq!(input.read_byte(), 1);
/// assert_eq!(input.read_byte(), 2);
/// assert_eq!(input.read_byte(), 0); // past the end: zeros
/// ```
#[derive(Debug, Clone)]
pub struct Decoder<'a> {
    /// The bytes not read yet. A slice iterator rather than a slice and an index: its end test
    /// compares pointers, which SanitizerCoverage's `trace-compares` (on by default under
    /// cargo-fuzz) does not hook, where `index < len` calls a hook on every byte read.
    rest: core::slice::Iter<'a, u8>,
    budget: usize,
    depth: Depth,
}

impl<'a> Decoder<'a> {
    /// Nesting bound of decoding and encoding: deeper values decode as the smallest value.
    pub const MAX_DEPTH: usize = 256;

    /// A decoder over `bytes`, with an element budget of `bytes.len()`.
    ///
    /// ```
    /// assert!(typefuzz_core::codec::Decoder::new(b"").is_empty());
    /// ```
    pub fn new(bytes: &'a [u8]) -> Self {
        Decoder {
            rest: bytes.iter(),
            budget: bytes.len(),
            depth: Depth::TOP,
        }
    }

    /// Whether every input byte has been read.
    ///
    /// ```
    /// assert!(!typefuzz_core::codec::Decoder::new(b"x").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.rest.as_slice().is_empty()
    }

    /// The next byte, or 0 past the end.
    ///
    /// ```
    /// assert_eq!(typefuzz_core::codec::Decoder::new(&[9]).read_byte(), 9);
    /// ```
    #[inline]
    pub fn read_byte(&mut self) -> u8 {
        self.rest.next().copied().unwrap_or(0)
    }

    /// The next `N` bytes, zero-filled past the end.
    ///
    /// ```
    /// assert_eq!(typefuzz_core::codec::Decoder::new(&[1]).read_array::<2>(), [1, 0]);
    /// ```
    #[inline]
    pub fn read_array<const N: usize>(&mut self) -> [u8; N] {
        // Byte by byte: `N` is a constant, so the loop unrolls, and each step tests the end by
        // pointer (see the `rest` field) where a copy of `min(N, remaining)` bytes would compare
        // integers.
        let mut out = [0u8; N];
        for slot in &mut out {
            *slot = self.read_byte();
        }
        out
    }

    /// Up to `len` raw bytes (fewer if the input ends first).
    ///
    /// ```
    /// assert_eq!(typefuzz_core::codec::Decoder::new(b"abc").read_bytes(5), b"abc");
    /// ```
    pub fn read_bytes(&mut self, len: usize) -> &'a [u8] {
        let rest = self.rest.as_slice();
        let (out, after) = rest.split_at(len.min(rest.len()));
        self.rest = after.iter();
        out
    }

    /// A LEB128 length, capped by the remaining element budget and charged against it, so the
    /// total number of collection elements decoded never exceeds the input length.
    ///
    /// ```
    /// let mut input = typefuzz_core::codec::Decoder::new(&[200, 1]);
    /// assert!(input.read_len() <= 2);
    /// ```
    #[inline]
    pub fn read_len(&mut self) -> usize {
        let mut value: u64 = 0;
        for shift in (0..64).step_by(7) {
            let byte = self.read_byte();
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                break;
            }
        }
        let len = usize::try_from(value)
            .unwrap_or(usize::MAX)
            .min(self.budget);
        self.budget -= len;
        len
    }

    /// A variant index in `0..count` (`count` must be positive).
    ///
    /// ```
    /// assert_eq!(typefuzz_core::codec::Decoder::new(&[7]).read_tag(3), 1);
    /// ```
    #[inline]
    pub fn read_tag(&mut self, count: usize) -> usize {
        if count <= 256 {
            usize::from(self.read_byte()) % count.max(1)
        } else {
            u32::from_le_bytes(self.read_array()) as usize % count
        }
    }

    /// Decodes a nested value one level deeper with `decode`, or, past [`Decoder::MAX_DEPTH`],
    /// skips one placeholder byte and returns the smallest value of `T`. Derived decoders wrap their body in it,
    /// mirroring [`Encoder::nested`].
    ///
    /// ```
    /// use typefuzz_core::Mutate;
    /// let mut input = typefuzz_core::codec::Decoder::new(&[4]);
    /// assert_eq!(input.nested(u8::decode), 4);
    /// ```
    #[inline]
    pub fn nested<T: Mutate>(&mut self, decode: impl FnOnce(&mut Self) -> T) -> T {
        if !self.enter_nested() {
            return smallest();
        }
        let value = decode(self);
        self.leave_nested();
        value
    }

    /// [`nested`](Self::nested) without a closure, for derived decoders (one closure and one
    /// `nested` instantiation fewer per type): `true` when the value is to be decoded, one
    /// level deeper, followed by [`leave_nested`](Self::leave_nested); `false` past
    /// [`Decoder::MAX_DEPTH`], after skipping the encoder's placeholder byte (the value is then
    /// the smallest one, [`smallest`]).
    ///
    /// ```
    /// use typefuzz_core::Mutate;
    /// let mut input = typefuzz_core::codec::Decoder::new(&[4]);
    /// assert!(input.enter_nested());
    /// assert_eq!(u8::decode(&mut input), 4);
    /// input.leave_nested();
    /// ```
    #[inline]
    pub fn enter_nested(&mut self) -> bool {
        if self.depth.at_limit() {
            self.read_byte(); // the encoder's placeholder
            return false;
        }
        self.depth.enter();
        true
    }

    /// Leaves the level [`enter_nested`](Self::enter_nested) entered.
    ///
    /// ```
    /// let mut input = typefuzz_core::codec::Decoder::new(&[]);
    /// assert!(input.enter_nested());
    /// input.leave_nested();
    /// ```
    #[inline]
    pub fn leave_nested(&mut self) {
        self.depth.leave();
    }

    /// Whether the decoder is at its nesting bound (derived decoders check this first).
    ///
    /// ```
    /// assert!(!typefuzz_core::codec::Decoder::new(b"").at_depth_limit());
    /// ```
    #[inline]
    pub fn at_depth_limit(&self) -> bool {
        self.depth.at_limit()
    }
}

/// The value generated at size 0 from a fixed seed: what decoding produces past its depth bound.
///
/// ```
/// assert_eq!(typefuzz_core::codec::smallest::<Option<u8>>(), None);
/// ```
pub fn smallest<T: Mutate>() -> T {
    Context::new(0).generate_sized(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_encoder_keeps_every_byte_across_growth_clear_and_clone() {
        let mut out = Encoder::new();
        let expected: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 127) as u8).collect();
        for (i, &byte) in expected.iter().enumerate() {
            // Mix single bytes, slices and varints so every write path crosses a growth.
            match i % 4 {
                0 => out.write_byte(byte),
                1 => out.write_array([byte]),
                2 => out.write_bytes(&[byte]),
                _ => out.write_len(usize::from(byte)), // below 0x80: one byte
            }
        }
        assert_eq!(out.as_bytes(), &expected[..]);
        let copy = out.clone();
        out.clear();
        assert!(out.as_bytes().is_empty());
        out.write_bytes(b"again");
        assert_eq!(out.as_bytes(), b"again");
        // The clone owns its bytes: clearing and rewriting the original left them alone.
        assert_eq!(copy.as_bytes(), &expected[..]);
        assert_eq!(copy.into_bytes(), expected);
        assert_eq!(out.into_bytes(), b"again");
        // A long slice at once, into a fresh and into a non-empty encoder.
        let mut fresh = Encoder::new();
        fresh.write_bytes(&expected);
        fresh.write_bytes(&expected);
        assert_eq!(fresh.as_bytes().len(), 2 * expected.len());
        assert_eq!(&fresh.as_bytes()[expected.len()..], &expected[..]);
        assert!(format!("{fresh:?}").starts_with("Encoder { bytes: ["));
        // Wide integers (16 bytes) test the room as a byte run does.
        let mut wide = Encoder::new();
        for i in 0..100u128 {
            wide.write_array((i << 64 | i).to_le_bytes());
        }
        assert_eq!(wide.as_bytes().len(), 1600);
        assert_eq!(&wide.as_bytes()[1584..1592], &99u64.to_le_bytes());
    }

    #[test]
    fn an_empty_encoder_reads_as_empty_everywhere() {
        let out = Encoder::default();
        assert_eq!(out.as_bytes(), b"");
        assert_eq!(out.clone().into_bytes(), Vec::<u8>::new());
        let mut cleared = Encoder::new();
        cleared.clear();
        cleared.write_byte(3);
        assert_eq!(cleared.as_bytes(), &[3]);
    }

    #[test]
    fn encoder_and_decoder_stop_nesting_at_the_same_depth() {
        let mut out = Encoder::new();
        let mut entered = 0;
        while out.enter_nested() {
            entered += 1;
        }
        assert_eq!(entered, Decoder::MAX_DEPTH);
        assert!(out.is_truncated());
        assert_eq!(out.as_bytes(), &[0], "one placeholder byte past the bound");
        for _ in 0..entered {
            out.leave_nested();
        }
        assert!(out.enter_nested(), "back at the top, nesting works again");

        let mut input = Decoder::new(&[0, 9]);
        let mut entered = 0;
        while input.enter_nested() {
            entered += 1;
        }
        assert_eq!(entered, Decoder::MAX_DEPTH);
        assert!(input.at_depth_limit());
        assert_eq!(input.read_byte(), 9, "the placeholder was skipped");
        input.leave_nested();
        assert!(!input.at_depth_limit());
    }
}
