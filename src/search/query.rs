//! A search request: `q`, `limit` and `offset`, checked.

use super::text;

/// How many results a page holds unless `limit` says otherwise.
pub const DEFAULT_LIMIT: usize = 100;
/// The most results one page may hold.
pub const MAX_LIMIT: usize = 1000;
/// The most terms one query may have: each term is a lookup and a list to
/// intersect, so a query of thousands of words would cost seconds of CPU
/// (issue 29: 3,000 words took 0.3 s; 16 such clients made a 1 ms query
/// take 3.8 s). A person's query has a few.
pub const MAX_TERMS: usize = 32;
/// The most characters one term may have, folded: a term's near matches
/// cost in proportion to its length, at every node of the index they
/// visit, and one 60,000-character term cost a second of CPU. The longest
/// words in real ontologies' labels, synonyms and IDs are far shorter:
/// schema.org's longest name is 49 characters
/// (`CompositeWithTrainedAlgorithmicMediaDigitalSource`), a SHA-256 in a
/// description 64, PATO's and ENVO's longest words 19 and 32.
pub const MAX_TERM_CHARS: usize = 128;
/// The largest `offset` accepted: nine digits, so that every engine parses
/// it the same way without overflow.
pub const MAX_OFFSET: usize = 999_999_999;

/// A checked search request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// `q` as given.
    pub text: String,
    /// The folded runs of `q`; never empty.
    pub terms: Vec<String>,
    pub limit: usize,
    pub offset: usize,
}

/// Why a request cannot be answered: each is a 400.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("the query parameter `q` is missing; search with /search?q=word")]
    MissingQuery,
    #[error("the query `{0}` has no letters or digits to search for")]
    NoTerms(String),
    #[error("the query has {0} words; search with at most {MAX_TERMS}")]
    TooManyTerms(usize),
    #[error(
        "a word of the query has {0} characters; search with words of at most {MAX_TERM_CHARS}"
    )]
    TermTooLong(usize),
    #[error("`limit` must be a whole number from 1 to {MAX_LIMIT}, not `{0}`")]
    BadLimit(String),
    #[error("`offset` must be a whole number from 0 to {MAX_OFFSET}, not `{0}`")]
    BadOffset(String),
}

impl Query {
    /// Checks the parameters of a request, as decoded from its query string.
    pub fn from_params(
        q: Option<&str>,
        limit: Option<&str>,
        offset: Option<&str>,
    ) -> Result<Query, QueryError> {
        let text = q.ok_or(QueryError::MissingQuery)?;
        let terms = text::terms(text);
        if terms.is_empty() {
            return Err(QueryError::NoTerms(text.to_owned()));
        }
        if terms.len() > MAX_TERMS {
            return Err(QueryError::TooManyTerms(terms.len()));
        }
        if let Some(chars) = terms
            .iter()
            .map(|t| t.chars().count())
            .find(|&chars| chars > MAX_TERM_CHARS)
        {
            return Err(QueryError::TermTooLong(chars));
        }
        let limit = match limit {
            None => DEFAULT_LIMIT,
            Some(v) => whole(v, MAX_LIMIT)
                .filter(|&n| n >= 1)
                .ok_or_else(|| QueryError::BadLimit(v.to_owned()))?,
        };
        let offset = match offset {
            None => 0,
            Some(v) => whole(v, MAX_OFFSET).ok_or_else(|| QueryError::BadOffset(v.to_owned()))?,
        };
        Ok(Query {
            text: text.to_owned(),
            terms,
            limit,
            offset,
        })
    }

    /// The terms joined, for the exact tier.
    pub fn joined(&self) -> String {
        self.terms.concat()
    }
}

/// ASCII digits only (no sign, no space), at most nine significant ones,
/// at most `max`.
fn whole(text: &str, max: usize) -> Option<usize> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let significant = text.trim_start_matches('0');
    if significant.len() > 9 {
        return None;
    }
    let value = if significant.is_empty() {
        0
    } else {
        significant.parse().ok()?
    };
    (value <= max).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(
        q: Option<&str>,
        limit: Option<&str>,
        offset: Option<&str>,
    ) -> Result<Query, QueryError> {
        Query::from_params(q, limit, offset)
    }

    #[test]
    fn defaults_and_bounds() {
        let query = params(Some("Air table"), None, None).unwrap();
        assert_eq!((query.limit, query.offset), (DEFAULT_LIMIT, 0));
        assert_eq!(query.terms, ["air", "table"]);
        assert_eq!(query.joined(), "airtable");
        let query = params(Some("a"), Some("1000"), Some("007")).unwrap();
        assert_eq!((query.limit, query.offset), (1000, 7));
        assert!(params(Some("a"), Some("1"), Some("999999999")).is_ok());
        // Characters, not bytes, folded: an accent dropped is none.
        for word in ["a", "日", "e\u{301}"] {
            let longest = word.repeat(MAX_TERM_CHARS);
            assert!(params(Some(&longest), None, None).is_ok(), "{word}");
            assert_eq!(
                params(Some(&format!("ok {longest}{word}")), None, None),
                Err(QueryError::TermTooLong(MAX_TERM_CHARS + 1)),
                "{word}"
            );
        }
    }

    #[test]
    fn errors() {
        assert_eq!(params(None, None, None), Err(QueryError::MissingQuery));
        assert_eq!(
            params(Some(""), None, None),
            Err(QueryError::NoTerms(String::new()))
        );
        assert_eq!(
            params(Some(" -!"), None, None),
            Err(QueryError::NoTerms(" -!".into()))
        );
        for bad in [
            "0",
            "1001",
            "-1",
            "+5",
            "1.5",
            "",
            " 5",
            "ten",
            "99999999999999999999",
        ] {
            assert_eq!(
                params(Some("a"), Some(bad), None),
                Err(QueryError::BadLimit(bad.into())),
                "{bad}"
            );
        }
        for bad in ["-1", "1e3", "", "1000000000", "0x10"] {
            assert_eq!(
                params(Some("a"), None, Some(bad)),
                Err(QueryError::BadOffset(bad.into())),
                "{bad}"
            );
        }
    }
}
