//! typefuzz's drop-in for proptest: `typefuzz::proptest!` accepts `proptest::proptest!`'s syntax
//! and runs the test under typefuzz's coverage-guided loop.
//!
//! Upgrading a test costs one line, the macro path: strategy-built arguments need nothing else,
//! and arguments `x: T` of your own types are mutated as values once `T` has
//! `#[derive(Mutate)]`.
//!
//! ```
//! use proptest::prelude::*;
//!
//! fn reverse<T: Clone>(xs: &[T]) -> Vec<T> {
//!     xs.iter().rev().cloned().collect()
//! }
//!
//! typefuzz::proptest! {
//!     #![proptest_config(ProptestConfig::with_cases(64))]
//!     /// Reversing twice is the identity (add `#[test]` in a test module).
//!     fn reverse_reverse(xs in proptest::collection::vec(any::<u8>(), 0..20), n: u8) {
//!         prop_assert_eq!(reverse(&reverse(&xs)), xs);
//!         prop_assume!(n != 0);
//!         prop_assert!(n > 0);
//!     }
//! }
//! # fn main() { reverse_reverse(); }
//! ```
//!
//! # How a proptest test runs under typefuzz
//!
//! - **Choice sequences are the genotype of strategy-built arguments.** A fresh input is built
//!   by your strategy from a random stream that records the bytes it draws (proptest's
//!   `RngAlgorithm::Recorder`, seeded from the engine's random state, so a run is a function of
//!   `TYPEFUZZ_SEED`). typefuzz keeps and mutates those bytes ([`choices::Choices`]: boundary
//!   and stepped words, bit flips, span deletion, duplication, copying and splicing between
//!   inputs, as Hypothesis does) and rebuilds each mutant by replaying its bytes through the
//!   *strategy* (`RngAlgorithm::PassThrough`, zeros once the bytes run out). Every input the
//!   property sees is therefore a value your strategy can produce, for any combinator:
//!   `prop_map` invariants hold, `vec(_, 1..5)` is never empty, regex strings match, filters
//!   filter, `prop_recursive` trees keep their depth. No `Mutate` impl is needed. A mutant a
//!   `prop_filter` gives up on is a discard.
//! - **Unions replay without hangs.** proptest halves a pass-through stream for every stream it
//!   derives, a union (`prop_oneof!`, `prop_recursive`) derives one per arm before the one it
//!   picks (never read while the value is built), and a stream that runs dry reads zeros, which
//!   rand's range samplers redraw forever. A value that derived at most 4 streams is kept as its
//!   bytes, replayed with room for its derives and two more (checked once against the recorded
//!   value when a derive was not a union arm's or a `prop_flat_map`'s, whose streams are never
//!   read while the value is built), and mutated like any other; a value built through more
//!   unions, or one that reads a
//!   derived stream (`prop_perturb`, shuffles), is kept as the seed and position of its stream
//!   instead ([`choices::Recording`]): replayed exactly, mutated by drawing a fresh value,
//!   shrunk by proptest's value tree. A mutant may pick later arms than its seed did: the
//!   replay runner's config carries a failure persistence of typefuzz's whose `box_clone`
//!   (which proptest calls for every derived stream: `TestRunner::partial_clone` clones the
//!   config) counts the derives while the value is built and ends the build at the first one
//!   past what the stream affords, before it can run dry; the replay then starts again with
//!   twice the room per extra derive, up to 256 KiB. A mutant that needs more (a long vector of
//!   unions picking late arms) is built from a ChaCha stream seeded by its bytes: a value of
//!   the strategy, the same on every replay, never a hang and never a discard
//!   ([`choices::Choices::replay`]). Reads are not watched, only derived streams: a replay's
//!   stream is at least twice the longest fresh draw of the run (and 16 KiB), so a mutant that
//!   raises a length reads what a fresh value of that length would; one that reads more than
//!   that past its bytes can still run its stream dry. For a recursive type, write the argument
//!   `t: Tree` with an `Arbitrary` impl and `#[derive(Mutate)]`: it is then mutated as a tree.
//! - **Draw-position feedback.** Each choice sequence reports the value class of its first
//!   64 words at their positions (zero, small, boundaries, magnitudes) to the structure
//!   feedback, so sequences with a boundary draw at a new place are kept and mutated even when
//!   no coverage, label or discard says anything.
//! - **Typed mutation where it is sound.** An argument `x: T` (or `x in any::<T>()`) whose type
//!   implements [`Mutate`](typefuzz_engine::Mutate) and whose `any::<T>()` covers the whole type (integers, `bool`,
//!   `char`, your own derived types) is kept and mutated as a `T`, with the derive's structural
//!   operators. Floats (`any::<f64>()` has no NaN), strings (no control characters),
//!   collections (bounded sizes), tuples, arrays and options of them are drawn like any
//!   strategy ([`argument`] explains the choice).
//! - **Shrinking, twice.** typefuzz shrinks the genotype (shorter and lower choice sequences
//!   replay to simpler values: zeros are a range's low end, a collection's shortest length, a
//!   union's first arm; typed arguments shrink with their `Mutate` impls), then proptest's own
//!   value tree of the minimal input is simplified with proptest's `simplify`/`complicate` loop,
//!   which knows what bytes cannot say (the source of a `prop_map`, a regex's structure).
//! - **`prop_assume!` discards** (`TestCaseError::Reject`); `prop_assert*!`, `?` on
//!   `TestCaseError` and panics fail.
//! - **Feedback.** Under `cargo typefuzz test` the binary is instrumented and coverage guides the
//!   search; `typefuzz::cover!`, `target!` and `assume!` work in the body too. Even without any
//!   of them, once `prop_assume!` has rejected an input, valid inputs of a size never seen valid
//!   before become seeds (the engine's `valid_sizes` feedback), so the search climbs from small
//!   valid inputs to bigger ones — what makes sparse preconditions reachable.
//! - **`ProptestConfig`.** `cases` counts non-discarded tests, as in proptest, so a plain
//!   `cargo test` costs what proptest's would, and a test passes only once it has run that many
//!   valid cases. The first cases (proptest's default count, at most `cases`) are fresh values
//!   of the strategy, as proptest's are; mutation starts after them, or after
//!   `max_global_rejects` fresh rejects
//!   ([`Config::fresh_first`](typefuzz_engine::Config::fresh_first)). `max_global_rejects` does
//!   not abort the run (typefuzz climbs out of discards, which are bounded by time instead:
//!   [`Config::for_framework`]) but exceeding it is
//!   reported; a run whose discard time ends before `cases` valid tests fails as proptest would,
//!   with "Too many global rejects" and the counts; `timeout` is the
//!   per-test limit; `rng_seed: RngSeed::Fixed(n)` (or `PROPTEST_RNG_SEED`) is the run's seed;
//!   `max_shrink_time`/`max_shrink_iters` bound shrinking; `failure_persistence: None` disables
//!   the regression file. `PROPTEST_*` variables apply as in proptest, then the `TYPEFUZZ_*`
//!   variables ([`Config::apply_env`]): `TYPEFUZZ_CASES=100000` or `TYPEFUZZ_TIME=5m cargo test`
//!   turns the test into a campaign. Every run keeps the seeds it found under
//!   `target/typefuzz/corpus/` and starts from them next time ([`Config::keep_seeds`]).
//! - **Failures** panic with proptest's first line (`Test failed: <message>; minimal failing
//!   input: x = ..., y = ...`) followed by typefuzz's seed, statistics and regression file;
//!   inputs longer than 400 characters are elided (the regression file replays them whole).
//! - **Regression files.** The test's `.proptest-regressions` seeds (`cc <hex>` lines, where
//!   proptest keeps them) are replayed first, through the same strategies. typefuzz saves a
//!   failure's genotype (choice bytes and typed values: what replays it) in one file per test
//!   beside proptest's: `tests/parse.rs`'s test `round_trip` keeps its failures in
//!   `tests/parse.round_trip.typefuzz-regressions`, replayed first on every run
//!   (`TYPEFUZZ_REGRESSIONS` overrides the path, `failure_persistence: None` turns it off).
//! - **`TestRunner`.** [`TestRunner::run`] has proptest's signature and result, and names its
//!   regression file after the test function.
//!
//! # One property, two harnesses
//!
//! Write the property once as a function of the input returning
//! `Result<(), TestCaseError>`; [`check`] runs it as a unit test, and the same function serves
//! as the body of a cargo-fuzz target through `typefuzz::fuzz_target!` (the `libfuzzer` feature),
//! which decodes the input with the derived codec:
//!
//! ```
//! use proptest::prelude::*;
//! use proptest::test_runner::{Config as ProptestConfig, TestCaseError};
//!
//! /// The property: encoding a `u16` as two bytes loses nothing.
//! pub fn round_trips(x: u16) -> Result<(), TestCaseError> {
//!     let bytes = x.to_le_bytes();
//!     prop_assert_eq!(u16::from_le_bytes(bytes), x);
//!     Ok(())
//! }
//!
//! // As a unit test:
//! typefuzz::proptest::check(any::<u16>(), &ProptestConfig::with_cases(100), round_trips);
//!
//! // And in `fuzz/fuzz_targets/round_trips.rs` (a cargo-fuzz project):
//! // typefuzz::fuzz_target!(|x: u16| { round_trips(x).unwrap() });
//! ```
//!
//! Through the `typefuzz` facade (feature `proptest`) this crate is `typefuzz::proptest`: the
//! macro is `typefuzz::proptest!` and the function API `typefuzz::proptest::check`.
#![deny(missing_docs)]
// The examples show tests as users write them, `#[test]` included; they call them from `main`.
#![allow(clippy::test_attr_in_doctest)]

