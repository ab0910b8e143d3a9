//! A term's OWL class expressions and axiom annotations for people: the
//! Manchester syntax Protégé and pyLODE show ("cell and (part of some bone
//! marrow)"), each named class and property by its name, instead of the
//! blank-node rows of the RDF (`_:b188 rdf:first ...`, 17 rows for one
//! logical definition).
//!
//! A leaf: it reads a term's statements and names IRIs through the
//! caller's `Namer`; what it cannot read as an expression (a datatype
//! restriction, a malformed list) stays in the statements' rows.

use crate::model::namespaces::{OWL, RDF, RDFS};
use oxrdf::{BlankNode, NamedOrBlankNode, Term as Node, Triple};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// How deep an expression is read; deeper ones stay rows. Real ontologies
/// nest a few levels; a hostile one cannot make a page grow past this.
const DEPTH: usize = 12;
/// How many members of one list are read; longer lists stay rows.
const MEMBERS: usize = 1000;

/// The OWL terms a class expression's node may state (beside its
/// `rdf:type`): a node with any other statement is shown as rows.
const EXPRESSION_TERMS: [&str; 17] = [
    "onProperty",
    "someValuesFrom",
    "allValuesFrom",
    "hasValue",
    "hasSelf",
    "minCardinality",
    "maxCardinality",
    "cardinality",
    "minQualifiedCardinality",
    "maxQualifiedCardinality",
    "qualifiedCardinality",
    "onClass",
    "intersectionOf",
    "unionOf",
    "complementOf",
    "oneOf",
    "inverseOf",
];

/// A piece of a rendered expression: text, or a named class, property or
/// individual (a link where the site publishes it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Part {
    pub text: String,
    /// The IRI a name stands for.
    pub iri: Option<String>,
    /// Its page, where the site publishes it.
    pub href: Option<String>,
}

impl Part {
    fn text(text: &str) -> Part {
        Part {
            text: text.to_owned(),
            iri: None,
            href: None,
        }
    }
}

/// One axiom of the term about a class expression: `SubClassOf`,
/// `EquivalentTo`, ... and the expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Axiom {
    pub keyword: &'static str,
    pub parts: Vec<Part>,
}

/// An annotation of one of the term's statements (an `owl:Axiom`): a
/// definition's cross-references, a synonym's type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Annotation {
    pub property: Part,
    pub value: Part,
}

/// What the page shows of the term's expressions and axiom annotations,
/// and which of its statements they stand for.
#[derive(Debug, Default)]
pub struct Description<'t> {
    pub axioms: Vec<Axiom>,
    /// By (predicate, object) of the annotated statement.
    pub annotations: HashMap<(&'t str, &'t Node), Vec<Annotation>>,
    /// The statements shown as expressions or annotations (by position in
    /// the term's statements), left out of its rows.
    pub shown: HashSet<usize>,
}

/// Names an IRI for people: its name and page where the site publishes
/// it, else a prefixed name.
pub trait Namer {
    fn name(&self, iri: &str) -> Part;
}

/// The axioms with a class expression, and the axiom annotations, of the
/// term `iri` among its `statements`.
pub fn describe<'t>(iri: &str, statements: &'t [Triple], namer: &dyn Namer) -> Description<'t> {
    let mut under: HashMap<&BlankNode, Vec<usize>> = HashMap::new();
    for (at, t) in statements.iter().enumerate() {
        if let NamedOrBlankNode::BlankNode(b) = &t.subject {
            under.entry(b).or_default().push(at);
        }
    }
    let reader = Reader {
        statements,
        under,
        namer,
    };
    let mut description = Description::default();
    for (at, t) in statements.iter().enumerate() {
        let own = matches!(&t.subject, NamedOrBlankNode::NamedNode(s) if s.as_str() == iri);
        if !own || !matches!(t.object, Node::BlankNode(_)) {
            continue;
        }
        let Some(keyword) = keyword(t.predicate.as_str()) else {
            continue;
        };
        let mut used = Vec::new();
        if let Some(parts) = reader.expression(&t.object, 0, &mut used) {
            description.axioms.push(Axiom { keyword, parts });
            description.shown.insert(at);
            description.shown.extend(used);
        }
    }
    reader.annotations(iri, &mut description);
    description
}

/// The Manchester keyword of a predicate whose object is a class
/// expression.
fn keyword(predicate: &str) -> Option<&'static str> {
    let local = predicate
        .strip_prefix(RDFS)
        .map(|l| (RDFS, l))
        .or_else(|| predicate.strip_prefix(OWL).map(|l| (OWL, l)))?;
    Some(match local {
        (RDFS, "subClassOf") => "SubClassOf",
        (OWL, "equivalentClass") => "EquivalentTo",
        (OWL, "disjointWith") => "DisjointWith",
        (RDFS, "domain") => "Domain",
        (RDFS, "range") => "Range",
        (OWL, "inverseOf") => "InverseOf",
        _ => return None,
    })
}

