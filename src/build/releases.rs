//! The releases a build publishes side by side: the current one (the
//! input itself) and every earlier one kept in `input/releases/`, each
//! loaded, checked against what the output already published, and
//! compared with the one before it.

use crate::Error;
use crate::changes::{self, Changes, Named};
use crate::config::BuildConfig;
use crate::model::{BaseUrl, Ontology};
use crate::output::Staging;
use crate::output::objects::{self, Object};
use crate::render::release::{Listed, ReleaseOf, Removed};
use crate::site::files;
use crate::source::{self, Diagnostic, Diagnostics, releases as kept};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One release: its version, the hash of its sources and where they are;
/// its ontology (named by the site's base URL, so that terms match across
/// releases) where it is built or the release after it is; and, where a
/// site published earlier holds it from the same sources, that copy.
pub struct Release {
    pub version: String,
    pub ontology: Option<Ontology>,
    pub sources: String,
    pub dir: PathBuf,
    pub frozen: Option<Frozen>,
}

/// A release as a site published earlier holds it: taken as it is, never
/// built again.
pub struct Frozen {
    /// How that site's list names it.
    pub listed: Listed,
    /// Its folders, parents first, as site paths.
    pub dirs: Vec<String>,
    /// Its files: each one's path in the site, its hash (where each is:
    /// under [`Frozen::root`]).
    pub files: Vec<Object>,
    /// What it changed since the release before, as its change log says.
    pub changes: Option<Changes>,
    /// Its bundles' manifest, where it was published bundled: the root's
    /// handlers answer in it as they did.
    bundled: Option<crate::site::bundles::Manifest>,
    /// The root of the site that holds it.
    root: PathBuf,
    /// Whether its files are all its folder holds: the folder may then be
    /// taken whole (`Staging::adopt`) where that site is the output.
    whole: bool,
    /// Where the site holding it is the output: its folders' dates when
    /// it was taken, which they still must be once the new list is
    /// written ([`unchanged`]).
    dated: Option<Vec<std::time::SystemTime>>,
}

impl Frozen {
    /// Its folder in the site that holds it, where that site is `out`
    /// and the folder holds its files and nothing else: the new site can
    /// take the folder as it is.
    pub fn folder_in(&self, out: &Path) -> Option<String> {
        (self.whole && self.root == out).then(|| files::release(&self.listed.version))
    }

    /// The root of the site that holds it: its files are there, at their
    /// site paths (joined when linked, not kept for each file: a release
    /// of 100,000 entities has half a million, and a folder taken whole
    /// never asks).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Its folder adopted whole by `staging` where that is the site that
    /// holds it and the folder holds what that site wrote there and
    /// nothing else ([`Staging::adopt`]); whether it was.
    pub fn adopt_into(&self, staging: &mut Staging) -> Result<bool, Error> {
        let Some(folder) = self.folder_in(staging.out()) else {
            return Ok(false);
        };
        let files = self.files.iter().map(|object| object.path.as_str());
        Ok(staging.adopt(&folder, &self.dirs, files)?)
    }

    /// Where it is taken from the output, its folders, to be asked again
    /// once the new list is written ([`unchanged`]).
    pub fn recorded(&self) -> Option<Recorded> {
        Some(Recorded {
            version: self.listed.version.clone(),
            root: self.root.clone(),
            dirs: self.dirs.clone(),
            dated: self.dated.clone()?,
        })
    }

    /// Adds it to `copies` where it bundles.
    pub fn add_bundled(&self, copies: &mut crate::site::bundles::Bundled) {
        if let Some(manifest) = &self.bundled {
            copies.insert(files::release(&self.listed.version), manifest.clone());
        }
    }

    /// A document of it, as that site published it (`path` a plain path
    /// inside that site).
    fn document(&self, path: &str) -> Option<serde_json::Value> {
        let from = inside(&self.root, path)?;
        serde_json::from_str(&std::fs::read_to_string(from).ok()?).ok()
    }
}

/// Refuses the releases published bundled where the host `plan` runs no
/// code: nothing there would answer their documents from the bundles,
/// and a published release is never rewritten.
pub fn refuse_bundled_without_code(
    frozen: &[Frozen],
    plan: &crate::hosts::Plan,
) -> Result<(), Error> {
    if plan.runs_code {
        return Ok(());
    }
    let problems: Vec<Diagnostic> = frozen
        .iter()
        .filter(|release| release.bundled.is_some())
        .map(|release| {
            let copy = files::release(&release.listed.version);
            Diagnostic::new(
                &release.root.join(format!("{copy}{}", crate::site::bundles::MANIFEST)),
                format!(
                    "release {} was published with its entities' documents bundled, which only a host that runs code answers; {} runs none",
                    release.listed.version, plan.title
                ),
                format!(
                    "build for a host that runs code, as it was published; or, to publish it anew a file per document, move {copy} out of the published site (its sources in the input build it again)"
                ),
            )
        })
        .collect();
    match problems.is_empty() {
        true => Ok(()),
        false => Err(Diagnostics(problems).into()),
    }
}

