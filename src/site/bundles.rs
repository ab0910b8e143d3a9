//! The bundled layout: where a host runs code, an entity's documents need
//! not be a file each. Five files an entity put a site past Cloudflare
//! Pages' 20,000 files at about 3,750 entities and past Netlify's 54,000
//! files in one directory at about 10,750; bundled, the documents of
//! [`ENTITIES_PER_BUNDLE`] entities in one format are one file, and the
//! host's handler (and `serve`) answers `/{slug}.{extension}` from it,
//! byte for byte what the file would hold. The API is unchanged.
//!
//! A bundle is a JSON object from slug to document, the slugs in code
//! point order: any JSON reader finds a document in it. The bundle of a
//! slug is its 32-bit FNV-1a hash modulo the number of bundles, so a
//! handler finds it without an index; the manifest says how many there
//! are. `assets/negotiate.js` holds the same rule; the runtime tests
//! answer every document both ways.

use crate::site::parts::{Join, Joins};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a site holds its entities' documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// A file each: every host serves them, code or not.
    #[default]
    Files,
    /// In bundles, which a host's handler answers from.
    Bundled,
}

impl Layout {
    /// The names `--layout` takes.
    pub const NAMES: [(&'static str, Layout); 2] =
        [("files", Layout::Files), ("bundled", Layout::Bundled)];

    pub fn named(name: &str) -> Option<Layout> {
        Layout::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, layout)| *layout)
    }
}

/// The folder the bundles are in, one folder per format. Its `-` keeps it
/// apart from every slug (letters and digits): Cloudflare's route
/// `/entity-bundles/*` takes `/entity-bundles` too, which no entity's IRI
/// can be.
pub const DIR: &str = "entity-bundles";

/// The manifest: how many bundles, and which formats are bundled.
pub const MANIFEST: &str = "entity-bundles/index.json";

/// Entities in a bundle, on average: a bundle of a rich term's pages stays
/// a few hundred kilobytes, which a handler reads and parses in a
/// millisecond or two.
pub const ENTITIES_PER_BUNDLE: usize = 16;

/// What `bundles/index.json` says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    /// How many bundles each format has.
    pub count: u32,
    /// The extensions of the bundled formats.
    pub formats: Vec<String>,
    /// The documents answered by joining what the site publishes, where
    /// the host takes no file as large as the whole (`site::parts`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub joined: Joins,
}

/// The folders of a site that bundle their entities' documents, each
/// with its manifest: the root (`""`) and the releases' copies
/// (`releases/{version}/`), which the root's handlers answer in too. A
/// copy published earlier keeps the layout it was published in, so one
/// site may hold both.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bundled(BTreeMap<String, Manifest>);

impl Bundled {
    /// Adds the folder `folder` (`""`, or a copy's ending in `/`).
    pub fn insert(&mut self, folder: String, manifest: Manifest) {
        self.0.insert(folder, manifest);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether a release's copy bundles: its paths must then reach the
    /// root's handler too.
    pub fn in_copies(&self) -> bool {
        self.0.keys().any(|folder| !folder.is_empty())
    }

    /// The manifest of `folder`, where it bundles.
    pub fn manifest(&self, folder: &str) -> Option<&Manifest> {
        self.0.get(folder)
    }

    /// Each bundled folder with its manifest, the root first.
    pub fn folders(&self) -> impl Iterator<Item = (&str, &Manifest)> {
        self.0
            .iter()
            .map(|(folder, manifest)| (folder.as_str(), manifest))
    }

    /// The manifest of the folder `path` (a site path without its leading
    /// `/`) is directly in, and the rest of the path: where its folder
    /// bundles.
    pub fn of_path<'p>(&self, path: &'p str) -> Option<(&Manifest, &'p str)> {
        let cut = path.rfind('/').map_or(0, |i| i + 1);
        let (folder, name) = path.split_at(cut);
        self.0.get(folder).map(|manifest| (manifest, name))
    }

    /// The whole at `path` (without its leading `/`) that a handler joins,
    /// its pieces' paths from the root.
    pub fn join(&self, path: &str) -> Option<Join> {
        self.0.iter().find_map(|(folder, manifest)| {
            let join = manifest.joined.get(path.strip_prefix(folder.as_str())?)?;
            Some(join.in_folder(folder))
        })
    }

