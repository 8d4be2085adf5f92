//! `HashMap`, `BTreeMap`, `HashSet` and `BTreeSet`: insert, remove, element and resize
//! (truncate, or grow by fresh entries to a generated length) mutations over keyed collections
//! (a set is treated as a map whose values are `()`). Resizing draws the length as generation
//! does, so mutants keep their seeds' length on average.
//!
//! # Determinism
//!
//! Mutations pick entries by their position in iteration order. A `HashMap` or `HashSet` with
//! the default `RandomState` iterates in a different order in every process, so the same seed
//! mutates it differently from run to run (and encodes it in a different byte order, although it
//! decodes to an equal collection). Use `BTreeMap`/`BTreeSet`, or a fixed hasher such as
//! `BuildHasherDefault<DefaultHasher>`, when runs must be reproducible.
//!
//! # Shrink order
//!
//! A collection is ordered as the multiset of its entries, each entry ranked by key then value
//! (Dershowitz–Manna multiset order, well-founded when the key and value orders are). Every
//! candidate removes entries, or replaces one entry by a strictly smaller one (a shrunk value,
//! or a shrunk key, which may merge with an existing key and so also removes an entry).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use super::vec::{
    can_descend, chunk_removals, generate_child, mutate_child, position, remove_run, resize_length,
    SHRINK_ELEMENTS, SHRINK_PER_ELEMENT,
};
use crate::__private::split_size;
use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::structure::{length_class, mix, token, Structure};
use crate::{Context, Mutate, Operator};

/// How many fresh keys an Insert tries before concluding that the key space is (nearly) full.
const INSERT_ATTEMPTS: usize = 4;

/// The operations the map and set mutators share; a set is a table whose values are `()`.
trait Table: Default + Clone {
    type Key: Mutate;
    type Value: Mutate;
    fn length(&self) -> usize;
    fn contains(&self, key: &Self::Key) -> bool;
    fn put(&mut self, key: Self::Key, value: Self::Value);
    fn take(&mut self, key: &Self::Key) -> Option<Self::Value>;
    /// Keeps the entries whose position in iteration order satisfies `keep`.
    fn retain_positions(&mut self, keep: impl FnMut(usize) -> bool);
    fn nth_key(&self, index: usize) -> Option<&Self::Key>;
    /// The value of entry `index`; `None` for sets, whose values are `()`.
    fn nth_value(&self, index: usize) -> Option<&Self::Value>;
    /// See [`Table::nth_value`].
    fn nth_value_mut(&mut self, index: usize) -> Option<&mut Self::Value>;
    fn for_each_entry(&self, f: impl FnMut(&Self::Key, &Self::Value));
}

fn generate_table<T: Table>(cx: &mut Context) -> T {
    let size = cx.size();
    let len = cx.below(size + 1);
    let child = split_size(size, len);
    let mut table = T::default();
    // Duplicate keys merge, so the table may end up with fewer than `len` entries.
    for _ in 0..len {
        let key = crate::__private::generate_field(cx, child, T::Key::generate);
        let value = crate::__private::generate_field(cx, child, T::Value::generate);
        table.put(key, value);
    }
    table
}

/// A fresh key not yet in `table`, if one turns up within a few attempts.
fn fresh_key<T: Table>(table: &T, cx: &mut Context) -> Option<T::Key> {
    (0..INSERT_ATTEMPTS)
        .map(|_| generate_child::<T::Key>(cx))
        .find(|key| !table.contains(key))
}

/// Puts up to `count` entries with fresh keys into `table`; whether it put any.
fn insert_fresh<T: Table>(table: &mut T, cx: &mut Context, count: usize) -> bool {
    let mut inserted = false;
    for _ in 0..count {
        let Some(key) = fresh_key(table, cx) else {
            break;
        };
        let value = generate_child(cx);
        table.put(key, value);
        inserted = true;
    }
    inserted
}

