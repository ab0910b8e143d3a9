//! `ontosite serve`: the real binary on port 0, asked by a real HTTP
//! client (and by raw bytes where a client would clean the path first).

use crate::util::*;
use reqwest::blocking::{Client, Response};
use reqwest::header::HeaderMap;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// A running `ontosite serve`, stopped on drop.
pub struct Server {
    child: Child,
    pub url: String,
    stderr: Arc<Mutex<String>>,
    stdout: Arc<Mutex<String>>,
}

impl Server {
    /// Starts `ontosite serve --port 0 ARGS` and waits for its URL.
    pub fn start(args: &[&std::ffi::OsStr]) -> Server {
        let mut child = Command::new(binary())
            .args(["serve", "--port", "0"])
            .args(args)
            .env_remove("ONTOSITE_BASE_URL")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting ontosite serve");
        let stderr = Arc::new(Mutex::new(String::new()));
        collect(child.stderr.take().unwrap(), Arc::clone(&stderr));
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let url = loop {
            let line = lines
                .next()
                .unwrap_or_else(|| {
                    panic!("serve exited before listening: {}", stderr.lock().unwrap())
                })
                .unwrap();
            if let Some(rest) = line.strip_prefix("serving at ") {
                break rest.split_whitespace().next().unwrap().to_owned();
            }
        };
        // Keep reading stdout, so the server never blocks on a full pipe.
        let stdout = Arc::new(Mutex::new(String::new()));
        let into = Arc::clone(&stdout);
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                into.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        Server {
            child,
            url,
            stderr,
            stdout,
        }
    }

    /// Ctrl-C: waits for the server to stop and returns how it exited.
    pub fn interrupt(mut self) -> (std::process::ExitStatus, String) {
        let pid = self.child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-INT", &pid])
                .status()
                .unwrap()
                .success()
        );
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                std::thread::sleep(Duration::from_millis(100));
                return (status, self.stdout.lock().unwrap().clone());
            }
            assert!(Instant::now() < deadline, "serve did not stop on SIGINT");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `serve --input COPY --dir DIR/dist --watch` on a copy of the tiny
    /// fixture in `dir`; returns the copy, to change, and the server.
    pub fn watching_tiny_copy(dir: &Path) -> (PathBuf, Server) {
        let input = dir.join("input");
        copy_tree(&tiny_input(), &input);
        let site = dir.join("dist");
        let server = Server::start(&[
            "--input".as_ref(),
            input.as_os_str(),
            "--dir".as_ref(),
            site.as_os_str(),
            "--watch".as_ref(),
        ]);
        (input, server)
    }

    /// `serve DIR`: the directory as a plain argument, as `build` takes its
    /// input (`--dir` is the form the other starts use).
    pub fn dir(dir: &Path) -> Server {
        Server::start(&[dir.as_os_str()])
    }

    pub fn get(&self, path: &str) -> Response {
        client()
            .get(format!("{}{}", self.url, path.trim_start_matches('/')))
            .send()
            .unwrap()
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn stdout(&self) -> String {
        self.stdout.lock().unwrap().clone()
    }

    fn port(&self) -> u16 {
        self.url
            .rsplit(':')
            .next()
            .unwrap()
            .trim_end_matches('/')
            .parse()
            .unwrap()
    }

    /// Sends `path` as it is, bypassing any client's normalisation, and
    /// returns the status and the whole raw response.
    pub fn raw(&self, path: &[u8]) -> (u16, Vec<u8>) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port())).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut request = b"GET ".to_vec();
        request.extend_from_slice(path);
        request.extend_from_slice(b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        stream.write_all(&request).unwrap();
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        let status = std::str::from_utf8(&response[..response.len().min(12)])
            .ok()
            .and_then(|s| s.get(9..12))
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        (status, response)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn collect(stream: ChildStderr, into: Arc<Mutex<String>>) {
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            let mut text = into.lock().unwrap();
            text.push_str(&line);
            text.push('\n');
        }
    });
}

/// A client that shows bodies and encodings as they are sent.
pub fn client() -> &'static Client {
    static CLIENT: OnceLock<Client> = OnceLock::new();
    CLIENT.get_or_init(|| {
        Client::builder()
            .no_gzip()
            .no_brotli()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap()
    })
}

