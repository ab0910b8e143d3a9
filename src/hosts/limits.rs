//! What a host takes: its limits as data, a built site measured against
//! them, and what to do about each one passed. Each host's own figures live
//! in its module; their sources are in `docs/hosts.md`.
//!
//! The measures are of the files a build writes (every one counts: a host
//! uploads the directory as it is) and of the host files' contents (rules,
//! the handler), so a site is refused before it replaces the previous one,
//! never at upload.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;

/// One thing a host counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Measure {
    /// Files in the whole site.
    Files,
    /// Files directly in one directory.
    FilesPerDirectory,
    /// Bytes of one file.
    FileBytes,
    /// Bytes of the whole site.
    SiteBytes,
    /// Path rules in `_headers`.
    HeaderRules,
    /// Rules in `_redirects` without a placeholder or splat.
    StaticRedirects,
    /// Rules in `_redirects` with a placeholder or splat.
    DynamicRedirects,
    /// Include and exclude rules in `_routes.json`.
    RouteRules,
    /// Bytes of the host's handler file: as it is, or gzip-compressed,
    /// whichever the host measures.
    HandlerBytes {
        file: &'static str,
        compressed: bool,
    },
    /// Pieces the handler reads to answer one whole it joins
    /// (`site::parts`): each a read of the host's storage, which
    /// Cloudflare limits per request (subrequests on Workers Free,
    /// storage operations per invocation on Paid), so a whole past the
    /// plan's count would end short after its 200 is sent.
    JoinedPieces,
}

impl Measure {
    /// Every measure, for `ONTOSITE_HOST_LIMITS` (a handler's by the one
    /// name of them all).
    pub const ALL: [Measure; 10] = [
        Measure::Files,
        Measure::FilesPerDirectory,
        Measure::FileBytes,
        Measure::SiteBytes,
        Measure::HeaderRules,
        Measure::StaticRedirects,
        Measure::DynamicRedirects,
        Measure::RouteRules,
        Measure::HandlerBytes {
            file: "",
            compressed: false,
        },
        Measure::JoinedPieces,
    ];

    /// Every measure's name, as a limit is named in messages and in
    /// `ONTOSITE_HOST_LIMITS`.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Files => "files",
            Measure::FilesPerDirectory => "files-per-directory",
            Measure::FileBytes => "file-bytes",
            Measure::SiteBytes => "site-bytes",
            Measure::HeaderRules => "header-rules",
            Measure::StaticRedirects => "static-redirects",
            Measure::DynamicRedirects => "dynamic-redirects",
            Measure::RouteRules => "route-rules",
            Measure::HandlerBytes { .. } => "handler-bytes",
            Measure::JoinedPieces => "joined-pieces",
        }
    }

    /// What the host does with a site past this measure's limit.
    fn outcome(self) -> &'static str {
        match self {
            Measure::JoinedPieces => "end a joined answer short after its 200",
            _ => "refuse it at upload",
        }
    }

    /// Whether it counts files: what bundling the documents answers.
    pub fn counts_files(self) -> bool {
        matches!(self, Measure::Files | Measure::FilesPerDirectory)
    }

    fn counts_bytes(self) -> bool {
        matches!(
            self,
            Measure::FileBytes | Measure::SiteBytes | Measure::HandlerBytes { .. }
        )
    }
}

/// The most of one measure a host takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub measure: Measure,
    pub most: u64,
}

/// What `--host` names: a host on one plan, with its limits.
#[derive(Debug)]
pub struct Plan {
    /// The name `--host` and `"host"` in `ontology.json` take.
    pub name: &'static str,
    /// The host and plan as its publisher knows them.
    pub title: &'static str,
    /// Whether the host runs the site's handler (`/search`, negotiation,
    /// bundled documents); one that does not serves files only.
    pub runs_code: bool,
    /// The files the host reads as its configuration rather than
    /// publishing them, which its file counts leave out.
    pub unlisted: &'static [&'static str],
    pub limits: &'static [Limit],
}

const KIB: u64 = 1024;
pub const MIB: u64 = 1024 * KIB;
pub const GIB: u64 = 1024 * MIB;
pub const TIB: u64 = 1024 * GIB;

