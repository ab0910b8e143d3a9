//! `openapi.json`: valid OpenAPI 3.1 by a real validator
//! (`tests/openapi/validate.mjs`), clean by Redocly's recommended rules and
//! Spectral's, typed by openapi-typescript, and every JSON document the
//! site answers with valid against its schema there (Ajv,
//! `tests/openapi/conform.mjs`).

use crate::serve::{owl_site, shipped_site};
use crate::util::*;
use ontosite::search::Searcher;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Documents to check against the schemas of one `openapi.json`, checked
/// together by Ajv in one run of Node (`tests/openapi/conform.mjs`).
pub struct Conformance {
    openapi: PathBuf,
    checks: Vec<Value>,
    names: Vec<String>,
}

impl Conformance {
    pub fn of(openapi: &Path) -> Conformance {
        Conformance {
            openapi: openapi.to_path_buf(),
            checks: Vec::new(),
            names: Vec::new(),
        }
    }

    /// `document` against `components.schemas.NAME`.
    pub fn document(&mut self, name: &str, document: &Value, what: &str) -> &mut Self {
        self.at(
            &format!("#/components/schemas/{name}"),
            json!({ "document": document }),
            what,
        )
    }

    /// The JSON file `file` against `components.schemas.NAME`.
    pub fn file(&mut self, name: &str, file: &Path, what: &str) -> &mut Self {
        self.at(
            &format!("#/components/schemas/{name}"),
            json!({ "file": file }),
            what,
        )
    }

    /// `document` against the schema at the JSON pointer `schema`.
    pub fn at(&mut self, schema: &str, mut check: Value, what: &str) -> &mut Self {
        check["schema"] = json!(schema);
        self.checks.push(check);
        self.names.push(what.to_string());
        self
    }

    /// Each check's errors, in the order they were added.
    pub fn errors(&self) -> Vec<Vec<String>> {
        let dir = tempdir();
        let request = dir.path().join("request.json");
        std::fs::write(
            &request,
            serde_json::to_vec(&json!({ "openapi": self.openapi, "checks": self.checks })).unwrap(),
        )
        .unwrap();
        let report = node_json(
            &root().join("tests/openapi/conform.mjs"),
            &[request.as_os_str()],
        );
        serde_json::from_value(report["errors"].clone()).unwrap()
    }

    /// Whether each check's document conforms.
    pub fn verdicts(&self) -> Vec<bool> {
        self.errors().iter().map(Vec::is_empty).collect()
    }

    pub fn assert_valid(&self) {
        let failed: Vec<String> = self
            .names
            .iter()
            .zip(self.errors())
            .filter(|(_, errors)| !errors.is_empty())
            .take(5)
            .map(|(what, errors)| format!("{what}: {errors:?}"))
            .collect();
        assert!(failed.is_empty(), "{}: {failed:#?}", self.openapi.display());
    }
}

#[test]
fn openapi_json_is_valid_openapi_3_1_and_describes_every_endpoint() {
    needs!(OPENAPI_VALIDATOR);
    let site = shipped_site();
    let report = node_json(
        &root().join("tests/openapi/validate.mjs"),
        &[site.join("openapi.json").as_os_str()],
    );
    assert_eq!(report["errors"], json!([]));
    assert_eq!(report["valid"], true);
    let openapi = read_json(&site.join("openapi.json"));
    let info = read_json(&site.join("api.json"));
    // Every endpoint the information document lists is described, and the
    // information document links the description.
    for endpoint in info["endpoints"].as_array().unwrap() {
        let path = endpoint["path"].as_str().unwrap();
        assert!(
            openapi["paths"][path]["get"].is_object(),
            "{path} is not in openapi.json"
        );
    }
    assert_eq!(
        info["openapi"],
        "https://actions.ontosite.example/openapi.json"
    );
    let search = &openapi["paths"]["/search"]["get"];
    let names: Vec<&str> = strings_of(&search["parameters"], "name");
    assert_eq!(names, ["q", "limit", "offset"]);
    for status in ["200", "400"] {
        assert!(search["responses"][status].is_object(), "/search {status}");
    }
    assert!(openapi["paths"]["/{slug}.json"]["get"]["responses"]["404"].is_object());
}

