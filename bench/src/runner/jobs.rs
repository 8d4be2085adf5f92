//! The jobs: every (workload, task) pair the runner measures, each able to run one trial of any
//! strategy.

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use proptest::strategy::Strategy as _;
use typefuzz::{Context, Mutate};

use super::strategy::{run_trial, Problem, Strategy, Trial};
use crate::branches::{self, SomeEnum};
use crate::bst::{self, generate as bgen, properties as bp, Bst, Mutant, Property, Tree};
use crate::ifc::{self, generate as igen, Rules, State};
use crate::Verdict;

/// A workload, as the summary lines name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Workload {
    Ifc,
    Bst,
    Micro,
    /// Real bugs of published crates (`historical` mode only; not in [`Workload::ALL`]).
    Historical,
}

impl Workload {
    pub(crate) const ALL: [Workload; 3] = [Workload::Ifc, Workload::Bst, Workload::Micro];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Workload::Ifc => "IFC",
            Workload::Bst => "BST",
            Workload::Micro => "micro",
            Workload::Historical => "historical",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<Workload> {
        Workload::ALL
            .into_iter()
            .chain([Workload::Historical])
            .find(|w| w.name().eq_ignore_ascii_case(name))
    }
}

pub(crate) type RunFn = dyn Fn(Strategy, u64, Duration) -> Trial + Send + Sync;

/// One task (or control) of a workload.
pub(crate) struct Job {
    pub(crate) workload: Workload,
    /// Short id: IFC mutant index, `insert_1/InsertPost`, `bad!`, ...
    pub(crate) task: String,
    /// A longer description (the IFC mutant's rule change).
    pub(crate) detail: String,
    /// A no-bug control: any failure is a false alarm of the runner or the workload.
    pub(crate) control: bool,
    /// The IFC mutant index, for the chart.
    pub(crate) ifc_index: Option<usize>,
    run: Box<RunFn>,
}

impl Job {
    pub(crate) fn new(
        workload: Workload,
        task: String,
        detail: String,
        control: bool,
        run: Box<RunFn>,
    ) -> Job {
        Job {
            workload,
            task,
            detail,
            control,
            ifc_index: None,
            run,
        }
    }

    pub(crate) fn run(&self, strategy: Strategy, seed: u64, cap: Duration) -> Trial {
        (self.run)(strategy, seed, cap)
    }

    /// Whether `strategy` applies to this job (the smart generator exists for IFC only; the
    /// historical bugs compare proptest, its drop-in and typefuzz, without quickcheck).
    pub(crate) fn supports(&self, strategy: Strategy) -> bool {
        match strategy {
            Strategy::Smart | Strategy::NoHint => self.workload == Workload::Ifc,
            Strategy::NaiveGenerator => self.workload != Workload::Historical,
            _ => true,
        }
    }
}

fn job<T>(
    workload: Workload,
    task: String,
    detail: String,
    control: bool,
    problem: Problem<T>,
) -> Job
where
    T: Mutate + Debug + Hash + Clone + 'static,
{
    Job::new(
        workload,
        task,
        detail,
        control,
        Box::new(move |strategy, seed, cap| run_trial(&problem, strategy, seed, cap)),
    )
}

// ---------------------------------------------------------------------------------------------
// IFC

/// typefuzz's size bound for IFC states: vectors of at most 4 entries, integers mostly in
/// `-4..=4`, the same bound as the naive baselines ([`igen::NAIVE_MAX_LEN`]). A user picks it
/// small because the machine's behaviour depends on small indices (pc, addresses, call arities).
pub(crate) const IFC_MAX_SIZE: usize = 4;

fn ifc_problem(rules: Rules) -> Problem<(State, State)> {
    Problem {
        generate: igen::fuzzchick_seed,
        naive: igen::naive_pair,
        strategy: || (igen::naive_state_strategy(), igen::naive_state_strategy()).boxed(),
        smart: Some(igen::smart_pair),
        max_size: IFC_MAX_SIZE,
        // Which labels are recorded is set per trial (`run_trial`).
        property: Box::new(move |(a, b), _labels| ifc::ssni(&rules, a, b)),
    }
}

pub(crate) fn ifc_jobs() -> Vec<Job> {
    let mut jobs: Vec<Job> = Rules::mutants()
        .into_iter()
        .enumerate()
        .map(|(i, (name, rules))| Job {
            ifc_index: Some(i),
            ..job(
                Workload::Ifc,
                format!("{i}"),
                name,
                false,
                ifc_problem(rules),
            )
        })
        .collect();
    jobs.push(job(
        Workload::Ifc,
        "correct".into(),
        "correct rule table (control)".into(),
        true,
        ifc_problem(Rules::correct()),
    ));
    jobs
}

// ---------------------------------------------------------------------------------------------
// BST

