//! Shrinking: turning a failing input into a minimal one by greedy descent over
//! [`Mutate::shrink`] candidates — take the first candidate that still fails, repeat until none
//! does — bounded by time and by the number of candidates tried.
//!
//! Candidates are taken one at a time ([`Mutate::shrink_each`]), so a 100 MB input costs about
//! one more copy of itself, not one per candidate. A value nested deeper than
//! [`MAX_SHRINK_CLONE_DEPTH`] has no candidates (each would be a copy, and copying recurses once
//! per level): it is shrunk by moving one of its same-type subterms out in its place
//! ([`take_subterm`], no copy), trying it, and putting it back if it passes, until it is shallow
//! enough for the ordinary candidates.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use typefuzz_core::__private::{
    count_subterms, deeper_than, dispose, replace_subterm, take_subterm, MAX_SHRINK_CLONE_DEPTH,
};

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
    /// Why the minimal input may not be minimal, when no limit stopped shrinking.
    pub(crate) note: Option<String>,
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
        note: None,
    };
    // May the next candidate run? Counts it if so.
    let admit = |tried: &mut u64| -> Result<(), ShrinkLimit> {
        if *tried >= max_tried {
            return Err(ShrinkLimit::Steps(max_tried));
        }
        if started.elapsed() >= max_time {
            return Err(ShrinkLimit::Time(max_time));
        }
        *tried += 1;
        Ok(())
    };
    loop {
        let mut accepted = None;
        let mut stopped = None;
        if deeper_than(&shrunk.minimal, MAX_SHRINK_CLONE_DEPTH) {
            for index in 0..count_subterms(&shrunk.minimal) {
                if let Err(limit) = admit(&mut shrunk.tried) {
                    stopped = Some(limit);
                    break;
                }
                let Some(subterm) = take_subterm(&mut shrunk.minimal, index, cx) else {
                    break;
                };
                match run(&subterm) {
                    Verdict::Fail { kind, message } => {
                        accepted = Some((subterm, kind, message));
                        break;
                    }
                    // Back in its place; the placeholder it returns is shallow.
                    _ => drop(replace_subterm(&mut shrunk.minimal, index, subterm)),
                }
            }
        } else {
            let tried = &mut shrunk.tried;
            shrunk.minimal.shrink_each(cx, &mut |candidate| {
                if let Err(limit) = admit(tried) {
                    stopped = Some(limit);
                    return ControlFlow::Break(());
                }
                match run(&candidate) {
                    Verdict::Fail { kind, message } => {
                        accepted = Some((candidate, kind, message));
                        ControlFlow::Break(())
                    }
                    // Dropped here, before the next candidate is made.
                    _ => ControlFlow::Continue(()),
                }
            });
        }
        if let Some((candidate, kind, message)) = accepted {
            // The old value may still be deep through its other subterms: no recursive drop.
            dispose(std::mem::replace(&mut shrunk.minimal, candidate));
            shrunk.kind = kind;
            shrunk.message = message;
            shrunk.steps += 1;
            continue;
        }
        shrunk.stopped_by = stopped;
        break;
    }
    if shrunk.stopped_by.is_none() && deeper_than(&shrunk.minimal, MAX_SHRINK_CLONE_DEPTH) {
        shrunk.note = Some(format!(
            "the minimal input is nested more than {MAX_SHRINK_CLONE_DEPTH} levels deep and none \
             of its same-type subterms fails on its own; its other simplifications (dropping \
             variants, shrinking fields) were not tried, because each would copy the value and \
             copying recurses once per level: it may not be minimal"
        ));
    }
    shrunk
}
