//! How an ontology's terms link to each other: parents as the source
//! states them, and what the site computes from them for every term
//! (children, ancestors, the terms that link to it).

use crate::model::{Entity, Ontology};
use oxrdf::{NamedOrBlankNode, Term as Node};
use std::collections::HashMap;

/// Positions in the ontology's (slug-sorted) entity list.
#[derive(Debug, Default)]
pub struct Relations {
    by_iri: HashMap<String, usize>,
    children: Vec<Vec<usize>>,
    /// Every term with a statement whose object is this term, children
    /// included.
    referrers: Vec<Vec<usize>>,
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
            for parent in &term.parents {
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
        for list in children.iter_mut() {
            list.dedup();
        }
        Relations {
            by_iri,
            children,
            referrers,
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

    /// Every ancestor of the term, nearest first, each once; a cycle in the
    /// source ends where it closes.
    pub fn ancestors(&self, ontology: &Ontology, position: usize) -> Vec<usize> {
        let mut found: Vec<usize> = Vec::new();
        let mut at = 0;
        let mut queue = vec![position];
        while at < queue.len() {
            let parents = ontology.entities[queue[at]]
                .term
                .as_ref()
                .map(|t| t.parents.as_slice())
                .unwrap_or_default();
            for parent in parents {
                if let Some(p) = self.position(parent)
                    && p != position
                    && !found.contains(&p)
                {
                    found.push(p);
                    queue.push(p);
                }
            }
            at += 1;
        }
        found
    }

    /// One path from a root down to the term's parent, along each term's
    /// first published parent: the breadcrumbs of its page.
    pub fn breadcrumbs(&self, ontology: &Ontology, position: usize) -> Vec<usize> {
        let mut path = Vec::new();
        let mut at = position;
        loop {
            let first = ontology.entities[at]
                .term
                .as_ref()
                .and_then(|t| t.parents.iter().find_map(|p| self.position(p)));
            match first {
                Some(p) if p != position && !path.contains(&p) => {
                    path.push(p);
                    at = p;
                }
                _ => break,
            }
        }
        path.reverse();
        path
    }
}
