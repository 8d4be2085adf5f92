//! Witnesses: hand-picked inputs on which each injected bug is visible and the correct code is
//! not, so the benchmark cannot silently rot (a refactoring that turns a mutant into an
//! equivalent program, or breaks the correct code, fails here).
//!
//! The inputs were found once by a search over small inputs and minimized by hand-checked
//! greedy removal; they are fixed literals here.

use typefuzz_bench::branches::{self, SomeEnum, ENUM_TARGET};
use typefuzz_bench::bst::{self, generate, Args, Bst, Mutant, Property, Tree, CONTROLS, TASKS};
use typefuzz_bench::ifc::generate::{copy_pair, naive_pair, smart_pair, smart_state};
use typefuzz_bench::ifc::{ssni, Atom, Instr::*, Label, Rules, StackEntry, State, MUTANT_COUNT};
use typefuzz_bench::{throughput, Verdict};

// ---------------------------------------------------------------------------------------------
// IFC

fn lo(v: i64) -> Atom {
    Atom::new(v, Label::L)
}

fn hi(v: i64) -> Atom {
    Atom::new(v, Label::H)
}

#[allow(non_snake_case)]
fn D(a: Atom) -> StackEntry {
    StackEntry::Data(a)
}

#[allow(non_snake_case)]
fn R(a: Atom) -> StackEntry {
    StackEntry::Ret(a)
}

/// A state; the stack is written bottom first (its top is the last entry).
fn st(imem: &[typefuzz_bench::ifc::Instr], mem: &[Atom], stack: &[StackEntry], pc: Atom) -> State {
    State {
        imem: imem.to_vec(),
        mem: mem.to_vec(),
        stack: stack.to_vec(),
        pc,
    }
}

