//! The output directory: replaced atomically, only when ontosite wrote it,
//! and never with a loss when a build fails or is killed.

use crate::util::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn leftovers(parent: &Path) -> Vec<String> {
    std::fs::read_dir(parent)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".ontosite-"))
        .collect()
}

/// The build failed with exit code 1 and said `why`.
fn assert_refused(output: &std::process::Output, why: &str) {
    assert_eq!(output.status.code(), Some(1), "{}", stderr(output));
    assert!(stderr(output).contains(why), "{}", stderr(output));
}

#[test]
fn refuses_a_directory_it_did_not_write() {
    let dir = tempdir();
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join("projects")).unwrap();
    std::fs::write(home.join("notes.txt"), "precious").unwrap();
    let before = snapshot(&home);

    let output = build(&tiny_input(), &home, &[]);
    assert_refused(&output, "was not written by ontosite");
    assert!(snapshot(&home) == before);

    // `--out .` names the working directory itself.
    let output = ontosite()
        .current_dir(&home)
        .args(["build", "--input"])
        .arg(tiny_input())
        .args(["--out", "."])
        .output()
        .unwrap();
    assert_refused(&output, "was not written by ontosite");
    assert!(snapshot(&home) == before);
    assert!(leftovers(dir.path()).is_empty());
}