pub mod argument;
pub mod choices;
mod persistence;
mod simplify;

use std::cell::Cell;
use std::fmt::{Debug, Write as _};
use std::panic::Location;
use std::time::Duration;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as ProptestConfig, Reason, RngSeed, TestCaseError, TestError};
use typefuzz_engine::mutate::ValueHasher;
use typefuzz_engine::{
    elide, format_bounded, Config, Failure, Framework, Mutate, Outcome, Report, Stats,
    MAX_FORMATTED,
};

/// Formats an argument tuple with the argument names, as proptest does: `x = 1, y = "a"` (the
/// engine's argument formatting, shared with the quickcheck adapter).
///
/// Implemented for tuples of up to twelve `Debug` values (what the macro passes).
///
/// ```
/// use typefuzz_proptest::NamedArgs;
/// assert_eq!((1u8, "a").named(&["x", "y"]), r#"x = 1, y = "a""#);
/// ```
pub use typefuzz_engine::DebugArgs as NamedArgs;

use argument::{Argument, Drawn};
use choices::{Choices, Recording};

/// Translates a proptest configuration into the engine's with [`Config::for_framework`] (which
/// applies the `TYPEFUZZ_*` environment variables and the budget policy shared by the drop-ins).
///
/// `cases` becomes [`Config::cases`], `timeout` (milliseconds, 0 = none) the per-test limit
/// [`Config::test_timeout`], `rng_seed: Fixed(n)` the seed, `max_shrink_time` (ms) and
/// `max_shrink_iters` the shrink bounds when set, and `test_name` the property's name, unless
/// `failure_persistence` is `None`. With proptest's file persistence and a `source_file` (the
/// macros set both), the regression file sits beside proptest's own: `tests/parse.rs`, whose
/// seeds proptest keeps in `tests/parse.proptest-regressions`, keeps typefuzz's failures of
/// `round_trip` in `tests/parse.round_trip.typefuzz-regressions` (`TYPEFUZZ_REGRESSIONS`
/// overrides it). `max_global_rejects` is not a stop condition: discards are bounded by time
/// ([`Config::discard_time`]), and exceeding it is only reported.
///
/// ```
/// use proptest::test_runner::{Config as ProptestConfig, RngSeed};
/// let mut proptest = ProptestConfig::with_cases(1000);
/// proptest.rng_seed = RngSeed::Fixed(7);
/// proptest.test_name = Some("my_crate::tests::my_property");
/// let config = typefuzz_proptest::typefuzz_config(&proptest);
/// assert!(config.cases >= 1000);
/// assert_eq!(config.name.as_deref(), Some("my_crate::tests::my_property"));
/// # if std::env::var_os("TYPEFUZZ_SEED").is_none() {
/// assert_eq!(config.seed, Some(7));
/// # }
/// ```
pub fn typefuzz_config(proptest: &ProptestConfig) -> Config {
    let framework = Framework {
        name: "proptest",
        cases: u64::from(proptest.cases),
        max_rejects: u64::from(proptest.max_global_rejects),
    };
    Config::for_framework(framework, |mut config| {
        // What a plain `cargo test` of proptest runs fresh comes first, up to where proptest
        // would give up (see `Config::fresh_first`).
        let default_cases = u64::from(ProptestConfig::default().cases);
        let rejects = u64::from(proptest.max_global_rejects);
        config = config.with_fresh_first(default_cases.min(u64::from(proptest.cases)), rejects);
        if let (Some(name), true) = (proptest.test_name, proptest.failure_persistence.is_some()) {
            config = config.with_name(name);
            let test = name.rsplit("::").next().unwrap_or(name);
            if let Some(path) = persistence::regression_path(proptest, test) {
                config = config.with_regressions(path);
            }
        }
        if proptest.timeout() > 0 {
            config = config.with_test_timeout(Duration::from_millis(u64::from(proptest.timeout())));
        }
        if proptest.max_shrink_time > 0 {
            config =
                config.with_shrink_time(Duration::from_millis(u64::from(proptest.max_shrink_time)));
        }
        if proptest.max_shrink_iters != u32::MAX {
            config = config.with_shrink_steps(u64::from(proptest.max_shrink_iters));
        }
        if let RngSeed::Fixed(seed) = proptest.rng_seed {
            config = config.with_seed(seed);
        }
        config
    })
}

