//! Which resources of an ontology's graph are entities, and how they read:
//! the rules `ontology.json`'s `terms` may change, with defaults that work
//! unchanged for OWL, RDFS, SKOS and OBO.
//!
//! An entity is an IRI typed with one of the entity types, or with a class
//! the graph itself types as a class (schema.org's enumeration members).
//! Its statements are every triple with its IRI as subject, the blank
//! nodes under it (OWL restrictions, lists), and the OWL axioms that
//! annotate its triples: what the source says of it, passed on unchanged.

use super::diagnostic::Diagnostic;
use super::graph::Graph;
use crate::model::{Entity, Header, Origin, Slug, Synonym, Term, Text};
use oxrdf::{NamedNode, NamedOrBlankNode, Term as Node, Triple};
use std::collections::{BTreeMap, HashMap, HashSet};

use crate::model::namespaces::{
    DC, DCTERMS, OBO, OBO_IN_OWL, OWL, PREFIXES, RDF, RDFS, SKOS, local_name, written_as_url,
};

/// The rules, each a list of IRIs in order of preference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermRules {
    pub types: Vec<String>,
    pub name: Vec<String>,
    pub description: Vec<String>,
    pub synonyms: Vec<String>,
    pub parents: Vec<String>,
    /// A term is deprecated when one of these is `true`, or when it has a
    /// replacement.
    pub deprecated: Vec<String>,
    pub replaced_by: Vec<String>,
}

/// The rule names as `ontology.json`'s `terms` spells them.
pub const RULES: [&str; 7] = [
    "types",
    "name",
    "description",
    "synonyms",
    "parents",
    "deprecated",
    "replacedBy",
];

impl Default for TermRules {
    fn default() -> TermRules {
        let iris = |terms: &[&str]| terms.iter().map(|t| expand(t).unwrap()).collect();
        TermRules {
            types: iris(&[
                "owl:Class",
                "owl:ObjectProperty",
                "owl:DatatypeProperty",
                "owl:AnnotationProperty",
                "owl:NamedIndividual",
                "rdfs:Class",
                "rdf:Property",
                "skos:Concept",
                "skos:Collection",
                "skos:OrderedCollection",
            ]),
            name: iris(&["skos:prefLabel", "rdfs:label"]),
            description: iris(&[
                "skos:definition",
                "obo:IAO_0000115",
                "oboInOwl:hasDefinition",
                "http://www.w3.org/ns/prov#definition",
                "dcterms:description",
                "rdfs:comment",
            ]),
            synonyms: iris(&[
                "skos:altLabel",
                "obo:IAO_0000118",
                "oboInOwl:hasExactSynonym",
                "oboInOwl:hasNarrowSynonym",
                "oboInOwl:hasBroadSynonym",
                "oboInOwl:hasRelatedSynonym",
            ]),
            parents: iris(&["rdfs:subClassOf", "skos:broader", "rdfs:subPropertyOf"]),
            deprecated: iris(&["owl:deprecated"]),
            replaced_by: vec![
                expand("obo:IAO_0100001").unwrap(),
                expand("oboInOwl:replacedBy").unwrap(),
                expand("dcterms:isReplacedBy").unwrap(),
                "http://schema.org/supersededBy".to_owned(),
                "https://schema.org/supersededBy".to_owned(),
            ],
        }
    }
}

impl TermRules {
    /// The rule called `name` in `ontology.json`.
    pub fn rule_mut(&mut self, name: &str) -> Option<&mut Vec<String>> {
        Some(match name {
            "types" => &mut self.types,
            "name" => &mut self.name,
            "description" => &mut self.description,
            "synonyms" => &mut self.synonyms,
            "parents" => &mut self.parents,
            "deprecated" => &mut self.deprecated,
            "replacedBy" => &mut self.replaced_by,
            _ => return None,
        })
    }
}