    /// The path from the root of every whole a handler joins.
    pub fn joined_paths(&self) -> impl Iterator<Item = String> + '_ {
        self.0.iter().flat_map(|(folder, manifest)| {
            manifest
                .joined
                .keys()
                .map(move |path| format!("{folder}{path}"))
        })
    }

    /// Every whole a handler joins, by its path from the root.
    pub fn joined(&self) -> Joins {
        self.0
            .iter()
            .flat_map(|(folder, manifest)| {
                manifest
                    .joined
                    .iter()
                    .map(move |(path, join)| (format!("{folder}{path}"), join.in_folder(folder)))
            })
            .collect()
    }
}

/// The folder whose manifest is at `path` (`""` for [`MANIFEST`],
/// `releases/{version}/` for a copy's), if it is one.
pub fn folder_of_manifest(path: &str) -> Option<&str> {
    let folder = path.strip_suffix(MANIFEST)?;
    let version = folder
        .strip_prefix(crate::site::files::RELEASES)
        .and_then(|rest| rest.strip_prefix('/'))
        .and_then(|rest| rest.strip_suffix('/'));
    (folder.is_empty() || version.is_some_and(|v| !v.is_empty() && !v.contains('/')))
        .then_some(folder)
}

impl Manifest {
    /// Whether this ontosite reads it: its version, at least one bundle.
    pub fn is_readable(&self) -> bool {
        self.version == VERSION && self.count > 0
    }
}

/// The manifest's version: a reader refuses another.
pub const VERSION: u32 = 2;

/// How many bundles a site of `entities` entities has in each format.
pub fn count(entities: usize) -> u32 {
    u32::try_from(entities.div_ceil(ENTITIES_PER_BUNDLE).max(1)).unwrap_or(u32::MAX)
}

/// The bundle that holds the documents of `slug`.
pub fn of(slug: &str, count: u32) -> u32 {
    // 32-bit FNV-1a, which JavaScript computes exactly with Math.imul.
    let mut hash: u32 = 0x811c_9dc5;
    for byte in slug.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash % count.max(1)
}

/// The path of bundle `n` of the format with `extension`.
pub fn path(extension: &str, n: u32) -> String {
    format!("{DIR}/{extension}/{n}.json")
}

/// Each bundled format's extension and the type its documents are
/// answered with, as a host types the file: a page as every `.html`.
pub fn answered_types() -> Vec<(&'static str, &'static str)> {
    crate::site::formats::ENTITY_FORMATS
        .iter()
        .map(|format| match format.media_type {
            crate::site::media::HTML => (format.extension, crate::site::media::PAGE),
            other => (format.extension, other),
        })
        .collect()
}

/// The slug and extension of a path an entity's document would be at
/// (`/{slug}.{extension}`, or without the leading `/`), if it is one.
pub fn entity_document(path: &str) -> Option<(&str, &str)> {
    let name = path.strip_prefix('/').unwrap_or(path);
    if name.contains('/') {
        return None;
    }
    let (slug, extension) = name.rsplit_once('.')?;
    crate::site::reserved::names_entity(slug).then_some((slug, extension))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slug_s_bundle_is_its_fnv_hash_modulo_the_count() {
        // FNV-1a of "a" is 0xe40c292c (the reference test vector).
        assert_eq!(of("a", u32::MAX), 0xe40c_292c);
        assert_eq!(of("a", 1000), 0xe40c_292c % 1000);
        assert_eq!(of("", 7), 0x811c_9dc5 % 7);
        assert!((0..1000).all(|n| of(&format!("e{n}"), 13) < 13));
        assert_eq!(count(0), 1);
        assert_eq!(count(16), 1);
        assert_eq!(count(17), 2);
        assert_eq!(path("jsonld", 3), "entity-bundles/jsonld/3.json");
        assert_eq!(entity_document("/abc.json"), Some(("abc", "json")));
        assert_eq!(entity_document("abc.ttl"), Some(("abc", "ttl")));
        assert_eq!(entity_document("/a/b.json"), None);
        assert_eq!(entity_document("/abc"), None);
        assert_eq!(folder_of_manifest(MANIFEST), Some(""));
        let copy = format!("releases/1.2/{MANIFEST}");
        assert_eq!(folder_of_manifest(&copy), Some("releases/1.2/"));
        for path in [
            "x/entity-bundles/index.json",
            "releases/entity-bundles/index.json",
            "releases//entity-bundles/index.json",
            "releases/1/2/entity-bundles/index.json",
            "entity-bundles/json/0.json",
        ] {
            assert_eq!(folder_of_manifest(path), None, "{path}");
        }
    }
}