/// One pair per mutant, index order.
fn ifc_witnesses() -> Vec<(State, State)> {
    vec![
        // mutant 0
        (
            st(&[BCall(1)], &[], &[D(hi(0)), D(hi(0))], hi(0)),
            st(&[BCall(1)], &[], &[D(lo(0)), D(hi(1)), D(lo(0))], hi(0)),
        ),
        // mutant 1
        (
            st(&[BCall(1), BCall(1)], &[], &[D(lo(0)), D(hi(0))], lo(1)),
            st(&[BCall(1), BCall(1)], &[], &[D(lo(0)), D(hi(1))], lo(1)),
        ),
        // mutant 2
        (
            st(&[BCall(0), BCall(0)], &[], &[D(lo(0))], hi(0)),
            st(&[BCall(0), BCall(0)], &[], &[D(lo(0)), D(lo(1))], hi(1)),
        ),
        // mutant 3
        (
            st(&[BRet, BRet], &[], &[R(lo(0)), D(hi(0))], lo(1)),
            st(&[BRet, BRet], &[], &[R(lo(0)), D(hi(1))], lo(1)),
        ),
        // mutant 4
        (
            st(&[BRet], &[], &[R(lo(0)), D(lo(0))], hi(0)),
            st(&[BRet], &[], &[R(lo(0)), D(hi(0)), D(hi(1))], hi(0)),
        ),
        // mutant 5
        (
            st(&[BRet, BRet], &[], &[R(hi(1)), D(hi(0))], hi(1)),
            st(&[BRet, BRet], &[], &[R(hi(0)), D(hi(1)), D(hi(0))], hi(0)),
        ),
        // mutant 6
        (
            st(&[Nop, Nop], &[], &[], hi(1)),
            st(&[Nop, Nop], &[], &[D(lo(0))], hi(0)),
        ),
        // mutant 7
        (
            st(&[Push(1)], &[], &[], hi(0)),
            st(&[Push(1)], &[], &[D(hi(0))], hi(0)),
        ),
        // mutant 8
        (
            st(&[Add, Add], &[], &[D(lo(1)), D(hi(0))], lo(1)),
            st(&[Add, Add], &[], &[D(lo(1)), D(hi(1))], lo(1)),
        ),
        // mutant 9
        (
            st(&[Add], &[], &[D(hi(0)), D(lo(0))], lo(0)),
            st(&[Add], &[], &[D(hi(1)), D(lo(0))], lo(0)),
        ),
        // mutant 10
        (
            st(&[Add], &[], &[D(hi(0)), D(lo(0))], hi(0)),
            st(&[Add], &[], &[D(hi(0)), D(lo(1)), D(lo(0))], hi(0)),
        ),
        // mutant 11
        (
            st(&[Load, Load], &[hi(1)], &[D(lo(0))], lo(1)),
            st(&[Load, Load], &[hi(0)], &[D(lo(0))], lo(1)),
        ),
        // mutant 12
        (
            st(&[Load], &[lo(0), lo(1)], &[D(hi(1))], lo(0)),
            st(&[Load], &[lo(0), lo(1)], &[D(hi(0))], lo(0)),
        ),
        // mutant 13
        (
            st(&[Load, Load], &[hi(1), lo(0)], &[D(hi(0))], hi(1)),
            st(&[Load, Load], &[hi(0), lo(0)], &[D(lo(0)), D(hi(1))], hi(0)),
        ),
        // mutant 14
        (
            st(&[Store], &[lo(1), lo(0)], &[D(hi(0)), D(hi(0))], lo(0)),
            st(&[Store], &[lo(1), lo(0)], &[D(hi(1)), D(hi(1))], lo(0)),
        ),
        // mutant 15
        (
            st(
                &[Store, Store],
                &[lo(1), lo(1)],
                &[D(hi(0)), D(lo(1))],
                hi(1),
            ),
            st(
                &[Store, Store],
                &[lo(1), lo(1)],
                &[D(lo(0)), D(hi(0)), D(lo(1))],
                hi(0),
            ),
        ),
        // mutant 16
        (
            st(
                &[Store, Store],
                &[lo(1), hi(0)],
                &[D(lo(1)), D(lo(1))],
                hi(0),
            ),
            st(
                &[Store, Store],
                &[lo(1), hi(0)],
                &[D(hi(1)), D(hi(0)), D(lo(1))],
                hi(1),
            ),
        ),
        // mutant 17
        (
            st(
                &[Store, Store],
                &[hi(0), hi(1)],
                &[D(lo(1)), D(hi(0))],
                lo(1),
            ),
            st(
                &[Store, Store],
                &[hi(0), hi(0)],
                &[D(lo(1)), D(hi(1))],
                lo(1),
            ),
        ),
        // mutant 18
        (
            st(
                &[Store, Store],
                &[hi(0), lo(1)],
                &[D(hi(1)), D(lo(1))],
                lo(1),
            ),
            st(
                &[Store, Store],
                &[hi(0), lo(1)],
                &[D(hi(0)), D(lo(1))],
                lo(1),
            ),
        ),
        // mutant 19
        (
            st(
                &[Store, Store],
                &[hi(1), hi(0)],
                &[D(hi(0)), D(hi(1))],
                hi(0),
            ),
            st(
                &[Store, Store],
                &[hi(0), hi(1)],
                &[D(lo(0)), D(lo(0)), D(hi(1))],
                hi(1),
            ),
        ),
    ]
}

#[test]
fn every_ifc_mutant_has_a_witness_the_correct_machine_accepts() {
    let witnesses = ifc_witnesses();
    assert_eq!(witnesses.len(), MUTANT_COUNT);
    let correct = Rules::correct();
    for (i, (s1, s2)) in witnesses.iter().enumerate() {
        let mutant = Rules::with_mutant(Some(i));
        assert_eq!(
            ssni(&mutant, s1, s2),
            Verdict::Fail,
            "mutant {i} must fail on its witness"
        );
        assert_ne!(
            ssni(&correct, s1, s2),
            Verdict::Fail,
            "correct rules fail on witness {i}"
        );
    }
}

