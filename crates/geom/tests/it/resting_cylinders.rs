//! Regression (issue 35, item 4): a vertical cylinder resting exactly on a floor was "in solid"
//! for the exact reference (start_solid and all_solid for `cylinder:16,28` at z = 28 on a floor
//! with its top at 0), and 1e-7 above it a horizontal move could not slide; one touching a wall
//! sideways and moving along it was found in solid too. The simulator lands cylinders with no
//! clearance when a step's fall equals the gap, so `--verify` flagged them on every backend.
//!
//! The cause: the cylinder's side patches (faces and edges of its prism moved out by the radius)
//! were accepted with a slack relative to the move's length (`PATCH_SLACK`, 1e-9 per unit),
//! above `CONTACT`, and above the prism's top cap, where a level line meets no cap patch. The
//! fix (`exact/rounded.rs`): the side patches are bounded by the prism's heights exactly (the
//! sum with a flat disc spans no more), and no patch takes more slack than a quarter of
//! `CONTACT` (`PATCH_SLACK_LIMIT`), so touching stays free.

use std::sync::Arc;

use cspace_geom::{Aabb, Brush, Collider, DVec3, ExactCollider, Shape, WithContext, World};

fn floor() -> WithContext<ExactCollider> {
    let floor = Brush::from_aabb(Aabb::new(
        DVec3::new(-256.0, -256.0, -16.0),
        DVec3::new(256.0, 256.0, 0.0),
    ))
    .unwrap();
    WithContext::new(ExactCollider::new(Arc::new(World::from_brushes([floor]))))
}

#[test]
fn a_cylinder_resting_exactly_on_a_floor_is_free_and_slides() {
    let mut c = floor();
    let can = c
        .prepare(&Shape::new_cylinder(16.0, 28.0).unwrap())
        .unwrap();
    let at = DVec3::new(0.0, 0.0, 28.0);
    assert!(!c.is_solid(&can, at));
    let still = c.trace(&can, at, at);
    assert!(!still.start_solid() && !still.all_solid(), "{still:?}");
    for height in [28.0, 28.0 + 1e-7, 28.0 + 1e-6] {
        for length in [1.0, 100.0, 1000.0] {
            let from = DVec3::new(0.0, 0.0, height);
            let hit = c.trace(&can, from, from + DVec3::new(length, length / 3.0, 0.0));
            assert!(
                hit.fraction() == 1.0 && !hit.start_solid(),
                "at {height}, {length} units: {hit:?}"
            );
        }
    }
    // Deeper than CONTACT inside is solid.
    assert!(c.is_solid(&can, DVec3::new(0.0, 0.0, 28.0 - 1e-6)));
}

#[test]
fn a_cylinder_touching_a_floor_brush_sideways_is_free_and_slides() {
    let mut c = floor();
    let can = c
        .prepare(&Shape::new_cylinder(16.0, 28.0).unwrap())
        .unwrap();
    // Beside the floor brush's side face x = 256, overlapping its heights.
    let beside = DVec3::new(272.0, 0.0, -8.0);
    assert!(!c.is_solid(&can, beside));
    for end in [
        beside + DVec3::Z * 64.0,
        beside - DVec3::Z * 64.0,
        beside + DVec3::Y * 64.0,
    ] {
        let hit = c.trace(&can, beside, end);
        assert!(
            hit.fraction() == 1.0 && !hit.start_solid(),
            "to {end}: {hit:?}"
        );
    }
    assert!(c.is_solid(&can, beside - DVec3::X * 1e-6));
}
