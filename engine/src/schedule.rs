//! Schedule: the policy that decides what the next test is — a fresh value from the generator or
//! a mutant of which seed — and how much energy (how many mutants) each seed gets.
//!
//! The loop ([`fuzzer`](crate::fuzzer)) asks [`Scheduler::pick`] for the next test, tells
//! [`Scheduler::after_run`] whether it found something, and hands new seeds to
//! [`Scheduler::admit`]. Two policies:
//!
//! - [`Schedule::FuzzChick`]: Algorithm 3 of the paper (BACKGROUND.md section 1), faithfully.
//!   QSucc's head is mutated while it has energy (then dropped); when QSucc is empty, QDisc's head
//!   likewise, and when QDisc's head runs out the test is a fresh generation; with both empty,
//!   generation. New seeds join the back of their queue with AFL-style energy, discarded ones a
//!   third of it. One mutation per test. A full queue refuses new seeds.
//! - [`Schedule::Default`]: what the research suggests does better. Fresh finds are mutated first,
//!   newest first (LIFO, as MUTAGEN and the Hypothesis work do), and a seed whose mutant is a find
//!   gets its energy doubled; spent seeds are not dropped but stay in a pool that is revisited
//!   (the "ok" vs "bad!" trap of a purely greedy loop), picked by a three-seed tournament that
//!   prefers the seed whose discovered features are rarest now (FairFuzz/Entropic: fuzzing a
//!   seed makes its features common, so attention rebalances by itself), then the less fuzzed
//!   seed, then merit (finds made, novelty brought); one test in four stacks 2 to 4
//!   mutations; one test in eight is a fresh generation, one in four while no find has been made
//!   for a long time. Valid
//!   seeds are picked seven times in eight when both queues have some. A full queue evicts the
//!   least meritorious of a few pool seeds.
//! - [`Schedule::Generate`]: always a fresh generation (the QuickCheck baseline).

use crate::corpus::{QueueKind, Queues, Seed, Slot};
use crate::{Context, Schedule};

/// The next test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// A freshly generated value.
    Generate,
    /// `mutations` stacked mutations of the seed at `slot` in `queue`.
    Mutate {
        queue: QueueKind,
        slot: Slot,
        mutations: u32,
    },
}

/// Tests without a find after which the default schedule considers itself stuck.
const STUCK_AFTER: u64 = 50_000;
/// Largest energy a seed can accumulate.
const MAX_ENERGY: u32 = 1 << 16;

/// The scheduling state.
#[derive(Debug)]
pub(crate) struct Scheduler {
    policy: Schedule,
    tests: u64,
    last_find: u64,
    novelty_total: u64,
    seeds_admitted: u64,
}

impl Scheduler {
    pub(crate) fn new(policy: Schedule) -> Self {
        Scheduler {
            policy,
            tests: 0,
            last_find: 0,
            novelty_total: 0,
            seeds_admitted: 0,
        }
    }

    /// Chooses the next test.
    /// `rarity` tells how often the rarest feature a seed discovered has been hit since: the
    /// lower, the more the default schedule favours the seed.
    pub(crate) fn pick<T>(
        &mut self,
        queues: &mut Queues<T>,
        cx: &mut Context,
        rarity: impl Fn(&Seed<T>) -> u64,
    ) -> Pick {
        self.tests += 1;
        match self.policy {
            Schedule::Generate => Pick::Generate,
            Schedule::FuzzChick => Self::pick_fuzzchick(queues),
            _ => self.pick_default(queues, cx, rarity),
        }
    }

    fn pick_fuzzchick<T>(queues: &mut Queues<T>) -> Pick {
        // Exhausted heads are dropped as they are met ("PICK again").
        while let Some(head) = queues.valid.fresh.front() {
            if head.energy > 0 {
                return Pick::Mutate {
                    queue: QueueKind::Valid,
                    slot: Slot::Fresh(0),
                    mutations: 1,
                };
            }
            queues.valid.fresh.pop_front();
        }
        match queues.discarded.fresh.front() {
            Some(head) if head.energy > 0 => Pick::Mutate {
                queue: QueueKind::Discarded,
                slot: Slot::Fresh(0),
                mutations: 1,
            },
            Some(_) => {
                // QDisc's head is exhausted: drop it and use the generator this time.
                queues.discarded.fresh.pop_front();
                Pick::Generate
            }
            None => Pick::Generate,
        }
    }

    fn pick_default<T>(
        &mut self,
        queues: &Queues<T>,
        cx: &mut Context,
        rarity: impl Fn(&Seed<T>) -> u64,
    ) -> Pick {
        if queues.is_empty() {
            return Pick::Generate;
        }
        let stuck = self.tests - self.last_find > STUCK_AFTER;
        let generate_one_in = if stuck { 4 } else { 8 };
        if cx.below(generate_one_in) == 0 {
            return Pick::Generate;
        }
        let kind = if queues.discarded.is_empty() || (!queues.valid.is_empty() && cx.below(8) != 0)
        {
            QueueKind::Valid
        } else {
            QueueKind::Discarded
        };
        let queue = queues.queue(kind);
        let slot = if !queue.fresh.is_empty() {
            Slot::Fresh(queue.fresh.len() - 1)
        } else {
            // A three-seed tournament: the rarest features win, then the least fuzzed seed.
            let key = |s: &Seed<T>| {
                (
                    std::cmp::Reverse(rarity(s)),
                    std::cmp::Reverse(s.picks),
                    s.merit(),
                    std::cmp::Reverse(s.size),
                )
            };
            let mut best = cx.below(queue.pool.len());
            for _ in 0..2 {
                let other = cx.below(queue.pool.len());
                if key(&queue.pool[other]) > key(&queue.pool[best]) {
                    best = other;
                }
            }
            Slot::Pool(best)
        };
        let mutations = if cx.below(4) != 0 {
            1
        } else {
            2 + cx.below(3) as u32
        };
        Pick::Mutate {
            queue: kind,
            slot,
            mutations,
        }
    }

