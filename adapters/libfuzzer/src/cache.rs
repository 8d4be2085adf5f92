//! Decoded inputs kept between libFuzzer's calls, so that an input is decoded about once per
//! seed rather than once per mutation, crossover and execution.
//!
//! libFuzzer mutates a corpus input up to `-mutate_depth` (5) times in a row, each time starting
//! from the previous mutant, and runs each mutant right after writing it. So the mutator keeps
//! the last mutant it wrote together with its encoding: the next execution clones it and the next
//! mutation borrows it, neither decodes. The first mutation of a round starts from a corpus input,
//! and crossover reads a second corpus input: those are kept in a small table of recently decoded
//! inputs, which libFuzzer's corpus (a few hundred inputs on typical targets) fits.
//!
//! A cached value stands for a byte string only when it is what those bytes decode to: it was
//! either decoded from them, or they are its own encoding and that encoding was not cut off at
//! the depth bound, and the codec contract (`decode(encode(v)) == v`, see `Mutate`) makes those
//! the same value.

use typefuzz_engine::codec::{from_bytes, Encoder};
use typefuzz_engine::Mutate;

use crate::cmplog::Substitutions;
use crate::fresh::FreshInputs;

/// How many recently decoded inputs are kept, direct-mapped by a hash of their bytes: sixteen
/// times a typical corpus of a few hundred inputs, so that two of them rarely share a slot
/// (with 256 slots, a corpus of 360 left a crossover's second parent decoded on most calls).
const RECENT_SLOTS: usize = 4096;

/// A byte string and the value it decodes to.
pub(crate) struct Entry<T> {
    pub(crate) bytes: Vec<u8>,
    pub(crate) value: T,
}

/// What [`fuzz_target!`](crate::fuzz_target) keeps between libFuzzer's calls, one per thread:
/// the last mutant written with its encoding, recently decoded inputs, and reused buffers. Its
/// [`mutate`](InputCache::mutate) and [`crossover`](InputCache::crossover) do what the free
/// functions [`mutate`](crate::mutate) and [`crossover`](crate::crossover) do, with the same
/// results for the same seeds, but decode each input about once instead of once per call, and
/// allocate nothing per typed mutation once warm.
///
/// The property may then receive the mutant itself rather than a decoding of its bytes: the two
/// are equal by the `Mutate` codec contract (`decode(encode(v)) == v`), which derived impls
/// keep. A hand-written impl that breaks it would see a crash it cannot replay from the saved
/// bytes.
///
/// ```
/// use typefuzz::codec::{from_bytes, to_bytes};
/// use typefuzz_libfuzzer::InputCache;
///
/// let mut inputs = InputCache::<Vec<u16>>::new();
/// let mut data = to_bytes(&vec![1u16, 2, 3]);
/// let size = data.len();
/// data.resize(64, 0);
/// let no_bytes = |_: &mut [u8], _: usize, _: usize| -> usize { unreachable!() };
/// let new_size = inputs.mutate(&mut data, size, 64, 1, no_bytes);
/// // What libFuzzer runs next is the mutant just written: served without decoding.
/// let mutant = inputs.value_of(&data[..new_size]);
/// assert_eq!(mutant, from_bytes::<Vec<u16>>(&data[..new_size]));
/// ```
pub struct InputCache<T> {
    /// The input the mutator or crossover wrote last: libFuzzer runs it next and, within a
    /// round, mutates it next.
    pub(crate) last: Option<Entry<T>>,
    /// Recently decoded inputs (corpus inputs a round starts from or crosses over with), empty
    /// until first used.
    pub(crate) recent: Vec<Option<Entry<T>>>,
    /// The encoding of the value being written.
    pub(crate) encoder: Encoder,
    /// A value whose allocations the next mutant reuses (`clone_from`).
    pub(crate) spare: Option<T>,
    /// The buffer crossover splices two encodings in.
    pub(crate) splice: Vec<u8>,
    /// Whether `last` is the input the property ran on last, so that the comparison table
    /// holds its comparisons (see [`cmplog`](crate::cmplog)).
    pub(crate) last_ran: bool,
    /// CmpLog substitutions' reused buffer.
    pub(crate) substitutions: Substitutions,
    /// Inputs libFuzzer just added to its corpus, with their untried CmpLog candidates.
    pub(crate) fresh: FreshInputs<T>,
}

