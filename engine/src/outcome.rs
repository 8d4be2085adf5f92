//! Outcome: what one run of a property says about its input — pass, discard, or fail.
//!
//! A property may return anything that implements [`IntoOutcome`]: `()`, `bool`, [`Outcome`],
//! `Result<T, E>`, and (behind the engine's `proptest` / `quickcheck` features) proptest's
//! `Result<(), TestCaseError>` and quickcheck's `TestResult`. A panic fails the run, except a
//! panic whose payload is [`Discarded`], which discards it: that is how `assume!` discards from a
//! property returning `()`.

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

/// `Ok` passes and `Err(e)` fails with `e`'s `Debug` text — except the discard values of
/// [`Discard`]: `Err(Discarded)`, `Err(Outcome::Discard)` and proptest's `TestCaseError::Reject`
/// (with the engine's `proptest` feature), which discard; `Err(Outcome::Fail(m))` fails with `m`.
///
/// The `'static` bound is what lets the engine recognize proptest's error type without a second,
/// overlapping impl.
impl<T, E: Debug + 'static> IntoOutcome for Result<T, E> {
    fn into_outcome(self) -> Outcome {
        match self {
            Ok(_) => Outcome::Pass,
            Err(error) => error_outcome(&error),
        }
    }
}

fn error_outcome<E: Debug + 'static>(error: &E) -> Outcome {
    let any = error as &dyn core::any::Any;
    // The error values `Discard` produces for `Result` return types must read back as discards.
    if any.is::<Discarded>() {
        return Outcome::Discard;
    }
    if let Some(outcome) = any.downcast_ref::<Outcome>() {
        return match outcome {
            Outcome::Fail(message) => Outcome::Fail(message.clone()),
            other => other.clone(),
        };
    }
    #[cfg(feature = "proptest")]
    if let Some(error) = any.downcast_ref::<proptest::test_runner::TestCaseError>() {
        return match error {
            proptest::test_runner::TestCaseError::Reject(_) => Outcome::Discard,
            proptest::test_runner::TestCaseError::Fail(reason) => {
                Outcome::Fail(reason.message().to_string())
            }
        };
    }
    Outcome::Fail(format!("property returned Err({error:?})"))
}

#[cfg(feature = "quickcheck")]
impl IntoOutcome for quickcheck::TestResult {
    fn into_outcome(self) -> Outcome {
        if self.is_failure() {
            return Outcome::Fail(format!("{self:?}"));
        }
        // `TestResult` does not expose "discarded"; its derived Debug starts with the status.
        // Only the first bytes are formatted, so this costs a few nanoseconds per test.
        if debug_prefix(&self).starts_with("TestResult { status: Discard") {
            Outcome::Discard
        } else {
            Outcome::Pass
        }
    }
}

/// The first 32 bytes of `value`'s `Debug` text, formatting no further than that.
#[cfg(feature = "quickcheck")]
fn debug_prefix(value: &dyn Debug) -> String {
    struct Prefix(String);
    impl fmt::Write for Prefix {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let room = 32usize.saturating_sub(self.0.len());
            let take = s
                .char_indices()
                .map(|(i, c)| i + c.len_utf8())
                .take_while(|&end| end <= room)
                .last();
            self.0.push_str(&s[..take.unwrap_or(0)]);
            if self.0.len() >= 32 || take.unwrap_or(0) < s.len() {
                Err(fmt::Error)
            } else {
                Ok(())
            }
        }
    }
    let mut prefix = Prefix(String::new());
    let _ = fmt::write(&mut prefix, format_args!("{value:?}"));
    prefix.0
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
/// assert_eq!(Result::<(), Discarded>::discard().into_outcome(), Outcome::Discard);
/// # use typefuzz::Discarded;
/// ```
///
/// For `()` and `bool`, which have no discard value, `discard` panics with [`Discarded`], which the
/// engine catches and counts as a discard. For `Result<T, E>` it is `Err(E::discard())`; the
/// engine reads `Err` back as a discard only for the error types implemented here ([`Discarded`],
/// [`Outcome`], proptest's `TestCaseError`), so implement this trait for your own error types
/// only if you also map that value back in your property's return type.
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

impl Discard for Discarded {
    fn discard() -> Self {
        Discarded
    }
}

impl<T, E: Discard> Discard for Result<T, E> {
    fn discard() -> Self {
        Err(E::discard())
    }
}

#[cfg(feature = "proptest")]
impl Discard for proptest::test_runner::TestCaseError {
    fn discard() -> Self {
        proptest::test_runner::TestCaseError::reject("assume! condition was false")
    }
}

#[cfg(feature = "quickcheck")]
impl Discard for quickcheck::TestResult {
    fn discard() -> Self {
        quickcheck::TestResult::discard()
    }
}
