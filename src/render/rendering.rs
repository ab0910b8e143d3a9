//! One site being rendered: its [`Context`], and what its pages and its
//! search files are rendered with, prepared once (`Rendering::new` is in
//! `mod.rs`, which prepares the search index and the example answer).

use super::browse;
use super::context::Context;
use super::search_index::SearchIndex;
use super::templates::Templates;
pub use super::void::DumpEstimate;
use crate::site::bundles::{self, Layout};
use crate::site::pages::Paged;
use crate::site::parts::{Joins, Parted};

pub struct Rendering<'a> {
    pub(super) context: Context<'a>,
    /// The search index, rendered up front: its files come from one pass
    /// over every entity's words.
    pub(super) search_index: SearchIndex,
    /// The answer to the front page's example search, taken while the
    /// corpus is at hand.
    pub(super) example_search_answer: Option<Vec<u8>>,
    /// The page templates, compiled.
    pub(super) templates: Templates,
    /// The information document, which every page shows parts of, as the
    /// templates read it.
    pub(super) info: std::sync::OnceLock<minijinja::Value>,
    /// The orders the browsing pages list the entities in.
    pub(super) browse: std::sync::OnceLock<browse::Browse>,
    /// The hierarchy's rows, cut into pages.
    pub(super) tree_pages: std::sync::OnceLock<browse::TreePages>,
    /// Whether the entities' documents are files or bundles.
    pub(super) layout: Layout,
    /// The entities of each bundle, in slug order, where they are bundled.
    pub(super) bundles: std::sync::OnceLock<Vec<Vec<usize>>>,
    /// The big JSON lists a handler answers from their pages, where the
    /// host takes no file as large.
    pub(super) joined: Vec<Paged>,
    /// The releases' copies that bundle, which the root's handlers answer
    /// in too.
    pub(super) copies_bundled: bundles::Bundled,
    /// `copies_bundled` with the root's own manifest where it bundles,
    /// made once: every host file and every manifest the limits read asks
    /// for it, and the root's manifest walks the joined lists' pages.
    /// Emptied by each setter of what it is made from.
    pub(super) bundled: std::sync::OnceLock<bundles::Bundled>,
}

/// The pages read the data's context as the data formats do: `site.ontology`
/// on a page is the context's.
impl<'a> std::ops::Deref for Rendering<'a> {
    type Target = Context<'a>;

    fn deref(&self) -> &Context<'a> {
        &self.context
    }
}

