//! Hand-placed coverage labels on the machine and on SSNI: the stand-in for the edge coverage
//! FuzzChick got from AFL when no SanitizerCoverage build is available.
//!
//! Exactly these points are labelled (each a `typefuzz` label, so a run reaching one for the
//! first time is interesting):
//!
//! - **rule outcomes** (in [`Rules::apply`](super::Rules)): for each opcode, either "check
//!   failed" or the pair (result label, new pc label) the rule produced — at most 7 points per
//!   opcode (check failed; result none/L/H × pc L/H);
//! - **stuck instructions** (in [`exec`](super::exec)): the instruction at the pc did not step
//!   (operand pattern, range, `Halt`, or a failed check, which also has its rule label) — one
//!   point per instruction;
//! - **SSNI cases** (in [`ssni`](super::ssni)): which precondition failed (no instruction, or
//!   which part of indistinguishability: instruction memory, memory, pc, stack), which case ran
//!   (low/low, high/high), whether a state did not step, and which postcondition branch was taken
//!   (both successors low, only the first low, neither);
//! - **non-trivial pairs** (in [`ssni`](super::ssni)): for an indistinguishable pair whose states
//!   are not equal, which parts differ (memory, stack, pc value) and under which instruction — 24
//!   points. SSNI says nothing about a pair of equal states (FuzzChick's `(st, st)` seed), so a
//!   user who knows the property marks the pairs that can: this is the one label that is not a
//!   branch of the code, and the README says so.
//!
//! These are the branches of the step function and of the property, as edge coverage would see
//! them, except that a rule outcome is per opcode and per label value, which edge coverage only
//! sees where the compiler inlined the rule evaluation into each instruction's arm. No label
//! depends on integer values (no value profile). Outside a typefuzz run hitting a label records
//! nothing; the `no-labels` ablation switches the feedback off in [`typefuzz::FeedbackSources`].
//!
//! **Coverage-only runs do not execute this module.** Under a SanitizerCoverage build the code
//! here is instrumented like the machine, and its branches (one per rule outcome, one per
//! differing part) would hand edge coverage the very distinctions the labels add. The
//! coverage-only line therefore switches recording off for the thread ([`set_recording`]): every
//! function here then returns at its first branch, whose direction never changes during the run,
//! so coverage sees only the machine and the property. [`Recording::Branches`] keeps the labels
//! that are branches of the code and drops the non-trivial-pair hint (the `typefuzz-no-hint`
//! ablation).

use std::cell::Cell;

use std::sync::OnceLock;

use typefuzz::feedback::labels::Label as CoverLabel;

use super::machine::{Instr, Label, State};
use super::rules::Opcode;

/// Outcomes of a rule, in label order: check failed, then (result, pc).
const RULE_OUTCOMES: usize = 7;

fn rule_labels() -> &'static [CoverLabel] {
    static LABELS: OnceLock<Vec<CoverLabel>> = OnceLock::new();
    LABELS.get_or_init(|| {
        let mut labels = Vec::new();
        for op in Opcode::ALL {
            labels.push(leak(format!("rule {op:?}: check failed")));
            for result in ["none", "L", "H"] {
                for pc in ["L", "H"] {
                    labels.push(leak(format!("rule {op:?}: result {result}, pc {pc}")));
                }
            }
        }
        labels
    })
}

fn stuck_labels() -> &'static [CoverLabel] {
    static LABELS: OnceLock<Vec<CoverLabel>> = OnceLock::new();
    LABELS.get_or_init(|| {
        [
            "Nop", "Push", "BCall", "BRet", "Add", "Load", "Store", "Halt",
        ]
        .iter()
        .map(|name| leak(format!("exec {name}: no step")))
        .collect()
    })
}

fn differ_labels() -> &'static [CoverLabel] {
    static LABELS: OnceLock<Vec<CoverLabel>> = OnceLock::new();
    LABELS.get_or_init(|| {
        let mut labels = Vec::new();
        for name in INSTR_NAMES {
            for part in ["mem", "stack", "pc"] {
                labels.push(leak(format!("ssni: valid pair, {part} differs at {name}")));
            }
        }
        labels
    })
}

const INSTR_NAMES: [&str; 8] = [
    "Nop", "Push", "BCall", "BRet", "Add", "Load", "Store", "Halt",
];

