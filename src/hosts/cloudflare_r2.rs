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

/// A plan's limits (`docs/hosts.md` cites each): an R2 object of at most
/// 5 TiB less 5 GiB, a Worker of at most `worker` bytes gzipped.
const fn limits(worker: u64) -> [Limit; 2] {
    [
        Limit {
            measure: Measure::FileBytes,
            most: 5 * TIB - 5 * GIB,
        },
        Limit {
            measure: Measure::HandlerBytes {
                file: WORKER,
                compressed: true,
            },
            most: worker,
        },
    ]
}

/// R2 behind a Worker on the Workers Free plan (a Worker of 3 MiB
/// compressed) and on Workers Paid (10 MiB).
pub const PLANS: &[Plan] = &[
    Plan {
        name: "cloudflare-r2",
        title: "Cloudflare R2 with a Worker (Workers Free)",
        runs_code: true,
        unlisted: &[],
        limits: &limits(3 * MIB),
    },
    Plan {
        name: "cloudflare-r2-paid",
        title: "Cloudflare R2 with a Worker (Workers Paid)",
        runs_code: true,
        unlisted: &[],
        limits: &limits(10 * MIB),
    },
];
