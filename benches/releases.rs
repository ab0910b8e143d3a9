//! `cargo bench --bench releases`: what keeping ten releases costs beside
//! publishing one. Ten synthetic releases of `ONTOSITE_BENCH_ENTITIES`
//! (10,000) entities, each renaming a hundredth of them. Timed, alternated
//! (F A B F A B) over three rounds, medians reported, each run after `sync`
//! and a pause (untimed):
//! - F: the last release alone, as a site without releases, into a new
//!   directory;
//! - A: the same, over the deploy before it (below);
//! - B: the ten releases as CI builds them with the last deploy at hand,
//!   so only the new one is built;
//!
//! then, once, C: the ten from a clean checkout with no published site
//! (skipped with `ONTOSITE_BENCH_CLEAN=0`: at 100,000 entities it is the
//! longest run and 36 GB). `ONTOSITE_BENCH_ROUNDS` (3) sets the rounds.
//!
//! How the last deploy is at hand (`ONTOSITE_BENCH_FROM`):
//! - `out` (the default): as `dist` kept between CI runs
//!   (docs/releases.md): A and B each build into a copy (untimed,
//!   `copy_of`) of the site the release before published (A: release 9
//!   alone; B: the first nine), which the build replaces;
//! - `previous`: each run into a new directory, B given the nine's site
//!   with `--previous` (its releases' files linked one by one).
//!
//! `ONTOSITE_BENCH_HOST` (`--host`) and `ONTOSITE_BENCH_LAYOUT`
//! (`--layout`) build every run for that host and layout: bundled, the
//! releases' copies are bundled too (docs/releases.md).
//!
//! `ONTOSITE_BENCH_KEEP` keeps `target/bench-releases` (the inputs, the
//! published sites and every run) for profiling a run by hand.
//!
//! The runs are not deleted until the end: on an ext4 without a journal
//! (this machine's) the kernel skips every inode freed in the last minute
//! or more when it makes a file, one look-up each, so a build just after
//! half a million files were deleted takes several times as long, and
//! that would be measured instead of the build.

mod common;

