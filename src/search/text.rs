//! Folding, runs, word starts and terms: the text rules of search
//! (`docs/search.md` states them; this module is their reference).
//!
//! Character classes are Unicode general categories, which every engine
//! that must agree with this one (JavaScript's `\p{..}`) can test the same
//! way: letters are `L`, digits are `N`, marks are `M`, upper-case letters
//! are `Lu` and lower-case letters `Ll`.

use crate::model::cut;
use std::borrow::Cow;
use unicode_general_category::{GeneralCategory as Gc, get_general_category};
use unicode_normalization::UnicodeNormalization;

fn is_letter(c: char) -> bool {
    matches!(
        get_general_category(c),
        Gc::UppercaseLetter
            | Gc::LowercaseLetter
            | Gc::TitlecaseLetter
            | Gc::ModifierLetter
            | Gc::OtherLetter
    )
}

fn is_digit(c: char) -> bool {
    matches!(
        get_general_category(c),
        Gc::DecimalNumber | Gc::LetterNumber | Gc::OtherNumber
    )
}

fn is_mark(c: char) -> bool {
    matches!(
        get_general_category(c),
        Gc::NonspacingMark | Gc::SpacingMark | Gc::EnclosingMark
    )
}

/// Part of a run: a letter or a digit, or a mark that modifies one.
fn in_run(c: char) -> bool {
    is_letter(c) || is_digit(c) || is_mark(c)
}

/// Folds a text for comparison: Unicode NFKD, combining marks dropped,
/// lower-cased. Search is case- and accent-insensitive through this alone.
pub fn fold(text: &str) -> String {
    let stripped: String = text.nfkd().filter(|&c| !is_mark(c)).collect();
    stripped.to_lowercase()
}

/// The runs of a text: maximal sequences of letters, digits and marks,
/// as they stand in the original text.
pub fn runs(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !in_run(c))
        .filter(|run| !run.is_empty())
}

/// Byte offsets of the word starts in `run`: its first letter or digit; an
/// upper-case letter after a lower-case one; the last upper-case letter of
/// an acronym when a lower-case one follows (`ABB|Create`); a letter after
/// a digit and a digit after a letter. Marks are skipped when looking back
/// and ahead, so they never separate a letter from its neighbours.
pub fn word_starts(run: &str) -> Vec<usize> {
    let case = |c: char| get_general_category(c);
    let letters: Vec<(usize, char)> = run.char_indices().filter(|&(_, c)| !is_mark(c)).collect();
    let mut starts = Vec::new();
    for (at, &(offset, c)) in letters.iter().enumerate() {
        let previous = at.checked_sub(1).map(|p| letters[p].1);
        let next = letters.get(at + 1).map(|&(_, n)| n);
        let start = match previous {
            None => true,
            Some(p) => {
                (case(p) == Gc::LowercaseLetter && case(c) == Gc::UppercaseLetter)
                    || (case(p) == Gc::UppercaseLetter
                        && case(c) == Gc::UppercaseLetter
                        && next.is_some_and(|n| case(n) == Gc::LowercaseLetter))
                    || (is_letter(p) && is_digit(c))
                    || (is_digit(p) && is_letter(c))
            }
        };
        if start {
            starts.push(offset);
        }
    }
    starts
}

/// The folded text of a field from each of its word starts, to the end of
/// the run: a term matches the field when one of these begins with it.
/// Sorted and without duplicates.
pub fn word_suffixes(field: &str) -> Vec<String> {
    let mut suffixes: Vec<String> = runs(field)
        .flat_map(|run| {
            word_starts(run)
                .into_iter()
                .map(move |start| fold(&run[start..]))
        })
        .filter(|s| !s.is_empty())
        .collect();
    suffixes.sort_unstable();
    suffixes.dedup();
    suffixes
}

/// The word suffixes ([`word_suffixes`]) of one field of an entity, from
/// one or more texts, sorted and each once, kept as spans of one string:
/// the suffixes of a run are mostly the tails of its first, so one copy
/// serves them all. A million entities' suffixes as separate strings were
/// a fifth of a build's peak memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SuffixSet {
    text: Box<str>,
    /// Byte ranges of `text`, in the order of the suffixes they hold.
    spans: Box<[(u32, u32)]>,
}

