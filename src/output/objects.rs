//! The list of a site's published files with their content hashes, which
//! the build writes as it writes the files (it holds their bytes then),
//! so that `publish` need not read a file again to know it is unchanged.
//! One JSON line per file, in path order: lines of the same form as the
//! record a publish leaves in the bucket (which adds the store's entity
//! tag of the large objects).

use serde::{Deserialize, Serialize};

/// The list, at the site's root. A leading `.`: no host publishes it.
pub const OBJECTS: &str = ".ontosite-objects.jsonl";

/// One file of the site as an object of a store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Object {
    /// Its path from the site's root, `/`-separated: its key under a
    /// publish's prefix.
    pub path: String,
    /// BLAKE3 of its bytes, in hex.
    pub hash: String,
    pub bytes: u64,
    /// Its chunks (`output::chunks`), where it was cut: by the build, for
    /// a document it streamed of more than one; by a publish, for a large
    /// object it sent, with `e_tag`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chunks: Vec<Chunk>,
    /// The entity tag the store gave the object, as the publish that sent
    /// it recorded it: the next publish of a change copies the chunks that
    /// version holds within the store (`publish::delta`). The build lists
    /// none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub e_tag: Option<String>,
}

impl Object {
    /// An object as a site holds it, of nothing recorded of a store.
    pub fn new(path: String, hash: String, bytes: u64) -> Object {
        Object {
            path,
            hash,
            bytes,
            chunks: Vec::new(),
            e_tag: None,
        }
    }

    /// Whether `other` holds the same bytes at the same path, whatever
    /// either records of a store.
    pub fn same_content(&self, other: &Object) -> bool {
        self.path == other.path && self.hash == other.hash && self.bytes == other.bytes
    }
}

/// A run of a large object's bytes, cut where its content says
/// (`output::chunks`), so that an edit leaves the chunks around it as
/// they were.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chunk {
    /// Its first byte's offset in the object.
    pub at: u64,
    pub bytes: u64,
    /// BLAKE3 of its bytes, in hex.
    pub hash: String,
}

/// The BLAKE3 of `bytes`, in hex.
pub fn hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// The BLAKE3 of the file `file`, in hex, and its size, read as it is
/// now and never through a link (one put in its place since a walk saw
/// a file there is not followed).
pub fn hash_file(file: &std::path::Path) -> std::io::Result<(String, u64)> {
    use std::os::unix::fs::OpenOptionsExt;
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(file)?;
    let mut hasher = blake3::Hasher::new();
    hasher.update_reader(opened)?;
    Ok((hasher.finalize().to_hex().to_string(), hasher.count()))
}

/// The lines of `objects`, in their order.
pub fn render<O: std::borrow::Borrow<Object> + Sync>(objects: &[O]) -> Vec<u8> {
    render_runs(objects).concat()
}

/// The lines of `objects`, in their order, in runs to be written one
/// after the other: at 100,000 entities a site of ten releases lists
/// 5.75 million files in 700 MB, which joined would be held twice. On
/// both cores, a run each: one core took half a second for each half
/// million lines.
pub fn render_runs<O: std::borrow::Borrow<Object> + Sync>(objects: &[O]) -> Vec<Vec<u8>> {
    use rayon::prelude::*;
    objects
        .par_chunks(4096)
        .map(|run| {
            let mut out = Vec::new();
            for object in run {
                // An `Object` is strings and a number: it always serialises.
                if serde_json::to_writer(&mut out, object.borrow()).is_ok() {
                    out.push(b'\n');
                }
            }
            out
        })
        .collect()
}

/// The objects of a list [`render`] wrote, in its order; `None` where a
/// line is not one. On both cores: a site with its releases lists half a
/// million files.
pub fn parse(text: &str) -> Option<Vec<Object>> {
    use rayon::prelude::*;
    text.par_lines()
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_str(line).ok())
        .collect()
}
