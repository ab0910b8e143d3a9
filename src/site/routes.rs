//! The one description of the API's routes. The host files (`_headers`,
//! `_redirects`) and the endpoint list of the information document are all
//! generated from this table, so they cannot drift apart.

use super::files;
use super::formats::{ENTITY_FORMATS, EntityFormat};
use super::pages::{Paged, page_entities};

/// Media types the site declares where a host's default would be wrong.
pub mod media {
    pub const JSON: &str = "application/json";
    pub const JSON_LD: &str = "application/ld+json";
    pub const PROBLEM: &str = "application/problem+json";
    /// RFC 9239's type for JavaScript; hosts differ in what they guess
    /// (Cloudflare says `application/javascript`), so the site says it.
    pub const JAVASCRIPT: &str = "text/javascript; charset=utf-8";
    pub const TURTLE: &str = "text/turtle";
    pub const N_TRIPLES: &str = "application/n-triples";
    pub const HTML: &str = "text/html";
    /// A page as every host types a `.html` file.
    pub const PAGE: &str = "text/html; charset=utf-8";
    /// Said, so that no host sends a gzip file with `Content-Encoding`.
    pub const GZIP: &str = "application/gzip";

    /// The media type a static host gives a file by its name, where no
    /// rule says one: its extension's, text with its charset.
    pub fn of_file(path: &str) -> String {
        let guess = mime_guess::from_path(path).first_or_octet_stream();
        if guess.type_() == mime_guess::mime::TEXT
            || guess.subtype() == mime_guess::mime::JAVASCRIPT
        {
            format!("{guess}; charset=utf-8")
        } else {
            guess.to_string()
        }
    }
}

