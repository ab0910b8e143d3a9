//! ontosite publishes an ontology as a static JSON and JSON-LD API: files
//! built once, served by any static host or CDN, browsable offline.
//!
//! The pipeline runs one way: [`source`] reads and checks the input into a
//! [`model::Ontology`], [`render`] turns it into documents, [`output`]
//! stages them and swaps them in. [`build`] strings the stages together.
//! [`search`] holds the search semantics that the index is built from.
//! [`serve`] answers HTTP requests from what [`output`] wrote.

#[cfg(feature = "cli")]
pub mod build;
#[cfg(feature = "cli")]
pub mod changes;
#[cfg(feature = "cli")]
pub mod config;
#[cfg(feature = "cli")]
pub mod hosts;
pub mod model;
#[cfg(feature = "cli")]
pub mod output;
#[cfg(feature = "cli")]
pub mod publish;
#[cfg(feature = "cli")]
pub mod render;
pub mod search;
#[cfg(feature = "cli")]
pub mod serve;
pub mod site;
#[cfg(feature = "cli")]
pub mod source;

/// Everything that can stop a build, rendered once, by the binary.
#[cfg(feature = "cli")]
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
