//! Running a scenario on a backend: the trace, the expectations, and the figures of a summary.

use std::sync::Arc;
use std::time::Instant;

use cspace_contact::FilterStats;
use cspace_geom::{Collider, DVec3, QueryCounters};

use crate::error::Error;
use crate::scenario::{Check, ContactFilter, Expectation, Scenario};
use crate::trace::{self, FinalState, RunRecord};
use cspace_geom::tolerance::TIME_SLACK;
use cspace_sim::navigation::{PlannedPath, Planner};
use cspace_sim::{
    AgentId, AgentState, BackendKind, Event, EventKind, Pose, Recording, Scripted, SimConfig,
    SimCounters, Touched, Verification,
};

/// Runs of more agent-steps than this keep positions only at sampled steps for comparison.
const PER_STEP_LIMIT: u64 = 20_000_000;

/// An expectation and whether the run met it.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckResult {
    /// The expectation.
    pub expectation: Expectation,
    /// `None` when met, otherwise why not.
    pub failure: Option<String>,
}

/// Everything a run produced.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    /// The backend.
    pub backend: BackendKind,
    /// The record of the run: what its trace says ([`RunOutcome::trace`]).
    pub record: RunRecord,
    /// The run's counters.
    pub counters: SimCounters,
    /// Blow's filter table for the run.
    pub filters: FilterStats,
    /// The backend's counters (traces, hits, nodes visited, cache skips).
    pub backend_counters: QueryCounters,
    /// The expectations and their results.
    pub checks: Vec<CheckResult>,
    /// Positions of every agent at every step (or every sampled step for very large runs),
    /// with the step: for comparing runs between samples (the record keeps sampled states).
    pub positions: Vec<(u64, Vec<DVec3>)>,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
    /// What the exactness guard found, when the run was verified ([`RunOptions::verify`]).
    pub verification: Option<Verification>,
    /// The paths the goto agents planned, in order (`sim plot` draws them).
    pub plans: Vec<PlannedPath>,
    /// The fingerprint of every agent's end state ([`Sim::state_hash`](cspace_sim::Sim::state_hash)): equal for two runs
    /// exactly when (barring a collision of the hash) they end on the same bits.
    pub end_state: u64,
}

impl RunOutcome {
    /// The trace text of the run (`docs/trace-format.md`), written from its record.
    pub fn trace(&self) -> String {
        self.record.text()
    }

    /// Every agent's final state, in id order.
    pub fn finals(&self) -> impl ExactSizeIterator<Item = &AgentState> + '_ {
        self.record.finals.iter().map(|f| &f.state)
    }

    /// The agents that left the world ([`EventKind::LeftWorld`]): id, step and where, in the order
    /// they left.
    pub fn left_world(&self) -> Vec<(AgentId, u64, DVec3)> {
        self.record
            .events
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::LeftWorld { at } => Some((e.agent, e.step, at)),
                _ => None,
            })
            .collect()
    }

    /// True when every expectation was met (and, verified, no agent was found in solid).
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.failure.is_none())
            && self.verification.as_ref().is_none_or(|v| v.in_solid == 0)
    }
}

/// Tracks expectations as the run goes.
struct Tracker {
    reached: Vec<Option<u64>>,
    entered: Vec<Option<u64>>,
    uncrouched: Vec<Option<u64>>,
}

/// How to run a scenario: what to record besides the physics, and who to tell about progress.
/// `RunOptions::default()` records as the scenario says and tells no one.
#[derive(Default)]
pub struct RunOptions<'a> {
    /// Sample the trajectory every this many steps; `None` keeps the scenario's `sample_every`.
    pub sample_every: Option<u64>,
    /// Time each filter of Blow's stack (a clock read per filter and pair).
    pub time_filters: bool,
    /// Check every agent's position after every step with the exact reference
    /// ([`RunOutcome::verification`]; a position in solid fails the run).
    pub verify: bool,
    /// [`SimConfig::parallel_from`] (`None`: its default).
    pub parallel_from: Option<usize>,
    /// Called with the step index after every step.
    pub progress: Option<&'a mut dyn FnMut(u64)>,
}

impl std::fmt::Debug for RunOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunOptions")
            .field("sample_every", &self.sample_every)
            .field("time_filters", &self.time_filters)
            .field("verify", &self.verify)
            .field("parallel_from", &self.parallel_from)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// Runs `scenario` on `backend`: builds the backend for the scenario's world and agents, steps
/// the simulation, checks the expectations and writes the trace.
pub fn run_scenario(
    scenario: &Scenario,
    backend: BackendKind,
    options: RunOptions<'_>,
) -> Result<RunOutcome, Error> {
    let collider = build_collider(scenario, backend)?;
    run_scenario_with(scenario, backend, collider, options)
}

