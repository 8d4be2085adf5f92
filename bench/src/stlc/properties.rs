//! The properties, each with the precondition "closed and well typed", and the task list.

use super::lang::{observe, Bug, Expr, Stlc, Typ};
use crate::Verdict;

/// A property of the language's metatheory.
///
/// ```
/// use typefuzz_bench::stlc::Property;
/// assert_eq!(Property::parse("progress"), Some(Property::Progress));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Property {
    /// A closed well-typed term is a value or takes a step.
    Progress,
    /// A step keeps the term's type.
    Preservation,
    /// Evaluation ends in a value of the term's type (or runs out of fuel).
    EvalValueOfType,
    /// The small-step evaluator and the reference evaluator agree on what they observe.
    EvalMatchesReference,
    /// At every beta redex in the term (under binders too), substituting keeps the type.
    SubstPreservesType,
    /// At every subterm, shifting its free variables over a new binder keeps its type.
    ShiftPreservesType,
}

impl Property {
    /// Every property.
    pub const ALL: [Property; 6] = [
        Property::Progress,
        Property::Preservation,
        Property::EvalValueOfType,
        Property::EvalMatchesReference,
        Property::SubstPreservesType,
        Property::ShiftPreservesType,
    ];

    /// The property's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Property::Progress => "progress",
            Property::Preservation => "preservation",
            Property::EvalValueOfType => "eval_value_of_type",
            Property::EvalMatchesReference => "eval_matches_reference",
            Property::SubstPreservesType => "subst_preserves_type",
            Property::ShiftPreservesType => "shift_preserves_type",
        }
    }

    /// The property named `name`.
    pub fn parse(name: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Checks the property on `e` with implementation `stlc`.
    pub fn run(self, stlc: &Stlc, e: &Expr) -> Verdict {
        let Some(t) = stlc.type_of(e) else {
            return Verdict::Discard;
        };
        Verdict::from(match self {
            Property::Progress => e.is_value() || stlc.step(e).is_some(),
            Property::Preservation => match stlc.step(e) {
                Some(next) => stlc.type_of(&next).as_ref() == Some(&t),
                None => true,
            },
            Property::EvalValueOfType => match stlc.evaluate(e) {
                Some(v) => v.is_value() && stlc.type_of(&v).as_ref() == Some(&t),
                None => true,
            },
            Property::EvalMatchesReference => match stlc.evaluate(e) {
                Some(v) => observe(&v) == Stlc::reference(e),
                None => true,
            },
            Property::SubstPreservesType => {
                every_subterm(stlc, e, &mut Vec::new(), &mut |ctx, s| match s {
                    Expr::App(f, a) => match &**f {
                        Expr::Lam(_, body) => same_type(stlc, ctx, s, &stlc.subst_top(a, body)),
                        _ => true,
                    },
                    Expr::Let(a, body) => same_type(stlc, ctx, s, &stlc.subst_top(a, body)),
                    _ => true,
                })
            }
            Property::ShiftPreservesType => {
                every_subterm(stlc, e, &mut Vec::new(), &mut |ctx, s| {
                    // A new `Bool` variable between variable `c - 1` and `c`, for every `c`.
                    (0..=ctx.len()).all(|c| {
                        let Some(t) = stlc.type_in(ctx, s) else {
                            return true;
                        };
                        let mut wider = ctx.clone();
                        wider.insert(ctx.len() - c, Typ::Bool);
                        let shifted = stlc.shift(1, c as u32, s);
                        stlc.type_in(&mut wider, &shifted) == Some(t)
                    })
                })
            }
        })
    }
}

/// Whether `after` has `before`'s type in `ctx` (vacuous if `before` has none).
fn same_type(stlc: &Stlc, ctx: &mut Vec<Typ>, before: &Expr, after: &Expr) -> bool {
    match stlc.type_in(ctx, before) {
        Some(t) => stlc.type_in(ctx, after) == Some(t),
        None => true,
    }
}

/// Whether `check` holds at every subterm of `e` with its typing context (binders whose type is
/// unknown end the walk into their bodies).
fn every_subterm(
    stlc: &Stlc,
    e: &Expr,
    ctx: &mut Vec<Typ>,
    check: &mut dyn FnMut(&mut Vec<Typ>, &Expr) -> bool,
) -> bool {
    if !check(ctx, e) {
        return false;
    }
    let under = |ctx: &mut Vec<Typ>,
                 t: Typ,
                 body: &Expr,
                 check: &mut dyn FnMut(&mut Vec<Typ>, &Expr) -> bool| {
        ctx.push(t);
        let ok = every_subterm(stlc, body, ctx, check);
        ctx.pop();
        ok
    };
    match e {
        Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) => true,
        Expr::Lam(t, b) => under(ctx, t.clone(), b, check),
        Expr::Let(a, b) => {
            every_subterm(stlc, a, ctx, check)
                && match stlc.type_in(ctx, a) {
                    Some(t) => under(ctx, t, b, check),
                    None => true,
                }
        }
        Expr::Fst(a) | Expr::Snd(a) => every_subterm(stlc, a, ctx, check),
        Expr::App(a, b) | Expr::Add(a, b) | Expr::Lt(a, b) | Expr::Eq(a, b) | Expr::Pair(a, b) => {
            every_subterm(stlc, a, ctx, check) && every_subterm(stlc, b, ctx, check)
        }
        Expr::If(a, b, c) => {
            every_subterm(stlc, a, ctx, check)
                && every_subterm(stlc, b, ctx, check)
                && every_subterm(stlc, c, ctx, check)
        }
    }
}

/// The tasks: each bug with the properties it breaks. Each has a failing input: the tests find
/// one with the type-directed generator, or use a hand-written one for the type checker's bugs
/// (whose failing inputs the correct checker rejects).
pub const TASKS: [(Bug, &[Property]); 13] = {
    use Property::*;
    [
        (
            Bug::ShiftBelowCutoff,
            &[
                Preservation,
                EvalValueOfType,
                EvalMatchesReference,
                SubstPreservesType,
                ShiftPreservesType,
            ],
        ),
        (
            Bug::ShiftLamNoCutoff,
            &[
                Preservation,
                EvalValueOfType,
                EvalMatchesReference,
                SubstPreservesType,
                ShiftPreservesType,
            ],
        ),
        (Bug::SubstLamNoShift, &[SubstPreservesType]),
        (
            Bug::SubstLamSameIndex,
            &[
                Preservation,
                EvalValueOfType,
                EvalMatchesReference,
                SubstPreservesType,
            ],
        ),
        (Bug::BetaNoDownshift, &[SubstPreservesType]),
        (Bug::IfSwapped, &[EvalMatchesReference]),
        (Bug::LtFlipped, &[EvalMatchesReference]),
        (
            Bug::FstSndSwapped,
            &[Preservation, EvalValueOfType, EvalMatchesReference],
        ),
        (Bug::TypeIfElseUnchecked, &[Preservation, EvalValueOfType]),
        (Bug::TypeAppArgUnchecked, &[Preservation, EvalValueOfType]),
        (
            Bug::TypeVarFromOutside,
            &[
                Preservation,
                EvalValueOfType,
                SubstPreservesType,
                ShiftPreservesType,
            ],
        ),
        (
            Bug::TypeLetBindsInt,
            &[Preservation, EvalValueOfType, SubstPreservesType],
        ),
        (
            Bug::StepAddRightStuck,
            &[Progress, EvalValueOfType, EvalMatchesReference],
        ),
    ]
};

/// The no-bug controls the benchmark runs (the tests check every property without a bug).
pub const CONTROLS: [Property; 2] = [Property::Preservation, Property::EvalMatchesReference];
