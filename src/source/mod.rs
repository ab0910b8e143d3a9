//! The source stage: reads `input/`, checks it, and returns an `Ontology`
//! or every problem found.
//!
//! Checks that need one entity happen while parsing, in parallel; checks
//! across entities (duplicate IDs and slugs, reserved slugs) run after.

// A `Diagnostic` is large, and returned by value on purpose: errors here
// are collected by the thousand and never on a hot path.
#![allow(clippy::result_large_err)]

mod advice;
mod diagnostic;
mod dtd;
mod entities;
#[cfg(test)]
mod fuzz_tests;
mod graph;
mod guard;
mod json;
mod obo;
mod ontology_file;
mod rdf;
pub mod releases;
mod siblings;
mod table;
mod terms;
mod text;

pub use advice::advice;
pub use diagnostic::{Diagnostic, Diagnostics, REPORT_CAP};
pub use entities::DIR_NAME as ENTITIES_DIR;
pub use ontology_file::FILE_NAME as ONTOLOGY_FILE;
pub use siblings::check_links as check_sibling_links;

use crate::model::{BaseUrl, Entity, Ontology, OntologyMeta};
use crate::site::reserved::reserved_slugs;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Reads the ontology under `input`. `base_url` overrides the base URL of
/// `ontology.json`.
pub fn load(input: &Path, base_url: Option<&BaseUrl>) -> Result<Ontology, Diagnostics> {
    let mut problems = Vec::new();
    let (found_sources, outside) = ontology_files(input);
    problems.extend(outside);
    let mut meta = None;
    let mut terms = Vec::new();
    match ontology_file::load(input, base_url, &found_sources) {
        Ok((stated, sources)) => {
            let read = read_sources(&stated, &sources);
            problems.extend(read.problems);
            terms = read.entities;
            meta = Some(stated.complete(read.from_sources));
        }
        Err(d) => problems.extend(d),
    }
    let dir = input.join(entities::DIR_NAME);
    let files = if dir.is_dir() {
        let (files, unreadable) = entities::files(&dir, input);
        problems.extend(unreadable);
        files
    } else {
        Vec::new()
    };
    let parsed: Vec<Result<Entity, Diagnostic>> = files
        .par_iter()
        .flat_map_iter(|path| entities::parse_file(path))
        .collect();
    let mut found = Vec::with_capacity(parsed.len() + terms.len());
    found.append(&mut terms);
    for result in parsed {
        match result {
            Ok(entity) => found.push(entity),
            Err(d) => problems.push(d),
        }
    }
    let first_source = meta
        .as_ref()
        .and_then(|m| m.downloads.first())
        .map(|d| d.path.as_path());
    if found.is_empty() && problems.is_empty() {
        problems.push(match first_source {
            // Read, but nothing in them is the ontology's own term.
            Some(first) => Diagnostic::new(
                first,
                "the ontology sources hold no term of the ontology's own: a term is a subject typed as a class, property, individual or concept (`rdf:type`) with something more said of it (one only declared is taken as used from elsewhere)",
                "type each term (`a owl:Class`, `a skos:Concept`, ...) and give it a label; other types are named in ontology.json's `terms.types` (see docs/input.md)",
            ),
            None => Diagnostic::new(
                &dir,
                "no entities found",
                "add entity files under this folder (one object per *.json file, or one per line in *.jsonl files), or an ontology file beside ontology.json (Turtle, RDF/XML, ...)",
            ),
        });
    }
    problems.extend(cross_checks(&mut found));
    if let Some(meta) = &meta {
        problems.extend(configured_keys(meta, &found));
        problems.extend(labelled_fields(input, meta, &found));
        problems.extend(link_siblings(meta, &mut found));
    }
    // One order for every report: by file, then line.
    problems.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));

    match meta {
        Some(meta) if problems.is_empty() => Ok(Ontology {
            meta,
            entities: found,
        }),
        _ => Err(Diagnostics(problems)),
    }
}

/// How an ontology source file is read, by its extension.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Reader {
    Rdf(oxrdfio::RdfFormat),
    Obo,
    Table,
}

/// The reader of `path`, if ontosite reads its format.
fn reader_of(path: &Path) -> Option<Reader> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "obo" => Some(Reader::Obo),
        "csv" | "tsv" => Some(Reader::Table),
        _ => rdf::format_of(path).map(Reader::Rdf),
    }
}

/// Which formats a source may have, for messages.
const SOURCE_FORMATS_HELP: &str = "ontosite reads Turtle (.ttl), N-Triples (.nt), N-Quads (.nq), TriG (.trig), RDF/XML (.rdf, .owl), JSON-LD (.jsonld), OBO (.obo), and CSV or TSV (.csv, .tsv) with a `table` mapping in ontology.json";