#[test]
fn every_json_document_validates_against_its_schema() {
    needs!(OPENAPI_VALIDATOR);
    let site = shipped_site();
    let mut conformance = Conformance::of(&site.join("openapi.json"));
    for (name, file) in [
        ("Info", "api.json"),
        ("List", "index.json"),
        ("All", "all"),
        ("Problem", "404.json"),
    ] {
        conformance.file(name, &site.join(file), file);
    }
    let mut entities = 0;
    for item in read_json(&site.join("index.json"))["items"]
        .as_array()
        .unwrap()
    {
        let name = format!("{}.json", item["slug"].as_str().unwrap());
        conformance.file("Entity", &site.join(&name), &name);
        entities += 1;
    }
    assert_eq!(entities, 2258);

    // Search answers and their errors, from the reference.
    let ontology = ontosite::source::load(&shipped_input(), None).unwrap();
    let searcher = Searcher::new(&ontology);
    for (q, limit, offset) in [
        (Some("air"), None, None),
        (Some("create item"), Some("10"), Some("20")),
        (Some("zzzz"), None, None),
        (None, None, None),
        (Some("-"), None, None),
        (Some("a"), Some("0"), None),
    ] {
        let (status, body) =
            ontosite::site::answers::search_response(&searcher, q, limit, offset).unwrap();
        let body: Value = serde_json::from_slice(&body).unwrap();
        let schema = if status == 200 {
            "SearchAnswer"
        } else {
            "Problem"
        };
        conformance.document(schema, &body, &format!("search {q:?} {limit:?} {offset:?}"));
    }
    conformance.assert_valid();
}

#[test]
fn the_schemas_reject_what_the_api_never_sends() {
    needs!(OPENAPI_VALIDATOR);
    // The check itself: documents that break the description must fail,
    // beside the document they were made from, which passes.
    let site = shipped_site();
    let entity = read_json(&site.join("airbnbcreateitem.json"));
    let mut other_type = entity.clone();
    other_type["type"] = json!("Product");
    let mut without_links = entity.clone();
    without_links.as_object_mut().unwrap().remove("links");
    let index = read_json(&site.join("index.json"));
    let mut unknown_key = index.clone();
    unknown_key["items"][0]["extra"] = json!(1);
    let verdicts = Conformance::of(&site.join("openapi.json"))
        .document("Entity", &entity, "the entity")
        .document("Entity", &other_type, "an entity of another type")
        .document("Entity", &without_links, "an entity without links")
        .document("List", &index, "the list")
        .document("List", &unknown_key, "a list entry with an unknown key")
        .verdicts();
    assert_eq!(verdicts, [true, false, false, true, false]);
}

/// The `slug` of `/{slug}.json` matches every entity and none of the site's
/// own files: `/openapi.json`, `/index.json`, `/api.json` and `/404.json`
/// are not entities, and a generated client must not take them for one.
#[test]
fn the_slug_parameter_matches_entities_and_no_site_file() {
    needs!(OPENAPI_VALIDATOR);
    let site = shipped_site();
    let openapi = read_json(&site.join("openapi.json"));
    let parameter = &openapi["paths"]["/{slug}.json"]["get"]["parameters"][0];
    assert_eq!(parameter["name"], "slug");
    let mut conformance = Conformance::of(&site.join("openapi.json"));
    let mut expected = Vec::new();
    for entry in std::fs::read_dir(site).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(stem) = name.strip_suffix(".json") else {
            continue;
        };
        expected.push(read_json(&site.join(&name))["slug"] == stem);
        conformance.at(SLUG_SCHEMA, json!({ "document": stem }), &name);
    }
    assert_eq!(expected.iter().filter(|e| **e).count(), 2258);
    for reserved in ontosite::site::reserved::reserved_slugs() {
        expected.push(false);
        conformance.at(SLUG_SCHEMA, json!({ "document": reserved }), reserved);
    }
    for made_up in ["indexes", "all1"] {
        expected.push(true);
        conformance.at(SLUG_SCHEMA, json!({ "document": made_up }), made_up);
    }
    assert_eq!(conformance.verdicts(), expected);
}

