//! Which IRIs answer by content negotiation, and how a choice is made.
//!
//! An IRI the site mints for a thing (an entity, the data set, the
//! vocabulary) has several documents. Where a host runs code (`serve`,
//! the Netlify Edge Function, the Cloudflare worker), a request for the
//! IRI gets the document its `Accept` header prefers: a `303 See Other`
//! to that document's own URL, as the W3C's "Cool URIs for the Semantic
//! Web" and Wikidata's `Special:EntityData` do. Each document then stays
//! a static file with its own URL, type and cache entry, and the code
//! never reads a file. The document that lives at the IRI itself (an
//! entity's page, the information document at `/`) is answered in place,
//! with `Vary: Accept`: a redirect to `/x.html` would loop on hosts that
//! redirect `.html` to the extensionless path.
//!
//! The hosts' handlers (`assets/negotiate.js`) get this table as JSON and
//! choose by the same rules; the tests compare them.

use super::files;
use super::formats::ENTITY_FORMATS;
use super::media;
use serde::Serialize;
use serde_json::json;

/// The path that stands for every entity's IRI.
pub const ENTITY_PATH: &str = "/{slug}";

/// One negotiated IRI and its documents.
#[derive(Debug, Serialize)]
pub struct Resource {
    /// The path, or `/{slug}` for every entity.
    pub path: &'static str,
    /// The documents, in the order of preference when a client takes any.
    pub choices: Vec<Choice>,
}

/// One document of a negotiated IRI.
#[derive(Debug, Serialize)]
pub struct Choice {
    #[serde(rename = "type")]
    pub media_type: &'static str,
    /// Where a `303 See Other` sends the client (with `{slug}` for the
    /// entity's slug); `None` answers with what is at the IRI itself.
    pub see: Option<String>,
}

fn choice(media_type: &'static str, see: Option<&str>) -> Choice {
    Choice {
        media_type,
        see: see.map(|s| format!("/{s}")),
    }
}

/// Every negotiated IRI.
pub fn resources() -> &'static [Resource] {
    static RESOURCES: std::sync::LazyLock<Vec<Resource>> = std::sync::LazyLock::new(|| {
        let dataset = |own: &'static str| {
            let mut choices = vec![
                choice(media::JSON, (own != media::JSON).then_some("")),
                choice(media::JSON_LD, Some(files::VOID_JSONLD)),
                choice(
                    media::TURTLE,
                    (own != media::TURTLE).then_some(files::VOID_TTL),
                ),
                choice(media::N_TRIPLES, Some(files::VOID_NT)),
                choice(media::HTML, Some("home")),
            ];
            // The document at the IRI itself comes first.
            choices.sort_by_key(|c| c.media_type != own);
            choices
        };
        let entity = ENTITY_FORMATS
            .iter()
            .map(|format| Choice {
                media_type: format.media_type,
                // The page is what hosts serve at `/{slug}` anyway.
                see: (format.media_type != media::HTML)
                    .then(|| format!("/{{slug}}.{}", format.extension)),
            })
            .collect();
        vec![
            Resource {
                path: "/",
                choices: dataset(media::JSON),
            },
            Resource {
                path: "/.well-known/void",
                choices: dataset(media::TURTLE),
            },
            Resource {
                path: "/index",
                choices: vec![
                    choice(media::JSON, Some(files::INDEX)),
                    choice(media::JSON_LD, Some(files::INDEX_LD)),
                    choice(media::TURTLE, Some(files::INDEX_TTL)),
                    choice(media::N_TRIPLES, Some(files::INDEX_NT)),
                    choice(media::HTML, Some("home")),
                ],
            },
            Resource {
                path: "/vocab",
                choices: vec![
                    choice(media::TURTLE, Some(files::VOCAB_TTL)),
                    choice(media::JSON_LD, Some(files::VOCAB_JSONLD)),
                    choice(media::N_TRIPLES, Some(files::VOCAB_NT)),
                    choice(media::HTML, None),
                    choice(media::JSON, Some(files::VOCAB_JSONLD)),
                ],
            },
            Resource {
                path: ENTITY_PATH,
                choices: entity,
            },
        ]
    });
    &RESOURCES
}

/// The negotiated IRI at `path`, and the entity's slug if it is one.
pub fn resource_at(path: &str) -> Option<(&'static Resource, Option<&str>)> {
    let resources = resources();
    if let Some(found) = resources.iter().find(|r| r.path == path) {
        return Some((found, None));
    }
    let slug = path.strip_prefix('/')?;
    crate::model::slug::names_entity(slug)
        .then(|| resources.iter().find(|r| r.path == ENTITY_PATH))
        .flatten()
        .map(|r| (r, Some(slug)))
}