#[test]
fn ifc_witnesses_are_valid_tests_for_the_correct_machine() {
    // A witness the correct machine discards proves nothing about SSNI's postcondition, so
    // every witness must pass, except those of the two check mutants (14, 15): there the
    // correct Store rule refuses the step the mutant allows, so the correct machine discards.
    let correct = Rules::correct();
    for (i, (s1, s2)) in ifc_witnesses().iter().enumerate() {
        let expected = if i == 14 || i == 15 {
            Verdict::Discard
        } else {
            Verdict::Pass
        };
        assert_eq!(ssni(&correct, s1, s2), expected, "witness {i}");
    }
}

#[test]
fn the_correct_machine_never_fails_on_generated_pairs() {
    let correct = Rules::correct();
    let mut rng = fastrand::Rng::with_seed(1);
    let mut passed = 0;
    for _ in 0..50_000 {
        let (s1, s2) = smart_pair(&mut rng);
        let verdict = ssni(&correct, &s1, &s2);
        assert_ne!(
            verdict,
            Verdict::Fail,
            "correct machine fails on {s1:?} / {s2:?}"
        );
        passed += (verdict == Verdict::Pass) as usize;
        let (c1, c2) = copy_pair(smart_state(&mut rng));
        assert_ne!(ssni(&correct, &c1, &c2), Verdict::Fail);
        let (n1, n2) = naive_pair(&mut rng);
        assert_ne!(ssni(&correct, &n1, &n2), Verdict::Fail);
    }
    // The smart generator's pairs are mostly valid tests (the point of writing it by hand).
    assert!(
        passed > 25_000,
        "only {passed} of 50000 smart pairs were valid"
    );
}

#[test]
fn the_smart_generator_finds_every_mutant_quickly() {
    for i in 0..MUTANT_COUNT {
        let rules = Rules::with_mutant(Some(i));
        let mut rng = fastrand::Rng::with_seed(2024 + i as u64);
        let found = (0..100_000).any(|_| {
            let (s1, s2) = smart_pair(&mut rng);
            ssni(&rules, &s1, &s2) == Verdict::Fail
        });
        assert!(
            found,
            "smart generator did not find mutant {i} in 100000 pairs"
        );
    }
}

#[test]
fn ssni_discards_what_it_cannot_judge() {
    let correct = Rules::correct();
    // No instruction at the pc.
    let empty = st(&[], &[], &[], lo(0));
    assert_eq!(ssni(&correct, &empty, &empty), Verdict::Discard);
    // Distinguishable: different low memory.
    let a = st(&[Nop], &[lo(0)], &[], lo(0));
    let b = st(&[Nop], &[lo(1)], &[], lo(0));
    assert_eq!(ssni(&correct, &a, &b), Verdict::Discard);
    // A state that cannot step: Add on an empty stack.
    let add = st(&[Add], &[], &[], lo(0));
    assert_eq!(ssni(&correct, &add, &add), Verdict::Discard);
    // Halt never steps.
    let halt = st(&[Halt], &[], &[], lo(0));
    assert_eq!(ssni(&correct, &halt, &halt), Verdict::Discard);
}

#[test]
fn the_sut_is_total_on_extreme_values() {
    let rules = Rules::correct();
    let extreme = [
        st(&[Push(i64::MAX)], &[], &[], lo(i64::MAX)),
        st(&[BCall(i64::MAX)], &[], &[D(lo(i64::MIN))], lo(0)),
        st(&[BCall(-1)], &[], &[D(lo(0))], lo(0)),
        st(&[Add], &[], &[D(lo(i64::MAX)), D(lo(i64::MAX))], lo(0)),
        st(&[Load], &[lo(0)], &[D(lo(-1))], lo(0)),
        st(&[Store], &[lo(0)], &[D(lo(0)), D(lo(i64::MIN))], lo(0)),
        st(&[BRet], &[], &[D(lo(0))], lo(-5)),
    ];
    for s in &extreme {
        assert_ne!(ssni(&rules, s, s), Verdict::Fail);
    }
}

// ---------------------------------------------------------------------------------------------
// BST

/// `(mutant, property, [insert lists of t1, t2, t3], [k1, k2, v1, v2])`.
type BstWitness = (
    Mutant,
    Property,
    &'static [&'static [(i32, i32)]; 3],
    [i32; 4],
);

