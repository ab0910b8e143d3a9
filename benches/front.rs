//! `cargo bench --bench front`: the front door in Chromium, on the shipped
//! set and on a synthetic ontology of a million entities: page load from
//! disk and through `ontosite serve`, time from typing to the first
//! results (cold and warm), the bytes a query fetches, the page's own
//! weight gzipped (`tests/browser/bench.mjs` measures; this prints).
//!
//! `ONTOSITE_BENCH_ENTITIES` sets the synthetic size (1,000,000), and
//! `ONTOSITE_BENCH_WORK` where the sites are built (`target/bench-front`).
//!
//! A whole million-entity site is five million files, more than this
//! machine's tmpfs holds (20,000 entities take 587 MB of it), so the large
//! site is built without its entity files and its whole-site lists and
//! dumps (`/all`, `index.json`, `dump.nt`, …): every other document,
//! rendered by the library exactly as `ontosite build` renders it. What is
//! measured (the front page, search, browsing) reads nothing else.

mod common;

use common::{build_without_entity_files, machine, synthetic};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Instant;

/// Queries a reader types: one vendor, two words matching many, a prefix.
const QUERIES: [&str; 3] = ["vendor1 create", "create item", "item"];
const SHIPPED_QUERIES: [&str; 3] = ["abb", "create item", "git"];

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let work = std::env::var_os("ONTOSITE_BENCH_WORK")
        .map_or_else(|| root.join("target/bench-front"), PathBuf::from);
    let entities = common::entities(1_000_000);
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    println!("machine: {}", machine());
    println!();
    println!(
        "| site | way | page load (median) | query | matches | first results, cold | again, warm | bytes fetched for the query |"
    );
    println!("|---|---|---:|---|---:|---:|---:|---:|");
    let shipped = work.join("shipped");
    build(&root.join("input"), &shipped);
    let weight = measure("shipped (2,258)", &shipped, &SHIPPED_QUERIES, true);
    let input = synthetic(&work, entities);
    let large = work.join("large");
    let started = Instant::now();
    build_without_entity_files(&input, &large);
    let built = started.elapsed();
    let _ = std::fs::remove_dir_all(&input);
    // From disk and from a plain static host; `serve` at this size is
    // measured by `cargo bench --bench serve`.
    measure(&format!("synthetic ({entities})"), &large, &QUERIES, false);
    println!();
    println!("the page's own HTML, CSS and script, gzipped: {weight} B");
    println!(
        "the synthetic site without its entity files: loaded and written in {:.1} s",
        built.as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&work);
}

fn build(input: &Path, out: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_ontosite"))
        .args(["build", "--quiet", "--input"])
        .arg(input)
        .arg("--out")
        .arg(out)
        .status()
        .unwrap();
    assert!(status.success(), "the build failed");
}

/// Prints a site's rows; returns the page's weight.
fn measure(label: &str, site: &Path, queries: &[&str], serve: bool) -> u64 {
    let started = Instant::now();
    let server = serve.then(|| Server::start(site));
    let ready = started.elapsed();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut command = Command::new("node");
    command
        .arg(root.join("tests/browser/bench.mjs"))
        .args(["--chromium", &chromium(), "--rounds", "5", "--dist"])
        .arg(site);
    match &server {
        Some(server) => command.args(["--server", &server.url]),
        None => command.arg("--static"),
    };
    let output = command.arg("--").args(queries).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    for (way, seen) in report["ways"].as_object().unwrap() {
        for (query, q) in seen["queries"].as_object().unwrap() {
            println!(
                "| {label} | {way} | {:.0} ms | `{query}` | {} | {:.0} ms | {:.1} ms | {} |",
                seen["loadMs"].as_f64().unwrap(),
                q["total"],
                q["coldMs"].as_f64().unwrap(),
                q["warmMs"].as_f64().unwrap(),
                q["bytesAfterLoad"],
            );
        }
    }
    if serve {
        println!(
            "| {label} | serve | ready in {} ms | | | | | |",
            ready.as_millis()
        );
    }
    report["pageBytesGzipped"].as_u64().unwrap()
}

fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

/// `ontosite serve` on a free port, stopped on drop.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(site: &Path) -> Server {
        let (child, url) = common::serve(site);
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
