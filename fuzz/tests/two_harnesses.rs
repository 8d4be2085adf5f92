//! One property, two harnesses: the enum-vector property runs under `typefuzz::check` here and
//! under `typefuzz::fuzz_target!` in `fuzz_targets/enum_vector.rs`, and their corpora move both
//! ways. `fuzz/ci.sh` runs these tests (they are `#[ignore]`d because they need it):
//!
//! 1. `cargo fuzz run enum_vector <dir>` fills a corpus; [`engine_loads_a_libfuzzer_corpus`]
//!    reads it through `Config::corpus` (what `TYPEFUZZ_CORPUS` sets) and checks every file is
//!    replayed as the value libFuzzer ran;
//! 2. [`engine_writes_a_libfuzzer_corpus`] fills a corpus with `typefuzz::check`; `ci.sh` then
//!    runs `cargo fuzz run enum_vector <dir> -runs=0` and checks libFuzzer loads every file.

use std::collections::HashSet;
use std::path::PathBuf;

use typefuzz::codec::{from_bytes, to_bytes};
use typefuzz::{check, Config};
use typefuzz_fuzz::enum_vector::{property, SomeEnum};

fn dir_from_env(name: &str) -> PathBuf {
    let dir = std::env::var_os(name)
        .unwrap_or_else(|| panic!("set {name} (fuzz/ci.sh does) to a corpus directory"));
    PathBuf::from(dir)
}

fn corpus_files(dir: &PathBuf) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("read the corpus directory")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_file())
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).expect("read a corpus file"))
        })
        .collect();
    files.sort();
    files
}

#[test]
#[ignore = "needs a corpus from `cargo fuzz run enum_vector`; run by fuzz/ci.sh"]
fn engine_loads_a_libfuzzer_corpus() {
    let dir = dir_from_env("LIBFUZZER_CORPUS");
    let files = corpus_files(&dir);
    assert!(
        files.len() >= 5,
        "only {} files in {}",
        files.len(),
        dir.display()
    );
    let expected: HashSet<Vec<u8>> = files
        .iter()
        .map(|(_, bytes)| to_bytes(&from_bytes::<Vec<SomeEnum>>(bytes)))
        .collect();

    let config = Config::default()
        .with_corpus(&dir)
        .with_cases(0)
        .with_seed(1)
        .with_progress(false);
    let mut seen = HashSet::new();
    let report = check(
        &config,
        |cx| cx.generate::<Vec<SomeEnum>>(),
        |xs: &Vec<SomeEnum>| {
            seen.insert(to_bytes(xs));
            property(xs);
        },
    );
    assert!(report.failure.is_none(), "{:?}", report.failure);
    assert_eq!(report.stats.corpus_loaded, files.len() as u64);
    let missing: Vec<_> = expected.difference(&seen).collect();
    assert!(missing.is_empty(), "corpus inputs never run: {missing:?}");
}

#[test]
#[ignore = "writes a corpus for `cargo fuzz run enum_vector <dir> -runs=0`; run by fuzz/ci.sh"]
fn engine_writes_a_libfuzzer_corpus() {
    let dir = dir_from_env("ENGINE_CORPUS");
    std::fs::create_dir_all(&dir).unwrap();
    let config = Config::default()
        .with_corpus(&dir)
        .with_cases(5_000)
        .with_seed(7)
        .with_progress(false);
    let report = check(
        &config,
        |cx| cx.generate::<Vec<SomeEnum>>(),
        |xs: &Vec<SomeEnum>| {
            // Feedback without coverage instrumentation: longer vectors and each matched prefix
            // element are new, so inputs are kept and written.
            typefuzz::target!("length", xs.len());
            let matched = [SomeEnum::E, SomeEnum::A(30), SomeEnum::E]
                .iter()
                .zip(xs)
                .take_while(|(want, got)| want == got)
                .count();
            typefuzz::target!("prefix", matched);
            property(xs);
        },
    );
    assert!(report.failure.is_none(), "{:?}", report.failure);
    let files = corpus_files(&dir);
    assert!(
        files.len() >= 3,
        "the engine wrote only {} inputs",
        files.len()
    );
    for (name, bytes) in &files {
        assert_eq!(
            name,
            &sha1_smol::Sha1::from(bytes).digest().to_string(),
            "libFuzzer's name"
        );
        let value: Vec<SomeEnum> = from_bytes(bytes);
        assert_eq!(
            &to_bytes(&value),
            bytes,
            "{name} holds a canonical encoding"
        );
    }
}
