//! Names and values as a message shows them: a control character (a
//! newline, an escape), a mark that turns the direction of text, or a
//! byte that is not UTF-8, taken from a file name or a value, would
//! otherwise break the message's lines, rewrite the terminal, or make
//! the text read other than it is.

use std::borrow::Cow;
use std::fmt::Write;
use std::path::Path;

/// Whether a message shows `c` escaped: a control character, or a mark
/// that embeds, overrides or isolates the direction of text (Unicode's
/// bidirectional formatting characters, as compilers warn of them).
pub fn is_unshowable(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` with each unshowable character as `\u{…}`.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unshowable) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_char(&mut out, c);
    }
    out.into()
}

fn push_char(out: &mut String, c: char) {
    if is_unshowable(c) {
        let _ = write!(out, "\\u{{{:x}}}", c as u32);
    } else {
        out.push(c);
    }
}

/// A path as a message shows it: [`printable`], and each byte that is
/// not UTF-8 as `\xNN`.
pub fn path(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_char(&mut out, c);
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02X}");
        }
    }
    out
}

/// Why a file name cannot be published as it is, if it cannot: a name
/// holding a byte that is not UTF-8 or an unshowable character could not
/// be recorded, listed or shown as it is.
pub fn unpublishable_name(name: &std::ffi::OsStr) -> Option<&'static str> {
    match name.to_str() {
        None => Some("holds bytes that are not UTF-8"),
        Some(name) if name.chars().any(char::is_control) => {
            Some("holds a control character (a newline, a tab)")
        }
        Some(name) if name.chars().any(is_unshowable) => {
            Some("holds a mark that turns the direction of text")
        }
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unshowable_characters_and_bytes_are_escaped() {
        assert_eq!(printable("plain ü 東京"), "plain ü 東京");
        assert_eq!(
            printable("a\nb\u{202E}c\u{1b}"),
            "a\\u{a}b\\u{202e}c\\u{1b}"
        );
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let name = std::ffi::OsStr::from_bytes(b"a\xFFb\n.ttl");
            assert_eq!(path(Path::new(name)), "a\\xFFb\\u{a}.ttl");
            assert_eq!(
                unpublishable_name(name),
                Some("holds bytes that are not UTF-8")
            );
        }
        assert_eq!(
            unpublishable_name("x\u{2067}.ttl".as_ref()),
            Some("holds a mark that turns the direction of text")
        );
        assert_eq!(unpublishable_name("a b.ttl".as_ref()), None);
    }
}
