//! Typed leaves: the visitor input-to-state feedback ("CmpLog") reads and writes an input's
//! leaves through, and the log of comparisons it matches them against.
//!
//! Redqueen (Aschermann et al., NDSS 2019) and AFL++'s CmpLog observe that most magic values an
//! input must contain are compared *directly* against a part of the input: `x == 0x2a` logs the
//! pair `(x, 0x2a)`, and the byte of the input that holds `x` is where `0x2a` must go. They find
//! that place by searching the input's bytes for `x`. typefuzz does the same on typed values:
//! each integer, `char`, `bool`, collection length, enum variant and `String` of the input is a
//! *leaf* ([`Mutate::visit_leaves`]); a leaf whose value equals
//! one operand of a logged pair gets the other operand (and its `+1` / `-1` and byte-swapped
//! variants), and a matched enum variant index becomes a switch to the variant the comparison
//! wanted, built by the derived constructor.
//!
//! This module is the input's side: a [`Log`] of comparisons (a value: the engine records one
//! per test, from the comparison hooks and `assume!`), the [`candidates`] a log offers a value's
//! leaves, and [`apply`], which writes one. How the log is recorded is the engine's
//! (`typefuzz::feedback::cmplog`).
//!
//! ```
//! use typefuzz_core::leaves;
//! use typefuzz_core::{Context, Mutate};
//!
//! // What the instrumentation (or `assume!(x == 1234)`) would log while the property runs.
//! let log = leaves::Log::from_pairs(&[(7, 1234, 2)]);
//! let mut input: (u8, u16) = (7, 7);
//! let mut cx = Context::new(1);
//! let candidates = leaves::candidates(&mut input, &log);
//! // The `u16` leaf held 7, one side of the comparison: it may take 1234 (or 1233, 1235, ...).
//! assert!(candidates.iter().any(|c| c.leaf == 1 && c.value == leaves::Replacement::Integer(1234)));
//! leaves::apply(&mut input, &candidates[0], &mut cx);
//! assert_ne!(input, (7, 7));
//! ```

use crate::{Context, Mutate};

/// How many integer comparisons one test logs at most (later ones are dropped).
#[doc(hidden)]
pub const INTEGER_CAPACITY: usize = 256;
/// How many byte-string comparisons one test logs at most.
#[doc(hidden)]
pub const BYTES_CAPACITY: usize = 16;
/// How many bytes of each byte-string operand are kept (longer operands are cut).
#[doc(hidden)]
pub const BYTES_LEN: usize = 32;
/// Slots of the hash table that drops repeated pairs within one test (a loop comparing the same
/// two values a thousand times logs them once): twice the integer capacity, so probes stay short.
const DEDUP_SLOTS: usize = 2 * INTEGER_CAPACITY;
/// How many candidates a seed caches at most, exact matches first.
const MAX_CANDIDATES: usize = 128;
/// How many leaves a structured `assume!` comparison compares pairwise at most.
const MAX_RECORDED_LEAVES: usize = 64;
/// How many variant switches with their payloads one test logs at most.
const SEQUENCE_CAPACITY: usize = 8;
/// How many leaves (the variant, then its payload) a logged variant switch holds at most.
const SEQUENCE_LEN: usize = 16;

/// One integer comparison: both operands zero-extended to `u64`, and their width in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The first operand.
    pub left: u64,
    /// The second operand.
    pub right: u64,
    /// Width of the compared values in bytes (1, 2, 4 or 8).
    pub width: u8,
}

/// One byte-string comparison (`str`/`[u8]` equality), each side cut to 32 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BytesComparison {
    left: [u8; BYTES_LEN],
    right: [u8; BYTES_LEN],
    left_len: u8,
    right_len: u8,
}

impl BytesComparison {
    const EMPTY: BytesComparison = BytesComparison {
        left: [0; BYTES_LEN],
        right: [0; BYTES_LEN],
        left_len: 0,
        right_len: 0,
    };

    fn new(left: &[u8], right: &[u8]) -> Self {
        let mut comparison = BytesComparison::EMPTY;
        let (l, r) = (left.len().min(BYTES_LEN), right.len().min(BYTES_LEN));
        comparison.left[..l].copy_from_slice(&left[..l]);
        comparison.right[..r].copy_from_slice(&right[..r]);
        (comparison.left_len, comparison.right_len) = (l as u8, r as u8);
        comparison
    }