/// The OWL fixture's site (`tests/fixtures/ontologies/owl`, "Pets"), built
/// once for every test that only reads it.
pub fn owl_site() -> &'static Path {
    static SITE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &SITE
        .get_or_init(|| {
            let dir = tempdir();
            let out = dir.path().join("dist");
            build_ok(&root().join("tests/fixtures/ontologies/owl"), &out);
            (dir, out)
        })
        .1
}

/// The shipped site, built once for every test here.
pub fn shipped_site() -> &'static Path {
    static SITE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &SITE
        .get_or_init(|| {
            let dir = tempdir();
            let out = dir.path().join("dist");
            build_ok(&shipped_input(), &out);
            (dir, out)
        })
        .1
}

fn assert_every_response_headers(headers: &HeaderMap, what: &str) {
    for (name, value) in [
        ("access-control-allow-origin", "*"),
        ("cache-control", "public, max-age=3600"),
        ("x-content-type-options", "nosniff"),
    ] {
        assert_eq!(
            headers.get(name).and_then(|v| v.to_str().ok()),
            Some(value),
            "{what}: {name} in {headers:?}"
        );
    }
}

fn json_of(response: Response) -> Value {
    serde_json::from_slice(&response.bytes().unwrap()).unwrap()
}

#[test]
fn every_endpoint_answers_as_the_host_does() {
    let site = shipped_site();
    let server = Server::dir(site);
    let file = |name: &str| std::fs::read(site.join(name)).unwrap();
    // path, status, content type, body file
    let cases: [(&str, u16, &str, Option<&str>); 13] = [
        ("/", 200, "application/json", Some("api.json")),
        (
            "/pages/index/2.jsonld",
            200,
            "application/ld+json",
            Some("pages/index/2.jsonld"),
        ),
        (
            "/pages/all/3.json",
            200,
            "application/json",
            Some("pages/all/3.json"),
        ),
        ("/index.json", 200, "application/json", Some("index.json")),
        (
            "/index.jsonld",
            200,
            "application/ld+json",
            Some("index.jsonld"),
        ),
        ("/all", 200, "application/json", Some("all")),
        (
            "/airbnbcreateitem.json",
            200,
            "application/json",
            Some("airbnbcreateitem.json"),
        ),
        (
            "/airbnbcreateitem.jsonld",
            200,
            "application/ld+json",
            Some("airbnbcreateitem.jsonld"),
        ),
        (
            "/context.jsonld",
            200,
            "application/ld+json",
            Some("context.jsonld"),
        ),
        (
            "/no/such/path",
            404,
            "application/problem+json",
            Some("404.json"),
        ),
        (
            "/nosuch.jsonld",
            404,
            "application/problem+json",
            Some("404.json"),
        ),
        ("/home", 200, "text/html; charset=utf-8", Some("home.html")),
        ("/all/", 200, "application/json", Some("all")),
    ];
    for (path, status, content_type, body) in cases {
        let response = server.get(path);
        assert_eq!(response.status().as_u16(), status, "{path}");
        assert_every_response_headers(response.headers(), path);
        assert_eq!(response.headers()["content-type"], content_type, "{path}");
        let bytes = response.bytes().unwrap();
        if let Some(body) = body {
            assert!(bytes[..] == file(body)[..], "{path} is not {body}");
        }
    }
    // Host configuration and ontosite's marker and record are not part of
    // the site.
    for private in [
        "/_headers",
        "/_redirects",
        "/_worker.js",
        "/_routes.json",
        "/_aliases.json",
        "/.ontosite-output",
        "/.ontosite-record",
    ] {
        assert_eq!(server.get(private).status(), 404, "{private}");
    }
}

