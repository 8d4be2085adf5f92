//! The generate-only policy ([`Schedule::Generate`](crate::Schedule::Generate)): every test is
//! a fresh generation, as in plain QuickCheck or proptest — the baseline the other schedules are
//! measured against.

use super::policy::{EnergyScale, Policy};
use super::{Pick, Stagnation};
use crate::corpus::{QueueKind, Queues, Seed, SeedId};
use crate::Context;

/// Always generates. Interesting inputs still count as found (and go to the corpus directory),
/// but none is kept in memory, since none would ever be mutated.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GenerateOnly;

impl<T> Policy<T> for GenerateOnly {
    fn pick(
        &self,
        _: &mut Queues<T>,
        _: &mut Context,
        _: &Stagnation,
        _: &dyn Fn(&Seed<T>) -> u64,
    ) -> Pick {
        Pick::Generate
    }

    fn after_run(&self, _: &mut Queues<T>, _: QueueKind, _: SeedId, _: bool) {
        // Never picked a seed: nothing to spend.
    }

    fn energy_scale(&self) -> EnergyScale {
        // Seeds are never mutated; any scale will do.
        EnergyScale {
            base: 1.0,
            discarded_divisor: 1.0,
        }
    }

    fn admit(&self, _: &mut Queues<T>, _: QueueKind, _: Seed<T>, _: &mut Context) {}

    fn restarts(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Seed;

    #[test]
    fn always_generates_and_keeps_nothing() {
        let mut queues = Queues::new(4);
        let mut cx = Context::new(1);
        Policy::<u8>::admit(
            &GenerateOnly,
            &mut queues,
            QueueKind::Valid,
            Seed::new(1u8, Vec::new(), 0, 1, Vec::new(), 1),
            &mut cx,
        );
        assert!(queues.is_empty());
        let pick = GenerateOnly.pick(
            &mut queues,
            &mut cx,
            &super::super::Stagnation::new(),
            &|_| 0,
        );
        assert_eq!(pick, Pick::Generate);
    }
}
