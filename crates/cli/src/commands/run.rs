//! `sim run`: simulate a scenario on its backends, check its expectations, print the summaries and
//! the verdict, write the traces.

use std::path::PathBuf;
use std::process::ExitCode;

use cspace_report::summary;
use cspace_scenario::Scenario;
use cspace_sim::BackendKind;

use crate::backend_arg;
use crate::output::{is_stdout, shown, write_output};
use crate::runs::{backends, run_with_progress};

#[derive(Debug, clap::Args)]
pub(crate) struct RunArgs {
    /// The scenario (.toml).
    pub(crate) scenario: PathBuf,
    /// Run only this backend (default: every backend the scenario names or supports).
    #[arg(long, value_parser = backend_arg::parser())]
    pub(crate) backend: Option<BackendKind>,
    /// Write the traces here, one after another (`-`: standard output, the summaries then on
    /// standard error).
    #[arg(long)]
    pub(crate) trace: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Check every agent's position after every step with the exact reference's point query;
    /// an agent found in solid fails the run (exit 1) with the step, agent and position.
    #[arg(long)]
    pub(crate) verify: bool,
    /// A folder of Quake III shader scripts (`*.shader`) whose `surfaceparm`s decide what the
    /// map's faces are (water, slime, lava, nonsolid, playerclip, ...), in the place of the
    /// scenario's `[world] shaders`.
    #[arg(long)]
    pub(crate) shaders: Option<PathBuf>,
}

/// True when `e` says a backend's structure could not be built for the scenario's world.
fn is_build_error(e: &anyhow::Error) -> bool {
    matches!(
        e.downcast_ref::<cspace_scenario::Error>(),
        Some(cspace_scenario::Error::Build { .. })
    )
}

pub(crate) fn run_command(args: RunArgs) -> anyhow::Result<ExitCode> {
    let scenario = Scenario::load_with_shaders(&args.scenario, args.shaders.as_deref())?;
    let kinds = backends(&scenario, args.backend.as_slice())?;
    // With the traces on standard output, everything else goes to standard error.
    let aside = args.trace.as_deref().is_some_and(is_stdout);
    let mut outcomes = Vec::with_capacity(kinds.len());
    // A backend whose structure cannot be built for this world is skipped by name; the others
    // run, and the command then exits 2.
    let mut not_built = Vec::new();
    for &kind in &kinds {
        let outcome = match run_with_progress(&scenario, kind, args.verify) {
            Ok(outcome) => outcome,
            Err(e) if is_build_error(&e) => {
                note!("not run on {}: {e:#}", kind.name());
                not_built.push(kind);
                continue;
            }
            Err(e) => return Err(e),
        };
        if !args.json {
            sayln!(aside, "{}", summary::run_text(&scenario, &outcome));
        }
        outcomes.push(outcome);
    }
    if outcomes.is_empty() {
        anyhow::bail!(
            "{}: no backend could be built for it",
            args.scenario.display()
        );
    }
    if let Some(path) = &args.trace {
        // One file: the trace of each backend, one after another (`trace::parse_all`).
        let text: Vec<String> = outcomes.iter().map(|o| o.trace()).collect();
        write_output(path, text.join("\n").as_bytes(), "the trace")?;
        note!(
            "wrote {} ({} trace{})",
            shown(path),
            outcomes.len(),
            if outcomes.len() == 1 {
                ""
            } else {
                "s, one per backend"
            }
        );
    }
    let reports = summary::pairs(&scenario, &outcomes);
    let passed = outcomes.iter().all(|o| o.passed()) && reports.iter().all(|r| r.agrees());
    let verdict =
        (outcomes.len() > 1).then(|| summary::verdict_text(&scenario, &outcomes, &reports));
    if args.json {
        let runs: Vec<_> = outcomes
            .iter()
            .map(|o| summary::run_json(&scenario, o))
            .collect();
        let json = serde_json::json!({
            "runs": runs,
            "comparison": summary::compare_json(&scenario, &reports),
            "verdict": verdict,
            "passed": passed,
        });
        sayln!(aside, "{}", serde_json::to_string_pretty(&json)?);
    } else if let Some(verdict) = &verdict {
        sayln!(aside, "{verdict}");
    }
    if !not_built.is_empty() {
        let names: Vec<&str> = not_built.iter().map(|k| k.name()).collect();
        note!("could not build: {} (see above)", names.join(", "));
        return Ok(ExitCode::from(2));
    }
    Ok(if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
