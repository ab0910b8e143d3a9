//! The pipeline: load the source, render every document, write them into a
//! staging directory, swap it in.

use crate::config::BuildConfig;
use crate::model::Ontology;
use crate::output::{Previous, Record, Staging, Written};
use crate::render::{self, Rendering};
use crate::{Error, source};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What a finished build did, for its summary line.
#[derive(Debug, Clone)]
pub struct BuildReport {
    pub entities: usize,
    pub files: usize,
    pub bytes: u64,
    pub out: PathBuf,
    pub elapsed: Duration,
    /// The output was up to date with the input and left as it was.
    pub unchanged: bool,
    /// Of `files`, those the previous site held with the same bytes,
    /// linked from it rather than written again.
    pub kept: usize,
}

/// What a build tells whoever watches it as it goes: a terminal's
/// progress bar in the binary, nothing in a server or a test. Each method
/// does nothing unless implemented.
pub trait Progress: Sync {
    /// A phase begins: what it does, and how many steps it has when that
    /// is known ahead.
    fn phase(&self, _name: &str, _steps: Option<u64>) {}
    /// Steps of the current phase done, and the bytes they wrote.
    fn advance(&self, _steps: u64, _bytes: u64) {}
}

/// No progress shown.
pub struct Silent;

impl Progress for Silent {}

/// The phases of a build, in order, as [`Progress`] names them.
pub mod phase {
    pub const READING: &str = "reading the input";
    pub const PREPARING: &str = "preparing the site";
    pub const WRITING: &str = "writing the files";
    pub const SWAPPING: &str = "swapping in the new site";
    pub const REMOVING: &str = "removing the previous site";
}

/// Reads and checks the input, writing nothing.
pub fn check(config: &BuildConfig) -> Result<Ontology, Error> {
    let ontology = source::load(&config.input, config.base_url.as_ref())?;
    if !config.siblings.is_empty() {
        source::check_sibling_links(&ontology, &config.siblings)?;
    }
    Ok(ontology)
}

/// Builds the site. `interrupted` is polled between files: once it is set,
/// the build stops, its staging directory is removed and the previous
/// output stays as it was.
pub fn build(
    config: &BuildConfig,
    interrupted: &AtomicBool,
    progress: &dyn Progress,
) -> Result<BuildReport, Error> {
    let (report, previous) = build_keeping_previous(config, interrupted, progress)?;
    progress.phase(phase::REMOVING, None);
    previous.remove()?;
    Ok(report)
}

/// [`build`], but the replaced site is handed back whole instead of being
/// removed, for a server that is still answering requests from it.
pub fn build_keeping_previous(
    config: &BuildConfig,
    interrupted: &AtomicBool,
    progress: &dyn Progress,
) -> Result<(BuildReport, Previous), Error> {
    let started = Instant::now();
    crate::output::refuse_inside(&config.out, &config.input.join(source::ENTITIES_DIR))?;
    let fingerprint = fingerprint(config);
    let unchanged = match fingerprint.as_deref().filter(|_| !config.force) {
        Some(fingerprint) => crate::output::up_to_date(&config.out, fingerprint)?,
        None => None,
    };
    // Same input, byte-identical output: the site is left as it is.
    if let Some(record) = unchanged {
        let report = BuildReport {
            entities: record.entities,
            files: record.files,
            bytes: record.bytes,
            out: crate::output::resolved(&config.out)?,
            elapsed: started.elapsed(),
            unchanged: true,
            kept: record.files,
        };
        return Ok((report, Previous::nothing()));
    }
    progress.phase(phase::READING, None);
    let ontology = check(config)?;
    progress.phase(phase::PREPARING, None);
    // --force writes every file anew; otherwise unchanged ones are linked.
    let staging = Staging::begin(&config.out, !config.force)?;
    let site = prepare(config, &ontology)?;
    progress.phase(
        &format!("{} of {} entities", phase::WRITING, ontology.entities.len()),
        Some(render::documents(&site).count() as u64),
    );
    let written = write_documents(&site, &staging, interrupted, progress)?;
    let bytes = written.iter().map(|(_, len, _)| *len as u64).sum();
    let files = written.len();
    let kept = written
        .iter()
        .filter(|(_, _, how)| *how == Written::Kept)
        .count();
    let out = staging.out().to_owned();
    progress.phase(phase::SWAPPING, None);
    let record = Record {
        // Without a fingerprint, one that no later build has.
        fingerprint: fingerprint.unwrap_or_default(),
        entities: ontology.entities.len(),
        files,
        bytes,
    };
    let previous = staging.commit(
        written.into_iter().map(|(path, _, _)| path).collect(),
        &record,
    )?;
    let report = BuildReport {
        entities: ontology.entities.len(),
        files,
        bytes,
        out,
        elapsed: started.elapsed(),
        unchanged: false,
        kept,
    };
    Ok((report, previous))
}

