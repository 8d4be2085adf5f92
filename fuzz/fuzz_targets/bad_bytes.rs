//! The baseline for `bad`: the same property on libFuzzer's raw bytes and byte mutators.
#![no_main]

libfuzzer_sys::fuzz_target!(|input: &[u8]| typefuzz_fuzz::bad::property(input));
