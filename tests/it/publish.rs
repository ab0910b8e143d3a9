//! `ontosite publish` against a real S3-compatible server: Garage (from
//! crates.io, which `scripts/test.sh` installs), started here on loopback
//! ports with a bucket and a key of its own. Objects are read back through
//! Garage's website endpoint, as a CDN in front of the bucket reads them,
//! and compared with what `serve` answers at the same path.

use crate::serve::{Server, client};
use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Garage, as `scripts/test.sh` links it.
pub const GARAGE: Need = Need::Installed("tests/s3/bin/garage");

/// A Garage node of one, with one bucket and one key.
struct Garage {
    dir: tempfile::TempDir,
    child: Child,
    config: PathBuf,
    /// The S3 API.
    endpoint: String,
    /// The website endpoint, which answers a bucket's objects by path.
    web: String,
    bucket: String,
    key_id: String,
    secret: String,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Garage {
    fn start() -> Garage {
        let dir = tempfile::tempdir().unwrap();
        let [rpc, s3, web, admin] = [(); 4].map(|()| free_port());
        let config = dir.path().join("garage.toml");
        let secret: String = (0..32).map(|i| format!("{:02x}", i * 7 + 3)).collect();
        std::fs::write(
            &config,
            format!(
                r#"metadata_dir = "{meta}"
data_dir = "{data}"
db_engine = "sqlite"
replication_factor = 1
rpc_bind_addr = "127.0.0.1:{rpc}"
rpc_public_addr = "127.0.0.1:{rpc}"
rpc_secret = "{secret}"

[s3_api]
s3_region = "garage"
api_bind_addr = "127.0.0.1:{s3}"
root_domain = ".s3.garage.localhost"

[s3_web]
bind_addr = "127.0.0.1:{web}"
root_domain = ".web.garage.localhost"

[admin]
api_bind_addr = "127.0.0.1:{admin}"
"#,
                meta = dir.path().join("meta").display(),
                data = dir.path().join("data").display(),
            ),
        )
        .unwrap();
        let child = Command::new(root().join("tests/s3/bin/garage"))
            .arg("-c")
            .arg(&config)
            .arg("server")
            .env("RUST_LOG", "error")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut garage = Garage {
            dir,
            child,
            config,
            endpoint: format!("http://127.0.0.1:{s3}"),
            web: format!("http://127.0.0.1:{web}"),
            bucket: "ontology".to_owned(),
            key_id: String::new(),
            secret: String::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        let node = loop {
            let output = garage.cli(&["node", "id", "-q"]);
            if output.status.success() {
                break String::from_utf8(output.stdout).unwrap();
            }
            assert!(
                Instant::now() < deadline,
                "garage never started: {}",
                stderr(&output)
            );
            std::thread::sleep(Duration::from_millis(200));
        };
        let node = node.trim().split('@').next().unwrap().to_owned();
        garage.ok(&["layout", "assign", "-z", "dc1", "-c", "1G", &node]);
        garage.ok(&["layout", "apply", "--version", "1"]);
        garage.ok(&["bucket", "create", "ontology"]);
        let key = garage.ok(&["key", "create", "publisher"]);
        let field = |name: &str| {
            key.lines()
                .find_map(|l| l.trim().strip_prefix(name))
                .map(|v| v.trim_start_matches(':').trim().to_owned())
                .unwrap_or_else(|| panic!("no {name} in: {key}"))
        };
        garage.key_id = field("Key ID");
        garage.secret = field("Secret key");
        garage.ok(&[
            "bucket",
            "allow",
            "--read",
            "--write",
            "--owner",
            "ontology",
            "--key",
            "publisher",
        ]);
        garage.ok(&["bucket", "website", "--allow", "ontology"]);
        garage
    }

    fn cli(&self, args: &[&str]) -> Output {
        Command::new(root().join("tests/s3/bin/garage"))
            .arg("-c")
            .arg(&self.config)
            .args(args)
            .env("RUST_LOG", "error")
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let output = self.cli(args);
        assert!(
            output.status.success(),
            "garage {args:?}: {}",
            stderr(&output)
        );
        String::from_utf8(output.stdout).unwrap()
    }

    /// `ontosite publish SITE s3://ontology/PREFIX` with this key.
    fn publish(&self, site: &Path, prefix: &str, args: &[&str]) -> Output {
        self.publish_as(site, prefix, args, &self.key_id, &self.secret)
    }

    fn publish_as(
        &self,
        site: &Path,
        prefix: &str,
        args: &[&str],
        id: &str,
        secret: &str,
    ) -> Output {
        ontosite()
            .arg("publish")
            .arg(site)
            .arg(format!("s3://{}/{prefix}", self.bucket))
            .args(["--endpoint", &self.endpoint, "--region", "garage"])
            .args(args)
            .env("AWS_ACCESS_KEY_ID", id)
            .env("AWS_SECRET_ACCESS_KEY", secret)
            .output()
            .unwrap()
    }

    /// An object as the website endpoint answers it: status, type,
    /// caching, body.
    fn web_get(&self, key: &str) -> (u16, Option<String>, Option<String>, Vec<u8>) {
        let response = client()
            .get(format!("{}/{key}", self.web))
            .header("Host", format!("{}.web.garage.localhost", self.bucket))
            .header("Accept-Encoding", "identity")
            .send()
            .unwrap();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_owned())
        };
        let (content_type, cache) = (header("content-type"), header("cache-control"));
        let status = response.status().as_u16();
        (
            status,
            content_type,
            cache,
            response.bytes().unwrap().to_vec(),
        )
    }
}

