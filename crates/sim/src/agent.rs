//! Agents: what a scenario says about each one, and the hecs components that carry its state.

use cspace_contact::{AgentId, ContactTarget};
use cspace_geom::domain::{self, OutOfDomain, Quantity};
use cspace_geom::{DVec3, Prepared, Shape};

/// A scripted input, applied from time `at` (seconds) on.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptEvent {
    /// When, in seconds from the start.
    pub at: f64,
    /// What.
    pub action: Action,
}

/// What an agent is told to do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    /// Walk (or steer in the air) towards `direction` (its horizontal part is used) at `speed`
    /// units/s, until told otherwise.
    Move {
        /// The wished direction (normalised horizontally).
        direction: DVec3,
        /// The wished speed, units/s.
        speed: f64,
    },
    /// Stop wishing to move (friction brings the agent to rest).
    Stop,
    /// Jump, at the first step on walkable ground from now on.
    Jump,
    /// Crouch (switch to the crouching pose).
    Crouch,
    /// Stand up as soon as the standing pose fits.
    Stand,
    /// Go to this point (where the agent's origin should end, on the walkable floor below it):
    /// plan a path with the navigation graph of the agent's poses and follow it with the
    /// movement model, steering, jumping and crouching as its links require
    /// ([`crate::navigation::follow`]), until it arrives, cannot, or another event of its script
    /// fires.
    Goto(DVec3),
}

/// Everything needed to place an agent.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentSpec {
    /// Stable id; agents are processed in id order.
    pub id: AgentId,
    /// The standing shape.
    pub standing: Shape,
    /// The crouching shape, if the agent can crouch.
    pub crouching: Option<Shape>,
    /// Where its origin starts.
    pub start: DVec3,
    /// Its velocity at the start (units/s).
    pub velocity: DVec3,
    /// Whether it starts crouched.
    pub start_crouched: bool,
    /// Its scripted inputs, in time order.
    pub script: Vec<ScriptEvent>,
}

impl AgentSpec {
    /// True when its script sends it somewhere ([`Action::Goto`]).
    pub fn uses_goto(&self) -> bool {
        self.script
            .iter()
            .any(|e| matches!(e.action, Action::Goto(_)))
    }

    /// The shape the agent starts in: crouching when it starts crouched and can crouch,
    /// standing otherwise.
    pub fn start_shape(&self) -> &Shape {
        match (&self.crouching, self.start_crouched) {
            (Some(crouching), true) => crouching,
            _ => &self.standing,
        }
    }

    /// Checks the numeric domain ([`cspace_geom::domain`]): the start within
    /// [`MAX_COORDINATE`](cspace_geom::tolerance::MAX_COORDINATE) (and every goto target), the
    /// velocity and every scripted speed within [`MAX_SPEED`](cspace_geom::tolerance::MAX_SPEED).
    /// The error says which (`start`, `velocity`, `script speed`, `goto target`). The shapes are
    /// checked when built.
    pub fn check_domain(&self) -> Result<(), (&'static str, OutOfDomain)> {
        domain::check_point(Quantity::Coordinate, self.start).map_err(|e| ("start", e))?;
        domain::check_velocity(self.velocity).map_err(|e| ("velocity", e))?;
        for event in &self.script {
            match event.action {
                Action::Move { speed, .. } => {
                    domain::check(Quantity::Speed, speed).map_err(|e| ("script speed", e))?;
                }
                Action::Goto(target) => {
                    domain::check_point(Quantity::Coordinate, target)
                        .map_err(|e| ("goto target", e))?;
                }
                _ => {}
            }
        }
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
}

/// The shapes of an agent's poses, prepared for the backend.
#[derive(Debug, Clone)]
pub struct PoseSet {
    /// Standing.
    pub standing: Prepared,
    /// Crouching, if the agent can crouch.
    pub crouching: Option<Prepared>,
}

impl PoseSet {
    /// The prepared shape of `pose` (standing when the agent cannot crouch).
    pub fn get(&self, pose: Pose) -> &Prepared {
        match pose {
            Pose::Crouching => self.crouching.as_ref().unwrap_or(&self.standing),
            Pose::Standing => &self.standing,
        }
    }
}

/// Where the agent's origin is (units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Position(pub DVec3);

/// The agent's velocity (units/s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub DVec3);

/// What the agent currently wants (from its script).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Intent {
    /// Horizontal unit direction to move in, or zero.
    pub direction: DVec3,
    /// Wished speed, units/s.
    pub speed: f64,
    /// A jump waits for walkable ground.
    pub jump: bool,
    /// Wants to crouch (false: wants to stand).
    pub crouch: bool,
}

/// The script and how far it has been played.
#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    /// Events in time order.
    pub events: Vec<ScriptEvent>,
    /// The next event to apply.
    pub next: usize,
}

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
pub struct Rest {
    /// Consecutive steps at rest.
    pub still_steps: u32,
    /// Asleep: skipped by the step until woken by a script event or a touch.
    pub asleep: bool,
    /// Left the world ([`crate::record::EventKind::LeftWorld`]): skipped by every later step,
    /// touched by no one.
    pub left_world: bool,
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
pub struct Touching(pub Vec<TouchKey>);

/// A contact target, comparable: a world surface or an agent.
///
/// World contacts are keyed by their plane (normal to 1e-4, distance to 1e-3 units), not by
/// brush: sliding across the seam between two touching brushes stays one contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TouchKey {
    /// A world surface: quantised normal and distance of its configuration-space plane.
    Surface([i64; 4]),
    /// An agent.
    Agent(u32),
}

impl TouchKey {
    /// The key of a contact target.
    pub fn of(target: &ContactTarget) -> TouchKey {
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
