//! The ontology as data: what the source stage hands to rendering.
//!
//! Nothing here does I/O. Types with invariants (`Slug`, `BaseUrl`,
//! `TypeName`) have checked constructors, so that a value that exists is a
//! value that is safe to put into a file name or a URL.

mod base_url;
pub mod cut;
pub mod namespaces;
pub mod shown;
pub mod slug;

pub use base_url::{BaseUrl, BaseUrlError};
pub use slug::{Slug, SlugError};

use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// One published ontology: its description and every entity, sorted by slug.
#[derive(Debug, Clone)]
pub struct Ontology {
    pub meta: OntologyMeta,
    /// Sorted by slug, so every list the site publishes has one order.
    pub entities: Vec<Entity>,
}

/// What `ontology.json` says about the ontology as a whole.
#[derive(Debug, Clone)]
pub struct OntologyMeta {
    pub name: String,
    pub description: String,
    /// The type every entity has (for example `Action`).
    pub entity_type: String,
    /// The IRI of `entity_type` in JSON-LD; schema.org's term by default.
    pub entity_type_iri: String,
    pub base_url: BaseUrl,
    pub license: Option<String>,
    pub version: Option<String>,
    pub siblings: Vec<Sibling>,
    /// JSON-LD types more specific than `entity_type`, chosen by the value
    /// of one field (`CreateAction` for an `operation` of `Create Item`).
    pub subtypes: Option<Subtypes>,
    /// schema.org properties that every entity states in JSON-LD, each
    /// with a schema.org term as its value (`actionStatus`:
    /// `PotentialActionStatus`), in name order.
    pub entity_properties: Vec<(String, String)>,
    /// The namespace of the terms ontosite mints, where `ontology.json`
    /// fixes one so that they stay put when the base URL changes.
    pub vocabulary: Option<String>,
    /// The namespace whose IRIs arrive at the site (`{namespace}{rest}` at
    /// `{base}/{rest}`), where `ontology.json` names one: w3id.org and
    /// purl.org redirect so. `None`: the base URL's own, `{base}/`.
    pub namespace: Option<String>,
    /// What the pages call each pass-through field (`ontology.json`'s
    /// `fieldLabels`); a field without one is shown by its key made
    /// readable.
    pub field_labels: std::collections::BTreeMap<String, String>,
    /// The language of `name` and `description` where a term has texts in
    /// several (`ontology.json`'s `language`, `en` unless it says).
    pub language: String,
    /// The host (and plan) the site is deployed to, as `ontology.json`
    /// names it: the build checks the site against its limits.
    pub host: Option<String>,
    /// What an ontology source says of itself (`owl:Ontology`,
    /// `skos:ConceptScheme`), if it says anything.
    pub header: Option<Header>,
    /// The prefixes the ontology sources declare (name, namespace), which
    /// the site's RDF documents of their terms use too, so that they read
    /// like the source.
    pub prefixes: Vec<(String, String)>,
    /// The ontology source files, published unchanged as downloads: their
    /// file names in the site, in input order.
    pub downloads: Vec<Download>,
    /// What the sources' readers took more leniently than their formats
    /// allow (a definition's unescaped inner quotes), each said once with
    /// its place: `check` and `build` print them as notes.
    pub read_notes: Vec<String>,
}

/// The description an ontology source gives of itself.
#[derive(Debug, Clone, Default)]
pub struct Header {
    pub iri: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub version_iri: Option<String>,
    pub version: Option<String>,
    pub license: Option<String>,
    pub creators: Vec<String>,
    pub imports: Vec<String>,
    /// Every triple the source states of the ontology itself.
    pub statements: Vec<oxrdf::Triple>,
}

/// A source file published as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    /// Where it is read from.
    pub path: PathBuf,
    /// Its path in the site: `source-files/{file name}`.
    pub name: String,
    pub media_type: &'static str,
}

/// The JSON-LD type of an entity by the value of one of its fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subtypes {
    pub field: String,
    /// Field value → type name (a schema.org term).
    pub types: std::collections::BTreeMap<String, String>,
}

/// The language names are chosen in where `ontology.json` states none.
pub const DEFAULT_LANGUAGE: &str = "en";

/// The namespace whose IRIs resolve through the site: the one stated
/// (w3id.org, purl.org), else the base URL's own.
pub fn resolved_namespace(stated: Option<&str>, base_url: &BaseUrl) -> String {
    stated.map_or_else(|| base_url.join(""), str::to_owned)
}

impl OntologyMeta {
    /// The license as an IRI: the license itself where `ontology.json`
    /// gives an IRI, else the IRI of its SPDX identifier, which SPDX's own
    /// RDF uses (`http://spdx.org/licenses/CC0-1.0`).
    pub fn license_iri(&self) -> Option<String> {
        let license = self.license.as_deref()?;
        Some(if license.contains(':') {
            license.to_owned()
        } else {
            format!("http://spdx.org/licenses/{license}")
        })
    }

