//! `ontosite diff` on real releases: the four PATO releases of
//! `../shared/ontologies/pato-releases/`, each pair of consecutive ones
//! compared with what obonet, an OBO reader of its own (the releases are
//! OBO, which no RDF library reads), finds between the same files.

use crate::ontologies::shared_ontology;
use crate::util::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const RELEASES: [&str; 4] = ["2023-05-18", "2024-03-28", "2024-11-11", "2025-05-14"];

/// An input of one release: its OBO file and an `ontology.json`.
fn release_input(dir: &Path, version: &str) -> PathBuf {
    let input = dir.join(version);
    std::fs::create_dir_all(&input).unwrap();
    let source = shared_ontology(&format!("pato-releases/pato-{version}.obo"));
    std::fs::copy(&source, input.join("pato.obo")).unwrap();
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "PATO", "baseUrl": "https://pato.test"}"#,
    )
    .unwrap();
    input
}

/// The IDs listed under `kind`: each an ID (the obonet script's lists), or
/// a change naming one (ours).
pub fn ids(changes: &Value, kind: &str) -> BTreeSet<String> {
    changes[kind]
        .as_array()
        .unwrap_or_else(|| panic!("no {kind} in {changes}"))
        .iter()
        .map(|change| {
            change
                .get("id")
                .unwrap_or(change)
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

/// The kinds of change the obonet script finds too.
pub const CHECKED: [&str; 5] = [
    "added",
    "removed",
    "deprecated",
    "undeprecated",
    "relabelled",
];

/// What the obonet script finds between two OBO files.
pub fn obonet_changes(before: &Path, after: &Path) -> Value {
    let theirs = std::process::Command::new(root().join("tests/rdf/.venv/bin/python"))
        .arg(root().join("tests/rdf/changes.py"))
        .arg(before)
        .arg(after)
        .output()
        .unwrap();
    assert!(
        theirs.status.success(),
        "{}",
        String::from_utf8_lossy(&theirs.stderr)
    );
    serde_json::from_slice(&theirs.stdout).unwrap()
}

#[test]
fn pato_releases_change_as_an_obo_reader_of_its_own_sees_them() {
    needs!(Need::SharedOntologies, PYOXIGRAPH);
    let dir = tempdir();
    let mut seen = 0;
    for pair in RELEASES.windows(2) {
        let (before, after) = (
            release_input(dir.path(), pair[0]),
            release_input(dir.path(), pair[1]),
        );
        let output = ontosite()
            .arg("diff")
            .arg(&before)
            .arg(&after)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
        let ours: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert!(
            stderr(&output).starts_with("changes: "),
            "{}",
            stderr(&output)
        );
        let theirs = obonet_changes(&before.join("pato.obo"), &after.join("pato.obo"));
        for kind in CHECKED {
            let (found, expected) = (ids(&ours, kind), ids(&theirs, kind));
            assert_eq!(found, expected, "{kind} from {} to {}", pair[0], pair[1]);
            seen += found.len();
        }
        // Each relabelling says what the name was and is.
        for change in ours["relabelled"].as_array().unwrap() {
            assert_ne!(change["before"], change["after"], "{change}");
        }
    }
    assert!(seen > 0, "the releases differ in nothing that was checked");
}
