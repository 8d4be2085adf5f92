//! The codec on deep values: a value nested 10,000 levels deep (its shape chosen by the input)
//! encodes and decodes without overflowing the stack; the encoder says the encoding is
//! truncated (so the engine never reports such a value as saved), the truncated bytes decode
//! to a value whose encoding is canonical, and a value within the bound round-trips exactly and
//! is not truncated.
#![no_main]

use libfuzzer_sys::fuzz_target;
use typefuzz::codec::{from_bytes, Decoder, EncodeInto, Encoder};
use typefuzz_fuzz::shapes::Expr;

/// Builds an `Expr` `depth` levels deep, taking the constructor of each level from `choices`.
/// Built bottom-up in a loop: constructing it recursively would itself overflow.
fn deep(choices: &[u8], depth: usize) -> Expr {
    let mut value = Expr::Num(i32::from(choices.first().copied().unwrap_or(0)));
    for level in 0..depth {
        let choice = choices
            .get(level % choices.len().max(1))
            .copied()
            .unwrap_or(0);
        value = match choice % 3 {
            0 => Expr::Neg(Box::new(value)),
            1 => Expr::Add(Box::new(value), Box::new(Expr::Num(i32::from(choice)))),
            _ => Expr::If(Box::new(Expr::Num(0)), Box::new(value), None),
        };
    }
    value
}

/// Drops a deep `Expr` level by level (the compiler's drop glue recurses once per level).
fn dispose(value: Expr) {
    let mut pending = vec![value];
    while let Some(node) = pending.pop() {
        match node {
            Expr::Neg(inner) => pending.push(*inner),
            Expr::Add(left, right) => pending.extend([*left, *right]),
            Expr::If(condition, then, otherwise) => {
                pending.extend([*condition, *then]);
                pending.extend(otherwise.map(|e| *e));
            }
            _ => {}
        }
    }
}

fn encode(value: &Expr) -> Encoder {
    let mut out = Encoder::new();
    value.encode_into(&mut out);
    out
}

fuzz_target!(|data: &[u8]| {
    let value = deep(data, 10_000);
    let encoded = encode(&value);
    assert!(
        encoded.is_truncated(),
        "10,000 levels exceed the codec's bound"
    );
    let decoded: Expr = from_bytes(encoded.as_bytes());
    let again = encode(&decoded);
    assert_eq!(again.as_bytes(), encoded.as_bytes(), "canonical");
    dispose(value);
    dispose(decoded);

    let shallow = deep(data, Decoder::MAX_DEPTH / 2);
    let encoded = encode(&shallow);
    assert!(!encoded.is_truncated());
    assert_eq!(
        from_bytes::<Expr>(encoded.as_bytes()),
        shallow,
        "round trip"
    );
});
