//! Tuples of 1 to 12 components: mutate one component, shrink one component at a time.
//!
//! **Paired mutation.** Some mutations of a component that has a twin (another component of the
//! same type) are replayed on one of its twins, from the same random state: a pair of equal
//! values stays equal, and values that differ a little change alike. Properties over two related
//! inputs (noninterference over indistinguishable states, differential and metamorphic tests,
//! `x == y` implies `f(x) == f(y)`) discard most single-sided mutants of a valid pair, since
//! they change a part both must share: without pairing, the search moves the shared part only by
//! luck. One mutation in [`PAIRED_ONE_IN`](crate::__private::PAIRED_ONE_IN) is paired: most
//! mutants of a relational pair must still move one side alone (a counterexample is usually a
//! difference between the two). Types are compared by [`type_name`](core::any::type_name); a
//! replay on a component of another type would still be an ordinary mutation of it. Never under
//! the FuzzChick-faithful operators.
//!
//! Components are generated one level deeper with an equal share of the size budget
//! ([`split_size`]): a recursive type that branches through a tuple, such as
//! `Node((Box<Tree>, Box<Tree>))`, then stays linear in the size instead of exponential.
//!
//! ```
//! use typefuzz_core::{codec, Context, Mutate, Operator};
//! let mut cx = Context::new(2);
//! let mut t: (u8, bool, String) = cx.generate();
//! let before = t.clone();
//! assert_eq!(cx.mutate(&mut t)[0], Operator::Recursive);
//! assert_ne!(t, before);
//! assert_eq!(codec::from_bytes::<(u8, bool, String)>(&codec::to_bytes(&t)), t);
//! assert_eq!((3u8, true).shrink(&mut cx)[0], (0, true));
//! ```
//!
//! # Shrink order
//!
//! The product order: a candidate replaces one component by a strictly smaller one and keeps
//! the others, so it is smaller component-wise; a product of well-founded orders is well-founded.

use super::vec::mutate_child;
use crate::__private::{paired_field, split_size, MAX_MUTATION_DEPTH};
use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::leaves::Leaves;
use crate::structure::{token, Structure};
use crate::{Context, Mutate, Operator};

/// The position of the `pick`-th `true` in `mutable`.
fn nth_mutable(mutable: &[bool], pick: usize) -> usize {
    mutable
        .iter()
        .enumerate()
        .filter(|(_, &m)| m)
        .nth(pick)
        .map_or(0, |(index, _)| index)
}

/// Pairing groups of a tuple's components ([`paired_field`]): components of one type name share
/// the index of the first of them; a component with a single value (zero-sized) has a group of
/// its own.
fn twin_groups<const N: usize>(mutable: &[bool; N], names: &[&str; N]) -> [u8; N] {
    core::array::from_fn(|i| {
        let first = (0..i).find(|&j| mutable[i] && mutable[j] && names[j] == names[i]);
        first.unwrap_or(i) as u8
    })
}

