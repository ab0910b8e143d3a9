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
            // Built again when the checkout moves to another commit.
            if let Some(git_dir) = git(&["rev-parse", "--absolute-git-dir"]) {
                println!("cargo:rerun-if-changed={git_dir}/HEAD");
                if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                    println!("cargo:rerun-if-changed={git_dir}/{branch}");
                }
                println!("cargo:rerun-if-changed={git_dir}/packed-refs");
            }
            git(&["rev-parse", "--short=12", "HEAD"])
        }
    };
    let commit = commit.unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=ONTOSITE_COMMIT={commit}");
}
