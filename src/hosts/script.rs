//! The committed JavaScript modules, made into the files a host runs.
//!
//! `assets/search.js` is one ES module; the host handlers import from it.
//! A host wants one self-contained file (Netlify's bundler and workerd
//! then resolve nothing), and workerd refuses a worker that exports
//! anything but handlers, so the client's own exports must become private
//! declarations in it. A page opened from disk cannot load modules at
//! all, so there the client becomes a classic script.

use crate::search::client::SEARCH_JS;
use crate::site::bundles;
use crate::site::routes::{NOT_FOUND, Serves, endpoints};

/// The content negotiation the handlers share.
pub const NEGOTIATE_JS: &str = include_str!("../../assets/negotiate.js");

/// The modules a handler imports, which a host module inlines: the
/// client, negotiation, and the generated negotiation table.
const INLINED: [&str; 3] = [
    "\"./search.js\";",
    "\"./negotiate.js\";",
    "\"./negotiation.js\";",
];

/// The generated module `./negotiation.js`: the table the handlers
/// negotiate with (`negotiation::table`), with the paths no host may
/// publish, the version IRIs' See Others and, where the site bundles its
/// entities' documents or writes its big documents in parts, where those
/// are (`site::bundles`, `site::parts`).
pub fn negotiation_module(input: &super::HostInput) -> String {
    format!("export const NEGOTIATION = {};\n", negotiation_table(input))
}

/// The table `negotiation_module` exports.
fn negotiation_table(input: &super::HostInput) -> serde_json::Value {
    let mut table = crate::site::negotiation::table(input.aliases);
    table["unpublished"] = serde_json::json!(crate::site::routes::UNPUBLISHED);
    // For a handler that stands in for the static host (in front of a
    // bucket): the rewrites `_redirects` gives the others.
    let rewrites: Vec<serde_json::Value> = endpoints()
        .iter()
        .chain([&NOT_FOUND])
        .filter_map(|endpoint| match endpoint.serves {
            Serves::Rewrite {
                file,
                status,
                force,
            } => Some(serde_json::json!({
                "path": endpoint.path, "to": format!("/{file}"), "status": status, "force": force,
            })),
            _ => None,
        })
        .collect();
    table["rewrites"] = rewrites.into();
    // The version IRIs' See Others (`_redirects` on the other hosts).
    if !input.see_other.is_empty() {
        let see_other: Vec<serde_json::Value> = input
            .see_other
            .iter()
            .map(|(path, to)| {
                let mut rule = serde_json::json!({ "path": path, "to": to });
                with_cache(&mut rule, path);
                rule
            })
            .collect();
        table["seeOther"] = see_other.into();
    }
    if !input.bundled.is_empty() {
        let types: serde_json::Map<String, serde_json::Value> = bundles::answered_types()
            .into_iter()
            .map(|(extension, media_type)| (extension.to_owned(), media_type.into()))
            .collect();
        let folders: serde_json::Map<String, serde_json::Value> = input
            .bundled
            .folders()
            .map(|(folder, manifest)| {
                let path = format!("/{folder}");
                let mut answered = serde_json::json!({ "count": manifest.count });
                with_cache(&mut answered, &path);
                (path, answered)
            })
            .collect();
        table["bundles"] =
            serde_json::json!({ "dir": bundles::DIR, "folders": folders, "types": types });
    }
    let joined: serde_json::Map<String, serde_json::Value> = input
        .bundled
        .joined()
        .into_iter()
        .map(|(path, join)| {
            let path = format!("/{path}");
            let mut answered = serde_json::json!(join);
            with_cache(&mut answered, &path);
            (path, answered)
        })
        .collect();
    if !joined.is_empty() {
        table["joined"] = joined.into();
    }
    table
}

/// Sets `entry`'s `cache` where what is answered at `path` has a
/// `Cache-Control` of its own (a kept release's, `routes::cache_control`),
/// which the handler then sets.
fn with_cache(entry: &mut serde_json::Value, path: &str) {
    if let Some(cache) = crate::site::routes::cache_control(path) {
        entry["cache"] = cache.into();
    }
}

