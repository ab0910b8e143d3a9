//! What changed between two releases of an ontology, term by term: terms
//! added, removed, deprecated (with their replacements), un-deprecated,
//! relabelled, redefined, with parents changed, with synonyms added or
//! removed, and terms whose IRI moved (merged into another that keeps the
//! old ID as an alternative one, as OBO's `alt_id` records a merge).
//!
//! Terms are matched by IRI, which is what stays put between releases of
//! a real ontology (an OBO PURL, a W3C term); a site's own entities, which
//! have none from their input, by the IRI the site gives them. Only the
//! two models are read, so the changes of two releases are the same
//! whichever site publishes them; every list is in IRI order.

use crate::model::{Entity, Ontology};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// A term as a change names it: its IRI, its ID and its name (in the
/// release the change is about: the earlier one for a term removed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Named {
    pub iri: String,
    pub id: String,
    pub name: String,
    /// Its slug in that release: where its documents are.
    pub slug: String,
}

/// A term newly deprecated, and what replaces it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Deprecated {
    #[serde(flatten)]
    pub term: Named,
    #[serde(rename = "replacedBy")]
    pub replaced_by: Vec<String>,
}

/// A text of a term (its name, its description) before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Retexted {
    #[serde(flatten)]
    pub term: Named,
    pub before: String,
    pub after: String,
}

/// What a set of a term's values (parents, synonyms) gained and lost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Regrouped {
    #[serde(flatten)]
    pub term: Named,
    pub added: Vec<String>,
    pub removed: Vec<String>,
}

/// A term of the earlier release whose IRI the later one no longer has,
/// and the term that took it in (keeping its ID as an alternative one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Moved {
    #[serde(flatten)]
    pub term: Named,
    pub to: String,
}

/// Every change between an earlier release and a later one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Changes {
    pub added: Vec<Named>,
    pub removed: Vec<Named>,
    pub deprecated: Vec<Deprecated>,
    pub undeprecated: Vec<Named>,
    pub relabelled: Vec<Retexted>,
    pub redefined: Vec<Retexted>,
    pub reparented: Vec<Regrouped>,
    pub synonyms: Vec<Regrouped>,
    pub moved: Vec<Moved>,
}

/// How many of each kind of change there are, as a release list shows
/// them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Counts {
    pub added: usize,
    pub removed: usize,
    pub deprecated: usize,
    pub undeprecated: usize,
    pub relabelled: usize,
    pub redefined: usize,
    pub reparented: usize,
    pub synonyms: usize,
    pub moved: usize,
}

/// The kinds of change, in the order every list and format gives them.
pub const KINDS: [&str; 9] = [
    "added",
    "removed",
    "deprecated",
    "undeprecated",
    "relabelled",
    "redefined",
    "reparented",
    "synonyms",
    "moved",
];

/// What a change says beyond the term it is about.
#[derive(Debug, Clone, Copy)]
pub enum Detail<'a> {
    /// Nothing more (added, removed, un-deprecated).
    None,
    /// The terms replacing a deprecated one.
    ReplacedBy(&'a [String]),
    /// A name or description before and after.
    Retexted { before: &'a str, after: &'a str },
    /// Parents or synonyms gained and lost.
    Regrouped {
        added: &'a [String],
        removed: &'a [String],
    },
    /// The term that took in a moved one.
    MovedTo(&'a str),
}

impl Counts {
    /// Each kind of change and how many there are, in [`KINDS`]' order.
    pub fn by_kind(&self) -> [(&'static str, usize); 9] {
        let n = [
            self.added,
            self.removed,
            self.deprecated,
            self.undeprecated,
            self.relabelled,
            self.redefined,
            self.reparented,
            self.synonyms,
            self.moved,
        ];
        std::array::from_fn(|i| (KINDS[i], n[i]))
    }
}

/// `3 added, 0 removed, ...`, every kind in the order the lists have.
impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (kind, n)) in self.by_kind().iter().enumerate() {
            let separator = if i == 0 { "" } else { ", " };
            write!(f, "{separator}{n} {kind}")?;
        }
        Ok(())
    }
}

