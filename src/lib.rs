//! # typefuzz
//!
//! Coverage-guided, property-based testing for Rust. `#[derive(Mutate)]` synthesizes type-aware
//! mutators — FuzzChick's *recursive*, *subterm*, *constructor-drop* and *constructor-grow*
//! operators — for your structs and enums, and one engine runs the two-queue (valid /
//! discarded) coverage-guided loop under your existing proptest, quickcheck and cargo-fuzz
//! harnesses. Inputs that reach new behaviour are kept and mutated, so a property whose
//! precondition rejects 95% of random inputs stops "passing" on discards and starts climbing
//! towards valid, interesting ones.
//!
//! ```
//! use typefuzz::{check, Config, Mutate};
//!
//! #[derive(Clone, Debug, PartialEq, Mutate)]
//! enum Tree {
//!     Leaf,
//!     Node(Box<Tree>, u8, Box<Tree>),
//! }
//!
//! fn keys(t: &Tree, out: &mut Vec<u8>) {
//!     if let Tree::Node(l, k, r) = t {
//!         keys(l, out);
//!         out.push(*k);
//!         keys(r, out);
//!     }
//! }
//!
//! fn is_bst(t: &Tree) -> bool {
//!     let mut out = Vec::new();
//!     keys(t, &mut out);
//!     out.windows(2).all(|w| w[0] < w[1])
//! }
//!
//! // A false claim: "no search tree holds more than five keys". Random trees are rarely search
//! // trees; `assume!` discards the others and `target!` rewards bigger valid ones, so the
//! // search climbs to a counterexample instead of discarding its way to a pass.
//! let config = Config::default().with_seed(3).with_cases(1_000_000).with_time(std::time::Duration::from_secs(30));
//! let report = check(&config, |cx| cx.generate::<Tree>(), |t| {
//!     typefuzz::assume!(is_bst(t));
//!     let mut out = Vec::new();
//!     keys(t, &mut out);
//!     typefuzz::target!(out.len() as f64);
//!     out.len() <= 5
//! });
//! let failure = report.failure.expect("the search reaches a valid counterexample");
//! assert!(is_bst(&failure.minimal));
//! ```
//!
//! ## What `#[derive(Mutate)]` gives a type
//!
//! * **generate**: a fresh value of bounded size (QuickChick-style: at size 0 only variants that
//!   need no further recursion; recursive variants weighted up with the size);
//! * **mutate**: one random type-aware mutation in place, recording the named [`Operator`]
//!   (one mutation in 8 of a field that has a same-typed twin is replayed on the twin, so
//!   `Input { before: s, after: s }` stays equal: [`Operator::Paired`]);
//! * **shrink**: strictly simpler candidates (subterms, simpler variants, shrunk fields);
//! * **encode / decode**: a total, bounded byte codec — what corpus files, regression files and
//!   libFuzzer's buffers hold ([`codec`]).
//!
//! Structs (named, tuple, unit), enums with any mix of variant shapes, generic parameters (bounds
//! inferred for the parameters used in fields), lifetimes where the type owns its data, and
//! (mutual) recursion through `Box`, `Rc`, `Arc`, `Option`, `Vec`, arrays and tuples are
//! supported without annotations. Attributes:
//!
//! | attribute | on | meaning |
//! |---|---|---|
//! | `#[mutate(skip)]` | field | never mutated or encoded; generated with `Default` |
//! | `#[mutate(with = path)]` | field | `path::generate(&mut Context) -> T` and `path::mutate(&mut T, &mut Context)` replace the field type's own |
//! | `#[mutate(weight = N)]` | variant | relative frequency in generation and grow (default 1; 0 = never generated) |
//! | `#[mutate(bound = "T: Mutate + Eq")]` | type | replaces the inferred where-clause predicates |
//!
//! ```
//! use typefuzz::{Context, Mutate, Operator};
//!
//! mod even {
//!     pub fn generate(cx: &mut typefuzz::Context) -> u32 { 2 * cx.below(100) as u32 }
//!     pub fn mutate(value: &mut u32, cx: &mut typefuzz::Context) {
//!         cx.record(typefuzz::Operator::Custom);
//!         *value = value.wrapping_add(2);
//!     }
//! }
//!
//! #[derive(Clone, Debug, Mutate)]
//! enum Instr {
//!     Nop,
//!     #[mutate(weight = 4)]
//!     Push(i64),
//!     Jump { #[mutate(with = even)] target: u32 },
//! }
//!
//! #[derive(Clone, Debug, Mutate)]
//! struct Machine {
//!     code: Vec<Instr>,
//!     #[mutate(skip)]
//!     trace: Vec<String>,
//! }
//!
//! let mut cx = Context::new(5);
//! let mut machine: Machine = cx.generate();
//! let applied = cx.mutate(&mut machine).to_vec();
//! assert!(!applied.is_empty());
//! assert!(machine.trace.is_empty());
//! ```
//!
//! ## Feedback
//!
//! Which inputs are "interesting" is decided by combinable sources: SanitizerCoverage counters
//! (`cargo typefuzz test`, stable Rust), labels ([`cover!`], [`sometimes!`]), maximization
//! targets ([`target!`]), precondition scores ([`assume!`]) and validity (a discarded input joins
//! the discarded queue). See [`Config`] for budgets and the `TYPEFUZZ_*` environment variables.
#![deny(missing_docs)]

