//! Near matches: the word forms and typos a query is forgiven when nothing
//! matches it strictly (`docs/search.md`, "Near matches").
//!
//! Both rules are small enough to state exactly, so that `search.js`
//! implements the same ones: a stemmer that only cuts a few English
//! endings (its stem is always a prefix of the term, so a client finds it
//! in the trie node it already has), and a bounded edit distance counted
//! in characters, as optimal string alignment,
//! between the term and the start of a word (a swap of two neighbours is
//! one edit: `pyhton`, `dokcer`).

/// The fewest characters a term needs to be forgiven a typo; shorter
/// terms have too many neighbours to guess from.
pub const TYPO_MIN_CHARS: usize = 4;
/// From this many characters, a term is forgiven two typos.
pub const TWO_TYPOS_CHARS: usize = 8;
/// The fewest characters a stem keeps.
const STEM_MIN_CHARS: usize = 3;

/// The consonants whose doubling before `-ing` and `-ed` the stemmer
/// undoes (`stopped`, `running`); not `l`, `s`, `z` (`falling`, `passed`).
const UNDOUBLED: &str = "bcdfghjkmnpqrtvwxy";

/// The languages the stemmer knows: primary language subtags.
const STEMMED_LANGUAGES: &[&str] = &["en"];

/// The stemmer a site's search uses, from its language tag (`en`,
/// `en-GB`): `Some("en")`, or `None` where there is no stemmer for it and
/// only typos are forgiven.
pub fn stemmer(language: &str) -> Option<&'static str> {
    let primary = language.split('-').next().unwrap_or_default();
    STEMMED_LANGUAGES
        .iter()
        .copied()
        .find(|known| known.eq_ignore_ascii_case(primary))
}

/// The stem of a folded term under the English rules, when it differs from
/// the term and keeps at least three characters. The first rule that
/// applies is the only one:
///
/// 1. `-ies`, `-ied`: cut three (`entities` → `entit`);
/// 2. `-ing`, `-ed`: cut them, then one of a doubled final consonant
///    other than `l`, `s`, `z` (`creating` → `creat`, `stopped` → `stop`);
/// 3. `-es` after `s`, `x`, `z`, `ch`, `sh`: cut two (`boxes` → `box`);
/// 4. `-s` but not `-ss`, `-us`, `-is`: cut one (`items` → `item`).
pub fn stem(term: &str) -> Option<String> {
    let chars: Vec<char> = term.chars().collect();
    let ends = |suffix: &str| term.ends_with(suffix);
    let keep = |cut: usize| chars.len().checked_sub(cut);
    let mut len = if ends("ies") || ends("ied") {
        keep(3)
    } else if ends("ing") || ends("ed") {
        keep(if ends("ing") { 3 } else { 2 }).map(|len| {
            let doubled =
                len >= 2 && chars[len - 1] == chars[len - 2] && UNDOUBLED.contains(chars[len - 1]);
            if doubled { len - 1 } else { len }
        })
    } else if ends("es")
        && ["ses", "xes", "zes", "ches", "shes"]
            .iter()
            .any(|suffix| ends(suffix))
    {
        keep(2)
    } else if ends("s") && !(ends("ss") || ends("us") || ends("is")) {
        keep(1)
    } else {
        None
    };
    len = len.filter(|&len| len >= STEM_MIN_CHARS);
    len.map(|len| chars[..len].iter().collect())
}

/// How many typos a term is forgiven: none under four characters, one up
/// to seven, two from eight.
pub fn typo_budget(term: &str) -> usize {
    match term.chars().count() {
        n if n < TYPO_MIN_CHARS => 0,
        n if n < TWO_TYPOS_CHARS => 1,
        _ => 2,
    }
}

/// Whether `word` begins within `budget` typos of `term`: it has the same
/// first character (a typo there is rare, and it keeps the candidates to
/// one branch of the index), and some prefix of it is at most `budget`
/// insertions, deletions, substitutions and swaps of neighbours away from
/// the term (optimal string alignment). A prefix, because a query is
/// typed from the start: `wordpes` begins `WordPress` with one typo.
pub fn within_typos(term: &str, word: &str, budget: usize) -> bool {
    let a: Vec<char> = term.chars().collect();
    // A prefix longer than this is more than `budget` away.
    let b: Vec<char> = word.chars().take(a.len() + budget).collect();
    if budget == 0 || a.first() != b.first() {
        return false;
    }
    // Rows of the table of edits from a[..i] to b[..j]: this one, the one
    // before and the one before that, for swaps.
    let mut before: Vec<usize> = Vec::new();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut edits = (previous[j] + 1)
                .min(row[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                edits = edits.min(before[j - 2] + 1);
            }
            row[j] = edits;
        }
        // No later row can come back under the budget.
        if row.iter().min() > Some(&budget) {
            return false;
        }
        before = std::mem::replace(&mut previous, row);
    }
    previous.iter().min().is_some_and(|&edits| edits <= budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_cut_english_endings_only() {
        for (term, stemmed) in [
            ("creating", Some("creat")),
            ("updated", Some("updat")),
            ("deleting", Some("delet")),
            ("items", Some("item")),
            ("entities", Some("entit")),
            ("copied", Some("cop")),
            ("stopped", Some("stop")),
            ("running", Some("run")),
            ("falling", Some("fall")),
            ("boxes", Some("box")),
            ("matches", Some("match")),
            ("names", Some("name")),
            ("class", None),
            ("status", None),
            ("analysis", None),
            ("item", None),
            ("sing", None),
            ("red", None),
            ("seeing", Some("see")),
        ] {
            assert_eq!(stem(term).as_deref(), stemmed, "{term}");
        }
    }

    #[test]
    fn typos_are_bounded_by_the_term_s_length() {
        assert_eq!(typo_budget("abc"), 0);
        assert_eq!(typo_budget("gihub"), 1);
        assert_eq!(typo_budget("wordpess"), 2);
        assert!(within_typos("gihub", "github", 1));
        assert!(within_typos("pyhton", "python", 1));
        assert!(within_typos("dokcer", "docker", 1));
        assert!(within_typos("wordpess", "wordpress", 2));
        assert!(!within_typos("ihub", "github", 1));
        assert!(!within_typos("gitlab", "github", 1));
        // A prefix of the word is enough: a query is typed from its start.
        assert!(within_typos("wordpes", "wordpress", 1));
        assert!(within_typos("slak", "slackware", 1));
        assert!(!within_typos("slkw", "slackware", 1));
        assert!(!within_typos("abc", "abd", 0));
        // Characters, not bytes.
        assert!(within_typos("café", "cafe", 1));
        assert_eq!(stemmer("en-GB"), Some("en"));
        assert_eq!(stemmer("de"), None);
    }
}
