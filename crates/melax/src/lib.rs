//! Melax's dynamic plane shifting BSP traversal ("Dynamic Plane Shifting BSP Traversal",
//! Graphics Interface 2000): one plain solid BSP tree answers traces for boxes, spheres, vertical
//! cylinders and convex hulls of any size, by shifting each node's plane by the shape's support
//! while the segment goes down the tree.
//!
//! What it pursues, in order: one tree for every shape (no recompilation), speed close to a ray
//! trace, then accuracy (measured against the exact backend, not assumed; see `docs/melax.md`).
//!
//! - [`MelaxTree`] is a plain BSP (the onion compiler's single zero-size space) in one
//!   packed node array, with bevel nodes below each solid leaf ([`BevelMode`], Section 5).
//! - [`MelaxCollider`] is the [`cspace_geom::Collider`]: `HitCheckBSP` (Section 3) with the
//!   offsets of [`offsets`], the nodes visited counted ([`MelaxCounters`]).
//! - [`overlap`] holds the stationary queries `M()` (merge, slicing) and `F()` (no slice) of
//!   Section 6.
//!

pub mod bevel;
pub mod collider;
pub mod hit_check;
pub mod offsets;
pub mod overlap;
pub mod polyhedron;
pub mod tree;

#[cfg(test)]
pub(crate) mod testing;

pub use bevel::BevelMode;
pub use collider::{MelaxCollider, MelaxCounters};
pub use tree::{BspRef, MelaxStats, MelaxTree, PlainBsp};
