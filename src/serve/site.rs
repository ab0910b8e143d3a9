//! One built site as the server answers it: its directory, its host rules
//! and what `/search` needs, all read from what the build wrote.
//!
//! A snapshot is read once and never changes; `--watch` swaps in a new one
//! after a rebuild, so every request is answered from one site.

use super::path::SiteDir;
use super::rules::{HeaderRules, RedirectRules, RuleError};
use crate::model::{BaseUrl, Entity, Ontology, OntologyMeta, Origin, Slug, Term, Text};
use crate::render::files;
use crate::search::{Corpus, Searcher};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// A site directory that cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    #[error("cannot open the site directory `{}`: {source}\n  help: build it first with `ontosite build`, or serve with `--input` to build and serve", path.display())]
    Directory {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{}` is not a site that ontosite built: {what}\n  help: rebuild it with `ontosite build --out {}`", path.display(), dir.display())]
    NotASite {
        path: PathBuf,
        dir: PathBuf,
        what: String,
    },
    #[error(transparent)]
    Rules(#[from] RuleError),
}

/// A built site, loaded for serving.
#[derive(Debug)]
pub struct Snapshot {
    pub dir: SiteDir,
    pub headers: HeaderRules,
    pub redirects: RedirectRules,
    /// The entities as `/all` publishes them, for the Rust search.
    ontology: Ontology,
    corpus: Corpus,
}

impl Snapshot {
    pub fn load(dir: &Path) -> Result<Snapshot, SiteError> {
        let site = SiteDir::open(dir).map_err(|source| SiteError::Directory {
            path: dir.to_owned(),
            source,
        })?;
        let root = site.path().to_owned();
        let rules = |name: &str| -> Result<(String, PathBuf), SiteError> {
            let (path, bytes) = read(&root, name)?;
            let text = String::from_utf8(bytes)
                .map_err(|_| not_a_site(&root, &path, "it is not UTF-8".into()))?;
            Ok((text, path))
        };
        let (text, path) = rules(files::HEADERS)?;
        let headers = HeaderRules::parse(&text, &path)?;
        let (text, path) = rules(files::REDIRECTS)?;
        let redirects = RedirectRules::parse(&text, &path)?;
        let ontology = published_ontology(&root)?;
        let searcher = Searcher::new(&ontology);
        searcher.prepare();
        let corpus = searcher.into_corpus();
        Ok(Snapshot {
            dir: site,
            headers,
            redirects,
            ontology,
            corpus,
        })
    }

    pub fn searcher(&self) -> Searcher<'_> {
        Searcher::with_corpus(&self.ontology, &self.corpus)
    }

    pub fn entities(&self) -> usize {
        self.ontology.entities.len()
    }
}

/// The ontology as the site publishes it: its base URL and type from the
/// information document, its entities from `/all`.
fn published_ontology(root: &Path) -> Result<Ontology, SiteError> {
    let json = |name: &str| -> Result<Value, SiteError> {
        let (path, bytes) = read(root, name)?;
        serde_json::from_slice(&bytes)
            .map_err(|e| not_a_site(root, &path, format!("it is not JSON: {e}")))
    };
    let info = json(files::INFO)?;
    let info_path = root.join(files::INFO);
    let text = |value: &Value, key: &str, path: &Path| -> Result<String, SiteError> {
        value[key]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| not_a_site(root, path, format!("it has no string `{key}`")))
    };
    let base_url = BaseUrl::parse(&text(&info, "baseUrl", &info_path)?)
        .map_err(|e| not_a_site(root, &info_path, format!("its baseUrl: {e}")))?;
    let meta = OntologyMeta {
        name: text(&info, "name", &info_path)?,
        description: text(&info, "description", &info_path)?,
        entity_type: text(&info, "type", &info_path)?,
        entity_type_iri: String::new(),
        base_url,
        license: info["license"].as_str().map(str::to_owned),
        version: info["version"].as_str().map(str::to_owned),
        siblings: Vec::new(),
        subtypes: None,
        entity_properties: Vec::new(),
        vocabulary: None,
        language: "en".into(),
        header: None,
        prefixes: Vec::new(),
        downloads: Vec::new(),
    };
    let all_path = root.join(files::ALL);
    let all = json(files::ALL)?;
    let items = all["items"]
        .as_array()
        .ok_or_else(|| not_a_site(root, &all_path, "it has no `items` list".into()))?;
    let entities = items
        .iter()
        .enumerate()
        .map(|(n, item)| {
            let at = |what: &str| not_a_site(root, &all_path, format!("item {n}: {what}"));
            let Value::Object(fields) = item else {
                return Err(at("not an object"));
            };
            let field = |key: &str| {
                fields
                    .get(key)
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| at(&format!("no string `{key}`")))
            };
            let slug = Slug::parse(&field("slug")?).map_err(|e| at(&e.to_string()))?;
            let extra: Map<String, Value> = fields
                .iter()
                .filter(|(k, _)| {
                    !matches!(
                        k.as_str(),
                        "slug" | "id" | "type" | "name" | "description" | "links"
                    )
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            // What search reads of a term: its labels, synonyms and
            // descriptions in every language, and whether it is deprecated.
            let iri = fields.get("iri").and_then(Value::as_str).map(str::to_owned);
            let term = fields.get("types").is_some().then(|| {
                let texts = |key: &str| -> Vec<Text> {
                    fields
                        .get(key)
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|t| {
                            Some(Text {
                                value: t.get("value")?.as_str()?.to_owned(),
                                language: t
                                    .get("language")
                                    .and_then(Value::as_str)
                                    .map(str::to_owned),
                            })
                        })
                        .collect()
                };
                Box::new(Term {
                    labels: texts("labels"),
                    descriptions: texts("descriptions"),
                    synonyms: texts("synonyms"),
                    deprecated: fields.get("deprecated") == Some(&Value::Bool(true)),
                    ..Term::default()
                })
            });
            Ok(Entity {
                id: field("id")?,
                slug,
                name: field("name")?,
                // A term may have none.
                description: fields
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                iri,
                extra: if term.is_some() { Map::new() } else { extra },
                term,
                origin: Origin {
                    path: all_path.clone(),
                    line: None,
                },
            })
        })
        .collect::<Result<Vec<_>, SiteError>>()?;
    Ok(Ontology { meta, entities })
}

/// A file of the site, by name, with its path for messages.
fn read(root: &Path, name: &str) -> Result<(PathBuf, Vec<u8>), SiteError> {
    let path = root.join(name);
    match std::fs::read(&path) {
        Ok(bytes) => Ok((path, bytes)),
        Err(e) => Err(not_a_site(root, &path, format!("reading it failed: {e}"))),
    }
}

fn not_a_site(root: &Path, path: &Path, what: String) -> SiteError {
    SiteError::NotASite {
        path: path.to_owned(),
        dir: root.to_owned(),
        what,
    }
}
