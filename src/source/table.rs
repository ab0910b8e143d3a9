//! CSV and TSV sources: one term a row, read by the csv crate and stated
//! as triples by the column mapping of `ontology.json`'s `table`.
//!
//! The mapping names the column that holds each row's IRI (or its local
//! part, with `namespace`), the type every row has, and a predicate for
//! every other column; a column it does not map, and does not list in
//! `ignore`, is an error: nothing is left out silently.

use super::diagnostic::{Diagnostic, parser_failed};
use super::graph::Graph;
use super::guard::{Panicked, guarded};
use super::terms::expand;
use oxrdf::{Literal, NamedNode, NamedOrBlankNode, Term, Triple};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// `ontology.json`'s `table`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableMapping {
    /// The column holding each row's IRI.
    pub iri: String,
    /// Put before the IRI column's values, when they are local names.
    pub namespace: Option<String>,
    /// The type of every row (`owl:Class` unless given).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Column name → how its values are stated.
    pub columns: BTreeMap<String, ColumnRule>,
    /// Columns left out on purpose.
    #[serde(default)]
    pub ignore: Vec<String>,
}

/// A column's predicate, with how to split and read its values.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum ColumnRule {
    Predicate(String),
    Full(Column),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Column {
    pub predicate: String,
    /// Splits a cell into several values (`|`).
    pub separator: Option<String>,
    /// The values are IRIs (or local names, with `namespace`), not text.
    #[serde(default)]
    pub iri: bool,
    /// The language of its text.
    pub language: Option<String>,
    /// The datatype of its values (`xsd:boolean`).
    pub datatype: Option<String>,
}

impl ColumnRule {
    fn column(&self) -> Column {
        match self {
            ColumnRule::Predicate(predicate) => Column {
                predicate: predicate.clone(),
                separator: None,
                iri: false,
                language: None,
                datatype: None,
            },
            ColumnRule::Full(column) => column.clone(),
        }
    }
}

/// Checks a mapping; the problems say which key is wrong.
pub fn check(mapping: &TableMapping) -> Vec<String> {
    let mut problems = Vec::new();
    let known = |term: &str, what: String, problems: &mut Vec<String>| {
        if expand(term).is_none() {
            problems.push(format!(
                "{what} `{term}` is neither an IRI nor a known prefixed name"
            ));
        }
    };
    if let Some(kind) = &mapping.kind {
        known(kind, "`table.type`".into(), &mut problems);
    }
    if let Some(namespace) = &mapping.namespace
        && NamedNode::new(namespace.as_str()).is_err()
    {
        problems.push(format!(
            "`table.namespace` `{namespace}` is not an absolute IRI"
        ));
    }
    for (name, rule) in &mapping.columns {
        let column = rule.column();
        known(
            &column.predicate,
            format!("`table.columns.{name}`: the predicate"),
            &mut problems,
        );
        if let Some(datatype) = &column.datatype {
            known(
                datatype,
                format!("`table.columns.{name}`: the datatype"),
                &mut problems,
            );
        }
        if let Some(language) = &column.language
            && Literal::new_language_tagged_literal("", language).is_err()
        {
            problems.push(format!(
                "`table.columns.{name}`: `{language}` is not a language tag"
            ));
        }
    }
    problems
}

/// Reads the table `path` (TSV for `.tsv`, else CSV) into `graph`. Every
/// row's problems are returned, each at its line and column.
pub fn read(path: &Path, mapping: &TableMapping, graph: &mut Graph) -> Vec<Diagnostic> {
    guarded(|| read_rows(path, mapping, graph))
        .unwrap_or_else(|Panicked(message)| vec![parser_failed(path, "the CSV reader", &message)])
}

fn read_rows(path: &Path, mapping: &TableMapping, graph: &mut Graph) -> Vec<Diagnostic> {
    let (mut reader, headers) = match open(path) {
        Ok(opened) => opened,
        Err(problem) => return vec![problem],
    };
    let (iri_column, rules) = match column_rules(path, mapping, &headers) {
        Ok(found) => found,
        Err(problems) => return problems,
    };
    let mut problems = Vec::new();
    let kind = NamedNode::new_unchecked(
        expand(mapping.kind.as_deref().unwrap_or("owl:Class")).expect("checked"),
    );
    let rdf_type = NamedNode::new_unchecked("http://www.w3.org/1999/02/22-rdf-syntax-ns#type");
    let iri_of = |value: &str| -> Result<NamedNode, String> {
        let text = format!("{}{value}", mapping.namespace.as_deref().unwrap_or(""));
        NamedNode::new(text.as_str()).map_err(|e| format!("`{text}` is not an IRI: {e}"))
    };
    for record in reader.records() {
        let record = match record {
            Ok(record) => record,
            Err(e) => {
                problems.push(csv_error(path, &e));
                continue;
            }
        };
        let line = record.position().map(|p| p.line() as usize);
        let at = |column: usize, message: String, help: &str| {
            Diagnostic::new(path, message, help).at(line, Some(column + 1))
        };
        let subject = match record.get(iri_column).map(str::trim) {
            Some("") | None => {
                problems.push(at(
                    iri_column,
                    "the row has no IRI".into(),
                    "give every row an IRI, or remove the row",
                ));
                continue;
            }
            Some(value) => match iri_of(value) {
                Ok(iri) => NamedOrBlankNode::from(iri),
                Err(e) => {
                    problems.push(at(
                        iri_column,
                        e,
                        "write an absolute IRI, or set `table.namespace` for local names",
                    ));
                    continue;
                }
            },
        };
        graph.push(Triple::new(subject.clone(), rdf_type.clone(), kind.clone()));
        for (i, cell) in record.iter().enumerate() {
            let Some(Some(rule)) = rules.get(i) else {
                continue;
            };
            let predicate = NamedNode::new_unchecked(expand(&rule.predicate).expect("checked"));
            let values: Vec<&str> = match &rule.separator {
                Some(separator) => cell.split(separator.as_str()).collect(),
                None => vec![cell],
            };
            for value in values.into_iter().map(str::trim).filter(|v| !v.is_empty()) {
                match cell_object(rule, value, &iri_of) {
                    Ok(object) => {
                        graph.push(Triple::new(subject.clone(), predicate.clone(), object))
                    }
                    Err(e) => problems.push(at(
                        i,
                        e,
                        "write IRIs in this column, or leave `iri` out of its rule to read text",
                    )),
                }
            }
        }
    }
    problems
}

