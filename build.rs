//! Names the commit the binary is built from, for `ontosite --version`:
//! `ONTOSITE_COMMIT` where a release workflow or a packager sets it (a
//! source archive has no git), else git's, else `unknown`.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_owned())
}

fn main() {
    println!("cargo:rerun-if-env-changed=ONTOSITE_COMMIT");
    let commit = match std::env::var("ONTOSITE_COMMIT") {
        Ok(commit) if !commit.is_empty() => Some(commit),
        _ => {
            // Only this source's own checkout: a copy inside another
            // repository (a vendored tree, a home folder kept in git)
            // would name that repository's commit.
            let manifest = std::env::var("CARGO_MANIFEST_DIR").ok();
            let top = git(&["rev-parse", "--show-toplevel"]);
            let own = match (manifest, top) {
                (Some(manifest), Some(top)) => {
                    std::fs::canonicalize(manifest).ok() == std::fs::canonicalize(top).ok()
                }
                _ => false,
            };
            // Built again when the checkout moves to another commit.
            if own && let Some(git_dir) = git(&["rev-parse", "--absolute-git-dir"]) {
                println!("cargo:rerun-if-changed={git_dir}/HEAD");
                if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                    println!("cargo:rerun-if-changed={git_dir}/{branch}");
                }
                println!("cargo:rerun-if-changed={git_dir}/packed-refs");
            }
            own.then(|| git(&["rev-parse", "--short=12", "HEAD"]))
                .flatten()
        }
    };
    let commit = commit.unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=ONTOSITE_COMMIT={commit}");
}
