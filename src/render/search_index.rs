//! The prebuilt search index, shaped for the bytes a client downloads.
//!
//! `search-index.json` is the manifest: the format version, the entity
//! count, the base URL, the stemmer of the site's language and the keys of
//! a trie over every word suffix (see `search::text`). Every other file is
//! `search/{digest}.js`, named by its content (`search::format::path`), a
//! script that holds the file's JSON (`search::format::script`),
//! and the manifest lists each node's files (`search::format::NodeFiles`)
//! and the chunks'. Each trie node is one file, or, on a small site, an
//! entry of the manifest's `nodeFiles` ([`INLINE_NODES_GZIP`]):
//!
//! - a leaf holds every word under its key with the word's postings, so a
//!   term at or below a leaf is answered by filtering that one file; when
//!   its words name at most [`LEAF_ROWS_MAX`] entities, its row file
//!   holds their rows;
//! - an inner node holds the union of the postings of every word under its
//!   key (`all`), so a short term is answered without its subtree, and the
//!   words equal to its key (`words`).
//!
//! A client walks the manifest's keys to the one node that answers each
//! term, fetches the nodes of all terms at once, ranks, and shows the rows
//! of the page. The rows come from the fixed-size chunks in rank order
//! (the manifest's `chunks`), or, when that is fewer rows, from the row file of
//! a leaf that answered a term (a rare term's matches are spread over the
//! alphabet, one chunk each).
//!
//! On a small site the nodes come with the manifest, so the rows are the
//! only round after it. On a larger one, so that a first result still
//! needs no more than that one round, the files that hold a term's first
//! page are fetched beside its node, chosen from the manifest alone
//! ([`Layout::Fetched`]):
//!
//! - a leaf's row file, when it holds at most a chunk's rows;
//! - else, for a term longer than its leaf's key, the leaf's **group
//!   file** of the character that follows the key in the term: the rows of every entity the words that
//!   start with `{key}{c}` name (a leaf there names at most
//!   [`LEAF_ROWS_MAX`] entities, split further where it can, so its groups
//!   do too; where it cannot, at the deepest key, a larger group holds the
//!   first page of `{key}{c}` instead);
//! - else, for a term that is a node's key, the node's **page file**: the
//!   first page (`limit` 100, `offset` 0) of the
//!   key searched alone, `{"total", "rows"}`, so a one-term query within
//!   that page is answered from this file alone, without its node.
//!
//! A file of the first two kinds names every entity its term matches, so
//! every match of the query: one of them answers any page. A page file
//! answers its term's first page, and a query of several terms whenever
//! its page is among those rows (the client takes the longest term's).
//! Rows the fetched files lack come from the chunks: a second round.
//!
//! When nothing matches strictly, the near matches (`search::near`) need
//! the node of each term's stem, a prefix of the term, so usually the node
//! already at hand, and the nodes a typo's words can be under: the walk
//! from the term's first character through the keys within the typo
//! budget of a prefix of the term. One more round at most.
//!
//! A row is `[id, name, type, summary]`, `type` a number in the manifest's
//! `types`, with the slug last when it is not the one derived from the ID;
//! in a row, group or page file, `[entity, id, name, type, summary,
//! slug?]`.
//!
//! Postings are sorted by entity number (the position in rank order), each
//! written as its distance from the previous one and the fields it is in
//! (`search::format::posting`). The file names, the encoding and every
//! file's shape are `search::format`'s, which the reader
//! (`search::reader`) reads with.

