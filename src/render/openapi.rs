//! `openapi.json`: the API described in OpenAPI 3.1, from the same route
//! table as the host files, with JSON Schemas (2020-12) for every JSON
//! document the site answers with. The tests validate the generated
//! documents against these schemas, so the description cannot drift from
//! what is published.

use super::context::Context;
use crate::search::query::{DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET, MAX_TERM_CHARS, MAX_TERMS};
use crate::search::text::{NAME_CHARS, SUMMARY_CHARS};
use crate::site::formats::{ENTITY_FORMATS, Representation};
use crate::site::negotiation;
use crate::site::pages::PAGE_ENTITIES;
use crate::site::routes::{
    CHANGE_LOG_ENDPOINT, Endpoint, RELEASE_LIST_ENDPOINT, Serves, endpoints, media,
};
use serde_json::{Map, Value, json};

/// A string that is an IRI or URL.
fn uri() -> Value {
    json!({ "type": "string", "format": "uri" })
}

/// A string, with nothing more said of it.
fn text() -> Value {
    json!({ "type": "string" })
}

/// The schemas, by the name the tests validate documents against.
fn schemas(site: &Context) -> Value {
    let mut schemas = common_schemas(site);
    if site.own_iris {
        schemas["Entity"]["properties"]["iri"] = json!({
            "description": "The IRI the input gives the entity, where it gives one; its documents are still at {base}/{slug}.",
            "type": "string",
            "format": "uri"
        });
    }
    if site.has_terms {
        add_term_schemas(&mut schemas);
    }
    add_entity_file_schemas(site, &mut schemas);
    add_release_schemas(site, &mut schemas);
    if site.release.is_some() {
        schemas["Info"]["properties"]["release"] = json!({
            "type": "object",
            "description": "The release this site publishes, and the list of every release the site keeps.",
            "required": ["version", "releases"],
            "properties": {
                "version": { "type": "string" },
                "releases": { "type": "string", "format": "uri", "description": "The list of releases, JSON (/releases/index.json)." }
            },
            "additionalProperties": false
        });
    }
    schemas
}

/// Every endpoint `openapi.json` describes on this site, in its order:
/// the route table's, then those of releases it has. The front page lists
/// the same.
pub(super) fn site_endpoints(site: &Context) -> impl Iterator<Item = &'static Endpoint> {
    endpoints().iter().chain(release_endpoints(site))
}

/// The endpoints of the release documents this site has: the release
/// list on the current site of one that keeps releases, the change log on
/// a release with one before it.
fn release_endpoints(site: &Context) -> impl Iterator<Item = &'static Endpoint> {
    [
        (&RELEASE_LIST_ENDPOINT, site.has_release_list()),
        (&CHANGE_LOG_ENDPOINT, site.has_change_log()),
    ]
    .into_iter()
    .filter_map(|(endpoint, has)| has.then_some(endpoint))
}

/// The schemas of the release list and the change log, where the site has
/// them ([`release_endpoints`]), as `render::releases` writes them.
fn add_release_schemas(site: &Context, schemas: &mut Value) {
    let (list, change_log) = (site.has_release_list(), site.has_change_log());
    if !list && !change_log {
        return;
    }
    let (uri, text) = (uri(), text());
    let kinds = crate::changes::KINDS;
    schemas["ChangeCounts"] = json!({
        "type": "object",
        "description": "How many changes of each kind a release made.",
        "required": kinds,
        "properties": kinds.iter().map(|k| ((*k).to_owned(), json!({ "type": "integer", "minimum": 0 }))).collect::<Map<_, _>>(),
        "additionalProperties": false
    });
    if list {
        schemas["ReleaseList"] = json!({
            "type": "object",
            "description": "Every release the site keeps, newest first.",
            "required": ["current", "url", "releases"],
            "properties": {
                "current": { "type": "string", "description": "The version the site's root publishes." },
                "url": uri,
                "releases": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["version", "url", "entities", "sources"],
                        "properties": {
                            "version": text,
                            "date": text,
                            "versionIri": uri,
                            "url": { "type": "string", "format": "uri", "description": "The release's root, where its own API answers." },
                            "entities": { "type": "integer", "minimum": 0 },
                            "previous": { "type": "string", "description": "The release before it." },
                            "changes": { "$ref": "#/components/schemas/ChangeCounts" },
                            "changeLog": { "type": "string", "format": "uri", "description": "Its change log, JSON." },
                            "sources": { "type": "string", "description": "The BLAKE3 of the release's input, hexadecimal." }
                        },
                        "additionalProperties": false
                    }
                }
            },
            "additionalProperties": false
        });
    }
    if change_log {
        // A change names its term as `changes::Named` does, with what it
        // says of it besides.
        let changed = |extra: Value| {
            let slug = json!({ "type": "string", "description": "Its slug in the release the change is about: the earlier one for a term removed." });
            let mut properties = named_properties(slug);
            let mut required: Vec<Value> = NAMED.iter().map(|key| json!(key)).collect();
            if let Value::Object(extra) = extra {
                required.extend(extra.keys().map(|key| json!(key)));
                properties.extend(extra);
            }
            json!({ "type": "array", "items": { "type": "object", "required": required, "properties": properties, "additionalProperties": false } })
        };
        let texts = json!({ "type": "array", "items": { "type": "string" } });
        let named = changed(json!({}));
        let retexted = changed(json!({ "before": text, "after": text }));
        let regrouped = changed(json!({ "added": texts, "removed": texts }));
        schemas["ChangeLog"] = json!({
            "type": "object",
            "description": "What a release changed since the one before it (docs/changes.md).",
            "required": ["version", "previous", "previousUrl", "releases", "counts", "changes"],
            "properties": {
                "version": text,
                "previous": text,
                "previousUrl": uri,
                "releases": uri,
                "counts": { "$ref": "#/components/schemas/ChangeCounts" },
                "changes": {
                    "type": "object",
                    "required": kinds,
                    "properties": {
                        "added": named,
                        "removed": named,
                        "deprecated": changed(json!({ "replacedBy": texts })),
                        "undeprecated": named,
                        "relabelled": retexted,
                        "redefined": retexted,
                        "reparented": regrouped,
                        "synonyms": regrouped,
                        "moved": changed(json!({ "to": text }))
                    },
                    "additionalProperties": false
                }
            },
            "additionalProperties": false
        });
    }
}

