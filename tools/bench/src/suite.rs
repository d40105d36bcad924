//! The suite: builds the worlds, runs every query on every backend and peer, interleaved, and
//! collects the figures into a [`Report`].

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cspace_geom::generate::{RandomBoxes, free_segments};
use cspace_geom::{Aabb, DVec3, QueryCounters, World};
use cspace_scenario::bench::{self as crowds, Crowd, CrowdTiming};
use cspace_sim::backend::BackendKind;

use crate::agreement::Agreement;
use crate::machine::Machine;
use crate::ours::{self, Memory, OurTracer};
use crate::peers::parry::ParryWorld;
use crate::peers::rapier::{ControllerSetup, RapierCrowd};
use crate::query::Query;
use crate::timing::{self, Timing, Tracer};

/// The corpus maps of the issue, read from `CSPACE_MAPS`.
pub const CORPUS: [&str; 4] = [
    "quake_e1m1.map",
    "quake_e3m5.map",
    "ericw_qbsp_many_sided_face.map",
    "unvanquished_chasm.map",
];

/// The corpus map the agent-step crowd also walks.
pub const CROWD_MAP: &str = "quake_e1m1.map";

/// What to run and how long.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// `full`, `quick` or `tiny`, for the report.
    pub mode: &'static str,
    /// The generated world of the main tables.
    pub base: RandomBoxes,
    /// Box counts of the scaling series (the base count reuses the main tables).
    pub scaling: Vec<usize>,
    /// Segments per query and world.
    pub segments: usize,
    /// Segment lengths, units.
    pub length: (f64, f64),
    /// Timed passes (the median is quoted).
    pub passes: usize,
    /// Segments per batch; the order of the participants rotates every batch.
    pub batch: usize,
    /// The corpus directory (`CSPACE_MAPS`), when set.
    pub maps: Option<PathBuf>,
    /// Agents in the crowds.
    pub crowd_agents: usize,
    /// Steps per timed crowd run.
    pub crowd_steps: u64,
    /// Timed crowd passes.
    pub crowd_passes: usize,
    /// Crowd sizes of the thread-scaling runs (one simulation on 1, 2, ... threads).
    pub thread_agents: Vec<usize>,
    /// Steps per thread-scaling run.
    pub thread_steps: u64,
    /// Thread-scaling passes (the median is quoted).
    pub thread_passes: usize,
}

impl Config {
    /// The full suite (a few minutes on two cores).
    pub fn full(maps: Option<PathBuf>) -> Config {
        Config {
            mode: "full",
            base: RandomBoxes::BENCHMARK,
            scaling: vec![200, 2000, 20_000],
            segments: 8000,
            length: (10.0, 50.0),
            passes: 15,
            batch: 64,
            maps,
            crowd_agents: 64,
            crowd_steps: 600,
            crowd_passes: 7,
            thread_agents: vec![1000, 10_000],
            thread_steps: 60,
            thread_passes: 5,
        }
    }

    /// A smoke test of every part (seconds in release).
    pub fn quick(maps: Option<PathBuf>) -> Config {
        Config {
            mode: "quick",
            scaling: vec![200, 2000],
            segments: 300,
            passes: 3,
            crowd_agents: 16,
            crowd_steps: 20,
            crowd_passes: 3,
            thread_agents: vec![200],
            thread_steps: 10,
            thread_passes: 1,
            ..Config::full(maps)
        }
    }

    /// The smallest run that still exercises everything (the crate's test; no corpus).
    pub fn tiny() -> Config {
        Config {
            mode: "tiny",
            base: RandomBoxes::BENCHMARK.scaled(60),
            scaling: vec![30, 60],
            segments: 24,
            passes: 2,
            batch: 8,
            maps: None,
            crowd_agents: 3,
            crowd_steps: 3,
            crowd_passes: 2,
            thread_agents: vec![12],
            thread_steps: 2,
            thread_passes: 1,
            ..Config::full(None)
        }
    }
}

/// One row of a trace table.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceRow {
    /// The query.
    pub query: Query,
    /// The backend or peer.
    pub backend: String,
    /// Whether this is the peer's row.
    pub is_peer: bool,
    /// The figures, or why there are none.
    pub figures: Result<TraceFigures, String>,
}

