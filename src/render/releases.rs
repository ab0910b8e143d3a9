//! The releases a site keeps side by side: the list of them
//! (`releases/index.json`, `.jsonld`, `.ttl`, `.html`) on the current
//! site, and on every release's root (the current one's too) its change
//! log, what changed since the release before it (`change-log.json`,
//! `.ttl`, `.html`). A release's own copy knows nothing of the releases
//! after it, so adding one leaves every earlier copy byte for byte as it
//! was.

use super::context::Context;
use super::error::RenderError;
use super::rdf::{self, iri};
use super::release::{Changed, Listed, ReleaseOf, Removed};
use crate::changes::{Changes, Detail};
use crate::site::files;
use crate::site::formats::Representation;
use oxrdf::vocab::{rdf as rdf_vocab, xsd};
use oxrdf::{BlankNode, Literal, NamedNode, NamedOrBlankNode, Term, Triple};
use serde_json::{Value, json};

/// Every term's history, by IRI, oldest release first: the releases that
/// changed it and how, from their change logs.
pub fn history<'c>(
    logs: impl Iterator<Item = (&'c str, Option<&'c str>, &'c Changes)>,
) -> std::collections::HashMap<String, Vec<Changed>> {
    let mut history: std::collections::HashMap<String, Vec<Changed>> = Default::default();
    for (version, previous, changes) in logs {
        let listed = |items: &[String]| items.join(", ");
        for (kind, term, detail) in changes.each() {
            let what = match detail {
                Detail::None if kind == "undeprecated" => "no longer deprecated".to_owned(),
                Detail::None => kind.to_owned(),
                Detail::ReplacedBy([]) => kind.to_owned(),
                Detail::ReplacedBy(by) => format!("{kind}, replaced by {}", listed(by)),
                Detail::Retexted { before, after } => format!("{kind}: “{before}” → “{after}”"),
                Detail::Regrouped { added, removed } => {
                    let mut what = match kind {
                        "reparented" => "parents:".to_owned(),
                        _ => format!("{kind}:"),
                    };
                    if !added.is_empty() {
                        what.push_str(&format!(" added {}", listed(added)));
                    }
                    if !removed.is_empty() {
                        what.push_str(&format!(" removed {}", listed(removed)));
                    }
                    what
                }
                Detail::MovedTo(to) => format!("moved to {to}"),
            };
            let entries = history.entry(term.iri.clone()).or_default();
            match entries.last_mut().filter(|e| e.version == version) {
                Some(entry) => entry.what.push(what),
                None => entries.push(Changed {
                    version: version.to_owned(),
                    what: vec![what],
                    // A removed term is in the release before only.
                    shown_in: match (kind, previous) {
                        ("removed" | "moved", Some(previous)) => previous.to_owned(),
                        _ => version.to_owned(),
                    },
                    slug: term.slug.clone(),
                }),
            }
        }
    }
    history
}

/// A removed term's JSON document: what the release knows of it, that it
/// is removed (a client tells it from an entity by that), and its
/// document in the last release that had it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct RemovedDocument<'a> {
    #[serde(flatten)]
    term: &'a Removed,
    removed: bool,
    last_seen: String,
}

/// A removed term's document in `format` (`{slug}.{extension}`, where its
/// IRI arrives), without the newline its file ends with.
pub fn removed(
    site: &Context,
    removed: &Removed,
    representation: Representation,
    out: &mut Vec<u8>,
) -> Result<(), RenderError> {
    match representation {
        Representation::Json => serde_json::to_writer(
            out,
            &RemovedDocument {
                term: removed,
                removed: true,
                last_seen: last_seen(site, removed, "json"),
            },
        )?,
        Representation::Html => {
            // The page's own renderer (`html::removed`) is called instead.
        }
        Representation::JsonLd | Representation::Turtle | Representation::NTriples => {
            if let Some(syntax) = rdf::Syntax::of(representation) {
                rdf::write(site, syntax, &removed_triples(site, removed)?, out)?;
            }
        }
    }
    Ok(())
}

/// The URL of a removed term's document in the last release that had it.
fn last_seen(site: &Context, removed: &Removed, extension: &str) -> String {
    let site_root = match site.release.as_ref() {
        Some(release) => release.site.clone(),
        None => site.url(""),
    };
    format!(
        "{site_root}{}{}.{extension}",
        files::release(&removed.last_release),
        removed.term.slug
    )
}