/// What names a term in the release documents (`changes::Named`), each
/// required.
const NAMED: [&str; 4] = ["iri", "id", "name", "slug"];

/// The schemas of [`NAMED`]'s properties, the slug's as given.
fn named_properties(slug: Value) -> Map<String, Value> {
    let mut properties = Map::new();
    properties.insert("iri".to_owned(), uri());
    properties.insert("id".to_owned(), text());
    properties.insert("name".to_owned(), text());
    properties.insert("slug".to_owned(), slug);
    properties
}

/// Whether a site answers anything but entities at `/{slug}.json`
/// ([`other_entity_files`]).
fn has_other_entity_files(site: &Context) -> bool {
    !site.removed.is_empty() || !site.hash_documents.is_empty()
}

/// What else a site answers at `/{slug}.json`, named like an entity's
/// document (a term an earlier release had, the document where IRIs with
/// a fragment arrive), with the schema of each; none on most sites.
fn other_entity_files(site: &Context) -> Vec<(&'static str, Value)> {
    if !has_other_entity_files(site) {
        return Vec::new();
    }
    let (uri, text) = (uri(), text());
    let mut others = Vec::new();
    if !site.removed.is_empty() {
        let mut properties = named_properties(text.clone());
        if let Value::Object(rest) = json!({
            "removedIn": { "type": "string", "description": "The release it is gone since." },
            "lastRelease": { "type": "string", "description": "The last release that has it." },
            "description": text,
            "replacedBy": { "type": "array", "description": "The terms that replace it, by IRI or ID as the release states them.", "items": text },
            "removed": { "type": "boolean", "const": true },
            "lastSeen": { "type": "string", "format": "uri", "description": "Its JSON document in the last release that has it." }
        }) {
            properties.extend(rest);
        }
        let mut required = NAMED.to_vec();
        required.extend(["removedIn", "lastRelease", "removed", "lastSeen"]);
        others.push(("RemovedTerm", json!({
            "type": "object",
            "description": "A term an earlier release had and this one has not: its IRI still resolves, to this. The release it is gone since, the last one that had it, its last description and what replaces it.",
            "required": required,
            "properties": properties,
            "additionalProperties": false
        })));
    }
    if !site.hash_documents.is_empty() {
        others.push(("HashDocument", json!({
            "type": "object",
            "description": "Where IRIs with a fragment ({namespace}{rest}#…) arrive, at /{rest}: the IRI before the fragment and each term it holds.",
            "required": ["iri", "terms"],
            "properties": {
                "iri": uri,
                "terms": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["fragment", "iri", "id", "name", "slug", "url"],
                        "properties": {
                            "fragment": text,
                            "iri": uri,
                            "id": text,
                            "name": text,
                            "slug": text,
                            "url": { "type": "string", "format": "uri", "description": "The term's JSON document." },
                            "removedIn": { "type": "string", "description": "The release it is gone since, for a term an earlier release had." }
                        },
                        "additionalProperties": false
                    }
                }
            },
            "additionalProperties": false
        })));
    }
    others
}

