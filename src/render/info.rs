//! The information document that `/` answers, and the 404 answers.

use super::context::Context;
use super::error::RenderError;
use crate::site::answers::problem;
use crate::site::files;
use crate::site::pages::{self, Paged};
use crate::site::routes::Serves;
use serde_json::{Map, Value, json};
use std::io::Write;

/// The longest word the example searches for: it stands in the front
/// page's lines and in URLs, and stays far within a search term's bound
/// ([`crate::search::query::MAX_TERM_CHARS`]).
const EXAMPLE_QUERY_CHARS: usize = 32;

/// A word to search for in the information document's example: the first
/// run of letters and digits, of at most [`EXAMPLE_QUERY_CHARS`], of the
/// first entity's name that has one, lower-cased (a 50 MB one-word label
/// was once the example, in every page that shows it).
pub fn example_query(ontology: &crate::model::Ontology) -> String {
    ontology
        .entities
        .iter()
        .find_map(|e| {
            e.name
                .split(|c: char| !c.is_alphanumeric())
                .find(|w| !w.is_empty() && w.chars().nth(EXAMPLE_QUERY_CHARS).is_none())
        })
        .unwrap_or("a")
        .to_lowercase()
}

pub fn render(site: &Context, out: &mut Vec<u8>) -> Result<(), RenderError> {
    Ok(serde_json::to_writer_pretty(out, &document(site)?)?)
}

/// The information document as a value; the human front page is rendered
/// from the same value, so the two cannot disagree.
pub fn document(site: &Context) -> Result<Value, RenderError> {
    let meta = &site.ontology.meta;
    // Those `openapi.json` describes: the release list and change log too
    // where the site has them.
    let endpoints: Vec<Value> = super::openapi::site_endpoints(site)
        .map(|endpoint| endpoint_entry(site, endpoint))
        .collect();
    let siblings: Vec<Value> = meta
        .siblings
        .iter()
        .map(|s| {
            let mut entry = Map::new();
            entry.insert("name".into(), json!(s.name));
            entry.insert("baseUrl".into(), json!(s.base_url.join("")));
            if let Some(description) = &s.description {
                entry.insert("description".into(), json!(description));
            }
            Value::Object(entry)
        })
        .collect();
    let mut info = Map::new();
    info.insert("name".into(), json!(meta.name));
    info.insert("description".into(), json!(meta.description));
    info.insert("type".into(), json!(meta.entity_type));
    info.insert("total".into(), json!(site.ontology.entities.len()));
    info.insert("baseUrl".into(), json!(site.url("")));
    if let Some(namespace) = &meta.namespace {
        info.insert("namespace".into(), json!(namespace));
    }
    if let Some(version) = &meta.version {
        info.insert("version".into(), json!(version));
    }
    if let Some(release) = &site.release {
        info.insert(
            "release".into(),
            json!({
                "version": release.version,
                "releases": format!("{}{}", release.site, files::RELEASE_LIST),
            }),
        );
    }
    if let Some(license) = &meta.license {
        info.insert("license".into(), json!(license));
    }
    if let Some(header) = &meta.header {
        info.insert("ontology".into(), header_json(header));
    }
    if !meta.downloads.is_empty() {
        let sources: Vec<Value> = meta
            .downloads
            .iter()
            .map(|d| json!({ "url": site.url(&url_path(&d.name)), "mediaType": d.media_type }))
            .collect();
        info.insert("sources".into(), Value::Array(sources));
    }
    info.insert("openapi".into(), json!(site.url(files::OPENAPI)));
    let count = pages::count(site.ontology.entities.len());
    let lists: Vec<Value> = Paged::EVERY
        .iter()
        .map(|list| {
            json!({
                "complete": site.url(list.whole()),
                "first": site.url(&list.file(1)),
                "last": site.url(&list.file(count)),
            })
        })
        .collect();
    info.insert(
        "pages".into(),
        json!({ "entitiesPerPage": pages::PAGE_ENTITIES, "count": count, "lists": lists }),
    );
    // The data set's description, as `void.jsonld` states it.
    info.insert("dataset".into(), super::void::json_ld(site)?);
    info.insert("endpoints".into(), Value::Array(endpoints));
    info.insert("siblings".into(), Value::Array(siblings));
    Ok(Value::Object(info))
}

