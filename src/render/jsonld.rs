//! The JSON-LD documents and the context they share.
//!
//! Every JSON-LD document names the site's own context by absolute URL, so
//! a processor never needs schema.org's remote context. The context maps
//! schema.org terms as schema.org's own context does (`http://schema.org/`),
//! ontosite's terms (`slug`, pass-through fields) into a namespace of the
//! site, and nothing else: there is no `@vocab`, so a key the context does
//! not define is dropped by a processor instead of becoming a made-up triple.

use super::context::Context;
use super::error::RenderError;
use crate::model::Entity;
use crate::model::namespaces::{FOAF, RDF};
use crate::site::files;
use crate::site::formats::ENTITY_FORMATS;
use crate::site::pages::{self, Neighbours, Paged};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::rdf::VOID;

pub fn context(site: &Context, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    let meta = &site.ontology.meta;
    let mut terms = Map::new();
    terms.insert("@version".into(), json!(1.1));
    terms.insert("schema".into(), json!("http://schema.org/"));
    terms.insert("ontosite".into(), json!(site.vocabulary()));
    terms.insert("void".into(), json!(VOID));
    terms.insert(meta.entity_type.clone(), json!(meta.entity_type_iri));
    for term in ["ItemList", "ListItem"] {
        terms.insert(term.into(), json!(format!("schema:{term}")));
    }
    for term in [
        "identifier",
        "name",
        "description",
        "position",
        "numberOfItems",
    ] {
        terms.insert(term.into(), json!(format!("schema:{term}")));
    }
    terms.insert("url".into(), json!({"@id": "schema:url", "@type": "@id"}));
    terms.insert("item".into(), json!({"@id": "schema:item", "@type": "@id"}));
    terms.insert(
        "itemListElement".into(),
        json!({"@id": "schema:itemListElement"}),
    );
    terms.insert("slug".into(), json!("ontosite:slug"));
    if site.own_iris {
        terms.insert(
            "isPrimaryTopicOf".into(),
            json!({"@id": format!("{FOAF}isPrimaryTopicOf"), "@type": "@id"}),
        );
    }
    // Configured subtypes and the terms entity properties take as values
    // are schema.org terms; the properties take terms, not strings.
    let subtype_terms = meta.subtypes.iter().flat_map(|s| s.types.values());
    let value_terms = meta.entity_properties.iter().map(|(_, value)| value);
    for term in subtype_terms.chain(value_terms) {
        terms.insert(term.clone(), json!(format!("schema:{term}")));
    }
    for (property, _) in &meta.entity_properties {
        terms.insert(
            property.clone(),
            json!({"@id": format!("schema:{property}"), "@type": "@vocab"}),
        );
    }
    for (&key, &structured) in &site.extra_terms {
        let iri = format!("ontosite:{key}");
        let term = if meta.sibling_linked_by(key).is_some() {
            // Values are IRIs of a sibling's entities: links, not strings.
            json!({"@id": iri, "@type": "@id"})
        } else if structured {
            json!({"@id": iri, "@type": "@json"})
        } else {
            json!(iri)
        };
        terms.insert(key.to_owned(), term);
    }
    serde_json::to_writer_pretty(out, &json!({ "@context": terms }))
}

#[derive(Serialize)]
struct EntityLd<'a> {
    #[serde(rename = "@context", skip_serializing_if = "Option::is_none")]
    context: Option<String>,
    #[serde(rename = "@id")]
    id: String,
    #[serde(rename = "@type")]
    kind: &'a str,
    identifier: &'a str,
    name: &'a str,
    description: &'a str,
    slug: &'a str,
    url: String,
    /// `foaf:isPrimaryTopicOf`, where the input names it by its own IRI.
    #[serde(rename = "isPrimaryTopicOf", skip_serializing_if = "Option::is_none")]
    primary_topic_of: Option<String>,
    #[serde(flatten)]
    properties: Map<String, Value>,
    #[serde(flatten)]
    extra: &'a Map<String, Value>,
}

impl<'a> EntityLd<'a> {
    fn of(site: &'a Context, entity: &'a Entity, context: Option<String>) -> EntityLd<'a> {
        EntityLd {
            context,
            id: entity.iri(&site.ontology.meta.base_url),
            kind: site.ontology.meta.jsonld_type(entity),
            identifier: &entity.id,
            name: &entity.name,
            description: &entity.description,
            slug: entity.slug.as_str(),
            url: site.url(&crate::site::formats::json_file(entity)),
            primary_topic_of: super::rdf::primary_topic_of(site, entity),
            properties: site
                .ontology
                .meta
                .entity_properties
                .iter()
                .map(|(property, value)| (property.clone(), json!(value)))
                .collect(),
            extra: &entity.extra,
        }
    }
}

/// An entity's JSON-LD. A term's is its RDF as oxjsonld writes it (its
/// triples under `@graph`, the prefixes it uses as context): the source's
/// own terms, not the site's context, name what it states.
pub fn entity(site: &Context, entity: &Entity, out: &mut Vec<u8>) -> Result<(), RenderError> {
    if entity.term.is_some() {
        let triples = super::rdf::document_triples(site, entity)?;
        return super::rdf::write(site, super::rdf::Syntax::JsonLd, &triples, out);
    }
    Ok(serde_json::to_writer(
        out,
        &EntityLd::of(site, entity, Some(site.url(files::CONTEXT))),
    )?)
}

