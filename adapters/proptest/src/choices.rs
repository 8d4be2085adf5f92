//! Choice sequences: the bytes a proptest strategy draws, as a value typefuzz can mutate.
//!
//! Every proptest strategy builds its values from a [`TestRng`]. proptest can *record* the bytes
//! a value drew ([`RngAlgorithm::Recorder`]) and *replay* any byte string as the random stream
//! ([`RngAlgorithm::PassThrough`]). A [`Choices`] is
//! such a byte string. Replaying it through the strategy ([`Choices::replay`]) builds a value the
//! strategy itself built from those draws, so whatever a mutation does to the bytes, the result
//! is a value the strategy can produce — for every combinator (`prop_map`, `prop_oneof!`,
//! `collection::vec`, regex strings, `prop_recursive`, `prop_filter`), with no projection and no
//! `Mutate` impl for the value's type. This is Hypothesis' choice-sequence design, on proptest's
//! random stream. Values that derived more than 4 streams (unions derive one per arm before
//! the one they pick) or read a derived stream are kept as a seed instead of bytes; see
//! [`Recording`].
//!
//! # Draw-aware mutation
//!
//! proptest's strategies read the stream in 32-bit words (`next_u32`; a `u64` is two words) and
//! map a word to a range by its *high* bits (`gen_range` multiplies and keeps the top half), so a
//! word of zeros is a range's low end, `u32::MAX` its high end, and `0x8000_0000` its middle.
//! [`Choices`]'s [`Mutate`] impl therefore works on words: boundary words (zero, one,
//! `u32::MAX`, the middle), small additions scaled to each byte of the word, bit flips, random
//! words; and on spans of words: delete, duplicate, copy, insert and splice a span from another
//! sequence of the same thread ([`Choices::offer`] makes a sequence available for splicing), as
//! Hypothesis and HypoFuzz do.
//!
//! # Shrinking
//!
//! Sequences are ordered by length, then word by word (each word read as a little-endian `u32`).
//! Candidates delete spans (shorter) or lower one word (zero, half, minus one), so every
//! candidate is strictly smaller and shrinking terminates. Low words map to a range's low end, a
//! collection's shortest length and a union's first arm, and the stream continues past the
//! bytes with words that do the same, so a shorter or lower sequence usually replays to a
//! simpler value.
//!
//! ```
//! use proptest::prelude::*;
//! use proptest::strategy::ValueTree;
//! use proptest::test_runner::Config as ProptestConfig;
//! use typefuzz::{Context, Mutate};
//! use typefuzz_proptest::choices::Choices;
//!
//! // Non-empty lists of lowercase words: every mutant replays to one.
//! let strategy = proptest::collection::vec("[a-z]{1,8}", 1..5);
//! let config = ProptestConfig::default();
//! let (_, mut choices) = Choices::record(&strategy, &config, [7; 32]).unwrap();
//! let mut cx = Context::new(1);
//! for _ in 0..1000 {
//!     choices.mutate(&mut cx);
//!     let words = choices.replay(&strategy, &config).unwrap().current();
//!     assert!((1..5).contains(&words.len()));
//!     assert!(words.iter().all(|w| (1..=8).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_lowercase())));
//! }
//! ```

use std::cell::{RefCell, RefMut};
use std::fmt;
use std::sync::OnceLock;

use chacha20::rand_core::{Rng as _, SeedableRng as _};
use chacha20::ChaCha20Rng;

// `next_u32` is `Rng`'s in rand 0.10 (proptest 1.10 on) and `RngCore`'s in rand 0.9: whichever
// this proptest has is used, the other is an empty alias or has no such method.
#[allow(unused_imports, deprecated)]
use proptest::prelude::{Rng as _, RngCore as _};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as ProptestConfig, Reason, RngAlgorithm, TestRng, TestRunner};
use typefuzz_engine::codec::{Decoder, Encoder};
use typefuzz_engine::feedback::structure::{mix, token, Structure};
use typefuzz_engine::fingerprint::Fingerprint;
use typefuzz_engine::{Context, Mutate, Operator};

mod forks;

/// Bytes per draw: proptest's strategies read the stream with `next_u32`.
const WORD: usize = 4;
/// Longest span of words one span mutation moves.
const MAX_SPAN: usize = 8;
/// Sequences kept per thread for splicing.
const DONORS: usize = 64;
/// Boundary words: a range's low end, just above it, its middle, its high end, the bit
/// patterns next to the sign bit, and the same for the 8- and 16-bit integers that keep a
/// word's low bits (`any::<i8>()` reads `0x80` as `i8::MIN`).
const INTERESTING: [u32; 12] = [
    0,
    1,
    0x7f,
    0x80,
    0x7fff,
    0x8000,
    0x4000_0000,
    0x7fff_ffff,
    0x8000_0000,
    0xc000_0000,
    u32::MAX - 1,
    u32::MAX,
];
/// Boundary values of a 64-bit draw (`any::<u64>()`, `usize`, `i64`, `f64` read two words,
/// low word first): a boundary needs both words at once, which two word mutations rarely make.
const INTERESTING_64: [u64; 8] = [
    0,
    1,
    u32::MAX as u64,
    1 << 32,
    i64::MAX as u64,
    i64::MIN as u64,
    u64::MAX - 1,
    u64::MAX,
];

/// What the stream reads after the recorded bytes. A pass-through stream reads zeros once its
/// bytes run out, but rand's unbiased range samplers (Lemire's method) reject a zero word for
/// every range that is not a power of two and draw again, forever. The word 1 is accepted by
/// every range below 2^32 and maps to its low end (`1 * range < 2^32`), as zeros would: an
/// exhausted stream still builds the simplest value (low ends, shortest collections, first
/// union arms).
const FILLER: u32 = 1;

/// Bytes a replay's own stream keeps after its last derived stream: the recorded bytes, and as
/// much again plus 512 for the [`FILLER`] words a mutant reads past them (a length raised over
/// elements its bytes do not hold).
fn room_needed(recorded: usize) -> usize {
    recorded * 2 + 512
}

/// Bytes of stream a replay starts with: the recorded bytes, then [`FILLER`] words; 16 KiB at
/// least (the copy is paid on every replay), 16 times the record for values that draw much,
/// twice the longest fresh draw offered on this thread (`drawn`: a mutant that raises a length
/// reads up to about what a fresh value of that length read), and room for the streams the
/// value derived while it was recorded and two more (a union arm a mutant picks later). A
/// replay that derives more streams than that is retried with more room (see
/// [`Choices::replay`]).
///
/// Reads are not watched, only derived streams. What can still run a stream dry, after which
/// rand's range samplers may redraw zeros until the engine's watchdog reports a hang: a mutant
/// that, without deriving a stream, reads more than all of the above (a length raised past every
/// fresh draw's, over elements built from filler that read more than 16 KiB in all); or one
/// whose derived streams leave its own stream less than its bytes plus 512 bytes of filler reads
/// plus as much again (the fork budget's [`room_needed`]).
fn padded_len(recorded: usize, drawn: usize, derived: u8) -> usize {
    let base = (recorded * 16 + 1024).max(drawn * 2 + 1024).max(16 * 1024);
    base.max(forks::room_for(
        room_needed(recorded),
        u32::from(derived) + 2,
    ))
}

/// Longest stream a replay from bytes is given (more for sequences so long that this leaves no
/// room for three derived streams). Each derived stream halves the replay's own, so room grows
/// as `2^derives`: a replay that would need more is built from a stream seeded by its bytes
/// instead (see [`Choices::replay`]).
///
/// 256 KiB, not more: on `prop_recursive` terms of ~48 nodes (`bench` `dropin`), mutants that
/// needed more than the second attempt's 7 derived streams all needed more than 10, so a third
/// attempt at 512 KiB never succeeded and only copied (7,332 replays at the first attempt, 5,072
/// at the second, 0 at the third, 8,596 past it).
const MAX_REPLAY_LEN: usize = 256 << 10;

