//! Provenance: how the input under test was made, and what can make it again — the operators
//! applied (its lineage), the [`Recipe`] the crash guards save instead of its bytes (see
//! `artifacts.rs`), and mutation in place with its undo — with the sampled checks that keep
//! each of them honest.
//!
//! A fresh input gets a recipe (its random state and size) when its generator returned what
//! `T::generate` made from that state; a mutant of a copy gets one (its parent's bytes, the
//! random state and the number of mutations) when `T`'s mutation depends only on the value and
//! the context. A mutant made in place is mutated where its seed stands, tested by reference,
//! and put back by the context's undo log. Each promise is checked on the first
//! [`CHECKED_FIRST`] cases of a run and one in [`CHECKED_EVERY`] after; one broken promise
//! turns the mechanism off for the rest of the run. Unit tests check every recipe.

use super::artifacts::{Origin, Recipe};
use crate::corpus::Seed;
use crate::feedback::structure::Focus;
use crate::mutate::ValueHasher;
use crate::{codec, Config, Context, Mutate, Operator};

/// Cases checked from the start of a run (fresh inputs whose recipe is compared before their
/// call, mutants made in place whose seed is compared after the undo).
const CHECKED_FIRST: u64 = 16;
/// Then one case in this many.
const CHECKED_EVERY: u64 = 1024;

/// How the run's inputs are made and remade (see the module docs).
pub(super) struct Provenance {
    /// Operators applied to build the current test.
    pub(super) applied: Vec<Operator>,
    /// Whether mutants can be saved as recipes (`T`'s mutation depends only on the value and
    /// the context; see `RunArtifacts::execute`).
    pub(super) recipes: bool,
    /// Whether fresh inputs can be saved as recipes: `recipes` (hash tables encode apart), and
    /// the generator never caught returning something else than what its `Context::generate`
    /// call made. The returned value is compared with it (by hash) before the call on the first
    /// [`CHECKED_FIRST`] fresh inputs and one in [`CHECKED_EVERY`] after; on the others after
    /// the call, when the input was valid and the distinct count hashes it anyway. One
    /// difference turns fresh recipes off for the rest of the run.
    pub(super) fresh_recipes: bool,
    /// The probe's hash of the fresh input in flight, armed as a recipe without that comparison.
    unverified: Option<u64>,
    /// Whether mutants are made in place ([`mutate_in_place`](Self::mutate_in_place)): until a
    /// seed is caught not coming back as its bytes after a test (checked on the first
    /// [`CHECKED_FIRST`] such tests and one in [`CHECKED_EVERY`] after), which a property that
    /// changes its input through interior mutability, in a part the mutation did not save,
    /// would cause.
    pub(super) in_place: bool,
    /// Tests of mutants made in place so far.
    in_place_tests: u64,
    /// The run's maximum size and operators, which rebuild a recipe (unit tests check every
    /// recipe: [`check_recipe`](Self::check_recipe)).
    #[cfg(test)]
    rebuild_with: (usize, crate::Operators),
}

/// An input made for a test, with what remakes it.
pub(super) struct Made<T> {
    pub(super) input: T,
    /// What the crash guards save instead of encoding the input.
    pub(super) recipe: Option<Recipe>,
    /// The input's [`ValueHasher`] hash, when it was computed already.
    pub(super) hash: Option<u64>,
}

impl Provenance {
    pub(super) fn new<T: Mutate>(config: &Config) -> Self {
        #[cfg(not(test))]
        let _ = config;
        let recipes = crate::fingerprint::mutation_is_replayable::<T>();
        Provenance {
            applied: Vec::new(),
            recipes,
            fresh_recipes: recipes,
            unverified: None,
            in_place: true,
            in_place_tests: 0,
            #[cfg(test)]
            rebuild_with: (config.max_size, config.operators),
        }
    }

    /// The fresh input number `index` of the run, from `generate` at `size`; with a recipe
    /// (its random state and size) if the generator returned what `T::generate` made from them
    /// (see `fresh_recipes`).
    pub(super) fn generate<T: Mutate>(
        &mut self,
        cx: &mut Context,
        generate: &mut impl FnMut(&mut Context) -> T,
        size: usize,
        index: u64,
    ) -> Made<T> {
        cx.set_size(size);
        let state = cx.rng().get_seed();
        if self.fresh_recipes {
            cx.watch_generation();
        }
        let input = generate(cx);
        let end = cx.rng().get_seed();
        let seen = cx.watched_generation().filter(|seen| {
            (seen.start, seen.end, seen.size) == (state, end, size)
                && seen.type_name == std::any::type_name::<T>()
                && seen.hash.is_some()
        });
        let mut hash = None;
        let vouched = match seen {
            None => false,
            Some(seen) if index < CHECKED_FIRST || index % CHECKED_EVERY == 0 => {
                // Kept for the distinct count, which would hash the input again.
                hash = ValueHasher::of(&input);
                self.fresh_recipes = seen.hash == hash;
                self.fresh_recipes
            }
            Some(seen) => {
                self.unverified = seen.hash;
                true
            }
        };
        let recipe = vouched
            .then(|| u32::try_from(size).ok())
            .flatten()
            .map(|size| Recipe {
                state,
                origin: Origin::Generated { size },
            });
        Made {
            input,
            recipe,
            hash,
        }
    }

