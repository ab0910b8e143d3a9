//! The command line, as clap types only. `main` turns them into the
//! library's configuration; nothing else sees clap.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  ontosite build                              build input/ into dist/
  ontosite build --base-url https://api.example.org
  ontosite build --input ontologies/products --out public
  ontosite build --templates my-templates      replace the built-in page templates
  ontosite check                              validate input/, write nothing
  ontosite check --previous deployed          ... and its releases against the site deployed
  ontosite check --sibling products=../products/input   check the links into products too
  ontosite serve                              serve dist/ at http://127.0.0.1:8080/
  ontosite serve public --port 3000           serve public/ at port 3000
  ontosite serve --input input --watch        build, serve, rebuild on every change";

/// `ontosite --version`: the version and the commit built (`build.rs`).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("ONTOSITE_COMMIT"),
    ")"
);

/// Publish an ontology as a static JSON and JSON-LD API.
#[derive(Debug, Parser)]
#[command(name = "ontosite", version = VERSION, about, after_help = EXAMPLES)]
pub struct Cli {
    /// Print nothing but errors (`serve` not even its address).
    #[arg(long, short, global = true)]
    pub quiet: bool,

    /// After a build, check, publish or diff, print how long each of its
    /// phases took (on standard error): where a large site's time goes.
    #[arg(long, global = true)]
    pub timings: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build the site from the input directory into the output directory.
    #[command(after_help = EXAMPLES)]
    Build(BuildArgs),
    /// Read and validate the input, and the releases against the site
    /// built or published before; write nothing.
    #[command(after_help = EXAMPLES)]
    Check(CheckArgs),
    /// Serve a built site over HTTP as the CDN serves it: its _headers and
    /// _redirects, /search, CORS, caching, compression.
    #[command(after_help = EXAMPLES)]
    Serve(ServeArgs),
    /// Publish a built site to object storage (the S3 API): only what
    /// changed since the last publish, the site kept whole throughout.
    #[command(after_help = PUBLISH_EXAMPLES)]
    Publish(PublishArgs),
    /// What changed between two releases of an ontology, each an input
    /// directory: terms added, removed, deprecated, un-deprecated,
    /// relabelled, redefined, reparented, with synonyms changed, moved.
    /// Prints JSON.
    Diff(DiffArgs),
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The earlier release's input directory.
    #[arg(value_name = "BEFORE")]
    pub before: PathBuf,

    /// The later release's input directory.
    #[arg(value_name = "AFTER")]
    pub after: PathBuf,
}

const PUBLISH_EXAMPLES: &str = "\
Examples:
  ontosite publish dist s3://my-bucket/pato
  ontosite publish dist s3://ontologies/pato --endpoint https://ACCOUNT.r2.cloudflarestorage.com --region auto
  ontosite publish dist s3://my-bucket/pato --dry-run
  ontosite publish dist s3://my-bucket/pato --apply-cors

Credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and
AWS_SESSION_TOKEN), else as the AWS tools find them: AWS_PROFILE and the
profile files, a web identity, the container's or the instance's role;
they are never printed.";

#[derive(Debug, Args)]
pub struct PublishArgs {
    /// The built site.
    #[arg(value_name = "DIST")]
    pub site: PathBuf,

    /// Where to: s3://BUCKET/PREFIX.
    #[arg(value_name = "TARGET")]
    pub target: String,

    /// The store's S3 endpoint, for stores other than AWS (R2, Garage,
    /// MinIO, B2, GCS); else AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL.
    #[arg(long, value_name = "URL")]
    pub endpoint: Option<String>,

    /// The bucket's region.
    #[arg(long, env = "AWS_REGION", value_name = "REGION")]
    pub region: Option<String>,

    /// Name the bucket in the request's path, not its host name: the
    /// default with --endpoint.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    pub path_style: Option<bool>,

    /// Print what would be sent and removed; change nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// Set the bucket's CORS rules (any origin may read), which the
    /// objects cannot carry; the key needs s3:PutBucketCORS. They replace
    /// the bucket's whole CORS configuration. Without it, publish prints
    /// the rules.
    #[arg(long)]
    pub apply_cors: bool,

    /// How many objects are sent at once.
    #[arg(long, default_value_t = 16, value_name = "N")]
    pub jobs: usize,
}

#[derive(Debug, Args)]
pub struct InputArgs {
    /// The input: ontology.json and entities/.
    #[arg(long, default_value = "input", value_name = "DIR")]
    pub input: PathBuf,

    /// The input directory, as a plain argument (the same as --input).
    #[arg(value_name = "INPUT", conflicts_with = "input")]
    pub input_dir: Option<PathBuf>,

