//! Helpers shared by the integration tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root, where `input/` and `tests/` are.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where the tests' temporary folders go: `ONTOSITE_TEST_TMPDIR` if set,
/// else the memory file system at `/dev/shm` where there is one, else the
/// system's temporary folder. A test's sites are thousands of small
/// files; written to a disk they made the quick loop wait on it (88 s
/// against 68 s).
fn test_tmp() -> &'static Path {
    static TMP: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    TMP.get_or_init(|| {
        if let Some(dir) = chosen_tmp() {
            return dir;
        }
        let shm = Path::new("/dev/shm");
        if tempfile::tempdir_in(shm).is_ok() {
            return shm.to_path_buf();
        }
        std::env::temp_dir()
    })
}

/// The folder `ONTOSITE_TEST_TMPDIR` chooses for the tests' temporary
/// folders, if set.
fn chosen_tmp() -> Option<PathBuf> {
    std::env::var_os("ONTOSITE_TEST_TMPDIR").map(PathBuf::from)
}

/// A temporary folder for one test, removed when dropped.
pub fn tempdir() -> tempfile::TempDir {
    let tmp = test_tmp();
    tempfile::tempdir_in(tmp)
        .unwrap_or_else(|e| panic!("a temporary folder in {}: {e}", tmp.display()))
}

/// A temporary folder outside `/dev` (`ONTOSITE_TEST_TMPDIR`, else the
/// system's): for a site that Deno reads as files, which it refuses under
/// `/dev` (`/dev/shm` too) without `--allow-all`.
pub fn disk_tempdir() -> tempfile::TempDir {
    let tmp = chosen_tmp().unwrap_or_else(std::env::temp_dir);
    tempfile::tempdir_in(&tmp)
        .unwrap_or_else(|e| panic!("a temporary folder in {}: {e}", tmp.display()))
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
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ontosite"))
}

