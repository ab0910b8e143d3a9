//! What the benchmarks share: a synthetic ontology of any size, and a
//! site of it without the files a search never reads.

// Each benchmark uses a part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// How many entities a benchmark's synthetic ontology has:
/// `ONTOSITE_BENCH_ENTITIES`, else `default`.
pub fn entities(default: usize) -> usize {
    count_from("ONTOSITE_BENCH_ENTITIES", default)
}

/// The count `variable` says, else `default`.
pub fn count_from(variable: &str, default: usize) -> usize {
    std::env::var(variable)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// The median of timed rounds.
pub fn median(times: &mut [std::time::Duration]) -> std::time::Duration {
    times.sort();
    times[times.len() / 2]
}

/// A synthetic ontology of `entities` Actions in one `.jsonl` file.
pub fn synthetic(work: &Path, entities: usize) -> PathBuf {
    let input = work.join(format!("input-{entities}"));
    std::fs::create_dir_all(input.join("entities")).unwrap();
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "Synthetic Actions", "description": "Generated for the benchmark.", "entityType": "Action", "baseUrl": "https://bench.example.org"}"#,
    )
    .unwrap();
    let operations = ["Create Item", "Update Item", "Delete Item"];
    let mut lines = String::with_capacity(entities * 200);
    for n in 0..entities {
        let vendor = format!("Vendor{}", n / 3);
        let operation = operations[n % 3];
        let id = format!("{vendor}{}", operation.replace(' ', ""));
        lines.push_str(&format!(
            "{{\"id\":\"{id}\",\"name\":\"{vendor} - {operation}\",\"description\":\"{} an item in {vendor}.\",\"vendor\":\"{vendor}\",\"operation\":\"{operation}\"}}\n",
            &operation[..6]
        ));
    }
    std::fs::write(input.join("entities/synthetic.jsonl"), lines).unwrap();
    input
}

/// `ontosite` as a command whose peak resident memory GNU time writes to
/// `report` (in KB), where `/usr/bin/time` is at hand; else `ontosite`
/// alone, and [`peak_kb`] says 0.
pub fn ontosite_measured(report: &Path) -> std::process::Command {
    let _ = std::fs::remove_file(report);
    if !Path::new("/usr/bin/time").is_file() {
        return std::process::Command::new(env!("CARGO_BIN_EXE_ontosite"));
    }
    let mut command = std::process::Command::new("/usr/bin/time");
    command.arg("-f").arg("%M").arg("-o").arg(report);
    command.arg(env!("CARGO_BIN_EXE_ontosite"));
    command
}

/// The peak resident memory in KB that [`ontosite_measured`] wrote to
/// `report`; 0 where it wrote none.
pub fn peak_kb(report: &Path) -> u64 {
    std::fs::read_to_string(report)
        .ok()
        .and_then(|t| t.lines().last()?.trim().parse().ok())
        .unwrap_or(0)
}

/// The machine a benchmark ran on, for the figures' heading.
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!("{cores} cores, {cpu}")
}

/// Starts `ontosite serve` on a free port for `site`; returns the process
/// and the URL it prints (`http://127.0.0.1:PORT/`).
pub fn serve(site: &Path) -> (std::process::Child, String) {
    serve_with(site, &[])
}

/// [`serve`] with more arguments (`--static`).
#[allow(dead_code)]
pub fn serve_with(site: &Path, args: &[&str]) -> (std::process::Child, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ontosite"))
        .args(["serve", "--port", "0"])
        .args(args)
        .arg("--dir")
        .arg(site)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let line = first_line(&mut child);
    let url = line.split_whitespace().nth(2).unwrap().to_owned();
    (child, url)
}

/// The first line a child process prints: where it listens.
pub fn first_line(child: &mut std::process::Child) -> String {
    use std::io::BufRead;
    std::io::BufReader::new(child.stdout.take().unwrap())
        .lines()
        .next()
        .unwrap()
        .unwrap()
}

/// Every document of the site but the entity files and the whole-site
/// lists and dumps, as the build renders them.
pub fn build_without_entity_files(input: &Path, out: &Path) {
    use ontosite::render::{Document, Rendering, documents};
    use rayon::prelude::*;
    let ontology = ontosite::source::load(input, None).expect("the synthetic input loads");
    let site = Rendering::new(&ontology).expect("a site");
    documents(&site)
        .into_par_iter()
        .filter(|d| {
            !matches!(
                d,
                Document::Entity(..)
                    | Document::Graph(..)
                    | Document::DumpGz
                    | Document::All
                    | Document::List
                    | Document::ListLd
            )
        })
        .for_each_init(Vec::new, |buffer, document| {
            document.render(&site, buffer).expect("renders");
            let path = out.join(document.path(&site));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, &buffer).unwrap();
        });
}
