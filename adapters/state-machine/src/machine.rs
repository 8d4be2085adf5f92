//! Replay: from [`Commands`] (choice bytes) to a reference trace, re-checking preconditions, with
//! the per-command statistics and the state fingerprints recorded on the way; and fresh
//! generation of enabled sequences from the model, as proptest-state-machine generates them.

use std::collections::HashMap;
use std::fmt::{self, Debug, Write as _};

use proptest::collection::SizeRange;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as ProptestConfig, RngAlgorithm, TestRng, TestRunner};
use proptest_state_machine::ReferenceStateMachine;
use typefuzz_engine::Context;

use crate::commands::{padding, Commands, PADDING};
use crate::guided::ShrinkModel;
use crate::sequence::{self, DonorPool};
use crate::state_features::{prefix_key, Fingerprints, PrehashedMap};

/// Draws per command before fresh generation gives up on finding an enabled one and ends the
/// sequence early (proptest-state-machine rejects up to `max_local_rejects` instead).
const GENERATION_ATTEMPTS: usize = 256;
/// Distinct command names counted; the rest are counted under `<other>`.
const MAX_COMMAND_NAMES: usize = 64;
/// Prefixes whose last command's kind is remembered, at most (the memory starts afresh when full).
const MAX_CACHED_KINDS: usize = 1 << 18;

/// Choice bytes of one command (or initial state) placed before the padding without copying it.
const ROOM: usize = 256;

/// The pass-through RNG that replays `bytes`, followed by the [`PADDING`] bytes of [`padding`].
///
/// Why the padding: proptest's pass-through RNG reads zeros past the end of its data, and the
/// uniform integer sampling under proptest's ranges (`rand`'s `Uniform::sample`) rejects an
/// all-zero word for every range whose width is not a power of two — and draws again, forever.
/// And the data runs out sooner than its length says: a `prop_oneof!` that picks its `k`-th
/// option first creates the `k` options before it lazily, each with `TestRunner::partial_clone`,
/// which gives the clone the second half of the remaining data and keeps the first — so the
/// picked option sees only `1/2^k` of what was left. The padding is long enough that a pick among
/// a dozen options still leaves several words after the command's own bytes, and pseudo-random,
/// so each of those words is accepted by such a draw with probability above one half (a 1 KiB
/// `0xFF` padding hung: after seven halvings only the command's own, rejected, word was left).
/// Because the padding is the same for every command, two commands cut short at the same
/// point read the same values (a withdrawal matching a deposit stays reachable). A strategy that
/// reads more than the command's bytes plus the padding (a collection of hundreds of values in
/// one command) reaches the zeros again; such strategies are beyond what a command's choice
/// sequence is made for.
///
/// `buffer` holds [`ROOM`] bytes then the padding, and `bytes` are written right before the
/// padding, so the padding is copied into the buffer once, not once per command (`from_seed`
/// still copies the whole slice).
fn choices(buffer: &mut Vec<u8>, bytes: &[u8]) -> TestRng {
    if buffer.len() != ROOM + PADDING {
        buffer.clear();
        buffer.resize(ROOM, 0);
        buffer.extend_from_slice(padding());
    }
    if bytes.len() <= ROOM {
        let start = ROOM - bytes.len();
        buffer[start..ROOM].copy_from_slice(bytes);
        return TestRng::from_seed(RngAlgorithm::PassThrough, &buffer[start..]);
    }
    let data = [bytes, padding()].concat();
    TestRng::from_seed(RngAlgorithm::PassThrough, &data)
}

/// How often one kind of command (a `Transition` variant, named by its `Debug` text up to the
/// first `(`, `{` or space) was decoded in a test, was enabled, and was rejected by
/// `preconditions`.
///
/// ```
/// let stats = typefuzz::state_machine::CommandStats {
///     name: "Deposit".into(), generated: 10, enabled: 7, rejected: 3,
/// };
/// assert_eq!(stats.to_string(), "Deposit: generated 10, enabled 7, rejected by precondition 3");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandStats {
    /// The variant name.
    pub name: String,
    /// Commands of this kind decoded in tests (fresh or mutated sequences).
    pub generated: u64,
    /// ... whose precondition held in the state they were decoded in.
    pub enabled: u64,
    /// ... whose precondition did not hold (the test was a discard).
    pub rejected: u64,
}

