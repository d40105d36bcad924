//! Section 3 (distance computations): the signed distance between a geometry and the hyperplane
//! `L_j` through the centre `x0` with unit normal `v_j`.
//!
//! Algorithm 1 needs, for each geometry `g`, `d_j = min { (p - x0) . v_j : p in g }`: how far `g`
//! reaches towards the centre measured along `v_j`. The paper phrases it through the point of `g`
//! closest to `L_j`; the two agree whenever `g` lies wholly in front of `L_j`, which is the only
//! case where the distance can become a side of the k-UDOP. When `g` crosses `L_j` the paper's
//! closest-point distance would be 0 while the minimum is negative; only the minimum keeps
//! Algorithm 1 conservative (a side at 0 would leave the part of `g` behind `L_j` inside), so the
//! minimum is what every [`Geometry`] returns.
//!
//! Curved geometry: quadratic and cubic Bézier curves in any dimension (Section 3.3:
//! [`QuadraticBezier`], [`CubicBezier`]), the biquadratic pieces of Quake III patches through
//! their row and column curves ([`BiquadraticPatch`], and `cspace_geom::patch::PatchPiece`
//! itself), and any parametric boundary with a bound on a derivative through a piecewise Hermite
//! approximation less its error term (Section 3.5: [`HermiteApproximation`]). A geometry may
//! return a lower bound of its minimum instead of the minimum: Algorithm 1 stays conservative
//! (the k-UDOP's side stops short of the geometry by at most the difference).

mod bezier;
mod parametric;
mod surface;
mod world;

pub use bezier::{CubicBezier, QuadraticBezier, cubic_minimum, quadratic_minimum};
pub use parametric::{
    DerivativeBound, HermiteApproximation, HermiteOrder, HermitePiece, ParametricError,
};
pub use surface::{BiquadraticPatch, DistanceBounds, MAX_HALVINGS, surface_minimum};

use crate::vector::Vector;

/// A geometry whose signed distance to a hyperplane is known (Section 3).
pub trait Geometry<V: Vector> {
    /// `min { (p - centre) . direction : p in self }` for a unit `direction`: negative when the
    /// geometry reaches behind the hyperplane through `centre` with normal `direction`.
    fn signed_distance(&self, centre: V, direction: V) -> f64;

    /// [`Geometry::signed_distance`] for Algorithm 1's test against a side at `side`: the same
    /// value when that is below `side`; otherwise any value at least `side` and at most the
    /// distance (the geometry lies beyond the side, which is all the test needs). A geometry with
    /// a cheap first bound (a Bézier surface's control points) stops there.
    fn signed_distance_against(&self, centre: V, direction: V, side: f64) -> f64 {
        let _ = side;
        self.signed_distance(centre, direction)
    }
}

impl<V: Vector, G: Geometry<V> + ?Sized> Geometry<V> for &G {
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        (**self).signed_distance(centre, direction)
    }

    fn signed_distance_against(&self, centre: V, direction: V, side: f64) -> f64 {
        (**self).signed_distance_against(centre, direction, side)
    }
}

/// Section 3.1: a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point<V>(pub V);

impl<V: Vector> Geometry<V> for Point<V> {
    #[inline]
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        (self.0 - centre).dot(direction)
    }
}

/// Section 3.2: the line segment `a + t (b - a)`, `t` in `[0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment<V> {
    /// One end.
    pub a: V,
    /// The other end.
    pub b: V,
}

impl<V: Vector> Geometry<V> for Segment<V> {
    /// A linear function on a segment is smallest at an end: `min(d(a), d(b))`. (The paper's
    /// crossing point `t = -d(a) / ((b - a) . v)`, where the distance is 0, lies between the ends
    /// exactly when they have opposite signs, and then the minimum is the negative end.)
    #[inline]
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        let da = (self.a - centre).dot(direction);
        let db = (self.b - centre).dot(direction);
        da.min(db)
    }
}

/// Section 3.2: a polygon given by its vertices (convex or not, closed or as a point set: the
/// minimum of a linear function over the polygon is at a vertex, so "the smallest distance of
/// its edges" is the smallest distance of its vertices).
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon<V> {
    /// The vertices, in order.
    pub vertices: Vec<V>,
}

impl<V: Vector> Geometry<V> for Polygon<V> {
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        self.vertices
            .iter()
            .map(|v| (*v - centre).dot(direction))
            .fold(f64::INFINITY, f64::min)
    }
}

/// Section 3.4: a sphere (a disc in 2D) with centre and radius, solid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ball<V> {
    /// The centre.
    pub centre: V,
    /// The radius, in units (non-negative).
    pub radius: f64,
}

impl<V: Vector> Geometry<V> for Ball<V> {
    /// `(c - x0) . v_j - r`.
    #[inline]
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        (self.centre - centre).dot(direction) - self.radius
    }
}

/// An axis-aligned box `[min, max]`, solid: the minimum picks, per axis, the face the direction
/// points away from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisBox<V> {
    /// The smallest corner.
    pub min: V,
    /// The largest corner.
    pub max: V,
}

impl<V: Vector> Geometry<V> for AxisBox<V> {
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        (0..V::DIM)
            .map(|i| {
                let v = direction.component(i);
                let lo = self.min.component(i) - centre.component(i);
                let hi = self.max.component(i) - centre.component(i);
                (v * lo).min(v * hi)
            })
            .sum()
    }
}

/// A geometry grown by `margin` units in every direction (its Minkowski sum with a ball): the
/// distance drops by exactly `margin`. Used to absorb the rounding of brush vertices.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Inflated<G> {
    /// The geometry.
    pub geometry: G,
    /// The margin, in units.
    pub margin: f64,
}

impl<V: Vector, G: Geometry<V>> Geometry<V> for Inflated<G> {
    #[inline]
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        self.geometry.signed_distance(centre, direction) - self.margin
    }

    #[inline]
    fn signed_distance_against(&self, centre: V, direction: V, side: f64) -> f64 {
        self.geometry
            .signed_distance_against(centre, direction, side + self.margin)
            - self.margin
    }
}

#[cfg(test)]
mod tests;
