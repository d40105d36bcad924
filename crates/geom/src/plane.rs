//! Oriented planes `n . x = d` with a unit normal; the front (positive) side is empty space.

use crate::tolerance::{UNIT_NORMAL, ZERO_LENGTH};
use glam::DVec3;

/// Why a plane could not be made.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PlaneError {
    /// The normal (or a distance) has a NaN or infinite component.
    #[error("plane has a non-finite number")]
    NonFinite,
    /// The normal has (almost) zero length.
    #[error("plane normal is zero (or too short to give a direction)")]
    ZeroNormal,
    /// The three points of a `.map` face are collinear or coincide: they span no plane.
    #[error("the plane's three points are collinear or coincide")]
    CollinearPoints,
}

/// Which side of a plane a point is on, with the plane's thickness taken into account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Strictly in front: `n . x - d > thickness` (empty space for a brush plane).
    Front,
    /// Strictly behind: `n . x - d < -thickness` (solid side).
    Back,
    /// Within `thickness` of the plane.
    On,
}

/// An oriented plane `normal . x = dist` with a unit normal.
///
/// Points with `normal . x > dist` are in front (empty side); a brush is the intersection of the
/// back half-spaces of its planes. The normal is unit by construction (see [`Plane::new`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plane {
    normal: DVec3,
    dist: f64,
}

impl Plane {
    /// A plane from any non-zero finite normal and the distance along that normal; both are
    /// rescaled so the normal is unit.
    pub fn new(normal: DVec3, dist: f64) -> Result<Plane, PlaneError> {
        if !normal.is_finite() || !dist.is_finite() {
            return Err(PlaneError::NonFinite);
        }
        let length = normal.length();
        if length < ZERO_LENGTH * normal.abs().max_element().max(1.0) || length == 0.0 {
            return Err(PlaneError::ZeroNormal);
        }
        if length.is_infinite() {
            // The squared length overflows (a component beyond ~1e154): divide by the largest
            // component first, so the direction survives (a hostile `[1, 1, 1e300]` is `+z`).
            let scale = normal.abs().max_element();
            return Plane::new(normal / scale, dist / scale);
        }
        Ok(Plane {
            normal: normal / length,
            dist: dist / length,
        })
    }

    /// A plane with the given unit normal through `point`.
    pub fn from_normal_and_point(normal: DVec3, point: DVec3) -> Result<Plane, PlaneError> {
        if !point.is_finite() {
            return Err(PlaneError::NonFinite);
        }
        let plane = Plane::new(normal, 0.0)?;
        Ok(plane.with_dist(plane.normal.dot(point)))
    }

    /// The plane through three points given as a Quake `.map` face does: the outward normal is
    /// `(p0 - p1) x (p2 - p1)`, and the brush lies behind it (`SOURCES.md`, "Plane orientation").
    pub fn from_map_points(p0: DVec3, p1: DVec3, p2: DVec3) -> Result<Plane, PlaneError> {
        if !(p0.is_finite() && p1.is_finite() && p2.is_finite()) {
            return Err(PlaneError::NonFinite);
        }
        let a = p0 - p1;
        let b = p2 - p1;
        let normal = a.cross(b);
        // Collinear points: the cross product is tiny relative to the edge lengths.
        if normal.length() <= ZERO_LENGTH * a.length() * b.length() || normal == DVec3::ZERO {
            return Err(PlaneError::CollinearPoints);
        }
        let normal = normal.normalize();
        Ok(Plane {
            normal,
            dist: normal.dot(p1),
        })
    }

    /// A plane from a normal that is already unit, kept bit for bit (no renormalisation): for
    /// reading saved planes back. `None` when a number is not finite or the normal's length is
    /// off 1 by more than [`UNIT_NORMAL`].
    pub fn from_unit_normal(normal: DVec3, dist: f64) -> Option<Plane> {
        (normal.is_finite()
            && dist.is_finite()
            && (normal.length_squared() - 1.0).abs() <= UNIT_NORMAL)
            .then_some(Plane { normal, dist })
    }

