//! Progress on standard error, when it is a terminal: bars and spinners.

use std::io::IsTerminal;
use std::time::Duration;

/// Runs with a progress bar on stderr when it is a terminal and the run lasts over a second.
/// A progress bar of `len` steps on standard error when it is a terminal (`None` otherwise).
pub(crate) fn progress_bar(
    len: u64,
    message: String,
    unit: &str,
) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len).with_message(message);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{msg}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{elapsed}}, {{eta}} left)"
        ))
        .expect("the template is valid"),
    );
    Some(bar)
}

/// A spinner with the elapsed time on standard error when it is a terminal, for work that
/// reports no steps (`None` otherwise).
pub(crate) fn spinner(message: String) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner().with_message(message);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .expect("the template is valid"),
    );
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}
