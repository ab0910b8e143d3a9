//! The render stage: every file of a site, as bytes, from the model.
//!
//! A site is a flat list of `Document`s. Each renders itself into a buffer
//! that the caller owns, so the writer can reuse one buffer a thread across
//! millions of entity files. Nothing here touches the disk.

mod api_docs;
mod bidi;
mod browse;
mod formats;
mod host;
mod html;
mod info;
mod json;
mod jsonld;
mod manchester;
mod negotiation;
mod openapi;
pub mod pages;
pub mod rdf;
mod relations;
mod routes;
mod script;
pub mod search_index;
mod vocab;
mod void;

pub use formats::{ENTITY_FORMATS, EntityFormat};
pub use html::TEMPLATES;
pub use info::problem;
pub use json::{answer_page, respond, search_answer, search_response};
pub use negotiation::{Aliases, Found, Resource, choose, is_page, location, resource_at};
pub use routes::{Endpoint, Serves, UNPUBLISHED, endpoints, media};
pub use script::{SEARCH_JS, negotiation_module};

use crate::model::namespaces::OBO;
use crate::model::{Download, Entity, Ontology};
use crate::search::Corpus;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Write;

/// File names of the site-wide documents, relative to the site root.
pub mod files {
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
    pub const SEARCH_INDEX: &str = "search-index.json";
    /// The search client, an ES module that answers queries from the index.
    pub const SEARCH_CLIENT: &str = "search.js";
    /// The RFC 9457 problem document for an unknown path.
    pub const NOT_FOUND: &str = "404.json";
    /// Cloudflare Pages serves `index.html` with status 200 for unknown
    /// paths unless this file exists.
    pub const NOT_FOUND_PAGE: &str = "404.html";
    pub const HEADERS: &str = "_headers";
    pub const REDIRECTS: &str = "_redirects";
    /// The Netlify Edge Function that answers `/search`; netlify.toml
    /// points Netlify at its folder.
    pub const NETLIFY_EDGE: &str = "_edge/netlify/search.js";
    /// Cloudflare Pages' advanced-mode worker, which answers `/search`.
    pub const CLOUDFLARE_WORKER: &str = "_worker.js";
    /// Which paths Cloudflare Pages sends to the worker.
    pub const CLOUDFLARE_ROUTES: &str = "_routes.json";
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
    /// Where the search index's files are repeated as scripts, for pages
    /// opened from disk: `search-index.json` as `ui/search-index.js`,
    /// `search/n0.json` as `ui/search/n0.js`.
    pub const SEARCH_SCRIPTS: &str = "ui/";
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
}

/// Why a document could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("`{0}` is not a template ontosite uses\n  help: the templates are {names}; rename the file or remove it", names = html::TEMPLATES.map(|(name, _)| name).join(", "))]
    UnknownTemplate(String),
    #[error("{}", template_message(.0))]
    Template(minijinja::Error),
    #[error(
        "`{0}` is not an IRI that RDF allows\n  help: this is a bug in ontosite: the input's IRIs are checked when read; please report it"
    )]
    Iri(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// A template error with its template and line, and what to do.
fn template_message(error: &minijinja::Error) -> String {
    let place = match (error.name(), error.line()) {
        (Some(name), Some(line)) => format!("{name}:{line}: "),
        (Some(name), None) => format!("{name}: "),
        _ => String::new(),
    };
    let detail = error.detail().map(|d| format!(": {d}")).unwrap_or_default();
    format!(
        "{place}{}{detail}\n  help: fix the template, or remove it from --templates to use the built-in one",
        error.kind()
    )
}

/// What every document of one site is rendered with.
pub struct Site<'a> {
    pub ontology: &'a Ontology,
    /// Every pass-through field name and whether any value of it is
    /// structured (an object, or an array holding one), which JSON-LD must
    /// then keep as a JSON literal instead of dropping its unknown keys.
    extra_terms: BTreeMap<&'a str, bool>,
    /// The search index, rendered up front: its files come from one pass
    /// over every entity's words.
    search_index: search_index::SearchIndex,
    /// The answer to the front page's example search, taken while the
    /// corpus is at hand.
    example_search_answer: Option<Vec<u8>>,
    /// The page templates, compiled.
    pages: html::Pages,
    /// The information document, which every page shows parts of, as the
    /// templates read it.
    info: std::sync::OnceLock<minijinja::Value>,
    /// How many triples the entities state, counted once for the data
    /// set's description.
    entity_triples: std::sync::OnceLock<usize>,
    /// How the terms of an ontology source link to each other.
    relations: relations::Relations,
    /// The orders the browsing pages list the entities in.
    browse: std::sync::OnceLock<browse::Browse>,
    /// The hierarchy's rows, cut into pages.
    tree_pages: std::sync::OnceLock<browse::TreePages>,
    /// Whether the site publishes the terms of an ontology source.
    pub(crate) has_terms: bool,
    /// The paths at which entities' own IRIs in the site's namespace
    /// arrive, where those are not `/{slug}`.
    pub(crate) aliases: negotiation::Aliases,
    /// Whether the input names some entity of `input/entities/` by its own
    /// IRI, which the context and schemas then describe.
    pub(crate) own_iris: bool,
}

