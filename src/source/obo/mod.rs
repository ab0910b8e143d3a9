//! OBO flat files (1.2 and 1.4), read by fastobo and stated as the triples
//! the OBO-to-OWL mapping gives them (the OBO 1.4 specification, section
//! 5, as the OBO Foundry's tools publish OWL), so that an OBO ontology and
//! its OWL release become the same terms.
//!
//! Tags the mapping names become its properties (`name` → `rdfs:label`,
//! `def` → `IAO:0000115` with its cross-references on an axiom, `is_a` →
//! `rdfs:subClassOf`, `relationship` → an existential restriction, ...);
//! every other tag becomes `oboInOwl:{tag}` with its value as text, as the
//! specification says for tags it does not name: nothing is dropped.
//!
//! fastobo reads a whole file and stops at its first error; real releases
//! hold what its grammar refuses (OBO 1.2's tags and escapes) and what it
//! panics on (a comment line inside a stanza). So `stanza` lays the file
//! out first, fastobo parses each stanza (each line, where the stanza
//! fails), inside `guard`, and a line it refuses is read leniently or
//! reported at its line and column, every one of them (up to a cap).

mod mapping;
mod stanza;

use super::diagnostic::{Diagnostic, FileProblems, parser_failed};
use super::graph::Graph;
use super::guard::{Panicked, guarded};
use fastobo::ast::{
    HeaderClause, HeaderFrame, Ident, InstanceClause, InstanceFrame, Line, TermClause, TermFrame,
    TypedefClause, TypedefFrame,
};
use fastobo::error::SyntaxError;
use fastobo::parser::{Cache, FromPair};
use fastobo::syntax::{Lexer, Rule};
use stanza::{Lenient, SourceLine, Stanza, StanzaKind};
use std::path::Path;
use std::str::FromStr;

/// Reads the OBO file `path` into `graph`; returns every problem found.
pub fn read(path: &Path, graph: &mut Graph) -> Vec<Diagnostic> {
    let text = match super::text::read(path) {
        Ok(text) => text,
        Err(problem) => return vec![problem],
    };
    let mut problems = FileProblems::new(path);
    let document = parse(path, &text, &mut problems);
    if problems.is_empty() {
        mapping::emit(&document, graph);
        graph.notes.extend(document.notes);
    }
    problems.into_vec()
}

/// An OBO document as the mapping needs it.
#[derive(Debug, Default)]
struct Document {
    header: Vec<HeaderClause>,
    frames: Vec<Frame>,
    /// What was read more leniently than a reader of the specification
    /// would, said as notes (a text's inner quotes).
    notes: Vec<Diagnostic>,
}

/// A stanza: its kind, its ID, its clauses in the order written.
#[derive(Debug)]
struct Frame {
    kind: StanzaKind,
    id: Ident,
    clauses: Vec<Clause>,
}

#[derive(Debug)]
enum Clause {
    Term(TermClause),
    Typedef(TypedefClause),
    Instance(InstanceClause),
    Lenient(Lenient),
}

/// Parses the laid-out `text`, every problem into `problems`.
fn parse(path: &Path, text: &str, problems: &mut FileProblems) -> Document {
    let layout = stanza::lay_out(text);
    let mut document = Document::default();
    for line in &layout.header {
        let text = format!("{}\n", line.text);
        match settle(guarded(|| HeaderFrame::from_str(&text)), line, 0) {
            Ok(frame) => document.header.extend(frame),
            Err(failure) => problems.push(failure.diagnostic(path)),
        }
    }
    for stanza in &layout.stanzas {
        let Some(kind) = stanza.kind else {
            problems.push(
                Diagnostic::new(
                    path,
                    format!("`[{}]` is not a kind of stanza OBO has", stanza.name),
                    "OBO 1.4 has [Term], [Typedef] and [Instance] stanzas: rename this one or remove it",
                )
                .at(Some(stanza.opened_at), Some(1)),
            );
            continue;
        };
        if let Some(frame) = parse_stanza(path, kind, stanza, problems, &mut document.notes) {
            document.frames.push(frame);
        }
    }
    document
}

