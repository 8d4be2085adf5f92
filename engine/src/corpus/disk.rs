//! The on-disk corpus: a directory in libFuzzer's layout — one file per input, holding the
//! input's codec bytes and named by their hex SHA-1 — so corpora move between typefuzz runs and
//! `cargo fuzz` runs of a `typefuzz::fuzz_target!` unchanged.

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use crate::artifacts::{read_input_file, sha1_hex, write_atomically_unsynced};

/// A corpus directory.
#[derive(Debug)]
pub(crate) struct DiskCorpus {
    dir: PathBuf,
    /// Whether a write already failed (reported once, then silent).
    write_failed: bool,
    /// The file names this run has loaded or written: what [`load_new`](Self::load_new) skips.
    known: HashSet<OsString>,
}

impl DiskCorpus {
    pub(crate) fn new(dir: &Path) -> DiskCorpus {
        DiskCorpus {
            dir: dir.to_path_buf(),
            write_failed: false,
            known: HashSet::new(),
        }
    }

    /// Every input in the directory, in file-name order (so runs are deterministic). Unreadable
    /// or oversized files are reported on stderr and skipped; a missing directory is empty.
    pub(crate) fn load(&mut self) -> Vec<Vec<u8>> {
        self.read(|_| true)
    }

    /// The inputs of the files that appeared since the last [`load`](Self::load) or `load_new`
    /// and that this run did not write itself: the seeds other processes (workers sharing the
    /// directory) found meanwhile. A rescan by file name: the cost is one directory listing
    /// plus the new files.
    pub(crate) fn load_new(&mut self) -> Vec<Vec<u8>> {
        let known = std::mem::take(&mut self.known);
        let inputs = self.read(|name| !known.contains(name));
        self.known.extend(known);
        inputs
    }

    /// The inputs of the directory's files whose name passes `wanted`, in file-name order; every
    /// file read becomes known.
    fn read(&mut self, wanted: impl Fn(&OsString) -> bool) -> Vec<Vec<u8>> {
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
        let mut names: Vec<OsString> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.file_name())
            // Temporary files of an atomic write (in progress or interrupted) start with a dot.
            .filter(|name| !name.to_string_lossy().starts_with('.') && wanted(name))
            .collect();
        names.sort();
        let mut inputs = Vec::with_capacity(names.len());
        for name in names {
            let path = self.dir.join(&name);
            self.known.insert(name);
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
        let name = sha1_hex(bytes);
        let path = self.dir.join(&name);
        self.known.insert(name.into());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_new_returns_only_files_another_process_wrote_since() {
        let dir = std::env::temp_dir().join(format!("typefuzz-disk-new-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut other = DiskCorpus::new(&dir);
        other.save(b"first");
        let mut mine = DiskCorpus::new(&dir);
        assert_eq!(mine.load(), [b"first".to_vec()]);
        assert!(mine.load_new().is_empty(), "already loaded");
        mine.save(b"mine");
        other.save(b"second");
        other.save(b"third");
        fs::write(dir.join(".partial.tmp-1-2"), b"in progress").unwrap();
        assert_eq!(
            mine.load_new(),
            [b"second".to_vec(), b"third".to_vec()]
                .into_iter()
                .map(|bytes| (sha1_hex(&bytes), bytes))
                .collect::<std::collections::BTreeMap<_, _>>()
                .into_values()
                .collect::<Vec<_>>(),
            "in file-name order, without its own file or temporaries"
        );
        assert!(mine.load_new().is_empty(), "each file once");
        fs::remove_dir_all(&dir).unwrap();
    }
}
