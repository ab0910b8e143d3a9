//! Cloudflare Pages: its advanced-mode worker, which answers `/search` and
//! negotiates the IRIs, and `_routes.json`, which sends it only the paths
//! no static file answers. It reads the rule files too (`rules`).

use super::{HostFile, HostInput, script};

/// Cloudflare Pages' advanced-mode worker.
pub const WORKER: &str = "_worker.js";
/// Which paths Cloudflare Pages sends to the worker.
pub const ROUTES: &str = "_routes.json";

fn worker(input: &HostInput, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    script::host_module(
        include_str!("../../assets/cloudflare-worker.js"),
        input.aliases,
        out,
    );
    Ok(())
}

/// `_routes.json`: Cloudflare Pages runs the worker for extensionless
/// paths (`/search` and the IRIs it negotiates) and for the files it must
/// not publish (the worker answers those 404); every other path is a
/// static file that no code sees. An exclude rule wins over an include,
/// and `*` crosses `/`, so an extension that a private file shares
/// (`_routes.json`, `_worker.js`) is excluded only after each first
/// character a published name can have (`/a*.json` ... `/9*.json`); the
/// private files start with `_` or `.`.
fn routes(_: &HostInput, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    let mut exclude = Vec::new();
    for extension in super::published_extensions() {
        let suffix = format!(".{extension}");
        if super::private_files().any(|p| p.ends_with(&suffix)) {
            for first in ('a'..='z').chain('0'..='9') {
                exclude.push(format!("/{first}*{suffix}"));
            }
        } else {
            exclude.push(format!("/*{suffix}"));
        }
    }
    serde_json::to_writer_pretty(
        out,
        &serde_json::json!({ "version": 1, "include": ["/*"], "exclude": exclude }),
    )
}

/// The files the build writes for Cloudflare Pages.
pub const FILES: &[HostFile] = &[
    HostFile {
        path: WORKER,
        write: worker,
    },
    HostFile {
        path: ROUTES,
        write: routes,
    },
];
