//! `ontology.json`: what the ontology is called, its entity type, its base
//! URL and its siblings.

use super::diagnostic::Diagnostic;
use super::table::TableMapping;
use super::terms::{RULES, TermRules, expand};
use super::text;
use crate::model::namespaces::RDFS;
use crate::model::{
    BaseUrl, DEFAULT_LANGUAGE, Download, GENERATED_FIELDS, Header, OntologyMeta, Sibling, Subtypes,
    is_term_name,
};
use serde::Deserialize;
use std::path::Path;

/// The file name of the ontology description inside the input directory.
pub const FILE_NAME: &str = "ontology.json";

/// `ontology.json` as written, each field read on its own so that every
/// problem of the file is reported at once, not the first only.
struct OntologyFile {
    /// The required three: `None` when missing or mistyped (and reported).
    name: Option<String>,
    description: Option<String>,
    entity_type: Option<String>,
    entity_type_iri: Option<String>,
    base_url: Option<String>,
    license: Option<String>,
    version: Option<String>,
    siblings: Vec<SiblingFile>,
    subtypes: Option<SubtypesFile>,
    entity_properties: std::collections::BTreeMap<String, String>,
    vocabulary: Option<String>,
    namespace: Option<String>,
    sources: Option<Vec<String>>,
    language: Option<String>,
    host: Option<String>,
    terms: Option<serde_json::Map<String, serde_json::Value>>,
    table: Option<TableMapping>,
    field_labels: std::collections::BTreeMap<String, String>,
}

/// What `ontology.json` says of the ontology source files: which to read,
/// and how their terms become entities.
#[derive(Debug, Clone)]
pub struct Sources {
    /// The files, in the order given (or found).
    pub files: Vec<std::path::PathBuf>,
    pub rules: TermRules,
    /// How CSV and TSV sources' columns are read.
    pub table: Option<TableMapping>,
}

/// The line and column (in characters) of the first `"key":` in `text`,
/// where a field's problem is shown; `(None, None)` if it is not found.
fn key_place(text: &str, key: &str) -> (Option<usize>, Option<usize>) {
    let quoted = format!("\"{key}\"");
    let found = text
        .match_indices(&quoted)
        .find(|(at, _)| text[at + quoted.len()..].trim_start().starts_with(':'));
    match found {
        Some((at, _)) => place_at(text, at),
        None => (None, None),
    }
}

/// The line and column of the top-level field `key` of the JSON object in
/// `text` (not a field of the same name nested in it, such as a sibling's
/// `baseUrl`); `(None, None)` if it is not there.
fn field_place(text: &str, key: &str) -> (Option<usize>, Option<usize>) {
    let mut depth = 0usize;
    let mut string: Option<usize> = None;
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match string {
            Some(start) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    string = None;
                    if depth == 1
                        && &text[start + 1..at] == key
                        && text[at + 1..].trim_start().starts_with(':')
                    {
                        return place_at(text, start);
                    }
                }
            }
            None => match c {
                '"' => string = Some(at),
                '{' | '[' => depth += 1,
                '}' | ']' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    (None, None)
}

/// The line and column (in characters) of the byte offset `at` of `text`.
fn place_at(text: &str, at: usize) -> (Option<usize>, Option<usize>) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text::char_column(&text[line_start..], at - line_start);
    (Some(line), Some(column))
}

/// Every field `ontology.json` may have; the first three are required.
const FIELDS: [&str; 18] = [
    "name",
    "description",
    "entityType",
    "entityTypeIri",
    "baseUrl",
    "license",
    "version",
    "siblings",
    "subtypes",
    "entityProperties",
    "vocabulary",
    "namespace",
    "sources",
    "language",
    "host",
    "terms",
    "table",
    "fieldLabels",
];

