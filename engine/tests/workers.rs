//! `TYPEFUZZ_JOBS` / `Config::jobs`: several worker processes on one property. Each test below
//! re-runs this test binary twice (filtered to itself) as its workers.

mod kept_file;

use std::time::Duration;

use typefuzz_engine::{check, cover, Config};

/// Labels on each matched prefix of "bad!": seeds for the workers to find and share.
#[allow(clippy::ptr_arg)] // a property over `Vec<u8>` receives `&Vec<u8>`
fn guided(input: &Vec<u8>) -> bool {
    if input.first() == Some(&b'b') {
        cover!("b");
        if input.get(1) == Some(&b'a') {
            cover!("ba");
            if input.get(2) == Some(&b'd') {
                cover!("bad");
                return input.get(3) != Some(&b'!');
            }
        }
    }
    true
}

#[test]
fn two_workers_run_and_import_each_others_seeds() {
    // A property that holds, run for a while: both workers sync at least once (every second).
    let config = Config::default()
        .with_seed(5)
        .with_max_size(6)
        .with_cases(u64::MAX)
        .with_time(Duration::from_secs(3))
        .with_progress(false)
        .with_jobs(2);
    let report = check(
        &config,
        |cx| cx.generate::<Vec<u8>>(),
        |input: &Vec<u8>| {
            let _ = guided(input);
        },
    );
    let stats = &report.stats;
    assert!(report.passed());
    assert_eq!(stats.workers, 2, "{stats:?}");
    assert!(stats.seeds_found >= 2, "both found seeds: {stats:?}");
    assert!(
        stats.seeds_imported > 0,
        "a worker ran seeds the other wrote: {stats:?}"
    );
    assert_eq!(stats.tests, stats.valid + stats.discards);
}

#[test]
fn the_first_failing_worker_ends_the_run_and_its_failure_is_reported_here() {
    let config = Config::default()
        .with_seed(2)
        .with_max_size(8)
        .with_cases(u64::MAX)
        .with_max_tests(20_000_000)
        .with_progress(false)
        .with_jobs(2);
    let report = check(&config, |cx| cx.generate::<Vec<u8>>(), guided);
    let failure = report.failure.expect("the workers find bad!");
    assert!(
        failure.minimal.starts_with(b"bad!"),
        "{:?}",
        failure.minimal
    );
    assert_eq!(report.stats.workers, 2);
    assert_eq!(failure.tests, report.stats.tests);
    assert!(
        failure.notes.iter().any(|note| note.contains("of 2")),
        "{:?}",
        failure.notes
    );
}

#[test]
fn workers_on_the_kept_corpus_replay_within_their_budget() {
    // The name is fixed (the workers are other processes, which must find the same directory).
    let config = Config::default()
        .with_name("engine_workers::kept_corpus_budget")
        .with_seed(9)
        .with_max_size(6)
        .with_cases(400)
        .with_regressions(std::env::temp_dir().join("typefuzz-unused-regressions.txt"))
        .with_progress(false)
        .with_jobs(2);
    let file = config
        .corpus_path::<Vec<u8>>()
        .expect("a named run keeps its seeds");
    // The workers run this test function too, up to `check`: only the parent lays out the
    // corpus.
    if std::env::var_os("__TYPEFUZZ_WORKER").is_none() {
        let laid_out: Vec<kept_file::Entry> = (0..300u16)
            .map(|i| {
                let bytes = typefuzz_engine::codec::to_bytes(&i.to_le_bytes().to_vec());
                kept_file::Entry::new(bytes, u64::from(i))
            })
            .collect();
        kept_file::write(&file, &laid_out);
    }
    let report = check(
        &config,
        |cx| cx.generate::<Vec<u8>>(),
        |input: &Vec<u8>| {
            let _ = guided(input);
        },
    );
    assert!(report.passed());
    let stats = &report.stats;
    assert_eq!(stats.workers, 2, "{stats:?}");
    // Each worker runs 200 cases, so replays at most 50 of the 300 kept seeds.
    assert!(
        stats.corpus_loaded > 0 && stats.corpus_loaded <= 100,
        "{stats:?}"
    );
    // Both workers wrote back what they found and judged, merged: only redundant replayed
    // seeds (and, over the cap, the least recently useful) left the file, and both runs count.
    let left = kept_file::read(&file);
    // Each worker keeps the file within its cap (200: four times its replay budget of 50),
    // plus what the other worker used since it read the file (at most its own 200).
    assert!(!left.is_empty() && left.len() <= 400, "{}", left.len());
    // The layout's run count is 299; each worker's write counts one run, and the useful seeds
    // carry the run of the worker that judged them last.
    assert_eq!(
        kept_file::runs(&file),
        301,
        "each worker wrote the file once"
    );
    assert!(
        left.iter().any(|entry| entry.useful_in > 299),
        "the replayed seeds found useful are marked"
    );
    std::fs::remove_file(&file).unwrap();
}

/// The workload of `bench/workers.sh` (worker scaling): a campaign on one property, with
/// `TYPEFUZZ_JOBS` and `TYPEFUZZ_TIME` from the environment, that prints one line for the script.
/// The property does some work per input (sorts a copy) besides the labels that guide the
/// search, so the workers keep finding and sharing seeds.
#[test]
#[ignore = "run by bench/workers.sh with TYPEFUZZ_JOBS and TYPEFUZZ_TIME"]
fn scaling_campaign() {
    let config = Config::default()
        .with_seed(3)
        .with_max_size(32)
        .with_cases(u64::MAX)
        .with_time(Duration::from_secs(2))
        .with_progress(false)
        .apply_env();
    let report = check(
        &config,
        |cx| cx.generate::<Vec<u8>>(),
        |input: &Vec<u8>| {
            let mut sorted = input.clone();
            sorted.sort_unstable();
            assert!(sorted.windows(2).all(|pair| pair[0] <= pair[1]));
            let _ = guided(input);
        },
    );
    let stats = &report.stats;
    assert!(report.passed());
    println!(
        "WORKERS-SCALING: jobs={} workers={} tests={} seeds_found={} seeds_imported={} elapsed={:.3}",
        config.jobs,
        stats.workers,
        stats.tests,
        stats.seeds_found,
        stats.seeds_imported,
        stats.elapsed.as_secs_f64()
    );
}