/// The real binary, to run; standard input closed, as in CI.
pub fn ontosite() -> Command {
    let mut cmd = Command::new(binary());
    cmd.stdin(std::process::Stdio::null());
    // Tests must not pick up the base URL of the machine they run on.
    for var in [
        "ONTOSITE_BASE_URL",
        "ONTOSITE_HOST_LIMITS",
        "NETLIFY",
        "URL",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// `ontosite build --input INPUT --out OUT ARGS`, to run.
pub fn build_command(input: &Path, out: &Path, args: &[&str]) -> Command {
    let mut command = ontosite();
    command
        .args(["build", "--input"])
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(args);
    command
}

/// `ontosite check ARGS --input INPUT`, to be run.
pub fn check_command(input: &Path, args: &[&str]) -> Command {
    let mut command = ontosite();
    command.arg("check").args(args).arg("--input").arg(input);
    command
}

/// A command's output, the command killed where it runs past `most`.
pub trait OutputWithin {
    fn output_within(&mut self, most: std::time::Duration) -> std::io::Result<Output>;
}

impl OutputWithin for Command {
    fn output_within(&mut self, most: std::time::Duration) -> std::io::Result<Output> {
        use std::io::Read;
        let mut child = self
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()?;
        let drain = |pipe: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                if let Some(mut pipe) = pipe {
                    let _ = pipe.read_to_end(&mut bytes);
                }
                bytes
            })
        };
        let stdout = drain(
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let stderr = drain(
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let deadline = std::time::Instant::now() + most;
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                break child.wait()?;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        Ok(Output {
            status,
            stdout: stdout.join().unwrap_or_default(),
            stderr: stderr.join().unwrap_or_default(),
        })
    }
}

/// Runs `ontosite check ARGS --input INPUT` and returns its output.
pub fn check(input: &Path, args: &[&str]) -> Output {
    check_command(input, args)
        .output()
        .expect("running ontosite")
}

/// Runs `ontosite build --input INPUT --out OUT ARGS` and returns its output.
pub fn build(input: &Path, out: &Path, args: &[&str]) -> Output {
    build_command(input, out, args)
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

/// Dates `path` (a file or a folder) `when`, as a tool copying it
/// might: what a build that trusts dates must see through.
pub fn date(path: &Path, when: std::time::SystemTime) {
    std::fs::File::open(path)
        .unwrap()
        .set_modified(when)
        .unwrap();
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

/// The Chromium the browser tests drive (`Need::Chromium`): `CHROMIUM`,
/// or Debian's.
pub fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
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

/// What a test needs beyond Rust and this repository. Plain `cargo test`
/// skips a test whose need is not met, with a one-line notice; the full
/// tier (`ONTOSITE_TEST_TIER=full`, which `scripts/test.sh` sets after
/// installing everything) fails it instead, so CI can never skip one.
#[derive(Clone, Copy, Debug)]
pub enum Need {
    /// Node.js 20+ on the PATH and this package path under the repository
    /// (one `scripts/test.sh` installs into a `tests/*/node_modules`).
    Node(&'static str),
    /// Node.js, `playwright-core` and a Chromium (`CHROMIUM` or Debian's).
    Chromium,
    /// A program `scripts/test.sh` installs, by its path under the
    /// repository: a virtual environment's tool, a host's runtime.
    Installed(&'static str),
    /// The real ontologies beside the checkout (`../shared/ontologies/`).
    SharedOntologies,
    /// The WebAssembly reader ([`WASM_READER_PATH`]), built after every
    /// source it is compiled from: a stale one would test old code.
    WasmReader,
    /// Minutes of work (real ontologies, thousands of sockets, deep
    /// hierarchies): the full tier only, so the quick loop stays quick.
    Slow,
}

/// Netlify's own parsers and matcher (`tests/netlify`).
pub const NETLIFY: Need = Need::Node("tests/netlify/node_modules/@netlify/headers-parser");
/// jsonld.js (`tests/jsonld`).
pub const JSONLD_JS: Need = Need::Node("tests/jsonld/node_modules/jsonld");
/// The OpenAPI validator, Redocly, Spectral, openapi-typescript and tsc
/// (`tests/openapi`).
pub const OPENAPI_VALIDATOR: Need = Need::Node("tests/openapi/node_modules/.bin/tsc");
/// Schemathesis and openapi-python-client (`tests/openapi/.venv`).
pub const OPENAPI_PYTHON: Need = Need::Installed("tests/openapi/.venv/bin/openapi-python-client");
/// pyoxigraph (`tests/rdf/.venv`).
pub const PYOXIGRAPH: Need = Need::Installed("tests/rdf/.venv/bin/python");
/// `assets/search.js` under Node (`tests/search`, no packages).
pub const SEARCH_JS: Need = Need::Node("tests/search/parity.mjs");
/// The search reader compiled to WebAssembly (`wasm/`), which
/// `scripts/test.sh` builds.
pub const WASM_READER: Need = Need::WasmReader;
pub const WASM_READER_PATH: &str = "target/wasm32-unknown-unknown/wasm/ontosite_wasm.wasm";
/// Cloudflare's workerd, through wrangler (`tests/runtimes`).
pub const WORKERD: Need = Need::Node("tests/runtimes/node_modules/.bin/wrangler");
/// Deno, which runs Netlify Edge Functions (`tests/runtimes`).
pub const DENO: Need = Need::Installed("tests/runtimes/node_modules/.bin/deno");
/// A real browser.
pub const CHROMIUM: Need = Need::Chromium;

/// The real ontologies the tests read, beside the checkout.
const SHARED_ONTOLOGIES: [&str; 4] = [
    "pato.obo",
    "pato-base.owl",
    "envo.obo",
    "schemaorg-30.0-current-https.ttl",
];

/// The environment variable that selects the full tier.
pub const TIER: &str = "ONTOSITE_TEST_TIER";

pub fn full_tier() -> bool {
    std::env::var(TIER).is_ok_and(|tier| tier == "full")
}

fn node_runs() -> bool {
    static NODE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *NODE.get_or_init(|| {
        std::process::Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|output| output.status.success())
    })
}

impl Need {
    /// Why the need is not met, if it is not.
    fn unmet(self) -> Option<String> {
        let node = || (!node_runs()).then(|| "Node.js 20 or newer".to_string());
        let path = |rel: &str| (!root().join(rel).exists()).then(|| rel.to_string());
        match self {
            Need::Node(package) => node().or_else(|| path(package)),
            Need::Chromium => {
                let chromium = chromium();
                node()
                    .or_else(|| path("tests/browser/node_modules/playwright-core"))
                    .or_else(|| (!Path::new(&chromium).is_file()).then_some(chromium))
            }
            Need::Installed(program) => path(program),
            Need::SharedOntologies => SHARED_ONTOLOGIES
                .iter()
                .find_map(|name| path(&format!("../shared/ontologies/{name}")))
                .map(|_| "the real ontologies in ../shared/ontologies".into()),
            Need::Slow => (!full_tier()).then(|| "the full tier".into()),
            Need::WasmReader => path(WASM_READER_PATH).or_else(|| {
                let built = std::fs::metadata(root().join(WASM_READER_PATH))
                    .and_then(|m| m.modified())
                    .ok()?;
                // Every file the reader is compiled from, and what says how.
                let newer = [
                    "src/model",
                    "src/search",
                    "src/site",
                    "src/lib.rs",
                    "wasm",
                    "Cargo.toml",
                    "Cargo.lock",
                    ".cargo",
                ]
                .iter()
                .flat_map(|dir| walkdir::WalkDir::new(root().join(dir)))
                .filter_map(Result::ok)
                .filter(|entry| entry.file_type().is_file())
                .find(|entry| {
                    entry
                        .metadata()
                        .ok()
                        .and_then(|m| m.modified().ok())
                        .is_some_and(|modified| modified > built)
                })?;
                Some(format!(
                    "{WASM_READER_PATH} built after {} (cargo build -p ontosite-wasm --target wasm32-unknown-unknown --profile wasm)",
                    newer.path().display()
                ))
            }),
        }
    }
}

/// Whether the running test may go on: every need met. Otherwise, in the
/// quick tier, a notice on the terminal (past libtest's capture, which
/// would hide it) and `false`; in the full tier, a failure.
pub fn ready(needs: &[Need]) -> bool {
    let missing: Vec<String> = needs.iter().filter_map(|need| need.unmet()).collect();
    if missing.is_empty() {
        return true;
    }
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let missing = missing.join(", ");
    assert!(
        !full_tier(),
        "{test} needs {missing}: scripts/test.sh installs everything"
    );
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: needs {missing} (scripts/test.sh runs every test)"
    );
    false
}

/// Returns from the test, with a notice, unless every need is met.
macro_rules! needs {
    ($($need:expr),+ $(,)?) => {
        if !$crate::util::ready(&[$($need),+]) {
            return;
        }
    };
}
pub(crate) use needs;

/// The strings of the JSON array `list`, in order.
pub fn strings_of_array(list: &serde_json::Value) -> Vec<String> {
    list.as_array()
        .expect("an array")
        .iter()
        .map(|item| item.as_str().expect("a string").to_owned())
        .collect()
}

/// The string `field` of each object in the JSON array `list`, in order.
pub fn strings_of<'a>(list: &'a serde_json::Value, field: &str) -> Vec<&'a str> {
    list.as_array()
        .expect("an array")
        .iter()
        .map(|item| item[field].as_str().expect("a string"))
        .collect()
}
