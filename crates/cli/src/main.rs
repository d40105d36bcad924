//! `sim`: the cspace command line.

use std::io::{BufReader, BufWriter, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Parser, Subcommand};
use cspace_report::summary;
use cspace_scenario::{RunOptions, RunOutcome, Scenario, run_scenario};
use cspace_scenario::{segments, world_file};
use cspace_sim::BackendKind;

mod backend_arg;
mod shape_arg;

/// Standard output was closed by its reader (`sim check *.map | head -1`): not an error, the
/// command stops quietly with exit code 0.
#[derive(Debug, thiserror::Error)]
#[error("standard output closed")]
struct StdoutClosed;

/// Writes to standard output; a closed pipe becomes [`StdoutClosed`].
fn write_out(text: std::fmt::Arguments<'_>) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_fmt(text).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(StdoutClosed.into()),
        other => Ok(other?),
    }
}

/// True when `error` is standard output closed by its reader (ours, or a broken pipe met by a
/// writer of the library, such as `sim trace`'s).
fn closed_stdout(error: &anyhow::Error) -> bool {
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
    ($($arg:tt)*) => { write_out(format_args!($($arg)*))? };
}

/// `println!` that stops the command quietly when standard output is closed.
macro_rules! outln {
    ($($arg:tt)*) => { write_out(format_args!("{}\n", format_args!($($arg)*)))? };
}

/// `eprintln!` that never panics (a closed standard error loses the message, nothing else).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

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
    Run(RunArgs),
    /// Run a scenario on every applicable backend and report the largest divergence.
    Compare(CompareArgs),
    /// Plot trajectories (top and side views), against a recorded trace if given.
    Plot(PlotArgs),
    /// Validate scenarios, sweep files, TOML worlds and .map files without running them.
    Check(CheckArgs),
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
    Trace(TraceArgs),
    /// Report what the import of a .map file found.
    Map(MapArgs),
    /// Compile an onion tree (one configuration space per box pose) and print its statistics.
    Compile(CompileArgs),
    /// Time crowds of walking agents per backend (agent steps per second).
    Bench(BenchArgs),
    /// Write one self-contained HTML page for a set of scenarios: what failed first, then per
    /// scenario and backend the expectations, the divergences between backends, the plots, and
    /// the diff of every trace that differs from its snapshot.
    Report(ReportArgs),
    /// Build a world's navigation graph and print its statistics: walkable areas and links by
    /// kind per pose, components, build times.
    Nav(NavArgs),
    /// Plan a path from one agent origin to another: the waypoints with how each is reached
    /// (walk, step, drop, jump, crouch, stand), the length; exit 1 when the goal is unreachable.
    Path(PathArgs),
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
    Los(LosArgs),
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
    Sweep(SweepArgs),
}

/// A pose the navigation plans for, as `--pose` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum NavPoseArg {
    /// Quake's standing player, (-16,-16,-24)..(16,16,32), at walk speed.
    Stand,
    /// Quake's crouching player, (-16,-16,-24)..(16,16,16), at a quarter of it.
    Crouch,
}

impl NavPoseArg {
    fn plan_pose(self) -> cspace_sim::navigation::PlanPose {
        use cspace_sim::navigation::PlanPose;
        match self {
            NavPoseArg::Stand => PlanPose::stand(),
            NavPoseArg::Crouch => {
                PlanPose::crouch(cspace_sim::MoveParams::default().crouch_speed_scale)
            }
        }
    }
}

#[derive(Debug, clap::Args)]
struct NavArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    world: PathBuf,
    /// A pose to plan for, `stand` or `crouch` (repeat for both; the first is the primary pose,
    /// whose graph has every walkable area; default: stand, then crouch).
    #[arg(long = "pose", value_enum)]
    poses: Vec<NavPoseArg>,
    /// Fill the outside of a sealed map from its spawn points first (as `sim compile
    /// --fill-outside`), so that no floor outside the map is counted.
    #[arg(long)]
    fill_outside: bool,
    /// Print the statistics as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct PathArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    world: PathBuf,
    /// Where the agent's origin starts, X,Y,Z (placed on the walkable floor below it).
    #[arg(long, value_parser = shape_arg::parse_point, allow_hyphen_values = true)]
    from: cspace_geom::DVec3,
    /// Where its origin should go, X,Y,Z (placed on the walkable floor below it).
    #[arg(long, value_parser = shape_arg::parse_point, allow_hyphen_values = true)]
    to: cspace_geom::DVec3,
    /// The pose the agent starts in (the graph plans for standing and crouching).
    #[arg(long, value_enum, default_value = "stand")]
    pose: NavPoseArg,
    /// Fill the outside of a sealed map from its spawn points first.
    #[arg(long)]
    fill_outside: bool,
    /// Print the path as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct LosArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    world: PathBuf,
}

