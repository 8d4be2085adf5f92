//! The outcome of one property evaluation.

/// What one evaluation of a property says about its input.
///
/// ETNA properties return a precondition and a postcondition; a failed precondition is a
/// [`Discard`](Verdict::Discard) (QuickCheck's `==>`, proptest's `prop_assume!`).
///
/// ```
/// use typefuzz_bench_targets::Verdict;
/// assert_eq!(Verdict::check(false, || unreachable!()), Verdict::Discard);
/// assert_eq!(Verdict::check(true, || 1 + 1 == 2), Verdict::Pass);
/// assert_eq!(Verdict::from(false), Verdict::Fail);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The precondition held and so did the postcondition.
    Pass,
    /// The precondition failed: the input says nothing about the property.
    Discard,
    /// The precondition held and the postcondition failed: a bug.
    Fail,
}

impl Verdict {
    /// Evaluates `post` only when `pre` holds (it may be costly or meaningless otherwise).
    ///
    /// ```
    /// use typefuzz_bench_targets::Verdict;
    /// assert_eq!(Verdict::check(true, || false), Verdict::Fail);
    /// ```
    pub fn check(pre: bool, post: impl FnOnce() -> bool) -> Verdict {
        if !pre {
            Verdict::Discard
        } else {
            Verdict::from(post())
        }
    }

    /// Whether this verdict reports a bug.
    ///
    /// ```
    /// use typefuzz_bench_targets::Verdict;
    /// assert!(Verdict::Fail.is_fail());
    /// assert!(!Verdict::Discard.is_fail());
    /// ```
    pub fn is_fail(self) -> bool {
        self == Verdict::Fail
    }
}

impl From<bool> for Verdict {
    /// A property without precondition: `true` passes, `false` fails.
    fn from(ok: bool) -> Verdict {
        if ok {
            Verdict::Pass
        } else {
            Verdict::Fail
        }
    }
}