impl Drop for Garage {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = &self.dir;
    }
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
fn published_paths(site: &Path) -> Vec<String> {
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
    let garage = Garage::start();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input");
    copy_dir(&tiny_input(), &input);
    let site = dir.path().join("dist");
    build_ok(&input, &site);

    let first = garage.publish(&site, "tiny", &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    let paths = published_paths(&site);
    assert_eq!(sent(&first), paths.len(), "{}", stdout(&first));
    let server = Server::dir(&site);
    for path in &paths {
        let (status, content_type, cache, body) = garage.web_get(&format!("tiny/{path}"));
        assert_eq!(status, 200, "{path}");
        let served = client()
            .get(format!("{}{path}", server.url))
            .header("Accept-Encoding", "identity")
            .send()
            .unwrap();
        let header = |name: &str| {
            served
                .headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_owned())
        };
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
            garage.web_get(&format!("tiny/{private}")).0,
            404,
            "{private}"
        );
    }

    // Someone else's object under the same prefix.
    put_foreign(&garage, "tiny/notes/readme.txt");

    let again = garage.publish(&site, "tiny", &[]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(sent(&again), 0, "{}", stdout(&again));
    assert!(stdout(&again).contains("removed 0"), "{}", stdout(&again));

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
    let changed = garage.publish(&site, "tiny", &[]);
    assert!(changed.status.success(), "{}", stderr(&changed));
    let count = sent(&changed);
    assert!(
        count > 0 && count < paths.len() / 2,
        "{count} of {}: {}",
        paths.len(),
        stdout(&changed)
    );
    let (_, _, _, body) = garage.web_get("tiny/acmecreateitem.json");
    assert!(
        String::from_utf8(body)
            .unwrap()
            .contains("Makes a new item")
    );

    // A dry run says what it would send and sends nothing.
    std::fs::write(&file, text).unwrap();
    build_ok(&input, &site);
    let dry = garage.publish(&site, "tiny", &["--dry-run"]);
    assert!(dry.status.success(), "{}", stderr(&dry));
    assert!(
        stdout(&dry).contains("send acmecreateitem.json"),
        "{}",
        stdout(&dry)
    );
    let (_, _, _, body) = garage.web_get("tiny/acmecreateitem.json");
    assert!(
        String::from_utf8(body)
            .unwrap()
            .contains("Makes a new item")
    );

    assert_eq!(garage.web_get("tiny/notes/readme.txt").0, 200);
}