impl OntologyFile {
    /// The file's fields and the problems found in them; an error only
    /// when it is no JSON object at all.
    fn read(
        path: &Path,
        text: &str,
        found_sources: &[std::path::PathBuf],
    ) -> Result<(OntologyFile, Vec<Diagnostic>), Vec<Diagnostic>> {
        let value: serde_json::Value = super::json::parse(text)
            .map_err(|e| vec![Diagnostic::from_json(path, text, None, &e)])?;
        let serde_json::Value::Object(fields) = value else {
            return Err(vec![Diagnostic::new(
                path,
                "the ontology description must be a JSON object",
                "write `{\"name\": ..., \"description\": ..., \"entityType\": ..., \"baseUrl\": ...}`",
            )]);
        };
        let at = Fields { path, text };
        let problems = fields
            .keys()
            .filter(|key| !FIELDS.contains(&key.as_str()))
            .map(|key| {
                at.problem(
                    key,
                    format!("unknown field `{key}`"),
                    &format!("the fields are {}; check the spelling", FIELDS.join(", ")),
                )
            })
            .collect();
        // An ontology source says what it is and what its terms are: with
        // one, only the name is required.
        let has_sources = !found_sources.is_empty()
            || fields
                .get("sources")
                .is_some_and(|v| v.as_array().is_some_and(|a| !a.is_empty()));
        let mut reading = Reading {
            path,
            text,
            fields,
            problems,
        };
        let file = OntologyFile {
            name: reading.required("name", true),
            description: reading.required("description", !has_sources),
            entity_type: reading.required("entityType", !has_sources),
            entity_type_iri: reading.take("entityTypeIri"),
            base_url: reading.take("baseUrl"),
            license: reading.take("license"),
            version: reading.take("version"),
            siblings: reading.take("siblings").unwrap_or_default(),
            subtypes: reading.take("subtypes"),
            entity_properties: reading.take("entityProperties").unwrap_or_default(),
            vocabulary: reading.take("vocabulary"),
            namespace: reading.take("namespace"),
            sources: reading.take("sources"),
            language: reading.take("language"),
            host: reading.take("host"),
            terms: reading.take("terms"),
            table: reading.take("table"),
            field_labels: reading.take("fieldLabels").unwrap_or_default(),
        };
        Ok((file, reading.problems))
    }
}

/// `ontology.json`'s fields as they are taken one by one into their
/// types, and the problems found so far.
struct Reading<'a> {
    path: &'a Path,
    text: &'a str,
    fields: serde_json::Map<String, serde_json::Value>,
    problems: Vec<Diagnostic>,
}

