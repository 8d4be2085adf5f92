//! Generators: the naive ones a user writes (a proptest strategy with `prop_recursive`, a
//! quickcheck `Arbitrary` sized by `g.size()`), which the benchmark runs, and a type-directed
//! generator of closed well-typed terms, which the tests use to find each task's failing input.

use fastrand::Rng;
use proptest::prelude::*;
use quickcheck::{Arbitrary, Gen};

use super::lang::{Expr, Typ};

/// proptest's idiom for a recursive type: `Int` and `Bool` at the leaves, functions and pairs
/// up to 3 levels.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let t = typefuzz_bench::stlc::typ_strategy().new_tree(&mut TestRunner::deterministic()).unwrap();
/// assert!(t.current().nodes() <= 15);
/// ```
pub fn typ_strategy() -> BoxedStrategy<Typ> {
    let leaf = prop_oneof![Just(Typ::Int), Just(Typ::Bool)];
    leaf.prop_recursive(3, 8, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Typ::Fun(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Typ::Pair(Box::new(a), Box::new(b))),
        ]
    })
    .boxed()
}

/// proptest's idiom for terms: literals and variables `0..4` at the leaves, every construct
/// above them, `prop_recursive(6, 64, 3, ..)`.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let mut runner = TestRunner::deterministic();
/// let e = typefuzz_bench::stlc::expr_strategy().new_tree(&mut runner).unwrap().current();
/// assert!(e.nodes() >= 1);
/// ```
pub fn expr_strategy() -> BoxedStrategy<Expr> {
    let leaf = prop_oneof![
        any::<i32>().prop_map(Expr::Int),
        any::<bool>().prop_map(Expr::Bool),
        (0..4u8).prop_map(Expr::Var),
    ];
    leaf.prop_recursive(6, 64, 3, |e| {
        let b = || e.clone().prop_map(Box::new);
        prop_oneof![
            (typ_strategy(), b()).prop_map(|(t, body)| Expr::Lam(t, body)),
            (b(), b()).prop_map(|(f, a)| Expr::App(f, a)),
            (b(), b(), b()).prop_map(|(c, t, f)| Expr::If(c, t, f)),
            (b(), b()).prop_map(|(x, y)| Expr::Add(x, y)),
            (b(), b()).prop_map(|(x, y)| Expr::Lt(x, y)),
            (b(), b()).prop_map(|(x, y)| Expr::Eq(x, y)),
            (b(), b()).prop_map(|(x, y)| Expr::Let(x, y)),
            (b(), b()).prop_map(|(x, y)| Expr::Pair(x, y)),
            b().prop_map(Expr::Fst),
            b().prop_map(Expr::Snd),
        ]
    })
    .boxed()
}

fn arbitrary_typ(g: &mut Gen, size: usize) -> Typ {
    let half = |g: &mut Gen| Box::new(arbitrary_typ(g, size / 2));
    if size == 0 {
        return if bool::arbitrary(g) {
            Typ::Int
        } else {
            Typ::Bool
        };
    }
    match g.choose(&[0, 1, 2, 3]).unwrap() {
        0 => Typ::Int,
        1 => Typ::Bool,
        2 => Typ::Fun(half(g), half(g)),
        _ => Typ::Pair(half(g), half(g)),
    }
}

/// The quickcheck idiom: a constructor picked uniformly, children at half the size, leaves at
/// size 0.
impl Arbitrary for Typ {
    fn arbitrary(g: &mut Gen) -> Typ {
        arbitrary_typ(g, g.size())
    }
}

