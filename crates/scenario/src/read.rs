//! Reading the text files cspace takes: UTF-8, or an error at the first byte that is not.

use std::path::Path;

use crate::error::Error;
use crate::location::text_of;

/// The text of `file`, read as UTF-8; a byte sequence that is not UTF-8 is an error at its line
/// and column, naming the byte. An unreadable file is an [`Error::Io`] saying
/// what was being done (`action`: `read the scenario`).
pub fn read_text(file: &Path, action: &'static str) -> Result<String, Error> {
    let bytes = std::fs::read(file).map_err(|e| Error::io(file, action, e))?;
    text_of(file, bytes).map_err(Error::from)
}
