//! Mutants keep about their seeds' size: a chain of mutations (each mutant mutated again, as
//! the engine's kept mutants are) neither collapses a recursive value nor shortens a collection.
//! Before constructor grow could wrap (subterm's inverse) and Truncate could grow, 32 mutations
//! took 48-node terms down to about 6 nodes (0.12x) and 32 mutations cut programs' lengths to
//! 0.69x; now about 0.55x for terms (subterm still focuses the search on parts) and 1.0x for
//! collections (`cargo run -p typefuzz-bench -- mutant-size` prints the
//! per-operator numbers).

use typefuzz::{Context, Mutate, Operator};

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Term {
    Var(u8),
    Lit(i32),
    Neg(Box<Term>),
    Add(Box<Term>, Box<Term>),
    Mul(Box<Term>, Box<Term>),
}

fn nodes(term: &Term) -> usize {
    let mut count = 1;
    term.visit_subterms(&mut |subterm| count += nodes(subterm));
    count
}

/// Generates `seeds` values at `size`, mutates each `steps` times in a chain, and checks that
/// the mean of `measure` after the chain is within `kept` times the seeds' mean (which must
/// exceed `least`, so the check is about values of a real size).
fn assert_size_kept<T: Mutate>(
    (size, max_size, steps): (usize, usize, usize),
    measure: fn(&T) -> usize,
    least: f64,
    kept: core::ops::Range<f64>,
) {
    let seeds = 2_000u64;
    let (mut before, mut after) = (0, 0);
    for seed in 0..seeds {
        let mut cx = Context::new(seed).with_max_size(max_size);
        let mut value: T = cx.generate_sized(size);
        before += measure(&value);
        for _ in 0..steps {
            cx.mutate(&mut value);
        }
        after += measure(&value);
    }
    let (before, after) = (before as f64 / seeds as f64, after as f64 / seeds as f64);
    assert!(before > least, "seeds measure {before}");
    assert!(
        kept.contains(&(after / before)),
        "{before:.1} became {after:.1} after {steps} mutations"
    );
}

#[test]
fn recursive_values_keep_their_size_through_a_chain_of_mutations() {
    assert_size_kept::<Term>((48, 64, 32), nodes, 30.0, 0.4..1.6);
}

#[test]
fn collections_keep_their_length_through_a_chain_of_mutations() {
    assert_size_kept::<Vec<u16>>((100, 100, 64), Vec::len, 40.0, 0.8..1.25);
}

#[test]
fn wrapping_puts_the_value_inside_a_fresh_one() {
    let start = Term::Add(Box::new(Term::Var(1)), Box::new(Term::Lit(2)));
    let mut wrapped = 0;
    for seed in 0..500 {
        let mut cx = Context::new(seed);
        let mut value = start.clone();
        let trace = cx.mutate(&mut value).to_vec();
        // Wrapped at the top (not in a field, which records Recursive first).
        if trace == [Operator::Wrap] {
            wrapped += 1;
            let mut inside = false;
            value.visit_subterms(&mut |subterm| inside |= *subterm == start);
            assert!(inside, "{value:?}");
            assert!(nodes(&value) > nodes(&start), "{value:?}");
        }
    }
    assert!(wrapped > 0, "wrapping is one of the operators");
}

#[test]
fn wrapping_respects_the_depth_budget() {
    // A chain of 6 negations is 7 levels deep: at a maximum size of 7 it cannot be wrapped.
    let mut deep = Term::Var(0);
    for _ in 0..6 {
        deep = Term::Neg(Box::new(deep));
    }
    for seed in 0..500 {
        let mut cx = Context::new(seed).with_max_size(7);
        let mut value = deep.clone();
        let trace = cx.mutate(&mut value).to_vec();
        assert!(!trace.contains(&Operator::Wrap), "{value:?}");
    }
}

/// Wrapping generates the wrapper's `Box<Self>` fields as leaves and then the siblings of the
/// wrapped value at their share of the wrapper's size: they must come out as big as a field
/// generated with the wrapper would (about the wrapped value's size), not as leaves.
#[test]
fn wrapping_gives_the_value_siblings_of_its_own_size() {
    // An 11-node value: the wrapper is generated at size 23, an `Add`'s fields at 11 each.
    let mut value = Term::Lit(0);
    for index in 0..5 {
        value = Term::Add(Box::new(value), Box::new(Term::Var(index)));
    }
    let n = nodes(&value);
    let mut siblings = Vec::new();
    for seed in 0..3_000 {
        let mut cx = Context::new(seed).with_max_size(64);
        let mut mutant = value.clone();
        if cx.mutate(&mut mutant).to_vec() != [Operator::Wrap] {
            continue;
        }
        if let Term::Add(a, b) | Term::Mul(a, b) = &mutant {
            let sibling = if **a == value { b } else { a };
            siblings.push(nodes(sibling));
        }
    }
    let reference: Vec<usize> = (0..2_000)
        .map(|seed| nodes(&Context::new(seed).generate_sized::<Term>(n)))
        .collect();
    let mean = |xs: &[usize]| xs.iter().sum::<usize>() as f64 / xs.len() as f64;
    assert!(siblings.len() > 50, "{} two-field wraps", siblings.len());
    let (got, expected) = (mean(&siblings), mean(&reference));
    assert!(expected > 3.0, "fields at size {n} have {expected} nodes");
    assert!(
        (0.8..1.25).contains(&(got / expected)),
        "siblings of {got:.1} nodes, fields generated at size {n} have {expected:.1}"
    );
}

/// A wrapper whose subterms are not all `Box<Self>` fields (here a `Vec<Self>` next to one) is
/// generated whole, and the value still ends up inside it.
#[test]
fn wrapping_a_value_into_a_wrapper_with_a_vec_of_subterms() {
    #[derive(Clone, Debug, PartialEq, Mutate)]
    enum Rose {
        Leaf(u8),
        Node(Box<Rose>, Vec<Rose>),
    }
    let start = Rose::Node(Box::new(Rose::Leaf(7)), vec![Rose::Leaf(8)]);
    let (mut wrapped, mut into_vec, mut grown_box) = (0, 0, 0);
    for seed in 0..1_000 {
        let mut cx = Context::new(seed).with_max_size(32);
        let mut value = start.clone();
        if cx.mutate(&mut value).to_vec() == [Operator::Wrap] {
            wrapped += 1;
            let mut inside = false;
            value.visit_subterms(&mut |subterm| inside |= *subterm == start);
            assert!(inside, "{value:?}");
            // The value went into the `Vec`: the `Box` field beside it is what generation made
            // at full size, not the leaf the hole would have left.
            if let Rose::Node(boxed, _) = &value {
                if **boxed != start {
                    into_vec += 1;
                    grown_box += usize::from(matches!(**boxed, Rose::Node(..)));
                }
            }
        }
    }
    assert!(wrapped > 0, "wrapping is one of the operators");
    assert!(
        grown_box > 0,
        "{into_vec} wraps into the Vec, the Box field always a leaf"
    );
}
