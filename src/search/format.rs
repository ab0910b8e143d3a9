//! The search index's file format, once: the version, the file names, the
//! posting encoding, and every file's shape as one type that the writer
//! (`render::search_index`) serialises and the reader ([`super::reader`])
//! deserialises.
//! `assets/search.js` reads the same files; the golden queries keep it in
//! step (`docs/search.md` describes the layout).

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The format version; a client refuses an index it does not know.
pub const VERSION: u32 = 9;
/// The folder of the node and row files, each named by its content
/// ([`path`]).
pub const DIR: &str = "search";
/// Hexadecimal digits of a file's digest in its name: 64 bits, so that no
/// two files of a site share a name by chance.
pub const DIGEST_HEX: usize = 16;
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

/// The path of the index file whose digest is `digest` ([`DIGEST_HEX`]
/// hexadecimal digits of the BLAKE3 of its content). Named by their content,
/// the files of one build are never another's: a reader holding one
/// build's manifest (during a publish, after one that died, from a cache)
/// meets only the files written with it, and a rebuild keeps the name of
/// every file whose content it keeps.
pub fn path(digest: &str) -> String {
    format!("{DIR}/{digest}.js")
}

/// The function an index file calls with its path and content.
pub const SCRIPT_CALL: &str = "ontositeSearchFile";

/// An index file's bytes: a script that hands its JSON content to the page
/// (`ontositeSearchFile("search/{digest}.js",{...});`). A page opened from
/// disk may add `<script>` elements but not fetch, so it loads the files
/// a query needs this way; every other reader takes the content out
/// ([`content`]). One file serves both: no second copy of the index.
pub fn script(path: &str, json: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(SCRIPT_CALL.as_bytes());
    out.push(b'(');
    out.extend_from_slice(serde_json::to_string(path).expect("a path").as_bytes());
    out.push(b',');
    out.extend_from_slice(json.trim_ascii_end());
    out.extend_from_slice(b");\n");
}

/// The JSON content of the index file at `path`, as [`script`] wrote it;
/// `None` where its bytes are not that call.
pub fn content<'a>(path: &str, bytes: &'a [u8]) -> Option<&'a [u8]> {
    let quoted = serde_json::to_string(path).ok()?;
    let rest = bytes.strip_prefix(SCRIPT_CALL.as_bytes())?;
    let rest = rest.strip_prefix(b"(")?;
    let rest = rest.strip_prefix(quoted.as_bytes())?;
    let rest = rest.strip_prefix(b",")?;
    rest.trim_ascii_end().strip_suffix(b");")
}

/// Whether `digest` is one as the writer makes them: [`DIGEST_HEX`]
/// lower-case hexadecimal digits.
pub fn is_digest(digest: &str) -> bool {
    digest.len() == DIGEST_HEX
        && digest
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The files of one node, as its manifest entry lists them: each a kind
/// letter and a digest, in this order: `n` its node file (where nodes are
/// fetched), `r` a leaf's row file (where its entry counts rows), `p` its
/// page file, and `g` a group file for each character of the entry's
/// groups, in their order.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct NodeFiles {
    pub node: Option<String>,
    pub rows: Option<String>,
    pub page: Option<String>,
    pub groups: Vec<String>,
}

impl NodeFiles {
    /// The entry's string of files.
    pub fn written(&self) -> String {
        let mut out = String::new();
        for (kind, digest) in [('n', &self.node), ('r', &self.rows), ('p', &self.page)] {
            if let Some(digest) = digest {
                out.push(kind);
                out.push_str(digest);
            }
        }
        for digest in &self.groups {
            out.push('g');
            out.push_str(digest);
        }
        out
    }

    /// Every file's digest, in the order [`NodeFiles::written`] lists them.
    pub fn digests(&self) -> impl Iterator<Item = &str> {
        [&self.node, &self.rows, &self.page]
            .into_iter()
            .flatten()
            .chain(&self.groups)
            .map(String::as_str)
    }

    /// Reads an entry's string of files; `None` when it is not one.
    pub fn read(written: &str) -> Option<NodeFiles> {
        let mut files = NodeFiles::default();
        let mut rest = written;
        while !rest.is_empty() {
            let kind = rest.as_bytes()[0];
            let digest = rest.get(1..1 + DIGEST_HEX).filter(|d| is_digest(d))?;
            rest = &rest[1 + DIGEST_HEX..];
            let slot = match kind {
                b'n' => &mut files.node,
                b'r' => &mut files.rows,
                b'p' => &mut files.page,
                b'g' => {
                    files.groups.push(digest.to_owned());
                    continue;
                }
                _ => return None,
            };
            if slot.replace(digest.to_owned()).is_some() {
                return None;
            }
        }
        Some(files)
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
    /// The digest of each chunk of rows, in order: the [`Row`]s of
    /// `rowsPerFile` entities in rank order.
    #[serde(default)]
    pub chunks: Vec<Cow<'a, str>>,
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
/// groups, files]`. When `rows` is not 0, its row file holds the
/// [`NumberedRow`]s of that many entities: every entity its words name.
/// On a site whose nodes are fetched, when `rows` is 0 or more than
/// `rowsPerFile`, and the key is not empty, its page file ([`PageFile`])
/// holds its first page, and `groups` are the characters `c` that
/// continue a leaf's key for each of which a group file holds the rows of
/// every entity the words that start with `{key}{c}` name. `files` names
/// them and its node file ([`NodeFiles`]).
#[derive(Debug, Serialize, Deserialize)]
pub struct NodeEntry<'a>(
    pub Cow<'a, str>,
    pub u8,
    pub usize,
    #[serde(default)] pub Cow<'a, str>,
    #[serde(default)] pub Cow<'a, str>,
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
    fn a_node_s_files_read_back_as_written_and_nothing_else_reads() {
        let files = NodeFiles {
            node: Some("0123456789abcdef".into()),
            rows: None,
            page: Some("fedcba9876543210".into()),
            groups: vec!["00000000000000aa".into(), "00000000000000bb".into()],
        };
        let written = files.written();
        assert_eq!(
            written,
            "n0123456789abcdefpfedcba9876543210g00000000000000aag00000000000000bb"
        );
        assert_eq!(NodeFiles::read(&written), Some(files));
        assert_eq!(NodeFiles::read(""), Some(NodeFiles::default()));
        for bad in [
            "x0123456789abcdef",
            "n0123456789abcde",
            "n0123456789ABCDEF",
            "n0123456789abcdefn0123456789abcdef",
            "n../../etc/passwd",
            "né123456789abcdef",
        ] {
            assert_eq!(NodeFiles::read(bad), None, "{bad}");
        }
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
        let entry = NodeEntry("ab".into(), 1, 0, "".into(), "".into());
        assert_eq!(
            serde_json::to_string(&entry).unwrap(),
            r#"["ab",1,0,"",""]"#
        );
    }
}
