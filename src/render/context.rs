//! What every document of a site is rendered from: the ontology and what
//! is worked out of it once (the links among its terms, the paths its IRIs
//! arrive at, the pass-through fields). The data formats render from this
//! alone; the pages add their own state (`rendering.rs`).

use super::relations;
use crate::model::Ontology;
use crate::model::namespaces::{OBO, local_name};
use crate::site::negotiation;
use crate::site::parts::Parted;
use std::collections::BTreeMap;

/// The ontology, and what is worked out of it once per site.
pub struct Context<'a> {
    pub ontology: &'a Ontology,
    /// Every pass-through field name and whether any value of it is
    /// structured (an object, or an array holding one), which JSON-LD must
    /// then keep as a JSON literal instead of dropping its unknown keys.
    pub(super) extra_terms: BTreeMap<&'a str, bool>,
    /// How many triples the entities state, counted once for the data
    /// set's description.
    pub(super) entity_triples: std::sync::OnceLock<usize>,
    /// The prefixes RDF documents abbreviate with (`rdf::prefixes`).
    pub(super) prefixes: std::sync::OnceLock<Vec<(String, String)>>,
    /// How the terms of an ontology source link to each other.
    pub(super) relations: relations::Relations,
    /// Whether the site publishes the terms of an ontology source.
    pub(crate) has_terms: bool,
    /// The paths at which entities' own IRIs in the site's namespace
    /// (and removed terms') arrive, where those are not `/{slug}`.
    pub(super) aliases: negotiation::Aliases,
    /// `aliases` and the paths of the hash documents that are not
    /// `/{slug}`: what the hosts and `serve` are given. Made only by
    /// [`Context::group_hash_documents`], so that `aliases` never holds a
    /// hash document's path and regrouping takes nothing back out.
    pub(super) published_aliases: negotiation::Aliases,
    /// Whether the input names some entity of `input/entities/` by its own
    /// IRI, which the context and schemas then describe.
    pub(crate) own_iris: bool,
    /// Where the list's and the dump's parts start (`parts::plan`): each
    /// one part, whole, unless the host takes no file that large.
    pub(super) cuts: Cuts,
    /// The release this site publishes, where the site keeps releases.
    pub(super) release: Option<super::release::ReleaseOf>,
    /// Every release, oldest first: on the current site only, so that a
    /// release's own copy stays as it was when later ones are added.
    pub(super) releases: Vec<super::release::Listed>,
    /// Whether this is a release's copy under `/releases/{version}/`,
    /// which carries no host files: the site's own answer for it.
    pub(super) kept_release: bool,
    /// The terms earlier releases had and this one has not, by IRI: their
    /// IRIs resolve to documents saying so (the current site's only).
    pub(super) removed: Vec<super::release::Removed>,
    /// Each term's history across the releases, by IRI (the current
    /// site's only).
    pub(super) history: std::collections::HashMap<String, Vec<super::release::Changed>>,
    /// The documents at which IRIs with a fragment arrive (`/pato` for
    /// `pato#attribute_slim`), of the entities and the removed terms.
    pub(super) hash_documents: Vec<HashDocument>,
}

/// Where each part of the RDF list and the dump starts, as the index of
/// its first unit (`parts::write_unit`): the list's own statements, then
/// an entry per entity; the dump's the data set's description, the
/// vocabulary and the list's own statements, then the entries, then each
/// entity's statements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Cuts {
    pub(super) list: Vec<usize>,
    pub(super) dump: Vec<usize>,
}

impl Default for Cuts {
    fn default() -> Cuts {
        Cuts {
            list: vec![0],
            dump: vec![0],
        }
    }
}

impl Cuts {
    pub(super) fn of(&self, parted: Parted) -> &[usize] {
        match parted {
            Parted::List => &self.list,
            Parted::Dump => &self.dump,
        }
    }
}

impl<'a> Context<'a> {
    pub fn of(ontology: &'a Ontology) -> Context<'a> {
        let mut extra_terms: BTreeMap<&str, bool> = BTreeMap::new();
        for entity in &ontology.entities {
            for (key, value) in &entity.extra {
                *extra_terms.entry(key.as_str()).or_default() |= is_structured(value);
            }
        }
        let mut context = Context {
            ontology,
            extra_terms,
            entity_triples: std::sync::OnceLock::new(),
            prefixes: std::sync::OnceLock::new(),
            relations: relations::Relations::of(ontology),
            has_terms: ontology.entities.iter().any(|e| e.term.is_some()),
            aliases: aliases_of(ontology),
            published_aliases: Default::default(),
            own_iris: ontology
                .entities
                .iter()
                .any(|e| e.term.is_none() && e.iri.is_some()),
            cuts: Cuts::default(),
            release: None,
            releases: Vec::new(),
            kept_release: false,
            removed: Vec::new(),
            history: Default::default(),
            hash_documents: Vec::new(),
        };
        context.group_hash_documents();
        context
    }

    /// Works out the hash documents, with the terms and aliases as they
    /// are now, and the aliases published with their paths.
    pub(super) fn group_hash_documents(&mut self) {
        self.hash_documents = hash_documents_of(self);
        let mut published = self.aliases.clone();
        published.add_hash_documents(self.hash_documents.iter());
        self.published_aliases = published;
    }

    /// Whether the site publishes the list of its releases: the current
    /// site of one that keeps releases.
    pub(super) fn has_release_list(&self) -> bool {
        !self.releases.is_empty()
    }

    /// Whether the site publishes a change log: a release with one before
    /// it.
    pub(super) fn has_change_log(&self) -> bool {
        self.release.as_ref().is_some_and(|r| r.since.is_some())
    }

    /// How many parts `parted` is in, where it is in parts.
    pub fn parts(&self, parted: Parted) -> Option<u32> {
        let parts = u32::try_from(self.cuts.of(parted).len()).unwrap_or(u32::MAX);
        (parts > 1).then_some(parts)
    }

    /// How many units `parted` is made of: the head, then one or two per
    /// entity.
    pub(super) fn units(&self, parted: Parted) -> usize {
        let entities = self.ontology.entities.len();
        match parted {
            Parted::List => 1 + entities,
            Parted::Dump => 1 + 2 * entities,
        }
    }

    /// The units of part `k` (from 1) of `parted`, in order.
    pub(super) fn part_units(&self, parted: Parted, k: u32) -> std::ops::Range<usize> {
        let starts = self.cuts.of(parted);
        let at = (k.max(1) as usize - 1).min(starts.len() - 1);
        let end = starts.get(at + 1).copied().unwrap_or(self.units(parted));
        starts[at]..end
    }

    pub(super) fn url(&self, path: &str) -> String {
        self.ontology.meta.base_url.join(path)
    }

    /// The namespace of the terms ontosite mints (`slug`, pass-through
    /// fields): `ontology.json`'s `vocabulary`, else `{base}/vocab#`.
    pub fn vocabulary(&self) -> std::borrow::Cow<'_, str> {
        match &self.ontology.meta.vocabulary {
            Some(namespace) => namespace.into(),
            None => self.url("vocab#").into(),
        }
    }

