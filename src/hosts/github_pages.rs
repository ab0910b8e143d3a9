//! GitHub Pages: files only (no headers of the site's own, no handler), so
//! no `/search` and no content negotiation there; it reads none of the
//! host files.

use super::limits::{Limit, MIB, Measure, Plan};

/// A published site at most 1 GB, a file at most 100 MiB (`docs/hosts.md`
/// cites each).
pub const PLANS: &[Plan] = &[Plan {
    name: "github-pages",
    title: "GitHub Pages",
    runs_code: false,
    unlisted: &[],
    limits: &[
        Limit {
            measure: Measure::SiteBytes,
            most: 1_000_000_000,
        },
        Limit {
            measure: Measure::FileBytes,
            most: 100 * MIB,
        },
    ],
}];
