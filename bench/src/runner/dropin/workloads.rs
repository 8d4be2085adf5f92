//! The workloads of the drop-in comparison, behind one interface: the evaluation set (typed
//! expressions, red-black tree, leftist heap), on which nothing is tuned, and the development
//! set (the ETNA BST), on which defaults may be tuned.

use std::fmt::Debug;

use proptest::strategy::{BoxedStrategy, Strategy as _};
use typefuzz::Mutate;

use super::trial::{self, Request};
use crate::{bst, heap, rbt, stlc, Verdict};

/// Which set a workload belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Set {
    /// Held out: nothing is tuned on it.
    Evaluation,
    /// What defaults may be tuned on.
    Development,
}

impl Set {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Set::Evaluation => "evaluation",
            Set::Development => "development",
        }
    }
}

/// A property checker of one workload, with its bug chosen.
pub(crate) type Checker<I> = Box<dyn Fn(&I) -> Verdict + Send + Sync>;

/// A workload: its input type (what the property takes, with the user's naive generators in
/// both styles and a derived `Mutate`), its bugs, properties and tasks.
pub(crate) trait Workload: 'static {
    type Input: Clone + Debug + Mutate + quickcheck::Arbitrary + 'static;
    const NAME: &'static str;
    const SET: Set;
    /// (bug, property) pairs where the property fails under the bug.
    fn tasks() -> Vec<(&'static str, &'static str)>;
    /// Properties run without a bug: they must never fail.
    fn controls() -> Vec<&'static str>;
    /// The user's proptest strategy.
    fn strategy() -> BoxedStrategy<Self::Input>;
    /// The property named `property` with bug `bug` switched on (`None`: the correct code), or
    /// `None` if either name is unknown.
    fn checker(bug: Option<&str>, property: &str) -> Option<Checker<Self::Input>>;
    /// Constructors in the input.
    fn nodes(input: &Self::Input) -> usize;
}

/// A workload as the driver sees it.
#[derive(Clone, Copy)]
pub(crate) struct Spec {
    pub(crate) name: &'static str,
    pub(crate) set: Set,
    pub(crate) tasks: fn() -> Vec<(&'static str, &'static str)>,
    pub(crate) controls: fn() -> Vec<&'static str>,
    pub(crate) run: fn(&Request) -> !,
}

impl Spec {
    fn of<W: Workload>() -> Spec {
        Spec {
            name: W::NAME,
            set: W::SET,
            tasks: W::tasks,
            controls: W::controls,
            run: trial::run::<W>,
        }
    }
}

/// Every workload, evaluation set first.
pub(crate) fn all() -> Vec<Spec> {
    vec![
        Spec::of::<Stlc>(),
        Spec::of::<Rbt>(),
        Spec::of::<Heap>(),
        Spec::of::<Bst>(),
    ]
}

/// The workload named `name`.
pub(crate) fn find(name: &str) -> Option<Spec> {
    all().into_iter().find(|w| w.name == name)
}

/// The typed expression language ([`crate::stlc`]).
pub(crate) struct Stlc;

impl Workload for Stlc {
    type Input = stlc::Expr;
    const NAME: &'static str = "stlc";
    const SET: Set = Set::Evaluation;

    fn tasks() -> Vec<(&'static str, &'static str)> {
        stlc::TASKS
            .iter()
            .flat_map(|(bug, ps)| ps.iter().map(|p| (bug.name(), p.name())))
            .collect()
    }

    fn controls() -> Vec<&'static str> {
        stlc::CONTROLS.iter().map(|p| p.name()).collect()
    }

    fn strategy() -> BoxedStrategy<stlc::Expr> {
        stlc::expr_strategy()
    }

    fn checker(bug: Option<&str>, property: &str) -> Option<Checker<stlc::Expr>> {
        let bug = bug
            .map(|b| stlc::Bug::parse(b).ok_or(()))
            .transpose()
            .ok()?;
        let property = stlc::Property::parse(property)?;
        let imp = stlc::Stlc::with_bug(bug);
        Some(Box::new(move |e| property.run(&imp, e)))
    }

    fn nodes(e: &stlc::Expr) -> usize {
        e.nodes()
    }
}