/// The schemas of [`other_entity_files`], and `EntityFile`, one of them
/// or an entity, where a site has any: a generated client reads every
/// answer of `/{slug}.json` then, not only an entity.
fn add_entity_file_schemas(site: &Context, schemas: &mut Value) {
    let others = other_entity_files(site);
    if others.is_empty() {
        return;
    }
    let mut variants = vec![json!({ "$ref": "#/components/schemas/Entity" })];
    for (name, schema) in others {
        variants.push(json!({ "$ref": format!("#/components/schemas/{name}") }));
        schemas[name] = schema;
    }
    schemas[ENTITY_FILE] = json!({
        "description": "What /{slug}.json answers: an entity, or another document named like one.",
        "oneOf": variants
    });
}

/// The schema of every answer of `/{slug}.json` where it is more than an
/// entity ([`add_entity_file_schemas`]).
const ENTITY_FILE: &str = "EntityFile";

/// The name of the schema of what `endpoint` answers on `site`.
fn schema_name(endpoint: &Endpoint, site: &Context) -> Option<&'static str> {
    match endpoint.serves {
        Serves::EntityFiles(format)
            if format.representation == Representation::Json && has_other_entity_files(site) =>
        {
            Some(ENTITY_FILE)
        }
        _ => endpoint.schema,
    }
}

/// What a site of an ontology source's terms adds: each entity's IRI,
/// types, texts by language and links among the terms; the ontology's own
/// header and source files in the information document.
fn add_term_schemas(schemas: &mut Value) {
    let uri = uri();
    schemas["Text"] = json!({
        "type": "object",
        "description": "A text, with its BCP 47 language tag where the source gives one.",
        "required": ["value"],
        "properties": { "value": { "type": "string" }, "language": { "type": "string" } },
        "additionalProperties": false
    });
    schemas["TermRef"] = json!({
        "type": "object",
        "description": "A term another points to: its IRI, and where this site publishes it, its slug, name and plain JSON.",
        "required": ["iri"],
        "properties": {
            "iri": uri,
            "slug": { "type": "string" },
            "name": { "type": "string" },
            "url": uri,
            "fromDefinition": { "type": "boolean", "const": true, "description": "A parent named by the term's logical definition (the genus of an intersection it is equivalent to), not stated as a parent; present only where true." }
        },
        "additionalProperties": false
    });
    add_term_entity(&mut schemas["Entity"]);
    add_ontology_header(&mut schemas["Info"]["properties"]);
}

/// An entity of a term site: its IRI, types, texts by language and links
/// among the terms, and nothing else.
fn add_term_entity(entity: &mut Value) {
    let uri = uri();
    let texts = |what: &str| json!({ "type": "array", "description": what, "items": { "$ref": "#/components/schemas/Text" } });
    let terms = |what: &str| json!({ "type": "array", "description": what, "items": { "$ref": "#/components/schemas/TermRef" } });
    entity["description"] = json!(
        "One term of the ontology source: `name` and `description` in the ontology's language (`description` left out where the source has none), every label, description and synonym with its language, and its place among the terms."
    );
    entity["required"] = json!([
        "slug",
        "id",
        "type",
        "name",
        "iri",
        "types",
        "labels",
        "parents",
        "children",
        "childrenTotal",
        "ancestors",
        "ancestorsComplete",
        "linkedFrom",
        "linkedFromTotal",
        "deprecated",
        "links"
    ]);
    let properties = &mut entity["properties"];
    properties["description"] = json!({ "type": "string" });
    properties["iri"] = json!({ "description": "The IRI the source gives the term.", "type": "string", "format": "uri" });
    properties["types"] =
        json!({ "type": "array", "description": "The IRIs of its rdf:types.", "items": uri });
    properties["labels"] = texts("Every name, in every language.");
    properties["descriptions"] = texts("Every description, in every language.");
    properties["synonyms"] = json!({
        "type": "array",
        "description": "Every synonym: its text and language, its scope where oboInOwl's property says one, and the IRI of its synonym type where an axiom gives one (OBO's typed synonyms).",
        "items": {
            "type": "object",
            "required": ["value"],
            "properties": {
                "value": { "type": "string" },
                "language": { "type": "string" },
                "scope": { "enum": ["exact", "broad", "narrow", "related"] },
                "type": uri
            },
            "additionalProperties": false
        }
    });
    properties["alternativeIds"] = json!({ "type": "array", "description": "The IDs it was known by before (OBO alt_id, oboInOwl:hasAlternativeId): searched as its ID, and where the host runs code, `/{slug of the ID}` redirects to it.", "items": { "type": "string" } });
    properties["parents"] = terms(
        "Its direct parents (rdfs:subClassOf, skos:broader, rdfs:subPropertyOf), then the named classes of its logical definition (marked `fromDefinition`), as OLS shows them.",
    );
    properties["children"] = terms(
        "The terms whose parent it is, in name order: the first 1,000 (the hierarchy's pages list every one).",
    );
    properties["childrenTotal"] = json!({ "type": "integer", "minimum": 0, "description": "How many children it has; more than `children` holds where that list is cut." });
    properties["ancestors"] = terms(
        "Its ancestors, nearest first: those within 64 levels up, at most 256 (`ancestorsComplete` says whether that is all of them; the parents of the farthest lead further up).",
    );
    properties["ancestorsComplete"] =
        json!({ "type": "boolean", "description": "Whether `ancestors` holds every ancestor." });
    properties["linkedFrom"] = terms(
        "The published terms that state something of it: the first 1,000 (its RDF documents state every such statement).",
    );
    properties["linkedFromTotal"] = json!({ "type": "integer", "minimum": 0, "description": "How many published terms state something of it." });
    properties["deprecated"] = json!({ "type": "boolean" });
    properties["replacedBy"] = terms("The terms that replace it.");
    properties["consider"] = terms(
        "The terms to consider instead, where no one term replaces it (`oboInOwl:consider`).",
    );
    entity["additionalProperties"] = json!(false);
}