/// What a proptest test case's result means to the engine: `Ok` passes,
/// `TestCaseError::Reject` (`prop_assume!`) discards, `TestCaseError::Fail` (`prop_assert!`)
/// fails with its message.
///
/// ```
/// use proptest::test_runner::TestCaseError;
/// use typefuzz::Outcome;
/// use typefuzz_proptest::outcome;
/// assert_eq!(outcome(Ok(())), Outcome::Pass);
/// assert_eq!(outcome(Err(TestCaseError::reject("odd"))), Outcome::Discard);
/// assert_eq!(outcome(Err(TestCaseError::fail("too big"))), Outcome::Fail("too big".into()));
/// ```
pub fn outcome(result: Result<(), TestCaseError>) -> Outcome {
    match result {
        Ok(()) => Outcome::Pass,
        Err(TestCaseError::Reject(_)) => Outcome::Discard,
        Err(TestCaseError::Fail(reason)) => Outcome::Fail(reason.message().to_string()),
    }
}

/// The runs' proptest configuration for building values: it never persists anything (typefuzz
/// owns the regression files), so cloning it per value is cheap.
fn building_config(proptest: &ProptestConfig) -> ProptestConfig {
    let mut config = proptest.clone();
    config.failure_persistence = None;
    config
}

/// Fresh genotypes: first the seeds of the test's `.proptest-regressions` file, in file order,
/// then values drawn from streams seeded by the engine's random state (so a run is a function
/// of its seed).
///
/// The value tree of the genotype just drawn is left in `drawn`: the engine runs a generated
/// input at once, so the property takes it from there instead of replaying the genotype (which
/// would build the same tree a second time: half of a fresh test's cost).
struct Generator<'a, A: Argument> {
    argument: &'a A,
    config: ProptestConfig,
    drawn: &'a Cell<Option<A::Tree>>,
    /// The stream fresh inputs are drawn from ([`Recording::continuing`]).
    stream: Option<Recording>,
}

impl<A: Argument> Generator<'_, A> {
    fn generate(&mut self, cx: &mut typefuzz_engine::Context) -> A::Genotype {
        let mut reason = None;
        for _ in 0..4 {
            // The engine's inputs come from one continuing stream, renewed when spent.
            let stream = match &mut self.stream {
                Some(stream) if !stream.is_spent() => stream,
                stream => stream.insert(Recording::continuing(&self.config, seed(cx))),
            };
            let drawn = self.argument.draw(stream);
            if drawn.is_err() {
                // The stream's position within the failed draw is unknown.
                self.stream = None;
            }
            match drawn {
                Ok((genotype, tree)) => {
                    self.drawn.set(Some(tree));
                    return genotype;
                }
                // A filtering strategy gave up: try another stream.
                Err(why) => reason = Some(why),
            }
        }
        panic!(
            "typefuzz: the strategy could not generate a value: {}",
            reason.map_or_else(String::new, |r| r.message().to_string())
        )
    }
}

