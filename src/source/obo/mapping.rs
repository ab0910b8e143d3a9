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

use super::stanza::{Lenient, StanzaKind};
use super::{Clause, Document};
use crate::model::namespaces::{
    DC, DCTERMS, OBO, OBO_IN_OWL, OWL, RDF, RDFS, SKOS, XSD, written_as_url,
};
use crate::source::graph::Graph;
use fastobo::ast::{ClassIdent, HeaderClause, Ident, PropertyValue, TermClause, TypedefClause};
use oxrdf::{Literal, NamedNode, NamedOrBlankNode, Term, Triple};
use std::collections::HashMap;

/// States `document` in `graph`, as the OBO-to-OWL mapping does.
pub fn emit(document: &Document, graph: &mut Graph) {
    let ids = Ids::of(document);
    let mut out = Emit { graph, ids: &ids };
    out.header(&document.header);
    for frame in &document.frames {
        let subject = out.ident(&frame.id);
        match frame.kind {
            StanzaKind::Term => {
                out.declare(&subject, &format!("{OWL}Class"));
                for clause in &frame.clauses {
                    match clause {
                        Clause::Term(clause) => out.term_clause(&subject, clause),
                        Clause::Lenient(clause) => out.lenient(&subject, clause),
                        _ => {}
                    }
                }
                out.class_expressions(
                    &subject,
                    frame.clauses.iter().filter_map(|c| match c {
                        Clause::Term(clause) => Some(clause),
                        _ => None,
                    }),
                );
            }
            StanzaKind::Typedef => {
                let metadata = frame
                    .clauses
                    .iter()
                    .any(|c| matches!(c, Clause::Typedef(TypedefClause::IsMetadataTag(true))));
                let kind = if metadata {
                    "AnnotationProperty"
                } else {
                    "ObjectProperty"
                };
                out.declare(&subject, &format!("{OWL}{kind}"));
                if let (Ident::Unprefixed(id), NamedOrBlankNode::NamedNode(iri)) =
                    (&frame.id, &subject)
                {
                    // Named by its cross-reference: the OBO name is kept as
                    // the mapping's shorthand.
                    if !iri.as_str().starts_with(&ids.local_prefix()) {
                        out.text(&subject, &format!("{OBO_IN_OWL}shorthand"), id.as_str());
                    }
                }
                for clause in &frame.clauses {
                    match clause {
                        Clause::Typedef(clause) => out.typedef_clause(&subject, clause),
                        Clause::Lenient(clause) => out.lenient(&subject, clause),
                        _ => {}
                    }
                }
            }
            StanzaKind::Instance => {
                out.declare(&subject, &format!("{OWL}NamedIndividual"));
                for clause in &frame.clauses {
                    match clause {
                        Clause::Instance(clause) => out.other(&subject, &clause.to_string()),
                        Clause::Lenient(clause) => out.lenient(&subject, clause),
                        _ => {}
                    }
                }
            }
        }
    }
}

/// The text of a cross-reference's ID, unescaped, as the OWL release
/// states it (`hasDbXref "Wikipedia:A,_B"`).
fn xref_text(id: &Ident) -> String {
    match id {
        Ident::Prefixed(id) => format!("{}:{}", id.prefix(), id.local()),
        Ident::Unprefixed(id) => id.as_str().to_owned(),
        Ident::Url(url) => url.as_str().to_owned(),
    }
}

/// The oboInOwl property of a synonym's scope as OBO writes it (`EXACT`).
fn scope_property(scope: &str) -> &'static str {
    match scope {
        "EXACT" => "hasExactSynonym",
        "BROAD" => "hasBroadSynonym",
        "NARROW" => "hasNarrowSynonym",
        _ => "hasRelatedSynonym",
    }
}

/// Whether a cross-reference's text is a prefixed ID (`BFO:0000050`),
/// which can name a relation.
fn prefixed_xref(text: &str) -> Option<(&str, &str)> {
    let (prefix, local) = text.split_once(':')?;
    let plain = |s: &str| !s.is_empty() && !s.contains(|c: char| c.is_whitespace() || c == '/');
    (plain(prefix) && plain(local)).then_some((prefix, local))
}

/// How OBO identifiers become IRIs: `PATO:0000001` →
/// `http://purl.obolibrary.org/obo/PATO_0000001`; a prefix the header
/// declares with `idspace` (or one of RDF's own, `owl:`, `rdfs:`, `xsd:`)
/// → its URL and the local part; an unprefixed `part_of` → the ontology's
/// `http://purl.obolibrary.org/obo/{ontology}#part_of`; a URL as it is.
/// A relation (`[Typedef]`) with an unprefixed ID and a prefixed cross-
/// reference is named by the cross-reference (`part_of` with `xref:
/// BFO:0000050` is `obo:BFO_0000050`), as the mapping says.
struct Ids {
    ontology: String,
    idspaces: HashMap<String, String>,
    relations: HashMap<String, String>,
}

