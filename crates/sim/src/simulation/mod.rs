//! The stepping simulator on hecs, driven one step at a time.
//!
//! [`Sim`] holds the hecs `World` of agents beside the collision backend, Blow's filter stack,
//! the counters, the recorder and the step index (the hecs README's advice for spatial indexes).
//! A caller spawns agents ([`Sim::spawn`]), sets what they want ([`Sim::set_intent`]), steps
//! ([`Sim::step`]) and reads them back ([`Sim::agent`], [`Sim::states`], [`Sim::drain_events`]),
//! as rapier's `KinematicCharacterController::move_shape`, Jolt's `CharacterVirtual` and
//! MuJoCo's `mj_step` are driven. Scripts are one such caller ([`crate::Scripts`]).
//!
//! [`Sim::step`] calls plain system functions in a fixed order: settling agents placed since the
//! last step, steering (goto agents) and waking, then moving. Agents move in interaction groups
//! (`simulation/groups.rs`): the agents that can touch within a (sub)step, moved one at a time in
//! id order, each seeing the others where they are now; groups are independent, so they move on
//! rayon's threads and the result is the sequential one, bit for bit, on any number of threads.
//! Time is `step * dt`, never accumulated.

mod groups;
mod liquids;
mod living;
mod tracer;
mod verify;

pub use liquids::Liquids;
pub use living::Living;
pub use verify::{InSolid, Verification};

use std::sync::{Arc, Mutex};
use std::time::Instant;

use cspace_contact::{FilterStack, FilterStats, Slot};
use cspace_geom::{
    Collider, DVec3, MoverCache, QueryContext, QueryCounters, Shape, UnsupportedShape,
};
use rayon::prelude::*;

use crate::agent::{
    AgentId, AgentSpec, AgentState, Ground, Pending, Placed, Pose, PoseSet, Position, Rest, Totals,
    Touching, Velocity,
};
use crate::intent::Intent;
use crate::navigation::follow::{AgentNow, Steer};
use crate::navigation::{Follow, FollowParams, PlanError, PlannedPath, Planner};
use crate::params::{MoveParams, ParamError};
use crate::record::{Event, EventKind, Recorder, Recording, Sample};
use cspace_geom::Aabb;
use cspace_geom::tolerance::{FALL_MARGIN, MAX_COORDINATE};
use groups::{GroupOutcome, Mover, Partition, Phase, Shared, Worker};

/// Why a simulation cannot be built, or refuses a call.
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
    /// An agent's start, velocity or intent is outside the numeric domain.
    #[error("agent {agent} {what}: {error}")]
    OutOfDomain {
        /// The agent.
        agent: AgentId,
        /// What of it (`start`, `velocity`, `speed`, `goto target`, ...).
        what: &'static str,
        /// The value and the limit.
        error: cspace_geom::domain::OutOfDomain,
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
    /// A pose grown by the profile's trace epsilon ([`MoveParams::trace_epsilon`]) leaves the
    /// numeric domain.
    #[error("agent {agent}: {shape} grown by the trace epsilon {by}: {error}")]
    GrownShape {
        /// The agent.
        agent: AgentId,
        /// The shape.
        shape: String,
        /// The trace epsilon.
        by: f64,
        /// Why the grown shape is not valid.
        error: cspace_geom::ShapeError,
    },
    /// The planner of the goto agents cannot be built, or has no graph for an agent.
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
    /// No agent has this id (never spawned, or despawned).
    #[error("no agent {agent} in the simulation")]
    UnknownAgent {
        /// The id asked for.
        agent: AgentId,
    },
    /// A teleport into solid: the agent's shape in its pose overlaps the world there.
    #[error(
        "agent {agent} cannot be teleported to ({}, {}, {}): its {} shape is in solid there",
        position.x, position.y, position.z, pose.name()
    )]
    TeleportIntoSolid {
        /// The agent.
        agent: AgentId,
        /// Where it was to go.
        position: DVec3,
        /// Its pose.
        pose: Pose,
    },
    /// An intent for an agent that left the world: teleport it back first.
    #[error("agent {agent} has left the world; teleport it back before setting its intent")]
    LeftWorld {
        /// The agent.
        agent: AgentId,
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

/// How a simulation runs: the physics (movement constants, time step), what it keeps, and what
/// it checks (Jolt's `CharacterVirtualSettings`, rapier's `IntegrationParameters`: a settings
/// struct with defaults, fields public).
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// The movement constants (Quake's by default).
    pub params: MoveParams,
    /// Seconds per step: 1/64 by default (a binary fraction, so `step * dt` is exact; Quake III
    /// moves players at the client's frame rate, 125 Hz in competitive play). At most
    /// [`MAX_TIME_STEP`](cspace_geom::tolerance::MAX_TIME_STEP); longer than
    /// [`MoveParams::max_substep`] it is split into equal sub-steps.
    pub dt: f64,
    /// What the simulation keeps of its history: [`Recording::Off`] by default.
    pub recording: Recording,
    /// Check every agent's position with the exact reference's point query after it is settled
    /// and after every step ([`Sim::verification`]; not counted in the step's time).
    pub verify: bool,
    /// Time each filter of Blow's stack (costs a clock read per filter and pair).
    pub time_filters: bool,
    /// The fewest agents a step moves in parallel groups (with several threads); smaller crowds
    /// step in order on the calling thread, where the groups would cost more than they save.
    /// The answers are the same either way.
    pub parallel_from: usize,
    /// The planner of goto agents, built beforehand for the same world ([`Planner::build`]);
    /// `None`: an intent with a goto is refused.
    pub planner: Option<Arc<Planner>>,
    /// The goto follower's constants.
    pub follow: FollowParams,
    /// The living world: movers that move and push, and the triggers that set them going
    /// (issue 32, `docs/entities.md`); `None` (the default): the world is the collider's alone,
    /// and nothing moves but the agents.
    pub living: Option<Living>,
    /// The seed of the simulation's own generator: what Quake III leaves to chance (a
    /// teleporter's pick among its destinations, `G_PickTarget`) is drawn from it, in the
    /// step's fixed order, so a run ends on the same bits on every run and thread count. 0 by
    /// default.
    pub seed: u64,
}