    /// The first operand (at most 32 bytes).
    pub fn left(&self) -> &[u8] {
        &self.left[..self.left_len as usize]
    }

    /// The second operand (at most 32 bytes).
    pub fn right(&self) -> &[u8] {
        &self.right[..self.right_len as usize]
    }
}

/// A structured comparison whose operands differ in an enum's variant: the variant index the
/// input had, and the leaves of the value it was compared with from that variant on (the
/// variant index, then its payload's leaves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantComparison {
    from: u64,
    to: [u64; SEQUENCE_LEN],
    to_len: u8,
}

impl VariantComparison {
    const EMPTY: VariantComparison = VariantComparison {
        from: 0,
        to: [0; SEQUENCE_LEN],
        to_len: 0,
    };

    /// The wanted variant's index, then its payload's leaves.
    pub fn to(&self) -> &[u64] {
        &self.to[..self.to_len as usize]
    }
}

/// A hash of an integer pair whose every bit depends on every operand bit (SplitMix64's
/// finalizer over a mix of the three), for [`Log`]'s table of pairs seen.
fn dedup_hash(left: u64, right: u64, width: u8) -> u64 {
    let mut x = left ^ right.rotate_left(29) ^ (u64::from(width) << 56);
    x = x.wrapping_add(right).wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The comparisons one test made: fixed-size, reused from test to test.
#[derive(Clone, Debug)]
pub struct Log {
    integers: [Comparison; INTEGER_CAPACITY],
    integers_len: usize,
    bytes: [BytesComparison; BYTES_CAPACITY],
    bytes_len: usize,
    variants: [VariantComparison; SEQUENCE_CAPACITY],
    variants_len: usize,
    /// When each entry of the three lists was logged, counting all of them (see `Candidate::order`).
    integer_order: [u16; INTEGER_CAPACITY],
    bytes_order: [u16; BYTES_CAPACITY],
    variant_order: [u16; SEQUENCE_CAPACITY],
    next_order: u16,
    /// The integer pairs logged so far in this test, exactly: an open-addressing table of
    /// `index + 1` into `integers` (0 is an empty slot). A filter that may answer "seen" for a
    /// new pair would drop it, and with it the one comparison a stage of the search needs, for
    /// every mutant of that seed alike.
    dedup: [u16; DEDUP_SLOTS],
    /// The slot of `dedup` each logged integer pair took, so that clearing touches only those.
    dedup_slot: [u16; INTEGER_CAPACITY],
}

impl Default for Log {
    fn default() -> Self {
        Log::new()
    }
}

impl Log {
    const EMPTY_INTEGER: Comparison = Comparison {
        left: 0,
        right: 0,
        width: 0,
    };

    /// An empty log.
    ///
    /// ```
    /// assert!(typefuzz_core::leaves::Log::new().is_empty());
    /// ```
    pub const fn new() -> Self {
        Log {
            integers: [Log::EMPTY_INTEGER; INTEGER_CAPACITY],
            integers_len: 0,
            bytes: [BytesComparison::EMPTY; BYTES_CAPACITY],
            bytes_len: 0,
            variants: [VariantComparison::EMPTY; SEQUENCE_CAPACITY],
            variants_len: 0,
            integer_order: [0; INTEGER_CAPACITY],
            bytes_order: [0; BYTES_CAPACITY],
            variant_order: [0; SEQUENCE_CAPACITY],
            next_order: 0,
            dedup: [0; DEDUP_SLOTS],
            dedup_slot: [0; INTEGER_CAPACITY],
        }
    }

    /// A log holding the integer comparisons `(left, right, width in bytes)`, as a test that made
    /// them would have logged (for tests and examples).
    ///
    /// ```
    /// let log = typefuzz_core::leaves::Log::from_pairs(&[(1, 2, 1), (1, 2, 1), (3, 3, 1)]);
    /// assert_eq!(log.integers().len(), 1); // repeated and equal pairs say nothing new
    /// ```
    pub fn from_pairs(pairs: &[(u64, u64, u8)]) -> Self {
        let mut log = Log::new();
        for &(left, right, width) in pairs {
            log.push_integers(left, right, width);
        }
        log
    }

    /// The integer comparisons logged, in order.
    pub fn integers(&self) -> &[Comparison] {
        &self.integers[..self.integers_len]
    }

    /// The byte-string comparisons logged, in order.
    pub fn bytes(&self) -> &[BytesComparison] {
        &self.bytes[..self.bytes_len]
    }

    /// The structured comparisons that wanted another variant, in order.
    pub fn variants(&self) -> &[VariantComparison] {
        &self.variants[..self.variants_len]
    }

    /// Whether nothing was logged.
    ///
    /// ```
    /// assert!(!typefuzz_core::leaves::Log::from_pairs(&[(1, 2, 1)]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.integers_len == 0 && self.bytes_len == 0 && self.variants_len == 0
    }

    /// Forgets everything logged, for the next test.
    ///
    /// ```
    /// let mut log = typefuzz_core::leaves::Log::from_pairs(&[(1, 2, 1)]);
    /// log.clear();
    /// assert!(log.is_empty());
    /// ```
    pub fn clear(&mut self) {
        for &slot in &self.dedup_slot[..self.integers_len] {
            self.dedup[usize::from(slot)] = 0;
        }
        self.integers_len = 0;
        self.bytes_len = 0;
        self.variants_len = 0;
        self.next_order = 0;
    }

    /// The order number of the entry being logged.
    fn take_order(&mut self) -> u16 {
        let order = self.next_order;
        self.next_order = order.saturating_add(1);
        order
    }

    /// Logs an integer comparison: both operands (zero-extended) and their width in bytes.
    /// Equal operands and repeated pairs are not logged; a full log keeps its first entries.
    ///
    /// ```
    /// let mut log = typefuzz_core::leaves::Log::new();
    /// log.push_integers(1, 2, 1);
    /// log.push_integers(1, 2, 1);
    /// assert_eq!(log.integers().len(), 1);
    /// ```
    pub fn push_integers(&mut self, left: u64, right: u64, width: u8) {
        // Equal operands have nothing to substitute; a full log keeps its first entries.
        if left == right || self.integers_len == INTEGER_CAPACITY {
            return;
        }
        let comparison = Comparison { left, right, width };
        // Linear probing from the pair's hash; the table is at most half full.
        let mut slot = dedup_hash(left, right, width) as usize % DEDUP_SLOTS;
        loop {
            match self.dedup[slot] {
                0 => break,
                entry if self.integers[usize::from(entry) - 1] == comparison => return,
                _ => slot = (slot + 1) % DEDUP_SLOTS,
            }
        }
        let index = self.integers_len;
        self.integers[index] = comparison;
        self.integer_order[index] = self.take_order();
        // Both fit in u16: index < INTEGER_CAPACITY, slot < DEDUP_SLOTS.
        self.dedup[slot] = (index + 1) as u16;
        self.dedup_slot[index] = slot as u16;
        self.integers_len += 1;
    }

    /// Logs a structured comparison that wanted another variant: the variant index the input
    /// had, and the wanted value's leaves from its variant index on (cut to 16).
    ///
    /// ```
    /// let mut log = typefuzz_core::leaves::Log::new();
    /// log.push_variant(0, &[1, 42]);
    /// assert_eq!(log.variants()[0].to(), &[1, 42]);
    /// ```
    pub fn push_variant(&mut self, from: u64, to: &[u64]) {
        if self.variants_len == SEQUENCE_CAPACITY {
            return;
        }
        let mut comparison = VariantComparison::EMPTY;
        let len = to.len().min(SEQUENCE_LEN);
        comparison.from = from;
        comparison.to[..len].copy_from_slice(&to[..len]);
        comparison.to_len = len as u8;
        if !self.variants().contains(&comparison) {
            self.variants[self.variants_len] = comparison;
            self.variant_order[self.variants_len] = self.take_order();
            self.variants_len += 1;
        }
    }

    /// Logs a byte-string comparison, each side cut to its first 32 bytes.
    ///
    /// ```
    /// let mut log = typefuzz_core::leaves::Log::new();
    /// log.push_bytes(b"guest", b"admin");
    /// assert_eq!(log.bytes()[0].right(), b"admin");
    /// ```
    pub fn push_bytes(&mut self, left: &[u8], right: &[u8]) {
        if left == right || self.bytes_len == BYTES_CAPACITY {
            return;
        }
        let comparison = BytesComparison::new(left, right);
        if !self.bytes().contains(&comparison) {
            self.bytes[self.bytes_len] = comparison;
            self.bytes_order[self.bytes_len] = self.take_order();
            self.bytes_len += 1;
        }
    }
}