/// A built site as the hosts measure it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Measured {
    /// Every file, the output's marker and record included (a host
    /// uploads the directory as it is).
    pub files: u64,
    pub bytes: u64,
    /// The largest file but the host files (whose handlers have limits of
    /// their own): its path and size.
    pub largest_file: (String, u64),
    /// The directory with the most files directly in it ("" for the
    /// root), and how many.
    pub fullest_directory: (String, u64),
    pub header_rules: u64,
    pub static_redirects: u64,
    pub dynamic_redirects: u64,
    pub route_rules: u64,
    /// Each host file's size, as it is and gzip-compressed.
    pub host_files: BTreeMap<String, (u64, u64)>,
    /// The whole the handler joins from the most pieces (its path, as
    /// requested), and how many.
    #[serde(default)]
    pub most_joined: (String, u64),
}

/// The files besides the documents that every site holds: the output's
/// marker and record, and the list of its files with their hashes
/// (`output::MARKER`, `output::RECORD`, `output::objects::OBJECTS`).
const OWN_FILES: u64 = 3;

impl Measured {
    /// Measures a site from every file's path and size, and the contents
    /// of the host files and the bundles' manifest (`read` gives such a
    /// file's bytes, `None` where the site has no such file).
    pub fn of<'a>(
        files: impl IntoIterator<Item = (&'a str, u64)>,
        read: impl Fn(&str) -> Option<Vec<u8>>,
    ) -> Measured {
        let mut measured = Measured {
            files: OWN_FILES,
            ..Measured::default()
        };
        let mut per_directory: BTreeMap<&str, u64> = BTreeMap::new();
        let host_file = |path: &str| super::files().any(|file| file.path == path);
        let mut manifests = Vec::new();
        for (path, size) in files {
            if let Some(folder) = crate::site::bundles::folder_of_manifest(path) {
                manifests.push((folder, path));
            }
            measured.files += 1;
            measured.bytes += size;
            if !host_file(path)
                && (size > measured.largest_file.1 || measured.largest_file.0.is_empty())
            {
                measured.largest_file = (path.to_owned(), size);
            }
            let directory = path.rsplit_once('/').map_or("", |(dir, _)| dir);
            *per_directory.entry(directory).or_default() += 1;
        }
        if let Some((directory, count)) = per_directory
            .iter()
            .max_by_key(|(dir, count)| (**count, std::cmp::Reverse(**dir)))
        {
            measured.fullest_directory = ((*directory).to_owned(), *count);
        }
        let text =
            |path: &str| read(path).map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
        if let Some(headers) = text(crate::site::files::HEADERS) {
            measured.header_rules = header_rules(&headers);
        }
        if let Some(redirects) = text(crate::site::files::REDIRECTS) {
            (measured.static_redirects, measured.dynamic_redirects) = redirect_rules(&redirects);
        }
        if let Some(routes) = text(super::cloudflare::ROUTES) {
            measured.route_rules = route_rules(&routes);
        }
        for file in super::files() {
            if let Some(bytes) = read(file.path) {
                let sizes = (bytes.len() as u64, gzipped_size(&bytes));
                measured.host_files.insert(file.path.to_owned(), sizes);
            }
        }
        // The root's manifest and each copy's: the root's handler joins
        // the wholes of both.
        measured.most_joined = manifests
            .into_iter()
            .filter_map(|(folder, path)| Some(most_joined(folder, &read(path)?)))
            .max_by(first_of_most)
            .unwrap_or_default();
        measured
    }

