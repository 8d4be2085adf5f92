//! Regression files and corpus directories: what one run saves, the next run replays; corrupt
//! files are reported and skipped, never a panic.

use std::cell::Cell;
use std::path::PathBuf;

use typefuzz::{check, codec, cover, Config, InputSource};

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
        text.starts_with("# typefuzz regressions v2"),
        "versioned: {text}"
    );
}

#[test]
fn a_huge_failing_input_is_shown_bounded_and_saved_whole() {
    let dir = scratch("huge");
    let file = dir.join("prop.txt");
    let report = check(
        &Config::default()
            .with_seed(1)
            .with_regressions(&file)
            .with_shrink_steps(0)
            .with_keep_seeds(false)
            .with_read_env(false),
        |_| vec![7u8; 1 << 20],
        |v| v.len() < 1 << 20,
    );
    let failure = report.failure.expect("fails");
    // The message shows the first 64 KiB of each input's text (about 3 MB whole)...
    let message = failure.to_string();
    assert!(message.contains("(formatting stopped after 65536 bytes)"));
    assert!(message.len() < 2 * typefuzz::MAX_FORMATTED + 4096);
    // ... the regression file's comment less, and its entry all of it, which replays.
    let text = std::fs::read_to_string(&file).unwrap();
    let entry = text
        .lines()
        .find(|l| l.starts_with("cc "))
        .expect("an entry");
    let (data, comment) = entry.split_once(" # ").expect("a comment");
    assert!(
        comment.starts_with("minimal: [7, 7, ") && comment.len() < 300,
        "{comment}"
    );
    let hex = data[3..].split(' ').next().unwrap();
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(&hex[at..at + 2], 16).unwrap())
        .collect();
    assert_eq!(codec::from_bytes::<Vec<u8>>(&bytes), vec![7u8; 1 << 20]);
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

// ---- persistence you can trust ------------------------------------------------------------

use std::path::Path;
use std::process::Command;

use typefuzz::fingerprint;
use typefuzz::Mutate;

fn entries(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter(|line| line.starts_with("cc "))
        .map(str::to_string)
        .collect()
}

/// Runs the test `name` of this binary in a child process with `vars` set.
fn child(name: &str, vars: &[(&str, &std::ffi::OsStr)]) -> std::process::Output {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command.args([name, "--exact", "--nocapture", "--test-threads=1"]);
    for (key, value) in vars {
        command.env(key, value);
    }
    command.output().unwrap()
}

#[derive(Clone, Debug, PartialEq, Mutate)]
enum Nat {
    Zero,
    Succ(Box<Nat>),
}

fn nat(depth: usize) -> Nat {
    (0..depth).fold(Nat::Zero, |inner, _| Nat::Succ(Box::new(inner)))
}

fn depth(mut value: &Nat) -> usize {
    let mut levels = 0;
    while let Nat::Succ(inner) = value {
        levels += 1;
        value = inner;
    }
    levels
}

/// D1: before, a value deeper than the codec bound was saved truncated and reported "saved";
/// its replay passed.
#[test]
fn a_value_deeper_than_the_codec_bound_is_not_reported_saved() {
    let dir = scratch("deep");
    let file = dir.join("deep.txt");
    let report = check(
        &Config::default().with_seed(1).with_regressions(&file),
        |_| nat(300),
        |value| depth(value) < 300,
    );
    let failure = report.failure.expect("fails");
    let text = failure.to_string();
    assert!(failure.regression_file.is_none(), "{text}");
    assert!(!text.contains("saved to"), "{text}");
    let why = failure.not_saved.as_deref().unwrap_or_default();
    assert!(why.contains("could not be saved in full"), "{text}");
    assert!(why.contains("256"), "says why: {text}");
    assert!(entries(&file).is_empty(), "no truncated entry");
}

/// D1: before, values deeper than 512 were not shrunk at all ("shrunk in 0 steps").
#[test]
fn values_deeper_than_the_mutation_bound_are_shrunk() {
    // 640 levels: deeper than the mutation bound (512), and 40 shrink steps from the minimum.
    // The time bound is lifted so that a slow machine shrinks as far as a fast one; the work is
    // bounded by the steps.
    let report = check(
        &Config::default()
            .with_seed(2)
            .with_shrink_time(std::time::Duration::from_secs(3600)),
        |_| nat(640),
        |value| depth(value) < 600,
    );
    let failure = report.failure.expect("fails");
    assert!(failure.shrink_note.is_none(), "{:?}", failure.shrink_note);
    assert_eq!(
        depth(&failure.minimal),
        600,
        "shrunk to the smallest failing depth"
    );
    assert!(failure.shrink_steps > 0);
}

