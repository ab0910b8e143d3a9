//! Browsing without search: every entity by name and by type in static
//! pages of bounded size linked by a pager, and the hierarchy's tree split
//! into pages the same way, so that no page grows with the ontology.

use super::context::Context;
use super::relations::{Relations, TreeRow};
use crate::model::Ontology;
use serde::Serialize;

/// Entities a list page holds.
pub const PAGE_ENTRIES: usize = 500;
/// Rows of the tree a page holds, its ancestors' rows aside.
pub const TREE_ROWS: usize = 1000;
/// The folder of the browsing pages.
pub const DIR: &str = crate::site::files::BROWSE;

/// The orders the pages list the entities in, made once per site.
pub struct Browse {
    names: EntityList,
    /// Each kind of entity (`CreateAction`, `owl:Class`) with its
    /// entities, the most frequent kind first.
    kinds: Vec<(String, EntityList)>,
    /// The terms the hierarchy leaves out (neither a published parent nor
    /// a child), by name: on a site with a hierarchy, every term is in the
    /// tree or here.
    outside: EntityList,
}

/// Entities in name order, and where each initial starts.
struct EntityList {
    positions: Vec<u32>,
    /// The first page of each initial (`A`, `B`, … and `#` for the rest).
    initials: Vec<(String, usize)>,
}

/// One browsing page.
#[derive(Debug, Clone, Copy)]
pub enum BrowsePage {
    /// `browse/index.html`: the lists and the kinds, with counts.
    Start,
    /// Page `n` (from 0) of every entity by name.
    Names(usize),
    /// Page `n` of kind `k`'s entities.
    Kind(usize, usize),
    /// Page `n` of the terms outside the hierarchy.
    Outside(usize),
}

impl Browse {
    pub fn of(ontology: &Ontology, relations: &Relations) -> Browse {
        let entities = &ontology.entities;
        let order = super::relations::name_order(ontology);
        let mut by_kind: std::collections::HashMap<String, Vec<u32>> = Default::default();
        for &p in &order {
            by_kind
                .entry(ontology.meta.kind(&entities[p as usize]).into_owned())
                .or_default()
                .push(p);
        }
        let mut kinds: Vec<(String, Vec<u32>)> = by_kind.into_iter().collect();
        kinds.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
        let outside: Vec<u32> = if relations.has_hierarchy() {
            // The tree shows a term with a parent, and one with children.
            let has_parent = relations.has_parent(entities.len());
            order
                .iter()
                .copied()
                .map(|p| p as usize)
                .filter(|&p| {
                    entities[p].term.is_some() && !has_parent[p] && relations.children(p).is_empty()
                })
                .map(|p| p as u32)
                .collect()
        } else {
            Vec::new()
        };
        let list = |positions: Vec<u32>| EntityList::of(ontology, positions);
        Browse {
            names: list(order),
            kinds: kinds.into_iter().map(|(k, p)| (k, list(p))).collect(),
            outside: list(outside),
        }
    }

    /// Every page, the index first.
    pub fn pages(&self) -> Vec<BrowsePage> {
        let mut pages = vec![BrowsePage::Start];
        pages.extend((0..self.names.page_count()).map(BrowsePage::Names));
        for (k, (_, list)) in self.kinds.iter().enumerate() {
            pages.extend((0..list.page_count()).map(|n| BrowsePage::Kind(k, n)));
        }
        if !self.outside.positions.is_empty() {
            pages.extend((0..self.outside.page_count()).map(BrowsePage::Outside));
        }
        pages
    }

    /// The terms the hierarchy leaves out, by name, and the first page
    /// that lists them.
    pub fn outside(&self) -> (&[u32], String) {
        (&self.outside.positions, BrowsePage::Outside(0).path())
    }
}

impl EntityList {
    fn of(ontology: &Ontology, positions: Vec<u32>) -> EntityList {
        let mut initials: Vec<(String, usize)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (at, &p) in positions.iter().enumerate() {
            let initial: String = match ontology.entities[p as usize].name.chars().next() {
                Some(c) if c.is_alphabetic() => c.to_uppercase().collect(),
                _ => "#".to_owned(),
            };
            if seen.insert(initial.clone()) {
                initials.push((initial, at / PAGE_ENTRIES));
            }
        }
        EntityList {
            positions,
            initials,
        }
    }

