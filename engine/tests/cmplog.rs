//! Typed input-to-state feedback without instrumentation: the comparisons written in `assume!`
//! are logged, and their operands are fed back into the input's typed leaves (a `String`, an
//! enum variant, an integer). The same property with the same comparisons written as plain
//! `if`s (invisible to the engine without instrumentation) is the control: same engine, same
//! budget, only the comparison operands hidden.

use typefuzz::{check, Config, Mutate, Operator, Outcome};

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Kind {
    Ping,
    Data(u16),
    Admin { level: u8 },
    Shutdown,
}

#[derive(Clone, Debug, PartialEq, Mutate)]
struct Request {
    user: String,
    kind: Kind,
    token: u64,
}

/// The bug sits behind a string, a variant with a given payload, and a 64-bit magic number.
fn reached(request: &Request) -> bool {
    request.user == "root" && request.kind == (Kind::Admin { level: 7 }) && request.token == MAGIC
}

const MAGIC: u64 = 0x5EED_CAFE_F00D_0042;

/// Tests per run, discards included: a count, so the result is the same on any machine.
const TESTS: u64 = 20_000;

fn config(seed: u64) -> Config {
    Config::default()
        .with_seed(seed)
        .with_cases(TESTS)
        .with_max_tests(TESTS)
        .with_max_discards(None)
        .with_discard_time(None)
        .with_keep_seeds(false)
        .with_shrink_steps(0)
}

/// The comparisons in `assume!`: visible to the engine.
fn with_assume(request: &Request) -> Outcome {
    typefuzz::assume!(request.user == "root");
    typefuzz::assume!(request.kind == (Kind::Admin { level: 7 }));
    typefuzz::assume!(request.token == MAGIC);
    assert!(!reached(request), "reached");
    Outcome::Pass
}

/// The same preconditions as plain code: nothing tells the engine what they compare.
fn with_if(request: &Request) -> Outcome {
    if request.user != "root" {
        return Outcome::Discard;
    }
    if request.kind != (Kind::Admin { level: 7 }) {
        return Outcome::Discard;
    }
    if request.token != MAGIC {
        return Outcome::Discard;
    }
    assert!(!reached(request), "reached");
    Outcome::Pass
}

fn tests_to_failure(seed: u64, property: fn(&Request) -> Outcome) -> Option<u64> {
    let report = check(&config(seed), |cx| cx.generate::<Request>(), property);
    report.failure.map(|_| report.stats.tests)
}

#[test]
fn assume_operands_are_fed_back_into_typed_leaves() {
    for seed in 1..=10 {
        let found = tests_to_failure(seed, with_assume);
        let tests = found.unwrap_or_else(|| panic!("seed {seed}: not found in {TESTS} tests"));
        // One test per precondition when the first candidate is right (4 to 7 tests measured
        // over seeds 1-20): a string, a variant with its payload, a 64-bit magic number.
        assert!(tests <= 20, "seed {seed}: {tests} tests");
    }
    for seed in 1..=3 {
        assert_eq!(
            tests_to_failure(seed, with_if),
            None,
            "seed {seed}: control found it"
        );
    }
}

#[test]
fn a_variant_comparison_switches_the_variant() {
    // `Kind` is compared as a whole: the leaves that differ (the variant index) are logged,
    // and the mutant switches to the variant the comparison wanted.
    let property = |kind: &Kind| -> Outcome {
        typefuzz::assume!(*kind == Kind::Shutdown);
        panic!("shutdown");
    };
    let config = config(5).with_max_size(0);
    let report = check(&config, |_| Kind::Data(3), property);
    let failure = report.failure.expect("found");
    assert_eq!(report.stats.tests, 2, "the seed, then its one candidate");
    assert_eq!(failure.operators, [Operator::CmpLog]);
}

/// `sometimes!` logs its comparisons too: an element of a vector must be a given variant with a
/// given payload, which plain mutation of a random `u16` rarely hits.
#[test]
fn sometimes_operands_are_fed_back_too() {
    let budget = 3_000;
    let run = |seed: u64, logged: bool| {
        let config = config(seed).with_cases(budget).with_max_tests(budget);
        let report = check(
            &config,
            |cx| cx.generate::<Vec<Kind>>(),
            move |kinds: &Vec<Kind>| {
                let second = kinds.get(1).cloned();
                let hit = if logged {
                    typefuzz::sometimes!(second == Some(Kind::Data(4242)), "data 4242 second")
                } else {
                    second == Some(Kind::Data(4242))
                };
                assert!(!hit, "reached");
            },
        );
        report.failure.is_some()
    };
    for seed in 1..=5 {
        assert!(run(seed, true), "seed {seed}: not found in {budget} tests");
        assert!(!run(seed, false), "seed {seed}: found without the operands");
    }
}
