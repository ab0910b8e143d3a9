//! The slug: an entity's name in paths, and so in file names.
//!
//! Slugs become file names under the output directory, so the only way to
//! make one checks it: `[a-z0-9]`, 1 to 200 characters. That is what keeps
//! any input from naming a file outside the site.

use std::fmt;

/// The longest slug accepted: file systems allow 255 bytes a name, and the
/// longest suffix added is `.jsonld`.
pub const MAX_LEN: usize = 200;

/// A checked slug: 1 to 200 characters of `a-z` and `0-9`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slug(String);

/// Why a text is not a slug.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SlugError {
    #[error("the slug is empty")]
    Empty,
    #[error("the slug `{slug}` has {len} characters; at most {MAX_LEN} are allowed")]
    TooLong { slug: String, len: usize },
    #[error("the slug `{slug}` has the character `{bad}`; a slug is only `a-z` and `0-9`")]
    BadCharacter { slug: String, bad: char },
}

impl Slug {
    /// Checks `text` as an explicit slug.
    pub fn parse(text: &str) -> Result<Slug, SlugError> {
        if text.is_empty() {
            return Err(SlugError::Empty);
        }
        if let Some(bad) = text
            .chars()
            .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
        {
            return Err(SlugError::BadCharacter {
                slug: text.to_owned(),
                bad,
            });
        }
        let len = text.chars().count();
        if len > MAX_LEN {
            return Err(SlugError::TooLong {
                slug: text.to_owned(),
                len,
            });
        }
        Ok(Slug(text.to_owned()))
    }

    /// The default slug of an entity: its ID lower-cased, with everything but
    /// `a-z` and `0-9` removed (`AirtableCreateItem` -> `airtablecreateitem`).
    pub fn from_id(id: &str) -> Result<Slug, SlugError> {
        let derived: String = id
            .chars()
            .map(|c| c.to_ascii_lowercase())
            .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            .collect();
        Slug::parse(&derived)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Slug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derives_from_id() {
        assert_eq!(
            Slug::from_id("AirtableCreateItem").unwrap().as_str(),
            "airtablecreateitem"
        );
        assert_eq!(
            Slug::from_id("1Password-Update_Item").unwrap().as_str(),
            "1passwordupdateitem"
        );
        // Non-ASCII letters are dropped, not transliterated.
        assert_eq!(
            Slug::from_id("CitroënCreate").unwrap().as_str(),
            "citroncreate"
        );
        assert_eq!(Slug::from_id("--"), Err(SlugError::Empty));
    }

    #[test]
    fn rejects_bad_slugs() {
        assert!(matches!(
            Slug::parse("a-b"),
            Err(SlugError::BadCharacter { bad: '-', .. })
        ));
        assert!(matches!(
            Slug::parse("Ab"),
            Err(SlugError::BadCharacter { bad: 'A', .. })
        ));
        assert!(matches!(
            Slug::parse("../x"),
            Err(SlugError::BadCharacter { bad: '.', .. })
        ));
        assert!(Slug::parse(&"a".repeat(MAX_LEN)).is_ok());
        assert!(matches!(
            Slug::parse(&"a".repeat(MAX_LEN + 1)),
            Err(SlugError::TooLong { .. })
        ));
    }
}
