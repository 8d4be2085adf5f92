//! No-op SanitizerCoverage hooks, compiled by `cargo typefuzz test` into a small library that is
//! linked last into every instrumented binary. It gives the hook symbols a definition in test,
//! example and doctest binaries that do not link typefuzz; when typefuzz is linked, its engine has
//! already defined every symbol below by the time the linker reaches this archive, so the
//! archive member is never pulled in and the engine's hooks are the ones that run.
//!
//! The set of symbols is exactly the hooks of `engine/src/feedback/coverage/hooks.rs` (the test
//! `hooks_library::tests::defines_exactly_the_hooks_of_the_engine` fails otherwise): a symbol
//! defined here but not there would pull this member in next to the engine's and fail the link
//! with duplicate definitions.
#![no_std]
#![allow(clippy::missing_safety_doc)]

#[no_mangle]
pub unsafe extern "C" fn __sanitizer_cov_8bit_counters_init(_start: *mut u8, _stop: *mut u8) {}
#[no_mangle]
pub unsafe extern "C" fn __sanitizer_cov_pcs_init(_start: *const usize, _stop: *const usize) {}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_cmp1(_a: u8, _b: u8) {}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_cmp2(_a: u16, _b: u16) {}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_cmp4(_a: u32, _b: u32) {}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_cmp8(_a: u64, _b: u64) {}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_const_cmp1(_a: u8, _b: u8) {}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_const_cmp2(_a: u16, _b: u16) {}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_const_cmp4(_a: u32, _b: u32) {}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_const_cmp8(_a: u64, _b: u64) {}
#[no_mangle]
pub unsafe extern "C" fn __sanitizer_cov_trace_switch(_value: u64, _cases: *const u64) {}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_div4(_value: u32) {}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_div8(_value: u64) {}
#[no_mangle]
pub extern "C" fn __sanitizer_cov_trace_gep(_index: usize) {}
