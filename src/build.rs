//! The pipeline: load the source, render every document, write them into a
//! staging directory, swap it in.

mod releases;

use crate::config::{BuildConfig, HostCheck};
use crate::hosts::{self, DoesNotFit, Fit, Measured, Plan};
use crate::model::Ontology;
use crate::output::chunks::{Cutter, Cutting};
use crate::output::objects;
use crate::output::{Previous, Record, Staging, Written};
use crate::render::{self, Rendering};
use crate::site::bundles::Layout;
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
    /// How the site stands against the host it was checked for (the one
    /// plan), or, without one, against every host ontosite knows.
    pub hosts: Vec<Fit>,
    /// The site as the hosts measure it.
    pub measured: Measured,
    /// The plan the site was checked against and fits, if one was named.
    pub host: Option<&'static Plan>,
    /// Advice on the input read (`source::advice`); none when the output
    /// was up to date and the input not read.
    pub advice: Vec<String>,
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
    pub const LOCKING: &str = "locking the output and reading its list of files";
    pub const FOREIGN: &str = "looking through the output for files ontosite did not write";
    pub const RELEASES: &str = "reading the releases kept and published";
    pub const PREPARING: &str = "preparing the site";
    pub const WRITING: &str = "writing the files";
    pub const KEEPING: &str = "keeping the releases published earlier";
    pub const LISTING: &str = "measuring and listing the files written";
    pub const SWAPPING: &str = "swapping in the new site";
    pub const REMOVING: &str = "removing the previous site";
    pub const MEASURING: &str = "measuring the site against its host";
}

/// Reads the input and checks its links into siblings.
fn read(config: &BuildConfig) -> Result<Ontology, Error> {
    let ontology = source::load(&config.input, config.base_url.as_ref())?;
    if !config.siblings.is_empty() {
        source::check_sibling_links(&ontology, &config.siblings)?;
    }
    Ok(ontology)
}

/// What `check` found: the input, and what a build would make of it.
pub struct CheckReport {
    pub ontology: Ontology,
    /// How many releases the site would publish (none where the input
    /// keeps none).
    pub releases: usize,
    /// How the site fits the host the input names, if it names one.
    pub fit: Option<Fit>,
}

/// Reads and checks the input, its releases (`input/releases/`, against
/// the site in `--out` or `--previous`) and, where a host is named, the
/// site against its limits: what a build would refuse, writing nothing.
pub fn check(config: &BuildConfig, progress: &dyn Progress) -> Result<CheckReport, Error> {
    progress.phase(phase::READING, None);
    let ontology = read(config)?;
    let plan = host(config, &ontology);
    refuse_part_size(config, plan)?;
    progress.phase(phase::RELEASES, None);
    let releases = releases::load(config, &ontology)?;
    let count = releases.len();
    let fit = match plan {
        Some(plan) => Some(check_host(config, plan, &ontology, releases, progress)?),
        None => None,
    };
    Ok(CheckReport {
        ontology,
        releases: count,
        fit,
    })
}

/// Checks the site the input makes, with `releases`, against `plan`,
/// the host it names (`--host`, or `"host"` in `ontology.json`), writing
/// nothing: every document is rendered and measured, none kept.
fn check_host(
    config: &BuildConfig,
    plan: &'static Plan,
    ontology: &Ontology,
    releases: Vec<releases::Release>,
    progress: &dyn Progress,
) -> Result<Fit, Error> {
    progress.phase(phase::MEASURING, None);
    let mut site = prepare(config, ontology)?;
    lay_out(config, Some(plan), &mut site, releases.len())?;
    // Every release, as the build would write them.
    let releases::Arranged {
        current,
        frozen,
        built,
    } = releases::arrange(&mut site, releases, &ontology.meta.base_url)?;
    releases::refuse_bundled_without_code(&frozen, plan)?;
    let (mut sizes, mut copies) = with_current(config, Some(plan), &site, current, |sites| {
        measure_documents(sites, Pass::Documents)
    })?;
    for release in &frozen {
        sizes.extend(release.files.iter().map(|o| (o.path.clone(), o.bytes)));
        release.add_bundled(&mut copies);
    }
    sizes.extend(built_copies_then_host_files(
        config,
        Some(plan),
        &mut site,
        built,
        copies,
        |sites, pass, _| measure_documents(sites, pass),
    )?);
    let measured = Measured::of(
        sizes.iter().map(|(path, len)| (path.as_str(), *len)),
        |path| measured_file(&site, path),
    );
    let fit = Fit::of(plan, &measured, &config.limit_overrides);
    refuse_unfit(Some(&fit), &measured, site.layout(), config)?;
    Ok(fit)
}

