//! Matching and ranking over the entities themselves: the reference that
//! the prebuilt index and every client must agree with.

use super::query::Query;
use super::text;
use crate::model::Entity;

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

/// What search needs of one entity, computed once.
#[derive(Debug, Clone)]
pub struct Searchable {
    /// Word suffixes of name, ID and description, with their field bit.
    pub fields: [(u8, Vec<String>); 3],
    /// The folded runs of the ID, joined.
    pub joined_id: String,
}

impl Searchable {
    pub fn of(entity: &Entity) -> Searchable {
        Searchable {
            fields: [
                (field::NAME, text::word_suffixes(&entity.name)),
                (field::ID, text::word_suffixes(&entity.id)),
                (field::DESCRIPTION, text::word_suffixes(&entity.description)),
            ],
            joined_id: text::joined(&entity.id),
        }
    }

    /// The fields in which `term` matches, as a mask.
    pub fn mask(&self, term: &str) -> u8 {
        self.fields
            .iter()
            .filter(|(_, suffixes)| {
                // Sorted suffixes: those starting with `term` follow it.
                let at = suffixes.partition_point(|s| s.as_str() < term);
                suffixes.get(at).is_some_and(|s| s.starts_with(term))
            })
            .fold(0, |mask, (bit, _)| mask | bit)
    }
}

/// The matching entities of a query, in answer order, as positions in the
/// slug-sorted entity list.
pub fn search(searchables: &[Searchable], slugs: &[&str], query: &Query) -> Vec<usize> {
    let joined = query.joined();
    let mut hits: Vec<(Tier, usize)> = searchables
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let exact = s.joined_id == joined || slugs[i] == joined;
            tier(query.terms.iter().map(|t| s.mask(t)), exact).map(|tier| (tier, i))
        })
        .collect();
    hits.sort_unstable();
    hits.into_iter().map(|(_, i)| i).collect()
}
