//! States of the stack machine and its step function [`exec`].

use super::rules::{Opcode, Rules};

/// A security label of the two-point lattice `L ⊑ H`; ⊥ is `L`.
///
/// ```
/// use typefuzz_bench_targets::ifc::Label;
/// assert_eq!(Label::L.join(Label::H), Label::H);
/// assert!(Label::L.flows_to(Label::H) && !Label::H.flows_to(Label::L));
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, typefuzz::Mutate, arbitrary::Arbitrary,
)]
pub enum Label {
    /// Low: public.
    #[default]
    L,
    /// High: secret.
    H,
}

impl Label {
    /// The least upper bound `self ⊔ other`.
    ///
    /// ```
    /// use typefuzz_bench_targets::ifc::Label;
    /// assert_eq!(Label::L.join(Label::L), Label::L);
    /// ```
    pub fn join(self, other: Label) -> Label {
        if self == Label::H || other == Label::H {
            Label::H
        } else {
            Label::L
        }
    }

    /// Whether `self ⊑ other`.
    ///
    /// ```
    /// use typefuzz_bench_targets::ifc::Label;
    /// assert!(Label::H.flows_to(Label::H));
    /// ```
    pub fn flows_to(self, other: Label) -> bool {
        self == Label::L || other == Label::H
    }
}

/// A labeled integer.
///
/// ```
/// use typefuzz_bench_targets::ifc::{Atom, Label};
/// let a = Atom::new(3, Label::H);
/// assert_eq!((a.value, a.label), (3, Label::H));
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, typefuzz::Mutate, arbitrary::Arbitrary,
)]
pub struct Atom {
    /// The integer (Coq's `Z`).
    pub value: i64,
    /// Its label.
    pub label: Label,
}

impl Atom {
    /// `value @ label`.
    ///
    /// ```
    /// use typefuzz_bench_targets::ifc::{Atom, Label};
    /// assert_eq!(Atom::new(0, Label::L), Atom::default());
    /// ```
    pub fn new(value: i64, label: Label) -> Atom {
        Atom { value, label }
    }
}

/// An instruction.
///
/// `Halt` is the FuzzChick branch's extra instruction: it has no step rule (a state at `Halt`
/// never steps, so SSNI discards it) and no rule-table mutant. It is kept so the state space is
/// the one FuzzChick fuzzed, and for end-to-end noninterference later.
///
/// ```
/// use typefuzz_bench_targets::ifc::{exec, Atom, Instr, Label, Rules, State};
/// let st = State { imem: vec![Instr::Halt], mem: vec![], stack: vec![], pc: Atom::default() };
/// assert_eq!(exec(&Rules::with_mutant(None), &st), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, typefuzz::Mutate, arbitrary::Arbitrary)]
pub enum Instr {
    /// Does nothing.
    Nop,
    /// Pushes the integer with the rule's result label.
    Push(i64),
    /// Calls the address on top of the stack; the argument says how many entries below it stay
    /// above the return frame.
    BCall(i64),
    /// Returns to the nearest return frame, keeping the top value.
    BRet,
    /// Adds the two top values.
    Add,
    /// Replaces the address on top by the memory cell it points to.
    Load,
    /// Pops an address and a value and writes the value to memory.
    Store,
    /// Stops the machine (never steps).
    Halt,
}

/// An entry of the operand stack.
///
/// ```
/// use typefuzz_bench_targets::ifc::{Atom, StackEntry};
/// assert_eq!(StackEntry::Data(Atom::default()).atom(), Atom::default());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, typefuzz::Mutate, arbitrary::Arbitrary)]
pub enum StackEntry {
    /// An operand.
    Data(Atom),
    /// A return frame marker holding the return pc.
    Ret(Atom),
}

impl StackEntry {
    /// The atom inside, whatever the kind of entry.
    ///
    /// ```
    /// use typefuzz_bench_targets::ifc::{Atom, Label, StackEntry};
    /// assert_eq!(StackEntry::Ret(Atom::new(1, Label::H)).atom().value, 1);
    /// ```
    pub fn atom(self) -> Atom {
        match self {
            StackEntry::Data(a) | StackEntry::Ret(a) => a,
        }
    }
}

/// A machine state `(imem, mem, stack, pc)`.
///
/// ```
/// use typefuzz_bench_targets::ifc::{Instr, State};
/// let st = State { imem: vec![Instr::Nop], ..State::default() };
/// assert_eq!(st.instr(), Some(Instr::Nop));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, typefuzz::Mutate, arbitrary::Arbitrary)]
pub struct State {
    /// Instruction memory, indexed by the pc value.
    pub imem: Vec<Instr>,
    /// Data memory.
    pub mem: Vec<Atom>,
    /// Operand stack; the **last** element is the top.
    pub stack: Vec<StackEntry>,
    /// Program counter; its label is the pc label.
    pub pc: Atom,
}