/// Most derived streams a value may draw and still be kept as bytes (a union of `n` arms
/// derives up to `n - 1`); a value that derived more is kept as its seed (see [`Recording`]).
/// The bound keeps [`padded_len`] (copied on every replay) below ~100 KiB for typical values.
/// The fork budget would replay more (mutants that derive more are retried), but 6 was measured
/// worse: the historical line's im-vector-into-iter (a vector of 4-arm unions) took 2,586 / 620
/// / 160,270 / 113,858 / 4,970 tests in its 5 trials (worst 7.5 s of its 10 s cap) against
/// 2,464 / 496 / 2,329 / 94,573 / 2,730 with 4.
const MAX_BYTES_DERIVED: u8 = 4;

/// Words of a sequence the structure feedback observes (see [`Choices::visit_structure`]).
const OBSERVED_WORDS: usize = 64;

/// Longest sequence (in bytes) whose mutations are checked for leaving it unchanged.
const NOOP_CHECKED: usize = 64;

/// Candidates of each kind in one shrink list.
const SHRINK_PER_KIND: usize = 16;

thread_local! {
    /// The buffer a replay's stream is assembled in (proptest copies it): [`FILLER`] words, as
    /// many as the longest replay needed so far, between replays (see [`with_stream`]).
    static STREAM: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// Sequences offered for splicing (a ring buffer; see [`Choices::offer`]).
    static DONOR_POOL: RefCell<Donors> =
        const { RefCell::new(Donors { ring: Vec::new(), next: 0, longest: 0, longest_drawn: 0 }) };
}

struct Donors {
    ring: Vec<Vec<u8>>,
    next: usize,
    /// The longest sequence offered: mutants grow to at most 1.5 times that (plus a word).
    longest: usize,
    /// The longest fresh draw offered ([`Choices::offer`]; mutants are offered too): how much
    /// the strategies of this thread read, which sizes replays ([`padded_len`]).
    longest_drawn: usize,
}

/// The length past which mutations stop growing a sequence: 1.5 times the longest offered one
/// (fresh draws, which show how much the strategy reads), plus a word. Without a bound,
/// feedback that rewards new input sizes would keep growing sequences whose tails no strategy
/// reads, and every change there would replay to the parent's value (a `(u8, bool)` reads
/// two words).
/// The longest fresh draw offered on this thread (see [`padded_len`]).
fn longest_drawn() -> usize {
    DONOR_POOL.with(|pool| pool.borrow().longest_drawn)
}

fn growth_limit() -> usize {
    DONOR_POOL.with(|pool| {
        let longest = pool.borrow().longest;
        longest + longest / 2 + WORD
    })
}

/// Calls `use_stream` with a replay's stream: `bytes`, then whole [`FILLER`] words up to at least
/// `len` bytes in all.
///
/// This runs on every replay, and the stream is tens of KiB for a sequence of tens of bytes
/// (see [`padded_len`]), which proptest copies once more: the thread's buffer holds filler
/// between replays, so that only the bytes are written into it and put back afterwards.
fn with_stream<R>(bytes: &[u8], len: usize, use_stream: impl FnOnce(&[u8]) -> R) -> R {
    const FILLER_WORD: [u8; WORD] = FILLER.to_le_bytes();
    let total = bytes.len() + len.saturating_sub(bytes.len()).div_ceil(WORD) * WORD;
    if bytes.len() % WORD != 0 {
        // The filler words start mid-word of the buffer's pattern: assembled apart (rare: draws
        // and word operators keep sequences whole words).
        let mut data = bytes.to_vec();
        data.resize(total, 0);
        for word in data[bytes.len()..].chunks_exact_mut(WORD) {
            word.copy_from_slice(&FILLER_WORD);
        }
        return use_stream(&data);
    }
    STREAM.with(|stream| {
        let mut stream = stream.borrow_mut();
        while stream.len() < total {
            stream.extend_from_slice(&FILLER_WORD);
        }
        stream[..bytes.len()].copy_from_slice(bytes);
        // Filler over the bytes again once `use_stream` returns or unwinds.
        struct Refill<'a>(RefMut<'a, Vec<u8>>, usize);
        impl Drop for Refill<'_> {
            fn drop(&mut self) {
                for word in self.0[..self.1].chunks_exact_mut(WORD) {
                    word.copy_from_slice(&FILLER_WORD);
                }
            }
        }
        let refill = Refill(stream, bytes.len());
        use_stream(&refill.0[..total])
    })
}

/// The bytes one or more strategies drew from proptest's random stream: a genotype that replays
/// to a value of the strategy (see the [module docs](self)).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Choices {
    bytes: Vec<u8>,
    /// Streams the value derived while it was recorded (unions derive one per arm before the
    /// picked one, and never read them while building the value): sizes the replay's padding.
    derived: u8,
    /// `Some((seed, skip))`: not replayed from the bytes but from a ChaCha stream seeded with
    /// `seed`, after `skip` words (see [`Recording`]); mutated by regeneration only.
    seeded: Option<([u8; 32], u32)>,
}

impl Choices {
    /// A sequence of the given bytes.
    ///
    /// ```
    /// use typefuzz_proptest::choices::Choices;
    /// assert_eq!(Choices::new(vec![1, 2]).as_bytes(), &[1, 2]);
    /// ```
    pub fn new(bytes: Vec<u8>) -> Self {
        Choices {
            bytes,
            derived: 0,
            seeded: None,
        }
    }

    /// The bytes.
    ///
    /// ```
    /// use typefuzz_proptest::choices::Choices;
    /// assert!(Choices::default().as_bytes().is_empty());
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Generates a value of `strategy` from a ChaCha stream seeded with `seed`, recording the
    /// bytes it drew: the value tree and the sequence that replays it.
    ///
    /// The seed is what proptest persists (`cc <hex>` lines of `.proptest-regressions` files):
    /// proptest's runner builds the same value from it. Strategies that derive a second random
    /// stream (`prop_perturb`, shuffles, samples) draw it apart from the record; their replay is
    /// a value of the strategy too, but not always the recorded one.
    ///
    /// ```
    /// use proptest::prelude::*;
    /// use proptest::strategy::ValueTree;
    /// use proptest::test_runner::Config as ProptestConfig;
    /// use typefuzz_proptest::choices::Choices;
    /// let config = ProptestConfig::default();
    /// let (tree, choices) = Choices::record(&(0..100u32, "[a-z]+"), &config, [3; 32]).unwrap();
    /// assert_eq!(choices.replay(&(0..100u32, "[a-z]+"), &config).unwrap().current(), tree.current());
    /// ```
    pub fn record<S: Strategy>(
        strategy: &S,
        config: &ProptestConfig,
        seed: [u8; 32],
    ) -> Result<(S::Tree, Choices), Reason> {
        Recording::new(config, seed).draw(strategy)
    }