/// The information document of a term site: the ontology's own header and
/// its source files.
fn add_ontology_header(info: &mut Value) {
    let uri = uri();
    info["ontology"] = json!({
        "type": "object",
        "description": "What the ontology source says of itself (owl:Ontology, skos:ConceptScheme).",
        "required": ["iri"],
        "properties": {
            "iri": uri,
            "title": { "type": "string" },
            "description": { "type": "string" },
            "versionIri": uri,
            "version": { "type": "string" },
            "license": { "type": "string" },
            "creators": { "type": "array", "items": { "type": "string" } },
            "imports": { "type": "array", "items": { "type": "string" } }
        },
        "additionalProperties": false
    });
    info["sources"] = json!({
        "type": "array",
        "description": "The ontology source files, published unchanged.",
        "items": {
            "type": "object",
            "required": ["url", "mediaType"],
            "properties": { "url": uri, "mediaType": { "type": "string" } },
            "additionalProperties": false
        }
    });
}

fn common_schemas(site: &Context) -> Value {
    let shape = Shapes {
        entity_type: site.ontology.meta.entity_type.clone(),
        slug: json!({ "type": "string", "pattern": slug_pattern() }),
        short_name: json!({ "type": "string", "minLength": 1, "maxLength": NAME_CHARS, "description": "Its name: all of it up to 200 characters, else the whole words that fit, then an ellipsis (the entity's own documents hold it whole)." }),
    };
    let mut schemas = Map::new();
    for part in [
        entry_schemas(&shape),
        list_schemas(&shape),
        answer_schemas(),
    ] {
        if let Value::Object(part) = part {
            schemas.extend(part);
        }
    }
    schemas.insert("Info".to_owned(), info_schema(&shape));
    Value::Object(schemas)
}

/// The pieces several schemas share.
struct Shapes {
    entity_type: String,
    slug: Value,
    short_name: Value,
}

/// An entity's links, and the entity as a list, a search answer and its
/// own document show it.
fn entry_schemas(shape: &Shapes) -> Value {
    json!({
        "Links": {
            "type": "object",
            "description": "The absolute URLs of an entity's documents.",
            "required": ENTITY_FORMATS.iter().map(|f| f.extension).collect::<Vec<_>>(),
            "properties": ENTITY_FORMATS.iter().map(|f| (f.extension.to_owned(), uri())).collect::<Map<_, _>>(),
            "additionalProperties": false
        },
        "Entry": {
            "type": "object",
            "description": "An entity in a list: enough to show and to follow.",
            "required": ["slug", "id", "name", "links"],
            "properties": {
                "slug": shape.slug.clone(),
                "id": { "type": "string", "minLength": 1 },
                "name": shape.short_name.clone(),
                "links": { "$ref": "#/components/schemas/Links" }
            },
            "additionalProperties": false
        },
        "SearchItem": {
            "type": "object",
            "description": "An entity that matches a query: an entry with what kind of entity it is and the start of its description.",
            "required": ["slug", "id", "name", "type", "summary", "links"],
            "properties": {
                "slug": shape.slug.clone(),
                "id": { "type": "string", "minLength": 1 },
                "name": shape.short_name.clone(),
                "type": { "type": "string", "minLength": 1, "description": "As its JSON-LD @type names it: the entity type or subtype, or a term's first rdf:type, compacted (owl:Class)." },
                "summary": { "type": "string", "maxLength": SUMMARY_CHARS, "description": "The start of its description: all of it up to 160 characters, else the whole words that fit, then an ellipsis; empty where it has none." },
                "links": { "$ref": "#/components/schemas/Links" },
                "deprecated": { "type": "boolean", "const": true, "description": "A deprecated term: present only where true. It ranks after every other match, unless it is an exact match." }
            },
            "additionalProperties": false
        },
        "Entity": {
            "type": "object",
            "description": "One entity with its full data; fields of the input other than these pass through unchanged.",
            "required": ["slug", "id", "type", "name", "description", "links"],
            "properties": {
                "slug": shape.slug.clone(),
                "id": { "type": "string", "minLength": 1 },
                "type": { "const": shape.entity_type },
                "name": { "type": "string", "minLength": 1 },
                "description": { "type": "string", "minLength": 1 },
                "links": { "$ref": "#/components/schemas/Links" }
            },
            "additionalProperties": true
        }
    })
}

