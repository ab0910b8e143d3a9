//! Postings as the index's reader ([`super::reader`]) searches them: made
//! absolute once when a node file is read, merged, and looked up in entity
//! order. The build writes them in the encoding of [`super::format`].

use super::format::{EXACT, entity, fields, posting};

/// Postings ([`posting`]). In a file, each entity is the step from the
/// one before; in memory ([`Postings::absolute`]), the entity itself, in
/// increasing order, each once.
#[derive(Default)]
pub struct Postings(pub Vec<u64>);

impl Postings {
    /// The entities themselves, each once (a damaged file's repeats are
    /// joined, their fields together).
    pub fn absolute(self) -> Postings {
        let mut entity = 0u64;
        let mut out: Vec<u64> = Vec::with_capacity(self.0.len());
        for n in self.0 {
            entity = entity.saturating_add(self::entity(n));
            if entity > u64::from(u32::MAX) {
                break;
            }
            match out.last_mut() {
                Some(last) if self::entity(*last) == entity => *last |= u64::from(fields(n)),
                _ => out.push(posting(entity, fields(n))),
            }
        }
        Postings(out)
    }
}

/// Where a walk through a term's postings stands: candidates come in
/// entity order, so each lookup starts where the last one ended and
/// gallops forward.
pub struct Cursor<'a> {
    postings: &'a [u64],
    at: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(postings: &'a [u64]) -> Cursor<'a> {
        Cursor { postings, at: 0 }
    }

    /// The fields `entity` matched in (0: none); `entity` is never less
    /// than the one asked before.
    pub fn fields(&mut self, entity: u32) -> u8 {
        let rest = &self.postings[self.at..];
        let below = |n: &u64| self::entity(*n) < u64::from(entity);
        // Exponential steps to a posting not below the entity, then a
        // binary search within the last step.
        let mut step = 1;
        while step < rest.len() && below(&rest[step]) {
            step *= 2;
        }
        let end = (step + 1).min(rest.len());
        self.at += rest[..end].partition_point(below);
        match self.postings.get(self.at) {
            Some(&n) if self::entity(n) == u64::from(entity) => fields(n) & !EXACT,
            _ => 0,
        }
    }
}

/// The union of sorted postings lists, each entity once with every field
/// it matched in, those with [`EXACT`] alone left out: a merge of the
/// lists' heads, so a common word's list is walked once, not sorted.
pub fn union<'a>(lists: impl IntoIterator<Item = &'a [u64]>) -> Vec<u64> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let lists: Vec<&[u64]> = lists.into_iter().filter(|l| !l.is_empty()).collect();
    let mut merged: Vec<u64> = Vec::with_capacity(lists.iter().map(|l| l.len()).max().unwrap_or(0));
    let mut heads: BinaryHeap<Reverse<(u64, usize, usize)>> = lists
        .iter()
        .enumerate()
        .map(|(list, postings)| Reverse((postings[0], list, 0)))
        .collect();
    while let Some(Reverse((n, list, at))) = heads.pop() {
        if let Some(&next) = lists[list].get(at + 1) {
            heads.push(Reverse((next, list, at + 1)));
        }
        if fields(n) & !EXACT == 0 {
            continue;
        }
        match merged.last_mut() {
            Some(last) if entity(*last) == entity(n) => *last |= u64::from(fields(n)),
            _ => merged.push(n),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps become entities, each once, a damaged file's repeats joined.
    #[test]
    fn postings_are_made_absolute() {
        let file = Postings(vec![
            posting(2, 1),
            posting(3, 2),
            posting(0, 4),
            posting(1, 8),
        ]);
        assert_eq!(
            file.absolute().0,
            [posting(2, 1), posting(5, 6), posting(6, 8)]
        );
    }

    /// A cursor finds every entity's fields, near and far, and 0 for one
    /// its term does not name.
    #[test]
    fn a_cursor_finds_what_it_is_asked_in_order() {
        let postings: Vec<u64> = (0..1000)
            .map(|e| posting(e * 3, (1 + e % 7) as u8))
            .collect();
        let mut cursor = Cursor::new(&postings);
        for entity in [0u32, 1, 3, 4, 6, 300, 301, 303, 2997, 2998, 5000] {
            let expected = if entity % 3 == 0 && entity < 3000 {
                (1 + (u64::from(entity) / 3 % 7) as u8) & !EXACT
            } else {
                0
            };
            assert_eq!(cursor.fields(entity), expected, "entity {entity}");
        }
        assert_eq!(Cursor::new(&[]).fields(0), 0);
    }

    /// The union holds each entity once, its fields joined, the exact-only
    /// postings left out.
    #[test]
    fn a_union_joins_fields_and_leaves_exact_alone_out() {
        let a = [posting(1, 1), posting(4, EXACT), posting(9, 2)];
        let b = [posting(1, 2), posting(5, 4), posting(9, EXACT)];
        let c: [u64; 0] = [];
        assert_eq!(
            union([&a[..], &b[..], &c[..]]),
            [posting(1, 3), posting(5, 4), posting(9, 2)]
        );
    }
}
