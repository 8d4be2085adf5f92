//! The shrink benchmark: the same failing inputs minimized by typefuzz, proptest and quickcheck,
//! sizes of the results side by side (`cargo run --release -p typefuzz-bench -- shrink 10`: the
//! median minimal-input size per case and framework over seeds `0..10`, then one minimal input
//! of each; exits with 1 when typefuzz's median is larger than a framework's on some case).
//!
//! For each case and seed, proptest's own runner (seeded, deterministic) generates inputs from
//! the case's strategy until one fails, and shrinks it with its value tree; the first failing
//! input it met is then handed to typefuzz (`typefuzz::check` with a generator returning that
//! input: the first test fails and the engine shrinks it with the derived/std shrinkers) and to
//! quickcheck's shrinking (its algorithm: take the first candidate of `Arbitrary::shrink` that
//! still fails, repeat until none does, which is what `quickcheck::Testable` does). So all three
//! start from the same input. Discarded candidates (a precondition is false) do not count as
//! failing for any of them.
//!
//! ```
//! let rows = typefuzz_bench::shrink::run(&[0, 1]);
//! let boundary = rows.iter().find(|row| row.case == "x <= 1000").unwrap();
//! assert_eq!(boundary.typefuzz, vec![1001, 1001]);
//! ```

use std::cell::RefCell;
use std::fmt::Debug;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{
    Config as ProptestConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
};
use quickcheck::Arbitrary;
use typefuzz::{Config, Mutate, Outcome};

use crate::bst::Tree;

/// What a property says about one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    Pass,
    Discard,
    Fail,
}

/// One case's results: the size of each framework's minimal input, one per seed where proptest
/// found a failing input, and one minimal input of each for the report.
#[derive(Clone, Debug)]
pub struct Row {
    /// The case's name.
    pub case: &'static str,
    /// What "size" means for this case.
    pub measure: &'static str,
    /// The smallest possible size of a failing input.
    pub optimum: u64,
    /// Sizes of typefuzz's minimal inputs, per seed.
    pub typefuzz: Vec<u64>,
    /// Sizes of proptest's minimal inputs, per seed.
    pub proptest: Vec<u64>,
    /// Sizes of quickcheck's minimal inputs, per seed.
    pub quickcheck: Vec<u64>,
    /// The minimal inputs of the first seed (typefuzz, proptest, quickcheck), `Debug`-printed.
    pub examples: [String; 3],
}

/// The median of `sizes` (the lower middle for an even count), or `None` when empty.
///
/// ```
/// assert_eq!(typefuzz_bench::shrink::median(&[5, 1, 3, 9]), Some(3));
/// ```
pub fn median(sizes: &[u64]) -> Option<u64> {
    let mut sorted = sizes.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len().saturating_sub(1) / 2).copied()
}

/// Runs every case on every seed.
pub fn run(seeds: &[u64]) -> Vec<Row> {
    vec![
        compare(
            "adjacent move",
            "len + sum + from + to",
            4,
            seeds,
            (vec(any::<u8>(), 0..40), any::<usize>(), any::<usize>()),
            |(list, from, to): &(Vec<u8>, usize, usize)| adjacent_move(list, *from, *to),
            |(list, from, to)| list.len() as u64 + sum(list) + *from as u64 + *to as u64,
            Clone::clone,
            Clone::clone,
        ),
        compare(
            "x <= 1000",
            "x",
            1001,
            seeds,
            any::<u32>(),
            |x: &u32| fail_if(*x > 1000),
            |x| u64::from(*x),
            Clone::clone,
            Clone::clone,
        ),
        compare(
            "x % 4 != 2",
            "x",
            2,
            seeds,
            any::<u32>(),
            |x: &u32| fail_if(x % 4 == 2),
            |x| u64::from(*x),
            Clone::clone,
            Clone::clone,
        ),
        compare(
            "BST of >= 6 nodes",
            "nodes",
            6,
            seeds,
            vec((0..1000i32, 0..1000i32), 0..40)
                .prop_map(|pairs: Vec<(i32, i32)>| Tree::from_pairs(&pairs)),
            |tree: &Tree| {
                if !tree.is_bst() {
                    Check::Discard
                } else {
                    fail_if(tree.size() >= 6)
                }
            },
            |tree| tree.size() as u64,
            |tree| QcTree(tree.clone()),
            |tree| tree.0.clone(),
        ),
        compare(
            "sum of bytes > 100",
            "len + sum",
            102,
            seeds,
            vec(any::<u8>(), 0..40),
            |list: &Vec<u8>| fail_if(sum(list) > 100),
            |list| list.len() as u64 + sum(list),
            Clone::clone,
            Clone::clone,
        ),
        compare(
            "all distinct",
            "len + sum",
            2,
            seeds,
            vec(any::<u8>(), 0..40),
            |list: &Vec<u8>| {
                let mut sorted = list.clone();
                sorted.sort_unstable();
                sorted.dedup();
                fail_if(sorted.len() != list.len())
            },
            |list| list.len() as u64 + sum(list),
            Clone::clone,
            Clone::clone,
        ),
    ]
}