    /// Builds `strategy`'s value tree with these bytes as the random stream, followed by filler
    /// words that every range maps to its low end.
    ///
    /// Every stream the strategy derives (a union derives one per arm before the one it picks)
    /// halves what is left of the replay's own, and an exhausted stream would make rand's range
    /// samplers redraw forever. The replay counts the streams it derives while the value is
    /// built and, one past what its stream affords, starts again with room for more (twice the
    /// bytes per derived stream, up to 256 KiB). A value that needs more than that is built from a
    /// ChaCha stream seeded by these bytes instead: a value of the strategy, the same on every
    /// replay, never a hang.
    ///
    /// Fails only when the strategy gives up (a `prop_filter` that rejected too many values):
    /// the caller treats that as a discard.
    ///
    /// ```
    /// use proptest::prelude::*;
    /// use proptest::strategy::ValueTree;
    /// use proptest::test_runner::Config as ProptestConfig;
    /// use typefuzz_proptest::choices::Choices;
    /// let config = ProptestConfig::default();
    /// // Past its bytes the stream builds the simplest values: a range's low end, a collection's
    /// // shortest length.
    /// let empty = Choices::default();
    /// assert_eq!(empty.replay(&(10..20u8), &config).unwrap().current(), 10);
    /// assert_eq!(empty.replay(&proptest::collection::vec(0..7u8, 2..9), &config).unwrap().current(), vec![0, 0]);
    /// // Forty elements that each pick a union's last arm derive eighty streams: far more than
    /// // any stream affords, and still a value of the strategy.
    /// let unions = proptest::collection::vec(prop_oneof![Just(0u8), 1..10u8, 10..20u8], 0..60);
    /// let mut bytes = vec![0xff; 4]; // the longest length
    /// bytes.extend([0xff; 8].repeat(60)); // last arm, then its high end
    /// let v = Choices::new(bytes).replay(&unions, &config).unwrap().current();
    /// assert!(v.len() < 60 && v.iter().all(|&x| x < 20));
    /// ```
    pub fn replay<S: Strategy>(
        &self,
        strategy: &S,
        config: &ProptestConfig,
    ) -> Result<S::Tree, Reason> {
        if let Some((seed, skip)) = self.seeded {
            return Self::replay_seeded(strategy, config, seed, skip);
        }
        let need = room_needed(self.bytes.len());
        let cap = MAX_REPLAY_LEN.max(forks::room_for(need, 3));
        let mut len = padded_len(self.bytes.len(), longest_drawn(), self.derived);
        loop {
            let allowed = forks::allowed(len, need);
            if let Some(tree) = self.replay_bytes(strategy, config, len, allowed) {
                return tree;
            }
            // The value derives more than `allowed` streams: room for two more than that.
            len = forks::room_for(need, allowed + 3);
            if len > cap {
                return Self::replay_seeded(strategy, config, self.digest(), 0);
            }
        }
    }

    /// Builds `strategy`'s value tree from these bytes and filler up to `len` bytes, unless it
    /// derives more than `allowed` streams (`None`: the build was ended at the one too many).
    fn replay_bytes<S: Strategy>(
        &self,
        strategy: &S,
        config: &ProptestConfig,
        len: usize,
        allowed: u32,
    ) -> Option<Result<S::Tree, Reason>> {
        let rng = with_stream(&self.bytes, len, |data| {
            TestRng::from_seed(RngAlgorithm::PassThrough, data)
        });
        // Built before the count starts: building the runner moves the config, but a clone of
        // it would count.
        let mut runner = TestRunner::new_with_rng(forks::replay_config(config), rng);
        forks::build(allowed, || strategy.new_tree(&mut runner))
    }

    /// Builds `strategy`'s value tree from the ChaCha stream seeded with `seed`, after `skip`
    /// words.
    fn replay_seeded<S: Strategy>(
        strategy: &S,
        config: &ProptestConfig,
        seed: [u8; 32],
        skip: u32,
    ) -> Result<S::Tree, Reason> {
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let mut runner = Self::runner(config, rng);
        for _ in 0..skip {
            runner.rng().next_u32();
        }
        strategy.new_tree(&mut runner)
    }

    /// A ChaCha seed that depends on every byte: the stream of a value too union-heavy to
    /// replay from its bytes (see [`replay`](Choices::replay)).
    fn digest(&self) -> [u8; 32] {
        const LANES: [u64; 4] = [
            token("typefuzz_proptest::choices::Choices/digest/0"),
            token("typefuzz_proptest::choices::Choices/digest/1"),
            token("typefuzz_proptest::choices::Choices/digest/2"),
            token("typefuzz_proptest::choices::Choices/digest/3"),
        ];
        let mut lanes = LANES;
        let length = self.bytes.len() as u64;
        for chunk in self.bytes.chunks(8).chain([&length.to_le_bytes()[..]]) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            let word = u64::from_le_bytes(word);
            for lane in &mut lanes {
                *lane = mix(*lane, word);
            }
        }
        let mut seed = [0; 32];
        for (bytes, lane) in seed.chunks_mut(8).zip(lanes) {
            bytes.copy_from_slice(&lane.to_le_bytes());
        }
        seed
    }

    /// Whether replaying these bytes builds the value `tree` holds (compared by `Debug`, which
    /// every proptest value has).
    fn replays_to<S: Strategy>(
        &self,
        strategy: &S,
        tree: &S::Tree,
        config: &ProptestConfig,
    ) -> bool {
        self.replay(strategy, config).is_ok_and(|replayed| {
            format!("{:?}", replayed.current()) == format!("{:?}", tree.current())
        })
    }

    /// Makes this sequence available for splicing into other sequences mutated on this thread
    /// (the pool keeps the last 64). The adapters offer every freshly drawn sequence.
    ///
    /// ```
    /// use typefuzz::{Context, Mutate};
    /// use typefuzz_proptest::choices::Choices;
    /// Choices::forget_offers();
    /// Choices::new(vec![0xAB; 64]).offer();
    /// let mut cx = Context::new(5);
    /// let mut spliced = false;
    /// for _ in 0..200 {
    ///     let mut c = Choices::new(vec![0; 64]);
    ///     c.mutate(&mut cx);
    ///     spliced |= c.as_bytes().windows(4).any(|w| w == [0xAB; 4]);
    /// }
    /// assert!(spliced);
    /// ```
    pub fn offer(&self) {
        self.donate(true);
    }

    /// Puts this sequence in the splicing pool; a `drawn` one (a fresh draw) also records how
    /// much the strategy reads ([`padded_len`]).
    fn donate(&self, drawn: bool) {
        if self.bytes.len() < WORD {
            return;
        }
        DONOR_POOL.with(|pool| {
            let mut pool = pool.borrow_mut();
            if pool.ring.len() < DONORS {
                pool.ring.push(self.bytes.clone());
            } else {
                let next = pool.next;
                pool.ring[next].clone_from(&self.bytes);
            }
            pool.next = (pool.next + 1) % DONORS;
            pool.longest = pool.longest.max(self.bytes.len());
            if drawn {
                pool.longest_drawn = pool.longest_drawn.max(self.bytes.len());
            }
        });
    }

    /// Empties this thread's splicing pool, so that a run does not depend on what earlier runs
    /// on the same thread offered (runs stay functions of their seed).
    ///
    /// ```
    /// typefuzz_proptest::choices::Choices::forget_offers();
    /// ```
    pub fn forget_offers() {
        DONOR_POOL.with(|pool| {
            let mut pool = pool.borrow_mut();
            pool.ring.clear();
            pool.next = 0;
            pool.longest = 0;
            pool.longest_drawn = 0;
        });
    }

    /// A runner that never persists anything and never complains of global rejects: typefuzz
    /// owns both.
    fn runner(config: &ProptestConfig, rng: TestRng) -> TestRunner {
        TestRunner::new_with_rng(config.clone(), rng)
    }

    fn words(&self) -> usize {
        self.bytes.len().div_ceil(WORD)
    }

    fn word(&self, index: usize) -> u32 {
        let mut buf = [0; WORD];
        let start = index * WORD;
        let end = (start + WORD).min(self.bytes.len());
        buf[..end - start].copy_from_slice(&self.bytes[start..end]);
        u32::from_le_bytes(buf)
    }

    fn set_word(&mut self, index: usize, value: u32) {
        let start = index * WORD;
        let end = (start + WORD).min(self.bytes.len());
        self.bytes[start..end].copy_from_slice(&value.to_le_bytes()[..end - start]);
    }

    /// A word-aligned span `start..end` (in bytes) of 1 to [`MAX_SPAN`] words.
    fn span(&self, cx: &mut Context) -> (usize, usize) {
        let words = self.words();
        let start = cx.below(words);
        let len = 1 + cx.below((words - start).min(MAX_SPAN));
        (start * WORD, ((start + len) * WORD).min(self.bytes.len()))
    }

    /// A byte of a word for a small change: the low byte (what `u8`, `u16` and `char` draws
    /// keep) or the high byte (what ranges, `bool` and unions read) a third of the time each,
    /// any byte otherwise.
    fn read_byte(cx: &mut Context) -> usize {
        match cx.below(3) {
            0 => 0,
            1 => WORD - 1,
            _ => cx.below(WORD),
        }
    }

    fn random_word(cx: &mut Context) -> [u8; WORD] {
        cx.rng().u32(..).to_le_bytes()
    }

    /// Inserts a span of another offered sequence at a word boundary; false if none is offered.
    fn splice(&mut self, cx: &mut Context) -> bool {
        let donor = DONOR_POOL.with(|pool| {
            let pool = pool.borrow();
            if pool.ring.is_empty() {
                return None;
            }
            let donor = Choices::new(pool.ring[cx.below(pool.ring.len())].clone());
            let (start, end) = donor.span(cx);
            Some(donor.bytes[start..end].to_vec())
        });
        let Some(span) = donor else {
            return false;
        };
        let at = cx.below(self.words() + 1) * WORD;
        let at = at.min(self.bytes.len());
        if cx.chance(1, 2) {
            // Overwrite in place, keeping the length (and so the draws after the span).
            let end = (at + span.len()).min(self.bytes.len());
            self.bytes[at..end].copy_from_slice(&span[..end - at]);
        } else {
            self.bytes.splice(at..at, span);
        }
        true
    }
}