/// Builds `backend` for `scenario`'s world and agents' shapes: the collider [`run_scenario`]
/// runs on. Runs that share the world and the shapes (a sweep's seeds) can share it
/// ([`run_scenario_with`]).
pub fn build_collider(
    scenario: &Scenario,
    backend: BackendKind,
) -> Result<Arc<dyn Collider>, Error> {
    backend
        .build_for(&scenario.world.world, &scenario.shapes())
        .map_err(|e| Error::from(e).in_scenario(&scenario.path))?
        .ok_or_else(|| Error::Unsupported {
            scenario: scenario.path.clone(),
            backend: backend.name(),
            reason: scenario
                .refusal(backend)
                .unwrap_or_else(|| "it cannot prepare an agent's shape".to_string()),
        })
}

/// [`run_scenario`] on a collider already built for the scenario ([`build_collider`] with the
/// same world and shapes; `backend` names it in the outcome and the trace).
pub fn run_scenario_with(
    scenario: &Scenario,
    backend: BackendKind,
    collider: Arc<dyn Collider>,
    options: RunOptions<'_>,
) -> Result<RunOutcome, Error> {
    let RunOptions {
        sample_every,
        time_filters,
        verify,
        parallel_from,
        mut progress,
    } = options;
    let sample_every = sample_every.unwrap_or(scenario.sample_every).max(1);
    // The goto agents' planner, the map's outside filled from its spawn points. A living
    // world's is built with the simulation, from its jump pads' picks (`Scripted::with_spawns`).
    let planner = (scenario.uses_goto() && scenario.world.living.is_none())
        .then(|| {
            let goto: Vec<(AgentId, &cspace_sim::AgentSpec)> = scenario
                .agents
                .iter()
                .enumerate()
                .filter(|(_, a)| a.uses_goto())
                .map(|(i, a)| (AgentId(i as u32), &a.spec))
                .collect();
            Planner::build(
                &scenario.world.world,
                &goto,
                &scenario.params,
                &scenario.world.spawns,
            )
            .map(Arc::new)
            .map_err(|e| Error::Build {
                scenario: Some(scenario.path.clone()),
                backend: "goto planner",
                message: e.to_string(),
            })
        })
        .transpose()?;
    // A living world's movers, each with its own structure in this backend.
    let living = match &scenario.world.living {
        None => None,
        Some(entities) => {
            let models = cspace_sim::Models::build(backend, &entities.movers, &scenario.shapes())
                .map_err(|e| Error::from(e).in_scenario(&scenario.path))?
                .ok_or_else(|| Error::Unsupported {
                    scenario: scenario.path.clone(),
                    backend: backend.name(),
                    reason: "it cannot prepare an agent's shape for the movers".to_string(),
                })?;
            Some(cspace_sim::Living {
                entities: entities.clone(),
                models: Arc::new(models),
            })
        }
    };
    let config = SimConfig {
        living,
        params: scenario.params,
        dt: scenario.dt,
        recording: Recording::Sampled {
            every: sample_every,
        },
        verify,
        time_filters,
        parallel_from: parallel_from.unwrap_or(cspace_sim::PARALLEL_FROM),
        planner,
        seed: scenario.seed,
        ..SimConfig::default()
    };
    let mut run =
        Scripted::with_spawns(collider, config, &scenario.agents, &scenario.world.spawns)?;
    let per_step = scenario.steps * scenario.agents.len() as u64 <= PER_STEP_LIMIT;
    let n = scenario.expectations.len();
    let mut tracker = Tracker {
        reached: vec![None; n],
        entered: vec![None; n],
        uncrouched: vec![None; n],
    };
    let mut positions = Vec::new();
    let clock = Instant::now();
    let mut states: Vec<AgentState> = run.sim.states().collect();
    track(scenario, &mut tracker, 0, &states);
    positions.push((0, states.iter().map(|s| s.position).collect()));
    for step in 1..=scenario.steps {
        run.step();
        states.clear();
        states.extend(run.sim.states());
        track(scenario, &mut tracker, step, &states);
        if per_step || step % sample_every == 0 || step == scenario.steps {
            positions.push((step, states.iter().map(|s| s.position).collect()));
        }
        if let Some(progress) = progress.as_mut() {
            progress(step);
        }
    }
    let sim = &mut run.sim;
    sim.sample();
    let seconds = clock.elapsed().as_secs_f64();
    let end_state = sim.state_hash();
    let header = trace::Header {
        scenario: scenario.name.clone(),
        backend: backend.name().to_string(),
        steps: scenario.steps,
        time_step: scenario.dt,
        agents: scenario.agents.len(),
        sample_every,
    };
    let record = RunRecord::of(header, sim);
    let checks = judge(scenario, &tracker, &record.events, &record.finals);
    Ok(RunOutcome {
        backend,
        record,
        counters: *sim.counters(),
        filters: sim.filter_stats(),
        backend_counters: sim.backend_counters(),
        checks,
        positions,
        seconds,
        verification: sim.verification().cloned(),
        plans: sim.plans().to_vec(),
        end_state,
    })
}

