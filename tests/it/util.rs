//! Helpers shared by the integration tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

/// The repository root, where `input/` and `tests/` are.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped input.
pub fn shipped_input() -> PathBuf {
    root().join("input")
}

/// The small fixture's input.
pub fn tiny_input() -> PathBuf {
    root().join("tests/fixtures/tiny/input")
}

/// The real binary, built by cargo for this test run.
pub fn ontosite() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("ontosite").expect("the ontosite binary");
    // Tests must not pick up the base URL of the machine they run on.
    for var in ["ONTOSITE_BASE_URL", "NETLIFY", "URL"] {
        cmd.env_remove(var);
    }
    cmd
}

/// Runs `ontosite build --input INPUT --out OUT ARGS` and returns its output.
pub fn build(input: &Path, out: &Path, args: &[&str]) -> Output {
    ontosite()
        .args(["build", "--input"])
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(args)
        .output()
        .expect("running ontosite")
}

/// Builds and panics with the binary's stderr unless it succeeded.
pub fn build_ok(input: &Path, out: &Path) {
    let output = build(input, out, &[]);
    assert!(
        output.status.success(),
        "build of {} failed:\n{}",
        input.display(),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Every file under `dir` (relative, `/`-separated) with its bytes.
pub fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .map(|e| e.expect("walking a directory"))
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

pub fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// Copies a directory tree, for tests that change an input.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs a Node script of the tests (`node SCRIPT ARGS`) and returns the JSON
/// it prints; panics with its stderr when it fails.
pub fn node_json(script: &Path, args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let output = std::process::Command::new("node")
        .arg(script)
        .args(args)
        .output()
        .expect("Node.js 20 or newer is needed for these tests: install nodejs");
    assert!(
        output.status.success(),
        "{} failed:\n{}",
        script.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{} printed no JSON: {e}", script.display()))
}

/// The Chromium the browser tests drive: `CHROMIUM`, or Debian's.
pub fn chromium() -> String {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(
        Path::new(&chromium).is_file(),
        "no Chromium at {chromium}: install Debian's `chromium` package (scripts/test.sh does) or set CHROMIUM"
    );
    let driver = root().join("tests/browser/node_modules/playwright-core");
    assert!(
        driver.is_dir(),
        "playwright-core is not installed: run `npm ci --prefix tests/browser` (scripts/test.sh does)"
    );
    chromium
}

/// A made-up input under `dir/name`: an ontology of `Thing`s and `count`
/// entities `E0`, `E1`, ... in one `.jsonl` file, each described with
/// `word` (so that two inputs can differ in every entity).
pub fn generated_input(dir: &Path, name: &str, count: usize, word: &str) -> PathBuf {
    let input = dir.join(name);
    std::fs::create_dir_all(input.join("entities")).unwrap();
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "Many", "description": "d", "entityType": "Thing", "baseUrl": "https://many.example"}"#,
    )
    .unwrap();
    let lines: String = (0..count)
        .map(|n| format!("{{\"id\": \"E{n}\", \"name\": \"Entity {n}\", \"description\": \"{word} of entity number {n}.\"}}\n"))
        .collect();
    std::fs::write(input.join("entities/all.jsonl"), lines).unwrap();
    input
}

/// An input of one Turtle source in `dir/input`: `ontology.json` with a
/// name and base URL only, and `t.ttl` with the `:` (`http://t.test/`),
/// `owl:` and `rdfs:` prefixes, then `body`.
pub fn turtle_input(dir: &Path, body: &str) -> std::path::PathBuf {
    let input = dir.join("input");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "T", "baseUrl": "https://t.test"}"#,
    )
    .unwrap();
    std::fs::write(
        input.join("t.ttl"),
        format!(
            "@prefix : <http://t.test/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n{body}"
        ),
    )
    .unwrap();
    input
}