impl fmt::Display for CommandStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: generated {}, enabled {}, rejected by precondition {}",
            self.name, self.generated, self.enabled, self.rejected
        )
    }
}

/// A decoded command sequence: the initial reference state, then each transition with the
/// reference state after it.
///
/// Its `Display` prints one command per line with the state after it, as failure reports do.
pub struct Trace<R: ReferenceStateMachine> {
    /// The initial reference state.
    pub initial: R::State,
    /// Each transition and the reference state after it.
    pub steps: Vec<(R::Transition, R::State)>,
}

impl<R: ReferenceStateMachine> Trace<R> {
    /// The transitions, in order.
    pub fn transitions(&self) -> Vec<R::Transition> {
        self.steps.iter().map(|(t, _)| t.clone()).collect()
    }
}

impl<R: ReferenceStateMachine> Clone for Trace<R> {
    fn clone(&self) -> Self {
        Trace {
            initial: self.initial.clone(),
            steps: self.steps.clone(),
        }
    }
}

impl<R: ReferenceStateMachine> Debug for Trace<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Trace")
            .field("initial", &self.initial)
            .field("steps", &self.steps)
            .finish()
    }
}

impl<R: ReferenceStateMachine> fmt::Display for Trace<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} transitions", self.steps.len())?;
        writeln!(f, "\tinitial state: {:?}", self.initial)?;
        for (index, (transition, state)) in self.steps.iter().enumerate() {
            writeln!(f, "\t{:>3}. {transition:?}", index + 1)?;
            writeln!(f, "\t     => {state:?}")?;
        }
        Ok(())
    }
}

/// What replaying a sequence gave.
pub(crate) enum Replay<R: ReferenceStateMachine> {
    /// Every command was enabled.
    Valid(Trace<R>),
    /// The command at index `at` was not enabled (or a strategy could not produce a value; `at`
    /// is 0 when the initial state could not be produced).
    Disabled { at: usize },
}

/// The model side of a run: decoding, statistics, fingerprints.
pub(crate) struct Model<R> {
    config: ProptestConfig,
    /// Per-command statistics, in the order the kinds were first seen.
    commands: Vec<CommandStats>,
    /// Each kind's index in `commands`, by name.
    kinds: HashMap<String, usize>,
    /// The kind of the last command of each prefix replayed (by prefix key).
    kind_of_prefix: PrehashedMap<usize>,
    buffer: String,
    choice_buffer: Vec<u8>,
    /// The component fingerprints of the current replay (reused).
    features: Vec<u64>,
    fingerprints: Fingerprints,
    /// Where valid sequences that reach new states are offered for splicing (the run's model
    /// only; see [`donating_to`](Self::donating_to)).
    donors: Option<DonorPool>,
    _machine: std::marker::PhantomData<fn() -> R>,
}

/// The `Debug` text of `value` up to its first `(`, `{` or space: an enum variant's name.
fn variant_name<'a>(buffer: &'a mut String, value: &impl Debug) -> &'a str {
    buffer.clear();
    let _ = write!(buffer, "{value:?}");
    let end = buffer.find(['(', '{', ' ']).unwrap_or(buffer.len());
    &buffer[..end]
}

impl<R: ReferenceStateMachine> Model<R> {
    pub(crate) fn new(proptest: &ProptestConfig) -> Self {
        let mut config = proptest.clone();
        // Strategies are only replayed here: nothing is persisted, nothing forked.
        config.failure_persistence = None;
        Model {
            config,
            commands: Vec::new(),
            kinds: HashMap::new(),
            kind_of_prefix: PrehashedMap::default(),
            buffer: String::new(),
            choice_buffer: Vec::new(),
            features: Vec::new(),
            fingerprints: Fingerprints::new(),
            donors: None,
            _machine: std::marker::PhantomData,
        }
    }

