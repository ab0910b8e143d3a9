//! Building the shipped ontology and the small fixture: what is written,
//! and that every document agrees with every other.

use crate::util::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const SITE_WIDE: &[&str] = &[
    "404.html",
    "404.json",
    "_headers",
    "_redirects",
    "all",
    "api.json",
    "context.jsonld",
    "index.json",
    "index.jsonld",
    "search-index.json",
    "search.js",
    "_edge/netlify/search.js",
    "_edge/cloudflare-r2/worker.js",
    "_edge/cloudfront/function.js",
    "_routes.json",
    "_aliases.json",
    "_worker.js",
    "index.html",
    "home.html",
    "openapi.json",
    "json-context.jsonld",
    "ui/site.css",
    "ui/site.js",
    "ui/search-index.js",
    "vocab.ttl",
    "vocab.nt",
    "vocab.jsonld",
    "vocab.html",
    "void.ttl",
    "void.nt",
    "void.jsonld",
    "dump.nt",
    "dump.nt.gz",
    "dump.ttl",
    "index.ttl",
    "index.nt",
];

#[test]
fn shipped_ontology_builds_every_file_and_they_agree() {
    let out = crate::serve::shipped_site();
    let files = snapshot(out);

    // File counts: one per entity and format (JSON, JSON-LD, Turtle,
    // N-Triples, page), the site-wide ones, the search index's nodes and
    // rows, the browsing pages, the marker. The index's files are written
    // once: each a script that holds its content, with no twin.
    let search_files: Vec<(&String, &Vec<u8>)> = files
        .iter()
        .filter(|(f, _)| f.starts_with("search/"))
        .collect();
    assert!(
        search_files.len() > 20,
        "{} index files",
        search_files.len()
    );
    for (path, bytes) in &search_files {
        let content = ontosite::search::format::content(path, bytes)
            .unwrap_or_else(|| panic!("{path} is not a script holding its content"));
        serde_json::from_slice::<Value>(content).expect("the content is JSON");
    }
    assert!(
        !files.keys().any(|f| f.starts_with("ui/search/")),
        "no script twins"
    );
    let browse_pages = files.keys().filter(|f| f.starts_with("browse/")).count();
    // The index, five pages by name, and two or more per type.
    assert_eq!(browse_pages, 1 + 5 + 2 + 2 + 2, "browse pages");
    // Three pages of 1,000 entities for each of the three big lists.
    let list_pages = files.keys().filter(|f| f.starts_with("pages/")).count();
    assert_eq!(list_pages, 3 * 3, "pages of the big lists");
    let entity_files: Vec<&String> = files
        .keys()
        .filter(|f| {
            !SITE_WIDE.contains(&f.as_str())
                && !f.starts_with('.')
                && !f.starts_with("search/")
                && !f.starts_with("browse/")
                && !f.starts_with("pages/")
        })
        .collect();
    assert_eq!(
        entity_files.len(),
        ontosite::site::formats::ENTITY_FORMATS.len() * 2258
    );
    assert!(files.contains_key(".well-known/void"));
    for name in SITE_WIDE {
        assert!(files.contains_key(*name), "{name} is missing");
    }
    assert!(files.contains_key(".ontosite-output"));
    let manifest = read_json(&out.join("search-index.json"));
    let nodes = manifest["nodes"].as_array().unwrap();
    let manifest_types = manifest["types"].as_array().unwrap().clone();
    let leaf_rows = nodes.iter().filter(|n| n[2].as_u64().unwrap() > 0).count();
    // The shipped set's nodes are small enough to come with the manifest.
    let node_files = manifest["nodeFiles"].as_array().unwrap();
    assert_eq!(node_files.len(), nodes.len());
    assert_eq!(
        search_files.len(),
        leaf_rows + 2258usize.div_ceil(128),
        "one file per leaf with rows and per 128 rows, none per node"
    );
    // And the marker, the build record, the list of files with their
    // hashes and `.well-known/void`.
    assert!(files.contains_key(ontosite::output::RECORD));
    assert!(files.contains_key(ontosite::output::objects::OBJECTS));
    assert_eq!(
        files.len(),
        ontosite::site::formats::ENTITY_FORMATS.len() * 2258
            + SITE_WIDE.len()
            + search_files.len()
            + browse_pages
            + list_pages
            + 4
    );

    // Every JSON document parses.
    for (name, bytes) in &files {
        if name.ends_with(".json") || name.ends_with(".jsonld") || name == "all" {
            serde_json::from_slice::<Value>(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    let index = read_json(&out.join("index.json"));
    let all = read_json(&out.join("all"));
    let index_ld = read_json(&out.join("index.jsonld"));
    let chunks = read_json(&out.join("search-index.json"))["chunks"].clone();
    assert_eq!(chunks.as_array().unwrap().len(), 2258usize.div_ceil(128));
    let rows: Vec<Value> = chunks
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|digest| {
            let path = ontosite::search::format::path(digest.as_str().unwrap());
            let bytes = std::fs::read(out.join(&path)).unwrap();
            let content = ontosite::search::format::content(&path, &bytes).unwrap();
            serde_json::from_slice::<Value>(content)
                .unwrap()
                .as_array()
                .unwrap()
                .clone()
        })
        .collect();
    // The index numbers the entities in rank order (docs/search.md).
    let keys: Vec<_> = rows
        .iter()
        .map(|row| ontosite::search::text::rank_key(row[1].as_str().unwrap()))
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] <= w[1]),
        "rows not in rank order"
    );
    let row_of: std::collections::HashMap<&str, &Value> = rows
        .iter()
        .map(|row| (row[0].as_str().unwrap(), row))
        .collect();
    assert_eq!(row_of.len(), 2258);
    assert_eq!(index["type"], "Action");
    assert_eq!(index["total"], 2258);
    assert_eq!(all["type"], "Action");
    assert_eq!(all["total"], 2258);
    assert_eq!(index_ld["@type"], "ItemList");
    assert_eq!(index_ld["numberOfItems"], 2258);

    let items = index["items"].as_array().unwrap();
    let full = all["items"].as_array().unwrap();
    let listed_ld = index_ld["itemListElement"].as_array().unwrap();
    assert_eq!(
        (items.len(), full.len(), listed_ld.len(), rows.len()),
        (2258, 2258, 2258, 2258)
    );

    let base = "https://actions.ontosite.example";
    let mut previous = String::new();
    let mut vendors: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (i, item) in items.iter().enumerate() {
        let slug = item["slug"].as_str().unwrap();
        let id = item["id"].as_str().unwrap();
        let name = item["name"].as_str().unwrap();
        assert!(
            slug > previous.as_str(),
            "index.json is not in slug order at {slug}"
        );
        previous = slug.to_owned();

        // The slug is the ID lower-cased, alphanumerics only.
        let derived: String = id
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_lowercase();
        assert_eq!(slug, derived);
        assert_eq!(item["links"]["json"], format!("{base}/{slug}.json"));
        assert_eq!(item["links"]["jsonld"], format!("{base}/{slug}.jsonld"));

        // Its own documents, /all and index.jsonld say the same.
        let entity = read_json(&out.join(format!("{slug}.json")));
        assert_eq!(&full[i], &entity, "/all differs from {slug}.json");
        assert_eq!(
            (
                entity["slug"].as_str(),
                entity["id"].as_str(),
                entity["name"].as_str()
            ),
            (Some(slug), Some(id), Some(name))
        );
        assert_eq!(entity["type"], "Action");
        assert_eq!(entity["links"], item["links"]);
        let ld = read_json(&out.join(format!("{slug}.jsonld")));
        assert_eq!(ld["@id"], format!("{base}/{slug}"));
        assert_eq!(ld["@context"], format!("{base}/context.jsonld"));
        // The schema.org subtype that ontology.json names for the operation.
        let subtype = match entity["operation"].as_str().unwrap() {
            "Create Item" => "CreateAction",
            "Update Item" => "UpdateAction",
            "Delete Item" => "DeleteAction",
            other => panic!("unexpected operation {other}"),
        };
        assert_eq!(ld["@type"], subtype);
        assert_eq!(element_type(&listed_ld[i]), subtype);
        assert_eq!(ld["actionStatus"], "PotentialActionStatus");
        assert_eq!(ld["identifier"], id);
        assert_eq!(ld["name"], name);
        assert_eq!(ld["description"], entity["description"]);
        let element = &listed_ld[i];
        assert_eq!(element["position"], i + 1);
        assert_eq!(element["item"]["@id"], ld["@id"]);
        // Its row: ID, name, the number of its type, the summary (the
        // whole description: one short sentence).
        let row = row_of[id];
        let kind = &manifest_types[row[2].as_u64().unwrap() as usize];
        assert_eq!(kind, subtype, "search row of {id}");
        assert_eq!(
            *row,
            serde_json::json!([id, name, row[2], entity["description"]]),
            "search row of {id}"
        );

        // `<Vendor> - <Operation words>`, with vendor and operation fields;
        // the vendor is written as the IRI of the vendor's entity in the
        // `products` sibling ontology.
        let operation = entity["operation"].as_str().unwrap();
        let vendor = name.strip_suffix(&format!(" - {operation}")).unwrap();
        let vendor_slug = ontosite::model::Slug::from_id(vendor).unwrap();
        assert_eq!(
            entity["vendor"],
            format!("https://products.ontosite.example/{}", vendor_slug.as_str())
        );
        assert_eq!(ld["vendor"], entity["vendor"]);
        assert!(
            ["Create Item", "Update Item", "Delete Item"].contains(&operation),
            "{operation}"
        );
        let description = entity["description"].as_str().unwrap();
        assert!(
            description.ends_with('.') && description.contains(vendor),
            "{description}"
        );
        vendors
            .entry(vendor.to_owned())
            .or_default()
            .insert(operation.to_owned());
    }
    assert_eq!(vendors.len(), 753);
    let without_delete: Vec<_> = vendors.iter().filter(|(_, ops)| ops.len() != 3).collect();
    assert_eq!(without_delete.len(), 1, "{without_delete:?}");
    assert!(!without_delete[0].1.contains("Delete Item"));
}

