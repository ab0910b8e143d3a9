//! The render stage: every file of a site, as bytes, from the model.
//!
//! A site is a flat list of `Document`s. Each renders itself into a buffer
//! that the caller owns, so the writer can reuse one buffer a thread across
//! millions of entity files. Nothing here touches the disk but
//! `Document::Source`, the one document copied, not rendered: an ontology
//! source file as the publisher wrote it.

mod api_docs;
mod bidi;
mod browse;
mod html;
mod info;
mod json;
mod jsonld;
mod manchester;
mod openapi;
pub mod rdf;
mod relations;
pub mod search_index;
mod vocab;
mod void;

pub use html::TEMPLATES;

use crate::hosts::script::SEARCH_JS;
use crate::hosts::{HostFile, HostInput};
use crate::model::namespaces::OBO;
use crate::model::{Download, Entity, Ontology};
use crate::search::Corpus;
use crate::site::formats::{ENTITY_FORMATS, EntityFormat, Representation};
use crate::site::{files, negotiation, pages};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Write;

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

/// Why a site could not be prepared for rendering, and for what.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// The page templates (`--templates`, or the built-in ones) do not
    /// compile.
    #[error(transparent)]
    Templates(RenderError),
    /// A document made up front failed: the search index, or the front
    /// page's example answer.
    #[error("rendering `{file}` failed: {source}")]
    Document {
        file: &'static str,
        #[source]
        source: RenderError,
    },
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

/// One site being rendered: the ontology, and what every document of it
/// is rendered with, prepared once.
pub struct Rendering<'a> {
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
    templates: html::Templates,
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

