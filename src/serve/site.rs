//! One built site as the server answers it: its directory, its host rules
//! and what `/search` needs, all read from what the build wrote.
//!
//! A snapshot is read once and never changes; `--watch` swaps in a new one
//! after a rebuild, so every request is answered from one site.

use super::path::SiteDir;
use super::rules::{HeaderRules, RedirectRules, RuleError};
use crate::model::{BaseUrl, Slug};
use crate::render::pages::Paged;
use crate::render::{Aliases, files, search_index};
use crate::search::{Corpus, Listing, SearchTexts, Searchable, Searcher};
use serde_json::Value;
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
    /// The paths at which entities' own IRIs arrive, besides `/{slug}`.
    pub aliases: Aliases,
    /// What the Rust search reads, as the site publishes it.
    base_url: BaseUrl,
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
        let (base_url, corpus, aliases) = published_corpus(&root)?;
        Searcher::with_corpus(&base_url, &corpus).prepare();
        Ok(Snapshot {
            dir: site,
            headers,
            redirects,
            aliases,
            base_url,
            corpus,
        })
    }

    pub fn searcher(&self) -> Searcher<'_> {
        Searcher::with_corpus(&self.base_url, &self.corpus)
    }

    pub fn entities(&self) -> usize {
        self.corpus.listings().len()
    }
}

/// What `/search` needs, as the site publishes it: its base URL from the
/// information document; each entity's listing from the search index's
/// rows (which the hosts' handlers answer from too); its searchable texts
/// from the pages of `/all` (`/all` itself is never read). And the aliases
/// of the entities' own IRIs, from their `iri` there and the namespace the
/// information document names.
fn published_corpus(root: &Path) -> Result<(BaseUrl, Corpus, Aliases), SiteError> {
    let json = |name: &str| read_json(root, name);
    let (info, info_path) = json(files::INFO)?;
    let base_url = info["baseUrl"]
        .as_str()
        .ok_or_else(|| not_a_site(root, &info_path, "it has no string `baseUrl`".into()))
        .and_then(|text| {
            BaseUrl::parse(text)
                .map_err(|e| not_a_site(root, &info_path, format!("its baseUrl: {e}")))
        })?;
    let (listings, stemmer) = listings(root)?;
    let items = all_pages(root, &info, &info_path)?;
    if items.len() != listings.len() {
        return Err(not_a_site(
            root,
            &root.join(Paged::All.file(1)),
            format!(
                "the pages of /all hold {} entities, the search index {}",
                items.len(),
                listings.len()
            ),
        ));
    }
    // `/all` lists the entities by slug, the index in rank order.
    let by_slug: std::collections::HashMap<&str, &Item> = items
        .iter()
        .map(|item| (item.slug.as_str(), item))
        .collect();
    let searchables = listings
        .iter()
        .map(|listing| {
            let Some(item) = by_slug.get(listing.slug.as_str()) else {
                return Err(not_a_site(
                    root,
                    &root.join(Paged::All.file(1)),
                    format!(
                        "no page of /all has the slug `{}`, which the search index names",
                        listing.slug
                    ),
                ));
            };
            Ok(Searchable::new(SearchTexts {
                id: &item.id,
                name: &item.name,
                description: item.description.as_deref().unwrap_or_default(),
                names: item
                    .labels
                    .iter()
                    .chain(&item.synonyms)
                    .map(|t| t.value.as_str())
                    .collect(),
                descriptions: item.descriptions.iter().map(|t| t.value.as_str()).collect(),
                deprecated: item.deprecated,
            }))
        })
        .collect::<Result<Vec<_>, SiteError>>()?;
    let namespace = info["namespace"]
        .as_str()
        .map_or_else(|| base_url.join(""), str::to_owned);
    let aliases = Aliases::of(
        &namespace,
        items
            .iter()
            .filter_map(|item| Some((item.iri.as_deref()?, item.slug.as_str()))),
    );
    Ok((
        base_url,
        Corpus::new(listings, searchables, stemmer),
        aliases,
    ))
}

/// What search reads of an entity of `/all`; the rest of its data is
/// skipped as it is parsed.
#[derive(serde::Deserialize)]
struct Item {
    slug: String,
    id: String,
    name: String,
    description: Option<String>,
    iri: Option<String>,
    #[serde(default)]
    labels: Vec<Text>,
    #[serde(default)]
    synonyms: Vec<Text>,
    #[serde(default)]
    descriptions: Vec<Text>,
    #[serde(default)]
    deprecated: bool,
}

