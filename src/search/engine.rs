//! Matching and ranking over the entities themselves: the reference that
//! the prebuilt index and every client must agree with.

use super::query::Query;
use super::text::SuffixSet;
use super::{near, text};
use crate::model::Entity;
use rayon::prelude::*;

/// Where a term matched: bits of a field mask.
pub mod field {
    pub const NAME: u8 = 1;
    pub const ID: u8 = 2;
    pub const DESCRIPTION: u8 = 4;
}

/// The tiers of the order, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// The terms joined equal the folded ID or the slug.
    Exact = 0,
    /// Every term matches in the name.
    Name = 1,
    /// Every term matches in the name or the ID.
    NameOrId = 2,
    /// Every term matches in some field.
    Any = 3,
    /// Nothing matches strictly, and every term matches in the name,
    /// strictly or nearly (`near`).
    NearName = 4,
    /// Likewise, in the name or the ID.
    NearNameOrId = 5,
    /// Likewise, in some field.
    NearAny = 6,
}

impl Tier {
    /// The near tier that stands where `self` stands among strict ones.
    pub fn near(self) -> Tier {
        match self {
            Tier::Exact | Tier::Name | Tier::NearName => Tier::NearName,
            Tier::NameOrId | Tier::NearNameOrId => Tier::NearNameOrId,
            Tier::Any | Tier::NearAny => Tier::NearAny,
        }
    }
}

/// The tier of an entity, from where each term matched and whether the
/// joined terms equal its ID or slug. `None`: some term matched nowhere.
pub fn tier(term_masks: impl IntoIterator<Item = u8>, exact: bool) -> Option<Tier> {
    let (mut all_name, mut all_name_or_id) = (true, true);
    for mask in term_masks {
        if mask == 0 {
            return None;
        }
        all_name &= mask & field::NAME != 0;
        all_name_or_id &= mask & (field::NAME | field::ID) != 0;
    }
    Some(if exact {
        Tier::Exact
    } else if all_name {
        Tier::Name
    } else if all_name_or_id {
        Tier::NameOrId
    } else {
        Tier::Any
    })
}

/// The texts search reads of one entity: those of every entity, and a
/// term's labels, synonyms and descriptions in every language.
pub struct SearchTexts<'a> {
    pub id: &'a str,
    /// A term's earlier IDs, each searched as the ID is.
    pub ids: Vec<&'a str>,
    pub name: &'a str,
    pub description: &'a str,
    /// Every label and synonym, each searched as the name is.
    pub names: Vec<&'a str>,
    /// Every description, each searched as the description is.
    pub descriptions: Vec<&'a str>,
    pub deprecated: bool,
}

/// What search needs of one entity, computed once.
#[derive(Debug, Clone)]
pub struct Searchable {
    /// Word suffixes of name, ID and description, with their field bit.
    pub fields: [(u8, SuffixSet); 3],
    /// The texts a query equals for the exact tier, folded and joined: the
    /// ID, a term's earlier IDs, and its every label and synonym.
    pub exact: Vec<String>,
    /// A deprecated term: ranked after every other match.
    pub deprecated: bool,
}

impl Searchable {
    pub fn of(entity: &Entity) -> Searchable {
        let texts = |list: fn(&crate::model::Term) -> Vec<&str>| {
            entity.term.as_deref().map(list).unwrap_or_default()
        };
        Searchable::new(SearchTexts {
            id: &entity.id,
            ids: texts(|t| t.alternative_ids.iter().map(String::as_str).collect()),
            name: &entity.name,
            description: &entity.description,
            names: texts(|t| {
                t.labels
                    .iter()
                    .map(|l| l.value.as_str())
                    .chain(t.synonyms.iter().map(|s| s.text.value.as_str()))
                    .collect()
            }),
            descriptions: texts(|t| t.descriptions.iter().map(|d| d.value.as_str()).collect()),
            deprecated: entity.term.as_ref().is_some_and(|t| t.deprecated),
        })
    }

    pub fn new(texts: SearchTexts) -> Searchable {
        // A term's names in every language and its synonyms are its name;
        // its descriptions in every language its description.
        let name = SuffixSet::of(std::iter::once(texts.name).chain(texts.names.iter().copied()));
        let description = SuffixSet::of(
            std::iter::once(texts.description).chain(texts.descriptions.iter().copied()),
        );
        let mut exact: Vec<String> = std::iter::once(texts.id)
            .chain(texts.ids.iter().copied())
            .chain(texts.names.iter().copied())
            .map(text::joined)
            .filter(|e| !e.is_empty())
            .collect();
        exact.sort_unstable();
        exact.dedup();
        Searchable {
            fields: [
                (field::NAME, name),
                (
                    field::ID,
                    SuffixSet::of(std::iter::once(texts.id).chain(texts.ids.iter().copied())),
                ),
                (field::DESCRIPTION, description),
            ],
            exact,
            deprecated: texts.deprecated,
        }
    }

