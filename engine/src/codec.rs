//! The byte codec: a compact encoding of [`Mutate`] values that every byte string decodes.
//!
//! Corpus files, regression files and libFuzzer's buffers hold this encoding. Decoding is total:
//! reading past the end yields zero bytes, collection lengths are capped by a budget that starts at
//! the input's length (so decoding allocates O(input length)), and nesting deeper than
//! [`Decoder::MAX_DEPTH`] yields the smallest value of the type instead of recursing.
//!
//! ```
//! use typefuzz::codec::{from_bytes, to_bytes};
//! let v = vec![Some(3u16), None];
//! assert_eq!(from_bytes::<Vec<Option<u16>>>(&to_bytes(&v)), v);
//! let _any: Vec<Option<u16>> = from_bytes(b"\xff\xff\xff anything at all");
//! ```

use crate::{Context, Mutate};

/// Encodes `value` into a fresh byte vector.
///
/// ```
/// assert_eq!(typefuzz::codec::to_bytes(&0x0102u16), vec![2, 1]);
/// ```
pub fn to_bytes<T: Mutate>(value: &T) -> Vec<u8> {
    let mut out = Encoder::new();
    value.encode(&mut out);
    out.into_bytes()
}

/// Decodes a value from any byte string (total: never panics).
///
/// ```
/// assert_eq!(typefuzz::codec::from_bytes::<u16>(&[2, 1]), 0x0102);
/// assert_eq!(typefuzz::codec::from_bytes::<u16>(&[]), 0);
/// ```
pub fn from_bytes<T: Mutate>(bytes: &[u8]) -> T {
    T::decode(&mut Decoder::new(bytes))
}

/// The output side of the codec: a byte buffer plus the nesting depth, mirrored by [`Decoder`].
///
/// ```
/// let mut out = typefuzz::codec::Encoder::new();
/// out.write_len(300);
/// assert_eq!(out.as_bytes(), &[0xac, 0x02]);
/// ```
#[derive(Debug, Default, Clone)]
pub struct Encoder {
    bytes: Vec<u8>,
    depth: usize,
    truncated: bool,
}

impl Encoder {
    /// An empty encoder.
    ///
    /// ```
    /// assert!(typefuzz::codec::Encoder::new().as_bytes().is_empty());
    /// ```
    pub const fn new() -> Self {
        Encoder {
            bytes: Vec::new(),
            depth: 0,
            truncated: false,
        }
    }

    /// Appends one byte.
    ///
    /// ```
    /// let mut out = typefuzz::codec::Encoder::new();
    /// out.write_byte(7);
    /// assert_eq!(out.as_bytes(), &[7]);
    /// ```
    #[inline]
    pub fn write_byte(&mut self, byte: u8) {
        self.bytes.push(byte);
    }

    /// Appends raw bytes.
    ///
    /// ```
    /// let mut out = typefuzz::codec::Encoder::new();
    /// out.write_bytes(b"ab");
    /// assert_eq!(out.as_bytes(), b"ab");
    /// ```
    #[inline]
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Appends a length or count as a LEB128 varint.
    ///
    /// ```
    /// let mut out = typefuzz::codec::Encoder::new();
    /// out.write_len(5);
    /// assert_eq!(out.as_bytes(), &[5]);
    /// ```
    #[inline]
    pub fn write_len(&mut self, mut len: usize) {
        loop {
            let low = (len & 0x7f) as u8;
            len >>= 7;
            if len == 0 {
                self.bytes.push(low);
                return;
            }
            self.bytes.push(low | 0x80);
        }
    }

    /// Appends the tag of variant `index` out of `count` variants (one byte up to 256 variants).
    ///
    /// ```
    /// let mut out = typefuzz::codec::Encoder::new();
    /// out.write_tag(2, 3);
    /// assert_eq!(out.as_bytes(), &[2]);
    /// ```
    #[inline]
    pub fn write_tag(&mut self, index: usize, count: usize) {
        if count <= 256 {
            self.bytes.push(index as u8);
        } else {
            self.bytes.extend_from_slice(&(index as u32).to_le_bytes());
        }
    }

    /// Encodes a nested value one level deeper; past [`Decoder::MAX_DEPTH`] only a placeholder
    /// byte is written, matching the decoder, which skips it and produces the smallest value.
    /// (The placeholder keeps every value at least one byte long, so a collection's elements
    /// never outnumber its encoding's bytes: the decoder's element budget relies on it.)
    ///
    /// ```
    /// use typefuzz::codec::EncodeInto;
    /// let mut out = typefuzz::codec::Encoder::new();
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
    /// use typefuzz::codec::EncodeInto;
    /// let mut out = typefuzz::codec::Encoder::new();
    /// if out.enter_nested() {
    ///     5u8.encode_into(&mut out);
    ///     out.leave_nested();
    /// }
    /// assert_eq!(out.as_bytes(), &[5]);
    /// ```
    #[inline]
    pub fn enter_nested(&mut self) -> bool {
        if self.depth >= Decoder::MAX_DEPTH {
            self.bytes.push(0);
            self.truncated = true;
            return false;
        }
        self.depth += 1;
        true
    }

