//! The built site on the hosts' real runtimes: Cloudflare Pages through
//! `wrangler pages dev` (workerd, with Pages' own handling of `_worker.js`,
//! `_routes.json`, `_headers` and `_redirects`), and the Netlify Edge
//! Function in real Deno. Every endpoint is compared with `ontosite serve`,
//! `/search` byte for byte over a sample of the golden queries.

use crate::publish::header_of;
use crate::search::{Params, golden_queries};
use crate::serve::{Server, client, shipped_site};
use crate::util::*;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The compatibility date the Pages project is run with: one the pinned
/// workerd supports (a date past its build refuses to start).
const COMPATIBILITY_DATE: &str = "2026-04-01";

fn runtime_bin(name: &str) -> PathBuf {
    root().join("tests/runtimes/node_modules/.bin").join(name)
}

/// A host runtime serving the site, killed on drop.
struct Host {
    child: Child,
    url: String,
    log: Arc<Mutex<String>>,
    _cwd: tempfile::TempDir,
}

impl Drop for Host {
    /// Kills the runtime's whole process group: wrangler's workerd outlives
    /// a killed wrangler otherwise, and spins on the machine for good.
    fn drop(&mut self) {
        if let Some(group) = rustix::process::Pid::from_raw(self.child.id() as i32) {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Host {
    /// Starts `command` (its output collected) and waits until `url`
    /// (or the URL it announces as `listening on URL`) answers, or until
    /// the process ends or stays silent for a minute.
    fn start(mut command: Command, url: Option<String>) -> Host {
        let cwd = tempdir();
        let mut child = command
            // Its own process group, which `drop` kills whole.
            .process_group(0)
            .current_dir(cwd.path())
            // No telemetry, no prompts, no update checks: nothing leaves
            // the machine.
            .env("WRANGLER_SEND_METRICS", "false")
            .env("CI", "true")
            .env("DENO_NO_UPDATE_CHECK", "1")
            .env("XDG_CONFIG_HOME", cwd.path())
            .env("HOME", cwd.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting the host runtime");
        let log = Arc::new(Mutex::new(String::new()));
        // Every line read is sent on: a runtime that fills a bucket first
        // says how far it is, and only a minute of silence is a hang (on a
        // loaded machine filling the R2 bucket took more than a minute).
        let (sender, lines) = std::sync::mpsc::channel::<String>();
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let log = Arc::clone(&log);
            let sender = sender.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    // A poisoned log is a test that already panicked.
                    if let Ok(mut log) = log.lock() {
                        log.push_str(&line);
                        log.push('\n');
                    }
                    let _ = sender.send(line);
                }
            });
        }
        drop(sender);
        // Held from here, so that a panic below kills the runtime's group.
        let mut host = Host {
            child,
            url: url.unwrap_or_default(),
            log,
            _cwd: cwd,
        };
        // Ten minutes in all: a runtime that talks on and never listens
        // is a hang too.
        let given_up = Instant::now() + Duration::from_secs(600);
        while host.url.is_empty() {
            match lines.recv_timeout(Duration::from_secs(60)) {
                Ok(line) => {
                    if let Some(url) = line.strip_prefix("listening on ") {
                        host.url = url.to_owned();
                    }
                    assert!(
                        Instant::now() < given_up,
                        "the runtime never listened in ten minutes:\n{}",
                        host.log()
                    );
                }
                Err(why) => {
                    // Its output closes a moment before it can be reaped.
                    let mut status = None;
                    for _ in 0..20 {
                        status = host.child.try_wait().ok().flatten();
                        if status.is_some() {
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(50));
                    }
                    let why = match status {
                        Some(status) => format!("it exited ({status})"),
                        None => format!("{why}"),
                    };
                    panic!("the runtime never listened ({why}):\n{}", host.log())
                }
            }
        }
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            if let Some(status) = host.child.try_wait().unwrap() {
                panic!("the runtime exited ({status}):\n{}", host.log());
            }
            if client().get(&host.url).send().is_ok() {
                return host;
            }
            assert!(
                Instant::now() < deadline,
                "the runtime never answered:\n{}",
                host.log()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Cloudflare Pages: `wrangler pages dev DIST`, fully local. Its
    /// devtools inspector gets a free port too: by default every wrangler
    /// takes 9229, and two tests running at once collided there.
    fn cloudflare(site: &Path) -> Host {
        let free_port = || {
            std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port()
        };
        let port = free_port();
        let inspector = free_port();
        let mut command = Command::new(runtime_bin("wrangler"));
        command
            .args(["pages", "dev"])
            .arg(site)
            .args(["--ip", "127.0.0.1", "--port", &port.to_string()])
            .args(["--inspector-port", &inspector.to_string()])
            .args(["--compatibility-date", COMPATIBILITY_DATE])
            .args([
                "--log-level",
                "warn",
                "--show-interactive-dev-session=false",
            ]);
        Host::start(command, Some(format!("http://127.0.0.1:{port}/")))
    }

    /// Netlify's edge: the site's Edge Function in Deno for `/search`,
    /// every other path from `origin`.
    fn netlify(site: &Path, origin: &str) -> Host {
        let mut command = Host::deno(site, "netlify-edge.mjs");
        command
            .arg(site.join("_edge/netlify/search.js"))
            .arg(origin);
        Host::start(command, None)
    }

    /// Deno running `script` of tests/runtimes/, which may reach only
    /// loopback and read only the site.
    fn deno(site: &Path, script: &str) -> Command {
        let mut command = Command::new(runtime_bin("deno"));
        command
            .args(["run", "--no-prompt", "--allow-net=127.0.0.1"])
            .arg(format!("--allow-read={}", site.display()))
            .arg(root().join("tests/runtimes").join(script));
        command
    }

    /// The R2 Worker (`hosts::cloudflare_r2`) in workerd through
    /// Miniflare, over a local R2 bucket holding the objects `manifest`
    /// lists under `prefix`.
    fn r2(site: &Path, manifest: &Path, prefix: &str) -> Host {
        let mut command = Command::new("node");
        command
            .arg(root().join("tests/runtimes/r2-worker.mjs"))
            .arg(site.join(ontosite::hosts::cloudflare_r2::WORKER))
            .arg(manifest)
            .arg(prefix)
            .arg(COMPATIBILITY_DATE);
        Host::start(command, None)
    }

    /// The CloudFront Function (`hosts::object_storage`) in Deno, as
    /// CloudFront calls it, in front of a bucket holding the files of
    /// `site` (`origin`, `serve --static` over it, gives each file's bytes
    /// and headers).
    fn cloudfront(site: &Path, origin: &str) -> Host {
        let mut command = Host::deno(site, "cloudfront-function.mjs");
        command
            .arg(site.join(ontosite::hosts::object_storage::CLOUDFRONT_FUNCTION))
            .arg(site)
            .arg(origin);
        Host::start(command, None)
    }

    fn log(&self) -> String {
        // A poisoned log is one a reader held when a test panicked.
        let log = self.log.lock();
        log.map(|log| log.clone()).unwrap_or_default()
    }
}

/// What a client sees of one answer.
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    headers: Vec<(&'static str, Option<String>)>,
    body: Vec<u8>,
}

const COMPARED: [&str; 6] = [
    "content-type",
    "access-control-allow-origin",
    "cache-control",
    "x-content-type-options",
    "link",
    "location",
];

fn answer(base: &str, path: &str) -> Answer {
    let url = format!("{}{}", base.trim_end_matches('/'), path);
    let response = client()
        .get(&url)
        .send()
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    let status = response.status().as_u16();
    let headers = COMPARED
        .iter()
        .map(|name| {
            let value = response.headers().get(*name);
            (*name, value.map(|v| v.to_str().unwrap().to_owned()))
        })
        .collect();
    Answer {
        status,
        headers,
        body: response.bytes().unwrap().to_vec(),
    }
}

/// `/search?...` for a golden query's parameters.
fn search_path((q, limit, offset): &Params) -> String {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    for (name, value) in [("q", q), ("limit", limit), ("offset", offset)] {
        if let Some(value) = value {
            query.append_pair(name, value);
        }
    }
    format!("/search?{}", query.finish())
}

/// Every endpoint of the site once, then every 40th golden query.
fn sample_paths() -> Vec<String> {
    let ontology = ontosite::source::load(&shipped_input(), None).expect("the input loads");
    let slug = ontology.entities[0].slug.as_str().to_owned();
    let mut paths: Vec<String> = [
        "/",
        "/index.json",
        "/index.jsonld",
        "/all",
        "/pages/index/2.json",
        "/pages/index/2.jsonld",
        "/pages/all/3.json",
        "/context.jsonld",
        "/json-context.jsonld",
        "/openapi.json",
        "/search-index.json",
        "/search.js",
        "/home",
        "/ui/site.css",
        "/search",
        "/search?q=",
        // Files the build writes for the hosts and itself: never published.
        "/_headers",
        "/_redirects",
        "/_routes.json",
        "/_worker.js",
        "/_edge/netlify/search.js",
        "/_edge/cloudflare-r2/worker.js",
        "/_edge/cloudfront/function.js",
        "/_aliases.json",
        "/.ontosite-output",
        "/.ontosite-record",
    ]
    .map(String::from)
    .into();
    for page in ["json", "jsonld"].map(|extension| format!("/{slug}.{extension}")) {
        paths.push(page);
    }
    // Pretty URLs: a page without its `.html`.
    paths.push(format!("/{slug}"));
    paths.extend(
        golden_queries(&ontology)
            .iter()
            .step_by(40)
            .map(search_path),
    );
    paths
}

/// Compares every sampled path on `host` with `ontosite serve`.
fn assert_same_as_serve(host: &Host, server: &Server, name: &str, paths: &[String]) {
    let mut differences = Vec::new();
    for path in paths {
        let expected = answer(&server.url, path);
        let got = answer(&host.url, path);
        if got != expected {
            differences.push(format!(
                "{path}: {name} {} {:?} ({} bytes), serve {} {:?} ({} bytes)",
                got.status,
                got.headers,
                got.body.len(),
                expected.status,
                expected.headers,
                expected.body.len()
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} paths differ from serve:\n{}\n{name}'s log:\n{}",
        differences.len(),
        paths.len(),
        differences[..differences.len().min(10)].join("\n"),
        host.log()
    );
}

fn header<'a>(answer: &'a Answer, name: &str) -> Option<&'a str> {
    answer
        .headers
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, v)| v.as_deref())
}

