//! A loaded experiment file and the mapping from byte offsets to line and column.

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::error::{InputError, Location};

/// The text of an experiment file, kept so every later error can point into it.
#[derive(Debug, Clone)]
pub struct Source {
    pub path: PathBuf,
    pub text: String,
}

impl Source {
    pub fn new(path: impl AsRef<Path>, text: impl Into<String>) -> Self {
        Self {
            path: path.as_ref().to_path_buf(),
            text: text.into(),
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..floor_char_boundary(&self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// An error at a byte offset.
    pub fn error_at(&self, offset: usize, message: impl Into<String>) -> InputError {
        let (line, column) = self.line_column(offset);
        InputError {
            location: Location::File {
                path: self.path.clone(),
                line,
                column,
            },
            message: message.into(),
            source_line: self.text.lines().nth(line - 1).map(str::to_string),
            width: 1,
        }
    }

    /// An error underlining a span (up to the end of its first line).
    pub fn error(&self, span: Range<usize>, message: impl Into<String>) -> InputError {
        let start = floor_char_boundary(&self.text, span.start.min(self.text.len()));
        let end = floor_char_boundary(&self.text, span.end.clamp(start, self.text.len()));
        let width = self.text[start..end]
            .lines()
            .next()
            .map_or(1, |first| first.trim_end().chars().count().max(1));
        InputError {
            width,
            ..self.error_at(span.start, message)
        }
    }

    /// Byte offset of the `chars`-th character inside a quoted string value whose span
    /// (quotes included) is `span`; accounts for `"""` openers and their first newline,
    /// and for Windows line ends, which the parsed string holds as one `\n` each.
    pub fn offset_in_string(&self, span: &Range<usize>, chars: usize) -> usize {
        let raw = &self.text[span.start.min(self.text.len())..span.end.min(self.text.len())];
        let mut start = span.start;
        for opener in ["\"\"\"", "'''", "\"", "'"] {
            if raw.starts_with(opener) {
                start += opener.len();
                let rest = &self.text[start..];
                if opener.len() == 3 {
                    if rest.starts_with("\r\n") {
                        start += 2;
                    } else if rest.starts_with('\n') {
                        start += 1;
                    }
                }
                break;
            }
        }
        let rest = &self.text[start..];
        rest.char_indices()
            .filter(|&(i, c)| !(c == '\r' && rest[i + 1..].starts_with('\n')))
            .nth(chars)
            .map_or(self.text.len(), |(i, _)| start + i)
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let s = Source::new("x.toml", "a = 1\nbé = \"1d8\"\n");
        assert_eq!(s.line_column(0), (1, 1));
        assert_eq!(s.line_column(6), (2, 1));
        assert_eq!(s.line_column(s.text.find('"').unwrap()), (2, 6));
    }

    #[test]
    fn offsets_inside_strings_skip_quotes() {
        let text = "d = \"1d8*2\"\nm = \"\"\"\nab\ncd\"\"\"\n";
        let s = Source::new("x.toml", text);
        let d = 4..11;
        assert_eq!(s.line_column(s.offset_in_string(&d, 3)), (1, 9));
        let m = text.find("\"\"\"").unwrap()..text.len() - 1;
        assert_eq!(s.line_column(s.offset_in_string(&m, 4)), (4, 2));
        // The same with Windows line ends: the parsed map is "ab\ncd" all the same, so
        // its 4th character, `d`, is still at line 4, column 2.
        let crlf = text.replace('\n', "\r\n");
        let s = Source::new("x.toml", &crlf);
        let m = crlf.find("\"\"\"").unwrap()..crlf.len() - 2;
        assert_eq!(s.line_column(s.offset_in_string(&m, 4)), (4, 2));
    }
}