#[test]
fn refuses_an_output_that_is_a_file_or_cannot_be_written() {
    let dir = tempdir();
    let file = dir.path().join("dist");
    std::fs::write(&file, "a file").unwrap();
    let output = build(&tiny_input(), &file, &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("exists and is not a directory"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "a file");

    // Beneath a file, nothing can be created.
    let output = build(&tiny_input(), &file.join("site"), &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("failed"), "{}", stderr(&output));
}

#[test]
fn replaces_its_own_output_and_an_empty_directory() {
    let dir = tempdir();
    let out = dir.path().join("site");
    std::fs::create_dir(&out).unwrap();
    build_ok(&tiny_input(), &out);
    assert!(out.join("zetadeleteitem.json").is_file());

    // A rebuild without an entity drops its files.
    let input = dir.path().join("input");
    copy_tree(&tiny_input(), &input);
    std::fs::remove_file(input.join("entities/zeta.json")).unwrap();
    build_ok(&input, &out);
    assert!(!out.join("zetadeleteitem.json").exists());
    assert!(out.join("acmecreateitem.json").is_file());
    assert!(
        leftovers(dir.path()).is_empty(),
        "{:?}",
        leftovers(dir.path())
    );
}

#[test]
fn never_deletes_a_file_it_did_not_write() {
    let dir = tempdir();
    let out = dir.path().join("site");
    build_ok(&tiny_input(), &out);
    std::fs::write(out.join("mine.txt"), "added by hand").unwrap();
    std::fs::create_dir(out.join("extra")).unwrap();
    std::fs::write(out.join("extra/inside.txt"), "in a folder of mine").unwrap();
    // In a folder of the site's own, a level down.
    std::fs::write(out.join("search/notes.txt"), "added by hand").unwrap();
    // A folder where the site has a file.
    std::fs::remove_file(out.join("index.ttl")).unwrap();
    std::fs::create_dir(out.join("index.ttl")).unwrap();
    let before = snapshot(&out);
    let output = build(&tiny_input(), &out, &[]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("holds files that ontosite did not write")
            && message.contains("mine.txt")
            && message.contains("extra")
            && message.contains("search/notes.txt")
            && message.contains("index.ttl"),
        "{message}"
    );
    assert!(snapshot(&out) == before);
}

#[test]
fn clears_what_a_killed_build_left_and_nothing_else() {
    let dir = tempdir();
    let out = dir.path().join("site");
    build_ok(&tiny_input(), &out);
    // A staging directory with the marker is a killed build's: cleared.
    let staging = dir.path().join(".site.ontosite-staging");
    std::fs::create_dir(&staging).unwrap();
    std::fs::write(staging.join(".ontosite-output"), "ontosite output\n").unwrap();
    std::fs::write(staging.join("half.json"), "{").unwrap();
    build_ok(&tiny_input(), &out);
    assert!(!staging.exists());
    // Without the marker it is not ours: the build stops and keeps it.
    std::fs::create_dir(&staging).unwrap();
    std::fs::write(staging.join("notes.txt"), "mine").unwrap();
    let output = build(&tiny_input(), &out, &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(".site.ontosite-staging"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read_to_string(staging.join("notes.txt")).unwrap(),
        "mine"
    );
}

/// An input large enough that its build is still writing when a test
/// interrupts it.
fn large_input(dir: &Path, entities: usize) -> std::path::PathBuf {
    let input = dir.join("large");
    copy_tree(&tiny_input(), &input);
    let mut lines = String::new();
    for n in 0..entities {
        lines.push_str(&format!(
            "{{\"id\":\"Vendor{n}CreateItem\",\"name\":\"Vendor{n} - Create Item\",\"description\":\"Creates a new item in Vendor{n}.\"}}\n"
        ));
    }
    std::fs::write(input.join("entities/large.jsonl"), lines).unwrap();
    input
}

/// Starts a build and sends `signal` once its staging directory has files.
fn interrupt_build(input: &Path, out: &Path, signal: &str) -> std::process::ExitStatus {
    let staging = out.with_file_name(".site.ontosite-staging");
    let mut child = Command::new(binary())
        .args(["build", "--quiet", "--input"])
        .arg(input)
        .arg("--out")
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_dir(&staging).map(|d| d.count()).unwrap_or(0) < 100 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the build never started writing"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the build finished before it could be interrupted"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args([signal, &pid])
            .status()
            .unwrap()
            .success()
    );
    child.wait().unwrap()
}

#[test]
fn a_killed_or_interrupted_build_leaves_the_previous_output() {
    needs!(Need::Slow);
    let dir = tempdir();
    let out = dir.path().join("site");
    build_ok(&tiny_input(), &out);
    let before = snapshot(&out);
    let input = large_input(dir.path(), 30_000);

    // kill -9: no chance to clean up, the previous site is still whole.
    let status = interrupt_build(&input, &out, "-KILL");
    assert!(!status.success());
    assert!(snapshot(&out) == before, "kill -9 changed the output");
    // Its staging directory (and its lock file, which no one holds now)
    // are left for the next build to clear.
    let mut left = leftovers(dir.path());
    left.sort();
    assert_eq!(left, [".site.ontosite-lock", ".site.ontosite-staging"]);
    build_ok(&tiny_input(), &out);
    assert!(
        leftovers(dir.path()).is_empty(),
        "{:?}",
        leftovers(dir.path())
    );

    // Ctrl-C: stops, removes its staging directory, exits 130.
    let status = interrupt_build(&input, &out, "-INT");
    assert_eq!(status.code(), Some(130));
    assert!(snapshot(&out) == before, "Ctrl-C changed the output");
    assert!(
        leftovers(dir.path()).is_empty(),
        "{:?}",
        leftovers(dir.path())
    );

    // And the next build goes through.
    build_ok(&input, &out);
    assert!(out.join("vendor29999createitem.jsonld").is_file());
    assert!(
        leftovers(dir.path()).is_empty(),
        "{:?}",
        leftovers(dir.path())
    );
}

/// A file's inode and bytes.
type Inode = (u64, Vec<u8>);

/// Every file of a site: its inode and bytes.
fn inodes_and_bytes(dir: &Path) -> std::collections::BTreeMap<String, Inode> {
    use std::os::unix::fs::MetadataExt;
    snapshot(dir)
        .into_iter()
        .map(|(path, bytes)| {
            (
                path.clone(),
                (std::fs::metadata(dir.join(&path)).unwrap().ino(), bytes),
            )
        })
        .collect()
}

/// A rebuild whose input did not change leaves the site as it is: every
/// file's inode and bytes, nothing beside it. A change to an entity, to a
/// template, a file deleted from the site by hand, or `--force` builds
/// again.
#[test]
fn a_rebuild_with_nothing_changed_leaves_every_file_as_it_was() {
    let dir = tempdir();
    let input = dir.path().join("input");
    copy_tree(&tiny_input(), &input);
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    let before = inodes_and_bytes(&out);
    let again = build(&input, &out, &[]);
    assert!(again.status.success(), "{}", stderr(&again));
    let summary = String::from_utf8_lossy(&again.stdout);
    assert!(summary.starts_with("up to date: 4 entities, "), "{summary}");
    assert_eq!(
        inodes_and_bytes(&out),
        before,
        "a rebuild with nothing changed rewrote files"
    );
    assert!(
        leftovers(dir.path()).is_empty(),
        "{:?}",
        leftovers(dir.path())
    );

    // `--force` builds again: the same bytes, new files.
    let forced = build(&input, &out, &["--force"]);
    assert!(String::from_utf8_lossy(&forced.stdout).starts_with("built 4 entities"));
    let after = inodes_and_bytes(&out);
    assert_eq!(
        after.keys().collect::<Vec<_>>(),
        before.keys().collect::<Vec<_>>()
    );
    assert!(
        after
            .iter()
            .all(|(path, (inode, bytes))| before[path].1 == *bytes && before[path].0 != *inode)
    );

    // A file deleted by hand is seen, and the site built again.
    let slug = read_json(&out.join("index.json"))["items"][0]["slug"]
        .as_str()
        .unwrap()
        .to_owned();
    std::fs::remove_file(out.join(format!("{slug}.json"))).unwrap();
    let rebuilt = build(&input, &out, &[]);
    assert!(String::from_utf8_lossy(&rebuilt.stdout).starts_with("built 4 entities"));
    assert!(out.join(format!("{slug}.json")).is_file());

    // A changed entity is built.
    let file = input.join("entities/zeta.json");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replacen("\"description\": \"", "\"description\": \"Changed: ", 1),
    )
    .unwrap();
    let changed = build(&input, &out, &[]);
    assert!(String::from_utf8_lossy(&changed.stdout).starts_with("built 4 entities"));
    assert!(
        String::from_utf8_lossy(&std::fs::read(out.join("all")).unwrap()).contains("Changed: ")
    );
    let unchanged = build(&input, &out, &[]);
    assert!(String::from_utf8_lossy(&unchanged.stdout).starts_with("up to date"));

    // So is a changed template.
    let templates = dir.path().join("templates");
    std::fs::create_dir_all(&templates).unwrap();
    std::fs::write(templates.join("site.css"), "body { color: black; }\n").unwrap();
    let templated = |css: &str| {
        std::fs::write(templates.join("site.css"), css).unwrap();
        String::from_utf8_lossy(
            &build(&input, &out, &["--templates", templates.to_str().unwrap()]).stdout,
        )
        .into_owned()
    };
    assert!(templated("body { color: black; }\n").starts_with("built"));
    assert!(templated("body { color: black; }\n").starts_with("up to date"));
    assert!(templated("body { color: navy; }\n").starts_with("built"));
}

