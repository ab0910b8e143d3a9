//! The layout of an OBO file, found without a grammar: the header's lines,
//! then stanzas (`[Term]`, `[Typedef]`, `[Instance]`), each a run of
//! `tag: value` lines. Comment lines (`! ...`) and blank lines carry no
//! data and are left out here, so that the parser sees only clauses (a
//! comment line inside a stanza is where fastobo 0.15 panics).
//!
//! Also the lenient reading of a clause's value that OBO 1.2 practice
//! needs where the 1.4 grammar is stricter: escapes (`\,`, `\:`) and
//! spaces inside cross-references, and tags the grammar does not name.

/// One line of the file that holds a clause, with its 1-based number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceLine<'a> {
    pub number: usize,
    pub text: &'a str,
}

impl<'a> SourceLine<'a> {
    /// The tag before the first `:` and the value after it, both trimmed.
    pub fn tag_and_value(&self) -> Option<(&'a str, &'a str)> {
        let (tag, value) = self.text.split_once(':')?;
        Some((tag.trim(), value.trim()))
    }
}

/// The kinds of stanza OBO 1.4 defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StanzaKind {
    Term,
    Typedef,
    Instance,
}

impl StanzaKind {
    fn of(name: &str) -> Option<StanzaKind> {
        match name {
            "Term" => Some(StanzaKind::Term),
            "Typedef" => Some(StanzaKind::Typedef),
            "Instance" => Some(StanzaKind::Instance),
            _ => None,
        }
    }

    /// The line that opens a stanza of this kind.
    pub fn opening(self) -> &'static str {
        match self {
            StanzaKind::Term => "[Term]",
            StanzaKind::Typedef => "[Typedef]",
            StanzaKind::Instance => "[Instance]",
        }
    }

    /// Whether the OBO 1.4 grammar names `tag` for this kind of stanza: a
    /// line with such a tag that fastobo refuses is an error; a line with
    /// any other tag is kept as `oboInOwl:{tag}`.
    pub fn reserves(self, tag: &str) -> bool {
        const COMMON: &[&str] = &[
            "id",
            "is_anonymous",
            "name",
            "namespace",
            "alt_id",
            "def",
            "comment",
            "subset",
            "synonym",
            "xref",
            "property_value",
            "is_a",
            "relationship",
            "is_obsolete",
            "replaced_by",
            "consider",
            "created_by",
            "creation_date",
        ];
        const TERM: &[&str] = &[
            "builtin",
            "intersection_of",
            "union_of",
            "equivalent_to",
            "disjoint_from",
        ];
        const TYPEDEF: &[&str] = &[
            "builtin",
            "domain",
            "range",
            "holds_over_chain",
            "is_anti_symmetric",
            "is_cyclic",
            "is_reflexive",
            "is_symmetric",
            "is_asymmetric",
            "is_transitive",
            "is_functional",
            "is_inverse_functional",
            "intersection_of",
            "union_of",
            "equivalent_to",
            "disjoint_from",
            "inverse_of",
            "transitive_over",
            "equivalent_to_chain",
            "disjoint_over",
            "expand_assertion_to",
            "expand_expression_to",
            "is_metadata_tag",
            "is_class_level",
        ];
        const INSTANCE: &[&str] = &["instance_of"];
        let own = match self {
            StanzaKind::Term => TERM,
            StanzaKind::Typedef => TYPEDEF,
            StanzaKind::Instance => INSTANCE,
        };
        COMMON.contains(&tag) || own.contains(&tag)
    }
}

/// A stanza: its kind (None for a kind OBO does not define), its name as
/// written, the line that opens it, and its clause lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stanza<'a> {
    pub kind: Option<StanzaKind>,
    pub name: &'a str,
    pub opened_at: usize,
    pub lines: Vec<SourceLine<'a>>,
}

/// An OBO file laid out: the header's clause lines and the stanzas.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Layout<'a> {
    pub header: Vec<SourceLine<'a>>,
    pub stanzas: Vec<Stanza<'a>>,
}

