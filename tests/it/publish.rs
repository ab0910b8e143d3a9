//! `ontosite publish` against a real S3-compatible server: Garage (from
//! crates.io, which `scripts/test.sh` installs), started here on loopback
//! ports with a bucket and a key of its own. Objects are read back through
//! Garage's website endpoint, as a CDN in front of the bucket reads them,
//! and compared with what `serve` answers at the same path.

use crate::serve::{Server, client};
use crate::util::*;
use ontosite::search::{self, format::NodeFiles};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

#[path = "../support/dump_lines.rs"]
mod dump_lines;
#[path = "../support/garage.rs"]
mod garage;
use dump_lines::lines_of_a_dump;
pub(crate) use garage::Garage;
use garage::free_port;

/// Garage, as `scripts/test.sh` links it.
pub const GARAGE: Need = Need::Installed("tests/s3/bin/garage");

pub(crate) fn start() -> Garage {
    Garage::start(&root().join("tests/s3/bin/garage"))
}

/// `ontosite publish SITE s3://ontology/PREFIX` with the server's key.
pub(crate) fn publish(garage: &Garage, site: &Path, prefix: &str, args: &[&str]) -> Output {
    publish_command(garage, site, prefix, Some(&garage.endpoint), args)
        .output()
        .unwrap()
}

/// The command of `publish`, to be given more; with no `endpoint` it is
/// left to the environment.
fn publish_command(
    garage: &Garage,
    site: &Path,
    prefix: &str,
    endpoint: Option<&str>,
    args: &[&str],
) -> std::process::Command {
    let target = format!("s3://{}/{prefix}", garage.bucket);
    let key = (garage.key_id.as_str(), garage.secret.as_str());
    publish_to(site, &target, endpoint, key, args)
}

/// `ontosite publish SITE TARGET` at `endpoint` (else the environment's)
/// with the key `(id, secret)`.
fn publish_to(
    site: &Path,
    target: &str,
    endpoint: Option<&str>,
    key: (&str, &str),
    args: &[&str],
) -> std::process::Command {
    let mut command = ontosite();
    command.arg("publish").arg(site).arg(target);
    if let Some(endpoint) = endpoint {
        command.args(["--endpoint", endpoint]);
    }
    command
        .args(["--region", "garage"])
        .args(args)
        .env("AWS_ACCESS_KEY_ID", key.0)
        .env("AWS_SECRET_ACCESS_KEY", key.1);
    command
}

/// An object as the website endpoint answers it, as a CDN in front of the
/// bucket reads it: status, type, caching, body.
pub(crate) fn web_get(
    garage: &Garage,
    key: &str,
) -> (u16, Option<String>, Option<String>, Vec<u8>) {
    let response = client()
        .get(format!("{}/{key}", garage.web))
        .header("Host", format!("{}.web.garage.localhost", garage.bucket))
        .header("Accept-Encoding", "identity")
        .send()
        .unwrap();
    let header = |name: &str| header_of(response.headers(), name);
    let (content_type, cache) = (header("content-type"), header("cache-control"));
    let status = response.status().as_u16();
    (
        status,
        content_type,
        cache,
        response.bytes().unwrap().to_vec(),
    )
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// How many objects a publish says it sent.
fn sent(output: &Output) -> usize {
    let text = stdout(output);
    let line = text
        .lines()
        .find(|l| l.starts_with("sent "))
        .unwrap_or_else(|| panic!("no summary in: {text}"));
    line.split(' ').nth(1).unwrap().parse().unwrap()
}

/// Every file of the site a host publishes, as site paths.
pub(crate) fn published_paths(site: &Path) -> Vec<String> {
    let mut paths = Vec::new();
    for entry in walkdir::WalkDir::new(site) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let path = entry.path().strip_prefix(site).unwrap().to_str().unwrap();
            if !ontosite::site::routes::is_private(&format!("/{path}")) {
                paths.push(path.to_owned());
            }
        }
    }
    paths.sort();
    paths
}

