//! The RDF description of each entity, and its Turtle and N-Triples.
//!
//! An entity states the same triples in every RDF format: the triples
//! here are what its JSON-LD document means when a JSON-LD processor
//! reads it with the site's context (the tests parse both and compare).
//! The syntax is written by oxttl, never by hand, so escaping is the
//! library's.

use super::context::Context;
use super::error::RenderError;
use crate::model::Entity;
use crate::model::namespaces::{FOAF, PREFIXES};
use oxrdf::vocab::{rdf, xsd};
use oxrdf::{Literal, NamedNode, NamedOrBlankNode, Term, Triple};
use serde_json::Value;
use std::borrow::{Borrow, Cow};
use std::collections::HashSet;
use std::io::Write;

pub const SCHEMA: &str = "http://schema.org/";
pub const VOID: &str = "http://rdfs.org/ns/void#";
pub const RDFS: &str = "http://www.w3.org/2000/01/rdf-schema#";
pub const DCTERMS: &str = "http://purl.org/dc/terms/";
pub const OWL: &str = "http://www.w3.org/2002/07/owl#";
pub const DCAT: &str = "http://www.w3.org/ns/dcat#";
pub const PROV: &str = "http://www.w3.org/ns/prov#";
/// JSON-LD's datatype for JSON literals (RDF 1.2 names it too).
const RDF_JSON: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON";

/// An RDF syntax ontosite writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Turtle,
    NTriples,
    /// Expanded JSON-LD (full IRIs) with the prefixes as its context, as
    /// oxjsonld writes it: for the site-wide descriptions, whose readers
    /// are RDF tools. Entities have their compact JSON-LD (`jsonld.rs`).
    JsonLd,
}

impl Syntax {
    /// The extension of a file in it.
    pub fn extension(self) -> &'static str {
        match self {
            Syntax::Turtle => "ttl",
            Syntax::NTriples => "nt",
            Syntax::JsonLd => "jsonld",
        }
    }

    /// The syntax of an RDF representation of an entity's; none for the
    /// others. (An entity of the input has its own compact JSON-LD,
    /// `jsonld.rs`; a document of several terms is expanded.)
    pub fn of(representation: crate::site::formats::Representation) -> Option<Syntax> {
        use crate::site::formats::Representation;
        match representation {
            Representation::Turtle => Some(Syntax::Turtle),
            Representation::NTriples => Some(Syntax::NTriples),
            Representation::JsonLd => Some(Syntax::JsonLd),
            Representation::Json | Representation::Html => None,
        }
    }
}

/// A named node from an IRI the site built: from the base URL, the
/// vocabulary namespace and the entity type's IRI, all checked as IRIs
/// when `ontology.json` was read, and slugs (`[a-z0-9]`). Not parsed
/// again: a build states millions of them. Debug builds check.
pub fn iri(iri: impl Into<String>) -> Result<NamedNode, RenderError> {
    let iri = iri.into();
    if cfg!(debug_assertions) && NamedNode::new(iri.as_str()).is_err() {
        return Err(RenderError::Iri(iri));
    }
    Ok(NamedNode::new_unchecked(iri))
}

fn schema(term: &str) -> NamedNode {
    NamedNode::new_unchecked(format!("{SCHEMA}{term}"))
}

/// The triples an entity's own documents state: what it states itself
/// (`entity_triples`), and for a term also the source's triples of other
/// published terms that point at it (its children, and what links here),
/// so that its document shows its links both ways. The dump has those once,
/// with the terms that state them.
pub fn document_triples<'s>(
    site: &'s Context,
    entity: &'s Entity,
) -> Result<Vec<Cow<'s, Triple>>, RenderError> {
    let mut triples = entity_triples(site, entity)?;
    if entity.term.is_some()
        && let Some(own) = &entity.iri
        && let Some(position) = site.relations.position(own)
    {
        for &other in site.relations.referrers(position) {
            let from = &site.ontology.entities[other];
            let Some(term) = &from.term else { continue };
            triples.extend(
                term.statements
                    .iter()
                    .filter(|t| {
                        subject_iri(t) == from.iri.as_deref()
                            && matches!(&t.object, Term::NamedNode(o) if o.as_str() == own)
                    })
                    .map(Cow::Borrowed),
            );
        }
    }
    Ok(triples)
}