    /// Bookkeeping after the test `pick` ran: spends energy, rewards a productive seed.
    pub(crate) fn after_run<T>(&mut self, pick: Pick, productive: bool, queues: &mut Queues<T>) {
        if productive {
            self.last_find = self.tests;
        }
        let Pick::Mutate {
            queue: kind, slot, ..
        } = pick
        else {
            return;
        };
        let capacity = queues.capacity;
        let queue = queues.queue_mut(kind);
        match slot {
            Slot::Fresh(index) => queue.fresh[index].picks += 1,
            Slot::Pool(index) => queue.pool[index].picks += 1,
        }
        match (self.policy, slot) {
            (Schedule::FuzzChick, Slot::Fresh(index)) => {
                let seed = &mut queue.fresh[index];
                seed.energy = seed.energy.saturating_sub(1);
                if productive {
                    seed.found += 1;
                }
                if seed.energy == 0 {
                    queue.fresh.remove(index);
                }
            }
            (_, Slot::Fresh(index)) => {
                let seed = &mut queue.fresh[index];
                seed.energy = seed.energy.saturating_sub(1);
                if productive {
                    seed.found += 1;
                    seed.base_energy = seed.base_energy.saturating_mul(2).min(MAX_ENERGY);
                    seed.energy = seed.energy.max(seed.base_energy);
                }
                if seed.energy == 0 {
                    if let Some(spent) = queue.fresh.remove(index) {
                        push_pool(&mut queue.pool, spent, capacity);
                    }
                }
            }
            (_, Slot::Pool(index)) => {
                if productive {
                    // A revisited seed that pays off gets focused again, with doubled energy.
                    let mut seed = queue.pool.swap_remove(index);
                    seed.found += 1;
                    seed.base_energy = seed.base_energy.saturating_mul(2).min(MAX_ENERGY);
                    seed.energy = seed.base_energy;
                    queue.fresh.push_back(seed);
                }
            }
        }
    }

    /// The energy a new seed starts with (AFL's `calculate_score`, without execution times):
    /// a base, scaled by how much novelty it brought relative to the average and by its depth.
    pub(crate) fn energy(&self, novelty: u32, depth: u32, kind: QueueKind) -> u32 {
        let base: f64 = match self.policy {
            Schedule::FuzzChick => 100.0,
            _ => 64.0,
        };
        let average = if self.seeds_admitted == 0 {
            f64::from(novelty.max(1))
        } else {
            self.novelty_total as f64 / self.seeds_admitted as f64
        };
        let ratio = f64::from(novelty) / average.max(1e-9);
        let novelty_factor = match ratio {
            r if r >= 3.0 => 3.0,
            r if r >= 2.0 => 2.0,
            r if r >= 1.33 => 1.5,
            r if r < 0.33 => 0.25,
            r if r < 0.5 => 0.5,
            r if r < 0.75 => 0.75,
            _ => 1.0,
        };
        let depth_factor = match depth {
            0..=3 => 1.0,
            4..=7 => 2.0,
            8..=13 => 3.0,
            14..=25 => 4.0,
            _ => 5.0,
        };
        let mut energy = base * novelty_factor * depth_factor;
        if kind == QueueKind::Discarded {
            energy /= match self.policy {
                Schedule::FuzzChick => 3.0,
                _ => 2.0,
            };
        }
        (energy as u32).clamp(1, MAX_ENERGY)
    }

    /// Adds a new seed to its queue (bounded).
    pub(crate) fn admit<T>(
        &mut self,
        queues: &mut Queues<T>,
        kind: QueueKind,
        seed: Seed<T>,
        cx: &mut Context,
    ) {
        self.seeds_admitted += 1;
        self.novelty_total += u64::from(seed.novelty);
        let capacity = queues.capacity;
        let queue = queues.queue_mut(kind);
        if self.policy == Schedule::FuzzChick {
            if queue.len() < capacity {
                queue.fresh.push_back(seed);
            }
            return;
        }
        if queue.len() >= capacity {
            if queue.pool.is_empty() {
                queue.fresh.pop_front();
            } else {
                evict(&mut queue.pool, cx);
            }
        }
        queue.fresh.push_back(seed);
    }
}

/// Moves a spent seed into the pool (its queue's length is unchanged, so no eviction is due
/// unless the capacity shrank).
fn push_pool<T>(pool: &mut Vec<Seed<T>>, seed: Seed<T>, capacity: usize) {
    if pool.len() >= capacity {
        pool.swap_remove(0);
    }
    pool.push(seed);
}

/// Removes the least meritorious of four random pool seeds.
fn evict<T>(pool: &mut Vec<Seed<T>>, cx: &mut Context) {
    let mut worst = cx.below(pool.len());
    for _ in 0..3 {
        let other = cx.below(pool.len());
        if pool[other].merit() < pool[worst].merit() {
            worst = other;
        }
    }
    pool.swap_remove(worst);
}
