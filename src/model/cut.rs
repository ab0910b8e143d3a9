//! Cutting text to a bound. Every bound on a value's length cuts through
//! here, so that no cut can fall inside a character: a 9,900-character
//! Japanese name once made a page's 16 KiB cut panic.

/// The longest start of `text` that holds at most `bytes` bytes and ends
/// on a character boundary.
pub fn within_bytes(text: &str, bytes: usize) -> &str {
    if text.len() <= bytes {
        return text;
    }
    // A character is at most four bytes, so this looks back three at most.
    let mut end = bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The start of `text` that holds at most `chars` characters.
pub fn within_chars(text: &str, chars: usize) -> &str {
    match text.char_indices().nth(chars) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// The end of `text` that holds at most `chars` characters.
pub fn last_chars(text: &str, chars: usize) -> &str {
    if chars == 0 {
        return "";
    }
    match text.char_indices().nth_back(chars - 1) {
        Some((start, _)) => &text[start..],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_by_bytes_never_splits_a_character() {
        let text = "aé日😀b";
        let ends: Vec<&str> = (0..=text.len() + 1)
            .map(|bytes| within_bytes(text, bytes))
            .collect();
        assert_eq!(
            ends,
            [
                "",
                "a",
                "a",
                "aé",
                "aé",
                "aé",
                "aé日",
                "aé日",
                "aé日",
                "aé日",
                "aé日😀",
                "aé日😀b",
                "aé日😀b"
            ]
        );
    }

    #[test]
    fn a_cut_by_characters_counts_characters() {
        assert_eq!(within_chars("日本語", 0), "");
        assert_eq!(within_chars("日本語", 2), "日本");
        assert_eq!(within_chars("日本語", 3), "日本語");
        assert_eq!(within_chars("日本語", 9), "日本語");
        assert_eq!(last_chars("日本語", 0), "");
        assert_eq!(last_chars("日本語", 2), "本語");
        assert_eq!(last_chars("日本語", 9), "日本語");
    }
}