#[rustfmt::skip]
const BST_WITNESSES: &[BstWitness] = {
    use Mutant::*;
    use Property::*;
    &[
    (Insert1, InsertPost, &[&[(2, 0)], &[], &[]], [4, 2, 1, 0]),
    (Insert1, InsertModel, &[&[(1, 2)], &[], &[]], [2, 2, 0, 1]),
    (Insert1, DeleteInsert, &[&[(2, 2)], &[], &[]], [1, 1, 2, 2]),
    (Insert1, InsertInsert, &[&[], &[], &[]], [2, 3, 1, 2]),
    (Insert1, InsertUnion, &[&[], &[(3, 0)], &[]], [1, 2, 0, 0]),
    (
        Insert1,
        UnionDeleteInsert,
        &[&[(4, 2)], &[], &[]],
        [3, 3, 0, 0],
    ),
    (Insert2, InsertPost, &[&[(1, 0)], &[], &[]], [3, 3, 2, 0]),
    (Insert2, InsertModel, &[&[(0, 2)], &[], &[]], [3, 3, 1, 0]),
    (Insert2, DeleteInsert, &[&[(0, 1)], &[], &[]], [0, 3, 0, 0]),
    (Insert2, InsertInsert, &[&[], &[], &[]], [0, 1, 2, 2]),
    (Insert2, InsertUnion, &[&[], &[(3, 0)], &[]], [4, 3, 1, 2]),
    (
        Insert2,
        UnionDeleteInsert,
        &[&[(3, 0)], &[], &[]],
        [4, 0, 0, 2],
    ),
    (
        Insert2,
        InsertDelete,
        &[&[(3, 0), (1, 2)], &[], &[]],
        [3, 3, 1, 2],
    ),
    (Insert3, InsertPost, &[&[(1, 1)], &[], &[]], [1, 1, 0, 0]),
    (Insert3, InsertModel, &[&[(3, 0)], &[], &[]], [3, 1, 2, 0]),
    (Insert3, InsertDelete, &[&[(3, 2)], &[], &[]], [3, 3, 1, 0]),
    (Insert3, InsertInsert, &[&[], &[], &[]], [4, 4, 1, 0]),
    (Insert3, InsertUnion, &[&[], &[(3, 0)], &[]], [3, 4, 1, 1]),
    (
        Insert3,
        UnionDeleteInsert,
        &[&[(0, 2)], &[(0, 0)], &[]],
        [0, 0, 2, 2],
    ),
    (Delete4, DeleteModel, &[&[(1, 2)], &[], &[]], [0, 3, 2, 2]),
    (Delete4, DeletePost, &[&[(1, 1)], &[], &[]], [2, 1, 2, 2]),
    (
        Delete4,
        DeleteDelete,
        &[&[(0, 1), (1, 2), (3, 1)], &[], &[]],
        [1, 0, 1, 0],
    ),
    (Delete4, DeleteInsert, &[&[], &[], &[]], [4, 0, 0, 2]),
    (
        Delete4,
        DeleteUnion,
        &[&[(1, 2)], &[(4, 1), (1, 2)], &[]],
        [4, 2, 2, 1],
    ),
    (Delete4, InsertDelete, &[&[], &[], &[]], [1, 0, 1, 0]),
    (
        Delete4,
        UnionDeleteInsert,
        &[&[(0, 1)], &[], &[]],
        [3, 2, 1, 1],
    ),
    (
        Delete5,
        DeleteModel,
        &[&[(2, 0), (4, 2)], &[], &[]],
        [4, 1, 2, 2],
    ),
    (
        Delete5,
        DeletePost,
        &[&[(2, 0), (0, 1)], &[], &[]],
        [0, 0, 1, 2],
    ),
    (
        Delete5,
        DeleteDelete,
        &[&[(2, 0), (0, 1)], &[], &[]],
        [2, 0, 2, 2],
    ),
    (Delete5, DeleteInsert, &[&[(1, 0)], &[], &[]], [0, 0, 0, 0]),
    (
        Delete5,
        DeleteUnion,
        &[&[(1, 1)], &[(0, 1)], &[]],
        [0, 4, 0, 1],
    ),
    (
        Delete5,
        UnionDeleteInsert,
        &[&[(0, 1), (2, 2)], &[], &[]],
        [2, 3, 1, 2],
    ),
    (Union6, UnionValid, &[&[(3, 1)], &[(1, 2)], &[]], [3, 3, 0, 1]),
    (Union6, UnionPost, &[&[(4, 2)], &[(1, 2)], &[]], [1, 0, 0, 0]),
    (Union6, UnionModel, &[&[(4, 0)], &[(3, 2)], &[]], [0, 4, 0, 0]),
    (Union6, DeleteUnion, &[&[(1, 0)], &[(1, 1)], &[]], [1, 0, 0, 1]),
    (Union6, InsertUnion, &[&[], &[(1, 1)], &[]], [3, 3, 0, 0]),
    (
        Union6,
        UnionDeleteInsert,
        &[&[(2, 2)], &[(1, 1)], &[]],
        [2, 2, 0, 2],
    ),
    (
        Union6,
        UnionUnionAssoc,
        &[&[(2, 2)], &[(4, 1)], &[(0, 2)]],
        [4, 4, 0, 2],
    ),
    (Union6, UnionUnionIdem, &[&[(4, 2)], &[], &[]], [0, 3, 0, 0]),
    (
        Union7,
        UnionValid,
        &[&[(3, 0)], &[(4, 2), (2, 1)], &[]],
        [1, 2, 0, 1],
    ),
    (
        Union7,
        UnionPost,
        &[&[(4, 1), (3, 2)], &[(3, 1)], &[]],
        [3, 0, 1, 2],
    ),
    (
        Union7,
        UnionModel,
        &[&[(0, 0), (4, 0)], &[(4, 2)], &[]],
        [0, 3, 2, 0],
    ),
    (
        Union7,
        DeleteUnion,
        &[&[(3, 2)], &[(0, 2), (3, 2)], &[]],
        [0, 4, 1, 0],
    ),
    (
        Union7,
        InsertUnion,
        &[&[], &[(2, 1), (4, 1)], &[]],
        [3, 4, 0, 2],
    ),
    (
        Union7,
        UnionDeleteInsert,
        &[&[(0, 1), (4, 0)], &[(1, 1)], &[]],
        [0, 4, 0, 1],
    ),
    (
        Union7,
        UnionUnionAssoc,
        &[&[(0, 1)], &[(1, 0)], &[(3, 2)]],
        [1, 2, 1, 0],
    ),
    (
        Union8,
        UnionPost,
        &[&[(4, 1)], &[(0, 1), (4, 0)], &[]],
        [4, 3, 2, 1],
    ),
    (
        Union8,
        UnionModel,
        &[&[(3, 2), (1, 2)], &[(1, 0)], &[]],
        [1, 2, 2, 0],
    ),
    (
        Union8,
        DeleteUnion,
        &[&[(3, 2)], &[(1, 2), (3, 1)], &[]],
        [1, 2, 2, 1],
    ),
    (
        Union8,
        InsertUnion,
        &[&[], &[(0, 1), (1, 0)], &[]],
        [1, 4, 2, 2],
    ),
    (
        Union8,
        UnionDeleteInsert,
        &[&[(4, 0), (0, 1)], &[(0, 2)], &[]],
        [4, 2, 1, 2],
    ),
    (
        Union8,
        UnionUnionAssoc,
        &[&[(3, 2)], &[(0, 0)], &[(3, 0)]],
        [1, 2, 0, 2],
    ),
]
};