fn arbitrary_expr(g: &mut Gen, size: usize) -> Expr {
    let leaf = |g: &mut Gen| match g.choose(&[0, 1, 2]).unwrap() {
        0 => Expr::Int(i32::arbitrary(g)),
        1 => Expr::Bool(bool::arbitrary(g)),
        _ => Expr::Var(u8::arbitrary(g) % 4),
    };
    if size == 0 {
        return leaf(g);
    }
    let sub = |g: &mut Gen| Box::new(arbitrary_expr(g, size / 2));
    match g
        .choose(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        .unwrap()
    {
        0..=2 => leaf(g),
        3 => Expr::Lam(Typ::arbitrary(g), sub(g)),
        4 => Expr::App(sub(g), sub(g)),
        5 => Expr::If(sub(g), sub(g), sub(g)),
        6 => Expr::Add(sub(g), sub(g)),
        7 => Expr::Lt(sub(g), sub(g)),
        8 => Expr::Eq(sub(g), sub(g)),
        9 => Expr::Let(sub(g), sub(g)),
        10 => Expr::Pair(sub(g), sub(g)),
        11 => Expr::Fst(sub(g)),
        _ => Expr::Snd(sub(g)),
    }
}

/// The quickcheck idiom: a constructor picked uniformly (leaves among them), children at half
/// the size, leaves at size 0.
///
/// ```
/// use quickcheck::{Arbitrary, Gen};
/// let e = typefuzz_bench::stlc::Expr::arbitrary(&mut Gen::from_size_and_seed(100, 1));
/// assert!(e.nodes() >= 1);
/// ```
impl Arbitrary for Expr {
    fn arbitrary(g: &mut Gen) -> Expr {
        arbitrary_expr(g, g.size())
    }
}

fn small_typ(rng: &mut Rng, depth: u32) -> Typ {
    if depth == 0 {
        return if rng.bool() { Typ::Int } else { Typ::Bool };
    }
    match rng.u8(0..4) {
        0 => Typ::Int,
        1 => Typ::Bool,
        2 => Typ::Fun(
            Box::new(small_typ(rng, depth - 1)),
            Box::new(small_typ(rng, depth - 1)),
        ),
        _ => Typ::Pair(
            Box::new(small_typ(rng, depth - 1)),
            Box::new(small_typ(rng, depth - 1)),
        ),
    }
}

/// A closed term of a random type, well typed by construction (a type-directed generator).
/// Not what the benchmark runs: the tests use it to find each task's failing input.
///
/// ```
/// use typefuzz_bench::stlc::{well_typed, Stlc};
/// let mut rng = fastrand::Rng::with_seed(1);
/// assert!((0..100).all(|_| Stlc::correct().type_of(&well_typed(&mut rng, 4)).is_some()));
/// ```
pub fn well_typed(rng: &mut Rng, depth: u32) -> Expr {
    let t = small_typ(rng, 2);
    term(rng, &mut Vec::new(), &t, depth)
}

fn term(rng: &mut Rng, ctx: &mut Vec<Typ>, t: &Typ, depth: u32) -> Expr {
    let vars: Vec<u8> = (0..ctx.len())
        .filter(|&k| ctx[ctx.len() - 1 - k] == *t)
        .map(|k| k as u8)
        .collect();
    fn b<T>(x: T) -> Box<T> {
        Box::new(x)
    }
    if depth == 0 || rng.u8(0..4) == 0 {
        if !vars.is_empty() && rng.bool() {
            return Expr::Var(vars[rng.usize(0..vars.len())]);
        }
        return match t {
            Typ::Int => Expr::Int(rng.i32(-3..=3)),
            Typ::Bool => Expr::Bool(rng.bool()),
            Typ::Fun(a, r) => {
                ctx.push((**a).clone());
                let body = term(rng, ctx, r, depth.saturating_sub(1));
                ctx.pop();
                Expr::Lam((**a).clone(), b(body))
            }
            Typ::Pair(x, y) => Expr::Pair(
                b(term(rng, ctx, x, depth.saturating_sub(1))),
                b(term(rng, ctx, y, depth.saturating_sub(1))),
            ),
        };
    }
    let d = depth - 1;
    match rng.u8(0..7) {
        0 => {
            let s = small_typ(rng, 1);
            let f = term(rng, ctx, &Typ::Fun(b(s.clone()), b(t.clone())), d);
            Expr::App(b(f), b(term(rng, ctx, &s, d)))
        }
        1 => {
            let s = small_typ(rng, 1);
            let a = term(rng, ctx, &s, d);
            ctx.push(s);
            let body = term(rng, ctx, t, d);
            ctx.pop();
            Expr::Let(b(a), b(body))
        }
        2 => Expr::If(
            b(term(rng, ctx, &Typ::Bool, d)),
            b(term(rng, ctx, t, d)),
            b(term(rng, ctx, t, d)),
        ),
        3 | 4 => {
            let s = small_typ(rng, 1);
            let first = rng.bool();
            let pair = if first {
                Typ::Pair(b(t.clone()), b(s))
            } else {
                Typ::Pair(b(s), b(t.clone()))
            };
            let p = b(term(rng, ctx, &pair, d));
            if first {
                Expr::Fst(p)
            } else {
                Expr::Snd(p)
            }
        }
        _ => match t {
            Typ::Int => Expr::Add(
                b(term(rng, ctx, &Typ::Int, d)),
                b(term(rng, ctx, &Typ::Int, d)),
            ),
            Typ::Bool => {
                let (x, y) = (
                    b(term(rng, ctx, &Typ::Int, d)),
                    b(term(rng, ctx, &Typ::Int, d)),
                );
                if rng.bool() {
                    Expr::Lt(x, y)
                } else {
                    Expr::Eq(x, y)
                }
            }
            _ => term(rng, ctx, t, 0),
        },
    }
}
