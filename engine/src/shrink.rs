//! Shrinking: turning a failing input into a minimal one by greedy descent over
//! [`Mutate::shrink`] candidates — take the first candidate that still fails, repeat until none
//! does — bounded by time and by the number of candidates tried.

use std::time::{Duration, Instant};

use crate::executor::Verdict;
use crate::{Context, FailureKind, Mutate};

/// Which bound stopped shrinking early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShrinkLimit {
    Time(Duration),
    Steps(u64),
}

impl ShrinkLimit {
    /// What to tell the user: which knob to turn.
    pub(crate) fn advice(self) -> String {
        match self {
            ShrinkLimit::Time(limit) => format!(
                "shrinking stopped after {limit:.1?}; the input may not be minimal: raise \
                 Config::shrink_time (TYPEFUZZ_SHRINK_TIME) to shrink further"
            ),
            ShrinkLimit::Steps(limit) => format!(
                "shrinking stopped after trying {limit} candidates; the input may not be minimal: \
                 raise Config::shrink_steps (TYPEFUZZ_SHRINK_STEPS) to shrink further"
            ),
        }
    }
}

/// The result of shrinking.
#[derive(Debug)]
pub(crate) struct Shrunk<T> {
    pub(crate) minimal: T,
    pub(crate) kind: FailureKind,
    pub(crate) message: String,
    /// Accepted simplifications.
    pub(crate) steps: u64,
    /// Candidates run.
    pub(crate) tried: u64,
    pub(crate) stopped_by: Option<ShrinkLimit>,
}

/// Greedily shrinks `failing` (which failed with `kind` and `message`) while `run` says the
/// candidate still fails.
pub(crate) fn minimize<T: Mutate>(
    failing: T,
    kind: FailureKind,
    message: String,
    cx: &mut Context,
    max_time: Duration,
    max_tried: u64,
    mut run: impl FnMut(&T) -> Verdict,
) -> Shrunk<T> {
    let started = Instant::now();
    let mut shrunk = Shrunk {
        minimal: failing,
        kind,
        message,
        steps: 0,
        tried: 0,
        stopped_by: None,
    };
    'descend: loop {
        for candidate in shrunk.minimal.shrink(cx) {
            if shrunk.tried >= max_tried {
                shrunk.stopped_by = Some(ShrinkLimit::Steps(max_tried));
                break 'descend;
            }
            if started.elapsed() >= max_time {
                shrunk.stopped_by = Some(ShrinkLimit::Time(max_time));
                break 'descend;
            }
            shrunk.tried += 1;
            if let Verdict::Fail { kind, message } = run(&candidate) {
                shrunk.minimal = candidate;
                shrunk.kind = kind;
                shrunk.message = message;
                shrunk.steps += 1;
                continue 'descend;
            }
        }
        // No candidate fails any more: a local minimum.
        break;
    }
    shrunk
}
