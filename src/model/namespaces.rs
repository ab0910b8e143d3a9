//! The namespaces ontologies are written with, and the prefixes ontosite
//! knows them by: for rules in `ontology.json` (`rdfs:label`) and for the
//! documents it writes.

pub const RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
pub const RDFS: &str = "http://www.w3.org/2000/01/rdf-schema#";
pub const OWL: &str = "http://www.w3.org/2002/07/owl#";
pub const SKOS: &str = "http://www.w3.org/2004/02/skos/core#";
pub const OBO: &str = "http://purl.obolibrary.org/obo/";
pub const OBO_IN_OWL: &str = "http://www.geneontology.org/formats/oboInOwl#";
pub const DCTERMS: &str = "http://purl.org/dc/terms/";
pub const DC: &str = "http://purl.org/dc/elements/1.1/";
pub const FOAF: &str = "http://xmlns.com/foaf/0.1/";
pub const XSD: &str = "http://www.w3.org/2001/XMLSchema#";

/// The prefixes ontosite knows, as ontologies use them.
pub const PREFIXES: &[(&str, &str)] = &[
    ("rdf", RDF),
    ("rdfs", RDFS),
    ("owl", OWL),
    ("skos", SKOS),
    ("obo", OBO),
    ("oboInOwl", OBO_IN_OWL),
    ("dcterms", DCTERMS),
    ("dc", DC),
    ("schema", "http://schema.org/"),
    ("foaf", FOAF),
    ("xsd", XSD),
];

/// `iri` as a prefixed name (`rdfs:label`) where ontosite knows its
/// namespace, else the IRI itself.
pub fn compact(iri: &str) -> String {
    compact_with(iri, &[])
}

/// `iri` as a prefixed name with ontosite's prefixes, else with the
/// prefixes a source declares (`declared`: name, namespace), else the IRI.
pub fn compact_with(iri: &str, declared: &[(String, String)]) -> String {
    let known = PREFIXES.iter().map(|&(p, n)| (p, n));
    let declared = declared.iter().map(|(p, n)| (p.as_str(), n.as_str()));
    known
        .chain(declared)
        .find_map(|(prefix, namespace)| {
            let local = iri.strip_prefix(namespace)?;
            let plain = !local.is_empty()
                && local
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
            plain.then(|| format!("{prefix}:{local}"))
        })
        .unwrap_or_else(|| iri.to_owned())
}

/// Whether an ID or an ontology's name is written as a URL
/// (`http://edamontology.org`) rather than as a prefixed ID or a bare name
/// (`GO:0008150`, `go`), as OBO files and the sites' IDs write them.
pub fn written_as_url(text: &str) -> bool {
    text.contains("://")
}

/// The part of an IRI after its namespace: after the last `#`, else the
/// last `/`, else the last `:`.
pub fn local_name(iri: &str) -> &str {
    let cut = iri
        .rfind('#')
        .or_else(|| iri.trim_end_matches('/').rfind('/'))
        .or_else(|| iri.rfind(':'))
        .map_or(0, |i| i + 1);
    iri[cut..].trim_end_matches('/')
}
