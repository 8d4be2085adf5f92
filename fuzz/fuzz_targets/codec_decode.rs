//! The codec is total: every byte string decodes, for every type, without panicking, and the
//! decoded value's encoding is canonical (decode -> encode -> decode -> encode is stable; values
//! with a reflexive `PartialEq` also round-trip). The first byte picks the type.
#![no_main]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use typefuzz::codec::{from_bytes, to_bytes};
use typefuzz_fuzz::invariants::{decode_is_total_and_canonical, round_trips};
use typefuzz_fuzz::shapes::{Expr, Program, Sample, Stmt, Tree};

/// Types whose encoding is deterministic and whose `PartialEq` is reflexive.
macro_rules! exact {
    ($bytes:expr, $($ty:ty),* $(,)?) => {
        [$(|bytes: &[u8]| {
            let value: $ty = decode_is_total_and_canonical(bytes);
            round_trips(&value, stringify!($ty));
        }),*]
    };
}

/// Hash maps and sets encode in iteration order, which differs between instances: compare values.
fn hashed<T: typefuzz::Mutate + std::fmt::Debug + PartialEq>(bytes: &[u8]) {
    let value: T = from_bytes(bytes);
    round_trips(&value, std::any::type_name::<T>());
}

/// Floats: NaN != NaN, so only the encoding is compared.
fn floats<T: typefuzz::Mutate + std::fmt::Debug>(bytes: &[u8]) {
    let value: T = decode_is_total_and_canonical(bytes);
    let _ = to_bytes(&value);
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let checks: &[fn(&[u8])] = &exact!(
        bytes,
        u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize,
        bool, char, (), String, Vec<u8>, Vec<String>, Option<u32>, Box<u16>,
        Rc<Option<i8>>, Arc<String>, (u8, bool, char), [u16; 4], VecDeque<u8>,
        BTreeMap<u8, Vec<u8>>, BTreeSet<i16>, Vec<Option<Vec<bool>>>,
        Expr, Tree<u8>, Stmt, Program, Vec<Tree<Option<char>>>,
    );
    let others: &[fn(&[u8])] = &[
        hashed::<HashMap<u8, String>>,
        hashed::<HashSet<u32>>,
        floats::<f32>,
        floats::<f64>,
        floats::<Vec<(f32, f64)>>,
        floats::<Sample>,
    ];
    let index = usize::from(selector) % (checks.len() + others.len());
    match checks.get(index) {
        Some(check) => check(bytes),
        None => others[index - checks.len()](bytes),
    }
});