    /// The figure of `measure` on `plan`, and the file or directory it is
    /// of.
    fn figure(&self, measure: Measure, plan: &Plan) -> (u64, Option<String>) {
        match measure {
            Measure::Files => {
                let unlisted = plan
                    .unlisted
                    .iter()
                    .filter(|path| self.host_files.contains_key(**path))
                    .count() as u64;
                (self.files - unlisted.min(self.files), None)
            }
            Measure::SiteBytes => (self.bytes, None),
            Measure::FileBytes => (self.largest_file.1, Some(self.largest_file.0.clone())),
            Measure::FilesPerDirectory => (
                self.fullest_directory.1,
                Some(format!("{}/", self.fullest_directory.0)),
            ),
            Measure::HeaderRules => (self.header_rules, None),
            Measure::StaticRedirects => (self.static_redirects, None),
            Measure::DynamicRedirects => (self.dynamic_redirects, None),
            Measure::RouteRules => (self.route_rules, None),
            Measure::HandlerBytes { file, compressed } => {
                let (plain, gzipped) = self.host_files.get(file).copied().unwrap_or_default();
                (
                    if compressed { gzipped } else { plain },
                    Some(file.to_owned()),
                )
            }
            Measure::JoinedPieces => (self.most_joined.1, Some(self.most_joined.0.clone())),
        }
    }
}

/// The whole in the bundles' manifest joined from the most pieces, as
/// `/{path}`, and their count; none where nothing is joined. The build
/// wrote the manifest; one it cannot read joins nothing a handler would
/// find either.
fn most_joined(folder: &str, manifest: &[u8]) -> (String, u64) {
    let Ok(manifest) = serde_json::from_slice::<crate::site::bundles::Manifest>(manifest) else {
        return Default::default();
    };
    manifest
        .joined
        .iter()
        .map(|(path, join)| (format!("/{folder}{path}"), join.pieces.len() as u64))
        .max_by(first_of_most)
        .unwrap_or_default()
}

/// Orders two wholes by their pieces, and of as many, the first in path
/// order as the larger: `max_by` then keeps the first of the most.
fn first_of_most(a: &(String, u64), b: &(String, u64)) -> std::cmp::Ordering {
    a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0))
}

/// `_headers`' rules: each line that starts a rule with its path.
fn header_rules(text: &str) -> u64 {
    text.lines().filter(|line| line.starts_with('/')).count() as u64
}

/// `_redirects`' rules, static and dynamic (a placeholder or a splat in
/// the source), as Cloudflare counts them.
fn redirect_rules(text: &str) -> (u64, u64) {
    let mut counts = (0, 0);
    for line in text.lines() {
        let rule = line.split_once('#').map_or(line, |(rule, _)| rule).trim();
        let Some(source) = rule.split_whitespace().next() else {
            continue;
        };
        if source.contains(['*', ':']) {
            counts.1 += 1;
        } else {
            counts.0 += 1;
        }
    }
    counts
}

/// `_routes.json`'s include and exclude rules.
fn route_rules(text: &str) -> u64 {
    let Ok(routes) = serde_json::from_str::<serde_json::Value>(text) else {
        return 0;
    };
    ["include", "exclude"]
        .iter()
        .filter_map(|key| routes[key].as_array())
        .map(|rules| rules.len() as u64)
        .sum()
}

fn gzipped_size(bytes: &[u8]) -> u64 {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to memory cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().map_or(bytes.len(), |gz| gz.len()) as u64
}

/// A site's figure against one limit, and what it is of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    pub limit: Limit,
    pub figure: u64,
    /// The file or directory the figure is of, where it is of one.
    pub at: Option<String>,
    /// Whether the limit is `ONTOSITE_HOST_LIMITS`'s, not the host's own.
    pub overridden: bool,
}

impl Figure {
    /// Whether the figure is past its limit.
    pub fn is_over(&self) -> bool {
        self.figure > self.limit.most
    }

    /// The figure and its limit, as a summary shows them ("11,444 of
    /// 20,000 files").
    pub fn usage(&self) -> String {
        let measure = self.limit.measure;
        let (figure, most) = self.shown();
        let of = match measure {
            Measure::Files => "files".to_owned(),
            Measure::FilesPerDirectory => "files in one directory".to_owned(),
            Measure::FileBytes => "per file".to_owned(),
            Measure::SiteBytes => "in all".to_owned(),
            Measure::HeaderRules => "`_headers` rules".to_owned(),
            Measure::StaticRedirects => "static `_redirects` rules".to_owned(),
            Measure::DynamicRedirects => "dynamic `_redirects` rules".to_owned(),
            Measure::RouteRules => "`_routes.json` rules".to_owned(),
            Measure::HandlerBytes { file, compressed } => match compressed {
                true => format!("for `{file}`, compressed"),
                false => format!("for `{file}`"),
            },
            Measure::JoinedPieces => "reads to join one whole".to_owned(),
        };
        format!("{figure} of {most} {of}{}", self.whose())
    }

