//! `cargo bench --bench publish`: `ontosite publish` of a synthetic site
//! (the build benchmark's generator, `ONTOSITE_BENCH_ENTITIES` entities,
//! default 20,000, a file per document) to Garage, a real S3-compatible
//! server on loopback, against `aws s3 sync` of the same directory to the
//! same server: a first upload, one with nothing changed, eight (or
//! `ONTOSITE_BENCH_ROUNDS`) after a single entity changed (and changed
//! back), bodies signed and unsigned
//! in turn, with each publish's peak memory (GNU time's, where
//! `/usr/bin/time` is at hand) and the size of the record's head they
//! leave, and the sync tools' case of a fresh checkout,
//! where every file's date is new. Needs `scripts/test.sh` to have built
//! Garage, and the AWS CLI (`aws`) on the PATH for the comparison
//! (`ONTOSITE_BENCH_SYNC=0` leaves it out; `=fresh` leaves out its first
//! upload, the prefix filled by publish). `ONTOSITE_BENCH_HOST` builds the
//! site for that host (`--host`), with `ONTOSITE_HOST_LIMITS` as the build
//! reads it, and `ONTOSITE_BENCH_PART_SIZE` passes `--part-size`:
//! `cloudflare-r2-paid` with `16777216` publishes the big documents in
//! parts of 16 MiB, which the R2 Worker joins (on Workers Free,
//! `cloudflare-r2`, the build refuses `/all` at 100k: 100 pieces, 50
//! subrequests).

mod common;

#[path = "../tests/support/garage.rs"]
mod garage;