/// Shrink candidates that stand for the failing value itself. Once the property has failed, the
/// engine shrinks the genotype (the strategy's choices), and many smaller choice sequences build
/// the very same value (a choice decremented by one, a draw the strategy folds onto the same
/// character): accepted as steps, they kept shrinking busy until its time bound on inputs that
/// were already minimal. A candidate whose value prints as the current minimum's is answered
/// `Discard` without running the property (the same value fails the same way), so shrinking
/// takes only steps that change the value and stops when none does.
#[derive(Default)]
struct SameValue {
    /// The genotype and value (`Debug`, hashed) of the latest failure: the current minimum.
    minimum: Option<(Option<u64>, u64)>,
}

impl SameValue {
    /// Whether `genotype` is a different genotype of the current minimum's value. The minimum's
    /// own genotype is run (the engine re-runs it to tell a flaky failure).
    fn is_current_minimum<G: Mutate, V: Debug>(&self, genotype: &G, value: &V) -> bool {
        let Some((minimum_genotype, minimum_value)) = self.minimum else {
            return false;
        };
        let genotype = ValueHasher::of(genotype);
        (genotype.is_none() || genotype != minimum_genotype) && value_hash(value) == minimum_value
    }

    /// Records a failure, which becomes the current minimum (the engine shrinks greedily: the
    /// latest failing candidate is the one it keeps).
    fn failed<G: Mutate, V: Debug>(&mut self, genotype: &G, value: &V) {
        self.minimum = Some((ValueHasher::of(genotype), value_hash(value)));
    }
}

/// How a failure shows a value: its `Debug` text, bounded (see [`format_bounded`]).
fn show<V: Debug + ?Sized>(value: &V) -> String {
    format_bounded(MAX_FORMATTED, format_args!("{value:?}"))
}

/// A hash of `value`'s `Debug` text: the value as the report prints it.
fn value_hash<V: Debug>(value: &V) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(format!("{value:?}"))
}

/// A stream seed from the engine's random state (so a run is a function of its seed).
fn seed(cx: &mut typefuzz_engine::Context) -> [u8; 32] {
    let mut seed = [0; 32];
    seed[..16].copy_from_slice(&cx.rng().u128(..).to_le_bytes());
    seed[16..].copy_from_slice(&cx.rng().u128(..).to_le_bytes());
    seed
}

/// Runs the engine on `argument`'s genotypes, each rebuilt into a value of its strategy before
/// the property sees it, then shrinks the minimal failing value further with proptest's value
/// tree. The report holds values, not genotypes.
fn run_argument<A, F>(
    config: &Config,
    proptest: &ProptestConfig,
    argument: &A,
    mut property: F,
) -> Report<A::Value>
where
    A: Argument,
    F: FnMut(A::Value) -> Result<(), TestCaseError>,
{
    Choices::forget_offers();
    let building = building_config(proptest);
    let drawn = Cell::new(None);
    let mut generator = Generator {
        argument,
        config: building.clone(),
        drawn: &drawn,
        stream: None,
    };
    // A proptest seed builds the value proptest built from it: replayed first, before the
    // corpus, as the regressions they are.
    let replay_first = persistence::proptest_seeds(proptest)
        .into_iter()
        .filter_map(|seed| argument.draw(&mut Recording::new(&building, seed)).ok())
        .map(|(genotype, _)| typefuzz_engine::codec::to_bytes(&genotype));
    let config = &config.clone().with_replay_first(replay_first.collect());
    let mut shrinking = SameValue::default();
    let report = typefuzz_engine::check_described(
        config,
        |_| {},
        // The regression file's comment shows the value the strategy builds from the recorded
        // choices, not the choices' bytes.
        |genotype: &A::Genotype| match argument.express(genotype, &building) {
            Ok(tree) => show(&tree.current()),
            Err(_) => format_bounded(
                MAX_FORMATTED,
                format_args!("{genotype:?} (its strategy rejects these choices)"),
            ),
        },
        |cx| generator.generate(cx),
        |genotype: &A::Genotype| {
            // A generated input is run right after it is drawn, on the tree it was drawn
            // with (`express` would build the same one); mutants, seeds and shrink candidates
            // are replayed.
            let tree = match drawn.take() {
                Some(tree) => Ok(tree),
                None => argument.express(genotype, &building),
            };
            match tree {
                Ok(tree) => {
                    let value = tree.current();
                    if shrinking.is_current_minimum(genotype, &value) {
                        return Outcome::Discard;
                    }
                    let outcome = outcome(property(value));
                    if matches!(outcome, Outcome::Fail(_)) {
                        shrinking.failed(genotype, &tree.current());
                    }
                    outcome
                }
                // A filter gave up on these choices: neither a pass nor a failure.
                Err(_) => Outcome::Discard,
            }
        },
    );
    let Report { stats, failure } = report;
    let failure = failure.map(|failure| {
        let mut tree = argument
            .express(&failure.minimal, &building)
            .expect("the minimal input was built once already");
        let simplified = simplify::simplify(
            &mut tree,
            &mut property,
            config.shrink_steps,
            config.shrink_time,
        );
        let mut failure = failure.map(|genotype| {
            argument
                .express(&genotype, &building)
                .expect("the failing input was built once already")
                .current()
        });
        if let Some(simplified) = simplified {
            failure.minimal = simplified.value;
            failure.message = simplified.message;
            failure.shrink_steps += simplified.steps;
        }
        failure
    });
    Report { stats, failure }
}