/// What a client sees of a negotiated answer: status, where it is sent,
/// whether the answer says it varies by `Accept`, the media type, body.
fn negotiated(
    base: &str,
    path: &str,
    accept: Option<&str>,
) -> (u16, Option<String>, bool, String, Vec<u8>) {
    let mut request = client().get(format!("{}{}", base.trim_end_matches('/'), path));
    if let Some(accept) = accept {
        request = request.header("Accept", accept);
    }
    let response = request.send().unwrap_or_else(|e| panic!("{path}: {e}"));
    let headers = response.headers();
    let location = headers
        .get("location")
        .map(|v| v.to_str().unwrap().to_owned());
    let varies = headers
        .get_all("vary")
        .iter()
        .flat_map(|v| v.to_str().unwrap().split(','))
        .any(|v| v.trim().eq_ignore_ascii_case("accept"));
    let media_type = headers.get("content-type").map_or(String::new(), |v| {
        v.to_str().unwrap().split(';').next().unwrap().to_owned()
    });
    (
        response.status().as_u16(),
        location,
        varies,
        media_type,
        response.bytes().unwrap().to_vec(),
    )
}

/// Every negotiated IRI (and a missing entity) under Accept headers that
/// real clients send: the host answers as `serve` does.
fn assert_negotiates_as_serve(host: &Host, server: &Server, name: &str) {
    let paths = [
        "/",
        "/.well-known/void",
        "/vocab",
        "/index",
        "/abbcreateitem",
        "/zoteroupdateitem",
        "/nosuchentity",
    ];
    assert_negotiates_at(host, server, name, &paths);
}

/// The negotiated `paths` under Accept headers that real clients send:
/// the host answers as `serve` does.
fn assert_negotiates_at(host: &Host, server: &Server, name: &str, paths: &[&str]) {
    assert_negotiates_alike(host, server, name, paths, |_, _| {});
}

/// What a client sees of a negotiated answer ([`negotiated`]).
type Negotiated = (u16, Option<String>, bool, String, Vec<u8>);

/// [`assert_negotiates_at`], with the host's answer and serve's each
/// made comparable by `alike` first (what a host cannot do, left out).
fn assert_negotiates_alike(
    host: &Host,
    server: &Server,
    name: &str,
    paths: &[&str],
    alike: impl Fn(&mut Negotiated, &mut Negotiated),
) {
    let chrome = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8";
    let rdflib = "application/rdf+xml, text/n3, text/turtle, application/n-triples, application/ld+json;q=0.9, */*;q=0.1";
    let accepts = [
        None,
        Some("*/*"),
        Some("text/turtle"),
        Some("application/n-triples"),
        Some("application/ld+json"),
        Some("application/json"),
        Some("text/turtle;q=0.4, application/ld+json;q=0.8"),
        Some(chrome),
        Some(rdflib),
        Some("image/png"),
        // jsonld.js's document loader: a tie its order breaks (JSON-LD).
        Some("application/ld+json, application/json"),
        Some("application/json, application/ld+json"),
        Some("*/*, text/turtle"),
    ];
    let mut differences = Vec::new();
    for &path in paths {
        for accept in accepts {
            let mut expected = negotiated(&server.url, path, accept);
            let mut got = negotiated(&host.url, path, accept);
            alike(&mut got, &mut expected);
            // Cloudflare answers a missing page with its own 404 page.
            let comparable = |a: &Negotiated| {
                if a.0 == 404 {
                    (404, None, false, String::new(), Vec::new())
                } else {
                    a.clone()
                }
            };
            if comparable(&got) != comparable(&expected) {
                differences.push(format!(
                    "{path} Accept {accept:?}: {name} {} {:?} vary {} {} ({} bytes), serve {} {:?} vary {} {} ({} bytes)",
                    got.0, got.1, got.2, got.3, got.4.len(), expected.0, expected.1, expected.2, expected.3, expected.4.len()
                ));
            }
        }
    }
    assert!(
        differences.is_empty(),
        "{}\n{name}'s log:\n{}",
        differences.join("\n"),
        host.log()
    );
}

