//! The language: terms, types, shifting and substitution, the type checker, the small-step
//! evaluator and the reference evaluator, with the injected bugs.

use typefuzz::Mutate;

/// A type: `Int`, `Bool`, functions and pairs.
///
/// ```
/// use typefuzz_bench::stlc::Typ;
/// let t = Typ::Fun(Box::new(Typ::Int), Box::new(Typ::Bool));
/// assert_eq!(t.nodes(), 3);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Mutate)]
#[allow(missing_docs)] // the variants are the type formers they name
pub enum Typ {
    Int,
    Bool,
    Fun(Box<Typ>, Box<Typ>),
    Pair(Box<Typ>, Box<Typ>),
}

impl Typ {
    /// Constructors in the type.
    pub fn nodes(&self) -> usize {
        match self {
            Typ::Int | Typ::Bool => 1,
            Typ::Fun(a, b) | Typ::Pair(a, b) => 1 + a.nodes() + b.nodes(),
        }
    }
}

/// A term. `Var(k)` is a de Bruijn index (0 = the nearest binder); `Lam` and `Let`'s body bind
/// one variable.
///
/// ```
/// use typefuzz_bench::stlc::{Expr, Stlc, Typ};
/// // let x = 1 in x + 2
/// let e = Expr::Let(
///     Box::new(Expr::Int(1)),
///     Box::new(Expr::Add(Box::new(Expr::Var(0)), Box::new(Expr::Int(2)))),
/// );
/// assert_eq!(Stlc::correct().type_of(&e), Some(Typ::Int));
/// assert_eq!(e.nodes(), 5);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Mutate)]
#[allow(missing_docs)] // the variants are the constructs they name
pub enum Expr {
    Int(i32),
    Bool(bool),
    Var(u8),
    Lam(Typ, Box<Expr>),
    App(Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
    Lt(Box<Expr>, Box<Expr>),
    Eq(Box<Expr>, Box<Expr>),
    Let(Box<Expr>, Box<Expr>),
    Pair(Box<Expr>, Box<Expr>),
    Fst(Box<Expr>),
    Snd(Box<Expr>),
}

impl Expr {
    /// Constructors in the term, its types' included.
    pub fn nodes(&self) -> usize {
        match self {
            Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) => 1,
            Expr::Lam(t, b) => 1 + t.nodes() + b.nodes(),
            Expr::Fst(e) | Expr::Snd(e) => 1 + e.nodes(),
            Expr::App(a, b)
            | Expr::Add(a, b)
            | Expr::Lt(a, b)
            | Expr::Eq(a, b)
            | Expr::Let(a, b)
            | Expr::Pair(a, b) => 1 + a.nodes() + b.nodes(),
            Expr::If(a, b, c) => 1 + a.nodes() + b.nodes() + c.nodes(),
        }
    }

    /// Whether the term is a value: a literal, a lambda, or a pair of values.
    pub fn is_value(&self) -> bool {
        match self {
            Expr::Int(_) | Expr::Bool(_) | Expr::Lam(..) => true,
            Expr::Pair(a, b) => a.is_value() && b.is_value(),
            _ => false,
        }
    }
}

/// The injected bugs, each a one-line change of the implementation.
///
/// ```
/// use typefuzz_bench::stlc::Bug;
/// assert_eq!(Bug::ALL.len(), 13);
/// assert_eq!(Bug::parse("if_swapped"), Some(Bug::IfSwapped));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    /// `shift` moves every variable, also those bound inside the term (below the cutoff).
    ShiftBelowCutoff,
    /// `shift` keeps the cutoff when it enters a binder.
    ShiftLamNoCutoff,
    /// Substitution under a binder does not shift the replacement.
    SubstLamNoShift,
    /// Substitution under a binder does not raise the index it replaces.
    SubstLamSameIndex,
    /// Beta reduction forgets to shift the result down (the binder it removed).
    BetaNoDownshift,
    /// `if true` takes the else branch.
    IfSwapped,
    /// `<` computes `>`.
    LtFlipped,
    /// `fst` projects the second component.
    FstSndSwapped,
    /// The type checker does not compare the else branch's type with the then branch's.
    TypeIfElseUnchecked,
    /// The type checker does not check an application's argument type.
    TypeAppArgUnchecked,
    /// The type checker looks variables up from the outermost binder.
    TypeVarFromOutside,
    /// The type checker binds `let`'s variable at type `Int`, whatever it is bound to.
    TypeLetBindsInt,
    /// `a + e` does not step `e` once `a` is a value.
    StepAddRightStuck,
}