    /// The figure and the limit, in the limit's units; where those round
    /// the two alike, the figure in bytes too.
    fn shown(&self) -> (String, String) {
        let measure = self.limit.measure;
        let most = shown(measure, self.limit.most);
        let mut figure = shown_like(measure, self.figure, self.limit.most);
        let alike = figure == shown_like(measure, self.limit.most, self.limit.most);
        if alike && self.figure != self.limit.most {
            figure = format!("{figure} ({} bytes)", grouped(self.figure));
        }
        (figure, most)
    }

    /// Whose limit it is, where it is not the host's own.
    fn whose(&self) -> &'static str {
        if self.overridden {
            " (a figure from ONTOSITE_HOST_LIMITS)"
        } else {
            ""
        }
    }
}

impl Plan {
    /// The site's figure against each of the plan's limits, in the plan's
    /// order, an override's figure in place of the plan's own.
    pub fn figures(&self, measured: &Measured, overrides: &[Limit]) -> Vec<Figure> {
        self.limits
            .iter()
            .map(|limit| {
                let overriding = overrides
                    .iter()
                    .find(|o| o.measure.name() == limit.measure.name());
                let limit = Limit {
                    measure: limit.measure,
                    most: overriding.map_or(limit.most, |o| o.most),
                };
                let (figure, at) = measured.figure(limit.measure, self);
                Figure {
                    limit,
                    figure,
                    at,
                    overridden: overriding.is_some(),
                }
            })
            .collect()
    }
}