#[test]
fn search_answers_with_the_reference_results_and_errors() {
    let site = shipped_site();
    let server = Server::dir(site);
    let ontology = ontosite::source::load(&shipped_input(), None).unwrap();
    let searcher = ontosite::search::Searcher::new(&ontology);
    for (query, q, limit, offset) in [
        ("q=airtable", Some("airtable"), None, None),
        (
            "q=Create%20Item&limit=5&offset=10",
            Some("Create Item"),
            Some("5"),
            Some("10"),
        ),
        ("q=%C3%A9lan", Some("élan"), None, None),
        ("q=item&q=airtable", Some("item"), None, None),
    ] {
        let (_, expected) =
            ontosite::site::answers::search_response(&searcher, q, limit, offset).unwrap();
        let expected: Value = serde_json::from_slice(&expected).unwrap();
        // The first time from the files (the blocking pool), again from
        // what the first one cached (on the connection's thread).
        for time in ["first", "again"] {
            let response = server.get(&format!("/search?{query}"));
            assert_eq!(response.status(), 200, "{query}, {time}");
            assert_every_response_headers(response.headers(), query);
            assert_eq!(response.headers()["content-type"], "application/json");
            assert_eq!(json_of(response), expected, "{query}, {time}");
        }
    }
    for bad in [
        "",
        "?q=",
        "?q=%20-%20",
        "?q=a&limit=0",
        "?q=a&limit=1001",
        "?q=a&offset=-1",
    ] {
        let response = server.get(&format!("/search{bad}"));
        assert_eq!(response.status(), 400, "{bad}");
        assert_every_response_headers(response.headers(), bad);
        assert_eq!(
            response.headers()["content-type"],
            "application/problem+json"
        );
        let problem = json_of(response);
        assert_eq!(problem["status"], 400, "{problem}");
        assert!(problem["detail"].as_str().unwrap().len() > 10, "{problem}");
    }
}

/// `serve` searches from the search index files the build wrote, never
/// from `/all`: a site whose `/all` is missing, or is not JSON at all,
/// answers every search as the reference does.
#[test]
fn search_needs_neither_all_nor_its_bytes() {
    let dir = tempdir();
    let site = dir.path().join("dist");
    copy_tree(shipped_site(), &site);
    let ontology = ontosite::source::load(&shipped_input(), None).unwrap();
    let searcher = ontosite::search::Searcher::new(&ontology);
    for all in [None, Some("not JSON, and far from every entity")] {
        match all {
            None => std::fs::remove_file(site.join("all")).unwrap(),
            Some(bytes) => std::fs::write(site.join("all"), bytes).unwrap(),
        }
        let server = Server::dir(&site);
        for q in [
            "github",
            "gihub",
            "create item",
            "zotero update",
            "deleting github",
        ] {
            let response = server.get(&format!("/search?q={}", q.replace(' ', "%20")));
            assert_eq!(response.status(), 200, "{q}: {}", server.stderr());
            let (_, expected) =
                ontosite::site::answers::search_response(&searcher, Some(q), None, None).unwrap();
            let expected: Value = serde_json::from_slice(&expected).unwrap();
            let answer = json_of(response);
            assert!(answer["total"].as_u64().unwrap() > 0, "{q}");
            assert_eq!(answer, expected, "{q}");
        }
    }
}