/// The triples one entity states.
///
/// A term of an ontology source states the source's own triples about it,
/// unchanged.
///
/// An entity of `input/entities/` states its type, identifier, name,
/// description, slug, the URL of its plain JSON, the configured entity
/// properties, and every pass-through field under the site's vocabulary.
///
/// Either, where the input gives it an IRI other than `{base}/{slug}`,
/// also states that its documents are there (`foaf:isPrimaryTopicOf`).
///
/// A term's statements are borrowed, not copied: each of its documents
/// writes them, and a copy per document was most of a large build's
/// allocations.
pub fn entity_triples<'s>(
    site: &'s Context,
    entity: &'s Entity,
) -> Result<Vec<Cow<'s, Triple>>, RenderError> {
    let mut triples: Vec<Cow<Triple>> = match &entity.term {
        Some(term) => term.statements.iter().map(Cow::Borrowed).collect(),
        None => entity_fields(site, entity)?
            .into_iter()
            .map(Cow::Owned)
            .collect(),
    };
    if let Some(topic) = primary_topic_of(site, entity) {
        triples.push(Cow::Owned(Triple::new(
            iri(entity.iri(&site.ontology.meta.base_url))?,
            iri(format!("{FOAF}isPrimaryTopicOf"))?,
            iri(topic)?,
        )));
    }
    Ok(triples)
}

/// Where the input names an entity by its own IRI, the URL of its
/// documents, `{base}/{slug}`, which that IRI is the primary topic of.
pub fn primary_topic_of(site: &Context, entity: &Entity) -> Option<String> {
    let own = entity.iri.as_deref()?;
    let documents = site.url(entity.slug.as_str());
    (own != documents).then_some(documents)
}

/// The triples of an entity of `input/entities/`.
fn entity_fields(site: &Context, entity: &Entity) -> Result<Vec<Triple>, RenderError> {
    let meta = &site.ontology.meta;
    let subject = iri(entity.iri(&meta.base_url))?;
    let mut triples = Vec::with_capacity(8 + entity.extra.len());
    let mut add = |predicate: NamedNode, object: Term| {
        triples.push(Triple::new(subject.clone(), predicate, object));
    };
    add(rdf::TYPE.into(), type_iri(site, entity)?.into());
    add(
        schema("identifier"),
        Literal::from(entity.id.as_str()).into(),
    );
    add(schema("name"), Literal::from(entity.name.as_str()).into());
    add(
        schema("description"),
        Literal::from(entity.description.as_str()).into(),
    );
    add(
        iri(site.term("slug"))?,
        Literal::from(entity.slug.as_str()).into(),
    );
    add(
        schema("url"),
        iri(site.url(&crate::site::formats::json_file(entity)))?.into(),
    );
    for (property, value) in &meta.entity_properties {
        add(schema(property), schema(value).into());
    }
    for (key, value) in &entity.extra {
        let predicate = iri(site.term(key))?;
        if site.extra_terms.get(key.as_str()) == Some(&true) {
            // `@json`: the whole value is one literal, even an array.
            add(predicate, json_literal(value).into());
            continue;
        }
        let linked = meta.sibling_linked_by(key).is_some();
        let values = match value {
            Value::Array(items) => items.as_slice(),
            single => std::slice::from_ref(single),
        };
        for value in values {
            let object: Term = match value {
                Value::Null => continue,
                Value::String(text) if linked => iri(text.as_str())?.into(),
                Value::String(text) => Literal::from(text.as_str()).into(),
                Value::Bool(b) => Literal::from(*b).into(),
                Value::Number(number) => number_literal(number).into(),
                // Structured values make the term `@json` (above).
                Value::Array(_) | Value::Object(_) => json_literal(value).into(),
            };
            add(predicate.clone(), object);
        }
    }
    Ok(triples)
}

/// A JSON number as JSON-LD turns it into RDF: a whole number below 10^21
/// is an `xsd:integer`, written exactly as the input wrote it where it is
/// plain digits; any other is an `xsd:double` in canonical form (`1.5E0`).
fn number_literal(number: &serde_json::Number) -> Literal {
    let text = number.to_string();
    let plain_digits = {
        let digits = text.strip_prefix('-').unwrap_or(&text);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    let value = number.as_f64().unwrap_or(f64::NAN);
    if plain_digits && value.abs() < 1e21 {
        let canonical = if text == "-0" {
            "0".to_owned()
        } else {
            canonical_integer(&text)
        };
        return Literal::new_typed_literal(canonical, xsd::INTEGER);
    }
    if value.fract() == 0.0 && value.abs() < 1e21 {
        return Literal::new_typed_literal(format!("{value:.0}"), xsd::INTEGER);
    }
    let mut double = format!("{value:E}");
    if let Some(e) = double.find('E')
        && !double[..e].contains('.')
    {
        double.insert_str(e, ".0");
    }
    Literal::new_typed_literal(double, xsd::DOUBLE)
}

/// An integer's canonical lexical form: no leading zeros, no plus sign.
fn canonical_integer(text: &str) -> String {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(digits) => ("-", digits),
        None => ("", text),
    };
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        "0".to_owned()
    } else {
        format!("{sign}{digits}")
    }
}

