//! `Option<T>` and `Result<T, E>`: the derived-type operator families on the standard enums.
//!
//! `None -> Some(fresh)` is constructor grow, `Some(x) -> None` constructor drop, mutating the
//! payload is recursive, and `Ok <-> Err` with a fresh payload is grow. The families follow the
//! weights in [`Context::operators`] exactly as derived enums do: a family of weight 0 is never
//! used, faithful mode gives each candidate mutant equal probability, and nothing grows at size 0.
//!
//! # Shrink orders
//!
//! `None < Some(x)`, and `Some(x) < Some(y)` when `x < y`; `Ok(_) < Err(_)`, then by payload.
//! Both are well-founded when the payloads' orders are.

use super::pointer::{shrink_wrapped, wrap_each};
use super::vec::{can_descend, generate_child, mutate_child};
use crate::codec::{Decoder, Encoder};
use crate::fingerprint::Fingerprint;
use crate::leaves::Leaves;
use crate::structure::{token, Structure};
use crate::{Context, Mutate, Operator};

/// The family an `Option` or `Result` mutation uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Recursive,
    Drop,
    Grow,
}

/// Picks a family among those that have a candidate here, following the context's weights.
/// Each family has at most one candidate, so "equal probability per candidate" (faithful mode)
/// is equal probability per available family.
fn choose_family(cx: &mut Context, recursive: bool, drop: bool, grow: bool) -> Option<Family> {
    let ops = *cx.operators();
    // No depth budget left: growing would make the value deeper than the budget allows.
    let grow = grow && cx.size() > 0;
    let weight = |available: bool, weight: u32| match (available, ops.faithful) {
        (false, _) => 0,
        (true, true) => u32::from(weight > 0),
        (true, false) => weight,
    };
    let weights = [
        weight(recursive, ops.recursive),
        weight(drop, ops.drop),
        weight(grow, ops.grow),
    ];
    Some(match cx.weighted(&weights)? {
        0 => Family::Recursive,
        1 => Family::Drop,
        _ => Family::Grow,
    })
}

/// `None` at size 0, otherwise `Some` three times out of four with the payload one level deeper.
/// Encodes as a tag byte (`0` for `None`) followed by the payload.
///
/// ```
/// use typefuzz_core::{codec, Context, Mutate, Operator, Operators};
/// let mut cx = Context::new(1).with_operators(Operators { drop: 0, ..Operators::default() });
/// let mut x = Some(5u32);
/// assert_eq!(cx.mutate(&mut x)[0], Operator::Recursive);
/// assert!(x.is_some() && x != Some(5)); // drop is off: the payload was mutated
/// assert_eq!(Some(9u8).shrink(&mut cx)[0], None);
/// assert_eq!(codec::from_bytes::<Option<u8>>(&[1, 7]), Some(7));
/// ```
impl<T: Mutate> Mutate for Option<T> {
    fn generate(cx: &mut Context) -> Self {
        if cx.size() == 0 || cx.chance(1, 4) {
            None
        } else {
            Some(generate_child(cx))
        }
    }

    fn mutate(&mut self, cx: &mut Context) {
        let recursive = self.is_some() && can_descend::<T>(cx);
        match choose_family(cx, recursive, self.is_some(), self.is_none()) {
            Some(Family::Grow) => {
                cx.record(Operator::ConstructorGrow);
                cx.save(self);
                // `Option::replace`, not an assignment, whose drop of the old payload would need an
                // unwind cleanup (see "Unwind cleanups" in `derive_support.rs`).
                drop(self.replace(generate_child(cx)));
            }
            Some(Family::Drop) => {
                cx.record(Operator::ConstructorDrop);
                cx.save(self);
                drop(self.take());
            }
            Some(Family::Recursive) => {
                if let Some(payload) = self {
                    cx.record(Operator::Recursive);
                    mutate_child(payload, cx);
                }
            }
            None => {}
        }
    }

    /// Saves only what it changes itself; elements and payloads save their own changes.
    fn mutate_undoable(&mut self, cx: &mut Context) {
        self.mutate(cx);
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        match self {
            None => Vec::new(),
            Some(payload) => {
                // `vec![None]` would instantiate the macro's boxed-slice path per payload type.
                let mut out = Vec::new();
                out.push(None);
                wrap_each(&mut out, payload.shrink(cx), Some);
                out
            }
        }
    }

    /// The payload's [`Mutate::duplicate`].
    #[allow(clippy::manual_map)] // `map` would be compiled once more per payload type
    fn duplicate(&self) -> Self {
        match self {
            None => None,
            Some(payload) => Some(payload.duplicate()),
        }
    }

    fn encode(&self, out: &mut Encoder) {
        match self {
            None => out.write_tag(0, 2),
            Some(payload) => {
                out.write_tag(1, 2);
                payload.encode(out);
            }
        }
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        match input.read_tag(2) {
            0 => None,
            _ => Some(T::decode(input)),
        }
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("Option");
        T::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        const NONE: u64 = token("Option::None");
        const SOME: u64 = token("Option::Some");
        match self {
            None => structure.node(NONE),
            Some(payload) => {
                structure.node(SOME);
                structure.child(SOME, 0, payload);
            }
        }
    }

    fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
        hasher.write(u64::from(self.is_some()));
        if let Some(payload) = self {
            payload.hash_value(hasher);
        }
    }

    /// The variant (`None` is 0, `Some` 1), then the payload.
    fn visit_leaves(&mut self, leaves: &mut Leaves<'_>) {
        match leaves.variant(u64::from(self.is_some()), 2) {
            // Without assignments, as in `mutate`.
            Some(0) => drop(self.take()),
            Some(_) => {
                let cx = leaves.context();
                let size = cx.size();
                let fresh = crate::__private::generate_field(cx, size, T::generate);
                drop(self.replace(fresh));
            }
            None => {}
        }
        if let Some(payload) = self {
            if !leaves.is_done() {
                payload.visit_leaves(leaves);
            }
        }
    }
}

/// `Ok` or `Err` with equal probability, the payload one level deeper. Mutation switches
/// variant with a fresh payload (grow) or mutates the payload (recursive). Shrinking an `Err`
/// first offers the `Ok` decoded from no bytes (0, empty, ...). Encodes as a tag byte (`0` for `Ok`) and the payload.
///
/// ```
/// use typefuzz_core::{codec, Context, Mutate, Operator, Operators};
/// let mut cx = Context::new(3).with_operators(Operators { grow: 0, ..Operators::default() });
/// let mut r: Result<u8, bool> = Ok(1);
/// for _ in 0..20 {
///     assert_eq!(cx.mutate(&mut r)[0], Operator::Recursive);
///     assert!(r.is_ok()); // grow is off: never switches variant
/// }
/// assert_eq!(codec::from_bytes::<Result<u8, bool>>(&codec::to_bytes(&r)), r);
/// ```
impl<T: Mutate, E: Mutate> Mutate for Result<T, E> {
    fn generate(cx: &mut Context) -> Self {
        if cx.rng().bool() {
            Ok(generate_child(cx))
        } else {
            Err(generate_child(cx))
        }
    }

    fn mutate(&mut self, cx: &mut Context) {
        let recursive = match self {
            Ok(_) => can_descend::<T>(cx),
            Err(_) => can_descend::<E>(cx),
        };
        match choose_family(cx, recursive, false, true) {
            Some(Family::Grow) => {
                cx.record(Operator::ConstructorGrow);
                *self = match self {
                    Ok(_) => Err(generate_child(cx)),
                    Err(_) => Ok(generate_child(cx)),
                };
            }
            Some(Family::Recursive) => {
                cx.record(Operator::Recursive);
                match self {
                    Ok(payload) => mutate_child(payload, cx),
                    Err(payload) => mutate_child(payload, cx),
                }
            }
            Some(Family::Drop) | None => {}
        }
    }

    fn shrink(&self, cx: &mut Context) -> Vec<Self> {
        match self {
            Ok(payload) => shrink_wrapped(payload, cx, Ok),
            Err(payload) => {
                // Decoding no bytes gives the all-zero value (0, empty, `None`, `false`): the
                // simplest `Ok` there is without a shrink order on `T` to search.
                let mut out = Vec::new();
                out.push(Ok(crate::codec::from_bytes(&[])));
                wrap_each(&mut out, payload.shrink(cx), Err);
                out
            }
        }
    }

    fn encode(&self, out: &mut Encoder) {
        match self {
            Ok(payload) => {
                out.write_tag(0, 2);
                payload.encode(out);
            }
            Err(payload) => {
                out.write_tag(1, 2);
                payload.encode(out);
            }
        }
    }

    fn decode(input: &mut Decoder<'_>) -> Self {
        match input.read_tag(2) {
            0 => Ok(T::decode(input)),
            _ => Err(E::decode(input)),
        }
    }

    fn fingerprint(fingerprint: &mut Fingerprint) {
        fingerprint.name("Result");
        T::fingerprint(fingerprint);
        E::fingerprint(fingerprint);
    }

    fn visit_structure(&self, structure: &mut Structure<'_>) {
        const OK: u64 = token("Result::Ok");
        const ERR: u64 = token("Result::Err");
        match self {
            Ok(payload) => {
                structure.node(OK);
                structure.child(OK, 0, payload);
            }
            Err(payload) => {
                structure.node(ERR);
                structure.child(ERR, 0, payload);
            }
        }
    }

    fn hash_value(&self, hasher: &mut crate::mutate::ValueHasher) {
        hasher.write(u64::from(self.is_ok()));
        match self {
            Ok(payload) => payload.hash_value(hasher),
            Err(payload) => payload.hash_value(hasher),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Operators;

    #[test]
    fn faithful_mode_weighs_available_families_equally() {
        let ops = Operators {
            recursive: 100,
            drop: 1,
            ..Operators::fuzzchick()
        };
        let mut cx = Context::new(11).with_operators(ops);
        let mut drops = 0;
        for _ in 0..2000 {
            if choose_family(&mut cx, true, true, false) == Some(Family::Drop) {
                drops += 1;
            }
        }
        assert!((800..1200).contains(&drops), "{drops} drops out of 2000");
    }

    #[test]
    fn nothing_grows_at_size_zero() {
        let mut cx = Context::new(1);
        cx.set_size(0);
        assert_eq!(choose_family(&mut cx, false, false, true), None);
    }
}
