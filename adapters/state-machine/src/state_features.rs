//! Fingerprints of reference states: cheap, coarse hashes of a state's `Debug` text — the
//! feedback that makes new abstract states interesting without any instrumentation.
//!
//! `ReferenceStateMachine::State` is only `Clone + Debug`, so the `Debug` text is the one view of
//! a state every model offers. Two refinements keep the feedback informative:
//!
//! - **Numbers are bucketed** the way AFL buckets hit counts: each run of ASCII digits counts as
//!   its class (`0`, `1`, `2`, `3`, `4-7`, `8-15`, ... one class per power of two), so
//!   `balance: 12` and `balance: 9` are one state and `balance: 0` another.
//! - **A state is fingerprinted by its components**, not as a whole: each bracketed group of the
//!   text (`Account { .. }`, `(..)`, `[..]`) that holds at most one nested group is a component,
//!   hashed with its position. A bank of three accounts yields one fingerprint per account, so a
//!   run is new when one account reaches a new state — not whenever the *combination* of the
//!   three differs, which would make nearly every run new and the feedback worthless. A state
//!   without brackets is one component.
//!
//! Cost: one `Debug` formatting of the state per step into a reused buffer and one linear scan
//! (FxHash-style multiply-rotate, no allocation once the buffers have grown): typically a
//! microsecond for a small model, more for states holding large collections.

use std::collections::{HashMap, HashSet};
use std::fmt::{Debug, Write as _};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;

/// Distinct fingerprints remembered per run; past this, new ones are not told apart any more
/// (the search still runs on the other feedback sources).
pub(crate) const MAX_FINGERPRINTS: usize = 1 << 20;

/// The class of a decimal number: exact below 4, then one class per power of two.
fn number_class(digits: &[u8]) -> u64 {
    let mut value: u64 = 0;
    for &d in digits {
        value = value.saturating_mul(10).saturating_add(u64::from(d - b'0'));
    }
    if value < 4 {
        value
    } else {
        2 + u64::from(u64::BITS - value.leading_zeros())
    }
}

/// One step of the hash (FxHash's multiply-rotate).
#[inline]
fn mix(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

/// Components fingerprinted per state, at most.
const MAX_COMPONENTS: usize = 64;

/// An open bracketed group while scanning.
struct Group {
    start: usize,
    /// Groups nested anywhere inside it.
    descendants: u32,
    /// Its position: the hash of the child indices from the outermost group down.
    path: u64,
    /// Child groups closed so far.
    children: u64,
}

/// Calls `component` with the fingerprint of each component of `text` (see the module docs).
pub(crate) fn components(text: &str, mut component: impl FnMut(u64)) {
    let bytes = text.as_bytes();
    let mut stack: Vec<Group> = Vec::new();
    let mut roots = 0u64;
    let mut found = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            // Brackets inside string and char literals are text, not structure.
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' | b'(' | b'[' => {
                let (path, index) = match stack.last() {
                    Some(parent) => (parent.path, parent.children),
                    None => (0, roots),
                };
                for open in &mut stack {
                    open.descendants += 1;
                }
                stack.push(Group {
                    start: i,
                    descendants: 0,
                    path: mix(path, index),
                    children: 0,
                });
            }
            b'}' | b')' | b']' => {
                if let Some(group) = stack.pop() {
                    match stack.last_mut() {
                        Some(parent) => parent.children += 1,
                        None => roots += 1,
                    }
                    if group.descendants <= 1 && found < MAX_COMPONENTS {
                        found += 1;
                        // Include the name before the bracket (`Account`, `Some`).
                        let name_start = text[..group.start]
                            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ' '))
                            .map_or(0, |p| p + 1);
                        component(mix(group.path, coarse_hash(&text[name_start..=i])));
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    if found == 0 {
        component(coarse_hash(text));
    }
}

/// Hashes `text` with its numbers replaced by their classes.
pub(crate) fn coarse_hash(text: &str) -> u64 {
    let bytes = text.as_bytes();
    let mut hash = 0u64;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            // A marker byte no text contains, so `1` and the digit-free text `\u{1}` differ.
            hash = mix(hash, 0x100 | number_class(&bytes[start..i]));
        } else {
            hash = mix(hash, u64::from(bytes[i]));
            i += 1;
        }
    }
    hash
}

/// The hasher of maps keyed by values that are hashes already (fingerprints, prefix keys): the
/// key as is, where the default hasher would run SipHash over it again.
#[derive(Default)]
pub(crate) struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = mix(self.0, u64::from(byte));
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A map keyed by a hash (see [`Prehashed`]).
pub(crate) type PrehashedMap<V> = HashMap<u64, V, BuildHasherDefault<Prehashed>>;

/// Component fingerprints cached per sequence prefix, at most (words; the cache starts afresh
/// when full).
const MAX_CACHED: usize = 1 << 20;

/// The key of a choice-byte prefix: `prefix` is the key of the bytes before (0 at the start).
/// The state a replay reaches is a function of the bytes it read, so the key names the state.
pub(crate) fn prefix_key(prefix: u64, bytes: &[u8]) -> u64 {
    let mut key = mix(prefix, bytes.len() as u64);
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        key = mix(key, u64::from_le_bytes(word));
    }
    key
}