/// typefuzz's size bound for BST inputs. Measured (quick mode, 1 trial, 0.25 s caps): at 5
/// the derived trees are so small that every input is a BST (valid rate 1.000) and 13 of the 53
/// tasks, all needing a few nodes, are missed; at 16, 53/53 with valid rate 0.78; at 32
/// (the engine default), 53/53 with valid rate 0.52.
pub(crate) const BST_MAX_SIZE: usize = 16;

/// Inputs the naive baselines can produce: trees and small integers, and tuples of them.
pub(crate) trait Naive: Sized {
    fn naive(rng: &mut fastrand::Rng) -> Self;
    fn strategy() -> BoxedStrategy<Self>;
}

impl Naive for Tree {
    fn naive(rng: &mut fastrand::Rng) -> Self {
        bgen::naive_tree(rng, bgen::NAIVE_DEPTH)
    }
    fn strategy() -> BoxedStrategy<Self> {
        bgen::naive_tree_strategy(bgen::NAIVE_DEPTH)
    }
}

impl Naive for i32 {
    fn naive(rng: &mut fastrand::Rng) -> Self {
        rng.i32(-bgen::INT_BOUND..=bgen::INT_BOUND)
    }
    fn strategy() -> BoxedStrategy<Self> {
        bgen::int_strategy().boxed()
    }
}

macro_rules! naive_tuple {
    ($($t:ident),*) => {
        impl<$($t: Naive + Debug + 'static),*> Naive for ($($t,)*) {
            fn naive(rng: &mut fastrand::Rng) -> Self {
                ($($t::naive(rng),)*)
            }
            fn strategy() -> BoxedStrategy<Self> {
                ($($t::strategy(),)*).boxed()
            }
        }
    };
}
naive_tuple!(A, B);
naive_tuple!(A, B, C);
naive_tuple!(A, B, C, D);
naive_tuple!(A, B, C, D, E);

fn bst_problem<T>(bst: Bst, property: fn(&Bst, &T) -> Verdict) -> Problem<T>
where
    T: Naive + Mutate + 'static,
{
    Problem {
        generate: |cx: &mut Context| cx.generate::<T>(),
        naive: T::naive,
        strategy: T::strategy,
        smart: None,
        max_size: BST_MAX_SIZE,
        property: Box::new(move |x, _labels| property(&bst, x)),
    }
}

fn bst_job(mutant: Option<Mutant>, p: Property, control: bool) -> Job {
    let bst = Bst::with_mutant(mutant);
    let task = format!("{}/{}", mutant.map_or("correct", Mutant::name), p.name());
    let detail = String::new();
    let w = Workload::Bst;
    use Property::*;
    match p {
        InsertValid => job(w, task, detail, control, bst_problem(bst, bp::insert_valid)),
        DeleteValid => job(w, task, detail, control, bst_problem(bst, bp::delete_valid)),
        UnionValid => job(w, task, detail, control, bst_problem(bst, bp::union_valid)),
        InsertPost => job(w, task, detail, control, bst_problem(bst, bp::insert_post)),
        DeletePost => job(w, task, detail, control, bst_problem(bst, bp::delete_post)),
        UnionPost => job(w, task, detail, control, bst_problem(bst, bp::union_post)),
        InsertModel => job(w, task, detail, control, bst_problem(bst, bp::insert_model)),
        DeleteModel => job(w, task, detail, control, bst_problem(bst, bp::delete_model)),
        UnionModel => job(w, task, detail, control, bst_problem(bst, bp::union_model)),
        InsertInsert => job(
            w,
            task,
            detail,
            control,
            bst_problem(bst, bp::insert_insert),
        ),
        InsertDelete => job(
            w,
            task,
            detail,
            control,
            bst_problem(bst, bp::insert_delete),
        ),
        InsertUnion => job(w, task, detail, control, bst_problem(bst, bp::insert_union)),
        DeleteInsert => job(
            w,
            task,
            detail,
            control,
            bst_problem(bst, bp::delete_insert),
        ),
        DeleteDelete => job(
            w,
            task,
            detail,
            control,
            bst_problem(bst, bp::delete_delete),
        ),
        DeleteUnion => job(w, task, detail, control, bst_problem(bst, bp::delete_union)),
        UnionDeleteInsert => job(
            w,
            task,
            detail,
            control,
            bst_problem(bst, bp::union_delete_insert),
        ),
        UnionUnionIdem => job(
            w,
            task,
            detail,
            control,
            bst_problem(bst, bp::union_union_idem),
        ),
        UnionUnionAssoc => job(
            w,
            task,
            detail,
            control,
            bst_problem(bst, bp::union_union_assoc),
        ),
    }
}

/// The 53 tasks, then the controls: `all_controls` adds every property on the correct tree and
/// InsertValid/DeleteValid under every mutant; otherwise only the two control properties on the
/// correct tree.
pub(crate) fn bst_jobs(all_controls: bool) -> Vec<Job> {
    let mut jobs = Vec::new();
    for (mutant, properties) in bst::TASKS {
        for &p in properties {
            jobs.push(bst_job(Some(mutant), p, false));
        }
    }
    let correct: &[Property] = if all_controls {
        &Property::ALL
    } else {
        &bst::CONTROLS
    };
    for &p in correct {
        jobs.push(bst_job(None, p, true));
    }
    if all_controls {
        for mutant in Mutant::ALL {
            for p in bst::CONTROLS {
                jobs.push(bst_job(Some(mutant), p, true));
            }
        }
    }
    jobs
}