/// A stanza in one parse when fastobo takes it whole (nearly always),
/// else line by line.
fn parse_stanza(
    path: &Path,
    kind: StanzaKind,
    stanza: &Stanza,
    problems: &mut FileProblems,
    notes: &mut Vec<Diagnostic>,
) -> Option<Frame> {
    let mut whole = String::from(kind.opening());
    whole.push('\n');
    for line in &stanza.lines {
        whole.push_str(line.text);
        whole.push('\n');
    }
    if let Ok(Ok(frame)) = guarded(|| frame_of(kind, &whole)) {
        return Some(frame);
    }
    let id_line = stanza
        .lines
        .iter()
        .find(|line| line.tag_and_value().is_some_and(|(tag, _)| tag == "id"));
    let Some(id_line) = id_line else {
        problems.push(
            Diagnostic::new(
                path,
                format!("this {} stanza has no `id:` line", kind.opening()),
                "give the stanza its ID on the line after its opening: `id: PREFIX:0000001`",
            )
            .at(Some(stanza.opened_at), Some(1)),
        );
        return None;
    };
    let id = match parse_id(id_line) {
        Ok(id) => Some(id),
        Err(failure) => {
            problems.push(failure.diagnostic(path));
            None
        }
    };
    // Every line is read, even under a bad ID, so that one run reports
    // all the problems of the stanza.
    let mut clauses = Vec::new();
    for line in &stanza.lines {
        if std::ptr::eq(line, id_line) {
            continue;
        }
        match parse_clause(kind, line) {
            Ok(clause) => clauses.push(clause),
            Err(failure) => {
                let loose = line
                    .tag_and_value()
                    .and_then(|(tag, value)| stanza::lenient(kind, tag, value));
                match loose {
                    Some(clause) => {
                        if clause.inner_quotes() {
                            notes.push(
                                Diagnostic::new(
                                    path,
                                    "the quotes inside this text are not escaped; they were read as part of it, up to the quote the rest of the line follows",
                                    "escape each quote inside a quoted text as \\\" so that every OBO reader takes the line",
                                )
                                .at(Some(line.number), Some(1)),
                            );
                        }
                        clauses.push(Clause::Lenient(clause));
                    }
                    None => problems.push(failure.diagnostic(path)),
                }
            }
        }
    }
    Some(Frame {
        kind,
        id: id?,
        clauses,
    })
}

/// The ID of an `id:` line, without its comment or qualifiers.
fn parse_id(line: &SourceLine) -> Result<Ident, Failure> {
    let value = line.tag_and_value().map_or("", |(_, value)| value);
    let value = stanza::without_trailers(value);
    // Where the value starts, for the column of an error in it.
    let offset = line.text.len() - line.text.trim_start().len()
        + line.text.trim_start().find(value).unwrap_or(0);
    let parsed = guarded(|| Ident::from_str(value));
    settle(parsed, line, offset)
}

/// One clause line, with its comment and qualifiers, as the grammar's
/// `{Term,Typedef,Instance}ClauseLine` reads it.
fn parse_clause(kind: StanzaKind, line: &SourceLine) -> Result<Clause, Failure> {
    fn read<T: for<'i> FromPair<'i>>(rule: Rule, text: &str) -> Result<T, SyntaxError> {
        let mut pairs = Lexer::tokenize_all(rule, text)?;
        match pairs.next() {
            Some(pair) => T::from_pair(pair, &Cache::default()),
            None => Err(SyntaxError::UnexpectedRule {
                expected: rule,
                actual: Rule::EOI,
            }),
        }
    }
    let text = format!("{}\n", line.text);
    let parsed = guarded(|| match kind {
        StanzaKind::Term => read::<Line<TermClause>>(Rule::TermClauseLine, &text)
            .map(|l| Clause::Term(l.into_inner())),
        StanzaKind::Typedef => read::<Line<TypedefClause>>(Rule::TypedefClauseLine, &text)
            .map(|l| Clause::Typedef(l.into_inner())),
        StanzaKind::Instance => read::<Line<InstanceClause>>(Rule::InstanceClauseLine, &text)
            .map(|l| Clause::Instance(l.into_inner())),
    });
    settle(parsed, line, 0)
}

