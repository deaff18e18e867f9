//! End-to-end and statistical tests, in one test binary (each binary links polars).

mod agreement;
mod bad_inputs;
mod cli;
mod damage;
mod docs;
mod fight;
mod fuzz;
mod geometry;
mod library;
mod print;
mod report;
mod robust;
mod systems;
mod variants;
