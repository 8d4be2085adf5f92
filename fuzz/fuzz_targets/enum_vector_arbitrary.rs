//! The baseline for `enum_vector`: the same type and property, decoded with `arbitrary` and
//! mutated by libFuzzer's byte mutators (the plain cargo-fuzz setup).
#![no_main]

use libfuzzer_sys::fuzz_target;
use typefuzz_fuzz::enum_vector::{property, SomeEnum};

fuzz_target!(|xs: Vec<SomeEnum>| property(&xs));