impl Bug {
    /// Every bug.
    pub const ALL: [Bug; 13] = [
        Bug::ShiftBelowCutoff,
        Bug::ShiftLamNoCutoff,
        Bug::SubstLamNoShift,
        Bug::SubstLamSameIndex,
        Bug::BetaNoDownshift,
        Bug::IfSwapped,
        Bug::LtFlipped,
        Bug::FstSndSwapped,
        Bug::TypeIfElseUnchecked,
        Bug::TypeAppArgUnchecked,
        Bug::TypeVarFromOutside,
        Bug::TypeLetBindsInt,
        Bug::StepAddRightStuck,
    ];

    /// The bug's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Bug::ShiftBelowCutoff => "shift_below_cutoff",
            Bug::ShiftLamNoCutoff => "shift_lam_no_cutoff",
            Bug::SubstLamNoShift => "subst_lam_no_shift",
            Bug::SubstLamSameIndex => "subst_lam_same_index",
            Bug::BetaNoDownshift => "beta_no_downshift",
            Bug::IfSwapped => "if_swapped",
            Bug::LtFlipped => "lt_flipped",
            Bug::FstSndSwapped => "fst_snd_swapped",
            Bug::TypeIfElseUnchecked => "type_if_else_unchecked",
            Bug::TypeAppArgUnchecked => "type_app_arg_unchecked",
            Bug::TypeVarFromOutside => "type_var_from_outside",
            Bug::TypeLetBindsInt => "type_let_binds_int",
            Bug::StepAddRightStuck => "step_add_right_stuck",
        }
    }

    /// The bug named `name`.
    pub fn parse(name: &str) -> Option<Bug> {
        Bug::ALL.into_iter().find(|b| b.name() == name)
    }
}

/// Steps of the small-step evaluator before it gives up.
pub const FUEL: u32 = 2_000;

/// The largest term the small-step evaluator keeps stepping.
pub const MAX_NODES: usize = 5_000;

/// The implementation, with at most one bug switched on.
///
/// ```
/// use typefuzz_bench::stlc::{Expr, Stlc};
/// let e = Expr::Add(Box::new(Expr::Int(1)), Box::new(Expr::Int(2)));
/// assert_eq!(Stlc::correct().evaluate(&e), Some(Expr::Int(3)));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Stlc {
    bug: Option<Bug>,
}

/// What an evaluation result looks like from outside: functions are opaque.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Obs {
    Int(i32),
    Bool(bool),
    Fun,
    Pair(Box<Obs>, Box<Obs>),
}

/// A value of the reference evaluator.
#[derive(Clone, Debug)]
enum Value {
    Int(i32),
    Bool(bool),
    Closure(Vec<Value>, Expr),
    Pair(Box<Value>, Box<Value>),
}

