//! Search from the index files the build wrote, as `search.js` does: the
//! manifest in memory, node and row files read when a query needs them
//! and kept in a bounded cache. So `serve` starts without reading every
//! entity's text, and its memory does not grow with the ontology beyond
//! the manifest and the cache.
//!
//! The steps are `search.js`'s (`Index.search`), in the same order; the
//! tests hold the answers to the Rust reference's on every golden query.

use super::path::{SiteDir, site_path};
use super::postings::{self, Cursor, Postings};
use crate::model::{BaseUrl, Slug};
use crate::search::engine::{self, Tier};
use crate::search::format::{self, EXACT, IndexFile, Manifest, NodeEntry, PageFile};
use crate::search::{Listing, Query, near};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The tiers, strict and near ([`Tier`]).
const TIERS: usize = Tier::NearAny as usize + 1;
/// How many node and row files the cache keeps: each is at most a leaf's
/// size (`LEAF_BYTES`) but for inner nodes' unions, so a few megabytes on
/// a small site and a bounded amount on any.
const CACHED_FILES: usize = 512;
/// How many bytes of files (as read) each cache keeps at most: an inner
/// node's union at a million entities is megabytes (`item`'s names every
/// entity), and 512 of them would be gigabytes.
const CACHED_BYTES: usize = 32 << 20;
/// The most entities an index may count: a query holds one byte per
/// entity and term, so a manifest that claims more (a damaged or hostile
/// one) is refused instead of exhausting memory.
const MAX_ENTITIES: usize = 100_000_000;

/// Why the index could not answer: a file it names is missing or is not
/// what the format says.
#[derive(Debug, thiserror::Error)]
#[error("`{}`: {what}\n  help: rebuild the site with `ontosite build`", path.display())]
pub struct IndexError {
    pub path: PathBuf,
    pub what: String,
}

/// Whether answering may read the index's files, or only use what the
/// caches hold: a server answers from memory on the connection's own
/// thread, and hands a query that needs a read to the blocking pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    Allowed,
    CachedOnly,
}

/// The most folded characters, all terms together, of a query answered
/// on a connection's own thread ([`Reads::CachedOnly`]): a person's
/// query has far fewer.
const ON_CONNECTION_CHARS: usize = 64;

/// Why the index gave no answer: a file is missing or bad, or (with
/// [`Reads::CachedOnly`]) one the query needs is not in the caches, or
/// the query is too long to answer there.
#[derive(Debug)]
pub enum Unanswered {
    Bad(IndexError),
    Uncached,
}

impl From<IndexError> for Unanswered {
    fn from(error: IndexError) -> Unanswered {
        Unanswered::Bad(error)
    }
}

impl From<serde_json::Error> for Unanswered {
    fn from(error: serde_json::Error) -> Unanswered {
        Unanswered::Bad(error.into())
    }
}

impl From<serde_json::Error> for IndexError {
    fn from(error: serde_json::Error) -> IndexError {
        IndexError {
            path: PathBuf::new(),
            what: error.to_string(),
        }
    }
}

/// What serve keeps of a page file.
struct Page {
    total: usize,
    entities: Vec<u32>,
}

/// A node file: a leaf's words, or an inner node's union of postings and
/// its own words. The file's postings are deltas; once read they are
/// made absolute ([`Postings`]), so a query looks entities up in them
/// without decoding a list per request.
struct OpenNode {
    all: Postings,
    words: Vec<(String, Postings)>,
}

impl From<format::NodeFile<'_>> for OpenNode {
    fn from(file: format::NodeFile) -> OpenNode {
        OpenNode {
            all: Postings(file.all.unwrap_or_default()).absolute(),
            words: file
                .words
                .into_iter()
                .map(|(word, postings)| (word.into_owned(), Postings(postings).absolute()))
                .collect(),
        }
    }
}