/// The paths that stand for an entity: its IRI's rest where the IRI is in
/// the namespace that resolves through the site, and a term's earlier IDs.
fn aliases_of(ontology: &Ontology) -> negotiation::Aliases {
    // A term with an OBO PURL had its earlier IDs' PURLs too
    // (`HP:0001275` was `obo:HP_0001275`): they resolve to it as well.
    let earlier_iris: Vec<(String, &str)> = ontology
        .entities
        .iter()
        .filter(|e| e.iri.as_deref().is_some_and(|i| i.starts_with(OBO)))
        .flat_map(|e| {
            let ids = e.term.as_deref().map(|t| t.alternative_ids.as_slice());
            ids.unwrap_or_default().iter().filter_map(move |id| {
                let (prefix, local) = id.split_once(':')?;
                Some((format!("{OBO}{prefix}_{local}"), e.slug.as_str()))
            })
        })
        .collect();
    let mut aliases = negotiation::Aliases::of(
        &ontology.meta.resolved_namespace(),
        // Earlier IRIs first: where a path is both, a term's own IRI (the
        // later entry) keeps it.
        earlier_iris
            .iter()
            .map(|(iri, slug)| (iri.as_str(), *slug))
            .chain(
                ontology
                    .entities
                    .iter()
                    .filter_map(|e| Some((e.iri.as_deref()?, e.slug.as_str()))),
            ),
    );
    let slugs: std::collections::HashSet<&str> =
        ontology.entities.iter().map(|e| e.slug.as_str()).collect();
    aliases.add_alternatives(
        ontology.entities.iter().flat_map(|e| {
            let ids = e.term.as_deref().map(|t| t.alternative_ids.as_slice());
            ids.unwrap_or_default()
                .iter()
                .map(move |id| (id.as_str(), e.slug.as_str()))
        }),
        |slug| slugs.contains(slug),
    );
    aliases
}

impl<'a> Site<'a> {
    /// Prepares a site with the built-in templates.
    pub fn new(ontology: &'a Ontology) -> Result<Site<'a>, RenderError> {
        Site::with_templates(ontology, &BTreeMap::new())
    }

    /// Prepares a site; `templates` (name → source) replace built-in
    /// templates of the same name.
    pub fn with_templates(
        ontology: &'a Ontology,
        templates: &BTreeMap<String, String>,
    ) -> Result<Site<'a>, RenderError> {
        let pages = html::Pages::new(templates)?;
        let mut extra_terms: BTreeMap<&str, bool> = BTreeMap::new();
        for entity in &ontology.entities {
            for (key, value) in &entity.extra {
                *extra_terms.entry(key.as_str()).or_default() |= is_structured(value);
            }
        }
        let corpus = Corpus::of(ontology);
        let example_search_answer = api_docs::example_search_answer(ontology, &corpus)?;
        let search_index = search_index::build(&ontology.meta.base_url, &corpus)?;
        Ok(Site {
            ontology,
            extra_terms,
            search_index,
            example_search_answer,
            pages,
            info: std::sync::OnceLock::new(),
            entity_triples: std::sync::OnceLock::new(),
            relations: relations::Relations::of(ontology),
            browse: std::sync::OnceLock::new(),
            tree_pages: std::sync::OnceLock::new(),
            has_terms: ontology.entities.iter().any(|e| e.term.is_some()),
            aliases: aliases_of(ontology),
            own_iris: ontology
                .entities
                .iter()
                .any(|e| e.term.is_none() && e.iri.is_some()),
        })
    }

    fn url(&self, path: &str) -> String {
        self.ontology.meta.base_url.join(path)
    }

