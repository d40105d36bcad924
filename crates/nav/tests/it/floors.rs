//! The floor under a planned path (`NavMesh::floors_under`), as `sim plot` draws it in side views:
//! a leg pulled straight over a ramp and up a step follows the ramp and shows the step where it
//! is, instead of one straight line between its ends floating above the ramp.

use std::sync::Arc;

use cspace_geom::{Aabb, Brush, DVec3, Plane, World};
use cspace_nav::{LinkKind, NavContext};

use crate::common::nav;

/// The height of the world's floor at `x`: flat at 0, a ramp rising 32 over x = 0..128, flat at
/// 32, and a step up to 48 at x = 256.
fn world_floor(x: f64) -> f64 {
    if x < 0.0 {
        0.0
    } else if x < 128.0 {
        0.25 * x
    } else if x < 256.0 {
        32.0
    } else {
        48.0
    }
}

/// The height of the standing box's floor (configuration space) under an origin at `x`: the
/// box (32 wide, its feet 24 below its origin) rests on the highest floor under it, which on
/// these rising floors is under its front edge.
fn floor_at(x: f64) -> f64 {
    24.0 + world_floor(x + 16.0)
}

fn block(min: [f64; 3], max: [f64; 3]) -> Brush {
    Brush::from_aabb(Aabb::new(DVec3::from(min), DVec3::from(max))).expect("a box")
}

#[test]
fn a_leg_over_a_ramp_and_a_step_follows_its_floors() {
    let up = DVec3::new(-0.25, 0.0, 1.0);
    let ramp = Brush::from_planes(&[
        Plane::new(up.normalize(), 0.0).unwrap(),
        Plane::new(DVec3::X, 128.0).unwrap(),
        Plane::new(DVec3::NEG_Z, 0.0).unwrap(),
        Plane::new(DVec3::Y, 128.0).unwrap(),
        Plane::new(DVec3::NEG_Y, 128.0).unwrap(),
    ])
    .expect("a wedge");
    let world = Arc::new(World::from_brushes(vec![
        block([-512.0, -128.0, -16.0], [512.0, 128.0, 0.0]),
        ramp,
        block([128.0, -128.0, 0.0], [512.0, 128.0, 32.0]),
        block([256.0, -128.0, 32.0], [512.0, 128.0, 48.0]),
    ]));
    let (_, nav) = nav(&world);
    let (from, to) = (DVec3::new(-300.0, 0.0, 24.0), DVec3::new(400.0, 0.0, 72.0));
    let path = nav
        .path(from, to, 0, &mut NavContext::new())
        .expect("both ends stand on floors")
        .expect("the ramp and the step are walkable");
    let legs = nav.floors_under(&path);
    assert_eq!(legs.len(), path.waypoints.len() - 1);
    let mut steps = Vec::new();
    for (i, leg) in legs.iter().enumerate() {
        assert_eq!(leg.first().unwrap().position, path.waypoints[i].position);
        assert_eq!(leg.last().unwrap().position, path.waypoints[i + 1].position);
        for (k, p) in leg.iter().enumerate() {
            // On the floor, lifted by at most the clearance.
            let above = p.position.z - floor_at(p.position.x);
            let on_riser = (p.position.x - 240.0).abs() < 1e-3;
            assert!(
                (-1e-6..=0.1).contains(&above) || on_riser,
                "leg {i} point {k} at {} is {above} above the floor",
                p.position
            );
            if p.kind == LinkKind::Step {
                steps.push(p.position);
            }
        }
    }
    // One step up, where the riser is, from the lower floor's height to the upper one's.
    assert_eq!(steps.len(), 1, "{legs:?}");
    assert!((steps[0].x - 240.0).abs() < 1e-3, "{}", steps[0]);
    assert!((steps[0].z - 72.0).abs() < 0.1, "{}", steps[0]);
    // The straight line between the waypoints (what was drawn before) leaves the ramp.
    let w = &path.waypoints;
    let leaves = w.windows(2).any(|pair| {
        let mid = pair[0].position.lerp(pair[1].position, 0.5);
        (mid.z - floor_at(mid.x)).abs() > 4.0
    });
    assert!(leaves, "{w:?}");
}