pub use typefuzz_engine::*;

/// Derives [`Mutate`]: generation, type-aware mutation, shrinking and the byte codec.
///
/// See the [crate documentation](crate) for the attributes and [`Mutate`] for the contract.
#[cfg(feature = "derive")]
pub use typefuzz_derive::Mutate;

/// `assume!(condition)`: discards the current test when `condition` is false, and tells the
/// engine how close it came to true, so discarded inputs that get closer are kept and mutated.
///
/// The score follows the structure of the expression (Hypothesis's precondition targeting):
/// `a < b`, `a <= b`, `a == b` score by the distance between the operands, `&&` takes the
/// minimum, `||` the maximum, `!` negates, `.all(..)`/`.any(..)` fold. It returns from the
/// enclosing property with a discard of its return type ([`Discard`]); in a property returning
/// `()`, `bool` or `Result` it unwinds with the [`Discarded`] payload, which the engine and every
/// adapter count as a discard.
///
/// ```
/// use typefuzz::{check, Config};
/// let report = check(&Config::default().with_seed(1), |cx| cx.generate::<(u8, u8)>(), |&(a, b)| {
///     typefuzz::assume!(a < b);
///     assert!(a < b);
/// });
/// assert!(report.passed());
/// assert!(report.stats.valid > 0);
/// ```
#[cfg(feature = "derive")]
pub use typefuzz_derive::assume;

/// `sometimes!(condition, name)`: a "sometimes assertion" — records the label `name` whenever
/// `condition` holds and evaluates to `condition`; labels never satisfied are listed in the
/// run's statistics. It also logs the operands of the comparisons in `condition` (through `&&`,
/// `||`, `!`), which input-to-state mutation ([`feedback::cmplog`]) writes back into the input:
/// here the search is told which variant, with which payload, the element should have been.
///
/// ```
/// use typefuzz::{check, Config, Mutate};
/// #[derive(Clone, Debug, PartialEq, Mutate)]
/// enum Shape { Dot, Circle(u16), Square(u16) }
/// let config = Config::default().with_seed(2).with_cases(10_000);
/// let report = check(&config, |cx| cx.generate::<Vec<Shape>>(), |shapes| {
///     if typefuzz::sometimes!(shapes.first().cloned() == Some(Shape::Circle(999)), "circle") {
///         panic!("found");
///     }
/// });
/// assert!(report.failure.is_some());
/// ```
#[cfg(feature = "derive")]
pub use typefuzz_derive::sometimes;

/// Typed cargo-fuzz targets (feature `libfuzzer`): see [`fuzz_target!`] and the module's docs.
#[cfg(feature = "libfuzzer")]
pub use typefuzz_libfuzzer as libfuzzer;

#[cfg(feature = "libfuzzer")]
pub use typefuzz_libfuzzer::fuzz_target;

/// The proptest drop-in (feature `proptest`): [`proptest!`] and the function API
/// `typefuzz::proptest::check`; see the module's docs.
#[cfg(feature = "proptest")]
pub use typefuzz_proptest as proptest;

#[cfg(feature = "proptest")]
pub use typefuzz_proptest::proptest;

/// The quickcheck drop-in (feature `quickcheck` for quickcheck 1.x, `quickcheck09` for 0.9,
/// `quickcheck08` for 0.8): [`quickcheck!`] and the function API
/// `typefuzz::quickcheck::quickcheck` / `typefuzz::quickcheck::QuickCheck`; see the module's docs.
#[cfg(any(
    feature = "quickcheck",
    feature = "quickcheck09",
    feature = "quickcheck08"
))]
pub use typefuzz_quickcheck as quickcheck;

#[cfg(any(
    feature = "quickcheck",
    feature = "quickcheck09",
    feature = "quickcheck08"
))]
pub use typefuzz_quickcheck::quickcheck;

