//! A site's `_headers` and `_redirects`, read and applied as Netlify applies
//! them, so that `ontosite serve` answers what the host answers.
//!
//! What is modelled (and checked against Netlify's own parsers and matcher
//! in the tests): rules in file order, the first matching redirect wins; a
//! rule that is not forced (`!`) is shadowed by a file at the path;
//! `:placeholder` matches one path segment and `*` any rest, both usable in
//! the target as `:name` and `:splat`; query-parameter conditions
//! (`/path id=:id /to/:id 200`); rewrites (200, 404) and redirects (3xx);
//! header values that several matching rules set are joined with ", ".
//! What is not: proxying to other hosts and the conditions on country,
//! language, role or cookie, which need Netlify itself; such a rule is an
//! error that says so, not a silent difference.

use std::path::{Path, PathBuf};

/// A rule file that cannot be read as Netlify would read it.
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}: {message}\n  help: {help}", path.display())]
pub struct RuleError {
    pub path: PathBuf,
    pub line: usize,
    pub message: String,
    pub help: &'static str,
}

impl RuleError {
    fn at(path: &Path, line: usize, message: String, help: &'static str) -> RuleError {
        RuleError {
            path: path.to_owned(),
            line,
            message,
            help,
        }
    }
}

/// A path pattern of a rule, such as `/*.jsonld` or `/news/:year/*`,
/// translated to a regular expression the way Netlify translates it
/// (`@netlify/headers-parser`'s `getForRegExp`; its redirector matches
/// redirect sources the same way): the path is split at `/`, empty parts
/// dropped; a part that starts with `:` is a placeholder for the whole
/// segment; a part that is `*` matches any rest, the slash before it
/// included; a `*` inside a part matches anything; a trailing `/` is
/// optional.
#[derive(Debug, Clone)]
pub struct Pattern {
    source: String,
    regex: regex_lite::Regex,
    /// The name of each capture group: a placeholder's, or `splat`.
    names: Vec<String>,
}

/// The values a match captured: placeholders by name, the splat as `splat`.
pub type Captures = Vec<(String, String)>;

impl Pattern {
    /// Header paths match regardless of case, as Netlify's parser builds
    /// them; redirect sources do not.
    pub fn parse(source: &str, ignore_case: bool) -> Result<Pattern, regex_lite::Error> {
        let mut names = Vec::new();
        let parts: Vec<String> = source
            .split('/')
            .map(str::trim_end)
            .filter(|part| !part.is_empty())
            .map(|part| {
                if let Some(name) = part.strip_prefix(':') {
                    names.push(name.to_owned());
                    "([^/]+)".to_owned()
                } else if part == "*" {
                    names.push("splat".to_owned());
                    "?(.*)".to_owned()
                } else if part.contains('*') {
                    // Netlify leaves the rest of such a part unescaped.
                    let pieces: Vec<&str> = part.split('*').collect();
                    names.extend((1..pieces.len()).map(|_| "splat".to_owned()));
                    pieces.join("(.*)")
                } else {
                    regex_lite::escape(part)
                }
            })
            .collect();
        let regex = regex_lite::RegexBuilder::new(&format!("^/{}/?$", parts.join("/")))
            .case_insensitive(ignore_case)
            .build()?;
        Ok(Pattern {
            source: source.to_owned(),
            regex,
            names,
        })
    }

    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Matches the whole of `path`, returning what it captured.
    pub fn matches(&self, path: &str) -> Option<Captures> {
        let found = self.regex.captures(path)?;
        Some(
            self.names
                .iter()
                .zip(found.iter().skip(1))
                .map(|(name, value)| (name.clone(), value.map_or("", |m| m.as_str()).to_owned()))
                .collect(),
        )
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source && self.regex.as_str() == other.regex.as_str()
    }
}

impl Eq for Pattern {}

const PATTERN_HELP: &str =
    "write a path with `:name` for a segment and `*` for any rest, such as `/news/:year/*`";

/// The header rules of `_headers`, in file order.
#[derive(Debug, Clone, Default)]
pub struct HeaderRules {
    rules: Vec<(Pattern, Vec<HeaderLine>)>,
}

/// A rule's header: a value to set, or `None` for Cloudflare's `! Name`,
/// which takes back what an earlier rule set.
type HeaderLine = (String, Option<String>);

