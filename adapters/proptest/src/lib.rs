//! typefuzz's drop-in for proptest: `typefuzz::proptest!` accepts `proptest::proptest!`'s syntax
//! and runs the test under typefuzz's coverage-guided loop.
//!
//! Upgrading a test costs two lines: the macro path, and `#[derive(Mutate)]` on your own argument
//! types (standard types and tuples already implement [`Mutate`]).
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
//! - **Seeds and resets come from your strategies.** Each fresh input is
//!   `strategy.new_tree(&mut runner).current()`, with a `TestRunner` reseeded from the engine's
//!   random state, so a run is a function of its seed (`TYPEFUZZ_SEED`).
//! - **Mutation is typed.** The argument tuple is the value typefuzz mutates and shrinks, so every
//!   argument type must implement [`Mutate`] (`#[derive(Mutate)]` for your own types). Mutants are
//!   values of the argument *types*, not necessarily of the *strategies*. The macro projects
//!   each argument back into its strategy's domain when the strategy is a numeric range
//!   (`x in 1..10u8` stays in `1..10`), a float class (`any::<f64>()` has no NaN) or `Just(v)`;
//!   see [`domain`]. Every other strategy (`prop_map`, regexes, filters, collection sizes) is a
//!   source of seeds only: a property that only holds on such a strategy's image must say so
//!   with `prop_assume!` (as FuzzChick's properties do with `==>`), or it reports a failure
//!   proptest could not produce.
//! - **`prop_assume!` discards** (`TestCaseError::Reject`); `prop_assert*!`, `?` on
//!   `TestCaseError` and panics fail.
//! - **Feedback.** Under `cargo typefuzz test` the binary is instrumented and coverage guides the
//!   search; `typefuzz::cover!`, `target!` and `assume!` work in the body too. Even without any
//!   of them, once `prop_assume!` has rejected an input, valid inputs of a size never seen valid
//!   before become seeds (the engine's `valid_sizes` feedback), so the search climbs from small
//!   valid inputs to bigger ones — what makes sparse preconditions reachable.
//! - **`ProptestConfig`.** `cases` counts non-discarded tests (typefuzz's own default,
//!   [`Config::cases`], is a floor: the longer budget wins); `max_global_rejects` does not abort
//!   the run (typefuzz climbs out of discards) but exceeding it is reported; `timeout` is the
//!   per-test limit; `rng_seed: RngSeed::Fixed(n)` (or `PROPTEST_RNG_SEED`) is the run's seed;
//!   `max_shrink_time`/`max_shrink_iters` bound shrinking; `failure_persistence: None` disables
//!   the regression file. `PROPTEST_*` variables apply as in proptest, then the `TYPEFUZZ_*`
//!   variables ([`Config::apply_env`]); when both set a number of cases the larger wins, and
//!   `TYPEFUZZ_TIME=5m cargo test` turns the test into a five-minute campaign.
//! - **Failures** panic with proptest's first line (`Test failed: <message>; minimal failing
//!   input: x = ..., y = ...`) followed by typefuzz's seed, statistics and regression file.
//!   The regression file is `$CARGO_MANIFEST_DIR/typefuzz-regressions/<module>-<test>.txt`
//!   (`TYPEFUZZ_REGRESSIONS` overrides it); it is replayed first on every run.
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

pub mod domain;

use std::fmt::{Debug, Write as _};
use std::time::Duration;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{
    Config as ProptestConfig, RngAlgorithm, RngSeed, TestCaseError, TestRng, TestRunner,
};
use typefuzz_engine::{Config, Context, Failure, Framework, Mutate, Outcome, Report, Stats};

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