/// A first publish sends every published file, each object with the bytes,
/// the type and the caching `serve` answers its path with; a second one
/// sends nothing; a one-entity change sends that entity's documents and
/// what lists it; an object ontosite did not write, under the same prefix,
/// survives every publish, and an entity removed is removed.
#[test]
fn publish_sends_what_serve_answers_and_then_only_what_changed() {
    needs!(GARAGE);
    let garage = start();
    let dir = tempdir();
    let input = dir.path().join("input");
    copy_tree(&tiny_input(), &input);
    let site = dir.path().join("dist");
    build_ok(&input, &site);

    let first = publish(&garage, &site, "tiny", &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    let paths = published_paths(&site);
    assert_eq!(sent(&first), paths.len(), "{}", stdout(&first));
    let server = Server::dir(&site);
    for path in &paths {
        let (status, content_type, cache, body) = web_get(&garage, &format!("tiny/{path}"));
        assert_eq!(status, 200, "{path}");
        let served = client()
            .get(format!("{}{path}", server.url))
            .header("Accept-Encoding", "identity")
            .send()
            .unwrap();
        let header = |name: &str| header_of(served.headers(), name);
        if served.status().as_u16() == 200 {
            assert_eq!(content_type, header("content-type"), "{path}");
            assert_eq!(cache, header("cache-control"), "{path}");
            assert!(
                served.bytes().unwrap().as_ref() == body.as_slice(),
                "{path}"
            );
        } else {
            // Where serve answers the path otherwise (a page at its
            // entity's IRI), the object is the file.
            assert!(std::fs::read(site.join(path)).unwrap() == body, "{path}");
        }
    }
    // Private files stay home.
    for private in ["_headers", "_worker.js", ".ontosite-record"] {
        assert_eq!(
            web_get(&garage, &format!("tiny/{private}")).0,
            404,
            "{private}"
        );
    }

    // Someone else's object under the same prefix.
    put_foreign(&garage, "tiny/notes/readme.txt", b"not ontosite's".to_vec());

    let again = publish(&garage, &site, "tiny", &[]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(sent(&again), 0, "{}", stdout(&again));
    assert!(stdout(&again).contains("removed 0"), "{}", stdout(&again));

    // A file edited by hand after the build, to the same size: newer than
    // the build's list of hashes, it is read again and sent.
    let page = site.join("acmeupdate.json");
    let text = std::fs::read_to_string(&page).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&page, text.replacen("Acme", "ACME", 1)).unwrap();
    let edited = publish(&garage, &site, "tiny", &[]);
    assert_eq!(sent(&edited), 1, "{}", stdout(&edited));

    // One entity's description changes.
    let file = input.join("entities/nested/bulk.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("Creates a new item in Acme."), "{text}");
    std::fs::write(
        &file,
        text.replace("Creates a new item in Acme.", "Makes a new item in Acme."),
    )
    .unwrap();
    build_ok(&input, &site);
    // Sent unsigned, as publish sends bodies over HTTPS (`UNSIGNED-PAYLOAD`,
    // Garage here being plain HTTP), with the CRC-64 docs/hosts.md offers
    // beside it: the store takes them alike.
    let changed = publish_command(&garage, &site, "tiny", Some(&garage.endpoint), &[])
        .env("AWS_UNSIGNED_PAYLOAD", "true")
        .env("AWS_CHECKSUM_ALGORITHM", "crc64nvme")
        .output()
        .unwrap();
    assert!(changed.status.success(), "{}", stderr(&changed));
    let count = sent(&changed);
    assert!(
        count > 0 && count < paths.len() / 2,
        "{count} of {}: {}",
        paths.len(),
        stdout(&changed)
    );
    let (_, _, _, body) = web_get(&garage, "tiny/acmecreateitem.json");
    assert!(
        String::from_utf8(body)
            .unwrap()
            .contains("Makes a new item")
    );

    // A dry run says what it would send and sends nothing.
    std::fs::write(&file, text).unwrap();
    build_ok(&input, &site);
    let dry = publish(&garage, &site, "tiny", &["--dry-run"]);
    assert!(dry.status.success(), "{}", stderr(&dry));
    assert!(
        stdout(&dry).contains("send acmecreateitem.json"),
        "{}",
        stdout(&dry)
    );
    let (_, _, _, body) = web_get(&garage, "tiny/acmecreateitem.json");
    assert!(
        String::from_utf8(body)
            .unwrap()
            .contains("Makes a new item")
    );

    // An entity removed from the input is removed from the bucket.
    std::fs::remove_file(input.join("entities/zeta.json")).unwrap();
    build_ok(&input, &site);
    let removed = publish(&garage, &site, "tiny", &[]);
    assert!(removed.status.success(), "{}", stderr(&removed));
    assert!(
        !stdout(&removed).contains("removed 0"),
        "{}",
        stdout(&removed)
    );
    assert_eq!(web_get(&garage, "tiny/zetadeleteitem.json").0, 404);
    assert_eq!(web_get(&garage, "tiny/acmeupdate.json").0, 200);

    assert_eq!(web_get(&garage, "tiny/notes/readme.txt").0, 200);
}

/// The server's bucket through the AWS SDK's client, with its key, and
/// a runtime to ask it in.
fn bucket(garage: &Garage) -> (aws_sdk_s3::Client, tokio::runtime::Runtime) {
    use aws_sdk_s3::config;
    let credentials = config::Credentials::new(&garage.key_id, &garage.secret, None, None, "tests");
    let config = config::Builder::new()
        .behavior_version(config::BehaviorVersion::latest())
        .http_client(ontosite::publish::s3::https_client())
        .region(config::Region::new("garage"))
        .endpoint_url(&garage.endpoint)
        .force_path_style(true)
        .credentials_provider(credentials)
        .build();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    (aws_sdk_s3::Client::from_conf(config), runtime)
}

/// Writes an object ontosite did not, with the same key.
fn put_foreign(garage: &Garage, key: &str, bytes: Vec<u8>) {
    let (store, runtime) = bucket(garage);
    let put = store
        .put_object()
        .bucket(&garage.bucket)
        .key(key)
        .body(bytes.into())
        .send();
    runtime.block_on(put).unwrap();
}

/// Publish's own record under `prefix`, as site paths: its head, then
/// every layer the bucket holds.
pub(crate) fn record_paths(garage: &Garage, prefix: &str) -> Vec<String> {
    let (store, runtime) = bucket(garage);
    let layers = format!("{prefix}/{}", ontosite::publish::record::LAYERS);
    let list = store
        .list_objects_v2()
        .bucket(&garage.bucket)
        .prefix(layers)
        .send();
    let listed = runtime.block_on(list).unwrap();
    let mut paths = vec![ontosite::publish::record::RECORD.to_owned()];
    for object in listed.contents() {
        let key = object.key().unwrap();
        paths.push(key.strip_prefix(&format!("{prefix}/")).unwrap().to_owned());
    }
    paths
}

/// Wrong credentials, a missing bucket, an unreachable endpoint and an
/// `AWS_UNSIGNED_PAYLOAD` that says neither yes nor no: a clear error, no
/// secret in it, a non-zero exit, and nothing written.
#[test]
fn publish_errors_say_what_is_wrong_without_a_secret() {
    needs!(GARAGE);
    let garage = start();
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);

    let secret = "wrongsecret0123456789abcdef";
    let target = format!("s3://{}/tiny", garage.bucket);
    let endpoint = garage.endpoint.as_str();
    let wrong = publish_to(
        &site,
        &target,
        Some(endpoint),
        (&garage.key_id, secret),
        &[],
    )
    .output()
    .unwrap();
    assert!(!wrong.status.success());
    let said = stderr(&wrong);
    assert!(said.contains("credentials"), "{said}");
    assert!(
        !said.contains(secret) && !said.contains(&garage.secret),
        "{said}"
    );

    let key = (garage.key_id.as_str(), garage.secret.as_str());
    let missing = publish_to(&site, "s3://no-such-bucket/tiny", Some(endpoint), key, &[])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    let said = stderr(&missing);
    assert!(said.contains("no-such-bucket"), "{said}");
    assert!(!said.contains(&garage.secret), "{said}");

    let closed = format!("http://127.0.0.1:{}", free_port());
    let started = Instant::now();
    let unreachable = publish_to(&site, &target, Some(&closed), key, &[])
        .output()
        .unwrap();
    assert!(!unreachable.status.success());
    let said = stderr(&unreachable);
    assert!(said.contains("did not answer"), "{said}");
    assert!(started.elapsed() < Duration::from_secs(90));

    // A setting the client cannot read is named, with its own help.
    let unreadable = publish_to(&site, &target, Some(endpoint), key, &[])
        .env("AWS_UNSIGNED_PAYLOAD", "sometimes")
        .output()
        .unwrap();
    assert!(!unreadable.status.success());
    let said = stderr(&unreadable);
    assert!(
        said.contains("AWS_UNSIGNED_PAYLOAD is `sometimes`") && said.contains("set it to true"),
        "{said}"
    );

    // Nothing was written by any of them.
    assert_eq!(web_get(&garage, "tiny/index.json").0, 404);
}

/// Objects ontosite did not write, at the prefix's own key and beside it,
/// survive every publish: a file whose name makes no key, a prefix with
/// an empty segment or a control character, and a target with
/// credentials in it are refused before anything is sent (no key stands
/// in for another), the message escaping the name and never showing the
/// secret; the site published after writes only under the prefix.
#[test]
fn no_publish_writes_or_removes_a_key_it_did_not_compute() {
    needs!(GARAGE);
    let garage = start();
    let foreign = [
        "guarded",
        "guarded.json",
        "guarded-x/a.json",
        "other/guarded",
    ];
    for key in foreign {
        put_foreign(&garage, key, b"not ontosite's".to_vec());
    }
    let untouched = |when: &str| {
        for key in foreign {
            assert_eq!(held(&garage, key).2, b"not ontosite's", "{key} {when}");
        }
    };
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);

    let odd = site.join("a\nb\u{202e}.json");
    std::fs::write(&odd, "{}").unwrap();
    let refused = publish(&garage, &site, "guarded", &[]);
    assert!(!refused.status.success());
    let said = stderr(&refused);
    assert!(
        said.contains("control character") && said.contains("a\\nb\\u{202e}.json"),
        "{said}"
    );
    assert_eq!(said.lines().filter(|l| l.contains("b\\u{202e}")).count(), 1);
    untouched("after a site with a name that makes no key");
    std::fs::remove_file(&odd).unwrap();

    let key = (garage.key_id.as_str(), garage.secret.as_str());
    let endpoint = Some(garage.endpoint.as_str());
    for (target, why) in [
        (
            format!("s3://{}/guarded//x", garage.bucket),
            "empty segment",
        ),
        (
            format!("s3://{}/guarded\u{1}", garage.bucket),
            "control character",
        ),
        (
            format!(
                "s3://{}:{}@{}/guarded",
                garage.key_id, garage.secret, garage.bucket
            ),
            "holds credentials",
        ),
    ] {
        let refused = publish_to(&site, &target, endpoint, key, &[])
            .output()
            .unwrap();
        assert!(!refused.status.success(), "{target}");
        let said = stderr(&refused);
        assert!(said.contains(why), "{said}");
        assert!(!said.contains(&garage.secret), "{said}");
        assert!(!said.contains('\u{1}'), "{said:?}");
        untouched(&format!("after {why}"));
    }
    assert_eq!(web_get(&garage, "guarded/index.json").0, 404);

    for round in ["first", "second"] {
        let published = publish(&garage, &site, "guarded", &[]);
        assert!(published.status.success(), "{}", stderr(&published));
        untouched(&format!("after the {round} publish"));
    }
    assert_eq!(web_get(&garage, "guarded/index.json").0, 200);
}

