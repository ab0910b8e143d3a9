//! Search: one exact semantics (`docs/search.md`), implemented here once.
//!
//! [`text`] holds the text rules, [`query`] the request, [`engine`] the
//! matching and order over the entities themselves. The prebuilt index
//! (`render::search_index`) is derived from the same [`engine::Searchable`]
//! values in the file format of [`format`], which [`reader`] reads for
//! `serve`; the reader and the JavaScript client are tested against this
//! module.
//!
//! Search depends on a [`Corpus`], not on the whole ontology: a build
//! makes it from the model, a server from the files the build wrote.

pub mod client;
pub mod engine;
pub mod format;
pub mod near;
pub mod postings;
pub mod query;
pub mod reader;
pub mod text;

pub use engine::{SearchTexts, Searchable, Suffixes, Tier};
pub use query::{Query, QueryError};

use crate::model::{BaseUrl, Entity, Ontology, OntologyMeta, Slug};
use rayon::prelude::*;
use std::borrow::Cow;
use std::sync::OnceLock;

/// What a search answer shows of one entity: enough to recognise it and to
/// follow it (`docs/search.md`). Borrowed from the entity where a build
/// makes it (a million entities' copies were a sixth of the build's peak
/// memory), owned where `serve` reads it from the index files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing<'a> {
    pub slug: Cow<'a, Slug>,
    pub id: Cow<'a, str>,
    pub name: Cow<'a, str>,
    /// What kind of entity it is, as its JSON-LD `@type` names it: the
    /// entity type or configured subtype (`CreateAction`), or a term's
    /// first `rdf:type`, compacted (`owl:Class`, `schema:Person`).
    pub kind: Cow<'a, str>,
    /// The start of its description ([`text::summary`]).
    pub summary: Cow<'a, str>,
    /// A deprecated term: its answer says so (`"deprecated": true`).
    pub deprecated: bool,
}

impl<'a> Listing<'a> {
    pub fn of(meta: &'a OntologyMeta, entity: &'a Entity) -> Listing<'a> {
        Listing {
            slug: Cow::Borrowed(&entity.slug),
            id: Cow::Borrowed(&entity.id),
            name: text::short_name(&entity.name),
            kind: meta.kind(entity),
            summary: text::summary(&entity.description),
            deprecated: entity.term.as_ref().is_some_and(|t| t.deprecated),
        }
    }
}

/// What search reads of a site, made once: each entity's listing and
/// searchable text, in slug order, and the sorted suffixes of all of them
/// (made on the first search: a build only needs the searchables).
#[derive(Debug, Clone, Default)]
pub struct Corpus<'a> {
    listings: Vec<Listing<'a>>,
    searchables: Vec<Searchable>,
    /// The stemmer of the site's language (`near::stemmer`), if it has one.
    stemmer: Option<&'static str>,
    suffixes: OnceLock<Suffixes>,
}

impl<'a> Corpus<'a> {
    /// The ontology's entities in rank order (`docs/search.md`), which is
    /// the order of a tier's matches: the index numbers them so, and a
    /// client orders matches by number.
    pub fn of(ontology: &'a Ontology) -> Corpus<'a> {
        let meta = &ontology.meta;
        let mut order: Vec<usize> = (0..ontology.entities.len()).collect();
        // The entities are in slug order, which breaks the last ties.
        order.par_sort_by_cached_key(|&p| text::rank_key(&ontology.entities[p].name));
        let (listings, searchables) = order
            .par_iter()
            .map(|&p| {
                let e = &ontology.entities[p];
                (Listing::of(meta, e), Searchable::of(e))
            })
            .unzip();
        Corpus::new(listings, searchables, near::stemmer(&meta.language))
    }

    /// A corpus of entities in rank order, one listing and one searchable
    /// text each, whose word forms `stemmer` finds.
    fn new(
        listings: Vec<Listing<'a>>,
        searchables: Vec<Searchable>,
        stemmer: Option<&'static str>,
    ) -> Corpus<'a> {
        assert_eq!(listings.len(), searchables.len());
        Corpus {
            listings,
            searchables,
            stemmer,
            suffixes: OnceLock::new(),
        }
    }

    pub fn listings(&self) -> &[Listing<'a>] {
        &self.listings
    }

    pub fn searchables(&self) -> &[Searchable] {
        &self.searchables
    }

    pub fn stemmer(&self) -> Option<&'static str> {
        self.stemmer
    }

    /// The entities that match every one of `terms` strictly, as a corpus
    /// of their own, in the same order: a query whose terms these are has
    /// the same strict answer in it as in the whole (a match matches
    /// every term), for the suffixes of a few entities instead of all.
    pub fn matching_every(&self, terms: &[String]) -> Corpus<'a> {
        let (listings, searchables) = self
            .listings
            .iter()
            .zip(&self.searchables)
            .filter(|(_, searchable)| terms.iter().all(|term| searchable.mask(term) != 0))
            .map(|(listing, searchable)| (listing.clone(), searchable.clone()))
            .unzip();
        Corpus::new(listings, searchables, self.stemmer)
    }
}

/// A site made ready for searching: its base URL, for the links of an
/// answer, and its corpus.
pub struct Searcher<'a> {
    pub base_url: &'a BaseUrl,
    /// Owned when made here; borrowed when a server keeps the corpus and
    /// makes a searcher per request.
    corpus: Cow<'a, Corpus<'a>>,
}

/// One page of the answer to a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// How many entities match in all.
    pub total: usize,
    /// Positions (in the rank-ordered entity list) of this page's entities.
    pub page: Vec<usize>,
    /// The offset of the next page, if there is one.
    pub next_offset: Option<usize>,
}

impl<'a> Searcher<'a> {
    pub fn new(ontology: &'a Ontology) -> Searcher<'a> {
        Searcher {
            base_url: &ontology.meta.base_url,
            corpus: Cow::Owned(Corpus::of(ontology)),
        }
    }

    /// A searcher over a corpus made earlier.
    pub fn with_corpus(base_url: &'a BaseUrl, corpus: &'a Corpus<'a>) -> Searcher<'a> {
        Searcher {
            base_url,
            corpus: Cow::Borrowed(corpus),
        }
    }

    pub fn corpus(&self) -> &Corpus<'a> {
        &self.corpus
    }

    pub fn searchables(&self) -> &[Searchable] {
        &self.corpus.searchables
    }

    pub fn listings(&self) -> &[Listing<'a>] {
        &self.corpus.listings
    }

    /// Makes what the first search would make, ahead of it.
    pub fn prepare(&self) -> &Suffixes {
        let corpus = &*self.corpus;
        corpus
            .suffixes
            .get_or_init(|| Suffixes::of(&corpus.searchables))
    }

    pub fn search(&self, query: &Query) -> Answer {
        let listings = &self.corpus.listings;
        let suffixes = self.prepare();
        let hits = engine::search(
            &self.corpus.searchables,
            suffixes,
            |i| listings[i].slug.as_str(),
            query,
            self.corpus.stemmer,
        );
        let end = query.offset.saturating_add(query.limit).min(hits.len());
        let page = hits.get(query.offset..end).unwrap_or_default().to_vec();
        Answer {
            total: hits.len(),
            page,
            next_offset: (end < hits.len()).then_some(end),
        }
    }
}
