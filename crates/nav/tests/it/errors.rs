//! Every error: named, with what is wrong, never a panic.

use cspace_geom::DVec3;
use cspace_nav::{Endpoint, NavContext, NavError, NavMesh, NavParams, NavPose};
use cspace_onion::{CompileOptions, Pose, compile};

use crate::common::{boxes, nav, tree};

fn room() -> std::sync::Arc<cspace_geom::World> {
    boxes(&[
        ([-256.0, -256.0, -16.0], [256.0, 256.0, 0.0]),
        ([-256.0, -256.0, 128.0], [256.0, 256.0, 144.0]),
    ])
}

#[test]
fn building_refuses_bad_poses_params_and_worlds() {
    let world = room();
    let tree = tree(&world);
    let build =
        |poses: &[NavPose], params: &NavParams| NavMesh::build(&tree, &world, poses, params);
    let p = NavParams::default();
    assert_eq!(build(&[], &p).unwrap_err(), NavError::NoPoses);
    let e = build(&[NavPose::new("fly", 1.0)], &p).unwrap_err();
    assert_eq!(
        e.to_string(),
        "pose fly: the onion tree has no such pose (it has stand, crouch, sight)"
    );
    let e = build(&[NavPose::stand(), NavPose::stand()], &p).unwrap_err();
    assert_eq!(
        e,
        NavError::DuplicatePose {
            name: "stand".into()
        }
    );
    // Standing does not fit inside crouching.
    let e = build(&[NavPose::crouch(), NavPose::stand()], &p).unwrap_err();
    assert!(matches!(e, NavError::PoseNotNested { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("pose stand does not fit inside the primary pose crouch")
    );
    let e = build(&[NavPose::new("stand", 0.0)], &p).unwrap_err();
    assert!(matches!(e, NavError::BadSpeed { .. }), "{e}");
    let bad = NavParams {
        walk_speed: -1.0,
        ..NavParams::default()
    };
    let e = build(&[NavPose::stand()], &bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        "navigation parameter walk_speed = -1: must be finite and positive"
    );
    let other = boxes(&[([0.0, 0.0, 0.0], [8.0, 8.0, 8.0])]);
    let e = NavMesh::build(&tree, &other, &[NavPose::stand()], &p).unwrap_err();
    assert!(matches!(e, NavError::WorldMismatch { .. }), "{e}");
}

#[test]
fn queries_refuse_bad_points_and_poses() {
    let world = room();
    let (_, nav) = nav(&world);
    let mut ctx = NavContext::new();
    let inside = DVec3::new(0.0, 0.0, 24.0);
    let e = nav.path(inside, inside, 7, &mut ctx).unwrap_err();
    assert_eq!(e, NavError::PoseIndex { pose: 7, poses: 2 });
    let e = nav
        .path(DVec3::new(f64::NAN, 0.0, 0.0), inside, 0, &mut ctx)
        .unwrap_err();
    assert!(
        matches!(
            e,
            NavError::BadPoint {
                what: Endpoint::Start,
                ..
            }
        ),
        "{e}"
    );
    let e = nav
        .path(inside, DVec3::new(0.0, 0.0, 1e300), 0, &mut ctx)
        .unwrap_err();
    assert!(
        matches!(
            e,
            NavError::BadPoint {
                what: Endpoint::Goal,
                ..
            }
        ),
        "{e}"
    );
    // In the floor.
    let e = nav
        .path(DVec3::new(0.0, 0.0, -8.0), inside, 0, &mut ctx)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "start [0, 0, -8] is inside solid for pose stand"
    );
    // Beside the room, over nothing.
    let e = nav
        .path(inside, DVec3::new(1000.0, 0.0, 24.0), 0, &mut ctx)
        .unwrap_err();
    assert!(
        matches!(
            e,
            NavError::NoGround {
                what: Endpoint::Goal,
                ..
            }
        ),
        "{e}"
    );
    // Above the ceiling: the roof is walkable, but not reachable from inside.
    let roof = DVec3::new(0.0, 0.0, 144.0 + 24.0);
    assert_eq!(nav.path(inside, roof, 0, &mut ctx).unwrap(), None);
    assert!(!nav.reachable(inside, roof, 0, &mut ctx).unwrap());
    assert!(nav.nearest_walkable(DVec3::INFINITY, 0).is_err());
    assert!(nav.nearest_walkable(inside, 9).is_err());
}

#[test]
fn a_world_without_floors_has_no_areas_and_no_paths() {
    // A ceiling only: nothing to stand on.
    let world = boxes(&[([-256.0, -256.0, 128.0], [256.0, 256.0, 144.0])]);
    let (_, nav) = nav(&world);
    assert!(nav.areas().iter().all(|a| a.polygon.plane.normal().z > 0.0));
    let e = nav
        .path(DVec3::ZERO, DVec3::X, 0, &mut NavContext::new())
        .unwrap_err();
    assert!(matches!(e, NavError::NoGround { .. }), "{e}");
    // An empty world compiles to one empty leaf: no areas at all.
    let empty = cspace_geom::World::from_brushes([]);
    let tree = compile(
        &empty,
        &[Pose::quake_standing()],
        &CompileOptions::default(),
    )
    .unwrap()
    .tree;
    let nav = NavMesh::build(&tree, &empty, &[NavPose::stand()], &NavParams::default()).unwrap();
    assert!(nav.areas().is_empty());
    assert_eq!(nav.nearest_walkable(DVec3::ZERO, 0).unwrap(), None);
    assert!(nav.line_of_sight().is_none());
}