impl HeaderRules {
    pub fn parse(text: &str, path: &Path) -> Result<HeaderRules, RuleError> {
        let mut rules: Vec<(Pattern, Vec<HeaderLine>)> = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let error = |message, help| RuleError::at(path, number + 1, message, help);
            if !line.starts_with(char::is_whitespace) {
                if !trimmed.starts_with('/') {
                    return Err(error(
                        format!(
                            "`{trimmed}` is neither a path (starting with `/`) nor an indented header"
                        ),
                        "start a rule with its path at the beginning of a line, then indent its `Name: value` lines",
                    ));
                }
                let pattern = Pattern::parse(trimmed, true).map_err(|e| {
                    error(
                        format!("`{trimmed}` is not a path pattern: {e}"),
                        PATTERN_HELP,
                    )
                })?;
                rules.push((pattern, Vec::new()));
                continue;
            }
            let header = match trimmed.strip_prefix('!') {
                // Cloudflare's detach: the name alone (anything after a
                // `:` is not a value).
                Some(detached) => Some((detached.split(':').next().unwrap_or(""), None)),
                None => trimmed
                    .split_once(':')
                    .map(|(name, value)| (name, Some(value.trim().to_owned()))),
            };
            let Some((name, value)) = header.filter(|(name, _)| !name.trim().is_empty()) else {
                return Err(error(
                    format!("`{trimmed}` is not a `Name: value` header"),
                    "write each header as `Name: value` (or `! Name` to take back one an earlier rule set)",
                ));
            };
            let Some((_, headers)) = rules.last_mut() else {
                return Err(error(
                    format!("the header `{}` comes before any path", name.trim()),
                    "put the path the header applies to on a line before it",
                ));
            };
            headers.push((name.trim().to_owned(), value));
        }
        Ok(HeaderRules { rules })
    }

    /// The headers for a request path: every matching rule's, in order,
    /// the values of a name that several rules set joined with ", ".
    pub fn for_path(&self, path: &str) -> Vec<(String, String)> {
        let mut headers: Vec<(String, String)> = Vec::new();
        for (pattern, set) in &self.rules {
            if pattern.matches(path).is_none() {
                continue;
            }
            for (name, value) in set {
                let Some(value) = value else {
                    headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                    continue;
                };
                match headers
                    .iter_mut()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
                {
                    Some((_, joined)) => {
                        joined.push_str(", ");
                        joined.push_str(value);
                    }
                    None => headers.push((name.clone(), value.clone())),
                }
            }
        }
        headers
    }
}

/// One line of `_redirects`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub from: Pattern,
    /// Query parameters the request must carry: name, and the literal
    /// value or the `:placeholder` that captures it.
    pub query: Vec<(String, String)>,
    pub to: String,
    pub status: u16,
    pub force: bool,
}

impl Redirect {
    /// One rule's line, without its comment.
    fn parse(
        line: &str,
        error: impl Fn(String, &'static str) -> RuleError,
    ) -> Result<Redirect, RuleError> {
        let mut words = line.split_whitespace();
        let from = words.next().unwrap_or_default();
        if !from.starts_with('/') {
            return Err(error(
                format!("the source `{from}` is not a path"),
                "start every rule with a path such as `/old  /new  301`",
            ));
        }
        let mut query = Vec::new();
        let mut to = None;
        for word in words.by_ref() {
            match word.split_once('=') {
                Some((name, value)) if to.is_none() && !word.starts_with('/') => {
                    query.push((name.to_owned(), value.to_owned()));
                }
                _ => {
                    to = Some(word.to_owned());
                    break;
                }
            }
        }
        let Some(to) = to else {
            return Err(error(
                format!("the rule for `{from}` has no target"),
                "give the target after the path: `/old  /new  301`",
            ));
        };
        if !to.starts_with('/') {
            return Err(error(
                format!("the target `{to}` is not a path of this site"),
                "ontosite serve does not proxy to other hosts; use a path starting with `/`",
            ));
        }
        let (status, force) = match words.next() {
            None => (301, false),
            Some(word) => status(word).ok_or_else(|| {
                error(
                    format!("`{word}` is not a status"),
                    "give a status such as 200, 301 or 404, with `!` to force it",
                )
            })?,
        };
        if let Some(condition) = words.next() {
            return Err(error(
                format!("the condition `{condition}` needs Netlify itself"),
                "ontosite serve applies paths, query parameters, statuses and `!`; remove the condition to preview the rule",
            ));
        }
        let from = Pattern::parse(from, false)
            .map_err(|e| error(format!("`{from}` is not a path pattern: {e}"), PATTERN_HELP))?;
        Ok(Redirect {
            from,
            query,
            to,
            status,
            force,
        })
    }
}

/// A rule's status, `!` forcing it over a file at the path.
fn status(word: &str) -> Option<(u16, bool)> {
    let (digits, force) = match word.strip_suffix('!') {
        Some(digits) => (digits, true),
        None => (word, false),
    };
    let status = digits
        .parse::<u16>()
        .ok()
        .filter(|s| (200..600).contains(s))?;
    Some((status, force))
}

/// What a matching redirect rule asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// The target with its placeholders filled in.
    pub to: String,
    /// The site path a rewrite serves, decoded: the target's path (its
    /// query left out), its own text percent-decoded and the captured
    /// values put in as they are, decoded already with the request's
    /// path, which is decoded once, never twice. None where the target's
    /// text does not decode to UTF-8.
    pub rewrite_path: Option<String>,
    pub status: u16,
    pub force: bool,
}