/// A header's value as text.
pub(crate) fn header_of(headers: &reqwest::header::HeaderMap, name: &str) -> Option<String> {
    headers.get(name).map(|v| v.to_str().unwrap().to_owned())
}

/// A publish killed at several moments: each time the objects there are
/// whole (the old site's or the new one's), and the next publish completes
/// the site; the one after sends nothing.
#[test]
fn a_killed_publish_is_finished_by_the_next() {
    needs!(GARAGE, Need::Slow);
    let garage = start();
    let site = crate::serve::shipped_site();
    let paths = published_paths(site);
    for wait in [300, 900, 2_000] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ontosite"))
            .arg("publish")
            .arg(site)
            .arg(format!("s3://{}/killed", garage.bucket))
            .args(["--endpoint", &garage.endpoint, "--region", "garage", "-q"])
            .env("AWS_ACCESS_KEY_ID", &garage.key_id)
            .env("AWS_SECRET_ACCESS_KEY", &garage.secret)
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(wait));
        let _ = child.kill();
        let _ = child.wait();
        // Whatever is there is whole.
        for path in paths.iter().step_by(97) {
            let (status, _, _, body) = web_get(&garage, &format!("killed/{path}"));
            if status == 200 {
                assert!(
                    std::fs::read(site.join(path)).unwrap() == body,
                    "{path} after {wait} ms"
                );
            }
        }
    }
    let finished = publish(&garage, site, "killed", &[]);
    assert!(finished.status.success(), "{}", stderr(&finished));
    for path in paths.iter().step_by(13) {
        let (status, _, _, body) = web_get(&garage, &format!("killed/{path}"));
        assert_eq!(status, 200, "{path}");
        assert!(std::fs::read(site.join(path)).unwrap() == body, "{path}");
    }
    let after = publish(&garage, site, "killed", &[]);
    assert_eq!(sent(&after), 0, "{}", stdout(&after));
    // The record stands on one layer again, a head of a line names it,
    // and the layers of the killed runs' claims, named by no head, are
    // gone.
    let record = record_paths(&garage, "killed");
    let (_, _, _, head) = web_get(&garage, &format!("killed/{}", record[0]));
    let head = String::from_utf8(head).unwrap();
    assert_eq!(head.lines().count(), 1, "{head}");
    assert_eq!(record.len(), 2, "{record:?}");
    assert!(
        head.contains(&format!("\"layers\":[\"{}\"]", record[1])),
        "{head}"
    );
}

