//! `sim bench`: crowds of walking agents, timed per backend (agent steps per second).
//!
//! Two worlds: an open one (a 4,096-unit floor with scattered pillars) and a `.map` world with
//! the agents spread around its spawn points. Every agent walks at walk speed and turns to a new
//! random heading every 0.5 to 1.5 s; the scripts come from a fixed seed, so every backend runs
//! the same crowd.

use std::sync::Arc;
use std::time::Instant;

use cspace_contact::filter::Filter;
use cspace_contact::{FilterStats, Slot};
use cspace_geom::generate::{Pillars, Rng};
use cspace_geom::{Aabb, Collider, DVec3, ExactCollider, QueryCounters, Shape, WithContext, World};

use crate::error::Error;
use cspace_sim::{
    Action, AgentSpec, BackendKind, MoveParams, Recording, ScriptEvent, Scripted, ScriptedAgent,
    SimConfig,
};

/// The Quake player box.
pub fn player() -> Shape {
    Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 32.0),
    )
    .expect("a valid box")
}

/// A crowd: a world and its agents.
#[derive(Debug, Clone)]
pub struct Crowd {
    /// A name for reports.
    pub name: String,
    /// The world.
    pub world: Arc<World>,
    /// The agents and their scripts.
    pub agents: Vec<ScriptedAgent>,
    /// The movement constants of the run (Quake's by default; `sim bench --grid-cell` changes
    /// the agent grid).
    pub params: MoveParams,
    /// The map's living entities when the crowd runs in a living world (`sim bench --living`):
    /// `world` is then the static world without the movers, which get structures of their own.
    pub living: Option<Arc<cspace_entities::Entities>>,
}

impl Crowd {
    /// The same crowd (the same agents and scripts) in the living version of its world: `world`
    /// without the movers' brushes and `entities` (issue 32: movers moving and pushing, triggers
    /// acting), named `name`.
    pub fn living(
        &self,
        name: &str,
        world: Arc<World>,
        entities: Arc<cspace_entities::Entities>,
    ) -> Crowd {
        Crowd {
            name: name.to_string(),
            world,
            agents: self.agents.clone(),
            params: self.params,
            living: Some(entities),
        }
    }

    /// The crowd's simulation on `collider`, in steps of 1/60 s, settled: `config` with the
    /// crowd's constants and time step.
    pub fn sim(&self, collider: Arc<dyn Collider>, config: SimConfig) -> Result<Scripted, Error> {
        let config = SimConfig {
            params: self.params,
            dt: 1.0 / 60.0,
            ..config
        };
        Ok(Scripted::new(collider, config, &self.agents)?)
    }
}

/// The bench's walk for `seconds`: a random heading and speed, turned at random intervals (the
/// crowds of `sim bench` and the soak tests).
pub fn random_walk(rng: &mut Rng, seconds: f64) -> Vec<ScriptEvent> {
    let mut script = Vec::new();
    let mut at = 0.0;
    while at < seconds {
        let angle = rng.range(0.0, std::f64::consts::TAU);
        script.push(ScriptEvent {
            at,
            action: Action::Move {
                direction: DVec3::new(angle.cos(), angle.sin(), 0.0),
                speed: 320.0,
            },
        });
        at += rng.range(0.5, 1.5);
    }
    script
}

/// Agents placed at free spots near `anchors` (within `spread` units horizontally, at the
/// anchor's height), each with a random walk of `seconds`; agent `k` takes `kinds[k % len]` (a
/// standing shape and maybe a crouching one). A spot is free when the exact reference finds the
/// standing shape out of solid and its box keeps a unit from every agent placed before.
pub fn place(
    world: &Arc<World>,
    anchors: &[DVec3],
    kinds: &[(Shape, Option<Shape>)],
    count: usize,
    spread: f64,
    seconds: f64,
    seed: u64,
) -> Vec<ScriptedAgent> {
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let prepared: Vec<_> = kinds
        .iter()
        .map(|(standing, _)| {
            exact
                .prepare(standing)
                .expect("the exact backend takes every agent shape")
        })
        .collect();
    let mut rng = Rng::new(seed);
    // The boxes placed so far, and a grid of them (ten thousand agents place in moments).
    let mut taken: Vec<Aabb> = Vec::new();
    let mut grid = cspace_contact::filter::Grid::new(64.0);
    let mut near = Vec::new();
    let mut agents = Vec::with_capacity(count);
    let mut attempts = 0;
    while agents.len() < count && attempts < 200 * count {
        attempts += 1;
        let anchor = anchors[attempts % anchors.len()];
        let at = anchor + DVec3::new(rng.range(-spread, spread), rng.range(-spread, spread), 0.0);
        let kind = agents.len() % kinds.len();
        let (standing, crouching) = &kinds[kind];
        // Half a unit around each box: placed agents keep a unit apart.
        let bounds = standing.bounds().translated(at).loosened(0.5);
        near.clear();
        grid.query(&bounds, &mut near);
        if exact.is_solid(&prepared[kind], at)
            || near
                .iter()
                .any(|id| taken[id.0 as usize].intersects(&bounds))
        {
            continue;
        }
        grid.insert(Slot(taken.len() as u32), &bounds);
        taken.push(bounds);
        agents.push(ScriptedAgent {
            spec: AgentSpec {
                standing: standing.clone(),
                crouching: crouching.clone(),
                start: at,
                velocity: DVec3::ZERO,
                start_crouched: false,
            },
            script: random_walk(&mut rng, seconds).into(),
        });
    }
    agents
}

