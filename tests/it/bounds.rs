//! What one term's input can make the site hold (docs/input.md, "Bounds"): a deep
//! hierarchy, a term with many children and a huge label each keep the
//! site proportional to the input, their own documents whole.

use crate::util::*;
use std::path::Path;

/// A chain of `n` classes, `c0` the root and each `c{i}` under `c{i-1}`.
fn chain(n: usize) -> String {
    let mut body = String::from(":c0 a owl:Class ; rdfs:label \"c0\" .\n");
    for i in 1..n {
        body.push_str(&format!(
            ":c{i} a owl:Class ; rdfs:label \"c{i}\" ; rdfs:subClassOf :c{} .\n",
            i - 1
        ));
    }
    body
}

fn site_bytes(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum()
}

/// Doubling a chain's depth doubles the site, not quadruples it: the
/// ancestors a term lists and the breadcrumbs its page shows are the
/// nearest ones, with the way up by links. Unbounded, 300 and 600 levels
/// made 15 and 48 MB (a ratio of 3.2), 10,000 levels over 27 GB.
#[test]
fn a_deep_hierarchy_keeps_the_site_proportional() {
    let dir = tempfile::tempdir().unwrap();
    let mut sizes = Vec::new();
    for n in [300, 600] {
        let input = turtle_input(&dir.path().join(n.to_string()), &chain(n));
        let out = dir.path().join(format!("{n}/dist"));
        build_ok(&input, &out);
        sizes.push(site_bytes(&out));
        let last = format!("c{}", n - 1);
        let json = read_json(&out.join(format!("{last}.json")));
        let ancestors = json["ancestors"].as_array().unwrap();
        assert_eq!(ancestors.len(), 64, "the nearest 64 levels");
        assert_eq!(ancestors[0]["slug"], format!("c{}", n - 2));
        assert_eq!(json["ancestorsComplete"], false);
        let near = read_json(&out.join("c10.json"));
        assert_eq!(near["ancestors"].as_array().unwrap().len(), 10);
        assert_eq!(near["ancestorsComplete"], true);
        // The page: the nearest 12 breadcrumbs, then a link further up.
        let page = std::fs::read_to_string(out.join(format!("{last}.html"))).unwrap();
        let crumbs = page
            .split("aria-label=\"Breadcrumbs\"")
            .nth(1)
            .unwrap()
            .split("</nav>")
            .next()
            .unwrap();
        assert_eq!(crumbs.matches("<a href=").count(), 1 + 1 + 12, "{crumbs}");
        assert!(
            crumbs.contains(&format!(
                "<a href=\"c{}.html\" title=\"further up: c{0}\">…</a>",
                n - 14
            )),
            "{crumbs}"
        );
    }
    let ratio = sizes[1] as f64 / sizes[0] as f64;
    assert!(
        ratio < 2.3,
        "600 levels made {ratio:.2} times the site of 300: {sizes:?}"
    );
}

/// A term with 1,500 children lists the first 1,000 in its documents, with
/// the total, and its page links to the tree, which lists every one.
#[test]
fn a_term_with_many_children_lists_the_first_thousand() {
    let dir = tempfile::tempdir().unwrap();
    let mut body = String::from(":top a owl:Class ; rdfs:label \"top\" .\n");
    for i in 0..1500 {
        body.push_str(&format!(
            ":k{i:04} a owl:Class ; rdfs:label \"kid {i:04}\" ; rdfs:subClassOf :top .\n"
        ));
    }
    let input = turtle_input(dir.path(), &body);
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    let top = read_json(&out.join("top.json"));
    assert_eq!(top["children"].as_array().unwrap().len(), 1000);
    assert_eq!(top["childrenTotal"], 1500);
    assert_eq!(top["children"][999]["slug"], "k0999");
    assert_eq!(top["linkedFrom"].as_array().unwrap().len(), 1000);
    assert_eq!(top["linkedFromTotal"], 1500);
    let page = std::fs::read_to_string(out.join("top.html")).unwrap();
    assert!(
        page.contains(
            "The first 1000 of 1500: <a href=\"tree.html#top\">every one in the tree</a>"
        ),
        "{}",
        &page[page.find("Children").unwrap_or(0)..][..400]
    );
    let tree: String = ["tree.html", "tree-2.html"]
        .iter()
        .map(|f| std::fs::read_to_string(out.join(f)).unwrap())
        .collect();
    for i in [0, 999, 1000, 1499] {
        assert!(
            tree.contains(&format!("id=\"k{i:04}\"")),
            "k{i:04} in the tree"
        );
    }
}

/// One 1 MB label: the term's own documents hold it whole; the front page,
/// the lists and other terms' pages show its first words.
#[test]
fn a_huge_label_stays_on_its_own_pages() {
    let dir = tempfile::tempdir().unwrap();
    let label = "word ".repeat(200_000);
    let body = format!(
        ":big a owl:Class ; rdfs:label \"{label}\" .\n:small a owl:Class ; rdfs:label \"small\" ; rdfs:subClassOf :big .\n"
    );
    let input = turtle_input(dir.path(), &body);
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    let big = read_json(&out.join("big.json"));
    assert_eq!(
        big["name"].as_str().map(str::len),
        Some(label.len()),
        "whole"
    );
    // Its page shows the answer's first 16 KiB, not the whole answer again.
    let page = std::fs::read_to_string(out.join("big.html")).unwrap();
    assert!(page.contains("Its first 16 KiB: the whole answer is at <a href=\"big.json\">"));
    let copies = page.len() as f64 / label.len() as f64;
    assert!(copies < 6.0, "the page holds the label {copies:.1} times");
    for file in [
        "index.html",
        "home.html",
        "index.json",
        "small.json",
        "small.html",
        "tree.html",
    ] {
        let size = std::fs::metadata(out.join(file)).unwrap().len();
        assert!(size < 100_000, "{file} holds {size} bytes");
    }
    let small = read_json(&out.join("small.json"));
    let shown = small["parents"][0]["name"].as_str().unwrap();
    assert!(
        shown.chars().count() <= 200 && shown.ends_with("word…"),
        "{shown}"
    );
}