/// Which of a site's documents a pass renders: the root's host files
/// come last, once every release's copy is laid out, since its handlers
/// answer in the copies that bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    Documents,
    HostFiles,
}

impl Pass {
    /// The documents of `site` this pass renders.
    fn of<'a>(self, site: &Rendering<'a>) -> Vec<render::Document<'a>> {
        let mut documents = render::documents(site);
        documents.retain(|d| d.is_host() == (self == Pass::HostFiles));
        documents
    }
}

/// Renders the documents of `sites` in `pass` (each site with the folder
/// it goes in) and counts their bytes, keeping none: each path with its
/// length.
fn measure_documents(
    sites: &[(&Rendering, &str)],
    pass: Pass,
) -> Result<Vec<(String, u64)>, Error> {
    each_site(sites, pass, |site, prefix, documents| {
        documents
            .into_par_iter()
            .map_init(Vec::new, |buffer, document| {
                let path = format!("{prefix}{}", document.path(site));
                let failed = |source| Error::Render {
                    path: path.clone(),
                    source,
                };
                let len = if document.streams() {
                    let mut counted = render::Counted::default();
                    document.render_into(site, &mut counted).map_err(failed)?;
                    counted.bytes
                } else {
                    document.render(site, buffer).map_err(failed)?;
                    buffer.len() as u64
                };
                Ok((path, len))
            })
            .collect()
    })
}