/// The open world: a 4,096-unit floor with 200 pillars, and `count` agents on it. Beyond a
/// thousand agents the floor grows as the square root of their number, and the pillars with its
/// area, so that larger crowds keep the density of a thousand (10,000 agents: 12,953 units, 2,000
/// pillars).
pub fn open_world(count: usize, seconds: f64) -> Crowd {
    let scale = (count as f64 / 1000.0).sqrt().max(1.0);
    let spread = 1900.0 * scale;
    let pillars = Pillars {
        count: (200.0 * scale * scale).round() as usize,
        half_side: 2048.0 * scale,
        seed: 99,
    };
    let world = Arc::new(pillars.world());
    let agents = place(
        &world,
        &[DVec3::new(0.0, 0.0, 24.5)],
        &[(player(), None)],
        count,
        spread,
        seconds,
        7,
    );
    Crowd {
        name: "open world".to_string(),
        world,
        agents,
        params: MoveParams::default(),
        living: None,
    }
}

/// A `.map` world with `count` agents spread around its spawn points (within 384 units for up to
/// a thousand agents, wider as the square root of their number beyond).
pub fn map_world(
    name: &str,
    world: Arc<World>,
    spawns: &[DVec3],
    count: usize,
    seconds: f64,
) -> Result<Crowd, Error> {
    if spawns.is_empty() {
        return Err(Error::NoSpawnPoints {
            world: name.to_string(),
        });
    }
    // 384 units around the spawn points hold a thousand players; larger crowds spread wider, as
    // the square root of their number (some of them land outside a sealed map and fall out).
    let spread = 384.0 * (count as f64 / 1000.0).sqrt().max(1.0);
    let agents = place(
        &world,
        spawns,
        &[(player(), None)],
        count,
        spread,
        seconds,
        11,
    );
    Ok(Crowd {
        name: name.to_string(),
        world,
        agents,
        params: MoveParams::default(),
        living: None,
    })
}

/// The median of sorted values (the mean of the middle two for an even count; NaN when empty).
pub fn median_of_sorted(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n if !n.is_multiple_of(2) => sorted[n / 2],
        n => 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]),
    }
}

/// One timed run.
#[derive(Debug, Clone)]
pub struct CrowdTiming {
    /// The backend's name.
    pub backend: String,
    /// Agents.
    pub agents: usize,
    /// Steps.
    pub steps: u64,
    /// Agent steps per second of wall time (agents times steps over the stepping time).
    pub agent_steps_per_second: f64,
    /// Backend traces per agent step.
    pub traces_per_agent_step: f64,
    /// The backend's counters over the timed steps (traces, hits, nodes visited, cache skips).
    pub backend_counters: QueryCounters,
    /// Blow's filter table of the run (timed per filter when the options asked for it).
    pub filter_stats: FilterStats,
    /// Other agents tested per trace past the grid (what the grid's cell size decides).
    pub agent_candidates_per_trace: f64,
    /// Where the agents ended, in id order (units).
    pub final_positions: Vec<DVec3>,
    /// [`Sim::state_hash`](cspace_sim::Sim::state_hash) at the end: the same for every run of a crowd and backend, and for
    /// backends that move the crowd on the same bits.
    pub end_state: u64,
    /// The share of the stepping time spent outside the interaction groups' moves (finding the
    /// groups, merging what they did): the part more threads cannot shorten.
    pub outside_groups_share: f64,
    /// Interaction groups per step, on average.
    pub groups_per_step: f64,
    /// The threads of the rayon pool the run stepped on.
    pub threads: usize,
    /// Seconds to build the backend's structure of the (static) world, when the run built it.
    pub compile_seconds: Option<f64>,
    /// Seconds to build the movers' structures of a living world (`None`: a frozen world).
    pub movers_compile_seconds: Option<f64>,
}

