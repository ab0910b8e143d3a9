//! The big lists in pages: `index.json`, `index.jsonld` and `/all` stay
//! whole, as the API names them, and are also cut into pages of a bounded
//! number of entities, in the same order, each linking the first, previous,
//! next and last page and the whole list. At a million entities `/all` is
//! about 500 MB; a page is a few hundred kilobytes, and a client can follow
//! `next` and stop where it likes.

use super::files;

/// How many entities a page holds, as a literal for the endpoints'
/// summaries.
macro_rules! page_entities {
    () => {
        1000
    };
}
pub(crate) use page_entities;

/// How many entities a page holds. Bounded bytes follow: a full `/all`
/// page of the shipped set is 575 KB, an `index.json` page 430 KB.
pub const PAGE_ENTITIES: usize = page_entities!();

/// A list that is also offered in pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paged {
    /// `index.json`, the entity list.
    List,
    /// `index.jsonld`, the entity list as an `ItemList`.
    ListLd,
    /// `/all`.
    All,
}

impl Paged {
    pub const EVERY: [Paged; 3] = [Paged::List, Paged::ListLd, Paged::All];

    /// The whole list's file.
    pub fn whole(self) -> &'static str {
        match self {
            Paged::List => files::INDEX,
            Paged::ListLd => files::INDEX_LD,
            Paged::All => files::ALL,
        }
    }

    /// The type the list and its pages are answered with.
    pub const fn media_type(self) -> &'static str {
        match self {
            Paged::ListLd => super::media::JSON_LD,
            Paged::List | Paged::All => super::media::JSON,
        }
    }

    /// The file of page `number` (from 1), relative to the site root.
    pub fn file(self, number: usize) -> String {
        match self {
            Paged::List => format!("{}/index/{number}.json", files::PAGES),
            Paged::ListLd => format!("{}/index/{number}.jsonld", files::PAGES),
            Paged::All => format!("{}/all/{number}.json", files::PAGES),
        }
    }

    /// The endpoint's path as the API documents it.
    pub const fn path(self) -> &'static str {
        match self {
            Paged::List => "/pages/index/{page}.json",
            Paged::ListLd => "/pages/index/{page}.jsonld",
            Paged::All => "/pages/all/{page}.json",
        }
    }
}

/// How many pages a list of `entities` has: at least one, so that the
/// first page is there to link to when the list is empty.
pub fn count(entities: usize) -> usize {
    entities.div_ceil(PAGE_ENTITIES).max(1)
}

/// The positions (from 0) of the entities page `number` holds.
pub fn range(number: usize, entities: usize) -> std::ops::Range<usize> {
    let start = ((number - 1) * PAGE_ENTITIES).min(entities);
    start..(start + PAGE_ENTITIES).min(entities)
}

/// The site paths a page links to: the whole list, and the first,
/// previous, next and last pages.
pub struct Neighbours {
    pub whole: &'static str,
    pub first: String,
    pub previous: Option<String>,
    pub next: Option<String>,
    pub last: String,
}

impl Neighbours {
    pub fn of(list: Paged, number: usize, pages: usize) -> Neighbours {
        Neighbours {
            whole: list.whole(),
            first: list.file(1),
            previous: (number > 1).then(|| list.file(number - 1)),
            next: (number < pages).then(|| list.file(number + 1)),
            last: list.file(pages),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_hold_every_position_once_in_order() {
        for entities in [0, 1, 999, 1000, 1001, 2258, 5000] {
            let positions: Vec<usize> = (1..=count(entities))
                .flat_map(|n| range(n, entities))
                .collect();
            assert_eq!(positions, (0..entities).collect::<Vec<_>>(), "{entities}");
        }
        assert_eq!(count(0), 1);
        assert_eq!(count(2258), 3);
    }
}
