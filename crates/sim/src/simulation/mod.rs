//! The stepping simulator on hecs.
//!
//! [`Sim`] holds the hecs `World` of agents beside the collision backend, Blow's filter stack,
//! the counters, the recorder and the step index (the hecs README's advice for spatial indexes).
//! [`Sim::step`] calls plain system functions in a fixed order. Agents move in interaction
//! groups (`simulation/groups.rs`): the agents that can touch within a (sub)step, moved one at a
//! time in id order, each seeing the others where they are now; groups are independent, so they
//! move on rayon's threads and the result is the sequential one, bit for bit, on any number of
//! threads.
//! Time is `step * dt`, never accumulated.

mod groups;
mod movement;
mod tracer;
mod verify;

pub use verify::{InSolid, Verification};

use std::sync::{Arc, Mutex};
use std::time::Instant;

use cspace_contact::{AgentId, FilterStack, FilterStats};
use cspace_geom::{
    Collider, DVec3, MoverCache, QueryContext, QueryCounters, Shape, UnsupportedShape,
};
use rayon::prelude::*;

use crate::agent::{
    Action, AgentSpec, Ground, Intent, Pose, PoseSet, Position, Rest, Script, Totals, Touching,
    Velocity,
};
use crate::navigation::follow::{AgentNow, Steer};
use crate::navigation::{Follow, FollowParams, PlanError, PlannedPath, Planner};
use crate::params::{MoveParams, ParamError};
use crate::record::{AgentState, EventKind, Recorder, Sample};
use cspace_geom::Aabb;
use cspace_geom::tolerance::{FALL_MARGIN, MAX_COORDINATE, TIME_SLACK};
use groups::{GroupOutcome, Mover, Partition, Phase, Shared, Worker};

/// Why a simulation cannot be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    /// A movement constant is out of range.
    #[error("movement parameters: {0}")]
    Params(#[from] ParamError),
    /// The time step is not a positive number of seconds within
    /// [`MAX_TIME_STEP`](cspace_geom::tolerance::MAX_TIME_STEP).
    #[error(
        "time step must be a positive number of seconds, at most {}, got {}",
        cspace_geom::tolerance::MAX_TIME_STEP,
        cspace_geom::domain::number(*.0)
    )]
    TimeStep(f64),
    /// An agent's start, velocity or scripted speed is outside the numeric domain.
    #[error("agent {agent} {what}: {error}")]
    OutOfDomain {
        /// The agent.
        agent: AgentId,
        /// What of it (`start`, `velocity`, `script speed`).
        what: &'static str,
        /// The value and the limit.
        error: cspace_geom::domain::OutOfDomain,
    },
    /// Agent ids must be 0, 1, 2, ... in order.
    #[error("agent ids must be 0, 1, 2, ... in order; agent {index} has id {id}")]
    AgentIds {
        /// Position in the list.
        index: usize,
        /// The id found there.
        id: AgentId,
    },
    /// Agents are boxes, spheres or vertical cylinders.
    #[error(
        "agent {agent}: {shape} is not an agent shape (boxes, spheres and vertical cylinders are)"
    )]
    AgentShape {
        /// The agent.
        agent: AgentId,
        /// The shape.
        shape: String,
    },
    /// The planner of the goto agents cannot be built.
    #[error("navigation: {0}")]
    Navigation(#[from] PlanError),
    /// The backend cannot trace an agent's shape.
    #[error("agent {agent}: {error}")]
    Unsupported {
        /// The agent.
        agent: AgentId,
        /// The backend's refusal.
        error: UnsupportedShape,
    },
}

/// Counters of a run (plain numbers, printed with `Display`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SimCounters {
    /// Steps taken.
    pub steps: u64,
    /// Agent updates (agents times steps, asleep ones not counted).
    pub agent_steps: u64,
    /// Backend traces.
    pub traces: u64,
    /// Nanoseconds spent stepping.
    pub nanos: u64,
    /// Of `nanos`, the part spent outside the groups' moves: finding the groups and merging
    /// what they did (what more threads cannot shorten).
    pub outside_groups_nanos: u64,
    /// Interaction groups moved (summed over steps and sub-steps).
    pub groups: u64,
}

