//! The sweep tables, streamed: each point's rows go to unnamed temporary files as the
//! point finishes (`sweep.csv` its attacks, `sweep_rounds.csv` its targets' down/dead by
//! round, `sweep_sides.csv` a fight's sides, `sweep_variants.csv` its headline figures and
//! their paired differences to the experiment as written; each `.parquet` and the `--json`
//! rows when asked), and only what the sweep chart draws stays in memory, so a sweep of 100,000
//! points needs no more memory for its tables than a sweep of ten.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use polars::prelude::{CsvWriter, SerWriter};

use super::Formats;
use super::fight_rows::SideRow;
use super::figures::SweepCurves;
use super::parquet::Batched;
use super::rows::{AttackRow, RoundRow};
use super::table::{Column, Row, Rows, output_error};
use super::variants::VariantRow;
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
    name: String,
}

impl Spill {
    fn new(name: impl Into<String>) -> Result<Self, Error> {
        let name = name.into();
        let file = tempfile::tempfile().map_err(|e| Error::Output {
            what: name.clone(),
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
            what: self.name.clone(),
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
    fn column<R: 'static>(&self, i: usize) -> Column<Swept<R>> {
        let name = self.name.clone();
        match self.kind {
            Kind::Int => Column::int(name, move |r: &Swept<R>| integer(&r.values[i])),
            Kind::Float => Column::float(name, move |r: &Swept<R>| float(&r.values[i])),
            Kind::Text => Column::text(name, move |r: &Swept<R>| display_value(&r.values[i])),
        }
    }
}

fn integer(value: &toml::Value) -> i64 {
    value.as_integer().unwrap_or_default()
}

fn float(value: &toml::Value) -> Option<f64> {
    value.as_float().or(value.as_integer().map(|i| i as f64))
}

/// A row of a table the sweep repeats per point: the swept fields' values at the point,
/// then the row (an attack of `sweep.csv`, a round of `sweep_rounds.csv`, a side of
/// `sweep_sides.csv`).
#[derive(Debug, Clone, PartialEq)]
pub struct Swept<R> {
    /// The value each swept field has at this point, in sweep order.
    pub values: Vec<toml::Value>,
    pub row: R,
}

/// One attack at one sweep point: a row of `sweep.csv`.
pub type SweepRow = Swept<AttackRow>;

/// A table whose rows a sweep writes per point, under its own name.
pub trait PerPoint: Row<Layout = ()> + Clone {
    /// The sweep table's file stem and `--json` key.
    const SWEEP_NAME: &'static str;
}

impl PerPoint for AttackRow {
    const SWEEP_NAME: &'static str = "sweep";
}

impl PerPoint for RoundRow {
    const SWEEP_NAME: &'static str = "sweep_rounds";
}

impl PerPoint for SideRow {
    const SWEEP_NAME: &'static str = "sweep_sides";
}

impl PerPoint for VariantRow {
    const SWEEP_NAME: &'static str = "sweep_variants";
}

impl<R: PerPoint> Row for Swept<R> {
    const NAME: &'static str = R::SWEEP_NAME;
    type Layout = Vec<SweptField>;

    fn columns(fields: &Vec<SweptField>) -> Vec<Column<Self>> {
        let swept = fields.iter().enumerate().map(|(i, field)| field.column(i));
        let row = R::columns(&())
            .into_iter()
            .map(|column| column.within(|r: &Swept<R>| &r.row));
        swept.chain(row).collect()
    }
}

/// One table streamed point by point to its spills: the CSV, and the Parquet and the
/// JSON rows when asked.
struct TableWriter<R: PerPoint> {
    fields: Vec<SweptField>,
    /// Rows not written yet.
    batch: Vec<Swept<R>>,
    csv: Spill,
    parquet: Option<(Spill, Option<Batched>)>,
    json: Option<(Spill, BufWriter<File>)>,
    rows: usize,
}

impl<R: PerPoint> TableWriter<R> {
    fn new(fields: Vec<SweptField>, formats: Formats, json: bool) -> Result<Self, Error> {
        let parquet = match formats.parquet {
            true => Some((Spill::new(format!("{}.parquet", R::SWEEP_NAME))?, None)),
            false => None,
        };
        let json = match json {
            true => {
                let spill = Spill::new(format!("the --json {} rows", R::SWEEP_NAME))?;
                let writer = BufWriter::new(spill.handle()?);
                Some((spill, writer))
            }
            false => None,
        };
        Ok(Self {
            fields,
            batch: Vec::new(),
            csv: Spill::new(format!("{}.csv", R::SWEEP_NAME))?,
            parquet,
            json,
            rows: 0,
        })
    }

    /// Adds one point's rows, writing them out once a batch is full.
    fn push(&mut self, point: Vec<Swept<R>>) -> Result<(), Error> {
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
        let (csv_name, parquet_name) =
            (self.csv.name.clone(), format!("{}.parquet", R::SWEEP_NAME));
        let batch = std::mem::take(&mut self.batch);
        let rows = Rows::new(&self.fields, &batch);
        let mut frame = rows.frame(&csv_name)?;
        CsvWriter::new(self.csv.handle()?)
            .include_header(self.rows == 0)
            .finish(&mut frame)
            .map_err(|e| output_error(&csv_name, &e))?;
        if let Some((spill, writer)) = &mut self.parquet {
            let writer = match writer {
                Some(writer) => writer,
                None => writer.insert(Batched::new(spill.handle()?, &frame, &parquet_name)?),
            };
            writer.write(&frame, &parquet_name)?;
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

    /// The table written.
    fn finish(mut self) -> Result<SpilledTable, Error> {
        self.flush()?;
        let parquet = match self.parquet {
            Some((spill, writer)) => {
                if let Some(writer) = writer {
                    writer.finish(&spill.name)?;
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
        Ok(SpilledTable {
            name: R::SWEEP_NAME,
            csv: self.csv,
            parquet,
            json,
            rows: self.rows,
        })
    }
}

/// Writes the sweep's tables point by point; [`SweepWriter::finish`] hands over the rows.
pub struct SweepWriter {
    fields: Vec<SweptField>,
    attacks: TableWriter<AttackRow>,
    rounds: TableWriter<RoundRow>,
    sides: TableWriter<SideRow>,
    variants: TableWriter<VariantRow>,
    curves: SweepCurves,
}

/// What one sweep point reports: its attacks, its targets (in a fight, its combatants)
/// by round, a fight's sides, and its figures beside their differences to the experiment
/// as written.
#[derive(Debug, Clone, Copy)]
pub struct PointRows<'a> {
    pub attacks: &'a [AttackRow],
    pub rounds: &'a [RoundRow],
    pub sides: &'a [SideRow],
    pub variants: &'a [VariantRow],
}

impl SweepWriter {
    /// A writer for the points of `sweeps`, with `.parquet` files when `formats` asks and
    /// the JSON rows when `json`.
    pub fn new(sweeps: &[Sweep], formats: Formats, json: bool) -> Result<Self, Error> {
        let fields: Vec<SweptField> = sweeps.iter().map(SweptField::of).collect();
        Ok(Self {
            attacks: TableWriter::new(fields.clone(), formats, json)?,
            rounds: TableWriter::new(fields.clone(), formats, json)?,
            sides: TableWriter::new(fields.clone(), formats, json)?,
            variants: TableWriter::new(fields.clone(), formats, json)?,
            fields,
            curves: SweepCurves::of(sweeps),
        })
    }

    /// Adds one point: the fields it set, then its rows.
    pub fn push(&mut self, assignments: &Assignments, point: PointRows) -> Result<(), Error> {
        let values: Vec<toml::Value> = assignments.iter().map(|(_, v)| v.clone()).collect();
        let attacks = swept(&values, point.attacks);
        self.curves.add_point(&self.fields, &attacks);
        self.attacks.push(attacks)?;
        self.rounds.push(swept(&values, point.rounds))?;
        self.sides.push(swept(&values, point.sides))?;
        self.variants.push(swept(&values, point.variants))
    }

    /// The tables written, or `None` when no point ran.
    pub fn finish(self) -> Result<Option<SweepRows>, Error> {
        let tables: Vec<SpilledTable> = [
            self.attacks.finish()?,
            self.rounds.finish()?,
            self.sides.finish()?,
            self.variants.finish()?,
        ]
        .into_iter()
        .filter(|t| t.rows > 0)
        .collect();
        Ok((!tables.is_empty()).then_some(SweepRows {
            tables,
            curves: self.curves,
        }))
    }
}

/// `rows`, each beside the swept fields' `values`.
fn swept<R: Clone>(values: &[toml::Value], rows: &[R]) -> Vec<Swept<R>> {
    (rows.iter())
        .map(|row| Swept {
            values: values.to_vec(),
            row: row.clone(),
        })
        .collect()
}

/// One finished sweep table on disk.
#[derive(Debug)]
pub struct SpilledTable {
    /// Its file stem and `--json` key.
    pub(super) name: &'static str,
    pub(super) csv: Spill,
    pub(super) parquet: Option<Spill>,
    json: Option<Spill>,
    rows: usize,
}

/// A finished sweep: its tables that have rows, on disk, in the order `sweep`,
/// `sweep_rounds`, `sweep_sides`, `sweep_variants`; the chart's figures in memory.
#[derive(Debug)]
pub struct SweepRows {
    pub(super) tables: Vec<SpilledTable>,
    pub(super) curves: SweepCurves,
}

impl SpilledTable {
    /// Writes the rows as the elements of a pretty-printed JSON array whose `]` is
    /// indented by `indent`, as `serde_json` would print them there.
    pub(super) fn write_json_array(&self, indent: &str, out: &mut impl Write) -> Result<(), Error> {
        let Some(spill) = &self.json else {
            return Err(Error::Output {
                what: "--json".into(),
                message: format!("the {} rows were not kept for JSON", self.name),
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
    use super::*;

    /// A point's summary of `rows` attacks, their figures depending on `point`.
    #[cfg(feature = "parquet")]
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

    #[cfg(feature = "parquet")]
    fn read(spill: &Spill) -> Vec<u8> {
        let mut bytes = Vec::new();
        spill.reader().unwrap().read_to_end(&mut bytes).unwrap();
        bytes
    }

    /// Points written in several batches (3,000 points × 2 rows, batches of 4,096 rows)
    /// give the CSV, Parquet and JSON of the whole table made at once; a list of integers
    /// and floats is a float column even for its integer values.
    #[cfg(feature = "parquet")]
    #[test]
    fn streamed_rows_are_the_whole_table_in_csv_parquet_and_json() {
        use crate::report::table::Output;
        use polars::prelude::{ParquetReader, SerReader};

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
            let point = PointRows {
                attacks: &rows,
                rounds: &[],
                sides: &[],
                variants: &[],
            };
            writer.push(&assignments, point).unwrap();
            whole.extend(rows.into_iter().map(|row| SweepRow {
                values: vec![ac.clone(), sweeps[1].values[0].clone()],
                row,
            }));
        }
        let fields: Vec<SweptField> = sweeps.iter().map(SweptField::of).collect();
        let whole = Rows::new(&fields, &whole);
        let sweep = writer.finish().unwrap().unwrap();
        assert_eq!(
            sweep.tables.len(),
            1,
            "no rounds, sides or variants rows: no such tables"
        );
        let rows = &sweep.tables[0];
        assert_eq!((rows.name, rows.rows), ("sweep", 6000));
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
