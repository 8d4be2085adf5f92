//! Corpus: the seeds the loop keeps — in memory, two bounded queues (valid and discarded), and
//! optionally on disk, a directory in libFuzzer's layout ([`disk`]).

pub(crate) mod disk;

use std::collections::VecDeque;

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
    pub(crate) features: Vec<crate::feedback::Feature>,
    /// Its codec length, a type-independent measure of its size.
    pub(crate) size: u32,
}

impl<T> Seed<T> {
    /// How promising it is when picking from the pool: productive and novel seeds first.
    pub(crate) fn merit(&self) -> u64 {
        u64::from(self.found) * 4 + u64::from(self.novelty.min(64))
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

/// One queue: `fresh` seeds still have focused energy to spend (the FuzzChick schedule uses it as
/// its FIFO; the default schedule as a LIFO stack), the `pool` holds spent seeds that the default
/// schedule revisits.
#[derive(Debug)]
pub(crate) struct Queue<T> {
    pub(crate) fresh: VecDeque<Seed<T>>,
    pub(crate) pool: Vec<Seed<T>>,
}

impl<T> Queue<T> {
    fn new() -> Self {
        Queue {
            fresh: VecDeque::new(),
            pool: Vec::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.fresh.len() + self.pool.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where a picked seed sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Fresh(usize),
    Pool(usize),
}

/// The two in-memory queues.
#[derive(Debug)]
pub(crate) struct Queues<T> {
    pub(crate) valid: Queue<T>,
    pub(crate) discarded: Queue<T>,
    /// Bound on each queue's length.
    pub(crate) capacity: usize,
}

impl<T> Queues<T> {
    pub(crate) fn new(capacity: usize) -> Self {
        Queues {
            valid: Queue::new(),
            discarded: Queue::new(),
            capacity: capacity.max(1),
        }
    }

    pub(crate) fn queue(&self, kind: QueueKind) -> &Queue<T> {
        match kind {
            QueueKind::Valid => &self.valid,
            QueueKind::Discarded => &self.discarded,
        }
    }

    pub(crate) fn queue_mut(&mut self, kind: QueueKind) -> &mut Queue<T> {
        match kind {
            QueueKind::Valid => &mut self.valid,
            QueueKind::Discarded => &mut self.discarded,
        }
    }

    pub(crate) fn seed(&self, kind: QueueKind, slot: Slot) -> &Seed<T> {
        let queue = self.queue(kind);
        match slot {
            Slot::Fresh(index) => &queue.fresh[index],
            Slot::Pool(index) => &queue.pool[index],
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.valid.is_empty() && self.discarded.is_empty()
    }

    /// Keeps only the seeds for which `keep` holds, in both queues.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&Seed<T>) -> bool) {
        for queue in [&mut self.valid, &mut self.discarded] {
            queue.fresh.retain(&mut keep);
            queue.pool.retain(&mut keep);
        }
    }
}