/// Runs `property` under the engine with `config` (already translated, see
/// [`typefuzz_config`]) and returns the report, without panicking.
///
/// ```
/// use proptest::prelude::*;
/// let config = typefuzz::Config::default().with_seed(1).with_cases(500);
/// let report = typefuzz_proptest::run_with(&config, 0..1000u32, |x| {
///     prop_assert!(x < 900, "too big");
///     Ok(())
/// });
/// let failure = report.failure.expect("some x >= 900");
/// assert_eq!(failure.minimal, 900);
/// ```
pub fn run_with<S, F>(config: &Config, strategy: S, property: F) -> Report<S::Value>
where
    S: Strategy,
    F: FnMut(S::Value) -> Result<(), TestCaseError>,
{
    let proptest = ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    run_argument(config, &proptest, &Drawn::new(strategy), property)
}

/// Runs `property` on values of `strategy` and their mutants, configured by `proptest` (see
/// [`typefuzz_config`]), and returns the report without panicking.
///
/// The strategy's values are mutated through the choices they drew ([`choices`]), so every
/// input is a value the strategy can produce, whatever its combinators; no [`Mutate`] impl is
/// needed.
///
/// [`Mutate`]: typefuzz_engine::Mutate
///
/// ```
/// use proptest::prelude::*;
/// use proptest::test_runner::{Config as ProptestConfig, RngSeed};
/// let mut config = ProptestConfig::with_cases(256);
/// config.rng_seed = RngSeed::Fixed(3);
/// let report = typefuzz_proptest::run(any::<(u8, bool)>(), &config, |(x, b)| {
///     prop_assume!(b);
///     prop_assert!(x < 200);
///     Ok(())
/// });
/// let failure = report.failure.expect("a fifth of all u8 are >= 200");
/// assert_eq!(failure.minimal, (200, true));
/// ```
pub fn run<S, F>(strategy: S, proptest: &ProptestConfig, property: F) -> Report<S::Value>
where
    S: Strategy,
    F: FnMut(S::Value) -> Result<(), TestCaseError>,
{
    let config = typefuzz_config(proptest);
    run_argument(&config, proptest, &Drawn::new(strategy), property)
}

/// The function API: runs `property` like [`run`] and panics with a proptest-style message if it
/// fails; returns the statistics otherwise.
///
/// This is `typefuzz::proptest::check` through the facade.
///
/// ```
/// use proptest::prelude::*;
/// use proptest::test_runner::Config as ProptestConfig;
/// let stats = typefuzz_proptest::check(
///     proptest::collection::vec(any::<i32>(), 0..10),
///     &ProptestConfig::with_cases(50),
///     |mut v| {
///         v.sort();
///         prop_assert!(v.windows(2).all(|w| w[0] <= w[1]));
///         Ok(())
///     },
/// );
/// assert!(stats.valid >= 50);
/// ```
///
/// ```should_panic
/// use proptest::prelude::*;
/// use proptest::test_runner::Config as ProptestConfig;
/// typefuzz_proptest::check(any::<u8>(), &ProptestConfig::default(), |x| {
///     prop_assert!(x < 100);
///     Ok(())
/// });
/// ```
pub fn check<S, F>(strategy: S, proptest: &ProptestConfig, property: F) -> Stats
where
    S: Strategy,
    F: FnMut(S::Value) -> Result<(), TestCaseError>,
{
    let report = run(strategy, proptest, property);
    conclude(report, proptest, &|value: &S::Value| show(value))
}

/// proptest's `TestRunner` as a drop-in: `TestRunner::new(config).run(&strategy, test)` has
/// proptest's signature and result (`Err(TestError::Fail(reason, minimal))`), with typefuzz's
/// loop behind it.
///
/// A run keeps its failures in a regression file named after the test function (the closure's
/// enclosing function, or the function passed) beside proptest's own regression file for the
/// calling source file, and replays it, and the source file's `.proptest-regressions` seeds,
/// first. typefuzz's details (seed, statistics, regression file) go to stderr; the error is
/// proptest's.
///
/// ```
/// use proptest::prelude::*;
/// use proptest::test_runner::{Config as ProptestConfig, TestError};
/// use typefuzz_proptest::TestRunner;
///
/// let mut runner = TestRunner::new(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(200) });
/// let result = runner.run(&proptest::collection::vec(any::<u8>(), 1..10), |v| {
///     prop_assert!(v.iter().all(|&b| b < 200));
///     Ok(())
/// });
/// match result {
///     Err(TestError::Fail(_, minimal)) => assert_eq!(minimal, vec![200]),
///     other => panic!("expected a failure, got {other:?}"),
/// }
/// ```
#[derive(Clone, Debug, Default)]
pub struct TestRunner {
    config: ProptestConfig,
}

impl TestRunner {
    /// A runner with `config`, as `proptest::test_runner::TestRunner::new`.
    ///
    /// ```
    /// let runner = typefuzz_proptest::TestRunner::new(proptest::test_runner::Config::with_cases(10));
    /// assert_eq!(runner.config().cases, 10);
    /// ```
    pub fn new(config: ProptestConfig) -> Self {
        TestRunner { config }
    }

