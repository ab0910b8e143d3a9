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
use std::collections::BTreeMap;

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

/// The paths other than `/{slug}` at which entities' own IRIs arrive:
/// where an IRI is in the namespace that resolves through the site
/// (`{base}/` or `ontology.json`'s `namespace`) and the rest of it is not
/// its slug (`{base}/Person`, slug `person`), its path `/Person` stands
/// for the entity. Every document of such an IRI is a `303 See Other`
/// away, the page too, at `/{slug}`.
///
/// Only rests a URL path carries unchanged are taken (`hashes::carried`);
/// others (non-ASCII) do not resolve through the site. An IRI with a
/// fragment arrives at its hash document (`hashes`), whose path may be an
/// alias too (`/Mondo` for `mondo`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Aliases(BTreeMap<String, String>);

impl Aliases {
    /// The aliases of the entities `(IRI, slug)` in `namespace`.
    pub fn of<'a>(namespace: &str, entities: impl Iterator<Item = (&'a str, &'a str)>) -> Aliases {
        Aliases(
            entities
                .filter_map(|(iri, slug)| {
                    let rest = iri.strip_prefix(namespace)?;
                    let whole = rest != slug && super::hashes::carried(rest);
                    whole.then(|| (format!("/{rest}"), slug.to_owned()))
                })
                .collect(),
        )
    }
}

impl Aliases {
    /// How many paths stand for entities.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `path` stands for an entity.
    pub fn contains(&self, path: &str) -> bool {
        self.0.contains_key(path)
    }

    /// Adds the paths of hash documents (`hashes`) other than `/{slug}`.
    pub fn add_hash_documents<'a, T: 'a>(
        &mut self,
        documents: impl Iterator<Item = &'a super::hashes::HashDocument<T>>,
    ) {
        for document in documents {
            if document.path != format!("/{}", document.slug) {
                self.0
                    .entry(document.path.clone())
                    .or_insert_with(|| document.slug.to_string());
            }
        }
    }

    /// Adds `other`'s paths that this holds none of.
    pub fn extend(&mut self, other: Aliases) {
        for (path, slug) in other.0 {
            self.0.entry(path).or_insert(slug);
        }
    }

    /// Adds the earlier IDs of terms (`(alternative ID, slug)`): the path
    /// of the slug the ID would have (`HP:0001275` → `/hp0001275`) stands
    /// for the term, unless an entity has that slug (`taken`) or another
    /// alias holds the path, so that a link made with an old ID still
    /// arrives, as OBO PURLs and OLS send old IDs to their terms.
    pub fn add_alternatives<'a>(
        &mut self,
        alternatives: impl Iterator<Item = (&'a str, &'a str)>,
        taken: impl Fn(&str) -> bool,
    ) {
        for (id, slug) in alternatives {
            let Ok(old) = crate::model::Slug::from_id(id) else {
                continue;
            };
            let old = old.as_str();
            if old == slug || taken(old) || !crate::site::reserved::names_entity(old) {
                continue;
            }
            self.0
                .entry(format!("/{old}"))
                .or_insert_with(|| slug.to_owned());
        }
    }
}

/// A negotiated IRI a request is for.
#[derive(Debug, Clone, Copy)]
pub struct Found<'a> {
    pub resource: &'static Resource,
    /// The entity's slug, where it is an entity's IRI.
    pub slug: Option<&'a str>,
    /// Whether the path is an alias: its page is at `/{slug}` too.
    pub alias: bool,
}

/// The negotiated IRI at `path`.
pub fn resource_at<'a>(path: &'a str, aliases: &'a Aliases) -> Option<Found<'a>> {
    let resources = resources();
    if let Some(resource) = resources.iter().find(|r| r.path == path) {
        return Some(Found {
            resource,
            slug: None,
            alias: false,
        });
    }
    let entity = resources.iter().find(|r| r.path == ENTITY_PATH)?;
    if let Some(slug) = aliases.0.get(path) {
        return Some(Found {
            resource: entity,
            slug: Some(slug),
            alias: true,
        });
    }
    let slug = path.strip_prefix('/')?;
    crate::site::reserved::names_entity(slug).then_some(Found {
        resource: entity,
        slug: Some(slug),
        alias: false,
    })
}

