//! Cloudflare Pages: its advanced-mode worker, which answers `/search` and
//! negotiates the IRIs, and `_routes.json`, which sends it only the paths
//! no static file answers. It reads the rule files too (`rules`).

use super::{HostFile, HostInput, script};
use crate::site::files;

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

/// The extensions of the files a site publishes: each entity format's,
/// the scripts and stylesheet, the gzipped dump. (A test checks every
/// file the build writes against it.)
pub fn published_extensions() -> Vec<&'static str> {
    let mut extensions: Vec<&str> = crate::site::formats::ENTITY_FORMATS
        .iter()
        .map(|f| f.extension)
        .collect();
    extensions.extend(["js", "css", "gz"]);
    extensions
}

/// The files the build writes for the hosts, which `UNPUBLISHED` covers.
const PRIVATE_FILES: [&str; 6] = [
    files::ALIASES,
    files::HEADERS,
    files::REDIRECTS,
    ROUTES,
    WORKER,
    super::netlify::EDGE_FUNCTION,
];

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
    for extension in published_extensions() {
        let suffix = format!(".{extension}");
        if PRIVATE_FILES.iter().any(|p| p.ends_with(&suffix)) {
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