use crate::model::{BaseUrl, Slug};
use crate::search::engine;
use crate::search::format::{
    self, EXACT, Manifest, NodeEntry, NodeFile, NodeFiles, NumberedRow, PageFile, Row,
};
use crate::search::query::DEFAULT_LIMIT;
use crate::search::{Corpus, Listing, Searchable};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
/// A node becomes a leaf when its words and postings take about this many
/// bytes: small enough to fetch for one term, large enough to keep the
/// number of files and the manifest small.
pub const LEAF_BYTES: usize = 24 * 1024;
/// The deepest a node's key goes: past it, a node is a leaf whatever its
/// size. Words longer than that (one unbroken 25,000-letter word, or many
/// sharing a long prefix) would otherwise make a node per letter, each
/// listing the whole words: thousands of files and gigabytes.
const MAX_KEY_CHARS: usize = 32;
/// Entity rows per row file.
pub const ROWS_PER_FILE: usize = 128;
/// A leaf whose words name at most this many entities gets a row file.
pub const LEAF_ROWS_MAX: usize = 1000;
/// The node files go into the manifest itself (`nodeFiles`) when they
/// compress to at most this many bytes: a small site's first result then
/// needs the manifest and one round of row files, and its typos no round
/// at all. Larger sites keep one file per node.
pub const INLINE_NODES_GZIP: usize = 40 * 1024;
/// Node files past this many bytes are not compressed to decide: they
/// could not compress under [`INLINE_NODES_GZIP`].
const INLINE_NODES_RAW_MAX: usize = 1 << 20;

/// The files of the index, rendered once per build.
pub struct SearchIndex {
    /// `search-index.json`.
    pub manifest: Vec<u8>,
    /// `(path, content)` of every node and row file.
    pub files: Vec<(String, Packed)>,
}

/// A file of the index, kept compressed until it is written. The index's
/// files are all made before the first is written (they come from one
/// pass over every word), and as text they are large: the group and page
/// files repeat rows, 70 MB at 100,000 entities. Deflated they take a
/// tenth of that, and inflating one as it is written is cheap.
pub struct Packed {
    deflated: Box<[u8]>,
    /// The digest of its bytes, which names it (`search::format::path`).
    digest: String,
}

impl Packed {
    fn new(bytes: &[u8]) -> Packed {
        use std::io::Write;
        let mut deflate =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        deflate.write_all(bytes).expect("writing to memory");
        let mut digest = blake3::hash(bytes).to_hex().to_string();
        digest.truncate(format::DIGEST_HEX);
        Packed {
            deflated: deflate.finish().expect("writing to memory").into(),
            digest,
        }
    }

    /// Appends the file's bytes to `out`.
    pub fn unpack_into(&self, out: &mut Vec<u8>) -> std::io::Result<()> {
        use std::io::Read;
        flate2::read::DeflateDecoder::new(&self.deflated[..]).read_to_end(out)?;
        Ok(())
    }

    fn unpack(&self) -> std::io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        self.unpack_into(&mut bytes)?;
        Ok(bytes)
    }
}

/// One entity a word names and the fields it is in, packed in four bytes:
/// a million entities' word suffixes make tens of millions of postings,
/// and a pair of `u32` and `u8` takes eight.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Posting(u32);

impl Posting {
    /// [`build`] refuses a corpus of more entities than the format numbers,
    /// so every posting fits.
    fn new(entity: u32, fields: u8) -> Posting {
        Posting(format::posting(entity.into(), fields) as u32)
    }

    fn entity(self) -> u32 {
        format::entity(self.0.into()) as u32
    }

    fn fields(self) -> u8 {
        format::fields(self.0.into())
    }
}

type Postings = Vec<Posting>;