    /// An axial plane: `normal` must be one of the six unit axes (not checked beyond debug builds).
    pub(crate) fn axial(normal: DVec3, dist: f64) -> Plane {
        debug_assert!((normal.length_squared() - 1.0).abs() < UNIT_NORMAL);
        Plane { normal, dist }
    }

    /// A plane from a normal already known to be unit (within rounding).
    pub(crate) fn from_unit(normal: DVec3, dist: f64) -> Plane {
        debug_assert!(
            (normal.length_squared() - 1.0).abs() < UNIT_NORMAL,
            "{normal}"
        );
        Plane { normal, dist }
    }

    /// The unit normal, pointing to the empty side.
    #[inline]
    pub fn normal(&self) -> DVec3 {
        self.normal
    }

    /// The distance from the origin along the normal: points on the plane satisfy `n . x = dist`.
    #[inline]
    pub fn dist(&self) -> f64 {
        self.dist
    }

    /// The same normal with another distance.
    #[inline]
    pub fn with_dist(self, dist: f64) -> Plane {
        Plane { dist, ..self }
    }

    /// The plane moved `delta` units along its normal (outwards for positive `delta`).
    #[inline]
    pub fn shifted(self, delta: f64) -> Plane {
        Plane {
            dist: self.dist + delta,
            ..self
        }
    }

    /// The plane translated by `offset` (every point of it moves by `offset`).
    #[inline]
    pub fn translated(self, offset: DVec3) -> Plane {
        self.shifted(self.normal.dot(offset))
    }

    /// The same plane facing the other way.
    #[inline]
    pub fn flipped(self) -> Plane {
        Plane {
            normal: -self.normal,
            dist: -self.dist,
        }
    }

    /// Signed distance of `point` to the plane: positive in front (empty side).
    #[inline]
    pub fn signed_distance(&self, point: DVec3) -> f64 {
        self.normal.dot(point) - self.dist
    }

    /// Which side of the plane `point` is on, with a plane of half-thickness `thickness`.
    #[inline]
    pub fn side_of(&self, point: DVec3, thickness: f64) -> Side {
        let d = self.signed_distance(point);
        if d > thickness {
            Side::Front
        } else if d < -thickness {
            Side::Back
        } else {
            Side::On
        }
    }

    /// The point where the line through `a` and `b` crosses the plane, given their signed
    /// distances `da` and `db` (which must differ).
    #[inline]
    pub fn crossing(a: DVec3, b: DVec3, da: f64, db: f64) -> DVec3 {
        let t = da / (da - db);
        a + (b - a) * t
    }

    /// True when both planes have the same orientation and position within the given tolerances.
    pub fn approx_eq(&self, other: &Plane, normal_tolerance: f64, dist_tolerance: f64) -> bool {
        self.normal.abs_diff_eq(other.normal, normal_tolerance)
            && (self.dist - other.dist).abs() <= dist_tolerance
    }

    /// True when the normal is one of the six coordinate axes.
    pub fn is_axial(&self) -> bool {
        let n = self.normal.abs();
        n.max_element() == 1.0 && n.min_element() == 0.0 && n.x + n.y + n.z == 1.0
    }

    /// Two orthonormal vectors spanning the plane, `(u, v)` with `u x v = normal`.
    pub fn basis(&self) -> (DVec3, DVec3) {
        let n = self.normal;
        // Pick the axis least aligned with the normal for a stable cross product.
        let a = n.abs();
        let helper = if a.x <= a.y && a.x <= a.z {
            DVec3::X
        } else if a.y <= a.z {
            DVec3::Y
        } else {
            DVec3::Z
        };
        let u = helper.cross(n).normalize();
        let v = n.cross(u);
        (u, v)
    }
}

