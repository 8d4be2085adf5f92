//! Outcome: what one run of a property says about its input — pass, discard, or fail.
//!
//! A property may return anything that implements [`IntoOutcome`]: `()`, `bool`, [`Outcome`]
//! and `Result<T, E>`. A framework's own result type (proptest's `Result<(), TestCaseError>`,
//! quickcheck's `TestResult`) is mapped to an [`Outcome`] by that framework's adapter: the engine
//! knows no framework. A panic fails the run, except a panic whose payload is [`Discarded`],
//! which discards it: that is how `assume!` discards from a property returning `()` or `Result`.

use core::fmt::{self, Debug};

/// The result of running a property on one input.
///
/// ```
/// use typefuzz::{IntoOutcome, Outcome};
/// assert_eq!(true.into_outcome(), Outcome::Pass);
/// assert_eq!(Outcome::Discard.into_outcome(), Outcome::Discard);
/// assert!(matches!(Err::<(), _>("boom").into_outcome(), Outcome::Fail(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The property held.
    Pass,
    /// The input does not satisfy the property's precondition: neither a pass nor a failure.
    Discard,
    /// The property does not hold; the message says why.
    Fail(String),
}

/// How a failing run failed.
///
/// ```
/// assert_eq!(typefuzz::FailureKind::Panic.to_string(), "panic");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// The property returned a failure (`false`, `Err`, `Outcome::Fail`, ...).
    Fail,
    /// The property panicked (a failed assertion, an `unwrap` on `None`, an overflow, ...).
    Panic,
    /// The property ran longer than the per-test time limit.
    Hang,
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FailureKind::Fail => "failure",
            FailureKind::Panic => "panic",
            FailureKind::Hang => "hang",
        })
    }
}

/// Converts what a property returns into an [`Outcome`].
///
/// ```
/// use typefuzz::{IntoOutcome, Outcome};
/// assert_eq!(().into_outcome(), Outcome::Pass);
/// assert_eq!(false.into_outcome(), Outcome::Fail("property returned false".into()));
/// assert_eq!(Ok::<u8, String>(1).into_outcome(), Outcome::Pass);
/// ```
pub trait IntoOutcome {
    /// The outcome this value stands for.
    fn into_outcome(self) -> Outcome;
}

impl IntoOutcome for Outcome {
    fn into_outcome(self) -> Outcome {
        self
    }
}

impl IntoOutcome for () {
    fn into_outcome(self) -> Outcome {
        Outcome::Pass
    }
}

impl IntoOutcome for bool {
    fn into_outcome(self) -> Outcome {
        if self {
            Outcome::Pass
        } else {
            Outcome::Fail("property returned false".into())
        }
    }
}

/// `Ok` passes and `Err(e)` fails with `e`'s `Debug` text (bounded as
/// [`format_bounded`](crate::format_bounded)'s), whatever `E` is (a borrowed `Result<(), &str>`
/// included).
///
/// The engine does not look inside `E`: a framework whose error type carries a discard (proptest's
/// `TestCaseError::Reject`) is mapped to [`Outcome`] by its adapter, at the call site, before the
/// engine sees it. To discard from a property returning `Result`, use `assume!` or return
/// [`Discard::discard`], which panics with [`Discarded`].
///
/// ```
/// use typefuzz::{IntoOutcome, Outcome};
/// fn borrowed<'a>(s: &'a str) -> Result<(), &'a str> {
///     if s.is_empty() { Err(s) } else { Ok(()) }
/// }
/// assert_eq!(borrowed("x").into_outcome(), Outcome::Pass);
/// assert_eq!(borrowed("").into_outcome(), Outcome::Fail(r#"property returned Err("")"#.into()));
/// let Outcome::Fail(huge) = Err::<(), _>(vec![0u8; 1 << 20]).into_outcome() else { panic!() };
/// assert!(huge.ends_with("(formatting stopped after 65536 bytes)"));
/// ```
impl<T, E: Debug> IntoOutcome for Result<T, E> {
    fn into_outcome(self) -> Outcome {
        match self {
            Ok(_) => Outcome::Pass,
            Err(error) => Outcome::Fail(crate::format_bounded(
                crate::MAX_FORMATTED,
                format_args!("property returned Err({error:?})"),
            )),
        }
    }
}