/// The files a rebuild rewrote (new inode) and those whose bytes it
/// changed, from `before` to `after`, the build's own marker and record
/// aside; checks that `after` is the site a fresh build of `input` writes.
fn rewritten_and_changed(
    before: &std::collections::BTreeMap<String, Inode>,
    after: &std::collections::BTreeMap<String, Inode>,
    input: &Path,
    fresh: &Path,
) -> (Vec<String>, Vec<String>) {
    build_ok(input, fresh);
    let bytes: std::collections::BTreeMap<String, Vec<u8>> = after
        .iter()
        .map(|(path, (_, bytes))| (path.clone(), bytes.clone()))
        .collect();
    assert!(
        bytes == snapshot(fresh),
        "not the site a fresh build writes"
    );
    let differ = |same: &dyn Fn(&Inode, &Inode) -> bool| {
        after
            .iter()
            .filter(|(path, now)| before.get(*path).is_none_or(|was| !same(was, now)))
            .map(|(path, _)| path.clone())
            .filter(|path| ![".ontosite-output", ".ontosite-record"].contains(&path.as_str()))
            .collect::<Vec<_>>()
    };
    (differ(&|a, b| a.0 == b.0), differ(&|a, b| a.1 == b.1))
}

/// A rebuild after one entity changed rewrites exactly the files whose
/// bytes changed (that entity's documents and what lists it), links every
/// other file from the previous site (inode kept), and ends with the very
/// site a fresh build of the new input writes. So does a rebuild after an
/// entity is removed, whose files go.
#[test]
fn a_rebuild_after_one_entity_changed_rewrites_only_what_changed() {
    let dir = tempdir();
    let input = dir.path().join("input");
    copy_tree(&shipped_input(), &input);
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    let before = inodes_and_bytes(&out);

    let file = input.join("entities/github/githubcreateitem.json");
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = text.replacen("\"description\": \"", "\"description\": \"Now: ", 1);
    assert_ne!(text, edited);
    std::fs::write(&file, edited).unwrap();
    let rebuilt = build(&input, &out, &[]);
    assert!(rebuilt.status.success(), "{}", stderr(&rebuilt));
    let after = inodes_and_bytes(&out);
    let (rewritten, changed) =
        rewritten_and_changed(&before, &after, &input, &dir.path().join("fresh"));
    assert_eq!(rewritten, changed, "rewritten files against changed ones");
    for document in ["json", "jsonld", "ttl", "nt", "html"] {
        let path = format!("githubcreateitem.{document}");
        assert!(changed.contains(&path), "{path} not rewritten: {changed:?}");
    }
    for lists in ["all", "dump.nt", "search-index.json"] {
        assert!(changed.contains(&lists.to_owned()), "{lists}: {changed:?}");
    }
    assert!(
        changed.len() < 40,
        "{} rewritten: {changed:?}",
        changed.len()
    );
    let summary = String::from_utf8_lossy(&rebuilt.stdout);
    let files = after.len() - 2;
    assert!(
        summary.starts_with(&format!(
            "built 2258 entities: {files} files ({} written, {} unchanged), ",
            changed.len(),
            files - changed.len(),
        )),
        "{summary}"
    );

    // An entity removed: its files go; what shifts with it (the pages of
    // the browse tree that follow, the search rows) is rewritten, the rest
    // is kept.
    std::fs::remove_file(&file).unwrap();
    let removed = build(&input, &out, &[]);
    assert!(removed.status.success(), "{}", stderr(&removed));
    assert!(!out.join("githubcreateitem.json").exists());
    let last = inodes_and_bytes(&out);
    let (rewritten, changed) =
        rewritten_and_changed(&after, &last, &input, &dir.path().join("fresh-2"));
    assert_eq!(rewritten, changed, "rewritten files against changed ones");
    assert!(
        changed.len() < last.len() / 2,
        "{} rewritten",
        changed.len()
    );
    assert!(
        leftovers(dir.path()).is_empty(),
        "{:?}",
        leftovers(dir.path())
    );
}

