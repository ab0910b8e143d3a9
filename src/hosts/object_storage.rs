//! Object storage (the S3 API: Amazon S3, Cloudflare R2, Google Cloud
//! Storage, self-hosted stores): no count of objects, an object of at most
//! 5 TiB (uploaded in parts).

use super::limits::{Limit, Measure, Plan, TIB};

/// An object at most 5 TiB (`docs/hosts.md` cites it).
pub const PLANS: &[Plan] = &[Plan {
    name: "object-storage",
    title: "object storage (S3 API)",
    runs_code: false,
    unlisted: &[],
    limits: &[Limit {
        measure: Measure::FileBytes,
        most: 5 * TIB,
    }],
}];
