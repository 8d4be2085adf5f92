//! Fresh inputs: the inputs libFuzzer just added to its corpus, kept with their untried CmpLog
//! candidates, newest first, so that the mutator can try those candidates right away instead
//! of waiting for libFuzzer to pick the input again.
//!
//! Why: libFuzzer chooses which corpus input a chain of mutations starts from, and with
//! `-use_value_profile=1` its corpus holds thousands of inputs, so the one input a single
//! substitution away from the next stage of a nested condition comes up rarely (on `enum_vector`
//! the bug took a median of about 140,000 executions with one candidate per chain).
//!
//! How the mutator knows an input was added: libFuzzer runs each mutant right after the mutator
//! writes it, and ends the chain early ("We will mutate this input more in the next rounds",
//! `Fuzzer::MutateAndTestOne`) exactly when the run found new coverage and the input joined the
//! corpus. So a chain that restarts after fewer than `-mutate_depth` executions added its last
//! input, whose comparisons are still in the table ([`cmplog`](crate::cmplog)): its candidates
//! need no extra run. A discovery at the chain's last step looks like a chain that ran to its
//! end and is missed (that input still gets the per-chain candidates of
//! [`Substitutions::mutate_seed`] when libFuzzer picks it); this is why inputs are served only
//! at positions before the last, where a served mutant's discovery is always seen.
//!
//! One call in [`FRESH_ONE_IN`] (at such a position, when the queue holds an input) writes the
//! newest fresh input with its next untried candidate applied, whatever input libFuzzer passed.
//! A served mutant that reaches the next stage is itself fresh, and is served next: stage after
//! stage, as Redqueen's input-to-state stage follows a new queue entry. Bounded: at most
//! [`FRESH_CAPACITY`] inputs (the oldest is dropped), each with at most the engine's 128
//! candidates; an input leaves the queue once all its candidates were tried. Every served
//! mutant is a value of the target's type (a kept value with one leaf replaced), encoded by its
//! codec like any other mutant.

use std::collections::VecDeque;
use std::sync::OnceLock;

use typefuzz_engine::feedback::cmplog::{apply, Candidate};
use typefuzz_engine::{Context, Mutate};

use crate::cmplog::Substitutions;

/// One mutation call in this many, when a fresh input has untried candidates, serves one.
pub(crate) const FRESH_ONE_IN: u32 = 4;

/// How many fresh inputs are kept; a new one beyond this drops the oldest.
pub(crate) const FRESH_CAPACITY: usize = 16;

/// A served mutant's encoding may be at most twice as long as its fresh input's, plus this
/// many bytes; a longer one is not served. A logged operand written into a collection's length
/// (any comparison operand that happens to equal the length offers one) appends up to 4,096
/// generated elements; under `-use_value_profile=1` such inputs bring new features, join the
/// corpus, and make every later mutation and crossover slower (measured on `enum_vector`: the
/// corpus three times as many bytes, a third fewer executions per CPU second).
const FRESH_GROWTH: usize = 16;

/// libFuzzer's default `-mutate_depth`.
const DEFAULT_MUTATE_DEPTH: usize = 5;

/// An input libFuzzer added to its corpus, and its candidates not tried yet.
struct Fresh<T> {
    value: T,
    /// The length of its encoding.
    len: usize,
    candidates: Vec<Candidate>,
    tried: usize,
}

/// The fresh inputs, newest last, and where libFuzzer is in its current chain.
pub(crate) struct FreshInputs<T> {
    queue: VecDeque<Fresh<T>>,
    /// Executions since the current chain started.
    chain_runs: usize,
}

impl<T> FreshInputs<T> {
    pub(crate) const fn new() -> Self {
        FreshInputs {
            queue: VecDeque::new(),
            chain_runs: 0,
        }
    }

    /// libFuzzer ran an input.
    pub(crate) fn ran(&mut self) {
        self.chain_runs = self.chain_runs.saturating_add(1);
    }

    /// How many fresh inputs are kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.queue.len()
    }
}

impl<T: Mutate> FreshInputs<T> {
    /// A mutation or crossover call starts from an input other than the one run last: a new
    /// chain. If the previous chain ended early, its last input (`last`, whose bytes are
    /// `last_bytes`; run last, so the comparison table holds its comparisons) joined libFuzzer's
    /// corpus: it becomes the newest fresh input, and the seed table learns its candidates, so
    /// that libFuzzer picking it later costs no run.
    pub(crate) fn chain_start(
        &mut self,
        last: Option<(&T, &[u8])>,
        substitutions: &mut Substitutions,
    ) {
        let runs = std::mem::take(&mut self.chain_runs);
        let Some((value, bytes)) = last else {
            return;
        };
        if runs == 0 || runs >= mutate_depth() {
            return;
        }
        let mut value = value.clone();
        let Some(candidates) = substitutions.last_run_candidates(&mut value) else {
            return;
        };
        if candidates.is_empty() {
            return;
        }
        substitutions.remember_seed(bytes, candidates.clone());
        if self.queue.len() == FRESH_CAPACITY {
            self.queue.pop_front();
        }
        self.queue.push_back(Fresh {
            value,
            len: bytes.len(),
            candidates,
            tried: 0,
        });
    }

