//! Entities under `input/entities/`: one object per `*.json` file, one per
//! line of a `*.jsonl` file, at any depth.

use super::diagnostic::Diagnostic;
use super::text;
use crate::model::{Entity, GENERATED_FIELDS, Origin, Slug, is_term_name};
use rayon::prelude::*;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The folder under the input directory that holds the entities.
pub const DIR_NAME: &str = "entities";

/// The refusal of the symbolic link `path` when it leads outside `inside`
/// (the input folder, canonical): its target is named, never read.
pub fn link_out(path: &Path, inside: &Path) -> Option<Diagnostic> {
    let target = path.canonicalize();
    if target.as_ref().is_ok_and(|t| t.starts_with(inside)) {
        return None;
    }
    Some(Diagnostic::new(
        path,
        format!(
            "this symbolic link leads outside the input directory{}",
            target
                .map(|t| format!(", to {}", t.display()))
                .unwrap_or_default()
        ),
        "copy the file into the input directory, or link to a place inside it",
    ))
}

/// The refusal of `path` when it is neither a regular file nor a folder (a
/// named pipe, a socket, a device): opening a pipe waits for a writer, so a
/// build would hang on it, and skipping it silently would drop a source.
pub fn not_a_file(path: &Path) -> Option<Diagnostic> {
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::metadata(path).ok()?.file_type();
    let what = if kind.is_fifo() {
        "a named pipe (FIFO)"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        return None;
    };
    Some(Diagnostic::new(
        path,
        format!("is {what}, not a regular file: ontosite reads only files"),
        "put the file itself here (save what the pipe or device gives into a file), or move it out of the input",
    ))
}

/// The entity files under `dir`, in a stable order, and a problem for each
/// place the walk could not read (the walk goes on past it). Hidden files
/// and folders (a leading `.`) are skipped, as editors and tools leave them
/// around. Symbolic links are followed while they stay inside `input`;
/// one that leads outside is refused, and a loop is reported, not walked.
pub fn files(dir: &Path, input: &Path) -> (Vec<PathBuf>, Vec<Diagnostic>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    let inside = input.canonicalize().unwrap_or_else(|_| input.to_owned());
    let mut walker = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    while let Some(entry) = walker.next() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let path = e.path().unwrap_or(dir).to_owned();
                problems.push(if e.loop_ancestor().is_some() {
                    Diagnostic::new(
                        &path,
                        "this symbolic link leads back to a folder that contains it",
                        "remove the link, or point it at a folder outside this tree",
                    )
                } else {
                    Diagnostic::new(
                        &path,
                        format!(
                            "cannot be read: {}",
                            e.io_error().map_or(e.to_string(), ToString::to_string)
                        ),
                        "check the permissions of this file or folder",
                    )
                });
                continue;
            }
        };
        if entry.path_is_symlink()
            && let Some(problem) = link_out(entry.path(), &inside)
        {
            problems.push(problem);
            if entry.file_type().is_dir() {
                walker.skip_current_dir();
            }
            continue;
        }
        let is_entity_file = matches!(
            entry.path().extension().and_then(|x| x.to_str()),
            Some("json" | "jsonl")
        );
        if entry.file_type().is_file() && is_entity_file {
            found.push(entry.into_path());
        } else if is_entity_file && let Some(problem) = not_a_file(entry.path()) {
            problems.push(problem);
        }
    }
    (found, problems)
}

/// Parses one entity file into entities and the problems found in it.
pub fn parse_file(path: &Path) -> Vec<Result<Entity, Diagnostic>> {
    let source = match text::read(path) {
        Ok(source) => source,
        Err(d) => return vec![Err(d)],
    };
    let source = text::strip_bom(&source);
    if path.extension().is_some_and(|x| x == "jsonl") {
        let lines: Vec<(usize, &str)> = source
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, l))
            .collect();
        if lines.is_empty() {
            return vec![Err(empty_file(path))];
        }
        let shared: std::sync::Arc<Path> = path.into();
        lines
            .into_par_iter()
            .map(|(line, text)| {
                let value = super::json::parse(text)
                    .map_err(|e| Diagnostic::from_json(path, text, Some(line), &e))?;
                entity(
                    value,
                    Origin {
                        path: shared.clone(),
                        line: Some(line),
                    },
                )
            })
            .collect()
    } else {
        if source.trim().is_empty() {
            return vec![Err(empty_file(path))];
        }
        let parsed = super::json::parse(source)
            .map_err(|e| {
                let diagnostic = Diagnostic::from_json(path, source, None, &e);
                // `{...} {...}`: the parser stops after the first object.
                if e.to_string().starts_with("trailing characters") {
                    diagnostic.help(ONE_PER_FILE)
                } else {
                    diagnostic
                }
            })
            .and_then(|value: Value| {
                if value.is_array() {
                    return Err(Diagnostic::new(
                        path,
                        "the file holds an array; a .json file holds one entity object",
                        ONE_PER_FILE,
                    ));
                }
                entity(
                    value,
                    Origin {
                        path: path.into(),
                        line: None,
                    },
                )
            });
        vec![parsed]
    }
}

/// What to do with several entities in a `.json` file.
const ONE_PER_FILE: &str = "put several entities in a .jsonl file instead, one object per line (rename the file to .jsonl and write each object on its own line), or one object per .json file";