/// A publish of v2 over v1, killed at several moments: whichever search
/// manifest the bucket holds, every file it names is there with the
/// bytes of its own build, never the other's: a reader meets one build.
#[test]
fn a_killed_publish_never_mixes_one_build_s_search_manifest_with_another_s_files() {
    needs!(GARAGE, Need::Slow);
    let garage = start();
    let dir = tempdir();
    let builds: Vec<PathBuf> = ["alpha", "beta"]
        .iter()
        .map(|word| {
            let input = generated_input(dir.path(), word, 1_000, word);
            let site = dir.path().join(format!("{word}-site"));
            build_ok(&input, &site);
            site
        })
        .collect();
    // The search files each build's manifest names: each node's (a kind
    // letter and a digest each) and the chunks of rows.
    let files_of = |site: &Path| -> Vec<String> {
        let manifest = read_json(&site.join("search-index.json"));
        let mut digests: Vec<String> = strings_of_array(&manifest["chunks"]);
        for node in manifest["nodes"].as_array().unwrap() {
            let files = NodeFiles::read(node[4].as_str().unwrap()).expect("a node's files");
            digests.extend(files.digests().map(str::to_owned));
        }
        digests.iter().map(|d| search::format::path(d)).collect()
    };
    let (v1, v2) = (&builds[0], &builds[1]);
    assert!(files_of(v1).len() > 20, "{:?}", files_of(v1));
    // The two builds differ in every row: no file of one is the other's.
    assert!(files_of(v1).iter().all(|f| !files_of(v2).contains(f)));
    // Killed late in the publish too, where the search files go (after
    // the entities' documents, before the manifest): at fractions of how
    // long a whole publish of v2 over v1 takes.
    let first = publish(&garage, v1, "mixed", &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    let started = Instant::now();
    let whole = publish(&garage, v2, "mixed", &[]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let whole = started.elapsed().as_millis() as u64;
    let mut seen = Vec::new();
    for percent in [40, 85, 95, 98] {
        let wait = whole * percent / 100;
        let first = publish(&garage, v1, "mixed", &[]);
        assert!(first.status.success(), "{}", stderr(&first));
        let mut child = publish_command(&garage, v2, "mixed", Some(&garage.endpoint), &["-q"])
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(wait));
        let _ = child.kill();
        let _ = child.wait();
        let (status, _, _, manifest) = web_get(&garage, "mixed/search-index.json");
        assert_eq!(status, 200, "after {wait} ms");
        let build = builds
            .iter()
            .position(|site| std::fs::read(site.join("search-index.json")).unwrap() == manifest)
            .unwrap_or_else(|| panic!("after {wait} ms the manifest is neither build's"));
        // How many of the other build's search files lie beside it: where
        // some do, the kill fell where stable names would have mixed them.
        let other = &builds[1 - build];
        let beside = files_of(other)
            .iter()
            .filter(|path| web_get(&garage, &format!("mixed/{path}")).0 == 200)
            .count();
        seen.push(format!(
            "v{}'s manifest, {beside} of the other's search files beside it, after {wait} of {whole} ms",
            build + 1
        ));
        let build = &builds[build];
        for path in files_of(build) {
            let (status, _, _, body) = web_get(&garage, &format!("mixed/{path}"));
            assert_eq!(status, 200, "{path} after {wait} ms");
            assert!(
                std::fs::read(build.join(&path)).unwrap() == body,
                "{path} after {wait} ms is not its manifest's build's"
            );
        }
    }
    eprintln!("the manifests the killed publishes left: {seen:?}");
}

/// The bytes a publish says it sent and copied within the store, as it
/// prints them.
fn moved(output: &Output) -> (String, Option<String>) {
    let text = stdout(output);
    let line = text.lines().find(|l| l.starts_with("sent ")).unwrap();
    let within = line.split_once(" objects (").unwrap().1;
    let within = within.split_once(") to ").unwrap().0;
    match within.split_once("; ") {
        Some((sent, copied)) => (
            sent.to_owned(),
            Some(
                copied
                    .trim_end_matches(" more copied within the store")
                    .to_owned(),
            ),
        ),
        None => (within.to_owned(), None),
    }
}

/// An object as the bucket holds it, read through the S3 API: its type,
/// caching and bytes.
fn held(garage: &Garage, key: &str) -> (Option<String>, Option<String>, Vec<u8>) {
    let (store, runtime) = bucket(garage);
    runtime.block_on(async {
        let read = store
            .get_object()
            .bucket(&garage.bucket)
            .key(key)
            .send()
            .await
            .unwrap();
        let header = (
            read.content_type().map(str::to_owned),
            read.cache_control().map(str::to_owned),
        );
        let bytes = read.body.collect().await.unwrap().into_bytes();
        (header.0, header.1, bytes.to_vec())
    })
}

/// A large object changed in the middle (a whole dump, when one entity
/// changed) is assembled in the bucket from the chunks it held there
/// (`UploadPartCopy`): only the chunks around the edit are sent, and the
/// object read back is the file's bytes with its headers, under a key of
/// characters a URL encodes. An object replaced in the bucket by someone
/// else is not copied from (its entity tag is not the one recorded), and
/// an object of nothing in common is sent whole.
#[test]
fn a_large_object_changed_in_the_middle_sends_only_what_changed() {
    needs!(GARAGE);
    let garage = start();
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);
    let (prefix, name) = ("large ~%é", "sources/dump ~é.nt");
    let key = format!("{prefix}/{name}");
    let big = site.join(name);
    std::fs::create_dir_all(big.parent().unwrap()).unwrap();
    let old = lines_of_a_dump(300_000, 1);
    std::fs::write(&big, &old).unwrap();
    let first = publish(&garage, &site, prefix, &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(moved(&first).1, None, "{}", stdout(&first));
    let (content_type, cache, body) = held(&garage, &key);
    assert!(body == old);

    // A line added in the middle, and one changed near the end.
    let middle = old.len() / 2;
    let line = old[middle..].iter().position(|&b| b == b'\n').unwrap() + middle + 1;
    let mut new = old[..line].to_vec();
    new.extend(b"<https://example.org/new> <https://example.org/p> \"added\" .\n");
    new.extend(&old[line..]);
    let near_end = new.len() - 1000;
    new[near_end] = if new[near_end] == b'a' { b'b' } else { b'a' };
    std::fs::write(&big, &new).unwrap();
    let second = publish(&garage, &site, prefix, &[]);
    assert!(second.status.success(), "{}", stderr(&second));
    assert_eq!(sent(&second), 1, "{}", stdout(&second));
    let (sent_bytes, copied) = moved(&second);
    assert!(copied.is_some(), "{}", stdout(&second));
    // Two runs of a part or so sent, of 24 MB, and the rest copied.
    let megabytes = |said: &str| -> f64 { said.trim_end_matches(" MB").parse().unwrap() };
    assert!(megabytes(&sent_bytes) < 15.0, "{}", stdout(&second));
    assert!(
        megabytes(copied.as_deref().unwrap()) > 9.0,
        "{}",
        stdout(&second)
    );
    let (content_type_after, cache_after, body) = held(&garage, &key);
    assert!(body == new, "the object assembled is not the file");
    assert_eq!((content_type_after, cache_after), (content_type, cache));

    // Assembled from what the assembly itself recorded.
    new.truncate(new.len() - 500_000);
    std::fs::write(&big, &new).unwrap();
    let third = publish(&garage, &site, prefix, &[]);
    assert!(third.status.success(), "{}", stderr(&third));
    assert!(moved(&third).1.is_some(), "{}", stdout(&third));
    assert!(held(&garage, &key).2 == new);

    // Replaced in the bucket by someone else: its bytes are not copied.
    let mut foreign = new.clone();
    foreign[..8].copy_from_slice(b"FOREIGN!");
    put_foreign(&garage, &key, foreign);
    new.extend(b"<https://example.org/last> <https://example.org/p> \"added\" .\n");
    std::fs::write(&big, &new).unwrap();
    let fourth = publish(&garage, &site, prefix, &[]);
    assert!(fourth.status.success(), "{}", stderr(&fourth));
    assert_eq!(moved(&fourth).1, None, "{}", stdout(&fourth));
    assert!(
        held(&garage, &key).2 == new,
        "bytes copied from another's object"
    );
    assert!(
        stdout(&fourth).contains("1 large object(s) sent whole: the store no longer held them"),
        "{}",
        stdout(&fourth)
    );

    // Nothing in common: sent whole.
    let other = lines_of_a_dump(250_000, 2);
    std::fs::write(&big, &other).unwrap();
    let fifth = publish(&garage, &site, prefix, &[]);
    assert!(fifth.status.success(), "{}", stderr(&fifth));
    assert_eq!(moved(&fifth).1, None, "{}", stdout(&fifth));
    assert!(!stdout(&fifth).contains("sent whole"), "{}", stdout(&fifth));
    assert!(held(&garage, &key).2 == other);
    let unchanged = publish(&garage, &site, prefix, &[]);
    assert_eq!(sent(&unchanged), 0, "{}", stdout(&unchanged));
}

/// A file whose bytes are not those the plan took a hash for (edited in
/// place after the build, to the same size, its date set back: the
/// build's list then names bytes the file no longer holds) is sent as it
/// is and recorded with no hash, never under the list's: when the file
/// comes to hold the listed bytes, the next publish sends them. A small
/// object, and a large one the build listed the chunks of, which a
/// publish assembles from the store's copy and the file's changed chunks.
#[test]
fn an_object_sent_other_than_planned_is_sent_again() {
    needs!(GARAGE);
    let garage = start();
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);
    let big = "sources/dump.nt";
    std::fs::create_dir_all(site.join("sources")).unwrap();
    write_dated(&site.join(big), &lines_of_a_dump(300_000, 1));
    listed_as(&site, big, &site.join(big));
    let first = publish(&garage, &site, "edited", &[]);
    assert!(first.status.success(), "{}", stderr(&first));

    for name in ["acmeupdate.json", big] {
        let file = site.join(name);
        let old = std::fs::read(&file).unwrap();
        let other = |at: usize, fill: u8| {
            let mut bytes = old.clone();
            bytes[at] = fill;
            bytes
        };
        let middle = old.len() / 2;
        let (listed, held) = (other(middle, 1), other(middle + 10, 2));
        // The build's list names `listed`; the file holds `held`, dated
        // before the list, as the build left it.
        let stand_in = dir.path().join("listed");
        std::fs::write(&stand_in, &listed).unwrap();
        write_dated(&file, &held);
        listed_as(&site, name, &stand_in);
        let second = publish(&garage, &site, "edited", &[]);
        assert!(second.status.success(), "{}", stderr(&second));
        assert_eq!(sent(&second), 1, "{}", stdout(&second));
        assert!(
            stdout(&second).contains(&format!(
                "1 object(s) sent with other bytes than the build listed (the first: {name})"
            )),
            "{}",
            stdout(&second)
        );
        assert!(web_get(&garage, &format!("edited/{name}")).3 == held);
        // The large one assembled from the store's copy: what was sent of
        // the build's chunks is what was checked.
        if name == big {
            assert!(moved(&second).1.is_some(), "{}", stdout(&second));
        }

        // Now the file holds what the list names.
        write_dated(&file, &listed);
        let third = publish(&garage, &site, "edited", &[]);
        assert!(third.status.success(), "{}", stderr(&third));
        assert_eq!(sent(&third), 1, "{}", stdout(&third));
        assert!(
            web_get(&garage, &format!("edited/{name}")).3 == listed,
            "{name}: the store kept bytes the record said were the list's"
        );
        let unchanged = publish(&garage, &site, "edited", &[]);
        assert_eq!(sent(&unchanged), 0, "{}", stdout(&unchanged));
    }
}

