//! `cargo bench --bench serve`: requests per second and p99 latency of
//! `ontosite serve` under wrk on loopback, beside nginx serving the same
//! `dist/` in the same run (Debian's packages: `apt-get install wrk nginx`).
//!
//! The two servers are alternated (A B A B), each run bounded in time, and
//! medians reported. wrk and the servers share the machine's cores, so the
//! ratio is the figure to read, not the absolute rate.

mod common;

use common::machine;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

const ROUNDS: usize = 3;
const SECONDS: u32 = 5;
const CONNECTIONS: u32 = 64;

fn main() {
    for tool in ["wrk", "nginx"] {
        if Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .map_or(true, |o| !o.status.success())
        {
            eprintln!("the serve benchmark needs {tool}: apt-get install wrk nginx");
            std::process::exit(1);
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("target/bench-serve");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let site = work.join("dist");
    let status = Command::new(env!("CARGO_BIN_EXE_ontosite"))
        .args(["build", "--quiet", "--input"])
        .arg(root.join("input"))
        .arg("--out")
        .arg(&site)
        .status()
        .unwrap();
    assert!(status.success());

    let ontosite = Server::ontosite(&site);
    let nginx = Server::nginx(&site, &work);
    let scripts = scripts(&site, &work);

    println!(
        "machine: {}; wrk -t2 -c{CONNECTIONS} -d{SECONDS}s, {ROUNDS} rounds, medians",
        machine()
    );
    println!();
    println!("| endpoint | server | requests/s | p99 latency | ontosite / nginx |");
    println!("|---|---|---:|---:|---:|");
    for (label, target) in [
        (
            "/{slug}.json (every entity in turn)",
            Target::Script(&scripts.entities),
        ),
        ("/index.json (528 KB)", Target::Path("/index.json")),
    ] {
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        warm(&ontosite, &target);
        warm(&nginx, &target);
        for _ in 0..ROUNDS {
            ours.push(wrk(&ontosite, &target));
            theirs.push(wrk(&nginx, &target));
        }
        let (ours, theirs) = (median(ours), median(theirs));
        println!(
            "| {label} | ontosite serve | {:.0} | {:.2} ms | {:.2} |",
            ours.0,
            ours.1,
            ours.0 / theirs.0
        );
        println!(
            "| {label} | nginx | {:.0} | {:.2} ms | |",
            theirs.0, theirs.1
        );
    }
    let target = Target::Script(&scripts.searches);
    warm(&ontosite, &target);
    let runs: Vec<_> = (0..ROUNDS).map(|_| wrk(&ontosite, &target)).collect();
    let search = median(runs);
    println!(
        "| /search?q= (every vendor name in turn) | ontosite serve | {:.0} | {:.2} ms | (nginx has no search) |",
        search.0, search.1
    );
    // Content negotiation: an entity's IRI asking for Turtle (303 to the
    // file) against the Turtle file itself, alternated.
    let (negotiated, turtle) = (
        Target::Script(&scripts.negotiated),
        Target::Script(&scripts.turtle),
    );
    warm(&ontosite, &negotiated);
    warm(&ontosite, &turtle);
    let (mut ours, mut plain) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        ours.push(wrk_expecting(&ontosite, &negotiated, true));
        plain.push(wrk(&ontosite, &turtle));
    }
    let (ours, plain) = (median(ours), median(plain));
    println!(
        "| /{{slug}} with Accept: text/turtle (303 See Other, every entity in turn) | ontosite serve | {:.0} | {:.2} ms | {:.2} of /{{slug}}.ttl |",
        ours.0,
        ours.1,
        ours.0 / plain.0
    );
    println!(
        "| /{{slug}}.ttl (every entity in turn) | ontosite serve | {:.0} | {:.2} ms | |",
        plain.0, plain.1
    );
    drop((ontosite, nginx));
    let _ = std::fs::remove_dir_all(&work);
}

/// A server under test, stopped on drop.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn ontosite(site: &Path) -> Server {
        let (child, url) = common::serve(site);
        Server {
            child,
            url: url.trim_end_matches('/').to_owned(),
        }
    }

    /// nginx as a static host would run it: the same files, the same
    /// headers on every response, sendfile, no access log (ontosite keeps
    /// none either).
    fn nginx(site: &Path, work: &Path) -> Server {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let config = work.join("nginx.conf");
        std::fs::write(
            &config,
            format!(
                r#"daemon off;
worker_processes 2;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
  include /etc/nginx/mime.types;
  types {{ application/ld+json jsonld; }}
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path {work}/nginx-tmp;
  proxy_temp_path {work}/nginx-tmp;
  fastcgi_temp_path {work}/nginx-tmp;
  uwsgi_temp_path {work}/nginx-tmp;
  scgi_temp_path {work}/nginx-tmp;
  server {{
    listen 127.0.0.1:{port};
    root {site};
    add_header Access-Control-Allow-Origin "*" always;
    add_header Cache-Control "public, max-age=3600" always;
    add_header X-Content-Type-Options nosniff always;
  }}
}}
"#,
                work = work.display(),
                site = site.display()
            ),
        )
        .unwrap();
        // Waited for in `Drop`.
        #[allow(clippy::zombie_processes)]
        let child = Command::new("nginx")
            .arg("-c")
            .arg(&config)
            .arg("-e")
            .arg(work.join("nginx-error.log"))
            .spawn()
            .unwrap();
        let url = format!("http://127.0.0.1:{port}");
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Server { child, url };
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!(
            "nginx did not start; see {}",
            work.join("nginx-error.log").display()
        );
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // nginx stops gracefully on SIGQUIT, its workers with it.
        let _ = Command::new("kill")
            .arg("-QUIT")
            .arg(self.child.id().to_string())
            .status();
        std::thread::sleep(Duration::from_millis(200));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

