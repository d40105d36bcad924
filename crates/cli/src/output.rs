//! Standard output and error as the commands use them: a closed standard output stops a command
//! quietly.

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

/// `eprintln!` that never panics (a closed standard error loses the message, nothing else).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
