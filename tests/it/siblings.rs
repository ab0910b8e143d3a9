//! Sibling ontologies: the small `products` fixture, built by ontosite
//! itself (its entities are Products: nothing about Action is built in),
//! and links from the tiny Actions into it, checked with `--sibling`.

use crate::util::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn products_input() -> PathBuf {
    root().join("tests/fixtures/products/input")
}

/// The tiny Actions with their `vendor` field linked into `products`.
fn linked_actions(dir: &Path) -> PathBuf {
    let input = dir.join("actions");
    copy_tree(&tiny_input(), &input);
    let manifest = input.join("ontology.json");
    let mut ontology = read_json(&manifest);
    ontology["siblings"][0]["linkedBy"] = serde_json::json!(["vendor"]);
    std::fs::write(&manifest, ontology.to_string()).unwrap();
    input
}

#[test]
fn links_into_a_sibling_are_its_entity_iris_and_resolve() {
    let dir = tempdir();
    // The sibling, built by ontosite: Products, not Actions.
    let products = dir.path().join("products-site");
    build_ok(&products_input(), &products);
    let product_iris: Vec<String> = std::fs::read_dir(&products)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonld"))
        .filter(|p| {
            ![
                "index.jsonld",
                "context.jsonld",
                "json-context.jsonld",
                "vocab.jsonld",
                "void.jsonld",
            ]
            .iter()
            .any(|n| p.ends_with(n))
        })
        .map(|p| {
            let doc = read_json(&p);
            assert_eq!(doc["@type"], "Product", "{}", p.display());
            doc["@id"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(product_iris.len(), 3);
    let info = read_json(&products.join("api.json"));
    assert_eq!(info["type"], "Product");

    // The Actions link into it: checked against its input and its site.
    let actions = linked_actions(dir.path());
    let out = dir.path().join("actions-site");
    for sibling in [products_input(), products.clone()] {
        let given = format!("products={}", sibling.display());
        let output = build(&actions, &out, &["--sibling", &given]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let all = read_json(&out.join("all"));
    for item in all["items"].as_array().unwrap() {
        let vendor = item["vendor"].as_str().unwrap();
        assert!(
            product_iris.iter().any(|iri| iri == vendor),
            "{vendor} is no product's @id"
        );
        let slug = item["slug"].as_str().unwrap();
        let ld = read_json(&out.join(format!("{slug}.jsonld")));
        assert_eq!(ld["vendor"], vendor);
        // The entity page links to it.
        let page = std::fs::read_to_string(out.join(format!("{slug}.html"))).unwrap();
        assert!(
            page.contains("<a href=\"https:&#x2f;&#x2f;products.example.org&#x2f;"),
            "{slug}.html"
        );
    }
    let context = read_json(&out.join("context.jsonld"));
    assert_eq!(context["@context"]["vendor"]["@type"], "@id");
}

#[test]
fn a_dangling_link_names_its_file_and_entity_and_changes_nothing() {
    let dir = tempdir();
    let actions = linked_actions(dir.path());
    let out = dir.path().join("site");
    build_ok(&actions, &out);
    let before = snapshot(&out);
    // A products input without Zeta.
    let products = dir.path().join("products");
    copy_tree(&products_input(), &products);
    let bulk = products.join("entities/products.jsonl");
    let kept: String = std::fs::read_to_string(&bulk)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("\"Zeta\""))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&bulk, kept).unwrap();
    let given = format!("products={}", products.display());
    let output = build(&actions, &out, &["--sibling", &given]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("zeta.json (entity `ZetaDeleteItem`)"),
        "{message}"
    );
    assert!(
        message.contains("https://products.example.org/zeta"),
        "{message}"
    );
    assert_eq!(snapshot(&out), before);
    // A sibling the ontology does not list.
    let output = build(
        &actions,
        &out,
        &["--sibling", &format!("prods={}", products.display())],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("does not list as a sibling"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_sibling_site_is_valid_linked_data_too() {
    needs!(JSONLD_JS);
    let dir = tempdir();
    let site = dir.path().join("products");
    build_ok(&products_input(), &site);
    let report: Value = node_json(
        &root().join("tests/jsonld/process.mjs"),
        &[site.as_os_str(), "acme".as_ref()],
    );
    assert_eq!(report["failures"], serde_json::json!([]));
    assert_eq!(report["refused"], serde_json::json!([]));
    // Three products, index.jsonld, the vocabulary, and the data set in
    // void.jsonld and in api.json.
    assert_eq!(report["documents"], 7);
    let quads = report["quads"]["acme"].to_string();
    assert!(
        quads.contains("<https://products.example.org/acme> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://schema.org/Product>"),
        "{quads}"
    );
}
