//! What a publish does, worked out before anything is sent: the site's
//! objects with their content hashes, what the last publish wrote (its
//! record, an object under the prefix), and the steps between them in the
//! order that keeps what readers see whole.

use crate::site::{bundles, files, routes};
use itertools::{EitherOrBoth, Itertools};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::record::{Published, RECORD, RecordReader};
pub use crate::output::objects::Object;

/// The site's objects: every file a host publishes (not the build's own
/// files, not the host-only ones), in path order, with its hash. The hash
/// is the build's (`output::objects`), and so are its chunks where it
/// lists them, where the file is as the build left it, by its size and
/// its date (not after the list's own); any other file is read and
/// hashed.
pub fn objects(site: &Path) -> Result<Vec<Object>, (PathBuf, std::io::Error)> {
    // The build's list is read beside the walk, which keeps one core busy.
    let (built, found) = std::thread::scope(|scope| {
        let built = scope.spawn(|| built_objects(site));
        let found = walk(site);
        // A list that cannot be read is no list: every file is hashed.
        (built.join().ok().flatten(), found)
    });
    hashed(found?, built)
}

/// Every file a host publishes under `site`, as `(path, file)`.
fn walk(site: &Path) -> Result<Vec<(String, PathBuf)>, (PathBuf, std::io::Error)> {
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    for entry in walkdir::WalkDir::new(site) {
        let failed = |e: walkdir::Error| {
            let path = e.path().unwrap_or(site).to_owned();
            (path, std::io::Error::other(e))
        };
        let entry = entry.map_err(failed)?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(site).unwrap_or(entry.path());
        let Some(path) = relative
            .to_str()
            .map(|p| p.replace(std::path::MAIN_SEPARATOR, "/"))
        else {
            let why = "its name is not UTF-8, which no object key can hold";
            return Err((entry.path().to_owned(), std::io::Error::other(why)));
        };
        if !routes::is_private(&format!("/{path}")) {
            found.push((path, entry.into_path()));
        }
    }
    Ok(found)
}

/// The site's objects `(path, file)`, in path order, with their
/// statuses and hashes: the build's where a file is as it left it
/// (`built`), else read.
fn hashed(
    mut found: Vec<(String, PathBuf)>,
    built: Option<(BTreeMap<String, Object>, std::time::SystemTime)>,
) -> Result<Vec<Object>, (PathBuf, std::io::Error)> {
    found.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    // Each file beside its entry in the build's list, both in path order:
    // one pass, not a search of the list per file (such searches, here and
    // in `Plan::of`, were a fifth of a publish that sends nothing).
    let (listed, built) = match built {
        Some((objects, listed)) => (Some(listed), objects),
        None => (None, BTreeMap::new()),
    };
    let found: Vec<(String, PathBuf, Option<Object>)> = found
        .into_iter()
        .merge_join_by(built, |(path, _), (listed, _)| path.cmp(listed))
        .filter_map(|pair| match pair {
            EitherOrBoth::Both((path, file), (_, object)) => Some((path, file, Some(object))),
            EitherOrBoth::Left((path, file)) => Some((path, file, None)),
            EitherOrBoth::Right(_) => None,
        })
        .collect();
    // Each file's status asked on both cores, not in the walk: at half a
    // million files the calls to the kernel are most of a publish that
    // sends nothing.
    found
        .into_par_iter()
        .map(|(path, file, entry)| {
            let metadata = std::fs::symlink_metadata(&file).map_err(|e| (file.clone(), e))?;
            let bytes = metadata.len();
            let as_built = entry.zip(listed).and_then(|(object, listed)| {
                let unchanged =
                    object.bytes == bytes && metadata.modified().is_ok_and(|date| date <= listed);
                unchanged.then_some(object)
            });
            match as_built {
                // With the build's chunks; nothing of a store.
                Some(object) => Ok(Object {
                    e_tag: None,
                    ..object
                }),
                None => {
                    let mut hasher = blake3::Hasher::new();
                    std::fs::File::open(&file)
                        .and_then(|opened| hasher.update_reader(opened).map(drop))
                        .map_err(|e| (file.clone(), e))?;
                    let hash = hasher.finalize().to_hex().to_string();
                    Ok(Object::new(path, hash, bytes))
                }
            }
        })
        .collect()
}

/// The build's list of the site's objects, and when it was written; none
/// where the site has none or it cannot be read (every file is then
/// hashed). Read a piece at a time: at a million entities the list is
/// half a gigabyte.
fn built_objects(site: &Path) -> Option<(BTreeMap<String, Object>, std::time::SystemTime)> {
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
    let objects = reader.finish().ok()?.entries.into_iter();
    Some((objects.filter_map(|(p, o)| Some((p, o?))).collect(), listed))
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
            .merge_join_by(recorded, |object, (path, _)| object.path.cmp(path))
        {
            match pair {
                EitherOrBoth::Right((gone, _)) => plan.removed.push(gone.clone()),
                EitherOrBoth::Both(object, (_, recorded)) if recorded.same_content(object) => {
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
        // The search manifest as a script, for pages opened from disk.
        let manifest_script = format!("{}search-index.js", files::SEARCH_SCRIPTS);
        if LOADED.contains(&path) {
            Step::Loaded
        } else if files::SITE_WIDE.contains(&path)
            || path == bundles::MANIFEST
            || path == manifest_script
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
        && !routes::is_private(&format!("/{path}"))
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
        let found = objects(dir.path()).unwrap();
        assert_eq!(found[0].hash, "listed");
        assert_eq!(found[1].hash, blake3::hash(b"bbbb").to_hex().to_string());
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
        let paths: Vec<String> = objects(dir.path())
            .unwrap()
            .into_iter()
            .map(|o| o.path)
            .collect();
        assert_eq!(paths, ["a.json", "ui/s.css"]);
    }
}