/// The big lists whole and in pages, and the pages' summary.
fn list_schemas(shape: &Shapes) -> Value {
    // `index.json` and `/all`: the entity type, the count, the items.
    let list = |description: &str, item: &str| {
        json!({
            "type": "object",
            "description": description,
            "required": ["type", "total", "items"],
            "properties": {
                "type": { "const": shape.entity_type },
                "total": { "type": "integer", "minimum": 0 },
                "items": { "type": "array", "items": { "$ref": format!("#/components/schemas/{item}") } }
            },
            "additionalProperties": false
        })
    };
    // A page of a list: the list's keys, and where the page stands.
    let page = |mut list: Value| {
        let description = list["description"]
            .as_str()
            .unwrap_or_default()
            .replace("PAGE_ENTITIES", &PAGE_ENTITIES.to_string());
        list["description"] = json!(description);
        let properties = &mut list["properties"];
        properties["page"] = json!({ "type": "integer", "minimum": 1 });
        properties["pages"] = json!({ "type": "integer", "minimum": 1 });
        for link in ["complete", "first", "previous", "next", "last"] {
            properties[link] = uri();
        }
        list["required"] = json!([
            "type", "total", "page", "pages", "complete", "first", "last", "items"
        ]);
        list["properties"]["items"]["maxItems"] = json!(PAGE_ENTITIES);
        list
    };
    json!({
        "List": list("Every entity, as entries, in slug order.", "Entry"),
        "All": list("Every entity with its full data, in slug order.", "Entity"),
        "ListPage": page(list("A page of /index.json: its entries from (page - 1) × PAGE_ENTITIES on, in its order.", "Entry")),
        "AllPage": page(list("A page of /all: its entities from (page - 1) × PAGE_ENTITIES on, with their full data, in its order.", "Entity")),
        "Pages": {
            "type": "object",
            "description": "The big lists' pages: how many entities each holds, how many there are, and each list's first and last page.",
            "required": ["entitiesPerPage", "count", "lists"],
            "properties": {
                "entitiesPerPage": { "const": PAGE_ENTITIES },
                "count": { "type": "integer", "minimum": 1 },
                "lists": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["complete", "first", "last"],
                        "properties": { "complete": uri(), "first": uri(), "last": uri() },
                        "additionalProperties": false
                    }
                }
            },
            "additionalProperties": false
        }
    })
}

/// A search answer and a problem document.
fn answer_schemas() -> Value {
    json!({
        "SearchAnswer": {
            "type": "object",
            "description": "One page of the entities that match a query (docs/search.md).",
            "required": ["query", "total", "limit", "offset", "items", "next"],
            "properties": {
                "query": { "type": "string" },
                "total": { "type": "integer", "minimum": 0 },
                "limit": { "type": "integer", "minimum": 1, "maximum": MAX_LIMIT },
                "offset": { "type": "integer", "minimum": 0, "maximum": MAX_OFFSET },
                "items": { "type": "array", "items": { "$ref": "#/components/schemas/SearchItem" } },
                "next": { "description": "The URL of the next page, or null on the last.", "oneOf": [uri(), { "type": "null" }] }
            },
            "additionalProperties": false
        },
        "Problem": {
            "type": "object",
            "description": "An RFC 9457 problem document.",
            "required": ["type", "title", "status", "detail"],
            "properties": {
                "type": { "type": "string" },
                "title": { "type": "string" },
                "status": { "type": "integer", "minimum": 400, "maximum": 599 },
                "detail": { "type": "string" }
            }
        }
    })
}

