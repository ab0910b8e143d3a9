//! The earlier releases kept in the input: `input/releases/{version}/`,
//! one folder per release, each an input of its own (its `ontology.json`
//! and its sources, read as `input/` is). Keeping the sources, not the
//! built sites, is what lets CI rebuild every release from a clean
//! checkout to the same bytes.

use super::Diagnostic;
use std::path::{Path, PathBuf};

/// The folder of the earlier releases inside the input.
pub const DIR_NAME: &str = "releases";

/// One release's input folder and the version its folder names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseInput {
    pub version: String,
    pub dir: PathBuf,
}

/// The releases under `input/releases/`, oldest first (in version order:
/// digits compare as numbers, so `1.10` follows `1.9` and ISO dates sort
/// as dates); none where there is no such folder. A file there, a folder
/// whose name cannot be a path segment of the site, or a link that leads
/// out of the input is refused, naming it.
pub fn found(input: &Path) -> (Vec<ReleaseInput>, Vec<Diagnostic>) {
    let dir = input.join(DIR_NAME);
    let mut problems = Vec::new();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return (Vec::new(), problems);
    };
    let inside = input.canonicalize().unwrap_or_else(|_| input.to_owned());
    let mut releases = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if let Some(problem) = super::entities::link_out(&path, &inside) {
            problems.push(problem);
            continue;
        }
        if !path.is_dir() {
            problems.push(Diagnostic::new(
                &path,
                "not a release folder: input/releases/ holds one folder per release",
                "move the file into a folder named after its release's version (input/releases/2024-01-31/), beside that release's ontology.json",
            ));
            continue;
        }
        if !is_version(&name) {
            problems.push(Diagnostic::new(
                &path,
                format!("`{name}` cannot name a release: a version is its path in the site (/releases/{{version}}/)"),
                "name the folder with letters, digits, `.`, `-`, `_` and `+` only (not `index`, the list's own name), for example 2024-01-31 or 1.2.0",
            ));
            continue;
        }
        releases.push(ReleaseInput {
            version: name,
            dir: path,
        });
    }
    releases.sort_by(|a, b| version_order(&a.version, &b.version));
    (releases, problems)
}

/// Whether `version` can name a release: one plain path segment.
pub fn is_version(version: &str) -> bool {
    !version.is_empty()
        && version.len() <= 64
        && !version.starts_with('.')
        // The list's own files are `releases/index.*`.
        && version != "index"
        && !version.starts_with("index.")
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-+".contains(c))
}

/// Versions in release order: runs of digits compare as numbers, the rest
/// as text.
pub fn version_order(a: &str, b: &str) -> std::cmp::Ordering {
    fn runs(version: &str) -> Vec<(bool, &str)> {
        let mut runs = Vec::new();
        let mut start = 0;
        let bytes = version.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                runs.push((bytes[start].is_ascii_digit(), &version[start..i]));
                start = i;
            }
        }
        runs
    }
    fn key((digits, run): (bool, &str)) -> (bool, usize, &str) {
        let trimmed = run.trim_start_matches('0');
        (digits, if digits { trimmed.len() } else { 0 }, trimmed)
    }
    runs(a)
        .into_iter()
        .map(key)
        .cmp(runs(b).into_iter().map(key))
        .then_with(|| a.cmp(b))
}

/// The BLAKE3 of every file of a release's input, path and bytes, in path
/// order (hidden files, the input's own `releases/` and the output
/// `out`, where it is inside, left out; a link only where it stays
/// inside): what the release list records, so that a later build can
/// tell a published release's sources from changed ones. Paths are
/// joined with `/`, so the hash is the same on every system.
pub fn sources_hash(dir: &Path, out: Option<&Path>) -> Result<String, Diagnostic> {
    let unreadable = |path: &Path, e: &dyn std::fmt::Display| {
        Diagnostic::new(
            path,
            format!("cannot read it: {e}"),
            "check that the release's folder and its files may be read",
        )
    };
    let inside = dir.canonicalize().unwrap_or_else(|_| dir.to_owned());
    let mut hasher = blake3::Hasher::new();
    let walk = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            let name = entry.file_name().to_string_lossy();
            let output = out
                .is_some_and(|out| std::path::absolute(entry.path()).ok().as_deref() == Some(out));
            entry.depth() == 0
                || !(name.starts_with('.') || entry.depth() == 1 && name == DIR_NAME || output)
        });
    for entry in walk {
        let entry = entry.map_err(|e| unreadable(e.path().unwrap_or(dir), &e))?;
        if !entry.file_type().is_file()
            || entry.path_is_symlink() && super::entities::link_out(entry.path(), &inside).is_some()
        {
            continue;
        }
        let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let name: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let name = name.join("/");
        let file = std::fs::File::open(entry.path()).map_err(|e| unreadable(entry.path(), &e))?;
        let len = file
            .metadata()
            .map_err(|e| unreadable(entry.path(), &e))?
            .len();
        hasher.update(&(name.len() as u64).to_le_bytes());
        hasher.update(name.as_bytes());
        hasher.update(&len.to_le_bytes());
        // Streamed: an ontology of gigabytes is never held whole.
        hasher
            .update_reader(file)
            .map_err(|e| unreadable(entry.path(), &e))?;
    }
    Ok(hasher.finalize().to_hex().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_sort_as_releases_do() {
        for sorted in [
            &["1.9", "1.9.1", "1.10", "2.0.0"][..],
            &["2023-05-18", "2024-03-28", "2024-11-11"],
            &["v2", "v10"],
        ] {
            let mut versions = sorted.to_vec();
            versions.reverse();
            versions.sort_by(|a, b| version_order(a, b));
            assert_eq!(versions, sorted);
        }
    }

    #[test]
    fn a_version_is_one_plain_segment() {
        assert!(is_version("2024-03-28"));
        assert!(is_version("1.2.0+build.5"));
        for bad in [
            "",
            "..",
            ".hidden",
            "a/b",
            "a b",
            "é",
            "releases%2F",
            "index.json",
        ] {
            assert!(!is_version(bad), "{bad}");
        }
    }
}