/// Lays out `text`: every line that is neither blank nor a comment, under
/// the header or the stanza it belongs to.
pub fn lay_out(text: &str) -> Layout<'_> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut layout = Layout::default();
    for (index, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('!') {
            continue;
        }
        let number = index + 1;
        if let Some(name) = trimmed
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
        {
            layout.stanzas.push(Stanza {
                kind: StanzaKind::of(name.trim()),
                name,
                opened_at: number,
                lines: Vec::new(),
            });
            continue;
        }
        let at = SourceLine { number, text: line };
        match layout.stanzas.last_mut() {
            Some(stanza) => stanza.lines.push(at),
            None => layout.header.push(at),
        }
    }
    layout
}

/// A clause read leniently, where the 1.4 grammar refused it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lenient {
    /// A tag the grammar does not name, with its value as text.
    Other { tag: String, value: String },
    /// `xref: ID "description"`.
    Xref(String),
    /// `def: "text" [xref, ...]`; `inner_quotes`: the text holds quotes
    /// left unescaped ([`quoted_then`]).
    Def {
        text: String,
        xrefs: Vec<String>,
        inner_quotes: bool,
    },
    /// `synonym: "text" SCOPE [TYPE] [xref, ...]`.
    Synonym {
        text: String,
        scope: String,
        kind: Option<String>,
        xrefs: Vec<String>,
        inner_quotes: bool,
    },
}

impl Lenient {
    /// Whether its text was read with quotes inside it left unescaped.
    pub fn inner_quotes(&self) -> bool {
        matches!(
            self,
            Lenient::Def {
                inner_quotes: true,
                ..
            } | Lenient::Synonym {
                inner_quotes: true,
                ..
            }
        )
    }
}

/// Reads `tag: value` leniently: any tag `kind` does not reserve, and the
/// three reserved ones whose values OBO 1.2 writes more loosely than the
/// grammar allows. None when the line is not of these.
pub fn lenient(kind: StanzaKind, tag: &str, value: &str) -> Option<Lenient> {
    let value = without_trailers(value);
    if tag.is_empty() || tag.contains(char::is_whitespace) {
        return None;
    }
    if !kind.reserves(tag) {
        return Some(Lenient::Other {
            tag: tag.to_owned(),
            value: unescape(value),
        });
    }
    match tag {
        "xref" => {
            let id = xref_id(value);
            (!id.is_empty()).then_some(Lenient::Xref(id))
        }
        "def" => {
            let (text, xrefs, inner_quotes) = quoted_then(value, xref_list)?;
            Some(Lenient::Def {
                text,
                xrefs,
                inner_quotes,
            })
        }
        "synonym" => {
            let ((scope, kind, xrefs), text, inner_quotes) =
                quoted_then(value, synonym_rest).map(|(text, rest, inner)| (rest, text, inner))?;
            Some(Lenient::Synonym {
                text,
                scope,
                kind,
                xrefs,
                inner_quotes,
            })
        }
        _ => None,
    }
}

/// The value without a trailing `! comment` or `{qualifier list}`, each
/// found outside quotes and escapes.
pub fn without_trailers(value: &str) -> &str {
    let mut quoted = false;
    let mut escaped = false;
    let mut cut = value.len();
    let mut open_brace = None;
    for (at, c) in value.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '"' => quoted = !quoted,
            '!' if !quoted => {
                cut = at;
                break;
            }
            '{' if !quoted => open_brace = Some(at),
            _ => {}
        }
    }
    let mut value = value[..cut].trim_end();
    if let Some(brace) = open_brace.filter(|&b| b < value.len())
        && value.ends_with('}')
    {
        value = value[..brace].trim_end();
    }
    value
}

/// OBO's escapes resolved: `\n`, `\t`, `\W` (a space), and `\x` for any
/// other character `x`.
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('W') => out.push(' '),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// How many later quotes [`quoted_then`] tries as the closing one: a
/// line of many quotes costs in proportion to its length, not its square.
const CLOSING_QUOTES_TRIED: usize = 16;