    /// What kind of entity `entity` is, as its JSON-LD `@type` names it:
    /// the entity type or configured subtype (`CreateAction`), or a term's
    /// first `rdf:type`, compacted (`owl:Class`). Search results and
    /// browsing by type show it.
    pub fn kind(&self, entity: &Entity) -> std::borrow::Cow<'_, str> {
        match entity.term.as_ref().and_then(|t| t.types.first()) {
            Some(type_iri) => self.compact(type_iri).into(),
            None => self.jsonld_type(entity).into(),
        }
    }

    /// `iri` as a prefixed name where ontosite or the source knows its
    /// namespace (`rdfs:Class`, `schema:Person`), for people to read.
    pub fn compact(&self, iri: &str) -> String {
        namespaces::compact_with(iri, &self.prefixes)
    }

    /// The sibling whose entities the values of `field` name, if any.
    pub fn sibling_linked_by(&self, field: &str) -> Option<&Sibling> {
        self.siblings
            .iter()
            .find(|s| s.linked_by.iter().any(|f| f == field))
    }

    /// The JSON-LD type of `entity`: its subtype where the configuration
    /// names one for its value, else the ontology's entity type.
    /// A description with nothing but a name (`T`), an entity type and
    /// the base URL `https://t.test`, for the library's unit tests.
    #[cfg(test)]
    pub(crate) fn for_test(entity_type: &str, entity_type_iri: &str) -> OntologyMeta {
        OntologyMeta {
            name: "T".into(),
            description: "T".into(),
            entity_type: entity_type.into(),
            entity_type_iri: entity_type_iri.into(),
            base_url: BaseUrl::parse("https://t.test").expect("a base URL"),
            license: None,
            version: None,
            siblings: Vec::new(),
            subtypes: None,
            entity_properties: Vec::new(),
            vocabulary: None,
            namespace: None,
            language: DEFAULT_LANGUAGE.into(),
            host: None,
            header: None,
            prefixes: Vec::new(),
            downloads: Vec::new(),
            read_notes: Vec::new(),
            field_labels: Default::default(),
        }
    }

    /// The namespace whose IRIs resolve through the site.
    pub fn resolved_namespace(&self) -> String {
        resolved_namespace(self.namespace.as_deref(), &self.base_url)
    }

    pub fn jsonld_type<'a>(&'a self, entity: &Entity) -> &'a str {
        self.subtypes
            .as_ref()
            .and_then(|s| {
                entity
                    .extra
                    .get(&s.field)?
                    .as_str()
                    .and_then(|v| s.types.get(v))
            })
            .map_or(&self.entity_type, |t| t.as_str())
    }
}

/// Another ontology published by ontosite at its own base URL.
#[derive(Debug, Clone)]
pub struct Sibling {
    pub name: String,
    pub base_url: BaseUrl,
    pub description: Option<String>,
    /// Fields of this ontology's entities whose values name entities of the
    /// sibling; the source stage writes them as the sibling's entity IRIs.
    pub linked_by: Vec<String>,
}

impl Sibling {
    /// The IRI of the sibling's entity that `value` names: its base URL and
    /// the value's default slug, as the sibling publishes its own `@id`s.
    pub fn entity_iri(&self, value: &str) -> Result<String, SlugError> {
        Ok(self.base_url.join(Slug::from_id(value)?.as_str()))
    }
}

/// One entity of the ontology, as every reader fills it.
///
/// Entities of `input/entities/` carry their data as `extra` fields, which
/// ontosite publishes under its own vocabulary. Terms of an ontology source
/// (RDF, OBO, CSV) carry it as `term`: their IRI, types, texts by language,
/// hierarchy and the source's own triples, which are published as they are.
#[derive(Debug, Clone)]
pub struct Entity {
    pub id: String,
    pub slug: Slug,
    /// The name in the ontology's language.
    pub name: String,
    /// The description in the ontology's language; empty where a term has
    /// none.
    pub description: String,
    /// The IRI the input gives it: a term's from its source, or the `iri`
    /// of an entity file. `None`: the entity is named by the site's
    /// `{base}/{slug}`.
    pub iri: Option<String>,
    /// Every other input field, unchanged and in input order.
    pub extra: Map<String, Value>,
    /// What the input called each entity of a sibling it links to, by the
    /// link's IRI (`https://products.example/abb` → `ABB`): the API
    /// publishes the IRI, the page shows the name.
    pub link_names: std::collections::BTreeMap<String, String>,
    /// What an ontology source states of the entity; `None` for entities
    /// of `input/entities/`.
    pub term: Option<Box<Term>>,
    /// Where the entity was read from, for messages about it.
    pub origin: Origin,
}

