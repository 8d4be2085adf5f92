//! No false failures: properties that hold only on their strategies' images (non-empty `vec`s,
//! regex strings, `prop_map`-built invariants, `prop_recursive` trees, filters, unions,
//! `prop_flat_map`, ranges, `Just`, floats without NaN) pass under `typefuzz::proptest!` for
//! 10,000 cases, while the engine mutates (each property feeds the engine a precondition and a
//! target, so inputs are kept and mutated even without coverage instrumentation).

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};

/// Feedback that makes the engine keep and mutate inputs even without instrumentation: a
/// precondition (discards switch on the engine's valid-size feedback) and a target to climb.
macro_rules! feedback {
    ($gate:expr, $climb:expr) => {
        prop_assume!($gate % 3 != 0);
        typefuzz::target!($climb as f64);
    };
}

fn ten_thousand_cases() -> ProptestConfig {
    let mut config = ProptestConfig::with_cases(10_000);
    config.failure_persistence = None;
    config.rng_seed = RngSeed::Fixed(11);
    config
}

#[derive(Clone, Debug)]
enum Tree {
    Leaf(u8),
    Node(Vec<Tree>),
}

impl Tree {
    fn depth(&self) -> usize {
        match self {
            Tree::Leaf(_) => 0,
            Tree::Node(children) => 1 + children.iter().map(Tree::depth).max().unwrap_or(0),
        }
    }

    fn leaves_below_ten(&self) -> bool {
        match self {
            Tree::Leaf(x) => *x < 10,
            Tree::Node(children) => children.iter().all(Tree::leaves_below_ten),
        }
    }

    fn nodes_non_empty(&self) -> bool {
        match self {
            Tree::Leaf(_) => true,
            Tree::Node(children) => {
                !children.is_empty() && children.iter().all(Tree::nodes_non_empty)
            }
        }
    }
}

fn tree() -> impl Strategy<Value = Tree> {
    (0..10u8)
        .prop_map(Tree::Leaf)
        .prop_recursive(3, 32, 4, |inner| vec(inner, 1..4).prop_map(Tree::Node))
}

/// A value whose invariant only `prop_map` establishes.
#[derive(Clone, Debug)]
struct Sorted(Vec<i32>);

fn sorted() -> impl Strategy<Value = Sorted> {
    vec(any::<i32>(), 0..16).prop_map(|mut v| {
        v.sort();
        Sorted(v)
    })
}

typefuzz::proptest! {
    #![proptest_config(ten_thousand_cases())]

    #[test]
    fn non_empty_vecs(v in vec(any::<u8>(), 1..20), gate: u16) {
        feedback!(gate, v.len());
        prop_assert!(!v.is_empty() && v.len() < 20, "len {}", v.len());
    }

    #[test]
    fn regex_strings(s in "[a-z]{1,8}", t in "(ab|cd)+x", gate: u16) {
        feedback!(gate, s.len() + t.len());
        prop_assert!((1..=8).contains(&s.len()), "{:?}", s);
        prop_assert!(s.bytes().all(|b| b.is_ascii_lowercase()), "{:?}", s);
        prop_assert!(t.ends_with('x') && t.len() % 2 == 1, "{:?}", t);
    }

    #[test]
    fn prop_map_invariants(p in (0..1000u32).prop_map(|x| (x, 2 * x)), s in sorted(), gate: u16) {
        feedback!(gate, p.0);
        prop_assert_eq!(p.1, 2 * p.0);
        prop_assert!(s.0.windows(2).all(|w| w[0] <= w[1]), "{:?}", s);
    }

    #[test]
    fn prop_recursive_trees(t in tree(), gate: u16) {
        feedback!(gate, t.depth());
        prop_assert!(t.depth() <= 3, "{:?}", t);
        prop_assert!(t.leaves_below_ten() && t.nodes_non_empty(), "{:?}", t);
    }

    #[test]
    fn filters_unions_and_flat_maps(
        even in any::<u32>().prop_filter("even", |x| x % 2 == 0),
        pick in prop_oneof![Just(1u8), 10..20u8],
        (n, v) in (1..10usize).prop_flat_map(|n| (Just(n), vec(any::<bool>(), n))),
        gate: u16,
    ) {
        feedback!(gate, even);
        prop_assert!(even % 2 == 0);
        prop_assert!(pick == 1 || (10..20).contains(&pick), "{}", pick);
        prop_assert_eq!(v.len(), n);
    }

    #[test]
    fn ranges_just_and_floats(
        a in -1000..1000i32,
        b in 1..10u8,
        f in 0.0..1.0f64,
        x: f64,
        j in Just(7u8),
        gate: u16,
    ) {
        feedback!(gate, a);
        prop_assert!((-1000..1000).contains(&a) && (1..10).contains(&b));
        prop_assert!((0.0..1.0).contains(&f), "{}", f);
        prop_assert!(x.is_finite(), "any::<f64>() has no NaN or infinity: {}", x);
        prop_assert_eq!(j, 7);
    }

    #[test]
    fn any_of_std_types_keeps_proptest_bounds(v: Vec<u8>, s: String, gate: u16) {
        feedback!(gate, v.len());
        prop_assert!(v.len() < 100, "any::<Vec<_>>() is 0..100 long: {}", v.len());
        prop_assert!(!s.chars().any(char::is_control), "any::<String>() has no control characters: {:?}", s);
    }
}

/// The function API mutates strategy-built values too, and they stay in the image.
#[test]
fn the_engine_mutates_choice_sequences() {
    let report = typefuzz::proptest::run(
        (vec("[a-z]{1,3}", 1..6), any::<u16>()),
        &ten_thousand_cases(),
        |(words, gate)| {
            feedback!(gate, words.len());
            prop_assert!((1..6).contains(&words.len()));
            prop_assert!(words
                .iter()
                .all(|w| (1..=3).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_lowercase())));
            Ok(())
        },
    );
    assert!(report.passed(), "{:?}", report.failure);
    assert!(report.stats.valid >= 10_000, "{:#?}", report.stats);
    assert!(
        report.stats.mutated > 1000,
        "mutants were tested: {:#?}",
        report.stats
    );
}

/// A real failure inside the image is still found, and shrunk inside it.
#[test]
fn real_failures_are_found_and_shrunk_in_the_image() {
    let report = typefuzz::proptest::run(vec(10..100u32, 1..10), &ten_thousand_cases(), |v| {
        prop_assert!(v.iter().sum::<u32>() < 300, "sum {}", v.iter().sum::<u32>());
        Ok(())
    });
    let failure = report
        .failure
        .expect("sums of up to 9 values in 10..100 reach 300");
    let minimal = failure.minimal;
    assert!(minimal.iter().all(|x| (10..100).contains(x)), "{minimal:?}");
    assert!(minimal.iter().sum::<u32>() >= 300, "{minimal:?}");
    // Shrunk to a local minimum: lowering any value or removing any one makes the sum pass.
    assert_eq!(minimal.iter().sum::<u32>(), 300, "{minimal:?}");
    for i in 0..minimal.len() {
        let mut fewer = minimal.clone();
        fewer.remove(i);
        assert!(fewer.iter().sum::<u32>() < 300, "{minimal:?} without {i}");
    }
}