/// What a removed term's RDF documents state: its name, that it is
/// deprecated and since when it is gone, where it was last, its last
/// description and its replacements.
pub fn removed_triples(site: &Context, removed: &Removed) -> Result<Vec<Triple>, RenderError> {
    let subject = iri(removed.term.iri.clone())?;
    let mut triples = vec![
        triple(
            &subject,
            &format!("{}label", rdf::RDFS),
            Literal::new_simple_literal(&removed.term.name),
        )?,
        triple(
            &subject,
            &format!("{}deprecated", rdf::OWL),
            Literal::new_typed_literal("true", xsd::BOOLEAN),
        )?,
        triple(
            &subject,
            &format!("{}comment", rdf::RDFS),
            Literal::new_simple_literal(format!(
                "Removed in release {}; last in release {}.",
                removed.removed_in, removed.last_release
            )),
        )?,
        triple(
            &subject,
            &format!("{}seeAlso", rdf::RDFS),
            iri(last_seen(site, removed, "html"))?,
        )?,
    ];
    if let Some(description) = &removed.description {
        triples.push(triple(
            &subject,
            &format!("{DCTERMS}description"),
            Literal::new_simple_literal(description),
        )?);
    }
    for by in &removed.replaced_by {
        if let Ok(by) = iri(by.clone()) {
            // OBO's `term replaced by`, as the OBO-to-OWL mapping
            // states `replaced_by`.
            triples.push(triple(
                &subject,
                "http://purl.obolibrary.org/obo/IAO_0100001",
                by,
            )?);
        }
    }
    Ok(triples)
}

/// The list's formats, as files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListFormat {
    Json,
    JsonLd,
    Turtle,
    Page,
}

impl ListFormat {
    pub const EVERY: [ListFormat; 4] = [
        ListFormat::Json,
        ListFormat::JsonLd,
        ListFormat::Turtle,
        ListFormat::Page,
    ];

    pub fn file(self) -> String {
        files::release_list(match self {
            ListFormat::Json => "json",
            ListFormat::JsonLd => "jsonld",
            ListFormat::Turtle => "ttl",
            ListFormat::Page => "html",
        })
    }
}

/// A change log's formats, as files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Json,
    Turtle,
    Page,
}

impl LogFormat {
    pub const EVERY: [LogFormat; 3] = [LogFormat::Json, LogFormat::Turtle, LogFormat::Page];

    pub fn file(self) -> &'static str {
        match self {
            LogFormat::Json => files::CHANGE_LOG,
            LogFormat::Turtle => files::CHANGE_LOG_TTL,
            LogFormat::Page => files::CHANGE_LOG_PAGE,
        }
    }
}

/// What each kind of change means, in `changes::KINDS`' order (the
/// Turtle defines its classes with these, the page shows them).
const MEANINGS: [&str; 9] = [
    "A term the release has and the one before it had not.",
    "A term the release before had and this one has not, its IRI taken in by no other term.",
    "A term deprecated in this release, with the terms that replace it.",
    "A term deprecated in the release before and not in this one.",
    "A term whose name changed.",
    "A term whose description changed.",
    "A term whose parents changed.",
    "A term whose synonyms changed.",
    "A term whose IRI this release no longer has, kept by another term as an alternative ID (a merge).",
];

/// Each kind of change with its meaning.
fn kinds() -> impl Iterator<Item = (&'static str, &'static str)> {
    crate::changes::KINDS.into_iter().zip(MEANINGS)
}

/// `release-list` as JSON: the current release and every release, the
/// newest first.
pub fn list_json(site: &Context, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let Some(release) = &site.release else {
        return Ok(());
    };
    let releases: Vec<&Listed> = site.releases.iter().rev().collect();
    serde_json::to_writer_pretty(
        out,
        &json!({
            "current": release.version,
            "url": site.url(files::RELEASE_LIST),
            "releases": releases,
        }),
    )?;
    Ok(())
}

use rdf::{DCAT, DCTERMS, PROV, VOID};

fn triple(
    subject: &NamedNode,
    predicate: &str,
    object: impl Into<Term>,
) -> Result<Triple, RenderError> {
    Ok(Triple::new(subject.clone(), iri(predicate)?, object))
}