/// Where the choice sends the client, for this slug.
pub fn location(choice: &Choice, slug: Option<&str>) -> Option<String> {
    let see = choice.see.as_deref()?;
    Some(match slug {
        Some(slug) => see.replace("{slug}", slug),
        None => see.to_owned(),
    })
}

/// The index of the choice an `Accept` header prefers (RFC 9110, 12.5.1):
/// each type takes the quality of the most specific range that matches it
/// (`type/subtype`, then `type/*`, then `*/*`); the highest quality wins,
/// ties going to the earlier choice. With no header, or nothing it
/// accepts, the first choice: the header may be disregarded, and an
/// answer serves a client better than a 406.
pub fn choose(accept: Option<&str>, choices: &[Choice]) -> usize {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else {
        return 0;
    };
    let ranges: Vec<(String, u16)> = accept.split(',').filter_map(range).collect();
    let mut best = (0, 0u16);
    for (i, choice) in choices.iter().enumerate() {
        let (kind, _) = choice
            .media_type
            .split_once('/')
            .unwrap_or((choice.media_type, ""));
        let quality = ranges
            .iter()
            .filter_map(|(range, q)| {
                let specificity = if range == choice.media_type {
                    3
                } else if range.strip_suffix("/*") == Some(kind) {
                    2
                } else if range == "*/*" {
                    1
                } else {
                    return None;
                };
                Some((specificity, *q))
            })
            .max_by_key(|(specificity, _)| *specificity)
            .map_or(0, |(_, q)| q);
        if quality > best.1 {
            best = (i, quality);
        }
    }
    best.0
}

/// One media range of an `Accept` header: the type in lower case, and its
/// quality in thousandths; `None` for one that cannot be read.
fn range(text: &str) -> Option<(String, u16)> {
    let mut parts = text.split(';');
    let media_range = parts.next()?.trim().to_ascii_lowercase();
    if !media_range.contains('/') {
        return None;
    }
    let mut quality = 1000;
    for parameter in parts {
        let Some((name, value)) = parameter.split_once('=') else {
            continue;
        };
        if name.trim().eq_ignore_ascii_case("q") {
            quality = qvalue(value.trim())?;
        }
    }
    Some((media_range, quality))
}

/// A quality value (`0`, `0.5`, `1.000`) in thousandths.
fn qvalue(text: &str) -> Option<u16> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths: u16 = format!("{fraction:0<3}").parse().ok()?;
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

/// The table the hosts' handlers negotiate with, as JSON.
pub fn table() -> serde_json::Value {
    json!({ "slugPattern": crate::model::slug::pattern(), "resources": resources() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chosen(accept: &str, path: &str) -> &'static str {
        let (resource, _) = resource_at(path).unwrap();
        resource.choices[choose(Some(accept), &resource.choices)].media_type
    }

    #[test]
    fn accept_headers_choose_as_rfc_9110_says() {
        let chrome = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8";
        assert_eq!(chosen(chrome, "/abc"), media::HTML);
        assert_eq!(chosen("*/*", "/abc"), media::JSON);
        assert_eq!(chosen("text/turtle", "/abc"), media::TURTLE);
        assert_eq!(chosen("application/n-triples", "/abc"), media::N_TRIPLES);
        assert_eq!(chosen("application/ld+json", "/abc"), media::JSON_LD);
        assert_eq!(
            chosen("text/turtle;q=0.5, application/ld+json;q=0.9", "/abc"),
            media::JSON_LD
        );
        // rdflib's default: Turtle preferred.
        assert_eq!(
            chosen("application/rdf+xml;q=0.9, text/turtle, */*;q=0.1", "/abc"),
            media::TURTLE
        );
        assert_eq!(chosen("text/*", "/abc"), media::TURTLE);
        assert_eq!(chosen("TEXT/Turtle ; Q=1", "/abc"), media::TURTLE);
        assert_eq!(chosen("image/png", "/abc"), media::JSON);
        assert_eq!(chosen("text/turtle;q=0, */*", "/vocab"), media::JSON_LD);
        assert_eq!(
            chosen("text/turtle;q=2, application/ld+json", "/abc"),
            media::JSON_LD
        );
        assert_eq!(chosen("*/*", "/"), media::JSON);
        assert_eq!(chosen("*/*", "/.well-known/void"), media::TURTLE);
        assert_eq!(chosen(chrome, "/"), media::HTML);
    }

    #[test]
    fn only_entity_slugs_and_the_table_negotiate() {
        assert!(resource_at("/all").is_none());
        assert!(resource_at("/search").is_none());
        assert!(resource_at("/abc.json").is_none());
        assert!(resource_at("/Abc").is_none());
        assert_eq!(resource_at("/abc").unwrap().1, Some("abc"));
        let (vocab, _) = resource_at("/vocab").unwrap();
        assert_eq!(vocab.path, "/vocab");
    }
}
