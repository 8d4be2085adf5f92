//! Files: what the engine leaves on disk — regression files (failing inputs replayed
//! first on every run), corpus entries, and `hang-<sha1>` inputs — with atomic writes.
//!
//! Every on-disk input is the value's [codec](crate::codec) bytes. Regression files wrap them in
//! a versioned text format ([`RegressionFile`]) so they diff well and can grow fields later;
//! corpus and hang files are the raw bytes, named by their SHA-1, because that is libFuzzer's
//! layout and corpora must move between typefuzz and libFuzzer unchanged.

use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The versions of the regression file format this build reads; it writes the last one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RegressionFormat {
    /// `# typefuzz regressions v1`, then one `cc <hex bytes> [# comment]` line per input.
    V1,
    /// As v1, and each entry may record the [fingerprint](crate::fingerprint) of the type that
    /// wrote it: `cc <hex bytes> shape=<16 hex digits> [# comment]`.
    V2,
}

impl RegressionFormat {
    const CURRENT: RegressionFormat = RegressionFormat::V2;
    const HEADER_PREFIX: &'static str = "# typefuzz regressions v";

    fn header(self) -> String {
        match self {
            RegressionFormat::V1 => format!("{}1", Self::HEADER_PREFIX),
            RegressionFormat::V2 => format!("{}2", Self::HEADER_PREFIX),
        }
    }

    /// Reads the version from a header line.
    fn parse(line: &str) -> Result<RegressionFormat, String> {
        let Some(version) = line.trim_end().strip_prefix(Self::HEADER_PREFIX) else {
            return Err(format!(
                "its first line is not the `{}2` header",
                Self::HEADER_PREFIX
            ));
        };
        match version {
            "1" => Ok(RegressionFormat::V1),
            "2" => Ok(RegressionFormat::V2),
            other => Err(format!(
                "format version {other:?} is not one this typefuzz reads (it reads v1 and v2); \
                 was it written by a newer typefuzz?"
            )),
        }
    }
}

/// One saved failing input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Regression {
    pub(crate) bytes: Vec<u8>,
    /// The fingerprint of the type that wrote it; `None` for entries written before
    /// fingerprints existed (v1), which are replayed unchecked.
    pub(crate) shape: Option<u64>,
    pub(crate) comment: String,
}

/// Why a regression file cannot be written.
#[derive(Debug)]
pub(crate) struct SaveError(pub(crate) String);

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The regression file of one property.
///
/// It is never overwritten when this build cannot read it (another format version, not text,
/// no header): its entries would be lost. Writes re-read the file under an advisory lock
/// (on its directory; see `lock_beside`) and merge, so processes and threads saving to one file
/// concurrently keep every entry; the new content is written to a temporary file in the same
/// directory and renamed over the old one. A symlink is written through (its target is
/// replaced, the link kept); anything that is not a regular file is never written.
#[derive(Debug)]
pub(crate) struct RegressionFile {
    path: PathBuf,
    entries: Vec<Regression>,
}

/// What a readable regression file holds: its entries, and the lines this build could not
/// parse (kept verbatim when the file is rewritten: they may be entries a newer typefuzz wrote).
#[derive(Debug, Default)]
struct Contents {
    entries: Vec<Regression>,
    unparsed: Vec<String>,
}

impl RegressionFile {
    /// Loads `path`; a missing file is empty, a corrupt file or line is reported on stderr and
    /// skipped (never a panic).
    pub(crate) fn load(path: &Path) -> RegressionFile {
        let entries = match read_entries(path) {
            Ok(contents) => contents.entries,
            Err(why) => {
                eprintln!(
                    "typefuzz: skipping regression file {}: {why}; it is left untouched \
                     (new failures are not saved there)",
                    path.display()
                );
                Vec::new()
            }
        };
        RegressionFile {
            path: path.to_path_buf(),
            entries,
        }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    #[cfg(test)]
    pub(crate) fn entries(&self) -> &[Regression] {
        &self.entries
    }

    /// The inputs to replay into a type whose fingerprint is `shape` (named `type_name` in
    /// messages): entries written for another shape are reported and left out.
    pub(crate) fn replayable(&self, shape: u64, type_name: &str) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut other_shapes = Vec::new();
        for (index, entry) in self.entries.iter().enumerate() {
            match entry.shape {
                Some(written) if written != shape => other_shapes.push((index + 1, written)),
                _ => out.push(entry.bytes.clone()),
            }
        }
        if let Some(&(_, written)) = other_shapes.first() {
            let numbers: Vec<String> = other_shapes.iter().map(|(n, _)| n.to_string()).collect();
            announce_once(
                &self.path,
                &format!(
                    "typefuzz: {}: regression entr{} {} {} written for a different shape of \
                     `{type_name}` (fingerprint {written:016x}, now {shape:016x}): kept, not \
                     replayed, so the failures {} hold {} not checked. Check them by hand, then \
                     delete {} from the file (or restore the type's old shape to replay them)",
                    self.path.display(),
                    if numbers.len() == 1 { "y" } else { "ies" },
                    numbers.join(", "),
                    if numbers.len() == 1 { "was" } else { "were" },
                    if numbers.len() == 1 { "it" } else { "they" },
                    if numbers.len() == 1 { "is" } else { "are" },
                    if numbers.len() == 1 { "it" } else { "them" },
                ),
            );
        }
        out
    }