/// The panic payload that means "discard this input": `std::panic::panic_any(Discarded)` anywhere
/// inside a property (or in a function it calls) discards the run instead of failing it.
///
/// ```
/// use typefuzz::{check, Config, Discarded};
/// let report = check(&Config::default().with_cases(10), |cx| cx.generate::<u8>(), |x| {
///     if *x % 2 == 1 {
///         std::panic::panic_any(Discarded);
///     }
///     assert_eq!(*x % 2, 0);
/// });
/// assert!(report.failure.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Discarded;

/// A value of a property's return type that means "discard this input"; what `assume!` returns
/// when its condition is false.
///
/// ```
/// use typefuzz::{Discard, IntoOutcome, Outcome};
/// assert_eq!(Outcome::discard(), Outcome::Discard);
/// // `Result`, `()` and `bool` have no discard value the engine reads back: their `discard`
/// // panics with `Discarded`, which the engine (and every adapter) counts as a discard.
/// let panicked = std::panic::catch_unwind(|| Result::<(), String>::discard());
/// assert!(panicked.unwrap_err().is::<typefuzz::Discarded>());
/// ```
///
/// Implement it for a return type whose [`IntoOutcome`] (or whose adapter) maps some value back
/// to [`Outcome::Discard`], as quickcheck's `TestResult::discard()` is.
pub trait Discard {
    /// The discard value (or a [`Discarded`] panic).
    fn discard() -> Self;
}

impl Discard for Outcome {
    fn discard() -> Self {
        Outcome::Discard
    }
}

impl Discard for () {
    fn discard() -> Self {
        std::panic::panic_any(Discarded)
    }
}

impl Discard for bool {
    fn discard() -> Self {
        std::panic::panic_any(Discarded)
    }
}

/// An `Err` is always a failure to the engine (it does not look inside `E`), so a `Result`
/// discards by panicking with [`Discarded`]; this works for every error type.
impl<T, E> Discard for Result<T, E> {
    fn discard() -> Self {
        std::panic::panic_any(Discarded)
    }
}

/// quickcheck's own discard value, which the quickcheck adapter maps to [`Outcome::Discard`].
///
/// This impl is the only reason the engine has a (feature-gated) quickcheck dependency: the
/// orphan rule allows implementing the engine's trait for quickcheck's type only here.
#[cfg(feature = "quickcheck")]
impl Discard for quickcheck::TestResult {
    fn discard() -> Self {
        quickcheck::TestResult::discard()
    }
}

#[cfg(test)]
mod tests {
    use crate::{check, Config, Discard, Outcome};

    #[test]
    fn a_property_may_return_an_error_borrowed_from_its_environment() {
        let forbidden = String::from("13");
        let config = Config::default().with_seed(1).with_cases(2_000);
        let report = check(
            &config,
            |cx| cx.generate::<u8>(),
            |x| -> Result<(), &str> {
                if x.to_string() == forbidden {
                    Err(forbidden.as_str())
                } else {
                    Ok(())
                }
            },
        );
        let failure = report.failure.expect("13 is a u8");
        assert_eq!(failure.minimal, 13);
        assert_eq!(failure.message, r#"property returned Err("13")"#);
    }

    #[test]
    fn a_result_property_discards_through_discard() {
        let config = Config::default().with_seed(2).with_cases(200);
        let report = check(
            &config,
            |cx| cx.generate::<u8>(),
            |x| -> Result<(), String> {
                if *x % 2 == 1 {
                    return Discard::discard();
                }
                Ok(())
            },
        );
        assert!(report.passed());
        assert!(report.stats.discards > 0);
        assert_eq!(report.stats.valid, 200);
    }

    #[test]
    fn an_error_is_a_failure_whatever_its_type() {
        // The engine does not look inside `E`: not even its own `Outcome` reads back as a discard.
        let outcome = crate::IntoOutcome::into_outcome(Err::<(), _>(Outcome::Discard));
        assert_eq!(
            outcome,
            Outcome::Fail("property returned Err(Discard)".into())
        );
    }
}
