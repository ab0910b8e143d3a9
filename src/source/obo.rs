//! OBO flat files (1.2 and 1.4), read by fastobo and stated as the triples
//! the OBO-to-OWL mapping gives them (the OBO 1.4 specification, section
//! 5, as the OBO Foundry's tools publish OWL), so that an OBO ontology and
//! its OWL release become the same terms.
//!
//! Tags the mapping names become its properties (`name` → `rdfs:label`,
//! `def` → `IAO:0000115` with its cross-references on an axiom, `is_a` →
//! `rdfs:subClassOf`, `relationship` → an existential restriction, ...);
//! every other tag becomes `oboInOwl:{tag}` with its value as text, as the
//! specification says for tags it does not name: nothing is dropped.

use super::diagnostic::Diagnostic;
use super::graph::Graph;
use crate::model::namespaces::{DC, DCTERMS, OBO, OBO_IN_OWL, OWL, RDF, RDFS, SKOS, XSD};
use fastobo::ast::{
    ClassIdent, EntityFrame, HeaderClause, Ident, PropertyValue, SynonymScope, TermClause,
    TypedefClause,
};
use oxrdf::{BlankNode, Literal, NamedNode, NamedOrBlankNode, Term, Triple};
use std::collections::HashMap;
use std::path::Path;

/// Reads the OBO file `path` into `graph`. A syntax error is reported at
/// its line and column (fastobo stops at the first).
pub fn read(path: &Path, graph: &mut Graph) -> Vec<Diagnostic> {
    let doc = match fastobo::from_file(path) {
        Ok(doc) => doc,
        Err(error) => return vec![problem(path, &error)],
    };
    let mut ids = Ids {
        ontology: String::new(),
        idspaces: HashMap::new(),
    };
    for clause in doc.header().iter() {
        match clause {
            HeaderClause::Ontology(name) => ids.ontology = name.as_str().to_owned(),
            HeaderClause::Idspace(prefix, url, _) => {
                ids.idspaces
                    .insert(prefix.as_str().to_owned(), url.as_str().to_owned());
            }
            _ => {}
        }
    }
    let mut out = Emit { graph, ids: &ids };
    out.header(doc.header());
    for frame in doc.entities() {
        match frame {
            EntityFrame::Term(term) => {
                let subject = out.ident(term.id().as_id());
                out.declare(&subject, &format!("{OWL}Class"));
                for line in term.clauses() {
                    out.term_clause(&subject, line.as_inner());
                }
                out.class_expressions(&subject, term.clauses().iter().map(|l| l.as_inner()));
            }
            EntityFrame::Typedef(typedef) => {
                let subject = out.ident(typedef.id().as_id());
                let metadata = typedef
                    .clauses()
                    .iter()
                    .any(|l| matches!(l.as_inner(), TypedefClause::IsMetadataTag(true)));
                let kind = if metadata {
                    "AnnotationProperty"
                } else {
                    "ObjectProperty"
                };
                out.declare(&subject, &format!("{OWL}{kind}"));
                for line in typedef.clauses() {
                    out.typedef_clause(&subject, line.as_inner());
                }
            }
            EntityFrame::Instance(instance) => {
                let subject = out.ident(instance.id().as_id());
                out.declare(&subject, &format!("{OWL}NamedIndividual"));
                for line in instance.clauses() {
                    out.other(&subject, &line.as_inner().to_string());
                }
            }
        }
    }
    Vec::new()
}

fn problem(path: &Path, error: &fastobo::error::Error) -> Diagnostic {
    use fastobo::error::{Error, SyntaxError};
    use fastobo::syntax::pest::error::LineColLocation;
    let help = "fix the OBO at that place: see the OBO 1.4 flat file format (https://owlcollab.github.io/oboformat/doc/obo-syntax.html)";
    match error {
        Error::SyntaxError {
            error: SyntaxError::ParserError { error },
        } => {
            let (line, column) = match error.line_col {
                LineColLocation::Pos(at) | LineColLocation::Span(at, _) => at,
            };
            let what = error.variant.message();
            Diagnostic::new(path, format!("OBO syntax error: {what}"), help)
                .at(Some(line), Some(column))
        }
        Error::IOError { error } => Diagnostic::new(
            path,
            format!("cannot be read: {error}"),
            "check that the file exists and is readable",
        ),
        other => Diagnostic::new(path, format!("OBO error: {other}"), help),
    }
}

