//! The corpus a test keeps under `target/typefuzz/corpus/` across runs stays small and cheap:
//! one file per test, each run replays at most a quarter of its budget, and removes the seeds it
//! found redundant (see the engine's `corpus::kept` module docs).

mod kept_file;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use kept_file::Entry;

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

/// The kept file of `config` for `T`, removed (with anything a test left beside it).
fn fresh_file<T: typefuzz_engine::Mutate>(config: &Config) -> PathBuf {
    let file = config
        .corpus_path::<T>()
        .expect("a named run keeps its seeds");
    let _ = fs::remove_file(&file);
    let _ = fs::remove_file(corrupt(&file));
    file
}

fn corrupt(file: &Path) -> PathBuf {
    let mut aside = file.as_os_str().to_owned();
    aside.push(".corrupt");
    aside.into()
}

fn entry<T: typefuzz_engine::Mutate>(value: &T, useful_in: u64) -> Entry {
    Entry::new(codec::to_bytes(value), useful_in)
}

#[test]
fn many_runs_replay_a_bounded_number_of_seeds_and_the_file_stays_under_its_cap() {
    // 40 cases: at most 10 replayed per run; the file's cap is then its floor, 64 seeds.
    let config = kept("many_runs", 40);
    let file = fresh_file::<Input>(&config);
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
        let count = kept_file::read(&file).len();
        assert!(count <= 64, "run {run} left {count} seeds");
        largest = largest.max(count);
    }
    assert_eq!(largest, 64, "the runs found enough to reach the cap");
    fs::remove_file(&file).unwrap();
}

#[test]
fn twenty_runs_of_thirty_tests_keep_one_bounded_file_each() {
    let configs: Vec<Config> = (0..30)
        .map(|test| kept(&format!("suite::prop_{test}"), 40))
        .collect();
    let files: Vec<PathBuf> = configs.iter().map(fresh_file::<Input>).collect();
    let dir = files[0].parent().unwrap().to_path_buf();
    for run in 0..20 {
        for config in &configs {
            let report = check(
                &config.clone().with_seed(run),
                |cx| cx.generate(),
                even_lengths,
            );
            assert!(report.passed());
        }
        for file in &files {
            let count = kept_file::read(file).len();
            assert!(
                (1..=64).contains(&count),
                "run {run}: {} holds {count} seeds",
                file.display()
            );
        }
    }
    // One file per test, nothing else of theirs in the corpus directory.
    let prefix = "corpus_upkeep-suite-prop_";
    let pid = format!("-{}-", std::process::id());
    let theirs = fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(prefix) && name.contains(&pid))
        .count();
    assert_eq!(theirs, 30);
    for file in files {
        fs::remove_file(file).unwrap();
    }
}

#[test]
fn a_seed_that_alone_reaches_a_feature_survives() {
    let labels = FeedbackSources {
        labels: true,
        ..FeedbackSources::none()
    };
    let config = kept("alone", 40).with_feedback(labels);
    let file = fresh_file::<u16>(&config);
    // 300 inputs that all reach the same label, and the one input that reaches `rare`, the
    // least recently useful of all (so it is replayed as one of the oldest).
    let mut entries: Vec<Entry> = (0..300u16)
        .map(|x| entry(&x, 1_000 + u64::from(x)))
        .collect();
    let rare = codec::to_bytes(&4242u16);
    entries.push(Entry::new(rare.clone(), 10));
    kept_file::write(&file, &entries);
    let property = |x: &u16| {
        cover!("any");
        if *x == 4242 {
            cover!("rare");
        }
    };
    let mut before = entries.len();
    for run in 0..8 {
        let report = check(&config.clone().with_seed(run), |cx| cx.generate(), property);
        assert!(report.passed());
        assert!(report.stats.corpus_loaded <= 10);
        let left = kept_file::read(&file);
        assert!(
            left.iter().any(|entry| entry.bytes == rare),
            "run {run} removed the only input reaching `rare`"
        );
        // Down to what a run replays (10), then left alone.
        assert!(
            left.len() < before || left.len() <= 10,
            "run {run}: {before} -> {} seeds",
            left.len()
        );
        before = left.len();
    }
    fs::remove_file(&file).unwrap();
}

#[test]
fn plain_runs_after_a_campaign_keep_the_campaigns_seeds() {
    // Plain runs of 40 cases: 10 replayed, a cap of 64 seeds.
    let config = kept("campaign", 40);
    let file = fresh_file::<Input>(&config);
    // What an earlier run found: 200 seeds, older than anything the later runs find.
    let found: Vec<Entry> = (0..200u16)
        .map(|i| {
            let input = Input {
                bytes: vec![0; 2 * usize::from(i % 7)],
                words: vec![i],
                flag: i % 2 == 0,
            };
            entry(&input, 1 + u64::from(i))
        })
        .collect();
    kept_file::write(&file, &found);
    // The campaign: a time budget, so it removes nothing and marks what it left.
    let campaign = config
        .clone()
        .with_seed(99)
        .with_time(Duration::from_millis(300));
    assert!(check(&campaign, |cx| cx.generate(), even_lengths).passed());
    let left = kept_file::read(&file);
    assert!(left.len() >= 200);
    assert!(
        left.iter().all(|entry| entry.campaign),
        "the campaign marks every seed it left"
    );
    let holds = |entries: &[Entry], seed: &Entry| entries.iter().any(|e| e.bytes == seed.bytes);
    assert!(
        found.iter().all(|seed| holds(&left, seed)),
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
        let now = kept_file::read(&file);
        assert!(
            now.len() >= left.len(),
            "plain run {run} cut the campaign's seeds to {}",
            now.len()
        );
        let lost = left.iter().filter(|seed| !holds(&now, seed)).count();
        assert_eq!(
            lost, 0,
            "plain run {run} removed {lost} of the campaign's seeds"
        );
    }
    fs::remove_file(&file).unwrap();
}