/// A term's label, synonym or description in one language.
#[derive(serde::Deserialize)]
struct Text {
    value: String,
}

#[derive(serde::Deserialize)]
struct Page {
    items: Vec<Item>,
}

/// Every entity of `/all`, read from its pages (the count the information
/// document gives) in parallel and in order, never from `/all` itself: a
/// page at a time is parsed into what search needs, so memory holds the
/// search's own data and not a document of hundreds of megabytes.
fn all_pages(root: &Path, info: &Value, info_path: &Path) -> Result<Vec<Item>, SiteError> {
    use rayon::prelude::*;
    let count = info["pages"]["count"].as_u64().ok_or_else(|| {
        not_a_site(
            root,
            info_path,
            "it has no `pages.count`: an older ontosite built it".into(),
        )
    })? as usize;
    let pages = (1..=count)
        .into_par_iter()
        .map(|number| {
            let (path, bytes) = read(root, &Paged::All.file(number))?;
            serde_json::from_slice::<Page>(&bytes)
                .map(|page| page.items)
                .map_err(|e| not_a_site(root, &path, format!("it is not a page of /all: {e}")))
        })
        .collect::<Result<Vec<_>, SiteError>>()?;
    Ok(pages.into_iter().flatten().collect())
}

/// A JSON file of the site, and its path.
fn read_json(root: &Path, name: &str) -> Result<(Value, PathBuf), SiteError> {
    let (path, bytes) = read(root, name)?;
    let value = serde_json::from_slice(&bytes)
        .map_err(|e| not_a_site(root, &path, format!("it is not JSON: {e}")))?;
    Ok((value, path))
}

/// Every entity's listing, from the rows of the search index, and the
/// stemmer the index names.
fn listings(root: &Path) -> Result<(Vec<Listing>, Option<&'static str>), SiteError> {
    let json = |name: &str| read_json(root, name);
    let (manifest, manifest_path) = json(files::SEARCH_INDEX)?;
    let bad = |what: String| not_a_site(root, &manifest_path, what);
    if manifest["version"] != search_index::VERSION {
        return Err(bad(format!(
            "its format is {}, not {}",
            manifest["version"],
            search_index::VERSION
        )));
    }
    let total = manifest["total"]
        .as_u64()
        .ok_or_else(|| bad("it has no `total`".into()))? as usize;
    let kinds: Vec<&str> = manifest["types"]
        .as_array()
        .ok_or_else(|| bad("it has no `types`".into()))?
        .iter()
        .map(|k| k.as_str().unwrap_or_default())
        .collect();
    let mut listings = Vec::with_capacity(total);
    for chunk in 0..total.div_ceil(search_index::ROWS_PER_FILE) {
        let name = format!("{}/d{chunk}.json", search_index::DIR);
        let (rows, path) = json(&name)?;
        for (n, row) in rows.as_array().into_iter().flatten().enumerate() {
            let at = |what: &str| not_a_site(root, &path, format!("row {n}: {what}"));
            let text = |i: usize| {
                row[i]
                    .as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| at(&format!("no string at {i}")))
            };
            let id = text(0)?;
            let slug = match row.get(4) {
                Some(Value::String(slug)) => Slug::parse(slug),
                _ => Slug::from_id(&id),
            }
            .map_err(|e| at(&e.to_string()))?;
            let kind = row[2]
                .as_u64()
                .and_then(|k| kinds.get(k as usize))
                .ok_or_else(|| at("no type of the manifest's"))?;
            listings.push(Listing {
                slug,
                id,
                name: text(1)?,
                kind: (*kind).to_owned(),
                summary: text(3)?,
            });
        }
    }
    if listings.len() != total {
        return Err(bad(format!(
            "it counts {total} entities, its rows {}",
            listings.len()
        )));
    }
    let stemmer = match &manifest["stem"] {
        Value::Null => None,
        Value::String(language) => {
            Some(crate::search::near::stemmer(language).ok_or_else(|| {
                bad(format!(
                    "it names the stemmer `{language}`, which this ontosite does not know"
                ))
            })?)
        }
        other => return Err(bad(format!("its `stem` is {other}, not a language"))),
    };
    Ok((listings, stemmer))
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