/// A structured value as an `rdf:JSON` literal, in the canonical form
/// JSON-LD gives it (RFC 8785: keys sorted, no spaces).
fn json_literal(value: &Value) -> Literal {
    fn canonical(value: &Value, out: &mut String) {
        match value {
            Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
                out.push('{');
                for (i, (key, value)) in entries.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(key.clone()).to_string());
                    out.push(':');
                    canonical(value, out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    canonical(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut text = String::new();
    canonical(value, &mut text);
    Literal::new_typed_literal(text, NamedNode::new_unchecked(RDF_JSON))
}

/// The prefixes documents abbreviate with: ontosite's own, and for an
/// ontology's terms the namespaces ontologies are written with. Made once
/// per site: every document filters them.
fn prefixes<'s>(site: &'s Context) -> &'s [(String, String)] {
    site.prefixes.get_or_init(|| {
        all_prefixes(site)
            .into_iter()
            .map(|(name, namespace)| (name.to_owned(), namespace))
            .collect()
    })
}

fn all_prefixes<'s>(site: &'s Context) -> Vec<(&'s str, String)> {
    if !site.has_terms {
        return site_prefixes(site);
    }
    // The source's own first: the terms' documents read like the source.
    let mut prefixes: Vec<(&str, String)> = Vec::new();
    // Sets: a source of 30,000 prefixes took minutes with a list's scan.
    let (mut names, mut namespaces) = (HashSet::new(), HashSet::new());
    let known = PREFIXES.iter().map(|(n, ns)| (*n, (*ns).to_owned()));
    let declared = site.ontology.meta.prefixes.iter();
    for (name, namespace) in declared
        .map(|(n, ns)| (n.as_str(), ns.clone()))
        .chain(site_prefixes(site))
        .chain(known)
    {
        if !names.contains(name) && !namespaces.contains(&namespace) {
            names.insert(name);
            namespaces.insert(namespace.clone());
            prefixes.push((name, namespace));
        }
    }
    prefixes
}

fn site_prefixes(site: &Context) -> Vec<(&'static str, String)> {
    vec![
        (
            "rdf",
            "http://www.w3.org/1999/02/22-rdf-syntax-ns#".to_owned(),
        ),
        ("schema", SCHEMA.to_owned()),
        ("void", VOID.to_owned()),
        ("rdfs", RDFS.to_owned()),
        ("owl", OWL.to_owned()),
        ("dcterms", DCTERMS.to_owned()),
        ("dcat", DCAT.to_owned()),
        ("ontosite", site.vocabulary().into_owned()),
    ]
}

/// An open document in one syntax, fed triple by triple, so that a dump
/// never holds more than one entity's triples; into a buffer, or straight
/// into a stream (the gzipped dump).
pub enum Writer<W: Write> {
    Turtle(oxttl::turtle::WriterTurtleSerializer<W>),
    NTriples(oxttl::ntriples::WriterNTriplesSerializer<W>),
    JsonLd(oxjsonld::WriterJsonLdSerializer<W>),
}