/// A term's matches: absolute postings ([`Postings`]) in entity order,
/// those with only [`EXACT`] not counting. A node file's list is used as
/// read, without a copy: an inner node's union (`All`), or the one word
/// of a leaf that matches (`Word`); several lists are merged into one
/// (`Merged`).
enum Matches {
    All(Arc<OpenNode>),
    Word(Arc<OpenNode>, usize),
    Merged(Vec<u64>),
}

impl Matches {
    fn postings(&self) -> &[u64] {
        match self {
            Matches::All(file) => &file.all.0,
            Matches::Word(file, i) => &file.words[*i].1.0,
            Matches::Merged(postings) => postings,
        }
    }

    /// The matching words of a leaf: the one word's list as read, or the
    /// union of several.
    fn words(file: Arc<OpenNode>, matching: impl Fn(&str) -> bool) -> Matches {
        let found: Vec<usize> = (0..file.words.len())
            .filter(|&i| matching(&file.words[i].0))
            .collect();
        match found[..] {
            [i] => Matches::Word(file, i),
            _ => Matches::merge(found.iter().map(|&i| file.words[i].1.0.as_slice())),
        }
    }

    /// The union of postings lists, each entity once with every field it
    /// matched in but [`EXACT`] alone.
    fn merge<'a>(lists: impl IntoIterator<Item = &'a [u64]>) -> Matches {
        Matches::Merged(postings::union(lists))
    }
}

/// A row of the chunks, as read.
type Row = format::Row<'static>;

struct Node {
    key: String,
    leaf: bool,
    /// How many rows the leaf's row file holds (0: none).
    rows: usize,
}

/// One site's index, open.
pub struct PublishedIndex {
    /// The site, open: every file is read relative to it, so a site a
    /// build swaps in later never mixes into this one's answers.
    site: SiteDir,
    base_url: BaseUrl,
    total: usize,
    rows_per_file: usize,
    types: Vec<String>,
    nodes: Vec<Node>,
    by_key: HashMap<String, usize>,
    children: HashMap<String, Vec<usize>>,
    /// Whether each entity is deprecated, by number; empty when none is.
    /// A lookup in a vector, not a hash: every match of a query that
    /// matches everything asks.
    deprecated: Vec<bool>,
    stem: bool,
    inline: Option<Vec<Arc<OpenNode>>>,
    nodes_cache: Mutex<Cache<Arc<OpenNode>>>,
    rows_cache: Mutex<Cache<Arc<Vec<Row>>>>,
    pages_cache: Mutex<Cache<Arc<Page>>>,
}

/// One (deprecated, tier) bucket of an answer: how many matches it has,
/// and at least the smallest of them that a page can show, unsorted.
#[derive(Clone, Default)]
struct Bucket {
    size: usize,
    first: Vec<u32>,
}

impl std::fmt::Debug for PublishedIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PublishedIndex")
            .field("site", &self.site.path())
            .field("total", &self.total)
            .field("nodes", &self.nodes.len())
            .finish_non_exhaustive()
    }
}

impl PublishedIndex {
    /// Opens the index of the site at `root`: reads its manifest.
    pub fn open(root: &Path) -> Result<PublishedIndex, IndexError> {
        let site = SiteDir::open(root).map_err(|e| IndexError {
            path: root.to_owned(),
            what: format!("opening it failed: {e}"),
        })?;
        PublishedIndex::in_site(site)
    }

