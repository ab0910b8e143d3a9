//! The search index's file format, once: the version, the file names, the
//! posting encoding, and every file's shape as one type that the writer
//! (`render::search_index`) serialises and the reader ([`super::reader`])
//! deserialises.
//! `assets/search.js` reads the same files; the golden queries keep it in
//! step (`docs/search.md` describes the layout).

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The format version; a client refuses an index it does not know.
pub const VERSION: u32 = 7;
/// The folder of the node and row files.
pub const DIR: &str = "search";
/// The manifest, at the site's root.
pub const MANIFEST: &str = "search-index.json";

/// Mask bit of a posting that is not a word of a field but the entity's
/// folded, joined ID or its slug: it serves the exact tier only.
pub const EXACT: u8 = 8;
/// The low bits of a posting hold the fields it is in (the bits of
/// `search::engine::field` and [`EXACT`]); the rest, the entity.
const FIELD_BITS: u32 = 4;
const FIELDS: u64 = (1 << FIELD_BITS) - 1;
/// Entities are numbered below this: the rest of a 32-bit posting.
pub const ENTITIES: usize = 1 << (32 - FIELD_BITS);

/// A posting as one integer: the entity (or, in a file, its distance from
/// the previous posting's entity) and the fields it is in.
pub const fn posting(entity: u64, fields: u8) -> u64 {
    entity << FIELD_BITS | (fields as u64 & FIELDS)
}

/// The entity (or distance) of a posting.
pub const fn entity(posting: u64) -> u64 {
    posting >> FIELD_BITS
}

/// The fields of a posting.
pub const fn fields(posting: u64) -> u8 {
    (posting & FIELDS) as u8
}

/// Postings sorted by entity, as a file writes them: each entity as its
/// distance from the previous one.
pub fn deltas(postings: impl IntoIterator<Item = u64>) -> Vec<u64> {
    let mut previous = 0;
    postings
        .into_iter()
        .map(|p| {
            let delta = entity(p) - previous;
            previous = entity(p);
            posting(delta, fields(p))
        })
        .collect()
}

/// A node's key as its files name it: the hexadecimal of its UTF-8 bytes,
/// so that the name is plain ASCII whatever the script, and stays the same
/// from build to build as long as the key does. Numbering the nodes in
/// order would rename every node after a new word, and a rebuild would
/// write them all again.
pub fn file_key(key: &str) -> String {
    use std::fmt::Write as _;
    key.bytes()
        .fold(String::with_capacity(key.len() * 2), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

/// A file of the index beside the manifest, by what it holds.
#[derive(Debug, Clone, Copy)]
pub enum IndexFile<'a> {
    /// The node of a key ([`NodeFile`]).
    Node(&'a str),
    /// A leaf's rows: every entity its words name ([`NumberedRow`]s).
    Rows(&'a str),
    /// The first page of a key searched alone ([`PageFile`]).
    Page(&'a str),
    /// A leaf's group: its key and the character after it.
    Group(&'a str),
    /// The rows of a fixed-size chunk of entities in rank order ([`Row`]s).
    Chunk(usize),
}

impl IndexFile<'_> {
    /// Its path from the site's root.
    pub fn path(self) -> String {
        match self {
            IndexFile::Node(key) => format!("{DIR}/n{}.json", file_key(key)),
            IndexFile::Rows(key) => format!("{DIR}/r{}.json", file_key(key)),
            IndexFile::Page(key) => format!("{DIR}/p{}.json", file_key(key)),
            IndexFile::Group(key) => format!("{DIR}/g{}.json", file_key(key)),
            IndexFile::Chunk(j) => format!("{DIR}/d{j}.json"),
        }
    }
}

/// `search-index.json`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest<'a> {
    pub version: u32,
    pub total: usize,
    pub base_url: Cow<'a, str>,
    pub rows_per_file: usize,
    /// The entity types rows name by number, most frequent first.
    pub types: Vec<Cow<'a, str>>,
    /// The extensions of an entity's documents, in the order of its
    /// `links` (the table of entity formats); the clients build links
    /// with them, the reader does not read them.
    #[serde(default)]
    pub links: Vec<Cow<'a, str>>,
    /// Every node of the trie, in depth-first order.
    pub nodes: Vec<NodeEntry<'a>>,
    /// The deprecated entities, by number, which rank last; left out
    /// when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deprecated: Vec<usize>,
    /// The stemmer of the site's language (`search::near::stemmer`);
    /// left out when it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stem: Option<Cow<'a, str>>,
    /// The content of every node file, node `i` at `i`, when they are
    /// small enough to come with the manifest; the files are then not
    /// written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_files: Option<Vec<NodeFile<'a>>>,
}

/// A node's entry in the manifest: `[key, 1 for a leaf or 0, rows,
/// groups?]`. When `rows` is not 0, [`IndexFile::Rows`] holds the rows of
/// that many entities: every entity its words name. On a site whose nodes
/// are fetched, when `rows` is 0 or more than `rowsPerFile`, and the key is
/// not empty, [`IndexFile::Page`] holds its first page, and a leaf's entry
/// has a fourth element: the characters `c` that continue its key for
/// which [`IndexFile::Group`] of `{key}{c}` holds the rows of every entity
/// the words that start with `{key}{c}` name.
#[derive(Debug, Serialize, Deserialize)]
pub struct NodeEntry<'a>(
    pub Cow<'a, str>,
    pub u8,
    pub usize,
    #[serde(default, skip_serializing_if = "str::is_empty")] pub Cow<'a, str>,
);

/// A node file: a leaf's words, or an inner node's union of postings
/// (`all`) and the words equal to its key. Postings are [`deltas`].
#[derive(Debug, Serialize, Deserialize)]
pub struct NodeFile<'a> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all: Option<Vec<u64>>,
    pub words: Vec<(Cow<'a, str>, Vec<u64>)>,
}

/// An entity's row: `[id, name, type, summary, slug?]`, the type a number
/// in the manifest's `types`, the slug only when it is not the one derived
/// from the ID (lower-cased, `a-z0-9` kept), which a client derives itself.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row<'a>(
    pub Cow<'a, str>,
    pub Cow<'a, str>,
    pub usize,
    pub Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")] pub Option<Cow<'a, str>>,
);

/// A row with its entity's number first, as row, group and page files
/// hold them: `[entity, id, name, type, summary, slug?]`. Read whole:
/// a row of another shape is a damaged file.
#[derive(Debug, Clone)]
pub struct NumberedRow<'a>(pub u32, pub Row<'a>);

