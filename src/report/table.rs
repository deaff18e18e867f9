//! The one serializer of the report's tables: rows of a type implementing [`Row`], whose
//! columns (names, order, types) that type writes once, rendered as CSV and Parquet
//! (through polars) and as JSON rows keyed by the same names.

use polars::prelude::{CsvWriter, DataFrame, SerWriter};
use serde_json::{Map, Value};

use crate::error::Error;
use crate::stats::Estimate;

/// A row of one of the report's tables.
pub trait Row: Sized + 'static {
    /// The table's file stem and its key in the `--json` document.
    const NAME: &'static str;
    /// What the columns depend on besides the row type (the swept fields, the heatmap's
    /// targets); `()` for a table whose columns are fixed.
    type Layout;
    /// The columns, in file order: the one place their names are written.
    fn columns(layout: &Self::Layout) -> Vec<Column<Self>>;
}

/// A column: its name and how each row's cell in it is read.
pub struct Column<R> {
    name: String,
    cells: Getter<R>,
}

/// How a column's cells are read from a row, by the type the column has in every format.
enum Getter<R> {
    Text(Read<R, String>),
    Int(Read<R, i64>),
    Bool(Read<R, bool>),
    /// Empty where a value could not be computed.
    Float(Read<R, Option<f64>>),
}

/// Reads one cell of a column from a row.
type Read<R, T> = Box<dyn Fn(&R) -> T>;

/// An estimate's column name and how it is read from a row.
pub type EstimateColumn<R> = (&'static str, fn(&R) -> Estimate);

/// A figure's column name and how it is read from a row that may not have it.
pub type OptionalEstimateColumn<R> = (&'static str, fn(&R) -> Option<Estimate>);

impl<R: 'static> Column<R> {
    pub fn text(name: impl Into<String>, cell: impl Fn(&R) -> String + 'static) -> Self {
        Self::new(name, Getter::Text(Box::new(cell)))
    }

    pub fn int(name: impl Into<String>, cell: impl Fn(&R) -> i64 + 'static) -> Self {
        Self::new(name, Getter::Int(Box::new(cell)))
    }

    pub fn bool(name: impl Into<String>, cell: impl Fn(&R) -> bool + 'static) -> Self {
        Self::new(name, Getter::Bool(Box::new(cell)))
    }

    /// Values are written to [`SIGNIFICANT_DIGITS`] digits, in every format.
    pub fn float(name: impl Into<String>, cell: impl Fn(&R) -> Option<f64> + 'static) -> Self {
        Self::new(name, Getter::Float(Box::new(move |r| cell(r).map(tidy))))
    }

    fn new(name: impl Into<String>, cells: Getter<R>) -> Self {
        Self {
            name: name.into(),
            cells,
        }
    }

    /// The columns `name`, `name_lo` and `name_hi` of each estimate, then `exact_name` of
    /// each, as SPEC §3 orders them.
    pub fn estimates(estimates: &[EstimateColumn<R>]) -> Vec<Self> {
        let named = estimates.iter().map(|&(name, estimate)| {
            let cell = move |r: &R| Some(estimate(r));
            (name, cell)
        });
        Self::estimate_columns(named.collect())
    }

    /// As [`Column::estimates`], for figures some rows do not have: their cells are empty.
    pub fn optional_estimates(estimates: &[OptionalEstimateColumn<R>]) -> Vec<Self> {
        Self::estimate_columns(estimates.to_vec())
    }

    fn estimate_columns<F>(estimates: Vec<(&'static str, F)>) -> Vec<Self>
    where
        F: Fn(&R) -> Option<Estimate> + Copy + 'static,
    {
        let intervals = estimates.iter().flat_map(|&(name, estimate)| {
            [
                Self::float(name, move |r| estimate(r).map(|e| e.point)),
                Self::float(format!("{name}_lo"), move |r| estimate(r).map(|e| e.lo)),
                Self::float(format!("{name}_hi"), move |r| estimate(r).map(|e| e.hi)),
            ]
        });
        let exacts = estimates.iter().map(|&(name, estimate)| {
            Self::float(format!("exact_{name}"), move |r| estimate(r)?.exact)
        });
        intervals.chain(exacts).collect()
    }

    /// The same column, read from the part of a wider row `W` that `part` picks.
    pub fn within<W: 'static>(self, part: fn(&W) -> &R) -> Column<W> {
        let cells = match self.cells {
            Getter::Text(cell) => Getter::Text(Box::new(move |w: &W| cell(part(w)))),
            Getter::Int(cell) => Getter::Int(Box::new(move |w: &W| cell(part(w)))),
            Getter::Bool(cell) => Getter::Bool(Box::new(move |w: &W| cell(part(w)))),
            Getter::Float(cell) => Getter::Float(Box::new(move |w: &W| cell(part(w)))),
        };
        Column {
            name: self.name,
            cells,
        }
    }

    fn json(&self, row: &R) -> Value {
        match &self.cells {
            Getter::Text(cell) => Value::from(cell(row)),
            Getter::Int(cell) => Value::from(cell(row)),
            Getter::Bool(cell) => Value::from(cell(row)),
            Getter::Float(cell) => cell(row).map_or(Value::Null, Value::from),
        }
    }

    fn frame_column(&self, rows: &[R]) -> polars::prelude::Column {
        let name = self.name.as_str().into();
        match &self.cells {
            Getter::Text(cell) => polars::prelude::Column::new(name, collect(rows, cell)),
            Getter::Int(cell) => polars::prelude::Column::new(name, collect(rows, cell)),
            Getter::Bool(cell) => polars::prelude::Column::new(name, collect(rows, cell)),
            Getter::Float(cell) => polars::prelude::Column::new(name, collect(rows, cell)),
        }
    }
}

/// The significant digits a table's floats keep: far finer than any interval (a million
/// trials resolve about 4) and coarser than the rounding errors of float sums (which reach
/// the 12th in a fight's exact figures), so that a value is written as it is meant, `0.95`
/// rather than `0.9500000000000001`.
const SIGNIFICANT_DIGITS: usize = 10;

/// `value` rounded to [`SIGNIFICANT_DIGITS`] significant digits (through its decimal
/// form, so the nearest float to the rounded decimal, which prints as that decimal).
fn tidy(value: f64) -> f64 {
    if !value.is_finite() || value == 0.0 {
        return value;
    }
    let decimal = format!("{value:.*e}", SIGNIFICANT_DIGITS - 1);
    // Near the largest float the rounded decimal is past it: keep the value then.
    (decimal.parse::<f64>().ok())
        .filter(|rounded| rounded.is_finite())
        .unwrap_or(value)
}

fn collect<R, T>(rows: &[R], cell: &dyn Fn(&R) -> T) -> Vec<T> {
    rows.iter().map(cell).collect()
}

/// Rows of one table with what their columns depend on: what the serializer reads.
pub struct Rows<'a, R: Row> {
    pub layout: &'a R::Layout,
    pub rows: &'a [R],
}

impl<'a, R: Row> Rows<'a, R> {
    pub fn new(layout: &'a R::Layout, rows: &'a [R]) -> Self {
        Self { layout, rows }
    }

    /// The rows as a polars frame; `file` names the output in errors.
    pub(super) fn frame(&self, file: &str) -> Result<DataFrame, Error> {
        let columns = R::columns(self.layout)
            .iter()
            .map(|column| column.frame_column(self.rows))
            .collect();
        DataFrame::new(self.rows.len(), columns).map_err(|e| output_error(file, &e))
    }

    /// Each row as a JSON object keyed by column name.
    pub fn json_rows(&self) -> impl Iterator<Item = Value> + use<'a, R> {
        let (columns, rows) = (R::columns(self.layout), self.rows);
        rows.iter().map(move |row| {
            let mut object = Map::new();
            for column in &columns {
                object.insert(column.name.clone(), column.json(row));
            }
            Value::Object(object)
        })
    }
}

