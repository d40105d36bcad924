//! The k-UDOP (Section 2.1) and its construction (Algorithm 1).

use std::sync::Arc;

use cspace_geom::tolerance::{BOX_GROWTH, VERTEX_SLACK};
use glam::{DVec2, DVec3};

use crate::directions::Directions;
use crate::geometry::Geometry;
use crate::polytope::{PolytopeError, clip_polygon, halfspace_vertices, planes_3d};
use crate::vector::Vector;

/// Why distances do not make a k-UDOP.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum UdopError {
    /// There must be one distance per direction.
    #[error("{given} distances for {k} directions")]
    LengthMismatch {
        /// Distances given.
        given: usize,
        /// Directions in the set.
        k: usize,
    },
    /// A distance is NaN.
    #[error("distance {index} is NaN")]
    NaN {
        /// Its index.
        index: usize,
    },
}

/// What [`Udop::insert`] did with a geometry (one step of Algorithm 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Insertion {
    /// The geometry already lies beyond side `direction` (`d_i >= h_i`): nothing changed.
    Outside {
        /// The side that excludes it.
        direction: usize,
    },
    /// Side `direction` was moved in to the geometry (`h_m <- d_m` with `m` the largest `d`).
    Cut {
        /// The side moved.
        direction: usize,
    },
    /// The geometry gave a NaN distance: the k-UDOP was made empty (every side at `-inf`),
    /// which is always conservative.
    Collapsed,
}

/// An unbounding k-DOP: the open region `{x : (x - c) . v_i < h_i for all i}` (Section 2.1),
/// which no geometry inserted into it meets.
///
/// Distances may be `+inf` (an uncapped side nothing reached) and may be zero or negative when
/// the centre lies inside or on geometry: the region then does not contain its centre (it may be
/// empty), but it still never meets the geometry. Degenerate k-UDOPs are correct, never wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Udop<V: Vector> {
    directions: Arc<Directions<V>>,
    centre: V,
    distances: Vec<f64>,
}

impl<V: Vector> Udop<V> {
    /// Algorithm 1's start: every `h_i = +inf` (the whole space).
    pub fn unbounded(directions: Arc<Directions<V>>, centre: V) -> Udop<V> {
        let k = directions.len();
        Udop {
            directions,
            centre,
            distances: vec![f64::INFINITY; k],
        }
    }

    /// A capped start: `h_i = radius * ||v_i||_1`, the bounding k-DOP of the cube of half side
    /// `radius` around `centre` (see [`crate::UdopBuilder`] for why this keeps restricted
    /// constructions conservative).
    pub fn capped(directions: Arc<Directions<V>>, centre: V, radius: f64) -> Udop<V> {
        let distances = directions
            .vectors()
            .iter()
            .map(|v| radius * v.norm_l1())
            .collect();
        Udop {
            directions,
            centre,
            distances,
        }
    }

    /// A k-DOP with given distances (not checked against any geometry).
    pub fn from_distances(
        directions: Arc<Directions<V>>,
        centre: V,
        distances: Vec<f64>,
    ) -> Result<Udop<V>, UdopError> {
        if distances.len() != directions.len() {
            return Err(UdopError::LengthMismatch {
                given: distances.len(),
                k: directions.len(),
            });
        }
        if let Some(index) = distances.iter().position(|d| d.is_nan()) {
            return Err(UdopError::NaN { index });
        }
        Ok(Udop {
            directions,
            centre,
            distances,
        })
    }

    /// Algorithm 1 (constructing general k-UDOPs): starts unbounded and inserts every geometry.
    pub fn build<G: Geometry<V>>(
        directions: Arc<Directions<V>>,
        centre: V,
        geometries: impl IntoIterator<Item = G>,
    ) -> Udop<V> {
        let mut udop = Udop::unbounded(directions, centre);
        for g in geometries {
            udop.insert(&g);
        }
        udop
    }

    /// One iteration of Algorithm 1's outer loop: makes the k-UDOP avoid `geometry`.
    ///
    /// With `d_i` the signed distances of Section 3, the geometry is already outside when some
    /// `d_i >= h_i` (all of it lies beyond side `i`). Otherwise the side `m` with the largest
    /// `d_m` is moved in to `h_m = d_m`, after which the geometry lies beyond it.
    ///
    /// The paper tests `h_i > d_i` only over the `i` with `d_i > 0`; that is the same test while
    /// every `h_i > 0`, but once a side has gone to zero or below (a centre on or inside
    /// geometry) it could *raise* `h_m` and free a geometry excluded before. Testing all `i`
    /// means a side only ever moves in, so every exclusion made stays true: the region never
    /// meets any inserted geometry, whatever the order.
    pub fn insert<G: Geometry<V> + ?Sized>(&mut self, geometry: &G) -> Insertion {
        let mut best = (usize::MAX, f64::NEG_INFINITY);
        for (i, (v, h)) in self
            .directions
            .vectors()
            .iter()
            .zip(&self.distances)
            .enumerate()
        {
            let d = geometry.signed_distance_against(self.centre, *v, *h);
            if d.is_nan() {
                return self.collapse();
            }
            if d >= *h {
                return Insertion::Outside { direction: i };
            }
            if d > best.1 || best.0 == usize::MAX {
                best = (i, d);
            }
        }
        let (m, d) = best;
        if m == usize::MAX {
            return self.collapse();
        }
        self.distances[m] = d;
        Insertion::Cut { direction: m }
    }

