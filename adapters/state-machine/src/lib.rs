//! typefuzz's drop-in for proptest-state-machine: `typefuzz::prop_state_machine!` accepts
//! `proptest_state_machine::prop_state_machine!`'s syntax and runs your unchanged
//! [`ReferenceStateMachine`] and [`StateMachineTest`] impls under typefuzz's coverage-guided loop,
//! with **command sequences as seeds**.
//!
//! Upgrading costs the macro path. A bounded queue and a buggy ring buffer:
//!
//! ```
//! use proptest::prelude::*;
//! use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};
//! use std::collections::VecDeque;
//!
//! const CAPACITY: usize = 4;
//!
//! /// The model: a queue that holds at most CAPACITY values.
//! struct QueueModel;
//!
//! #[derive(Clone, Debug)]
//! enum Command {
//!     Push(u8),
//!     Pop,
//!     Clear,
//! }
//!
//! impl ReferenceStateMachine for QueueModel {
//!     type State = VecDeque<u8>;
//!     type Transition = Command;
//!
//!     fn init_state() -> BoxedStrategy<Self::State> {
//!         Just(VecDeque::new()).boxed()
//!     }
//!
//!     fn transitions(_: &Self::State) -> BoxedStrategy<Command> {
//!         prop_oneof![any::<u8>().prop_map(Command::Push), Just(Command::Pop), Just(Command::Clear)]
//!             .boxed()
//!     }
//!
//!     fn preconditions(state: &Self::State, command: &Command) -> bool {
//!         match command {
//!             Command::Push(_) => state.len() < CAPACITY,
//!             Command::Pop => !state.is_empty(),
//!             Command::Clear => true,
//!         }
//!     }
//!
//!     fn apply(mut state: Self::State, command: &Command) -> Self::State {
//!         match command {
//!             Command::Push(x) => state.push_back(*x),
//!             Command::Pop => {
//!                 state.pop_front();
//!             }
//!             Command::Clear => state.clear(),
//!         }
//!         state
//!     }
//! }
//!
//! /// The system under test: a ring buffer.
//! struct Ring { slots: [u8; CAPACITY], head: usize, len: usize }
//!
//! struct RingTest;
//!
//! impl StateMachineTest for RingTest {
//!     type SystemUnderTest = Ring;
//!     type Reference = QueueModel;
//!
//!     fn init_test(_: &VecDeque<u8>) -> Ring {
//!         Ring { slots: [0; CAPACITY], head: 0, len: 0 }
//!     }
//!
//!     fn apply(mut ring: Ring, model: &VecDeque<u8>, command: Command) -> Ring {
//!         match command {
//!             Command::Push(x) => {
//!                 ring.slots[(ring.head + ring.len) % CAPACITY] = x;
//!                 ring.len += 1;
//!             }
//!             Command::Pop => {
//!                 ring.head = (ring.head + 1) % CAPACITY;
//!                 ring.len -= 1;
//!             }
//!             Command::Clear => ring.len = 0,
//!         }
//!         let front = (ring.len > 0).then(|| ring.slots[ring.head]);
//!         assert_eq!(front, model.front().copied());
//!         ring
//!     }
//! }
//!
//! typefuzz::prop_state_machine! {
//!     #![proptest_config(ProptestConfig::with_cases(200))]
//!     /// A ring buffer behaves like a bounded queue (add `#[test]` in a test module).
//!     fn ring_buffer_is_a_queue(sequential 1..20 => RingTest);
//! }
//! # fn main() { ring_buffer_is_a_queue(); }
//! ```
//!
//! # How a state-machine test runs under typefuzz
//!
//! - **The genotype is the command sequence** ([`Commands`]): the choice bytes of the initial
//!   state and of each command. Replaying a command's bytes through proptest's pass-through RNG
//!   into `transitions(&state)` gives the transition, so any `Transition` type works and every
//!   command is one your strategies can produce. Fresh sequences are drawn as
//!   proptest-state-machine draws them (a length from the size range, enabled commands only),
//!   on proptest's recording RNG.
//! - **Mutation** appends a command at the end (queued sequences are valid, so it is drawn in
//!   the state the sequence reached) or redraws the last one, inserts, deletes, duplicates and
//!   swaps commands, splices runs of commands from other interesting sequences (crossover),
//!   copies a parameter from one command to another (a 4-byte word of choice bytes at the same
//!   offset: a withdrawal gets a deposit's amount or account), and mutates one command's bytes
//!   (its parameters, or which command it is) or the initial state's. Sequences never grow past
//!   the size range's maximum.
//! - **Replay re-checks `preconditions`** along the sequence. A sequence with a command that is
//!   not enabled where it stands is a *discard*: it goes to the engine's discarded queue
//!   (FuzzChick's two queues), it is not thrown away, and mutation may repair it.
//! - **New model states are feedback.** After each step the reference state's `Debug` text is
//!   fingerprinted component by component (each struct, tuple or list holding at most one nested
//!   one, with its position; numbers bucketed by magnitude: `0`, `1`, `2-3`, `4-7`, ...). A
//!   sequence reaching a component state never seen before is kept as a seed: the fingerprints
//!   are the sequence's structure features ([`Commands`]' `visit_structure`), so the engine
//!   judges them like its other feedback and forgets them when it restarts a stagnated search.
//!   The search climbs through the model's states even without instrumentation. Cost: one
//!   `Debug` formatting and one scan of the text per step reaching a state by a choice-byte
//!   prefix not replayed before (the fingerprints are cached per prefix; most mutants share
//!   their prefix with the sequence they came from). The engine stops counting structure
//!   features once another source finds something in a run, so under `cargo typefuzz test`
//!   code coverage takes over from them, as do `typefuzz::cover!` and `target!` in your impls.
//! - **Shrinking keeps sequences valid** and does not stop where greedy deletion does. The
//!   candidates, in order: the sequence's canonical bytes (each command's bytes cut to what its
//!   strategy reads, zero wherever that decodes to the same commands); deletions (half the
//!   sequence, each command from the back, adjacent pairs); *cascaded* deletions (a command and
//!   the commands that depended on it, such as an `Open` and the later uses of its account);
//!   *repaired* deletions, for bugs behind an exact quantity: when deleting `Withdraw(19)`
//!   leaves money that disables the final `Close`, another command's choice bytes are bisected,
//!   word by word, between values that stop the replay at different commands, until the whole
//!   sequence is enabled (`Withdraw(149)` becomes `Withdraw(168)`), or the command where it
//!   stops is switched to another kind (`Transfer(3, 4, x)` to an account whose `Open` was
//!   deleted becomes `Withdraw(3, x)`); then simpler parameters (each command's and the
//!   initial state's bytes towards zero: smaller values, earlier `prop_oneof!` alternatives).
//!   Canonical bytes, cascades and repairs replay the model alone (at most 8192 replays and
//!   500 ms each per shrink step). Every candidate is replayed with its preconditions, so a
//!   candidate with a disabled command is a discard and never accepted. Shrinking is bounded
//!   by `max_shrink_time`/`max_shrink_iters` (typefuzz's `TYPEFUZZ_SHRINK_TIME`, 30 s by
//!   default). The failure report prints the minimal sequence one command per line with the
//!   reference state after each step, and per-command statistics (generated, enabled, rejected
//!   by precondition).
//! - **Configuration, regression files and the corpus** work as for `typefuzz::proptest!`
//!   (`ProptestConfig`, `PROPTEST_*`, then `TYPEFUZZ_*`): the regression file and the corpus
//!   hold the encoded [`Commands`] and are replayed first. A disabled command is what
//!   proptest-state-machine counts as a local reject, so under plain `cargo test` discards are
//!   bounded by `max_local_rejects`, not by time; fresh sequences redraw a disabled command up
//!   to 256 times, then end early.
//!
//! Through the `typefuzz` facade (feature `state-machine`) this crate is
//! `typefuzz::state_machine` and the macro `typefuzz::prop_state_machine!`.
#![deny(missing_docs)]
// The examples show tests as users write them, `#[test]` included; they call them from `main`.
#![allow(clippy::test_attr_in_doctest)]

