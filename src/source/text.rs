//! Reading input files as UTF-8 text, with errors that say where.

use super::diagnostic::Diagnostic;
use std::path::Path;

/// Reads `path` as UTF-8. A file that is not UTF-8 gets a diagnostic at the
/// line and column of its first bad byte.
pub fn read(path: &Path) -> Result<String, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| {
        Diagnostic::new(
            path,
            format!("cannot be read: {e}"),
            "check that the file exists and is readable",
        )
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&valid[line_start..])
            .chars()
            .count()
            + 1;
        Diagnostic::new(
            path,
            "is not valid UTF-8",
            "save the file as UTF-8, as every input file must be (`iconv -f ISO-8859-1 -t UTF-8` converts Latin-1)",
        )
        .at(Some(line), Some(column))
    })
}

/// The text without a leading byte-order mark, which editors on some
/// systems add and JSON parsers reject.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The 1-based column, in characters, of byte `at` of `line`: parsers
/// count bytes, a person counts characters.
pub fn char_column(line: &str, at: usize) -> usize {
    let at = at.min(line.len());
    line.get(..at).map_or(at, |before| before.chars().count()) + 1
}