    /// The model, offering the valid sequences that reach new states to `donors`.
    pub(crate) fn donating_to(mut self, donors: DonorPool) -> Self {
        self.donors = Some(donors);
        self
    }

    fn runner(&self, rng: TestRng) -> TestRunner {
        TestRunner::new_with_rng(self.config.clone(), rng)
    }

    /// Counts `transition`, the command the prefix `key` ends with (see
    /// [`prefix_key`](crate::state_features::prefix_key)). The command's kind is looked up by the
    /// key when the prefix was replayed before, so its `Debug` text is formatted once.
    fn count(&mut self, key: u64, transition: &R::Transition, enabled: bool) {
        let kind = match self.kind_of_prefix.get(&key) {
            Some(&kind) => kind,
            None => {
                let kind = self.kind(transition);
                if self.kind_of_prefix.len() >= MAX_CACHED_KINDS {
                    self.kind_of_prefix.clear();
                }
                self.kind_of_prefix.insert(key, kind);
                kind
            }
        };
        let stats = &mut self.commands[kind];
        stats.generated += 1;
        if enabled {
            stats.enabled += 1;
        } else {
            stats.rejected += 1;
        }
    }

    /// The index in `commands` of `transition`'s kind, added when new.
    fn kind(&mut self, transition: &R::Transition) -> usize {
        let name = variant_name(&mut self.buffer, transition);
        let name = if self.kinds.contains_key(name) || self.kinds.len() < MAX_COMMAND_NAMES {
            name
        } else {
            "<other>"
        };
        if let Some(&kind) = self.kinds.get(name) {
            return kind;
        }
        let kind = self.commands.len();
        self.kinds.insert(name.to_string(), kind);
        self.commands.push(CommandStats {
            name: name.to_string(),
            ..CommandStats::default()
        });
        kind
    }

    /// Per-command statistics, in the order the commands were first seen.
    pub(crate) fn command_stats(&self) -> Vec<CommandStats> {
        self.commands.clone()
    }

    /// Distinct state fingerprints seen.
    pub(crate) fn states_seen(&self) -> usize {
        self.fingerprints.len()
    }

    /// Decodes `commands` through the model, re-checking preconditions; with `observe`, counts
    /// the commands and remembers the fingerprints of the states reached (the valid prefix of a
    /// discarded sequence counts under a separate salt, so a state first reached by a discard is
    /// still new when a valid sequence reaches it). Returns the replay and whether a state was new.
    pub(crate) fn replay(&mut self, commands: &Commands, observe: bool) -> (Replay<R>, bool) {
        let rng = choices(&mut self.choice_buffer, &commands.init);
        let mut runner = self.runner(rng);
        let Ok(tree) = R::init_state().new_tree(&mut runner) else {
            return (Replay::Disabled { at: 0 }, false);
        };
        let initial = tree.current();
        let mut fingerprints = std::mem::take(&mut self.features);
        fingerprints.clear();
        let mut key = prefix_key(0, &commands.init);
        if observe {
            self.fingerprints.of(key, &initial, &mut fingerprints);
        }
        let mut state = initial.clone();
        let mut steps = Vec::with_capacity(commands.steps.len());
        let mut disabled_at = None;
        for (index, bytes) in commands.steps.iter().enumerate() {
            *runner.rng() = choices(&mut self.choice_buffer, bytes);
            let Ok(tree) = R::transitions(&state).new_tree(&mut runner) else {
                disabled_at = Some(index);
                break;
            };
            let transition = tree.current();
            let enabled = R::preconditions(&state, &transition);
            key = prefix_key(key, bytes);
            if observe {
                self.count(key, &transition, enabled);
            }
            if !enabled {
                disabled_at = Some(index);
                break;
            }
            state = R::apply(state, &transition);
            if observe {
                self.fingerprints.of(key, &state, &mut fingerprints);
            }
            steps.push((transition, state.clone()));
        }
        let valid = disabled_at.is_none();
        let salt = if valid { 0 } else { 0x9e37_79b9_7f4a_7c15 };
        let mut new = false;
        for fingerprint in &mut fingerprints {
            *fingerprint ^= salt;
            new |= self.fingerprints.insert(*fingerprint);
        }
        if observe {
            sequence::observed(commands, &fingerprints);
        }
        self.features = fingerprints;
        if new && valid {
            if let Some(donors) = &self.donors {
                donors.donate(commands);
            }
        }
        let replay = match disabled_at {
            None => Replay::Valid(Trace { initial, steps }),
            Some(at) => Replay::Disabled { at },
        };
        (replay, new)
    }