    /// A mutant of a copy of `seed`: its logged comparisons first (input-to-state, one
    /// candidate per pick; such mutants keep state in the seed and get no recipe), else
    /// `mutations` mutations, with a recipe when mutants can have one.
    pub(super) fn mutate_copy<T: Mutate>(
        &mut self,
        cx: &mut Context,
        seed: &Seed<T>,
        mutations: u32,
    ) -> Made<T> {
        let mut input = seed.value.clone();
        let comparisons = seed.comparisons.as_deref();
        let mut recipe = None;
        if comparisons.is_some_and(|c| c.mutate(&mut input, cx)) {
            self.applied.extend_from_slice(cx.trace());
        } else {
            recipe = Self::mutant_recipe(cx, seed, mutations, comparisons.is_none());
            for _ in 0..mutations {
                let applied = cx.mutate(&mut input);
                self.applied.extend_from_slice(applied);
            }
        }
        Made {
            input,
            recipe,
            hash: None,
        }
    }

    /// The recipe of a mutant about to be made from `seed` by `mutations` mutations, if it
    /// can have one (`replayable`: it is not an input-to-state mutant).
    fn mutant_recipe<T>(
        cx: &mut Context,
        seed: &Seed<T>,
        mutations: u32,
        replayable: bool,
    ) -> Option<Recipe> {
        seed.bytes
            .as_ref()
            .filter(|_| replayable)
            .map(|parent| Recipe {
                state: cx.rng().get_seed(),
                origin: Origin::Seed {
                    parent: parent.clone(),
                    mutations,
                },
            })
    }

