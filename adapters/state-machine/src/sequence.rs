//! The genotype: a command sequence as the choice bytes proptest's strategies read.
//!
//! A [`Commands`] value holds the bytes of the initial state and one byte string per command.
//! Replaying a byte string through proptest's pass-through RNG
//! (`TestRng::from_seed(RngAlgorithm::PassThrough, bytes)`, the bytes followed by a fixed padding
//! so that a strategy reading past the end cannot hang) into
//! the strategy `transitions(&state)` gives the command, so any `Transition` type works, no
//! `Mutate` bound needed, and every mutant decodes to a value the user's strategies can produce.
//! Because `transitions` depends on the state, the same bytes may decode to a different command
//! after an earlier command changed: replay re-checks `preconditions` along the sequence.

use std::cell::RefCell;
use std::rc::Rc;

use typefuzz_engine::codec::{Decoder, Encoder};

use crate::commands::Commands;
use crate::guided;
use crate::state_features::prefix_key;
use typefuzz_engine::feedback::structure::Structure;
use typefuzz_engine::{Context, Mutate, Operator};

/// Choice bytes drawn for a command inserted by mutation: more than most strategies read (a
/// `prop_oneof!` of ranges reads 8 to 24); a strategy reading past the end sees the fixed padding.
pub(crate) const CHOICE_BYTES: usize = 32;
/// Longest run of commands one splice or duplication copies.
const MAX_RUN: usize = 8;
/// Sequences remembered as splice donors.
const MAX_DONORS: usize = 256;
/// Single-command removals and per-command simplifications offered by one shrink step.
const SHRINK_REMOVALS: usize = 64;
const SHRINK_COMMANDS: usize = 32;

fn random_choice(cx: &mut Context) -> Vec<u8> {
    let mut bytes = vec![0; CHOICE_BYTES];
    cx.rng().fill(&mut bytes);
    bytes
}

/// Sequences that reached new model states in the current run: what splicing copies from.
/// `Mutate::mutate` sees only the value it mutates and the context, so the adapter keeps its own
/// pool of interesting sequences (the same criterion as the engine's fingerprint feedback),
/// shared between the run's replay model, which donates, and the run's [`Context`], where it
/// is an extension the mutator draws from (none, as in a context a user made: no splicing).
#[derive(Clone, Default)]
pub(crate) struct DonorPool(Rc<RefCell<Donors>>);

#[derive(Default)]
struct Donors {
    pool: Vec<Commands>,
    next: usize,
}

thread_local! {
    /// The model-state features of the sequence replayed last, tagged with the sequence's hash:
    /// what [`Commands::visit_structure`] reports when the engine observes that sequence.
    static OBSERVED: RefCell<(u64, Vec<u64>)> = const { RefCell::new((0, Vec::new())) };
}

/// A 64-bit hash of `commands`, to tell the sequence replayed last from others.
fn identity(commands: &Commands) -> u64 {
    let init = prefix_key(0, &commands.init);
    commands
        .steps
        .iter()
        .fold(init, |key, bytes| prefix_key(key, bytes))
}

/// Records `features` as what replaying `commands` reached (see [`Commands::visit_structure`]).
pub(crate) fn observed(commands: &Commands, features: &[u64]) {
    let id = identity(commands);
    OBSERVED.with(|o| {
        let mut o = o.borrow_mut();
        o.0 = id;
        o.1.clear();
        o.1.extend_from_slice(features);
    });
}

impl DonorPool {
    /// Offers `commands` as a splice donor (bounded: the oldest is replaced).
    pub(crate) fn donate(&self, commands: &Commands) {
        let mut d = self.0.borrow_mut();
        if d.pool.len() < MAX_DONORS {
            d.pool.push(commands.clone());
        } else {
            let slot = d.next;
            d.pool[slot] = commands.clone();
            d.next = (slot + 1) % MAX_DONORS;
        }
    }
}

/// A run of commands from a random donor, if there is one with commands.
fn donor_run(cx: &mut Context) -> Option<Vec<Vec<u8>>> {
    let pool = cx.extension::<DonorPool>()?.clone();
    let d = pool.0.borrow();
    if d.pool.is_empty() {
        return None;
    }
    let donor = &d.pool[cx.below(d.pool.len())];
    if donor.steps.is_empty() {
        return None;
    }
    let start = cx.below(donor.steps.len());
    let len = 1 + cx.below((donor.steps.len() - start).min(MAX_RUN));
    Some(donor.steps[start..start + len].to_vec())
}

impl Commands {
    fn insert(&mut self, cx: &mut Context) {
        cx.record(Operator::Insert);
        let at = cx.below(self.steps.len() + 1);
        self.steps.insert(at, random_choice(cx));
    }