/// What a leaf is replaced by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replacement {
    /// An integer (also a `char`, `bool`, length or variant index), as raw bits of the leaf's
    /// width.
    Integer(u64),
    /// A byte string (for `String` leaves, only when it is UTF-8).
    Bytes(Box<[u8]>),
    /// A variant index, then the values of the new variant's leaves in visiting order (as a
    /// structured comparison logged them).
    Variant(Box<[u64]>),
}

/// One way a logged comparison can be steered: put `value` into leaf number `leaf` (in
/// [`visit_leaves`](crate::Mutate::visit_leaves) order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The leaf's index in visiting order.
    pub leaf: u32,
    /// What goes there.
    pub value: Replacement,
    /// 0 for the comparison's other operand itself, 1 for its `+-1` and byte-swapped variants.
    pub rank: u8,
    /// When the comparison was made in the seed's run (0 first). Candidates of later
    /// comparisons are tried first: the last comparison a test made is usually the one it
    /// stopped at (`if x.len() <= 6 { return }`, the first element that did not match), while
    /// the first ones are often set-up code (null checks, bounds) that has nothing to do with
    /// the input.
    pub order: u16,
}

/// What a leaf visit is for.
// `Record` holds its leaves inline (1 KiB on the stack of one visit) so that recording a
// comparison does not allocate.
#[allow(clippy::large_enum_variant)]
enum Job<'a> {
    /// Collect the candidates a log offers.
    Find {
        log: &'a Log,
        found: &'a mut Vec<Candidate>,
        by_byte: ByLowByte,
    },
    /// Replace leaf `leaf`; then, for a variant switch, fill the new variant's first leaves
    /// with `fill`.
    Apply {
        leaf: u32,
        value: &'a Replacement,
        applied: bool,
        fill: &'a [u64],
    },
    /// Write down the leaves' kinds and values, for a structured `assume!` comparison.
    Record {
        leaves: [(LeafKind, u64); MAX_RECORDED_LEAVES],
        len: usize,
    },
}

