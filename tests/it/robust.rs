//! Hostile and unlucky inputs and runs: two builds at once, words long
//! enough to overflow a recursion, repeated keys, exact numbers, symbolic
//! links, an output inside the input or on a mount point, credentials in
//! the base URL, and a crashed build's leftovers.

use crate::util::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn write(input: &Path, rel: &str, text: &str) {
    let path = input.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A copy of the tiny fixture to change.
fn tiny_copy(dir: &Path) -> PathBuf {
    let input = dir.join("input");
    copy_tree(&tiny_input(), &input);
    input
}

/// Files of the site whose names look like entity JSON files.
fn entity_files(site: &Path) -> usize {
    std::fs::read_dir(site)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name().into_string().unwrap();
            name.starts_with('e')
                && name.ends_with(".jsonld")
                && name[1..name.len() - 7].bytes().all(|b| b.is_ascii_digit())
        })
        .count()
}

/// Two builds into one `--out` at once: one builds, the other says that
/// another build is running; the site is whole, and a build after both
/// succeeds. Ten rounds, each started together.
#[test]
fn two_builds_into_one_output_never_mix() {
    needs!(Need::Slow);
    let dir = tempdir();
    // Enough entities that a build takes a while.
    let input = generated_input(dir.path(), "input", 3000, "Description");
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    let bin = binary();
    for round in 0..10 {
        let start = || {
            // `--force`: the input is the same, and both must really build.
            Command::new(&bin)
                .args(["build", "--quiet", "--force", "--input"])
                .arg(&input)
                .arg("--out")
                .arg(&out)
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (start(), start());
        let outputs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
        for output in &outputs {
            if !output.status.success() {
                let message = stderr(output);
                assert!(
                    message.contains("another ontosite build is writing"),
                    "round {round}: {message}"
                );
            }
        }
        assert!(
            outputs.iter().any(|o| o.status.success()),
            "round {round}: neither built"
        );
        let index = read_json(&out.join("index.json"));
        assert_eq!(index["total"], 3000, "round {round}");
        assert_eq!(entity_files(&out), 3000, "round {round}");
        let marker = std::fs::read_to_string(out.join(ontosite::output::MARKER)).unwrap();
        for listed in marker.lines().skip(1) {
            assert!(
                out.join(listed).is_file(),
                "round {round}: the marker lists a missing {listed}"
            );
        }
    }
    build_ok(&input, &out);
    let beside: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains("ontosite"))
        .collect();
    assert!(beside.is_empty(), "left beside the output: {beside:?}");
}

/// One unbroken word of 25,000 letters (or 8,500 CJK characters) in a
/// name, description or ID is valid input: it builds, without a crash and
/// without a file per letter, and is found by its first 128 letters (the
/// most a search term may have).
#[test]
fn very_long_words_build_and_are_found() {
    let dir = tempdir();
    let input = tiny_copy(dir.path());
    let word = "a".repeat(25_000);
    let cjk = "語".repeat(8_500);
    write(
        &input,
        "entities/long.json",
        &serde_json::json!({"id": format!("Long{}", "b".repeat(25_000)), "slug": "long", "name": word, "description": cjk}).to_string(),
    );
    let out = dir.path().join("dist");
    let output = build(&input, &out, &[]);
    assert!(
        output.status.success(),
        "exit {:?}: {}",
        output.status,
        stderr(&output)
    );
    let files = snapshot(&out);
    let bytes: usize = files.values().map(Vec::len).sum();
    // Each index file has its script twin for pages opened from disk.
    assert!(files.len() < 400, "{} files", files.len());
    assert!(bytes < 10_000_000, "{bytes} bytes");
    let ontology = ontosite::source::load(&input, None).unwrap();
    let searcher = ontosite::search::Searcher::new(&ontology);
    let longest = &word[..ontosite::search::query::MAX_TERM_CHARS];
    for q in ["aaaa", longest, "語語語"] {
        let (status, body) =
            ontosite::site::answers::search_response(&searcher, Some(q), None, None).unwrap();
        let answer: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            (status, answer["items"][0]["slug"].as_str()),
            (200, Some("long")),
            "{}",
            &q[..4]
        );
    }
    // A longer term is past the bound on a term's characters: a 400.
    let (status, _) =
        ontosite::site::answers::search_response(&searcher, Some(&word[..5000]), None, None)
            .unwrap();
    assert_eq!(status, 400);
}