/// Translates a proptest configuration into the engine's, then applies the `TYPEFUZZ_*`
/// environment variables; the larger of the two case counts wins.
///
/// `cases` becomes [`Config::cases`], `timeout` (milliseconds, 0 = none) the per-test limit
/// [`Config::test_timeout`], `rng_seed: Fixed(n)` the seed, `max_shrink_time` (ms) and
/// `max_shrink_iters` the shrink bounds when set, and `test_name` the property's name (which
/// places the regression file), unless `failure_persistence` is `None`. `max_global_rejects` is
/// not a stop condition: typefuzz keeps its own discard budget ([`Config::max_discards`], at least
/// `max_global_rejects`) and only reports when proptest would have given up.
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
        if let (Some(name), true) = (proptest.test_name, proptest.failure_persistence.is_some()) {
            config = config.with_name(name);
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

/// Draws fresh inputs from a strategy with a `TestRunner` reseeded from the engine's random
/// state, so that generation is a function of the run's seed.
///
/// The strategy itself is not held here, so that the generator (which needs the runner
/// mutably) and the property (which projects inputs with the strategy) can share it.
struct Draw {
    runner: TestRunner,
    config: ProptestConfig,
}

impl Draw {
    fn new(proptest: &ProptestConfig) -> Self {
        let mut config = proptest.clone();
        // The generation runner never persists anything: typefuzz owns the regression file.
        config.failure_persistence = None;
        let runner = TestRunner::new_with_rng(
            config.clone(),
            TestRng::deterministic_rng(RngAlgorithm::XorShift),
        );
        Draw { runner, config }
    }

    fn draw<S: Strategy>(&mut self, strategy: &S, cx: &mut Context) -> S::Value {
        let mut reason = None;
        for _ in 0..4 {
            let seed = cx.rng().u128(..).to_le_bytes();
            *self.runner.rng() = TestRng::from_seed(RngAlgorithm::XorShift, &seed);
            match strategy.new_tree(&mut self.runner) {
                Ok(tree) => return tree.current(),
                // A filtering strategy gave up (its local rejects count over the whole runner):
                // start a fresh runner and try again.
                Err(why) => {
                    reason = Some(why);
                    self.runner = TestRunner::new_with_rng(
                        self.config.clone(),
                        TestRng::deterministic_rng(RngAlgorithm::XorShift),
                    );
                }
            }
        }
        panic!(
            "typefuzz: the strategy could not generate a value: {}",
            reason.map_or_else(String::new, |r| r.message().to_string())
        )
    }
}

/// Runs the engine on `strategy`'s values and their mutants, each input passed through
/// `project` (the strategy's domain, see [`domain`]) before the property sees it; the reported
/// inputs are projected too, so they are the values the property failed on.
fn run_projected<S, F>(
    config: &Config,
    proptest: &ProptestConfig,
    strategy: &S,
    project: impl Fn(&mut S::Value),
    mut property: F,
) -> Report<S::Value>
where
    S: Strategy,
    S::Value: Mutate + Debug,
    F: FnMut(S::Value) -> Result<(), TestCaseError>,
{
    let mut draw = Draw::new(proptest);
    let mut report = typefuzz_engine::check(
        config,
        |cx| draw.draw(strategy, cx),
        |value: &S::Value| {
            let mut value = value.clone();
            project(&mut value);
            outcome(property(value))
        },
    );
    if let Some(failure) = &mut report.failure {
        project(&mut failure.minimal);
        project(&mut failure.original);
    }
    report
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
    S::Value: Mutate + Debug,
    F: FnMut(S::Value) -> Result<(), TestCaseError>,
{
    run_projected(
        config,
        &ProptestConfig::default(),
        &strategy,
        |_| {},
        property,
    )
}

/// Runs `property` on inputs from `strategy` and their typed mutants, configured by `proptest`
/// (see [`typefuzz_config`]), and returns the report without panicking.
///
/// ```
/// use proptest::prelude::*;
/// use proptest::test_runner::{Config as ProptestConfig, RngSeed};
/// let mut config = ProptestConfig::with_cases(100);
/// config.rng_seed = RngSeed::Fixed(3);
/// let report = typefuzz_proptest::run(any::<(u8, bool)>(), &config, |(x, b)| {
///     prop_assume!(b);
///     prop_assert!(x < 255);
///     Ok(())
/// });
/// let failure = report.failure.expect("255 is a u8");
/// assert_eq!(failure.minimal, (255, true));
/// ```
pub fn run<S, F>(strategy: S, proptest: &ProptestConfig, property: F) -> Report<S::Value>
where
    S: Strategy,
    S::Value: Mutate + Debug,
    F: FnMut(S::Value) -> Result<(), TestCaseError>,
{
    let config = typefuzz_config(proptest);
    run_projected(&config, proptest, &strategy, |_| {}, property)
}

/// [`run`] with an explicit [`Domain`](domain::Domain): every input is projected into `domain`
/// before the property sees it, as the macro does for range strategies (the function API cannot
/// see a generic strategy's type, so it does not project on its own).
///
/// ```
/// use proptest::prelude::*;
/// use proptest::test_runner::Config as ProptestConfig;
/// use typefuzz_proptest::domain::IntRange;
/// let report = typefuzz_proptest::run_in(
///     (1..10u8, 0..100u32),
///     (IntRange::from(1..10u8), IntRange::from(0..100u32)),
///     &ProptestConfig::with_cases(1000),
///     |(x, y)| {
///         prop_assert!((1..10).contains(&x) && y < 100);
///         Ok(())
///     },
/// );
/// assert!(report.passed());
/// ```
pub fn run_in<S, D, F>(
    strategy: S,
    domain: D,
    proptest: &ProptestConfig,
    property: F,
) -> Report<S::Value>
where
    S: Strategy,
    S::Value: Mutate + Debug,
    D: domain::Domain<S::Value>,
    F: FnMut(S::Value) -> Result<(), TestCaseError>,
{
    let config = typefuzz_config(proptest);
    run_projected(
        &config,
        proptest,
        &strategy,
        |value| domain.project(value),
        property,
    )
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
    S::Value: Mutate + Debug,
    F: FnMut(S::Value) -> Result<(), TestCaseError>,
{
    let report = run(strategy, proptest, property);
    conclude(report, proptest, &|value: &S::Value| format!("{value:?}"))
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
    if let Some(message) = report.never_checked() {
        panic!("Test aborted: Too many global rejects\n\t{message}");
    }
    if let Some(note) = rejects_note(report.stats.discards, proptest) {
        eprintln!("{note}");
    }
    if let Some(note) = report.cut_short() {
        eprintln!("{note}");
    }
    report.stats
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
/// and regression file. `show` formats an input (the macro names the arguments: `x = 1, y = 2`).
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
        show(&failure.minimal)
    );
    let _ = writeln!(out, "\tsuccesses: {}", failure.tests - failure.discards - 1);
    let _ = writeln!(out, "\tlocal rejects: 0");
    let _ = writeln!(out, "\tglobal rejects: {}", failure.discards);
    let original = show(&failure.original);
    let rejects = rejects_note(failure.discards, proptest);
    let notes: Vec<&str> = rejects.as_deref().into_iter().collect();
    out.push_str(&failure.details(stats, &original, &notes));
    out
}

/// What the macros expand to. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use proptest;
    pub use proptest::arbitrary::any;
    pub use proptest::test_runner::{
        contextualize_config, Config as ProptestConfig, TestCaseError,
    };

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

    pub use crate::domain::probe::{Fallback, Known, Probe};
    pub use crate::domain::Arg;
    use crate::domain::ProjectArgs;

    /// One `proptest!` test: run with each argument projected into its strategy's domain, then
    /// panic with named arguments on failure.
    pub fn run_test<S, F>(strategy: S, proptest: ProptestConfig, names: &[&str], property: F)
    where
        S: ProjectArgs,
        S::Value: Mutate + Debug + NamedArgs,
        F: FnMut(S::Value) -> Result<(), TestCaseError>,
    {
        let config = typefuzz_config(&proptest);
        let report = run_projected(
            &config,
            &proptest,
            &strategy,
            |value| strategy.project_args(value),
            property,
        );
        conclude(report, &proptest, &|value: &S::Value| value.named(names));
    }
}

/// `proptest::proptest!`'s syntax, run by typefuzz: test functions with `x in strategy` and
/// `x: Type` arguments (several per test, any attributes and doc comments), an optional
/// `#![proptest_config(expr)]`, and the closure forms `proptest!(|(x in s)| body)` and
/// `proptest!(config, |(x: T)| body)`.
///
/// The arguments form a tuple that must implement [`Mutate`] (each argument type does); see the
/// crate documentation for how the configuration, discards and failures map.
///
/// ```
/// use proptest::prelude::*;
///
/// #[derive(Clone, Debug, typefuzz::Mutate)]
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
///     fn manhattan_is_symmetric(a in point(), b in point()) {
///         let d = |p: &Point, q: &Point| (p.x as i32 - q.x as i32).abs() + (p.y as i32 - q.y as i32).abs();
///         prop_assert_eq!(d(&a, &b), d(&b, &a));
///     }
/// }
///
/// fn main() {
///     manhattan_is_symmetric();
///     // The closure form, inside any function:
///     typefuzz::proptest!(|(x in 0..100u32, y: u8)| {
///         prop_assert!(x as u64 + y as u64 <= u32::MAX as u64 + 255);
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
                let mut config = $crate::__private::contextualize_config(
                    { use $crate::__private::ToOwnedConfig as _; (&$config).to_owned_config() });
                config.test_name = ::core::option::Option::Some(
                    ::core::concat!(::core::module_path!(), "::", ::core::stringify!($test_name)));
                config.source_file = ::core::option::Option::Some(::core::file!());
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
        $crate::__proptest_args!(@norm config [] [] $body; $($arg)+);
    }};
    ($config:expr, move |($($arg:tt)+)| $body:expr) => {{
        let mut config = $crate::__private::contextualize_config(
            { use $crate::__private::ToOwnedConfig as _; ($config).to_owned_config() });
        if config.test_name.is_none() {
            config.test_name = ::core::option::Option::Some(
                ::core::concat!(::core::module_path!(), "::line", ::core::line!()));
        }
        $crate::__proptest_args!(@norm config [move] [] $body; $($arg)+);
    }};
}

