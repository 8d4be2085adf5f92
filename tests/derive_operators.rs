//! FuzzChick's operator semantics on the paper's own example type, `Tree<A>`.

use std::collections::HashSet;

use typefuzz::{Context, Mutate, Operator, Operators};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Mutate)]
enum Tree<A> {
    Leaf(A),
    Node(A, Box<Tree<A>>, Box<Tree<A>>),
}

use Tree::{Leaf, Node};

fn node(a: u8, l: Tree<u8>, r: Tree<u8>) -> Tree<u8> {
    Node(a, Box::new(l), Box::new(r))
}

/// Mutates `start` once per seed and returns each mutant with the outermost operator applied.
fn mutants(start: &Tree<u8>, operators: Operators, draws: u64) -> Vec<(Tree<u8>, Operator)> {
    let mut cx = Context::new(0).with_operators(operators).with_max_size(8);
    (0..draws)
        .map(|seed| {
            cx.reseed(seed);
            let mut value = start.clone();
            let trace = cx.mutate(&mut value).to_vec();
            assert!(!trace.is_empty(), "every mutation records its operator");
            (value, trace[0])
        })
        .collect()
}

/// Without regeneration, so that every mutant comes from one of the four families.
fn families() -> Operators {
    Operators {
        regenerate: 0,
        ..Operators::default()
    }
}

fn differing_fields(a: &Tree<u8>, b: &Tree<u8>) -> Option<usize> {
    match (a, b) {
        (Node(x1, l1, r1), Node(x2, l2, r2)) => {
            Some(usize::from(x1 != x2) + usize::from(l1 != l2) + usize::from(r1 != r2))
        }
        (Leaf(x1), Leaf(x2)) => Some(usize::from(x1 != x2)),
        _ => None,
    }
}

/// Is `inner` a direct subterm of `outer` (what wrapping makes of it)?
fn wraps(outer: &Tree<u8>, inner: &Tree<u8>) -> bool {
    let mut found = false;
    outer.visit_subterms(&mut |subterm| found |= subterm == inner);
    found
}

#[test]
fn node_mutants_cover_subterm_drop_and_recursive() {
    let start = node(1, Leaf(2), Leaf(3));
    let all = mutants(&start, families(), 2000);
    let seen: HashSet<&Tree<u8>> = all.iter().map(|(t, _)| t).collect();
    assert!(seen.contains(&Leaf(2)), "subterm to the left child");
    assert!(seen.contains(&Leaf(3)), "subterm to the right child");
    assert!(seen.contains(&Leaf(1)), "constructor drop keeps the label");
    assert!(
        all.iter()
            .any(|(t, op)| *op == Operator::Recursive && differing_fields(&start, t) == Some(1)),
        "recursive mutation of one field"
    );
    for (mutant, op) in &all {
        match op {
            Operator::Subterm => assert!(*mutant == Leaf(2) || *mutant == Leaf(3), "{mutant:?}"),
            Operator::ConstructorDrop => assert_eq!(*mutant, Leaf(1)),
            Operator::Recursive => {
                assert_eq!(
                    differing_fields(&start, mutant),
                    Some(1),
                    "exactly one field: {mutant:?}"
                )
            }
            Operator::Wrap => assert!(wraps(mutant, &start), "{mutant:?}"),
            other => {
                panic!("unexpected operator {other} for a Node (grow has no candidate): {mutant:?}")
            }
        }
    }
}

#[test]
fn leaf_grows_into_a_node_keeping_its_label() {
    let all = mutants(&Leaf(7), families(), 500);
    assert!(all
        .iter()
        .any(|(t, op)| *op == Operator::ConstructorGrow && matches!(t, Node(7, _, _))));
    for (mutant, op) in &all {
        match op {
            Operator::ConstructorGrow => assert!(matches!(mutant, Node(7, _, _)), "{mutant:?}"),
            Operator::Recursive => assert!(matches!(mutant, Leaf(x) if *x != 7), "{mutant:?}"),
            Operator::Wrap => assert!(wraps(mutant, &Leaf(7)), "{mutant:?}"),
            other => panic!("a Leaf has no subterm or drop candidate, got {other}: {mutant:?}"),
        }
    }
}

