//! The pipeline: load the source, render every document, write them into a
//! staging directory, swap it in.

use crate::config::BuildConfig;
use crate::model::Ontology;
use crate::output::{Previous, Staging};
use crate::render::{self, Site};
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
    progress.phase(phase::READING, None);
    let ontology = check(config)?;
    progress.phase(phase::PREPARING, None);
    let staging = Staging::begin(&config.out)?;
    let templates = match &config.templates {
        Some(dir) => source::templates(dir)?,
        None => Default::default(),
    };
    let site = Site::with_templates(&ontology, &templates).map_err(|source| {
        let path = match (&source, &config.templates) {
            (render::RenderError::Json(_), _) => render::files::SEARCH_INDEX.to_owned(),
            (_, Some(dir)) => dir.display().to_string(),
            (_, None) => "the built-in templates".to_owned(),
        };
        Error::Render { path, source }
    })?;
    progress.phase(
        &format!("{} of {} entities", phase::WRITING, ontology.entities.len()),
        Some(render::documents(&site).count() as u64),
    );
    let written: Vec<(String, usize)> = render::documents(&site)
        .map_init(Vec::new, |buffer, document| {
            if interrupted.load(Ordering::Relaxed) {
                return Err(Error::Interrupted);
            }
            let path = document.path(&site);
            document
                .render(&site, buffer)
                .map_err(|source| Error::Render {
                    path: path.clone(),
                    source,
                })?;
            staging.write(&path, buffer)?;
            progress.advance(1, buffer.len() as u64);
            Ok((path, buffer.len()))
        })
        .collect::<Result<_, Error>>()?;
    let bytes = written.iter().map(|(_, len)| *len as u64).sum();
    let files = written.len();
    let out = staging.out().to_owned();
    progress.phase(phase::SWAPPING, None);
    let previous = staging.commit(written.into_iter().map(|(path, _)| path).collect())?;
    let report = BuildReport {
        entities: ontology.entities.len(),
        files,
        bytes,
        out,
        elapsed: started.elapsed(),
    };
    Ok((report, previous))
}