    /// The configuration.
    ///
    /// ```
    /// assert_eq!(typefuzz_proptest::TestRunner::default().config().cases, 256);
    /// ```
    pub fn config(&self) -> &ProptestConfig {
        &self.config
    }

    /// Runs `test` on values of `strategy` and their mutants; `Ok` if it held, proptest's
    /// `TestError` otherwise (`Abort` when every test was discarded).
    ///
    /// ```
    /// use proptest::prelude::*;
    /// let mut runner = typefuzz_proptest::TestRunner::new(proptest::test_runner::Config::with_cases(50));
    /// assert!(runner.run(&(0..10u8, "[a-z]{2}"), |(n, s)| {
    ///     prop_assert!(n < 10 && s.len() == 2);
    ///     Ok(())
    /// }).is_ok());
    /// ```
    #[track_caller]
    pub fn run<S, F>(&mut self, strategy: &S, test: F) -> Result<(), TestError<S::Value>>
    where
        S: Strategy,
        F: FnMut(S::Value) -> Result<(), TestCaseError>,
    {
        let caller = Location::caller();
        let mut proptest = self.config.clone();
        proptest.source_file = proptest.source_file.or(Some(caller.file()));
        let mut config = typefuzz_config(&proptest);
        if proptest.failure_persistence.is_some() && proptest.test_name.is_none() {
            // `my_crate::tests::round_trip::{{closure}}`, or `my_crate::round_trip` for a function
            // passed by name: the test function's path names the property.
            let type_name = std::any::type_name::<F>();
            let path = type_name.strip_suffix("::{{closure}}").unwrap_or(type_name);
            let test = path.rsplit("::").next().unwrap_or(path);
            config.name = Some(path.to_string());
            if std::env::var_os("TYPEFUZZ_REGRESSIONS").is_none() {
                config.regressions = persistence::regression_path(&proptest, test);
            }
        }
        let report = run_argument(&config, &proptest, &Drawn::new(strategy), test);
        if let Some(message) = too_many_rejects(&report, &proptest) {
            return Err(TestError::Abort(Reason::from(message)));
        }
        let stats = report.stats.clone();
        match report.failure {
            Some(failure) => {
                eprintln!(
                    "{}",
                    failure_message(&failure, &stats, &proptest, &|value| show(value))
                );
                Err(TestError::Fail(
                    Reason::from(failure.message),
                    failure.minimal,
                ))
            }
            None => Ok(()),
        }
    }
}

/// Panics with the failure message, or with proptest's complaint when nothing was checked;
/// otherwise reports a `max_global_rejects` overrun and returns the statistics.
fn conclude<T: Debug>(
    report: Report<T>,
    proptest: &ProptestConfig,
    show: &dyn Fn(&T) -> String,
) -> Stats {
    if let Some(failure) = &report.failure {
        panic!(
            "{}",
            failure_message(failure, &report.stats, proptest, show)
        );
    }
    if let Some(message) = too_many_rejects(&report, proptest) {
        panic!("Test aborted: {message}");
    }
    if let Some(note) = rejects_note(report.stats.discards, proptest) {
        eprintln!("{note}");
    }
    report.stats
}

/// proptest's abort, when the rejects kept the run from its valid cases: everything discarded
/// ([`Report::never_checked`]); the discard bound (time, or `TYPEFUZZ_MAX_DISCARDS`) reached
/// short of the case count ([`Report::cut_short`]); or more rejects than `max_global_rejects`
/// (where proptest itself would have aborted) and fewer distinct valid inputs than half of
/// `cases` (the engine reran the few valid inputs it found to make up the count). Plain proptest fails such a run with "Too
/// many global rejects"; so does the drop-in, which only spent longer trying.
///
/// ```
/// use typefuzz::{check, Config, Discard};
/// let proptest = proptest::test_runner::Config::with_cases(100);
/// let config = Config::default().with_seed(1).with_cases(100).with_max_discards(Some(500));
/// // One input in 256 is valid: 500 discards cannot find 100 distinct valid cases.
/// let report = check(&config, |cx| cx.generate::<u8>(), |x| -> bool {
///     if *x != 7 { Discard::discard() } else { true }
/// });
/// let message = typefuzz_proptest::too_many_rejects(&report, &proptest).unwrap();
/// assert!(message.starts_with("Too many global rejects"), "{message}");
/// assert!(message.contains("proptest's `cases` is 100"), "{message}");
/// ```
pub fn too_many_rejects<T>(report: &Report<T>, proptest: &ProptestConfig) -> Option<String> {
    if let Some(message) = report.never_checked() {
        return Some(format!("Too many global rejects\n\t{message}"));
    }
    let stats = &report.stats;
    let cases = u64::from(proptest.cases);
    let past_proptest = stats.discards > u64::from(proptest.max_global_rejects);
    // Half, not all: a strategy with a small image repeats values under plain proptest too.
    let too_few_distinct = past_proptest && stats.unique_valid < stats.valid.min(cases) / 2;
    if report.failure.is_some() || (report.cut_short().is_none() && !too_few_distinct) {
        return None;
    }
    Some(format!(
        "Too many global rejects\n\ttypefuzz: {} rejects (max_global_rejects is {}) in {:.1} s \
         left {} valid cases, {} of them distinct (seed {}); proptest's `cases` is {}, and a \
         test passes only once that many ran: make a campaign (TYPEFUZZ_TIME=5m) to climb \
         further, or check the precondition",
        stats.discards,
        proptest.max_global_rejects,
        stats.elapsed.as_secs_f64(),
        stats.valid,
        stats.unique_valid,
        stats.seed,
        cases
    ))
}

