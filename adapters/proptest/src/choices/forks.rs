//! The fork budget of a replay: how many streams a replay may derive before its own stream could
//! run dry, watched while proptest builds the value.
//!
//! proptest's pass-through stream gives every stream it derives the second half of what is left
//! and keeps the first half (`TestRng::new_rng_seed`): after `k` derives the replay's own stream
//! has at most `len >> k` of its `len` bytes left, and once they run out it reads zeros, which
//! rand's range samplers (Lemire's method) reject and redraw forever. A union derives one stream
//! per arm before the one it picks (`LazyValueTree::new`), `prop_flat_map` one per value
//! (`FlattenValueTree::new`), both through `TestRunner::partial_clone`, which clones the runner's
//! `Config` — and with it the `failure_persistence`, through `FailurePersistence::box_clone`. A
//! replay runner's persistence is a [`ForkCounter`] (a replay never persists anything), so every
//! derive passes through [`ForkCounter::box_clone`] while the value is built; one derive past
//! the budget ends the build by unwinding with a private marker ([`build`]), before the stream
//! can run dry, and the caller retries with more room.
//!
//! `prop_perturb`, shuffles and samples derive through `TestRunner::new_rng` without cloning the
//! config: they are not counted. A value that reads such a stream is kept as a seed rather than
//! bytes (see [`Recording`](super::Recording)), so they only meet a replay from bytes behind a
//! union arm or a collection element its seed did not draw.

use std::any::Any;
use std::cell::Cell;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};

use proptest::test_runner::{Config as ProptestConfig, FailurePersistence, PersistedSeed};

/// Derives a stream of `len` bytes can afford while keeping `need` bytes for itself: the
/// largest `k` with `len >> k >= need` (0 when even `len < need`).
///
/// Reading before a derive only helps: `r - c` bytes left, halved, is at least `r / 2 - c`, so
/// counting as if every derive came first is safe.
pub(super) fn allowed(len: usize, need: usize) -> u32 {
    (len / need.max(1)).checked_ilog2().unwrap_or(0)
}

/// Bytes of stream that afford `forks` derives while keeping `need` bytes: `need << forks`
/// (saturating).
pub(super) fn room_for(need: usize, forks: u32) -> usize {
    need.saturating_mul(1usize.checked_shl(forks).unwrap_or(usize::MAX))
}

/// The budget of the build running on this thread.
#[derive(Clone, Copy)]
struct Budget {
    forks: u32,
    allowed: u32,
}

thread_local! {
    /// `Some` while a [`build`] runs on this thread.
    static BUDGET: Cell<Option<Budget>> = const { Cell::new(None) };
}

/// The payload a build over budget unwinds with; nothing else throws it.
struct OutOfRoom;

/// Runs `build` (a strategy's `new_tree` on a replay runner whose config holds a
/// [`ForkCounter`]) with `allowed` derives: `None` if it asked for one more (the build was ended
/// there), its result otherwise. Panics other than the budget's go on unwinding.
///
/// Ending the build by unwinding is sound: the strategy is only borrowed (`&S`), the runner and
/// the half-built value tree are the build's own and are dropped, and proptest's `new_tree`
/// holds no lock and no state a drop leaves half-updated (its shared counter is an atomic), so
/// `AssertUnwindSafe` is justified for proptest's strategies. A user's own `Strategy` impl that
/// holds a `Mutex` guard across a union's `new_tree` would find it poisoned.
pub(super) fn build<T>(allowed: u32, build: impl FnOnce() -> T) -> Option<T> {
    struct Disarm(Option<Budget>);
    impl Drop for Disarm {
        fn drop(&mut self) {
            BUDGET.with(|budget| budget.set(self.0));
        }
    }
    // Nested builds keep the outer budget for when they end.
    let _disarm = Disarm(BUDGET.with(|budget| budget.replace(Some(Budget { forks: 0, allowed }))));
    match panic::catch_unwind(AssertUnwindSafe(build)) {
        Ok(built) => Some(built),
        Err(payload) if payload.is::<OutOfRoom>() => None,
        Err(payload) => panic::resume_unwind(payload),
    }
}

/// Counts a derive against the running build's budget and ends the build past it. Outside a
/// build (a finished value tree deriving while proptest shrinks it, a config cloned by hand)
/// it does nothing.
fn count_fork() {
    let over = BUDGET.with(|budget| match budget.get() {
        Some(mut running) => {
            running.forks += 1;
            budget.set(Some(running));
            running.forks > running.allowed
        }
        None => false,
    });
    // With `panic = "abort"` there is no unwinding to end the build with: it goes on, and may
    // run its stream dry (cargo builds tests with unwinding unless nightly `-Zpanic-abort-tests`).
    if over && cfg!(panic = "unwind") {
        // `resume_unwind`, not `panic!`: no panic hook runs and nothing is printed.
        panic::resume_unwind(Box::new(OutOfRoom));
    }
}