impl Ids {
    fn of(document: &Document) -> Ids {
        let mut ids = Ids {
            ontology: String::new(),
            idspaces: HashMap::new(),
            relations: HashMap::new(),
        };
        for clause in &document.header {
            match clause {
                HeaderClause::Ontology(name) => ids.ontology = name.as_str().to_owned(),
                HeaderClause::Idspace(prefix, url, _) => {
                    ids.idspaces
                        .insert(prefix.as_str().to_owned(), url.as_str().to_owned());
                }
                _ => {}
            }
        }
        let mut relations = HashMap::new();
        for frame in &document.frames {
            let Ident::Unprefixed(id) = &frame.id else {
                continue;
            };
            if frame.kind != StanzaKind::Typedef || relations.contains_key(id.as_str()) {
                continue;
            }
            let xref = frame.clauses.iter().find_map(|clause| {
                let text = match clause {
                    Clause::Typedef(TypedefClause::Xref(xref)) => xref_text(xref.id()),
                    Clause::Lenient(Lenient::Xref(text)) => text.clone(),
                    _ => return None,
                };
                prefixed_xref(&text).map(|(p, l)| ids.prefixed(p, l))
            });
            if let Some(iri) = xref {
                relations.insert(id.as_str().to_owned(), iri);
            }
        }
        ids.relations = relations;
        ids
    }

    /// Whether the header names the ontology by an IRI (EDAM's `ontology:
    /// http://edamontology.org`) rather than by an OBO name (`go`).
    fn named_by_iri(&self) -> bool {
        written_as_url(&self.ontology)
    }

    /// Where an unprefixed ID of this ontology goes without a relation's
    /// cross-reference: `obo:{ontology}#`; for an ontology named by an IRI,
    /// that namespace (`http://edamontology.org/has_format`, as EDAM's OWL
    /// release names it), not an OBO PURL around it.
    fn local_prefix(&self) -> String {
        if !self.named_by_iri() {
            format!("{OBO}{}#", self.ontology)
        } else if self.ontology.ends_with(['/', '#']) {
            self.ontology.clone()
        } else {
            format!("{}/", self.ontology)
        }
    }

    /// The ontology's IRI: `obo:{ontology}.owl`, or the IRI it is named by.
    fn ontology_iri(&self) -> String {
        match self.named_by_iri() {
            true => self.ontology.clone(),
            false => format!("{OBO}{}.owl", self.ontology),
        }
    }

    /// The IRI of an ID written as text (a synonym type), read as OBO
    /// reads IDs: a URL, a prefixed ID, or an unprefixed one.
    fn iri_of_text(&self, text: &str) -> String {
        if written_as_url(text) {
            text.to_owned()
        } else if let Some((prefix, local)) = prefixed_xref(text) {
            self.prefixed(prefix, local)
        } else {
            self.unprefixed(text)
        }
    }

    fn unprefixed(&self, id: &str) -> String {
        match self.relations.get(id) {
            Some(iri) => iri.clone(),
            None => format!("{}{id}", self.local_prefix()),
        }
    }

    fn prefixed(&self, prefix: &str, local: &str) -> String {
        const KNOWN: [(&str, &str); 8] = [
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
        } else if let Some((_, namespace)) = KNOWN.iter().find(|(p, _)| *p == prefix) {
            format!("{namespace}{local}")
        } else {
            format!("{OBO}{prefix}_{local}")
        }
    }

