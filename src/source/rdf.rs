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
    let mut file = file;
    // A byte order mark, which Windows editors write, is no Turtle token:
    // skipped, as the JSON, OBO and table readers and XML do.
    if format != RdfFormat::RdfXml {
        use std::io::BufRead;
        if file
            .fill_buf()
            .is_ok_and(|start| start.starts_with(b"\xEF\xBB\xBF"))
        {
            file.consume(3);
        }
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
        let nul = std::rc::Rc::new(std::cell::Cell::new(None));
        let mut triples = parser.for_reader(NoNul {
            inner: file,
            read: 0,
            found: std::rc::Rc::clone(&nul),
        });
        while let Some(result) = triples.next() {
            match result {
                Ok(triple) => blanks.add(triple, graph),
                Err(e) => {
                    if let Some(offset) = nul.get() {
                        let (line, column) = place_of_byte(path, offset);
                        problems.push(
                            Diagnostic::new(
                                path,
                                "RDF/XML refused: it holds a NUL character, which XML forbids anywhere",
                                "remove the NUL byte (a file cut short or written by a faulty tool often holds them)",
                            )
                            .at(Some(line), Some(column)),
                        );
                        break;
                    }
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
                problems.push(unreadable(path, format, &e));
                break;
            }
        }
    }
    for (name, namespace) in quads.prefixes() {
        graph.declare(name, namespace);
    }
}

/// A reader that fails at the first NUL byte, recording its offset: XML
/// forbids the character anywhere, and the XML reader let it through into
/// literals.
struct NoNul<R> {
    inner: R,
    read: u64,
    found: std::rc::Rc<std::cell::Cell<Option<u64>>>,
}

impl<R: Read> Read for NoNul<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(at) = buf[..n].iter().position(|&b| b == 0) {
            self.found.set(Some(self.read + at as u64));
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "a NUL character",
            ));
        }
        self.read += n as u64;
        Ok(n)
    }
}

/// What stopped the parser's reading: a token longer than its buffer (a
/// literal or IRI of over 16 MiB), placed at the first line that long, or
/// the file itself.
fn unreadable(path: &Path, format: RdfFormat, error: &std::io::Error) -> Diagnostic {
    if error.kind() == std::io::ErrorKind::OutOfMemory {
        let (line, column) =
            long_line(path, MAX_TOKEN).map_or((None, None), |l| (Some(l), Some(1)));
        return Diagnostic::new(
            path,
            format!(
                "a single literal or IRI is longer than the {} parser holds ({} MiB)",
                format.name(),
                MAX_TOKEN >> 20
            ),
            "shorten it, or move such text out of the ontology (a file beside it, linked by IRI)",
        )
        .at(line, column);
    }
    Diagnostic::new(
        path,
        format!("cannot be read: {error}"),
        "check that the file is readable",
    )
}

/// The most the Turtle family's parsers hold of one token.
const MAX_TOKEN: usize = 16 << 20;

/// The number of the first line of `path` longer than `max` bytes.
fn long_line(path: &Path, max: usize) -> Option<usize> {
    use std::io::BufRead;
    let mut reader = BufReader::new(std::fs::File::open(path).ok()?);
    let (mut line, mut length) = (1, 0usize);
    loop {
        let chunk = reader.fill_buf().ok()?;
        if chunk.is_empty() {
            return None;
        }
        let read = chunk.len();
        for &byte in chunk {
            if byte == b'\n' {
                line += 1;
                length = 0;
            } else {
                length += 1;
                if length > max {
                    return Some(line);
                }
            }
        }
        reader.consume(read);
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