/// The ontology files directly in the input folder, by name: every file
/// of a format ontosite reads (hidden files left out). A symbolic link
/// that leads out of the input folder is refused, naming the link, and
/// its target is never read: input cannot make a build read (and publish,
/// at `source-files/`) a file from elsewhere.
fn ontology_files(input: &Path) -> (Vec<std::path::PathBuf>, Vec<Diagnostic>) {
    let inside = input.canonicalize().unwrap_or_else(|_| input.to_owned());
    let mut problems = Vec::new();
    let mut found: Vec<_> = std::fs::read_dir(input)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            !path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
                && reader_of(path).is_some()
        })
        .filter(|path| {
            let is_link = path
                .symlink_metadata()
                .is_ok_and(|m| m.file_type().is_symlink());
            if is_link && let Some(problem) = entities::link_out(path, &inside) {
                problems.push(problem);
                return false;
            }
            if let Some(problem) = entities::not_a_file(path) {
                problems.push(problem);
                return false;
            }
            path.is_file()
        })
        .collect();
    found.sort();
    problems.sort_by(|a, b| a.path.cmp(&b.path));
    (found, problems)
}

/// What the ontology sources hold: their terms as entities, what they add
/// to the ontology's description, and every problem found.
struct Read {
    entities: Vec<Entity>,
    from_sources: ontology_file::FromSources,
    problems: Vec<Diagnostic>,
}

/// Reads every source file into one graph, and makes entities of its terms;
/// what the header says, the prefixes and the downloads come back beside
/// them for `load` to put into the ontology's description.
fn read_sources(stated: &ontology_file::Stated, sources: &ontology_file::Sources) -> Read {
    let mut graph = graph::Graph::default();
    let mut problems = Vec::new();
    let mut downloads = Vec::new();
    let base = stated.base_url.join("");
    for path in &sources.files {
        graph.start_file(path);
        match reader_of(path) {
            Some(Reader::Rdf(format)) => {
                problems.extend(rdf::read(path, format, &base, &mut graph));
            }
            Some(Reader::Obo) => problems.extend(obo::read(path, &mut graph)),
            Some(Reader::Table) => match &sources.table {
                Some(mapping) => problems.extend(table::read(path, mapping, &mut graph)),
                None => problems.push(Diagnostic::new(
                    path,
                    "a table needs a column mapping",
                    "add `table` to ontology.json: the IRI column, the type, and a predicate for every column (see docs/input.md)",
                )),
            },
            None => problems.push(Diagnostic::new(
                path,
                "is not of a format ontosite reads",
                SOURCE_FORMATS_HELP,
            )),
        }
        downloads.push(crate::model::Download {
            path: path.clone(),
            name: crate::site::files::source_file(
                &path.file_name().unwrap_or_default().to_string_lossy(),
            ),
            media_type: match reader_of(path) {
                Some(Reader::Rdf(format)) => format.media_type(),
                // Not registered; the OBO Foundry serves it as text.
                Some(Reader::Obo) => "text/obo",
                Some(Reader::Table) if path.extension().is_some_and(|x| x == "tsv") => {
                    "text/tab-separated-values"
                }
                Some(Reader::Table) => "text/csv",
                None => "application/octet-stream",
            },
        });
    }
    if !problems.is_empty() {
        return Read {
            entities: Vec::new(),
            from_sources: ontology_file::FromSources {
                header: None,
                prefixes: Vec::new(),
                downloads,
                notes: Vec::new(),
            },
            problems,
        };
    }
    let made = terms::terms(
        &graph,
        &sources.rules,
        stated.language(),
        &stated.resolved_namespace(),
    );
    problems.extend(made.problems);
    Read {
        entities: made.entities,
        from_sources: ontology_file::FromSources {
            header: made.header,
            prefixes: graph.prefixes,
            downloads,
            notes: graph.notes.iter().map(ToString::to_string).collect(),
        },
        problems,
    }
}

/// A label in `fieldLabels` for a field no entity has would label
/// nothing: a misspelt key, which is reported rather than ignored.
fn labelled_fields(input: &Path, meta: &OntologyMeta, found: &[Entity]) -> Vec<Diagnostic> {
    meta.field_labels
        .keys()
        .filter(|key| !found.iter().any(|e| e.extra.contains_key(key.as_str())))
        .map(|key| {
            Diagnostic::new(
                &input.join(ONTOLOGY_FILE),
                format!("`fieldLabels` labels the field `{key}`, which no entity has"),
                "correct the field's name, or remove its label",
            )
        })
        .collect()
}

/// An entity field named like a property that `ontology.json` gives every
/// entity would be written twice.
fn configured_keys(meta: &OntologyMeta, found: &[Entity]) -> Vec<Diagnostic> {
    found
        .iter()
        .flat_map(|entity| {
            meta.entity_properties
                .iter()
                .filter(|(property, _)| entity.extra.contains_key(property))
                .map(move |(property, _)| {
                    Diagnostic::new(
                        &entity.origin.path,
                        format!("the field `{property}` is one that ontology.json's `entityProperties` gives every entity"),
                        "rename the field, or remove the property from `entityProperties`",
                    )
                    .at(entity.origin.line, None)
                    .entity(Some(&entity.id))
                })
        })
        .collect()
}

