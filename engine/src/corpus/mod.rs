//! Corpus: the seeds the loop keeps — in memory, two bounded queues (valid and discarded), and
//! optionally on disk: the corpus kept for a test across runs ([`kept`], one file per test) and
//! directories in libFuzzer's layout ([`disk`]).
//!
//! Seeds are stored once, by [`SeedId`]; the queues hold ids. An id names the same seed for as
//! long as it lives and is never reused within a run, so the loop can hold the id of the seed it
//! is mutating across the property call while the schedule moves seeds between and out of the
//! queues: a lookup then finds that seed or nothing, never another seed that moved into its slot.

pub(crate) mod disk;
pub(crate) mod kept;

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use crate::feedback::Feature;
use crate::Operator;

/// An interesting input, kept to be mutated.
#[derive(Clone, Debug)]
pub(crate) struct Seed<T> {
    pub(crate) value: T,
    /// Mutations still to spend on this seed before the schedule moves on.
    pub(crate) energy: u32,
    /// What a productive turn refills `energy` to; doubled each time the seed yields a new seed.
    pub(crate) base_energy: u32,
    /// The operators that produced it, oldest first, from its generated ancestor (bounded).
    pub(crate) lineage: Vec<Operator>,
    /// How many mutations separate it from a freshly generated value.
    pub(crate) depth: u32,
    /// How much new feedback it brought when it was found.
    pub(crate) novelty: u32,
    /// How many new seeds its mutants have yielded.
    pub(crate) found: u32,
    /// How many tests were mutants of it.
    pub(crate) picks: u32,
    /// The features it discovered, whose frequencies say how rare it is.
    pub(crate) features: Vec<Feature>,
    /// Its codec length, a type-independent measure of its size.
    pub(crate) size: u32,
    /// Which list of its queue holds it (kept up to date by [`Queues`]).
    place: Place,
    /// The comparisons its run logged and the input-to-state candidates they offer, if any.
    pub(crate) comparisons: Option<Box<crate::feedback::cmplog::SeedComparisons>>,
    /// Its codec bytes, when they decode back to it: the parent part of its mutants' recipes
    /// (see `fuzzer/artifacts.rs`), shared with the call in flight without a copy.
    pub(crate) bytes: Option<std::rc::Rc<[u8]>>,
    /// How many coverage counters its run hit (0 without coverage feedback).
    pub(crate) counters_hit: u32,
    /// Whether its structure features are all in the structure map (its run was observed: see
    /// `Feedback::structure_known`), so that a mutant need be observed only where it changed.
    pub(crate) structure_known: bool,
}

/// The two lists of a [`Queue`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    Fresh,
    Pool,
}

/// How much one new seed found by a seed's mutants counts in its [`merit`](Seed::merit), against
/// one unit of novelty: a seed that keeps paying off beats one that was merely novel once.
const MERIT_PER_FIND: u64 = 4;
/// The most novelty counted in a seed's merit, so one very novel find does not dominate forever.
const MERIT_NOVELTY_CAP: u32 = 64;

impl<T> Seed<T> {
    /// A seed that has not been scheduled yet: no energy (the schedule's
    /// [`admit`](crate::schedule::Scheduler::admit) gives it some), no picks, no finds.
    pub(crate) fn new(
        value: T,
        lineage: Vec<Operator>,
        depth: u32,
        novelty: u32,
        features: Vec<Feature>,
        size: u32,
    ) -> Self {
        Seed {
            value,
            energy: 0,
            base_energy: 0,
            lineage,
            depth,
            novelty,
            found: 0,
            picks: 0,
            features,
            size,
            place: Place::Fresh,
            comparisons: None,
            bytes: None,
            counters_hit: 0,
            structure_known: false,
        }
    }

    /// Which list of its queue holds it.
    pub(crate) fn place(&self) -> Place {
        self.place
    }