impl Route {
    /// A rewrite serves another path of the site; other statuses redirect.
    pub fn is_rewrite(&self) -> bool {
        matches!(self.status, 200 | 404)
    }
}

/// The redirect rules of `_redirects`, in file order.
#[derive(Debug, Clone, Default)]
pub struct RedirectRules {
    rules: Vec<Redirect>,
    /// Whether any rule has query conditions; asked on every request.
    reads_queries: bool,
}

impl RedirectRules {
    /// Whether any rule looks at the query: only then can two requests for
    /// one path with different queries get different answers from files.
    pub fn read_queries(&self) -> bool {
        self.reads_queries
    }

    pub fn parse(text: &str, path: &Path) -> Result<RedirectRules, RuleError> {
        let mut rules = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.split_once('#').map_or(line, |(rule, _)| rule).trim();
            if line.is_empty() {
                continue;
            }
            let error = |message, help| RuleError::at(path, number + 1, message, help);
            rules.push(Redirect::parse(line, error)?);
        }
        let reads_queries = rules.iter().any(|rule| !rule.query.is_empty());
        Ok(RedirectRules {
            rules,
            reads_queries,
        })
    }

    /// The first rule that matches the path and query, with its target
    /// filled in. Shadowing by files is the caller's: it knows the files.
    pub fn route<'a>(&self, path: &str, query: impl Fn(&str) -> Option<&'a str>) -> Option<Route> {
        self.rules.iter().find_map(|rule| {
            let mut captures = rule.from.matches(path)?;
            for (name, wanted) in &rule.query {
                let value = query(name)?;
                match wanted.strip_prefix(':') {
                    Some(placeholder) => captures.push((placeholder.to_owned(), value.to_owned())),
                    None if wanted == value => {}
                    None => return None,
                }
            }
            let rewrite_path = rule.to.split_once('?').map_or(rule.to.as_str(), |(p, _)| p);
            Some(Route {
                to: fill(&rule.to, &captures, |text| Some(text.to_owned())).unwrap_or_default(),
                rewrite_path: fill(rewrite_path, &captures, |text| {
                    let decoded = percent_encoding::percent_decode_str(text).decode_utf8();
                    decoded.ok().map(|d| d.into_owned())
                }),
                status: rule.status,
                force: rule.force,
            })
        })
    }
}