// ---------------------------------------------------------------------------------------------
// Nested-branch micro-benchmarks

/// typefuzz's size bound for the micro targets' vectors (and the naive baselines' longest
/// vector): room for the 7-element enum target and the 4-byte/4-integer ones.
pub(crate) const MICRO_MAX_LEN: usize = 10;

fn naive_vec<T>(rng: &mut fastrand::Rng, each: impl Fn(&mut fastrand::Rng) -> T) -> Vec<T> {
    let len = rng.usize(0..=MICRO_MAX_LEN);
    (0..len).map(|_| each(rng)).collect()
}

fn naive_enum(rng: &mut fastrand::Rng) -> SomeEnum {
    match rng.u8(0..5) {
        0 => SomeEnum::A(rng.u8(..)),
        1 => SomeEnum::B(rng.u16(..)),
        2 => SomeEnum::C(rng.u8(..), rng.u16(..)),
        3 => SomeEnum::D(rng.u16(..), rng.u16(..)),
        _ => SomeEnum::E,
    }
}

fn enum_strategy() -> BoxedStrategy<SomeEnum> {
    prop_oneof![
        any::<u8>().prop_map(SomeEnum::A),
        any::<u16>().prop_map(SomeEnum::B),
        (any::<u8>(), any::<u16>()).prop_map(|(a, b)| SomeEnum::C(a, b)),
        (any::<u16>(), any::<u16>()).prop_map(|(a, b)| SomeEnum::D(a, b)),
        Just(SomeEnum::E),
    ]
    .boxed()
}

fn bytes_problem(target: fn(&[u8], bool) -> Verdict) -> Problem<Vec<u8>> {
    Problem {
        generate: |cx| cx.generate(),
        naive: |rng| naive_vec(rng, |r| r.u8(..)),
        strategy: || proptest::collection::vec(any::<u8>(), 0..=MICRO_MAX_LEN).boxed(),
        smart: None,
        max_size: MICRO_MAX_LEN,
        property: Box::new(move |x, labels| target(x, labels)),
    }
}

fn micro_job<T>(task: &str, detail: &str, problem: Problem<T>) -> Job
where
    T: Mutate + Debug + Hash + Clone + 'static,
{
    job(Workload::Micro, task.into(), detail.into(), false, problem)
}

pub(crate) fn micro_jobs() -> Vec<Job> {
    let enum_problem = |target: fn(&[SomeEnum], bool) -> Verdict| Problem {
        generate: |cx: &mut Context| cx.generate::<Vec<SomeEnum>>(),
        naive: |rng| naive_vec(rng, naive_enum),
        strategy: || proptest::collection::vec(enum_strategy(), 0..=MICRO_MAX_LEN).boxed(),
        smart: None,
        max_size: MICRO_MAX_LEN,
        property: Box::new(move |x: &Vec<SomeEnum>, labels| target(x, labels)),
    };
    vec![
        micro_job(
            "bad!",
            "input starts with b, a, d, !",
            bytes_problem(|x, l| branches::entry::bad(l, x)),
        ),
        micro_job(
            "ok-trap",
            "bad! with a competing ok branch",
            bytes_problem(|x, l| branches::entry::bad_or_ok(l, x)),
        ),
        micro_job(
            "dan-luu",
            "4 ints with their 16 low bits set",
            Problem {
                generate: |cx| cx.generate(),
                naive: |rng| naive_vec(rng, |r| r.i32(..)),
                strategy: || proptest::collection::vec(any::<i32>(), 0..=MICRO_MAX_LEN).boxed(),
                smart: None,
                max_size: MICRO_MAX_LEN,
                property: Box::new(|x: &Vec<i32>, l| branches::entry::dan_luu(l, x)),
            },
        ),
        micro_job(
            "enum-forward",
            "fuzzcheck's enum vector, checked in index order",
            enum_problem(|x, l| branches::entry::enum_vector_forward(l, x)),
        ),
        micro_job(
            "enum-reverse",
            "fuzzcheck's enum vector, checked from index 6 down",
            enum_problem(|x, l| branches::entry::enum_vector_reverse(l, x)),
        ),
    ]
}

/// All jobs of `workloads`.
pub(crate) fn jobs(workloads: &[Workload], all_controls: bool) -> Vec<Arc<Job>> {
    let mut out = Vec::new();
    for w in workloads {
        let jobs = match w {
            Workload::Ifc => ifc_jobs(),
            Workload::Bst => bst_jobs(all_controls),
            Workload::Micro => micro_jobs(),
            Workload::Historical => super::historical_jobs::historical_jobs(),
        };
        out.extend(jobs.into_iter().map(Arc::new));
    }
    out
}
