//! File names of the site-wide documents, relative to the site root.

/// The information document that `/` answers.
pub const INFO: &str = "api.json";
pub const INDEX: &str = "index.json";
pub const INDEX_LD: &str = "index.jsonld";
/// Every entity with its full data; extensionless, as the API names it.
pub const ALL: &str = "all";
pub const CONTEXT: &str = "context.jsonld";
/// The context the `Link` header names for plain JSON: the site's
/// context, plus the plain documents' own keys.
pub const JSON_CONTEXT: &str = "json-context.jsonld";
/// The API described in OpenAPI 3.1, with JSON Schemas.
pub const OPENAPI: &str = "openapi.json";
/// The search index's manifest (`search::format`).
pub const SEARCH_INDEX: &str = crate::search::format::MANIFEST;
/// The search client, an ES module that answers queries from the index.
pub const SEARCH_CLIENT: &str = "search.js";
/// The RFC 9457 problem document for an unknown path.
pub const NOT_FOUND: &str = "404.json";
/// Cloudflare Pages serves `index.html` with status 200 for unknown
/// paths unless this file exists.
pub const NOT_FOUND_PAGE: &str = "404.html";
pub const HEADERS: &str = "_headers";
pub const REDIRECTS: &str = "_redirects";
/// The paths at which entities' own IRIs arrive and the slug each
/// names (`{"/path": "slug"}`), which the host modules carry built in
/// and `serve` reads at start, instead of every page of `/all`. A
/// leading `_`: no slug can take the name.
pub const ALIASES: &str = "_aliases.json";
/// The human front page. `/` keeps answering the information document
/// where the host can rewrite it; this page is at `/index.html`.
pub const HOME: &str = "index.html";
/// The same page again: Cloudflare Pages redirects `/index.html` to
/// `/`, which answers the information document there; `/home` reaches
/// this copy.
pub const HOME_ALIAS: &str = "home.html";
pub const STYLESHEET: &str = "ui/site.css";
/// The search client as a classic script, and the page script.
pub const PAGE_SCRIPT: &str = "ui/site.js";
/// The search index's manifest again as a script, for pages opened from
/// disk (its other files are scripts already: `search::format::script`).
pub const SEARCH_INDEX_SCRIPT: &str = "ui/search-index.js";
/// The vocabulary of ontosite's terms, which `/vocab` answers.
pub const VOCAB_TTL: &str = "vocab.ttl";
pub const VOCAB_NT: &str = "vocab.nt";
pub const VOCAB_JSONLD: &str = "vocab.jsonld";
pub const VOCAB_PAGE: &str = "vocab.html";
/// The hierarchy of an ontology's terms, from its roots.
pub const TREE_PAGE: &str = "tree.html";
/// The data set's description (VoID and schema.org), which `/`
/// answers to linked-data clients.
pub const VOID_TTL: &str = "void.ttl";
pub const VOID_NT: &str = "void.nt";
pub const VOID_JSONLD: &str = "void.jsonld";
/// Where the VoID specification says a site describes its data sets;
/// Turtle, as the specification's examples.
pub const WELL_KNOWN_VOID: &str = ".well-known/void";
/// Every triple of the site.
pub const DUMP_NT: &str = "dump.nt";
pub const DUMP_NT_GZ: &str = "dump.nt.gz";
pub const DUMP_TTL: &str = "dump.ttl";
/// The entity list as RDF.
pub const INDEX_TTL: &str = "index.ttl";
pub const INDEX_NT: &str = "index.nt";
/// The folder of the browsing pages.
pub const BROWSE: &str = "browse";
/// The folder of the big lists' pages.
pub const PAGES: &str = "pages";
/// The folder the ontology's source files are published in, as they came.
/// A hyphen: no slug has one, so no entity's files collide.
pub const SOURCE_FILES: &str = "source-files";

/// The site-wide files a release's copy has not: the site's own
/// answers (`.well-known/` is the host's root's alone).
pub const ROOT_ONLY: [&str; 2] = [ALIASES, WELL_KNOWN_VOID];

/// The folder of the releases a site keeps side by side: each at
/// `releases/{version}/`, a site of its own, frozen; the list of them at
/// `releases/index.json` (and `.jsonld`, `.ttl`, `.html`).
pub const RELEASES: &str = "releases";
/// What a release changed since the one before it, at its own root (the
/// current site's too): a hyphen, so that no slug's files collide.
pub const CHANGE_LOG: &str = "change-log.json";
pub const CHANGE_LOG_TTL: &str = "change-log.ttl";
pub const CHANGE_LOG_PAGE: &str = "change-log.html";

/// The root of release `version`, from the site's root.
pub fn release(version: &str) -> String {
    format!("{RELEASES}/{version}/")
}

/// The release list's file in the format of `extension`.
pub fn release_list(extension: &str) -> String {
    format!("{RELEASES}/index.{extension}")
}

/// The release list's JSON, an endpoint of the API: [`release_list`]'s
/// `json`, as a constant for the route table.
pub const RELEASE_LIST: &str = "releases/index.json";

/// The published path of the ontology source file `name`.
pub fn source_file(name: &str) -> String {
    format!("{SOURCE_FILES}/{name}")
}

/// Every site-wide file above, for the names they reserve
/// (`site::reserved`).
pub const SITE_WIDE: &[&str] = &[
    INFO,
    INDEX,
    INDEX_LD,
    ALL,
    CONTEXT,
    JSON_CONTEXT,
    OPENAPI,
    SEARCH_INDEX,
    SEARCH_CLIENT,
    NOT_FOUND,
    NOT_FOUND_PAGE,
    HEADERS,
    REDIRECTS,
    ALIASES,
    HOME,
    HOME_ALIAS,
    STYLESHEET,
    PAGE_SCRIPT,
    SEARCH_INDEX_SCRIPT,
    VOCAB_TTL,
    VOCAB_NT,
    VOCAB_JSONLD,
    VOCAB_PAGE,
    TREE_PAGE,
    VOID_TTL,
    VOID_NT,
    VOID_JSONLD,
    WELL_KNOWN_VOID,
    DUMP_NT,
    DUMP_NT_GZ,
    DUMP_TTL,
    INDEX_TTL,
    INDEX_NT,
];

/// Every folder of the site.
pub const FOLDERS: &[&str] = &[
    BROWSE,
    PAGES,
    crate::search::format::DIR,
    SOURCE_FILES,
    RELEASES,
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_release_list_s_constant_is_its_json_file() {
        assert_eq!(super::RELEASE_LIST, super::release_list("json"));
    }
}