#[test]
fn cloudflare_pages_in_workerd_answers_as_serve() {
    needs!(WORKERD, JSONLD_JS, PYOXIGRAPH);
    let site = shipped_site();
    let server = Server::dir(site);
    let host = Host::cloudflare(site);
    let paths = sample_paths();
    assert!(paths.len() > 300, "only {} paths sampled", paths.len());
    assert_same_as_serve(&host, &server, "workerd", &paths);
    assert_negotiates_as_serve(&host, &server, "workerd");
    crate::linked_data::assert_jsonld_js_dereferences(site, &host.url, "workerd");
    crate::dereference::assert_crawl_gathers_the_dump(site, &host.url, "workerd");

    // What Pages does on its own, as docs/hosts.md's matrix says. It
    // redirects a page's `.html` name to the pretty URL...
    let page = answer(&host.url, "/abbcreateitem.html");
    assert_eq!(page.status, 308);
    assert_eq!(header(&page, "location"), Some("/abbcreateitem"));
    // ...and answers an unknown path with its 404.html page, never cached
    // (Pages skips `_redirects` rules with status 404).
    for path in ["/nope", "/nope.json"] {
        let missing = answer(&host.url, path);
        assert_eq!(missing.status, 404, "{path}");
        assert_eq!(
            header(&missing, "cache-control"),
            Some("no-store"),
            "{path}"
        );
        assert_eq!(
            missing.body,
            std::fs::read(site.join("404.html")).unwrap(),
            "{path}"
        );
    }
    // Pages' asset server refuses OPTIONS on a static file; `/search`,
    // answered by the worker, takes preflights.
    let options = |path: &str| {
        client()
            .request(
                reqwest::Method::OPTIONS,
                format!("{}{}", host.url.trim_end_matches('/'), path),
            )
            .header("Origin", "https://elsewhere.example")
            .header("Access-Control-Request-Method", "GET")
            .send()
            .unwrap()
            .status()
            .as_u16()
    };
    assert_eq!(options("/index.json"), 405);
    assert_eq!(options("/search?q=git"), 204);
}

#[test]
fn netlify_edge_function_in_deno_answers_as_serve() {
    needs!(DENO, SEARCH_JS, JSONLD_JS, PYOXIGRAPH);
    let site = shipped_site();
    let server = Server::dir(site);
    // Netlify's static side runs no code: the function does.
    let origin = Server::start(&["--dir".as_ref(), site.as_os_str(), "--static".as_ref()]);
    let host = Host::netlify(site, &origin.url);
    let searches: Vec<String> = sample_paths()
        .into_iter()
        .filter(|p| p.starts_with("/search"))
        .collect();
    assert!(searches.len() > 250);
    assert_same_as_serve(&host, &server, "deno", &searches);
    assert_negotiates_as_serve(&host, &server, "deno");
    crate::linked_data::assert_jsonld_js_dereferences(site, &host.url, "deno");
    crate::dereference::assert_crawl_gathers_the_dump(site, &host.url, "deno");
}

/// The shipped site with its entities' documents bundled
/// (`site::bundles`), as a build for a host whose file limits a file per
/// document would pass makes it.
fn bundled_shipped_site() -> &'static Path {
    static SITE: std::sync::OnceLock<(tempfile::TempDir, std::path::PathBuf)> =
        std::sync::OnceLock::new();
    &SITE
        .get_or_init(|| {
            let dir = tempdir();
            let out = dir.path().join("dist");
            let output = build(&shipped_input(), &out, &["--layout", "bundled"]);
            assert!(output.status.success(), "{}", stderr(&output));
            assert!(out.join("entity-bundles/index.json").exists());
            (dir, out)
        })
        .1
}

/// Every document of every 40th entity, and pages by their pretty URLs,
/// with the site-wide paths: where the documents are bundled, the host's
/// handler answers each of them.
fn bundled_paths() -> Vec<String> {
    let ontology = ontosite::source::load(&shipped_input(), None).expect("the input loads");
    let mut paths: Vec<String> = sample_paths()
        .into_iter()
        .filter(|path| !path.starts_with("/search?"))
        .collect();
    for entity in ontology.entities.iter().step_by(40) {
        let slug = entity.slug.as_str();
        for format in ontosite::site::formats::ENTITY_FORMATS {
            paths.push(format!("/{slug}.{}", format.extension));
        }
        paths.push(format!("/{slug}"));
    }
    paths.push("/index.ttl".to_owned());
    paths
}

/// What a client's cache and a wrong method see of a bundled document on
/// a host: an entity tag that a second request's `If-None-Match` gets a
/// 304 with, a `HEAD` without a body, and no document for a `POST`.
fn assert_bundled_answers_are_http(host: &Host, name: &str) {
    let url = format!("{}abbcreateitem.jsonld", host.url);
    let first = client().get(&url).send().unwrap();
    assert_eq!(first.status().as_u16(), 200, "{name}");
    let tag = first.headers()["etag"].to_str().unwrap().to_owned();
    assert!(
        tag.starts_with("W/\"") && tag.ends_with("-abbcreateitem\""),
        "{name}: {tag}"
    );
    let again = client()
        .get(&url)
        .header("If-None-Match", &tag)
        .send()
        .unwrap();
    assert_eq!(again.status().as_u16(), 304, "{name}");
    let head = client().head(&url).send().unwrap();
    assert_eq!(head.status().as_u16(), 200, "{name}");
    assert!(head.bytes().unwrap().is_empty(), "{name}");
    let post = client().post(&url).send().unwrap();
    assert_ne!(post.status().as_u16(), 200, "{name}");
}