/// What `/` answers.
fn info_schema(shape: &Shapes) -> Value {
    json!({
        "type": "object",
        "description": "What `/` answers: the ontology and every endpoint of its API.",
        "required": ["name", "description", "type", "total", "baseUrl", "endpoints", "siblings"],
        "properties": {
            "name": { "type": "string" },
            "description": { "type": "string" },
            "type": { "const": shape.entity_type },
            "total": { "type": "integer", "minimum": 0 },
            "baseUrl": uri(),
            "namespace": { "type": "string", "format": "uri", "description": "The namespace whose IRIs arrive at this site (w3id.org, purl.org), where it is not the base URL's own." },
            "version": { "type": "string" },
            "license": { "type": "string" },
            "openapi": uri(),
            "pages": { "$ref": "#/components/schemas/Pages" },
            "dataset": {
                "type": "object",
                "description": "The data set's description in JSON-LD, as /void.jsonld states it: schema.org Dataset and VoID (entity and triple counts, URI space, vocabularies, dumps, an example resource, the distributions).",
                "required": ["@context", "@graph"],
                "properties": {
                    "@context": { "type": "object", "additionalProperties": { "type": "string" }, "description": "The prefixes of the graph's IRIs." },
                    "@graph": { "type": "array", "items": { "type": "object", "additionalProperties": true }, "description": "The data set's nodes, in expanded form." }
                },
                "additionalProperties": false
            },
            "endpoints": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["path", "summary", "url"],
                    "properties": {
                        "path": { "type": "string", "pattern": "^/" },
                        "summary": { "type": "string" },
                        "url": { "type": "string" },
                        "example": uri()
                    },
                    "additionalProperties": false
                }
            },
            "siblings": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "baseUrl"],
                    "properties": {
                        "name": { "type": "string" },
                        "baseUrl": uri(),
                        "description": { "type": "string" }
                    },
                    "additionalProperties": false
                }
            }
        },
        "additionalProperties": false
    })
}

/// What the endpoint answers with: the type the host is told, else the
/// entity format's own, else what the host guesses from the name.
fn media_type(endpoint: &Endpoint) -> &'static str {
    match (endpoint.content_type, endpoint.serves) {
        (Some(media_type), _) => media_type,
        (None, Serves::EntityFiles(format)) => format.media_type,
        (None, _) if endpoint.path.ends_with(".js") => "text/javascript",
        (None, _) => media::JSON,
    }
}

fn content(media_type: &str, schema: Value) -> Value {
    json!({ media_type: { "schema": schema } })
}

fn problem(description: &str) -> Value {
    json!({
        "description": description,
        "content": content(media::PROBLEM, json!({ "$ref": "#/components/schemas/Problem" }))
    })
}

/// What a server of the site answers 400 to, whatever the path (`serve`'s
/// `path.rs`; the hosts refuse the same or worse).
const BAD_REQUEST: &str = "A malformed request: a path with a control character, NUL, a backslash, a `.` or `..` segment or invalid UTF-8 once decoded, or longer than 2,048 bytes.";

/// A slug (ECMA-262, as JSON Schema reads patterns): 1 to 200 of `a-z0-9`,
/// none of the reserved names, so that `/openapi.json` or `/index.json`
/// never match `/{slug}.json` (a generated client would then expect an
/// entity there).
fn slug_pattern() -> String {
    crate::site::reserved::slug_pattern()
}

/// What an answer without a schema of its own holds: a JSON-LD document
/// (any node object, with the keywords a client reads first), this
/// document, the search index's manifest, or text. An object schema says
/// that it has properties: a bare `{"type": "object"}` became
/// `Record<string, never>` in openapi-typescript, where no property could
/// be read.
fn opaque_schema(endpoint: &Endpoint) -> Value {
    match media_type(endpoint) {
        media::JSON_LD => json!({
            "type": "object",
            "description": "A JSON-LD document: its properties are those of its context (the site's /context.jsonld, or prefixes of its own).",
            "properties": {
                "@context": { "description": "The context: an IRI, an object, or a list of them." },
                "@id": { "type": "string" },
                "@type": { "description": "A type name or IRI, or a list of them." },
                "@graph": { "type": "array", "items": { "type": "object", "additionalProperties": true } }
            },
            "additionalProperties": true
        }),
        t if t.contains("json") && endpoint.path == "/openapi.json" => json!({
            "type": "object",
            "description": "This OpenAPI 3.1 document.",
            "required": ["openapi", "info", "paths"],
            "properties": {
                "openapi": { "type": "string" },
                "info": { "type": "object", "additionalProperties": true },
                "paths": { "type": "object", "additionalProperties": true },
                "components": { "type": "object", "additionalProperties": true }
            },
            "additionalProperties": true
        }),
        t if t.contains("json") => json!({
            "type": "object",
            "description": "A document of the site's own format, described in the README (the search index's: docs/search.md).",
            "additionalProperties": true
        }),
        _ => json!({ "type": "string" }),
    }
}

/// The group an operation is listed under.
fn tag(endpoint: &Endpoint) -> &'static str {
    match endpoint.serves {
        Serves::EntityFiles(_) => "Entities",
        Serves::Negotiated if endpoint.path.contains("{slug}") => "Entities",
        Serves::Pages(_) => "Lists",
        _ if endpoint.path.starts_with("/index") || endpoint.path == "/all" => "Lists",
        _ if endpoint.path.starts_with("/search") => "Search",
        _ => "Site",
    }
}