/// What a recorded leaf was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LeafKind {
    Integer,
    Variant,
    Bytes,
}

/// What the current leaf must do.
enum Action<'a> {
    Keep,
    Replace(&'a Replacement),
    /// The next value of a variant switch's payload.
    Fill(u64),
}

/// The visitor [`Mutate::visit_leaves`] reports leaves to. Each
/// leaf method returns `Some(new value)` when the leaf must be replaced (the impl writes it);
/// otherwise the impl goes on visiting, until [`is_done`](Leaves::is_done).
///
/// ```
/// use typefuzz_core::leaves::Leaves;
/// // A hand-written impl reports its integer fields the way the derive does:
/// struct Pair { a: u8, b: u32 }
/// fn visit(pair: &mut Pair, leaves: &mut Leaves<'_>) {
///     if let Some(v) = leaves.integer(u64::from(pair.a), 1) { pair.a = v as u8; }
///     if leaves.is_done() { return; }
///     if let Some(v) = leaves.integer(u64::from(pair.b), 4) { pair.b = v as u32; }
/// }
/// # let _ = visit;
/// ```
pub struct Leaves<'a> {
    cx: Option<&'a mut Context>,
    next: u32,
    job: Job<'a>,
}

impl<'a> Leaves<'a> {
    fn find(log: &'a Log, found: &'a mut Vec<Candidate>) -> Self {
        Self::find_with(log, found, ByLowByte::new(log.integers()))
    }

    fn find_with(log: &'a Log, found: &'a mut Vec<Candidate>, by_byte: ByLowByte) -> Self {
        Leaves {
            cx: None,
            next: 0,
            job: Job::Find {
                log,
                found,
                by_byte,
            },
        }
    }

    fn apply(leaf: u32, value: &'a Replacement, cx: &'a mut Context) -> Self {
        Leaves {
            cx: Some(cx),
            next: 0,
            job: Job::Apply {
                leaf,
                value,
                applied: false,
                fill: &[],
            },
        }
    }

    fn record() -> Self {
        Leaves {
            cx: None,
            next: 0,
            job: Job::Record {
                leaves: [(LeafKind::Integer, 0); MAX_RECORDED_LEAVES],
                len: 0,
            },
        }
    }

    /// Whether the visit can stop: the replacement is done.
    pub fn is_done(&self) -> bool {
        matches!(
            self.job,
            Job::Apply {
                applied: true,
                fill: [],
                ..
            }
        )
    }

