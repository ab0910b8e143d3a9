//! The `ontosite` binary: parse the command line, call the library, print
//! the result or the error once, and exit with a code that says which.

mod cli;
mod progress;

/// mimalloc: a build of a million entities makes and frees millions of
/// small strings from several threads, which glibc's allocator keeps
/// spread over per-thread arenas.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::Parser;
use cli::{BuildArgs, CheckArgs, Cli, Command, DiffArgs, InputArgs, PublishArgs, ServeArgs};
use ontosite::Error;
use ontosite::build::{self, BuildReport, Progress};
use ontosite::config::{self, BuildConfig, HostCheck};
use ontosite::hosts::{Figure, Fit};
use ontosite::publish;
use ontosite::serve::{self, Event, ServeConfig};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Interrupted) => {
            eprintln!("ontosite: interrupted; the previous output is unchanged");
            ExitCode::from(130)
        }
        Err(error) => {
            // Every error's message already carries its cause.
            eprintln!("error: {}", error.to_string().trim_end());
            ExitCode::FAILURE
        }
    }
}

/// A build's configuration; `serving`, a preview's (`serve --input`),
/// which no host's limits apply to.
fn build_config(
    input: &InputArgs,
    out: PathBuf,
    templates: Option<PathBuf>,
    force: bool,
    serving: bool,
    previous: Option<PathBuf>,
) -> Result<BuildConfig, Error> {
    let base_url = config::base_url_override(input.base_url.as_deref(), |k| std::env::var(k).ok())?;
    Ok(BuildConfig {
        input: input
            .input_dir
            .clone()
            .unwrap_or_else(|| input.input.clone()),
        out,
        base_url,
        templates,
        siblings: config::siblings(&input.siblings)?,
        force,
        host: match serving {
            true => HostCheck::Off,
            false => HostCheck::from_flag(input.host.as_deref())?,
        },
        layout: config::layout(input.layout.as_deref())?,
        limit_overrides: config::limit_overrides(
            std::env::var("ONTOSITE_HOST_LIMITS").ok().as_deref(),
        )?,
        part_bytes: input.part_size,
        previous,
    })
}

fn run(cli: &Cli) -> Result<(), Error> {
    match &cli.command {
        Command::Check(args) => run_check(args, Voice::of(cli)),
        Command::Build(args) => run_build(args, Voice::of(cli)),
        Command::Serve(args) => run_serve(args, Voice::of(cli)),
        Command::Publish(args) => run_publish(args, Voice::of(cli)),
        Command::Diff(args) => run_diff(args, Voice::of(cli)),
    }
}

/// `ontosite publish`.
fn run_publish(args: &PublishArgs, voice: Voice) -> Result<(), Error> {
    let config = publish::PublishConfig {
        site: args.site.clone(),
        target: publish::Target::parse(&args.target)?,
        endpoint: publish::Endpoint {
            url: args.endpoint.clone(),
            region: args.region.clone(),
            path_style: args.path_style,
        },
        dry_run: args.dry_run,
        jobs: args.jobs,
        apply_cors: args.apply_cors,
    };
    let report = with_progress(voice, |progress| publish::publish(&config, progress));
    let report = report?;
    let plan = &report.plan;
    if args.dry_run {
        for object in plan.uploads() {
            println!("send {} ({} bytes)", object.path, object.bytes);
        }
        for path in &plan.removed {
            println!("remove {path}");
        }
    }
    if !voice.quiet || args.dry_run {
        // What a publish sent, less what it copied within the store.
        let bytes = match args.dry_run {
            true => ontosite::hosts::limits::decimal_bytes(report.uploaded_bytes()),
            false if report.moved.copied == 0 => {
                ontosite::hosts::limits::decimal_bytes(report.moved.sent)
            }
            false => format!(
                "{}; {} more copied within the store",
                ontosite::hosts::limits::decimal_bytes(report.moved.sent),
                ontosite::hosts::limits::decimal_bytes(report.moved.copied)
            ),
        };
        println!(
            "{} {} objects ({bytes}) to {}, kept {}, {} {}, in {:.1}s",
            if args.dry_run { "would send" } else { "sent" },
            plan.uploads().count(),
            config.target.url(""),
            plan.kept,
            if args.dry_run {
                "would remove"
            } else {
                "removed"
            },
            plan.removed.len(),
            report.seconds
        );
        if let Some(why) = &report.copies_refused {
            println!(
                "the store copied no part within it ({why}): the large objects that changed after that were sent whole"
            );
        }
        if let Some(why) = report.not_held.first() {
            println!(
                "{} large object(s) sent whole: the store no longer held them as the last publish left them (replaced or removed by another hand, or not readable with this key; the first: {why})",
                report.not_held.len()
            );
        }
        if let Some(first) = report.unsure.first() {
            println!(
                "{} object(s) sent with other bytes than the build listed (the first: {first}), their files changed since the build or while sent: recorded with no hash, so the next publish sends them again; a file edited after the build with its date set back is one, and `ontosite build --force` lists it anew",
                report.unsure.len()
            );
        }
        let cors = if args.apply_cors && !args.dry_run {
            "the bucket's CORS rules are set (--apply-cors)".to_owned()
        } else {
            format!(
                "cross-origin reads need the bucket's CORS rules: --apply-cors sets them, or aws s3api put-bucket-cors --bucket {} --cors-configuration '{}'",
                config.target.bucket,
                publish::store::cors_configuration()
            )
        };
        println!(
            "store: each object has its type and caching; the 303s of content negotiation and /search need a worker in front (docs/hosts.md#object-storage-ontosite-publish); {cors}"
        );
    }
    Ok(())
}

