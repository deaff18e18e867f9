//! Putting a freshly written report folder where the previous one was, so that at every
//! instant — even under `kill -9` — the report path holds one whole folder.

use std::fs;
use std::path::Path;

use crate::error::Error;

/// Moves the complete folder `staging` to `out`. An existing `out` is exchanged with
/// `staging` in one atomic step where the system can (Linux `renameat2` with
/// `RENAME_EXCHANGE`), then removed from its new place; elsewhere it is first renamed to
/// `retired` (a window in which a kill leaves it there, whole, instead of at `out`).
pub(super) fn swap_in(staging: &Path, out: &Path, retired: &Path) -> Result<(), Error> {
    if !out.exists() {
        return fs::rename(staging, out).map_err(|e| {
            let _ = fs::remove_dir_all(staging);
            Error::io(out, e)
        });
    }
    if exchange(staging, out) {
        return fs::remove_dir_all(staging).map_err(|e| Error::io(staging, e));
    }
    fs::rename(out, retired).map_err(|e| Error::io(out, e))?;
    if let Err(e) = fs::rename(staging, out) {
        let _ = fs::rename(retired, out);
        let _ = fs::remove_dir_all(staging);
        return Err(Error::io(out, e));
    }
    fs::remove_dir_all(retired).map_err(|e| Error::io(retired, e))
}

/// Swaps two paths atomically; `false` when the system or file system cannot.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> bool {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).is_ok()
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_new_folder_takes_the_place_of_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let (staging, out, retired) = (
            dir.path().join("new"),
            dir.path().join("out"),
            dir.path().join("old"),
        );
        for (folder, text) in [(&staging, "new"), (&out, "old")] {
            fs::create_dir(folder).unwrap();
            fs::write(folder.join("a.csv"), text).unwrap();
        }
        swap_in(&staging, &out, &retired).unwrap();
        assert_eq!(fs::read_to_string(out.join("a.csv")).unwrap(), "new");
        assert!(!staging.exists() && !retired.exists());
    }
}
