//! Process-ending failures are caught as libFuzzer catches them: a property that aborts,
//! overflows its stack, panics while panicking or calls `exit(0)` makes the process fail, leaves
//! a `crash-<sha1>` file holding the input, prints the seed and the replay command, and the next
//! run replays that input first.
//!
//! Each scenario runs this test binary again as a child process, with `TYPEFUZZ_CRASH_SCENARIO`
//! selecting what the property does on inputs of 200 and above.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use typefuzz::{check, codec, Config, Schedule};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "typefuzz-crash-recovery-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[allow(unconditional_recursion)]
fn recurse(depth: u64) -> u64 {
    let frame = [depth; 32];
    std::hint::black_box(&frame);
    recurse(depth + 1) + frame[0]
}

struct PanicsOnDrop;

impl Drop for PanicsOnDrop {
    fn drop(&mut self) {
        panic!("the second panic, while unwinding");
    }
}

/// The child: a property that ends the process on inputs >= 200, the way the scenario says.
#[test]
fn crash_child() {
    let (Some(scenario), Some(dir)) = (
        std::env::var("TYPEFUZZ_CRASH_SCENARIO").ok(),
        std::env::var_os("TYPEFUZZ_CRASH_DIR"),
    ) else {
        return;
    };
    static FIRST: AtomicBool = AtomicBool::new(true);
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut config = Config::default()
        .with_seed(1)
        .with_name("crash_child")
        .with_regressions(PathBuf::from(dir).join("prop.txt"));
    if scenario.starts_with("fresh-") {
        // Every input a fresh generation (none replayed from an earlier run's corpus).
        config = config
            .with_schedule(Schedule::Generate)
            .with_keep_seeds(false);
    }
    // A generator that keeps state of its own: 0, 1, 2, ... whatever the random state.
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let stateful = scenario == "fresh-stateful-abort";
    check(
        &config,
        |cx| match stateful {
            true => COUNTER.fetch_add(1, Ordering::Relaxed) as u8,
            false => cx.generate::<u8>(),
        },
        |x| {
            if FIRST.swap(false, Ordering::Relaxed) {
                eprintln!("first input: {x}");
            }
            let calls = CALLS.fetch_add(1, Ordering::Relaxed);
            if *x < 200 {
                return;
            }
            match scenario.as_str() {
                "abort" | "fresh-abort" | "fresh-stateful-abort" => std::process::abort(),
                // Once the seeds are mutated (or on the replayed first input): a mutant crashes.
                "late-abort" if calls == 0 || calls > 100 => std::process::abort(),
                "late-abort" => {}
                "stack-overflow" => {
                    recurse(0);
                }
                "exit" => std::process::exit(0),
                "double-panic" => {
                    let _guard = PanicsOnDrop;
                    panic!("the first panic");
                }
                other => panic!("unknown scenario {other}"),
            }
        },
    );
    unreachable!("every scenario ends the process");
}

fn run(scenario: &str, dir: &Path) -> Output {
    Command::new(std::env::current_exe().unwrap())
        .args(["crash_child", "--exact", "--nocapture", "--test-threads=1"])
        .env("TYPEFUZZ_CRASH_SCENARIO", scenario)
        .env("TYPEFUZZ_CRASH_DIR", dir)
        .output()
        .unwrap()
}

