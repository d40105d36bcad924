//! Positions in text files: byte offsets to 1-based line and column, and errors that carry them.

use std::fmt;
use std::path::{Path, PathBuf};

/// A 1-based line and column (in characters) of a byte offset in `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rfind('\n')
        .map_or(before, |i| &before[i + 1..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// `bytes` as UTF-8 text, or an error located at the first byte that is not UTF-8.
pub fn text_of(file: &Path, bytes: Vec<u8>) -> Result<String, LocatedError> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let valid = std::str::from_utf8(&bytes[..at]).expect("valid up to here");
        LocatedError::at(
            file,
            valid,
            at,
            format!(
                "byte {:#04x} is not UTF-8; the file must be UTF-8 text",
                bytes[at]
            ),
        )
    })
}

/// An error at a place in a file: `file:line:column: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedError {
    /// The file.
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong, naming the field or thing.
    pub message: String,
}

impl LocatedError {
    /// An error at byte `offset` of `text`, read from `file`.
    pub fn at(file: &Path, text: &str, offset: usize, message: impl Into<String>) -> LocatedError {
        let (line, column) = line_column(text, offset);
        LocatedError {
            file: file.to_path_buf(),
            line,
            column,
            message: message.into(),
        }
    }

    /// An error for a TOML syntax or type error, located by its span.
    pub fn from_toml(file: &Path, text: &str, error: &toml::de::Error) -> LocatedError {
        let offset = error.span().map_or(0, |s| s.start);
        LocatedError::at(file, text, offset, error.message().trim().to_string())
    }
}

impl fmt::Display for LocatedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            cspace_mapfile::normalised(&self.file).display(),
            self.line,
            self.column,
            self.message
        )
    }
}

impl std::error::Error for LocatedError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let text = "a = 1\nbb = 2\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 6), (2, 1));
        assert_eq!(line_column(text, 9), (2, 4));
        assert_eq!(line_column(text, 100), (3, 1));
    }

    #[test]
    fn a_byte_that_is_not_utf8_is_located() {
        let e = text_of(Path::new("s.toml"), b"a = 1\nname = \"x\xff\"\n".to_vec()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "s.toml:2:10: byte 0xff is not UTF-8; the file must be UTF-8 text"
        );
    }
}
