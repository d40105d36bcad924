//! `sim compare`: a scenario on every applicable backend, side by side.

use std::path::PathBuf;
use std::process::ExitCode;

use cspace_report::summary;
use cspace_scenario::Scenario;
use cspace_sim::BackendKind;

use crate::backend_arg;
use crate::runs::{backends, run_with_progress};

#[derive(Debug, clap::Args)]
pub(crate) struct CompareArgs {
    /// The scenario (.toml).
    pub(crate) scenario: PathBuf,
    /// The backends to compare (default: every one the scenario names or supports).
    #[arg(long, value_parser = backend_arg::parser(), value_delimiter = ',')]
    pub(crate) backends: Vec<BackendKind>,
    /// Print the comparison as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn compare(args: CompareArgs) -> anyhow::Result<ExitCode> {
    let scenario = Scenario::load(&args.scenario)?;
    let kinds = backends(&scenario, &args.backends)?;
    if kinds.len() < 2 {
        anyhow::bail!(
            "{}: only {} applicable backend ({}); nothing to compare",
            cspace_mapfile::normalised(&scenario.path).display(),
            kinds.len(),
            kinds
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let outcomes = kinds
        .iter()
        .map(|&k| run_with_progress(&scenario, k, false))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let reports = summary::pairs(&scenario, &outcomes);
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&summary::compare_json(&scenario, &reports))?
        );
    } else {
        out!("{}", summary::compare_text(&scenario, &reports));
    }
    Ok(if reports.iter().all(|r| r.agrees()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