/// A file of the site that also has a name elsewhere (a hard link someone
/// made) is written anew, not linked into the new site: a change made
/// through that other name would otherwise reach the published site.
#[test]
fn a_file_linked_from_outside_the_site_is_written_anew() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempdir();
    let input = dir.path().join("input");
    copy_tree(&tiny_input(), &input);
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    let inode = |path: &Path| std::fs::metadata(path).unwrap().ino();
    let elsewhere = dir.path().join("elsewhere.json");
    std::fs::hard_link(out.join("index.json"), &elsewhere).unwrap();
    let (index, context) = (
        inode(&out.join("index.json")),
        inode(&out.join("context.jsonld")),
    );

    let file = input.join("entities/zeta.json");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replacen("\"description\": \"", "\"description\": \"Now: ", 1),
    )
    .unwrap();
    let rebuilt = build(&input, &out, &[]);
    assert!(rebuilt.status.success(), "{}", stderr(&rebuilt));
    assert_ne!(
        inode(&out.join("index.json")),
        index,
        "a shared file was linked"
    );
    assert_eq!(inode(&elsewhere), index);
    assert_eq!(
        std::fs::read(out.join("index.json")).unwrap(),
        std::fs::read(&elsewhere).unwrap()
    );
    assert_eq!(
        inode(&out.join("context.jsonld")),
        context,
        "an unshared file was written"
    );
}