fn args_of(lists: &[&[(i32, i32)]; 3], [k1, k2, v1, v2]: [i32; 4]) -> Args {
    Args {
        t1: Tree::from_pairs(lists[0]),
        t2: Tree::from_pairs(lists[1]),
        t3: Tree::from_pairs(lists[2]),
        k1,
        k2,
        v1,
        v2,
    }
}

#[test]
fn every_bst_task_has_a_witness() {
    let tasks: Vec<(Mutant, Property)> = TASKS
        .iter()
        .flat_map(|(m, ps)| ps.iter().map(move |p| (*m, *p)))
        .collect();
    assert_eq!(tasks.len(), 53);
    let covered: Vec<(Mutant, Property)> = BST_WITNESSES.iter().map(|w| (w.0, w.1)).collect();
    assert_eq!(covered, tasks, "one witness per task, in TASKS order");
    for &(mutant, property, lists, ints) in BST_WITNESSES {
        let args = args_of(lists, ints);
        let name = format!("{} / {}", mutant.name(), property.name());
        assert_eq!(
            property.run(&Bst::with_mutant(Some(mutant)), &args),
            Verdict::Fail,
            "{name}"
        );
        assert_eq!(
            property.run(&Bst::correct(), &args),
            Verdict::Pass,
            "{name}"
        );
    }
}

