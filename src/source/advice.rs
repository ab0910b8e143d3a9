//! Advice on a valid input: what a publisher likely meant but the rules do
//! not say. Not errors (the site builds as the input says); `check` and
//! `build` print them so that a setting is one edit away.

use crate::model::Ontology;
use oxrdf::{NamedOrBlankNode, Term as Node};
use std::collections::BTreeMap;

/// Words in a predicate's local name that say it holds a description.
const DESCRIPTION_WORDS: [&str; 6] = [
    "definition",
    "description",
    "comment",
    "abstract",
    "gloss",
    "note",
];

/// At most this many predicates are named in one piece of advice.
const NAMED: usize = 3;
/// At most this many notes of lenient reading are printed one by one.
const NOTED: usize = 20;

/// Every piece of advice for `ontology`, as sentences: what its sources'
/// readers took leniently (at most [`NOTED`] of them, then how many more),
/// then what it likely meant.
pub fn advice(ontology: &Ontology) -> Vec<String> {
    let notes = &ontology.meta.read_notes;
    let mut advice: Vec<String> = notes.iter().take(NOTED).cloned().collect();
    if notes.len() > NOTED {
        advice.push(format!(
            "... and {} more read the same way",
            notes.len() - NOTED
        ));
    }
    advice.extend(description_look_alikes(ontology));
    advice
}

/// Terms without a description that state a text with a predicate whose
/// name says it is one (PROV-O's `prov:definition` before it was a default
/// rule; `skos:scopeNote`): the predicates, most used first, and the
/// setting that takes them.
fn description_look_alikes(ontology: &Ontology) -> Option<String> {
    let mut without = 0;
    let mut found: BTreeMap<&str, usize> = BTreeMap::new();
    for entity in &ontology.entities {
        let Some(term) = &entity.term else { continue };
        if !entity.description.is_empty() {
            continue;
        }
        without += 1;
        let mut here: Vec<&str> = Vec::new();
        for triple in &term.statements {
            let own = matches!(&triple.subject, NamedOrBlankNode::NamedNode(s)
                if Some(s.as_str()) == entity.iri.as_deref());
            // An empty text describes nothing, and a predicate the rule
            // reads gives a term its description from any text it has.
            let text = matches!(&triple.object, Node::Literal(l) if !l.value().trim().is_empty());
            if !own || !text {
                continue;
            }
            let predicate = triple.predicate.as_str();
            let local = crate::model::namespaces::local_name(predicate).to_lowercase();
            if DESCRIPTION_WORDS.iter().any(|w| local.contains(w)) && !here.contains(&predicate) {
                here.push(predicate);
            }
        }
        for predicate in here {
            *found.entry(predicate).or_default() += 1;
        }
    }
    if found.is_empty() {
        return None;
    }
    let mut ranked: Vec<(&str, usize)> = found.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let named: Vec<String> = ranked
        .iter()
        .take(NAMED)
        .map(|(p, n)| format!("<{p}> on {n}"))
        .collect();
    let terms = ontology
        .entities
        .iter()
        .filter(|e| e.term.is_some())
        .count();
    Some(format!(
        "{without} of {terms} terms have no description, and some state a text that looks like one: {}. To take it, list it in `terms.description` in ontology.json with the predicates already used (by default skos:definition, obo:IAO_0000115, oboInOwl:hasDefinition, prov:definition, dcterms:description, rdfs:comment), in order of preference",
        named.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Entity, OntologyMeta, Origin, Slug, Term};
    use oxrdf::{Literal, NamedNode, Triple};

    fn term(iri: &str, description: &str, statements: &[(&str, &str)]) -> Entity {
        Entity {
            id: iri.to_owned(),
            slug: Slug::parse("x").unwrap(),
            name: "x".to_owned(),
            description: description.to_owned(),
            iri: Some(iri.to_owned()),
            extra: Default::default(),
            link_names: Default::default(),
            term: Some(Box::new(Term {
                statements: statements
                    .iter()
                    .map(|(p, o)| {
                        Triple::new(
                            NamedNode::new_unchecked(iri),
                            NamedNode::new_unchecked(*p),
                            Literal::new_simple_literal(*o),
                        )
                    })
                    .collect(),
                ..Term::default()
            })),
            origin: Origin {
                path: std::path::Path::new("t.ttl").into(),
                line: None,
            },
        }
    }

    #[test]
    fn a_predicate_named_like_a_description_is_pointed_out() {
        let note = "http://www.w3.org/2004/02/skos/core#scopeNote";
        let ontology = Ontology {
            meta: OntologyMeta::for_test("Term", ""),
            entities: vec![
                term("http://t.test/a", "", &[(note, "a note")]),
                term("http://t.test/b", "has one", &[(note, "a note")]),
                term("http://t.test/c", "", &[("http://t.test/label", "c")]),
            ],
        };
        let advice = advice(&ontology);
        assert_eq!(advice.len(), 1);
        assert!(
            advice[0].starts_with("2 of 3 terms have no description")
                && advice[0].contains(&format!("<{note}> on 1")),
            "{advice:?}"
        );
        let described = Ontology {
            meta: OntologyMeta::for_test("Term", ""),
            entities: vec![term("http://t.test/b", "has one", &[(note, "n")])],
        };
        assert!(super::advice(&described).is_empty());
    }

    /// An empty text is no description: neither counted as one that looks
    /// like it nor its predicate recommended (issue 63: `rdfs:comment ""`).
    #[test]
    fn an_empty_text_is_not_advice() {
        let comment = "http://www.w3.org/2000/01/rdf-schema#comment";
        let ontology = Ontology {
            meta: OntologyMeta::for_test("Term", ""),
            entities: vec![term("http://t.test/a", "", &[(comment, " ")])],
        };
        assert_eq!(advice(&ontology), Vec::<String>::new());
    }

    /// The readers' notes come first, at most `NOTED` of them, then how
    /// many more.
    #[test]
    fn the_readers_notes_are_said_and_counted() {
        let mut meta = OntologyMeta::for_test("Term", "");
        meta.read_notes = (0..NOTED + 3).map(|n| format!("a.obo:{n}: read")).collect();
        let advice = advice(&Ontology {
            meta,
            entities: Vec::new(),
        });
        assert_eq!(advice.len(), NOTED + 1);
        assert_eq!(advice[0], "a.obo:0: read");
        assert_eq!(advice[NOTED], "... and 3 more read the same way");
    }
}
