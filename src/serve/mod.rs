//! `ontosite serve`: a built site over HTTP, answered as the CDN answers it.
//!
//! Serving reads only what the build wrote: the files, `_headers` and
//! `_redirects` ([`rules`]), and `/all` for the Rust search ([`site`]).
//! [`path`] keeps every request inside the site directory; [`handler`]
//! answers one request, [`encoding`] compresses; this module runs the HTTP
//! stack (hyper) and, with `--watch`, rebuilds and swaps in
//! the new site.

mod connections;
pub mod encoding;
pub mod handler;
pub mod path;
mod range;
pub mod rules;
pub mod search_index;
pub mod site;

use crate::build::{self, BuildReport};
use crate::config::BuildConfig;
use arc_swap::ArcSwap;
use handler::{Body, Prepared};
use http::{Method, Request, Response};
use quick_cache::sync::Cache;
use site::{SiteError, Snapshot};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Settings of one `serve`.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// The built site to serve.
    pub dir: PathBuf,
    /// Where to listen; port 0 takes any free port.
    pub addr: SocketAddr,
    /// Build from this input into `dir` before serving.
    pub build: Option<BuildConfig>,
    /// Rebuild when the input changes (needs `build`).
    pub watch: bool,
    /// Answer as a host that runs code (Netlify, Cloudflare Pages):
    /// `/search` and content negotiation. Without it, as GitHub Pages or
    /// S3 would: files and host rules only.
    pub runs_code: bool,
}

/// What the server reports as it runs, for the binary to print.
#[derive(Debug)]
pub enum Event {
    Built(BuildReport),
    /// Listening at this URL.
    Listening(String),
    /// The input changed; a rebuild started.
    Rebuilding,
    /// A rebuild was swapped in.
    Rebuilt(BuildReport),
    /// Another process built a new site into the directory; it is served
    /// now.
    Reloaded,
    /// A rebuild failed; the last good site is still served.
    RebuildFailed(crate::Error),
    Stopped,
}

