//! Generated regression files: well-formed entries mixed with comments, blank lines, garbage
//! and wrong headers, so the `regression_file` target can check that the engine's parser never
//! panics and replays every well-formed entry.

use std::fmt::Write as _;

use typefuzz::Mutate;

/// A regression file's content.
#[derive(Clone, Debug, Mutate)]
pub enum RegressionText {
    /// A text file: a header line, then lines.
    Text(Header, Vec<Line>),
    /// Arbitrary bytes (possibly not UTF-8).
    Bytes(Vec<u8>),
}

/// The first line.
#[derive(Clone, Debug, Mutate)]
pub enum Header {
    /// `# typefuzz regressions v2`, the one this typefuzz writes.
    Current,
    /// `# typefuzz regressions v1`, the format before fingerprints, still read.
    Legacy,
    /// `# typefuzz regressions v<version>`.
    Version(String),
    /// Anything.
    Raw(String),
}

/// A line after the header.
#[derive(Clone, Debug, Mutate)]
pub enum Line {
    /// `cc <hex>` with an optional ` shape=<fingerprint>` (`true`: the fingerprint of
    /// `Vec<u8>`, the target's type; `false`: another), an optional `# comment`, and `indent`
    /// leading spaces.
    Entry {
        bytes: Vec<u8>,
        shape: Option<bool>,
        comment: Option<String>,
        indent: u8,
    },
    /// `# text`.
    Comment(String),
    /// An empty line.
    Blank,
    /// Anything (may contain newlines, `cc`, `#`).
    Raw(String),
}

impl RegressionText {
    /// The file's bytes, the inputs the engine must replay from it into a `Vec<u8>` (empty when
    /// the file is not one it reads), and whether the file is certainly not one it reads (a
    /// wrong header: such a file must never be overwritten). Arbitrary bytes may or may not be
    /// a readable file: only "no panic" is checked for them.
    pub fn render(&self) -> (Vec<u8>, Vec<Vec<u8>>, bool) {
        match self {
            RegressionText::Bytes(bytes) => (bytes.clone(), Vec::new(), false),
            RegressionText::Text(header, lines) => {
                let mut text = String::new();
                let readable = match header {
                    Header::Current => {
                        text.push_str("# typefuzz regressions v2");
                        true
                    }
                    Header::Legacy => {
                        text.push_str("# typefuzz regressions v1");
                        true
                    }
                    Header::Version(version) => {
                        let version = one_line(version);
                        let _ = write!(text, "# typefuzz regressions v{version}");
                        version.trim_end() == "1" || version.trim_end() == "2"
                    }
                    Header::Raw(raw) => {
                        let raw = one_line(raw);
                        text.push_str(&raw);
                        let header = raw.trim_end();
                        header == "# typefuzz regressions v1"
                            || header == "# typefuzz regressions v2"
                    }
                };
                // Empty files hold no entries and may be written.
                let unreadable = !readable && !text.is_empty();
                let mut expected = Vec::new();
                for line in lines {
                    text.push('\n');
                    match line {
                        Line::Entry {
                            bytes,
                            shape,
                            comment,
                            indent,
                        } => {
                            text.extend(std::iter::repeat(' ').take(usize::from(*indent % 4)));
                            text.push_str("cc ");
                            for byte in bytes {
                                let _ = write!(text, "{byte:02x}");
                            }
                            let own = typefuzz::fingerprint::of::<Vec<u8>>();
                            match shape {
                                Some(true) => {
                                    let _ = write!(text, " shape={own:016x}");
                                }
                                Some(false) => {
                                    let _ = write!(text, " shape={:016x}", own ^ 1);
                                }
                                None => {}
                            }
                            if let Some(comment) = comment {
                                let _ = write!(text, " # {}", one_line(comment));
                            }
                            // An entry written for another shape is kept, never replayed.
                            if *shape != Some(false) {
                                expected.push(bytes.clone());
                            }
                        }
                        Line::Comment(comment) => {
                            let _ = write!(text, "# {}", one_line(comment));
                        }
                        Line::Blank => {}
                        Line::Raw(raw) => text.push_str(raw),
                    }
                }
                if !readable {
                    expected.clear();
                }
                (text.into_bytes(), expected, unreadable)
            }
        }
    }
}

/// `text` without line breaks (a comment or header must stay on its line).
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}