/// `prefix:local` with one of `PREFIXES`, or an absolute IRI, as an IRI.
/// An IRI must name its authority (`scheme://`) or be a URN: `skoss:label`
/// is a misspelt prefix, not an IRI of the scheme `skoss`.
pub fn expand(term: &str) -> Option<String> {
    if let Some((prefix, local)) = term.split_once(':')
        && let Some((_, namespace)) = PREFIXES.iter().find(|(p, _)| *p == prefix)
    {
        return Some(format!("{namespace}{local}"));
    }
    let looks_absolute = written_as_url(term) || term.starts_with("urn:");
    NamedNode::new(term)
        .ok()
        .filter(|_| looks_absolute)
        .map(NamedNode::into_string)
}

/// What the graph makes: entities (in graph order), the ontology's
/// header, and the problems (slug collisions).
pub struct Terms {
    pub entities: Vec<Entity>,
    pub header: Option<Header>,
    pub problems: Vec<Diagnostic>,
}

/// The types of the ontology itself.
const HEADER_TYPES: [&str; 2] = [
    "http://www.w3.org/2002/07/owl#Ontology",
    "http://www.w3.org/2004/02/skos/core#ConceptScheme",
];

/// `namespace` is the one whose IRIs resolve through the site.
pub fn terms(graph: &Graph, rules: &TermRules, language: &str, namespace: &str) -> Terms {
    let index = Index::of(&graph.triples);
    let types = Types::of(&graph.triples);
    let header_iri = types.header(&index);
    let chosen = types.terms(rules, header_iri, &index);
    let mut rules = rules.clone();
    rules.synonyms = with_sub_properties(&rules.synonyms, &graph.triples);
    let mut entities: Vec<Entity> = chosen
        .iter()
        .map(|iri| term_entity(iri, graph, &index, &types, &rules, language))
        .collect();
    let problems = assign_slugs(&mut entities, namespace);
    let header =
        header_iri.map(|iri| header(iri, &index.statements_of(iri), &graph.triples, language));
    Terms {
        entities,
        header,
        problems,
    }
}

/// `rule` and, after it, every property the sources declare a
/// sub-property of one in it, at any depth (`rdfs:subPropertyOf`): OBI's
/// "IEDB alternative term" of `IAO:0000118` is a synonym as its parent
/// is. In the order met, each once.
fn with_sub_properties(rule: &[String], triples: &[Triple]) -> Vec<String> {
    let sub_property = format!("{RDFS}subPropertyOf");
    let mut children: HashMap<&str, Vec<&str>> = HashMap::new();
    for t in triples {
        if t.predicate.as_str() == sub_property
            && let (NamedOrBlankNode::NamedNode(child), Node::NamedNode(parent)) =
                (&t.subject, &t.object)
        {
            children
                .entry(parent.as_str())
                .or_default()
                .push(child.as_str());
        }
    }
    let mut all: Vec<String> = rule.to_vec();
    let mut seen: HashSet<String> = all.iter().cloned().collect();
    let mut at = 0;
    while let Some(parent) = all.get(at) {
        let found = children.get(parent.as_str()).cloned().unwrap_or_default();
        for child in found {
            if seen.insert(child.to_owned()) {
                all.push(child.to_owned());
            }
        }
        at += 1;
    }
    all
}

/// The graph's triples by subject, and the `owl:Axiom`s about each IRI.
struct Index<'g> {
    triples: &'g [Triple],
    by_subject: HashMap<&'g NamedOrBlankNode, Vec<usize>>,
    annotations: HashMap<&'g str, Vec<&'g NamedOrBlankNode>>,
}

