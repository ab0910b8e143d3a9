//! The JSON-LD of the shipped site through a real processor, offline:
//! jsonld.js (`tests/jsonld/process.mjs`) whose loader knows only the
//! site's own context.

use crate::serve::shipped_site;
use crate::util::*;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;

fn process(site: &Path, samples: &[&str]) -> Value {
    let script = root().join("tests/jsonld/process.mjs");
    let mut args = vec![site.as_os_str()];
    args.extend(samples.iter().map(std::ffi::OsStr::new));
    node_json(&script, &args)
}

/// The predicates a document of this site may use: a typo in a key that
/// still became a triple would show up here.
const PREDICATES: &[&str] = &[
    "http://purl.org/dc/terms/license",
    "http://purl.org/dc/terms/title",
    "http://purl.org/dc/terms/description",
    "http://www.w3.org/ns/dcat#distribution",
    "http://www.w3.org/ns/dcat#downloadURL",
    "http://www.w3.org/ns/dcat#accessURL",
    "http://www.w3.org/ns/dcat#mediaType",
    "http://rdfs.org/ns/void#triples",
    "http://rdfs.org/ns/void#rootResource",
    "http://rdfs.org/ns/void#vocabulary",
    "http://www.w3.org/2000/01/rdf-schema#comment",
    "http://www.w3.org/2000/01/rdf-schema#isDefinedBy",
    "http://www.w3.org/2000/01/rdf-schema#label",
    "http://rdfs.org/ns/void#dataDump",
    "http://rdfs.org/ns/void#entities",
    "http://rdfs.org/ns/void#exampleResource",
    "http://rdfs.org/ns/void#uriSpace",
    "http://schema.org/actionStatus",
    "http://schema.org/contentUrl",
    "http://schema.org/distribution",
    "http://schema.org/encodingFormat",
    "http://schema.org/license",
    "http://schema.org/version",
    "https://actions.ontosite.example/vocab#jsonld",
    "http://schema.org/description",
    "http://schema.org/identifier",
    "http://schema.org/item",
    "http://schema.org/itemListElement",
    "http://schema.org/name",
    "http://schema.org/numberOfItems",
    "http://schema.org/position",
    "http://schema.org/url",
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#type",
    "https://actions.ontosite.example/vocab#operation",
    "https://actions.ontosite.example/vocab#slug",
    "https://actions.ontosite.example/vocab#vendor",
];

