//! Releases side by side: the four real PATO releases of
//! `../shared/ontologies/pato-releases/` built as one site, the current
//! one at the root and every one under `/releases/{version}/`, with the
//! list of them and each one's change log; and the refusals that keep a
//! published release from ever changing.

use crate::changes::{CHECKED, ids, obonet_changes};
use crate::ontologies::shared_ontology;
use crate::serve::{Server, client};
use crate::util::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const RELEASES: [&str; 4] = ["2023-05-18", "2024-03-28", "2024-11-11", "2025-05-14"];

/// One release's input files: its `ontology.json` (naming its version)
/// and its OBO file, written into `dir`.
fn write_release(dir: &Path, version: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let source = shared_ontology(&format!("pato-releases/pato-{version}.obo"));
    std::fs::copy(&source, dir.join("pato.obo")).unwrap();
    std::fs::write(
        dir.join("ontology.json"),
        format!(
            r#"{{"name": "PATO", "baseUrl": "https://pato.test", "namespace": "http://purl.obolibrary.org/obo/", "version": "{version}"}}"#
        ),
    )
    .unwrap();
}

/// An input whose current release is `current`, keeping `kept`.
fn site_input(input: &Path, kept: &[&str], current: &str) {
    for version in kept {
        write_release(&input.join("releases").join(version), version);
    }
    write_release(input, current);
}

/// The PATO site of the last two releases, built into `dir/out`: the
/// later one removed a term.
pub fn two_pato_releases(dir: &Path) -> PathBuf {
    let (input, out) = (dir.join("input"), dir.join("out"));
    site_input(&input, &RELEASES[2..3], RELEASES[3]);
    build_ok(&input, &out);
    out
}

/// Every file of the site under `releases/{version}/`, by path.
fn release_files(out: &Path, version: &str) -> BTreeMap<String, Vec<u8>> {
    snapshot(&out.join("releases").join(version))
}

