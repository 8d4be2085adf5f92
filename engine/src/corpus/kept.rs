//! The kept corpus: the seeds the engine keeps for a test by itself ([`Config::keep_seeds`]),
//! in one file per test, `target/typefuzz/corpus/<test>-<fingerprint>.seeds`, read once when
//! the run starts and written once when it ends (only if something changed), so a run costs a
//! handful of file operations whatever the file holds.
//!
//! # What a run replays, and how the kept corpus stays small
//!
//! The file grows with every run that finds something. So that repeated `cargo test` runs keep
//! climbing *at no extra cost per run*, its upkeep follows these rules:
//!
//! 0. **What is kept.** A seed that found something about the property — new coverage, a
//!    label, a higher target or `assume!` score, a valid input of a new size — is kept. One kept
//!    for its input structure alone (constructor paths, value classes: what keeps the engine
//!    mutating when the property says nothing) serves the run that found it: the generator
//!    finds such seeds again within a run's first cases, and keeping them made every run of a
//!    property without any signal rewrite a file of hundreds of them. Campaigns keep those too.
//!    A property that never gives a signal therefore has no file, and costs nothing here.
//! 1. **Replay budget.** A run replays at most a quarter of its own budget: `ceil(cases / 4)`
//!    inputs (and `ceil(max_tests / 4)` if that is smaller), and it stops replaying once a
//!    quarter of its `time` has passed. Replayed inputs are tests like any other, so a
//!    proptest drop-in (256 cases) replays at most 64 inputs and spends the rest of its 256
//!    cases mutating, whatever the file holds.
//! 2. **Which entries.** The file counts the runs that wrote it, and each entry carries the
//!    number of the last run it was useful to — the run that found it, or one that found it
//!    interesting when replayed. When the file holds more entries than the replay budget, three
//!    quarters of the budget go to the most recently useful entries and the last quarter to the
//!    least recently useful ones, so every entry is judged again now and then. The chosen
//!    entries run smallest first: as in libFuzzer's merge and AFL's `cmin`, of two inputs
//!    reaching the same features the smaller is the one judged useful.
//! 3. **Minimization.** A replayed entry that the run's feedback did not find interesting
//!    reaches nothing the entries replayed before it did not: it is *redundant*. When a run ends
//!    with more entries than its replay budget, it removes its redundant entries, but only if
//!    every entry it found useful is still in the file and no other run found the redundant one
//!    useful since (workers of one test write the same file, each judging in its own order). If
//!    the file then still holds more than four times the replay budget (and more than
//!    [`MIN_MAX_ENTRIES`]), the least recently useful entries go, oldest first, among those no
//!    run has used since this one read the file.
//! 4. **Campaigns keep what they found.** A campaign (a run with a `time` budget, such as
//!    `TYPEFUZZ_TIME`, or more cases than a default [`check`](crate::check)) removes nothing and
//!    marks every entry it leaves as the campaign's. Later runs remove none of those: they do
//!    not remove redundant entries at all while the file holds a campaign's (their feedback,
//!    often without coverage, is weaker than the campaign's that kept them), their cap is the
//!    larger of their own and the campaign's entry count, and over it they remove only entries
//!    the campaign did not leave. So a plain `cargo test` after a campaign replays a bounded part
//!    of it and climbs on, and the campaign's seeds stay.
//! 5. **Bounds.** Whatever the rules above keep, a file holds at most [`MAX_ENTRIES`] entries
//!    and [`MAX_BYTES`] bytes of inputs: over either, the least recently useful entries go
//!    first (a campaign's last). Across tests, the first run of a process that writes a kept
//!    file checks the whole corpus directory: over [`MAX_TOTAL_BYTES`], the files of the tests
//!    least recently run go, oldest first.
//! 6. **Never lost unseen.** A kept file that is not one this version reads — damaged, cut
//!    short, or written by another version — is reported on stderr and its seeds skipped. When
//!    the run ends, a damaged one is moved aside to `<file>.corrupt` (if that name is free) and a
//!    new file holds the run's seeds; one from another version, or one that cannot be moved
//!    aside, is left as it is and the run writes nothing.
//!
//! A run writes the file only if it found a seed, if its replay did not reach every entry (the
//! recency it records then decides what later runs replay, and rules 3 and 5 may remove
//! entries), or if it is a campaign with entries to mark. A run that replayed the whole file and
//! found nothing would change only the recency of entries all judged alike: a repeated
//! `cargo test` that finds nothing new leaves the file as it is.
//!
//! Writes happen under the corpus directory's lock and merge: the run reads the file again under
//! the lock (only its header, if no run wrote it since) and applies what it found and judged to
//! what is there now, so concurrent runs of one test (workers) lose nothing. A write is a new
//! file put in the old one's place by two renames (the old file to `<file>.old`, the new one to
//! `<file>`); a reader that finds no file between them, or after a crash there, reads
//! `<file>.old`.
//!
//! # The file
//!
//! Little-endian throughout: the 8 bytes `TFSEEDS` and the format version (`1`), the run count
//! (u64), the entry count (u32), then per entry the run it was last useful to (u64), its flags
//! (u8; bit 0: left by a campaign), its length (u32) and its codec bytes; last, the CRC-32 of
//! everything before it (u32, the checksum of gzip and zip).
//!
//! # Older kept directories
//!
//! Earlier versions kept one file per input in a directory `<test>-<fingerprint>/` (libFuzzer's
//! layout). When a test has no kept file yet but such a directory, the run reads its inputs
//! (the most recently modified [`MAX_ENTRIES`], ranked by modification time, with the files its
//! `.campaign` record names marked as the campaign's), says so once on stderr, and writes them
//! into the new file when it ends. The directory is not read again, nor removed.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fs;
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::{Duration, Instant, SystemTime};