impl<'g> Index<'g> {
    fn of(triples: &'g [Triple]) -> Index<'g> {
        let mut by_subject: HashMap<&NamedOrBlankNode, Vec<usize>> = HashMap::new();
        let mut annotations: HashMap<&str, Vec<&NamedOrBlankNode>> = HashMap::new();
        let annotated_source = format!("{OWL}annotatedSource");
        for (i, triple) in triples.iter().enumerate() {
            by_subject.entry(&triple.subject).or_default().push(i);
            if triple.predicate.as_str() == annotated_source
                && let (NamedOrBlankNode::BlankNode(_), Node::NamedNode(source)) =
                    (&triple.subject, &triple.object)
            {
                annotations
                    .entry(source.as_str())
                    .or_default()
                    .push(&triple.subject);
            }
        }
        Index {
            triples,
            by_subject,
            annotations,
        }
    }

    /// The positions of the triples whose subject is `iri`.
    fn of_subject(&self, iri: &str) -> Option<&Vec<usize>> {
        self.by_subject
            .get(&NamedOrBlankNode::NamedNode(NamedNode::new_unchecked(iri)))
    }

    /// Whether the source says more of `iri` than its type. A term that
    /// the source only declares (`ex:Term a owl:Class .`, and nothing
    /// else) is one it uses from elsewhere: OWL declares imported terms
    /// so. It is not published as the source's own.
    fn describes(&self, iri: &str) -> bool {
        let rdf_type = format!("{RDF}type");
        self.of_subject(iri).is_some_and(|found| {
            found
                .iter()
                .any(|&i| self.triples[i].predicate.as_str() != rdf_type)
        })
    }

    /// The term's own triples in source order, then each blank node under
    /// it (through objects, and the axioms about it), breadth first: so
    /// that a Turtle document lists the term first, then its structures.
    fn statements_of(&self, iri: &str) -> Vec<usize> {
        let mut found: Vec<usize> = self.of_subject(iri).cloned().unwrap_or_default();
        let mut queue: std::collections::VecDeque<&NamedOrBlankNode> = self
            .annotations
            .get(iri)
            .cloned()
            .unwrap_or_default()
            .into();
        let mut visited: HashSet<&NamedOrBlankNode> = queue.iter().copied().collect();
        let mut at = 0;
        loop {
            while at < found.len() {
                if let Node::BlankNode(node) = &self.triples[found[at]].object
                    && let Some((key, _)) = self
                        .by_subject
                        .get_key_value(&NamedOrBlankNode::BlankNode(node.clone()))
                    && visited.insert(*key)
                {
                    queue.push_back(*key);
                }
                at += 1;
            }
            let Some(node) = queue.pop_front() else { break };
            found.extend(self.by_subject.get(node).into_iter().flatten());
        }
        found
    }
}

/// The graph's `rdf:type` statements about IRIs.
struct Types<'g> {
    /// `(subject, type)` in source order, and the object properties that
    /// `owl:inverseOf` implies after them.
    stated: Vec<(&'g str, &'g str)>,
    /// The classes the graph defines.
    classes: HashSet<&'g str>,
    /// Each subject's types, each once, in order.
    of: HashMap<&'g str, Vec<String>>,
}

impl<'g> Types<'g> {
    fn of(triples: &'g [Triple]) -> Types<'g> {
        let rdf_type = format!("{RDF}type");
        let class_types = [format!("{RDFS}Class"), format!("{OWL}Class")];
        let mut stated: Vec<(&str, &str)> = Vec::new();
        let mut classes: HashSet<&str> = HashSet::new();
        for triple in triples.iter().filter(|t| t.predicate.as_str() == rdf_type) {
            if let (NamedOrBlankNode::NamedNode(s), Node::NamedNode(o)) =
                (&triple.subject, &triple.object)
            {
                stated.push((s.as_str(), o.as_str()));
                if class_types.iter().any(|c| c == o.as_str()) {
                    classes.insert(s.as_str());
                }
            }
        }
        stated.extend(
            implied_object_properties(triples, &stated)
                .into_iter()
                .map(|p| (p, OBJECT_PROPERTY)),
        );
        let mut of: HashMap<&str, Vec<String>> = HashMap::new();
        for (subject, kind) in &stated {
            let list = of.entry(subject).or_default();
            if !list.iter().any(|t| t == kind) {
                list.push((*kind).to_owned());
            }
        }
        Types {
            stated,
            classes,
            of,
        }
    }

    /// The ontology's header: where a file declares several (PROV-O has an
    /// empty `prov:` beside its real `prov-o#`), the one that says most,
    /// the first of equals.
    fn header(&self, index: &Index) -> Option<&'g str> {
        self.stated
            .iter()
            .filter(|(_, o)| HEADER_TYPES.contains(o))
            .map(|(s, _)| *s)
            .max_by_key(|s| {
                let said = index.of_subject(s).map_or(0, Vec::len);
                // `max_by_key` keeps the last of equals; the first is meant.
                let first = self.stated.iter().position(|(t, _)| t == s).unwrap_or(0);
                (said, std::cmp::Reverse(first))
            })
    }