#[test]
fn a_passing_property_with_nothing_kept_writes_no_file() {
    // No precondition, label, target or coverage: the seeds this run keeps in memory are kept
    // for their input structure alone, and serve this run only.
    let config = kept("nothing_kept", 256);
    let file = fresh_file::<Input>(&config);
    let report = check(
        &config.clone().with_seed(1),
        |cx| cx.generate(),
        |_: &Input| true,
    );
    assert!(report.passed());
    assert!(report.stats.seeds_found > 0, "{:?}", report.stats);
    assert!(!file.exists(), "{} was written", file.display());
    // A campaign keeps them.
    let campaign = config.with_seed(2).with_time(Duration::from_millis(200));
    assert!(check(&campaign, |cx| cx.generate(), |_: &Input| true).passed());
    assert!(
        !kept_file::read(&file).is_empty(),
        "the campaign kept nothing"
    );
    fs::remove_file(&file).unwrap();
}

#[test]
fn a_run_that_finds_nothing_new_leaves_the_file_as_it_is() {
    // Odd numbers are discarded; labels mark three ranges of the even ones. Valid sizes and
    // labels are all found early, so after a few runs every find is in the file.
    let config = kept("nothing_new", 100);
    let file = fresh_file::<u8>(&config);
    let property = |x: &u8| -> bool {
        if x % 2 == 1 {
            return Discard::discard();
        }
        match x {
            0..=9 => cover!("low"),
            10..=99 => cover!("middle"),
            _ => cover!("high"),
        }
        true
    };
    let mut unchanged = 0;
    let mut last = Vec::new();
    for run in 0..10 {
        assert!(check(&config.clone().with_seed(run), |cx| cx.generate(), property).passed());
        let now = fs::read(&file).expect("the labels and the valid size are kept");
        if now == last {
            unchanged += 1;
        }
        last = now;
    }
    assert!(
        unchanged >= 5,
        "only {unchanged} of 9 later runs left the file as it was"
    );
    fs::remove_file(&file).unwrap();
}

/// Runs one check on a kept file in a child process (its stderr is the test's to read).
#[test]
fn damaged_child() {
    let Some(name) = std::env::var_os("TYPEFUZZ_UPKEEP_DAMAGED") else {
        return;
    };
    let config = kept("damaged", 40).with_name(name.to_string_lossy());
    let report = check(&config.with_seed(3), |cx| cx.generate(), even_lengths);
    assert_eq!(report.stats.corpus_loaded, 0, "nothing replayed from it");
    assert!(report.stats.seeds_found > 0);
}

fn run_damaged_child(name: &str) -> String {
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "damaged_child",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("TYPEFUZZ_UPKEEP_DAMAGED", name)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    stderr
}

#[test]
fn a_damaged_kept_file_is_reported_skipped_and_moved_aside_never_overwritten() {
    let config = kept("damaged", 40);
    let name = config.name.clone().unwrap();
    let file = fresh_file::<Input>(&config);
    let seeds: Vec<Entry> = (0..20u16)
        .map(|i| {
            let input = Input {
                bytes: Vec::new(),
                words: vec![i],
                flag: false,
            };
            entry(&input, 1)
        })
        .collect();
    kept_file::write(&file, &seeds);
    // Cut short: the checksum no longer matches.
    let mut damaged = fs::read(&file).unwrap();
    damaged.truncate(damaged.len() - 7);
    fs::write(&file, &damaged).unwrap();
    let stderr = run_damaged_child(&name);
    assert!(
        stderr.contains("skipping the kept seeds") && stderr.contains("checksum"),
        "{stderr}"
    );
    assert!(stderr.contains(".corrupt"), "{stderr}");
    assert_eq!(
        fs::read(corrupt(&file)).unwrap(),
        damaged,
        "moved aside as it was"
    );
    assert!(
        !kept_file::read(&file).is_empty(),
        "a new file holds the run's seeds"
    );
    // Damaged again while the earlier damaged copy is still aside: left as it is.
    fs::write(&file, &damaged[..10]).unwrap();
    let stderr = run_damaged_child(&name);
    assert!(stderr.contains("left as they are"), "{stderr}");
    assert_eq!(
        fs::read(&file).unwrap(),
        &damaged[..10],
        "never overwritten"
    );
    assert_eq!(fs::read(corrupt(&file)).unwrap(), damaged);
    fs::remove_file(&file).unwrap();
    fs::remove_file(corrupt(&file)).unwrap();
}