impl SuffixSet {
    pub fn of<'t>(texts: impl IntoIterator<Item = &'t str>) -> SuffixSet {
        let mut text = String::new();
        let mut spans: Vec<(u32, u32)> = Vec::new();
        for field in texts {
            for run in runs(field) {
                // The span of the suffix the next ones are likely tails of.
                let mut tail_of: Option<(usize, usize)> = None;
                for start in word_starts(run) {
                    let suffix = fold(&run[start..]);
                    if suffix.is_empty() {
                        continue;
                    }
                    let span = match tail_of {
                        Some((from, to)) if text[from..to].ends_with(suffix.as_str()) => {
                            (to - suffix.len(), to)
                        }
                        _ => {
                            let from = text.len();
                            text.push_str(&suffix);
                            tail_of = Some((from, text.len()));
                            (from, text.len())
                        }
                    };
                    // Beyond 4 GiB of one field's text: unreachable, as
                    // folding every suffix of such a text separately would
                    // take more memory than any machine has.
                    if let (Ok(from), Ok(to)) = (u32::try_from(span.0), u32::try_from(span.1)) {
                        spans.push((from, to));
                    }
                }
            }
        }
        let at = |&(from, to): &(u32, u32)| &text[from as usize..to as usize];
        spans.sort_unstable_by(|a, b| at(a).cmp(at(b)));
        spans.dedup_by(|a, b| at(a) == at(b));
        SuffixSet {
            text: text.into_boxed_str(),
            spans: spans.into_boxed_slice(),
        }
    }

    /// The suffixes, sorted.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + Clone {
        self.spans.iter().map(|span| self.suffix(span))
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Whether a suffix begins with `term`: binary search, as those that
    /// do follow it in order.
    pub fn any_starts_with(&self, term: &str) -> bool {
        let at = self.spans.partition_point(|span| self.suffix(span) < term);
        self.spans
            .get(at)
            .is_some_and(|span| self.suffix(span).starts_with(term))
    }

    fn suffix(&self, &(from, to): &(u32, u32)) -> &str {
        &self.text[from as usize..to as usize]
    }
}

/// What orders a name among the matches of a tier: its number of runs,
/// its length in characters, then its folded text with each run of digits
/// compared as a number (`docs/search.md`, "Order").
pub fn rank_key(name: &str) -> (usize, usize, Vec<NaturalPart>) {
    (runs(name).count(), name.chars().count(), natural_key(name))
}

/// A name's folded text with each run of digits compared as a number
/// (`leaf 2` before `leaf 10`): the order people read lists of names in,
/// as OLS and Protégé list a term's children. Digits of every script
/// count (`docs/search.md`: Unicode N), by their value: `Gizmo ٣x` comes
/// before `Gizmo 9z`, as the word splitter already reads `٣` as a digit.
pub fn natural_key(name: &str) -> Vec<NaturalPart> {
    let folded = fold(name);
    let mut parts = Vec::new();
    let mut rest = folded.as_str();
    while let Some(c) = rest.chars().next() {
        let digits = digit_value(c).is_some();
        let end = rest
            .find(|c: char| digit_value(c).is_some() != digits)
            .unwrap_or(rest.len());
        let (chunk, after) = rest.split_at(end);
        parts.push(if digits {
            let values: String = chunk
                .chars()
                .filter_map(|c| char::from_digit(digit_value(c)?, 10))
                .collect();
            let significant = values.trim_start_matches('0');
            NaturalPart::Number(significant.len(), significant.to_owned())
        } else {
            NaturalPart::Text(chunk.to_owned())
        });
        rest = after;
    }
    parts
}

/// The value of a digit of any script. Unicode encodes each script's
/// decimal digits 0 to 9 as one run of ten code points, so a digit's value
/// is its distance from the start of its run of numeric characters, modulo
/// ten (runs of several scripts' digits side by side stay aligned).
fn digit_value(c: char) -> Option<u32> {
    if c.is_ascii_digit() {
        return c.to_digit(10);
    }
    if !c.is_numeric() {
        return None;
    }
    let mut start = c as u32;
    while let Some(before) = start.checked_sub(1).and_then(char::from_u32) {
        if !before.is_numeric() {
            break;
        }
        start -= 1;
    }
    Some((c as u32 - start) % 10)
}

/// A piece of a name in natural order: a number (compared by its count of
/// significant digits, then its digits) sorts before text.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum NaturalPart {
    Number(usize, String),
    Text(String),
}

/// The terms of a query: its runs, folded, without camel-case splitting.
/// Runs that fold to nothing (a lone mark) are not terms.
pub fn terms(query: &str) -> Vec<String> {
    runs(query).map(fold).filter(|t| !t.is_empty()).collect()
}

/// A text's runs, folded and joined: how an ID compares with a query's
/// joined terms for the exact tier.
pub fn joined(text: &str) -> String {
    runs(text).map(fold).collect()
}

/// How many characters a [`summary`] holds at most, its ellipsis included.
pub const SUMMARY_CHARS: usize = 160;

