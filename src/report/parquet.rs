//! Parquet output (`run --parquet`), compiled with the opt-in `parquet` cargo feature
//! (it adds a third to compiling the dependencies). A build without it keeps the same
//! functions, which refuse; `--parquet` is refused before a run starts ([`refusal`]), so
//! a run never reaches them.

use std::fs::File;

use polars::prelude::DataFrame;

use crate::error::Error;

/// Whether this build writes Parquet.
pub const BUILT_IN: bool = cfg!(feature = "parquet");

/// Why `--parquet` cannot be honoured by a build with (`built_in`) or without the
/// feature, when it is asked (`asked`); `None` when nothing is wrong.
pub fn refusal(asked: bool, built_in: bool) -> Option<String> {
    (asked && !built_in).then(|| {
        "this d20odds was built without Parquet support; rebuild it with the `parquet` \
         feature (`cargo build --release --features parquet`) or leave --parquet out"
            .to_string()
    })
}

/// The Parquet bytes of `frame`, written as `file`.
#[cfg(feature = "parquet")]
pub(super) fn bytes(frame: &mut DataFrame, file: &str) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    polars::prelude::ParquetWriter::new(&mut bytes)
        .finish(frame)
        .map_err(|e| super::table::output_error(file, &e))?;
    Ok(bytes)
}

/// A build without Parquet refuses.
#[cfg(not(feature = "parquet"))]
pub(super) fn bytes(_: &mut DataFrame, file: &str) -> Result<Vec<u8>, Error> {
    Err(missing(file))
}

/// A Parquet file written a batch (a row group) at a time.
#[cfg(feature = "parquet")]
pub(super) struct Batched(polars::io::parquet::write::BatchedWriter<File>);

#[cfg(feature = "parquet")]
impl Batched {
    /// A writer into `file` for frames shaped like `first`, written as `name`.
    pub(super) fn new(file: File, first: &DataFrame, name: &str) -> Result<Self, Error> {
        polars::prelude::ParquetWriter::new(file)
            .batched(first.schema())
            .map(Self)
            .map_err(|e| super::table::output_error(name, &e))
    }

    /// Writes one batch.
    pub(super) fn write(&mut self, frame: &DataFrame, name: &str) -> Result<(), Error> {
        (self.0.write_batch(frame)).map_err(|e| super::table::output_error(name, &e))
    }

    /// Ends the file.
    pub(super) fn finish(self, name: &str) -> Result<(), Error> {
        self.0
            .finish()
            .map(drop)
            .map_err(|e| super::table::output_error(name, &e))
    }
}

/// A build without Parquet refuses to start a file, so there is never one to write to.
#[cfg(not(feature = "parquet"))]
pub(super) enum Batched {}

#[cfg(not(feature = "parquet"))]
impl Batched {
    pub(super) fn new(_: File, _: &DataFrame, name: &str) -> Result<Self, Error> {
        Err(missing(name))
    }

    pub(super) fn write(&mut self, _: &DataFrame, _: &str) -> Result<(), Error> {
        match *self {}
    }

    pub(super) fn finish(self, _: &str) -> Result<(), Error> {
        match self {}
    }
}

/// The error of a build without Parquet asked to write `file`.
#[cfg(not(feature = "parquet"))]
fn missing(file: &str) -> Error {
    Error::Output {
        what: file.to_string(),
        message: refusal(true, false).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parquet_asked_of_a_build_without_it_is_refused_naming_the_feature() {
        let why = refusal(true, false).expect("refused");
        assert!(why.contains("--features parquet"), "{why}");
        assert_eq!(refusal(true, true), None);
        assert_eq!(refusal(false, false), None);
    }
}
