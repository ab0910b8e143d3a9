//! Keeping every request inside the site directory.
//!
//! Two layers, as static-web-server keeps them, so that a mistake in one is
//! caught by the other:
//! 1. [`site_path`] decodes the request path once and refuses what no file
//!    of a site is named like: `.` and `..` segments (however encoded: the
//!    check runs after decoding), backslashes, NUL and other control
//!    characters, text that is not UTF-8, overlong paths. Empty segments are
//!    dropped, so `//etc/passwd` is `/etc/passwd` of the site.
//! 2. [`SiteDir::open`] opens the file relative to the site's directory
//!    handle with `openat2(RESOLVE_BENEATH)`: the kernel refuses any
//!    resolution, symbolic links included, that would leave the directory.
//!    Where the kernel lacks `openat2` (before Linux 5.6, or under a
//!    seccomp filter), the path is resolved with `canonicalize` and must
//!    still lie inside the canonical site directory.
//!
//! Zola's `serve` once checked a prefix before resolving `..` (its issue
//! 2257); here nothing is compared before it is decoded and resolved.

use percent_encoding::percent_decode_str;
use std::fs::File;
use std::io::Read;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

/// Longer request paths are refused: no file of a site needs one, and
/// bounding it bounds the work of the rule matcher.
pub const MAX_PATH: usize = 2048;

/// Why a request path cannot name a file of a site: a 400, with this
/// detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal(pub &'static str);

/// A decoded request path: starts with `/`, segments joined by single
/// slashes, none empty, `.` or `..`; a trailing `/` is kept (it names a
/// directory).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitePath(String);

impl SitePath {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The path's segments, for joining under a directory.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0.split('/').filter(|s| !s.is_empty())
    }

    /// Whether the path names a directory (`/` or ends with `/`).
    pub fn is_directory(&self) -> bool {
        self.0.ends_with('/')
    }
}

/// Decodes and checks the path of a request's URI (without its query).
pub fn site_path(raw: &str) -> Result<SitePath, Refusal> {
    if raw.len() > MAX_PATH {
        return Err(Refusal("the path is longer than any path of this site"));
    }
    let bytes: Vec<u8> = percent_decode_str(raw).collect();
    let decoded = String::from_utf8(bytes)
        .map_err(|_| Refusal("the path is not UTF-8 once percent-decoded"))?;
    checked(&decoded)
}

/// Checks a path that is decoded already, such as one made from a site
/// path: a request's path is decoded once, as the hosts decode it, never
/// twice (`/%2561bb.json` names `%61bb.json`, not `abb.json`). Its length
/// is not bounded here: such a path is a checked request's and a suffix.
pub fn checked(decoded: &str) -> Result<SitePath, Refusal> {
    if !decoded.starts_with('/') {
        return Err(Refusal("the path does not start with `/`"));
    }
    if decoded.contains('\\') {
        return Err(Refusal("the path contains a backslash"));
    }
    if decoded.chars().any(char::is_control) {
        return Err(Refusal("the path contains a control character"));
    }
    let mut path = String::with_capacity(decoded.len());
    for segment in decoded.split('/').filter(|s| !s.is_empty()) {
        if segment == "." || segment == ".." {
            return Err(Refusal("the path has a `.` or `..` segment"));
        }
        path.push('/');
        path.push_str(segment);
    }
    if path.is_empty() || decoded.ends_with('/') {
        path.push('/');
    }
    Ok(SitePath(path))
}

/// Whether a path names a file that belongs to the host, not the site:
/// hidden files (ontosite's marker among them; not `/.well-known/`, the
/// published location of RFC 8615, which the hosts serve) and the host
/// configuration that Netlify and Cloudflare Pages read but do not serve.
pub fn is_private(path: &SitePath) -> bool {
    crate::site::routes::is_private(path.as_str())
}

/// An open site directory.
#[derive(Debug)]
pub struct SiteDir {
    dir: PathBuf,
    /// Kept open: files are opened relative to it, so a site swapped in
    /// after this one was opened does not mix into it.
    handle: OwnedFd,
}

