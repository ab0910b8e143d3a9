//! A bounded mutation fuzzer over every source reader (OBO, Turtle,
//! N-Triples, RDF/XML, JSON-LD, CSV/TSV): small real files, mutated where
//! parsers are fragile (quotes, escapes, brackets, comment marks, stanza
//! and tag shapes, line ends, bytes that are not UTF-8), read as a build
//! reads them. No mutation may panic through a reader, and none may make
//! a third-party parser panic even inside the guard (that would be a
//! diagnostic, but one the user could do nothing about).
//!
//! Deterministic: a fixed seed per reader, so a failure names the case
//! that reproduces it; bounded by a count and by time, so the tests stay
//! quick on a slow machine.

use super::diagnostic::Diagnostic;
use super::graph::Graph;
use super::table::TableMapping;
use super::{obo, rdf, table};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// At most this many mutated files per seed file, and this long.
const CASES: usize = 1500;
const BUDGET: Duration = Duration::from_millis(1500);

/// What mutations insert: the characters and shapes each syntax gives a
/// meaning to.
const TOKENS: &[&[u8]] = &[
    b"!",
    b"\"",
    b"\\",
    b"[",
    b"]",
    b"{",
    b"}",
    b",",
    b":",
    b"\n",
    b"\r",
    b"\t",
    b" ",
    b"\0",
    b"\xff",
    b"\xc3",
    "\u{feff}".as_bytes(),
    "é".as_bytes(),
    b"[Term]\n",
    b"[Typedef]\n",
    b"[Instance]\n",
    b"id: ",
    b"is_a: ",
    b"intersection_of: ",
    b"synonym: \"",
    b"def: \"x\" [",
    b"! c\n",
    b"{a=\"b\"}",
    b"<",
    b">",
    b"&",
    b"&amp;",
    b"<!ENTITY e \"x\">",
    b"<!DOCTYPE r [",
    b"rdf:",
    b"@prefix ",
    b"@base <",
    b"_:",
    b"^^",
    b"@en",
    b"\"\"\"",
    b"{\"@id\": ",
    b"\"@context\"",
    b"\"@list\": [",
    b"-1e999",
    b"\t\t\t",
    b"\"\"",
];

/// splitmix64: small, good enough, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// One to four mutations of `seed`.
fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(6) {
            0 | 1 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                bytes.splice(at..at, token.iter().copied());
            }
            2 => {
                let end = (at + rng.below(40)).min(bytes.len());
                bytes.drain(at..end);
            }
            3 => {
                let end = (at + rng.below(80)).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                let to = rng.below(bytes.len() + 1);
                bytes.splice(to..to, copy);
            }
            4 => bytes.truncate(at),
            _ => {
                if at < bytes.len() {
                    bytes[at] = rng.next() as u8;
                }
            }
        }
    }
    bytes
}

fn fixture(path: &str) -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read(root.join("tests/fixtures/ontologies").join(path)).unwrap()
}

/// Reads mutations of `seed` with `read` and fails on any panic, naming
/// the case.
fn fuzz(name: &str, seed: &[u8], seed_number: u64, read: impl Fn(&Path) -> Vec<Diagnostic>) {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join(name);
    let mut rng = Rng(seed_number);
    let started = Instant::now();
    let mut cases = 0;
    while cases < CASES && started.elapsed() < BUDGET {
        let case = mutate(seed, &mut rng);
        std::fs::write(&path, &case).unwrap();
        let problems = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read(&path)))
            .unwrap_or_else(|_| {
                panic!(
                    "reading mutation {cases} of {name} (seed {seed_number}) panicked:\n{}",
                    String::from_utf8_lossy(&case)
                )
            });
        let failed = problems
            .iter()
            .find(|p| p.message.contains("failed on this file"));
        assert!(
            failed.is_none(),
            "mutation {cases} of {name} (seed {seed_number}) made a parser panic: {}\n{}",
            failed.unwrap(),
            String::from_utf8_lossy(&case)
        );
        cases += 1;
    }
    assert!(cases > 0);
}

#[test]
fn no_mutation_of_an_obo_file_panics() {
    for (number, name) in [(1, "obo/shapes.obo"), (2, "obo-practice/practice.obo")] {
        fuzz("x.obo", &fixture(name), number, |path| {
            obo::read(path, &mut Graph::default())
        });
    }
}

#[test]
fn no_mutation_of_an_rdf_file_panics() {
    use oxrdfio::RdfFormat;
    let rdf_xml = br#"<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
         xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"
         xmlns:owl="http://www.w3.org/2002/07/owl#">
  <owl:Class rdf:about="http://example.org/A">
    <rdfs:label xml:lang="en">A &amp; B</rdfs:label>
    <rdfs:subClassOf>
      <owl:Restriction>
        <owl:onProperty rdf:resource="http://example.org/p"/>
        <owl:someValuesFrom rdf:resource="http://example.org/B"/>
      </owl:Restriction>
    </rdfs:subClassOf>
  </owl:Class>
</rdf:RDF>
"#;
    let json_ld = br#"{"@context": {"rdfs": "http://www.w3.org/2000/01/rdf-schema#", "label": {"@id": "rdfs:label", "@language": "en"}},
 "@graph": [{"@id": "http://example.org/A", "@type": "http://www.w3.org/2002/07/owl#Class", "label": "A",
   "http://example.org/list": {"@list": [1, "two", {"@id": "http://example.org/B"}]}}]}
"#;
    let n_triples = b"<http://example.org/A> <http://www.w3.org/2000/01/rdf-schema#label> \"A\\u00e9\"@en .\n_:b <http://example.org/p> \"1\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n";
    let cases: [(&str, Vec<u8>, RdfFormat); 5] = [
        ("x.ttl", fixture("owl/pets.ttl"), RdfFormat::Turtle),
        ("x.ttl", fixture("skos/colours.ttl"), RdfFormat::Turtle),
        ("x.owl", rdf_xml.to_vec(), RdfFormat::RdfXml),
        (
            "x.jsonld",
            json_ld.to_vec(),
            RdfFormat::JsonLd {
                profile: oxrdfio::JsonLdProfileSet::empty(),
            },
        ),
        ("x.nt", n_triples.to_vec(), RdfFormat::NTriples),
    ];
    for (number, (name, seed, format)) in cases.into_iter().enumerate() {
        fuzz(name, &seed, 10 + number as u64, |path| {
            rdf::read(path, format, "https://x.test/", &mut Graph::default())
        });
    }
}

#[test]
fn no_mutation_of_a_table_panics() {
    let manifest: serde_json::Value =
        serde_json::from_slice(&fixture("table/ontology.json")).unwrap();
    let mapping: TableMapping = serde_json::from_value(manifest["table"].clone()).unwrap();
    fuzz("x.tsv", &fixture("table/edam.tsv"), 20, |path| {
        table::read(path, &mapping, &mut Graph::default())
    });
}