    /// The fields in which `term` matches, as a mask.
    pub fn mask(&self, term: &str) -> u8 {
        self.fields
            .iter()
            .filter(|(_, suffixes)| suffixes.any_starts_with(term))
            .fold(0, |mask, (bit, _)| mask | bit)
    }
}

/// One word suffix of one entity: (suffix, entity position, field bit).
type Entry = (Box<str>, u32, u8);

/// Every word suffix of every entity, sorted, so that the entities a term
/// matches are one range found by binary search instead of a scan of every
/// entity. Made once per ontology, when it is first searched.
#[derive(Debug, Clone, Default)]
pub struct Suffixes {
    /// (suffix, entity position, field bit).
    entries: Vec<Entry>,
    /// Where each distinct suffix starts in `entries`, so that typos are
    /// measured once per word, not once per entity that has it.
    words: Vec<u32>,
}

impl Suffixes {
    pub fn of(searchables: &[Searchable]) -> Suffixes {
        let mut entries: Vec<Entry> = searchables
            .iter()
            .enumerate()
            .flat_map(|(i, s)| {
                s.fields.iter().flat_map(move |(bit, suffixes)| {
                    suffixes
                        .iter()
                        .map(move |suffix| (suffix.into(), i as u32, *bit))
                })
            })
            .collect();
        entries.par_sort_unstable();
        entries.dedup();
        let words = (0..entries.len())
            .filter(|&i| i == 0 || entries[i - 1].0 != entries[i].0)
            .map(|i| i as u32)
            .collect();
        Suffixes { entries, words }
    }

    /// The entries of the words that begin within the term's typo budget
    /// (`near::within_typos`); they all begin with its first character.
    /// The sorted words are walked as a trie: a word reuses the rows of
    /// the prefix it shares with the one before, and the words under a
    /// prefix that is already too far are passed over.
    fn within_typos(&self, term: &str) -> Vec<&Entry> {
        let budget = near::typo_budget(term);
        let chars: Vec<char> = term.chars().collect();
        let Some(first) = chars.first().filter(|_| budget > 0) else {
            return Vec::new();
        };
        let first = first.to_string();
        let word = |w: usize| &*self.entries[self.words[w] as usize].0;
        let start = self
            .words
            .partition_point(|&at| *self.entries[at as usize].0 < *first);
        let end = start
            + self.words[start..]
                .partition_point(|&at| self.entries[at as usize].0.starts_with(&*first));
        let mut rows = near::Rows::new(&chars, budget);
        let (mut previous, mut near_prefix) = (Vec::<char>::new(), None);
        let mut found = Vec::new();
        let mut w = start;
        while w < end {
            let current: Vec<char> = word(w).chars().collect();
            let common = previous
                .iter()
                .zip(&current)
                .take_while(|(a, b)| a == b)
                .count();
            // A prefix near the whole term makes every word under it near.
            let mut near = near_prefix.is_some_and(|depth| depth <= common);
            if !near {
                near_prefix = None;
            }
            rows.truncate(common.min(rows.depth()));
            let mut too_far = None;
            while !near && rows.depth() < current.len() {
                let depth = rows.depth() + 1;
                if !rows.push(&current[..depth]) {
                    too_far = Some(depth);
                    break;
                }
                if rows.ends_near(false) {
                    (near, near_prefix) = (true, Some(depth));
                } else if depth == current.len() {
                    near = rows.ends_near(true);
                }
            }
            if near {
                let to = self
                    .words
                    .get(w + 1)
                    .map_or(self.entries.len(), |&at| at as usize);
                found.extend(&self.entries[self.words[w] as usize..to]);
            }
            w += 1;
            if let Some(depth) = too_far {
                let prefix: String = current[..depth].iter().collect();
                w += self.words[w..end]
                    .partition_point(|&at| self.entries[at as usize].0.starts_with(&*prefix));
            }
            previous = current;
        }
        found
    }

