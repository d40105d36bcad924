//! `sim`: the cspace command line. One module per subcommand (`commands/`); this file parses
//! the command line and hands it to the subcommand.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[macro_use]
mod output;
mod backend_arg;
mod commands;
mod progress;
mod runs;
mod shape_arg;

use commands::{
    bench, check, compare, compile, los, map, nav, path, plot, report, run, sweep, trace,
};
use output::closed_stdout;

/// cspace: agents moving through brush-built worlds, with interchangeable collision backends.
///
/// Exit codes: 0 success, 1 a failed expectation or a divergence, 2 bad input or another error.
#[derive(Debug, Parser)]
#[command(name = "sim", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate a scenario, check its expectations, print a summary and write the trace.
    Run(run::RunArgs),
    /// Run a scenario on every applicable backend and report the largest divergence.
    Compare(compare::CompareArgs),
    /// Plot trajectories (top and side views), against a recorded trace if given.
    Plot(plot::PlotArgs),
    /// Validate scenarios, sweep files, TOML worlds and .map files without running them.
    Check(check::CheckArgs),
    /// Sweep a shape along segments read from standard input; one JSON hit per line out.
    ///
    /// Standard input: one segment per line, `x0 y0 z0 x1 y1 z1` (six numbers separated by
    /// spaces; blank lines and lines starting with `#` are skipped); a malformed line stops with
    /// `stdin:LINE: ...` and exit code 2. Standard output: one JSON object per segment, in order:
    /// `fraction` (the free part of the move, 0 to 1), `end` (where the shape stops, the skin short
    /// of what it hit), `normal`, `plane_distance`, `point`, `brush` and `time_of_impact` (null on
    /// a miss), `start_solid`, `all_solid`.
    ///
    /// Example: `echo "0 0 24 500 0 24" | sim trace world.toml --shape box:-16,-16,-24,16,16,32`
    Trace(trace::TraceArgs),
    /// Report what the import of a .map file found.
    Map(map::MapArgs),
    /// Compile an onion tree (one configuration space per box pose) and print its statistics.
    Compile(compile::CompileArgs),
    /// Time crowds of walking agents per backend (agent steps per second).
    Bench(bench::BenchArgs),
    /// Write one self-contained HTML page for a set of scenarios: what failed first, then per
    /// scenario and backend the expectations, the divergences between backends, the plots, and
    /// the diff of every trace that differs from its snapshot.
    Report(report::ReportArgs),
    /// Build a world's navigation graph and print its statistics: walkable areas and links by
    /// kind per pose, components, build times.
    Nav(nav::NavArgs),
    /// Plan a path from one agent origin to another: the waypoints with how each is reached
    /// (walk, step, drop, jump, crouch, stand), the length; exit 1 when the goal is unreachable.
    Path(path::PathArgs),
    /// Line of sight along segments read from standard input; one JSON answer per line.
    ///
    /// Standard input: one segment per line, `x0 y0 z0 x1 y1 z1`, as `sim trace` reads them
    /// (blank lines and lines starting with `#` are skipped; a malformed line or a coordinate
    /// beyond the numeric domain stops with `stdin:LINE:COLUMN: ...` and exit code 2). Standard
    /// output: `{"visible":true}` when a cube of half side 1/32 moved along the segment touches
    /// no solid (curved walls block it, which a point passes through; grazing and touching are
    /// free), `{"visible":false}` otherwise.
    ///
    /// Example: `echo "0 0 8 500 0 8" | sim los world.toml`
    Los(los::LosArgs),
    /// Run the cross product of scenarios, maps, seeds and backends in parallel; one JSON line
    /// per run, in run order (docs/sweep.md).
    ///
    /// The runs are numbered from 0: scenario, then map, then seed, then backend (the innermost),
    /// each in the order written. Standard output (or --out): one JSON object per run, in that
    /// order: `run`, `runs`, `scenario`, `name`, `map`, `seed`, `backend`, `passed`, `error`,
    /// `expectations`, `end_state` (16 hex digits), `steps`, `agent_steps` (and `timing` with
    /// --timing). Standard error: a progress bar on a terminal, then the summary.
    ///
    /// Examples: `sim sweep scenarios/sweeps/crowd_drop.toml --threads 2`;
    /// `sim sweep scenarios/drop.toml --backends onion,exact --seeds 0..10`.
    Sweep(sweep::SweepArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli) {
        Ok(code) => code,
        Err(error) if closed_stdout(&error) => ExitCode::SUCCESS,
        Err(error) => {
            note!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Run(args) => run::run_command(args),
        Command::Compare(args) => compare::compare(args),
        Command::Plot(args) => plot::plot(args),
        Command::Check(args) => check::check(args),
        Command::Trace(args) => trace::trace(args),
        Command::Map(args) => map::map(args),
        Command::Compile(args) => compile::compile(args),
        Command::Bench(args) => bench::bench(args),
        Command::Report(args) => report::report(args),
        Command::Nav(args) => nav::nav(args),
        Command::Path(args) => path::path(args),
        Command::Los(args) => los::los(args),
        Command::Sweep(args) => sweep::sweep(args),
    }
}