fn empty_file(path: &Path) -> Diagnostic {
    Diagnostic::new(
        path,
        "the file is empty",
        "put one entity object in a .json file (one per line in a .jsonl file), or delete the file",
    )
}

/// Checks one parsed JSON value as an entity.
fn entity(value: Value, origin: Origin) -> Result<Entity, Diagnostic> {
    let here = |message: String, help: &str, id: Option<&str>| {
        Diagnostic::new(&origin.path, message, help)
            .at(origin.line, None)
            .entity(id)
    };
    let Value::Object(mut fields) = value else {
        return Err(here(
            format!("an entity must be a JSON object, found {}", kind(&value)),
            "write the entity as an object: {\"id\": ..., \"name\": ..., \"description\": ...}",
            None,
        ));
    };
    let id = required(&mut fields, "id").map_err(|m| here(m, REQUIRED_HELP, None))?;
    let name = required(&mut fields, "name").map_err(|m| here(m, REQUIRED_HELP, Some(&id)))?;
    let description =
        required(&mut fields, "description").map_err(|m| here(m, REQUIRED_HELP, Some(&id)))?;
    let slug = slug_of(&mut fields, &id).map_err(|(m, help)| here(m, help, Some(&id)))?;
    let iri = iri_of(&mut fields).map_err(|(m, help)| here(m, help, Some(&id)))?;
    if let Some((message, help)) = unpublishable_field(&fields) {
        return Err(here(message, help, Some(&id)));
    }
    Ok(Entity {
        id,
        slug,
        name,
        description,
        iri,
        // Rebuilt at its size: the parsed object kept room for the fields
        // taken out above, which a million entities would carry for nothing.
        extra: fields.into_iter().collect(),
        link_names: Default::default(),
        term: None,
        origin,
    })
}

const REQUIRED_HELP: &str = "every entity needs a non-empty string `id`, `name` and `description`";

/// What is wrong with a field of an entity, and how to fix it.
type Problem = (String, &'static str);

/// The entity's `slug`, taken out of `fields`, or the one its ID makes.
fn slug_of(fields: &mut Map<String, Value>, id: &str) -> Result<Slug, Problem> {
    match fields.shift_remove("slug") {
        None => Slug::from_id(id).map_err(|e| {
            (
                format!("no slug can be made from the ID: {e}"),
                "give the entity a `slug` of `a-z` and `0-9`, or an ID with letters or digits",
            )
        }),
        Some(Value::String(text)) => Slug::parse(&text).map_err(|e| {
            (
                e.to_string(),
                "use only `a-z` and `0-9` in `slug`, at most 200 characters, or leave it out to derive it from the ID",
            )
        }),
        Some(other) => Err((
            format!("`slug` must be a string, found {}", kind(&other)),
            "write the slug as a string, or leave it out to derive it from the ID",
        )),
    }
}

/// The entity's own `iri`, taken out of `fields`: absolute, and of no
/// scheme a browser runs.
fn iri_of(fields: &mut Map<String, Value>) -> Result<Option<String>, Problem> {
    match fields.shift_remove("iri") {
        None => Ok(None),
        Some(Value::String(text)) => match oxrdf::NamedNode::new(&text) {
            Ok(_) => match crate::model::active_scheme(&text) {
                Some(scheme) => Err((
                    format!(
                        "`iri` uses the scheme `{scheme}:`, which a browser runs or opens instead of following"
                    ),
                    "give the entity an http(s) IRI, or a URN, or leave `iri` out to name it `{base}/{slug}`",
                )),
                None => Ok(Some(text)),
            },
            Err(e) => Err((
                format!("`iri` is not an absolute IRI: {e}"),
                "write the IRI the entity already has in full (`https://example.org/terms/Thing`), or leave `iri` out to name it `{base}/{slug}`",
            )),
        },
        Some(other) => Err((
            format!("`iri` must be a string, found {}", kind(&other)),
            "write the IRI as a string, or leave `iri` out to name the entity `{base}/{slug}`",
        )),
    }
}

/// The first field left that cannot pass through: one ontosite writes
/// itself, or a name JSON-LD cannot make a term of.
fn unpublishable_field(fields: &Map<String, Value>) -> Option<Problem> {
    let key = fields
        .keys()
        .find(|k| GENERATED_FIELDS.contains(&k.as_str()) || !is_term_name(k))?;
    Some(if GENERATED_FIELDS.contains(&key.as_str()) {
        (
            format!("the field `{key}` is reserved: ontosite generates it"),
            "rename the field (the entity type itself comes from `entityType` in ontology.json)",
        )
    } else {
        (
            format!("the field name `{key}` cannot be published as a JSON-LD term"),
            "use a field name of ASCII letters, digits, `_` and `-`, starting with a letter or `_`",
        )
    })
}

/// Takes a required, non-empty string field out of `fields`.
fn required(fields: &mut Map<String, Value>, field: &str) -> Result<String, String> {
    match fields.shift_remove(field) {
        None => Err(format!("the required field `{field}` is missing")),
        Some(Value::String(text)) if text.trim().is_empty() => {
            Err(format!("the required field `{field}` is empty"))
        }
        Some(Value::String(text)) => Ok(text),
        Some(other) => Err(format!(
            "`{field}` must be a string, found {}",
            kind(&other)
        )),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
