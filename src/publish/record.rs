//! The record of what publish wrote under a prefix, which the next
//! publish compares the site with, and how a run reads and writes it.
//!
//! A record is a head and the layers it stands on. The head ([`RECORD`])
//! is small: the run that wrote it, its layers, and the entries that
//! changed since they were written (an object, or a path gone). A layer
//! (under [`LAYERS`]) holds entries too, a whole site's, or the many a run
//! noted at once; it is written once, under its run's name, sent as it is
//! rendered, and named by a head only once it is whole. A publish that
//! changes a few objects then writes a head of a few lines: a site of half
//! a million objects is not written out again, twice, for one entity, and
//! no record's text is ever held whole in memory (its objects are, once
//! each, in path order). Only the head is written under
//! a condition (the version this run read), so two publishes never record
//! over each other.

use super::PublishError;
use super::store::{self, Bucket, Meta, Target, Version};
use crate::output::objects::Object;
use itertools::{EitherOrBoth, Itertools};
use std::collections::BTreeMap;

/// The head of the record, under the prefix. A leading `.`: no site file
/// has the name, and no host publishes it.
pub const RECORD: &str = ".ontosite-publish.jsonl";

/// Where the record's layers are, under the prefix, each named
/// `{run}-{n}.jsonl`.
pub const LAYERS: &str = ".ontosite-publish/";

/// The most entries a head holds; beyond, they go into a layer of their
/// own. About 400 KB: a publish of one changed entity writes a few lines.
pub const HEAD_MOST: usize = 4096;

/// What the last publish wrote: its record's objects (its layers with its
/// head's entries over them) and the head itself, which this run's
/// record goes on from.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Published {
    /// In path order, each path once: held once, with no map's copy of
    /// each path beside it (half a million objects at 100,000 entities).
    pub objects: Vec<Object>,
    pub head: Head,
    /// When the store wrote the head, by its clock: a layer written before
    /// and named by no head is of a run that can no longer name it (it read
    /// an earlier head, and its writes over that are refused).
    pub written: Option<std::time::SystemTime>,
    /// The head held more entries than a head does (a record an earlier
    /// ontosite wrote whole): they are in `objects` alone, and the next
    /// write writes the record anew.
    pub overflowing: bool,
}

impl Published {
    /// A record with no layers, whole in `text` (`RecordReader` reads one
    /// as it arrives).
    pub fn parse(text: &[u8]) -> Result<Published, String> {
        let mut reader = RecordReader::head();
        reader.feed(text)?;
        Ok(Published::over(Vec::new(), reader.finish()?, None))
    }

    /// The object recorded at `path`.
    pub fn get(&self, path: &str) -> Option<&Object> {
        let at = self
            .objects
            .binary_search_by(|o| o.path.as_str().cmp(path))
            .ok()?;
        self.objects.get(at)
    }

    /// The record of the head `read` over its layers' `objects`. A head of
    /// more entries than a head holds is not kept beside them.
    fn over(
        mut objects: Vec<Object>,
        read: Read,
        written: Option<std::time::SystemTime>,
    ) -> Published {
        let overflowing = read.entries.len() > HEAD_MOST;
        let head = Head {
            run: read.run,
            layers: read.layers,
            entries: match overflowing {
                true => BTreeMap::new(),
                false => read
                    .entries
                    .iter()
                    .map(|e| (e.path().to_owned(), e.object().cloned()))
                    .collect(),
            },
        };
        apply(read.entries, &mut objects);
        Published {
            objects,
            head,
            written,
            overflowing,
        }
    }
}

/// A record's head: which run wrote it, the layers it stands on, in
/// order, and by path what changed since them: the object as recorded,
/// or `None`, gone.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Head {
    pub run: Option<String>,
    pub layers: Vec<String>,
    pub entries: BTreeMap<String, Option<Object>>,
}

impl Head {
    /// The head's text: the run's line, then an entry a line, by path.
    pub fn render(&self) -> Vec<u8> {
        let run = Run {
            publish: self.run.clone().unwrap_or_default(),
            layers: self.layers.clone(),
        };
        let mut out = serde_json::to_vec(&run).unwrap_or_default();
        out.push(b'\n');
        for (path, object) in &self.entries {
            write_entry(&mut out, path, object.as_ref());
        }
        out
    }
}

