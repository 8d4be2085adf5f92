//! Throughput: properties without precondition, so every generated input is a valid test and
//! tests per second measure the tool alone.
//!
//! Tests per second alone can be gamed by input size (a tool that runs smaller inputs looks
//! faster), so each workload also counts its *nodes* (constructors) and the throughput mode
//! reports nodes per second and the mean node count next to tests per second. Three workloads:
//!
//! - [`mirror_twice`] on the BST workload's trees ([`Tree`], a few nodes each);
//! - [`depth_within_size`] on expression terms ([`Term`], about 50 nodes each);
//! - [`runs_to_completion`] on a stack machine's state ([`Machine`], a `Vec` of a 30-variant
//!   [`Instr`]uction enum, about 50 instructions).
//!
//! Every workload has a quickcheck `Arbitrary` and a proptest strategy
//! written the way users of each write them, sized by the same target size the derived
//! generator gets (`Term`: QuickChick's sized generation, the algorithm `#[derive(Mutate)]`
//! uses; `Machine`: a program length uniform below the size, quickcheck's `Vec` rule).

use proptest::prelude::*;
use quickcheck::{Arbitrary, Gen};

use crate::bst::Tree;
use crate::Verdict;

/// The tree with every node's children swapped.
///
/// ```
/// use typefuzz_bench::{bst::Tree, throughput::mirror};
/// let t = Tree::from_pairs(&[(1, 1), (2, 2)]);
/// assert_eq!(mirror(&t).to_list(), vec![(2, 2), (1, 1)]);
/// ```
pub fn mirror(t: &Tree) -> Tree {
    match t {
        Tree::E => Tree::E,
        Tree::T(l, k, v, r) => Tree::T(Box::new(mirror(r)), *k, *v, Box::new(mirror(l))),
    }
}

/// `mirror(mirror(t)) == t`: always passes.
///
/// ```
/// use typefuzz_bench::{bst::Tree, throughput::mirror_twice, Verdict};
/// assert_eq!(mirror_twice(&Tree::from_pairs(&[(3, 1), (1, 2)])), Verdict::Pass);
/// ```
pub fn mirror_twice(t: &Tree) -> Verdict {
    Verdict::from(mirror(&mirror(t)) == *t)
}

/// An expression term: numbers, variables, and six compound forms.
///
/// ```
/// use typefuzz_bench::throughput::Term;
/// let t = Term::Add(Box::new(Term::Num(1)), Box::new(Term::Var(0)));
/// assert_eq!((t.nodes(), t.depth()), (3, 2));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
#[allow(missing_docs)] // the variants are the usual expression forms
pub enum Term {
    Num(i64),
    Var(u8),
    Neg(Box<Term>),
    Add(Box<Term>, Box<Term>),
    Mul(Box<Term>, Box<Term>),
    Let(u8, Box<Term>, Box<Term>),
    If(Box<Term>, Box<Term>, Box<Term>),
}

impl Term {
    /// Constructors in the term.
    pub fn nodes(&self) -> usize {
        1 + self.children().map(Term::nodes).sum::<usize>()
    }

    /// Constructors on the longest path from the root.
    pub fn depth(&self) -> usize {
        1 + self.children().map(Term::depth).max().unwrap_or(0)
    }

    fn children(&self) -> impl Iterator<Item = &Term> {
        let (a, b, c): (Option<&Term>, Option<&Term>, Option<&Term>) = match self {
            Term::Num(_) | Term::Var(_) => (None, None, None),
            Term::Neg(a) => (Some(a), None, None),
            Term::Add(a, b) | Term::Mul(a, b) | Term::Let(_, a, b) => (Some(a), Some(b), None),
            Term::If(a, b, c) => (Some(a), Some(b), Some(c)),
        };
        a.into_iter().chain(b).chain(c)
    }
}

/// `depth(t) <= nodes(t)`: always passes; two walks over the term.
///
/// ```
/// use typefuzz_bench::{throughput::{depth_within_size, Term}, Verdict};
/// assert_eq!(depth_within_size(&Term::Neg(Box::new(Term::Var(1)))), Verdict::Pass);
/// ```
pub fn depth_within_size(t: &Term) -> Verdict {
    Verdict::from(t.depth() <= t.nodes())
}

/// QuickChick's sized generation, written against quickcheck's [`Gen`]: at size 0 a leaf, else
/// a variant with the compound ones weighted up by the size (at most 16), the size minus one
/// split among the children (what `#[derive(Mutate)]` generates for [`Term`]).
fn sized_term(g: &mut Gen, size: usize) -> Term {
    let pick = |g: &mut Gen, n: usize| usize::arbitrary(g) % n;
    let boost = size.min(16);
    let leaf = size == 0 || pick(g, 2 + 5 * boost) < 2;
    if leaf {
        return if bool::arbitrary(g) {
            Term::Num(i64::arbitrary(g))
        } else {
            Term::Var(u8::arbitrary(g))
        };
    }
    let sub = |g: &mut Gen, parts: usize| Box::new(sized_term(g, (size - 1) / parts));
    match pick(g, 5) {
        0 => Term::Neg(sub(g, 1)),
        1 => Term::Add(sub(g, 2), sub(g, 2)),
        2 => Term::Mul(sub(g, 2), sub(g, 2)),
        3 => Term::Let(u8::arbitrary(g), sub(g, 2), sub(g, 2)),
        _ => Term::If(sub(g, 3), sub(g, 3), sub(g, 3)),
    }
}