/// What one backend did on one query.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceFigures {
    /// Nanoseconds per trace.
    pub timing: Timing,
    /// The peer's median nanoseconds per trace on the same segments.
    pub peer_ns: f64,
    /// Segments that hit something.
    pub hits: usize,
    /// Agreement with the exact reference (`None` for the reference itself).
    pub vs_exact: Option<Agreement>,
    /// Agreement with parry (`None` for parry itself).
    pub vs_parry: Option<Agreement>,
    /// Nodes visited per trace, when the backend counts them.
    pub nodes_per_trace: Option<f64>,
    /// The share of the traces a free-space index certified as misses without a walk, in
    /// `[0, 1]`, when the backend has one (the onion's, Melax's for spheres and cylinders;
    /// `QueryCounters::certified`).
    pub certified: Option<f64>,
    /// The share of the traces a cache handed to its backend with the only brushes they can
    /// meet (`QueryCounters::narrowed`: `udop+exact`), when it did.
    pub narrowed: Option<f64>,
}

impl TraceFigures {
    /// How many times faster than the peer (peer time over ours).
    pub fn speedup(&self) -> f64 {
        self.peer_ns / self.timing.median_ns
    }
}

/// The trace tables of one world.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldTable {
    /// The world's name.
    pub name: String,
    /// Its brushes.
    pub brushes: usize,
    /// Generated worlds: the box count (for the scaling series).
    pub boxes: Option<usize>,
    /// Brushes parry could not take (left out of its compound).
    pub parry_skipped: usize,
    /// Segments per query.
    pub segments: usize,
    /// The rows, query by query.
    pub rows: Vec<TraceRow>,
}

/// One structure built for a world.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildRow {
    /// The world.
    pub world: String,
    /// The backend or peer.
    pub backend: String,
    /// What was built.
    pub structure: String,
    /// How long it took.
    pub build: Duration,
    /// What it occupies.
    pub memory: Option<Memory>,
}

/// One row of an agent-step table.
#[derive(Debug, Clone, PartialEq)]
pub struct CrowdRow {
    /// The backend (ours) or the controller set-up (rapier).
    pub backend: String,
    /// Whether this is rapier.
    pub is_peer: bool,
    /// The figures, or why there are none.
    pub figures: Result<CrowdFigures, String>,
}

/// What one backend did on the crowd.
#[derive(Debug, Clone, PartialEq)]
pub struct CrowdFigures {
    /// Nanoseconds per agent step.
    pub timing: Timing,
    /// rapier's (the Quake set-up's) median nanoseconds per agent step in the same passes.
    pub peer_ns: f64,
    /// Backend traces per agent step (ours only).
    pub traces_per_agent_step: Option<f64>,
    /// The backend's counters after the last run.
    pub counters: Option<String>,
    /// Mean distance of the agents' positions after [`AGREEMENT_STEPS`] steps from the exact
    /// backend's, units.
    pub vs_exact: Option<f64>,
    /// Mean distance of the agents' positions after [`AGREEMENT_STEPS`] steps from rapier's
    /// (Quake set-up), units.
    pub vs_rapier: Option<f64>,
}

impl CrowdFigures {
    /// How many times faster than rapier's controller.
    pub fn speedup(&self) -> f64 {
        self.peer_ns / self.timing.median_ns
    }
}

/// The agent-step table of one crowd.
#[derive(Debug, Clone, PartialEq)]
pub struct CrowdTable {
    /// The crowd's world.
    pub name: String,
    /// Agents.
    pub agents: usize,
    /// Steps per timed run.
    pub steps: u64,
    /// The rows.
    pub rows: Vec<CrowdRow>,
}

/// Everything the suite measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// What was run.
    pub config: Config,
    /// Where.
    pub machine: Machine,
    /// The trace tables: the benchmark world, the rest of the scaling series, the corpus.
    pub worlds: Vec<WorldTable>,
    /// Worlds left out, by name, with the reason.
    pub skipped: Vec<String>,
    /// Build times and memory.
    pub builds: Vec<BuildRow>,
    /// The agent-step tables.
    pub crowds: Vec<CrowdTable>,
    /// One simulation on 1, 2, ... threads.
    pub threads: Vec<ThreadRow>,
    /// Blow's filter table of the open-world crowd (exact backend, filters timed).
    pub filters: Option<String>,
    /// Wall time of the whole suite.
    pub elapsed: Duration,
    /// The load averages when the suite ended.
    pub load_after: String,
}

