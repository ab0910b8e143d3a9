//! The documentation's examples (the README and `docs/`, which the README
//! points to) run against the shipped data: its example entity is one of
//! the shipped entities, its queries find something, what it says a query
//! matches holds, its build summary has today's counts, its list of
//! reserved slugs is the code's, and what it links exists.

use crate::serve::shipped_site;
use crate::util::*;
use ontosite::search::Searcher;
use regex_lite::Regex;
use serde_json::Value;

/// The README and every page of `docs/`, by path from the repository.
fn documents() -> Vec<(std::path::PathBuf, String)> {
    let mut paths = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// The documentation of the shipped data as one text, for the examples
/// wherever they are: every page but the benchmarks, whose queries and
/// figures are of synthetic sets.
fn readme() -> String {
    documents()
        .into_iter()
        .filter(|(path, _)| !path.ends_with("docs/benchmarks.md"))
        .map(|(_, text)| text)
        .collect()
}

/// The total and the IDs a query finds in the shipped data.
fn search(searcher: &Searcher, q: &str) -> (u64, Vec<String>) {
    let (status, body) =
        ontosite::site::answers::search_response(searcher, Some(q), Some("1000"), None).unwrap();
    assert_eq!(status, 200, "{q}");
    let answer: Value = serde_json::from_slice(&body).unwrap();
    let ids = answer["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_str().unwrap().to_owned())
        .collect();
    (answer["total"].as_u64().unwrap(), ids)
}

#[test]
fn the_readme_examples_hold_for_the_shipped_data() {
    let text = readme();
    let ontology = ontosite::source::load(&shipped_input(), None).unwrap();
    let searcher = Searcher::new(&ontology);

    // The example entity, as its file has it.
    let block = Regex::new(r"(?s)An entity:\n\n```json\n(.*?)```").unwrap();
    let example: Value =
        serde_json::from_str(&block.captures(&text).expect("an example entity")[1]).unwrap();
    let shipped = walkdir::WalkDir::new(shipped_input().join("entities"))
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| read_json(e.path()))
        .find(|entity| entity["id"] == example["id"])
        .unwrap_or_else(|| panic!("no shipped entity {}", example["id"]));
    assert_eq!(
        example, shipped,
        "the documentation's example entity is not as shipped"
    );
    let named = Regex::new(r"type `Action` \(`([^`]+)`").unwrap();
    let name = &named.captures(&text).expect("an example name")[1];
    assert!(ontology.entities.iter().any(|e| e.name == name), "{name}");

    // Every query finds something.
    let queries = Regex::new(r#"search\?q=([^&`]+)|q: "([^"]+)""#).unwrap();
    let mut seen = 0;
    for found in queries.captures_iter(&text) {
        let q = found.get(1).or(found.get(2)).unwrap().as_str();
        // Placeholders (`{q}`, `…`) stand for any query.
        if q.is_empty() || q.contains('{') || q.contains('…') {
            continue;
        }
        assert!(
            search(&searcher, q).0 > 0,
            "the documentation's query `{q}` finds nothing"
        );
        seen += 1;
    }
    assert!(seen >= 2, "only {seen} queries found in the README");

    // "(`creat` matches `CreateItem`, `hub` does not match `GitHub`)".
    let claim = Regex::new(r"\(`(\w+)` matches `(\w+)`, `(\w+)` does not match `(\w+)`\)").unwrap();
    let claim = claim.captures(&text).expect("the prefix example");
    let ids_with = |q: &str, part: &str| {
        search(&searcher, q)
            .1
            .iter()
            .filter(|id| id.contains(part))
            .count()
    };
    assert!(
        ids_with(&claim[1], &claim[2]) > 0,
        "`{}` matches no `{}`",
        &claim[1],
        &claim[2]
    );
    assert_eq!(
        ids_with(&claim[3], &claim[4]),
        0,
        "`{}` matches `{}`",
        &claim[3],
        &claim[4]
    );

    // The summary line: entity and file count and size of a real build.
    let summary = Regex::new(r"built (\d+) entities: (\d+) files, ([\d.]+) MB").unwrap();
    let summary = summary.captures(&text).expect("the summary line");
    // What the build wrote, its marker and record aside.
    let mut files = snapshot(shipped_site());
    files.remove(ontosite::output::MARKER);
    files.remove(ontosite::output::RECORD);
    let published = files.len();
    let bytes: usize = files.values().map(Vec::len).sum();
    assert_eq!(
        summary[1].parse::<usize>().unwrap(),
        ontology.entities.len()
    );
    assert_eq!(summary[2].parse::<usize>().unwrap(), published);
    assert_eq!(&summary[3], format!("{:.1}", bytes as f64 / 1e6));

    // The reserved slugs.
    let reserved = Regex::new(r"(?s)the names the site uses itself \(`([^`]+)`\)").unwrap();
    let listed: Vec<&str> = reserved
        .captures(&text)
        .expect("the reserved slugs")
        .get(1)
        .unwrap()
        .as_str()
        .split_whitespace()
        .collect();
    assert_eq!(listed, ontosite::site::reserved::reserved_slugs());
}

/// Every image and local link of the README and of `docs/` exists: its
/// screenshots, the documents it points to, from the file that links them.
#[test]
fn the_documentation_s_images_and_local_links_exist() {
    let link = Regex::new(r"\]\(([^)#\s]+)\)").unwrap();
    let mut checked = 0;
    for (path, text) in documents() {
        let dir = path.parent().unwrap();
        for found in link.captures_iter(&text) {
            let target = &found[1];
            if target.contains("://") {
                continue;
            }
            assert!(
                dir.join(target).exists(),
                "{} links {target}, which is missing",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} local links");
}