/// Where the choice sends the client, if anywhere: an alias sends even
/// for the document at an entity's IRI, its page at `/{slug}`.
pub fn location(choice: &Choice, found: &Found) -> Option<String> {
    let see = match (choice.see.as_deref(), found.alias) {
        (Some(see), _) => see,
        (None, true) => ENTITY_PATH,
        (None, false) => return None,
    };
    Some(match found.slug {
        Some(slug) => see.replace("{slug}", slug),
        None => see.to_owned(),
    })
}

/// The index of the choice an `Accept` header prefers (RFC 9110, 12.5.1):
/// each type takes the quality of the most specific range that matches it
/// (`type/subtype`, then `type/*`, then `*/*`); the highest quality wins.
/// Among equals, a type the header names beats one it reaches through a
/// wildcard, then the client's order decides (jsonld.js sends
/// `application/ld+json, application/json` and means JSON-LD), then ours.
/// With no header, or nothing it accepts, the first choice: the header may
/// be disregarded, and an answer serves a client better than a 406.
pub fn choose(accept: Option<&str>, choices: &[Choice]) -> usize {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else {
        return 0;
    };
    let ranges: Vec<(String, u16)> = accept.split(',').filter_map(range).collect();
    // (quality, specificity, the range's place in the header, reversed).
    let mut best = (0, (0u16, 0u8, std::cmp::Reverse(0usize)));
    for (i, choice) in choices.iter().enumerate() {
        let (kind, _) = choice
            .media_type
            .split_once('/')
            .unwrap_or((choice.media_type, ""));
        let found = ranges
            .iter()
            .enumerate()
            .filter_map(|(at, (range, q))| {
                let specificity = if range == choice.media_type {
                    3
                } else if range.strip_suffix("/*") == Some(kind) {
                    2
                } else if range == "*/*" {
                    1
                } else {
                    return None;
                };
                Some((specificity, *q, at))
            })
            .max_by_key(|(specificity, _, _)| *specificity);
        let Some((specificity, quality, at)) = found else {
            continue;
        };
        let rank = (quality, specificity, std::cmp::Reverse(at));
        if quality > 0 && rank > best.1 {
            best = (i, rank);
        }
    }
    best.0
}

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

/// Whether what a host answers at an entity's IRI, typed `content_type`,
/// is the entity's page (not a file a redirect rule sends there). Netlify
/// matches the `_headers` rule `/*.nt` as the regular expression
/// `/(.*).nt`, so the page of the slug `student` comes typed as N-Triples:
/// a page typed by a rule its slug's tail matches is a page too.
pub fn is_page(slug: &str, content_type: &str) -> bool {
    content_type.starts_with(media::HTML)
        || super::routes::splat_types()
            .iter()
            .any(|(extension, media_type)| {
                slug.len() > extension.len()
                    && slug.ends_with(extension)
                    && content_type.starts_with(media_type)
            })
}