#[test]
fn bundled_documents_answer_on_cloudflare_as_serve() {
    needs!(WORKERD);
    let site = bundled_shipped_site();
    assert!(!site.join("abbcreateitem.json").exists());
    let server = Server::dir(site);
    let host = Host::cloudflare(site);
    let paths = bundled_paths();
    assert!(paths.len() > 300, "only {} paths", paths.len());
    assert_same_as_serve(&host, &server, "workerd", &paths);
    assert_negotiates_as_serve(&host, &server, "workerd");
    // An entity no bundle holds gets Pages' own 404, as a missing file does.
    assert_bundled_answers_are_http(&host, "workerd");
    let missing = answer(&host.url, "/nosuchentity.json");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.body, std::fs::read(site.join("404.html")).unwrap());
    // And they are what the files of the same site hold, byte for byte.
    let files = shipped_site();
    for path in paths
        .iter()
        .filter(|p| p.ends_with(".ttl") || p.ends_with(".json"))
        .take(40)
    {
        let file = files.join(path.trim_start_matches('/'));
        if file.exists() && !site.join(path.trim_start_matches('/')).exists() {
            assert_eq!(
                answer(&host.url, path).body,
                std::fs::read(&file).unwrap(),
                "{path}"
            );
        }
    }
}

#[test]
fn bundled_documents_answer_on_netlify_as_serve() {
    needs!(DENO);
    let site = bundled_shipped_site();
    let server = Server::dir(site);
    // Netlify's static side runs no code: the function answers them.
    let origin = Server::start(&["--dir".as_ref(), site.as_os_str(), "--static".as_ref()]);
    let host = Host::netlify(site, &origin.url);
    let mut paths = bundled_paths();
    paths.extend(["/nosuchentity.json", "/nosuchentity.ttl", "/vocab.html"].map(String::from));
    assert_same_as_serve(&host, &server, "deno", &paths);
    assert_negotiates_as_serve(&host, &server, "deno");
    assert_bundled_answers_are_http(&host, "deno");
}

/// The documents a host that runs code answers joined from their parts
/// and pages, where the site is built in parts.
const WHOLES: [&str; 7] = [
    "dump.nt",
    "dump.ttl",
    "index.nt",
    "index.ttl",
    "all",
    "index.json",
    "index.jsonld",
];

/// The shipped site built into `dir/dist` for `host` with its limit per
/// file lowered to 650 kB: none of [`WHOLES`] is written whole.
fn parted_shipped_site(dir: &Path, host: &str) -> PathBuf {
    let site = dir.join("dist");
    let output = build_command(&shipped_input(), &site, &["--host", host])
        .env("ONTOSITE_HOST_LIMITS", "file-bytes=650000")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    for whole in WHOLES {
        assert!(!site.join(whole).exists(), "{whole} was written whole");
    }
    site
}

