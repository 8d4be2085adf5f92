//! Every mistake `#[derive(Mutate)]` rejects, with the caret on the offending token
//! (snapshots in `tests/ui/*.stderr`; regenerate with `TRYBUILD=overwrite`).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
