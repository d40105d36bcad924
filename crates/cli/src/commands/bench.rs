//! `sim bench`: crowds of walking agents per backend, agent steps per second.

use std::path::PathBuf;
use std::process::ExitCode;

use cspace_scenario::world_file;
use cspace_sim::BackendKind;

use crate::backend_arg;
use crate::progress::progress_bar;

/// `--agents`: a count within 1..=[`cspace_scenario::scenario::MAX_AGENTS`], refused before
/// anything is allocated for it.
fn agents_arg(text: &str) -> Result<usize, String> {
    let max = cspace_scenario::scenario::MAX_AGENTS;
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} agents; a crowd holds 1 to {max}")),
        Err(e) => Err(format!("{text:?} is not a count of agents: {e}")),
    }
}

#[derive(Debug, clap::Args)]
pub(crate) struct BenchArgs {
    /// A .map world to spread the crowd around its spawn points (besides the open world).
    #[arg(long)]
    pub(crate) map: Option<PathBuf>,
    /// Agents in each crowd (at most a million, as in a scenario).
    #[arg(long, default_value_t = 1000, value_parser = agents_arg)]
    pub(crate) agents: usize,
    /// Steps of 1/60 s to time.
    #[arg(long, default_value_t = 120)]
    pub(crate) steps: u64,
    /// Times to run each crowd on each backend, interleaved (every crowd and backend once, then
    /// again): the median is reported, with the slowest and fastest runs, since a shared machine
    /// moves single runs by tens of percent.
    #[arg(long, default_value_t = 1)]
    pub(crate) runs: usize,
    /// The backends (default: every one).
    #[arg(long, value_parser = backend_arg::parser(), value_delimiter = ',')]
    pub(crate) backends: Vec<BackendKind>,
    /// The agent grid's cell size in units (default: the movement constants', 64).
    #[arg(long)]
    pub(crate) grid_cell: Option<f64>,
    /// Thread counts to step on (a rayon pool each, runs interleaved): `--threads 1,2` gives a
    /// row per count (default: the global pool, every core or RAYON_NUM_THREADS).
    #[arg(long, value_delimiter = ',')]
    pub(crate) threads: Vec<usize>,
    /// Also run the `--map` crowd in the living world (issue 32: doors, lifts and trains moving
    /// and pushing, triggers acting; the same agents and scripts), and compare it with the frozen
    /// one: agent steps per second of each, and the movers' compile time beside the world's.
    #[arg(long, requires = "map")]
    pub(crate) living: bool,
    /// Print the results as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    use cspace_scenario::bench;
    if args.agents == 0 || args.steps == 0 || args.runs == 0 {
        anyhow::bail!("--agents, --steps and --runs must be positive");
    }
    let seconds = (args.steps + 1) as f64 / 60.0;
    let mut crowds = vec![bench::open_world(args.agents, seconds)];
    if let Some(path) = &args.map {
        let loaded = world_file::load_world(path)?;
        let name = cspace_mapfile::normalised(path).display().to_string();
        let frozen = bench::map_world(&name, loaded.world, &loaded.spawns, args.agents, seconds)?;
        if args.living {
            let living = world_file::load_living_map(path)?;
            let entities = living.living.expect("a living map load keeps its entities");
            let crowd = frozen.living(&format!("{name} (living)"), living.world, entities);
            crowds.push(frozen);
            crowds.push(crowd);
        } else {
            crowds.push(frozen);
        }
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
                    "compile_seconds": median_of(runs.iter().filter_map(|r| r.compile_seconds)),
                    "movers_compile_seconds": crowd.living.as_ref().map(|_| median_of(runs.iter().filter_map(|r| r.movers_compile_seconds))),
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
    } else if args.living {
        // The living crowd follows its frozen one.
        let living = crowds.len() - 1;
        outln!("");
        outln!(
            "| backend | frozen agent steps/s | living agent steps/s | living / frozen | world compile s | movers' compile s | movers / world |"
        );
        outln!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (k, &(kind, _)) in kinds.iter().enumerate() {
            let frozen = &timings[(living - 1) * kinds.len() + k];
            let alive = &timings[living * kinds.len() + k];
            let rate = |runs: &[bench::CrowdTiming]| {
                median_of(runs.iter().map(|t| t.agent_steps_per_second))
            };
            let world = median_of(alive.iter().filter_map(|t| t.compile_seconds));
            let movers = median_of(alive.iter().filter_map(|t| t.movers_compile_seconds));
            // The exact reference (and the k-UDOP cache over it) compiles nothing: no share.
            let compiles = !matches!(kind, BackendKind::Exact | BackendKind::UdopExact);
            outln!(
                "| {} | {:.0} | {:.0} | {:.3} | {:.3} | {:.3} | {} |",
                kind.name(),
                rate(frozen),
                rate(alive),
                rate(alive) / rate(frozen),
                world,
                movers,
                if compiles {
                    format!("{:.1} %", 100.0 * movers / world)
                } else {
                    "-".to_string()
                }
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The median of `values` (NaN when there is none).
fn median_of(values: impl Iterator<Item = f64>) -> f64 {
    let mut sorted: Vec<f64> = values.collect();
    sorted.sort_by(f64::total_cmp);
    cspace_scenario::bench::median_of_sorted(&sorted)
}