/// How OBO identifiers become IRIs: `PATO:0000001` →
/// `http://purl.obolibrary.org/obo/PATO_0000001`; a prefix the header
/// declares with `idspace` (or one of RDF's own, `owl:`, `rdfs:`, `xsd:`)
/// → its URL and the local part; an unprefixed `part_of` → the ontology's
/// `http://purl.obolibrary.org/obo/{ontology}#part_of`; a URL as it is.
struct Ids {
    ontology: String,
    idspaces: HashMap<String, String>,
}

impl Ids {
    fn iri(&self, id: &Ident) -> String {
        match id {
            Ident::Prefixed(id) => {
                let (prefix, local) = (id.prefix(), id.local());
                let known = [
                    ("rdf", RDF),
                    ("rdfs", RDFS),
                    ("owl", OWL),
                    ("xsd", XSD),
                    ("dc", DC),
                    ("dcterms", DCTERMS),
                    ("skos", SKOS),
                    ("oboInOwl", OBO_IN_OWL),
                ];
                if let Some(url) = self.idspaces.get(prefix) {
                    format!("{url}{local}")
                } else if let Some((_, namespace)) = known.iter().find(|(p, _)| *p == prefix) {
                    format!("{namespace}{local}")
                } else {
                    format!("{OBO}{prefix}_{local}")
                }
            }
            Ident::Unprefixed(id) => format!("{OBO}{}#{}", self.ontology, id.as_str()),
            Ident::Url(url) => url.as_str().to_owned(),
        }
    }
}

/// Writes triples into the graph.
struct Emit<'g> {
    graph: &'g mut Graph,
    ids: &'g Ids,
}