impl Report {
    /// The trace row of `backend` for `query` on the world named `world`, if it has figures.
    pub fn figures(&self, world: &str, query: Query, backend: &str) -> Option<&TraceFigures> {
        self.worlds
            .iter()
            .find(|w| w.name == world)?
            .rows
            .iter()
            .find(|r| r.query == query && r.backend == backend)?
            .figures
            .as_ref()
            .ok()
    }
}

/// The name of a generated world of `count` boxes.
pub fn boxes_name(count: usize) -> String {
    format!("random boxes {}", crate::format::thousands(count))
}

/// Runs the suite, logging progress to stderr.
pub fn run(config: &Config) -> anyhow::Result<Report> {
    let clock = Instant::now();
    let mut report = Report {
        config: config.clone(),
        machine: Machine::here(),
        worlds: Vec::new(),
        skipped: Vec::new(),
        builds: Vec::new(),
        crowds: Vec::new(),
        threads: Vec::new(),
        filters: None,
        elapsed: Duration::ZERO,
        load_after: String::new(),
    };

    // The generated worlds: the benchmark world with every query, the rest of the series with
    // rays and boxes.
    let mut counts = config.scaling.clone();
    counts.retain(|&n| n != config.base.count);
    counts.insert(0, config.base.count);
    for count in counts {
        let generator = config.base.scaled(count);
        let world = Arc::new(generator.world());
        let queries: &[Query] = if count == config.base.count {
            &Query::ALL
        } else {
            &[Query::Ray, Query::Box]
        };
        let region = world.bounds();
        let (mut table, builds) =
            trace_world(&boxes_name(count), &world, &region, queries, config)?;
        table.boxes = Some(count);
        report.worlds.push(table);
        report.builds.extend(builds);
    }

    // The corpus.
    let mut e1m1 = None;
    match &config.maps {
        None => {
            for name in CORPUS {
                report
                    .skipped
                    .push(format!("{name}: skipped, CSPACE_MAPS is not set"));
            }
        }
        Some(dir) => {
            for name in CORPUS {
                let path = dir.join(name);
                let loaded = cspace_scenario::world_file::load_world(&path)?;
                let region = spawn_region(&loaded.world, &loaded.spawns);
                let (table, builds) =
                    trace_world(name, &loaded.world, &region, &Query::ALL, config)?;
                report.worlds.push(table);
                report.builds.extend(builds);
                if name == CROWD_MAP {
                    e1m1 = Some(loaded);
                }
            }
        }
    }

    // One full agent step: our simulator per backend against rapier's controller.
    let seconds = (config.crowd_steps + 2) as f64 / 60.0;
    let mut crowd_list = vec![crowds::open_world(config.crowd_agents, seconds)];
    let thread_map = e1m1
        .as_ref()
        .map(|l| (l.world.clone(), l.spawns.clone(), CROWD_MAP.to_string()));
    if let Some(loaded) = e1m1 {
        crowd_list.push(crowds::map_world(
            CROWD_MAP,
            loaded.world,
            &loaded.spawns,
            config.crowd_agents,
            seconds,
        )?);
    }
    for crowd in &crowd_list {
        report.crowds.push(time_agent_steps(crowd, config)?);
    }
    report.threads = time_threads(config, thread_map)?;
    let filters =
        crowds::time_crowd_with(&crowd_list[0], BackendKind::Exact, config.crowd_steps, true)?;
    report.filters = Some(filters.filter_stats.to_string());
    report.elapsed = clock.elapsed();
    report.load_after = crate::machine::load_average();
    Ok(report)
}

