//! The sweep table, streamed: each point's summary rows go to unnamed temporary files as
//! the point finishes (`sweep.csv`, and `sweep.parquet` and the `--json` rows when asked),
//! and only what the sweep chart draws stays in memory, so a sweep of 100,000 points needs
//! no more memory for its table than a sweep of ten.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use polars::io::parquet::write::BatchedWriter;
use polars::prelude::{CsvWriter, ParquetWriter, SerWriter};

use super::Formats;
use super::figures::SweepCurves;
use super::rows::AttackRow;
use super::table::{Column, Row, Rows, output_error};
use crate::error::Error;
use crate::scenario::{Assignments, Sweep, display_value};

/// Rows gathered before they are written out: enough for few, large writes (a Parquet row
/// group each), few enough to stay small.
const BATCH_ROWS: usize = 4096;

/// An unnamed temporary file: the system removes it when it is closed, so a killed run
/// leaves nothing behind.
#[derive(Debug)]
pub struct Spill {
    file: File,
    /// What the file will become, for errors.
    name: &'static str,
}

impl Spill {
    fn new(name: &'static str) -> Result<Self, Error> {
        let file = tempfile::tempfile().map_err(|e| Error::Output {
            what: name.to_string(),
            message: format!(
                "cannot create its temporary file in {}: {e}",
                std::env::temp_dir().display()
            ),
        })?;
        Ok(Self { file, name })
    }

    /// A second handle on the same file, for a writer that must own one.
    fn handle(&self) -> Result<File, Error> {
        self.file.try_clone().map_err(|e| self.error(e))
    }

    /// The whole file, from its start.
    pub(super) fn reader(&self) -> Result<impl Read + '_, Error> {
        let mut file = &self.file;
        file.seek(SeekFrom::Start(0)).map_err(|e| self.error(e))?;
        Ok(file)
    }

    fn error(&self, e: io::Error) -> Error {
        Error::Output {
            what: self.name.to_string(),
            message: format!("its temporary file: {e}"),
        }
    }
}

/// A swept field's column: its name (the field's `set` path) and type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweptField {
    pub(super) name: String,
    kind: Kind,
}

/// How a swept field's column is typed: by every value of its list, so the type does not
/// depend on how many points ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Float,
    Text,
}

impl SweptField {
    pub(super) fn of(sweep: &Sweep) -> Self {
        let kind = if sweep.values.iter().all(toml::Value::is_integer) {
            Kind::Int
        } else if sweep.values.iter().all(|v| v.is_float() || v.is_integer()) {
            Kind::Float
        } else {
            Kind::Text
        };
        Self {
            name: sweep.set.clone(),
            kind,
        }
    }

    /// A value of the field as its cell shows it.
    pub(super) fn text(&self, value: &toml::Value) -> String {
        match self.kind {
            Kind::Int => integer(value).to_string(),
            Kind::Float => float(value).map_or_else(String::new, |x| x.to_string()),
            Kind::Text => display_value(value),
        }
    }

    /// A value of the field as a number, where its column is numeric.
    pub(super) fn number(&self, value: &toml::Value) -> Option<f64> {
        match self.kind {
            Kind::Int => Some(integer(value) as f64),
            Kind::Float => float(value),
            Kind::Text => None,
        }
    }

    /// The column of the `i`-th swept field.
    fn column(&self, i: usize) -> Column<SweepRow> {
        let name = self.name.clone();
        match self.kind {
            Kind::Int => Column::int(name, move |r: &SweepRow| integer(&r.values[i])),
            Kind::Float => Column::float(name, move |r: &SweepRow| float(&r.values[i])),
            Kind::Text => Column::text(name, move |r: &SweepRow| display_value(&r.values[i])),
        }
    }
}

fn integer(value: &toml::Value) -> i64 {
    value.as_integer().unwrap_or_default()
}

fn float(value: &toml::Value) -> Option<f64> {
    value.as_float().or(value.as_integer().map(|i| i as f64))
}

/// One attack at one sweep point: a row of `sweep.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepRow {
    /// The value each swept field has at this point, in sweep order.
    pub values: Vec<toml::Value>,
    pub attack: AttackRow,
}

impl Row for SweepRow {
    const NAME: &'static str = "sweep";
    type Layout = Vec<SweptField>;

    fn columns(fields: &Vec<SweptField>) -> Vec<Column<Self>> {
        let swept = fields.iter().enumerate().map(|(i, field)| field.column(i));
        let attack = AttackRow::columns(&())
            .into_iter()
            .map(|column| column.within(|r: &SweepRow| &r.attack));
        swept.chain(attack).collect()
    }
}

