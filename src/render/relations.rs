//! How an ontology's terms link to each other: parents as the source
//! states them, and what the site computes from them for every term
//! (children, ancestors, the terms that link to it).

use crate::model::{Entity, Ontology};
use crate::search::text::natural_key;
use oxrdf::{NamedOrBlankNode, Term as Node};
use std::collections::HashMap;

/// One term in the hierarchy's nested list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeRow {
    pub position: usize,
    /// 0 for a root.
    pub depth: usize,
    /// Whether its children follow, one level deeper.
    pub branch: bool,
    /// Whether it was shown higher up (under another parent, or as its own
    /// ancestor in a cycle).
    pub repeat: bool,
    /// How many branches end after it.
    pub close: usize,
}

/// Sets how many branches end after each row, so that the rows close
/// every list they open. A row stays a branch only where its first child
/// follows: rows cut from a longer list (a page of the tree) end with
/// their last row, their branches whose children are on the next page
/// becoming leaves.
pub fn close_branches(rows: &mut [TreeRow]) {
    for i in 0..rows.len() {
        let next = rows.get(i + 1).map(|r| r.depth);
        let row = &mut rows[i];
        row.branch &= next.is_some_and(|d| d > row.depth);
        row.close = row.depth + usize::from(row.branch) - next.unwrap_or(0);
    }
}

/// Every position of the ontology's (slug-sorted) entity list, in the
/// natural order of the entities' names (`leaf 2` before `leaf 10`), equal
/// names in slug order: how OLS and Protégé list terms, and how browsing
/// and the hierarchy list them.
pub fn name_order(ontology: &Ontology) -> Vec<u32> {
    let entities = &ontology.entities;
    let mut order: Vec<u32> = (0..entities.len() as u32).collect();
    // A stable sort: positions are in slug order, so equal names keep it.
    order.sort_by_cached_key(|&p| natural_key(&entities[p as usize].name));
    order
}

/// Positions in the ontology's (slug-sorted) entity list.
#[derive(Debug, Default)]
pub struct Relations {
    by_iri: HashMap<String, usize>,
    children: Vec<Vec<usize>>,
    /// Every term with a statement whose object is this term, children
    /// included.
    referrers: Vec<Vec<usize>>,
    /// Each term's place in `name_order`.
    rank: Vec<u32>,
}

impl Relations {
    pub fn of(ontology: &Ontology) -> Relations {
        let entities = &ontology.entities;
        if entities.iter().all(|e| e.term.is_none()) {
            return Relations::default();
        }
        let by_iri: HashMap<String, usize> = entities
            .iter()
            .enumerate()
            .filter_map(|(i, e)| Some((e.iri.clone()?, i)))
            .collect();
        let mut children = vec![Vec::new(); entities.len()];
        let mut referrers = vec![Vec::new(); entities.len()];
        for (i, entity) in entities.iter().enumerate() {
            let Some(term) = &entity.term else { continue };
            for parent in term.hierarchy_parents() {
                if let Some(&p) = by_iri.get(parent) {
                    children[p].push(i);
                }
            }
            for triple in &term.statements {
                if let (NamedOrBlankNode::NamedNode(s), Node::NamedNode(o)) =
                    (&triple.subject, &triple.object)
                    && entity.iri.as_deref() == Some(s.as_str())
                    && let Some(&target) = by_iri.get(o.as_str())
                    && target != i
                    && referrers[target].last() != Some(&i)
                {
                    referrers[target].push(i);
                }
            }
        }
        // Each term's rank in name order, to list children by name.
        let mut rank = vec![0u32; entities.len()];
        for (at, &p) in name_order(ontology).iter().enumerate() {
            rank[p as usize] = at as u32;
        }
        for list in children.iter_mut() {
            list.dedup();
            list.sort_by_key(|&c| rank[c]);
        }
        Relations {
            by_iri,
            children,
            referrers,
            rank,
        }
    }

    /// The position of `entity` among the terms, if it is one.
    pub fn position_of(&self, entity: &Entity) -> Option<usize> {
        self.position(entity.iri.as_deref()?)
    }