/// One crowd, backend and thread count of the thread-scaling runs.
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadRow {
    /// The crowd's world.
    pub world: String,
    /// The backend.
    pub backend: String,
    /// Agents placed.
    pub agents: usize,
    /// Threads of the pool the simulation stepped on.
    pub threads: usize,
    /// Agent steps per second, one per pass.
    pub rates: Vec<f64>,
    /// The share of the step spent outside the groups' moves (the median pass's).
    pub outside_share: f64,
    /// Interaction groups per step.
    pub groups_per_step: f64,
    /// The end-state fingerprint of every pass (the same on every thread count).
    pub end_states: Vec<u64>,
}

impl ThreadRow {
    /// The median rate.
    pub fn median(&self) -> f64 {
        let mut rates = self.rates.clone();
        rates.sort_by(f64::total_cmp);
        crowds::median_of_sorted(&rates)
    }
}

/// One simulation on 1, 2, ... threads (up to the machine's cores): the open world and, when
/// given, the map's world, at each crowd size, on the onion and the exact reference; passes
/// interleave every crowd, backend and thread count.
fn time_threads(
    config: &Config,
    map: Option<(Arc<World>, Vec<DVec3>, String)>,
) -> anyhow::Result<Vec<ThreadRow>> {
    let cores = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(2);
    let counts: Vec<usize> = (1..=cores).collect();
    let pools = counts
        .iter()
        .map(|&n| rayon::ThreadPoolBuilder::new().num_threads(n).build())
        .collect::<Result<Vec<_>, _>>()?;
    let seconds = (config.thread_steps + 2) as f64 / 60.0;
    let mut crowd_list = Vec::new();
    for &agents in &config.thread_agents {
        crowd_list.push(crowds::open_world(agents, seconds));
        if let Some((world, spawns, name)) = &map {
            crowd_list.push(crowds::map_world(
                name,
                world.clone(),
                spawns,
                agents,
                seconds,
            )?);
        }
    }
    let backends = [BackendKind::Onion, BackendKind::Exact];
    let mut rows: Vec<ThreadRow> = Vec::new();
    for _ in 0..config.thread_passes {
        for crowd in &crowd_list {
            for backend in backends {
                for (&threads, pool) in counts.iter().zip(&pools) {
                    eprintln!(
                        "  threads: {} agents in {} on {} with {threads}",
                        crowd.agents.len(),
                        crowd.name,
                        backend.name()
                    );
                    let t =
                        pool.install(|| crowds::time_crowd(crowd, backend, config.thread_steps))?;
                    let key = |r: &ThreadRow| {
                        r.world == crowd.name
                            && r.backend == backend.name()
                            && r.threads == threads
                            && r.agents == crowd.agents.len()
                    };
                    match rows.iter_mut().find(|r| key(r)) {
                        Some(row) => {
                            row.rates.push(t.agent_steps_per_second);
                            row.end_states.push(t.end_state);
                        }
                        None => rows.push(ThreadRow {
                            world: crowd.name.clone(),
                            backend: backend.name().to_string(),
                            agents: crowd.agents.len(),
                            threads,
                            rates: vec![t.agent_steps_per_second],
                            outside_share: t.outside_groups_share,
                            groups_per_step: t.groups_per_step,
                            end_states: vec![t.end_state],
                        }),
                    }
                }
            }
        }
    }
    Ok(rows)
}

/// The box around the spawn points grown by 512 units and kept inside the world (the whole
/// world when it has no spawn point): where the playable space is.
pub fn spawn_region(world: &World, spawns: &[DVec3]) -> Aabb {
    let bounds = world.bounds();
    if spawns.is_empty() {
        return bounds;
    }
    let around = Aabb::from_points(spawns.iter().copied()).loosened(512.0);
    Aabb::new(around.min.max(bounds.min), around.max.min(bounds.max))
}