impl Changes {
    /// Every change, with its kind and what it says, in [`KINDS`]' order
    /// and each list's: the one walk every format of a change log makes.
    pub fn each(&self) -> impl Iterator<Item = (&'static str, &Named, Detail<'_>)> {
        fn named<'c>(
            kind: &'static str,
            list: &'c [Named],
        ) -> impl Iterator<Item = (&'static str, &'c Named, Detail<'c>)> {
            list.iter().map(move |term| (kind, term, Detail::None))
        }
        fn retexted<'c>(
            kind: &'static str,
            list: &'c [Retexted],
        ) -> impl Iterator<Item = (&'static str, &'c Named, Detail<'c>)> {
            list.iter().map(move |r| {
                let detail = Detail::Retexted {
                    before: &r.before,
                    after: &r.after,
                };
                (kind, &r.term, detail)
            })
        }
        fn regrouped<'c>(
            kind: &'static str,
            list: &'c [Regrouped],
        ) -> impl Iterator<Item = (&'static str, &'c Named, Detail<'c>)> {
            list.iter().map(move |r| {
                let detail = Detail::Regrouped {
                    added: &r.added,
                    removed: &r.removed,
                };
                (kind, &r.term, detail)
            })
        }
        named(KINDS[0], &self.added)
            .chain(named(KINDS[1], &self.removed))
            .chain(
                self.deprecated
                    .iter()
                    .map(|d| (KINDS[2], &d.term, Detail::ReplacedBy(&d.replaced_by))),
            )
            .chain(named(KINDS[3], &self.undeprecated))
            .chain(retexted(KINDS[4], &self.relabelled))
            .chain(retexted(KINDS[5], &self.redefined))
            .chain(regrouped(KINDS[6], &self.reparented))
            .chain(regrouped(KINDS[7], &self.synonyms))
            .chain(
                self.moved
                    .iter()
                    .map(|m| (KINDS[8], &m.term, Detail::MovedTo(&m.to))),
            )
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.counts() == Counts::default()
    }

    pub fn counts(&self) -> Counts {
        Counts {
            added: self.added.len(),
            removed: self.removed.len(),
            deprecated: self.deprecated.len(),
            undeprecated: self.undeprecated.len(),
            relabelled: self.relabelled.len(),
            redefined: self.redefined.len(),
            reparented: self.reparented.len(),
            synonyms: self.synonyms.len(),
            moved: self.moved.len(),
        }
    }
}

/// The terms of a release by IRI.
fn by_iri(ontology: &Ontology) -> BTreeMap<String, &Entity> {
    let base = &ontology.meta.base_url;
    ontology
        .entities
        .iter()
        .map(|entity| (entity.iri(base), entity))
        .collect()
}

fn named(iri: &str, entity: &Entity) -> Named {
    Named {
        iri: iri.to_owned(),
        id: entity.id.clone(),
        name: entity.name.clone(),
        slug: entity.slug.as_str().to_owned(),
    }
}

fn deprecated(entity: &Entity) -> bool {
    entity.term.as_ref().is_some_and(|term| term.deprecated)
}

/// A term's parents, as a set.
fn parents(entity: &Entity) -> BTreeSet<&str> {
    entity
        .term
        .iter()
        .flat_map(|term| term.parents.iter().map(String::as_str))
        .collect()
}

/// A term's synonyms, as a set of their texts (`"text"@lang` where the
/// text has a language).
fn synonyms(entity: &Entity) -> BTreeSet<String> {
    entity
        .term
        .iter()
        .flat_map(|term| &term.synonyms)
        .map(|synonym| match &synonym.text.language {
            Some(language) => format!("{}@{language}", synonym.text.value),
            None => synonym.text.value.clone(),
        })
        .collect()
}

/// What `after` has and `before` lacks, and the other way round.
fn regrouped<T: Ord + ToString>(
    before: &BTreeSet<T>,
    after: &BTreeSet<T>,
) -> (Vec<String>, Vec<String>) {
    let added = after.difference(before).map(ToString::to_string).collect();
    let removed = before.difference(after).map(ToString::to_string).collect();
    (added, removed)
}