    /// The mutation context, to generate the fields of a new variant or the elements of a
    /// longer collection. Only called after a leaf method returned `Some`, which only happens
    /// when one is available.
    ///
    /// # Panics
    /// If no replacement was handed out (a hand-written impl calling it on its own).
    pub fn context(&mut self) -> &mut Context {
        self.cx
            .as_deref_mut()
            .expect("Leaves::context is only available after a leaf method returned Some")
    }

    /// Numbers the next leaf and says what it must do.
    fn take(&mut self, kind: LeafKind, value: u64) -> (u32, Action<'a>) {
        let leaf = self.next;
        self.next += 1;
        match &mut self.job {
            Job::Apply {
                leaf: target,
                value: replacement,
                applied,
                fill,
            } => {
                if *applied {
                    if let Some((&first, rest)) = fill.split_first() {
                        *fill = rest;
                        return (leaf, Action::Fill(first));
                    }
                } else if *target == leaf {
                    *applied = true;
                    if let Replacement::Variant(values) = replacement {
                        *fill = values.get(1..).unwrap_or(&[]);
                    }
                    return (leaf, Action::Replace(replacement));
                }
            }
            Job::Record { leaves, len } => {
                if *len < MAX_RECORDED_LEAVES {
                    leaves[*len] = (kind, value);
                    *len += 1;
                }
            }
            Job::Find { .. } => {}
        }
        (leaf, Action::Keep)
    }

    /// An integer leaf of `width` bytes (1, 2, 4 or 8; a `bool` is 1, a `char` 4) holding
    /// `value` (its raw bits, zero-extended). Returns the raw bits to write, truncated to the
    /// width.
    pub fn integer(&mut self, value: u64, width: u8) -> Option<u64> {
        let (leaf, action) = self.take(LeafKind::Integer, value);
        if let Job::Find {
            log,
            found,
            by_byte,
        } = &mut self.job
        {
            for &index in by_byte.bucket(value) {
                let index = usize::from(index);
                let (comparison, order) = (&log.integers[index], log.integer_order[index]);
                integer_candidates(leaf, value, width, comparison, order, found);
            }
        }
        match action {
            Action::Replace(&Replacement::Integer(new)) | Action::Fill(new) => {
                Some(new & mask(width))
            }
            _ => None,
        }
    }

    /// An enum's variant: `index` of `count` variants, in declaration order. Returns the index of
    /// the variant to switch to (always `< count`); the impl builds it with fresh fields and, if
    /// the visit is not [done](Leaves::is_done), visits the new fields.
    pub fn variant(&mut self, index: u64, count: u64) -> Option<u64> {
        let (leaf, action) = self.take(LeafKind::Variant, index);
        if let Job::Find {
            log,
            found,
            by_byte,
        } = &mut self.job
        {
            // A structured `assume!` comparison names the whole variant it wanted.
            for (comparison, &order) in log.variants().iter().zip(&log.variant_order) {
                let to = comparison.to();
                if comparison.from == index && to.first().is_some_and(|&to| to < count) {
                    push(found, leaf, Replacement::Variant(to.into()), 0, order);
                }
            }
            // A derived `PartialEq` compares the variants' tags first, which for an enum
            // without explicit discriminants are the declaration indices.
            for &at in by_byte.bucket(index) {
                let at = usize::from(at);
                let (comparison, order) = (&log.integers[at], log.integer_order[at]);
                for (from, to) in [
                    (comparison.left, comparison.right),
                    (comparison.right, comparison.left),
                ] {
                    if from == index && to < count {
                        push(found, leaf, Replacement::Integer(to), 0, order);
                    }
                }
            }
        }
        match action {
            Action::Replace(&Replacement::Integer(new)) | Action::Fill(new) => {
                Some(new).filter(|&new| new < count)
            }
            Action::Replace(Replacement::Variant(values)) => {
                values.first().copied().filter(|&new| new < count)
            }
            _ => None,
        }
    }

    /// A collection's length (`max` bounds the new length). Returns the length to resize to;
    /// the impl truncates or appends generated elements, then, if the visit is not
    /// [done](Leaves::is_done), visits the elements.
    pub fn length(&mut self, len: u64, max: u64) -> Option<u64> {
        self.integer(len, 8).filter(|&new| new <= max)
    }

