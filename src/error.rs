//! Errors, typed by what the user must do about them: fix the input (exit 2) or look at
//! the environment (exit 1).

use std::fmt;
use std::path::PathBuf;

/// Where an input mistake is: a place in a file, or a command-line flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// 1-based line and column (in characters).
    File {
        path: PathBuf,
        line: usize,
        column: usize,
    },
    Flag(String),
}

/// A mistake in what the user wrote; nothing is written when one occurs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub location: Location,
    pub message: String,
}

impl InputError {
    pub fn flag(flag: &str, message: impl Into<String>) -> Self {
        Self {
            location: Location::Flag(flag.to_string()),
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Location::File { path, line, column } => {
                write!(f, "{}:{line}:{column}: {}", path.display(), self.message)
            }
            Location::Flag(flag) => write!(f, "{flag}: {}", self.message),
        }
    }
}

impl std::error::Error for InputError {}

/// Every failure d20odds reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Input(#[from] InputError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("writing {what}: {message}")]
    Output { what: String, message: String },
}

impl Error {
    /// The process exit code: 2 for input the user must fix, 1 for anything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Input(_) => 2,
            Error::Io { .. } | Error::Output { .. } => 1,
        }
    }

    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}
