//! Cloudflare R2 with a Worker in front: the bucket `ontosite publish`
//! fills holds the site's files, and the Worker answers every request
//! from it as `serve` does (the files, their rewrites, `/search`, content
//! negotiation, the 404 problem). No static host reads `_headers` or
//! `_redirects` there: the objects carry their own headers (publish sets
//! them from the route table) and the Worker carries the rewrites.

use super::limits::{GIB, Limit, MIB, Measure, Plan, TIB};
use super::{HostFile, HostInput, script};

/// The Worker, for `wrangler deploy` with the bucket bound as `SITE`.
pub const WORKER: &str = "_edge/cloudflare-r2/worker.js";

fn worker(input: &HostInput, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    script::host_module(include_str!("../../assets/r2-worker.js"), input, out);
    Ok(())
}

/// The files the build writes for R2.
pub const FILES: &[HostFile] = &[HostFile {
    path: WORKER,
    write: worker,
}];

/// R2 behind a Worker (`docs/hosts.md` cites each limit): an object of
/// at most 5 TiB less 5 GiB, no count of objects, a Worker of at most
/// 64 MiB on every Workers plan; the plans differ in the reads of the
/// bucket one request may make, which bound a whole the Worker joins from
/// its parts: 50 subrequests on Workers Free; on Workers Paid 10,000
/// subrequests, but at most 1,000 operations on Cloudflare's storage
/// (KV, R2) in one invocation, as KV's limits state it.
pub const PLANS: &[Plan] = &[
    Plan {
        name: "cloudflare-r2",
        title: "Cloudflare R2 with a Worker (Workers Free)",
        runs_code: true,
        unlisted: &[],
        limits: &with_reads(50),
    },
    Plan {
        name: "cloudflare-r2-paid",
        title: "Cloudflare R2 with a Worker (Workers Paid)",
        runs_code: true,
        unlisted: &[],
        limits: &with_reads(1_000),
    },
];

/// R2's limits, with the reads of the bucket the Worker's plan allows
/// one request.
const fn with_reads(most: u64) -> [Limit; 3] {
    [
        Limit {
            measure: Measure::FileBytes,
            most: 5 * TIB - 5 * GIB,
        },
        Limit {
            measure: Measure::HandlerBytes {
                file: WORKER,
                compressed: false,
            },
            most: 64 * MIB,
        },
        Limit {
            measure: Measure::JoinedPieces,
            most,
        },
    ]
}
