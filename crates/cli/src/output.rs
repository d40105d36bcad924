//! Standard output and error as the commands use them: a closed standard output stops a command
//! quietly.

/// `-` as the file of a flag that writes one (`--trace -`, `-o -`, `--out -`): standard output,
/// as for most command-line tools. The command's own summary then goes to standard error, so
/// that standard output holds only the file's bytes.
pub(crate) fn is_stdout(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// How a message names an output: `standard output` for `-`, else the path normalised
/// ([`cspace_mapfile::normalised`]).
pub(crate) fn shown(path: &std::path::Path) -> String {
    if is_stdout(path) {
        "standard output".to_string()
    } else {
        cspace_mapfile::normalised(path).display().to_string()
    }
}

/// Writes `bytes` to `path`, or to standard output when `path` is `-` ([`is_stdout`]); `what`
/// names the content in an error (`the trace`, `the report`).
pub(crate) fn write_output(path: &std::path::Path, bytes: &[u8], what: &str) -> anyhow::Result<()> {
    use anyhow::Context as _;
    use std::io::Write as _;
    if is_stdout(path) {
        let mut out = std::io::stdout().lock();
        return match out.write_all(bytes).and_then(|()| out.flush()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(StdoutClosed.into()),
            other => Ok(other.with_context(|| format!("writing {what} to standard output"))?),
        };
    }
    // Whole or not at all: a temporary file beside the target, renamed over it.
    cspace_scenario::write::write_whole(path, bytes).with_context(|| {
        format!(
            "writing {what} to {}",
            cspace_mapfile::normalised(path).display()
        )
    })
}

/// Standard output was closed by its reader (`sim check *.map | head -1`): not an error, the
/// command stops quietly with exit code 0.
#[derive(Debug, thiserror::Error)]
#[error("standard output closed")]
pub(crate) struct StdoutClosed;

/// Writes to standard output; a closed pipe becomes [`StdoutClosed`].
pub(crate) fn write_out(text: std::fmt::Arguments<'_>) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_fmt(text).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(StdoutClosed.into()),
        other => Ok(other?),
    }
}

/// True when `error` is standard output closed by its reader (ours, or a broken pipe met by a
/// writer of the library, such as `sim trace`'s).
pub(crate) fn closed_stdout(error: &anyhow::Error) -> bool {
    let broken = |io: &std::io::Error| io.kind() == std::io::ErrorKind::BrokenPipe;
    error.is::<StdoutClosed>()
        || error.chain().any(|e| {
            e.downcast_ref::<std::io::Error>().is_some_and(broken)
                || matches!(
                    e.downcast_ref::<cspace_scenario::Error>(),
                    Some(cspace_scenario::Error::Io { error, .. }) if broken(error)
                )
        })
}

/// `print!` that stops the command quietly when standard output is closed.
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::write_out(format_args!($($arg)*))? };
}

/// `println!` that stops the command quietly when standard output is closed.
macro_rules! outln {
    ($($arg:tt)*) => { $crate::output::write_out(format_args!("{}\n", format_args!($($arg)*)))? };
}

/// `outln!` when `$to_stderr` is false, else `note!`: a command's summary, which goes to standard
/// error when standard output carries a file (`--trace -`).
macro_rules! sayln {
    ($to_stderr:expr, $($arg:tt)*) => {
        if $to_stderr { note!($($arg)*) } else { outln!($($arg)*) }
    };
}

/// `eprintln!` that never panics (a closed standard error loses the message, nothing else).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
