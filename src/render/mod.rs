//! The render stage: every file of a site, as bytes, from the model.
//!
//! A site is a flat list of `Document`s. Each renders itself into a buffer
//! that the caller owns, so the writer can reuse one buffer a thread across
//! millions of entity files. Nothing here touches the disk.

mod host;
mod info;
mod json;
mod jsonld;
mod routes;
mod search_index;

pub use routes::{ENDPOINTS, Endpoint, Serves};

use crate::model::{Entity, Ontology};
use rayon::prelude::*;
use std::collections::BTreeMap;

/// File names of the site-wide documents, relative to the site root.
pub mod files {
    /// The information document that `/` answers.
    pub const INFO: &str = "api.json";
    pub const INDEX: &str = "index.json";
    pub const INDEX_LD: &str = "index.jsonld";
    /// Every entity with its full data; extensionless, as the API names it.
    pub const ALL: &str = "all";
    pub const CONTEXT: &str = "context.jsonld";
    pub const SEARCH_INDEX: &str = "search-index.json";
    /// The RFC 9457 problem document for an unknown path.
    pub const NOT_FOUND: &str = "404.json";
    /// Cloudflare Pages serves `index.html` with status 200 for unknown
    /// paths unless this file exists.
    pub const NOT_FOUND_PAGE: &str = "404.html";
    pub const HEADERS: &str = "_headers";
    pub const REDIRECTS: &str = "_redirects";
}

/// What every document of one site is rendered with.
pub struct Site<'a> {
    pub ontology: &'a Ontology,
    /// Every pass-through field name and whether any value of it is
    /// structured (an object, or an array holding one), which JSON-LD must
    /// then keep as a JSON literal instead of dropping its unknown keys.
    extra_terms: BTreeMap<&'a str, bool>,
}

impl<'a> Site<'a> {
    pub fn new(ontology: &'a Ontology) -> Site<'a> {
        let mut extra_terms: BTreeMap<&str, bool> = BTreeMap::new();
        for entity in &ontology.entities {
            for (key, value) in &entity.extra {
                *extra_terms.entry(key.as_str()).or_default() |= is_structured(value);
            }
        }
        Site {
            ontology,
            extra_terms,
        }
    }

    fn url(&self, path: &str) -> String {
        self.ontology.meta.base_url.join(path)
    }
}

fn is_structured(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Object(_) => true,
        serde_json::Value::Array(items) => items.iter().any(is_structured),
        _ => false,
    }
}

/// One file of the site.
#[derive(Debug, Clone, Copy)]
pub enum Document<'a> {
    Info,
    Index,
    IndexLd,
    All,
    Context,
    SearchIndex,
    NotFound,
    NotFoundPage,
    Headers,
    Redirects,
    Entity(&'a Entity),
    EntityLd(&'a Entity),
}

impl Document<'_> {
    /// The site-wide documents, the largest first so that a parallel writer
    /// starts them before the many small entity files.
    pub const SITE_WIDE: [Document<'static>; 10] = [
        Document::All,
        Document::SearchIndex,
        Document::IndexLd,
        Document::Index,
        Document::Info,
        Document::Context,
        Document::NotFound,
        Document::NotFoundPage,
        Document::Headers,
        Document::Redirects,
    ];

    /// The file's path relative to the site root.
    pub fn path(&self) -> String {
        match self {
            Document::Info => files::INFO.to_owned(),
            Document::Index => files::INDEX.to_owned(),
            Document::IndexLd => files::INDEX_LD.to_owned(),
            Document::All => files::ALL.to_owned(),
            Document::Context => files::CONTEXT.to_owned(),
            Document::SearchIndex => files::SEARCH_INDEX.to_owned(),
            Document::NotFound => files::NOT_FOUND.to_owned(),
            Document::NotFoundPage => files::NOT_FOUND_PAGE.to_owned(),
            Document::Headers => files::HEADERS.to_owned(),
            Document::Redirects => files::REDIRECTS.to_owned(),
            Document::Entity(e) => json::entity_file(e),
            Document::EntityLd(e) => jsonld::entity_file(e),
        }
    }

    /// Renders the document into `out`, which is cleared first.
    pub fn render(&self, site: &Site, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
        out.clear();
        match self {
            Document::Info => info::render(site, out)?,
            Document::Index => json::index(site, out)?,
            Document::IndexLd => jsonld::index(site, out)?,
            Document::All => json::all(site, out)?,
            Document::Context => jsonld::context(site, out)?,
            Document::SearchIndex => search_index::render(site, out)?,
            Document::NotFound => info::not_found(site, out)?,
            Document::NotFoundPage => info::not_found_page(site, out)?,
            Document::Headers => host::headers(out),
            Document::Redirects => host::redirects(out),
            Document::Entity(e) => json::entity(site, e, out)?,
            Document::EntityLd(e) => jsonld::entity(site, e, out)?,
        }
        out.push(b'\n');
        Ok(())
    }
}

/// Every document of the site, as a parallel iterator: the site-wide ones,
/// then a `.json` and a `.jsonld` for each entity.
pub fn documents<'a>(site: &Site<'a>) -> impl ParallelIterator<Item = Document<'a>> + 'a {
    let per_entity = site
        .ontology
        .entities
        .par_iter()
        .flat_map_iter(|e| [Document::Entity(e), Document::EntityLd(e)]);
    Document::SITE_WIDE.into_par_iter().chain(per_entity)
}

/// How many files `documents` yields for `ontology`.
pub fn document_count(ontology: &Ontology) -> usize {
    Document::SITE_WIDE.len() + 2 * ontology.entities.len()
}