#[test]
fn disabled_families_never_apply() {
    let start = node(1, Leaf(2), Leaf(3));
    let cases: [(Operators, Operator); 4] = [
        (
            Operators {
                subterm: 0,
                ..families()
            },
            Operator::Subterm,
        ),
        (
            Operators {
                drop: 0,
                ..families()
            },
            Operator::ConstructorDrop,
        ),
        (
            Operators {
                recursive: 0,
                ..families()
            },
            Operator::Recursive,
        ),
        (
            Operators {
                grow: 0,
                ..families()
            },
            Operator::ConstructorGrow,
        ),
    ];
    for (operators, disabled) in cases {
        for (mutant, op) in mutants(&start, operators, 500) {
            assert_ne!(
                op, disabled,
                "{disabled} is switched off but produced {mutant:?}"
            );
            match disabled {
                Operator::Subterm => assert!(mutant != Leaf(2) && mutant != Leaf(3), "{mutant:?}"),
                Operator::ConstructorDrop => assert_ne!(mutant, Leaf(1)),
                _ => {}
            }
        }
        for (mutant, op) in mutants(&Leaf(7), operators, 500) {
            assert_ne!(
                op, disabled,
                "{disabled} is switched off but produced {mutant:?}"
            );
            if disabled == Operator::ConstructorGrow {
                assert!(matches!(mutant, Leaf(_)), "{mutant:?}");
            }
        }
    }
}

#[test]
fn faithful_mode_weighs_every_candidate_equally() {
    // Node(1, Leaf 2, Leaf 3) has 3 recursive, 2 subterm and 1 drop candidates: 6 in all.
    let all = mutants(&node(1, Leaf(2), Leaf(3)), Operators::fuzzchick(), 6000);
    let count = |wanted: Operator| all.iter().filter(|(_, op)| *op == wanted).count();
    let (recursive, subterm, drop) = (
        count(Operator::Recursive),
        count(Operator::Subterm),
        count(Operator::ConstructorDrop),
    );
    assert_eq!(recursive + subterm + drop, 6000);
    // Expected 3000 / 2000 / 1000; allow generous sampling noise.
    assert!((2700..3300).contains(&recursive), "recursive {recursive}");
    assert!((1750..2250).contains(&subterm), "subterm {subterm}");
    assert!((850..1150).contains(&drop), "drop {drop}");
}

#[test]
fn faithful_grow_only_maps_to_supersets() {
    #[derive(Clone, Debug, PartialEq, Mutate)]
    enum Shape {
        Dot(u8),
        Pair(u8, u8),
        Flag(bool),
    }
    // From Dot(x): Pair is a superset grow; Flag is neither drop nor superset.
    let mut cx = Context::new(0).with_operators(Operators::fuzzchick());
    for seed in 0..500 {
        cx.reseed(seed);
        let mut value = Shape::Dot(9);
        let trace = cx.mutate(&mut value).to_vec();
        if trace[0] == Operator::ConstructorGrow {
            assert!(
                matches!(value, Shape::Pair(9, _) | Shape::Pair(_, 9)),
                "{value:?}"
            );
        }
        assert!(
            !matches!(value, Shape::Flag(_)),
            "faithful grow never reaches Flag: {value:?}"
        );
    }
    // The default mode may grow to any other variant.
    let mut cx = Context::new(0).with_operators(families());
    let reached_flag = (0..500).any(|seed| {
        cx.reseed(seed);
        let mut value = Shape::Dot(9);
        cx.mutate(&mut value);
        matches!(value, Shape::Flag(_))
    });
    assert!(reached_flag);
}

#[test]
fn same_signature_swaps_are_drops() {
    #[derive(Clone, Copy, Debug, PartialEq, Mutate)]
    enum Instr {
        Push(i32),
        Jump(i32),
        Halt,
    }
    let mut cx = Context::new(0).with_operators(families());
    let mut swapped = false;
    for seed in 0..500 {
        cx.reseed(seed);
        let mut value = Instr::Push(5);
        let trace = cx.mutate(&mut value).to_vec();
        if trace[0] == Operator::ConstructorDrop {
            assert!(matches!(value, Instr::Jump(5) | Instr::Halt), "{value:?}");
            swapped |= value == Instr::Jump(5);
        }
    }
    assert!(swapped, "Push(5) -> Jump(5) keeps the payload");
}

#[test]
fn mutation_always_changes_a_recursive_value() {
    // Regeneration may redraw the same value; the four families always change it.
    let mut cx = Context::new(3).with_operators(families());
    let mut value: Tree<u8> = cx.generate();
    for _ in 0..2000 {
        let before = value.clone();
        cx.mutate(&mut value);
        assert_ne!(before, value);
    }
}