    /// A byte-string leaf (`String`, `str` content). Returns the bytes to write.
    pub fn bytes(&mut self, value: &[u8]) -> Option<&'a [u8]> {
        let (leaf, action) = self.take(LeafKind::Bytes, 0);
        if let Job::Find { log, found, .. } = &mut self.job {
            for (comparison, &order) in log.bytes().iter().zip(&log.bytes_order) {
                for (from, to) in [
                    (comparison.left(), comparison.right()),
                    (comparison.right(), comparison.left()),
                ] {
                    if from == value {
                        push(found, leaf, Replacement::Bytes(to.into()), 0, order);
                    }
                }
            }
        }
        match action {
            Action::Replace(Replacement::Bytes(new)) => Some(new),
            _ => None,
        }
    }
}

/// A log's integer comparisons grouped by the low byte a leaf must hold to match them, so that
/// each leaf looks at the few comparisons it can match rather than at all of them (a seed's
/// candidates were a pass over the log per leaf: 256 comparisons for each element of a long
/// vector, in instrumented code under cargo-fuzz).
///
/// A comparison can offer a candidate to a leaf holding `value` only if one operand's low byte
/// is `value`'s low byte (the operand is the value, widened), or, for a comparison of width
/// `w >= 2`, one operand's byte `w - 1` is (the value read in the other byte order): bucket
/// `b` lists, in log order, every comparison with such a byte equal to `b`. The leaf methods
/// still test each comparison in full.
struct ByLowByte {
    /// Bucket `b` is `entries[starts[b]..starts[b + 1]]`.
    starts: [u16; 257],
    /// Indices into the log's integer comparisons.
    entries: Vec<u16>,
}

impl ByLowByte {
    fn new(integers: &[Comparison]) -> Self {
        // Each comparison's distinct keys: at most four bytes.
        let keys = |comparison: &Comparison| {
            let mut keys = [
                (comparison.left & 0xff) as u8,
                (comparison.right & 0xff) as u8,
                0,
                0,
            ];
            let mut len = 2;
            if (2..=8).contains(&comparison.width) {
                let shift = 8 * (u32::from(comparison.width) - 1);
                keys[2] = (comparison.left >> shift) as u8;
                keys[3] = (comparison.right >> shift) as u8;
                len = 4;
            }
            let mut distinct = [0u8; 4];
            let mut count = 0;
            for &key in &keys[..len] {
                if !distinct[..count].contains(&key) {
                    distinct[count] = key;
                    count += 1;
                }
            }
            (distinct, count)
        };
        let mut starts = [0u16; 257];
        for comparison in integers {
            let (distinct, count) = keys(comparison);
            for &key in &distinct[..count] {
                starts[usize::from(key) + 1] += 1;
            }
        }
        for bucket in 0..256 {
            starts[bucket + 1] += starts[bucket];
        }
        // Filled in log order, so each bucket keeps it.
        let mut next = starts;
        let mut entries = vec![0u16; usize::from(starts[256])];
        for (index, comparison) in integers.iter().enumerate() {
            let (distinct, count) = keys(comparison);
            for &key in &distinct[..count] {
                let slot = &mut next[usize::from(key)];
                // At most `INTEGER_CAPACITY` (256) comparisons: indices fit in u16.
                entries[usize::from(*slot)] = index as u16;
                *slot += 1;
            }
        }
        ByLowByte { starts, entries }
    }

    /// The comparisons a leaf holding `value` may match, in log order.
    fn bucket(&self, value: u64) -> &[u16] {
        let byte = (value & 0xff) as usize;
        &self.entries[usize::from(self.starts[byte])..usize::from(self.starts[byte + 1])]
    }
}

/// The low `width` bytes.
#[doc(hidden)]
pub fn mask(width: u8) -> u64 {
    match width {
        0 => 0,
        1..=7 => (1u64 << (8 * u32::from(width))) - 1,
        _ => u64::MAX,
    }
}

/// Adds a candidate unless it is already there (then it keeps the later `order` and the better
/// `rank`), or the cache is full.
///
/// Leaves are visited one after the other and all of a leaf's candidates are pushed while it is
/// visited, so a duplicate can only be among the last entries, those of `leaf`: the search
/// stops at the first entry of another leaf (it used to scan all of `found`, up to
/// [`MAX_CANDIDATES`] comparisons per push — and under cargo-fuzz each one also runs an
/// instrumentation hook).
fn push(found: &mut Vec<Candidate>, leaf: u32, value: Replacement, rank: u8, order: u16) {
    if let Some(known) = found
        .iter_mut()
        .rev()
        .take_while(|c| c.leaf == leaf)
        .find(|c| c.value == value)
    {
        known.order = known.order.max(order);
        known.rank = known.rank.min(rank);
    } else if found.len() < MAX_CANDIDATES {
        found.push(Candidate {
            leaf,
            value,
            rank,
            order,
        });
    }
}