fn mutate_table<T: Table>(table: &mut T, cx: &mut Context) {
    let len = table.length();
    let room = len == 0 || len < cx.max_size();
    let keys = can_descend::<T::Key>(cx);
    let values = can_descend::<T::Value>(cx);
    let filled = if len > 0 { 1 } else { 0 };
    let weights = [
        if room { 2 } else { 0 },                    // Insert
        2 * filled,                                  // Remove
        if keys || values { 4 * filled } else { 0 }, // Element
        filled,                                      // Truncate
    ];
    let mut choice = cx.weighted(&weights);
    if choice == Some(0) {
        if insert_fresh(table, cx, 1) {
            cx.record(Operator::Insert);
            return;
        }
        // Every attempt hit an existing key (a small key type, nearly full): remove instead.
        // An empty table never gets here, since any key is fresh for it.
        choice = Some(1);
    }
    if choice == Some(3) {
        // Resized to a generated length: cut short, or grown by fresh entries.
        let target = resize_length(cx, len);
        if target > len && insert_fresh(table, cx, target - len) {
            cx.record(Operator::Insert);
            return;
        }
        cx.record(Operator::Truncate);
        let keep = if target < len { target } else { cx.below(len) };
        table.retain_positions(|i| i < keep);
        return;
    }
    match choice {
        Some(1) => {
            cx.record(Operator::Remove);
            let (start, count) = remove_run(cx, len);
            table.retain_positions(|i| !(start..start + count).contains(&i));
        }
        Some(2) => {
            let index = cx.below(len);
            cx.record(Operator::Element);
            if values && (!keys || cx.chance(3, 4)) {
                if let Some(value) = table.nth_value_mut(index) {
                    mutate_child(value, cx);
                    return;
                }
            }
            // Keys are immutable in place: take the entry out, mutate the key, put it back.
            // The mutated key differs from the old one; if it collides with another entry, that
            // entry is replaced, which still changes the table.
            let Some(mut key) = table.nth_key(index).cloned() else {
                return;
            };
            let value = table
                .take(&key)
                .expect("the key was just read from the table");
            mutate_child(&mut key, cx);
            table.put(key, value);
        }
        _ => {}
    }
}

/// Reports a map or set to the structure feedback: its length class, then each key (fields 0,
/// 2, 4 for the first, last and other entries) and value (fields 1, 3, 5).
fn visit_table<T: Table>(table: &T, constructor: u64, structure: &mut Structure<'_>) {
    let len = table.length();
    structure.node(mix(constructor, length_class(len)));
    let mut index = 0;
    table.for_each_entry(|key, value| {
        let field = 2 * position(index, len);
        structure.child(constructor, field, key);
        structure.child(constructor, field + 1, value);
        index += 1;
    });
}

fn shrink_table<T: Table>(table: &T, cx: &mut Context) -> Vec<T> {
    let len = table.length();
    let mut out = Vec::new();
    if len == 0 {
        return out;
    }
    out.push(T::default());
    for removed in chunk_removals(len).into_iter().skip(1) {
        let mut smaller = table.clone();
        smaller.retain_positions(|i| !removed.contains(&i));
        out.push(smaller);
    }
    for index in 0..len.min(SHRINK_ELEMENTS) {
        let Some(key) = table.nth_key(index) else {
            break;
        };
        for candidate in key.shrink(cx).into_iter().take(SHRINK_PER_ELEMENT) {
            let mut smaller = table.clone();
            if let Some(value) = smaller.take(key) {
                smaller.put(candidate, value);
                out.push(smaller);
            }
        }
        let Some(value) = table.nth_value(index) else {
            continue;
        };
        for candidate in value.shrink(cx).into_iter().take(SHRINK_PER_ELEMENT) {
            let mut smaller = table.clone();
            if let Some(slot) = smaller.nth_value_mut(index) {
                *slot = candidate;
                out.push(smaller);
            }
        }
    }
    out
}

fn encode_table<T: Table>(table: &T, out: &mut Encoder) {
    out.write_len(table.length());
    table.for_each_entry(|key, value| {
        key.encode(out);
        value.encode(out);
    });
}

fn decode_table<T: Table>(input: &mut Decoder<'_>) -> T {
    // `read_len` is capped by the decoder's element budget: O(input length) entries in total.
    let len = input.read_len();
    let mut table = T::default();
    for _ in 0..len {
        let key = T::Key::decode(input);
        let value = T::Value::decode(input);
        table.put(key, value);
    }
    table
}

impl<K, V, S> Table for HashMap<K, V, S>
where
    K: Mutate + Eq + Hash,
    V: Mutate,
    S: BuildHasher + Default + Clone,
{
    type Key = K;
    type Value = V;
    fn length(&self) -> usize {
        self.len()
    }
    fn contains(&self, key: &K) -> bool {
        self.contains_key(key)
    }
    fn put(&mut self, key: K, value: V) {
        self.insert(key, value);
    }
    fn take(&mut self, key: &K) -> Option<V> {
        self.remove(key)
    }
    fn retain_positions(&mut self, mut keep: impl FnMut(usize) -> bool) {
        let mut position = 0;
        self.retain(|_, _| {
            position += 1;
            keep(position - 1)
        });
    }
    fn nth_key(&self, index: usize) -> Option<&K> {
        self.keys().nth(index)
    }
    fn nth_value(&self, index: usize) -> Option<&V> {
        self.values().nth(index)
    }
    fn nth_value_mut(&mut self, index: usize) -> Option<&mut V> {
        self.values_mut().nth(index)
    }
    fn for_each_entry(&self, mut f: impl FnMut(&K, &V)) {
        self.iter().for_each(|(key, value)| f(key, value));
    }
}

