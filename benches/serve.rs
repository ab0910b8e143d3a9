//! `cargo bench --bench serve`: requests per second and p99 latency of
//! `ontosite serve` under wrk on loopback, beside nginx serving the same
//! `dist/` in the same run (Debian's packages: `apt-get install wrk nginx`).
//!
//! The two servers are alternated (A B A B), each run bounded in time, and
//! medians reported. wrk and the servers share the machine's cores, so the
//! ratio is the figure to read, not the absolute rate.
//!
//! Then search at scale: `ontosite serve` on a synthetic ontology of
//! `ONTOSITE_BENCH_ENTITIES` entities (1,000,000), built without its entity
//! files (`common::build_without_entity_files`, which search never reads),
//! in `ONTOSITE_BENCH_WORK` (`target/bench-serve`): thousands of typical
//! queries in turn, and queries that match every entity.

mod common;

use common::{build_without_entity_files, machine, synthetic};
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
    let work = std::env::var_os("ONTOSITE_BENCH_WORK")
        .map_or_else(|| root.join("target/bench-serve"), PathBuf::from);
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
            ours.rate,
            ours.p99,
            ours.rate / theirs.rate
        );
        println!(
            "| {label} | nginx | {:.0} | {:.2} ms | |",
            theirs.rate, theirs.p99
        );
    }
    let target = Target::Script(&scripts.searches);
    warm(&ontosite, &target);
    let runs: Vec<_> = (0..ROUNDS).map(|_| wrk(&ontosite, &target)).collect();
    let search = median(runs);
    println!(
        "| /search?q= (every vendor name in turn) | ontosite serve | {:.0} | {:.2} ms | (nginx has no search) |",
        search.rate, search.p99
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
        ours.rate,
        ours.p99,
        ours.rate / plain.rate
    );
    println!(
        "| /{{slug}}.ttl (every entity in turn) | ontosite serve | {:.0} | {:.2} ms | |",
        plain.rate, plain.p99
    );
    drop((ontosite, nginx));
    search_at_scale(&work);
    let _ = std::fs::remove_dir_all(&work);
}

/// `ontosite serve`'s search on a synthetic ontology of many entities.
fn search_at_scale(work: &Path) {
    let entities: usize = std::env::var("ONTOSITE_BENCH_ENTITIES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    let input = synthetic(work, entities);
    let site = work.join("large");
    let started = std::time::Instant::now();
    build_without_entity_files(&input, &site);
    let _ = std::fs::remove_dir_all(&input);
    println!();
    println!(
        "search at scale: {entities} synthetic entities (built without entity files in {:.0} s); wrk -t2 -c{CONNECTIONS} -d{SECONDS}s, {ROUNDS} rounds, medians",
        started.elapsed().as_secs_f64()
    );
    println!();
    let started = std::time::Instant::now();
    let server = Server::ontosite(&site);
    println!(
        "`serve` listening after {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    println!();
    let typical = wrk_script(work, "typical", &typical_queries(entities, 3000), "");
    println!("| query | p50 | p99 | requests/s |");
    println!("|---|---:|---:|---:|");
    for (label, target) in [
        (
            "3,000 typical queries in turn (`vendorN`, `vendorN create`, `vendorN delete item`, `update vendorN`, `vendorM`)",
            Target::Script(&typical),
        ),
        ("`item` (every entity)", Target::Path("/search?q=item")),
        (
            "`vendor12 delete` (11,111 matches)",
            Target::Path("/search?q=vendor12+delete"),
        ),
        (
            "`item ven` (every entity)",
            Target::Path("/search?q=item+ven"),
        ),
    ] {
        warm(&server, &target);
        let run = median((0..ROUNDS).map(|_| wrk(&server, &target)).collect());
        println!(
            "| {label} | {:.2} ms | {:.2} ms | {:.0} |",
            run.p50, run.p99, run.rate
        );
    }
}

/// `count` search paths a reader might type at a synthetic ontology of
/// `entities`, of vendors picked at random (a fixed seed): a vendor, a
/// vendor and an operation, both and `item`, an operation first, and a
/// vendor number's prefix (ten vendors).
fn typical_queries(entities: usize, count: usize) -> Vec<String> {
    let vendors = (entities / 3).max(1) as u64;
    let operations = ["create", "update", "delete"];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        // xorshift64: the same queries on every run.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|i| {
            let vendor = next() % vendors;
            let operation = operations[(next() % 3) as usize];
            let q = match i % 5 {
                0 => format!("vendor{vendor}"),
                1 => format!("vendor{vendor}+{operation}"),
                2 => format!("vendor{vendor}+{operation}+item"),
                3 => format!("{operation}+vendor{vendor}"),
                _ => format!("vendor{}", vendor / 10),
            };
            format!("/search?q={q}")
        })
        .collect()
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
    let script =
        |name: &str, paths: &[String], headers: &str| wrk_script(work, name, paths, headers);
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

/// A wrk Lua script in `work` that requests `paths` in turn, with
/// `headers` (a Lua table's entries).
fn wrk_script(work: &Path, name: &str, paths: &[String], headers: &str) -> PathBuf {
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

/// What one wrk run measured: requests per second, and the median and
/// 99th percentile latency in ms.
struct Measured {
    rate: f64,
    p50: f64,
    p99: f64,
}

/// One wrk run.
fn wrk(server: &Server, target: &Target) -> Measured {
    wrk_expecting(server, target, false)
}

/// As `wrk`; `redirects` when every answer is to be a 303.
fn wrk_expecting(server: &Server, target: &Target, redirects: bool) -> Measured {
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
    let percentile = |name: &str| {
        output
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .map(|v| latency_ms(v.trim()))
            .expect("wrk printed its latency distribution")
    };
    Measured {
        rate,
        p50: percentile("50%"),
        p99: percentile("99%"),
    }
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

/// The median of each figure over the runs.
fn median(runs: Vec<Measured>) -> Measured {
    let of = |figure: fn(&Measured) -> f64| {
        let mut values: Vec<f64> = runs.iter().map(figure).collect();
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    Measured {
        rate: of(|m| m.rate),
        p50: of(|m| m.p50),
        p99: of(|m| m.p99),
    }
}
