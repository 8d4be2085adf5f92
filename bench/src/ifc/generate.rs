//! Input generators for the IFC machine: FuzzChick's `(st, st)` seed, the naive pair of
//! independent states (with its proptest and quickcheck versions) and the hand-written smart
//! generator of `Generation.v`, the "upper bound" line.

use super::{Atom, Instr, Label, StackEntry, State};
use fastrand::Rng;
use proptest::prelude::*;

/// Longest vector the naive generators build (imem, mem, stack).
///
/// Type-derived generators are size-bounded (QuickChick's derived generators, QuickCheck's
/// `sized`); these bounds are that size, the same for every naive baseline.
pub const NAIVE_MAX_LEN: usize = 4;

/// Naive integers are drawn uniformly from `-NAIVE_INT_BOUND..=NAIVE_INT_BOUND`.
pub const NAIVE_INT_BOUND: i64 = 4;

/// FuzzChick's seed: test a state against a copy of itself, and let type-aware mutation move
/// the two copies apart.
///
/// ```
/// use typefuzz_bench::ifc::{generate::copy_pair, State};
/// let (a, b) = copy_pair(State::default());
/// assert_eq!(a, b);
/// ```
pub fn copy_pair(st: State) -> (State, State) {
    (st.clone(), st)
}

/// FuzzChick's 3-line seed generator: one derived state, tested against itself.
///
/// ```
/// use typefuzz_bench::ifc::generate::fuzzchick_seed;
/// let (a, b) = fuzzchick_seed(&mut typefuzz::Context::new(1));
/// assert_eq!(a, b);
/// ```
pub fn fuzzchick_seed(cx: &mut typefuzz::Context) -> (State, State) {
    copy_pair(cx.generate())
}

// ---------------------------------------------------------------------------------------------
// The smart generator (QuickChick `examples/ifc-basic/Generation.v`).

fn gen_z(rng: &mut Rng) -> i64 {
    rng.i64(0..=1)
}

fn gen_label(rng: &mut Rng) -> Label {
    if rng.bool() {
        Label::L
    } else {
        Label::H
    }
}

fn gen_atom(rng: &mut Rng) -> Atom {
    Atom::new(gen_z(rng), gen_label(rng))
}

/// Picks an index with probability proportional to its weight (weights not all zero).
fn weighted(rng: &mut Rng, weights: &[u32]) -> usize {
    let total: u32 = weights.iter().sum();
    let mut x = rng.u32(0..total);
    for (i, &w) in weights.iter().enumerate() {
        if x < w {
            return i;
        }
        x -= w;
    }
    unreachable!("x < total")
}

/// An instruction the stack can execute (the FuzzChick IFC generator's weights: Nop 1, Push 10, BCall 10 with
/// ≥ 1 data entry on top, BRet 10 if a return frame exists, Add/Store 10 with ≥ 2 data entries,
/// Load 10 with ≥ 1).
fn gen_instr(rng: &mut Rng, stack: &[StackEntry]) -> Instr {
    // Data entries above the topmost return frame (the Coq `stack_length`).
    let data_on_top = stack
        .iter()
        .rev()
        .take_while(|e| matches!(e, StackEntry::Data(_)))
        .count();
    let has_ret = stack.iter().any(|e| matches!(e, StackEntry::Ret(_)));
    let at_least = |n: usize| if data_on_top >= n { 10 } else { 0 };
    let weights = [
        1,
        10,
        at_least(1),
        if has_ret { 10 } else { 0 },
        at_least(2),
        at_least(1),
        at_least(2),
    ];
    match weighted(rng, &weights) {
        0 => Instr::Nop,
        1 => Instr::Push(gen_z(rng)),
        2 => Instr::BCall(rng.usize(0..data_on_top) as i64),
        3 => Instr::BRet,
        4 => Instr::Add,
        5 => Instr::Load,
        _ => Instr::Store,
    }
}

/// A smart state: memory of 2 atoms, values in {0, 1}, uniform labels, 4 stack entries (Data :
/// Ret weight 10 : 4), pc value in {0, 1}, and `imem = [i, i]` with `i` executable on the stack.
///
/// ```
/// use typefuzz_bench::ifc::generate::smart_state;
/// let st = smart_state(&mut fastrand::Rng::with_seed(1));
/// assert_eq!((st.mem.len(), st.stack.len(), st.imem.len()), (2, 4, 2));
/// assert!(st.instr().is_some());
/// ```
pub fn smart_state(rng: &mut Rng) -> State {
    let pc = gen_atom(rng);
    let mem = vec![gen_atom(rng), gen_atom(rng)];
    // Coq builds the stack top first; ours has its top last.
    let mut stack: Vec<StackEntry> = (0..4)
        .map(|_| {
            let atom = gen_atom(rng);
            if weighted(rng, &[10, 4]) == 0 {
                StackEntry::Data(atom)
            } else {
                StackEntry::Ret(atom)
            }
        })
        .collect();
    stack.reverse();
    let i = gen_instr(rng, &stack);
    State {
        imem: vec![i, i],
        mem,
        stack,
        pc,
    }
}

/// Same low part, fresh high value.
fn vary_atom(rng: &mut Rng, a: Atom) -> Atom {
    match a.label {
        Label::L => a,
        Label::H => Atom::new(gen_z(rng), Label::H),
    }
}

