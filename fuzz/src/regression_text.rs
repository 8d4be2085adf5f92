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
    /// `# typefuzz regressions v1`, the one this typefuzz reads.
    Current,
    /// `# typefuzz regressions v<version>`.
    Version(String),
    /// Anything.
    Raw(String),
}

/// A line after the header.
#[derive(Clone, Debug, Mutate)]
pub enum Line {
    /// `cc <hex>` with an optional `# comment`, and `indent` leading spaces.
    Entry {
        bytes: Vec<u8>,
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
    /// The file's bytes, and the inputs the engine must replay from it (empty when the file is
    /// not one it reads: a wrong header or arbitrary bytes, where only "no panic" is checked).
    pub fn render(&self) -> (Vec<u8>, Vec<Vec<u8>>) {
        match self {
            RegressionText::Bytes(bytes) => (bytes.clone(), Vec::new()),
            RegressionText::Text(header, lines) => {
                let mut text = String::new();
                let readable = match header {
                    Header::Current => {
                        text.push_str("# typefuzz regressions v1");
                        true
                    }
                    Header::Version(version) => {
                        let _ = write!(text, "# typefuzz regressions v{}", one_line(version));
                        false
                    }
                    Header::Raw(raw) => {
                        text.push_str(&one_line(raw));
                        false
                    }
                };
                let mut expected = Vec::new();
                for line in lines {
                    text.push('\n');
                    match line {
                        Line::Entry {
                            bytes,
                            comment,
                            indent,
                        } => {
                            text.extend(std::iter::repeat(' ').take(usize::from(*indent % 4)));
                            text.push_str("cc ");
                            for byte in bytes {
                                let _ = write!(text, "{byte:02x}");
                            }
                            if let Some(comment) = comment {
                                let _ = write!(text, " # {}", one_line(comment));
                            }
                            expected.push(bytes.clone());
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
                (text.into_bytes(), expected)
            }
        }
    }
}

/// `text` without line breaks (a comment or header must stay on its line).
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}