/// The shipped site built for R2 with its big documents in parts (the
/// limit lowered to 650 kB, as `--part-size` cuts a large site's into
/// parts of 1 MiB and more), published to a real S3
/// server and its objects in a local R2 bucket: the R2 Worker in workerd
/// answers every whole, and the parts, as `serve` joins them.
#[test]
fn the_r2_worker_joins_the_parts_of_a_published_bucket() {
    needs!(WORKERD, crate::publish::GARAGE);
    let dir = tempdir();
    let site = parted_shipped_site(dir.path(), "cloudflare-r2");
    let garage = crate::publish::start();
    let output = crate::publish::publish(&garage, &site, "parts", &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let objects = dir.path().join("objects");
    std::fs::create_dir(&objects).unwrap();
    let manifest = r2_objects(&garage, &site, "parts", &objects);
    let host = Host::r2(&site, &manifest, "parts");
    let server = Server::dir(&site);
    let mut paths: Vec<String> = WHOLES.iter().map(|w| format!("/{w}")).collect();
    paths.extend(
        [
            "/dump-parts/2.nt",
            "/index-parts/1.ttl",
            "/pages/all/2.json",
            "/dump.nt.gz",
        ]
        .map(String::from),
    );
    for path in &paths {
        assert_eq!(answer(&host.url, path).status, 200, "{path}");
    }
    assert_same_as_serve(&host, &server, "the R2 worker (parts)", &paths);
    assert_negotiates_as_serve(&host, &server, "the R2 worker (parts)");
}

/// The shipped site built for a host that takes no file as large as its
/// big documents (a limit lowered to 650 kB): its RDF list and dump in
/// parts, its big JSON lists left to the handlers, its documents bundled.
/// The wholes' paths answer on each host, and through `serve`, as joined
/// from the parts and the pages: the JSON lists and the N-Triples list
/// byte for byte the files a site without a host has.
#[test]
fn whole_documents_answer_from_their_parts_on_every_host() {
    needs!(WORKERD, DENO);
    let dir = tempdir();
    let site = parted_shipped_site(dir.path(), "cloudflare");
    let wholes = WHOLES;
    let joined = |parted: &str, extension: &str| {
        let mut whole = Vec::new();
        for k in 1.. {
            match std::fs::read(site.join(format!("{parted}-parts/{k}.{extension}"))) {
                Ok(part) => whole.extend(part),
                Err(_) => break,
            }
        }
        whole
    };
    let whole_nt = joined("dump", "nt");
    assert!(whole_nt.len() > 3_000_000, "{} bytes", whole_nt.len());
    let server = Server::dir(&site);
    let cloudflare = Host::cloudflare(&site);
    let origin = Server::start(&["--dir".as_ref(), site.as_os_str(), "--static".as_ref()]);
    let netlify = Host::netlify(&site, &origin.url);
    let mut paths: Vec<String> = wholes.iter().map(|w| format!("/{w}")).collect();
    paths.extend(
        [
            "/dump-parts/2.nt",
            "/index-parts/1.ttl",
            "/pages/all/2.json",
            "/dump.nt.gz",
            "/void.ttl",
        ]
        .map(String::from),
    );
    assert_same_as_serve(&cloudflare, &server, "workerd", &paths);
    assert_same_as_serve(&netlify, &server, "deno", &paths);
    assert!(answer(&server.url, "/dump.nt").body == whole_nt);
    assert!(answer(&server.url, "/dump.ttl").body == joined("dump", "ttl"));
    assert!(answer(&server.url, "/index.ttl").body == joined("index", "ttl"));
    // Joined from their pages, the JSON lists are the files themselves.
    let plain = shipped_site();
    let lists = ["index.nt", "all", "index.json", "index.jsonld"];
    assert_answers_the_files(&server, plain, lists.map(str::to_owned));
    // The data set's description lists every part of the dump as a dump.
    let void = String::from_utf8(std::fs::read(site.join("void.ttl")).unwrap()).unwrap();
    assert!(
        void.contains("dump-parts/1.nt>") && void.contains("dump-parts/1.ttl>"),
        "{void}"
    );
    // On a host without code the wholes are not there: the parts and the
    // pages are.
    let bare = Server::start(&["--dir".as_ref(), site.as_os_str(), "--static".as_ref()]);
    for path in ["/dump.nt", "/index.nt", "/all", "/index.json"] {
        assert_eq!(answer(&bare.url, path).status, 404, "{path}");
    }
    for path in ["/dump-parts/1.nt", "/index-parts/1.nt", "/pages/all/1.json"] {
        assert_eq!(answer(&bare.url, path).status, 200, "{path}");
    }
}

/// The shipped set as two releases, built for Cloudflare Pages with its
/// limit per file lowered to 650 kB: the root and both releases' copies
/// bundled, the copies' big documents in parts and pages too. Each
/// copy's wholes, documents and pages answer on Cloudflare in workerd and
/// Netlify in Deno as through `serve`, the JSON lists and N-Triples list
/// byte for byte the files a build without a host writes.
#[test]
fn a_release_s_wholes_and_documents_answer_in_its_copy_on_every_host() {
    needs!(WORKERD, DENO);
    let dir = tempdir();
    let input = dir.path().join("input");
    crate::releases::releases_of(&shipped_input(), &input, &["1", "2"]);
    let site = dir.path().join("dist");
    let output = build_command(&input, &site, &["--host", "cloudflare"])
        .env("ONTOSITE_HOST_LIMITS", "file-bytes=650000")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let plain = dir.path().join("plain");
    build_ok(&input, &plain);
    let slugs: Vec<String> = {
        let index = read_json(&plain.join("releases/1/index.json"));
        let slugs = strings_of(&index["items"], "slug");
        [slugs[0], slugs[slugs.len() / 2]]
            .map(str::to_owned)
            .to_vec()
    };
    let mut paths = Vec::new();
    for version in ["1", "2"] {
        let copy = format!("releases/{version}/");
        for whole in WHOLES {
            assert!(
                !site.join(format!("{copy}{whole}")).exists(),
                "{copy}{whole}"
            );
            paths.push(format!("/{copy}{whole}"));
        }
        for slug in &slugs {
            assert!(
                !site.join(format!("{copy}{slug}.json")).exists(),
                "{copy}{slug}"
            );
            for extension in ["json", "jsonld", "ttl", "nt", "html"] {
                paths.push(format!("/{copy}{slug}.{extension}"));
            }
        }
        paths.extend(
            [
                "dump-parts/2.nt",
                "pages/all/2.json",
                "api.json",
                "vocab.ttl",
            ]
            .map(|path| format!("/{copy}{path}")),
        );
    }
    let server = Server::dir(&site);
    let cloudflare = Host::cloudflare(&site);
    let origin = Server::start(&["--dir".as_ref(), site.as_os_str(), "--static".as_ref()]);
    let netlify = Host::netlify(&site, &origin.url);
    for path in &paths {
        assert_eq!(answer(&server.url, path).status, 200, "{path}");
    }
    assert_same_as_serve(&cloudflare, &server, "workerd", &paths);
    assert_same_as_serve(&netlify, &server, "deno", &paths);
    let pages: Vec<String> = slugs
        .iter()
        .map(|slug| format!("/releases/1/{slug}"))
        .collect();
    let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
    assert_negotiates_at(&cloudflare, &server, "workerd", &pages);
    assert_negotiates_at(&netlify, &server, "deno", &pages);
    // Joined, a copy's JSON lists and entities' documents are the files.
    for version in ["1", "2"] {
        let names = ["all", "index.json", "index.jsonld", "index.nt"]
            .into_iter()
            .map(str::to_owned)
            .chain(slugs.iter().map(|slug| format!("{slug}.jsonld")));
        let paths = names.map(|name| format!("releases/{version}/{name}"));
        assert_answers_the_files(&server, &plain, paths);
    }
}

/// `server` answers each of `paths` (from the root, without the leading
/// `/`) with the bytes of its file in the site `plain`.
fn assert_answers_the_files(
    server: &Server,
    plain: &Path,
    paths: impl IntoIterator<Item = String>,
) {
    for path in paths {
        let expected = std::fs::read(plain.join(&path)).unwrap();
        let got = answer(&server.url, &format!("/{path}"));
        assert!(
            got.body == expected,
            "/{path}: {} bytes, the file {}",
            got.body.len(),
            expected.len()
        );
    }
}

/// An ontology whose namespace resolves through the site: its own IRIs
/// (`/Person`, `/data_1501`, the case twins `/Text` and `/text`) answer on
/// Cloudflare and Netlify as through `serve`, and a crawl from `/`
/// through each gathers the dump.
#[test]
fn an_ontology_s_own_iris_resolve_on_every_host() {
    needs!(WORKERD, DENO, PYOXIGRAPH);
    let dir = tempdir();
    let site = crate::ontologies::namespace_site(dir.path());
    let server = Server::dir(&site);
    let paths = [
        "/",
        "/Person",
        "/person",
        "/Text",
        "/text",
        "/text2",
        "/data_1501",
        "/knows",
        "/student",
        "/Nobody",
    ];
    // Search over the terms' labels, with their types and summaries.
    let searches: Vec<String> = [
        "person",
        "pers",
        "text",
        "t",
        "alignment",
        "data",
        "knows",
        "student",
        "human",
        "xyz",
    ]
    .iter()
    .flat_map(|q| {
        [
            format!("/search?q={q}"),
            format!("/search?q={q}&limit=1&offset=1"),
        ]
    })
    .chain(["/search".to_owned(), "/search?q=%20".to_owned()])
    .collect();
    let cloudflare = Host::cloudflare(&site);
    assert_same_as_serve(&cloudflare, &server, "workerd", &searches);
    assert_negotiates_at(&cloudflare, &server, "workerd", &paths);
    crate::dereference::assert_crawl_from(
        crate::ontologies::NAMESPACE_BASE,
        &site,
        &cloudflare.url,
        "workerd",
        13,
    );
    let origin = Server::start(&["--dir".as_ref(), site.as_os_str(), "--static".as_ref()]);
    let netlify = Host::netlify(&site, &origin.url);
    assert_same_as_serve(&netlify, &server, "deno", &searches);
    assert_negotiates_at(&netlify, &server, "deno", &paths);
    crate::dereference::assert_crawl_from(
        crate::ontologies::NAMESPACE_BASE,
        &site,
        &netlify.url,
        "deno",
        13,
    );
}

#[test]
fn releases_and_removed_terms_resolve_on_every_host() {
    needs!(Need::SharedOntologies, WORKERD, DENO);
    let dir = tempdir();
    let site = crate::releases::two_pato_releases(dir.path());
    let server = Server::dir(&site);
    // A term the current release removed, one it has, a version IRI, a
    // release's root, the list, the document of `pato#…` IRIs.
    let paths = [
        "/IAO_0000700",
        "/iao0000700",
        "/PATO_0000001",
        "/pato",
        "/releases/2024-11-11/",
        "/releases/2024-11-11/pato0000001",
        "/releases/",
        "/releases/nosuch/",
    ];
    for path in [
        "/IAO_0000700",
        "/pato/releases/2024-11-11/pato.obo/pato.owl",
    ] {
        assert_eq!(server.get(path).status(), 303, "{path} on serve");
    }
    let files: Vec<String> = [
        "/iao0000700.json",
        "/iao0000700.ttl",
        "/releases/index.json",
        "/releases/2024-11-11/api.json",
        "/releases/2025-05-14/change-log.json",
        "/pato.json",
        "/pato.ttl",
    ]
    .map(str::to_owned)
    .to_vec();
    // The version IRI is a `_redirects` rule, which the host applies
    // itself (Cloudflare says so in a body of its own).
    let version_iri = "/pato/releases/2024-11-11/pato.obo/pato.owl";
    let sees_the_release = |host: &Host, name: &str| {
        let answer = answer(&host.url, version_iri);
        assert_eq!(answer.status, 303, "{name}: {version_iri}");
        assert_eq!(
            header(&answer, "location"),
            Some("/releases/2024-11-11/"),
            "{name}"
        );
    };
    let cloudflare = Host::cloudflare(&site);
    assert_negotiates_at(&cloudflare, &server, "workerd", &paths);
    assert_same_as_serve(&cloudflare, &server, "workerd", &files);
    sees_the_release(&cloudflare, "workerd");
    let origin = Server::start(&["--dir".as_ref(), site.as_os_str(), "--static".as_ref()]);
    let netlify = Host::netlify(&site, &origin.url);
    assert_negotiates_at(&netlify, &server, "deno", &paths);
    assert_same_as_serve(&netlify, &server, "deno", &files);
    sees_the_release(&netlify, "deno");
}

/// Two releases of a small OBO ontology, the later one without a term,
/// built in `layout` into `dir/{layout}`.
fn small_obo_releases(dir: &Path, layout: &str) -> PathBuf {
    let input = dir.join(format!("input-{layout}"));
    let obo = |version: &str, terms: &[&str]| {
        let mut text =
            format!("format-version: 1.2\ndata-version: releases/{version}\nontology: x\n");
        for (n, term) in terms.iter().enumerate() {
            text.push_str(&format!("\n[Term]\nid: X:000000{n}\nname: {term}\n"));
        }
        text
    };
    for (folder, version, terms) in [
        (input.join("releases/1"), "1", &["one", "two"][..]),
        (input.clone(), "2", &["one"][..]),
    ] {
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("x.obo"), obo(version, terms)).unwrap();
        std::fs::write(
            folder.join("ontology.json"),
            format!(
                r#"{{"name": "X", "baseUrl": "https://x.test", "namespace": "http://purl.obolibrary.org/obo/", "version": "{version}"}}"#
            ),
        )
        .unwrap();
    }
    let site = dir.join(layout);
    let output = build(&input, &site, &["--layout", layout]);
    assert!(output.status.success(), "{}", stderr(&output));
    site
}