/// Limits given as `name=figure,name=figure` (`ONTOSITE_HOST_LIMITS`), in
/// place of a plan's own of the same name: lower ones let a test pass a
/// limit with a small site.
pub fn parse_overrides(text: &str) -> Result<Vec<Limit>, String> {
    text.split(',')
        .filter(|part| !part.trim().is_empty())
        .map(|part| {
            let (name, figure) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}` is not name=figure"))?;
            let measure = Measure::ALL
                .iter()
                .find(|m| m.name() == name.trim())
                .ok_or_else(|| {
                    let names: Vec<&str> = Measure::ALL.iter().map(|m| m.name()).collect();
                    format!(
                        "`{name}` is not a limit; the limits are {}",
                        names.join(", ")
                    )
                })?;
            let most = figure
                .trim()
                .parse()
                .map_err(|_| format!("`{figure}` is not a whole number"))?;
            Ok(Limit {
                measure: *measure,
                most,
            })
        })
        .collect()
}

/// A figure as its measure counts: bytes in binary units, counts with
/// thousands separators.
pub fn shown(measure: Measure, figure: u64) -> String {
    if measure.counts_bytes() {
        bytes(figure)
    } else {
        grouped(figure)
    }
}

/// `figure` as `shown` shows `like`: bytes in the limit's decimal or
/// binary units, so that the two compare at a glance.
fn shown_like(measure: Measure, figure: u64, like: u64) -> String {
    if !measure.counts_bytes() {
        return grouped(figure);
    }
    if !is_decimal(like, 1_000_000) {
        return bytes(figure);
    }
    decimal_bytes(figure)
}

/// Bytes in decimal units, to a tenth ("1.4 GB", "266.2 MB", "12 B"): how
/// the summaries of a build and a publish state what they wrote and sent.
pub fn decimal_bytes(n: u64) -> String {
    for (unit, size) in [("GB", 1_000_000_000), ("MB", 1_000_000), ("kB", 1_000)] {
        if n >= size {
            return format!("{:.1} {unit}", n as f64 / size as f64);
        }
    }
    format!("{n} B")
}

/// Whether `n` is a whole number of the decimal unit `size` and no whole
/// number of mebibytes: a figure the host gives in decimal units.
fn is_decimal(n: u64, size: u64) -> bool {
    n >= size && n.is_multiple_of(size) && !n.is_multiple_of(MIB)
}

fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn bytes(n: u64) -> String {
    // A figure the host gives in decimal units (GitHub's 1 GB) reads as
    // it does.
    for (unit, size) in [("GB", 1_000_000_000), ("MB", 1_000_000)] {
        if is_decimal(n, size) {
            return format!("{} {unit}", n / size);
        }
    }
    for (unit, size) in [("TiB", TIB), ("GiB", GIB), ("MiB", MIB), ("KiB", KIB)] {
        if n >= size {
            let value = n as f64 / size as f64;
            return format!("{value:.1} {unit}");
        }
    }
    format!("{n} B")
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let measure = self.limit.measure;
        let (figure, most) = self.shown();
        let at = self.at.as_deref().unwrap_or_default();
        let sentence = match measure {
            Measure::Files => format!("{figure} files; it takes at most {most} per site"),
            Measure::FilesPerDirectory => {
                format!("{figure} files in `{at}`; it takes at most {most} in one directory")
            }
            Measure::FileBytes => {
                format!("`{at}` is {figure}; it takes at most {most} per file")
            }
            Measure::SiteBytes => format!("{figure} in all; it takes at most {most} per site"),
            Measure::HeaderRules => {
                format!("{figure} rules in `_headers`; it takes at most {most}")
            }
            Measure::StaticRedirects => {
                format!("{figure} static rules in `_redirects`; it takes at most {most}")
            }
            Measure::DynamicRedirects => {
                format!("{figure} dynamic rules in `_redirects`; it takes at most {most}")
            }
            Measure::RouteRules => {
                format!("{figure} rules in `_routes.json`; it takes at most {most}")
            }
            Measure::HandlerBytes { compressed, .. } => format!(
                "`{at}` is {figure}{}; it takes a handler of at most {most}",
                if compressed { " compressed" } else { "" }
            ),
            Measure::JoinedPieces => format!(
                "`{at}` is joined from {figure} pieces, a read each; its handler may make at most {most} reads to answer one request"
            ),
        };
        write!(f, "{sentence}{}", self.whose())
    }
}

/// How a site stands against one plan: its figure against each limit.
#[derive(Debug, Clone)]
pub struct Fit {
    pub plan: &'static Plan,
    pub figures: Vec<Figure>,
}

impl Fit {
    pub fn of(plan: &'static Plan, measured: &Measured, overrides: &[Limit]) -> Fit {
        Fit {
            plan,
            figures: plan.figures(measured, overrides),
        }
    }

    /// The limits the site passes.
    pub fn passed(&self) -> impl Iterator<Item = &Figure> {
        self.figures.iter().filter(|figure| figure.is_over())
    }

    pub fn fits(&self) -> bool {
        self.passed().next().is_none()
    }

    /// Whether the host runs code and refuses only the site's counts of
    /// files: bundled, which its handler answers, it might fit.
    pub fn would_take_bundled(&self) -> bool {
        self.plan.runs_code
            && !self.fits()
            && self
                .passed()
                .all(|figure| figure.limit.measure.counts_files())
    }
}

/// How a site stands against every plan ontosite knows.
pub fn fits(measured: &Measured, overrides: &[Limit]) -> Vec<Fit> {
    super::plans()
        .map(|plan| Fit::of(plan, measured, overrides))
        .collect()
}

/// A site the host of `--host` would refuse: each limit it passes, and
/// the ways out.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.message())]
pub struct DoesNotFit {
    pub plan: &'static Plan,
    pub passed: Vec<Figure>,
    /// The plans the site fits as it is.
    pub fitting: Vec<&'static Plan>,
    /// The plans that run code and refuse only the site's counts of
    /// files, where it is a file per document: bundled for one, it might
    /// fit.
    pub bundling: Vec<&'static Plan>,
    /// Whether `--layout files` asked for a file per document.
    pub files_asked: bool,
}

impl DoesNotFit {
    fn message(&self) -> String {
        let mut outcomes: Vec<&str> = Vec::new();
        for passed in &self.passed {
            let outcome = passed.limit.measure.outcome();
            if !outcomes.contains(&outcome) {
                outcomes.push(outcome);
            }
        }
        let mut message = format!(
            "the site does not fit {} (--host {}), which would {}:",
            self.plan.title,
            self.plan.name,
            outcomes.join(" and ")
        );
        for passed in &self.passed {
            message.push_str(&format!("\n  - {passed}"));
        }
        if self
            .passed
            .iter()
            .any(|passed| passed.limit.measure == Measure::JoinedPieces)
        {
            message.push_str(&format!(
                "\n  help: a larger --part-size joins a whole from fewer pieces: a dump from fewer parts; a JSON list no larger than it stays whole, and a larger one is joined from its pages of {} entities",
                grouped(crate::site::pages::PAGE_ENTITIES as u64)
            ));
        }
        let elsewhere = match self.fitting.as_slice() {
            [] => "no host ontosite knows takes the site as it is".to_owned(),
            plans => format!(
                "the site fits {}: build with --host for one of them",
                plans
                    .iter()
                    .map(|p| format!("{} (--host {})", p.title, p.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        message.push_str(&format!(
            "\n  help: {elsewhere}; each host's limits and what counts against them are in docs/hosts.md"
        ));
        let check = "`ontosite check --host NAME` says whether it fits then";
        if self.bundling.iter().any(|plan| plan.name == self.plan.name) {
            let how = match self.files_asked {
                true => "instead of --layout files ",
                false => "",
            };
            message.push_str(&format!(
                "\n  help: with --layout bundled {how}the documents are bundled for {}'s handler, in far fewer files: `ontosite check --host {} --layout bundled` says whether it fits then",
                self.plan.title, self.plan.name
            ));
        }
        let others: Vec<String> = self
            .bundling
            .iter()
            .filter(|plan| plan.name != self.plan.name)
            .map(|plan| format!("{} (--host {})", plan.title, plan.name))
            .collect();
        if !others.is_empty() {
            let without = match self.files_asked {
                true => " without --layout files",
                false => "",
            };
            message.push_str(&format!(
                "\n  help: built for {}{without}, the documents would be bundled for the host's handler, in far fewer files: {check}",
                others.join(" or ")
            ));
        }
        message
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Plan = Plan {
        name: "small",
        title: "Small",
        runs_code: true,
        unlisted: &["_routes.json"],
        limits: &[
            Limit {
                measure: Measure::Files,
                most: 5,
            },
            Limit {
                measure: Measure::FilesPerDirectory,
                most: 2,
            },
            Limit {
                measure: Measure::FileBytes,
                most: 100,
            },
            Limit {
                measure: Measure::SiteBytes,
                most: 1000,
            },
            Limit {
                measure: Measure::HeaderRules,
                most: 1,
            },
            Limit {
                measure: Measure::StaticRedirects,
                most: 1,
            },
            Limit {
                measure: Measure::DynamicRedirects,
                most: 1,
            },
            Limit {
                measure: Measure::RouteRules,
                most: 2,
            },
            Limit {
                measure: Measure::HandlerBytes {
                    file: "_worker.js",
                    compressed: true,
                },
                most: 40,
            },
            Limit {
                measure: Measure::JoinedPieces,
                most: 2,
            },
        ],
    };

    fn host_file(path: &str) -> Option<Vec<u8>> {
        let text = match path {
            "_headers" => "# a comment\n/*\n  A: b\n/x.json\n  C: d\n",
            "_redirects" => "/old /new 301\n/a/* /b/:splat 200\n# /c /d\n/:x/y /z 200\n",
            "_routes.json" => r#"{"version": 1, "include": ["/*"], "exclude": ["/a", "/b"]}"#,
            "_worker.js" => "x",
            // Two wholes of three pieces, and a copy's of as many: the
            // first in path order is named.
            "entity-bundles/index.json" | "releases/1/entity-bundles/index.json" => {
                let piece = r#"{"path": "p", "skip": 0, "trim": 0}"#;
                let join = format!(
                    r#"{{"type": "t", "head": "", "separator": "", "tail": "", "pieces": [{piece}, {piece}, {piece}]}}"#
                );
                let manifest = format!(
                    r#"{{"version": 2, "count": 1, "formats": [], "joined": {{"all": {join}, "dump.nt": {join}}}}}"#
                );
                return Some(manifest.into_bytes());
            }
            _ => return None,
        };
        Some(text.as_bytes().to_vec())
    }

    #[test]
    fn a_site_within_every_limit_passes_none() {
        let measured = Measured::of([("a.json", 10), ("b/c.json", 20)], |_| None);
        // The two files, and the output's marker, record and list.
        assert_eq!(measured.files, 5);
        assert_eq!(measured.bytes, 30);
        assert_eq!(measured.largest_file, ("b/c.json".to_owned(), 20));
        assert_eq!(measured.fullest_directory, ("".to_owned(), 1));
        assert!(Fit::of(&SMALL, &measured, &[]).fits());
    }

    /// A host that runs code and refuses only the site's counts of files
    /// might take it bundled: the refusal says so, for itself (as
    /// `--layout files` was given or not) and for the others.
    #[test]
    fn a_host_that_refuses_only_the_count_of_files_is_said_to_take_it_bundled() {
        const NO_CODE: Plan = Plan {
            name: "no-code",
            title: "No Code",
            runs_code: false,
            ..SMALL
        };
        let spread: Vec<String> = (0..6).map(|k| format!("d{k}/x.json")).collect();
        let measured = Measured::of(spread.iter().map(|p| (p.as_str(), 1)), |_| None);
        let fit = Fit::of(&SMALL, &measured, &[]);
        assert!(fit.would_take_bundled(), "{:?}", fit.figures);
        assert!(!Fit::of(&NO_CODE, &measured, &[]).would_take_bundled());
        // Three files in one folder, the site's count let be: the folder's
        // count alone.
        let crowded = Measured::of([("a", 1), ("b", 1), ("c", 1)], |_| None);
        let many = Limit {
            measure: Measure::Files,
            most: 100,
        };
        let fit = Fit::of(&SMALL, &crowded, &[many]);
        let passed: Vec<Measure> = fit.passed().map(|f| f.limit.measure).collect();
        assert_eq!(passed, [Measure::FilesPerDirectory]);
        assert!(fit.would_take_bundled());
        // A file past the host's size is not a count, alone or beside one.
        for large in [
            Measured::of([("a.json", 1000)], |_| None),
            Measured::of(
                spread
                    .iter()
                    .map(|p| (p.as_str(), 1))
                    .chain([("big.json", 1000)]),
                |_| None,
            ),
        ] {
            let fit = Fit::of(&SMALL, &large, &[]);
            assert!(!fit.fits() && !fit.would_take_bundled());
        }

        let refused = |plan: &'static Plan, files_asked: bool| {
            DoesNotFit {
                plan,
                passed: Fit::of(plan, &measured, &[]).passed().cloned().collect(),
                fitting: Vec::new(),
                bundling: vec![&SMALL],
                files_asked,
            }
            .to_string()
        };
        let asked = refused(&SMALL, true);
        assert!(
            asked.contains(
                "help: with --layout bundled instead of --layout files the documents are bundled for Small's handler"
            ) && asked.contains("`ontosite check --host small --layout bundled` says whether it fits then")
                && !asked.contains("built for Small"),
            "{asked}"
        );
        let chosen = refused(&SMALL, false);
        assert!(
            chosen.contains(
                "help: with --layout bundled the documents are bundled for Small's handler"
            ) && !chosen.contains("instead of")
                && chosen.contains("`ontosite check --host small --layout bundled` says"),
            "{chosen}"
        );
        let other = refused(&NO_CODE, false);
        assert!(
            other.contains("help: built for Small (--host small), the documents would be bundled")
                && !other.contains("--layout"),
            "{other}"
        );
        let other_asked = refused(&NO_CODE, true);
        assert!(
            other_asked.contains("built for Small (--host small) without --layout files,"),
            "{other_asked}"
        );
    }

    #[test]
    fn each_limit_passed_is_reported_with_its_figure() {
        let files = [
            ("a.json", 10),
            ("b.json", 500),
            ("c.json", 600),
            ("d/e.json", 1),
            ("entity-bundles/index.json", 1),
            ("releases/1/entity-bundles/index.json", 1),
        ];
        let measured = Measured::of(files, host_file);
        // A copy's wholes are named by their paths from the root.
        let copy = Measured::of([files[5]], host_file);
        assert_eq!(copy.most_joined, ("/releases/1/all".to_owned(), 3));
        assert_eq!(measured.header_rules, 2);
        assert_eq!(
            (measured.static_redirects, measured.dynamic_redirects),
            (1, 2)
        );
        assert_eq!(measured.route_rules, 3);
        assert_eq!(measured.host_files["_worker.js"].0, 1);
        assert!(
            measured.host_files["_worker.js"].1 > 1,
            "a gzip header and more"
        );
        let fit = Fit::of(&SMALL, &measured, &[]);
        let passed: Vec<&Figure> = fit.passed().collect();
        let names: Vec<&str> = passed.iter().map(|p| p.limit.measure.name()).collect();
        assert_eq!(
            names,
            [
                "files",
                "files-per-directory",
                "file-bytes",
                "site-bytes",
                "header-rules",
                "dynamic-redirects",
                "route-rules",
                "joined-pieces"
            ]
        );
        let shown: Vec<String> = passed.iter().map(ToString::to_string).collect();
        // Six files and the output's three, less `_routes.json`, which
        // the plan does not count.
        assert_eq!(shown[0], "8 files; it takes at most 5 per site");
        assert_eq!(
            shown[1],
            "3 files in `/`; it takes at most 2 in one directory"
        );
        assert_eq!(
            shown[2],
            "`c.json` is 600 B; it takes at most 100 B per file"
        );
        assert_eq!(shown[3], "1.1 KiB in all; it takes at most 1000 B per site");
        assert_eq!(
            shown[7],
            "`/all` is joined from 3 pieces, a read each; its handler may make at most 2 reads to answer one request"
        );
        assert_eq!(passed[7].usage(), "3 of 2 reads to join one whole");
        // An override in place of the plan's own figure.
        let raised = parse_overrides("files=10, file-bytes=1000").unwrap();
        let fit = Fit::of(&SMALL, &measured, &raised);
        let names: Vec<&str> = fit.passed().map(|p| p.limit.measure.name()).collect();
        assert!(!names.contains(&"files") && !names.contains(&"file-bytes"));
        assert!(parse_overrides("files").is_err());
        assert!(parse_overrides("nope=1").is_err());
        assert!(parse_overrides("files=x").is_err());
    }

    #[test]
    fn figures_read_as_people_write_them() {
        assert_eq!(grouped(19_489), "19,489");
        assert_eq!(grouped(100), "100");
        assert_eq!(grouped(1_000_000), "1,000,000");
        assert_eq!(bytes(25 * MIB), "25.0 MiB");
        assert_eq!(bytes(GIB + GIB / 2), "1.5 GiB");
        assert_eq!(bytes(12), "12 B");
        assert_eq!(bytes(1_000_000_000), "1 GB");
        assert_eq!(bytes(20_000_000), "20 MB");
        assert_eq!(
            shown_like(Measure::SiteBytes, 12_492, 20_000_000),
            "12.5 kB"
        );
        assert_eq!(
            shown_like(Measure::SiteBytes, 1_007_000_000, 1_000_000_000),
            "1.0 GB"
        );
        let just_over = Figure {
            limit: Limit {
                measure: Measure::SiteBytes,
                most: 1_000_000_000,
            },
            figure: 1_000_000_001,
            at: None,
            overridden: false,
        };
        assert_eq!(
            just_over.to_string(),
            "1.0 GB (1,000,000,001 bytes) in all; it takes at most 1 GB per site"
        );
        assert_eq!(shown_like(Measure::SiteBytes, 3 * MIB, 25 * MIB), "3.0 MiB");
        assert_eq!(shown_like(Measure::Files, 12_345, 20_000), "12,345");
        let over = Figure {
            limit: Limit {
                measure: Measure::FileBytes,
                most: 25 * MIB,
            },
            figure: 25 * MIB + 1,
            at: Some("dump.nt".into()),
            overridden: false,
        };
        assert_eq!(
            over.to_string(),
            "`dump.nt` is 25.0 MiB (26,214,401 bytes); it takes at most 25.0 MiB per file"
        );
    }
}