pub fn build(base_url: &BaseUrl, corpus: &Corpus) -> Result<SearchIndex, serde_json::Error> {
    if corpus.listings().len() >= format::ENTITIES {
        return Err(serde::ser::Error::custom(format!(
            "{} entities are more than the search index numbers ({})",
            corpus.listings().len(),
            format::ENTITIES - 1
        )));
    }
    let words = words(corpus);
    let listings = corpus.listings();
    let kinds = Kinds::of(listings);
    let rows = Rows {
        listings,
        searchables: corpus.searchables(),
        kinds: &kinds,
    };
    let (nodes, inline) = trie(&rows, &words)?;
    // By digest: files of the same content (two leaves' equal groups) are
    // one file.
    let mut files: BTreeMap<String, Packed> = BTreeMap::new();
    let mut name = |packed: Packed| {
        let digest = packed.digest.clone();
        files.entry(format::path(&digest)).or_insert(packed);
        digest
    };
    let mut keys = Vec::with_capacity(nodes.len());
    for node in nodes {
        let mut named = NodeFiles::default();
        if inline.is_none() {
            named.node = Some(name(node.file));
        }
        let rows = match node.rows {
            Some((count, bytes)) => {
                named.rows = Some(name(bytes));
                count
            }
            None => 0,
        };
        named.page = node.page.map(&mut name);
        let mut continued = String::new();
        for (next, group) in node.groups {
            continued.push(next);
            named.groups.push(name(group));
        }
        let leaf = u8::from(node.leaf);
        keys.push(NodeEntry(
            node.key.into(),
            leaf,
            rows,
            continued.into(),
            named.written().into(),
        ));
    }
    let mut chunks = Vec::new();
    for chunk in listings.chunks(ROWS_PER_FILE) {
        let chunk: Vec<Row> = chunk.iter().map(|l| rows.row(l)).collect();
        chunks.push(name(Packed::new(&serde_json::to_vec(&chunk)?)).into());
    }
    let files = files.into_iter().collect();

    let manifest = serde_json::to_vec(&Manifest {
        version: format::VERSION,
        total: listings.len(),
        base_url: base_url.join("").into(),
        rows_per_file: ROWS_PER_FILE,
        types: kinds.names.iter().map(|&name| name.into()).collect(),
        links: crate::site::formats::ENTITY_FORMATS
            .iter()
            .map(|f| f.extension.into())
            .collect(),
        nodes: keys,
        chunks,
        deprecated: corpus
            .searchables()
            .iter()
            .enumerate()
            .filter(|(_, s)| s.deprecated)
            .map(|(n, _)| n)
            .collect(),
        stem: corpus.stemmer().map(Cow::Borrowed),
        node_files: inline,
    })?;
    Ok(SearchIndex { manifest, files })
}

/// The trie's nodes, and their files as values for the manifest when they
/// come with it. Only a site whose nodes do not come with the manifest has
/// the files a client fetches beside a node ([`Layout::Fetched`]): on a
/// small one, the rows are chosen once the page is known, in the same
/// round.
type Trie = (Vec<Node>, Option<Vec<NodeFile<'static>>>);

fn trie(rows: &Rows, words: Words) -> Result<Trie, serde_json::Error> {
    // Two files' worth of raw bytes never compress under the limit: the
    // estimate can be off, the layout chosen not (the same words, the same
    // trie).
    if words_size(words) <= 2 * INLINE_NODES_RAW_MAX {
        let mut nodes = Vec::new();
        split(rows, words, Layout::Inline, &mut nodes)?;
        if let Some(inline) = inline_nodes(&nodes)? {
            return Ok((nodes, Some(inline)));
        }
    }
    let mut nodes = Vec::new();
    split(rows, words, Layout::Fetched, &mut nodes)?;
    Ok((nodes, None))
}

/// Whether the nodes come with the manifest or are fetched.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    Inline,
    /// Each node has besides it what answers a term's first page, when its
    /// row file is too large to fetch with it: the node's page file, and a
    /// leaf's group files.
    Fetched,
}

/// About how many bytes `words` take in a node file.
fn words_size(words: Words) -> usize {
    words.iter().map(|(w, p)| w.len() + 6 + p.len() * 4).sum()
}

/// The node files as values for the manifest, when they compress small
/// enough ([`INLINE_NODES_GZIP`]).
fn inline_nodes(nodes: &[Node]) -> Result<Option<Vec<NodeFile<'static>>>, serde_json::Error> {
    use std::io::Write;
    let files = nodes
        .iter()
        .map(|n| n.file.unpack())
        .collect::<Result<Vec<_>, _>>()
        .map_err(serde_json::Error::io)?;
    let raw: usize = files.iter().map(|file| file.len() + 1).sum();
    if raw > INLINE_NODES_RAW_MAX {
        return Ok(None);
    }
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for file in &files {
        gzip.write_all(file).expect("writing to memory");
        gzip.write_all(b",").expect("writing to memory");
    }
    if gzip.finish().expect("writing to memory").len() > INLINE_NODES_GZIP {
        return Ok(None);
    }
    files
        .iter()
        .map(|file| serde_json::from_slice(file))
        .collect::<Result<_, _>>()
        .map(Some)
}