/// `path` (a file or folder) of the site at `root`, which is canonical,
/// where it is a plain relative path that stays inside, through no link.
fn inside(root: &Path, path: &str) -> Option<PathBuf> {
    let path = path.trim_end_matches('/');
    if !crate::output::is_site_path(path) {
        return None;
    }
    let joined = root.join(path);
    (joined.canonicalize().ok()? == joined).then_some(joined)
}

/// The site published earlier: `--previous`, else the output itself.
struct Published {
    root: PathBuf,
    /// Whether it is `--previous`, a site deployed, rather than the
    /// output, which the current release may still be built into anew.
    deployed: bool,
    /// Whether its record of the files it holds is taken as it is: the
    /// output, not forced ([`Published::as_recorded`]).
    trusted: bool,
    list: Vec<Listed>,
    /// Its list of files with their hashes, where it has one (a site
    /// downloaded from a host has not: the list is never published), and
    /// when the list was written.
    objects: Option<(Vec<Object>, std::time::SystemTime)>,
}

impl Published {
    /// The site published earlier, if it keeps releases; an error where
    /// `--previous` names no such site.
    // A `Diagnostic` is large, and returned once per build.
    #[allow(clippy::result_large_err)]
    fn read(config: &BuildConfig) -> Result<Option<Published>, Diagnostic> {
        let (root, deployed) = match &config.previous {
            Some(previous) => (previous.clone(), true),
            None => match crate::output::resolved(&config.out) {
                Ok(out) => (out, false),
                Err(_) => return Ok(None),
            },
        };
        let path = root.join(files::RELEASE_LIST);
        let list = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .and_then(|list| serde_json::from_value(list.get("releases")?.clone()).ok());
        let list = match (list, deployed) {
            (Some(list), _) => list,
            (None, false) => return Ok(None),
            (None, true) => {
                return Err(Diagnostic::new(
                    &path,
                    "--previous names no site that keeps releases: this release list is missing or unreadable",
                    "give --previous the root of a site ontosite built with releases (the folder holding releases/index.json)",
                ));
            }
        };
        // Canonical once: every path taken from it is checked against it.
        let root = root.canonicalize().unwrap_or(root);
        // Its date from the file read, not from its path again: a list
        // put in its place meanwhile is not dated as this one.
        let objects = std::fs::File::open(root.join(objects::OBJECTS))
            .and_then(|mut file| {
                use std::io::Read;
                let written = file.metadata()?.modified()?;
                let mut text = String::new();
                file.read_to_string(&mut text)?;
                Ok((text, written))
            })
            .ok()
            .and_then(|(text, written)| Some((objects::parse(&text)?, written)))
            // In path order, as a build writes it, for each release's
            // objects to be one run of it.
            .map(|(mut objects, written)| {
                if !objects.is_sorted_by(|a, b| a.path <= b.path) {
                    objects.par_sort_unstable_by(|a, b| a.path.cmp(&b.path));
                }
                (objects, written)
            });
        Ok(Some(Published {
            root,
            deployed,
            trusted: !deployed && !config.force,
            list,
            objects,
        }))
    }

    /// Release `version` as this site holds it, where it was built from
    /// `sources` at the same base URL and all of it is there
    /// ([`Published::as_recorded`], else [`Published::looked_through`]),
    /// and its change log.
    fn frozen(&self, version: &str, sources: &str, base: &BaseUrl) -> Option<Frozen> {
        let url = base.join(&files::release(version));
        let listed = self
            .list
            .iter()
            .find(|l| l.version == version && l.sources == sources && l.url == url)?;
        let prefix = files::release(version);
        let (dirs, files, whole, dated) = match self.as_recorded(&prefix) {
            Some((dirs, files, dated)) => (dirs, files, true, Some(dated)),
            None => {
                let (dirs, files, whole) = self.looked_through(&prefix)?;
                // Dated after the walk: a folder changed during it is
                // not seen (a file or so a second).
                let dated = folder_dates(&self.root, &dirs);
                (dirs, files, whole, dated)
            }
        };
        let frozen = Frozen {
            listed: listed.clone(),
            dirs,
            files,
            changes: None,
            bundled: None,
            root: self.root.clone(),
            whole,
            dated: dated.filter(|_| !self.deployed),
        };
        // A change log it should have and that does not read: built again.
        let changes = match &listed.previous {
            Some(_) => Some(
                serde_json::from_value(
                    frozen
                        .document(&format!("{prefix}{}", files::CHANGE_LOG))?
                        .get("changes")?
                        .clone(),
                )
                .ok()?,
            ),
            None => None,
        };
        // Bundled, a manifest that does not read: built again too.
        let manifest = format!("{prefix}{}", crate::site::bundles::MANIFEST);
        let bundled = match frozen.files.iter().any(|o| o.path == manifest) {
            true => Some(
                serde_json::from_value::<crate::site::bundles::Manifest>(
                    frozen.document(&manifest)?,
                )
                .ok()
                .filter(crate::site::bundles::Manifest::is_readable)?,
            ),
            false => None,
        };
        (!frozen.files.is_empty()).then_some(Frozen {
            changes,
            bundled,
            ..frozen
        })
    }