impl std::fmt::Display for SimCounters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let per_second = if self.nanos > 0 {
            // not a tolerance: nanoseconds to seconds
            self.agent_steps as f64 / (self.nanos as f64 * 1e-9)
        } else {
            0.0
        };
        write!(
            f,
            "{} steps, {} agent steps, {} traces, {:.0} agent steps/s",
            self.steps, self.agent_steps, self.traces, per_second
        )
    }
}

/// Options that do not change the physics.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimOptions {
    /// Sample every agent's state every this many steps.
    pub sample_every: u64,
    /// Time each filter of the stack (costs a clock read per filter and pair).
    pub time_filters: bool,
    /// Check every agent's position with the exact reference's point query after settling and
    /// after every step ([`Sim::verification`]; not counted in the step's time).
    pub verify: bool,
    /// The fewest agents a step moves in parallel groups (with several threads); smaller crowds
    /// step in order on the calling thread, where the groups would cost more than they save.
    /// The answers are the same either way.
    pub parallel_from: usize,
}

/// [`SimOptions::parallel_from`]'s default: on two cores a crowd of 1,000 Quake players steps
/// no faster in groups (measured: 0.85 to 0.95 times one thread), 10,000 do (1.25 to 1.5 times).
pub const PARALLEL_FROM: usize = 2000;

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            sample_every: 1,
            time_filters: false,
            verify: false,
            parallel_from: PARALLEL_FROM,
        }
    }
}

/// A simulation: agents on hecs, a collision backend, and the step.
pub struct Sim {
    world: hecs::World,
    collider: Arc<dyn Collider>,
    /// The context of every query of the step (scratch and counters).
    queries: QueryContext,
    params: MoveParams,
    dt: f64,
    step: u64,
    /// Below this height an agent has fallen out of the world.
    floor: f64,
    /// Entities in agent id order (id == index).
    agents: Vec<hecs::Entity>,
    recorder: Recorder,
    counters: SimCounters,
    /// Every agent where it is now, for the sequential step and settling (unless stale).
    filters: FilterStack,
    /// Parallel steps moved the agents since `filters` was current.
    filters_stale: bool,
    /// Blow's table of the groups' own filter stacks (parallel steps), summed.
    group_filter_stats: FilterStats,
    /// Time each filter.
    time_filters: bool,
    /// [`SimOptions::parallel_from`].
    parallel_from: usize,
    /// The scratch of the calling thread, and of the other workers between steps.
    worker: Worker,
    workers: Mutex<Vec<Worker>>,
    /// The step's interaction groups, and every agent's reach.
    partition: Partition,
    reaches: Vec<Option<Aabb>>,
    /// The exactness guard, when asked for.
    verifier: Option<verify::Verifier>,
    /// The goto agents' planner, its scratch and the follower's constants.
    planner: Option<Arc<Planner>>,
    nav_ctx: cspace_nav::NavContext,
    follow_params: FollowParams,
    /// Every path planned so far, in order.
    plans: Vec<PlannedPath>,
}

impl std::fmt::Debug for Sim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sim")
            .field("backend", &self.collider.name())
            .field("step", &self.step)
            .field("agents", &self.agents.len())
            .finish()
    }
}

fn is_agent_shape(shape: &Shape) -> bool {
    !matches!(shape, Shape::Hull(_))
}

impl Sim {
    /// A simulation of `agents` in the world `collider` answers for, stepping `dt` seconds.
    /// When an agent's script has a goto, the planner is built for the world and the goto
    /// agents' poses ([`Planner::build`], the outside not filled: the simulation knows no spawn
    /// points; [`crate::run_scenario`] fills it from the map's).
    pub fn new(
        collider: Arc<dyn Collider>,
        params: MoveParams,
        dt: f64,
        agents: Vec<AgentSpec>,
        options: SimOptions,
    ) -> Result<Sim, SimError> {
        Sim::with_planner(collider, params, dt, agents, options, None)
    }

