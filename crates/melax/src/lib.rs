//! Melax's dynamic plane shifting BSP traversal ("Dynamic Plane Shifting BSP Traversal",
//! Graphics Interface 2000): one plain solid BSP tree answers traces for boxes, spheres, vertical
//! cylinders and convex hulls of any size, by shifting each node's plane by the shape's support
//! while the segment goes down the tree.
//!
//! What it pursues, in order: one tree for every shape (no recompilation), speed close to a ray
//! trace, then accuracy (measured against the exact backend, not assumed; see `docs/melax.md`).
//!
//! - [`MelaxTree`] is a plain BSP (the onion compiler's single zero-size space, [`compile()`]) in one
//!   packed node array, with bevel nodes below each solid leaf ([`BevelMode`], Section 5).
//! - [`MelaxCollider`] is the [`cspace_geom::Collider`]: `HitCheckBSP` (Section 3) with the
//!   offsets of [`offsets`], from `&self` with the caller's [`cspace_geom::QueryContext`] (the
//!   nodes visited are counted there).
//! - [`free_index`] answers certified misses for spheres, cylinders and boxes: per grid cell, a
//!   box of positions verified free against the tree with the shape's plane shifts, built at the
//!   shape's first prepare; a move inside one is a miss without a walk, bit for bit the walk's.
//! - [`overlap`] holds the stationary queries `M()` (merge, slicing) and `F()` (no slice) of
//!   Section 6; [`measure`] compares any backend with the exact one (on `geom::generate::free_moves`).
//!
//!
//! ```
//! use std::sync::Arc;
//! use cspace_geom::{Aabb, Brush, Collider, QueryContext, Shape, World};
//! use cspace_melax::{BevelMode, MelaxCollider, compile};
//! use glam::DVec3;
//!
//! let floor = Brush::from_aabb(Aabb::new(DVec3::new(-256.0, -256.0, -16.0), DVec3::new(256.0, 256.0, 0.0)))?;
//! let world = Arc::new(World::from_brushes([floor]));
//! let tree = Arc::new(compile(&world, BevelMode::PAPER)?);
//! let melax = MelaxCollider::new(world, tree)?;
//! let mut ctx = QueryContext::new();
//! // Any size on the same tree: spheres of radius 8 and 20 dropped on the floor.
//! for radius in [8.0, 20.0] {
//!     let ball = melax.prepare(&Shape::new_sphere(radius)?)?;
//!     let hit = melax.trace(&mut ctx, &ball, DVec3::new(0.0, 0.0, 100.0), DVec3::new(0.0, 0.0, -100.0));
//!     assert!((hit.end().z - (radius + 1.0 / 32.0)).abs() < 1e-9);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod bevel;
pub mod collider;
pub mod compile;
pub mod free_index;
pub mod hit_check;
pub mod measure;
pub mod offsets;
pub mod overlap;
pub mod polyhedron;
pub mod sample;
pub mod tree;

#[cfg(test)]
pub(crate) mod testing;

pub use bevel::{BevelMode, BevelModeError};
pub use collider::MelaxCollider;
pub use compile::{MelaxError, compile};
pub use free_index::{FreeIndex, FreeIndexStats};
pub use tree::{BspRef, MelaxStats, MelaxTree, PlainBsp};
