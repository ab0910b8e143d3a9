//! A bound on what an RDF/XML file's internal DTD can make a parser
//! build. OWL tools write `<!DOCTYPE rdf:RDF [ <!ENTITY owl "http://...#">
//! ]>` and the XML reader expands such entities as it declares them, so a
//! file of a few hundred bytes that nests ten entities ten times each (the
//! "billion laughs") asks for gigabytes before its first triple. Before
//! the parser sees a file, its internal subset is read here and each
//! entity's expanded size computed (nothing is expanded); a file past the
//! bounds is refused, naming the entity and its line.

use super::diagnostic::Diagnostic;
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

/// The largest expansion one entity may have, and all of them together:
/// a namespace IRI is tens of bytes; XML parsers' own defaults are of
/// this order.
const ENTITY_BYTES: u64 = 64 * 1024;
const TOTAL_BYTES: u64 = 1024 * 1024;
/// How much of a file's start is read for its DTD: a DOCTYPE that does
/// not end within it is refused.
const PROLOG_BYTES: u64 = 1024 * 1024;

/// Checks the internal DTD of the RDF/XML file `path`: None when it has
/// none or its entities stay within the bounds.
pub fn check(path: &Path) -> Option<Diagnostic> {
    let mut start = Vec::new();
    let file = std::fs::File::open(path).ok()?;
    file.take(PROLOG_BYTES).read_to_end(&mut start).ok()?;
    let text = String::from_utf8_lossy(&start);
    let doctype = text.find("<!DOCTYPE")?;
    // Only a DOCTYPE before the root element is one.
    let root = text[..doctype]
        .match_indices('<')
        .any(|(at, _)| !text[at..].starts_with("<?") && !text[at..].starts_with("<!--"));
    if root {
        return None;
    }
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let Some(subset_end) = text[doctype..].find("]>").map(|e| doctype + e) else {
        // No internal subset, or one longer than what was read.
        let closes = text[doctype..]
            .find('>')
            .map(|e| &text[doctype..doctype + e]);
        return match closes {
            Some(declaration) if !declaration.contains('[') => None,
            _ => Some(refuse(
                path,
                line_of(doctype),
                format!(
                    "its DOCTYPE does not end within its first {} MiB",
                    PROLOG_BYTES >> 20
                ),
            )),
        };
    };
    let subset = &text[doctype..subset_end];
    let mut entities: Vec<(&str, &str, usize)> = Vec::new();
    for (at, _) in subset.match_indices("<!ENTITY") {
        let rest = subset[at + "<!ENTITY".len()..].trim_start();
        if rest.starts_with('%') {
            return Some(refuse(
                path,
                line_of(doctype + at),
                "it declares a parameter entity (`<!ENTITY % ...>`), which ontosite does not read"
                    .to_owned(),
            ));
        }
        let name_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (name, after) = rest.split_at(name_end);
        let after = after.trim_start();
        let Some(quote) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            // An external entity (SYSTEM, PUBLIC) names a file or URL to
            // read in. The XML parser refuses it with a message about
            // quotes; what is wrong is what it asks for.
            let kind = after.split_whitespace().next().unwrap_or_default();
            return Some(refuse(
                path,
                line_of(doctype + at),
                format!(
                    "its DTD entity `{name}` is external (`{kind}`): a build never reads a file or URL that an input names"
                ),
            ));
        };
        let Some(end) = after[1..].find(quote) else {
            continue;
        };
        entities.push((name, &after[1..1 + end], line_of(doctype + at)));
    }
    let sizes = match too_large(&entities) {
        Ok(sizes) => sizes,
        Err((name, line, size)) => return Some(entity_refused(path, name, line, size)),
    };
    // The document after the DTD, where its references are expanded.
    let raw_doctype = start.windows(9).position(|w| w == b"<!DOCTYPE")?;
    let body = raw_doctype + start[raw_doctype..].windows(2).position(|w| w == b"]>")? + 2;
    let (line, added) = references_added(path, body as u64, &sizes, line_of(subset_end))?;
    Some(refuse(
        path,
        line,
        format!(
            "its entity references add {added} bytes by this line (at most {DOCUMENT_GROWTH} times the file's size and {} MiB more are read)",
            DOCUMENT_EXTRA_BYTES >> 20
        ),
    ))
}

