//! The one table of an entity's representations.
//!
//! Every list of formats the site states comes from `ENTITY_FORMATS`: the
//! entity files the build writes, the route table (and from it `_headers`,
//! `_routes.json` and the endpoint list), `openapi.json`, each entity's
//! `links`, the pages' `<link rel="alternate">`, the search index's link
//! templates (which `search.js` reads), and content negotiation in `serve`
//! and in the hosts' handlers. Adding a representation is one row here and
//! one arm in `render::entity_document` (a `Representation` the compiler
//! then asks for).

use super::media;
use crate::model::{BaseUrl, Entity, Slug};
use serde::Serialize;

/// What an entity's document is, which `render` turns into the renderer
/// that writes it: data, not a function pointer, so that the contract
/// never points back into the code that renders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Representation {
    Json,
    JsonLd,
    Turtle,
    NTriples,
    Html,
}

/// One representation of every entity: a file `{slug}.{extension}`.
#[derive(Debug)]
pub struct EntityFormat {
    /// The file extension, which is also the key of the file's URL in an
    /// entity's `links`.
    pub extension: &'static str,
    /// Its endpoint, as the API documents it.
    pub path: &'static str,
    pub summary: &'static str,
    /// The media type it is served and negotiated as.
    pub media_type: &'static str,
    /// Whether hosts must be told the media type: their guess from the
    /// extension is wrong or missing.
    pub declare_type: bool,
    /// Its name for people, as in "One entity, Turtle".
    pub title: &'static str,
    /// The JSON Schema in `openapi.json` its documents follow, if any.
    pub schema: Option<&'static str>,
    /// Whether it states the entity's RDF description.
    pub rdf: bool,
    pub representation: Representation,
}

impl EntityFormat {
    /// The entity's file of this format, relative to the site root.
    pub fn file(&self, entity: &Entity) -> String {
        self.file_of(&entity.slug)
    }

    pub fn file_of(&self, slug: &Slug) -> String {
        self.file_name(slug).to_string()
    }

    /// The same file name, written where it is displayed.
    pub fn file_name<'a>(&'a self, slug: &'a Slug) -> impl std::fmt::Display + 'a {
        FileName(slug, self.extension)
    }
}

/// The file of an entity's plain JSON, which its other documents link.
pub fn json_file(entity: &Entity) -> String {
    format!("{}.json", entity.slug)
}

/// The absolute URLs of an entity's documents, one per entity format,
/// keyed by extension, as an entity's `links` and a search answer's items
/// state them.
pub struct Links<'a> {
    base_url: &'a BaseUrl,
    slug: &'a Slug,
}

impl<'a> Links<'a> {
    pub fn of(base_url: &'a BaseUrl, entity: &'a Entity) -> Links<'a> {
        Links::at(base_url, &entity.slug)
    }

    pub fn at(base_url: &'a BaseUrl, slug: &'a Slug) -> Links<'a> {
        Links { base_url, slug }
    }
}

impl Serialize for Links<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        // Written straight into the output: a search answer has a hundred
        // entities of five links each, and `serve` makes one per request.
        let mut map = serializer.serialize_map(Some(ENTITY_FORMATS.len()))?;
        for format in ENTITY_FORMATS {
            let url = self.base_url.url_of(format.file_name(self.slug));
            map.serialize_entry(format.extension, &format_args!("{url}"))?;
        }
        map.end()
    }
}

/// An entity's file name: its slug, a dot, the format's extension.
struct FileName<'a>(&'a Slug, &'static str);

impl std::fmt::Display for FileName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// Every representation, in the order of preference when a client accepts
/// any: the plain JSON the API is built around first.
pub const ENTITY_FORMATS: &[EntityFormat] = &[
    EntityFormat {
        extension: "json",
        path: "/{slug}.json",
        summary: "One entity, JSON",
        media_type: media::JSON,
        declare_type: false,
        title: "JSON",
        schema: Some("Entity"),
        rdf: false,
        representation: Representation::Json,
    },
    EntityFormat {
        extension: "jsonld",
        path: "/{slug}.jsonld",
        summary: "One entity, JSON-LD",
        media_type: media::JSON_LD,
        declare_type: true,
        title: "JSON-LD",
        schema: None,
        rdf: true,
        representation: Representation::JsonLd,
    },
    EntityFormat {
        extension: "ttl",
        path: "/{slug}.ttl",
        summary: "One entity, Turtle",
        media_type: media::TURTLE,
        declare_type: true,
        title: "Turtle",
        schema: None,
        rdf: true,
        representation: Representation::Turtle,
    },
    EntityFormat {
        extension: "nt",
        path: "/{slug}.nt",
        summary: "One entity, N-Triples",
        media_type: media::N_TRIPLES,
        declare_type: true,
        title: "N-Triples",
        schema: None,
        rdf: true,
        representation: Representation::NTriples,
    },
    EntityFormat {
        extension: "html",
        path: "/{slug}.html",
        summary: "One entity, HTML (the entity page)",
        media_type: media::HTML,
        declare_type: false,
        title: "HTML",
        schema: None,
        rdf: false,
        representation: Representation::Html,
    },
];
