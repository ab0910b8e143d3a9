//! The output stage: the only code that writes under an output directory.
//!
//! A build writes into a staging directory beside the output directory and
//! swaps it in at the end, so a failed or killed build leaves the previous
//! site exactly as it was. Every directory ontosite writes carries a marker
//! file listing the files it wrote; ontosite replaces only a directory with
//! that marker (or an empty one), deletes only the files the marker lists,
//! and refuses a directory holding anything else. So `--out .` or
//! `--out $HOME` cannot delete a thing.

mod adopt;
pub mod chunks;
pub mod objects;
mod record;
mod reuse;
mod swap;

pub use record::{Record, up_to_date};

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The marker file's name inside every directory ontosite writes.
pub const MARKER: &str = ".ontosite-output";

/// The build record's name inside every site ontosite writes
/// ([`Record`]).
pub const RECORD: &str = ".ontosite-record";

const MARKER_HEADER: &str = "ontosite output: ontosite replaces this directory on each build and deletes only the files listed here.\n";

/// Problems with the output directory. Each is a cause and, apart, the
/// help for it ([`OutputError::help`]): an error that wraps another
/// (`NotPutBack`) shows the other's cause without its help, which speaks
/// of the previous site as whole where it no longer is.
#[derive(Debug)]
pub enum OutputError {
    NoName(PathBuf),
    NotADirectory(PathBuf),
    NotOurs(PathBuf),
    Foreign {
        dir: PathBuf,
        paths: Vec<String>,
    },
    Io {
        path: PathBuf,
        action: &'static str,
        source: std::io::Error,
    },
    /// A stopped build left the site incomplete and its lock cannot be
    /// made to put it back together.
    Incomplete(PathBuf),
    /// A moved kept release found both in staging and in the output.
    TwoCopies {
        folder: String,
        moved: PathBuf,
        home: PathBuf,
    },
    NotPutBack {
        /// What made the folders go back.
        failed: Box<OutputError>,
        /// The folder that could not go back, and why.
        home: PathBuf,
        back: std::io::Error,
        journal: PathBuf,
        staging: PathBuf,
    },
    SiteAside {
        out: PathBuf,
        aside: PathBuf,
        new: std::io::Error,
        back: std::io::Error,
    },
    OutsideSite(String),
    Busy {
        out: PathBuf,
        lock: PathBuf,
    },
    MountPoint(PathBuf),
    InsideInput {
        out: PathBuf,
        read: PathBuf,
    },
}

