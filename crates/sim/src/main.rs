//! `sim`: the cspace command line.

use std::io::{BufReader, BufWriter, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Parser, Subcommand};
use cspace_sim::backend::BackendKind;
use cspace_sim::run::{RunOutcome, run_scenario};
use cspace_sim::scenario::Scenario;
use cspace_sim::sim::SimOptions;
use cspace_sim::{segments, shape_arg, summary, world_file};

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
    /// Validate scenarios, TOML worlds and .map files without running them.
    Check(CheckArgs),
    /// Sweep a shape along segments read from standard input; one JSON hit per line out.
    Trace(TraceArgs),
    /// Report what the import of a .map file found.
    Map(MapArgs),
    /// Compile an onion tree (one configuration space per box pose) and print its statistics.
    Compile(CompileArgs),
    /// Time crowds of walking agents per backend (agent steps per second).
    Bench(BenchArgs),
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
    #[arg(long, value_enum, value_delimiter = ',')]
    backends: Vec<BackendKind>,
    /// The agent grid's cell size in units (default: the movement constants', 64).
    #[arg(long)]
    grid_cell: Option<f64>,
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
    #[arg(long, value_enum)]
    backend: Option<BackendKind>,
    /// Write the trace here (with several backends, `NAME.BACKEND.EXT`).
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct CompareArgs {
    /// The scenario (.toml).
    scenario: PathBuf,
    /// The backends to compare (default: every one the scenario names or supports).
    #[arg(long, value_enum, value_delimiter = ',')]
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
    #[arg(long, value_enum, value_delimiter = ',')]
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
    /// Scenario files, TOML worlds or .map files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct TraceArgs {
    /// The world: a .map file or a TOML world of inline brushes.
    world: PathBuf,
    /// The collision backend.
    #[arg(long, value_enum, default_value = "exact")]
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
        Err(error) => {
            eprintln!("error: {error:#}");
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
    }
}

/// The backends to run: the ones asked for (each must be applicable), or the scenario's.
fn backends(scenario: &Scenario, asked: &[BackendKind]) -> anyhow::Result<Vec<BackendKind>> {
    if asked.is_empty() {
        return Ok(scenario.backends.clone());
    }
    let shapes = scenario.shapes();
    for b in asked {
        if !b.supports_all(&shapes) {
            anyhow::bail!(
                "the {} backend cannot trace every agent shape of {}",
                b.name(),
                scenario.path.display()
            );
        }
    }
    Ok(asked.to_vec())
}