/// The end state every run reached, or `None` when two runs ended on different states (the
/// simulation would not be deterministic).
pub fn agreed_end_state(runs: &[CrowdTiming]) -> Option<u64> {
    let first = runs.first()?.end_state;
    runs.iter().all(|r| r.end_state == first).then_some(first)
}

/// Runs the crowd for `steps` steps of 1/60 s on `backend` (after one warm-up step).
pub fn time_crowd(crowd: &Crowd, backend: BackendKind, steps: u64) -> Result<CrowdTiming, Error> {
    time_crowd_with(crowd, backend, steps, false)
}

/// [`time_crowd`], timing each filter of Blow's stack when `time_filters` is set (a clock read
/// per filter and pair: slower steps, but the table gets its mean times).
pub fn time_crowd_with(
    crowd: &Crowd,
    backend: BackendKind,
    steps: u64,
    time_filters: bool,
) -> Result<CrowdTiming, Error> {
    let unsupported = |what: &str| Error::Unsupported {
        scenario: crowd.name.clone().into(),
        backend: backend.name(),
        reason: format!("it cannot trace the player box{what}"),
    };
    let clock = Instant::now();
    let collider = backend
        .build_for(&crowd.world, &[player()])?
        .ok_or_else(|| unsupported(""))?;
    let compile_seconds = clock.elapsed().as_secs_f64();
    let living = match &crowd.living {
        None => None,
        Some(entities) => {
            let models = cspace_sim::Models::build(backend, &entities.movers, &[player()])?
                .ok_or_else(|| unsupported(" against the movers"))?;
            Some(cspace_sim::Living {
                entities: entities.clone(),
                models: Arc::new(models),
            })
        }
    };
    let mut timing = time_crowd_on(crowd, collider, living, steps, time_filters)?;
    timing.compile_seconds = Some(compile_seconds);
    Ok(timing)
}

/// [`time_crowd_with`] on a backend built by the caller (one the simulator does not offer by
/// name, or a tree compiled once and shared between runs), with the movers of a living world
/// built for it (`None` for a frozen world).
pub fn time_crowd_on(
    crowd: &Crowd,
    collider: Arc<dyn Collider>,
    living: Option<cspace_sim::Living>,
    steps: u64,
    time_filters: bool,
) -> Result<CrowdTiming, Error> {
    let backend = collider.name().to_string();
    let movers_compile_seconds = living.as_ref().map(|l| l.models.build_seconds());
    let config = SimConfig {
        recording: Recording::Off,
        time_filters,
        living,
        ..SimConfig::default()
    };
    let mut run = crowd.sim(collider, config)?;
    run.step();
    let before = *run.sim.counters();
    let (traces0, steps0) = (before.traces, before.agent_steps);
    let clock = Instant::now();
    run.run(steps);
    let seconds = clock.elapsed().as_secs_f64();
    let sim = &run.sim;
    let after = *sim.counters();
    let agent_steps = after.agent_steps - steps0;
    Ok(CrowdTiming {
        backend,
        agents: crowd.agents.len(),
        steps,
        agent_steps_per_second: agent_steps as f64 / seconds,
        traces_per_agent_step: (sim.counters().traces - traces0) as f64 / agent_steps.max(1) as f64,
        backend_counters: sim.backend_counters(),
        filter_stats: sim.filter_stats(),
        agent_candidates_per_trace: sim.filter_stats().tests[Filter::BoundingSpheres as usize]
            as f64
            / sim.counters().traces.max(1) as f64,
        final_positions: sim.states().map(|s| s.position).collect(),
        end_state: sim.state_hash(),
        outside_groups_share: (after.outside_groups_nanos - before.outside_groups_nanos) as f64
            / (after.nanos - before.nanos).max(1) as f64,
        groups_per_step: (after.groups - before.groups) as f64 / steps.max(1) as f64,
        threads: rayon::current_num_threads(),
        compile_seconds: None,
        movers_compile_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs agree on their end state, or the answer says they do not.
    #[test]
    fn end_states_agree_or_are_reported_as_differing() {
        let crowd = open_world(6, 0.5);
        let run = || time_crowd(&crowd, BackendKind::Exact, 3).unwrap();
        let mut runs = vec![run(), run()];
        let end = runs[0].end_state;
        assert_eq!(agreed_end_state(&runs), Some(end));
        runs[1].end_state ^= 1;
        assert_eq!(agreed_end_state(&runs), None);
        assert_eq!(agreed_end_state(&[]), None);
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median_of_sorted(&[1.0, 2.0, 9.0]), 2.0);
        assert_eq!(median_of_sorted(&[1.0, 2.0, 4.0, 9.0]), 3.0);
        assert!(median_of_sorted(&[]).is_nan());
    }
}
