//! `ontosite serve` against clients that hold connections, bust caches,
//! resume downloads, and a build that replaces the site it serves.

use crate::serve::{Server, client};
use crate::util::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn port(server: &Server) -> u16 {
    server
        .url
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// A plain request of `/index.json` from 127.0.0.1, answered 200: how long
/// it took.
fn legitimate_request(server: &Server) -> Duration {
    let asked = Instant::now();
    let response = client()
        .get(format!("{}index.json", server.url))
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    asked.elapsed()
}

/// A connection to `port` from the loopback address `source` (any of
/// 127.0.0.0/8 is this machine): another client, as the server counts them.
fn connect_from(source: &str, port: u16) -> std::io::Result<TcpStream> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    let source: std::net::SocketAddr = format!("{source}:0").parse().unwrap();
    socket.bind(&source.into())?;
    let server: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    socket.connect(&server.into())?;
    Ok(socket.into())
}

/// One client opening more connections than the server keeps (4,096) gets
/// an eighth of them; the rest are closed at once, and every other client
/// is answered all the while. (Issue 29: 2 of 57 legitimate requests were
/// answered in 30 s.)
#[test]
fn one_client_cannot_hold_every_connection() {
    const GREEDY: usize = 4200;
    let files = rustix::process::getrlimit(rustix::process::Resource::Nofile);
    if files.current.is_some_and(|n| n < GREEDY as u64 + 256) {
        eprintln!(
            "skipped: this test needs {} open files, the limit is {files:?}",
            GREEDY + 256
        );
        return;
    }
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);
    let server = Server::dir(&site);
    let port = port(&server);
    let mut greedy: Vec<TcpStream> = (0..GREEDY)
        .map(|_| connect_from("127.0.0.2", port).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let mut slowest = Duration::ZERO;
    for _ in 0..20 {
        slowest = slowest.max(legitimate_request(&server));
    }
    assert!(
        slowest < Duration::from_secs(2),
        "a request took {slowest:?}"
    );
    // The greedy client's connections past its share were closed.
    let open = greedy
        .iter_mut()
        .map(|stream| {
            stream.set_nonblocking(true).unwrap();
            matches!(stream.read(&mut [0; 64]), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
        })
        .filter(|open| *open)
        .count();
    assert!(open <= 4096 / 8, "{open} of one client's connections open");
    assert!(open > 0, "the client got none");
}

/// Idle connections (nothing sent) and slow ones (a byte at a time) are
/// closed once the header timeout passes, and while they are held every
/// legitimate request is answered.
#[test]
fn idle_and_slow_clients_cannot_starve_the_server() {
    needs!(Need::Slow);
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);
    let server = Server::dir(&site);
    let port = port(&server);
    let started = Instant::now();
    // From other addresses than the legitimate client's: each address may
    // hold an eighth of the connections.
    let mut idle: Vec<TcpStream> = (0..400)
        .map(|_| connect_from("127.0.0.3", port).unwrap())
        .collect();
    let mut slow: Vec<TcpStream> = (0..50)
        .map(|_| {
            let mut stream = connect_from("127.0.0.4", port).unwrap();
            stream.write_all(b"GET /index.json HTTP/1.1\r\n").unwrap();
            stream
        })
        .collect();
    // Legitimate clients, all the while.
    let mut slowest = Duration::ZERO;
    while started.elapsed() < Duration::from_secs(6) {
        slowest = slowest.max(legitimate_request(&server));
        for stream in &mut slow {
            let _ = stream.write_all(b"X");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        slowest < Duration::from_secs(2),
        "a legitimate request took {slowest:?}"
    );
    // Past the timeout, the server has closed both kinds.
    std::thread::sleep(Duration::from_secs(8));
    for (what, streams) in [("idle", &mut idle), ("slow", &mut slow)] {
        let closed = streams
            .iter_mut()
            .map(|stream| {
                stream
                    .set_read_timeout(Some(Duration::from_secs(2)))
                    .unwrap();
                let mut buffer = [0; 512];
                // A closed connection reads its end (possibly after a 408).
                loop {
                    match stream.read(&mut buffer) {
                        Ok(0) => return true,
                        Ok(_) => continue,
                        Err(e) => return e.kind() == std::io::ErrorKind::ConnectionReset,
                    }
                }
            })
            .filter(|closed| *closed)
            .count();
        assert_eq!(
            closed,
            streams.len(),
            "{what} connections still open after the timeout"
        );
    }
}

/// The server's resident memory in kB.
fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// A cache-busting query and unique unknown paths do not grow the answer
/// cache: a file is kept once, errors not at all.
#[test]
fn cache_busters_and_unknown_paths_do_not_grow_memory() {
    needs!(Need::Slow);
    let dir = tempdir();
    let site = dir.path().join("dist");
    // A large `/all`: 20,000 entities.
    let input = generated_input(dir.path(), "input", 20_000, "A somewhat longer description");
    build_ok(&input, &site);
    let server = Server::dir(&site);
    let pid = server.pid();
    let get = |path: String| {
        let response = client()
            .get(format!("{}{}", server.url, path))
            .header("Accept-Encoding", "br")
            .send()
            .unwrap();
        let status = response.status().as_u16();
        let _ = response.bytes().unwrap();
        status
    };
    assert_eq!(get("all".into()), 200);
    let before = rss_kb(pid);
    for n in 0..300 {
        assert_eq!(get(format!("all?_={n}-{}", n * 7919)), 200);
        assert_eq!(get(format!("no/such/{n}/path-{}", n * 31)), 404);
    }
    let after = rss_kb(pid);
    let all_kb = std::fs::metadata(site.join("all")).unwrap().len() / 1024;
    assert!(
        after < before + 4 * all_kb + 20_000,
        "memory grew from {before} kB to {after} kB (/all is {all_kb} kB)"
    );
}

/// Single ranges: 206 with Content-Range, the suffix form, 416 past the
/// end, and the whole file when If-Range names another version.
#[test]
fn ranges_resume_a_download() {
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);
    let server = Server::dir(&site);
    let all = std::fs::read(site.join("all")).unwrap();
    let len = all.len();
    let ranged = |range: &str, if_range: Option<&str>| {
        let mut request = client()
            .get(format!("{}all", server.url))
            .header("Range", range);
        if let Some(tag) = if_range {
            request = request.header("If-Range", tag);
        }
        request.send().unwrap()
    };
    let whole = client().get(format!("{}all", server.url)).send().unwrap();
    assert_eq!(whole.headers()["accept-ranges"], "bytes");
    let tag = whole.headers()["etag"].to_str().unwrap().to_owned();

    let part = ranged("bytes=10-99", None);
    assert_eq!(part.status(), 206);
    assert!(crate::serve::vary(&part).contains("accept-encoding"));
    assert_eq!(
        part.headers()["content-range"],
        format!("bytes 10-99/{len}").as_str()
    );
    assert_eq!(part.bytes().unwrap(), &all[10..100]);
    let tail = ranged("bytes=-20", Some(&tag));
    assert_eq!(tail.status(), 206);
    assert_eq!(tail.bytes().unwrap(), &all[len - 20..]);
    let past = ranged(&format!("bytes={len}-"), None);
    assert_eq!(past.status(), 416);
    assert_eq!(
        past.headers()["content-range"],
        format!("bytes */{len}").as_str()
    );
    let changed = ranged("bytes=0-9", Some("W/\"another\""));
    assert_eq!(changed.status(), 200);
    assert_eq!(changed.bytes().unwrap(), &all[..]);
}