/// Why the server cannot run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Site(#[from] SiteError),
    #[error(
        "cannot listen on {addr}: {source}\n  help: choose another --port (0 takes any free one) or --host"
    )]
    Listen {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot watch `{}` for changes: {source}", path.display())]
    Watch {
        path: PathBuf,
        #[source]
        source: notify::Error,
    },
    #[error("cannot follow `{}` for new builds: {source}", path.display())]
    Follow {
        path: PathBuf,
        #[source]
        source: notify::Error,
    },
    #[error("--watch needs an input to rebuild from\n  help: add --input DIR")]
    WatchWithoutInput,
    #[error("the HTTP server failed: {0}")]
    Io(#[from] std::io::Error),
}

/// A site being served, with the answers already given from it. Swapped
/// whole when a rebuild lands, so no answer outlives its site.
pub struct Generation {
    site: Snapshot,
    answers: Cache<String, Arc<Prepared>, Weight>,
}

/// Answers the cache keeps, in bytes: a preview of a large site must not
/// hold all of it in memory.
const CACHE_BYTES: u64 = 256 << 20;

#[derive(Clone)]
struct Weight;

impl quick_cache::Weighter<String, Arc<Prepared>> for Weight {
    fn weight(&self, key: &String, answer: &Arc<Prepared>) -> u64 {
        key.len() as u64 + answer.weight()
    }
}

impl Generation {
    pub fn new(site: Snapshot) -> Generation {
        let files = site.entities() * 2 + 16;
        Generation {
            site,
            answers: Cache::with_weighter(files, CACHE_BYTES, Weight),
        }
    }
}

type Current = Arc<ArcSwap<Generation>>;

/// Threads per worker for what blocks (reading files, searching what the
/// caches do not hold). The work is the CPU's, which has only so many
/// cores; each further thread keeps its own allocator's freed memory. At
/// a million entities, 3,000 varied queries at 64 connections: peak RSS
/// 577-667 MB with tokio's default of 512, 254-291 MB with 4, and the
/// same rate and p99 (`docs/benchmarks.md`).
const BLOCKING_THREADS: usize = 4;

/// What every request is answered from: every path goes to the one
/// handler; answers from files are kept per site, the rest computed on
/// the blocking pool (reading files and searching block).
#[derive(Clone)]
pub struct Served {
    current: Current,
    runs_code: bool,
}

impl Served {
    /// The answer to one request; its body, if any, is never read. A
    /// HEAD is answered as its GET, with the length and no body: hyper
    /// leaves the body out over HTTP/1.1 but sends it over HTTP/2.
    pub async fn answer<B>(self, request: Request<B>) -> Response<Body> {
        let head = request.method() == Method::HEAD;
        let response = self.respond(request).await;
        if !head {
            return response;
        }
        let (mut parts, body) = response.into_parts();
        if let Some(length) = hyper::body::Body::size_hint(&body).exact()
            && parts.status.is_success()
            && !parts.headers.contains_key(http::header::CONTENT_LENGTH)
        {
            parts
                .headers
                .insert(http::header::CONTENT_LENGTH, length.into());
        }
        Response::from_parts(parts, Body::default())
    }

    async fn respond<B>(self, request: Request<B>) -> Response<Body> {
        let Served { current, runs_code } = self;
        // A guard, not a reference count, on the path that answers from
        // the cache; the blocking path below takes a counted reference.
        let generation = current.load();
        let (parts, _) = request.into_parts();
        let cacheable_method = matches!(parts.method, Method::GET | Method::HEAD);
        let key = handler::cache_key(&generation.site, &parts.uri, &parts.headers, runs_code);
        if cacheable_method && let Some(prepared) = generation.answers.get(&key) {
            return handler::finish(&prepared, &parts.headers);
        }
        if let Some(prepared) =
            handler::answer_from_memory(&generation.site, &parts.method, &parts.uri, runs_code)
        {
            return handler::finish(&prepared, &parts.headers);
        }
        let generation = arc_swap::Guard::into_inner(generation);
        // Reading files and searching block: off the async workers.
        tokio::task::spawn_blocking(move || {
            let prepared = handler::answer(
                &generation.site,
                &parts.method,
                &parts.uri,
                &parts.headers,
                runs_code,
            );
            let response = handler::finish(&prepared, &parts.headers);
            if cacheable_method && prepared.cacheable {
                generation.answers.insert(key, Arc::new(prepared));
            }
            response
        })
        .await
        .unwrap_or_else(|_| {
            Response::builder()
                .status(500)
                .body(Body::from("the handler failed"))
                .expect("valid parts")
        })
    }
}

/// Builds (if asked), loads the site, listens, and serves until Ctrl-C.
pub fn run(
    config: ServeConfig,
    events: impl Fn(Event) + Send + Sync + 'static,
) -> Result<(), crate::Error> {
    if config.watch && config.build.is_none() {
        return Err(ServeError::WatchWithoutInput.into());
    }
    let events = Arc::new(events);
    if let Some(build_config) = &config.build {
        let report = build::build(build_config, &AtomicBool::new(false), &build::Silent)?;
        events(Event::Built(report));
    }
    let current: Current = Arc::new(ArcSwap::from_pointee(Generation::new(
        Snapshot::load(&config.dir).map_err(ServeError::from)?,
    )));
    let (addr, sockets) = bind(config.addr)?;
    let admission = Arc::new(connections::Admission::new(connections::connection_limit()));
    let _watcher = match (&config.build, config.watch) {
        (Some(build_config), true) => watch::start(
            build_config.clone(),
            config.dir.clone(),
            Arc::clone(&current),
            Arc::clone(&events),
        )?,
        _ => watch::follow(
            config.dir.clone(),
            Arc::clone(&current),
            Arc::clone(&events),
        )?,
    };
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let workers: Vec<_> = sockets
        .into_iter()
        .map(|socket| {
            let current = Arc::clone(&current);
            let admission = Arc::clone(&admission);
            let stopping = stopping.clone();
            let runs_code = config.runs_code;
            std::thread::spawn(move || -> std::io::Result<()> {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .max_blocking_threads(BLOCKING_THREADS)
                    .build()?;
                runtime.block_on(connections::serve(
                    socket,
                    Served { current, runs_code },
                    admission,
                    stopping,
                ))
            })
        })
        .collect();
    events(Event::Listening(format!("http://{addr}/")));
    let signals = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServeError::from)?;
    let _ = signals.block_on(tokio::signal::ctrl_c());
    let _ = stop.send(true);
    for worker in workers {
        worker
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("a server thread panicked")))
            .map_err(ServeError::from)?;
    }
    events(Event::Stopped);
    Ok(())
}