/// A fresh draw of one or more strategies from one recorded ChaCha stream (what the adapter's
/// generator and `.proptest-regressions` seeds use), with each value's [`Choices`].
///
/// proptest gives every derived stream of a pass-through stream half of what is left: a union
/// (`prop_oneof!`, `prop_recursive`) derives one for each arm before the one it picks, so a
/// value built through many unions cannot be replayed from its bytes (the stream runs dry, and
/// rand's range samplers then redraw zeros forever). A recording detects derived streams: the
/// recorder does not record the 32 bytes each one takes from the ChaCha stream, so the word the
/// stream produces next is found further on in a reference stream of the same seed. A value
/// that derived at most 4 streams and never read them (a union's unpicked arms, a
/// `prop_flat_map` value's runner: the runner's config is cloned for each, and counted) is kept
/// as its bytes, replayed with padding sized to its derives; any other value that derived a
/// stream is
/// kept as its seed and position instead: replayed exactly from ChaCha, mutated by
/// regeneration only, shrunk by proptest's value tree.
///
/// ```
/// use proptest::prelude::*;
/// use proptest::test_runner::Config as ProptestConfig;
/// use typefuzz_proptest::choices::Recording;
/// let mut recording = Recording::new(&ProptestConfig::default(), [4; 32]);
/// let (_, plain) = recording.draw(&(0..10u8)).unwrap();
/// let (_, union) = recording.draw(&prop_oneof![Just(0u8), Just(1u8), 5..9u8]).unwrap();
/// let (_, after) = recording.draw(&(0..10u8)).unwrap();
/// assert!(!plain.is_seeded() && !after.is_seeded());
/// # let _ = union;
/// ```
pub struct Recording {
    runner: TestRunner,
    seed: [u8; 32],
    config: ProptestConfig,
    /// The reference stream: plain ChaCha from the same seed.
    reference: Reference,
    /// Derived streams so far (32 bytes of ChaCha each); `None` once they could not be counted.
    derived: Option<usize>,
    /// Clones of the runner's config so far: the streams derived through
    /// `TestRunner::partial_clone`, which a value never reads while it is built.
    clones: forks::CloneCount,
    /// The clone count at the last [`settle`](Recording::settle).
    clones_settled: usize,
    /// Bytes recorded up to the last [`settle`](Recording::settle).
    recorded: usize,
    /// Whether `settle` reads the stream's next word from the stream itself (a continuing
    /// recording, whose positions need not match proptest's) rather than from a copy.
    probe_in_place: bool,
}

/// Bound on a seeded value's position in its stream, in words (see [`Choices::decode`]).
const MAX_SKIP: u32 = 1 << 20;

/// Most derived streams searched for after one draw.
const MAX_DERIVED: usize = 256;

impl Recording {
    /// A recording of the ChaCha stream seeded with `seed` (proptest's `cc` seeds).
    pub fn new(config: &ProptestConfig, seed: [u8; 32]) -> Self {
        let clones = forks::CloneCount;
        Recording {
            runner: TestRunner::new_with_rng(
                clones.config(config),
                TestRng::from_seed(RngAlgorithm::Recorder, &seed),
            ),
            seed,
            config: config.clone(),
            reference: Reference::new(seed),
            derived: Some(0),
            clones_settled: clones.get(),
            clones,
            recorded: 0,
            probe_in_place: false,
        }
    }

    /// A recording that many fresh inputs are drawn from in turn, as plain proptest draws all
    /// of a run's cases from one stream: the stream's buffered words serve the next input
    /// instead of being generated again for each. Its values are not those proptest would
    /// build from `seed` (the stream skips a word after each value); see
    /// [`is_spent`](Recording::is_spent) for when to start another.
    pub(crate) fn continuing(config: &ProptestConfig, seed: [u8; 32]) -> Self {
        Recording {
            probe_in_place: true,
            ..Recording::new(config, seed)
        }
    }

    /// Whether a [`continuing`](Recording::continuing) recording should be replaced: its
    /// stream positions are lost (a value derived streams that could not be counted), or its
    /// record has grown long enough that copying it on every draw costs more than a new
    /// stream.
    pub(crate) fn is_spent(&self) -> bool {
        /// Longest record a continuing recording keeps (proptest copies it whole on every
        /// draw, and positions in it are what seeded values skip on replay).
        const MAX_RECORD: usize = 4 * 1024;
        self.derived.is_none() || self.recorded > MAX_RECORD
    }

    /// The runner drawing from the stream, for values kept as themselves (typed arguments);
    /// call [`settle`](Recording::settle) after drawing with it.
    pub fn runner(&mut self) -> &mut TestRunner {
        &mut self.runner
    }

    /// Draws a value of `strategy` from the stream: its tree and its choices.
    pub fn draw<S: Strategy>(&mut self, strategy: &S) -> Result<(S::Tree, Choices), Reason> {
        let start = self.recorded;
        let before = self.derived;
        let clones_before = self.clones.get();
        let tree = strategy.new_tree(&mut self.runner)?;
        let clones = self.clones.get().wrapping_sub(clones_before);
        let mut bytes = self.settle_at();
        if let (Some(a), Some(b)) = (before, self.derived) {
            // `derived` counts 32-byte steps of the ChaCha stream; a derived stream takes
            // `words_per_derive()` words of it.
            let derived = ((b - a) * 32 / WORD).div_ceil(words_per_derive());
            if derived <= usize::from(MAX_BYTES_DERIVED) {
                bytes.drain(..start);
                let choices = Choices {
                    bytes,
                    derived: derived as u8,
                    seeded: None,
                };
                // Streams a union derives for the arms it did not pick, and the runner a
                // `prop_flat_map` value keeps, are never read while the value is built, so its
                // bytes replay it: every derived stream was one of those when as many were
                // derived as the runner's config was cloned (`partial_clone`). A stream the
                // value did read (`prop_perturb`, shuffles, a strategy's own `new_rng`) is not
                // in the bytes, and the replay may differ: checked once, here. (A strategy that
                // both clones the config by hand and reads a stream of its own escapes the
                // count, not the check's purpose: its replay is still a value of the strategy.)
                if derived == 0
                    || derived == clones
                    || choices.replays_to(strategy, &tree, &self.config)
                {
                    return Ok((tree, choices));
                }
            }
            if start % WORD == 0 {
                let choices = Choices {
                    bytes: Vec::new(),
                    derived: 0,
                    seeded: Some((self.seed, ((start + 32 * a) / WORD) as u32)),
                };
                return Ok((tree, choices));
            }
        }
        // The stream's position is lost: keep a fresh seed of the strategy instead.
        let mut seed = self.seed;
        seed[0] ^= start as u8;
        seed[1] ^= (start >> 8) as u8;
        let choices = Choices {
            bytes: Vec::new(),
            derived: 0,
            seeded: Some((seed, 0)),
        };
        let tree = choices.replay(strategy, &self.config)?;
        Ok((tree, choices))
    }

    /// Counts the streams derived since the last call, by finding the stream's next word in the
    /// reference stream.
    pub fn settle(&mut self) {
        self.settle_at();
    }

