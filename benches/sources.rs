//! `cargo bench --bench sources`: building real ontologies from their
//! published files (schema.org's Turtle, PATO's OWL and OBO, from
//! `../shared/ontologies/`) and a synthetic N-Triples file of 1M triples,
//! each beside `cp -r` of its output in the same rounds (A B A B), with
//! the build's peak memory (the kernel's maximum resident set of the
//! child). Set `ONTOSITE_BENCH_DIR` to a tmpfs to take the disk out.

mod common;

use common::{machine, median};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const ROUNDS: usize = 3;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let work = std::env::var_os("ONTOSITE_BENCH_DIR")
        .map_or_else(|| root.join("target/bench-sources"), PathBuf::from);
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    println!("machine: {}; work: {}", machine(), work.display());
    println!();
    println!(
        "| source | triples | entities | files | build (median) | peak memory | cp -r (median) | build / cp |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let shared = root.join("../shared/ontologies");
    for (label, file) in [
        (
            "schema.org 30.0 (Turtle)",
            "schemaorg-30.0-current-https.ttl",
        ),
        ("PATO (OWL, RDF/XML)", "pato-base.owl"),
        ("PATO (OBO)", "pato.obo"),
    ] {
        let input = work.join(file.replace('.', "-"));
        std::fs::create_dir_all(&input).unwrap();
        std::fs::copy(shared.join(file), input.join(file)).unwrap();
        manifest(&input, label);
        row(label, None, &input, &work);
    }
    let input = work.join("synthetic");
    std::fs::create_dir_all(&input).unwrap();
    let triples = synthetic_ntriples(&input.join("terms.nt"), 100_000);
    manifest(&input, "Synthetic");
    row("synthetic N-Triples", Some(triples), &input, &work);
    let _ = std::fs::remove_dir_all(&work);
}

fn manifest(input: &Path, name: &str) {
    std::fs::write(
        input.join("ontology.json"),
        format!(r#"{{"name": "{name}", "baseUrl": "https://bench.example"}}"#),
    )
    .unwrap();
}

/// `terms` classes of 10 triples each: labels in two languages, a
/// definition, two synonyms, a parent, a restriction (a blank node).
fn synthetic_ntriples(path: &Path, terms: usize) -> usize {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut state = 1u64;
    let (rdf, rdfs, owl, skos) = (
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
        "http://www.w3.org/2000/01/rdf-schema#",
        "http://www.w3.org/2002/07/owl#",
        "http://www.w3.org/2004/02/skos/core#",
    );
    for i in 0..terms {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let s = format!("<http://bench.example/onto#T{i}>");
        let parent = if i == 0 {
            0
        } else {
            (state >> 33) as usize % i
        };
        writeln!(out, "{s} <{rdf}type> <{owl}Class> .").unwrap();
        writeln!(out, "{s} <{rdfs}label> \"term number {i}\"@en .").unwrap();
        writeln!(out, "{s} <{rdfs}label> \"Begriff {i}\"@de .").unwrap();
        writeln!(
            out,
            "{s} <{skos}definition> \"The {i}th term of a synthetic ontology.\"@en ."
        )
        .unwrap();
        writeln!(
            out,
            "{s} <{rdfs}subClassOf> <http://bench.example/onto#T{parent}> ."
        )
        .unwrap();
        writeln!(out, "{s} <{skos}altLabel> \"synonym {i} a\"@en .").unwrap();
        writeln!(out, "{s} <{skos}altLabel> \"synonym {i} b\"@en .").unwrap();
        writeln!(out, "{s} <{owl}versionInfo> \"1\" .").unwrap();
        writeln!(
            out,
            "_:r{i} <{owl}onProperty> <http://bench.example/onto#p> ."
        )
        .unwrap();
        writeln!(out, "{s} <{rdfs}subClassOf> _:r{i} .").unwrap();
    }
    terms * 10
}

fn row(label: &str, triples: Option<usize>, input: &Path, work: &Path) {
    let set = work.join("set");
    std::fs::create_dir_all(&set).unwrap();
    let (mut builds, mut copies, mut peak) = (Vec::new(), Vec::new(), 0);
    for round in 0..ROUNDS {
        pause();
        let (time, memory) = build(input, &set.join(format!("out{round}")));
        builds.push(time);
        peak = peak.max(memory);
        pause();
        let start = Instant::now();
        let ok = Command::new("cp")
            .arg("-r")
            .arg(set.join("out0"))
            .arg(set.join(format!("copy{round}")))
            .status()
            .unwrap()
            .success();
        assert!(ok, "cp -r failed");
        copies.push(start.elapsed());
        // A million triples make a 2 GB site: keep one build only, so
        // that a tmpfs holds the rounds.
        let _ = std::fs::remove_dir_all(set.join(format!("copy{round}")));
        if round > 0 {
            let _ = std::fs::remove_dir_all(set.join(format!("out{round}")));
        }
    }
    let out = set.join("out0");
    let files = walkdir::WalkDir::new(&out)
        .into_iter()
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_type().is_file()))
        .count();
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("index.json")).unwrap()).unwrap();
    let (build, cp) = (median(&mut builds), median(&mut copies));
    println!(
        "| {label} | {} | {} | {files} | {} ms | {} MB | {} ms | {:.2} |",
        triples.map_or("".into(), |t| t.to_string()),
        index["total"],
        build.as_millis(),
        peak / 1024,
        cp.as_millis(),
        build.as_secs_f64() / cp.as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&set);
    pause();
}

/// One build: its time, and its peak resident memory in KB as GNU time
/// reports it (0 where `/usr/bin/time` is missing).
fn build(input: &Path, out: &Path) -> (Duration, u64) {
    let report = out.with_extension("time");
    let mut command = common::ontosite_measured(&report);
    command
        .args(["build", "--quiet", "--input"])
        .arg(input)
        .arg("--out")
        .arg(out);
    let start = Instant::now();
    let status = command.status().unwrap();
    let elapsed = start.elapsed();
    assert!(status.success(), "build of {} failed", input.display());
    (elapsed, common::peak_kb(&report))
}

fn pause() {
    let _ = Command::new("sync").status();
    std::thread::sleep(Duration::from_secs(2));
}
