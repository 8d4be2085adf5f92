//! The rule table and the 20 rule-table mutants derived from it as QuickChick's `Mutate.v`
//! derives them.
//!
//! A rule is `(check, result label, pc label)` over label variables: `Lab1..Lab3` (the
//! instruction's operand labels, fixed per opcode in [`exec`](super::exec)) and `LabPC`. Every
//! label expression of the correct table is a join of variables (the empty join is ⊥) and every
//! check is `true` or a flow `join ⊑ join`, so those two shapes are all this module represents.
//!
//! **Mutants.** For each opcode in the order BCall, BRet, Nop, Push, Add, Load, Store: (a) split
//! the check into atomic flows, one per variable of each left-hand side, and drop each atom in
//! turn; (b) drop each variable of the result label in turn (nothing if it is ⊥ or absent);
//! (c) the same for the pc label. That yields exactly [`MUTANT_COUNT`] = 20 tables.

use super::machine::Label;
use std::fmt;

/// The number of rule-table mutants.
///
/// ```
/// assert_eq!(typefuzz_bench_targets::ifc::MUTANT_COUNT, 20);
/// ```
pub const MUTANT_COUNT: usize = 20;

/// The opcodes that have a rule, in `Mutate.v`'s order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opcode {
    /// `BCall`: Lab1 = label of the call target.
    BCall,
    /// `BRet`: Lab1 = label of the return frame, Lab2 = label of the returned value.
    BRet,
    /// `Nop`.
    Nop,
    /// `Push`.
    Push,
    /// `Add`: Lab1, Lab2 = labels of the two operands (top first).
    Add,
    /// `Load`: Lab1 = label of the memory cell, Lab2 = label of the pointer.
    Load,
    /// `Store`: Lab1 = pointer, Lab2 = stored value, Lab3 = the overwritten cell.
    Store,
}

impl Opcode {
    /// All opcodes in `Mutate.v`'s order.
    pub const ALL: [Opcode; 7] = [
        Opcode::BCall,
        Opcode::BRet,
        Opcode::Nop,
        Opcode::Push,
        Opcode::Add,
        Opcode::Load,
        Opcode::Store,
    ];
}

/// A label variable of a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    /// The first operand label.
    Lab1,
    /// The second operand label.
    Lab2,
    /// The third operand label.
    Lab3,
    /// The label of the current pc.
    LabPc,
}

/// A join of label variables, in source order; the empty join is ⊥.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Join(pub Vec<Var>);

impl Join {
    fn eval(&self, labs: [Label; 3], pc: Label) -> Label {
        self.0.iter().fold(Label::L, |acc, v| {
            acc.join(match v {
                Var::Lab1 => labs[0],
                Var::Lab2 => labs[1],
                Var::Lab3 => labs[2],
                Var::LabPc => pc,
            })
        })
    }

    /// The joins with one variable dropped, first variable first.
    fn weakenings(&self) -> Vec<Join> {
        (0..self.0.len())
            .map(|i| {
                let mut vars = self.0.clone();
                vars.remove(i);
                Join(vars)
            })
            .collect()
    }
}

/// `lhs ⊑ rhs`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Flow {
    /// The joined left-hand side.
    pub lhs: Join,
    /// The joined right-hand side.
    pub rhs: Join,
}

/// A rule: the check (a conjunction of flows, `true` when empty), the optional result label and
/// the new pc label.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// Conjunction of flows; empty = `true`.
    pub check: Vec<Flow>,
    /// The result label, if the instruction produces a value.
    pub result: Option<Join>,
    /// The new pc label.
    pub pc: Join,
}

/// A whole rule table: one rule per [`Opcode`].
///
/// ```
/// use typefuzz_bench_targets::ifc::Rules;
/// assert_ne!(Rules::with_mutant(None), Rules::with_mutant(Some(0)));
/// assert_eq!(Rules::mutants().len(), 20);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    table: [Rule; 7],
}

fn join(vars: &[Var]) -> Join {
    Join(vars.to_vec())
}