impl<W: Write> Writer<W> {
    /// Starts a document; Turtle and JSON-LD declare `prefixes`.
    pub fn new<'p>(
        syntax: Syntax,
        prefixes: impl IntoIterator<Item = (&'p str, &'p str)>,
        out: W,
    ) -> Result<Writer<W>, RenderError> {
        let bad = |namespace: &str| RenderError::Iri(namespace.to_owned());
        Ok(match syntax {
            Syntax::Turtle => {
                let mut serializer = oxttl::TurtleSerializer::new();
                for (name, namespace) in prefixes {
                    serializer = serializer
                        .with_prefix(name, namespace)
                        .map_err(|_| bad(namespace))?;
                }
                Writer::Turtle(serializer.for_writer(out))
            }
            Syntax::JsonLd => {
                let mut serializer = oxjsonld::JsonLdSerializer::new();
                for (name, namespace) in prefixes {
                    serializer = serializer
                        .with_prefix(name, namespace)
                        .map_err(|_| bad(namespace))?;
                }
                Writer::JsonLd(serializer.for_writer(out))
            }
            Syntax::NTriples => Writer::NTriples(oxttl::NTriplesSerializer::new().for_writer(out)),
        })
    }

    pub fn triple(&mut self, triple: &Triple) -> Result<(), RenderError> {
        match self {
            Writer::Turtle(w) => w.serialize_triple(triple)?,
            Writer::NTriples(w) => w.serialize_triple(triple)?,
            Writer::JsonLd(w) => {
                w.serialize_quad(triple.as_ref().in_graph(oxrdf::GraphNameRef::DefaultGraph))?
            }
        }
        Ok(())
    }

    /// Ends the document, as the serialiser ends it, and gives the stream
    /// back.
    pub fn end(self) -> Result<W, RenderError> {
        Ok(match self {
            Writer::Turtle(w) => w.finish()?,
            Writer::NTriples(w) => w.finish(),
            Writer::JsonLd(w) => w.finish()?,
        })
    }
}

impl Writer<&mut Vec<u8>> {
    /// Ends a document in a buffer; `render` ends every file with one
    /// newline, so the serialiser's own last newline goes.
    pub fn finish(self) -> Result<(), RenderError> {
        let out = self.end()?;
        if out.last() == Some(&b'\n') {
            out.pop();
        }
        Ok(())
    }
}

/// Writes one small document: `triples` in `syntax`, declaring only the
/// prefixes it uses.
pub fn write<T: Borrow<Triple>>(
    site: &Context,
    syntax: Syntax,
    triples: &[T],
    out: &mut Vec<u8>,
) -> Result<(), RenderError> {
    let uses = |namespace: &str| {
        triples.iter().map(Borrow::borrow).any(|t: &Triple| {
            t.predicate.as_str().starts_with(namespace)
                || matches!(&t.object, Term::NamedNode(n) if n.as_str().starts_with(namespace))
                || subject_iri(t).is_some_and(|s| s.starts_with(namespace))
        })
    };
    let used = prefixes(site)
        .iter()
        .filter(|(_, namespace)| uses(namespace))
        .map(|(name, namespace)| (name.as_str(), namespace.as_str()));
    let mut writer = Writer::new(syntax, used, out)?;
    for triple in triples {
        writer.triple(triple.borrow())?;
    }
    writer.finish()
}

/// Starts a large document that declares every prefix.
pub fn writer<W: Write>(site: &Context, syntax: Syntax, out: W) -> Result<Writer<W>, RenderError> {
    let every = prefixes(site).iter();
    Writer::new(
        syntax,
        every.map(|(name, ns)| (name.as_str(), ns.as_str())),
        out,
    )
}

pub fn entity(
    site: &Context,
    entity: &Entity,
    syntax: Syntax,
    out: &mut Vec<u8>,
) -> Result<(), RenderError> {
    write(site, syntax, &document_triples(site, entity)?, out)
}

/// The entity list's IRI, relative to the base URL: its documents are
/// `index.json`, `index.jsonld`, `index.ttl` and `index.nt`.
pub const INDEX: &str = "index";

/// The IRI of the list's entry at `position` (from 1).
pub fn list_item_iri(site: &Context, position: usize) -> String {
    site.url(&format!("{INDEX}#{position}"))
}

/// The entity list as `index.jsonld` states it: a schema.org `ItemList`
/// whose entries name each entity with its type, identifier, name and
/// plain JSON URL (of a term, its entry has its name and URL: see
/// `jsonld::ListItem`). `summaries: false` leaves out what each entity's
/// own graph states anyway (for the dump).
pub fn entity_list<W: Write>(
    site: &Context,
    writer: &mut Writer<W>,
    summaries: bool,
) -> Result<usize, RenderError> {
    let mut count = list_head(site, writer)?;
    for position in 0..site.ontology.entities.len() {
        count += list_entry(site, writer, position, summaries)?;
    }
    Ok(count)
}

fn integer(n: usize) -> Literal {
    Literal::new_typed_literal(n.to_string(), xsd::INTEGER)
}

/// The list's own statements, before its entries; how many.
pub fn list_head<W: Write>(site: &Context, writer: &mut Writer<W>) -> Result<usize, RenderError> {
    let list = iri(site.url(INDEX))?;
    let triples = [
        Triple::new(list.clone(), rdf::TYPE, schema("ItemList")),
        Triple::new(
            list.clone(),
            schema("name"),
            Literal::from(site.ontology.meta.name.as_str()),
        ),
        Triple::new(
            list,
            schema("numberOfItems"),
            integer(site.ontology.entities.len()),
        ),
    ];
    for triple in &triples {
        writer.triple(triple)?;
    }
    Ok(triples.len())
}

