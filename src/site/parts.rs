//! The documents a site publishes in parts, where its host takes no file
//! as large as the whole: the RDF list and dump as parts that are RDF
//! documents of their own, and the table by which a handler (and `serve`
//! in the host's stead) answers a whole document by joining what the site
//! publishes: the RDF parts in order, or the big JSON lists' pages with
//! their wrappers cut off. The table is data, so the Rust and JavaScript
//! answers are one procedure over it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An RDF document that is written in parts where it would pass the
/// host's file size: each part is a document in the same syntax, split
/// between units never split (the list's own statements, one entry, one
/// entity's statements).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Parted {
    /// `index.nt`, `index.ttl`: the entity list.
    List,
    /// `dump.nt`, `dump.ttl`: every triple of the site.
    Dump,
}

impl Parted {
    pub const EVERY: [Parted; 2] = [Parted::List, Parted::Dump];

    /// The folder of its parts. The `-` keeps it apart from every slug.
    pub const fn dir(self) -> &'static str {
        match self {
            Parted::List => "index-parts",
            Parted::Dump => "dump-parts",
        }
    }

    /// The whole document's file in the syntax with `extension` (`nt`,
    /// `ttl`).
    pub fn whole(self, extension: &str) -> String {
        match self {
            Parted::List => format!("index.{extension}"),
            Parted::Dump => format!("dump.{extension}"),
        }
    }

    /// Part `k` (from 1) in the syntax with `extension`.
    pub fn part(self, extension: &str, k: u32) -> String {
        format!("{}/{k}.{extension}", self.dir())
    }
}

/// The wholes answered by joining, by their site path without the
/// leading `/` (`dump.nt`, `all`).
pub type Joins = BTreeMap<String, Join>;

/// How a whole document is made of published files: `head`, then each
/// piece's bytes with `separator` between them, then `tail`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Join {
    /// The media type the whole is answered with, as a host types its
    /// file.
    #[serde(rename = "type")]
    pub media_type: String,
    pub head: String,
    pub separator: String,
    pub tail: String,
    pub pieces: Vec<Piece>,
}

/// A published file and how much of it the whole takes: all of it but
/// its first `skip` and last `trim` bytes (a page's own wrapper).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// Its path from the site's root, without the leading `/`.
    pub path: String,
    pub skip: usize,
    pub trim: usize,
}

impl Join {
    /// The same whole, of a site in `folder` (`releases/{version}/`), as
    /// the root's handlers answer it: its pieces' paths from the root.
    pub fn in_folder(&self, folder: &str) -> Join {
        let pieces = self
            .pieces
            .iter()
            .map(|piece| Piece {
                path: format!("{folder}{}", piece.path),
                ..piece.clone()
            })
            .collect();
        Join {
            pieces,
            ..self.clone()
        }
    }

    /// The whole, from `read`, which reads a piece's file: none where a
    /// piece is missing or shorter than its wrapper.
    pub fn assemble(&self, mut read: impl FnMut(&str) -> Option<Vec<u8>>) -> Option<Vec<u8>> {
        let mut whole = self.head.as_bytes().to_vec();
        for (i, piece) in self.pieces.iter().enumerate() {
            if i > 0 {
                whole.extend_from_slice(self.separator.as_bytes());
            }
            let bytes = read(&piece.path)?;
            let end = bytes.len().checked_sub(piece.trim)?;
            whole.extend_from_slice(bytes.get(piece.skip..end)?);
        }
        whole.extend_from_slice(self.tail.as_bytes());
        Some(whole)
    }
}

/// Every folder of parts, which the hosts' routes treat as the site's
/// other folders.
pub const DIRS: [&str; 2] = [Parted::List.dir(), Parted::Dump.dir()];

/// The whole files a join may stand for: the parted RDF documents and
/// the big JSON lists.
pub fn joinable() -> impl Iterator<Item = String> {
    Parted::EVERY
        .into_iter()
        .flat_map(|parted| ["nt", "ttl"].map(|extension| parted.whole(extension)))
        .chain(
            super::pages::Paged::EVERY
                .into_iter()
                .map(|list| list.whole().to_owned()),
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::files;

    #[test]
    fn parts_are_named_by_their_whole() {
        assert_eq!(Parted::Dump.whole("nt"), files::DUMP_NT);
        assert_eq!(Parted::Dump.whole("ttl"), files::DUMP_TTL);
        assert_eq!(Parted::List.whole("nt"), files::INDEX_NT);
        assert_eq!(Parted::List.whole("ttl"), files::INDEX_TTL);
        assert_eq!(Parted::Dump.part("nt", 2), "dump-parts/2.nt");
        assert_eq!(Parted::List.part("ttl", 1), "index-parts/1.ttl");
        let joinable: Vec<String> = joinable().collect();
        assert_eq!(joinable.len(), 7);
        assert!(
            joinable
                .iter()
                .all(|f| files::SITE_WIDE.contains(&f.as_str()))
        );
    }

    #[test]
    fn a_join_cuts_each_piece_s_wrapper_and_separates_them() {
        let join = Join {
            media_type: "application/json".into(),
            head: "{\"items\":[".into(),
            separator: ",".into(),
            tail: "]}\n".into(),
            pieces: vec![
                Piece {
                    path: "p/1".into(),
                    skip: 3,
                    trim: 2,
                },
                Piece {
                    path: "p/2".into(),
                    skip: 3,
                    trim: 2,
                },
            ],
        };
        let read = |path: &str| {
            Some(match path {
                "p/1" => b"<<[1,2]>".to_vec(),
                _ => b"<<[3]>".to_vec(),
            })
        };
        assert_eq!(
            join.assemble(read).unwrap(),
            b"{\"items\":[1,2,3]}\n".to_vec()
        );
        assert_eq!(join.assemble(|_| Some(b"<".to_vec())), None);
        assert_eq!(join.assemble(|_| None), None);
    }
}