    /// Saves `bytes` (written by a type with fingerprint `shape`), replacing the entry
    /// `replacing` if given (the original input being replaced by its shrunk form). The file is
    /// re-read under its lock and merged, so entries other processes saved meanwhile are kept.
    pub(crate) fn save(
        &mut self,
        bytes: &[u8],
        shape: u64,
        comment: &str,
        replacing: Option<&[u8]>,
    ) -> Result<(), SaveError> {
        let target = resolve_symlinks(&self.path)
            .map_err(|error| SaveError(format!("cannot follow the symlink: {error}")))?;
        refuse_non_regular(&target)?;
        let _lock = lock_beside(&target)?;
        let Contents {
            mut entries,
            unparsed,
        } = read_entries(&target).map_err(|why| {
            SaveError(format!(
                "{why}; the file was left untouched: move it away or fix it, and failures will \
                 be saved there again"
            ))
        })?;
        let entry = Regression {
            bytes: bytes.to_vec(),
            shape: Some(shape),
            comment: one_line(comment, 200),
        };
        let same = |e: &Regression, bytes: &[u8]| e.bytes == bytes && e.shape == Some(shape);
        let position = replacing.and_then(|old| entries.iter().position(|e| same(e, old)));
        let duplicate = entries.iter().position(|e| same(e, bytes));
        match (position, duplicate) {
            (_, Some(index)) => {
                entries[index].comment = entry.comment;
                if let Some(old) = position.filter(|&p| p != index) {
                    entries.remove(old);
                }
            }
            (Some(index), None) => entries[index] = entry,
            (None, None) => entries.push(entry),
        }
        write_atomically(&target, render(&entries, &unparsed).as_bytes())
            .map_err(|error| SaveError(error.to_string()))?;
        self.entries = entries;
        Ok(())
    }
}

/// The entries of the regression file at `path`; `Ok(empty)` if it does not exist, `Err(why)`
/// if it exists but is not a regression file this build reads (then it must not be written).
fn read_entries(path: &Path) -> Result<Contents, String> {
    match fs::metadata(path) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Contents::default()),
        Err(error) => return Err(error.to_string()),
        // Reading a FIFO would block forever, a device could be endless.
        Ok(meta) if !meta.is_file() => return Err("it is not a regular file".into()),
        Ok(_) => {}
    }
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Contents::default()),
        Err(error) => return Err(error.to_string()),
    };
    if bytes.is_empty() {
        // An empty file (e.g. `touch`ed) holds no entries and may be written.
        return Ok(Contents::default());
    }
    let text = String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())?;
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|(_, line)| line).unwrap_or("");
    RegressionFormat::parse(header)?;
    let mut contents = Contents::default();
    for (number, line) in lines {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_entry(line) {
            Ok(entry) => contents.entries.push(entry),
            Err(why) => {
                eprintln!(
                    "typefuzz: skipping line {} of regression file {}: {why} (the line is kept)",
                    number + 1,
                    path.display()
                );
                contents.unparsed.push(line.to_string());
            }
        }
    }
    Ok(contents)
}

fn render(entries: &[Regression], unparsed: &[String]) -> String {
    let mut text = RegressionFormat::CURRENT.header();
    text.push_str(
        "\n# Failing inputs typefuzz found for this property; they are replayed first on every \
         run.\n# Each `cc` line holds an input's codec bytes in hex and the fingerprint of the \
         type\n# that wrote it. Commit this file with your tests.\n",
    );
    for entry in entries {
        text.push_str("cc ");
        text.push_str(&hex(&entry.bytes));
        if let Some(shape) = entry.shape {
            let _ = write!(text, " shape={shape:016x}");
        }
        if !entry.comment.is_empty() {
            let _ = write!(text, " # {}", entry.comment);
        }
        text.push('\n');
    }
    for line in unparsed {
        text.push_str(line);
        text.push('\n');
    }
    text
}