impl Rendering<'_> {
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Lays the entities' documents out as `layout` says: nothing is
    /// rendered yet, so a build can measure one layout and choose another.
    pub fn set_layout(&mut self, layout: Layout) {
        self.layout = layout;
        self.bundled.take();
    }

    /// Publishes the site as release `release` of the releases `listed`
    /// (oldest first), which the current site lists at `/releases/`; a
    /// release's copy under `/releases/{version}/` (`kept`) lists none and
    /// carries no host files.
    pub fn set_release(
        &mut self,
        release: super::release::ReleaseOf,
        listed: Vec<super::release::Listed>,
        kept: bool,
    ) {
        self.context.release = Some(release);
        self.context.releases = if kept { Vec::new() } else { listed };
        self.context.kept_release = kept;
        self.bundled.take();
    }

    /// Shows on each term's page the releases that changed it.
    pub fn set_history(
        &mut self,
        history: std::collections::HashMap<String, Vec<super::release::Changed>>,
    ) {
        self.context.history = history;
    }

    /// Publishes documents for the terms earlier releases had and this
    /// one has not, at the slugs they had, and resolves their IRIs to
    /// them; where a term of this release has the slug, it keeps it.
    pub fn set_removed(&mut self, removed: Vec<super::release::Removed>) {
        let taken: std::collections::HashSet<&str> = self
            .context
            .ontology
            .entities
            .iter()
            .map(|e| e.slug.as_str())
            .collect();
        let removed: Vec<_> = removed
            .into_iter()
            .filter(|r| {
                !taken.contains(r.term.slug.as_str())
                    && crate::site::reserved::names_entity(&r.term.slug)
            })
            .collect();
        let namespace = self.context.ontology.meta.resolved_namespace();
        self.context
            .aliases
            .extend(crate::site::negotiation::Aliases::of(
                &namespace,
                removed
                    .iter()
                    .map(|r| (r.term.iri.as_str(), r.term.slug.as_str())),
            ));
        self.context.removed = removed;
        self.context.group_hash_documents();
        self.bundled.take();
    }

    /// About how large the N-Triples dump's head (the data set's
    /// description, the vocabulary, the list) and an entity's triples
    /// are, from every `step`th entity (`void::estimated_dump_bytes`).
    pub fn estimated_dump_bytes(
        &self,
        step: usize,
    ) -> Result<DumpEstimate, super::error::RenderError> {
        super::void::estimated_dump_bytes(self, step)
    }

    /// Writes the RDF list and dump in parts where the whole N-Triples
    /// document would be larger than `limit` bytes (`parts::plan`); set
    /// before anything is rendered, as the layout is. Whether any is.
    pub fn cut_into_parts(&mut self, limit: u64) -> Result<bool, super::error::RenderError> {
        self.bundled.take();
        super::parts::plan(&mut self.context, limit)?;
        Ok(Parted::EVERY.iter().any(|&p| self.parts(p).is_some()))
    }

    /// The big JSON lists larger than `limit` bytes whole, which a handler
    /// then answers from their pages, and which are then not written.
    pub fn join_lists(&mut self, limit: u64) -> Result<&[Paged], super::error::RenderError> {
        let mut joined = Vec::new();
        for list in Paged::EVERY {
            if super::parts::list_bytes(self, list)? > limit {
                joined.push(list);
            }
        }
        self.joined = joined;
        self.bundled.take();
        Ok(&self.joined)
    }

    /// The documents a handler answers by joining (`site::parts`).
    pub fn joins(&self) -> Result<Joins, serde_json::Error> {
        super::parts::joins(self, &self.joined)
    }

    /// The bundles' manifest: how many, of which formats, and the wholes
    /// a handler joins.
    pub fn bundle_manifest(&self) -> Result<bundles::Manifest, serde_json::Error> {
        Ok(bundles::Manifest {
            version: bundles::VERSION,
            count: bundles::count(self.ontology.entities.len()),
            formats: crate::site::formats::ENTITY_FORMATS
                .iter()
                .map(|f| f.extension.to_owned())
                .collect(),
            joined: self.joins()?,
        })
    }

    /// Tells the root site of the releases' copies that bundle (each
    /// folder with its manifest): its host files then answer in them.
    pub fn set_copies_bundled(&mut self, copies: bundles::Bundled) {
        self.copies_bundled = copies;
        self.bundled.take();
    }

    /// The folders the site's handlers answer bundles and joined wholes
    /// in: its own where it bundles, and its releases' copies'.
    pub fn bundled(&self) -> Result<&bundles::Bundled, serde_json::Error> {
        if let Some(bundled) = self.bundled.get() {
            return Ok(bundled);
        }
        let mut bundled = self.copies_bundled.clone();
        if self.layout == Layout::Bundled {
            bundled.insert(String::new(), self.bundle_manifest()?);
        }
        Ok(self.bundled.get_or_init(|| bundled))
    }

    /// The number of bundles each format has, where the documents are
    /// bundled.
    pub fn bundle_count(&self) -> Option<u32> {
        (self.layout == Layout::Bundled).then(|| bundles::count(self.ontology.entities.len()))
    }

    /// The entities of each bundle, in slug order.
    pub(super) fn bundle_members(&self) -> &[Vec<usize>] {
        self.bundles.get_or_init(|| {
            let count = bundles::count(self.ontology.entities.len());
            let mut members = vec![Vec::new(); count as usize];
            for (i, entity) in self.ontology.entities.iter().enumerate() {
                members[bundles::of(entity.slug.as_str(), count) as usize].push(i);
            }
            for bundle in &mut members {
                bundle.sort_by(|&a, &b| {
                    let slug = |i: usize| self.ontology.entities[i].slug.as_str();
                    slug(a).cmp(slug(b))
                });
            }
            members
        })
    }

    pub(super) fn browse(&self) -> &browse::Browse {
        self.browse
            .get_or_init(|| browse::Browse::of(self.ontology, &self.relations))
    }

    pub(super) fn tree_pages(&self) -> &browse::TreePages {
        self.tree_pages.get_or_init(|| {
            let rows = if self.relations.has_hierarchy() {
                self.relations.tree(self.ontology)
            } else {
                Vec::new()
            };
            browse::TreePages::of(rows, self.ontology.entities.len())
        })
    }
}
