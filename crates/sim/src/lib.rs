//! The cspace simulator: agents (boxes, spheres, vertical cylinders; standing and crouching
//! poses) moving with gravity through static brush-built worlds, with Quake III's movement model
//! on any of cspace's collision backends.
//!
//! What it pursues, in order: determinism (the same inputs give the same bits on every run,
//! machine and thread count), exactness (no agent ends in solid), then speed.
//!
//! - [`Sim`] is the stepping simulator itself, on hecs: agents, one shared collider, a step at a
//!   time, every agent in id order.
//! - [`BackendKind`] names the backends; [`BACKENDS`] says once per backend what it is, what it
//!   takes and how it is built ([`BackendKind::build_for`]: one collider for a world, shared by
//!   every thread, each with its own [`cspace_geom::QueryContext`]).
//! - [`navigation`] plans paths for `goto` agents and builds a world's navigation graph.
//!
//! The crate reads no files and prints nothing: scenarios, traces and sweeps are
//! `cspace-scenario`'s, plots and reports `cspace-report`'s, the command line `cspace-cli`'s.

pub mod agent;
pub mod backend;
pub mod navigation;
pub mod params;
pub mod record;
pub mod simulation;

pub use agent::{AgentSpec, Pose};
pub use backend::{BACKENDS, BackendInfo, BackendKind, BuildError, UnknownBackend};
pub use params::MoveParams;
pub use simulation::{Sim, SimCounters, SimError, SimOptions};
