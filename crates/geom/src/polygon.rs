//! Convex planar polygons: classification against planes, splitting and clipping.

use glam::DVec3;

use crate::plane::{Plane, Side};
use crate::tolerance::PLANE_THICKNESS;

/// How a polygon lies relative to a plane (Golodetz Listing 2's `classify_against_plane`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolygonSide {
    /// Every vertex is in front of or on the plane, at least one in front.
    Front,
    /// Every vertex is behind or on the plane, at least one behind.
    Back,
    /// Every vertex is on the plane.
    Coplanar,
    /// Vertices on both sides: the polygon must be split.
    Straddle,
}

/// A convex polygon lying in `plane`, vertices in counter-clockwise order seen from the front.
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    /// The vertices, counter-clockwise seen from the front of `plane`.
    pub vertices: Vec<DVec3>,
    /// The plane the polygon lies in; its normal is the polygon's facing.
    pub plane: Plane,
}

impl Polygon {
    /// A square of half side `half_extent` on `plane`, centred on the point of the plane closest
    /// to the origin, wound counter-clockwise seen from the front.
    pub fn square_on(plane: Plane, half_extent: f64) -> Polygon {
        Polygon::square_around(plane, plane.normal() * plane.dist(), half_extent)
    }

    /// A square of half side `half_extent` on `plane` centred on `centre` (a point of the plane),
    /// wound counter-clockwise seen from the front.
    pub fn square_around(plane: Plane, centre: DVec3, half_extent: f64) -> Polygon {
        let (u, v) = plane.basis();
        let (u, v) = (u * half_extent, v * half_extent);
        Polygon {
            vertices: vec![
                centre - u - v,
                centre + u - v,
                centre + u + v,
                centre - u + v,
            ],
            plane,
        }
    }

    /// Classifies the polygon against `plane` with half-thickness `thickness`.
    pub fn side_of(&self, plane: &Plane, thickness: f64) -> PolygonSide {
        points_side_of(self.vertices.iter().copied(), plane, thickness)
    }

    /// Splits the polygon by `plane` into its back and front parts (either may be `None`).
    ///
    /// Vertices within [`PLANE_THICKNESS`] of the plane go to both parts; a coplanar polygon goes
    /// to the side its normal faces. Parts with fewer than three vertices are dropped.
    pub fn split(&self, plane: &Plane) -> (Option<Polygon>, Option<Polygon>) {
        self.split_with(plane, PLANE_THICKNESS)
    }

    /// [`Polygon::split`] with a plane of half-thickness `thickness`: both parts share the same
    /// crossing points.
    pub fn split_with(&self, plane: &Plane, thickness: f64) -> (Option<Polygon>, Option<Polygon>) {
        match self.side_of(plane, thickness) {
            PolygonSide::Front => (None, Some(self.clone())),
            PolygonSide::Back => (Some(self.clone()), None),
            PolygonSide::Coplanar => {
                if self.plane.normal().dot(plane.normal()) > 0.0 {
                    (None, Some(self.clone()))
                } else {
                    (Some(self.clone()), None)
                }
            }
            PolygonSide::Straddle => {
                let (back, front) = self.split_vertices(plane, thickness);
                (self.part(back), self.part(front))
            }
        }
    }

    /// The part of the polygon behind `plane` (or on it), `None` when nothing is left.
    ///
    /// A polygon coplanar with `plane` is kept whatever its facing.
    pub fn clipped_behind(&self, plane: &Plane) -> Option<Polygon> {
        self.clipped_behind_with(plane, PLANE_THICKNESS)
    }

    /// [`Polygon::clipped_behind`] with a plane of half-thickness `thickness` (0 for exact
    /// crossings).
    pub fn clipped_behind_with(&self, plane: &Plane, thickness: f64) -> Option<Polygon> {
        match self.side_of(plane, thickness) {
            PolygonSide::Front => None,
            PolygonSide::Back | PolygonSide::Coplanar => Some(self.clone()),
            PolygonSide::Straddle => self.part(self.split_vertices(plane, thickness).0),
        }
    }

    fn part(&self, vertices: Vec<DVec3>) -> Option<Polygon> {
        (vertices.len() >= 3).then_some(Polygon {
            vertices,
            plane: self.plane,
        })
    }

    /// Sutherland-Hodgman split of a straddling polygon into back and front vertex loops.
    fn split_vertices(&self, plane: &Plane, thickness: f64) -> (Vec<DVec3>, Vec<DVec3>) {
        let n = self.vertices.len();
        let distances: Vec<f64> = self
            .vertices
            .iter()
            .map(|&v| plane.signed_distance(v))
            .collect();
        let side = |d: f64| {
            if d > thickness {
                Side::Front
            } else if d < -thickness {
                Side::Back
            } else {
                Side::On
            }
        };
        let mut back = Vec::with_capacity(n + 1);
        let mut front = Vec::with_capacity(n + 1);
        for i in 0..n {
            let (a, da) = (self.vertices[i], distances[i]);
            let j = (i + 1) % n;
            let (b, db) = (self.vertices[j], distances[j]);
            let (sa, sb) = (side(da), side(db));
            match sa {
                Side::Front => front.push(a),
                Side::Back => back.push(a),
                Side::On => {
                    front.push(a);
                    back.push(a);
                }
            }
            if (sa == Side::Front && sb == Side::Back) || (sa == Side::Back && sb == Side::Front) {
                // Compute the crossing from the front vertex so both neighbours get the same point.
                let mid = if sa == Side::Front {
                    Plane::crossing(a, b, da, db)
                } else {
                    Plane::crossing(b, a, db, da)
                };
                front.push(mid);
                back.push(mid);
            }
        }
        (back, front)
    }

