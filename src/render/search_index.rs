//! `search-index.json`: the searchable text of every entity, for clients
//! that search without a server.
//!
//! One row per entity in slug order, as arrays rather than objects so the
//! field names are not repeated two thousand (or a million) times.

use super::Site;
use serde::Serialize;

/// The format version; a client refuses an index it does not know.
pub const VERSION: u32 = 1;

pub fn render(site: &Site, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    #[derive(Serialize)]
    struct Index<I> {
        version: u32,
        fields: [&'static str; 4],
        items: I,
    }
    struct Rows<'a>(&'a Site<'a>);
    impl Serialize for Rows<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(
                self.0
                    .ontology
                    .entities
                    .iter()
                    .map(|e| [e.slug.as_str(), &e.id, &e.name, &e.description]),
            )
        }
    }
    serde_json::to_writer(
        out,
        &Index {
            version: VERSION,
            fields: ["slug", "id", "name", "description"],
            items: Rows(site),
        },
    )
}