/// A table of the report as its files and the `--json` document take it, whatever its
/// row type.
pub trait Output {
    /// The file stem and JSON key.
    fn name(&self) -> &'static str;
    /// The table as CSV bytes, header first.
    fn csv(&self) -> Result<Vec<u8>, Error>;
    /// The table as Parquet bytes (`run --parquet`): the same columns as the CSV, with
    /// their types kept (integers, booleans, floats with nulls where a value is missing),
    /// for readers such as pandas, polars or DuckDB.
    fn parquet(&self) -> Result<Vec<u8>, Error>;
    /// The rows as a JSON array of objects keyed by column name.
    fn json(&self) -> Value;
}

impl<R: Row> Output for Rows<'_, R> {
    fn name(&self) -> &'static str {
        R::NAME
    }

    fn csv(&self) -> Result<Vec<u8>, Error> {
        let file = format!("{}.csv", R::NAME);
        let mut frame = self.frame(&file)?;
        let mut bytes = Vec::new();
        CsvWriter::new(&mut bytes)
            .finish(&mut frame)
            .map_err(|e| output_error(&file, &e))?;
        Ok(bytes)
    }

    fn parquet(&self) -> Result<Vec<u8>, Error> {
        let file = format!("{}.parquet", R::NAME);
        let mut frame = self.frame(&file)?;
        super::parquet::bytes(&mut frame, &file)
    }

    fn json(&self) -> Value {
        Value::Array(self.json_rows().collect())
    }
}

