//! The on-disk corpus: a directory in libFuzzer's layout — one file per input, holding the
//! input's codec bytes and named by their hex SHA-1 — so corpora move between typefuzz runs and
//! `cargo fuzz` runs of a `typefuzz::fuzz_target!` unchanged.
//!
//! # What a run replays, and how a kept corpus stays small
//!
//! A directory the engine keeps for a test by itself ([`Config::keep_seeds`]: under
//! `target/typefuzz/corpus/`) grows with every run that finds something. So that repeated
//! `cargo test` runs keep climbing *at no extra cost per run*, its upkeep follows four rules:
//!
//! 1. **Replay budget.** A run replays at most a quarter of its own budget: `ceil(cases / 4)`
//!    inputs (and `ceil(max_tests / 4)` if that is smaller), and it stops replaying once a
//!    quarter of its `time` has passed. Replayed inputs are tests like any other, so a
//!    proptest drop-in (256 cases) replays at most 64 inputs and spends the rest of its 256
//!    cases mutating, whatever the directory holds.
//! 2. **Which files.** When the directory holds more files than the replay budget, three
//!    quarters of the budget go to the files most recently useful — written by a run, or found
//!    interesting when replayed (such a file's modification time is set to the replay's) — and
//!    the last quarter to the least recently useful ones, so every file is judged again now and
//!    then. The chosen files run smallest first: as in libFuzzer's merge and AFL's `cmin`, of
//!    two inputs reaching the same features the smaller is the one judged useful.
//! 3. **Minimization.** A replayed file that the run's feedback did not find interesting reaches
//!    nothing the files replayed before it did not: it is *redundant*. When a run ends with more
//!    files in the directory than its replay budget, it removes its redundant files, under the
//!    directory's lock and only if every file it found useful is still there (workers sharing
//!    the directory minimize concurrently, each judging in its own order). If the directory
//!    then still holds more than four times the replay budget (and more than [`MIN_MAX_FILES`]),
//!    the least recently useful files the run listed but did not replay go, oldest first.
//! 4. **Campaigns keep what they found.** A campaign (a run with a `time` budget, such as
//!    `TYPEFUZZ_TIME`, or more cases than a default [`check`](crate::check)) removes nothing and
//!    records the files it left in the directory's `.campaign` file. Later runs remove none of
//!    them: they do not remove redundant files (their feedback, often without coverage, is
//!    weaker than the campaign's that kept them), their cap is the larger of their own and the
//!    campaign's file count, and over it they remove only files the campaign did not leave. So a plain `cargo test` after a campaign replays a
//!    bounded part of it and climbs on, and the campaign's seeds stay. An unreadable or
//!    malformed `.campaign` file is reported and left alone, and the run removes nothing.
//! 5. **Never removed:** files another process wrote or found useful after this run listed the
//!    directory, files not named by a SHA-1 (seeds placed by hand), and corrupt files —
//!    unreadable, oversized, or named by a SHA-1 that is not their contents' — which are
//!    reported on stderr and skipped.
//!
//! A directory the user named ([`Config::corpus`], `TYPEFUZZ_CORPUS=<dir>`) is theirs: it is
//! replayed in full, smallest first, and nothing in it is ever removed.

use std::collections::{HashSet, VecDeque};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::files::{lock_beside, read_input_file, sha1_hex, write_atomically_unsynced};
use crate::Config;

/// The least number of files a kept directory may hold before minimization removes files the
/// run did not replay (rule 3 of the [module docs](self)).
pub(crate) const MIN_MAX_FILES: u64 = 64;

/// The file in a kept directory that records how many files the last campaign left (rule 4 of
/// the [module docs](self)). Its name starts with a dot, so it is never read as an input.
const CAMPAIGN_FILE: &str = ".campaign";

/// The first line of a [`CAMPAIGN_FILE`]; the file names follow, one per line.
const CAMPAIGN_HEADER: &str = "typefuzz campaign corpus v1";