/// A head or a layer as read: the run and layers a head names, and its
/// entries in path order, each path once.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Read {
    pub run: Option<String>,
    pub layers: Vec<String>,
    pub entries: Vec<Entry>,
}

impl From<Read> for Head {
    fn from(read: Read) -> Head {
        let entries = read.entries.into_iter();
        Head {
            run: read.run,
            layers: read.layers,
            entries: entries
                .map(|e| (e.path().to_owned(), e.into_object()))
                .collect(),
        }
    }
}

/// An entry of a record: an object as recorded, or a path gone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Object(Object),
    Gone(String),
}

impl Entry {
    pub fn path(&self) -> &str {
        match self {
            Entry::Object(object) => &object.path,
            Entry::Gone(path) => path,
        }
    }

    pub fn object(&self) -> Option<&Object> {
        match self {
            Entry::Object(object) => Some(object),
            Entry::Gone(_) => None,
        }
    }

    pub fn into_object(self) -> Option<Object> {
        match self {
            Entry::Object(object) => Some(object),
            Entry::Gone(_) => None,
        }
    }
}

/// A head's first line.
#[derive(serde::Serialize, serde::Deserialize)]
struct Run {
    publish: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    layers: Vec<String>,
}

/// An entry saying an object is gone.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Gone {
    path: String,
    gone: bool,
}

fn write_entry(out: &mut Vec<u8>, path: &str, object: Option<&Object>) {
    // Entries are strings, a number and a flag: they always serialise.
    let written = match object {
        Some(object) => serde_json::to_writer(&mut *out, object),
        None => serde_json::to_writer(
            &mut *out,
            &Gone {
                path: path.to_owned(),
                gone: true,
            },
        ),
    };
    if written.is_ok() {
        out.push(b'\n');
    }
}

/// `entries` applied over `objects`, both in path order: one pass.
fn apply(entries: Vec<Entry>, objects: &mut Vec<Object>) {
    let under = std::mem::take(objects);
    *objects = under
        .into_iter()
        .merge_join_by(entries, |object, entry| {
            object.path.as_str().cmp(entry.path())
        })
        .filter_map(|pair| match pair {
            EitherOrBoth::Left(object) => Some(object),
            EitherOrBoth::Both(_, entry) | EitherOrBoth::Right(entry) => entry.into_object(),
        })
        .collect();
}

/// A layer's lines, a mebibyte or so at a time: a layer of a million
/// objects is sent as it is rendered.
fn layer_pieces<'a>(
    entries: impl Iterator<Item = (&'a str, Option<&'a Object>)> + 'a,
) -> impl Iterator<Item = Vec<u8>> + 'a {
    const PIECE: usize = 1 << 20;
    let mut entries = entries.peekable();
    std::iter::from_fn(move || {
        entries.peek()?;
        let mut piece = Vec::with_capacity(PIECE + 1024);
        while piece.len() < PIECE {
            let Some((path, object)) = entries.next() else {
                break;
            };
            write_entry(&mut piece, path, object);
        }
        Some(piece)
    })
}

/// Whether `key` is a layer's name as a run of publish gives it: only
/// those are read, and removed once no head names them.
fn is_layer(key: &str) -> bool {
    let name = key
        .strip_prefix(LAYERS)
        .and_then(|rest| rest.strip_suffix(".jsonl"));
    name.and_then(|name| name.split_once('-'))
        .is_some_and(|(run, n)| {
            !run.is_empty()
                && !n.is_empty()
                && run.bytes().all(|b| b.is_ascii_hexdigit())
                && n.bytes().all(|b| b.is_ascii_digit())
        })
}

/// A head or a layer read a piece at a time, as the store sends it: of
/// its text only the line being read is held, never the whole. An error names the
/// line that is not an entry; a path must be one a site can have, since a
/// publish removes what the record lists and the site no longer has.
#[derive(Debug, Default)]
pub struct RecordReader {
    partial: Vec<u8>,
    lines: usize,
    /// A head: its first line may name the run and the layers.
    is_head: bool,
    /// The entries read, in the order read: sorted at the end, which for
    /// entries in path order (as every record and the build's list are
    /// written) is a line's comparison each.
    read: Read,
}

impl RecordReader {
    /// A reader of a head (or of the build's list of objects, which is
    /// one without a run).
    pub fn head() -> RecordReader {
        RecordReader {
            is_head: true,
            ..RecordReader::default()
        }
    }