use common::{machine, median, synthetic};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const RELEASES: usize = 10;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let binary = root.join("target/release/ontosite");
    let work = root.join("target/bench-releases");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let entities = common::entities(10_000);
    println!("machine: {}", machine());
    for variable in ["ONTOSITE_BENCH_HOST", "ONTOSITE_BENCH_LAYOUT"] {
        if let Ok(value) = std::env::var(variable) {
            println!("{variable}={value}");
        }
    }
    let base = synthetic(&work, entities);
    // input-1: the last release alone; input-9 and input-10: the first
    // nine and all ten, the last of each in the input itself.
    let alone = work.join("input-1");
    write_release(&base, RELEASES, &alone);
    let nine = site_input(&base, &work.join("input-9"), RELEASES - 1);
    let ten = site_input(&base, &work.join("input-10"), RELEASES);
    let in_out = match std::env::var("ONTOSITE_BENCH_FROM").as_deref() {
        Ok("previous") => false,
        Ok("out") | Err(_) => true,
        Ok(other) => panic!("ONTOSITE_BENCH_FROM={other}: `out` or `previous`"),
    };
    println!(
        "the last deploy at hand: {}",
        match in_out {
            true => "in --out (dist kept between runs)",
            false => "--previous, each run into a new directory",
        }
    );
    let published = work.join("published");
    build(&binary, &nine, &published, None);
    // A's deploy before it: release 9 alone.
    let before_one = work.join("published-one");
    if in_out {
        let ninth = work.join("input-ninth");
        write_release(&base, RELEASES - 1, &ninth);
        build(&binary, &ninth, &before_one, None);
    }
    let runs = work.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    let rounds = common::count_from("ONTOSITE_BENCH_ROUNDS", 3).max(1);
    let (mut fresh, mut one, mut kept) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        fresh.push(timed(
            &binary,
            &alone,
            &runs.join(format!("fresh-{round}")),
            None,
        ));
        let out = runs.join(format!("one-{round}"));
        one.push(match in_out {
            true => timed(&binary, &alone, &copy_of(&before_one, &out), None),
            false => timed(&binary, &alone, &out, None),
        });
        let out = runs.join(format!("ten-{round}"));
        kept.push(match in_out {
            true => timed(&binary, &ten, &copy_of(&published, &out), None),
            false => timed(&binary, &ten, &out, Some(&published)),
        });
    }
    let clean = match std::env::var("ONTOSITE_BENCH_CLEAN").as_deref() {
        Ok("0") => None,
        _ => Some(timed(&binary, &ten, &runs.join("clean"), None)),
    };
    let seconds = |times: &[Duration]| {
        times
            .iter()
            .map(|t| format!("{:.2}", t.as_secs_f64()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("rounds, one release, fresh: {} s", seconds(&fresh));
    println!("rounds, one release: {} s", seconds(&one));
    println!(
        "rounds, ten, the nine published at hand: {} s",
        seconds(&kept)
    );
    let files = walkdir::WalkDir::new(runs.join("ten-0"))
        .into_iter()
        .count();
    // `ONTOSITE_BENCH_KEEP` keeps the inputs and sites, to profile a run
    // by hand.
    if std::env::var_os("ONTOSITE_BENCH_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&work);
    }
    let (fresh, one, kept) = (median(&mut fresh), median(&mut one), median(&mut kept));
    println!("files of the ten-release site: {files}");
    println!();
    println!(
        "| entities | one release, fresh (F) | one, over the one before (A) | ten, over the nine (B) | B / F | B / A | ten, clean | clean / F |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let clean = match clean {
        Some(clean) => format!(
            "{:.2} s | {:.2}x",
            clean.as_secs_f64(),
            clean.as_secs_f64() / fresh.as_secs_f64()
        ),
        None => "not run | -".to_owned(),
    };
    println!(
        "| {entities} | {:.2} s | {:.2} s | {:.2} s | {:.2}x | {:.2}x | {clean} |",
        fresh.as_secs_f64(),
        one.as_secs_f64(),
        kept.as_secs_f64(),
        kept.as_secs_f64() / fresh.as_secs_f64(),
        kept.as_secs_f64() / one.as_secs_f64(),
    );
}

/// An input whose current release is `last` (from 1), keeping the ones
/// before it in `releases/`.
fn site_input(base: &Path, input: &Path, last: usize) -> PathBuf {
    for k in 1..last {
        write_release(base, k, &input.join("releases").join(version(k)));
    }
    write_release(base, last, input);
    input.to_owned()
}

fn version(k: usize) -> String {
    format!("1.{k}")
}

/// Release `k`: the synthetic entities, every hundredth (from the `k`th)
/// renamed, with its version.
fn write_release(base: &Path, k: usize, dir: &Path) {
    std::fs::create_dir_all(dir.join("entities")).unwrap();
    let stated = std::fs::read_to_string(base.join("ontology.json")).unwrap();
    let stated = stated.replacen('{', &format!("{{\"version\": \"{}\", ", version(k)), 1);
    std::fs::write(dir.join("ontology.json"), stated).unwrap();
    let lines = std::fs::read_to_string(base.join("entities/synthetic.jsonl")).unwrap();
    let mut out = String::with_capacity(lines.len() + 64);
    for (n, line) in lines.lines().enumerate() {
        if n % 100 == k % 100 {
            out.push_str(&line.replacen("\"name\":\"", &format!("\"name\":\"Renamed in {k} "), 1));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    std::fs::write(dir.join("entities/synthetic.jsonl"), out).unwrap();
}

fn build(binary: &Path, input: &Path, out: &Path, previous: Option<&Path>) {
    let mut command = Command::new(binary);
    command
        .args(["build", "--quiet", "--input"])
        .arg(input)
        .arg("--out")
        .arg(out);
    if let Some(previous) = previous {
        command.arg("--previous").arg(previous);
    }
    for (variable, option) in [
        ("ONTOSITE_BENCH_HOST", "--host"),
        ("ONTOSITE_BENCH_LAYOUT", "--layout"),
    ] {
        if let Ok(value) = std::env::var(variable) {
            command.args([option, &value]);
        }
    }
    assert!(command.status().unwrap().success());
}

/// A copy of the site `site` at `out`, dates kept: a deploy kept, for a
/// build to replace. Its files are copied (`cp -a`), one link each as the
/// build left them (a build links from the site it replaces only a file
/// of one link), but for the releases' folder, which is hard-linked (`cp
/// -al`): nine releases are the most of the site, a build takes them
/// whole, and copying them for each run would be gigabytes at 100,000
/// entities.
fn copy_of(site: &Path, out: &Path) -> PathBuf {
    std::fs::create_dir(out).unwrap();
    // The kept releases linked, everything else copied: one `cp` per
    // batch of entries (`find -exec … +`), not one per entry, which at
    // 100,000 entities (half a million names at the root) took longer
    // than the builds.
    let releases = site.join("releases");
    if releases.exists() {
        let linked = Command::new("cp")
            .arg("-al")
            .arg(&releases)
            .arg(out)
            .status();
        assert!(linked.unwrap().success(), "cp -al {}", releases.display());
    }
    let copied = Command::new("find")
        .arg(site)
        .args(["-mindepth", "1", "-maxdepth", "1", "!", "-name", "releases"])
        .args(["-exec", "cp", "-a", "-t"])
        .arg(out)
        .args(["{}", "+"])
        .status();
    assert!(copied.unwrap().success(), "copying {}", site.display());
    out.to_owned()
}

/// A build into `out`, timed.
fn timed(binary: &Path, input: &Path, out: &Path, previous: Option<&Path>) -> Duration {
    let _ = Command::new("sync").status();
    std::thread::sleep(Duration::from_secs(10));
    let started = Instant::now();
    build(binary, input, out, previous);
    started.elapsed()
}