/// A variation of `st` (Coq's `vary_state`): low atoms kept, high atom values re-randomized;
/// on the stack, data under a high region is regenerated, high return frames re-randomized; and
/// under a high pc an extra atom is pushed.
///
/// ```
/// use typefuzz_bench::ifc::{generate::{smart_state, vary}, Label};
/// let mut rng = fastrand::Rng::with_seed(3);
/// let st = smart_state(&mut rng);
/// let other = vary(&mut rng, &st);
/// assert_eq!(other.imem, st.imem);
/// assert_eq!(other.stack.len(), st.stack.len() + (st.pc.label == Label::H) as usize);
/// ```
pub fn vary(rng: &mut Rng, st: &State) -> State {
    let mem = st.mem.iter().map(|&a| vary_atom(rng, a)).collect();
    let pc = vary_atom(rng, st.pc);
    let pc_low = st.pc.label == Label::L;
    let mut is_low = pc_low;
    // Walk from the top, as Coq's `vary_stack` does.
    let mut stack: Vec<StackEntry> = st
        .stack
        .iter()
        .rev()
        .map(|&e| match e {
            StackEntry::Data(a) if is_low => StackEntry::Data(vary_atom(rng, a)),
            StackEntry::Data(_) => StackEntry::Data(gen_atom(rng)),
            StackEntry::Ret(a) if a.label == Label::L => {
                is_low = true;
                e
            }
            StackEntry::Ret(a) => {
                is_low = false;
                StackEntry::Ret(vary_atom(rng, a))
            }
        })
        .collect();
    stack.reverse();
    if !pc_low {
        stack.push(StackEntry::Data(gen_atom(rng)));
    }
    State {
        imem: st.imem.clone(),
        mem,
        stack,
        pc,
    }
}

/// The hand-written smart generator: a smart state and a variation of it.
///
/// ```
/// use typefuzz_bench::ifc::{generate::smart_pair, indist_state};
/// let mut rng = fastrand::Rng::with_seed(7);
/// let valid = (0..1000).filter(|_| { let (a, b) = smart_pair(&mut rng); indist_state(&a, &b) }).count();
/// assert!(valid > 500);
/// ```
pub fn smart_pair(rng: &mut Rng) -> (State, State) {
    let st = smart_state(rng);
    let other = vary(rng, &st);
    (st, other)
}

// ---------------------------------------------------------------------------------------------
// Naive, type-derived generators.

fn naive_int(rng: &mut Rng) -> i64 {
    rng.i64(-NAIVE_INT_BOUND..=NAIVE_INT_BOUND)
}

fn naive_atom(rng: &mut Rng) -> Atom {
    Atom::new(naive_int(rng), gen_label(rng))
}

fn naive_instr(rng: &mut Rng) -> Instr {
    match rng.u8(0..8) {
        0 => Instr::Nop,
        1 => Instr::Push(naive_int(rng)),
        2 => Instr::BCall(naive_int(rng)),
        3 => Instr::BRet,
        4 => Instr::Add,
        5 => Instr::Load,
        6 => Instr::Store,
        _ => Instr::Halt,
    }
}

fn naive_entry(rng: &mut Rng) -> StackEntry {
    if rng.bool() {
        StackEntry::Data(naive_atom(rng))
    } else {
        StackEntry::Ret(naive_atom(rng))
    }
}

fn naive_vec<T>(rng: &mut Rng, mut each: impl FnMut(&mut Rng) -> T) -> Vec<T> {
    let len = rng.usize(0..=NAIVE_MAX_LEN);
    (0..len).map(|_| each(rng)).collect()
}

/// A type-derived state: every constructor equally likely, vectors of up to
/// [`NAIVE_MAX_LEN`] elements, integers within [`NAIVE_INT_BOUND`].
///
/// ```
/// use typefuzz_bench::ifc::generate::{naive_state, NAIVE_MAX_LEN};
/// let st = naive_state(&mut fastrand::Rng::with_seed(1));
/// assert!(st.imem.len() <= NAIVE_MAX_LEN);
/// ```
pub fn naive_state(rng: &mut Rng) -> State {
    State {
        imem: naive_vec(rng, naive_instr),
        mem: naive_vec(rng, naive_atom),
        stack: naive_vec(rng, naive_entry),
        pc: naive_atom(rng),
    }
}

/// Two independent naive states (almost never indistinguishable).
///
/// ```
/// use typefuzz_bench::ifc::generate::naive_pair;
/// let (a, b) = naive_pair(&mut fastrand::Rng::with_seed(1));
/// assert_ne!(a, b);
/// ```
pub fn naive_pair(rng: &mut Rng) -> (State, State) {
    (naive_state(rng), naive_state(rng))
}

/// proptest strategy for [`naive_state`]'s distribution.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let st = typefuzz_bench::ifc::generate::naive_state_strategy()
///     .new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// assert!(st.mem.len() <= 4);
/// ```
pub fn naive_state_strategy() -> impl Strategy<Value = State> {
    let int = || -NAIVE_INT_BOUND..=NAIVE_INT_BOUND;
    let label = || prop_oneof![Just(Label::L), Just(Label::H)];
    let atom = move || (int(), label()).prop_map(|(v, l)| Atom::new(v, l));
    let instr = prop_oneof![
        Just(Instr::Nop),
        int().prop_map(Instr::Push),
        int().prop_map(Instr::BCall),
        Just(Instr::BRet),
        Just(Instr::Add),
        Just(Instr::Load),
        Just(Instr::Store),
        Just(Instr::Halt),
    ];
    let entry = prop_oneof![
        atom().prop_map(StackEntry::Data),
        atom().prop_map(StackEntry::Ret)
    ];
    let len = 0..=NAIVE_MAX_LEN;
    (
        proptest::collection::vec(instr, len.clone()),
        proptest::collection::vec(atom(), len.clone()),
        proptest::collection::vec(entry, len),
        atom(),
    )
        .prop_map(|(imem, mem, stack, pc)| State {
            imem,
            mem,
            stack,
            pc,
        })
}
