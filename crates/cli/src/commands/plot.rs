//! `sim plot`: the trajectories of a scenario's runs, against a baseline trace if given.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cspace_scenario::Scenario;
use cspace_sim::BackendKind;

use crate::backend_arg;
use crate::output::{is_stdout, shown, write_output};
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
    /// Which backend's trace of the `--against` file to overlay, when it holds one per backend
    /// (`sim run --trace` of several backends); default: the backend drawn, when one is.
    #[arg(long, value_parser = backend_arg::parser(), requires = "against")]
    pub(crate) against_backend: Option<BackendKind>,
    /// The output file: .svg or .png (default: the scenario file's name with .svg, in the
    /// working folder); `-` writes the SVG to standard output.
    #[arg(short = 'o', long = "output")]
    pub(crate) output: Option<PathBuf>,
}

/// The baseline `sim plot --against` reads: a trace file or a snapshot of the same scenario. A
/// file with one trace per backend gives the trace of `chosen` (`--against-backend`), else of
/// the backend drawn when one is.
pub(crate) fn read_baseline(
    path: &Path,
    scenario: &Scenario,
    kinds: &[BackendKind],
    chosen: Option<BackendKind>,
) -> anyhow::Result<cspace_report::plot::Series> {
    let text = cspace_scenario::read::read_text(path, "read the baseline")?;
    let mut traces = cspace_scenario::trace::parse_all(&text)
        .map_err(|e| anyhow::anyhow!("{}:{e}", cspace_mapfile::normalised(path).display()))?;
    for t in &traces {
        if t.record.header.scenario != scenario.name {
            anyhow::bail!(
                "{}:{}:10: this is a trace of scenario {:?}, not of {:?} ({}); compare a scenario with its own traces",
                cspace_mapfile::normalised(path).display(),
                t.scenario_line,
                t.record.header.scenario,
                scenario.name,
                cspace_mapfile::normalised(&scenario.path).display()
            );
        }
    }
    let names: Vec<String> = traces
        .iter()
        .map(|t| t.record.header.backend.clone())
        .collect();
    let file = cspace_mapfile::normalised(path).display().to_string();
    let wanted = chosen.or(match kinds {
        [kind] if traces.len() > 1 => Some(*kind),
        _ => None,
    });
    let trace = match wanted {
        Some(kind) => match traces
            .iter()
            .position(|t| t.record.header.backend == kind.name())
        {
            Some(i) => traces.swap_remove(i),
            None => anyhow::bail!(
                "{file}: holds the trace{} of {} but not of {}; name one it holds with --against-backend",
                if names.len() == 1 { "" } else { "s" },
                names.join(", "),
                kind.name()
            ),
        },
        None if traces.len() == 1 => traces.remove(0),
        None => anyhow::bail!(
            "{file}: holds one trace per backend ({}); choose the one to overlay with --against-backend NAME",
            names.join(", ")
        ),
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
        .map(|path| read_baseline(path, &scenario, &kinds, args.against_backend))
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
    if is_stdout(&output) {
        write_output(&output, plot.svg()?.as_bytes(), "the plot")?;
    } else {
        plot.write(&output)?;
    }
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
    note!("wrote {}", shown(&output));
    Ok(ExitCode::SUCCESS)
}