    /// The source's own terms, in source order: subjects of a type the
    /// rules publish or of a class the graph defines, described, not the
    /// header.
    fn terms(&self, rules: &TermRules, header: Option<&str>, index: &Index) -> Vec<&'g str> {
        let entity_types: HashSet<&str> = rules.types.iter().map(String::as_str).collect();
        let mut chosen: Vec<&str> = Vec::new();
        let mut seen = HashSet::new();
        for (subject, kind) in &self.stated {
            if (entity_types.contains(kind) || self.classes.contains(kind))
                && Some(*subject) != header
                && seen.insert(*subject)
                && index.describes(subject)
            {
                chosen.push(subject);
            }
        }
        chosen
    }
}

const OBJECT_PROPERTY: &str = "http://www.w3.org/2002/07/owl#ObjectProperty";

/// `owl:inverseOf` relates object properties (OWL 2's RDF mapping): both
/// ends are published as such even where the source declares neither
/// (DCAT 3 has six), not dropped. The ends no type is stated for, each
/// once, in source order.
fn implied_object_properties<'g>(triples: &'g [Triple], stated: &[(&str, &str)]) -> Vec<&'g str> {
    let inverse_of = format!("{OWL}inverseOf");
    let typed: HashSet<&str> = stated.iter().map(|(s, _)| *s).collect();
    let mut implied: Vec<&str> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for triple in triples
        .iter()
        .filter(|t| t.predicate.as_str() == inverse_of)
    {
        if let (NamedOrBlankNode::NamedNode(s), Node::NamedNode(o)) =
            (&triple.subject, &triple.object)
        {
            for end in [s.as_str(), o.as_str()] {
                if !typed.contains(end) && seen.insert(end) {
                    implied.push(end);
                }
            }
        }
    }
    implied
}

/// What a term's own statements say by a rule's predicates.
struct Said<'t> {
    iri: &'t str,
    statements: &'t [Triple],
}

impl<'t> Said<'t> {
    /// The term's statements with one of `rule`'s predicates: by rule
    /// order, then source order.
    fn own(&self, rule: &[String]) -> Vec<&'t Triple> {
        let statements = self.statements;
        rule.iter()
            .flat_map(|predicate| {
                statements.iter().filter(move |t| {
                    t.predicate.as_str() == predicate
                        && matches!(&t.subject, NamedOrBlankNode::NamedNode(s) if s.as_str() == self.iri)
                })
            })
            .collect()
    }

    /// Their literal values.
    fn texts(&self, rule: &[String]) -> Vec<Text> {
        self.own(rule).into_iter().filter_map(text).collect()
    }

    /// The terms to consider instead (`oboInOwl:consider`), each once: an
    /// IRI as it is, an OBO ID (`GO:0000001`, as GO's OWL release states
    /// it) as its PURL; any other text is left in the statements.
    fn considered(&self) -> Vec<String> {
        let mut found: Vec<String> = Vec::new();
        for triple in self.own(&[format!("{OBO_IN_OWL}consider")]) {
            let iri = match &triple.object {
                Node::NamedNode(node) => Some(node.as_str().to_owned()),
                Node::Literal(literal) => obo_purl(literal.value()),
                _ => None,
            };
            if let Some(iri) = iri.filter(|iri| !found.contains(iri)) {
                found.push(iri);
            }
        }
        found
    }

    /// Their IRI values, each once.
    fn iris(&self, rule: &[String]) -> Vec<String> {
        let mut found: Vec<String> = Vec::new();
        for triple in self.own(rule) {
            if let Node::NamedNode(node) = &triple.object
                && !found.iter().any(|f| f == node.as_str())
            {
                found.push(node.as_str().to_owned());
            }
        }
        found
    }
}