/// Every word with its postings, sorted by word.
fn words<'c>(corpus: &'c Corpus) -> Vec<(&'c str, Postings)> {
    let mut by_word: BTreeMap<&str, Postings> = BTreeMap::new();
    let listings = corpus.listings();
    for (n, searchable) in corpus.searchables().iter().enumerate() {
        let entity = n as u32;
        let mut add = |word: &'c str, bit: u8| {
            let postings = by_word.entry(word).or_default();
            match postings.last_mut() {
                Some(last) if last.entity() == entity => {
                    *last = Posting::new(entity, last.fields() | bit)
                }
                _ => postings.push(Posting::new(entity, bit)),
            }
        };
        for (bit, suffixes) in &searchable.fields {
            for suffix in suffixes.iter() {
                add(suffix, *bit);
            }
        }
        for exact in &searchable.exact {
            add(exact, EXACT);
        }
        add(listings[n].slug.as_str(), EXACT);
    }
    by_word.into_iter().collect()
}

/// One rendered trie node.
struct Node {
    key: String,
    leaf: bool,
    file: Packed,
    /// A leaf's row file and how many rows it holds.
    rows: Option<(usize, Packed)>,
    /// The page file: the first page of the key searched alone.
    page: Option<Packed>,
    /// A leaf's group files: `(c, rows)` for the words that continue its
    /// key with `c` ([`groups`]).
    groups: Vec<(char, Packed)>,
}

/// The group files of the leaf `key`, whose longer words are `longer`
/// (sorted): for each character `c` that follows the key, the rows of every
/// entity the words that start with `{key}{c}` name, or when they name more
/// than [`LEAF_ROWS_MAX`], the first page of `{key}{c}` searched alone. A
/// term longer than the key matches only in one group, so its group holds
/// every entity it can match, and at most a fraction of the leaf's rows.
fn groups(rows: &Rows, key: &str, longer: Words) -> Result<Vec<(char, Packed)>, serde_json::Error> {
    let mut groups = Vec::new();
    for (next, words) in by_next_char(key, longer) {
        let file = match rows.named(words)? {
            Some((_, file)) => file,
            None => rows.page(&union(words), &exact(&format!("{key}{next}"), words))?,
        };
        groups.push((next, file));
    }
    Ok(groups)
}

/// `longer`, sorted words longer than `key` that start with it, in runs by
/// the character that follows the key.
fn by_next_char<'w, 's>(
    key: &str,
    longer: Words<'w, 's>,
) -> impl Iterator<Item = (char, Words<'w, 's>)> {
    let mut rest = longer;
    std::iter::from_fn(move || {
        let next = rest.first()?.0[key.len()..].chars().next()?;
        let run = rest
            .iter()
            .take_while(|(w, _)| w[key.len()..].starts_with(next))
            .count();
        let (words, after) = rest.split_at(run);
        rest = after;
        Some((next, words))
    })
}

/// Renders the trie of `words` into `nodes`, in depth-first order. A loop over a stack, not
/// recursion: the trie is as deep as the longest word, and the input sets
/// that (one 25,000-letter word overflowed the stack).
fn split(
    rows: &Rows,
    words: Words,
    layout: Layout,
    nodes: &mut Vec<Node>,
) -> Result<(), serde_json::Error> {
    let mut pending = vec![(String::new(), words)];
    while let Some((key, words)) = pending.pop() {
        let children = node(rows, key, words, layout, nodes)?;
        // Reversed, so the first child is rendered next.
        pending.extend(children.into_iter().rev());
    }
    Ok(())
}

/// Words sorted, each with its postings.
type Words<'w, 's> = &'w [(&'s str, Postings)];