/// One GET operation of the API: what `openapi.json` states of an
/// endpoint, and what the front page lists of it.
pub(super) struct Operation {
    pub id: String,
    pub summary: &'static str,
    pub description: String,
    pub tag: &'static str,
    pub parameters: Vec<Parameter>,
    /// By status, in the order `openapi.json` lists them.
    pub responses: Vec<(&'static str, Response)>,
}

/// A parameter of an operation.
pub(super) struct Parameter {
    pub name: &'static str,
    /// `path` or `query`.
    pub place: &'static str,
    pub required: bool,
    pub description: String,
    /// Its JSON Schema.
    pub schema: Value,
    /// What its schema's pattern allows, in words, where it has one.
    pub pattern_words: Option<&'static str>,
}

/// A response of an operation.
pub(super) enum Response {
    /// A document of this media type and schema.
    Answer {
        description: String,
        media_type: &'static str,
        schema: Value,
    },
    /// A 303 to the document the `Accept` header prefers.
    SeeOther { description: String },
    /// A response the document's components describe once.
    Shared(&'static str),
}

impl Response {
    /// A problem document (RFC 9457).
    fn problem(description: &str) -> Response {
        Response::Answer {
            description: description.to_owned(),
            media_type: media::PROBLEM,
            schema: json!({ "$ref": "#/components/schemas/Problem" }),
        }
    }

    /// Its description, where it states one itself.
    pub fn description(&self) -> &str {
        match self {
            Response::Answer { description, .. } | Response::SeeOther { description } => {
                description
            }
            Response::Shared(_) => "",
        }
    }

    /// The media types of its body.
    pub fn media_types(&self) -> Vec<String> {
        match self {
            Response::Answer { media_type, .. } => vec![(*media_type).to_owned()],
            Response::SeeOther { .. } | Response::Shared(_) => Vec::new(),
        }
    }

    fn json(&self) -> Value {
        match self {
            Response::Answer {
                description,
                media_type,
                schema,
            } => {
                json!({ "description": description, "content": content(media_type, schema.clone()) })
            }
            Response::SeeOther { description } => json!({
                "description": description,
                "headers": {
                    "Location": { "description": "The document's path.", "schema": { "type": "string" } },
                    "Vary": { "description": "Accept", "schema": { "type": "string" } }
                }
            }),
            Response::Shared(reference) => json!({ "$ref": reference }),
        }
    }
}

impl Parameter {
    fn json(&self) -> Value {
        json!({
            "name": self.name, "in": self.place, "required": self.required,
            "description": self.description,
            "schema": self.schema
        })
    }
}

impl Operation {
    /// The endpoint's path item in `openapi.json`: its one GET operation.
    pub fn path_item(&self) -> Value {
        let mut operation = Map::new();
        operation.insert("operationId".into(), json!(self.id));
        operation.insert("summary".into(), json!(self.summary));
        operation.insert("description".into(), json!(self.description));
        operation.insert("tags".into(), json!([self.tag]));
        if !self.parameters.is_empty() {
            let parameters = self.parameters.iter().map(Parameter::json).collect();
            operation.insert("parameters".into(), Value::Array(parameters));
        }
        let responses: Map<String, Value> = self
            .responses
            .iter()
            .map(|(status, response)| ((*status).to_owned(), response.json()))
            .collect();
        operation.insert("responses".into(), Value::Object(responses));
        json!({ "get": operation })
    }

