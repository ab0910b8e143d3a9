//! `ontosite publish`: a built site to object storage through the S3 API
//! (AWS S3, Cloudflare R2, Google Cloud Storage, Backblaze B2, Garage,
//! MinIO). It sends only what changed since the last publish, by content
//! hash against the record that publish left under the prefix, in the
//! order that keeps the published site whole (`plan`), each object with
//! the type and caching the site's own `_headers` rules give its path;
//! it removes only what an earlier publish wrote. An interrupted publish
//! leaves the record of the last one, so the next sends what is missing.

pub mod credentials;
pub mod plan;
pub mod record;
pub mod store;

use crate::site::files;
use futures::{StreamExt, TryStreamExt};
use plan::{Object, Plan};
use record::Recorder;
use std::path::{Path, PathBuf};
pub use store::{Endpoint, Target};

#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error(
        "`{target}` is not a place to publish to: {why}\n  help: name the bucket and the prefix as s3://BUCKET/PREFIX"
    )]
    Target { target: String, why: String },
    #[error("{what}: {detail}\n  help: {help}")]
    Store {
        what: String,
        detail: String,
        help: &'static str,
    },
    #[error("could not read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{} is not a site ontosite built: {why}\n  help: build it first (ontosite build --out DIR), then publish DIR", path.display())]
    NotASite { path: PathBuf, why: String },
    #[error(
        "{url} is not a record of a publish: {why}\n  help: it is ontosite's own; remove the record's head, {head} under the prefix, and publish sends the whole site again",
        head = record::RECORD
    )]
    Record { url: String, why: String },
    #[error(
        "{url} changed while this publish ran: another publish to the same prefix wrote it\n  help: let the other publish finish, then run this one again; it sends only what is still missing"
    )]
    Concurrent { url: String },
}

/// What to publish where.
#[derive(Debug, Clone)]
pub struct PublishConfig {
    /// The built site.
    pub site: PathBuf,
    pub target: Target,
    pub endpoint: Endpoint,
    /// Work out and print the plan; send nothing.
    pub dry_run: bool,
    /// How many objects are sent at once.
    pub jobs: usize,
    /// Set the bucket's CORS rules too (`store::apply_cors`).
    pub apply_cors: bool,
}

/// What a publish did (or, dry, would do).
#[derive(Debug)]
pub struct PublishReport {
    pub plan: Plan,
    pub seconds: f64,
}

impl PublishReport {
    pub fn uploaded_bytes(&self) -> u64 {
        self.plan.uploads().map(|o| o.bytes).sum()
    }
}

/// The phases of a publish, as `build::Progress` names them.
pub mod phase {
    pub const HASHING: &str = "hashing the site";
    pub const SENDING: &str = "sending what changed";
    pub const REMOVING: &str = "removing what the site no longer has";
}