    /// One call in [`FRESH_ONE_IN`], when a fresh input has an untried candidate and the
    /// mutant about to be written runs before the chain's last step: the newest fresh input
    /// with its next candidate applied, built in `spare`'s allocations when there is one, and
    /// the most bytes its encoding may take (see [`FRESH_GROWTH`]). Draws nothing from `cx`
    /// while the queue is empty.
    pub(crate) fn serve(&mut self, spare: &mut Option<T>, cx: &mut Context) -> Option<(T, usize)> {
        if self.queue.is_empty()
            || self.chain_runs + 1 >= mutate_depth()
            || !cx.chance(1, FRESH_ONE_IN)
        {
            return None;
        }
        let newest = self.queue.back_mut()?;
        let candidate = &newest.candidates[newest.tried];
        let mut mutant = match spare.take() {
            Some(mut copy) => {
                copy.clone_from(&newest.value);
                copy
            }
            None => newest.value.clone(),
        };
        let applied = apply(&mut mutant, candidate, cx);
        let max_len = 2 * newest.len + FRESH_GROWTH;
        newest.tried += 1;
        if newest.tried == newest.candidates.len() {
            self.queue.pop_back();
        }
        if applied {
            Some((mutant, max_len))
        } else {
            *spare = Some(mutant);
            None
        }
    }
}

/// libFuzzer's `-mutate_depth` (how many mutations a chain makes at most), from the command
/// line, read once.
fn mutate_depth() -> usize {
    static DEPTH: OnceLock<usize> = OnceLock::new();
    *DEPTH.get_or_init(|| {
        std::env::args()
            .rev()
            .find_map(|arg| arg.strip_prefix("-mutate_depth=")?.parse().ok())
            .unwrap_or(DEFAULT_MUTATE_DEPTH)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmplog::tests::{logged_run, with_cmplog_on};
    use typefuzz_engine::codec::to_bytes;

    /// The mutator's side of libFuzzer's chains, on inputs `(u16, u8)` of a property that
    /// compares the `u8` field with 30.
    struct Chains {
        fresh: FreshInputs<(u16, u8)>,
        substitutions: Substitutions,
    }

    impl Chains {
        fn new() -> Self {
            Chains {
                fresh: FreshInputs::new(),
                substitutions: Substitutions::new(),
            }
        }

        /// A chain of `runs` executions, the last on `input`, then a new chain.
        fn end_after(&mut self, runs: usize, input: (u16, u8)) {
            for _ in 0..runs {
                logged_run(|| crate::cmplog::record(u64::from(input.1), 30, 1));
                self.fresh.ran();
            }
            let bytes = to_bytes(&input);
            self.fresh
                .chain_start(Some((&input, &bytes)), &mut self.substitutions);
        }

        /// What 200 mutation calls serve.
        fn served(&mut self, cx: &mut Context) -> Vec<(u16, u8)> {
            (0..200)
                .filter_map(|_| self.fresh.serve(&mut None, cx))
                .map(|(mutant, max_len)| {
                    assert_eq!(max_len, 2 * 3 + FRESH_GROWTH, "three bytes, doubled, plus");
                    mutant
                })
                .collect()
        }
    }

    #[test]
    fn an_input_from_a_chain_that_ended_early_is_served_with_its_candidates() {
        with_cmplog_on(|| {
            let mut chains = Chains::new();
            // Two executions, the second found new coverage: the chain restarts.
            chains.end_after(2, (5, 7));
            assert_eq!(
                chains.fresh.len(),
                1,
                "the input that ended the chain is fresh"
            );
            // The compared operand first, then its neighbours; then the input is used up.
            let served = chains.served(&mut Context::new(3));
            assert_eq!(served, [(5, 30), (5, 31), (5, 29)]);
            assert_eq!(chains.fresh.len(), 0);
        });
    }

    #[test]
    fn a_chain_that_ran_to_its_end_adds_nothing() {
        with_cmplog_on(|| {
            let mut chains = Chains::new();
            chains.end_after(DEFAULT_MUTATE_DEPTH, (5, 7));
            assert_eq!(chains.fresh.len(), 0);
            // Nor does a chain start with no execution since the last one.
            chains.end_after(0, (5, 7));
            assert_eq!(chains.fresh.len(), 0);
        });
    }

    #[test]
    fn the_queue_keeps_the_newest_inputs_and_serves_them_first() {
        with_cmplog_on(|| {
            let mut chains = Chains::new();
            for first in 0..FRESH_CAPACITY as u16 + 4 {
                chains.end_after(1, (first, 7));
            }
            assert_eq!(chains.fresh.len(), FRESH_CAPACITY);
            let served = chains.served(&mut Context::new(1));
            assert_eq!(served[0], (FRESH_CAPACITY as u16 + 3, 30));
        });
    }

    #[test]
    fn nothing_is_served_at_the_last_step_of_a_chain() {
        with_cmplog_on(|| {
            let mut chains = Chains::new();
            chains.end_after(1, (5, 7));
            for _ in 0..DEFAULT_MUTATE_DEPTH - 1 {
                chains.fresh.ran();
            }
            assert!(chains.served(&mut Context::new(1)).is_empty());
            assert_eq!(chains.fresh.len(), 1);
        });
    }
}
