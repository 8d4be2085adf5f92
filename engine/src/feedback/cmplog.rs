//! Typed input-to-state feedback ("CmpLog"): the operands of the comparisons a test made, fed
//! back into the typed leaves of the input that produced them.
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
//! Where the pairs come from:
//! - under `cargo typefuzz test --trace-compares`, every comparison the instrumented code makes
//!   (the `__sanitizer_cov_trace_cmp*` and `switch` hooks in [`coverage`](super::coverage) call
//!   [`record_integers`]);
//! - without instrumentation, the comparisons written in `assume!` (and `sometimes!`)
//!   expressions: `assume!(x == 42)` logs `(x, 42)`, `assume!(name == "admin")` logs the two
//!   strings, and `assume!(v[0] == Shape::Circle(3))` logs the leaves that differ between the
//!   two values.
//!
//! Under cargo-fuzz (`typefuzz::fuzz_target!`) libFuzzer defines the comparison hooks, so their
//! operands never reach this module: libFuzzer keeps them in its own tables (TORC), which its
//! byte-level mutator (called for a share of the mutations) uses on the codec bytes. Byte-string
//! comparisons (`memcmp`/`bcmp`, which Rust's `[u8]` and `str` equality call) are not logged
//! under `cargo typefuzz` either: SanitizerCoverage reports them only through the
//! `__sanitizer_weak_hook_memcmp` interceptors of a sanitizer runtime, which a stable build
//! without `-Zsanitizer` does not link; their operands reach the log through `assume!` and
//! `sometimes!`.
//!
//! The log of the current test is thread-local and fixed-size (no allocation per test); it only
//! records while the engine runs the property. A test that becomes a seed keeps a copy
//! (`SeedComparisons`), and the first time the seed is mutated its candidates — which leaf fed
//! which comparison — are computed once and cached with it; each later pick of the seed tries
//! the next candidate (the deterministic stage of Redqueen), then falls back to ordinary
//! mutation.
//!
//! ```
//! use typefuzz::feedback::cmplog;
//! use typefuzz::{Context, Mutate};
//!
//! // What the instrumentation (or `assume!(x == 1234)`) would log while the property runs.
//! let log = cmplog::Log::from_pairs(&[(7, 1234, 2)]);
//! let mut input: (u8, u16) = (7, 7);
//! let mut cx = Context::new(1);
//! let candidates = cmplog::candidates(&mut input, &log);
//! // The `u16` leaf held 7, one side of the comparison: it may take 1234 (or 1233, 1235, ...).
//! assert!(candidates.iter().any(|c| c.leaf == 1 && c.value == cmplog::Replacement::Integer(1234)));
//! cmplog::apply(&mut input, &candidates[0], &mut cx);
//! assert_ne!(input, (7, 7));
//! ```

use std::cell::{Cell, OnceCell, RefCell};

use crate::{Context, Mutate, Operator};

/// How many integer comparisons one test logs at most (later ones are dropped).
const INTEGER_CAPACITY: usize = 256;
/// How many byte-string comparisons one test logs at most.
const BYTES_CAPACITY: usize = 16;
/// How many bytes of each byte-string operand are kept (longer operands are cut).
const BYTES_LEN: usize = 32;
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

impl Log {
    const EMPTY_INTEGER: Comparison = Comparison {
        left: 0,
        right: 0,
        width: 0,
    };

