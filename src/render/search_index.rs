//! The prebuilt search index, shaped for the bytes a client downloads.
//!
//! `search-index.json` is a small manifest: the format version, the entity
//! count, the base URL and the keys of a trie over every word suffix (see
//! `search::text`). Each trie node is one file, `search/n{i}.json`:
//!
//! - a leaf holds every word under its key with the word's postings, so a
//!   term at or below a leaf is answered by filtering that one file;
//! - an inner node holds the union of the postings of every word under its
//!   key (`all`), so a short term is answered without its subtree, and the
//!   words equal to its key (`words`).
//!
//! A client walks the manifest's keys to the one node that answers a term,
//! fetches the nodes of all terms at once, ranks, and then fetches the
//! entity rows of the page it shows from `search/d{j}.json` (fixed-size
//! chunks in slug order): two rounds of requests after the manifest,
//! whatever the size of the ontology.
//!
//! Postings are sorted by entity number (the position in slug order), each
//! written as one integer: `(entity - previous entity) * 16 + mask`, with
//! the mask bits of `search::engine::field` and [`EXACT`].

use crate::model::Ontology;
use crate::search::Searchable;
use serde::Serialize;
use std::collections::BTreeMap;

/// The format version; a client refuses an index it does not know.
pub const VERSION: u32 = 2;
/// The folder of the node and row files.
pub const DIR: &str = "search";
/// A node becomes a leaf when its words and postings take about this many
/// bytes: small enough to fetch for one term, large enough to keep the
/// number of files and the manifest small.
pub const LEAF_BYTES: usize = 24 * 1024;
/// Entity rows per row file.
pub const ROWS_PER_FILE: usize = 128;
/// Mask bit of a posting that is not a word of a field but the entity's
/// folded, joined ID or its slug: it serves the exact tier only.
pub const EXACT: u8 = 8;

/// The files of the index, rendered once per build.
pub struct SearchIndex {
    /// `search-index.json`.
    pub manifest: Vec<u8>,
    /// `(path, bytes)` of every node and row file.
    pub files: Vec<(String, Vec<u8>)>,
}

type Postings = Vec<(u32, u8)>;

pub fn build(
    ontology: &Ontology,
    searchables: &[Searchable],
) -> Result<SearchIndex, serde_json::Error> {
    let words = words(ontology, searchables);
    let mut nodes: Vec<(String, bool, Vec<u8>)> = Vec::new();
    split(String::new(), &words, &mut nodes)?;

    let mut files: Vec<(String, Vec<u8>)> = Vec::with_capacity(nodes.len());
    let mut keys = Vec::with_capacity(nodes.len());
    for (i, (key, leaf, bytes)) in nodes.into_iter().enumerate() {
        files.push((format!("{DIR}/n{i}.json"), bytes));
        keys.push((key, u8::from(leaf)));
    }
    let entities = &ontology.entities;
    for (j, chunk) in entities.chunks(ROWS_PER_FILE).enumerate() {
        let rows: Vec<[&str; 3]> = chunk
            .iter()
            .map(|e| [e.slug.as_str(), &e.id, &e.name])
            .collect();
        files.push((format!("{DIR}/d{j}.json"), serde_json::to_vec(&rows)?));
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Manifest {
        version: u32,
        total: usize,
        base_url: String,
        rows_per_file: usize,
        /// `[key, 1 for a leaf or 0]`; node `i` is `search/n{i}.json`.
        nodes: Vec<(String, u8)>,
    }
    let manifest = serde_json::to_vec(&Manifest {
        version: VERSION,
        total: entities.len(),
        base_url: ontology.meta.base_url.join(""),
        rows_per_file: ROWS_PER_FILE,
        nodes: keys,
    })?;
    Ok(SearchIndex { manifest, files })
}

/// Every word with its postings, sorted by word.
fn words<'s>(ontology: &'s Ontology, searchables: &'s [Searchable]) -> Vec<(&'s str, Postings)> {
    let mut by_word: BTreeMap<&str, Postings> = BTreeMap::new();
    for (n, searchable) in searchables.iter().enumerate() {
        let entity = n as u32;
        let mut add = |word: &'s str, bit: u8| {
            let postings = by_word.entry(word).or_default();
            match postings.last_mut() {
                Some((last, mask)) if *last == entity => *mask |= bit,
                _ => postings.push((entity, bit)),
            }
        };
        for (bit, suffixes) in &searchable.fields {
            for suffix in suffixes {
                add(suffix, *bit);
            }
        }
        if !searchable.joined_id.is_empty() {
            add(&searchable.joined_id, EXACT);
        }
        add(ontology.entities[n].slug.as_str(), EXACT);
    }
    by_word.into_iter().collect()
}

/// Renders the node for `key` (all of `words` start with it) and its
/// subtree into `nodes`, in depth-first order.
fn split(
    key: String,
    words: &[(&str, Postings)],
    nodes: &mut Vec<(String, bool, Vec<u8>)>,
) -> Result<(), serde_json::Error> {
    let size: usize = words.iter().map(|(w, p)| w.len() + 6 + p.len() * 4).sum();
    let longer = words
        .iter()
        .position(|(w, _)| w.len() > key.len())
        .unwrap_or(words.len());
    if size <= LEAF_BYTES || longer == words.len() {
        let listed: Vec<(&str, Vec<u64>)> = words.iter().map(|(w, p)| (*w, encode(p))).collect();
        nodes.push((
            key,
            true,
            serde_json::to_vec(&serde_json::json!({ "words": listed }))?,
        ));
        return Ok(());
    }
    // Sorted words: those equal to the key come first.
    let (own, rest) = words.split_at(longer);
    let mut all: BTreeMap<u32, u8> = BTreeMap::new();
    for (_, postings) in words {
        for &(entity, mask) in postings {
            if mask & !EXACT != 0 {
                *all.entry(entity).or_default() |= mask & !EXACT;
            }
        }
    }
    let all: Postings = all.into_iter().collect();
    let listed: Vec<(&str, Vec<u64>)> = own.iter().map(|(w, p)| (*w, encode(p))).collect();
    nodes.push((
        key.clone(),
        false,
        serde_json::to_vec(&serde_json::json!({ "all": encode(&all), "words": listed }))?,
    ));
    let mut start = 0;
    while start < rest.len() {
        let next = rest[start].0[key.len()..]
            .chars()
            .next()
            .expect("a longer word");
        let child = format!("{key}{next}");
        let end = start
            + rest[start..]
                .iter()
                .take_while(|(w, _)| w.starts_with(&child))
                .count();
        split(child, &rest[start..end], nodes)?;
        start = end;
    }
    Ok(())
}

fn encode(postings: &[(u32, u8)]) -> Vec<u64> {
    let mut previous = 0;
    postings
        .iter()
        .map(|&(entity, mask)| {
            let delta = u64::from(entity - previous);
            previous = entity;
            delta * 16 + u64::from(mask)
        })
        .collect()
}
