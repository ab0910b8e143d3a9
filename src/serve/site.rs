//! One built site as the server answers it: its directory, its host rules
//! and what `/search` needs, all read from what the build wrote.
//!
//! A snapshot is read once and never changes; `--watch` swaps in a new one
//! after a rebuild, so every request is answered from one site.

use super::path::{SiteDir, SitePath};
use super::rules::{HeaderRules, RedirectRules, RuleError};
use super::search_index::PublishedIndex;
use crate::site::negotiation::Aliases;
use crate::site::{bundles, files};
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
    /// The folders whose entities' documents are bundled
    /// (`site::bundles`), the root's and the releases' copies', each with
    /// its manifest.
    pub bundled: bundles::Bundled,
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
        let aliases = published_aliases(&root)?;
        let bundled = bundled_folders(&site, &root)?;
        Ok(Snapshot {
            dir: site,
            headers,
            redirects,
            aliases,
            index,
            bundled,
        })
    }

    /// A whole document the build left for a host's handler to join (the
    /// bundles' manifest says of what): joined as the handlers join it.
    pub fn joined(&self, path: &SitePath) -> Option<Vec<u8>> {
        let join = self.bundled.join(path.as_str().strip_prefix('/')?)?;
        join.assemble(|piece| {
            self.dir
                .read(&super::path::site_path(&format!("/{piece}")).ok()?)
        })
    }

    /// An entity's document from its bundle, where the site bundles them:
    /// the bytes its file would hold.
    pub fn bundled(&self, path: &SitePath) -> Option<Vec<u8>> {
        let (manifest, name) = self.bundled.of_path(path.as_str().strip_prefix('/')?)?;
        let folder = &path.as_str()[..path.as_str().len() - name.len()];
        let (slug, extension) = bundles::entity_document(name)?;
        if !manifest.formats.iter().any(|f| f == extension) {
            return None;
        }
        let bundle = bundles::path(extension, bundles::of(slug, manifest.count));
        let bytes = self
            .dir
            .read(&super::path::site_path(&format!("{folder}{bundle}")).ok()?)?;
        let mut documents: std::collections::HashMap<String, String> =
            serde_json::from_slice(&bytes).ok()?;
        documents.remove(slug).map(String::into_bytes)
    }

    pub fn entities(&self) -> usize {
        self.index.total()
    }
}

/// The folders that bundle: the root, and each release's copy the
/// release list names (a copy published earlier keeps its layout).
fn bundled_folders(site: &SiteDir, root: &Path) -> Result<bundles::Bundled, SiteError> {
    let mut folders = vec![String::new()];
    let list = super::path::site_path(&format!("/{}", files::RELEASE_LIST))
        .ok()
        .and_then(|path| site.read(&path))
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok());
    if let Some(releases) = list.as_ref().and_then(|list| list["releases"].as_array()) {
        // Only a folder a copy's manifest can be in: one segment under
        // `releases/`.
        let versions = releases.iter().filter_map(|r| r["version"].as_str());
        folders.extend(versions.map(files::release).filter(|folder| {
            bundles::folder_of_manifest(&format!("{folder}{}", bundles::MANIFEST)).is_some()
        }));
    }
    let mut bundled = bundles::Bundled::default();
    for folder in folders {
        if let Some(manifest) = bundle_manifest(site, root, &folder)? {
            bundled.insert(folder, manifest);
        }
    }
    Ok(bundled)
}

/// The bundles' manifest of the site in `folder`, where it has one.
fn bundle_manifest(
    site: &SiteDir,
    root: &Path,
    folder: &str,
) -> Result<Option<bundles::Manifest>, SiteError> {
    let name = format!("{folder}{}", bundles::MANIFEST);
    let path = root.join(&name);
    let Some(bytes) = super::path::site_path(&format!("/{name}"))
        .ok()
        .and_then(|site_path| site.read(&site_path))
    else {
        return Ok(None);
    };
    let manifest: bundles::Manifest = serde_json::from_slice(&bytes)
        .map_err(|e| not_a_site(root, &path, format!("it is not a bundle manifest: {e}")))?;
    if !manifest.is_readable() {
        return Err(not_a_site(
            root,
            &path,
            format!(
                "it is a bundle manifest of version {} with {} bundles; this ontosite reads version {} with at least one",
                manifest.version,
                manifest.count,
                bundles::VERSION
            ),
        ));
    }
    Ok(Some(manifest))
}

/// The aliases of the entities' own IRIs, as the build wrote them: a
/// small file, read at start instead of every page of `/all` (half a
/// gigabyte at a million entities).
fn published_aliases(root: &Path) -> Result<Aliases, SiteError> {
    let (path, bytes) = read(root, files::ALIASES)?;
    serde_json::from_slice(&bytes).map_err(|e| {
        not_a_site(
            root,
            &path,
            format!("it is not a map of paths to slugs: {e}"),
        )
    })
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