/// The table the hosts' handlers negotiate with, as JSON.
pub fn table(aliases: &Aliases) -> serde_json::Value {
    json!({
        "slugPattern": crate::site::reserved::slug_pattern(),
        "resources": resources(),
        "aliases": aliases,
        "splatTypes": super::routes::splat_types(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chosen(accept: &str, path: &str) -> &'static str {
        let resource = resource_at(path, &Aliases::default()).unwrap().resource;
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
        // jsonld.js's default: a tie, which the client's order breaks.
        assert_eq!(
            chosen("application/ld+json, application/json", "/abc"),
            media::JSON_LD
        );
        assert_eq!(
            chosen("application/json, application/ld+json", "/abc"),
            media::JSON
        );
        // A type named beats one a wildcard reaches at the same quality.
        assert_eq!(chosen("*/*, text/turtle", "/abc"), media::TURTLE);
    }

    #[test]
    fn only_entity_slugs_and_the_table_negotiate() {
        let none = Aliases::default();
        assert!(resource_at("/all", &none).is_none());
        assert!(resource_at("/search", &none).is_none());
        assert!(resource_at("/abc.json", &none).is_none());
        assert!(resource_at("/Abc", &none).is_none());
        assert_eq!(resource_at("/abc", &none).unwrap().slug, Some("abc"));
        let vocab = resource_at("/vocab", &none).unwrap().resource;
        assert_eq!(vocab.path, "/vocab");
    }

    /// A hash document's path other than `/{slug}` is an alias; a path
    /// an entity's IRI holds keeps it.
    #[test]
    fn hash_document_paths_stand_for_their_documents() {
        let ns = "https://onto.test/";
        let held = Aliases::of(ns, [("https://onto.test/Place", "place")].into_iter());
        let document = |path: &str, slug: &str| super::super::hashes::HashDocument::<()> {
            path: path.to_owned(),
            slug: crate::model::Slug::parse(slug).unwrap(),
            iri: format!("https://onto.test{path}"),
            terms: Vec::new(),
        };
        let documents = [
            document("/ns/prov", "nsprov"),
            document("/core", "core"),
            document("/Place", "place2"),
        ];
        let mut aliases = held.clone();
        aliases.add_hash_documents(documents.iter());
        let found = resource_at("/ns/prov", &aliases).unwrap();
        assert_eq!((found.slug, found.alias), (Some("nsprov"), true));
        let found = resource_at("/core", &aliases).unwrap();
        assert_eq!((found.slug, found.alias), (Some("core"), false));
        // A path held already keeps its holder.
        assert_eq!(resource_at("/Place", &aliases).unwrap().slug, Some("place"));
        assert_eq!(aliases.len(), held.len() + 1);
    }

    #[test]
    fn iris_in_the_namespace_resolve_at_their_own_path() {
        let ns = "https://onto.test/";
        let aliases = Aliases::of(
            ns,
            [
                ("https://onto.test/Person", "person"),
                ("https://onto.test/person", "person2"),
                ("https://onto.test/data_1501", "data1501"),
                ("https://onto.test/text", "text"),
                ("https://onto.test/sub/Thing", "thing"),
                ("https://onto.test/v1.0", "v10"),
                ("https://onto.test/_x", "x"),
                ("https://onto.test/café", "caf"),
                ("https://elsewhere.test/Other", "other"),
            ]
            .into_iter(),
        );
        let slugs: Vec<(&str, &str)> = aliases
            .0
            .iter()
            .map(|(p, s)| (p.as_str(), s.as_str()))
            .collect();
        assert_eq!(
            slugs,
            [
                ("/Person", "person"),
                ("/data_1501", "data1501"),
                ("/person", "person2"),
                ("/sub/Thing", "thing"),
            ]
        );
        let found = resource_at("/Person", &aliases).unwrap();
        assert_eq!((found.slug, found.alias), (Some("person"), true));
        let html = found
            .resource
            .choices
            .iter()
            .find(|c| c.media_type == media::HTML)
            .unwrap();
        assert_eq!(location(html, &found).as_deref(), Some("/person"));
        let turtle = found
            .resource
            .choices
            .iter()
            .find(|c| c.media_type == media::TURTLE)
            .unwrap();
        assert_eq!(location(turtle, &found).as_deref(), Some("/person.ttl"));
        // An alias wins over the slug pattern: `/person` is the IRI
        // `https://onto.test/person`, whose slug is `person2`.
        assert_eq!(
            resource_at("/person", &aliases).unwrap().slug,
            Some("person2")
        );
    }
}