    /// A reader of a layer.
    pub fn layer() -> RecordReader {
        RecordReader::default()
    }

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

    pub fn finish(mut self) -> Result<Read, String> {
        let line = std::mem::take(&mut self.partial);
        self.line(&line)?;
        // Where a path is read twice, its last entry stands, as a map
        // filled a line at a time would have it. (A stable sort keeps
        // each path's entries in the order read.)
        let entries = &mut self.read.entries;
        entries.sort_by(|a, b| a.path().cmp(b.path()));
        entries.dedup_by(|later, kept| {
            let same = later.path() == kept.path();
            if same {
                std::mem::swap(later, kept);
            }
            same
        });
        Ok(self.read)
    }

    fn line(&mut self, line: &[u8]) -> Result<(), String> {
        self.lines += 1;
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let at = |what: String| format!("line {}: {what}", self.lines);
        let entry = match serde_json::from_slice::<Object>(line) {
            Ok(object) => Entry::Object(object),
            Err(error) => {
                if let Ok(gone) = serde_json::from_slice::<Gone>(line)
                    && gone.gone
                {
                    Entry::Gone(gone.path)
                } else if let Ok(run) = serde_json::from_slice::<Run>(line)
                    && self.is_head
                    && self.lines == 1
                {
                    if let Some(bad) = run.layers.iter().find(|key| !is_layer(key)) {
                        return Err(at(format!("`{bad}` is no layer of a record")));
                    }
                    self.read.run = Some(run.publish);
                    self.read.layers = run.layers;
                    return Ok(());
                } else {
                    return Err(at(error.to_string()));
                }
            }
        };
        if !super::plan::is_site_path(entry.path()) {
            return Err(at(format!("`{}` is no path of a site", entry.path())));
        }
        self.read.entries.push(entry);
        Ok(())
    }
}

/// The record of the last publish under `target`, its layers read as
/// they arrive, and the version of its head; none where there was none.
pub async fn read(
    store: &impl Bucket,
    target: &Target,
) -> Result<(Option<Published>, Option<Version>), PublishError> {
    let Some((head, meta)) = read_one(store, target, RECORD, RecordReader::head()).await? else {
        // No record, or no bucket: a listing tells which.
        store
            .reach(&target.under())
            .await
            .map_err(|e| store::failed(target, "", "list", &e))?;
        return Ok((None, None));
    };
    let version = Version::of(&meta);
    let mut objects = Vec::new();
    for layer in &head.layers {
        match read_one(store, target, layer, RecordReader::layer()).await? {
            Some((read, _)) => apply(read.entries, &mut objects),
            None => return Err(missing(store, target, layer, &version).await),
        }
    }
    Ok((
        Some(Published::over(objects, head, meta.last_modified)),
        Some(version),
    ))
}

/// Why a layer the head names is missing: a publish that wrote a head
/// after this one read it removed it (this one would stop at its first
/// write anyway), or, where the head is still the one read, the record
/// is broken.
async fn missing(
    store: &impl Bucket,
    target: &Target,
    layer: &str,
    read: &Version,
) -> PublishError {
    let head = match target.key(RECORD) {
        Ok(head) => head,
        Err(error) => return error,
    };
    match store.head(&head).await {
        Ok(Some(meta)) if Version::of(&meta) == *read => PublishError::Record {
            url: target.url(layer),
            why: format!("{RECORD} names it, and the store has no such object"),
        },
        _ => PublishError::Concurrent {
            url: target.url(RECORD),
        },
    }
}

/// One head or layer at `path`, read as it arrives; none where the store
/// has none.
async fn read_one(
    store: &impl Bucket,
    target: &Target,
    path: &str,
    mut reader: RecordReader,
) -> Result<Option<(Read, Meta)>, PublishError> {
    use futures_util::StreamExt;
    let not_one = |why| PublishError::Record {
        url: target.url(path),
        why,
    };
    let found = store
        .get(&target.key(path)?)
        .await
        .map_err(|e| store::failed(target, path, "read", &e))?;
    let Some((meta, mut pieces)) = found else {
        return Ok(None);
    };
    while let Some(piece) = pieces.next().await {
        let piece = piece.map_err(|e| store::failed(target, path, "read", &e))?;
        reader.feed(&piece).map_err(not_one)?;
    }
    Ok(Some((reader.finish().map_err(not_one)?, meta)))
}