/// Two releases of a small OBO ontology (the later one removed a term),
/// a file per document and bundled, published to a real S3 server, its
/// objects in a local R2 bucket and the R2 Worker in workerd in front:
/// each version IRI in the site's namespace answers 303 to its release as
/// serve answers it (there it is a `_redirects` rule, which no static host
/// applies in front of a bucket), and the removed term, the releases and
/// their list answer as on serve; bundled, on Cloudflare Pages in workerd
/// and the Netlify Edge Function in Deno too.
#[test]
fn version_iris_and_removed_terms_resolve_on_the_r2_worker_and_bundled() {
    needs!(WORKERD, DENO, crate::publish::GARAGE);
    let dir = tempdir();
    let garage = crate::publish::start();
    for layout in ["files", "bundled"] {
        let site = small_obo_releases(dir.path(), layout);
        // The version IRIs, as the list names them.
        let list: serde_json::Value =
            serde_json::from_slice(&std::fs::read(site.join("releases/index.json")).unwrap())
                .unwrap();
        let version_iris: Vec<(String, String)> = list["releases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|release| {
                let iri = release["versionIri"].as_str().unwrap();
                let path = iri.strip_prefix("http://purl.obolibrary.org/obo").unwrap();
                let version = release["version"].as_str().unwrap();
                (path.to_owned(), format!("/releases/{version}/"))
            })
            .collect();
        assert_eq!(version_iris.len(), 2, "{list}");
        // Bundled, the releases' copies are too: the root's handlers
        // answer in them.
        for copy in ["releases/1/", "releases/2/"] {
            let file = site.join(format!("{copy}x0000000.jsonld")).exists();
            let manifest = site
                .join(format!("{copy}entity-bundles/index.json"))
                .exists();
            assert_eq!(
                (file, manifest),
                (layout == "files", layout == "bundled"),
                "{copy}"
            );
        }
        let output = crate::publish::publish(&garage, &site, layout, &[]);
        assert!(output.status.success(), "{}", stderr(&output));
        let objects = dir.path().join(format!("objects-{layout}"));
        std::fs::create_dir(&objects).unwrap();
        let manifest = r2_objects(&garage, &site, layout, &objects);
        let server = Server::dir(&site);
        let mut hosts = vec![(Host::r2(&site, &manifest, layout), "the R2 worker")];
        let _origin = (layout == "bundled").then(|| {
            let origin = Server::start(&["--dir".as_ref(), site.as_os_str(), "--static".as_ref()]);
            hosts.push((Host::cloudflare(&site), "workerd"));
            hosts.push((Host::netlify(&site, &origin.url), "deno"));
            origin
        });
        for (host, name) in &hosts {
            let name = format!("{name} ({layout})");
            // With a trailing `/` too, which a rule's path matches on
            // Netlify and serve, and the R2 Worker as they do (Cloudflare
            // Pages matches a rule's path as it is).
            let slashed = !name.starts_with("workerd");
            let asked = version_iris.iter().flat_map(|(path, release)| {
                let with_slash = slashed.then(|| (format!("{path}/"), release));
                [(path.clone(), release)].into_iter().chain(with_slash)
            });
            for (path, release) in asked {
                for base in [&host.url, &server.url] {
                    let answer = answer(base, &path);
                    assert_eq!(answer.status, 303, "{name}: {path} at {base}");
                    let location = header(&answer, "location");
                    assert_eq!(location, Some(release.as_str()), "{path} at {base}");
                }
            }
            let paths = [
                "/X_0000001",
                "/x0000001",
                "/X_0000000",
                "/releases/1/",
                "/releases/1/x0000001",
                "/releases/",
                "/releases/nosuch/",
            ];
            assert_negotiates_at(host, &server, &name, &paths);
            let files: Vec<String> = [
                "/x0000001.json",
                "/x0000001.ttl",
                "/x0000000.json",
                "/releases/index.json",
                "/releases/1/api.json",
                "/releases/1/x0000001.jsonld",
                "/releases/1/x0000001.ttl",
                "/releases/1/x0000001.html",
                "/releases/2/x0000000.nt",
                "/releases/2/change-log.json",
                "/change-log.json",
            ]
            .map(str::to_owned)
            .to_vec();
            assert_same_as_serve(host, &server, &name, &files);
        }
    }
}

