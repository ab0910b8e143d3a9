//! Folders of the site being replaced that the new site takes as they are
//! (a release published earlier, frozen): moved into the new site just
//! before the swap, one rename each, instead of a hard link per file.
//!
//! A site of ten releases of 10,000 entities is half a million files; a
//! link each (and an unlink each when the replaced site is removed) was
//! most of a build's time on a host without code. A folder moved is one
//! directory entry changed, whatever it holds.
//!
//! The moves and the swap are not one step: between them the previous
//! site lacks the moved folders (a few renames long), and a build killed
//! there would leave it so. So the folders to move are written first in a
//! journal beside the output (`.{name}.ontosite-adopting`), and the next
//! build, before it clears anything, moves back every one still in the
//! staging directory while the output lacks it; once the swap is done the
//! journal is removed.

use super::{OutputError, checked, io, sibling};
use std::path::{Path, PathBuf};

const JOURNAL_HEADER: &str = "ontosite: folders moved from the output into its staging directory, moved back by the next build if the swap did not happen\n";

/// Folders moved from the output into the staging directory, the journal
/// that lists them still there: the swap has not happened yet.
#[derive(Debug)]
pub struct Moved {
    /// The journal, where there is one (none for no folders).
    journal: Option<PathBuf>,
    out: PathBuf,
    staging: PathBuf,
    folders: Vec<String>,
}

/// Writes the journal naming `folders` (site paths of the output), then
/// moves each from `out` into `staging`, whose folder above each exists.
/// Where a move fails, those moved are moved back first.
pub fn move_in(out: &Path, staging: &Path, folders: &[String]) -> Result<Moved, OutputError> {
    let mut moved = Moved {
        journal: None,
        out: out.to_owned(),
        staging: staging.to_owned(),
        folders: Vec::with_capacity(folders.len()),
    };
    if folders.is_empty() {
        return Ok(moved);
    }
    let mut text = JOURNAL_HEADER.to_owned();
    for folder in folders {
        checked(folder)?;
        text.push_str(folder);
        text.push('\n');
    }
    let journal = journal(out);
    // On disk before any folder moves: without it a crash between the
    // moves and the swap would leave them where the next build clears.
    let written = std::fs::File::create(&journal).and_then(|mut file| {
        std::io::Write::write_all(&mut file, text.as_bytes())?;
        file.sync_all()
    });
    written.map_err(io(&journal, "writing"))?;
    moved.journal = Some(journal);
    for folder in folders {
        let from = out.join(folder);
        if let Err(e) = std::fs::rename(&from, staging.join(folder)) {
            return Err(moved.undo(io(&from, "moving a kept release into the new site")(e)));
        }
        moved.folders.push(folder.clone());
    }
    Ok(moved)
}

impl Moved {
    /// The swap happened: the folders are in the output now. Returns
    /// them (site paths), which the replaced site no longer holds.
    pub fn swapped(self) -> Vec<String> {
        // Left behind, the next build finds nothing to move back.
        self.forget();
        self.folders
    }

    /// The swap did not happen (`failed` says why): every folder back
    /// where it was, the journal gone, and `failed` returned. Where one
    /// cannot be moved back the journal stays, the next build tries again
    /// before anything else, and both errors are returned.
    pub fn undo(self, failed: OutputError) -> OutputError {
        for folder in self.folders.iter().rev() {
            let home = self.out.join(folder);
            if let Err(back) = std::fs::rename(self.staging.join(folder), &home) {
                return OutputError::NotPutBack {
                    failed: Box::new(failed),
                    home,
                    back,
                    journal: journal(&self.out),
                    staging: self.staging,
                };
            }
        }
        self.forget();
        failed
    }

    fn forget(&self) {
        if let Some(journal) = &self.journal {
            let _ = std::fs::remove_file(journal);
        }
    }
}

/// Whether a journal beside `out` names folders moved into its staging
/// directory that may still be there: the staging directory is then not
/// to be removed, whatever else went wrong.
pub fn pending(out: &Path) -> bool {
    std::fs::symlink_metadata(journal(out)).is_ok()
}

/// The journal's place, beside `out`.
fn journal(out: &Path) -> PathBuf {
    sibling(out, "adopting")
}

/// Undoes what a build killed between its moves and its swap left: each
/// folder the journal beside `out` lists that is in `staging` and not in
/// `out` goes back to `out`. Run under the build lock, before the leftover
/// staging directory is cleared (its marker lists the moved files).
pub fn recover(out: &Path, staging: &Path) -> Result<(), OutputError> {
    let journal = journal(out);
    let text = match std::fs::read_to_string(&journal) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io(&journal, "reading")(e)),
    };
    for folder in text.lines().skip(1).filter(|l| !l.is_empty()) {
        let relative = checked(folder)?;
        let (moved, home) = (staging.join(relative), out.join(relative));
        let there = |path: &Path| std::fs::symlink_metadata(path).is_ok();
        match (there(&moved), there(&home)) {
            (true, false) => std::fs::rename(&moved, &home).map_err(io(
                &home,
                "moving a kept release back into the previous site (an earlier build was stopped while swapping)",
            ))?,
            // Neither is to be cleared: the staging directory is left
            // to a person.
            (true, true) => {
                return Err(OutputError::TwoCopies {
                    folder: folder.to_owned(),
                    moved,
                    home,
                });
            }
            _ => {}
        }
    }
    std::fs::remove_file(&journal).map_err(io(&journal, "removing"))
}
