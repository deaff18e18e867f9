//! Where a report folder may go. A run replaces its report folder whole, so it must only
//! ever replace a folder it wrote itself: every report folder holds [`REPORT_MARKER`], and
//! anything else at the destination — a user's folder, a file, a symbolic link, a folder
//! holding one of the experiments being run — is refused before anything is simulated.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::leftovers::hidden_sibling;
use crate::error::Error;

/// The file d20odds writes into every report folder, and the only sign it trusts that a
/// folder is a report it may replace.
pub const REPORT_MARKER: &str = ".d20odds-report";

/// What the marker file says to a person who opens it, before the list of the files
/// written (see [`marker_text`]).
const MARKER_TEXT: &str = "This folder is a report written by d20odds: the next run of the same experiment replaces it whole.\nDelete this file to keep d20odds from ever replacing the folder.\n";

/// The line in the marker after which come the files the report holds, one per line.
const FILES_HEADING: &str =
    "The files it wrote (while the folder holds anything else, a run refuses to replace it):";

/// The marker's text for a report of `files`.
pub(super) fn marker_text<'a>(files: impl Iterator<Item = &'a str>) -> String {
    let mut text = format!("{MARKER_TEXT}\n{FILES_HEADING}\n");
    for file in files {
        text += file;
        text += "\n";
    }
    text
}

/// The files a report folder's marker lists, `None` for a marker without a list (a report
/// written before markers had one).
fn files_written(marker: &str) -> Option<Vec<&str>> {
    let (_, list) = marker.split_once(&format!("{FILES_HEADING}\n"))?;
    Some(list.lines().filter(|l| !l.is_empty()).collect())
}

/// `out/<file stem>` for `experiments/<file stem>.toml`; a stem that names no folder of
/// its own (`..toml` has the stem `.`, `...toml` the stem `..`) is refused.
pub fn report_folder(out: &Path, experiment: &Path) -> Result<PathBuf, Error> {
    let stem = experiment.file_stem().unwrap_or_default();
    if stem.is_empty() || stem == "." || stem == ".." {
        return Err(refused(
            experiment,
            "its file stem names no report folder of its own; rename the file (e.g. experiment.toml)",
        ));
    }
    Ok(out.join(stem))
}

/// Checks, before anything is simulated, that the report folder `out` can be written:
/// nothing is there, or a report folder d20odds wrote that holds none of `experiments`
/// and is no mount point; its parent (the `--out` folder) is a folder d20odds can write
/// in (a staging folder is made and removed to find out), or is missing with an existing
/// parent, so a mistyped `--out` is not silently built.
pub fn check_folder(out: &Path, experiments: &[&Path]) -> Result<(), Error> {
    match fs::symlink_metadata(out) {
        Ok(meta) if meta.is_symlink() => {
            return Err(refused(
                out,
                "is a symbolic link, not a report folder d20odds wrote; it is left as it is: choose another --out or remove it",
            ));
        }
        Ok(meta) if !meta.is_dir() => {
            return Err(refused(
                out,
                "exists and is not a folder d20odds wrote; it is left as it is: choose another --out or move it",
            ));
        }
        Ok(_) => check_report_folder(out, experiments)?,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {}
        Err(e) => return Err(Error::io(out, e)),
    }
    let parent = parent_of(out);
    check_parent(&parent)?;
    if parent.is_dir() {
        let probe = hidden_sibling(out, "new", std::process::id());
        fs::create_dir(&probe)
            .and_then(|()| fs::remove_dir(&probe))
            .map_err(|e| {
                refused(
                    &parent,
                    &format!("is a folder d20odds cannot write in ({e}); choose another --out"),
                )
            })?;
    }
    Ok(())
}

