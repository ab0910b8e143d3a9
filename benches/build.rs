//! `cargo bench --bench build`: how fast `ontosite build` is, measured
//! beside `cp -r` of the same output on the same disk in the same run.
//!
//! Disks on shared machines are noisy, so the two are alternated (A B A B),
//! every run writes a fresh directory (deleting a large tree slows file
//! creation for seconds after, so nothing is deleted until a set is done,
//! and then `sync` and a long pause follow), and medians are reported.
//!
//! With `ONTOSITE_BASELINE=/path/to/an/older/ontosite`, each set is also
//! built by that binary in the same rounds (A B A B), and the ratio of the
//! two builds is printed: what a change costs. The sizes of the shipped
//! set's dumps follow the table.

mod common;

use common::{machine, median, synthetic};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const ROUNDS: usize = 5;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("target/bench-build");
    // A previous run's tree is deleted first, then time passes before
    // anything is timed.
    settle(&work);
    std::fs::create_dir_all(&work).unwrap();
    println!("machine: {}", machine());
    let baseline = std::env::var_os("ONTOSITE_BASELINE").map(PathBuf::from);
    if let Some(baseline) = &baseline {
        println!("baseline: {}", baseline.display());
    }
    println!();
    println!(
        "| set | entities | files | build (median) | entities/s | cp -r (median) | build / cp | baseline (median) | build / baseline |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    row("shipped", &root.join("input"), &work, baseline.as_deref());
    for entities in [10_000, 100_000] {
        let input = synthetic(&work, entities);
        row(
            &format!("synthetic {}k", entities / 1000),
            &input,
            &work,
            baseline.as_deref(),
        );
    }
    println!();
    // The rebuilds change an entity: the shipped set's is a copy.
    let shipped = work.join("input-shipped");
    copy_tree(&root.join("input"), &shipped);
    for (label, input) in [
        ("shipped set", shipped),
        ("synthetic 100k", synthetic(&work, 100_000)),
    ] {
        let [unchanged, one, forced] = rebuild_times(&input, &work);
        let share = |d: Duration| 100.0 * d.as_secs_f64() / forced.as_secs_f64();
        println!(
            "{label}, rebuild over its previous output: with nothing changed (the site left as it is) median {} ({:.1}%), after one entity changed (unchanged files linked) median {} ({:.1}%), forced (`--force`, every file written, includes removing the previous site) median {}",
            ms(unchanged),
            share(unchanged),
            ms(one),
            share(one),
            ms(forced),
        );
    }
    let _ = std::fs::remove_dir_all(&work);
}

fn row(label: &str, input: &Path, work: &Path, baseline: Option<&Path>) {
    let set = work.join("set");
    let out = |round: usize| set.join(format!("out{round}"));
    let (mut builds, mut copies, mut baselines) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        if let Some(baseline) = baseline {
            pause();
            baselines.push(time(
                Command::new(baseline)
                    .args(["build", "--quiet", "--input"])
                    .arg(input)
                    .arg("--out")
                    .arg(set.join(format!("baseline{round}"))),
            ));
        }
        pause();
        builds.push(time(
            Command::new(env!("CARGO_BIN_EXE_ontosite"))
                .args(["build", "--quiet", "--input"])
                .arg(input)
                .arg("--out")
                .arg(out(round)),
        ));
        pause();
        let copy = set.join(format!("copy{round}"));
        copies.push(time(Command::new("cp").arg("-r").arg(out(0)).arg(copy)));
    }
    let files = walkdir::WalkDir::new(out(0))
        .into_iter()
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_type().is_file()))
        .count()
        - 1; // less the marker
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out(0).join("index.json")).unwrap()).unwrap();
    let entities = index["total"].as_u64().unwrap() as usize;
    let (build, cp) = (median(&mut builds), median(&mut copies));
    let against_baseline = if baselines.is_empty() {
        "| |".to_owned()
    } else {
        let old = median(&mut baselines);
        format!(
            "{} | {:.2} |",
            ms(old),
            build.as_secs_f64() / old.as_secs_f64()
        )
    };
    println!(
        "| {label} | {entities} | {files} | {} | {:.0} | {} | {:.2} | {against_baseline}",
        ms(build),
        entities as f64 / build.as_secs_f64(),
        ms(cp),
        build.as_secs_f64() / cp.as_secs_f64()
    );
    if label == "shipped" {
        let size = |name: &str| std::fs::metadata(out(0).join(name)).map_or(0, |m| m.len());
        println!(
            "| dumps of the shipped set: dump.nt {} KB, dump.nt.gz {} KB, dump.ttl {} KB | | | | | | | | |",
            size("dump.nt") / 1000,
            size("dump.nt.gz") / 1000,
            size("dump.ttl") / 1000
        );
    }
    settle(&set);
}

/// Rebuilds over the previous output, alternating one with nothing
/// changed, one after one entity's description changed and one forced:
/// their medians.
fn rebuild_times(input: &Path, work: &Path) -> [Duration; 3] {
    let out = work.join("out");
    let build = |extra: &[&str]| {
        time(
            Command::new(env!("CARGO_BIN_EXE_ontosite"))
                .args(["build", "--quiet", "--input"])
                .arg(input)
                .arg("--out")
                .arg(&out)
                .args(extra),
        )
    };
    build(&[]);
    let mut times: [Vec<Duration>; 3] = Default::default();
    for _ in 0..ROUNDS {
        pause();
        times[0].push(build(&[]));
        change_one_entity(input);
        pause();
        times[1].push(build(&[]));
        pause();
        times[2].push(build(&["--force"]));
    }
    if ROUNDS % 2 == 1 {
        change_one_entity(input);
    }
    settle(&out);
    times.map(|mut t| median(&mut t))
}

/// Changes the first entity's description in the first entity file of
/// `input`, and back again on the next call.
fn change_one_entity(input: &Path) {
    const MARK: &str = "Changed. ";
    let file = walkdir::WalkDir::new(input.join("entities"))
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| e.file_type().is_file())
        .expect("an entity file")
        .into_path();
    let mut text = std::fs::read_to_string(&file).unwrap();
    if text.contains(MARK) {
        text = text.replacen(MARK, "", 1);
    } else {
        let key = text.find("\"description\"").expect("a description");
        let colon = key + text[key..].find(':').unwrap();
        let quote = colon + text[colon..].find('"').unwrap();
        text.insert_str(quote + 1, MARK);
    }
    std::fs::write(&file, text).unwrap();
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).into_iter().map(Result::unwrap) {
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// `sync` and a short pause between timed runs.
fn pause() {
    let _ = Command::new("sync").status();
    std::thread::sleep(Duration::from_secs(2));
}

/// Removes a finished set's directories, then `sync` and a long pause so
/// the next set does not pay for the deletion.
fn settle(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    let _ = Command::new("sync").status();
    std::thread::sleep(Duration::from_secs(15));
}

fn time(command: &mut Command) -> Duration {
    let started = Instant::now();
    let status = command.status().expect("running a benchmark command");
    assert!(status.success(), "{command:?} failed");
    started.elapsed()
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}