/// The lines of negotiate.js that make the choice, which the CloudFront
/// Function runs too: from its "The choice itself" comment to "end of the
/// choice".
fn choice_core() -> String {
    let core: Vec<&str> = NEGOTIATE_JS
        .lines()
        .skip_while(|line| !line.starts_with("// The choice itself"))
        .take_while(|line| !line.starts_with("// end of the choice"))
        .collect();
    core.join("\n")
}

/// `source` without its blank lines and the lines that are comments
/// (`//`, and `/** ... */` blocks, whose lines start with `*`): the
/// committed modules keep their comments, a function of at most 10 KB
/// cannot.
fn code_lines(source: &str) -> String {
    let code: Vec<&str> = source
        .lines()
        .filter(|line| {
            let code = line.trim_start();
            !(code.is_empty()
                || ["//", "/*", "* ", "*/"].iter().any(|c| code.starts_with(c))
                || code == "*")
        })
        .collect();
    code.join("\n")
}

/// A CloudFront Function: a classic script, as CloudFront runs one (no
/// modules): the negotiation table (the aliases left out where
/// `with_aliases` is false), the choice, then `handler`.
pub fn classic_script(
    handler: &str,
    input: &super::HostInput,
    with_aliases: bool,
    out: &mut Vec<u8>,
) {
    let full = negotiation_table(input);
    let mut table = serde_json::json!({});
    for key in ["slugPattern", "resources", "aliases", "rewrites"] {
        if let Some(value) = full.get(key) {
            table[key] = value.clone();
        }
    }
    let (by_version, other) = see_other_by_version(input.see_other);
    if !other.is_empty() {
        table["seeOther"] = other.into();
    }
    if !by_version.is_empty() {
        table["seeOtherVersions"] = by_version.into();
    }
    if !with_aliases {
        table["aliases"] = serde_json::json!({});
    }
    // The site's files without an extension, which are not pages.
    let plain: Vec<&str> = endpoints()
        .iter()
        .filter_map(|endpoint| match endpoint.serves {
            Serves::File(file) if !file.contains('.') => Some(file),
            _ => None,
        })
        .collect();
    table["plain"] = plain.into();
    out.extend_from_slice(format!("var NEGOTIATION = {table};\n").as_bytes());
    private(&code_lines(&choice_core()), out);
    out.extend_from_slice(code_lines(handler).as_bytes());
}

/// The version IRIs' See Others as a CloudFront Function's 10 KB holds
/// hundreds (a rule each would hold about fifty): the rules from
/// `{prefix}{version}{suffix}` to `/releases/{version}/` grouped by prefix,
/// suffix and caching, each version named once; each other rule as the
/// handlers' table has it. Paths without their trailing `/`, as the
/// function compares them.
fn see_other_by_version(
    see_other: &[(String, String)],
) -> (Vec<serde_json::Value>, Vec<serde_json::Value>) {
    // (prefix, suffix, caching) and the versions between them.
    type Group = ((String, String, Option<&'static str>), Vec<String>);
    let mut groups: Vec<Group> = Vec::new();
    let mut other = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (given, to) in see_other {
        let path = match given.trim_end_matches('/') {
            "" => "/",
            trimmed => trimmed,
        };
        // As the handlers match them: the first rule for a path; none
        // where that one is to the path itself (`/releases/1/` is its
        // release's root).
        if !seen.insert(path) || path == to.trim_end_matches('/') {
            continue;
        }
        let version = to
            .strip_prefix("/releases/")
            .and_then(|rest| rest.strip_suffix('/'))
            .filter(|v| !v.is_empty() && !v.contains('/'));
        let Some((version, at)) = version.and_then(|v| Some((v, version_at(path, v)?))) else {
            let mut rule = serde_json::json!({ "path": path, "to": to });
            with_cache(&mut rule, given);
            other.push(rule);
            continue;
        };
        let key = (
            path[..at].to_owned(),
            path[at + version.len()..].to_owned(),
            crate::site::routes::cache_control(given),
        );
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, versions)) => versions.push(version.to_owned()),
            None => groups.push((key, vec![version.to_owned()])),
        }
    }
    let groups = groups
        .into_iter()
        .map(|((prefix, suffix, cache), versions)| {
            let mut group = serde_json::json!({ "prefix": prefix, "suffix": suffix });
            if let Some(cache) = cache {
                group["cache"] = cache.into();
            }
            group["versions"] = versions.into();
            group
        })
        .collect();
    (groups, other)
}

