//! What a publish does, worked out before anything is sent: the site's
//! objects with their content hashes, what the last publish wrote (its
//! record, an object under the prefix), and the steps between them in the
//! order that keeps what readers see whole.

use crate::site::{bundles, files, routes};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The record of what the last publish wrote, under the prefix: one JSON
/// line per object, `{"path", "hash", "bytes"}`, in path order. A leading
/// `.`: no site file has the name, and no host publishes it.
pub const RECORD: &str = ".ontosite-publish.jsonl";

pub use crate::output::objects::Object;

/// The site's objects: every file a host publishes (not the build's own
/// files, not the host-only ones), in path order, with its hash. The hash
/// is the build's (`output::objects`) where the file is as the build left
/// it, by its size and its date (not after the list's own); any other
/// file is read and hashed.
pub fn objects(site: &Path) -> Result<Vec<Object>, (PathBuf, std::io::Error)> {
    let built = built_objects(site);
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
    found.sort_by(|a, b| a.0.cmp(&b.0));
    // Each file's status asked on both cores, not in the walk: at half a
    // million files the calls to the kernel are most of a publish that
    // sends nothing.
    found
        .into_par_iter()
        .map(|(path, file)| {
            let metadata = std::fs::symlink_metadata(&file).map_err(|e| (file.clone(), e))?;
            let bytes = metadata.len();
            let as_built = built.as_ref().and_then(|(objects, listed)| {
                let object = objects.get(&path)?;
                let unchanged =
                    object.bytes == bytes && metadata.modified().is_ok_and(|date| date <= *listed);
                unchanged.then(|| object.hash.clone())
            });
            let hash = match as_built {
                Some(hash) => hash,
                None => {
                    let mut hasher = blake3::Hasher::new();
                    std::fs::File::open(&file)
                        .and_then(|opened| hasher.update_reader(opened).map(drop))
                        .map_err(|e| (file.clone(), e))?;
                    hasher.finalize().to_hex().to_string()
                }
            };
            Ok(Object { path, hash, bytes })
        })
        .collect()
}

/// The build's list of the site's objects, and when it was written; none
/// where the site has none or it cannot be read (every file is then
/// hashed).
fn built_objects(site: &Path) -> Option<(BTreeMap<String, Object>, std::time::SystemTime)> {
    let path = site.join(crate::output::objects::OBJECTS);
    let listed = std::fs::metadata(&path).ok()?.modified().ok()?;
    let mut reader = RecordReader::default();
    reader.feed(&std::fs::read(&path).ok()?).ok()?;
    Some((reader.finish().ok()?.objects, listed))
}

/// What the last publish wrote: each object's hash, by path, and which
/// run of publish wrote the record (its first line, `{"publish": RUN}`),
/// so that no two records two runs write are ever the same bytes.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Published {
    pub objects: BTreeMap<String, Object>,
    pub run: Option<String>,
}

/// A record's first line: the run of publish that wrote it.
#[derive(serde::Serialize, serde::Deserialize)]
struct Run {
    publish: String,
}

impl Published {
    /// Reads a whole record (`RecordReader` reads one as it arrives).
    pub fn parse(text: &[u8]) -> Result<Published, String> {
        let mut reader = RecordReader::default();
        reader.feed(text)?;
        reader.finish()
    }

    /// The record of `objects`, as the publish `run` writes it.
    pub fn render<'a>(run: &str, objects: impl IntoIterator<Item = &'a Object>) -> Vec<u8> {
        let run = Run {
            publish: run.to_owned(),
        };
        let mut out = serde_json::to_vec(&run).unwrap_or_default();
        out.push(b'\n');
        out.extend(crate::output::objects::render(objects));
        out
    }
}

/// A record read a piece at a time, as the store sends it: only the line
/// being read is held, never the whole text. An error names the line
/// that is not an object of a site; a path must be one a site can have,
/// since a publish removes what the record lists and the site no longer
/// has.
#[derive(Debug, Default)]
pub struct RecordReader {
    partial: Vec<u8>,
    lines: usize,
    objects: BTreeMap<String, Object>,
    run: Option<String>,
}

impl RecordReader {
    pub fn feed(&mut self, mut bytes: &[u8]) -> Result<(), String> {
        while let Some(end) = bytes.iter().position(|&b| b == b'\n') {
            self.partial.extend_from_slice(&bytes[..end]);
            bytes = &bytes[end + 1..];
            let line = std::mem::take(&mut self.partial);
            self.line(&line)?;
        }
        self.partial.extend_from_slice(bytes);
        Ok(())
    }