    /// The release's folders and files under `prefix` as they are found
    /// there, and whether the folder holds those files and nothing else:
    /// every file its list of objects names, a regular file of the size
    /// listed and of the hash listed (trusted where the file is dated no
    /// later than the list, as the build left it; else read: a hand may
    /// have edited it to the same size, and the listed hash and chunks
    /// would go into the new list) or, with no list, every file of its
    /// folder, hashed; no link anywhere in it.
    fn looked_through(&self, prefix: &str) -> Option<(Vec<String>, Vec<Object>, bool)> {
        let (dirs, found) = self.walk(prefix)?;
        let found_files = found.len();
        let files: Vec<Object> = match &self.objects {
            Some((objects, listed_at)) => run_under(objects, prefix)
                .par_iter()
                .map(|object| {
                    let file = found.get(&object.path)?;
                    // Strictly: where dates are coarse (a second), one
                    // edited in the list's tick would pass.
                    let as_built = file.modified.is_some_and(|d| d < *listed_at);
                    let same = file.bytes == object.bytes
                        && (as_built
                            || objects::hash_file(&self.root.join(&object.path)).ok()
                                == Some((object.hash.clone(), object.bytes)));
                    same.then(|| object.clone())
                })
                .collect::<Option<_>>()?,
            None => {
                let mut files: Vec<Object> = found
                    .into_par_iter()
                    .filter(|(path, _)| !crate::site::routes::is_private_file(path))
                    .map(|(path, _)| {
                        let (hash, bytes) = objects::hash_file(&self.root.join(&path)).ok()?;
                        Some(Object::new(path, hash, bytes))
                    })
                    .collect::<Option<_>>()?;
                files.par_sort_unstable_by(|a, b| a.path.cmp(&b.path));
                files
            }
        };
        // Every file found is listed, each once (the list is in path
        // order: a path listed twice is taken file by file), and every
        // folder found holds one: the folders are those the files make,
        // none made for a folder that holds none (which a later build
        // taking the release as recorded would never look in).
        // `walk` sorts its folders, so its top comes first: not resolved
        // (canonicalized) a second time.
        let folders = folders_of(dirs.first()?.clone(), &files);
        let whole = files.len() == found_files
            && files.is_sorted_by(|a, b| a.path < b.path)
            && dirs == folders;
        Some((folders, files, whole))
    }

    /// The release's folders and files under `prefix` as the output's
    /// list of objects records them, none of its files asked for its
    /// status: at 100,000 entities a site of ten releases keeps 4.5
    /// million, whose inodes are mostly not in memory (42 s, most of
    /// what keeping them cost). Taken where the site is the output and
    /// the build is not forced, and every folder holding the release's
    /// files is older than the list: a file added, removed or renamed in
    /// a folder (an editor saving by a rename) dates it later, and the
    /// release is then looked through ([`Published::looked_through`]);
    /// a folder holding none of them is never made (where
    /// [`Published::looked_through`] finds one, the release is not
    /// taken whole, and the build's look at the output refuses it). A
    /// file rewritten in place is not seen: `build --force` asks each
    /// file. The folders are asked again once the new list is written
    /// ([`unchanged`]): what changed while this build ran would be dated
    /// before it.
    fn as_recorded(
        &self,
        prefix: &str,
    ) -> Option<(Vec<String>, Vec<Object>, Vec<std::time::SystemTime>)> {
        let (objects, listed_at) = self.objects.as_ref().filter(|_| self.trusted)?;
        let files = run_under(objects, prefix).to_vec();
        let dirs = folders_of(self.top(prefix)?, &files);
        // Each path once: a list naming one twice is looked through.
        let whole = files.is_sorted_by(|a, b| a.path < b.path);
        let dated = folder_dates(&self.root, &dirs)?;
        // Strictly older: where dates are coarse (a second), a file added
        // in the list's tick would pass.
        let as_old = dated.iter().all(|date| date < listed_at);
        (as_old && whole && !files.is_empty()).then_some((dirs, files, dated))
    }

    /// The folder `prefix` of the site (ending in `/`) as a site path
    /// without the `/`, where it is one inside, through no link.
    fn top(&self, prefix: &str) -> Option<String> {
        let top = inside(&self.root, prefix)?;
        Some(top.strip_prefix(&self.root).ok()?.to_str()?.to_owned())
    }