/// `ontosite diff`: the changes between two releases, as JSON on
/// standard output, their counts on standard error (and with `--timings`
/// how long reading and comparing took).
fn run_diff(args: &DiffArgs, voice: Voice) -> Result<(), Error> {
    let changes = with_progress(voice, |progress| {
        progress.phase("reading both releases", None);
        let (before, after) = rayon::join(
            || ontosite::source::load(&args.before, None),
            || ontosite::source::load(&args.after, None),
        );
        let (before, after) = (before?, after?);
        progress.phase("comparing the two releases", None);
        Ok::<_, Error>(ontosite::changes::between(&before, &after))
    })?;
    println!(
        "{}",
        serde_json::to_string_pretty(&changes).unwrap_or_default()
    );
    if !voice.quiet {
        eprintln!("changes: {}", changes.counts());
    }
    Ok(())
}

/// `ontosite check`: reads and checks the input, writes nothing.
fn run_check(args: &CheckArgs, voice: Voice) -> Result<(), Error> {
    let (input, site) = (&args.input, &args.site);
    let config = build_config(
        input,
        site.out.clone(),
        None,
        false,
        false,
        site.previous.clone(),
    )?;
    let checked = with_progress(voice, |progress| build::check(&config, progress));
    let build::CheckReport {
        ontology,
        releases,
        fit,
    } = checked?;
    if !voice.quiet {
        for advice in ontosite::source::advice(&ontology) {
            eprintln!("note: {advice}");
        }
        println!(
            "ok: {} of type {} in {}{}",
            entities(ontology.entities.len()),
            ontology.meta.entity_type,
            config.input.display(),
            match releases {
                0 => String::new(),
                n => format!(", {n} releases"),
            }
        );
        if let Some(fit) = fit {
            println!("{}", fits_line(&fit));
        }
    }
    Ok(())
}

/// `ontosite build`.
fn run_build(args: &BuildArgs, voice: Voice) -> Result<(), Error> {
    let config = build_config(
        &args.input,
        args.site.out.clone(),
        args.templates.clone(),
        args.force,
        false,
        args.site.previous.clone(),
    )?;
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupted);
    // Without a handler, Ctrl-C would kill the process mid-write and
    // leave the staging directory for the next build to clear.
    on_interrupt(move || flag.store(true, Ordering::Relaxed));
    let report = with_progress(voice, |progress| {
        build::build(&config, &interrupted, progress)
    });
    let report = report?;
    if !voice.quiet {
        for advice in &report.advice {
            eprintln!("note: {advice}");
        }
        println!("{}", summary(&report));
        println!("{}", hosts_line(&report));
    }
    Ok(())
}

/// `ontosite serve`, with `--input` a build first (and with `--watch`
/// on every change).
fn run_serve(args: &ServeArgs, voice: Voice) -> Result<(), Error> {
    if voice.timings {
        return Err(config::ConfigError::TimingsWithServe.into());
    }
    let quiet = voice.quiet;
    let dir = args.site_dir.clone().unwrap_or_else(|| args.dir.clone());
    let build = match &args.input {
        Some(input) => Some(build_config(
            &InputArgs {
                input: input.clone(),
                input_dir: None,
                base_url: args.base_url.clone(),
                siblings: Vec::new(),
                host: None,
                layout: None,
                part_size: None,
            },
            dir.clone(),
            args.templates.clone(),
            false,
            true,
            None,
        )?),
        None => None,
    };
    let config = ServeConfig {
        dir,
        addr: SocketAddr::new(args.host, args.port),
        build,
        watch: args.watch,
        runs_code: !args.static_only,
    };
    serve::run(config, move |event| match event {
        Event::RebuildFailed(error) => {
            eprintln!("error: {}", error.to_string().trim_end());
            eprintln!("still serving the last good site");
        }
        _ if quiet => {}
        Event::Listening(url) => println!("serving at {url} (Ctrl-C stops)"),
        Event::Built(report) => println!("{}", summary(&report)),
        Event::Rebuilding => println!("input changed; rebuilding"),
        Event::Rebuilt(report) => println!("{}; now serving it", summary(&report)),
        Event::Reloaded => println!("a new build of the site; now serving it"),
        Event::Stopped => println!("stopped"),
    })?;
    Ok(())
}