/// The parts of a [`FailurePersistence`] that persists nothing (a runner's config that only
/// counts its clones).
macro_rules! persists_nothing {
    () => {
        fn load_persisted_failures2(&self, _: Option<&'static str>) -> Vec<PersistedSeed> {
            Vec::new()
        }

        fn save_persisted_failure2(
            &mut self,
            _: Option<&'static str>,
            _: PersistedSeed,
            _: &dyn fmt::Debug,
        ) {
        }

        fn as_any(&self) -> &dyn Any {
            self
        }
    };
}

/// The failure persistence of a replay runner's config: persists nothing (a replay runner never
/// runs a test) and counts every clone, which is how proptest derives a stream (see the
/// [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ForkCounter;

impl FailurePersistence for ForkCounter {
    persists_nothing!();

    fn box_clone(&self) -> Box<dyn FailurePersistence> {
        count_fork();
        Box::new(ForkCounter)
    }

    fn eq(&self, other: &dyn FailurePersistence) -> bool {
        other.as_any().is::<ForkCounter>()
    }
}

/// `config` with a [`ForkCounter`] as its persistence: the config of a replay runner. Build
/// the runner with it before [`build`] starts (building clones nothing, but cloning this config
/// counts).
pub(super) fn replay_config(config: &ProptestConfig) -> ProptestConfig {
    let mut config = config.clone();
    config.failure_persistence = Some(Box::new(ForkCounter));
    config
}

/// The failure persistence of a recording runner's config: persists nothing and counts every
/// clone of itself. A recording counts with it the streams derived through
/// `TestRunner::partial_clone` (a union's arms before the picked one, a `prop_flat_map` value's
/// runner), which proptest never reads while it builds a value; a stream derived through
/// `TestRunner::new_rng` (`prop_perturb`, shuffles, samples), which a value reads, is not
/// counted (see [`Recording::draw`](super::Recording::draw)).
///
/// The count is the thread's ([`CLONES`]), and the persistence itself holds nothing: proptest
/// clones it for every derived stream, and a value of a recursive strategy derives dozens, so
/// a clone must not allocate (a zero-sized `Box` does not) nor touch a shared counter. A
/// recording reads the count before and after a value is built on its thread, which is where
/// proptest builds it.
#[derive(Debug, Clone, Copy)]
pub(super) struct CloneCount;

thread_local! {
    /// Clones of a [`CloneCount`] made on this thread so far.
    static CLONES: Cell<usize> = const { Cell::new(0) };
}

impl CloneCount {
    /// Clones made on this thread so far: a recording takes the difference around a build.
    pub(super) fn get(&self) -> usize {
        CLONES.with(Cell::get)
    }

    /// `config` with this count as its persistence: the config of a recording runner.
    pub(super) fn config(&self, config: &ProptestConfig) -> ProptestConfig {
        let mut config = config.clone();
        config.failure_persistence = Some(Box::new(CloneCount));
        config
    }
}

impl FailurePersistence for CloneCount {
    persists_nothing!();

    fn box_clone(&self) -> Box<dyn FailurePersistence> {
        CLONES.with(|clones| clones.set(clones.get().wrapping_add(1)));
        Box::new(CloneCount)
    }

    fn eq(&self, other: &dyn FailurePersistence) -> bool {
        other.as_any().is::<CloneCount>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_ends_at_the_first_derive_past_its_budget() {
        let config = replay_config(&ProptestConfig::default());
        for allowed in 0..5 {
            let mut clones = 0;
            let built = build(allowed, || {
                for _ in 0..allowed {
                    let _ = config.clone();
                    clones += 1;
                }
                let _ = config.clone();
                clones += 1;
            });
            assert!(built.is_none(), "budget {allowed}");
            assert_eq!(
                clones, allowed,
                "the build ended in the clone past the budget"
            );
            assert_eq!(
                build(allowed, || (0..allowed).for_each(|_| drop(config.clone()))),
                Some(())
            );
        }
        // Outside a build, clones are free.
        for _ in 0..100 {
            let _ = config.clone();
        }
    }

    #[test]
    fn other_panics_go_on_unwinding_and_disarm() {
        let caught = panic::catch_unwind(|| build(3, || panic!("the user's")));
        assert!(caught.is_err());
        assert!(BUDGET.with(Cell::get).is_none());
        let config = replay_config(&ProptestConfig::default());
        // A nested build restores the outer budget.
        let outer = build(1, || {
            assert_eq!(build(0, || ()), Some(()));
            let _ = config.clone();
            let _ = config.clone();
        });
        assert!(outer.is_none());
    }

    #[test]
    fn room_and_budget_agree() {
        for need in [1, 100, 512, 1000] {
            for forks in 0..12 {
                let len = room_for(need, forks);
                assert_eq!(allowed(len, need), forks);
                assert!(len >> forks >= need && len >> (forks + 1) < need);
                assert_eq!(allowed(len - 1, need), forks.saturating_sub(1));
            }
        }
    }
}