#[test]
fn the_host_rules_are_applied_as_netlify_applies_them() {
    needs!(NETLIFY);
    // The same site, the same requests: ontosite serve and Netlify's own
    // parsers and matcher (tests/netlify/route.mjs) agree on status, body
    // and every header the rules set.
    let dir = tempdir();
    let site = dir.path().join("site");
    build_ok(&tiny_input(), &site);
    // Rules beyond the generated ones, to exercise what Netlify supports.
    let mut redirects = std::fs::read_to_string(site.join("_redirects")).unwrap();
    let extra = "/old/:name  /:name.json  301\n/v1/*  /:splat  200\n/lookup id=:id  /:id.json  200\n/shadowed.json  /index.json  200\n/forced.json  /index.json  200!\n";
    redirects = redirects.replacen(
        "/  /api.json  200!",
        &format!("{extra}/  /api.json  200!"),
        1,
    );
    std::fs::write(site.join("_redirects"), redirects).unwrap();
    let mut headers = std::fs::read_to_string(site.join("_headers")).unwrap();
    headers.push_str("\n/v1/*\n  X-Api-Version: 1\n/:name.json\n  X-Entity: yes\n  Cache-Control: no-transform\n");
    std::fs::write(site.join("_headers"), headers).unwrap();
    for name in ["shadowed.json", "forced.json"] {
        std::fs::write(site.join(name), "{\"file\": true}").unwrap();
    }
    let slug = std::fs::read_dir(&site)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".jsonld") && !n.starts_with("index") && !n.starts_with("context"))
        .map(|n| n.trim_end_matches(".jsonld").to_owned())
        .min()
        .unwrap();
    let requests: Vec<String> = [
        "/".to_owned(),
        "/index.json".into(),
        "/index.jsonld".into(),
        "/all".into(),
        format!("/{slug}.json"),
        format!("/{slug}.jsonld"),
        format!("/old/{slug}"),
        format!("/v1/{slug}.json"),
        format!("/lookup?id={slug}"),
        "/lookup".into(),
        "/shadowed.json".into(),
        "/forced.json".into(),
        "/search-index.json".into(),
        "/nosuch.json".into(),
        "/a/b/c".into(),
    ]
    .into();
    let requests: Vec<&str> = requests.iter().map(String::as_str).collect();
    let netlify = netlify_routes(&site, &requests);
    let server = Server::dir(&site);
    for expected in netlify {
        let request = expected["request"].as_str().unwrap();
        let response = server.get(request);
        let status = response.status().as_u16();
        assert_eq!(
            status as u64,
            expected["status"].as_u64().unwrap(),
            "{request}: {expected}"
        );
        let headers = response.headers().clone();
        for (name, value) in expected["headers"].as_object().unwrap() {
            assert_eq!(
                headers.get(name.as_str()).and_then(|v| v.to_str().ok()),
                value.as_str(),
                "{request}: header {name}"
            );
        }
        let body = response.bytes().unwrap();
        match expected["file"].as_str() {
            Some(to) if (200..300).contains(&status) || status == 404 => {
                let file =
                    std::fs::read(site.join(to.trim_start_matches('/').split('?').next().unwrap()))
                        .unwrap();
                assert!(body[..] == file[..], "{request}: not the body of {to}");
            }
            Some(to) => assert_eq!(headers["location"], to, "{request}"),
            None => {}
        }
    }
}

/// What Netlify answers for each request, from `tests/netlify/route.mjs`.
fn netlify_routes(site: &Path, requests: &[&str]) -> Vec<Value> {
    let report = crate::netlify::route(site, requests);
    assert_eq!(
        report["errors"],
        json!([]),
        "Netlify's parsers reported errors"
    );
    report["routes"].as_array().unwrap().clone()
}

#[test]
fn hostile_paths_never_reach_a_file_outside_the_site() {
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);
    let secret = "TOP-SECRET-OUTSIDE-THE-SITE";
    std::fs::write(dir.path().join("secret.json"), secret).unwrap();
    std::os::unix::fs::symlink(dir.path().join("secret.json"), site.join("link.json")).unwrap();
    std::os::unix::fs::symlink(dir.path(), site.join("up")).unwrap();
    let server = Server::dir(&site);
    let long = format!("/{}.json", "a".repeat(5000));
    let hostile: Vec<&[u8]> = vec![
        b"/../secret.json",
        b"/%2e%2e/secret.json",
        b"/%2E%2E/secret.json",
        b"/.%2e/secret.json",
        b"/%252e%252e/secret.json",
        b"/..%2fsecret.json",
        b"/..%5csecret.json",
        b"/..\\secret.json",
        b"/%5c..%5csecret.json",
        b"//../secret.json",
        b"/link.json",
        b"/up/secret.json",
        b"/up/%2e%2e/secret.json",
        b"/secret.json%00.json",
        b"/%00",
        b"/%c0%ae%c0%ae/secret.json",
        b"/%ff%fe",
        b"/index.json/../../secret.json",
        long.as_bytes(),
        b"http://localhost/../secret.json",
        b"/../../../../../../etc/passwd",
        b"/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    ];
    for path in hostile {
        let (status, response) = server.raw(path);
        let shown = String::from_utf8_lossy(&path[..path.len().min(60)]).into_owned();
        assert!(
            matches!(status, 400 | 404 | 414),
            "{shown}: status {status}"
        );
        let text = String::from_utf8_lossy(&response);
        assert!(!text.contains(secret), "{shown} leaked the secret");
        assert!(!text.contains("root:x:0"), "{shown} leaked /etc/passwd");
    }
    // The same server still serves the site, the path decoded once: an
    // encoded `%` is a `%`, which no file's name has.
    assert_eq!(server.raw(b"/index.json").0, 200);
    assert_eq!(server.raw(b"/%69ndex.json").0, 200);
    assert_eq!(server.raw(b"/%2569ndex.json").0, 404);
}

