//! The `d20odds` binary: parse flags, run, map errors to exit codes (0 ok, 2 bad input,
//! 1 anything else).

mod cli;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse_from(cli::arguments(std::env::args_os())) {
        Ok(args) => args,
        Err(e) => match cli::flag_error(&e) {
            Some(refused) => return report(refused.into()),
            None => {
                let _ = e.print();
                return ExitCode::from(e.exit_code() as u8);
            }
        },
    };
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => report(e),
    }
}

/// Prints `e` on stderr as every error is printed, and gives its exit code.
fn report(e: d20odds::Error) -> ExitCode {
    let colour = cli::colour(
        std::io::stderr().is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    let _ = writeln!(std::io::stderr(), "{}{e}", cli::error_prefix(colour));
    ExitCode::from(e.exit_code())
}