    /// Opens the index of an open site: reads its manifest.
    pub fn in_site(site: SiteDir) -> Result<PublishedIndex, IndexError> {
        let path = site.path().join(crate::site::files::SEARCH_INDEX);
        let bad = |what: String| IndexError {
            path: path.clone(),
            what,
        };
        let bytes = read_beneath(&site, crate::site::files::SEARCH_INDEX)
            .ok_or_else(|| bad("it is missing, not a file, or outside the site".into()))?;
        let manifest: Manifest =
            serde_json::from_slice(&bytes).map_err(|e| bad(format!("it is not an index: {e}")))?;
        if manifest.version != format::VERSION {
            return Err(bad(format!(
                "its format is {}, not {}",
                manifest.version,
                format::VERSION
            )));
        }
        if manifest.total > MAX_ENTITIES {
            return Err(bad(format!(
                "it counts {} entities, more than serve searches ({MAX_ENTITIES})",
                manifest.total
            )));
        }
        let base_url =
            BaseUrl::parse(&manifest.base_url).map_err(|e| bad(format!("its baseUrl: {e}")))?;
        let stem = match manifest.stem.as_deref() {
            None => false,
            Some(language) => {
                near::stemmer(language).ok_or_else(|| {
                    bad(format!(
                        "it names the stemmer `{language}`, which this ontosite does not know"
                    ))
                })?;
                true
            }
        };
        let nodes: Vec<Node> = manifest
            .nodes
            .into_iter()
            .map(|NodeEntry(key, leaf, rows, _)| Node {
                key: key.into_owned(),
                leaf: leaf == 1,
                rows,
            })
            .collect();
        let by_key = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.key.clone(), i))
            .collect();
        let mut children: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, node) in nodes.iter().enumerate() {
            let mut parent = node.key.chars();
            if parent.next_back().is_some() {
                children
                    .entry(parent.as_str().to_owned())
                    .or_default()
                    .push(i);
            }
        }
        let inline = manifest
            .node_files
            .map(|files| files.into_iter().map(|f| Arc::new(f.into())).collect());
        Ok(PublishedIndex {
            site,
            base_url,
            total: manifest.total,
            rows_per_file: manifest.rows_per_file.max(1),
            types: manifest.types.into_iter().map(Cow::into_owned).collect(),
            nodes,
            by_key,
            children,
            deprecated: deprecated_flags(&manifest.deprecated, manifest.total),
            stem,
            inline,
            nodes_cache: Mutex::new(Cache::default()),
            rows_cache: Mutex::new(Cache::default()),
            pages_cache: Mutex::new(Cache::default()),
        })
    }

    /// How many entities the index holds.
    pub fn total(&self) -> usize {
        self.total
    }

    /// A JSON file of the index, parsed, and how many bytes it took.
    fn read<T: serde::de::DeserializeOwned>(&self, name: &str) -> Result<(T, usize), IndexError> {
        let path = self.site.path().join(name);
        let bytes = read_beneath(&self.site, name).ok_or_else(|| IndexError {
            path: path.clone(),
            what: "it is missing, not a file, or outside the site".into(),
        })?;
        let file = serde_json::from_slice(&bytes).map_err(|e| IndexError {
            path,
            what: format!("it is not what the index format says: {e}"),
        })?;
        Ok((file, bytes.len()))
    }

    /// The node that answers words starting with `term` (or equal to it).
    fn node(&self, term: &str) -> Option<usize> {
        let mut key = String::new();
        let mut rest = term.chars();
        loop {
            let i = *self.by_key.get(&key)?;
            if self.nodes[i].leaf || key == term {
                return Some(i);
            }
            key.push(rest.next()?);
        }
    }

    fn file(&self, i: usize, reads: Reads) -> Result<Arc<OpenNode>, Unanswered> {
        if let Some(inline) = &self.inline {
            return inline.get(i).cloned().ok_or_else(|| {
                Unanswered::Bad(IndexError {
                    path: self.site.path().join(crate::site::files::SEARCH_INDEX),
                    what: format!("it has no node file {i}"),
                })
            });
        }
        let name = IndexFile::Node(&self.nodes[i].key).path();
        cached(&self.nodes_cache, name, reads, |name| {
            let (file, len): (format::NodeFile, usize) = self.read(name)?;
            Ok((Arc::new(file.into()), len))
        })
    }

    /// A chunk of rows, parsed once when it is read; a listing is made
    /// of a row only when an answer shows it.
    fn rows(&self, chunk: usize, reads: Reads) -> Result<Arc<Vec<Row>>, Unanswered> {
        let name = IndexFile::Chunk(chunk).path();
        cached(&self.rows_cache, name, reads, |name| {
            let (rows, len) = self.read(name)?;
            Ok((Arc::new(rows), len))
        })
    }

    /// The listing of `entity`, from its chunk of rows.
    fn listing<'a>(&'a self, entity: u32, chunk: &'a [Row]) -> Result<Listing<'a>, IndexError> {
        let at = entity as usize;
        let bad = |what: String| IndexError {
            path: self
                .site
                .path()
                .join(IndexFile::Chunk(at / self.rows_per_file).path()),
            what: format!("row of entity {entity}: {what}"),
        };
        let format::Row(id, name, kind, summary, slug) = chunk
            .get(at % self.rows_per_file)
            .ok_or_else(|| bad("missing".into()))?;
        let slug = match slug {
            Some(slug) => Slug::parse(slug),
            None => Slug::from_id(id),
        }
        .map_err(|e| bad(e.to_string()))?;
        let kind = self
            .types
            .get(*kind)
            .ok_or_else(|| bad("no type of the manifest's".into()))?;
        Ok(Listing {
            slug: Cow::Owned(slug),
            id: Cow::Borrowed(id),
            name: Cow::Borrowed(name),
            kind: Cow::Borrowed(kind),
            summary: Cow::Borrowed(summary),
            deprecated: self.deprecated.get(at) == Some(&true),
        })
    }

    /// The entities with a word that starts with `prefix`.
    fn prefix_matches(&self, prefix: &str, reads: Reads) -> Result<Matches, Unanswered> {
        let Some(i) = self.node(prefix) else {
            return Ok(Matches::Merged(Vec::new()));
        };
        let file = self.file(i, reads)?;
        if !self.nodes[i].leaf {
            return Ok(Matches::All(file));
        }
        Ok(Matches::words(file, |word| word.starts_with(prefix)))
    }

    /// A term's near matches added to its strict ones: the words its stem
    /// begins, and those within its typo budget.
    fn near_matches(
        &self,
        term: &str,
        strict: &Matches,
        reads: Reads,
    ) -> Result<Matches, Unanswered> {
        let mut parts = Vec::new();
        if self.stem
            && let Some(stemmed) = near::stem(term)
        {
            parts.push(self.prefix_matches(&stemmed, reads)?);
        }
        let budget = near::typo_budget(term);
        for (i, all) in self.typo_nodes(term, budget) {
            let file = self.file(i, reads)?;
            parts.push(if all {
                Matches::All(file)
            } else {
                Matches::words(file, |word| near::within_typos(term, word, budget))
            });
        }
        Ok(Matches::merge(
            std::iter::once(strict.postings()).chain(parts.iter().map(Matches::postings)),
        ))
    }

    /// The nodes whose words may begin within `budget` typos of `term`,
    /// each with whether every word under it does (`search.js`'s
    /// `typoNodes`).
    fn typo_nodes(&self, term: &str, budget: usize) -> Vec<(usize, bool)> {
        let chars: Vec<char> = term.chars().collect();
        let (Some(&root), Some(&first_char)) = (self.by_key.get(""), chars.first()) else {
            return Vec::new();
        };
        if budget == 0 {
            return Vec::new();
        }
        if self.nodes[root].leaf {
            return vec![(root, false)];
        }
        // The rows of edits from each prefix of the key to the term's
        // prefixes (optimal string alignment, as `near::within_typos`):
        // those of a node's key are its parents', so a depth-first walk
        // keeps one row per depth.
        let mut rows = near::Rows::new(&chars, budget);
        let mut found = Vec::new();
        let mut stack: Vec<usize> = self
            .by_key
            .get(&first_char.to_string())
            .copied()
            .into_iter()
            .collect();
        while let Some(i) = stack.pop() {
            let node = &self.nodes[i];
            let key: Vec<char> = node.key.chars().collect();
            rows.truncate(key.len() - 1);
            if !rows.push(&key) {
                continue;
            }
            if near::begins_within_typos(term, &node.key, budget, false) {
                found.push((i, !node.leaf));
                continue;
            }
            if node.leaf || near::within_typos(term, &node.key, budget) {
                found.push((i, false));
            }
            if !node.leaf {
                stack.extend(self.children.get(&node.key).into_iter().flatten());
            }
        }
        found
    }

    /// Entities whose joined ID, label or synonym, or slug, equals
    /// `joined`.
    fn exact(&self, joined: &str, reads: Reads) -> Result<HashSet<u32>, Unanswered> {
        let mut found = HashSet::new();
        let Some(i) = self.node(joined) else {
            return Ok(found);
        };
        if !self.nodes[i].leaf && self.nodes[i].key != joined {
            return Ok(found);
        }
        let file = self.file(i, reads)?;
        for (word, postings) in &file.words {
            if word != joined {
                continue;
            }
            for &n in &postings.0 {
                if format::fields(n) & EXACT != 0 {
                    found.insert(format::entity(n) as u32);
                }
            }
        }
        Ok(found)
    }

    /// The entities every term matched, in buckets of answer order: one
    /// per tier ([`Tier`]), the deprecated after all others; with `near`,
    /// in the near tiers.
    fn rank(
        &self,
        per_term: &[Matches],
        exact: &HashSet<u32>,
        near: bool,
        keep: usize,
    ) -> Vec<Bucket> {
        let mut buckets = vec![Bucket::default(); 2 * TIERS];
        let Some(smallest) = per_term.iter().min_by_key(|m| m.postings().len()) else {
            return buckets;
        };
        // Candidates come in entity order, from the term with the fewest,
        // and are looked up in the others' postings where the last lookup
        // ended: no pass over a common term's every match. The first
        // `keep` of a bucket are then its smallest, and a query that
        // matches every entity keeps a page, not a copy of them all.
        let mut cursors: Vec<Cursor> = per_term
            .iter()
            .map(|matches| Cursor::new(matches.postings()))
            .collect();
        for &n in smallest.postings() {
            if format::entity(n) >= self.total as u64 {
                break;
            }
            let entity = format::entity(n) as u32;
            let masks = cursors.iter_mut().map(|cursor| cursor.fields(entity));
            let exact = !exact.is_empty() && exact.contains(&entity);
            let Some(tier) = engine::tier(masks, exact) else {
                continue;
            };
            let tier = if near { tier.near() } else { tier };
            let deprecated = self.deprecated.get(entity as usize) == Some(&true);
            let last = if engine::ranks_last(deprecated, tier) {
                TIERS
            } else {
                0
            };
            let bucket = &mut buckets[last + tier as usize];
            bucket.size += 1;
            if bucket.first.len() < keep {
                bucket.first.push(entity);
            }
        }
        buckets
    }

    /// The page file of `term`, as `search.js`'s `pageFile` finds it: where
    /// the nodes are fetched, a node whose key is the term has one unless
    /// a row file of at most a chunk's rows holds its every match.
    fn page(&self, term: &str, reads: Reads) -> Result<Option<Arc<Page>>, Unanswered> {
        let Some(i) = self.node(term) else {
            return Ok(None);
        };
        let node = &self.nodes[i];
        let small_rows = node.rows > 0 && node.rows <= self.rows_per_file;
        if self.inline.is_some() || node.key != term || small_rows {
            return Ok(None);
        }
        let name = IndexFile::Page(&node.key).path();
        cached(&self.pages_cache, name, reads, |name| {
            let (file, len): (PageFile, usize) = self.read(name)?;
            let entities = file.rows.into_iter().map(|row| row.0).collect();
            let page = Page {
                total: file.total,
                entities,
            };
            Ok((Arc::new(page), len))
        })
        .map(Some)
    }

    /// Answers a checked query with the answer's JSON, reading files only
    /// if `reads` allows.
    pub fn answer(&self, query: &Query, reads: Reads) -> Result<Vec<u8>, Unanswered> {
        // A long query is not answered on a connection's own thread, which
        // other connections wait on: its near matches cost in proportion
        // to its characters. It goes to the blocking pool, as a query
        // that must read a file does.
        let chars: usize = query.terms.iter().map(|t| t.chars().count()).sum();
        if matches!(reads, Reads::CachedOnly) && chars > ON_CONNECTION_CHARS {
            return Err(Unanswered::Uncached);
        }
        // A one-term query within the first page of a key: from the key's
        // page file, which the build ranked and counted.
        let keep = query.offset.saturating_add(query.limit);
        if let [term] = query.terms.as_slice()
            && keep <= crate::search::query::DEFAULT_LIMIT
            && let Some(page) = self.page(term, reads)?
            && page.total > 0
        {
            let entities = page.entities.get(query.offset..).unwrap_or_default();
            let shown: Vec<u32> = entities.iter().copied().take(query.limit).collect();
            return self.respond(query, page.total, &shown, reads);
        }
        let exact = self.exact(&query.joined(), reads)?;
        let per_term = query
            .terms
            .iter()
            .map(|term| self.prefix_matches(term, reads))
            .collect::<Result<Vec<_>, _>>()?;
        let mut buckets = self.rank(&per_term, &exact, false, keep);
        if buckets.iter().all(|b| b.size == 0) {
            let per_term = query
                .terms
                .iter()
                .zip(&per_term)
                .map(|(term, strict)| self.near_matches(term, strict, reads))
                .collect::<Result<Vec<_>, _>>()?;
            buckets = self.rank(&per_term, &HashSet::new(), true, keep);
        }
        let total: usize = buckets.iter().map(|b| b.size).sum();
        let end = keep.min(total);
        let mut page: Vec<u32> = Vec::new();
        let mut skipped = 0;
        for mut bucket in buckets {
            if page.len() >= end.saturating_sub(query.offset) {
                break;
            }
            if skipped + bucket.size <= query.offset {
                skipped += bucket.size;
                continue;
            }
            bucket.first.sort_unstable();
            let from = query.offset.saturating_sub(skipped);
            let room = end - query.offset - page.len();
            page.extend(bucket.first.iter().skip(from).take(room));
            skipped += bucket.size;
        }
        self.respond(query, total, &page, reads)
    }

    /// The answer's JSON: `total` matches, and the entities of its page.
    fn respond(
        &self,
        query: &Query,
        total: usize,
        page: &[u32],
        reads: Reads,
    ) -> Result<Vec<u8>, Unanswered> {
        let per_file = self.rows_per_file;
        let chunks = page
            .iter()
            .map(|&entity| self.rows(entity as usize / per_file, reads))
            .collect::<Result<Vec<_>, _>>()?;
        let listings = page
            .iter()
            .zip(&chunks)
            .map(|(&entity, chunk)| self.listing(entity, chunk))
            .collect::<Result<Vec<_>, _>>()?;
        let listed: Vec<&Listing> = listings.iter().collect();
        let end = query.offset.saturating_add(query.limit).min(total);
        let next = (end < total).then_some(end);
        Ok(crate::site::answers::answer_page(
            &self.base_url,
            query,
            total,
            next,
            &listed,
        )?)
    }
}

