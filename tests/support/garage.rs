//! A Garage node of one on loopback ports, with one bucket and one key:
//! the real S3-compatible server the publish tests and the publish
//! benchmark start (`scripts/test.sh` builds Garage from crates.io).
//! Shared by `tests/it/publish.rs` and `benches/publish.rs`.

// Each user reads a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A Garage node of one, with one bucket and one key.
pub struct Garage {
    binary: PathBuf,
    /// Where the node keeps its data, until it is dropped.
    _dir: tempfile::TempDir,
    child: Child,
    config: PathBuf,
    /// The S3 API.
    pub endpoint: String,
    /// The website endpoint, which answers a bucket's objects by path.
    pub web: String,
    pub bucket: String,
    pub key_id: String,
    pub secret: String,
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Garage {
    pub fn start(binary: &Path) -> Garage {
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
        let child = Command::new(binary)
            .arg("-c")
            .arg(&config)
            .arg("server")
            .env("RUST_LOG", "error")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut garage = Garage {
            binary: binary.to_owned(),
            _dir: dir,
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
        // `node id` reads the key on disk; the RPC port may not be open
        // yet (seen once in CI: "Connection refused"), so the first call
        // over it waits for it as well.
        let assign = ["layout", "assign", "-z", "dc1", "-c", "1G", &node];
        while !garage.cli(&assign).status.success() {
            if Instant::now() > deadline {
                garage.ok(&assign);
            }
            std::thread::sleep(Duration::from_millis(200));
        }
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

    pub fn cli(&self, args: &[&str]) -> Output {
        Command::new(&self.binary)
            .arg("-c")
            .arg(&self.config)
            .args(args)
            .env("RUST_LOG", "error")
            .output()
            .unwrap()
    }

    pub fn ok(&self, args: &[&str]) -> String {
        let output = self.cli(args);
        assert!(
            output.status.success(),
            "garage {args:?}: {}",
            stderr(&output)
        );
        String::from_utf8(output.stdout).unwrap()
    }
}

impl Drop for Garage {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