    /// A test of a mutant of `seed` made where the seed stands: the mutation saves what it
    /// changes in the context's undo log ([`Mutate::mutate_undoable`]), `test` runs on the
    /// mutant by reference (with its recipe, and where it differs from its seed when the seed's
    /// structure is known), and the saved parts go back, so a test costs what its mutation
    /// changed instead of a clone and a drop of the whole seed. `test` clones what it keeps.
    pub(super) fn mutate_in_place<T: Mutate, Out>(
        &mut self,
        cx: &mut Context,
        seed: &mut Seed<T>,
        mutations: u32,
        test: impl FnOnce(&mut Self, &T, Option<&Recipe>, Option<Focus<'_>>) -> Out,
    ) -> Out {
        let recipe = Self::mutant_recipe(cx, seed, mutations, true);
        #[cfg(test)]
        let before = codec::to_bytes(&seed.value);
        cx.start_undo();
        for _ in 0..mutations {
            let applied = cx.mutate_undoable(&mut seed.value);
            self.applied.extend_from_slice(applied);
        }
        #[cfg(test)]
        self.check_recipe(recipe.as_ref(), &seed.value);
        let focus = cx.changed().filter(|_| seed.structure_known);
        let out = test(self, &seed.value, recipe.as_ref(), focus);
        // SAFETY: `seed` is borrowed mutably from `start_undo` to here, so it has not moved;
        // the mutation changed it only through `mutate_undoable`, and the test read it by
        // shared reference.
        unsafe { cx.undo(&mut seed.value) };
        self.in_place_tests += 1;
        let checked =
            self.in_place_tests <= CHECKED_FIRST || self.in_place_tests % CHECKED_EVERY == 0;
        if let Some(bytes) = seed.bytes.as_ref().filter(|_| checked) {
            if codec::to_bytes(&seed.value) != **bytes {
                // Changed by the property (a `Cell` inside the input, say) where the mutation
                // saved nothing: the seed is rebuilt, and mutants are copies from here on.
                self.in_place = false;
                seed.value = codec::from_bytes(bytes);
            }
        }
        #[cfg(test)]
        assert!(
            !self.in_place || codec::to_bytes(&seed.value) == before,
            "undoing a mutation gives the seed back"
        );
        out
    }

    /// The hash `T::generate` gave the fresh input about to be tested, when its recipe was
    /// armed without comparing it before the call; the test compares it after the call
    /// ([`caught_changed_generator`](Self::caught_changed_generator)). Taken by every test.
    pub(super) fn take_unverified(&mut self) -> Option<u64> {
        self.unverified.take()
    }

    /// The generator changed what `generate` made: no more fresh recipes this run.
    pub(super) fn caught_changed_generator(&mut self) {
        self.fresh_recipes = false;
    }

    /// Every unit test of the engine checks that recipes rebuild their inputs.
    #[cfg(test)]
    pub(super) fn check_recipe<T: Mutate>(&self, recipe: Option<&Recipe>, input: &T) {
        let Some(recipe) = recipe else {
            return;
        };
        let (max_size, operators) = self.rebuild_with;
        let rebuilt = Recipe::rebuild::<T>(&recipe.to_bytes(), max_size, operators);
        let same = rebuilt.map(|value| codec::to_bytes(&value)) == Some(codec::to_bytes(input));
        // A fresh recipe armed before its comparison may be wrong only where the comparison
        // after the call tells.
        let caught = self.unverified.is_some() && self.unverified != ValueHasher::of(input);
        assert!(same || caught, "a recipe rebuilds its input: {recipe:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzzer::{check, Fuzzer};

    #[test]
    fn mutants_of_hash_tables_get_no_recipe() {
        // A `HashMap`'s iteration order differs between equal maps, and its mutation follows
        // that order, so a recipe would rebuild another mutant: `fuzz_one`'s test-only check
        // (every recipe rebuilds its mutant) fails if such mutants get recipes.
        use std::collections::{HashMap, HashSet};
        assert!(!crate::fingerprint::mutation_is_replayable::<
            Vec<HashMap<u8, u8>>,
        >());
        assert!(!crate::fingerprint::mutation_is_replayable::<(
            u8,
            HashSet<u8>
        )>());
        assert!(crate::fingerprint::mutation_is_replayable::<
            Vec<(u8, String)>,
        >());
        let config = Config::default()
            .with_seed(4)
            .with_max_size(8)
            .with_cases(u64::MAX)
            .with_max_tests(5_000)
            .with_progress(false);
        let report = check(&config, |cx| cx.generate::<HashMap<u8, u8>>(), |_| ());
        assert!(report.stats.mutated > 1_000, "{:?}", report.stats);
    }

    #[test]
    fn fresh_inputs_get_a_recipe_only_when_the_generator_returned_what_generate_made() {
        // `fuzz_one`'s test-only check (every recipe rebuilds its input, here by `T::generate`
        // from the recipe's random state) fails if any of these generators' inputs get one.
        let config = Config::default()
            .with_seed(6)
            .with_schedule(crate::Schedule::Generate)
            .with_cases(u64::MAX)
            .with_max_tests(2_000)
            .with_progress(false);
        let mut calls = 0u8;
        let changed = check(
            &config,
            |cx| {
                calls = calls.wrapping_add(1);
                cx.generate::<u8>().wrapping_add(calls)
            },
            |_| (),
        );
        let drawn_after = check(
            &config,
            |cx| {
                let x = cx.generate::<u16>();
                x ^ u16::from(cx.rng().bool())
            },
            |_| (),
        );
        let drawn_after_unchanged = check(
            &config,
            |cx| {
                let x = cx.generate::<u16>();
                cx.rng().bool();
                x
            },
            |_| (),
        );
        let drawn_before = check(
            &config,
            |cx| {
                cx.rng().bool();
                cx.generate::<u16>()
            },
            |_| (),
        );
        let another_type = check(&config, |cx| cx.generate::<(u32, u8)>().0, |_| ());
        let another_size = check(&config, |cx| cx.generate_sized::<Vec<u8>>(3), |_| ());
        let plain = check(&config, |cx| cx.generate::<Vec<u8>>(), |_| ());
        for report in [
            changed.stats,
            drawn_after.stats,
            drawn_after_unchanged.stats,
        ]
        .into_iter()
        .chain([drawn_before.stats, another_type.stats])
        .chain([another_size.stats, plain.stats])
        {
            assert_eq!(report.generated, 2_000, "{report:?}");
        }
    }

    #[test]
    fn a_generator_caught_changing_its_value_later_loses_fresh_recipes() {
        let config = Config::default()
            .with_seed(2)
            .with_schedule(crate::Schedule::Generate)
            .with_progress(false);
        let mut calls = 0u64;
        let generate = |cx: &mut Context| {
            calls += 1;
            let x: u32 = cx.generate();
            if calls > 2 * CHECKED_FIRST {
                x ^ 1
            } else {
                x
            }
        };
        let mut fuzzer = Fuzzer::new(&config, generate, |_: &u32| ());
        for _ in 0..2 * CHECKED_FIRST {
            assert!(fuzzer.fuzz_one().is_none());
        }
        assert!(fuzzer.provenance.fresh_recipes, "the checked start passed");
        assert!(fuzzer.fuzz_one().is_none());
        assert!(
            !fuzzer.provenance.fresh_recipes,
            "the first changed value is caught after its call"
        );
    }
}
