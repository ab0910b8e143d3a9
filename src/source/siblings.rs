//! `--sibling NAME=PATH`: checks that every link into a sibling ontology
//! names an entity the sibling has, given the sibling's input (an
//! `ontology.json` beside `entities/`) or a site built from it (an
//! `index.json`).

use super::diagnostic::{Diagnostic, Diagnostics};
use crate::model::{Ontology, Sibling};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Reports every dangling link, each with the file and entity that holds it.
pub fn check_links(ontology: &Ontology, given: &[(String, PathBuf)]) -> Result<(), Diagnostics> {
    let mut problems = Vec::new();
    for (name, path) in given {
        let Some(sibling) = ontology.meta.siblings.iter().find(|s| &s.name == name) else {
            let known: Vec<&str> = ontology
                .meta
                .siblings
                .iter()
                .map(|s| s.name.as_str())
                .collect();
            problems.push(Diagnostic::new(
                path,
                format!("--sibling names `{name}`, which ontology.json does not list as a sibling"),
                format!(
                    "use one of: {}",
                    if known.is_empty() {
                        "(none listed)".to_owned()
                    } else {
                        known.join(", ")
                    }
                ),
            ));
            continue;
        };
        let slugs = match published_slugs(sibling, path) {
            Ok(slugs) => slugs,
            Err(mut found) => {
                problems.append(&mut found);
                continue;
            }
        };
        for entity in &ontology.entities {
            for field in &sibling.linked_by {
                let values = match entity.extra.get(field) {
                    Some(serde_json::Value::Array(items)) => items.iter().collect(),
                    Some(value) => vec![value],
                    None => Vec::new(),
                };
                for iri in values.into_iter().filter_map(|v| v.as_str()) {
                    let slug = iri.strip_prefix(&sibling.base_url.join("")).unwrap_or(iri);
                    if !slugs.contains(slug) {
                        problems.push(
                            Diagnostic::new(
                                &entity.origin.path,
                                format!("`{field}` links to {iri}, which the sibling `{name}` at {} does not have", path.display()),
                                format!("add that entity to `{name}`, or correct `{field}`"),
                            )
                            .at(entity.origin.line, None)
                            .entity(Some(&entity.id)),
                        );
                    }
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Diagnostics(problems))
    }
}

/// The slugs a sibling publishes, from its input or its built site; its
/// base URL must be the one this ontology links to.
fn published_slugs(sibling: &Sibling, path: &Path) -> Result<HashSet<String>, Vec<Diagnostic>> {
    let (base_url, slugs) = if path.join(super::ONTOLOGY_FILE).is_file() {
        let ontology = super::load(path, None).map_err(|d| d.0)?;
        let slugs = ontology
            .entities
            .iter()
            .map(|e| e.slug.as_str().to_owned())
            .collect();
        (ontology.meta.base_url.join(""), slugs)
    } else if path.join("index.json").is_file() {
        let index_path = path.join("index.json");
        let text = super::text::read(&index_path).map_err(|d| vec![d])?;
        let index: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| vec![Diagnostic::from_json(&index_path, &text, None, &e)])?;
        let slugs: HashSet<String> = index["items"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|item| item["slug"].as_str().map(str::to_owned))
            .collect();
        let info_path = path.join("api.json");
        let info: serde_json::Value = super::text::read(&info_path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let base = info["baseUrl"].as_str().unwrap_or_default().to_owned();
        (base, slugs)
    } else {
        return Err(vec![Diagnostic::new(
            path,
            format!(
                "the sibling `{}` is neither an ontosite input (no ontology.json) nor a built site (no index.json)",
                sibling.name
            ),
            "give --sibling the sibling's input directory or the directory it was built into",
        )]);
    };
    if base_url.trim_end_matches('/') != sibling.base_url.join("").trim_end_matches('/') {
        return Err(vec![Diagnostic::new(
            path,
            format!(
                "the sibling `{}` there publishes at {base_url}, but ontology.json links to it at {}",
                sibling.name,
                sibling.base_url.join("")
            ),
            "make the two base URLs agree",
        )]);
    }
    Ok(slugs)
}
