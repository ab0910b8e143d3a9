//! Browsing without search: the pages that list every entity by name and
//! by type, in bounded pages linked by a pager.

use crate::serve::shipped_site;
use crate::util::*;
use std::path::Path;

/// The entity slugs a list page links, in order.
fn listed(page: &str) -> Vec<String> {
    let list = &page[page.find("<ol class=\"results\"").expect("a list")..];
    let list = &list[..list.find("</ol>").unwrap()];
    // minijinja writes the `/` of `../` as `&#x2f;`, which browsers read.
    list.match_indices("<li><a href=\"..&#x2f;")
        .map(|(at, m)| {
            let rest = &list[at + m.len()..];
            rest[..rest.find(".html\"").unwrap()].to_owned()
        })
        .collect()
}

/// Follows a list's pages from `first` by their "Next" links; every page
/// holds at most 500 entities and says which page it is.
pub(crate) fn follow(site: &Path, first: &str) -> Vec<String> {
    let mut slugs = Vec::new();
    let mut file = Some(first.to_owned());
    let mut pages = 0;
    while let Some(name) = file {
        let page = std::fs::read_to_string(site.join("browse").join(&name)).unwrap();
        pages += 1;
        let here = listed(&page);
        assert!(
            !here.is_empty() && here.len() <= 500,
            "{name}: {}",
            here.len()
        );
        assert!(page.contains(&format!("page {pages} of ")), "{name}");
        slugs.extend(here);
        file = page.find("\" rel=\"next\"").map(|end| {
            let start = page[..end].rfind('"').unwrap() + 1;
            page[start..end].to_owned()
        });
    }
    slugs
}

#[test]
fn every_entity_is_listed_once_by_name_and_once_under_its_type() {
    let site = shipped_site();
    let index = read_json(&site.join("index.json"));
    let items = index["items"].as_array().unwrap();
    let name_of = |slug: &str| {
        items
            .iter()
            .find(|i| i["slug"] == slug)
            .map(|i| i["name"].as_str().unwrap().to_lowercase())
            .unwrap()
    };
    let by_name = follow(site, "names-1.html");
    assert_eq!(by_name.len(), items.len());
    // Natural order: runs of digits compare as numbers (`2` before `10`).
    let natural = |name: &str| -> Vec<(u8, u128, String)> {
        let mut parts = Vec::new();
        let mut rest = name;
        while let Some(c) = rest.chars().next() {
            let digits = c.is_ascii_digit();
            let end = rest
                .find(|c: char| c.is_ascii_digit() != digits)
                .unwrap_or(rest.len());
            let (run, after) = rest.split_at(end);
            parts.push(match digits {
                true => (0, run.parse().unwrap(), String::new()),
                false => (1, 0, run.to_owned()),
            });
            rest = after;
        }
        parts
    };
    let names: Vec<String> = by_name.iter().map(|s| name_of(s)).collect();
    let bad = names.windows(2).find(|w| natural(&w[0]) > natural(&w[1]));
    assert!(bad.is_none(), "not in name order: {bad:?}");
    let mut sorted = by_name.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), items.len(), "an entity listed twice");

    // The browse index names each type with its count; the type's pages
    // hold exactly the entities whose search results carry that type.
    let browse = std::fs::read_to_string(site.join("browse/index.html")).unwrap();
    let mut total = 0;
    for (k, kind) in ["CreateAction", "UpdateAction", "DeleteAction"]
        .iter()
        .enumerate()
    {
        assert!(browse.contains(&format!(">{kind}</a>")), "{kind}");
        let first = format!("type-{}-1.html", k + 1);
        let page = std::fs::read_to_string(site.join("browse").join(&first)).unwrap();
        assert!(page.contains(&format!("Every {kind} by name")), "{first}");
        let slugs = follow(site, &first);
        for slug in &slugs {
            let entity = read_json(&site.join(format!("{slug}.jsonld")));
            assert_eq!(entity["@type"], *kind, "{slug} under {kind}");
        }
        total += slugs.len();
    }
    assert_eq!(total, items.len());
}