use crate::files::{self, lock_beside, read_input_file, sha1_hex};
use crate::Config;

/// The least number of entries the cap of rule 3 (see the [module docs](self)) allows.
pub(crate) const MIN_MAX_ENTRIES: u64 = 64;
/// The most entries one kept file holds (rule 5 of the [module docs](self)).
pub(crate) const MAX_ENTRIES: usize = 4096;
/// The most bytes of inputs one kept file holds (rule 5 of the [module docs](self)).
pub(crate) const MAX_BYTES: usize = 4 << 20;
/// The most bytes all the kept files of one corpus directory hold (rule 5 of the
/// [module docs](self)).
pub(crate) const MAX_TOTAL_BYTES: u64 = 256 << 20;

/// The first bytes of a kept file: the name and the format version.
const MAGIC: [u8; 8] = *b"TFSEEDS\x01";
/// The name the format shares across versions (the last byte of [`MAGIC`] is the version).
const MAGIC_NAME: &[u8] = b"TFSEEDS";
/// The extension of a kept file.
pub(crate) const EXTENSION: &str = "seeds";
/// The length of the checksum at the end of a kept file.
const DIGEST: usize = 4;
const FLAG_CAMPAIGN: u8 = 1;

/// How much of a run may go to replaying its kept corpus (rule 1 of the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReplayBudget {
    /// Inputs replayed at most.
    pub(crate) inputs: u64,
    /// Replaying stops once this much time has passed since the corpus was opened.
    pub(crate) time: Option<Duration>,
    /// Whether the run is a campaign (rule 4 of the [module docs](self)): it removes nothing and
    /// marks what it left.
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

    /// The most entries the file keeps before the least recently useful go (rule 3).
    fn max_entries(self) -> u64 {
        self.inputs.saturating_mul(4).max(MIN_MAX_ENTRIES)
    }
}

/// One kept input.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    bytes: Vec<u8>,
    /// The run it was last useful to (rule 2 of the [module docs](self)).
    useful_in: u64,
    /// Left by a campaign (rule 4).
    campaign: bool,
}

/// A kept file's contents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Seeds {
    /// How many runs wrote the file.
    runs: u64,
    entries: Vec<Entry>,
}

/// Why a kept file's seeds were not read.
#[derive(Debug)]
enum Unread {
    /// Damaged or cut short: moved aside when the run writes.
    Damaged(String),
    /// Another version's, or not readable at all: left alone, and the run writes nothing.
    Foreign(String),
}

/// A test's kept corpus for one run: its replay at the start, and what the run found and judged,
/// written back when it ends (on drop).
#[derive(Debug)]
pub(crate) struct KeptCorpus {
    path: PathBuf,
    budget: ReplayBudget,
    /// What the file held when the run opened it.
    loaded: Seeds,
    /// Its run count (`loaded` is handed to the merge when the run ends).
    loaded_runs: u64,
    /// Whether `loaded` came from an older kept directory (the file did not exist).
    migrated: bool,
    /// Set when the file could not be read: whether the run may write it when it ends.
    writable: bool,
    opened: Instant,
    /// Indices in `loaded.entries` of the chosen entries not replayed yet, in replay order.
    queue: VecDeque<usize>,
    replayed: u64,
    /// The entry [`next_input`](Self::next_input) returned last, waiting for its judgement.
    current: Option<usize>,
    useful: Vec<usize>,
    redundant: Vec<usize>,
    /// The inputs the run kept, in order (duplicates are merged when the file is written).
    found: Vec<Vec<u8>>,
}

