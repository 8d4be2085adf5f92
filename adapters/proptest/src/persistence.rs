//! Where failures are kept: proptest's `.proptest-regressions` seeds (replayed first) and
//! typefuzz's own regression file of each test, beside them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use proptest::test_runner::{Config as ProptestConfig, FileFailurePersistence};

/// The ChaCha seeds of a test's `.proptest-regressions` file (`cc <64 hex digits>` lines), in
/// file order, read through proptest's own persistence (so its file location rules apply).
/// Seeds of other generators (`xs`, from proptest before 0.9.1) are skipped, said in one line
/// per file and process (every test of the file reads the same seeds).
pub(crate) fn proptest_seeds(proptest: &ProptestConfig) -> Vec<[u8; 32]> {
    let Some(persistence) = &proptest.failure_persistence else {
        return Vec::new();
    };
    let mut seeds = Vec::new();
    let mut skipped = Vec::new();
    for seed in persistence.load_persisted_failures2(proptest.source_file) {
        let line = seed.to_string();
        match parse_chacha_seed(&line) {
            Some(bytes) => seeds.push(bytes),
            None => skipped.push(line),
        }
    }
    if let Some(first) = skipped.first() {
        static NOTED: Mutex<Vec<String>> = Mutex::new(Vec::new());
        let file = proptest.source_file.unwrap_or("this test").to_owned();
        let mut noted = NOTED
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if !noted.contains(&file) {
            noted.push(file.clone());
            let prefix: String = first.chars().take(12).collect();
            eprintln!(
                "typefuzz: skipping {} proptest regression seed(s) of {file}'s tests (`{prefix}...`): \
                 only ChaCha (`cc`) seeds, proptest's default since 0.9.1, can be replayed; \
                 delete those lines or let plain proptest rewrite them",
                skipped.len()
            );
        }
    }
    seeds
}

/// `cc <64 hex digits>` as 32 bytes.
fn parse_chacha_seed(line: &str) -> Option<[u8; 32]> {
    let hex = line.trim().strip_prefix("cc ")?.trim();
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// typefuzz's regression file of a `proptest!` test: beside the file where proptest keeps the
/// test's seeds, named after the test, e.g. `tests/parse.proptest-regressions` ->
/// `tests/parse.round_trip.typefuzz-regressions` (one file per test, since typefuzz saves typed
/// inputs of one shape per file). `None` when proptest would keep nothing (no persistence, no
/// source file, or a persistence other than proptest's files).
pub(crate) fn regression_path(proptest: &ProptestConfig, test: &str) -> Option<PathBuf> {
    let persistence = proptest.failure_persistence.as_ref()?;
    let file = persistence
        .as_any()
        .downcast_ref::<FileFailurePersistence>()?;
    let proptest_file = match file {
        FileFailurePersistence::SourceParallel(sibling) => {
            source_parallel_cached(proptest.source_file?, sibling)?
        }
        FileFailurePersistence::WithSource(extension) => {
            absolute_source(Path::new(proptest.source_file?))?.with_extension(extension)
        }
        FileFailurePersistence::Direct(path) => PathBuf::from(path),
        _ => return None,
    };
    let stem = proptest_file.file_stem()?.to_string_lossy().into_owned();
    Some(proptest_file.with_file_name(format!("{stem}.{test}.typefuzz-regressions")))
}

/// [`source_parallel`] of the absolute `source`, found once per source file, sibling and
/// working directory in a process: every test of a file shares it, and finding it climbs the
/// directory tree twice (a dozen file-system calls).
fn source_parallel_cached(source: &'static str, sibling: &str) -> Option<PathBuf> {
    type Found = HashMap<(&'static str, String, PathBuf), Option<PathBuf>>;
    static FOUND: Mutex<Option<Found>> = Mutex::new(None);
    let cwd = std::env::current_dir().ok()?;
    let key = (source, sibling.to_owned(), cwd);
    let mut found = FOUND.lock().unwrap_or_else(PoisonError::into_inner);
    let found = found.get_or_insert_with(HashMap::new);
    if let Some(path) = found.get(&key) {
        return path.clone();
    }
    let path = absolute_source(Path::new(source)).map(|source| source_parallel(&source, sibling));
    found.insert(key, path.clone());
    path
}

/// `file!()` is relative to the workspace root while tests run in the package root: as proptest
/// does, climb from the working directory until the joined path is a file.
fn absolute_source(source: &Path) -> Option<PathBuf> {
    if source.is_absolute() {
        return Some(source.to_path_buf());
    }
    let mut dir = std::env::current_dir().ok()?;
    loop {
        let joined = dir.join(source);
        if joined.is_file() {
            return Some(joined);
        }
        if !dir.pop() {
            return None;
        }
    }
}

/// proptest's default location: `src/a/b.rs` -> `proptest-regressions/a/b.txt` (a tree parallel
/// to the directory holding `lib.rs` or `main.rs`), and `tests/c.rs`, which has no such
/// directory above it, -> `tests/c.proptest-regressions`.
fn source_parallel(source: &Path, sibling: &str) -> PathBuf {
    let mut dir = source.to_path_buf();
    while dir.pop() {
        if dir.join("lib.rs").is_file() || dir.join("main.rs").is_file() {
            let suffix = source.strip_prefix(&dir).unwrap_or(source).to_path_buf();
            let mut result = dir.clone();
            result.pop();
            result.push(sibling);
            result.push(suffix);
            result.set_extension("txt");
            return result;
        }
    }
    source.with_extension(sibling)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chacha_seed_lines_parse() {
        let hex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
        let seed = parse_chacha_seed(&format!("cc {hex}")).unwrap();
        assert_eq!(seed[..4], [0x00, 0x11, 0x22, 0x33]);
        assert_eq!(seed[31], 0xff);
        assert!(parse_chacha_seed("xs 0011").is_none());
        assert!(parse_chacha_seed("cc 00zz").is_none());
    }

    #[test]
    fn typefuzz_files_sit_beside_proptest_files() {
        let mut config = ProptestConfig {
            source_file: Some(file!()),
            ..ProptestConfig::default()
        };
        let path = regression_path(&config, "sorted").expect("a source file and a name");
        // This file is under src/, beside lib.rs: proptest's tree parallel to src/.
        assert!(
            path.ends_with("proptest-regressions/persistence.sorted.typefuzz-regressions"),
            "{}",
            path.display()
        );
        config.failure_persistence = None;
        assert!(regression_path(&config, "sorted").is_none());
    }
}