/// A term of an ontology source: the resource its IRI names, and what the
/// source says of it.
#[derive(Debug, Clone, Default)]
pub struct Term {
    /// The IRIs of its `rdf:type`s, in source order.
    pub types: Vec<String>,
    /// Every name, in every language, the chosen `name` among them.
    pub labels: Vec<Text>,
    /// Every description, in every language.
    pub descriptions: Vec<Text>,
    pub synonyms: Vec<Synonym>,
    /// The IDs it was known by before (OBO `alt_id`,
    /// `oboInOwl:hasAlternativeId`): searched as its ID is, and resolved
    /// to it where the host runs code, as OBO PURLs and OLS resolve them.
    pub alternative_ids: Vec<String>,
    /// The IRIs of its direct parents (`rdfs:subClassOf`, `skos:broader`,
    /// `rdfs:subPropertyOf`, ...), named ones only: OWL restrictions stay
    /// in `statements`.
    pub parents: Vec<String>,
    /// The named classes of its logical definitions (the genus of OBO's
    /// `intersection_of`, of an `owl:equivalentClass` intersection) that
    /// are not among `parents`. OLS and Ontobee show them as parents, so
    /// the hierarchy does too, marked as coming from the definition.
    pub genus: Vec<String>,
    pub deprecated: bool,
    /// The IRIs of the terms that replace it.
    pub replaced_by: Vec<String>,
    /// The IRIs of the terms its users may consider instead
    /// (`oboInOwl:consider`), where no one term replaces it: GO's
    /// obsolete terms.
    pub consider: Vec<String>,
    /// Every triple of the source about it: those with its IRI as subject,
    /// and the blank nodes under it (OWL restrictions, axioms), in source
    /// order.
    pub statements: Vec<oxrdf::Triple>,
}

/// A synonym: its text, the property that states it (its scope, for
/// `oboInOwl:has{Exact,Broad,Narrow,Related}Synonym`), and the synonym
/// type an axiom gives it (OBO's `synonym: "x" EXACT layperson []`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Synonym {
    pub text: Text,
    /// The IRI of the property that states it.
    pub property: String,
    /// The IRI of its synonym type, where an axiom gives one.
    pub kind: Option<String>,
}

/// A text in a language, or in none.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Text {
    pub value: String,
    /// A BCP 47 tag as the source wrote it (`en`, `pt-BR`).
    pub language: Option<String>,
}

impl Term {
    /// Its parents in the hierarchy: those stated, then its genus.
    pub fn hierarchy_parents(&self) -> impl Iterator<Item = &str> {
        self.parents.iter().chain(&self.genus).map(String::as_str)
    }
}

impl Entity {
    /// The IRI of what the entity names: the input's own where it gives
    /// one, else the site's `{base}/{slug}`.
    pub fn iri(&self, base_url: &BaseUrl) -> String {
        match &self.iri {
            Some(iri) => iri.clone(),
            None => base_url.join(self.slug.as_str()),
        }
    }
}

/// A place in the input: a file, and the line for entities of a `.jsonl` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// Shared by every entity of a file: a file of a million lines holds
    /// its path once.
    pub path: std::sync::Arc<Path>,
    pub line: Option<usize>,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}", self.path.display(), line),
            None => write!(f, "{}", self.path.display()),
        }
    }
}

/// Whether `name` can be a JSON-LD term and a file-safe identifier:
/// an ASCII letter or `_`, then letters, digits, `_` or `-`.
pub fn is_term_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Schemes a browser acts on instead of naming something with: a script
/// (`javascript:`), inline or local content. An IRI the site's own input
/// gives (an entity's `iri`, `license`) in one of them is refused, since a
/// client that shows it as a link runs it; an ontology source's IRIs pass
/// through as they are, never made links by ontosite.
const ACTIVE_SCHEMES: &[&str] = &[
    "javascript",
    "vbscript",
    "data",
    "file",
    "blob",
    "filesystem",
];

/// The scheme of `iri` where it is one of [`ACTIVE_SCHEMES`], in any case.
pub fn active_scheme(iri: &str) -> Option<&str> {
    let scheme = iri.split_once(':')?.0;
    ACTIVE_SCHEMES
        .iter()
        .any(|s| s.eq_ignore_ascii_case(scheme.trim()))
        .then_some(scheme)
}

/// Field names an entity cannot carry through, because the published
/// documents use them for what ontosite generates: the entity type, the
/// links, and the JSON-LD terms of schema.org that entity documents and
/// lists are written with.
pub const GENERATED_FIELDS: &[&str] = &[
    "type",
    "links",
    "identifier",
    "url",
    "item",
    "position",
    "itemListElement",
    "numberOfItems",
    "schema",
    "ontosite",
    "void",
];
