//! The k-UDOP (Section 2.1) and its construction (Algorithm 1).

use std::sync::Arc;

use crate::directions::Directions;
use crate::geometry::Geometry;
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
