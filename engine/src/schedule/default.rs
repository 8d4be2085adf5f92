//! The default policy ([`Schedule::Default`](crate::Schedule::Default)): what the research
//! suggests does better than FuzzChick's Algorithm 3 (measured in `bench/`).
//!
//! Fresh finds are mutated first, newest first (LIFO, as MUTAGEN and the Hypothesis work do), and
//! a seed whose mutant is a find gets its energy doubled; spent seeds are not dropped but stay in
//! a pool that is revisited (the "ok" vs "bad!" trap of a purely greedy loop), picked by a
//! tournament that prefers the seed whose discovered features are rarest now (FairFuzz/Entropic:
//! fuzzing a seed makes its features common, so attention rebalances by itself), then the less
//! fuzzed seed, then merit (finds made, novelty brought), then the smaller seed. Some tests stack
//! several mutations. Fresh generation is not this policy's choice: the scheduler shares the
//! work between it and mutation by what mutation finds that the generator does not reach
//! (`schedule/arms.rs`). Valid seeds
//! are picked more often than discarded ones when both queues have some. A full queue evicts the
//! least meritorious of a few pool seeds. After a long stagnation the search starts over.

use std::cmp::Reverse;

use super::policy::{EnergyScale, Policy};
use super::{Pick, Stagnation, MAX_ENERGY};
use crate::corpus::{Place, QueueKind, Queues, Seed, SeedId};
use crate::Context;

/// When both queues have seeds, one pick in this many takes a discarded seed (so valid seeds get
/// seven picks in eight).
const DISCARDED_ONE_IN: usize = 8;
/// Pool seeds drawn per pick; the best one is mutated.
const TOURNAMENT_SIZE: usize = 3;
/// Pool seeds drawn per eviction; the least meritorious one goes.
const EVICTION_TOURNAMENT_SIZE: usize = 4;
/// One test in this many stacks several mutations...
const STACK_ONE_IN: usize = 4;
/// ...between these many (inclusive)...
const STACKED_MUTATIONS: (u32, u32) = (2, 4);
/// ...and the others apply one.
const UNSTACKED: u32 = 1;
/// A seed whose mutant is kept gets its base energy multiplied by this (doubled).
const PRODUCTIVE_ENERGY_FACTOR: u32 = 2;
/// Energy of a valid seed of average novelty at depth 0.
const BASE_ENERGY: f64 = 64.0;
/// Discarded seeds get half a valid seed's energy.
const DISCARDED_DIVISOR: f64 = 2.0;

/// The default schedule.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DefaultPolicy;

impl<T> Policy<T> for DefaultPolicy {
    fn pick(
        &self,
        queues: &mut Queues<T>,
        cx: &mut Context,
        _stagnation: &Stagnation,
        rarity: &dyn Fn(&Seed<T>) -> u64,
    ) -> Pick {
        if queues.is_empty() {
            return Pick::Generate;
        }
        let kind = if queues.discarded.is_empty()
            || (!queues.valid.is_empty() && cx.below(DISCARDED_ONE_IN) != 0)
        {
            QueueKind::Valid
        } else {
            QueueKind::Discarded
        };
        let queue = queues.queue(kind);
        let seed = match queue.fresh.back() {
            Some(&newest) => newest,
            None => {
                // The rarest features win, then the least fuzzed seed, then merit, then size.
                let key = |id: SeedId| {
                    let s = queues.seed(id);
                    (
                        Reverse(rarity(s)),
                        Reverse(s.picks),
                        s.merit(),
                        Reverse(s.size),
                    )
                };
                let mut best = queue.pool[cx.below(queue.pool.len())];
                let mut best_key = key(best);
                for _ in 1..TOURNAMENT_SIZE {
                    let other = queue.pool[cx.below(queue.pool.len())];
                    let other_key = key(other);
                    if other_key > best_key {
                        (best, best_key) = (other, other_key);
                    }
                }
                best
            }
        };
        let (fewest, most) = STACKED_MUTATIONS;
        let mutations = if cx.below(STACK_ONE_IN) != 0 {
            UNSTACKED
        } else {
            fewest + cx.below((most - fewest + 1) as usize) as u32
        };
        Pick::Mutate {
            queue: kind,
            seed,
            mutations,
        }
    }

    fn after_run(&self, queues: &mut Queues<T>, queue: QueueKind, seed: SeedId, productive: bool) {
        let capacity = queues.capacity;
        let Some(parent) = queues.get_mut(seed) else {
            return;
        };
        match parent.place() {
            Place::Fresh => {
                parent.energy = parent.energy.saturating_sub(1);
                if productive {
                    reward(parent);
                    parent.energy = parent.energy.max(parent.base_energy);
                }
                if parent.energy == 0 {
                    // Spent: into the pool, whose oldest slot makes room if it is full (the
                    // queue's length is unchanged, so this only happens if the capacity shrank).
                    if queues.queue(queue).pool.len() >= capacity {
                        queues.drop_from_pool(queue, 0);
                    }
                    queues.retire(queue, seed);
                }
            }
            Place::Pool => {
                if productive {
                    // A revisited seed that pays off gets focused again, with doubled energy.
                    reward(parent);
                    parent.energy = parent.base_energy;
                    queues.revive(queue, seed);
                }
            }
        }
    }

    fn energy_scale(&self) -> EnergyScale {
        EnergyScale {
            base: BASE_ENERGY,
            discarded_divisor: DISCARDED_DIVISOR,
        }
    }

    fn admit(&self, queues: &mut Queues<T>, kind: QueueKind, seed: Seed<T>, cx: &mut Context) {
        let queue = queues.queue(kind);
        if queue.len() >= queues.capacity {
            if queue.pool.is_empty() {
                queues.drop_fresh_front(kind);
            } else {
                evict(queues, kind, cx);
            }
        }
        queues.push_fresh(kind, seed);
    }

