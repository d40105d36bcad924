//! Quake's living world for cspace: the brush entities and volumes of a `.map` file as typed
//! values, read with Quake 1's or Quake III's rules.
//!
//! What it pursues, in order: the games' own rules (every default, rule and constant comes from
//! id's QuakeC or Quake III's game code, named where it is used and listed in
//! `docs/entities.md`), bad input as located warnings with a defined behaviour (never a panic),
//! then convenience.
//!
//! - [`EntityInput`] is one entity as the map reader hands it over: its key/value pairs and its
//!   brushes, built where the file draws them ([`InputBrush`]).
//! - [`spawn`] reads them with a [`Dialect`]'s rules into [`Entities`]: [`Mover`]s (doors, secret
//!   doors, plats, buttons, trains with their `path_corner`s; linked doors in one team),
//!   [`Trigger`]s (touch volumes: `trigger_once`/`trigger_multiple`, door and plat fields,
//!   teleporters, push pads, hurt volumes), [`Relay`]s (entities fired by name only), [`Spot`]s
//!   (named points: teleport destinations, path corners, jump pad targets), [`Liquid`]s, the
//!   brush entities kept where they are drawn ([`Kept`]) and the [`EntityWarning`]s.
//! - [`Machinery`] is the movers' clock: where every mover team is at each step, what a touched
//!   trigger, a fired target or a blocked push does to it (reverse or wait), and the
//!   [`MoverEvent`]s. It knows no agents; the simulator (`cspace-sim`) pushes agents and reports
//!   touches.
//!
//! ```
//! use cspace_entities::{Dialect, EntityInput, MoverKind, spawn};
//! use cspace_geom::{Aabb, Brush, DVec3};
//!
//! let door = Brush::from_aabb(Aabb::new(DVec3::new(0.0, 0.0, 0.0), DVec3::new(8.0, 64.0, 96.0)))?;
//! let inputs = [
//!     EntityInput::new(0, 1, [("classname", "worldspawn")]),
//!     EntityInput::new(1, 20, [("classname", "func_door"), ("angle", "90")]).with_solid(door),
//! ];
//! let entities = spawn(&inputs, Dialect::Quake1);
//! let mover = &entities.movers[0];
//! assert_eq!(mover.kind, MoverKind::Door);
//! // Quake 1: the door slides along its angle by its size less the 8-unit lip, at 100 u/s.
//! assert_eq!(mover.binary().unwrap().pos2, DVec3::new(0.0, 56.0, 0.0));
//! assert_eq!(mover.speed, 100.0);
//! // It opens when an agent enters its field: its bounds grown by 60, 60, 8.
//! assert_eq!(entities.triggers[0].bounds.min, DVec3::new(-60.0, -60.0, -8.0));
//! # Ok::<(), cspace_geom::BrushError>(())
//! ```

mod defs;
mod dialect;
mod input;
mod machinery;
pub mod rules;
mod spawn;
mod warning;

pub use defs::{
    Activation, BinaryMotion, Entities, Firing, Kept, KeptReason, Liquid, LiquidKind, Motion,
    Mover, MoverKind, PathStop, Push, Relay, RelayKind, SecretMotion, Spot, TargetPush, Trigger,
    TriggerKind,
};
pub use dialect::Dialect;
pub use input::{EntityInput, InputBrush, InputContents};
pub use machinery::{EntityUse, Machinery, MoverEvent, MoverEventKind, Used};
pub use spawn::spawn;
pub use warning::EntityWarning;
