//! `/search` in `serve`: the index's one reader ([`crate::search::reader`])
//! over the files of the site directory, and where a query may be
//! answered: on a connection's own thread only from what the reader's
//! caches hold, anything else on the blocking pool.

use super::path::{SiteDir, site_path};
use crate::search::Query;
use crate::search::reader::{self, CachedOnly, Fetched, Files, Reader};
use crate::site::answers;
use std::path::{Path, PathBuf};

/// Why the index could not answer: a file it names is missing or is not
/// what the format says (`path`, in the site directory).
#[derive(Debug, thiserror::Error)]
#[error("`{}`: {what}\n  help: rebuild the site with `ontosite build`", path.display())]
pub struct IndexError {
    pub path: PathBuf,
    pub what: String,
}

/// Whether answering may read the index's files, or only use what the
/// caches hold: a server answers from memory on the connection's own
/// thread, and hands a query that needs a read to the blocking pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    Allowed,
    CachedOnly,
}

/// The most folded characters, all terms together, of a query answered
/// on a connection's own thread ([`Reads::CachedOnly`]): a person's
/// query has far fewer, and near matches cost in proportion to them.
const ON_CONNECTION_CHARS: usize = 64;

/// Why the index gave no answer: a file is missing or bad, or (with
/// [`Reads::CachedOnly`]) one the query needs is not in the caches, or
/// the query is too long to answer there.
#[derive(Debug)]
pub enum Unanswered {
    Bad(IndexError),
    Uncached,
}

impl From<serde_json::Error> for Unanswered {
    fn from(error: serde_json::Error) -> Unanswered {
        Unanswered::Bad(IndexError {
            path: PathBuf::new(),
            what: error.to_string(),
        })
    }
}

/// One site's index, open over its directory.
#[derive(Debug)]
pub struct PublishedIndex {
    /// The site, open: every file is read relative to it, so a site a
    /// build swaps in later never mixes into this one's answers.
    site: SiteDir,
    reader: Reader,
}

/// The site directory's files, never one from outside it.
struct Beneath<'a>(&'a SiteDir);

impl Files for Beneath<'_> {
    fn read(&self, name: &str) -> Fetched {
        match site_path(&format!("/{name}"))
            .ok()
            .and_then(|path| self.0.read(&path))
        {
            Some(bytes) => Fetched::Bytes(bytes),
            None => Fetched::Missing,
        }
    }
}

impl PublishedIndex {
    /// Opens the index of the site at `root`: reads its manifest.
    pub fn open(root: &Path) -> Result<PublishedIndex, IndexError> {
        let site = SiteDir::open(root).map_err(|e| IndexError {
            path: root.to_owned(),
            what: format!("opening it failed: {e}"),
        })?;
        PublishedIndex::in_site(site)
    }

    /// Opens the index of an open site: reads its manifest.
    pub fn in_site(site: SiteDir) -> Result<PublishedIndex, IndexError> {
        let manifest = match Beneath(&site).read(crate::search::format::MANIFEST) {
            Fetched::Bytes(bytes) => bytes,
            _ => {
                return Err(IndexError {
                    path: site.path().join(crate::search::format::MANIFEST),
                    what: "it is missing, not a file, or outside the site".into(),
                });
            }
        };
        let reader = Reader::open(&manifest).map_err(|e| in_site(&site, e))?;
        Ok(PublishedIndex { site, reader })
    }

    /// How many entities the index holds.
    pub fn total(&self) -> usize {
        self.reader.total()
    }

    /// Answers a checked query with the answer's JSON, reading files only
    /// if `reads` allows.
    pub fn answer(&self, query: &Query, reads: Reads) -> Result<Vec<u8>, Unanswered> {
        let found = match reads {
            Reads::Allowed => self.reader.answer(query, &Beneath(&self.site)),
            Reads::CachedOnly => {
                let chars: usize = query.terms.iter().map(|t| t.chars().count()).sum();
                if chars > ON_CONNECTION_CHARS {
                    return Err(Unanswered::Uncached);
                }
                self.reader.answer(query, &CachedOnly)
            }
        };
        let found = match found {
            Ok(found) => found,
            Err(reader::Unanswered::Bad(error)) => {
                return Err(Unanswered::Bad(in_site(&self.site, error)));
            }
            Err(reader::Unanswered::Needs(_)) => return Err(Unanswered::Uncached),
        };
        Ok(answers::found_answer(
            self.reader.base_url(),
            query,
            &found,
        )?)
    }
}

/// The reader's error, its file placed in the site directory.
fn in_site(site: &SiteDir, error: reader::IndexError) -> IndexError {
    IndexError {
        path: site.path().join(&error.file),
        what: error.what,
    }
}
