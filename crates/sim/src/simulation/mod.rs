//! The stepping simulator on hecs.
//!
//! [`Sim`] holds the hecs `World` of agents beside the collision backend, Blow's filter stack,
//! the counters, the recorder and the step index (the hecs README's advice for spatial indexes).
//! [`Sim::step`] calls plain system functions in a fixed order; agents are moved one at a time in
//! id order, each seeing the others where they are now. Time is `step * dt`, never accumulated.

mod movement;
mod tracer;
mod verify;

pub use verify::{InSolid, Verification};

use std::sync::Arc;
use std::time::Instant;

use cspace_contact::{AgentId, ContactTarget, FilterStack, FilterStats};
use cspace_geom::{
    Collider, DVec3, MoverCache, QueryContext, QueryCounters, Shape, UnsupportedShape,
};

use crate::agent::{
    Action, AgentSpec, Ground, Intent, Pose, PoseSet, Position, Rest, Script, Totals, TouchKey,
    Touching, Velocity,
};
use crate::params::{MoveParams, ParamError};
use crate::record::{AgentState, EventKind, Recorder, Sample};
use cspace_geom::Aabb;
use cspace_geom::tolerance::{FALL_MARGIN, MAX_COORDINATE, TIME_SLACK};
use movement::{MoveLog, MoverState};
use tracer::Tracer;

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
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            sample_every: 1,
            time_filters: false,
            verify: false,
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
    filters: FilterStack,
    recorder: Recorder,
    counters: SimCounters,
    /// Buffers reused from agent to agent.
    candidates: Vec<AgentId>,
    log: MoveLog,
    touches: Vec<TouchKey>,
    /// The exactness guard, when asked for.
    verifier: Option<verify::Verifier>,
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
    pub fn new(
        collider: Arc<dyn Collider>,
        params: MoveParams,
        dt: f64,
        agents: Vec<AgentSpec>,
        options: SimOptions,
    ) -> Result<Sim, SimError> {
        params.validate()?;
        if !(dt > 0.0 && dt <= cspace_geom::tolerance::MAX_TIME_STEP) {
            return Err(SimError::TimeStep(dt));
        }
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
            filters,
            recorder: Recorder::new(options.sample_every),
            counters: SimCounters::default(),
            candidates: Vec::new(),
            log: MoveLog::default(),
            touches: Vec::new(),
            verifier: None,
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

    /// The filter stack's counters (Blow's table).
    pub fn filter_stats(&self) -> &FilterStats {
        self.filters.stats()
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

    /// Finds the ground under every agent and frees agents that start in solid.
    fn settle(&mut self) {
        let (mut view, mut ctx) = self.split();
        for index in 0..ctx.agents.len() {
            update_agent(&mut ctx, &mut view, index, |st, tr, p, log| {
                movement::unstick(st, tr, log);
                movement::ground_check(st, tr, p, log);
            });
        }
    }

    /// Moves every awake agent once, in id order.
    fn move_agents(&mut self, dt: f64) {
        let (mut view, mut ctx) = self.split();
        for index in 0..ctx.agents.len() {
            let rest = *view
                .get_mut(ctx.agents[index])
                .expect("agents have every component")
                .rest;
            if rest.asleep || rest.left_world {
                continue;
            }
            ctx.counters.agent_steps += 1;
            update_agent(&mut ctx, &mut view, index, |st, tr, p, log| {
                movement::crouch_or_stand(st, tr, log);
                movement::walk_or_fall(st, tr, p, dt, log);
                movement::ground_check(st, tr, p, log);
            });
        }
    }

    /// The agents' components (one hecs view, its lookups prepared once per system) and the rest
    /// of the simulation, borrowed apart.
    fn split(&mut self) -> (hecs::View<'_, Mover<'_>>, StepContext<'_>) {
        (
            self.world.view_mut::<Mover>(),
            StepContext {
                collider: self.collider.as_ref(),
                queries: &mut self.queries,
                params: &self.params,
                step: self.step,
                floor: self.floor,
                agents: &self.agents,
                filters: &mut self.filters,
                recorder: &mut self.recorder,
                counters: &mut self.counters,
                candidates: &mut self.candidates,
                log: &mut self.log,
                touches: &mut self.touches,
            },
        )
    }
}

/// The components a moving agent reads and writes, by name.
#[derive(hecs::Query)]
struct Mover<'a> {
    poses: &'a PoseSet,
    pose: &'a mut Pose,
    position: &'a mut Position,
    velocity: &'a mut Velocity,
    ground: &'a mut Ground,
    intent: &'a mut Intent,
    rest: &'a mut Rest,
    totals: &'a mut Totals,
    touching: &'a mut Touching,
    cache: &'a mut MoverCache,
}

