//! Union-heavy values replay without hanging. proptest's pass-through stream gives every stream
//! a union derives (one per arm before the picked one) half of what is left, and reads zeros once
//! its bytes run out, which rand's range samplers redraw forever. A mutant of a vector of unions
//! that picks later arms than its seed did used to exhaust its stream that way, and the engine's
//! watchdog ended the test process (exit 70): a failure plain proptest never shows. The replay
//! now counts the streams it derives and retries with more room, or, past a cap, builds a fresh
//! value of the strategy ([`typefuzz_proptest::choices`]).
//!
//! Each property holds on its strategy's image and feeds the engine a precondition and a target,
//! so inputs are kept and mutated without coverage instrumentation. A hang ends the process
//! after the engine's per-test limit (10 s; `TYPEFUZZ_TEST_TIMEOUT=2s` shortens it).

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};

fn config(cases: u32, seed: u64) -> ProptestConfig {
    let mut config = ProptestConfig::with_cases(cases);
    config.failure_persistence = None;
    config.rng_seed = RngSeed::Fixed(seed);
    config
}

#[derive(Clone, Debug)]
enum Expr {
    Number(u8),
    Variable(char),
    Add(Box<Expr>, Box<Expr>),
    Negate(Box<Expr>),
    Sum(Vec<Expr>),
}

impl Expr {
    fn is_well_formed(&self) -> bool {
        match self {
            Expr::Number(n) => (1..100).contains(n),
            Expr::Variable(c) => c.is_ascii_lowercase(),
            Expr::Add(a, b) => a.is_well_formed() && b.is_well_formed(),
            Expr::Negate(e) => e.is_well_formed(),
            Expr::Sum(terms) => {
                (1..5).contains(&terms.len()) && terms.iter().all(Expr::is_well_formed)
            }
        }
    }

    fn size(&self) -> usize {
        match self {
            Expr::Number(_) | Expr::Variable(_) => 1,
            Expr::Add(a, b) => 1 + a.size() + b.size(),
            Expr::Negate(e) => 1 + e.size(),
            Expr::Sum(terms) => 1 + terms.iter().map(Expr::size).sum::<usize>(),
        }
    }
}

/// Nested unions: `prop_recursive` (a union of the leaf and the recursive case at every level)
/// around `prop_oneof!`s of ranges, whose samplers redraw zeros.
fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (1..100u8).prop_map(Expr::Number),
        proptest::char::range('a', 'z').prop_map(Expr::Variable),
    ];
    leaf.prop_recursive(4, 48, 4, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Add(Box::new(a), Box::new(b))),
            inner.clone().prop_map(|e| Expr::Negate(Box::new(e))),
            vec(inner, 1..5).prop_map(Expr::Sum),
        ]
    })
}

typefuzz::proptest! {
    #![proptest_config(config(5_000, 7))]

    /// The reproduction: a vector of three-arm unions of ranges, which hung on seed 7.
    #[test]
    fn vectors_of_unions_replay(
        v in vec(prop_oneof![Just(0u8), 1..10u8, 10..20u8], 0..60),
        gate: u16,
    ) {
        prop_assume!(gate % 3 != 0);
        typefuzz::target!(v.iter().filter(|&&x| x >= 10).count() as f64);
        prop_assert!(v.len() < 60);
        prop_assert!(v.iter().all(|&x| x < 20));
    }

    /// Nested unions and `prop_recursive`: every mutant replays to a well-formed expression.
    #[test]
    fn nested_unions_replay(e in expr(), gate: u16) {
        prop_assume!(gate % 3 != 0);
        typefuzz::target!(e.size() as f64);
        prop_assert!(e.is_well_formed(), "{:?}", e);
    }
}