fn track(scenario: &Scenario, t: &mut Tracker, step: u64, states: &[AgentState]) {
    let time = step as f64 * scenario.dt;
    for (i, e) in scenario.expectations.iter().enumerate() {
        let s = &states[e.agent.0 as usize];
        match &e.check {
            Check::Reaches { region, .. }
                if t.reached[i].is_none() && region.contains_point(s.position) =>
            {
                t.reached[i] = Some(step);
            }
            Check::NeverReaches { region }
                if t.entered[i].is_none() && region.contains_point(s.position) =>
            {
                t.entered[i] = Some(step);
            }
            Check::StaysCrouched { from }
                if time >= *from - TIME_SLACK
                    && t.uncrouched[i].is_none()
                    && s.pose != Pose::Crouching =>
            {
                t.uncrouched[i] = Some(step);
            }
            _ => {}
        }
    }
}

/// The first step at which `agent`'s water level was `level` or more (its `water level` events).
fn water_step(events: &[Event], agent: AgentId, level: u8) -> Option<u64> {
    events.iter().find_map(|ev| match ev.kind {
        EventKind::WaterLevel { level: l, .. } if ev.agent == agent && l >= level => Some(ev.step),
        _ => None,
    })
}

fn judge(
    scenario: &Scenario,
    t: &Tracker,
    events: &[Event],
    finals: &[FinalState],
) -> Vec<CheckResult> {
    let final_position = |agent: AgentId| finals[agent.0 as usize].state.position;
    let dt = scenario.dt;
    scenario
        .expectations
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let agent = e.agent;
            let failure = match &e.check {
                Check::Reaches { by, .. } => match t.reached[i] {
                    Some(step) if step as f64 * dt <= by + TIME_SLACK => None,
                    Some(step) => Some(format!(
                        "reached the region at {:.3} s, after {by} s",
                        step as f64 * dt
                    )),
                    None => Some(format!(
                        "never reached the region (ended at {})",
                        crate::trace::compact_vector(final_position(agent), 3)
                    )),
                },
                Check::NeverReaches { .. } => t.entered[i]
                    .map(|step| format!("entered the region at {:.3} s", step as f64 * dt)),
                Check::EndsOnGround => (!finals[agent.0 as usize].state.on_ground).then(|| {
                    format!(
                        "ended in the air at {}",
                        crate::trace::compact_vector(final_position(agent), 3)
                    )
                }),
                Check::StaysCrouched { from } => t.uncrouched[i].map(|step| {
                    format!(
                        "stood up at {:.3} s (expected crouched from {from} s)",
                        step as f64 * dt
                    )
                }),
                Check::LeavesWorld(expected) => {
                    let left = events.iter().find_map(|ev| match ev.kind {
                        EventKind::LeftWorld { at } if ev.agent == agent => Some((ev.step, at)),
                        _ => None,
                    });
                    match (left, expected) {
                        (Some((step, at)), false) => Some(format!(
                            "left the world at step {step}, at {}",
                            crate::trace::compact_vector(at, 3)
                        )),
                        (None, true) => Some(format!(
                            "stayed in the world (ended at {})",
                            crate::trace::compact_vector(final_position(agent), 3)
                        )),
                        _ => None,
                    }
                }
                Check::Swims(expected) => {
                    let swam = water_step(events, agent, 2);
                    match (swam, expected) {
                        (Some(step), false) => Some(format!("swam from step {step}")),
                        (None, true) => Some("never swam (water level below 2 throughout)".into()),
                        _ => None,
                    }
                }
                Check::WaterLevel { at_least, by } => match water_step(events, agent, *at_least) {
                    Some(step) if step as f64 * dt <= by + TIME_SLACK => None,
                    Some(step) => Some(format!(
                        "water level {at_least} reached at {:.3} s, after {by} s",
                        step as f64 * dt
                    )),
                    None => Some(format!("water level never reached {at_least}")),
                },
                Check::Arrives { expected, by } => {
                    let arrived = events.iter().find_map(|ev| match ev.kind {
                        EventKind::Arrived { .. } if ev.agent == agent => Some(ev.step),
                        _ => None,
                    });
                    let failed = events.iter().find_map(|ev| match ev.kind {
                        EventKind::GotoFailed { to, why } if ev.agent == agent => Some(format!(
                            " (cannot go to {}: {})",
                            crate::trace::compact_vector(to, 3),
                            why.describe()
                        )),
                        _ => None,
                    });
                    match (arrived, expected) {
                        (Some(step), true) if step as f64 * dt <= by + TIME_SLACK => None,
                        (Some(step), true) => Some(format!(
                            "arrived at {:.3} s, after {by} s",
                            step as f64 * dt
                        )),
                        (None, true) => Some(format!(
                            "never arrived (ended at {}){}",
                            crate::trace::compact_vector(final_position(agent), 3),
                            failed.unwrap_or_default()
                        )),
                        (Some(step), false) => {
                            Some(format!("arrived at {:.3} s", step as f64 * dt))
                        }
                        (None, false) => None,
                    }
                }
                Check::Rides { movers, .. } => (!events.iter().any(|ev| {
                    ev.agent == agent
                        && matches!(ev.kind, EventKind::Rides { mover } if movers.contains(&mover))
                }))
                .then(|| "never rode it".to_string()),
                Check::UsesTeleporter {
                    expected,
                    teleporters,
                } => {
                    let used = events.iter().find_map(|ev| match ev.kind {
                        EventKind::Teleported { trigger, .. }
                            if ev.agent == agent
                                && teleporters.as_ref().is_none_or(|t| t.contains(&trigger)) =>
                        {
                            Some(ev.step)
                        }
                        _ => None,
                    });
                    match (used, expected) {
                        (None, true) => Some("was never teleported".to_string()),
                        (Some(step), false) => Some(format!("was teleported at step {step}")),
                        _ => None,
                    }
                }
                Check::Triggers { triggers, .. } => (!events.iter().any(|ev| {
                    ev.agent == agent
                        && matches!(ev.kind, EventKind::Touches { trigger, .. } if triggers.contains(&trigger))
                }))
                .then(|| "never touched it".to_string()),
                Check::NoContactsWith(filter) => events
                    .iter()
                    .filter(|ev| ev.agent == agent)
                    .find_map(|ev| match ev.kind {
                        EventKind::Contact(c) if matches_filter(*filter, c.target) => {
                            Some(format!(
                                "contact at step {} with {}",
                                ev.step,
                                trace::target_text(c.target)
                            ))
                        }
                        _ => None,
                    }),
            };
            CheckResult {
                expectation: e.clone(),
                failure,
            }
        })
        .collect()
}