/// Two sides of one relation, as a user writes a noninterference or differential input.
#[derive(Clone, Debug, PartialEq, Mutate)]
struct Relational {
    before: Vec<u8>,
    tag: u16,
    after: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Sides {
    Two(Vec<u8>, u16, Vec<u8>),
    One(Vec<u8>),
}

#[test]
fn same_typed_fields_are_paired_and_stay_equal() {
    let mut cx = Context::new(5).with_max_size(8);
    let (mut paired, mut apart) = (0, 0);
    for _ in 0..4000 {
        let side: Vec<u8> = cx.generate();
        let mut value = Relational {
            before: side.clone(),
            tag: 3,
            after: side,
        };
        let trace = cx.mutate(&mut value).to_vec();
        if trace.contains(&Operator::Paired) {
            paired += 1;
            assert_eq!(value.before, value.after, "{trace:?}");
            assert_eq!(value.tag, 3, "the other field is not part of the pair");
        } else if value.before != value.after {
            apart += 1;
        }
    }
    // A recursive choice (2 of 3 fields are twins) paired one time in 8.
    assert!((150..=450).contains(&paired), "{paired}");
    assert!(apart > 2000, "{apart}");

    let mut enum_paired = 0;
    for _ in 0..4000 {
        let mut value = Sides::Two(vec![1, 2], 7, vec![1, 2]);
        if cx.mutate(&mut value).contains(&Operator::Paired) {
            enum_paired += 1;
            let Sides::Two(a, 7, b) = &value else {
                panic!("a paired mutation keeps the variant: {value:?}");
            };
            assert_eq!(a, b);
        }
    }
    assert!(enum_paired > 50, "{enum_paired}");
}

#[test]
fn subtrees_and_faithful_mutation_are_never_paired() {
    let start = node(1, node(2, Leaf(3), Leaf(4)), node(2, Leaf(3), Leaf(4)));
    let mut cx = Context::new(1).with_max_size(8);
    for _ in 0..4000 {
        let mut value = start.clone();
        assert!(!cx.mutate(&mut value).contains(&Operator::Paired));
    }
    let mut cx = Context::new(1).with_operators(Operators::fuzzchick());
    for _ in 0..2000 {
        let mut value = Relational {
            before: vec![1],
            tag: 0,
            after: vec![1],
        };
        assert!(!cx.mutate(&mut value).contains(&Operator::Paired));
    }
}

/// Subterms behind a tuple and an `Rc`: a fixed two per `Pair`, which the derive counts from a
/// table instead of walking the value.
#[derive(Clone, Debug, PartialEq, Mutate)]
enum Fixed {
    Leaf(u8),
    Pair((Box<Fixed>, u8), std::rc::Rc<Fixed>),
}

/// Subterms in an `Option` and a `Vec`: as many as the value holds, counted by a walk.
#[derive(Clone, Debug, PartialEq, Mutate)]
enum Counted {
    Leaf(u8),
    Node(Option<Box<Counted>>, Vec<Counted>),
}

/// Every mutant of `start` with the subterm operator alone, over `draws` seeds.
fn subterm_mutants<T: Mutate + Clone>(start: &T, draws: u64) -> Vec<T> {
    let operators = Operators {
        recursive: 0,
        drop: 0,
        grow: 0,
        regenerate: 0,
        ..Operators::default()
    };
    let mut cx = Context::new(0).with_operators(operators).with_max_size(8);
    (0..draws)
        .map(|seed| {
            cx.reseed(seed);
            let mut value = start.clone();
            assert_eq!(cx.mutate(&mut value), [Operator::Subterm]);
            value
        })
        .collect()
}

#[test]
fn subterm_replaces_the_value_by_each_of_its_subterms_and_nothing_else() {
    use std::rc::Rc;
    let pair = Fixed::Pair((Box::new(Fixed::Leaf(1)), 9), Rc::new(Fixed::Leaf(2)));
    let mutants = subterm_mutants(&pair, 200);
    for leaf in [Fixed::Leaf(1), Fixed::Leaf(2)] {
        let hits = mutants.iter().filter(|m| **m == leaf).count();
        assert!(
            (60..140).contains(&hits),
            "{leaf:?} {hits} of 200: {mutants:?}"
        );
    }
    assert!(mutants.iter().all(|m| matches!(m, Fixed::Leaf(1 | 2))));

    for (value, subterms) in [
        (
            Counted::Node(Some(Box::new(Counted::Leaf(1))), vec![Counted::Leaf(2)]),
            vec![Counted::Leaf(1), Counted::Leaf(2)],
        ),
        (
            Counted::Node(
                None,
                vec![Counted::Leaf(3), Counted::Leaf(4), Counted::Leaf(5)],
            ),
            vec![Counted::Leaf(3), Counted::Leaf(4), Counted::Leaf(5)],
        ),
    ] {
        let mutants = subterm_mutants(&value, 300);
        for subterm in &subterms {
            assert!(
                mutants.contains(subterm),
                "{subterm:?} never chosen from {value:?}"
            );
        }
        assert!(mutants.iter().all(|m| subterms.contains(m)), "{mutants:?}");
    }
}
