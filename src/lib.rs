//! ontosite publishes an ontology as a static JSON and JSON-LD API: files
//! built once, served by any static host or CDN, browsable offline.
//!
//! The pipeline runs one way: [`source`] reads and checks the input into a
//! [`model::Ontology`], [`render`] turns it into documents, [`output`]
//! stages them and swaps them in. [`build`] strings the stages together.
//! [`search`] holds the search semantics that the index is built from.
//! [`serve`] answers HTTP requests from what [`output`] wrote.

pub mod build;
pub mod changes;
pub mod config;
pub mod hosts;
pub mod model;
pub mod output;
pub mod publish;
pub mod render;
pub mod search;
pub mod serve;
pub mod site;
pub mod source;

/// Everything that can stop a build, rendered once, by the binary.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Input(#[from] source::Diagnostics),
    #[error(transparent)]
    Config(#[from] config::ConfigError),
    #[error(transparent)]
    Output(#[from] output::OutputError),
    #[error("rendering `{path}` failed: {source}")]
    Render {
        path: String,
        #[source]
        source: render::RenderError,
    },
    #[error(transparent)]
    Serve(#[from] serve::ServeError),
    #[error(transparent)]
    DoesNotFit(#[from] hosts::DoesNotFit),
    #[error(transparent)]
    Publish(#[from] publish::PublishError),
    #[error("interrupted; the previous output is unchanged")]
    Interrupted,
}
