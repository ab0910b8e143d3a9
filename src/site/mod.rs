//! The published site's contract: what a site holds and how it answers,
//! as data. File names, the entity formats, routes and media types, the
//! big lists' pages, content negotiation, the problem document and the
//! search answer. No I/O and no rendering: `render` writes documents that
//! keep it, and `serve`, the hosts and the publisher answer by it, each
//! without depending on the others.

pub mod answers;
pub mod bundles;
pub mod files;
pub mod formats;
pub mod hashes;
pub mod negotiation;
pub mod pages;
pub mod parts;
pub mod reserved;
pub mod routes;

pub use routes::media;
