//! Linked data that resolves, read with a real RDF library (pyoxigraph,
//! in `tests/rdf/.venv`; `scripts/test.sh` installs it): every entity's
//! documents say the same, the dumps are the union, and a client that
//! follows its nose from `/` gathers exactly the dump. The same crawl runs
//! against the hosts' runtimes in `runtimes.rs`.

use crate::serve::{Server, client, shipped_site};
use crate::util::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The base URL of the shipped site.
pub const BASE: &str = "https://actions.ontosite.example/";

/// pyoxigraph's Python (`PYOXIGRAPH`).
fn python() -> PathBuf {
    root().join("tests/rdf/.venv/bin/python")
}

/// Runs `tests/rdf/SCRIPT ARGS` and reads the JSON it prints.
pub(crate) fn rdf_json(script: &str, args: &[&std::ffi::OsStr]) -> Value {
    let output = Command::new(python())
        .arg(root().join("tests/rdf").join(script))
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{script} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Every entity's JSON-LD (and the list's) as jsonld.js turns it into
/// N-Quads, written to `out` as JSON (slug -> N-Quads).
fn jsonld_quads(site: &Path, out: &Path) {
    let output = Command::new("node")
        .arg(root().join("tests/jsonld/process.mjs"))
        .arg(site)
        .env("QUADS_OUT", out)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Crawls the site from `BASE` through the host at `via` and checks that
/// every IRI answered and that what it gathered is the dump.
pub fn assert_crawl_gathers_the_dump(site: &Path, via: &str, host: &str) {
    // Every entity, the data set, the entity list and the vocabulary, each
    // through a 303.
    assert_crawl_from(BASE, site, via, host, 2258 + 3);
}

/// Crawls the site from `base` through the host at `via`: every one of
/// `resources` IRIs answers through a 303, and what they answer is the
/// dump.
pub fn assert_crawl_from(base: &str, site: &Path, via: &str, host: &str, resources: usize) {
    let dump = site.join("dump.nt");
    let report = rdf_json("crawl.py", &[base.as_ref(), via.as_ref(), dump.as_os_str()]);
    assert_eq!(report["problemCount"], 0, "{host}: {report}");
    assert_eq!(report["missing"], serde_json::json!([]), "{host}: {report}");
    assert_eq!(report["extra"], serde_json::json!([]), "{host}: {report}");
    assert_eq!(report["resources"], resources, "{host}: {report}");
    assert_eq!(report["redirects"], report["resources"], "{host}: {report}");
    assert_eq!(report["triples"], report["dumpTriples"], "{host}: {report}");
    // The data set counts them right.
    let void = std::fs::read_to_string(site.join("void.nt")).unwrap();
    assert!(
        void.contains(&format!(
            "<http://rdfs.org/ns/void#triples> \"{}\"^^<http://www.w3.org/2001/XMLSchema#integer>",
            report["dumpTriples"]
        )),
        "{host}: void:triples is not the dump's size:\n{void}"
    );
}

#[test]
fn a_client_that_follows_its_nose_through_serve_gathers_the_dump() {
    needs!(PYOXIGRAPH);
    let site = shipped_site();
    let server = Server::dir(site);
    assert_crawl_gathers_the_dump(site, &server.url, "serve");
}

#[test]
fn every_entity_says_the_same_in_turtle_n_triples_and_json_ld_and_the_dumps_are_their_union() {
    needs!(JSONLD_JS, PYOXIGRAPH);
    let site = shipped_site();
    let quads = tempfile::NamedTempFile::new().unwrap();
    jsonld_quads(site, quads.path());
    let report = rdf_json(
        "isomorphic.py",
        &[site.as_os_str(), quads.path().as_os_str()],
    );
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
    assert_eq!(report["entities"], 2258);
    let void = std::fs::read_to_string(site.join("void.ttl")).unwrap();
    assert!(
        void.contains(&format!("void:triples {} .", report["unionTriples"])),
        "void:triples is not the dump's size:\n{void}"
    );
}

/// The check itself: an entity whose Turtle says one thing more fails.
#[test]
fn a_turtle_document_that_differs_fails_the_check() {
    needs!(JSONLD_JS, PYOXIGRAPH);
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);
    let quads = dir.path().join("quads.json");
    jsonld_quads(&site, &quads);
    let ttl = site.join("acmecreateitem.ttl");
    let mut text = std::fs::read_to_string(&ttl).unwrap();
    text.push_str(
        "\n<https://tiny.example.org/api/acmecreateitem> <http://schema.org/name> \"Other\" .\n",
    );
    std::fs::write(&ttl, text).unwrap();
    let report = rdf_json("isomorphic.py", &[site.as_os_str(), quads.as_os_str()]);
    let problems = report["problems"].to_string();
    assert!(problems.contains("acmecreateitem"), "{report}");
}