    /// Decodes `commands` without counting or remembering anything (for reports).
    pub(crate) fn decode(&mut self, commands: &Commands) -> Option<Trace<R>> {
        match self.replay(commands, false).0 {
            Replay::Valid(trace) => Some(trace),
            Replay::Disabled { .. } => None,
        }
    }
}

impl<R: ReferenceStateMachine> ShrinkModel for Model<R> {
    fn first_disabled(&mut self, commands: &Commands) -> Option<usize> {
        match self.replay(commands, false).0 {
            Replay::Valid(_) => None,
            Replay::Disabled { at } => Some(at),
        }
    }

    fn describe(&mut self, commands: &Commands, out: &mut String) -> bool {
        out.clear();
        match self.replay(commands, false).0 {
            Replay::Valid(trace) => {
                let _ = write!(out, "{:?}", trace);
                true
            }
            Replay::Disabled { .. } => false,
        }
    }
}

/// Fresh sequences, drawn like proptest-state-machine draws them: a length from the size range,
/// then per step a transition from `transitions(&state)`, redrawn until `preconditions` accept
/// it. Each draw runs on proptest's recording RNG (seeded from the engine's random state, so a
/// run is a function of its seed), and the bytes it read are the command's choice bytes.
pub(crate) struct Generator<R> {
    config: ProptestConfig,
    min_len: usize,
    max_len: usize,
    _machine: std::marker::PhantomData<fn() -> R>,
}

impl<R: ReferenceStateMachine> Generator<R> {
    pub(crate) fn new(size: &SizeRange, proptest: &ProptestConfig) -> Self {
        let mut config = proptest.clone();
        config.failure_persistence = None;
        let (min_len, max_len) = size.start_end_incl();
        Generator {
            config,
            min_len,
            max_len: max_len.max(min_len),
            _machine: std::marker::PhantomData,
        }
    }

    /// The longest sequence generated.
    pub(crate) fn max_len(&self) -> usize {
        self.max_len
    }

    fn recorder(cx: &mut Context) -> TestRng {
        let mut seed = [0u8; 32];
        cx.rng().fill(&mut seed);
        TestRng::from_seed(RngAlgorithm::Recorder, &seed)
    }

    pub(crate) fn generate(&mut self, cx: &mut Context) -> Commands {
        let len = self.min_len + cx.below(self.max_len - self.min_len + 1);
        let mut runner = TestRunner::new_with_rng(self.config.clone(), Self::recorder(cx));
        let tree = R::init_state().new_tree(&mut runner).unwrap_or_else(|why| {
            panic!("typefuzz: init_state() could not generate a state: {why}")
        });
        let mut commands = Commands {
            init: runner.rng().bytes_used(),
            steps: Vec::with_capacity(len),
        };
        let mut state = tree.current();
        'steps: while commands.steps.len() < len {
            for _ in 0..GENERATION_ATTEMPTS {
                *runner.rng() = Self::recorder(cx);
                let Ok(tree) = R::transitions(&state).new_tree(&mut runner) else {
                    continue;
                };
                let transition = tree.current();
                if R::preconditions(&state, &transition) {
                    commands.steps.push(runner.rng().bytes_used());
                    state = R::apply(state, &transition);
                    continue 'steps;
                }
            }
            // No enabled command found: a shorter sequence (the engine's mutations may still
            // find a way on).
            break;
        }
        commands
    }
}
