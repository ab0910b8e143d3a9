//! What a build is asked to do, resolved once from the command line and the
//! environment. Nothing below this module sees clap or the environment.

use crate::hosts::{self, Limit, Plan};
use crate::model::{BaseUrl, BaseUrlError};
use crate::site::bundles::Layout;
use std::path::PathBuf;

/// Settings of one build (or check) of a site.
#[derive(Debug, Clone)]
pub struct BuildConfig {
    /// The input directory: `ontology.json` and `entities/`.
    pub input: PathBuf,
    /// The output directory the site replaces.
    pub out: PathBuf,
    /// Overrides `baseUrl` of `ontology.json`.
    pub base_url: Option<BaseUrl>,
    /// A directory of templates that replace the built-in ones by name.
    pub templates: Option<PathBuf>,
    /// Sibling ontologies to check links against: name, and the sibling's
    /// input or built site.
    pub siblings: Vec<(String, PathBuf)>,
    /// Build even when the output is up to date with the input
    /// (`output::up_to_date`).
    pub force: bool,
    /// Which host's limits the site is checked against.
    pub host: HostCheck,
    /// The layout of the entities' documents `--layout` asks for; else
    /// files, or bundles where the host runs code and files do not fit.
    pub layout: Option<Layout>,
    /// Figures in place of the host's own (`ONTOSITE_HOST_LIMITS`), so that
    /// a test can pass a limit with a small site.
    pub limit_overrides: Vec<Limit>,
    /// Parts of the site-wide documents of at most this many bytes, below
    /// the host's limit (`--part-size`), where its handler joins them.
    pub part_bytes: Option<u64>,
    /// A site published earlier (`--previous`), whose releases are taken
    /// as they are where the input keeps the same sources; without it,
    /// the site in `out`.
    pub previous: Option<PathBuf>,
}

/// Which host's limits a build checks the site against.
#[derive(Debug, Clone, Copy)]
pub enum HostCheck {
    /// The plan `--host` names.
    Named(&'static Plan),
    /// The one `"host"` in `ontology.json` names, if any.
    AsInputSays,
    /// None: a preview (`serve --input`) is not deployed anywhere.
    Off,
}

impl HostCheck {
    /// What `--host` says: its plan, else what the input says.
    pub fn from_flag(flag: Option<&str>) -> Result<HostCheck, ConfigError> {
        Ok(match flag {
            Some(name) => HostCheck::Named(
                hosts::plan(name).ok_or_else(|| ConfigError::Host(name.to_owned()))?,
            ),
            None => HostCheck::AsInputSays,
        })
    }
}

/// The layout `--layout` names.
pub fn layout(flag: Option<&str>) -> Result<Option<Layout>, ConfigError> {
    flag.map(|name| Layout::named(name).ok_or_else(|| ConfigError::Layout(name.to_owned())))
        .transpose()
}

/// A setting that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "--host `{0}` is not a host ontosite knows\n  help: give one of {names} (docs/hosts.md)", names = hosts::plan_names()
    )]
    Host(String),
    #[error(
        "--layout `{0}` is not a layout\n  help: give files (a file per document) or bundled (documents in bundles, which the host's handler answers: docs/hosts.md)"
    )]
    Layout(String),
    #[error(
        "--layout bundled: {0} runs no code, so no handler would answer the bundled documents\n  help: leave --layout out (files), or deploy to a host that runs code ({hosts})", hosts = hosts::code_host_flags()
    )]
    BundledWithoutCode(&'static str),
    #[error(
        "--part-size: {0}\n  help: build for a host that runs code and joins the parts ({hosts}), without --layout files, with parts of 1048576 bytes (1 MiB) or more; or leave --part-size out (docs/hosts.md)", hosts = hosts::code_host_flags()
    )]
    PartSize(&'static str),
    #[error(
        "ONTOSITE_HOST_LIMITS: {0}\n  help: give name=figure pairs separated by commas, such as files=100,file-bytes=5000 (docs/testing.md), or unset it"
    )]
    LimitOverrides(String),
    #[error(
        "--timings: serve runs until it is stopped, so it has no phases to time\n  help: time the build itself with `ontosite build --timings`, then serve what it wrote"
    )]
    TimingsWithServe,
    #[error(
        "--sibling `{0}` is not NAME=PATH\n  help: give the sibling's name from ontology.json and its input or built site, such as --sibling products=../products/input"
    )]
    Sibling(String),
    #[error(
        "the base URL from {from}: {source}\n  help: give an absolute http(s) URL such as https://actions.example.org"
    )]
    BaseUrl {
        from: &'static str,
        #[source]
        source: BaseUrlError,
    },
}

/// The base URL override: `--base-url` (or `ONTOSITE_BASE_URL`, which clap
/// reads into the same flag) first; else, in a Netlify build (`NETLIFY` is
/// `true`), the site's main URL that Netlify puts in `URL`.
pub fn base_url_override(
    flag: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<BaseUrl>, ConfigError> {
    if let Some(text) = flag {
        return parse(text, "--base-url / ONTOSITE_BASE_URL").map(Some);
    }
    if env("NETLIFY").as_deref() == Some("true")
        && let Some(text) = env("URL").filter(|t| !t.is_empty())
    {
        return parse(&text, "Netlify's URL variable").map(Some);
    }
    Ok(None)
}

fn parse(text: &str, from: &'static str) -> Result<BaseUrl, ConfigError> {
    BaseUrl::parse(text).map_err(|source| ConfigError::BaseUrl { from, source })
}

/// `ONTOSITE_HOST_LIMITS`, where it is set.
pub fn limit_overrides(value: Option<&str>) -> Result<Vec<Limit>, ConfigError> {
    value
        .map(hosts::limits::parse_overrides)
        .transpose()
        .map(Option::unwrap_or_default)
        .map_err(ConfigError::LimitOverrides)
}

/// `--sibling NAME=PATH` values, split.
pub fn siblings(given: &[String]) -> Result<Vec<(String, PathBuf)>, ConfigError> {
    given
        .iter()
        .map(|text| match text.split_once('=') {
            Some((name, path)) if !name.is_empty() && !path.is_empty() => {
                Ok((name.to_owned(), PathBuf::from(path)))
            }
            _ => Err(ConfigError::Sibling(text.clone())),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_wins_then_netlify_url() {
        let netlify = |k: &str| match k {
            "NETLIFY" => Some("true".to_owned()),
            "URL" => Some("https://site.netlify.app".to_owned()),
            _ => None,
        };
        let flag = base_url_override(Some("https://a.test"), netlify)
            .unwrap()
            .unwrap();
        assert_eq!(flag.as_str(), "https://a.test");
        let from_netlify = base_url_override(None, netlify).unwrap().unwrap();
        assert_eq!(from_netlify.as_str(), "https://site.netlify.app");
        // `URL` alone is too common a name to trust outside Netlify.
        let plain = |k: &str| (k == "URL").then(|| "https://x.test".to_owned());
        assert!(base_url_override(None, plain).unwrap().is_none());
        assert!(base_url_override(Some("nope"), |_| None).is_err());
    }
}
