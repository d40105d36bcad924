//! Agents: what a caller says to place one ([`AgentSpec`]), what it reads back
//! ([`AgentState`]), and the hecs components that carry its state between steps.

use cspace_contact::ContactTarget;
use cspace_geom::domain::{self, OutOfDomain, Quantity};
use cspace_geom::{Collider, DVec3, Prepared, Shape, UnsupportedShape};

use crate::params::MoveParams;

pub use cspace_contact::AgentId;

/// Everything needed to place an agent ([`crate::Sim::spawn`]).
#[derive(Debug, Clone, PartialEq)]
pub struct AgentSpec {
    /// The standing shape: a box, a sphere or a vertical cylinder, relative to the agent's
    /// origin.
    pub standing: Shape,
    /// The crouching shape, if the agent can crouch.
    pub crouching: Option<Shape>,
    /// Where its origin starts (world, units).
    pub start: DVec3,
    /// Its velocity at the start (units/s).
    pub velocity: DVec3,
    /// Whether it starts crouched.
    pub start_crouched: bool,
}

impl AgentSpec {
    /// An agent of `standing` shape at rest at `start`, standing, unable to crouch.
    pub fn new(standing: Shape, start: DVec3) -> AgentSpec {
        AgentSpec {
            standing,
            crouching: None,
            start,
            velocity: DVec3::ZERO,
            start_crouched: false,
        }
    }

    /// The shape the agent starts in: crouching when it starts crouched and can crouch,
    /// standing otherwise.
    pub fn start_shape(&self) -> &Shape {
        match (&self.crouching, self.start_crouched) {
            (Some(crouching), true) => crouching,
            _ => &self.standing,
        }
    }

    /// Every shape a backend must prepare for this agent under `params`: its standing and
    /// crouching shapes, and the same grown by the profile's trace epsilon when it has one
    /// ([`grown`]). A shape the epsilon grows out of the numeric domain has no grown form here:
    /// [`Sim::spawn`](crate::Sim::spawn) refuses such an agent
    /// ([`SimError::GrownShape`](crate::SimError::GrownShape)).
    pub fn shapes(&self, params: &MoveParams) -> Vec<Shape> {
        let own = std::iter::once(&self.standing).chain(self.crouching.as_ref());
        let mut out: Vec<Shape> = own.clone().cloned().collect();
        if params.trace_epsilon > 0.0 {
            out.extend(own.filter_map(|s| try_grown(s, params.trace_epsilon).ok()));
        }
        out
    }

    /// Checks the numeric domain ([`cspace_geom::domain`]): the start within
    /// [`MAX_COORDINATE`](cspace_geom::tolerance::MAX_COORDINATE), the velocity within
    /// [`MAX_SPEED`](cspace_geom::tolerance::MAX_SPEED). The error says which (`start`,
    /// `velocity`). The shapes are checked when built.
    pub fn check_domain(&self) -> Result<(), (&'static str, OutOfDomain)> {
        domain::check_point(Quantity::Coordinate, self.start).map_err(|e| ("start", e))?;
        domain::check_velocity(self.velocity).map_err(|e| ("velocity", e))?;
        Ok(())
    }
}

/// The pose an agent is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pose {
    /// Standing (the full shape).
    Standing,
    /// Crouching (the lower shape).
    Crouching,
}

impl Pose {
    /// The name traces use.
    pub fn name(self) -> &'static str {
        match self {
            Pose::Standing => "stand",
            Pose::Crouching => "crouch",
        }
    }

    /// The pose a trace names (`stand`, `crouch`).
    pub fn from_name(name: &str) -> Option<Pose> {
        [Pose::Standing, Pose::Crouching]
            .into_iter()
            .find(|p| p.name() == name)
    }
}

/// The state of one agent at the end of a step, as a caller reads it ([`crate::Sim::agent`],
/// [`crate::Sim::states`]) and the recorder samples it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgentState {
    /// The agent.
    pub id: AgentId,
    /// Its origin (world, units).
    pub position: DVec3,
    /// Its velocity (units/s).
    pub velocity: DVec3,
    /// Its pose.
    pub pose: Pose,
    /// On walkable ground.
    pub on_ground: bool,
    /// Asleep: skipped by the step until its intent is set, it is teleported or touched.
    pub asleep: bool,
    /// Its water level, 0 to 3 (a living world's liquids, `docs/entities.md`; always 0 in a
    /// world without liquids).
    pub water_level: u8,
    /// The liquid at its feet, when its water level is above 0.
    pub liquid: Option<cspace_entities::LiquidKind>,
}

/// `shape` grown by `by` units on every side: a box's faces pushed out, a sphere's and a
/// cylinder's radius (and half height) lengthened. The shapes the Quake III profile traces
/// (its trace epsilon, [`MoveParams::trace_epsilon`]). A hull is not an agent shape and is
/// returned as it is.
///
/// # Panics
/// When the grown shape leaves the numeric domain (a pose within `by` of
/// [`MAX_SHAPE_EXTENT`](cspace_geom::tolerance::MAX_SHAPE_EXTENT)): [`Sim::spawn`](crate::Sim::spawn)
/// and the scenario checker refuse such poses first ([`try_grown`]).
pub fn grown(shape: &Shape, by: f64) -> Shape {
    try_grown(shape, by).expect("a shape whose grown form was checked (try_grown)")
}

