//! The files of hash documents (`site::hashes`): `/pato`, where
//! `pato#attribute_slim` and every other `pato#…` IRI arrive. Its data
//! documents hold what each of its terms' own documents state (a removed
//! term's, what its tombstone states); its page has an anchor per
//! fragment, linking the term's page, which the page script follows.

use super::context::{Context, HashDocument, Member};
use super::error::RenderError;
use super::rdf;
use crate::site::formats::Representation;
use serde_json::json;

/// A term of a hash document as its JSON and its page name it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed<'a> {
    pub fragment: &'a str,
    pub iri: &'a str,
    pub id: &'a str,
    pub name: &'a str,
    pub slug: &'a str,
    /// The release it is gone since, for a removed term.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_in: Option<&'a str>,
    /// Its JSON document (a removed term's, its tombstone).
    pub url: String,
}

/// Each term of `document`, in fragment order.
pub fn listed<'a>(site: &'a Context, document: &'a HashDocument) -> Vec<Listed<'a>> {
    document
        .terms
        .iter()
        .map(|(fragment, member)| match *member {
            Member::Entity(i) => {
                let entity = &site.ontology.entities[i];
                Listed {
                    fragment,
                    iri: entity.iri.as_deref().unwrap_or_default(),
                    id: &entity.id,
                    name: &entity.name,
                    slug: entity.slug.as_str(),
                    removed_in: None,
                    url: site.url(&format!("{}.json", entity.slug.as_str())),
                }
            }
            Member::Removed(i) => {
                let removed = &site.removed[i];
                Listed {
                    fragment,
                    iri: &removed.term.iri,
                    id: &removed.term.id,
                    name: &removed.term.name,
                    slug: &removed.term.slug,
                    removed_in: Some(&removed.removed_in),
                    url: site.url(&format!("{}.json", removed.term.slug)),
                }
            }
        })
        .collect()
}

/// The document in a data format, without the newline its file ends
/// with; `false` for its page, which `html::hash_document` renders.
pub fn data(
    site: &Context,
    document: &HashDocument,
    representation: Representation,
    out: &mut Vec<u8>,
) -> Result<bool, RenderError> {
    if representation == Representation::Html {
        return Ok(false);
    }
    let Some(syntax) = rdf::Syntax::of(representation) else {
        let terms = listed(site, document);
        serde_json::to_writer(out, &json!({ "iri": document.iri, "terms": terms }))?;
        return Ok(true);
    };
    // Each statement once: a term's document repeats the statements of
    // the others that point at it.
    let mut seen = std::collections::HashSet::new();
    let mut triples = Vec::new();
    // Where the document's IRI is the ontology's own (`https://w3id.org/x`
    // for terms `x#…`), what the ontology says of itself comes first: its
    // IRI dereferenced promises its header.
    let header = site.ontology.meta.header.as_ref();
    let header = header.filter(|header| header.iri.trim_end_matches('#') == document.iri);
    for triple in header.iter().flat_map(|header| &header.statements) {
        let triple = std::borrow::Cow::Borrowed(triple);
        if seen.insert(triple.clone()) {
            triples.push(triple);
        }
    }
    for (_, member) in &document.terms {
        let stated = match *member {
            Member::Entity(i) => rdf::document_triples(site, &site.ontology.entities[i])?,
            Member::Removed(i) => super::releases::removed_triples(site, &site.removed[i])?
                .into_iter()
                .map(std::borrow::Cow::Owned)
                .collect(),
        };
        for triple in stated {
            if seen.insert(triple.clone()) {
                triples.push(triple);
            }
        }
    }
    rdf::write(site, syntax, &triples, out)?;
    Ok(true)
}