    /// Adds a response, in place of one of the same status.
    fn respond(&mut self, status: &'static str, response: Response) {
        match self.responses.iter_mut().find(|(s, _)| *s == status) {
            Some(found) => found.1 = response,
            None => self.responses.push((status, response)),
        }
    }
}

/// The operation of `endpoint`.
pub(super) fn operation(endpoint: &Endpoint, site: &Context) -> Operation {
    let schema = match schema_name(endpoint, site) {
        Some(name) => json!({ "$ref": format!("#/components/schemas/{name}") }),
        None => opaque_schema(endpoint),
    };
    let id: String = endpoint
        .path
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let mut operation = Operation {
        id: format!("get{id}"),
        summary: endpoint.summary,
        description: format!(
            "{}. Answered as `{}`; every answer allows cross-origin reads and may be cached for an hour.",
            endpoint.summary,
            media_type(endpoint)
        ),
        tag: tag(endpoint),
        parameters: Vec::new(),
        responses: vec![(
            "200",
            Response::Answer {
                description: endpoint.summary.to_owned(),
                media_type: media_type(endpoint),
                schema,
            },
        )],
    };
    add_see_other(&mut operation, endpoint);
    add_path_parameters(&mut operation, endpoint);
    if let Serves::Search = endpoint.serves {
        add_search_parameters(&mut operation);
    }
    // Every path can be malformed; the search's own 400 says so already.
    if !operation
        .responses
        .iter()
        .any(|(status, _)| *status == "400")
    {
        let malformed = Response::Shared("#/components/responses/BadRequest");
        operation.responses.push(("400", malformed));
    }
    operation
}

/// The 303 of a path whose representation the `Accept` header chooses.
fn add_see_other(operation: &mut Operation, endpoint: &Endpoint) {
    if let Some(resource) = negotiation::resources()
        .iter()
        .find(|r| r.path == endpoint.path)
    {
        // OpenAPI ignores a declared `Accept` parameter; the choices are
        // the 200 answer's content and the 303's description.
        let others: Vec<String> = resource
            .choices
            .iter()
            .filter_map(|c| {
                c.see
                    .as_ref()
                    .map(|see| format!("{} at {see}", c.media_type))
            })
            .collect();
        operation.respond(
            "303",
            Response::SeeOther {
                description: format!(
                    "See Other: the document the Accept header prefers ({}).",
                    others.join(", ")
                ),
            },
        );
    }
}

/// The slug or page number a path names, and the 404 of one that names
/// nothing.
fn add_path_parameters(operation: &mut Operation, endpoint: &Endpoint) {
    if endpoint.path.contains("{slug}") {
        operation.parameters.push(Parameter {
            name: "slug",
            place: "path",
            required: true,
            description: "The entity's slug: lower-case letters and digits.".into(),
            schema: json!({ "type": "string", "pattern": slug_pattern() }),
            pattern_words: Some("lower-case letters and digits, not a reserved name"),
        });
        operation.respond("404", Response::problem("No entity has this slug."));
    }
    if endpoint.path.contains("{page}") {
        operation.parameters.push(Parameter {
            name: "page",
            place: "path",
            required: true,
            description: format!("The page's number, from 1; each holds at most {PAGE_ENTITIES} entities, and the last page's number is `pages` in every page."),
            schema: json!({ "type": "integer", "minimum": 1 }),
            pattern_words: None,
        });
        operation.respond("404", Response::problem("No page has this number."));
    }
}

/// `q`, `limit` and `offset`, and the 400 a bad one gets.
fn add_search_parameters(operation: &mut Operation) {
    operation.parameters.extend([
        Parameter {
            name: "q",
            place: "query",
            required: true,
            description: format!("The words to search for in each entity's name, description and ID: at least one and at most {MAX_TERMS} runs of letters and digits, of any script, each of at most {MAX_TERM_CHARS} characters (more is a 400)."),
            // A letter or digit somewhere (ECMA-262 with the `u` flag,
            // as JSON Schema asks): a query without one is a 400.
            schema: json!({ "type": "string", "minLength": 1, "pattern": "[\\p{L}\\p{N}]" }),
            pattern_words: Some("at least one letter or digit, of any script"),
        },
        Parameter {
            name: "limit",
            place: "query",
            required: false,
            description: "How many entities a page holds.".into(),
            schema: json!({ "type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT }),
            pattern_words: None,
        },
        Parameter {
            name: "offset",
            place: "query",
            required: false,
            description: "How many matching entities to skip.".into(),
            schema: json!({ "type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0 }),
            pattern_words: None,
        },
    ]);
    operation.respond(
        "400",
        Response::problem(
            "A missing `q`, one without letters or digits or of more terms than allowed, a bad `limit` or `offset`; or a malformed request (see the BadRequest response).",
        ),
    );
}

pub fn render(site: &Context, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    serde_json::to_writer_pretty(out, &document(site))
}

/// `openapi.json` as a value; the front page documents the API from it.
pub fn document(site: &Context) -> Value {
    let meta = &site.ontology.meta;
    let mut paths = Map::new();
    for endpoint in site_endpoints(site) {
        paths.insert(
            endpoint.path.to_owned(),
            operation(endpoint, site).path_item(),
        );
    }
    let mut info = Map::new();
    info.insert("title".into(), json!(meta.name));
    info.insert("description".into(), json!(meta.description));
    info.insert(
        "version".into(),
        json!(meta.version.as_deref().unwrap_or("unversioned")),
    );
    if let Some(license) = &meta.license {
        info.insert(
            "license".into(),
            json!({ "name": license, "identifier": license }),
        );
    }
    json!({
        "openapi": "3.1.0",
        "info": info,
        // A public, read-only API: no operation needs credentials.
        "security": [],
        "tags": [
            { "name": "Entities", "description": "One entity: its documents in every format, and its IRI." },
            { "name": "Lists", "description": "Every entity as a list, whole and in pages." },
            { "name": "Search", "description": "The entities that match a query, and the prebuilt index behind it." },
            { "name": "Site", "description": "The site's own documents: this description, the data set, the vocabulary, the contexts, the dumps and the pages for people." }
        ],
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "servers": [{ "url": site.url("").trim_end_matches('/') }],
        "paths": paths,
        "components": {
            "schemas": schemas(site),
            "responses": { "BadRequest": problem(BAD_REQUEST) }
        }
    })
}