/// Writes an object ontosite did not, with the same key.
fn put_foreign(garage: &Garage, key: &str) {
    use object_store::ObjectStoreExt;
    let store = object_store::aws::AmazonS3Builder::new()
        .with_endpoint(&garage.endpoint)
        .with_allow_http(true)
        .with_region("garage")
        .with_bucket_name(&garage.bucket)
        .with_access_key_id(&garage.key_id)
        .with_secret_access_key(&garage.secret)
        .build()
        .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime
        .block_on(store.put(
            &object_store::path::Path::from(key),
            object_store::PutPayload::from_static(b"not ontosite's"),
        ))
        .unwrap();
}

/// Wrong credentials, a missing bucket and an unreachable endpoint: a
/// clear error, no secret in it, a non-zero exit, and nothing written.
#[test]
fn publish_errors_say_what_is_wrong_without_a_secret() {
    needs!(GARAGE);
    let garage = Garage::start();
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("dist");
    build_ok(&tiny_input(), &site);

    let secret = "wrongsecret0123456789abcdef";
    let wrong = garage.publish_as(&site, "tiny", &[], &garage.key_id, secret);
    assert!(!wrong.status.success());
    let said = stderr(&wrong);
    assert!(said.contains("credentials"), "{said}");
    assert!(
        !said.contains(secret) && !said.contains(&garage.secret),
        "{said}"
    );

    let missing = ontosite()
        .arg("publish")
        .arg(&site)
        .arg("s3://no-such-bucket/tiny")
        .args(["--endpoint", &garage.endpoint, "--region", "garage"])
        .env("AWS_ACCESS_KEY_ID", &garage.key_id)
        .env("AWS_SECRET_ACCESS_KEY", &garage.secret)
        .output()
        .unwrap();
    assert!(!missing.status.success());
    let said = stderr(&missing);
    assert!(said.contains("no-such-bucket"), "{said}");
    assert!(!said.contains(&garage.secret), "{said}");

    let closed = format!("http://127.0.0.1:{}", free_port());
    let started = Instant::now();
    let unreachable = ontosite()
        .arg("publish")
        .arg(&site)
        .arg("s3://ontology/tiny")
        .args(["--endpoint", &closed, "--region", "garage"])
        .env("AWS_ACCESS_KEY_ID", &garage.key_id)
        .env("AWS_SECRET_ACCESS_KEY", &garage.secret)
        .output()
        .unwrap();
    assert!(!unreachable.status.success());
    let said = stderr(&unreachable);
    assert!(said.contains("did not answer"), "{said}");
    assert!(started.elapsed() < Duration::from_secs(90));

    // Nothing was written by any of them.
    assert_eq!(garage.web_get("tiny/index.json").0, 404);
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A publish killed at several moments: each time the objects there are
/// whole (the old site's or the new one's), and the next publish completes
/// the site; the one after sends nothing.
#[test]
fn a_killed_publish_is_finished_by_the_next() {
    needs!(GARAGE, Need::Slow);
    let garage = Garage::start();
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
            let (status, _, _, body) = garage.web_get(&format!("killed/{path}"));
            if status == 200 {
                assert!(
                    std::fs::read(site.join(path)).unwrap() == body,
                    "{path} after {wait} ms"
                );
            }
        }
    }
    let finished = garage.publish(site, "killed", &[]);
    assert!(finished.status.success(), "{}", stderr(&finished));
    for path in paths.iter().step_by(13) {
        let (status, _, _, body) = garage.web_get(&format!("killed/{path}"));
        assert_eq!(status, 200, "{path}");
        assert!(std::fs::read(site.join(path)).unwrap() == body, "{path}");
    }
    let after = garage.publish(site, "killed", &[]);
    assert_eq!(sent(&after), 0, "{}", stdout(&after));
}