#[test]
fn the_correct_bst_passes_every_property_on_bespoke_inputs() {
    let mut rng = fastrand::Rng::with_seed(3);
    for _ in 0..3_000 {
        let args = generate::bespoke_args(&mut rng);
        for p in Property::ALL {
            assert_eq!(
                p.run(&Bst::correct(), &args),
                Verdict::Pass,
                "{} on {args:?}",
                p.name()
            );
        }
    }
}

#[test]
fn controls_never_fail_under_any_mutant() {
    let mut rng = fastrand::Rng::with_seed(4);
    let bsts = std::iter::once(None)
        .chain(Mutant::ALL.into_iter().map(Some))
        .map(Bst::with_mutant);
    let bsts: Vec<Bst> = bsts.collect();
    for _ in 0..3_000 {
        let bespoke = generate::bespoke_args(&mut rng);
        let naive = generate::naive_args(&mut rng);
        for bst in &bsts {
            for p in CONTROLS {
                assert_ne!(
                    p.run(bst, &bespoke),
                    Verdict::Fail,
                    "{:?} {}",
                    bst.mutant,
                    p.name()
                );
                assert_ne!(
                    p.run(bst, &naive),
                    Verdict::Fail,
                    "{:?} {}",
                    bst.mutant,
                    p.name()
                );
            }
        }
    }
}

#[test]
fn non_tasks_are_not_broken_on_bespoke_inputs() {
    // The task list says which properties a mutant breaks; check we did not break more (which
    // would mean our mutant differs from ETNA's). Controls included.
    let mut rng = fastrand::Rng::with_seed(5);
    let inputs: Vec<Args> = (0..2_000)
        .map(|_| generate::bespoke_args(&mut rng))
        .collect();
    for (mutant, failing) in TASKS {
        let bst = Bst::with_mutant(Some(mutant));
        for p in Property::ALL.into_iter().filter(|p| !failing.contains(p)) {
            for args in &inputs {
                assert_ne!(
                    p.run(&bst, args),
                    Verdict::Fail,
                    "{} / {} on {args:?}",
                    mutant.name(),
                    p.name()
                );
            }
        }
    }
}

#[test]
fn union_mutants_terminate_on_adversarial_trees() {
    // union_7 and union_8 recurse with swapped arguments; fuel bounds them.
    let t1 = Tree::from_pairs(&(0..40).map(|k| (k, k)).collect::<Vec<_>>());
    let t2 = Tree::from_pairs(&(0..40).rev().map(|k| (k, -k)).collect::<Vec<_>>());
    for m in [Mutant::Union6, Mutant::Union7, Mutant::Union8] {
        let u = Bst::with_mutant(Some(m)).union(&t1, &t2);
        assert!(u.size() <= t1.size() + t2.size());
    }
    assert_eq!(Bst::correct().union(&t1, &t2).to_list(), t1.to_list());
}

#[test]
fn naive_trees_are_sometimes_not_bsts() {
    let mut rng = fastrand::Rng::with_seed(6);
    let invalid = (0..1_000)
        .filter(|_| !generate::naive_tree(&mut rng, generate::NAIVE_DEPTH).is_bst())
        .count();
    assert!(
        invalid > 50,
        "naive generator should produce discards, got {invalid}"
    );
}

// ---------------------------------------------------------------------------------------------
// Branch targets and throughput