/// The CloudFront Function in Deno in front of a bucket of the shipped
/// site: every negotiated IRI under real clients' Accept headers sends
/// where serve sends (a 303, or the document in place), pages answer at
/// their paths without `.html`, version IRIs 303 to their release; and
/// it fits CloudFront's 10 KB, with PATO's ten thousand aliases too (left
/// out). What a viewer-request function cannot do is checked as the
/// documented difference: an entity the site has not is sent on, to a
/// 404; the page in place carries no `Vary`.
#[test]
fn the_cloudfront_function_answers_in_front_of_a_bucket_as_serve() {
    needs!(DENO, Need::SharedOntologies);
    // Deno reads the site: on disk (`disk_tempdir`).
    let shipped = disk_tempdir();
    let site = &shipped.path().join("dist");
    build_ok(&shipped_input(), site);
    let function = site.join(ontosite::hosts::object_storage::CLOUDFRONT_FUNCTION);
    let bytes = std::fs::metadata(&function).unwrap().len() as usize;
    assert!(
        bytes <= ontosite::hosts::object_storage::CLOUDFRONT_MOST_BYTES,
        "{bytes} bytes"
    );
    // Deno runs what CloudFront's runtime (ES 5.1 with `const`, `let`,
    // arrow functions, template literals) does not: none of it is there.
    let code = std::fs::read_to_string(&function).unwrap();
    for unsupported in [
        "...",
        "??",
        "?.",
        ".find(",
        ".includes(",
        "padEnd",
        "padStart",
        "Object.hasOwn(",
        "Object.entries",
        " of ",
        "const [",
        "const {",
        "let [",
        "let {",
        "export ",
        "import ",
        "startsWith",
        "endsWith",
        "class ",
    ] {
        let at = code.lines().find(|line| {
            !line.starts_with("//")
                && !line.starts_with("var NEGOTIATION")
                && line.contains(unsupported)
        });
        assert!(
            at.is_none(),
            "`{unsupported}` in the CloudFront Function: {at:?}"
        );
    }
    let origin = Server::start(&["--dir".as_ref(), site.as_os_str(), "--static".as_ref()]);
    let host = Host::cloudfront(site, &origin.url);
    let server = Server::dir(site);
    let name = "the CloudFront Function";
    let paths = [
        "/",
        "/.well-known/void",
        "/vocab",
        "/index",
        "/abbcreateitem",
    ];
    // A viewer-request function adds no header to what the bucket
    // answers: a 200 in place has no `Vary` there.
    assert_negotiates_alike(&host, &server, name, &paths, |got, expected| {
        if got.0 == 200 {
            (got.2, expected.2) = (false, false);
        }
    });
    let chrome = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    // Files, and pages at their paths without `.html`.
    let files: Vec<String> = [
        "/index.json",
        "/all",
        "/pages/index/2.json",
        "/abbcreateitem.jsonld",
        "/abbcreateitem",
        "/home",
        "/browse/",
        "/ui/site.css",
    ]
    .map(str::to_owned)
    .to_vec();
    for path in &files {
        let (got, expected) = (answer(&host.url, path), answer(&server.url, path));
        assert_eq!(got.status, expected.status, "{path}");
        assert_eq!(got.body, expected.body, "{path}");
        assert_eq!(
            header(&got, "content-type"),
            header(&expected, "content-type"),
            "{path}"
        );
    }
    // An entity the site has not: sent on to a 404 (serve answers 404).
    let missing = negotiated(&host.url, "/nosuchentity", Some("application/json"));
    assert_eq!(
        (missing.0, missing.1.as_deref()),
        (303, Some("/nosuchentity.json"))
    );
    assert_eq!(answer(&host.url, "/nosuchentity.json").status, 404);
    drop((host, origin));

    // Version IRIs, and aliases where they fit; PATO's do not, and the
    // function still fits.
    let dir = disk_tempdir();
    let site = small_obo_releases(dir.path(), "files");
    let origin = Server::start(&["--dir".as_ref(), site.as_os_str(), "--static".as_ref()]);
    let host = Host::cloudfront(&site, &origin.url);
    let server = Server::dir(&site);
    for path in [
        "/x/releases/1/x.owl",
        "/x/releases/2/x.owl/",
        "/X_0000000",
        "/releases/1/",
    ] {
        for accept in [None, Some("text/turtle"), Some(chrome)] {
            let (got, expected) = (
                negotiated(&host.url, path, accept),
                negotiated(&server.url, path, accept),
            );
            assert_eq!(
                (got.0, &got.1, &got.4),
                (expected.0, &expected.1, &expected.4),
                "{path} {accept:?}"
            );
        }
    }
    drop((host, origin));
    let pato = dir.path().join("pato");
    std::fs::create_dir(&pato).unwrap();
    std::fs::copy(
        crate::ontologies::shared_ontology("pato.obo"),
        pato.join("pato.obo"),
    )
    .unwrap();
    std::fs::write(
        pato.join("ontology.json"),
        r#"{"name": "PATO", "baseUrl": "https://pato.test", "namespace": "http://purl.obolibrary.org/obo/"}"#,
    )
    .unwrap();
    let out = dir.path().join("pato-site");
    build_ok(&pato, &out);
    let function =
        std::fs::read_to_string(out.join(ontosite::hosts::object_storage::CLOUDFRONT_FUNCTION))
            .unwrap();
    assert!(
        function.len() <= ontosite::hosts::object_storage::CLOUDFRONT_MOST_BYTES,
        "{} bytes",
        function.len()
    );
    assert!(
        function.starts_with("// Generated by ontosite. The "),
        "{}",
        &function[..200]
    );
}