    const fn new() -> Self {
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
    /// let log = typefuzz::feedback::cmplog::Log::from_pairs(&[(1, 2, 1), (1, 2, 1), (3, 3, 1)]);
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

    fn is_empty(&self) -> bool {
        self.integers_len == 0 && self.bytes_len == 0 && self.variants_len == 0
    }

    fn clear(&mut self) {
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

    fn push_integers(&mut self, left: u64, right: u64, width: u8) {
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

    fn push_variant(&mut self, from: u64, to: &[u64]) {
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

    fn push_bytes(&mut self, left: &[u8], right: &[u8]) {
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

/// The thread's log and whether the property is running (comparisons made by the generator,
/// the mutator or the engine's own use of derived code are not the property's).
struct Recorder {
    active: bool,
    log: Log,
}

thread_local! {
    static RECORDER: RefCell<Recorder> = const {
        RefCell::new(Recorder { active: false, log: Log::new() })
    };
}

/// Runs `f` on the log if the property is running on this thread.
#[inline]
fn with_active_log(f: impl FnOnce(&mut Log)) {
    // `try_with` / `try_borrow_mut`: a hook may fire in a thread-local destructor, or inside
    // another hook's call (never from ours: the engine is not instrumented).
    let _ = RECORDER.try_with(|recorder| {
        if let Ok(mut recorder) = recorder.try_borrow_mut() {
            if recorder.active {
                f(&mut recorder.log);
            }
        }
    });
}

/// Logs an integer comparison of the current test: both operands (zero-extended) and their
/// width in bytes. A no-op outside a property call; repeated pairs are logged once.
///
/// ```
/// // What the `__sanitizer_cov_trace_cmp4` hook does for `x == 0xC0FFEE`.
/// typefuzz::feedback::cmplog::record_integers(0x12, 0xC0FFEE, 4);
/// ```
#[inline]
pub fn record_integers(left: u64, right: u64, width: u8) {
    if left != right {
        with_active_log(|log| log.push_integers(left, right, width));
    }
}

/// Logs a byte-string comparison of the current test (`str` / `[u8]` equality); each side is
/// cut to its first 32 bytes. A no-op outside a property call.
///
/// ```
/// typefuzz::feedback::cmplog::record_bytes(b"guest", b"admin");
/// ```
#[inline]
pub fn record_bytes(left: &[u8], right: &[u8]) {
    if left != right {
        with_active_log(|log| log.push_bytes(left, right));
    }
}

/// Starts logging the property call on this thread, forgetting the previous one.
pub(crate) fn begin_run() {
    let _ = RECORDER.try_with(|recorder| {
        if let Ok(mut recorder) = recorder.try_borrow_mut() {
            recorder.log.clear();
            recorder.active = true;
        }
    });
}

/// Stops logging on this thread (the log stays readable until the next [`begin_run`]).
pub(crate) fn end_run() {
    let _ = RECORDER.try_with(|recorder| {
        if let Ok(mut recorder) = recorder.try_borrow_mut() {
            recorder.active = false;
        }
    });
}

/// A copy of the last property call's log for the seed it becomes, or `None` if it logged
/// nothing (the common case without instrumentation or comparing `assume!`s).
pub(crate) fn take_for_seed() -> Option<Box<SeedComparisons>> {
    RECORDER
        .try_with(|recorder| {
            let recorder = recorder.try_borrow().ok()?;
            if recorder.log.is_empty() {
                return None;
            }
            Some(Box::new(SeedComparisons::new(recorder.log.clone())))
        })
        .ok()
        .flatten()
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
/// use typefuzz::feedback::cmplog::{self, Log};
/// // A hand-written impl reports its integer fields the way the derive does:
/// struct Pair { a: u8, b: u32 }
/// fn visit(pair: &mut Pair, leaves: &mut cmplog::Leaves<'_>) {
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
fn mask(width: u8) -> u64 {
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
/// use typefuzz::feedback::cmplog::{candidates, Log, Replacement};
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
/// use typefuzz::feedback::cmplog::{apply, Candidate, Replacement};
/// let mut pair = (1u8, 'a');
/// let to_z = Candidate { leaf: 1, value: Replacement::Integer('z' as u64), rank: 0, order: 0 };
/// assert!(apply(&mut pair, &to_z, &mut typefuzz::Context::new(0)));
/// assert_eq!(pair, (1, 'z'));
/// ```
pub fn apply<T: Mutate>(value: &mut T, candidate: &Candidate, cx: &mut Context) -> bool {
    let mut leaves = Leaves::apply(candidate.leaf, &candidate.value, cx);
    value.visit_leaves(&mut leaves);
    leaves.is_done()
}

/// A seed's copy of the log its run made, and the candidates it offers (computed the first time
/// the seed is mutated, then tried one per pick).
#[derive(Clone, Debug)]
pub(crate) struct SeedComparisons {
    log: Log,
    /// Cells: the schedule lends seeds out immutably while one is mutated.
    candidates: OnceCell<Vec<Candidate>>,
    tried: Cell<usize>,
}

impl SeedComparisons {
    pub(crate) fn new(log: Log) -> Self {
        SeedComparisons {
            log,
            candidates: OnceCell::new(),
            tried: Cell::new(0),
        }
    }

    /// Builds the next input-to-state mutant of `seed` into `value` (a clone of it): the next
    /// untried candidate, or, once all were tried, a random one one pick in sixteen. Returns
    /// whether it did (otherwise the caller mutates as usual); never when
    /// [`Operators::cmplog`](crate::Operators::cmplog) is off.
    pub(crate) fn mutate<T: Mutate>(&self, value: &mut T, cx: &mut Context) -> bool {
        if !cx.operators().cmplog {
            return false;
        }
        let candidates = self
            .candidates
            .get_or_init(|| candidates(&mut value.clone(), &self.log));
        if candidates.is_empty() {
            return false;
        }
        let tried = self.tried.get();
        let index = if tried < candidates.len() {
            self.tried.set(tried + 1);
            tried
        } else if cx.chance(1, 16) {
            cx.below(candidates.len())
        } else {
            return false;
        };
        cx.clear_trace();
        if apply(value, &candidates[index], cx) {
            cx.record(Operator::CmpLog);
            true
        } else {
            false
        }
    }
}

/// Logs the comparison of two operands an `assume!` compares, by the operands' kind: strings
/// and byte strings as byte strings, integers, `char`s and `bool`s of one type as integers,
/// other [`Mutate`] values of one type leaf by leaf (the leaves that differ), anything else not
/// at all. Method resolution picks the first of [`CompareBytes`], [`CompareScalar`],
/// [`CompareMutate`] and [`CompareOther`] that applies (autoref dispatch: call it as
/// `(&&&&Operands(&a, &b)).record()`).
///
/// ```
/// use typefuzz::feedback::cmplog::{
///     CompareBytes as _, CompareMutate as _, CompareOther as _, CompareScalar as _, Operands,
/// };
/// (&&&&Operands(&3u8, &4u8)).record();
/// (&&&&Operands(&String::from("a"), &"b")).record();
/// (&&&&Operands(&Some(1u8), &None)).record();
/// (&&&&Operands(&1.5f64, &2.5f64)).record(); // floats: not logged
/// ```
pub struct Operands<'a, A: ?Sized, B: ?Sized>(pub &'a A, pub &'a B);

/// Operand types that are byte strings: `str`, `String`, `[u8]`, `Vec<u8>`, `[u8; N]`.
pub trait ByteString {
    /// The bytes.
    fn byte_string(&self) -> &[u8];
}

impl ByteString for str {
    fn byte_string(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl ByteString for String {
    fn byte_string(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl ByteString for [u8] {
    fn byte_string(&self) -> &[u8] {
        self
    }
}

impl ByteString for Vec<u8> {
    fn byte_string(&self) -> &[u8] {
        self
    }
}

impl<const N: usize> ByteString for [u8; N] {
    fn byte_string(&self) -> &[u8] {
        self
    }
}

impl<T: ByteString + ?Sized> ByteString for &T {
    fn byte_string(&self) -> &[u8] {
        (**self).byte_string()
    }
}

/// Operand types logged as one integer: the primitive integers, `char` and `bool`.
pub trait Scalar {
    /// The raw bits, zero-extended, and the width in bytes (at most 8).
    fn scalar(&self) -> (u64, u8);
}

macro_rules! scalar_integers {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            #[inline]
            fn scalar(&self) -> (u64, u8) {
                let width = core::mem::size_of::<$t>().min(8) as u8;
                // `as u64` sign-extends signed values; the mask keeps the raw bits of the width.
                (*self as u64 & mask(width), width)
            }
        }
    )*};
}
scalar_integers!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl Scalar for char {
    fn scalar(&self) -> (u64, u8) {
        (u64::from(*self), 4)
    }
}

impl Scalar for bool {
    fn scalar(&self) -> (u64, u8) {
        (u64::from(*self), 1)
    }
}

impl<T: Scalar + ?Sized> Scalar for &T {
    fn scalar(&self) -> (u64, u8) {
        (**self).scalar()
    }
}

/// The [`Operands`] case for two byte strings.
pub trait CompareBytes {
    /// Logs the comparison.
    fn record(&self);
}

impl<A: ByteString + ?Sized, B: ByteString + ?Sized> CompareBytes for &&&Operands<'_, A, B> {
    #[inline]
    fn record(&self) {
        record_bytes(self.0.byte_string(), self.1.byte_string());
    }
}

/// The [`Operands`] case for [`Scalar`] operands of one type.
pub trait CompareScalar {
    /// Logs the comparison.
    fn record(&self);
}

impl<A: Scalar + ?Sized> CompareScalar for &&Operands<'_, A, A> {
    #[inline]
    fn record(&self) {
        let ((left, width), (right, _)) = (self.0.scalar(), self.1.scalar());
        record_integers(left, right, width);
    }
}

/// The [`Operands`] case for [`Mutate`] operands of one type: the leaves that differ.
pub trait CompareMutate {
    /// Logs the comparison.
    fn record(&self);
}

impl<A: Mutate> CompareMutate for &Operands<'_, A, A> {
    fn record(&self) {
        let active = RECORDER
            .try_with(|r| r.try_borrow().is_ok_and(|r| r.active))
            .unwrap_or(false);
        if active {
            record_structured(self.0, self.1);
        }
    }
}

/// Logs the leaves in which `left` and `right` differ: pairwise while the two have the same
/// shape; at the first variant that differs, the variant switch with the payload `right` has
/// there (after which the leaves no longer line up).
fn record_structured<A: Mutate>(left: &A, right: &A) {
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
            let from = l;
            with_active_log(|log| log.push_variant(from, &to));
            let from: Vec<u64> = left[index..].iter().map(|&(_, value)| value).collect();
            with_active_log(|log| log.push_variant(r, &from));
            return;
        }
        if kind == LeafKind::Integer {
            record_integers(l, r, 8);
        }
    }
}

/// The [`Operands`] fallback: nothing is logged.
pub trait CompareOther {
    /// Does nothing.
    fn record(&self);
}

impl<A: ?Sized, B: ?Sized> CompareOther for Operands<'_, A, B> {
    #[inline]
    fn record(&self) {}
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

    fn active<R>(f: impl FnOnce() -> R) -> (R, Log) {
        begin_run();
        let result = f();
        end_run();
        let log = RECORDER.with(|r| r.borrow().log.clone());
        (result, log)
    }

    #[test]
    fn only_the_property_call_is_logged() {
        record_integers(1, 2, 1);
        let ((), log) = active(|| record_integers(3, 4, 1));
        assert_eq!(
            log.integers(),
            &[Comparison {
                left: 3,
                right: 4,
                width: 1
            }]
        );
        record_integers(5, 6, 1);
        assert_eq!(RECORDER.with(|r| r.borrow().log.integers().len()), 1);
    }

    #[test]
    fn the_log_is_bounded() {
        let ((), log) = active(|| {
            for i in 0..10_000u64 {
                record_integers(i, i + 1, 8);
                record_bytes(&i.to_le_bytes(), &[0; 40]);
            }
        });
        assert_eq!(log.integers().len(), INTEGER_CAPACITY);
        assert_eq!(log.bytes().len(), BYTES_CAPACITY);
        assert_eq!(log.bytes()[0].right().len(), BYTES_LEN);
    }

    #[test]
    fn every_distinct_pair_is_logged_once_and_repeats_are_not() {
        // The enum vector's stage at index 3 compared the payload 64 with 8 after the pair
        // (4, 3); a one-hash filter took the two for one, and every mutant of that seed lacked
        // the comparison that leads on.
        let pairs: Vec<(u64, u64, u8)> = (0..16u64)
            .flat_map(|a| (0..16u64).map(move |b| (a, b, 1)))
            .filter(|(a, b, _)| a != b)
            .collect();
        let ((), log) = active(|| {
            for _ in 0..3 {
                for &(left, right, width) in &pairs {
                    record_integers(left, right, width);
                }
            }
            record_integers(64, 8, 1);
            record_integers(64, 8, 2);
        });
        let logged: Vec<(u64, u64, u8)> = log
            .integers()
            .iter()
            .map(|c| (c.left, c.right, c.width))
            .collect();
        let mut expected = pairs.clone();
        expected.extend([(64, 8, 1), (64, 8, 2)]);
        assert_eq!(logged, expected);
        // The next test starts from an empty table.
        let ((), log) = active(|| record_integers(4, 3, 1));
        assert_eq!(log.integers().len(), 1);
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

    #[test]
    fn a_seed_tries_each_candidate_once_then_falls_back() {
        let log = Log::from_pairs(&[(5, 6, 1)]);
        let seed = SeedComparisons::new(log);
        let mut cx = Context::new(3);
        let mut mutants = Vec::new();
        for _ in 0..2 {
            let mut value = 5u8;
            assert!(seed.mutate(&mut value, &mut cx));
            assert_eq!(cx.trace(), &[Operator::CmpLog]);
            mutants.push(value);
        }
        // The other operand, then its neighbour (its other neighbour, 5, is the seed's own value).
        assert_eq!(mutants, [6, 7]);
        let fallbacks = (0..160).filter(|_| !seed.mutate(&mut 5u8, &mut cx)).count();
        assert!((100..160).contains(&fallbacks), "{fallbacks}");
    }

    #[test]
    #[allow(clippy::needless_borrow)] // autoref dispatch: the borrows select the impl
    fn structured_operands_log_the_differing_leaves() {
        let ((), log) = active(|| {
            (&&&&Operands(&(1u8, Some(7u16)), &(1u8, Some(9u16)))).record();
            (&&&&Operands(&String::from("guest"), &"admin")).record();
            (&&&&Operands(&-1i8, &4i8)).record();
            (&&&&Operands(&1.0f32, &2.0f32)).record();
        });
        assert!(log.integers().iter().any(|c| (c.left, c.right) == (7, 9)));
        assert!(log
            .integers()
            .iter()
            .any(|c| (c.left, c.right) == (0xff, 4)));
        assert_eq!(log.bytes()[0].left(), b"guest");
    }
}