impl<K: Mutate + Ord, V: Mutate> Table for BTreeMap<K, V> {
    type Key = K;
    type Value = V;
    fn length(&self) -> usize {
        self.len()
    }
    fn contains(&self, key: &K) -> bool {
        self.contains_key(key)
    }
    fn put(&mut self, key: K, value: V) {
        self.insert(key, value);
    }
    fn take(&mut self, key: &K) -> Option<V> {
        self.remove(key)
    }
    fn retain_positions(&mut self, mut keep: impl FnMut(usize) -> bool) {
        let mut position = 0;
        self.retain(|_, _| {
            position += 1;
            keep(position - 1)
        });
    }
    fn nth_key(&self, index: usize) -> Option<&K> {
        self.keys().nth(index)
    }
    fn nth_value(&self, index: usize) -> Option<&V> {
        self.values().nth(index)
    }
    fn nth_value_mut(&mut self, index: usize) -> Option<&mut V> {
        self.values_mut().nth(index)
    }
    fn for_each_entry(&self, mut f: impl FnMut(&K, &V)) {
        self.iter().for_each(|(key, value)| f(key, value));
    }
}

impl<T, S> Table for HashSet<T, S>
where
    T: Mutate + Eq + Hash,
    S: BuildHasher + Default + Clone,
{
    type Key = T;
    type Value = ();
    fn length(&self) -> usize {
        self.len()
    }
    fn contains(&self, key: &T) -> bool {
        HashSet::contains(self, key)
    }
    fn put(&mut self, key: T, _value: ()) {
        self.insert(key);
    }
    fn take(&mut self, key: &T) -> Option<()> {
        self.remove(key).then_some(())
    }
    fn retain_positions(&mut self, mut keep: impl FnMut(usize) -> bool) {
        let mut position = 0;
        self.retain(|_| {
            position += 1;
            keep(position - 1)
        });
    }
    fn nth_key(&self, index: usize) -> Option<&T> {
        self.iter().nth(index)
    }
    fn nth_value(&self, _index: usize) -> Option<&()> {
        None
    }
    fn nth_value_mut(&mut self, _index: usize) -> Option<&mut ()> {
        None
    }
    fn for_each_entry(&self, mut f: impl FnMut(&T, &())) {
        self.iter().for_each(|key| f(key, &()));
    }
}

impl<T: Mutate + Ord> Table for BTreeSet<T> {
    type Key = T;
    type Value = ();
    fn length(&self) -> usize {
        self.len()
    }
    fn contains(&self, key: &T) -> bool {
        BTreeSet::contains(self, key)
    }
    fn put(&mut self, key: T, _value: ()) {
        self.insert(key);
    }
    fn take(&mut self, key: &T) -> Option<()> {
        self.remove(key).then_some(())
    }
    fn retain_positions(&mut self, mut keep: impl FnMut(usize) -> bool) {
        let mut position = 0;
        self.retain(|_| {
            position += 1;
            keep(position - 1)
        });
    }
    fn nth_key(&self, index: usize) -> Option<&T> {
        self.iter().nth(index)
    }
    fn nth_value(&self, _index: usize) -> Option<&()> {
        None
    }
    fn nth_value_mut(&mut self, _index: usize) -> Option<&mut ()> {
        None
    }
    fn for_each_entry(&self, mut f: impl FnMut(&T, &())) {
        self.iter().for_each(|key| f(key, &()));
    }
}