fn parse_entry(line: &str) -> Result<Regression, String> {
    let rest = line.strip_prefix("cc").ok_or("expected `cc <hex bytes>`")?;
    let (data, comment) = match rest.find('#') {
        Some(at) => (&rest[..at], rest[at + 1..].trim()),
        None => (rest, ""),
    };
    let mut fields = data.split_whitespace().peekable();
    // An empty input has no hex token: `cc  shape=...` goes straight to the shape field.
    let hex = match fields.peek() {
        Some(field) if !field.starts_with("shape=") => fields.next().unwrap_or(""),
        _ => "",
    };
    let bytes = unhex(hex).ok_or("the input is not valid hexadecimal")?;
    let shape = match fields.next() {
        None => None,
        Some(field) => {
            let digits = field
                .strip_prefix("shape=")
                .ok_or("expected `shape=<fingerprint>` after the input")?;
            Some(
                u64::from_str_radix(digits, 16)
                    .map_err(|_| "the shape fingerprint is not 16 hex digits")?,
            )
        }
    };
    if fields.next().is_some() {
        return Err("unexpected text after the shape fingerprint".into());
    }
    Ok(Regression {
        bytes,
        shape,
        comment: comment.to_string(),
    })
}

/// Follows symlinks (up to 40, as the kernel does) to the path a write must replace: writing
/// through a link keeps the link.
fn resolve_symlinks(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Refuses to replace anything that exists and is not a regular file (a device such as
/// `/dev/null`, a FIFO, a directory, a socket).
fn refuse_non_regular(path: &Path) -> Result<(), SaveError> {
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(SaveError(
            "it is not a regular file (a device, FIFO, directory or socket), and typefuzz \
             only ever replaces regular files; point TYPEFUZZ_REGRESSIONS or \
             Config::regressions at a file"
                .into(),
        )),
        _ => Ok(()),
    }
}

/// Takes the advisory lock guarding read-modify-write of `path`, released when the guard
/// drops. The regression file itself is replaced by rename, so a lock on it would guard a file
/// that is no longer there: on Unix the lock is an exclusive `flock` on the file's directory
/// (which leaves nothing behind in a directory users commit); elsewhere, where a directory
/// cannot be opened as a file, on `.<name>.lock` beside the file.
pub(crate) fn lock_beside(path: &Path) -> Result<fs::File, SaveError> {
    let dir = directory_of(path);
    fs::create_dir_all(&dir).map_err(|error| SaveError(error.to_string()))?;
    let (lock_path, opened) = if cfg!(unix) {
        (dir.clone(), fs::File::open(&dir))
    } else {
        let lock_path = dir.join(format!(".{}.lock", file_name_of(path)));
        let opened = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path);
        (lock_path, opened)
    };
    let file = opened.map_err(|error| {
        SaveError(format!(
            "cannot open {} to lock it: {error}",
            lock_path.display()
        ))
    })?;
    fs4::FileExt::lock(&file)
        .map_err(|error| SaveError(format!("cannot lock {}: {error}", lock_path.display())))?;
    Ok(file)
}

fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn file_name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
        })
        .collect()
}

/// The hex SHA-1 of `bytes`: libFuzzer's name for corpus and artifact files.
pub(crate) fn sha1_hex(bytes: &[u8]) -> String {
    sha1_smol::Sha1::from(bytes).digest().to_string()
}

/// `text` on one line, at most `max` characters.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        flat
    } else {
        let cut: String = flat.chars().take(max).collect();
        format!("{cut}...")
    }
}

/// Where the crash and hang inputs of a property go: `<regression file without .txt>.artifacts/`
/// beside its regression file (one directory per test, so the next run of that test replays
/// them first and no other test does), or, for a property without one, the system's temporary
/// directory.
pub(crate) fn artifact_dir(regression_path: Option<&Path>) -> PathBuf {
    match regression_path {
        Some(path) => {
            let stem = path
                .file_stem()
                .map(|stem| stem.to_string_lossy().into_owned())
                .unwrap_or_else(|| "property".into());
            directory_of(path).join(format!("{stem}.artifacts"))
        }
        None => std::env::temp_dir().join("typefuzz-artifacts"),
    }
}

/// The `crash-*` and `hang-*` inputs saved in `dir`, in name order; unreadable, oversized and
/// non-regular files are reported and skipped.
pub(crate) fn load_artifacts(dir: &Path) -> Vec<Vec<u8>> {
    load_artifact_files(dir, false)
        .into_iter()
        .map(|(_, bytes)| bytes)
        .collect()
}

