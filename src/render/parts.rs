//! The big documents where the host takes no file as large as the whole:
//! the RDF list and dump cut into parts between units that are never
//! split (the list's own statements, an entry, an entity's statements),
//! planned from each unit's exact size; and the table of the documents a
//! handler answers by joining (`site::parts`), the big JSON lists among
//! them from their pages.

use super::context::{Context, Cuts};
use super::counted::Counted;
use super::error::RenderError;
use super::json::{self, Framed};
use super::rdf::{self, Syntax};
use super::{jsonld, void};
use crate::site::media;
use crate::site::pages::{self, Paged};
use crate::site::parts::{Join, Joins, Parted, Piece};
use rayon::prelude::*;
use std::io::Write;

/// Writes unit `unit` of `parted`.
fn write_unit<W: Write>(
    site: &Context,
    parted: Parted,
    unit: usize,
    writer: &mut rdf::Writer<W>,
) -> Result<(), RenderError> {
    let entities = &site.ontology.entities;
    match (parted, unit) {
        (Parted::List, 0) => {
            rdf::list_head(site, writer)?;
        }
        (Parted::List, u) => {
            rdf::list_entry(site, writer, u - 1, true)?;
        }
        (Parted::Dump, 0) => {
            void::dump_description(site, writer)?;
            rdf::list_head(site, writer)?;
        }
        (Parted::Dump, u) if u <= entities.len() => {
            rdf::list_entry(site, writer, u - 1, false)?;
        }
        (Parted::Dump, u) => {
            let at = u - 1 - entities.len();
            void::dump_entities(site, &entities[at..=at], writer)?;
        }
    }
    Ok(())
}

/// Part `k` (from 1) of `parted` in `syntax`, into any stream: in
/// N-Triples the parts in order are the whole document's lines; in Turtle
/// each part declares the prefixes again.
pub fn part<W: Write>(
    site: &Context,
    parted: Parted,
    syntax: Syntax,
    k: u32,
    out: W,
) -> Result<(), RenderError> {
    let mut writer = rdf::writer(site, syntax, out)?;
    for unit in site.part_units(parted, k) {
        write_unit(site, parted, unit, &mut writer)?;
    }
    writer.end()?;
    Ok(())
}

/// Each unit's size in N-Triples, exactly.
fn unit_bytes(site: &Context, parted: Parted) -> Result<Vec<u64>, RenderError> {
    (0..site.units(parted))
        .into_par_iter()
        .map(|unit| unit_size(site, parted, unit))
        .collect()
}

fn unit_size(site: &Context, parted: Parted, unit: usize) -> Result<u64, RenderError> {
    let mut counted = Counted::default();
    let mut writer = rdf::writer(site, Syntax::NTriples, &mut counted)?;
    write_unit(site, parted, unit, &mut writer)?;
    writer.end()?;
    Ok(counted.bytes)
}

/// Where parts start, for units of `sizes` and parts of at most `most`
/// bytes: as many units a part as fit, at least one (a unit larger than
/// `most` is a part alone, which the build's measure refuses where `most`
/// is the host's limit; under `--part-size` the host takes it).
fn cut(sizes: &[u64], most: u64) -> Vec<usize> {
    let mut starts = vec![0];
    let mut filled = 0u64;
    for (unit, &size) in sizes.iter().enumerate() {
        if filled > 0 && filled.saturating_add(size) > most {
            starts.push(unit);
            filled = 0;
        }
        filled = filled.saturating_add(size);
    }
    starts
}

/// Plans the list's and the dump's parts where the whole N-Triples
/// document is larger than `limit`: parts of nine tenths of it, by the
/// units' N-Triples sizes (a Turtle part, which states the same triples
/// more briefly, with its prefixes, stays within it). The dump's first
/// unit holds the data set's description, which lists the dump's parts:
/// it is measured again with them until the plan holds.
pub(super) fn plan(site: &mut Context, limit: u64) -> Result<(), RenderError> {
    let most = limit / 10 * 9;
    site.cuts = Cuts::default();
    for parted in Parted::EVERY {
        let mut sizes = unit_bytes(site, parted)?;
        if sizes.iter().sum::<u64>() <= limit {
            continue;
        }
        for _ in 0..4 {
            let starts = cut(&sizes, most);
            if site.cuts.of(parted) == starts.as_slice() {
                break;
            }
            match parted {
                Parted::List => site.cuts.list = starts,
                Parted::Dump => site.cuts.dump = starts,
            }
            sizes[0] = unit_size(site, parted, 0)?;
        }
    }
    Ok(())
}