/// D2: before, a file the reader did not accept was skipped and then overwritten.
#[test]
fn an_unreadable_regression_file_is_never_overwritten() {
    let dir = scratch("unreadable");
    let file = dir.join("prop.txt");
    let contents: [&[u8]; 4] = [
        b"# typefuzz regressions v9\ncc 0102 future syntax\n",
        b"\xef\xbb\xbf# typefuzz regressions v1\ncc 01\n",
        b"# typefuzz regresions v1\ncc 01\n",
        b"\xff\xfe\x00binary",
    ];
    for content in contents {
        std::fs::write(&file, content).unwrap();
        let report = check(
            &Config::default().with_seed(3).with_regressions(&file),
            |cx| cx.generate::<u8>(),
            |x| *x < 100,
        );
        let failure = report.failure.expect("fails");
        assert_eq!(std::fs::read(&file).unwrap(), content, "left untouched");
        assert!(failure.regression_file.is_none());
        let text = failure.to_string();
        assert!(text.contains("not saved"), "{text}");
        assert!(
            text.contains(&file.display().to_string()),
            "names the file: {text}"
        );
    }
}

mod before {
    #[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
    pub enum Op {
        Add(u64),
        Sub(u64),
    }
}

mod after {
    /// `before::Op` with its variants reordered: the same bytes mean another value.
    #[derive(Clone, Debug, PartialEq, typefuzz::Mutate)]
    pub enum Op {
        Sub(u64),
        Add(u64),
    }
}

/// D3: before, `Sub(101)` saved and the variants reordered replayed as `Add(101)`.
#[test]
fn an_entry_of_another_shape_is_kept_and_not_replayed() {
    let dir = scratch("shape");
    let file = dir.join("op.txt");
    let first = check(
        &Config::default().with_seed(4).with_regressions(&file),
        |_| before::Op::Sub(101),
        |op| !matches!(op, before::Op::Sub(n) if *n > 100),
    );
    assert!(first.failure.is_some());
    assert_eq!(entries(&file).len(), 1);

    let second = check(
        &Config::default()
            .with_seed(4)
            .with_regressions(&file)
            .with_cases(1),
        |_| after::Op::Sub(0),
        |op| !matches!(op, after::Op::Sub(n) if *n > 100),
    );
    assert!(second.passed());
    assert_eq!(
        second.stats.regressions_replayed, 0,
        "not replayed as Add(101)"
    );
    assert_eq!(entries(&file).len(), 1, "kept");
    assert_ne!(
        fingerprint::of::<before::Op>(),
        fingerprint::of::<after::Op>()
    );
}

/// The entry kept but not replayed is announced where a passing test's reader sees it: before,
/// the notice went through `eprintln!`, which libtest captures and drops for a passing test.
#[test]
fn a_kept_entry_of_another_shape_is_announced_past_libtests_capture() {
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "an_entry_of_another_shape_is_kept_and_not_replayed",
            "--exact",
            "--test-threads=1",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let notices = stderr.matches("kept, not replayed").count();
    assert_eq!(notices, 1, "{stderr}");
    assert!(stderr.contains("delete it from the file"), "{stderr}");
}

/// Old-format (v1) entries, which carry no fingerprint, keep being replayed.
#[test]
fn old_format_entries_keep_working() {
    let dir = scratch("v1");
    let file = dir.join("prop.txt");
    std::fs::write(&file, "# typefuzz regressions v1\ncc c8 # 200\n").unwrap();
    let report = check(
        &Config::default().with_seed(5).with_regressions(&file),
        |_| 0u8,
        |x| *x < 100,
    );
    assert_eq!(report.stats.regressions_replayed, 1);
    assert_eq!(report.failure.expect("the entry fails").original, 200);
}

/// The fingerprint is part of the file format: it must not change between builds.
#[test]
fn fingerprints_are_stable() {
    assert_eq!(fingerprint::of::<u8>(), 0x9c88_c3d3_28cb_e24a);
    assert_eq!(fingerprint::of::<Nat>(), 0xb600_b422_bc26_1612);
}