    /// [`settle`](Recording::settle), returning the record up to the end of the value drawn
    /// last (proptest hands out a copy of the whole record: one per draw is what it costs).
    fn settle_at(&mut self) -> Vec<u8> {
        let record = self.runner.bytes_used();
        let recorded = record.len();
        self.recorded = recorded;
        let Some(derived) = self.derived else {
            return record;
        };
        // The raw words, not `any::<u32>()` trees: this runs on every fresh input. Copying
        // the stream regenerates its buffer; a continuing recording reads on instead (the word
        // is recorded, and skipped by the next draw).
        let next = if self.probe_in_place {
            self.recorded += WORD;
            self.runner.rng().next_u32()
        } else {
            self.runner.rng().clone().next_u32()
        };
        // The streams derived through config clones since the last settle (`CloneCount`) are
        // usually all there were: the word is looked for there first, one read of the
        // reference, and only then at every step from the last position on (stepping over
        // dozens of derived streams' words costs as much ChaCha as a small value's draw).
        let clones = self.clones.get();
        let counted = clones.wrapping_sub(self.clones_settled);
        self.clones_settled = clones;
        self.derived = None;
        if recorded % WORD != 0 {
            return record;
        }
        let reference = &mut self.reference;
        let mut is_next = |extra: usize| {
            let offset = recorded + 32 * (derived + extra);
            reference.word(offset / WORD) == next
        };
        let predicted = counted.saturating_mul(words_per_derive() * WORD) / 32;
        let extra = if predicted <= MAX_DERIVED && is_next(predicted) {
            Some(predicted)
        } else {
            (0..=MAX_DERIVED).find(|&extra| extra != predicted && is_next(extra))
        };
        self.derived = extra.map(|extra| derived + extra);
        record
    }
}

/// The plain ChaCha stream of a recording's seed, read at the positions [`Recording::settle`]
/// asks for.
enum Reference {
    /// proptest's ChaCha stream is `chacha20::ChaCha20Rng`'s (checked once per process:
    /// [`seekable`]), which seeks to any word in constant time. Generating the stream up to
    /// the recorded length instead would cost as much ChaCha as the recording itself, on every
    /// fresh input.
    Seekable(ChaCha20Rng),
    /// Otherwise proptest's own stream, generated as far as asked and kept.
    Stream { rng: TestRng, words: Vec<u32> },
}

impl Reference {
    fn new(seed: [u8; 32]) -> Self {
        if seekable() {
            Reference::Seekable(ChaCha20Rng::from_seed(seed))
        } else {
            Reference::Stream {
                rng: TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
                words: Vec::new(),
            }
        }
    }

    /// The stream's word at `index`.
    fn word(&mut self, index: usize) -> u32 {
        match self {
            Reference::Seekable(rng) => {
                let target = index as u128;
                let at = rng.get_word_pos();
                // Reading forward a little is cheaper than a seek, which refills the buffer.
                if at <= target && target - at < 64 {
                    for _ in at..target {
                        rng.next_u32();
                    }
                } else {
                    rng.set_word_pos(target);
                }
                rng.next_u32()
            }
            Reference::Stream { rng, words } => {
                while words.len() <= index {
                    words.push(rng.next_u32());
                }
                words[index]
            }
        }
    }
}

/// Words of the ChaCha stream a recording's derived stream takes for its seed (rand draws a
/// `[u8; 32]` seed byte by byte, one word each, in the versions proptest uses; computed once per
/// process, from a derive and the reference stream).
fn words_per_derive() -> usize {
    static WORDS: OnceLock<usize> = OnceLock::new();
    *WORDS.get_or_init(|| {
        let seed = [0x3c; 32];
        let rng = TestRng::from_seed(RngAlgorithm::Recorder, &seed);
        let mut runner = Choices::runner(&ProptestConfig::default(), rng);
        let _ = runner.new_rng();
        let next = runner.rng().next_u32();
        let mut reference = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        (0..256)
            .find(|_| reference.next_u32() == next)
            .filter(|&words| words > 0)
            .unwrap_or(32 / WORD)
    })
}

/// Whether proptest's ChaCha stream is `chacha20::ChaCha20Rng`'s, word for word and after a
/// seek (computed once per process).
fn seekable() -> bool {
    static SEEKABLE: OnceLock<bool> = OnceLock::new();
    *SEEKABLE.get_or_init(|| {
        let seed = [0x5a; 32];
        let mut proptest_rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let mut chacha = ChaCha20Rng::from_seed(seed);
        let words: Vec<u32> = (0..200).map(|_| proptest_rng.next_u32()).collect();
        let same = words.iter().all(|&word| chacha.next_u32() == word);
        chacha.set_word_pos(150);
        same && chacha.next_u32() == words[150]
    })
}

impl Choices {
    /// Whether this value is kept as a seed and position rather than bytes (see [`Recording`]).
    ///
    /// ```
    /// assert!(!typefuzz_proptest::choices::Choices::default().is_seeded());
    /// ```
    pub fn is_seeded(&self) -> bool {
        self.seeded.is_some()
    }
}

impl fmt::Debug for Choices {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((seed, skip)) = &self.seeded {
            write!(f, "Choices(seed ")?;
            for byte in seed {
                write!(f, "{byte:02x}")?;
            }
            return write!(f, " after {skip} words)");
        }
        write!(f, "Choices(")?;
        for byte in &self.bytes {
            write!(f, "{byte:02x}")?;
        }
        write!(f, ")")
    }
}

impl Choices {
    /// One mutation of a byte sequence (see the [module docs](self)).
    fn mutate_bytes(&mut self, cx: &mut Context) {
        let words = self.words();
        let grow = u32::from(self.bytes.len() < growth_limit());
        let weights = [
            4,        // Interesting: a boundary word
            4,        // AddSub: a small step at one of the word's byte scales
            2,        // BitFlip
            2,        // Random: a fresh word
            2,        // Remove: delete a span
            grow,     // Duplicate: repeat a span in place
            1,        // Swap: copy a span over another position
            grow,     // Insert: fresh words
            1,        // Truncate
            2 * grow, // Crossover: a span of another sequence
            // Interesting64: a 64-bit boundary over two words
            2 * u32::from(words >= 2),
        ];
        match cx.weighted(&weights) {
            Some(0) => {
                cx.record(Operator::Interesting);
                let index = cx.below(words);
                self.set_word(index, INTERESTING[cx.below(INTERESTING.len())]);
            }
            Some(1) => {
                cx.record(Operator::AddSub);
                let index = cx.below(words);
                let step = (1 + cx.below(16) as u32) << (8 * Self::read_byte(cx));
                let word = self.word(index);
                let word = if cx.chance(1, 2) {
                    word.wrapping_add(step)
                } else {
                    word.wrapping_sub(step)
                };
                self.set_word(index, word);
            }
            Some(2) => {
                cx.record(Operator::BitFlip);
                let index =
                    (cx.below(words) * WORD + Self::read_byte(cx)).min(self.bytes.len() - 1);
                self.bytes[index] ^= 1 << cx.below(8);
            }
            Some(3) => {
                cx.record(Operator::Random);
                let index = cx.below(words);
                self.set_word(index, cx.rng().u32(..));
            }
            Some(4) => {
                cx.record(Operator::Remove);
                let (start, end) = self.span(cx);
                self.bytes.drain(start..end);
            }
            Some(5) => {
                cx.record(Operator::Duplicate);
                let (start, end) = self.span(cx);
                let copy = self.bytes[start..end].to_vec();
                self.bytes.splice(start..start, copy);
            }
            Some(6) => {
                cx.record(Operator::Swap);
                let (start, end) = self.span(cx);
                let copy = self.bytes[start..end].to_vec();
                let at = cx.below(words) * WORD;
                let stop = (at + copy.len()).min(self.bytes.len());
                self.bytes[at..stop].copy_from_slice(&copy[..stop - at]);
            }
            Some(7) => {
                cx.record(Operator::Insert);
                let at = (cx.below(words + 1) * WORD).min(self.bytes.len());
                let count = 1 + cx.below(MAX_SPAN);
                let fresh: Vec<u8> = (0..count).flat_map(|_| Self::random_word(cx)).collect();
                self.bytes.splice(at..at, fresh);
            }
            Some(8) => {
                cx.record(Operator::Truncate);
                let keep = cx.below(words) * WORD;
                self.bytes.truncate(keep);
            }
            Some(10) => {
                cx.record(Operator::Interesting);
                let index = cx.below(words - 1);
                let value = INTERESTING_64[cx.below(INTERESTING_64.len())];
                self.set_word(index, value as u32);
                self.set_word(index + 1, (value >> 32) as u32);
            }
            _ => {
                if !self.splice(cx) {
                    cx.record(Operator::Random);
                    let index = cx.below(words);
                    self.set_word(index, cx.rng().u32(..));
                    return;
                }
                cx.record(Operator::Crossover);
            }
        }
        if cx.chance(1, 16) {
            self.donate(false);
        }
    }
}