mod commands;
mod guided;
mod machine;
mod sequence;
mod state_features;

use std::fmt::Write as _;

use proptest::collection::SizeRange;
use proptest::test_runner::Config as ProptestConfig;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};
use typefuzz_engine::{Config, Outcome, Report, Stats};

pub use commands::Commands;
pub use machine::{CommandStats, Trace};

use machine::{Generator, Model, Replay};

/// The reference state machine of a test.
type Reference<M> = <M as StateMachineTest>::Reference;

/// What a state-machine run found: the engine's report on the encoded sequences, the decoded
/// minimal and original failing sequences, and the per-command statistics.
pub struct Run<R: ReferenceStateMachine> {
    /// The engine's report; its inputs are [`Commands`].
    pub report: Report<Commands>,
    /// The minimal failing sequence, decoded.
    pub minimal: Option<Trace<R>>,
    /// The failing sequence as found, decoded.
    pub original: Option<Trace<R>>,
    /// Per-command statistics, in the order the commands were first seen.
    pub commands: Vec<CommandStats>,
    /// Distinct reference-state fingerprints reached.
    pub states: usize,
}

impl<R: ReferenceStateMachine> Run<R> {
    /// The per-command statistics as lines (`name: generated N, enabled N, rejected ...`).
    pub fn command_table(&self) -> String {
        let mut out = String::new();
        for stats in &self.commands {
            let _ = writeln!(out, "\t{stats}");
        }
        out
    }
}