impl Emit<'_> {
    fn ident(&self, id: &Ident) -> NamedOrBlankNode {
        named(&self.ids.iri(id)).into()
    }

    fn add(&mut self, subject: &NamedOrBlankNode, predicate: &str, object: impl Into<Term>) {
        self.graph
            .push(Triple::new(subject.clone(), named(predicate), object));
    }

    fn declare(&mut self, subject: &NamedOrBlankNode, kind: &str) {
        self.add(subject, &format!("{RDF}type"), named(kind));
    }

    fn text(&mut self, subject: &NamedOrBlankNode, predicate: &str, text: &str) {
        self.add(subject, predicate, Literal::new_simple_literal(text));
    }

    fn link(&mut self, subject: &NamedOrBlankNode, predicate: &str, id: &Ident) {
        let object = named(&self.ids.iri(id));
        self.add(subject, predicate, object);
    }

    /// An axiom annotating `subject predicate text` with cross-references.
    fn xref_axiom<'x>(
        &mut self,
        subject: &NamedOrBlankNode,
        predicate: &str,
        text: &str,
        xrefs: impl Iterator<Item = &'x fastobo::ast::Xref>,
    ) {
        let mut axiom: Option<BlankNode> = None;
        for xref in xrefs {
            let node: NamedOrBlankNode = axiom
                .get_or_insert_with(|| self.graph.new_blank_node())
                .clone()
                .into();
            self.text(
                &node,
                &format!("{OBO_IN_OWL}hasDbXref"),
                &xref.id().to_string(),
            );
        }
        if let Some(axiom) = axiom {
            let node: NamedOrBlankNode = axiom.into();
            self.declare(&node, &format!("{OWL}Axiom"));
            self.add(&node, &format!("{OWL}annotatedSource"), term_of(subject));
            self.add(&node, &format!("{OWL}annotatedProperty"), named(predicate));
            self.add(
                &node,
                &format!("{OWL}annotatedTarget"),
                Literal::new_simple_literal(text),
            );
        }
    }

    /// `[ a owl:Restriction ; owl:onProperty R ; owl:someValuesFrom C ]`.
    fn restriction(&mut self, relation: &Ident, class: &ClassIdent) -> Term {
        let node: NamedOrBlankNode = self.graph.new_blank_node().into();
        self.declare(&node, &format!("{OWL}Restriction"));
        self.link(&node, &format!("{OWL}onProperty"), relation);
        self.link(&node, &format!("{OWL}someValuesFrom"), class.as_id());
        term_of(&node)
    }

    /// An RDF list of `items`.
    fn list(&mut self, items: Vec<Term>) -> Term {
        let mut rest: Term = named(&format!("{RDF}nil")).into();
        for item in items.into_iter().rev() {
            let node: NamedOrBlankNode = self.graph.new_blank_node().into();
            self.add(&node, &format!("{RDF}first"), item);
            self.add(&node, &format!("{RDF}rest"), rest);
            rest = term_of(&node);
        }
        rest
    }

    /// A tag the mapping does not name: `oboInOwl:{tag} "value"`.
    fn other(&mut self, subject: &NamedOrBlankNode, line: &str) {
        if let Some((tag, value)) = line.split_once(':') {
            let value = value.trim();
            self.text(subject, &format!("{OBO_IN_OWL}{}", tag.trim()), value);
        }
    }

    /// `def`: `IAO:0000115`, its cross-references on an axiom.
    fn definition(&mut self, subject: &NamedOrBlankNode, def: &fastobo::ast::Definition) {
        let predicate = format!("{OBO}IAO_0000115");
        self.text(subject, &predicate, def.text());
        self.xref_axiom(subject, &predicate, def.text(), def.xrefs().iter());
    }

    /// `synonym`: the property of its scope, its cross-references on an
    /// axiom.
    fn synonym(&mut self, subject: &NamedOrBlankNode, synonym: &fastobo::ast::Synonym) {
        let scope = match synonym.scope() {
            SynonymScope::Exact => "hasExactSynonym",
            SynonymScope::Broad => "hasBroadSynonym",
            SynonymScope::Narrow => "hasNarrowSynonym",
            SynonymScope::Related => "hasRelatedSynonym",
        };
        let predicate = format!("{OBO_IN_OWL}{scope}");
        let text = synonym.description().as_str();
        self.text(subject, &predicate, text);
        self.xref_axiom(subject, &predicate, text, synonym.xrefs().iter());
    }

    fn property_value(&mut self, subject: &NamedOrBlankNode, value: &PropertyValue) {
        match value {
            PropertyValue::Resource(pv) => {
                let predicate = self.ids.iri(pv.property().as_id());
                let object = named(&self.ids.iri(pv.target()));
                self.add(subject, &predicate, object);
            }
            PropertyValue::Literal(pv) => {
                let predicate = self.ids.iri(pv.property().as_id());
                let datatype = self.ids.iri(pv.datatype());
                let text = pv.literal().as_str();
                let literal = if datatype == format!("{XSD}string") {
                    Literal::new_simple_literal(text)
                } else {
                    Literal::new_typed_literal(text, named(&datatype))
                };
                self.add(subject, &predicate, literal);
            }
        }
    }

    fn header(&mut self, header: &fastobo::ast::HeaderFrame) {
        let ontology: NamedOrBlankNode = named(&format!("{OBO}{}.owl", self.ids.ontology)).into();
        self.declare(&ontology, &format!("{OWL}Ontology"));
        for clause in header.iter() {
            match clause {
                HeaderClause::Ontology(_) | HeaderClause::Idspace(..) => {}
                HeaderClause::FormatVersion(v) => {
                    self.text(&ontology, &format!("{OBO_IN_OWL}hasOBOFormatVersion"), v)
                }
                // The OBO 1.4 mapping: obo:{ontology}/{version}/{ontology}.owl.
                HeaderClause::DataVersion(v) => {
                    let name = &self.ids.ontology;
                    let iri = named(&format!("{OBO}{name}/{}/{name}.owl", v.as_str()));
                    self.add(&ontology, &format!("{OWL}versionIRI"), iri);
                }
                HeaderClause::Remark(v) => self.text(&ontology, &format!("{RDFS}comment"), v),
                HeaderClause::DefaultNamespace(v) => self.text(
                    &ontology,
                    &format!("{OBO_IN_OWL}default-namespace"),
                    &v.to_string(),
                ),
                HeaderClause::Import(import) => {
                    let target = import.to_string();
                    let iri = if target.contains("://") {
                        target
                    } else {
                        format!("{OBO}{target}.owl")
                    };
                    self.add(&ontology, &format!("{OWL}imports"), named(&iri));
                }
                HeaderClause::Subsetdef(subset, description) => {
                    let node = self.ident(subset.as_id());
                    self.declare(&node, &format!("{OWL}AnnotationProperty"));
                    self.text(&node, &format!("{RDFS}comment"), description.as_str());
                    self.add(
                        &node,
                        &format!("{RDFS}subPropertyOf"),
                        named(&format!("{OBO_IN_OWL}SubsetProperty")),
                    );
                }
                HeaderClause::PropertyValue(pv) => self.property_value(&ontology, pv),
                other => self.other(&ontology, &other.to_string()),
            }
        }
    }

    fn term_clause(&mut self, subject: &NamedOrBlankNode, clause: &TermClause) {
        let o = |local: &str| format!("{OBO_IN_OWL}{local}");
        match clause {
            TermClause::Name(name) => self.text(subject, &format!("{RDFS}label"), name),
            TermClause::Def(def) => self.definition(subject, def),
            TermClause::Comment(text) => self.text(subject, &format!("{RDFS}comment"), text),
            TermClause::Synonym(synonym) => self.synonym(subject, synonym),
            TermClause::Xref(xref) => self.text(subject, &o("hasDbXref"), &xref.id().to_string()),
            TermClause::Namespace(ns) => self.text(subject, &o("hasOBONamespace"), &ns.to_string()),
            TermClause::AltId(id) => self.text(subject, &o("hasAlternativeId"), &id.to_string()),
            TermClause::Subset(subset) => self.link(subject, &o("inSubset"), subset.as_id()),
            TermClause::IsA(parent) => {
                self.link(subject, &format!("{RDFS}subClassOf"), parent.as_id())
            }
            TermClause::Relationship(relation, class) => {
                let restriction = self.restriction(relation.as_id(), class);
                self.add(subject, &format!("{RDFS}subClassOf"), restriction);
            }
            TermClause::DisjointFrom(class) => {
                self.link(subject, &format!("{OWL}disjointWith"), class.as_id())
            }
            TermClause::EquivalentTo(class) => {
                self.link(subject, &format!("{OWL}equivalentClass"), class.as_id())
            }
            TermClause::IsObsolete(obsolete) => self.add(
                subject,
                &format!("{OWL}deprecated"),
                Literal::from(*obsolete),
            ),
            TermClause::ReplacedBy(id) => {
                self.link(subject, &format!("{OBO}IAO_0100001"), id.as_id())
            }
            TermClause::Consider(id) => self.link(subject, &o("consider"), id.as_id()),
            TermClause::CreatedBy(by) => self.text(subject, &o("created_by"), by),
            TermClause::CreationDate(date) => {
                self.text(subject, &o("creation_date"), &date.to_string())
            }
            TermClause::PropertyValue(pv) => self.property_value(subject, pv),
            // Intersections are gathered into one class expression by
            // `intersections`, called once per frame.
            TermClause::IntersectionOf(..) | TermClause::UnionOf(_) => {}
            other => self.other(subject, &other.to_string()),
        }
    }

    /// `intersection_of` and `union_of` lines, each kind one equivalent
    /// class: `[ a owl:Class ; owl:intersectionOf ( ... ) ]`.
    fn class_expressions<'c>(
        &mut self,
        subject: &NamedOrBlankNode,
        clauses: impl Iterator<Item = &'c TermClause> + Clone,
    ) {
        let mut intersection = Vec::new();
        let mut union = Vec::new();
        for clause in clauses {
            match clause {
                TermClause::IntersectionOf(None, class) => {
                    intersection.push(named(&self.ids.iri(class.as_id())).into())
                }
                TermClause::IntersectionOf(Some(relation), class) => {
                    let restriction = self.restriction(relation.as_id(), class);
                    intersection.push(restriction);
                }
                TermClause::UnionOf(class) => {
                    union.push(named(&self.ids.iri(class.as_id())).into())
                }
                _ => {}
            }
        }
        for (operator, items) in [("intersectionOf", intersection), ("unionOf", union)] {
            if items.is_empty() {
                continue;
            }
            let node: NamedOrBlankNode = self.graph.new_blank_node().into();
            self.add(subject, &format!("{OWL}equivalentClass"), term_of(&node));
            self.declare(&node, &format!("{OWL}Class"));
            let list = self.list(items);
            self.add(&node, &format!("{OWL}{operator}"), list);
        }
    }

    fn typedef_clause(&mut self, subject: &NamedOrBlankNode, clause: &TypedefClause) {
        let o = |local: &str| format!("{OBO_IN_OWL}{local}");
        let characteristic = |clause: &TypedefClause| match clause {
            TypedefClause::IsTransitive(true) => Some("TransitiveProperty"),
            TypedefClause::IsSymmetric(true) => Some("SymmetricProperty"),
            TypedefClause::IsAsymmetric(true) => Some("AsymmetricProperty"),
            TypedefClause::IsReflexive(true) => Some("ReflexiveProperty"),
            TypedefClause::IsFunctional(true) => Some("FunctionalProperty"),
            TypedefClause::IsInverseFunctional(true) => Some("InverseFunctionalProperty"),
            _ => None,
        };
        if let Some(kind) = characteristic(clause) {
            self.declare(subject, &format!("{OWL}{kind}"));
            return;
        }
        match clause {
            TypedefClause::Name(name) => self.text(subject, &format!("{RDFS}label"), name),
            TypedefClause::Def(def) => self.definition(subject, def),
            TypedefClause::Comment(text) => self.text(subject, &format!("{RDFS}comment"), text),
            TypedefClause::Synonym(synonym) => self.synonym(subject, synonym),
            TypedefClause::Xref(xref) => {
                self.text(subject, &o("hasDbXref"), &xref.id().to_string())
            }
            TypedefClause::Subset(subset) => self.link(subject, &o("inSubset"), subset.as_id()),
            TypedefClause::IsA(parent) => {
                self.link(subject, &format!("{RDFS}subPropertyOf"), parent.as_id())
            }
            TypedefClause::Domain(class) => {
                self.link(subject, &format!("{RDFS}domain"), class.as_id())
            }
            TypedefClause::Range(class) => {
                self.link(subject, &format!("{RDFS}range"), class.as_id())
            }
            TypedefClause::InverseOf(relation) => {
                self.link(subject, &format!("{OWL}inverseOf"), relation.as_id())
            }
            TypedefClause::IsObsolete(obsolete) => self.add(
                subject,
                &format!("{OWL}deprecated"),
                Literal::from(*obsolete),
            ),
            TypedefClause::ReplacedBy(id) => {
                self.link(subject, &format!("{OBO}IAO_0100001"), id.as_id())
            }
            TypedefClause::PropertyValue(pv) => self.property_value(subject, pv),
            TypedefClause::IsMetadataTag(true) => {}
            other => self.other(subject, &other.to_string()),
        }
    }
}

/// An IRI from an OBO identifier. OBO allows characters in identifiers
/// that IRIs do not (a space, `<`, `"`, ...): those are percent-encoded,
/// as RFC 3987 maps them to URIs.
fn named(iri: &str) -> NamedNode {
    NamedNode::new(iri).unwrap_or_else(|_| {
        let mut encoded = String::with_capacity(iri.len());
        for c in iri.chars() {
            if c.is_control() || c.is_whitespace() || "<>\"{}|\\^`".contains(c) {
                let mut bytes = [0; 4];
                for b in c.encode_utf8(&mut bytes).bytes() {
                    encoded.push_str(&format!("%{b:02X}"));
                }
            } else {
                encoded.push(c);
            }
        }
        NamedNode::new_unchecked(encoded)
    })
}

fn term_of(node: &NamedOrBlankNode) -> Term {
    match node {
        NamedOrBlankNode::NamedNode(n) => n.clone().into(),
        NamedOrBlankNode::BlankNode(b) => b.clone().into(),
    }
}
