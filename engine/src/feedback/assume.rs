//! Preconditions: `assume!(expr)` discards a run when `expr` is false and scores how close `expr`
//! was to true, so the search can climb towards valid inputs: automatic precondition targeting,
//! as targeted property-based testing on Hypothesis does it (a score that is >= 0 exactly when
//! the precondition holds, maximized like any `target!`).
//!
//! The `assume!` macro (in typefuzz-derive, re-exported by the `typefuzz` facade) rewrites the
//! expression at compile time into a score that is `>= 0` exactly when the expression is true:
//!
//! | expression   | score                                    |
//! |--------------|------------------------------------------|
//! | `true`/`false` | `1` / `-1`                             |
//! | `a <= b`     | `b - a`                                  |
//! | `a < b`      | `b - a - 1` (integers; floats: `b - a` when true, `b - a - 1` when false) |
//! | `a == b`     | `-abs(a - b)`                            |
//! | `a != b`     | `1` if true, `-1` if false               |
//! | `a >= b`, `a > b` | mirrored                            |
//! | `p && q`, `p \|\| q` | `min`, `max` (short-circuiting as Rust does) |
//! | `!p`         | `-p`, or `-1` when `p` is 0              |
//! | `it.all(\|x\| p)`, `it.any(\|x\| p)` | `min` / `max` over the elements, stopping where Rust stops |
//! | anything else | `1` if true, `-1` if false              |
//!
//! Numeric comparisons work for every primitive integer and float type; other comparable types
//! score `1`/`-1`. Each operand is evaluated once. Every score is clamped to the side its truth
//! value demands, so rounding (large integers, NaN, infinities) can never make a false expression
//! score `>= 0`.
//!
//! An input is interesting when it raises the best score seen at a call site (true counts as 0:
//! once a site has been satisfied, making it "more true" is not progress).

use super::recorder::{record_assume, LazyId, Registry};

pub(crate) static SITES: Registry = Registry::new();

/// One `assume!` call site (what the macro declares as a `static`).
///
/// ```
/// use typefuzz::feedback::assume::AssumeSite;
/// static SITE: AssumeSite = AssumeSite::new("src/lib.rs:1:1", "x < 3");
/// assert!(SITE.check(2.0));
/// assert!(!SITE.check(-1.0));
/// ```
pub struct AssumeSite {
    id: LazyId,
    location: &'static str,
    expression: &'static str,
}

impl AssumeSite {
    /// A call site at `location` (`file:line:column`) assuming `expression` (its source text).
    pub const fn new(location: &'static str, expression: &'static str) -> Self {
        AssumeSite {
            id: LazyId::new(),
            location,
            expression,
        }
    }

    /// Records `score` for the current property call and returns whether the assumption holds
    /// (`score >= 0`).
    #[inline]
    pub fn check(&self, score: f64) -> bool {
        let id = self
            .id
            .get(|| SITES.intern(self.location, self.expression, true));
        record_assume(id, score);
        score >= 0.0
    }
}

/// `(location, expression)` of site `id`.
pub(crate) fn site(id: u32) -> (&'static str, &'static str) {
    SITES.get(id)
}

/// A number extracted from a comparison operand.
///
/// ```
/// use typefuzz::feedback::assume::Number;
/// assert_eq!(Number::Int(3).difference(Number::Int(1)), 2.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// Any primitive integer (`u128` above `i128::MAX` saturates).
    Int(i128),
    /// `f32` or `f64`.
    Float(f64),
}

impl Number {
    /// `self - other`, exact for integers up to the `f64` conversion of the result.
    pub fn difference(self, other: Number) -> f64 {
        match (self, other) {
            (Number::Int(a), Number::Int(b)) => a.saturating_sub(b) as f64,
            (a, b) => a.as_f64() - b.as_f64(),
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }

    fn is_int(self) -> bool {
        matches!(self, Number::Int(_))
    }
}

/// Types whose values are numbers for `assume!` scoring.
///
/// ```
/// use typefuzz::feedback::assume::{AsNumber, Number};
/// assert_eq!((-3i8).as_number(), Number::Int(-3));
/// ```
pub trait AsNumber {
    /// The value as a [`Number`].
    fn as_number(&self) -> Number;
}

macro_rules! int_number {
    ($($t:ty),*) => {$(
        impl AsNumber for $t {
            #[inline]
            fn as_number(&self) -> Number {
                Number::Int(i128::try_from(*self).unwrap_or(i128::MAX))
            }
        }
    )*};
}
int_number!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl AsNumber for f32 {
    fn as_number(&self) -> Number {
        Number::Float(f64::from(*self))
    }
}

impl AsNumber for f64 {
    fn as_number(&self) -> Number {
        Number::Float(*self)
    }
}

impl<T: AsNumber + ?Sized> AsNumber for &T {
    fn as_number(&self) -> Number {
        (**self).as_number()
    }
}

impl<T: AsNumber + ?Sized> AsNumber for &mut T {
    fn as_number(&self) -> Number {
        (**self).as_number()
    }
}

/// A comparison operand, wrapped so that method resolution picks [`ViaNumber`] for numbers and
/// falls back to [`ViaOther`] for everything else (autoref specialization: the expansion calls
/// `(&Operand(x)).assume_number()`, which matches `ViaNumber` without an extra reference and
/// `ViaOther` only with one).
///
/// ```
/// use typefuzz::feedback::assume::{Number, Operand, ViaNumber as _, ViaOther as _};
/// assert_eq!((&Operand(&5u8)).assume_number(), Some(Number::Int(5)));
/// assert_eq!((&Operand(&"text")).assume_number(), None);
/// ```
pub struct Operand<'a, T: ?Sized>(pub &'a T);