impl Serialize for NumberedRow<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let Row(id, name, kind, summary, slug) = &self.1;
        let mut seq = serializer.serialize_seq(Some(5 + usize::from(slug.is_some())))?;
        seq.serialize_element(&self.0)?;
        seq.serialize_element(id)?;
        seq.serialize_element(name)?;
        seq.serialize_element(kind)?;
        seq.serialize_element(summary)?;
        if let Some(slug) = slug {
            seq.serialize_element(slug)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for NumberedRow<'_> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Flat(
            u32,
            String,
            String,
            usize,
            String,
            #[serde(default)] Option<String>,
        );
        let Flat(entity, id, name, kind, summary, slug) = Flat::deserialize(deserializer)?;
        Ok(NumberedRow(
            entity,
            Row(
                id.into(),
                name.into(),
                kind,
                summary.into(),
                slug.map(Cow::Owned),
            ),
        ))
    }
}

/// A page file: how many entities a key searched alone matches strictly,
/// and the rows of its first page in answer order.
#[derive(Debug, Serialize, Deserialize)]
pub struct PageFile<'a> {
    pub total: usize,
    pub rows: Vec<NumberedRow<'a>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posting_keeps_its_entity_and_fields() {
        for (entity, fields) in [(0, 0), (1, EXACT), (ENTITIES as u64 - 1, 15)] {
            let p = posting(entity, fields);
            assert_eq!((super::entity(p), super::fields(p)), (entity, fields));
        }
        let file = deltas([posting(3, 1), posting(5, 2), posting(10, EXACT)]);
        assert_eq!(file, [posting(3, 1), posting(2, 2), posting(5, EXACT)]);
    }

    #[test]
    fn rows_read_back_as_written() {
        let row = Row("A".into(), "a".into(), 2, "s".into(), Some("x".into()));
        let page = PageFile {
            total: 9,
            rows: vec![
                NumberedRow(4, row.clone()),
                NumberedRow(5, Row("".into(), "b".into(), 0, "".into(), None)),
            ],
        };
        let text = serde_json::to_string(&page).unwrap();
        assert_eq!(
            text,
            r#"{"total":9,"rows":[[4,"A","a",2,"s","x"],[5,"","b",0,""]]}"#
        );
        let back: PageFile = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), text);
        assert_eq!(
            serde_json::to_string(&row).unwrap(),
            r#"["A","a",2,"s","x"]"#
        );
        let entry = NodeEntry("ab".into(), 1, 0, "".into());
        assert_eq!(serde_json::to_string(&entry).unwrap(), r#"["ab",1,0]"#);
    }
}
