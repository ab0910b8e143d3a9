//! The triples every ontology reader (RDF, OBO, CSV) fills: one graph for
//! all sources, in the order read, so that what is made of it has one
//! order too.

use oxrdf::{BlankNode, Triple};
use std::path::{Path, PathBuf};

#[derive(Debug, Default)]
pub struct Graph {
    pub triples: Vec<Triple>,
    /// Each source file and the position of its first triple, in order.
    files: Vec<(usize, PathBuf)>,
    blank_nodes: usize,
    /// The prefixes the sources declare, each name once (the first file to
    /// declare it wins), in the order met.
    pub prefixes: Vec<(String, String)>,
    /// The names among them: a source of 30,000 prefixes took minutes
    /// with a list's scan per declaration.
    prefix_names: std::collections::HashSet<String>,
    /// What a reader took more leniently than its format's specification
    /// allows, said as notes beside the advice (never errors: the data
    /// read is what the file means).
    pub notes: Vec<super::diagnostic::Diagnostic>,
}

impl Graph {
    /// Marks where the triples of `path` start.
    pub fn start_file(&mut self, path: &Path) {
        self.files.push((self.triples.len(), path.to_owned()));
    }

    pub fn push(&mut self, triple: Triple) {
        self.triples.push(triple);
    }

    /// A blank node no other source uses, named by a counter so that the
    /// same input names it the same.
    pub fn new_blank_node(&mut self) -> BlankNode {
        let node = BlankNode::new_unchecked(format!("b{}", self.blank_nodes));
        self.blank_nodes += 1;
        node
    }

    /// Keeps a prefix a source declares, unless the name is taken.
    pub fn declare(&mut self, name: &str, namespace: &str) {
        if !self.prefix_names.contains(name) {
            self.prefix_names.insert(name.to_owned());
            self.prefixes.push((name.to_owned(), namespace.to_owned()));
        }
    }

    /// The file the triple at `position` was read from.
    pub fn file_of(&self, position: usize) -> &Path {
        let at = self.files.partition_point(|(start, _)| *start <= position);
        self.files
            .get(at.saturating_sub(1))
            .map_or(Path::new(""), |(_, path)| path)
    }
}