    /// How promising it is when picking from the pool: productive and novel seeds first.
    pub(crate) fn merit(&self) -> u64 {
        u64::from(self.found) * MERIT_PER_FIND + u64::from(self.novelty.min(MERIT_NOVELTY_CAP))
    }
}

/// Longest lineage kept per seed: the most recent operators.
pub(crate) const MAX_LINEAGE: usize = 64;

/// Which queue a seed lives in: FuzzChick's QSucc or QDisc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum QueueKind {
    Valid,
    Discarded,
}

/// A seed's name for as long as it lives; never reused within a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SeedId(u64);

/// One queue: `fresh` seeds still have focused energy to spend (the FuzzChick schedule uses it as
/// its FIFO; the default schedule as a LIFO stack), the `pool` holds spent seeds that the default
/// schedule revisits. Both hold ids; the seeds live in [`Queues`].
#[derive(Debug, Default)]
pub(crate) struct Queue {
    pub(crate) fresh: VecDeque<SeedId>,
    pub(crate) pool: Vec<SeedId>,
}

impl Queue {
    pub(crate) fn len(&self) -> usize {
        self.fresh.len() + self.pool.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The two in-memory queues and the seeds they hold.
///
/// Every seed is in exactly one place (the fresh list or the pool of one queue) from
/// [`push_fresh`](Queues::push_fresh) until it is dropped; the methods that move or drop seeds
/// keep the id lists and the store in step.
#[derive(Debug)]
pub(crate) struct Queues<T> {
    pub(crate) valid: Queue,
    pub(crate) discarded: Queue,
    seeds: HashMap<SeedId, Seed<T>, BuildHasherDefault<SeedIdHasher>>,
    next_id: u64,
    /// Bound on each queue's length.
    pub(crate) capacity: usize,
}

impl<T> Queues<T> {
    pub(crate) fn new(capacity: usize) -> Self {
        Queues {
            valid: Queue::default(),
            discarded: Queue::default(),
            seeds: HashMap::default(),
            next_id: 0,
            capacity: capacity.max(1),
        }
    }

    pub(crate) fn queue(&self, kind: QueueKind) -> &Queue {
        match kind {
            QueueKind::Valid => &self.valid,
            QueueKind::Discarded => &self.discarded,
        }
    }

    fn queue_mut(&mut self, kind: QueueKind) -> &mut Queue {
        match kind {
            QueueKind::Valid => &mut self.valid,
            QueueKind::Discarded => &mut self.discarded,
        }
    }

    /// The seed named `id`, which a queue holds.
    ///
    /// # Panics
    /// If `id` is in no queue: ids read from the queues are always kept (an internal invariant,
    /// which the methods below maintain).
    pub(crate) fn seed(&self, id: SeedId) -> &Seed<T> {
        &self.seeds[&id]
    }

    /// The seed named `id`, if it is still kept.
    pub(crate) fn get(&self, id: SeedId) -> Option<&Seed<T>> {
        self.seeds.get(&id)
    }

    pub(crate) fn get_mut(&mut self, id: SeedId) -> Option<&mut Seed<T>> {
        self.seeds.get_mut(&id)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.valid.is_empty() && self.discarded.is_empty()
    }

    /// Takes out the seed whose run hit the most coverage counters — a valid one if any valid
    /// seed hit some, of equals the first in the queue's order — and drops the rest; `None` when no seed's
    /// run hit any (no coverage feedback). What a restarted search keeps of the last one.
    pub(crate) fn into_widest(mut self) -> Option<T> {
        for queue in [&self.valid, &self.discarded] {
            let mut widest: Option<(SeedId, u32)> = None;
            for &id in queue.fresh.iter().chain(&queue.pool) {
                let hit = self.seeds[&id].counters_hit;
                if hit > widest.map_or(0, |(_, most)| most) {
                    widest = Some((id, hit));
                }
            }
            if let Some((id, _)) = widest {
                return self.seeds.remove(&id).map(|seed| seed.value);
            }
        }
        None
    }

    /// Keeps `seed` at the back of `kind`'s fresh list and returns its new id.
    pub(crate) fn push_fresh(&mut self, kind: QueueKind, mut seed: Seed<T>) -> SeedId {
        let id = SeedId(self.next_id);
        self.next_id += 1;
        seed.place = Place::Fresh;
        self.seeds.insert(id, seed);
        self.queue_mut(kind).fresh.push_back(id);
        id
    }

    /// Drops the seed at the front of `kind`'s fresh list, if any.
    pub(crate) fn drop_fresh_front(&mut self, kind: QueueKind) {
        if let Some(id) = self.queue_mut(kind).fresh.pop_front() {
            self.seeds.remove(&id);
        }
    }

    /// Drops the seed at `index` of `kind`'s pool; the last pool seed takes its place.
    pub(crate) fn drop_from_pool(&mut self, kind: QueueKind, index: usize) {
        let id = self.queue_mut(kind).pool.swap_remove(index);
        self.seeds.remove(&id);
    }

    /// Drops seed `id` from `kind`'s fresh list (no-op if it is not there).
    pub(crate) fn drop_fresh(&mut self, kind: QueueKind, id: SeedId) {
        let fresh = &mut self.queue_mut(kind).fresh;
        if let Some(index) = fresh.iter().position(|&other| other == id) {
            fresh.remove(index);
            self.seeds.remove(&id);
        }
    }

    /// Moves seed `id` from `kind`'s fresh list to the end of its pool (no-op if it is not in
    /// the fresh list).
    pub(crate) fn retire(&mut self, kind: QueueKind, id: SeedId) {
        let queue = self.queue_mut(kind);
        // The default schedule picks the newest fresh seed: search from the back.
        if let Some(index) = queue.fresh.iter().rposition(|&other| other == id) {
            queue.fresh.remove(index);
            queue.pool.push(id);
            self.set_place(id, Place::Pool);
        }
    }

    /// Moves seed `id` from `kind`'s pool to the back of its fresh list; the last pool seed takes
    /// its place (no-op if it is not in the pool).
    pub(crate) fn revive(&mut self, kind: QueueKind, id: SeedId) {
        let queue = self.queue_mut(kind);
        if let Some(index) = queue.pool.iter().position(|&other| other == id) {
            queue.pool.swap_remove(index);
            queue.fresh.push_back(id);
            self.set_place(id, Place::Fresh);
        }
    }

    /// Drops every seed for which `keep` is false, from both queues.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&Seed<T>) -> bool) {
        let seeds = &mut self.seeds;
        seeds.retain(|_, seed| keep(seed));
        for queue in [&mut self.valid, &mut self.discarded] {
            queue.fresh.retain(|id| seeds.contains_key(id));
            queue.pool.retain(|id| seeds.contains_key(id));
        }
    }

    fn set_place(&mut self, id: SeedId, place: Place) {
        if let Some(seed) = self.seeds.get_mut(&id) {
            seed.place = place;
        }
    }
}

/// Seed ids are counters: a multiplicative (Fibonacci) hash spreads them over the table's bits,
/// which costs one multiplication where SipHash would cost a few dozen on every pick.
#[derive(Debug, Default)]
pub(crate) struct SeedIdHasher(u64);

impl Hasher for SeedIdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(FIBONACCI);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value.wrapping_mul(FIBONACCI);
    }
}