impl KeptCorpus {
    /// The kept corpus in the file `path`, replayed within `budget`: reads the file (or an older
    /// kept directory beside it) and chooses what to replay (rules 1 and 2 of the
    /// [module docs](self)). An unreadable file is reported on stderr and replays nothing.
    pub(crate) fn open(path: &Path, budget: ReplayBudget) -> KeptCorpus {
        let (loaded, migrated, writable) = match read(path) {
            Ok(Some(seeds)) => (seeds, false, true),
            Ok(None) => match migrate(path) {
                Some(seeds) => (seeds, true, true),
                None => (Seeds::default(), false, true),
            },
            Err(Unread::Damaged(why)) => {
                eprintln!(
                    "typefuzz: skipping the kept seeds in {}: {why}",
                    path.display()
                );
                (Seeds::default(), false, true)
            }
            Err(Unread::Foreign(why)) => {
                eprintln!(
                    "typefuzz: skipping the kept seeds in {}: {why}; it is left as it is and \
                     this run's seeds are not kept",
                    path.display()
                );
                (Seeds::default(), false, false)
            }
        };
        let queue = replay_order(&loaded.entries, budget.inputs);
        KeptCorpus {
            path: path.to_path_buf(),
            budget,
            loaded_runs: loaded.runs,
            loaded,
            migrated,
            writable,
            opened: Instant::now(),
            queue,
            replayed: 0,
            current: None,
            useful: Vec::new(),
            redundant: Vec::new(),
            found: Vec::new(),
        }
    }

    /// The next input to replay at the start of the run, or `None` when the replay is done:
    /// every chosen entry replayed, or the replay budget spent. The caller runs it and then says
    /// whether it was interesting with [`judge`](Self::judge).
    pub(crate) fn next_input(&mut self) -> Option<Vec<u8>> {
        let late = (self.budget.time).is_some_and(|time| self.opened.elapsed() >= time);
        if self.replayed >= self.budget.inputs || late {
            return None;
        }
        let index = self.queue.pop_front()?;
        self.replayed += 1;
        self.current = Some(index);
        Some(self.loaded.entries[index].bytes.clone())
    }

    /// Records whether the input [`next_input`](Self::next_input) returned last was interesting
    /// to the run (`useful`: it is kept, and marked recently useful) or not (redundant: what
    /// minimization removes).
    pub(crate) fn judge(&mut self, useful: bool) {
        if let Some(index) = self.current.take() {
            match useful {
                true => self.useful.push(index),
                false => self.redundant.push(index),
            }
        }
    }

    /// Keeps `bytes`, an input the run found interesting (written when the run ends), if it
    /// found something `about_the_property` (rule 0 of the [module docs](self)) or the run is a
    /// campaign.
    pub(crate) fn save(&mut self, bytes: &[u8], about_the_property: bool) {
        if about_the_property || self.budget.campaign {
            self.found.push(bytes.to_vec());
        }
    }

    /// Writes what the run found and judged into the file, merged with what it holds now (see
    /// the [module docs](self)), if that changes anything.
    fn write_back(&mut self) {
        if !self.writable || self.changes_nothing() {
            return;
        }
        let _lock = match lock_beside(&self.path) {
            Ok(lock) => lock,
            Err(why) => {
                eprintln!(
                    "typefuzz: the kept seeds in {} were not updated: {}",
                    self.path.display(),
                    why.0
                );
                return;
            }
        };
        let useful = self.judged(&self.useful);
        let redundant = self.judged(&self.redundant);
        // Every write counts a run: a file still at the count this run read is the one it read
        // (and checked), so only its header is read again.
        let unchanged =
            !self.migrated && self.loaded_runs > 0 && runs_of(&self.path) == Some(self.loaded_runs);
        let now = match unchanged {
            true => Ok(Some(std::mem::take(&mut self.loaded))),
            false => read(&self.path),
        };
        let now = match now {
            Ok(Some(seeds)) => seeds,
            Ok(None) if self.migrated => std::mem::take(&mut self.loaded),
            Ok(None) => Seeds::default(),
            Err(Unread::Damaged(why)) => {
                if !self.move_aside(&why) {
                    return;
                }
                Seeds::default()
            }
            Err(Unread::Foreign(_)) => return,
        };
        let Some(merged) = self.merge(now, &useful, &redundant) else {
            return;
        };
        if let Err(error) = replace(&self.path, &encode(&merged)) {
            eprintln!(
                "typefuzz: cannot write the kept seeds to {}: {error}; this run's seeds are not \
                 kept",
                self.path.display()
            );
            return;
        }
        trim_directory_once(&self.path);
    }

    /// Whether writing the file would change nothing but the recency of entries this run
    /// replayed every one of (see the [module docs](self)): no input found, none to remove (a
    /// file the replay covers holds no more than its budget, so rules 3 and 5 remove nothing),
    /// no campaign mark to add. The next run that writes judges every entry again.
    fn changes_nothing(&self) -> bool {
        let all_replayed = self.replayed == self.loaded.entries.len() as u64;
        let marked = !self.budget.campaign || self.loaded.entries.iter().all(|e| e.campaign);
        self.found.is_empty() && !self.migrated && all_replayed && marked
    }

