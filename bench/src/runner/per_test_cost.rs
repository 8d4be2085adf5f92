//! Per-test cost of the drop-ins: `typefuzz::quickcheck` and
//! `typefuzz::proptest!` against plain quickcheck and plain proptest, with the same generator
//! and the same property, on terms of about 50 nodes, side by side in one run.
//!
//! ```text
//! cargo run --release -p typefuzz-bench -- per-test-cost [TESTS] [ROUNDS] [--sides TEXT]
//! cargo run --release -p typefuzz-bench -- mutant-size [SEEDS]
//! ```
//!
//! Each round runs every side once, in turn, for `TESTS` passing tests (default 20,000), so a
//! change in the machine's load hits all sides alike; the table sums the rounds (default 3)
//! and gives each drop-in's ratio to its plain framework in tests/s and in nodes/s (nodes of
//! the inputs the property saw: a drop-in that ran smaller inputs would gain tests/s and lose
//! nodes/s), with the per-round ratios. The property passes, so every side runs all its tests.
//!
//! Sides:
//! - quickcheck: `QuickCheck::new().tests(n).quickcheck(prop)` plain; the drop-in's builder
//!   with the same `Arbitrary` impl (`Term` has no `Mutate` there: the `Arbitrary` genotype,
//!   what a suite gets from the macro path alone); the drop-in on a type that also derives
//!   `Mutate` (typed mutation, what `typefuzz::quickcheck!` does once the derive is added).
//! - proptest: `proptest!(config, |(t in term())| ...)` plain and `typefuzz::proptest!` with the
//!   same `prop_recursive` strategy (choice sequences; unions are regenerated), and
//!   `|(t: Term)|` plain and drop-in (typed mutation through the derive).
//!
//! `--sides TEXT` runs only the sides whose name contains the text (for profiling).
//!
//! `mutant-size [SEEDS]` measures where mutants' size goes instead (no timing): for each
//! workload (this file's terms, the throughput workloads' terms, machines and BST trees, each
//! from its quickcheck generator), the mean nodes of the seeds and of one mutant per seed, per
//! operator (the innermost one the mutation recorded), and the mean nodes after a chain of
//! mutations (each mutant mutated again, as kept mutants are in the engine's queue).
//!
//! A term of `n` nodes is built by splitting `n - 1` between an operator's operands, `n`
//! uniform in 25..=75 (quickcheck); the proptest strategy is `prop_recursive` with a desired
//! size that gives about 48 nodes on average (its sizes vary: nodes/s is the fair measure).

use std::cell::Cell;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;

use super::cli::PerTestCostArgs;

/// An arithmetic term: the recursive input.
#[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
enum Term {
    Var(u8),
    Lit(i32),
    Neg(Box<Term>),
    Add(Box<Term>, Box<Term>),
    Mul(Box<Term>, Box<Term>),
}

/// The same term for quickcheck without a `Mutate` impl (the `Arbitrary` genotype).
#[derive(Clone, Debug)]
struct Plain(Term);

thread_local! {
    /// Nodes of the inputs the property saw.
    static NODES: Cell<u64> = const { Cell::new(0) };
}

/// The term's value (variables are `7 * index`) and its node count, with `swap` evaluating
/// every operator's operands in the other order.
fn eval(term: &Term, swap: bool) -> (i32, u64) {
    match term {
        Term::Var(v) => (i32::from(*v) * 7, 1),
        Term::Lit(n) => (*n, 1),
        Term::Neg(t) => {
            let (value, nodes) = eval(t, swap);
            (value.wrapping_neg(), nodes + 1)
        }
        Term::Add(a, b) | Term::Mul(a, b) => {
            let (a, b) = if swap { (b, a) } else { (a, b) };
            let ((x, m), (y, n)) = (eval(a, swap), eval(b, swap));
            let value = if matches!(term, Term::Add(..)) {
                x.wrapping_add(y)
            } else {
                x.wrapping_mul(y)
            };
            (value, m + n + 1)
        }
    }
}