/// Replaces `:name` in a target with what the match captured; a name it
/// did not capture stays as written, as on Netlify. The target's own
/// text goes through `text` (decoding, for a path), the captures as they
/// are; None where `text` refuses a piece.
fn fill(
    target: &str,
    captures: &Captures,
    text: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    let mut out = String::with_capacity(target.len());
    let mut rest = target;
    let mut written = String::new();
    while let Some(at) = rest.find(':') {
        written.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..end];
        match captures.iter().rev().find(|(n, _)| n == name) {
            Some((_, value)) if !name.is_empty() => {
                out.push_str(&text(&std::mem::take(&mut written))?);
                out.push_str(value);
            }
            _ => {
                written.push(':');
                written.push_str(name);
            }
        }
        rest = &after[end..];
    }
    written.push_str(rest);
    out.push_str(&text(&written)?);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redirects(text: &str) -> RedirectRules {
        RedirectRules::parse(text, Path::new("_redirects")).unwrap()
    }

    #[test]
    fn splats_and_placeholders() {
        let pattern = |source: &str| Pattern::parse(source, false).unwrap();
        let p = pattern("/*.jsonld");
        assert!(p.matches("/a.jsonld").is_some());
        assert!(p.matches("/a/b.jsonld").is_some());
        assert!(p.matches("/a.json").is_none());
        let p = pattern("/news/:year/*");
        assert_eq!(
            p.matches("/news/2024/a/b").unwrap(),
            vec![
                ("year".into(), "2024".into()),
                ("splat".into(), "a/b".into())
            ]
        );
        assert!(
            p.matches("/news//a").is_none(),
            "a placeholder is never empty"
        );
        // The splat takes the slash before it: `/news/2024` matches too.
        assert_eq!(p.matches("/news/2024").unwrap()[1].1, "");
        // A trailing slash is optional; a placeholder is a whole segment.
        assert!(pattern("/a.json").matches("/a.json/").is_some());
        assert!(pattern("/x/:p.json").matches("/x/abc").is_some());
        assert!(pattern("/").matches("/").is_some());
        assert!(pattern("/").matches("/x").is_none());
        assert!(pattern("/*").matches("/").is_some());
        assert!(pattern("/A").matches("/a").is_none());
        assert!(Pattern::parse("/A", true).unwrap().matches("/a").is_some());
    }

    #[test]
    fn first_matching_rule_wins_and_targets_are_filled() {
        let rules = redirects(
            "# comment\n/  /api.json  200!\n/news/:year/*  /archive/:year/:splat  301\n/*  /404.json  404\n",
        );
        let none = |_: &str| None;
        assert_eq!(
            rules.route("/", none).unwrap(),
            Route {
                to: "/api.json".into(),
                rewrite_path: Some("/api.json".into()),
                status: 200,
                force: true
            }
        );
        assert_eq!(
            rules.route("/news/2024/x/y", none).unwrap().to,
            "/archive/2024/x/y"
        );
        assert_eq!(rules.route("/other", none).unwrap().status, 404);
    }

    #[test]
    fn query_conditions() {
        let rules = redirects("/store id=:id  /items/:id.json  200\n/store  /shop  302\n");
        let with_id = |name: &str| (name == "id").then_some("42");
        assert_eq!(rules.route("/store", with_id).unwrap().to, "/items/42.json");
        assert_eq!(rules.route("/store", |_| None).unwrap().to, "/shop");
    }

    /// A rewrite's path is decoded once: the rule's own text is decoded,
    /// what it captured of the request's path (decoded already) is not
    /// decoded again; a redirect's target keeps the rule's text.
    #[test]
    fn a_rewrite_s_path_is_decoded_once() {
        let rules = redirects(
            "/terms/:slug  /entities/:slug%20x.json?from=:slug  200\n/old/*  /new%20place/:splat  301\n/bad  /%FF.json  200\n",
        );
        let none = |_: &str| None;
        let rewrite = rules.route("/terms/%61b c", none).unwrap();
        assert_eq!(
            rewrite.rewrite_path.as_deref(),
            Some("/entities/%61b c x.json")
        );
        let moved = rules.route("/old/a", none).unwrap();
        assert_eq!(moved.to, "/new%20place/a");
        assert_eq!(rules.route("/bad", none).unwrap().rewrite_path, None);
    }

    #[test]
    fn header_values_of_several_rules_are_joined() {
        let rules = HeaderRules::parse(
            "/*\n  Access-Control-Allow-Origin: *\n  Vary: Origin\n/*.jsonld\n  Content-Type: application/ld+json\n  vary: Accept\n",
            Path::new("_headers"),
        )
        .unwrap();
        assert_eq!(
            rules.for_path("/a.jsonld"),
            vec![
                ("Access-Control-Allow-Origin".into(), "*".into()),
                ("Vary".into(), "Origin, Accept".into()),
                ("Content-Type".into(), "application/ld+json".into()),
            ]
        );
        assert_eq!(rules.for_path("/a.json").len(), 2);
    }

    #[test]
    fn errors_name_the_line_and_say_what_to_do() {
        let error = RedirectRules::parse(
            "/a /b 301\n/c https://elsewhere.example 200\n",
            Path::new("_redirects"),
        )
        .unwrap_err();
        assert_eq!(error.line, 2);
        assert!(
            error.to_string().starts_with("_redirects:2: the target"),
            "{error}"
        );
        let error =
            RedirectRules::parse("/a /b 302 Country=de\n", Path::new("_redirects")).unwrap_err();
        assert!(error.message.contains("Country=de"), "{error}");
        let detached = HeaderRules::parse(
            "/*\n  Cache-Control: a\n  X-B: c\n/r/:v/*\n  ! Cache-Control\n  Cache-Control: b\n/r/index.*\n  ! Cache-Control\n  Cache-Control: a\n",
            Path::new("_headers"),
        )
        .unwrap();
        assert_eq!(
            detached.for_path("/r/1/x.json"),
            [
                ("X-B".to_owned(), "c".to_owned()),
                ("Cache-Control".to_owned(), "b".to_owned())
            ]
        );
        assert_eq!(detached.for_path("/r/index.json")[1].1, "a");
        let error = HeaderRules::parse("  X-A: b\n", Path::new("_headers")).unwrap_err();
        assert!(error.message.contains("before any path"), "{error}");
        let error = HeaderRules::parse("/a\n  no colon\n", Path::new("_headers")).unwrap_err();
        assert_eq!(error.line, 2);
    }
}