    /// The position of the term `iri` names, if the site publishes it.
    pub fn position(&self, iri: &str) -> Option<usize> {
        self.by_iri.get(iri).copied()
    }

    pub fn children(&self, position: usize) -> &[usize] {
        self.children.get(position).map_or(&[], Vec::as_slice)
    }

    pub fn referrers(&self, position: usize) -> &[usize] {
        self.referrers.get(position).map_or(&[], Vec::as_slice)
    }

    /// For each of `count` positions, whether it has a published parent
    /// other than itself.
    pub fn has_parent(&self, count: usize) -> Vec<bool> {
        let mut has_parent = vec![false; count];
        for (parent, children) in self.children.iter().enumerate() {
            for &child in children {
                has_parent[child] |= child != parent;
            }
        }
        has_parent
    }

    /// Whether some term has a published parent: the site has a hierarchy.
    pub fn has_hierarchy(&self) -> bool {
        self.children.iter().any(|c| !c.is_empty())
    }

    /// The hierarchy from its roots, depth first, roots and children in
    /// name order, as rows of a nested list. A term under several parents is expanded
    /// under the first met and named again (`repeat`) under the others, so
    /// the rows are at most one per parent link; a cycle unreachable from a
    /// root is entered at its first term in slug order. A loop with a
    /// stack, not recursion: the source sets the depth.
    pub fn tree(&self, ontology: &Ontology) -> Vec<TreeRow> {
        let count = ontology.entities.len();
        let has_parent = self.has_parent(count);
        let mut expanded = vec![false; count];
        let mut placed = vec![false; count];
        let mut rows: Vec<TreeRow> = Vec::new();
        // The roots by name, then every term again: those a root does not
        // reach.
        let mut roots: Vec<usize> = (0..count).filter(|&i| !has_parent[i]).collect();
        roots.sort_by_key(|&i| self.rank.get(i).copied().unwrap_or(0));
        for start in roots.into_iter().chain(0..count) {
            if expanded[start] || self.children(start).is_empty() {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = Vec::new();
            let mut enter = |node: usize, depth: usize, stack: &mut Vec<(usize, usize)>| {
                let branch = !expanded[node] && !self.children(node).is_empty();
                rows.push(TreeRow {
                    position: node,
                    depth,
                    branch,
                    repeat: placed[node],
                    close: 0,
                });
                placed[node] = true;
                if branch {
                    expanded[node] = true;
                    stack.push((node, 0));
                }
            };
            enter(start, 0, &mut stack);
            while let Some(&(node, next)) = stack.last() {
                match self.children(node).get(next) {
                    Some(&child) => {
                        stack.last_mut().expect("a node").1 += 1;
                        let depth = stack.len();
                        enter(child, depth, &mut stack);
                    }
                    None => {
                        stack.pop();
                    }
                }
            }
        }
        close_branches(&mut rows);
        rows
    }

    /// The term's ancestors, nearest first, each once, within
    /// [`ANCESTOR_LEVELS`] levels and at most [`ANCESTORS_MAX`] of them;
    /// and whether that is all of them. Bounded so that a term's documents
    /// stay proportional to the term: a chain of 10,000 subclasses listed
    /// every ancestor of every term, a site quadratic in its depth. A cycle
    /// in the source ends where it closes.
    pub fn ancestors(&self, ontology: &Ontology, position: usize) -> (Vec<usize>, bool) {
        let mut found: Vec<usize> = Vec::new();
        let mut seen: std::collections::HashSet<usize> = std::collections::HashSet::new();
        seen.insert(position);
        let mut level = vec![position];
        let mut complete = true;
        for depth in 0.. {
            let mut next = Vec::new();
            for &at in &level {
                for parent in self.parents(ontology, at) {
                    if !seen.insert(parent) {
                        continue;
                    }
                    if depth == ANCESTOR_LEVELS || found.len() == ANCESTORS_MAX {
                        complete = false;
                        return (found, complete);
                    }
                    found.push(parent);
                    next.push(parent);
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        (found, complete)
    }

    /// The term's published parents, as the hierarchy counts them.
    fn parents<'o>(
        &'o self,
        ontology: &'o Ontology,
        position: usize,
    ) -> impl Iterator<Item = usize> + 'o {
        ontology.entities[position]
            .term
            .as_ref()
            .into_iter()
            .flat_map(|t| t.hierarchy_parents())
            .filter_map(|parent| self.position(parent))
    }

    /// The nearest [`BREADCRUMB_LEVELS`] terms of one path from a root down
    /// to the term's parent, along each term's first published parent:
    /// the breadcrumbs of its page; and the term above them where the path
    /// goes on, which the page links to as the way up.
    pub fn breadcrumbs(&self, ontology: &Ontology, position: usize) -> (Vec<usize>, Option<usize>) {
        let mut path = Vec::new();
        let mut at = position;
        let mut above = None;
        while let Some(p) = self.parents(ontology, at).next() {
            if p == position || path.contains(&p) {
                break;
            }
            if path.len() == BREADCRUMB_LEVELS {
                above = Some(p);
                break;
            }
            path.push(p);
            at = p;
        }
        path.reverse();
        (path, above)
    }
}

/// How many levels up a term's ancestor list reaches: more than real
/// ontologies are deep (10 to 40 levels).
pub const ANCESTOR_LEVELS: usize = 64;
/// How many ancestors a term's list holds at most.
pub const ANCESTORS_MAX: usize = 256;
/// How many terms a page's breadcrumbs show, the nearest ones; a link
/// leads further up.
pub const BREADCRUMB_LEVELS: usize = 12;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{OntologyMeta, Origin, Slug, Term};

    /// Terms `a`..`z` by slug, each with the parents given.
    fn ontology(terms: &[(&str, &[&str])]) -> Ontology {
        let iri = |slug: &str| format!("https://t.test/{slug}");
        let entities = terms
            .iter()
            .map(|(slug, parents)| Entity {
                id: iri(slug),
                slug: Slug::parse(slug).unwrap(),
                name: slug.to_string(),
                description: String::new(),
                iri: Some(iri(slug)),
                extra: Default::default(),
                link_names: Default::default(),
                term: Some(Box::new(Term {
                    parents: parents.iter().map(|p| iri(p)).collect(),
                    ..Term::default()
                })),
                origin: Origin {
                    path: std::path::Path::new("t.ttl").into(),
                    line: None,
                },
            })
            .collect();
        Ontology {
            meta: OntologyMeta::for_test("Term", ""),
            entities,
        }
    }

    /// `(slug, depth, branch, repeat, close)` of each row.
    fn rows(terms: &[(&str, &[&str])]) -> Vec<(String, usize, bool, bool, usize)> {
        let ontology = ontology(terms);
        Relations::of(&ontology)
            .tree(&ontology)
            .into_iter()
            .map(|r| {
                let slug = ontology.entities[r.position].slug.to_string();
                (slug, r.depth, r.branch, r.repeat, r.close)
            })
            .collect()
    }

    #[test]
    fn the_tree_expands_each_term_once_and_survives_cycles() {
        // a > b > d, a > c > d (d twice), e alone, x <-> y a cycle.
        let terms: &[(&str, &[&str])] = &[
            ("a", &[]),
            ("b", &["a"]),
            ("c", &["a"]),
            ("d", &["b", "c"]),
            ("e", &[]),
            ("x", &["y"]),
            ("y", &["x"]),
        ];
        let row =
            |s: &str, depth, branch, repeat, close| (s.to_owned(), depth, branch, repeat, close);
        assert_eq!(
            rows(terms),
            [
                row("a", 0, true, false, 0),
                row("b", 1, true, false, 0),
                row("d", 2, false, false, 1),
                row("c", 1, true, false, 0),
                row("d", 2, false, true, 2),
                row("x", 0, true, false, 0),
                row("y", 1, true, false, 0),
                row("x", 2, false, true, 2),
            ]
        );
        // A chain as deep as the input makes it, without recursion.
        let slugs: Vec<String> = (0..100_000).map(|n| format!("t{n}")).collect();
        let parents: Vec<[&str; 1]> = slugs.iter().map(|s| [s.as_str()]).collect();
        let chain: Vec<(&str, &[&str])> = (0..slugs.len())
            .map(|n| {
                let own: &[&str] = if n == 0 { &[] } else { &parents[n - 1] };
                (slugs[n].as_str(), own)
            })
            .collect();
        let found = rows(&chain);
        assert_eq!(found.len(), 100_000);
        assert_eq!(found.last().unwrap().4, 99_999);
    }

    #[test]
    fn roots_and_children_are_listed_by_name_in_natural_order() {
        let mut ontology = ontology(&[
            ("a", &[]),
            ("b", &["a"]),
            ("c", &["a"]),
            ("d", &["a"]),
            ("e", &[]),
            ("f", &[]),
        ]);
        let names = ["root", "leaf 10", "Leaf 2", "apex", "Zulu", "alpha"];
        for (entity, name) in ontology.entities.iter_mut().zip(names) {
            entity.name = name.to_owned();
        }
        let relations = Relations::of(&ontology);
        let named = |list: Vec<usize>| -> Vec<&str> {
            list.iter()
                .map(|&p| ontology.entities[p].name.as_str())
                .collect()
        };
        assert_eq!(
            named(relations.children(0).to_vec()),
            ["apex", "Leaf 2", "leaf 10"]
        );
        let roots = relations
            .tree(&ontology)
            .into_iter()
            .filter(|r| r.depth == 0)
            .map(|r| r.position)
            .collect();
        // Only roots with children are rows of the tree.
        assert_eq!(named(roots), ["root"]);
        let order: Vec<usize> = name_order(&ontology).iter().map(|&p| p as usize).collect();
        assert_eq!(
            named(order),
            ["alpha", "apex", "Leaf 2", "leaf 10", "root", "Zulu"]
        );
    }

    #[test]
    fn a_genus_is_a_parent_in_the_hierarchy() {
        let mut ontology = ontology(&[("a", &[]), ("b", &[]), ("c", &["a"])]);
        // b is defined as an intersection whose genus is a.
        ontology.entities[1].term.as_mut().unwrap().genus = vec!["https://t.test/a".to_owned()];
        let relations = Relations::of(&ontology);
        assert_eq!(relations.children(0), [1, 2]);
        assert_eq!(relations.breadcrumbs(&ontology, 1), (vec![0], None));
        assert_eq!(relations.ancestors(&ontology, 1), (vec![0], true));
    }

    #[test]
    fn ancestors_and_breadcrumbs_stay_bounded_in_a_deep_chain() {
        // t000 > t001 > ... > t199: each term the subclass of the one before.
        let slugs: Vec<String> = (0..200).map(|i| format!("t{i:03}")).collect();
        let parents: Vec<Vec<&str>> = (0..200)
            .map(|i| {
                if i == 0 {
                    vec![]
                } else {
                    vec![slugs[i - 1].as_str()]
                }
            })
            .collect();
        let terms: Vec<(&str, &[&str])> = slugs
            .iter()
            .zip(&parents)
            .map(|(s, p)| (s.as_str(), p.as_slice()))
            .collect();
        let ontology = ontology(&terms);
        let relations = Relations::of(&ontology);
        let (ancestors, complete) = relations.ancestors(&ontology, 199);
        assert_eq!(ancestors.len(), ANCESTOR_LEVELS);
        assert_eq!(ancestors[0], 198, "nearest first");
        assert!(!complete);
        assert_eq!(
            relations.ancestors(&ontology, 64),
            ((0..64).rev().collect(), true)
        );
        let (path, above) = relations.breadcrumbs(&ontology, 199);
        assert_eq!(path, (199 - BREADCRUMB_LEVELS..199).collect::<Vec<_>>());
        assert_eq!(above, Some(199 - BREADCRUMB_LEVELS - 1));
        assert_eq!(
            relations.breadcrumbs(&ontology, 5),
            ((0..5).collect(), None)
        );
    }
}
