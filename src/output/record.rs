//! The build record: what a build read and wrote, kept in the site
//! (`.ontosite-record`, beside the marker, which no host publishes), so
//! that a rebuild whose input has not changed can leave the site as it
//! is: no file written, none deleted, every inode kept. It is written into
//! the staging directory, so it is swapped in with the site it describes.

use super::{Lock, OutputError, RECORD, io, sibling};
use rayon::prelude::*;
use std::path::Path;

/// What a finished build read and wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The fingerprint of everything the build read (`build::fingerprint`).
    pub fingerprint: String,
    pub entities: usize,
    pub files: usize,
    pub bytes: u64,
    /// What the build measured of the site for the hosts, one line of
    /// JSON that the build reads back (`hosts::Measured`): an unchanged
    /// site is not measured again.
    pub measured: String,
}

const HEADER: &str = "ontosite build record";

impl Record {
    fn parse(text: &str) -> Option<Record> {
        let mut lines = text.lines();
        if lines.next()? != HEADER {
            return None;
        }
        let mut field = || lines.next();
        let record = Record {
            fingerprint: field()?.to_owned(),
            entities: field()?.parse().ok()?,
            files: field()?.parse().ok()?,
            bytes: field()?.parse().ok()?,
            measured: field()?.to_owned(),
        };
        Some(record)
    }

    /// Writes the record into the site directory `dir`.
    pub(super) fn keep(&self, dir: &Path) -> Result<(), OutputError> {
        let path = dir.join(RECORD);
        let text = format!(
            "{HEADER}\n{}\n{}\n{}\n{}\n{}\n",
            self.fingerprint,
            self.entities,
            self.files,
            self.bytes,
            self.measured.replace('\n', " ")
        );
        std::fs::write(&path, text).map_err(io(&path, "writing"))
    }
}

/// The record of the site at `out` when a build with `fingerprint` wrote
/// it and it is still whole: its marker there, every file the marker lists
/// a file, their sizes adding up to what the build wrote. A file deleted or
/// cut short by hand is seen, and the site is built again; the bytes of a
/// file edited to the same size are not compared. A file added by hand is
/// refused, as a build refuses it.
pub fn up_to_date(out: &Path, fingerprint: &str) -> Result<Option<Record>, OutputError> {
    let out = super::resolve(out)?;
    let Ok(text) = std::fs::read_to_string(out.join(RECORD)) else {
        return Ok(None);
    };
    let Some(record) = Record::parse(&text).filter(|r| r.fingerprint == fingerprint) else {
        return Ok(None);
    };
    // No build may be half-way through replacing the site while it is
    // looked at; the record is read again under the lock.
    let _lock = Lock::take(&out)?;
    let Ok(again) = std::fs::read_to_string(out.join(RECORD)) else {
        return Ok(None);
    };
    if again != text {
        return Ok(None);
    }
    // A file added by hand is refused as a build would refuse it.
    let Some(listed) = super::check_replaceable(&out)? else {
        return Ok(None);
    };
    let sizes: Option<u64> = listed
        .par_iter()
        .map(|path| {
            let metadata = std::fs::symlink_metadata(out.join(path)).ok()?;
            metadata.is_file().then_some(metadata.len())
        })
        .sum();
    if listed.len() != record.files || sizes != Some(record.bytes) {
        return Ok(None);
    }
    // What a killed build left is cleared, as a build would.
    super::clear_leftover(&sibling(&out, "staging"))?;
    super::clear_leftover(&sibling(&out, "old"))?;
    Ok(Some(record))
}