/// The entity of the term `iri`: its statements, names, descriptions,
/// synonyms, parents, genus and deprecation, by the rules. Its slug is
/// assigned once every term's is known ([`assign_slugs`]).
fn term_entity(
    iri: &str,
    graph: &Graph,
    index: &Index,
    types: &Types,
    rules: &TermRules,
    language: &str,
) -> Entity {
    let triples = &graph.triples;
    let positions = index.statements_of(iri);
    let statements: Vec<Triple> = positions.iter().map(|&i| triples[i].clone()).collect();
    let said = Said {
        iri,
        statements: &statements,
    };
    let labels = said.texts(&rules.name);
    // By predicate, once: the list keeps them all in the rule's order,
    // the description is chosen predicate by predicate.
    let by_predicate: Vec<Vec<Text>> = rules
        .description
        .iter()
        .map(|predicate| said.texts(std::slice::from_ref(predicate)))
        .collect();
    let replaced_by = said.iris(&rules.replaced_by);
    let deprecated = !replaced_by.is_empty()
        || said
            .own(&rules.deprecated)
            .into_iter()
            .any(|t| matches!(&t.object, Node::Literal(l) if matches!(l.value(), "true" | "1")));
    let name = pick(&labels, language).unwrap_or_else(|| local_name(iri).to_owned());
    // The rule's order first, then the language within a predicate: an
    // untagged `prov:definition` before an English `rdfs:comment`.
    let description = by_predicate
        .iter()
        .find_map(|texts| {
            let said: Vec<Text> = texts
                .iter()
                .filter(|t| !t.value.trim().is_empty())
                .cloned()
                .collect();
            pick(&said, language)
        })
        .unwrap_or_default();
    let descriptions = by_predicate.concat();
    let parents = said.iris(&rules.parents);
    let stated: HashSet<&str> = parents.iter().map(String::as_str).collect();
    let genus = genus_of(iri, &statements)
        .into_iter()
        .filter(|g| !stated.contains(g.as_str()) && g != iri)
        .collect();
    let alternative_id = format!("{OBO_IN_OWL}hasAlternativeId");
    let term = Term {
        types: types.of.get(iri).cloned().unwrap_or_default(),
        labels,
        descriptions,
        synonyms: synonyms_of(iri, &said.own(&rules.synonyms), &statements),
        alternative_ids: said
            .texts(std::slice::from_ref(&alternative_id))
            .into_iter()
            .map(|t| t.value)
            .collect(),
        parents,
        genus,
        deprecated,
        replaced_by,
        consider: said.considered(),
        statements,
    };
    Entity {
        id: identifier(iri),
        // Assigned once every entity's is known.
        slug: Slug::parse("x").expect("a slug"),
        name,
        description,
        iri: Some(iri.to_owned()),
        extra: Default::default(),
        link_names: Default::default(),
        term: Some(Box::new(term)),
        origin: Origin {
            path: graph
                .file_of(positions.first().copied().unwrap_or(0))
                .into(),
            line: None,
        },
    }
}

/// The named classes of the intersections `iri` is equivalent to, each
/// once, in list order: `X owl:equivalentClass [ owl:intersectionOf (A
/// [restriction] B) ]` gives A and B. `statements` holds the blank nodes
/// under the term (see `statements_of`).
fn genus_of(iri: &str, statements: &[Triple]) -> Vec<String> {
    let (first, rest) = (format!("{RDF}first"), format!("{RDF}rest"));
    let equivalent = format!("{OWL}equivalentClass");
    let intersection = format!("{OWL}intersectionOf");
    // The few blank-node links a list walk needs, looked up in constant
    // time: a hostile list of 100,000 members stays linear.
    let mut links: HashMap<(&oxrdf::BlankNode, &str), &Node> = HashMap::new();
    let mut defined: Vec<&oxrdf::BlankNode> = Vec::new();
    for t in statements {
        match (&t.subject, &t.object) {
            (NamedOrBlankNode::BlankNode(b), _) => {
                let p = t.predicate.as_str();
                if p == first || p == rest || p == intersection {
                    links.entry((b, p)).or_insert(&t.object);
                }
            }
            (NamedOrBlankNode::NamedNode(s), Node::BlankNode(class))
                if s.as_str() == iri && t.predicate.as_str() == equivalent =>
            {
                defined.push(class)
            }
            _ => {}
        }
    }
    let mut found: Vec<String> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for class in defined {
        let mut item = links.get(&(class, intersection.as_str())).copied();
        // A list in a well-formed source ends; a bound keeps a cyclic one
        // from looping.
        for _ in 0..statements.len() {
            let Some(Node::BlankNode(cell)) = item else {
                break;
            };
            if let Some(Node::NamedNode(member)) = links.get(&(cell, first.as_str()))
                && seen.insert(member.as_str())
            {
                found.push(member.as_str().to_owned());
            }
            item = links.get(&(cell, rest.as_str())).copied();
        }
    }
    found
}

