//! Navigation over the onion BSP's configuration spaces: where an agent can go, how, and what it
//! can see, answered from the same exact configuration spaces the collision uses (Golodetz's
//! *Onion BSPs*, after van Waveren's Quake III Arena bot; Hammersley's *BSP Trees*).
//!
//! What it pursues, in order: paths an agent moving with the simulator's movement model can
//! follow (every waypoint free for its pose, every link traced through the pose's space),
//! determinism (the same tree gives the same graph and the same paths, bit for bit), then
//! speed.
//!
//! - [`LeafGraph`] is the leaf adjacency of one configuration space: its empty *regions*
//!   (subtrees of the tree all empty in the space) with their cells (Golodetz's Listing 4
//!   polyhedra) and the [`Portal`]s between them, Hammersley's planes of connection.
//! - [`NavMesh::build`] turns the leaf graphs of the poses ([`NavPose`]: standing, then
//!   crouching) into walkable [`Area`]s (the floors of the regions, van Waveren's AAS areas) and
//!   [`Link`]s between them ([`LinkKind`]: walk, step, drop, jump, crouch, stand up), the step,
//!   drop and jump ones found by tracing the movement model ([`NavParams`]) through the tree.
//! - [`NavMesh::path`] plans with A* over the areas and pulls the corridor tight into
//!   [`Waypoint`]s that say how each is reached; [`NavMesh::reachable`] and
//!   [`NavMesh::nearest_walkable`] answer the smaller questions.
//! - [`LineOfSight`] is Hammersley's ray stabbing over one space of the tree, the sight pose's
//!   (a cube of half side 1/32, [`cspace_onion::Pose::sight`]: the plain solid BSP grown by 1/32,
//!   in which patch facets are solid slabs) or the zero-size pose's (the plain solid BSP, which
//!   a point crosses facets in): it stops at the first solid stretch and starts short segments
//!   below the root.
//! - Queries take `&self` and a caller-owned [`NavContext`] they reuse: one graph serves every
//!   thread, and no query allocates once its context has grown (the returned path aside).
//!
//! `docs/navigation.md` records the decisions, the figures and what the simulator needs.
//!
//! ```
//! use cspace_geom::{Aabb, Brush, World};
//! use cspace_nav::{LinkKind, NavContext, NavMesh, NavParams, NavPose};
//! use cspace_onion::{compile, CompileOptions, Pose};
//! use glam::DVec3;
//!
//! // A floor, and a platform 16 units up: one step.
//! let floor = Brush::from_aabb(Aabb::new(DVec3::new(-512.0, -256.0, -16.0), DVec3::new(512.0, 256.0, 0.0)))?;
//! let platform = Brush::from_aabb(Aabb::new(DVec3::new(128.0, -256.0, 0.0), DVec3::new(512.0, 256.0, 16.0)))?;
//! let world = World::from_brushes([floor, platform]);
//! let poses = [Pose::quake_standing(), Pose::quake_crouching(), Pose::point()];
//! let tree = compile(&world, &poses, &CompileOptions::default())?.tree;
//! let nav = NavMesh::build(&tree, &world, &[NavPose::stand(), NavPose::crouch()], &NavParams::default())?;
//!
//! let mut ctx = NavContext::new();
//! // A standing player's origin is 24 units above its feet.
//! let (from, to) = (DVec3::new(-400.0, 0.0, 24.0), DVec3::new(400.0, 0.0, 40.0));
//! let path = nav.path(from, to, 0, &mut ctx)?.expect("the platform is a step up");
//! assert!(path.waypoints.iter().any(|w| w.kind == LinkKind::Step));
//! assert!((path.waypoints.last().unwrap().position.z - 40.0).abs() < 0.1);
//!
//! let los = nav.line_of_sight().expect("the tree has a zero-size pose");
//! let eye = DVec3::new(-400.0, 0.0, 8.0);
//! assert!(los.visible(eye, DVec3::new(400.0, 0.0, 40.0), &mut ctx));
//! assert!(!los.visible(eye, DVec3::new(400.0, 0.0, 8.0), &mut ctx));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod area;
mod cell;
mod context;
mod error;
mod floors;
mod link;
mod los;
mod mesh;
mod params;
mod path;
mod portals;
mod volumes;

pub use area::{Area, rise_along};
pub use context::NavContext;
pub use error::{Endpoint, NavError};
pub use floors::FloorPoint;
pub use link::{Link, LinkKind};
pub use los::LineOfSight;
pub use mesh::{NavMesh, NavStats, PoseInfo, PoseStats, WalkablePoint, sight_space};
pub use params::{NavParams, NavPose};
pub use path::{Path, Waypoint};
pub use portals::{Boundary, LeafGraph, OneSided, Portal};
pub use volumes::{Destination, Door, NavVolumes, PushPad, Teleporter};