/// Everything of a [`Sim`] but its hecs world, for the systems that move agents.
struct StepContext<'a> {
    collider: &'a dyn Collider,
    queries: &'a mut QueryContext,
    params: &'a MoveParams,
    step: u64,
    floor: f64,
    agents: &'a [hecs::Entity],
    filters: &'a mut FilterStack,
    recorder: &'a mut Recorder,
    counters: &'a mut SimCounters,
    candidates: &'a mut Vec<AgentId>,
    log: &'a mut MoveLog,
    touches: &'a mut Vec<TouchKey>,
}

/// Moves agent `index`: copies it out of its components, runs `update` on it with its tracer,
/// then writes it back and records what happened (one system each).
fn update_agent(
    ctx: &mut StepContext,
    view: &mut hecs::View<'_, Mover<'_>>,
    index: usize,
    update: impl FnOnce(&mut MoverState, &mut Tracer, &MoveParams, &mut MoveLog),
) {
    let id = AgentId(index as u32);
    let mut log = std::mem::take(ctx.log);
    log.clear();
    let woken = {
        let mut mover = view
            .get_mut(ctx.agents[index])
            .expect("agents have every component");
        let before = MoverState {
            position: mover.position.0,
            velocity: mover.velocity.0,
            pose: *mover.pose,
            ground: *mover.ground,
            intent: *mover.intent,
            can_crouch: mover.poses.crouching.is_some(),
        };
        let mut after = before;
        // The agent's cache (a caching backend's state for this mover) serves its queries.
        ctx.queries.swap_mover(mover.cache);
        let mut tracer = Tracer {
            collider: ctx.collider,
            queries: &mut *ctx.queries,
            filters: &mut *ctx.filters,
            me: id,
            poses: mover.poses,
            step: ctx.step,
            candidates: &mut *ctx.candidates,
            traces: &mut ctx.counters.traces,
        };
        update(&mut after, &mut tracer, ctx.params, &mut log);
        ctx.queries.swap_mover(mover.cache);
        let left = left_world(after.position, ctx.floor);
        if left {
            after.velocity = DVec3::ZERO;
        }
        track_in_filters(ctx, id, mover.poses, &before, &after);
        write_back(&mut mover, &before, &after);
        let woken = record_contacts(ctx, id, &mut mover, &log);
        record_events(ctx, id, &log);
        if left {
            leave_world(ctx, id, mover.rest, after.position);
        } else {
            rest_or_sleep(ctx, id, mover.rest, &after, &log);
        }
        woken
    };
    for other in woken {
        wake(ctx, view, other);
    }
    *ctx.log = log;
}

/// Keeps the filter stack current for the agents that follow (most moves keep the pose, and the
/// stack holds the shape of the pose the move started in).
fn track_in_filters(
    ctx: &mut StepContext,
    id: AgentId,
    poses: &PoseSet,
    before: &MoverState,
    after: &MoverState,
) {
    if after.pose == before.pose {
        ctx.filters.move_to(id, after.position);
    } else {
        ctx.filters
            .update(id, poses.get(after.pose).shape(), after.position);
    }
}

/// Writes an agent's new state into its components, and the distance it moved into its totals.
fn write_back(mover: &mut Mover<'_>, before: &MoverState, after: &MoverState) {
    mover.position.0 = after.position;
    mover.velocity.0 = after.velocity;
    *mover.pose = after.pose;
    *mover.ground = after.ground;
    *mover.intent = after.intent;
    mover.totals.distance += after.position.distance(before.position);
}

