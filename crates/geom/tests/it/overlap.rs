//! Independent overlap tests (shape placed at a point against one brush), by other means than the
//! exact backend's plane offsets and rounded patches: clipping for polyhedra, closest points for
//! spheres, slab clipping plus a 2D hull distance for cylinders.

use cspace_geom::brush::Brush;
use cspace_geom::shape::Shape;
use cspace_geom::{DVec3, Plane};
use glam::DVec2;

/// Does `shape` at `at`, grown by `margin` (shrunk when negative), overlap `brush`?
///
/// Boxes (shrunk or grown) and grown hulls use the GJK distance (it sees vertex-on-face contacts
/// at any size); shrunk hulls use clipping, which cannot see pieces thinner than about 2e-6 units;
/// spheres the closest point; cylinders the horizontal gap to the brush's horizontal sections.
pub fn overlaps(brush: &Brush, shape: &Shape, at: DVec3, margin: f64) -> bool {
    match shape {
        Shape::Box(b) => {
            let (mins, maxs) = (
                b.mins - DVec3::splat(margin.min(0.0)),
                b.maxs + DVec3::splat(margin.min(0.0)),
            );
            if mins.cmpgt(maxs).any() {
                return false;
            }
            let corners: Vec<DVec3> = (0..8)
                .map(|i| {
                    at + DVec3::new(
                        if i & 1 == 0 { mins.x } else { maxs.x },
                        if i & 2 == 0 { mins.y } else { maxs.y },
                        if i & 4 == 0 { mins.z } else { maxs.z },
                    )
                })
                .collect();
            crate::gjk::distance(&corners, brush.vertices()) <= margin.max(0.0)
        }
        Shape::Hull(h) if margin >= 0.0 => {
            let points: Vec<DVec3> = h.polyhedron().vertices().iter().map(|v| *v + at).collect();
            crate::gjk::distance(&points, brush.vertices()) <= margin
        }
        Shape::Hull(h) => {
            let planes: Vec<Plane> = h
                .polyhedron()
                .planes()
                .map(|p| p.translated(at).shifted(margin))
                .collect();
            clip_has_volume(brush, &planes, margin)
        }
        Shape::Sphere { radius } => brush.closest_point(at).distance(at) < radius + margin,
        Shape::Cylinder {
            radius,
            half_height,
        } => {
            // Grown (or shrunk) by the margin in radius and half-height. The horizontal gap
            // g(z) between the axis and the brush's slice at height z is convex in z, so its
            // minimum over the cylinder's height is found by ternary search.
            let (r, h) = (radius + margin, half_height + margin);
            if r <= 0.0 || h <= 0.0 {
                return false;
            }
            let bounds = brush.bounds();
            let (lo, hi) = ((at.z - h).max(bounds.min.z), (at.z + h).min(bounds.max.z));
            if lo > hi {
                return false;
            }
            let gap = |z: f64| distance_to_hull_2d(&slice(brush, z), at.truncate());
            let (mut a, mut b) = (lo, hi);
            for _ in 0..100 {
                let (m1, m2) = (a + (b - a) / 3.0, b - (b - a) / 3.0);
                if gap(m1) <= gap(m2) {
                    b = m2;
                } else {
                    a = m1;
                }
            }
            let best = gap(lo).min(gap(hi)).min(gap(0.5 * (a + b)));
            if margin < 0.0 { best < r } else { best <= r }
        }
    }
}

/// The brush clipped by `planes` keeps a volume. With a negative margin the agent is shrunk, so a
/// clipped piece thinner than the margin is only touching.
fn clip_has_volume(brush: &Brush, planes: &[Plane], margin: f64) -> bool {
    if let Some(polygon) = brush.flat_polygon() {
        // A facet has no volume: the shrunk hull overlaps it when it cuts a piece of positive
        // area out of the polygon.
        let mut piece = Some(polygon);
        for plane in planes {
            piece = piece.and_then(|p| p.clipped_behind_with(plane, 0.0));
        }
        return piece.is_some_and(|p| p.area() > 0.0);
    }
    let mut all: Vec<Plane> = brush.planes().collect();
    all.extend_from_slice(planes);
    match Brush::from_planes(&all) {
        Ok(piece) => margin >= 0.0 || piece.volume() > 0.0,
        Err(_) => false,
    }
}

/// The xy points of the brush's section at height `z` (edge crossings and vertices at `z`).
fn slice(brush: &Brush, z: f64) -> Vec<DVec2> {
    let mut points = Vec::new();
    for edge in brush.edges() {
        let a = brush.vertices()[edge.vertices[0] as usize];
        let b = brush.vertices()[edge.vertices[1] as usize];
        if (a.z - z) * (b.z - z) <= 0.0 {
            if a.z == b.z {
                points.push(a.truncate());
                points.push(b.truncate());
            } else {
                let t = (z - a.z) / (b.z - a.z);
                points.push((a + (b - a) * t).truncate());
            }
        }
    }
    points
}

/// Distance from `p` to the convex hull of `points` (0 inside).
fn distance_to_hull_2d(points: &[DVec2], p: DVec2) -> f64 {
    if points.is_empty() {
        return f64::INFINITY;
    }
    let mut pts = points.to_vec();
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        // A point, or a segment (a facet's section is one).
        let (a, b) = (pts[0], pts[pts.len() - 1]);
        let ab = b - a;
        let t = if ab == DVec2::ZERO {
            0.0
        } else {
            ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
        };
        return (a + ab * t).distance(p);
    }
    // Andrew's monotone chain, counter-clockwise.
    let cross = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<DVec2> = Vec::new();
    for &q in &pts {
        while hull.len() >= 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], q) <= 0.0 {
            hull.pop();
        }
        hull.push(q);
    }
    let lower = hull.len() + 1;
    for &q in pts.iter().rev().skip(1) {
        while hull.len() >= lower && cross(hull[hull.len() - 2], hull[hull.len() - 1], q) <= 0.0 {
            hull.pop();
        }
        hull.push(q);
    }
    hull.pop();
    let n = hull.len();
    let inside = (0..n).all(|i| cross(hull[i], hull[(i + 1) % n], p) >= 0.0);
    if inside {
        return 0.0;
    }
    (0..n)
        .map(|i| {
            let (a, b) = (hull[i], hull[(i + 1) % n]);
            let ab = b - a;
            let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
            (a + ab * t).distance(p)
        })
        .fold(f64::INFINITY, f64::min)
}