/// Writes `bytes` to `file`, dated an hour back: before the build's list.
fn write_dated(file: &Path, bytes: &[u8]) {
    std::fs::write(file, bytes).unwrap();
    date(
        file,
        std::time::SystemTime::now() - Duration::from_secs(3600),
    );
}

/// Sets the entry of `path` in the site's list of objects to the bytes of
/// `bytes_of`: its hash, size and, where it is cut in more than one, its
/// chunks, as the build lists a document it streams.
fn listed_as(site: &Path, path: &str, bytes_of: &Path) {
    let (chunks, hash) = ontosite::output::chunks::of_file(bytes_of).unwrap();
    let mut entry = serde_json::json!({
        "path": path,
        "hash": hash,
        "bytes": std::fs::metadata(bytes_of).unwrap().len(),
    });
    if chunks.len() > 1 {
        entry["chunks"] = serde_json::to_value(&chunks).unwrap();
    }
    let list = site.join(ontosite::output::objects::OBJECTS);
    let text = std::fs::read_to_string(&list).unwrap();
    let mut lines: Vec<(String, String)> = text
        .lines()
        .map(|line| {
            let object: serde_json::Value = serde_json::from_str(line).unwrap();
            (object["path"].as_str().unwrap().to_owned(), line.to_owned())
        })
        .filter(|(listed, _)| listed != path)
        .collect();
    lines.push((path.to_owned(), entry.to_string()));
    lines.sort();
    let lines: Vec<String> = lines.into_iter().map(|(_, line)| line).collect();
    std::fs::write(&list, lines.join("\n") + "\n").unwrap();
}