/// [`SimConfig::parallel_from`]'s default: on two cores a crowd of 1,000 Quake players steps
/// no faster in groups (measured: 0.85 to 0.95 times one thread), 10,000 do (1.25 to 1.5 times).
pub const PARALLEL_FROM: usize = 2000;

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            params: MoveParams::default(),
            dt: 1.0 / 64.0,
            recording: Recording::Off,
            verify: false,
            time_filters: false,
            parallel_from: PARALLEL_FROM,
            planner: None,
            follow: FollowParams::default(),
            living: None,
            seed: 0,
        }
    }
}

/// A simulation: agents on hecs, a collision backend, and the step.
///
/// Drive it step by step:
///
/// ```
/// use std::sync::Arc;
/// use cspace_geom::{Aabb, Brush, DVec3, ExactCollider, Shape, World};
/// use cspace_sim::{AgentSpec, Intent, Sim, SimConfig};
///
/// let floor = Brush::from_aabb(Aabb::new(DVec3::new(-512.0, -512.0, -16.0), DVec3::new(512.0, 512.0, 0.0)))?;
/// let world = Arc::new(World::from_brushes([floor]));
/// let mut sim = Sim::new(Arc::new(ExactCollider::new(world)), SimConfig::default())?;
/// let player = Shape::new_box(DVec3::new(-16.0, -16.0, -24.0), DVec3::new(16.0, 16.0, 32.0))?;
/// let id = sim.spawn(AgentSpec::new(player, DVec3::new(0.0, 0.0, 24.5)))?;
/// for _ in 0..64 {
///     sim.set_intent(id, Intent::walk(DVec3::X, 320.0))?;
///     sim.step();
/// }
/// let me = sim.agent(id)?;
/// assert!(me.on_ground && me.position.x > 200.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    /// Per agent id, its entity (`None` once despawned). Ids are never reused.
    agents: Vec<Option<hecs::Entity>>,
    /// The ids of the agents in the simulation, ascending.
    live: Vec<AgentId>,
    /// Agents spawned or teleported since the last settling.
    unsettled: bool,
    recorder: Recorder,
    counters: SimCounters,
    /// Every agent where it is now, by its rank in `live`, for the sequential step and settling
    /// (unless stale).
    filters: FilterStack,
    /// The agents moved, came or went since `filters` was current.
    filters_stale: bool,
    /// Blow's table of the groups' own filter stacks (parallel steps), summed.
    group_filter_stats: FilterStats,
    /// Time each filter.
    time_filters: bool,
    /// [`SimConfig::parallel_from`].
    parallel_from: usize,
    /// The scratch of the calling thread, and of the other workers between steps.
    worker: Worker,
    workers: Mutex<Vec<Worker>>,
    /// The step's interaction groups, and every agent's reach (by rank).
    partition: Partition,
    reaches: Vec<Option<Aabb>>,
    /// The exactness guard, when asked for.
    verifier: Option<verify::Verifier>,
    /// The goto agents' planner, its scratch and the follower's constants.
    planner: Option<Arc<Planner>>,
    nav_ctx: cspace_nav::NavContext,
    follow_params: FollowParams,
    /// Every path planned so far, in order (kept when recording).
    plans: Vec<PlannedPath>,
    /// The movers, their scene and their clock, when the world lives.
    living: Option<Box<living::LivingState>>,
}