fn rejects_note(discards: u64, proptest: &ProptestConfig) -> Option<String> {
    (discards > u64::from(proptest.max_global_rejects)).then(|| {
        format!(
            "typefuzz: {discards} inputs were discarded, more than max_global_rejects ({}); \
             plain proptest would have aborted with \"Too many global rejects\", typefuzz went on",
            proptest.max_global_rejects
        )
    })
}

/// The panic message of a failure: proptest's first lines, then typefuzz's seed, statistics
/// and regression file. `show` formats an input (the macro names the arguments: `x = 1, y = 2`);
/// inputs longer than 400 characters are elided (the regression file replays them whole).
///
/// ```
/// use proptest::prelude::*;
/// use proptest::test_runner::{Config as ProptestConfig, RngSeed};
/// let mut proptest = ProptestConfig::with_cases(100);
/// proptest.rng_seed = RngSeed::Fixed(5);
/// let report = typefuzz_proptest::run(any::<u8>(), &proptest, |x| {
///     prop_assert!(x < 10, "x is {}", x);
///     Ok(())
/// });
/// let failure = report.failure.as_ref().unwrap();
/// let message = typefuzz_proptest::failure_message(failure, &report.stats, &proptest, &|x| format!("x = {x}"));
/// assert!(message.starts_with("Test failed: x is 10"));
/// assert!(message.contains("minimal failing input: x = 10"));
/// assert!(message.contains("TYPEFUZZ_SEED=5"));
/// ```
pub fn failure_message<T>(
    failure: &Failure<T>,
    stats: &Stats,
    proptest: &ProptestConfig,
    show: &dyn Fn(&T) -> String,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Test failed: {}; minimal failing input: {}",
        failure.message,
        elide(&show(&failure.minimal))
    );
    let _ = writeln!(out, "\tsuccesses: {}", failure.tests - failure.discards - 1);
    let _ = writeln!(out, "\tlocal rejects: 0");
    let _ = writeln!(out, "\tglobal rejects: {}", failure.discards);
    let original = elide(&show(&failure.original));
    let rejects = rejects_note(failure.discards, proptest);
    let notes: Vec<&str> = rejects.as_deref().into_iter().collect();
    out.push_str(&failure.details(stats, &original, &notes));
    out
}

/// What the macros expand to. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use proptest;
    pub use proptest::test_runner::{
        contextualize_config, Config as ProptestConfig, TestCaseError,
    };

    pub use crate::argument::probe::{Any, NotWhole, TypeProbe, Whole};
    pub use crate::argument::Drawn;

    use super::*;

    /// Accepts a configuration by value or by reference without moving it, as proptest's
    /// closure form does (`proptest!(conf, ...)` twice in a row compiles): called with method
    /// syntax, so `conf` and `&conf` both autoref to `&ProptestConfig`.
    pub trait ToOwnedConfig {
        fn to_owned_config(&self) -> ProptestConfig;
    }

    impl ToOwnedConfig for ProptestConfig {
        fn to_owned_config(&self) -> ProptestConfig {
            self.clone()
        }
    }

    /// The configuration of one named test function (`proptest!`, `prop_state_machine!`):
    /// proptest's environment overrides applied, the test's name and source file set (what its
    /// regression files are keyed by).
    pub fn test_config(
        config: ProptestConfig,
        test_name: &'static str,
        source_file: &'static str,
    ) -> ProptestConfig {
        let mut config = contextualize_config(config);
        config.test_name = Some(test_name);
        config.source_file = Some(source_file);
        config
    }

    /// One `proptest!` test: run, then panic with named arguments on failure.
    pub fn run_test<A, F>(arguments: A, proptest: ProptestConfig, names: &[&str], property: F)
    where
        A: Argument,
        A::Value: NamedArgs,
        F: FnMut(A::Value) -> Result<(), TestCaseError>,
    {
        let config = typefuzz_config(&proptest);
        let report = run_argument(&config, &proptest, &arguments, property);
        conclude(report, &proptest, &|value: &A::Value| value.named(names));
    }
}