/// Renders the node for `key` into `nodes` and returns its children.
fn node<'w, 's>(
    rows: &Rows,
    key: String,
    words: Words<'w, 's>,
    layout: Layout,
    nodes: &mut Vec<Node>,
) -> Result<Vec<(String, Words<'w, 's>)>, serde_json::Error> {
    let longer = words
        .iter()
        .position(|(w, _)| w.len() > key.len())
        .unwrap_or(words.len());
    // Sorted words: those equal to the key come first.
    let (own, rest) = words.split_at(longer);
    let fetched = layout == Layout::Fetched;
    // A fetched leaf names at most [`LEAF_ROWS_MAX`] entities where it can
    // be split, so that its groups hold every entity a longer term can
    // match.
    let small = words_size(words) <= LEAF_BYTES;
    let leaf_rows = if small { rows.named(words)? } else { None };
    let leaf = small && (!fetched || leaf_rows.is_some());
    if leaf || rest.is_empty() || key.chars().count() >= MAX_KEY_CHARS {
        // Counted above when small; an unsplittable large leaf now.
        let leaf_rows = if small { leaf_rows } else { rows.named(words)? };
        let listed = words.iter().map(|(w, p)| (Cow::Borrowed(*w), encode(p)));
        let too_many = leaf_rows.as_ref().is_none_or(|(n, _)| *n > ROWS_PER_FILE);
        let (page, groups) = if fetched && too_many {
            // No query has the empty term: a root leaf needs no page.
            let page = (!key.is_empty())
                .then(|| rows.page(&union(words), &exact(&key, own)))
                .transpose()?;
            (page, groups(rows, &key, rest)?)
        } else {
            (None, Vec::new())
        };
        nodes.push(Node {
            key,
            leaf: true,
            file: Packed::new(&serde_json::to_vec(&NodeFile {
                all: None,
                words: listed.collect(),
            })?),
            rows: leaf_rows,
            page,
            groups,
        });
        return Ok(Vec::new());
    }
    let all = union(words);
    let listed = own.iter().map(|(w, p)| (Cow::Borrowed(*w), encode(p)));
    // No query has the empty term: the root needs no page.
    let page = if fetched && !key.is_empty() {
        Some(rows.page(&all, &exact(&key, own))?)
    } else {
        None
    };
    nodes.push(Node {
        key: key.clone(),
        leaf: false,
        file: Packed::new(&serde_json::to_vec(&NodeFile {
            all: Some(encode(&all)),
            words: listed.collect(),
        })?),
        rows: None,
        page,
        groups: Vec::new(),
    });
    let children = by_next_char(&key, rest)
        .map(|(next, words)| (format!("{key}{next}"), words))
        .collect();
    Ok(children)
}

/// Where the words name each entity, by entity: the union of their field
/// masks, without the postings that serve the exact tier alone.
fn union(words: Words) -> Postings {
    let mut all: BTreeMap<u32, u8> = BTreeMap::new();
    for (_, postings) in words {
        for posting in postings {
            let mask = posting.fields();
            if mask & !EXACT != 0 {
                *all.entry(posting.entity()).or_default() |= mask & !EXACT;
            }
        }
    }
    all.into_iter()
        .map(|(entity, mask)| Posting::new(entity, mask))
        .collect()
}

/// The entities whose folded, joined ID (or label) or slug is `key`.
fn exact(key: &str, words: Words) -> BTreeSet<u32> {
    words
        .iter()
        .filter(|(w, _)| *w == key)
        .flat_map(|(_, p)| {
            p.iter()
                .filter(|p| p.fields() & EXACT != 0)
                .map(|p| p.entity())
        })
        .collect()
}

/// The entity types of a corpus, numbered: most frequent first, then by
/// name, so a site of one type writes `0` in every row.
struct Kinds<'c> {
    names: Vec<&'c str>,
    numbers: HashMap<&'c str, usize>,
}