impl Rules {
    /// The correct table (QuickChick's `default_table`).
    ///
    /// ```
    /// use typefuzz_bench_targets::ifc::Rules;
    /// assert_eq!(Rules::correct(), Rules::with_mutant(None));
    /// ```
    pub fn correct() -> Rules {
        use Var::*;
        let rule = |check: Vec<Flow>, result: Option<Join>, pc: Join| Rule { check, result, pc };
        Rules {
            table: [
                // BCall: TRUE, LabPC, Lab1 ⊔ LabPC
                rule(vec![], Some(join(&[LabPc])), join(&[Lab1, LabPc])),
                // BRet: TRUE, Lab2 ⊔ LabPC, Lab1
                rule(vec![], Some(join(&[Lab2, LabPc])), join(&[Lab1])),
                // Nop: TRUE, (none), LabPC
                rule(vec![], None, join(&[LabPc])),
                // Push: TRUE, ⊥, LabPC
                rule(vec![], Some(join(&[])), join(&[LabPc])),
                // Add: TRUE, Lab1 ⊔ Lab2, LabPC
                rule(vec![], Some(join(&[Lab1, Lab2])), join(&[LabPc])),
                // Load: TRUE, Lab1 ⊔ Lab2, LabPC
                rule(vec![], Some(join(&[Lab1, Lab2])), join(&[LabPc])),
                // Store: (Lab1 ⊔ LabPC) ⊑ Lab3, LabPC ⊔ Lab1 ⊔ Lab2, LabPC
                rule(
                    vec![Flow {
                        lhs: join(&[Lab1, LabPc]),
                        rhs: join(&[Lab3]),
                    }],
                    Some(join(&[LabPc, Lab1, Lab2])),
                    join(&[LabPc]),
                ),
            ],
        }
    }

    /// The correct table for `None`, mutant `i` (0-based, `i < 20`) for `Some(i)`.
    ///
    /// # Panics
    ///
    /// If `i >= MUTANT_COUNT`.
    ///
    /// ```
    /// use typefuzz_bench_targets::ifc::Rules;
    /// assert_eq!(Rules::with_mutant(Some(6)).to_string().lines().count(), 7);
    /// ```
    pub fn with_mutant(mutant: Option<usize>) -> Rules {
        match mutant {
            None => Rules::correct(),
            Some(i) => {
                let mut all = Rules::mutants();
                assert!(
                    i < all.len(),
                    "IFC mutant index {i} out of range 0..{MUTANT_COUNT}"
                );
                all.swap_remove(i).1
            }
        }
    }

    /// All mutants in `Mutate.v`'s order, each with a description such as
    /// `"BCall pc: Lab1 ⊔ LabPC -> LabPC"`.
    ///
    /// ```
    /// use typefuzz_bench_targets::ifc::Rules;
    /// assert_eq!(Rules::mutants()[0].0, "BCall result: LabPC -> ⊥");
    /// ```
    pub fn mutants() -> Vec<(String, Rules)> {
        let correct = Rules::correct();
        let mut out = Vec::new();
        for (op_index, op) in Opcode::ALL.iter().enumerate() {
            let rule = &correct.table[op_index];
            let mut push = |part: &str, from: String, to: String, new_rule: Rule| {
                let mut rules = correct.clone();
                rules.table[op_index] = new_rule;
                out.push((format!("{op:?} {part}: {from} -> {to}"), rules));
            };
            // (a) the check, split into atomic flows, one atom dropped at a time.
            let atoms: Vec<Flow> = rule
                .check
                .iter()
                .flat_map(|f| {
                    f.lhs.0.iter().map(|&v| Flow {
                        lhs: Join(vec![v]),
                        rhs: f.rhs.clone(),
                    })
                })
                .collect();
            for i in 0..atoms.len() {
                let mut kept = atoms.clone();
                kept.remove(i);
                let from = show_check(&rule.check);
                let to = show_check(&kept);
                push(
                    "check",
                    from,
                    to,
                    Rule {
                        check: kept,
                        ..rule.clone()
                    },
                );
            }
            // (b) the result label, (c) the pc label.
            if let Some(result) = &rule.result {
                for weaker in result.weakenings() {
                    let new_rule = Rule {
                        result: Some(weaker.clone()),
                        ..rule.clone()
                    };
                    push("result", result.to_string(), weaker.to_string(), new_rule);
                }
            }
            for weaker in rule.pc.weakenings() {
                let new_rule = Rule {
                    pc: weaker.clone(),
                    ..rule.clone()
                };
                push("pc", rule.pc.to_string(), weaker.to_string(), new_rule);
            }
        }
        out
    }

