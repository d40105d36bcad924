//! `sim plot`: the trajectories of a scenario's runs, against a baseline trace if given.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cspace_scenario::Scenario;
use cspace_sim::BackendKind;

use crate::backend_arg;
use crate::runs::{backends, run_with_progress};

#[derive(Debug, clap::Args)]
pub(crate) struct PlotArgs {
    /// The scenario (.toml).
    pub(crate) scenario: PathBuf,
    /// The backends to run and draw (default: every one the scenario names or supports).
    #[arg(long, value_parser = backend_arg::parser(), value_delimiter = ',')]
    pub(crate) backend: Vec<BackendKind>,
    /// A recorded trace or an insta snapshot to overlay as the baseline.
    #[arg(long)]
    pub(crate) against: Option<PathBuf>,
    /// The output file: .svg or .png (default: the scenario file's name with .svg, in the
    /// working folder).
    #[arg(short = 'o', long = "output")]
    pub(crate) output: Option<PathBuf>,
}

/// The baseline `sim plot --against` reads: a trace file or a snapshot of the same scenario. A
/// file with one trace per backend gives the trace of the backend drawn.
pub(crate) fn read_baseline(
    path: &Path,
    scenario: &Scenario,
    kinds: &[BackendKind],
) -> anyhow::Result<cspace_report::plot::Series> {
    let text = cspace_scenario::read::read_text(path, "read the baseline")?;
    let mut traces = cspace_scenario::trace::parse_all(&text)
        .map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))?;
    for t in &traces {
        if t.record.header.scenario != scenario.name {
            anyhow::bail!(
                "{}:{}:10: this is a trace of scenario {:?}, not of {:?} ({}); compare a scenario with its own traces",
                path.display(),
                t.scenario_line,
                t.record.header.scenario,
                scenario.name,
                scenario.path.display()
            );
        }
    }
    let trace = if traces.len() == 1 {
        traces.remove(0)
    } else {
        let names: Vec<String> = traces
            .iter()
            .map(|t| t.record.header.backend.clone())
            .collect();
        match kinds {
            [kind] => match traces
                .iter()
                .position(|t| t.record.header.backend == kind.name())
            {
                Some(i) => traces.swap_remove(i),
                None => anyhow::bail!(
                    "{}: holds traces of {} but not of {}",
                    path.display(),
                    names.join(", "),
                    kind.name()
                ),
            },
            _ => anyhow::bail!(
                "{}: holds one trace per backend ({}); choose the backend to draw with --backend",
                path.display(),
                names.join(", ")
            ),
        }
    };
    Ok(cspace_report::plot::Series {
        label: format!(
            "{} ({})",
            path.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("baseline"),
            trace.record.header.backend
        ),
        record: trace.record,
    })
}

pub(crate) fn plot(args: PlotArgs) -> anyhow::Result<ExitCode> {
    let scenario = Scenario::load(&args.scenario)?;
    let kinds = backends(&scenario, &args.backend)?;
    let baseline = args
        .against
        .as_deref()
        .map(|path| read_baseline(path, &scenario, &kinds))
        .transpose()?;
    let mut series = Vec::new();
    let mut paths = Vec::new();
    for &kind in &kinds {
        let outcome = run_with_progress(&scenario, kind, false)?;
        if series.is_empty() {
            paths = outcome.plans.clone();
        }
        series.push(cspace_report::plot::Series {
            label: kind.name().to_string(),
            record: outcome.record.as_written(),
        });
    }
    // The default is named after the scenario's file, in the working folder: never after the
    // name the file gives itself, which must not choose where output goes.
    let output = args.output.unwrap_or_else(|| {
        let stem = args
            .scenario
            .file_stem()
            .map_or_else(|| "plot".into(), |s| s.to_string_lossy().into_owned());
        PathBuf::from(format!("{stem}.svg"))
    });
    let plot = cspace_report::plot::Plot {
        world: &scenario.world.world,
        agent_names: &scenario.agent_names,
        runs: &series,
        baseline: baseline.as_ref(),
        tolerance: scenario.tolerance,
        paths: &paths,
        crowds: &scenario.crowds,
    };
    plot.write(&output)?;
    if let Some(base) = &baseline {
        for (s, first) in series.iter().zip(plot.first_divergences()) {
            let off =
                cspace_report::plot::positions_off(&s.record, &base.record, scenario.tolerance);
            match first {
                Some(d) => note!(
                    "{}: {off} sampled positions off the baseline by more than {}; the first at step {} ({:.3} s), agent {}, {:.3} units",
                    s.label,
                    scenario.tolerance,
                    d.step,
                    d.time,
                    scenario.agent_names[d.agent.0 as usize],
                    d.distance
                ),
                None => note!(
                    "{}: within {} units of the baseline at every sample",
                    s.label,
                    scenario.tolerance
                ),
            }
        }
    }
    note!("wrote {}", output.display());
    Ok(ExitCode::SUCCESS)
}
