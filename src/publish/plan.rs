//! What a publish does, worked out before anything is sent: the site's
//! objects with their content hashes, what the last publish wrote (its
//! record, an object under the prefix), and the steps between them in the
//! order that keeps what readers see whole.

use crate::site::{bundles, files, routes};
use itertools::{EitherOrBoth, Itertools};
use rayon::prelude::*;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::record::{Entry, Published, RECORD, RecordReader};
pub use crate::output::objects::Object;

/// The site's objects: every file a host publishes (not the build's own
/// files, not the host-only ones), in path order, with its hash. The hash
/// is the build's (`output::objects`), and so are its chunks where it
/// lists them, where the file is as the build left it, by its size and
/// its date (not after the list's own); any other file is read and
/// hashed.
pub fn objects(site: &Path) -> Result<Site, (PathBuf, std::io::Error)> {
    // The build's list is read beside the walk.
    let (built, found) = std::thread::scope(|scope| {
        let built = scope.spawn(|| built_objects(site));
        let found = walk(site);
        // A list that cannot be read is no list: every file is hashed.
        (built.join().ok().flatten(), found)
    });
    hashed(site, found?, built)
}

/// The site's objects, and how the walk saw each file whose chunks the
/// build listed: those chunks are its bytes' only while the file is the
/// one the walk saw, unchanged (a build may swap a new site in while a
/// publish runs, or a hand edit a file).
#[derive(Debug, Default)]
pub struct Site {
    pub objects: Vec<Object>,
    pub seen: std::collections::HashMap<String, Seen>,
}

/// A file as one status of it says: which file (device and inode) and in
/// what state (size, modification and change times, to the nanosecond).
/// Two equal are the same file, unchanged, but for a write of the same
/// size within one tick of the file system's clock, or under a clock set
/// back (which the hashes the build listed trust too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    device: u64,
    inode: u64,
    bytes: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl Seen {
    // A status's fields are of other types on other platforms.
    #[allow(clippy::unnecessary_cast)]
    fn of_status(status: &rustix::fs::Stat) -> Seen {
        Seen {
            device: status.st_dev as u64,
            inode: status.st_ino as u64,
            bytes: status.st_size as u64,
            modified: (status.st_mtime as i64, status.st_mtime_nsec as i64),
            changed: (status.st_ctime as i64, status.st_ctime_nsec as i64),
        }
    }

    /// How `metadata` (of a file, not followed through a link) sees it.
    pub fn of_metadata(metadata: &std::fs::Metadata) -> Seen {
        use std::os::unix::fs::MetadataExt;
        Seen {
            device: metadata.dev(),
            inode: metadata.ino(),
            bytes: metadata.size(),
            modified: (metadata.mtime(), metadata.mtime_nsec()),
            changed: (metadata.ctime(), metadata.ctime_nsec()),
        }
    }
}

/// A file of the site as the walk found it: its path from the site's
/// root, `/`-separated, and its status.
struct Found {
    path: String,
    seen: Seen,
}

impl Found {
    fn modified(&self) -> Option<std::time::SystemTime> {
        let (seconds, nanos) = self.seen.modified;
        let seconds = u64::try_from(seconds).ok()?;
        let nanos = u32::try_from(nanos).ok()?;
        Some(std::time::UNIX_EPOCH + std::time::Duration::new(seconds, nanos))
    }
}

/// Every file a host publishes under `site`, with its status, in no
/// order. Each folder is read once, opened relative to its parent, and
/// each file's status asked relative to its folder, in parallel: at half
/// a million files these calls to the kernel were most of a publish that
/// sends nothing, and a whole path looked up again for each was a third
/// of them. Links are not followed, and no file but a regular one is
/// published.
fn walk(site: &Path) -> Result<Vec<Found>, (PathBuf, std::io::Error)> {
    use rustix::fs::{Mode, OFlags};
    let opened = rustix::fs::open(
        site,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| (site.to_owned(), e.into()))?;
    walk_folder(site, opened, "")
}