struct Reader<'t, 'n> {
    statements: &'t [Triple],
    under: HashMap<&'t BlankNode, Vec<usize>>,
    namer: &'n dyn Namer,
}

impl<'t> Reader<'t, '_> {
    /// The object of `node`'s statement with `predicate` (OWL or RDF
    /// local name), and its position.
    fn get(&self, node: &BlankNode, namespace: &str, local: &str) -> Option<(usize, &'t Node)> {
        self.under.get(node)?.iter().find_map(|&at| {
            let t = &self.statements[at];
            (t.predicate.as_str().strip_prefix(namespace) == Some(local)).then_some((at, &t.object))
        })
    }

    /// A node as an expression, with the positions of the statements it
    /// took; None where it is not one this reads.
    fn expression(&self, node: &Node, depth: usize, used: &mut Vec<usize>) -> Option<Vec<Part>> {
        match node {
            Node::NamedNode(n) => Some(vec![self.namer.name(n.as_str())]),
            Node::Literal(l) => Some(vec![Part::text(&format!("\"{}\"", l.value()))]),
            Node::BlankNode(b) if depth < DEPTH => self.anonymous(b, depth, used),
            Node::BlankNode(_) => None,
        }
    }

    fn anonymous(&self, b: &BlankNode, depth: usize, used: &mut Vec<usize>) -> Option<Vec<Part>> {
        let start = used.len();
        let parts = self.anonymous_parts(b, depth, used);
        match parts {
            Some(parts) => {
                // Every statement of the node is now shown: its type too.
                used.extend(self.under.get(b).into_iter().flatten().copied());
                Some(parts)
            }
            None => {
                used.truncate(start);
                None
            }
        }
    }

    fn anonymous_parts(
        &self,
        b: &BlankNode,
        depth: usize,
        used: &mut Vec<usize>,
    ) -> Option<Vec<Part>> {
        // Every statement of the node must be one an expression has, or
        // the node is shown as rows (nothing is hidden that is not shown).
        let statements = self.under.get(b)?;
        if statements.iter().any(|&at| {
            let predicate = self.statements[at].predicate.as_str();
            predicate.strip_prefix(RDF) != Some("type")
                && !predicate
                    .strip_prefix(OWL)
                    .is_some_and(|local| EXPRESSION_TERMS.contains(&local))
        }) {
            return None;
        }
        if let Some((_, property)) = self.get(b, OWL, "onProperty") {
            return self.restriction(b, property, depth, used);
        }
        for (local, joint) in [("intersectionOf", " and "), ("unionOf", " or ")] {
            if let Some((_, list)) = self.get(b, OWL, local) {
                let members = self.list(list, used)?;
                let mut parts = Vec::new();
                for (n, member) in members.iter().enumerate() {
                    if n > 0 {
                        parts.push(Part::text(joint));
                    }
                    parts.extend(self.member(member, depth, used)?);
                }
                return Some(parts);
            }
        }
        if let Some((_, class)) = self.get(b, OWL, "complementOf") {
            let mut parts = vec![Part::text("not ")];
            parts.extend(self.member(class, depth, used)?);
            return Some(parts);
        }
        if let Some((_, list)) = self.get(b, OWL, "oneOf") {
            let members = self.list(list, used)?;
            let mut parts = vec![Part::text("{")];
            for (n, member) in members.iter().enumerate() {
                if n > 0 {
                    parts.push(Part::text(", "));
                }
                parts.extend(self.expression(member, depth + 1, used)?);
            }
            parts.push(Part::text("}"));
            return Some(parts);
        }
        None
    }

    /// A restriction on `property`: `P some C`, `P only C`, `P value v`,
    /// `P Self`, or a cardinality with its optional class.
    fn restriction(
        &self,
        b: &BlankNode,
        property: &Node,
        depth: usize,
        used: &mut Vec<usize>,
    ) -> Option<Vec<Part>> {
        let mut parts = self.property(property, depth, used)?;
        let (word, filler) = if let Some((_, c)) = self.get(b, OWL, "someValuesFrom") {
            ("some", Some(c))
        } else if let Some((_, c)) = self.get(b, OWL, "allValuesFrom") {
            ("only", Some(c))
        } else if let Some((_, v)) = self.get(b, OWL, "hasValue") {
            ("value", Some(v))
        } else if self.get(b, OWL, "hasSelf").is_some() {
            ("Self", None)
        } else {
            let (word, n) = [
                ("min", "minQualifiedCardinality"),
                ("max", "maxQualifiedCardinality"),
                ("exactly", "qualifiedCardinality"),
                ("min", "minCardinality"),
                ("max", "maxCardinality"),
                ("exactly", "cardinality"),
            ]
            .iter()
            .find_map(|(word, local)| Some((*word, self.get(b, OWL, local)?.1)))?;
            let Node::Literal(n) = n else { return None };
            parts.push(Part::text(&format!(" {word} {}", n.value())));
            if let Some((_, class)) = self.get(b, OWL, "onClass") {
                parts.push(Part::text(" "));
                parts.extend(self.member(class, depth, used)?);
            }
            return Some(parts);
        };
        parts.push(Part::text(&format!(" {word}")));
        if let Some(filler) = filler {
            parts.push(Part::text(" "));
            parts.extend(self.member(filler, depth, used)?);
        }
        Some(parts)
    }

    /// A property: named, or `inverse P`.
    fn property(&self, node: &Node, depth: usize, used: &mut Vec<usize>) -> Option<Vec<Part>> {
        match node {
            Node::BlankNode(b) => {
                let (at, inner) = self.get(b, OWL, "inverseOf")?;
                used.push(at);
                let mut parts = vec![Part::text("inverse ")];
                parts.extend(self.expression(inner, depth + 1, used)?);
                Some(parts)
            }
            other => self.expression(other, depth + 1, used),
        }
    }

    /// A member of an expression, in parentheses where it is not a name.
    fn member(&self, node: &Node, depth: usize, used: &mut Vec<usize>) -> Option<Vec<Part>> {
        let mut parts = self.expression(node, depth + 1, used)?;
        if matches!(node, Node::BlankNode(_)) {
            parts.insert(0, Part::text("("));
            parts.push(Part::text(")"));
        }
        Some(parts)
    }

    /// The members of an RDF list, its cells' statements taken.
    fn list(&self, head: &'t Node, used: &mut Vec<usize>) -> Option<Vec<&'t Node>> {
        let mut members = Vec::new();
        let mut at = head;
        loop {
            match at {
                Node::NamedNode(n) if n.as_str().strip_prefix(RDF) == Some("nil") => {
                    return Some(members);
                }
                Node::BlankNode(cell) if members.len() < MEMBERS => {
                    let (first_at, first) = self.get(cell, RDF, "first")?;
                    let (rest_at, rest) = self.get(cell, RDF, "rest")?;
                    if self.under.get(cell).map_or(0, Vec::len) != 2 {
                        return None;
                    }
                    used.extend([first_at, rest_at]);
                    members.push(first);
                    at = rest;
                }
                _ => return None,
            }
        }
    }

    /// The term's `owl:Axiom`s: each annotation of one of its statements,
    /// filed under that statement.
    fn annotations(&self, iri: &str, description: &mut Description<'t>) {
        let structural = [
            format!("{RDF}type"),
            format!("{OWL}annotatedSource"),
            format!("{OWL}annotatedProperty"),
            format!("{OWL}annotatedTarget"),
        ];
        let mut axioms: Vec<&BlankNode> = self
            .under
            .iter()
            .filter(|(b, _)| {
                matches!(self.get(b, OWL, "annotatedSource"),
                    Some((_, Node::NamedNode(s))) if s.as_str() == iri)
            })
            .map(|(b, _)| *b)
            .collect();
        axioms.sort_by_key(|b| self.under[b][0]);
        let own: HashSet<(&str, &Node)> = self
            .statements
            .iter()
            .filter(|t| matches!(&t.subject, NamedOrBlankNode::NamedNode(s) if s.as_str() == iri))
            .map(|t| (t.predicate.as_str(), &t.object))
            .collect();
        for axiom in axioms {
            let Some((_, Node::NamedNode(property))) = self.get(axiom, OWL, "annotatedProperty")
            else {
                continue;
            };
            let Some((_, target)) = self.get(axiom, OWL, "annotatedTarget") else {
                continue;
            };
            // Filed only under a statement the page shows: an annotation
            // of a statement the source does not make stays rows.
            if !own.contains(&(property.as_str(), target)) {
                continue;
            }
            // Only annotations with plain values are filed; an axiom with
            // nested structure stays rows.
            let rows = &self.under[axiom];
            if rows
                .iter()
                .any(|&at| matches!(self.statements[at].object, Node::BlankNode(_)))
            {
                continue;
            }
            let filed = description
                .annotations
                .entry((property.as_str(), target))
                .or_default();
            for &at in rows {
                let t = &self.statements[at];
                if structural.iter().any(|s| s == t.predicate.as_str()) {
                    continue;
                }
                let value = match &t.object {
                    Node::NamedNode(n) => self.namer.name(n.as_str()),
                    Node::Literal(l) => Part::text(l.value()),
                    Node::BlankNode(_) => continue,
                };
                filed.push(Annotation {
                    property: self.namer.name(t.predicate.as_str()),
                    value,
                });
            }
            description.shown.extend(rows.iter().copied());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxrdf::{Literal, NamedNode};

    struct Plain;

    impl Namer for Plain {
        fn name(&self, iri: &str) -> Part {
            Part {
                text: iri.rsplit('/').next().unwrap_or(iri).to_owned(),
                iri: Some(iri.to_owned()),
                href: None,
            }
        }
    }

    fn text(parts: &[Part]) -> String {
        parts.iter().map(|p| p.text.as_str()).collect()
    }

    /// Triples from a Turtle text.
    fn triples(turtle: &str) -> Vec<Triple> {
        oxttl::TurtleParser::new()
            .for_slice(turtle.as_bytes())
            .map(|t| t.unwrap())
            .collect()
    }

    const PREFIXES: &str = "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix : <http://t.test/> .\n";

    #[test]
    fn a_logical_definition_and_restrictions_read_as_manchester() {
        let statements = triples(&format!(
            "{PREFIXES}:x rdfs:subClassOf :y , [ a owl:Restriction ; owl:onProperty :has_output ; owl:someValuesFrom :alignment ] ;
               owl:equivalentClass [ a owl:Class ; owl:intersectionOf ( :cell [ a owl:Restriction ; owl:onProperty :part_of ; owl:someValuesFrom :marrow ] ) ] ;
               owl:disjointWith [ owl:complementOf [ owl:unionOf ( :a :b ) ] ] ;
               rdfs:subClassOf [ owl:onProperty [ owl:inverseOf :p ] ; owl:minQualifiedCardinality 2 ; owl:onClass :c ] ."
        ));
        let description = describe("http://t.test/x", &statements, &Plain);
        let axioms: Vec<(&str, String)> = description
            .axioms
            .iter()
            .map(|a| (a.keyword, text(&a.parts)))
            .collect();
        assert_eq!(
            axioms,
            [
                ("SubClassOf", "has_output some alignment".to_owned()),
                ("EquivalentTo", "cell and (part_of some marrow)".to_owned()),
                ("DisjointWith", "not (a or b)".to_owned()),
                ("SubClassOf", "inverse p min 2 c".to_owned()),
            ]
        );
        // Every statement but the named parent is shown by the axioms.
        let rows: Vec<usize> = (0..statements.len())
            .filter(|at| !description.shown.contains(at))
            .collect();
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(
            statements[rows[0]].object,
            NamedNode::new_unchecked("http://t.test/y").into()
        );
    }

    #[test]
    fn what_is_not_an_expression_stays_rows() {
        // A datatype restriction, and a restriction with a stray statement.
        let statements = triples(&format!(
            "{PREFIXES}:x rdfs:range [ a rdfs:Datatype ; owl:onDatatype :int ; owl:withRestrictions ( [ :min 1 ] ) ] ;
               rdfs:subClassOf [ owl:onProperty :p ; owl:someValuesFrom :c ; :note \"odd\" ] ."
        ));
        let description = describe("http://t.test/x", &statements, &Plain);
        assert!(description.axioms.is_empty());
        assert!(description.shown.is_empty());
    }

    #[test]
    fn a_definitions_references_are_filed_under_it() {
        let statements = triples(&format!(
            "{PREFIXES}@prefix obo: <http://purl.obolibrary.org/obo/> .
             @prefix oio: <http://www.geneontology.org/formats/oboInOwl#> .
             :x obo:IAO_0000115 \"A thing.\" .
             [ a owl:Axiom ; owl:annotatedSource :x ; owl:annotatedProperty obo:IAO_0000115 ;
               owl:annotatedTarget \"A thing.\" ; oio:hasDbXref \"PMID:1\" , \"ISBN:2\" ] ."
        ));
        let description = describe("http://t.test/x", &statements, &Plain);
        let definition: Node = Literal::new_simple_literal("A thing.").into();
        let filed =
            &description.annotations[&("http://purl.obolibrary.org/obo/IAO_0000115", &definition)];
        let mut values: Vec<&str> = filed.iter().map(|a| a.value.text.as_str()).collect();
        values.sort();
        assert_eq!(values, ["ISBN:2", "PMID:1"]);
        assert_eq!(description.shown.len(), 6);
    }

    #[test]
    fn a_hostile_depth_stays_rows_without_recursing_far() {
        let mut turtle = format!("{PREFIXES}:x rdfs:subClassOf ");
        for _ in 0..5000 {
            turtle.push_str("[ owl:complementOf ");
        }
        turtle.push_str(":y");
        for _ in 0..5000 {
            turtle.push_str(" ]");
        }
        turtle.push_str(" .");
        let statements = triples(&turtle);
        let description = describe("http://t.test/x", &statements, &Plain);
        assert!(description.axioms.is_empty());
    }
}