/// Repeated keys are an input error at their place; numbers pass through
/// with every digit.
#[test]
fn repeated_keys_are_refused_and_numbers_pass_through_exactly() {
    let dir = tempdir();
    let input = tiny_copy(dir.path());
    write(
        &input,
        "entities/dup.json",
        "{\"id\": \"A\",\n  \"id\": \"B\", \"name\": \"n\", \"description\": \"d\"}",
    );
    write(
        &input,
        "entities/more.jsonl",
        "{\"id\": \"C\", \"name\": \"n\", \"description\": \"d\", \"x\": {\"y\": 1, \"y\": 2}}\n",
    );
    let out = dir.path().join("dist");
    let output = build(&input, &out, &[]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains("entities/dup.json:2:"), "{message}");
    assert!(message.contains("the key `id` appears twice"), "{message}");
    assert!(message.contains("entities/more.jsonl:1:"), "{message}");
    assert!(message.contains("the key `y` appears twice"), "{message}");

    std::fs::remove_file(input.join("entities/dup.json")).unwrap();
    write(
        &input,
        "entities/more.jsonl",
        "{\"id\": \"Numbers\", \"name\": \"n\", \"description\": \"d\", \"big\": 18446744073709551617, \"zero\": -0, \"long\": 0.1000000000000000055511151231257827, \"exp\": 1E2, \"list\": [1.50, -12]}\n",
    );
    build_ok(&input, &out);
    let text = std::fs::read_to_string(out.join("numbers.json")).unwrap();
    for written in [
        "18446744073709551617",
        "\"zero\":-0,",
        "0.1000000000000000055511151231257827",
        "1e+2",
        "[1.50,-12]",
    ] {
        assert!(text.contains(written), "{written} in {text}");
    }
}

/// Links to files and folders inside the input are followed; a link out
/// of the input is refused by name; a loop is reported, not walked.
#[test]
fn symbolic_links_inside_are_followed_and_outside_refused() {
    use std::os::unix::fs::symlink;
    let dir = tempdir();
    let input = tiny_copy(dir.path());
    write(
        &input,
        "extra/linked.json",
        r#"{"id": "Linked", "name": "n", "description": "d"}"#,
    );
    write(
        &input,
        "extra/folder/deep.json",
        r#"{"id": "Deep", "name": "n", "description": "d"}"#,
    );
    symlink(
        input.join("extra/linked.json"),
        input.join("entities/linked.json"),
    )
    .unwrap();
    symlink(input.join("extra/folder"), input.join("entities/folder")).unwrap();
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    assert!(out.join("linked.json").is_file() && out.join("deep.json").is_file());

    write(
        dir.path(),
        "outside/secret.json",
        r#"{"id": "Secret", "name": "n", "description": "d"}"#,
    );
    symlink(
        dir.path().join("outside/secret.json"),
        input.join("entities/secret.json"),
    )
    .unwrap();
    symlink(input.join("entities"), input.join("entities/folder/loop")).unwrap();
    let output = build(&input, &out, &[]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message
            .contains("entities/secret.json: this symbolic link leads outside the input directory"),
        "{message}"
    );
    assert!(
        message.contains("leads back to a folder that contains it"),
        "{message}"
    );
}

/// An ontology source that links out of the input (issue 29: a link to
/// `/etc/passwd` was read, published at `source-files/` and echoed in
/// errors) is refused by name, its target never read; one inside is read.
#[test]
fn an_ontology_source_linking_out_of_the_input_is_refused_unread() {
    use std::os::unix::fs::symlink;
    let dir = tempdir();
    let input = dir.path().join("input");
    std::fs::create_dir_all(input.join("kept")).unwrap();
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "Linked", "baseUrl": "https://linked.test"}"#,
    )
    .unwrap();
    std::fs::write(
        input.join("kept/a.ttl"),
        "<http://t.test/A> a <http://www.w3.org/2002/07/owl#Class> ; <http://www.w3.org/2000/01/rdf-schema#label> \"A\" .\n",
    )
    .unwrap();
    symlink(input.join("kept/a.ttl"), input.join("a.ttl")).unwrap();
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    assert!(out.join("source-files/a.ttl").is_file());

    // A secret outside, in a syntax error's clothes: were it read, its
    // lines would be echoed in the error.
    std::fs::write(dir.path().join("secret"), "root:x:0:0:the secret line\n").unwrap();
    symlink(dir.path().join("secret"), input.join("secret.ttl")).unwrap();
    let output = build(&input, &out, &[]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("secret.ttl: this symbolic link leads outside the input directory"),
        "{message}"
    );
    assert!(!message.contains("the secret line"), "{message}");
    assert!(!out.join("source-files/secret.ttl").exists());
}