    /// The average of the vertices (inside the polygon, as it is convex).
    pub fn vertex_mean(&self) -> DVec3 {
        self.vertices.iter().copied().sum::<DVec3>() / self.vertices.len() as f64
    }

    /// The perimeter, in units.
    pub fn perimeter(&self) -> f64 {
        let n = self.vertices.len();
        (0..n)
            .map(|i| self.vertices[i].distance(self.vertices[(i + 1) % n]))
            .sum()
    }

    /// The area of the polygon, in square units.
    pub fn area(&self) -> f64 {
        let origin = self.vertices[0];
        let mut twice = DVec3::ZERO;
        for w in self.vertices[1..].windows(2) {
            twice += (w[0] - origin).cross(w[1] - origin);
        }
        twice.dot(self.plane.normal()).abs() * 0.5
    }

    /// The polygon facing the other way (reversed winding, flipped plane).
    pub fn flipped(&self) -> Polygon {
        let mut vertices = self.vertices.clone();
        vertices.reverse();
        Polygon {
            vertices,
            plane: self.plane.flipped(),
        }
    }

    /// The point of the polygon closest to `point`.
    pub fn closest_point(&self, point: DVec3) -> DVec3 {
        closest_on_convex_loop(
            &self.plane,
            self.vertices.len(),
            |i| self.vertices[i],
            point,
        )
    }
}

/// The point of a convex polygon in `plane`, given by `count` vertices `vertex(i)` wound
/// counter-clockwise seen from the front, closest to `point` (no allocation).
pub(crate) fn closest_on_convex_loop(
    plane: &Plane,
    count: usize,
    vertex: impl Fn(usize) -> DVec3,
    point: DVec3,
) -> DVec3 {
    let n = plane.normal();
    let projected = point - n * plane.signed_distance(point);
    let inside = (0..count).all(|i| {
        let a = vertex(i);
        let b = vertex((i + 1) % count);
        // Outward edge normal in the plane for a counter-clockwise loop.
        (b - a).cross(n).dot(projected - a) <= 0.0
    });
    if inside {
        return projected;
    }
    let mut best = vertex(0);
    let mut best_d2 = f64::INFINITY;
    for i in 0..count {
        let q = closest_on_segment(vertex(i), vertex((i + 1) % count), point);
        let d2 = q.distance_squared(point);
        if d2 < best_d2 {
            best_d2 = d2;
            best = q;
        }
    }
    best
}

/// The point of segment `ab` closest to `p`.
pub fn closest_on_segment(a: DVec3, b: DVec3, p: DVec3) -> DVec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 == 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// Where a set of points (a polygon's or a polyhedron's vertices) lies against `plane` with
/// half-thickness `thickness`: all in front, all behind, on both sides, or all on it.
pub fn points_side_of(
    points: impl IntoIterator<Item = DVec3>,
    plane: &Plane,
    thickness: f64,
) -> PolygonSide {
    let (mut front, mut back) = (false, false);
    for v in points {
        match plane.side_of(v, thickness) {
            Side::Front => front = true,
            Side::Back => back = true,
            Side::On => {}
        }
        if front && back {
            return PolygonSide::Straddle;
        }
    }
    match (front, back) {
        (true, _) => PolygonSide::Front,
        (_, true) => PolygonSide::Back,
        _ => PolygonSide::Coplanar,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_square() -> Polygon {
        Polygon {
            vertices: vec![
                DVec3::new(0.0, 0.0, 0.0),
                DVec3::new(1.0, 0.0, 0.0),
                DVec3::new(1.0, 1.0, 0.0),
                DVec3::new(0.0, 1.0, 0.0),
            ],
            plane: Plane::new(DVec3::Z, 0.0).unwrap(),
        }
    }

    #[test]
    fn split_keeps_area() {
        let square = unit_square();
        let cut = Plane::new(DVec3::new(1.0, 1.0, 0.0), 0.5).unwrap();
        assert_eq!(square.side_of(&cut, PLANE_THICKNESS), PolygonSide::Straddle);
        let (back, front) = square.split(&cut);
        let (back, front) = (back.unwrap(), front.unwrap());
        assert!((back.area() + front.area() - 1.0).abs() < 1e-12);
        assert_eq!(back.vertices.len(), 3);
        assert_eq!(front.vertices.len(), 5);
    }

    #[test]
    fn square_on_plane_faces_forward() {
        let plane = Plane::new(DVec3::new(1.0, 2.0, 3.0), 5.0).unwrap();
        let poly = Polygon::square_on(plane, 10.0);
        for &v in &poly.vertices {
            assert!(plane.signed_distance(v).abs() < 1e-12);
        }
        let v = &poly.vertices;
        let normal = (v[1] - v[0]).cross(v[2] - v[1]).normalize();
        assert!(normal.abs_diff_eq(plane.normal(), 1e-12));
        assert!((poly.area() - 400.0).abs() < 1e-9);
    }

    #[test]
    fn closest_point_inside_and_outside() {
        let square = unit_square();
        let inside = square.closest_point(DVec3::new(0.25, 0.5, 3.0));
        assert_eq!(inside, DVec3::new(0.25, 0.5, 0.0));
        let outside = square.closest_point(DVec3::new(2.0, 0.5, -1.0));
        assert_eq!(outside, DVec3::new(1.0, 0.5, 0.0));
    }
}
