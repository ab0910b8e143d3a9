//! Installing ontosite as users do, without Rust: the wheel `pip install
//! ontosite` takes (`pyproject.toml`, maturin's `bin` bindings), which
//! `scripts/test.sh` builds into `target/wheels/test/`.

use crate::util::*;
use std::path::PathBuf;
use std::process::Command;

/// The wheel the test command built.
const WHEEL: Need = Need::Installed("target/wheels/test");

fn the_wheel() -> PathBuf {
    let wheels: Vec<PathBuf> = std::fs::read_dir(root().join("target/wheels/test"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "whl"))
        .collect();
    assert_eq!(wheels.len(), 1, "one wheel: {wheels:?}");
    wheels.into_iter().next().unwrap()
}

/// The wheel, installed by pip into a fresh virtual environment with no
/// index to reach, puts an `ontosite` on the environment's PATH that is
/// this commit's and builds the shipped input into exactly the site the
/// binary under test builds.
#[test]
fn the_wheel_installs_into_a_fresh_virtual_environment_and_builds() {
    needs!(WHEEL);
    let dir = tempdir();
    let venv = dir.path().join("venv");
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .unwrap();
    assert!(made.success());
    let installed = Command::new(venv.join("bin/pip"))
        .args([
            "install",
            "--quiet",
            "--no-index",
            "--disable-pip-version-check",
        ])
        .arg(the_wheel())
        .output()
        .unwrap();
    assert!(installed.status.success(), "{}", stderr(&installed));
    let program = venv.join("bin/ontosite");
    let version = |mut command: Command| {
        String::from_utf8_lossy(&command.arg("--version").output().unwrap().stdout).into_owned()
    };
    let (installed, tested) = (
        version(Command::new(&program)),
        version(Command::new(env!("CARGO_BIN_EXE_ontosite"))),
    );
    if installed != tested && !full_tier() {
        // A wheel of an earlier commit, left by an earlier test run.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "skipped install::the_wheel_installs_into_a_fresh_virtual_environment_and_builds: the wheel is {}, not of this build (scripts/test.sh builds it)",
            installed.trim()
        );
        return;
    }
    assert_eq!(
        installed, tested,
        "the wheel is not of this build: scripts/test.sh builds it"
    );
    let from_wheel = dir.path().join("wheel-dist");
    let built = Command::new(&program)
        .arg("build")
        .arg("--input")
        .arg(shipped_input())
        .arg("--out")
        .arg(&from_wheel)
        .env_remove("ONTOSITE_BASE_URL")
        .env_remove("NETLIFY")
        .env_remove("URL")
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    let said = String::from_utf8_lossy(&built.stdout);
    assert!(said.starts_with("built 2258 entities"), "{said}");
    let from_cargo = dir.path().join("cargo-dist");
    build_ok(&shipped_input(), &from_cargo);
    // Every file alike but the record of what the build read, which
    // fingerprints the executable itself (`build::fingerprint`).
    let site = |dir: &std::path::Path| {
        let mut files = snapshot(dir);
        assert!(files.remove(".ontosite-record").is_some());
        files
    };
    assert!(
        site(&from_wheel) == site(&from_cargo),
        "the wheel's site differs from the binary's"
    );
}

/// actionlint (`tests/actionlint`).
const ACTIONLINT: Need = Need::Installed("tests/actionlint/.venv/bin/actionlint");

