//! `ontosite publish`: a built site to object storage through the S3 API
//! (AWS S3, Cloudflare R2, Google Cloud Storage, Backblaze B2, Garage,
//! MinIO). It sends only what changed since the last publish, by content
//! hash against the record that publish left under the prefix, in the
//! order that keeps the published site whole (`plan`), each object with
//! the type and caching the site's own `_headers` rules give its path;
//! it removes only what an earlier publish wrote. An interrupted publish
//! leaves the record of the last one, so the next sends what is missing.

pub mod credentials;
pub mod delta;
pub mod plan;
pub mod record;
pub mod s3;
pub mod store;

use crate::output::chunks::covers;
use crate::output::objects::{self, Chunk};
use crate::site::files;
use futures_util::{StreamExt, TryStreamExt};
use plan::{Object, Plan};
use record::Recorder;
pub use s3::Endpoint;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
pub use store::Target;

#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error(
        "`{target}` is not a place to publish to: {why}\n  help: name the bucket and the prefix as s3://BUCKET/PREFIX"
    )]
    Target { target: String, why: String },
    #[error(
        "{url} cannot be an object key: {why}\n  help: ontosite never writes such a name; remove the file from the site, or build the site again"
    )]
    Key { url: String, why: String },
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
    /// The site could not be held against builds (`output::hold`): one is
    /// replacing it, another publish holds it, or a stopped build left it
    /// incomplete.
    #[error(transparent)]
    Site(#[from] crate::output::OutputError),
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
    /// What was sent, and copied within the store (`delta`), of the
    /// plan's objects: none on a dry run.
    pub moved: delta::Moved,
    /// Why the store took no part copied within it, where it took none:
    /// its large objects were then sent whole.
    pub copies_refused: Option<String>,
    /// Why each large object that changed was sent whole, where the
    /// store no longer held it as recorded (replaced or removed by
    /// another hand, or not readable with this key).
    pub not_held: Vec<String>,
    /// The objects sent other than the plan hashed them (their file not
    /// as the build listed it, or changed while sent): recorded with no
    /// hash, so that the next publish sends them again.
    pub unsure: Vec<String>,
    pub seconds: f64,
}

