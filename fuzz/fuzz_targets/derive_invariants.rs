//! The derived `Mutate` contract on recursive types, from arbitrary starting values: a mutation
//! keeps the codec round trip; shrink candidates differ from the value and
//! round-trip; generated values round-trip; both subterm visitors agree. The first 8 bytes seed
//! the context, the next byte picks the type, the rest decodes to the value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use typefuzz::codec::to_bytes;
use typefuzz::Mutate;
use typefuzz_fuzz::invariants::mutate_contract;
use typefuzz_fuzz::shapes::{Expr, Program, Sample, Stmt, Tree};

fn exact<T: Mutate + std::fmt::Debug + PartialEq>(bytes: &[u8], seed: u64) {
    let value: T = typefuzz::codec::from_bytes(bytes);
    mutate_contract(&value, seed, |a, b| a == b);
}

fn by_encoding<T: Mutate + std::fmt::Debug>(bytes: &[u8], seed: u64) {
    let value: T = typefuzz::codec::from_bytes(bytes);
    mutate_contract(&value, seed, |a, b| to_bytes(a) == to_bytes(b));
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let seed = u64::from_le_bytes(data[..8].try_into().unwrap());
    let bytes = &data[9..];
    let checks: [fn(&[u8], u64); 7] = [
        exact::<Expr>,
        exact::<Tree<u8>>,
        exact::<Tree<Vec<Expr>>>,
        exact::<Stmt>,
        exact::<Program>,
        exact::<Vec<Option<Box<Expr>>>>,
        by_encoding::<Sample>,
    ];
    checks[usize::from(data[8]) % checks.len()](bytes, seed);
});
