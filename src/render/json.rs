//! The plain JSON documents: one entity, the list, and `/all`.
//!
//! Serialised through borrowed views, so the model does not need to know
//! how it is published.

use super::context::Context;
use crate::model::{BaseUrl, Entity, Text};
use crate::search::text::short_name;
use crate::site::formats::Links;
use crate::site::pages::{self, Paged};
use serde::Serialize;
use serde_json::{Map, Value};
use std::borrow::Cow;

#[derive(Serialize)]
struct EntityView<'a> {
    slug: &'a str,
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    description: &'a str,
    /// The IRI the input gives it, where it gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    iri: Option<&'a str>,
    #[serde(flatten)]
    term: Option<TermView<'a>>,
    #[serde(flatten)]
    extra: &'a Map<String, Value>,
    links: Links<'a>,
}

/// What a term of an ontology source adds to its plain JSON: its types,
/// its texts in every language, and its place among the terms.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TermView<'a> {
    types: &'a [String],
    labels: Vec<TextView<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    descriptions: Vec<TextView<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    synonyms: Vec<SynonymView<'a>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    alternative_ids: &'a [String],
    #[serde(flatten)]
    links: TermLinks<'a>,
}

/// A term's place among the terms, as its JSON and its page show it.
/// Its lists of other terms are bounded ([`LISTED_MAX`] children and
/// referrers, the nearest ancestors), each with its total or whether it is
/// whole, so that a term's documents stay proportional to the term: a
/// term with 100,000 children made an 85 MB page.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TermLinks<'a> {
    parents: Vec<TermRef<'a>>,
    /// The first [`LISTED_MAX`] children, in name order.
    children: Vec<TermRef<'a>>,
    children_total: usize,
    /// The nearest ancestors, nearest first; the JSON's only (the page
    /// shows the breadcrumbs instead).
    #[serde(skip_serializing_if = "Option::is_none")]
    ancestors: Option<Vec<TermRef<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ancestors_complete: Option<bool>,
    /// The first [`LISTED_MAX`] published terms that state something of
    /// this one.
    linked_from: Vec<TermRef<'a>>,
    linked_from_total: usize,
    deprecated: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    replaced_by: Vec<TermRef<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    consider: Vec<TermRef<'a>>,
}

/// How many children, and how many terms that link to it, a term's
/// documents list at most; the hierarchy's pages list every child.
pub const LISTED_MAX: usize = 1000;

impl<'a> TermLinks<'a> {
    pub fn of(
        site: &'a Context,
        entity: &'a Entity,
        term: &'a crate::model::Term,
        with_ancestors: bool,
    ) -> TermLinks<'a> {
        let relations = &site.relations;
        let position = relations.position_of(entity);
        let at = |list: &[usize]| -> Vec<TermRef<'a>> {
            list.iter()
                .take(LISTED_MAX)
                .map(|&p| TermRef::at(site, p))
                .collect()
        };
        let children = position.map_or(&[][..], |p| relations.children(p));
        let linked_from = position.map_or(&[][..], |p| relations.referrers(p));
        let ancestors = with_ancestors.then(|| {
            position.map_or((Vec::new(), true), |p| {
                relations.ancestors(site.ontology, p)
            })
        });
        TermLinks {
            parents: TermRef::parents(site, term),
            children: at(children),
            children_total: children.len(),
            ancestors_complete: ancestors.as_ref().map(|(_, complete)| *complete),
            ancestors: ancestors.map(|(list, _)| at(&list)),
            linked_from: at(linked_from),
            linked_from_total: linked_from.len(),
            deprecated: term.deprecated,
            replaced_by: term
                .replaced_by
                .iter()
                .map(|r| TermRef::to(site, r))
                .collect(),
            consider: term.consider.iter().map(|r| TermRef::to(site, r)).collect(),
        }
    }
}

/// A synonym: its text and language, its scope where the property says
/// one (oboInOwl's exact, broad, narrow, related), and its synonym type.
#[derive(Serialize)]
pub struct SynonymView<'a> {
    pub value: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<&'static str>,
    /// The synonym type's IRI.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'a str>,
}