    /// Moves a damaged kept file (`why`) aside to `<file>.corrupt`, if that name is free;
    /// whether it was moved.
    fn move_aside(&self, why: &str) -> bool {
        let aside = beside(&self.path, ".corrupt");
        if aside.exists() {
            eprintln!(
                "typefuzz: {} is damaged ({why}) and {} is taken: both are left as they are, and \
                 this run's seeds are not kept",
                self.path.display(),
                aside.display()
            );
            return false;
        }
        match fs::rename(&self.path, &aside) {
            Ok(()) => {
                eprintln!(
                    "typefuzz: {} was damaged ({why}); it was moved to {} and a new file keeps \
                     this run's seeds",
                    self.path.display(),
                    aside.display()
                );
                true
            }
            Err(error) => {
                eprintln!(
                    "typefuzz: {} is damaged ({why}) and could not be moved aside ({error}); it \
                     is left as it is, and this run's seeds are not kept",
                    self.path.display()
                );
                false
            }
        }
    }

    /// The inputs of the replayed entries `indices`.
    fn judged(&self, indices: &[usize]) -> Vec<Vec<u8>> {
        (indices.iter())
            .map(|&index| self.loaded.entries[index].bytes.clone())
            .collect()
    }

    /// `now`, what the file holds under the lock, with this run's finds and its judgements of
    /// replayed inputs (`useful`, `redundant`) applied and the upkeep rules 3 to 5 of the
    /// [module docs](self); `None` if that changes nothing.
    fn merge(&self, now: Seeds, useful: &[Vec<u8>], redundant: &[Vec<u8>]) -> Option<Seeds> {
        let run = now.runs + 1;
        let existing = now.entries.len();
        // Entries `0..existing` are the file's, then the run's new finds (`added`, into
        // `self.found`), all judged by index.
        let mut useful_in: Vec<u64> = now.entries.iter().map(|e| e.useful_in).collect();
        let mut campaign: Vec<bool> = now.entries.iter().map(|e| e.campaign).collect();
        let mut added: Vec<usize> = Vec::new();
        let mut touched = false;
        let mut remove: HashSet<usize> = HashSet::new();
        {
            let mut at: HashMap<&[u8], usize> = HashMap::with_capacity(existing);
            for (index, entry) in now.entries.iter().enumerate() {
                at.insert(&entry.bytes, index);
            }
            for bytes in useful {
                if let Some(&i) = at.get(&bytes[..]) {
                    useful_in[i] = run;
                    touched = true;
                }
            }
            for (found, bytes) in self.found.iter().enumerate() {
                touched = true;
                let next = useful_in.len();
                let i = *at.entry(bytes).or_insert(next);
                if i == next {
                    added.push(found);
                    useful_in.push(run);
                    campaign.push(false);
                }
                useful_in[i] = run;
            }
            let len = |i: usize| match i.checked_sub(existing) {
                Some(new) => self.found[added[new]].len(),
                None => now.entries[i].bytes.len(),
            };
            let oldest_first = |i: usize| (useful_in[i], std::cmp::Reverse(len(i)));
            let total = useful_in.len();
            if self.budget.campaign {
                touched |= campaign.iter().any(|&marked| !marked);
                campaign.iter_mut().for_each(|marked| *marked = true);
            } else {
                let left_by_campaign = campaign.iter().filter(|&&marked| marked).count() as u64;
                let mut count = total as u64;
                let all_useful_there = useful.iter().all(|bytes| at.contains_key(&bytes[..]));
                if count > self.budget.inputs && left_by_campaign == 0 && all_useful_there {
                    for bytes in redundant {
                        // Found useful by another run since this one read the file: it stays.
                        let found = at.get(&bytes[..]);
                        if let Some(&i) = found.filter(|&&i| useful_in[i] <= self.loaded_runs) {
                            if remove.insert(i) {
                                count -= 1;
                            }
                        }
                    }
                }
                let max = self.budget.max_entries().max(left_by_campaign);
                if count > max {
                    let mut unused: Vec<usize> = (0..total)
                        .filter(|i| !remove.contains(i))
                        .filter(|&i| !campaign[i] && useful_in[i] <= self.loaded_runs)
                        .collect();
                    unused.sort_by_key(|&i| oldest_first(i));
                    remove.extend(unused.into_iter().take((count - max) as usize));
                }
            }
            // The bounds of rule 5, over everything left: a campaign's entries last.
            let mut left: Vec<usize> = (0..total).filter(|i| !remove.contains(i)).collect();
            let mut bytes: usize = left.iter().map(|&i| len(i)).sum();
            if left.len() > MAX_ENTRIES || bytes > MAX_BYTES {
                left.sort_by_key(|&i| (campaign[i], oldest_first(i)));
                let mut count = left.len();
                for &i in &left {
                    if count <= MAX_ENTRIES && bytes <= MAX_BYTES {
                        break;
                    }
                    remove.insert(i);
                    count -= 1;
                    bytes -= len(i);
                }
            }
        }
        if !touched && remove.is_empty() && !self.migrated {
            return None;
        }
        let file = now.entries.into_iter().map(|entry| entry.bytes);
        let new = added.iter().map(|&found| self.found[found].clone());
        let entries = file
            .chain(new)
            .enumerate()
            .filter(|(i, _)| !remove.contains(i))
            .map(|(i, bytes)| Entry {
                bytes,
                useful_in: useful_in[i],
                campaign: campaign[i],
            })
            .collect();
        Some(Seeds { runs: run, entries })
    }
}