/// `each` of `sites` in turn (each with the folder it goes in) on the
/// documents of `pass`, the results in order: the sites one after another,
/// each site's documents in parallel.
fn each_site<'a, T, E>(
    sites: &[(&Rendering<'a>, &str)],
    pass: Pass,
    each: impl Fn(&Rendering<'a>, &str, Vec<render::Document<'a>>) -> Result<Vec<T>, E>,
) -> Result<Vec<T>, E> {
    let mut all = Vec::new();
    for &(site, prefix) in sites {
        all.extend(each(site, prefix, pass.of(site))?);
    }
    Ok(all)
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
        let out = crate::output::resolved(&config.out)?;
        // Measured and checked when it was built (the host is part of the
        // fingerprint); a record that does not say is measured again.
        let checked =
            serde_json::from_str::<Checked>(&record.measured).unwrap_or_else(|_| Checked {
                host: match config.host {
                    HostCheck::Named(plan) => Some(plan.name.to_owned()),
                    HostCheck::AsInputSays | HostCheck::Off => None,
                },
                measured: measure_written(&out),
            });
        let host = checked.host.as_deref().and_then(hosts::plan);
        let report = BuildReport {
            entities: record.entities,
            files: record.files,
            bytes: record.bytes,
            hosts: fits(host, &checked.measured, config),
            host,
            measured: checked.measured,
            out,
            elapsed: started.elapsed(),
            unchanged: true,
            kept: record.files,
            advice: Vec::new(),
        };
        return Ok((report, Previous::nothing()));
    }
    progress.phase(phase::READING, None);
    let ontology = read(config)?;
    let host = host(config, &ontology);
    refuse_part_size(config, host)?;
    // --force writes every file anew; otherwise unchanged ones are linked.
    // The output is locked before its releases are read: another build
    // could otherwise replace them between the look and the linking.
    progress.phase(phase::LOCKING, None);
    let mut staging = Staging::begin(&config.out, !config.force)?;
    progress.phase(phase::RELEASES, None);
    let releases = releases::load(config, &ontology)?;
    progress.phase(phase::PREPARING, None);
    let mut site = prepare(config, &ontology)?;
    lay_out(config, host, &mut site, releases.len())?;
    let releases::Arranged {
        current,
        frozen,
        built,
    } = releases::arrange(&mut site, releases, &ontology.meta.base_url)?;
    if let Some(plan) = host {
        releases::refuse_bundled_without_code(&frozen, plan)?;
    }
    // The published releases' folders the new site takes whole are not
    // looked through for files ontosite did not write: nothing in them is
    // removed, and they are most of the site.
    progress.phase(phase::FOREIGN, None);
    let adopted = frozen
        .iter()
        .map(|release| release.adopt_into(&mut staging))
        .collect::<Result<Vec<bool>, Error>>()?;
    staging.refuse_foreign()?;
    // The current release's copy under /releases/{version}/ is written
    // with the root, in one parallel pass: each thread then mostly makes
    // files in a folder of its own, and creating files in one folder is
    // one at a time in the kernel.
    let (mut written, mut copies) = with_current(config, host, &site, current, |sites| {
        progress.phase(
            &format!("{} of {} entities", phase::WRITING, ontology.entities.len()),
            Some(
                sites
                    .iter()
                    .map(|(site, _)| Pass::Documents.of(site).len() as u64)
                    .sum(),
            ),
        );
        write_documents(sites, Pass::Documents, &staging, interrupted, progress)
    })?;
    for release in &frozen {
        release.add_bundled(&mut copies);
    }
    let recorded: Vec<releases::Recorded> = frozen.iter().filter_map(|r| r.recorded()).collect();
    let frozen = frozen.into_iter().zip(adopted);
    written.extend(keep_frozen(frozen, &mut staging, interrupted, progress)?);
    written.extend(built_copies_then_host_files(
        config,
        host,
        &mut site,
        built,
        copies,
        |sites, pass, copy| {
            let what = match copy {
                Some(copy) => format!("{} of release {}", phase::WRITING, copy.version),
                None => format!("{} for the host", phase::WRITING),
            };
            let count = sites.iter().map(|(site, _)| pass.of(site).len() as u64);
            progress.phase(&what, Some(count.sum()));
            write_documents(sites, pass, &staging, interrupted, progress)
        },
    )?);
    progress.phase(phase::LISTING, None);
    let measured = Measured::of(
        written
            .iter()
            .map(|file| (file.object.path.as_str(), file.object.bytes)),
        |path| measured_file(&site, path),
    );
    // Refused before it replaces the previous site, never at upload.
    let hosts = fits(host, &measured, config);
    refuse_unfit(host.and(hosts.first()), &measured, site.layout(), config)?;
    let list = write_objects(&staging, &written)?;
    releases::unchanged(&recorded)?;
    let bytes = written.iter().map(|file| file.object.bytes).sum::<u64>() + list.object.bytes;
    let files = written.len() + 1;
    let kept = written
        .iter()
        .chain([&list])
        .filter(|file| file.how == Written::Kept)
        .count();
    let out = staging.out().to_owned();
    progress.phase(phase::SWAPPING, None);
    let record = Record {
        // Without a fingerprint, one that no later build has.
        fingerprint: fingerprint.unwrap_or_default(),
        entities: ontology.entities.len(),
        files,
        bytes,
        measured: serde_json::to_string(&Checked {
            host: host.map(|plan| plan.name.to_owned()),
            measured: measured.clone(),
        })
        .unwrap_or_default(),
    };
    let previous = staging.commit(
        written
            .into_iter()
            .chain([list])
            .map(|file| file.object.path)
            .collect(),
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
        hosts,
        measured,
        host,
        advice: crate::source::advice(&ontology),
    };
    Ok((report, previous))
}

/// What a build keeps in its record of the host it checked and what it
/// measured, so that an unchanged site is neither measured nor checked
/// again.
#[derive(serde::Serialize, serde::Deserialize)]
struct Checked {
    host: Option<String>,
    measured: Measured,
}

/// The plan the site must fit: `--host`, else `"host"` in `ontology.json`.
fn host(config: &BuildConfig, ontology: &Ontology) -> Option<&'static Plan> {
    match config.host {
        HostCheck::Named(plan) => Some(plan),
        HostCheck::AsInputSays => ontology.meta.host.as_deref().and_then(hosts::plan),
        HostCheck::Off => None,
    }
}

