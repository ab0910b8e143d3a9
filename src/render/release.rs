//! What a site knows of the releases it publishes, as data: its own
//! release, the list of them, the terms removed, each term's history. The
//! build fills them in; `releases.rs` renders them.

use crate::changes::{Changes, Counts, Named};
use serde::Serialize;

/// What a site knows of the release it publishes.
#[derive(Debug, Clone)]
pub struct ReleaseOf {
    pub version: String,
    /// The site's own base URL, where `/releases/` is: a release's copy
    /// links the list and the releases it names by it.
    pub site: String,
    /// The release before it and what changed since, where there is one.
    pub since: Option<(String, Changes)>,
}

/// A release as the list names it.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub version: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version_iri: Option<String>,
    /// Its root, where its own API answers.
    pub url: String,
    pub entities: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<String>,
    /// What changed since the previous release, counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Counts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_log: Option<String>,
    /// The BLAKE3 of the release's input: a later build refuses other
    /// sources for a version published already.
    pub sources: String,
}

/// A term an earlier release had and the current one has not: its IRI
/// still resolves, to documents that say so.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Removed {
    #[serde(flatten)]
    pub term: Named,
    /// The release it is gone since.
    pub removed_in: String,
    /// The last release that has it.
    pub last_release: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replaced_by: Vec<String>,
}

/// What one release changed of a term: the kinds of change, each with
/// what it says (a name before and after, parents added and removed).
#[derive(Debug, Clone, Serialize)]
pub struct Changed {
    pub version: String,
    pub what: Vec<String>,
    /// The release whose copy of the term to link, and its slug there:
    /// the one before, for a term the release removed.
    pub shown_in: String,
    pub slug: String,
}