/// A reader of the table at `path` (tab-separated where its extension
/// says so), and its header line.
fn open(path: &Path) -> Result<(csv::Reader<std::fs::File>, csv::StringRecord), Diagnostic> {
    let tsv = path
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("tsv"));
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(if tsv { b'\t' } else { b',' })
        .from_path(path)
        .map_err(|e| {
            Diagnostic::new(
                path,
                format!("cannot be read: {e}"),
                "check that the file exists and is readable",
            )
        })?;
    let headers = reader.headers().map_err(|e| csv_error(path, &e))?.clone();
    Ok((reader, headers))
}

/// The position of the IRI column and each column's rule, by position,
/// from the header line; every column but the IRI and the ignored ones
/// must have a rule, and every rule a column.
fn column_rules(
    path: &Path,
    mapping: &TableMapping,
    headers: &csv::StringRecord,
) -> Result<(usize, Vec<Option<Column>>), Vec<Diagnostic>> {
    let mut problems = Vec::new();
    let Some(iri_column) = headers.iter().position(|h| h == mapping.iri) else {
        return Err(vec![
            Diagnostic::new(
                path,
                format!("the IRI column `{}` is not in the header", mapping.iri),
                format!(
                    "name one of the columns ({}) in `table.iri`",
                    headers.iter().collect::<Vec<_>>().join(", ")
                ),
            )
            .at(Some(1), None),
        ]);
    };
    // Each column's rule, by position; every column must have one. Sets,
    // so that 60,000 columns and as many ignored take time in proportion
    // (a list's scan per column took 24 s).
    let ignored: std::collections::HashSet<&str> =
        mapping.ignore.iter().map(String::as_str).collect();
    let named: std::collections::HashSet<&str> = headers.iter().collect();
    let mut rules: Vec<Option<Column>> = Vec::new();
    for (i, header) in headers.iter().enumerate() {
        let rule = mapping.columns.get(header).map(ColumnRule::column);
        if rule.is_none() && i != iri_column && !ignored.contains(header) {
            problems.push(
                Diagnostic::new(
                    path,
                    format!("the column `{header}` is not mapped"),
                    "give it a predicate in `table.columns`, or list it in `table.ignore` to leave it out",
                )
                .at(Some(1), Some(i + 1)),
            );
        }
        rules.push(rule);
    }
    for name in mapping.columns.keys() {
        if !named.contains(name.as_str()) {
            problems.push(
                Diagnostic::new(
                    path,
                    format!("`table.columns` maps `{name}`, which is not a column of this file"),
                    "check the spelling against the header line",
                )
                .at(Some(1), None),
            );
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok((iri_column, rules))
}

/// A cell's value as its column's rule reads it: an IRI, a literal in the
/// column's language or datatype, or plain text.
fn cell_object(
    rule: &Column,
    value: &str,
    iri_of: &dyn Fn(&str) -> Result<NamedNode, String>,
) -> Result<Term, String> {
    Ok(if rule.iri {
        iri_of(value)?.into()
    } else if let Some(language) = &rule.language {
        Literal::new_language_tagged_literal_unchecked(value, language.to_ascii_lowercase()).into()
    } else if let Some(datatype) = &rule.datatype {
        let datatype = NamedNode::new_unchecked(expand(datatype).expect("checked"));
        Literal::new_typed_literal(boolean_or(value, &datatype), datatype).into()
    } else {
        Literal::new_simple_literal(value).into()
    })
}

/// Booleans as spreadsheets write them (`TRUE`, `False`), in the form
/// `xsd:boolean` has; other values as they are.
fn boolean_or(value: &str, datatype: &NamedNode) -> String {
    if datatype.as_str() == "http://www.w3.org/2001/XMLSchema#boolean" {
        match value.to_ascii_lowercase().as_str() {
            "true" => return "true".into(),
            "false" => return "false".into(),
            _ => {}
        }
    }
    value.to_owned()
}

fn csv_error(path: &Path, error: &csv::Error) -> Diagnostic {
    let line = error.position().map(|p| p.line() as usize);
    Diagnostic::new(
        path,
        format!("cannot be read as a table: {error}"),
        "save it as UTF-8 CSV (or TSV with a .tsv name), every row with as many cells as the header",
    )
    .at(line, None)
}