    /// A fresh command at the end: the sequences in the engine's queues are valid, so the new
    /// command is drawn in the state the whole sequence reached, and a valid sequence that reached
    /// a new state is extended from there (the way a chain of enabled commands grows).
    fn append(&mut self, cx: &mut Context) {
        cx.record(Operator::Insert);
        self.steps.push(random_choice(cx));
    }

    /// The last command drawn afresh: another way on from the state before it.
    fn redraw_last(&mut self, cx: &mut Context) {
        cx.record(Operator::Element);
        if let Some(last) = self.steps.last_mut() {
            *last = random_choice(cx);
        }
    }

    fn remove(&mut self, cx: &mut Context) {
        cx.record(Operator::Remove);
        let start = cx.below(self.steps.len());
        let len = if cx.chance(3, 4) {
            1
        } else {
            1 + cx.below((self.steps.len() - start).min(MAX_RUN))
        };
        self.steps.drain(start..start + len);
    }

    fn duplicate(&mut self, cx: &mut Context, room: usize) {
        cx.record(Operator::Duplicate);
        let start = cx.below(self.steps.len());
        let len = 1 + cx.below((self.steps.len() - start).min(MAX_RUN).min(room));
        let run: Vec<Vec<u8>> = self.steps[start..start + len].to_vec();
        let at = cx.below(self.steps.len() + 1);
        self.steps.splice(at..at, run);
    }

    fn swap(&mut self, cx: &mut Context) {
        cx.record(Operator::Swap);
        let a = cx.below(self.steps.len());
        let b = cx.below(self.steps.len());
        self.steps.swap(a, b);
    }

    /// Copies a run of commands from another interesting sequence: inserted at a random place,
    /// or replacing this sequence's tail (one-point crossover). Returns false without a donor.
    fn splice(&mut self, cx: &mut Context, room: usize) -> bool {
        let Some(mut run) = donor_run(cx) else {
            return false;
        };
        cx.record(Operator::Crossover);
        let at = cx.below(self.steps.len() + 1);
        if cx.chance(1, 2) || room == 0 {
            self.steps.truncate(at);
            run.truncate(cx.max_size().saturating_sub(at));
        } else {
            run.truncate(room);
        }
        self.steps.splice(at..at, run);
        true
    }

    /// Copies one 4-byte word of a command's choice bytes into another command at the same
    /// offset: commands drawn by the same strategy read their parameters at the same offsets, so
    /// this gives a command another's account, amount or key (`Withdraw(2, 37)` after
    /// `Deposit(0, 512)` becomes `Withdraw(0, 37)` or `Withdraw(2, 512)`) — the equalities between
    /// commands that state-machine bugs hide behind, which random bytes hit once in thousands.
    /// Returns false when no two commands share a word.
    fn copy_word(&mut self, cx: &mut Context) -> bool {
        let len = self.steps.len();
        let (to, from) = (cx.below(len), cx.below(len));
        let words = self.steps[to].len().min(self.steps[from].len()) / 4;
        if to == from || words == 0 {
            return false;
        }
        cx.record(Operator::Duplicate);
        let at = 4 * cx.below(words);
        let word: [u8; 4] = self.steps[from][at..at + 4].try_into().expect("4 bytes");
        self.steps[to][at..at + 4].copy_from_slice(&word);
        true
    }

    fn mutate_command(&mut self, cx: &mut Context) {
        cx.record(Operator::Element);
        let index = cx.below(self.steps.len());
        let size = cx.size();
        cx.descend(size, |cx| self.steps[index].mutate(cx));
    }
}

impl Mutate for Commands {
    /// Random choice bytes for the initial state and up to `cx.size()` commands. The adapter
    /// generates its seeds from the model instead (enabled commands only, as proptest does);
    /// this is what the engine's own fresh values look like.
    fn generate(cx: &mut Context) -> Self {
        let len = cx.below(cx.size() + 1);
        Commands {
            init: random_choice(cx),
            steps: (0..len).map(|_| random_choice(cx)).collect(),
        }
    }