/// The record as one run of publish writes it: the objects it lists, and
/// a head over the version of it this run read or last wrote.
pub struct Recorder<'a, S: Bucket> {
    store: &'a S,
    target: &'a Target,
    version: Option<Version>,
    /// The objects of the record read, in path order.
    objects: Vec<Object>,
    /// What this run noted over them, by path: an object, or `None`, gone.
    noted: BTreeMap<String, Option<Object>>,
    head: Head,
    /// More changed since the layer than a head holds: the changes are no
    /// longer kept as entries, and the next write writes the record anew.
    overflowing: bool,
    /// When the store wrote the head this run read.
    read_written: Option<std::time::SystemTime>,
    /// Layers this run has written, to name the next.
    layers_written: usize,
}

impl<'a, S: Bucket> Recorder<'a, S> {
    /// Goes on from the record `previous`, read at `version`, as the run
    /// `run`.
    pub fn new(
        store: &'a S,
        target: &'a Target,
        run: &str,
        version: Option<Version>,
        previous: Published,
    ) -> Recorder<'a, S> {
        let Published {
            objects,
            head,
            written,
            overflowing,
        } = previous;
        Recorder {
            store,
            target,
            version,
            objects,
            noted: BTreeMap::new(),
            head: Head {
                run: Some(run.to_owned()),
                ..head
            },
            overflowing,
            read_written: written,
            layers_written: 0,
        }
    }

    /// Records `objects` as they are now.
    pub fn note(&mut self, objects: impl IntoIterator<Item = Object>) {
        for object in objects {
            if !self.overflowing {
                let entry = Some(object.clone());
                self.head.entries.insert(object.path.clone(), entry);
                self.overflow();
            }
            self.noted.insert(object.path.clone(), Some(object));
        }
    }

    /// Records the objects at `paths` as gone.
    pub fn forget<'p>(&mut self, paths: impl IntoIterator<Item = &'p String>) {
        for path in paths {
            if !self.overflowing {
                self.head.entries.insert(path.clone(), None);
                self.overflow();
            }
            self.noted.insert(path.clone(), None);
        }
    }

    fn overflow(&mut self) {
        if self.head.entries.len() > HEAD_MOST {
            self.overflowing = true;
            self.head.entries.clear();
        }
    }

    /// Writes the head of what changed; where more changed than a head
    /// holds, or the record stands on more than one layer, writes the
    /// record anew (`rewrite`).
    pub async fn write(&mut self) -> Result<(), PublishError> {
        if self.overflowing || self.head.layers.len() > 1 {
            return self.rewrite().await;
        }
        self.put_head().await
    }

    /// Writes the whole record as one new layer, sent as it is rendered,
    /// then a head on it alone, then removes the layers no head can name
    /// any more: those the head it replaced named, and those left before
    /// the head this run read (`Published::written`) by runs stopped
    /// between writing a layer and naming it, whose writes of a head are
    /// refused since.
    async fn rewrite(&mut self) -> Result<(), PublishError> {
        self.layers_written += 1;
        let run = self.head.run.as_deref().unwrap_or_default();
        let layer = format!("{LAYERS}{run}-{}.jsonl", self.layers_written);
        let objects = self
            .objects
            .iter()
            .merge_join_by(&self.noted, |object, (path, _)| object.path.cmp(path))
            .filter_map(|pair| match pair {
                EitherOrBoth::Left(object) => Some(object),
                EitherOrBoth::Both(_, (_, noted)) | EitherOrBoth::Right((_, noted)) => {
                    noted.as_ref()
                }
            });
        let pieces = layer_pieces(objects.map(|o| (o.path.as_str(), Some(o))));
        let pieces = futures_util::stream::iter(pieces.map(Ok));
        let headers = store::record_headers();
        store::put_parts(self.store, self.target, &layer, &headers, pieces).await?;
        let mut unnamed = std::mem::replace(&mut self.head.layers, vec![layer]);
        self.head.entries.clear();
        self.overflowing = false;
        self.put_head().await?;
        if let Some(read_written) = self.read_written {
            let under = format!("{}{LAYERS}", self.target.under());
            let listed = self
                .store
                .list(&under)
                .await
                .map_err(|e| store::failed(self.target, LAYERS, "list", &e))?;
            let left = listed.into_iter().filter_map(|meta| {
                let written = meta.last_modified?;
                let key = self.target.path_of(&meta.key)?;
                (written < read_written && !self.head.layers.contains(&key)).then_some(key)
            });
            unnamed.extend(left);
        }
        unnamed.sort();
        unnamed.dedup();
        for old in unnamed.iter().filter(|old| is_layer(old)) {
            store::delete(self.store, self.target, old).await?;
        }
        Ok(())
    }

    async fn put_head(&mut self) -> Result<(), PublishError> {
        let bytes = self.head.render();
        store::put_record(self.store, self.target, RECORD, bytes, &mut self.version).await
    }
}