/// Where `openapi.json` describes the `slug` of `/{slug}.json`.
const SLUG_SCHEMA: &str = "#/paths/~1{slug}.json/get/parameters/0/schema";

/// A site's `openapi.json` is valid OpenAPI 3.1 (the real validator), and
/// its information document, lists, every entity and every other
/// document named like one follow its schemas: how many of those others
/// there are (a removed term's, a hash document).
pub fn assert_site_follows_its_openapi(site: &std::path::Path) -> usize {
    let report = node_json(
        &root().join("tests/openapi/validate.mjs"),
        &[site.join("openapi.json").as_os_str()],
    );
    assert_eq!(report["errors"], json!([]), "{}", site.display());
    let openapi = read_json(&site.join("openapi.json"));
    let mut conformance = Conformance::of(&site.join("openapi.json"));
    for (name, file) in [
        ("Info", "api.json"),
        ("List", "index.json"),
        ("All", "all"),
        ("ListPage", "pages/index/1.json"),
        ("AllPage", "pages/all/1.json"),
    ] {
        conformance.file(name, &site.join(file), file);
    }
    // The information document lists the paths `openapi.json` describes,
    // in its order.
    let info = read_json(&site.join("api.json"));
    let listed: Vec<&str> = strings_of(&info["endpoints"], "path");
    let described: Vec<&str> = openapi["paths"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        listed,
        described,
        "api.json's endpoints in {}",
        site.display()
    );
    // A site's release list and change log, where `openapi.json` says it
    // has them, and only there.
    for (path, name) in [
        ("/releases/index.json", "ReleaseList"),
        ("/change-log.json", "ChangeLog"),
    ] {
        let file = site.join(path.trim_start_matches('/'));
        let described = openapi["paths"][path].is_object();
        assert_eq!(described, file.exists(), "{path} in {}", site.display());
        if described {
            conformance.file(name, &file, path);
        }
    }
    for item in read_json(&site.join("index.json"))["items"]
        .as_array()
        .unwrap()
    {
        let name = format!("{}.json", item["slug"].as_str().unwrap());
        conformance.file("Entity", &site.join(&name), &name);
    }
    conformance.assert_valid();

    // What `/{slug}.json` answers, whatever the slug names: every JSON
    // file whose name the slug's schema takes.
    let operation = &openapi["paths"]["/{slug}.json"]["get"];
    let answer = &operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"];
    let answer = answer.as_str().unwrap().rsplit('/').next().unwrap();
    let mut names = Conformance::of(&site.join("openapi.json"));
    let mut files = Vec::new();
    for entry in std::fs::read_dir(site).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(stem) = name.strip_suffix(".json") {
            names.at(SLUG_SCHEMA, json!({ "document": stem }), &name);
            files.push(name);
        }
    }
    let named: Vec<String> = files
        .into_iter()
        .zip(names.verdicts())
        .filter_map(|(name, slug)| slug.then_some(name))
        .collect();
    let mut answers = Conformance::of(&site.join("openapi.json"));
    for name in &named {
        answers.file(answer, &site.join(name), name);
    }
    answers.assert_valid();
    let mut entities = Conformance::of(&site.join("openapi.json"));
    for name in &named {
        entities.file("Entity", &site.join(name), name);
    }
    entities
        .verdicts()
        .into_iter()
        .filter(|entity| !entity)
        .count()
}