use common::{machine, synthetic};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let binary = root.join("tests/s3/bin/garage");
    assert!(
        binary.exists(),
        "run scripts/test.sh first: it builds Garage"
    );
    let entities = common::entities(20_000);
    let work = root.join("target/bench-publish");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let input = synthetic(&work, entities);
    let site = work.join("dist");
    build(&input, &site);
    let files = walkdir::WalkDir::new(&site)
        .into_iter()
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_type().is_file()))
        .count();
    let garage = garage::Garage::start(&binary);
    println!("machine: {}", machine());
    let host = std::env::var("ONTOSITE_BENCH_HOST").unwrap_or_else(|_| "none".into());
    let limits = std::env::var("ONTOSITE_HOST_LIMITS").unwrap_or_else(|_| "none".into());
    let parts = std::env::var("ONTOSITE_BENCH_PART_SIZE").unwrap_or_else(|_| "none".into());
    println!(
        "{entities} entities, {files} files; --host {host}, --part-size {parts}, ONTOSITE_HOST_LIMITS {limits}"
    );
    println!("| run | seconds | peak memory | said |");
    println!("|---|---:|---:|---|");
    // `ontosite publish` of the site to `prefix` of Garage's bucket.
    let report = work.join("publish.time");
    let publish_command = |prefix: &str| {
        let mut command = common::ontosite_measured(&report);
        command
            .arg("publish")
            .arg(&site)
            .arg(format!("s3://{}/{prefix}", garage.bucket))
            .args(["--endpoint", &garage.endpoint, "--region", "garage"])
            .env("AWS_ACCESS_KEY_ID", &garage.key_id)
            .env("AWS_SECRET_ACCESS_KEY", &garage.secret);
        command
    };
    // Bodies signed (a SHA-256 of each, as publish does over plain HTTP,
    // Garage's here) or not (`UNSIGNED-PAYLOAD`, as over HTTPS).
    let publish = |what: &str, unsigned: bool| {
        settle(&garage);
        let (seconds, said) =
            timed(publish_command("ontosite").env("AWS_UNSIGNED_PAYLOAD", unsigned.to_string()));
        let signing = if unsigned { "unsigned" } else { "signed" };
        println!(
            "| ontosite publish: {what}, {signing} | {seconds:.2} | {:.0} MB | {} |",
            common::peak_kb(&report) as f64 / 1024.0,
            said.lines().next().unwrap_or("")
        );
        seconds
    };
    let first = publish("first", false);
    // Garage's resync worker, busy for many minutes after a large upload,
    // sleeps twice as long as it works by default; from here it works
    // without a pause, so that the untimed waits for it are shorter (the
    // first publish ran beside it as configured by default).
    garage.ok(&["worker", "set", "resync-tranquility", "0"]);
    let noop = publish("nothing changed", false);
    // One entity's description changes, and changes back, four times
    // each, bodies signed and unsigned in turn (A B B A A B B A, so each
    // sees as many changes as changes back); the builds are not timed.
    let file = input.join("entities/synthetic.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let changed = text.replacen("an item in Vendor0.", "an item in Vendor0, changed.", 1);
    let (mut signed, mut unsigned) = (Vec::new(), Vec::new());
    // At least one of each; `ONTOSITE_BENCH_ROUNDS` fewer than eight
    // where a first publish at 100,000 entities leaves no time for them.
    let rounds = std::env::var("ONTOSITE_BENCH_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(8)
        .max(2);
    for round in 0..rounds {
        std::fs::write(&file, if round % 2 == 0 { &changed } else { &text }).unwrap();
        build(&input, &site);
        let unsigned_round = matches!(round % 4, 0 | 3);
        let seconds = publish("one entity changed", unsigned_round);
        if unsigned_round {
            &mut unsigned
        } else {
            &mut signed
        }
        .push(seconds);
    }
    let one = median(&mut signed);
    let one_unsigned = median(&mut unsigned);
    println!(
        "one entity changed, median of {} each: {one:.2} s signed, {one_unsigned:.2} s unsigned ({:.2}x)",
        signed.len(),
        one_unsigned / one
    );
    let head = reqwest::blocking::Client::new()
        .get(format!("{}/ontosite/.ontosite-publish.jsonl", garage.web))
        .header("Host", format!("{}.web.garage.localhost", garage.bucket))
        .send()
        .and_then(|response| response.bytes())
        .unwrap();
    println!(
        "the record's head after them: {} lines, {} bytes",
        head.iter().filter(|&&b| b == b'\n').count(),
        head.len()
    );
    let has_aws = Command::new("aws")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_aws || std::env::var("ONTOSITE_BENCH_SYNC").is_ok_and(|v| v == "0") {
        println!(
            "(the comparison with `aws s3 sync` is left out: no `aws` on the PATH, or ONTOSITE_BENCH_SYNC=0)"
        );
        println!(
            "no-op publish: {:.1}% of a first publish; one entity changed {one:.2} s signed, {one_unsigned:.2} s unsigned",
            noop / first * 100.0
        );
        return;
    }
    let sync = |what: &str| {
        settle(&garage);
        let (seconds, _) = timed(
            Command::new("aws")
                .args(["s3", "sync", "--only-show-errors"])
                .arg(&site)
                .arg(format!("s3://{}/sync", garage.bucket))
                .args(["--endpoint-url", &garage.endpoint, "--region", "garage"])
                .env("AWS_ACCESS_KEY_ID", &garage.key_id)
                .env("AWS_SECRET_ACCESS_KEY", &garage.secret),
        );
        println!("| aws s3 sync: {what} | {seconds:.2} | | |");
        seconds
    };
    // At 100,000 entities its first upload takes the better part of an
    // hour: `ONTOSITE_BENCH_SYNC=fresh` fills its prefix with `ontosite
    // publish` instead (untimed), as earlier deploys would have, which
    // `aws s3 sync` then meets as it would any bucket.
    let sync_first = match std::env::var("ONTOSITE_BENCH_SYNC").as_deref() {
        Ok("fresh") => {
            let filled = publish_command("sync").arg("--quiet").status().unwrap();
            assert!(filled.success());
            println!("| (the sync's prefix filled by ontosite publish, untimed) | | | |");
            None
        }
        _ => Some(sync("first")),
    };
    // A fresh checkout in CI: the same bytes, every date new.
    touch_all(&site);
    let sync_fresh = sync("fresh checkout (every date new)");
    let sync_noop = sync("nothing changed");
    println!();
    println!(
        "no-op publish: {:.1}% of a first publish; {:.1}x faster than `aws s3 sync` on a fresh checkout, {:.1}x than its no-op; one entity changed {one:.2} s signed, {one_unsigned:.2} s unsigned",
        noop / first * 100.0,
        sync_fresh / noop,
        sync_noop / noop,
    );
    if let Some(sync_first) = sync_first {
        println!("first publish {:.2}x `aws s3 sync`'s", first / sync_first);
    }
}

/// Waits until Garage's workers are idle: after a large upload its block
/// resync worker keeps a core busy for many minutes, which a timed run
/// beside it would measure. Says how long it waited.
fn settle(garage: &garage::Garage) {
    let started = Instant::now();
    loop {
        let output = garage.cli(&["worker", "list"]);
        let list = String::from_utf8_lossy(&output.stdout);
        // The state column reads `Busy`, or `Busy*` where the worker is
        // busy but pausing for its tranquility: the first 100k run's
        // check for " Busy " missed the latter and timed runs beside the
        // resync.
        let busy = list
            .lines()
            .filter(|line| {
                line.split_whitespace()
                    .nth(1)
                    .is_some_and(|state| state.starts_with("Busy"))
            })
            .count();
        if busy == 0 || started.elapsed().as_secs() > 1800 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_secs(5));
    }
    let waited = started.elapsed().as_secs_f64();
    if waited > 5.0 {
        println!("(waited {waited:.0} s for Garage's workers to go idle)");
    }
}

fn build(input: &Path, site: &Path) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ontosite"));
    command
        .args(["build", "--quiet", "--force", "--input"])
        .arg(input)
        .arg("--out")
        .arg(site);
    if let Some(host) = std::env::var("ONTOSITE_BENCH_HOST")
        .ok()
        .filter(|h| !h.is_empty())
    {
        command.args(["--host", &host]);
    }
    if let Some(size) = std::env::var("ONTOSITE_BENCH_PART_SIZE")
        .ok()
        .filter(|s| !s.is_empty())
    {
        command.args(["--part-size", &size]);
    }
    let status = command.status().unwrap();
    assert!(status.success());
}

fn median(seconds: &mut [f64]) -> f64 {
    seconds.sort_by(f64::total_cmp);
    let half = seconds.len() / 2;
    if seconds.len().is_multiple_of(2) {
        (seconds[half - 1] + seconds[half]) / 2.0
    } else {
        seconds[half]
    }
}

/// Runs `command` to success: its seconds and what it printed.
fn timed(command: &mut Command) -> (f64, String) {
    let started = Instant::now();
    let output = command.output().unwrap();
    let seconds = started.elapsed().as_secs_f64();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (
        seconds,
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// Gives every file of `dir` a new modification time, as a fresh clone does.
fn touch_all(dir: &Path) {
    let now = std::time::SystemTime::now();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let file = std::fs::File::options()
                .write(true)
                .open(entry.path())
                .unwrap();
            file.set_modified(now).unwrap();
        }
    }
}
