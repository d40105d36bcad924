//! What a case's answer must be: a refusal in one short line that names its file, line and
//! column (or, for tree files, any short line), and how a case's input names its file.

use crate::{Failure, Verdict};

/// `error` names `file` and then a line and a column: `file:LINE:COLUMN: ...`.
pub(crate) fn located(error: &str, file: &str) -> bool {
    let Some(rest) = error.find(file).map(|i| &error[i + file.len()..]) else {
        return false;
    };
    let mut parts = rest.splitn(4, ':');
    parts.next() == Some("")
        && parts
            .next()
            .is_some_and(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()))
        && parts
            .next()
            .is_some_and(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()))
}

/// An error is one short line: a megabyte of input is not echoed into it.
pub(crate) fn short(error: &str) -> Result<(), Failure> {
    if error.len() > 1000 || error.trim_end().contains('\n') {
        return Err(Failure::Invalid(format!(
            "an error of {} bytes over {} lines: {}",
            error.len(),
            error.lines().count(),
            &error[..error.floor_char_boundary(300)]
        )));
    }
    Ok(())
}

/// A case's input that starts with the name of the file it is read as: the name (its first
/// line) and the file's bytes (the rest).
pub(crate) fn named(input: &[u8]) -> (String, &[u8]) {
    let newline = input
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(input.len());
    let name = String::from_utf8_lossy(&input[..newline]).into_owned();
    (name, input.get(newline + 1..).unwrap_or_default())
}

/// A refusal that names `file`, a line and a column, in one short line.
pub(crate) fn refused_in(message: &str, file: &str) -> Result<Verdict, Failure> {
    short(message)?;
    if located(message, file) {
        Ok(Verdict::Refused(message.to_string()))
    } else {
        Err(Failure::Unlocated(message.to_string()))
    }
}

/// A refusal that need not name a file (a tree file's errors name offsets, nodes and leaves).
pub(crate) fn refused_anywhere(message: String) -> Result<Verdict, Failure> {
    short(&message)?;
    Ok(Verdict::Refused(message))
}