/// [`grown`], or why the grown shape is not a valid shape (it leaves the numeric domain).
pub fn try_grown(shape: &Shape, by: f64) -> Result<Shape, cspace_geom::ShapeError> {
    match shape {
        Shape::Box(b) => Shape::new_box(b.mins - DVec3::splat(by), b.maxs + DVec3::splat(by)),
        Shape::Sphere { radius } => Shape::new_sphere(radius + by),
        Shape::Cylinder {
            radius,
            half_height,
        } => Shape::new_cylinder(radius + by, half_height + by),
        Shape::Hull(_) => Ok(shape.clone()),
    }
}

/// The shapes of an agent's poses, prepared for the backend.
#[derive(Debug, Clone)]
pub struct PoseSet {
    /// Standing.
    pub standing: Prepared,
    /// Crouching, if the agent can crouch.
    pub crouching: Option<Prepared>,
    /// The shapes traces sweep when the profile grows them ([`MoveParams::trace_epsilon`]):
    /// standing and crouching; `None` when traces sweep the shapes themselves.
    pub traced: Option<(Prepared, Option<Prepared>)>,
}

impl PoseSet {
    /// The shapes of `standing` and `crouching` prepared for `collider` with `params`' skin,
    /// and their grown forms when the profile traces with an epsilon.
    pub fn prepare(
        collider: &dyn Collider,
        params: &MoveParams,
        standing: &Shape,
        crouching: Option<&Shape>,
    ) -> Result<PoseSet, UnsupportedShape> {
        let prepare = |shape: &Shape| collider.prepare(shape).map(|p| p.with_skin(params.skin));
        let traced = if params.trace_epsilon > 0.0 {
            let grow = |shape: &Shape| prepare(&grown(shape, params.trace_epsilon));
            Some((grow(standing)?, crouching.map(grow).transpose()?))
        } else {
            None
        };
        Ok(PoseSet {
            standing: prepare(standing)?,
            crouching: crouching.map(prepare).transpose()?,
            traced,
        })
    }

    /// The prepared shape of `pose` (standing when the agent cannot crouch): what the agent
    /// occupies.
    pub fn get(&self, pose: Pose) -> &Prepared {
        match pose {
            Pose::Crouching => self.crouching.as_ref().unwrap_or(&self.standing),
            Pose::Standing => &self.standing,
        }
    }

    /// The prepared shape traces of `pose` sweep: [`PoseSet::get`]'s, grown when the profile
    /// traces with an epsilon.
    pub fn traced(&self, pose: Pose) -> &Prepared {
        match &self.traced {
            None => self.get(pose),
            Some((standing, crouching)) => match pose {
                Pose::Crouching => crouching.as_ref().unwrap_or(standing),
                Pose::Standing => standing,
            },
        }
    }
}

/// Where the agent's origin is (units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Position(pub DVec3);

/// The agent's velocity (units/s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Velocity(pub DVec3);

/// What the agent stands on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ground {
    /// Nothing below within the ground probe.
    Air,
    /// Walkable ground with this normal.
    Walkable(DVec3),
    /// Ground too steep to walk (normal z below `min_walk_normal`): the agent slides.
    Steep(DVec3),
}

impl Ground {
    /// The normal of walkable ground, if any.
    pub fn walkable(self) -> Option<DVec3> {
        match self {
            Ground::Walkable(n) => Some(n),
            _ => None,
        }
    }

    /// The normal of any ground plane touched (walkable or steep).
    pub fn plane(self) -> Option<DVec3> {
        match self {
            Ground::Walkable(n) | Ground::Steep(n) => Some(n),
            Ground::Air => None,
        }
    }
}

/// Resting and sleeping (Blow: a resting object is marked sleeping until something upsets it).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Rest {
    /// Consecutive steps at rest.
    pub still_steps: u32,
    /// Asleep: skipped by the step until woken by an intent, a teleport or a touch.
    pub asleep: bool,
    /// Left the world ([`crate::EventKind::LeftWorld`]): skipped by every later step, touched by
    /// no one, until teleported back.
    pub left_world: bool,
}

/// What the caller did to an agent since its last step, which the step acts on.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Pending {
    /// Its intent was set: the step wakes it.
    pub commanded: bool,
    /// It was spawned or teleported and is not yet settled: freed if it starts in solid, its
    /// ground found ([`crate::Sim::settle`]).
    pub settle: Option<Placed>,
}

/// How an agent that awaits settling got where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Placed {
    /// Spawned: its totals start when it is settled.
    Spawned,
    /// Teleported: its totals go on.
    Teleported,
}

/// Per-agent totals for run summaries.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Totals {
    /// Distance travelled, units.
    pub distance: f64,
    /// Contact events recorded.
    pub contacts: u64,
    /// Steps ended on walkable ground.
    pub steps_on_ground: u64,
}

/// What the agent touched in its previous step (contacts are recorded when they begin).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Touching(pub Vec<TouchKey>);

/// A contact target, comparable: a world surface or an agent.
///
/// World contacts are keyed by their plane (normal to 1e-4, distance to 1e-3 units), not by
/// brush: sliding across the seam between two touching brushes stays one contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum TouchKey {
    /// A world surface: quantised normal and distance of its configuration-space plane.
    Surface([i64; 4]),
    /// An agent.
    Agent(u32),
}

impl TouchKey {
    /// The key of a contact target.
    pub(crate) fn of(target: &ContactTarget) -> TouchKey {
        match target {
            ContactTarget::World { plane, .. } => {
                let n = plane.normal();
                let q = |x: f64, scale: f64| (x * scale).round() as i64;
                TouchKey::Surface([q(n.x, 1e4), q(n.y, 1e4), q(n.z, 1e4), q(plane.dist(), 1e3)])
            }
            ContactTarget::Agent(id) => TouchKey::Agent(id.0),
        }
    }
}