/// The property: addition and multiplication commute (wrapping), so swapping every operator's
/// operands keeps the value. Counts the input's nodes.
fn commutes(term: &Term) -> bool {
    let (value, nodes) = eval(term, false);
    NODES.with(|n| n.set(n.get() + nodes));
    value == eval(term, true).0
}

/// A term of exactly `nodes` nodes from quickcheck's generator.
fn build(g: &mut quickcheck::Gen, nodes: usize) -> Term {
    use quickcheck::Arbitrary as Qc;
    match nodes {
        0 | 1 => {
            if <bool as Qc>::arbitrary(g) {
                Term::Var(<u8 as Qc>::arbitrary(g) % 8)
            } else {
                Term::Lit(<i32 as Qc>::arbitrary(g))
            }
        }
        2 => Term::Neg(Box::new(build(g, 1))),
        _ => {
            let left = 1 + usize::from(<u16 as Qc>::arbitrary(g)) % (nodes - 2);
            let (a, b) = (
                Box::new(build(g, left)),
                Box::new(build(g, nodes - 1 - left)),
            );
            if <bool as Qc>::arbitrary(g) {
                Term::Add(a, b)
            } else {
                Term::Mul(a, b)
            }
        }
    }
}

impl quickcheck::Arbitrary for Term {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        let nodes = 25 + usize::from(<u8 as quickcheck::Arbitrary>::arbitrary(g)) % 51;
        build(g, nodes)
    }
}

impl quickcheck::Arbitrary for Plain {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        Plain(<Term as quickcheck::Arbitrary>::arbitrary(g))
    }
}

/// proptest's strategy: a `prop_recursive` term, as a proptest user writes one.
fn term() -> BoxedStrategy<Term> {
    let leaf = prop_oneof![
        (0..8u8).prop_map(Term::Var),
        any::<i32>().prop_map(Term::Lit)
    ];
    leaf.prop_recursive(32, 1600, 2, |inner| {
        prop_oneof![
            1 => inner.clone().prop_map(|t| Term::Neg(Box::new(t))),
            2 => (inner.clone(), inner.clone()).prop_map(|(a, b)| Term::Add(Box::new(a), Box::new(b))),
            2 => (inner.clone(), inner).prop_map(|(a, b)| Term::Mul(Box::new(a), Box::new(b))),
        ]
    })
    .boxed()
}

impl proptest::arbitrary::Arbitrary for Term {
    type Parameters = ();
    type Strategy = BoxedStrategy<Term>;

    fn arbitrary_with((): ()) -> Self::Strategy {
        term()
    }
}

fn quickcheck_term(term: Term) -> bool {
    commutes(&term)
}

fn quickcheck_plain(term: Plain) -> bool {
    commutes(&term.0)
}

/// One side of the table: its name, the plain side it is compared with, and a run of `tests`.
struct Side {
    name: &'static str,
    plain: Option<usize>,
    run: fn(u64),
}

