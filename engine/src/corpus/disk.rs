//! A corpus directory in libFuzzer's layout — one file per input, holding the input's codec
//! bytes and named by their hex SHA-1 — so corpora move between typefuzz runs and `cargo fuzz`
//! runs of a `typefuzz::fuzz_target!` unchanged: the directory the user named
//! ([`Config::corpus`](crate::Config::corpus), `TYPEFUZZ_CORPUS=<dir>`), and the directory
//! through which workers exchange seeds ([`workers`](crate::workers)).
//!
//! Such a directory is its owner's: it is replayed in full, smallest first, new inputs are
//! added to it, and nothing in it is ever removed. Corrupt files — unreadable, oversized, or
//! named by a SHA-1 that is not their contents' — are reported on stderr and skipped. (The
//! corpus the engine keeps for a test by itself is one file per test, with upkeep rules of its
//! own: see [`kept`](super::kept).)

use std::collections::{HashSet, VecDeque};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use crate::files::{read_input_file, sha1_hex, write_atomically_unsynced};

/// A corpus directory.
#[derive(Debug)]
pub(crate) struct DiskCorpus {
    dir: PathBuf,
    /// Whether a write already failed (reported once, then silent).
    write_failed: bool,
    /// The file names this run has listed, loaded or written: what [`load_new`](Self::load_new)
    /// skips.
    known: HashSet<OsString>,
    /// Whether the directory was listed (by the first [`next_input`](Self::next_input)).
    listed: bool,
    /// The files not replayed yet, smallest first.
    queue: VecDeque<OsString>,
}

impl DiskCorpus {
    /// The corpus in `dir` (created when the first input is saved).
    pub(crate) fn new(dir: &Path) -> DiskCorpus {
        DiskCorpus {
            dir: dir.to_path_buf(),
            write_failed: false,
            known: HashSet::new(),
            listed: false,
            queue: VecDeque::new(),
        }
    }

    /// The directory through which workers on a kept corpus exchange seeds: nothing is
    /// replayed from it at the start (each worker replays the kept corpus); what the others
    /// write comes through [`load_new`](Self::load_new).
    pub(crate) fn exchange(dir: &Path) -> DiskCorpus {
        DiskCorpus {
            listed: true,
            ..DiskCorpus::new(dir)
        }
    }

    /// The next input to replay at the start of the run, or `None` when every file was
    /// replayed. Corrupt files are reported on stderr and skipped; a missing directory is empty.
    pub(crate) fn next_input(&mut self) -> Option<Vec<u8>> {
        if !self.listed {
            self.list();
        }
        loop {
            let name = self.queue.pop_front()?;
            match self.read_entry(&name) {
                Ok(bytes) => return Some(bytes),
                Err(why) => eprintln!(
                    "typefuzz: skipping corpus file {}: {why}",
                    self.dir.join(&name).display()
                ),
            }
        }
    }

    /// The inputs of the files that appeared since the directory was listed or last looked at
    /// and that this run did not write itself: the seeds other processes (workers sharing the
    /// directory) found meanwhile. A rescan by file name: the cost is one directory listing
    /// plus the new files.
    pub(crate) fn load_new(&mut self) -> Vec<Vec<u8>> {
        let mut names: Vec<OsString> = self
            .file_names()
            .into_iter()
            .filter(|name| !self.known.contains(name))
            .collect();
        names.sort();
        let mut inputs = Vec::with_capacity(names.len());
        for name in names {
            match self.read_entry(&name) {
                Ok(bytes) => inputs.push(bytes),
                // Removed by another worker's minimization since the listing: not an error.
                Err(_) if !self.dir.join(&name).exists() => {}
                Err(why) => eprintln!(
                    "typefuzz: skipping corpus file {}: {why}",
                    self.dir.join(&name).display()
                ),
            }
            self.known.insert(name);
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

    /// Lists the directory: every file, smallest first.
    fn list(&mut self) {
        self.listed = true;
        let mut entries: Vec<(u64, OsString)> = self
            .file_names()
            .into_iter()
            .map(|name| {
                let len = fs::metadata(self.dir.join(&name)).map_or(0, |meta| meta.len());
                (len, name)
            })
            .collect();
        self.known
            .extend(entries.iter().map(|(_, name)| name.clone()));
        entries.sort();
        self.queue = entries.into_iter().map(|(_, name)| name).collect();
    }

    /// The names of the directory's entries that may be inputs: everything but temporary
    /// files of an atomic write (in progress or interrupted; they start with a dot) and
    /// subdirectories. A missing directory has none; an unreadable one is reported.
    fn file_names(&self) -> Vec<OsString> {
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
        entries
            .filter_map(Result::ok)
            .filter(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
            .filter(|entry| match entry.file_type() {
                // A symbolic link may lead to a directory.
                Ok(kind) if kind.is_symlink() => !entry.path().is_dir(),
                Ok(kind) => !kind.is_dir(),
                Err(_) => true,
            })
            .map(|entry| entry.file_name())
            .collect()
    }

    /// The bytes of the file `name`, unless it is corrupt: unreadable, oversized, or named by a
    /// SHA-1 that is not its contents' (a torn or damaged copy).
    fn read_entry(&self, name: &OsString) -> Result<Vec<u8>, String> {
        let bytes = read_input_file(&self.dir.join(name))?;
        if let Some(name) = sha1_name(name) {
            let actual = sha1_hex(&bytes);
            if actual != name {
                return Err(format!(
                    "its name is a SHA-1 but its contents' is {actual} (a damaged copy?); it \
                     is kept, not replayed"
                ));
            }
        }
        Ok(bytes)
    }
}

/// `name` if it is a lowercase hex SHA-1 (40 digits), libFuzzer's and typefuzz's name for an
/// input.
fn sha1_name(name: &OsString) -> Option<&str> {
    let name = name.to_str()?;
    (name.len() == 40 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
        .then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("typefuzz-disk-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn drain(corpus: &mut DiskCorpus) -> Vec<Vec<u8>> {
        std::iter::from_fn(|| corpus.next_input()).collect()
    }

    #[test]
    fn load_new_returns_only_files_another_process_wrote_since() {
        let dir = scratch("new");
        let mut other = DiskCorpus::new(&dir);
        other.save(b"first");
        let mut mine = DiskCorpus::new(&dir);
        assert_eq!(drain(&mut mine), [b"first".to_vec()]);
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

    #[test]
    fn the_users_directory_is_replayed_in_full_smallest_first_and_kept() {
        let dir = scratch("user");
        let mut writer = DiskCorpus::new(&dir);
        for len in (1..=20).rev() {
            writer.save(&vec![7; len]);
        }
        let mut corpus = DiskCorpus::new(&dir);
        let lengths: Vec<usize> = std::iter::from_fn(|| {
            let input = corpus.next_input()?;
            Some(input.len())
        })
        .collect();
        assert_eq!(lengths, (1..=20).collect::<Vec<_>>());
        drop(corpus);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 20, "nothing removed");
        fs::remove_dir_all(&dir).unwrap();
    }
}
