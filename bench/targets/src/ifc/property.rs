//! Single-step noninterference (SSNI), as QuickChick's `Driver.v` states it.

use super::coverage::{self, Ssni};
use super::indist::{indist_atom, indist_mem, indist_state};
use super::machine::{exec, Label, State};
use super::rules::Rules;
use crate::Verdict;

/// SSNI for the pair `(s1, s2)` under `rules`.
///
/// Discards when `s1` has no instruction at its pc, when the states are distinguishable, or when
/// a state that must step does not. Otherwise: with both pcs low, the successors must be
/// indistinguishable; with both pcs high, if both successors are low they must be
/// indistinguishable, else if only `s1'` is low `s2 ≈ s2'` must hold, else `s1 ≈ s1'`.
///
/// ```
/// use typefuzz_bench_targets::ifc::{ssni, Atom, Instr, Label, Rules, StackEntry, State};
/// use typefuzz_bench_targets::Verdict;
/// let data = |v, l| StackEntry::Data(Atom::new(v, l));
/// // Adding a public value to a secret on top: mutant 8 (result label Lab2) forgets the label
/// // of the top operand (Lab1), so the two runs' sums become distinguishable low values.
/// let s1 = State {
///     imem: vec![Instr::Add],
///     mem: vec![],
///     stack: vec![data(0, Label::L), data(0, Label::H)], // top last
///     pc: Atom::default(),
/// };
/// let s2 = State { stack: vec![data(0, Label::L), data(1, Label::H)], ..s1.clone() };
/// assert_eq!(ssni(&Rules::correct(), &s1, &s2), Verdict::Pass);
/// assert_eq!(ssni(&Rules::with_mutant(Some(8)), &s1, &s2), Verdict::Fail);
/// ```
pub fn ssni(rules: &Rules, s1: &State, s2: &State) -> Verdict {
    let Some(instr) = s1.instr() else {
        coverage::ssni(Ssni::NoInstr);
        return Verdict::Discard;
    };
    if !indist_state(s1, s2) {
        // The reason is label-only work: not computed when labels are off (coverage-only).
        if coverage::recording() {
            coverage::ssni(why_distinguishable(s1, s2));
        }
        return Verdict::Discard;
    }
    coverage::differing(instr, s1, s2);
    match (s1.pc.label, s2.pc.label) {
        (Label::L, Label::L) => {
            coverage::ssni(Ssni::LowLow);
            match (exec(rules, s1), exec(rules, s2)) {
                (Some(n1), Some(n2)) => {
                    coverage::ssni(Ssni::PostLowLow);
                    Verdict::from(indist_state(&n1, &n2))
                }
                _ => {
                    coverage::ssni(Ssni::NoStep);
                    Verdict::Discard
                }
            }
        }
        (Label::H, Label::H) => {
            coverage::ssni(Ssni::HighHigh);
            match (exec(rules, s1), exec(rules, s2)) {
                (Some(n1), Some(n2)) => {
                    let ok = match (n1.pc.label, n2.pc.label) {
                        (Label::L, Label::L) => {
                            coverage::ssni(Ssni::PostLowLow);
                            indist_state(&n1, &n2)
                        }
                        (Label::L, Label::H) => {
                            coverage::ssni(Ssni::PostLowHigh);
                            indist_state(s2, &n2)
                        }
                        _ => {
                            coverage::ssni(Ssni::PostHigh);
                            indist_state(s1, &n1)
                        }
                    };
                    Verdict::from(ok)
                }
                _ => {
                    coverage::ssni(Ssni::NoStep);
                    Verdict::Discard
                }
            }
        }
        // Indistinguishable pcs have equal labels, so mixed labels were discarded above.
        _ => Verdict::Discard,
    }
}

/// The first part of [`indist_state`] that fails, for the coverage label.
fn why_distinguishable(a: &State, b: &State) -> Ssni {
    if a.imem != b.imem {
        Ssni::DiffImem
    } else if !indist_mem(&a.mem, &b.mem) {
        Ssni::DiffMem
    } else if !indist_atom(a.pc, b.pc) {
        Ssni::DiffPc
    } else {
        Ssni::DiffStack
    }
}