#[test]
fn methods_preflight_conditional_requests_and_compression() {
    let server = Server::dir(shipped_site());
    let url = format!("{}index.json", server.url);

    // A CORS preflight.
    let response = client()
        .request(reqwest::Method::OPTIONS, &url)
        .header("Origin", "https://elsewhere.example")
        .header("Access-Control-Request-Method", "GET")
        .header("Access-Control-Request-Headers", "if-none-match")
        .send()
        .unwrap();
    assert_eq!(response.status(), 204);
    assert_every_response_headers(response.headers(), "preflight");
    assert_eq!(
        response.headers()["access-control-allow-methods"],
        "GET, HEAD, OPTIONS"
    );
    assert_eq!(
        response.headers()["access-control-allow-headers"],
        "if-none-match"
    );

    // Writing methods: 405 with Allow and a problem document.
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let response = client()
            .request(
                reqwest::Method::from_bytes(method.as_bytes()).unwrap(),
                &url,
            )
            .send()
            .unwrap();
        assert_eq!(response.status(), 405, "{method}");
        assert_every_response_headers(response.headers(), method);
        assert_eq!(response.headers()["allow"], "GET, HEAD, OPTIONS");
        assert_eq!(json_of(response)["status"], 405);
    }

    // HEAD: the headers of GET, no body.
    let get = client().get(&url).send().unwrap();
    let head = client().head(&url).send().unwrap();
    assert_eq!(head.status(), 200);
    for name in ["content-type", "content-length", "etag", "cache-control"] {
        assert_eq!(head.headers()[name], get.headers()[name], "{name}");
    }
    let tag = get.headers()["etag"].clone();
    let full = get.bytes().unwrap();
    assert!(head.bytes().unwrap().is_empty());
    // The same over HTTP/2, where hyper itself would send the body.
    let h2 = Client::builder()
        .http2_prior_knowledge()
        .no_gzip()
        .no_brotli()
        .build()
        .unwrap();
    let head = h2.head(&url).send().unwrap();
    assert_eq!(head.version(), reqwest::Version::HTTP_2);
    assert_eq!(head.status(), 200);
    assert_eq!(
        head.headers()["content-length"],
        full.len().to_string().as_str()
    );
    assert!(head.bytes().unwrap().is_empty());
    assert_eq!(h2.get(&url).send().unwrap().bytes().unwrap(), full);

    // If-None-Match: 304 with the tag and the caching headers, no body.
    let response = client()
        .get(&url)
        .header("If-None-Match", tag.clone())
        .send()
        .unwrap();
    assert_eq!(response.status(), 304);
    assert_eq!(response.headers()["etag"], tag);
    assert_every_response_headers(response.headers(), "304");
    // The Vary of the 200 (RFC 9110, 15.4.5): a cache keeps codings apart.
    assert!(
        vary(&response).contains("accept-encoding"),
        "{:?}",
        vary(&response)
    );
    assert!(response.bytes().unwrap().is_empty());
    let response = client()
        .get(&url)
        .header("If-None-Match", "\"other\"")
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    // Another file has another tag.
    assert_ne!(server.get("/all").headers()["etag"], tag);

    // gzip and brotli by Accept-Encoding; decoded, the same bytes.
    for encoding in ["gzip", "br"] {
        let response = client()
            .get(&url)
            .header("Accept-Encoding", encoding)
            .send()
            .unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-encoding"], encoding);
        assert_every_response_headers(response.headers(), encoding);
        let sent = response.bytes().unwrap();
        assert!(
            sent.len() < full.len() / 3,
            "{encoding}: {} of {} bytes",
            sent.len(),
            full.len()
        );
        let decoding = Client::builder().build().unwrap();
        let decoded = decoding
            .get(&url)
            .header("Accept-Encoding", encoding)
            .send()
            .unwrap()
            .bytes()
            .unwrap();
        assert!(decoded == full, "{encoding} does not decode to the file");
    }
    // N-Triples are text too (issue 29: `dump.nt` went out raw).
    let dump = client()
        .get(format!("{}dump.nt", server.url))
        .header("Accept-Encoding", "gzip")
        .send()
        .unwrap();
    assert_eq!(dump.status(), 200);
    assert_eq!(dump.headers()["content-encoding"], "gzip");
}