#[derive(Debug, clap::Args)]
struct SweepArgs {
    /// A sweep file (a .toml with a `scenarios` list) or scenario files; with --merge, the JSON
    /// lines of the shards.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The backends (default: the sweep file's, else each scenario's own); a backend that
    /// cannot run a scenario's shapes is left out of its runs, with a note.
    #[arg(long, value_parser = backend_arg::parser(), value_delimiter = ',')]
    backends: Vec<BackendKind>,
    /// The seeds: A..B (B excluded), A..=B, N, or a list of those separated by commas (default:
    /// the sweep file's, else 0, the scenarios as written).
    #[arg(long)]
    seeds: Option<cspace_scenario::sweep::Seeds>,
    /// Threads running the sweep (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Make only shard I of N: the runs whose id leaves I - 1 divided by N. Each line is the line
    /// the whole sweep writes for that run; --merge puts the shards' lines back together.
    #[arg(long, value_name = "I/N")]
    shard: Option<cspace_scenario::sweep::Shard>,
    /// Write the JSON lines to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Append each run's wall-clock figures to its line (`timing`: seconds, agent steps per
    /// second). Without it a sweep writes the same bytes on every run.
    #[arg(long)]
    timing: bool,
    /// Merge the JSON lines of a sweep's shards (the FILES, any order) into the lines one run of
    /// the whole sweep writes; exit 2 when a run is missing or found twice.
    #[arg(long, conflicts_with_all = ["backends", "seeds", "threads", "shard", "timing"])]
    merge: bool,
}

#[derive(Debug, clap::Args)]
struct ReportArgs {
    /// The scenarios (.toml).
    #[arg(required = true)]
    scenarios: Vec<PathBuf>,
    /// The page to write.
    #[arg(short = 'o', long = "output", default_value = "report.html")]
    output: PathBuf,
    /// The folder of the trace snapshots (default: `snapshots/traces` beside each scenario's
    /// folder).
    #[arg(long)]
    snapshots: Option<PathBuf>,
    /// Only these backends (default: each scenario's own).
    #[arg(long, value_parser = backend_arg::parser(), value_delimiter = ',')]
    backends: Vec<BackendKind>,
}

#[derive(Debug, clap::Args)]
struct BenchArgs {
    /// A .map world to spread the crowd around its spawn points (besides the open world).
    #[arg(long)]
    map: Option<PathBuf>,
    /// Agents in each crowd.
    #[arg(long, default_value_t = 1000)]
    agents: usize,
    /// Steps of 1/60 s to time.
    #[arg(long, default_value_t = 120)]
    steps: u64,
    /// Times to run each crowd on each backend, interleaved (every crowd and backend once, then
    /// again): the median is reported, with the slowest and fastest runs, since a shared machine
    /// moves single runs by tens of percent.
    #[arg(long, default_value_t = 1)]
    runs: usize,
    /// The backends (default: every one).
    #[arg(long, value_parser = backend_arg::parser(), value_delimiter = ',')]
    backends: Vec<BackendKind>,
    /// The agent grid's cell size in units (default: the movement constants', 64).
    #[arg(long)]
    grid_cell: Option<f64>,
    /// Thread counts to step on (a rayon pool each, runs interleaved): `--threads 1,2` gives a
    /// row per count (default: the global pool, every core or RAYON_NUM_THREADS).
    #[arg(long, value_delimiter = ',')]
    threads: Vec<usize>,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct CompileArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    world: PathBuf,
    /// A box pose, NAME=MINX,MINY,MINZ,MAXX,MAXY,MAXZ (repeat for several; default: Quake's
    /// standing and crouching player boxes).
    #[arg(long = "pose", value_parser = shape_arg::parse_pose)]
    poses: Vec<cspace_onion::Pose>,
    /// Save the compiled tree here (load it with `sim trace --backend onion --tree FILE`).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Fill the outside of a sealed map: flood from its spawn points and make every empty leaf
    /// the flood does not reach solid (a space whose flood leaks is left as it is).
    #[arg(long)]
    fill_outside: bool,
    /// Print the statistics as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct MapArgs {
    /// The .map file.
    file: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The scenario (.toml).
    scenario: PathBuf,
    /// Run only this backend (default: every backend the scenario names or supports).
    #[arg(long, value_parser = backend_arg::parser())]
    backend: Option<BackendKind>,
    /// Write the trace here (with several backends, `NAME.BACKEND.EXT`).
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Check every agent's position after every step with the exact reference's point query;
    /// an agent found in solid fails the run (exit 1) with the step, agent and position.
    #[arg(long)]
    verify: bool,
}