/// A quoted string at the start of `value`, unescaped, and what `then`
/// reads of what follows it. The string ends at its first unescaped
/// quote; where `then` cannot read what follows that one, at the one
/// later quote after which it can, when exactly one of them can: a
/// curator's inner quotes left unescaped (`"a "B" c." [X:1]`, which
/// OWLAPI reads too), said by the third value being `true`.
fn quoted_then<T>(value: &str, then: impl Fn(&str) -> Option<T>) -> Option<(String, T, bool)> {
    let body = value.trim_start().strip_prefix('"')?;
    let mut escaped = false;
    let mut quotes = Vec::new();
    for (at, c) in body.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => quotes.push(at),
            _ => {}
        }
    }
    let (&first, later) = quotes.split_first()?;
    if let Some(read) = then(&body[first + 1..]) {
        return Some((unescape(&body[..first]), read, false));
    }
    // Those after which a list or a scope can start, from the last.
    let mut closing = later
        .iter()
        .rev()
        .filter(|&&at| body[at + 1..].starts_with(char::is_whitespace))
        .take(CLOSING_QUOTES_TRIED)
        .filter_map(|&at| Some((at, then(&body[at + 1..])?)));
    let (at, read) = closing.next()?;
    if closing.next().is_some() {
        return None;
    }
    Some((unescape(&body[..at]), read, true))
}

/// What follows a synonym's text: its scope, its type if any, and its
/// cross-references.
fn synonym_rest(rest: &str) -> Option<(String, Option<String>, Vec<String>)> {
    let (words, list) = rest.split_once('[')?;
    let mut words = words.split_whitespace();
    let scope = words.next()?;
    if !["EXACT", "BROAD", "NARROW", "RELATED"].contains(&scope) {
        return None;
    }
    let kind = words.next().map(str::to_owned);
    if words.next().is_some() {
        return None;
    }
    let xrefs = xref_list(&format!("[{list}"))?;
    Some((scope.to_owned(), kind, xrefs))
}

/// The items of `[a, b "desc", ...]` at the start of `value`: split at
/// commas outside quotes and escapes, each without its description.
fn xref_list(value: &str) -> Option<Vec<String>> {
    let body = value.trim_start().strip_prefix('[')?;
    let mut items = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (at, c) in body.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => {
                items.push(&body[start..at]);
                start = at + 1;
            }
            ']' if !quoted => {
                items.push(&body[start..at]);
                if !body[at + 1..].trim().is_empty() {
                    return None;
                }
                return Some(
                    items
                        .into_iter()
                        .map(xref_id)
                        .filter(|id| !id.is_empty())
                        .collect(),
                );
            }
            _ => {}
        }
    }
    None
}