impl Value {
    fn observe(&self) -> Obs {
        match self {
            Value::Int(n) => Obs::Int(*n),
            Value::Bool(b) => Obs::Bool(*b),
            Value::Closure(..) => Obs::Fun,
            Value::Pair(a, b) => Obs::Pair(Box::new(a.observe()), Box::new(b.observe())),
        }
    }
}

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl Stlc {
    /// The correct implementation.
    pub fn correct() -> Stlc {
        Stlc { bug: None }
    }

    /// The implementation with `bug` switched on (`None`: correct).
    pub fn with_bug(bug: Option<Bug>) -> Stlc {
        Stlc { bug }
    }

    fn has(&self, bug: Bug) -> bool {
        self.bug == Some(bug)
    }

    /// Adds `d` to every variable at or above `cutoff`.
    ///
    /// ```
    /// use typefuzz_bench::stlc::{Expr, Stlc, Typ};
    /// let e = Expr::Lam(Typ::Int, Box::new(Expr::Add(Box::new(Expr::Var(0)), Box::new(Expr::Var(1)))));
    /// let shifted = Expr::Lam(Typ::Int, Box::new(Expr::Add(Box::new(Expr::Var(0)), Box::new(Expr::Var(2)))));
    /// assert_eq!(Stlc::correct().shift(1, 0, &e), shifted);
    /// ```
    pub fn shift(&self, d: i32, cutoff: u32, e: &Expr) -> Expr {
        let sh = |e: &Expr| boxed(self.shift(d, cutoff, e));
        let under = if self.has(Bug::ShiftLamNoCutoff) {
            cutoff
        } else {
            cutoff + 1
        };
        match e {
            Expr::Var(k) => {
                if u32::from(*k) >= cutoff || self.has(Bug::ShiftBelowCutoff) {
                    Expr::Var((i32::from(*k) + d).clamp(0, 255) as u8)
                } else {
                    Expr::Var(*k)
                }
            }
            Expr::Int(_) | Expr::Bool(_) => e.clone(),
            Expr::Lam(t, b) => Expr::Lam(t.clone(), boxed(self.shift(d, under, b))),
            Expr::Let(a, b) => Expr::Let(sh(a), boxed(self.shift(d, under, b))),
            Expr::App(a, b) => Expr::App(sh(a), sh(b)),
            Expr::Add(a, b) => Expr::Add(sh(a), sh(b)),
            Expr::Lt(a, b) => Expr::Lt(sh(a), sh(b)),
            Expr::Eq(a, b) => Expr::Eq(sh(a), sh(b)),
            Expr::Pair(a, b) => Expr::Pair(sh(a), sh(b)),
            Expr::If(a, b, c) => Expr::If(sh(a), sh(b), sh(c)),
            Expr::Fst(a) => Expr::Fst(sh(a)),
            Expr::Snd(a) => Expr::Snd(sh(a)),
        }
    }

    /// Replaces variable `j` by `s` in `e`.
    pub fn subst(&self, j: u32, s: &Expr, e: &Expr) -> Expr {
        let su = |e: &Expr| boxed(self.subst(j, s, e));
        let under = |b: &Expr| {
            let s = if self.has(Bug::SubstLamNoShift) {
                s.clone()
            } else {
                self.shift(1, 0, s)
            };
            let j = if self.has(Bug::SubstLamSameIndex) {
                j
            } else {
                j + 1
            };
            boxed(self.subst(j, &s, b))
        };
        match e {
            Expr::Var(k) if u32::from(*k) == j => s.clone(),
            Expr::Var(_) | Expr::Int(_) | Expr::Bool(_) => e.clone(),
            Expr::Lam(t, b) => Expr::Lam(t.clone(), under(b)),
            Expr::Let(a, b) => Expr::Let(su(a), under(b)),
            Expr::App(a, b) => Expr::App(su(a), su(b)),
            Expr::Add(a, b) => Expr::Add(su(a), su(b)),
            Expr::Lt(a, b) => Expr::Lt(su(a), su(b)),
            Expr::Eq(a, b) => Expr::Eq(su(a), su(b)),
            Expr::Pair(a, b) => Expr::Pair(su(a), su(b)),
            Expr::If(a, b, c) => Expr::If(su(a), su(b), su(c)),
            Expr::Fst(a) => Expr::Fst(su(a)),
            Expr::Snd(a) => Expr::Snd(su(a)),
        }
    }

    /// The body of a binder with its variable replaced by `v` (beta reduction).
    pub fn subst_top(&self, v: &Expr, body: &Expr) -> Expr {
        let replaced = self.subst(0, &self.shift(1, 0, v), body);
        if self.has(Bug::BetaNoDownshift) {
            replaced
        } else {
            self.shift(-1, 0, &replaced)
        }
    }

    /// The type of `e` in `ctx` (the last entry is variable 0), if it has one.
    pub fn type_in(&self, ctx: &mut Vec<Typ>, e: &Expr) -> Option<Typ> {
        Some(match e {
            Expr::Int(_) => Typ::Int,
            Expr::Bool(_) => Typ::Bool,
            Expr::Var(k) => {
                let k = usize::from(*k);
                if self.has(Bug::TypeVarFromOutside) {
                    ctx.get(k)?.clone()
                } else {
                    ctx.get(ctx.len().checked_sub(k + 1)?)?.clone()
                }
            }
            Expr::Lam(t, b) => {
                let u = self.type_under(ctx, t.clone(), b)?;
                Typ::Fun(Box::new(t.clone()), Box::new(u))
            }
            Expr::Let(a, b) => {
                let t = self.type_in(ctx, a)?;
                let t = if self.has(Bug::TypeLetBindsInt) {
                    Typ::Int
                } else {
                    t
                };
                self.type_under(ctx, t, b)?
            }
            Expr::App(f, a) => {
                let Typ::Fun(t, u) = self.type_in(ctx, f)? else {
                    return None;
                };
                let ta = self.type_in(ctx, a)?;
                if ta != *t && !self.has(Bug::TypeAppArgUnchecked) {
                    return None;
                }
                *u
            }
            Expr::If(c, t, f) => {
                if self.type_in(ctx, c)? != Typ::Bool {
                    return None;
                }
                let tt = self.type_in(ctx, t)?;
                let tf = self.type_in(ctx, f)?;
                if tt != tf && !self.has(Bug::TypeIfElseUnchecked) {
                    return None;
                }
                tt
            }
            Expr::Add(a, b) | Expr::Lt(a, b) | Expr::Eq(a, b) => {
                if self.type_in(ctx, a)? != Typ::Int || self.type_in(ctx, b)? != Typ::Int {
                    return None;
                }
                if matches!(e, Expr::Add(..)) {
                    Typ::Int
                } else {
                    Typ::Bool
                }
            }
            Expr::Pair(a, b) => Typ::Pair(
                Box::new(self.type_in(ctx, a)?),
                Box::new(self.type_in(ctx, b)?),
            ),
            Expr::Fst(p) | Expr::Snd(p) => {
                let Typ::Pair(a, b) = self.type_in(ctx, p)? else {
                    return None;
                };
                if matches!(e, Expr::Fst(_)) {
                    *a
                } else {
                    *b
                }
            }
        })
    }

    fn type_under(&self, ctx: &mut Vec<Typ>, t: Typ, body: &Expr) -> Option<Typ> {
        ctx.push(t);
        let u = self.type_in(ctx, body);
        ctx.pop();
        u
    }

    /// The type of a closed term.
    pub fn type_of(&self, e: &Expr) -> Option<Typ> {
        self.type_in(&mut Vec::new(), e)
    }

    /// One call-by-value step, left to right; `None` for values and stuck terms.
    pub fn step(&self, e: &Expr) -> Option<Expr> {
        // Steps the first operand that is not a value, rebuilding the term with `make`.
        macro_rules! congruence {
            ($make:expr, $a:expr, $b:expr) => {
                if !$a.is_value() {
                    return Some($make(boxed(self.step($a)?), $b.clone()));
                } else if !$b.is_value() {
                    return Some($make($a.clone(), boxed(self.step($b)?)));
                }
            };
        }
        match e {
            Expr::Int(_) | Expr::Bool(_) | Expr::Lam(..) | Expr::Var(_) => None,
            Expr::App(f, a) => {
                congruence!(Expr::App, f, a);
                match &**f {
                    Expr::Lam(_, body) => Some(self.subst_top(a, body)),
                    _ => None,
                }
            }
            Expr::Let(a, b) => {
                if !a.is_value() {
                    return Some(Expr::Let(boxed(self.step(a)?), b.clone()));
                }
                Some(self.subst_top(a, b))
            }
            Expr::If(c, t, f) => {
                if !c.is_value() {
                    return Some(Expr::If(boxed(self.step(c)?), t.clone(), f.clone()));
                }
                match (&**c, self.has(Bug::IfSwapped)) {
                    (Expr::Bool(true), false) | (Expr::Bool(false), true) => Some((**t).clone()),
                    (Expr::Bool(_), _) => Some((**f).clone()),
                    _ => None,
                }
            }
            Expr::Add(a, b) | Expr::Lt(a, b) | Expr::Eq(a, b) => {
                if !a.is_value() {
                    let a = boxed(self.step(a)?);
                    return Some(match e {
                        Expr::Add(..) => Expr::Add(a, b.clone()),
                        Expr::Lt(..) => Expr::Lt(a, b.clone()),
                        _ => Expr::Eq(a, b.clone()),
                    });
                }
                if !b.is_value() {
                    if self.has(Bug::StepAddRightStuck) && matches!(e, Expr::Add(..)) {
                        return None;
                    }
                    let b = boxed(self.step(b)?);
                    return Some(match e {
                        Expr::Add(..) => Expr::Add(a.clone(), b),
                        Expr::Lt(..) => Expr::Lt(a.clone(), b),
                        _ => Expr::Eq(a.clone(), b),
                    });
                }
                let (Expr::Int(x), Expr::Int(y)) = (&**a, &**b) else {
                    return None;
                };
                Some(match e {
                    Expr::Add(..) => Expr::Int(x.wrapping_add(*y)),
                    Expr::Lt(..) if self.has(Bug::LtFlipped) => Expr::Bool(x > y),
                    Expr::Lt(..) => Expr::Bool(x < y),
                    _ => Expr::Bool(x == y),
                })
            }
            Expr::Pair(a, b) => {
                congruence!(Expr::Pair, a, b);
                None
            }
            Expr::Fst(p) | Expr::Snd(p) => {
                if !p.is_value() {
                    let p = boxed(self.step(p)?);
                    return Some(if matches!(e, Expr::Fst(_)) {
                        Expr::Fst(p)
                    } else {
                        Expr::Snd(p)
                    });
                }
                let Expr::Pair(a, b) = &**p else {
                    return None;
                };
                let first = matches!(e, Expr::Fst(_)) != self.has(Bug::FstSndSwapped);
                Some(if first { (**a).clone() } else { (**b).clone() })
            }
        }
    }

    /// Steps `e` until it stops, at most [`FUEL`] times: `None` if the fuel ran out or the term
    /// grew past [`MAX_NODES`] (beta reduction can copy an argument many times), else the term
    /// it stopped at (a value, or a stuck term).
    pub fn evaluate(&self, e: &Expr) -> Option<Expr> {
        let mut e = e.clone();
        for _ in 0..FUEL {
            match self.step(&e) {
                Some(next) if next.nodes() > MAX_NODES => return None,
                Some(next) => e = next,
                None => return Some(e),
            }
        }
        None
    }

    /// The reference evaluator: big-step with environments and closures, no substitution, so
    /// it shares no code with [`step`](Stlc::step). `None` if it got stuck or ran out of fuel.
    ///
    /// ```
    /// use typefuzz_bench::stlc::{Expr, Obs, Stlc};
    /// let e = Expr::Lt(Box::new(Expr::Int(1)), Box::new(Expr::Int(2)));
    /// assert_eq!(Stlc::reference(&e), Some(Obs::Bool(true)));
    /// ```
    pub fn reference(e: &Expr) -> Option<Obs> {
        let mut fuel = 20 * FUEL;
        reference_eval(&mut Vec::new(), e, &mut fuel).map(|v| v.observe())
    }
}

