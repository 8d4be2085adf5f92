//! Types and checks shared by the fuzz targets in `fuzz_targets/` and the tests in `tests/`.
//!
//! - [`shapes`]: derived types covering the derive's input shapes (recursive enums, generics,
//!   collections of self, floats), for the codec and derive-invariant targets;
//! - [`invariants`]: the codec and `Mutate` contract checks those targets assert;
//! - [`enum_vector`]: fuzzcheck's enum-vector benchmark with its injected bug, fuzzed by the
//!   typed adapter (`enum_vector`) and by libFuzzer + `arbitrary` (`enum_vector_arbitrary`);
//! - [`regression_text`]: generated regression files, for the `regression_file` target;
//! - [`bad`]: "bad!", fuzzed by the typed adapter (`bad`) and on raw bytes (`bad_bytes`).

pub mod bad;
pub mod enum_vector;
pub mod invariants;
pub mod regression_text;
pub mod shapes;