    /// [`Sim::new`] with a planner built beforehand for the same world (shared by many runs;
    /// `None` builds one when an agent uses goto). Every goto agent's poses must be among the
    /// planner's.
    pub fn with_planner(
        collider: Arc<dyn Collider>,
        params: MoveParams,
        dt: f64,
        agents: Vec<AgentSpec>,
        options: SimOptions,
        planner: Option<Arc<Planner>>,
    ) -> Result<Sim, SimError> {
        params.validate()?;
        if !(dt > 0.0 && dt <= cspace_geom::tolerance::MAX_TIME_STEP) {
            return Err(SimError::TimeStep(dt));
        }
        let planner = match planner {
            Some(p) => {
                p.check_world(collider.world())?;
                Some(p)
            }
            None if agents.iter().any(AgentSpec::uses_goto) => Some(Arc::new(Planner::build(
                collider.world(),
                &agents,
                &params,
                &[],
            )?)),
            None => None,
        };
        let mut world = hecs::World::new();
        let mut entities = Vec::with_capacity(agents.len());
        let mut filters = FilterStack::new(params.grid_cell, options.time_filters);
        for (index, spec) in agents.into_iter().enumerate() {
            if spec.id.0 as usize != index {
                return Err(SimError::AgentIds { index, id: spec.id });
            }
            spec.check_domain()
                .map_err(|(what, error)| SimError::OutOfDomain {
                    agent: spec.id,
                    what,
                    error,
                })?;
            for shape in std::iter::once(&spec.standing).chain(spec.crouching.as_ref()) {
                if !is_agent_shape(shape) {
                    return Err(SimError::AgentShape {
                        agent: spec.id,
                        shape: shape.describe(),
                    });
                }
            }
            let prepare = |shape: &Shape| {
                collider
                    .prepare(shape)
                    .map(|p| p.with_skin(params.skin))
                    .map_err(|error| SimError::Unsupported {
                        agent: spec.id,
                        error,
                    })
            };
            let poses = PoseSet {
                standing: prepare(&spec.standing)?,
                crouching: spec.crouching.as_ref().map(prepare).transpose()?,
            };
            let pose = if spec.start_crouched && poses.crouching.is_some() {
                Pose::Crouching
            } else {
                Pose::Standing
            };
            filters.insert(spec.id, poses.get(pose).shape(), spec.start);
            let mesh = match &planner {
                Some(p) if spec.uses_goto() => Some(
                    p.mesh_index(&spec.standing, spec.crouching.as_ref())
                        .ok_or(PlanError::NotPlanned { agent: spec.id.0 })?,
                ),
                _ => None,
            };
            let mut script = spec.script;
            script.sort_by(|a, b| a.at.total_cmp(&b.at));
            entities.push(world.spawn((
                spec.id,
                poses,
                pose,
                Position(spec.start),
                Velocity(spec.velocity),
                Intent {
                    crouch: pose == Pose::Crouching,
                    ..Intent::default()
                },
                Script {
                    events: script,
                    next: 0,
                },
                Ground::Air,
                Rest::default(),
                Totals::default(),
                Touching::default(),
                MoverCache::default(),
                Follow::new(mesh),
            )));
        }
        let floor = fall_floor(&collider.world().bounds());
        let mut sim = Sim {
            world,
            floor,
            collider,
            queries: QueryContext::new(),
            params,
            dt,
            step: 0,
            agents: entities,
            recorder: Recorder::new(options.sample_every),
            counters: SimCounters::default(),
            filters,
            filters_stale: false,
            group_filter_stats: FilterStats::default(),
            time_filters: options.time_filters,
            parallel_from: options.parallel_from,
            worker: Worker::new(&params, options.time_filters),
            workers: Mutex::new(Vec::new()),
            partition: Partition::default(),
            reaches: Vec::new(),
            verifier: None,
            planner,
            nav_ctx: cspace_nav::NavContext::new(),
            follow_params: FollowParams::default(),
            plans: Vec::new(),
        };
        sim.settle();
        // Settling is not part of the run: its totals are cleared, and finding the ground under
        // an agent placed on it is not a contact (unsticking is still recorded).
        for totals in sim.world.query_mut::<&mut Totals>() {
            *totals = Totals::default();
        }
        sim.recorder.forget_contacts();
        sim.sample();
        if options.verify {
            sim.verifier = Some(verify::Verifier::new(sim.collider.world().clone()));
            sim.verify();
        }
        Ok(sim)
    }