/// `out` is a folder: it must hold the marker, none of the experiments being run and
/// nothing the marker does not list (a file the user put there).
fn check_report_folder(out: &Path, experiments: &[&Path]) -> Result<(), Error> {
    let marked = fs::symlink_metadata(out.join(REPORT_MARKER)).is_ok_and(|m| m.is_file());
    if !marked {
        return Err(refused(
            out,
            &format!(
                "is a folder d20odds did not write (it has no {REPORT_MARKER} file), and a report would replace it whole; it is left as it is: choose another --out or move it"
            ),
        ));
    }
    if is_mount_point(out) {
        return Err(refused(
            out,
            "is a mount point, which cannot be replaced by renaming a new folder over it; choose another --out",
        ));
    }
    let folder = fs::canonicalize(out).map_err(|e| Error::io(out, e))?;
    for experiment in experiments {
        if fs::canonicalize(experiment).is_ok_and(|file| file.starts_with(&folder)) {
            return Err(refused(
                out,
                &format!(
                    "holds the experiment file {}, which replacing the report folder would delete; keep experiment files outside their report folders",
                    experiment.display()
                ),
            ));
        }
    }
    let marker = fs::read_to_string(out.join(REPORT_MARKER)).unwrap_or_default();
    if let Some(written) = files_written(&marker) {
        let entries = fs::read_dir(out).map_err(|e| Error::io(out, e))?;
        for entry in entries {
            let name = entry.map_err(|e| Error::io(out, e))?.file_name();
            let name = name.to_string_lossy();
            if name != REPORT_MARKER && !written.contains(&name.as_ref()) {
                return Err(refused(
                    out,
                    &format!(
                        "holds {name}, which d20odds did not write, and a new report would replace the folder whole; it is left as it is: move {name} out of it, or choose another --out"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The `--out` folder: a folder, or missing under an existing folder (it is then created).
fn check_parent(parent: &Path) -> Result<(), Error> {
    if parent.is_dir() {
        return Ok(());
    }
    let blocker = parent
        .ancestors()
        .find(|a| fs::symlink_metadata(a).is_ok() && !a.is_dir());
    if let Some(blocker) = blocker {
        return Err(refused(
            blocker,
            "is not a folder, so the --out folder cannot be made there; choose another --out",
        ));
    }
    let grandparent = parent_of(parent);
    if !grandparent.is_dir() {
        return Err(refused(
            parent,
            &format!(
                "the --out folder cannot be created: {} does not exist",
                grandparent.display()
            ),
        ));
    }
    Ok(())
}

/// Whether `folder` lies on another file system than its parent.
fn is_mount_point(folder: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let device = |p: &Path| fs::metadata(p).map(|m| m.dev());
        match (device(folder), fs::canonicalize(folder)) {
            (Ok(own), Ok(real)) => real
                .parent()
                .is_some_and(|up| device(up).is_ok_and(|d| d != own)),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = folder;
        false
    }
}

pub(super) fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn refused(path: &Path, why: &str) -> Error {
    Error::Destination {
        path: path.to_path_buf(),
        message: why.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_marked_folder_without_the_experiment_may_be_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("src");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("main.rs"), "keep").unwrap();
        let err = check_folder(&out, &[]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains(REPORT_MARKER), "{err}");
        fs::write(
            out.join(REPORT_MARKER),
            marker_text(["main.rs"].into_iter()),
        )
        .unwrap();
        check_folder(&out, &[]).unwrap();
        let experiment = out.join("src.toml");
        fs::write(&experiment, "").unwrap();
        let err = check_folder(&out, &[&experiment]).unwrap_err();
        assert!(
            err.to_string().contains("holds the experiment file"),
            "{err}"
        );
    }

    /// A file the marker does not list is the user's: the folder is not replaced, and the
    /// error names the file. A marker without a list (an older report) lists nothing.
    #[test]
    fn a_report_folder_holding_a_users_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("report");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("summary.csv"), "").unwrap();
        let listed = marker_text(["summary.csv", "report.html"].into_iter());
        fs::write(out.join(REPORT_MARKER), &listed).unwrap();
        check_folder(&out, &[]).unwrap();
        fs::write(out.join("my-notes.txt"), "keep").unwrap();
        let err = check_folder(&out, &[]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains("holds my-notes.txt"), "{err}");
        fs::write(out.join(REPORT_MARKER), MARKER_TEXT).unwrap();
        check_folder(&out, &[]).unwrap();
    }

    /// `/proc` lies on its own file system (procfs) on every Linux machine; a temporary
    /// folder lies on the same one as its parent.
    #[cfg(target_os = "linux")]
    #[test]
    fn mount_points_are_told_apart_from_plain_folders() {
        assert!(is_mount_point(Path::new("/proc")));
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        fs::create_dir(&plain).unwrap();
        assert!(!is_mount_point(&plain));
    }

    #[test]
    fn stems_that_name_no_folder_are_refused() {
        for name in ["..toml", "...toml"] {
            let err = report_folder(Path::new("reports"), Path::new(name)).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{name}");
        }
        assert_eq!(
            report_folder(Path::new("reports"), Path::new("x/a.toml")).unwrap(),
            Path::new("reports/a")
        );
    }
}