/// What `serve` answers to each Accept header at each kind of IRI.
#[test]
fn serve_negotiates_every_iri_it_mints() {
    let site = shipped_site();
    let server = Server::dir(site);
    let ask = |path: &str, accept: &str| {
        let response = client()
            .get(format!("{}{}", server.url, path.trim_start_matches('/')))
            .header("Accept", accept)
            .send()
            .unwrap();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_owned())
        };
        (
            response.status().as_u16(),
            header("location"),
            header("vary"),
            header("content-type"),
        )
    };
    let chrome =
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
    let see = |to: &str| (303, Some(to.to_owned()), Some("Accept".to_owned()), None);
    assert_eq!(
        ask("/abbcreateitem", "text/turtle"),
        see("/abbcreateitem.ttl")
    );
    assert_eq!(
        ask("/abbcreateitem", "application/n-triples"),
        see("/abbcreateitem.nt")
    );
    assert_eq!(
        ask("/abbcreateitem", "application/ld+json"),
        see("/abbcreateitem.jsonld")
    );
    assert_eq!(
        ask("/abbcreateitem", "application/json"),
        see("/abbcreateitem.json")
    );
    assert_eq!(ask("/abbcreateitem", "*/*"), see("/abbcreateitem.json"));
    assert_eq!(
        ask(
            "/abbcreateitem",
            "text/turtle;q=0.4, application/ld+json;q=0.8"
        ),
        see("/abbcreateitem.jsonld")
    );
    let page = ask("/abbcreateitem", chrome);
    assert_eq!((page.0, page.1), (200, None));
    assert!(page.2.unwrap().starts_with("Accept"));
    assert!(page.3.unwrap().starts_with("text/html"));
    assert_eq!(ask("/", "text/turtle"), see("/void.ttl"));
    assert_eq!(ask("/", chrome), see("/home"));
    assert_eq!(ask("/", "*/*").0, 200);
    assert_eq!(
        ask("/.well-known/void", "application/ld+json"),
        see("/void.jsonld")
    );
    assert_eq!(ask("/vocab", "text/turtle"), see("/vocab.ttl"));
    // No such entity: the 404 as before, not a redirect to a 404.
    assert_eq!(ask("/nosuchentity", "text/turtle").0, 404);
    // Files are never negotiated.
    assert_eq!(ask("/abbcreateitem.json", "text/turtle").0, 200);
    // As a host without code (GitHub Pages, S3), the IRI is the page.
    let plain = Server::start(&["--dir".as_ref(), site.as_os_str(), "--static".as_ref()]);
    let response = client()
        .get(format!("{}abbcreateitem", plain.url))
        .header("Accept", "text/turtle")
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    let page = response.text().unwrap();
    for (media_type, file) in [
        ("text/turtle", "abbcreateitem.ttl"),
        ("application/n-triples", "abbcreateitem.nt"),
        ("application/ld+json", "abbcreateitem.jsonld"),
        ("application/json", "abbcreateitem.json"),
    ] {
        assert!(
            page.contains(&format!(
                "<link rel=\"alternate\" type=\"{media_type}\" href=\"{file}\""
            )),
            "the page does not link {file}"
        );
    }
    assert!(page.contains("<script type=\"application/ld+json\">"));
}