/// The start of a description, as a search result shows it: white space
/// collapsed to single spaces; the whole of it where that fits in
/// [`SUMMARY_CHARS`] characters, else as many whole words as fit, then `…`.
/// Never cut at a sentence: a full stop also ends abbreviations
/// (`U.S. News`). Made at build time, so every client shows the same.
pub fn summary(description: &str) -> Cow<'_, str> {
    // Most descriptions are their own summary: borrowed, not copied.
    let single_spaced = description
        .split(' ')
        .all(|word| !word.is_empty() && !word.contains(char::is_whitespace));
    if (single_spaced || description.is_empty()) && description.chars().count() <= SUMMARY_CHARS {
        return Cow::Borrowed(description);
    }
    let sentence = description.split_whitespace().collect::<Vec<_>>().join(" ");
    if sentence.chars().count() <= SUMMARY_CHARS {
        return Cow::Owned(sentence);
    }
    Cow::Owned(cut_at_words(&sentence, SUMMARY_CHARS))
}

/// How many characters a name holds where pages other than its entity's
/// own show it ([`short_name`]), its ellipsis included.
pub const NAME_CHARS: usize = 200;

/// A name as lists, references, search answers and other terms' pages show
/// it: the whole name where it fits in [`NAME_CHARS`] characters, else the
/// whole words that fit, then `…`. The entity's own documents keep it
/// whole; one 30 MB label was copied onto every shared page.
pub fn short_name(name: &str) -> Cow<'_, str> {
    match name.char_indices().nth(NAME_CHARS) {
        None => Cow::Borrowed(name),
        Some(_) => Cow::Owned(cut_at_words(name, NAME_CHARS)),
    }
}