/// The list as RDF: a DCAT catalog (`{base}releases/`) of data sets, one
/// per release (its root), each with its version, date, version IRI,
/// size and the release it revises.
fn list_triples(site: &Context) -> Result<Vec<Triple>, RenderError> {
    let catalog = iri(site.url(&format!("{}/", files::RELEASES)))?;
    let mut triples = vec![triple(
        &catalog,
        rdf_vocab::TYPE.as_str(),
        iri(format!("{DCAT}Catalog"))?,
    )?];
    for listed in site.releases.iter().rev() {
        let release = iri(listed.url.clone())?;
        triples.push(triple(
            &catalog,
            &format!("{DCAT}dataset"),
            release.clone(),
        )?);
        triples.push(triple(
            &release,
            rdf_vocab::TYPE.as_str(),
            iri(format!("{DCAT}Dataset"))?,
        )?);
        triples.push(triple(
            &release,
            &format!("{DCAT}version"),
            Literal::new_simple_literal(&listed.version),
        )?);
        if let Some(date) = &listed.date {
            triples.push(triple(
                &release,
                &format!("{DCTERMS}issued"),
                Literal::new_typed_literal(date, xsd::DATE),
            )?);
        }
        if let Some(version_iri) = &listed.version_iri {
            triples.push(triple(
                &release,
                &format!("{}versionIRI", rdf::OWL),
                iri(version_iri.clone())?,
            )?);
        }
        triples.push(triple(
            &release,
            &format!("{VOID}entities"),
            Literal::from(listed.entities as u64),
        )?);
        if let Some(previous) = &listed.previous {
            triples.push(triple(
                &release,
                &format!("{PROV}wasRevisionOf"),
                iri(site.url(&files::release(previous)))?,
            )?);
        }
        if let Some(log) = &listed.change_log {
            triples.push(triple(
                &release,
                &format!("{DCTERMS}relation"),
                iri(log.clone())?,
            )?);
        }
    }
    Ok(triples)
}

pub fn list_rdf(site: &Context, syntax: rdf::Syntax, out: &mut Vec<u8>) -> Result<(), RenderError> {
    rdf::write(site, syntax, &list_triples(site)?, out)
}

/// The change log as JSON: the release, the one before, the counts and
/// every change.
pub fn log_json(site: &Context, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let Some((release, previous, changes)) = since(site) else {
        return Ok(());
    };
    serde_json::to_writer_pretty(
        out,
        &json!({
            "version": release.version,
            "previous": previous,
            "previousUrl": format!("{}{}", release.site, files::release(previous)),
            "releases": format!("{}{}", release.site, files::RELEASE_LIST),
            "counts": changes.counts(),
            "changes": changes,
        }),
    )?;
    Ok(())
}

fn since<'s>(site: &'s Context) -> Option<(&'s ReleaseOf, &'s str, &'s Changes)> {
    let release = site.release.as_ref()?;
    let (previous, changes) = release.since.as_ref()?;
    Some((release, previous, changes))
}

