//! Indistinguishability: what an observer at level `L` cannot tell apart.
//!
//! This is the FuzzChick branch's `Indist.v`, which (unlike master) also requires equal
//! instruction memories. That is essential for the `(st, st)` configuration: SSNI looks up the
//! instruction in the first state only, so two states with different programs at the same low pc
//! would run different instructions and "fail" even with the correct rules.

use super::machine::{Atom, Label, StackEntry, State};

/// Atoms: both low with equal values, or both high.
///
/// ```
/// use typefuzz_bench_targets::ifc::{indist::indist_atom, Atom, Label};
/// assert!(indist_atom(Atom::new(1, Label::H), Atom::new(2, Label::H)));
/// assert!(!indist_atom(Atom::new(1, Label::L), Atom::new(2, Label::L)));
/// assert!(!indist_atom(Atom::new(1, Label::L), Atom::new(1, Label::H)));
/// ```
pub fn indist_atom(a: Atom, b: Atom) -> bool {
    match (a.label, b.label) {
        (Label::L, Label::L) => a.value == b.value,
        (Label::H, Label::H) => true,
        _ => false,
    }
}

/// Memories: same length, pointwise indistinguishable.
///
/// ```
/// use typefuzz_bench_targets::ifc::{indist::indist_mem, Atom};
/// assert!(!indist_mem(&[Atom::default()], &[]));
/// ```
pub fn indist_mem(a: &[Atom], b: &[Atom]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| indist_atom(*x, *y))
}

/// Drops entries from the top until the first return frame labeled `L`, which is kept with
/// everything below it; empty if there is none. What a low observer sees of the stack while the
/// pc is high.
///
/// ```
/// use typefuzz_bench_targets::ifc::{crop_top, Atom, Label, StackEntry::*};
/// let low_ret = Ret(Atom::new(0, Label::L));
/// let stack = [Data(Atom::default()), low_ret, Ret(Atom::new(1, Label::H)), Data(Atom::default())];
/// // The top is the last element.
/// assert_eq!(crop_top(&stack), &stack[..2]);
/// assert!(crop_top(&stack[2..]).is_empty());
/// ```
pub fn crop_top(stack: &[StackEntry]) -> &[StackEntry] {
    match stack
        .iter()
        .rposition(|e| matches!(e, StackEntry::Ret(a) if a.label == Label::L))
    {
        Some(i) => &stack[..=i],
        None => &[],
    }
}

/// Stacks: same shape entry by entry, with indistinguishable atoms.
///
/// ```
/// use typefuzz_bench_targets::ifc::{indist::indist_stack, Atom, Label, StackEntry::*};
/// let h = |v| Atom::new(v, Label::H);
/// assert!(indist_stack(&[Data(h(1))], &[Data(h(2))]));
/// assert!(!indist_stack(&[Data(h(1))], &[Ret(h(1))]));
/// ```
pub fn indist_stack(a: &[StackEntry], b: &[StackEntry]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (StackEntry::Data(x), StackEntry::Data(y))
            | (StackEntry::Ret(x), StackEntry::Ret(y)) => indist_atom(*x, *y),
            _ => false,
        })
}

/// States: equal instruction memories, indistinguishable memories and pcs, and stacks
/// indistinguishable — after [`crop_top`] on both sides when the pc is high.
///
/// ```
/// use typefuzz_bench_targets::ifc::{indist_state, Atom, Label, State};
/// let a = State { pc: Atom::new(0, Label::H), ..State::default() };
/// let b = State { pc: Atom::new(9, Label::H), ..State::default() };
/// assert!(indist_state(&a, &b));
/// ```
pub fn indist_state(a: &State, b: &State) -> bool {
    if !indist_mem(&a.mem, &b.mem) || a.imem != b.imem || !indist_atom(a.pc, b.pc) {
        return false;
    }
    if a.pc.label == Label::H {
        indist_stack(crop_top(&a.stack), crop_top(&b.stack))
    } else {
        indist_stack(&a.stack, &b.stack)
    }
}