/// `build` into the directory a plain `serve --dir` serves: the server
/// notices the swap and answers from the new site, whole.
#[test]
fn a_build_over_the_served_directory_is_served_whole() {
    let dir = tempdir();
    let input = dir.path().join("input");
    copy_tree(&tiny_input(), &input);
    let site = dir.path().join("dist");
    build_ok(&input, &site);
    let server = Server::dir(&site);
    let entity = read_json(&site.join("index.json"))["items"][0]["slug"]
        .as_str()
        .unwrap()
        .to_owned();
    let manifest = input.join("ontology.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen("\"name\": \"", "\"name\": \"Rebuilt ", 1),
    )
    .unwrap();
    build_ok(&input, &site);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let info = client().get(&server.url).send().unwrap();
        let name =
            serde_json::from_slice::<serde_json::Value>(&info.bytes().unwrap()).unwrap()["name"]
                .clone();
        if name.as_str().is_some_and(|n| n.starts_with("Rebuilt")) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "still serving the old site: {name}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    for path in [
        "",
        "context.jsonld",
        "index.json",
        &format!("{entity}.json"),
    ] {
        let response = client()
            .get(format!("{}{path}", server.url))
            .send()
            .unwrap();
        assert_eq!(response.status(), 200, "/{path}");
    }
}