/// Runs actionlint over `files` in `dir`: whether they passed, and what it said.
fn actionlint(dir: &std::path::Path, files: &[PathBuf]) -> (bool, String) {
    let output = Command::new(root().join("tests/actionlint/.venv/bin/actionlint"))
        .args(["-no-color"])
        .args(files)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// Every workflow in `.github/workflows` passes actionlint; a workflow
/// with a mistake in it does not, so the check can fail.
#[test]
fn every_workflow_passes_actionlint() {
    needs!(ACTIONLINT);
    let workflows: Vec<PathBuf> = std::fs::read_dir(root().join(".github/workflows"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    assert!(!workflows.is_empty());
    let (passed, said) = actionlint(&root(), &workflows);
    assert!(passed, "{said}");

    let dir = tempdir();
    let wrong = dir.path().join("wrong.yml");
    std::fs::write(
        &wrong,
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ github.event.head_commit.message }}\n",
    )
    .unwrap();
    let (passed, said) = actionlint(dir.path(), &[wrong]);
    assert!(!passed && said.contains("potentially untrusted"), "{said}");
}

/// hadolint (`tests/container`).
const HADOLINT: Need = Need::Installed("tests/container/.venv/bin/hadolint");

/// The container's Dockerfile passes hadolint, and what its build copies
/// in holds every file the binary is built from: `.dockerignore` leaves
/// out none of them. A Dockerfile with a mistake fails, so the check can.
#[test]
fn the_container_s_dockerfile_passes_hadolint_and_copies_the_sources() {
    let ignored: Vec<String> = std::fs::read_to_string(root().join(".dockerignore"))
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.trim_end_matches('/').to_owned())
        .collect();
    let listed = Command::new("git")
        .args([
            "ls-files",
            "src",
            "templates",
            "assets",
            "benches",
            "build.rs",
            "wasm",
            ".cargo",
        ])
        .args(["Cargo.toml", "Cargo.lock", "Dockerfile"])
        .current_dir(root())
        .output();
    if let Some(listed) = listed.ok().filter(|o| o.status.success()) {
        let sources = String::from_utf8(listed.stdout).unwrap();
        assert!(sources.lines().count() > 20, "{sources}");
        for source in sources.lines() {
            // `DIR` leaves out the folder at the top, `**/DIR` one anywhere.
            let left_out = ignored
                .iter()
                .find(|pattern| match pattern.strip_prefix("**/") {
                    Some(anywhere) => source.split('/').any(|part| part == anywhere),
                    None => {
                        source == pattern.as_str() || source.starts_with(&format!("{pattern}/"))
                    }
                });
            assert!(left_out.is_none(), "{source} is left out by {left_out:?}");
        }
    }
    needs!(HADOLINT);
    let hadolint = |dockerfile: &std::path::Path| {
        Command::new(root().join("tests/container/.venv/bin/hadolint"))
            .args(["--no-color"])
            .arg(dockerfile)
            .output()
            .unwrap()
    };
    let checked = hadolint(&root().join("Dockerfile"));
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stdout)
    );
    let dir = tempdir();
    let wrong = dir.path().join("Dockerfile");
    std::fs::write(&wrong, "FROM alpine\nRUN cd /tmp && apk add curl\n").unwrap();
    let checked = hadolint(&wrong);
    assert!(
        !checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stdout)
    );
}

/// `scripts/package.sh BINARY TARGET OUT`, which must succeed.
fn package(binary: &std::path::Path, target: &str, out: &std::path::Path) {
    let packed = Command::new(root().join("scripts/package.sh"))
        .arg(binary)
        .arg(target)
        .arg(out)
        .output()
        .unwrap();
    assert!(packed.status.success(), "{}", stderr(&packed));
}

/// `scripts/package.sh`, which the release workflow runs for each
/// target, packs the binary under test: the archive holds a folder of its
/// name with the binary and the README, its checksum file checks, and the
/// binary it holds runs.
#[test]
fn a_release_archive_holds_a_binary_that_runs() {
    // Packing the unstripped test binary (hundreds of MB) takes a while.
    needs!(Need::Slow);
    let dir = tempdir();
    let out = dir.path().join("packed");
    package(
        env!("CARGO_BIN_EXE_ontosite").as_ref(),
        "x86_64-unknown-linux-gnu",
        &out,
    );
    let name = "ontosite-x86_64-unknown-linux-gnu";
    let archive = format!("{name}.tar.gz");
    let checked = Command::new("sha256sum")
        .args(["-c", &format!("{archive}.sha256")])
        .current_dir(&out)
        .output()
        .unwrap();
    assert!(checked.status.success(), "{}", stderr(&checked));
    let unpacked = dir.path().join("unpacked");
    std::fs::create_dir(&unpacked).unwrap();
    let untarred = Command::new("tar")
        .arg("xzf")
        .arg(out.join(&archive))
        .current_dir(&unpacked)
        .status()
        .unwrap();
    assert!(untarred.success());
    let mut held: Vec<String> = std::fs::read_dir(unpacked.join(name))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    held.sort();
    assert_eq!(held, ["README.md", "ontosite"]);
    let version = Command::new(unpacked.join(name).join("ontosite"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&version.stdout).starts_with("ontosite "),
        "{version:?}"
    );
}