    /// One of: insert a fresh command, remove a command (or a short run), duplicate a run, swap
    /// two commands, splice a run from another interesting sequence, mutate one command's
    /// bytes, or mutate the initial state's bytes. Never grows past `cx.max_size()` commands.
    fn mutate(&mut self, cx: &mut Context) {
        let len = self.steps.len();
        let room = cx.max_size().saturating_sub(len);
        if len == 0 {
            if room > 0 && !(cx.chance(1, 4) && self.splice(cx, room)) {
                self.append(cx);
            } else if room == 0 {
                cx.record(Operator::Recursive);
                self.init.mutate(cx);
            }
            return;
        }
        let weights = [
            if room > 0 { 3 } else { 0 }, // insert
            2,                            // remove
            if room > 0 { 1 } else { 0 }, // duplicate
            if len >= 2 { 2 } else { 0 }, // swap
            3,                            // splice
            6,                            // one command's bytes
            1,                            // the initial state's bytes
            if room > 0 { 6 } else { 0 }, // append
            2,                            // redraw the last command
            if len >= 2 { 3 } else { 0 }, // a word copied between two commands
        ];
        match cx.weighted(&weights) {
            Some(0) => self.insert(cx),
            Some(1) => self.remove(cx),
            Some(2) => self.duplicate(cx, room),
            Some(3) => self.swap(cx),
            Some(4) => {
                if !self.splice(cx, room) {
                    self.mutate_command(cx);
                }
            }
            Some(5) => self.mutate_command(cx),
            Some(7) => self.append(cx),
            Some(8) => self.redraw_last(cx),
            Some(9) => {
                if !self.copy_word(cx) {
                    self.mutate_command(cx);
                }
            }
            _ => {
                cx.record(Operator::Recursive);
                self.init.mutate(cx);
            }
        }
    }

    /// With the model a run installs (see `crate::guided`), first the sequence's canonical bytes
    /// (the bytes each command reads, zero wherever that decodes the same). Then deletions: half
    /// the sequence, each single command from the back (as proptest-state-machine deletes),
    /// adjacent pairs, and with the model the cascaded and repaired deletions (a command deleted
    /// with the commands that depended on it, or with another command's parameter mended). Then
    /// simpler parameters: each command's bytes zeroed, halved in length, one byte zeroed or
    /// halved — front to back — then the initial state's. Every candidate is shorter, or as long
    /// with bytes lexicographically smaller, so greedy shrinking ends.
    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        let mut out = Vec::new();
        out.extend(guided::canonical(self, cx));
        let len = self.steps.len();
        if len >= 4 {
            out.push(Commands {
                init: self.init.clone(),
                steps: self.steps[..len / 2].to_vec(),
            });
            out.push(Commands {
                init: self.init.clone(),
                steps: self.steps[len / 2..].to_vec(),
            });
        }
        for index in (0..len).rev().take(SHRINK_REMOVALS) {
            let mut steps = self.steps.clone();
            steps.remove(index);
            out.push(Commands {
                init: self.init.clone(),
                steps,
            });
        }
        // Adjacent pairs: a command and the one it enables (`Freeze` then `Unfreeze`) often go
        // together, and neither can be deleted alone without disabling the other.
        for index in (0..len.saturating_sub(1)).rev().take(SHRINK_REMOVALS) {
            let mut steps = self.steps.clone();
            steps.drain(index..index + 2);
            out.push(Commands {
                init: self.init.clone(),
                steps,
            });
        }
        // Then the deletions that need another command deleted or mended with them.
        guided::deletions(self, cx, &mut out);
        for (index, bytes) in self.steps.iter().enumerate().take(SHRINK_COMMANDS) {
            for simpler in simpler_bytes(bytes) {
                let mut steps = self.steps.clone();
                steps[index] = simpler;
                out.push(Commands {
                    init: self.init.clone(),
                    steps,
                });
            }
        }
        for simpler in simpler_bytes(&self.init) {
            out.push(Commands {
                init: simpler,
                steps: self.steps.clone(),
            });
        }
        out
    }

    /// The model states the sequence reached when it was last replayed (when the engine
    /// observes a run, that replay is this run's): each component fingerprint of each reference
    /// state on the way is a structure feature. So a sequence reaching a new abstract state is
    /// interesting through the engine's own structure feedback — rescaled and forgotten with the
    /// rest of the feedback when the engine restarts its search. A sequence not replayed last
    /// reports nothing.
    fn visit_structure(&self, structure: &mut Structure<'_>) {
        let id = identity(self);
        OBSERVED.with(|o| {
            let o = o.borrow();
            if o.0 == id {
                for &feature in &o.1 {
                    structure.node(feature);
                }
            }
        });
    }

    fn encode(&self, out: &mut Encoder) {
        self.init.encode(out);
        self.steps.encode(out);
    }

    /// The choice bytes (the structure walk reports the model states reached, not the bytes).
    fn hash_value(&self, hasher: &mut typefuzz_engine::mutate::ValueHasher) {
        hasher.write_bytes(&self.init);
        hasher.write(self.steps.len() as u64);
        for step in &self.steps {
            hasher.write_bytes(step);
        }
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        let init = Vec::<u8>::decode(input);
        let steps = Vec::<Vec<u8>>::decode(input);
        Commands { init, steps }
    }
}