/// The address served, and one listening socket per core on it. One
/// single-threaded runtime per core, each with its own socket on the same
/// port (SO_REUSEPORT): the kernel spreads the connections, and no request
/// crosses threads, as nginx's workers do.
fn bind(
    wanted: std::net::SocketAddr,
) -> Result<(std::net::SocketAddr, Vec<std::net::TcpListener>), ServeError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // A plain bind first: it fails where any program, another `ontosite
    // serve` with shared sockets included, already listens, instead of
    // quietly splitting the connections with it. It also picks the port
    // for `--port 0`.
    let addr = std::net::TcpListener::bind(wanted)
        .and_then(|probe| probe.local_addr())
        .map_err(|source| ServeError::Listen {
            addr: wanted,
            source,
        })?;
    let sockets = (0..threads)
        .map(|_| connections::listen(addr).map_err(|source| ServeError::Listen { addr, source }))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((addr, sockets))
}

mod watch {
    //! `--watch`: rebuild when the input changes, then swap the new site in
    //! whole. The previous site's files stay until no request reads them.

    use super::*;
    use notify::{RecursiveMode, Watcher};
    use std::path::Path;
    use std::sync::Mutex;
    use std::sync::mpsc;

    /// How long the input must be quiet before a rebuild: editors and
    /// generators write several files per change.
    const QUIET: Duration = Duration::from_millis(200);

    pub fn start(
        config: BuildConfig,
        dir: PathBuf,
        current: Current,
        events: Arc<impl Fn(Event) + Send + Sync + 'static>,
    ) -> Result<Watching, ServeError> {
        let out = dir.canonicalize().unwrap_or(dir.clone());
        let inputs: Vec<PathBuf> = std::iter::once(&config.input)
            .chain(&config.templates)
            .map(|p| p.canonicalize().unwrap_or(p.clone()))
            .collect();
        // Each input by path, not by inode: its parent is watched too, so
        // an input directory replaced whole (`mv in in.bak; cp -a in.bak
        // in`, a checkout of another branch) is seen and watched anew.
        // Watching the inode alone went on following `in.bak`, silently.
        let mut watched: Vec<(PathBuf, RecursiveMode)> = inputs
            .iter()
            .map(|p| (p.clone(), RecursiveMode::Recursive))
            .collect();
        watched.extend(
            inputs
                .iter()
                .filter_map(|p| Some((p.parent()?.to_path_buf(), RecursiveMode::NonRecursive))),
        );
        let relevant = inputs.clone();
        on_changes(
            &watched,
            QUIET,
            // A change inside an input (or of an input itself), not in our
            // own output where it lies inside the input.
            move |event| {
                event
                    .paths
                    .iter()
                    .any(|p| relevant.iter().any(|i| p.starts_with(i)) && !p.starts_with(&out))
            },
            move |watcher| {
                for input in &inputs {
                    watcher.follow(input);
                }
                events(Event::Rebuilding);
                rebuild(&config, &dir, &current, &*events);
            },
        )
        .map_err(|(path, source)| ServeError::Watch { path, source })
    }