/// The layout of the entities' documents: `--layout`'s; else files, unless
/// the host runs code and that many files would pass its limits on files,
/// when bundles (`site::bundles`) keep the site within them. The site's
/// `copies` releases' copies take its layout, so they are counted too,
/// each as large as the root.
fn layout(
    config: &BuildConfig,
    host: Option<&'static Plan>,
    site: &Rendering,
    copies: usize,
) -> Result<Layout, Error> {
    if let Some(layout) = config.layout {
        if let (Layout::Bundled, Some(plan)) = (layout, host)
            && !plan.runs_code
        {
            return Err(Error::Config(
                crate::config::ConfigError::BundledWithoutCode(plan.title),
            ));
        }
        return Ok(layout);
    }
    let Some(plan) = host.filter(|plan| plan.runs_code) else {
        return Ok(Layout::Files);
    };
    // The file names alone: nothing is rendered yet.
    let root: Vec<(String, bool)> = render::documents(site)
        .iter()
        .map(|d| (d.path(site), d.is_host()))
        .collect();
    // The host files are there (the host may not count them), empty.
    let host_file = |path: &str| hosts::files().any(|f| f.path == path).then(Vec::new);
    let mut measured = Measured::of(root.iter().map(|(path, _)| (path.as_str(), 0)), host_file);
    // Each copy holds the root's documents except its host files, in folders
    // of its own no fuller than the root's: counted, not written out (at
    // 100k entities and ten releases, millions of paths).
    let in_copy = root.iter().filter(|(_, host)| !host).count() as u64;
    measured.files += copies as u64 * in_copy;
    let too_many = Fit::of(plan, &measured, &config.limit_overrides)
        .passed()
        .any(|figure| figure.limit.measure.counts_files());
    Ok(if too_many {
        Layout::Bundled
    } else {
        Layout::Files
    })
}

/// Lays the site out for its host before anything is rendered: the
/// entities' documents as [`layout`] chooses (its `copies` releases'
/// copies counted); where the host takes no
/// file as large as the RDF list or dump would be (or `--part-size` asks
/// for smaller parts), those in parts
/// (planned from every unit's exact size, where a sample says the dump
/// comes near the limit); and where it runs code, the big JSON lists
/// larger than it takes left for its handler to answer from their pages.
/// Where the handler joins anything, the documents are bundled: only
/// there do the hosts send the wholes' paths to it.
fn lay_out(
    config: &BuildConfig,
    host: Option<&'static Plan>,
    site: &mut Rendering,
    copies: usize,
) -> Result<(), Error> {
    let layout = layout(config, host, site, copies)?;
    cut_for_host(config, host, site, layout, config.part_bytes)
}

/// Lays `site` out in `layout`, its big documents cut to fit the host
/// (and to `part_bytes`, where given) as [`lay_out`] says: bundled
/// wherever the handler joins anything.
fn cut_for_host(
    config: &BuildConfig,
    host: Option<&'static Plan>,
    site: &mut Rendering,
    mut layout: Layout,
    part_bytes: Option<u64>,
) -> Result<(), Error> {
    let handler_joins = handler_joins(config, host);
    // Parts smaller than the limit, where the publisher asks for them
    // (`--part-size`, refused already where no handler joins them): a
    // publish then sends the parts a change touched.
    if let Some(most) = file_limit(config, host).into_iter().chain(part_bytes).min() {
        let mut joins = cut_rdf_documents(site, most)?;
        if handler_joins {
            joins |= !site
                .join_lists(most)
                .map_err(rendering(crate::site::files::ALL))?
                .is_empty();
        }
        if joins && handler_joins {
            layout = Layout::Bundled;
        }
    }
    site.set_layout(layout);
    Ok(())
}

/// The most bytes of one file the host takes, where it says.
fn file_limit(config: &BuildConfig, host: Option<&'static Plan>) -> Option<u64> {
    host.and_then(|plan| {
        Fit::of(plan, &Measured::default(), &config.limit_overrides)
            .figures
            .iter()
            .find(|figure| figure.limit.measure == hosts::Measure::FileBytes)
            .map(|figure| figure.limit.most)
    })
}

/// Writes the RDF list and dump in parts of at most `most` bytes where
/// they would be larger (planned from every unit's exact size, where a
/// sample says the dump comes near it). Whether any is.
fn cut_rdf_documents(site: &mut Rendering, most: u64) -> Result<bool, Error> {
    let entities = site.ontology.entities.len();
    let estimate = site
        .estimated_dump_bytes((entities / 256).max(1))
        .map_err(rendering(crate::site::files::DUMP_NT))?;
    // The list is in the dump: where half the limit is far off, so are
    // both.
    Ok(estimate.whole(entities) > most / 2
        && site
            .cut_into_parts(most)
            .map_err(rendering(crate::site::files::DUMP_NT))?)
}

/// A rendering error, named by the document it was rendering.
fn rendering(path: &str) -> impl FnOnce(render::RenderError) -> Error {
    let path = path.to_owned();
    move |source| Error::Render { path, source }
}