impl Drop for KeptCorpus {
    /// A run's kept corpus is written back when the run ends (its last user drops it).
    fn drop(&mut self) {
        if !std::thread::panicking() {
            self.write_back();
        }
    }
}

/// The indices of the entries to replay within `limit`, in replay order (rule 2 of the
/// [module docs](self)).
fn replay_order(entries: &[Entry], limit: u64) -> VecDeque<usize> {
    let mut chosen: Vec<usize> = (0..entries.len()).collect();
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let key = |i: usize| (entries[i].bytes.len(), &entries[i].bytes);
    if chosen.len() > limit {
        // Most recently useful first; the smaller of two equally recent entries first.
        chosen
            .sort_by(|&a, &b| (entries[b].useful_in, key(a)).cmp(&(entries[a].useful_in, key(b))));
        let recent = limit - limit / 4;
        let mut rest = chosen.split_off(recent);
        let oldest = rest.split_off(rest.len() - (limit - recent));
        chosen.extend(oldest);
    }
    chosen.sort_by(|&a, &b| key(a).cmp(&key(b)));
    chosen.into()
}

/// The kept file at `path`: `None` if there is none. Between the two renames of a
/// [`replace`] the file is `<path>.old`, read in its place.
fn read(path: &Path) -> Result<Option<Seeds>, Unread> {
    let bytes = match fs::read(path) {
        Err(error) if error.kind() == ErrorKind::NotFound => fs::read(beside(path, OLD)),
        read => read,
    };
    match bytes {
        Ok(bytes) => decode(&bytes).map(Some),
        Err(error) if error.kind() == ErrorKind::NotFound => Ok(None),
        Err(error) => Err(Unread::Foreign(format!("cannot read it: {error}"))),
    }
}

/// The run count in the header of the kept file at `path`, if it has one this version reads.
fn runs_of(path: &Path) -> Option<u64> {
    let mut header = [0; MAGIC.len() + 8];
    fs::File::open(path).ok()?.read_exact(&mut header).ok()?;
    let runs = header.strip_prefix(&MAGIC)?;
    Some(u64::from_le_bytes(runs.try_into().ok()?))
}

/// The suffix of a kept file's name while a [`replace`] moves it out of the way.
const OLD: &str = ".old";

/// `path` with `suffix` added to its file name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    name.into()
}