/// The site prepared for rendering with the templates of `--templates`,
/// an error naming the file it was preparing.
fn prepare<'a>(config: &BuildConfig, ontology: &'a Ontology) -> Result<Rendering<'a>, Error> {
    let templates = match &config.templates {
        Some(dir) => source::templates(dir)?,
        None => Default::default(),
    };
    Rendering::with_templates(ontology, &templates).map_err(|error| match error {
        render::PrepareError::Templates(source) => Error::Render {
            path: match &config.templates {
                Some(dir) => dir.display().to_string(),
                None => "the built-in templates".to_owned(),
            },
            source,
        },
        render::PrepareError::Document { file, source } => Error::Render {
            path: file.to_owned(),
            source,
        },
    })
}

/// Renders every document into the staging directory, in parallel, and
/// returns each one's path, size and how it was written. Stops at the
/// first error or interruption.
fn write_documents(
    site: &Rendering,
    staging: &Staging,
    interrupted: &AtomicBool,
    progress: &dyn Progress,
) -> Result<Vec<(String, usize, Written)>, Error> {
    render::documents(site)
        .map_init(Vec::new, |buffer, document| {
            if interrupted.load(Ordering::Relaxed) {
                return Err(Error::Interrupted);
            }
            let path = document.path(site);
            let failed = |source| Error::Render {
                path: path.clone(),
                source,
            };
            // The documents that grow with the ontology as one file go
            // straight into it; the rest through the thread's buffer.
            let (how, len) = if document.streams() {
                let mut file = staging.create(&path)?;
                document.render_into(site, &mut file).map_err(failed)?;
                let (how, len) = staging.finish(file)?;
                (how, len as usize)
            } else {
                document.render(site, buffer).map_err(failed)?;
                (staging.write(&path, buffer)?, buffer.len())
            };
            progress.advance(1, len as u64);
            Ok((path, len, how))
        })
        .collect()
}

/// A fingerprint of everything a build reads, so that a build whose
/// fingerprint matches the output's record can leave it as it is (same
/// input, byte-identical output): ontosite's own executable, the base URL
/// it is given, every file under the input and the templates (hidden ones
/// and the output itself aside). `None`, so that the build runs, where
/// one of them cannot be read (the build then reports it) or when
/// siblings are checked: their files are not ours to fingerprint.
pub fn fingerprint(config: &BuildConfig) -> Option<String> {
    if !config.siblings.is_empty() {
        return None;
    }
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"ontosite build fingerprint 1\0");
    hasher
        .update_reader(std::fs::File::open(std::env::current_exe().ok()?).ok()?)
        .ok()?;
    let base_url = config.base_url.as_ref().map(|b| b.join(""));
    hasher.update(format!("{base_url:?}\0").as_bytes());
    let out = std::path::absolute(&config.out).ok();
    for (name, dir) in [
        ("input", Some(&config.input)),
        ("templates", config.templates.as_ref()),
    ] {
        let Some(dir) = dir else { continue };
        hasher.update(format!("{name}\0").as_bytes());
        let walk = walkdir::WalkDir::new(dir)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|entry| {
                let hidden =
                    entry.depth() > 0 && entry.file_name().to_string_lossy().starts_with('.');
                let output = std::path::absolute(entry.path()).ok() == out;
                !hidden && !output
            });
        for entry in walk {
            let entry = entry.ok()?;
            if entry.file_type().is_dir() {
                continue;
            }
            // Only regular files: reading a FIFO would wait for ever, and
            // the build itself reports what else the input holds.
            let metadata = std::fs::metadata(entry.path()).ok()?;
            if !metadata.is_file() {
                return None;
            }
            let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            hasher.update(relative.to_string_lossy().as_bytes());
            hasher.update(&metadata.len().to_le_bytes());
            // Streamed: an ontology file of gigabytes is never held whole.
            hasher
                .update_reader(std::fs::File::open(entry.path()).ok()?)
                .ok()?;
        }
    }
    Some(hasher.finalize().to_hex().to_string())
}
