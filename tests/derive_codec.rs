//! The derived codec: round trip, totality on arbitrary bytes, bounded work on large inputs.

use proptest::prelude::*;
use typefuzz::codec::{from_bytes, to_bytes};
use typefuzz::{Context, Mutate};

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Tree {
    Leaf(u8),
    Node(Box<Tree>, i32, Box<Tree>),
}

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Json {
    Null,
    Bool(bool),
    Number(i64),
    Text(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

#[derive(Clone, Debug, PartialEq, Mutate)]
struct Program {
    name: String,
    body: Vec<Json>,
    entry: Option<Box<Tree>>,
}

fn json_nodes(json: &Json) -> usize {
    1 + match json {
        Json::Array(items) => items.iter().map(json_nodes).sum(),
        Json::Object(fields) => fields.iter().map(|(_, v)| json_nodes(v)).sum(),
        _ => 0,
    }
}

proptest! {
    #[test]
    fn generated_and_mutated_values_round_trip(seed in any::<u64>(), mutations in 0usize..30) {
        let mut cx = Context::new(seed);
        let mut program: Program = cx.generate();
        for _ in 0..mutations {
            cx.mutate(&mut program);
        }
        prop_assert_eq!(from_bytes::<Program>(&to_bytes(&program)), program);
    }

    #[test]
    fn any_bytes_decode_and_reencode_stably(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        // Decoding is total; the decoded value is a fixed point of encode-then-decode.
        let program: Program = from_bytes(&bytes);
        prop_assert_eq!(from_bytes::<Program>(&to_bytes(&program)), program.clone());
        let tree: Tree = from_bytes(&bytes);
        prop_assert_eq!(from_bytes::<Tree>(&to_bytes(&tree)), tree);
        let json: Json = from_bytes(&bytes);
        prop_assert!(json_nodes(&json) <= bytes.len() + 1, "elements are paid for by input bytes");
    }
}

#[test]
fn one_mebibyte_of_random_bytes_decodes_in_bounded_work() {
    let mut rng = fastrand::Rng::with_seed(7);
    let bytes: Vec<u8> = (0..1 << 20).map(|_| rng.u8(..)).collect();
    let json: Json = from_bytes(&bytes);
    assert!(json_nodes(&json) <= bytes.len() + 1);
    let program: Program = from_bytes(&bytes);
    assert!(program.body.len() <= bytes.len());
    // Adversarial: maximal length prefixes everywhere.
    let greedy = vec![0xffu8; 1 << 20];
    let json: Json = from_bytes(&greedy);
    assert!(json_nodes(&json) <= greedy.len() + 1);
}

#[test]
fn nesting_past_the_depth_bound_decodes_as_the_smallest_value() {
    // Tag 1 = Node, repeated: each level asks for another Node.
    let mut bytes = Vec::new();
    for _ in 0..100_000 {
        bytes.extend_from_slice(&[1]);
    }
    let tree: Tree = from_bytes(&bytes);
    let mut depth = 0;
    let mut cursor = &tree;
    while let Tree::Node(left, _, _) = cursor {
        depth += 1;
        cursor = left;
    }
    assert!(
        depth <= typefuzz::codec::Decoder::MAX_DEPTH,
        "depth {depth}"
    );
}

#[test]
fn elements_past_the_depth_bound_keep_the_encoding_canonical() {
    // Found by fuzz/codec_decode: 255 nested arrays, then an array of 1,000 elements that sit past
    // the depth bound, paid for by trailing input bytes. Those elements must still take a byte
    // each in the encoding, or decoding the encoding runs out of element budget and drops them.
    let mut bytes = vec![4u8; 255]; // tag 4 = Array, length 1 (next byte), nested
    let mut input = Vec::new();
    for tag in bytes.drain(..) {
        input.extend_from_slice(&[tag, 1]);
    }
    input.extend_from_slice(&[4, 0xe8, 0x07]); // Array of 1,000
    input.extend_from_slice(&[0xffu8; 4000]);
    let value: Json = from_bytes(&input);
    let encoded = to_bytes(&value);
    let again = to_bytes(&from_bytes::<Json>(&encoded));
    assert_eq!(encoded, again, "decode(encode(v)) must encode the same");
    assert_eq!(from_bytes::<Json>(&encoded), value);
}