/// `proptest::proptest!`'s syntax, run by typefuzz: test functions with `x in strategy` and
/// `x: Type` arguments (several per test, any attributes and doc comments), an optional
/// `#![proptest_config(expr)]`, and the closure forms `proptest!(|(x in s)| body)` and
/// `proptest!(config, |(x: T)| body)`.
///
/// Beyond proptest's grammar, any pattern binds an argument: `mut v in s`, `(a, b) in (s, t)`,
/// `(a, b): (u8, u8)`, `Point { x, y }: Point`, `[a, b]: [u8; 2]`.
///
/// An argument `x in strategy` is mutated through the choices its strategy drew
/// ([`choices`]), so the property only sees values the strategy can produce; an argument
/// `x: T` or `x in any::<T>()` whose type implements [`Mutate`](typefuzz_engine::Mutate) and is
/// covered whole by `any::<T>()` (integers, `bool`, `char`, your own `#[derive(Mutate)]` types)
/// is mutated as a `T`. See the crate documentation for how the configuration, discards and
/// failures map.
///
/// ```
/// use proptest::prelude::*;
///
/// #[derive(Clone, Debug)]
/// struct Point {
///     x: i16,
///     y: i16,
/// }
///
/// fn point() -> impl Strategy<Value = Point> {
///     (any::<i16>(), any::<i16>()).prop_map(|(x, y)| Point { x, y })
/// }
///
/// typefuzz::proptest! {
///     #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]
///     fn manhattan_is_symmetric(a in point(), b in point(), Point { x, y } in point()) {
///         let d = |p: &Point, q: &Point| (p.x as i32 - q.x as i32).abs() + (p.y as i32 - q.y as i32).abs();
///         prop_assert_eq!(d(&a, &b), d(&b, &a));
///         let p = Point { x, y };
///         prop_assert!(d(&p, &p) == 0);
///     }
/// }
///
/// fn main() {
///     manhattan_is_symmetric();
///     // The closure form, inside any function:
///     typefuzz::proptest!(|(x in 0..100u32, (y, z): (u8, u8))| {
///         prop_assert!(x < 100 && u16::from(y) + u16::from(z) <= 510);
///     });
/// }
/// ```
#[macro_export]
macro_rules! proptest {
    (#![proptest_config($config:expr)]
     $(
        $(#[$meta:meta])*
        fn $test_name:ident($($arg:tt)+) $body:block
     )*) => {
        $(
            $(#[$meta])*
            fn $test_name() {
                let config = $crate::__private::test_config(
                    { use $crate::__private::ToOwnedConfig as _; (&$config).to_owned_config() },
                    ::core::concat!(::core::module_path!(), "::", ::core::stringify!($test_name)),
                    ::core::file!());
                $crate::__proptest_args!(@norm config [] [] $body; $($arg)+);
            }
        )*
    };
    ($(
        $(#[$meta:meta])*
        fn $test_name:ident($($arg:tt)+) $body:block
    )*) => {
        $crate::proptest! {
            #![proptest_config($crate::__private::ProptestConfig::default())]
            $($(#[$meta])* fn $test_name($($arg)+) $body)*
        }
    };
    (|($($arg:tt)+)| $body:expr) => {
        $crate::proptest!($crate::__private::ProptestConfig::default(), |($($arg)+)| $body)
    };
    (move |($($arg:tt)+)| $body:expr) => {
        $crate::proptest!($crate::__private::ProptestConfig::default(), move |($($arg)+)| $body)
    };
    ($config:expr, |($($arg:tt)+)| $body:expr) => {{
        let mut config = $crate::__private::contextualize_config(
            { use $crate::__private::ToOwnedConfig as _; ($config).to_owned_config() });
        if config.test_name.is_none() {
            config.test_name = ::core::option::Option::Some(
                ::core::concat!(::core::module_path!(), "::line", ::core::line!()));
        }
        if config.source_file.is_none() {
            config.source_file = ::core::option::Option::Some(::core::file!());
        }
        $crate::__proptest_args!(@norm config [] [] $body; $($arg)+);
    }};
    ($config:expr, move |($($arg:tt)+)| $body:expr) => {{
        let mut config = $crate::__private::contextualize_config(
            { use $crate::__private::ToOwnedConfig as _; ($config).to_owned_config() });
        if config.test_name.is_none() {
            config.test_name = ::core::option::Option::Some(
                ::core::concat!(::core::module_path!(), "::line", ::core::line!()));
        }
        if config.source_file.is_none() {
            config.source_file = ::core::option::Option::Some(::core::file!());
        }
        $crate::__proptest_args!(@norm config [move] [] $body; $($arg)+);
    }};
}

/// Normalizes `proptest!` arguments (`pattern in strategy`, `pattern: Type`) into
/// pattern/argument pairs and runs the test. Not public API.
#[doc(hidden)]
#[macro_export]
macro_rules! __proptest_args {
    (@norm $config:ident [$($mod:tt)*] [$([$($p:tt)*] [$a:expr])*] $body:expr;) => {
        $crate::__private::run_test(
            ($($a,)*),
            $config,
            &[$(::core::stringify!($($p)*)),*],
            $($mod)* |($($($p)*,)*)| -> ::core::result::Result<(), $crate::__private::TestCaseError> {
                let (): () = $body;
                ::core::result::Result::Ok(())
            },
        )
    };
    // `x in any::<T>()` is `x: T`.
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; $p:pat in any::<$t:ty>() $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [$p] [$crate::__proptest_args!(@typed $t)]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; $p:pat in $s:expr $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [$p] [$crate::__private::Drawn::new($s)]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; ($($p:tt)*) : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [($($p)*)] [$crate::__proptest_args!(@typed $t)]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; [$($p:tt)*] : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [[$($p)*]] [$crate::__proptest_args!(@typed $t)]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; $s:ident { $($p:tt)* } : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [$s { $($p)* }] [$crate::__proptest_args!(@typed $t)]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; $s:ident ( $($p:tt)* ) : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [$s ( $($p)* )] [$crate::__proptest_args!(@typed $t)]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; _ : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [_] [$crate::__proptest_args!(@typed $t)]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; ref mut $p:ident : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [ref mut $p] [$crate::__proptest_args!(@typed $t)]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; ref $p:ident : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [ref $p] [$crate::__proptest_args!(@typed $t)]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; mut $p:ident : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [mut $p] [$crate::__proptest_args!(@typed $t)]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; $p:ident : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [$p] [$crate::__proptest_args!(@typed $t)]] $body; $($($rest)*)?)
    };
    // The argument of an `x: T` argument: typed when `any::<T>()` covers `T` and `T: Mutate`,
    // otherwise drawn through `any::<T>()`.
    (@typed $t:ty) => {{
        #[allow(unused_imports, clippy::needless_borrow)]
        use $crate::__private::{Any as _, NotWhole as _, Whole as _};
        (&&&$crate::__private::TypeProbe::<$t>::new()).__typefuzz_argument()
    }};
}