/// Runs the state-machine test `M` with sequences of `size` commands under the engine with
/// `config` (already translated) and returns what happened, without panicking.
///
/// ```
/// # use proptest::prelude::*;
/// # use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};
/// /// A counter that must never reach 3.
/// struct Counter;
/// impl ReferenceStateMachine for Counter {
///     type State = u8;
///     type Transition = bool; // true: increment, false: reset
///     fn init_state() -> BoxedStrategy<u8> { Just(0).boxed() }
///     fn transitions(_: &u8) -> BoxedStrategy<bool> { any::<bool>().boxed() }
///     fn apply(n: u8, up: &bool) -> u8 { if *up { n + 1 } else { 0 } }
///     fn preconditions(n: &u8, up: &bool) -> bool { !*up || *n < 5 }
/// }
/// struct CounterTest;
/// impl StateMachineTest for CounterTest {
///     type SystemUnderTest = ();
///     type Reference = Counter;
///     fn init_test(_: &u8) {}
///     fn apply((): (), n: &u8, _: bool) { assert!(*n < 3, "reached {n}") }
/// }
/// let config = typefuzz::Config::default().with_seed(1).with_cases(10_000);
/// let proptest = proptest::test_runner::Config::default();
/// let run = typefuzz::state_machine::run_with::<CounterTest>(&config, &proptest, 1..10);
/// let minimal = run.minimal.expect("the counter reaches 3");
/// assert_eq!(minimal.transitions(), vec![true, true, true]);
/// assert!(run.commands.iter().any(|c| c.name == "true" && c.enabled > 0));
/// ```
pub fn run_with<M: StateMachineTest>(
    config: &Config,
    proptest: &ProptestConfig,
    size: impl Into<SizeRange>,
) -> Run<Reference<M>> {
    let size = size.into();
    let mut generator = Generator::<Reference<M>>::new(&size, proptest);
    let mut config = config.clone().with_max_size(generator.max_len());
    // The model states a sequence reaches are its structure features (see
    // `Commands::visit_structure`); the engine stops counting structure once another source
    // finds something, and valid-size classes would do so at the first valid sequence (every
    // model with preconditions discards), leaving only the sizes of the byte encodings as
    // feedback. The states say more than the sizes.
    config.feedback.valid_sizes = false;
    // And the states are rare and decisive while visiting them costs nothing (they were
    // computed by the replay): the engine must not observe only a sample of the sequences in a
    // quiet stretch (with sampling, seed 4 of the bank test no longer found its bug in 300,000
    // tests; without, after 231,795).
    config.feedback.structure_sampling = false;
    // The run's replay model offers the sequences that reach new states to the mutator's
    // splicing (a pool the run's context holds), and shrinking asks a model of its own for
    // guided candidates (see `guided`): both reach `Commands`' impl through the context.
    let donors = sequence::DonorPool::default();
    let mut model = Model::<Reference<M>>::new(proptest).donating_to(donors.clone());
    let guided = guided::GuidedModel::new(Model::<Reference<M>>::new(proptest));
    let mut test_config = proptest.clone();
    test_config.failure_persistence = None;
    // The regression file's comment shows the transitions and states a saved sequence
    // replays to, not its recorded choices; decoded by a model of its own, made at the first
    // failure (the run's model is the property's).
    let mut describing: Option<Model<Reference<M>>> = None;
    let report = typefuzz_engine::check_described(
        &config,
        |cx| {
            cx.set_extension(donors);
            cx.set_extension(guided);
        },
        |commands: &Commands| {
            let model = describing.get_or_insert_with(|| Model::new(proptest));
            show_sequence(model.decode(commands).as_ref(), commands)
        },
        |cx| generator.generate(cx),
        |commands: &Commands| {
            // The states reached are reported as the sequence's structure features (see
            // `Commands::visit_structure`), which the engine observes after this call.
            let (replay, _) = model.replay(commands, true);
            match replay {
                Replay::Disabled { .. } => Outcome::Discard,
                Replay::Valid(trace) => {
                    let transitions = trace.steps.into_iter().map(|(t, _)| t).collect();
                    M::test_sequential(test_config.clone(), trace.initial, transitions, None);
                    Outcome::Pass
                }
            }
        },
    );
    let (minimal, original) = match &report.failure {
        Some(failure) => (
            model.decode(&failure.minimal),
            model.decode(&failure.original),
        ),
        None => (None, None),
    };
    Run {
        report,
        minimal,
        original,
        commands: model.command_stats(),
        states: model.states_seen(),
    }
}