/// Whether the host's handler answers the wholes joined from their parts:
/// only in the bundled layout do the hosts send the wholes' paths to it
/// (with `--layout files` the lists stay whole, and a list past the limit
/// is refused with it named).
fn handler_joins(config: &BuildConfig, host: Option<&'static Plan>) -> bool {
    host.is_some_and(|plan| plan.runs_code) && config.layout != Some(Layout::Files)
}

/// Refuses `--part-size` where no handler would join the parts, or parts
/// under 1 MiB: `check` and `build` alike, before anything is written.
fn refuse_part_size(config: &BuildConfig, host: Option<&'static Plan>) -> Result<(), Error> {
    let Some(part) = config.part_bytes else {
        return Ok(());
    };
    let refusal = if !handler_joins(config, host) {
        Some(
            "no handler would join the parts: the host runs no code, none is named, or --layout files keeps every document a file",
        )
    } else if part < 1 << 20 {
        Some(
            "parts smaller than 1 MiB would each be an object, and the handler's table one entry each",
        )
    } else {
        None
    };
    match refusal {
        Some(why) => Err(Error::Config(crate::config::ConfigError::PartSize(why))),
        None => Ok(()),
    }
}

/// How the site stands against `host`, or without one, every plan.
fn fits(host: Option<&'static Plan>, measured: &Measured, config: &BuildConfig) -> Vec<Fit> {
    let overrides = &config.limit_overrides;
    match host {
        Some(plan) => vec![Fit::of(plan, measured, overrides)],
        None => hosts::limits::fits(measured, overrides),
    }
}

/// An error for a site its host would refuse (`fit`, the host's; none
/// where the build names no host), naming every limit it passes and the
/// hosts it fits instead; a site of `layout`.
fn refuse_unfit(
    fit: Option<&Fit>,
    measured: &Measured,
    layout: Layout,
    config: &BuildConfig,
) -> Result<(), Error> {
    let Some(fit) = fit.filter(|fit| !fit.fits()) else {
        return Ok(());
    };
    let plan = fit.plan;
    let every = hosts::limits::fits(measured, &config.limit_overrides);
    let fitting = every.iter().filter(|f| f.fits()).map(|f| f.plan).collect();
    // The hosts that would take the site's documents bundled, where the
    // count of its files is all they refuse: measured as it is, a file
    // per document, that is not what a build for them would make.
    let bundling = match layout {
        Layout::Files => every
            .iter()
            .filter(|f| f.would_take_bundled())
            .map(|f| f.plan)
            .collect(),
        Layout::Bundled => Vec::new(),
    };
    Err(DoesNotFit {
        plan,
        passed: fit.passed().cloned().collect(),
        fitting,
        bundling,
        files_asked: config.layout == Some(Layout::Files),
    }
    .into())
}

/// A file of the site the hosts' limits read, rendered again: a host
/// file, for its rules to be counted, or a bundles' manifest (the root's
/// or a copy's), for the pieces of what the handler joins (a few small
/// files).
fn measured_file(site: &Rendering, path: &str) -> Option<Vec<u8>> {
    if let Some(folder) = crate::site::bundles::folder_of_manifest(path) {
        return serde_json::to_vec(site.bundled().ok()?.manifest(folder)?).ok();
    }
    let file = hosts::files().find(|file| file.path == path)?;
    let mut bytes = Vec::new();
    render::Document::Host(file).render(site, &mut bytes).ok()?;
    Some(bytes)
}

/// A site on disk as the hosts measure it: every file but the output's
/// own marker and record.
fn measure_written(out: &std::path::Path) -> Measured {
    let files: Vec<(String, u64)> = walkdir::WalkDir::new(out)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| {
            let path = entry.path().strip_prefix(out).ok()?.to_str()?.to_owned();
            let name = entry.file_name().to_str()?;
            let own = [
                crate::output::MARKER,
                crate::output::RECORD,
                objects::OBJECTS,
            ]
            .contains(&name);
            Some((path, entry.metadata().ok()?.len())).filter(|_| !own)
        })
        .collect();
    Measured::of(files.iter().map(|(p, len)| (p.as_str(), *len)), |path| {
        std::fs::read(out.join(path)).ok()
    })
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

/// A file the build wrote, as an object of the site (the list of them
/// leaves out the private ones), and how.
struct WrittenFile {
    object: objects::Object,
    how: Written,
}

