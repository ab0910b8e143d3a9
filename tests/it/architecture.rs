//! The module rules `ARCHITECTURE.md` states, read from the source: which
//! top-level modules each may name, that `serve` answers from the site's
//! contract without the renderer, and that `render`'s files depend on each
//! other without a circle.

use crate::util::root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The library's top-level modules each one may name (`crate::x`).
/// Data flows one way: source → model → (site contract, search) →
/// render → output; serve reads what output wrote.
const MAY_NAME: &[(&str, &[&str])] = &[
    ("model", &[]),
    ("source", &["model"]),
    ("search", &["model"]),
    ("site", &["model", "search"]),
    ("hosts", &["model", "site"]),
    ("render", &["model", "search", "site", "hosts"]),
    ("output", &[]),
    ("serve", &["model", "search", "site", "build", "config"]),
];

/// The source of every `.rs` file under `dir`, tests left out: a test
/// may reach anywhere.
fn sources(dir: &Path) -> Vec<(String, String)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            let code = match text.find("#[cfg(test)]") {
                Some(at) => text[..at].to_owned(),
                None => text,
            };
            let name = e.path().strip_prefix(dir).unwrap().display().to_string();
            (name, code)
        })
        .filter(|(name, _)| !name.ends_with("_tests.rs"))
        .collect()
}

/// The names that follow `prefix` in `code`, doc comments and comments
/// left out: `crate::render::json` gives `render` for `crate::`.
fn named_after(code: &str, prefix: &str) -> BTreeSet<String> {
    code.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .flat_map(|line| {
            line.match_indices(prefix)
                .map(|(at, _)| {
                    line[at + prefix.len()..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
        })
        .filter(|name| !name.is_empty())
        .collect()
}

#[test]
fn each_module_names_only_the_modules_upstream_of_it() {
    let modules: BTreeSet<&str> = MAY_NAME.iter().map(|(m, _)| *m).collect();
    let mut broken = Vec::new();
    for (module, allowed) in MAY_NAME {
        for (file, code) in sources(&root().join("src").join(module)) {
            for name in named_after(&code, "crate::") {
                let top_level = modules.contains(name.as_str()) || name == "build";
                if top_level && name != *module && !allowed.contains(&name.as_str()) {
                    broken.push(format!("src/{module}/{file} names crate::{name}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

/// `render/mod.rs` dispatches each document to the file that renders it,
/// and every file may use its `Rendering` and `RenderError`; among the other
/// files, no circle.
#[test]
fn render_s_files_depend_on_each_other_without_a_circle() {
    let dir = root().join("src/render");
    let files: BTreeMap<String, String> = sources(&dir)
        .into_iter()
        .map(|(name, code)| (name.trim_end_matches(".rs").to_owned(), code))
        .filter(|(name, _)| name != "mod")
        .collect();
    let uses: BTreeMap<&str, BTreeSet<String>> = files
        .iter()
        .map(|(name, code)| {
            let mut named = named_after(code, "super::");
            named.extend(named_after(code, "crate::render::"));
            named.retain(|other| other != name && files.contains_key(other));
            (name.as_str(), named)
        })
        .collect();
    let circle = circle(&uses);
    assert!(
        circle.is_none(),
        "render's files import in a circle: {circle:?}"
    );
    assert!(uses.len() > 10, "{} files read", uses.len());
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
    let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
    let mut uses = BTreeMap::from([("a", set(&["b"])), ("b", set(&["c"])), ("c", set(&[]))]);
    assert_eq!(circle(&uses), None);
    uses.insert("c", set(&["a"]));
    assert_eq!(circle(&uses).unwrap(), ["a", "b", "c", "a"]);
}
