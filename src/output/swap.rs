//! Putting a new directory in place of an old one.

use super::{OutputError, io, sibling};
use std::path::{Path, PathBuf};

/// Puts `new` at `out`, and returns where the old `out` now is.
///
/// On Linux this is one `renameat2(RENAME_EXCHANGE)`: there is no moment at
/// which `out` is missing or half-written. Where the file system cannot
/// exchange, and on other systems, it is two renames, with a window between
/// them in which `out` does not exist.
pub fn replace(new: &Path, out: &Path) -> Result<PathBuf, OutputError> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, new, CWD, out, RenameFlags::EXCHANGE) {
            Ok(()) => return Ok(new.to_owned()),
            Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {}
            Err(e) => return Err(io(out, "swapping in the new site")(e.into())),
        }
    }
    let old = sibling(out, "old");
    std::fs::rename(out, &old).map_err(io(out, "moving the previous site aside"))?;
    if let Err(new) = std::fs::rename(new, out) {
        // The previous site back in place; failing that, the next build
        // puts it back (`recover`), and the error says so.
        return Err(match std::fs::rename(&old, out) {
            Ok(()) => io(out, "moving the new site into place")(new),
            Err(back) => OutputError::SiteAside {
                out: out.to_owned(),
                aside: old,
                new,
                back,
            },
        });
    }
    Ok(old)
}

/// Whether a swap that could not exchange was stopped between its two
/// renames: no site at `out`, the previous one aside, and the new one
/// still staged beside it. A folder aside alone is a replaced site whose
/// removal did not finish (`out` since deleted by hand): never put back.
pub fn was_stopped(out: &Path) -> bool {
    let is_dir = |path: &Path| std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
    let missing = matches!(std::fs::symlink_metadata(out), Err(e) if e.kind() == std::io::ErrorKind::NotFound);
    missing
        && is_dir(&sibling(out, "old"))
        && std::fs::symlink_metadata(sibling(out, "staging").join(super::MARKER)).is_ok()
}

/// Undoes what a build killed between the two renames of a swap that
/// could not exchange left: no site at `out`, the previous one aside. It
/// goes back to `out`. Run under the build lock, before anything else.
pub fn recover(out: &Path) -> Result<(), OutputError> {
    if was_stopped(out) {
        let old = sibling(out, "old");
        std::fs::rename(&old, out).map_err(io(
            out,
            "putting the previous site back in place (an earlier build was stopped while swapping)",
        ))?;
    }
    Ok(())
}