/// An endpoint as the information document lists it: its path, summary,
/// URL, and an example URL where the site has one to give.
fn endpoint_entry(site: &Context, endpoint: &crate::site::routes::Endpoint) -> Value {
    let first_slug = site.ontology.entities.first().map(|e| e.slug.as_str());
    let path = endpoint.path.trim_start_matches('/');
    let mut entry = Map::new();
    entry.insert("path".into(), json!(endpoint.path));
    entry.insert("summary".into(), json!(endpoint.summary));
    match endpoint.serves {
        Serves::EntityFiles(format) => {
            entry.insert("url".into(), json!(site.url(path)));
            if let Some(slug) = first_slug {
                entry.insert(
                    "example".into(),
                    json!(site.url(&format!("{slug}.{}", format.extension))),
                );
            }
        }
        Serves::Pages(list) => {
            entry.insert("url".into(), json!(site.url(path)));
            entry.insert("example".into(), json!(site.url(&list.file(1))));
        }
        Serves::Search => {
            entry.insert("url".into(), json!(site.url(&format!("{path}?q={{q}}"))));
            entry.insert(
                "example".into(),
                json!(site.url(&format!("{path}?q={}", example_query(site.ontology)))),
            );
        }
        Serves::Negotiated => {
            entry.insert("url".into(), json!(site.url(path)));
            if let (Some(slug), true) = (first_slug, path.contains("{slug}")) {
                entry.insert(
                    "example".into(),
                    json!(site.url(&path.replace("{slug}", slug))),
                );
            }
        }
        Serves::File(_) | Serves::Rewrite { .. } => {
            entry.insert("url".into(), json!(site.url(path)));
        }
    }
    Value::Object(entry)
}

/// What the ontology source says of itself, as the information document
/// shows it: only what it states.
fn header_json(header: &crate::model::Header) -> Value {
    let mut entry = Map::new();
    entry.insert("iri".into(), json!(header.iri));
    let optional = [
        ("title", &header.title),
        ("description", &header.description),
        ("versionIri", &header.version_iri),
        ("version", &header.version),
        ("license", &header.license),
    ];
    for (key, value) in optional {
        if let Some(value) = value {
            entry.insert(key.into(), json!(value));
        }
    }
    if !header.creators.is_empty() {
        entry.insert("creators".into(), json!(header.creators));
    }
    if !header.imports.is_empty() {
        entry.insert("imports".into(), json!(header.imports));
    }
    Value::Object(entry)
}

fn not_found_problem(site: &Context) -> Value {
    let detail = format!(
        "No resource of this API is at that path. {} lists the endpoints.",
        site.url("")
    );
    problem(404, "Not Found", &detail)
}

pub fn not_found(site: &Context, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    serde_json::to_writer_pretty(out, &not_found_problem(site))
}

/// The page Cloudflare Pages answers unknown paths with (status 404). It
/// carries the same problem document, for people and, as a data block
/// (never run), for clients that read the body anyway. It reads without
/// its stylesheet too (opened from disk): no line of it is preformatted.
pub fn not_found_page(site: &Context, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    let problem = not_found_problem(site);
    let data = serde_json::to_string(&problem)?.replace("</", "<\\/");
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>404 Not Found</title><link rel=\"stylesheet\" href=\"{css}\"></head>\n<body class=\"not-found\">\n<h1>404 Not Found</h1>\n<p>No resource of this API is at that path. See <a href=\"{base}\">{base}</a> for its endpoints; the problem document is at <a href=\"{nf}\">{nf}</a>.</p>\n<script type=\"application/problem+json\" id=\"problem\">{data}</script>\n</body>\n</html>",
        css = html_escape(&format!("{}ui/site.css", base_path(site))),
        base = html_escape(&site.url("")),
        nf = html_escape(&site.url(files::NOT_FOUND)),
    );
    Ok(())
}

/// The base URL's path (`/`, `/pato/`), from which the 404 page links the
/// site's stylesheet: the page answers at any depth, where a relative
/// link would miss, and the site's policy takes no inline style and no
/// other origin's.
fn base_path(site: &Context) -> String {
    let url = site.url("");
    let after = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
    let mut path = after.find('/').map_or("/", |at| &after[at..]).to_owned();
    if !path.ends_with('/') {
        path.push('/');
    }
    path
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A file's path in the site as a URL's path: what a URL cannot carry as
/// it is (`#`, `?`, a space, `%`, a non-ASCII letter) percent-encoded,
/// each `/` kept, so that `a#b.ttl` is fetched, not cut at its fragment.
fn url_path(path: &str) -> String {
    use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
    const NOT_IN_A_PATH: &AsciiSet = &CONTROLS
        .add(b' ')
        .add(b'"')
        .add(b'#')
        .add(b'%')
        .add(b'<')
        .add(b'>')
        .add(b'?')
        .add(b'[')
        .add(b'\\')
        .add(b']')
        .add(b'^')
        .add(b'`')
        .add(b'{')
        .add(b'|')
        .add(b'}');
    utf8_percent_encode(path, NOT_IN_A_PATH).to_string()
}