#[test]
fn every_jsonld_document_expands_offline_to_absolute_allowed_triples_and_back() {
    needs!(JSONLD_JS);
    let site = shipped_site();
    let report = process(
        site,
        &[
            "airbnbcreateitem",
            "zoteroupdateitem",
            "githubdeleteitem",
            "dataset",
        ],
    );
    assert_eq!(report["failures"], json!([]), "jsonld.js failed");
    assert_eq!(
        report["refused"],
        json!([]),
        "a document needed a remote fetch"
    );
    assert_eq!(report["relative"], json!([]), "IRIs that are not absolute");
    // Every entity document, index.jsonld, the vocabulary and the data
    // set (void.jsonld, and as api.json carries it); those that name the
    // site's context compact back to themselves.
    assert_eq!(report["documents"], 2258 + 4);
    assert_eq!(report["roundTrips"], 2258 + 1);
    for predicate in report["predicates"].as_array().unwrap() {
        assert!(
            PREDICATES.contains(&predicate.as_str().unwrap()),
            "unexpected predicate {predicate}"
        );
    }
    let entity = "<https://actions.ontosite.example/airbnbcreateitem>";
    // Its type is the subtype ontology.json names for its operation, and
    // it states the action status ontology.json gives every entity.
    let expected: Vec<String> = [
        "<http://schema.org/actionStatus> <http://schema.org/PotentialActionStatus>",
        "<http://schema.org/description> \"Creates a new item in Airbnb.\"",
        "<http://schema.org/identifier> \"AirbnbCreateItem\"",
        "<http://schema.org/name> \"Airbnb - Create Item\"",
        "<http://schema.org/url> <https://actions.ontosite.example/airbnbcreateitem.json>",
        "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/CreateAction>",
        "<https://actions.ontosite.example/vocab#operation> \"Create Item\"",
        "<https://actions.ontosite.example/vocab#slug> \"airbnbcreateitem\"",
        "<https://actions.ontosite.example/vocab#vendor> <https://products.ontosite.example/airbnb>",
    ]
    .iter()
    .map(|rest| format!("{entity} {rest} ."))
    .collect();
    assert_eq!(report["quads"]["airbnbcreateitem"], json!(expected));
    // The other two operations, each with its own subtype.
    for (slug, id, name, description, subtype, operation, vendor) in [
        (
            "zoteroupdateitem",
            "ZoteroUpdateItem",
            "Zotero - Update Item",
            "Updates an existing item in Zotero.",
            "UpdateAction",
            "Update Item",
            "zotero",
        ),
        (
            "githubdeleteitem",
            "GitHubDeleteItem",
            "GitHub - Delete Item",
            "Deletes an item from GitHub.",
            "DeleteAction",
            "Delete Item",
            "github",
        ),
    ] {
        let subject = format!("<https://actions.ontosite.example/{slug}>");
        let expected: Vec<String> = [
            "<http://schema.org/actionStatus> <http://schema.org/PotentialActionStatus>".to_owned(),
            format!("<http://schema.org/description> \"{description}\""),
            format!("<http://schema.org/identifier> \"{id}\""),
            format!("<http://schema.org/name> \"{name}\""),
            format!("<http://schema.org/url> <https://actions.ontosite.example/{slug}.json>"),
            format!("<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/{subtype}>"),
            format!("<https://actions.ontosite.example/vocab#operation> \"{operation}\""),
            format!("<https://actions.ontosite.example/vocab#slug> \"{slug}\""),
            format!("<https://actions.ontosite.example/vocab#vendor> <https://products.ontosite.example/{vendor}>"),
        ]
        .iter()
        .map(|rest| format!("{subject} {rest} ."))
        .collect();
        assert_eq!(report["quads"][slug], json!(expected), "{slug}");
    }

    // The plain JSON, read with the context its Link header names, states
    // the same as the JSON-LD but for what docs/linked-data.md names:
    // a blank subject, the entity type instead of the subtype, no
    // entity-wide properties, and the URL of its JSON-LD document.
    let plain: Vec<String> = report["plain"]["airbnbcreateitem"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_str().unwrap().replacen("_:b0", entity, 1))
        .collect();
    let mut from_plain: Vec<&str> = plain
        .iter()
        .map(String::as_str)
        // The plain JSON also links its other documents.
        .filter(|q| {
            !["jsonld", "ttl", "nt", "html"]
                .iter()
                .any(|f| q.contains(&format!("vocab#{f}>")))
        })
        .collect();
    let mut from_ld: Vec<&str> = expected
        .iter()
        .map(String::as_str)
        .filter(|q| !q.contains("actionStatus"))
        .collect();
    from_plain.retain(|q| !q.contains("22-rdf-syntax-ns#type"));
    from_ld.retain(|q| !q.contains("22-rdf-syntax-ns#type"));
    assert_eq!(
        from_plain, from_ld,
        "plain JSON and JSON-LD state different things"
    );
    assert!(plain.contains(&format!(
        "{entity} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/Action> ."
    )));
    assert!(plain.contains(&format!("{entity} <https://actions.ontosite.example/vocab#jsonld> <https://actions.ontosite.example/airbnbcreateitem.jsonld> .")));
    assert!(plain.iter().all(|q| q.starts_with(entity)), "{plain:#?}");

    // The data set: schema.org and VoID, its size, dump, example, URI space.
    let dataset: Vec<String> = report["quads"]["dataset"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_str().unwrap().to_owned())
        .collect();
    let base = "<https://actions.ontosite.example/>";
    for expected in [
        format!(
            "{base} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/Dataset> ."
        ),
        format!(
            "{base} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://rdfs.org/ns/void#Dataset> ."
        ),
        format!(
            "{base} <http://rdfs.org/ns/void#entities> \"2258\"^^<http://www.w3.org/2001/XMLSchema#integer> ."
        ),
        format!(
            "{base} <http://rdfs.org/ns/void#dataDump> <https://actions.ontosite.example/dump.nt> ."
        ),
        format!(
            "{base} <http://rdfs.org/ns/void#exampleResource> <https://actions.ontosite.example/abbcreateitem> ."
        ),
        format!(
            "{base} <http://rdfs.org/ns/void#uriSpace> \"https://actions.ontosite.example/\" ."
        ),
    ] {
        assert!(
            dataset.contains(&expected),
            "missing {expected} in {dataset:#?}"
        );
    }
    let formats = dataset
        .iter()
        .filter(|q| q.contains("schema.org/encodingFormat"))
        .count();
    assert_eq!(formats, 6, "a distribution per dump, format and list");
    assert!(dataset.contains(&format!(
        "{base} <http://schema.org/license> <http://spdx.org/licenses/CC0-1.0> ."
    )));

    // index.jsonld, /all and the files on disk name the same entities.
    let listed: BTreeSet<String> = report["indexIds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    let all = read_json(&site.join("all"));
    let in_all: BTreeSet<String> = all["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            format!(
                "https://actions.ontosite.example/{}",
                i["slug"].as_str().unwrap()
            )
        })
        .collect();
    let on_disk: BTreeSet<String> = std::fs::read_dir(site)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|n| n.strip_suffix(".jsonld").map(str::to_owned))
        .filter(|n| !["index", "context", "json-context", "vocab", "void"].contains(&n.as_str()))
        .map(|slug| format!("https://actions.ontosite.example/{slug}"))
        .collect();
    assert_eq!(listed.len(), 2258);
    assert_eq!(listed, in_all);
    assert_eq!(listed, on_disk);
}