/// The hashes publish takes from the build's list are the files' own: the
/// same objects as when every file is read and hashed; and so are the
/// chunks the build cut its big documents into as it wrote them (on a
/// site whose dumps are megabytes), which a publish copies by.
#[test]
fn the_build_s_hashes_and_chunks_are_the_files_own() {
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&generated_input(dir.path(), "input", 6000, "A word"), &site);
    let walked = ontosite::publish::plan::objects(&site).unwrap();
    let listed = walked.objects;
    let cut: Vec<_> = listed.iter().filter(|o| !o.chunks.is_empty()).collect();
    assert!(cut.len() >= 2, "{:?}", listed.iter().map(|o| o.bytes).max());
    // Each with how the walk saw its file, which a publish checks the
    // file against before it copies by them.
    assert_eq!(walked.seen.len(), cut.len());
    for object in cut {
        let metadata = std::fs::symlink_metadata(site.join(&object.path)).unwrap();
        assert_eq!(
            walked.seen.get(&object.path),
            Some(&ontosite::publish::plan::Seen::of_metadata(&metadata))
        );
        let (chunks, hash) = ontosite::output::chunks::of_file(&site.join(&object.path)).unwrap();
        assert_eq!(
            (&object.chunks, &object.hash),
            (&chunks, &hash),
            "{}",
            object.path
        );
    }
    std::fs::remove_file(site.join(ontosite::output::objects::OBJECTS)).unwrap();
    let hashed = ontosite::publish::plan::objects(&site).unwrap().objects;
    let content = |objects: &[ontosite::output::objects::Object]| -> Vec<(String, String, u64)> {
        objects
            .iter()
            .map(|o| (o.path.clone(), o.hash.clone(), o.bytes))
            .collect()
    };
    assert_eq!(content(&listed), content(&hashed));
    assert!(hashed.iter().all(|o| o.chunks.is_empty()));
    assert_eq!(listed.len(), published_paths(&site).len());
}

