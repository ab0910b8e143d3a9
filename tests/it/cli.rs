//! The command line itself: help, version, check, base URL sources.

use crate::util::*;

#[test]
fn help_shows_examples_and_version_prints() {
    let help = ontosite().arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(help.status.success());
    for needle in ["build", "check", "Examples:", "--quiet"] {
        assert!(text.contains(needle), "--help lacks {needle}:\n{text}");
    }
    let build_help = ontosite().args(["build", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&build_help.stdout);
    for needle in [
        "--input",
        "--out",
        "--base-url",
        "[default: dist]",
        "[default: input]",
    ] {
        assert!(
            text.contains(needle),
            "build --help lacks {needle}:\n{text}"
        );
    }
    // The version and the commit it was built from: as a packager names
    // it (ONTOSITE_COMMIT, where the test runs with it too), else git.
    let version = ontosite().arg("--version").output().unwrap();
    let given = std::env::var("ONTOSITE_COMMIT")
        .ok()
        .filter(|c| !c.is_empty());
    let commit = given.unwrap_or_else(|| {
        std::process::Command::new("git")
            .args(["rev-parse", "--short=12", "HEAD"])
            .current_dir(root())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map_or("unknown".to_owned(), |o| {
                String::from_utf8_lossy(&o.stdout).trim().to_owned()
            })
    });
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        format!("ontosite {} (commit {commit})", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn check_validates_and_writes_nothing() {
    let dir = tempdir();
    let output = ontosite()
        .current_dir(dir.path())
        .args(["check", "--input"])
        .arg(shipped_input())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!(
            "ok: 2258 entities of type Action in {}",
            shipped_input().display()
        )
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "check wrote a file"
    );
}

#[test]
fn build_prints_its_summary_and_the_hosts_it_fits_unless_quiet() {
    let dir = tempdir();
    let out = dir.path().join("site");
    let output = build(&tiny_input(), &out, &[]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert_eq!(
        text.lines().nth(1),
        Some(
            "hosts: the site fits netlify, cloudflare, cloudflare-paid, cloudflare-r2, cloudflare-r2-paid, github-pages, object-storage (build --host NAME checks it before replacing the previous site)"
        ),
        "{text}"
    );
    let text = text.lines().next().unwrap_or_default();
    let written = snapshot(&out).len() - 2; // less the marker and the record (the list of files is one of them)
    assert!(
        text.starts_with(&format!("built 4 entities: {written} files, ")),
        "{text}"
    );
    assert!(
        text.trim_end()
            .ends_with(&format!("into {}", out.display())),
        "{text}"
    );
    let quiet = build(&tiny_input(), &out, &["--quiet"]);
    assert!(quiet.status.success());
    assert!(quiet.stdout.is_empty() && quiet.stderr.is_empty());
}

#[test]
fn timings_name_every_phase_of_a_build_in_order_and_add_up() {
    let dir = tempdir();
    let out = dir.path().join("site");
    build(&tiny_input(), &out, &[]);
    // A second build replaces a site: every phase runs.
    let output = build(&tiny_input(), &out, &["--timings", "--force"]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<(f64, &str)> = text
        .lines()
        .map(|line| {
            let rest = line.strip_prefix("timings: ").expect(line);
            let (seconds, name) = rest.trim_start().split_once(" s  ").expect(line);
            (seconds.parse().expect(line), name)
        })
        .collect();
    let names: Vec<&str> = lines.iter().map(|(_, name)| *name).collect();
    let order = [
        "reading the input",
        "locking the output and reading its list of files",
        "reading the releases kept and published",
        "preparing the site",
        "looking through the output for files ontosite did not write",
        "writing the files of 4 entities",
        "measuring and listing the files written",
        "swapping in the new site",
        "removing the previous site",
        "in all",
    ];
    let mut at = 0;
    for name in order {
        at += names[at..]
            .iter()
            .position(|n| *n == name)
            .unwrap_or_else(|| panic!("no {name:?} after {:?}: {text}", &names[..at]));
    }
    assert_eq!(names.last(), Some(&"in all"), "{text}");
    let (all, phases) = lines.split_last().unwrap();
    let sum: f64 = phases.iter().map(|(seconds, _)| seconds).sum();
    assert!(sum <= all.0 + 0.01 && sum >= all.0 * 0.5, "{text}");
}

#[test]
fn timings_name_a_diff_s_phases_and_serve_refuses_them() {
    let input = tiny_input();
    let diff = ontosite()
        .args(["--timings", "diff"])
        .arg(&input)
        .arg(&input)
        .output()
        .unwrap();
    assert!(diff.status.success(), "{}", stderr(&diff));
    let text = stderr(&diff);
    let names: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("timings: "))
        .filter_map(|rest| rest.split_once(" s  ").map(|(_, name)| name))
        .collect();
    assert_eq!(
        names,
        [
            "starting",
            "reading both releases",
            "comparing the two releases",
            "in all"
        ][usize::from(!names.contains(&"starting"))..],
        "{text}"
    );
    assert!(text.ends_with("\nchanges: 0 added, 0 removed, 0 deprecated, 0 undeprecated, 0 relabelled, 0 redefined, 0 reparented, 0 synonyms, 0 moved\n"), "{text}");
    // A site that is not there, on a port of the system's choice: were
    // the flag taken, the serve would fail rather than hang.
    let dir = tempdir();
    let serve = ontosite()
        .args(["serve", "--timings", "--port", "0"])
        .arg(dir.path().join("none"))
        .output()
        .unwrap();
    assert_eq!(serve.status.code(), Some(1), "{}", stderr(&serve));
    assert!(
        stderr(&serve).contains("--timings: serve runs until it is stopped"),
        "{}",
        stderr(&serve)
    );
}

fn info_base_url(out: &std::path::Path) -> String {
    read_json(&out.join("api.json"))["baseUrl"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn base_url_comes_from_flag_env_netlify_or_input() {
    let dir = tempdir();
    let out = dir.path().join("site");
    build_ok(&tiny_input(), &out);
    assert_eq!(info_base_url(&out), "https://tiny.example.org/api/");

    let run = |cmd: &mut std::process::Command| {
        let output = cmd
            .args(["-q", "--input"])
            .arg(tiny_input())
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
        info_base_url(&out)
    };
    assert_eq!(
        run(ontosite().args(["build", "--base-url=https://flag.test/x"])),
        "https://flag.test/x/"
    );
    assert_eq!(
        run(ontosite()
            .arg("build")
            .env("ONTOSITE_BASE_URL", "https://env.test")),
        "https://env.test/"
    );
    assert_eq!(
        run(ontosite()
            .arg("build")
            .env("NETLIFY", "true")
            .env("URL", "https://site.netlify.app")),
        "https://site.netlify.app/"
    );
    assert_eq!(
        run(ontosite()
            .arg("build")
            .env("NETLIFY", "true")
            .env("URL", "https://site.netlify.app")
            .env("ONTOSITE_BASE_URL", "https://env.test")),
        "https://env.test/",
        "an explicit base URL beats Netlify's"
    );
    // Entity links follow the base URL.
    let entity = read_json(&out.join("acmecreateitem.json"));
    assert_eq!(
        entity["links"]["json"],
        "https://env.test/acmecreateitem.json"
    );

    for bad in ["example.org", "ftp://example.org", "https://e.org/?q=1"] {
        let output = build(&tiny_input(), &out, &["--base-url", bad]);
        assert_eq!(output.status.code(), Some(1), "{bad} was accepted");
        assert!(stderr(&output).contains(bad), "{}", stderr(&output));
    }
}

/// The little things a first run meets: one entity is "1 entity"; help
/// shows no empty environment value; the input may be given plainly;
/// `serve -q` prints nothing.
#[test]
fn the_command_line_reads_as_a_person_expects() {
    let dir = tempdir();
    let input = dir.path().join("one");
    std::fs::create_dir_all(input.join("entities")).unwrap();
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "One", "description": "d", "entityType": "Thing", "baseUrl": "https://one.example"}"#,
    )
    .unwrap();
    std::fs::write(
        input.join("entities/a.json"),
        r#"{"id": "A", "name": "A", "description": "The only one."}"#,
    )
    .unwrap();
    let out = dir.path().join("dist");
    // `build DIR`: the input as a plain argument.
    let output = ontosite()
        .arg("build")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let line = String::from_utf8_lossy(&output.stdout);
    assert!(line.starts_with("built 1 entity: "), "{line}");
    let output = ontosite().arg("check").arg(&input).output().unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("ok: 1 entity of type Thing"));

    for command in ["build", "check", "serve"] {
        let help = ontosite()
            .args([command, "--help"])
            .env("ONTOSITE_BASE_URL", "")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&help.stdout);
        assert!(text.contains("ONTOSITE_BASE_URL"), "{command}: {text}");
        assert!(!text.contains("ONTOSITE_BASE_URL="), "{command}: {text}");
    }

    // serve -q: nothing on stdout, stopped by a signal.
    let mut child = std::process::Command::new(binary())
        .args(["serve", "-q", "--port", "0", "--dir"])
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    assert!(child.try_wait().unwrap().is_none(), "serve -q stopped");
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

/// `build --help` names every template `--templates` may replace.
#[test]
fn build_help_names_every_template() {
    let output = ontosite().args(["build", "--help"]).output().unwrap();
    let help = String::from_utf8(output.stdout)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for (name, _) in ontosite::render::TEMPLATES {
        assert!(help.contains(name), "{name}: {help}");
    }
}

/// Runs `ontosite ARGS` on a pseudo-terminal (util-linux `script`), as a
/// person at a terminal would, and returns all it printed there.
fn on_a_terminal(args: &[&str]) -> String {
    let binary = binary();
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let command: Vec<String> = std::iter::once(binary.to_string_lossy().as_ref())
        .chain(args.iter().copied())
        .map(quote)
        .collect();
    let output = std::process::Command::new("script")
        .args(["--quiet", "--return", "--command"])
        .arg(command.join(" "))
        .arg("/dev/null")
        .env_remove("ONTOSITE_BASE_URL")
        .output()
        .expect("util-linux `script`, for a pseudo-terminal");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A build that takes more than a second shows its phase, files and rate
/// on a terminal, then clears it for the summary line; with `--quiet`, or
/// when its output is not a terminal, it shows nothing of it.
#[test]
fn a_long_build_shows_progress_on_a_terminal_only() {
    let dir = tempdir();
    let input = generated_input(dir.path(), "many", 12_000, "word");
    let out = dir.path().join("site");
    let (input_arg, out_arg) = (input.to_str().unwrap(), out.to_str().unwrap());
    let shown = on_a_terminal(&["build", "--input", input_arg, "--out", out_arg]);
    assert!(
        shown.contains("writing the files of 12000 entities"),
        "{shown}"
    );
    assert!(shown.contains(" files/s"), "{shown}");
    assert!(shown.contains("built 12000 entities: "), "{shown}");
    let quiet = on_a_terminal(&["build", "--quiet", "--input", input_arg, "--out", out_arg]);
    assert_eq!(quiet, "");
    // Not a terminal: the summary alone, however long the build.
    let piped = build(&input, &out, &[]);
    assert!(piped.status.success());
    assert!(
        piped.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    let text = String::from_utf8_lossy(&piped.stdout);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.lines()
            .nth(1)
            .unwrap_or_default()
            .starts_with("hosts: "),
        "{text}"
    );
}