/// The synonyms a term's `stated` triples give, each with the synonym
/// type an `owl:Axiom` about it names (`oboInOwl:hasSynonymType`).
fn synonyms_of(iri: &str, stated: &[&Triple], statements: &[Triple]) -> Vec<Synonym> {
    let source = format!("{OWL}annotatedSource");
    let property = format!("{OWL}annotatedProperty");
    let target = format!("{OWL}annotatedTarget");
    let has_type = format!("{OBO_IN_OWL}hasSynonymType");
    // Axiom node → (property, target, type), from its statements.
    let mut axioms: HashMap<&oxrdf::BlankNode, [Option<&Node>; 4]> = HashMap::new();
    for t in statements {
        let NamedOrBlankNode::BlankNode(b) = &t.subject else {
            continue;
        };
        let slot = match t.predicate.as_str() {
            p if p == source => 0,
            p if p == property => 1,
            p if p == target => 2,
            p if p == has_type => 3,
            _ => continue,
        };
        axioms.entry(b).or_default()[slot].get_or_insert(&t.object);
    }
    let mut kinds: HashMap<(&str, &Node), &str> = HashMap::new();
    for [s, p, o, k] in axioms.into_values() {
        if let (
            Some(Node::NamedNode(s)),
            Some(Node::NamedNode(p)),
            Some(o),
            Some(Node::NamedNode(k)),
        ) = (s, p, o, k)
            && s.as_str() == iri
        {
            kinds.entry((p.as_str(), o)).or_insert(k.as_str());
        }
    }
    stated
        .iter()
        .filter_map(|t| {
            Some(Synonym {
                text: text(t)?,
                property: t.predicate.as_str().to_owned(),
                kind: kinds
                    .get(&(t.predicate.as_str(), &t.object))
                    .map(|k| (*k).to_owned()),
            })
        })
        .collect()
}

/// A literal object as a text.
fn text(triple: &Triple) -> Option<Text> {
    match &triple.object {
        Node::Literal(literal) => Some(Text {
            value: literal.value().to_owned(),
            language: literal.language().map(str::to_owned),
        }),
        _ => None,
    }
}

/// The text to show in `language`: one in that language (or a regional
/// form of it, `en-GB` for `en`), else one without a language, else the
/// first in another language.
pub fn pick(texts: &[Text], language: &str) -> Option<String> {
    let in_language = |t: &&Text| {
        t.language.as_deref().is_some_and(|l| {
            l.eq_ignore_ascii_case(language)
                || l.to_ascii_lowercase()
                    .starts_with(&format!("{}-", language.to_ascii_lowercase()))
        })
    };
    texts
        .iter()
        .find(in_language)
        .or_else(|| texts.iter().find(|t| t.language.is_none()))
        .or_else(|| texts.first())
        .map(|t| t.value.clone())
}

/// The OBO PURL of an OBO ID (`GO:0000001` →
/// `http://purl.obolibrary.org/obo/GO_0000001`), the inverse of
/// [`identifier`]; none for a text of another shape.
fn obo_purl(id: &str) -> Option<String> {
    let (prefix, number) = id.trim().split_once(':')?;
    let iri = format!("{OBO}{prefix}_{number}");
    (identifier(&iri) == id.trim() && NamedNode::new(&iri).is_ok()).then_some(iri)
}

