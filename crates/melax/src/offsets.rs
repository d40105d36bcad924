//! How far each node plane is shifted for a shape (Melax Section 3).
//!
//! A shape `S` at origin `p` reaches behind the plane `n . x = d` when
//! `n . p < d + support(-n)`, and in front of it when `n . p > d - support(n)`: the plane is shifted
//! *up* by the support in `-n` for the solid (under) side and *down* by the support in `+n` for
//! the over side. The two shifts differ for shapes not centred on their origin (Quake boxes).

use cspace_geom::DVec3;
use cspace_geom::shape::ConvexHull;

/// The two plane shifts of a shape, per node plane.
pub trait Offsets {
    /// `(back, front)` for the unit normal `normal` whose horizontal length
    /// `sqrt(nx^2 + ny^2)` is `horizontal`: `back = max s . -n` (the plane moves up by it for the
    /// under child) and `front = max s . n` (it moves down by it for the over child), in units.
    fn offsets(&self, normal: DVec3, horizontal: f64) -> (f64, f64);

    /// Whether the walks take back runs in one loop (`hit_check::back_run`). Not for a point:
    /// its contact band is `CONTACT` thin, so the one-side tests settle nearly every bevel node
    /// at once, and testing every node for a run costs it more than the runs save.
    #[inline(always)]
    fn back_runs(&self) -> bool {
        true
    }
}

/// A point: no shift (ray and point queries on the plain tree).
#[derive(Debug, Clone, Copy, Default)]
pub struct PointOffsets;

impl Offsets for PointOffsets {
    #[inline(always)]
    fn back_runs(&self) -> bool {
        false
    }

    #[inline(always)]
    fn offsets(&self, _: DVec3, _: f64) -> (f64, f64) {
        (0.0, 0.0)
    }
}

/// A sphere of radius `r` centred on the origin: both shifts are `r` (Section 3).
#[derive(Debug, Clone, Copy)]
pub struct SphereOffsets {
    /// The radius, in units.
    pub radius: f64,
}

impl Offsets for SphereOffsets {
    #[inline(always)]
    fn offsets(&self, _: DVec3, _: f64) -> (f64, f64) {
        (self.radius, self.radius)
    }
}

/// A vertical cylinder centred on the origin: `r * sqrt(nx^2 + ny^2) + h * |nz|` both ways
/// (Section 3).
#[derive(Debug, Clone, Copy)]
pub struct CylinderOffsets {
    /// The radius, in units.
    pub radius: f64,
    /// Half the height, in units.
    pub half_height: f64,
}

impl Offsets for CylinderOffsets {
    #[inline(always)]
    fn offsets(&self, normal: DVec3, horizontal: f64) -> (f64, f64) {
        let d = self.radius * horizontal + self.half_height * normal.z.abs();
        (d, d)
    }
}

/// An axis-aligned box `[mins, maxs]` relative to the origin (Quake's hull, not centred):
/// `|n| . half -/+ n . centre`.
#[derive(Debug, Clone, Copy)]
pub struct BoxOffsets {
    centre: DVec3,
    half: DVec3,
}

impl BoxOffsets {
    /// The offsets of the box `[mins, maxs]`.
    pub fn new(mins: DVec3, maxs: DVec3) -> BoxOffsets {
        BoxOffsets {
            centre: (mins + maxs) * 0.5,
            half: (maxs - mins) * 0.5,
        }
    }
}

impl Offsets for BoxOffsets {
    #[inline(always)]
    fn offsets(&self, normal: DVec3, _: f64) -> (f64, f64) {
        let extent = normal.abs().dot(self.half);
        let centre = normal.dot(self.centre);
        (extent - centre, extent + centre)
    }
}

/// A convex hull: the maxima of `v . -n` and `v . n` over its vertices (Section 3's general
/// convex offset; the vertex reaching furthest is the impact point).
#[derive(Debug, Clone)]
pub struct HullOffsets {
    vertices: Vec<DVec3>,
}

impl HullOffsets {
    /// The offsets of `hull`.
    pub fn new(hull: &ConvexHull) -> HullOffsets {
        HullOffsets {
            vertices: hull.polyhedron().vertices().to_vec(),
        }
    }
}

impl Offsets for HullOffsets {
    #[inline]
    fn offsets(&self, normal: DVec3, _: f64) -> (f64, f64) {
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in &self.vertices {
            let d = v.dot(normal);
            low = low.min(d);
            high = high.max(d);
        }
        (-low, high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_geom::Shape;
    use cspace_geom::generate::Rng;

    /// Every offset is the shape's support distance (geom's reference) in `-n` and `+n`.
    #[test]
    fn offsets_are_support_distances() {
        let mut rng = Rng::new(5);
        let hull = Shape::new_hull(&[
            DVec3::new(-3.0, -1.0, -2.0),
            DVec3::new(4.0, 0.0, -2.0),
            DVec3::new(0.0, 5.0, -1.0),
            DVec3::new(1.0, 1.0, 6.0),
            DVec3::new(-2.0, 2.0, 1.0),
        ])
        .unwrap();
        let Shape::Hull(h) = &hull else {
            unreachable!()
        };
        let cases: Vec<(Shape, Box<dyn Offsets>)> = vec![
            (
                Shape::new_box(DVec3::new(-16.0, -8.0, -24.0), DVec3::new(16.0, 12.0, 32.0))
                    .unwrap(),
                Box::new(BoxOffsets::new(
                    DVec3::new(-16.0, -8.0, -24.0),
                    DVec3::new(16.0, 12.0, 32.0),
                )),
            ),
            (
                Shape::new_sphere(7.0).unwrap(),
                Box::new(SphereOffsets { radius: 7.0 }),
            ),
            (
                Shape::new_cylinder(5.0, 9.0).unwrap(),
                Box::new(CylinderOffsets {
                    radius: 5.0,
                    half_height: 9.0,
                }),
            ),
            (hull.clone(), Box::new(HullOffsets::new(h))),
            (Shape::POINT, Box::new(PointOffsets)),
        ];
        for _ in 0..200 {
            let n = rng.unit_vector();
            let horizontal = (n.x * n.x + n.y * n.y).sqrt();
            for (shape, offsets) in &cases {
                let (back, front) = offsets.offsets(n, horizontal);
                let (want_back, want_front) =
                    (shape.support_distance(-n), shape.support_distance(n));
                assert!(
                    (back - want_back).abs() < 1e-12 && (front - want_front).abs() < 1e-12,
                    "{}: n {n}: got ({back}, {front}), want ({want_back}, {want_front})",
                    shape.describe()
                );
            }
        }
    }
}