impl std::fmt::Debug for Sim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sim")
            .field("backend", &self.collider.name())
            .field("step", &self.step)
            .field("agents", &self.live.len())
            .finish()
    }
}

fn is_agent_shape(shape: &Shape) -> bool {
    !matches!(shape, Shape::Hull(_))
}

/// The components a caller's read of one agent needs, by name.
#[derive(hecs::Query)]
struct Read<'a> {
    id: &'a AgentId,
    position: &'a Position,
    velocity: &'a Velocity,
    pose: &'a Pose,
    ground: &'a Ground,
    rest: &'a Rest,
    water: &'a crate::movement::Water,
}

impl Read<'_> {
    fn state(&self) -> AgentState {
        AgentState {
            id: *self.id,
            position: self.position.0,
            velocity: self.velocity.0,
            pose: *self.pose,
            on_ground: self.ground.walkable().is_some(),
            asleep: self.rest.asleep,
            water_level: self.water.level,
            liquid: self.water.liquid,
        }
    }
}

/// The components steering and waking read and write, by name.
#[derive(hecs::Query)]
struct Steered<'a> {
    intent: &'a mut Intent,
    rest: &'a mut Rest,
    pending: &'a mut Pending,
    follow: &'a mut Follow,
    position: &'a Position,
    velocity: &'a Velocity,
    ground: &'a Ground,
    pose: &'a Pose,
}

impl Sim {
    /// An empty simulation of the world `collider` answers for, stepping as `config` says.
    pub fn new(collider: Arc<dyn Collider>, config: SimConfig) -> Result<Sim, SimError> {
        let SimConfig {
            params,
            dt,
            recording,
            verify,
            time_filters,
            parallel_from,
            planner,
            follow,
            living,
            seed,
        } = config;
        params.validate()?;
        if !(dt > 0.0 && dt <= cspace_geom::tolerance::MAX_TIME_STEP) {
            return Err(SimError::TimeStep(dt));
        }
        if let Some(p) = &planner {
            p.check_world(collider.world())?;
        }
        let floor = fall_floor(&collider.world().bounds());
        let living = living
            .map(|l| living::LivingState::new(collider.clone(), l, dt, seed))
            .transpose()?
            .map(Box::new);
        let verifier = verify.then(|| {
            verify::Verifier::new(
                collider.world().clone(),
                living
                    .as_ref()
                    .map(|l| l.mover_worlds())
                    .unwrap_or_default(),
            )
        });
        Ok(Sim {
            world: hecs::World::new(),
            floor,
            collider,
            queries: QueryContext::new(),
            params,
            dt,
            step: 0,
            agents: Vec::new(),
            live: Vec::new(),
            unsettled: false,
            recorder: Recorder::new(recording),
            counters: SimCounters::default(),
            filters: FilterStack::new(params.grid_cell, time_filters),
            filters_stale: false,
            group_filter_stats: FilterStats::default(),
            time_filters,
            parallel_from,
            worker: Worker::new(&params, time_filters),
            workers: Mutex::new(Vec::new()),
            partition: Partition::default(),
            reaches: Vec::new(),
            verifier,
            planner,
            nav_ctx: cspace_nav::NavContext::new(),
            follow_params: follow,
            plans: Vec::new(),
            living,
        })
    }

    /// Adds an agent; its id is the next one (0, 1, 2, ... in spawn order, never reused). It is
    /// settled (freed if it starts in solid, its ground found) by the next [`Sim::settle`] or
    /// [`Sim::step`]: agents spawned together are settled together, in id order, as a scenario's
    /// agents are before its first step.
    pub fn spawn(&mut self, spec: AgentSpec) -> Result<AgentId, SimError> {
        let id = AgentId(self.agents.len() as u32);
        spec.check_domain()
            .map_err(|(what, error)| SimError::OutOfDomain {
                agent: id,
                what,
                error,
            })?;
        for shape in std::iter::once(&spec.standing).chain(spec.crouching.as_ref()) {
            if !is_agent_shape(shape) {
                return Err(SimError::AgentShape {
                    agent: id,
                    shape: shape.describe(),
                });
            }
            if self.params.trace_epsilon > 0.0 {
                crate::agent::try_grown(shape, self.params.trace_epsilon).map_err(|error| {
                    SimError::GrownShape {
                        agent: id,
                        shape: shape.describe(),
                        by: self.params.trace_epsilon,
                        error,
                    }
                })?;
            }
        }
        let poses = PoseSet::prepare(
            tracer(&self.collider, &self.living),
            &self.params,
            &spec.standing,
            spec.crouching.as_ref(),
        )
        .map_err(|error| SimError::Unsupported { agent: id, error })?;
        let pose = if spec.start_crouched && poses.crouching.is_some() {
            Pose::Crouching
        } else {
            Pose::Standing
        };
        let mesh = self
            .planner
            .as_ref()
            .and_then(|p| p.mesh_index(&spec.standing, spec.crouching.as_ref()));
        let entity = self.world.spawn((
            id,
            poses,
            pose,
            Position(spec.start),
            Velocity(spec.velocity),
            Intent {
                crouch: pose == Pose::Crouching,
                ..Intent::default()
            },
            Ground::Air,
            Rest::default(),
            Pending {
                commanded: false,
                settle: Some(Placed::Spawned),
            },
            crate::movement::MoveTimer::default(),
            crate::movement::Water::default(),
            Totals::default(),
            Touching::default(),
            MoverCache::default(),
            Follow::new(mesh),
        ));
        self.agents.push(Some(entity));
        self.live.push(id);
        self.unsettled = true;
        self.filters_stale = true;
        Ok(id)
    }