#[derive(Debug, clap::Args)]
struct CompareArgs {
    /// The scenario (.toml).
    scenario: PathBuf,
    /// The backends to compare (default: every one the scenario names or supports).
    #[arg(long, value_parser = backend_arg::parser(), value_delimiter = ',')]
    backends: Vec<BackendKind>,
    /// Print the comparison as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct PlotArgs {
    /// The scenario (.toml).
    scenario: PathBuf,
    /// The backends to run and draw (default: every one the scenario names or supports).
    #[arg(long, value_parser = backend_arg::parser(), value_delimiter = ',')]
    backend: Vec<BackendKind>,
    /// A recorded trace or an insta snapshot to overlay as the baseline.
    #[arg(long)]
    against: Option<PathBuf>,
    /// The output file: .svg (default) or .png.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// Scenario files, sweep files, TOML worlds or .map files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct TraceArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    world: PathBuf,
    /// The collision backend.
    #[arg(long, value_parser = backend_arg::parser(), default_value = "exact")]
    backend: BackendKind,
    /// The moving shape: box:MINX,MINY,MINZ,MAXX,MAXY,MAXZ, sphere:R, cylinder:R,HALFHEIGHT,
    /// point, or hull:X,Y,Z,...
    #[arg(long, value_parser = shape_arg::parse_shape)]
    shape: cspace_geom::Shape,
    /// The skin kept between a stopped mover and the hit plane, in units.
    #[arg(long, default_value_t = cspace_geom::tolerance::DEFAULT_SKIN)]
    skin: f64,
    /// Onion only: answer from this saved tree (`sim compile -o`) instead of compiling the pose.
    #[arg(long)]
    tree: Option<PathBuf>,
    /// With --tree: first verify the tree against the world (its planes, the faces of every
    /// configuration space, each leaf's solidity against the exact point query); a disagreement
    /// is an error. Verify a tree from an untrusted source, or recompile it.
    #[arg(long, requires = "tree")]
    verify: bool,
    /// Melax only: the bevels, `paper` (Melax's rule, the `melax` backend's) or `exact` (complete
    /// box bevels, the `melax-exact` backend's).
    #[arg(long, value_enum)]
    bevel: Option<Bevel>,
    /// Melax only, with paper bevels: the largest angle between adjacent face normals left
    /// unbevelled, in degrees (default 90, the paper's).
    #[arg(long)]
    bevel_angle: Option<f64>,
}

/// Melax's bevel rule, as `--bevel` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Bevel {
    /// Melax's rule (Sections 5 and 8).
    Paper,
    /// The complete box bevels.
    Exact,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) if closed_stdout(&error) => ExitCode::SUCCESS,
        Err(error) => {
            note!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Run(args) => run_command(args),
        Command::Compare(args) => compare(args),
        Command::Plot(args) => plot(args),
        Command::Check(args) => check(args),
        Command::Trace(args) => trace(args),
        Command::Map(args) => map(args),
        Command::Compile(args) => compile(args),
        Command::Bench(args) => bench(args),
        Command::Report(args) => report(args),
        Command::Nav(args) => nav(args),
        Command::Path(args) => path(args),
        Command::Los(args) => los(args),
        Command::Sweep(args) => sweep(args),
    }
}

/// The backends to run: the ones asked for (each must be applicable), or the scenario's, saying
/// on standard error which backends are left out and why.
fn backends(scenario: &Scenario, asked: &[BackendKind]) -> anyhow::Result<Vec<BackendKind>> {
    if asked.is_empty() {
        for (kind, why) in &scenario.left_out {
            note!(
                "{}: not run on {}: {why}",
                scenario.path.display(),
                kind.name()
            );
        }
        return Ok(scenario.backends.clone());
    }
    for b in asked {
        if let Some(why) = scenario.refusal(*b) {
            anyhow::bail!(
                "{}: the {} backend cannot run it: {why}",
                scenario.path.display(),
                b.name()
            );
        }
    }
    Ok(asked.to_vec())
}

