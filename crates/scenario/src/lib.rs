//! cspace's files: the TOML scenarios that drive the simulator (`cspace-sim`), the worlds they
//! name (`.map` files and TOML worlds), runs and their expectations, the contact trace they
//! record, its snapshots, sweeps over scenarios, maps, seeds and backends, and the crowds of
//! `sim bench`.
//!
//! What it pursues, in order: errors that say where (`file:line:column`), traces made for
//! diffs (the same bytes on every run, machine and thread count), then convenience.
//!
//! - [`Scenario`] is a checked scenario file ([`Scenario::load`], `docs/scenario-format.md`):
//!   the world, the agents' poses, starts and scripts, the backends and the expectations.
//! - [`run_scenario`] runs it on a [`BackendKind`](cspace_sim::BackendKind) and returns a
//!   [`RunOutcome`]: the expectations met or not, the trace (`docs/trace-format.md`, read back
//!   by [`trace::parse`]), the counters.
//! - [`sweep`] runs the cross product of scenarios, maps, seeds and backends on a pool of
//!   threads, one [`sweep::RunLine`] per run in a fixed order (`sim sweep`, `docs/sweep.md`).
//! - [`load_world`] reads `.map` files and TOML worlds; [`snapshot`] says where the trace
//!   snapshots are and how a trace compares with one.
//! - Every failure is an [`Error`] that says where: `file:line:column` when it is in a file.
//!
//! Run a scenario and read its expectations:
//!
//! ```
//! use std::path::Path;
//! use cspace_scenario::{RunOptions, Scenario, run_scenario};
//! use cspace_sim::BackendKind;
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
//! assert!(outcome.trace().starts_with("cspace trace 1\nscenario walk\nbackend onion\n"));
//! # Ok::<(), cspace_scenario::Error>(())
//! ```
//!
//! Match on what went wrong (here an agent that starts inside the floor):
//!
//! ```
//! use std::path::Path;
//! use cspace_scenario::{Error, Scenario};
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
//! use cspace_scenario::load_world;
//! use cspace_sim::BackendKind;
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

pub mod bench;
pub mod error;
pub mod limits;
pub mod location;
pub mod numbers;
pub mod read;
pub mod run;
pub mod scenario;
pub mod segments;
pub mod snapshot;
pub mod sweep;
pub mod trace;
pub mod world_file;
pub mod write;

pub use error::Error;
pub use location::LocatedError;
pub use run::{RunOptions, RunOutcome, build_collider, run_scenario, run_scenario_with};
pub use scenario::{AgentPoses, AgentStart, Crowd, Scenario};
pub use trace::Trace;
pub use world_file::{LoadedWorld, load_world};