fn proptest_config(tests: u64) -> ProptestConfig {
    ProptestConfig {
        cases: u32::try_from(tests).unwrap_or(u32::MAX),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

const SIDES: [Side; 7] = [
    Side {
        name: "quickcheck, plain",
        plain: None,
        run: |tests| {
            quickcheck::QuickCheck::new()
                .tests(tests)
                .max_tests(tests)
                .quickcheck(quickcheck_plain as fn(Plain) -> bool);
        },
    },
    Side {
        name: "typefuzz::quickcheck (Arbitrary genotype)",
        plain: Some(0),
        run: |tests| {
            let stats = typefuzz::quickcheck::QuickCheck::new()
                .tests(tests)
                .quickcheck(quickcheck_plain as fn(Plain) -> bool);
            assert_eq!(stats.valid, tests);
        },
    },
    Side {
        name: "typefuzz::quickcheck (typed: derive(Mutate))",
        plain: Some(0),
        run: |tests| {
            let stats = typefuzz::quickcheck::QuickCheck::new()
                .tests(tests)
                .quickcheck_typed(quickcheck_term as fn(Term) -> bool);
            assert_eq!(stats.valid, tests);
        },
    },
    Side {
        name: "proptest, plain (t in prop_recursive)",
        plain: None,
        run: |tests| {
            proptest::proptest!(proptest_config(tests), |(t in term())| {
                prop_assert!(commutes(&t));
            });
        },
    },
    Side {
        name: "typefuzz::proptest! (t in prop_recursive)",
        plain: Some(3),
        run: |tests| {
            typefuzz::proptest!(proptest_config(tests), |(t in term())| {
                prop_assert!(commutes(&t));
            });
        },
    },
    Side {
        name: "proptest, plain (t: Term)",
        plain: None,
        run: |tests| {
            proptest::proptest!(proptest_config(tests), |(t: Term)| {
                prop_assert!(commutes(&t));
            });
        },
    },
    Side {
        name: "typefuzz::proptest! (t: Term, typed)",
        plain: Some(5),
        run: |tests| {
            typefuzz::proptest!(proptest_config(tests), |(t: Term)| {
                prop_assert!(commutes(&t));
            });
        },
    },
];

/// One workload of the mutant-size table: a name, the quickcheck `Gen` size, the engine's maximum size.
struct Drift<T> {
    name: &'static str,
    gen_size: usize,
    max_size: usize,
    nodes: fn(&T) -> usize,
}

/// Chain lengths the mutant-size table reports.
const CHAIN: [usize; 6] = [1, 2, 4, 8, 16, 32];

impl<T: quickcheck::Arbitrary + typefuzz::Mutate> Drift<T> {
    /// Prints the per-operator table and the chain row of `seeds` seeds.
    fn report(&self, seeds: u64) {
        use std::collections::BTreeMap;
        // operator -> (mutants, seed nodes, mutant nodes)
        let mut by_operator = BTreeMap::<typefuzz::Operator, (u64, u64, u64)>::new();
        let mut chain = [0u64; CHAIN.len()];
        let mut seed_nodes = 0u64;
        for seed in 0..seeds {
            let mut g = quickcheck::Gen::from_size_and_seed(self.gen_size, seed);
            let value = T::arbitrary(&mut g);
            let mut cx = typefuzz::Context::new(seed).with_max_size(self.max_size);
            let before = (self.nodes)(&value) as u64;
            seed_nodes += before;
            let mut mutant = value.clone();
            let innermost = *cx.mutate(&mut mutant).last().expect("a recorded operator");
            let entry = by_operator.entry(innermost).or_default();
            *entry = (
                entry.0 + 1,
                entry.1 + before,
                entry.2 + (self.nodes)(&mutant) as u64,
            );
            let mut walked = value;
            let mut steps = 0;
            for (sum, &length) in chain.iter_mut().zip(&CHAIN) {
                while steps < length {
                    cx.mutate(&mut walked);
                    steps += 1;
                }
                *sum += (self.nodes)(&walked) as u64;
            }
        }
        let mean = |sum: u64, count: u64| sum as f64 / count.max(1) as f64;
        println!(
            "\n## {} (quickcheck size {}, engine maximum size {}): seeds {:.1} nodes\n",
            self.name,
            self.gen_size,
            self.max_size,
            mean(seed_nodes, seeds)
        );
        println!("| operator | share | seed nodes | mutant nodes | change |");
        println!("|---|---:|---:|---:|---:|");
        for (operator, (count, before, after)) in &by_operator {
            println!(
                "| {operator} | {:.1}% | {:.1} | {:.1} | {:+.1} |",
                100.0 * *count as f64 / seeds as f64,
                mean(*before, *count),
                mean(*after, *count),
                mean(*after, *count) - mean(*before, *count),
            );
        }
        let after: Vec<String> = (CHAIN.iter().zip(&chain))
            .map(|(length, sum)| format!("{length}: {:.1}", mean(*sum, seeds)))
            .collect();
        println!(
            "\nMean nodes after a chain of mutations: {}",
            after.join(", ")
        );
        let generated: Vec<String> = [self.max_size / 4, self.max_size / 2, self.max_size]
            .iter()
            .map(|&size| {
                let mut cx = typefuzz::Context::new(1).with_max_size(self.max_size);
                let total: u64 = (0..seeds.min(2_000))
                    .map(|_| (self.nodes)(&cx.generate_sized::<T>(size)) as u64)
                    .sum();
                format!("size {size}: {:.1}", mean(total, seeds.min(2_000)))
            })
            .collect();
        println!(
            "Mean nodes of the derived generator: {}",
            generated.join(", ")
        );
    }
}

/// `mutant-size [SEEDS]`: the size of mutants against their seeds (see the module docs).
pub(crate) fn mutant_size(seeds: u64) -> i32 {
    use crate::{bst::Tree, throughput};
    let term_nodes = |t: &Term| eval(t, false).1 as usize;
    Drift::<Term> {
        name: "drop-in terms",
        gen_size: 100,
        max_size: 100,
        nodes: term_nodes,
    }
    .report(seeds);
    Drift::<throughput::Term> {
        name: "throughput terms",
        gen_size: 48,
        max_size: 48,
        nodes: throughput::Term::nodes,
    }
    .report(seeds);
    Drift::<throughput::Machine> {
        name: "throughput machines",
        gen_size: 100,
        max_size: 100,
        nodes: throughput::Machine::nodes,
    }
    .report(seeds);
    Drift::<Tree> {
        name: "throughput mirror (BST trees)",
        gen_size: 16,
        max_size: 16,
        nodes: Tree::size,
    }
    .report(seeds);
    0
}

/// `per-test-cost [TESTS] [ROUNDS] [--sides TEXT]`: prints the table (see the module docs).
pub(crate) fn run_cli(args: &PerTestCostArgs) -> i32 {
    let (tests, rounds) = (args.tests, args.rounds);
    let selected = |side: &Side| side.name.contains(args.sides.as_str());
    // (time, nodes) per side and round.
    let mut measured = vec![Vec::<(Duration, u64)>::new(); SIDES.len()];
    for _ in 0..rounds {
        for (side, runs) in SIDES.iter().zip(&mut measured) {
            if !selected(side) {
                continue;
            }
            NODES.with(|n| n.set(0));
            let start = Instant::now();
            (side.run)(tests);
            runs.push((start.elapsed(), NODES.with(Cell::get)));
        }
    }
    println!(
        "{tests} passing tests per side and round, {rounds} rounds, sides in turn each round\n"
    );
    println!(
        "| side | tests/s | nodes/test | nodes/s | tests/s vs plain | nodes/s vs plain | per round (tests/s) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---|");
    let total = |runs: &[(Duration, u64)]| {
        let time: Duration = runs.iter().map(|r| r.0).sum();
        let nodes: u64 = runs.iter().map(|r| r.1).sum();
        (time.as_secs_f64(), nodes as f64)
    };
    let all_tests = (tests * rounds) as f64;
    for (side, runs) in SIDES.iter().zip(&measured) {
        if !selected(side) {
            continue;
        }
        let (time, nodes) = total(runs);
        let (tests_vs, nodes_vs, rounds_vs) = match side.plain {
            Some(plain) if !measured[plain].is_empty() => {
                let (plain_time, plain_nodes) = total(&measured[plain]);
                let per_round: Vec<String> = runs
                    .iter()
                    .zip(&measured[plain])
                    .map(|(ours, theirs)| {
                        format!("{:.2}x", theirs.0.as_secs_f64() / ours.0.as_secs_f64())
                    })
                    .collect();
                (
                    format!("{:.2}x", plain_time / time),
                    format!("{:.2}x", (nodes / time) / (plain_nodes / plain_time)),
                    per_round.join(" "),
                )
            }
            _ => ("".to_string(), "".to_string(), "".to_string()),
        };
        println!(
            "| {} | {:.0} | {:.1} | {:.0} | {tests_vs} | {nodes_vs} | {rounds_vs} |",
            side.name,
            all_tests / time,
            nodes / all_tests,
            nodes / time,
        );
    }
    0
}
