//! Search: one exact semantics (`docs/search.md`), implemented here once.
//!
//! [`text`] holds the text rules, [`query`] the request, [`engine`] the
//! matching and order over the entities themselves. The prebuilt index
//! (`render::search_index`) is derived from the same [`engine::Searchable`]
//! values, and the JavaScript client is tested against this module.

pub mod engine;
pub mod query;
pub mod text;

pub use engine::{Searchable, Suffixes, Tier};
pub use query::{Query, QueryError};

use crate::model::Ontology;
use rayon::prelude::*;
use std::borrow::Cow;
use std::sync::OnceLock;

/// What search reads of an ontology, made once: each entity's searchable
/// text, and the sorted suffixes of all of them (made on the first search:
/// a build only needs the searchables).
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    searchables: Vec<Searchable>,
    suffixes: OnceLock<Suffixes>,
}

/// An ontology made ready for searching.
pub struct Searcher<'a> {
    pub ontology: &'a Ontology,
    /// Owned when made here; borrowed when a server keeps the corpus beside
    /// its ontology and makes a searcher per request.
    corpus: Cow<'a, Corpus>,
}

/// One page of the answer to a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// How many entities match in all.
    pub total: usize,
    /// Positions (in the slug-sorted entity list) of this page's entities.
    pub page: Vec<usize>,
    /// The offset of the next page, if there is one.
    pub next_offset: Option<usize>,
}

impl<'a> Searcher<'a> {
    pub fn new(ontology: &'a Ontology) -> Searcher<'a> {
        let corpus = Corpus {
            searchables: ontology.entities.par_iter().map(Searchable::of).collect(),
            suffixes: OnceLock::new(),
        };
        Searcher {
            ontology,
            corpus: Cow::Owned(corpus),
        }
    }

    /// A searcher over a corpus made earlier from the same ontology by
    /// [`Searcher::new`].
    pub fn with_corpus(ontology: &'a Ontology, corpus: &'a Corpus) -> Searcher<'a> {
        assert_eq!(ontology.entities.len(), corpus.searchables.len());
        Searcher {
            ontology,
            corpus: Cow::Borrowed(corpus),
        }
    }

    pub fn searchables(&self) -> &[Searchable] {
        &self.corpus.searchables
    }

    /// The corpus, to keep beside the ontology.
    pub fn into_corpus(self) -> Corpus {
        self.corpus.into_owned()
    }

    /// Makes what the first search would make, ahead of it.
    pub fn prepare(&self) -> &Suffixes {
        let corpus = &*self.corpus;
        corpus
            .suffixes
            .get_or_init(|| Suffixes::of(&corpus.searchables))
    }

    pub fn search(&self, query: &Query) -> Answer {
        let entities = &self.ontology.entities;
        let suffixes = self.prepare();
        let hits = engine::search(
            &self.corpus.searchables,
            suffixes,
            |i| entities[i].slug.as_str(),
            query,
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
