//! `ontology.json`: what the ontology is called, its entity type, its base
//! URL and its siblings.

use super::diagnostic::Diagnostic;
use super::text;
use crate::model::{BaseUrl, GENERATED_FIELDS, OntologyMeta, Sibling, Subtypes, is_term_name};
use serde::Deserialize;
use std::path::Path;

/// The file name of the ontology description inside the input directory.
pub const FILE_NAME: &str = "ontology.json";

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ManifestFile {
    name: String,
    description: String,
    entity_type: String,
    entity_type_iri: Option<String>,
    base_url: Option<String>,
    license: Option<String>,
    version: Option<String>,
    #[serde(default)]
    siblings: Vec<SiblingFile>,
    subtypes: Option<SubtypesFile>,
    #[serde(default)]
    entity_properties: std::collections::BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SubtypesFile {
    field: String,
    types: std::collections::BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SiblingFile {
    name: String,
    base_url: String,
    description: Option<String>,
    #[serde(default)]
    linked_by: Vec<String>,
}

/// Reads and checks `input/ontology.json`. `base_url` overrides the file's
/// own base URL (from `--base-url` or the environment).
pub fn load(input: &Path, base_url: Option<&BaseUrl>) -> Result<OntologyMeta, Vec<Diagnostic>> {
    let path = input.join(FILE_NAME);
    // Looked at before reading: reading a FIFO would wait forever.
    match std::fs::metadata(&path) {
        Ok(metadata) if metadata.is_file() => {}
        Ok(metadata) => {
            let what = if metadata.is_dir() {
                "a directory"
            } else {
                "not a regular file (a FIFO, socket or device)"
            };
            return Err(vec![Diagnostic::new(
                &path,
                format!("the ontology description is {what}"),
                "make ontology.json a JSON file with at least `name`, `description`, `entityType` and `baseUrl` (see the README)",
            )]);
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(vec![Diagnostic::new(
                &path,
                "the ontology description is missing",
                format!(
                    "create {} with at least `name`, `description`, `entityType` and `baseUrl` (see the README)",
                    path.display()
                ),
            )]);
        }
        Err(e) => {
            return Err(vec![Diagnostic::new(
                &path,
                format!("cannot be read: {e}"),
                "check that the file and its folders are readable",
            )]);
        }
    }
    let source = text::read(&path).map_err(|d| vec![d])?;
    let file: ManifestFile = serde_json::from_str(text::strip_bom(&source))
        .map_err(|e| vec![Diagnostic::from_json(&path, None, &e)])?;

    let mut problems = Vec::new();
    let mut require = |field: &str, value: &str| {
        if value.trim().is_empty() {
            problems.push(Diagnostic::new(
                &path,
                format!("`{field}` is empty"),
                format!("give `{field}` a value"),
            ));
        }
    };
    require("name", &file.name);
    require("description", &file.description);
    require("entityType", &file.entity_type);
    if !file.entity_type.is_empty() && !is_term_name(&file.entity_type) {
        problems.push(Diagnostic::new(
            &path,
            format!("`entityType` `{}` is not a type name", file.entity_type),
            "use letters, digits and `_`, starting with a letter (for example `Action`)",
        ));
    }

    let base_url = match (base_url, &file.base_url) {
        (Some(given), _) => Some(given.clone()),
        (None, Some(text)) => check_url(&path, "baseUrl", text, &mut problems),
        (None, None) => {
            problems.push(Diagnostic::new(
                &path,
                "no base URL: `baseUrl` is missing and none was given",
                "add `\"baseUrl\": \"https://...\"`, or pass --base-url or set ONTOSITE_BASE_URL",
            ));
            None
        }
    };
    let mut term = |what: String, name: &str| {
        if !is_term_name(name) {
            problems.push(Diagnostic::new(
                &path,
                format!("{what} `{name}` is not a schema.org term name"),
                "use letters, digits and `_`, starting with a letter (for example `CreateAction`)",
            ));
        }
    };
    if let Some(subtypes) = &file.subtypes {
        term("`subtypes.field`".into(), &subtypes.field);
        for (value, name) in &subtypes.types {
            term(format!("the subtype for `{value}`"), name);
        }
    }
    for (property, value) in &file.entity_properties {
        term("the entity property".into(), property);
        term(format!("the value of `{property}`"), value);
    }
    for property in file.entity_properties.keys() {
        if GENERATED_FIELDS.contains(&property.as_str()) {
            problems.push(Diagnostic::new(
                &path,
                format!("`entityProperties.{property}` is a key ontosite writes itself"),
                "remove it; ontosite states it already",
            ));
        }
    }
    let mut linked: Vec<&str> = Vec::new();
    for sibling in &file.siblings {
        for field in &sibling.linked_by {
            if !is_term_name(field) || GENERATED_FIELDS.contains(&field.as_str()) {
                problems.push(Diagnostic::new(
                    &path,
                    format!(
                        "`siblings[{}].linkedBy` names `{field}`, which cannot be an entity field",
                        sibling.name
                    ),
                    "name a field that entities carry, such as `vendor`",
                ));
            } else if linked.contains(&field.as_str()) {
                problems.push(Diagnostic::new(
                    &path,
                    format!("the field `{field}` is linked into two siblings"),
                    "link each field into one sibling",
                ));
            }
            linked.push(field);
        }
    }
    let mut siblings = Vec::new();
    for sibling in file.siblings {
        let field = format!("siblings[{}].baseUrl", sibling.name);
        if let Some(url) = check_url(&path, &field, &sibling.base_url, &mut problems) {
            siblings.push(Sibling {
                name: sibling.name,
                base_url: url,
                description: sibling.description,
                linked_by: sibling.linked_by,
            });
        }
    }
    siblings.sort_by(|a, b| a.name.cmp(&b.name));

    match base_url {
        Some(base_url) if problems.is_empty() => Ok(OntologyMeta {
            entity_type_iri: file
                .entity_type_iri
                .unwrap_or_else(|| format!("http://schema.org/{}", file.entity_type)),
            name: file.name,
            description: file.description,
            entity_type: file.entity_type,
            base_url,
            license: file.license,
            version: file.version,
            siblings,
            subtypes: file.subtypes.map(|s| Subtypes {
                field: s.field,
                types: s.types,
            }),
            entity_properties: file.entity_properties.into_iter().collect(),
        }),
        _ => Err(problems),
    }
}

fn check_url(
    path: &Path,
    field: &str,
    text: &str,
    problems: &mut Vec<Diagnostic>,
) -> Option<BaseUrl> {
    BaseUrl::parse(text)
        .map_err(|e| {
            problems.push(Diagnostic::new(
                path,
                format!("`{field}`: {e}"),
                "use an absolute http(s) URL such as `https://actions.example.org`",
            ))
        })
        .ok()
}
