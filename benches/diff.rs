//! `cargo bench --bench diff`: what comparing two releases costs beside
//! building one. Two synthetic releases of `ONTOSITE_BENCH_ENTITIES`
//! (100,000) entities, the later with a hundredth of them renamed, a
//! hundredth removed and a hundredth added; a build of the later into a
//! fresh directory (the previous round's deleted first, then `sync` and a
//! pause, untimed), and `ontosite::changes::between` on the two loaded
//! models, alternated (A B A B) over three rounds, medians reported; then
//! the whole `ontosite diff` command, which reads both inputs too.

mod common;

use common::{machine, median, synthetic};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const ROUNDS: usize = 3;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let binary = root.join("target/release/ontosite");
    let work = root.join("target/bench-diff");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let entities = common::entities(100_000);
    println!("machine: {}", machine());
    let before = synthetic(&work, entities);
    let after = later_release(&before, &work.join("input-after"));
    let out = work.join("dist");
    let (old, new) = (load(&before), load(&after));
    let (mut builds, mut diffs) = (Vec::new(), Vec::new());
    let mut counts = None;
    for _ in 0..ROUNDS {
        // A site of 100k entities is gigabytes: one at a time on disk.
        let _ = std::fs::remove_dir_all(&out);
        let _ = Command::new("sync").status();
        std::thread::sleep(Duration::from_secs(10));
        let started = Instant::now();
        let built = Command::new(&binary)
            .args(["build", "--quiet", "--input"])
            .arg(&after)
            .arg("--out")
            .arg(&out)
            .status()
            .unwrap();
        assert!(built.success());
        builds.push(started.elapsed());
        let started = Instant::now();
        let changes = ontosite::changes::between(&old, &new);
        diffs.push(started.elapsed());
        counts = Some(changes.counts());
    }
    let started = Instant::now();
    let command = Command::new(&binary)
        .args(["diff", "--quiet"])
        .arg(&before)
        .arg(&after)
        .output()
        .unwrap();
    assert!(command.status.success());
    let whole = started.elapsed();
    let _ = std::fs::remove_dir_all(&work);
    let (build, diff) = (median(&mut builds), median(&mut diffs));
    println!("changes: {:?}", counts.unwrap());
    println!();
    println!(
        "| entities | build (median) | diff of the loaded releases (median) | diff / build | `ontosite diff` (reads both) | its / build |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    println!(
        "| {entities} | {:.2} s | {:.3} s | {:.1}% | {:.2} s | {:.1}% |",
        build.as_secs_f64(),
        diff.as_secs_f64(),
        100.0 * diff.as_secs_f64() / build.as_secs_f64(),
        whole.as_secs_f64(),
        100.0 * whole.as_secs_f64() / build.as_secs_f64()
    );
}

fn load(input: &Path) -> ontosite::model::Ontology {
    ontosite::source::load(input, None).expect("the synthetic input loads")
}

/// The release after `before`: every hundredth entity renamed, the next
/// one removed, and as many new ones.
fn later_release(before: &Path, after: &Path) -> PathBuf {
    std::fs::create_dir_all(after.join("entities")).unwrap();
    std::fs::copy(before.join("ontology.json"), after.join("ontology.json")).unwrap();
    let lines = std::fs::read_to_string(before.join("entities/synthetic.jsonl")).unwrap();
    let mut out = String::with_capacity(lines.len());
    for (n, line) in lines.lines().enumerate() {
        match n % 100 {
            0 => out.push_str(&line.replacen("\"name\":\"", "\"name\":\"Renamed ", 1)),
            1 => continue,
            2 => {
                out.push_str(line);
                out.push('\n');
                out.push_str(&line.replacen("\"id\":\"", "\"id\":\"New", 1));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    std::fs::write(after.join("entities/synthetic.jsonl"), out).unwrap();
    after.to_owned()
}
