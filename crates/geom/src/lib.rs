//! Geometry for cspace: planes, convex brushes, agent shapes, exact Minkowski expansion, the
//! [`World`], the [`Collider`] contract every backend fulfils, and the exact reference backend.
//!
//! What it pursues, in order: exactness (every other backend is measured against
//! [`ExactCollider`]), robustness (bad input is an error, never a panic), then speed.
//!
//! - [`Plane`] is an oriented plane with a unit normal; its front is empty space.
//! - [`Brush`] is a convex polyhedron built from planes, with vertices, faces, edges and the
//!   bevel planes that make box expansion exact ([`Brush::box_planes`]).
//! - [`Shape`] is an agent: a Quake box (`mins`/`maxs`), a sphere, a vertical cylinder or a convex
//!   hull, with its support function.
//! - [`World`] holds the brushes with their provenance and a spatial index.
//! - [`Collider`] answers swept traces ([`Hit`]) and point queries from `&self` with a
//!   caller-owned [`QueryContext`] (scratch, counters), so one backend serves every thread;
//!   [`ExactCollider`] does it by sweeping the shape against every brush it may touch.
//!
//! ```
//! use std::sync::Arc;
//! use cspace_geom::{Aabb, Brush, Collider, ExactCollider, QueryContext, Shape, World};
//! use glam::DVec3;
//!
//! // A wall 16 units thick across the x axis at x = 64.
//! let wall = Brush::from_aabb(Aabb::new(DVec3::new(64.0, -512.0, -512.0), DVec3::new(80.0, 512.0, 512.0)))?;
//! let exact = ExactCollider::new(Arc::new(World::from_brushes([wall])));
//! let player = exact.prepare(&Shape::new_box(DVec3::new(-16.0, -16.0, -24.0), DVec3::new(16.0, 16.0, 32.0))?)?;
//! // Queries take a caller-owned context (scratch space and counters), reused across calls.
//! let mut ctx = QueryContext::new();
//! let hit = exact.trace(&mut ctx, &player, DVec3::ZERO, DVec3::new(100.0, 0.0, 0.0));
//! // The box's front face (x + 16) touches the wall at x = 48, and stops 1/32 short of it.
//! assert!((hit.end().x - (48.0 - 1.0 / 32.0)).abs() < 1e-9);
//! assert_eq!(hit.surface().unwrap().plane.normal(), DVec3::NEG_X);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod aabb;
pub mod aabb_tree;
pub mod brush;
pub mod collider;
pub mod domain;
pub mod exact;
pub mod expand;
pub mod generate;
pub mod hint;
pub mod patch;
pub mod plane;
pub mod polygon;
pub mod shape;
pub mod tolerance;
pub mod touching;
pub mod world;

pub use aabb::Aabb;
pub use brush::{Brush, BrushError, BrushId};
pub use collider::{
    Collider, ColliderKey, ContextFor, FallThrough, FallThroughs, Hit, HitSurface, MoverCache,
    Parts, Prepared, QueryContext, QueryCounters, TraceOutcome, TypedCollider, TypedContext,
    UnsupportedShape, WithContext,
};
pub use exact::ExactCollider;
pub use patch::{ControlGrid, PatchError, TessellationOptions};
pub use plane::{Plane, PlaneError};
pub use polygon::Polygon;
pub use shape::{BoxShape, Shape, ShapeError};
pub use world::{BrushSource, Contents, World, WorldBrush, WorldMismatch};

pub use glam::DVec3;