#[test]
fn a_term_without_its_iri_fails_the_term_schema() {
    needs!(OPENAPI_VALIDATOR);
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&root().join("tests/fixtures/ontologies/skos"), &site);
    let red = read_json(&site.join("red.json"));
    let mut without_iri = red.clone();
    without_iri.as_object_mut().unwrap().remove("iri");
    let verdicts = Conformance::of(&site.join("openapi.json"))
        .document("Entity", &red, "red.json")
        .document("Entity", &without_iri, "red.json without its IRI")
        .verdicts();
    assert_eq!(verdicts, [true, false]);
}

/// A tool of `tests/openapi/node_modules/.bin`, run on `args`: its
/// standard output.
fn openapi_tool(name: &str, args: &[&std::ffi::OsStr]) -> String {
    let tool = root().join("tests/openapi/node_modules/.bin").join(name);
    let output = std::process::Command::new(&tool)
        .args(args)
        .env("REDOCLY_TELEMETRY", "off")
        .env("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true")
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What the clients users generate from `openapi.json` see of it, on the
/// shipped site and a term site: Redocly's recommended rules and Spectral's
/// `spectral:oas` find no error (Redocly no warning either: every
/// operation has a 4XX, the root says no security is needed, no component
/// is unused), and openapi-typescript types no answer as
/// `Record<string, never>` (a bare `{"type": "object"}` was, for every
/// JSON-LD answer, where no property could be read). (Issue 29: 24 errors.)
/// The hash fixture's too, whose `/{slug}.json` answers `EntityFile`.
#[test]
fn redocly_spectral_and_openapi_typescript_accept_openapi_json() {
    needs!(OPENAPI_VALIDATOR);
    let dir = tempdir();
    let ruleset = dir.path().join(".spectral.yaml");
    std::fs::write(&ruleset, "extends: [\"spectral:oas\"]\n").unwrap();
    let hashed = tempdir();
    let hash_site = crate::ontologies::hash_site(hashed.path());
    for site in [shipped_site(), owl_site(), hash_site.as_path()] {
        let file = site.join("openapi.json");
        let redocly = openapi_tool(
            "redocly",
            &[
                "lint".as_ref(),
                "--extends".as_ref(),
                "recommended".as_ref(),
                "--format".as_ref(),
                "json".as_ref(),
                file.as_os_str(),
            ],
        );
        let report: Value =
            serde_json::from_str(&redocly).unwrap_or_else(|e| panic!("{e}: {redocly}"));
        assert_eq!(report["totals"]["errors"], 0, "{report}");
        // An input that states no license (the hash fixture) gets no
        // `license` in `info`: Redocly's warning is then about the input.
        let licensed = !read_json(&site.join("api.json"))["license"].is_null();
        let warnings = report["problems"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| licensed || p["ruleId"] != "info-license")
            .count();
        assert_eq!(warnings, 0, "{report}");

        let spectral = openapi_tool(
            "spectral",
            &[
                "lint".as_ref(),
                "-r".as_ref(),
                ruleset.as_os_str(),
                "-f".as_ref(),
                "json".as_ref(),
                file.as_os_str(),
            ],
        );
        let problems: Value = serde_json::from_str(spectral.trim_start_matches(|c| c != '['))
            .unwrap_or_else(|e| panic!("{e}: {spectral}"));
        let errors: Vec<&Value> = problems
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["severity"] == 0)
            .collect();
        assert!(errors.is_empty(), "{errors:?}");

        let types = dir.path().join("types.d.ts");
        openapi_tool(
            "openapi-typescript",
            &[file.as_os_str(), "-o".as_ref(), types.as_os_str()],
        );
        let typed = std::fs::read_to_string(&types).unwrap();
        let never: Vec<&str> = typed
            .lines()
            .filter(|l| l.contains("Record<string, never>"))
            .filter(|l| !l.contains("webhooks") && !l.contains("$defs"))
            .collect();
        assert!(never.is_empty(), "{never:?}");
    }
}