    /// Applies the rule of `op` to the operand labels and the pc label: `None` if the check
    /// fails, else the result label (if the rule has one) and the new pc label.
    pub(crate) fn apply(
        &self,
        op: Opcode,
        labs: [Label; 3],
        pc: Label,
    ) -> Option<(Option<Label>, Label)> {
        let rule = &self.table[op as usize];
        let allowed = rule
            .check
            .iter()
            .all(|f| f.lhs.eval(labs, pc).flows_to(f.rhs.eval(labs, pc)));
        let outcome = if allowed {
            let result = rule.result.as_ref().map(|r| r.eval(labs, pc));
            Some((result, rule.pc.eval(labs, pc)))
        } else {
            None
        };
        super::coverage::rule(op, outcome);
        outcome
    }
}

fn show_check(check: &[Flow]) -> String {
    if check.is_empty() {
        return "true".to_string();
    }
    let atoms: Vec<String> = check
        .iter()
        .map(|f| format!("{} ⊑ {}", f.lhs, f.rhs))
        .collect();
    atoms.join(" ∧ ")
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Var::Lab1 => "Lab1",
            Var::Lab2 => "Lab2",
            Var::Lab3 => "Lab3",
            Var::LabPc => "LabPC",
        })
    }
}

impl fmt::Display for Join {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("⊥");
        }
        let vars: Vec<String> = self.0.iter().map(Var::to_string).collect();
        f.write_str(&vars.join(" ⊔ "))
    }
}

impl fmt::Display for Rules {
    /// One line per opcode: `Op: check, result, pc`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (op, rule) in Opcode::ALL.iter().zip(&self.table) {
            let result = rule
                .result
                .as_ref()
                .map_or("__".to_string(), Join::to_string);
            writeln!(
                f,
                "{op:?}: {}, {result}, {}",
                show_check(&rule.check),
                rule.pc
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The descriptions must match the published mutant table (FuzzChick's 20 rule-table
    /// mutants, in MUTAGEN's numbering), row by row.
    #[test]
    fn mutants_match_the_published_table() {
        let expected = [
            "BCall result: LabPC -> ⊥",
            "BCall pc: Lab1 ⊔ LabPC -> LabPC",
            "BCall pc: Lab1 ⊔ LabPC -> Lab1",
            "BRet result: Lab2 ⊔ LabPC -> LabPC",
            "BRet result: Lab2 ⊔ LabPC -> Lab2",
            "BRet pc: Lab1 -> ⊥",
            "Nop pc: LabPC -> ⊥",
            "Push pc: LabPC -> ⊥",
            "Add result: Lab1 ⊔ Lab2 -> Lab2",
            "Add result: Lab1 ⊔ Lab2 -> Lab1",
            "Add pc: LabPC -> ⊥",
            "Load result: Lab1 ⊔ Lab2 -> Lab2",
            "Load result: Lab1 ⊔ Lab2 -> Lab1",
            "Load pc: LabPC -> ⊥",
            "Store check: Lab1 ⊔ LabPC ⊑ Lab3 -> LabPC ⊑ Lab3",
            "Store check: Lab1 ⊔ LabPC ⊑ Lab3 -> Lab1 ⊑ Lab3",
            "Store result: LabPC ⊔ Lab1 ⊔ Lab2 -> Lab1 ⊔ Lab2",
            "Store result: LabPC ⊔ Lab1 ⊔ Lab2 -> LabPC ⊔ Lab2",
            "Store result: LabPC ⊔ Lab1 ⊔ Lab2 -> LabPC ⊔ Lab1",
            "Store pc: LabPC -> ⊥",
        ];
        let names: Vec<String> = Rules::mutants().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, expected);
        assert_eq!(names.len(), MUTANT_COUNT);
    }

    #[test]
    fn store_check_is_enforced() {
        let rules = Rules::correct();
        let [l, h] = [Label::L, Label::H];
        // A high pointer may not be written into a low cell.
        assert_eq!(rules.apply(Opcode::Store, [h, l, l], l), None);
        assert_eq!(rules.apply(Opcode::Store, [l, l, l], h), None);
        assert_eq!(rules.apply(Opcode::Store, [l, h, l], l), Some((Some(h), l)));
    }
}