/// A polars failure while writing `file`.
pub(super) fn output_error(file: &str, e: &polars::error::PolarsError) -> Error {
    Error::Output {
        what: file.to_string(),
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Sample {
        who: &'static str,
        n: i64,
        flag: bool,
        p: Option<f64>,
    }

    impl Row for Sample {
        const NAME: &'static str = "t";
        type Layout = ();
        fn columns((): &()) -> Vec<Column<Self>> {
            vec![
                Column::text("who", |r: &Sample| r.who.to_string()),
                Column::int("n", |r: &Sample| r.n),
                Column::bool("flag", |r: &Sample| r.flag),
                Column::float("p", |r: &Sample| r.p),
            ]
        }
    }

    const SAMPLE: [Sample; 2] = [
        Sample {
            who: "a",
            n: 1,
            flag: true,
            p: Some(0.25),
        },
        Sample {
            who: "b, c",
            n: 2,
            flag: false,
            p: None,
        },
    ];

    #[test]
    fn csv_has_the_header_and_empty_cells_for_missing_values() {
        let csv = String::from_utf8(Rows::new(&(), &SAMPLE).csv().unwrap()).unwrap();
        assert_eq!(csv, "who,n,flag,p\na,1,true,0.25\n\"b, c\",2,false,\n");
    }

    #[cfg(feature = "parquet")]
    #[test]
    fn parquet_keeps_the_columns_types_and_missing_values() {
        use polars::prelude::{DataType, ParquetReader, SerReader};
        let bytes = Rows::new(&(), &SAMPLE).parquet().unwrap();
        let frame = ParquetReader::new(std::io::Cursor::new(bytes))
            .finish()
            .unwrap();
        assert_eq!(frame.shape(), (2, 4));
        let names: Vec<&str> = frame
            .get_column_names()
            .iter()
            .map(|n| n.as_str())
            .collect();
        assert_eq!(names, ["who", "n", "flag", "p"]);
        let types: Vec<&DataType> = frame.columns().iter().map(|c| c.dtype()).collect();
        assert_eq!(
            types,
            [
                &DataType::String,
                &DataType::Int64,
                &DataType::Boolean,
                &DataType::Float64
            ]
        );
        let p = frame.column("p").unwrap().f64().unwrap();
        assert_eq!((p.get(0), p.get(1)), (Some(0.25), None));
    }

    /// A sum's float noise is not written; its 10 significant digits are, in CSV
    /// and JSON alike (0.1 + 0.2 = 0.30000000000000004 as floats).
    #[test]
    fn floats_are_written_to_ten_significant_digits() {
        let noisy = [
            0.1 + 0.2,
            0.95 + 1e-16,
            15.437499999999998,
            1.9207257211526803e-6,
        ];
        let rows: Vec<Sample> = (noisy.iter())
            .map(|&p| Sample {
                who: "a",
                n: 0,
                flag: true,
                p: Some(p),
            })
            .collect();
        let csv = String::from_utf8(Rows::new(&(), &rows).csv().unwrap()).unwrap();
        let written: Vec<&str> = (csv.lines().skip(1))
            .map(|line| line.rsplit(',').next().unwrap())
            .collect();
        assert_eq!(written, ["0.3", "0.95", "15.4375", "1.920725721e-6"]);
        let json = Rows::new(&(), &rows).json();
        assert_eq!(json[0]["p"].to_string(), "0.3");
        assert_eq!(json[3]["p"].to_string(), "1.920725721e-6");
        assert_eq!(tidy(-0.0).to_string(), "-0");
        assert!(tidy(f64::NAN).is_nan());
        assert_eq!(tidy(f64::MAX), f64::MAX);
    }

    #[test]
    fn json_rows_use_the_column_names() {
        let json = Rows::new(&(), &SAMPLE).json();
        assert_eq!(json[0]["who"], "a");
        assert_eq!(json[1]["p"], Value::Null);
        assert_eq!(json[1]["flag"], false);
    }

    #[test]
    fn estimates_give_their_interval_columns_then_their_exact_columns() {
        struct Two(Estimate, Estimate);
        impl Row for Two {
            const NAME: &'static str = "two";
            type Layout = ();
            fn columns((): &()) -> Vec<Column<Self>> {
                Column::estimates(&[("a", |r: &Two| r.0), ("b", |r: &Two| r.1)])
            }
        }
        let a = Estimate::proportion(1, 2).with_exact(Some(0.5));
        let csv = Rows::new(&(), &[Two(a, Estimate::proportion(0, 0))])
            .csv()
            .unwrap();
        let csv = String::from_utf8(csv).unwrap();
        assert!(
            csv.starts_with("a,a_lo,a_hi,b,b_lo,b_hi,exact_a,exact_b\n0.5,"),
            "{csv}"
        );
        assert!(csv.ends_with(",0.0,0.0,0.0,0.5,\n"), "{csv}");
    }

    /// A row without the figure leaves its four cells empty; a row with it fills them.
    #[test]
    fn an_optional_estimate_missing_from_a_row_leaves_its_cells_empty() {
        struct Maybe(Option<Estimate>);
        impl Row for Maybe {
            const NAME: &'static str = "maybe";
            type Layout = ();
            fn columns((): &()) -> Vec<Column<Self>> {
                Column::optional_estimates(&[("a", |r: &Maybe| r.0)])
            }
        }
        let half = Estimate::proportion(1, 2).with_exact(Some(0.5));
        let csv = Rows::new(&(), &[Maybe(None), Maybe(Some(half))])
            .csv()
            .unwrap();
        let lines: Vec<String> = String::from_utf8(csv)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(lines[0], "a,a_lo,a_hi,exact_a");
        assert_eq!(lines[1], ",,,");
        assert!(
            lines[2].starts_with("0.5,") && lines[2].ends_with(",0.5"),
            "{}",
            lines[2]
        );
    }
}
