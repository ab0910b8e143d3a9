//! One site being rendered: its [`Context`], and what its pages and its
//! search files are rendered with, prepared once (`Rendering::new` is in
//! `mod.rs`, which prepares the search index and the example answer).

use super::browse;
use super::context::Context;
use super::search_index::SearchIndex;
use super::templates::Templates;
pub use super::void::DumpEstimate;
use crate::site::bundles::{self, Layout};

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

    /// Writes the N-Triples and Turtle dumps in parts that each stay about
    /// within `most` bytes, by `estimate`: the first part holds the head
    /// and fewer entities, the others as many each, at most one part an
    /// entity. Set before anything is rendered, as the layout is. `false`,
    /// with the dumps whole, where parts cannot help: the head alone would
    /// not fit.
    pub fn split_dumps(&mut self, estimate: &DumpEstimate, most: u64) -> bool {
        let entities = self.ontology.entities.len();
        let per_entity = estimate.per_entity.max(1.0);
        let first = (most.saturating_sub(estimate.head) as f64 / per_entity) as usize;
        let rest = ((most as f64 / per_entity) as usize).max(1);
        if estimate.head >= most || first >= entities {
            return false;
        }
        let mut starts = vec![0];
        let mut next = first.max(1);
        while next < entities {
            starts.push(next);
            next += rest;
        }
        self.context.dump_part_starts = starts;
        true
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