/// Runs `run` with a progress bar on standard error when it is a
/// terminal, unless `--quiet`; the bar is cleared when `run` ends, before
/// the summary or the error, which stand alone.
fn with_progress<T>(voice: Voice, run: impl FnOnce(&dyn Progress) -> T) -> T {
    let bar = match voice.quiet {
        true => None,
        false => progress::Bar::on_terminal(),
    };
    let shown: &dyn Progress = match &bar {
        Some(bar) => bar,
        None => &build::Silent,
    };
    match voice.timings {
        true => {
            let timings = progress::Timings::around(shown);
            let result = run(&timings);
            let report = timings.report();
            drop(bar);
            eprint!("{report}");
            result
        }
        false => run(shown),
    }
}

/// What a command prints beside its result: nothing but errors with
/// `--quiet`, its phases' times with `--timings`.
#[derive(Clone, Copy)]
struct Voice {
    quiet: bool,
    timings: bool,
}

impl Voice {
    fn of(cli: &Cli) -> Voice {
        Voice {
            quiet: cli.quiet,
            timings: cli.timings,
        }
    }
}

/// The line a finished build prints first: what it wrote, and where.
fn summary(report: &BuildReport) -> String {
    if report.unchanged {
        return format!(
            "up to date: {}, {} files, {} in {} (the input is unchanged; nothing written, checked in {:.2}s)",
            entities(report.entities),
            report.files,
            ontosite::hosts::limits::decimal_bytes(report.bytes),
            report.out.display(),
            report.elapsed.as_secs_f64(),
        );
    }
    // A rebuild says how much of the previous site it kept.
    let kept = match report.kept {
        0 => String::new(),
        kept => format!(" ({} written, {kept} unchanged)", report.files - kept),
    };
    format!(
        "built {}: {} files{kept}, {} in {:.2}s into {}",
        entities(report.entities),
        report.files,
        ontosite::hosts::limits::decimal_bytes(report.bytes),
        report.elapsed.as_secs_f64(),
        report.out.display()
    )
}

/// What the site fits: the host it was checked against with its figures,
/// or every host it fits and does not.
fn hosts_line(report: &BuildReport) -> String {
    if let (Some(_), Some(fit)) = (report.host, report.hosts.first()) {
        return fits_line(fit);
    }
    let (fitting, unfit): (Vec<&Fit>, Vec<&Fit>) = report.hosts.iter().partition(|f| f.fits());
    let names = |fits: &[&Fit]| {
        fits.iter()
            .map(|fit| fit.plan.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut line = match fitting.as_slice() {
        [] => "hosts: the site fits none of the hosts ontosite knows".to_owned(),
        _ => format!("hosts: the site fits {}", names(&fitting)),
    };
    for fit in unfit {
        let passed: Vec<String> = fit.passed().map(ToString::to_string).collect();
        line.push_str(&format!("; not {} ({})", fit.plan.name, passed.join("; ")));
    }
    line.push_str(" (build --host NAME checks it before replacing the previous site)");
    line
}

/// The host a site was checked against, and its figure against each of
/// the host's limits.
fn fits_line(fit: &Fit) -> String {
    let usage: Vec<String> = fit.figures.iter().map(Figure::usage).collect();
    format!(
        "fits {} (--host {}): {}",
        fit.plan.title,
        fit.plan.name,
        usage.join(", ")
    )
}

/// "1 entity", "2 entities".
fn entities(count: usize) -> String {
    match count {
        1 => "1 entity".to_owned(),
        n => format!("{n} entities"),
    }
}

/// Runs `then` on the first Ctrl-C (SIGINT, or the console's Ctrl-C on
/// Windows), from a thread of its own; where no handler can be set, the
/// build goes on without one.
fn on_interrupt(then: impl FnOnce() + Send + 'static) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build();
    let Ok(runtime) = runtime else { return };
    // Polled once here, which registers the handler before the build
    // starts, not when the thread gets to it.
    let pending = runtime.block_on(async {
        let mut interrupted = Box::pin(tokio::signal::ctrl_c());
        match futures_util::FutureExt::now_or_never(&mut interrupted) {
            None => Some(interrupted),
            Some(_) => None,
        }
    });
    let Some(interrupted) = pending else { return };
    let _ = std::thread::Builder::new()
        .name("interrupt".to_owned())
        .spawn(move || {
            if runtime.block_on(interrupted).is_ok() {
                then();
            }
        });
}