/// A release's copy, ready to render.
fn release_site<'a>(
    config: &BuildConfig,
    host: Option<&'static Plan>,
    root_layout: Layout,
    copy: &'a releases::Copy,
) -> Result<Rendering<'a>, Error> {
    let mut site = prepare(config, &copy.ontology)?;
    site.set_release(copy.of.clone(), Vec::new(), true);
    // In the root's layout (the root's handler answers in a copy that
    // bundles), its big documents cut to the host's file limit as the
    // root's are, but not to `--part-size`: that is for what changes, and
    // a release never does.
    cut_for_host(config, host, &mut site, root_layout, None)?;
    Ok(site)
}

/// Renders through `render` each earlier release not published before,
/// built from its sources (one at a time, each let go once rendered);
/// then tells the root `site` of the copies that bundle (theirs and
/// `copies`, the current and kept ones') and renders its host files,
/// whose handlers answer in them: for the build and `check` alike.
fn built_copies_then_host_files<T>(
    config: &BuildConfig,
    host: Option<&'static Plan>,
    site: &mut Rendering,
    built: Vec<releases::Copy>,
    mut copies: crate::site::bundles::Bundled,
    mut render: impl FnMut(
        &[(&Rendering, &str)],
        Pass,
        Option<&releases::Copy>,
    ) -> Result<Vec<T>, Error>,
) -> Result<Vec<T>, Error> {
    let mut rendered = Vec::new();
    for copy in built {
        let copy_site = release_site(config, host, site.layout(), &copy)?;
        let sites = [(&copy_site, copy.prefix.as_str())];
        rendered.extend(render(&sites, Pass::Documents, Some(&copy))?);
        add_bundled(&mut copies, &copy_site, &copy.prefix)?;
    }
    site.set_copies_bundled(copies);
    rendered.extend(render(&[(&*site, "")], Pass::HostFiles, None)?);
    Ok(rendered)
}

/// Adds the release copy `site` in `folder` to `copies` where it bundles.
fn add_bundled(
    copies: &mut crate::site::bundles::Bundled,
    site: &Rendering,
    folder: &str,
) -> Result<(), Error> {
    if site.layout() == Layout::Bundled {
        let manifest = site.bundle_manifest().map_err(|source| Error::Render {
            path: format!("{folder}{}", crate::site::bundles::MANIFEST),
            source: source.into(),
        })?;
        copies.insert(folder.to_owned(), manifest);
    }
    Ok(())
}

/// Hands `render` the root site, with the current release's copy in its
/// folder where it is rendered; the copy is let go after, with the copy
/// where it bundles.
fn with_current<T>(
    config: &BuildConfig,
    host: Option<&'static Plan>,
    root: &Rendering,
    current: Option<releases::Copy>,
    render: impl FnOnce(&[(&Rendering, &str)]) -> Result<T, Error>,
) -> Result<(T, crate::site::bundles::Bundled), Error> {
    let site = current
        .as_ref()
        .map(|copy| release_site(config, host, root.layout(), copy))
        .transpose()?;
    let mut sites = vec![(root, "")];
    let prefix = current.as_ref().map(|copy| copy.prefix.as_str());
    sites.extend(site.as_ref().zip(prefix));
    let rendered = render(&sites)?;
    let mut copies = crate::site::bundles::Bundled::default();
    if let (Some(site), Some(prefix)) = (&site, prefix) {
        add_bundled(&mut copies, site, prefix)?;
    }
    Ok((rendered, copies))
}

/// Puts the files of the releases published earlier into the new site as
/// they are: a release's folder in the output itself taken whole
/// (adopted before the output was looked through, `Staging::adopt`: one
/// rename at the swap, however many files it holds), those of a site
/// elsewhere (`--previous`) linked one by one (`Staging::keep`), all in
/// one parallel pass: the two halves of the list are then mostly in
/// folders of different releases.
fn keep_frozen(
    frozen: impl Iterator<Item = (releases::Frozen, bool)>,
    staging: &mut Staging,
    interrupted: &AtomicBool,
    progress: &dyn Progress,
) -> Result<Vec<WrittenFile>, Error> {
    // Each file with the index of its site's root in `roots`: its path is
    // joined where it is linked, on both cores.
    let (mut written, mut roots, mut files) = (Vec::new(), Vec::new(), Vec::new());
    for (release, adopted) in frozen {
        // Adopted before the output was looked through.
        if adopted {
            // Listed as the earlier list has it, chunks and all.
            written.extend(release.files.into_iter().map(|object| WrittenFile {
                object,
                how: Written::Kept,
            }));
            continue;
        }
        for dir in &release.dirs {
            staging.make_dir(dir)?;
        }
        let root = roots.len();
        roots.push(release.root().to_owned());
        files.extend(release.files.into_iter().map(|object| (root, object)));
    }
    if files.is_empty() {
        return Ok(written);
    }
    progress.phase(phase::KEEPING, Some(files.len() as u64));
    let staging = &*staging;
    let linked: Vec<WrittenFile> = files
        .into_par_iter()
        .map(|(root, object)| {
            if interrupted.load(Ordering::Relaxed) {
                return Err(Error::Interrupted);
            }
            staging.keep(&roots[root].join(&object.path), &object.path)?;
            progress.advance(1, object.bytes);
            // Listed as the earlier list has it, chunks and all: the same
            // list as where the release was built in this run.
            Ok(WrittenFile {
                object,
                how: Written::Kept,
            })
        })
        .collect::<Result<_, Error>>()?;
    written.extend(linked);
    Ok(written)
}