/// Writes the sweep table point by point; [`SweepWriter::finish`] hands over the rows.
pub struct SweepWriter {
    fields: Vec<SweptField>,
    /// Rows not written yet.
    batch: Vec<SweepRow>,
    csv: Spill,
    parquet: Option<(Spill, Option<BatchedWriter<File>>)>,
    json: Option<(Spill, BufWriter<File>)>,
    curves: SweepCurves,
    rows: usize,
}

impl SweepWriter {
    /// A writer for the points of `sweeps`, with `sweep.parquet` when `formats` asks and
    /// the JSON rows when `json`.
    pub fn new(sweeps: &[Sweep], formats: Formats, json: bool) -> Result<Self, Error> {
        let parquet = match formats.parquet {
            true => Some((Spill::new("sweep.parquet")?, None)),
            false => None,
        };
        let json = match json {
            true => {
                let spill = Spill::new("the --json sweep rows")?;
                let writer = BufWriter::new(spill.handle()?);
                Some((spill, writer))
            }
            false => None,
        };
        Ok(Self {
            fields: sweeps.iter().map(SweptField::of).collect(),
            batch: Vec::new(),
            csv: Spill::new("sweep.csv")?,
            parquet,
            json,
            curves: SweepCurves::of(sweeps),
            rows: 0,
        })
    }

    /// Adds one point: the fields it set, then its summary rows.
    pub fn push(&mut self, assignments: &Assignments, summary: &[AttackRow]) -> Result<(), Error> {
        let values: Vec<toml::Value> = assignments.iter().map(|(_, v)| v.clone()).collect();
        let point: Vec<SweepRow> = summary
            .iter()
            .map(|attack| SweepRow {
                values: values.clone(),
                attack: attack.clone(),
            })
            .collect();
        self.curves.add_point(&self.fields, &point);
        self.batch.extend(point);
        if self.batch.len() >= BATCH_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the gathered rows to every output.
    fn flush(&mut self) -> Result<(), Error> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.batch);
        let rows = Rows::new(&self.fields, &batch);
        let mut frame = rows.frame("sweep.csv")?;
        CsvWriter::new(self.csv.handle()?)
            .include_header(self.rows == 0)
            .finish(&mut frame)
            .map_err(|e| output_error("sweep.csv", &e))?;
        if let Some((spill, writer)) = &mut self.parquet {
            let writer = match writer {
                Some(writer) => writer,
                None => writer.insert(
                    ParquetWriter::new(spill.handle()?)
                        .batched(frame.schema())
                        .map_err(|e| output_error("sweep.parquet", &e))?,
                ),
            };
            writer
                .write_batch(&frame)
                .map_err(|e| output_error("sweep.parquet", &e))?;
        }
        if let Some((spill, writer)) = &mut self.json {
            for row in rows.json_rows() {
                serde_json::to_writer_pretty(&mut *writer, &row)
                    .map_err(io::Error::from)
                    .and_then(|()| writer.write_all(b"\n"))
                    .map_err(|e| spill.error(e))?;
            }
        }
        self.rows += batch.len();
        Ok(())
    }

    /// The rows written, or `None` when no point ran.
    pub fn finish(mut self) -> Result<Option<SweepRows>, Error> {
        self.flush()?;
        if self.rows == 0 {
            return Ok(None);
        }
        let parquet = match self.parquet {
            Some((spill, writer)) => {
                if let Some(writer) = writer {
                    writer
                        .finish()
                        .map_err(|e| output_error("sweep.parquet", &e))?;
                }
                Some(spill)
            }
            None => None,
        };
        let json = match self.json {
            Some((spill, writer)) => {
                writer
                    .into_inner()
                    .map_err(|e| spill.error(e.into_error()))?;
                Some(spill)
            }
            None => None,
        };
        Ok(Some(SweepRows {
            csv: self.csv,
            parquet,
            json,
            curves: self.curves,
            rows: self.rows,
        }))
    }
}

/// A finished sweep table: its files on disk, the chart's figures in memory.
#[derive(Debug)]
pub struct SweepRows {
    pub(super) csv: Spill,
    pub(super) parquet: Option<Spill>,
    json: Option<Spill>,
    pub(super) curves: SweepCurves,
    rows: usize,
}