    /// The folders (parents first) and regular files of the site under
    /// `prefix` (site paths; each file with its size and date), a level
    /// at a time, the folders of a level and the files of a folder on
    /// both cores; following no link; each file's status
    /// asked of its folder, by name (the kernel does not walk its whole
    /// path again); `None` where a link or anything else is there, or the
    /// folder is reached through one. Not in path order: sorting each
    /// folder's listing by name cost more than the walk.
    fn walk(&self, prefix: &str) -> Option<(Vec<String>, HashMap<String, Found>)> {
        let top = self.top(prefix)?;
        let (mut dirs, mut found) = (vec![top.clone()], HashMap::new());
        let mut level = vec![top];
        while !level.is_empty() {
            let listed = level
                .par_iter()
                .map(|folder| {
                    let (mut inner, mut entries) = (Vec::new(), Vec::new());
                    for entry in std::fs::read_dir(self.root.join(folder)).ok()? {
                        let entry = entry.ok()?;
                        let kind = entry.file_type().ok()?;
                        if kind.is_dir() {
                            inner.push(format!("{folder}/{}", entry.file_name().to_str()?));
                        } else if kind.is_file() {
                            entries.push(entry);
                        } else {
                            return None;
                        }
                    }
                    // Asked in the order of the files' inodes, not of the
                    // listing (its names' hashes): at 100,000 entities
                    // the inodes are not all in memory, and in that order
                    // their tables are read from the disk in one sweep.
                    entries.sort_unstable_by_key(std::os::unix::fs::DirEntryExt::ino);
                    let files = entries
                        .par_iter()
                        .map(|entry| {
                            let status = entry.metadata().ok().filter(|m| m.is_file())?;
                            let path = format!("{folder}/{}", entry.file_name().to_str()?);
                            let found = Found {
                                bytes: status.len(),
                                modified: status.modified().ok(),
                            };
                            Some((path, found))
                        })
                        .collect::<Option<Vec<_>>>()?;
                    Some((inner, files))
                })
                .collect::<Option<Vec<_>>>()?;
            level = Vec::new();
            for (inner, files) in listed {
                level.extend(inner);
                found.extend(files);
            }
            dirs.extend(level.iter().cloned());
        }
        // A folder's path is a prefix of its children's: sorted, parents
        // come first.
        dirs.sort_unstable();
        Some((dirs, found))
    }
}

/// The folders of a release's folder `top` (a site path) that its
/// `files` make: itself and every folder holding one, parents first.
fn folders_of(top: String, files: &[Object]) -> Vec<String> {
    let holding = crate::output::folders_holding(files.iter().map(|o| o.path.as_str()), &top);
    let mut dirs: Vec<String> = holding.into_iter().map(str::to_owned).collect();
    dirs.push(top);
    // A folder's path is a prefix of its children's: sorted, parents
    // come first.
    dirs.sort_unstable();
    dirs
}

/// The dates of `dirs` (site paths of the site at `root`), where each is
/// a folder reached through no link.
fn folder_dates(root: &Path, dirs: &[String]) -> Option<Vec<std::time::SystemTime>> {
    dirs.par_iter()
        .map(|dir| folder_date(&root.join(dir)))
        .collect()
}

fn folder_date(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::symlink_metadata(path)
        .ok()
        .filter(std::fs::Metadata::is_dir)?
        .modified()
        .ok()
}

/// Refuses the build where a release taken from the output
/// ([`Frozen::recorded`]) changed while it ran: a folder of it dated
/// otherwise than when it was taken, or gone. Asked once the new list
/// is written, which later builds compare the folders with: a change
/// before that is dated before it, and would be taken as the list
/// records the release.
pub fn unchanged(frozen: &[Recorded]) -> Result<(), Error> {
    let problems: Vec<Diagnostic> = frozen
        .iter()
        .filter_map(|taken| {
            // The same date, not a later one: a folder dated ahead of the
            // clock (copied from a machine whose clock is) is no change.
            let (dir, _) = taken
                .dirs
                .iter()
                .zip(&taken.dated)
                .find(|(dir, date)| folder_date(&taken.root.join(dir)) != Some(**date))?;
            Some(Diagnostic::new(
                &taken.root.join(dir),
                format!(
                    "this folder of release {} changed while ontosite built the site (a file in it added, removed or renamed, or the folder itself removed or replaced)",
                    taken.version
                ),
                format!(
                    "stop whatever writes into {} during a build (ontosite replaces it), then build again: the site was left as it was",
                    taken.root.display()
                ),
            ))
        })
        .collect();
    match problems.is_empty() {
        true => Ok(()),
        false => Err(Diagnostics(problems).into()),
    }
}

/// A release taken from the output: its folders, to be asked again once
/// the new list is written ([`unchanged`]).
pub struct Recorded {
    version: String,
    root: PathBuf,
    dirs: Vec<String>,
    dated: Vec<std::time::SystemTime>,
}

/// The objects of `objects` (in path order) under the folder `prefix`
/// (ending in `/`): one run of the list.
fn run_under<'o>(objects: &'o [Object], prefix: &str) -> &'o [Object] {
    let start = objects.partition_point(|object| object.path.as_str() < prefix);
    let end = start + objects[start..].partition_point(|o| o.path.starts_with(prefix));
    &objects[start..end]
}

/// A file the walk of a published release found: enough of its status
/// to trust it as the list of objects describes it.
struct Found {
    bytes: u64,
    modified: Option<std::time::SystemTime>,
}