impl<'a> SynonymView<'a> {
    pub fn all(synonyms: &'a [crate::model::Synonym]) -> Vec<SynonymView<'a>> {
        use crate::model::namespaces::OBO_IN_OWL;
        synonyms
            .iter()
            .map(|s| SynonymView {
                value: &s.text.value,
                language: s.text.language.as_deref(),
                scope: match s.property.strip_prefix(OBO_IN_OWL) {
                    Some("hasExactSynonym") => Some("exact"),
                    Some("hasBroadSynonym") => Some("broad"),
                    Some("hasNarrowSynonym") => Some("narrow"),
                    Some("hasRelatedSynonym") => Some("related"),
                    _ => None,
                },
                kind: s.kind.as_deref(),
            })
            .collect()
    }
}

/// A text and its language, if it has one.
#[derive(Serialize)]
pub struct TextView<'a> {
    pub value: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<&'a str>,
}

impl<'a> TextView<'a> {
    pub fn all(texts: &'a [Text]) -> Vec<TextView<'a>> {
        texts
            .iter()
            .map(|t| TextView {
                value: &t.value,
                language: t.language.as_deref(),
            })
            .collect()
    }
}

/// A term another points to: its IRI, and where the site publishes it
/// its slug, name and plain JSON.
#[derive(Serialize)]
pub struct TermRef<'a> {
    pub iri: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// A parent that the term's logical definition names (its genus), not
    /// one the source states.
    #[serde(rename = "fromDefinition", skip_serializing_if = "std::ops::Not::not")]
    pub from_definition: bool,
}

impl<'a> TermRef<'a> {
    /// The term `iri` names.
    pub fn to(site: &'a Context, iri: &'a str) -> TermRef<'a> {
        match site.relations.position(iri) {
            Some(position) => TermRef::at(site, position),
            None => TermRef {
                iri,
                slug: None,
                name: None,
                url: None,
                from_definition: false,
            },
        }
    }

    /// The published term at `position`.
    pub fn at(site: &'a Context, position: usize) -> TermRef<'a> {
        let entity = &site.ontology.entities[position];
        TermRef {
            iri: entity.iri.as_deref().unwrap_or_default(),
            slug: Some(entity.slug.as_str()),
            name: Some(short_name(&entity.name)),
            url: Some(site.url(&crate::site::formats::json_file(entity))),
            from_definition: false,
        }
    }

    /// The term's parents: those stated, then its genus, marked.
    pub fn parents(site: &'a Context, term: &'a crate::model::Term) -> Vec<TermRef<'a>> {
        let stated = term.parents.iter().map(|p| TermRef::to(site, p));
        let genus = term.genus.iter().map(|p| TermRef {
            from_definition: true,
            ..TermRef::to(site, p)
        });
        stated.chain(genus).collect()
    }
}

impl<'a> TermView<'a> {
    fn of(site: &'a Context, entity: &'a Entity) -> Option<TermView<'a>> {
        let term = entity.term.as_deref()?;
        Some(TermView {
            types: &term.types,
            labels: TextView::all(&term.labels),
            descriptions: TextView::all(&term.descriptions),
            synonyms: SynonymView::all(&term.synonyms),
            alternative_ids: &term.alternative_ids,
            links: TermLinks::of(site, entity, term, true),
        })
    }
}

impl<'a> EntityView<'a> {
    fn of(site: &'a Context, entity: &'a Entity) -> EntityView<'a> {
        EntityView {
            slug: entity.slug.as_str(),
            id: &entity.id,
            kind: &site.ontology.meta.entity_type,
            name: &entity.name,
            description: &entity.description,
            iri: entity.iri.as_deref(),
            term: TermView::of(site, entity),
            extra: &entity.extra,
            links: Links::of(&site.ontology.meta.base_url, entity),
        }
    }
}

/// A list entry: enough to show and to follow, not the full data.
#[derive(Serialize)]
struct Entry<'a> {
    slug: &'a str,
    id: &'a str,
    name: Cow<'a, str>,
    links: Links<'a>,
}

