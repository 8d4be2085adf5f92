//! The on-disk corpus: a directory in libFuzzer's layout — one file per input, holding the
//! input's codec bytes and named by their hex SHA-1 — so corpora move between typefuzz runs and
//! `cargo fuzz` runs of a `typefuzz::fuzz_target!` unchanged.

use std::fs;
use std::path::{Path, PathBuf};

use crate::artifacts::{read_input_file, sha1_hex, write_atomically_unsynced};

/// A corpus directory.
#[derive(Debug)]
pub(crate) struct DiskCorpus {
    dir: PathBuf,
    /// Whether a write already failed (reported once, then silent).
    write_failed: bool,
}

impl DiskCorpus {
    pub(crate) fn new(dir: &Path) -> DiskCorpus {
        DiskCorpus {
            dir: dir.to_path_buf(),
            write_failed: false,
        }
    }

    /// Every input in the directory, in file-name order (so runs are deterministic). Unreadable
    /// or oversized files are reported on stderr and skipped; a missing directory is empty.
    pub(crate) fn load(&self) -> Vec<Vec<u8>> {
        let entries = match fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
            Err(error) => {
                eprintln!(
                    "typefuzz: cannot read corpus directory {}: {error}",
                    self.dir.display()
                );
                return Vec::new();
            }
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            // Temporary files of an interrupted atomic write start with a dot.
            .filter(|path| {
                !path
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            })
            .collect();
        paths.sort();
        let mut inputs = Vec::with_capacity(paths.len());
        for path in paths {
            if fs::metadata(&path).is_ok_and(|meta| meta.is_dir()) {
                continue;
            }
            match read_input_file(&path) {
                Ok(bytes) => inputs.push(bytes),
                Err(why) => eprintln!("typefuzz: skipping corpus file {}: {why}", path.display()),
            }
        }
        inputs
    }

    /// Saves `bytes` as `<dir>/<sha1>` unless it is already there.
    pub(crate) fn save(&mut self, bytes: &[u8]) {
        if self.write_failed {
            return;
        }
        let path = self.dir.join(sha1_hex(bytes));
        if path.exists() {
            return;
        }
        // A lost corpus entry costs nothing; waiting for the disk on each costs wall time.
        if let Err(error) = write_atomically_unsynced(&path, bytes) {
            self.write_failed = true;
            eprintln!(
                "typefuzz: cannot write to corpus directory {}: {error}; new inputs are not saved",
                self.dir.display()
            );
        }
    }
}