impl<T> InputCache<T> {
    /// An empty cache (a `const fn`, for a `thread_local!` without lazy initialization).
    ///
    /// ```
    /// let _inputs = typefuzz_libfuzzer::InputCache::<u8>::new();
    /// ```
    pub const fn new() -> Self {
        InputCache {
            last: None,
            recent: Vec::new(),
            encoder: Encoder::new(),
            spare: None,
            splice: Vec::new(),
            last_ran: false,
            substitutions: Substitutions::new(),
            fresh: FreshInputs::new(),
        }
    }
}

impl<T> Default for InputCache<T> {
    fn default() -> Self {
        InputCache::new()
    }
}

impl<T: Mutate> InputCache<T> {
    /// The value `bytes` decode to, for the property to consume: a clone of the last mutant
    /// when `bytes` are its encoding (the usual case under libFuzzer), else decoded and kept as
    /// the last input (libFuzzer mutates the input it ran next). Either way the property is
    /// about to run on it, so its comparisons will describe the last input.
    ///
    /// ```
    /// let mut inputs = typefuzz_libfuzzer::InputCache::<u16>::new();
    /// assert_eq!(inputs.value_of(&[2, 1]), 0x0102);
    /// ```
    pub fn value_of(&mut self, bytes: &[u8]) -> T {
        self.last_ran = true;
        self.fresh.ran();
        match &mut self.last {
            Some(last) if last.bytes == bytes => last.value.clone(),
            Some(last) => {
                last.value = from_bytes(bytes);
                last.bytes.clear();
                last.bytes.extend_from_slice(bytes);
                last.value.clone()
            }
            None => {
                let value: T = from_bytes(bytes);
                self.last = Some(Entry {
                    bytes: bytes.to_vec(),
                    value: value.clone(),
                });
                value
            }
        }
    }

    /// Remembers `value` as the last input written; its encoding is in `self.encoder`. The
    /// value it replaces becomes the spare.
    pub(crate) fn remember_last(&mut self, value: T) {
        self.last_ran = false;
        if self.encoder.is_truncated() {
            // These bytes decode to a smaller value than `value`: not a valid entry.
            self.spare = Some(value);
            return;
        }
        if let Some(replaced) = replace_last(&mut self.last, self.encoder.as_bytes(), value) {
            self.spare = Some(replaced);
        }
    }

    /// [`remember_last`](Self::remember_last) for a crossover's child written as the splice it
    /// was decoded from, which is in `self.splice`.
    pub(crate) fn remember_last_spliced(&mut self, value: T) {
        self.last_ran = false;
        if let Some(replaced) = replace_last(&mut self.last, &self.splice, value) {
            self.spare = Some(replaced);
        }
    }

    /// Called as a mutation or crossover starts from `bytes`: when they are not the input run
    /// last, libFuzzer started a new chain, and the input run last may have joined its corpus
    /// (see [`fresh`](crate::fresh)).
    pub(crate) fn note_chain(&mut self, bytes: &[u8]) {
        let last = match &self.last {
            Some(last) if last.bytes == bytes => return,
            Some(last) if self.last_ran => Some((&last.value, &last.bytes[..])),
            _ => None,
        };
        self.fresh.chain_start(last, &mut self.substitutions);
    }

    /// A copy of `original` in the spare value's allocations when there is one.
    pub(crate) fn copy_into_spare(spare: &mut Option<T>, original: &T) -> T {
        match spare.take() {
            Some(mut copy) => {
                copy.clone_from(original);
                copy
            }
            None => original.clone(),
        }
    }
}

/// Makes `value`, which `bytes` decode to, the last input, and returns the value it replaces.
fn replace_last<T>(last: &mut Option<Entry<T>>, bytes: &[u8], value: T) -> Option<T> {
    match last {
        Some(last) => {
            last.bytes.clear();
            last.bytes.extend_from_slice(bytes);
            Some(std::mem::replace(&mut last.value, value))
        }
        None => {
            *last = Some(Entry {
                bytes: bytes.to_vec(),
                value,
            });
            None
        }
    }
}

