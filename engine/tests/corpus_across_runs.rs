//! A named run keeps the seeds it found under cargo's target directory and the next run of the
//! same test starts from them (`Config::keep_seeds`, on by default).

mod kept_file;

use std::fs;

use typefuzz_engine::{check, Config, Discard};

/// The engine's own derive, without the facade.
#[derive(Clone, Debug, typefuzz_derive::Mutate)]
#[mutate(crate = "typefuzz_engine")]
struct Input {
    bytes: Vec<u8>,
    flag: bool,
}

/// A property with a precondition, so the engine keeps seeds without instrumentation
/// (valid inputs of new sizes, after a discard).
fn even_lengths(input: &Input) -> bool {
    if input.bytes.len() % 2 == 1 {
        return Discard::discard();
    }
    input.bytes.len() % 2 == 0 || input.flag
}

#[test]
fn a_second_run_starts_from_the_first_runs_seeds() {
    // One name per process, so concurrent runs of this test binary do not share a directory.
    let name = format!("corpus_across_runs::second_run::{}", std::process::id());
    let config = Config::default()
        .with_name(name)
        .with_cases(2_000)
        // No regression file is written by a passing run; the corpus is the only thing kept.
        .with_regressions(std::env::temp_dir().join("typefuzz-unused-regressions.txt"));
    let file = config
        .corpus_path::<Input>()
        .expect("a named run keeps its seeds");
    let _ = fs::remove_file(&file);

    let first = check(
        &config.clone().with_seed(1),
        |cx| cx.generate(),
        even_lengths,
    );
    assert!(first.passed());
    assert_eq!(first.stats.corpus_loaded, 0, "nothing to start from yet");
    assert!(first.stats.seeds_found > 0, "{:?}", first.stats);
    let saved = kept_file::read(&file).len();
    assert!(saved > 0, "the corpus was written");

    let second = check(
        &config.clone().with_seed(2),
        |cx| cx.generate(),
        even_lengths,
    );
    assert!(second.passed());
    assert_eq!(
        second.stats.corpus_loaded as usize, saved,
        "the second run loads every seed the first one saved"
    );

    // Switched off, the run neither loads nor saves.
    let off = config.clone().with_keep_seeds(false);
    let third = check(&off.with_seed(3), |cx| cx.generate(), even_lengths);
    assert_eq!(third.stats.corpus_loaded, 0);
    fs::remove_file(&file).unwrap();
}