/// An entity's `id`: the OBO identifier for an OBO PURL
/// (`http://purl.obolibrary.org/obo/PATO_0000001` → `PATO:0000001`), as
/// OBO files and their users write it; else the IRI itself.
pub fn identifier(iri: &str) -> String {
    if let Some(local) = iri.strip_prefix(OBO)
        && let Some((prefix, number)) = local.split_once('_')
        && !prefix.is_empty()
        && !number.is_empty()
        && prefix.chars().all(|c| c.is_ascii_alphanumeric())
        && !number.contains(['/', '#'])
    {
        return format!("{prefix}:{number}");
    }
    iri.to_owned()
}

/// Gives each entity its slug: its local name lower-cased, with all but
/// `a-z` and `0-9` dropped (`Person` → `person`, `PATO_0000001` →
/// `pato0000001`). Local names that differ only in case or punctuation
/// (schema.org's class `Text` and property `text`) are told apart by
/// number: a local name that is its slug already keeps it (so `/text`
/// stays the IRI `{namespace}text` where the namespace resolves through
/// the site, and `/Text` its alias), the others follow in code-point
/// order of the local name and take `2`, `3`, ... The same local name in
/// two namespaces is an input error naming both IRIs.
/// Whether a term is a class or concept, which search and slugs put
/// before properties and individuals of the same name.
fn is_class(entity: &Entity) -> bool {
    const CLASSES: [&str; 3] = [
        "http://www.w3.org/2002/07/owl#Class",
        "http://www.w3.org/2000/01/rdf-schema#Class",
        "http://www.w3.org/2004/02/skos/core#Concept",
    ];
    entity
        .term
        .as_ref()
        .is_some_and(|t| t.types.iter().any(|k| CLASSES.contains(&k.as_str())))
}

fn assign_slugs(entities: &mut [Entity], namespace: &str) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    let mut by_slug: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, entity) in entities.iter().enumerate() {
        let derived = derived_slug(entity.iri.as_deref().unwrap_or_default());
        by_slug.entry(derived).or_default().push(i);
    }
    // A numbered slug never takes another group's plain one: `Foo` and
    // `foo` beside `foo2` are `foo`, `foo3` and `foo2`.
    let plain: std::collections::HashSet<String> = by_slug.keys().cloned().collect();
    let mut taken: HashMap<String, String> = HashMap::new();
    let mut failed = vec![false; entities.len()];
    for (derived, mut group) in by_slug {
        let iri = |i: usize| entities[i].iri.clone().unwrap_or_default();
        group.sort_by_key(|&i| claim(&entities[i], namespace, &derived));
        let iris: Vec<String> = group.iter().map(|&i| iri(i)).collect();
        for (n, pair) in group.windows(2).enumerate() {
            let (a, b) = (&iris[n], &iris[n + 1]);
            if local_name(a) == local_name(b) {
                failed[pair[1]] = true;
                problems.push(collision(&entities[pair[1]], b, a));
            }
        }
        let mut n = 0;
        for (&i, own) in group.iter().zip(&iris) {
            if failed[i] {
                continue;
            }
            n += 1;
            let text = if n == 1 {
                derived.clone()
            } else {
                while plain.contains(&format!("{derived}{n}"))
                    || taken.contains_key(&format!("{derived}{n}"))
                {
                    n += 1;
                }
                format!("{derived}{n}")
            };
            match Slug::parse(&text) {
                Ok(slug) => {
                    if let Some(other) = taken.get(&text) {
                        problems.push(collision(&entities[i], own, other));
                        continue;
                    }
                    taken.insert(text, own.clone());
                    entities[i].slug = slug;
                }
                Err(e) => problems.push(
                    Diagnostic::new(
                        &entities[i].origin.path,
                        format!("no slug can be made from the IRI `{own}`: {e}"),
                        "give the term an IRI whose last part has letters or digits, at most 200",
                    )
                    .entity(Some(&entities[i].id)),
                ),
            }
        }
    }
    problems
}

