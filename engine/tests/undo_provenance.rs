//! The engine's in-place mutation under Miri: every place the undo log writes back is reached
//! through a pointer derived afresh from the value's root, which Rust's aliasing models accept
//! (a pointer kept from the mutation's `&mut` is stale by then: later mutations and the
//! property reborrowed the value). Run it as
//!
//! ```text
//! cargo +nightly miri test -p typefuzz-engine --test undo_provenance
//! MIRIFLAGS=-Zmiri-tree-borrows cargo +nightly miri test -p typefuzz-engine --test undo_provenance
//! ```
//!
//! Without Miri it is one more check that stacked in-place mutations make the same mutant as
//! mutations of a copy and are undone exactly. Budgets are small: Miri runs ~1000x slower.

use std::collections::VecDeque;

use typefuzz::{check, Config, Context, Mutate};

/// A recursive type through `Box` and `Vec`, with inline fields in every variant.
#[derive(Clone, Debug, PartialEq, Mutate)]
enum Term {
    Num(i16),
    Neg(Box<Term>),
    Add(Box<Term>, Box<Term>),
    Call(u8, Vec<Term>),
}

/// A struct holding each kind of container the undo hops into.
#[derive(Clone, Debug, PartialEq, Mutate)]
struct Program {
    name: String,
    body: Vec<Term>,
    queue: VecDeque<Option<Box<u8>>>,
    pair: (u8, Option<Box<Term>>),
    regs: [u16; 3],
}

/// `rounds` of [`check_undo`](typefuzz::__private::check_undo) on values of `T` from `seeds`
/// seeds, stacking 1 to 4 mutations each, the value mutated on between rounds.
fn undo_rounds<T: Mutate + std::fmt::Debug>(seeds: u64, rounds: usize, max_size: usize) {
    for seed in 0..seeds {
        let mut cx = Context::new(seed).with_max_size(max_size);
        let mut value: T = cx.generate();
        for round in 0..rounds {
            if let Err(problem) =
                typefuzz::__private::check_undo(&mut value, &mut cx, 1 + round % 4)
            {
                panic!("seed {seed}, round {round}: {problem}");
            }
            cx.mutate(&mut value);
        }
    }
}

#[test]
fn recursive_terms_are_undone_through_boxes_and_vectors() {
    undo_rounds::<Term>(
        if cfg!(miri) { 3 } else { 200 },
        if cfg!(miri) { 12 } else { 40 },
        8,
    );
}

/// Subterm replacement in place moves the subterm up and keeps the old node (a placeholder
/// where the subterm was) for the undo, which moves the subterm back down into it: here it is
/// two mutations in three, at every depth (the others descend into a field), stacked up to four
/// deep, on fresh terms each round.
#[test]
fn subterms_moved_up_are_moved_back_down() {
    let mut operators = typefuzz::Operators::default();
    (operators.recursive, operators.subterm) = (1, 2);
    (operators.drop, operators.grow, operators.regenerate) = (0, 0, 0);
    let (seeds, rounds) = if cfg!(miri) { (3, 12) } else { (200, 40) };
    for seed in 0..seeds {
        let mut cx = Context::new(seed)
            .with_max_size(8)
            .with_operators(operators);
        for round in 0..rounds {
            let mut value: Term = cx.generate();
            if let Err(problem) =
                typefuzz::__private::check_undo(&mut value, &mut cx, 1 + round % 4)
            {
                panic!("seed {seed}, round {round}: {problem}");
            }
        }
    }
}

#[test]
fn every_container_kind_is_undone() {
    undo_rounds::<Program>(
        if cfg!(miri) { 3 } else { 200 },
        if cfg!(miri) { 12 } else { 40 },
        6,
    );
}

#[test]
fn std_values_are_undone() {
    undo_rounds::<(Vec<Option<u8>>, [u16; 4], String, Box<Vec<u8>>)>(
        if cfg!(miri) { 3 } else { 200 },
        if cfg!(miri) { 12 } else { 40 },
        6,
    );
}

/// The whole loop: `typefuzz::check` mutates seeds in place and runs the property on them by
/// reference between the mutation and the undo. What it checks is Miri's: every write of the
/// undo goes through a pointer the aliasing models accept. Natively it only checks that the loop
/// mutated seeds; the exactness of the undo is the `check_undo` tests' above.
#[test]
fn the_engine_loop_mutates_seeds_in_place_soundly() {
    fn depth(term: &Term) -> usize {
        match term {
            Term::Num(_) => 1,
            Term::Neg(a) => 1 + depth(a),
            Term::Add(a, b) => 1 + depth(a).max(depth(b)),
            Term::Call(_, args) => 1 + args.iter().map(depth).max().unwrap_or(0),
        }
    }
    let tests = if cfg!(miri) { 300 } else { 20_000 };
    let config = Config::default()
        .with_seed(7)
        .with_max_size(8)
        .with_cases(u64::MAX)
        .with_max_tests(tests)
        .with_progress(false);
    // Structure feedback (on by default) keeps seeds, which the schedule then mutates.
    let report = check(
        &config,
        |cx| cx.generate::<Term>(),
        |term| {
            assert!(depth(term) > 0);
        },
    );
    let stats = report.assert_passed();
    assert!(stats.mutated > tests / 4, "{stats:?}");
}