    /// The step index (steps taken so far).
    pub fn step_index(&self) -> u64 {
        self.step
    }

    /// The simulated time, seconds: `step * dt`.
    pub fn time(&self) -> f64 {
        self.step as f64 * self.dt
    }

    /// The backend's name.
    pub fn backend(&self) -> &str {
        self.collider.name()
    }

    /// The recorder.
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }

    /// The filter stacks' counters (Blow's table). The tests the filters make depend on how the
    /// agents were grouped (on one thread, one stack holds every agent); the answers do not.
    pub fn filter_stats(&self) -> FilterStats {
        let mut stats = *self.filters.stats();
        stats.merge(&self.group_filter_stats);
        stats
    }

    /// The backend's counters (traces, hits, nodes visited, cache skips) so far.
    pub fn backend_counters(&self) -> QueryCounters {
        self.queries.counters
    }

    /// The run's counters.
    pub fn counters(&self) -> &SimCounters {
        &self.counters
    }

    /// The movement constants.
    pub fn params(&self) -> &MoveParams {
        &self.params
    }

    /// Per-agent totals, in id order.
    pub fn totals(&self) -> Vec<Totals> {
        self.agents
            .iter()
            .map(|&e| *self.world.get::<&Totals>(e).expect("agents have totals"))
            .collect()
    }

    /// Every agent's state, in id order.
    pub fn states(&self) -> Vec<AgentState> {
        self.agents
            .iter()
            .map(|&e| {
                let mut q = self
                    .world
                    .query_one::<(&AgentId, &Position, &Velocity, &Pose, &Ground, &Rest)>(e);
                let (id, p, v, pose, ground, rest) = q.get().expect("agents have every component");
                AgentState {
                    id: *id,
                    position: p.0,
                    velocity: v.0,
                    pose: *pose,
                    on_ground: ground.walkable().is_some(),
                    asleep: rest.asleep,
                }
            })
            .collect()
    }

    /// A fingerprint of every agent's state (FNV-1a over the bits of its position, velocity,
    /// pose, ground contact and sleep, in id order): runs that end on the same bits end on the
    /// same fingerprint, so determinism across runs, machines and backends is one comparison
    /// (`sim bench` prints it per crowd and backend).
    pub fn state_hash(&self) -> u64 {
        let states = self.states();
        let mut bytes = Vec::with_capacity(states.len() * 51);
        for s in &states {
            for x in [s.position, s.velocity].iter().flat_map(|v| v.to_array()) {
                bytes.extend_from_slice(&x.to_bits().to_le_bytes());
            }
            bytes.extend_from_slice(&[
                u8::from(s.pose == Pose::Crouching),
                u8::from(s.on_ground),
                u8::from(s.asleep),
            ]);
        }
        cspace_geom::world::fnv1a64(&bytes)
    }

    /// Every path the goto agents planned so far, in order.
    pub fn plans(&self) -> &[PlannedPath] {
        &self.plans
    }

    /// The goto agents' planner, when an agent uses goto.
    pub fn planner(&self) -> Option<&Arc<Planner>> {
        self.planner.as_ref()
    }

    /// What the exactness guard found ([`SimOptions::verify`]); `None` when it is off.
    pub fn verification(&self) -> Option<&Verification> {
        self.verifier.as_ref().map(|v| &v.found)
    }

    /// The exactness guard: every agent still in the world, at its position and in its pose.
    fn verify(&mut self) {
        let Some(verifier) = self.verifier.as_mut() else {
            return;
        };
        for (index, &entity) in self.agents.iter().enumerate() {
            let mut query = self
                .world
                .query_one::<(&PoseSet, &Pose, &Position, &Rest)>(entity);
            let (poses, pose, position, rest) = query.get().expect("agents have every component");
            if !rest.left_world {
                let shape = poses.get(*pose).shape();
                verifier.check(self.step, AgentId(index as u32), shape, *pose, position.0);
            }
        }
    }

    /// Runs `steps` steps.
    pub fn run(&mut self, steps: u64) {
        for _ in 0..steps {
            self.step();
        }
    }

    /// One step of `dt` seconds, split into equal sub-steps of at most `max_substep`.
    pub fn step(&mut self) {
        let clock = Instant::now();
        let substeps = (self.dt / self.params.max_substep).ceil().max(1.0) as u32;
        let sub_dt = self.dt / substeps as f64;
        // The step from t to t + dt applies the script events due by t.
        let time = self.time();
        self.step += 1;
        apply_scripts(
            &mut self.world,
            &self.agents,
            time,
            self.step,
            &mut self.recorder,
            Steering {
                planner: self.planner.as_deref(),
                ctx: &mut self.nav_ctx,
                params: &self.params,
                follow: &self.follow_params,
                dt: self.dt,
                plans: &mut self.plans,
            },
        );
        for _ in 0..substeps {
            self.move_agents(sub_dt);
        }
        // Time on ground, per step (asleep agents rest on ground too).
        for (ground, totals) in self.world.query_mut::<(&Ground, &mut Totals)>() {
            if ground.walkable().is_some() {
                totals.steps_on_ground += 1;
            }
        }
        self.counters.steps += 1;
        self.counters.nanos += clock.elapsed().as_nanos() as u64;
        self.verify();
        if self.step.is_multiple_of(self.recorder.sample_every) {
            self.sample();
        }
    }

    /// Records the current states as a sample (the end of a run calls it for the last step).
    pub fn sample(&mut self) {
        if self
            .recorder
            .samples
            .last()
            .is_some_and(|s| s.step == self.step)
        {
            return;
        }
        let states = self.states();
        self.recorder.samples.push(Sample {
            step: self.step,
            states,
        });
    }

    /// Finds the ground under every agent and frees agents that start in solid: one group of
    /// every agent, in id order (a freed agent may land anywhere near).
    fn settle(&mut self) {
        self.run_in_order(Phase::Settle);
    }

    /// Runs `phase` on every agent in id order, on the calling thread, with the simulation's
    /// filter stack: settling, and the sequential step.
    fn run_in_order(&mut self, phase: Phase) {
        self.refresh_filters();
        let shared = Shared {
            collider: self.collider.as_ref(),
            params: &self.params,
            step: self.step,
            floor: self.floor,
        };
        let mut movers = self
            .world
            .query_mut::<Mover>()
            .into_iter()
            .collect::<Vec<_>>();
        // hecs lists agents spawned together in spawn order, which is id order: sorted already.
        if !movers.is_sorted_by_key(|m| m.id.0) {
            movers.sort_unstable_by_key(|m| m.id.0);
        }
        let outcome = groups::run_group(
            &mut self.worker,
            shared,
            &mut movers,
            phase,
            Some(&mut self.filters),
        );
        drop(movers);
        self.counters.groups += 1;
        self.merge(vec![outcome]);
    }

    /// Moves every awake agent once, in id order: on one thread, every agent in turn (the
    /// sequential step); on several, the interaction groups, each in id order, on rayon's threads,
    /// which gives the same bits.
    fn move_agents(&mut self, dt: f64) {
        if rayon::current_num_threads() == 1 || self.agents.len() < self.parallel_from {
            self.run_in_order(Phase::Move(dt));
            return;
        }
        let shared = Shared {
            collider: self.collider.as_ref(),
            params: &self.params,
            step: self.step,
            floor: self.floor,
        };
        let clock = Instant::now();
        let mut movers: Vec<Mover> = self.world.query_mut::<Mover>().into_iter().collect();
        self.reaches.clear();
        self.reaches.resize(movers.len(), None);
        for mover in &movers {
            if !mover.rest.left_world {
                self.reaches[mover.id.0 as usize] = Some(groups::reach(mover, &self.params, dt));
            }
        }
        self.partition.split(&self.reaches);
        let partition = &self.partition;
        // Every agent with a reach, group after group (each group's in id order); the agents
        // that left the world last, in no group.
        let rank = &partition.rank;
        movers.sort_unstable_by_key(|m| rank[m.id.0 as usize]);
        movers.truncate(partition.members.len());
        // The groups as slices, dealt in runs of consecutive groups of about equal agent counts,
        // a few per thread (a task per group would cost more than most groups' moves).
        let groups = partition.len();
        let per_task = movers
            .len()
            .div_ceil(4 * rayon::current_num_threads())
            .max(1);
        let mut tasks: Vec<Vec<&mut [Mover]>> = Vec::new();
        let mut rest: &mut [Mover] = &mut movers;
        let mut task: Vec<&mut [Mover]> = Vec::new();
        let mut in_task = 0;
        for g in 0..groups {
            let len = partition.starts[g + 1] - partition.starts[g];
            let (group, after) = std::mem::take(&mut rest).split_at_mut(len);
            rest = after;
            task.push(group);
            in_task += len;
            if in_task >= per_task {
                tasks.push(std::mem::take(&mut task));
                in_task = 0;
            }
        }
        if !task.is_empty() {
            tasks.push(task);
        }
        let outside = clock.elapsed();
        let phase = Phase::Move(dt);
        let (params, timing, pool) = (&self.params, self.time_filters, &self.workers);
        let outcomes: Vec<GroupOutcome> = tasks
            .into_par_iter()
            .map(|task| {
                let mut worker = PooledWorker::take(pool, params, timing);
                let mut outcome = GroupOutcome::default();
                for group in task {
                    outcome.add(groups::run_group(worker.get(), shared, group, phase, None));
                }
                outcome
            })
            .collect();
        let merging = Instant::now();
        // The groups are only independent if no agent left its reach (checked in debug builds,
        // which every test runs).
        if cfg!(debug_assertions) {
            for mover in &movers {
                let id = mover.id.0 as usize;
                let reach = self.reaches[id].expect("moved agents have a reach");
                let bounds = mover
                    .poses
                    .get(*mover.pose)
                    .shape()
                    .bounds()
                    .translated(mover.position.0);
                assert!(
                    mover.rest.left_world
                        || (reach.min.cmple(bounds.min).all() && bounds.max.cmple(reach.max).all()),
                    "agent {id} left its reach {reach:?}: {bounds:?}"
                );
            }
        }
        // The simulation's filter stack no longer says where the agents are: rebuilt if a
        // sequential step needs it again.
        self.filters_stale = true;
        drop(movers);
        self.counters.groups += groups as u64;
        self.merge(outcomes);
        self.counters.outside_groups_nanos += (outside + merging.elapsed()).as_nanos() as u64;
    }

    /// Rebuilds the simulation's filter stack after parallel steps moved the agents without it.
    fn refresh_filters(&mut self) {
        if !self.filters_stale {
            return;
        }
        let stats = self.filters.take_stats();
        self.group_filter_stats.merge(&stats);
        self.filters.clear();
        for (index, &entity) in self.agents.iter().enumerate() {
            let mut query = self
                .world
                .query_one::<(&PoseSet, &Pose, &Position, &Rest)>(entity);
            let (poses, pose, position, rest) = query.get().expect("agents have every component");
            let id = AgentId(index as u32);
            self.filters
                .insert(id, poses.get(*pose).shape(), position.0);
            if rest.left_world {
                self.filters.remove(id);
            }
        }
        self.filters_stale = false;
    }

    /// Adds what the groups did to the simulation: counters, and the events in the order the
    /// sequential step would have recorded them (by the agent being moved, then as they came).
    fn merge(&mut self, outcomes: Vec<GroupOutcome>) {
        let mut events = Vec::new();
        for outcome in outcomes {
            self.counters.traces += outcome.traces;
            self.counters.agent_steps += outcome.agent_steps;
            self.queries.counters += outcome.queries;
            self.group_filter_stats.merge(&outcome.filters);
            if events.is_empty() {
                events = outcome.events;
            } else {
                events.extend(outcome.events);
            }
        }
        events.sort_by_key(|&(mover, ..)| mover);
        for (_, agent, kind) in events {
            self.recorder.record(self.step, agent, kind);
        }
    }
}