#[test]
fn pato_releases_publish_side_by_side_and_change_as_obonet_sees_them() {
    needs!(Need::SharedOntologies, PYOXIGRAPH);
    let dir = tempdir();
    let (input, out) = (dir.path().join("input"), dir.path().join("out"));

    // Three releases first, the third current.
    site_input(&input, &RELEASES[..2], RELEASES[2]);
    build_ok(&input, &out);
    let before: Vec<_> = RELEASES[..3]
        .iter()
        .map(|v| release_files(&out, v))
        .collect();
    assert!(before.iter().all(|files| files.len() > 1000));

    // A later release: the current one's files move into releases/, as a
    // curator moves them, and the new one takes the input.
    let moved = input.join("releases").join(RELEASES[2]);
    std::fs::create_dir_all(&moved).unwrap();
    for name in ["ontology.json", "pato.obo"] {
        std::fs::rename(input.join(name), moved.join(name)).unwrap();
    }
    write_release(&input, RELEASES[3]);
    build_ok(&input, &out);

    // Every earlier release's documents are byte for byte as they were.
    for (version, files) in RELEASES[..3].iter().zip(&before) {
        let after = release_files(&out, version);
        assert_eq!(
            files.keys().collect::<Vec<_>>(),
            after.keys().collect::<Vec<_>>(),
            "release {version}'s files"
        );
        let changed: Vec<&String> = files
            .iter()
            .filter(|(path, bytes)| after[*path] != **bytes)
            .map(|(path, _)| path)
            .collect();
        assert!(changed.is_empty(), "release {version} changed: {changed:?}");
    }

    // From a clean checkout, the published site at hand (`--previous`):
    // the same bytes, its releases taken as they are, not built again.
    let fresh = dir.path().join("fresh");
    let output = build(&input, &fresh, &["--previous", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let kept: usize = RELEASES.iter().map(|v| release_files(&out, v).len()).sum();
    let summary = String::from_utf8_lossy(&output.stdout).into_owned();
    let unchanged: usize = summary
        .split(" written, ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{summary}"));
    assert!(unchanged >= kept, "{unchanged} kept of {kept}: {summary}");
    assert!(
        snapshot(&fresh) == snapshot(&out),
        "--previous changed bytes"
    );

    // The list: every release, the newest first, with its counts.
    let list = read_json(&out.join("releases/index.json"));
    assert_eq!(list["current"], RELEASES[3]);
    let listed: Vec<&str> = strings_of(&list["releases"], "version");
    assert_eq!(listed, RELEASES.iter().rev().copied().collect::<Vec<_>>());
    // The data set's description names the current release and the list.
    let void = std::fs::read_to_string(out.join("void.ttl")).unwrap();
    for said in [
        format!("<https://pato.test/releases/{}/>", RELEASES[3]),
        "<https://pato.test/releases/index.ttl>".to_owned(),
    ] {
        assert!(void.contains(&said), "{said} not in {void}");
    }
    let info = read_json(&out.join("api.json"));
    assert_eq!(info["release"]["version"], RELEASES[3]);
    assert_eq!(
        info["release"]["releases"],
        "https://pato.test/releases/index.json"
    );

    // Each change log against what obonet finds between the two files.
    let mut seen = 0;
    for (i, pair) in RELEASES.windows(2).enumerate() {
        let log = read_json(&out.join(format!("releases/{}/change-log.json", pair[1])));
        assert_eq!(log["version"], pair[1]);
        assert_eq!(log["previous"], pair[0]);
        let theirs = obonet_changes(
            &shared_ontology(&format!("pato-releases/pato-{}.obo", pair[0])),
            &shared_ontology(&format!("pato-releases/pato-{}.obo", pair[1])),
        );
        for kind in CHECKED {
            let found = ids(&log["changes"], kind);
            assert_eq!(found, ids(&theirs, kind), "{kind} in {}", pair[1]);
            assert_eq!(log["counts"][kind], found.len(), "{kind} counted");
            seen += found.len();
        }
        let entry = &list["releases"][RELEASES.len() - 2 - i];
        assert_eq!(entry["version"], pair[1]);
        assert_eq!(entry["changes"], log["counts"]);
        assert_eq!(entry["previous"], pair[0]);
    }
    assert!(seen > 0, "the releases differ in nothing that was checked");
    // Each term's page tells its history, linking the term in the release
    // that changed it.
    let mut histories = 0;
    for version in &RELEASES[1..] {
        let log = read_json(&out.join(format!("releases/{version}/change-log.json")));
        for change in log["changes"]["relabelled"].as_array().unwrap() {
            let slug = change["slug"].as_str().unwrap();
            let page = std::fs::read_to_string(out.join(format!("{slug}.html"))).unwrap();
            let link =
                format!("releases&#x2f;{version}&#x2f;{slug}.html\">Release {version}</a>: ");
            assert!(page.contains(&link), "{slug}'s history lacks {version}");
            histories += 1;
        }
    }
    assert!(histories > 0);
    // The current release's change log is at the root too, the same.
    assert_eq!(
        read_json(&out.join("change-log.json")),
        read_json(&out.join(format!("releases/{}/change-log.json", RELEASES[3])))
    );
    assert!(!out.join("releases/2023-05-18/change-log.json").exists());

    // The RDF a real library reads: the list, a change log.
    let parsed = std::process::Command::new(root().join("tests/rdf/.venv/bin/python"))
        .arg("-c")
        .arg(
            "import sys, pyoxigraph as ox\n\
             for path, fmt in zip(sys.argv[1::2], sys.argv[2::2]):\n\
             \x20   print(len(list(ox.parse(path=path, format=getattr(ox.RdfFormat, fmt)))))",
        )
        .args([
            out.join("releases/index.ttl").as_os_str(),
            "TURTLE".as_ref(),
            out.join("releases/index.jsonld").as_os_str(),
            "JSON_LD".as_ref(),
            out.join("change-log.ttl").as_os_str(),
            "TURTLE".as_ref(),
        ])
        .output()
        .unwrap();
    assert!(parsed.status.success(), "{}", stderr(&parsed));
    let counts: Vec<usize> = String::from_utf8_lossy(&parsed.stdout)
        .lines()
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(counts[0], counts[1], "the list's Turtle and JSON-LD");
    assert!(counts.iter().all(|&n| n > 10), "{counts:?}");

    // On serve: version IRIs see their release; release files are frozen.
    let server = Server::dir(&out);
    for version in RELEASES {
        let answer = server.get(&format!("/pato/releases/{version}/pato.obo/pato.owl"));
        assert_eq!(answer.status(), 303, "{version}'s version IRI");
        assert_eq!(
            answer.headers()["location"],
            format!("/releases/{version}/").as_str()
        );
        let root = server.get(&format!("/releases/{version}/"));
        assert_eq!(root.status(), 200);
        let api = server.get(&format!("/releases/{version}/api.json"));
        assert_eq!(
            api.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
        let api: Value = serde_json::from_slice(&api.bytes().unwrap()).unwrap();
        assert_eq!(api["release"]["version"], version);
        assert_eq!(
            api["baseUrl"],
            format!("https://pato.test/releases/{version}/")
        );
        let term = server.get(&format!("/releases/{version}/pato0000001.json"));
        assert_eq!(term.status(), 200);
        // What a release does not hold may be there in no release, or in
        // one published later: its 404 keeps the hour.
        let missing = server.get(&format!("/releases/{version}/pato9999999.json"));
        assert_eq!(missing.status(), 404);
        assert_eq!(missing.headers()["cache-control"], "public, max-age=3600");
    }
    let unpublished = server.get("/releases/2099-01-01/api.json");
    assert_eq!(unpublished.status(), 404);
    assert_eq!(
        unpublished.headers()["cache-control"],
        "public, max-age=3600"
    );
    // Every term a release removed still resolves at its IRI, to
    // documents that say since when it is gone.
    let (mut removed, mut removed_hash) = (0, 0);
    for pair in RELEASES.windows(2) {
        let log = read_json(&out.join(format!("releases/{}/change-log.json", pair[1])));
        for term in log["changes"]["removed"].as_array().unwrap() {
            let iri = term["iri"].as_str().unwrap();
            let path = iri
                .strip_prefix("http://purl.obolibrary.org/obo/")
                .unwrap_or_else(|| panic!("{iri} outside the namespace"));
            let json_at = |path: &str| {
                let seen = client()
                    .get(format!("{}{path}", server.url))
                    .header("Accept", "application/json")
                    .send()
                    .unwrap();
                assert_eq!(seen.status(), 303, "{iri}");
                let location = seen.headers()["location"].to_str().unwrap().to_owned();
                let document = server.get(&location);
                assert_eq!(document.status(), 200, "{iri} at {location}");
                let document: Value = serde_json::from_slice(&document.bytes().unwrap()).unwrap();
                (location, document)
            };
            // A request never carries a fragment: `pato#dc-contributor`
            // arrives as `/pato`, whose document lists it as removed.
            if let Some((path, _)) = path.split_once('#') {
                removed_hash += 1;
                let (_, document) = json_at(path);
                let terms = document["terms"].as_array().unwrap();
                let listed = terms.iter().find(|t| t["iri"] == iri);
                let listed = listed.unwrap_or_else(|| panic!("{iri} not in /{path}: {document}"));
                assert_eq!(listed["removedIn"], pair[1], "{listed}");
                continue;
            }
            removed += 1;
            let (location, document) = json_at(path);
            assert_eq!(document["removed"], true, "{document}");
            assert_eq!(document["iri"], iri);
            assert_eq!(document["removedIn"], pair[1]);
            assert_eq!(document["lastRelease"], pair[0]);
            let page = server.get(&location.replace(".json", ".html"));
            let page = page.text().unwrap();
            assert!(
                page.contains(&format!("gone since release {}", pair[1])),
                "{page}"
            );
        }
    }
    assert!(removed > 0 && removed_hash > 0, "{removed}, {removed_hash}");
    // Every current `pato#…` term is in `/pato`'s document, and nothing
    // else is but the removed ones.
    let hashed: Vec<String> = read_json(&out.join("index.json"))["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_str().unwrap().to_owned())
        .filter(|iri| iri.starts_with("http://purl.obolibrary.org/obo/pato#"))
        .collect();
    let document = read_json(&out.join("pato.json"));
    let current: Vec<&str> = document["terms"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t.get("removedIn").is_none())
        .map(|t| t["iri"].as_str().unwrap())
        .collect();
    let mut expected: Vec<&str> = hashed.iter().map(String::as_str).collect();
    expected.sort_by_key(|iri| iri.split_once('#').unwrap().1);
    assert!(expected.len() >= 30, "{expected:?}");
    assert_eq!(current, expected);
    // Not in the current release's lists.
    let index = read_json(&out.join("index.json"));
    assert!(!index.to_string().contains("\"removed\":true"));
    let list = server.get("/releases/index.json");
    assert_eq!(list.headers()["cache-control"], "public, max-age=3600");
    assert_eq!(server.get("/releases/").status(), 200);
}

/// An input of the tiny fixture as release `version`.
fn tiny_release(dir: &Path, version: &str) -> PathBuf {
    release_of(&tiny_input(), dir, version);
    dir.to_owned()
}

/// The input `source` as each of `versions` (oldest first): the last
/// the current release in `input`, each other kept in
/// `input/releases/{version}`.
pub fn releases_of(source: &Path, input: &Path, versions: &[&str]) {
    let (current, kept) = versions.split_last().expect("a release");
    release_of(source, input, current);
    for version in kept {
        release_of(source, &input.join(format!("releases/{version}")), version);
    }
}

/// The input `source` as release `version`, in `dir`.
fn release_of(source: &Path, dir: &Path, version: &str) {
    copy_tree(source, dir);
    let path = dir.join("ontology.json");
    let mut ontology = read_json(&path);
    ontology["version"] = version.into();
    std::fs::write(&path, serde_json::to_vec_pretty(&ontology).unwrap()).unwrap();
}

/// The build fails, names `names` and leaves the site as it was; `check`
/// of the same input and site says the same, before any build.
fn refused(input: &Path, out: &Path, names: &[&str]) {
    refused_with(input, out, &[], names);
}

/// [`refused`], both run with `args`.
fn refused_with(input: &Path, out: &Path, args: &[&str], names: &[&str]) {
    let site = snapshot(out);
    let mut check_args = vec!["--out", out.to_str().unwrap()];
    check_args.extend(args);
    let checked = check(input, &check_args);
    let output = build(input, out, args);
    for (what, output) in [("checked", &checked), ("built", &output)] {
        let message = stderr(output);
        assert!(
            !output.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&output.stdout)
        );
        for name in names {
            assert!(message.contains(name), "{name} not in: {message}");
        }
    }
    assert!(snapshot(out) == site, "the site changed");
}

/// Two releases that state the same version IRI (an OBO file's
/// `data-version` left as it was) are refused, naming both and the IRI;
/// with the later one's own, both are published and each IRI is its
/// release's.
#[test]
fn two_releases_stating_one_version_iri_are_refused() {
    let dir = tempdir();
    let (input, out) = (dir.path().join("input"), dir.path().join("out"));
    let shapes = root().join("tests/fixtures/ontologies/obo");
    releases_of(&shapes, &input, &["2026-10-01", "2026-11-01"]);
    std::fs::create_dir_all(&out).unwrap();
    refused(
        &input,
        &out,
        &[
            "releases 2026-10-01 and 2026-11-01 both state the version IRI",
            "shapes/2026-11-01/shapes.owl",
            "give release 2026-10-01 its own version IRI",
        ],
    );
    let kept = input.join("releases/2026-10-01/shapes.obo");
    let text = std::fs::read_to_string(&kept).unwrap();
    std::fs::write(
        &kept,
        text.replace("data-version: 2026-11-01", "data-version: 2026-10-01"),
    )
    .unwrap();
    build_ok(&input, &out);
    let list = read_json(&out.join("releases/index.json"));
    let iris: Vec<&str> = list["releases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["versionIri"].as_str())
        .collect();
    assert_eq!(iris.len(), 2, "{list}");
    assert!(iris.iter().any(|i| i.contains("/2026-10-01/")), "{list}");
}

#[test]
fn a_published_release_is_never_rewritten_nor_dropped() {
    let dir = tempdir();
    let (input, out) = (dir.path().join("input"), dir.path().join("out"));
    releases_of(&tiny_input(), &input, &["1", "2"]);
    build_ok(&input, &out);
    assert!(out.join("releases/1/api.json").is_file());
    assert!(out.join("releases/2/api.json").is_file());

    // Other sources for release 1, published already.
    let entity = input.join("releases/1/entities/zeta.json");
    let original = std::fs::read(&entity).unwrap();
    std::fs::write(
        &entity,
        String::from_utf8_lossy(&original).replace("\"name\"", "\"name\" "),
    )
    .unwrap();
    refused(
        &input,
        &out,
        &[
            "release 1 was published",
            "input/releases/1",
            "out/releases/1",
        ],
    );
    std::fs::write(&entity, &original).unwrap();

    // The current release is built anew until it is kept (or deployed).
    let current = input.join("entities/zeta.json");
    let stated = std::fs::read(&current).unwrap();
    std::fs::write(
        &current,
        String::from_utf8_lossy(&stated).replace("Deletes", "Removes"),
    )
    .unwrap();
    build_ok(&input, &out);
    // A site deployed with it (--previous) holds it as published.
    let deployed = dir.path().join("deployed");
    copy_tree(&out, &deployed);
    std::fs::write(&current, &stated).unwrap();
    let previous = ["--previous", deployed.to_str().unwrap()];
    let output = build(&input, &dir.path().join("other"), &previous);
    let checked = check(&input, &previous);
    for output in [&output, &checked] {
        assert!(!output.status.success());
        assert!(
            stderr(output).contains("release 2 was published"),
            "{}",
            stderr(output)
        );
    }
    let output = build(
        &input,
        &dir.path().join("other"),
        &["--previous", dir.path().join("nowhere").to_str().unwrap()],
    );
    assert!(
        stderr(&output).contains("--previous names no site that keeps releases"),
        "{}",
        stderr(&output)
    );
    build_ok(&input, &out);

    // A new release older than one published.
    tiny_release(&input.join("releases/0"), "0");
    refused(&input, &out, &["release 0 is new, and older than release"]);
    std::fs::remove_dir_all(input.join("releases/0")).unwrap();

    // Release 1's sources gone from the input.
    std::fs::rename(input.join("releases/1"), dir.path().join("kept-aside")).unwrap();
    refused(&input, &out, &["release 1 is published", "no longer keeps"]);
    std::fs::rename(dir.path().join("kept-aside"), input.join("releases/1")).unwrap();

    // A kept release later than the current one.
    tiny_release(&input.join("releases/3"), "3");
    refused(
        &input,
        &out,
        &["release 3 is later than the current release 2"],
    );
    // `check` says so too.
    let checked = check(&input, &[]);
    assert!(!checked.status.success());
    assert!(
        stderr(&checked).contains("release 3 is later"),
        "{}",
        stderr(&checked)
    );
    std::fs::remove_dir_all(input.join("releases/3")).unwrap();

    // The current release kept as well: taken as it is with the same
    // sources, refused with others.
    let kept = tiny_release(&input.join("releases/2"), "2");
    build_ok(&input, &out);
    let entity = kept.join("entities/zeta.json");
    let stated = std::fs::read_to_string(&entity).unwrap();
    std::fs::write(&entity, stated.replace("Deletes", "Removes")).unwrap();
    refused(
        &input,
        &out,
        &["release 2 is kept here and is also the current release"],
    );
    std::fs::remove_dir_all(&kept).unwrap();

    // A name that cannot be a path, and a current release with no version.
    std::fs::create_dir_all(input.join("releases/a b")).unwrap();
    let ontology = input.join("ontology.json");
    let stated = std::fs::read(&ontology).unwrap();
    let mut unversioned = read_json(&ontology);
    unversioned.as_object_mut().unwrap().remove("version");
    std::fs::write(&ontology, serde_json::to_vec(&unversioned).unwrap()).unwrap();
    refused(
        &input,
        &out,
        &[
            "`a b` cannot name a release",
            "the current release has no version",
        ],
    );
    std::fs::remove_dir_all(input.join("releases/a b")).unwrap();
    std::fs::write(&ontology, stated).unwrap();

    // Put back as it was, the same input builds again.
    build_ok(&input, &out);
}

/// Releases 1 and 2 (the current one) of the tiny input, in `dir/input`,
/// built into `dir/out`; the two.
fn two_releases_built(dir: &Path) -> (PathBuf, PathBuf) {
    let (input, out) = (dir.join("input"), dir.join("out"));
    releases_of(&tiny_input(), &input, &["1", "2"]);
    build_ok(&input, &out);
    (input, out)
}

/// The input of [`two_releases_built`] given a third release: the
/// next build runs, taking the first two as published.
fn add_third_release(input: &Path) {
    std::fs::remove_dir_all(input).unwrap();
    releases_of(&tiny_input(), input, &["1", "2", "3"]);
}

/// A released file rewritten in place by hand to the same size (dated
/// after the build's list, its folder not) is not seen by a build that
/// takes the release as the list records it (not forced: no file asked
/// for its status, as docs/releases.md says); a forced build asks every
/// file, builds the release again from its sources, and the list names
/// the file's own hash.
#[test]
fn a_released_file_edited_to_the_same_size_is_built_again() {
    use std::io::Write;
    let dir = tempdir();
    let (input, out) = two_releases_built(dir.path());
    let file = out.join("releases/1/api.json");
    let built = std::fs::read(&file).unwrap();
    let mut edited = built.clone();
    let middle = edited.len() / 2;
    edited[middle] = if edited[middle] == b' ' { b'\t' } else { b' ' };
    let list = out.join(ontosite::output::objects::OBJECTS);
    // In place, dated after the list, the release's folders before it,
    // whatever the file system's clock tick (one written in the list's
    // tick would have the build look the release through).
    let edit = || {
        let mut held = std::fs::File::options().write(true).open(&file).unwrap();
        held.write_all(&edited).unwrap();
        let listed_at = std::fs::metadata(&list).unwrap().modified().unwrap();
        let second = std::time::Duration::from_secs(1);
        held.set_modified(listed_at + 2 * second).unwrap();
        for folder in walkdir::WalkDir::new(out.join("releases/1")) {
            let folder = folder.unwrap();
            if folder.file_type().is_dir() {
                date(folder.path(), listed_at - second);
            }
        }
    };
    edit();
    // A new release: the first taken as recorded, the edit with it.
    add_third_release(&input);
    build_ok(&input, &out);
    assert!(
        std::fs::read(&file).unwrap() == edited,
        "the file was asked"
    );
    edit();
    // Forced: the input is as it was, and the output's record says so.
    let rebuilt = build(&input, &out, &["--force"]);
    assert!(rebuilt.status.success(), "{}", stderr(&rebuilt));
    assert!(std::fs::read(&file).unwrap() == built, "the edit was kept");
    let listed = std::fs::read_to_string(&list).unwrap();
    let listed = ontosite::output::objects::parse(&listed).unwrap();
    let entry = listed
        .iter()
        .find(|o| o.path == "releases/1/api.json")
        .unwrap();
    assert_eq!(entry.hash, ontosite::output::objects::hash(&built));
}

/// A folder in a kept release that holds none of its files is not the
/// site's: the build refuses it as it refuses a file ontosite did not
/// write (a build taking the release as its list records it asks only
/// the folders holding its files; this one's parent, dated later, makes
/// it look through the release).
#[test]
fn an_empty_folder_in_a_kept_release_is_refused() {
    let dir = tempdir();
    let (input, out) = two_releases_built(dir.path());
    std::fs::create_dir(out.join("releases/1/notes")).unwrap();
    add_third_release(&input);
    // The build's look at the output, which `check` does not make.
    let site = snapshot(&out);
    let output = build(&input, &out, &[]);
    assert!(!output.status.success(), "built");
    let message = stderr(&output);
    assert!(message.contains("releases/1/notes"), "{message}");
    assert!(snapshot(&out) == site, "the site changed");
}

/// A release the output published is taken into the new site as its
/// folder, moved whole at the swap, not linked file by file (half a
/// million links at ten releases of 10,000 entities): the folder is the
/// same one, its files as they were, and they are the site's own to the
/// build after.
#[test]
fn a_release_in_the_output_is_kept_as_its_folder() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempdir();
    let (input, out) = (dir.path().join("input"), dir.path().join("out"));
    let folder = |version: &str| {
        std::fs::metadata(out.join("releases").join(version))
            .unwrap()
            .ino()
    };
    releases_of(&tiny_input(), &input, &["1", "2"]);
    build_ok(&input, &out);
    let (first, second) = (folder("1"), folder("2"));
    let published = [release_files(&out, "1"), release_files(&out, "2")];
    std::fs::remove_dir_all(&input).unwrap();
    releases_of(&tiny_input(), &input, &["1", "2", "3"]);
    build_ok(&input, &out);
    assert_eq!((folder("1"), folder("2")), (first, second));
    assert!(published == [release_files(&out, "1"), release_files(&out, "2")]);
    let beside: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(beside, ["input", "out"], "left beside the site");
    // Listed as the site's own: the build after finds nothing foreign in
    // them and takes them again, the third release's copy with them.
    let third = folder("3");
    std::fs::remove_dir_all(&input).unwrap();
    releases_of(&tiny_input(), &input, &["1", "2", "3", "4"]);
    build_ok(&input, &out);
    assert_eq!(
        (folder("1"), folder("2"), folder("3")),
        (first, second, third)
    );
}

/// A release in the output is taken as its list of objects records it,
/// no file asked for its status, only where its folders are as old as
/// the list: a file removed from it by hand dates its folder later, and
/// the next build (not forced) builds the release again from its
/// sources instead of moving the folder without the file.
#[test]
fn a_file_removed_from_a_kept_release_is_built_again() {
    let dir = tempdir();
    let (input, out) = two_releases_built(dir.path());
    let file = out.join("releases/1/api.json");
    let built = std::fs::read(&file).unwrap();
    let published = release_files(&out, "1");
    std::fs::remove_file(&file).unwrap();
    // Its folder dated after the list, whatever the file system's clock
    // tick.
    let list = out.join(ontosite::output::objects::OBJECTS);
    let listed_at = std::fs::metadata(&list).unwrap().modified().unwrap();
    date(
        &out.join("releases/1"),
        listed_at + std::time::Duration::from_secs(2),
    );
    add_third_release(&input);
    build_ok(&input, &out);
    assert!(std::fs::read(&file).unwrap() == built, "not built again");
    assert!(release_files(&out, "1") == published);
}

/// `check --host` measures the site with every release in it, as the
/// build that writes it does (it once measured the current release
/// alone, without its copy, the list or the change log).
#[test]
fn check_measures_every_release_as_the_build_does() {
    let dir = tempdir();
    let (input, out) = (dir.path().join("input"), dir.path().join("out"));
    releases_of(&tiny_input(), &input, &["1", "2"]);
    let fits = |output: &std::process::Output| {
        assert!(output.status.success(), "{}", stderr(output));
        let said = String::from_utf8_lossy(&output.stdout).into_owned();
        said.lines()
            .find(|line| line.starts_with("fits "))
            .unwrap_or_else(|| panic!("no fit in: {said}"))
            .to_owned()
    };
    let host = ["--host", "cloudflare-paid"];
    let built = fits(&build(&input, &out, &host));
    assert_eq!(fits(&check(&input, &host)), built);
    // The releases' files are counted: the site without them is smaller.
    let alone = dir.path().join("alone");
    tiny_release(&alone, "2");
    let without = fits(&check(&alone, &host));
    assert_ne!(without, built);
}

/// On a host without code no handler joins a copy's wholes: where the
/// host takes no file as large as the copy's RDF list or dump (GitHub
/// Pages' 100 MiB, lowered here to 600 KB, under the 1.4 MB dump of 1,500
/// generated entities), those are in parts, and the site is built, not refused. Both
/// copies, the current release's and one built from its kept sources;
/// their parts state what a copy's whole dump states, and `check`
/// measures the same. (Where a handler joins them:
/// `runtimes::a_release_s_wholes_and_documents_answer_in_its_copy_on_every_host`.)
#[test]
fn a_release_s_dump_past_the_host_s_file_limit_is_in_parts() {
    let dir = tempdir();
    let input = dir.path().join("input");
    let source = generated_input(dir.path(), "source", 1_500, "Words");
    releases_of(&source, &input, &["1", "2"]);
    let limit: u64 = 600_000;
    let args = ["--host", "github-pages"];
    let limits = format!("file-bytes={limit}");
    let out = dir.path().join("out");
    let output = build_command(&input, &out, &args)
        .env("ONTOSITE_HOST_LIMITS", &limits)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let checked = check_command(&input, &args)
        .env("ONTOSITE_HOST_LIMITS", &limits)
        .output()
        .unwrap();
    assert!(checked.status.success(), "{}", stderr(&checked));
    let fits = |output: &std::process::Output| {
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .find(|line| line.starts_with("fits "))
            .map(str::to_owned)
    };
    assert!(fits(&output).is_some(), "the build says how the site fits");
    assert_eq!(fits(&checked), fits(&output), "check measures as the build");
    // Every document (the output's own lists aside, which the hosts'
    // limits do not measure).
    for (path, bytes) in snapshot(&out) {
        if !path.starts_with(".ontosite") {
            assert!(bytes.len() as u64 <= limit, "{path}: {} bytes", bytes.len());
        }
    }
    // The same input without the limit: each copy's dump whole.
    let whole = dir.path().join("whole");
    build_ok(&input, &whole);
    let base = "https://many.example";
    for version in ["1", "2"] {
        let copy = out.join("releases").join(version);
        assert!(!copy.join("dump.nt").exists(), "release {version}");
        let mut joined = Vec::new();
        for k in 1.. {
            let Ok(part) = std::fs::read(copy.join(format!("dump-parts/{k}.nt"))) else {
                assert!(k > 2, "release {version}: fewer than two parts");
                break;
            };
            joined.extend(part);
        }
        let dump = std::fs::read(whole.join("releases").join(version).join("dump.nt")).unwrap();
        // The same statements but the data set's description and its
        // downloads (the parted copy's are the parts).
        let described = format!("<{base}/releases/{version}/");
        let statements = |dump: &[u8]| -> std::collections::BTreeSet<String> {
            String::from_utf8_lossy(dump)
                .lines()
                .filter(|line| !line.starts_with(&format!("{described}> ")))
                .filter(|line| !line.starts_with(&format!("{described}dump")))
                .map(str::to_owned)
                .collect()
        };
        assert!(
            statements(&dump) == statements(&joined),
            "release {version}: the parts do not state what the whole dump states"
        );
    }
}

/// A copy published bundled is kept as it was published, and the root's
/// handlers still answer in it when the next build lays its own copy out
/// a file per document: one site holds both layouts. The handler table
/// names the kept copy's bundles, and `serve` answers its documents and
/// pages from them as before.
#[test]
fn a_copy_published_bundled_keeps_its_layout_beside_one_of_files() {
    let dir = tempdir();
    let (input, out) = (dir.path().join("input"), dir.path().join("out"));
    releases_of(&tiny_input(), &input, &["1", "2"]);
    let built = build(&input, &out, &["--layout", "bundled"]);
    assert!(built.status.success(), "{}", stderr(&built));
    let paths = [
        "/releases/1/acmecreateitem.json",
        "/releases/1/acmecreateitem.ttl",
        "/releases/1/acmecreateitem",
        "/releases/2/acmecreateitem.jsonld",
    ];
    let answers = |out: &Path| -> Vec<(u16, Vec<u8>)> {
        let server = Server::dir(out);
        paths
            .iter()
            .map(|path| {
                let answer = server.get(path);
                (answer.status().as_u16(), answer.bytes().unwrap().to_vec())
            })
            .collect()
    };
    let before = answers(&out);
    for ((status, _), path) in before.iter().zip(paths) {
        assert_eq!(*status, 200, "{path}");
    }
    assert!(!out.join("releases/1/acmecreateitem.json").exists());
    // Release 3, built with the default layout: a file per document.
    std::fs::remove_dir_all(&input).unwrap();
    releases_of(&tiny_input(), &input, &["1", "2", "3"]);
    build_ok(&input, &out);
    assert!(out.join("releases/3/acmecreateitem.json").is_file());
    assert!(out.join("acmecreateitem.json").is_file());
    for copy in ["releases/1/", "releases/2/"] {
        assert!(!out.join(format!("{copy}acmecreateitem.json")).exists());
        assert!(
            out.join(format!("{copy}entity-bundles/index.json"))
                .is_file()
        );
    }
    let worker = std::fs::read_to_string(out.join("_worker.js")).unwrap();
    assert!(
        worker.contains(r#""folders":{"/releases/1/":{"count":1,"#)
            && worker.contains(r#""/releases/2/":{"count":1,"#),
        "the worker's table names no kept copy's bundles"
    );
    assert!(answers(&out) == before, "a kept copy answers otherwise");
    // Nothing would answer the kept bundles on a host without code.
    let said = |release: &str| {
        format!(
            "release {release} was published with its entities' documents bundled, which only a host that runs code answers; GitHub Pages runs none"
        )
    };
    let (one, two) = (said("1"), said("2"));
    refused_with(
        &input,
        &out,
        &["--host", "github-pages"],
        &[&one, &two, "releases/1/entity-bundles/index.json"],
    );
}

/// The copies take the root's layout, so the layout is chosen counting
/// them: the shipped set alone fits Cloudflare Pages' 20,000 files a file
/// per document (about 13,000), but as two releases (three sites) only
/// bundled, which `build` and `check` then choose, not refuse.
#[test]
fn releases_past_the_host_s_file_count_are_bundled_with_the_root() {
    let dir = tempdir();
    let input = dir.path().join("input");
    releases_of(&shipped_input(), &input, &["1", "2"]);
    let args = ["--host", "cloudflare"];
    let checked = check(&input, &args);
    assert!(checked.status.success(), "{}", stderr(&checked));
    let out = dir.path().join("out");
    let built = build(&input, &out, &args);
    assert!(built.status.success(), "{}", stderr(&built));
    let files = walkdir::WalkDir::new(&out)
        .into_iter()
        .filter(|entry| entry.as_ref().unwrap().file_type().is_file())
        .count();
    assert!(files < 20_000, "{files} files");
    for folder in ["", "releases/1/", "releases/2/"] {
        let manifest = out.join(format!("{folder}entity-bundles/index.json"));
        assert!(manifest.is_file(), "{folder} is not bundled");
    }
    // Alone, the same set is a file per document on the same host.
    let alone = dir.path().join("alone");
    let built = build(&shipped_input(), &alone, &args);
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(!alone.join("entity-bundles").exists());
}