/// The numeric case of [`Operand`].
pub trait ViaNumber {
    /// The operand's number.
    fn assume_number(&self) -> Option<Number>;
}

impl<T: AsNumber + ?Sized> ViaNumber for Operand<'_, T> {
    #[inline]
    fn assume_number(&self) -> Option<Number> {
        Some(self.0.as_number())
    }
}

/// The fallback case of [`Operand`]: not a number.
pub trait ViaOther {
    /// `None`.
    fn assume_number(&self) -> Option<Number>;
}

impl<T: ?Sized> ViaOther for &Operand<'_, T> {
    #[inline]
    fn assume_number(&self) -> Option<Number> {
        None
    }
}

/// Clamps `magnitude` to the side `truth` demands: `>= 0` when true, `< 0` when false; without
/// a magnitude (or with NaN), `1` / `-1`.
#[inline]
fn clamp(truth: bool, magnitude: Option<f64>) -> f64 {
    match magnitude {
        Some(m) if truth && m >= 0.0 => m,
        Some(m) if !truth && m < 0.0 => m,
        Some(m) if truth && !m.is_nan() => 0.0,
        _ => boolean(truth),
    }
}

/// The score of a boolean atom: `1` or `-1`.
///
/// ```
/// assert_eq!(typefuzz::feedback::assume::boolean(false), -1.0);
/// ```
#[inline]
pub fn boolean(truth: bool) -> f64 {
    if truth {
        1.0
    } else {
        -1.0
    }
}

/// The score of `a <= b` (`b - a`), given its truth and the operands' numbers.
///
/// ```
/// use typefuzz::feedback::assume::{le, Number::Int};
/// assert_eq!(le(true, Some(Int(2)), Some(Int(5))), 3.0);
/// assert_eq!(le(false, Some(Int(7)), Some(Int(5))), -2.0);
/// ```
#[inline]
pub fn le(truth: bool, a: Option<Number>, b: Option<Number>) -> f64 {
    log_integers(a, b);
    clamp(truth, a.zip(b).map(|(a, b)| b.difference(a)))
}

/// The score of `a < b` (`b - a - 1` for integers).
///
/// ```
/// use typefuzz::feedback::assume::{lt, Number::Int};
/// assert_eq!(lt(true, Some(Int(2)), Some(Int(3))), 0.0);
/// assert_eq!(lt(false, Some(Int(3)), Some(Int(3))), -1.0);
/// ```
#[inline]
pub fn lt(truth: bool, a: Option<Number>, b: Option<Number>) -> f64 {
    log_integers(a, b);
    clamp(
        truth,
        a.zip(b).map(|(a, b)| {
            let difference = b.difference(a);
            // For floats `b - a` may be in (0, 1) while `a < b` holds, so only the false side
            // gets the `- 1` that makes equality negative.
            if (a.is_int() && b.is_int()) || !truth {
                difference - 1.0
            } else {
                difference
            }
        }),
    )
}

/// The score of `a == b` (`-|a - b|`).
///
/// ```
/// use typefuzz::feedback::assume::{eq, Number::Float};
/// assert_eq!(eq(false, Some(Float(1.5)), Some(Float(4.0))), -2.5);
/// assert_eq!(eq(true, None, None), 1.0);
/// ```
#[inline]
pub fn eq(truth: bool, a: Option<Number>, b: Option<Number>) -> f64 {
    log_integers(a, b);
    clamp(truth, a.zip(b).map(|(a, b)| -b.difference(a).abs()))
}

/// The score of `!p` given the score of `p`: `-p`, or `-1` when `p` is 0.
///
/// ```
/// assert_eq!(typefuzz::feedback::assume::not(0.0), -1.0);
/// assert_eq!(typefuzz::feedback::assume::not(-4.0), 4.0);
/// ```
#[inline]
pub fn not(score: f64) -> f64 {
    if score == 0.0 || score.is_nan() {
        -1.0
    } else {
        -score
    }
}

/// Logs an integer comparison for input-to-state mutation ([`cmplog`](super::cmplog)): the
/// operands as 64-bit two's complement (a narrower leaf holding `-3` still matches `-3`).
///
/// `sometimes!` calls it directly (it does not score).
///
/// ```
/// use typefuzz::feedback::assume::{log_integers, Number::Int};
/// log_integers(Some(Int(-3)), Some(Int(500))); // a no-op outside a property call
/// ```
#[inline]
pub fn log_integers(a: Option<Number>, b: Option<Number>) {
    if let (Some(Number::Int(a)), Some(Number::Int(b))) = (a, b) {
        super::cmplog::record_integers(a as u64, b as u64, 8);
    }
}