/// The data set described in DCAT beside VoID and schema.org, for a
/// harvester that reads DCAT alone: a `dcat:Dataset` with its title and
/// description, and each dump and list a `dcat:Distribution` with its
/// download URL and IANA media type.
#[test]
fn the_data_set_is_described_in_dcat_with_its_distributions() {
    let void = std::fs::read_to_string(shipped_site().join("void.nt")).unwrap();
    let base = "<https://actions.ontosite.example/>";
    let dcat = "http://www.w3.org/ns/dcat#";
    for expected in [
        format!("{base} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{dcat}Dataset> ."),
        format!("{base} <http://purl.org/dc/terms/title> \"Software Actions\" ."),
        format!("{base} <{dcat}distribution> <https://actions.ontosite.example/dump.nt> ."),
        format!(
            "<https://actions.ontosite.example/dump.nt> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{dcat}Distribution> ."
        ),
        format!(
            "<https://actions.ontosite.example/dump.nt> <{dcat}downloadURL> <https://actions.ontosite.example/dump.nt> ."
        ),
        format!(
            "<https://actions.ontosite.example/dump.ttl> <{dcat}mediaType> <http://www.iana.org/assignments/media-types/text/turtle> ."
        ),
    ] {
        assert!(
            void.lines().any(|l| l == expected),
            "missing {expected} in\n{void}"
        );
    }
    let distributions = void
        .lines()
        .filter(|l| l.starts_with(base) && l.contains(&format!("<{dcat}distribution>")))
        .count();
    assert_eq!(distributions, 6, "a distribution per dump, format and list");
    assert_eq!(
        void.lines()
            .filter(|l| l.contains(&format!("<{dcat}mediaType>")))
            .count(),
        6,
        "each with its media type"
    );
}

#[test]
fn a_key_the_context_does_not_define_fails_the_check() {
    needs!(JSONLD_JS);
    // The check itself: a document with a misspelt key must not pass.
    let dir = tempdir();
    let site = shipped_site();
    for name in ["api.json", "context.jsonld"] {
        std::fs::copy(site.join(name), dir.path().join(name)).unwrap();
    }
    let mut doc = read_json(&site.join("airbnbcreateitem.jsonld"));
    let name = doc.as_object_mut().unwrap().remove("name").unwrap();
    doc["nmae"] = name;
    std::fs::write(dir.path().join("airbnbcreateitem.jsonld"), doc.to_string()).unwrap();
    let report = process(dir.path(), &[]);
    let failures = report["failures"].to_string();
    assert!(failures.contains("airbnbcreateitem.jsonld"), "{failures}");
    // Only the data set of the copied api.json went through.
    assert_eq!(report["documents"], 1, "{report}");
}

