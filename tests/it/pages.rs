//! The big lists in pages: linked from the information document and from
//! each other, every entity once and in order, each page valid against its
//! schema; the JSON-LD pages read by a real processor (jsonld.js) state
//! what `index.jsonld` states.

use crate::openapi::Conformance;
use crate::serve::shipped_site;
use crate::util::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// Follows `next` from the first page of the list whose whole document is
/// `complete`; checks each page's place and links on the way, and returns
/// the items of every page in order.
fn follow(site: &std::path::Path, list: &Value, count: usize, per_page: usize) -> Vec<Value> {
    let info = read_json(&site.join("api.json"));
    let base = info["baseUrl"].as_str().unwrap().trim_end_matches('/');
    let file = |url: &Value| {
        let url = url.as_str().expect("a link");
        site.join(
            url.strip_prefix(base)
                .expect("a URL of the site")
                .trim_start_matches('/'),
        )
    };
    let whole = read_json(&file(&list["complete"]));
    let mut items = Vec::new();
    let mut url = list["first"].clone();
    let mut previous = Value::Null;
    for number in 1..=count {
        let page = read_json(&file(&url));
        let what = url.as_str().unwrap().to_owned();
        assert_eq!(page["page"], number, "{what}");
        assert_eq!(page["pages"], count, "{what}");
        assert_eq!(page["type"], whole["type"], "{what}");
        assert_eq!(page["total"], whole["total"], "{what}");
        assert_eq!(page["complete"], list["complete"], "{what}");
        assert_eq!(page["first"], list["first"], "{what}");
        assert_eq!(page["last"], list["last"], "{what}");
        assert_eq!(page["previous"], previous, "{what}");
        let on_page = page["items"].as_array().unwrap();
        assert!(!on_page.is_empty() && on_page.len() <= per_page, "{what}");
        items.extend(on_page.iter().cloned());
        previous = url.clone();
        url = page["next"].clone();
        if number == count {
            assert!(url.is_null(), "the last page links a next one: {what}");
            assert_eq!(previous, list["last"]);
        }
    }
    assert_eq!(
        items.len(),
        whole["items"].as_array().unwrap().len(),
        "{}",
        list["complete"]
    );
    assert!(
        items == *whole["items"].as_array().unwrap(),
        "{}",
        list["complete"]
    );
    items
}

#[test]
fn the_paged_lists_hold_every_entity_once_in_order() {
    needs!(JSONLD_JS, OPENAPI_VALIDATOR);
    let site = shipped_site();
    let info = read_json(&site.join("api.json"));
    let pages = &info["pages"];
    let per_page = pages["entitiesPerPage"].as_u64().unwrap() as usize;
    let count = pages["count"].as_u64().unwrap() as usize;
    assert_eq!(count, 2258_usize.div_ceil(per_page));
    assert!(count > 1, "the shipped set must span pages");
    let lists = pages["lists"].as_array().unwrap();
    let completes: Vec<&str> = lists
        .iter()
        .map(|l| l["complete"].as_str().unwrap())
        .collect();
    assert_eq!(
        completes,
        [
            "https://actions.ontosite.example/index.json",
            "https://actions.ontosite.example/index.jsonld",
            "https://actions.ontosite.example/all",
        ]
    );
    let mut conformance = Conformance::of(&site.join("openapi.json"));
    for (list, name) in [(&lists[0], "ListPage"), (&lists[2], "AllPage")] {
        let items = follow(site, list, count, per_page);
        let slugs: BTreeSet<&str> = items.iter().map(|i| i["slug"].as_str().unwrap()).collect();
        assert_eq!(slugs.len(), 2258, "an entity twice");
        for number in 1..=count {
            let path = format!(
                "pages/{}/{number}.json",
                if name == "ListPage" { "index" } else { "all" }
            );
            conformance.file(name, &site.join(&path), &path);
        }
    }
    conformance.assert_valid();

    // JSON-LD: the pages' triples, but for their views, are index.jsonld's,
    // each list item on one page only.
    let report = node_json(&root().join("tests/jsonld/pages.mjs"), &[site.as_os_str()]);
    let hydra = "<http://www.w3.org/ns/hydra/core#";
    let whole: BTreeSet<&str> = report["whole"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_str().unwrap())
        .collect();
    let jsonld_pages = report["pages"].as_array().unwrap();
    assert_eq!(jsonld_pages.len(), count, "pages followed by hydra:next");
    let mut union = BTreeSet::new();
    let mut items = 0;
    for page in jsonld_pages {
        for quad in page.as_array().unwrap().iter().map(|q| q.as_str().unwrap()) {
            if quad.contains(hydra) {
                continue;
            }
            items += quad.contains("<http://schema.org/position>") as usize;
            assert!(whole.contains(quad), "not in index.jsonld: {quad}");
            union.insert(quad);
        }
    }
    assert_eq!(items, 2258, "list items across the pages");
    assert_eq!(union, whole, "the pages leave out triples of index.jsonld");
}