/// A worker of the simulation's pool, lent to one rayon job and given back when it ends.
struct PooledWorker<'a> {
    worker: Option<Worker>,
    pool: &'a Mutex<Vec<Worker>>,
}

impl<'a> PooledWorker<'a> {
    fn take(pool: &'a Mutex<Vec<Worker>>, params: &MoveParams, timing: bool) -> PooledWorker<'a> {
        let worker = pool
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_else(|| Worker::new(params, timing));
        PooledWorker {
            worker: Some(worker),
            pool,
        }
    }

    fn get(&mut self) -> &mut Worker {
        self.worker.as_mut().expect("a worker until dropped")
    }
}

impl Drop for PooledWorker<'_> {
    fn drop(&mut self) {
        if let Some(worker) = self.worker.take() {
            self.pool
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(worker);
        }
    }
}

/// The height below which an agent has fallen out of a world with these bounds:
/// [`FALL_MARGIN`] below its lowest point (the domain's bottom for an empty world).
fn fall_floor(bounds: &Aabb) -> f64 {
    if bounds.is_empty() {
        -MAX_COORDINATE
    } else {
        (bounds.min.z - FALL_MARGIN).max(-MAX_COORDINATE)
    }
}

/// What the script system needs to steer goto agents.
struct Steering<'a> {
    planner: Option<&'a Planner>,
    ctx: &'a mut cspace_nav::NavContext,
    params: &'a MoveParams,
    follow: &'a FollowParams,
    dt: f64,
    plans: &'a mut Vec<PlannedPath>,
}