/// [`run_with`] configured by `proptest` (translated as `typefuzz::proptest!` does, see
/// `typefuzz::proptest::typefuzz_config`).
///
/// ```
/// # use proptest::prelude::*;
/// # use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};
/// struct Flip;
/// impl ReferenceStateMachine for Flip {
///     type State = bool;
///     type Transition = ();
///     fn init_state() -> BoxedStrategy<bool> { Just(false).boxed() }
///     fn transitions(_: &bool) -> BoxedStrategy<()> { Just(()).boxed() }
///     fn apply(b: bool, _: &()) -> bool { !b }
/// }
/// struct FlipTest;
/// impl StateMachineTest for FlipTest {
///     type SystemUnderTest = bool;
///     type Reference = Flip;
///     fn init_test(b: &bool) -> bool { *b }
///     fn apply(b: bool, model: &bool, _: ()) -> bool { assert_eq!(!b, *model); !b }
/// }
/// let run = typefuzz::state_machine::run::<FlipTest>(&ProptestConfig::with_cases(50), 0..8);
/// assert!(run.report.passed());
/// assert_eq!(run.commands[0].rejected, 0);
/// ```
pub fn run<M: StateMachineTest>(
    proptest: &ProptestConfig,
    size: impl Into<SizeRange>,
) -> Run<Reference<M>> {
    let mut config = typefuzz_proptest::typefuzz_config(proptest);
    // A command rejected by `preconditions` is what proptest-state-machine counts as a local
    // reject, which never aborts its run before `max_local_rejects`; so here discards are
    // bounded by that count, not by the drop-in default's discard time.
    if config.discard_time.is_some() {
        config.discard_time = None;
        config.max_discards = Some(u64::from(proptest.max_local_rejects));
    }
    run_with::<M>(&config, proptest, size)
}

/// The function API: runs `M` like [`run`] and panics with a proptest-style message (the
/// minimal sequence, one command per line with the reference state after it, and the
/// per-command statistics) if it fails; returns the statistics otherwise.
///
/// This is what `typefuzz::prop_state_machine!` calls.
pub fn check<M: StateMachineTest>(proptest: &ProptestConfig, size: impl Into<SizeRange>) -> Stats {
    let run = run::<M>(proptest, size);
    if let Some(failure) = &run.report.failure {
        panic!("{}", failure_message(&run, failure, proptest));
    }
    if let Some(message) = run.report.never_checked() {
        panic!(
            "Test aborted: Too many global rejects\n\t{message}: no command sequence had all its \
             commands enabled; check `preconditions` and `transitions`\n\tcommands:\n{}",
            run.command_table()
        );
    }
    if let Some(message) = typefuzz_proptest::too_many_rejects(&run.report, proptest) {
        panic!(
            "Test aborted: {message}\n\tcommands:\n{}",
            run.command_table()
        );
    }
    run.report.stats
}

fn failure_message<R: ReferenceStateMachine>(
    run: &Run<R>,
    failure: &typefuzz_engine::Failure<Commands>,
    proptest: &ProptestConfig,
) -> String {
    let show = |commands: &Commands| {
        let trace = if commands == &failure.minimal {
            run.minimal.as_ref()
        } else if commands == &failure.original {
            run.original.as_ref()
        } else {
            None
        };
        show_sequence(trace, commands)
    };
    let mut out = typefuzz_proptest::failure_message(failure, &run.report.stats, proptest, &show);
    let _ = writeln!(
        out,
        "\ttypefuzz: {} distinct model states reached; commands:",
        run.states
    );
    out.push_str(&run.command_table());
    out
}

