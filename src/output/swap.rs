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
    if let Err(e) = std::fs::rename(new, out) {
        // The previous site back in place; failing that, the next build
        // puts it back (`recover`).
        let _ = std::fs::rename(&old, out);
        return Err(io(out, "moving the new site into place")(e));
    }
    Ok(old)
}

/// Undoes what a build killed between the two renames of a swap that
/// could not exchange left: no site at `out`, the previous one aside. It
/// goes back to `out`. Run under the build lock, before anything else.
pub fn recover(out: &Path) -> Result<(), OutputError> {
    let old = sibling(out, "old");
    let missing = matches!(std::fs::symlink_metadata(out), Err(e) if e.kind() == std::io::ErrorKind::NotFound);
    if missing && std::fs::symlink_metadata(&old).is_ok_and(|m| m.is_dir()) {
        std::fs::rename(&old, out).map_err(io(
            out,
            "putting the previous site back in place (an earlier build was stopped while swapping)",
        ))?;
    }
    Ok(())
}