impl SiteDir {
    pub fn open(dir: &Path) -> std::io::Result<SiteDir> {
        let dir = dir.canonicalize()?;
        let handle = rustix::fs::open(
            &dir,
            rustix::fs::OFlags::RDONLY
                | rustix::fs::OFlags::DIRECTORY
                | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )?;
        Ok(SiteDir { dir, handle })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The same directory, opened once more: what reads through the copy
    /// stays in the site this one opened.
    pub fn try_clone(&self) -> std::io::Result<SiteDir> {
        Ok(SiteDir {
            dir: self.dir.clone(),
            handle: self.handle.try_clone()?,
        })
    }

    /// The bytes of the regular file at `path`, if there is one inside the
    /// site directory. Directories, missing files and anything that would
    /// resolve outside the directory are `None`.
    /// Whether the directory at this site's path is no longer the one this
    /// site opened: a build swapped a new site in (or removed it).
    pub fn replaced(&self) -> bool {
        let held = rustix::fs::fstat(&self.handle);
        let now = rustix::fs::stat(&self.dir);
        match (held, now) {
            (Ok(held), Ok(now)) => held.st_ino != now.st_ino || held.st_dev != now.st_dev,
            _ => true,
        }
    }

    pub fn read(&self, path: &SitePath) -> Option<Vec<u8>> {
        let relative: PathBuf = path.segments().collect();
        if relative.as_os_str().is_empty() {
            return None;
        }
        let mut file = self.open_beneath(&relative)?;
        if !file.metadata().ok()?.is_file() {
            return None;
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).ok()?;
        Some(bytes)
    }

    fn open_beneath(&self, relative: &Path) -> Option<File> {
        use rustix::fs::{Mode, OFlags, ResolveFlags};
        let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NONBLOCK;
        match rustix::fs::openat2(
            &self.handle,
            relative,
            flags,
            Mode::empty(),
            ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS,
        ) {
            Ok(fd) => Some(File::from(fd)),
            Err(rustix::io::Errno::NOSYS) | Err(rustix::io::Errno::PERM) => {
                let resolved = self.dir.join(relative).canonicalize().ok()?;
                resolved
                    .starts_with(&self.dir)
                    .then(|| File::open(resolved).ok())
                    .flatten()
            }
            Err(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(raw: &str) -> bool {
        site_path(raw).is_err()
    }

    #[test]
    fn decoded_paths_are_normal() {
        assert_eq!(site_path("/").unwrap().as_str(), "/");
        assert_eq!(site_path("/a.json").unwrap().as_str(), "/a.json");
        assert_eq!(site_path("//etc//passwd").unwrap().as_str(), "/etc/passwd");
        assert_eq!(site_path("/search/").unwrap().as_str(), "/search/");
        assert_eq!(site_path("/%61.json").unwrap().as_str(), "/a.json");
        // Decoded once: a double-encoded dot is a literal `%2e`, harmless.
        assert_eq!(site_path("/%252e%252e/x").unwrap().as_str(), "/%2e%2e/x");
    }

    #[test]
    fn traversal_and_odd_bytes_are_refused() {
        for raw in [
            "/..",
            "/../etc/passwd",
            "/a/../../b",
            "/%2e%2e/etc/passwd",
            "/%2E%2E%2Fetc",
            "/.%2e/x",
            "/./a",
            "/a\\..\\b",
            "/a%5c..%5cb",
            "/a%00.json",
            "/a%0a",
            "/%ff",
            "relative",
        ] {
            assert!(refused(raw), "{raw} was not refused");
        }
        assert!(refused(&format!("/{}", "a".repeat(MAX_PATH))));
    }

    #[test]
    fn host_files_and_hidden_files_are_private() {
        for raw in [
            "/_headers",
            "/_redirects",
            "/_worker.js",
            "/_routes.json",
            "/.ontosite-output",
            "/a/.git/config",
            "/.well-known/.secret",
        ] {
            assert!(is_private(&site_path(raw).unwrap()), "{raw}");
        }
        assert!(!is_private(&site_path("/.well-known/void").unwrap()));
        assert!(!is_private(&site_path("/index.json").unwrap()));
    }

    #[test]
    fn symbolic_links_out_of_the_site_are_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "secret").unwrap();
        let site = tempfile::tempdir().unwrap();
        std::fs::write(site.path().join("a.json"), "{}").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), site.path().join("leak.json"))
            .unwrap();
        std::os::unix::fs::symlink(outside.path(), site.path().join("dir")).unwrap();
        std::os::unix::fs::symlink("a.json", site.path().join("inside.json")).unwrap();
        let dir = SiteDir::open(site.path()).unwrap();
        let read = |raw: &str| dir.read(&site_path(raw).unwrap());
        assert_eq!(read("/a.json").as_deref(), Some(&b"{}"[..]));
        assert_eq!(read("/inside.json").as_deref(), Some(&b"{}"[..]));
        assert_eq!(read("/leak.json"), None);
        assert_eq!(read("/dir/secret"), None);
        assert_eq!(read("/"), None);
    }
}