/// The words of `text` that fit in `max` characters with an ellipsis, then
/// `…`; a single word longer than that is cut inside.
fn cut_at_words(text: &str, max: usize) -> String {
    let limit = cut::within_chars(text, max - 1).len();
    let end = if text[limit..].starts_with(' ') {
        limit
    } else {
        text[..limit]
            .rfind(' ')
            .filter(|&at| at > 0)
            .unwrap_or(limit)
    };
    format!("{}…", text[..end].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_is_the_whole_description_or_the_words_that_fit() {
        assert_eq!(
            summary("Creates a new item in GitHub."),
            "Creates a new item in GitHub."
        );
        assert_eq!(summary("One.  Two\nthree."), "One. Two three.");
        assert_eq!(summary("  a\n\tb  "), "a b");
        assert_eq!(summary("In U.S. News."), "In U.S. News.");
        assert_eq!(summary(""), "");
        let long = "word ".repeat(60);
        let cut = summary(&long);
        assert!(cut.ends_with("word…"), "{cut}");
        assert!(cut.chars().count() <= SUMMARY_CHARS);
        let one = "é".repeat(400);
        let cut = summary(&one);
        assert_eq!(cut.chars().count(), SUMMARY_CHARS);
        // Digits of other scripts compare by value (issue 29).
        assert!(natural_key("Gizmo \u{663}x") < natural_key("Gizmo 9z"));
        assert!(natural_key("leaf \u{967}\u{966}") > natural_key("leaf 9"));
        assert_eq!(natural_key("a \u{e53}"), natural_key("a 3"));
        let name = "word ".repeat(1000);
        assert_eq!(short_name("Acme - Create Item"), "Acme - Create Item");
        let short = short_name(&name);
        assert!(short.chars().count() <= NAME_CHARS && short.ends_with("word…"));
        assert!(cut.ends_with("é…"));
    }

    fn starts_as_words(run: &str) -> Vec<&str> {
        let starts = word_starts(run);
        starts
            .iter()
            .enumerate()
            .map(|(i, &s)| &run[s..starts.get(i + 1).copied().unwrap_or(run.len())])
            .collect()
    }

    #[test]
    fn folding_is_nfkd_without_marks_lower_cased() {
        assert_eq!(fold("Café"), "cafe");
        assert_eq!(fold("Cafe\u{301}"), "cafe");
        assert_eq!(fold("ÅNGSTRÖM"), "angstrom");
        assert_eq!(fold("ﬁle"), "file"); // compatibility ligature
        assert_eq!(fold("Ⅻ"), "xii"); // compatibility numeral
        assert_eq!(fold("ŁÓDŹ"), "łodz"); // Ł has no decomposition
        assert_eq!(fold("東京"), "東京");
        assert_eq!(fold("ΣΟΦΟΣ"), "σοφος"); // final sigma, as JavaScript
    }

    #[test]
    fn runs_are_letters_digits_and_marks() {
        assert_eq!(
            runs("Airtable - Create Item").collect::<Vec<_>>(),
            ["Airtable", "Create", "Item"]
        );
        assert_eq!(
            runs("S3Bucket, v2.0!").collect::<Vec<_>>(),
            ["S3Bucket", "v2", "0"]
        );
        assert_eq!(
            runs("e\u{301}te\u{301}").collect::<Vec<_>>(),
            ["e\u{301}te\u{301}"]
        );
        assert_eq!(runs("--- !!").count(), 0);
    }

    #[test]
    fn word_starts_follow_case_and_digits() {
        assert_eq!(
            starts_as_words("AirtableCreateItem"),
            ["Airtable", "Create", "Item"]
        );
        assert_eq!(starts_as_words("S3Bucket"), ["S", "3", "Bucket"]);
        // The last capital of an acronym starts the next word; an acronym
        // alone stays one word.
        assert_eq!(starts_as_words("ABBCreateItem"), ["ABB", "Create", "Item"]);
        assert_eq!(starts_as_words("iOSApp"), ["i", "OS", "App"]);
        assert_eq!(starts_as_words("NASA"), ["NASA"]);
        assert_eq!(starts_as_words("HTTPServer2"), ["HTTP", "Server", "2"]);
        assert_eq!(starts_as_words("v2"), ["v", "2"]);
        assert_eq!(starts_as_words("ÉtéÉté"), ["Été", "Été"]);
        // A mark between a lower and an upper letter does not hide the pair.
        assert_eq!(starts_as_words("e\u{301}T"), ["e\u{301}", "T"]);
        assert_eq!(starts_as_words("東京"), ["東京"]);
    }

    #[test]
    fn names_rank_by_runs_length_and_natural_order() {
        let mut names = [
            "GitHub Sponsors - Create Item",
            "GitHub 10 - Create Item",
            "BitComet - Create Item",
            "GitHub 2 - Create Item",
            "Bit - Create Item",
            "GitHub - Update Item",
        ];
        names.sort_by_cached_key(|n| rank_key(n));
        assert_eq!(
            names,
            [
                "Bit - Create Item",
                "GitHub - Update Item",
                "BitComet - Create Item",
                "GitHub 2 - Create Item",
                "GitHub 10 - Create Item",
                "GitHub Sponsors - Create Item",
            ]
        );
        // Equal in runs and length: numbers compare as numbers.
        let mut same = ["Item 10b", "Item 9ab", "Item 09c"];
        same.sort_by_cached_key(|n| rank_key(n));
        assert_eq!(same, ["Item 9ab", "Item 09c", "Item 10b"]);
    }

    /// A set of suffixes kept as spans holds exactly the suffixes of its
    /// texts, also where folding a tail differs from the tail of the
    /// folded run (a final sigma, a dotted capital I, ligatures, marks).
    #[test]
    fn suffix_sets_hold_the_word_suffixes_of_their_texts() {
        let texts = [
            "AirtableCreateItem",
            "S3 Bucket - Create Item",
            "ΣΑΣ ΟΔΟΣ",
            "aΣ ΟδόΣ",
            "İstanbulİzmir",
            "ﬁleǄemo Straße",
            "e\u{301}coleE\u{301}cole",
            "Ａｂｃ１２３Ｄｅｆ",
            "",
            " -- ",
        ];
        for text in texts {
            let set = SuffixSet::of([text]);
            assert_eq!(
                set.iter().collect::<Vec<_>>(),
                word_suffixes(text),
                "{text:?}"
            );
            assert_eq!(set.len(), word_suffixes(text).len());
        }
        let mut union: Vec<String> = texts.iter().flat_map(|t| word_suffixes(t)).collect();
        union.sort_unstable();
        union.dedup();
        let set = SuffixSet::of(texts);
        assert_eq!(set.iter().collect::<Vec<_>>(), union);
        for suffix in &union {
            assert!(set.any_starts_with(suffix));
            assert!(set.any_starts_with(&suffix[..suffix.chars().next().unwrap().len_utf8()]));
        }
        assert!(!set.any_starts_with("zzz"));
        assert!(SuffixSet::of([""]).is_empty());
    }

    #[test]
    fn suffixes_and_terms() {
        assert_eq!(
            word_suffixes("AirtableCreateItem"),
            ["airtablecreateitem", "createitem", "item"]
        );
        assert_eq!(word_suffixes("S3 Bucket"), ["3", "bucket", "s3"]);
        assert_eq!(
            terms("  Airtable-CREATE  item "),
            ["airtable", "create", "item"]
        );
        assert_eq!(terms("AirtableCreate"), ["airtablecreate"]); // no camel split
        assert_eq!(terms("Crème brûlée"), ["creme", "brulee"]);
        assert!(terms("-- ?").is_empty());
        assert!(terms("\u{301}").is_empty());
        assert_eq!(joined("Acme Update-Item"), "acmeupdateitem");
    }
}
