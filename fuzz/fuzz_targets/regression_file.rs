//! The engine's regression-file parser (reached through `typefuzz::check`, its only public
//! entrance): generated files mixing well-formed `cc <hex>` entries with comments, blank lines,
//! garbage, wrong headers and non-UTF-8 bytes never make it panic, and with the current header
//! every well-formed entry of the target's shape is replayed. Saving a failure never loses an
//! entry: a file the engine cannot read is left byte for byte as it was, and a readable file
//! keeps every entry it had. A typed target: the files come from the adapter's mutator.
#![no_main]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use typefuzz::codec::from_bytes;
use typefuzz::{check, Config};
use typefuzz_fuzz::regression_text::RegressionText;

/// One file per process (so `-fork`/`-jobs` workers do not share it).
fn path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!(
            "typefuzz-fuzz-regressions-{}.txt",
            std::process::id()
        ))
    })
}

typefuzz::fuzz_target!(|file: RegressionText| {
    let (bytes, expected, unreadable) = file.render();
    std::fs::write(path(), &bytes).expect("write the regression file");
    let config = Config::default()
        .with_regressions(path())
        .with_cases(0)
        .with_seed(0)
        .with_progress(false)
        // libFuzzer's -timeout watches hangs here; no watchdog thread per input.
        .with_test_timeout(Duration::ZERO);
    let mut replayed: HashMap<Vec<u8>, usize> = HashMap::new();
    let report = check(
        &config,
        |cx| cx.generate::<Vec<u8>>(),
        |value: &Vec<u8>| {
            *replayed.entry(value.clone()).or_default() += 1;
        },
    );
    assert!(report.failure.is_none());
    let mut wanted: HashMap<Vec<u8>, usize> = HashMap::new();
    for entry in &expected {
        *wanted.entry(from_bytes::<Vec<u8>>(entry)).or_default() += 1;
    }
    for (value, count) in &wanted {
        let seen = replayed.get(value).copied().unwrap_or(0);
        assert!(
            seen >= *count,
            "entry {value:?} replayed {seen} times, expected {count}"
        );
    }

    // A failure to save: a fresh input no entry holds.
    let fresh = vec![0xfe; 40];
    let failing = config.clone().with_cases(u64::MAX).with_shrink_steps(0);
    let fresh_input = fresh.clone();
    let report = check(
        &failing,
        move |_| fresh_input.clone(),
        |value: &Vec<u8>| *value != fresh,
    );
    assert!(report.failure.is_some());
    let after = std::fs::read(path()).expect("the file is still there");
    if unreadable {
        assert_eq!(
            after, bytes,
            "a file the engine cannot read is never overwritten"
        );
    }
    let mut replayed_after: HashMap<Vec<u8>, usize> = HashMap::new();
    check(
        &config,
        |cx| cx.generate::<Vec<u8>>(),
        |value: &Vec<u8>| {
            *replayed_after.entry(value.clone()).or_default() += 1;
        },
    );
    for value in wanted.keys() {
        assert!(
            replayed_after.contains_key(value),
            "entry {value:?} was lost"
        );
    }
});