/// What a page elsewhere sees of an object through the website endpoint:
/// the CORS headers the bucket's rules add, for a read and a preflight.
fn cross_origin(garage: &Garage, key: &str) -> (Option<String>, Option<String>, u16) {
    let url = format!("{}/{key}", garage.web);
    let host = format!("{}.web.garage.localhost", garage.bucket);
    let read = client()
        .get(&url)
        .header("Host", &host)
        .header("Origin", "https://elsewhere.example")
        .send()
        .unwrap();
    let preflight = client()
        .request(reqwest::Method::OPTIONS, &url)
        .header("Host", &host)
        .header("Origin", "https://elsewhere.example")
        .header("Access-Control-Request-Method", "GET")
        .send()
        .unwrap();
    (
        header_of(read.headers(), "access-control-allow-origin"),
        header_of(read.headers(), "access-control-expose-headers"),
        preflight.status().as_u16(),
    )
}

/// `--apply-cors` sets the bucket's CORS rules, which no object carries:
/// before it a page elsewhere cannot read the site, after it it can, with
/// the entity tag and `Link` exposed, as from every other host.
#[test]
fn apply_cors_lets_pages_elsewhere_read_the_bucket() {
    needs!(GARAGE);
    let garage = start();
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);
    let first = publish(&garage, &site, "cors", &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        stdout(&first).contains("--apply-cors sets them"),
        "{}",
        stdout(&first)
    );
    let (origin, _, _) = cross_origin(&garage, "cors/index.json");
    assert_eq!(origin, None, "no rules yet");
    // The endpoint from the environment, the S3 one winning as in the
    // AWS SDKs: the rules go where the objects go.
    let applied = publish_command(&garage, &site, "cors", None, &["--apply-cors"])
        .env("AWS_ENDPOINT_URL_S3", &garage.endpoint)
        .env("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
        .output()
        .unwrap();
    assert!(applied.status.success(), "{}", stderr(&applied));
    assert!(
        stdout(&applied).contains("CORS rules are set"),
        "{}",
        stdout(&applied)
    );
    assert_eq!(sent(&applied), 0, "{}", stdout(&applied));
    let (origin, exposed, preflight) = cross_origin(&garage, "cors/index.json");
    assert_eq!(origin.as_deref(), Some("*"));
    let exposed = exposed.unwrap_or_default().to_ascii_lowercase();
    assert!(
        exposed.contains("etag") && exposed.contains("link"),
        "{exposed}"
    );
    assert!((200..300).contains(&preflight), "preflight {preflight}");
}