/// How much entity references may add to a document beyond its own size:
/// a namespace entity used throughout an OWL file adds a few times the
/// bytes of its references; a 60 KB entity referenced 200 times in one
/// label (a 61 KB file) added 12 MB, which the site's pages repeated
/// into 373 MB.
const DOCUMENT_GROWTH: u64 = 4;
const DOCUMENT_EXTRA_BYTES: u64 = 1024 * 1024;

/// Where the references to `sizes`' entities after byte `from` of `path`
/// first add more than the document may grow, and by how much: the line
/// (counted from `first_line`, the DTD's end) and the bytes added.
fn references_added(
    path: &Path,
    from: u64,
    sizes: &HashMap<&str, u64>,
    first_line: usize,
) -> Option<(usize, u64)> {
    use std::io::{BufRead, Seek};
    let mut file = std::fs::File::open(path).ok()?;
    let bound = file
        .metadata()
        .ok()?
        .len()
        .saturating_mul(DOCUMENT_GROWTH)
        .saturating_add(DOCUMENT_EXTRA_BYTES);
    file.seek(std::io::SeekFrom::Start(from)).ok()?;
    let mut reader = std::io::BufReader::new(file);
    let (mut added, mut line) = (0u64, first_line);
    // A reference is `&name;`: the name is read up to its `;` (names
    // are short; a longer run is no reference).
    let mut name: Option<Vec<u8>> = None;
    loop {
        let chunk = reader.fill_buf().ok()?;
        if chunk.is_empty() {
            return None;
        }
        for &byte in chunk {
            match (&mut name, byte) {
                (_, b'\n') => {
                    line += 1;
                    name = None;
                }
                (Some(read), b';') => {
                    let size = std::str::from_utf8(read).ok().and_then(|n| sizes.get(n));
                    if let Some(&size) = size {
                        added = added.saturating_add(size.saturating_sub(read.len() as u64 + 2));
                        if added > bound {
                            return Some((line, added));
                        }
                    }
                    name = None;
                }
                (_, b'&') => name = Some(Vec::new()),
                (Some(read), byte) if read.len() < 256 && !byte.is_ascii_whitespace() => {
                    read.push(byte);
                }
                (Some(_), _) => name = None,
                (None, _) => {}
            }
        }
        let len = chunk.len();
        reader.consume(len);
    }
}

fn entity_refused(path: &Path, name: &str, line: usize, size: u64) -> Diagnostic {
    refuse(
        path,
        line,
        format!(
            "its DTD entity `{name}` expands to {} bytes (at most {ENTITY_BYTES} an entity and {TOTAL_BYTES} in all are read)",
            if size == u64::MAX {
                "endless".to_owned()
            } else {
                size.to_string()
            }
        ),
    )
}

/// Each entity's expanded size; or the first entity (name, line, expanded
/// size) past the bound of one entity's size, or past the bound of all of
/// them together.
fn too_large<'a>(
    entities: &[(&'a str, &'a str, usize)],
) -> Result<HashMap<&'a str, u64>, (&'a str, usize, u64)> {
    let values: HashMap<&str, &str> = entities.iter().map(|(n, v, _)| (*n, *v)).collect();
    let mut sizes: HashMap<&str, u64> = HashMap::new();
    let mut total: u64 = 0;
    for &(name, _, line) in entities {
        let size = expanded(name, &values, &mut sizes, &mut Vec::new());
        total = total.saturating_add(size);
        if size > ENTITY_BYTES || total > TOTAL_BYTES {
            return Err((name, line, size));
        }
    }
    Ok(sizes)
}