/// The red-black tree ([`crate::rbt`]).
pub(crate) struct Rbt;

impl Workload for Rbt {
    type Input = rbt::Args;
    const NAME: &'static str = "rbt";
    const SET: Set = Set::Evaluation;

    fn tasks() -> Vec<(&'static str, &'static str)> {
        rbt::TASKS
            .iter()
            .flat_map(|(bug, ps)| ps.iter().map(|p| (bug.name(), p.name())))
            .collect()
    }

    fn controls() -> Vec<&'static str> {
        rbt::CONTROLS.iter().map(|p| p.name()).collect()
    }

    fn strategy() -> BoxedStrategy<rbt::Args> {
        rbt::args_strategy()
    }

    fn checker(bug: Option<&str>, property: &str) -> Option<Checker<rbt::Args>> {
        let bug = bug.map(|b| rbt::Bug::parse(b).ok_or(())).transpose().ok()?;
        let property = rbt::Property::parse(property)?;
        let imp = rbt::Rbt::with_bug(bug);
        Some(Box::new(move |a| property.run(&imp, a)))
    }

    fn nodes(a: &rbt::Args) -> usize {
        a.nodes()
    }
}

/// The leftist heap ([`crate::heap`]).
pub(crate) struct Heap;

impl Workload for Heap {
    type Input = heap::Args;
    const NAME: &'static str = "heap";
    const SET: Set = Set::Evaluation;

    fn tasks() -> Vec<(&'static str, &'static str)> {
        heap::TASKS
            .iter()
            .flat_map(|(bug, ps)| ps.iter().map(|p| (bug.name(), p.name())))
            .collect()
    }

    fn controls() -> Vec<&'static str> {
        heap::CONTROLS.iter().map(|p| p.name()).collect()
    }

    fn strategy() -> BoxedStrategy<heap::Args> {
        heap::args_strategy()
    }

    fn checker(bug: Option<&str>, property: &str) -> Option<Checker<heap::Args>> {
        let bug = bug
            .map(|b| heap::Bug::parse(b).ok_or(()))
            .transpose()
            .ok()?;
        let property = heap::Property::parse(property)?;
        let imp = heap::LeftistHeap::with_bug(bug);
        Some(Box::new(move |a| property.run(&imp, a)))
    }

    fn nodes(a: &heap::Args) -> usize {
        a.nodes()
    }
}

/// The ETNA BST ([`crate::bst`]): the development set.
pub(crate) struct Bst;

impl Workload for Bst {
    type Input = bst::generate::SizedArgs;
    const NAME: &'static str = "bst";
    const SET: Set = Set::Development;

    fn tasks() -> Vec<(&'static str, &'static str)> {
        bst::TASKS
            .iter()
            .flat_map(|(m, ps)| ps.iter().map(|p| (m.name(), p.name())))
            .collect()
    }

    fn controls() -> Vec<&'static str> {
        bst::CONTROLS.iter().map(|p| p.name()).collect()
    }

    fn strategy() -> BoxedStrategy<bst::generate::SizedArgs> {
        bst::generate::naive_args_strategy()
            .prop_map(bst::generate::SizedArgs)
            .boxed()
    }

    fn checker(bug: Option<&str>, property: &str) -> Option<Checker<bst::generate::SizedArgs>> {
        let mutant = match bug {
            None => None,
            Some(name) => Some(bst::Mutant::ALL.into_iter().find(|m| m.name() == name)?),
        };
        let property = bst::Property::ALL
            .into_iter()
            .find(|p| p.name() == property)?;
        let imp = bst::Bst::with_mutant(mutant);
        Some(Box::new(move |a| property.run(&imp, &a.0)))
    }

    fn nodes(a: &bst::generate::SizedArgs) -> usize {
        a.0.t1.size() + a.0.t2.size() + a.0.t3.size() + 4
    }
}