/// `scripts/install-release.sh`, which the GitHub Action runs: it picks
/// the archive of the runner's system and processor from a release (a
/// tag's or the latest), checks its SHA-256, and installs the binary it
/// holds on the PATH of the steps after; an archive that does not match
/// its checksum is installed nowhere. The release is one
/// `scripts/package.sh` made of a small program standing in for the
/// binary (packing the test binary is the test above's), laid out as
/// GitHub's release URLs are and read by curl through `file://`.
#[test]
fn the_action_s_installer_checks_and_installs_a_release() {
    let dir = tempdir();
    let program = dir.path().join("ontosite");
    std::fs::write(
        &program,
        "#!/bin/sh\necho \"ontosite 0.0.0 (commit stand-in)\"\n",
    )
    .unwrap();
    let releases = dir.path().join("releases");
    let tagged = releases.join("download/v0.0.0-test");
    for target in ["x86_64-unknown-linux-musl", "aarch64-apple-darwin"] {
        package(&program, target, &tagged);
    }
    copy_tree(&tagged, &releases.join("latest/download"));
    let install = |os: &str, version: &str, into: &str| {
        Command::new(root().join("scripts/install-release.sh"))
            .env("VERSION", version)
            .env("RELEASES_URL", format!("file://{}", releases.display()))
            .env("RUNNER_OS", os)
            .env("RUNNER_ARCH", "X64")
            .env("INSTALL_DIR", dir.path().join(into))
            .env("GITHUB_PATH", dir.path().join("github-path"))
            .output()
            .unwrap()
    };
    for (version, into) in [("v0.0.0-test", "tagged"), ("latest", "latest")] {
        let installed = install("Linux", version, into);
        assert!(installed.status.success(), "{}", stderr(&installed));
        let installed_program = dir.path().join(into).join("ontosite");
        assert_eq!(
            String::from_utf8_lossy(&installed.stdout).trim(),
            installed_program.display().to_string()
        );
        let version = Command::new(&installed_program)
            .arg("--version")
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&version.stdout),
            "ontosite 0.0.0 (commit stand-in)\n"
        );
    }
    let added = std::fs::read_to_string(dir.path().join("github-path")).unwrap();
    assert_eq!(
        added.lines().collect::<Vec<_>>(),
        [dir.path().join("tagged"), dir.path().join("latest")]
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
    );

    let no_binary = install("Plan9", "latest", "elsewhere");
    assert!(!no_binary.status.success());
    assert!(
        stderr(&no_binary).contains("no release binary for Plan9"),
        "{}",
        stderr(&no_binary)
    );
    let missing = install("Linux", "v9.9.9", "missing");
    assert!(!missing.status.success());
    assert!(
        stderr(&missing).contains("could not download"),
        "{}",
        stderr(&missing)
    );

    let archive = tagged.join("ontosite-x86_64-unknown-linux-musl.tar.gz");
    let mut bytes = std::fs::read(&archive).unwrap();
    bytes.push(0);
    std::fs::write(&archive, bytes).unwrap();
    let tampered = install("Linux", "v0.0.0-test", "tampered");
    assert!(!tampered.status.success());
    assert!(
        stderr(&tampered).contains("does not match its SHA-256"),
        "{}",
        stderr(&tampered)
    );
    assert!(!dir.path().join("tampered").exists());
}

/// Netlify's build command (`netlify.toml`: `scripts/netlify-build.sh`)
/// installs the latest release of the repository Netlify builds (named
/// by `REPOSITORY_URL`, as Netlify sets it) and builds the site with it,
/// compiling nothing: the release here holds a program that runs this
/// test run's binary (packing the binary itself is the test above's),
/// packed by `scripts/package.sh`, read by curl through `file://`.
#[test]
fn netlify_s_build_command_installs_a_release_and_builds_with_it() {
    let machine = std::env::consts::ARCH;
    if std::env::consts::OS != "linux" || !["x86_64", "aarch64"].contains(&machine) {
        eprintln!("skipped: the release binaries here are Linux's");
        return;
    }
    let dir = tempdir();
    let program = dir.path().join("ontosite");
    let runs = format!("#!/bin/sh\nexec '{}' \"$@\"\n", binary().display());
    std::fs::write(&program, runs).unwrap();
    let releases = dir.path().join("releases");
    let target = format!("{machine}-unknown-linux-musl");
    package(&program, &target, &releases.join("latest/download"));
    let work = dir.path().join("work");
    copy_tree(&tiny_input(), &work.join("input"));
    let built = Command::new(root().join("scripts/netlify-build.sh"))
        .current_dir(&work)
        .env("RELEASES_URL", format!("file://{}", releases.display()))
        .env("REPOSITORY_URL", "https://github.com/example/ontosite")
        .env("INSTALL_DIR", dir.path().join("installed"))
        .env("NETLIFY", "true")
        .env("URL", "https://example.netlify.app")
        .env_remove("ONTOSITE_BASE_URL")
        .env_remove("ONTOSITE_HOST_LIMITS")
        .env_remove("GITHUB_PATH")
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(!stderr(&built).contains("compiling"), "{}", stderr(&built));
    assert!(dir.path().join("installed/ontosite").is_file());
    assert!(work.join("dist/_edge/netlify/search.js").is_file());
    let api = read_json(&work.join("dist/api.json"));
    assert!(
        api.to_string().contains("https://example.netlify.app"),
        "{api}"
    );
}
