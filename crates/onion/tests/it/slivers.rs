//! Regression (issue 35): a point ray lying in a face stopped in mid-air. On E1M1 the vertical
//! ray at (-112, 2496) runs down the face x = -112 of brush 334 and the edge of brush 514, whose
//! slanted bottom meets 334's top at z = 176: three planes cross the ray there, and the two
//! sides of the plane the ray lies in (taken together, solid only where both are) were both
//! solid over the last bit of a crossing time. The onion stopped at z = 176 (brush 334, time
//! 0.1316); the exact backend, and the union, go on to brush 513 at z = 16 (time 0.3070).
//!
//! The fix (`trace.rs`, `SpaceTree::first_entry`): a run of solid no longer than twice `CONTACT`
//! along the move, with empty space after it, is no entry: no point of it is deeper than
//! `CONTACT` inside.

use std::sync::Arc;

use cspace_geom::{Brush, Collider, DVec3, ExactCollider, Plane, Shape, WithContext, World};
use cspace_onion::{CompileOptions, OnionCollider, Pose, compile};

fn brush(planes: &[([f64; 3], f64)]) -> Brush {
    let planes: Vec<Plane> = planes
        .iter()
        .map(|(n, d)| Plane::new(DVec3::from_array(*n).normalize(), *d).unwrap())
        .collect();
    Brush::from_planes(&planes).unwrap()
}

/// Brushes 334, 513 and 514 of E1M1, as the map has them, and two brushes filling the other
/// quadrants around the ray between z = -16 and 16, as E1M1's neighbours do.
fn corner() -> World {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    World::from_brushes([
        brush(&[
            ([-1.0, 0.0, 0.0], 128.0),
            ([1.0, 0.0, 0.0], -112.0),
            ([0.0, 0.0, 1.0], 176.0),
            ([0.0, 1.0, 0.0], 2512.0),
            ([0.0, -1.0, 0.0], -2416.0),
            ([0.0, 0.0, -1.0], -48.0),
        ]),
        brush(&[
            ([-1.0, 0.0, 0.0], 112.0),
            ([0.0, 1.0, 0.0], 2496.0),
            ([1.0, 0.0, 0.0], 192.0),
            ([0.0, -1.0, 0.0], -2208.0),
            ([0.0, 0.0, 1.0], 16.0),
            ([0.0, 0.0, -1.0], 16.0),
        ]),
        brush(&[
            ([-1.0, 0.0, 0.0], 112.0),
            ([0.0, 0.0, 1.0], 208.0),
            ([0.0, 1.0, 0.0], 2496.0),
            ([0.0, -1.0, 0.0], -2208.0),
            ([s, 0.0, -s], -203.64675298172565),
        ]),
        brush(&[
            ([-1.0, 0.0, 0.0], 128.0),
            ([1.0, 0.0, 0.0], 192.0),
            ([0.0, -1.0, 0.0], -2496.0),
            ([0.0, 1.0, 0.0], 2600.0),
            ([0.0, 0.0, 1.0], 16.0),
            ([0.0, 0.0, -1.0], 16.0),
        ]),
        brush(&[
            ([-1.0, 0.0, 0.0], 128.0),
            ([1.0, 0.0, 0.0], -112.0),
            ([0.0, -1.0, 0.0], -2400.0),
            ([0.0, 1.0, 0.0], 2496.0),
            ([0.0, 0.0, 1.0], 16.0),
            ([0.0, 0.0, -1.0], 16.0),
        ]),
    ])
}

fn first_hit(collider: &mut WithContext<impl Collider>, a: DVec3, b: DVec3) -> (f64, u32) {
    let prepared = collider.prepare(&Shape::POINT).unwrap();
    let hit = collider.trace(&prepared, a, b);
    let s = hit
        .surface()
        .unwrap_or_else(|| panic!("{a} -> {b}: {hit:?}"));
    (s.time_of_impact, s.brush.0)
}

#[test]
fn a_point_ray_down_a_face_does_not_stop_where_three_planes_cross_it() {
    let world = Arc::new(corner());
    let compiled = compile(&world, &[Pose::point()], &CompileOptions::default()).unwrap();
    let mut onion =
        WithContext::new(OnionCollider::from_compiled(world.clone(), compiled).unwrap());
    let mut exact = WithContext::new(ExactCollider::new(world));
    let (a, b) = (
        DVec3::new(-112.0, 2496.0, 296.0),
        DVec3::new(-112.0, 2496.0, -616.0),
    );
    let expected = first_hit(&mut exact, a, b);
    // On the top of the brushes around z = 16, not at z = 176.
    assert_eq!(expected.0, 0.30701754385964913);
    assert_eq!(first_hit(&mut onion, a, b), expected);
}

#[test]
fn the_e1m1_ray_reaches_brush_513() {
    let Some(map) = cspace_corpus::map("the_e1m1_ray_reaches_brush_513", "quake_e1m1.map") else {
        return;
    };
    let compiled = compile(&map.world, &[Pose::point()], &CompileOptions::default()).unwrap();
    let mut onion = WithContext::new(OnionCollider::from_compiled(map.world, compiled).unwrap());
    let (toi, brush) = first_hit(
        &mut onion,
        DVec3::new(-112.0, 2496.0, 296.0),
        DVec3::new(-112.0, 2496.0, -616.0),
    );
    assert_eq!(brush, 513);
    assert!((toi - 0.30701754385964913).abs() < 1e-12, "{toi}");
}
