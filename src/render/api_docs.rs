//! The front page's documentation of the API, made at build time from
//! `openapi.json` (every path, its parameters, its responses and their
//! media types) and from the site itself: real example answers and what
//! "try it" needs to send a request.

use super::error::RenderError;
use super::rendering::Rendering;
use super::{entity, info, openapi};
use crate::model::{Entity, Ontology, cut};
use crate::search::{Corpus, Query, Searcher};
use crate::site::files;
use crate::site::routes::{Serves, media};
use serde::Serialize;
use serde_json::Value;

/// Lines of an example answer the page shows; the rest is a click away.
const EXAMPLE_LINES: usize = 40;
/// How many characters of one line an example shows.
const EXAMPLE_LINE_CHARS: usize = 240;
/// Entities in the example search answer.
const EXAMPLE_LIMIT: &str = "2";

/// One operation as the page documents it.
#[derive(Serialize)]
pub struct Operation {
    /// Its `operationId`, the anchor of its section.
    id: String,
    path: String,
    summary: String,
    /// The URL with its parameters as placeholders, and one to try.
    url: String,
    example_url: String,
    parameters: Vec<Parameter>,
    responses: Vec<Response>,
    example: Option<Example>,
    try_it: Option<TryIt>,
    /// Whether the page shows it open: the two a visitor tries first, one
    /// entity's JSON and a search.
    open: bool,
}

#[derive(Serialize)]
struct Parameter {
    name: String,
    /// `path` or `query`.
    place: String,
    required: bool,
    description: String,
    /// Its type and bounds in words: "integer from 1 to 1000, default 100".
    schema: String,
}

#[derive(Serialize)]
struct Response {
    status: String,
    description: String,
    media_types: Vec<String>,
}

/// A real answer of this site, its first lines.
#[derive(Serialize)]
struct Example {
    media_type: &'static str,
    text: String,
    /// Lines left out.
    more: usize,
}

/// What the page's script needs to send the request: the path relative to
/// the site (`{slug}.json`), the Accept header, and its inputs.
#[derive(Serialize)]
struct TryIt {
    path: String,
    accept: &'static str,
    inputs: Vec<TryInput>,
}

impl TryIt {
    /// A form with nothing to fill in.
    fn plain(relative: &str, accept: &'static str) -> TryIt {
        TryIt {
            path: relative.to_owned(),
            accept,
            inputs: Vec::new(),
        }
    }
}

#[derive(Serialize)]
struct TryInput {
    name: &'static str,
    value: String,
}

/// The answer of the example search (the information document's), with
/// `limit` 2: `None` where the site has no entity to search for.
pub fn example_search_answer(
    ontology: &Ontology,
    corpus: &Corpus,
) -> Result<Option<Vec<u8>>, RenderError> {
    if ontology.entities.is_empty() {
        return Ok(None);
    }
    let text = info::example_query(ontology);
    let Ok(query) = Query::from_params(Some(&text), Some(EXAMPLE_LIMIT), None) else {
        return Ok(None);
    };
    // A search makes the sorted suffixes of its corpus: of every entity,
    // hundreds of megabytes at a million, for one answer. Those that match
    // the query strictly give the same answer when there are any; else
    // the near matches need the whole.
    let matching = corpus.matching_every(&query.terms);
    let mut searcher = Searcher::with_corpus(&ontology.meta.base_url, &matching);
    let mut answer = searcher.search(&query);
    if answer.total == 0 {
        searcher = Searcher::with_corpus(&ontology.meta.base_url, corpus);
        answer = searcher.search(&query);
    }
    Ok(Some(crate::site::answers::search_answer(
        &searcher, &query, &answer,
    )?))
}

/// Every operation of `openapi.json`, in its order.
pub fn operations(site: &Rendering) -> Result<Vec<Operation>, RenderError> {
    let first = site.ontology.entities.first();
    let query = info::example_query(site.ontology);
    let mut operations = Vec::new();
    for endpoint in openapi::site_endpoints(site) {
        // The operation as `openapi.json` states it.
        let operation = openapi::operation(endpoint, site);
        let relative = endpoint.path.trim_start_matches('/');
        let example_path = match (endpoint.serves, first) {
            (Serves::Search, _) => format!("{relative}?q={query}"),
            (Serves::Pages(list), _) => list.file(1),
            (_, Some(entity)) => relative.replace("{slug}", entity.slug.as_str()),
            (_, None) => relative.to_owned(),
        };
        let media_type = answer_type(endpoint.serves, endpoint.content_type);
        let example = example(site, endpoint.serves, first)?;
        let try_it = try_it(endpoint.serves, relative, media_type, first, &query).or_else(|| {
            example
                .is_some()
                .then(|| TryIt::plain(relative, media_type))
        });
        operations.push(Operation {
            path: endpoint.path.to_owned(),
            summary: operation.summary.to_owned(),
            url: site.url(&match endpoint.serves {
                Serves::Search => format!("{relative}?q={{q}}"),
                _ => relative.to_owned(),
            }),
            example_url: site.url(&example_path),
            parameters: operation.parameters.iter().map(Parameter::of).collect(),
            responses: operation
                .responses
                .iter()
                .map(|(status, response)| Response {
                    status: (*status).to_owned(),
                    description: response.description().to_owned(),
                    media_types: response.media_types(),
                })
                .collect(),
            id: operation.id,
            example,
            try_it,
            open: match endpoint.serves {
                Serves::Search => true,
                Serves::EntityFiles(format) => {
                    format.extension == crate::site::formats::ENTITY_FORMATS[0].extension
                }
                _ => false,
            },
        });
    }
    Ok(operations)
}