impl Mutate for Choices {
    /// Random words, as many as the size allows.
    fn generate(cx: &mut Context) -> Self {
        let words = cx.below(cx.size() + 1);
        let bytes = (0..words).flat_map(|_| Self::random_word(cx)).collect();
        Choices::new(bytes)
    }

    fn mutate(&mut self, cx: &mut Context) {
        if let Some((seed, skip)) = &mut self.seeded {
            cx.record(Operator::Regenerate);
            seed[..16].copy_from_slice(&cx.rng().u128(..).to_le_bytes());
            seed[16..].copy_from_slice(&cx.rng().u128(..).to_le_bytes());
            *skip = 0;
            return;
        }
        if self.bytes.is_empty() {
            cx.record(Operator::Insert);
            self.bytes.extend(Self::random_word(cx));
            return;
        }
        // A mutation that leaves the bytes as they were (a boundary word already there, a span
        // copied over itself) would test the parent again: short sequences, where that is
        // common, are mutated again until they change (a few tries).
        if self.bytes.len() > NOOP_CHECKED {
            return self.mutate_bytes(cx);
        }
        // A draw reads only some of a word's bits (a `u8` its low byte, a `bool` its top
        // bit), so one small change often leaves the value as it was: short sequences get a
        // stack of one to four changes (AFL's havoc).
        let before = self.bytes.clone();
        for _ in 0..8 {
            for _ in 0..=cx.below(4) {
                if self.bytes.is_empty() {
                    self.bytes.extend(Self::random_word(cx));
                } else {
                    self.mutate_bytes(cx);
                }
            }
            if self.bytes != before {
                return;
            }
        }
    }

    fn shrink(&self, _cx: &mut Context) -> Vec<Self> {
        let words = self.words();
        let mut out = Vec::new();
        // A seeded sequence shrinks through proptest's value tree (the adapter's last pass).
        if words == 0 || self.seeded.is_some() {
            return out;
        }
        out.push(Choices::default());
        if words > 1 {
            out.push(Choices::new(self.bytes[..(words / 2) * WORD].to_vec()));
        }
        // Spans of 8, 4, 2 and 1 words deleted, from the end backwards (later draws are the
        // least likely to shape what comes before them).
        for span in [8, 4, 2, 1] {
            if span >= words {
                continue;
            }
            let mut start = words - span;
            let mut taken = 0;
            loop {
                let mut bytes = self.bytes.clone();
                bytes.drain(start * WORD..((start + span) * WORD).min(self.bytes.len()));
                out.push(Choices::new(bytes));
                taken += 1;
                if start == 0 || taken == SHRINK_PER_KIND {
                    break;
                }
                start = start.saturating_sub(span);
            }
        }
        // One word lowered: to 1 (the low end of every range; 0 is redrawn, see FILLER),
        // halved, minus one.
        let lowered = (0..words)
            .filter(|&i| self.word(i) != 0)
            .take(SHRINK_PER_KIND);
        for index in lowered {
            let word = self.word(index);
            let mut candidates = vec![FILLER, word / 2, word - 1];
            candidates.retain(|&c| c < word);
            candidates.dedup();
            for value in candidates {
                let mut choices = self.clone();
                choices.set_word(index, value);
                out.push(choices);
            }
        }
        out
    }

    /// Draw-position classes: the value class of each of the first 64 words (zero, one, small,
    /// boundaries, magnitudes: the classes of a `u32`) at its position, and the number of
    /// words, so that a sequence with a boundary word at a new place is kept and mutated even
    /// when nothing else gives feedback. A seeded sequence reports only that it is one.
    ///
    /// ```
    /// use typefuzz::{Mutate, feedback::structure::Structure};
    /// use typefuzz_proptest::choices::Choices;
    /// let mut map = vec![0u64; Structure::MAP_WORDS];
    /// Choices::new(vec![5, 0, 0, 0]).visit_structure(&mut Structure::new(&mut map));
    /// let mut again = Structure::new(&mut map);
    /// Choices::new(vec![6, 0, 0, 0]).visit_structure(&mut again);
    /// assert_eq!(again.new_features(), 0, "5 and 6 are both small");
    /// let mut boundary = Structure::new(&mut map);
    /// Choices::new(vec![0xff; 4]).visit_structure(&mut boundary);
    /// assert!(boundary.new_features() > 0, "u32::MAX at word 0 is new");
    /// ```
    fn visit_structure(&self, structure: &mut Structure<'_>) {
        const TYPE: u64 = token("typefuzz_proptest::choices::Choices");
        const SEEDED: u64 = token("typefuzz_proptest::choices::Choices/seeded");
        const LENGTH: u64 = token("typefuzz_proptest::choices::Choices/words");
        if self.seeded.is_some() {
            structure.node(SEEDED);
            return;
        }
        structure.node(TYPE);
        let words = self.words();
        structure.child(LENGTH, 0, &words);
        for index in 0..words.min(OBSERVED_WORDS) {
            structure.child(mix(TYPE, index as u64), 0, &self.word(index));
        }
    }

    /// Every byte (the structure walk observes only the first words), or the seed and skip.
    fn hash_value(&self, hasher: &mut typefuzz_engine::mutate::ValueHasher) {
        match &self.seeded {
            None => {
                hasher.write(u64::from(self.derived));
                hasher.write_bytes(&self.bytes);
            }
            Some((seed, skip)) => {
                hasher.write(u64::MAX);
                hasher.write_bytes(seed);
                hasher.write(u64::from(*skip));
            }
        }
    }

