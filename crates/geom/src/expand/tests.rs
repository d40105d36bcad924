//! The expansion property test: a point is inside the expanded brush exactly when the box placed
//! at that point overlaps the brush.

use glam::DVec3;
use proptest::prelude::*;

use super::*;
use crate::aabb::Aabb;

/// Independent overlap test: clip the brush by the six planes of the placed box and see whether a
/// volume is left (vertex enumeration, not plane offsets). Returns the signed depth proxy:
/// `Some(true)` overlapping by a clear margin, `Some(false)` clearly apart, `None` within `band`
/// of touching (the tolerance band where either answer is right).
fn box_overlaps_brush(brush: &Brush, shape: &BoxShape, at: DVec3, band: f64) -> Option<bool> {
    let shrunk = Aabb::new(
        at + shape.mins + DVec3::splat(band),
        at + shape.maxs - DVec3::splat(band),
    );
    let grown = Aabb::new(
        at + shape.mins - DVec3::splat(band),
        at + shape.maxs + DVec3::splat(band),
    );
    let clip = |b: Aabb| -> bool {
        let mut planes: Vec<Plane> = brush.planes().collect();
        planes.extend([
            Plane::new(DVec3::X, b.max.x).unwrap(),
            Plane::new(DVec3::NEG_X, -b.min.x).unwrap(),
            Plane::new(DVec3::Y, b.max.y).unwrap(),
            Plane::new(DVec3::NEG_Y, -b.min.y).unwrap(),
            Plane::new(DVec3::Z, b.max.z).unwrap(),
            Plane::new(DVec3::NEG_Z, -b.min.z).unwrap(),
        ]);
        Brush::from_planes(&planes).is_ok()
    };
    // Shrinking the box by `band` makes overlap certain; growing it makes separation certain.
    let shrunk_hits = !shrunk.is_empty() && clip(shrunk);
    let grown_hits = clip(grown);
    match (shrunk_hits, grown_hits) {
        (true, _) => Some(true),
        (false, false) => Some(false),
        (false, true) => None,
    }
}

/// A random convex brush: the convex hull of random points, as planes.
fn random_brush() -> impl Strategy<Value = Brush> {
    prop::collection::vec(prop::array::uniform3(-64.0f64..64.0), 4..12).prop_filter_map(
        "points must span a volume",
        |points| {
            let points: Vec<DVec3> = points.into_iter().map(DVec3::from_array).collect();
            let hull = crate::shape::ConvexHull::new(&points).ok()?;
            let brush = hull.polyhedron().clone();
            (brush.volume() > 50.0).then_some(brush)
        },
    )
}

fn random_box() -> impl Strategy<Value = BoxShape> {
    (
        prop::array::uniform3(-40.0f64..0.0),
        prop::array::uniform3(0.0f64..40.0),
    )
        .prop_map(|(mins, maxs)| BoxShape {
            mins: DVec3::from_array(mins),
            maxs: DVec3::from_array(maxs),
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn expanded_brush_contains_exactly_the_overlapping_positions(
        brush in random_brush(),
        shape in random_box(),
        probes in prop::collection::vec((prop::array::uniform3(-120.0f64..120.0), 0u8..4), 64),
    ) {
        let planes = box_expanded_planes(&brush, &shape);
        let expanded = box_expanded_brush(&brush, &shape).unwrap();
        for (point, kind) in probes {
            let mut p = DVec3::from_array(point);
            // A quarter of the probes are pulled onto the expanded boundary, within 1e-6 of it.
            if kind == 0 {
                let q = expanded.closest_point(p);
                let outward = (p - q).normalize_or_zero();
                p = q + outward * 1e-6;
            }
            let inside = planes.iter().all(|pl| pl.signed_distance(p) < 0.0);
            // The tolerance band: points within 1e-6 of the boundary may go either way, but
            // must agree with the clipping test beyond 1e-5.
            if let Some(overlap) = box_overlaps_brush(&brush, &shape, p, 1e-5) {
                prop_assert_eq!(inside, overlap, "point {} box {:?}", p, shape);
            }
        }
    }
}

#[test]
fn expanded_cube_by_player_box() {
    let brush = Brush::from_aabb(Aabb::new(DVec3::ZERO, DVec3::splat(64.0))).unwrap();
    let shape = BoxShape {
        mins: DVec3::new(-16.0, -16.0, -24.0),
        maxs: DVec3::new(16.0, 16.0, 32.0),
    };
    let expanded = box_expanded_brush(&brush, &shape).unwrap();
    // B + [-maxs, -mins] = [0 - 16, 64 + 16] x [-16, 80] x [0 - 32, 64 + 24].
    assert_eq!(
        expanded.bounds(),
        Aabb::new(
            DVec3::new(-16.0, -16.0, -32.0),
            DVec3::new(80.0, 80.0, 88.0)
        )
    );
}

#[test]
fn expanded_wedge_matches_minkowski_vertices() {
    // The Minkowski sum's vertices are sums of brush vertices and box corners; every expanded
    // vertex must be one of them.
    let planes = [
        Plane::new(DVec3::NEG_Z, 0.0).unwrap(),
        Plane::new(DVec3::NEG_X, 0.0).unwrap(),
        Plane::new(DVec3::NEG_Y, 0.0).unwrap(),
        Plane::new(DVec3::new(1.0, 1.0, 1.0), 30.0).unwrap(),
    ];
    let brush = Brush::from_planes(&planes).unwrap();
    let shape = BoxShape {
        mins: DVec3::new(-4.0, -5.0, -6.0),
        maxs: DVec3::new(7.0, 8.0, 9.0),
    };
    let expanded = box_expanded_brush(&brush, &shape).unwrap();
    let mut candidates = Vec::new();
    for v in brush.vertices() {
        for cx in [-shape.maxs.x, -shape.mins.x] {
            for cy in [-shape.maxs.y, -shape.mins.y] {
                for cz in [-shape.maxs.z, -shape.mins.z] {
                    candidates.push(*v + DVec3::new(cx, cy, cz));
                }
            }
        }
    }
    for v in expanded.vertices() {
        assert!(
            candidates.iter().any(|c| c.abs_diff_eq(*v, 1e-6)),
            "expanded vertex {v} is not a brush vertex plus a box corner"
        );
    }
    // Tetrahedron (4 faces) + 3 missing axial planes (+x, +y, +z) + 3 bevels through the slanted
    // edges: a truncated shape with 4 + 3 + 3 faces.
    assert_eq!(expanded.faces().len(), 10);
}