/// The candidates `comparison` offers an integer leaf of `width` bytes holding `value`: where
/// one operand, seen at the leaf's width, is the leaf's value (as is, or byte-swapped: the value
/// may have been read in the other byte order), the other operand, and its neighbours for `<`
/// and `<=` comparisons.
fn integer_candidates(
    leaf: u32,
    value: u64,
    width: u8,
    comparison: &Comparison,
    order: u16,
    found: &mut Vec<Candidate>,
) {
    let mask = mask(width);
    let fits = |operand: u64| {
        // The operand was the leaf's value widened: zero- or sign-extended.
        let high = operand & !mask;
        high == 0 || (high == !mask && (operand >> (8 * u32::from(width.min(8)) - 1)) & 1 == 1)
    };
    for (from, to) in [
        (comparison.left, comparison.right),
        (comparison.right, comparison.left),
    ] {
        let mut offer = |new: u64, rank: u8| {
            if new != value {
                push(found, leaf, Replacement::Integer(new), rank, order);
            }
        };
        if from & mask == value && fits(from) {
            offer(to & mask, 0);
            offer(to.wrapping_add(1) & mask, 1);
            offer(to.wrapping_sub(1) & mask, 1);
        }
        if width > 1 && width <= 8 && comparison.width == width {
            let swap = |v: u64| (v & mask).swap_bytes() >> (64 - 8 * u32::from(width));
            if swap(from) == value {
                offer(swap(to), 1);
            }
        }
    }
}

/// The candidates `log` offers `value`'s leaves: the latest comparison's first and, for each
/// comparison, the exact operand before its neighbours.
///
/// ```
/// use typefuzz_core::leaves::{candidates, Log, Replacement};
/// let log = Log::from_pairs(&[(3, 9, 1)]);
/// let found = candidates(&mut vec![1u8, 3, 5], &log);
/// // Leaf 0 is the length (3 elements): it matches too.
/// assert_eq!(found[0].leaf, 0);
/// assert!(found.iter().any(|c| c.leaf == 2 && c.value == Replacement::Integer(9)));
/// ```
pub fn candidates<T: Mutate>(value: &mut T, log: &Log) -> Vec<Candidate> {
    let mut found = Vec::new();
    value.visit_leaves(&mut Leaves::find(log, &mut found));
    // Latest comparison first; for each, its exact operand before the neighbours.
    found.sort_by_key(|candidate| (core::cmp::Reverse(candidate.order), candidate.rank));
    found
}

/// Writes `candidate` into `value`; returns whether the leaf was found (it always is for the
/// value the candidate was computed on).
///
/// ```
/// use typefuzz_core::leaves::{apply, Candidate, Replacement};
/// let mut pair = (1u8, 'a');
/// let to_z = Candidate { leaf: 1, value: Replacement::Integer('z' as u64), rank: 0, order: 0 };
/// assert!(apply(&mut pair, &to_z, &mut typefuzz_core::Context::new(0)));
/// assert_eq!(pair, (1, 'z'));
/// ```
pub fn apply<T: Mutate>(value: &mut T, candidate: &Candidate, cx: &mut Context) -> bool {
    let mut leaves = Leaves::apply(candidate.leaf, &candidate.value, cx);
    value.visit_leaves(&mut leaves);
    leaves.is_done()
}

/// One way two values of one type differ, as [`leaf_differences`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafDifference<'a> {
    /// Integer leaves at the same place hold `left` and `right`.
    Integers(u64, u64),
    /// The values differ in a variant: the left one has variant `from`, the right one the
    /// leaves `to` from there on (its variant index, then its payload).
    Variant {
        /// The variant index of the left value.
        from: u64,
        /// The right value's leaves from the variant on.
        to: &'a [u64],
    },
}