/// How much of a run may go to replaying its corpus directory (rule 1 of the
/// [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReplayBudget {
    /// Inputs replayed at most.
    pub(crate) inputs: u64,
    /// Replaying stops once this much time has passed since the corpus was opened.
    pub(crate) time: Option<Duration>,
    /// Whether the run is a campaign (rule 4 of the [module docs](self)): it removes nothing and
    /// records how many files it left.
    pub(crate) campaign: bool,
}

impl ReplayBudget {
    /// A quarter of `config`'s budget.
    pub(crate) fn of(config: &Config) -> Self {
        let quarter = |count: u64| count.div_ceil(4);
        ReplayBudget {
            inputs: quarter(config.cases).min(config.max_tests.map_or(u64::MAX, quarter)),
            time: config.time.map(|time| time / 4),
            campaign: config.time.is_some() || config.cases > Config::default().cases,
        }
    }

    /// The most files the directory keeps before files the run did not replay are removed.
    fn max_files(self) -> u64 {
        self.inputs.saturating_mul(4).max(MIN_MAX_FILES)
    }
}

/// A corpus directory.
#[derive(Debug)]
pub(crate) struct DiskCorpus {
    dir: PathBuf,
    /// Whether a write already failed (reported once, then silent).
    write_failed: bool,
    /// The file names this run has listed, loaded or written: what [`load_new`](Self::load_new)
    /// skips.
    known: HashSet<OsString>,
    /// `Some` for a directory the engine keeps by itself: replay within this budget, and
    /// minimize when the run ends. `None` for the user's own directory.
    budget: Option<ReplayBudget>,
    replay: Replay,
}

/// The replay of the directory at the start of a run, and what it judged.
#[derive(Debug)]
struct Replay {
    /// Whether the directory was listed (by the first [`DiskCorpus::next_input`]).
    listed: bool,
    opened: Instant,
    /// When the directory was listed: files modified since are another process's business.
    listed_at: SystemTime,
    /// The chosen files not replayed yet, in replay order.
    queue: VecDeque<Entry>,
    /// The listed files not chosen for replay, the least recently useful last.
    unchosen: Vec<Entry>,
    replayed: u64,
    /// The file [`DiskCorpus::next_input`] returned last, waiting for its judgement.
    current: Option<OsString>,
    useful: Vec<OsString>,
    redundant: Vec<OsString>,
}

/// What the last campaign on a kept directory left (rule 4 of the [module docs](self)).
#[derive(Clone, Debug)]
struct Campaign {
    /// The names of the files it left: they stay.
    files: HashSet<OsString>,
}

/// A listed corpus file.
#[derive(Clone, Debug)]
struct Entry {
    name: OsString,
    modified: SystemTime,
    len: u64,
}

impl DiskCorpus {
    /// The corpus in `dir`: the engine's own when `budget` is `Some` (replayed within it,
    /// minimized when dropped), the user's otherwise (replayed in full, never minimized).
    pub(crate) fn new(dir: &Path, budget: Option<ReplayBudget>) -> DiskCorpus {
        DiskCorpus {
            dir: dir.to_path_buf(),
            write_failed: false,
            known: HashSet::new(),
            budget,
            replay: Replay {
                listed: false,
                opened: Instant::now(),
                listed_at: SystemTime::now(),
                queue: VecDeque::new(),
                unchosen: Vec::new(),
                replayed: 0,
                current: None,
                useful: Vec::new(),
                redundant: Vec::new(),
            },
        }
    }