    /// Leaves the level [`enter_nested`](Self::enter_nested) entered.
    ///
    /// ```
    /// let mut out = typefuzz::codec::Encoder::new();
    /// assert!(out.enter_nested());
    /// out.leave_nested();
    /// ```
    #[inline]
    pub fn leave_nested(&mut self) {
        self.depth -= 1;
    }

    /// Forgets the bytes written, keeping the allocation: encoding into one reused encoder
    /// costs no allocation per value once the buffer has grown.
    ///
    /// ```
    /// let mut out = typefuzz::codec::Encoder::new();
    /// out.write_byte(1);
    /// out.clear();
    /// assert!(out.as_bytes().is_empty());
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.depth = 0;
        self.truncated = false;
    }

    /// Whether a part of the value was nested deeper than [`Decoder::MAX_DEPTH`] and replaced by
    /// a placeholder: the bytes then decode to a different, smaller value, and must not be saved
    /// as if they were the value.
    ///
    /// ```
    /// use typefuzz::codec::{EncodeInto, Encoder};
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
    /// assert!(typefuzz::codec::Encoder::new().as_bytes().is_empty());
    /// ```
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes written.
    ///
    /// ```
    /// assert!(typefuzz::codec::Encoder::new().into_bytes().is_empty());
    /// ```
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// Method-call sugar for [`Mutate::encode`], handy in hand-written impls.
///
/// ```
/// use typefuzz::codec::{EncodeInto, Encoder};
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
/// let mut input = typefuzz::codec::Decoder::new(&[1, 2]);
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
    depth: usize,
}

impl<'a> Decoder<'a> {
    /// Nesting bound of decoding and encoding: deeper values decode as the smallest value.
    pub const MAX_DEPTH: usize = 256;

    /// A decoder over `bytes`, with an element budget of `bytes.len()`.
    ///
    /// ```
    /// assert!(typefuzz::codec::Decoder::new(b"").is_empty());
    /// ```
    pub fn new(bytes: &'a [u8]) -> Self {
        Decoder {
            rest: bytes.iter(),
            budget: bytes.len(),
            depth: 0,
        }
    }

    /// Whether every input byte has been read.
    ///
    /// ```
    /// assert!(!typefuzz::codec::Decoder::new(b"x").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.rest.as_slice().is_empty()
    }

    /// The next byte, or 0 past the end.
    ///
    /// ```
    /// assert_eq!(typefuzz::codec::Decoder::new(&[9]).read_byte(), 9);
    /// ```
    #[inline]
    pub fn read_byte(&mut self) -> u8 {
        self.rest.next().copied().unwrap_or(0)
    }

    /// The next `N` bytes, zero-filled past the end.
    ///
    /// ```
    /// assert_eq!(typefuzz::codec::Decoder::new(&[1]).read_array::<2>(), [1, 0]);
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
    /// assert_eq!(typefuzz::codec::Decoder::new(b"abc").read_bytes(5), b"abc");
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
    /// let mut input = typefuzz::codec::Decoder::new(&[200, 1]);
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
    /// assert_eq!(typefuzz::codec::Decoder::new(&[7]).read_tag(3), 1);
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
    /// use typefuzz::Mutate;
    /// let mut input = typefuzz::codec::Decoder::new(&[4]);
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
    /// use typefuzz::Mutate;
    /// let mut input = typefuzz::codec::Decoder::new(&[4]);
    /// assert!(input.enter_nested());
    /// assert_eq!(u8::decode(&mut input), 4);
    /// input.leave_nested();
    /// ```
    #[inline]
    pub fn enter_nested(&mut self) -> bool {
        if self.depth >= Self::MAX_DEPTH {
            self.read_byte(); // the encoder's placeholder
            return false;
        }
        self.depth += 1;
        true
    }

    /// Leaves the level [`enter_nested`](Self::enter_nested) entered.
    ///
    /// ```
    /// let mut input = typefuzz::codec::Decoder::new(&[]);
    /// assert!(input.enter_nested());
    /// input.leave_nested();
    /// ```
    #[inline]
    pub fn leave_nested(&mut self) {
        self.depth -= 1;
    }

    /// Whether the decoder is at its nesting bound (derived decoders check this first).
    ///
    /// ```
    /// assert!(!typefuzz::codec::Decoder::new(b"").at_depth_limit());
    /// ```
    #[inline]
    pub fn at_depth_limit(&self) -> bool {
        self.depth >= Self::MAX_DEPTH
    }
}

/// The value generated at size 0 from a fixed seed: what decoding produces past its depth bound.
///
/// ```
/// assert_eq!(typefuzz::codec::smallest::<Option<u8>>(), None);
/// ```
pub fn smallest<T: Mutate>() -> T {
    Context::new(0).generate_sized(0)
}
