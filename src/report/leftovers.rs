//! The hidden folders a report is staged in (`.<name>.new-<pid>`) and a replaced one is
//! retired to (`.<name>.old-<pid>`). A kill can leave one behind; the next run into the
//! same folder removes those whose process is gone, and only those d20odds made.

use std::fs;
use std::path::{Path, PathBuf};

use super::destination::{REPORT_MARKER, parent_of};

/// `.<name>.<kind>-<pid>` beside the report folder `out`.
pub(super) fn hidden_sibling(out: &Path, kind: &str, pid: u32) -> PathBuf {
    parent_of(out).join(format!(".{}.{kind}-{pid}", folder_name(out)))
}

fn folder_name(out: &Path) -> String {
    out.file_name()
        .map_or_else(|| "report".into(), |n| n.to_string_lossy().into_owned())
}

/// Removes the staging and retired folders of `out` left by d20odds processes that no
/// longer run: named as [`hidden_sibling`] names them, and empty or holding the report
/// marker (which a staging folder gets first). Failures are ignored: a leftover that
/// cannot be removed stays a leftover, and the report is still written.
pub(super) fn remove_leftovers(out: &Path) {
    let Ok(entries) = fs::read_dir(parent_of(out)) else {
        return;
    };
    let name = folder_name(out);
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name.to_str().and_then(|n| leftover_pid(n, &name)) else {
            continue;
        };
        let path = entry.path();
        let made_by_d20odds = fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir())
            && (path.join(REPORT_MARKER).is_file()
                || fs::read_dir(&path).is_ok_and(|mut e| e.next().is_none()));
        if made_by_d20odds && !process_runs(pid) {
            let _ = fs::remove_dir_all(&path);
        }
    }
}

/// The pid in `.<name>.new-<pid>` or `.<name>.old-<pid>`.
fn leftover_pid(file_name: &str, name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?.strip_prefix(name)?;
    let pid = rest
        .strip_prefix(".new-")
        .or_else(|| rest.strip_prefix(".old-"))?;
    pid.parse().ok()
}

/// Whether a process with this id runs; where that cannot be known, it is assumed to.
fn process_runs(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_leftovers_of_gone_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("x");
        let gone = hidden_sibling(&out, "new", u32::MAX);
        let running = hidden_sibling(&out, "old", std::process::id());
        let not_ours = dir.path().join(format!(".x.new-{}", u32::MAX - 1));
        for folder in [&gone, &running, &not_ours] {
            fs::create_dir(folder).unwrap();
        }
        fs::write(gone.join(REPORT_MARKER), "").unwrap();
        fs::write(not_ours.join("notes.txt"), "keep").unwrap();
        remove_leftovers(&out);
        assert!(!gone.exists());
        assert!(running.exists() && not_ours.exists());
        assert_eq!(leftover_pid(".x.new-12", "x"), Some(12));
        assert_eq!(leftover_pid(".xy.new-12", "x"), None);
    }
}