/// One flag per entity, set for the deprecated ones; no flags when none
/// is.
fn deprecated_flags(deprecated: &[usize], total: usize) -> Vec<bool> {
    let mut flags = Vec::new();
    if !deprecated.is_empty() {
        flags.resize(total, false);
        for &entity in deprecated {
            if let Some(flag) = flags.get_mut(entity) {
                *flag = true;
            }
        }
    }
    flags
}

/// The bytes of the file `name` (relative, `/`-separated) of the site,
/// never from outside it.
fn read_beneath(site: &SiteDir, name: &str) -> Option<Vec<u8>> {
    site.read(&site_path(&format!("/{name}")).ok()?)
}

/// The files read most recently, at most [`CACHED_FILES`] of them and
/// [`CACHED_BYTES`] of their bytes; the oldest read goes first.
struct Cache<T> {
    /// By name: when last used, the bytes it took, the file.
    files: HashMap<String, (u64, usize, T)>,
    clock: u64,
    bytes: usize,
}

impl<T> Default for Cache<T> {
    fn default() -> Self {
        Cache {
            files: HashMap::new(),
            clock: 0,
            bytes: 0,
        }
    }
}

/// The file `name` from `cache`, or, where `reads` allows, read by `read`
/// (the file and the bytes it took) and kept.
fn cached<T: Clone>(
    cache: &Mutex<Cache<T>>,
    name: String,
    reads: Reads,
    read: impl FnOnce(&str) -> Result<(T, usize), IndexError>,
) -> Result<T, Unanswered> {
    {
        let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.clock += 1;
        let now = cache.clock;
        if let Some((used, _, file)) = cache.files.get_mut(&name) {
            *used = now;
            return Ok(file.clone());
        }
    }
    if reads == Reads::CachedOnly {
        return Err(Unanswered::Uncached);
    }
    // Read outside the lock: other requests go on meanwhile.
    let (file, len) = read(&name)?;
    // A file larger than the whole budget is answered from, not kept, and
    // leaves the others be.
    if len > CACHED_BYTES {
        return Ok(file);
    }
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    // Another request may have read it meanwhile.
    if let Some((_, old, _)) = cache.files.remove(&name) {
        cache.bytes -= old;
    }
    while !cache.files.is_empty()
        && (cache.files.len() >= CACHED_FILES || cache.bytes + len > CACHED_BYTES)
        && let Some(oldest) = cache
            .files
            .iter()
            .min_by_key(|(_, (used, _, _))| *used)
            .map(|(name, _)| name.clone())
    {
        if let Some((_, old, _)) = cache.files.remove(&oldest) {
            cache.bytes -= old;
        }
    }
    let now = cache.clock;
    cache.bytes += len;
    cache.files.insert(name, (now, len, file.clone()));
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cache keeps at most its budget of bytes, the oldest read going
    /// first, and answers from a file too large to keep without keeping it.
    #[test]
    fn the_cache_keeps_at_most_its_bytes() {
        let cache: Mutex<Cache<usize>> = Mutex::default();
        let quarter = CACHED_BYTES / 4;
        for n in 0..6 {
            let got = cached(&cache, format!("f{n}"), Reads::Allowed, |_| {
                Ok((n, quarter))
            })
            .unwrap();
            assert_eq!(got, n);
        }
        let kept = cache.lock().unwrap();
        assert!(kept.bytes <= CACHED_BYTES, "{} bytes kept", kept.bytes);
        assert_eq!(
            kept.bytes,
            kept.files.values().map(|(_, len, _)| len).sum::<usize>()
        );
        let mut names: Vec<&String> = kept.files.keys().collect();
        names.sort();
        assert_eq!(names, ["f2", "f3", "f4", "f5"]);
        drop(kept);
        // Read again: f2 is now the newest, f3 the oldest.
        cached(&cache, "f2".into(), Reads::CachedOnly, |_| {
            panic!("f2 is kept")
        })
        .unwrap();
        cached(&cache, "f6".into(), Reads::Allowed, |_| Ok((6, quarter))).unwrap();
        assert!(!cache.lock().unwrap().files.contains_key("f3"));
        assert!(matches!(
            cached(&cache, "f7".into(), Reads::CachedOnly, |_| panic!(
                "no reads"
            )),
            Err(Unanswered::Uncached)
        ));
        let huge = cached(&cache, "huge".into(), Reads::Allowed, |_| {
            Ok((7, CACHED_BYTES + 1))
        })
        .unwrap();
        assert_eq!(huge, 7);
        let kept = cache.lock().unwrap();
        assert!(!kept.files.contains_key("huge"));
        assert!(
            kept.files.contains_key("f6"),
            "the huge file flushed the cache"
        );
        assert!(kept.bytes <= CACHED_BYTES);
    }
}