    fn iri(&self, id: &Ident) -> String {
        match id {
            Ident::Prefixed(id) => self.prefixed(id.prefix(), id.local()),
            Ident::Unprefixed(id) => self.unprefixed(id.as_str()),
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

    /// An axiom annotating `subject predicate text` with cross-references
    /// and further annotations (a synonym's type), when there are any.
    fn axiom(
        &mut self,
        subject: &NamedOrBlankNode,
        predicate: &str,
        text: &str,
        xrefs: &[String],
        annotations: &[(String, Term)],
    ) {
        if xrefs.is_empty() && annotations.is_empty() {
            return;
        }
        let node: NamedOrBlankNode = self.graph.new_blank_node().into();
        for xref in xrefs {
            self.text(&node, &format!("{OBO_IN_OWL}hasDbXref"), xref);
        }
        for (property, value) in annotations {
            self.add(&node, property, value.clone());
        }
        self.declare(&node, &format!("{OWL}Axiom"));
        self.add(&node, &format!("{OWL}annotatedSource"), term_of(subject));
        self.add(&node, &format!("{OWL}annotatedProperty"), named(predicate));
        self.add(
            &node,
            &format!("{OWL}annotatedTarget"),
            Literal::new_simple_literal(text),
        );
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
    fn definition(&mut self, subject: &NamedOrBlankNode, text: &str, xrefs: &[String]) {
        let predicate = format!("{OBO}IAO_0000115");
        self.text(subject, &predicate, text);
        self.axiom(subject, &predicate, text, xrefs, &[]);
    }

    /// `synonym`: the property of its scope; its type and cross-references
    /// on an axiom.
    fn synonym(
        &mut self,
        subject: &NamedOrBlankNode,
        scope: &str,
        text: &str,
        kind: Option<&str>,
        xrefs: &[String],
    ) {
        let predicate = format!("{OBO_IN_OWL}{scope}");
        self.text(subject, &predicate, text);
        let annotations: Vec<(String, Term)> = kind
            .map(|kind| {
                let iri = named(&self.ids.iri_of_text(kind));
                (format!("{OBO_IN_OWL}hasSynonymType"), iri.into())
            })
            .into_iter()
            .collect();
        self.axiom(subject, &predicate, text, xrefs, &annotations);
    }

    fn parsed_definition(&mut self, subject: &NamedOrBlankNode, def: &fastobo::ast::Definition) {
        let xrefs: Vec<String> = def.xrefs().iter().map(|x| xref_text(x.id())).collect();
        self.definition(subject, def.text(), &xrefs);
    }

    fn parsed_synonym(&mut self, subject: &NamedOrBlankNode, synonym: &fastobo::ast::Synonym) {
        let scope = scope_property(&synonym.scope().to_string());
        let xrefs: Vec<String> = synonym.xrefs().iter().map(|x| xref_text(x.id())).collect();
        let kind = synonym.ty().map(|t| self.ids.iri(t.as_id()));
        self.synonym(
            subject,
            scope,
            synonym.description().as_str(),
            kind.as_deref(),
            &xrefs,
        );
    }

    /// A clause read leniently (`stanza::lenient`).
    fn lenient(&mut self, subject: &NamedOrBlankNode, clause: &Lenient) {
        match clause {
            Lenient::Other { tag, value } => {
                self.text(subject, &format!("{OBO_IN_OWL}{tag}"), value)
            }
            Lenient::Xref(id) => self.text(subject, &format!("{OBO_IN_OWL}hasDbXref"), id),
            Lenient::Def { text, xrefs, .. } => self.definition(subject, text, xrefs),
            Lenient::Synonym {
                text,
                scope,
                kind,
                xrefs,
                ..
            } => self.synonym(subject, scope_property(scope), text, kind.as_deref(), xrefs),
        }
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

    fn header(&mut self, header: &[HeaderClause]) {
        let ontology: NamedOrBlankNode = named(&self.ids.ontology_iri()).into();
        self.declare(&ontology, &format!("{OWL}Ontology"));
        for clause in header.iter() {
            match clause {
                HeaderClause::Ontology(_) | HeaderClause::Idspace(..) => {}
                HeaderClause::FormatVersion(v) => {
                    self.text(&ontology, &format!("{OBO_IN_OWL}hasOBOFormatVersion"), v)
                }
                // An ontology named by an IRI has no OBO version IRI.
                HeaderClause::DataVersion(v) if self.ids.named_by_iri() => {
                    self.text(&ontology, &format!("{OWL}versionInfo"), v)
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
                    let iri = if written_as_url(&target) {
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
                // A synonym type: an annotation property, as the mapping
                // declares it, that typed synonyms point to.
                HeaderClause::SynonymTypedef(id, description, _) => {
                    let node = self.ident(id.as_id());
                    self.declare(&node, &format!("{OWL}AnnotationProperty"));
                    self.text(&node, &format!("{RDFS}label"), description.as_str());
                    self.add(
                        &node,
                        &format!("{RDFS}subPropertyOf"),
                        named(&format!("{OBO_IN_OWL}SynonymTypeProperty")),
                    );
                }
                other => self.other(&ontology, &other.to_string()),
            }
        }
    }

    fn term_clause(&mut self, subject: &NamedOrBlankNode, clause: &TermClause) {
        let o = |local: &str| format!("{OBO_IN_OWL}{local}");
        match clause {
            TermClause::Name(name) => self.text(subject, &format!("{RDFS}label"), name),
            TermClause::Def(def) => self.parsed_definition(subject, def),
            TermClause::Comment(text) => self.text(subject, &format!("{RDFS}comment"), text),
            TermClause::Synonym(synonym) => self.parsed_synonym(subject, synonym),
            TermClause::Xref(xref) => self.text(subject, &o("hasDbXref"), &xref_text(xref.id())),
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
            TypedefClause::Def(def) => self.parsed_definition(subject, def),
            TypedefClause::Comment(text) => self.text(subject, &format!("{RDFS}comment"), text),
            TypedefClause::Synonym(synonym) => self.parsed_synonym(subject, synonym),
            TypedefClause::Xref(xref) => self.text(subject, &o("hasDbXref"), &xref_text(xref.id())),
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