    fn page_count(&self) -> usize {
        self.positions.len().div_ceil(PAGE_ENTRIES).max(1)
    }
}

impl BrowsePage {
    /// Page `n` of the same list.
    fn with_page(self, n: usize) -> BrowsePage {
        match self {
            BrowsePage::Start => BrowsePage::Start,
            BrowsePage::Names(_) => BrowsePage::Names(n),
            BrowsePage::Kind(k, _) => BrowsePage::Kind(k, n),
            BrowsePage::Outside(_) => BrowsePage::Outside(n),
        }
    }

    /// Its path relative to the site root; page numbers count from 1.
    pub fn path(self) -> String {
        match self {
            BrowsePage::Start => format!("{DIR}/index.html"),
            BrowsePage::Names(n) => format!("{DIR}/names-{}.html", n + 1),
            BrowsePage::Kind(k, n) => format!("{DIR}/type-{}-{}.html", k + 1, n + 1),
            BrowsePage::Outside(n) => format!("{DIR}/outside-{}.html", n + 1),
        }
    }
}

/// A link from one browsing page to another, by file name.
#[derive(Serialize)]
struct PageLink {
    label: String,
    href: String,
    current: bool,
}

#[derive(Serialize)]
struct Entry<'a> {
    slug: &'a str,
    name: std::borrow::Cow<'a, str>,
    kind: std::borrow::Cow<'a, str>,
    summary: std::borrow::Cow<'a, str>,
}

#[derive(Serialize)]
struct KindView<'a> {
    name: &'a str,
    count: usize,
    href: String,
}

/// The page's file name within `browse/`.
fn file(page: BrowsePage) -> String {
    page.path()[DIR.len() + 1..].to_owned()
}

/// The template of a browsing page and what it shows; `html` renders it,
/// as it renders every page.
pub fn view(site: &Context, browse: &Browse, page: BrowsePage) -> (&'static str, minijinja::Value) {
    let kinds: Vec<KindView> = browse
        .kinds
        .iter()
        .enumerate()
        .map(|(k, (name, list))| KindView {
            name,
            count: list.positions.len(),
            href: file(BrowsePage::Kind(k, 0)),
        })
        .collect();
    let (title, list, at) = match page {
        BrowsePage::Start => {
            let names = BrowsePage::Names(0);
            let context = minijinja::context! {
                kinds => minijinja::Value::from(minijinja::value::Serde(&kinds)),
                names => file(names),
                initials => minijinja::Value::from(minijinja::value::Serde(links(&browse.names, names, usize::MAX))),
                tree => site.relations.has_hierarchy(),
                outside_count => browse.outside.positions.len(),
                outside => file(BrowsePage::Outside(0)),
            };
            return ("browse.html", context);
        }
        BrowsePage::Names(n) => ("Every entity by name".to_owned(), &browse.names, n),
        BrowsePage::Kind(k, n) => {
            let (name, list) = &browse.kinds[k];
            (format!("Every {name} by name"), list, n)
        }
        BrowsePage::Outside(n) => (
            "The terms outside the hierarchy".to_owned(),
            &browse.outside,
            n,
        ),
    };
    let make = |n| file(page.with_page(n));
    let entities = &site.ontology.entities;
    let start = at * PAGE_ENTRIES;
    let entries: Vec<Entry> = list.positions
        [start.min(list.positions.len())..(start + PAGE_ENTRIES).min(list.positions.len())]
        .iter()
        .map(|&p| {
            let entity = &entities[p as usize];
            Entry {
                slug: entity.slug.as_str(),
                name: crate::search::text::short_name(&entity.name),
                kind: site.ontology.meta.kind(entity),
                summary: crate::search::text::summary(&entity.description),
            }
        })
        .collect();
    let count = list.page_count();
    // A window of pages around this one; the ends and the initials reach
    // the rest, so the pager stays small at any size.
    let window: Vec<PageLink> = (at.saturating_sub(3)..(at + 4).min(count))
        .map(|n| PageLink {
            label: (n + 1).to_string(),
            href: make(n),
            current: n == at,
        })
        .collect();
    let context = minijinja::context! {
        title => title,
        page => at + 1,
        pages => count,
        total => list.positions.len(),
        first => make(0),
        last => make(count - 1),
        previous => at.checked_sub(1).map(make),
        next => (at + 1 < count).then(|| make(at + 1)),
        window => minijinja::Value::from(minijinja::value::Serde(&window)),
        initials => minijinja::Value::from(minijinja::value::Serde(links(list, page, at))),
        entries => minijinja::Value::from(minijinja::value::Serde(&entries)),
        kinds => minijinja::Value::from(minijinja::value::Serde(&kinds)),
    };
    ("list.html", context)
}

