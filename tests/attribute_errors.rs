//! Every form `#[typefuzz::quickcheck_macros::quickcheck]` and `#[typefuzz::test_strategy::proptest]`
//! reject, with the caret on the offending token and a message saying what to write instead
//! (snapshots in `tests/ui_attributes/*.stderr`; regenerate with `TRYBUILD=overwrite`).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui_attributes/*.rs");
}