/// Schemathesis (`tests/openapi/.venv`) against `serve`, every check, on
/// the shipped site (with its real slugs, which random ones never hit) and
/// a term site: every answer agrees with `openapi.json`: status, content
/// type, headers, schema; no schema-valid request refused (a `q` of
/// punctuation alone was, until the schema asked for a letter or digit).
#[test]
fn schemathesis_finds_no_answer_that_departs_from_openapi_json() {
    needs!(OPENAPI_PYTHON);
    let st = root().join("tests/openapi/.venv/bin/st");
    let dir = tempdir();
    for (name, site) in [("shipped", shipped_site()), ("pets", owl_site())] {
        let server = crate::serve::Server::dir(site);
        let base = server.url.trim_end_matches('/').to_owned();
        // Real slugs for `{slug}`, most of the time.
        let index = read_json(&site.join("index.json"));
        let slugs: Vec<String> = index["items"]
            .as_array()
            .unwrap()
            .iter()
            .take(200)
            .map(|i| format!("{:?}", i["slug"].as_str().unwrap()))
            .collect();
        let config = dir.path().join(format!("{name}.toml"));
        std::fs::write(
            &config,
            format!(
                "[dictionaries.slugs]\nvalues = [{}]\n\n[parameters]\n\"path.slug\" = {{ dictionary = \"slugs\", probability = 0.8 }}\n",
                slugs.join(", ")
            ),
        )
        .unwrap();
        let output = std::process::Command::new(&st)
            .arg("--config-file")
            .arg(&config)
            .args(["run", &format!("{base}/openapi.json"), "--url", &base])
            .args(["--checks", "all", "--max-examples", "30", "--workers", "1"])
            .args(["--request-timeout", "30", "--seed", "1", "--no-color"])
            .args(["--generation-database", "none"])
            // Its cache of crashes goes there, not into the checkout.
            .current_dir(dir.path())
            .output()
            .unwrap();
        // Its report repeats long requests: the first of it is enough.
        let report: String = String::from_utf8_lossy(&output.stdout)
            .chars()
            .take(20_000)
            .collect();
        assert!(
            output.status.success(),
            "{name}: Schemathesis found problems:\n{report}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// A Python client generated from `openapi.json` by openapi-python-client
/// with its default configuration (`tests/openapi/.venv`) calls every
/// operation against `serve` (`tests/openapi/call_every_operation.py`):
/// each answers 200 (a negotiated IRI 303), and the client parses every
/// answer but those whose media types it does not read, N-Triples and
/// gzip, whose bytes it still returns (docs/api.md, "Clients generated").
#[test]
fn a_generated_python_client_calls_every_operation() {
    needs!(OPENAPI_PYTHON);
    let site = owl_site();
    let client = PythonClient::generate(site);
    let server = crate::serve::Server::dir(site);
    let report = client.call_every_operation(&server, "dog", "dog");
    let operations = report.as_object().unwrap();
    let openapi = read_json(&site.join("openapi.json"));
    assert_eq!(
        operations.len(),
        openapi["paths"].as_object().unwrap().len(),
        "{report}"
    );
    for (name, call) in operations {
        assert!(call["error"].is_null(), "{name}: {call}");
        let status = call["status"].as_u64().unwrap();
        assert!(status == 200 || status == 303, "{name}: {call}");
        if status == 200 {
            let unread = ["application/n-triples", "application/gzip"]
                .contains(&call["contentType"].as_str().unwrap_or_default());
            assert_eq!(call["parsed"], !unread, "{name}: {call}");
            assert!(call["bytes"].as_u64().unwrap() > 0, "{name}: {call}");
        }
    }
}

/// A Python client openapi-python-client generates from a site's
/// `openapi.json` with its default configuration (`tests/openapi/.venv`).
struct PythonClient {
    dir: tempfile::TempDir,
}

impl PythonClient {
    fn generate(site: &Path) -> PythonClient {
        let dir = tempdir();
        let venv = root().join("tests/openapi/.venv/bin");
        let path = format!(
            "{}:{}",
            venv.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let generated = std::process::Command::new(venv.join("openapi-python-client"))
            .args(["generate", "--meta", "none", "--output-path"])
            .arg(dir.path().join("pets_client"))
            .arg("--path")
            .arg(site.join("openapi.json"))
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            generated.status.success(),
            "{}",
            String::from_utf8_lossy(&generated.stdout)
        );
        PythonClient { dir }
    }

    /// Its every operation called on `server` with `slug` and `query`
    /// (`tests/openapi/call_every_operation.py`): its report, by operation.
    fn call_every_operation(
        &self,
        server: &crate::serve::Server,
        slug: &str,
        query: &str,
    ) -> Value {
        let python = root().join("tests/openapi/.venv/bin/python");
        let output = std::process::Command::new(python)
            .arg(root().join("tests/openapi/call_every_operation.py"))
            .arg(self.dir.path())
            .args(["pets_client", server.url.trim_end_matches('/'), slug, query])
            .output()
            .unwrap();
        serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)))
    }
}

