//! One built site as the server answers it: its directory, its host rules
//! and what `/search` needs, all read from what the build wrote.
//!
//! A snapshot is read once and never changes; `--watch` swaps in a new one
//! after a rebuild, so every request is answered from one site.

use super::index::PublishedIndex;
use super::path::SiteDir;
use super::rules::{HeaderRules, RedirectRules, RuleError};
use crate::model::BaseUrl;
use crate::render::pages::Paged;
use crate::render::{Aliases, files};
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
    /// The search index the build wrote, which `/search` answers from.
    pub index: PublishedIndex,
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
        let index = site
            .try_clone()
            .map_err(|source| SiteError::Directory {
                path: dir.to_owned(),
                source,
            })
            .and_then(|copy| {
                PublishedIndex::in_site(copy).map_err(|e| not_a_site(&root, &e.path, e.what))
            })?;
        let aliases = published_aliases(&root, index.total())?;
        Ok(Snapshot {
            dir: site,
            headers,
            redirects,
            aliases,
            index,
        })
    }

    pub fn entities(&self) -> usize {
        self.index.total()
    }
}

/// The aliases of the entities' own IRIs: their `iri` in the pages of
/// `/all` and the namespace the information document names.
fn published_aliases(root: &Path, total: usize) -> Result<Aliases, SiteError> {
    let (info, info_path) = read_json(root, files::INFO)?;
    let base_url = info["baseUrl"]
        .as_str()
        .ok_or_else(|| not_a_site(root, &info_path, "it has no string `baseUrl`".into()))
        .and_then(|text| {
            BaseUrl::parse(text)
                .map_err(|e| not_a_site(root, &info_path, format!("its baseUrl: {e}")))
        })?;
    let (count, own_iris) = own_iris(root, &info, &info_path)?;
    if count != total {
        return Err(not_a_site(
            root,
            &root.join(Paged::All.file(1)),
            format!("the pages of /all hold {count} entities, the search index {total}"),
        ));
    }
    let namespace = info["namespace"]
        .as_str()
        .map_or_else(|| base_url.join(""), str::to_owned);
    Ok(Aliases::of(
        &namespace,
        own_iris
            .iter()
            .map(|(iri, slug)| (iri.as_str(), slug.as_str())),
    ))
}

/// What the server reads of an entity of `/all`: its slug and its own
/// IRI; the rest of its data is skipped as it is parsed.
#[derive(serde::Deserialize)]
struct Item {
    slug: String,
    iri: Option<String>,
}

#[derive(serde::Deserialize)]
struct Page {
    items: Vec<Item>,
}

/// How many entities the pages of `/all` hold, and the `(iri, slug)` of
/// those that have their own IRI. Read from the pages (the count the
/// information document gives) in parallel, never from `/all` itself: a
/// page at a time is parsed into slugs and IRIs, and only the IRIs are
/// kept, so memory never holds a document of hundreds of megabytes.
fn own_iris(
    root: &Path,
    info: &Value,
    info_path: &Path,
) -> Result<(usize, Vec<(String, String)>), SiteError> {
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
            let page = serde_json::from_slice::<Page>(&bytes)
                .map_err(|e| not_a_site(root, &path, format!("it is not a page of /all: {e}")))?;
            let held = page.items.len();
            let iris = page
                .items
                .into_iter()
                .filter_map(|item| Some((item.iri?, item.slug)))
                .collect::<Vec<_>>();
            Ok((held, iris))
        })
        .collect::<Result<Vec<_>, SiteError>>()?;
    let count = pages.iter().map(|(held, _)| held).sum();
    Ok((
        count,
        pages.into_iter().flat_map(|(_, iris)| iris).collect(),
    ))
}

/// A JSON file of the site, and its path.
fn read_json(root: &Path, name: &str) -> Result<(Value, PathBuf), SiteError> {
    let (path, bytes) = read(root, name)?;
    let value = serde_json::from_slice(&bytes)
        .map_err(|e| not_a_site(root, &path, format!("it is not JSON: {e}")))?;
    Ok((value, path))
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
