//! The hosts a site is deployed to, one module each: the files it reads
//! and the handler it runs, generated from the site's contract. A host is
//! one module and one row of [`HOSTS`]; `render` writes every host's files
//! into the site without knowing which host they are for.

pub mod cloudflare;
pub mod cloudflare_r2;
pub mod github_pages;
pub mod limits;
pub mod netlify;
pub mod object_storage;
pub mod rules;
pub mod script;

pub use limits::{DoesNotFit, Figure, Fit, Limit, Measure, Measured, Plan};

use crate::model::Download;
use crate::site::negotiation::Aliases;

/// What a host's files are made from.
pub struct HostInput<'a> {
    /// The ontology's source files as published, which the rules type.
    pub downloads: &'a [Download],
    /// The paths of the entities' own IRIs, which the handlers carry.
    pub aliases: &'a Aliases,
    /// The folders whose entities' documents are bundled
    /// (`site::bundles`), the root's and the releases' copies', with the
    /// documents each answers by joining what the site publishes (where
    /// the host takes no file as large as the whole): the handlers answer
    /// both.
    pub bundled: &'a crate::site::bundles::Bundled,
    /// Paths that redirect (303) to another path of the site: the kept
    /// releases' version IRIs, to their roots.
    pub see_other: &'a [(String, String)],
    /// Whether the site keeps releases under `/releases/`, whose files the
    /// rules then cache for good.
    pub releases: bool,
}

/// One file the build writes for a host.
#[derive(Debug)]
pub struct HostFile {
    /// Its path from the site's root.
    pub path: &'static str,
    /// Writes it, without the newline every file ends with.
    pub write: fn(&HostInput, &mut Vec<u8>) -> Result<(), serde_json::Error>,
}

/// A host: the files it reads besides the rule files, and the plans a
/// site can be deployed to it on, each with its limits.
pub struct Host {
    pub name: &'static str,
    pub files: &'static [HostFile],
    pub plans: &'static [Plan],
}

/// Every host ontosite knows: it writes each one's files into every site,
/// and `--host` names one of their plans.
pub const HOSTS: &[Host] = &[
    Host {
        name: "netlify",
        files: netlify::FILES,
        plans: netlify::PLANS,
    },
    Host {
        name: "cloudflare",
        files: cloudflare::FILES,
        plans: cloudflare::PLANS,
    },
    Host {
        name: "cloudflare-r2",
        files: cloudflare_r2::FILES,
        plans: cloudflare_r2::PLANS,
    },
    Host {
        name: "github-pages",
        files: &[],
        plans: github_pages::PLANS,
    },
    Host {
        name: "object-storage",
        files: object_storage::FILES,
        plans: object_storage::PLANS,
    },
];

/// Every plan `--host` can name, host by host.
pub fn plans() -> impl Iterator<Item = &'static Plan> {
    HOSTS.iter().flat_map(|host| host.plans)
}

/// The plan `--host` (or `"host"` in `ontology.json`) names.
pub fn plan(name: &str) -> Option<&'static Plan> {
    plans().find(|plan| plan.name == name)
}

/// The names `--host` takes, for messages.
pub fn plan_names() -> String {
    plans().map(|plan| plan.name).collect::<Vec<_>>().join(", ")
}

/// `--host NAME` of each plan whose host runs code: the ones whose
/// handlers answer bundles and join parts.
pub fn code_host_flags() -> String {
    plans()
        .filter(|plan| plan.runs_code)
        .map(|plan| format!("--host {}", plan.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every file the build writes for the hosts: the rule files, which both
/// read, then each host's own.
pub fn files() -> impl Iterator<Item = &'static HostFile> {
    rules::FILES
        .iter()
        .chain(HOSTS.iter().flat_map(|host| host.files))
}

/// The files the build writes for the hosts and for `serve`, which no host
/// may publish (`site::routes::UNPUBLISHED` covers them): every host's,
/// and the aliases.
pub fn private_files() -> impl Iterator<Item = &'static str> {
    files()
        .map(|file| file.path)
        .chain([crate::site::files::ALIASES])
}

/// The extensions of the files a site publishes: each entity format's,
/// the scripts and stylesheet, the gzipped dump (`render`'s tests check
/// every file the build writes against it).
pub fn published_extensions() -> Vec<&'static str> {
    let mut extensions: Vec<&str> = crate::site::formats::ENTITY_FORMATS
        .iter()
        .map(|f| f.extension)
        .collect();
    extensions.extend(["js", "css", "gz"]);
    extensions
}