    /// Versioned: inputs saved in an older encoding are never loaded as this one.
    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("typefuzz_proptest::choices::Choices/v2");
    }

    fn encode(&self, out: &mut Encoder) {
        match &self.seeded {
            None => {
                if self.derived == 0 {
                    out.write_byte(0);
                } else {
                    out.write_byte(2);
                    out.write_byte(self.derived);
                }
                // `Vec<u8>`'s encoding (a length, then the bytes), written in one go: this runs
                // on every test.
                out.write_len(self.bytes.len());
                out.write_bytes(&self.bytes);
            }
            Some((seed, skip)) => {
                out.write_byte(1);
                out.write_bytes(seed);
                out.write_bytes(&skip.to_le_bytes());
            }
        }
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        match input.read_byte() % 3 {
            0 => return Choices::new(Vec::decode(input)),
            2 => {
                let derived = input.read_byte() % (MAX_BYTES_DERIVED + 1);
                return Choices {
                    derived,
                    ..Choices::new(Vec::decode(input))
                };
            }
            _ => {}
        }
        let seed = input.read_array::<32>();
        // Positions past MAX_SKIP are not ones a recording produces: fold them in, so that a
        // decoded value replays in bounded time.
        let skip = u32::from_le_bytes(input.read_array::<4>()) % MAX_SKIP;
        Choices {
            bytes: Vec::new(),
            derived: 0,
            seeded: Some((seed, skip)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;

    /// Distinct inputs are counted by every byte, past the words the structure walk observes.
    #[test]
    fn hashes_see_every_byte_and_the_seed() {
        use typefuzz_engine::mutate::ValueHasher;
        let long = |last: u8| {
            let mut bytes = vec![0; 4 * OBSERVED_WORDS + 8];
            *bytes.last_mut().unwrap() = last;
            Choices::new(bytes)
        };
        assert_eq!(ValueHasher::of(&long(1)), ValueHasher::of(&long(1)));
        assert_ne!(ValueHasher::of(&long(1)), ValueHasher::of(&long(2)));
        let seeded = |skip| Choices {
            seeded: Some(([7; 32], skip)),
            ..Choices::new(Vec::new())
        };
        assert_ne!(ValueHasher::of(&seeded(0)), ValueHasher::of(&seeded(1)));
        assert_ne!(
            ValueHasher::of(&seeded(0)),
            ValueHasher::of(&Choices::new(Vec::new()))
        );
    }

    fn order_key(c: &Choices) -> (usize, Vec<u32>) {
        (c.words(), (0..c.words()).map(|i| c.word(i)).collect())
    }

    #[test]
    fn shrink_candidates_are_strictly_smaller() {
        let mut cx = Context::new(3);
        for _ in 0..200 {
            let mut c = Choices::generate(&mut cx.clone().with_max_size(40));
            c.mutate(&mut cx);
            let key = order_key(&c);
            for candidate in c.shrink(&mut cx) {
                assert!(
                    candidate.bytes.len() < c.bytes.len() || order_key(&candidate) < key,
                    "{candidate:?} is not smaller than {c:?}"
                );
            }
        }
    }

    #[test]
    fn the_reference_stream_seeks_in_proptests_chacha() {
        assert!(
            seekable(),
            "proptest's ChaCha is chacha20's: recordings seek instead of generating the stream"
        );
        let seed = [9; 32];
        let mut seeking = Reference::new(seed);
        let mut generated = Reference::Stream {
            rng: TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
            words: Vec::new(),
        };
        for index in [0, 5, 3, 100, 108, 116, 2000, 7, 2063] {
            assert_eq!(seeking.word(index), generated.word(index), "word {index}");
        }
    }

    #[test]
    fn union_values_are_mutated_to_64_bit_boundaries() {
        use proptest::prelude::*;
        // Two unions (up to two derived streams each): kept as bytes, so mutation reaches the
        // boundaries of a 64-bit draw, which regenerating the value would not in 2^64 tries.
        let strategy = (
            prop_oneof![Just(0usize), any::<usize>(), Just(1usize)],
            prop_oneof![Just(0i64), Just(1i64), any::<i64>()],
        );
        let config = ProptestConfig::default();
        let mut cx = Context::new(11);
        let (mut max, mut min) = (false, false);
        for seed in 0..20u8 {
            let (tree, mut choices) = Choices::record(&strategy, &config, [seed; 32]).unwrap();
            assert!(!choices.is_seeded(), "seed {seed}: {choices:?}");
            assert_eq!(
                choices.replay(&strategy, &config).unwrap().current(),
                tree.current()
            );
            for _ in 0..500 {
                choices.mutate(&mut cx);
                let (n, i) = choices.replay(&strategy, &config).unwrap().current();
                max |= n == usize::MAX;
                min |= i == i64::MIN;
            }
        }
        assert!(
            max && min,
            "usize::MAX reached: {max}, i64::MIN reached: {min}"
        );
    }

    /// A union of eight arms whose last arm the bytes pick: seven derived streams.
    fn eight_arms() -> impl Strategy<Value = u8> {
        use proptest::prelude::*;
        prop_oneof![
            Just(0u8),
            Just(1u8),
            Just(2u8),
            Just(3u8),
            Just(4u8),
            Just(5u8),
            Just(6u8),
            Just(7u8)
        ]
    }

    #[test]
    fn a_replay_that_derives_more_than_its_room_is_retried_with_more() {
        let config = ProptestConfig::default();
        let last = Choices::new(vec![0xff; 8]);
        let need = room_needed(last.bytes.len());
        let first = padded_len(last.bytes.len(), 0, last.derived);
        let allowed = forks::allowed(first, need);
        assert!(allowed < 7, "the first attempt affords {allowed} derives");
        assert!(last
            .replay_bytes(&eight_arms(), &config, first, allowed)
            .is_none());
        let enough = forks::room_for(need, 7);
        let tree = last.replay_bytes(&eight_arms(), &config, enough, 7);
        assert_eq!(tree.map(|tree| tree.unwrap().current()), Some(7));
        // The retry replays the bytes themselves: the last arm, not a fresh value.
        assert_eq!(last.replay(&eight_arms(), &config).unwrap().current(), 7);
    }

    #[test]
    fn a_replay_past_the_cap_is_a_fresh_value_of_its_bytes() {
        use proptest::prelude::*;
        let config = ProptestConfig::default();
        let unions = proptest::collection::vec(prop_oneof![Just(0u8), 1..10u8, 10..20u8], 0..60);
        // The longest length, then every element's last arm at its high end: ~118 derives.
        let mut bytes = vec![0xff; 4];
        bytes.extend([0xff; 8].repeat(60));
        let choices = Choices::new(bytes);
        let need = room_needed(choices.bytes.len());
        assert!(choices
            .replay_bytes(
                &unions,
                &config,
                MAX_REPLAY_LEN,
                forks::allowed(MAX_REPLAY_LEN, need)
            )
            .is_none());
        let value = choices.replay(&unions, &config).unwrap().current();
        assert!(value.len() < 60 && value.iter().all(|&x| x < 20));
        let fresh = Choices::replay_seeded(&unions, &config, choices.digest(), 0);
        assert_eq!(fresh.unwrap().current(), value);
        assert_eq!(choices.replay(&unions, &config).unwrap().current(), value);
        let mut other = choices.clone();
        other.bytes[100] ^= 1;
        assert_ne!(other.digest(), choices.digest());
    }

    #[test]
    fn a_length_raised_over_filler_reads_no_more_than_fresh_draws_allow() {
        use proptest::prelude::*;
        let config = ProptestConfig::default();
        // Up to 99 elements of 64 ranged draws: ~25 KiB of stream at the longest, more than the
        // 16 KiB a short sequence's replay gets by itself.
        let wide = proptest::array::uniform32(0..10u8);
        let strategy = proptest::collection::vec((wide.clone(), wide), 0..100);
        Choices::forget_offers();
        for seed in 0..20u8 {
            // As the adapter offers every fresh draw.
            Choices::record(&strategy, &config, [seed; 32])
                .unwrap()
                .1
                .offer();
        }
        assert!(longest_drawn() > 20 * 1024, "{}", longest_drawn());
        // The longest length over elements built from filler (a range's low end) but for what
        // the rest of the bytes reach.
        let raised = Choices::new(vec![0xff; 8])
            .replay(&strategy, &config)
            .unwrap()
            .current();
        assert_eq!(raised.len(), 99);
        let filler_built = raised
            .iter()
            .filter(|(a, b)| a == &[0; 32] && b == &[0; 32]);
        assert!(filler_built.count() >= 98);
        Choices::forget_offers();
    }

    #[test]
    fn mutants_of_vectors_of_unions_replay_without_hanging() {
        use proptest::prelude::*;
        let config = ProptestConfig::default();
        let unions = (
            proptest::collection::vec(prop_oneof![Just(0u8), 1..10u8, 10..20u8], 0..60),
            proptest::collection::vec(prop_oneof![1..3u16, 5..7u16, 9..11u16, 13..15u16], 0..30),
        );
        let mut cx = Context::new(7);
        for seed in 0..40u8 {
            let (_, mut choices) = Choices::record(&unions, &config, [seed; 32]).unwrap();
            if choices.is_seeded() {
                // Too many unions for bytes: start from a short sequence instead.
                choices = Choices::new(choices.digest()[..12].to_vec());
            }
            for _ in 0..200 {
                choices.mutate(&mut cx);
                let (small, large) = choices.replay(&unions, &config).unwrap().current();
                assert!(small.len() < 60 && small.iter().all(|&x| x < 20));
                assert!(large.len() < 30 && large.iter().all(|&x| x % 4 != 0 && x < 15));
            }
        }
    }

    #[test]
    fn a_replays_stream_is_the_bytes_then_filler_and_the_buffer_is_put_back() {
        let filler = |words: usize| FILLER.to_le_bytes().repeat(words);
        let stream = with_stream(&[9; 8], 20, <[u8]>::to_vec);
        assert_eq!(stream, [vec![9; 8], filler(3)].concat());
        // The next replay sees none of the previous one's bytes.
        assert_eq!(with_stream(&[], 30, <[u8]>::to_vec), filler(8));
        // Bytes that end mid-word: the filler words start right after them.
        let stream = with_stream(&[7; 3], 8, <[u8]>::to_vec);
        assert_eq!(stream, [vec![7; 3], filler(2)].concat());
        // A replay that unwinds leaves filler behind too.
        let unwound = std::panic::catch_unwind(|| {
            with_stream(&[5; 12], 16, |_| std::panic::resume_unwind(Box::new(())))
        });
        assert!(unwound.is_err());
        assert_eq!(with_stream(&[], 16, <[u8]>::to_vec), filler(4));
    }

    #[test]
    fn streams_derived_for_union_arms_and_flat_maps_are_counted_by_config_clones() {
        use proptest::prelude::*;
        let config = ProptestConfig::default();
        let tree = Just(0u32).prop_recursive(4, 16, 2, |inner| {
            prop_oneof![
                inner.clone().prop_map(|x| x + 1),
                (inner.clone(), inner).prop_map(|(a, b)| a * 3 + b),
            ]
        });
        let flat = (0..4usize).prop_flat_map(|n| proptest::collection::vec(0..9u8, n));
        /// Draws a value; one kept as bytes had its derives counted as clones and replays from
        /// its bytes. Its derives, if kept as bytes.
        fn counted<S: Strategy>(recording: &mut Recording, strategy: &S) -> Option<u8>
        where
            S::Value: PartialEq + fmt::Debug,
        {
            let before = recording.clones.get();
            let (drawn, choices) = recording.draw(strategy).unwrap();
            if choices.is_seeded() {
                return None;
            }
            let clones = recording.clones.get().wrapping_sub(before);
            assert_eq!(usize::from(choices.derived), clones);
            let replayed = choices.replay(strategy, &recording.config).unwrap();
            assert_eq!(replayed.current(), drawn.current());
            Some(choices.derived)
        }
        let mut kept = 0;
        for seed in 0..60u8 {
            let mut recording = Recording::continuing(&config, [seed; 32]);
            kept += usize::from(counted(&mut recording, &tree).is_some_and(|d| d > 0));
            assert!(counted(&mut recording, &flat).is_some());
        }
        assert!(
            kept > 10,
            "{kept} recursive values kept as bytes with derives"
        );
        // A stream the value reads is derived without a clone.
        let perturbed = Just(()).prop_perturb(|(), mut rng| rng.next_u32());
        let mut recording = Recording::new(&config, [5; 32]);
        let before = recording.clones.get();
        let (_, choices) = recording.draw(&perturbed).unwrap();
        assert_eq!(recording.clones.get(), before);
        assert!(choices.is_seeded());
    }

    /// A strategy that clones its runner's config without deriving a stream, then draws a word:
    /// the clone count predicts a derived stream that is not there.
    #[derive(Debug)]
    struct ClonesTheConfig;

    impl Strategy for ClonesTheConfig {
        type Tree = proptest::strategy::Just<u32>;
        type Value = u32;

        fn new_tree(&self, runner: &mut TestRunner) -> proptest::strategy::NewTree<Self> {
            let _ = runner.config().clone();
            Ok(proptest::strategy::Just(runner.rng().next_u32()))
        }
    }

    #[test]
    fn a_clone_that_derives_nothing_does_not_move_the_count() {
        use proptest::prelude::*;
        let config = ProptestConfig::default();
        let union = prop_oneof![Just(0u8), 1..9u8, 9..20u8];
        let plain = proptest::collection::vec(any::<u16>(), 0..8);
        let mut stream = Recording::continuing(&config, [6; 32]);
        for round in 0..100 {
            // Never lost its positions; spent only by its length.
            assert!(stream.derived.is_some(), "round {round}");
            if stream.is_spent() {
                stream = Recording::continuing(&config, [round; 32]);
            }
            // Predicted one derived stream, found none: the search from the last position
            // finds the stream's next word where it is.
            let (tree, choices) = stream.draw(&ClonesTheConfig).unwrap();
            assert_eq!((choices.is_seeded(), choices.derived), (false, 0));
            assert_eq!(
                choices.replay(&ClonesTheConfig, &config).unwrap().current(),
                tree.current()
            );
            // So the values after it keep their positions: kept as bytes, replayed exactly.
            let (tree, choices) = stream.draw(&union).unwrap();
            assert!(!choices.is_seeded(), "{choices:?}");
            assert_eq!(
                choices.replay(&union, &config).unwrap().current(),
                tree.current()
            );
            let (tree, choices) = stream.draw(&plain).unwrap();
            assert_eq!((choices.is_seeded(), choices.derived), (false, 0));
            assert_eq!(
                choices.replay(&plain, &config).unwrap().current(),
                tree.current()
            );
        }
    }

    #[test]
    fn values_that_read_a_derived_stream_stay_seeded() {
        use proptest::prelude::*;
        let config = ProptestConfig::default();
        let perturbed = Just(()).prop_perturb(|(), mut rng| rng.next_u32());
        let (_, choices) = Choices::record(&perturbed, &config, [5; 32]).unwrap();
        assert!(choices.is_seeded());
    }

    #[test]
    fn codec_round_trips() {
        let c = Choices::new((0..=255).collect());
        let bytes = typefuzz_engine::codec::to_bytes(&c);
        assert_eq!(typefuzz_engine::codec::from_bytes::<Choices>(&bytes), c);
        let derived = Choices { derived: 3, ..c };
        let bytes = typefuzz_engine::codec::to_bytes(&derived);
        assert_eq!(
            typefuzz_engine::codec::from_bytes::<Choices>(&bytes),
            derived
        );
    }

    #[test]
    fn replay_reproduces_recorded_values() {
        use proptest::prelude::*;
        let strategy = (
            proptest::collection::vec(any::<i64>(), 0..10),
            "[a-z]{0,5}",
            prop_oneof![Just(1u8), 2..9u8],
            (0..5usize).prop_flat_map(|n| proptest::collection::vec(any::<bool>(), n)),
            any::<f64>(),
            // Strategies that derive streams of their own.
            Just(()).prop_perturb(|(), mut rng| rng.next_u32()),
            Just((0..8u8).collect::<Vec<_>>()).prop_shuffle(),
        );
        let config = ProptestConfig::default();
        for seed in 0..50u8 {
            // The adapter runs a fresh input on the tree it was drawn with: its replay must be
            // the same value.
            let (tree, choices) = Choices::record(&strategy, &config, [seed; 32]).unwrap();
            let replayed = choices.replay(&strategy, &config).unwrap();
            assert_eq!(
                format!("{:?}", replayed.current()),
                format!("{:?}", tree.current())
            );
        }
        // So must the values drawn in turn from one continuing stream, with and without
        // derived streams (the union above derives some).
        let plain = proptest::collection::vec(any::<u16>(), 0..40);
        let mut stream = Recording::continuing(&config, [3; 32]);
        let mut exact = 0;
        for round in 0..200 {
            if stream.is_spent() {
                stream = Recording::continuing(&config, [round as u8; 32]);
            }
            if round % 2 == 0 {
                let (tree, choices) = stream.draw(&strategy).unwrap();
                let replayed = choices.replay(&strategy, &config).unwrap();
                assert_eq!(
                    format!("{:?}", replayed.current()),
                    format!("{:?}", tree.current())
                );
            } else {
                let (tree, choices) = stream.draw(&plain).unwrap();
                exact += usize::from(!choices.is_seeded());
                assert_eq!(
                    choices.replay(&plain, &config).unwrap().current(),
                    tree.current()
                );
            }
        }
        assert_eq!(
            exact, 100,
            "plain values after unions are still kept as bytes"
        );
    }
}