enum Target<'a> {
    Path(&'a str),
    /// A wrk Lua script that requests a list of paths in turn.
    Script(&'a Path),
}

/// Lua scripts that walk every entity file, a search for every vendor, and
/// every entity's IRI negotiated, against its Turtle file.
fn scripts(site: &Path, work: &Path) -> Scripts {
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site.join("index.json")).unwrap()).unwrap();
    let items = index["items"].as_array().unwrap();
    let entities: Vec<String> = items
        .iter()
        .map(|i| format!("/{}.json", i["slug"].as_str().unwrap()))
        .collect();
    let mut vendors: Vec<String> = items
        .iter()
        .map(|i| {
            i["name"]
                .as_str()
                .unwrap()
                .split(" - ")
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    vendors.dedup();
    let searches: Vec<String> = vendors
        .iter()
        .map(|v| {
            format!(
                "/search?q={}",
                url::form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>()
            )
        })
        .collect();
    let script = |name: &str, paths: &[String], headers: &str| {
        let list = work.join(format!("{name}.txt"));
        std::fs::write(&list, paths.join("\n")).unwrap();
        let path = work.join(format!("{name}.lua"));
        std::fs::write(
            &path,
            format!(
                "local paths = {{}}\nfor line in io.lines(\"{}\") do paths[#paths + 1] = line end\nlocal i = 0\nrequest = function()\n  i = i + 1\n  return wrk.format(\"GET\", paths[(i % #paths) + 1], {{{headers}}})\nend\n",
                list.display()
            ),
        )
        .unwrap();
        path
    };
    let slugs: Vec<String> = items
        .iter()
        .map(|i| format!("/{}", i["slug"].as_str().unwrap()))
        .collect();
    let turtle: Vec<String> = slugs.iter().map(|s| format!("{s}.ttl")).collect();
    Scripts {
        entities: script("entities", &entities, ""),
        searches: script("search", &searches, ""),
        negotiated: script("negotiated", &slugs, "[\"Accept\"] = \"text/turtle\""),
        turtle: script("turtle", &turtle, ""),
    }
}

/// wrk Lua scripts, each walking a list of paths.
struct Scripts {
    /// Every entity's `.json`.
    entities: PathBuf,
    /// A search for every vendor.
    searches: PathBuf,
    /// Every entity's IRI, asking for Turtle (a 303 each).
    negotiated: PathBuf,
    /// Every entity's `.ttl`.
    turtle: PathBuf,
}

fn warm(server: &Server, target: &Target) {
    run_wrk(server, target, 2);
}

/// One wrk run: requests per second and p99 latency in ms.
fn wrk(server: &Server, target: &Target) -> (f64, f64) {
    wrk_expecting(server, target, false)
}

/// As `wrk`; `redirects` when every answer is to be a 303.
fn wrk_expecting(server: &Server, target: &Target, redirects: bool) -> (f64, f64) {
    let output = run_wrk(server, target, SECONDS);
    assert!(
        redirects || !output.contains("Non-2xx"),
        "{} answered errors:\n{output}",
        server.url
    );
    let rate = output
        .lines()
        .find_map(|l| l.strip_prefix("Requests/sec:"))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .expect("wrk printed a rate");
    let p99 = output
        .lines()
        .find_map(|l| l.trim().strip_prefix("99%"))
        .map(|v| latency_ms(v.trim()))
        .expect("wrk printed a p99");
    (rate, p99)
}

fn run_wrk(server: &Server, target: &Target, seconds: u32) -> String {
    let mut command = Command::new("wrk");
    command.args([
        "-t2",
        &format!("-c{CONNECTIONS}"),
        &format!("-d{seconds}s"),
        "--latency",
    ]);
    let url = match target {
        Target::Path(path) => format!("{}{path}", server.url),
        Target::Script(script) => {
            command.arg("-s").arg(script);
            format!("{}/", server.url)
        }
    };
    let output = command.arg(url).output().expect("running wrk");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn latency_ms(text: &str) -> f64 {
    let split = text
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(text.len());
    let (value, unit) = text.split_at(split);
    let value: f64 = value.parse().unwrap_or(f64::NAN);
    match unit {
        "us" => value / 1000.0,
        "ms" => value,
        "s" => value * 1000.0,
        _ => f64::NAN,
    }
}

fn median(mut runs: Vec<(f64, f64)>) -> (f64, f64) {
    let mid = runs.len() / 2;
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let rate = runs[mid].0;
    runs.sort_by(|a, b| a.1.total_cmp(&b.1));
    (rate, runs[mid].1)
}
