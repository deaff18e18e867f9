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
    /// Where the mistake is: a file position or a flag.
    pub location: Location,
    /// What is wrong and how to fix it.
    pub message: String,
    /// The source line the location points into, shown under the message with a caret.
    pub source_line: Option<String>,
    /// How many characters of that line the mistake spans: the carets drawn under it.
    pub width: usize,
}

impl InputError {
    /// A mistake in the value of a command-line flag such as `--damage`.
    pub fn flag(flag: &str, message: impl Into<String>) -> Self {
        Self {
            location: Location::Flag(flag.to_string()),
            message: message.into(),
            source_line: None,
            width: 0,
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Location::File { path, line, column } => {
                write!(f, "{}:{line}:{column}: {}", path.display(), self.message)?;
                if let Some(text) = &self.source_line {
                    let gutter = " ".repeat(line.to_string().len());
                    let (text, column) = shown_part(text, *column);
                    let pad: String = text
                        .chars()
                        .take(column - 1)
                        .map(|c| if c == '\t' { '\t' } else { ' ' })
                        .collect();
                    let room = text.chars().count().saturating_sub(column - 1).max(1);
                    let carets = "^".repeat(self.width.clamp(1, room));
                    write!(f, "\n{gutter} |\n{line} | {text}\n{gutter} | {pad}{carets}")?;
                }
                Ok(())
            }
            Location::Flag(flag) => write!(f, "{flag}: {}", self.message),
        }
    }
}

/// Most characters of a source line an error shows (a map row may be millions long).
const SHOWN_LINE_CHARS: usize = 120;

/// The part of a long source line around `column` that an error shows, with `…` where
/// it is cut, and the column within that part.
fn shown_part(text: &str, column: usize) -> (String, usize) {
    let length = text.chars().count();
    if length <= SHOWN_LINE_CHARS {
        return (text.to_string(), column);
    }
    let start = column
        .saturating_sub(SHOWN_LINE_CHARS / 3)
        .min(length - SHOWN_LINE_CHARS);
    let part: String = text.chars().skip(start).take(SHOWN_LINE_CHARS).collect();
    let (before, after) = (start > 0, start + SHOWN_LINE_CHARS < length);
    let shown = format!(
        "{}{part}{}",
        if before { "…" } else { "" },
        if after { "…" } else { "" }
    );
    (shown, column - start + usize::from(before))
}

/// The known name closest to a misspelt one, if it is close enough to be a likely typo.
pub fn nearest<'a>(typo: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (typo.chars().count() / 3).max(2);
    known
        .into_iter()
        .map(|name| {
            (
                edit_distance(&typo.to_lowercase(), &name.to_lowercase()),
                name,
            )
        })
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, name)| name)
}

/// ` (did you mean `x`?)`, or nothing when no known name is close.
pub fn did_you_mean<'a>(typo: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    nearest(typo, known).map_or(String::new(), |n| format!(" (did you mean `{n}`?)"))
}

/// Levenshtein distance in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

impl std::error::Error for InputError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_catch_typos_not_strangers() {
        let known = ["longsword", "rapier", "greatclub"];
        assert_eq!(nearest("longswrod", known), Some("longsword"));
        assert_eq!(nearest("Rapeir", known), Some("rapier"));
        assert_eq!(nearest("fireball", known), None);
        assert_eq!(
            did_you_mean("pf2", ["pf1", "d20modern"]),
            " (did you mean `pf1`?)"
        );
    }

    #[test]
    fn a_long_line_is_shown_cut_around_the_mistake() {
        let row = format!("{}X{}", ".".repeat(5_000_000), ".".repeat(5_000_000));
        let e = InputError {
            location: Location::File {
                path: "x.toml".into(),
                line: 3,
                column: 5_000_001,
            },
            message: "bad square".into(),
            source_line: Some(row),
            width: 1,
        };
        let shown = e.to_string();
        assert!(shown.len() < 1_000, "{} bytes", shown.len());
        let lines: Vec<&str> = shown.lines().collect();
        let x = lines[2].chars().position(|c| c == 'X').unwrap();
        assert_eq!(lines[3].chars().position(|c| c == '^'), Some(x), "{shown}");
    }

    #[test]
    fn file_errors_show_the_line_with_a_caret() {
        let e = InputError {
            location: Location::File {
                path: "x.toml".into(),
                line: 12,
                column: 14,
            },
            message: "bad damage".into(),
            source_line: Some("damage = \"1d8*3\"".into()),
            width: 1,
        };
        assert_eq!(
            e.to_string(),
            "x.toml:12:14: bad damage\n   |\n12 | damage = \"1d8*3\"\n   |              ^"
        );
        let wide = InputError { width: 7, ..e };
        assert!(
            wide.to_string().ends_with("|              ^^^"),
            "carets stop at the end of the line: {wide}"
        );
    }
}

/// Every failure d20odds reports.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A mistake in an experiment file or a flag (exit code 2).
    #[error("{0}")]
    Input(#[from] InputError),
    /// A file that could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why the system refused.
        source: std::io::Error,
    },
    /// A report destination d20odds will not replace (not a report folder it wrote, or
    /// one holding an experiment being run); found before anything is simulated.
    #[error("{}: {message}", path.display())]
    Destination {
        /// The report folder or its `--out` parent.
        path: PathBuf,
        /// Why it is refused and what to do instead.
        message: String,
    },
    /// Output that could not be produced (a chart, standard output).
    #[error("writing {what}: {message}")]
    Output {
        /// What was being written.
        what: String,
        /// Why it failed.
        message: String,
    },
    /// The first Ctrl-C: the completed trials were reported, marked interrupted.
    #[error("interrupted (Ctrl-C): reported the trials completed before the stop")]
    Interrupted,
}

impl Error {
    /// The process exit code: 2 for input or a destination the user must fix, 130 (128 + SIGINT, as a
    /// shell reports it) after Ctrl-C, 1 for anything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Input(_) | Error::Destination { .. } => 2,
            Error::Interrupted => 130,
            Error::Io { .. } | Error::Output { .. } => 1,
        }
    }

    /// Whether the reader of what was being written went away (`d20odds rules | head -1`):
    /// nothing is wrong, and nothing more need be written.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }

    /// A file that could not be read or written, with its path.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}
