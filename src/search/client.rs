//! The search client in JavaScript (`assets/search.js`): the reader of
//! [`super::format`] in the browser and in the hosts' handlers, with the
//! semantics of this module. Committed source, so the crate builds without
//! npm; its parity with this module is tested (`tests/search_js/`).

/// The client's source: published as `search.js`, and inlined into the
/// pages' script and the hosts' handlers.
pub const SEARCH_JS: &str = include_str!("../../assets/search.js");