/// On a site that keeps releases, `/{slug}.json` answers besides entities
/// a removed term's document and the hash document `/pato` (where every
/// `pato#…` IRI arrives): `openapi.json` says so, each of them follows
/// its schema, and a client generated from it reads each as its own type.
/// (A client generated before read neither: the schema said "Entity".)
#[test]
fn removed_terms_and_hash_documents_follow_openapi_json() {
    needs!(Need::SharedOntologies, OPENAPI_VALIDATOR, OPENAPI_PYTHON);
    let dir = tempdir();
    let site = crate::releases::two_pato_releases(dir.path());
    let others = assert_site_follows_its_openapi(&site);
    // The earlier release's copy: its own `openapi.json`, its `release`,
    // no removed terms (a copy keeps none), `/pato` there too.
    let list = read_json(&site.join("releases/index.json"));
    for release in list["releases"].as_array().unwrap() {
        let copy = site
            .join("releases")
            .join(release["version"].as_str().unwrap());
        assert_eq!(
            assert_site_follows_its_openapi(&copy),
            1,
            "{}",
            copy.display()
        );
    }
    let removed: Vec<Value> = std::fs::read_dir(&site)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| read_json(&path))
        .filter(|document| document["removed"] == true)
        .collect();
    // The removed terms and `/pato`.
    assert!(!removed.is_empty());
    assert_eq!(others, removed.len() + 1);
    let removed = &removed[0];
    let entity = read_json(&site.join("index.json"))["items"][0]["slug"].clone();
    let client = PythonClient::generate(&site);
    let server = crate::serve::Server::dir(&site);
    for (slug, parsed) in [
        ("pato", "HashDocument"),
        (removed["slug"].as_str().unwrap(), "RemovedTerm"),
        (entity.as_str().unwrap(), "Entity"),
    ] {
        let report = client.call_every_operation(&server, slug, "quality");
        let call = &report["get_slug_json"];
        assert_eq!(call["status"], 200, "{slug}: {call}");
        assert_eq!(call["parsedType"], parsed, "{slug}: {report}");
        // The release list and the change log, each as its own type.
        for (operation, parsed) in [
            ("get_releases_index_json", "ReleaseList"),
            ("get_change_log_json", "ChangeLog"),
        ] {
            let call = &report[operation];
            assert_eq!(call["status"], 200, "{operation}: {report}");
            assert_eq!(call["parsedType"], parsed, "{operation}: {call}");
        }
    }
}

