//! `cargo bench --bench handlers`: what the bundled layout costs per
//! request where it moves an entity's documents from static files to the
//! host's handler, in the hosts' real runtimes: Cloudflare Pages under
//! `wrangler pages dev` (workerd) and Netlify's Edge Function in Deno
//! (`tests/runtimes/netlify-edge.mjs`, its static side `serve --static`).
//! It builds the shipped set both ways, requests every fifth entity's five
//! documents one at a time, five rounds after a warm-up, and prints the
//! median and 90th percentile latency of each, with the bundles' sizes.
//! Then the same for the big documents a handler joins (`site::parts`):
//! the shipped set built for a host that takes no file over 650 kB, so
//! that `/all`, the lists and the dumps are joined from their pages and
//! parts, against the whole files.
//! Needs `scripts/test.sh` to have installed the runtimes.

mod common;

use common::{first_line, machine, serve_with};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ROUNDS: usize = 5;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let runtimes = root.join("tests/runtimes/node_modules/.bin");
    assert!(
        runtimes.join("wrangler").exists() && runtimes.join("deno").exists(),
        "run scripts/test.sh first: it installs wrangler and Deno"
    );
    let work = root.join("target/bench-handlers");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let ontosite = env!("CARGO_BIN_EXE_ontosite");
    let input = root.join("input");
    let build = |name: &str, args: &[&str]| {
        let out = work.join(name);
        let status = Command::new(ontosite)
            .args(["build", "--quiet", "--input"])
            .arg(&input)
            .arg("--out")
            .arg(&out)
            .args(args)
            .env("ONTOSITE_HOST_LIMITS", "file-bytes=650000")
            .status()
            .unwrap();
        assert!(status.success());
        out
    };
    let sites: Vec<(&str, PathBuf)> = ["files", "bundled"]
        .iter()
        .map(|layout| (*layout, build(layout, &["--layout", layout])))
        .collect();
    let slugs = slugs(&sites[0].1);
    let paths: Vec<String> = slugs
        .iter()
        .step_by(5)
        .flat_map(|slug| {
            ["json", "jsonld", "ttl", "nt", "html"].map(|ext| format!("/{slug}.{ext}"))
        })
        .collect();
    println!("machine: {}", machine());
    println!(
        "{} requests a round ({} entities, five documents each), {ROUNDS} rounds",
        paths.len(),
        paths.len() / 5
    );
    let bundles = bundle_sizes(&sites[1].1);
    println!(
        "bundles: {} files, median {} bytes, largest {} bytes",
        bundles.len(),
        bundles[bundles.len() / 2],
        bundles[bundles.len() - 1]
    );
    println!("| runtime | layout | median | p90 |");
    println!("|---|---|---:|---:|");
    compare(&root, &runtimes, &sites, &paths);
    let joined = vec![
        ("whole files", sites[0].1.clone()),
        ("joined", build("joined", &["--host", "cloudflare"])),
    ];
    let wholes: Vec<String> = [
        "/all",
        "/index.json",
        "/index.jsonld",
        "/index.nt",
        "/index.ttl",
        "/dump.nt",
        "/dump.ttl",
    ]
    .map(String::from)
    .to_vec();
    println!(
        "\nthe big documents ({}), one at a time:",
        wholes.join(", ")
    );
    println!("| runtime | answered from | median | p90 |");
    println!("|---|---|---:|---:|");
    compare(&root, &runtimes, &joined, &wholes);
}

/// Times `paths` on each site under workerd and under Deno, a row each.
fn compare(root: &Path, runtimes: &Path, sites: &[(&str, PathBuf)], paths: &[String]) {
    for (layout, site) in sites {
        let (mut child, url) = cloudflare(runtimes, site);
        let (median, p90) = timed(&url, paths);
        println!("| workerd (`wrangler pages dev`) | {layout} | {median:.2} ms | {p90:.2} ms |");
        let _ = child.kill();
        let _ = child.wait();
        let (mut origin, origin_url) = serve_with(site, &["--static"]);
        let (mut edge, edge_url) = netlify(root, runtimes, site, &origin_url);
        let (median, p90) = timed(&edge_url, paths);
        println!("| Deno (Netlify Edge Function) | {layout} | {median:.2} ms | {p90:.2} ms |");
        for child in [&mut edge, &mut origin] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The entities' slugs, from the site's list.
fn slugs(site: &Path) -> Vec<String> {
    let list: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site.join("index.json")).unwrap()).unwrap();
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["slug"].as_str().unwrap().to_owned())
        .collect()
}

fn bundle_sizes(site: &Path) -> Vec<u64> {
    let mut sizes: Vec<u64> = walk(&site.join("entity-bundles"))
        .into_iter()
        .filter(|p| !p.ends_with("index.json"))
        .map(|p| std::fs::metadata(p).unwrap().len())
        .collect();
    sizes.sort_unstable();
    sizes
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}

/// Median and 90th percentile of each request, in milliseconds, after a
/// round of warm-up; every answer must be a 200.
fn timed(base: &str, paths: &[String]) -> (f64, f64) {
    let client = reqwest::blocking::Client::new();
    let get = |path: &str| {
        let response = client
            .get(format!("{}{path}", base.trim_end_matches('/')))
            .send()
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        response.bytes().unwrap();
    };
    for path in paths {
        get(path);
    }
    let mut times = Vec::new();
    for _ in 0..ROUNDS {
        for path in paths {
            let started = Instant::now();
            get(path);
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.sort_by(|a, b| a.total_cmp(b));
    (times[times.len() / 2], times[times.len() * 9 / 10])
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits until `url` answers.
fn ready(url: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while reqwest::blocking::get(url).is_err() {
        assert!(Instant::now() < deadline, "{url} never answered");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn cloudflare(runtimes: &Path, site: &Path) -> (Child, String) {
    let (port, inspector) = (free_port(), free_port());
    // wrangler keeps its scratch files (`.wrangler/`) in its working
    // directory: the site's parent, not the checkout.
    let child = Command::new(runtimes.join("wrangler"))
        .current_dir(site.parent().unwrap())
        .args(["pages", "dev"])
        .arg(site)
        .args(["--ip", "127.0.0.1", "--port", &port.to_string()])
        .args(["--inspector-port", &inspector.to_string()])
        .args(["--compatibility-date", "2026-04-01"])
        .args([
            "--log-level",
            "error",
            "--show-interactive-dev-session=false",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}/");
    ready(&url);
    (child, url)
}

fn netlify(root: &Path, runtimes: &Path, site: &Path, origin: &str) -> (Child, String) {
    let mut child = Command::new(runtimes.join("deno"))
        .args(["run", "--no-prompt", "--allow-net=127.0.0.1"])
        .arg(format!("--allow-read={}", site.display()))
        .arg(root.join("tests/runtimes/netlify-edge.mjs"))
        .arg(site.join("_edge/netlify/search.js"))
        .arg(origin)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let url = first_line(&mut child)
        .trim_start_matches("listening on ")
        .to_owned();
    ready(&url);
    (child, url)
}
