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

/// An ontology made ready for searching.
pub struct Searcher<'a> {
    pub ontology: &'a Ontology,
    searchables: Vec<Searchable>,
    slugs: Vec<&'a str>,
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
            searchables: ontology.entities.par_iter().map(Searchable::of).collect(),
            slugs: ontology.entities.iter().map(|e| e.slug.as_str()).collect(),
        }
    }

    pub fn searchables(&self) -> &[Searchable] {
        &self.searchables
    }

    pub fn search(&self, query: &Query) -> Answer {
        let hits = engine::search(&self.searchables, &self.slugs, query);
        let end = query.offset.saturating_add(query.limit).min(hits.len());
        let page = hits.get(query.offset..end).unwrap_or_default().to_vec();
        Answer {
            total: hits.len(),
            page,
            next_offset: (end < hits.len()).then_some(end),
        }
    }
}