/// An entry of the list. Of an entity of the input, the entry states its
/// type, identifier, name and URL, as the entity's documents do; of a term
/// of an ontology source, whose documents state only what the source does,
/// the entry names the term's name and URL as the entry's own (`ListItem`
/// is a schema.org Thing), so the list says nothing of the term that the
/// term does not. (The list said four more triples of each term than its
/// documents: a client dereferencing `/person` got 7, the dump held 11.)
#[derive(Serialize)]
struct ListItem<'a> {
    #[serde(rename = "@id")]
    id: String,
    #[serde(rename = "@type")]
    kind: &'static str,
    position: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    item: EntityRef<'a>,
}

/// The entity an entry names: a term by its IRI alone (the context types
/// `item` as an IRI, so the list compacts back to itself), an entity of
/// the input with its summary.
#[derive(Serialize)]
#[serde(untagged)]
enum EntityRef<'a> {
    Iri(String),
    Summary(Summary<'a>),
}

#[derive(Serialize)]
struct Summary<'a> {
    #[serde(rename = "@id")]
    id: String,
    #[serde(rename = "@type")]
    kind: &'a str,
    identifier: &'a str,
    name: &'a str,
    url: String,
}

/// The items of the entity list, `start..end` of the entities,
/// serialised as they are written.
struct Elements<'s>(&'s Context<'s>, std::ops::Range<usize>);
impl Serialize for Elements<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let site = self.0;
        let entities = &site.ontology.entities[self.1.clone()];
        serializer.collect_seq(
            entities
                .iter()
                .zip(self.1.start + 1..)
                .map(|(e, position)| {
                    let url = site.url(&crate::site::formats::json_file(e));
                    let term = e.term.is_some();
                    ListItem {
                        id: super::rdf::list_item_iri(site, position),
                        kind: "ListItem",
                        position,
                        name: term.then_some(e.name.as_str()),
                        url: term.then(|| url.clone()),
                        item: if term {
                            EntityRef::Iri(e.iri(&site.ontology.meta.base_url))
                        } else {
                            EntityRef::Summary(Summary {
                                id: e.iri(&site.ontology.meta.base_url),
                                kind: site.ontology.meta.jsonld_type(e),
                                identifier: &e.id,
                                name: &e.name,
                                url,
                            })
                        },
                    }
                }),
        )
    }
}
/// A link to another document, which JSON-LD reads as an IRI.
#[derive(Serialize)]
struct Link {
    #[serde(rename = "@id")]
    id: String,
}
#[derive(Serialize)]
struct View {
    #[serde(rename = "@id")]
    id: String,
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(rename = "hydra:first")]
    first: Link,
    #[serde(rename = "hydra:previous", skip_serializing_if = "Option::is_none")]
    previous: Option<Link>,
    #[serde(rename = "hydra:next", skip_serializing_if = "Option::is_none")]
    next: Option<Link>,
    #[serde(rename = "hydra:last")]
    last: Link,
}
#[derive(Serialize)]
struct ItemListDocument<'s> {
    #[serde(rename = "@context")]
    context: Value,
    #[serde(rename = "@id")]
    id: String,
    #[serde(rename = "@type")]
    kind: &'static str,
    name: &'s str,
    #[serde(rename = "numberOfItems")]
    number_of_items: usize,
    #[serde(rename = "itemListElement")]
    elements: Elements<'s>,
    #[serde(rename = "hydra:view", skip_serializing_if = "Option::is_none")]
    view: Option<View>,
}

/// `index.jsonld`, the list as a schema.org `ItemList`; with `page` (from
/// 1), one of its pages: the same list with that page's items, and a Hydra
/// `PartialCollectionView` (the page's own IRI) that links the first,
/// previous, next and last pages. All pages together state what
/// `index.jsonld` states, and the views.
pub fn entity_list(
    site: &Context,
    page: Option<usize>,
    framed: super::json::Framed,
    out: impl std::io::Write,
) -> Result<(), serde_json::Error> {
    let entities = site.ontology.entities.len();
    let link = |path: &str| Link { id: site.url(path) };
    let (context, range, view) = match page {
        None => (json!(site.url(files::CONTEXT)), 0..entities, None),
        Some(number) => {
            let around = Neighbours::of(Paged::ListLd, number, pages::count(entities));
            let view = View {
                id: site.url(&Paged::ListLd.file(number)),
                kind: "hydra:PartialCollectionView",
                first: link(&around.first),
                previous: around.previous.as_deref().map(link),
                next: around.next.as_deref().map(link),
                last: link(&around.last),
            };
            let context = json!([site.url(files::CONTEXT), { "hydra": HYDRA }]);
            (context, pages::range(number, entities), Some(view))
        }
    };
    let range = match framed {
        super::json::Framed::Whole => range,
        super::json::Framed::Empty => range.start..range.start,
    };
    serde_json::to_writer(
        out,
        &ItemListDocument {
            context,
            id: site.url(super::rdf::INDEX),
            kind: "ItemList",
            name: &site.ontology.meta.name,
            number_of_items: entities,
            elements: Elements(site, range),
            view,
        },
    )
}

