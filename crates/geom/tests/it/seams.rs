//! Regression (issue 35, item 1): the exact reference let a shape without width across a plane
//! through the seam of two touching brushes. A point ray down the seam of two floor tiles (and a
//! box flat in x, `box:0,-16,-16,0,16,16`) went through the floor: each brush alone saw a
//! segment lying on its face, touching it, and judged it free; on E1M1 a vertical point ray at
//! (-592, 2304) crossed the whole map where the onion stopped on brush 336.
//!
//! The fix (`exact/thin.rs`): for a box without width along some axis, the planes a segment lies
//! in cut the directions across it into sectors, each brush counts in the sectors its lying
//! planes face, and a stretch is solid where every sector is; a point is solid where the brushes
//! it touches cover every direction around it (`exact/cover.rs`).

use std::sync::Arc;

use cspace_geom::{Aabb, Brush, Collider, DVec3, ExactCollider, Shape, WithContext, World};

fn boxed(min: [f64; 3], max: [f64; 3]) -> Brush {
    Brush::from_aabb(Aabb::new(DVec3::from_array(min), DVec3::from_array(max))).unwrap()
}

fn exact(brushes: Vec<Brush>) -> WithContext<ExactCollider> {
    WithContext::new(ExactCollider::new(Arc::new(World::from_brushes(brushes))))
}

fn time_of_impact(c: &mut WithContext<ExactCollider>, shape: &Shape, a: DVec3, b: DVec3) -> f64 {
    let prepared = c.prepare(shape).unwrap();
    let hit = c.trace(&prepared, a, b);
    assert!(!hit.start_solid(), "{a} -> {b}: {hit:?}");
    hit.surface()
        .unwrap_or_else(|| panic!("{a} -> {b} went through: {hit:?}"))
        .time_of_impact
}

/// Two floor tiles touching at x = 0, tops at z = 0 (`seam2.toml` of the issue).
fn two_tiles() -> WithContext<ExactCollider> {
    exact(vec![
        boxed([-64.0, -64.0, -16.0], [0.0, 64.0, 0.0]),
        boxed([0.0, -64.0, -16.0], [64.0, 64.0, 0.0]),
    ])
}

#[test]
fn a_point_and_a_flat_box_stop_on_the_seam_of_two_tiles() {
    let mut c = two_tiles();
    let (a, b) = (DVec3::new(0.0, 0.0, 100.0), DVec3::new(0.0, 0.0, -100.0));
    assert_eq!(time_of_impact(&mut c, &Shape::POINT, a, b), 0.5);
    let flat = Shape::new_box(DVec3::new(0.0, -16.0, -16.0), DVec3::new(0.0, 16.0, 16.0)).unwrap();
    assert_eq!(time_of_impact(&mut c, &flat, a, b), 0.42);
    // In the seam below the top: inside; on its top edge, or on the tiles' outer face: touching.
    let point = c.prepare(&Shape::POINT).unwrap();
    assert!(c.is_solid(&point, DVec3::new(0.0, 0.0, -8.0)));
    assert!(!c.is_solid(&point, DVec3::new(0.0, 0.0, 0.0)));
    assert!(!c.is_solid(&point, DVec3::new(64.0, 0.0, -8.0)));
    // Along the seam inside the floor, never leaving it.
    let along = c.trace(
        &point,
        DVec3::new(0.0, -32.0, -8.0),
        DVec3::new(0.0, 32.0, -8.0),
    );
    assert!(along.all_solid(), "{along:?}");
}

#[test]
fn a_point_stops_where_four_tiles_meet() {
    let mut c = exact(vec![
        boxed([-64.0, -64.0, -16.0], [0.0, 0.0, 0.0]),
        boxed([0.0, -64.0, -16.0], [64.0, 0.0, 0.0]),
        boxed([-64.0, 0.0, -16.0], [0.0, 64.0, 0.0]),
        boxed([0.0, 0.0, -16.0], [64.0, 64.0, 0.0]),
    ]);
    let (a, b) = (DVec3::new(0.0, 0.0, 100.0), DVec3::new(0.0, 0.0, -100.0));
    assert_eq!(time_of_impact(&mut c, &Shape::POINT, a, b), 0.5);
    let point = c.prepare(&Shape::POINT).unwrap();
    assert!(c.is_solid(&point, DVec3::new(0.0, 0.0, -8.0)));
}

#[test]
fn a_point_ray_stops_in_the_seams_of_e1m1() {
    let Some(map) = cspace_corpus::map("a_point_ray_stops_in_the_seams_of_e1m1", "quake_e1m1.map")
    else {
        return;
    };
    let mut c = WithContext::new(ExactCollider::new(map.world.clone()));
    let point = c.prepare(&Shape::POINT).unwrap();
    for x in [-592.0, -592.000001] {
        let hit = c.trace(
            &point,
            DVec3::new(x, 2304.0, 296.0),
            DVec3::new(x, 2304.0, -616.0),
        );
        let surface = hit.surface().expect("stops on the floor");
        assert!(
            (surface.time_of_impact - 0.13157894736842105).abs() < 1e-12,
            "{x}: {hit:?}"
        );
    }
}