    /// Removes an agent. Its id is not reused; its events stay in the record.
    pub fn despawn(&mut self, id: AgentId) -> Result<(), SimError> {
        let entity = self.entity(id)?;
        self.world
            .despawn(entity)
            .expect("a live agent has an entity");
        self.agents[id.0 as usize] = None;
        let at = self
            .live
            .binary_search(&id)
            .expect("a live agent is listed");
        self.live.remove(at);
        self.filters_stale = true;
        Ok(())
    }

    /// Moves an agent to `position` with `velocity`, in its current pose, as it is: no trace on
    /// the way, no contact. Refused when the place is outside the numeric domain or the agent's
    /// shape is in solid there ([`SimError::TeleportIntoSolid`]); overlapping another agent is
    /// allowed (the next step frees it, as it frees agents spawned on one another). An agent that
    /// left the world comes back. The agent wakes, and its ground is found at the next
    /// settling; a goto under way goes on from there.
    pub fn teleport(
        &mut self,
        id: AgentId,
        position: DVec3,
        velocity: DVec3,
    ) -> Result<(), SimError> {
        let entity = self.entity(id)?;
        let spec = AgentSpec {
            velocity,
            ..AgentSpec::new(Shape::Sphere { radius: 0.0 }, position)
        };
        spec.check_domain()
            .map_err(|(what, error)| SimError::OutOfDomain {
                agent: id,
                what,
                error,
            })?;
        let solid = {
            let mut query = self.world.query_one::<(&PoseSet, &Pose)>(entity);
            let (poses, pose) = query.get().expect("agents have every component");
            tracer(&self.collider, &self.living)
                .is_solid(&mut self.queries, poses.get(*pose), position)
                .then_some(*pose)
        };
        if let Some(pose) = solid {
            return Err(SimError::TeleportIntoSolid {
                agent: id,
                position,
                pose,
            });
        }
        self.place(entity, position, velocity);
        Ok(())
    }

    /// Puts an agent at `position` with `velocity`, in the air, woken, its ground found and
    /// (cspace's profile) freed from other agents at the next settling: what [`Sim::teleport`]
    /// and a teleporter do once the place is known to be free of the world.
    fn place(&mut self, entity: hecs::Entity, position: DVec3, velocity: DVec3) {
        let mut query = self.world.query_one::<(
            &mut Position,
            &mut Velocity,
            &mut Ground,
            &mut Rest,
            &mut Pending,
            &mut Touching,
        )>(entity);
        let (at, speed, ground, rest, pending, touching) =
            query.get().expect("agents have every component");
        at.0 = position;
        speed.0 = velocity;
        *ground = Ground::Air;
        rest.left_world = false;
        touching.0.clear();
        pending.commanded = true;
        if pending.settle.is_none() {
            pending.settle = Some(Placed::Teleported);
        }
        self.unsettled = true;
        self.filters_stale = true;
    }

    /// Sets what an agent wants from the next step on ([`Intent`]): the direction (its
    /// horizontal part, normalised), speed, jump, crouch, view and goto. A goto other than the
    /// one under way (or `None`) ends it and starts the new one, planned at the next step.
    /// Setting an intent wakes the agent at the next step, as a script event does. Refused for
    /// an agent that left the world, for numbers outside the domain, and for a goto when the
    /// simulation has no planner for the agent's poses.
    pub fn set_intent(&mut self, id: AgentId, intent: Intent) -> Result<(), SimError> {
        let entity = self.entity(id)?;
        intent
            .check_domain()
            .map_err(|(what, error)| SimError::OutOfDomain {
                agent: id,
                what,
                error,
            })?;
        let mut query = self
            .world
            .query_one::<(&mut Intent, &mut Follow, &mut Pending, &Rest)>(entity);
        let (current, follow, pending, rest) = query.get().expect("agents have every component");
        if rest.left_world {
            return Err(SimError::LeftWorld { agent: id });
        }
        if intent.goto.is_some() && follow.mesh.is_none() {
            return Err(PlanError::NotPlanned { agent: id.0 }.into());
        }
        if intent.goto != current.goto {
            match intent.goto {
                Some(goal) => follow.start(goal),
                None => follow.cancel(),
            }
        }
        *current = intent.normalised();
        pending.commanded = true;
        Ok(())
    }

