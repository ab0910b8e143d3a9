//! Cloudflare Pages: its advanced-mode worker, which answers `/search` and
//! negotiates the IRIs, and `_routes.json`, which sends it only the paths
//! no static file answers. It reads the rule files too (`rules`).

use super::limits::{Limit, MIB, Measure, Plan};
use super::{HostFile, HostInput, script};
use crate::site::{bundles, files, parts};

/// Cloudflare Pages' advanced-mode worker.
pub const WORKER: &str = "_worker.js";
/// Which paths Cloudflare Pages sends to the worker.
pub const ROUTES: &str = "_routes.json";

fn worker(input: &HostInput, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    script::host_module(
        include_str!("../../assets/cloudflare-worker.js"),
        input,
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
fn routes(input: &HostInput, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    let exclude = match input.bundled.is_empty() {
        true => excluded_by_extension(),
        false => excluded_by_name(input),
    };
    serde_json::to_writer_pretty(
        out,
        &serde_json::json!({ "version": 1, "include": ["/*"], "exclude": exclude }),
    )
}

/// What the worker never sees where every document is a file: every path
/// with a published extension.
fn excluded_by_extension() -> Vec<String> {
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
    exclude
}

/// What the worker never sees where the entities' documents are bundled,
/// so that their paths reach it: the site-wide files by name and the
/// folders (the private files go to it, which answers them 404), but the
/// wholes it answers by joining (`site::parts`), and `/releases/` where a
/// release's copy is bundled too (its other files then pass through the
/// worker to the assets: a rule per copy's file would pass the 100).
fn excluded_by_name(input: &HostInput) -> Vec<String> {
    // The private files and the joined wholes: the worker answers both.
    let mut to_worker: Vec<&str> = super::private_files().collect();
    let joined: Vec<String> = input.bundled.joined_paths().collect();
    to_worker.extend(joined.iter().map(String::as_str));
    if input.bundled.in_copies() {
        to_worker.push(files::RELEASES);
    }
    let mut exclude: Vec<String> = Vec::new();
    let mut add = |rule: String| {
        if !exclude.contains(&rule) {
            exclude.push(rule);
        }
    };
    for file in files::SITE_WIDE
        .iter()
        .filter(|file| !to_worker.contains(file))
    {
        match file.split_once('/') {
            // `.well-known/void` is negotiated: the worker answers it.
            Some((".well-known", _)) => {}
            Some((folder, _)) => add(format!("/{folder}/*")),
            None => add(format!("/{file}")),
        }
    }
    for folder in files::FOLDERS
        .iter()
        .chain([&bundles::DIR])
        .chain(&parts::DIRS)
        .filter(|folder| !to_worker.contains(folder))
    {
        if *folder == crate::search::format::DIR {
            // `/search/*` would take `/search` too, which the worker answers.
            for extension in super::published_extensions() {
                add(format!("/{folder}/*.{extension}"));
            }
        } else {
            add(format!("/{folder}/*"));
        }
    }
    exclude
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

/// What both plans take besides the file count (`docs/hosts.md` cites
/// each): 25 MiB per file, 100 `_headers` rules, 2,000 static and 100
/// dynamic `_redirects` rules, 100 `_routes.json` rules, a worker of at
/// most 64 MiB.
const LIMITS: [Limit; 6] = [
    Limit {
        measure: Measure::FileBytes,
        most: 25 * MIB,
    },
    Limit {
        measure: Measure::HeaderRules,
        most: 100,
    },
    Limit {
        measure: Measure::StaticRedirects,
        most: 2_000,
    },
    Limit {
        measure: Measure::DynamicRedirects,
        most: 100,
    },
    Limit {
        measure: Measure::RouteRules,
        most: 100,
    },
    Limit {
        measure: Measure::HandlerBytes {
            file: WORKER,
            compressed: false,
        },
        most: 64 * MIB,
    },
];

/// A plan's limits: its file count, then the rest.
const fn with_files(files: u64) -> [Limit; 7] {
    let mut limits = [Limit {
        measure: Measure::Files,
        most: files,
    }; 7];
    let mut i = 0;
    while i < LIMITS.len() {
        limits[i + 1] = LIMITS[i];
        i += 1;
    }
    limits
}

/// What Cloudflare Pages reads as configuration, not as assets: its
/// file counts leave them out.
const UNLISTED: &[&str] = &[
    WORKER,
    ROUTES,
    crate::site::files::HEADERS,
    crate::site::files::REDIRECTS,
];

/// Cloudflare Pages on the Free plan (20,000 files per site) and on a paid
/// one (100,000, with `PAGES_WRANGLER_MAJOR_VERSION=4`).
pub const PLANS: &[Plan] = &[
    Plan {
        name: "cloudflare",
        title: "Cloudflare Pages (Free)",
        runs_code: true,
        unlisted: UNLISTED,
        limits: &with_files(20_000),
    },
    Plan {
        name: "cloudflare-paid",
        title: "Cloudflare Pages (paid plans)",
        runs_code: true,
        unlisted: UNLISTED,
        limits: &with_files(100_000),
    },
];