    /// The namespace of the terms ontosite mints (`slug`, pass-through
    /// fields): `ontology.json`'s `vocabulary`, else `{base}/vocab#`.
    pub fn vocabulary(&self) -> std::borrow::Cow<'_, str> {
        match &self.ontology.meta.vocabulary {
            Some(namespace) => namespace.into(),
            None => self.url("vocab#").into(),
        }
    }

    /// The IRI of one of ontosite's terms.
    fn term(&self, name: &str) -> String {
        format!("{}{name}", self.vocabulary())
    }

    fn browse(&self) -> &browse::Browse {
        self.browse
            .get_or_init(|| browse::Browse::of(self.ontology, &self.relations))
    }

    fn tree_pages(&self) -> &browse::TreePages {
        self.tree_pages.get_or_init(|| {
            let rows = if self.relations.has_hierarchy() {
                self.relations.tree(self.ontology)
            } else {
                Vec::new()
            };
            browse::TreePages::of(rows, self.ontology.entities.len())
        })
    }

    fn info(&self) -> Result<minijinja::Value, RenderError> {
        if let Some(info) = self.info.get() {
            return Ok(info.clone());
        }
        let info = html::template_value(&info::document(self)?);
        Ok(self.info.get_or_init(|| info).clone())
    }
}

fn is_structured(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Object(_) => true,
        serde_json::Value::Array(items) => items.iter().any(is_structured),
        _ => false,
    }
}

/// One file of the site.
#[derive(Debug, Clone, Copy)]
pub enum Document<'a> {
    Info,
    Index,
    IndexLd,
    All,
    Context,
    JsonContext,
    OpenApi,
    SearchIndex,
    SearchClient,
    NotFound,
    NotFoundPage,
    Headers,
    Redirects,
    NetlifyEdge,
    CloudflareWorker,
    CloudflareRoutes,
    Aliases,
    /// A node or row file of the search index, by its number.
    SearchFile(usize),
    /// A file of the search index as a script, for pages opened from
    /// disk: the manifest (`None`) or a node or row file.
    SearchScript(Option<usize>),
    Home,
    HomeAlias,
    Stylesheet,
    PageScript,
    /// The vocabulary, the data set's description or the dump, in RDF.
    Graph(Graph, rdf::Syntax),
    WellKnownVoid,
    DumpGz,
    VocabularyPage,
    /// A page of the hierarchy, where the terms have one.
    TreePage(usize),
    /// A page that lists entities by name or by type.
    Browse(browse::BrowsePage),
    /// A page (from 1) of one of the big lists.
    Page(pages::Paged, usize),
    /// One entity in one of its formats.
    Entity(&'a Entity, &'static EntityFormat),
    /// An ontology source file, published as it is.
    Source(&'a Download),
}