/// The list's entry for the entity at `position` (from 0); how many
/// statements it makes.
pub fn list_entry<W: Write>(
    site: &Context,
    writer: &mut Writer<W>,
    position: usize,
    summaries: bool,
) -> Result<usize, RenderError> {
    let list = iri(site.url(INDEX))?;
    let entity = &site.ontology.entities[position];
    let mut count = 0;
    let mut write = |triple: Triple| {
        count += 1;
        writer.triple(&triple)
    };
    let item = iri(list_item_iri(site, position + 1))?;
    let subject = iri(entity.iri(&site.ontology.meta.base_url))?;
    write(Triple::new(list, schema("itemListElement"), item.clone()))?;
    write(Triple::new(item.clone(), rdf::TYPE, schema("ListItem")))?;
    write(Triple::new(
        item.clone(),
        schema("position"),
        integer(position + 1),
    ))?;
    write(Triple::new(item.clone(), schema("item"), subject.clone()))?;
    // A term's name and URL are the entry's (`jsonld::ListItem`); an
    // input entity's summary is its own, which its documents state too.
    let term = entity.term.is_some();
    if term || summaries {
        let about = if term { item } else { subject.clone() };
        if !term {
            write(Triple::new(
                subject.clone(),
                rdf::TYPE,
                type_iri(site, entity)?,
            ))?;
            write(Triple::new(
                subject,
                schema("identifier"),
                Literal::from(entity.id.as_str()),
            ))?;
        }
        write(Triple::new(
            about.clone(),
            schema("name"),
            Literal::from(entity.name.as_str()),
        ))?;
        write(Triple::new(
            about,
            schema("url"),
            iri(site.url(&crate::site::formats::json_file(entity)))?,
        ))?;
    }
    Ok(count)
}

/// `index.ttl` and `index.nt`.
/// The list as RDF, into any stream (`Document::render_into` ends it with
/// its newline).
pub fn render_entity_list<W: Write>(
    site: &Context,
    syntax: Syntax,
    out: W,
) -> Result<(), RenderError> {
    let mut writer = writer(site, syntax, out)?;
    entity_list(site, &mut writer, true)?;
    writer.end()?;
    Ok(())
}

/// The RDF type of an entity: its subtype, else the ontology's type.
fn type_iri(site: &Context, entity: &Entity) -> Result<NamedNode, RenderError> {
    let meta = &site.ontology.meta;
    let kind = meta.jsonld_type(entity);
    if kind == meta.entity_type {
        iri(meta.entity_type_iri.as_str())
    } else {
        Ok(schema(kind))
    }
}

/// The subject of a triple, as an IRI, if it is one.
pub fn subject_iri(triple: &Triple) -> Option<&str> {
    match &triple.subject {
        NamedOrBlankNode::NamedNode(node) => Some(node.as_str()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(text: &str) -> String {
        let number: serde_json::Number = serde_json::from_str(text).unwrap();
        number_literal(&number).to_string()
    }

    #[test]
    fn numbers_read_as_json_ld_reads_them() {
        let integer = "^^<http://www.w3.org/2001/XMLSchema#integer>";
        let double = "^^<http://www.w3.org/2001/XMLSchema#double>";
        assert_eq!(number("5"), format!("\"5\"{integer}"));
        assert_eq!(number("-0"), format!("\"0\"{integer}"));
        assert_eq!(number("5.0"), format!("\"5\"{integer}"));
        assert_eq!(number("1E2"), format!("\"100\"{integer}"));
        assert_eq!(number("1.5"), format!("\"1.5E0\"{double}"));
        assert_eq!(number("0.1"), format!("\"1.0E-1\"{double}"));
        assert_eq!(number("1e21"), format!("\"1.0E21\"{double}"));
        assert_eq!(
            number("123456789012345678901"),
            format!("\"123456789012345678901\"{integer}")
        );
    }

    #[test]
    fn json_literals_are_canonical() {
        let value: Value =
            serde_json::from_str(r#"{"b": [1, {"z": true, "a": null}], "a": "x"}"#).unwrap();
        assert_eq!(
            json_literal(&value).value(),
            r#"{"a":"x","b":[1,{"a":null,"z":true}]}"#
        );
    }
}
