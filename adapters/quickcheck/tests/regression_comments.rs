//! The regression file's comment shows a failure's arguments as the failure message does, not
//! the genotype the engine ran (a seed and shrink path, or the typed wrapper). One test in this
//! binary, because it sets `TYPEFUZZ_REGRESSIONS` for the process.

use std::path::Path;

fn below_seven(x: u8) -> bool {
    x < 7
}

fn short(v: Vec<u8>) -> bool {
    v.len() < 3
}

/// Runs `run` with its regressions saved to `file`; returns the failure message's arguments
/// (the text inside `Arguments: (...)`) and the file's `minimal` comment.
fn arguments_and_comment(
    file: &Path,
    run: impl FnOnce() + std::panic::UnwindSafe,
) -> (String, String) {
    std::env::set_var("TYPEFUZZ_REGRESSIONS", file);
    let message = *std::panic::catch_unwind(run)
        .expect_err("the property fails")
        .downcast::<String>()
        .expect("a formatted message");
    std::env::remove_var("TYPEFUZZ_REGRESSIONS");
    let arguments = message
        .lines()
        .next()
        .and_then(|line| line.split("Arguments: ").nth(1))
        .unwrap_or_else(|| panic!("no arguments in\n{message}"))
        .to_string();
    let saved = std::fs::read_to_string(file).expect("the failure was saved");
    let comment = saved
        .lines()
        .find_map(|line| line.split_once(" # minimal: "))
        .unwrap_or_else(|| panic!("no minimal entry in\n{saved}"))
        .1
        .to_string();
    (arguments, comment)
}

#[test]
fn the_comment_shows_the_arguments_as_the_message_does() {
    let dir = std::env::temp_dir().join(format!(
        "typefuzz-quickcheck-comments-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);

    // Arbitrary-generated arguments: the genotype is a seed, a size and a shrink path.
    let (arguments, comment) = arguments_and_comment(&dir.join("generated.txt"), || {
        typefuzz_quickcheck::QuickCheck::new()
            .seed(2)
            .quickcheck(below_seven as fn(u8) -> bool);
    });
    assert_eq!(arguments, "(7)");
    assert_eq!(comment, "(7)");

    // Typed arguments (`Mutate`): the genotype wraps the tuple.
    let (arguments, comment) = arguments_and_comment(&dir.join("typed.txt"), || {
        typefuzz_quickcheck::QuickCheck::new()
            .seed(1)
            .tests(1000)
            .quickcheck_typed(short as fn(Vec<u8>) -> bool);
    });
    assert!(
        arguments.starts_with("([") && arguments.ends_with("])"),
        "{arguments}"
    );
    assert_eq!(comment, arguments);

    let _ = std::fs::remove_dir_all(&dir);
}