/// Maps of at most `cx.size()` entries. Mutations insert a fresh entry, remove one or a few,
/// mutate a value or a key (a key is taken out, mutated, and put back), or drop the entries past
/// a random position. Encodes as a length and the entries in iteration order; decoding merges
/// duplicate keys (the last one wins).
///
/// The hasher `S` is part of the type, so a map with a fixed hasher mutates deterministically;
/// with the default `RandomState` the iteration order, and hence which entry a mutation touches,
/// differs between runs. Prefer `BTreeMap` when reproducibility matters.
///
/// ```
/// use std::collections::HashMap;
/// use typefuzz_core::{codec, Context, Mutate};
/// let mut cx = Context::new(8).with_max_size(5);
/// let mut map: HashMap<u8, u16> = cx.generate();
/// assert!(map.len() <= 5);
/// let before = map.clone();
/// cx.mutate(&mut map);
/// assert_ne!(map, before);
/// assert_eq!(codec::from_bytes::<HashMap<u8, u16>>(&codec::to_bytes(&map)), map);
/// ```
impl<K, V, S> Mutate for HashMap<K, V, S>
where
    K: Mutate + Eq + Hash,
    V: Mutate,
    S: BuildHasher + Default + Clone,
{
    fn generate(cx: &mut Context) -> Self {
        generate_table(cx)
    }

    fn mutate(&mut self, cx: &mut Context) {
        mutate_table(self, cx);
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        shrink_table(self, cx)
    }

    fn encode(&self, out: &mut Encoder) {
        encode_table(self, out);
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        decode_table(input)
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("HashMap");
        fingerprint.mark_order_dependent();
        K::fingerprint(fingerprint);
        V::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        visit_table(self, token("HashMap"), structure);
    }
}

/// The same mutator as `HashMap`, in key order, hence deterministic for a given seed.
///
/// ```
/// use std::collections::BTreeMap;
/// use typefuzz_core::{codec, Context, Mutate};
/// let mut first = Context::new(8);
/// let mut second = Context::new(8);
/// let mut a: BTreeMap<i32, String> = first.generate();
/// let mut b: BTreeMap<i32, String> = second.generate();
/// first.mutate(&mut a);
/// second.mutate(&mut b);
/// assert_eq!(a, b);
/// assert_eq!(codec::from_bytes::<BTreeMap<i32, String>>(&codec::to_bytes(&a)), a);
/// ```
impl<K: Mutate + Ord, V: Mutate> Mutate for BTreeMap<K, V> {
    fn generate(cx: &mut Context) -> Self {
        generate_table(cx)
    }

    fn mutate(&mut self, cx: &mut Context) {
        mutate_table(self, cx);
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        shrink_table(self, cx)
    }

    fn encode(&self, out: &mut Encoder) {
        encode_table(self, out);
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        decode_table(input)
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("BTreeMap");
        K::fingerprint(fingerprint);
        V::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        visit_table(self, token("BTreeMap"), structure);
    }
}

/// Sets of at most `cx.size()` elements: insert, remove, mutate an element (take it out, mutate
/// it, put it back), truncate. Same determinism caveat as `HashMap`: prefer `BTreeSet` when runs
/// must be reproducible.
///
/// ```
/// use std::collections::HashSet;
/// use typefuzz_core::{codec, Context, Mutate};
/// let mut cx = Context::new(2);
/// let mut set: HashSet<u8> = cx.generate();
/// let before = set.clone();
/// cx.mutate(&mut set);
/// assert_ne!(set, before);
/// assert_eq!(codec::from_bytes::<HashSet<u8>>(&codec::to_bytes(&set)), set);
/// ```
impl<T, S> Mutate for HashSet<T, S>
where
    T: Mutate + Eq + Hash,
    S: BuildHasher + Default + Clone,
{
    fn generate(cx: &mut Context) -> Self {
        generate_table(cx)
    }

    fn mutate(&mut self, cx: &mut Context) {
        mutate_table(self, cx);
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        shrink_table(self, cx)
    }

    fn encode(&self, out: &mut Encoder) {
        encode_table(self, out);
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        decode_table(input)
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("HashSet");
        fingerprint.mark_order_dependent();
        T::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        visit_table(self, token("HashSet"), structure);
    }
}

/// The same mutator as `HashSet`, in element order.
///
/// ```
/// use std::collections::BTreeSet;
/// use typefuzz_core::{Context, Mutate};
/// let mut cx = Context::new(2);
/// let set: BTreeSet<u16> = [5, 9].into_iter().collect();
/// assert_eq!(set.shrink(&mut cx)[0], BTreeSet::new());
/// ```
impl<T: Mutate + Ord> Mutate for BTreeSet<T> {
    fn generate(cx: &mut Context) -> Self {
        generate_table(cx)
    }

    fn mutate(&mut self, cx: &mut Context) {
        mutate_table(self, cx);
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        shrink_table(self, cx)
    }

    fn encode(&self, out: &mut Encoder) {
        encode_table(self, out);
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        decode_table(input)
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("BTreeSet");
        T::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        visit_table(self, token("BTreeSet"), structure);
    }
}