/// The changes from the release `before` to the release `after`.
pub fn between(before: &Ontology, after: &Ontology) -> Changes {
    let (old, new) = (by_iri(before), by_iri(after));
    // The IDs the later release keeps as alternative ones, by the IRI of
    // the term that keeps them.
    let merged_into: BTreeMap<&str, &str> = new
        .iter()
        .flat_map(|(iri, entity)| {
            entity
                .term
                .iter()
                .flat_map(|term| &term.alternative_ids)
                .map(move |id| (id.as_str(), iri.as_str()))
        })
        .collect();
    let mut changes = Changes::default();
    for (iri, entity) in &old {
        if new.contains_key(iri) {
            continue;
        }
        match merged_into.get(entity.id.as_str()) {
            Some(to) => changes.moved.push(Moved {
                term: named(iri, entity),
                to: (*to).to_owned(),
            }),
            None => changes.removed.push(named(iri, entity)),
        }
    }
    for (iri, entity) in &new {
        let Some(earlier) = old.get(iri) else {
            changes.added.push(named(iri, entity));
            continue;
        };
        let term = named(iri, entity);
        match (deprecated(earlier), deprecated(entity)) {
            (false, true) => changes.deprecated.push(Deprecated {
                term: term.clone(),
                replaced_by: entity
                    .term
                    .iter()
                    .flat_map(|t| t.replaced_by.iter().cloned())
                    .collect(),
            }),
            (true, false) => changes.undeprecated.push(term.clone()),
            _ => {}
        }
        if earlier.name != entity.name {
            changes.relabelled.push(Retexted {
                term: term.clone(),
                before: earlier.name.clone(),
                after: entity.name.clone(),
            });
        }
        if earlier.description != entity.description {
            changes.redefined.push(Retexted {
                term: term.clone(),
                before: earlier.description.clone(),
                after: entity.description.clone(),
            });
        }
        let (added, removed) = regrouped(&parents(earlier), &parents(entity));
        if !added.is_empty() || !removed.is_empty() {
            changes.reparented.push(Regrouped {
                term: term.clone(),
                added,
                removed,
            });
        }
        let (added, removed) = regrouped(&synonyms(earlier), &synonyms(entity));
        if !added.is_empty() || !removed.is_empty() {
            changes.synonyms.push(Regrouped {
                term,
                added,
                removed,
            });
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Origin, Slug, Synonym, Term, Text};

    fn entity(iri: &str, id: &str, name: &str, term: Term) -> Entity {
        Entity {
            id: id.to_owned(),
            slug: Slug::parse(&id.to_lowercase().replace(':', "")).unwrap(),
            name: name.to_owned(),
            description: String::new(),
            iri: Some(iri.to_owned()),
            extra: Default::default(),
            link_names: Default::default(),
            term: Some(Box::new(term)),
            origin: Origin {
                path: std::sync::Arc::from(std::path::Path::new("x.obo")),
                line: None,
            },
        }
    }

    fn synonym(text: &str) -> Synonym {
        Synonym {
            text: Text {
                value: text.to_owned(),
                language: None,
            },
            property: "http://www.geneontology.org/formats/oboInOwl#hasExactSynonym".to_owned(),
            kind: None,
        }
    }

    #[test]
    fn each_kind_of_change_is_found_and_nothing_else() {
        let meta =
            || crate::model::OntologyMeta::for_test("Class", "http://www.w3.org/2002/07/owl#Class");
        let mut before = Ontology {
            meta: meta(),
            entities: Vec::new(),
        };
        let mut after = Ontology {
            meta: meta(),
            entities: Vec::new(),
        };
        let iri = |n: u32| format!("http://purl.obolibrary.org/obo/X_{n:07}");
        before.entities = vec![
            entity(&iri(1), "X:0000001", "kept", Term::default()),
            entity(&iri(2), "X:0000002", "gone", Term::default()),
            entity(&iri(3), "X:0000003", "merged", Term::default()),
            entity(
                &iri(4),
                "X:0000004",
                "old name",
                Term {
                    parents: vec![iri(1)],
                    synonyms: vec![synonym("a"), synonym("b")],
                    ..Term::default()
                },
            ),
            entity(&iri(5), "X:0000005", "to deprecate", Term::default()),
            entity(
                &iri(6),
                "X:0000006",
                "revived",
                Term {
                    deprecated: true,
                    ..Term::default()
                },
            ),
        ];
        let mut renamed = entity(
            &iri(4),
            "X:0000004",
            "new name",
            Term {
                parents: vec![iri(7)],
                synonyms: vec![synonym("b"), synonym("c")],
                ..Term::default()
            },
        );
        renamed.description = "now defined".to_owned();
        after.entities = vec![
            entity(&iri(1), "X:0000001", "kept", Term::default()),
            renamed,
            entity(
                &iri(5),
                "X:0000005",
                "to deprecate",
                Term {
                    deprecated: true,
                    replaced_by: vec![iri(1)],
                    ..Term::default()
                },
            ),
            entity(&iri(6), "X:0000006", "revived", Term::default()),
            entity(
                &iri(7),
                "X:0000007",
                "new",
                Term {
                    alternative_ids: vec!["X:0000003".to_owned()],
                    ..Term::default()
                },
            ),
        ];
        let changes = between(&before, &after);
        let iris = |terms: &[Named]| terms.iter().map(|t| t.iri.clone()).collect::<Vec<_>>();
        assert_eq!(iris(&changes.added), [iri(7)]);
        assert_eq!(iris(&changes.removed), [iri(2)]);
        assert_eq!(changes.moved.len(), 1);
        assert_eq!(
            (
                changes.moved[0].term.iri.clone(),
                changes.moved[0].to.clone()
            ),
            (iri(3), iri(7))
        );
        assert_eq!(changes.deprecated.len(), 1);
        assert_eq!(changes.deprecated[0].replaced_by, [iri(1)]);
        assert_eq!(iris(&changes.undeprecated), [iri(6)]);
        assert_eq!(changes.relabelled.len(), 1);
        assert_eq!(
            (
                changes.relabelled[0].before.as_str(),
                changes.relabelled[0].after.as_str()
            ),
            ("old name", "new name")
        );
        assert_eq!(changes.redefined.len(), 1);
        assert_eq!(
            (
                changes.reparented[0].added.clone(),
                changes.reparented[0].removed.clone()
            ),
            (vec![iri(7)], vec![iri(1)])
        );
        assert_eq!(
            (
                changes.synonyms[0].added.clone(),
                changes.synonyms[0].removed.clone()
            ),
            (vec!["c".to_owned()], vec!["a".to_owned()])
        );
        assert!(between(&after, &after).is_empty());
    }
}