/// Where `version` is in `path`: a whole segment of it where one is
/// (`/ro1/releases/1/ro.owl`), so that the releases' paths share their
/// prefix and suffix; else its first occurrence.
fn version_at(path: &str, version: &str) -> Option<usize> {
    let segment = path.match_indices(version).map(|(at, _)| at).find(|&at| {
        path[..at].ends_with('/')
            && matches!(path[at + version.len()..].chars().next(), None | Some('/'))
    });
    segment.or_else(|| path.find(version))
}

/// Writes `source` with every top-level `export ` keyword dropped, so its
/// declarations stay in scope but nothing is exported.
pub fn private(source: &str, out: &mut Vec<u8>) {
    for line in source.trim_end().lines() {
        out.extend_from_slice(line.strip_prefix("export ").unwrap_or(line).as_bytes());
        out.push(b'\n');
    }
}

/// One self-contained module: the search client, negotiation and its
/// table made private, then `handler` without its imports of them.
pub fn host_module(handler: &str, input: &super::HostInput, out: &mut Vec<u8>) {
    out.extend_from_slice(
        b"// Generated by ontosite: the search client (search.js), content negotiation (negotiate.js) and its table, then the host's handler.\n",
    );
    private(SEARCH_JS, out);
    out.push(b'\n');
    private(NEGOTIATE_JS, out);
    out.push(b'\n');
    private(&negotiation_module(input), out);
    out.push(b'\n');
    for line in handler.trim_end().lines() {
        let inlined = line.starts_with("import ") && INLINED.iter().any(|m| line.ends_with(m));
        if !inlined {
            out.extend_from_slice(line.as_bytes());
            out.push(b'\n');
        }
    }
    out.pop();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::query::{DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET, MAX_TERM_CHARS, MAX_TERMS};
    use crate::site::routes::EVERY_RESPONSE;

    /// The value of `export const NAME = ...;` in search.js, up to the `;`
    /// that ends the line (values may hold `;`).
    fn constant(name: &str) -> String {
        let start = format!("export const {name} = ");
        let at = SEARCH_JS
            .find(&start)
            .unwrap_or_else(|| panic!("search.js has no {name}"));
        let rest = &SEARCH_JS[at + start.len()..];
        rest[..rest.find(";\n").unwrap()].to_owned()
    }

    /// search.js states the query limits and the response headers again,
    /// for hosts that run no Rust; they must be Rust's.
    #[test]
    fn search_js_constants_are_rusts() {
        assert_eq!(constant("DEFAULT_LIMIT"), DEFAULT_LIMIT.to_string());
        assert_eq!(constant("MAX_LIMIT"), MAX_LIMIT.to_string());
        assert_eq!(constant("MAX_OFFSET"), MAX_OFFSET.to_string());
        assert_eq!(constant("MAX_TERMS"), MAX_TERMS.to_string());
        assert_eq!(constant("MAX_TERM_CHARS"), MAX_TERM_CHARS.to_string());
        let headers = constant("RESPONSE_HEADERS").replace(",\n}", "\n}");
        let headers: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&headers).unwrap();
        let expected: serde_json::Map<String, serde_json::Value> = EVERY_RESPONSE
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).into()))
            .collect();
        assert_eq!(headers, expected);
    }

    /// Three hundred OBO releases' version IRIs name their versions once
    /// each in the CloudFront Function, in a tenth of its 10 KB; a rule
    /// of another shape stays a rule.
    #[test]
    fn version_iris_are_grouped_by_their_shape() {
        let mut see_other: Vec<(String, String)> = (0..300)
            .map(|k| {
                let version = format!("2001-01-{k:03}");
                (
                    format!("/pato/releases/{version}/pato.owl"),
                    format!("/releases/{version}/"),
                )
            })
            .collect();
        see_other.push(("/onto/v2/".to_owned(), "/releases/2.0/".to_owned()));
        see_other.push(("/releases/3/x.owl".to_owned(), "/releases/3/".to_owned()));
        // A version in an earlier segment too, a second rule for one path
        // (the first is kept) and a rule to its own path (never answered).
        see_other.push((
            "/ro1/releases/1/ro.owl".to_owned(),
            "/releases/1/".to_owned(),
        ));
        see_other.push(("/onto/v2".to_owned(), "/releases/9/".to_owned()));
        see_other.push(("/releases/4/".to_owned(), "/releases/4/".to_owned()));
        see_other.push(("/releases/4".to_owned(), "/releases/5/".to_owned()));
        let (groups, other) = see_other_by_version(&see_other);
        assert_eq!(
            other,
            [serde_json::json!({ "path": "/onto/v2", "to": "/releases/2.0/" })]
        );
        assert_eq!(groups.len(), 3, "{groups:?}");
        assert_eq!(groups[0]["prefix"], "/pato/releases/");
        assert_eq!(groups[0]["suffix"], "/pato.owl");
        assert_eq!(groups[0]["versions"].as_array().unwrap().len(), 300);
        assert!(groups[0].get("cache").is_none());
        // A version IRI in a copy's folder: frozen, as the folder is.
        assert_eq!(
            groups[1],
            serde_json::json!({ "prefix": "/releases/", "suffix": "/x.owl", "cache": crate::site::routes::FROZEN, "versions": ["3"] })
        );
        assert_eq!(
            groups[2],
            serde_json::json!({ "prefix": "/ro1/releases/", "suffix": "/ro.owl", "versions": ["1"] })
        );
        let bytes = serde_json::to_string(&groups).unwrap().len();
        assert!(bytes < 5_000, "{bytes} bytes");
    }

    #[test]
    fn a_host_module_exports_only_its_handler() {
        let handler = "import { openIndex, respond } from \"./search.js\";\nimport { negotiate } from \"./negotiate.js\";\nimport { NEGOTIATION } from \"./negotiation.js\";\nexport default { fetch: () => respond() };\n";
        let mut out = Vec::new();
        let join = crate::site::parts::Join {
            media_type: "application/n-triples".to_owned(),
            head: String::new(),
            separator: String::new(),
            tail: String::new(),
            pieces: vec![crate::site::parts::Piece {
                path: "dump-parts/1.nt".to_owned(),
                skip: 0,
                trim: 0,
            }],
        };
        let manifest = |count| bundles::Manifest {
            version: bundles::VERSION,
            count,
            formats: vec!["json".to_owned()],
            joined: [("dump.nt".to_owned(), join.clone())].into(),
        };
        let mut bundled = bundles::Bundled::default();
        bundled.insert(String::new(), manifest(3));
        bundled.insert("releases/1/".to_owned(), manifest(2));
        let input = crate::hosts::HostInput {
            downloads: &[],
            aliases: &crate::site::negotiation::Aliases::default(),
            bundled: &bundled,
            see_other: &[],
            releases: true,
        };
        host_module(handler, &input, &mut out);
        let module = String::from_utf8(out).unwrap();
        let exports: Vec<&str> = module.lines().filter(|l| l.starts_with("export")).collect();
        assert_eq!(exports, ["export default { fetch: () => respond() };"]);
        assert!(
            !module.lines().any(|l| l.starts_with("import ")),
            "{module}"
        );
        assert!(module.contains("async function openIndex("));
        assert!(module.contains("async function negotiate("));
        assert!(module.contains("const NEGOTIATION = {"));
        assert!(module.contains(
            r#""bundles":{"dir":"entity-bundles","folders":{"/":{"count":3},"/releases/1/":{"count":2,"cache":"public, max-age=31536000, immutable"}},"types":{"json":"application/json","#
        ));
        // A copy's wholes by their paths from the root, pieces too.
        assert!(module.contains(r#""joined":{"/dump.nt":{"type":"application/n-triples","#));
        assert!(module.contains(
            r#""/releases/1/dump.nt":{"type":"application/n-triples","head":"","separator":"","tail":"","pieces":[{"path":"releases/1/dump-parts/1.nt","#
        ));
    }
}