/// What the publish modules' tests share.
#[cfg(test)]
pub(super) mod testing {
    use super::Object;

    /// An object of a byte.
    pub fn object(path: &str, hash: &str) -> Object {
        Object::new(path.to_owned(), hash.to_owned(), 1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::store::testing::in_memory;
    use super::testing::object;
    use super::*;

    fn entries(objects: &[Object], gone: &[&str]) -> BTreeMap<String, Option<Object>> {
        let objects = objects.iter().map(|o| (o.path.clone(), Some(o.clone())));
        objects
            .chain(gone.iter().map(|path| (path.to_string(), None)))
            .collect()
    }

    /// A path read twice, out of order: its last line stands, a `gone`
    /// over an object too.
    #[test]
    fn a_path_read_twice_is_as_its_last_line_says() {
        let mut text = Vec::new();
        write_entry(&mut text, "b.json", Some(&object("b.json", "1")));
        write_entry(&mut text, "a.json", Some(&object("a.json", "1")));
        write_entry(&mut text, "b.json", None);
        write_entry(&mut text, "a.json", Some(&object("a.json", "2")));
        let mut reader = RecordReader::layer();
        reader.feed(&text).unwrap();
        let read = Head::from(reader.finish().unwrap());
        assert_eq!(read.entries, entries(&[object("a.json", "2")], &["b.json"]));
    }

    #[test]
    fn a_record_reads_the_same_in_any_pieces() {
        let objects = [object("a.json", "1"), object("b/c.json", "2")];
        let head = Head {
            run: Some("run".to_owned()),
            layers: vec![format!("{LAYERS}ab12-1.jsonl")],
            entries: entries(&objects, &["d.json"]),
        };
        let text = head.render();
        for size in [1, 3, 7, text.len()] {
            let mut reader = RecordReader::head();
            for piece in text.chunks(size) {
                reader.feed(piece).unwrap();
            }
            assert_eq!(Head::from(reader.finish().unwrap()), head);
        }
        // A record of before runs were named reads too; a run's line only
        // comes first, and only in a head.
        let unnamed = crate::output::objects::render(&objects);
        let read = Published::parse(&unnamed).unwrap();
        assert_eq!(read.head.run, None);
        assert_eq!(read.objects, objects);
        let late = [&unnamed[..], b"{\"publish\":\"x\"}\n"].concat();
        assert!(Published::parse(&late).is_err());
        let mut layer = RecordReader::layer();
        assert!(layer.feed(b"{\"publish\":\"x\"}\n").is_err());
    }

    /// A record an earlier ontosite wrote whole is read once, into the
    /// objects alone, and written anew at the next write.
    #[test]
    fn a_whole_record_of_before_is_read_once_and_written_anew() {
        let many: Vec<Object> = (0..HEAD_MOST + 1)
            .map(|i| object(&format!("e/{i}.json"), "1"))
            .collect();
        let read = Published::parse(&crate::output::objects::render(&many)).unwrap();
        assert!(read.overflowing && read.head.entries.is_empty());
        assert_eq!(read.objects.len(), many.len());
        let few = Published::parse(&crate::output::objects::render(&many[..3])).unwrap();
        assert!(!few.overflowing && few.head.entries.len() == 3);
    }

    #[test]
    fn a_layer_is_sent_in_pieces_that_read_as_its_entries() {
        let objects: Vec<Object> = (0..30_000)
            .map(|i| object(&format!("e/{i}.json"), &format!("{i:064x}")))
            .collect();
        let pieces: Vec<Vec<u8>> =
            layer_pieces(objects.iter().map(|o| (o.path.as_str(), Some(o)))).collect();
        assert!(pieces.len() > 1, "{} pieces", pieces.len());
        let mut reader = RecordReader::layer();
        for piece in &pieces {
            assert!(piece.ends_with(b"\n"));
            reader.feed(piece).unwrap();
        }
        let read = reader.finish().unwrap();
        assert_eq!(read.entries.len(), objects.len());
        assert!(read.entries.iter().all(|e| e.object().is_some()));
    }

    #[test]
    fn a_head_s_entries_go_over_its_layers() {
        let entries = |objects: &[Object], gone: &[&str]| {
            let mut read = RecordReader::layer();
            let mut text = Vec::new();
            for (path, object) in super::tests::entries(objects, gone) {
                write_entry(&mut text, &path, object.as_ref());
            }
            read.feed(&text).unwrap();
            read.finish().unwrap().entries
        };
        let mut objects = Vec::new();
        apply(
            entries(&[object("a", "1"), object("b", "1"), object("c", "1")], &[]),
            &mut objects,
        );
        apply(
            entries(&[object("a", "2"), object("bb", "1")], &["b"]),
            &mut objects,
        );
        assert_eq!(
            objects,
            [object("a", "2"), object("bb", "1"), object("c", "1")]
        );
    }

    #[test]
    fn a_record_names_only_paths_a_site_can_have_and_layers_of_its_own() {
        for bad in [
            "",
            "/x",
            "a//b",
            "../x",
            "_headers",
            ".ontosite-publish.jsonl",
            ".ontosite-publish/ab-1.jsonl",
        ] {
            let line = format!("{{\"path\":{bad:?},\"hash\":\"1\",\"bytes\":1}}");
            assert!(Published::parse(line.as_bytes()).is_err(), "{bad}");
            let gone = format!("{{\"path\":{bad:?},\"gone\":true}}");
            assert!(Published::parse(gone.as_bytes()).is_err(), "{bad}");
        }
        for bad in [
            "x.jsonl",
            ".ontosite-publish/../x-1.jsonl",
            ".ontosite-publish/ab-1.json",
            ".ontosite-publish/ab-.jsonl",
            ".ontosite-publish/ab/c-1.jsonl",
        ] {
            let line = format!("{{\"publish\":\"r\",\"layers\":[{bad:?}]}}");
            assert!(Published::parse(line.as_bytes()).is_err(), "{bad}");
        }
        assert!(is_layer(".ontosite-publish/0f3a-12.jsonl"));
        assert!(Published::parse(b"{\"path\":\"a\",\"gone\":false}").is_err());
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

    /// A run that notes many objects writes the record as a layer and a
    /// head of a line; a run that changes a few writes only the head; one
    /// that changes more than a head holds writes the record anew and
    /// removes the layers no head can name, but not one a run may still
    /// name. Each read back gives what was noted. Run in memory.
    #[test]
    fn a_record_writes_a_head_of_what_changed_over_its_layer() {
        in_memory(async |store, target| {
            let many: Vec<Object> = (0..HEAD_MOST + 10)
                .map(|i| object(&format!("e/{i}.json"), "1"))
                .collect();
            let head = async || {
                let text = store.bytes(&target.key(RECORD).unwrap()).await.unwrap();
                let mut reader = RecordReader::head();
                reader.feed(&text).unwrap();
                Head::from(reader.finish().unwrap())
            };
            let (none, version) = read(store, target).await.unwrap();
            assert!(none.is_none());
            let none = Published::default();
            let mut first = Recorder::new(store, target, "aa", version, none);
            first.note(many.clone());
            first.write().await.unwrap();
            let written = head().await;
            assert_eq!(written.layers, [format!("{LAYERS}aa-1.jsonl")]);
            assert!(written.entries.is_empty());
            let (read1, version) = read(store, target).await.unwrap();
            let read1 = read1.unwrap();
            assert_eq!(read1.objects.len(), many.len());

            // A layer a run stopped before naming it, and another written
            // while a later run goes on.
            let left = async |name: &str| {
                let key = target.key(&format!("{LAYERS}{name}.jsonl")).unwrap();
                let (empty, headers) = (bytes::Bytes::new(), store::Headers::default());
                let any = store::Condition::Any;
                store.put(&key, empty, &headers, any).await.unwrap();
                std::thread::sleep(std::time::Duration::from_millis(5));
            };
            left("dd-1").await;
            let mut second = Recorder::new(store, target, "bb", version, read1);
            second.note([object("e/1.json", "2")]);
            second.forget(&["e/2.json".to_owned()]);
            second.write().await.unwrap();
            let written = head().await;
            assert_eq!(written.layers, [format!("{LAYERS}aa-1.jsonl")]);
            assert_eq!(written.entries.len(), 2);
            let (read2, version) = read(store, target).await.unwrap();
            let read2 = read2.unwrap();
            assert_eq!(read2.objects.len(), many.len() - 1);
            assert_eq!(read2.get("e/1.json").unwrap().hash, "2");
            let expected: Vec<Object> = read2.objects.clone();

            let mut third = Recorder::new(store, target, "cc", version, read2);
            left("ee-1").await;
            // More changed than a head holds, then changed again.
            let touched: Vec<Object> = many[..HEAD_MOST + 1]
                .iter()
                .filter(|o| o.path != "e/2.json")
                .cloned()
                .collect();
            third.note(touched.iter().map(|o| object(&o.path, "3")));
            third.note(touched.iter().cloned());
            third.write().await.unwrap();
            let written = head().await;
            assert_eq!(written.layers, [format!("{LAYERS}cc-1.jsonl")]);
            assert!(written.entries.is_empty());
            let (read3, _) = read(store, target).await.unwrap();
            let mut expected = expected;
            for o in &mut expected {
                if touched.iter().any(|t| t.path == o.path) {
                    o.hash = "1".to_owned();
                }
            }
            assert_eq!(read3.unwrap().objects, expected);
            for (layer, kept) in [
                ("aa-1", false),
                ("dd-1", false),
                ("ee-1", true),
                ("cc-1", true),
            ] {
                let key = target.key(&format!("{LAYERS}{layer}.jsonl")).unwrap();
                let held = store.head(&key).await.unwrap().is_some();
                assert_eq!(held, kept, "{layer}");
            }
        });
    }

    /// A run as publish makes it, of more objects than a head holds: the
    /// claim (each with no hash) written as a record anew, then the
    /// objects with their hashes, then a removal, each written; read
    /// back, the record is the objects read before with all three over
    /// them, in path order, each path once.
    #[test]
    fn a_run_of_many_claimed_then_recorded_reads_back_as_noted() {
        in_memory(async |store, target| {
            let before: Vec<Object> = (0..50)
                .map(|i| object(&format!("a/{i:03}.json"), "0"))
                .collect();
            let mut first = Recorder::new(store, target, "aa", None, Published::default());
            first.note(before.clone());
            first.write().await.unwrap();
            let (recorded, version) = read(store, target).await.unwrap();
            let sent: Vec<Object> = (0..HEAD_MOST + 10)
                .map(|i| object(&format!("b/{i:05}.json"), "1"))
                .chain([object("a/007.json", "1")])
                .collect();
            let mut run = Recorder::new(store, target, "bb", version, recorded.unwrap());
            run.note(
                sent.iter()
                    .map(|o| Object::new(o.path.clone(), String::new(), 1)),
            );
            run.write().await.unwrap();
            run.note(sent.iter().cloned());
            run.write().await.unwrap();
            run.forget(&["a/010.json".to_owned()]);
            run.write().await.unwrap();
            let mut expected: Vec<Object> = before
                .into_iter()
                .filter(|o| o.path != "a/010.json" && o.path != "a/007.json")
                .chain(sent)
                .collect();
            expected.sort_by(|a, b| a.path.cmp(&b.path));
            let (recorded, _) = read(store, target).await.unwrap();
            assert_eq!(recorded.unwrap().objects, expected);
        });
    }

    #[test]
    fn a_head_without_layers_is_a_record_as_publish_wrote_them_before() {
        let objects = [object("a.json", "1")];
        let head = Head {
            run: Some("run".to_owned()),
            entries: entries(&objects, &[]),
            ..Head::default()
        };
        assert_eq!(
            String::from_utf8(head.render()).unwrap(),
            "{\"publish\":\"run\"}\n{\"path\":\"a.json\",\"hash\":\"1\",\"bytes\":1}\n"
        );
    }
}
