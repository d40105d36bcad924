//! Direction sets: the `v_i` of Section 2.1, fixed for every k-DOP and k-UDOP built from them.
//!
//! The paper's k counts sides (directions), not pairs: the 26-DOP has 26 directions.

use glam::{DVec2, DVec3};

use crate::polytope::halfspace_vertices_within;
use crate::vector::Vector;
use cspace_geom::tolerance::{VERTEX_SLACK, ZERO_LENGTH};

/// Why a set of directions cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DirectionsError {
    /// Fewer than `D + 1` directions (Section 2.1 requires `k >= D + 1`).
    #[error("{k} directions in {dim} dimensions; at least {} are needed", dim + 1)]
    TooFew {
        /// How many were given.
        k: usize,
        /// The dimension.
        dim: usize,
    },
    /// A direction is zero, or has a non-finite component.
    #[error("direction {index} is zero or not finite")]
    Degenerate {
        /// Its index.
        index: usize,
    },
    /// The directions do not positively span the space (some direction of space makes an angle
    /// of 90 degrees or more with all of them), so their k-DOPs are unbounded.
    #[error("the directions do not surround the centre: their k-DOPs are unbounded")]
    NotSpanning,
    /// No standard k-DOP with this k in this dimension.
    #[error("no standard {k}-DOP in {dim} dimensions (3D: 6, 14, 18, 26; 2D: 4, 8)")]
    UnknownStandard {
        /// The k asked for.
        k: usize,
        /// The dimension.
        dim: usize,
    },
}

/// A fixed set of `k` unit directions with what the constructions need to know about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Directions<V: Vector> {
    vectors: Vec<V>,
    name: String,
    /// Per-axis half extents of the bounding k-DOP of the cube `[-1, 1]^D` (see
    /// [`Directions::cube_hull_extent`]).
    cube_hull_extent: V,
    /// The largest coordinate (max norm) of a vertex of `{x : v_i . x <= 1}`.
    unit_reach: f64,
    /// The cosine of the covering angle.
    covering_cos: f64,
}

impl<V: Vector> Directions<V> {
    /// A set from any non-zero finite vectors (normalised here), named `name`.
    ///
    /// The directions must positively span the space: every k-DOP over them is then bounded
    /// (the construction checks it by enumerating the vertices of `{x : v_i . x <= 1}`,
    /// Section 4.1, in `O(k^(D+1))` at worst).
    pub fn new(name: impl Into<String>, vectors: &[V]) -> Result<Self, DirectionsError> {
        let k = vectors.len();
        if k < V::DIM + 1 {
            return Err(DirectionsError::TooFew { k, dim: V::DIM });
        }
        let mut unit = Vec::with_capacity(k);
        for (index, v) in vectors.iter().enumerate() {
            let length = v.length();
            if !v.is_finite_vector() || !length.is_finite() || length < ZERO_LENGTH {
                return Err(DirectionsError::Degenerate { index });
            }
            unit.push(*v * (1.0 / length));
        }
        // The bounding k-DOP of a box around the origin; an extra box far outside catches
        // unbounded sets (a vertex on it means the k-DOP escapes to infinity).
        const FAR: f64 = 1e6;
        let bounded = |offsets: &[f64]| -> Option<Vec<V>> {
            let mut normals = unit.clone();
            let mut all = offsets.to_vec();
            for axis in 0..V::DIM {
                normals.push(V::axis(axis));
                normals.push(-V::axis(axis));
                all.push(FAR);
                all.push(FAR);
            }
            // The tolerance is set by the unit-sized planes, not by the far box.
            let scale = offsets.iter().fold(1.0f64, |s, o| s.max(o.abs()));
            let vertices = halfspace_vertices_within(&normals, &all, VERTEX_SLACK * scale);
            let escapes = vertices
                .iter()
                .any(|x| (0..V::DIM).any(|i| x.component(i).abs() >= FAR * (1.0 - VERTEX_SLACK)));
            (!escapes && !vertices.is_empty()).then_some(vertices)
        };
        let cube_offsets: Vec<f64> = unit.iter().map(|v| v.norm_l1()).collect();
        let cube_vertices = bounded(&cube_offsets).ok_or(DirectionsError::NotSpanning)?;
        let cube_hull_extent = V::from_fn(|i| {
            cube_vertices
                .iter()
                .map(|x| x.component(i).abs())
                .fold(1.0, f64::max)
        });
        let unit_vertices = bounded(&vec![1.0; k]).ok_or(DirectionsError::NotSpanning)?;
        let unit_reach = unit_vertices
            .iter()
            .map(|x| {
                (0..V::DIM)
                    .map(|i| x.component(i).abs())
                    .fold(0.0, f64::max)
            })
            .fold(0.0, f64::max);
        let circumradius = unit_vertices.iter().map(|x| x.length()).fold(0.0, f64::max);
        Ok(Directions {
            vectors: unit,
            name: name.into(),
            cube_hull_extent,
            unit_reach,
            covering_cos: 1.0 / circumradius,
        })
    }