fn instr_index(instr: Instr) -> usize {
    match instr {
        Instr::Nop => 0,
        Instr::Push(_) => 1,
        Instr::BCall(_) => 2,
        Instr::BRet => 3,
        Instr::Add => 4,
        Instr::Load => 5,
        Instr::Store => 6,
        Instr::Halt => 7,
    }
}

/// Records which parts of an indistinguishable pair differ, under the instruction at the pc.
#[inline]
pub(crate) fn differing(instr: Instr, a: &State, b: &State) {
    if RECORDING.with(Cell::get) != Recording::All {
        return;
    }
    let parts = [a.mem != b.mem, a.stack != b.stack, a.pc.value != b.pc.value];
    for (k, differs) in parts.into_iter().enumerate() {
        if differs {
            differ_labels()[instr_index(instr) * 3 + k].hit();
        }
    }
}

/// Which hand-placed labels a thread records (see [`record_labels`](super::record_labels)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recording {
    /// None: the coverage-only line.
    Off,
    /// The code's branches (rule outcomes, stuck instructions, SSNI cases), not the hint.
    Branches,
    /// Every label, the hint included (the default).
    All,
}

thread_local! {
    /// Which labels this thread records (see the module docs).
    static RECORDING: Cell<Recording> = const { Cell::new(Recording::All) };
}

/// Sets which labels the current thread records: [`Recording::All`] by default, `Off` for the
/// coverage-only line (whose edge coverage must not see the label bookkeeping's branches).
///
/// ```
/// use typefuzz_bench_targets::ifc::{record_labels, Recording};
/// record_labels(Recording::Off);
/// record_labels(Recording::All);
/// ```
pub fn set_recording(recording: Recording) {
    RECORDING.with(|r| r.set(recording));
}

/// Whether the current thread records labels.
#[inline]
pub(crate) fn recording() -> bool {
    RECORDING.with(Cell::get) != Recording::Off
}

fn leak(name: String) -> CoverLabel {
    // A few dozen names, created once per process.
    CoverLabel::new(Box::leak(name.into_boxed_str()))
}

/// Records a rule's outcome: `None` if its check failed.
#[inline]
pub(crate) fn rule(op: Opcode, outcome: Option<(Option<Label>, Label)>) {
    if !recording() {
        return;
    }
    let k = match outcome {
        None => 0,
        Some((result, pc)) => {
            let r = match result {
                None => 0,
                Some(Label::L) => 1,
                Some(Label::H) => 2,
            };
            1 + r * 2 + (pc == Label::H) as usize
        }
    };
    rule_labels()[op as usize * RULE_OUTCOMES + k].hit();
}

/// Records that `instr` did not step.
#[inline]
pub(crate) fn stuck(instr: Instr) {
    if !recording() {
        return;
    }
    stuck_labels()[instr_index(instr)].hit();
}

/// SSNI's branches.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ssni {
    NoInstr,
    DiffImem,
    DiffMem,
    DiffPc,
    DiffStack,
    LowLow,
    HighHigh,
    NoStep,
    PostLowLow,
    PostLowHigh,
    PostHigh,
}

/// Records an SSNI branch.
#[inline]
pub(crate) fn ssni(case: Ssni) {
    if !recording() {
        return;
    }
    match case {
        Ssni::NoInstr => typefuzz::cover!("ssni: no instruction"),
        Ssni::DiffImem => typefuzz::cover!("ssni: imem differs"),
        Ssni::DiffMem => typefuzz::cover!("ssni: mem distinguishable"),
        Ssni::DiffPc => typefuzz::cover!("ssni: pc distinguishable"),
        Ssni::DiffStack => typefuzz::cover!("ssni: stack distinguishable"),
        Ssni::LowLow => typefuzz::cover!("ssni: low pcs"),
        Ssni::HighHigh => typefuzz::cover!("ssni: high pcs"),
        Ssni::NoStep => typefuzz::cover!("ssni: a state does not step"),
        Ssni::PostLowLow => typefuzz::cover!("ssni: successors low"),
        Ssni::PostLowHigh => typefuzz::cover!("ssni: only first successor low"),
        Ssni::PostHigh => typefuzz::cover!("ssni: first successor high"),
    }
}
