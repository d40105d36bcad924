//! k-UDOPs for cspace: unbounding discrete oriented polytopes (Kiglics, Valasek, Bálint,
//! "Unbounding discrete oriented polytopes"), used as a free-space cache for agent traces and as
//! an agent-agent broadphase.
//!
//! What it pursues, in order: never a wrong answer (a k-UDOP never meets geometry, the cache
//! never changes a backend's answer, the broadphase never misses a pair), determinism, then speed.
//!
//! - [`Directions`] is a fixed set of `k` unit directions: the standard 6/14/18/26-DOP sets
//!   (4/8 in the plane) or `k` evenly spread ones. Everything is generic over the dimension
//!   through [`Vector`] (glam's `DVec2` and `DVec3`).
//! - [`Udop`] is a k-UDOP: a centre and one distance per direction. [`Udop::insert`] is one step
//!   of Algorithm 1 over any [`Geometry`] with a Section 3 signed distance (points, segments,
//!   polygons, spheres, boxes, Bézier curves, convex brushes). [`Udop::ray_interval`] is
//!   Algorithm 2, [`Udop::contains_kdop`] Algorithm 3, [`Udop::vertices`],
//!   [`Udop::polygon`] and [`Udop::polyhedron`] Section 4.1.
//! - [`UdopBuilder`] builds a k-UDOP from the brushes of a [`cspace_geom::World`] near a point,
//!   with a cap that keeps the restriction conservative (proved on the type); patch facets are
//!   bounded by their curved pieces (Section 3.3 over biquadratic surfaces, [`PatchBound`]).
//!   Section 3.5's parametric boundaries are [`geometry::HermiteApproximation`].
//! - [`CellUdops`] keeps a k-UDOP per cell of a fixed grid over a world, built around each
//!   cell's centre on first use (or all at once) and shared by every mover and thread.
//! - [`UdopCache`] is a [`cspace_geom::Collider`] that wraps another backend and answers a move
//!   as free, without asking it, when the mover's swept bounding [`Kdop`] lies in the k-UDOP of
//!   the cell it starts (or ends) in.
//! - [`Broadphase`] returns every pair of agents whose swept bounding k-DOPs overlap (sweep and
//!   prune on one axis).
//! - The paper's Table 1 and Figure 4 are reproduced by the `udop-table` tool (`tools/udop-table`:
//!   `cargo run --release -p cspace-udop-table`).
//!
//! ```
//! use std::sync::Arc;
//! use cspace_udop::{Directions, Udop, geometry::{Ball, Point}};
//! use glam::DVec2;
//!
//! let directions = Arc::new(Directions::<DVec2>::standard(8)?);
//! let mut udop = Udop::unbounded(directions, DVec2::ZERO);
//! udop.insert(&Point(DVec2::new(2.0, 0.0)));
//! udop.insert(&Ball { centre: DVec2::new(0.0, 3.0), radius: 1.0 });
//! // The point is excluded by the side along +x, the disc by the side along +y.
//! assert_eq!(udop.distances()[0], 2.0);
//! assert_eq!(udop.distances()[2], 2.0);
//! assert!(udop.contains_point(DVec2::new(1.9, 1.9)));
//! assert!(!udop.contains_point(DVec2::new(2.0, 0.0)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod broadphase;
pub mod cache;
pub mod cells;
mod containment;
pub mod directions;
pub mod geometry;
pub mod kdop;
pub mod polytope;
mod ray;
pub mod udop;
pub mod vector;
pub mod world;

pub use broadphase::{Broadphase, BroadphaseError, SweptAgent};
pub use cache::{CacheConfig, UdopCache};
pub use cells::{CellStats, CellUdops, GridConfig};
pub use directions::{Directions, DirectionsError};
pub use geometry::Geometry;
pub use kdop::Kdop;
pub use polytope::PolytopeError;
pub use udop::{Insertion, Udop, UdopError};
pub use vector::Vector;
pub use world::{BuildOrder, BuildScratch, PatchBound, UdopBuilder, UdopBuilderError};