/// The files under the open folder `folder`, whose path from the site's
/// root is `prefix` (empty, or ending in `/`).
fn walk_folder(
    site: &Path,
    folder: rustix::fd::OwnedFd,
    prefix: &str,
) -> Result<Vec<Found>, (PathBuf, std::io::Error)> {
    use rustix::fs::{AtFlags, FileType, Mode, OFlags};
    let failed =
        |name: &str, e: rustix::io::Errno| (site.join(format!("{prefix}{name}")), e.into());
    let mut names: Vec<(String, FileType)> = Vec::new();
    let entries = rustix::fs::Dir::read_from(&folder).map_err(|e| failed("", e))?;
    for entry in entries {
        let entry = entry.map_err(|e| failed("", e))?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        let Ok(name) = std::str::from_utf8(name) else {
            let path = site.join(prefix).join(std::ffi::OsStr::from_bytes(name));
            let why = "its name is not UTF-8, which no object key can hold";
            return Err((path, std::io::Error::other(why)));
        };
        if name.chars().any(char::is_control) {
            // Escaped in the path shown, which a terminal would act on.
            let path = site.join(prefix).join(name.escape_debug().to_string());
            let why = "its name holds a control character, which no object key can hold";
            return Err((path, std::io::Error::other(why)));
        }
        names.push((name.to_owned(), entry.file_type()));
    }
    let found: Vec<Vec<Found>> = names
        .into_par_iter()
        .map(|(name, kind)| {
            let path = format!("{prefix}{name}");
            // The type the folder names, or, where it names none, the
            // status's; asked once for a file either way.
            let status = match kind {
                FileType::Directory | FileType::Symlink => None,
                _ => Some(
                    rustix::fs::statat(&folder, name.as_str(), AtFlags::SYMLINK_NOFOLLOW)
                        .map_err(|e| failed(&name, e))?,
                ),
            };
            let kind = status
                .as_ref()
                .map_or(kind, |status| FileType::from_raw_mode(status.st_mode));
            match (kind, status) {
                (FileType::Directory, _) => {
                    let inner = rustix::fs::openat(
                        &folder,
                        name.as_str(),
                        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NOFOLLOW,
                        Mode::empty(),
                    )
                    .map_err(|e| failed(&name, e))?;
                    walk_folder(site, inner, &format!("{path}/"))
                }
                (FileType::RegularFile, Some(status)) if !routes::is_private_file(&path) => {
                    let seen = Seen::of_status(&status);
                    Ok(vec![Found { path, seen }])
                }
                _ => Ok(Vec::new()),
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(found.into_iter().flatten().collect())
}

/// The site's objects found, in path order, with their hashes: the
/// build's where a file is as it left it (`built`, in path order), else
/// read (under `root`, the site); and with the build's chunks where they
/// cover the file.
fn hashed(
    root: &Path,
    mut found: Vec<Found>,
    built: Option<(Vec<Object>, std::time::SystemTime)>,
) -> Result<Site, (PathBuf, std::io::Error)> {
    found.par_sort_unstable_by(|a, b| a.path.cmp(&b.path));
    // Each file beside its entry in the build's list, both in path order:
    // one pass, not a search of the list per file (such searches, here and
    // in `Plan::of`, were a fifth of a publish that sends nothing).
    let (listed, built) = match built {
        Some((objects, listed)) => (Some(listed), objects),
        None => (None, Vec::new()),
    };
    let mut site = Site {
        objects: Vec::with_capacity(found.len()),
        seen: std::collections::HashMap::new(),
    };
    // The files not as the build left them, by their place among the
    // objects: read and hashed after, in parallel.
    let mut unread: Vec<usize> = Vec::new();
    let pairs = found
        .into_iter()
        .merge_join_by(built, |found, object| found.path.cmp(&object.path));
    for pair in pairs {
        let (found, entry) = match pair {
            EitherOrBoth::Both(found, object) => (found, Some(object)),
            EitherOrBoth::Left(found) => (found, None),
            EitherOrBoth::Right(_) => continue,
        };
        let as_built = entry.filter(|object| {
            object.bytes == found.seen.bytes
                && listed.is_some_and(|listed| found.modified().is_some_and(|d| d <= listed))
        });
        match as_built {
            // With the build's chunks where they cover it; nothing of a
            // store.
            Some(object) => {
                let covered = crate::output::chunks::covers(&object.chunks, object.bytes);
                if covered {
                    site.seen.insert(object.path.clone(), found.seen);
                }
                let chunks = if covered { object.chunks } else { Vec::new() };
                site.objects.push(Object {
                    e_tag: None,
                    chunks,
                    ..object
                });
            }
            None => {
                unread.push(site.objects.len());
                let object = Object::new(found.path, String::new(), found.seen.bytes);
                site.objects.push(object);
            }
        }
    }
    let hashes: Vec<(usize, String)> = unread
        .into_par_iter()
        .map(|at| {
            let file = root.join(&site.objects[at].path);
            let (hash, _) = crate::output::objects::hash_file(&file).map_err(|e| (file, e))?;
            Ok((at, hash))
        })
        .collect::<Result<_, _>>()?;
    for (at, hash) in hashes {
        site.objects[at].hash = hash;
    }
    Ok(site)
}

/// The build's list of the site's objects, in path order, and when it
/// was written; none where the site has none or it cannot be read (every
/// file is then hashed). Read a piece at a time: at a million entities
/// the list is half a gigabyte.
fn built_objects(site: &Path) -> Option<(Vec<Object>, std::time::SystemTime)> {
    use std::io::Read;
    let path = site.join(crate::output::objects::OBJECTS);
    let mut file = std::fs::File::open(&path).ok()?;
    let listed = file.metadata().ok()?.modified().ok()?;
    let mut reader = RecordReader::head();
    let mut piece = vec![0; 1 << 20];
    loop {
        match file.read(&mut piece).ok()? {
            0 => break,
            read => reader.feed(&piece[..read]).ok()?,
        }
    }
    let entries = reader.finish().ok()?.entries.into_iter();
    Some((entries.filter_map(Entry::into_object).collect(), listed))
}

/// A publish's steps, in order: `first` the new and changed objects other
/// documents load (the JSON-LD contexts, the page style and scripts, the
/// search client), then `next` the documents themselves (entities,
/// bundles, pages, search files, parts), then `last` the documents that
/// list the others (the information document, the lists, the dumps, the
/// search and bundles manifests, the front pages), then the record, then
/// `removed`, the objects the last publish recorded that the site no
/// longer has. Each object is replaced whole; a reader in between may
/// page through a list whose pages are already new.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub first: Vec<Object>,
    pub next: Vec<Object>,
    pub last: Vec<Object>,
    /// How many objects are as the last publish wrote them.
    pub kept: usize,
    pub removed: Vec<String>,
}

impl Plan {
    /// The steps from `published` to the site's `objects`, which must be
    /// in path order, each path once, as `objects` gives them: the two are
    /// walked side by side, in one pass. (Out of order, a path would be
    /// both sent and removed.)
    pub fn of(objects: &[Object], published: &Published) -> Plan {
        debug_assert!(objects.windows(2).all(|w| w[0].path < w[1].path));
        let mut plan = Plan::default();
        let recorded = &published.objects;
        for pair in objects
            .iter()
            .merge_join_by(recorded, |object, recorded| object.path.cmp(&recorded.path))
        {
            match pair {
                EitherOrBoth::Right(gone) => plan.removed.push(gone.path.clone()),
                EitherOrBoth::Both(object, recorded) if recorded.same_content(object) => {
                    plan.kept += 1
                }
                EitherOrBoth::Both(object, _) | EitherOrBoth::Left(object) => {
                    match Step::of(&object.path) {
                        Step::Loaded => &mut plan.first,
                        Step::Document => &mut plan.next,
                        Step::Listing => &mut plan.last,
                    }
                    .push(object.clone())
                }
            }
        }
        plan
    }

    /// The objects to upload, in order.
    pub fn uploads(&self) -> impl Iterator<Item = &Object> {
        self.first.iter().chain(&self.next).chain(&self.last)
    }

    /// The uploads in their three steps.
    pub fn steps(&self) -> [&[Object]; 3] {
        [&self.first, &self.next, &self.last]
    }

    pub fn is_empty(&self) -> bool {
        self.uploads().next().is_none() && self.removed.is_empty()
    }
}

/// When an object is sent, by what it is to the others.
enum Step {
    /// Loaded by other documents: sent first.
    Loaded,
    Document,
    /// Lists or links the others: sent last.
    Listing,
}

impl Step {
    fn of(path: &str) -> Step {
        const LOADED: [&str; 5] = [
            files::CONTEXT,
            files::JSON_CONTEXT,
            files::STYLESHEET,
            files::PAGE_SCRIPT,
            files::SEARCH_CLIENT,
        ];
        if LOADED.contains(&path) {
            Step::Loaded
        } else if files::SITE_WIDE.contains(&path)
            || path == bundles::MANIFEST
            || path == files::SEARCH_INDEX_SCRIPT
        {
            Step::Listing
        } else {
            Step::Document
        }
    }
}

/// Whether `path` is one a site's file can have, as a key: relative,
/// without empty, `.` or `..` segments, not private, not the record.
pub fn is_site_path(path: &str) -> bool {
    !path.is_empty()
        && path != RECORD
        && path
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != "..")
        && !path.chars().any(char::is_control)
        && !routes::is_private_file(path)
}

#[cfg(test)]
mod tests {
    use super::super::record::testing::object;
    use super::*;

    fn record_of(objects: &[Object]) -> Published {
        Published::parse(&crate::output::objects::render(objects)).unwrap()
    }

    #[test]
    fn only_what_changed_is_sent_the_lists_after_what_they_list() {
        let before = [
            object("a.json", "1"),
            object("b.json", "1"),
            object("index.json", "1"),
            object("gone.json", "1"),
        ];
        let published = record_of(&before);
        assert_eq!(published.objects.len(), 4);
        let now = [
            object("a.json", "1"),
            object("b.json", "2"),
            object("c.json", "1"),
            object("index.json", "2"),
        ];
        let plan = Plan::of(&now, &published);
        assert_eq!(plan.kept, 1);
        assert_eq!(plan.next, [object("b.json", "2"), object("c.json", "1")]);
        assert_eq!(plan.last, [object("index.json", "2")]);
        let loaded = Plan::of(&[object("context.jsonld", "1")], &Published::default());
        assert_eq!(loaded.first, [object("context.jsonld", "1")]);
        assert_eq!(plan.removed, ["gone.json"]);
        assert!(Plan::of(&now, &record_of(&now)).is_empty());
    }

    /// Removed paths before the first object, between and after the
    /// last, and a folder's files beside a file of its name (`a/b` sorts
    /// after `a.json`): each kept, sent or removed once.
    #[test]
    fn the_site_and_the_record_are_compared_path_by_path() {
        let published = record_of(&[
            object("0.json", "1"),
            object("a.json", "1"),
            object("a/b.json", "1"),
            object("a/c.json", "1"),
            object("z.json", "1"),
        ]);
        let now = [
            object("a.json", "1"),
            object("a/b.json", "2"),
            object("a/bb.json", "1"),
            object("b.json", "1"),
        ];
        let plan = Plan::of(&now, &published);
        assert_eq!(plan.kept, 1);
        let sent: Vec<&str> = plan.uploads().map(|o| o.path.as_str()).collect();
        assert_eq!(sent, ["a/b.json", "a/bb.json", "b.json"]);
        assert_eq!(plan.removed, ["0.json", "a/c.json", "z.json"]);
    }

    /// A file as the build left it takes the hash the build listed for
    /// it, unread; a file changed after the list is read and hashed.
    #[test]
    fn the_build_s_list_gives_the_hashes_of_files_it_wrote() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), "aaaa").unwrap();
        std::fs::write(dir.path().join("b.json"), "bbbb").unwrap();
        let listed = [
            Object::new("a.json".to_owned(), "listed".to_owned(), 4),
            Object::new("b.json".to_owned(), "listed".to_owned(), 4),
        ];
        let list = dir.path().join(crate::output::objects::OBJECTS);
        std::fs::create_dir_all(list.parent().unwrap()).unwrap();
        std::fs::write(&list, crate::output::objects::render(&listed)).unwrap();
        // Edited by hand after the build: a later date than the list's.
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        let edited = std::fs::File::options()
            .write(true)
            .open(dir.path().join("b.json"))
            .unwrap();
        edited.set_modified(later).unwrap();
        let found = objects(dir.path()).unwrap().objects;
        assert_eq!(found[0].hash, "listed");
        assert_eq!(found[1].hash, blake3::hash(b"bbbb").to_hex().to_string());
    }

    /// The build's chunks go with the file the walk saw: one put in its
    /// place (as a build swapping a new site in does), of the same size
    /// and with its date set back, is not seen as it; nor are chunks that
    /// do not cover the file listed.
    #[test]
    fn the_build_s_chunks_go_with_the_file_the_walk_saw() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("all");
        std::fs::write(&file, "aaaa").unwrap();
        let chunk = |at, bytes| crate::output::objects::Chunk {
            at,
            bytes,
            hash: "h".to_owned(),
        };
        let mut listed = Object::new("all".to_owned(), "listed".to_owned(), 4);
        listed.chunks = vec![chunk(0, 2), chunk(2, 2)];
        let mut short = Object::new("b".to_owned(), "listed".to_owned(), 4);
        short.chunks = vec![chunk(0, 2)];
        std::fs::write(dir.path().join("b"), "bbbb").unwrap();
        let list = dir.path().join(crate::output::objects::OBJECTS);
        std::fs::write(&list, crate::output::objects::render(&[&listed, &short])).unwrap();
        let site = objects(dir.path()).unwrap();
        assert_eq!(site.objects[0].chunks, listed.chunks);
        assert!(site.objects[1].chunks.is_empty());
        assert_eq!(site.seen.len(), 1);
        let walked = site.seen["all"];
        let then = std::fs::metadata(&file).unwrap().modified().unwrap();
        let stand_in = dir.path().join("stand-in");
        std::fs::write(&stand_in, "cccc").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&stand_in)
            .unwrap()
            .set_modified(then)
            .unwrap();
        std::fs::rename(&stand_in, &file).unwrap();
        let now = Seen::of_metadata(&std::fs::symlink_metadata(&file).unwrap());
        assert_ne!(now, walked);
    }

    #[test]
    fn the_site_s_objects_leave_out_what_no_host_publishes() {
        let dir = tempfile::tempdir().unwrap();
        for file in [
            "a.json",
            "_headers",
            ".ontosite-record",
            "_edge/x.js",
            "ui/s.css",
        ] {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, file).unwrap();
        }
        // Links are no files of the site: neither followed nor sent.
        std::os::unix::fs::symlink(dir.path().join("a.json"), dir.path().join("l.json")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("ui"), dir.path().join("v")).unwrap();
        let paths: Vec<String> = objects(dir.path())
            .unwrap()
            .objects
            .into_iter()
            .map(|o| o.path)
            .collect();
        assert_eq!(paths, ["a.json", "ui/s.css"]);
    }
}