/// A TypeScript client, openapi-fetch over the types openapi-typescript
/// generates, calls every operation against `serve`: each call is written
/// out and type-checked by `tsc` in strict mode (a parameter the types do
/// not allow, or an answer typed so that no property can be read, fails
/// the check), then run. Each answers, followed through a 303, with a
/// body; three answers are read through their types.
#[test]
fn a_generated_typescript_client_calls_every_operation() {
    needs!(OPENAPI_VALIDATOR);
    let bin = root().join("tests/openapi/node_modules/.bin");
    let site = owl_site();
    // Inside tests/openapi, so that `openapi-fetch` resolves.
    let dir = tempfile::Builder::new()
        .prefix("ts-client-")
        .tempdir_in(root().join("tests/openapi"))
        .unwrap();
    let openapi = read_json(&site.join("openapi.json"));
    let run = |program: &Path, args: &[&std::ffi::OsStr]| {
        let output = std::process::Command::new(program)
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}: {}{}",
            program.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        output.stdout
    };
    run(
        &bin.join("openapi-typescript"),
        &[
            site.join("openapi.json").as_os_str(),
            "-o".as_ref(),
            "schema.d.mts".as_ref(),
        ],
    );
    let mut calls = String::from(
        "declare const process: { argv: string[] };\nimport createClient from \"openapi-fetch\";\nimport type { paths } from \"./schema.mjs\";\nconst client = createClient<paths>({ baseUrl: process.argv[2] });\nconst report: Record<string, { status: number; body: boolean }> = {};\n",
    );
    for (path, item) in openapi["paths"].as_object().unwrap() {
        let media = item["get"]["responses"]["200"]["content"]
            .as_object()
            .and_then(|c| c.keys().next().cloned())
            .unwrap_or_default();
        let parse_as = if media.contains("json") {
            "json"
        } else if media.starts_with("text/") {
            "text"
        } else {
            "arrayBuffer"
        };
        let mut params = Vec::new();
        if path.contains("{slug}") {
            params.push("path: { slug: \"dog\" }");
        }
        if path.contains("{page}") {
            params.push("path: { page: 1 }");
        }
        if path == "/search" {
            params.push("query: { q: \"dog\" }");
        }
        let params = if params.is_empty() {
            String::new()
        } else {
            format!("params: {{ {} }}, ", params.join(", "))
        };
        calls.push_str(&format!(
            "{{\n  const {{ data, response }} = await client.GET({path:?}, {{ {params}parseAs: {parse_as:?} }});\n  report[{path:?}] = {{ status: response.status, body: data !== undefined }};\n}}\n"
        ));
    }
    // Answers read through their types: a property the types lack, or an
    // answer typed as an empty record, does not compile.
    calls.push_str(concat!(
        "{ const { data } = await client.GET(\"/index.json\"); report.total = { status: data ? data.total : -1, body: true }; }\n",
        "{ const { data } = await client.GET(\"/{slug}.json\", { params: { path: { slug: \"dog\" } } }); report.slug = { status: data && data.slug === \"dog\" ? 200 : -1, body: true }; }\n",
        "{ const { data } = await client.GET(\"/search\", { params: { query: { q: \"dog\" } } }); report.found = { status: data ? data.items.length : -1, body: true }; }\n",
        "console.log(JSON.stringify(report));\n",
    ));
    std::fs::write(dir.path().join("calls.mts"), calls).unwrap();
    std::fs::write(
        dir.path().join("tsconfig.json"),
        r#"{ "compilerOptions": { "target": "es2022", "module": "nodenext", "moduleResolution": "nodenext", "strict": true, "skipLibCheck": true, "outDir": "out" }, "files": ["calls.mts"] }"#,
    )
    .unwrap();
    run(&bin.join("tsc"), &["-p".as_ref(), ".".as_ref()]);
    let server = crate::serve::Server::dir(site);
    let stdout = run(
        Path::new("node"),
        &[
            "out/calls.mjs".as_ref(),
            server.url.trim_end_matches('/').as_ref(),
        ],
    );
    let report: Value = serde_json::from_slice(&stdout).unwrap();
    let paths = openapi["paths"].as_object().unwrap();
    for path in paths.keys() {
        assert_eq!(
            report[path],
            json!({ "status": 200, "body": true }),
            "{path}: {report}"
        );
    }
    assert!(report["total"]["status"].as_i64().unwrap() > 0, "{report}");
    assert_eq!(report["slug"]["status"], 200, "{report}");
    assert!(report["found"]["status"].as_i64().unwrap() > 0, "{report}");
}
