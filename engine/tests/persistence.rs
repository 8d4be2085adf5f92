//! Regression files and corpus directories: what one run saves, the next run replays; corrupt
//! files are reported and skipped, never a panic.

use std::cell::Cell;
use std::path::PathBuf;

use typefuzz::{check, codec, cover, Config};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "typefuzz-persistence-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_saved_failure_is_replayed_first() {
    let dir = scratch("replay");
    let file = dir.join("prop.txt");
    let first = check(
        &Config::default().with_seed(1).with_regressions(&file),
        |cx| cx.generate::<u32>(),
        |x| *x < 5000,
    );
    let minimal = first.failure.expect("fails").minimal;
    assert_eq!(minimal, 5000);

    // A different seed would have to search again; the regression file makes it the first test.
    let calls = Cell::new(0u64);
    let second = check(
        &Config::default().with_seed(2).with_regressions(&file),
        |cx| cx.generate::<u32>(),
        |x| {
            calls.set(calls.get() + 1);
            *x < 5000
        },
    );
    let failure = second.failure.expect("fails again");
    assert_eq!(second.stats.regressions_replayed, 1);
    assert_eq!(failure.tests, 1, "the replayed input fails at once");
    assert_eq!(failure.original, 5000);
}

#[test]
fn the_original_is_replaced_by_the_minimal_input() {
    let dir = scratch("replace");
    let file = dir.join("prop.txt");
    let report = check(
        &Config::default().with_seed(3).with_regressions(&file),
        |cx| cx.generate::<Vec<u8>>(),
        |v| v.len() < 4,
    );
    let failure = report.failure.unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let entries: Vec<&str> = text.lines().filter(|l| l.starts_with("cc ")).collect();
    assert_eq!(entries.len(), 1, "{text}");
    let hex: String = codec::to_bytes(&failure.minimal)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(entries[0].starts_with(&format!("cc {hex}")), "{text}");
    assert!(
        text.starts_with("# typefuzz regressions v1"),
        "versioned: {text}"
    );
}

#[test]
fn a_corrupt_regression_file_is_skipped() {
    let dir = scratch("corrupt");
    let file = dir.join("prop.txt");
    for garbage in [
        &b"\xff\xfe not text"[..],
        b"no header\ncc 00\n",
        b"# typefuzz regressions v1\ncc zz\ncc 0\n",
    ] {
        std::fs::write(&file, garbage).unwrap();
        let report = check(
            &Config::default().with_seed(4).with_regressions(&file),
            |cx| cx.generate::<u8>(),
            |_| (),
        );
        assert!(report.passed());
        assert_eq!(report.stats.regressions_replayed, 0);
        assert_eq!(report.stats.valid, Config::default().cases);
    }
}

#[allow(clippy::ptr_arg)] // a property over `Vec<u8>` receives `&Vec<u8>`
fn labelled(v: &Vec<u8>) {
    for (i, &byte) in v.iter().enumerate().take(3) {
        if byte % 16 == 0 {
            match i {
                0 => cover!("first"),
                1 => cover!("second"),
                _ => cover!("third"),
            }
        }
    }
}

#[test]
fn the_corpus_directory_round_trips() {
    let dir = scratch("corpus").join("corpus");
    let config = Config::default()
        .with_seed(5)
        .with_corpus(&dir)
        .with_cases(5_000);
    let first = check(&config, |cx| cx.generate::<Vec<u8>>(), labelled);
    assert!(first.passed());
    let files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        files.len() as u64,
        first.stats.seeds_found,
        "one file per kept seed"
    );
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(
            name,
            sha1_smol::Sha1::from(&bytes).digest().to_string(),
            "libFuzzer's naming"
        );
        let value: Vec<u8> = codec::from_bytes(&bytes);
        assert_eq!(codec::to_bytes(&value), bytes);
    }

    // The next run loads them: their labels are no longer new, so fewer seeds are found.
    let seen = std::cell::RefCell::new(Vec::new());
    let second = check(
        &config.clone().with_seed(6).with_cases(files.len() as u64),
        |cx| cx.generate::<Vec<u8>>(),
        |v| {
            seen.borrow_mut().push(v.clone());
        },
    );
    assert_eq!(second.stats.corpus_loaded, files.len() as u64);
    let seen = seen.into_inner();
    for path in &files {
        let value: Vec<u8> = codec::from_bytes(&std::fs::read(path).unwrap());
        assert!(
            seen[..files.len()].contains(&value),
            "corpus inputs run first"
        );
    }
}

#[test]
fn unreadable_corpus_entries_are_skipped() {
    let dir = scratch("corpus-bad").join("corpus");
    std::fs::create_dir_all(dir.join("a-directory")).unwrap();
    std::fs::write(dir.join("0123"), [3, 1, 2, 3]).unwrap();
    let report = check(
        &Config::default()
            .with_seed(7)
            .with_corpus(&dir)
            .with_cases(10),
        |cx| cx.generate::<Vec<u8>>(),
        |_| (),
    );
    assert!(report.passed());
    assert_eq!(report.stats.corpus_loaded, 1);
}