impl Document<'_> {
    /// The site-wide documents, the largest first so that a parallel writer
    /// starts them before the many small entity files.
    pub const SITE_WIDE: [Document<'static>; 35] = [
        Document::Graph(Graph::Dump, rdf::Syntax::Turtle),
        Document::Graph(Graph::Dump, rdf::Syntax::NTriples),
        Document::DumpGz,
        Document::All,
        Document::SearchIndex,
        Document::SearchScript(None),
        Document::Home,
        Document::HomeAlias,
        Document::PageScript,
        Document::Stylesheet,
        Document::SearchClient,
        Document::IndexLd,
        Document::Graph(Graph::Index, rdf::Syntax::Turtle),
        Document::Graph(Graph::Index, rdf::Syntax::NTriples),
        Document::Index,
        Document::Info,
        Document::Context,
        Document::JsonContext,
        Document::OpenApi,
        Document::NotFound,
        Document::NotFoundPage,
        Document::Headers,
        Document::Redirects,
        Document::NetlifyEdge,
        Document::CloudflareWorker,
        Document::CloudflareRoutes,
        Document::Aliases,
        Document::Graph(Graph::Vocabulary, rdf::Syntax::Turtle),
        Document::Graph(Graph::Vocabulary, rdf::Syntax::NTriples),
        Document::Graph(Graph::Vocabulary, rdf::Syntax::JsonLd),
        Document::VocabularyPage,
        Document::Graph(Graph::DataSet, rdf::Syntax::Turtle),
        Document::Graph(Graph::DataSet, rdf::Syntax::NTriples),
        Document::Graph(Graph::DataSet, rdf::Syntax::JsonLd),
        Document::WellKnownVoid,
    ];

    /// The file's path relative to the site root.
    pub fn path(&self, site: &Site) -> String {
        match self {
            Document::Info => files::INFO.to_owned(),
            Document::Index => files::INDEX.to_owned(),
            Document::IndexLd => files::INDEX_LD.to_owned(),
            Document::All => files::ALL.to_owned(),
            Document::Context => files::CONTEXT.to_owned(),
            Document::JsonContext => files::JSON_CONTEXT.to_owned(),
            Document::OpenApi => files::OPENAPI.to_owned(),
            Document::SearchIndex => files::SEARCH_INDEX.to_owned(),
            Document::SearchClient => files::SEARCH_CLIENT.to_owned(),
            Document::NotFound => files::NOT_FOUND.to_owned(),
            Document::NotFoundPage => files::NOT_FOUND_PAGE.to_owned(),
            Document::Headers => files::HEADERS.to_owned(),
            Document::Redirects => files::REDIRECTS.to_owned(),
            Document::NetlifyEdge => files::NETLIFY_EDGE.to_owned(),
            Document::CloudflareWorker => files::CLOUDFLARE_WORKER.to_owned(),
            Document::CloudflareRoutes => files::CLOUDFLARE_ROUTES.to_owned(),
            Document::Aliases => files::ALIASES.to_owned(),
            Document::SearchFile(i) => site.search_index.files[*i].0.clone(),
            Document::Home => files::HOME.to_owned(),
            Document::HomeAlias => files::HOME_ALIAS.to_owned(),
            Document::Stylesheet => files::STYLESHEET.to_owned(),
            Document::PageScript => files::PAGE_SCRIPT.to_owned(),
            Document::SearchScript(file) => {
                let json = match file {
                    None => files::SEARCH_INDEX,
                    Some(i) => &site.search_index.files[*i].0,
                };
                search_index::script_path(json)
            }
            Document::Graph(graph, syntax) => graph.file(*syntax).to_owned(),
            Document::WellKnownVoid => files::WELL_KNOWN_VOID.to_owned(),
            Document::DumpGz => files::DUMP_NT_GZ.to_owned(),
            Document::VocabularyPage => files::VOCAB_PAGE.to_owned(),
            Document::TreePage(n) => browse::TreePages::file(*n),
            Document::Browse(page) => page.path(),
            Document::Page(list, number) => list.file(*number),
            Document::Entity(e, format) => format.file(e),
            Document::Source(download) => download.name.clone(),
        }
    }

    /// Whether the document grows with the ontology as one file (the
    /// lists, `/all`, the dumps): it is rendered straight into its file
    /// ([`Document::render_into`]), never held whole in memory.
    pub fn streams(&self) -> bool {
        matches!(
            self,
            Document::Index
                | Document::IndexLd
                | Document::All
                | Document::Graph(Graph::Index | Graph::Dump, _)
        )
    }

    /// Renders a document that [`streams`](Document::streams) into `out`,
    /// ending it with one newline as [`Document::render`] ends every file.
    pub fn render_into(&self, site: &Site, out: &mut dyn Write) -> Result<(), RenderError> {
        let mut out = EndsLine { out, last: None };
        match self {
            Document::Index => json::index(site, None, &mut out)?,
            Document::IndexLd => jsonld::index(site, None, &mut out)?,
            Document::All => json::all(site, None, &mut out)?,
            Document::Graph(Graph::Index, syntax) => rdf::render_index(site, *syntax, &mut out)?,
            Document::Graph(Graph::Dump, syntax) => void::dump(site, *syntax, &mut out)?,
            _ => {
                let mut bytes = Vec::new();
                self.render(site, &mut bytes)?;
                out.write_all(&bytes)?;
                return Ok(());
            }
        }
        if out.last != Some(b'\n') {
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// Renders the document into `out`, which is cleared first.
    pub fn render(&self, site: &Site, out: &mut Vec<u8>) -> Result<(), RenderError> {
        out.clear();
        match self {
            Document::Info => info::render(site, out)?,
            // Rendered as they are streamed, into the buffer.
            Document::Index
            | Document::IndexLd
            | Document::All
            | Document::Graph(Graph::Index | Graph::Dump, _) => {
                return self.render_into(site, out);
            }
            Document::Page(list, number) => match list {
                pages::Paged::Index => json::index(site, Some(*number), &mut *out)?,
                pages::Paged::IndexLd => jsonld::index(site, Some(*number), &mut *out)?,
                pages::Paged::All => json::all(site, Some(*number), &mut *out)?,
            },
            Document::Context => jsonld::context(site, out)?,
            Document::JsonContext => jsonld::json_context(site, out)?,
            Document::OpenApi => openapi::render(site, out)?,
            Document::SearchIndex => out.extend_from_slice(&site.search_index.manifest),
            Document::SearchFile(i) => site.search_index.files[*i].1.unpack_into(out)?,
            // Committed source, so the crate builds without npm.
            Document::SearchClient => {
                out.extend_from_slice(script::SEARCH_JS.trim_end().as_bytes())
            }
            Document::NetlifyEdge => script::host_module(
                include_str!("../../assets/netlify-edge.js"),
                &site.aliases,
                out,
            ),
            Document::CloudflareWorker => script::host_module(
                include_str!("../../assets/cloudflare-worker.js"),
                &site.aliases,
                out,
            ),
            Document::CloudflareRoutes => host::cloudflare_routes(out)?,
            Document::NotFound => info::not_found(site, out)?,
            Document::NotFoundPage => info::not_found_page(site, out)?,
            Document::Headers => host::headers(&site.ontology.meta.downloads, out),
            Document::Redirects => host::redirects(out),
            Document::Aliases => serde_json::to_writer(&mut *out, &site.aliases)?,
            Document::Home | Document::HomeAlias => html::index(site, out)?,
            Document::Stylesheet => {
                out.extend_from_slice(site.pages.asset("site.css").trim_end().as_bytes())
            }
            Document::PageScript => html::script(site, out),
            Document::SearchScript(file) => match file {
                None => search_index::script(files::SEARCH_INDEX, &site.search_index.manifest, out),
                Some(i) => {
                    let (path, packed) = &site.search_index.files[*i];
                    let mut bytes = Vec::new();
                    packed.unpack_into(&mut bytes)?;
                    search_index::script(path, &bytes, out)
                }
            },
            Document::Graph(Graph::Vocabulary, syntax) => vocab::render(site, *syntax, out)?,
            Document::Graph(Graph::DataSet, syntax) => void::render(site, *syntax, out)?,
            Document::WellKnownVoid => void::render(site, rdf::Syntax::Turtle, out)?,
            // Binary: no newline after it.
            Document::DumpGz => return void::dump_gz(site, out),
            Document::VocabularyPage => html::vocabulary(site, out)?,
            Document::TreePage(n) => html::tree(site, *n, out)?,
            Document::Browse(page) => browse::render(site, *page, out)?,
            Document::Entity(e, format) => (format.render)(site, e, out)?,
            // The one document copied, not rendered: the source file as
            // the publisher wrote it, byte for byte.
            Document::Source(download) => {
                out.extend_from_slice(&std::fs::read(&download.path)?);
                return Ok(());
            }
        }
        out.push(b'\n');
        Ok(())
    }
}

/// A stream that remembers its last byte, so that a streamed document
/// ends with exactly the newline a rendered one does.
struct EndsLine<'w> {
    out: &'w mut dyn Write,
    last: Option<u8>,
}