/// The committed handlers load as they are, each importing the client
/// beside it, and so do the modules the build makes of them: Deno
/// resolves and checks them, and lints them with undefined names as
/// errors (the generated modules were once only correct concatenated).
#[test]
fn the_handlers_load_and_lint_on_their_own() {
    needs!(DENO);
    // The committed modules beside the one the build generates from its
    // negotiation table, as the host module inlines them.
    let assets = tempdir();
    for name in [
        "search.js",
        "negotiate.js",
        "netlify-edge.js",
        "cloudflare-worker.js",
        "r2-worker.js",
    ] {
        std::fs::copy(root().join("assets").join(name), assets.path().join(name)).unwrap();
    }
    std::fs::write(
        assets.path().join("negotiation.js"),
        ontosite::hosts::script::negotiation_module(&ontosite::hosts::HostInput {
            downloads: &[],
            aliases: &ontosite::site::negotiation::Aliases::default(),
            bundled: &Default::default(),
            see_other: &[],
            releases: false,
        }),
    )
    .unwrap();
    let committed = [
        "search.js",
        "negotiate.js",
        "netlify-edge.js",
        "cloudflare-worker.js",
        "r2-worker.js",
    ]
    .map(|f| assets.path().join(f));
    let site = shipped_site();
    let built = [
        "_edge/netlify/search.js",
        "_worker.js",
        ontosite::hosts::cloudflare_r2::WORKER,
    ]
    .map(|f| site.join(f));
    let deno_dir = tempdir();
    for (files, args) in [
        (&committed[2..], &["check", "--quiet"][..]),
        (
            &committed[..],
            &["lint", "--quiet", "--rules-include=no-undef"],
        ),
        // A handler need not use every helper of the modules it inlines.
        (
            &built[..],
            &[
                "lint",
                "--quiet",
                "--rules-include=no-undef",
                "--rules-exclude=no-unused-vars",
            ],
        ),
    ] {
        let output = Command::new(runtime_bin("deno"))
            .args(args)
            .args(files)
            .env("DENO_NO_UPDATE_CHECK", "1")
            .env("DENO_DIR", deno_dir.path())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "deno {args:?} {files:?} failed:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// Fills a local R2 bucket's manifest (for `Host::r2`) from what a real
/// S3 server holds after `ontosite publish SITE s3://BUCKET/PREFIX`: each
/// published file's object read back through the server, with the type
/// and caching publish gave it.
fn r2_objects(garage: &crate::publish::Garage, site: &Path, prefix: &str, dir: &Path) -> PathBuf {
    let mut manifest = String::new();
    let mut paths = crate::publish::published_paths(site);
    paths.extend(crate::publish::record_paths(garage, prefix));
    for (i, path) in paths.iter().enumerate() {
        let key = format!("{prefix}/{path}");
        let (status, content_type, cache_control, body) = crate::publish::web_get(garage, &key);
        assert_eq!(status, 200, "{key}");
        let file = dir.join(i.to_string());
        std::fs::write(&file, body).unwrap();
        let line = serde_json::json!({
            "key": key, "file": file, "contentType": content_type, "cacheControl": cache_control,
        });
        manifest.push_str(&format!("{line}\n"));
    }
    let path = dir.join("manifest.jsonl");
    std::fs::write(&path, manifest).unwrap();
    path
}

/// The site published to a real S3 server (Garage), its objects put in a
/// local R2 bucket as they came back, and the generated R2 Worker in
/// workerd in front: every endpoint, negotiated IRI and file answers as
/// `serve` answers the site's directory, with a file per document and
/// bundled; and the Worker does what a static host does for it (ranges,
/// entity tags, `HEAD`, preflights, methods it refuses).
#[test]
fn the_r2_worker_answers_a_published_bucket_as_serve() {
    needs!(WORKERD, crate::publish::GARAGE, JSONLD_JS, PYOXIGRAPH);
    let garage = crate::publish::start();
    let dir = tempdir();
    for (site, prefix, paths) in [
        (shipped_site(), "files", sample_paths()),
        (bundled_shipped_site(), "bundled", bundled_paths()),
    ] {
        let output = crate::publish::publish(&garage, site, prefix, &[]);
        assert!(output.status.success(), "{}", stderr(&output));
        let objects = dir.path().join(prefix);
        std::fs::create_dir(&objects).unwrap();
        let manifest = r2_objects(&garage, site, prefix, &objects);
        let host = Host::r2(site, &manifest, prefix);
        let server = Server::dir(site);
        let name = format!("the R2 worker ({prefix})");
        let mut paths = paths;
        // Publish's own record is in the bucket, and private as the rest.
        let record = crate::publish::record_paths(&garage, prefix);
        paths.extend(record.iter().map(|path| format!("/{path}")));
        paths.extend(["/%zz", "/a%2Fb", "/.well-known/void"].map(String::from));
        // Paths as serve reads them, percent-decoded and with empty
        // segments dropped: a negotiated IRI, a document, a joined whole.
        paths.extend(
            [
                "/abb%63reateitem",
                "/abb%63reateitem.jsonld",
                "//abbcreateitem.json",
                "/%61ll",
                // Decoded once, as serve decodes it: no such slug.
                "/%2561bbcreateitem.json",
            ]
            .map(String::from),
        );
        assert_same_as_serve(&host, &server, &name, &paths);
        assert_negotiates_as_serve(&host, &server, &name);
        if prefix == "bundled" {
            assert_bundled_answers_are_http(&host, &name);
            continue;
        }
        crate::linked_data::assert_jsonld_js_dereferences(site, &host.url, &name);
        crate::dereference::assert_crawl_gathers_the_dump(site, &host.url, &name);
        let url = |path: &str| format!("{}{path}", host.url);
        // Ranges, as download managers and resumed transfers ask, answered
        // as serve answers them: parts, a suffix, one past the end, several
        // (the whole file), and one of a version the client no longer has.
        let ranged = |base: &str, range: &str, if_range: Option<&str>| {
            let mut request = client()
                .get(format!("{}/index.nt", base.trim_end_matches('/')))
                .header("Range", range);
            if let Some(tag) = if_range {
                request = request.header("If-Range", tag);
            }
            let response = request.send().unwrap();
            let status = response.status().as_u16();
            let content_range = header_of(response.headers(), "content-range");
            (status, content_range, response.bytes().unwrap().to_vec())
        };
        for range in [
            "bytes=100-199",
            "bytes=0-",
            "bytes=-10",
            "bytes=999999999-",
            "bytes=0-1,5-6",
            "bytes=9-2",
        ] {
            for if_range in [None, Some("\"another version\"")] {
                let (got, expected) = (
                    ranged(&host.url, range, if_range),
                    ranged(&server.url, range, if_range),
                );
                assert_eq!(got, expected, "{range} If-Range {if_range:?}");
            }
        }
        // An entity tag a second request gets a 304 with.
        let first = client().get(url("api.json")).send().unwrap();
        let tag = first.headers()["etag"].to_str().unwrap().to_owned();
        let again = client()
            .get(url("api.json"))
            .header("If-None-Match", &tag)
            .send()
            .unwrap();
        assert_eq!(again.status().as_u16(), 304);
        let head = client().head(url("all")).send().unwrap();
        assert_eq!(head.status().as_u16(), 200);
        assert_eq!(
            header_of(head.headers(), "content-type").as_deref(),
            Some("application/json")
        );
        assert!(head.bytes().unwrap().is_empty());
        // A preflight from a page elsewhere, and a write, which it refuses.
        let preflight = client()
            .request(reqwest::Method::OPTIONS, url("index.json"))
            .header("Origin", "https://elsewhere.example")
            .header("Access-Control-Request-Method", "GET")
            .send()
            .unwrap();
        assert_eq!(preflight.status().as_u16(), 204);
        let put = client().put(url("index.json")).body("{}").send().unwrap();
        assert_eq!(put.status().as_u16(), 405);
    }
}
