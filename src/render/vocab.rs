//! The vocabulary of the terms ontosite mints: `slug`, the links to an
//! entity's documents, and every pass-through field. Published at `/vocab`
//! so that each term's IRI says what it means, in the namespace
//! `ontology.json` fixes (or `{base}/vocab#`).

use super::context::Context;
use super::error::RenderError;
use super::rdf::{self, OWL, RDFS, iri};
use crate::site::formats::ENTITY_FORMATS;
use oxrdf::vocab::rdf as rdf_vocab;
use oxrdf::{Literal, NamedNode, Triple};
use serde::Serialize;

/// One term, as the vocabulary defines it.
#[derive(Debug, Serialize)]
pub struct Term {
    pub name: String,
    pub iri: String,
    pub comment: String,
}

/// The vocabulary's own IRI: its namespace without the `#` of a hash
/// namespace.
pub fn iri_of(site: &Context) -> String {
    let namespace = site.vocabulary();
    namespace.strip_suffix('#').unwrap_or(&namespace).to_owned()
}

/// Every term, in name order.
pub fn terms(site: &Context) -> Vec<Term> {
    let meta = &site.ontology.meta;
    let mut terms = vec![(
        "slug".to_owned(),
        "The entity's slug: the last segment of its IRI, which names its documents ({slug}.json, {slug}.ttl, ...).".to_owned(),
    )];
    // The plain JSON's `links` name each document; its JSON-LD context
    // maps `json` to schema:url and the others to these terms.
    for format in ENTITY_FORMATS.iter().filter(|f| f.extension != "json") {
        terms.push((
            format.extension.to_owned(),
            format!(
                "The URL of the entity's {} document (`links.{}` of its plain JSON).",
                format.title, format.extension
            ),
        ));
    }
    if site.has_terms {
        for (key, _, comment) in super::jsonld::TERM_KEYS {
            if !comment.is_empty() {
                terms.push(((*key).to_owned(), (*comment).to_owned()));
            }
        }
    }
    for &key in site.extra_terms.keys() {
        let comment = match meta.sibling_linked_by(key) {
            Some(sibling) => format!(
                "The `{key}` field of the input; its values are entities of the sibling ontology `{}` ({}).",
                sibling.name,
                sibling.base_url.join("")
            ),
            None => format!("The `{key}` field of the input, published unchanged."),
        };
        terms.push((key.to_owned(), comment));
    }
    terms.sort_by(|a, b| a.0.cmp(&b.0));
    terms.dedup_by(|a, b| a.0 == b.0);
    terms
        .into_iter()
        .map(|(name, comment)| Term {
            iri: site.term(&name),
            name,
            comment,
        })
        .collect()
}

/// The vocabulary as RDF: an `owl:Ontology`, and each term an
/// `rdf:Property` with its label, comment and `rdfs:isDefinedBy`.
pub fn triples(site: &Context) -> Result<Vec<Triple>, RenderError> {
    let vocabulary = iri(iri_of(site))?;
    let rdfs = |term: &str| NamedNode::new_unchecked(format!("{RDFS}{term}"));
    let mut triples = vec![
        Triple::new(
            vocabulary.clone(),
            rdf_vocab::TYPE,
            NamedNode::new_unchecked(format!("{OWL}Ontology")),
        ),
        Triple::new(
            vocabulary.clone(),
            rdfs("label"),
            Literal::from(format!("Terms of {}", site.ontology.meta.name)),
        ),
        Triple::new(
            vocabulary.clone(),
            rdfs("comment"),
            Literal::from(
                "The terms ontosite minted to publish this ontology: the slug, the links to each entity's documents, and the input's own fields.",
            ),
        ),
    ];
    for term in terms(site) {
        let subject = iri(term.iri)?;
        triples.extend([
            Triple::new(subject.clone(), rdf_vocab::TYPE, rdf_vocab::PROPERTY),
            Triple::new(subject.clone(), rdfs("label"), Literal::from(term.name)),
            Triple::new(
                subject.clone(),
                rdfs("comment"),
                Literal::from(term.comment),
            ),
            Triple::new(subject, rdfs("isDefinedBy"), vocabulary.clone()),
        ]);
    }
    Ok(triples)
}

pub fn render(site: &Context, syntax: rdf::Syntax, out: &mut Vec<u8>) -> Result<(), RenderError> {
    rdf::write(site, syntax, &triples(site)?, out)
}