/// On a term site, a term's plain JSON read with `json-context.jsonld` in
/// safe mode: every key is defined (`ancestors` failed on every schema.org
/// term), its subject is the term's IRI and its types are the ones its
/// `.jsonld` states; the API's lists are JSON literals of ontosite's terms,
/// which the vocabulary defines.
#[test]
fn a_term_s_plain_json_reads_as_linked_data_in_safe_mode() {
    needs!(JSONLD_JS);
    let site = crate::serve::owl_site();
    let report = process(site, &["dog", "hasowner"]);
    assert_eq!(report["failures"], json!([]), "jsonld.js failed");
    let dog = report["plain"]["dog"].as_array().unwrap();
    let subject = "<http://example.org/pets#Dog>";
    for quad in dog {
        assert!(quad.as_str().unwrap().starts_with(subject), "{quad}");
    }
    let class = format!(
        "{subject} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Class> ."
    );
    assert!(dog.contains(&json!(class)), "{dog:?}");
    assert!(
        dog.iter().any(|q| q.as_str().unwrap().starts_with(&format!(
            "{subject} <https://pets.example/vocab#ancestors> \"[{{"
        ))),
        "{dog:?}"
    );
    // VoID names the namespace of the terms' own IRIs, and an example
    // that the dump describes.
    let void = std::fs::read_to_string(site.join("void.nt")).unwrap();
    assert!(
        void.contains("<http://rdfs.org/ns/void#uriSpace> \"http://example.org/pets#\""),
        "{void}"
    );
    let example = void
        .lines()
        .find(|l| l.contains("void#exampleResource"))
        .and_then(|l| l.split(' ').nth(2))
        .unwrap()
        .to_owned();
    let dump = std::fs::read_to_string(site.join("dump.nt")).unwrap();
    assert!(dump.lines().any(|l| l.starts_with(&example)), "{example}");
    // The dump, and so the lists, say of a term what its own document
    // says, nothing more (the lists stated four more triples of each).
    let about = |text: &str| -> BTreeSet<String> {
        text.lines()
            .filter(|l| l.starts_with(subject))
            .map(str::to_owned)
            .collect()
    };
    let own = std::fs::read_to_string(site.join("dog.nt")).unwrap();
    assert_eq!(about(&dump), about(&own));
    let vocab = std::fs::read_to_string(site.join("vocab.ttl")).unwrap();
    for term in ["ancestors", "labels", "childrenTotal", "linkedFrom"] {
        assert!(
            vocab.contains(&format!("#{term}>")) || vocab.contains(&format!(":{term} ")),
            "{term} in\n{vocab}"
        );
    }
}

/// jsonld.js dereferencing the shipped site's entity IRIs at `base` with
/// its own document loader gets each entity's triples, as many as its
/// N-Triples document has: the tie of its default `Accept` goes to
/// JSON-LD. (Issue 29: it got plain JSON, no `@context`, 0 triples.)
pub fn assert_jsonld_js_dereferences(site: &Path, base: &str, name: &str) {
    let slugs = ["abbcreateitem", "githubdeleteitem"];
    let urls: Vec<String> = slugs
        .iter()
        .map(|s| format!("{}/{s}", base.trim_end_matches('/')))
        .collect();
    let published = read_json(&site.join("api.json"))["baseUrl"]
        .as_str()
        .unwrap()
        .trim_end_matches('/')
        .to_owned();
    let local = base.trim_end_matches('/').to_owned();
    let mut args: Vec<&std::ffi::OsStr> = vec![published.as_ref(), local.as_ref()];
    args.extend(urls.iter().map(std::ffi::OsStr::new));
    let report = node_json(&root().join("tests/jsonld/dereference.mjs"), &args);
    for (slug, url) in slugs.iter().zip(&urls) {
        let got = &report[url.as_str()];
        let quads = got["quads"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: {url}: {got}"));
        let lines = std::fs::read_to_string(site.join(format!("{slug}.nt")))
            .unwrap()
            .lines()
            .count();
        assert_eq!(quads.len(), lines, "{name}: {url}: {got}");
    }
}

#[test]
fn jsonld_js_dereferences_entity_iris_through_serve() {
    needs!(JSONLD_JS);
    let site = shipped_site();
    let server = crate::serve::Server::dir(site);
    assert_jsonld_js_dereferences(site, &server.url, "serve");
}
