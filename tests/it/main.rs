//! End-to-end and statistical tests, in one test binary (each binary links polars).

mod agreement;
mod cli;
mod print;
mod report;
mod systems;
