//! The cspace simulator: agents (boxes, spheres, vertical cylinders; standing and crouching
//! poses) moving with gravity through static brush-built worlds, with Quake III's movement model
//! on any of cspace's collision backends; the TOML scenarios that drive them, the traces they
//! record, and what compares, plots and reports those traces. The `sim` command line is built on
//! this crate.
//!
//! What it pursues, in order: determinism (the same scenario gives the same bits on every run,
//! machine and thread count), a reviewable record (traces made for diffs, plots and reports made
//! to show a regression), then speed.
//!
//! - [`Scenario`] is a checked scenario file ([`Scenario::load`], `docs/scenario-format.md`):
//!   the world, the agents' poses, starts and scripts, the backends and the expectations.
//! - [`run_scenario`] runs it on a [`BackendKind`] and returns a [`RunOutcome`]: the
//!   expectations met or not, the trace (`docs/trace-format.md`, read back by
//!   [`trace::parse`]), the counters.
//! - [`Sim`] is the stepping simulator itself, on hecs: agents, one shared collider, a step at a
//!   time, every agent in id order.
//! - [`BackendKind`] names the backends; [`BACKENDS`] says once per backend what it is, what it
//!   takes and how it is built ([`BackendKind::build_for`]: one collider for a world, shared by
//!   every thread, each with its own [`cspace_geom::QueryContext`]).
//! - [`sweep`] runs the cross product of scenarios, maps, seeds and backends on a pool of
//!   threads, one [`sweep::RunLine`] per run in a fixed order (`sim sweep`, `docs/sweep.md`).
//! - [`load_world`] reads `.map` files and TOML worlds; [`summary`], [`plot`], [`report`] and
//!   [`snapshot`] serve `sim run`, `sim compare`, `sim plot` and `sim report`.
//! - Every failure is an [`Error`] that says where: `file:line:column` when it is in a file.
//!
//! Run a scenario and read its expectations:
//!
//! ```
//! use std::path::Path;
//! use cspace_sim::{BackendKind, RunOptions, Scenario, run_scenario};
//!
//! let text = r#"
//! name = "walk"
//! time_step = 0.015625
//! steps = 128
//! [poses]
//! stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
//! [world]
//! [[world.brush]]
//! box = { min = [-512, -512, -16], max = [512, 512, 0] }
//! [[agent]]
//! name = "walker"
//! pose = "stand"
//! start = [0, 0, 24.03125]
//! script = [{ at = 0, move = [1, 0] }]
//! [[expect]]
//! agent = "walker"
//! reaches = { min = [200, -64, 0], max = [512, 64, 64] }
//! by = 2.0
//! "#;
//! let scenario = Scenario::parse(Path::new("walk.toml"), text)?;
//! let outcome = run_scenario(&scenario, BackendKind::Onion, RunOptions::default())?;
//! assert!(outcome.passed());
//! assert!(outcome.trace.starts_with("cspace trace 1\nscenario walk\nbackend onion\n"));
//! # Ok::<(), cspace_sim::Error>(())
//! ```
//!
//! Match on what went wrong (here an agent that starts inside the floor):
//!
//! ```
//! use std::path::Path;
//! use cspace_sim::{Error, Scenario};
//!
//! let text = r#"
//! name = "buried"
//! time_step = 0.015625
//! steps = 10
//! [poses]
//! stand = { box = { mins = [-16, -16, -24], maxs = [16, 16, 32] } }
//! [world]
//! [[world.brush]]
//! box = { min = [-512, -512, -16], max = [512, 512, 0] }
//! [[agent]]
//! pose = "stand"
//! start = [0, 0, 0]
//! "#;
//! match Scenario::parse(Path::new("buried.toml"), text) {
//!     Err(Error::Located(e)) => {
//!         assert_eq!((e.line, e.column), (10, 1));
//!         assert!(e.message.starts_with("agent 0 starts in solid"));
//!     }
//!     other => panic!("expected a located error, got {other:?}"),
//! }
//! ```
//!
//! Load a `.map` world and trace a Quake player from several threads, all sharing one collider
//! of each backend:
//!
//! ```
//! use std::path::Path;
//! use cspace_geom::{Collider, DVec3, QueryContext, Shape};
//! use cspace_sim::{BackendKind, load_world};
//!
//! let map = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/rooms.map"));
//! let world = load_world(map)?;
//! let player = Shape::new_box(DVec3::new(-16.0, -16.0, -24.0), DVec3::new(16.0, 16.0, 32.0))?;
//! for kind in BackendKind::ALL {
//!     let collider = kind
//!         .build_for(&world.world, std::slice::from_ref(&player))?
//!         .expect("every backend takes a box");
//!     let prepared = collider.prepare(&player)?;
//!     // One thread per spawn point, each with its own context, all on `collider`.
//!     std::thread::scope(|s| {
//!         for &spawn in &world.spawns {
//!             let (collider, prepared) = (&collider, &prepared);
//!             s.spawn(move || {
//!                 let mut ctx = QueryContext::new();
//!                 let down = collider.trace(&mut ctx, prepared, spawn, spawn - DVec3::Z * 512.0);
//!                 assert!(down.is_hit(), "{}: the floor is under {spawn}", kind.name());
//!             });
//!         }
//!     });
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod agent;
pub mod backend;
pub mod bench;
pub mod error;
pub mod location;
pub mod map_report;
pub mod navigation;
pub mod params;
pub mod plot;
pub mod record;
pub mod report;
pub mod run;
pub mod scenario;
pub mod segments;
pub mod shape_arg;
pub mod simulation;
pub mod snapshot;
pub mod summary;
pub mod sweep;
pub mod trace;
pub mod tree_report;
pub mod world_file;

pub use agent::{AgentSpec, Pose};
pub use backend::{BACKENDS, BackendInfo, BackendKind, UnknownBackend};
pub use error::Error;
pub use location::LocatedError;
pub use params::MoveParams;
pub use run::{RunOptions, RunOutcome, build_collider, run_scenario, run_scenario_with};
pub use scenario::{AgentStart, Scenario};
pub use simulation::{Sim, SimCounters, SimError, SimOptions};
pub use trace::Trace;
pub use world_file::{LoadedWorld, load_world};