/// Runs with a progress bar on stderr when it is a terminal and the run lasts over a second.
fn run_with_progress(scenario: &Scenario, backend: BackendKind) -> anyhow::Result<RunOutcome> {
    let started = Instant::now();
    let mut bar: Option<indicatif::ProgressBar> = None;
    let terminal = std::io::stderr().is_terminal();
    let outcome = run_scenario(scenario, backend, SimOptions::default(), |step| {
        if terminal && bar.is_none() && started.elapsed() > Duration::from_secs(1) {
            let b = indicatif::ProgressBar::new(scenario.steps).with_message(format!(
                "{} on {}",
                scenario.name,
                backend.name()
            ));
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{msg} [{bar:40}] {pos}/{len} steps ({eta})",
                )
                .expect("the template is valid"),
            );
            bar = Some(b);
        }
        if let Some(b) = &bar {
            b.set_position(step);
        }
    })?;
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
        let outcome = run_with_progress(&scenario, kind)?;
        if !args.json {
            println!("{}", summary::run_text(&scenario, &outcome));
        }
        outcomes.push(outcome);
    }
    if let Some(path) = &args.trace {
        // One file: the trace of each backend, one after another (`trace::parse_all`).
        let text: Vec<&str> = outcomes.iter().map(|o| o.trace.as_str()).collect();
        std::fs::write(path, text.join("\n"))
            .with_context(|| format!("writing the trace to {}", path.display()))?;
        eprintln!(
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
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else if let Some(verdict) = &verdict {
        println!("{verdict}");
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
        .map(|&k| run_with_progress(&scenario, k))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let reports = summary::pairs(&scenario, &outcomes);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&summary::compare_json(&scenario, &reports))?
        );
    } else {
        print!("{}", summary::compare_text(&scenario, &reports));
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
) -> anyhow::Result<cspace_sim::plot::Series> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read the baseline", path.display()))?;
    let mut traces = cspace_sim::trace::parse_all(&text)
        .map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))?;
    for t in &traces {
        if t.header.scenario != scenario.name {
            anyhow::bail!(
                "{}:{}:10: this is a trace of scenario {:?}, not of {:?} ({}); compare a scenario with its own traces",
                path.display(),
                t.scenario_line,
                t.header.scenario,
                scenario.name,
                scenario.path.display()
            );
        }
    }
    let trace = if traces.len() == 1 {
        traces.remove(0)
    } else {
        let names: Vec<String> = traces.iter().map(|t| t.header.backend.clone()).collect();
        match kinds {
            [kind] => match traces.iter().position(|t| t.header.backend == kind.name()) {
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
    Ok(cspace_sim::plot::Series {
        label: format!(
            "{} ({})",
            path.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("baseline"),
            trace.header.backend
        ),
        trace,
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
    for &kind in &kinds {
        let outcome = run_with_progress(&scenario, kind)?;
        series.push(cspace_sim::plot::Series {
            label: kind.name().to_string(),
            trace: cspace_sim::trace::parse(&outcome.trace)
                .context("reading back our own trace")?,
        });
    }
    let output = args
        .output
        .unwrap_or_else(|| PathBuf::from(format!("{}.svg", scenario.name)));
    let plot = cspace_sim::plot::Plot {
        world: &scenario.world.world,
        agent_names: &scenario.agent_names,
        runs: &series,
        baseline: baseline.as_ref(),
        tolerance: scenario.tolerance,
    };
    plot.write(&output)?;
    if let Some(base) = &baseline {
        for (s, first) in series.iter().zip(plot.first_divergences()) {
            let off = cspace_sim::plot::positions_off(&s.trace, &base.trace, scenario.tolerance);
            match first {
                Some(d) => eprintln!(
                    "{}: {off} sampled positions off the baseline by more than {}; the first at step {} ({:.3} s), agent {}, {:.3} units",
                    s.label,
                    scenario.tolerance,
                    d.step,
                    d.time,
                    scenario.agent_names[d.agent.0 as usize],
                    d.distance
                ),
                None => eprintln!(
                    "{}: within {} units of the baseline at every sample",
                    s.label, scenario.tolerance
                ),
            }
        }
    }
    eprintln!("wrote {}", output.display());
    Ok(ExitCode::SUCCESS)
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let mut bad = 0;
    for file in &args.files {
        let result = match file.extension().and_then(|e| e.to_str()) {
            Some("map") => {
                world_file::load_world(file).map(|w| format!("{} brushes", w.world.len()))
            }
            Some("toml") => {
                let text = std::fs::read_to_string(file)
                    .with_context(|| format!("{}: cannot read", file.display()))?;
                // A scenario has agents; anything else is read as a world.
                if text.lines().any(|l| {
                    l.trim_start().starts_with("[[agent]]")
                        || l.trim_start().starts_with("[[crowd]]")
                }) {
                    Scenario::parse(file, &text).map(|s| {
                        format!(
                            "scenario {:?}: {} agents, backends {}",
                            s.name,
                            s.agents.len(),
                            s.backends
                                .iter()
                                .map(|b| b.name())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })
                } else {
                    world_file::load_world(file).map(|w| format!("{} brushes", w.world.len()))
                }
            }
            _ => Err(anyhow::anyhow!(
                "{}: expected a .toml scenario or world, or a .map file",
                file.display()
            )),
        };
        match result {
            Ok(what) => println!("ok {}: {what}", file.display()),
            Err(e) => {
                bad += 1;
                eprintln!("error: {e:#}");
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
    use cspace_sim::bench;
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
    let kinds = if args.backends.is_empty() {
        BackendKind::ALL.to_vec()
    } else {
        args.backends.clone()
    };
    // Every run of every crowd and backend, interleaved so that drift hits all alike.
    let mut timings: Vec<Vec<bench::CrowdTiming>> = vec![Vec::new(); crowds.len() * kinds.len()];
    for _ in 0..args.runs {
        for (c, crowd) in crowds.iter().enumerate() {
            for (k, &kind) in kinds.iter().enumerate() {
                timings[c * kinds.len() + k].push(bench::time_crowd(crowd, kind, args.steps)?);
            }
        }
    }
    let mut rows = Vec::new();
    if !args.json {
        println!(
            "| world | backend | agents | steps | runs | agent steps/s (median) | slowest - fastest | traces per agent step | agents tested per trace | end state | backend counters |"
        );
        println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |");
    }
    for (c, crowd) in crowds.iter().enumerate() {
        for (k, &kind) in kinds.iter().enumerate() {
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
                    "world": crowd.name, "backend": kind.name(), "agents": t.agents, "steps": t.steps,
                    "agent_steps_per_second": median,
                    "runs_agent_steps_per_second": rates,
                    "traces_per_agent_step": t.traces_per_agent_step,
                    "agent_candidates_per_trace": t.agent_candidates_per_trace,
                    "backend_counters": t.backend_counters,
                    "end_state": end_state,
                    "runs_end_state": runs.iter().map(|r| format!("{:016x}", r.end_state)).collect::<Vec<_>>(),
                }));
            } else {
                println!(
                    "| {} | {} | {} | {} | {} | {:.0} | {:.0} - {:.0} | {:.2} | {:.2} | {} | {} |",
                    crowd.name,
                    kind.name(),
                    t.agents,
                    t.steps,
                    runs.len(),
                    median,
                    rates[0],
                    rates[rates.len() - 1],
                    t.traces_per_agent_step,
                    t.agent_candidates_per_trace,
                    end_state.as_deref().unwrap_or("differs between runs"),
                    t.backend_counters.as_deref().unwrap_or("")
                );
            }
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    }
    Ok(ExitCode::SUCCESS)
}

fn map(args: MapArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read(&args.file)
        .with_context(|| format!("{}: cannot read", args.file.display()))?;
    let name = args.file.display().to_string();
    let map = cspace_mapfile::load_world(&text, &name, &cspace_mapfile::BuildOptions::default())?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&cspace_sim::map_report::json(&map))?
        );
    } else {
        print!("{}", cspace_sim::map_report::text(&map));
    }
    Ok(ExitCode::SUCCESS)
}

/// The backend `sim trace` asked for, with its tree options applied.
fn trace_backend(
    args: &TraceArgs,
    world: &std::sync::Arc<cspace_geom::World>,
) -> anyhow::Result<Box<dyn cspace_geom::Collider>> {
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
        let onion = cspace_onion::OnionCollider::new(tree, world.clone())
            .with_context(|| format!("{} and {}", path.display(), args.world.display()))?;
        return Ok(Box::new(onion));
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
        return Ok(Box::new(cspace_sim::backend::melax(world, bevel)?));
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
    let compiled = cspace_onion::compile(&loaded.world, &poses, &options)
        .context("compiling the onion tree")?;
    if let Some(path) = &args.output {
        std::fs::write(path, compiled.tree.to_bytes())
            .with_context(|| format!("writing the tree to {}", path.display()))?;
    }
    let stats = &compiled.stats;
    if args.json {
        let json = cspace_sim::tree_report::json(stats, &poses);
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        print!("{}", cspace_sim::tree_report::text(stats, &poses));
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
    let mut collider = trace_backend(&args, &loaded.world)?;
    let shape = collider
        .prepare(&args.shape)
        .context("preparing the shape")?
        .with_skin(args.skin);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    segments::trace_lines(
        collider.as_mut(),
        &shape,
        BufReader::new(stdin.lock()),
        "stdin",
        BufWriter::new(stdout.lock()),
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
