//! The cspace simulator: agents (boxes, spheres, vertical cylinders; standing and crouching
//! poses) moving with gravity through static brush-built worlds, with Quake III's movement model
//! on any of cspace's collision backends, driven one step at a time.
//!
//! What it pursues, in order: determinism (the same inputs give the same bits on every run,
//! machine and thread count), exactness (no agent ends in solid), then speed.
//!
//! - [`Sim`] is the simulator, on hecs: [`Sim::new`] with a [`SimConfig`], then
//!   [`Sim::spawn`] agents ([`AgentSpec`]), [`Sim::set_intent`] ([`Intent`]: the wished
//!   direction, speed, jump, crouch, view and goto), [`Sim::step`], and read back
//!   [`Sim::agent`] ([`AgentState`]), [`Sim::states`], [`Sim::drain_events`] ([`Event`]) and
//!   [`Sim::state_hash`]. Agents move in id order, in interaction groups on every core, with
//!   the sequential bits on any thread count.
//! - [`Scripts`] play timed [`Action`]s into a simulation's intents ([`Scripted`] holds both):
//!   one driver of [`Sim::set_intent`] among others.
//! - [`PlayerMove`] is the same movement model as a character controller on any
//!   [`cspace_geom::Collider`], without a simulation.
//! - [`BackendKind`] names the backends; [`BACKENDS`] says once per backend what it is, what it
//!   takes and how it is built ([`BackendKind::build_for`]: one collider for a world, shared by
//!   every thread, each with its own [`cspace_geom::QueryContext`]).
//! - [`navigation`] plans paths for goto agents and builds a world's navigation graph.
//!
//! Its API is plain data with public fields; it reads no files and prints nothing: scenarios,
//! traces and sweeps are `cspace-scenario`'s, plots and reports `cspace-report`'s, the command
//! line `cspace-cli`'s.

pub mod agent;
pub mod backend;
mod box_grid;
pub mod intent;
pub mod movement;
pub mod movers;
pub mod navigation;
pub mod params;
pub mod record;
pub mod script;
pub mod simulation;

pub use agent::{AgentId, AgentSpec, AgentState, Ground, Pose, PoseSet, Totals};
pub use backend::{BACKENDS, BackendInfo, BackendKind, BuildError, UnknownBackend};
pub use intent::{Action, Intent, View};
pub use movement::{MoveHit, Player, PlayerMove};
pub use movers::{Models, Scene};
pub use params::MoveParams;
pub use record::{
    ContactEvent, Event, EventKind, GotoFailure, MoverEvent, MoverEventKind, Recording, Sample,
    Touched,
};
pub use script::{ScriptEvent, Scripted, ScriptedAgent, Scripts};
pub use simulation::{
    InSolid, Living, PARALLEL_FROM, Sim, SimConfig, SimCounters, SimError, Verification,
};