    /// The next input to replay at the start of the run, or `None` when the replay is done:
    /// every chosen file replayed, or the replay budget spent. The caller runs it and then says
    /// whether it was interesting with [`judge`](Self::judge). Corrupt files are reported on
    /// stderr and skipped; a missing directory is empty.
    pub(crate) fn next_input(&mut self) -> Option<Vec<u8>> {
        if !self.replay.listed {
            self.list();
        }
        loop {
            if let Some(budget) = self.budget {
                let late = budget
                    .time
                    .is_some_and(|time| self.replay.opened.elapsed() >= time);
                if self.replay.replayed >= budget.inputs || late {
                    return None;
                }
            }
            let entry = self.replay.queue.pop_front()?;
            match self.read_entry(&entry.name) {
                Ok(bytes) => {
                    self.replay.replayed += 1;
                    self.replay.current = Some(entry.name);
                    return Some(bytes);
                }
                Err(why) => {
                    eprintln!(
                        "typefuzz: skipping corpus file {}: {why}",
                        self.dir.join(&entry.name).display()
                    );
                    // Its place goes to the next least recently useful file, so corrupt files
                    // (which stay, and stay old) never take the rotation's places for good.
                    if let Some(next) = self.replay.unchosen.pop() {
                        self.replay.queue.push_back(next);
                    }
                }
            }
        }
    }