/// The fingerprints seen so far in a run, the buffer states are formatted into, and the
/// fingerprints of the states reached by the prefixes replayed so far.
///
/// Why the cache: mutants share most of their prefix with the sequence they came from (appending
/// a command, redrawing the last one, mutating one command's bytes), and formatting and scanning
/// the state after every step was the largest cost of a test (about 40% in a profile of the bank
/// test). A prefix replayed before is a lookup.
pub(crate) struct Fingerprints {
    seen: HashSet<u64, BuildHasherDefault<Prehashed>>,
    buffer: String,
    cached: PrehashedMap<Range<usize>>,
    arena: Vec<u64>,
}

impl Fingerprints {
    pub(crate) fn new() -> Self {
        Fingerprints {
            seen: HashSet::default(),
            buffer: String::new(),
            cached: PrehashedMap::default(),
            arena: Vec::new(),
        }
    }

    /// Appends the component fingerprints of `state`, the state the prefix `key` reaches (see
    /// [`prefix_key`]), to `out`.
    pub(crate) fn of(&mut self, key: u64, state: &impl Debug, out: &mut Vec<u64>) {
        if let Some(range) = self.cached.get(&key) {
            out.extend_from_slice(&self.arena[range.clone()]);
            return;
        }
        self.buffer.clear();
        let _ = write!(self.buffer, "{state:?}");
        let start = out.len();
        components(&self.buffer, |fingerprint| out.push(fingerprint));
        if self.arena.len() + (out.len() - start) > MAX_CACHED {
            self.arena.clear();
            self.cached.clear();
        }
        let cached = self.arena.len()..self.arena.len() + (out.len() - start);
        self.arena.extend_from_slice(&out[start..]);
        self.cached.insert(key, cached);
    }

    /// Remembers `fingerprint`; says whether it is new.
    pub(crate) fn insert(&mut self, fingerprint: u64) -> bool {
        self.seen.len() < MAX_FINGERPRINTS && self.seen.insert(fingerprint)
    }

    /// How many distinct fingerprints were seen.
    pub(crate) fn len(&self) -> usize {
        self.seen.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_of_one_class_share_a_fingerprint() {
        assert_eq!(
            coarse_hash("Account { balance: 12, frozen: true }"),
            coarse_hash("Account { balance: 9, frozen: true }")
        );
        assert_ne!(
            coarse_hash("Account { balance: 0, frozen: true }"),
            coarse_hash("Account { balance: 1, frozen: true }")
        );
        assert_ne!(
            coarse_hash("Account { balance: 9, frozen: true }"),
            coarse_hash("Account { balance: 9, frozen: false }")
        );
        assert_ne!(coarse_hash("[1, 2]"), coarse_hash("[1, 2, 3]"));
        assert_ne!(coarse_hash("16"), coarse_hash("15"));
        assert_eq!(
            coarse_hash("99999999999999999999999"),
            coarse_hash("99999999999999999999998")
        );
    }

    fn all(text: &str) -> Vec<u64> {
        let mut out = Vec::new();
        components(text, |f| out.push(f));
        out
    }

    #[test]
    fn components_are_the_groups_holding_at_most_one_group() {
        let bank = "Bank { accounts: [A { x: 1, a: Some(5) }, A { x: 0, a: None }] }";
        // A { .. Some(5) }, Some(5), A { .. None }: the list and the bank are combinations.
        assert_eq!(all(bank).len(), 3);
        let changed = "Bank { accounts: [A { x: 1, a: Some(5) }, A { x: 1, a: None }] }";
        let (a, b) = (all(bank), all(changed));
        assert_eq!(a[..2], b[..2], "the first account is unchanged");
        assert_ne!(a[2], b[2]);
        // The same account state in another position is another component.
        let swapped = "Bank { accounts: [A { x: 0, a: None }, A { x: 1, a: Some(5) }] }";
        assert!(all(swapped).iter().all(|f| !a.contains(f)));
        // Brackets in strings are text; a bracket-free state is one component.
        assert_eq!(all(r#"S { name: "a{[(" }"#).len(), 1);
        assert_eq!(all("42"), vec![coarse_hash("42")]);
        assert_eq!(all("[1, 2]").len(), 1);
    }

    #[test]
    fn insert_says_what_is_new() {
        let mut fingerprints = Fingerprints::new();
        let mut a = Vec::new();
        fingerprints.of(1, &(1u8, "open"), &mut a);
        assert_eq!(a.len(), 1);
        assert!(fingerprints.insert(a[0]));
        assert!(!fingerprints.insert(a[0]));
        let mut b = Vec::new();
        fingerprints.of(2, &(0u8, "open"), &mut b);
        assert!(fingerprints.insert(b[0]));
        assert_eq!(fingerprints.len(), 2);
        // A prefix seen before is not formatted again: its cached fingerprints come back.
        let mut c = Vec::new();
        fingerprints.of(1, &"not formatted", &mut c);
        assert_eq!(c, a);
    }
}