/// Where a release kept in the input stands against the current one:
/// decided once, both for whether its published copy may be reused and
/// for whether it is published at all.
enum Standing {
    /// The current release's own version, kept as well.
    Current,
    /// Later than the current release: refused.
    Later,
    /// An earlier release, published under /releases/.
    Earlier,
}

impl Standing {
    fn of(kept: &str, current: &str) -> Standing {
        if kept == current {
            Standing::Current
        } else if kept::version_order(kept, current).is_gt() {
            Standing::Later
        } else {
            Standing::Earlier
        }
    }
}

/// The releases to publish, oldest first, the current one last; none
/// where the input keeps no earlier release (the site is as it always
/// was). Every problem of every release is reported at once.
pub fn load(config: &BuildConfig, current: &Ontology) -> Result<Vec<Release>, Error> {
    let (found, mut problems) = kept::found(&config.input);
    let version = current.meta.version.clone().unwrap_or_default();
    let published = Published::read(config).unwrap_or_else(|problem| {
        problems.push(problem);
        None
    });
    if found.is_empty() && problems.is_empty() {
        // Releases published earlier stay, even where the input keeps
        // none any more.
        if let Some(published) = &published {
            let sources = hash_of(config, &config.input, &mut problems);
            problems.extend(refused(config, published, &[], &version, &sources));
        }
        return match problems.is_empty() {
            true => Ok(Vec::new()),
            false => Err(Diagnostics(problems).into()),
        };
    }
    let ontology_file = config.input.join(source::ONTOLOGY_FILE);
    if !kept::is_version(&version) {
        problems.push(Diagnostic::new(
            &ontology_file,
            match current.meta.version.as_deref() {
                Some(stated) => format!("the current release's version `{stated}` cannot name it in the site (/releases/{{version}}/), and the input keeps earlier releases in {}/", kept::DIR_NAME),
                None => format!("the current release has no version, and the input keeps earlier releases in {}/", kept::DIR_NAME),
            },
            "add `\"version\": \"2025-05-14\"` (letters, digits, `.`, `-`, `_`, `+`) to ontology.json: the current release is published at /releases/{version}/ too",
        ));
    }
    let current_sources = hash_of(config, &config.input, &mut problems);
    // Each release's sources hashed and its published copy checked, on
    // both cores: a copy's check walks a folder of tens of thousands of
    // files and asks each one's status.
    let looked: Vec<(Standing, String, Vec<Diagnostic>, Option<Frozen>)> = found
        .par_iter()
        .map(|release| {
            let mut problems = Vec::new();
            let standing = Standing::of(&release.version, &version);
            let sources = hash_of(config, &release.dir, &mut problems);
            let frozen = match standing {
                Standing::Earlier => published
                    .as_ref()
                    .and_then(|p| p.frozen(&release.version, &sources, &current.meta.base_url)),
                Standing::Current | Standing::Later => None,
            };
            (standing, sources, problems, frozen)
        })
        .collect();
    let mut releases = Vec::new();
    for (release, (standing, sources, found_problems, frozen)) in found.iter().zip(looked) {
        problems.extend(found_problems);
        match standing {
            // The current release kept as well: the same sources, or an
            // error naming both.
            Standing::Current if sources != current_sources => problems.push(Diagnostic::new(
                &release.dir,
                format!("release {version} is kept here and is also the current release (ontology.json's version), with other sources"),
                "remove this folder (the current release is published at /releases/{version}/ by itself), or give the current release a later version",
            )),
            Standing::Current => {}
            Standing::Later => problems.push(Diagnostic::new(
                &release.dir,
                format!("release {} is later than the current release {version}", release.version),
                "the input itself is the current release: move this release's sources there (and its version into ontology.json), or rename the folder",
            )),
            Standing::Earlier => releases.push(Release {
                version: release.version.clone(),
                ontology: None,
                frozen,
                sources,
                dir: release.dir.clone(),
            }),
        }
    }
    if let Some(published) = &published {
        problems.extend(refused(
            config,
            published,
            &releases,
            &version,
            &current_sources,
        ));
    }
    releases.push(Release {
        frozen: published
            .as_ref()
            .and_then(|p| p.frozen(&version, &current_sources, &current.meta.base_url)),
        version,
        ontology: Some(current.clone()),
        sources: current_sources,
        dir: config.input.clone(),
    });
    // A release is read where it is built, or the one after it is (its
    // change log compares the two): the current one always is, at the
    // site's root.
    let site_base = current.meta.base_url.clone();
    let last = releases.len() - 1;
    for i in 0..releases.len() {
        let needed = releases[i].frozen.is_none()
            || i + 1 == last
            || releases
                .get(i + 1)
                .is_some_and(|next| next.frozen.is_none());
        if !needed || releases[i].ontology.is_some() {
            continue;
        }
        match source::load(&releases[i].dir, Some(&site_base)) {
            Ok(ontology) => releases[i].ontology = Some(ontology),
            Err(Diagnostics(found)) => problems.extend(found),
        }
    }
    problems.extend(shared_version_iris(&releases));
    if !problems.is_empty() {
        return Err(Diagnostics(problems).into());
    }
    Ok(releases)
}