/// A bounded fuzz of `serve`'s request path: 1,500 requests mutated from
/// real ones (paths with encodings, dot segments, NUL, non-UTF-8 bytes and
/// long runs; queries with the same; Accept, Range and If-None-Match
/// headers of random shape), each on its own connection, seeded so a
/// failure can be replayed. No answer is a 5xx, none takes more than 5 s,
/// none holds a byte of a file outside the site, and the server answers a
/// plain request at the end.
#[test]
fn a_fuzzed_request_path_never_fails_the_server() {
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);
    // A file beside the site, which no request may reach.
    std::fs::write(dir.path().join("secret.txt"), "NOT-PART-OF-THE-SITE").unwrap();
    let server = Server::dir(&site);
    let port = port(&server);

    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    const PATHS: &[&str] = &[
        "/",
        "/index.json",
        "/acmecreateitem.json",
        "/acmecreateitem",
        "/search?q=acme",
        "/search?q=item&limit=2&offset=1",
        "/pages/index/1.json",
        "/vocab",
        "/.well-known/void",
        "/all",
        "/browse/index.html",
        "/ui/site.js",
        "/search/",
        "/../secret.txt",
    ];
    const PIECES: &[&str] = &[
        "%2e%2e/",
        "../",
        "%00",
        "%ff",
        "%c0%af",
        "\\",
        "//",
        "%2F",
        "?",
        "&",
        "=",
        "#",
        "%",
        "é",
        "\u{202e}",
        "q=",
        "limit=-1",
        "offset=99999999999999999999",
        ";",
        " ",
        "%20",
        "secret.txt",
        "..%2fsecret.txt",
        "%252e%252e%252f",
    ];
    const ACCEPTS: &[&str] = &[
        "*/*",
        "text/turtle;q=0.5, application/ld+json",
        "application/json;q=abc",
        ";;;,,,",
        "text/html, */*;q=0",
        "application/n-triples;q=1.5",
    ];
    let mut failures = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for case in 0..1500 {
        let mut path = PATHS[(next() % PATHS.len() as u64) as usize].to_owned();
        for _ in 0..(next() % 4) {
            let piece = PIECES[(next() % PIECES.len() as u64) as usize];
            let at = (next() % (path.len() as u64 + 1)) as usize;
            let at = (0..=at)
                .rev()
                .find(|&i| path.is_char_boundary(i))
                .unwrap_or(0);
            path.insert_str(at, piece);
        }
        if next() % 50 == 0 {
            path.push_str(&"a".repeat(3000));
        }
        let mut request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n");
        if next() % 2 == 0 {
            let accept = ACCEPTS[(next() % ACCEPTS.len() as u64) as usize];
            request.push_str(&format!("Accept: {accept}\r\n"));
        }
        if next() % 5 == 0 {
            request.push_str(&format!(
                "Range: bytes={}-{}\r\n",
                next() % 100,
                next() % 50
            ));
        }
        if next() % 5 == 0 {
            request.push_str("If-None-Match: W/\"x\", *\r\n");
        }
        request.push_str("\r\n");
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let started = Instant::now();
        let _ = stream.write_all(request.as_bytes());
        let mut answer = Vec::new();
        let read = stream.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer);
        let status: Option<u16> = text
            .strip_prefix("HTTP/1.1 ")
            .and_then(|rest| rest.get(..3))
            .and_then(|code| code.parse().ok());
        let problem = match (read, status) {
            (Err(e), _) => Some(format!("no answer in {:?}: {e}", started.elapsed())),
            (Ok(_), Some(code)) if code >= 500 => Some(format!("status {code}")),
            (Ok(_), None) if !answer.is_empty() => Some("not HTTP".to_owned()),
            _ if text.contains("NOT-PART-OF-THE-SITE") => {
                Some("served a file outside the site".to_owned())
            }
            _ => None,
        };
        if let Some(problem) = problem {
            failures.push(format!("case {case}: {problem}: {request:?}"));
        }
        seen.extend(status);
    }
    // The mutations reach every kind of answer, not only one refusal.
    for status in [200, 206, 303, 304, 400, 404] {
        assert!(seen.contains(&status), "no {status} among {seen:?}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    let response = client()
        .get(format!("{}index.json", server.url))
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
}

/// Two clients sending a 60,000-character search term for ten seconds
/// each get the 400 problem document at once, and every other client's
/// `/api.json` stays fast all the while. (Issue 62: one such term cost a
/// second of CPU on the connection's own thread, and `/api.json` took 2.4 s
/// at the median.)
#[test]
fn a_long_search_term_cannot_starve_the_server() {
    needs!(Need::Slow);
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&shipped_input(), &site);
    let server = Server::dir(&site);
    let long = format!("{}search?q={}", server.url, "a".repeat(60_000));
    let run = Duration::from_secs(10);
    let started = Instant::now();
    let greedy: Vec<_> = (0..2)
        .map(|_| {
            let long = long.clone();
            std::thread::spawn(move || {
                let mut took = Vec::new();
                while started.elapsed() < run {
                    let asked = Instant::now();
                    let response = client().get(&long).send().unwrap();
                    assert_eq!(response.status(), 400);
                    let problem: serde_json::Value =
                        serde_json::from_slice(&response.bytes().unwrap()).unwrap();
                    let detail = problem["detail"].as_str().unwrap().to_owned();
                    assert!(detail.contains("at most 128"), "{detail}");
                    took.push(asked.elapsed());
                }
                took
            })
        })
        .collect();
    let mut api = Vec::new();
    while started.elapsed() < run {
        let asked = Instant::now();
        let response = client()
            .get(format!("{}api.json", server.url))
            .send()
            .unwrap();
        assert_eq!(response.status(), 200);
        api.push(asked.elapsed());
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut long_took: Vec<Duration> = greedy
        .into_iter()
        .flat_map(|client| client.join().unwrap())
        .collect();
    let median = |times: &mut Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    let (api_p50, long_p50) = (median(&mut api), median(&mut long_took));
    eprintln!(
        "a 60,000-character term: {} answered, median {long_p50:?}; /api.json beside them: {} answered, median {api_p50:?}",
        long_took.len(),
        api.len()
    );
    assert!(
        api_p50 < Duration::from_millis(50),
        "/api.json took {api_p50:?} at the median"
    );
    assert!(
        long_p50 < Duration::from_millis(100),
        "the long term took {long_p50:?} at the median"
    );
}