/// `#[quickcheck]` as a drop-in for the `quickcheck_macros` crate (features `quickcheck`,
/// `quickcheck09`, `quickcheck08`): upgrading is `quickcheck_macros::quickcheck` ->
/// `typefuzz::quickcheck_macros::quickcheck`, in the `use` or in the attribute's path.
///
/// `#[quickcheck] fn prop(a: A, b: B) -> R { .. }` is exactly
/// `typefuzz::quickcheck! { fn prop(a: A, b: B) -> R { .. } }`: a `#[test]` that checks `prop`
/// with typefuzz (arguments with a `Mutate` impl are mutated type-aware, the others generated by
/// their `Arbitrary` impl), keeping the function's other attributes (`#[should_panic]`,
/// `#[ignore]`). `#[quickcheck] static prop: fn(A) -> R = f;` is a `#[test]` calling
/// [`quickcheck::quickcheck`](fn@crate::quickcheck::quickcheck) on it.
///
/// Why not `#[typefuzz::quickcheck]`: attributes and `macro_rules!` macros share Rust's macro
/// namespace, so `typefuzz::quickcheck` cannot name both the attribute and the existing
/// `typefuzz::quickcheck!` (E0252). The module mirrors the crate the attribute replaces, the
/// way `typefuzz::quickcheck!` mirrors `quickcheck::quickcheck!`.
///
/// ```
/// use quickcheck::TestResult;
/// use typefuzz::quickcheck_macros::quickcheck;
///
/// #[quickcheck]
/// fn reverse_twice_is_identity(xs: Vec<u32>) -> bool {
///     let twice: Vec<u32> = xs.iter().rev().rev().copied().collect();
///     xs == twice
/// }
///
/// #[quickcheck]
/// fn division_round_trips(a: u32, b: u32) -> TestResult {
///     if b == 0 {
///         return TestResult::discard();
///     }
///     TestResult::from_bool((a / b) * b + a % b == a)
/// }
/// # fn main() {} // the properties are `#[test]`s: `cargo test` runs them
/// ```
#[cfg(any(
    feature = "quickcheck",
    feature = "quickcheck09",
    feature = "quickcheck08"
))]
pub mod quickcheck_macros {
    pub use typefuzz_derive::quickcheck;
}

/// `#[proptest]` as a drop-in for the `test-strategy` crate's (feature `proptest`): upgrading is
/// `test_strategy::proptest` -> `typefuzz::test_strategy::proptest`, in the `use` or in the
/// attribute's path.
///
/// The function becomes a `typefuzz::proptest! { #[test] fn .. }` test, its other attributes
/// (`#[should_panic]`, `#[ignore]`) kept:
///
/// | test-strategy | `typefuzz::proptest!` |
/// |---|---|
/// | `name: Type` | `name: Type`, that is `name in any::<Type>()` |
/// | `#[strategy(expr)] name: Type` | `name in expr` |
/// | `#[any(params)] name: Type`, `#[any(params, field = v)]`, `#[any(field = v)]` | `name in any_with::<Type>(params)` (the fields set on `params`, or on the default parameters) |
/// | `#[filter(#name > 0)]`, `#[filter(predicate)]`, `#[filter("label", ..)]` on an argument, `#[filter(..)]` on the function | `prop_assume!(..)` first in the body (`predicate(&name)` for the predicate form) |
/// | `#[proptest(config)]`, `#[proptest(config, cases = 1000)]`, `#[proptest(cases = 1000)]` | `#![proptest_config(..)]` (fields set on `config` or on `ProptestConfig::default()`) |
///
/// Differences: a filter *discards the whole case* (typefuzz counts it, and climbs towards
/// inputs that pass it) where test-strategy regenerates the one argument; the test must return
/// `()`; and strategies that depend on other arguments (`#[strategy(0..#n)]`), `#[by_ref]`,
/// `#[map]`, `async` tests and `#[proptest(dump)]` are rejected with a message saying what to
/// write instead.
///
/// Why not `#[typefuzz::proptest]`: attributes and `macro_rules!` macros share Rust's macro
/// namespace, so `typefuzz::proptest` cannot name both the attribute and the existing
/// `typefuzz::proptest!` (E0252). The module mirrors the crate the attribute replaces.
///
/// ```
/// use proptest::prelude::*;
/// use typefuzz::test_strategy::proptest;
///
/// #[proptest(cases = 64)]
/// fn sums_commute(a: u8, #[strategy(0..10u8)] b: u8, #[filter(#c % 2 == 0)] c: u16) {
///     prop_assert_eq!(u16::from(a) + u16::from(b) + c, c + u16::from(b) + u16::from(a));
/// }
/// # fn main() {} // the property is a `#[test]`: `cargo test` runs it
/// ```
#[cfg(feature = "proptest")]
pub mod test_strategy {
    pub use typefuzz_derive::proptest;
}

/// The proptest-state-machine drop-in (feature `state-machine`): [`prop_state_machine!`] and the
/// function API `typefuzz::state_machine::check`; see the module's docs.
#[cfg(feature = "state-machine")]
pub use typefuzz_state_machine as state_machine;

#[cfg(feature = "state-machine")]
pub use typefuzz_state_machine::prop_state_machine;
