//! `sim report`: one self-contained HTML page for a set of scenarios.

use std::path::PathBuf;
use std::process::ExitCode;

use cspace_sim::BackendKind;

use crate::backend_arg;
use crate::output::{is_stdout, shown, write_output};

#[derive(Debug, clap::Args)]
pub(crate) struct ReportArgs {
    /// The scenarios (.toml).
    #[arg(required = true)]
    pub(crate) scenarios: Vec<PathBuf>,
    /// The page to write (`-`: standard output, the summary then on standard error).
    #[arg(short = 'o', long = "output", default_value = "report.html")]
    pub(crate) output: PathBuf,
    /// The folder of the trace snapshots; a trace without one there fails. By default they are
    /// looked for in `snapshots/traces` beside each scenario's folder, and a trace without one
    /// is not compared (not a failure).
    #[arg(long)]
    pub(crate) snapshots: Option<PathBuf>,
    /// Only these backends (default: each scenario's own).
    #[arg(long, value_parser = backend_arg::parser(), value_delimiter = ',')]
    pub(crate) backends: Vec<BackendKind>,
}

pub(crate) fn report(args: ReportArgs) -> anyhow::Result<ExitCode> {
    use cspace_report::report::{Report, ReportOptions};
    let options = ReportOptions {
        snapshots: args.snapshots,
        backends: args.backends,
    };
    let report = Report::build(&args.scenarios, &options, |path| {
        note!("running {}", cspace_mapfile::normalised(path).display());
    });
    write_output(&args.output, report.html().as_bytes(), "the report")?;
    let aside = is_stdout(&args.output);
    let failures = report.failures();
    for f in &failures {
        sayln!(aside, "FAILED {} {}", f.scenario, f.what);
    }
    let not_compared = report.not_compared();
    for (path, backends, folder) in &not_compared {
        let names: Vec<&str> = backends.iter().map(|b| b.name()).collect();
        sayln!(
            aside,
            "not compared: {} on {} (no snapshots in {}; --snapshots DIR names a folder to compare with)",
            cspace_mapfile::normalised(path).display(),
            names.join(", "),
            cspace_mapfile::normalised(folder).display()
        );
    }
    let skipped = report.skipped();
    for (path, why) in &skipped {
        sayln!(
            aside,
            "skipped: {} ({why})",
            cspace_mapfile::normalised(path).display()
        );
    }
    sayln!(
        aside,
        "{}: {} scenarios, {}{}",
        shown(&args.output),
        report.scenarios.len(),
        if failures.is_empty() {
            "nothing failed".to_string()
        } else {
            format!("{} failure(s)", failures.len())
        },
        if skipped.is_empty() {
            String::new()
        } else {
            format!(", {} skipped", skipped.len())
        }
    );
    Ok(if report.has_errors() {
        ExitCode::from(2)
    } else if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