/// An RDF/XML "billion laughs" (issue 29: 8 nested entities took 800 MB,
/// 9 passed 6 GB; declaring them was enough) is refused before the parser
/// sees it, naming the entity and its line; OWL's namespace entities pass.
#[test]
fn an_rdf_xml_entity_bomb_is_refused_before_it_is_parsed() {
    let dir = tempdir();
    let input = dir.path().join("input");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "Bomb", "baseUrl": "https://bomb.test"}"#,
    )
    .unwrap();
    // Seven levels: enough to be refused, few enough that a build without
    // the bound would not exhaust the machine running this test.
    let mut bomb =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE rdf:RDF [\n<!ENTITY a \"aaaaaaaaaa\">\n");
    let mut previous = 'a';
    for name in ['b', 'c', 'd', 'e', 'f', 'g', 'h'] {
        bomb.push_str(&format!(
            "<!ENTITY {name} \"{}\">\n",
            format!("&{previous};").repeat(10)
        ));
        previous = name;
    }
    bomb.push_str("]>\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/>\n");
    std::fs::write(input.join("bomb.owl"), &bomb).unwrap();
    let output = build(&input, &dir.path().join("dist"), &[]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("bomb.owl:7: RDF/XML refused: its DTD entity `e` expands to 100000 bytes"),
        "{message}"
    );

    std::fs::write(
        input.join("bomb.owl"),
        "<?xml version=\"1.0\"?>\n<!DOCTYPE rdf:RDF [\n  <!ENTITY owl \"http://www.w3.org/2002/07/owl#\">\n]>\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:rdfs=\"http://www.w3.org/2000/01/rdf-schema#\">\n  <rdf:Description rdf:about=\"http://t.test/A\">\n    <rdf:type rdf:resource=\"&owl;Class\"/>\n    <rdfs:label>A</rdfs:label>\n  </rdf:Description>\n</rdf:RDF>\n",
    )
    .unwrap();
    build_ok(&input, &dir.path().join("dist"));
    let a = read_json(&dir.path().join("dist/a.json"));
    assert_eq!(
        a["types"],
        serde_json::json!(["http://www.w3.org/2002/07/owl#Class"])
    );
}