    pub fn finish(mut self) -> Result<Published, String> {
        let line = std::mem::take(&mut self.partial);
        self.line(&line)?;
        Ok(Published {
            objects: self.objects,
            run: self.run,
        })
    }

    fn line(&mut self, line: &[u8]) -> Result<(), String> {
        self.lines += 1;
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let at = |what: String| format!("line {}: {what}", self.lines);
        let object: Object = match serde_json::from_slice(line) {
            Ok(object) => object,
            Err(error) => match serde_json::from_slice::<Run>(line) {
                Ok(run) if self.lines == 1 => {
                    self.run = Some(run.publish);
                    return Ok(());
                }
                _ => return Err(at(error.to_string())),
            },
        };
        if !is_site_path(&object.path) {
            return Err(at(format!("`{}` is no path of a site", object.path)));
        }
        self.objects.insert(object.path.clone(), object);
        Ok(())
    }
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
    pub kept: Vec<Object>,
    pub removed: Vec<String>,
}

impl Plan {
    pub fn of(objects: &[Object], published: &Published) -> Plan {
        let mut plan = Plan::default();
        for object in objects {
            let step = match Step::of(&object.path) {
                _ if published.objects.get(&object.path) == Some(object) => &mut plan.kept,
                Step::Loaded => &mut plan.first,
                Step::Document => &mut plan.next,
                Step::Listing => &mut plan.last,
            };
            step.push(object.clone());
        }
        let current: std::collections::BTreeSet<&str> =
            objects.iter().map(|o| o.path.as_str()).collect();
        plan.removed = published
            .objects
            .keys()
            .filter(|path| !current.contains(path.as_str()))
            .cloned()
            .collect();
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
    use super::*;

    fn object(path: &str, hash: &str) -> Object {
        Object {
            path: path.to_owned(),
            hash: hash.to_owned(),
            bytes: 1,
        }
    }

    #[test]
    fn only_what_changed_is_sent_the_lists_after_what_they_list() {
        let before = [
            object("a.json", "1"),
            object("b.json", "1"),
            object("index.json", "1"),
            object("gone.json", "1"),
        ];
        let published = Published::parse(&Published::render("run", &before)).unwrap();
        assert_eq!(published.objects.len(), 4);
        let now = [
            object("a.json", "1"),
            object("b.json", "2"),
            object("c.json", "1"),
            object("index.json", "2"),
        ];
        let plan = Plan::of(&now, &published);
        assert_eq!(plan.kept, [object("a.json", "1")]);
        assert_eq!(plan.next, [object("b.json", "2"), object("c.json", "1")]);
        assert_eq!(plan.last, [object("index.json", "2")]);
        let loaded = Plan::of(&[object("context.jsonld", "1")], &Published::default());
        assert_eq!(loaded.first, [object("context.jsonld", "1")]);
        assert_eq!(plan.removed, ["gone.json"]);
        assert!(
            Plan::of(
                &now,
                &Published::parse(&Published::render("run", &now)).unwrap()
            )
            .is_empty()
        );
    }

    #[test]
    fn a_record_reads_the_same_in_any_pieces() {
        let objects = [object("a.json", "1"), object("b/c.json", "2")];
        let text = Published::render("run", &objects);
        for size in [1, 3, 7, text.len()] {
            let mut reader = RecordReader::default();
            for piece in text.chunks(size) {
                reader.feed(piece).unwrap();
            }
            let read = reader.finish().unwrap();
            assert_eq!(read.objects.values().cloned().collect::<Vec<_>>(), objects);
            assert_eq!(read.run.as_deref(), Some("run"));
        }
        // A record of before runs were named reads too; a run's line only
        // comes first.
        let unnamed = crate::output::objects::render(&objects);
        assert_eq!(Published::parse(&unnamed).unwrap().run, None);
        let late = [&unnamed[..], b"{\"publish\":\"x\"}\n"].concat();
        assert!(Published::parse(&late).is_err());
    }

    #[test]
    fn a_record_names_only_paths_a_site_can_have() {
        for bad in [
            "",
            "/x",
            "a//b",
            "../x",
            "_headers",
            ".ontosite-publish.jsonl",
        ] {
            let line = format!("{{\"path\":{bad:?},\"hash\":\"1\",\"bytes\":1}}");
            assert!(Published::parse(line.as_bytes()).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_record_that_is_not_one_names_its_line() {
        assert_eq!(
            Published::parse(b"\n{\"path\":\"a\",\"hash\":\"1\",\"bytes\":1}\nnope\n")
                .unwrap_err()
                .split(':')
                .next(),
            Some("line 3")
        );
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