/// Terms sized by `g.size()` (see the module docs).
impl Arbitrary for Term {
    fn arbitrary(g: &mut Gen) -> Term {
        sized_term(g, g.size())
    }
}

/// proptest's idiom for a recursive type: `prop_recursive` over the leaves, `depth` levels deep,
/// aiming at `nodes` nodes.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let t = typefuzz_bench::throughput::term_strategy(4, 16)
///     .new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// assert!(t.depth() <= 5);
/// ```
pub fn term_strategy(depth: u32, nodes: u32) -> BoxedStrategy<Term> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(Term::Num),
        any::<u8>().prop_map(Term::Var)
    ];
    leaf.prop_recursive(depth, nodes, 3, |inner| {
        let boxed = || inner.clone().prop_map(Box::new);
        prop_oneof![
            boxed().prop_map(Term::Neg),
            (boxed(), boxed()).prop_map(|(a, b)| Term::Add(a, b)),
            (boxed(), boxed()).prop_map(|(a, b)| Term::Mul(a, b)),
            (any::<u8>(), boxed(), boxed()).prop_map(|(x, a, b)| Term::Let(x, a, b)),
            (boxed(), boxed(), boxed()).prop_map(|(a, b, c)| Term::If(a, b, c)),
        ]
    })
    .boxed()
}

/// One instruction of a small stack machine: 30 variants, most with one operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
#[allow(missing_docs)] // the variants are the usual stack-machine instructions
pub enum Instr {
    Nop,
    Halt,
    Push(i32),
    Pop,
    Dup,
    Swap,
    Over,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Neg,
    And,
    Or,
    Xor,
    Not,
    Shl(u8),
    Shr(u8),
    Load(u8),
    Store(u8),
    Inc(u8),
    Dec(u8),
    Jmp(u16),
    Jz(u16),
    Jnz(u16),
    Call(u16),
    Ret,
    Cmp,
    Out,
}

impl Instr {
    /// Instruction number `tag % 30`, its operand drawn by `operand` when it has one.
    fn from_tag<G>(tag: usize, g: &mut G, operand: impl Fn(&mut G) -> u64) -> Instr {
        use Instr::*;
        const PLAIN: [Instr; 19] = [
            Nop, Halt, Pop, Dup, Swap, Over, Add, Sub, Mul, Div, Rem, Neg, And, Or, Xor, Not, Ret,
            Cmp, Out,
        ];
        let tag = tag % 30;
        if let Some(&plain) = PLAIN.get(tag) {
            return plain;
        }
        let x = operand(g);
        match tag {
            19 => Push(x as i32),
            20 => Shl(x as u8),
            21 => Shr(x as u8),
            22 => Load(x as u8),
            23 => Store(x as u8),
            24 => Inc(x as u8),
            25 => Dec(x as u8),
            26 => Jmp(x as u16),
            27 => Jz(x as u16),
            28 => Jnz(x as u16),
            _ => Call(x as u16),
        }
    }
}

/// A stack machine's state: registers, a program counter and the program.
///
/// ```
/// use typefuzz_bench::throughput::{Instr, Machine};
/// let m = Machine { pc: 0, acc: 0, registers: [0; 4], program: vec![Instr::Push(2), Instr::Halt] };
/// assert_eq!(m.nodes(), 3);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, typefuzz::Mutate)]
pub struct Machine {
    /// Index of the next instruction.
    pub pc: u16,
    /// The accumulator.
    pub acc: i64,
    /// Four general registers.
    pub registers: [i32; 4],
    /// The instructions.
    pub program: Vec<Instr>,
}

impl Machine {
    /// Constructors in the state: the machine and each instruction.
    pub fn nodes(&self) -> usize {
        1 + self.program.len()
    }