/// How a failure shows a command sequence: its `trace` (the transitions and the states after
/// them) if it replays to one, else its recorded choices; bounded (see
/// [`typefuzz_engine::format_bounded`]).
fn show_sequence<R: ReferenceStateMachine>(
    trace: Option<&Trace<R>>,
    commands: &Commands,
) -> String {
    use typefuzz_engine::{format_bounded, MAX_FORMATTED};
    match trace {
        Some(trace) => format_bounded(MAX_FORMATTED, format_args!("{trace}")),
        // The model's strategies no longer read these bytes the same way.
        None => format_bounded(
            MAX_FORMATTED,
            format_args!("{commands:?} (no longer decodes to an enabled sequence)"),
        ),
    }
}

/// What the macro expands to. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use typefuzz_proptest::__private::{test_config, ProptestConfig, ToOwnedConfig};

    /// One `prop_state_machine!` test.
    pub fn run_test<M: proptest_state_machine::StateMachineTest>(
        size: impl Into<proptest::collection::SizeRange>,
        proptest: ProptestConfig,
    ) {
        crate::check::<M>(&proptest, size);
    }
}

/// `proptest_state_machine::prop_state_machine!`'s syntax, run by typefuzz: an optional
/// `#![proptest_config(expr)]`, then test functions `fn name(sequential <size> => <Test>);` with
/// any attributes and doc comments, where `<Test>` implements [`StateMachineTest`] (type
/// parameters allowed: `MyTest<u8>`).
///
/// ```
/// # use proptest::prelude::*;
/// # use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};
/// struct Stack;
/// impl ReferenceStateMachine for Stack {
///     type State = Vec<u8>;
///     type Transition = Option<u8>; // Some(x): push x; None: pop
///     fn init_state() -> BoxedStrategy<Vec<u8>> { Just(vec![]).boxed() }
///     fn transitions(_: &Vec<u8>) -> BoxedStrategy<Option<u8>> { any::<Option<u8>>().boxed() }
///     fn preconditions(s: &Vec<u8>, t: &Option<u8>) -> bool { t.is_some() || !s.is_empty() }
///     fn apply(mut s: Vec<u8>, t: &Option<u8>) -> Vec<u8> {
///         match t { Some(x) => s.push(*x), None => { s.pop(); } }
///         s
///     }
/// }
/// struct StackTest;
/// impl StateMachineTest for StackTest {
///     type SystemUnderTest = Vec<u8>;
///     type Reference = Stack;
///     fn init_test(_: &Vec<u8>) -> Vec<u8> { Vec::new() }
///     fn apply(mut s: Vec<u8>, model: &Vec<u8>, t: Option<u8>) -> Vec<u8> {
///         match t { Some(x) => s.push(x), None => { s.pop(); } }
///         assert_eq!(&s, model);
///         s
///     }
/// }
/// typefuzz::prop_state_machine! {
///     #![proptest_config(ProptestConfig::with_cases(100))]
///     fn stack_matches_model(sequential 1..10 => StackTest);
/// }
/// # fn main() { stack_matches_model(); }
/// ```
#[macro_export]
macro_rules! prop_state_machine {
    (#![proptest_config($config:expr)]
    $(
        $(#[$meta:meta])*
        fn $test_name:ident(sequential $size:expr => $test:ident $(< $( $ty_param:tt ),+ >)?);
    )*) => {
        $(
            $(#[$meta])*
            fn $test_name() {
                let config = $crate::__private::test_config(
                    { use $crate::__private::ToOwnedConfig as _; (&$config).to_owned_config() },
                    ::core::concat!(::core::module_path!(), "::", ::core::stringify!($test_name)),
                    ::core::file!());
                $crate::__private::run_test::<$test $(< $( $ty_param ),+ >)?>($size, config);
            }
        )*
    };
    ($(
        $(#[$meta:meta])*
        fn $test_name:ident(sequential $size:expr => $test:ident $(< $( $ty_param:tt ),+ >)?);
    )*) => {
        $crate::prop_state_machine! {
            #![proptest_config($crate::__private::ProptestConfig::default())]
            $(
                $(#[$meta])*
                fn $test_name(sequential $size => $test $(< $( $ty_param ),+ >)?);
            )*
        }
    };
}
