//! The host files, read by Netlify's own parsers and routed by Netlify's
//! own matcher (`tests/netlify/route.mjs`), as Netlify would serve the site.

use crate::util::*;
use serde_json::{Value, json};
use std::path::Path;

/// Runs `route.mjs` over a built site (with the repository's netlify.toml)
/// and returns its report.
pub fn route(site: &Path, requests: &[&str]) -> Value {
    let dir = root().join("tests/netlify");
    let config = root().join("netlify.toml");
    let mut args = vec!["--config".as_ref(), config.as_os_str(), site.as_os_str()];
    args.extend(requests.iter().map(|r| std::ffi::OsStr::new(*r)));
    node_json(&dir.join("route.mjs"), &args)
}

#[test]
fn netlify_parses_the_host_files_and_routes_every_endpoint() {
    needs!(NETLIFY);
    let dir = tempdir();
    let out = dir.path().join("dist");
    build_ok(&shipped_input(), &out);
    let requests = [
        "/",
        "/index.json",
        "/index.jsonld",
        "/all",
        "/pages/index/2.jsonld",
        "/pages/all/3.json",
        "/abbcreateitem.json",
        "/abbcreateitem.jsonld",
        "/abbcreateitem.ttl",
        "/abbcreateitem.nt",
        "/.well-known/void",
        "/dump.nt.gz",
        "/context.jsonld",
        "/search-index.json",
        "/nosuchentity.json",
        "/no/such/path",
        "/api.json",
        "/404.json",
        "/.ontosite-output",
        "/_routes.json",
        "/_worker.js",
        "/_edge/netlify/search.js",
        "/_headers",
    ];
    let report = route(&out, &requests);
    assert_eq!(
        report["errors"],
        json!([]),
        "Netlify's parsers reported errors"
    );
    // netlify.toml builds with ontosite into the directory it publishes,
    // points Netlify at the generated edge function, and adds no header
    // rule of its own that could shadow the generated ones.
    let build = &report["build"];
    assert_eq!(build["publish"], "dist");
    assert_eq!(build["command"], "scripts/netlify-build.sh", "{build}");
    let script = std::fs::read_to_string(root().join("scripts/netlify-build.sh")).unwrap();
    assert!(script.contains("build --host netlify"), "{script}");
    let edge = build["edge_functions"].as_str().unwrap();
    let edge_dir = out.join(
        edge.strip_prefix("dist/")
            .expect("the edge functions are built into dist"),
    );
    assert!(
        edge_dir.join("search.js").is_file(),
        "no edge function in {}",
        edge_dir.display()
    );
    assert_eq!(
        report["headerRules"].as_array().unwrap().len(),
        9,
        "{}",
        report["headerRules"]
    );
    assert_eq!(
        report["redirectRules"],
        json!([
            {"from": "/_headers", "to": "/404.json", "status": 404, "force": true, "query": {}},
            {"from": "/_redirects", "to": "/404.json", "status": 404, "force": true, "query": {}},
            {"from": "/_routes.json", "to": "/404.json", "status": 404, "force": true, "query": {}},
            {"from": "/_worker.js", "to": "/404.json", "status": 404, "force": true, "query": {}},
            {"from": "/_edge/*", "to": "/404.json", "status": 404, "force": true, "query": {}},
            {"from": "/_aliases.json", "to": "/404.json", "status": 404, "force": true, "query": {}},
            {"from": "/.ontosite-output", "to": "/404.json", "status": 404, "force": true, "query": {}},
            {"from": "/.ontosite-record", "to": "/404.json", "status": 404, "force": true, "query": {}},
            {"from": "/", "to": "/api.json", "status": 200, "force": true, "query": {}},
            {"from": "/", "to": "/api.json", "status": 200, "force": false, "query": {}},
            {"from": "/*", "to": "/404.json", "status": 404, "force": false, "query": {}},
        ])
    );
    let routes: Vec<&Value> = report["routes"].as_array().unwrap().iter().collect();
    let expect = |request: &str, status: u16, file: &str, content_type: Option<&str>| {
        let answer = routes.iter().find(|r| r["request"] == request).unwrap();
        assert_eq!(answer["status"], status, "{request}: {answer}");
        assert_eq!(answer["file"], file, "{request}: {answer}");
        let headers = &answer["headers"];
        // CORS, one-hour caching and nosniff on every answer, errors too.
        assert_eq!(headers["Access-Control-Allow-Origin"], "*", "{request}");
        assert_eq!(
            headers["Cache-Control"], "public, max-age=3600",
            "{request}"
        );
        assert_eq!(headers["X-Content-Type-Options"], "nosniff", "{request}");
        assert_eq!(
            headers["Content-Type"].as_str(),
            content_type,
            "{request}: {headers}"
        );
        assert!(
            out.join(file.trim_start_matches('/')).is_file(),
            "{request} answers a missing file {file}"
        );
    };
    expect("/", 200, "/api.json", None);
    expect("/index.json", 200, "/index.json", None);
    expect(
        "/index.jsonld",
        200,
        "/index.jsonld",
        Some("application/ld+json"),
    );
    expect("/all", 200, "/all", Some("application/json"));
    // The lists' pages, typed by the extension's splat rule in a folder.
    expect(
        "/pages/index/2.jsonld",
        200,
        "/pages/index/2.jsonld",
        Some("application/ld+json"),
    );
    expect("/pages/all/3.json", 200, "/pages/all/3.json", None);
    expect(
        "/abbcreateitem.ttl",
        200,
        "/abbcreateitem.ttl",
        Some("text/turtle"),
    );
    expect(
        "/abbcreateitem.nt",
        200,
        "/abbcreateitem.nt",
        Some("application/n-triples"),
    );
    expect(
        "/.well-known/void",
        200,
        "/.well-known/void",
        Some("text/turtle"),
    );
    expect("/dump.nt.gz", 200, "/dump.nt.gz", Some("application/gzip"));
    expect("/abbcreateitem.json", 200, "/abbcreateitem.json", None);
    expect(
        "/abbcreateitem.jsonld",
        200,
        "/abbcreateitem.jsonld",
        Some("application/ld+json"),
    );
    expect(
        "/context.jsonld",
        200,
        "/context.jsonld",
        Some("application/ld+json"),
    );
    expect("/search-index.json", 200, "/search-index.json", None);
    expect("/nosuchentity.json", 404, "/404.json", None);
    expect("/no/such/path", 404, "/404.json", None);
    // What the build writes for the hosts and itself is never published.
    for private in [
        "/.ontosite-output",
        "/_routes.json",
        "/_worker.js",
        "/_edge/netlify/search.js",
        "/_headers",
    ] {
        expect(private, 404, "/404.json", None);
    }
    // No document names a JSON-LD context in a Link header: the hosts can
    // only match `/*.json`, and the lists, the information document and
    // the 404 would read as false triples with the entity's context.
    for request in [
        "/abbcreateitem.json",
        "/index.json",
        "/all",
        "/api.json",
        "/404.json",
        "/abbcreateitem.jsonld",
    ] {
        let route = routes.iter().find(|r| r["request"] == request).unwrap();
        assert!(route["headers"]["Link"].is_null(), "{request}: {route}");
    }
}

#[test]
fn the_info_rewrite_wins_over_an_index_html() {
    needs!(NETLIFY);
    // Netlify serves an existing file before a rule that is not forced, so
    // `/` must be forced to answer the information document even when the
    // site has an `index.html` (a front page, say).
    let dir = tempdir();
    let out = dir.path().join("dist");
    build_ok(&tiny_input(), &out);
    std::fs::write(out.join("index.html"), "<!doctype html>").unwrap();
    let report = route(&out, &["/"]);
    assert_eq!(report["routes"][0]["file"], "/api.json");
    assert_eq!(report["routes"][0]["rule"], "/ /api.json 200!");
}
