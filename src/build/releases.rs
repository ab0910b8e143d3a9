//! The releases a build publishes side by side: the current one (the
//! input itself) and every earlier one kept in `input/releases/`, each
//! loaded, checked against what the output already published, and
//! compared with the one before it.

use crate::Error;
use crate::changes::{self, Changes};
use crate::config::BuildConfig;
use crate::model::{BaseUrl, Ontology};
use crate::render::releases::{Listed, ReleaseOf};
use crate::site::files;
use crate::source::{self, Diagnostic, Diagnostics, releases as kept};
use std::path::{Path, PathBuf};

/// One release: its version, its ontology (named by the site's base URL,
/// so that terms match across releases), the hash of its sources, and
/// where they are.
pub struct Release {
    pub version: String,
    pub ontology: Ontology,
    pub sources: String,
    pub dir: PathBuf,
}

/// The releases to publish, oldest first, the current one last; none
/// where the input keeps no earlier release (the site is as it always
/// was). Every problem of every release is reported at once.
pub fn load(config: &BuildConfig, current: &Ontology) -> Result<Vec<Release>, Error> {
    let (found, mut problems) = kept::found(&config.input);
    let version = current.meta.version.clone().unwrap_or_default();
    if found.is_empty() && problems.is_empty() {
        // Releases the output published stay, even where the input keeps
        // none any more.
        let mut published = Vec::new();
        if config.out.join(files::release_list("json")).is_file() {
            let sources = hash_of(&config.input, &mut published);
            published.extend(published_elsewhere(config, &[], &version, &sources));
        }
        return match published.is_empty() {
            true => Ok(Vec::new()),
            false => Err(Diagnostics(published).into()),
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
    let current_sources = hash_of(&config.input, &mut problems);
    let site_base = current.meta.base_url.clone();
    let mut releases = Vec::new();
    for release in &found {
        let sources = hash_of(&release.dir, &mut problems);
        if release.version == version {
            // The current release kept as well: the same sources, or an
            // error naming both.
            if sources != current_sources {
                problems.push(Diagnostic::new(
                    &release.dir,
                    format!("release {version} is kept here and is also the current release (ontology.json's version), with other sources"),
                    "remove this folder (the current release is published at /releases/{version}/ by itself), or give the current release a later version",
                ));
            }
            continue;
        }
        if kept::version_order(&release.version, &version).is_gt() {
            problems.push(Diagnostic::new(
                &release.dir,
                format!("release {} is later than the current release {version}", release.version),
                "the input itself is the current release: move this release's sources there (and its version into ontology.json), or rename the folder",
            ));
            continue;
        }
        match source::load(&release.dir, Some(&site_base)) {
            Ok(ontology) => releases.push(Release {
                version: release.version.clone(),
                ontology,
                sources,
                dir: release.dir.clone(),
            }),
            Err(Diagnostics(found)) => problems.extend(found),
        }
    }
    problems.extend(published_elsewhere(
        config,
        &releases,
        &version,
        &current_sources,
    ));
    if !problems.is_empty() {
        return Err(Diagnostics(problems).into());
    }
    releases.push(Release {
        version,
        ontology: current.clone(),
        sources: current_sources,
        dir: config.input.clone(),
    });
    Ok(releases)
}

/// The sources' hash of a release's input folder, its `releases/` left
/// out; a problem where a file cannot be read.
fn hash_of(dir: &Path, problems: &mut Vec<Diagnostic>) -> String {
    kept::sources_hash(dir).unwrap_or_else(|problem| {
        problems.push(problem);
        String::new()
    })
}

/// The refusals of a release the output already published from other
/// sources, and of one it published whose sources the input no longer
/// keeps: a published release is never rewritten nor dropped.
fn published_elsewhere(
    config: &BuildConfig,
    releases: &[Release],
    current: &str,
    current_sources: &str,
) -> Vec<Diagnostic> {
    let list = config.out.join(files::release_list("json"));
    let Ok(text) = std::fs::read_to_string(&list) else {
        return Vec::new();
    };
    let Ok(published) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    for entry in published["releases"].as_array().into_iter().flatten() {
        let (Some(version), Some(sources)) = (entry["version"].as_str(), entry["sources"].as_str())
        else {
            continue;
        };
        let published_at = config.out.join(files::release(version));
        let ours = releases
            .iter()
            .find(|r| r.version == version)
            .map(|r| (r.sources.as_str(), r.dir.clone()))
            .or_else(|| (version == current).then(|| (current_sources, config.input.clone())));
        match ours {
            Some((hash, _)) if hash == sources => {}
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
/// it, and how the list names it.
pub fn listed(releases: &[Release], base: &BaseUrl) -> (Vec<Option<Changes>>, Vec<Listed>) {
    let changes: Vec<Option<Changes>> = releases
        .iter()
        .enumerate()
        .map(|(i, release)| {
            let previous = i.checked_sub(1).map(|p| &releases[p].ontology)?;
            Some(changes::between(previous, &release.ontology))
        })
        .collect();
    let listed = releases
        .iter()
        .zip(&changes)
        .enumerate()
        .map(|(i, (release, changes))| {
            let root = base.join(&files::release(&release.version));
            let header = release.ontology.meta.header.as_ref();
            Listed {
                version: release.version.clone(),
                date: date_of(&release.version),
                version_iri: header.and_then(|h| h.version_iri.clone()),
                entities: release.ontology.entities.len(),
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