impl<'a> Rendering<'a> {
    /// Prepares a site with the built-in templates.
    pub fn new(ontology: &'a Ontology) -> Result<Rendering<'a>, PrepareError> {
        Rendering::with_templates(ontology, &BTreeMap::new())
    }

    /// Prepares a site; `templates` (name → source) replace built-in
    /// templates of the same name.
    pub fn with_templates(
        ontology: &'a Ontology,
        templates: &BTreeMap<String, String>,
    ) -> Result<Rendering<'a>, PrepareError> {
        let compiled = html::Templates::new(templates).map_err(PrepareError::Templates)?;
        let mut extra_terms: BTreeMap<&str, bool> = BTreeMap::new();
        for entity in &ontology.entities {
            for (key, value) in &entity.extra {
                *extra_terms.entry(key.as_str()).or_default() |= is_structured(value);
            }
        }
        let corpus = Corpus::of(ontology);
        let prepared = |file| move |source| PrepareError::Document { file, source };
        let example_search_answer =
            api_docs::example_search_answer(ontology, &corpus).map_err(prepared(files::HOME))?;
        let search_index = search_index::build(&ontology.meta.base_url, &corpus)
            .map_err(|e| prepared(files::SEARCH_INDEX)(e.into()))?;
        Ok(Rendering {
            ontology,
            extra_terms,
            search_index,
            example_search_answer,
            templates: compiled,
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
    /// `index.json`, the entity list.
    List,
    /// `index.jsonld`.
    ListLd,
    All,
    Context,
    JsonContext,
    OpenApi,
    SearchIndex,
    SearchClient,
    NotFound,
    NotFoundPage,
    /// A file the build writes for a host.
    Host(&'static HostFile),
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
    pub const SITE_WIDE: [Document<'static>; 30] = [
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
        Document::ListLd,
        Document::Graph(Graph::List, rdf::Syntax::Turtle),
        Document::Graph(Graph::List, rdf::Syntax::NTriples),
        Document::List,
        Document::Info,
        Document::Context,
        Document::JsonContext,
        Document::OpenApi,
        Document::NotFound,
        Document::NotFoundPage,
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
    pub fn path(&self, site: &Rendering) -> String {
        match self {
            Document::Info => files::INFO.to_owned(),
            Document::List => files::INDEX.to_owned(),
            Document::ListLd => files::INDEX_LD.to_owned(),
            Document::All => files::ALL.to_owned(),
            Document::Context => files::CONTEXT.to_owned(),
            Document::JsonContext => files::JSON_CONTEXT.to_owned(),
            Document::OpenApi => files::OPENAPI.to_owned(),
            Document::SearchIndex => files::SEARCH_INDEX.to_owned(),
            Document::SearchClient => files::SEARCH_CLIENT.to_owned(),
            Document::NotFound => files::NOT_FOUND.to_owned(),
            Document::NotFoundPage => files::NOT_FOUND_PAGE.to_owned(),
            Document::Host(file) => file.path.to_owned(),
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
            Document::List
                | Document::ListLd
                | Document::All
                | Document::Graph(Graph::List | Graph::Dump, _)
        )
    }

    /// Renders a document that [`streams`](Document::streams) into `out`,
    /// ending it with one newline as [`Document::render`] ends every file.
    pub fn render_into(&self, site: &Rendering, out: &mut dyn Write) -> Result<(), RenderError> {
        let mut out = EndsLine { out, last: None };
        match self {
            Document::List => json::entity_list(site, None, &mut out)?,
            Document::ListLd => jsonld::entity_list(site, None, &mut out)?,
            Document::All => json::all(site, None, &mut out)?,
            Document::Graph(Graph::List, syntax) => {
                rdf::render_entity_list(site, *syntax, &mut out)?
            }
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
    pub fn render(&self, site: &Rendering, out: &mut Vec<u8>) -> Result<(), RenderError> {
        out.clear();
        match self {
            Document::Info => info::render(site, out)?,
            // Rendered as they are streamed, into the buffer.
            Document::List
            | Document::ListLd
            | Document::All
            | Document::Graph(Graph::List | Graph::Dump, _) => {
                return self.render_into(site, out);
            }
            Document::Page(list, number) => match list {
                pages::Paged::List => json::entity_list(site, Some(*number), &mut *out)?,
                pages::Paged::ListLd => jsonld::entity_list(site, Some(*number), &mut *out)?,
                pages::Paged::All => json::all(site, Some(*number), &mut *out)?,
            },
            Document::Context => jsonld::context(site, out)?,
            Document::JsonContext => jsonld::json_context(site, out)?,
            Document::OpenApi => openapi::render(site, out)?,
            Document::SearchIndex => out.extend_from_slice(&site.search_index.manifest),
            Document::SearchFile(i) => site.search_index.files[*i].1.unpack_into(out)?,
            // Committed source, so the crate builds without npm.
            Document::SearchClient => out.extend_from_slice(SEARCH_JS.trim_end().as_bytes()),
            Document::NotFound => info::not_found(site, out)?,
            Document::NotFoundPage => info::not_found_page(site, out)?,
            Document::Host(file) => {
                let input = HostInput {
                    downloads: &site.ontology.meta.downloads,
                    aliases: &site.aliases,
                };
                (file.write)(&input, out)?
            }
            Document::Aliases => serde_json::to_writer(&mut *out, &site.aliases)?,
            Document::Home | Document::HomeAlias => html::home(site, out)?,
            Document::Stylesheet => {
                out.extend_from_slice(site.templates.asset("site.css").trim_end().as_bytes())
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
            Document::Browse(page) => {
                let (template, context) = browse::view(site, *page);
                html::render_template(site, template, "../", context, out)?
            }
            Document::Entity(e, format) => entity_document(site, e, format, out)?,
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

/// An entity's document in `format`, without the newline its file ends
/// with: the renderer each [`Representation`] of the table stands for.
fn entity_document(
    site: &Rendering,
    entity: &Entity,
    format: &EntityFormat,
    out: &mut Vec<u8>,
) -> Result<(), RenderError> {
    match format.representation {
        Representation::Json => json::entity(site, entity, out)?,
        Representation::JsonLd => jsonld::entity(site, entity, out)?,
        Representation::Turtle => rdf::entity(site, entity, rdf::Syntax::Turtle, out)?,
        Representation::NTriples => rdf::entity(site, entity, rdf::Syntax::NTriples, out)?,
        Representation::Html => html::entity(site, entity, out)?,
    }
    Ok(())
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
    /// The entity list (`index.ttl`, `index.nt`, `index.jsonld`).
    List,
    Vocabulary,
    DataSet,
    Dump,
}

impl Graph {
    /// Its file in `syntax`.
    pub fn file(self, syntax: rdf::Syntax) -> &'static str {
        use rdf::Syntax::{JsonLd, NTriples, Turtle};
        match (self, syntax) {
            (Graph::List, Turtle) => files::INDEX_TTL,
            (Graph::List, NTriples) => files::INDEX_NT,
            (Graph::List, JsonLd) => files::INDEX_LD,
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
pub fn documents<'a>(site: &Rendering<'a>) -> impl ParallelIterator<Item = Document<'a>> + 'a {
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
    let hosts: Vec<Document> = crate::hosts::files().map(Document::Host).collect();
    Document::SITE_WIDE
        .into_par_iter()
        .chain(hosts)
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
    use crate::model::{GENERATED_FIELDS, OntologyMeta, Origin, Slug, is_term_name};
    use crate::site::routes::endpoints;

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
        let site = Rendering::new(&ontology).unwrap();
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
                    crate::site::reserved::reserved_slugs().contains(&stem),
                    "`{stem}` (from {name}) is not reserved"
                );
            }
        }
    }

    /// Cloudflare's `_routes.json` keeps the worker off every published
    /// extension, so every file the build writes (but the ontology's own
    /// sources, published as they came) has one of them, or none.
    #[test]
    fn every_written_extension_is_a_published_one() {
        let ontology = ontology();
        let site = Rendering::new(&ontology).unwrap();
        let published = crate::hosts::published_extensions();
        for document in documents(&site).collect::<Vec<_>>() {
            let path = document.path(&site);
            let name = path.rsplit('/').next().unwrap_or(&path);
            if matches!(document, Document::Source(_)) || name.starts_with(['_', '.']) {
                continue;
            }
            if let Some((_, extension)) = name.split_once('.') {
                let last = extension.rsplit('.').next().unwrap();
                assert!(published.contains(&last), "{path}");
            }
        }
    }

    /// A pass-through field must not collide with a key ontosite writes.
    #[test]
    fn every_generated_key_is_reserved() {
        let ontology = ontology();
        let site = Rendering::new(&ontology).unwrap();
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
        Document::ListLd.render(&site, &mut out).unwrap();
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