impl Write for EndsLine<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(bytes)?;
        if n > 0 {
            self.last = Some(bytes[n - 1]);
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// A graph the site publishes whole, in several syntaxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Graph {
    Index,
    Vocabulary,
    DataSet,
    Dump,
}

impl Graph {
    /// Its file in `syntax`.
    pub fn file(self, syntax: rdf::Syntax) -> &'static str {
        use rdf::Syntax::{JsonLd, NTriples, Turtle};
        match (self, syntax) {
            (Graph::Index, Turtle) => files::INDEX_TTL,
            (Graph::Index, NTriples) => files::INDEX_NT,
            (Graph::Index, JsonLd) => files::INDEX_LD,
            (Graph::Vocabulary, Turtle) => files::VOCAB_TTL,
            (Graph::Vocabulary, NTriples) => files::VOCAB_NT,
            (Graph::Vocabulary, JsonLd) => files::VOCAB_JSONLD,
            (Graph::DataSet, Turtle) => files::VOID_TTL,
            (Graph::DataSet, NTriples) => files::VOID_NT,
            (Graph::DataSet, JsonLd) => files::VOID_JSONLD,
            (Graph::Dump, Turtle) => files::DUMP_TTL,
            (Graph::Dump, NTriples) | (Graph::Dump, JsonLd) => files::DUMP_NT,
        }
    }
}