    fn collapse(&mut self) -> Insertion {
        self.distances.fill(f64::NEG_INFINITY);
        Insertion::Collapsed
    }

    /// The direction set.
    pub fn directions(&self) -> &Arc<Directions<V>> {
        &self.directions
    }

    /// The centre `c`.
    pub fn centre(&self) -> V {
        self.centre
    }

    /// The distances `h_i`, in units along each direction from the centre.
    pub fn distances(&self) -> &[f64] {
        &self.distances
    }

    /// The number of directions, `k`.
    pub fn k(&self) -> usize {
        self.distances.len()
    }

    /// True when the centre lies in the open region (every `h_i > 0`); false for the degenerate
    /// k-UDOP of a centre inside or touching geometry.
    pub fn contains_centre(&self) -> bool {
        self.distances.iter().all(|h| *h > 0.0)
    }

    /// True when `point` lies in the open region: `(x - c) . v_i < h_i` for every `i`.
    pub fn contains_point(&self, point: V) -> bool {
        let offset = point - self.centre;
        self.directions
            .vectors()
            .iter()
            .zip(&self.distances)
            .all(|(v, h)| offset.dot(*v) < *h)
    }
}

impl<V: Vector> Udop<V> {
    /// Checks that the region is bounded and not empty, and returns the largest distance.
    fn finite_extent(&self) -> Result<f64, PolytopeError> {
        if let Some(direction) = self
            .distances()
            .iter()
            .position(|h| h.is_infinite() && *h > 0.0)
        {
            return Err(PolytopeError::Infinite { direction });
        }
        let max = self
            .distances()
            .iter()
            .fold(f64::NEG_INFINITY, |m, h| m.max(*h));
        // With every h_i <= 0 the open region is empty: the directions positively span, so
        // sum l_i v_i = 0 for some l_i >= 0 not all zero, and (x - c) . v_i < h_i <= 0 for all i
        // would give 0 = sum l_i (x - c) . v_i < 0.
        if max <= 0.0 {
            return Err(PolytopeError::Empty);
        }
        Ok(max)
    }

    /// Section 4.1: the vertices of the closure of the region, by intersecting every `D` sides
    /// and keeping the points inside all others (`O(k^(D+1))` at worst).
    pub fn vertices(&self) -> Result<Vec<V>, PolytopeError> {
        self.finite_extent()?;
        let vertices = halfspace_vertices(self.directions().vectors(), self.distances());
        if vertices.len() <= V::DIM {
            return Err(PolytopeError::Empty);
        }
        Ok(vertices.into_iter().map(|x| x + self.centre()).collect())
    }
}

impl Udop<DVec2> {
    /// Section 4.1 in the plane: the polygon of the region, counter-clockwise, by clipping a
    /// square that holds it with each side in turn (the directions' circular order makes the
    /// plane `O(k^2)` at worst; in practice `O(k m)` for `m` sides kept). Sides that end up
    /// without an edge are the unused directions of Table 1.
    pub fn polygon(&self) -> Result<Vec<DVec2>, PolytopeError> {
        let max = self.finite_extent()?;
        // Every h_i <= max, so the region lies within max * unit_reach of the centre.
        let square = max * self.directions().unit_reach() * (1.0 + BOX_GROWTH) + VERTEX_SLACK;
        let polygon = clip_polygon(
            self.centre(),
            self.directions().vectors(),
            self.distances(),
            square,
        );
        if polygon.is_empty() {
            return Err(PolytopeError::Empty);
        }
        Ok(polygon)
    }
}

impl Udop<DVec3> {
    /// Section 4.1 in space: the polyhedron of the region (vertices, faces and edges), through
    /// [`cspace_geom::Brush::from_planes`]; sides that touch it in an edge or a vertex only are
    /// dropped (counted in `Brush::dropped`).
    pub fn polyhedron(&self) -> Result<cspace_geom::Brush, PolytopeError> {
        self.finite_extent()?;
        let planes = planes_3d(self.centre(), self.directions().vectors(), self.distances());
        Ok(cspace_geom::Brush::from_planes(&planes)?)
    }
}
