//! The corpus a test keeps under `target/typefuzz/corpus/` across runs stays small and cheap:
//! each run replays at most a quarter of its budget, and removes the files it found redundant
//! (see the engine's `corpus::disk` module docs).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use typefuzz_engine::{check, codec, cover, Config, Discard, FeedbackSources};

/// The engine's own derive, without the facade.
#[derive(Clone, Debug, typefuzz_derive::Mutate)]
#[mutate(crate = "typefuzz_engine")]
struct Input {
    bytes: Vec<u8>,
    words: Vec<u16>,
    flag: bool,
}

/// A property with a precondition, so the engine keeps seeds without instrumentation.
fn even_lengths(input: &Input) -> bool {
    if input.bytes.len() % 2 == 1 {
        return Discard::discard();
    }
    input.bytes.len() % 2 == 0 || input.flag
}

/// A named configuration whose kept directory is fresh (one name per process and test, so
/// concurrent runs of this binary never share it).
fn kept(test: &str, cases: u64) -> Config {
    Config::default()
        .with_name(format!("corpus_upkeep::{test}::{}", std::process::id()))
        .with_cases(cases)
        // A passing run writes no regression file; the corpus is the only thing kept.
        .with_regressions(std::env::temp_dir().join("typefuzz-unused-regressions.txt"))
        .with_progress(false)
}

fn fresh_dir<T: typefuzz_engine::Mutate>(config: &Config) -> PathBuf {
    let dir = config
        .corpus_path::<T>()
        .expect("a named run keeps its seeds");
    let _ = fs::remove_dir_all(&dir);
    dir
}

fn files(dir: &Path) -> usize {
    fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
            .count()
    })
}

/// Writes `bytes` into `dir` under libFuzzer's name, last modified `seconds` after the epoch.
fn write_aged(dir: &Path, bytes: &[u8], seconds: u64) -> PathBuf {
    let path = dir.join(sha1_smol::Sha1::from(bytes).digest().to_string());
    fs::write(&path, bytes).unwrap();
    age(&path, seconds);
    path
}

fn age(path: &Path, seconds: u64) {
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
        .unwrap();
}