/// Every document of the site, as a parallel iterator: the site-wide ones,
/// the search index's files, then each entity in every format.
pub fn documents<'a>(site: &Site<'a>) -> impl ParallelIterator<Item = Document<'a>> + 'a {
    let per_entity = site
        .ontology
        .entities
        .par_iter()
        .flat_map_iter(|e| ENTITY_FORMATS.iter().map(move |f| Document::Entity(e, f)));
    let search_files = (0..site.search_index.files.len())
        .into_par_iter()
        .flat_map_iter(|i| [Document::SearchFile(i), Document::SearchScript(Some(i))]);
    let sources = site
        .ontology
        .meta
        .downloads
        .par_iter()
        .map(Document::Source);
    let tree = (0..site.tree_pages().count())
        .into_par_iter()
        .map(Document::TreePage);
    let browse = site.browse().pages().into_par_iter().map(Document::Browse);
    let list_pages = (1..=pages::count(site.ontology.entities.len()))
        .into_par_iter()
        .flat_map_iter(|n| pages::Paged::EVERY.map(|list| Document::Page(list, n)));
    Document::SITE_WIDE
        .into_par_iter()
        .chain(list_pages)
        .chain(tree)
        .chain(browse)
        .chain(sources)
        .chain(search_files)
        .chain(per_entity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        GENERATED_FIELDS, OntologyMeta, Origin, RESERVED_SLUGS, Slug, is_term_name,
    };

    fn ontology() -> Ontology {
        let entity = |id: &str| Entity {
            id: id.to_owned(),
            slug: Slug::from_id(id).unwrap(),
            name: format!("{id} - Create Item"),
            description: "Creates an item.".to_owned(),
            iri: None,
            extra: serde_json::Map::new(),
            link_names: Default::default(),
            term: None,
            origin: Origin {
                path: std::path::Path::new("x.json").into(),
                line: None,
            },
        };
        Ontology {
            meta: OntologyMeta::for_test("Action", "http://schema.org/Action"),
            entities: vec![entity("AcmeCreate"), entity("ZetaCreate")],
        }
    }

    /// A slug that would name a generated file or endpoint must be
    /// reserved, or an entity could overwrite it.
    #[test]
    fn every_generated_name_is_reserved() {
        let ontology = ontology();
        let site = Site::new(&ontology).unwrap();
        let mut names: Vec<String> = documents(&site)
            .filter(|d| !matches!(d, Document::Entity(..)))
            .map(|d| d.path(&site))
            .collect();
        names.extend(
            endpoints()
                .iter()
                .map(|e| e.path.trim_start_matches('/').to_owned()),
        );
        for name in names {
            let first = name.split('/').next().unwrap();
            let stem = first.split('.').next().unwrap_or(first);
            if Slug::parse(stem).is_ok() {
                assert!(
                    RESERVED_SLUGS.contains(&stem),
                    "`{stem}` (from {name}) is not reserved"
                );
            }
        }
    }

    /// A pass-through field must not collide with a key ontosite writes.
    #[test]
    fn every_generated_key_is_reserved() {
        let ontology = ontology();
        let site = Site::new(&ontology).unwrap();
        let entity = &ontology.entities[0];
        let mut out = Vec::new();
        let mut keys = Vec::new();
        for format in ENTITY_FORMATS
            .iter()
            .filter(|f| f.extension.starts_with("json"))
        {
            let document = Document::Entity(entity, format);
            document.render(&site, &mut out).unwrap();
            let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
            keys.extend(value.as_object().unwrap().keys().cloned());
        }
        Document::Context.render(&site, &mut out).unwrap();
        let context: serde_json::Value = serde_json::from_slice(&out).unwrap();
        keys.extend(context["@context"].as_object().unwrap().keys().cloned());
        Document::IndexLd.render(&site, &mut out).unwrap();
        let index: serde_json::Value = serde_json::from_slice(&out).unwrap();
        keys.extend(index.as_object().unwrap().keys().cloned());
        keys.extend(
            index["itemListElement"][0]
                .as_object()
                .unwrap()
                .keys()
                .cloned(),
        );
        for key in keys {
            let input_field = ["id", "slug", "name", "description"].contains(&key.as_str());
            let type_term =
                key == ontology.meta.entity_type || key == "ItemList" || key == "ListItem";
            if is_term_name(&key) && !input_field && !type_term {
                assert!(
                    GENERATED_FIELDS.contains(&key.as_str()),
                    "`{key}` is not reserved"
                );
            }
        }
    }
}