#[test]
fn bad_fails_exactly_on_its_magic_prefix() {
    for labels in [false, true] {
        let bad = |x: &[u8]| {
            if labels {
                branches::bad::<true>(x)
            } else {
                branches::bad::<false>(x)
            }
        };
        let trap = |x: &[u8]| {
            if labels {
                branches::bad_or_ok::<true>(x)
            } else {
                branches::bad_or_ok::<false>(x)
            }
        };
        for f in [&bad as &dyn Fn(&[u8]) -> Verdict, &trap] {
            assert_eq!(f(b"bad!"), Verdict::Fail);
            assert_eq!(f(b"bad!xyz"), Verdict::Fail);
            for pass in [
                &b""[..],
                b"b",
                b"ba",
                b"bad",
                b"bad?",
                b"Bad!",
                b"xbad!",
                b"ok",
                b"ok!!",
            ] {
                assert_eq!(
                    f(pass),
                    Verdict::Pass,
                    "{:?}",
                    String::from_utf8_lossy(pass)
                );
            }
        }
    }
    // Exhaustive over one changed byte of the magic word.
    for i in 0..4 {
        for b in 0..=255u8 {
            let mut input = *b"bad!";
            input[i] = b;
            let expected = if input == *b"bad!" {
                Verdict::Fail
            } else {
                Verdict::Pass
            };
            assert_eq!(branches::bad::<false>(&input), expected);
        }
    }
}

#[test]
fn dan_luu_fails_exactly_when_four_ints_have_16_low_bits_set() {
    let ok = [0xffff, -1, 0x7fff_ffff, 0x1234_ffff];
    assert_eq!(branches::dan_luu::<false>(&ok), Verdict::Fail);
    assert_eq!(branches::dan_luu::<true>(&ok), Verdict::Fail);
    for i in 0..4 {
        for bit in 0..16 {
            let mut input = ok;
            input[i] &= !(1 << bit);
            assert_eq!(
                branches::dan_luu::<false>(&input),
                Verdict::Pass,
                "a[{i}] bit {bit}"
            );
        }
    }
    assert_eq!(branches::dan_luu::<false>(&ok[..3]), Verdict::Pass);
    assert_eq!(branches::dan_luu::<false>(&[0xffff; 5]), Verdict::Pass);
}

#[test]
fn enum_vector_fails_exactly_on_its_seven_elements_in_both_orders() {
    let targets: [fn(&[SomeEnum]) -> Verdict; 4] = [
        branches::enum_vector_forward::<false>,
        branches::enum_vector_forward::<true>,
        branches::enum_vector_reverse::<false>,
        branches::enum_vector_reverse::<true>,
    ];
    let mut longer = ENUM_TARGET.to_vec();
    longer.extend([SomeEnum::C(1, 2), SomeEnum::D(3, 4)]);
    let near_misses = [
        SomeEnum::A(31),
        SomeEnum::B(30),
        SomeEnum::E,
        SomeEnum::C(30, 30),
    ];
    for f in targets {
        assert_eq!(f(&ENUM_TARGET), Verdict::Fail);
        assert_eq!(f(&longer), Verdict::Fail);
        assert_eq!(f(&ENUM_TARGET[..6]), Verdict::Pass);
        for i in 0..7 {
            for &miss in &near_misses {
                if miss == ENUM_TARGET[i] {
                    continue;
                }
                let mut input = ENUM_TARGET.to_vec();
                input[i] = miss;
                assert_eq!(f(&input), Verdict::Pass, "element {i} = {miss:?}");
            }
        }
    }
}

#[test]
fn mirror_twice_always_passes_and_mirror_is_not_the_identity() {
    let mut rng = fastrand::Rng::with_seed(8);
    for _ in 0..1_000 {
        let t = generate::naive_tree(&mut rng, 6);
        assert_eq!(throughput::mirror_twice(&t), Verdict::Pass);
    }
    let t = Tree::from_pairs(&[(1, 1), (2, 2)]);
    assert_ne!(throughput::mirror(&t), t);
    let _ = bst::UNION_FUEL;
}