/// The documents answered by joining: the parted RDF documents from their
/// parts, and the big JSON `lists` from their pages.
pub fn joins(site: &Context, lists: &[Paged]) -> Result<Joins, serde_json::Error> {
    let mut joins = Joins::new();
    for parted in Parted::EVERY {
        let Some(count) = site.parts(parted) else {
            continue;
        };
        for (extension, media_type) in [("nt", media::N_TRIPLES), ("ttl", media::TURTLE)] {
            let pieces = (1..=count)
                .map(|k| Piece {
                    path: parted.part(extension, k),
                    skip: 0,
                    trim: 0,
                })
                .collect();
            joins.insert(
                parted.whole(extension),
                Join {
                    media_type: media_type.to_owned(),
                    head: String::new(),
                    separator: String::new(),
                    tail: String::new(),
                    pieces,
                },
            );
        }
    }
    for &list in lists {
        joins.insert(list.whole().to_owned(), list_join(site, list)?);
    }
    Ok(joins)
}

/// The size of a big JSON list's whole file, its newline included.
pub(super) fn list_bytes(site: &Context, list: Paged) -> Result<u64, serde_json::Error> {
    let mut counted = Counted::default();
    match list {
        Paged::List => json::entity_list(site, None, &mut counted)?,
        Paged::ListLd => jsonld::entity_list(site, None, Framed::Whole, &mut counted)?,
        Paged::All => json::all(site, None, &mut counted)?,
    }
    Ok(counted.bytes + 1)
}

/// A big JSON list as its pages' items in order, between the whole
/// list's frame. Each page's frame is rendered without its items to find
/// where they start and end; the items of the whole list and of its
/// pages are written by the one serialiser.
fn list_join(site: &Context, list: Paged) -> Result<Join, serde_json::Error> {
    let frame = |page: Option<usize>| match list {
        Paged::ListLd => {
            let mut out = Vec::new();
            jsonld::entity_list(site, page, Framed::Empty, &mut out).map(|()| out)
        }
        _ => json::frame(site, list, page),
    };
    // An empty array after its key: where the items go.
    let key: &[u8] = match list {
        Paged::ListLd => b"\"itemListElement\":[]",
        _ => b"\"items\":[]",
    };
    // The items' offset in a frame; a key names an object's member, which
    // no string value holds unescaped, so its first place is its own.
    let split = |framed: &[u8]| {
        framed
            .windows(key.len())
            .position(|w| w == key)
            .map(|at| at + key.len() - 1)
            .ok_or_else(|| {
                <serde_json::Error as serde::ser::Error>::custom(format!(
                    "the frame of {} has no items",
                    list.whole()
                ))
            })
    };
    let whole = frame(None)?;
    let at = split(&whole)?;
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let pieces = (1..=pages::count(site.ontology.entities.len()))
        .map(|number| {
            let framed = frame(Some(number))?;
            let skip = split(&framed)?;
            Ok(Piece {
                path: list.file(number),
                skip,
                // The frame's rest, and the newline each file ends with.
                trim: framed.len() - skip + 1,
            })
        })
        .collect::<Result<_, serde_json::Error>>()?;
    Ok(Join {
        media_type: list.media_type().to_owned(),
        head: text(&whole[..at]),
        separator: ",".to_owned(),
        tail: text(&whole[at..]) + "\n",
        pieces,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_take_as_many_units_as_fit() {
        assert_eq!(cut(&[5, 5, 5, 5], 10), vec![0, 2]);
        assert_eq!(cut(&[5, 5, 5, 5], 9), vec![0, 1, 2, 3]);
        assert_eq!(cut(&[30, 1, 1], 10), vec![0, 1]);
        assert_eq!(cut(&[1, 30, 1], 10), vec![0, 1, 2]);
        assert_eq!(cut(&[], 10), vec![0]);
        assert_eq!(cut(&[3, 3, 3], 100), vec![0]);
    }
}
