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

use rustix::fd::{AsFd, BorrowedFd, OwnedFd};
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
    /// The site at `out`, whose marker lists `marker_list`; `None` when it
    /// cannot be opened (then every file is written).
    pub(super) fn open(out: &Path, marker_list: Arc<Vec<String>>) -> Option<Generation> {
        let dir_fd = rustix::fs::open(
            out,
            OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()?;
        Some(Generation {
            dir_fd,
            listed: marker_list,
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
        let Some((file, stat)) = self.candidate(site_path, relative, bytes.len() as u64) else {
            return false;
        };
        let mut held = Vec::with_capacity(bytes.len());
        if file
            .take(bytes.len() as u64 + 1)
            .read_to_end(&mut held)
            .is_err()
            || held != bytes
        {
            return false;
        }
        self.link(relative, relative, &stat, staging.as_fd())
    }

    /// Puts this generation's file in place of the one staged at
    /// `relative` (written whole, `len` bytes) when the two hold the same
    /// bytes, compared a piece at a time; whether it did. Else, or on any
    /// failure, the staged file stays.
    pub(super) fn replace_if_same(
        &self,
        site_path: &str,
        relative: &Path,
        len: u64,
        staging: impl AsFd,
    ) -> bool {
        let staging = staging.as_fd();
        let Some((mut held, stat)) = self.candidate(site_path, relative, len) else {
            return false;
        };
        let Ok(staged) = rustix::fs::openat(
            staging,
            relative,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        ) else {
            return false;
        };
        if !same_bytes(&mut held, &mut std::fs::File::from(staged)) {
            return false;
        }
        // Linked beside the staged file, then renamed over it: the path is
        // never without a file, whatever fails.
        let mut beside = relative.as_os_str().to_owned();
        beside.push(".ontosite-link");
        let beside = Path::new(&beside);
        if !self.link(relative, beside, &stat, staging) {
            return false;
        }
        if rustix::fs::renameat(staging, beside, staging, relative).is_err() {
            let _ = rustix::fs::unlinkat(staging, beside, AtFlags::empty());
            return false;
        }
        true
    }

    /// This generation's file at `relative`, open, when it is one ontosite
    /// may reuse: listed in its marker, a regular file that is ontosite's
    /// alone (this user's, no other name: a file also linked elsewhere
    /// could change there after it is published), `len` bytes long.
    fn candidate(
        &self,
        site_path: &str,
        relative: &Path,
        len: u64,
    ) -> Option<(std::fs::File, rustix::fs::Stat)> {
        self.listed
            .binary_search_by(|p| p.as_str().cmp(site_path))
            .ok()?;
        let fd = rustix::fs::openat(
            &self.dir_fd,
            relative,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()?;
        let stat = rustix::fs::fstat(&fd).ok()?;
        let regular = rustix::fs::FileType::from_raw_mode(stat.st_mode).is_file();
        let own = stat.st_uid == rustix::process::geteuid().as_raw() && stat.st_nlink == 1;
        (regular && own && stat.st_size as u64 == len).then(|| (std::fs::File::from(fd), stat))
    }

    /// Links this generation's `relative`, whose status is `stat`, into
    /// `staging` as `name`; whether the link there is that very file.
    fn link(
        &self,
        relative: &Path,
        name: &Path,
        stat: &rustix::fs::Stat,
        staging: BorrowedFd,
    ) -> bool {
        if rustix::fs::linkat(&self.dir_fd, relative, staging, name, AtFlags::empty()).is_err() {
            return false;
        }
        // What was linked must be the file whose bytes were compared, not
        // one put at its path since: else it goes, and the caller writes.
        match rustix::fs::statat(staging, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(linked) if linked.st_ino == stat.st_ino && linked.st_dev == stat.st_dev => true,
            _ => {
                let _ = rustix::fs::unlinkat(staging, name, AtFlags::empty());
                false
            }
        }
    }
}

/// Whether two readers hold the same bytes, read a piece at a time.
fn same_bytes(a: &mut impl Read, b: &mut impl Read) -> bool {
    const PIECE: usize = 1 << 16;
    let (mut left, mut right) = (vec![0; PIECE], vec![0; PIECE]);
    loop {
        let Ok(n) = read_full(a, &mut left) else {
            return false;
        };
        let Ok(m) = read_full(b, &mut right) else {
            return false;
        };
        if n != m || left[..n] != right[..m] {
            return false;
        }
        if n < PIECE {
            return true;
        }
    }
}

/// Reads until `buffer` is full or the reader ends; how much was read.
fn read_full(reader: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}