fn matches_filter(filter: ContactFilter, target: Touched) -> bool {
    match (filter, target) {
        (ContactFilter::World, Touched::Brush(_)) => true,
        (ContactFilter::Agents, Touched::Agent(_)) => true,
        (ContactFilter::Agent(a), Touched::Agent(b)) => a == b,
        _ => false,
    }
}

/// How two runs of one scenario differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// Per agent: the largest position difference (units) and the step where it happens.
    pub per_agent: Vec<(f64, u64)>,
    /// The first place where the contact sequences differ: (index in the sequence, what each
    /// side has there), or `None` when they are the same.
    pub contacts: Option<(usize, String, String)>,
}

impl Divergence {
    /// The largest position difference of any agent, with the agent and the step.
    pub fn largest(&self) -> (f64, AgentId, u64) {
        self.per_agent
            .iter()
            .enumerate()
            .map(|(i, (d, s))| (*d, AgentId(i as u32), *s))
            .fold(
                (0.0, AgentId(0), 0),
                |best, x| if x.0 > best.0 { x } else { best },
            )
    }
}

/// The contact sequence of a run: (step, agent, target) in order.
pub fn contact_sequence(events: &[Event]) -> Vec<(u64, AgentId, String)> {
    events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Contact(c) => Some((e.step, e.agent, trace::target_text(c.target))),
            _ => None,
        })
        .collect()
}

/// Compares two runs of the same scenario.
pub fn diverge(a: &RunOutcome, b: &RunOutcome) -> Divergence {
    let agents = a.record.finals.len();
    let mut per_agent = vec![(0.0f64, 0u64); agents];
    let mut j = 0;
    for (step, pa) in &a.positions {
        while j < b.positions.len() && b.positions[j].0 < *step {
            j += 1;
        }
        let Some((sb, pb)) = b.positions.get(j) else {
            break;
        };
        if sb != step {
            continue;
        }
        for (k, (x, y)) in pa.iter().zip(pb).enumerate() {
            let d = x.distance(*y);
            if d > per_agent[k].0 {
                per_agent[k] = (d, *step);
            }
        }
    }
    let (ca, cb) = (
        contact_sequence(&a.record.events),
        contact_sequence(&b.record.events),
    );
    let show = |c: Option<&(u64, AgentId, String)>| {
        c.map_or("nothing".to_string(), |(s, g, t)| {
            format!("step {s} agent {g} {t}")
        })
    };
    let contacts = (0..ca.len().max(cb.len()))
        .find(|&i| ca.get(i) != cb.get(i))
        .map(|i| (i, show(ca.get(i)), show(cb.get(i))));
    Divergence {
        per_agent,
        contacts,
    }
}
