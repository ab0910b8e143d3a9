//! The human front door: `index.html` and the entity pages, in headless
//! Chromium from `file://` and through `ontosite serve`
//! (`tests/browser/front.mjs`), and their templates.

use crate::serve::{Server, client, shipped_site};
use crate::util::*;
use serde_json::Value;
use std::path::Path;

/// Queries typed into the search box: a prefix, two words, accents and
/// case, nothing, no letters at all, a rare word.
const QUERIES: [&str; 6] = ["git", "create item", "Délété", "zzzz", "-", "air"];

#[test]
fn the_front_page_answers_as_the_api_from_disk_and_from_a_server() {
    needs!(CHROMIUM);
    let chromium = chromium();
    let site = shipped_site();
    let server = Server::dir(site);
    let mut args = vec![
        "--chromium".as_ref(),
        chromium.as_ref(),
        "--dist".as_ref(),
        site.as_os_str(),
        "--server".as_ref(),
        server.url.as_ref(),
        "--".as_ref(),
    ];
    args.extend(QUERIES.iter().map(std::ffi::OsStr::new));
    let report = node_json(&root().join("tests/browser/front.mjs"), &args);

    for way in ["file", "http"] {
        let seen = &report[way];
        assert_eq!(seen["errors"], serde_json::json!([]), "{way}: page errors");
        // Served, the Content-Security-Policy refuses inline script; from
        // disk there is no header, and no policy.
        assert_eq!(
            seen["inlineScriptRuns"],
            way == "file",
            "{way}: inline script"
        );
        assert_eq!(
            seen["outside"],
            serde_json::json!([]),
            "{way}: requests outside the site"
        );
        for result in seen["results"].as_array().unwrap() {
            let query = result["query"].as_str().unwrap();
            let q: String = url::form_urlencoded::byte_serialize(query.as_bytes()).collect();
            let api: Value = api_json(&format!("{}search?q={q}", server.url));
            if api["status"] == 400 {
                assert!(result["total"].is_null(), "{way} {query}: {result}");
                assert!(
                    result["slugs"].as_array().unwrap().is_empty(),
                    "{way} {query}"
                );
                assert!(
                    result["status"].as_str().unwrap().contains("letter"),
                    "{way} {query}: {result}"
                );
                continue;
            }
            let slugs: Vec<&Value> = api["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| &i["slug"])
                .collect();
            assert_eq!(result["total"], api["total"], "{way} {query}: total");
            assert_eq!(
                result["slugs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .collect::<Vec<_>>(),
                slugs,
                "{way} {query}: results differ from the API's"
            );
            eprintln!(
                "{way}: `{query}` answered in {:.1} ms",
                result["ms"].as_f64().unwrap()
            );
        }
        // "Try it": a search answers as the API does, from disk as from the
        // server; an entity's JSON is fetched over HTTP, and offered as its
        // file from disk, where a page cannot send requests.
        let tried = &seen["tried"];
        let search = &tried["get_search"];
        let q = search["inputs"]["q"].as_str().unwrap();
        let limit = search["inputs"]["limit"].as_str().unwrap();
        let api: Value = api_json(&format!("{}search?q={q}&limit={limit}", server.url));
        let shown: Value = serde_json::from_str(search["body"].as_str().unwrap()).unwrap();
        assert_eq!(shown, api, "{way}: try-it search");
        assert!(
            search["head"]
                .as_str()
                .unwrap()
                .starts_with("200 · application/json"),
            "{way}: {search}"
        );
        let entity = &tried["get__slug__json"];
        let slug = entity["inputs"]["slug"].as_str().unwrap();
        if way == "http" {
            let shown: Value = serde_json::from_str(entity["body"].as_str().unwrap()).unwrap();
            assert_eq!(
                shown,
                read_json(&site.join(format!("{slug}.json"))),
                "{way}: try-it entity"
            );
        } else {
            assert!(
                entity["text"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("{slug}.json")),
                "{entity}"
            );
        }
        // "More results" adds the API's next page to the first.
        let more = &seen["moreShown"];
        let q: String = url::form_urlencoded::byte_serialize(QUERIES[1].as_bytes()).collect();
        let api: Value = api_json(&format!("{}search?q={q}&limit=200", server.url));
        assert!(
            api["total"].as_u64().unwrap() > 100,
            "{QUERIES:?}[1] finds a page and more"
        );
        let expected: Vec<&Value> = api["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| &i["slug"])
            .collect();
        assert_eq!(
            more["slugs"].as_array().unwrap().iter().collect::<Vec<_>>(),
            expected,
            "{way}: more results"
        );
        assert_eq!(
            more["focused"], *expected[100],
            "{way}: focus on the first added"
        );
        // Arrow down from the box reaches the first result.
        assert_eq!(seen["focused"], seen["firstSlug"], "{way}: keyboard");
        // axe-core, WCAG 2 A and AA: no violation on either page.
        assert_eq!(
            seen["axe"]["front"],
            serde_json::json!([]),
            "{way}: front page"
        );
        assert_eq!(
            seen["axe"]["entity"],
            serde_json::json!([]),
            "{way}: entity page"
        );
        // The entity page embeds exactly the entity's JSON-LD document.
        let slug = seen["firstSlug"].as_str().unwrap();
        let jsonld = read_json(&site.join(format!("{slug}.jsonld")));
        assert_eq!(seen["entity"]["jsonld"], jsonld, "{way}: embedded JSON-LD");
        assert_eq!(seen["entity"]["h1"], jsonld["name"], "{way}");
        // Its Copy button copies the IRI, or selects it for Ctrl+C.
        let copy = &seen["entity"]["copy"];
        let copied = copy["button"] == "Copied" && copy["clipboard"] == copy["iri"];
        let selected = copy["button"].as_str().unwrap().starts_with("Selected")
            && copy["selection"] == copy["iri"];
        if way == "http" {
            assert!(copied, "{way}: the clipboard, granted: {copy}");
        } else {
            // A page from disk may write the clipboard but not read it back.
            assert!(copy["button"] == "Copied" || selected, "{way}: {copy}");
        }
    }
}

#[test]
fn the_page_weighs_less_than_50_kb_gzipped() {
    let site = shipped_site();
    let gzipped: usize = ["index.html", "ui/site.css", "ui/site.js"]
        .iter()
        .map(|name| gzip_len(&std::fs::read(site.join(name)).unwrap()))
        .sum();
    assert!(gzipped < 50_000, "{gzipped} bytes");
}

fn gzip_len(bytes: &[u8]) -> usize {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap().len()
}

#[test]
fn templates_can_be_replaced_by_name_and_their_errors_are_placed() {
    let dir = tempdir();
    let templates = dir.path().join("templates");
    std::fs::create_dir(&templates).unwrap();
    std::fs::write(
        templates.join("entity.html"),
        "{% extends \"layout.html\" %}{% block main %}<h1 class=\"mine\">{{ entity.name }}</h1>{% endblock %}",
    )
    .unwrap();
    let out = dir.path().join("dist");
    let with = |out: &Path| {
        build(
            &tiny_input(),
            out,
            &["--templates", templates.to_str().unwrap()],
        )
    };
    let output = with(&out);
    assert!(output.status.success(), "{}", stderr(&output));
    // An entity's page by name: folders list in another order on
    // another file system.
    let text = std::fs::read_to_string(out.join("acmecreateitem.html")).unwrap();
    assert!(text.contains("<h1 class=\"mine\">"), "{text}");
    // The other templates stay the built-in ones.
    assert!(
        std::fs::read_to_string(out.join("index.html"))
            .unwrap()
            .contains("id=\"q\"")
    );
    let before = snapshot(&out);

    // A syntax error: the template and its line; the site stays as it was.
    std::fs::write(templates.join("entity.html"), "<h1>\n{{ entity.name }\n").unwrap();
    let output = with(&out);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains("entity.html:2"), "{message}");
    assert!(message.contains("help:"), "{message}");
    assert_eq!(snapshot(&out), before, "a failed build changed the site");

    // A name that is no template.
    std::fs::remove_file(templates.join("entity.html")).unwrap();
    std::fs::write(templates.join("entty.html"), "x").unwrap();
    let output = with(&out);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("`entty.html` is not a template"),
        "{message}"
    );
    assert!(message.contains("entity.html"), "{message}");

    // A name the page does not have, built in or overridden: an error with
    // the template and line, never an empty place on the page.
    std::fs::remove_file(templates.join("entty.html")).unwrap();
    for (name, source) in [
        (
            "index.html",
            "{% extends \"layout.html\" %}{% block main %}\n{% for e in endpoints %}{{ e.url }}{% endfor %}{% endblock %}",
        ),
        (
            "entity.html",
            "{% extends \"layout.html\" %}{% block main %}\n\n{{ entity.nmae }}{% endblock %}",
        ),
    ] {
        std::fs::write(templates.join(name), source).unwrap();
        let output = with(&out);
        assert_eq!(output.status.code(), Some(1), "{name}");
        let message = stderr(&output);
        assert!(message.contains(&format!("{name}:")), "{message}");
        assert!(message.contains("undefined"), "{message}");
        assert_eq!(snapshot(&out), before, "a failed build changed the site");
        std::fs::remove_file(templates.join(name)).unwrap();
    }
}

/// The API section documents every operation of `openapi.json` and every
/// endpoint of the information document, with its URL and a curl line that
/// runs (the URL quoted for the shell).
#[test]
fn the_front_page_lists_every_endpoint() {
    let site = shipped_site();
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    let info = read_json(&site.join("api.json"));
    let openapi = read_json(&site.join("openapi.json"));
    for (path, item) in openapi["paths"].as_object().unwrap() {
        let get = &item["get"];
        let id = get["operationId"].as_str().unwrap();
        assert!(page.contains(&format!("id=\"{id}\"")), "{path}: no section");
        // Every parameter and every response's media type is named.
        for parameter in get["parameters"].as_array().into_iter().flatten() {
            let name = parameter["name"].as_str().unwrap();
            assert!(
                page.contains(&format!("<code>{name}</code>")),
                "{path}: {name}"
            );
        }
        for (status, response) in get["responses"].as_object().unwrap() {
            assert!(
                page.contains(&format!("<dt>{status}</dt>")),
                "{path}: {status}"
            );
            for media_type in response["content"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(m, _)| m)
            {
                assert!(
                    page.contains(&format!(
                        "<code class=\"muted\">{}</code>",
                        media_type.replace('/', "&#x2f;")
                    )),
                    "{path}: {media_type}"
                );
            }
        }
    }
    // A try-it form asks for a slug exactly where its path has one.
    let mut forms = 0;
    for form in page.split("<form class=\"try\" data-path=\"").skip(1) {
        let path = &form[..form.find('"').unwrap()];
        let body = &form[..form.find("</form>").unwrap()];
        assert_eq!(
            path.contains("{slug}"),
            body.contains("name=\"slug\""),
            "try it on {path}"
        );
        forms += 1;
    }
    assert!(forms >= 8, "{forms} try-it forms");
    // Real answers of this site: an entity's JSON and a search, as shown.
    let entity: Value = read_json(&site.join("abbcreateitem.json"));
    let shown = serde_json::to_string_pretty(&entity).unwrap();
    let escaped = |text: &str| {
        text.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('\'', "&#x27;")
            .replace('/', "&#x2f;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    assert!(page.contains(&escaped(&shown)), "no example entity");
    assert!(
        page.contains(&escaped("\"query\": \"abb\"")),
        "no example search"
    );
    let endpoints = info["endpoints"].as_array().unwrap();
    assert!(endpoints.len() >= 10);
    // Numbers of the information document show as numbers.
    assert!(page.contains("Search the 2258 entities"), "{page}");
    let entity = std::fs::read_to_string(site.join("abbcreateitem.html")).unwrap();
    assert!(entity.contains(">2258 Action entities"), "{entity}");
    // minijinja's HTML escaping of `&`, `'` and `/`.
    let escape = |text: &str| {
        text.replace('&', "&amp;")
            .replace('\'', "&#x27;")
            .replace('/', "&#x2f;")
    };
    for endpoint in endpoints {
        let path = endpoint["path"].as_str().unwrap();
        let url = endpoint["url"].as_str().unwrap();
        let example = endpoint["example"].as_str().unwrap_or(url);
        assert!(
            page.contains(&format!("<code>{}</code>", escape(path))),
            "{path}"
        );
        assert!(page.contains(&format!(">{}</code>", escape(url))), "{url}");
        let curl = format!("curl '{}'", escape(example));
        assert!(page.contains(&curl), "{curl}");
    }
}

/// No page is wider than a phone's 390 px viewport: the front page, the
/// 404 page and the entity pages with the longest words, in Chromium.
#[test]
fn no_page_scrolls_sideways_on_a_phone() {
    needs!(CHROMIUM);
    let site = shipped_site();
    let ontology = ontosite::source::load(&shipped_input(), None).unwrap();
    let longest_word = |e: &&ontosite::model::Entity| {
        [&e.name, &e.id, &e.description]
            .iter()
            .flat_map(|t| t.split_whitespace())
            .map(str::len)
            .max()
            .unwrap_or(0)
    };
    let mut entities: Vec<_> = ontology.entities.iter().collect();
    entities.sort_by_key(|e| std::cmp::Reverse(longest_word(e)));
    let mut pages: Vec<String> = [
        "index.html",
        "home.html",
        "404.html",
        "browse/index.html",
        "browse/names-1.html",
        "browse/type-1-1.html",
    ]
    .map(String::from)
    .into();
    pages.extend(entities.iter().take(30).map(|e| format!("{}.html", e.slug)));
    pages.extend(
        ontology
            .entities
            .iter()
            .step_by(150)
            .map(|e| format!("{}.html", e.slug)),
    );
    assert_pages_fit_a_phone(site, &pages);
}

/// No page of `pages` (relative to `site`) is wider than a phone's 390 px
/// viewport in Chromium, and axe-core (WCAG 2 A and AA) finds nothing.
pub fn assert_pages_fit_a_phone(site: &Path, pages: &[String]) {
    let mut args: Vec<std::ffi::OsString> = vec![
        "--chromium".into(),
        chromium().into(),
        "--dist".into(),
        site.into(),
        "--width".into(),
        "390".into(),
        "--axe".into(),
        "--".into(),
    ];
    args.extend(pages.iter().map(Into::into));
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let report = node_json(&root().join("tests/browser/widths.mjs"), &args);
    assert_eq!(report["checked"], pages.len());
    assert_eq!(
        report["wider"],
        serde_json::json!([]),
        "pages wider than 390 px"
    );
    assert_eq!(report["axe"], serde_json::json!([]), "axe-core violations");
}

/// An entity page reads like an item: fields by their labels, a link into
/// a sibling by the name the input gave it, structured values as nested
/// lists, the entity's JSON answer itself; a label for a field no entity
/// has is an error naming `ontology.json`.
#[test]
fn entity_pages_show_labels_names_nested_values_and_the_json_answer() {
    let dir = tempdir();
    let input = dir.path().join("input");
    std::fs::create_dir_all(input.join("entities")).unwrap();
    let manifest = |labels: &str| {
        format!(
            r#"{{"name": "T", "description": "T", "entityType": "Action", "baseUrl": "https://t.test",
            "siblings": [{{"name": "products", "baseUrl": "https://products.test", "linkedBy": ["vendor"]}}],
            "fieldLabels": {labels}}}"#
        )
    };
    std::fs::write(
        input.join("ontology.json"),
        manifest(r#"{"operation": "What it does"}"#),
    )
    .unwrap();
    std::fs::write(
        input.join("entities/acme.json"),
        r#"{"id": "AcmeCreate", "name": "Acme - Create", "description": "Creates.", "vendor": "Acme Corp",
            "operation": "Create", "actionStatus": "ready", "limits": {"perMinute": 60, "scopes": ["read", "write"]}}"#,
    )
    .unwrap();
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    let page = std::fs::read_to_string(out.join("acmecreate.html")).unwrap();
    assert!(
        page.contains(r#"<dt title="operation">What it does</dt>"#),
        "{page}"
    );
    assert!(
        page.contains(r#"<dt title="actionStatus">Action status</dt>"#),
        "{page}"
    );
    assert!(
        page.contains(r#"<a href="https:&#x2f;&#x2f;products.test&#x2f;acmecorp" title="https:&#x2f;&#x2f;products.test&#x2f;acmecorp">Acme Corp</a>"#),
        "{page}"
    );
    assert!(
        page.contains(r#"<dl class="nested"><dt>Per minute</dt><dd>60</dd><dt>Scopes</dt><dd><ul class="nested"><li>read</li><li>write</li></ul></dd></dl>"#),
        "{page}"
    );
    let json: serde_json::Value = read_json(&out.join("acmecreate.json"));
    let shown = serde_json::to_string_pretty(&json)
        .unwrap()
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('/', "&#x2f;");
    assert!(page.contains(&shown), "{page}");

    std::fs::write(
        input.join("ontology.json"),
        manifest(r#"{"operatoin": "What it does"}"#),
    )
    .unwrap();
    let output = build(&input, &dir.path().join("other"), &[]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(message.contains("ontology.json"), "{message}");
    assert!(
        message.contains("`fieldLabels` labels the field `operatoin`, which no entity has"),
        "{message}"
    );
}

/// The API's JSON answer at `url`.
fn api_json(url: &str) -> Value {
    serde_json::from_slice(&client().get(url).send().unwrap().bytes().unwrap()).unwrap()
}