impl State {
    /// The instruction at the pc, if the pc is in range.
    ///
    /// ```
    /// use typefuzz_bench_targets::ifc::State;
    /// assert_eq!(State::default().instr(), None);
    /// ```
    pub fn instr(&self) -> Option<Instr> {
        nth(&self.imem, self.pc.value).copied()
    }
}

/// `l[n]` for a non-negative in-range `n` (Coq's `nth` on `Z`).
fn nth<T>(l: &[T], n: i64) -> Option<&T> {
    usize::try_from(n).ok().and_then(|i| l.get(i))
}

/// The top entry if it is `Data`.
fn pop_data(stack: &mut Vec<StackEntry>) -> Option<Atom> {
    match stack.last() {
        Some(&StackEntry::Data(a)) => {
            stack.pop();
            Some(a)
        }
        _ => None,
    }
}

/// One step of the machine under `rules`; `None` when no rule applies (unknown pattern,
/// out-of-range pc or address, `Halt`, or a failed rule check).
///
/// Total and linear in the size of the state.
///
/// ```
/// use typefuzz_bench_targets::ifc::{exec, Atom, Instr, Label, Rules, StackEntry, State};
/// let st = State { imem: vec![Instr::Push(5)], ..State::default() };
/// let next = exec(&Rules::with_mutant(None), &st).unwrap();
/// assert_eq!(next.stack, vec![StackEntry::Data(Atom::new(5, Label::L))]);
/// assert_eq!(next.pc, Atom::new(1, Label::L));
/// ```
pub fn exec(rules: &Rules, st: &State) -> Option<State> {
    let instr = st.instr()?;
    let next = step(rules, st, instr);
    if next.is_none() {
        super::coverage::stuck(instr);
    }
    next
}

fn step(rules: &Rules, st: &State, instr: Instr) -> Option<State> {
    let Atom {
        value: xpc,
        label: lpc,
    } = st.pc;
    let next_pc = xpc.checked_add(1)?;
    let mut stack = st.stack.clone();
    let mut mem = st.mem.clone();
    let pc = match instr {
        Instr::Nop => {
            let (_, rpc) = rules.apply(Opcode::Nop, [Label::L; 3], lpc)?;
            Atom::new(next_pc, rpc)
        }
        Instr::Push(n) => {
            let (rl, rpc) = rules.apply(Opcode::Push, [Label::L; 3], lpc)?;
            stack.push(StackEntry::Data(Atom::new(n, rl?)));
            Atom::new(next_pc, rpc)
        }
        Instr::BCall(n) => {
            let target = pop_data(&mut stack)?;
            let (rl, rpc) = rules.apply(Opcode::BCall, [target.label, Label::L, Label::L], lpc)?;
            // The return frame goes below the `n` argument entries, which must all be data.
            let n = usize::try_from(n).ok()?;
            let at = stack.len().checked_sub(n)?;
            if !stack[at..].iter().all(|e| matches!(e, StackEntry::Data(_))) {
                return None;
            }
            stack.insert(at, StackEntry::Ret(Atom::new(next_pc, rl?)));
            Atom::new(target.value, rpc)
        }
        Instr::BRet => {
            let v = pop_data(&mut stack)?;
            let at = stack
                .iter()
                .rposition(|e| matches!(e, StackEntry::Ret(_)))?;
            let ret = stack[at].atom();
            let (rl, rpc) = rules.apply(Opcode::BRet, [ret.label, v.label, Label::L], lpc)?;
            stack.truncate(at);
            stack.push(StackEntry::Data(Atom::new(v.value, rl?)));
            Atom::new(ret.value, rpc)
        }
        Instr::Add => {
            let x = pop_data(&mut stack)?;
            let y = pop_data(&mut stack)?;
            let (rl, rpc) = rules.apply(Opcode::Add, [x.label, y.label, Label::L], lpc)?;
            stack.push(StackEntry::Data(Atom::new(
                x.value.wrapping_add(y.value),
                rl?,
            )));
            Atom::new(next_pc, rpc)
        }
        Instr::Load => {
            let p = pop_data(&mut stack)?;
            let cell = *nth(&mem, p.value)?;
            let (rl, rpc) = rules.apply(Opcode::Load, [cell.label, p.label, Label::L], lpc)?;
            stack.push(StackEntry::Data(Atom::new(cell.value, rl?)));
            Atom::new(next_pc, rpc)
        }
        Instr::Store => {
            let p = pop_data(&mut stack)?;
            let v = pop_data(&mut stack)?;
            let cell = *nth(&mem, p.value)?;
            let (rl, rpc) = rules.apply(Opcode::Store, [p.label, v.label, cell.label], lpc)?;
            // In range: `nth` succeeded on the same index.
            mem[p.value as usize] = Atom::new(v.value, rl?);
            Atom::new(next_pc, rpc)
        }
        Instr::Halt => return None,
    };
    Some(State {
        imem: st.imem.clone(),
        mem,
        stack,
        pc,
    })
}