    fn restarts(&self) -> bool {
        true
    }

    fn shares_work(&self) -> bool {
        true
    }
}

/// Drops the least meritorious of a few random pool seeds of `kind`'s queue.
fn evict<T>(queues: &mut Queues<T>, kind: QueueKind, cx: &mut Context) {
    let pool = &queues.queue(kind).pool;
    let merit = |index: usize| queues.seed(pool[index]).merit();
    let mut worst = cx.below(pool.len());
    for _ in 1..EVICTION_TOURNAMENT_SIZE {
        let other = cx.below(pool.len());
        if merit(other) < merit(worst) {
            worst = other;
        }
    }
    queues.drop_from_pool(kind, worst);
}

/// A seed whose mutant was kept: one more find, and its base energy multiplied (capped).
fn reward<T>(seed: &mut Seed<T>) {
    seed.found += 1;
    seed.base_energy = seed
        .base_energy
        .saturating_mul(PRODUCTIVE_ENERGY_FACTOR)
        .min(MAX_ENERGY);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(value: u8, energy: u32) -> Seed<u8> {
        let mut seed = Seed::new(value, Vec::new(), 0, 1, Vec::new(), 1);
        seed.energy = energy;
        seed.base_energy = energy;
        seed
    }

    fn values(queues: &Queues<u8>, ids: impl IntoIterator<Item = SeedId>) -> Vec<u8> {
        ids.into_iter().map(|id| queues.seed(id).value).collect()
    }

    #[test]
    fn newest_fresh_seed_first_then_the_pool() {
        let mut queues = Queues::new(8);
        let mut cx = Context::new(7);
        let old = queues.push_fresh(QueueKind::Valid, seed(1, 1));
        let new = queues.push_fresh(QueueKind::Valid, seed(2, 1));
        let mut picked = Vec::new();
        while picked.len() < 2 {
            if let Pick::Mutate { seed, queue, .. } =
                DefaultPolicy.pick(&mut queues, &mut cx, &Stagnation::new(), &|_| 0)
            {
                picked.push(seed);
                DefaultPolicy.after_run(&mut queues, queue, seed, false);
            }
        }
        assert_eq!(picked, [new, old], "LIFO");
        assert!(queues.valid.fresh.is_empty());
        assert_eq!(
            queues.valid.pool,
            [new, old],
            "spent seeds are kept in the pool"
        );
    }

    #[test]
    fn a_productive_seed_doubles_its_energy_and_a_productive_pool_seed_is_revived() {
        let mut queues = Queues::new(8);
        let fresh = queues.push_fresh(QueueKind::Valid, seed(1, 3));
        DefaultPolicy.after_run(&mut queues, QueueKind::Valid, fresh, true);
        assert_eq!(queues.seed(fresh).energy, 6);
        assert_eq!(queues.seed(fresh).found, 1);
        let pooled = queues.push_fresh(QueueKind::Valid, seed(2, 1));
        DefaultPolicy.after_run(&mut queues, QueueKind::Valid, pooled, false);
        assert_eq!(queues.seed(pooled).place(), Place::Pool);
        DefaultPolicy.after_run(&mut queues, QueueKind::Valid, pooled, false);
        assert_eq!(
            queues.seed(pooled).place(),
            Place::Pool,
            "unproductive: stays"
        );
        DefaultPolicy.after_run(&mut queues, QueueKind::Valid, pooled, true);
        let revived = queues.seed(pooled);
        assert_eq!((revived.place(), revived.energy), (Place::Fresh, 2));
        assert_eq!(queues.valid.fresh.back(), Some(&pooled));
    }

    #[test]
    fn a_full_queue_evicts_from_the_pool_else_the_oldest_fresh_seed() {
        let mut queues = Queues::new(2);
        let mut cx = Context::new(3);
        DefaultPolicy.admit(&mut queues, QueueKind::Valid, seed(1, 1), &mut cx);
        DefaultPolicy.admit(&mut queues, QueueKind::Valid, seed(2, 1), &mut cx);
        DefaultPolicy.admit(&mut queues, QueueKind::Valid, seed(3, 1), &mut cx);
        assert_eq!(values(&queues, queues.valid.fresh.clone()), [2, 3]);
        let spent = queues.valid.fresh[0];
        DefaultPolicy.after_run(&mut queues, QueueKind::Valid, spent, false);
        DefaultPolicy.admit(&mut queues, QueueKind::Valid, seed(4, 1), &mut cx);
        assert!(
            queues.valid.pool.is_empty(),
            "the only pool seed was evicted"
        );
        assert_eq!(values(&queues, queues.valid.fresh.clone()), [3, 4]);
    }

    #[test]
    fn the_tournament_prefers_rare_features() {
        let mut queues = Queues::new(8);
        let mut cx = Context::new(11);
        let ids: Vec<SeedId> = (0..4)
            .map(|v| queues.push_fresh(QueueKind::Valid, seed(v, 1)))
            .collect();
        for &id in &ids {
            queues.retire(QueueKind::Valid, id);
        }
        // Seed value 2 has the rarest features: over many picks it wins most often.
        let rarity = |s: &Seed<u8>| if s.value == 2 { 1 } else { 100 };
        let mut wins = [0u32; 4];
        for _ in 0..1_000 {
            if let Pick::Mutate { seed, .. } =
                DefaultPolicy.pick(&mut queues, &mut cx, &Stagnation::new(), &rarity)
            {
                wins[usize::from(queues.seed(seed).value)] += 1;
            }
        }
        let best = (0..4).max_by_key(|&i| wins[i]);
        assert_eq!(best, Some(2), "{wins:?}");
    }
}