/// The crash and hang files in `dir` that hold a recipe (`crash-<sha1>.recipe`: an input's
/// seed and the mutation that made it, which the loop rebuilds the input from), with their paths.
pub(crate) fn load_recipes(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    load_artifact_files(dir, true)
}

/// The suffix of a recipe file's name.
pub(crate) const RECIPE_SUFFIX: &str = ".recipe";

fn load_artifact_files(dir: &Path, recipes: bool) -> Vec<(PathBuf, Vec<u8>)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .map(|name| name.to_string_lossy())
                .is_some_and(|name| {
                    (name.starts_with("crash-") || name.starts_with("hang-"))
                        && name.ends_with(RECIPE_SUFFIX) == recipes
                })
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|path| match read_input_file(&path) {
            Ok(bytes) => Some((path, bytes)),
            Err(why) => {
                eprintln!("typefuzz: skipping saved input {}: {why}", path.display());
                None
            }
        })
        .collect()
}

/// Input files larger than this are not inputs a typefuzz run wrote; they are skipped.
pub(crate) const MAX_INPUT_FILE: u64 = 16 << 20;

/// Reads one raw input file (corpus entry, crash or hang input): only regular files (reading a
/// FIFO would block forever), at most [`MAX_INPUT_FILE`] bytes.
pub(crate) fn read_input_file(path: &Path) -> Result<Vec<u8>, String> {
    let meta = fs::metadata(path).map_err(|error| error.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_INPUT_FILE {
        return Err(format!(
            "{} bytes is more than the {MAX_INPUT_FILE} byte limit",
            meta.len()
        ));
    }
    fs::read(path).map_err(|error| error.to_string())
}

/// Writes `<dir>/<prefix>-<sha1>` atomically and returns its path.
pub(crate) fn write_artifact(dir: &Path, prefix: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    let path = dir.join(format!("{prefix}-{}", sha1_hex(bytes)));
    write_atomically(&path, bytes)?;
    Ok(path)
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`, so readers
/// (and a crash midway) never see a half-written file; the file's data is flushed to the disk
/// before the rename and the directory after it, so once this returns the file survives a power
/// failure too (what a "saved" message promises). For regression, failure, crash and hang files.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_renamed(path, bytes, true)
}

/// [`write_atomically`] without waiting for the disk (`fsync`), for files whose loss in a power
/// failure costs nothing: corpus entries, written for every seed a run keeps, where waiting
/// costs milliseconds each (measured: 177 corpus files, 1.0-1.8 s with `fsync`, 0.1-0.3 s
/// without, on this project's CI machine) — the wall time of a drop-in test.
pub(crate) fn write_atomically_unsynced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_renamed(path, bytes, false)
}

fn write_renamed(path: &Path, bytes: &[u8], sync: bool) -> io::Result<()> {
    let mut file = temporary_beside(path)?;
    file.write_all(bytes)?;
    if sync {
        file.as_file().sync_all()?;
    }
    // On failure the temporary file is removed when the error drops it.
    file.persist(path).map_err(|error| error.error)?;
    if sync {
        sync_directory(&directory_of(path))?;
    }
    Ok(())
}

/// A new temporary file in `path`'s directory (created if missing), named
/// `.<file name>.tmp-<random>` (corpus readers skip dot files) and removed when dropped unless
/// [persisted](tempfile::NamedTempFile::persist): the first half of every atomic write.
pub(crate) fn temporary_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = directory_of(path);
    fs::create_dir_all(&dir)?;
    tempfile::Builder::new()
        .prefix(&format!(".{}.tmp-", file_name_of(path)))
        .tempfile_in(&dir)
}

/// Flushes `dir`'s entries to the disk, so a file just renamed into it stays there after a power
/// failure (POSIX makes a rename durable only through its directory; Windows cannot open a
/// directory as a file, and commits renames with the file system's metadata).
pub(crate) fn sync_directory(dir: &Path) -> io::Result<()> {
    if cfg!(unix) {
        fs::File::open(dir)?.sync_all()
    } else {
        Ok(())
    }
}

/// Writes `message` to the process's real standard error, once per process for `path`.
///
/// libtest captures what a passing test prints through `print!`/`eprint!` (its output capture
/// swaps the macros' target) and shows it only if the test fails; a message written to
/// `std::io::stderr()` itself goes to file descriptor 2 and is seen under a plain `cargo test`.
/// For what a user must act on even when the test passes.
pub(crate) fn announce_once(path: &Path, message: &str) {
    static ANNOUNCED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let mut announced = ANNOUNCED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if announced.iter().any(|seen| seen == path) {
        return;
    }
    announced.push(path.to_path_buf());
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("typefuzz-artifacts-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    /// Every atomic write leaves the new file and nothing else, over an existing one or not; a
    /// write that cannot rename (the target is a directory) leaves no temporary file behind.
    #[test]
    fn atomic_writes_leave_only_the_file() {
        let dir = scratch("atomic");
        let names = |dir: &Path| {
            let mut names: Vec<String> = fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        let path = dir.join("f");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        write_atomically_unsynced(&dir.join("g"), b"three").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read(dir.join("g")).unwrap(), b"three");
        assert_eq!(names(&dir), ["f", "g"]);
        fs::create_dir(dir.join("taken")).unwrap();
        fs::write(dir.join("taken/inside"), b"").unwrap();
        assert!(write_atomically(&dir.join("taken"), b"x").is_err());
        assert_eq!(names(&dir), ["f", "g", "taken"]);
        sync_directory(&dir).unwrap();
        assert!(sync_directory(&dir.join("missing")).is_err() || !cfg!(unix));
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Found by the `regression_file` fuzz target: an empty input with a shape field
    /// (`cc  shape=...`) was read as invalid hex and skipped, so it was never replayed.
    #[test]
    fn an_empty_input_with_a_shape_parses() {
        let entry = parse_entry("cc  shape=00000000000000ff # empty").unwrap();
        assert!(entry.bytes.is_empty());
        assert_eq!(entry.shape, Some(0xff));
        assert_eq!(entry.comment, "empty");
        let entry = parse_entry("cc").unwrap();
        assert!(entry.bytes.is_empty() && entry.shape.is_none());
        assert!(parse_entry("cc 0g shape=01").is_err());
    }

    #[test]
    fn regression_file_round_trips_and_replaces_entries() {
        let path = scratch("round-trip").join("r.txt");
        let mut file = RegressionFile::load(&path);
        assert!(file.entries().is_empty());
        file.save(&[1, 2, 3], 7, "original\nwith newline", None)
            .unwrap();
        file.save(&[9], 7, "second", None).unwrap();
        file.save(&[1], 7, "minimal", Some(&[1, 2, 3])).unwrap();
        let loaded = RegressionFile::load(&path);
        let bytes: Vec<_> = loaded.entries().iter().map(|e| e.bytes.clone()).collect();
        assert_eq!(bytes, vec![vec![1], vec![9]]);
        assert_eq!(loaded.entries()[0].comment, "minimal");
        assert_eq!(loaded.entries()[0].shape, Some(7));
    }

    #[test]
    fn corrupt_lines_and_files_are_skipped() {
        let dir = scratch("corrupt");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.txt");
        fs::write(
            &path,
            "# typefuzz regressions v1\ncc 0g\ncc 0102 # ok\nnonsense\ncc 03 shape=zz\n",
        )
        .unwrap();
        let loaded = RegressionFile::load(&path);
        assert_eq!(loaded.entries().len(), 1);
        assert_eq!(loaded.entries()[0].bytes, vec![1, 2]);
        assert_eq!(loaded.entries()[0].shape, None, "a v1 entry has no shape");
        fs::write(&path, "# typefuzz regressions v9\ncc 0102\n").unwrap();
        assert!(RegressionFile::load(&path).entries().is_empty());
        fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
        assert!(RegressionFile::load(&path).entries().is_empty());
    }

    #[test]
    fn entries_of_another_shape_are_kept_but_not_replayed() {
        let path = scratch("shapes").join("r.txt");
        let mut file = RegressionFile::load(&path);
        file.save(&[1], 1, "", None).unwrap();
        file.save(&[2], 2, "", None).unwrap();
        let loaded = RegressionFile::load(&path);
        assert_eq!(loaded.replayable(2, "T"), vec![vec![2]]);
        assert_eq!(loaded.entries().len(), 2);
    }

    #[test]
    fn lines_this_build_cannot_parse_survive_a_rewrite() {
        let dir = scratch("unparsed");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.txt");
        fs::write(
            &path,
            "# typefuzz regressions v2\ncc 01 shape=7 extra=1\ncc 02\n",
        )
        .unwrap();
        let mut file = RegressionFile::load(&path);
        file.save(&[3], 7, "", None).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains("cc 01 shape=7 extra=1\n"), "{text}");
        assert_eq!(RegressionFile::load(&path).entries().len(), 2, "{text}");
    }

    #[test]
    fn artifact_dirs_are_per_test() {
        assert_eq!(
            artifact_dir(Some(Path::new("r/a-b.txt"))),
            Path::new("r/a-b.artifacts")
        );
    }

    #[test]
    fn sha1_names_match_libfuzzer() {
        // `printf 'abc' | sha1sum`
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    }
}