/// Publishes the site as `config` says, telling `progress` how far it is.
pub fn publish(
    config: &PublishConfig,
    progress: &dyn crate::build::Progress,
) -> Result<PublishReport, PublishError> {
    let started = std::time::Instant::now();
    let rules = site_rules(&config.site)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|source| PublishError::Read {
            path: config.site.clone(),
            source,
        })?;
    // The last publish's record is fetched and read while the site is
    // walked: 0.85 s and 2.2 s of a publish that sends nothing at 100,000
    // entities, one after the other (docs/benchmarks.md).
    let endpoint = config.endpoint.resolved();
    let target = config.target.clone();
    let reading = runtime.spawn(async move {
        let store = store::open(&target, &endpoint).await?;
        // The record is written only over the version read here: a
        // publish to the same prefix that wrote it meanwhile stops this
        // one.
        let (previous, version) = record::read(&store, &target).await?;
        Ok::<_, PublishError>((store, endpoint, previous, version))
    });
    progress.phase(phase::HASHING, None);
    let objects = match plan::objects(&config.site) {
        Ok(objects) => objects,
        Err((path, source)) => {
            // Not waiting for the record (a name lookup, a credential
            // process) to say what is wrong here.
            runtime.shutdown_background();
            return Err(PublishError::Read { path, source });
        }
    };
    let plan = runtime.block_on(async {
        let (store, endpoint, previous, version) =
            reading.await.map_err(|e| PublishError::Store {
                what: format!("could not read the record under {}", config.target.url("")),
                detail: store::scrubbed(&e.to_string()),
                help: "run publish again; where it fails alike, report it as a bug of ontosite",
            })??;
        let previous = previous.unwrap_or_default();
        let plan = Plan::of(&objects, &previous);
        if config.apply_cors && !config.dry_run {
            store::apply_cors(&store, &config.target, &endpoint).await?;
        }
        if config.dry_run || plan.is_empty() {
            return Ok(plan);
        }
        let send = |object: &Object| {
            let headers = rules.for_path(&format!("/{}", object.path));
            let attributes = store::attributes(&headers, &object.path);
            let file = config.site.join(&object.path);
            let store = &store;
            let object = object.clone();
            async move {
                if object.bytes >= store::MULTIPART_FROM {
                    let (target, path) = (&config.target, &object.path);
                    store::put_large(store, target, path, &file, attributes).await?;
                } else {
                    let bytes = tokio::fs::read(&file)
                        .await
                        .map_err(|source| PublishError::Read { path: file, source })?;
                    store::put(store, &config.target, &object.path, bytes, attributes).await?;
                }
                progress.advance(1, object.bytes);
                Ok(())
            }
        };
        let jobs = config.jobs.max(1);
        let run = run_id();
        let mut record = Recorder::new(&store, &config.target, &run, version, previous);
        // This run claims the record before it sends anything: every
        // object it is to send is recorded with no hash, so that a publish
        // stopped half-way leaves none that the next would neither send
        // again nor remove (were the site put back as it was, a changed
        // object would otherwise keep this run's bytes under the old
        // hash); and a publish that read the record before this one wrote
        // it stops at its own first write, having sent nothing.
        record.note(plan.uploads().map(|o| Object {
            hash: String::new(),
            ..o.clone()
        }));
        record.write().await?;
        progress.phase(phase::SENDING, Some(plan.uploads().count() as u64));
        for step in plan.steps() {
            futures::stream::iter(step.iter().map(send))
                .buffer_unordered(jobs)
                .try_collect::<()>()
                .await?;
        }
        // The objects to remove stay recorded until they are removed.
        if plan.uploads().next().is_some() {
            record.note(plan.uploads().cloned());
            record.write().await?;
        }
        if !plan.removed.is_empty() {
            progress.phase(phase::REMOVING, Some(plan.removed.len() as u64));
            futures::stream::iter(
                plan.removed
                    .iter()
                    .map(|path| store::delete(&store, &config.target, path)),
            )
            .buffer_unordered(jobs)
            .try_collect::<()>()
            .await?;
            record.forget(&plan.removed);
            record.write().await?;
        }
        Ok::<Plan, PublishError>(plan)
    })?;
    Ok(PublishReport {
        plan,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A name for this run of publish, unlike any other's: the process and
/// the clock, hashed.
fn run_id() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let seed = format!("{}-{}", std::process::id(), now.as_nanos());
    blake3::hash(seed.as_bytes()).to_hex()[..32].to_owned()
}

/// The site's header rules, which say each object's type and caching;
/// refused where the directory is not a site ontosite built.
fn site_rules(site: &Path) -> Result<crate::serve::rules::HeaderRules, PublishError> {
    let not_a_site = |why: String| PublishError::NotASite {
        path: site.to_owned(),
        why,
    };
    if !site.join(crate::output::MARKER).is_file() {
        return Err(not_a_site(format!("it has no {}", crate::output::MARKER)));
    }
    let path = site.join(files::HEADERS);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| not_a_site(format!("its {} cannot be read: {e}", files::HEADERS)))?;
    crate::serve::rules::HeaderRules::parse(&text, &path).map_err(|e| not_a_site(e.to_string()))
}
