//! `cargo bench --bench hosts`: for each host ontosite knows, the largest
//! synthetic ontology (the build benchmark's generator) it takes, as
//! `ontosite check --host` finds it: the size is doubled until the host
//! refuses the site, then halved down to within 1%, and the limit that
//! refuses the next size is printed beside it.
//!
//! Object storage has no limit a site of this generator reaches; it is
//! left out. `ONTOSITE_BENCH_MAX` caps the search (default 400,000).

mod common;

use common::{machine, synthetic};
use std::path::{Path, PathBuf};
use std::process::Command;

const PLANS: [&str; 4] = ["cloudflare", "netlify", "cloudflare-paid", "github-pages"];

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let binary = root.join("target/release/ontosite");
    assert!(
        binary.exists(),
        "build the release binary first: cargo build --release"
    );
    let work = root.join("target/bench-hosts");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let cap: usize = std::env::var("ONTOSITE_BENCH_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400_000);
    println!("machine: {}", machine());
    println!("| host | largest that fits (entities) | refused at | the limit it passes there |");
    println!("|---|---:|---:|---|");
    for plan in PLANS {
        let (fits, refused, why) = largest(&binary, &work, plan, cap);
        println!(
            "| `{plan}` | {fits} | {} | {} |",
            refused.map_or("-".to_owned(), |n| n.to_string()),
            why.unwrap_or_else(|| format!("none up to {cap}"))
        );
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).unwrap();
    }
}

/// The largest size `plan` takes, the smallest it was seen to refuse, and
/// the first limit that one passes.
fn largest(
    binary: &Path,
    work: &Path,
    plan: &str,
    cap: usize,
) -> (usize, Option<usize>, Option<String>) {
    let mut fits = 0;
    let mut refused: Option<(usize, String)> = None;
    let mut size = 1_000;
    // Doubling, until refused or at the cap.
    while refused.is_none() && size <= cap {
        match check(binary, work, plan, size) {
            None => {
                fits = size;
                size *= 2;
            }
            Some(why) => refused = Some((size, why)),
        }
    }
    let Some((mut over, mut why)) = refused else {
        return (fits, None, None);
    };
    while over - fits > (fits / 100).max(50) {
        let middle = fits + (over - fits) / 2;
        match check(binary, work, plan, middle) {
            None => fits = middle,
            Some(reason) => (over, why) = (middle, reason),
        }
    }
    (fits, Some(over), Some(why))
}

/// `None` where `plan` takes a site of `size` entities, else the first
/// limit the site passes.
fn check(binary: &Path, work: &Path, plan: &str, size: usize) -> Option<String> {
    let input = synthetic(work, size);
    let output = Command::new(binary)
        .args(["check", "--quiet", "--host", plan, "--input"])
        .arg(&input)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&input);
    eprintln!(
        "{plan} {size}: {}",
        if output.status.success() {
            "fits"
        } else {
            "refused"
        }
    );
    if output.status.success() {
        return None;
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first = stderr
        .lines()
        .find_map(|line| line.strip_prefix("  - "))
        .unwrap_or_else(|| panic!("{plan} at {size}: {stderr}"));
    Some(first.to_owned())
}