/// Runs with a progress bar on stderr when it is a terminal and the run lasts over a second.
/// A progress bar of `len` steps on standard error when it is a terminal (`None` otherwise).
fn progress_bar(len: u64, message: String, unit: &str) -> Option<indicatif::ProgressBar> {
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
fn spinner(message: String) -> Option<indicatif::ProgressBar> {
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

fn run_with_progress(
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

fn run_command(args: RunArgs) -> anyhow::Result<ExitCode> {
    let scenario = Scenario::load(&args.scenario)?;
    let kinds = backends(&scenario, args.backend.as_slice())?;
    let mut outcomes = Vec::with_capacity(kinds.len());
    for &kind in &kinds {
        let outcome = run_with_progress(&scenario, kind, args.verify)?;
        if !args.json {
            outln!("{}", summary::run_text(&scenario, &outcome));
        }
        outcomes.push(outcome);
    }
    if let Some(path) = &args.trace {
        // One file: the trace of each backend, one after another (`trace::parse_all`).
        let text: Vec<String> = outcomes.iter().map(|o| o.trace()).collect();
        std::fs::write(path, text.join("\n"))
            .with_context(|| format!("writing the trace to {}", path.display()))?;
        note!(
            "wrote {} ({} trace{})",
            path.display(),
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
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else if let Some(verdict) = &verdict {
        outln!("{verdict}");
    }
    Ok(if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn compare(args: CompareArgs) -> anyhow::Result<ExitCode> {
    let scenario = Scenario::load(&args.scenario)?;
    let kinds = backends(&scenario, &args.backends)?;
    if kinds.len() < 2 {
        anyhow::bail!(
            "{}: only {} applicable backend ({}); nothing to compare",
            scenario.path.display(),
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

/// The baseline `sim plot --against` reads: a trace file or a snapshot of the same scenario. A
/// file with one trace per backend gives the trace of the backend drawn.
fn read_baseline(
    path: &Path,
    scenario: &Scenario,
    kinds: &[BackendKind],
) -> anyhow::Result<cspace_report::plot::Series> {
    let text = cspace_scenario::location::read_text(path, "read the baseline")?;
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

fn plot(args: PlotArgs) -> anyhow::Result<ExitCode> {
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
    let output = args
        .output
        .unwrap_or_else(|| PathBuf::from(format!("{}.svg", scenario.name)));
    let plot = cspace_report::plot::Plot {
        world: &scenario.world.world,
        agent_names: &scenario.agent_names,
        runs: &series,
        baseline: baseline.as_ref(),
        tolerance: scenario.tolerance,
        paths: &paths,
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

/// What `sim sweep` runs: the sweep file given alone, or the scenarios given; the command
/// line's backends and seeds replace the file's.
fn sweep_plan(args: &SweepArgs) -> anyhow::Result<cspace_scenario::sweep::Plan> {
    use cspace_scenario::sweep::{Plan, is_sweep_file};
    let is_sweep =
        |path: &PathBuf| std::fs::read_to_string(path).is_ok_and(|text| is_sweep_file(&text));
    let mut plan = match args.files.as_slice() {
        [file] if is_sweep(file) => Plan::load(file)?,
        files => {
            if let Some(file) = files.iter().find(|f| is_sweep(f)) {
                anyhow::bail!(
                    "{} is a sweep file: give it alone (its `scenarios` list names the scenarios)",
                    file.display()
                );
            }
            Plan::from_scenarios(files)
        }
    };
    if !args.backends.is_empty() {
        let mut kinds = Vec::new();
        for &b in &args.backends {
            if !kinds.contains(&b) {
                kinds.push(b);
            }
        }
        plan.backends = Some(kinds);
    }
    if let Some(seeds) = &args.seeds {
        plan.seeds = seeds.clone();
    }
    Ok(plan)
}

/// Where `sim sweep` writes its lines: standard output (quietly stopping when it is closed) or
/// a file.
enum LineSink {
    Stdout,
    File(PathBuf, BufWriter<std::fs::File>),
}

impl LineSink {
    fn open(out: Option<&Path>) -> anyhow::Result<LineSink> {
        Ok(match out {
            None => LineSink::Stdout,
            Some(path) => LineSink::File(
                path.to_path_buf(),
                BufWriter::new(
                    std::fs::File::create(path)
                        .with_context(|| format!("{}: cannot create the output", path.display()))?,
                ),
            ),
        })
    }

    fn line(&mut self, line: &str) -> anyhow::Result<()> {
        use std::io::Write as _;
        match self {
            LineSink::Stdout => outln!("{line}"),
            LineSink::File(path, file) => writeln!(file, "{line}")
                .with_context(|| format!("{}: cannot write the output", path.display()))?,
        }
        Ok(())
    }

    fn finish(self) -> anyhow::Result<()> {
        use std::io::Write as _;
        if let LineSink::File(path, mut file) = self {
            file.flush()
                .with_context(|| format!("{}: cannot write the output", path.display()))?;
        }
        Ok(())
    }
}

/// The verdict of a sweep: 2 when a run could not be made, 1 when an expectation failed.
fn sweep_exit(failed: u64, errors: u64) -> ExitCode {
    if errors > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn sweep(args: SweepArgs) -> anyhow::Result<ExitCode> {
    use cspace_scenario::sweep::{Execute, Shard, Sweep};
    if args.merge {
        return merge_sweep(&args);
    }
    let plan = sweep_plan(&args)?;
    let sweep = match Sweep::load(&plan) {
        Ok(sweep) => sweep,
        Err(errors) => {
            for e in &errors {
                note!("error: {e}");
            }
            return Ok(ExitCode::from(2));
        }
    };
    for n in &sweep.notes {
        note!("{n}");
    }
    let shard = args.shard.unwrap_or(Shard::ALL);
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let runs = shard.runs(sweep.runs());
    let mut sink = LineSink::open(args.out.as_deref())?;
    let bar = progress_bar(
        runs,
        if shard == Shard::ALL {
            "sweep".to_string()
        } else {
            format!("sweep, shard {shard}")
        },
        "runs",
    );
    let (mut failed, mut errors, mut agent_steps, mut written) = (0u64, 0u64, 0u64, 0u64);
    let mut trouble: Option<anyhow::Error> = None;
    let started = Instant::now();
    let options = Execute {
        shard,
        threads,
        timing: args.timing,
    };
    sweep.execute(&options, |line| {
        failed += u64::from(!line.passed);
        errors += u64::from(line.error.is_some());
        agent_steps += line.agent_steps;
        written += 1;
        if let Some(b) = &bar {
            b.inc(1);
        }
        match sink.line(&line.to_json()) {
            Ok(()) => std::ops::ControlFlow::Continue(()),
            Err(e) => {
                trouble = Some(e);
                std::ops::ControlFlow::Break(())
            }
        }
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = trouble {
        return Err(e);
    }
    sink.finish()?;
    let wall = started.elapsed().as_secs_f64();
    note!(
        "sweep: {}{}, {failed} failed, {errors} could not be made, {wall:.2} s wall on {}, {agent_steps} agent steps ({:.0} per second)",
        summary::count(written as usize, "run"),
        if shard == Shard::ALL {
            String::new()
        } else {
            format!(" (shard {shard} of {} runs)", sweep.runs())
        },
        summary::count(threads, "thread"),
        agent_steps as f64 / wall.max(1e-9) // not a tolerance: guards the division
    );
    Ok(sweep_exit(failed, errors))
}

/// `sim sweep --merge`: the shards' lines in run order.
fn merge_sweep(args: &SweepArgs) -> anyhow::Result<ExitCode> {
    let mut texts = Vec::with_capacity(args.files.len());
    for file in &args.files {
        texts.push(cspace_scenario::location::read_text(
            file,
            "read the lines",
        )?);
    }
    let inputs: Vec<(&Path, &str)> = args
        .files
        .iter()
        .map(PathBuf::as_path)
        .zip(texts.iter().map(String::as_str))
        .collect();
    let merged = cspace_scenario::sweep::merge(&inputs)?;
    let mut sink = LineSink::open(args.out.as_deref())?;
    for line in &merged.lines {
        sink.line(line)?;
    }
    sink.finish()?;
    note!(
        "merged: {} from {}, {} failed, {} could not be made",
        summary::count(merged.lines.len(), "run"),
        summary::count(args.files.len(), "file"),
        merged.failed,
        merged.errors
    );
    Ok(sweep_exit(merged.failed, merged.errors))
}

fn report(args: ReportArgs) -> anyhow::Result<ExitCode> {
    use cspace_report::report::{Report, ReportOptions};
    let options = ReportOptions {
        snapshots: args.snapshots,
        backends: args.backends,
    };
    let report = Report::build(&args.scenarios, &options, |path| {
        note!("running {}", path.display());
    });
    std::fs::write(&args.output, report.html())
        .with_context(|| format!("writing the report to {}", args.output.display()))?;
    let failures = report.failures();
    for f in &failures {
        outln!("FAILED {} {}", f.scenario, f.what);
    }
    let skipped = report.skipped();
    for (path, why) in &skipped {
        outln!("skipped: {} ({why})", path.display());
    }
    outln!(
        "{}: {} scenarios, {}{}",
        args.output.display(),
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

/// `sim check` on a sweep file: the file, and every scenario on every map it names (all their
/// errors, one per line).
fn check_sweep(file: &Path, text: &str) -> anyhow::Result<String> {
    use cspace_scenario::sweep::{Plan, Sweep};
    let plan = Plan::parse(file, text)?;
    let sweep = Sweep::load(&plan).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        anyhow::anyhow!("{}", lines.join("\nerror: "))
    })?;
    Ok(format!(
        "sweep of {} ({} scenario-map pairs, {} seeds)",
        summary::count(sweep.runs() as usize, "run"),
        sweep.groups.len(),
        sweep.seeds.len()
    ))
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let mut bad = 0;
    for file in &args.files {
        let result = match file.extension().and_then(|e| e.to_str()) {
            Some("map") => world_file::load_world(file)
                .map(|w| summary::count(w.world.len(), "brush"))
                .map_err(anyhow::Error::from),
            Some("toml") => {
                let text = match cspace_scenario::location::read_text(file, "read it") {
                    Ok(text) => text,
                    Err(e) => {
                        bad += 1;
                        note!("error: {e}");
                        continue;
                    }
                };
                // A sweep names scenarios, a scenario has agents; anything else is a world.
                if cspace_scenario::sweep::is_sweep_file(&text) {
                    check_sweep(file, &text)
                } else if text.lines().any(|l| {
                    l.trim_start().starts_with("[[agent]]")
                        || l.trim_start().starts_with("[[crowd]]")
                }) {
                    Scenario::parse(file, &text)
                        .map(|s| {
                            format!(
                                "scenario {:?}: {}, backends {}",
                                s.name,
                                summary::count(s.agents.len(), "agent"),
                                s.backends
                                    .iter()
                                    .map(|b| b.name())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        })
                        .map_err(anyhow::Error::from)
                } else {
                    world_file::load_world(file)
                        .map(|w| summary::count(w.world.len(), "brush"))
                        .map_err(anyhow::Error::from)
                }
            }
            _ => Err(anyhow::anyhow!(
                "{}: expected a .toml scenario or world, or a .map file",
                file.display()
            )),
        };
        match result {
            Ok(what) => outln!("ok {}: {what}", file.display()),
            Err(e) => {
                bad += 1;
                note!("error: {e:#}");
            }
        }
    }
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    use cspace_scenario::bench;
    if args.agents == 0 || args.steps == 0 || args.runs == 0 {
        anyhow::bail!("--agents, --steps and --runs must be positive");
    }
    let seconds = (args.steps + 1) as f64 / 60.0;
    let mut crowds = vec![bench::open_world(args.agents, seconds)];
    if let Some(path) = &args.map {
        let loaded = world_file::load_world(path)?;
        crowds.push(bench::map_world(
            &path.display().to_string(),
            loaded.world,
            &loaded.spawns,
            args.agents,
            seconds,
        )?);
    }
    if let Some(cell) = args.grid_cell {
        for crowd in &mut crowds {
            crowd.params.grid_cell = cell;
            crowd
                .params
                .validate()
                .map_err(|e| anyhow::anyhow!("--grid-cell: {e}"))?;
        }
    }
    let backends = if args.backends.is_empty() {
        BackendKind::ALL.to_vec()
    } else {
        args.backends.clone()
    };
    if args.threads.contains(&0) {
        anyhow::bail!("--threads: thread counts must be positive");
    }
    // A pool per thread count asked for (`None`: the global pool).
    let pools: Vec<Option<rayon::ThreadPool>> = if args.threads.is_empty() {
        vec![None]
    } else {
        args.threads
            .iter()
            .map(|&n| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map(Some)
            })
            .collect::<Result<_, _>>()?
    };
    // Each backend on each pool is a row.
    let kinds: Vec<(BackendKind, usize)> = backends
        .iter()
        .flat_map(|&k| (0..pools.len()).map(move |p| (k, p)))
        .collect();
    // Every run of every crowd and backend, interleaved so that drift hits all alike.
    let mut timings: Vec<Vec<bench::CrowdTiming>> = vec![Vec::new(); crowds.len() * kinds.len()];
    let bar = progress_bar(
        (args.runs * crowds.len() * kinds.len()) as u64,
        format!("{} agents, {} steps", args.agents, args.steps),
        "runs",
    );
    for _ in 0..args.runs {
        for (c, crowd) in crowds.iter().enumerate() {
            for (k, &(kind, pool)) in kinds.iter().enumerate() {
                if let Some(b) = &bar {
                    b.set_message(format!("{} on {}", crowd.name, kind.name()));
                }
                let run = || bench::time_crowd(crowd, kind, args.steps);
                let timing = match &pools[pool] {
                    Some(pool) => pool.install(run)?,
                    None => run()?,
                };
                timings[c * kinds.len() + k].push(timing);
                if let Some(b) = &bar {
                    b.inc(1);
                }
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut rows = Vec::new();
    if !args.json {
        outln!(
            "| world | backend | threads | agents | steps | runs | agent steps/s (median) | slowest - fastest | traces per agent step | agents tested per trace | groups per step | outside groups | end state | backend counters |"
        );
        outln!(
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
        );
    }
    for (c, crowd) in crowds.iter().enumerate() {
        for (k, &(kind, _)) in kinds.iter().enumerate() {
            let runs = &timings[c * kinds.len() + k];
            let mut rates: Vec<f64> = runs.iter().map(|t| t.agent_steps_per_second).collect();
            rates.sort_by(f64::total_cmp);
            let median = bench::median_of_sorted(&rates);
            // The counters are the same in every run (the simulation is deterministic, which the
            // end states show).
            let t = &runs[0];
            let end_state = bench::agreed_end_state(runs).map(|h| format!("{h:016x}"));
            if args.json {
                rows.push(serde_json::json!({
                    "world": crowd.name, "backend": kind.name(), "threads": t.threads,
                    "agents": t.agents, "steps": t.steps,
                    "groups_per_step": t.groups_per_step,
                    "outside_groups_share": t.outside_groups_share,
                    "agent_steps_per_second": median,
                    "runs_agent_steps_per_second": rates,
                    "traces_per_agent_step": t.traces_per_agent_step,
                    "agent_candidates_per_trace": t.agent_candidates_per_trace,
                    "backend_counters": t.backend_counters.to_string(),
                    "end_state": end_state,
                    "runs_end_state": runs.iter().map(|r| format!("{:016x}", r.end_state)).collect::<Vec<_>>(),
                }));
            } else {
                outln!(
                    "| {} | {} | {} | {} | {} | {} | {:.0} | {:.0} - {:.0} | {:.2} | {:.2} | {:.0} | {:.1} % | {} | {} |",
                    crowd.name,
                    kind.name(),
                    t.threads,
                    t.agents,
                    t.steps,
                    runs.len(),
                    median,
                    rates[0],
                    rates[rates.len() - 1],
                    t.traces_per_agent_step,
                    t.agent_candidates_per_trace,
                    t.groups_per_step,
                    100.0 * t.outside_groups_share,
                    end_state.as_deref().unwrap_or("differs between runs"),
                    t.backend_counters
                );
            }
        }
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
    }
    Ok(ExitCode::SUCCESS)
}

fn map(args: MapArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read(&args.file)
        .with_context(|| format!("{}: cannot read", args.file.display()))?;
    let name = args.file.display().to_string();
    let map = cspace_mapfile::load_world(&text, &name, &cspace_mapfile::BuildOptions::default())?;
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&cspace_report::map_report::json(&map))?
        );
    } else {
        out!("{}", cspace_report::map_report::text(&map));
    }
    Ok(ExitCode::SUCCESS)
}

/// The backend `sim trace` asked for, with its tree options applied.
fn trace_backend(
    args: &TraceArgs,
    world: &std::sync::Arc<cspace_geom::World>,
) -> anyhow::Result<std::sync::Arc<dyn cspace_geom::Collider>> {
    let melax = matches!(args.backend, BackendKind::Melax | BackendKind::MelaxExact);
    if args.tree.is_some() && args.backend != BackendKind::Onion {
        anyhow::bail!(
            "--tree is for the onion backend, not {}",
            args.backend.name()
        );
    }
    if (args.bevel.is_some() || args.bevel_angle.is_some()) && !melax {
        anyhow::bail!(
            "--bevel and --bevel-angle are for the melax backends, not {}",
            args.backend.name()
        );
    }
    if let Some(path) = &args.tree {
        let bytes =
            std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
        let tree = cspace_onion::OnionTree::from_bytes(&bytes)
            .with_context(|| format!("{}: not a usable onion tree", path.display()))?;
        let onion = cspace_onion::OnionCollider::new(world.clone(), tree)
            .with_context(|| format!("{} and {}", path.display(), args.world.display()))?;
        if args.verify {
            let report = onion
                .tree()
                .verify(world, &cspace_onion::VerifyOptions::default())
                .with_context(|| {
                    let (tree, world) = (path.display(), args.world.display());
                    format!("{tree} does not verify against {world}")
                })?;
            note!(
                "{}: verified: {} leaves, {} points, {:.2} s",
                path.display(),
                report.leaves,
                report.points,
                report.seconds
            );
        }
        return Ok(std::sync::Arc::new(onion));
    }
    if melax {
        let exact = match args.bevel {
            Some(b) => b == Bevel::Exact,
            None => args.backend == BackendKind::MelaxExact,
        };
        let bevel = match (exact, args.bevel_angle) {
            (true, Some(_)) => anyhow::bail!("--bevel-angle applies to paper bevels only"),
            (true, None) => cspace_melax::BevelMode::Exact,
            (false, None) => cspace_melax::BevelMode::PAPER,
            (false, Some(angle)) if angle.is_finite() && angle > 0.0 && angle < 180.0 => {
                cspace_melax::BevelMode::Paper {
                    angle_degrees: angle,
                }
            }
            (false, Some(angle)) => {
                anyhow::bail!("--bevel-angle must be between 0 and 180 degrees, got {angle}")
            }
        };
        return Ok(std::sync::Arc::new(cspace_sim::backend::melax(
            world, bevel,
        )?));
    }
    args.backend
        .build_for(world, std::slice::from_ref(&args.shape))?
        .ok_or_else(|| {
            anyhow::anyhow!(
                "the {} backend cannot trace {}",
                args.backend.name(),
                args.shape.describe()
            )
        })
}

fn compile(args: CompileArgs) -> anyhow::Result<ExitCode> {
    let loaded = world_file::load_world(&args.world)?;
    let poses = if args.poses.is_empty() {
        vec![
            cspace_onion::Pose::quake_standing(),
            cspace_onion::Pose::quake_crouching(),
        ]
    } else {
        args.poses
    };
    if args.fill_outside && loaded.spawns.is_empty() {
        anyhow::bail!(
            "--fill-outside needs spawn points, and {} has none",
            args.world.display()
        );
    }
    let options = cspace_onion::CompileOptions {
        fill_outside: args.fill_outside,
        spawn_points: loaded.spawns.clone(),
        ..cspace_onion::CompileOptions::default()
    };
    let spin = spinner(format!(
        "compiling the onion tree of {} ({} brushes, {} poses)",
        args.world.display(),
        loaded.world.len(),
        poses.len()
    ));
    let compiled =
        cspace_onion::compile(&loaded.world, &poses, &options).context("compiling the onion tree");
    if let Some(s) = spin {
        s.finish_and_clear();
    }
    let compiled = compiled?;
    if let Some(path) = &args.output {
        let bytes = compiled.tree.to_bytes();
        std::fs::write(path, &bytes)
            .with_context(|| format!("writing the tree to {}", path.display()))?;
        note!("wrote {} ({} bytes)", path.display(), bytes.len());
    }
    let stats = &compiled.stats;
    if args.json {
        let json = cspace_report::tree_report::json(stats, &poses);
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        out!("{}", cspace_report::tree_report::text(stats, &poses));
    }
    Ok(ExitCode::SUCCESS)
}

fn trace(args: TraceArgs) -> anyhow::Result<ExitCode> {
    if !(args.skin.is_finite() && args.skin >= 0.0) {
        anyhow::bail!(
            "--skin must be a finite, non-negative distance, got {}",
            args.skin
        );
    }
    let loaded = world_file::load_world(&args.world)?;
    let collider = trace_backend(&args, &loaded.world)?;
    let shape = collider
        .prepare(&args.shape)
        .context("preparing the shape")?
        .with_skin(args.skin);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    segments::trace_lines(
        collider.as_ref(),
        &mut cspace_geom::QueryContext::new(),
        &shape,
        BufReader::new(stdin.lock()),
        "stdin",
        BufWriter::new(stdout.lock()),
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Loads `world` and builds its navigation for `poses` (with a spinner on a terminal).
fn navigation(
    world: &Path,
    poses: &[NavPoseArg],
    fill_outside: bool,
) -> anyhow::Result<cspace_sim::navigation::Navigation> {
    use cspace_sim::navigation::{self, NavOptions};
    let loaded = world_file::load_world(world)?;
    for (i, p) in poses.iter().enumerate() {
        if poses[..i].contains(p) {
            anyhow::bail!("--pose {} is given twice", pose_name(*p));
        }
    }
    if fill_outside && loaded.spawns.is_empty() {
        anyhow::bail!(
            "--fill-outside needs spawn points, and {} has none",
            world.display()
        );
    }
    let options = NavOptions {
        fill_outside: fill_outside.then(|| loaded.spawns.clone()),
        params: navigation::nav_params(&cspace_sim::MoveParams::default()),
    };
    let plan_poses: Vec<_> = poses.iter().map(|p| p.plan_pose()).collect();
    let spin = spinner(format!(
        "building the navigation of {} ({} brushes)",
        world.display(),
        loaded.world.len()
    ));
    let built = navigation::build(
        &loaded.world,
        &world.display().to_string(),
        &plan_poses,
        &options,
    );
    if let Some(s) = spin {
        s.finish_and_clear();
    }
    Ok(built?)
}

fn pose_name(pose: NavPoseArg) -> &'static str {
    match pose {
        NavPoseArg::Stand => "stand",
        NavPoseArg::Crouch => "crouch",
    }
}

fn nav(args: NavArgs) -> anyhow::Result<ExitCode> {
    let poses = if args.poses.is_empty() {
        vec![NavPoseArg::Stand, NavPoseArg::Crouch]
    } else {
        args.poses
    };
    let nav = navigation(&args.world, &poses, args.fill_outside)?;
    if args.json {
        let json = cspace_report::nav_report::stats_json(&nav);
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        out!("{}", cspace_report::nav_report::stats_text(&nav));
    }
    Ok(ExitCode::SUCCESS)
}

fn path(args: PathArgs) -> anyhow::Result<ExitCode> {
    let nav = navigation(
        &args.world,
        &[NavPoseArg::Stand, NavPoseArg::Crouch],
        args.fill_outside,
    )?;
    let pose = match args.pose {
        NavPoseArg::Stand => 0,
        NavPoseArg::Crouch => 1,
    };
    let mut ctx = cspace_nav::NavContext::new();
    let path = nav
        .mesh
        .path(args.from, args.to, pose, &mut ctx)
        .map_err(|error| {
            // Name the argument whose point the planner refused.
            let what = match &error {
                cspace_nav::NavError::InSolid { what, .. }
                | cspace_nav::NavError::NoGround { what, .. }
                | cspace_nav::NavError::BadPoint { what, .. } => Some(*what),
                _ => None,
            };
            let (flag, point) = match what {
                Some(cspace_nav::Endpoint::Start) => ("--from", args.from),
                _ => ("--to", args.to),
            };
            cspace_scenario::Error::Nav {
                context: format!(
                    "{}: {flag} {},{},{}",
                    args.world.display(),
                    point.x,
                    point.y,
                    point.z
                ),
                error,
            }
        })?;
    if args.json {
        let json = cspace_report::nav_report::path_json(
            &nav.mesh,
            args.from,
            args.to,
            pose,
            path.as_ref(),
        );
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        out!(
            "{}",
            cspace_report::nav_report::path_text(
                &nav.mesh,
                args.from,
                args.to,
                pose,
                path.as_ref()
            )
        );
    }
    Ok(if path.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn los(args: LosArgs) -> anyhow::Result<ExitCode> {
    let loaded = world_file::load_world(&args.world)?;
    let los =
        cspace_sim::navigation::line_of_sight(&loaded.world, &args.world.display().to_string())?;
    let mut ctx = cspace_nav::NavContext::new();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    segments::answer_lines(
        BufReader::new(stdin.lock()),
        "stdin",
        BufWriter::new(stdout.lock()),
        |a, b| serde_json::json!({ "visible": los.visible(a, b, &mut ctx) }),
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
