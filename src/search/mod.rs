//! Search: one exact semantics (`docs/search.md`), implemented here once.
//!
//! [`text`] holds the text rules, [`query`] the request, [`engine`] the
//! matching and order over the entities themselves. The prebuilt index
//! (`render::search_index`) is derived from the same [`engine::Searchable`]
//! values, and the JavaScript client is tested against this module.

pub mod engine;
pub mod query;
pub mod text;

pub use engine::{Searchable, Tier};
pub use query::{Query, QueryError};

use crate::model::Ontology;
use rayon::prelude::*;
use std::borrow::Cow;

/// An ontology made ready for searching.
pub struct Searcher<'a> {
    pub ontology: &'a Ontology,
    /// Owned when made here; borrowed when a server keeps them beside its
    /// ontology and makes a searcher per request.
    searchables: Cow<'a, [Searchable]>,
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
        Searcher {
            ontology,
            searchables: Cow::Owned(ontology.entities.par_iter().map(Searchable::of).collect()),
        }
    }

    /// A searcher over searchables made earlier from the same ontology by
    /// [`Searcher::new`], in the same order.
    pub fn with_searchables(ontology: &'a Ontology, searchables: &'a [Searchable]) -> Searcher<'a> {
        assert_eq!(ontology.entities.len(), searchables.len());
        Searcher {
            ontology,
            searchables: Cow::Borrowed(searchables),
        }
    }

    pub fn searchables(&self) -> &[Searchable] {
        &self.searchables
    }

    /// The searchables, to keep beside the ontology.
    pub fn into_searchables(self) -> Vec<Searchable> {
        self.searchables.into_owned()
    }

    pub fn search(&self, query: &Query) -> Answer {
        let entities = &self.ontology.entities;
        let hits = engine::search(&self.searchables, |i| entities[i].slug.as_str(), query);
        let end = query.offset.saturating_add(query.limit).min(hits.len());
        let page = hits.get(query.offset..end).unwrap_or_default().to_vec();
        Answer {
            total: hits.len(),
            page,
            next_offset: (end < hits.len()).then_some(end),
        }
    }
}