    /// What an agent wants now: the intent last set, as the steps since changed it (a jump
    /// taken, a goto's steering, a goto ended).
    pub fn intent(&self, id: AgentId) -> Result<Intent, SimError> {
        let entity = self.entity(id)?;
        Ok(*self
            .world
            .get::<&Intent>(entity)
            .expect("agents have an intent"))
    }

    /// One agent's state now (no allocation).
    pub fn agent(&self, id: AgentId) -> Result<AgentState, SimError> {
        let entity = self.entity(id)?;
        let mut query = self.world.query_one::<Read>(entity);
        Ok(query.get().expect("agents have every component").state())
    }

    /// Every agent's state now, in id order.
    pub fn states(&self) -> impl ExactSizeIterator<Item = AgentState> + '_ {
        self.live.iter().map(|&id| {
            self.agent(id)
                .expect("every listed agent is in the simulation")
        })
    }

    /// Every agent's state now, in id order, into `out` (cleared first): what [`Sim::states`]
    /// yields, read in one pass over the agents instead of one look-up each (for a caller that
    /// reads every agent every step, as the Python environment does).
    pub fn states_into(&self, out: &mut Vec<AgentState>) {
        out.clear();
        let mut query = self.world.query::<Read>();
        out.extend(query.iter().map(|r| r.state()));
        // hecs lists an archetype's entities in spawn order until a despawn fills its gap.
        if !out.is_sorted_by_key(|s| s.id.0) {
            out.sort_unstable_by_key(|s| s.id.0);
        }
    }

    /// True when `id` is an agent of the simulation (spawned, not despawned).
    pub fn contains(&self, id: AgentId) -> bool {
        self.entity(id).is_ok()
    }

    /// True when the agent left the world ([`EventKind::LeftWorld`]) and was not teleported
    /// back.
    pub fn has_left_world(&self, id: AgentId) -> Result<bool, SimError> {
        let entity = self.entity(id)?;
        Ok(self
            .world
            .get::<&Rest>(entity)
            .expect("agents rest")
            .left_world)
    }

    /// An agent's totals since it was spawned: distance, contacts, steps on the ground.
    pub fn totals(&self, id: AgentId) -> Result<Totals, SimError> {
        let entity = self.entity(id)?;
        Ok(*self
            .world
            .get::<&Totals>(entity)
            .expect("agents have totals"))
    }

    /// The ids of the agents in the simulation, ascending.
    pub fn ids(&self) -> &[AgentId] {
        &self.live
    }

    /// The events not handed over yet (by an earlier call), now handed over: every event since
    /// the last call when recording, else those of the last step (or settling).
    pub fn drain_events(&mut self) -> &[Event] {
        self.recorder.drain()
    }

    /// The events kept ([`SimConfig::recording`]): every event since the start when
    /// recording, else the last step's.
    pub fn events(&self) -> &[Event] {
        &self.recorder.events
    }

    /// The sampled states ([`Recording::Sampled`]; empty otherwise).
    pub fn samples(&self) -> &[Sample] {
        &self.recorder.samples
    }

    /// The step index (steps taken so far).
    pub fn step_index(&self) -> u64 {
        self.step
    }

    /// Seconds per step.
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The simulated time, seconds: `step * dt`.
    pub fn time(&self) -> f64 {
        self.step as f64 * self.dt
    }

    /// The backend's name.
    pub fn backend(&self) -> &str {
        self.collider.name()
    }

    /// The backend.
    pub fn collider(&self) -> &Arc<dyn Collider> {
        &self.collider
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

    /// A fingerprint of every agent's state (FNV-1a over the bits of its position, velocity,
    /// pose, ground contact and sleep, in id order): runs that end on the same bits end on the
    /// same fingerprint, so determinism across runs, machines and backends is one comparison
    /// (`sim bench` prints it per crowd and backend). No allocation.
    pub fn state_hash(&self) -> u64 {
        let mut hash = cspace_geom::world::Fnv1a64::new();
        for s in self.states() {
            for x in [s.position, s.velocity].iter().flat_map(|v| v.to_array()) {
                hash.write(&x.to_bits().to_le_bytes());
            }
            hash.write(&[
                u8::from(s.pose == Pose::Crouching),
                u8::from(s.on_ground),
                u8::from(s.asleep),
            ]);
        }
        hash.finish()
    }

    /// Every path the goto agents planned so far, in order (kept when recording).
    pub fn plans(&self) -> &[PlannedPath] {
        &self.plans
    }

    /// The goto agents' planner, when the simulation has one.
    pub fn planner(&self) -> Option<&Arc<Planner>> {
        self.planner.as_ref()
    }

    /// Gives the simulation its goto agents' planner after it was made (a living world's planner
    /// aims its jump pads where this simulation's picks send them, [`Sim::jump_pad_apexes`]),
    /// as [`SimConfig::planner`] would: built for the same world, else an error. Agents already
    /// spawned take their graph from it.
    pub fn set_planner(&mut self, planner: Arc<Planner>) -> Result<(), SimError> {
        planner.check_world(self.collider.world())?;
        for entity in self.agents.iter().flatten() {
            let (poses, follow) = self
                .world
                .query_one_mut::<(&PoseSet, &mut Follow)>(*entity)
                .expect("agents have every component");
            let crouching = poses.crouching.as_ref().map(|c| c.shape());
            follow.mesh = planner.mesh_index(poses.standing.shape(), crouching);
        }
        self.planner = Some(planner);
        Ok(())
    }

    /// What the exactness guard found ([`SimConfig::verify`]); `None` when it is off.
    pub fn verification(&self) -> Option<&Verification> {
        self.verifier.as_ref().map(|v| &v.found)
    }

    fn entity(&self, id: AgentId) -> Result<hecs::Entity, SimError> {
        self.agents
            .get(id.0 as usize)
            .copied()
            .flatten()
            .ok_or(SimError::UnknownAgent { agent: id })
    }

    /// The exactness guard: every agent of `ids` still in the world, at its position and in its
    /// pose.
    fn verify(&mut self, ids: &[AgentId]) {
        let Some(verifier) = self.verifier.as_mut() else {
            return;
        };
        if let Some(living) = &self.living {
            verifier.drop_removed(living.scene().removed());
        }
        for &id in ids {
            let entity = self.agents[id.0 as usize].expect("a live agent");
            let mut query = self
                .world
                .query_one::<(&PoseSet, &Pose, &Position, &Rest)>(entity);
            let (poses, pose, position, rest) = query.get().expect("agents have every component");
            if !rest.left_world {
                let shape = poses.get(*pose).shape();
                let offsets = self.living.as_ref().map_or(&[][..], |l| l.offsets());
                verifier.check(self.step, id, shape, *pose, position.0, offsets);
            }
        }
    }

    /// Runs `steps` steps.
    pub fn run(&mut self, steps: u64) {
        for _ in 0..steps {
            self.step();
        }
    }

    /// One step of `dt` seconds, split into equal sub-steps of at most `max_substep`: agents
    /// placed since the last step are settled first ([`Sim::settle`]), then goto agents are
    /// steered and agents whose intent was set wake, then every awake agent moves.
    pub fn step(&mut self) {
        self.recorder.begin_step();
        self.settle();
        let clock = Instant::now();
        self.step += 1;
        self.steer_and_wake();
        let params = self.params;
        for sub_dt in params.substeps(self.dt) {
            self.move_agents(sub_dt);
        }
        if self.living.is_some() {
            self.run_movers();
        }
        // Time on ground, per step (asleep agents rest on ground too).
        for (ground, totals) in self.world.query_mut::<(&Ground, &mut Totals)>() {
            if ground.walkable().is_some() {
                totals.steps_on_ground += 1;
            }
        }
        self.counters.steps += 1;
        self.counters.nanos += clock.elapsed().as_nanos() as u64;
        if self.verifier.is_some() {
            let live = std::mem::take(&mut self.live);
            self.verify(&live);
            self.live = live;
        }
        if self.recorder.samples_at(self.step) {
            self.sample();
        }
    }

    /// Records every agent's current state as the sample of this step (recording samples; a
    /// run's end calls it for its last step).
    pub fn sample(&mut self) {
        if matches!(self.recorder.recording, Recording::Sampled { .. }) {
            let states = self.states().collect();
            self.recorder.sample(self.step, states);
        }
    }

    /// Settles the agents spawned or teleported since the last settling, in id order, the
    /// others standing where they are: an agent in solid (or in another agent) is freed (Quake
    /// III's `PM_CorrectAllSolid`, then a wider search; recorded as `Unstuck`), and its ground
    /// is found. Settling is not part of the run: finding the ground under an agent placed on
    /// it is not a contact, and a spawned agent's totals start after it. [`Sim::step`] calls it
    /// first; call it to read settled states before the first step.
    pub fn settle(&mut self) {
        if !self.unsettled {
            return;
        }
        self.unsettled = false;
        let settled: Vec<(AgentId, Placed)> = self
            .world
            .query_mut::<(&AgentId, &Pending)>()
            .into_iter()
            .filter_map(|(id, p)| p.settle.map(|placed| (*id, placed)))
            .collect();
        self.run_in_order(Phase::Settle);
        let mut ids = Vec::with_capacity(settled.len());
        for (id, placed) in settled {
            let entity = self.agents[id.0 as usize].expect("a settled agent is live");
            let mut query = self.world.query_one::<(&mut Pending, &mut Totals)>(entity);
            let (pending, totals) = query.get().expect("agents have every component");
            pending.settle = None;
            if placed == Placed::Spawned {
                *totals = Totals::default();
            }
            ids.push(id);
        }
        ids.sort_unstable();
        self.verify(&ids);
        if self.recorder.samples_at(self.step) {
            self.sample();
        }
    }

    /// Steers every goto agent along its path from its own state ([`crate::navigation::follow`])
    /// and wakes the agents whose intent was set: the first system of the step, before any
    /// agent moves, so the groups see ordinary intents.
    fn steer_and_wake(&mut self) {
        let step = self.step;
        let record = self.recorder.recording != Recording::Off;
        let mut view = self.world.view_mut::<Steered>();
        let mut events = Vec::new();
        for &id in &self.live {
            let entity = self.agents[id.0 as usize].expect("a live agent");
            let Steered {
                intent,
                rest,
                pending,
                follow,
                position,
                velocity,
                ground,
                pose,
            } = view.get_mut(entity).expect("agents have every component");
            let commanded = std::mem::take(&mut pending.commanded);
            if rest.left_world {
                continue;
            }
            let following = follow.active();
            if let (true, Some(planner)) = (following, self.planner.as_deref()) {
                let now = AgentNow {
                    position: position.0,
                    velocity: velocity.0,
                    ground: *ground,
                    pose: *pose,
                };
                let mut steer = Steer {
                    planner,
                    ctx: &mut self.nav_ctx,
                    params: &self.params,
                    follow: &self.follow_params,
                    dt: self.dt,
                    step,
                    agent: id,
                    events: &mut events,
                    plans: &mut self.plans,
                };
                follow.steer(&now, &mut steer, intent);
                if !follow.active() {
                    intent.goto = None;
                }
                if !record {
                    self.plans.clear();
                }
            }
            if commanded || following {
                // A following agent is never at rest: it is steered every step.
                rest.still_steps = 0;
                if rest.asleep {
                    rest.asleep = false;
                    self.recorder.record(step, id, EventKind::Woke);
                }
            }
            for kind in events.drain(..) {
                self.recorder.record(step, id, kind);
            }
        }
    }

    /// Runs `phase` on every agent in id order, on the calling thread, with the simulation's
    /// filter stack: settling, and the sequential step.
    fn run_in_order(&mut self, phase: Phase) {
        self.refresh_filters();
        let shared = Shared {
            collider: tracer(&self.collider, &self.living),
            params: &self.params,
            step: self.step,
            floor: self.floor,
            liquids: self.living.as_ref().and_then(|l| l.liquids()),
            scene: self.living.as_ref().map(|l| l.scene()),
        };
        let mut movers = self
            .world
            .query_mut::<Mover>()
            .into_iter()
            .collect::<Vec<_>>();
        // hecs lists agents spawned together in spawn order, which is id order: usually sorted.
        if !movers.is_sorted_by_key(|m| m.id.0) {
            movers.sort_unstable_by_key(|m| m.id.0);
        }
        let mut outcome = groups::run_group(
            &mut self.worker,
            shared,
            &mut movers,
            phase,
            Some(&mut self.filters),
        );
        drop(movers);
        if let Phase::Settle = phase {
            // Finding the ground under an agent placed on it is not a contact of the run.
            outcome
                .events
                .retain(|(.., kind)| !matches!(kind, EventKind::Contact(_)));
        } else {
            self.counters.groups += 1;
        }
        self.merge(vec![outcome]);
    }

    /// Moves every awake agent once, in id order: on one thread, every agent in turn (the
    /// sequential step); on several, the interaction groups, each in id order, on rayon's threads,
    /// which gives the same bits.
    fn move_agents(&mut self, dt: f64) {
        if rayon::current_num_threads() == 1 || self.live.len() < self.parallel_from {
            self.run_in_order(Phase::Move(dt));
            return;
        }
        let shared = Shared {
            collider: tracer(&self.collider, &self.living),
            params: &self.params,
            step: self.step,
            floor: self.floor,
            liquids: self.living.as_ref().and_then(|l| l.liquids()),
            scene: self.living.as_ref().map(|l| l.scene()),
        };
        let clock = Instant::now();
        let mut movers: Vec<Mover> = self.world.query_mut::<Mover>().into_iter().collect();
        if !movers.is_sorted_by_key(|m| m.id.0) {
            movers.sort_unstable_by_key(|m| m.id.0);
        }
        // Every agent by its rank (its place in id order); liquids can set a velocity (a water
        // jump, Quake 1's swim up) beyond what the step adds on land.
        let water = shared.liquids.map(|l| groups::water_reach(l.params()));
        self.reaches.clear();
        self.reaches.extend(
            movers
                .iter()
                .map(|m| (!m.rest.left_world).then(|| groups::reach(m, &self.params, water, dt))),
        );
        self.partition.split(&self.reaches);
        if self.partition.len() < 2 {
            // One group holds every agent (a packed crowd): nothing to share between threads,
            // and the sequential step skips the groups' own filter stacks (issue 36: a packed
            // crowd of 100,000 stepped 17 % slower on two threads than on one).
            drop(movers);
            self.run_in_order(Phase::Move(dt));
            return;
        }
        let partition = &self.partition;
        // Every agent with a reach, group after group (each group's in id order); the agents
        // that left the world last, in no group.
        let mut ranked: Vec<(u32, u32, Mover)> = movers
            .into_iter()
            .enumerate()
            .map(|(rank, m)| (partition.rank[rank], rank as u32, m))
            .collect();
        ranked.sort_unstable_by_key(|r| r.0);
        ranked.truncate(partition.members.len());
        let ranks: Vec<u32> = ranked.iter().map(|r| r.1).collect();
        let mut movers: Vec<Mover> = ranked.into_iter().map(|r| r.2).collect();
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
            for (mover, &rank) in movers.iter().zip(&ranks) {
                let reach = self.reaches[rank as usize].expect("moved agents have a reach");
                let bounds = mover
                    .poses
                    .get(*mover.pose)
                    .shape()
                    .bounds()
                    .translated(mover.position.0);
                assert!(
                    mover.rest.left_world
                        || (reach.min.cmple(bounds.min).all() && bounds.max.cmple(reach.max).all()),
                    "agent {} left its reach {reach:?}: {bounds:?}",
                    mover.id
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

    /// Rebuilds the simulation's filter stack after agents moved without it, came or went:
    /// every agent by its rank in id order.
    fn refresh_filters(&mut self) {
        if !self.filters_stale {
            return;
        }
        let stats = self.filters.take_stats();
        self.group_filter_stats.merge(&stats);
        self.filters.clear();
        let filters = &mut self.filters;
        for_each_body(
            &self.world,
            &self.live,
            &self.agents,
            |slot, shape, at, left| {
                filters.insert(slot, shape, at);
                if left {
                    filters.remove(slot);
                }
            },
        );
        self.filters_stale = false;
    }

    /// Debug builds: a filter stack kept current move by move (the step's agents, the movers'
    /// pushes) holds what [`Sim::refresh_filters`] would rebuild: every agent's body where the
    /// agent is, in its pose.
    #[cfg(debug_assertions)]
    fn assert_filters_current(&self) {
        if self.filters_stale {
            return;
        }
        for_each_body(
            &self.world,
            &self.live,
            &self.agents,
            |slot, shape, at, left| {
                let body = self.filters.body(slot);
                assert!(
                    left || (body.position() == at && body.shape() == shape),
                    "the filter stack holds agent of rank {} at {} where it is at {at}",
                    slot.0,
                    body.position(),
                );
            },
        );
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

/// The collider agents are traced against: the scene of the static world and the movers where
/// they are when the world lives, else the static world's.
/// Calls `each` with every live agent in id order: its rank (its slot in the simulation's filter
/// stack), its shape in its pose, its position, and whether it left the world.
fn for_each_body(
    world: &hecs::World,
    live: &[AgentId],
    agents: &[Option<hecs::Entity>],
    mut each: impl FnMut(Slot, &Shape, DVec3, bool),
) {
    let mut view = world.view::<(&PoseSet, &Pose, &Position, &Rest)>();
    for (rank, &id) in live.iter().enumerate() {
        let entity = agents[id.0 as usize].expect("a live agent");
        let (poses, pose, position, rest) =
            view.get_mut(entity).expect("agents have every component");
        each(
            Slot(rank as u32),
            poses.get(*pose).shape(),
            position.0,
            rest.left_world,
        );
    }
}

fn tracer<'a>(
    collider: &'a Arc<dyn Collider>,
    living: &'a Option<Box<living::LivingState>>,
) -> &'a dyn Collider {
    match living {
        Some(l) => l.scene(),
        None => collider.as_ref(),
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