fn crash_files(dir: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(dir.join("prop.artifacts")) {
        Ok(entries) => entries
            .map(|entry| entry.unwrap().path())
            .filter(|path| {
                path.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("crash-")
            })
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Runs `scenario` twice and checks what both runs must show; returns the two stderrs.
fn crashes_are_saved_and_replayed_first(scenario: &str) -> (String, String) {
    crashes_are_saved_and_replayed_first_in(&scratch(scenario), scenario)
}

/// [`crashes_are_saved_and_replayed_first`] in `dir`, which may hold crash files already.
fn crashes_are_saved_and_replayed_first_in(dir: &Path, scenario: &str) -> (String, String) {
    let dir = dir.to_path_buf();
    let first = run(scenario, &dir);
    let stderr = String::from_utf8_lossy(&first.stderr).into_owned();
    assert!(
        !first.status.success(),
        "{scenario}: the process fails\n{stderr}"
    );
    // The crash file holds the input, or the recipe of a mutant (its seed's bytes and the
    // mutation), which the next run rebuilds into the plain file.
    let files = crash_files(&dir);
    assert_eq!(files.len(), 1, "{scenario}: one crash file\n{stderr}");
    assert!(
        stderr.contains(&files[0].display().to_string()),
        "{scenario}: names the file\n{stderr}"
    );
    assert!(
        stderr.contains("TYPEFUZZ_SEED=1"),
        "{scenario}: the seed\n{stderr}"
    );
    assert!(
        stderr.contains("replay: cargo test crash_child"),
        "{scenario}: the replay command\n{stderr}"
    );

    let second = run(scenario, &dir);
    let replayed = String::from_utf8_lossy(&second.stderr).into_owned();
    let files = crash_files(&dir);
    assert_eq!(
        files.len(),
        1,
        "{scenario}: one plain crash file\n{replayed}"
    );
    assert!(
        !files[0].to_string_lossy().ends_with(".recipe"),
        "{files:?}"
    );
    let input: u8 = codec::from_bytes(&std::fs::read(&files[0]).unwrap());
    assert!(input >= 200, "the saved input is the crashing one: {input}");
    assert!(
        !second.status.success(),
        "{scenario}: fails again\n{replayed}"
    );
    assert!(
        replayed.contains(&format!("first input: {input}")),
        "{scenario}: the crash input is replayed first\n{replayed}"
    );
    assert!(
        replayed.contains("while a property was running"),
        "{scenario}: the failure is reported\n{replayed}"
    );
    (stderr, replayed)
}

#[test]
fn an_abort_leaves_a_crash_file_replayed_first() {
    let (stderr, _) = crashes_are_saved_and_replayed_first("abort");
    assert!(stderr.contains("aborted"), "{stderr}");
}

/// Runs `scenario` once in a fresh directory; returns the directory, the stderr, and whether the
/// one crash file it left is a recipe.
fn first_crash(scenario: &str) -> (PathBuf, String, bool) {
    let dir = scratch(scenario);
    let first = run(scenario, &dir);
    let stderr = String::from_utf8_lossy(&first.stderr).into_owned();
    let files = crash_files(&dir);
    assert_eq!(files.len(), 1, "one crash file\n{stderr}");
    let recipe = files[0].to_string_lossy().ends_with(".recipe");
    (dir, stderr, recipe)
}

#[test]
fn a_crashing_mutant_leaves_a_recipe_the_next_run_rebuilds_and_replays_first() {
    let (dir, stderr, recipe) = first_crash("late-abort");
    assert!(
        recipe,
        "a mutant is saved as its recipe, not encoded before its call\n{stderr}"
    );
    assert!(stderr.contains("rebuilds the input from it"), "{stderr}");
    let (_, replayed) = crashes_are_saved_and_replayed_first_in(&dir, "late-abort");
    assert!(replayed.contains("aborted"), "{replayed}");
}

#[test]
fn a_crashing_fresh_input_leaves_a_recipe_the_next_run_rebuilds_and_replays_first() {
    let (dir, stderr, recipe) = first_crash("fresh-abort");
    assert!(
        recipe,
        "a fresh input of `cx.generate` is saved as its random state, not encoded before its \
         call\n{stderr}"
    );
    assert!(stderr.contains("rebuilds the input from it"), "{stderr}");
    let (_, replayed) = crashes_are_saved_and_replayed_first_in(&dir, "fresh-abort");
    assert!(replayed.contains("aborted"), "{replayed}");
}

#[test]
fn a_generator_with_state_of_its_own_gets_its_fresh_inputs_encoded() {
    let (dir, stderr, recipe) = first_crash("fresh-stateful-abort");
    assert!(!recipe, "a recipe would rebuild another input\n{stderr}");
    let files = crash_files(&dir);
    let input: u8 = codec::from_bytes(&std::fs::read(&files[0]).unwrap());
    assert_eq!(input, 200, "the counter's 200th input crashed");
    let (_, replayed) = crashes_are_saved_and_replayed_first_in(&dir, "fresh-stateful-abort");
    assert!(replayed.contains("first input: 200"), "{replayed}");
}

#[test]
fn a_stack_overflow_leaves_a_crash_file_replayed_first() {
    let (stderr, _) = crashes_are_saved_and_replayed_first("stack-overflow");
    assert!(stderr.contains("SIGSEGV"), "{stderr}");
}

#[test]
fn exit_inside_a_property_fails_and_leaves_a_crash_file() {
    let dir = scratch("exit-status");
    let output = run("exit", &dir);
    assert_eq!(
        output.status.code(),
        Some(77),
        "exit(0) in a property is not a pass: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (stderr, _) = crashes_are_saved_and_replayed_first("exit");
    assert!(stderr.contains("`exit` was called"), "{stderr}");
}

#[test]
fn a_double_panic_shows_both_messages() {
    let (stderr, _) = crashes_are_saved_and_replayed_first("double-panic");
    assert!(stderr.contains("the first panic"), "{stderr}");
    assert!(
        stderr.contains("the second panic, while unwinding"),
        "{stderr}"
    );
}