/// Writes the values of fields linked into a sibling ontology as the IRIs
/// of the sibling's entities (`"ABB"` → `https://products.example/abb`): a
/// string, or a list of strings, each naming one entity.
fn link_siblings(meta: &OntologyMeta, found: &mut [Entity]) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for entity in found.iter_mut() {
        for sibling in &meta.siblings {
            for field in &sibling.linked_by {
                let Some(value) = entity.extra.get_mut(field) else {
                    continue;
                };
                let problem = |what: String| {
                    Diagnostic::new(
                        &entity.origin.path,
                        format!(
                            "`{field}` links into the sibling `{}`: {what}",
                            sibling.name
                        ),
                        format!(
                            "give `{field}` the name or ID of a {} entity, or a list of them",
                            sibling.name
                        ),
                    )
                    .at(entity.origin.line, None)
                    .entity(Some(&entity.id))
                };
                let link_names = &mut entity.link_names;
                let mut link = |value: &mut serde_json::Value| match value.as_str() {
                    Some(text) => match sibling.entity_iri(text) {
                        Ok(iri) => {
                            link_names.insert(iri.clone(), text.to_owned());
                            *value = iri.into();
                        }
                        Err(e) => problems.push(problem(format!("`{text}`: {e}"))),
                    },
                    None => problems.push(problem(format!("{value} is not a string"))),
                };
                match value {
                    serde_json::Value::Array(items) => items.iter_mut().for_each(&mut link),
                    other => link(other),
                }
            }
        }
    }
    problems
}

/// Sorts the entities by slug and reports what only shows across entities.
fn cross_checks(found: &mut [Entity]) -> Vec<Diagnostic> {
    found.par_sort_unstable_by(|a, b| {
        a.slug
            .cmp(&b.slug)
            .then_with(|| a.origin.path.cmp(&b.origin.path))
            .then(a.origin.line.cmp(&b.origin.line))
    });
    let mut problems = Vec::new();
    for pair in found.windows(2) {
        if pair[0].slug == pair[1].slug {
            problems.push(
                Diagnostic::new(
                    &pair[1].origin.path,
                    format!(
                        "the slug `{}` is also the slug of `{}` in {}",
                        pair[1].slug, pair[0].id, pair[0].origin
                    ),
                    "give one of the two entities another `slug` (or another ID)",
                )
                .at(pair[1].origin.line, None)
                .entity(Some(&pair[1].id)),
            );
        }
    }
    let mut ids: HashMap<&str, &Entity> = HashMap::with_capacity(found.len());
    for entity in found.iter() {
        if let Some(first) = ids.insert(&entity.id, entity) {
            problems.push(
                Diagnostic::new(
                    &entity.origin.path,
                    format!(
                        "the ID `{}` is also the ID of an entity in {}",
                        entity.id, first.origin
                    ),
                    "IDs must be unique: rename one of the two",
                )
                .at(entity.origin.line, None)
                .entity(Some(&entity.id)),
            );
        }
    }
    // Terms have one entity per IRI by construction; entity files may
    // repeat one, which would make two subjects one.
    let mut iris: HashMap<&str, &Entity> = HashMap::new();
    for entity in found.iter().filter(|e| e.term.is_none()) {
        if let Some(iri) = entity.iri.as_deref()
            && let Some(first) = iris.insert(iri, entity)
        {
            problems.push(
                Diagnostic::new(
                    &entity.origin.path,
                    format!(
                        "the IRI `{iri}` is also the IRI of `{}` in {}",
                        first.id, first.origin
                    ),
                    "an IRI names one entity: correct the `iri` of one of the two",
                )
                .at(entity.origin.line, None)
                .entity(Some(&entity.id)),
            );
        }
    }
    for entity in found
        .iter()
        .filter(|e| reserved_slugs().contains(&e.slug.as_str()))
    {
        problems.push(
            Diagnostic::new(
                &entity.origin.path,
                format!("the slug `{}` is reserved: the site uses that name for a file or endpoint of its own", entity.slug),
                format!("give the entity another `slug`; reserved are: {}", reserved_slugs().join(", ")),
            )
            .at(entity.origin.line, None)
            .entity(Some(&entity.id)),
        );
    }
    problems
}

/// A user's templates: every file directly in `dir`, by file name. Which
/// names mean something is the render stage's to say.
pub fn templates(dir: &Path) -> Result<BTreeMap<String, String>, Diagnostics> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Diagnostics(vec![Diagnostic::new(
            dir,
            format!("the templates directory cannot be read: {e}"),
            "give --templates a directory that holds the templates to replace (layout.html, index.html, entity.html, site.css, site.js)",
        )])
    })?;
    let mut found = BTreeMap::new();
    let mut problems = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !path.is_file() {
            continue;
        }
        match text::read(&path) {
            Ok(source) => {
                found.insert(name, source);
            }
            Err(d) => problems.push(d),
        }
    }
    if problems.is_empty() {
        Ok(found)
    } else {
        Err(Diagnostics(problems))
    }
}