/// The change log as RDF, in the site's vocabulary (`{kind}Change`
/// classes and the properties below, each defined in the document
/// itself): the release (its root) `prov:wasRevisionOf` the one before,
/// and each change a node of the release's.
pub fn log_rdf(site: &Context, syntax: rdf::Syntax, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let Some((release, previous, changes)) = since(site) else {
        return Ok(());
    };
    // The site's vocabulary, not the release copy's: one IRI per kind of
    // change across every release.
    let namespace = match &site.ontology.meta.vocabulary {
        Some(namespace) => namespace.clone(),
        None => format!("{}vocab#", release.site),
    };
    let term = |name: &str| iri(format!("{namespace}{name}"));
    let root = iri(site.url(""))?;
    let mut triples = vec![triple(
        &root,
        &format!("{PROV}wasRevisionOf"),
        iri(format!("{}{}", release.site, files::release(previous)))?,
    )?];
    triples.push(triple(
        &root,
        &format!("{DCAT}version"),
        Literal::new_simple_literal(&release.version),
    )?);
    for (kind, comment) in kinds() {
        let class = term(&format!("{}Change", capitalised(kind)))?;
        triples.push(triple(
            &class,
            rdf_vocab::TYPE.as_str(),
            iri(format!("{}Class", rdf::RDFS))?,
        )?);
        triples.push(triple(
            &class,
            &format!("{}comment", rdf::RDFS),
            Literal::new_simple_literal(comment),
        )?);
    }
    for (property, comment) in [
        ("change", "A change this release made."),
        ("changedTerm", "The term a change is about."),
        ("before", "The text before the change."),
        ("after", "The text after the change."),
        ("replacedBy", "A term that replaces a deprecated one."),
        ("movedTo", "The term that took in a moved term's ID."),
        ("addedValue", "A parent or synonym the change added."),
        ("removedValue", "A parent or synonym the change removed."),
    ] {
        let property_iri = term(property)?;
        triples.push(triple(
            &property_iri,
            rdf_vocab::TYPE.as_str(),
            rdf_vocab::PROPERTY.into_owned(),
        )?);
        triples.push(triple(
            &property_iri,
            &format!("{}comment", rdf::RDFS),
            Literal::new_simple_literal(comment),
        )?);
    }
    let mut node = 0usize;
    let mut change = |kind: &str, term_iri: &str, triples: &mut Vec<Triple>| {
        node += 1;
        let subject: NamedOrBlankNode = BlankNode::new_unchecked(format!("c{node}")).into();
        let add = |p: NamedNode, o: Term| Triple::new(subject.clone(), p, o);
        let class = term(&format!("{}Change", capitalised(kind)))?;
        triples.push(Triple::new(root.clone(), term("change")?, subject.clone()));
        triples.push(add(rdf_vocab::TYPE.into_owned(), class.into()));
        triples.push(add(term("changedTerm")?, iri(term_iri.to_owned())?.into()));
        Ok::<_, RenderError>(subject)
    };
    let text = |value: &str| Term::from(Literal::new_simple_literal(value));
    for (kind, named, detail) in changes.each() {
        let subject = change(kind, &named.iri, &mut triples)?;
        let mut add = |property: &str, value: Term| {
            triples.push(Triple::new(subject.clone(), term(property)?, value));
            Ok::<_, RenderError>(())
        };
        match detail {
            Detail::None => {}
            Detail::ReplacedBy(by) => {
                for by in by.iter().filter_map(|by| iri(by.clone()).ok()) {
                    add("replacedBy", by.into())?;
                }
            }
            Detail::Retexted { before, after } => {
                add("before", text(before))?;
                add("after", text(after))?;
            }
            Detail::Regrouped { added, removed } => {
                // Parents are IRIs; synonyms, texts.
                let value = |v: &str| match (kind, iri(v.to_owned())) {
                    ("reparented", Ok(parent)) => Term::from(parent),
                    _ => text(v),
                };
                for added in added {
                    add("addedValue", value(added))?;
                }
                for removed in removed {
                    add("removedValue", value(removed))?;
                }
            }
            Detail::MovedTo(to) => {
                if let Ok(to) = iri(to.to_owned()) {
                    add("movedTo", to.into())?;
                }
            }
        }
    }
    rdf::write(site, syntax, &triples, out)
}

fn capitalised(kind: &str) -> String {
    let mut chars = kind.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// The change log as the page's template reads it.
pub fn log_view(site: &Context) -> Option<Value> {
    let (release, previous, changes) = since(site)?;
    let changes = serde_json::to_value(changes).ok()?;
    let kinds: Vec<Value> = kinds()
        .map(|(kind, comment)| {
            json!({
                "kind": kind,
                "comment": comment,
                "changes": changes.get(kind).cloned().unwrap_or(Value::Array(Vec::new())),
            })
        })
        .collect();
    Some(json!({
        "version": release.version,
        "previous": previous,
        // Relative, so that the pages read from disk too.
        "previous_href": if site.kept_release {
            format!("../{previous}/")
        } else {
            files::release(previous)
        },
        "releases_href": if site.kept_release {
            "../index.html".to_owned()
        } else {
            files::release_list("html")
        },
        "kinds": kinds,
    }))
}

/// The paths at which the releases' version IRIs arrive, where they are
/// in the namespace that resolves through the site, and the root of the
/// release each names: `_redirects` sends them there (303).
pub fn version_iri_paths(site: &Context) -> Vec<(String, String)> {
    let namespace = site.ontology.meta.resolved_namespace();
    site.releases
        .iter()
        .filter_map(|listed| {
            let rest = listed.version_iri.as_deref()?.strip_prefix(&namespace)?;
            // Only what a rule's path can carry as it is, and no empty
            // segment, which a request's path never has.
            let plain = !rest.is_empty()
                && !rest.contains("//")
                && rest
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "/._-~+".contains(c));
            plain.then(|| {
                (
                    format!("/{rest}"),
                    format!("/{}", files::release(&listed.version)),
                )
            })
        })
        .collect()
}

/// The list as the page's template reads it.
pub fn list_view(site: &Context) -> Value {
    json!({
        "current": site.release.as_ref().map(|r| r.version.clone()),
        "releases": site.releases.iter().rev().collect::<Vec<_>>(),
    })
}
