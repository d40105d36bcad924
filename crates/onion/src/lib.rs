//! The onion BSP (S. Golodetz, "Onion BSPs", after van Waveren's Quake III Arena bot): one BSP
//! tree for several configuration spaces, one per agent box pose, with a solid/empty bit per
//! space in each leaf.
//!
//! What it pursues, in order: agreement with the exact reference backend
//! ([`cspace_geom::ExactCollider`]), robustness (bad input is an error), then speed.
//!
//! - [`Pose`] names an agent box; [`compile`] expands the world by each pose (geom's exact box
//!   expansion), unions each space's faces (no internal seams) and builds the tree over the
//!   polygons of all spaces (Listing 2), with each leaf's solidity from an interior point of its
//!   cell (Listings 3-4). [`CompileOptions`] holds the splitter score's weights.
//! - [`OnionTree`] is the packed tree: [`OnionTree::find_first_transition`] is Listing 5, and
//!   [`OnionTree::point_mask`] the point query. [`TreeStats`] tells its size and shape.
//! - [`OnionCollider`] answers [`cspace_geom::Collider`] traces for boxes equal to a compiled pose,
//!   from `&self` with the caller's [`cspace_geom::QueryContext`] (no allocation per trace: the
//!   traversal stack and interval lists live in the context and are reused), so one tree serves
//!   every thread; a caller that holds the `OnionCollider` itself can keep its typed context
//!   ([`cspace_geom::ContextFor`]`<OnionCollider>`, [`cspace_geom::TypedCollider`]), which
//!   skips finding the scratch in a general context.
//! - [`CompileOptions::fill_outside`] fills the outside of sealed maps from their spawn points;
//!   [`OnionTree::to_bytes`] / [`OnionTree::from_bytes`] save and load a tree (versioned,
//!   checksummed, validated); [`OnionTree::validate`] checks a tree's structure (on every load),
//!   and [`OnionTree::verify`] what it means against its world (planes, faces, each leaf's
//!   solidity against the exact point query; about the cost of a compile).
//!
//! `docs/onion.md` records the decisions, the deviations from Listing 5, the tests and the
//! benchmarks.
//!
//! ```
//! use std::sync::Arc;
//! use cspace_geom::{Aabb, Brush, Collider, QueryContext, Shape, World};
//! use cspace_onion::{compile, CompileOptions, OnionCollider, Pose};
//! use glam::DVec3;
//!
//! // A floor, and a slab whose underside is 48 units above it: crouching fits under, standing does not.
//! let floor = Brush::from_aabb(Aabb::new(DVec3::new(-512.0, -512.0, -16.0), DVec3::new(512.0, 512.0, 0.0)))?;
//! let slab = Brush::from_aabb(Aabb::new(DVec3::new(64.0, -512.0, 48.0), DVec3::new(128.0, 512.0, 64.0)))?;
//! let world = Arc::new(World::from_brushes([floor, slab]));
//! let poses = [Pose::quake_standing(), Pose::quake_crouching()];
//! let compiled = compile(&world, &poses, &CompileOptions::default())?;
//! let onion = OnionCollider::from_compiled(world.clone(), compiled)?;
//! let stand = onion.prepare(&Shape::from(&poses[0]))?;
//! let crouch = onion.prepare(&Shape::from(&poses[1]))?;
//! // The collider is shared (`&self`); each thread keeps a context for its queries.
//! let mut ctx = QueryContext::new();
//! let (a, b) = (DVec3::new(0.0, 0.0, 24.0), DVec3::new(200.0, 0.0, 24.0));
//! assert!(onion.trace(&mut ctx, &stand, a, b).is_hit());
//! assert!(!onion.trace(&mut ctx, &crouch, a, b).is_hit());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod collider;
mod compile;
mod free_index;
mod io;
mod pose;
mod trace;
mod tree;
mod validate;
mod verify;

pub use collider::{OnionCollider, OnionScratch};
pub use compile::stats::{FillOutcome, LeafPattern, StageSeconds, TreeStats};
pub use compile::{Cell, CompileError, CompileOptions, Compiled, compile};
pub use cspace_geom::WorldMismatch;
pub use free_index::{
    ConfigBounds, FREE_BOX_CAP, FreeIndexStats, algorithm_1, fall_through_in_box, quantized,
};
pub use io::{FORMAT_VERSION, LoadError, MAGIC, fnv1a64};
pub use pose::{Pose, PoseParseError};
pub use trace::{Crossing, MAX_DEPTH, SolidEntry, Stretch, Transition, WalkScratch};
pub use tree::{MAX_SPACES, NodeRef, OnionTree, REGION, SOLID, SpaceChild, SpaceNode, SpaceTree};
pub use validate::{InvalidTree, MAX_PLANE_DISTANCE};
pub use verify::{VerifyError, VerifyOptions, VerifyReport};