    /// `k` directions spread evenly (the circle in 2D, the Fibonacci sphere in 3D).
    pub fn evenly_spread(k: usize) -> Result<Self, DirectionsError> {
        Directions::new(format!("even-{k}"), &V::evenly_spread(k))
    }

    /// The directions, unit length.
    pub fn vectors(&self) -> &[V] {
        &self.vectors
    }

    /// The number of directions (sides), `k`.
    pub fn len(&self) -> usize {
        self.vectors.len()
    }

    /// Always false: a set has at least `D + 1` directions.
    pub fn is_empty(&self) -> bool {
        self.vectors.is_empty()
    }

    /// The name (`26-dop`, `even-40`, ...).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Per-axis half extents of the bounding box of `{x : v_i . x <= ||v_i||_1}`, the bounding
    /// k-DOP of the cube `[-1, 1]^D`. Each is at least 1, and exactly 1 when the set holds the
    /// `2 D` axis directions. A k-UDOP capped at radius `R` lies within `R` times this box
    /// around its centre (see [`crate::UdopBuilder`]).
    pub fn cube_hull_extent(&self) -> V {
        self.cube_hull_extent
    }

    /// The largest coordinate of `{x : v_i . x <= 1}`: a k-DOP whose distances are all at most
    /// `H >= 0` lies in the cube of half side `H * unit_reach()` around its centre.
    pub fn unit_reach(&self) -> f64 {
        self.unit_reach
    }

    /// The covering angle `theta`, in radians: every unit vector is within `theta` of some
    /// direction of the set. A k-DOP whose distances are all at most `H` lies within the ball
    /// of radius `H / cos(theta)` around its centre (for `x` in it, some `v_i` is within `theta`
    /// of `x - c`, so `|x - c| cos(theta) <= (x - c) . v_i < h_i <= H`). The bound is reached at
    /// the vertices of `{x : v_i . x <= 1}`, which is how it is computed.
    pub fn covering_angle(&self) -> f64 {
        self.covering_cos.clamp(-1.0, 1.0).acos()
    }

    /// True when `v_{2i+1} = -v_{2i}` for every pair (the standard sets are built so).
    pub fn is_paired(&self) -> bool {
        self.vectors.len().is_multiple_of(2)
            && self.vectors.chunks(2).all(|p| p[0] + p[1] == V::ZERO)
    }
}