/// The point common to three planes, when their normals are independent enough.
pub fn intersect_three(a: &Plane, b: &Plane, c: &Plane) -> Option<DVec3> {
    let bc = b.normal.cross(c.normal);
    let det = a.normal.dot(bc);
    if det.abs() < ZERO_LENGTH {
        return None;
    }
    let ca = c.normal.cross(a.normal);
    let ab = a.normal.cross(b.normal);
    Some((bc * a.dist + ca * b.dist + ab * c.dist) / det)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_points_follow_quake_orientation() {
        // A floor face from id's maps: ( 0 0 0 ) ( 0 64 0 ) ( 64 0 0 ) is the top of a brush below z=0.
        let p = Plane::from_map_points(
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(0.0, 64.0, 0.0),
            DVec3::new(64.0, 0.0, 0.0),
        )
        .unwrap();
        // (p0-p1) x (p2-p1) = (0,-64,0) x (64,-64,0) = (0,0,4096): up.
        assert_eq!(p.normal(), DVec3::Z);
        assert_eq!(p.dist(), 0.0);
    }

    /// A normal whose squared length overflows keeps its direction (it became a zero normal
    /// that compiled into an invalid onion tree: the fuzzer's world case 862 of seed 1).
    #[test]
    fn huge_normals_keep_their_direction() {
        let p = Plane::new(DVec3::new(-0.866, 0.5, -1e300), 600.0).unwrap();
        assert!((p.normal() + DVec3::Z).length() < 1e-15, "{}", p.normal());
        assert_eq!(p.dist(), 600.0 / 1e300);
        let p = Plane::new(DVec3::new(1e200, 1e200, 0.0), 1e200).unwrap();
        assert!((p.normal().length() - 1.0).abs() < 1e-15 && p.dist().is_finite());
    }

    #[test]
    fn collinear_points_are_refused() {
        let e = Plane::from_map_points(DVec3::ZERO, DVec3::X, DVec3::X * 2.0).unwrap_err();
        assert_eq!(e, PlaneError::CollinearPoints);
        let e = Plane::new(DVec3::new(f64::NAN, 0.0, 1.0), 0.0).unwrap_err();
        assert_eq!(e, PlaneError::NonFinite);
        assert_eq!(
            Plane::new(DVec3::ZERO, 1.0).unwrap_err(),
            PlaneError::ZeroNormal
        );
        // A zero normal given as a normal says so, not "three points" (a TOML world's plane).
        assert!(!PlaneError::ZeroNormal.to_string().contains("points"));
    }

    #[test]
    fn new_normalises_normal_and_distance() {
        let p = Plane::new(DVec3::new(0.0, 0.0, 2.0), 8.0).unwrap();
        assert_eq!(p.normal(), DVec3::Z);
        assert_eq!(p.dist(), 4.0);
        assert_eq!(p.side_of(DVec3::new(0.0, 0.0, 5.0), 1e-6), Side::Front);
        assert_eq!(p.side_of(DVec3::new(0.0, 0.0, 4.0), 1e-6), Side::On);
        assert_eq!(p.side_of(DVec3::new(0.0, 0.0, 3.0), 1e-6), Side::Back);
    }

    #[test]
    fn unit_normal_planes_are_kept_bit_for_bit() {
        let p = Plane::new(DVec3::new(1.0, 2.0, 3.0), 5.0).unwrap();
        let q = Plane::from_unit_normal(p.normal(), p.dist()).unwrap();
        assert_eq!(
            p.normal().to_array().map(f64::to_bits),
            q.normal().to_array().map(f64::to_bits)
        );
        assert_eq!(
            Plane::from_unit_normal(DVec3::new(2.0, 0.0, 0.0), 1.0),
            None
        );
        assert_eq!(Plane::from_unit_normal(DVec3::X, f64::NAN), None);
    }

    #[test]
    fn three_planes_meet_at_a_corner() {
        let x = Plane::new(DVec3::X, 1.0).unwrap();
        let y = Plane::new(DVec3::Y, 2.0).unwrap();
        let z = Plane::new(DVec3::Z, 3.0).unwrap();
        assert_eq!(intersect_three(&x, &y, &z), Some(DVec3::new(1.0, 2.0, 3.0)));
        assert_eq!(intersect_three(&x, &x, &z), None);
    }
}
