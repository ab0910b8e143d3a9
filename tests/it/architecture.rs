//! The module rules `ARCHITECTURE.md` states, read from the source: which
//! top-level modules each may name, that `serve` answers from the site's
//! contract without the renderer, and that `render`'s files depend on each
//! other without a circle.

use crate::util::root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The library's top-level modules each one may name (`crate::x`).
/// Data flows one way: source → model → search → site (the contract) →
/// hosts → render → output; serve reads what output wrote. `source` may
/// read the contract for the names the site reserves and where it
/// publishes the sources.
const MAY_NAME: &[(&str, &[&str])] = &[
    ("model", &[]),
    ("changes", &["model"]),
    ("source", &["model", "site", "hosts"]),
    ("search", &["model"]),
    ("site", &["model", "search"]),
    ("hosts", &["model", "search", "site"]),
    ("render", &["model", "search", "site", "hosts", "changes"]),
    ("output", &[]),
    ("serve", &["model", "search", "site", "build", "config"]),
    ("publish", &["site", "output", "serve", "build"]),
];

/// The library's top-level modules that are not in [`MAY_NAME`]: the
/// pipeline and the configuration, which only `serve` may name.
const PIPELINE: &[&str] = &["build", "config"];

/// The source of every `.rs` file under `dir`, its tests left out: a test
/// may reach anywhere.
fn sources(dir: &Path) -> Vec<(String, String)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            let name = e.path().strip_prefix(dir).unwrap().display().to_string();
            (name, without_tests(&text))
        })
        .filter(|(name, _)| !name.ends_with("_tests.rs"))
        .collect()
}

/// `code` without the items marked `#[cfg(test)]`: a declaration up to
/// its `;`, a block up to the brace that closes it.
fn without_tests(code: &str) -> String {
    let mut kept = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        let item = &rest[at..];
        let end = match (item.find('{'), item.find(';')) {
            (Some(open), semicolon) if semicolon.is_none_or(|s| open < s) => {
                let mut depth = 0;
                let mut end = item.len();
                for (i, c) in item[open..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                end
            }
            (_, Some(semicolon)) => semicolon + 1,
            (_, None) => item.len(),
        };
        rest = &item[end..];
    }
    kept.push_str(rest);
    kept
}

/// The names that follow `prefix` in `code`, comments left out:
/// `crate::render::json` gives `render` for `crate::`, and
/// `super::{html, info::x}` gives `html` and `info` for `super::`.
fn named_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut names = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        match rest.strip_prefix('{') {
            Some(group) => names.extend(group_names(group)),
            None => {
                names.insert(leading_name(rest));
            }
        }
    }
    names.remove("");
    names
}

/// The name `text` starts with.
fn leading_name(text: &str) -> String {
    text.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The first name of each item of a `{…}` group of paths, `group` being
/// what follows its `{`.
fn group_names(group: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0;
    let mut item = 0;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                names.push(leading_name(&group[item..i]));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                names.push(leading_name(&group[item..i]));
                item = i + 1;
            }
            _ => {}
        }
    }
    names
}

#[test]
fn each_module_names_only_the_modules_upstream_of_it() {
    let modules: BTreeSet<&str> = MAY_NAME
        .iter()
        .map(|(m, _)| *m)
        .chain(PIPELINE.iter().copied())
        .collect();
    let mut broken = Vec::new();
    for (module, allowed) in MAY_NAME {
        for (file, code) in sources(&root().join("src").join(module)) {
            for name in named_after(&code, "crate::") {
                let top_level = modules.contains(name.as_str());
                if top_level && name != *module && !allowed.contains(&name.as_str()) {
                    broken.push(format!("src/{module}/{file} names crate::{name}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

/// `render/mod.rs` declares the files and dispatches each document to the
/// one that renders it; no file names an item of it (a name after `super::`
/// that is not a file is one of `mod.rs`'s), and among all of them, `mod.rs`
/// included, no circle.
#[test]
fn render_s_files_depend_on_each_other_without_a_circle() {
    let dir = root().join("src/render");
    let files: BTreeMap<String, String> = sources(&dir)
        .into_iter()
        .map(|(name, code)| (name.trim_end_matches(".rs").to_owned(), code))
        .collect();
    let uses: BTreeMap<&str, BTreeSet<String>> = files
        .iter()
        .map(|(name, code)| {
            let mut named = named_after(code, "super::");
            named.extend(named_after(code, "crate::render::"));
            // The dispatcher names every file it declares.
            named.extend(code.lines().filter_map(|line| {
                let declared = line.trim_start_matches("pub ").strip_prefix("mod ")?;
                Some(declared.strip_suffix(';')?.to_owned())
            }));
            let named = named
                .into_iter()
                .map(|other| match files.contains_key(&other) {
                    true => other,
                    false => "mod".to_owned(),
                })
                .filter(|other| other != name)
                .collect();
            (name.as_str(), named)
        })
        .collect();
    let circle = circle(&uses);
    assert!(
        circle.is_none(),
        "render's files import in a circle: {circle:?}"
    );
    assert!(uses.len() > 10, "{} files read", uses.len());
    assert!(uses["mod"].len() > 10, "mod.rs names {:?}", uses["mod"]);
}

/// A circle in `uses` (file -> the files it uses), as the files along it.
fn circle(uses: &BTreeMap<&str, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first, with the path so far: a file met again on it closes a
    // circle.
    fn visit<'a>(
        file: &'a str,
        uses: &'a BTreeMap<&'a str, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|f| *f == file) {
            let mut circle: Vec<String> = path[at..].iter().map(|f| f.to_string()).collect();
            circle.push(file.to_owned());
            return Some(circle);
        }
        if !done.insert(file) {
            return None;
        }
        path.push(file);
        for next in uses.get(file).into_iter().flatten() {
            if let Some(circle) = visit(next, uses, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    uses.keys()
        .find_map(|file| visit(file, uses, &mut Vec::new(), &mut done))
}

/// The checks above see what they are meant to: a file that names what it
/// may not, and a circle, are found.
#[test]
fn the_rules_find_a_breach() {
    let code =
        "use crate::render::json;\n// crate::serve in a comment\nfn f() { super::html::page(); }";
    assert_eq!(
        named_after(code, "crate::"),
        BTreeSet::from(["render".to_owned()])
    );
    assert_eq!(
        named_after(code, "super::"),
        BTreeSet::from(["html".to_owned()])
    );
    let grouped =
        "use super::{RenderError, Rendering, info::x, jsonld};\nuse crate::{Error, source};";
    assert_eq!(
        named_after(grouped, "super::"),
        ["RenderError", "Rendering", "info", "jsonld"]
            .map(String::from)
            .into()
    );
    assert_eq!(
        named_after(grouped, "crate::"),
        ["Error", "source"].map(String::from).into()
    );
    let tested = "mod a;\n#[cfg(test)]\nmod b;\nuse crate::kept;\n#[cfg(test)]\nmod tests {\n    fn f() { if x { crate::gone(); } }\n}\nuse crate::after;";
    assert_eq!(
        named_after(&without_tests(tested), "crate::"),
        ["after", "kept"].map(String::from).into()
    );
    let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
    let mut uses = BTreeMap::from([("a", set(&["b"])), ("b", set(&["c"])), ("c", set(&[]))]);
    assert_eq!(circle(&uses), None);
    uses.insert("c", set(&["a"]));
    assert_eq!(circle(&uses).unwrap(), ["a", "b", "c", "a"]);
}