/// Records the contacts that began in this move (a target the agent was not touching in its
/// previous move), keeps what it touches now, and returns the agents it touched (to wake).
fn record_contacts(
    ctx: &mut StepContext,
    id: AgentId,
    mover: &mut Mover<'_>,
    log: &MoveLog,
) -> Vec<AgentId> {
    let mut woken = Vec::new();
    let mut now = std::mem::take(ctx.touches);
    now.clear();
    for hit in &log.hits {
        let Some(contact) = hit.contact else { continue };
        let key = TouchKey::of(&contact.other);
        if !now.contains(&key) {
            now.push(key);
            if !mover.touching.0.contains(&key) {
                mover.totals.contacts += 1;
                ctx.recorder
                    .record(ctx.step, id, EventKind::Contact(contact));
            }
        }
        if let ContactTarget::Agent(other) = contact.other {
            woken.push(other);
        }
    }
    now.sort_unstable();
    // The previous list becomes the next agent's buffer.
    *ctx.touches = std::mem::replace(&mut mover.touching.0, now);
    woken
}

/// Records the move's other events (unsticking, refused stands: once per streak).
fn record_events(ctx: &mut StepContext, id: AgentId, log: &MoveLog) {
    for &kind in &log.events {
        ctx.recorder.record(ctx.step, id, kind);
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

/// True when an agent at `position` has left the world: below `floor`, or beyond
/// [`MAX_COORDINATE`] on any axis (the numeric domain, [`cspace_geom::domain`]).
fn left_world(position: DVec3, floor: f64) -> bool {
    let inside = position.abs().max_element() <= MAX_COORDINATE; // false for NaN too
    position.z < floor || !inside
}

/// Takes agent `id` out of the simulation where it left the world, and records it.
fn leave_world(ctx: &mut StepContext, id: AgentId, rest: &mut Rest, at: DVec3) {
    rest.left_world = true;
    rest.asleep = false;
    ctx.filters.remove(id);
    ctx.recorder
        .record(ctx.step, id, EventKind::LeftWorld { at });
}

/// Counts the steps an agent rests (on walkable ground, still, wishing nothing, nothing hit) and
/// puts it to sleep after `sleep_after_steps` of them (Blow's sleeping objects).
fn rest_or_sleep(
    ctx: &mut StepContext,
    id: AgentId,
    rest: &mut Rest,
    after: &MoverState,
    log: &MoveLog,
) {
    let resting = after.ground.walkable().is_some()
        && after.velocity == DVec3::ZERO
        && after.intent.direction == DVec3::ZERO
        && !after.intent.jump
        && (after.pose == Pose::Standing) != after.intent.crouch
        && log.hits.is_empty()
        && log.events.is_empty();
    rest.still_steps = if resting { rest.still_steps + 1 } else { 0 };
    if rest.still_steps >= ctx.params.sleep_after_steps
        && !rest.asleep
        && ctx.params.sleep_after_steps > 0
    {
        rest.asleep = true;
        ctx.recorder.record(ctx.step, id, EventKind::Slept);
    }
}

/// Wakes agent `id` (another agent touched it).
fn wake(ctx: &mut StepContext, view: &mut hecs::View<'_, Mover<'_>>, id: AgentId) {
    let mover = view
        .get_mut(ctx.agents[id.0 as usize])
        .expect("agents have every component");
    mover.rest.still_steps = 0;
    if mover.rest.asleep {
        mover.rest.asleep = false;
        ctx.recorder.record(ctx.step, id, EventKind::Woke);
    }
}

/// Applies every script event due by `time`: the first system of the step.
fn apply_scripts(
    world: &mut hecs::World,
    agents: &[hecs::Entity],
    time: f64,
    step: u64,
    recorder: &mut Recorder,
) {
    // A small slack so an event at exactly k * dt fires at step k despite rounding of k * dt.
    let due = time + TIME_SLACK;
    let mut view = world.view_mut::<(&mut Script, &mut Intent, &mut Rest)>();
    for (index, &entity) in agents.iter().enumerate() {
        let (script, intent, rest) = view.get_mut(entity).expect("agents have scripts");
        if rest.left_world {
            continue;
        }
        let mut fired = false;
        while let Some(event) = script.events.get(script.next).filter(|e| e.at <= due) {
            fired = true;
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
            }
            script.next += 1;
        }
        if fired {
            rest.still_steps = 0;
            if rest.asleep {
                rest.asleep = false;
                recorder.record(step, AgentId(index as u32), EventKind::Woke);
            }
        }
    }
}