/// Simpler choice bytes, most aggressive first: none, the first half, then each of the first
/// bytes zeroed or halved. Each is shorter or lexicographically smaller, so shrinking ends.
fn simpler_bytes(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    if bytes.is_empty() {
        return out;
    }
    out.push(Vec::new());
    if bytes.len() > 1 {
        out.push(bytes[..bytes.len() / 2].to_vec());
    }
    for (i, &b) in bytes.iter().enumerate().take(16) {
        if b != 0 {
            let mut zeroed = bytes.to_vec();
            zeroed[i] = 0;
            out.push(zeroed);
            if b > 1 {
                let mut halved = bytes.to_vec();
                halved[i] = b / 2;
                out.push(halved);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use typefuzz_engine::codec;

    /// Distinct sequences are counted by their choice bytes, not by the model states their
    /// structure walk reports (none for a sequence not replayed last).
    #[test]
    fn hashes_see_the_choice_bytes() {
        use typefuzz_engine::mutate::ValueHasher;
        let hash = |steps: &[&[u8]]| ValueHasher::of(&commands(steps)).expect("bytes hash");
        assert_eq!(hash(&[b"ab", b"c"]), hash(&[b"ab", b"c"]));
        assert_ne!(hash(&[b"ab", b"c"]), hash(&[b"a", b"bc"]));
        assert_ne!(hash(&[b"ab"]), hash(&[b"ab", b""]));
    }

    fn commands(steps: &[&[u8]]) -> Commands {
        Commands {
            init: vec![1, 2],
            steps: steps.iter().map(|s| s.to_vec()).collect(),
        }
    }

    #[test]
    fn mutation_stays_within_the_size_bound_and_round_trips() {
        let mut cx = Context::new(3).with_max_size(5);
        let mut value = Commands::generate(&mut cx);
        for _ in 0..2000 {
            cx.mutate(&mut value);
            assert!(value.len() <= 5, "{value:?}");
            let bytes = codec::to_bytes(&value);
            assert_eq!(codec::from_bytes::<Commands>(&bytes), value);
        }
    }

    #[test]
    fn splicing_copies_commands_from_donors() {
        let donors = DonorPool::default();
        donors.donate(&commands(&[&[7, 7, 7]]));
        let mut cx = Context::new(5).with_max_size(8).with_extension(donors);
        let mut spliced = false;
        for _ in 0..200 {
            let mut value = commands(&[&[1], &[2]]);
            let trace = cx.mutate(&mut value).to_vec();
            if trace.contains(&Operator::Crossover) {
                assert!(value.steps.contains(&vec![7, 7, 7]), "{value:?}");
                spliced = true;
            }
        }
        assert!(spliced);
    }

    #[test]
    fn the_last_replay_s_states_are_its_structure_features() {
        let mut map = vec![0u64; Structure::MAP_WORDS];
        let (replayed, other) = (commands(&[&[1]]), commands(&[&[2]]));
        observed(&replayed, &[11, 12]);
        let mut structure = Structure::new(&mut map);
        other.visit_structure(&mut structure);
        assert_eq!(
            structure.new_features(),
            0,
            "not the sequence replayed last"
        );
        let mut structure = Structure::new(&mut map);
        replayed.visit_structure(&mut structure);
        assert!(structure.new_features() > 0);
        let mut structure = Structure::new(&mut map);
        replayed.visit_structure(&mut structure);
        assert_eq!(
            structure.new_features(),
            0,
            "the same states again are not new"
        );
    }

    #[test]
    fn appending_extends_at_the_end() {
        let mut cx = Context::new(9).with_max_size(8);
        let mut value = commands(&[&[1], &[2]]);
        value.append(&mut cx);
        assert_eq!(value.len(), 3);
        assert_eq!(value.steps[..2], [vec![1], vec![2]]);
        value.redraw_last(&mut cx);
        assert_eq!(
            (value.len(), &value.steps[..2]),
            (3, &[vec![1], vec![2]][..])
        );
    }

    #[test]
    fn shrink_candidates_delete_before_simplifying_and_are_smaller() {
        let value = commands(&[&[1], &[2, 0], &[3, 4]]);
        let candidates = value.shrink(&mut Context::new(0));
        assert_eq!(candidates[0].steps, vec![vec![1], vec![2, 0]]);
        assert_eq!(candidates[2].steps, vec![vec![2, 0], vec![3, 4]]);
        for candidate in &candidates {
            let shorter = candidate.len() < value.len();
            let smaller_bytes = candidate.len() == value.len()
                && (candidate.steps < value.steps
                    || candidate
                        .steps
                        .iter()
                        .zip(&value.steps)
                        .any(|(a, b)| a.len() < b.len())
                    || candidate.init < value.init);
            assert!(shorter || smaller_bytes, "{candidate:?}");
        }
        assert!(Commands::default().shrink(&mut Context::new(0)).is_empty());
    }
}
