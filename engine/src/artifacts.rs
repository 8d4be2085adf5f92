//! Artifacts: the files the engine leaves behind — regression files (failing inputs replayed
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
use std::sync::atomic::{AtomicU64, Ordering};

/// The versions of the regression file format this build reads; it writes the last one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RegressionFormat {
    /// `# typefuzz regressions v1`, then one `cc <hex bytes> [# comment]` line per input.
    V1,
}

impl RegressionFormat {
    const CURRENT: RegressionFormat = RegressionFormat::V1;
    const HEADER_PREFIX: &'static str = "# typefuzz regressions v";

    fn header(self) -> String {
        match self {
            RegressionFormat::V1 => format!("{}1", Self::HEADER_PREFIX),
        }
    }

    /// Reads the version from a header line.
    fn parse(line: &str) -> Result<RegressionFormat, String> {
        let Some(version) = line.trim_end().strip_prefix(Self::HEADER_PREFIX) else {
            return Err(format!(
                "missing the `{}1` header line",
                Self::HEADER_PREFIX
            ));
        };
        match version {
            "1" => Ok(RegressionFormat::V1),
            other => Err(format!(
                "format version {other:?} is not one this typefuzz reads (it reads v1); \
                 was it written by a newer typefuzz?"
            )),
        }
    }
}

/// One saved failing input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Regression {
    pub(crate) bytes: Vec<u8>,
    pub(crate) comment: String,
}

/// The regression file of one property.
#[derive(Debug)]
pub(crate) struct RegressionFile {
    path: PathBuf,
    entries: Vec<Regression>,
}

impl RegressionFile {
    /// Loads `path`; a missing file is empty, a corrupt file or line is reported on stderr and
    /// skipped (never a panic).
    pub(crate) fn load(path: &Path) -> RegressionFile {
        let mut file = RegressionFile {
            path: path.to_path_buf(),
            entries: Vec::new(),
        };
        let text = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return file,
            Err(error) => {
                eprintln!(
                    "typefuzz: skipping regression file {}: {error}",
                    path.display()
                );
                return file;
            }
        };
        let Ok(text) = String::from_utf8(text) else {
            eprintln!(
                "typefuzz: skipping regression file {}: not UTF-8 text",
                path.display()
            );
            return file;
        };
        let mut lines = text.lines().enumerate();
        let header = lines.next().map(|(_, line)| line).unwrap_or("");
        if let Err(why) = RegressionFormat::parse(header) {
            eprintln!(
                "typefuzz: skipping regression file {}: {why}",
                path.display()
            );
            return file;
        }
        for (number, line) in lines {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match parse_entry(line) {
                Ok(entry) => file.entries.push(entry),
                Err(why) => eprintln!(
                    "typefuzz: skipping line {} of regression file {}: {why}",
                    number + 1,
                    path.display()
                ),
            }
        }
        file
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn entries(&self) -> &[Regression] {
        &self.entries
    }

    /// Saves `bytes`, replacing the entry `replacing` if given (the original input being
    /// replaced by its shrunk form), and rewrites the file atomically.
    pub(crate) fn save(
        &mut self,
        bytes: &[u8],
        comment: &str,
        replacing: Option<&[u8]>,
    ) -> io::Result<()> {
        let entry = Regression {
            bytes: bytes.to_vec(),
            comment: one_line(comment, 200),
        };
        let position = replacing.and_then(|old| self.entries.iter().position(|e| e.bytes == old));
        let duplicate = self.entries.iter().position(|e| e.bytes == bytes);
        match (position, duplicate) {
            (_, Some(index)) => {
                self.entries[index].comment = entry.comment;
                if let Some(old) = position.filter(|&p| p != index) {
                    self.entries.remove(old);
                }
            }
            (Some(index), None) => self.entries[index] = entry,
            (None, None) => self.entries.push(entry),
        }
        self.write()
    }

    fn write(&self) -> io::Result<()> {
        let mut text = RegressionFormat::CURRENT.header();
        text.push_str(
            "\n# Failing inputs typefuzz found for this property; they are replayed first on every \
             run.\n# Each `cc` line holds an input's codec bytes in hex. Commit this file with your \
             tests.\n",
        );
        for entry in &self.entries {
            text.push_str("cc ");
            text.push_str(&hex(&entry.bytes));
            if !entry.comment.is_empty() {
                let _ = write!(text, " # {}", entry.comment);
            }
            text.push('\n');
        }
        write_atomically(&self.path, text.as_bytes())
    }
}

fn parse_entry(line: &str) -> Result<Regression, String> {
    let rest = line.strip_prefix("cc").ok_or("expected `cc <hex bytes>`")?;
    let (data, comment) = match rest.find('#') {
        Some(at) => (&rest[..at], rest[at + 1..].trim()),
        None => (rest, ""),
    };
    let bytes = unhex(data.trim()).ok_or("the input is not valid hexadecimal")?;
    Ok(Regression {
        bytes,
        comment: comment.to_string(),
    })
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

/// Writes `<dir>/<prefix>-<sha1>` atomically and returns its path.
pub(crate) fn write_artifact(dir: &Path, prefix: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    let path = dir.join(format!("{prefix}-{}", sha1_hex(bytes)));
    write_atomically(&path, bytes)?;
    Ok(path)
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`, so readers
/// (and a crash midway) never see a half-written file.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir)?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = dir.join(format!(
        ".{file_name}.tmp-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
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

    #[test]
    fn regression_file_round_trips_and_replaces_entries() {
        let path = scratch("round-trip").join("r.txt");
        let mut file = RegressionFile::load(&path);
        assert!(file.entries().is_empty());
        file.save(&[1, 2, 3], "original\nwith newline", None)
            .unwrap();
        file.save(&[9], "second", None).unwrap();
        file.save(&[1], "minimal", Some(&[1, 2, 3])).unwrap();
        let loaded = RegressionFile::load(&path);
        let bytes: Vec<_> = loaded.entries().iter().map(|e| e.bytes.clone()).collect();
        assert_eq!(bytes, vec![vec![1], vec![9]]);
        assert_eq!(loaded.entries()[0].comment, "minimal");
    }

    #[test]
    fn corrupt_lines_and_files_are_skipped() {
        let dir = scratch("corrupt");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.txt");
        fs::write(
            &path,
            "# typefuzz regressions v1\ncc 0g\ncc 0102 # ok\nnonsense\n",
        )
        .unwrap();
        let loaded = RegressionFile::load(&path);
        assert_eq!(loaded.entries().len(), 1);
        assert_eq!(loaded.entries()[0].bytes, vec![1, 2]);
        fs::write(&path, "# typefuzz regressions v9\ncc 0102\n").unwrap();
        assert!(RegressionFile::load(&path).entries().is_empty());
        fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
        assert!(RegressionFile::load(&path).entries().is_empty());
    }

    #[test]
    fn sha1_names_match_libfuzzer() {
        // `printf 'abc' | sha1sum`
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    }
}
