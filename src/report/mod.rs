//! The only writer of files: turns [`Results`] into the report folder (CSV tables,
//! charts as SVG and PNG, `report.html`, `summary.md`), replaced whole or not at all, and
//! renders the terminal summary.

mod charts;
mod check;
mod destination;
mod fight_rows;
mod figures;
mod heatmap_rows;
mod inputs;
mod leftovers;
mod page;
mod parquet;
mod results;
mod rows;
mod swap;
mod sweep;
mod table;
mod text;
mod variants;

use std::fs;
use std::path::Path;

use sweep::Spill;

use crate::error::Error;
pub use check::check;
pub use destination::{REPORT_MARKER, check_folder, report_folder};
pub use heatmap_rows::{Heatmap, HeatmapCell, HeatmapLayout, HeatmapRow, Shown};
pub use inputs::Inputs;
pub use parquet::{BUILT_IN as PARQUET_BUILT_IN, refusal as parquet_refusal};
pub use results::{Results, one_or_array, write_json};
pub use sweep::{PointRows, SweepRows, SweepWriter};
pub use text::summary_text;
pub use variants::{
    BASELINE, FightFigures, PlanFigures, VariantRow, fight_exact, plan_exact, variant_rows,
};

/// What a report folder holds besides the files every report has.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Formats {
    /// Each table also as Parquet (`summary.parquet` beside `summary.csv`, …), for
    /// dataframe tools that want the column types without parsing text (`run --parquet`).
    pub parquet: bool,
}

/// The files of a report folder, by name: `summary.csv`, `rounds.csv`, `damage.csv`
/// (`sweep.csv`, `heatmap.csv`; each also as `.parquet` when `formats` asks), the charts
/// `map`, `rounds`, `damage` (`sweep`, `heatmap`) as `.svg` and `.png`, `report.html` and
/// `summary.md`. A chart that cannot be drawn is an error, so no folder is written
/// without it.
pub fn report_files<'a>(
    results: &'a Results,
    inputs: &Inputs,
    formats: Formats,
) -> Result<Vec<(String, Contents<'a>)>, Error> {
    let mut files = Vec::new();
    for table in results.tables() {
        files.push((format!("{}.csv", table.name()), table.csv()?.into()));
        if formats.parquet {
            files.push((format!("{}.parquet", table.name()), table.parquet()?.into()));
        }
    }
    for table in results.sweep.iter().flat_map(|s| &s.tables) {
        files.push((format!("{}.csv", table.name), Contents::Spilled(&table.csv)));
        if let Some(parquet) = &table.parquet {
            files.push((
                format!("{}.parquet", table.name),
                Contents::Spilled(parquet),
            ));
        }
    }
    let figures = figures::Figures::draw(results, inputs)?;
    files.extend(figures.files().into_iter().map(|(f, b)| (f, b.into())));
    let report = page::report(results, inputs, &figures);
    files.push((
        "report.html".into(),
        charts::report_html(&report).into_bytes().into(),
    ));
    let summary = page::summary(results);
    files.push((
        "summary.md".into(),
        charts::summary_markdown(&summary).into_bytes().into(),
    ));
    Ok(files)
}

/// What a report file holds: bytes made in memory, or a table streamed to disk as it
/// was computed (the sweep's).
#[derive(Debug)]
pub enum Contents<'a> {
    Bytes(Vec<u8>),
    Spilled(&'a Spill),
}

impl From<Vec<u8>> for Contents<'_> {
    fn from(bytes: Vec<u8>) -> Self {
        Contents::Bytes(bytes)
    }
}

impl Contents<'_> {
    /// Writes the contents as the file `path`.
    fn write(&self, path: &Path) -> Result<(), Error> {
        match self {
            Contents::Bytes(bytes) => fs::write(path, bytes).map_err(|e| Error::io(path, e)),
            Contents::Spilled(spill) => {
                let mut file = fs::File::create(path).map_err(|e| Error::io(path, e))?;
                std::io::copy(&mut spill.reader()?, &mut file)
                    .map(|_| ())
                    .map_err(|e| Error::io(path, e))
            }
        }
    }
}

/// What the terminal, `report.html` and `summary.md` say of a run stopped by Ctrl-C.
fn interrupted_note(results: &Results) -> String {
    let mut note = format!(
        "Interrupted (Ctrl-C): these figures come from the {} trials completed before the stop, not from all the trials asked for.",
        results.trials
    );
    if !results.not_run.is_empty() {
        note += &format!(" Not run: {}.", results.not_run.join("; "));
    }
    note
}

/// Writes `files` and [`REPORT_MARKER`] as the folder `out`: first into a sibling
/// temporary folder, then swapped in, so an interrupted, killed or failed run leaves the
/// previous report as it was. Only a report folder d20odds wrote is ever replaced.
pub fn write_folder(out: &Path, files: &[(String, Contents)]) -> Result<(), Error> {
    check_folder(out, &[])?;
    let parent = destination::parent_of(out);
    match fs::create_dir(&parent) {
        Err(e) if !(e.kind() == std::io::ErrorKind::AlreadyExists && parent.is_dir()) => {
            return Err(Error::io(&parent, e));
        }
        _ => {}
    }
    leftovers::remove_leftovers(out);
    let staging = leftovers::hidden_sibling(out, "new", std::process::id());
    let staged = (|| {
        fs::create_dir(&staging).map_err(|e| Error::io(&staging, e))?;
        let marker = staging.join(REPORT_MARKER);
        let text = destination::marker_text(files.iter().map(|(file, _)| file.as_str()));
        fs::write(&marker, text).map_err(|e| Error::io(&marker, e))?;
        for (file, contents) in files {
            // A failed write is named as the report's file: the staging folder goes.
            contents.write(&staging.join(file)).map_err(|e| match e {
                Error::Io { source, .. } => Error::io(out.join(file), source),
                other => other,
            })?;
        }
        Ok(())
    })();
    if let Err(e) = staged {
        let _ = fs::remove_dir_all(&staging);
        return Err(e);
    }
    swap::swap_in(
        &staging,
        out,
        &leftovers::hidden_sibling(out, "old", std::process::id()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("reports").join("x");
        write_folder(
            &out,
            &[
                ("a.csv".into(), b"1".to_vec().into()),
                ("b.csv".into(), b"2".to_vec().into()),
            ],
        )
        .unwrap();
        write_folder(&out, &[("a.csv".into(), b"3".to_vec().into())]).unwrap();
        assert_eq!(fs::read(out.join("a.csv")).unwrap(), b"3");
        assert!(!out.join("b.csv").exists());
        let leftovers: Vec<_> = fs::read_dir(out.parent().unwrap()).unwrap().collect();
        assert_eq!(leftovers.len(), 1);
        assert!(out.join(REPORT_MARKER).is_file());
    }

    #[test]
    fn a_file_in_the_way_is_an_error_and_stays() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("x");
        fs::write(&out, b"keep").unwrap();
        let err = write_folder(&out, &[("a.csv".into(), b"1".to_vec().into())]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert_eq!(fs::read(&out).unwrap(), b"keep");
    }
}