/// Applies every script event due by `time`, then steers every goto agent along its path from
/// its own state ([`crate::navigation::follow`]): the first system of the step, before any agent
/// moves, so the groups see ordinary intents. A goto event starts a goto; any other event ends
/// one under way.
fn apply_scripts(
    world: &mut hecs::World,
    agents: &[hecs::Entity],
    time: f64,
    step: u64,
    recorder: &mut Recorder,
    steering: Steering<'_>,
) {
    // A small slack so an event at exactly k * dt fires at step k despite rounding of k * dt.
    let due = time + TIME_SLACK;
    let mut view = world.view_mut::<(
        &mut Script,
        &mut Intent,
        &mut Rest,
        &mut Follow,
        &Position,
        &Velocity,
        &Ground,
        &Pose,
    )>();
    let mut events = Vec::new();
    for (index, &entity) in agents.iter().enumerate() {
        let (script, intent, rest, follow, position, velocity, ground, pose) =
            view.get_mut(entity).expect("agents have scripts");
        if rest.left_world {
            continue;
        }
        let id = AgentId(index as u32);
        let mut fired = false;
        while let Some(event) = script.events.get(script.next).filter(|e| e.at <= due) {
            fired = true;
            if let Action::Goto(goal) = event.action {
                follow.start(goal);
            } else {
                follow.cancel();
            }
            match event.action {
                Action::Move { direction, speed } => {
                    intent.direction =
                        DVec3::new(direction.x, direction.y, 0.0).normalize_or_zero();
                    intent.speed = speed;
                }
                Action::Stop => {
                    intent.direction = DVec3::ZERO;
                    intent.speed = 0.0;
                }
                Action::Jump => intent.jump = true,
                Action::Crouch => intent.crouch = true,
                Action::Stand => intent.crouch = false,
                Action::Goto(_) => {}
            }
            script.next += 1;
        }
        let following = follow.active();
        if let (true, Some(planner)) = (following, steering.planner) {
            let now = AgentNow {
                position: position.0,
                velocity: velocity.0,
                ground: *ground,
                pose: *pose,
            };
            let mut steer = Steer {
                planner,
                ctx: &mut *steering.ctx,
                params: steering.params,
                follow: steering.follow,
                dt: steering.dt,
                step,
                agent: id,
                events: &mut events,
                plans: &mut *steering.plans,
            };
            follow.steer(&now, &mut steer, intent);
        }
        if fired || following {
            // A following agent is never at rest: it is steered every step.
            rest.still_steps = 0;
            if rest.asleep {
                rest.asleep = false;
                recorder.record(step, id, EventKind::Woke);
            }
        }
        for kind in events.drain(..) {
            recorder.record(step, id, kind);
        }
    }
}
