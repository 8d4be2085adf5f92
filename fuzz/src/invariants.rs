//! The contract checks the self-fuzzing targets assert (the `Mutate` trait's contract, items
//! 2-5). Each panics with an explanation when a contract is broken.

use std::fmt::Debug;

use typefuzz::codec::{from_bytes, to_bytes};
use typefuzz::{Context, Mutate};

/// Decoding `bytes` never panics, and the decoded value's encoding is canonical: decoding it again
/// gives a value with the same encoding. Returns the decoded value.
pub fn decode_is_total_and_canonical<T: Mutate + Debug>(bytes: &[u8]) -> T {
    let value: T = from_bytes(bytes);
    encoding_is_stable(&value, "decoded value");
    value
}

/// `to_bytes(from_bytes(to_bytes(v))) == to_bytes(v)`: for types whose `PartialEq` is not
/// reflexive (floats) this is the round trip that can be checked.
pub fn encoding_is_stable<T: Mutate + Debug>(value: &T, what: &str) {
    let encoded = to_bytes(value);
    let again = to_bytes(&from_bytes::<T>(&encoded));
    assert_eq!(
        encoded, again,
        "{what}: re-encoding the decoded encoding changed it; value: {value:?}"
    );
}

/// `from_bytes(to_bytes(v)) == v`.
pub fn round_trips<T: Mutate + Debug + PartialEq>(value: &T, what: &str) {
    let back: T = from_bytes(&to_bytes(value));
    assert_eq!(&back, value, "{what}: decode(encode(v)) != v");
}

/// The derive's contract on `value` at the context seeded with `seed`:
/// - one mutation records an operator (contract item 2; every type checked here has more than
///   one value) and its result round-trips;
/// - every shrink candidate differs from `value` and round-trips;
/// - a value generated at a small size round-trips;
/// - `visit_subterms` and `visit_subterms_mut` see the same number of subterms, each of which
///   round-trips.
///
/// `same` compares two values (`PartialEq` where it is reflexive, encodings otherwise).
pub fn mutate_contract<T: Mutate + Debug>(value: &T, seed: u64, same: fn(&T, &T) -> bool) {
    let check = |v: &T, what: &str| {
        encoding_is_stable(v, what);
        let back: T = from_bytes(&to_bytes(v));
        assert!(same(&back, v), "{what}: decode(encode(v)) != v for {v:?}");
    };
    check(value, "input");

    let mut cx = Context::new(seed).with_max_size(8);
    let mut mutant = value.clone();
    let applied = cx.mutate(&mut mutant).len();
    assert!(applied > 0, "a mutation recorded no operator on {value:?}");
    check(&mutant, "mutant");

    let original = to_bytes(value);
    for candidate in value.shrink(&mut cx) {
        assert_ne!(
            to_bytes(&candidate),
            original,
            "shrink returned the value itself: {value:?}"
        );
        check(&candidate, "shrink candidate");
    }

    let size = (seed % 6) as usize;
    let generated: T = cx.generate_sized(size);
    check(&generated, "generated value");

    let mut seen = 0usize;
    value.visit_subterms(&mut |subterm| {
        seen += 1;
        check(subterm, "subterm");
    });
    let mut seen_mut = 0usize;
    value.clone().visit_subterms_mut(&mut |_| seen_mut += 1);
    assert_eq!(
        seen, seen_mut,
        "visit_subterms and visit_subterms_mut disagree on {value:?}"
    );
}

/// Contract item 2: one mutation records at least one operator (also asserted by
/// [`mutate_contract`]).
pub fn mutate_records_an_operator<T: Mutate + Debug>(value: &T, seed: u64) -> bool {
    let mut cx = Context::new(seed).with_max_size(8);
    !cx.mutate(&mut value.clone()).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::{Expr, Program};

    #[test]
    fn the_checks_pass_on_generated_values() {
        for seed in 0..200u64 {
            let mut cx = Context::new(seed);
            let expr: Expr = cx.generate();
            mutate_contract(&expr, seed, |a, b| a == b);
            let program: Program = cx.generate();
            mutate_contract(&program, seed, |a, b| a == b);
        }
    }

    #[test]
    #[should_panic(expected = "decode(encode(v)) != v")]
    fn a_broken_round_trip_is_caught() {
        // `same` that never holds stands in for a codec that loses information.
        mutate_contract(&5u8, 1, |_, _| false);
    }
}