/// How a host answers an endpoint.
#[derive(Debug, Clone, Copy)]
pub enum Serves {
    /// The file of this name, at the same path.
    File(&'static str),
    /// The file of this name, at another path, with this status. A forced
    /// rewrite wins over an existing file on Netlify.
    Rewrite {
        file: &'static str,
        status: u16,
        force: bool,
    },
    /// One file for each entity, `{slug}.{extension}`.
    EntityFiles(&'static EntityFormat),
    /// One file for each page of a big list, `{page}` from 1.
    Pages(Paged),
    /// Not a file: needs compute on the host (the search issue adds it).
    Search,
    /// An IRI answered by content negotiation where the host runs code
    /// (`negotiation.rs`), and by its page where it does not.
    Negotiated,
}

/// One endpoint of the API.
#[derive(Debug, Clone, Copy)]
pub struct Endpoint {
    /// The path as the API documents it; `{slug}` stands for any slug.
    pub path: &'static str,
    pub summary: &'static str,
    pub serves: Serves,
    /// The Content-Type the host must send where its own guess from the
    /// file name would be wrong (an extensionless file, `.jsonld`).
    pub content_type: Option<&'static str>,
    /// The name of the JSON Schema in `openapi.json` that its answers
    /// follow, where the API defines one.
    pub schema: Option<&'static str>,
}

/// Every endpoint, in the order the information document lists them: the
/// fixed ones with the lists' pages and an entity's files after `/all`.
pub fn endpoints() -> &'static [Endpoint] {
    static ENDPOINTS: std::sync::LazyLock<Vec<Endpoint>> = std::sync::LazyLock::new(|| {
        let (lists, rest) =
            FIXED.split_at(FIXED.iter().position(|e| e.path == "/all").unwrap_or(0) + 1);
        let pages = Paged::EVERY.map(|list| Endpoint {
            path: list.path(),
            summary: match list {
                Paged::List => concat!("A page of /index.json: at most ", page_entities!(), " of its entries, in its order, with links to the first, previous, next and last pages and the whole list"),
                Paged::ListLd => concat!("A page of /index.jsonld: the ItemList with at most ", page_entities!(), " of its items, and a Hydra view linking the first, previous, next and last pages"),
                Paged::All => concat!("A page of /all: at most ", page_entities!(), " entities with their full data, in its order, with links to the first, previous, next and last pages and the whole list"),
            },
            serves: Serves::Pages(list),
            content_type: (list == Paged::ListLd).then_some(media::JSON_LD),
            schema: match list {
                Paged::List => Some("ListPage"),
                Paged::ListLd => None,
                Paged::All => Some("AllPage"),
            },
        });
        let entity_files = ENTITY_FORMATS.iter().map(|format| Endpoint {
            path: format.path,
            summary: format.summary,
            serves: Serves::EntityFiles(format),
            content_type: format.declare_type.then_some(format.media_type),
            schema: format.schema,
        });
        lists
            .iter()
            .copied()
            .chain(pages)
            .chain(entity_files)
            .chain(rest.iter().copied())
            .collect()
    });
    &ENDPOINTS
}

/// The list of every release, on the current site of one that keeps
/// releases (docs/releases.md), which `openapi.json` describes where the
/// site has it. Not in [`endpoints`], nor the change log: most sites have
/// neither, and the hosts serve both as the files they are.
pub const RELEASE_LIST_ENDPOINT: Endpoint = Endpoint {
    path: "/releases/index.json",
    summary: "Every release the site keeps, newest first: its version, date, version IRI, root, terms and counts of what changed",
    serves: Serves::File(files::RELEASE_LIST),
    content_type: None,
    schema: Some("ReleaseList"),
};

/// The change log, on each release but the first (see
/// [`RELEASE_LIST_ENDPOINT`]).
pub const CHANGE_LOG_ENDPOINT: Endpoint = Endpoint {
    path: "/change-log.json",
    summary: "What this release changed since the one before: terms added, removed, deprecated, un-deprecated, relabelled, redefined, with parents or synonyms changed, and moved",
    serves: Serves::File(files::CHANGE_LOG),
    content_type: None,
    schema: Some("ChangeLog"),
};

const FIXED: &[Endpoint] = &[
    Endpoint {
        path: "/",
        summary: "Information about the API: this document",
        serves: Serves::Rewrite {
            file: files::INFO,
            status: 200,
            force: true,
        },
        content_type: None,
        schema: Some("Info"),
    },
    Endpoint {
        path: "/index.json",
        summary: "Every entity as a list, JSON",
        serves: Serves::File(files::INDEX),
        content_type: None,
        schema: Some("List"),
    },
    Endpoint {
        path: "/index.jsonld",
        summary: "Every entity as a list, JSON-LD (schema.org ItemList)",
        serves: Serves::File(files::INDEX_LD),
        content_type: Some(media::JSON_LD),
        schema: None,
    },
    Endpoint {
        path: "/all",
        summary: "Every entity with its full data, JSON",
        serves: Serves::File(files::ALL),
        content_type: Some(media::JSON),
        schema: Some("All"),
    },
    Endpoint {
        path: "/index.ttl",
        summary: "Every entity as a list, Turtle (schema.org ItemList)",
        serves: Serves::File(files::INDEX_TTL),
        content_type: Some(media::TURTLE),
        schema: None,
    },
    Endpoint {
        path: "/index.nt",
        summary: "Every entity as a list, N-Triples (schema.org ItemList)",
        serves: Serves::File(files::INDEX_NT),
        content_type: Some(media::N_TRIPLES),
        schema: None,
    },
    Endpoint {
        path: "/{slug}",
        summary: "An entity's IRI: the document the Accept header prefers (303 See Other to it), its page for browsers",
        serves: Serves::Negotiated,
        content_type: Some(media::HTML),
        schema: None,
    },
    Endpoint {
        path: "/vocab",
        summary: "The vocabulary of the terms ontosite minted for this site, by content negotiation (Turtle, N-Triples, JSON-LD, HTML)",
        serves: Serves::Negotiated,
        content_type: Some(media::HTML),
        schema: None,
    },
    Endpoint {
        path: "/vocab.ttl",
        summary: "The vocabulary of the terms ontosite minted, Turtle",
        serves: Serves::File(files::VOCAB_TTL),
        content_type: Some(media::TURTLE),
        schema: None,
    },
    Endpoint {
        path: "/vocab.nt",
        summary: "The vocabulary of the terms ontosite minted, N-Triples",
        serves: Serves::File(files::VOCAB_NT),
        content_type: Some(media::N_TRIPLES),
        schema: None,
    },
    Endpoint {
        path: "/vocab.jsonld",
        summary: "The vocabulary of the terms ontosite minted, JSON-LD",
        serves: Serves::File(files::VOCAB_JSONLD),
        content_type: Some(media::JSON_LD),
        schema: None,
    },
    Endpoint {
        path: "/vocab.html",
        summary: "The vocabulary of the terms ontosite minted, for people",
        serves: Serves::File(files::VOCAB_PAGE),
        content_type: Some(media::HTML),
        schema: None,
    },
    Endpoint {
        path: "/void.ttl",
        summary: "The data set's VoID and schema.org description, Turtle",
        serves: Serves::File(files::VOID_TTL),
        content_type: Some(media::TURTLE),
        schema: None,
    },
    Endpoint {
        path: "/void.nt",
        summary: "The data set's VoID and schema.org description, N-Triples",
        serves: Serves::File(files::VOID_NT),
        content_type: Some(media::N_TRIPLES),
        schema: None,
    },
    Endpoint {
        path: "/void.jsonld",
        summary: "The data set's VoID and schema.org description, JSON-LD",
        serves: Serves::File(files::VOID_JSONLD),
        content_type: Some(media::JSON_LD),
        schema: None,
    },
    Endpoint {
        path: "/home",
        summary: "The site's front page for people (also at /index.html)",
        serves: Serves::File(files::HOME_ALIAS),
        content_type: Some(media::HTML),
        schema: None,
    },
    Endpoint {
        path: "/.well-known/void",
        summary: "The data set's VoID description, Turtle (other formats by content negotiation)",
        serves: Serves::File(files::WELL_KNOWN_VOID),
        content_type: Some(media::TURTLE),
        schema: None,
    },
    Endpoint {
        path: "/dump.nt",
        summary: "Every triple of the site, N-Triples",
        serves: Serves::File(files::DUMP_NT),
        content_type: Some(media::N_TRIPLES),
        schema: None,
    },
    Endpoint {
        path: "/dump.nt.gz",
        summary: "Every triple of the site, N-Triples, gzipped",
        serves: Serves::File(files::DUMP_NT_GZ),
        content_type: Some(media::GZIP),
        schema: None,
    },
    Endpoint {
        path: "/dump.ttl",
        summary: "Every triple of the site, Turtle",
        serves: Serves::File(files::DUMP_TTL),
        content_type: Some(media::TURTLE),
        schema: None,
    },
    Endpoint {
        path: "/search",
        summary: "The entities whose name, description or ID match the query `q`",
        serves: Serves::Search,
        content_type: None,
        schema: Some("SearchAnswer"),
    },
    Endpoint {
        path: "/context.jsonld",
        summary: "The JSON-LD context of every JSON-LD document of this site",
        serves: Serves::File(files::CONTEXT),
        content_type: Some(media::JSON_LD),
        schema: None,
    },
    Endpoint {
        path: "/json-context.jsonld",
        summary: "The JSON-LD context that reads an entity's plain JSON as linked data",
        serves: Serves::File(files::JSON_CONTEXT),
        content_type: Some(media::JSON_LD),
        schema: None,
    },
    Endpoint {
        path: "/openapi.json",
        summary: "This API described in OpenAPI 3.1, with JSON Schemas of every document",
        serves: Serves::File(files::OPENAPI),
        content_type: None,
        schema: None,
    },
    Endpoint {
        path: "/search-index.json",
        summary: "The manifest of the prebuilt search index (its nodes and rows are under /search/)",
        serves: Serves::File(files::SEARCH_INDEX),
        content_type: None,
        schema: None,
    },
    Endpoint {
        path: "/search.js",
        summary: "The search client: an ES module that answers /search queries from the index",
        serves: Serves::File(files::SEARCH_CLIENT),
        content_type: Some(media::JAVASCRIPT),
        schema: None,
    },
];

/// The answer to a path no endpoint serves.
pub const NOT_FOUND: Endpoint = Endpoint {
    path: "/*",
    summary: "Any other path: a 404 problem document (RFC 9457)",
    serves: Serves::Rewrite {
        file: files::NOT_FOUND,
        status: 404,
        force: false,
    },
    content_type: Some(media::PROBLEM),
    schema: Some("Problem"),
};

/// Files the build writes for the hosts and for itself, which no host may
/// publish: each is a 404 everywhere (a forced rule on Netlify and in
/// `serve`, the worker on Cloudflare Pages). A pattern ending in `/*`
/// covers a folder.
pub const UNPUBLISHED: &[&str] = &[
    "/_headers",
    "/_redirects",
    "/_routes.json",
    "/_worker.js",
    "/_edge/*",
    "/_aliases.json",
    "/.ontosite-output",
    "/.ontosite-record",
];

/// Whether the site path `path` (from `/`) is one no host publishes: an
/// [`UNPUBLISHED`] file, or a hidden one (a name starting with `.`, but
/// under `/.well-known/`).
pub fn is_private(path: &str) -> bool {
    is_private_file(path.strip_prefix('/').unwrap_or(path))
}

/// [`is_private`] of a file as the output lists it (`relative`: its
/// path from the site's root, no leading `/`), asked of each file of
/// the site: a site of releases lists millions, so the path is not
/// joined to a `/` first.
pub fn is_private_file(relative: &str) -> bool {
    let unpublished = |pattern: &&str| {
        let pattern = pattern.strip_prefix('/').unwrap_or(pattern);
        match pattern.strip_suffix('*') {
            Some(folder) => relative.starts_with(folder),
            None => relative == pattern,
        }
    };
    let hidden = relative.strip_prefix(".well-known/").unwrap_or(relative);
    hidden.split('/').any(|s| s.starts_with('.')) || UNPUBLISHED.iter().any(unpublished)
}

/// How long any answer of the site may be cached: the API's hour.
pub const HOUR: &str = "public, max-age=3600";

/// The headers every response of the site carries.
pub const EVERY_RESPONSE: &[(&str, &str)] = &[
    ("Access-Control-Allow-Origin", "*"),
    ("Cache-Control", HOUR),
    ("X-Content-Type-Options", "nosniff"),
    // What a script on another origin may read beyond the safelisted
    // headers: the tag to revalidate with, and links to other documents.
    ("Access-Control-Expose-Headers", "ETag, Link"),
    // The pages run only the site's own scripts, never one a label, an IRI
    // or a query could smuggle in: no inline script (the JSON-LD data
    // blocks are not run), no plug-ins, no other origin's code or styles.
    (
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'",
    ),
];

/// The files of the kept releases as a rule path: `:version` is one
/// segment, so the list beside them (`/releases/index.json`) is not one.
pub const FROZEN_FILES: &str = "/releases/:version/*";

/// The release list's files, which [`FROZEN_FILES`] takes in as well
/// where a pattern's `/*` may match nothing (Netlify's, `serve`'s): a rule
/// after it gives them back the hour.
pub const RELEASE_LISTS: &str = "/releases/index.*";

/// How long a release's files may be cached, in place of
/// [`EVERY_RESPONSE`]'s hour: a release is never rewritten once published.
pub const FROZEN: &str = "public, max-age=31536000, immutable";

/// The `Cache-Control` of the site path `path` (from `/`) where it is not
/// [`EVERY_RESPONSE`]'s: [`FROZEN`] for a file of a kept release
/// (`/releases/{version}/…`), not for the release list beside them. Set
/// per file where headers are (`serve`, object storage, the Worker in
/// front of it); the Pages hosts join the values of matching `_headers`
/// rules, so there the hour stays (docs/releases.md).
pub fn cache_control(path: &str) -> Option<&'static str> {
    // Keep in step with [`FROZEN_FILES`].
    let rest = path
        .strip_prefix('/')
        .unwrap_or(path)
        .strip_prefix(files::RELEASES)?
        .strip_prefix('/')?;
    let (version, _) = rest.split_once('/')?;
    (!version.is_empty()).then_some(FROZEN)
}

/// The `(extension, type)` of each rule `/*.{extension}` that `_headers`
/// types entity files with.
pub fn splat_types() -> &'static [(&'static str, &'static str)] {
    static SPLATS: std::sync::LazyLock<Vec<(&str, &str)>> = std::sync::LazyLock::new(|| {
        endpoints()
            .iter()
            .filter_map(|e| match (e.serves, e.content_type) {
                (Serves::EntityFiles(format), Some(media_type)) => {
                    Some((format.extension, media_type))
                }
                _ => None,
            })
            .collect()
    });
    &SPLATS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_s_and_hosts_files_and_hidden_ones_are_private_but_well_known() {
        for (relative, private) in [
            ("_headers", true),
            ("_edge/netlify/search.js", true),
            (".ontosite-output", true),
            (".ontosite-objects.jsonl", true),
            ("releases/1/.ontosite-objects.jsonl", true),
            (".well-known/void", false),
            (".well-known/.hidden", true),
            ("index.json", false),
            ("_headers.json", false),
            ("releases/1/_headers", false),
        ] {
            assert_eq!(is_private_file(relative), private, "{relative}");
            assert_eq!(is_private(&format!("/{relative}")), private, "/{relative}");
        }
    }
}