    /// Records whether the input [`next_input`](Self::next_input) returned last was interesting
    /// to the run (`useful`: it is kept, and marked recently useful) or not (redundant: what
    /// minimization removes).
    pub(crate) fn judge(&mut self, useful: bool) {
        let Some(name) = self.replay.current.take() else {
            return;
        };
        if self.budget.is_none() {
            return;
        }
        if useful {
            // Best effort: a file whose time cannot be set is only chosen less often.
            let _ = fs::File::options()
                .write(true)
                .open(self.dir.join(&name))
                .and_then(|file| file.set_modified(SystemTime::now()));
            self.replay.useful.push(name);
        } else {
            self.replay.redundant.push(name);
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

    /// Lists the directory and chooses what to replay, in which order (rules 1 and 2 of the
    /// [module docs](self)).
    fn list(&mut self) {
        self.replay.listed = true;
        self.replay.listed_at = SystemTime::now();
        let mut entries: Vec<Entry> = self
            .file_names()
            .into_iter()
            .map(|name| {
                let meta = fs::metadata(self.dir.join(&name)).ok();
                Entry {
                    modified: meta
                        .as_ref()
                        .and_then(|meta| meta.modified().ok())
                        .unwrap_or(SystemTime::UNIX_EPOCH),
                    len: meta.map_or(0, |meta| meta.len()),
                    name,
                }
            })
            .collect();
        self.known
            .extend(entries.iter().map(|entry| entry.name.clone()));
        let limit = self.budget.map_or(u64::MAX, |budget| budget.inputs);
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        if entries.len() > limit {
            // Most recently useful first; the smaller of two equally recent files first.
            entries.sort_by(|a, b| (b.modified, a.len, &a.name).cmp(&(a.modified, b.len, &b.name)));
            let recent = limit - limit / 4;
            let mut rest = entries.split_off(recent);
            let oldest = rest.split_off(rest.len() - (limit - recent));
            entries.extend(oldest);
            self.replay.unchosen = rest;
        }
        entries.sort_by(|a, b| (a.len, &a.name).cmp(&(b.len, &b.name)));
        self.replay.queue = entries.into();
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

    /// Removes what the run found redundant, then, over the cap, the least recently useful
    /// files it did not replay (rule 3 of the [module docs](self)); what was removed, by name.
    fn minimize(&mut self) -> Vec<OsString> {
        let mut removed = Vec::new();
        let Some(budget) = self.budget.filter(|_| self.replay.listed) else {
            return removed;
        };
        if !budget.campaign && self.file_names().len() as u64 <= budget.inputs {
            return removed;
        }
        // Other processes' minimization of the same directory waits for this one, and the
        // next one sees what this one removed.
        let _lock = match lock_beside(&self.dir.join(".minimize")) {
            Ok(lock) => lock,
            Err(why) => {
                eprintln!(
                    "typefuzz: corpus directory {} not minimized: {why}",
                    self.dir.display()
                );
                return removed;
            }
        };
        let present: HashSet<OsString> = self.file_names().into_iter().collect();
        let mut count = present.len() as u64;
        let campaign = match self.campaign_floor() {
            Ok(campaign) => campaign,
            Err(why) => {
                eprintln!(
                    "typefuzz: corpus directory {} not minimized: {why}",
                    self.dir.display()
                );
                return removed;
            }
        };
        if budget.campaign {
            let recorded = campaign
                .is_some_and(|campaign| present.iter().all(|name| campaign.files.contains(name)));
            if !recorded {
                self.record_campaign(&present);
            }
            return removed;
        }
        if count <= budget.inputs {
            return removed;
        }
        // A redundant file is covered by the useful files replayed before it: only while
        // they are all still there, and never in a campaign's directory.
        if campaign.is_none() && self.replay.useful.iter().all(|name| present.contains(name)) {
            for name in &self.replay.redundant {
                let removable = present.contains(name) && sha1_name(name).is_some();
                if removable && self.remove(name) {
                    removed.push(name.clone());
                    count -= 1;
                }
            }
        }
        let max = budget.max_files().max(
            campaign
                .as_ref()
                .map_or(0, |campaign| campaign.files.len() as u64),
        );
        if count <= max {
            return removed;
        }
        let mut unread: Vec<(SystemTime, u64, &OsString)> = self
            .replay
            .unchosen
            .iter()
            .chain(&self.replay.queue)
            .filter(|entry| present.contains(&entry.name) && sha1_name(&entry.name).is_some())
            .filter_map(|entry| {
                let meta = fs::metadata(self.dir.join(&entry.name)).ok()?;
                let modified = meta.modified().ok()?;
                // Written or found useful by another process since the listing: its business.
                // A file the last campaign left stays.
                let campaigns = campaign
                    .as_ref()
                    .is_some_and(|campaign| campaign.files.contains(&entry.name));
                (modified < self.replay.listed_at && !campaigns).then_some((
                    modified,
                    meta.len(),
                    &entry.name,
                ))
            })
            .collect();
        // Least recently useful first; of two, the larger.
        unread.sort_by(|a, b| (a.0, b.1).cmp(&(b.0, a.1)));
        for (_, _, name) in unread {
            if count <= max {
                break;
            }
            // Never removed unseen: a corrupt file is reported and stays.
            if let Err(why) = self.read_entry(name) {
                eprintln!(
                    "typefuzz: keeping corpus file {}: {why}",
                    self.dir.join(name).display()
                );
                continue;
            }
            if self.remove(name) {
                removed.push(name.clone());
                count -= 1;
            }
        }
        removed
    }

    /// What the last campaign left in the directory (rule 4 of the [module docs](self)):
    /// `None` without a campaign, an error for a `.campaign` file that cannot be read or does
    /// not hold a count.
    fn campaign_floor(&self) -> Result<Option<Campaign>, String> {
        let path = self.dir.join(CAMPAIGN_FILE);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
        };
        let malformed = || {
            format!(
                "{} is not a campaign record (a first line `{CAMPAIGN_HEADER}`, then one SHA-1 \
                 file name per line); it is left as it is",
                path.display()
            )
        };
        let mut lines = text.lines();
        if lines.next() != Some(CAMPAIGN_HEADER) {
            return Err(malformed());
        }
        let files = lines
            .map(|line| {
                let name = OsString::from(line);
                sha1_name(&name).is_some().then_some(name)
            })
            .collect::<Option<HashSet<OsString>>>()
            .ok_or_else(malformed)?;
        Ok(Some(Campaign { files }))
    }

    /// Records the files a campaign left, `present` (under the directory's lock, atomically).
    fn record_campaign(&self, present: &HashSet<OsString>) {
        let mut names: Vec<&str> = present.iter().filter_map(|name| sha1_name(name)).collect();
        names.sort_unstable();
        let mut text = format!("{CAMPAIGN_HEADER}\n");
        for name in names {
            text.push_str(name);
            text.push('\n');
        }
        let path = self.dir.join(CAMPAIGN_FILE);
        if let Err(error) = write_atomically_unsynced(&path, text.as_bytes()) {
            eprintln!(
                "typefuzz: cannot record the campaign in {}: {error}; a later plain run may \
                 remove some of its seeds",
                path.display()
            );
        }
    }

    /// Removes the file `name`; whether it is gone.
    fn remove(&self, name: &OsString) -> bool {
        match fs::remove_file(self.dir.join(name)) {
            Ok(()) => true,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => true,
            Err(_) => false,
        }
    }
}

impl Drop for DiskCorpus {
    /// A run's corpus is minimized when the run ends (its last user drops it).
    fn drop(&mut self) {
        if !std::thread::panicking() {
            self.minimize();
        }
    }
}

/// `name` if it is a lowercase hex SHA-1 (40 digits), libFuzzer's and typefuzz's name for an
/// input: only such files are ever removed.
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

    fn budget(inputs: u64) -> Option<ReplayBudget> {
        Some(ReplayBudget {
            inputs,
            time: None,
            campaign: false,
        })
    }

    fn drain(corpus: &mut DiskCorpus) -> Vec<Vec<u8>> {
        std::iter::from_fn(|| corpus.next_input()).collect()
    }

    /// Sets the modification time of the file holding `bytes` to `seconds` after the epoch.
    fn age(dir: &Path, bytes: &[u8], seconds: u64) {
        age_file(&dir.join(sha1_hex(bytes)), seconds);
    }

    /// Sets the modification time of `path` to `seconds` after the epoch.
    fn age_file(path: &Path, seconds: u64) {
        fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
            .unwrap();
    }

    #[test]
    fn a_quarter_of_the_run_goes_to_replay() {
        let proptest = Config::default().with_cases(256);
        assert_eq!(ReplayBudget::of(&proptest).inputs, 64);
        assert_eq!(ReplayBudget::of(&proptest.with_cases(101)).inputs, 26);
        let capped = Config::default()
            .with_cases(u64::MAX)
            .with_max_tests(1000)
            .with_time(Duration::from_secs(60));
        let budget = ReplayBudget::of(&capped);
        assert_eq!(budget.inputs, 250);
        assert_eq!(budget.time, Some(Duration::from_secs(15)));
        assert_eq!(budget.max_files(), 1000);
        assert_eq!(
            ReplayBudget::of(&Config::default().with_cases(8)).max_files(),
            64
        );
    }

    #[test]
    fn load_new_returns_only_files_another_process_wrote_since() {
        let dir = scratch("new");
        let mut other = DiskCorpus::new(&dir, None);
        other.save(b"first");
        let mut mine = DiskCorpus::new(&dir, None);
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
        let mut writer = DiskCorpus::new(&dir, None);
        for len in (1..=20).rev() {
            writer.save(&vec![7; len]);
        }
        let mut corpus = DiskCorpus::new(&dir, None);
        let lengths: Vec<usize> = std::iter::from_fn(|| {
            let input = corpus.next_input()?;
            corpus.judge(false);
            Some(input.len())
        })
        .collect();
        assert_eq!(lengths, (1..=20).collect::<Vec<_>>());
        drop(corpus);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 20, "nothing removed");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn replay_takes_the_recent_files_and_a_few_of_the_oldest() {
        let dir = scratch("choose");
        let mut writer = DiskCorpus::new(&dir, None);
        for i in 0..40u8 {
            writer.save(&[i]);
            age(&dir, &[i], 1_000 + u64::from(i));
        }
        let mut corpus = DiskCorpus::new(&dir, budget(8));
        let mut replayed: Vec<u8> = drain(&mut corpus).concat();
        replayed.sort();
        assert_eq!(replayed, [0, 1, 34, 35, 36, 37, 38, 39]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn minimization_removes_redundant_files_and_keeps_useful_and_unread_ones() {
        let dir = scratch("minimize");
        let mut writer = DiskCorpus::new(&dir, None);
        for i in 0..10u8 {
            writer.save(&[i]);
        }
        fs::write(dir.join("hand-placed-seed"), [99]).unwrap();
        let mut corpus = DiskCorpus::new(&dir, budget(6));
        let mut judged = Vec::new();
        while let Some(input) = corpus.next_input() {
            // Only even inputs reach something new.
            corpus.judge(input[0] % 2 == 0);
            judged.push(input[0]);
        }
        assert_eq!(judged.len(), 6);
        let removed: Vec<OsString> = corpus.minimize();
        let redundant: HashSet<OsString> = judged
            .iter()
            // The hand-placed seed (99) is never removed.
            .filter(|&&i| i % 2 == 1 && i != 99)
            .map(|&i| sha1_hex(&[i]).into())
            .collect();
        assert_eq!(removed.into_iter().collect::<HashSet<_>>(), redundant);
        for i in 0..10u8 {
            let present = dir.join(sha1_hex(&[i])).exists();
            assert_eq!(present, !judged.contains(&i) || i % 2 == 0, "input {i}");
        }
        assert!(dir.join("hand-placed-seed").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nothing_is_removed_when_a_file_that_covered_the_redundant_ones_is_gone() {
        let dir = scratch("covered");
        let mut writer = DiskCorpus::new(&dir, None);
        for i in 0..10u8 {
            writer.save(&[i]);
        }
        let mut corpus = DiskCorpus::new(&dir, budget(2));
        let first = corpus.next_input().unwrap();
        corpus.judge(true);
        corpus.next_input().unwrap();
        corpus.judge(false);
        // Another worker removed the file this run's judgement relied on.
        fs::remove_file(dir.join(sha1_hex(&first))).unwrap();
        assert!(corpus.minimize().is_empty());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 9);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn over_the_cap_the_oldest_unread_files_go_but_never_corrupt_or_new_ones() {
        let dir = scratch("cap");
        let mut writer = DiskCorpus::new(&dir, None);
        for i in 0..300u16 {
            let bytes = i.to_le_bytes();
            writer.save(&bytes);
            age(&dir, &bytes, 1_000 + u64::from(i));
        }
        // Corrupt: an oversized file, the oldest (chosen for replay, skipped, its place taken
        // by the next oldest, input 0), and a SHA-1 name over other contents, among the oldest
        // unread files.
        let oversized = dir.join(sha1_hex(b"huge"));
        fs::File::create(&oversized)
            .unwrap()
            .set_len(crate::files::MAX_INPUT_FILE + 1)
            .unwrap();
        let damaged = dir.join(sha1_hex(b"original"));
        fs::write(&damaged, b"damaged").unwrap();
        age_file(&oversized, 0);
        age_file(&damaged, 1_003);
        let mut corpus = DiskCorpus::new(&dir, budget(4));
        while corpus.next_input().is_some() {
            corpus.judge(true);
        }
        // Written by another process after the listing: not this run's to remove.
        let mut other = DiskCorpus::new(&dir, None);
        other.save(b"just written");
        let removed = corpus.minimize();
        let left = fs::read_dir(&dir).unwrap().count() as u64;
        assert_eq!(left, MIN_MAX_FILES);
        assert_eq!(removed.len() as u64, 300 + 3 - MIN_MAX_FILES);
        assert!(damaged.exists() && oversized.exists());
        assert!(dir.join(sha1_hex(b"just written")).exists());
        // The oldest unread files went first; the replayed ones were useful, so they stay.
        let file = |i: u16| dir.join(sha1_hex(&i.to_le_bytes()));
        assert!((1..=239).all(|i| !file(i).exists()));
        assert!([0, 240, 296, 297, 298, 299]
            .into_iter()
            .all(|i| file(i).exists()));
        fs::remove_dir_all(&dir).unwrap();
    }
}
