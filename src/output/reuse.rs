//! The previous generation, reused: a file a build would write with
//! exactly the bytes the site it replaces already holds at that path is
//! hard-linked from that site into the staging directory instead of being
//! written again. A rebuild after one entity changed so writes that
//! entity's files and the documents that list it, and links the rest: the
//! unchanged files keep their inode, bytes and modification time (so
//! `rsync` and deploy tools that compare them skip them), and the swap
//! stays whole, because the new generation is still a directory of its own
//! until it is swapped in.
//!
//! The bytes are compared, not a hash recorded at build time: a file
//! edited by hand to the same size is seen, and nothing beyond the site
//! itself has to be kept.

use rustix::fd::{AsFd, OwnedFd};
use rustix::fs::{AtFlags, Mode, OFlags};
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// The site a build replaces, open for reading.
#[derive(Debug)]
pub(super) struct Generation {
    dir_fd: OwnedFd,
    /// What its marker lists, sorted: only those files are ontosite's to
    /// reuse. Shared with the staging directory, not copied: at a million
    /// entities it names five million files.
    listed: Arc<Vec<String>>,
}

impl Generation {
    /// The site at `out`, whose marker lists `manifest`; `None` when it
    /// cannot be opened (then every file is written).
    pub(super) fn open(out: &Path, manifest: Arc<Vec<String>>) -> Option<Generation> {
        let dir_fd = rustix::fs::open(
            out,
            OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()?;
        Some(Generation {
            dir_fd,
            listed: manifest,
        })
    }

    /// Links `relative` from this generation into the staging directory
    /// `staging` when this generation holds it as a regular file of exactly
    /// `bytes`; whether it did. Any failure answers `false`, and the caller
    /// writes the file.
    pub(super) fn link_if_same(
        &self,
        site_path: &str,
        relative: &Path,
        bytes: &[u8],
        staging: impl AsFd,
    ) -> bool {
        let listed = self
            .listed
            .binary_search_by(|p| p.as_str().cmp(site_path))
            .is_ok();
        if !listed {
            return false;
        }
        let Ok(fd) = rustix::fs::openat(
            &self.dir_fd,
            relative,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        ) else {
            return false;
        };
        let Ok(stat) = rustix::fs::fstat(&fd) else {
            return false;
        };
        // Only a file that is ontosite's alone: a regular file, this user's,
        // with no other name (a file also linked elsewhere could change
        // there after it is published), of the size to be written.
        let regular = rustix::fs::FileType::from_raw_mode(stat.st_mode).is_file();
        let own = stat.st_uid == rustix::process::geteuid().as_raw() && stat.st_nlink == 1;
        if !regular || !own || stat.st_size as u64 != bytes.len() as u64 {
            return false;
        }
        let mut held = Vec::with_capacity(bytes.len());
        let read = std::fs::File::from(fd).read_to_end(&mut held);
        if read.is_err() || held != bytes {
            return false;
        }
        let staging = staging.as_fd();
        if rustix::fs::linkat(&self.dir_fd, relative, staging, relative, AtFlags::empty()).is_err()
        {
            return false;
        }
        // What was linked must be the file whose bytes were compared, not
        // one put at its path since: else it goes, and the caller writes.
        match rustix::fs::statat(staging, relative, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(linked) if linked.st_ino == stat.st_ino && linked.st_dev == stat.st_dev => true,
            _ => {
                let _ = rustix::fs::unlinkat(staging, relative, AtFlags::empty());
                false
            }
        }
    }
}
