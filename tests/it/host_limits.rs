//! `--host`: a site checked against the limits of the host it is deployed
//! to, and refused before it replaces the previous one where the host would
//! refuse it at upload. One test passes a real figure (Cloudflare Pages
//! Free's 20,000 files); the others lower the figures with
//! `ONTOSITE_HOST_LIMITS` to pass each limit with a small site.

use crate::util::*;
use std::path::Path;
use std::process::Output;

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The shipped set built for Cloudflare Pages with files of at most
/// 650 kB, smaller than its big documents (`/all` is 1.3 MB).
fn shipped_with_small_files(site: &Path, args: &[&str]) -> Output {
    let mut all = vec!["--host", "cloudflare"];
    all.extend_from_slice(args);
    build_with_limits(&shipped_input(), site, "file-bytes=650000", &all)
}

/// `ontosite build` with `ONTOSITE_HOST_LIMITS` set to `limits`.
fn build_with_limits(input: &Path, out: &Path, limits: &str, args: &[&str]) -> Output {
    build_command(input, out, args)
        .env("ONTOSITE_HOST_LIMITS", limits)
        .output()
        .unwrap()
}

/// Cloudflare Pages Free's real count of files, passed by 4,100 entities:
/// the full tier's (the quick loop passes each limit with a small figure,
/// `each_limit_passed_is_named_with_its_figure_and_limit` and after).
#[test]
fn a_site_past_cloudflare_free_s_file_count_is_refused_and_the_previous_site_stays() {
    needs!(Need::Slow);
    let dir = tempdir();
    // Five files an entity: past 20,000 files at about 4,000 entities.
    let input = generated_input(dir.path(), "input", 4_100, "thing");
    let out = dir.path().join("dist");

    let first = build(&input, &out, &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    let summary = stdout(&first);
    let files: usize = summary
        .split("entities: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{summary}"));
    assert!(files > 20_000, "{summary}");
    // Without --host, the summary says which hosts it fits.
    let hosts = summary.lines().nth(1).unwrap_or_default();
    assert!(
        hosts.starts_with(
            "hosts: the site fits netlify, cloudflare-paid, cloudflare-r2, cloudflare-r2-paid, github-pages, object-storage; not cloudflare ("
        ),
        "{hosts}"
    );
    assert!(
        hosts.contains("files; it takes at most 20,000 per site)"),
        "{hosts}"
    );
    let before = snapshot(&out);

    // Cloudflare counts the output's marker and record besides the files
    // the summary counts (the list of files among them), not the four
    // files it reads as configuration.
    let counted = files + 2 - 4;

    // Built for Cloudflare Pages Free a file per document (the host and the
    // layout are part of what a build reads: the site is built and checked
    // again), it is refused, and the site built before is left whole.
    let refused = build(&input, &out, &["--host", "cloudflare", "--layout", "files"]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    let message = stderr(&refused);
    assert!(
        message.contains("error: the site does not fit Cloudflare Pages (Free) (--host cloudflare), which would refuse it at upload:"),
        "{message}"
    );
    assert!(
        message.contains(&format!(
            "  - {} files; it takes at most 20,000 per site\n",
            grouped(counted)
        )),
        "{message}"
    );
    assert!(
        message.contains("the site fits Netlify (--host netlify), Cloudflare Pages (paid plans) (--host cloudflare-paid)"),
        "{message}"
    );
    // Only `--layout files` made it too many files for this host.
    assert!(
        message.contains(
            "help: with --layout bundled instead of --layout files the documents are bundled for Cloudflare Pages (Free)'s handler"
        ),
        "{message}"
    );
    assert!(snapshot(&out) == before, "the previous site changed");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".ontosite-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // `check --host` says the same, and writes nothing.
    let checked = check(&input, &["--host", "cloudflare", "--layout", "files"]);
    assert_eq!(checked.status.code(), Some(1));
    assert!(
        stderr(&checked).contains("does not fit Cloudflare Pages (Free)"),
        "{}",
        stderr(&checked)
    );
    assert!(snapshot(&out) == before);

    // The paid plan takes it as it is.
    let paid = build(&input, &out, &["--host", "cloudflare-paid"]);
    assert!(paid.status.success(), "{}", stderr(&paid));
    let line = stdout(&paid).lines().nth(1).unwrap_or_default().to_owned();
    assert!(
        line.starts_with(&format!(
            "fits Cloudflare Pages (paid plans) (--host cloudflare-paid): {} of 100,000 files, ",
            grouped(counted)
        )),
        "{line}"
    );
    assert!(!out.join("entity-bundles").exists());

    // Left to choose, a build for the Free plan bundles the documents, which
    // the worker answers: the site fits.
    let bundled = build(&input, &out, &["--host", "cloudflare"]);
    assert!(bundled.status.success(), "{}", stderr(&bundled));
    let line = stdout(&bundled)
        .lines()
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    assert!(
        line.starts_with("fits Cloudflare Pages (Free) (--host cloudflare): "),
        "{line}"
    );
    let manifest = read_json(&out.join("entity-bundles/index.json"));
    assert_eq!(manifest["count"], 4_100usize.div_ceil(16), "{manifest}");
    assert!(!out.join("e0.json").exists());
}

/// A count as the messages show it.
fn grouped(n: usize) -> String {
    ontosite::hosts::limits::shown(ontosite::hosts::Measure::Files, n as u64)
}

#[test]
fn each_limit_passed_is_named_with_its_figure_and_limit() {
    let dir = tempdir();
    let out = dir.path().join("dist");
    let every = "files=10,file-bytes=1000,header-rules=1,static-redirects=1,dynamic-redirects=1,route-rules=1,handler-bytes=100";
    let refused = build_with_limits(
        &tiny_input(),
        &out,
        every,
        &["--host", "cloudflare", "--layout", "files"],
    );
    assert_eq!(refused.status.code(), Some(1));
    let message = stderr(&refused);
    let passed: Vec<&str> = message.lines().filter(|l| l.starts_with("  - ")).collect();
    let expected_starts = [
        // As many files as the dumps' parts make them (a part a kilobyte).
        "  - ",
        "  - `",
        "  - 9 rules in `_headers`; it takes at most 1",
        "  - 9 static rules in `_redirects`; it takes at most 1",
        "  - 2 dynamic rules in `_redirects`; it takes at most 1",
        "  - 79 rules in `_routes.json`; it takes at most 1",
        "  - `_worker.js` is ",
    ];
    assert_eq!(passed.len(), expected_starts.len(), "{message}");
    for (line, start) in passed.iter().zip(expected_starts) {
        assert!(line.starts_with(start), "{line} / {start}\n{message}");
    }
    assert!(
        passed[0].contains(" files; it takes at most 10 per site"),
        "{message}"
    );
    // Each limit here is the override's, and says so.
    let from = " (a figure from ONTOSITE_HOST_LIMITS)";
    assert!(passed.iter().all(|line| line.ends_with(from)), "{message}");
    assert!(
        passed[1].ends_with(&format!("; it takes at most 1000 B per file{from}")),
        "{message}"
    );
    assert!(
        passed[6].ends_with(&format!("; it takes a handler of at most 100 B{from}")),
        "{message}"
    );
    assert!(!out.exists(), "nothing is written where there was no site");

    let netlify = build_with_limits(
        &tiny_input(),
        &out,
        "files-per-directory=5,handler-bytes=100",
        &["--host", "netlify", "--layout", "files"],
    );
    let message = stderr(&netlify);
    assert!(
        message.contains("files in `/`; it takes at most 5 in one directory"),
        "{message}"
    );
    assert!(
        message.contains("`_edge/netlify/search.js` is ")
            && message.contains(" compressed; it takes a handler of at most 100 B"),
        "{message}"
    );

    let github = build_with_limits(
        &tiny_input(),
        &out,
        "site-bytes=1000",
        &["--host", "github-pages"],
    );
    let message = stderr(&github);
    assert!(
        message.contains(" in all; it takes at most 1000 B per site"),
        "{message}"
    );

    let bad = build_with_limits(&tiny_input(), &out, "files=many", &[]);
    assert!(
        stderr(&bad).contains("ONTOSITE_HOST_LIMITS: `many` is not a whole number"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn the_host_named_in_ontology_json_is_checked_and_a_flag_overrides_it() {
    let dir = tempdir();
    let input = dir.path().join("input");
    copy_tree(&tiny_input(), &input);
    let ontology = input.join("ontology.json");
    let text = std::fs::read_to_string(&ontology).unwrap();
    let with_host = |host: &str| text.replacen('{', &format!("{{\n  \"host\": \"{host}\","), 1);
    let out = dir.path().join("dist");

    std::fs::write(&ontology, with_host("cloudflare")).unwrap();
    let refused = build_with_limits(&input, &out, "files=10", &[]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("does not fit Cloudflare Pages (Free) (--host cloudflare)"),
        "{}",
        stderr(&refused)
    );
    let flag = build_with_limits(&input, &out, "files=10", &["--host", "netlify"]);
    assert!(flag.status.success(), "{}", stderr(&flag));
    assert!(
        stdout(&flag).contains("\nfits Netlify (--host netlify): "),
        "{}",
        stdout(&flag)
    );

    std::fs::write(&ontology, with_host("nowhere")).unwrap();
    let unknown = build(&input, &out, &[]);
    assert_eq!(unknown.status.code(), Some(1));
    let message = stderr(&unknown);
    assert!(
        message.contains("ontology.json:2:3: `host` `nowhere` is not a host ontosite knows"),
        "{message}"
    );
    assert!(
        message.contains(
            "give one of netlify, cloudflare, cloudflare-paid, cloudflare-r2, cloudflare-r2-paid, github-pages, object-storage"
        ),
        "{message}"
    );

    let flag = build(&input, &out, &["--host", "nowhere"]);
    assert!(
        stderr(&flag).contains("--host `nowhere` is not a host ontosite knows"),
        "{}",
        stderr(&flag)
    );
}

/// Where the host takes no file as large as the big documents (a limit
/// lowered to 650 kB), the build writes none of them whole: the RDF list
/// and dump in parts under the limit, each an RDF document of its own, and
/// the JSON lists left to the handler. `serve`, in the host's stead,
/// answers each whole path by joining, and the JSON lists and the
/// N-Triples list come out byte for byte the files a site without a host
/// has. (The hosts' own runtimes join them too:
/// `runtimes::whole_documents_answer_from_their_parts_on_every_host`.)
#[test]
fn serve_joins_the_big_documents_into_the_whole_files() {
    let dir = tempdir();
    let site = dir.path().join("dist");
    let output = shipped_with_small_files(&site, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut parts = 0;
    for entry in walkdir::WalkDir::new(&site) {
        let entry = entry.unwrap();
        assert!(
            entry.metadata().unwrap().len() <= 650_000,
            "{} passes the limit",
            entry.path().display()
        );
        let path = entry.path().strip_prefix(&site).unwrap().to_str().unwrap();
        if path.starts_with("index-parts/") || path.starts_with("dump-parts/") {
            parts += 1;
            // Each part parses on its own, as the syntax it is named for.
            let format = match path.rsplit_once('.').unwrap().1 {
                "nt" => oxrdfio::RdfFormat::NTriples,
                _ => oxrdfio::RdfFormat::Turtle,
            };
            let bytes = std::fs::read(entry.path()).unwrap();
            for quad in oxrdfio::RdfParser::from_format(format).for_slice(&bytes) {
                quad.unwrap_or_else(|e| panic!("{path}: {e}"));
            }
        }
    }
    assert!(parts >= 8, "{parts} parts");
    let plain = crate::serve::shipped_site();
    let server = crate::serve::Server::dir(&site);
    for whole in ["all", "index.json", "index.jsonld", "index.nt"] {
        assert!(!site.join(whole).exists(), "{whole} was written whole");
        let expected = std::fs::read(plain.join(whole)).unwrap();
        let response = crate::serve::client()
            .get(format!("{}{whole}", server.url))
            .send()
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "/{whole}");
        let got = response.bytes().unwrap();
        assert!(
            got.as_ref() == expected.as_slice(),
            "/{whole}: {} bytes, the file {}",
            got.len(),
            expected.len()
        );
    }
}

/// With `--layout files` no host sends the big lists' paths to its
/// handler, so they are not left to it: written whole, past the limit
/// they refuse the site, naming the file, and nothing is lost silently.
#[test]
fn with_a_file_per_document_the_big_lists_stay_whole_and_are_refused_past_the_limit() {
    let dir = tempdir();
    let site = dir.path().join("dist");
    let output = shipped_with_small_files(&site, &["--layout", "files"]);
    assert!(!output.status.success(), "{}", stdout(&output));
    let said = stderr(&output);
    assert!(
        said.contains("`all` is") && said.contains("per file"),
        "{said}"
    );
    assert!(!site.exists(), "a refused site was written");
}

/// `--part-size 1048576` for R2, whose Worker joins parts: a site whose
/// dump is past 1 MiB (3,000 entities here) is built with its site-wide
/// documents in parts of at most that, and bundled, so that a publish
/// after a change sends the parts it touched, not the whole dumps
/// (docs/hosts.md). `serve` answers `/dump.nt` joined, the parts' lines in
/// order, every statement of the dump a build without parts writes. Without
/// `--part-size` the dumps stay whole; with it, a host that runs no code,
/// `--layout files` or parts under 1 MiB are refused.
#[test]
fn a_part_size_cuts_the_big_documents_for_a_handler_that_joins_them() {
    let dir = tempdir();
    let input = generated_input(dir.path(), "input", 3_000, "Words");
    let site = dir.path().join("r2");
    let parted = ["--host", "cloudflare-r2", "--part-size", "1048576"];
    let output = build_command(&input, &site, &parted).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!site.join("dump.nt").exists());
    assert!(site.join("entity-bundles/index.json").is_file());
    let mut joined = Vec::new();
    for k in 1.. {
        let Ok(part) = std::fs::read(site.join(format!("dump-parts/{k}.nt"))) else {
            assert!(k > 2, "fewer than two parts");
            break;
        };
        assert!(
            part.len() as u64 <= 1 << 20,
            "part {k}: {} bytes",
            part.len()
        );
        joined.extend(part);
    }
    let server = crate::serve::Server::dir(&site);
    let whole =
        reqwest::blocking::get(format!("{}/dump.nt", server.url.trim_end_matches('/'))).unwrap();
    assert_eq!(whole.status(), 200);
    assert!(whole.bytes().unwrap() == joined);

    let plain = dir.path().join("plain");
    let output = build_command(&input, &plain, &["--host", "cloudflare-r2"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!plain.join("dump-parts").exists());
    let dump = std::fs::read(plain.join("dump.nt")).unwrap();
    assert!(dump.len() > 1 << 20, "{} bytes", dump.len());
    // The same statements but the data set's description and its
    // downloads (the parted site's are the parts).
    let statements = |dump: &[u8]| -> std::collections::BTreeSet<String> {
        String::from_utf8_lossy(dump)
            .lines()
            .filter(|line| !line.starts_with("<https://many.example/> "))
            .filter(|line| !line.starts_with("<https://many.example/dump"))
            .map(str::to_owned)
            .collect()
    };
    assert!(
        statements(&dump) == statements(&joined),
        "the parts joined do not state what the whole dump states"
    );

    for (args, said) in [
        (
            &["--host", "github-pages", "--part-size", "1048576"][..],
            "no handler would join",
        ),
        (&["--part-size", "1048576"][..], "no handler would join"),
        (
            &[
                "--host",
                "cloudflare-r2",
                "--layout",
                "files",
                "--part-size",
                "1048576",
            ][..],
            "no handler would join",
        ),
        (
            &["--host", "cloudflare-r2", "--part-size", "1000"][..],
            "smaller than 1 MiB",
        ),
    ] {
        // Into the site built above, which stays as it was; `check`
        // refuses the same.
        let before = snapshot(&plain);
        let output = build_command(&input, &plain, args).output().unwrap();
        let checked = check(&input, args);
        for output in [&output, &checked] {
            assert!(!output.status.success(), "{args:?}");
            let message = stderr(output);
            // The help names the hosts that join, from the hosts' table.
            assert!(
                message.contains("--part-size")
                    && message.contains(said)
                    && message.contains("(--host netlify, --host cloudflare, ")
                    && message.contains("--host cloudflare-r2-paid)")
                    && !message.contains("--host github-pages"),
                "{args:?}: {message}"
            );
        }
        assert!(snapshot(&plain) == before, "{args:?} changed the site");
    }
}

/// A whole the Worker joins is read from the bucket a piece at a time,
/// and Cloudflare counts each read as a subrequest, at most 50 a request
/// on Workers Free: past the plan's count the Worker would end the whole
/// short after its 200. `build` and `check` refuse it there, naming the
/// whole and its pieces, and the previous site stays. The shipped set in
/// parts of 1 MiB joins a few pieces, which fit both R2 plans; the test
/// lowers the count to one under them.
#[test]
fn a_whole_joined_from_more_pieces_than_the_worker_may_read_is_refused() {
    let dir = tempdir();
    let site = dir.path().join("site");
    let parted = ["--host", "cloudflare-r2", "--part-size", "1048576"];
    let output = build_command(&shipped_input(), &site, &parted)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    // The pieces of each whole, as the written manifest joins them.
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site.join("entity-bundles/index.json")).unwrap())
            .unwrap();
    let pieces: Vec<(String, usize)> = manifest["joined"]
        .as_object()
        .expect("the manifest joins wholes")
        .iter()
        .map(|(path, join)| (format!("/{path}"), join["pieces"].as_array().unwrap().len()))
        .collect();
    let most = pieces.iter().map(|(_, n)| *n).max().unwrap();
    assert!(most > 1, "{pieces:?}");

    let before = snapshot(&site);
    let limits = format!("joined-pieces={}", most - 1);
    for host in ["cloudflare-r2", "cloudflare-r2-paid"] {
        let args = ["--host", host, "--part-size", "1048576"];
        let built = build_with_limits(&shipped_input(), &site, &limits, &args);
        let checked = check_command(&shipped_input(), &args)
            .env("ONTOSITE_HOST_LIMITS", &limits)
            .output()
            .unwrap();
        for output in [&built, &checked] {
            assert!(!output.status.success(), "{host}");
            let said = stderr(output);
            let whole = pieces
                .iter()
                .filter(|(_, n)| *n == most)
                .any(|(path, _)| said.contains(&format!("`{path}` is joined from {most} pieces")));
            assert!(whole, "{host}: {said}");
            assert!(
                said.contains(&format!("at most {} reads to answer one request", most - 1)),
                "{host}: {said}"
            );
            assert!(
                said.contains("which would end a joined answer short after its 200:"),
                "{host}: {said}"
            );
            assert!(
                said.contains("help: a larger --part-size joins a whole from fewer pieces"),
                "{host}: {said}"
            );
        }
        assert!(
            snapshot(&site) == before,
            "{host}: the refusal changed the site"
        );
    }
    let paid = ["--host", "cloudflare-r2-paid", "--part-size", "1048576"];
    let output = build_command(&shipped_input(), &site, &paid)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
}