/// One child of `four_processes_appending_to_one_file_keep_every_entry`: saves one failure.
#[test]
fn append_child() {
    let (Some(file), Some(value)) = (
        std::env::var_os("TYPEFUZZ_TEST_APPEND_FILE"),
        std::env::var("TYPEFUZZ_TEST_APPEND_VALUE").ok(),
    ) else {
        return;
    };
    let value: u32 = value.parse().unwrap();
    let report = check(
        &Config::default()
            .with_seed(6)
            .with_regressions(PathBuf::from(file))
            .with_shrink_steps(0),
        move |_| value,
        move |x| *x != value,
    );
    assert!(report.failure.unwrap().regression_file.is_some());
}

/// D4: before, four processes appending to one file kept 1-2 of 4 entries.
#[test]
fn four_processes_appending_to_one_file_keep_every_entry() {
    let dir = scratch("concurrent");
    for round in 0..20 {
        let file = dir.join(format!("shared-{round}.txt"));
        let children: Vec<_> = (0..4u32)
            .map(|index| {
                Command::new(std::env::current_exe().unwrap())
                    .args(["append_child", "--exact", "--test-threads=1"])
                    .env("TYPEFUZZ_TEST_APPEND_FILE", &file)
                    .env("TYPEFUZZ_TEST_APPEND_VALUE", (1000 + index).to_string())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut child in children {
            assert!(child.wait().unwrap().success());
        }
        assert_eq!(
            entries(&file).len(),
            4,
            "round {round}: {:?}",
            entries(&file)
        );
    }
}

/// D4: threads of one process saving to one file keep every entry too.
#[test]
fn threads_saving_to_one_file_keep_every_entry() {
    let file = scratch("threads").join("shared.txt");
    std::thread::scope(|scope| {
        for value in 0..4u32 {
            let file = &file;
            scope.spawn(move || {
                check(
                    &Config::default()
                        .with_seed(7)
                        .with_regressions(file)
                        .with_shrink_steps(0),
                    move |_| value,
                    move |x| *x != value,
                );
            });
        }
    });
    assert_eq!(entries(&file).len(), 4);
}

/// D4: with TYPEFUZZ_REGRESSIONS naming a directory, each test gets its own file.
#[test]
fn a_regression_directory_gives_each_test_its_own_file() {
    let dir = scratch("per-test");
    for name in ["tests::a", "tests::b"] {
        let config = Config::default().with_name(name).with_regressions(&dir);
        assert_eq!(
            config.regression_path().unwrap(),
            dir.join(format!("{}.txt", name.replace("::", "-")))
        );
    }
}

/// Makes a FIFO at `path` with POSIX's `mkfifo`: a missing tool fails the test instead of
/// skipping it, so the two tests below always check what they claim.
#[cfg(unix)]
fn make_fifo(path: &std::path::Path) {
    let made = Command::new("mkfifo").arg(path).status();
    assert!(
        made.as_ref().is_ok_and(|status| status.success()),
        "mkfifo {}: {made:?}",
        path.display()
    );
}

/// D7: before, saving replaced a FIFO (or `/dev/null`, as root) with a regular file.
#[test]
#[cfg(unix)]
fn a_non_regular_file_is_never_replaced() {
    let dir = scratch("fifo");
    let fifo = dir.join("fifo.txt");
    make_fifo(&fifo);
    let report = check(
        &Config::default().with_seed(8).with_regressions(&fifo),
        |cx| cx.generate::<u8>(),
        |x| *x < 100,
    );
    let failure = report.failure.expect("fails");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    let text = failure.to_string();
    assert!(text.contains("not a regular file"), "{text}");
    assert!(!text.contains("saved to"), "{text}");
}

use std::os::unix::fs::FileTypeExt;

/// D7: a symlinked regression file is written through: the link stays a link.
#[test]
fn a_symlinked_regression_file_is_written_through() {
    let dir = scratch("symlink");
    let target = dir.join("real.txt");
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink("real.txt", &link).unwrap();
    let report = check(
        &Config::default().with_seed(9).with_regressions(&link),
        |cx| cx.generate::<u8>(),
        |x| *x < 100,
    );
    assert!(report.failure.is_some());
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(entries(&target).len(), 1);
}

/// D8: before, "saved to ..." was printed right after "could not save ...".
#[test]
fn an_unwritable_regression_file_is_not_reported_saved() {
    let dir = scratch("unwritable");
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, "").unwrap();
    let report = check(
        &Config::default()
            .with_seed(10)
            .with_regressions(blocker.join("prop.txt")),
        |cx| cx.generate::<u8>(),
        |x| *x < 100,
    );
    let text = report.failure.expect("fails").to_string();
    assert!(!text.contains("saved to"), "{text}");
    assert!(text.contains("not saved: could not save"), "{text}");
}

/// D8: before, a FIFO in the corpus directory made loading block forever.
#[test]
#[cfg(unix)]
fn a_fifo_in_the_corpus_directory_is_skipped() {
    let dir = scratch("corpus-fifo").join("corpus");
    std::fs::create_dir_all(&dir).unwrap();
    make_fifo(&dir.join("0000"));
    let report = check(
        &Config::default()
            .with_seed(11)
            .with_corpus(&dir)
            .with_cases(10),
        |cx| cx.generate::<u8>(),
        |_| (),
    );
    assert_eq!(report.stats.corpus_loaded, 0);
}

/// D8: before, a failure that does not repeat on the same input was reported as an ordinary
/// minimal input.
#[test]
fn a_flaky_failure_is_reported_as_flaky() {
    let calls = Cell::new(0u64);
    let report = check(
        &Config::default().with_seed(12),
        |cx| cx.generate::<u8>(),
        |_| {
            calls.set(calls.get() + 1);
            calls.get() % 3 != 0
        },
    );
    let failure = report.failure.expect("fails");
    assert!(
        failure.notes.iter().any(|note| note.contains("flaky")),
        "{failure}"
    );
}

/// D8 and the per-test timeout: the defaults.
#[test]
fn a_test_timeout_is_on_by_default() {
    assert_eq!(
        Config::default().test_timeout,
        Some(std::time::Duration::from_secs(10))
    );
}

/// D8: the report does not claim `TYPEFUZZ_SEED` replays a config that ignores it.
#[test]
fn the_replay_line_names_both_ways_to_set_the_seed() {
    let report = check(
        &Config::default().with_seed(13),
        |cx| cx.generate::<u8>(),
        |x| *x < 100,
    );
    let text = report.failure.unwrap().to_string();
    assert!(text.contains("Config::with_seed(13)"), "{text}");
}

/// A child that builds its configuration from the environment and runs a passing property.
#[test]
fn env_child() {
    if std::env::var_os("TYPEFUZZ_TEST_ENV_CHILD").is_none() {
        return;
    }
    let config = Config::from_env().with_name("env::child");
    let report = check(
        &config,
        |cx| cx.generate::<u8>(),
        |x| {
            if *x > 128 {
                cover!("big");
            }
        },
    );
    report.assert_passed();
}

/// A child that runs `check` on a configuration it wrote itself (no `from_env`), once as is and
/// once with `read_env` off, and prints what each run did.
#[test]
fn plain_config_child() {
    if std::env::var_os("TYPEFUZZ_TEST_PLAIN_CHILD").is_none() {
        return;
    }
    let config = Config::default().with_cases(50).with_keep_seeds(false);
    for (label, config) in [
        ("env", config.clone()),
        ("fixed", config.with_read_env(false)),
    ] {
        let report = check(&config, |cx| cx.generate::<u8>(), |_| true);
        println!(
            "{label}: seed {} valid {}",
            report.stats.seed, report.stats.valid
        );
    }
}

/// Before, `check` ignored `TYPEFUZZ_*` unless the caller applied them: `TYPEFUZZ_SEED` and
/// `TYPEFUZZ_CASES` silently did nothing on a test written against `check`.
#[test]
fn check_applies_the_environment_unless_told_not_to() {
    let output = child(
        "plain_config_child",
        &[
            ("TYPEFUZZ_TEST_PLAIN_CHILD", "1".as_ref()),
            ("TYPEFUZZ_SEED", "77".as_ref()),
            ("TYPEFUZZ_CASES", "123".as_ref()),
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("env: seed 77 valid 123"), "{stdout}");
    let fixed = stdout
        .lines()
        .find(|l| l.starts_with("fixed: "))
        .unwrap_or_default();
    assert!(
        fixed.ends_with(" valid 50") && !fixed.contains("seed 77 "),
        "{stdout}"
    );
}

/// D6: before, zero budgets ran no test and passed silently.
#[test]
fn zero_budgets_fail_naming_the_variable() {
    for (var, value) in [
        ("TYPEFUZZ_CASES", "0"),
        ("TYPEFUZZ_TIME", "0"),
        ("TYPEFUZZ_TIME", "0s"),
        ("TYPEFUZZ_MAX_DISCARDS", "0"),
    ] {
        let output = child(
            "env_child",
            &[
                ("TYPEFUZZ_TEST_ENV_CHILD", "1".as_ref()),
                (var, value.as_ref()),
            ],
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(!output.status.success(), "{var}={value}: {stdout}{stderr}");
        assert!(
            stdout.contains(&format!("{var}={value}"))
                || stderr.contains(&format!("{var}={value}")),
            "names the variable: {stdout}{stderr}"
        );
    }
}

/// D6/D8: numbers that do not fit are rejected with their own message; before,
/// `TYPEFUZZ_MAX_SIZE=18446744073709551615` panicked with an add overflow.
#[test]
fn numbers_that_do_not_fit_are_rejected_and_huge_sizes_do_not_overflow() {
    let output = child(
        "env_child",
        &[
            ("TYPEFUZZ_TEST_ENV_CHILD", "1".as_ref()),
            ("TYPEFUZZ_CASES", "99999999999999999999999".as_ref()),
            ("TYPEFUZZ_MAX_SIZE", "18446744073709551615".as_ref()),
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("does not fit"), "{stderr}");
    assert!(output.status.success(), "{stderr}");
}

/// D8: before, `Config::from_env().with_name(n)` left the corpus at `<dir>`, not `<dir>/<n>/`.
#[test]
fn the_env_corpus_gets_the_name_set_after_it() {
    let dir = scratch("env-corpus");
    let output = child(
        "env_child",
        &[
            ("TYPEFUZZ_TEST_ENV_CHILD", "1".as_ref()),
            ("TYPEFUZZ_CORPUS", dir.as_os_str()),
            ("TYPEFUZZ_CASES", "200".as_ref()),
        ],
    );
    assert!(output.status.success());
    assert!(dir.join("env-child").is_dir(), "corpus under <dir>/<name>/");
}

/// D1: encoding a value 10,000 levels deep neither overflows the stack nor pretends to be
/// whole: the encoder flags the truncation the engine checks before saving.
#[test]
fn the_codec_flags_values_deeper_than_its_bound() {
    let deep = nat(10_000);
    let mut out = codec::Encoder::new();
    deep.encode(&mut out);
    assert!(out.is_truncated());
    let decoded: Nat = codec::from_bytes(out.as_bytes());
    assert!(depth(&decoded) <= codec::Decoder::MAX_DEPTH);
    let mut shallow = codec::Encoder::new();
    nat(100).encode(&mut shallow);
    assert!(!shallow.is_truncated());
    assert_eq!(codec::from_bytes::<Nat>(shallow.as_bytes()), nat(100));
    // Dropped level by level: the compiler's drop glue would recurse 10,000 times.
    let mut pending = vec![deep];
    while let Some(Nat::Succ(inner)) = pending.pop() {
        pending.push(*inner);
    }
}

/// The report says where the failing input came from and what replays it on a clean checkout:
/// before, it always printed "replay this run: TYPEFUZZ_SEED=<seed>", which does not hold for an
/// input from the kept corpus (a clean checkout has none).
#[test]
fn the_report_names_the_inputs_source_and_a_replay_that_holds() {
    let dir = scratch("source");
    let regressions = dir.join("regressions.txt");
    let corpus = dir.join("corpus");
    let config = Config::default()
        .with_seed(6)
        .with_read_env(false)
        .with_keep_seeds(false);
    // Fresh: the seed with the corpus off replays it.
    let fresh = check(&config, |cx| cx.generate::<u8>(), |x| *x < 100);
    let text = fresh.failure.expect("fails").to_string();
    assert!(
        text.contains("replay this run: TYPEFUZZ_SEED=6 TYPEFUZZ_CORPUS=off"),
        "{text}"
    );
    // From a corpus directory: named as such.
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(corpus.join("input"), codec::to_bytes(&250u8)).unwrap();
    let from_corpus = check(
        &config.clone().with_corpus(&corpus),
        |cx| cx.generate::<u8>(),
        |x| *x < 200,
    );
    let failure = from_corpus.failure.expect("the corpus input fails");
    assert_eq!(failure.source, InputSource::Corpus { kept: false });
    assert!(failure
        .to_string()
        .contains("found by replaying the corpus directory"));
    // From the regression file, on the next run.
    let saving = config.clone().with_regressions(&regressions);
    assert!(check(&saving, |cx| cx.generate::<u8>(), |x| *x < 100)
        .failure
        .is_some());
    let again = check(&saving, |cx| cx.generate::<u8>(), |x| *x < 100);
    let failure = again.failure.expect("replayed");
    assert_eq!(failure.source, InputSource::Regression);
    assert!(failure
        .to_string()
        .contains("found by replaying a saved input"));
}