fn fail_if(bug: bool) -> Check {
    if bug {
        Check::Fail
    } else {
        Check::Pass
    }
}

fn sum(list: &[u8]) -> u64 {
    list.iter().map(|&b| u64::from(b)).sum()
}

/// Moves element `from` to position `to` (both modulo the length); the bug: a move to the next
/// position does nothing. quickcheck's minimal counterexample is `([0, 1], 0, 1)`.
fn adjacent_move(list: &[u8], from: usize, to: usize) -> Check {
    if list.is_empty() {
        return Check::Pass;
    }
    let (from, to) = (from % list.len(), to % list.len());
    let mut moved = list.to_vec();
    if to != from + 1 {
        let item = moved.remove(from);
        moved.insert(to, item);
    }
    fail_if(moved[to] != list[from])
}

/// One case on every seed. `T` is what typefuzz and proptest see; `Q` is quickcheck's view of
/// it (the same type, or a wrapper carrying a hand-written `shrink`).
#[allow(clippy::too_many_arguments)]
fn compare<T, Q, S>(
    case: &'static str,
    measure: &'static str,
    optimum: u64,
    seeds: &[u64],
    strategy: S,
    check: impl Fn(&T) -> Check,
    size: impl Fn(&T) -> u64,
    to_quickcheck: impl Fn(&T) -> Q,
    from_quickcheck: impl Fn(&Q) -> T,
) -> Row
where
    T: Mutate + Debug + Clone,
    Q: Arbitrary,
    S: Strategy<Value = T>,
{
    let mut row = Row {
        case,
        measure,
        optimum,
        typefuzz: Vec::new(),
        proptest: Vec::new(),
        quickcheck: Vec::new(),
        examples: Default::default(),
    };
    for &seed in seeds {
        let Some((original, by_proptest)) = proptest_shrink(seed, &strategy, &check) else {
            continue;
        };
        let by_typefuzz = typefuzz_shrink(seed, &original, &check);
        let by_quickcheck = from_quickcheck(&quickcheck_shrink(to_quickcheck(&original), |q| {
            check(&from_quickcheck(q))
        }));
        if row.typefuzz.is_empty() {
            row.examples = [
                format!("{by_typefuzz:?}"),
                format!("{by_proptest:?}"),
                format!("{by_quickcheck:?}"),
            ];
        }
        row.typefuzz.push(size(&by_typefuzz));
        row.proptest.push(size(&by_proptest));
        row.quickcheck.push(size(&by_quickcheck));
    }
    row
}

