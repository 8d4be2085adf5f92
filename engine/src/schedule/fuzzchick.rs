//! The FuzzChick policy ([`Schedule::FuzzChick`](crate::Schedule::FuzzChick)): Algorithm 3 of
//! the FuzzChick paper, faithfully, for comparison.
//!
//! QSucc's head is mutated while it has energy (then dropped); when QSucc is empty, QDisc's head
//! likewise, and when QDisc's head runs out the test is a fresh generation; with both empty,
//! generation. New seeds join the back of their queue with AFL-style energy, discarded ones a
//! third of it. One mutation per test. A full queue refuses new seeds. Only the fresh lists are
//! used (as FIFOs); the search never restarts.

use super::policy::{EnergyScale, Policy};
use super::{Pick, Stagnation};
use crate::corpus::{QueueKind, Queues, Seed, SeedId};
use crate::Context;

/// The paper's base energy (AFL's).
const BASE_ENERGY: f64 = 100.0;
/// Discarded seeds get a third of a valid seed's energy.
const DISCARDED_DIVISOR: f64 = 3.0;
/// Mutations per test: one, as in the paper.
const MUTATIONS: u32 = 1;

/// Algorithm 3 of the paper.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FuzzChick;

impl<T> Policy<T> for FuzzChick {
    fn pick(
        &self,
        queues: &mut Queues<T>,
        _: &mut Context,
        _: &Stagnation,
        _: &dyn Fn(&Seed<T>) -> u64,
    ) -> Pick {
        // Exhausted heads are dropped as they are met ("PICK again").
        while let Some(&head) = queues.valid.fresh.front() {
            if queues.seed(head).energy > 0 {
                return mutate(QueueKind::Valid, head);
            }
            queues.drop_fresh_front(QueueKind::Valid);
        }
        match queues.discarded.fresh.front() {
            Some(&head) if queues.seed(head).energy > 0 => mutate(QueueKind::Discarded, head),
            Some(_) => {
                // QDisc's head is exhausted: drop it and use the generator this time.
                queues.drop_fresh_front(QueueKind::Discarded);
                Pick::Generate
            }
            None => Pick::Generate,
        }
    }

    fn after_run(&self, queues: &mut Queues<T>, queue: QueueKind, seed: SeedId, productive: bool) {
        let Some(parent) = queues.get_mut(seed) else {
            return;
        };
        parent.energy = parent.energy.saturating_sub(1);
        if productive {
            parent.found += 1;
        }
        if parent.energy == 0 {
            queues.drop_fresh(queue, seed);
        }
    }

    fn energy_scale(&self) -> EnergyScale {
        EnergyScale {
            base: BASE_ENERGY,
            discarded_divisor: DISCARDED_DIVISOR,
        }
    }

    fn admit(&self, queues: &mut Queues<T>, kind: QueueKind, seed: Seed<T>, _: &mut Context) {
        if queues.queue(kind).len() < queues.capacity {
            queues.push_fresh(kind, seed);
        }
    }

    fn restarts(&self) -> bool {
        false
    }
}

fn mutate(queue: QueueKind, seed: SeedId) -> Pick {
    Pick::Mutate {
        queue,
        seed,
        mutations: MUTATIONS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(value: u8, energy: u32) -> Seed<u8> {
        let mut seed = Seed::new(value, Vec::new(), 0, 1, Vec::new(), 1);
        seed.energy = energy;
        seed
    }

    fn pick(queues: &mut Queues<u8>) -> Pick {
        FuzzChick.pick(queues, &mut Context::new(1), &Stagnation::new(), &|_| 0)
    }

    #[test]
    fn valid_head_until_spent_then_discarded_head_then_generation() {
        let mut queues = Queues::new(4);
        let valid = queues.push_fresh(QueueKind::Valid, seed(1, 2));
        let discarded = queues.push_fresh(QueueKind::Discarded, seed(2, 1));
        for productive in [true, false] {
            let next = pick(&mut queues);
            assert_eq!(next, mutate(QueueKind::Valid, valid));
            FuzzChick.after_run(&mut queues, QueueKind::Valid, valid, productive);
        }
        assert!(queues.get(valid).is_none(), "a spent head is dropped");
        assert_eq!(pick(&mut queues), mutate(QueueKind::Discarded, discarded));
        FuzzChick.after_run(&mut queues, QueueKind::Discarded, discarded, false);
        assert_eq!(pick(&mut queues), Pick::Generate);
        assert!(queues.is_empty());
    }

    #[test]
    fn an_exhausted_discarded_head_yields_one_generation() {
        let mut queues = Queues::new(4);
        queues.push_fresh(QueueKind::Discarded, seed(1, 0));
        let next = queues.push_fresh(QueueKind::Discarded, seed(2, 5));
        assert_eq!(pick(&mut queues), Pick::Generate);
        assert_eq!(pick(&mut queues), mutate(QueueKind::Discarded, next));
    }

    #[test]
    fn a_full_queue_refuses_new_seeds() {
        let mut queues = Queues::new(1);
        let mut cx = Context::new(1);
        FuzzChick.admit(&mut queues, QueueKind::Valid, seed(1, 3), &mut cx);
        FuzzChick.admit(&mut queues, QueueKind::Valid, seed(2, 3), &mut cx);
        let kept: Vec<u8> = (queues.valid.fresh.iter())
            .map(|&id| queues.seed(id).value)
            .collect();
        assert_eq!(kept, [1]);
    }
}