impl<'c> Kinds<'c> {
    fn of(listings: &'c [Listing<'c>]) -> Kinds<'c> {
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for listing in listings {
            *counts.entry(&listing.kind).or_default() += 1;
        }
        let mut names: Vec<&str> = counts.keys().copied().collect();
        names.sort_by(|a, b| counts[b].cmp(&counts[a]).then(a.cmp(b)));
        let numbers = names.iter().enumerate().map(|(n, k)| (*k, n)).collect();
        Kinds { names, numbers }
    }
}

/// What the rows are made from.
struct Rows<'c> {
    listings: &'c [Listing<'c>],
    searchables: &'c [Searchable],
    kinds: &'c Kinds<'c>,
}

impl Rows<'_> {
    /// The row file of every entity `words` name, and how many there are,
    /// when they are at most [`LEAF_ROWS_MAX`].
    fn named(&self, words: Words) -> Result<Option<(usize, Packed)>, serde_json::Error> {
        let named: BTreeSet<u32> = words
            .iter()
            .flat_map(|(_, p)| p.iter().map(|p| p.entity()))
            .collect();
        if named.len() > LEAF_ROWS_MAX {
            return Ok(None);
        }
        Ok(Some((named.len(), self.file(named.into_iter())?)))
    }

    /// A row or group file: `[entity, ...row]` for each of `entities`.
    fn file(&self, entities: impl Iterator<Item = u32>) -> Result<Packed, serde_json::Error> {
        Ok(Packed::new(&serde_json::to_vec(&self.numbered(entities))?))
    }

    /// `[entity, ...row]` for each of `entities`.
    fn numbered(&self, entities: impl Iterator<Item = u32>) -> Vec<NumberedRow<'_>> {
        entities
            .map(|n| NumberedRow(n, self.row(&self.listings[n as usize])))
            .collect()
    }

    /// The page file of a key: `{"total", "rows"}`, how many entities the
    /// key searched alone matches strictly, and the rows of its first page
    /// in answer order (`docs/search.md`), from where its
    /// words name each entity (`masks`, by entity) and the entities it is
    /// the exact word of. Every entity in a bucket of (ranks last, tier)
    /// comes in entity order, so each bucket's first page is enough.
    fn page(&self, masks: &[Posting], exact: &BTreeSet<u32>) -> Result<Packed, serde_json::Error> {
        const TIERS: usize = engine::Tier::Any as usize + 1;
        let mut buckets: [Vec<u32>; 2 * TIERS] = Default::default();
        let mut total = 0;
        for posting in masks {
            let entity = posting.entity();
            let Some(tier) = engine::tier([posting.fields()], exact.contains(&entity)) else {
                continue;
            };
            total += 1;
            let last = engine::ranks_last(self.searchables[entity as usize].deprecated, tier);
            let bucket = &mut buckets[usize::from(last) * TIERS + tier as usize];
            if bucket.len() < DEFAULT_LIMIT {
                bucket.push(entity);
            }
        }
        let rows = self.numbered(buckets.into_iter().flatten().take(DEFAULT_LIMIT));
        let page = serde_json::to_vec(&PageFile { total, rows })?;
        Ok(Packed::new(&page))
    }

    /// An entity's row: `[id, name, type, summary]`, and its slug only
    /// when the slug is not the one derived from the ID (lower-cased,
    /// `a-z0-9` kept), which a client derives itself.
    fn row<'l>(&self, listing: &'l Listing) -> Row<'l> {
        let derived = Slug::from_id(&listing.id).as_ref() == Ok(&listing.slug);
        Row(
            Cow::Borrowed(&listing.id),
            Cow::Borrowed(&listing.name),
            self.kinds.numbers[listing.kind.as_ref()],
            Cow::Borrowed(&listing.summary),
            (!derived).then(|| Cow::Borrowed(listing.slug.as_str())),
        )
    }
}

/// A node file's postings list ([`format::deltas`]).
fn encode(postings: &[Posting]) -> Vec<u64> {
    format::deltas(postings.iter().map(|p| u64::from(p.0)))
}