/// The size of entity `name` with every entity it references expanded,
/// computed once each; a reference cycle is endless (`u64::MAX`).
fn expanded<'a>(
    name: &'a str,
    values: &HashMap<&'a str, &'a str>,
    sizes: &mut HashMap<&'a str, u64>,
    path: &mut Vec<&'a str>,
) -> u64 {
    if let Some(&size) = sizes.get(name) {
        return size;
    }
    let Some(value) = values.get(name) else {
        // A predefined entity (`&amp;`) or an undeclared one: its text.
        return name.len() as u64 + 2;
    };
    if path.contains(&name) || path.len() > 64 {
        return u64::MAX;
    }
    path.push(name);
    let mut size: u64 = 0;
    let mut rest = *value;
    while let Some(at) = rest.find('&') {
        size = size.saturating_add(at as u64);
        let after = &rest[at + 1..];
        match after.find(';') {
            Some(end) if !after[..end].starts_with('#') => {
                let inner = expanded(&after[..end], values, sizes, path);
                size = size.saturating_add(inner);
                rest = &after[end + 1..];
            }
            _ => {
                size = size.saturating_add(1);
                rest = after;
            }
        }
    }
    size = size.saturating_add(rest.len() as u64);
    path.pop();
    sizes.insert(name, size);
    size
}

fn refuse(path: &Path, line: usize, why: String) -> Diagnostic {
    Diagnostic::new(
        path,
        format!("RDF/XML refused: {why}"),
        "declare only short entities (namespace IRIs, as OWL tools write them) in the DOCTYPE, or save the file without one",
    )
    .at(Some(line), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(text: &str) -> Option<String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.owl");
        std::fs::write(&path, text).unwrap();
        check(&path).map(|d| d.to_string())
    }

    #[test]
    fn an_entity_bomb_is_refused_and_namespace_entities_pass() {
        let mut bomb = String::from(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE rdf:RDF [\n<!ENTITY a \"aaaaaaaaaa\">\n",
        );
        let names = ["b", "c", "d", "e", "f", "g", "h", "i", "j"];
        let mut previous = "a";
        for name in names {
            bomb.push_str(&format!(
                "<!ENTITY {name} \"{}\">\n",
                format!("&{previous};").repeat(10)
            ));
            previous = name;
        }
        bomb.push_str("]>\n<rdf:RDF/>\n");
        let refused = checked(&bomb).expect("refused");
        // 10^5 bytes at `e`, on line 7: the first past 64 KiB.
        assert!(
            refused.contains(":7: RDF/XML refused: its DTD entity `e` expands to 100000 bytes"),
            "{refused}"
        );

        let owl = "<?xml version=\"1.0\"?>\n<!DOCTYPE rdf:RDF [\n    <!ENTITY owl \"http://www.w3.org/2002/07/owl#\" >\n    <!ENTITY xsd 'http://www.w3.org/2001/XMLSchema#' >\n]>\n<rdf:RDF xmlns:owl=\"&owl;\"/>\n";
        assert_eq!(checked(owl), None);
        assert_eq!(checked("<rdf:RDF/>"), None);
        let cycle = "<!DOCTYPE r [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]><r/>";
        assert!(checked(cycle).unwrap().contains("expands to endless bytes"));
        let parameter = "<!DOCTYPE r [<!ENTITY % p \"x\">]><r/>";
        assert!(checked(parameter).unwrap().contains("parameter entity"));
    }

    /// An entity within its bound, referenced over and over in the
    /// document (a 60 KB entity 200 times in one label, a 61 KB file), is
    /// refused where the references pass the document's growth; namespace
    /// entities used on every line of a large file pass.
    #[test]
    fn references_past_the_document_s_growth_are_refused() {
        let big = "x".repeat(60_000);
        let label = "&big;".repeat(200);
        let file = format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE rdf:RDF [\n<!ENTITY big \"{big}\">\n]>\n<rdf:RDF>\n<c>\n<l>{label}</l>\n</c>\n</rdf:RDF>\n"
        );
        let refused = checked(&file).expect("refused");
        assert!(
            refused.contains(":7: RDF/XML refused: its entity references add "),
            "{refused}"
        );

        let mut owl = String::from(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE rdf:RDF [\n<!ENTITY obo \"http://purl.obolibrary.org/obo/\">\n]>\n<rdf:RDF>\n",
        );
        for n in 0..100_000 {
            owl.push_str(&format!(
                "<owl:Class rdf:about=\"&obo;GO_{n:07}\"><rdfs:subClassOf rdf:resource=\"&obo;GO_0000001\"/></owl:Class>\n"
            ));
        }
        owl.push_str("</rdf:RDF>\n");
        assert_eq!(checked(&owl), None);
    }
}