/// The directions with components in `{-1, 0, 1}` and `nonzero` non-zero components, normalised,
/// each followed by its opposite; the first non-zero component of each pair's first is positive.
fn lattice_class<V: Vector>(nonzero: usize) -> Vec<V> {
    let d = V::DIM;
    let mut out = Vec::new();
    let total = 3usize.pow(d as u32);
    for code in 0..total {
        let mut c = code;
        let comps: Vec<f64> = (0..d)
            .map(|_| {
                let digit = c % 3;
                c /= 3;
                digit as f64 - 1.0
            })
            .collect();
        let count = comps.iter().filter(|x| **x != 0.0).count();
        let first = comps.iter().find(|x| **x != 0.0).copied();
        if count == nonzero && first == Some(1.0) {
            let v = V::from_fn(|i| comps[i]);
            let v = v * (1.0 / v.length());
            out.push(v);
            out.push(-v);
        }
    }
    // Axes first in axis order, and generally a fixed order: sort pairs by their first vector.
    let mut pairs: Vec<[V; 2]> = out.chunks(2).map(|p| [p[0], p[1]]).collect();
    pairs.sort_by(|a, b| {
        (0..d)
            .map(|i| b[0].component(i).total_cmp(&a[0].component(i)))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    pairs.into_iter().flatten().collect()
}

impl Directions<DVec3> {
    /// The standard k-DOP directions in space, in opposite pairs: 6 (the axes), 14 (axes and
    /// the 8 corner diagonals), 18 (axes and the 12 edge diagonals), 26 (all three).
    pub fn standard(k: usize) -> Result<Self, DirectionsError> {
        let axes = lattice_class::<DVec3>(1);
        let edges = lattice_class::<DVec3>(2);
        let corners = lattice_class::<DVec3>(3);
        let vectors: Vec<DVec3> = match k {
            6 => axes,
            14 => [axes, corners].concat(),
            18 => [axes, edges].concat(),
            26 => [axes, corners, edges].concat(),
            _ => return Err(DirectionsError::UnknownStandard { k, dim: 3 }),
        };
        Directions::new(format!("{k}-dop"), &vectors)
    }
}

impl Directions<DVec2> {
    /// The standard k-DOP directions in the plane, in opposite pairs: 4 (the axes) and 8 (axes
    /// and diagonals).
    pub fn standard(k: usize) -> Result<Self, DirectionsError> {
        let axes = lattice_class::<DVec2>(1);
        let diagonals = lattice_class::<DVec2>(2);
        let vectors: Vec<DVec2> = match k {
            4 => axes,
            8 => [axes, diagonals].concat(),
            _ => return Err(DirectionsError::UnknownStandard { k, dim: 2 }),
        };
        Directions::new(format!("{k}-dop"), &vectors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_sets_have_k_paired_unit_directions() {
        for k in [6, 14, 18, 26] {
            let d = Directions::<DVec3>::standard(k).unwrap();
            assert_eq!(d.len(), k);
            assert!(d.is_paired());
            assert_eq!(
                d.cube_hull_extent(),
                DVec3::ONE,
                "{k}: the axes are in the set"
            );
            for v in d.vectors() {
                assert!((v.length() - 1.0).abs() < 1e-15);
            }
        }
        let d6 = Directions::<DVec3>::standard(6).unwrap();
        assert_eq!(d6.vectors()[0], DVec3::X);
        assert_eq!(d6.vectors()[1], DVec3::NEG_X);
        assert_eq!(d6.unit_reach(), 1.0);
        // The cube's corners are sqrt(3) from its centre: cos(theta) = 1 / sqrt(3).
        assert!((d6.covering_angle().cos() - 1.0 / 3f64.sqrt()).abs() < 1e-12);
        assert_eq!(Directions::<DVec2>::standard(8).unwrap().len(), 8);
        assert!(matches!(
            Directions::<DVec3>::standard(10),
            Err(DirectionsError::UnknownStandard { k: 10, dim: 3 })
        ));
    }

    #[test]
    fn evenly_spread_sets_cover_the_sphere() {
        for k in [4, 8, 20, 40] {
            let d = Directions::<DVec3>::evenly_spread(k).unwrap();
            assert!(d.covering_angle() < std::f64::consts::FRAC_PI_2);
            assert!(d.cube_hull_extent().min_element() >= 1.0);
        }
        // The circle: half the gap between neighbours.
        let d = Directions::<DVec2>::evenly_spread(3).unwrap();
        assert!((d.covering_angle() - std::f64::consts::PI / 3.0).abs() < 1e-12);
    }

    #[test]
    fn sets_that_do_not_surround_the_centre_are_refused() {
        let half = [DVec3::X, DVec3::Y, DVec3::Z, DVec3::new(1.0, 1.0, 1.0)];
        assert_eq!(
            Directions::new("half", &half),
            Err(DirectionsError::NotSpanning)
        );
        assert!(matches!(
            Directions::new("few", &[DVec2::X, DVec2::NEG_X]),
            Err(DirectionsError::TooFew { k: 2, dim: 2 })
        ));
        assert!(matches!(
            Directions::new("zero", &[DVec2::X, DVec2::ZERO, DVec2::Y]),
            Err(DirectionsError::Degenerate { index: 1 })
        ));
    }
}