/// Renders the documents of `sites` in `pass` (each site with the folder
/// it goes in) into the staging directory, in parallel, and returns each one as
/// written. Stops at the first error or interruption.
fn write_documents(
    sites: &[(&Rendering, &str)],
    pass: Pass,
    staging: &Staging,
    interrupted: &AtomicBool,
    progress: &dyn Progress,
) -> Result<Vec<WrittenFile>, Error> {
    each_site(sites, pass, |site, prefix, documents| {
        documents
            .into_par_iter()
            .map_init(Vec::new, |buffer, document| {
                if interrupted.load(Ordering::Relaxed) {
                    return Err(Error::Interrupted);
                }
                let path = format!("{prefix}{}", document.path(site));
                let failed = |source| Error::Render {
                    path: path.clone(),
                    source,
                };
                // The documents that grow with the ontology as one file go
                // straight into it, hashed and cut as they go (a publish then
                // need not read them again to cut them); the rest through the
                // thread's buffer.
                let (how, object) = if document.streams() {
                    let mut file = Cutting {
                        inner: staging.create(&path)?,
                        cutter: Cutter::new(),
                    };
                    document.render_into(site, &mut file).map_err(failed)?;
                    let Cutting { inner, cutter } = file;
                    let (how, len) = staging.finish(inner)?;
                    let (chunks, hash) = cutter.finish();
                    let mut object = objects::Object::new(path, hash, len);
                    if chunks.len() > 1 {
                        object.chunks = chunks;
                    }
                    (how, object)
                } else {
                    document.render(site, buffer).map_err(failed)?;
                    let how = staging.write(&path, buffer)?;
                    let object =
                        objects::Object::new(path, objects::hash(buffer), buffer.len() as u64);
                    (how, object)
                };
                progress.advance(1, object.bytes);
                Ok(WrittenFile { object, how })
            })
            .collect()
    })
}

/// Writes the list of the published files with their hashes and chunks
/// (`output::objects`), last: a file edited after it is newer than it.
fn write_objects(staging: &Staging, written: &[WrittenFile]) -> Result<WrittenFile, Error> {
    // On both cores: with its releases a site lists millions of files.
    let mut listed: Vec<&objects::Object> = written
        .par_iter()
        .map(|file| &file.object)
        .filter(|object| !crate::site::routes::is_private_file(&object.path))
        .collect();
    // Stable: a path an earlier list named twice is kept twice, in the
    // order written, as before.
    listed.par_sort_by(|a, b| a.path.cmp(&b.path));
    let mut hasher = blake3::Hasher::new();
    let runs = objects::render_runs(&listed).into_iter().inspect(|run| {
        hasher.update(run);
    });
    let (how, bytes) = staging.write_pieces(objects::OBJECTS, runs)?;
    let hash = hasher.finalize().to_hex().to_string();
    let object = objects::Object::new(objects::OBJECTS.to_owned(), hash, bytes);
    Ok(WrittenFile { object, how })
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
    // The host the site is checked against, and the figures in place of
    // its own: a site built for one is checked again for another.
    let host = match config.host {
        HostCheck::Named(plan) => plan.name,
        HostCheck::AsInputSays => "as the input says",
        HostCheck::Off => "none",
    };
    hasher.update(
        format!(
            "{host} {:?} {:?} {:?}\0",
            config.layout, config.limit_overrides, config.part_bytes
        )
        .as_bytes(),
    );
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