macro_rules! tuple_impls {
    ($( ($($name:ident $index:tt),+) )+) => {$(
        impl<$($name: Mutate),+> Mutate for ($($name,)+) {
            fn generate(cx: &mut Context) -> Self {
                const ARITY: usize = [$($index),+].len();
                let child = split_size(cx.size(), ARITY);
                ($(crate::__private::generate_field(cx, child, $name::generate),)+)
            }

            /// Mutates one component (recorded as Recursive), chosen among the components that
            /// have more than one value (zero-sized types have one).
            fn mutate(&mut self, cx: &mut Context) {
                let mutable = [$(core::mem::size_of::<$name>() != 0),+];
                let count = mutable.iter().filter(|&&m| m).count();
                if count == 0 || cx.depth() >= MAX_MUTATION_DEPTH {
                    return;
                }
                let target = nth_mutable(&mutable, cx.below(count));
                let names = [$(core::any::type_name::<$name>()),+];
                let twin = paired_field(cx, &twin_groups(&mutable, &names), target);
                let state = cx.rng().get_seed();
                cx.record(Operator::Recursive);
                match target {
                    $($index => mutate_child(&mut self.$index, cx),)+
                    _ => unreachable!("component index out of range"),
                }
                if let Some(twin) = twin {
                    // The same draws on an equal value make the same mutation.
                    cx.rng().seed(state);
                    cx.record(Operator::Paired);
                    match twin {
                        $($index => mutate_child(&mut self.$index, cx),)+
                        _ => unreachable!("component index out of range"),
                    }
                }
            }

            /// Mutates a component through its own `mutate_undoable`: nothing of its own to save.
            fn mutate_undoable(&mut self, cx: &mut Context) {
                self.mutate(cx);
            }

            fn shrink(&self, cx: &mut Context) -> Vec<Self> {
                let mut out = Vec::new();
                $(
                    for candidate in self.$index.shrink(cx) {
                        let mut smaller = self.duplicate();
                        smaller.$index = candidate;
                        out.push(smaller);
                    }
                )+
                out
            }

            /// Each component's [`Mutate::duplicate`].
            fn duplicate(&self) -> Self {
                ($(self.$index.duplicate(),)+)
            }

            fn encode(&self, out: &mut Encoder) {
                $(self.$index.encode(out);)+
            }

            fn decode(input: &mut Decoder<'_>) -> Self {
                ($($name::decode(input),)+)
            }

            fn fingerprint(fingerprint: &mut Fingerprint) {
                fingerprint.name("tuple");
                fingerprint.number([$($index),+].len() as u64);
                $($name::fingerprint(fingerprint);)+
            }

            fn visit_structure(&self, structure: &mut Structure<'_>) {
                const TYPE: u64 = token(stringify!(($($name,)+)));
                $(
                    structure.child(TYPE, $index, &self.$index);
                )+
            }

            fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
                $(
                    self.$index.hash_value(hasher);
                )+
            }

            fn visit_leaves(&mut self, leaves: &mut Leaves<'_>) {
                $(
                    if leaves.is_done() {
                        return;
                    }
                    self.$index.visit_leaves(leaves);
                )+
            }
        }
    )+};
}

tuple_impls! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_mutations_keep_equal_components_equal() {
        let mut cx = Context::new(3).with_max_size(8);
        let (mut paired, mut apart) = (0, 0);
        for _ in 0..4000 {
            let value: Vec<u8> = cx.generate();
            let mut pair = (value.clone(), value);
            let trace = cx.mutate(&mut pair).to_vec();
            if trace.contains(&Operator::Paired) {
                paired += 1;
                assert_eq!(pair.0, pair.1, "{trace:?}");
            } else if pair.0 != pair.1 {
                apart += 1;
            }
        }
        // One in PAIRED_ONE_IN (8): 500 expected.
        assert!((350..=650).contains(&paired), "{paired}");
        assert!(apart > 3000, "the others move one side: {apart}");
    }

    #[test]
    fn only_components_of_one_type_are_paired() {
        let mut cx = Context::new(4).with_max_size(8);
        let mut mixed: (u8, bool, String) = cx.generate();
        let mut faithful = Context::new(4)
            .with_max_size(8)
            .with_operators(crate::Operators::fuzzchick());
        let mut twins: (u16, u16) = (1, 1);
        for _ in 0..2000 {
            assert!(!cx.mutate(&mut mixed).contains(&Operator::Paired));
            assert!(!faithful.mutate(&mut twins).contains(&Operator::Paired));
        }
        // Two of three components share a type: the third never takes part.
        let mut seen = false;
        for _ in 0..2000 {
            let mut triple: (u8, u16, u8) = (0, 0, 0);
            if cx.mutate(&mut triple).contains(&Operator::Paired) {
                seen = true;
                assert_eq!(triple.0, triple.2, "{triple:?}");
                assert_eq!(triple.1, 0, "{triple:?}");
            }
        }
        assert!(seen);
    }

    #[test]
    fn zero_sized_components_are_skipped() {
        let mut cx = Context::new(1);
        let mut pair = ((), 5u8);
        for _ in 0..20 {
            let before = pair;
            cx.mutate(&mut pair);
            assert_ne!(pair, before);
        }
        let mut units = ((), ());
        assert!(cx.mutate(&mut units).is_empty());
    }

    #[test]
    fn shrink_changes_one_component() {
        let mut cx = Context::new(1);
        let candidates = (4u8, true).shrink(&mut cx);
        assert!(candidates.contains(&(0, true)));
        assert!(candidates.contains(&(4, false)));
        assert!(candidates.iter().all(|&(a, b)| (a < 4) == b));
    }
}
