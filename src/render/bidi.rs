//! Bidirectional-control characters in shown text, kept from spilling out.
//!
//! A label may hold the explicit embeddings, overrides and isolates of the
//! Unicode Bidirectional Algorithm (U+202A to U+202E, U+2066 to U+2069):
//! right-to-left names legitimately do, and a hostile one uses an unclosed
//! right-to-left override to turn the text after it around (the page's
//! "(deprecated)", the next breadcrumb, an attribute). Pages show every
//! value with each one it opens closed at its end, so it orders its own
//! characters only; the characters themselves stay, as the data has them.

/// `text` with the embeddings, overrides and isolates it leaves open
/// closed at the end of their line (a line break ends them anyway, where
/// the text is preformatted); `None` where it leaves none open (most text).
pub fn closed(text: &str) -> Option<String> {
    let opens = |c: char| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    if !text.contains(opens) {
        return None;
    }
    let mut shown = String::with_capacity(text.len() + 8);
    let mut added = false;
    for line in text.split_inclusive('\n') {
        let (content, end) = match line.strip_suffix('\n') {
            Some(content) => (content, "\n"),
            None => (line, ""),
        };
        shown.push_str(content);
        let closers = closers(content);
        added |= !closers.is_empty();
        shown.push_str(&closers);
        shown.push_str(end);
    }
    added.then_some(shown)
}

/// What closes the embeddings, overrides and isolates `line` leaves open,
/// innermost first.
fn closers(line: &str) -> String {
    // What is open, innermost last: `true` for an isolate.
    let mut open: Vec<bool> = Vec::new();
    for c in line.chars() {
        match c {
            // LRE, RLE, LRO, RLO: closed by PDF.
            '\u{202A}'..='\u{202B}' | '\u{202D}'..='\u{202E}' => open.push(false),
            // PDF closes the innermost embedding or override within the
            // innermost isolate; an unmatched one does nothing.
            '\u{202C}' if open.last() == Some(&false) => {
                open.pop();
            }
            // LRI, RLI, FSI: closed by PDI.
            '\u{2066}'..='\u{2068}' => open.push(true),
            // PDI closes the innermost isolate and everything opened in it.
            '\u{2069}' => {
                if let Some(at) = open.iter().rposition(|&isolate| isolate) {
                    open.truncate(at);
                }
            }
            _ => {}
        }
    }
    open.into_iter()
        .rev()
        .map(|isolate| if isolate { '\u{2069}' } else { '\u{202C}' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::closed;

    #[test]
    fn what_a_value_opens_it_closes() {
        assert_eq!(closed("Acme - Create Item"), None);
        assert_eq!(closed("\u{202E}meti"), Some("\u{202E}meti\u{202C}".into()));
        // Nested: closed innermost first.
        assert_eq!(
            closed("\u{2067}a\u{202D}b"),
            Some("\u{2067}a\u{202D}b\u{202C}\u{2069}".into())
        );
        // Balanced already, or closers without openers: nothing added.
        assert_eq!(closed("\u{2067}שלום\u{2069}"), None);
        assert_eq!(closed("\u{202C}\u{2069}x"), None);
        // A PDI closes the embeddings inside its isolate too.
        assert_eq!(closed("\u{2066}\u{202B}x\u{2069}"), None);
        // Each line apart: the override closes before the line break.
        assert_eq!(
            closed("\"\u{202E}x\",\n\"y\""),
            Some("\"\u{202E}x\",\u{202C}\n\"y\"".into())
        );
    }
}