/// A stanza's text parsed by fastobo into a frame.
fn frame_of(kind: StanzaKind, text: &str) -> Result<Frame, SyntaxError> {
    /// One kind of fastobo frame as a `Frame`: its ID, its clauses each
    /// wrapped as `clause` says.
    fn read<F, C>(
        kind: StanzaKind,
        text: &str,
        id: fn(&F) -> Ident,
        clause: fn(C) -> Clause,
    ) -> Result<Frame, SyntaxError>
    where
        F: FromStr<Err = SyntaxError> + IntoIterator<Item = Line<C>>,
    {
        let frame = F::from_str(text)?;
        Ok(Frame {
            kind,
            id: id(&frame),
            clauses: frame.into_iter().map(|l| clause(l.into_inner())).collect(),
        })
    }
    match kind {
        StanzaKind::Term => read::<TermFrame, _>(
            kind,
            text,
            |f| f.id().as_inner().as_id().clone(),
            Clause::Term,
        ),
        StanzaKind::Typedef => read::<TypedefFrame, _>(
            kind,
            text,
            |f| f.id().as_inner().as_id().clone(),
            Clause::Typedef,
        ),
        StanzaKind::Instance => read::<InstanceFrame, _>(
            kind,
            text,
            |f| f.id().as_inner().as_id().clone(),
            Clause::Instance,
        ),
    }
}

/// Why fastobo did not take a line: its syntax error (the column on the
/// line, when it points there) or its panic.
struct Failure {
    line: usize,
    column: Option<usize>,
    message: String,
    panicked: bool,
}

/// `offset` is where on the line the text fastobo read starts, in bytes.
fn settle<T>(
    parsed: Result<Result<T, SyntaxError>, Panicked>,
    line: &SourceLine,
    offset: usize,
) -> Result<T, Failure> {
    use fastobo::syntax::pest::error::LineColLocation;
    match parsed {
        Ok(Ok(parsed)) => Ok(parsed),
        Ok(Err(SyntaxError::ParserError { error })) => {
            let (read_line, column) = match error.line_col {
                LineColLocation::Pos(place) | LineColLocation::Span(place, _) => place,
            };
            let prefix = line.text.get(..offset).map_or(0, |p| p.chars().count());
            // Past the end of the line (the newline fastobo was given):
            // where the line ends.
            let column = if read_line == 1 {
                prefix + column
            } else {
                line.text.chars().count() + 1
            };
            Err(Failure {
                line: line.number,
                column: Some(column),
                message: match error.variant.message() {
                    // fastobo's word for text after a complete value.
                    m if m == "remaining input" => {
                        "OBO syntax error: unexpected text after the value".to_owned()
                    }
                    m => format!("OBO syntax error: {m}"),
                },
                panicked: false,
            })
        }
        Ok(Err(other)) => Err(Failure {
            line: line.number,
            column: None,
            message: format!("OBO error: {other}"),
            panicked: false,
        }),
        Err(Panicked(message)) => Err(Failure {
            line: line.number,
            column: None,
            message,
            panicked: true,
        }),
    }
}

impl Failure {
    fn diagnostic(self, path: &Path) -> Diagnostic {
        let diagnostic = if self.panicked {
            parser_failed(path, "the OBO parser (fastobo)", &self.message)
        } else {
            Diagnostic::new(
                path,
                self.message,
                "fix the OBO at that place: see the OBO 1.4 flat file format (https://owlcollab.github.io/oboformat/doc/obo-syntax.html)",
            )
        };
        diagnostic.at(Some(self.line), self.column)
    }
}