/// Replaces the file at `path` by one holding `bytes`, atomically for readers: a temporary file
/// ([`files::temporary_beside`], the first half of every atomic write), then the old file renamed
/// to `<path>.old`, the temporary one to `path`, and `<path>.old` removed (the caller holds the
/// directory's lock). Renaming onto an existing file would be one step fewer, but ext4 then
/// writes the new file's data out at once (its `auto_da_alloc` heuristic): measured 2.5-3.8 ms a
/// replacement against 0.03 ms this way.
///
/// Unlike [`files::write_atomically`] nothing waits for the disk (no `fsync` of the file or the
/// directory): the kept seeds are a cache whose loss in a power failure costs only the climb
/// they saved (a damaged file fails its checksum and is moved aside), while waiting is paid by
/// every drop-in test of every run (measured: 15 ms a replacement with both syncs, 0.3 ms
/// without, on this project's CI machine's ext4).
fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut temporary = files::temporary_beside(path)?;
    temporary.write_all(bytes)?;
    let old = beside(path, OLD);
    match fs::rename(path, &old) {
        Err(error) if error.kind() != ErrorKind::NotFound => return Err(error),
        _ => {}
    }
    // On failure the temporary file is removed when the error drops it.
    temporary.persist(path).map_err(|error| error.error)?;
    match fs::remove_file(&old) {
        Err(error) if error.kind() != ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

/// The bytes of a kept file holding `seeds` (see the [module docs](self)).
fn encode(seeds: &Seeds) -> Vec<u8> {
    let size: usize = seeds.entries.iter().map(|e| 13 + e.bytes.len()).sum();
    let mut out = Vec::with_capacity(MAGIC.len() + 12 + size + DIGEST);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&seeds.runs.to_le_bytes());
    out.extend_from_slice(&(seeds.entries.len() as u32).to_le_bytes());
    for entry in &seeds.entries {
        out.extend_from_slice(&entry.useful_in.to_le_bytes());
        out.push(if entry.campaign { FLAG_CAMPAIGN } else { 0 });
        out.extend_from_slice(&(entry.bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(&entry.bytes);
    }
    let digest = crc32fast::hash(&out);
    out.extend_from_slice(&digest.to_le_bytes());
    out
}

/// The seeds a kept file's `bytes` hold, or why they are not a kept file of this version.
fn decode(bytes: &[u8]) -> Result<Seeds, Unread> {
    let damaged = |what: &str| Unread::Damaged(format!("{what}; its seeds are skipped"));
    if !bytes.starts_with(MAGIC_NAME) {
        return Err(Unread::Foreign("it is not a typefuzz seeds file".into()));
    }
    if !bytes.starts_with(&MAGIC) {
        return Err(Unread::Foreign(
            "it was written by another version of typefuzz".into(),
        ));
    }
    let Some((body, digest)) = bytes.split_at_checked(bytes.len().saturating_sub(DIGEST)) else {
        return Err(damaged("it is cut short"));
    };
    if body.len() < MAGIC.len() + 12 || crc32fast::hash(body).to_le_bytes() != digest {
        return Err(damaged(
            "its checksum does not match its contents (damaged or cut short)",
        ));
    }
    let mut rest = &body[MAGIC.len()..];
    let mut take = |n: usize| -> Result<&[u8], Unread> {
        let (head, tail) = rest
            .split_at_checked(n)
            .ok_or_else(|| damaged("an entry runs past its end"))?;
        rest = tail;
        Ok(head)
    };
    let u64_at = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    let u32_at = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
    let runs = u64_at(take(8)?);
    let count = u32_at(take(4)?) as usize;
    let mut entries = Vec::with_capacity(count.min(MAX_ENTRIES));
    for _ in 0..count {
        let useful_in = u64_at(take(8)?);
        let flags = take(1)?[0];
        let len = u32_at(take(4)?) as usize;
        entries.push(Entry {
            bytes: take(len)?.to_vec(),
            useful_in,
            campaign: flags & FLAG_CAMPAIGN != 0,
        });
    }
    if !rest.is_empty() {
        return Err(damaged("it has bytes past its last entry"));
    }
    Ok(Seeds { runs, entries })
}

/// The inputs of an older kept directory beside `path` (see the [module docs](self)), if there
/// is one.
fn migrate(path: &Path) -> Option<Seeds> {
    let dir = path.with_extension("");
    let listing = fs::read_dir(&dir).ok()?;
    let mut files: Vec<(SystemTime, PathBuf, String)> = listing
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let modified = entry.metadata().ok()?.modified().ok()?;
            (!name.starts_with('.')).then_some((modified, entry.path(), name))
        })
        .collect();
    files.sort();
    let skip = files.len().saturating_sub(MAX_ENTRIES);
    let campaign: HashSet<String> = fs::read_to_string(dir.join(".campaign"))
        .map(|text| text.lines().skip(1).map(str::to_owned).collect())
        .unwrap_or_default();
    let mut entries = Vec::new();
    for (_, file, name) in files.into_iter().skip(skip) {
        let Ok(bytes) = read_input_file(&file) else {
            continue;
        };
        // A file named by a SHA-1 that is not its contents' is a damaged copy.
        let sha1 = name.len() == 40 && name.bytes().all(|b| b.is_ascii_hexdigit());
        if sha1 && sha1_hex(&bytes) != name {
            continue;
        }
        entries.push(Entry {
            bytes,
            useful_in: entries.len() as u64 + 1,
            campaign: campaign.contains(&name),
        });
    }
    eprintln!(
        "typefuzz: reading the {} seeds kept in the older directory {} into {} (the directory \
         is no longer used; remove it when you like)",
        entries.len(),
        dir.display(),
        path.display()
    );
    Some(Seeds {
        runs: entries.len() as u64,
        entries,
    })
}

/// Once per process, keeps the kept files beside `path` within [`MAX_TOTAL_BYTES`] (rule 5 of
/// the [module docs](self)): the least recently written go first, never `path` itself.
fn trim_directory_once(path: &Path) {
    static TRIMMED: Once = Once::new();
    TRIMMED.call_once(|| {
        let Some(dir) = path.parent() else {
            return;
        };
        trim_directory(dir, path, MAX_TOTAL_BYTES);
    });
}