/// The version IRI each release states (`owl:versionIRI`, an OBO file's
/// `data-version`), as it was published where it is frozen.
fn version_iri(release: &Release) -> Option<&str> {
    match &release.frozen {
        Some(frozen) => frozen.listed.version_iri.as_deref(),
        None => release
            .ontology
            .as_ref()?
            .meta
            .header
            .as_ref()?
            .version_iri
            .as_deref(),
    }
}

/// A version IRI names one release: two releases that state the same
/// one (sources copied to a new release, their version IRI left as it
/// was) would resolve it to either. Refused where one of the two is
/// built now (two published so are left as they were published), naming
/// the one to mend: of two built now, the one whose version the IRI does
/// not carry, the copy.
fn shared_version_iris(releases: &[Release]) -> Vec<Diagnostic> {
    let mut first: std::collections::HashMap<&str, &Release> = Default::default();
    let mut problems = Vec::new();
    for release in releases {
        let Some(iri) = version_iri(release) else {
            continue;
        };
        match first.get(iri) {
            None => {
                first.insert(iri, release);
            }
            Some(earlier) if earlier.frozen.is_none() || release.frozen.is_none() => {
                let carries = |r: &Release| iri.contains(&format!("/{}/", r.version));
                let built = match (earlier.frozen.is_none(), release.frozen.is_none()) {
                    (true, true) if carries(release) && !carries(earlier) => earlier,
                    (true, false) => earlier,
                    _ => release,
                };
                problems.push(Diagnostic::new(
                    &built.dir,
                    format!(
                        "releases {} and {} both state the version IRI <{iri}>, which names one release",
                        earlier.version, release.version
                    ),
                    format!(
                        "give release {} its own version IRI (owl:versionIRI, or an OBO file's data-version), or remove it from its sources",
                        built.version
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    problems
}

/// The sources' hash of a release's input folder, its `releases/` left
/// out; a problem where a file cannot be read.
fn hash_of(config: &BuildConfig, dir: &Path, problems: &mut Vec<Diagnostic>) -> String {
    let out = std::path::absolute(&config.out).ok();
    kept::sources_hash(dir, out.as_deref()).unwrap_or_else(|problem| {
        problems.push(problem);
        String::new()
    })
}

/// The refusals of a release published earlier from other sources, and
/// of one published whose sources the input no longer keeps: a published
/// release is never rewritten nor dropped.
fn refused(
    config: &BuildConfig,
    published: &Published,
    releases: &[Release],
    current: &str,
    current_sources: &str,
) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    // A release added before the newest one published would change what
    // that one's change log compares it with.
    let newest = published
        .list
        .iter()
        .map(|l| l.version.as_str())
        .max_by(|a, b| kept::version_order(a, b));
    for release in releases {
        let is_new = !published.list.iter().any(|l| l.version == release.version);
        if let Some(newest) =
            newest.filter(|n| is_new && kept::version_order(&release.version, n).is_lt())
        {
            problems.push(Diagnostic::new(
                &release.dir,
                format!("release {} is new, and older than release {newest}, published already", release.version),
                "a release is added after the last one published: give it a later version, or build into a new --out",
            ));
        }
    }
    for listed in &published.list {
        let version = listed.version.as_str();
        // The output's current release is built anew until it is kept in
        // releases/ (or a deployed site, --previous, has it).
        if version == current && !published.deployed {
            continue;
        }
        let published_at = published.root.join(files::release(version));
        let ours = releases
            .iter()
            .find(|r| r.version == version)
            .map(|r| (r.sources.as_str(), r.dir.clone()))
            .or_else(|| (version == current).then(|| (current_sources, config.input.clone())));
        match ours {
            Some((hash, _)) if hash == listed.sources => {}
            Some((_, dir)) => problems.push(Diagnostic::new(
                &dir,
                format!(
                    "release {version} was published at {} from other sources: a published release never changes",
                    published_at.display()
                ),
                "put back the sources it was published from, or publish the change as a new release (a new version)",
            )),
            None => problems.push(Diagnostic::new(
                &config.input.join(kept::DIR_NAME),
                format!(
                    "release {version} is published at {}, and the input no longer keeps its sources",
                    published_at.display()
                ),
                format!("put its sources back in input/{}/{version}/ (a published release is never dropped), or build into a new --out", kept::DIR_NAME),
            )),
        }
    }
    problems
}

/// What each release is published as: the changes since the one before
/// it (none for a frozen one, whose change log is published already),
/// and how the list names it.
pub fn listed(releases: &[Release], base: &BaseUrl) -> (Vec<Option<Changes>>, Vec<Listed>) {
    let changes: Vec<Option<Changes>> = releases
        .iter()
        .enumerate()
        .map(|(i, release)| {
            let previous = releases[i.checked_sub(1)?].ontology.as_ref()?;
            Some(changes::between(previous, release.ontology.as_ref()?))
        })
        .collect();
    let listed = releases
        .iter()
        .zip(&changes)
        .enumerate()
        .map(|(i, (release, changes))| {
            if let Some(frozen) = &release.frozen {
                return frozen.listed.clone();
            }
            let root = base.join(&files::release(&release.version));
            let ontology = release.ontology.as_ref();
            let header = ontology.and_then(|o| o.meta.header.as_ref());
            Listed {
                version: release.version.clone(),
                date: date_of(&release.version),
                version_iri: header.and_then(|h| h.version_iri.clone()),
                entities: ontology.map_or(0, |o| o.entities.len()),
                previous: i.checked_sub(1).map(|p| releases[p].version.clone()),
                changes: changes.as_ref().map(Changes::counts),
                change_log: changes
                    .as_ref()
                    .map(|_| format!("{root}{}", files::CHANGE_LOG)),
                url: root,
                sources: release.sources.clone(),
            }
        })
        .collect();
    (changes, listed)
}

/// Every release's change log: computed where the two releases are read,
/// else as the frozen release published it.
pub fn change_logs(releases: &[Release], changes: &[Option<Changes>]) -> Vec<Option<Changes>> {
    releases
        .iter()
        .zip(changes)
        .map(|(release, computed)| match (computed, &release.frozen) {
            (Some(changes), _) => Some(changes.clone()),
            (None, Some(frozen)) => frozen.changes.clone(),
            (None, None) => None,
        })
        .collect()
}

/// The terms an earlier release had and the current one has not, each
/// as the release it was last in described it, and the release it is gone
/// since (the latest removal, where one came back and went again).
pub fn removed(releases: &[Release], logs: &[Option<Changes>]) -> Vec<Removed> {
    let Some(current) = releases.last().and_then(|r| r.ontology.as_ref()) else {
        return Vec::new();
    };
    let base = &current.meta.base_url;
    let present: std::collections::HashSet<String> =
        current.entities.iter().map(|e| e.iri(base)).collect();
    let mut gone: std::collections::BTreeMap<String, Removed> = Default::default();
    for (i, release) in releases.iter().enumerate().skip(1) {
        let last = &releases[i - 1];
        let Some(found) = &logs[i] else {
            continue;
        };
        for term in &found.removed {
            if present.contains(&term.iri) {
                continue;
            }
            let (description, replaced_by) = last_said(last, term);
            gone.insert(
                term.iri.clone(),
                Removed {
                    term: term.clone(),
                    removed_in: release.version.clone(),
                    last_release: last.version.clone(),
                    description,
                    replaced_by,
                },
            );
        }
    }
    // One document per slug: where two removed terms had one, the one
    // removed last keeps it.
    let order = |version: &str| releases.iter().position(|r| r.version == version);
    let mut by_slug: std::collections::BTreeMap<String, Removed> = Default::default();
    for removed in gone.into_values() {
        match by_slug.get(&removed.term.slug) {
            Some(kept) if order(&kept.removed_in) >= order(&removed.removed_in) => {}
            _ => {
                by_slug.insert(removed.term.slug.clone(), removed);
            }
        }
    }
    by_slug.into_values().collect()
}

/// What the release a term was last in says of it: its description and
/// the terms that replace it; from its ontology where it is read, else
/// from the term's JSON as published.
fn last_said(release: &Release, term: &Named) -> (Option<String>, Vec<String>) {
    if let Some(ontology) = &release.ontology {
        let base = &ontology.meta.base_url;
        if let Some(entity) = ontology.entities.iter().find(|e| e.iri(base) == term.iri) {
            let description = Some(entity.description.clone()).filter(|d| !d.is_empty());
            let replaced_by = entity
                .term
                .as_ref()
                .map(|t| t.replaced_by.clone())
                .unwrap_or_default();
            return (description, replaced_by);
        }
    }
    if !crate::site::reserved::names_entity(&term.slug) {
        return (None, Vec::new());
    }
    let document = release.frozen.as_ref().and_then(|frozen| {
        frozen.document(&format!(
            "{}{}.json",
            files::release(&release.version),
            term.slug
        ))
    });
    let Some(document) = document else {
        return (None, Vec::new());
    };
    let description = document["description"].as_str().map(str::to_owned);
    let replaced_by = document["replacedBy"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|by| by["iri"].as_str().or(by.as_str()).map(str::to_owned))
        .collect();
    (description, replaced_by)
}

/// A release's date, where its version is one (`2024-03-28`, or one that
/// starts so, as OBO's dated releases are named).
fn date_of(version: &str) -> Option<String> {
    let date = version.get(..10)?;
    let bytes = date.as_bytes();
    let digits = |range: std::ops::Range<usize>| bytes[range].iter().all(u8::is_ascii_digit);
    (digits(0..4) && bytes[4] == b'-' && digits(5..7) && bytes[7] == b'-' && digits(8..10))
        .then(|| date.to_owned())
}

/// What the site's release knows of itself.
pub fn release_of(
    releases: &[Release],
    changes: &[Option<Changes>],
    i: usize,
    base: &BaseUrl,
) -> ReleaseOf {
    ReleaseOf {
        version: releases[i].version.clone(),
        site: base.join(""),
        since: i
            .checked_sub(1)
            .and_then(|p| Some((releases[p].version.clone(), changes[i].clone()?))),
    }
}

/// The base URL of a release's copy.
pub fn base_of(base: &BaseUrl, version: &str) -> Result<BaseUrl, Error> {
    BaseUrl::parse(&base.join(&files::release(version))).map_err(|e| {
        Error::Input(Diagnostics(vec![Diagnostic::new(
            Path::new(files::RELEASES),
            format!("release {version} has no base URL of its own: {e}"),
            "name the release with letters, digits, `.`, `-`, `_` and `+` only",
        )]))
    })
}

/// A release rendered as a site of its own under `/releases/{version}/`:
/// its ontology at the release's base URL, what it knows of its release,
/// and its folder in the site.
pub struct Copy {
    pub version: String,
    pub ontology: Ontology,
    pub of: ReleaseOf,
    pub prefix: String,
}

impl Copy {
    fn of(
        base: &BaseUrl,
        mut ontology: Ontology,
        version: &str,
        of: ReleaseOf,
    ) -> Result<Copy, Error> {
        ontology.meta.base_url = base_of(base, version)?;
        Ok(Copy {
            version: version.to_owned(),
            ontology,
            of,
            prefix: files::release(version),
        })
    }
}

/// The releases as a build (or a check) puts them in the site: the
/// current one's copy, the ones published earlier (taken as they are),
/// the other earlier ones (built from their sources).
#[derive(Default)]
pub struct Arranged {
    /// The current release's copy, unless it is published already.
    pub current: Option<Copy>,
    pub frozen: Vec<Frozen>,
    pub built: Vec<Copy>,
}

/// Tells the root `site` of its releases (the current one, the list,
/// the removed terms, each term's history) and arranges their copies.
pub fn arrange(
    site: &mut crate::render::Rendering,
    releases: Vec<Release>,
    base: &BaseUrl,
) -> Result<Arranged, Error> {
    let (changes, listed) = listed(&releases, base);
    let release_of: Vec<_> = (0..releases.len())
        .map(|i| release_of(&releases, &changes, i, base))
        .collect();
    let Some(current) = release_of.last() else {
        return Ok(Arranged::default());
    };
    site.set_release(current.clone(), listed, false);
    let logs = change_logs(&releases, &changes);
    site.set_removed(removed(&releases, &logs));
    site.set_history(crate::render::releases::history(
        releases
            .iter()
            .zip(&logs)
            .enumerate()
            .filter_map(|(i, (release, log))| {
                let previous = i.checked_sub(1).map(|p| releases[p].version.as_str());
                Some((release.version.as_str(), previous, log.as_ref()?))
            }),
    ));
    let last = releases.len() - 1;
    let mut arranged = Arranged::default();
    for (i, (release, of)) in releases.into_iter().zip(release_of).enumerate() {
        match (release.frozen, release.ontology) {
            (Some(frozen), _) => arranged.frozen.push(frozen),
            (None, Some(ontology)) => {
                let copy = Copy::of(base, ontology, &release.version, of)?;
                match i == last {
                    true => arranged.current = Some(copy),
                    false => arranged.built.push(copy),
                }
            }
            // Never: a release not published before is always read.
            (None, None) => {}
        }
    }
    Ok(arranged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    /// A release's folder dated otherwise than when it was taken, or
    /// gone, fails the build, naming the folder; as taken (even dated
    /// ahead of the clock), it passes.
    #[test]
    fn a_folder_changed_after_its_release_was_taken_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("releases/1/sub");
        std::fs::create_dir_all(&sub).unwrap();
        let dirs = vec!["releases/1".to_owned(), "releases/1/sub".to_owned()];
        // Ahead of the clock, as copied from a machine whose clock is.
        let ahead = SystemTime::now() + Duration::from_secs(3600);
        std::fs::File::open(&sub)
            .unwrap()
            .set_modified(ahead)
            .unwrap();
        let dated = folder_dates(dir.path(), &dirs).unwrap();
        let taken = || Recorded {
            version: "1".into(),
            root: dir.path().to_owned(),
            dirs: dirs.clone(),
            dated: dated.clone(),
        };
        assert!(unchanged(&[taken()]).is_ok());
        std::fs::File::open(&sub)
            .unwrap()
            .set_modified(SystemTime::now())
            .unwrap();
        let refused = unchanged(&[taken()]).unwrap_err().to_string();
        assert!(refused.contains("releases/1/sub"), "{refused}");
        assert!(refused.contains("changed while"), "{refused}");
        // Gone: its parent, dated anew by the removal, is named first.
        std::fs::remove_dir(&sub).unwrap();
        let refused = unchanged(&[taken()]).unwrap_err().to_string();
        assert!(refused.contains("releases/1:"), "{refused}");
    }
}