    /// Runs the program from `pc` for at most twice its length in steps; returns the steps taken.
    pub fn run(&self) -> usize {
        let (mut pc, mut acc, mut regs) = (usize::from(self.pc), self.acc, self.registers);
        let mut stack = [0i64; 16];
        let mut top = 0usize;
        let len = self.program.len();
        let limit = 2 * len;
        let mut steps = 0;
        while steps < limit {
            let Some(&instr) = self.program.get(pc % len.max(1)) else {
                break;
            };
            steps += 1;
            pc = pc % len + 1;
            let reg = |r: u8| usize::from(r) % 4;
            let mut push = |x: i64| {
                stack[top % 16] = x;
                top += 1;
            };
            match instr {
                Instr::Halt => break,
                Instr::Push(x) => push(i64::from(x)),
                Instr::Dup => push(acc),
                Instr::Pop => top = top.saturating_sub(1),
                Instr::Add => acc = acc.wrapping_add(stack[top.saturating_sub(1) % 16]),
                Instr::Sub => acc = acc.wrapping_sub(stack[top.saturating_sub(1) % 16]),
                Instr::Mul => acc = acc.wrapping_mul(stack[top.saturating_sub(1) % 16]),
                Instr::Div | Instr::Rem => {
                    let d = stack[top.saturating_sub(1) % 16];
                    acc = match (instr, d) {
                        (_, 0) => acc,
                        (Instr::Div, d) => acc.wrapping_div(d),
                        (_, d) => acc.wrapping_rem(d),
                    }
                }
                Instr::Neg => acc = acc.wrapping_neg(),
                Instr::And => acc &= i64::from(regs[0]),
                Instr::Or => acc |= i64::from(regs[1]),
                Instr::Xor => acc ^= i64::from(regs[2]),
                Instr::Not => acc = !acc,
                Instr::Shl(n) => acc = acc.wrapping_shl(u32::from(n)),
                Instr::Shr(n) => acc = acc.wrapping_shr(u32::from(n)),
                Instr::Load(r) => acc = i64::from(regs[reg(r)]),
                Instr::Store(r) => regs[reg(r)] = acc as i32,
                Instr::Inc(r) => regs[reg(r)] = regs[reg(r)].wrapping_add(1),
                Instr::Dec(r) => regs[reg(r)] = regs[reg(r)].wrapping_sub(1),
                Instr::Jmp(t) | Instr::Call(t) => pc = usize::from(t),
                Instr::Jz(t) if acc == 0 => pc = usize::from(t),
                Instr::Jnz(t) if acc != 0 => pc = usize::from(t),
                Instr::Cmp => acc = i64::from(acc > i64::from(regs[3])),
                Instr::Swap | Instr::Over | Instr::Ret | Instr::Out | Instr::Nop => {}
                Instr::Jz(_) | Instr::Jnz(_) => {}
            }
        }
        steps
    }
}

/// The machine never runs more steps than its bound: always passes; one bounded run.
///
/// ```
/// use typefuzz_bench::{throughput::{runs_to_completion, Instr, Machine}, Verdict};
/// let m = Machine { pc: 0, acc: 0, registers: [0; 4], program: vec![Instr::Jmp(0)] };
/// assert_eq!(runs_to_completion(&m), Verdict::Pass);
/// ```
pub fn runs_to_completion(m: &Machine) -> Verdict {
    Verdict::from(m.run() <= 2 * m.program.len())
}

/// A random instruction from quickcheck's [`Gen`]: one draw for the variant, one for its operand.
impl Arbitrary for Instr {
    fn arbitrary(g: &mut Gen) -> Instr {
        let tag = usize::arbitrary(g);
        Instr::from_tag(tag, g, u64::arbitrary)
    }
}

/// quickcheck's derive-free idiom: every field arbitrary, the program a `Vec` (length uniform
/// below `g.size()`).
impl Arbitrary for Machine {
    fn arbitrary(g: &mut Gen) -> Machine {
        Machine {
            pc: u16::arbitrary(g),
            acc: i64::arbitrary(g),
            registers: [
                i32::arbitrary(g),
                i32::arbitrary(g),
                i32::arbitrary(g),
                i32::arbitrary(g),
            ],
            program: Vec::arbitrary(g),
        }
    }
}

/// proptest strategy for machines whose programs are shorter than `size`.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// let m = typefuzz_bench::throughput::machine_strategy(8)
///     .new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// assert!(m.program.len() < 8);
/// ```
pub fn machine_strategy(size: usize) -> impl Strategy<Value = Machine> {
    let instr =
        (0usize..30, any::<u64>()).prop_map(|(tag, x)| Instr::from_tag(tag, &mut (), |_| x));
    (
        any::<u16>(),
        any::<i64>(),
        any::<[i32; 4]>(),
        proptest::collection::vec(instr, 0..size.max(1)),
    )
        .prop_map(|(pc, acc, registers, program)| Machine {
            pc,
            acc,
            registers,
            program,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_instruction_is_reachable_from_quickcheck() {
        let mut g = Gen::from_size_and_seed(10, 1);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..5_000 {
            seen.insert(std::mem::discriminant(&Instr::arbitrary(&mut g)));
        }
        assert_eq!(seen.len(), 30);
    }

    #[test]
    fn sized_terms_grow_with_the_size() {
        let mean = |size| {
            let mut g = Gen::from_size_and_seed(size, 3);
            (0..500)
                .map(|_| Term::arbitrary(&mut g).nodes())
                .sum::<usize>() as f64
                / 500.0
        };
        let (small, large) = (mean(2), mean(64));
        assert!(small < 4.0 && large > 20.0, "{small} {large}");
    }
}