/// `vocabulary` in ontology.json fixes the namespace of ontosite's terms,
/// so they stay put when the base URL changes; a value that is not a
/// namespace IRI is refused with its place.
#[test]
fn the_vocabulary_namespace_can_be_fixed() {
    let dir = tempdir();
    let input = dir.path().join("input");
    copy_tree(&tiny_input(), &input);
    let manifest = input.join("ontology.json");
    let mut meta = read_json(&manifest);
    meta["vocabulary"] = "https://w3id.org/tiny/vocab#".into();
    std::fs::write(&manifest, serde_json::to_string_pretty(&meta).unwrap()).unwrap();
    let site = dir.path().join("dist");
    let output = build(
        &input,
        &site,
        &["--base-url", "https://preview.example.net/"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let ttl = std::fs::read_to_string(site.join("acmecreateitem.ttl")).unwrap();
    assert!(
        ttl.contains("@prefix ontosite: <https://w3id.org/tiny/vocab#> ."),
        "{ttl}"
    );
    assert!(
        ttl.contains("<https://preview.example.net/acmecreateitem>"),
        "{ttl}"
    );
    let vocab = std::fs::read_to_string(site.join("vocab.nt")).unwrap();
    assert!(vocab.contains(
        "<https://w3id.org/tiny/vocab#slug> <http://www.w3.org/2000/01/rdf-schema#isDefinedBy> <https://w3id.org/tiny/vocab> ."
    ));
    let context = read_json(&site.join("context.jsonld"));
    assert_eq!(
        context["@context"]["ontosite"],
        "https://w3id.org/tiny/vocab#"
    );

    meta["vocabulary"] = "https://w3id.org/tiny/vocab".into();
    std::fs::write(&manifest, serde_json::to_string_pretty(&meta).unwrap()).unwrap();
    let output = build(&input, &dir.path().join("bad"), &[]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains("ontology.json"), "{message}");
    assert!(message.contains("`vocabulary`"), "{message}");
    assert!(message.contains("ending in `#` or `/`"), "{message}");
}

/// An entity file may give the entity the IRI it already has: its documents
/// state that IRI, say where they are (`foaf:isPrimaryTopicOf`) and still
/// agree with each other; the list and the page name it too.
#[test]
fn an_entity_file_may_give_the_entity_its_own_iri() {
    needs!(JSONLD_JS, PYOXIGRAPH, OPENAPI_VALIDATOR);
    let dir = tempdir();
    let input = dir.path().join("input");
    copy_tree(&tiny_input(), &input);
    let own = "https://w3id.org/zeta/terms#Purge";
    std::fs::write(
        input.join("entities/purge.json"),
        format!(
            r#"{{"id": "ZetaPurge", "name": "Zeta - Purge", "description": "Purges.", "iri": "{own}"}}"#
        ),
    )
    .unwrap();
    let site = dir.path().join("dist");
    build_ok(&input, &site);
    let json = read_json(&site.join("zetapurge.json"));
    assert_eq!(json["iri"], own, "{json}");
    let ttl = std::fs::read_to_string(site.join("zetapurge.ttl")).unwrap();
    assert!(ttl.contains(&format!("<{own}>")), "{ttl}");
    let nt = std::fs::read_to_string(site.join("zetapurge.nt")).unwrap();
    assert!(
        nt.contains(&format!(
            "<{own}> <http://xmlns.com/foaf/0.1/isPrimaryTopicOf> <https://tiny.example.org/api/zetapurge> ."
        )),
        "{nt}"
    );
    assert!(
        !nt.contains("<https://tiny.example.org/api/zetapurge> <http://schema.org/name>"),
        "{nt}"
    );
    // Entities without one keep `{base}/{slug}` and no `iri` key.
    assert!(
        read_json(&site.join("zetadeleteitem.json"))
            .get("iri")
            .is_none()
    );
    let index = std::fs::read_to_string(site.join("index.nt")).unwrap();
    assert!(
        index.contains(&format!("<http://schema.org/item> <{own}>")),
        "{index}"
    );
    let quads = dir.path().join("quads.json");
    jsonld_quads(&site, &quads);
    let report = rdf_json("isomorphic.py", &[site.as_os_str(), quads.as_os_str()]);
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
    crate::openapi::assert_site_follows_its_openapi(&site);

    // A relative IRI, and one IRI for two entities, are input errors.
    std::fs::write(
        input.join("entities/purge.json"),
        r#"{"id": "ZetaPurge", "name": "Zeta - Purge", "description": "Purges.", "iri": "terms#Purge"}"#,
    )
    .unwrap();
    let output = build(&input, &site, &[]);
    assert!(!output.status.success());
    let err = stderr(&output);
    assert!(
        err.contains("purge.json") && err.contains("`iri` is not an absolute IRI"),
        "{err}"
    );
    std::fs::write(
        input.join("entities/purge.json"),
        format!(
            r#"{{"id": "ZetaPurge", "name": "Zeta - Purge", "description": "Purges.", "iri": "{own}"}}
"#
        ),
    )
    .unwrap();
    std::fs::write(
        input.join("entities/purge2.json"),
        format!(r#"{{"id": "ZetaPurge2", "name": "Zeta - Purge again", "description": "Purges.", "iri": "{own}"}}"#),
    )
    .unwrap();
    let output = build(&input, &site, &[]);
    assert!(!output.status.success());
    let err = stderr(&output);
    assert!(
        err.contains(&format!("the IRI `{own}` is also the IRI of `ZetaPurge`")),
        "{err}"
    );
}
