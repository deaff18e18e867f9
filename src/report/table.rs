//! A column-oriented table: the one place column names are written, rendered as CSV (via
//! polars) and as JSON rows keyed by the same names.

use polars::prelude::{Column, CsvWriter, DataFrame, ParquetWriter, SerWriter};
use serde_json::{Map, Value};

use crate::error::Error;

/// One column's cells.
#[derive(Debug, Clone, PartialEq)]
pub enum Cells {
    Text(Vec<String>),
    Int(Vec<i64>),
    Bool(Vec<bool>),
    /// Empty where a value could not be computed.
    Float(Vec<Option<f64>>),
}

impl Cells {
    fn len(&self) -> usize {
        match self {
            Cells::Text(v) => v.len(),
            Cells::Int(v) => v.len(),
            Cells::Bool(v) => v.len(),
            Cells::Float(v) => v.len(),
        }
    }

    fn json(&self, row: usize) -> Value {
        match self {
            Cells::Text(v) => Value::from(v[row].clone()),
            Cells::Int(v) => Value::from(v[row]),
            Cells::Bool(v) => Value::from(v[row]),
            Cells::Float(v) => v[row].map_or(Value::Null, Value::from),
        }
    }
}

/// A named table of equally long columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// File stem of the CSV and key of the JSON array.
    pub name: &'static str,
    pub columns: Vec<(String, Cells)>,
}

impl Table {
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            columns: Vec::new(),
        }
    }

    pub fn text(&mut self, name: impl Into<String>, cells: impl IntoIterator<Item = String>) {
        self.columns
            .push((name.into(), Cells::Text(cells.into_iter().collect())));
    }

    pub fn int(&mut self, name: impl Into<String>, cells: impl IntoIterator<Item = i64>) {
        self.columns
            .push((name.into(), Cells::Int(cells.into_iter().collect())));
    }

    pub fn bool(&mut self, name: impl Into<String>, cells: impl IntoIterator<Item = bool>) {
        self.columns
            .push((name.into(), Cells::Bool(cells.into_iter().collect())));
    }

    pub fn float(&mut self, name: impl Into<String>, cells: impl IntoIterator<Item = Option<f64>>) {
        self.columns
            .push((name.into(), Cells::Float(cells.into_iter().collect())));
    }

    /// Appends the rows of a table with the same columns.
    pub fn append(&mut self, other: &Table) {
        for ((_, mine), (_, theirs)) in self.columns.iter_mut().zip(&other.columns) {
            match (mine, theirs) {
                (Cells::Text(a), Cells::Text(b)) => a.extend_from_slice(b),
                (Cells::Int(a), Cells::Int(b)) => a.extend_from_slice(b),
                (Cells::Bool(a), Cells::Bool(b)) => a.extend_from_slice(b),
                (Cells::Float(a), Cells::Float(b)) => a.extend_from_slice(b),
                _ => unreachable!("appended tables are built by the same function"),
            }
        }
    }

    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, |(_, c)| c.len())
    }

    pub fn column(&self, name: &str) -> Option<&Cells> {
        self.columns
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| c)
    }

    /// The table as a polars frame; `file` names the output in errors.
    pub(super) fn frame(&self, file: &str) -> Result<DataFrame, Error> {
        let columns = self
            .columns
            .iter()
            .map(|(name, cells)| {
                let name = name.as_str().into();
                match cells {
                    Cells::Text(v) => Column::new(name, v),
                    Cells::Int(v) => Column::new(name, v),
                    Cells::Bool(v) => Column::new(name, v),
                    Cells::Float(v) => Column::new(name, v),
                }
            })
            .collect();
        DataFrame::new(self.rows(), columns).map_err(|e| output_error(file, &e))
    }

    /// The table as CSV bytes, header first.
    pub fn csv(&self) -> Result<Vec<u8>, Error> {
        let file = format!("{}.csv", self.name);
        let mut frame = self.frame(&file)?;
        let mut bytes = Vec::new();
        CsvWriter::new(&mut bytes)
            .finish(&mut frame)
            .map_err(|e| output_error(&file, &e))?;
        Ok(bytes)
    }

    /// The table as Parquet bytes (`run --parquet`): the same columns as the CSV, with
    /// their types kept (integers, booleans, floats with nulls where a value is missing),
    /// for readers such as pandas, polars or DuckDB.
    pub fn parquet(&self) -> Result<Vec<u8>, Error> {
        let file = format!("{}.parquet", self.name);
        let mut frame = self.frame(&file)?;
        let mut bytes = Vec::new();
        ParquetWriter::new(&mut bytes)
            .finish(&mut frame)
            .map_err(|e| output_error(&file, &e))?;
        Ok(bytes)
    }

    /// The rows as a JSON array of objects keyed by column name.
    pub fn json(&self) -> Value {
        Value::Array(self.json_rows().collect())
    }

    /// Each row as a JSON object keyed by column name.
    pub fn json_rows(&self) -> impl Iterator<Item = Value> + '_ {
        (0..self.rows()).map(|row| {
            let mut object = Map::new();
            for (name, cells) in &self.columns {
                object.insert(name.clone(), cells.json(row));
            }
            Value::Object(object)
        })
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

    fn sample() -> Table {
        let mut t = Table::new("t");
        t.text("who", ["a".to_string(), "b, c".to_string()]);
        t.int("n", [1, 2]);
        t.bool("flag", [true, false]);
        t.float("p", [Some(0.25), None]);
        t
    }

    #[test]
    fn csv_has_the_header_and_empty_cells_for_missing_values() {
        let csv = String::from_utf8(sample().csv().unwrap()).unwrap();
        assert_eq!(csv, "who,n,flag,p\na,1,true,0.25\n\"b, c\",2,false,\n");
    }

    #[test]
    fn parquet_keeps_the_columns_types_and_missing_values() {
        use polars::prelude::{DataType, ParquetReader, SerReader};
        let bytes = sample().parquet().unwrap();
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

    #[test]
    fn json_rows_use_the_column_names() {
        let json = sample().json();
        assert_eq!(json[0]["who"], "a");
        assert_eq!(json[1]["p"], Value::Null);
        assert_eq!(json[1]["flag"], false);
    }
}