/// Every Vary header of a response, lower-cased, joined.
pub fn vary(response: &Response) -> String {
    let values: Vec<&str> = response
        .headers()
        .get_all("vary")
        .iter()
        .map(|v| v.to_str().unwrap())
        .collect();
    values.join(", ").to_ascii_lowercase()
}

#[test]
fn a_taken_port_is_an_error_and_ctrl_c_stops_cleanly() {
    let server = Server::dir(shipped_site());
    let port = server.url.rsplit(':').next().unwrap().trim_end_matches('/');
    let output = ontosite()
        .args(["serve", "--port", port, "--dir"])
        .arg(shipped_site())
        .output_within(Duration::from_secs(20))
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains(&format!("cannot listen on 127.0.0.1:{port}")),
        "{message}"
    );
    assert!(message.contains("help:"), "{message}");
    // The first server still answers, alone, and stops on Ctrl-C.
    assert_eq!(server.get("/index.json").status(), 200);
    let (status, stdout) = server.interrupt();
    assert!(status.success(), "{status:?}");
    assert!(stdout.contains("stopped"), "{stdout}");
}

#[test]
fn many_concurrent_clients_get_every_answer() {
    let server = Server::dir(shipped_site());
    let paths = [
        "/index.json",
        "/airbnbcreateitem.json",
        "/search?q=create",
        "/",
        "/all",
        "/nosuch",
    ];
    let failures: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..32)
            .map(|t| {
                let server = &server;
                scope.spawn(move || {
                    (0..25)
                        .filter(|i| {
                            let path = paths[(t + i) % paths.len()];
                            let response = server.get(path);
                            let expected = if path == "/nosuch" { 404 } else { 200 };
                            response.status() != expected || response.bytes().is_err()
                        })
                        .count()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(failures, 0);
}

#[test]
fn watch_rebuilds_and_swaps_in_whole_sites_only() {
    let dir = tempdir();
    let (input, server) = Server::watching_tiny_copy(dir.path());
    let index = json_of(server.get("/index.json"));
    let first = index["items"][0].clone();
    let slug = first["slug"].as_str().unwrap().to_owned();
    let total = index["total"].as_u64().unwrap();
    let entity_file = walkdir::WalkDir::new(input.join("entities"))
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .find(|p| {
            std::fs::read_to_string(p)
                .is_ok_and(|t| t.contains(&format!("\"{}\"", first["id"].as_str().unwrap())))
        })
        .expect("the file of the first entity");
    let original = std::fs::read_to_string(&entity_file).unwrap();

    // Readers run all along: every answer is a whole, consistent site.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let seen = std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let mut bad = Vec::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let response = server.get("/index.json");
                let status = response.status();
                match response
                    .bytes()
                    .ok()
                    .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
                {
                    Some(list) if status == 200 && list["total"] == total => {}
                    other => bad.push(format!("{status}: {other:?}")),
                }
                let response = server.get(&format!("/{slug}.json"));
                if response.status() != 200 {
                    bad.push(format!("entity: {}", response.status()));
                }
            }
            bad
        });

        // A change is built and served.
        let renamed = original.replace(first["name"].as_str().unwrap(), "Renamed While Serving");
        assert_ne!(renamed, original);
        std::fs::write(&entity_file, &renamed).unwrap();
        wait_for(|| {
            json_of(server.get(&format!("/{slug}.json")))["name"] == "Renamed While Serving"
        });
        assert_eq!(
            json_of(server.get("/search?q=renamed%20while"))["items"][0]["slug"],
            slug.as_str(),
            "the search answers from the new site"
        );

        // A broken input: the errors are printed, the last good site stays.
        std::fs::write(&entity_file, "{ not json").unwrap();
        wait_for(|| server.stderr().contains("still serving the last good site"));
        assert!(
            server.stderr().contains(&entity_file.display().to_string()),
            "{}",
            server.stderr()
        );
        assert_eq!(
            json_of(server.get(&format!("/{slug}.json")))["name"],
            "Renamed While Serving"
        );

        // Fixed again: served again.
        std::fs::write(&entity_file, &original).unwrap();
        wait_for(|| json_of(server.get(&format!("/{slug}.json")))["name"] == first["name"]);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        reader.join().unwrap()
    });
    assert!(seen.is_empty(), "readers saw a partial site: {seen:?}");
    // Nothing but the site is left beside it, once the last replaced site
    // has been removed (after the swap, when its readers are done).
    let leftovers = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n != "input" && n != "dist")
            .collect::<Vec<_>>()
    };
    wait_for(|| leftovers().is_empty());
}

