//! The [`Policy`] trait: what one schedule decides, and which policy each [`Schedule`] uses.

use super::{
    default::DefaultPolicy, fuzzchick::FuzzChick, generate::GenerateOnly, Pick, Stagnation,
};
use crate::corpus::{QueueKind, Queues, Seed, SeedId};
use crate::{Context, Schedule};

/// The base energy of a new seed and how much less a discarded one gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct EnergyScale {
    /// Energy of a valid seed of average novelty at depth 0.
    pub(crate) base: f64,
    /// A discarded seed gets `1 / discarded_divisor` of a valid one's energy.
    pub(crate) discarded_divisor: f64,
}

/// One seed-scheduling policy.
///
/// Contract, as the [`Scheduler`](super::Scheduler) uses it, once per test:
/// [`pick`](Policy::pick), then the property runs, then [`after_run`](Policy::after_run) for a
/// [`Pick::Mutate`] (the seed's `picks` already counted), then [`admit`](Policy::admit) if the
/// test was kept. The seed named by a pick is still kept when `after_run` is called; `after_run`
/// and `admit` may move seeds between a queue's lists or drop them, through the [`Queues`]
/// methods, which keep ids valid.
pub(crate) trait Policy<T> {
    /// Chooses the next test. May drop exhausted seeds on the way.
    fn pick(
        &self,
        queues: &mut Queues<T>,
        cx: &mut Context,
        stagnation: &Stagnation,
        rarity: &dyn Fn(&Seed<T>) -> u64,
    ) -> Pick;

    /// Spends energy on seed `seed` of queue `queue` after one of its mutants ran, rewarding it
    /// if the mutant was `productive` (kept as a new seed).
    fn after_run(&self, queues: &mut Queues<T>, queue: QueueKind, seed: SeedId, productive: bool);

    /// How much energy new seeds get.
    fn energy_scale(&self) -> EnergyScale;

    /// Keeps (or refuses) a new seed, whose energy is set, in `kind`'s queue, which is bounded
    /// by `queues.capacity`.
    fn admit(&self, queues: &mut Queues<T>, kind: QueueKind, seed: Seed<T>, cx: &mut Context);

    /// Whether a long stagnation starts the search over.
    fn restarts(&self) -> bool;

    /// Whether fresh generation and mutation share the work (see [`arms`](super::arms)); the
    /// policy's `pick` then only picks seeds to mutate (or generates while the queues are
    /// empty).
    fn shares_work(&self) -> bool {
        false
    }
}

/// The policy of `schedule`.
pub(crate) fn for_schedule<T>(schedule: Schedule) -> Box<dyn Policy<T>> {
    match schedule {
        Schedule::FuzzChick => Box::new(FuzzChick),
        Schedule::Default => Box::new(DefaultPolicy),
        Schedule::Generate => Box::new(GenerateOnly),
    }
}
