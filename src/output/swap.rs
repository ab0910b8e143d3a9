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
    std::fs::rename(new, out).map_err(io(out, "moving the new site into place"))?;
    Ok(old)
}