/// Every query on every backend and on parry, for one world.
fn trace_world(
    name: &str,
    world: &Arc<World>,
    region: &Aabb,
    queries: &[Query],
    config: &Config,
) -> anyhow::Result<(WorldTable, Vec<BuildRow>)> {
    eprintln!("{name}: {} brushes", world.len());
    let parry = ParryWorld::new(world);
    let mut builds = vec![BuildRow {
        world: name.to_string(),
        backend: "parry".to_string(),
        structure: "compound of convex polyhedra + BVH".to_string(),
        build: parry.build,
        memory: Some(parry.memory),
    }];
    let mut table = WorldTable {
        name: name.to_string(),
        brushes: world.len(),
        boxes: None,
        parry_skipped: parry.skipped,
        segments: config.segments,
        rows: Vec::new(),
    };
    for (qi, &query) in queries.iter().enumerate() {
        let shape = query.shape();
        let segments = free_segments(
            world,
            &shape,
            region,
            config.segments,
            config.length,
            8 + qi as u64,
        );
        let mut tracers: Vec<(&'static str, OurTracer)> = Vec::new();
        let mut absent: Vec<TraceRow> = Vec::new();
        for backend in ours::backends() {
            if !backend.queries.contains(&query) {
                continue;
            }
            eprintln!("  building {} for {}", backend.label, query.name());
            let built = (backend.build)(world, &shape).and_then(|b| {
                let tracer = OurTracer::new((b.factory)(), &shape)?;
                Ok((b.build, b.memory, b.structure, tracer))
            });
            match built {
                Ok((build, memory, structure, tracer)) => {
                    // The exact reference builds nothing per shape: one row per world.
                    if backend.label != ours::EXACT || qi == 0 {
                        builds.push(BuildRow {
                            world: name.to_string(),
                            backend: backend.label.to_string(),
                            structure: if backend.label == ours::EXACT {
                                structure
                            } else {
                                format!("{structure} ({})", query.name())
                            },
                            build,
                            memory,
                        });
                    }
                    tracers.push((backend.label, tracer));
                }
                Err(why) => absent.push(TraceRow {
                    query,
                    backend: backend.label.to_string(),
                    is_peer: false,
                    figures: Err(why.to_string()),
                }),
            }
        }
        let mut caster = parry.caster(&shape);
        // Counted from here (a fresh tracer has counted nothing yet: only the difference says
        // whether the backend counts nodes).
        let nodes_before: Vec<u64> = tracers
            .iter()
            .map(|(_, t)| t.counters().nodes_visited)
            .collect();
        let index_before: Vec<QueryCounters> = tracers.iter().map(|(_, t)| t.counters()).collect();
        let (answers, timings) = {
            let mut participants: Vec<&mut dyn Tracer> = tracers
                .iter_mut()
                .map(|(_, t)| t as &mut dyn Tracer)
                .collect();
            participants.push(&mut caster);
            let answers = timing::record(&mut participants, &segments);
            let timings =
                timing::interleaved(&mut participants, &segments, config.passes, config.batch);
            (answers, timings)
        };
        let nodes_after: Vec<u64> = tracers
            .iter()
            .map(|(_, t)| t.counters().nodes_visited)
            .collect();
        let peer = tracers.len();
        let peer_ns = timings[peer].median_ns;
        let exact_answers = &answers[0];
        let hits = |a: &[Option<f64>]| a.iter().filter(|x| x.is_some()).count();
        for (i, (label, _)) in tracers.iter().enumerate() {
            // Counters accumulate over the recorded pass and every timed pass.
            let traces = (segments.len() * (1 + config.passes.max(1))) as f64;
            let visited = nodes_after[i] - nodes_before[i];
            let nodes_per_trace = (visited > 0).then(|| visited as f64 / traces);
            // What the index did in the recorded and timed passes.
            let (after, before) = (tracers[i].1.counters(), index_before[i]);
            let index = QueryCounters {
                certified: after.certified - before.certified,
                fall_throughs: after.fall_throughs - before.fall_throughs,
                narrowed: after.narrowed - before.narrowed,
                ..QueryCounters::default()
            };
            table.rows.push(TraceRow {
                query,
                backend: label.to_string(),
                is_peer: false,
                figures: Ok(TraceFigures {
                    timing: timings[i],
                    peer_ns,
                    hits: hits(&answers[i]),
                    vs_exact: (*label != ours::EXACT)
                        .then(|| Agreement::between(&answers[i], exact_answers, &segments)),
                    vs_parry: Some(Agreement::between(&answers[i], &answers[peer], &segments)),
                    nodes_per_trace,
                    certified: index.certified_share(),
                    narrowed: index.narrowed_share(),
                }),
            });
        }
        table.rows.extend(absent);
        table.rows.push(TraceRow {
            query,
            backend: query.peer_name().to_string(),
            is_peer: true,
            figures: Ok(TraceFigures {
                timing: timings[peer],
                peer_ns,
                hits: hits(&answers[peer]),
                vs_exact: Some(Agreement::between(&answers[peer], exact_answers, &segments)),
                vs_parry: None,
                nodes_per_trace: None,
                certified: None,
                narrowed: None,
            }),
        });
        eprintln!(
            "  {}: exact {:.0} ns, parry {:.0} ns",
            query.name(),
            timings[0].median_ns,
            peer_ns
        );
    }
    Ok((table, builds))
}

/// Steps after which the final positions of the agent-step table are compared (half a second:
/// long enough for every agent to walk and bump, short enough for the runs not to drift apart
/// through agent-agent collisions, which rapier's loop does not have).
pub const AGREEMENT_STEPS: u64 = 30;

/// Our simulator on every backend against rapier's controller, on one crowd.
fn time_agent_steps(crowd: &Crowd, config: &Config) -> anyhow::Result<CrowdTable> {
    eprintln!("crowd on {}: {} agents", crowd.name, crowd.agents.len());
    // Every backend of the simulator's table (`cspace_sim::BACKENDS`), in its order.
    let kinds = BackendKind::ALL;
    let parry = ParryWorld::new(&crowd.world);
    let setups = [ControllerSetup::Quake, ControllerSetup::Defaults];
    let rapier: Vec<RapierCrowd> = setups
        .iter()
        .map(|&s| RapierCrowd::new(parry.shape.clone(), &crowd.agents, s))
        .collect();
    let participants = kinds.len() + rapier.len();
    let mut last: Vec<Option<CrowdTiming>> = (0..kinds.len()).map(|_| None).collect();
    let timings = timing::interleaved_runs(participants, config.crowd_passes, |i, _| {
        if i < kinds.len() {
            let t = crowds::time_crowd(crowd, kinds[i], config.crowd_steps)?;
            let ns = 1e9 / t.agent_steps_per_second;
            last[i] = Some(t);
            Ok::<f64, anyhow::Error>(ns)
        } else {
            Ok(rapier[i - kinds.len()]
                .run(config.crowd_steps)
                .ns_per_agent_step)
        }
    })?;
    let steps = AGREEMENT_STEPS.min(config.crowd_steps);
    let mut positions = Vec::with_capacity(participants);
    for &kind in &kinds {
        positions.push(crowds::time_crowd(crowd, kind, steps)?.final_positions);
    }
    for r in &rapier {
        positions.push(r.run(steps).final_positions);
    }
    let exact = kinds.iter().position(|&k| k == BackendKind::Exact);
    let rapier_quake = kinds.len();
    let mean_distance = |a: &[DVec3], b: &[DVec3]| {
        a.iter().zip(b).map(|(p, q)| p.distance(*q)).sum::<f64>() / a.len().max(1) as f64
    };
    let peer_ns = timings[rapier_quake].median_ns;
    let mut rows = Vec::new();
    for i in 0..participants {
        let (backend, is_peer, traces, counters) = match last.get(i) {
            Some(t) => {
                let t = t.as_ref().expect("every backend ran");
                (
                    kinds[i].name().to_string(),
                    false,
                    Some(t.traces_per_agent_step),
                    Some(t.backend_counters.to_string()),
                )
            }
            None => (
                setups[i - kinds.len()].label().to_string(),
                true,
                None,
                None,
            ),
        };
        rows.push(CrowdRow {
            backend,
            is_peer,
            figures: Ok(CrowdFigures {
                timing: timings[i],
                peer_ns,
                traces_per_agent_step: traces,
                counters,
                vs_exact: exact
                    .filter(|&e| e != i)
                    .map(|e| mean_distance(&positions[i], &positions[e])),
                vs_rapier: (i != rapier_quake)
                    .then(|| mean_distance(&positions[i], &positions[rapier_quake])),
            }),
        });
    }
    Ok(CrowdTable {
        name: crowd.name.clone(),
        agents: crowd.agents.len(),
        steps: config.crowd_steps,
        rows,
    })
}