/// Reports the leaves in which `left` and `right` differ (what a structured `assume!`
/// comparison logs): pairwise while the two have the same shape; at the first variant that
/// differs, the variant switch each way with the payload the other value has there (after which
/// the leaves no longer line up), and nothing more.
///
/// ```
/// use typefuzz_core::leaves::{leaf_differences, LeafDifference};
/// let mut found = Vec::new();
/// leaf_differences(&(1u8, Some(7u16)), &(1u8, Some(9u16)), |d| {
///     if let LeafDifference::Integers(l, r) = d { found.push((l, r)); }
/// });
/// assert_eq!(found, [(7, 9)]);
/// ```
pub fn leaf_differences<A: Mutate>(
    left: &A,
    right: &A,
    mut report: impl FnMut(LeafDifference<'_>),
) {
    let recorded = |value: &A| {
        let mut leaves = Leaves::record();
        value.clone().visit_leaves(&mut leaves);
        match leaves.job {
            Job::Record { leaves, len } => (leaves, len),
            _ => unreachable!("a recording visit stays a recording"),
        }
    };
    let ((left, left_len), (right, right_len)) = (recorded(left), recorded(right));
    let (left, right) = (&left[..left_len], &right[..right_len]);
    for (index, (&(kind, l), &(_, r))) in left.iter().zip(right).enumerate() {
        if l == r {
            continue;
        }
        if kind == LeafKind::Variant {
            let to: Vec<u64> = right[index..].iter().map(|&(_, value)| value).collect();
            report(LeafDifference::Variant { from: l, to: &to });
            let from: Vec<u64> = left[index..].iter().map(|&(_, value)| value).collect();
            report(LeafDifference::Variant { from: r, to: &from });
            return;
        }
        if kind == LeafKind::Integer {
            report(LeafDifference::Integers(l, r));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every comparison in every bucket: the pass over the whole log per leaf that
    /// [`ByLowByte`] replaces.
    fn every_comparison_everywhere(integers: &[Comparison]) -> ByLowByte {
        let all: Vec<u16> = (0..integers.len() as u16).collect();
        let mut entries = Vec::new();
        let mut starts = [0u16; 257];
        for bucket in 0..256 {
            entries.extend_from_slice(&all);
            starts[bucket + 1] = entries.len() as u16;
        }
        ByLowByte { starts, entries }
    }

    #[test]
    fn the_byte_index_finds_what_a_pass_over_the_whole_log_finds() {
        let mut cx = Context::new(11);
        let mut found = 0;
        for round in 0..300 {
            // Leaves of every width, and a log whose operands are those leaves' values (as
            // they are, sign-extended, byte-swapped, or off by a byte), mixed with noise.
            let mut value: (Vec<u8>, Vec<i16>, Vec<u32>, Option<u64>, bool) = cx.generate_sized(12);
            let mut pairs = Vec::new();
            let mut recorded = Leaves::record();
            value.visit_leaves(&mut recorded);
            let Job::Record { leaves, len } = recorded.job else {
                unreachable!()
            };
            for &(_, leaf) in &leaves[..len] {
                let width = [1u8, 2, 4, 8][cx.below(4)];
                let operand = match cx.below(4) {
                    0 => leaf,
                    1 => leaf | !mask(width.min(2)),
                    2 => (leaf & mask(width)).swap_bytes() >> (64 - 8 * u32::from(width)),
                    _ => leaf ^ 0x100,
                };
                let other = cx.generate::<u64>() & mask(width);
                if cx.chance(1, 2) {
                    pairs.push((operand, other, width));
                } else {
                    pairs.push((other, operand, width));
                }
            }
            let log = Log::from_pairs(&pairs);
            let mut indexed = Vec::new();
            value.visit_leaves(&mut Leaves::find(&log, &mut indexed));
            let mut scanned = Vec::new();
            let everywhere = every_comparison_everywhere(log.integers());
            value.visit_leaves(&mut Leaves::find_with(&log, &mut scanned, everywhere));
            assert_eq!(indexed, scanned, "round {round}: {value:?} with {pairs:?}");
            found += indexed.len();
        }
        assert!(
            found > 1000,
            "the logs matched the leaves: {found} candidates"
        );
    }

    #[test]
    fn signed_and_byte_swapped_leaves_match() {
        let log = Log::from_pairs(&[(u64::from(-3i16 as u16), 500, 2)]);
        let found = candidates(&mut -3i16, &log);
        assert_eq!(found[0].value, Replacement::Integer(500));
        // `x == 0x1234` on a big-endian read of a little-endian field.
        let log = Log::from_pairs(&[(0x3412, 0x7856, 2)]);
        let found = candidates(&mut 0x1234u16, &log);
        assert!(found.contains(&Candidate {
            leaf: 0,
            value: Replacement::Integer(0x5678),
            rank: 1,
            order: 0,
        }));
    }
}