impl<'a> Entry<'a> {
    fn of(base_url: &'a BaseUrl, entity: &'a Entity) -> Entry<'a> {
        Entry {
            slug: entity.slug.as_str(),
            id: &entity.id,
            name: short_name(&entity.name),
            links: Links::of(base_url, entity),
        }
    }
}

#[derive(Serialize)]
struct List<I> {
    #[serde(rename = "type")]
    kind: String,
    total: usize,
    #[serde(flatten)]
    page: Option<PageView>,
    items: I,
}

/// Where a page of a list stands: its number, how many there are, and the
/// absolute URLs of the whole list and of the pages around it.
#[derive(Serialize)]
struct PageView {
    page: usize,
    pages: usize,
    complete: String,
    first: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    previous: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
    last: String,
}

/// Serialises the items of a list straight from the entities, without an
/// intermediate vector of views.
struct Items<'s, F>(&'s Context<'s>, &'s [Entity], F);

impl<'s, V: Serialize, F: Fn(&'s Context<'s>, &'s Entity) -> V> Serialize for Items<'s, F> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.1.iter().map(|e| (self.2)(self.0, e)))
    }
}

/// The whole list (`page` `None`) or one page of it, of `view`s of the
/// entities.
fn list<'s, V: Serialize>(
    site: &'s Context<'s>,
    page: Option<(Paged, usize)>,
    framed: Framed,
    out: impl std::io::Write,
    view: impl Fn(&'s Context<'s>, &'s Entity) -> V,
) -> Result<(), serde_json::Error> {
    let entities = &site.ontology.entities;
    let (items, page) = match page {
        None => (&entities[..], None),
        Some((paged, number)) => {
            let pages = pages::count(entities.len());
            let around = pages::Neighbours::of(paged, number, pages);
            let view = PageView {
                page: number,
                pages,
                complete: site.url(around.whole),
                first: site.url(&around.first),
                previous: around.previous.map(|p| site.url(&p)),
                next: around.next.map(|p| site.url(&p)),
                last: site.url(&around.last),
            };
            (&entities[pages::range(number, entities.len())], Some(view))
        }
    };
    let items = match framed {
        Framed::Whole => items,
        Framed::Empty => &items[..0],
    };
    let list = List {
        kind: site.ontology.meta.entity_type.clone(),
        total: entities.len(),
        page,
        items: Items(site, items, view),
    };
    serde_json::to_writer(out, &list)
}

pub fn entity(site: &Context, entity: &Entity, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    serde_json::to_writer(out, &EntityView::of(site, entity))
}

/// The entity's JSON document indented, as its page shows it.
pub fn entity_pretty(site: &Context, entity: &Entity) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(&EntityView::of(site, entity))
}

/// `index.json`, or with `page` (from 1) one of its pages.
pub fn entity_list<'s>(
    site: &'s Context<'s>,
    page: Option<usize>,
    out: impl std::io::Write,
) -> Result<(), serde_json::Error> {
    let page = page.map(|n| (Paged::List, n));
    list(site, page, Framed::Whole, out, |site, entity| {
        Entry::of(&site.ontology.meta.base_url, entity)
    })
}

/// `/all`, or with `page` (from 1) one of its pages.
pub fn all<'s>(
    site: &'s Context<'s>,
    page: Option<usize>,
    out: impl std::io::Write,
) -> Result<(), serde_json::Error> {
    list(
        site,
        page.map(|n| (Paged::All, n)),
        Framed::Whole,
        out,
        EntityView::of,
    )
}

/// Whether a list is written with its items, or as its frame alone.
#[derive(Clone, Copy)]
pub enum Framed {
    Whole,
    /// No items: what a list or a page is around them, which the joined
    /// lists are made of (`parts::joins`).
    Empty,
}

/// `index.json` or `/all` (`list`), or with `page` one of its pages,
/// without its items.
pub fn frame(
    site: &Context,
    list: Paged,
    page: Option<usize>,
) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::new();
    let page = page.map(|n| (list, n));
    match list {
        Paged::All => self::list(site, page, Framed::Empty, &mut out, EntityView::of)?,
        _ => self::list(site, page, Framed::Empty, &mut out, |site, entity| {
            Entry::of(&site.ontology.meta.base_url, entity)
        })?,
    }
    Ok(out)
}