#[test]
fn information_document_lists_every_endpoint() {
    let out = crate::serve::shipped_site();
    let info = read_json(&out.join("api.json"));
    assert_eq!(info["name"], "Software Actions");
    assert_eq!(info["type"], "Action");
    assert_eq!(info["total"], 2258);
    assert_eq!(info["baseUrl"], "https://actions.ontosite.example/");
    let endpoints: BTreeMap<&str, &Value> = info["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["path"].as_str().unwrap(), e))
        .collect();
    for path in [
        "/",
        "/index.json",
        "/index.jsonld",
        "/all",
        "/{slug}.json",
        "/{slug}.jsonld",
        "/search",
    ] {
        let url = endpoints[path]["url"]
            .as_str()
            .unwrap_or_else(|| panic!("{path} has no url"));
        assert!(
            url.starts_with("https://actions.ontosite.example/"),
            "{url}"
        );
    }
    assert_eq!(
        endpoints["/search"]["url"],
        "https://actions.ontosite.example/search?q={q}"
    );
    assert_eq!(
        endpoints["/search"]["example"],
        "https://actions.ontosite.example/search?q=abb"
    );
    assert_eq!(
        endpoints["/{slug}.json"]["example"],
        "https://actions.ontosite.example/abbcreateitem.json"
    );
    assert_eq!(info["siblings"][0]["name"], "products");
    assert_eq!(
        info["siblings"][0]["baseUrl"],
        "https://products.ontosite.example/"
    );

    let problem = read_json(&out.join("404.json"));
    assert_eq!(problem["status"], 404);
    assert_eq!(problem["title"], "Not Found");
    assert!(problem["type"].is_string() && problem["detail"].is_string());
    let page = std::fs::read_to_string(out.join("404.html")).unwrap();
    assert!(page.starts_with("<!doctype html>") && page.contains("404 Not Found"));
    // Answered at any depth: its stylesheet from the base URL's path.
    assert!(page.contains("<link rel=\"stylesheet\" href=\"/ui/site.css\">"));
    // No page needs an inline style, which the site's own policy
    // (`style-src 'self'`) blocks.
    for (path, bytes) in snapshot(out) {
        if path.ends_with(".html") {
            let text = String::from_utf8_lossy(&bytes);
            assert!(
                !text.contains(" style=\"") && !text.contains("<style"),
                "{path} has an inline style"
            );
        }
    }
}

#[test]
fn two_builds_are_byte_identical() {
    let dir = tempdir();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    build_ok(&shipped_input(), &a);
    build_ok(&shipped_input(), &b);
    let (first, second) = (snapshot(&a), snapshot(&b));
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &first {
        assert!(bytes == &second[name], "{name} differs between two builds");
    }
}

/// Compares the small fixture's build with `tests/fixtures/tiny/expected`.
/// `ONTOSITE_BLESS=1 cargo test` rewrites the expected files.
#[test]
fn tiny_fixture_matches_expected_output() {
    let dir = tempdir();
    let out = dir.path().join("site");
    build_ok(&tiny_input(), &out);
    let expected_dir = root().join("tests/fixtures/tiny/expected");
    let mut actual = snapshot(&out);
    // The build record fingerprints the ontosite binary too, so it is the
    // same for two builds of one binary (`output::`), not across binaries.
    let record = actual
        .remove(ontosite::output::RECORD)
        .expect("the build record");
    assert!(String::from_utf8_lossy(&record).starts_with("ontosite build record\n"));
    if std::env::var_os("ONTOSITE_BLESS").is_some() {
        let _ = std::fs::remove_dir_all(&expected_dir);
        for (name, bytes) in &actual {
            let path = expected_dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
    }
    let expected = snapshot(&expected_dir);
    assert_eq!(
        actual.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "the files differ; if the change is intended, run ONTOSITE_BLESS=1 cargo test"
    );
    for (name, bytes) in &actual {
        assert_eq!(
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(&expected[name]),
            "{name} differs from the expected output; if intended, run ONTOSITE_BLESS=1 cargo test"
        );
    }
}

#[test]
fn tiny_fixture_reads_json_and_jsonl_at_any_depth_and_passes_fields_through() {
    let dir = tempdir();
    let out = dir.path().join("site");
    build_ok(&tiny_input(), &out);
    let index = read_json(&out.join("index.json"));
    let slugs: Vec<&str> = strings_of(&index["items"], "slug");
    // Explicit slug kept; derived ones from the ID; hidden folders skipped.
    assert_eq!(
        slugs,
        [
            "acmecreateitem",
            "acmeupdate",
            "s3bucketcreateitem",
            "zetadeleteitem"
        ]
    );
    let update = read_json(&out.join("acmeupdate.json"));
    assert_eq!(
        update["meta"],
        serde_json::json!({"since": 2019, "beta": false})
    );
    assert_eq!(update["id"], "Acme Update Item");
    assert!(update["description"].as_str().unwrap().contains("東京"));
    let keys: Vec<&String> = update.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "slug",
            "id",
            "type",
            "name",
            "description",
            "vendor",
            "operation",
            "meta",
            "links"
        ]
    );
    // A structured pass-through field is a JSON literal in JSON-LD, so no
    // key inside it is silently dropped.
    let context = read_json(&out.join("context.jsonld"));
    assert_eq!(context["@context"]["meta"]["@type"], "@json");
    assert_eq!(context["@context"]["vendor"], "ontosite:vendor");
    assert_eq!(
        context["@context"]["ontosite"],
        "https://tiny.example.org/api/vocab#"
    );
}

fn element_type(element: &Value) -> &str {
    element["item"]["@type"].as_str().unwrap()
}
