//! A fast hash of byte strings: what the structure walk folds a string leaf into, what
//! [`ValueHasher`](crate::ValueHasher) writes bytes as, and what the engine counts inputs it
//! cannot hash whole by.

/// A fast 64-bit hash of `bytes` (word-at-a-time multiply-xorshift with a final avalanche):
/// this runs on every valid test, and SipHash's DoS resistance buys nothing here.
///
/// ```
/// use typefuzz_core::mutate::hash_bytes;
/// assert_eq!(hash_bytes(b"ab"), hash_bytes(b"ab"));
/// assert_ne!(hash_bytes(b"ab"), hash_bytes(b"ba"));
/// ```
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        h = (h ^ word).wrapping_mul(K).rotate_left(29);
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    // splitmix64's finalizer: every input bit affects every output bit.
    h ^= h >> 30;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}