/// Normalizes `proptest!` arguments (`p in strategy`, `p: Type`) into pattern/strategy pairs and
/// runs the test. Not public API.
#[doc(hidden)]
#[macro_export]
macro_rules! __proptest_args {
    (@norm $config:ident [$($mod:tt)*] [$([$p:pat] [$s:expr])*] $body:expr;) => {
        $crate::__private::run_test(
            ($({
                let strategy = $s;
                let domain = {
                    #[allow(unused_imports)]
                    use $crate::__private::{Fallback as _, Known as _};
                    (&$crate::__private::Probe(&strategy)).__typefuzz_domain()
                };
                $crate::__private::Arg { strategy, domain }
            },)*),
            $config,
            &[$(::core::stringify!($p)),*],
            $($mod)* |($($p,)*)| -> ::core::result::Result<(), $crate::__private::TestCaseError> {
                let (): () = $body;
                ::core::result::Result::Ok(())
            },
        )
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; $p:pat in $s:expr $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [$p] [$s]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; ($p:pat) : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [$p] [$crate::__private::any::<$t>()]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; _ : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [_] [$crate::__private::any::<$t>()]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; ref mut $p:ident : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [ref mut $p] [$crate::__private::any::<$t>()]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; ref $p:ident : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [ref $p] [$crate::__private::any::<$t>()]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; mut $p:ident : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [mut $p] [$crate::__private::any::<$t>()]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; $p:ident : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [$p] [$crate::__private::any::<$t>()]] $body; $($($rest)*)?)
    };
    (@norm $c:ident $m:tt [$($acc:tt)*] $body:expr; [$($p:tt)*] : $t:ty $(, $($rest:tt)*)?) => {
        $crate::__proptest_args!(@norm $c $m [$($acc)* [[$($p)*]] [$crate::__private::any::<$t>()]] $body; $($($rest)*)?)
    };
}