/// A cross-reference's ID: its text without a trailing quoted
/// description, unescaped (`Wikipedia:A\,_B` is `Wikipedia:A,_B`).
fn xref_id(item: &str) -> String {
    let item = item.trim();
    let id = match item.strip_suffix('"') {
        Some(open) => match open.rfind(" \"") {
            Some(at) => &item[..at],
            None => item,
        },
        None => item,
    };
    unescape(id.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_blank_lines_are_left_out_of_header_and_stanzas() {
        let layout = lay_out(
            "format-version: 1.2\n! a comment\r\nontology: x\n\n[Term]\nid: X:1\n  ! c\nname: a\n[Odd]\nid: Y\n",
        );
        let numbers = |lines: &[SourceLine]| lines.iter().map(|l| l.number).collect::<Vec<_>>();
        assert_eq!(numbers(&layout.header), [1, 3]);
        assert_eq!(layout.stanzas.len(), 2);
        assert_eq!(layout.stanzas[0].kind, Some(StanzaKind::Term));
        assert_eq!(numbers(&layout.stanzas[0].lines), [6, 8]);
        assert_eq!(layout.stanzas[1].kind, None);
        assert_eq!(layout.stanzas[1].name, "Odd");
    }

    #[test]
    fn loose_values_are_read_as_obo_1_2_writes_them() {
        let term = StanzaKind::Term;
        assert_eq!(
            lenient(
                term,
                "xref",
                r"https://en.wikipedia.org/wiki/A\,_b\,_or_c ! note"
            ),
            Some(Lenient::Xref(
                "https://en.wikipedia.org/wiki/A,_b,_or_c".into()
            ))
        );
        assert_eq!(
            lenient(
                term,
                "def",
                r#""A \"thin\" one." [WHATIF: chain, EEA (1997) space\, Copenhagen "d", http\://x.org/a\,b]"#
            ),
            Some(Lenient::Def {
                text: "A \"thin\" one.".into(),
                xrefs: vec![
                    "WHATIF: chain".into(),
                    "EEA (1997) space, Copenhagen".into(),
                    "http://x.org/a,b".into()
                ],
                inner_quotes: false,
            })
        );
        assert_eq!(
            lenient(
                term,
                "synonym",
                r#""x y" EXACT layperson [A:1] {source="z"}"#
            ),
            Some(Lenient::Synonym {
                text: "x y".into(),
                scope: "EXACT".into(),
                kind: Some("layperson".into()),
                xrefs: vec!["A:1".into()],
                inner_quotes: false,
            })
        );
        assert_eq!(
            lenient(term, "created_in", "2004 {q=1} ! c"),
            Some(Lenient::Other {
                tag: "created_in".into(),
                value: "2004".into()
            })
        );
        // A reserved tag outside the three stays an error.
        assert_eq!(lenient(term, "is_a", "X:1 Y"), None);
        assert_eq!(lenient(term, "synonym", r#""x" SOMETIMES []"#), None);
        assert_eq!(lenient(term, "def", r#""unclosed [A:1]"#), None);
    }

    /// Quotes left unescaped inside a text are read as part of it where
    /// one closing quote alone leaves a valid rest (EDAM 1.25's line), and
    /// refused where two would.
    #[test]
    fn inner_quotes_are_read_where_the_line_is_unambiguous() {
        let term = StanzaKind::Term;
        assert_eq!(
            lenient(
                term,
                "def",
                r#""A superset of the "Description-Logic Knowledge Representation System Specification"." [http://edamontology.org "d"]"#
            ),
            Some(Lenient::Def {
                text: r#"A superset of the "Description-Logic Knowledge Representation System Specification"."#.into(),
                xrefs: vec!["http://edamontology.org".into()],
                inner_quotes: true,
            })
        );
        assert_eq!(
            lenient(term, "synonym", r#""the "x" one" RELATED [] ! c"#),
            Some(Lenient::Synonym {
                text: r#"the "x" one"#.into(),
                scope: "RELATED".into(),
                kind: None,
                xrefs: vec![],
                inner_quotes: true,
            })
        );
        // One quote alone inside (an inch mark), and a list-like text.
        let def = |text: &str, xref: &str| {
            Some(Lenient::Def {
                text: text.into(),
                xrefs: vec![xref.into()],
                inner_quotes: true,
            })
        };
        assert_eq!(
            lenient(term, "def", r#""a 5" b" [X:1]"#),
            def(r#"a 5" b"#, "X:1")
        );
        assert_eq!(
            lenient(term, "def", r#""a" [X:1] "b" [X:2]"#),
            def(r#"a" [X:1] "b"#, "X:2")
        );
        // Two ways to close the text: which one is meant is not known.
        assert_eq!(lenient(term, "def", r#""p "x" [A "q" [B]"#), None);
        // Many quotes cost a bounded number of tries.
        let many = format!(r#""{}" [X:1]"#, r#"a" "#.repeat(100_000));
        assert!(lenient(term, "def", &many).is_some());
        // Typedef tags are not term tags.
        assert!(StanzaKind::Typedef.reserves("transitive_over"));
        assert!(!StanzaKind::Term.reserves("transitive_over"));
    }
}
