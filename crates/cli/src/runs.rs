//! Running a scenario for a command: which backends, and a progress bar for long runs.

use std::time::{Duration, Instant};

use cspace_scenario::{RunOptions, RunOutcome, Scenario, run_scenario};
use cspace_sim::BackendKind;

use crate::progress::progress_bar;

/// The backends to run: the ones asked for (each must be applicable), or the scenario's, saying
/// on standard error which backends are left out and why.
pub(crate) fn backends(
    scenario: &Scenario,
    asked: &[BackendKind],
) -> anyhow::Result<Vec<BackendKind>> {
    if asked.is_empty() {
        for (kind, why) in &scenario.left_out {
            note!(
                "{}: not run on {}: {why}",
                cspace_mapfile::normalised(&scenario.path).display(),
                kind.name()
            );
        }
        return Ok(scenario.backends.clone());
    }
    for b in asked {
        if let Some(why) = scenario.refusal(*b) {
            anyhow::bail!(
                "{}: the {} backend cannot run it: {why}",
                cspace_mapfile::normalised(&scenario.path).display(),
                b.name()
            );
        }
    }
    Ok(asked.to_vec())
}

pub(crate) fn run_with_progress(
    scenario: &Scenario,
    backend: BackendKind,
    verify: bool,
) -> anyhow::Result<RunOutcome> {
    let started = Instant::now();
    let mut bar: Option<indicatif::ProgressBar> = None;
    let mut progress = |step| {
        // Only runs that last show a bar.
        if bar.is_none() && started.elapsed() > Duration::from_secs(1) {
            bar = progress_bar(
                scenario.steps,
                format!("{} on {}", scenario.name, backend.name()),
                "steps",
            );
        }
        if let Some(b) = &bar {
            b.set_position(step);
        }
    };
    let options = RunOptions {
        progress: Some(&mut progress),
        verify,
        ..RunOptions::default()
    };
    let outcome = run_scenario(scenario, backend, options)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(outcome)
}