/// What the page shows an endpoint answering: an entity's document, the
/// example search's answer, the information document.
fn example(
    site: &Rendering,
    serves: Serves,
    first: Option<&Entity>,
) -> Result<Option<Example>, RenderError> {
    Ok(match (serves, first) {
        (Serves::EntityFiles(format), Some(first)) => {
            let mut out = Vec::new();
            entity::data(site, first, format.representation, &mut out)?
                .then(|| Example::of(format.media_type, &out))
        }
        (Serves::Search, _) => site
            .example_search_answer
            .as_deref()
            .map(|answer| Example::of(media::JSON, answer)),
        (Serves::Rewrite { file, .. }, _) if file == files::INFO => {
            let mut out = Vec::new();
            info::render(site, &mut out)?;
            Some(Example::of(media::JSON, &out))
        }
        _ => None,
    })
}

/// The form that tries an endpoint from the page, for what answers in
/// bounded size: one entity, a search, a page of a list (and, through the
/// caller, what has an example).
fn try_it(
    serves: Serves,
    relative: &str,
    media_type: &'static str,
    first: Option<&Entity>,
    query: &str,
) -> Option<TryIt> {
    let input = |name: &'static str, value: String| TryInput { name, value };
    match serves {
        Serves::EntityFiles(_) | Serves::Negotiated if first.is_some() => Some(TryIt {
            path: relative.to_owned(),
            accept: media_type,
            // `/vocab` is negotiated too, and has no slug to give.
            inputs: first
                .filter(|_| relative.contains("{slug}"))
                .map(|entity| input("slug", entity.slug.to_string()))
                .into_iter()
                .collect(),
        }),
        Serves::Pages(_) => Some(TryIt {
            path: relative.to_owned(),
            accept: media_type,
            inputs: vec![input("page", "1".into())],
        }),
        Serves::Search => Some(TryIt {
            path: relative.to_owned(),
            accept: media::JSON,
            inputs: vec![input("q", query.to_owned()), input("limit", "10".into())],
        }),
        _ => None,
    }
}

/// The media type a request for the endpoint should accept: an entity
/// file's own; for a negotiated IRI JSON, its first representation, so
/// that trying it shows the negotiation (a 303 to the JSON) rather than
/// the page a browser gets.
fn answer_type(serves: Serves, declared: Option<&'static str>) -> &'static str {
    match serves {
        Serves::EntityFiles(format) => format.media_type,
        Serves::Negotiated => media::JSON,
        _ => declared.unwrap_or(media::JSON),
    }
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_owned()
}

impl Parameter {
    fn of(parameter: &openapi::Parameter) -> Parameter {
        let schema = &parameter.schema;
        let mut words = vec![text(&schema["type"])];
        match (schema.get("minimum"), schema.get("maximum")) {
            (Some(min), Some(max)) => words.push(format!("from {min} to {max}")),
            (Some(min), None) => words.push(format!("from {min}")),
            _ => {}
        }
        if let Some(default) = schema.get("default") {
            words.push(format!("default {default}"));
        }
        words.extend(parameter.pattern_words.map(str::to_owned));
        Parameter {
            name: parameter.name.to_owned(),
            place: parameter.place.to_owned(),
            required: parameter.required,
            description: parameter.description.clone(),
            schema: words.join(", "),
        }
    }
}

impl Example {
    /// The first lines of an answer: JSON indented, as a reader would
    /// format it, RDF as it is.
    fn of(media_type: &'static str, answer: &[u8]) -> Example {
        let text = match serde_json::from_slice::<Value>(answer) {
            Ok(value) if media_type.contains("json") => {
                serde_json::to_string_pretty(&value).unwrap_or_default()
            }
            _ => String::from_utf8_lossy(answer).trim_end().to_owned(),
        };
        // A line is cut too: one 30 MB label made the front page 300 MB.
        let lines: Vec<&str> = text.lines().collect();
        let shown: Vec<String> = lines[..lines.len().min(EXAMPLE_LINES)]
            .iter()
            .map(|line| match cut::within_chars(line, EXAMPLE_LINE_CHARS) {
                shown if shown.len() < line.len() => format!("{shown}…"),
                _ => (*line).to_owned(),
            })
            .collect();
        Example {
            media_type,
            text: shown.join("\n"),
            more: lines.len().saturating_sub(EXAMPLE_LINES),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each parameter is described by its own schema: the slug's words
    /// are the slug's, not every patterned parameter's (the search's `q`
    /// once read "lower-case letters and digits, not a reserved name").
    #[test]
    fn each_parameter_is_described_by_its_own_schema() {
        let ontology = crate::model::Ontology {
            meta: crate::model::OntologyMeta::for_test("Thing", "http://schema.org/Thing"),
            entities: Vec::new(),
        };
        let site = Rendering::new(&ontology).unwrap();
        let shape = |name: &str| -> Vec<String> {
            operations(&site)
                .unwrap()
                .into_iter()
                .flat_map(|o| o.parameters)
                .filter(|p| p.name == name)
                .map(|p| p.schema)
                .collect()
        };
        let q = shape("q");
        assert_eq!(q, ["string, at least one letter or digit, of any script"]);
        let slugs = shape("slug");
        assert!(!slugs.is_empty());
        assert!(
            slugs
                .iter()
                .all(|s| s == "string, lower-case letters and digits, not a reserved name"),
            "{slugs:?}"
        );
    }
}