/// Removes the least recently written kept files in `dir` (but `keep`) until they hold at most
/// `max` bytes; what it removed.
fn trim_directory(dir: &Path, keep: &Path, max: u64) -> Vec<PathBuf> {
    let Ok(listing) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(SystemTime, u64, PathBuf)> = listing
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|file| file.extension().is_some_and(|ext| ext == EXTENSION))
        .filter_map(|file| {
            let meta = fs::metadata(&file).ok().filter(fs::Metadata::is_file)?;
            Some((meta.modified().ok()?, meta.len(), file))
        })
        .collect();
    let mut total: u64 = files.iter().map(|(_, len, _)| len).sum();
    files.sort();
    let mut removed = Vec::new();
    for (_, len, file) in files {
        if total <= max {
            break;
        }
        if file != keep && fs::remove_file(&file).is_ok() {
            total -= len;
            removed.push(file);
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("typefuzz-kept-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn budget(inputs: u64) -> ReplayBudget {
        ReplayBudget {
            inputs,
            time: None,
            campaign: false,
        }
    }

    /// Writes a kept file holding `entries`, its run count the largest of theirs.
    fn write(path: &Path, entries: impl IntoIterator<Item = (Vec<u8>, u64)>) {
        write_runs(path, 0, entries);
    }

    /// Writes a kept file holding `entries`, its run count at least `runs`.
    fn write_runs(path: &Path, runs: u64, entries: impl IntoIterator<Item = (Vec<u8>, u64)>) {
        let entries: Vec<Entry> = entries
            .into_iter()
            .map(|(bytes, useful_in)| Entry {
                bytes,
                useful_in,
                campaign: false,
            })
            .collect();
        let runs = entries
            .iter()
            .map(|e| e.useful_in)
            .max()
            .unwrap_or(0)
            .max(runs);
        fs::write(path, encode(&Seeds { runs, entries })).unwrap();
    }

    fn held(path: &Path) -> HashSet<Vec<u8>> {
        let seeds = read(path).ok().flatten().expect("a kept file");
        seeds.entries.into_iter().map(|e| e.bytes).collect()
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
        assert_eq!(budget.max_entries(), 1000);
        assert_eq!(
            ReplayBudget::of(&Config::default().with_cases(8)).max_entries(),
            64
        );
    }

    #[test]
    fn the_file_round_trips_and_damage_is_detected() {
        let seeds = Seeds {
            runs: 7,
            entries: vec![
                Entry {
                    bytes: vec![1, 2, 3],
                    useful_in: 7,
                    campaign: true,
                },
                Entry {
                    bytes: Vec::new(),
                    useful_in: 2,
                    campaign: false,
                },
            ],
        };
        let bytes = encode(&seeds);
        assert_eq!(decode(&bytes).unwrap(), seeds);
        for cut in [0, 8, 20, bytes.len() - 1] {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        flipped[30] ^= 1;
        assert!(matches!(decode(&flipped), Err(Unread::Damaged(_))));
        let mut newer = bytes;
        newer[7] = 2;
        assert!(matches!(decode(&newer), Err(Unread::Foreign(_))));
    }

    #[test]
    fn replay_takes_the_recent_entries_and_a_few_of_the_oldest_smallest_first() {
        let entries: Vec<Entry> = (0..40u8)
            .map(|i| Entry {
                bytes: vec![i; usize::from(40 - i)],
                useful_in: u64::from(i),
                campaign: false,
            })
            .collect();
        let order: Vec<usize> = replay_order(&entries, 8).into();
        assert_eq!(order, [39, 38, 37, 36, 35, 34, 1, 0]);
        assert_eq!(replay_order(&entries, 100).len(), 40);
    }

    #[test]
    fn redundant_entries_go_and_useful_ones_are_marked_in_one_write() {
        let dir = scratch("minimize");
        let path = dir.join("t.seeds");
        write(&path, (0..10u8).map(|i| (vec![i], 1)));
        let mut corpus = KeptCorpus::open(&path, budget(6));
        let mut judged = Vec::new();
        while let Some(input) = corpus.next_input() {
            // Only even inputs reach something new.
            corpus.judge(input[0] % 2 == 0);
            judged.push(input[0]);
        }
        // The five most recent (all equally recent: the smallest) and the least recent one.
        assert_eq!(judged, [0, 1, 2, 3, 4, 9]);
        corpus.save(&[42], true);
        drop(corpus);
        let expected: HashSet<Vec<u8>> = [0, 2, 4, 5, 6, 7, 8, 42].map(|i| vec![i]).into();
        assert_eq!(held(&path), expected);
        let seeds = read(&path).unwrap().unwrap();
        assert_eq!(seeds.runs, 2);
        let recent: HashSet<u8> = (seeds.entries.iter())
            .filter(|e| e.useful_in == 2)
            .map(|e| e.bytes[0])
            .collect();
        assert_eq!(recent, [0, 2, 4, 42].into());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nothing_redundant_goes_when_an_entry_that_covered_it_is_gone() {
        let dir = scratch("covered");
        let path = dir.join("t.seeds");
        write(&path, (0..10u8).map(|i| (vec![i], 1)));
        let mut corpus = KeptCorpus::open(&path, budget(2));
        corpus.next_input().unwrap();
        corpus.judge(true);
        corpus.next_input().unwrap();
        corpus.judge(false);
        // Another worker's upkeep (a run of its own) removed the entry this run's judgement
        // relied on.
        write_runs(&path, 2, (1..10u8).map(|i| (vec![i], 1)));
        drop(corpus);
        assert_eq!(held(&path), (1..10u8).map(|i| vec![i]).collect());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn over_the_cap_the_least_recently_useful_go_and_the_bounds_hold() {
        let dir = scratch("cap");
        let path = dir.join("t.seeds");
        write(
            &path,
            (0..300u16).map(|i| (i.to_le_bytes().to_vec(), u64::from(i))),
        );
        let mut corpus = KeptCorpus::open(&path, budget(4));
        while corpus.next_input().is_some() {
            corpus.judge(true);
        }
        drop(corpus);
        let left = held(&path);
        assert_eq!(left.len() as u64, MIN_MAX_ENTRIES);
        let has = |i: u16| left.contains(i.to_le_bytes().as_slice());
        // The replayed ones were useful (the 3 most recent and the oldest); the rest of the
        // most recent stay.
        assert!(has(0) && (237..300).all(has));
        assert!((1..237).all(|i| !has(i)));
        // A campaign keeps everything, but within the file's own bounds.
        let mut campaign = KeptCorpus::open(
            &path,
            ReplayBudget {
                campaign: true,
                ..budget(4)
            },
        );
        for i in 0..MAX_ENTRIES as u32 {
            campaign.save(&i.to_le_bytes(), true);
        }
        campaign.save(&vec![0; MAX_BYTES / 2], true);
        drop(campaign);
        let seeds = read(&path).unwrap().unwrap();
        let bytes: usize = seeds.entries.iter().map(|e| e.bytes.len()).sum();
        assert!(seeds.entries.len() <= MAX_ENTRIES && bytes <= MAX_BYTES);
        assert!(seeds.entries.len() > MAX_ENTRIES / 2);
        assert!(seeds.entries.iter().all(|e| e.campaign));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_file_is_moved_aside_and_another_versions_is_left() {
        let dir = scratch("damaged");
        let path = dir.join("t.seeds");
        write(&path, [(vec![1], 1)]);
        let mut damaged = fs::read(&path).unwrap();
        let last = damaged.len() - 1;
        damaged[last] ^= 0xff;
        fs::write(&path, &damaged).unwrap();
        let mut corpus = KeptCorpus::open(&path, budget(4));
        assert_eq!(corpus.next_input(), None, "its seeds are skipped");
        corpus.save(&[2], true);
        drop(corpus);
        assert_eq!(fs::read(dir.join("t.seeds.corrupt")).unwrap(), damaged);
        assert_eq!(held(&path), [vec![2]].into());
        // Another version's file is never written over.
        let mut newer = fs::read(&path).unwrap();
        newer[7] = 9;
        fs::write(&path, &newer).unwrap();
        let mut corpus = KeptCorpus::open(&path, budget(4));
        corpus.save(&[3], true);
        drop(corpus);
        assert_eq!(fs::read(&path).unwrap(), newer);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_older_directory_is_read_once_into_the_file() {
        let dir = scratch("migrate");
        let old = dir.join("t");
        fs::create_dir_all(&old).unwrap();
        for i in 0..5u8 {
            fs::write(old.join(sha1_hex(&[i])), [i]).unwrap();
        }
        fs::write(old.join(sha1_hex(b"x")), b"damaged").unwrap();
        let path = dir.join("t.seeds");
        let mut corpus = KeptCorpus::open(&path, budget(64));
        let replayed: HashSet<Vec<u8>> = std::iter::from_fn(|| corpus.next_input()).collect();
        assert_eq!(replayed, (0..5u8).map(|i| vec![i]).collect());
        drop(corpus);
        assert_eq!(
            held(&path),
            replayed,
            "written into the file, judged or not"
        );
        assert!(old.is_dir(), "the directory is left");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_is_replaced_whole_and_read_while_it_is_moved_out_of_the_way() {
        let dir = scratch("replace");
        let path = dir.join("t.seeds");
        replace(&path, b"first").unwrap();
        replace(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "nothing left beside it"
        );
        // Between the two renames (or after a crash there), `<file>.old` is the file.
        write(&path, [(vec![1], 1)]);
        fs::rename(&path, beside(&path, OLD)).unwrap();
        assert_eq!(held(&path), [vec![1]].into());
        let mut corpus = KeptCorpus::open(&path, budget(4));
        assert_eq!(corpus.next_input(), Some(vec![1]));
        corpus.judge(true);
        corpus.save(&[2], true);
        drop(corpus);
        assert_eq!(held(&path), [vec![1], vec![2]].into());
        assert!(!beside(&path, OLD).exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_directory_is_trimmed_least_recently_written_first() {
        let dir = scratch("trim");
        for (i, name) in ["a", "b", "c"].into_iter().enumerate() {
            let file = dir.join(format!("{name}.{EXTENSION}"));
            fs::write(&file, [0; 100]).unwrap();
            fs::File::options()
                .write(true)
                .open(&file)
                .unwrap()
                .set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(10 - i as u64))
                .unwrap();
        }
        fs::write(dir.join("other"), [0; 1000]).unwrap();
        let keep = dir.join(format!("c.{EXTENSION}"));
        let removed = trim_directory(&dir, &keep, 250);
        assert_eq!(removed, [dir.join(format!("b.{EXTENSION}"))]);
        assert!(keep.exists() && dir.join("a.seeds").exists() && dir.join("other").exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