/// A quiet input is never rebuilt: the build's own reads of the input
/// (open, read, close) are no change. Then one edit is one rebuild.
#[test]
fn watch_rebuilds_only_when_the_input_changes() {
    let dir = tempdir();
    let (input, server) = Server::watching_tiny_copy(dir.path());
    let rebuilds = || server.stdout().matches("rebuilding").count();
    // Reads of the input by someone else are no change either.
    for _ in 0..3 {
        snapshot(&input);
        std::thread::sleep(Duration::from_millis(500));
    }
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(rebuilds(), 0, "rebuilt a quiet input:\n{}", server.stdout());

    let manifest = input.join("ontology.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen("\"name\": \"", "\"name\": \"Renamed ", 1),
    )
    .unwrap();
    wait_for(|| server.stdout().contains("now serving it"));
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(rebuilds(), 1, "{}", server.stdout());
}

/// An input directory replaced whole (`mv input input.bak; cp -a
/// input.bak input`, as a checkout of another branch does) is followed by
/// its path: the replacement is rebuilt, and edits to it after that too.
/// (Issue 29: the watch stayed on `input.bak`, and stopped, silently.)
#[test]
fn watch_follows_an_input_directory_replaced_whole() {
    let dir = tempdir();
    let (input, server) = Server::watching_tiny_copy(dir.path());
    let name = || {
        json_of(server.get("/"))["name"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let backup = dir.path().join("input.bak");
    std::fs::rename(&input, &backup).unwrap();
    copy_tree(&backup, &input);
    let manifest = input.join("ontology.json");
    let rename = |manifest: &Path, to: &str| {
        let mut info = read_json(manifest);
        info["name"] = to.into();
        std::fs::write(manifest, info.to_string()).unwrap();
    };
    rename(&manifest, "Replaced Once");
    wait_for(|| name() == "Replaced Once");
    // The directory now watched is the new one: edits to it are seen, and
    // the old one is no longer followed.
    rename(&manifest, "Replaced Twice");
    wait_for(|| name() == "Replaced Twice");
    rename(&backup.join("ontology.json"), "Edited Away");
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(name(), "Replaced Twice", "{}", server.stdout());
}

fn wait_for(condition: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !condition() {
        assert!(Instant::now() < deadline, "timed out waiting");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A malformed site file is an error that names it, never a panic: an
/// aliases file that is no JSON, no object, or maps a path to no slug; a
/// search index that is no JSON or claims more entities than any query
/// could hold a byte for.
#[test]
fn a_malformed_site_is_refused_without_a_panic() {
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);
    // Writes `bytes` into `file`, and checks that serve refuses the site
    // at start, naming that file.
    let refused = |file: &Path, what: &str, bytes: Vec<u8>| {
        std::fs::write(file, bytes).unwrap();
        let output = ontosite()
            .args(["serve", "--port", "0", "--dir"])
            .arg(&site)
            .output_within(Duration::from_secs(30))
            .unwrap();
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{what}: {message}");
        assert!(!message.contains("panicked"), "{what}: {message}");
        let name = file.display().to_string();
        assert!(message.contains(&name), "{what}: {message}");
    };
    // Serve reads the aliases the build wrote, never `/all` or its pages.
    let aliases = site.join("_aliases.json");
    let written = std::fs::read(&aliases).unwrap();
    refused(&aliases, "no slug", br#"{"/terms/x": 7}"#.to_vec());
    refused(&aliases, "not an object", b"[1]".to_vec());
    refused(&aliases, "not JSON", b"{\"/x\": ".to_vec());
    std::fs::write(&aliases, written).unwrap();

    let index = site.join("search-index.json");
    let mut manifest = read_json(&index);
    manifest["total"] = json!(1_000_000_000_000_u64);
    refused(
        &index,
        "a huge total",
        serde_json::to_vec(&manifest).unwrap(),
    );
    refused(&index, "not JSON", b"[".to_vec());
}
