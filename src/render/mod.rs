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
mod context;
mod counted;
mod entity;
mod error;
mod hashes;
mod html;
mod info;
mod json;
mod jsonld;
mod manchester;
mod openapi;
mod parts;
pub mod rdf;
mod relations;
pub mod release;
pub mod releases;
mod rendering;
pub mod search_index;
mod templates;
mod vocab;
mod void;

pub use templates::TEMPLATES;

pub use context::Context;
pub use counted::Counted;
pub use error::RenderError;
pub use rendering::Rendering;
use templates::Templates;

use crate::hosts::{HostFile, HostInput};
use crate::model::{Download, Entity, Ontology};
use crate::search::Corpus;
use crate::search::client::SEARCH_JS;
use crate::site::bundles::{self, Layout};
use crate::site::formats::{ENTITY_FORMATS, EntityFormat};
use crate::site::parts::Parted;
use crate::site::{files, pages};
use std::collections::BTreeMap;
use std::io::Write;

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
        let templates = Templates::new(templates).map_err(PrepareError::Templates)?;
        let corpus = Corpus::of(ontology);
        let prepared = |file| move |source| PrepareError::Document { file, source };
        let example_search_answer =
            api_docs::example_search_answer(ontology, &corpus).map_err(prepared(files::HOME))?;
        let search_index = search_index::build(&ontology.meta.base_url, &corpus)
            .map_err(|e| prepared(files::SEARCH_INDEX)(e.into()))?;
        Ok(Rendering {
            context: Context::of(ontology),
            search_index,
            example_search_answer,
            templates,
            info: std::sync::OnceLock::new(),
            browse: std::sync::OnceLock::new(),
            tree_pages: std::sync::OnceLock::new(),
            layout: Layout::Files,
            bundles: std::sync::OnceLock::new(),
            joined: Vec::new(),
            copies_bundled: Default::default(),
            bundled: std::sync::OnceLock::new(),
        })
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
    /// A node or row file of the search index, by its number: a script
    /// that also holds the file's content as data (`search::format::script`).
    SearchFile(usize),
    /// The search index's manifest as a script, for pages opened from disk.
    SearchScript,
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
    /// The documents of one bundle's entities in one format, where they
    /// are bundled (`site::bundles`).
    Bundle(&'static EntityFormat, u32),
    /// How many bundles there are.
    BundleManifest,
    /// Part `k` (from 1) of the RDF list or the dump in one syntax, where
    /// it is in parts.
    Part(Parted, rdf::Syntax, u32),
    /// An ontology source file, published as it is.
    Source(&'a Download),
    /// The list of the releases the site keeps.
    ReleaseList(releases::ListFormat),
    /// What the site's release changed since the one before it.
    ChangeLog(releases::LogFormat),
    /// A term earlier releases had, by its number, in one format.
    Removed(usize, &'static EntityFormat),
    /// The document of hash IRIs, by its number, in one format.
    Hash(usize, &'static EntityFormat),
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
        Document::SearchScript,
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
            Document::SearchScript => files::SEARCH_INDEX_SCRIPT.to_owned(),
            Document::Graph(graph, syntax) => graph.file(*syntax).to_owned(),
            Document::WellKnownVoid => files::WELL_KNOWN_VOID.to_owned(),
            Document::DumpGz => files::DUMP_NT_GZ.to_owned(),
            Document::VocabularyPage => files::VOCAB_PAGE.to_owned(),
            Document::TreePage(n) => browse::TreePages::file(*n),
            Document::Browse(page) => page.path(),
            Document::Page(list, number) => list.file(*number),
            Document::Entity(e, format) => format.file(e),
            Document::Bundle(format, n) => bundles::path(format.extension, *n),
            Document::BundleManifest => bundles::MANIFEST.to_owned(),
            Document::Part(parted, syntax, k) => parted.part(syntax.extension(), *k),
            Document::Source(download) => download.name.clone(),
            Document::ReleaseList(format) => format.file(),
            Document::ChangeLog(format) => format.file().to_owned(),
            Document::Removed(i, format) => {
                format!("{}.{}", site.removed[*i].term.slug, format.extension)
            }
            Document::Hash(i, format) => format.file_of(&site.hash_documents[*i].slug),
        }
    }

    /// Whether it is a file for the host (its handler, its routes), which
    /// a build renders once every release's copy is laid out.
    pub fn is_host(&self) -> bool {
        matches!(self, Document::Host(_))
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
                | Document::Part(..)
        )
    }

    /// Renders a document that [`streams`](Document::streams) into `out`,
    /// ending it with one newline as [`Document::render`] ends every file.
    pub fn render_into(&self, site: &Rendering, out: &mut dyn Write) -> Result<(), RenderError> {
        let mut out = EndsLine { out, last: None };
        match self {
            Document::List => json::entity_list(site, None, &mut out)?,
            Document::ListLd => jsonld::entity_list(site, None, json::Framed::Whole, &mut out)?,
            Document::All => json::all(site, None, &mut out)?,
            Document::Graph(Graph::List, syntax) => {
                rdf::render_entity_list(site, *syntax, &mut out)?
            }
            Document::Graph(Graph::Dump, syntax) => void::dump(site, *syntax, &mut out)?,
            Document::Part(parted, syntax, k) => parts::part(site, *parted, *syntax, *k, &mut out)?,
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
            | Document::Graph(Graph::List | Graph::Dump, _)
            | Document::Part(..) => {
                return self.render_into(site, out);
            }
            Document::Page(list, number) => match list {
                pages::Paged::List => json::entity_list(site, Some(*number), &mut *out)?,
                pages::Paged::ListLd => {
                    jsonld::entity_list(site, Some(*number), json::Framed::Whole, &mut *out)?
                }
                pages::Paged::All => json::all(site, Some(*number), &mut *out)?,
            },
            Document::Context => jsonld::context(site, out)?,
            Document::JsonContext => jsonld::json_context(site, out)?,
            Document::OpenApi => openapi::render(site, out)?,
            Document::SearchIndex => out.extend_from_slice(&site.search_index.manifest),
            Document::SearchFile(i) => {
                let (path, packed) = &site.search_index.files[*i];
                let mut json = Vec::new();
                packed.unpack_into(&mut json)?;
                crate::search::format::script(path, &json, out)
            }
            Document::SearchClient => out.extend_from_slice(SEARCH_JS.trim_end().as_bytes()),
            Document::NotFound => info::not_found(site, out)?,
            Document::NotFoundPage => info::not_found_page(site, out)?,
            Document::Host(file) => {
                let input = HostInput {
                    downloads: &site.ontology.meta.downloads,
                    aliases: &site.published_aliases,
                    bundled: site.bundled()?,
                    see_other: &releases::version_iri_paths(site),
                    releases: site.has_release_list(),
                };
                (file.write)(&input, out)?
            }
            Document::Aliases => serde_json::to_writer(&mut *out, &site.published_aliases)?,
            Document::Home | Document::HomeAlias => html::home(site, out)?,
            Document::Stylesheet => {
                out.extend_from_slice(site.templates.asset("site.css").trim_end().as_bytes())
            }
            Document::PageScript => html::script(site, out),
            Document::SearchScript => {
                crate::search::format::script(files::SEARCH_INDEX, &site.search_index.manifest, out)
            }
            Document::Graph(Graph::Vocabulary, syntax) => vocab::render(site, *syntax, out)?,
            Document::Graph(Graph::DataSet, syntax) => void::render(site, *syntax, out)?,
            Document::WellKnownVoid => void::render(site, rdf::Syntax::Turtle, out)?,
            // Binary: no newline after it.
            Document::DumpGz => return void::dump_gz(site, out),
            Document::VocabularyPage => html::vocabulary(site, out)?,
            Document::TreePage(n) => html::tree(site, *n, out)?,
            Document::Browse(page) => {
                let (template, context) = browse::view(site, site.browse(), *page);
                html::render_template(site, template, "../", context, out)?
            }
            Document::Entity(e, format) => entity_document(site, e, format, out)?,
            Document::Bundle(format, n) => bundle(site, format, *n, out)?,
            Document::BundleManifest => serde_json::to_writer(&mut *out, &site.bundle_manifest()?)?,
            Document::ReleaseList(format) => match format {
                releases::ListFormat::Json => releases::list_json(site, out)?,
                releases::ListFormat::JsonLd => releases::list_rdf(site, rdf::Syntax::JsonLd, out)?,
                releases::ListFormat::Turtle => releases::list_rdf(site, rdf::Syntax::Turtle, out)?,
                releases::ListFormat::Page => html::releases(site, out)?,
            },
            Document::ChangeLog(format) => match format {
                releases::LogFormat::Json => releases::log_json(site, out)?,
                releases::LogFormat::Turtle => releases::log_rdf(site, rdf::Syntax::Turtle, out)?,
                releases::LogFormat::Page => html::change_log(site, out)?,
            },
            Document::Removed(i, format) => match format.representation {
                crate::site::formats::Representation::Html => {
                    html::removed(site, &site.removed[*i], out)?
                }
                representation => releases::removed(site, &site.removed[*i], representation, out)?,
            },
            Document::Hash(i, format) => {
                let document = &site.hash_documents[*i];
                if !hashes::data(site, document, format.representation, out)? {
                    html::hash_document(site, document, out)?;
                }
            }
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
/// with: its page, or its data.
fn entity_document(
    site: &Rendering,
    entity: &Entity,
    format: &EntityFormat,
    out: &mut Vec<u8>,
) -> Result<(), RenderError> {
    if !entity::data(site, entity, format.representation, out)? {
        html::entity(site, entity, out)?;
    }
    Ok(())
}

/// A bundle: each of its entities' documents in `format`, as its file
/// would hold it (newline included), by slug.
fn bundle(
    site: &Rendering,
    format: &EntityFormat,
    n: u32,
    out: &mut Vec<u8>,
) -> Result<(), RenderError> {
    let mut documents = serde_json::Map::new();
    let mut document = Vec::new();
    for &i in site.bundle_members().get(n as usize).into_iter().flatten() {
        let entity = &site.ontology.entities[i];
        document.clear();
        entity_document(site, entity, format, &mut document)?;
        document.push(b'\n');
        let text = String::from_utf8(std::mem::take(&mut document))
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        documents.insert(entity.slug.as_str().to_owned(), text.into());
    }
    serde_json::to_writer(out, &documents)?;
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

/// Every document of the site, in the order a writer takes them: the
/// site-wide ones (the largest first), the host files, the list pages, the
/// tree and browse pages, the sources, the search index's files, then each
/// entity in every format.
///
/// A list, not a parallel iterator: naming a document costs nothing, and
/// one list that each pass takes in parallel is one instantiation of
/// rayon's machinery where a chain of nine was nine per consumer (the
/// release build's critical path is LLVM on this crate).
pub fn documents<'a>(site: &Rendering<'a>) -> Vec<Document<'a>> {
    // A release's copy is answered by the site it is in: no host files.
    let hosts: Vec<Document> = if site.kept_release {
        Vec::new()
    } else {
        crate::hosts::files().map(Document::Host).collect()
    };
    let release_list = match site.has_release_list() {
        true => &releases::ListFormat::EVERY[..],
        false => &[][..],
    };
    let change_log = match site.has_change_log() {
        true => &releases::LogFormat::EVERY[..],
        false => &[][..],
    };
    let hosts: Vec<Document> = hosts
        .into_iter()
        .chain(release_list.iter().map(|&f| Document::ReleaseList(f)))
        .chain(change_log.iter().map(|&f| Document::ChangeLog(f)))
        .chain(
            (0..site.removed.len())
                .flat_map(|i| ENTITY_FORMATS.iter().map(move |f| Document::Removed(i, f))),
        )
        .chain(
            (0..site.hash_documents.len())
                .flat_map(|i| ENTITY_FORMATS.iter().map(move |f| Document::Hash(i, f))),
        )
        .collect();
    // Where the RDF documents are in parts, the parts in place of the
    // wholes; where a handler joins a list, the pages alone.
    let in_parts = |parted: Parted| site.parts(parted).unwrap_or(0);
    let parts: Vec<Document> = Parted::EVERY
        .into_iter()
        .flat_map(|parted| {
            [rdf::Syntax::NTriples, rdf::Syntax::Turtle]
                .into_iter()
                .flat_map(move |syntax| {
                    (1..=in_parts(parted)).map(move |k| Document::Part(parted, syntax, k))
                })
        })
        .collect();
    let whole = |document: &Document| match document {
        Document::Graph(Graph::List, rdf::Syntax::NTriples | rdf::Syntax::Turtle) => {
            in_parts(Parted::List) == 0
        }
        Document::Graph(Graph::Dump, rdf::Syntax::NTriples | rdf::Syntax::Turtle) => {
            in_parts(Parted::Dump) == 0
        }
        Document::List => !site.joined.contains(&pages::Paged::List),
        Document::ListLd => !site.joined.contains(&pages::Paged::ListLd),
        Document::All => !site.joined.contains(&pages::Paged::All),
        _ => !(site.kept_release && files::ROOT_ONLY.contains(&document.path(site).as_str())),
    };
    let mut documents: Vec<Document> = Document::SITE_WIDE.into_iter().filter(whole).collect();
    documents.extend(parts);
    documents.extend(hosts);
    documents.extend(
        (1..=pages::count(site.ontology.entities.len()))
            .flat_map(|n| pages::Paged::EVERY.map(|list| Document::Page(list, n))),
    );
    documents.extend((0..site.tree_pages().count()).map(Document::TreePage));
    documents.extend(site.browse().pages().into_iter().map(Document::Browse));
    documents.extend(site.ontology.meta.downloads.iter().map(Document::Source));
    documents.extend((0..site.search_index.files.len()).map(Document::SearchFile));
    match site.bundle_count() {
        None => documents.extend(
            site.ontology
                .entities
                .iter()
                .flat_map(|e| ENTITY_FORMATS.iter().map(move |f| Document::Entity(e, f))),
        ),
        Some(count) => {
            documents.extend(
                (0..count).flat_map(|n| ENTITY_FORMATS.iter().map(move |f| Document::Bundle(f, n))),
            );
            documents.push(Document::BundleManifest);
        }
    }
    documents
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

    /// A removed term's IRI and a hash document's path both stay
    /// published however often the hash documents are worked out again:
    /// the entities' aliases never hold a hash document's path.
    #[test]
    fn removed_terms_and_hash_documents_keep_their_paths() {
        let mut ontology = ontology();
        ontology.entities[0].iri = Some("https://t.test/Core#Acme".into());
        let mut site = Rendering::new(&ontology).unwrap();
        let removed = || release::Removed {
            term: crate::changes::Named {
                iri: "https://t.test/Old".into(),
                id: "Old".into(),
                name: "Old".into(),
                slug: "old".into(),
            },
            removed_in: "2".into(),
            last_release: "1".into(),
            description: None,
            replaced_by: Vec::new(),
        };
        for _ in 0..2 {
            site.set_removed(vec![removed()]);
            let published = &site.published_aliases;
            for (path, slug) in [("/Core", "core"), ("/Old", "old")] {
                let found = crate::site::negotiation::resource_at(path, published);
                assert_eq!(found.and_then(|found| found.slug), Some(slug), "{path}");
            }
            assert!(!site.aliases.contains("/Core") && site.aliases.contains("/Old"));
        }
    }

    /// A slug that would name a generated file or endpoint must be
    /// reserved, or an entity could overwrite it.
    #[test]
    fn every_generated_name_is_reserved() {
        let ontology = ontology();
        let site = Rendering::new(&ontology).unwrap();
        let mut names: Vec<String> = documents(&site)
            .into_iter()
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
        for document in documents(&site) {
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