    /// The base URL of the published site; overrides baseUrl in
    /// ontology.json. In a Netlify build, Netlify's URL is used when this is
    /// not given.
    #[arg(
        long,
        env = "ONTOSITE_BASE_URL",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub base_url: Option<String>,

    /// Check every link into a sibling ontology against the sibling's
    /// input or built site; repeatable.
    #[arg(long = "sibling", value_name = "NAME=PATH")]
    pub siblings: Vec<String>,

    /// The host the site is deployed to: netlify, cloudflare (Pages Free),
    /// cloudflare-paid, cloudflare-r2 (R2 with a Worker on Workers Free),
    /// cloudflare-r2-paid (on Workers Paid), github-pages or object-storage
    /// (docs/hosts.md).
    /// The site is measured against its limits: `build` refuses, before it
    /// replaces the previous site, one the host would refuse, and `check`
    /// says so. Overrides "host" in ontology.json.
    #[arg(long, value_name = "HOST")]
    pub host: Option<String>,

    /// How the entities' documents are laid out: files (one per document)
    /// or bundled (in bundles, which the host's handler answers from). By
    /// default files, or bundled where the host runs code and that many
    /// files would pass its limits.
    #[arg(long, value_name = "LAYOUT")]
    pub layout: Option<String>,

    /// Cut the site-wide documents (the dumps, the RDF list, /all and the
    /// JSON lists) into parts of at most this many bytes (1 MiB or more),
    /// which the host's handler joins, though the host would take them
    /// whole: a publish after a change then sends the parts it touched,
    /// not the whole dumps. Needs a host that runs code and the bundled
    /// layout; the wholes are then answered joined, without ranges or
    /// entity tags (docs/hosts.md).
    #[arg(long, value_name = "BYTES")]
    pub part_size: Option<u64>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub site: SiteArgs,
}

/// The site a build replaces, and the one published before it: where the
/// releases published already are read, which neither `build` nor
/// `check` lets the input change.
#[derive(Debug, Args)]
pub struct SiteArgs {
    /// The output directory. `build` replaces it as a whole, and only if
    /// ontosite wrote it (or it is empty).
    #[arg(long, default_value = "dist", value_name = "DIR")]
    pub out: PathBuf,

    /// A site published earlier (the last deploy, downloaded): each
    /// release it holds whose sources input/releases/ keeps unchanged is
    /// taken from it as it is, not built again, and one whose sources
    /// changed is refused. Without it, the site in --out is read so.
    #[arg(long, value_name = "DIR")]
    pub previous: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub site: SiteArgs,

    /// Templates that replace the built-in pages by name: layout.html,
    /// index.html, entity.html, vocab.html, tree.html, browse.html,
    /// list.html, releases.html, removed.html, change-log.html, hash.html,
    /// site.css, site.js.
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,

    /// Build even when nothing the build reads (the input, the templates,
    /// the base URL, ontosite itself) changed since the site in --out was
    /// built, which is otherwise left as it is; write every file anew
    /// instead of keeping (hard-linking) the previous site's unchanged
    /// ones; and ask every file of the releases the site in --out keeps
    /// for its size and date, instead of taking its list's word for
    /// those in folders unchanged since it was written.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The built site to serve (with --input, the directory to build into).
    #[arg(long, default_value = "dist", value_name = "DIR")]
    pub dir: PathBuf,

    /// The site directory, as a plain argument (the same as --dir), as
    /// `build` takes its input.
    #[arg(value_name = "DIR", conflicts_with = "dir")]
    pub site_dir: Option<PathBuf>,

    /// Build from this input directory into --dir before serving.
    #[arg(long, value_name = "DIR")]
    pub input: Option<PathBuf>,

    /// The base URL to build with (with --input); overrides baseUrl in
    /// ontology.json.
    #[arg(
        long,
        env = "ONTOSITE_BASE_URL",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub base_url: Option<String>,

    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub host: std::net::IpAddr,

    /// The port to listen on; 0 takes any free port.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,

    /// Templates to build with (with --input); see `build --templates`.
    #[arg(long, value_name = "DIR", requires = "input")]
    pub templates: Option<PathBuf>,

    /// Rebuild when the input (or --templates) changes and serve the new
    /// site once it is complete; a failed rebuild keeps the last good one.
    #[arg(long, requires = "input")]
    pub watch: bool,

    /// Answer as a host that runs no code would (GitHub Pages, S3): files
    /// and host rules only, so no /search and no content negotiation; an
    /// entity's IRI answers with its page.
    #[arg(long = "static")]
    pub static_only: bool,
}