/// 2^64 divided by the golden ratio, odd: multiplying by it permutes the integers modulo any
/// power of two and mixes low bits into high ones.
const FIBONACCI: u64 = 0x9E37_79B9_7F4A_7C15;

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(value: u32) -> Seed<u32> {
        Seed::new(value, Vec::new(), 0, 1, Vec::new(), 4)
    }

    #[test]
    fn ids_keep_naming_their_seed_while_others_move() {
        let mut queues = Queues::new(8);
        let ids: Vec<SeedId> = (0..4)
            .map(|v| queues.push_fresh(QueueKind::Valid, seed(v)))
            .collect();
        for &id in &ids {
            queues.retire(QueueKind::Valid, id);
        }
        assert_eq!(queues.valid.pool, ids);
        // Dropping pool index 1 moves the last seed (value 3) into slot 1: a raw index held
        // across this would now name another seed; the id still names its own.
        queues.drop_from_pool(QueueKind::Valid, 1);
        assert_eq!(queues.valid.pool[1], ids[3]);
        assert_eq!(queues.get(ids[3]).map(|s| s.value), Some(3));
        assert!(
            queues.get(ids[1]).is_none(),
            "a dropped seed is gone, not replaced"
        );
        queues.revive(QueueKind::Valid, ids[0]);
        assert_eq!(queues.valid.fresh, [ids[0]]);
        assert_eq!(queues.valid.pool, [ids[2], ids[3]]);
        assert_eq!(queues.get(ids[0]).map(|s| s.value), Some(0));
        assert_eq!(queues.seed(ids[0]).place(), Place::Fresh);
        assert_eq!(queues.seed(ids[2]).place(), Place::Pool);
        let new = queues.push_fresh(QueueKind::Valid, seed(9));
        assert!(!ids.contains(&new), "ids are never reused");
    }

    #[test]
    fn the_widest_seed_is_the_valid_one_that_hit_the_most_counters() {
        let with_hits = |value: u32, hit: u32| Seed {
            counters_hit: hit,
            ..seed(value)
        };
        let mut queues = Queues::new(8);
        queues.push_fresh(QueueKind::Discarded, with_hits(1, 90));
        queues.push_fresh(QueueKind::Valid, with_hits(2, 10));
        let pooled = queues.push_fresh(QueueKind::Valid, with_hits(3, 30));
        queues.retire(QueueKind::Valid, pooled);
        queues.push_fresh(QueueKind::Valid, with_hits(4, 30));
        // Valid seeds first (the discarded one hit more); of equals, the first in queue order.
        assert_eq!(queues.into_widest(), Some(4));

        let mut queues = Queues::new(8);
        queues.push_fresh(QueueKind::Valid, with_hits(1, 0));
        queues.push_fresh(QueueKind::Discarded, with_hits(2, 5));
        assert_eq!(queues.into_widest(), Some(2), "no valid seed hit anything");

        let mut queues = Queues::new(8);
        queues.push_fresh(QueueKind::Valid, seed(1));
        assert_eq!(
            queues.into_widest(),
            None,
            "no coverage: nothing to carry over"
        );
    }

    #[test]
    fn every_kept_seed_is_in_exactly_one_place() {
        let mut queues = Queues::new(8);
        let a = queues.push_fresh(QueueKind::Valid, seed(1));
        let b = queues.push_fresh(QueueKind::Discarded, seed(2));
        let c = queues.push_fresh(QueueKind::Valid, seed(3));
        queues.retire(QueueKind::Valid, a);
        queues.drop_fresh(QueueKind::Valid, c);
        queues.drop_fresh_front(QueueKind::Discarded);
        assert_eq!(queues.valid.pool, [a]);
        assert!(queues.valid.fresh.is_empty() && queues.discarded.is_empty());
        assert!(queues.get(b).is_none() && queues.get(c).is_none());
        assert_eq!(queues.seeds.len(), 1);
        // Moving an id that is not where the call expects it changes nothing.
        queues.retire(QueueKind::Discarded, a);
        queues.revive(QueueKind::Discarded, a);
        assert_eq!(queues.valid.pool, [a]);
    }

    #[test]
    fn merit_prefers_finds_over_capped_novelty() {
        let mut productive = seed(0);
        productive.found = 20;
        let mut novel = seed(0);
        novel.novelty = 1_000;
        assert_eq!(novel.merit(), u64::from(MERIT_NOVELTY_CAP));
        assert!(productive.merit() > novel.merit());
    }
}