    /// The entries whose suffix starts with `term`: every place it matches.
    fn matching(&self, term: &str) -> &[Entry] {
        let start = self.entries.partition_point(|(s, _, _)| &**s < term);
        let len = self.entries[start..].partition_point(|(s, _, _)| s.starts_with(term));
        &self.entries[start..start + len]
    }
}

/// The matching entities of a query, in answer order, as positions in the
/// rank-ordered entity list: the strict matches, or when there are none,
/// the near ones (word forms under `stemmer`, and typos).
pub fn search<'s>(
    searchables: &[Searchable],
    suffixes: &Suffixes,
    slug: impl Fn(usize) -> &'s str,
    query: &Query,
    stemmer: Option<&str>,
) -> Vec<usize> {
    let joined = query.joined();
    // The strict matches are ranges of the sorted suffixes, ranked as
    // they are, without a copy: the path every query takes.
    let strict: Vec<&[Entry]> = query.terms.iter().map(|t| suffixes.matching(t)).collect();
    let exact = |i: usize| searchables[i].exact.contains(&joined) || slug(i) == joined;
    let hits = ranked(searchables, &strict, exact, |tier| tier);
    if !hits.is_empty() {
        return hits;
    }
    let nearly: Vec<Vec<&Entry>> = query
        .terms
        .iter()
        .map(|t| {
            let stemmed = stemmer
                .and_then(|_| near::stem(t))
                .map(|s| suffixes.matching(&s))
                .unwrap_or_default();
            let mut entries = suffixes.matching(t).iter().collect::<Vec<_>>();
            entries.extend(stemmed);
            entries.extend(suffixes.within_typos(t));
            entries
        })
        .collect();
    let nearly: Vec<&[&Entry]> = nearly.iter().map(Vec::as_slice).collect();
    ranked(searchables, &nearly, |_| false, Tier::near)
}

/// Whether a match ranks after every match that does not: a deprecated
/// term's, unless it is exact. A person who types a deprecated term's
/// exact label or ID means that term (which says it is deprecated and what
/// replaces it), not a live term that only contains the words.
pub fn ranks_last(deprecated: bool, tier: Tier) -> bool {
    deprecated && tier != Tier::Exact
}

