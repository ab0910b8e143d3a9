//! An entity's data documents: the renderer each data [`Representation`]
//! of the formats table stands for. Its page is `html`'s, which shows
//! these, so they are apart from it.

use super::context::Context;
use super::error::RenderError;
use super::{json, jsonld, rdf};
use crate::model::Entity;
use crate::site::formats::Representation;

/// Renders the entity's document in `representation` into `out`, without
/// the newline its file ends with; `false`, with nothing written, for the
/// page, which is not data.
pub fn data(
    site: &Context,
    entity: &Entity,
    representation: Representation,
    out: &mut Vec<u8>,
) -> Result<bool, RenderError> {
    match representation {
        Representation::Json => json::entity(site, entity, out)?,
        Representation::JsonLd => jsonld::entity(site, entity, out)?,
        Representation::Turtle => rdf::entity(site, entity, rdf::Syntax::Turtle, out)?,
        Representation::NTriples => rdf::entity(site, entity, rdf::Syntax::NTriples, out)?,
        Representation::Html => return Ok(false),
    }
    Ok(true)
}