#[test]
fn many_runs_replay_a_bounded_number_of_seeds_and_the_directory_stays_under_its_cap() {
    // 40 cases: at most 10 replayed per run; the directory's cap is then its floor, 64 files.
    let config = kept("many_runs", 40);
    let dir = fresh_dir::<Input>(&config);
    let mut largest = 0;
    for run in 0..80 {
        let report = check(
            &config.clone().with_seed(run),
            |cx| cx.generate(),
            even_lengths,
        );
        assert!(report.passed());
        assert!(
            report.stats.corpus_loaded <= 10,
            "run {run} replayed {} seeds",
            report.stats.corpus_loaded
        );
        let count = files(&dir);
        assert!(count <= 64, "run {run} left {count} files");
        largest = largest.max(count);
    }
    assert_eq!(largest, 64, "the runs found enough to reach the cap");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_seed_that_alone_reaches_a_feature_survives_and_corrupt_files_are_kept() {
    let labels = FeedbackSources {
        labels: true,
        ..FeedbackSources::none()
    };
    let config = kept("alone", 40).with_feedback(labels);
    let dir = fresh_dir::<u16>(&config);
    fs::create_dir_all(&dir).unwrap();
    // 300 inputs that all reach the same label, the one input that reaches `rare`, the oldest
    // of all (so it is replayed as one of the least recently useful), and two corrupt files.
    for x in 0..300u16 {
        write_aged(&dir, &codec::to_bytes(&x), 1_000 + u64::from(x));
    }
    let rare = write_aged(&dir, &codec::to_bytes(&4242u16), 10);
    let damaged = dir.join(sha1_smol::Sha1::from(b"original").digest().to_string());
    fs::write(&damaged, b"damaged").unwrap();
    age(&damaged, 5);
    let oversized = dir.join("0123456789012345678901234567890123456789");
    fs::File::create(&oversized)
        .unwrap()
        .set_len((16 << 20) + 1)
        .unwrap();
    age(&oversized, 5);
    let property = |x: &u16| {
        cover!("any");
        if *x == 4242 {
            cover!("rare");
        }
    };
    let mut before = files(&dir);
    for run in 0..8 {
        let report = check(&config.clone().with_seed(run), |cx| cx.generate(), property);
        assert!(report.passed());
        assert!(report.stats.corpus_loaded <= 10);
        assert!(
            rare.exists(),
            "run {run} removed the only input reaching `rare`"
        );
        assert!(
            damaged.exists() && oversized.exists(),
            "run {run} lost a corrupt file"
        );
        let after = files(&dir);
        // Down to what a run replays (10), then left alone.
        assert!(
            after < before || after <= 10,
            "run {run}: {before} -> {after} files"
        );
        before = after;
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plain_runs_after_a_campaign_keep_the_campaigns_seeds() {
    // Plain runs of 40 cases: 10 replayed, a cap of 64 files.
    let config = kept("campaign", 40);
    let dir = fresh_dir::<Input>(&config);
    fs::create_dir_all(&dir).unwrap();
    // What a campaign found: 200 seeds, older than anything the plain runs write.
    let found: Vec<PathBuf> = (0..200u16)
        .map(|i| {
            let input = Input {
                bytes: vec![0; 2 * usize::from(i % 7)],
                words: vec![i],
                flag: i % 2 == 0,
            };
            write_aged(&dir, &codec::to_bytes(&input), 1_000 + u64::from(i))
        })
        .collect();
    // The campaign itself: a time budget, so it removes nothing and records what it left.
    let campaign = config
        .clone()
        .with_seed(99)
        .with_time(Duration::from_millis(300));
    assert!(check(&campaign, |cx| cx.generate(), even_lengths).passed());
    let left = files(&dir);
    assert!(left >= 200);
    let record =
        fs::read_to_string(dir.join(".campaign")).expect("the campaign records the files it left");
    assert_eq!(
        record.lines().count(),
        left + 1,
        "a header and one name per file"
    );
    assert!(
        found.iter().all(|path| path.exists()),
        "the campaign removed seeds"
    );
    for run in 0..6 {
        let report = check(
            &config.clone().with_seed(run),
            |cx| cx.generate(),
            even_lengths,
        );
        assert!(report.passed());
        assert!(report.stats.corpus_loaded <= 10, "replay stays bounded");
        assert!(
            files(&dir) >= left,
            "plain run {run} cut the campaign's directory to {} files",
            files(&dir)
        );
        let lost = found.iter().filter(|path| !path.exists()).count();
        assert_eq!(
            lost, 0,
            "plain run {run} removed {lost} of the campaign's seeds"
        );
    }
    // Only files the plain runs added (and did not find useful) may go beyond the floor: the
    // campaign's are all there.
    assert!(found.iter().all(|path| path.exists()));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_malformed_campaign_record_is_reported_and_nothing_is_removed() {
    let config = kept("bad_record", 40);
    let dir = fresh_dir::<Input>(&config);
    fs::create_dir_all(&dir).unwrap();
    for i in 0..150u16 {
        let input = Input {
            bytes: Vec::new(),
            words: vec![i],
            flag: false,
        };
        write_aged(&dir, &codec::to_bytes(&input), 1_000 + u64::from(i));
    }
    fs::write(dir.join(".campaign"), "many\n").unwrap();
    let report = check(
        &config.clone().with_seed(3),
        |cx| cx.generate(),
        even_lengths,
    );
    assert!(report.passed());
    assert!(
        files(&dir) >= 150,
        "a run removed files despite the unreadable record"
    );
    assert_eq!(fs::read_to_string(dir.join(".campaign")).unwrap(), "many\n");
    fs::remove_dir_all(&dir).unwrap();
}
