//! "bad!" under the typed adapter: the input is a `Vec<u8>` mutated by typefuzz (see
//! `typefuzz_fuzz::bad`), with typed CmpLog from `fuzz/build.rs`.
#![no_main]

typefuzz::fuzz_target!(|input: Vec<u8>| typefuzz_fuzz::bad::property(&input));