    /// The IRI of one of ontosite's terms.
    pub(super) fn term(&self, name: &str) -> String {
        format!("{}{name}", self.vocabulary())
    }
}

/// The paths that stand for an entity: its IRI's rest where the IRI is in
/// the namespace that resolves through the site, and a term's earlier IDs.
fn aliases_of(ontology: &Ontology) -> negotiation::Aliases {
    // A term with an OBO PURL had its earlier IDs' PURLs too
    // (`HP:0001275` was `obo:HP_0001275`): they resolve to it as well. An
    // earlier ID given as an IRI (EDAM's `http://edamontology.org/
    // topic_0197`) is that IRI, whatever the term's own.
    let earlier_iris: Vec<(String, &str)> = ontology
        .entities
        .iter()
        .flat_map(|e| {
            let obo = e.iri.as_deref().is_some_and(|i| i.starts_with(OBO));
            let ids = e.term.as_deref().map(|t| t.alternative_ids.as_slice());
            ids.unwrap_or_default().iter().filter_map(move |id| {
                if is_iri(id) {
                    return Some((id.clone(), e.slug.as_str()));
                }
                let (prefix, local) = id.split_once(':').filter(|_| obo)?;
                Some((format!("{OBO}{prefix}_{local}"), e.slug.as_str()))
            })
        })
        .collect();
    let mut aliases = negotiation::Aliases::of(
        &ontology.meta.resolved_namespace(),
        // Earlier IRIs first: where a path is both, a term's own IRI (the
        // later entry) keeps it.
        earlier_iris
            .iter()
            .map(|(iri, slug)| (iri.as_str(), *slug))
            .chain(
                ontology
                    .entities
                    .iter()
                    .filter_map(|e| Some((e.iri.as_deref()?, e.slug.as_str()))),
            ),
    );
    let slugs: std::collections::HashSet<&str> =
        ontology.entities.iter().map(|e| e.slug.as_str()).collect();
    aliases.add_alternatives(
        ontology.entities.iter().flat_map(|e| {
            let ids = e.term.as_deref().map(|t| t.alternative_ids.as_slice());
            // An IRI by its local name, as an OBO ID by its own.
            ids.unwrap_or_default().iter().map(move |id| {
                let id = if is_iri(id) { local_name(id) } else { id };
                (id, e.slug.as_str())
            })
        }),
        |slug| slugs.contains(slug),
    );
    aliases
}

/// Whether an ID is written as an IRI rather than as a prefixed ID.
fn is_iri(id: &str) -> bool {
    crate::model::namespaces::written_as_url(id)
}

/// A term of a hash document: an entity of the site, or a term an earlier
/// release had (`Context::removed`), by its place in either list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    Entity(usize),
    Removed(usize),
}

pub type HashDocument = crate::site::hashes::HashDocument<Member>;

/// The hash documents of the site's entities and removed terms: a name
/// an entity, a removed term or an alias holds is theirs.
fn hash_documents_of(site: &Context) -> Vec<HashDocument> {
    let ontology = site.ontology;
    let entities = ontology.entities.iter().enumerate();
    let removed = site.removed.iter().enumerate();
    let terms = entities
        .filter_map(|(i, e)| Some((e.iri.as_deref()?, Member::Entity(i))))
        .chain(removed.map(|(i, r)| (r.term.iri.as_str(), Member::Removed(i))));
    let slugs: std::collections::HashSet<&str> = ontology
        .entities
        .iter()
        .map(|e| e.slug.as_str())
        .chain(site.removed.iter().map(|r| r.term.slug.as_str()))
        .collect();
    crate::site::hashes::group(&ontology.meta.resolved_namespace(), terms, |name| {
        slugs.contains(name) || site.aliases.contains(name)
    })
}

fn is_structured(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Object(_) => true,
        serde_json::Value::Array(items) => items.iter().any(is_structured),
        _ => false,
    }
}
