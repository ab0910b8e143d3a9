//! Input errors as values: where, what, and how to fix it.
//!
//! The source stage collects every problem it finds instead of stopping at
//! the first, so that one run shows a user all that is wrong with the input.

use crate::model::{cut, shown};
use std::fmt;
use std::path::{Path, PathBuf};

/// How many diagnostics a report prints before it only counts the rest.
pub const REPORT_CAP: usize = 50;

/// One problem with the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// The ID of the entity concerned, when the problem is about one.
    pub entity: Option<String>,
    pub message: String,
    /// What to do about it.
    pub help: String,
}

impl Diagnostic {
    pub fn new(path: &Path, message: impl Into<String>, help: impl Into<String>) -> Diagnostic {
        Diagnostic {
            path: path.to_owned(),
            line: None,
            column: None,
            entity: None,
            message: message.into(),
            help: help.into(),
        }
    }

    pub fn at(mut self, line: Option<usize>, column: Option<usize>) -> Diagnostic {
        self.line = line;
        self.column = column;
        self
    }

    pub fn entity(mut self, id: Option<&str>) -> Diagnostic {
        self.entity = id.map(str::to_owned);
        self
    }

    /// A diagnostic for a `serde_json` error, placed at its line and column.
    /// `line_offset` shifts the line for a document that starts further down
    /// a file (a line of a `.jsonl` file).
    /// The same problem with other advice.
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = help.into();
        self
    }

    /// A JSON error in `text`, the text that was parsed (one line of a
    /// `.jsonl` file, then `line` is that line's number). serde_json counts
    /// columns in bytes; a person counts characters.
    pub fn from_json(
        path: &Path,
        text: &str,
        line: Option<usize>,
        error: &serde_json::Error,
    ) -> Diagnostic {
        let message = json_message(error);
        let help = if message.starts_with("recursion limit exceeded") {
            "nest objects and arrays less deeply (at most 128 levels)"
        } else if message.starts_with("number out of range") {
            "write the number within the range of a 64-bit float, or as a string"
        } else {
            match error.classify() {
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                    "fix the JSON syntax at that place (a missing comma, quote or bracket is the usual cause)"
                }
                _ => "give the field the type and value described in docs/input.md",
            }
        };
        let at_line = line.unwrap_or(error.line());
        let line_text = text
            .lines()
            .nth(error.line().saturating_sub(1))
            .unwrap_or("");
        // serde_json's column is the byte just read (0 before any).
        let column = super::text::char_column(line_text, error.column().saturating_sub(1)).max(1);
        Diagnostic::new(path, message, help).at(Some(at_line), Some(column))
    }
}

/// The message of a `serde_json` error without the position it appends,
/// which a diagnostic shows in its own place.
fn json_message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    text.strip_suffix(&suffix).unwrap_or(&text).to_owned()
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", shown::path(&self.path))?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        if let Some(id) = &self.entity {
            write!(f, " (entity `{}`)", shown::printable(&shortened(id)))?;
        }
        write!(
            f,
            ": {}\n  help: {}",
            quoted_shortened(&self.message),
            quoted_shortened(&self.help)
        )
    }
}

/// Every problem found in one read of the input, in a stable order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// How many characters of one quoted value (an ID, an IRI, a slug) a
/// message shows: a 100,000-character IRI was echoed in full, three times.
const QUOTED_CHARS: usize = 120;

/// `text` whole where it fits in [`QUOTED_CHARS`], else its start and end
/// around how many characters it has.
fn shortened(text: &str) -> std::borrow::Cow<'_, str> {
    let count = text.chars().count();
    if count <= QUOTED_CHARS {
        return text.into();
    }
    let head = cut::within_chars(text, QUOTED_CHARS / 2);
    let tail = cut::last_chars(text, QUOTED_CHARS / 4);
    format!("{head}…{tail} ({count} characters)").into()
}

/// `text` with each value between backticks [`shortened`] and
/// [`shown::printable`]: the values are what came from the input.
fn quoted_shortened(text: &str) -> std::borrow::Cow<'_, str> {
    let parts: Vec<&str> = text.split('`').collect();
    if parts
        .iter()
        .skip(1)
        .step_by(2)
        .all(|q| q.len() <= QUOTED_CHARS && !q.chars().any(crate::model::shown::is_unshowable))
    {
        return text.into();
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                shown::printable(&shortened(part)).into_owned().into()
            } else {
                std::borrow::Cow::Borrowed(*part)
            }
        })
        .collect::<Vec<_>>()
        .join("`")
        .into()
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.0.len();
        writeln!(
            f,
            "the input has {total} error{}:",
            if total == 1 { "" } else { "s" }
        )?;
        for diagnostic in self.0.iter().take(REPORT_CAP) {
            writeln!(f, "{diagnostic}")?;
        }
        if total > REPORT_CAP {
            writeln!(f, "... and {} more not shown", total - REPORT_CAP)?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// How many problems of one source file are reported; the rest are
/// counted, as a compiler stops listing after a screenful.
pub const ERRORS_PER_FILE: usize = 20;

/// The problems of one source file: the first `ERRORS_PER_FILE` kept, the
/// rest counted in a closing line.
pub struct FileProblems<'p> {
    path: &'p Path,
    kept: Vec<Diagnostic>,
    more: usize,
}

impl<'p> FileProblems<'p> {
    pub fn new(path: &'p Path) -> FileProblems<'p> {
        FileProblems {
            path,
            kept: Vec::new(),
            more: 0,
        }
    }

    pub fn push(&mut self, problem: Diagnostic) {
        if self.kept.len() < ERRORS_PER_FILE {
            self.kept.push(problem);
        } else {
            self.more += 1;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// The kept problems, and a line counting the rest if there are any.
    pub fn into_vec(mut self) -> Vec<Diagnostic> {
        if self.more > 0 {
            self.kept.push(Diagnostic::new(
                self.path,
                format!("... and {} more syntax errors in this file", self.more),
                "fix the errors above first; later ones often follow from them",
            ));
        }
        self.kept
    }
}

/// A third-party parser that panicked on `path` (see `guard`): said as
/// the parser's failure, with what the user can do about it.
pub fn parser_failed(path: &Path, parser: &str, message: &str) -> Diagnostic {
    Diagnostic::new(
        path,
        format!("{parser} failed on this file: {message}"),
        "this is a bug in the parser, not necessarily in the file; please report it to ontosite with the file. Rewriting the part of the file at that place in a plainer form may avoid it",
    )
}
