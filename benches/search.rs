//! `cargo bench --bench search`: the search index from a client's side
//! (bytes, requests, latency in `search.js`, via `benches/search.mjs`) and
//! the Rust reference's latency, for the shipped set and 100k synthetic
//! entities.

mod common;

use common::synthetic;
use ontosite::render;
use ontosite::search::{Searcher, text};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("target/bench-search");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    measure(
        "shipped",
        &root.join("input"),
        &work,
        Some(searchable_text_gzip),
    );
    let hundred_thousand = synthetic(&work, 100_000);
    measure("synthetic 100k", &hundred_thousand, &work, None);
    // A million entities take minutes and gigabytes: the index alone, on
    // request.
    if std::env::var_os("ONTOSITE_BENCH_SEARCH_1M").is_some() {
        let million = synthetic(&work, 1_000_000);
        measure_index_only("synthetic 1M", &million, &work);
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// The search index of `input` written alone, as a build writes it (the
/// manifest, the `search/` files and `search.js`), without the rest of the
/// site, and measured as [`measure`] does, with the latency of a query
/// that matches every entity (`item`) apart.
fn measure_index_only(label: &str, input: &Path, work: &Path) {
    let started = Instant::now();
    let ontology = ontosite::source::load(input, None).unwrap();
    let corpus = ontosite::search::Corpus::of(&ontology);
    let index = render::search_index::build(&ontology.meta.base_url, &corpus).unwrap();
    drop(corpus);
    let out = work.join(format!("index-{}", label.replace(' ', "-")));
    std::fs::create_dir_all(out.join(ontosite::search::format::DIR)).unwrap();
    std::fs::write(out.join("search-index.json"), &index.manifest).unwrap();
    std::fs::write(out.join("search.js"), ontosite::search::client::SEARCH_JS).unwrap();
    for (path, packed) in &index.files {
        let mut bytes = Vec::new();
        packed.unpack_into(&mut bytes).unwrap();
        std::fs::write(out.join(path), bytes).unwrap();
    }
    println!(
        "## {label}: {} entities, index only ({} files written in {:.1} s)",
        ontology.entities.len(),
        index.files.len() + 1,
        started.elapsed().as_secs_f64()
    );
    drop(index);
    let every = ("matching every entity", vec!["item".to_owned()]);
    measure_groups(label, &out, work, &ontology, &[every], None);
}

/// Measures the strict and near queries of `ontology`, then `more`, on the
/// site or index at `out`.
fn measure_groups(
    label: &str,
    out: &Path,
    work: &Path,
    ontology: &ontosite::model::Ontology,
    more: &[(&str, Vec<String>)],
    text_size: Option<usize>,
) {
    let searcher = Searcher::new(ontology);
    let standard = [
        ("strict", queries(ontology)),
        ("near", near_queries(ontology)),
    ];
    for (group, queries) in standard.iter().chain(more) {
        let label = format!("{label}, {group} queries");
        measure_queries(&label, out, work, &searcher, queries, text_size);
    }
}

fn measure(
    label: &str,
    input: &Path,
    work: &Path,
    text_size: Option<fn(&ontosite::model::Ontology) -> usize>,
) {
    let out = work.join(format!("site-{}", label.replace(' ', "-")));
    let status = Command::new(env!("CARGO_BIN_EXE_ontosite"))
        .args(["build", "--quiet", "--input"])
        .arg(input)
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let ontology = ontosite::source::load(input, None).unwrap();
    println!("## {label}: {} entities", ontology.entities.len(),);
    let text_size = text_size.map(|size| size(&ontology));
    measure_groups(label, &out, work, &ontology, &[], text_size);
}

/// Prints what a fresh client fetches for `queries`, and the latency of
/// `search.js` and of the Rust reference.
fn measure_queries(
    label: &str,
    out: &Path,
    work: &Path,
    searcher: &Searcher,
    queries: &[String],
    text_size: Option<usize>,
) {
    let queries_path = work.join("queries.json");
    std::fs::write(&queries_path, serde_json::to_vec(&queries).unwrap()).unwrap();

    // Rust: search and render the answer, every query 5 times.
    let mut times = Vec::new();
    for _ in 0..5 {
        for q in queries {
            let started = Instant::now();
            std::hint::black_box(
                ontosite::site::answers::search_response(searcher, Some(q), None, None).unwrap(),
            );
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.sort_by(f64::total_cmp);
    let pick = |p: f64| times[((p * times.len() as f64) as usize).min(times.len() - 1)];

    let output = Command::new("node")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/search.mjs"))
        .arg(out)
        .arg(&queries_path)
        .output()
        .expect("node");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let js: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let entities = searcher.listings().len() as f64;
    let index = &js["index"];
    let per = &js["perQuery"];
    println!("### {label}: {} queries", queries.len());
    println!(
        "index: {} files, {} bytes raw ({:.0} per entity), {} gzipped ({:.0} per entity); manifest {} raw, {} gzipped",
        index["files"],
        index["raw"],
        index["raw"].as_f64().unwrap() / entities,
        index["gzip"],
        index["gzip"].as_f64().unwrap() / entities,
        js["manifest"]["raw"],
        js["manifest"]["gzip"]
    );
    println!(
        "per query after the manifest: median {} bytes gzipped, p95 {}, max {} (q = {}), at most {} sequential rounds; queries by rounds: {}; by rounds to their first results: {}",
        per["medianGzip"],
        per["p95Gzip"],
        per["max"]["bytesGz"],
        per["max"]["q"],
        per["maxRounds"],
        per["rounds"],
        per["roundsToFirst"]
    );
    let manifest = js["manifest"]["gzip"].as_u64().unwrap();
    println!(
        "a fresh page's first query (manifest + query): median {} bytes gzipped, p95 {}, its first results in at most {} sequential requests after the library, its whole page in at most {}",
        manifest + per["medianGzip"].as_u64().unwrap(),
        manifest + per["p95Gzip"].as_u64().unwrap(),
        1 + per["maxRoundsToFirst"].as_u64().unwrap(),
        1 + per["maxRounds"].as_u64().unwrap()
    );
    if let Some(text_size) = text_size {
        let first_result =
            per["max"]["bytesGz"].as_u64().unwrap() + js["manifest"]["gzip"].as_u64().unwrap();
        println!(
            "before the first result (manifest + the largest query): {first_result} bytes gzipped; the searchable text gzipped: {text_size} bytes",
        );
    }
    println!(
        "latency, files cached: search.js p50 {:.3} ms, p95 {:.3} ms; Rust p50 {:.3} ms, p95 {:.3} ms",
        js["latencyMs"]["p50"].as_f64().unwrap(),
        js["latencyMs"]["p95"].as_f64().unwrap(),
        pick(0.5),
        pick(0.95)
    );
    println!();
}

/// Queries from the data: whole names, vendor-like first words, 1- to
/// 3-letter prefixes, and two-term queries, spread over the entities.
fn queries(ontology: &ontosite::model::Ontology) -> Vec<String> {
    let entities = &ontology.entities;
    let step = (entities.len() / 100).max(1);
    let mut queries = Vec::new();
    for (n, entity) in entities.iter().step_by(step).enumerate() {
        let words: Vec<String> = text::runs(&entity.name).map(str::to_owned).collect();
        queries.push(entity.name.clone());
        queries.push(words[0].clone());
        let len = 1 + n % 3;
        queries.push(words[0].chars().take(len).collect());
        queries.push(format!(
            "{} {}",
            words[words.len() - 1],
            words[0].chars().take(3).collect::<String>()
        ));
    }
    queries
}

/// Queries a person mistypes or inflects, from the same entities: the
/// first word with its second and third letters swapped, with its last
/// letter dropped and a letter doubled, and the last word with `-s` and
/// `-ing`: mostly what nothing matches strictly, so near matching.
fn near_queries(ontology: &ontosite::model::Ontology) -> Vec<String> {
    let entities = &ontology.entities;
    let step = (entities.len() / 100).max(1);
    let mut queries = Vec::new();
    for entity in entities.iter().step_by(step) {
        let words: Vec<Vec<char>> = text::runs(&entity.name)
            .map(|w| w.chars().collect())
            .collect();
        let first = &words[0];
        if first.len() >= 4 {
            let mut swapped = first.clone();
            swapped.swap(1, 2);
            queries.push(swapped.into_iter().collect());
            let mut doubled = first[..first.len() - 1].to_vec();
            doubled.insert(2, first[2]);
            queries.push(doubled.into_iter().collect());
        }
        let last: String = words[words.len() - 1].iter().collect();
        queries.push(format!("{last}s"));
        queries.push(format!("{}ing", last.trim_end_matches('e')));
    }
    queries
}

fn searchable_text_gzip(ontology: &ontosite::model::Ontology) -> usize {
    let mut text = String::new();
    for e in &ontology.entities {
        text.push_str(&format!("{}\n{}\n{}\n", e.name, e.description, e.id));
    }
    let mut gzip = Command::new("gzip")
        .arg("-6")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    gzip.stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    gzip.wait_with_output().unwrap().stdout.len()
}