/// The slug an IRI's local name gives: its ASCII letters, lower-cased, and
/// digits.
fn derived_slug(iri: &str) -> String {
    local_name(iri)
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        .collect()
}

/// Who among the terms deriving one slug gets it plain (the least key):
/// first a term whose IRI is `{namespace}{slug}` (its path must be its
/// own), then the term people mean: a class (PROV-O's `Activity` beside
/// its property `activity`, DCAT's `Dataset` beside `dataset`), then the
/// local name that is the slug already, then in code-point order.
fn claim(entity: &Entity, namespace: &str, derived: &str) -> (bool, bool, bool, String, String) {
    let own = entity.iri.clone().unwrap_or_default();
    let local = local_name(&own).to_owned();
    let resolves_here = own.strip_prefix(namespace) == Some(derived);
    (
        !resolves_here,
        !is_class(entity),
        local != derived,
        local,
        own,
    )
}

fn collision(entity: &Entity, iri: &str, other: &str) -> Diagnostic {
    Diagnostic::new(
        &entity.origin.path,
        format!(
            "the IRIs `{iri}` and `{other}` give the same slug `{}`: the site cannot publish both at one path",
            Slug::from_id(local_name(iri)).map_or_else(|_| String::new(), |s| s.as_str().to_owned())
        ),
        "publish the two namespaces as two sites, or leave one term out of the source",
    )
    .entity(Some(&entity.id))
}

/// The ontology's description of itself.
fn header(iri: &str, positions: &[usize], triples: &[Triple], language: &str) -> Header {
    let statements: Vec<Triple> = positions.iter().map(|&i| triples[i].clone()).collect();
    let of = |predicates: &[&str]| -> Vec<&Node> {
        predicates
            .iter()
            .flat_map(|p| {
                statements.iter().filter(move |t| {
                    t.predicate.as_str() == *p
                        && matches!(&t.subject, NamedOrBlankNode::NamedNode(s) if s.as_str() == iri)
                })
            })
            .map(|t| &t.object)
            .collect()
    };
    let text = |predicates: &[&str]| -> Option<String> {
        let texts: Vec<Text> = of(predicates)
            .into_iter()
            .filter_map(|node| match node {
                Node::Literal(l) => Some(Text {
                    value: l.value().to_owned(),
                    language: l.language().map(str::to_owned),
                }),
                _ => None,
            })
            .collect();
        pick(&texts, language)
    };
    let value = |predicates: &[&str]| -> Vec<String> {
        of(predicates)
            .into_iter()
            .filter_map(|node| match node {
                Node::NamedNode(n) => Some(n.as_str().to_owned()),
                Node::Literal(l) => Some(l.value().to_owned()),
                _ => None,
            })
            .collect()
    };
    let dcterms = |local: &str| format!("{DCTERMS}{local}");
    let dc = |local: &str| format!("{DC}{local}");
    let title = [
        dcterms("title"),
        dc("title"),
        format!("{RDFS}label"),
        format!("{SKOS}prefLabel"),
    ];
    let description = [
        dcterms("description"),
        dc("description"),
        format!("{RDFS}comment"),
        format!("{SKOS}definition"),
    ];
    fn refs(list: &[String]) -> Vec<&str> {
        list.iter().map(String::as_str).collect()
    }
    Header {
        iri: iri.to_owned(),
        title: text(&refs(&title)),
        description: text(&refs(&description)),
        version_iri: value(&[&format!("{OWL}versionIRI")]).into_iter().next(),
        version: value(&[&format!("{OWL}versionInfo")]).into_iter().next(),
        license: value(&refs(&[
            dcterms("license"),
            dc("license"),
            dcterms("rights"),
        ]))
        .into_iter()
        .next(),
        creators: value(&refs(&[dcterms("creator"), dc("creator")])),
        imports: value(&[&format!("{OWL}imports")]),
        statements,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spelt out for the `'static` borrow the types hold; OWL's IRI.
    #[test]
    fn the_object_property_type_is_owls() {
        assert_eq!(OBJECT_PROPERTY, format!("{OWL}ObjectProperty"));
    }
}