/// The value `bytes` decode to, from `last`, from `recent` or decoded (and then kept in
/// `recent`). A function of the two fields rather than a method, so that callers can keep the
/// returned borrow while they use the cache's other fields.
pub(crate) fn lookup<'c, T: Mutate>(
    last: &'c Option<Entry<T>>,
    recent: &'c mut Vec<Option<Entry<T>>>,
    bytes: &[u8],
) -> &'c T {
    if let Some(last) = last {
        if last.bytes == bytes {
            return &last.value;
        }
    }
    if recent.is_empty() {
        recent.resize_with(RECENT_SLOTS, || None);
    }
    let slot = &mut recent[slot_of(bytes)];
    let hit = matches!(slot, Some(entry) if entry.bytes == bytes);
    if !hit {
        let value = from_bytes(bytes);
        match slot {
            Some(entry) => {
                entry.bytes.clear();
                entry.bytes.extend_from_slice(bytes);
                entry.value = value;
            }
            None => {
                *slot = Some(Entry {
                    bytes: bytes.to_vec(),
                    value,
                })
            }
        }
    }
    match slot {
        Some(entry) => &entry.value,
        None => unreachable!("the slot was filled above"),
    }
}

/// The slot of `bytes` in the recent-inputs table: a hash of the length and of up to three
/// 8-byte words (first, middle, last), so it costs the same for any length. Collisions only
/// evict; lookups compare the whole bytes.
fn slot_of(bytes: &[u8]) -> usize {
    let word = |at: usize| -> u64 {
        let mut buffer = [0u8; 8];
        let end = bytes.len().min(at + 8);
        let chunk = bytes.get(at..end).unwrap_or(&[]);
        buffer[..chunk.len()].copy_from_slice(chunk);
        u64::from_le_bytes(buffer)
    };
    let len = bytes.len();
    let mut hash = len as u64;
    for at in [0, len / 2, len.saturating_sub(8)] {
        hash = (hash ^ word(at)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    (hash >> 32) as usize % RECENT_SLOTS
}

#[cfg(test)]
mod tests {
    use super::*;
    use typefuzz_engine::codec::to_bytes;

    #[test]
    fn lookup_decodes_once_and_then_serves_the_kept_value() {
        let mut recent = Vec::new();
        let bytes = to_bytes(&vec![5u8, 6]);
        assert_eq!(lookup::<Vec<u8>>(&None, &mut recent, &bytes), &vec![5, 6]);
        // Plant a different value under the same bytes: a hit must return it, not decode.
        let slot = slot_of(&bytes);
        recent[slot].as_mut().unwrap().value = vec![9];
        assert_eq!(lookup::<Vec<u8>>(&None, &mut recent, &bytes), &vec![9]);
        // Other bytes in the same slot evict it; the lookup still decodes them correctly.
        let other = to_bytes(&vec![7u8]);
        assert_eq!(lookup::<Vec<u8>>(&None, &mut recent, &other), &vec![7]);
    }

    #[test]
    fn the_last_mutant_is_served_only_for_its_own_bytes() {
        let mut inputs = InputCache::<Vec<u8>>::new();
        inputs.encoder.clear();
        vec![1u8, 2].encode(&mut inputs.encoder);
        inputs.remember_last(vec![1, 2]);
        let bytes = to_bytes(&vec![1u8, 2]);
        assert_eq!(inputs.value_of(&bytes), vec![1, 2]);
        assert_eq!(inputs.value_of(&to_bytes(&vec![3u8])), vec![3]);
        // A prefix of the bytes is another input.
        let prefix = inputs.value_of(&bytes[..2]);
        assert_eq!(prefix, from_bytes::<Vec<u8>>(&bytes[..2]));
        assert_ne!(prefix, vec![1, 2]);
    }

    #[test]
    fn a_truncated_encoding_is_not_remembered() {
        let mut inputs = InputCache::<u8>::new();
        // An encoding nested deeper than the codec's bound decodes to a smaller value.
        nested_levels(&mut inputs.encoder, 300);
        assert!(inputs.encoder.is_truncated());
        inputs.remember_last(7);
        assert!(
            inputs.last.is_none(),
            "a truncated encoding must not stand for its value"
        );
        assert_eq!(inputs.spare, Some(7));
        // An untruncated one is remembered.
        inputs.encoder.clear();
        7u8.encode(&mut inputs.encoder);
        inputs.remember_last(7);
        assert_eq!(
            inputs.last.as_ref().map(|last| &last.bytes[..]),
            Some(&[7u8][..])
        );
    }

    fn nested_levels(encoder: &mut Encoder, levels: usize) {
        if levels == 0 {
            return;
        }
        encoder.nested(|encoder| nested_levels(encoder, levels - 1));
    }

    use std::cell::Cell;
    use typefuzz_engine::codec::Decoder;
    use typefuzz_engine::Context;

    thread_local! {
        static DECODES: Cell<usize> = const { Cell::new(0) };
    }

    /// A byte vector whose decodings are counted.
    #[derive(Clone, Debug, PartialEq)]
    struct Counted(Vec<u8>);

    impl Mutate for Counted {
        fn generate(cx: &mut Context) -> Self {
            Counted(cx.generate())
        }
        fn mutate(&mut self, cx: &mut Context) {
            self.0.mutate(cx);
        }
        fn shrink(&self, cx: &mut Context) -> Vec<Self> {
            self.0.shrink(cx).into_iter().map(Counted).collect()
        }
        fn encode(&self, out: &mut Encoder) {
            self.0.encode(out);
        }
        fn decode(input: &mut Decoder<'_>) -> Self {
            DECODES.with(|decodes| decodes.set(decodes.get() + 1));
            Counted(Vec::decode(input))
        }
    }

    #[test]
    fn a_round_of_mutations_and_runs_decodes_its_seed_once() {
        // libFuzzer's round: mutate the corpus input, run the mutant, mutate the mutant, ...
        let seed_input = to_bytes(&Counted(vec![1, 2, 3]));
        let mut inputs = InputCache::<Counted>::new();
        let mut data = seed_input.clone();
        data.resize(64, 0);
        let mut size = seed_input.len();
        DECODES.with(|decodes| decodes.set(0));
        let mut byte_mutations = 0;
        for seed in 0..40 {
            size = inputs.mutate(&mut data, size, 64, seed, |_, size, _| {
                byte_mutations += 1;
                size
            });
            let value = inputs.value_of(&data[..size]);
            assert_eq!(
                to_bytes(&value),
                data[..size],
                "the value run is the one written"
            );
        }
        // The seed once, then only after a byte mutation (whose output the cache cannot know)
        // or when it left the bytes as they were (a hit then): never per typed mutation or run.
        let decodes = DECODES.with(Cell::get);
        assert!(byte_mutations > 0, "seeds 0..40 include byte mutations");
        assert!(
            decodes <= 1 + 2 * byte_mutations,
            "{decodes} decodes for 40 mutations and runs, {byte_mutations} byte mutations"
        );
        // New rounds from the same corpus input decode nothing new: it is in the table.
        let before = DECODES.with(Cell::get);
        let mut typed_rounds = 0;
        for seed in 100..110 {
            let mut again = seed_input.clone();
            again.resize(64, 0);
            let mut byte_mutation = false;
            let len = inputs.mutate(&mut again, seed_input.len(), 64, seed, |_, size, _| {
                byte_mutation = true;
                size
            });
            if !byte_mutation {
                typed_rounds += 1;
                inputs.value_of(&again[..len]);
            }
        }
        assert!(typed_rounds > 0);
        assert_eq!(DECODES.with(Cell::get), before);
    }

    #[test]
    fn crossover_of_a_flat_type_decodes_only_the_splice() {
        let first = to_bytes(&Counted(vec![1, 2, 3]));
        let second = to_bytes(&Counted(vec![7, 8]));
        let mut inputs = InputCache::<Counted>::new();
        let mut out = [0u8; 32];
        inputs.crossover(&first, &second, &mut out, 0);
        DECODES.with(|decodes| decodes.set(0));
        for seed in 1..=10 {
            let len = inputs.crossover(&first, &second, &mut out, seed);
            inputs.value_of(&out[..len]);
        }
        // `first` is in the table after the warm-up call: one decode per child (its splice).
        assert_eq!(DECODES.with(Cell::get), 10);
    }

    #[test]
    fn slots_spread_similar_inputs() {
        // Inputs that differ only in their middle or their last byte land in different slots
        // often enough for a corpus of near-duplicates to share the table.
        let slots: std::collections::BTreeSet<usize> = (0..64u8)
            .map(|x| {
                let mut bytes = vec![0u8; 40];
                bytes[20] = x;
                slot_of(&bytes)
            })
            .collect();
        assert!(slots.len() > 32, "{} distinct slots", slots.len());
    }
}