impl Reading<'_> {
    /// The field `key` in its type, if it is there; a problem at its place
    /// if it is not of that type.
    fn take<T: serde::de::DeserializeOwned>(&mut self, key: &str) -> Option<T> {
        let value = self.fields.remove(key)?;
        serde_json::from_value(value)
            .map_err(|e| {
                let (line, column) = field_place(self.text, key);
                self.problems.push(
                    Diagnostic::new(
                        self.path,
                        format!("`{key}`: {e}"),
                        "give the field the type and value described in docs/input.md",
                    )
                    .at(line, column),
                )
            })
            .ok()
    }

    /// A text field, a problem if it is `needed` and missing (or null).
    fn required(&mut self, key: &str, needed: bool) -> Option<String> {
        if self.fields.get(key).is_some_and(|v| !v.is_null()) {
            return self.take(key);
        }
        self.fields.remove(key);
        if needed {
            self.problems.push(Diagnostic::new(
                self.path,
                format!("the required field `{key}` is missing"),
                format!("add `{key}` (see docs/input.md)"),
            ));
        }
        None
    }
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
/// `found_sources` are the ontology files found in the input folder, read
/// unless the file names its own `sources`.
pub fn load(
    input: &Path,
    base_url: Option<&BaseUrl>,
    found_sources: &[std::path::PathBuf],
) -> Result<(Stated, Sources), Vec<Diagnostic>> {
    let path = input.join(FILE_NAME);
    is_a_file(&path)?;
    let source = text::read(&path).map_err(|d| vec![d])?;
    let text = text::strip_bom(&source);
    let (mut file, mut problems) = OntologyFile::read(&path, text, found_sources)?;
    let at = Fields { path: &path, text };
    check_required(&file, &at, &mut problems);
    let sources = sources(input, &path, text, &file, found_sources, &mut problems);
    let has_sources = !sources.files.is_empty();
    let entity_type = file.entity_type.clone().unwrap_or_else(|| {
        // Lists of an ontology's terms: classes, properties, concepts.
        if has_sources {
            "Term".into()
        } else {
            String::new()
        }
    });
    check_values(&file, &entity_type, &at, &mut problems);
    let base_url = match (base_url, &file.base_url) {
        (Some(given), _) => Some(given.clone()),
        (None, Some(url)) => check_url(
            &path,
            "baseUrl",
            url,
            field_place(text, "baseUrl"),
            &mut problems,
        ),
        (None, None) => {
            problems.push(Diagnostic::new(
                &path,
                "no base URL: `baseUrl` is missing and none was given",
                "add `\"baseUrl\": \"https://...\"`, or pass --base-url or set ONTOSITE_BASE_URL",
            ));
            None
        }
    };
    check_term_names(&file, &at, &mut problems);
    check_links(&file.siblings, &at, &mut problems);
    let mut siblings = Vec::new();
    for sibling in std::mem::take(&mut file.siblings) {
        let name = format!("siblings[{}].baseUrl", sibling.name);
        let place = field_place(text, "siblings");
        if let Some(url) = check_url(&path, &name, &sibling.base_url, place, &mut problems) {
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
        Some(base_url) if problems.is_empty() => Ok((
            Stated {
                file,
                entity_type,
                base_url,
                siblings,
                has_sources,
            },
            sources,
        )),
        _ => Err(problems),
    }
}

/// What `ontology.json` states, checked: the ontology's description but
/// for what its sources add, which [`Stated::complete`] takes to make the
/// whole description at once.
pub struct Stated {
    file: OntologyFile,
    entity_type: String,
    pub base_url: BaseUrl,
    siblings: Vec<Sibling>,
    has_sources: bool,
}

/// What the ontology's sources add to its description.
pub struct FromSources {
    pub header: Option<Header>,
    pub prefixes: Vec<(String, String)>,
    pub downloads: Vec<Download>,
    pub notes: Vec<String>,
}

impl Stated {
    /// The language names are chosen in.
    pub fn language(&self) -> &str {
        self.file.language.as_deref().unwrap_or(DEFAULT_LANGUAGE)
    }

    /// The namespace that resolves through the site
    /// (`OntologyMeta::resolved_namespace`).
    pub fn resolved_namespace(&self) -> String {
        crate::model::resolved_namespace(self.file.namespace.as_deref(), &self.base_url)
    }

    /// The ontology's whole description: what `ontology.json` states, and
    /// what it leaves out from the header (description, license, version);
    /// an ontology that describes itself nowhere gets a description naming
    /// its files (documented).
    pub fn complete(self, sources: FromSources) -> OntologyMeta {
        let said = |field: fn(&Header) -> Option<String>| sources.header.as_ref().and_then(field);
        let file = self.file;
        let name = file.name.unwrap_or_default();
        let mut description = file.description.unwrap_or_default();
        if description.is_empty() {
            description =
                said(|h| h.description.clone().or_else(|| h.title.clone())).unwrap_or_default();
        }
        if description.is_empty() && !sources.downloads.is_empty() {
            let files: Vec<String> = sources
                .downloads
                .iter()
                .map(|d| {
                    d.path
                        .file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            description = format!("The terms of {name}, published from {}.", files.join(", "));
        }
        let entity_type = self.entity_type;
        OntologyMeta {
            entity_type_iri: file.entity_type_iri.unwrap_or_else(|| {
                if file.entity_type.is_none() && self.has_sources {
                    format!("{RDFS}Resource")
                } else {
                    format!("http://schema.org/{entity_type}")
                }
            }),
            name,
            description,
            entity_type,
            base_url: self.base_url,
            license: file.license.or_else(|| said(|h| h.license.clone())),
            version: file
                .version
                .or_else(|| said(|h| h.version.clone().or_else(|| h.version_iri.clone()))),
            siblings: self.siblings,
            subtypes: file.subtypes.map(|s| Subtypes {
                field: s.field,
                types: s.types,
            }),
            entity_properties: file.entity_properties.into_iter().collect(),
            vocabulary: file.vocabulary,
            namespace: file.namespace,
            language: file.language.unwrap_or_else(|| DEFAULT_LANGUAGE.into()),
            host: file.host,
            header: sources.header,
            prefixes: sources.prefixes,
            downloads: sources.downloads,
            read_notes: sources.notes,
            field_labels: file.field_labels,
        }
    }
}

/// `ontology.json` is a regular file, looked at before it is read: reading
/// a FIFO would wait forever.
fn is_a_file(path: &Path) -> Result<(), Vec<Diagnostic>> {
    let problem = match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_file() => return Ok(()),
        Ok(metadata) => {
            let what = if metadata.is_dir() {
                "a directory"
            } else {
                "not a regular file (a FIFO, socket or device)"
            };
            Diagnostic::new(
                path,
                format!("the ontology description is {what}"),
                "make ontology.json a JSON file with at least `name`, `description`, `entityType` and `baseUrl` (see docs/input.md)",
            )
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Diagnostic::new(
            path,
            "the ontology description is missing",
            format!(
                "create {} with at least `name`, `description`, `entityType` and `baseUrl` (see docs/input.md)",
                path.display()
            ),
        ),
        Err(e) => Diagnostic::new(
            path,
            format!("cannot be read: {e}"),
            "check that the file and its folders are readable",
        ),
    };
    Err(vec![problem])
}

/// `ontology.json` as read, for problems placed at a top-level field.
struct Fields<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Fields<'_> {
    /// A problem with the top-level field `key`, at its place in the file.
    fn problem(&self, key: &str, message: String, help: &str) -> Diagnostic {
        let (line, column) = field_place(self.text, key);
        Diagnostic::new(self.path, message, help).at(line, column)
    }
}

/// No empty name, description or type.
fn check_required(file: &OntologyFile, at: &Fields, problems: &mut Vec<Diagnostic>) {
    for (name, value) in [
        ("name", &file.name),
        ("description", &file.description),
        ("entityType", &file.entity_type),
    ] {
        if value.as_ref().is_some_and(|v| v.trim().is_empty()) {
            problems.push(at.problem(
                name,
                format!("`{name}` is empty"),
                &format!("give `{name}` a value"),
            ));
        }
    }
}

/// The values of the top-level fields that are not names of terms: a type
/// name, IRIs where IRIs go, a license that is an SPDX identifier or an
/// IRI, namespaces that end as namespaces do.
fn check_values(
    file: &OntologyFile,
    entity_type: &str,
    at: &Fields,
    problems: &mut Vec<Diagnostic>,
) {
    if !entity_type.is_empty() && !is_term_name(entity_type) {
        problems.push(at.problem(
            "entityType",
            format!("`entityType` `{entity_type}` is not a type name"),
            "use letters, digits and `_`, starting with a letter (for example `Action`)",
        ));
    }
    if let Some(iri) = &file.entity_type_iri
        && !is_absolute_iri(iri)
    {
        problems.push(at.problem(
            "entityTypeIri",
            format!("`entityTypeIri` `{iri}` is not an absolute IRI"),
            "give the full IRI of the type, such as `http://schema.org/Action`, or leave it out",
        ));
    }
    if let Some(license) = &file.license {
        let spdx_id = !license.is_empty()
            && license
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-.+".contains(c));
        if let Some(scheme) = crate::model::active_scheme(license) {
            problems.push(at.problem(
                "license",
                format!("`license` uses the scheme `{scheme}:`, which a browser runs or opens instead of following"),
                "give an SPDX identifier such as `CC0-1.0`, or the license's http(s) IRI",
            ));
        } else if !(spdx_id || (license.contains(':') && is_absolute_iri(license))) {
            problems.push(at.problem(
                "license",
                format!("`license` `{license}` is neither an SPDX identifier nor an IRI"),
                "give an SPDX identifier such as `CC0-1.0` or `CC-BY-4.0` (https://spdx.org/licenses/), or the license's IRI",
            ));
        }
    }
    if let Some(namespace) = &file.vocabulary
        && !(is_absolute_iri(namespace) && (namespace.ends_with('#') || namespace.ends_with('/')))
    {
        problems.push(at.problem(
            "vocabulary",
            format!("`vocabulary` `{namespace}` is not a namespace IRI"),
            "give an absolute IRI ending in `#` or `/`, such as `https://w3id.org/my-ontology/vocab#`, or leave it out for `{baseUrl}/vocab#`",
        ));
    }
    if let Some(host) = &file.host
        && crate::hosts::plan(host).is_none()
    {
        problems.push(at.problem(
            "host",
            format!("`host` `{host}` is not a host ontosite knows"),
            &format!(
                "give one of {} (docs/hosts.md), or leave it out and pass --host",
                crate::hosts::plan_names()
            ),
        ));
    }
    if let Some(namespace) = &file.namespace
        && !(is_absolute_iri(namespace) && namespace.ends_with('/'))
    {
        problems.push(at.problem(
            "namespace",
            format!("`namespace` `{namespace}` is not a namespace IRI ending in `/`"),
            "give the namespace that redirects to the base URL, such as `https://w3id.org/my-ontology/` (w3id.org sends `{namespace}{rest}` to `{baseUrl}/{rest}`), or leave it out for `{baseUrl}/`",
        ));
    }
}

/// The schema.org term names `subtypes` and `entityProperties` give, and
/// no entity property that ontosite writes itself.
fn check_term_names(file: &OntologyFile, at: &Fields, problems: &mut Vec<Diagnostic>) {
    let mut term = |key: &str, what: String, name: &str| {
        if !is_term_name(name) {
            problems.push(at.problem(
                key,
                format!("{what} `{name}` is not a schema.org term name"),
                "use letters, digits and `_`, starting with a letter (for example `CreateAction`)",
            ));
        }
    };
    if let Some(subtypes) = &file.subtypes {
        term("subtypes", "`subtypes.field`".into(), &subtypes.field);
        for (value, name) in &subtypes.types {
            term("subtypes", format!("the subtype for `{value}`"), name);
        }
    }
    for (property, value) in &file.entity_properties {
        term("entityProperties", "the entity property".into(), property);
        term(
            "entityProperties",
            format!("the value of `{property}`"),
            value,
        );
    }
    for property in file.entity_properties.keys() {
        if GENERATED_FIELDS.contains(&property.as_str()) {
            problems.push(at.problem(
                "entityProperties",
                format!("`entityProperties.{property}` is a key ontosite writes itself"),
                "remove it; ontosite states it already",
            ));
        }
    }
}

/// Each field a sibling is linked by is one entities can carry, and links
/// into one sibling only.
fn check_links(siblings: &[SiblingFile], at: &Fields, problems: &mut Vec<Diagnostic>) {
    let mut linked: Vec<&str> = Vec::new();
    for sibling in siblings {
        for linked_field in &sibling.linked_by {
            if !is_term_name(linked_field) || GENERATED_FIELDS.contains(&linked_field.as_str()) {
                problems.push(at.problem(
                    "siblings",
                    format!(
                        "`siblings[{}].linkedBy` names `{linked_field}`, which cannot be an entity field",
                        sibling.name
                    ),
                    "name a field that entities carry, such as `vendor`",
                ));
            } else if linked.contains(&linked_field.as_str()) {
                problems.push(at.problem(
                    "siblings",
                    format!("the field `{linked_field}` is linked into two siblings"),
                    "link each field into one sibling",
                ));
            }
            linked.push(linked_field);
        }
    }
}

/// Whether `iri` is an absolute IRI that RDF accepts (RFC 3987, as the
/// RDF libraries that read the site check it).
fn is_absolute_iri(iri: &str) -> bool {
    oxrdf::NamedNode::new(iri).is_ok()
}

fn check_url(
    path: &Path,
    field: &str,
    text: &str,
    (line, column): (Option<usize>, Option<usize>),
    problems: &mut Vec<Diagnostic>,
) -> Option<BaseUrl> {
    BaseUrl::parse(text)
        .map_err(|e| {
            problems.push(
                Diagnostic::new(
                    path,
                    format!("`{field}`: {e}"),
                    "use an absolute http(s) URL such as `https://actions.example.org`",
                )
                .at(line, column),
            )
        })
        .ok()
}

/// The source files to read (named in `sources`, else found), checked to
/// be inside the input folder and of a format ontosite reads, and the term
/// rules with `terms` applied.
fn sources(
    input: &Path,
    path: &Path,
    text: &str,
    file: &OntologyFile,
    found: &[std::path::PathBuf],
    problems: &mut Vec<Diagnostic>,
) -> Sources {
    let files = match &file.sources {
        Some(named) => named_sources(input, path, text, named, problems),
        None => found.to_vec(),
    };
    let files = publishable(files, problems);
    let rules = term_rules(path, text, file, problems);
    if let Some(language) = &file.language
        && !is_language_tag(language)
    {
        problems.push(Diagnostic::new(
            path,
            format!("`language` `{language}` is not a language tag"),
            "give a BCP 47 tag such as `en`, `de` or `pt-BR`",
        ));
    }
    if let Some(table) = &file.table {
        let (line, column) = field_place(text, "table");
        for problem in super::table::check(table) {
            problems.push(Diagnostic::new(path, problem, PREFIXED_NAME_HELP).at(line, column));
        }
    }
    Sources {
        files,
        rules,
        table: file.table.clone(),
    }
}

/// The sources that can be published as they are, at
/// `source-files/{file name}`: a file name with a byte that is not UTF-8
/// or an unshowable character is refused (no list could record it as it
/// is), and so is a second source of a file name already taken (one copy
/// would overwrite the other).
fn publishable(
    files: Vec<std::path::PathBuf>,
    problems: &mut Vec<Diagnostic>,
) -> Vec<std::path::PathBuf> {
    let mut taken: std::collections::BTreeMap<std::ffi::OsString, std::path::PathBuf> =
        std::collections::BTreeMap::new();
    let mut kept = Vec::new();
    for file in files {
        let name = file.file_name().unwrap_or_default().to_owned();
        if let Some(why) = crate::model::shown::unpublishable_name(&name) {
            problems.push(Diagnostic::new(
                &file,
                format!("the file name {why}"),
                "rename the file with printable characters in UTF-8: its name is its path in the site",
            ));
            continue;
        }
        let published = crate::site::files::source_file(&name.to_string_lossy());
        if let Some(first) = taken.get(&name) {
            let same = first.canonicalize().ok().zip(file.canonicalize().ok());
            let (what, help) = match same {
                Some((a, b)) if a == b => (
                    "is a source twice".to_owned(),
                    "name each source once in `sources`",
                ),
                _ => (
                    format!(
                        "has the file name of `{}`: both would be published at `{published}`",
                        crate::model::shown::path(first)
                    ),
                    "rename one of the two files: each source is published under its file name",
                ),
            };
            problems.push(Diagnostic::new(&file, what, help));
            continue;
        }
        taken.insert(name, file.clone());
        kept.push(file);
    }
    kept
}

/// How to write an IRI where `ontology.json` takes one.
const PREFIXED_NAME_HELP: &str = "write an absolute IRI, or a prefixed name with rdf, rdfs, owl, skos, obo, oboInOwl, dcterms, dc, schema or foaf";

/// The files `sources` names, each inside the input folder, a regular
/// file of a format ontosite reads.
fn named_sources(
    input: &Path,
    path: &Path,
    text: &str,
    named: &[String],
    problems: &mut Vec<Diagnostic>,
) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let inside = input.canonicalize().unwrap_or_else(|_| input.to_owned());
    for name in named {
        let source = input.join(name);
        let canonical = source.canonicalize();
        let problem = |what: String, help: &str| {
            let (line, column) = field_place(text, "sources");
            Diagnostic::new(path, format!("`sources`: `{name}` {what}"), help).at(line, column)
        };
        match canonical {
            Err(e) => problems.push(problem(
                format!("cannot be read: {e}"),
                "name a file inside the input folder, relative to it",
            )),
            Ok(real) if !real.starts_with(&inside) => problems.push(problem(
                "is outside the input folder".into(),
                "copy the file into the input folder and name it relative to it",
            )),
            Ok(_) if super::entities::not_a_file(&source).is_some() => problems.push(problem(
                "is not a regular file (a named pipe, a socket or a device)".into(),
                "name the file itself",
            )),
            Ok(_) if super::reader_of(&source).is_none() => problems.push(problem(
                "is not of a format ontosite reads".into(),
                super::SOURCE_FORMATS_HELP,
            )),
            Ok(_) => files.push(source),
        }
    }
    files
}

/// The rules `terms` gives, each a list of IRIs or prefixed names in place
/// of the default one.
fn term_rules(
    path: &Path,
    text: &str,
    file: &OntologyFile,
    problems: &mut Vec<Diagnostic>,
) -> TermRules {
    let mut rules = TermRules::default();
    for (key, value) in file.terms.iter().flatten() {
        let (line, column) = key_place(text, key);
        let Some(rule) = rules.rule_mut(key) else {
            problems.push(
                Diagnostic::new(
                    path,
                    format!("`terms`: unknown rule `{key}`"),
                    format!("the rules are {}; check the spelling", RULES.join(", ")),
                )
                .at(line, column),
            );
            continue;
        };
        let list: Option<Vec<&str>> = match value {
            serde_json::Value::String(one) => Some(vec![one.as_str()]),
            serde_json::Value::Array(items) => items.iter().map(|v| v.as_str()).collect(),
            _ => None,
        };
        let Some(list) = list else {
            problems.push(
                Diagnostic::new(
                    path,
                    format!("`terms.{key}` must be a list of IRIs"),
                    "write IRIs or prefixed names such as `rdfs:label`, in a list",
                )
                .at(line, column),
            );
            continue;
        };
        rule.clear();
        for term in list {
            match expand(term) {
                Some(iri) => rule.push(iri),
                None => problems.push(
                    Diagnostic::new(
                        path,
                        format!(
                            "`terms.{key}`: `{term}` is neither an IRI nor a known prefixed name"
                        ),
                        PREFIXED_NAME_HELP,
                    )
                    .at(line, column),
                ),
            }
        }
    }
    rules
}

/// Whether `tag` has the shape of a BCP 47 language tag.
fn is_language_tag(tag: &str) -> bool {
    oxrdf::Literal::new_language_tagged_literal("", tag).is_ok()
}