/// The entities every term's entries name, in answer order: by
/// (deprecated and not exact, tier, position). An entity is exact where `exact` says so,
/// and `place` turns a strict tier into the one the answer uses.
fn ranked<E: std::borrow::Borrow<Entry>>(
    searchables: &[Searchable],
    per_term: &[&[E]],
    exact: impl Fn(usize) -> bool,
    place: fn(Tier) -> Tier,
) -> Vec<usize> {
    // Where each term matched, per entity.
    let masks: Vec<Vec<u8>> = per_term
        .iter()
        .map(|entries| {
            let mut mask = vec![0u8; searchables.len()];
            for entry in *entries {
                let &(_, entity, bit) = entry.borrow();
                mask[entity as usize] |= bit;
            }
            mask
        })
        .collect();
    // An entity must match every term: the rarest term's entities are
    // every candidate.
    let rarest = per_term.iter().min_by_key(|m| m.len());
    let mut candidates: Vec<usize> = rarest
        .into_iter()
        .flat_map(|entries| entries.iter())
        .map(|entry| entry.borrow().1 as usize)
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    let mut hits: Vec<(bool, Tier, usize)> = candidates
        .into_iter()
        .filter_map(|i| {
            tier(masks.iter().map(|m| m[i]), exact(i)).map(|tier| {
                let tier = place(tier);
                (ranks_last(searchables[i].deprecated, tier), tier, i)
            })
        })
        .collect();
    hits.sort_unstable();
    hits.into_iter().map(|(_, _, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Origin, Slug};
    use crate::search::Searcher;

    fn entity(id: &str, slug: Option<&str>, name: &str, description: &str) -> Entity {
        Entity {
            id: id.to_owned(),
            slug: slug.map_or_else(|| Slug::from_id(id), Slug::parse).unwrap(),
            name: name.to_owned(),
            description: description.to_owned(),
            iri: None,
            extra: serde_json::Map::new(),
            link_names: Default::default(),
            term: None,
            origin: Origin {
                path: std::path::Path::new("t.json").into(),
                line: None,
            },
        }
    }

    fn ontology(mut entities: Vec<Entity>) -> crate::model::Ontology {
        entities.sort_by(|a, b| a.slug.cmp(&b.slug));
        crate::model::Ontology {
            meta: crate::model::OntologyMeta::for_test("Action", "http://schema.org/Action"),
            entities,
        }
    }

    fn slugs(searcher: &Searcher, q: &str, limit: usize, offset: usize) -> (usize, Vec<String>) {
        let mut query = Query::from_params(Some(q), None, None).unwrap();
        (query.limit, query.offset) = (limit, offset);
        let answer = searcher.search(&query);
        let listings = searcher.listings();
        (
            answer.total,
            answer
                .page
                .iter()
                .map(|&i| listings[i].slug.to_string())
                .collect(),
        )
    }

    #[test]
    fn matches_from_word_starts_only() {
        let o = ontology(vec![entity(
            "AirtableCreateItem",
            None,
            "Airtable - Create Item",
            "Creates a new item in Airtable.",
        )]);
        let s = Searcher::new(&o);
        for hit in [
            "air",
            "creat",
            "CREATE",
            "item",
            "createitem",
            "airtablecreate",
            "Airtable create",
            "AIRTABLE-create!",
        ] {
            assert_eq!(slugs(&s, hit, 100, 0).0, 1, "{hit}");
        }
        for miss in ["table", "reate", "airtable zzz", "tem"] {
            assert_eq!(slugs(&s, miss, 100, 0).0, 0, "{miss}");
        }
        // Terms may match in different fields.
        assert_eq!(slugs(&s, "airtable new", 100, 0).0, 1);
    }

    #[test]
    fn an_exact_match_of_a_deprecated_term_comes_first_the_rest_last() {
        let deprecated = |id: &str, name: &str| {
            let mut e = entity(id, None, name, "");
            e.term = Some(Box::new(crate::model::Term {
                deprecated: true,
                labels: vec![crate::model::Text {
                    value: name.to_owned(),
                    language: None,
                }],
                ..Default::default()
            }));
            e
        };
        let o = ontology(vec![
            deprecated("Old1", "seizure"),
            entity("Live1", None, "focal seizure", ""),
            entity("Live2", None, "seizure threshold", ""),
            deprecated("Old2", "seizure disorder"),
        ]);
        let s = Searcher::new(&o);
        assert_eq!(
            slugs(&s, "seizure", 100, 0).1,
            ["old1", "live1", "live2", "old2"]
        );
    }

    #[test]
    fn tiers_then_slug() {
        let o = ontology(vec![
            // Tier 3: "box" only in the description.
            entity("AaaThing", None, "Aaa - Thing", "Moves a box."),
            // Tier 2: "box" in the ID, not in the name.
            entity("BbbBoxThing", None, "Bbb - Thing", "Does things."),
            // Tier 1: "box" in the name.
            entity("CccThing", None, "Ccc - Box", "Does things."),
            entity("DddThing", None, "Ddd - Box", "Does things."),
            // Tier 0: the joined terms equal the slug.
            entity("Zzz", Some("box"), "Zzz - Other", "Has a box."),
        ]);
        let s = Searcher::new(&o);
        assert_eq!(
            slugs(&s, "box", 100, 0),
            (
                5,
                vec![
                    "box".into(),
                    "cccthing".into(),
                    "dddthing".into(),
                    "bbbboxthing".into(),
                    "aaathing".into()
                ]
            )
        );
        // Tier 0 through the folded, joined ID.
        assert_eq!(slugs(&s, "bbb box thing", 100, 0).1[0], "bbbboxthing");
        assert_eq!(tier([1, 1], false), Some(Tier::Name));
        assert_eq!(tier([1, 2], false), Some(Tier::NameOrId));
        assert_eq!(tier([1, 4], false), Some(Tier::Any));
        assert_eq!(tier([4, 4], true), Some(Tier::Exact));
        assert_eq!(tier([1, 0], true), None);
    }

    #[test]
    fn pages() {
        let o = ontology(
            (0..5)
                .map(|n| entity(&format!("Item{n}"), None, &format!("Item {n}"), "An item."))
                .collect(),
        );
        let s = Searcher::new(&o);
        assert_eq!(
            slugs(&s, "item", 2, 0),
            (5, vec!["item0".into(), "item1".into()])
        );
        assert_eq!(slugs(&s, "item", 2, 4), (5, vec!["item4".into()]));
        assert_eq!(slugs(&s, "item", 2, 9), (5, vec![]));
        let query = Query::from_params(Some("item"), Some("2"), Some("2")).unwrap();
        assert_eq!(s.search(&query).next_offset, Some(4));
        let last = Query::from_params(Some("item"), Some("2"), Some("4")).unwrap();
        assert_eq!(s.search(&last).next_offset, None);
    }
}