impl OutputError {
    /// What went wrong, without the help.
    fn cause(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputError::NoName(dir) => write!(
                f,
                "`{}` cannot be an output directory: it names no directory of its own",
                dir.display()
            ),
            OutputError::NotADirectory(path) => {
                write!(f, "`{}` exists and is not a directory", path.display())
            }
            OutputError::NotOurs(dir) => write!(
                f,
                "`{}` exists, is not empty and was not written by ontosite (it has no {MARKER} file); refusing to replace it",
                dir.display()
            ),
            OutputError::Foreign { dir, paths } => write!(
                f,
                "`{}` holds files that ontosite did not write, and replacing the directory would delete them: {}",
                dir.display(),
                paths.join(", ")
            ),
            OutputError::Io {
                path,
                action,
                source,
            } => write!(f, "`{}`: {action} failed: {source}", path.display()),
            OutputError::Incomplete(out) => write!(
                f,
                "`{}`: an ontosite build was stopped while swapping this site in, so it is incomplete (the site or its kept releases are set aside beside it), and the lock beside it cannot be made here to put it back together",
                out.display()
            ),
            OutputError::TwoCopies {
                folder,
                moved,
                home,
            } => write!(
                f,
                "`{}` and `{}` both hold the kept release `{folder}`: a build moving it into its new site was stopped, and the previous site has a folder of that name again",
                moved.display(),
                home.display()
            ),
            OutputError::NotPutBack {
                failed, home, back, ..
            } => {
                failed.cause(f)?;
                write!(
                    f,
                    "\n  and then `{}`: moving the kept release back into the previous site failed: {back}",
                    home.display()
                )
            }
            OutputError::SiteAside {
                out,
                aside,
                new,
                back,
            } => write!(
                f,
                "`{}`: moving the new site into place failed: {new}\n  and putting the previous site back from `{}` failed too: {back}",
                out.display(),
                aside.display()
            ),
            OutputError::OutsideSite(path) => write!(
                f,
                "`{path}` is not a relative path inside the site; refusing to write it"
            ),
            OutputError::Busy { out, lock } => write!(
                f,
                "another ontosite build is writing `{}`, or a publish reading it (it holds the lock `{}`)",
                out.display(),
                lock.display()
            ),
            OutputError::MountPoint(out) => write!(
                f,
                "`{}` is a mount point: ontosite builds beside the output directory and swaps it in, which cannot move a mount point",
                out.display()
            ),
            OutputError::InsideInput { out, read } => write!(
                f,
                "`{}` lies inside `{}`, which the build reads: the next build would read its own output as input",
                out.display(),
                read.display()
            ),
        }
    }

    /// What the user can do about it, where there is something.
    pub fn help(&self) -> Option<String> {
        Some(match self {
            OutputError::NoName(_) | OutputError::OutsideSite(_) => return None,
            OutputError::NotADirectory(_) => {
                "choose another --out, or move the file away".to_owned()
            }
            OutputError::NotOurs(_) => {
                "choose another --out, or empty or remove that directory yourself".to_owned()
            }
            OutputError::Foreign { .. } => {
                "move them out of the output directory, then build again".to_owned()
            }
            OutputError::Io { .. } => "check that the disk has room and that you may write there, then build again; the previous site is unchanged".to_owned(),
            OutputError::Incomplete(_) => "run `ontosite build` into it as a user who may write in its folder (the build puts the site back together first), then run this again".to_owned(),
            OutputError::TwoCopies { .. } => "keep one of the two (the first is the one the stopped build moved), remove the other, then build again".to_owned(),
            OutputError::NotPutBack {
                failed,
                journal,
                staging,
                ..
            } => {
                // The swap may have left the previous site itself aside: its
                // own help is not shown, so this one names it.
                let (lacking, back) = match failed.as_ref() {
                    OutputError::SiteAside { aside, .. } => (
                        format!("the previous site is set aside at `{}`, without", aside.display()),
                        "it and them",
                    ),
                    _ => ("until the next build the previous site lacks".to_owned(), "them"),
                };
                format!(
                    "{lacking} the kept releases listed in `{}` (they are in `{}`); the next build puts {back} back before anything else: fix what failed, then build again",
                    journal.display(),
                    staging.display()
                )
            }
            OutputError::SiteAside { .. } => "the next build (or publish) puts it back before anything else: fix what failed, then build again".to_owned(),
            OutputError::Busy { .. } => "wait for it to finish, then run this again; two builds into one directory would delete each other's files, and a build under a publish would replace the site it sends".to_owned(),
            OutputError::MountPoint(out) => format!(
                "build into a directory inside it instead, for example `--out {}/site`",
                out.display()
            ),
            OutputError::InsideInput { .. } => {
                "choose an --out outside the input's entities folder".to_owned()
            }
        })
    }
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.cause(f)?;
        match self.help() {
            Some(help) => write!(f, "\n  help: {help}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OutputError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

fn io<'p>(path: &'p Path, action: &'static str) -> impl FnOnce(std::io::Error) -> OutputError + 'p {
    move |source| OutputError::Io {
        path: path.to_owned(),
        action,
        source,
    }
}

/// An exclusive advisory lock (`flock`) on `.{name}.ontosite-lock` beside
/// the output directory, held from the first look at the output until the
/// replaced site is removed. Without it, a second build clears the first
/// one's staging directory as a leftover while the first still writes.
///
/// The holder removes the lock file when it is done. A build that opened
/// the file before that and locks it after finds, by comparing inodes,
/// that the file it holds is no longer the one at the path, and tries
/// again with a new one.
#[derive(Debug)]
struct Lock {
    path: PathBuf,
    file: std::fs::File,
}

impl Lock {
    fn take(out: &Path) -> Result<Lock, OutputError> {
        let parent = out.parent().unwrap_or(Path::new("/"));
        std::fs::create_dir_all(parent).map_err(io(parent, "creating the directory"))?;
        Lock::take_beside(out)
    }

    /// [`Lock::take`] where the folder of `out` exists.
    fn take_beside(out: &Path) -> Result<Lock, OutputError> {
        use std::os::unix::fs::MetadataExt;
        let path = sibling(out, "lock");
        loop {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .map_err(io(&path, "opening the build lock"))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(OutputError::Busy {
                        out: out.to_owned(),
                        lock: path,
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io(&path, "locking")(e)),
            }
            let held = file.metadata().map_err(io(&path, "reading"))?;
            match std::fs::metadata(&path) {
                Ok(now) if now.ino() == held.ino() && now.dev() == held.dev() => {
                    return Ok(Lock { path, file });
                }
                // Removed or replaced by the build that held it: again.
                _ => continue,
            }
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held, so no one locks a file on its way out.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// The site at `out` held against builds while it is read as a whole (a
/// publish sending it): a build meanwhile would swap another site in, and
/// move its kept releases out of this one for a moment, under the reader,
/// which could then take files for gone. A build that tries is refused
/// ([`OutputError::Busy`]), as one is by another build. `None` where the
/// lock cannot be made beside the site (a read-only place, where no build
/// can write either; no site there), unless a build stopped there left
/// the site incomplete ([`OutputError::Incomplete`]): it is not read so.
pub fn hold(out: &Path) -> Result<Option<Held>, OutputError> {
    let out = resolve(out)?;
    match Lock::take_beside(&out) {
        Ok(lock) => {
            // The site whole again where a build was stopped half-way
            // through its swap.
            recover(&out)?;
            Ok(Some(Held(lock)))
        }
        Err(OutputError::Io { source, .. })
            if matches!(
                source.kind(),
                std::io::ErrorKind::PermissionDenied
                    | std::io::ErrorKind::ReadOnlyFilesystem
                    | std::io::ErrorKind::NotFound
            ) =>
        {
            // Unlocked, a site a stopped build left incomplete is not sent.
            match adopt::pending(&out) || swap::was_stopped(&out) {
                true => Err(OutputError::Incomplete(out)),
                false => Ok(None),
            }
        }
        Err(e) => Err(e),
    }
}

/// The hold [`hold`] takes, released on drop.
#[derive(Debug)]
pub struct Held(#[allow(dead_code)] Lock);

/// A build's staging directory, swapped in by `commit`; removed on drop
/// when the build does not get that far.
#[derive(Debug)]
pub struct Staging {
    out: PathBuf,
    dir: PathBuf,
    /// The staging directory, open: files at the site's root are created
    /// relative to it, so the kernel does not walk the whole path again
    /// for each of a million files.
    dir_fd: rustix::fd::OwnedFd,
    /// The previous output's list of files, sorted, if there was a previous
    /// output; shared with `reuse`, as it lists every file of the site.
    previous: Option<Arc<Vec<String>>>,
    /// The previous output, whose unchanged files are linked, not written.
    reuse: Option<reuse::Generation>,
    /// The folders made so far: a site of a million files has a few
    /// thousand folders, and asking the kernel to make each file's folder
    /// again would be a failing `mkdir` per file.
    made: std::sync::Mutex<HashSet<PathBuf>>,
    /// Folders of the previous output the new site takes as they are,
    /// moved in at the swap ([`Staging::adopt`]).
    adopted: Vec<String>,
    /// Whether the previous output was looked through for files not its
    /// own ([`Staging::refuse_foreign`]); the swap does it where not.
    foreign_checked: bool,
    committed: bool,
    lock: Option<Lock>,
}

impl Staging {
    /// Locks `out` against other builds, checks that it may be replaced
    /// and creates the staging directory. With `reuse`, a file the site in
    /// `out` already holds with the same bytes is linked from there
    /// instead of written ([`Written::Kept`]).
    pub fn begin(out: &Path, reuse: bool) -> Result<Staging, OutputError> {
        let out = resolve(out)?;
        let lock = Lock::take(&out)?;
        // Before the site is looked at: it may lack what a stopped swap
        // left aside.
        recover(&out)?;
        refuse_mount_point(&out)?;
        // Looked through for files not its own once the folders taken
        // whole are known (`refuse_foreign`), before anything is removed.
        let previous = read_replaceable(&out)?.map(Arc::new);
        let dir = sibling(&out, "staging");
        clear_leftover(&dir)?;
        clear_leftover(&sibling(&out, "old"))?;
        let parent = out.parent().unwrap_or(Path::new("/"));
        std::fs::create_dir_all(parent).map_err(io(parent, "creating the directory"))?;
        std::fs::create_dir(&dir).map_err(io(&dir, "creating the staging directory"))?;
        // The marker goes first, so a crashed build's staging is recognisable.
        let marker = dir.join(MARKER);
        std::fs::write(&marker, MARKER_HEADER).map_err(io(&marker, "writing"))?;
        let dir_fd = rustix::fs::open(
            &dir,
            rustix::fs::OFlags::DIRECTORY
                | rustix::fs::OFlags::RDONLY
                | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .map_err(|e| io(&dir, "opening the directory")(e.into()))?;
        let reuse = match &previous {
            Some(marker_list) if reuse && !marker_list.is_empty() => {
                reuse::Generation::open(&out, Arc::clone(marker_list))
            }
            _ => None,
        };
        Ok(Staging {
            out,
            dir_fd,
            dir,
            previous,
            reuse,
            made: Default::default(),
            adopted: Vec::new(),
            foreign_checked: false,
            committed: false,
            lock: Some(lock),
        })
    }

    /// The output directory this staging replaces.
    pub fn out(&self) -> &Path {
        &self.out
    }

    /// Puts one file of the site into staging: linked from the previous
    /// site when that holds the same bytes, else written in one write and
    /// without fsync. `site_path` is relative to the site root,
    /// `/`-separated.
    pub fn write(&self, site_path: &str, bytes: &[u8]) -> Result<Written, OutputError> {
        let relative = checked(site_path)?;
        let path = self.dir.join(relative);
        self.make_parent(&path)?;
        if let Some(previous) = &self.reuse
            && previous.link_if_same(site_path, relative, bytes, &self.dir_fd)
        {
            return Ok(Written::Kept);
        }
        std::io::Write::write_all(&mut self.open_new(relative, &path)?, bytes)
            .map_err(io(&path, "writing"))?;
        Ok(Written::Anew)
    }

    /// Starts a file of the site that is written a piece at a time (a big
    /// document, rendered straight into it rather than into memory);
    /// [`Staging::finish`] ends it.
    pub fn create(&self, site_path: &str) -> Result<StagedFile, OutputError> {
        let relative = checked(site_path)?.to_owned();
        let path = self.dir.join(&relative);
        self.make_parent(&path)?;
        let file = self.open_new(&relative, &path)?;
        Ok(StagedFile {
            site_path: site_path.to_owned(),
            relative,
            path,
            out: std::io::BufWriter::with_capacity(1 << 18, file),
            len: 0,
        })
    }

    /// Puts one file of the site into staging written from `pieces`, in
    /// order, each dropped once written: for a file too large to hold
    /// twice, which joined for [`Staging::write`] it would be (and three
    /// times where the previous site's is of the same size, read whole to
    /// compare), compared with the previous site's a piece at a time as
    /// [`Staging::finish`] does. Returns how, and its length.
    pub fn write_pieces(
        &self,
        site_path: &str,
        pieces: impl IntoIterator<Item = Vec<u8>>,
    ) -> Result<(Written, u64), OutputError> {
        let mut file = self.create(site_path)?;
        for piece in pieces {
            std::io::Write::write_all(&mut file, &piece).map_err(io(&file.path, "writing"))?;
        }
        self.finish(file)
    }

    /// Ends a file started by [`Staging::create`]: flushed, then, when the
    /// previous site holds the same bytes, replaced by a link to that file
    /// ([`Written::Kept`]). Returns how, and its length.
    pub fn finish(&self, file: StagedFile) -> Result<(Written, u64), OutputError> {
        let StagedFile {
            site_path,
            relative,
            path,
            out,
            len,
        } = file;
        out.into_inner()
            .map_err(|e| io(&path, "writing")(e.into_error()))?;
        let kept = self.reuse.as_ref().is_some_and(|previous| {
            previous.replace_if_same(&site_path, &relative, len, &self.dir_fd)
        });
        Ok((if kept { Written::Kept } else { Written::Anew }, len))
    }

    /// Creates the folder `site_path` of the site (and those above it).
    pub fn make_dir(&self, site_path: &str) -> Result<(), OutputError> {
        self.made(self.dir.join(checked(site_path)?))
    }

    /// Puts the regular file `from` of a site published earlier into
    /// staging at `site_path`, whose folder [`Staging::make_dir`] made, as
    /// it is: hard-linked (the link names the file itself, never what a
    /// link points to), copied where the two are on different file
    /// systems.
    pub fn keep(&self, from: &Path, site_path: &str) -> Result<(), OutputError> {
        let path = self.dir.join(checked(site_path)?);
        if std::fs::hard_link(from, &path).is_err() {
            std::fs::copy(from, &path).map_err(io(&path, "copying"))?;
        }
        Ok(())
    }

    /// Takes the folder `site_path` of the previous output, and all it
    /// holds, into the new site as it is: moved there when the new site
    /// is swapped in, so nothing of it is written, linked or removed, nor
    /// looked through for files ontosite did not write
    /// ([`Staging::refuse_foreign`]). So it is taken only where it holds
    /// what the previous site's marker says ontosite wrote there and
    /// nothing else: `files` (its files' site paths, in path order) the
    /// marker's under it, `dirs` (its folders, itself too) the folders
    /// holding them. Returns whether it was taken. The caller lists its
    /// files among those written (they are the new site's) and has
    /// checked them; nothing else of the new site may be written inside
    /// it.
    pub fn adopt<'f>(
        &mut self,
        site_path: &str,
        dirs: &[String],
        files: impl IntoIterator<Item = &'f str>,
    ) -> Result<bool, OutputError> {
        let folder = site_path.trim_end_matches('/');
        let relative = checked(folder)?;
        let from = self.out.join(relative);
        let is_dir = std::fs::symlink_metadata(&from).is_ok_and(|m| m.is_dir());
        let Some(marker_list) = self.previous.as_deref().filter(|_| is_dir) else {
            return Err(io(&from, "taking a folder of the previous site")(
                std::io::ErrorKind::NotFound.into(),
            ));
        };
        let listed = &marker_list[run_under(marker_list, folder)];
        if !listed.iter().map(String::as_str).eq(files) {
            return Ok(false);
        }
        let mut holding = folders_holding(listed.iter().map(String::as_str), folder);
        holding.insert(folder);
        if dirs.len() != holding.len() || !dirs.iter().all(|d| holding.contains(d.as_str())) {
            return Ok(false);
        }
        self.make_parent(&self.dir.join(relative))?;
        self.adopted.push(folder.to_owned());
        Ok(true)
    }

    /// Refuses the previous output where it holds files ontosite did not
    /// write, outside the folders adopted so far (moved into the new site
    /// whole, nothing in them removed): before the build writes, so that
    /// it fails at once. A folder adopted later has been looked through.
    pub fn refuse_foreign(&mut self) -> Result<(), OutputError> {
        if let Some(marker_list) = &self.previous {
            refuse_foreign(&self.out, marker_list, &self.adopted)?;
        }
        self.foreign_checked = true;
        Ok(())
    }

    /// Creates the folders above a file of the site, where it has any.
    fn make_parent(&self, path: &Path) -> Result<(), OutputError> {
        match path.parent().filter(|p| *p != self.dir) {
            Some(parent) => self.made(parent.to_owned()),
            None => Ok(()),
        }
    }

    /// Makes the folder `path` (and those above it) unless this build
    /// made it already.
    fn made(&self, path: PathBuf) -> Result<(), OutputError> {
        // A poisoned lock only means another thread panicked while
        // inserting: the set still holds folders made.
        let made = || {
            self.made
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if made().contains(&path) {
            return Ok(());
        }
        std::fs::create_dir_all(&path).map_err(io(&path, "creating the directory"))?;
        made().insert(path);
        Ok(())
    }

    /// A new file of the site, empty, open for writing. One at the root is
    /// created relative to the open directory, never through a link.
    fn open_new(&self, relative: &Path, path: &Path) -> Result<std::fs::File, OutputError> {
        if path.parent().is_some_and(|p| p != self.dir) {
            return std::fs::File::create(path).map_err(io(path, "writing"));
        }
        use rustix::fs::{Mode, OFlags};
        let fd = rustix::fs::openat(
            &self.dir_fd,
            relative,
            OFlags::WRONLY | OFlags::CREATE | OFlags::TRUNC | OFlags::CLOEXEC | OFlags::NOFOLLOW,
            Mode::from_raw_mode(0o644),
        )
        .map_err(|e| io(path, "writing")(e.into()))?;
        Ok(std::fs::File::from(fd))
    }

    /// Records `written` (every site path written) in the marker and swaps
    /// the staging directory, with `record`, in place of the output
    /// directory, the folders [`Staging::adopt`] took moved from the
    /// previous site into it just before. The previous site is handed
    /// back, moved aside, whole but for those folders, for the caller to
    /// remove once nothing reads it any more (a server lets its requests
    /// finish).
    pub fn commit(
        mut self,
        mut written: Vec<String>,
        record: &Record,
    ) -> Result<Previous, OutputError> {
        written.sort_unstable();
        // Streamed: at a million entities the list is 150 MB as text.
        let marker_path = self.dir.join(MARKER);
        let write_marker = || -> std::io::Result<()> {
            use std::io::Write as _;
            let mut marker = std::io::BufWriter::new(std::fs::File::create(&marker_path)?);
            marker.write_all(MARKER_HEADER.as_bytes())?;
            for path in &written {
                marker.write_all(path.as_bytes())?;
                marker.write_all(b"\n")?;
            }
            marker.flush()
        };
        write_marker().map_err(io(&marker_path, "writing"))?;
        drop(written);

        record.keep(&self.dir)?;
        if !self.foreign_checked {
            self.refuse_foreign()?;
        }
        let old = match self.previous.take() {
            None => {
                std::fs::rename(&self.dir, &self.out)
                    .map_err(io(&self.out, "moving the new site into place"))?;
                None
            }
            Some(marker_list) => {
                let moved = adopt::move_in(&self.out, &self.dir, &self.adopted)?;
                match swap::replace(&self.dir, &self.out) {
                    Ok(old) => Some((old, marker_list, moved.swapped())),
                    // Where one cannot go back, the journal stays and
                    // keeps the staging directory from removal.
                    Err(e) => return Err(moved.undo(e)),
                }
            }
        };
        self.committed = true;
        Ok(Previous {
            site: old,
            _lock: self.lock.take(),
        })
    }
}

/// A file of the site being written a piece at a time
/// ([`Staging::create`]); it counts what it is given.
#[derive(Debug)]
pub struct StagedFile {
    site_path: String,
    relative: PathBuf,
    path: PathBuf,
    out: std::io::BufWriter<std::fs::File>,
    len: u64,
}

impl std::io::Write for StagedFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(bytes)?;
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// How [`Staging::write`] put a file in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// Written from the bytes given.
    Anew,
    /// The previous site's file, which held the same bytes, linked.
    Kept,
}

/// The site a commit replaced, moved aside (without the folders the new
/// site took from it); removed by [`Previous::remove`]
/// or, failing that, on drop. Only the files its marker lists are removed.
/// The build lock is held until then: the next build would otherwise take
/// the replaced site for a leftover while a server still reads it.
#[derive(Debug)]
#[must_use = "the previous site stays on disk until it is removed"]
pub struct Previous {
    /// Where it is, its marker's list, and the folders the new site took
    /// from it (no longer in it).
    site: Option<(PathBuf, Arc<Vec<String>>, Vec<String>)>,
    _lock: Option<Lock>,
}

impl Previous {
    /// No site was replaced: the output was up to date.
    pub fn nothing() -> Previous {
        Previous {
            site: None,
            _lock: None,
        }
    }

    pub fn remove(mut self) -> Result<(), OutputError> {
        match self.site.take() {
            Some((dir, marker_list, adopted)) => remove_listed(&dir, &marker_list, &adopted),
            None => Ok(()),
        }
    }
}

impl Drop for Previous {
    fn drop(&mut self) {
        if let Some((dir, marker_list, adopted)) = self.site.take() {
            let _ = remove_listed(&dir, &marker_list, &adopted);
        }
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        // Everything in it is ours (this build created it), but for
        // folders of the previous site that could not be moved back
        // there, which the journal names for the next build.
        if !self.committed && !adopt::pending(&self.out) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Puts back what a build stopped half-way through its swap left out of
/// the site at `out` (the previous site aside, folders of it moved into
/// staging). Run under the lock, before anything else looks at the site.
fn recover(out: &Path) -> Result<(), OutputError> {
    swap::recover(out)?;
    adopt::recover(out, &sibling(out, "staging"))
}

/// `out` as a build names it in its summary: absolute, `.` and `..`
/// resolved.
pub fn resolved(out: &Path) -> Result<PathBuf, OutputError> {
    resolve(out)
}

/// Makes `out` absolute with a final name, resolving `.` and `..`.
fn resolve(out: &Path) -> Result<PathBuf, OutputError> {
    let absolute = std::path::absolute(out).map_err(io(out, "resolving the path"))?;
    let resolved = if absolute.exists() {
        absolute
            .canonicalize()
            .map_err(io(out, "resolving the path"))?
    } else {
        absolute
    };
    match resolved.file_name() {
        Some(_) if resolved.parent().is_some() => Ok(resolved),
        _ => Err(OutputError::NoName(out.to_owned())),
    }
}

/// Refuses an output directory inside `read`, a folder the build reads
/// every file of: its staging directory and its site would become input.
pub fn refuse_inside(out: &Path, read: &Path) -> Result<(), OutputError> {
    let out = resolve(out)?;
    let Ok(read) = read.canonicalize() else {
        return Ok(());
    };
    if out.starts_with(&read) {
        return Err(OutputError::InsideInput { out, read });
    }
    Ok(())
}

/// Refuses an output directory that is a mount point (a Docker volume, a
/// tmpfs): it cannot be renamed, so the swap at the end would fail after
/// the whole build had run.
fn refuse_mount_point(out: &Path) -> Result<(), OutputError> {
    use std::os::unix::fs::MetadataExt;
    let Ok(metadata) = std::fs::symlink_metadata(out) else {
        return Ok(());
    };
    let parent = out.parent().unwrap_or(Path::new("/"));
    let parent = std::fs::metadata(parent).map_err(io(parent, "reading"))?;
    if metadata.is_dir() && metadata.dev() != parent.dev() {
        return Err(OutputError::MountPoint(out.to_owned()));
    }
    Ok(())
}

/// `.{name}.ontosite-{role}` beside `out`.
fn sibling(out: &Path, role: &str) -> PathBuf {
    let name = out.file_name().unwrap_or_default().to_string_lossy();
    out.with_file_name(format!(".{name}.ontosite-{role}"))
}

/// Whether `out` may be replaced; returns the list of files of the output it
/// holds (sorted), `Some(vec![])` for an empty directory, `None` when there is none.
fn check_replaceable(out: &Path) -> Result<Option<Vec<String>>, OutputError> {
    let marker_list = read_replaceable(out)?;
    if let Some(marker_list) = &marker_list {
        refuse_foreign(out, marker_list, &[])?;
    }
    Ok(marker_list)
}

/// [`check_replaceable`] but for the look for files ontosite did not
/// write, which a build makes once it knows the folders it takes whole
/// ([`Staging::refuse_foreign`]).
fn read_replaceable(out: &Path) -> Result<Option<Vec<String>>, OutputError> {
    let metadata = match std::fs::symlink_metadata(out) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(out, "reading")(e)),
    };
    if !metadata.is_dir() {
        return Err(OutputError::NotADirectory(out.to_owned()));
    }
    let marker = out.join(MARKER);
    let mut marker_list = match std::fs::read_to_string(&marker) {
        Ok(text) => read_marker_list(&text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut entries = std::fs::read_dir(out).map_err(io(out, "reading"))?;
            return if entries.next().is_none() {
                Ok(Some(Vec::new()))
            } else {
                Err(OutputError::NotOurs(out.to_owned()))
            };
        }
        Err(e) => return Err(io(&marker, "reading")(e)),
    };
    // Sorted for reuse's lookups; the list a build writes is already.
    if !marker_list.is_sorted() {
        marker_list.sort_unstable();
    }
    Ok(Some(marker_list))
}

/// Refuses `out` where it holds anything its `marker_list` (sorted) does
/// not name, but in the folders `whole` (site paths), which the new site
/// takes as they are: nothing in them is removed, and a release's folder
/// is most of a site of releases (4.5 million of its 5 million files at
/// 100,000 entities), so not looking there is most of the look's time.
fn refuse_foreign(out: &Path, marker_list: &[String], whole: &[String]) -> Result<(), OutputError> {
    let skipped: Vec<&str> = whole.iter().map(String::as_str).collect();
    let outside = outside_of(marker_list, &skipped);
    let listed: HashSet<&str> = outside.iter().copied().collect();
    // The folders holding them, and those above a folder taken whole,
    // which are the site's whatever else they hold.
    let folders = folders_holding(outside.iter().chain(&skipped).copied(), "");
    let skipped: HashSet<&str> = skipped.into_iter().collect();
    let foreign = foreign_in(out, &listed, &folders, &skipped)?;
    match foreign.is_empty() {
        true => Ok(()),
        false => Err(OutputError::Foreign {
            dir: out.to_owned(),
            paths: foreign,
        }),
    }
}

/// The paths of the sorted `marker_list` outside the `folders` (site
/// paths without a trailing `/`): the list less each folder's run of it,
/// found by halving, not by asking each path of each folder.
fn outside_of<'l>(marker_list: &'l [String], folders: &[&str]) -> Vec<&'l str> {
    debug_assert!(folders.is_empty() || marker_list.is_sorted());
    debug_assert!(folders.iter().all(|folder| !folder.ends_with('/')));
    let mut runs: Vec<std::ops::Range<usize>> = folders
        .iter()
        .map(|folder| run_under(marker_list, folder))
        .collect();
    runs.sort_unstable_by_key(|run| run.start);
    let mut outside = Vec::with_capacity(marker_list.len());
    let mut at = 0;
    for run in runs.iter().chain([&(marker_list.len()..marker_list.len())]) {
        if run.start > at {
            outside.extend(marker_list[at..run.start].iter().map(String::as_str));
        }
        at = at.max(run.end);
    }
    outside
}

/// The first paths (in path order) under `out` that are neither `listed`
/// files, its `folders`, nor the marker and record, outside the folders
/// `skipped`. Listed a level at a time, the folders of a level on both
/// cores, in no order: a release's
/// folder holds tens of thousands of names, and sorting each listing (as
/// a sorted walk does, its paths parsed at every comparison) cost more
/// than listing it. A folder that is not ours is named, not entered.
fn foreign_in(
    out: &Path,
    listed: &HashSet<&str>,
    folders: &HashSet<&str>,
    skipped: &HashSet<&str>,
) -> Result<Vec<String>, OutputError> {
    use rayon::prelude::*;
    const SHOWN: usize = 20;
    let mut level = vec![String::new()];
    let mut foreign = Vec::new();
    while !level.is_empty() {
        let found = level
            .par_iter()
            .map(|folder| {
                let dir = out.join(folder);
                let (mut inner, mut strange) = (Vec::new(), Vec::new());
                for entry in std::fs::read_dir(&dir).map_err(io(&dir, "reading"))? {
                    let entry = entry.map_err(io(&dir, "reading"))?;
                    let name = entry.file_name();
                    let relative = site_join(folder, &name.to_string_lossy());
                    // The kind from the folder's listing: no status asked.
                    let is_dir = entry.file_type().is_ok_and(|kind| kind.is_dir());
                    // A folder where the site has a file is not its own
                    // either: removing the site would fail on it.
                    if is_dir {
                        if skipped.contains(relative.as_str()) {
                            continue;
                        }
                        match folders.contains(relative.as_str()) {
                            true => inner.push(relative),
                            false => strange.push(relative),
                        }
                    } else if !(relative == MARKER
                        || relative == RECORD
                        || listed.contains(relative.as_str()))
                    {
                        strange.push(relative);
                    }
                }
                Ok((inner, strange))
            })
            .collect::<Result<Vec<_>, OutputError>>()?;
        level = Vec::new();
        for (inner, strange) in found {
            level.extend(inner);
            foreign.extend(strange);
        }
    }
    foreign.sort_unstable();
    foreign.truncate(SHOWN);
    Ok(foreign)
}

/// The folders holding `paths` (site paths), each once, below `floor`
/// (a folder holding them all, or "" for the site): a folder asked about
/// by going through the whole list was seconds at half a million files.
pub fn folders_holding<'p>(paths: impl Iterator<Item = &'p str>, floor: &str) -> HashSet<&'p str> {
    let mut folders = HashSet::new();
    for path in paths {
        let mut above = path;
        while let Some(end) = above.rfind('/') {
            above = &above[..end];
            // Its own folders are in already.
            if above.len() <= floor.len() || !folders.insert(above) {
                break;
            }
        }
    }
    folders
}

/// Where the paths under `folder` are in the sorted `list`: one run of
/// it, from `folder/` to just before `folder0` ('0' follows '/').
fn run_under(list: &[String], folder: &str) -> std::ops::Range<usize> {
    let (first, after) = (format!("{folder}/"), format!("{folder}0"));
    list.partition_point(|path| *path < first)..list.partition_point(|path| *path < after)
}

/// `name` inside the site's `folder` ("" for the root), as the marker
/// lists paths.
fn site_join(folder: &str, name: &str) -> String {
    match folder {
        "" => name.to_owned(),
        _ => format!("{folder}/{name}"),
    }
}

fn read_marker_list(text: &str) -> Vec<String> {
    text.lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Removes a staging or old directory that an interrupted build left
/// behind, and only one that carries the marker. A staging directory whose
/// marker lists nothing was killed while writing: this process's kind made
/// it from nothing, so all of it goes. One with a full list is a previous
/// site, and only the files it lists go.
fn clear_leftover(dir: &Path) -> Result<(), OutputError> {
    if !dir.exists() {
        return Ok(());
    }
    let marker = dir.join(MARKER);
    let marker_list = match std::fs::read_to_string(&marker) {
        Ok(text) => read_marker_list(&text),
        // A build that died before it could write its marker (no inode
        // left) leaves an empty directory: ontosite's name, nothing in it.
        Err(_) if std::fs::remove_dir(dir).is_ok() => return Ok(()),
        Err(_) => return Err(OutputError::NotOurs(dir.to_owned())),
    };
    if marker_list.is_empty() {
        remove_all_but_marker(dir)?;
        let _ = std::fs::remove_file(&marker);
        std::fs::remove_dir(dir).map_err(io(dir, "removing a leftover directory"))
    } else {
        remove_listed(dir, &marker_list, &[])
    }
}

/// Deletes everything in `dir` but its marker, which goes last: a removal
/// killed half-way (`remove_dir_all` takes entries in directory order, the
/// marker perhaps first) must leave a directory still marked as
/// ontosite's, or the next build would refuse it.
fn remove_all_but_marker(dir: &Path) -> Result<(), OutputError> {
    let entries = std::fs::read_dir(dir).map_err(io(dir, "reading a leftover directory"))?;
    for entry in entries {
        let entry = entry.map_err(io(dir, "reading a leftover directory"))?;
        if entry.file_name() == MARKER {
            continue;
        }
        let path = entry.path();
        let removed = match entry.file_type() {
            Ok(kind) if kind.is_dir() => std::fs::remove_dir_all(&path),
            _ => std::fs::remove_file(&path),
        };
        removed.map_err(io(&path, "removing a leftover directory"))?;
    }
    Ok(())
}

/// Deletes the files `marker_list` lists from `dir`, then the directories left
/// empty, then the marker. A directory that still holds anything is kept.
/// Files inside the folders `moved` (out of `dir`, into the new site) are
/// not looked for.
fn remove_listed(dir: &Path, marker_list: &[String], moved: &[String]) -> Result<(), OutputError> {
    let mut subdirs = std::collections::BTreeSet::new();
    let moved: Vec<&str> = moved.iter().map(String::as_str).collect();
    let listed = outside_of(marker_list, &moved);
    // On both cores: removing a name is the kernel's work on its folder,
    // and the two halves of the list are mostly in different folders.
    use rayon::prelude::*;
    listed.par_iter().try_for_each(|site_path| {
        let path = dir.join(checked(site_path)?);
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io(&path, "removing")(e)),
        }
    })?;
    // A moved folder's parents are left behind, perhaps empty.
    for site_path in listed.into_iter().chain(moved) {
        let mut parent = Path::new(site_path).parent();
        while let Some(p) = parent.filter(|p| !p.as_os_str().is_empty()) {
            if !subdirs.insert(p.to_owned()) {
                break;
            }
            parent = p.parent();
        }
    }
    // Deepest first: a path sorts after its parent, so reverse order works.
    for sub in subdirs.iter().rev() {
        let _ = std::fs::remove_dir(dir.join(sub));
    }
    let _ = std::fs::remove_file(dir.join(RECORD));
    // The marker last: a removal killed before this point leaves a
    // directory that is still recognisably ontosite's, and one killed
    // after it an empty directory.
    let marker = dir.join(MARKER);
    let _ = std::fs::remove_file(&marker);
    std::fs::remove_dir(dir).map_err(io(
        dir,
        "removing the previous site (it holds files ontosite did not write)",
    ))
}

/// Whether `site_path` is a plain relative path inside a site, `/`
/// separated: one the output would write.
pub fn is_site_path(site_path: &str) -> bool {
    checked(site_path).is_ok()
}

/// Checks that `site_path` is a plain relative path: no root, no `..`, no
/// `.`, no empty part. Slugs are already checked; this is the last guard
/// that nothing is written outside the output directory.
fn checked(site_path: &str) -> Result<&Path, OutputError> {
    let path = Path::new(site_path);
    let plain = !site_path.is_empty()
        && !site_path.contains('\\')
        && path.components().all(|c| matches!(c, Component::Normal(_)))
        && site_path
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..");
    if plain {
        Ok(path)
    } else {
        Err(OutputError::OutsideSite(site_path.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> Record {
        Record {
            fingerprint: String::new(),
            entities: 0,
            files: 0,
            bytes: 0,
            measured: String::new(),
        }
    }

    /// A site at `out` of `paths`, each file holding its own path.
    fn site_of(out: &Path, paths: &[&str]) {
        let staging = Staging::begin(out, true).unwrap();
        for path in paths {
            staging.write(path, path.as_bytes()).unwrap();
        }
        let written = paths.iter().map(|p| p.to_string()).collect();
        staging
            .commit(written, &record())
            .unwrap()
            .remove()
            .unwrap();
    }

    fn inode(path: &Path) -> u64 {
        use std::os::unix::fs::MetadataExt;
        std::fs::symlink_metadata(path).unwrap().ino()
    }

    const KEPT: [&str; 2] = ["releases/1/a.json", "releases/1/deeper/b.json"];

    /// `releases/1` adopted as the walk of a release that holds `KEPT`
    /// sees it.
    fn adopt_kept(staging: &mut Staging) -> bool {
        let dirs = ["releases/1".to_owned(), "releases/1/deeper".to_owned()];
        staging.adopt("releases/1/", &dirs, KEPT).unwrap()
    }

    #[test]
    fn a_folder_is_adopted_only_holding_what_the_marker_says_was_written_there() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().canonicalize().unwrap().join("site");
        site_of(&out, &["index.json", KEPT[0], KEPT[1]]);
        let mut staging = Staging::begin(&out, true).unwrap();
        let dirs = ["releases/1".to_owned(), "releases/1/deeper".to_owned()];
        // A file the marker does not list (a list of objects can name
        // what a person put there), one it lists missing, a folder more.
        let more = [KEPT[0], KEPT[1], "releases/1/notes.txt"];
        assert!(!staging.adopt("releases/1", &dirs, more).unwrap());
        assert!(!staging.adopt("releases/1", &dirs, [KEPT[0]]).unwrap());
        let mut extra = dirs.to_vec();
        extra.push("releases/1/empty".to_owned());
        assert!(!staging.adopt("releases/1", &extra, KEPT).unwrap());
        // So the folder is looked through, as any other.
        std::fs::write(out.join("releases/1/notes.txt"), "").unwrap();
        match staging.refuse_foreign() {
            Err(OutputError::Foreign { paths, .. }) => assert_eq!(paths, ["releases/1/notes.txt"]),
            other => panic!("{other:?}"),
        }
        assert!(adopt_kept(&mut staging));
    }

    #[test]
    fn the_output_is_looked_through_for_foreign_files_but_in_folders_taken_whole() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().canonicalize().unwrap().join("site");
        site_of(&out, &["index.json", KEPT[0], KEPT[1], "releases/2/c.json"]);
        let foreign = |staging: Result<(), OutputError>| match staging {
            Err(OutputError::Foreign { paths, .. }) => paths,
            other => panic!("{other:?}"),
        };
        // In a folder taken whole: moved along, never removed, not looked at.
        std::fs::write(out.join("releases/1/deeper/mine.txt"), "").unwrap();
        let mut staging = Staging::begin(&out, true).unwrap();
        assert!(adopt_kept(&mut staging));
        staging.refuse_foreign().unwrap();
        drop(staging);
        // In a folder not taken whole, or above one: refused, named.
        std::fs::write(out.join("releases/2/theirs.txt"), "").unwrap();
        std::fs::write(out.join("releases/stray.txt"), "").unwrap();
        let mut staging = Staging::begin(&out, true).unwrap();
        assert!(adopt_kept(&mut staging));
        assert_eq!(
            foreign(staging.refuse_foreign()),
            ["releases/2/theirs.txt", "releases/stray.txt"]
        );
        drop(staging);
        // A swap not looked through first looks through then.
        std::fs::remove_file(out.join("releases/stray.txt")).unwrap();
        let mut staging = Staging::begin(&out, true).unwrap();
        assert!(adopt_kept(&mut staging));
        staging.write("index.json", b"new").unwrap();
        let written = vec![KEPT[0].into(), KEPT[1].into(), "index.json".into()];
        assert_eq!(
            foreign(staging.commit(written, &record()).map(|_| ())),
            ["releases/2/theirs.txt"]
        );
        assert_eq!(
            std::fs::read(out.join("index.json")).unwrap(),
            b"index.json"
        );
        assert!(out.join("releases/1/deeper/mine.txt").exists());
    }

    #[test]
    fn an_adopted_folder_is_moved_into_the_new_site_whole() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        site_of(&out, &["index.json", KEPT[0], KEPT[1]]);
        let folder = inode(&out.join("releases/1"));
        let mut staging = Staging::begin(&out, true).unwrap();
        assert!(adopt_kept(&mut staging));
        staging.write("index.json", b"new").unwrap();
        staging.write("releases/index.json", b"list").unwrap();
        let mut written: Vec<String> = KEPT.iter().map(|p| p.to_string()).collect();
        written.extend(["index.json".into(), "releases/index.json".into()]);
        staging
            .commit(written, &record())
            .unwrap()
            .remove()
            .unwrap();
        // The same folder, not a copy of it, and the replaced site gone
        // without taking it along.
        assert_eq!(inode(&out.join("releases/1")), folder);
        for path in KEPT {
            assert_eq!(std::fs::read(out.join(path)).unwrap(), path.as_bytes());
        }
        assert_eq!(std::fs::read(out.join("index.json")).unwrap(), b"new");
        let beside: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(beside, ["site"], "left beside the site");
        // Its files are the site's, listed: the next build replaces it.
        site_of(&out, &["index.json"]);
        assert!(!out.join("releases").exists());
    }

    #[test]
    fn a_build_stopped_between_its_moves_and_its_swap_gives_the_folders_back() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        site_of(&out, &["index.json", KEPT[0], KEPT[1]]);
        // What a build killed just before its swap leaves: its staging
        // directory, marked and listing the moved files, holding them.
        let staging = sibling(&out, "staging");
        std::fs::create_dir_all(staging.join("releases")).unwrap();
        let listed = format!("{MARKER_HEADER}index.json\n{}\n{}\n", KEPT[0], KEPT[1]);
        std::fs::write(staging.join(MARKER), listed).unwrap();
        std::fs::write(staging.join("index.json"), "new").unwrap();
        let moved = adopt::move_in(&out, &staging, &["releases/1".into()]).unwrap();
        assert!(!out.join(KEPT[0]).exists());
        drop(moved);
        // The next build puts them back before it clears the staging.
        let next = Staging::begin(&out, true).unwrap();
        drop(next);
        for path in KEPT {
            assert_eq!(std::fs::read(out.join(path)).unwrap(), path.as_bytes());
        }
        assert!(!staging.exists());
        assert!(!sibling(&out, "adopting").exists());
    }

    #[test]
    fn kept_releases_not_put_back_after_a_swap_that_left_the_site_aside_say_both() {
        let out = PathBuf::from("/srv/site");
        let aside = sibling(&out, "old");
        let error = OutputError::NotPutBack {
            failed: Box::new(OutputError::SiteAside {
                out: out.clone(),
                aside: aside.clone(),
                new: std::io::ErrorKind::StorageFull.into(),
                back: std::io::ErrorKind::PermissionDenied.into(),
            }),
            home: out.join("releases/1"),
            back: std::io::ErrorKind::PermissionDenied.into(),
            journal: sibling(&out, "journal"),
            staging: sibling(&out, "staging"),
        };
        let text = error.to_string();
        assert!(text.contains("putting the previous site back"), "{text}");
        assert!(text.contains("moving the kept release back"), "{text}");
        let help = text.split_once("help: ").expect(&text).1;
        assert!(
            help.starts_with(&format!(
                "the previous site is set aside at `{}`",
                aside.display()
            )),
            "{text}"
        );
        assert!(help.contains("without the kept releases"), "{text}");
        assert!(help.contains("puts it and them back"), "{text}");
        assert_eq!(text.matches("help:").count(), 1, "{text}");
    }

    #[test]
    fn a_swap_stopped_between_its_two_renames_puts_the_previous_site_back() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        site_of(&out, &["index.json", KEPT[0]]);
        // A swap that cannot exchange, killed after moving the site aside:
        // the new site still staged.
        let staging = sibling(&out, "staging");
        std::fs::create_dir(&staging).unwrap();
        std::fs::write(staging.join(MARKER), MARKER_HEADER).unwrap();
        std::fs::rename(&out, sibling(&out, "old")).unwrap();
        assert!(swap::was_stopped(&out));
        drop(Staging::begin(&out, true).unwrap());
        assert_eq!(
            std::fs::read(out.join(KEPT[0])).unwrap(),
            KEPT[0].as_bytes()
        );
        assert!(!sibling(&out, "old").exists());
        // A replaced site aside alone (its removal stopped, the site since
        // deleted by hand) is not put back.
        std::fs::rename(&out, sibling(&out, "old")).unwrap();
        assert!(!swap::was_stopped(&out));
        drop(Staging::begin(&out, true).unwrap());
        assert!(!out.exists());
    }

    #[test]
    fn a_site_held_for_a_publish_is_not_built_into() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        site_of(&out, &["index.json"]);
        let held = hold(&out).unwrap();
        assert!(held.is_some());
        assert!(matches!(
            Staging::begin(&out, true),
            Err(OutputError::Busy { .. })
        ));
        drop(held);
        site_of(&out, &["index.json"]);
        // Nothing there, nothing held.
        assert!(hold(&dir.path().join("none/site")).unwrap().is_none());
    }

    #[test]
    fn an_incomplete_site_that_cannot_be_locked_is_not_held() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        site_of(&out, &["index.json"]);
        // The lock cannot be made: its path leads nowhere (which stops
        // root too, as a read-only folder would not) ...
        std::os::unix::fs::symlink(dir.path().join("nowhere/lock"), sibling(&out, "lock")).unwrap();
        assert!(hold(&out).unwrap().is_none());
        // ... and a build was stopped between the two renames of its swap.
        let staging = sibling(&out, "staging");
        std::fs::create_dir(&staging).unwrap();
        std::fs::write(staging.join(MARKER), MARKER_HEADER).unwrap();
        std::fs::rename(&out, sibling(&out, "old")).unwrap();
        match hold(&out) {
            Err(OutputError::Incomplete(site)) => assert_eq!(site, out),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_staging_directory_holding_folders_not_moved_back_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        // Canonical: the build resolves the path it is given.
        let out = dir.path().canonicalize().unwrap().join("site");
        site_of(&out, &["index.json", KEPT[0], KEPT[1]]);
        let mut staging = Staging::begin(&out, true).unwrap();
        assert!(adopt_kept(&mut staging));
        let moved = adopt::move_in(&out, &staging.dir, &staging.adopted).unwrap();
        // Say the previous site could not take it back: a folder of that
        // name, not empty, there again.
        std::fs::create_dir_all(out.join("releases/1")).unwrap();
        std::fs::write(out.join("releases/1/other"), "").unwrap();
        let failed = io(Path::new("new"), "the swap")(std::io::ErrorKind::StorageFull.into());
        let error = moved.undo(failed);
        // The first error's cause, without its help: the previous site is
        // not unchanged now.
        let text = error.to_string();
        assert!(text.starts_with("`new`: the swap failed: "), "{text}");
        assert!(!text.contains("previous site is unchanged"), "{text}");
        assert_eq!(text.matches("help:").count(), 1, "{text}");
        assert!(text.contains("moving the kept release back"), "{text}");
        match error {
            OutputError::NotPutBack {
                failed,
                home,
                journal,
                ..
            } => {
                assert!(matches!(*failed, OutputError::Io { .. }));
                assert_eq!(home, out.join("releases/1"));
                // Kept, for the next build to try again.
                assert!(journal.exists());
            }
            other => panic!("{other:?}"),
        }
        let kept = staging.dir.join(KEPT[1]);
        drop(staging);
        assert!(kept.exists(), "removed with the staging directory");
        // Nor does the next build take either for its own to clear: it
        // names both.
        match Staging::begin(&out, true) {
            Err(OutputError::TwoCopies {
                folder,
                moved,
                home,
            }) => {
                assert_eq!(folder, "releases/1");
                assert_eq!(moved, sibling(&out, "staging").join("releases/1"));
                assert_eq!(home, out.join("releases/1"));
            }
            other => panic!("{other:?}"),
        }
        assert!(kept.exists());
    }

    #[test]
    fn a_build_stopped_after_its_swap_moves_nothing_back() {
        let dir = tempfile::tempdir().unwrap();
        let (out, staging) = (dir.path().join("out"), dir.path().join("staging"));
        for path in KEPT {
            let path = out.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "kept").unwrap();
        }
        std::fs::create_dir_all(staging.join("releases")).unwrap();
        let moved = adopt::move_in(&out, &staging, &["releases/1".into()]).unwrap();
        // The swap: the new site, holding the folder, where the old was.
        let old = dir.path().join("old");
        std::fs::rename(&out, &old).unwrap();
        std::fs::rename(&staging, &out).unwrap();
        std::fs::rename(&old, &staging).unwrap();
        drop(moved);
        adopt::recover(&out, &staging).unwrap();
        assert!(out.join(KEPT[1]).exists());
        assert!(!staging.join("releases/1").exists());
        assert!(!sibling(&out, "adopting").exists());
        // A folder of that name in both is left for a person.
        let again = adopt::move_in(&out, &staging, &["releases/1".into()]).unwrap();
        std::fs::create_dir_all(out.join("releases/1")).unwrap();
        drop(again);
        assert!(adopt::recover(&out, &staging).is_err());
        assert!(staging.join(KEPT[1]).exists());
    }

    #[test]
    fn only_plain_relative_paths_are_written() {
        for good in ["a.json", "functions/search.js", "_headers"] {
            assert!(checked(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../../x",
            "a//b",
            "./a",
            "a\\b",
            "a/.",
        ] {
            assert!(checked(bad).is_err(), "{bad}");
        }
    }
}
