//! RDF sources: Turtle, N-Triples, N-Quads, TriG, RDF/XML (OWL as
//! published) and JSON-LD, read by the Oxigraph parsers as a stream of
//! triples, never held as text.
//!
//! Named graphs are merged into one graph: an ontology's terms are what is
//! published, not where in a data set they were stated.

use super::diagnostic::{Diagnostic, FileProblems, parser_failed};
use super::graph::Graph;
use super::guard::{Panicked, guarded};
use oxrdf::{BlankNode, NamedOrBlankNode, Term, Triple};
use oxrdfio::{RdfFormat, RdfParseError, RdfParser};
use std::collections::HashMap;
use std::io::{BufReader, Read};
use std::path::Path;

/// The RDF syntax of a file, by its extension; `.owl` is RDF/XML, as OWL
/// files are published.
pub fn format_of(path: &Path) -> Option<RdfFormat> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "ttl" => Some(RdfFormat::Turtle),
        "nt" => Some(RdfFormat::NTriples),
        "nq" => Some(RdfFormat::NQuads),
        "trig" => Some(RdfFormat::TriG),
        "rdf" | "owl" => Some(RdfFormat::RdfXml),
        "jsonld" => Some(RdfFormat::JsonLd {
            profile: oxrdfio::JsonLdProfileSet::empty(),
        }),
        _ => None,
    }
}

/// Reads the RDF file `path` into `graph`, resolving relative IRIs against
/// `base`. Every syntax error is returned (up to a cap a file), each at
/// its line and column.
pub fn read(path: &Path, format: RdfFormat, base: &str, graph: &mut Graph) -> Vec<Diagnostic> {
    let file = match std::fs::File::open(path) {
        Ok(file) => BufReader::with_capacity(1 << 16, file),
        Err(e) => {
            return vec![Diagnostic::new(
                path,
                format!("cannot be read: {e}"),
                "check that the file exists and is readable",
            )];
        }
    };
    // The XML reader expands DTD entities as it declares them: their
    // sizes are bounded before it sees the file.
    if format == RdfFormat::RdfXml
        && let Some(problem) = super::dtd::check(path)
    {
        return vec![problem];
    }
    let mut problems = FileProblems::new(path);
    let parsed = guarded(|| parse(path, format, base, file, graph, &mut problems));
    if let Err(Panicked(message)) = parsed {
        problems.push(parser_failed(path, "the RDF parser (Oxigraph's)", &message));
    }
    problems.into_vec()
}

/// Parses `file` into `graph`, every syntax error into `problems`.
fn parse(
    path: &Path,
    format: RdfFormat,
    base: &str,
    file: BufReader<std::fs::File>,
    graph: &mut Graph,
    problems: &mut FileProblems,
) {
    let mut blanks = BlankNodes::default();
    if format == RdfFormat::RdfXml {
        // Read with oxrdfxml itself: its reader knows the byte where an
        // error stopped it, which oxrdfio does not pass on.
        let parser = oxrdfxml::RdfXmlParser::new()
            .with_base_iri(base)
            .expect("the base URL is an IRI");
        let mut triples = parser.for_reader(file);
        while let Some(result) = triples.next() {
            match result {
                Ok(triple) => blanks.add(triple, graph),
                Err(e) => {
                    let offset = triples.buffer_position();
                    let (line, column) = place_of_byte(path, offset);
                    problems
                        .push(syntax(path, "RDF/XML", &e.to_string()).at(Some(line), Some(column)));
                    // The XML reader cannot go on past a broken document.
                    break;
                }
            }
        }
        for (name, namespace) in triples.prefixes() {
            graph.declare(name, namespace);
        }
        return;
    }
    let parser = RdfParser::from_format(format)
        .with_base_iri(base)
        .expect("the base URL is an IRI");
    let mut quads = parser.for_reader(file);
    for result in quads.by_ref() {
        match result {
            Ok(quad) => blanks.add(Triple::from(quad), graph),
            Err(RdfParseError::Syntax(e)) => {
                let place = e.location().map(|range| {
                    (
                        range.start.line as usize + 1,
                        range.start.column as usize + 1,
                    )
                });
                problems.push(
                    syntax(path, format.name(), &e.to_string())
                        .at(place.map(|p| p.0), place.map(|p| p.1)),
                );
            }
            Err(RdfParseError::Io(e)) => {
                problems.push(Diagnostic::new(
                    path,
                    format!("cannot be read: {e}"),
                    "check that the file is readable and is text in UTF-8",
                ));
                break;
            }
        }
    }
    for (name, namespace) in quads.prefixes() {
        graph.declare(name, namespace);
    }
}

fn syntax(path: &Path, format: &str, message: &str) -> Diagnostic {
    // oxttl puts the place into its message ("Parser error at line 3
    // column 19: unexpected ..."); the diagnostic shows it in its own
    // place, so only what is wrong is kept.
    let message = match message.split_once(": ") {
        Some((place, what)) if place.contains(" line ") => what,
        _ => message,
    };
    Diagnostic::new(
        path,
        format!("{format} syntax error: {message}"),
        format!(
            "fix the {format} at that place; the file must be valid {format} as its extension says"
        ),
    )
}

/// The 1-based line and column (in characters) of byte `offset` of the
/// file, read again only when an error is reported.
fn place_of_byte(path: &Path, offset: u64) -> (usize, usize) {
    let mut before = Vec::new();
    if let Ok(file) = std::fs::File::open(path) {
        let _ = file.take(offset).read_to_end(&mut before);
    }
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (
        line,
        String::from_utf8_lossy(&before[start..]).chars().count() + 1,
    )
}

/// Blank nodes renamed in the order they are met (`b0`, `b1`, ...): parsers
/// name anonymous nodes at random, and the same input must give the same
/// site. Names are kept per file, numbers are the graph's, so two files'
/// `_:x` stay two nodes.
#[derive(Default)]
struct BlankNodes {
    names: HashMap<String, BlankNode>,
}

impl BlankNodes {
    fn rename(&mut self, node: BlankNode, graph: &mut Graph) -> BlankNode {
        self.names
            .entry(node.into_string())
            .or_insert_with(|| graph.new_blank_node())
            .clone()
    }

    /// Adds `triple` to `graph`, its blank nodes renamed.
    fn add(&mut self, triple: Triple, graph: &mut Graph) {
        let triple = self.relabel(triple, graph);
        graph.push(triple);
    }

    fn relabel(&mut self, triple: Triple, graph: &mut Graph) -> Triple {
        let Triple {
            subject,
            predicate,
            object,
        } = triple;
        let subject = match subject {
            NamedOrBlankNode::BlankNode(node) => self.rename(node, graph).into(),
            named => named,
        };
        let object = match object {
            Term::BlankNode(node) => self.rename(node, graph).into(),
            other => other,
        };
        Triple::new(subject, predicate, object)
    }
}
