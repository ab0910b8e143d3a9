//! Netlify: the Edge Function that answers `/search` and negotiates the
//! IRIs (`netlify.toml` at the repository's root points Netlify at its
//! folder). It reads the rule files too (`rules`).

use super::limits::{Limit, Measure, Plan};
use super::{HostFile, HostInput, script};

/// The Edge Function, in the folder `netlify.toml` names.
pub const EDGE_FUNCTION: &str = "_edge/netlify/search.js";

/// The committed handler, which the generated module wraps.
const HANDLER: &str = include_str!("../../assets/netlify-edge.js");

/// The committed handler's `config.pattern`: the paths without a `.`.
const PATTERN: &str = r#"pattern: "^/(?:[^.]*|\\.well-known/void)$""#;

/// The pattern where the site bundles its entities' documents: their
/// paths too, `/{name}.{extension}` for each entity format (the function
/// leaves a site-wide file such as `/index.json` to the static server),
/// where the root bundles; where a release's copy does, the same under
/// `/releases/{version}/`, its pages included (a version may hold a `.`).
fn bundled_pattern(at_root: bool, in_copies: bool) -> String {
    let extensions: Vec<&str> = crate::site::formats::ENTITY_FORMATS
        .iter()
        .map(|format| format.extension)
        .collect();
    let extensions = extensions.join("|");
    let copies = match in_copies {
        true => format!(
            r"|{}/[^/]+/[^/.]+(?:\\.(?:{extensions}))?",
            crate::site::files::RELEASES
        ),
        false => String::new(),
    };
    let root = match at_root {
        true => format!(r"|[^/.]+\\.(?:{extensions})"),
        false => String::new(),
    };
    format!(r#"pattern: "^/(?:[^.]*|\\.well-known/void{root}{copies})$""#)
}

fn edge_function(input: &HostInput, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    match input.bundled.is_empty() {
        true => script::host_module(HANDLER, input, out),
        false => {
            let at_root = input.bundled.manifest("").is_some();
            let pattern = bundled_pattern(at_root, input.bundled.in_copies());
            script::host_module(&HANDLER.replace(PATTERN, &pattern), input, out)
        }
    }
    Ok(())
}

/// The files the build writes for Netlify.
pub const FILES: &[HostFile] = &[HostFile {
    path: EDGE_FUNCTION,
    write: edge_function,
}];

/// Netlify's limits (`docs/hosts.md` cites each): no count of files per
/// deploy, but a deploy fails with more than 54,000 files in one
/// directory; an Edge Function's code at most 20 MB compressed.
pub const PLANS: &[Plan] = &[Plan {
    name: "netlify",
    title: "Netlify",
    runs_code: true,
    unlisted: &[],
    limits: &[
        Limit {
            measure: Measure::FilesPerDirectory,
            most: 54_000,
        },
        Limit {
            measure: Measure::HandlerBytes {
                file: EDGE_FUNCTION,
                compressed: true,
            },
            most: 20_000_000,
        },
    ],
}];

#[cfg(test)]
mod tests {
    use super::*;

    /// The Netlify Edge Function's `config.pattern` is a literal (Netlify
    /// reads it without running the module): it must take every path the
    /// table negotiates and `/search`, and no file of the site.
    #[test]
    fn the_netlify_pattern_takes_the_negotiated_paths_and_no_file() {
        let pattern = pattern_of(HANDLER);
        for path in ["/", "/search", "/vocab", "/.well-known/void", "/abc123"] {
            assert!(pattern.is_match(path), "{path}");
        }
        for resource in crate::site::negotiation::resources() {
            assert!(
                pattern.is_match(&resource.path.replace("{slug}", "abc")),
                "{}",
                resource.path
            );
        }
        for extension in crate::hosts::published_extensions() {
            for file in [format!("/abc.{extension}"), format!("/ui/abc.{extension}")] {
                assert!(!pattern.is_match(&file), "{file}");
            }
        }
        assert!(!pattern.is_match("/search/n0.json"));
    }

    /// The `config.pattern` literal of a module, as Netlify reads it.
    fn pattern_of(source: &str) -> regex_lite::Regex {
        let start = source.find("pattern: \"").unwrap() + "pattern: \"".len();
        let literal = &source[start..start + source[start..].find('"').unwrap()];
        regex_lite::Regex::new(&literal.replace("\\\\", "\\")).unwrap()
    }

    /// Bundled, the pattern takes every entity document's path too, and
    /// still no other file of a folder.
    #[test]
    fn the_bundled_pattern_takes_the_documents_too() {
        assert!(HANDLER.contains(PATTERN));
        for (at_root, in_copies) in [(true, false), (true, true), (false, true)] {
            let pattern = bundled_pattern(at_root, in_copies);
            let pattern = pattern_of(&HANDLER.replace(PATTERN, &pattern));
            for format in crate::site::formats::ENTITY_FORMATS {
                let extension = format.extension;
                assert_eq!(pattern.is_match(&format!("/abc.{extension}")), at_root);
                let in_copy = format!("/releases/1.2/abc.{extension}");
                assert_eq!(pattern.is_match(&in_copy), in_copies, "{in_copy}");
            }
            for path in ["/", "/abc", "/vocab", "/.well-known/void"] {
                assert!(pattern.is_match(path), "{path}");
            }
            assert_eq!(pattern.is_match("/releases/1.2/abc"), in_copies);
            for path in [
                "/ui/site.css",
                "/search/n0.json",
                "/entity-bundles/json/0.json",
                "/dump.nt.gz",
                "/releases/1/ui/site.css",
                "/releases/1/entity-bundles/json/0.json",
                "/releases/1/dump.nt.gz",
            ] {
                assert!(!pattern.is_match(path), "{path}");
            }
        }
    }
}