    /// A watcher, kept alive by the server; the thread that acts on its
    /// events holds it weakly, so dropping this stops both.
    pub struct Watching(#[allow(dead_code)] Arc<Mutex<Watched>>);

    /// A watcher and the directory each path it watches recursively was
    /// when it was watched.
    pub struct Watched {
        watcher: notify::RecommendedWatcher,
        inodes: std::collections::HashMap<PathBuf, Option<(u64, u64)>>,
    }

    impl Watched {
        /// Watches `path` anew where it is no longer the directory that
        /// was watched (replaced, or back after it was gone).
        fn follow(&mut self, path: &Path) {
            let now = identity(path);
            if self.inodes.get(path) == Some(&now) {
                return;
            }
            let _ = self.watcher.unwatch(path);
            let watching =
                now.is_some() && self.watcher.watch(path, RecursiveMode::Recursive).is_ok();
            self.inodes
                .insert(path.to_owned(), if watching { now } else { None });
        }
    }

    /// A directory's device and inode, while it exists.
    fn identity(path: &Path) -> Option<(u64, u64)> {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }

    /// Calls `act` once `paths` have had no content change for `quiet`
    /// after one that `relevant` accepts, on a thread of its own, for as
    /// long as the returned watcher lives.
    fn on_changes(
        paths: &[(PathBuf, RecursiveMode)],
        quiet: Duration,
        relevant: impl Fn(&notify::Event) -> bool + Send + 'static,
        mut act: impl FnMut(&mut Watched) + Send + 'static,
    ) -> Result<Watching, (PathBuf, notify::Error)> {
        let (tx, rx) = mpsc::channel::<()>();
        let first = paths.first().map(|(p, _)| p.clone()).unwrap_or_default();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                if let Ok(event) = event
                    && is_change(&event.kind)
                    && relevant(&event)
                {
                    let _ = tx.send(());
                }
            })
            .map_err(|e| (first, e))?;
        let mut inodes = std::collections::HashMap::new();
        for (path, mode) in paths {
            watcher.watch(path, *mode).map_err(|e| (path.clone(), e))?;
            if *mode == RecursiveMode::Recursive {
                inodes.insert(path.clone(), identity(path));
            }
        }
        let watched = Arc::new(Mutex::new(Watched { watcher, inodes }));
        let weak = Arc::downgrade(&watched);
        std::thread::spawn(move || {
            while rx.recv().is_ok() {
                while rx.recv_timeout(quiet).is_ok() {}
                let Some(watched) = weak.upgrade() else {
                    return;
                };
                let mut watched = watched.lock().unwrap_or_else(|e| e.into_inner());
                act(&mut watched);
            }
        });
        Ok(Watching(watched))
    }

    /// Whether an event changes content: a file created, written, removed
    /// or renamed. Opening, reading and closing a file (which every build
    /// does to the whole input) or touching its access time change nothing;
    /// reacting to them made each build start the next.
    fn is_change(kind: &notify::EventKind) -> bool {
        use notify::EventKind;
        use notify::event::{MetadataKind, ModifyKind};
        match kind {
            EventKind::Create(_) | EventKind::Remove(_) => true,
            EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)) => false,
            EventKind::Modify(_) => true,
            EventKind::Access(_) | EventKind::Any | EventKind::Other => false,
        }
    }

    /// Without `--watch`: notices when a build (another process) swaps a
    /// new site into `dir` and serves the new one whole. The server would
    /// otherwise keep the replaced directory, whose files the build
    /// deletes. The parent directory is watched, since the site's own
    /// directory is renamed away.
    pub fn follow(
        dir: PathBuf,
        current: Current,
        events: Arc<impl Fn(Event) + Send + Sync + 'static>,
    ) -> Result<Watching, ServeError> {
        let parent = dir
            .canonicalize()
            .unwrap_or(dir.clone())
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("/"));
        on_changes(
            &[(parent, RecursiveMode::NonRecursive)],
            Duration::from_millis(20),
            |_| true,
            move |_| {
                if !current.load().site.dir.replaced() {
                    return;
                }
                // Half-way through a swap, or no site yet: the next event
                // tries again; the old site is served until then.
                if let Ok(snapshot) = Snapshot::load(&dir) {
                    current.store(Arc::new(Generation::new(snapshot)));
                    events(Event::Reloaded);
                }
            },
        )
        .map_err(|(path, source)| ServeError::Follow { path, source })
    }

    fn rebuild(
        config: &BuildConfig,
        dir: &std::path::Path,
        current: &Current,
        events: &impl Fn(Event),
    ) {
        let (report, previous) =
            match build::build_keeping_previous(config, &AtomicBool::new(false), &build::Silent) {
                Ok(built) => built,
                Err(error) => return events(Event::RebuildFailed(error)),
            };
        match Snapshot::load(dir) {
            Ok(snapshot) => {
                let old = current.swap(Arc::new(Generation::new(snapshot)));
                // Requests that took the old site finish on it; its files
                // go once the last of them lets go.
                let deadline = std::time::Instant::now() + Duration::from_secs(30);
                while Arc::strong_count(&old) > 1 && std::time::Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(5));
                }
                drop(old);
                events(Event::Rebuilt(report));
            }
            Err(error) => events(Event::RebuildFailed(ServeError::from(error).into())),
        }
        if let Err(error) = previous.remove() {
            events(Event::RebuildFailed(error.into()));
        }
    }
}