fn reference_eval(env: &mut Vec<Value>, e: &Expr, fuel: &mut u32) -> Option<Value> {
    *fuel = fuel.checked_sub(1)?;
    let int = |v: Value| match v {
        Value::Int(n) => Some(n),
        _ => None,
    };
    Some(match e {
        Expr::Int(n) => Value::Int(*n),
        Expr::Bool(b) => Value::Bool(*b),
        Expr::Var(k) => env
            .get(env.len().checked_sub(usize::from(*k) + 1)?)?
            .clone(),
        Expr::Lam(_, b) => Value::Closure(env.clone(), (**b).clone()),
        Expr::App(f, a) => {
            let Value::Closure(mut closure, body) = reference_eval(env, f, fuel)? else {
                return None;
            };
            let arg = reference_eval(env, a, fuel)?;
            closure.push(arg);
            reference_eval(&mut closure, &body, fuel)?
        }
        Expr::Let(a, b) => {
            let v = reference_eval(env, a, fuel)?;
            env.push(v);
            let result = reference_eval(env, b, fuel);
            env.pop();
            result?
        }
        Expr::If(c, t, f) => match reference_eval(env, c, fuel)? {
            Value::Bool(true) => reference_eval(env, t, fuel)?,
            Value::Bool(false) => reference_eval(env, f, fuel)?,
            _ => return None,
        },
        Expr::Add(a, b) | Expr::Lt(a, b) | Expr::Eq(a, b) => {
            let x = int(reference_eval(env, a, fuel)?)?;
            let y = int(reference_eval(env, b, fuel)?)?;
            match e {
                Expr::Add(..) => Value::Int(x.wrapping_add(y)),
                Expr::Lt(..) => Value::Bool(x < y),
                _ => Value::Bool(x == y),
            }
        }
        Expr::Pair(a, b) => Value::Pair(
            Box::new(reference_eval(env, a, fuel)?),
            Box::new(reference_eval(env, b, fuel)?),
        ),
        Expr::Fst(p) | Expr::Snd(p) => {
            let Value::Pair(a, b) = reference_eval(env, p, fuel)? else {
                return None;
            };
            if matches!(e, Expr::Fst(_)) {
                *a
            } else {
                *b
            }
        }
    })
}

/// What a value looks like from outside ([`Obs`]); `None` for a term that is not a value.
pub(crate) fn observe(e: &Expr) -> Option<Obs> {
    Some(match e {
        Expr::Int(n) => Obs::Int(*n),
        Expr::Bool(b) => Obs::Bool(*b),
        Expr::Lam(..) => Obs::Fun,
        Expr::Pair(a, b) => Obs::Pair(Box::new(observe(a)?), Box::new(observe(b)?)),
        _ => return None,
    })
}
