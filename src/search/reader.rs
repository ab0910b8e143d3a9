//! Reading the search index the build wrote, once for every way of
//! answering: `serve` natively, and the hosts' handlers and the front
//! page through the same code compiled to WebAssembly. The manifest is in
//! memory; node, row and page files are asked of a [`Files`] when a query
//! needs them, parsed once and kept in a bounded cache, so a reader's
//! memory does not grow with the ontology beyond the manifest and the
//! cache.
//!
//! A [`Files`] that cannot hand a file over now (a fetch to make, a read
//! not allowed on this thread) says [`Fetched::Later`]; the answer is then
//! [`Unanswered::Needs`] with every file the query's current step needs,
//! so a caller fetches them together, hands them over and asks again.
//! The tests hold the answers to the reference's ([`super::Searcher`]) on
//! every golden query.

use super::engine::{self, Tier};
use super::format::{self, EXACT, Manifest, NodeEntry, NodeFiles, PageFile};
use super::postings::{self, Cursor, Postings};
use super::{Listing, Query, near};
use crate::model::{BaseUrl, Slug};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
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
/// what the format says. `file` is the file's path from the site's root.
#[derive(Debug, thiserror::Error)]
#[error("`{file}`: {what}\n  help: rebuild the site with `ontosite build`")]
pub struct IndexError {
    pub file: String,
    pub what: String,
}

/// What a [`Files`] gives for a file of the index.
#[derive(Debug)]
pub enum Fetched {
    /// The file's bytes.
    Bytes(Vec<u8>),
    /// The site has no such file (or none the reader may read).
    Missing,
    /// Not now: the caller hands it over when asked again.
    Later,
}

/// Where the index's files come from, by their path from the site's root
/// ([`format::path`]).
pub trait Files {
    fn read(&self, name: &str) -> Fetched;
}

/// Files that are never at hand: the reader answers from its caches
/// alone, or says which files it needs.
pub struct CachedOnly;

impl Files for CachedOnly {
    fn read(&self, _: &str) -> Fetched {
        Fetched::Later
    }
}

/// Why the index gave no answer: a file is missing or bad, or some files
/// the [`Files`] left for later are needed (each named once).
#[derive(Debug)]
pub enum Unanswered {
    Bad(IndexError),
    Needs(Vec<String>),
}

impl From<IndexError> for Unanswered {
    fn from(error: IndexError) -> Unanswered {
        Unanswered::Bad(error)
    }
}

/// Every result, or the first bad file, or every file any of them needs:
/// a step's files are asked for together, not one round trip each.
fn together<T>(
    results: impl IntoIterator<Item = Result<T, Unanswered>>,
) -> Result<Vec<T>, Unanswered> {
    let mut done = Vec::new();
    let mut needs: Vec<String> = Vec::new();
    for result in results {
        match result {
            Ok(value) => done.push(value),
            Err(Unanswered::Bad(error)) => return Err(Unanswered::Bad(error)),
            Err(Unanswered::Needs(names)) => {
                for name in names {
                    if !needs.contains(&name) {
                        needs.push(name);
                    }
                }
            }
        }
    }
    if needs.is_empty() {
        Ok(done)
    } else {
        Err(Unanswered::Needs(needs))
    }
}

/// Both results, or what [`together`] says of them.
fn both<A, B>(a: Result<A, Unanswered>, b: Result<B, Unanswered>) -> Result<(A, B), Unanswered> {
    match (a, b) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (a, b) => match together([a.map(|_| ()), b.map(|_| ())]) {
            Err(unanswered) => Err(unanswered),
            // Not reached: one of the two failed.
            Ok(_) => Err(bad_manifest("a step failed without saying why".into())),
        },
    }
}

/// The manifest is not what the format says: `what`.
fn manifest_error(what: String) -> IndexError {
    IndexError {
        file: format::MANIFEST.to_owned(),
        what,
    }
}

/// A query refused because the manifest is not what the format says.
fn bad_manifest(what: String) -> Unanswered {
    Unanswered::Bad(manifest_error(what))
}

/// One page of an answer, as the index holds it: how many entities match
/// in all, the offset of the next page, and this page's listings.
#[derive(Debug)]
pub struct Found {
    pub total: usize,
    pub next_offset: Option<usize>,
    pub listings: Vec<Listing<'static>>,
}