/// Links to the first page of each initial of `list`, whose pages are
/// `page`'s; the one on page `at` is the current one.
fn links(list: &EntityList, page: BrowsePage, at: usize) -> Vec<PageLink> {
    list.initials
        .iter()
        .map(|(initial, n)| PageLink {
            label: initial.clone(),
            href: file(page.with_page(*n)),
            current: *n == at,
        })
        .collect()
}

/// The hierarchy's rows cut into pages of at most [`TREE_ROWS`], each page
/// opening with the nearest [`TREE_CONTEXT`] ancestors of its first row
/// (shown again, as context), and where each term is expanded.
///
/// A page's depths start from its shallowest row, the levels above its
/// first row opened by [`TreePages::opened`]: a page deep in a chain of
/// 10,000 subclasses repeated every level above it, the tree's pages
/// quadratic in its depth.
pub struct TreePages {
    /// Each page's rows, and how many of them lead as context.
    pages: Vec<(Vec<TreeRow>, usize)>,
    /// For each entity position, the page (from 0) that expands it.
    page_of: Vec<Option<u32>>,
}

/// How many of the open branches above a page's first row the page shows
/// again.
pub const TREE_CONTEXT: usize = 12;

impl TreePages {
    pub fn of(rows: Vec<TreeRow>, entities: usize) -> TreePages {
        let mut pages: Vec<(Vec<TreeRow>, usize)> = Vec::new();
        let mut page_of = vec![None; entities];
        // The open branches above the current row.
        let mut ancestors: Vec<TreeRow> = Vec::new();
        for (i, row) in rows.into_iter().enumerate() {
            if i % TREE_ROWS == 0 {
                let shown = &ancestors[ancestors.len().saturating_sub(TREE_CONTEXT)..];
                pages.push((shown.to_vec(), shown.len()));
            }
            let page = pages.len() - 1;
            if !row.repeat && page_of[row.position].is_none() {
                page_of[row.position] = Some(page as u32);
            }
            pages[page].0.push(row);
            ancestors.truncate(row.depth);
            if row.branch {
                ancestors.push(row);
            }
        }
        for (rows, _) in &mut pages {
            let base = rows.iter().map(|r| r.depth).min().unwrap_or(0);
            for row in rows.iter_mut() {
                row.depth -= base;
            }
            super::relations::close_branches(rows);
        }
        TreePages { pages, page_of }
    }

    /// How many levels a page opens above its first row: the ancestors it
    /// does not show again, down to its shallowest row.
    pub fn opened(&self, page: usize) -> usize {
        self.rows(page).0.first().map_or(0, |r| r.depth)
    }

    /// How many pages the tree takes: none where there is no hierarchy.
    pub fn count(&self) -> usize {
        self.pages.len()
    }

    /// Page `page`'s rows, and how many of them lead as context.
    pub fn rows(&self, page: usize) -> (&[TreeRow], usize) {
        self.pages
            .get(page)
            .map_or((&[], 0), |(rows, context)| (rows.as_slice(), *context))
    }

    /// The page that expands the entity at `position`, if the tree shows it.
    pub fn page_of(&self, position: usize) -> Option<usize> {
        self.page_of
            .get(position)
            .copied()
            .flatten()
            .map(|p| p as usize)
    }

    /// The file of tree page `n`: `tree.html`, then `tree-2.html`, ….
    pub fn file(n: usize) -> String {
        if n == 0 {
            crate::site::files::TREE_PAGE.to_owned()
        } else {
            format!("tree-{}.html", n + 1)
        }
    }
}
