//! fuzzcheck's enum-vector benchmark under the typed adapter: typefuzz's derived mutator and
//! crossover drive libFuzzer (see `typefuzz_fuzz::enum_vector` for the bug and the switches).
#![no_main]

use typefuzz_fuzz::enum_vector::{property, SomeEnum};

typefuzz::fuzz_target!(|xs: Vec<SomeEnum>| property(&xs));