/// `ontosite publish SITE s3://BUCKET/PREFIX` with no key in the
/// environment: credentials only from the AWS files `files` names.
fn publish_with_files(
    garage: &Garage,
    site: &Path,
    prefix: &str,
    files: &Path,
    profile: &str,
) -> Output {
    ontosite()
        .arg("publish")
        .arg(site)
        .arg(format!("s3://{}/{prefix}", garage.bucket))
        .args(["--endpoint", &garage.endpoint, "--region", "garage"])
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env_remove("AWS_SESSION_TOKEN")
        .env("AWS_PROFILE", profile)
        .env("AWS_SHARED_CREDENTIALS_FILE", files.join("credentials"))
        .env("AWS_CONFIG_FILE", files.join("config"))
        // Nothing probes an instance's metadata address from a test.
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("HOME", files)
        .output()
        .unwrap()
}

/// Credentials from the AWS profile files, as the AWS tools read them: a
/// key in `credentials`, a `credential_process` in `config` (run once for
/// a whole publish), and a profile that is not there said as such.
#[test]
fn credentials_come_from_the_aws_profile_files_too() {
    needs!(GARAGE);
    let garage = start();
    let dir = tempdir();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);
    let files = dir.path().join("aws");
    std::fs::create_dir(&files).unwrap();
    let wrong_secret = "profilewrongsecret0123456789";
    std::fs::write(
        files.join("credentials"),
        format!(
            "[garage]\naws_access_key_id = {}\naws_secret_access_key = {}\n[wrong]\naws_access_key_id = GKprofile0123456789abcdef\naws_secret_access_key = {wrong_secret}\n",
            garage.key_id, garage.secret
        ),
    )
    .unwrap();
    let script = files.join("credentials.sh");
    let runs = files.join("runs");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho run >> '{}'\nprintf '{{\"Version\": 1, \"AccessKeyId\": \"{}\", \"SecretAccessKey\": \"{}\"}}'\n",
            runs.display(),
            garage.key_id,
            garage.secret
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    std::fs::write(
        files.join("config"),
        format!(
            "[profile process]\ncredential_process = {}\n",
            script.display()
        ),
    )
    .unwrap();

    let keyed = publish_with_files(&garage, &site, "profile", &files, "garage");
    assert!(keyed.status.success(), "{}", stderr(&keyed));
    assert!(sent(&keyed) > 0, "{}", stdout(&keyed));
    let processed = publish_with_files(&garage, &site, "process", &files, "process");
    assert!(processed.status.success(), "{}", stderr(&processed));
    assert_eq!(sent(&processed), sent(&keyed), "{}", stdout(&processed));
    let ran = std::fs::read_to_string(&runs).unwrap();
    assert_eq!(ran.lines().count(), 1, "credential_process ran {ran:?}");
    for path in published_paths(&site) {
        assert_eq!(
            web_get(&garage, &format!("process/{path}")).0,
            200,
            "{path}"
        );
    }

    let missing = publish_with_files(&garage, &site, "missing", &files, "nowhere");
    assert_eq!(missing.status.code(), Some(1), "{}", stdout(&missing));
    let said = stderr(&missing);
    assert!(
        said.contains("the profile `nowhere` gave none")
            && said.contains("help: no credentials were found"),
        "{said}"
    );
    assert!(!said.contains(&garage.secret), "{said}");

    // A key the store refuses, from a profile: neither half is shown.
    let refused = publish_with_files(&garage, &site, "wrong", &files, "wrong");
    assert_eq!(refused.status.code(), Some(1), "{}", stdout(&refused));
    let said = stderr(&refused);
    assert!(said.contains("help:"), "{said}");
    assert!(
        !said.contains("GKprofile0123456789abcdef") && !said.contains(wrong_secret),
        "{said}"
    );
}