impl SweepRows {
    /// Writes the rows as the elements of a pretty-printed JSON array whose `]` is
    /// indented by `indent`, as `serde_json` would print them there.
    pub(super) fn write_json_array(&self, indent: &str, out: &mut impl Write) -> Result<(), Error> {
        let Some(spill) = &self.json else {
            return Err(Error::Output {
                what: "--json".into(),
                message: "the sweep rows were not kept for JSON".into(),
            });
        };
        let out_error = |e: io::Error| Error::io("standard output", e);
        out.write_all(b"[\n").map_err(out_error)?;
        let mut ended = 0;
        for line in BufReader::new(spill.reader()?).lines() {
            let line = line.map_err(|e| spill.error(e))?;
            write!(out, "{indent}  {line}").map_err(out_error)?;
            if line == "}" {
                ended += 1;
                if ended < self.rows {
                    out.write_all(b",").map_err(out_error)?;
                }
            }
            out.write_all(b"\n").map_err(out_error)?;
        }
        write!(out, "{indent}]").map_err(out_error)
    }
}

#[cfg(test)]
mod tests {
    use polars::prelude::{ParquetReader, SerReader};

    use super::*;
    use crate::report::table::Output;

    /// A point's summary of `rows` attacks, their figures depending on `point`.
    fn summary(point: usize, rows: usize) -> Vec<AttackRow> {
        (0..rows)
            .map(|r| {
                let mut attack =
                    AttackRow::example(&format!("F{r}"), "O", (point + r) as f64 / 7.0);
                attack.index = r + point;
                attack
            })
            .collect()
    }

    fn read(spill: &Spill) -> Vec<u8> {
        let mut bytes = Vec::new();
        spill.reader().unwrap().read_to_end(&mut bytes).unwrap();
        bytes
    }

    /// Points written in several batches (3,000 points × 2 rows, batches of 4,096 rows)
    /// give the CSV, Parquet and JSON of the whole table made at once; a list of integers
    /// and floats is a float column even for its integer values.
    #[test]
    fn streamed_rows_are_the_whole_table() {
        let sweeps = [
            Sweep {
                set: "O.ac".into(),
                values: vec![toml::Value::Integer(10), toml::Value::Float(12.5)],
                span: 0..0,
            },
            Sweep {
                set: "F.sword.damage".into(),
                values: vec![toml::Value::String("1d8".into())],
                span: 0..0,
            },
        ];
        let mut writer = SweepWriter::new(&sweeps, Formats { parquet: true }, true).unwrap();
        let mut whole = Vec::new();
        for point in 0..3000 {
            let ac = &sweeps[0].values[point % 2];
            let assignments = vec![
                ("O.ac".to_string(), ac.clone()),
                ("F.sword.damage".to_string(), sweeps[1].values[0].clone()),
            ];
            let rows = summary(point, 2);
            writer.push(&assignments, &rows).unwrap();
            whole.extend(rows.into_iter().map(|attack| SweepRow {
                values: vec![ac.clone(), sweeps[1].values[0].clone()],
                attack,
            }));
        }
        let fields: Vec<SweptField> = sweeps.iter().map(SweptField::of).collect();
        let whole = Rows::new(&fields, &whole);
        let rows = writer.finish().unwrap().unwrap();
        assert_eq!(rows.rows, 6000);
        let csv = String::from_utf8(read(&rows.csv)).unwrap();
        assert_eq!(csv, String::from_utf8(whole.csv().unwrap()).unwrap());
        assert!(csv.starts_with("O.ac,F.sword.damage,attacker,target,attack,index,"));
        assert!(csv.contains("\n10.0,1d8,F0,O,sword,0,"), "{}", &csv[..400]);
        let frame = ParquetReader::new(std::io::Cursor::new(read(rows.parquet.as_ref().unwrap())))
            .finish()
            .unwrap();
        assert_eq!(frame.shape(), (6000, 39));
        let mut json = Vec::new();
        rows.write_json_array("  ", &mut json).unwrap();
        let expected = format!("{:#}", serde_json::json!({ "sweep": whole.json() }));
        let inner = expected
            .strip_prefix("{\n  \"sweep\": ")
            .and_then(|s| s.strip_suffix("\n}"))
            .unwrap();
        assert_eq!(String::from_utf8(json).unwrap(), inner);
    }

    #[test]
    fn a_sweep_stopped_before_its_first_point_has_no_rows() {
        let writer = SweepWriter::new(&[], Formats::default(), false).unwrap();
        assert!(writer.finish().unwrap().is_none());
    }
}