/// An output inside the entities folder is refused before anything is read
/// or written; the input stays as it was.
#[test]
fn an_output_inside_the_input_is_refused() {
    let dir = tempdir();
    let input = tiny_copy(dir.path());
    let before = snapshot(&input);
    let output = build(&input, &input.join("entities/dist"), &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("lies inside"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("help:"));
    assert_eq!(snapshot(&input), before);
}

/// A base URL with a user or password, and an entity type IRI that is no
/// IRI, are refused, and every problem of ontology.json is reported at once.
#[test]
fn ontology_json_is_checked_whole() {
    let dir = tempdir();
    let input = tiny_copy(dir.path());
    write(
        &input,
        "ontology.json",
        r#"{"name": "T", "description": 7, "entityType": "Thing", "entityTypeIri": "not a url",
            "baseUrl": "https://user:secret@example.org", "licence": "CC0-1.0", "versoin": "1"}"#,
    );
    let output = build(&input, &dir.path().join("dist"), &[]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    for needle in [
        "unknown field `licence`",
        "unknown field `versoin`",
        "`description`: invalid type",
        "`entityTypeIri` `not a url` is not an absolute IRI",
        "holds a user name or password",
    ] {
        assert!(message.contains(needle), "{needle}: {message}");
    }
    assert!(
        !message.contains("secret"),
        "the password was printed: {message}"
    );
    let output = ontosite()
        .args(["build", "--base-url", "https://u:p@example.org", "--input"])
        .arg(tiny_input())
        .arg("--out")
        .arg(dir.path().join("dist"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("holds a user name or password"),
        "{}",
        stderr(&output)
    );
}

/// Columns count characters; an empty file is at column 1; a too deep
/// nesting is not blamed on a comma.
#[test]
fn places_are_counted_in_characters() {
    let dir = tempdir();
    let input = tiny_copy(dir.path());
    write(
        &input,
        "entities/x.json",
        "{\"id\": \"ééé\" \"name\": \"n\"}",
    );
    write(
        &input,
        "entities/deep.json",
        &format!("{}{}", "[".repeat(200), "]".repeat(200)),
    );
    std::fs::write(input.join("ontology.json"), "").unwrap();
    let output = build(&input, &dir.path().join("dist"), &[]);
    let message = stderr(&output);
    assert!(message.contains("entities/x.json:1:14:"), "{message}");
    assert!(message.contains("ontology.json:1:1:"), "{message}");
    assert!(message.contains("recursion limit exceeded"), "{message}");
    assert!(
        message.contains("nest objects and arrays less deeply"),
        "{message}"
    );
}

/// A staging directory a build left empty (it died before writing its
/// marker) does not block the next build.
#[test]
fn an_empty_staging_directory_is_cleared() {
    let dir = tempdir();
    let out = dir.path().join("dist");
    build_ok(&tiny_input(), &out);
    std::fs::create_dir(dir.path().join(".dist.ontosite-staging")).unwrap();
    build_ok(&tiny_input(), &out);
    assert!(!dir.path().join(".dist.ontosite-staging").exists());
}

/// An output directory that is a mount point is refused before the build
/// runs, with what to do. Needs root to mount a tmpfs; says so otherwise.
#[test]
fn a_mount_point_output_is_refused_at_the_start() {
    let dir = tempdir();
    let out = dir.path().join("volume");
    std::fs::create_dir(&out).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64m", "tmpfs"])
        .arg(&out)
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipped: mounting a tmpfs needs root (mount -t tmpfs)");
        return;
    }
    let output = build(&tiny_input(), &out, &[]);
    let message = stderr(&output);
    let _ = Command::new("umount").arg(&out).status();
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(message.contains("is a mount point"), "{message}");
    assert!(message.contains("--out"), "{message}");
}

/// `kill -9` at random moments of builds that alternate between two
/// inputs, the swap and the removal of the previous site included: each
/// time the output is one of the two sites, whole, and the next build
/// succeeds.
#[test]
fn a_build_killed_at_any_moment_leaves_one_whole_site() {
    needs!(Need::Slow);
    let dir = tempdir();
    let inputs = [
        generated_input(dir.path(), "a", 2000, "First"),
        generated_input(dir.path(), "b", 2000, "Second"),
    ];
    let sites: Vec<_> = inputs
        .iter()
        .map(|input| {
            let out = dir.path().join(format!(
                "{}-site",
                input.file_name().unwrap().to_string_lossy()
            ));
            build_ok(input, &out);
            snapshot(&out)
        })
        .collect();
    let out = dir.path().join("dist");
    build_ok(&inputs[0], &out);
    // How long a build takes here, to spread the kills over all of it.
    let started = std::time::Instant::now();
    build_ok(&inputs[1], &out);
    let span = started.elapsed().as_millis() as u64 + 50;
    let mut seed = 0x2545_F491_4F6C_DD1D_u64;
    let bin = binary();
    let mut killed_mid_build = 0;
    // Builds on a busy machine vary in length, so rounds go on (up to 48)
    // until four were killed mid-way; every round checks the output.
    for round in 0..48 {
        if round >= 16 && killed_mid_build >= 4 {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let delay = seed % span;
        // `--force`: a round may build the input the output already has.
        let mut child = Command::new(&bin)
            .args(["build", "--quiet", "--force", "--input"])
            .arg(&inputs[round % 2])
            .arg("--out")
            .arg(&out)
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay));
        let _ = child.kill();
        let status = child.wait().unwrap();
        killed_mid_build += usize::from(!status.success());
        let now = snapshot(&out);
        assert!(
            sites.contains(&now),
            "round {round} (killed after {delay} ms): the output is neither site whole ({} files)",
            now.len()
        );
    }
    assert!(
        killed_mid_build >= 4,
        "only {killed_mid_build} builds were killed mid-way"
    );
    build_ok(&inputs[0], &out);
    assert!(snapshot(&out) == sites[0]);
}

/// A label holding an unclosed right-to-left override is shown closed at
/// its end on every page (so "(deprecated)", the next breadcrumb or an
/// attribute after it keep their order), and stays as it is in the data.
#[test]
fn a_bidi_override_in_a_label_orders_only_the_label() {
    let dir = tempdir();
    let input = turtle_input(
        dir.path(),
        ":a a owl:Class ; rdfs:label \"\u{202E}lave\" .\n:b a owl:Class ; rdfs:label \"b\" ; rdfs:subClassOf :a .\n",
    );
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    assert_eq!(read_json(&out.join("a.json"))["name"], "\u{202E}lave");
    for page in ["a.html", "b.html", "tree.html", "index.html"] {
        let html = std::fs::read_to_string(out.join(page)).unwrap();
        // What the page shows: its JSON-LD data block aside.
        let shown: String = html
            .split("<script")
            .map(|part| {
                part.split_once("</script>")
                    .map_or(part, |(_, after)| after)
            })
            .collect();
        assert!(shown.contains("\u{202E}lave"), "{page} shows the label");
        for line in shown.lines() {
            for (at, _) in line.match_indices('\u{202E}') {
                assert!(
                    line[at..].contains('\u{202C}'),
                    "{page}: an override left open: {line}"
                );
            }
        }
    }
}
