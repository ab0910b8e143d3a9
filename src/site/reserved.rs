//! The names no entity's slug may take: `{slug}.json` or `/{slug}` would
//! be a file, a folder or an endpoint of the site. Derived from the
//! contract (its files, folders and endpoints), so a new file reserves its
//! name where it is declared; `render`'s tests check every file it writes
//! against them.

use super::files;
use super::routes::endpoints;
use crate::model::Slug;
use crate::model::slug::MAX_LEN;

/// Names held since the first release, though no file of today's site
/// has them (the reason is not recorded): freeing them would change the
/// slug pattern that every published `openapi.json` and host handler
/// states.
const HELD: [&str; 2] = ["functions", "searchindex"];

/// Every reserved name, sorted.
pub fn reserved_slugs() -> &'static [&'static str] {
    static RESERVED: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        let named = files::SITE_WIDE
            .iter()
            .chain(files::FOLDERS.iter())
            .copied()
            .chain(endpoints().iter().map(|e| e.path.trim_start_matches('/')))
            .chain(HELD);
        let mut stems: Vec<&str> = named
            .filter_map(|name| {
                let first = name.split('/').next()?;
                let stem = first.split('.').next()?;
                Slug::parse(stem).is_ok().then_some(stem)
            })
            .collect();
        stems.sort_unstable();
        stems.dedup();
        stems
    });
    &RESERVED
}

/// Whether `text` is a slug an entity can have: well-formed, not reserved.
pub fn names_entity(text: &str) -> bool {
    Slug::parse(text).is_ok() && !reserved_slugs().contains(&text)
}

/// The pattern (ECMAScript and JSON Schema regex) of every path segment
/// that names an entity: a slug that is not reserved.
pub fn slug_pattern() -> String {
    format!(
        "^(?!(?:{})$)[a-z0-9]{{1,{MAX_LEN}}}$",
        reserved_slugs().join("|"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names reserved before they were derived, which published sites
    /// state in their slug pattern.
    #[test]
    fn the_reserved_names_are_those_published_sites_state() {
        assert_eq!(
            reserved_slugs(),
            [
                "404",
                "all",
                "api",
                "browse",
                "context",
                "dump",
                "functions",
                "home",
                "index",
                "openapi",
                "pages",
                "releases",
                "search",
                "searchindex",
                "tree",
                "ui",
                "vocab",
                "void",
            ]
        );
    }
}