/// What the reader keeps of a page file.
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
    /// The digests of its files that the reader reads: its node file and
    /// its page file.
    node_file: Option<String>,
    page_file: Option<String>,
}

/// One site's index, open.
pub struct Reader {
    base_url: BaseUrl,
    total: usize,
    /// The digest of each chunk of rows.
    chunks: Vec<String>,
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

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("base_url", &self.base_url.as_str())
            .field("total", &self.total)
            .field("nodes", &self.nodes.len())
            .finish_non_exhaustive()
    }
}

impl Reader {
    /// Opens an index from its manifest's bytes ([`format::MANIFEST`]).
    pub fn open(manifest: &[u8]) -> Result<Reader, IndexError> {
        let bad = manifest_error;
        let manifest: Manifest = serde_json::from_slice(manifest)
            .map_err(|e| bad(format!("it is not an index: {e}")))?;
        if manifest.version != format::VERSION {
            return Err(bad(format!(
                "its format is {}, not {}",
                manifest.version,
                format::VERSION
            )));
        }
        if manifest.total > MAX_ENTITIES {
            return Err(bad(format!(
                "it counts {} entities, more than a reader searches ({MAX_ENTITIES})",
                manifest.total
            )));
        }
        let base_url = BaseUrl::as_written(&manifest.base_url)
            .map_err(|e| bad(format!("its baseUrl: {e}")))?;
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
            .map(|NodeEntry(key, leaf, rows, _, files)| {
                let files = NodeFiles::read(&files).ok_or_else(|| {
                    bad(format!(
                        "the files of node `{key}` are not named by digests"
                    ))
                })?;
                Ok(Node {
                    key: key.into_owned(),
                    leaf: leaf == 1,
                    rows,
                    node_file: files.node,
                    page_file: files.page,
                })
            })
            .collect::<Result<_, IndexError>>()?;
        let chunks: Vec<String> = manifest.chunks.into_iter().map(Cow::into_owned).collect();
        if let Some(chunk) = chunks.iter().find(|c| !format::is_digest(c)) {
            return Err(bad(format!(
                "its chunk `{}` is not named by a digest",
                chunk.escape_debug()
            )));
        }
        if chunks.len() != manifest.total.div_ceil(manifest.rows_per_file.max(1)) {
            return Err(bad(format!(
                "it names {} chunks of rows for {} entities, {} a chunk",
                chunks.len(),
                manifest.total,
                manifest.rows_per_file
            )));
        }
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
        Ok(Reader {
            base_url,
            total: manifest.total,
            chunks,
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

    /// The site's base URL, which an answer's links start with.
    pub fn base_url(&self) -> &BaseUrl {
        &self.base_url
    }

    /// How many entities the index holds.
    pub fn total(&self) -> usize {
        self.total
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

    fn file(&self, i: usize, files: &dyn Files) -> Result<Arc<OpenNode>, Unanswered> {
        if let Some(inline) = &self.inline {
            return (inline.get(i).cloned())
                .ok_or_else(|| bad_manifest(format!("it has no node file {i}")));
        }
        let name = self.nodes[i]
            .node_file
            .as_deref()
            .map(format::path)
            .ok_or_else(|| {
                bad_manifest(format!("it names no file of node `{}`", self.nodes[i].key))
            })?;
        cached(&self.nodes_cache, name, files, |file: format::NodeFile| {
            Arc::new(file.into())
        })
    }

    /// A chunk of rows, parsed once when it is read; a listing is made
    /// of a row only when an answer shows it.
    fn rows(&self, chunk: usize, files: &dyn Files) -> Result<Arc<Vec<Row>>, Unanswered> {
        let name = (self.chunk_path(chunk))
            .ok_or_else(|| bad_manifest(format!("it names no chunk {chunk} of rows")))?;
        cached(&self.rows_cache, name, files, Arc::new)
    }

    /// The path of a chunk of rows, where the manifest names it.
    fn chunk_path(&self, chunk: usize) -> Option<String> {
        self.chunks.get(chunk).map(|digest| format::path(digest))
    }

    /// The listing of `entity`, from its chunk of rows.
    fn listing(&self, entity: u32, chunk: &[Row]) -> Result<Listing<'static>, IndexError> {
        let at = entity as usize;
        let bad = |what: String| IndexError {
            file: self
                .chunk_path(at / self.rows_per_file)
                .unwrap_or_else(|| format::MANIFEST.to_owned()),
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
            id: Cow::Owned(id.to_string()),
            name: Cow::Owned(name.to_string()),
            kind: Cow::Owned(kind.clone()),
            summary: Cow::Owned(summary.to_string()),
            deprecated: self.deprecated.get(at) == Some(&true),
        })
    }

    /// The entities with a word that starts with `prefix`.
    fn prefix_matches(&self, prefix: &str, files: &dyn Files) -> Result<Matches, Unanswered> {
        let Some(i) = self.node(prefix) else {
            return Ok(Matches::Merged(Vec::new()));
        };
        let file = self.file(i, files)?;
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
        files: &dyn Files,
    ) -> Result<Matches, Unanswered> {
        let stemmed = near::stem(term).filter(|_| self.stem);
        let stemmed = stemmed.map(|stemmed| self.prefix_matches(&stemmed, files));
        let budget = near::typo_budget(term);
        let typos = self.typo_nodes(term, budget).into_iter().map(|(i, all)| {
            let file = self.file(i, files)?;
            Ok(if all {
                Matches::All(file)
            } else {
                Matches::words(file, |word| near::within_typos(term, word, budget))
            })
        });
        let parts = together(stemmed.into_iter().chain(typos))?;
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
    fn exact(&self, joined: &str, files: &dyn Files) -> Result<HashSet<u32>, Unanswered> {
        let mut found = HashSet::new();
        let Some(i) = self.node(joined) else {
            return Ok(found);
        };
        if !self.nodes[i].leaf && self.nodes[i].key != joined {
            return Ok(found);
        }
        let file = self.file(i, files)?;
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
    fn page(&self, term: &str, files: &dyn Files) -> Result<Option<Arc<Page>>, Unanswered> {
        let Some(i) = self.node(term) else {
            return Ok(None);
        };
        let node = &self.nodes[i];
        let small_rows = node.rows > 0 && node.rows <= self.rows_per_file;
        if self.inline.is_some() || node.key != term || small_rows {
            return Ok(None);
        }
        let Some(name) = node.page_file.as_deref().map(format::path) else {
            return Ok(None);
        };
        cached(&self.pages_cache, name, files, |file: PageFile| {
            Arc::new(Page {
                total: file.total,
                entities: file.rows.into_iter().map(|row| row.0).collect(),
            })
        })
        .map(Some)
    }

    /// Answers a checked query: one page of its matches, from the files
    /// `files` gives and those the caches hold.
    pub fn answer(&self, query: &Query, files: &dyn Files) -> Result<Found, Unanswered> {
        // A one-term query within the first page of a key: from the key's
        // page file, which the build ranked and counted.
        let keep = query.offset.saturating_add(query.limit);
        if let [term] = query.terms.as_slice()
            && keep <= crate::search::query::DEFAULT_LIMIT
            && let Some(page) = self.page(term, files)?
            && page.total > 0
        {
            let entities = page.entities.get(query.offset..).unwrap_or_default();
            let shown: Vec<u32> = entities.iter().copied().take(query.limit).collect();
            return self.respond(query, page.total, &shown, files);
        }
        let exact = self.exact(&query.joined(), files);
        let per_term = together(
            query
                .terms
                .iter()
                .map(|term| self.prefix_matches(term, files)),
        );
        let (exact, per_term) = both(exact, per_term)?;
        let mut buckets = self.rank(&per_term, &exact, false, keep);
        if buckets.iter().all(|b| b.size == 0) {
            let per_term = together(
                query
                    .terms
                    .iter()
                    .zip(&per_term)
                    .map(|(term, strict)| self.near_matches(term, strict, files)),
            )?;
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
        self.respond(query, total, &page, files)
    }

    /// The answer: `total` matches, and the listings of its page.
    fn respond(
        &self,
        query: &Query,
        total: usize,
        page: &[u32],
        files: &dyn Files,
    ) -> Result<Found, Unanswered> {
        let per_file = self.rows_per_file;
        let chunks = together(
            page.iter()
                .map(|&entity| self.rows(entity as usize / per_file, files)),
        )?;
        let listings = page
            .iter()
            .zip(&chunks)
            .map(|(&entity, chunk)| self.listing(entity, chunk))
            .collect::<Result<Vec<_>, _>>()?;
        let end = query.offset.saturating_add(query.limit).min(total);
        Ok(Found {
            total,
            next_offset: (end < total).then_some(end),
            listings,
        })
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

/// The file `name` from `cache`, or from `files`, parsed as `F`, opened
/// by `open` and kept.
fn cached<T: Clone, F: serde::de::DeserializeOwned>(
    cache: &Mutex<Cache<T>>,
    name: String,
    files: &dyn Files,
    open: impl FnOnce(F) -> T,
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
    // Read outside the lock: other requests go on meanwhile.
    let bytes = match files.read(&name) {
        Fetched::Bytes(bytes) => bytes,
        Fetched::Missing => {
            return Err(Unanswered::Bad(IndexError {
                file: name,
                what: "it is missing, not a file, or outside the site".into(),
            }));
        }
        Fetched::Later => return Err(Unanswered::Needs(vec![name])),
    };
    let len = bytes.len();
    let Some(content) = format::content(&name, &bytes) else {
        return Err(Unanswered::Bad(IndexError {
            file: name,
            what: format!(
                "it is not an index file: it does not call `{}` with its path and content",
                format::SCRIPT_CALL
            ),
        }));
    };
    let file = match serde_json::from_slice(content) {
        Ok(file) => open(file),
        Err(e) => {
            return Err(Unanswered::Bad(IndexError {
                file: name,
                what: format!("it is not what the index format says: {e}"),
            }));
        }
    };
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

    /// Each file a JSON number of `size` bytes (padded with spaces), the
    /// number in its name after its first letter.
    struct Padded {
        size: usize,
    }

    impl Files for Padded {
        fn read(&self, name: &str) -> Fetched {
            let mut bytes = Vec::new();
            format::script(name, &name.as_bytes()[1..], &mut bytes);
            bytes.resize(self.size.max(bytes.len()), b' ');
            Fetched::Bytes(bytes)
        }
    }

    /// The cache keeps at most its budget of bytes, the oldest read going
    /// first, and answers from a file too large to keep without keeping it.
    #[test]
    fn the_cache_keeps_at_most_its_bytes() {
        let cache: Mutex<Cache<usize>> = Mutex::default();
        let quarter = Padded {
            size: CACHED_BYTES / 4,
        };
        let read = |name: &str, files: &dyn Files| cached(&cache, name.into(), files, |n| n);
        for n in 0..6 {
            assert_eq!(read(&format!("f{n}"), &quarter).unwrap(), n);
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
        assert_eq!(read("f2", &CachedOnly).unwrap(), 2);
        read("f6", &quarter).unwrap();
        assert!(!cache.lock().unwrap().files.contains_key("f3"));
        assert!(matches!(
            read("f7", &CachedOnly),
            Err(Unanswered::Needs(names)) if names == ["f7"]
        ));
        let huge = Padded {
            size: CACHED_BYTES + 1,
        };
        assert_eq!(read("h7", &huge).unwrap(), 7);
        let kept = cache.lock().unwrap();
        assert!(!kept.files.contains_key("h7"));
        assert!(
            kept.files.contains_key("f6"),
            "the huge file flushed the cache"
        );
        assert!(kept.bytes <= CACHED_BYTES);
    }

    /// What a step needs is asked for at once, each file once; a bad file
    /// wins over files needed.
    #[test]
    fn a_step_asks_for_its_files_together() {
        let needs = |names: &[&str]| -> Result<(), Unanswered> {
            Err(Unanswered::Needs(
                names.iter().map(|n| n.to_string()).collect(),
            ))
        };
        let asked = together([needs(&["a", "b"]), Ok(()), needs(&["b", "c"])]);
        assert!(matches!(asked, Err(Unanswered::Needs(n)) if n == ["a", "b", "c"]));
        let bad = Err(Unanswered::Bad(IndexError {
            file: "x".into(),
            what: "bad".into(),
        }));
        assert!(matches!(
            together([needs(&["a"]), bad]),
            Err(Unanswered::Bad(_))
        ));
        assert!(matches!(
            both(needs(&["a"]), needs(&["a", "d"])),
            Err(Unanswered::Needs(n)) if n == ["a", "d"]
        ));
        assert!(matches!(both(Ok(1), Ok(2)), Ok((1, 2))));
    }
}