impl PublishReport {
    /// The bytes of the objects the plan sends.
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
    // Held to the end, from before the first file is read: every file is
    // read again as it is sent.
    let _held = crate::output::hold(&config.site)?;
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
        let store = s3::open(&target, &endpoint).await?;
        // The record is written only over the version read here: a
        // publish to the same prefix that wrote it meanwhile stops this
        // one.
        let (previous, version) = record::read(&store, &target).await?;
        Ok::<_, PublishError>((store, previous, version))
    });
    progress.phase(phase::HASHING, None);
    let site = match plan::objects(&config.site) {
        Ok(site) => site,
        Err((path, source)) => {
            // Not waiting for the record (a name lookup, a credential
            // process) to say what is wrong here.
            runtime.shutdown_background();
            return Err(PublishError::Read { path, source });
        }
    };
    let (plan, sent, copies_refused) = runtime.block_on(async {
        let (store, previous, version) = reading.await.map_err(|e| PublishError::Store {
            what: format!("could not read the record under {}", config.target.url("")),
            detail: store::scrubbed(&e.to_string()),
            help: "run publish again; where it fails alike, report it as a bug of ontosite",
        })??;
        let previous = previous.unwrap_or_default();
        let plan = Plan::of(&site.objects, &previous);
        if config.apply_cors && !config.dry_run {
            store.apply_cors(&config.target).await?;
        }
        if config.dry_run || plan.is_empty() {
            return Ok((plan, Sent::default(), None));
        }
        // The large objects to send as the store holds them: a recorded
        // object of no hash was claimed by a run that may have replaced it,
        // so what was recorded of it says nothing of it.
        let held: HashMap<String, Stored> = plan
            .uploads()
            .filter_map(|o| previous.get(&o.path))
            .filter(|o| !o.hash.is_empty() && covers(&o.chunks, o.bytes))
            .filter_map(|o| {
                let e_tag = o.e_tag.clone()?;
                let chunks = o.chunks.clone();
                Some((o.path.clone(), Stored { e_tag, chunks }))
            })
            .collect();
        // Where no copy can be made within the store, no object is cut.
        let refused: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
        let copying = Copying {
            copies: store.copies(),
            held: &held,
            refused: &refused,
            seen: &site.seen,
        };
        let send = |object: &Object| {
            let rules = rules.for_path(&format!("/{}", object.path));
            let headers = store::headers(&rules, &object.path);
            let file = config.site.join(&object.path);
            let (store, copying) = (&store, &copying);
            let object = object.clone();
            async move {
                let (target, path) = (&config.target, &object.path);
                let sent = if object.bytes >= store::MULTIPART_FROM {
                    send_large(store, target, &object, &file, &headers, copying).await?
                } else {
                    let bytes = tokio::fs::read(&file)
                        .await
                        .map_err(|source| PublishError::Read { path: file, source })?;
                    let as_planned = objects::hash(&bytes) == object.hash;
                    store::put(store, target, path, bytes, &headers).await?;
                    Sent::whole(&object).unless(as_planned, path)
                };
                progress.advance(1, object.bytes);
                Ok::<Sent, PublishError>(sent)
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
        record.note(
            plan.uploads()
                .map(|o| Object::new(o.path.clone(), String::new(), o.bytes)),
        );
        record.write().await?;
        progress.phase(phase::SENDING, Some(plan.uploads().count() as u64));
        let mut sent = Sent::default();
        for step in plan.steps() {
            sent.add(send_all(step, jobs, &send).await?);
        }
        // The objects to remove stay recorded until they are removed; one
        // whose file changed while it was sent, with no hash, as claimed.
        if plan.uploads().next().is_some() {
            let unsure: std::collections::HashSet<&String> = sent.unsure.iter().collect();
            record.note(plan.uploads().map(|o| {
                let hash = if unsure.contains(&o.path) {
                    String::new()
                } else {
                    o.hash.clone()
                };
                let mut recorded = Object::new(o.path.clone(), hash, o.bytes);
                if let Some(stored) = sent.stored.remove(&o.path) {
                    recorded.e_tag = Some(stored.e_tag);
                    recorded.chunks = stored.chunks;
                }
                recorded
            }));
            record.write().await?;
        }
        if !plan.removed.is_empty() {
            progress.phase(phase::REMOVING, Some(plan.removed.len() as u64));
            futures_util::stream::iter(
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
        let refused = refused.into_inner().ok().flatten();
        Ok::<_, PublishError>((plan, sent, refused))
    })?;
    Ok(PublishReport {
        plan,
        moved: sent.moved,
        copies_refused,
        not_held: sent.not_held,
        // In path order, not the order sends finished: the summary names
        // the first.
        unsure: {
            let mut unsure = sent.unsure;
            unsure.sort();
            unsure
        },
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Sends `objects`, `jobs` at once. After a failure no further object is
/// started, but those under way are finished, so that each ends its own
/// multipart upload (completed, or aborted on its own failure) rather
/// than be dropped half-way, left open in the store; then the first
/// failure is returned.
async fn send_all<'a, F>(
    objects: &'a [Object],
    jobs: usize,
    send: &impl Fn(&'a Object) -> F,
) -> Result<Sent, PublishError>
where
    F: std::future::Future<Output = Result<Sent, PublishError>>,
{
    let failed = std::sync::atomic::AtomicBool::new(false);
    let failed = &failed;
    let outcomes: Vec<Option<Result<Sent, PublishError>>> =
        futures_util::stream::iter(objects.iter().map(|object| async move {
            if failed.load(std::sync::atomic::Ordering::Relaxed) {
                return None;
            }
            let outcome = send(object).await;
            if outcome.is_err() {
                failed.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            Some(outcome)
        }))
        .buffer_unordered(jobs)
        .collect()
        .await;
    let mut all = Sent::default();
    for outcome in outcomes.into_iter().flatten() {
        all.add(outcome?);
    }
    Ok(all)
}

/// A large object as the store holds it: the entity tag it gave it
/// (copies are made from that version only) and its chunks.
struct Stored {
    e_tag: String,
    chunks: Vec<Chunk>,
}

/// What sending objects moved, why each large object the store no
/// longer held as recorded was sent whole, and how the store holds the
/// large ones sent, to record.
#[derive(Default)]
struct Sent {
    moved: delta::Moved,
    not_held: Vec<String>,
    stored: HashMap<String, Stored>,
    /// The objects whose bytes sent may not be those the plan hashed:
    /// their file changed (a build swapped a new site in, or a hand edited
    /// it) since the walk, or while they were sent.
    unsure: Vec<String>,
}

impl Sent {
    /// `object` sent whole, nothing recorded of how the store holds it.
    fn whole(object: &Object) -> Sent {
        Sent {
            moved: delta::Moved {
                sent: object.bytes,
                copied: 0,
            },
            ..Sent::default()
        }
    }

    /// As it is, or, where it was not sent `as_planned`, unsure.
    fn unless(mut self, as_planned: bool, path: &str) -> Sent {
        if !as_planned {
            self.unsure.push(path.to_owned());
        }
        self
    }

    fn add(&mut self, other: Sent) {
        self.moved = self.moved + other.moved;
        self.not_held.extend(other.not_held);
        self.stored.extend(other.stored);
        self.unsure.extend(other.unsure);
    }
}

/// What sending a large object needs of the run: whether copies can be
/// made within the store, the large objects
/// as the store holds them, and why the store took no copy, once it has
/// refused (no further one is tried), and how the walk saw the files
/// whose chunks the build listed.
struct Copying<'a> {
    copies: bool,
    held: &'a HashMap<String, Stored>,
    refused: &'a std::sync::Mutex<Option<String>>,
    seen: &'a HashMap<String, plan::Seen>,
}

/// Sends a large object: where the store holds chunks of it, as what
/// changed (`delta`), else whole; its chunks recorded where they are the
/// bytes sent (the file as hashed, unchanged while cut and sent). The
/// chunks are the build's where it listed them and the file is still the
/// one the walk saw, unchanged; else the file is read to cut it. A file
/// changed since the plan hashed it, or while it was sent, is recorded
/// with no hash, so that the next publish sends it again whatever the
/// store now holds.
async fn send_large(
    store: &s3::S3,
    target: &store::Target,
    object: &Object,
    file: &Path,
    headers: &store::Headers,
    copying: &Copying<'_>,
) -> Result<Sent, PublishError> {
    let path = &object.path;
    let store_refused = !copying.refused.lock().is_ok_and(|r| r.is_none());
    if !copying.copies || store_refused {
        let (_, sent) = store::put_large(store, target, path, file, headers).await?;
        return Ok(Sent::whole(object).unless(sent == object.hash, path));
    }
    let before = seen(file).await;
    let as_walked = before.is_some() && before.as_ref() == copying.seen.get(path);
    // The build's chunks, not read from the file: trusted as the plan
    // trusts the build's list, by the file's size and date, until what is
    // sent of them is checked.
    let as_listed = as_walked && !object.chunks.is_empty();
    let (chunks, whole) = if as_listed {
        (object.chunks.clone(), object.hash.clone())
    } else {
        chunks_of(file).await?
    };
    let assembly = copying.held.get(path).and_then(|held| {
        let parts = delta::assembly(&chunks, &held.chunks)?;
        Some((parts, held.e_tag.as_str()))
    });
    let mut sent = Sent::whole(object);
    let assembled = match assembly {
        Some((parts, e_tag)) => {
            let parts = (parts.as_slice(), e_tag);
            match delta::assemble(store, target, path, file, headers, parts).await {
                Ok(assembled) => {
                    let sent_as_planned =
                        !as_listed || delta::sent_as_listed(file, &chunks, parts.0).await?;
                    Some((assembled, sent_as_planned))
                }
                Err(delta::Unassembled::Failed(error)) => return Err(error),
                Err(delta::Unassembled::Refused { why, store_wide }) => {
                    if store_wide {
                        if let Ok(mut note) = copying.refused.lock() {
                            note.get_or_insert(why);
                        }
                    } else {
                        sent.not_held.push(why);
                    }
                    None
                }
            }
        }
        None => None,
    };
    // Where the store took no copy, or none was to be made, the object is
    // sent whole.
    let (e_tag, sent_as_planned) = match assembled {
        Some((assembled, sent_as_planned)) => {
            sent.moved = assembled.moved;
            (assembled.e_tag, sent_as_planned)
        }
        None => {
            let (e_tag, hash) = store::put_large(store, target, path, file, headers).await?;
            (e_tag, hash == object.hash)
        }
    };
    // Sent as cut, and the file the plan hashed: else the store may hold
    // other bytes than the plan's hash says.
    let as_planned =
        before.is_some() && seen(file).await == before && whole == object.hash && sent_as_planned;
    let mut sent = sent.unless(as_planned, path);
    sent.stored.extend(
        e_tag
            .filter(|_| as_planned)
            .map(|e_tag| (path.clone(), Stored { e_tag, chunks })),
    );
    Ok(sent)
}

/// How a status of `file` sees it now, not through a link; none where it
/// has none.
async fn seen(file: &Path) -> Option<plan::Seen> {
    let metadata = tokio::fs::symlink_metadata(file).await.ok()?;
    Some(plan::Seen::of_metadata(&metadata))
}

/// The chunks of the large object in `file`, cut beside the uploads, and
/// the hash of the whole.
async fn chunks_of(file: &Path) -> Result<(Vec<Chunk>, String), PublishError> {
    let owned = file.to_owned();
    let cut = tokio::task::spawn_blocking(move || crate::output::chunks::of_file(&owned)).await;
    let read = cut.unwrap_or_else(|e| Err(std::io::Error::other(e)));
    read.map_err(|source| PublishError::Read {
        path: file.to_owned(),
        source,
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
