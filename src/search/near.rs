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
/// one branch of the index), and a prefix of it at least as long as the
/// term, or the whole word where it is shorter, is at most `budget`
/// insertions, deletions, substitutions and swaps of neighbours away from
/// the term (optimal string alignment). A prefix, because a query is typed
/// from the start: `wordpes` begins `WordPress` with one typo. At least as
/// long as the term, so that a long term's last letters are not dropped
/// for free (`venndor2950` is two typos from the word `vendor295`, but not
/// from `vendor29577`).
pub fn within_typos(term: &str, word: &str, budget: usize) -> bool {
    begins_within_typos(term, word, budget, true)
}

/// [`within_typos`], where `whole` says whether a word shorter than the
/// term may count as a whole: not for a trie key, which is only the start
/// of the words under it.
pub fn begins_within_typos(term: &str, word: &str, budget: usize, whole: bool) -> bool {
    let term: Vec<char> = term.chars().collect();
    let word: Vec<char> = word.chars().collect();
    if budget == 0 || word.first() != term.first() {
        return false;
    }
    let mut rows = Rows::new(&term, budget);
    for len in 1..=word.len() {
        if !rows.push(&word[..len]) {
            return false;
        }
        if rows.ends_near(whole && len == word.len()) {
            return true;
        }
    }
    false
}

/// The table of edits between a term and a word read one character at a
/// time (optimal string alignment): row `i` holds the edits from the
/// word's first `i` characters to each prefix of the term. Words that
/// share a prefix share its rows, so a sorted list of words is measured as
/// a trie would be.
pub struct Rows<'t> {
    term: &'t [char],
    budget: usize,
    rows: Vec<Vec<usize>>,
}

impl<'t> Rows<'t> {
    pub fn new(term: &'t [char], budget: usize) -> Rows<'t> {
        Rows {
            term,
            budget,
            rows: vec![(0..=term.len()).collect()],
        }
    }

    /// How many characters of a word the rows hold.
    pub fn depth(&self) -> usize {
        self.rows.len() - 1
    }

    /// Keeps the rows of the word's first `depth` characters only.
    pub fn truncate(&mut self, depth: usize) {
        self.rows.truncate(depth + 1);
    }

    /// Adds the row of `prefix`'s last character (`prefix` is the word so
    /// far, one character longer than [`Rows::depth`]). False when no word
    /// that begins with `prefix` can be within the budget: every edit
    /// count of the row is over it, and no later row comes back under.
    pub fn push(&mut self, prefix: &[char]) -> bool {
        let i = prefix.len();
        let c = prefix[i - 1];
        let previous = &self.rows[i - 1];
        let mut row = Vec::with_capacity(self.term.len() + 1);
        row.push(i);
        for j in 1..=self.term.len() {
            let mut edits = (previous[j] + 1)
                .min(row[j - 1] + 1)
                .min(previous[j - 1] + usize::from(self.term[j - 1] != c));
            if i > 1 && j > 1 && c == self.term[j - 2] && prefix[i - 2] == self.term[j - 1] {
                edits = edits.min(self.rows[i - 2][j - 2] + 1);
            }
            row.push(edits);
        }
        let alive = row.iter().min().is_some_and(|&least| least <= self.budget);
        self.rows.push(row);
        alive
    }

    /// Whether the word so far is near the whole term, and long enough to
    /// count: at least as long as the term, or `whole`, the whole word.
    pub fn ends_near(&self, whole: bool) -> bool {
        let depth = self.depth();
        (whole || depth >= self.term.len())
            && depth <= self.term.len() + self.budget
            && self.rows[depth][self.term.len()] <= self.budget
    }
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
        assert!(within_typos("venndor2950", "vendor2950", 2));
        assert!(within_typos("venndor2950", "vendor295", 2));
        assert!(!within_typos("venndor2950", "vendor29577", 2));
        assert!(!within_typos("venndor2950", "vendor2957", 1));
        assert!(!within_typos("slkw", "slackware", 1));
        assert!(!within_typos("abc", "abd", 0));
        // Characters, not bytes.
        assert!(within_typos("café", "cafe", 1));
        assert_eq!(stemmer("en-GB"), Some("en"));
        assert_eq!(stemmer("de"), None);
    }
}