/// What a key of a term's plain JSON means, read with `json-context.jsonld`.
pub enum TermKey {
    /// The term's IRI: the subject, as in its `.jsonld`.
    Subject,
    /// Its `rdf:type`s, the same triples as its `.jsonld` states.
    Types,
    /// The API's view, as a JSON literal: which source predicate each
    /// value came from is its `.jsonld`'s to say, so the plain JSON claims
    /// no triple of the ontology's.
    View,
    /// A number or flag of the API's view.
    Value,
}

/// The keys a term's plain JSON adds to an entity's, what each means read
/// as linked data, and what the vocabulary says of those it mints. A
/// client that expands the plain JSON in safe mode (jsonld.js) needs every
/// key defined: `ancestors` failed on every schema.org term.
pub const TERM_KEYS: &[(&str, TermKey, &str)] = &[
    ("iri", TermKey::Subject, ""),
    ("types", TermKey::Types, ""),
    (
        "labels",
        TermKey::View,
        "Every name of the term, each with its language, as the API lists them (a JSON literal; its RDF document states each with its predicate).",
    ),
    (
        "descriptions",
        TermKey::View,
        "Every description of the term, each with its language (a JSON literal; its RDF document states each with its predicate).",
    ),
    (
        "synonyms",
        TermKey::View,
        "Every synonym of the term with its scope and type (a JSON literal; its RDF document states each with its predicate and axiom).",
    ),
    (
        "alternativeIds",
        TermKey::View,
        "The IDs the term was known by before (a JSON literal).",
    ),
    (
        "parents",
        TermKey::View,
        "The term's parents as the API lists them, with their names and URLs (a JSON literal; its RDF document states the parent statements).",
    ),
    (
        "children",
        TermKey::View,
        "The first 1,000 terms whose parent the term is (a JSON literal).",
    ),
    (
        "childrenTotal",
        TermKey::Value,
        "How many children the term has.",
    ),
    (
        "ancestors",
        TermKey::View,
        "The term's nearest ancestors, nearest first (a JSON literal).",
    ),
    (
        "ancestorsComplete",
        TermKey::Value,
        "Whether `ancestors` holds every ancestor of the term.",
    ),
    (
        "linkedFrom",
        TermKey::View,
        "The first 1,000 published terms that state something of the term (a JSON literal).",
    ),
    (
        "linkedFromTotal",
        TermKey::Value,
        "How many published terms state something of the term.",
    ),
    (
        "deprecated",
        TermKey::Value,
        "Whether the term is deprecated (its RDF document states owl:deprecated where the source does).",
    ),
    (
        "replacedBy",
        TermKey::View,
        "The terms that replace a deprecated term (a JSON literal).",
    ),
    (
        "consider",
        TermKey::View,
        "The terms to consider instead of a deprecated term that no one term replaces (a JSON literal; its RDF document states oboInOwl:consider as the source does).",
    ),
];

/// The Hydra Core vocabulary, whose `PartialCollectionView` links a
/// list's pages.
const HYDRA: &str = "http://www.w3.org/ns/hydra/core#";

/// The context of the plain JSON documents, which every `.json` response
/// names in its `Link` header: the site's context, and the plain keys. Read
/// with it, a plain entity states what its `.jsonld` states, except: its
/// subject is a blank node (a plain document carries no `@id`), its type is
/// the ontology's entity type (subtypes are JSON-LD only), it lacks the
/// properties `entityProperties` adds, and it also states the URLs of its
/// other documents (`links.jsonld`, `links.ttl`, ...).
pub fn json_context(site: &Context, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    let mut local = Map::new();
    local.insert("@version".into(), json!(1.1));
    local.insert("id".into(), json!("schema:identifier"));
    local.insert("type".into(), json!("@type"));
    local.insert("links".into(), json!("@nest"));
    if site.has_terms {
        for (key, meaning, _) in TERM_KEYS {
            let definition = match meaning {
                TermKey::Subject => json!("@id"),
                TermKey::Types => json!({ "@id": format!("{RDF}type"), "@type": "@id" }),
                TermKey::View => json!({ "@id": format!("ontosite:{key}"), "@type": "@json" }),
                TermKey::Value => json!(format!("ontosite:{key}")),
            };
            local.insert((*key).into(), definition);
        }
    }
    // `links` has a URL per entity format: the plain JSON's is schema:url
    // (as in the JSON-LD), the others ontosite's terms.
    for format in ENTITY_FORMATS {
        let id = if format.extension == "json" {
            "schema:url".to_owned()
        } else {
            format!("ontosite:{}", format.extension)
        };
        local.insert(
            format.extension.into(),
            json!({ "@id": id, "@type": "@id" }),
        );
    }
    serde_json::to_writer_pretty(
        out,
        &json!({ "@context": [site.url(files::CONTEXT), local] }),
    )
}