/// proptest's runner at a fixed seed: the first failing input and proptest's minimal one.
fn proptest_shrink<T: Clone + Debug, S: Strategy<Value = T>>(
    seed: u64,
    strategy: &S,
    check: &impl Fn(&T) -> Check,
) -> Option<(T, T)> {
    let config = ProptestConfig {
        cases: 10_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let first = RefCell::new(None);
    let result = runner.run(strategy, |value| match check(&value) {
        Check::Pass => Ok(()),
        Check::Discard => Err(TestCaseError::reject("precondition")),
        Check::Fail => {
            first.borrow_mut().get_or_insert(value);
            Err(TestCaseError::fail("bug"))
        }
    });
    match (result, first.into_inner()) {
        (Err(TestError::Fail(_, minimal)), Some(original)) => Some((original, minimal)),
        _ => None,
    }
}

/// typefuzz's shrinking of `input`, through the public API.
fn typefuzz_shrink<T: Mutate + Debug + Clone>(
    seed: u64,
    input: &T,
    check: &impl Fn(&T) -> Check,
) -> T {
    let config = Config::default()
        // A trial runs exactly as configured, whatever TYPEFUZZ_* the shell holds.
        .with_read_env(false)
        .with_seed(seed)
        .with_cases(1)
        .with_progress(false);
    let report = typefuzz::check(
        &config,
        |_| input.clone(),
        |value| match check(value) {
            Check::Pass => Outcome::Pass,
            Check::Discard => Outcome::Discard,
            Check::Fail => Outcome::Fail("bug".into()),
        },
    );
    match report.failure {
        Some(failure) => failure.minimal,
        None => unreachable!("the input fails, so the first test fails"),
    }
}

/// quickcheck's shrinking algorithm: the first failing candidate of `shrink`, repeated.
fn quickcheck_shrink<Q: Arbitrary>(input: Q, check: impl Fn(&Q) -> Check) -> Q {
    let mut current = input;
    'descend: loop {
        for candidate in current.shrink() {
            if check(&candidate) == Check::Fail {
                current = candidate;
                continue 'descend;
            }
        }
        return current;
    }
}

/// A quickcheck view of [`Tree`] with the shrinker a quickcheck user writes: the empty tree,
/// the two children, then each field shrunk.
#[derive(Clone, Debug)]
struct QcTree(Tree);

impl Arbitrary for QcTree {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        QcTree(Tree::arbitrary(g))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let Tree::T(left, key, value, right) = &self.0 else {
            return quickcheck::empty_shrinker();
        };
        let (left, key, value, right) = ((**left).clone(), *key, *value, (**right).clone());
        let node = |l: &Tree, k: i32, v: i32, r: &Tree| {
            QcTree(Tree::T(Box::new(l.clone()), k, v, Box::new(r.clone())))
        };
        let mut out = vec![QcTree(Tree::E), QcTree(left.clone()), QcTree(right.clone())];
        out.extend(
            QcTree(left.clone())
                .shrink()
                .map(|l| node(&l.0, key, value, &right)),
        );
        out.extend(
            QcTree(right.clone())
                .shrink()
                .map(|r| node(&left, key, value, &r.0)),
        );
        out.extend(Arbitrary::shrink(&key).map(|k| node(&left, k, value, &right)));
        out.extend(Arbitrary::shrink(&value).map(|v| node(&left, key, v, &right)));
        Box::new(out.into_iter())
    }
}

/// `typefuzz-bench shrink SEEDS`: prints the markdown table of [`run`] over seeds `0..seeds` and
/// the first seed's minimal inputs; returns the exit code, 1 when typefuzz's median is larger
/// than a framework's on some case.
pub(crate) fn print_table(seeds: u64) -> i32 {
    // The properties panic on purpose inside the frameworks; keep the output readable.
    std::panic::set_hook(Box::new(|_| {}));
    let rows = run(&(0..seeds).collect::<Vec<_>>());
    println!(
        "| case | size measure | optimum | typefuzz | proptest | quickcheck | seeds |\n|---|---|---:|---:|---:|---:|---:|"
    );
    let mut worse = false;
    for row in &rows {
        let show = |sizes: &[u64]| median(sizes).map_or("-".to_string(), |m| m.to_string());
        let ours = median(&row.typefuzz);
        worse |= [&row.proptest, &row.quickcheck]
            .iter()
            .any(|theirs| matches!((ours, median(theirs)), (Some(a), Some(b)) if a > b));
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            row.case,
            row.measure,
            row.optimum,
            show(&row.typefuzz),
            show(&row.proptest),
            show(&row.quickcheck),
            row.typefuzz.len(),
        );
    }
    println!("\nMinimal inputs of the first seed (typefuzz / proptest / quickcheck):\n");
    for row in &rows {
        let [ours, proptest, quickcheck] = &row.examples;
        println!("- {}: `{ours}` / `{proptest}` / `{quickcheck}`", row.case);
    }
    if worse {
        eprintln!("typefuzz's median minimal input is larger than a framework's on some case");
        return 1;
    }
    0
}
