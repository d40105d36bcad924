//! Links on worlds built for each kind: stairs (steps up, drops down), a ledge within the jump's
//! reach and one beyond it, a gap jumped and one too wide, a low tunnel crossed crouching, a
//! slope walked and one too steep, a ridge walked over (a waypoint on each crest).

use std::sync::Arc;

use cspace_geom::{Brush, DVec3, Plane, World};
use cspace_nav::{LinkKind, NavContext, NavMesh, NavParams, NavPose, Path};

use crate::common::{boxes, nav};

/// A floor 16 thick, top at z = 0, over `x0..x1` and `y` in -128..128.
fn floor(x0: f64, x1: f64) -> ([f64; 3], [f64; 3]) {
    ([x0, -128.0, -16.0], [x1, 128.0, 0.0])
}

/// The standing origin above the floor point `(x, 0, z)`.
fn stand(x: f64, z: f64) -> DVec3 {
    DVec3::new(x, 0.0, z + 24.0)
}

fn kinds(path: &Path) -> Vec<LinkKind> {
    path.waypoints.iter().map(|w| w.kind).collect()
}

fn plan(nav: &NavMesh, from: DVec3, to: DVec3) -> Option<Path> {
    nav.path(from, to, 0, &mut NavContext::new())
        .expect("both ends stand on floors")
}

/// The last waypoint is the goal's floor point (lifted by the clearance).
fn assert_arrives(path: &Path, goal: DVec3) {
    let last = path.waypoints.last().unwrap().position;
    assert!(
        (last.truncate() - goal.truncate()).length() < 1e-6 && (last.z - goal.z).abs() < 0.1,
        "ends at {last}, goal {goal}"
    );
}

#[test]
fn stairs_are_climbed_and_descended_by_steps() {
    // Six steps 16 high and 32 deep from x = 0: the top is at z = 96 from x = 160.
    let mut list = vec![floor(-512.0, 512.0)];
    for k in 0..6 {
        let k = f64::from(k);
        list.push((
            [32.0 * k, -128.0, 16.0 * k],
            [512.0, 128.0, 16.0 * k + 16.0],
        ));
    }
    let world = boxes(&list);
    let (_, nav) = nav(&world);
    let (bottom, top) = (stand(-400.0, 0.0), stand(400.0, 96.0));
    let up = plan(&nav, bottom, top).expect("the stairs are climbed");
    assert_arrives(&up, top);
    let steps = up.links.iter().map(|&l| &nav.links()[l as usize]);
    let rises: Vec<f64> = steps
        .filter(|l| l.kind == LinkKind::Step)
        .map(|l| l.rise)
        .collect();
    assert_eq!(rises, [16.0; 6], "one step up per riser");
    assert!(kinds(&up).contains(&LinkKind::Step));
    assert!(!kinds(&up).contains(&LinkKind::Jump));
    let down = plan(&nav, top, bottom).expect("the stairs are descended");
    assert_arrives(&down, bottom);
    let steps = down.links.iter().map(|&l| &nav.links()[l as usize]);
    let rises: Vec<f64> = steps
        .filter(|l| l.kind != LinkKind::Walk)
        .map(|l| l.rise)
        .collect();
    assert_eq!(rises, [-16.0; 6], "one step down per riser");
    // The stairs are walked straight down, pulled tight across the steps.
    assert_eq!(kinds(&down), [LinkKind::Walk, LinkKind::Step]);
}

#[test]
fn a_ledge_above_a_step_is_jumped_onto_and_one_above_the_jump_is_not() {
    // The jump's apex is 45.6 units, and the movement model steps 18 more in the air once the
    // jump stops rising: ledges up to 61.6 (with the 2-unit margin) are jumped onto.
    for (height, reachable) in [(32.0, true), (56.0, true), (61.0, true), (62.0, false)] {
        let world = boxes(&[
            floor(-512.0, 512.0),
            ([0.0, -128.0, 0.0], [512.0, 128.0, height]),
        ]);
        let (_, nav) = nav(&world);
        let (low, high) = (stand(-300.0, 0.0), stand(300.0, height));
        let up = plan(&nav, low, high);
        assert_eq!(up.is_some(), reachable, "ledge {height}");
        if let Some(up) = up {
            assert_arrives(&up, high);
            assert!(kinds(&up).contains(&LinkKind::Jump), "{:?}", kinds(&up));
        }
        let down = plan(&nav, high, low).expect("a drop");
        assert!(kinds(&down).contains(&LinkKind::Drop));
        assert_arrives(&down, low);
    }
}

#[test]
fn a_gap_is_jumped_and_one_too_wide_is_not() {
    // Two platforms over a void; the configuration-space gap is the gap less a player's width.
    for (gap, reachable) in [(96.0, true), (200.0, true), (400.0, false)] {
        let world = boxes(&[floor(-512.0, -gap / 2.0), floor(gap / 2.0, 512.0)]);
        let (_, nav) = nav(&world);
        let (a, b) = (stand(-300.0, 0.0), stand(300.0, 0.0));
        for (from, to) in [(a, b), (b, a)] {
            let path = plan(&nav, from, to);
            assert_eq!(path.is_some(), reachable, "gap {gap}");
            if let Some(path) = path {
                assert_arrives(&path, to);
                let jump = path.waypoints.iter().position(|w| w.kind == LinkKind::Jump);
                let jump = jump.expect("a jump");
                // The take-off waypoint is on the edge (the box's side over it), the landing
                // across the gap.
                let (off, on) = (
                    path.waypoints[jump - 1].position,
                    path.waypoints[jump].position,
                );
                assert!(
                    (off.x.abs() - (gap / 2.0 - 16.0)).abs() < 1e-6,
                    "take-off {off}"
                );
                assert!(on.x.signum() == to.x.signum() && on.x.abs() >= gap / 2.0 - 16.0);
            }
        }
    }
}

#[test]
fn a_low_tunnel_is_crossed_crouching() {
    // A slab over the whole floor from x = -64 to 64, its underside 48 up: a standing player
    // (56 tall) does not fit under it, a crouching one (40 tall) does.
    let list = [
        floor(-512.0, 512.0),
        ([-64.0, -128.0, 48.0], [64.0, 128.0, 256.0]),
    ];
    let world = boxes(&list);
    let (tree, nav) = nav(&world);
    let (a, b) = (stand(-300.0, 0.0), stand(300.0, 0.0));
    let path = plan(&nav, a, b).expect("crouching under the slab");
    assert_arrives(&path, b);
    let k = kinds(&path);
    let crouch = k
        .iter()
        .position(|&k| k == LinkKind::Crouch)
        .expect("crouches");
    let stand_up = k
        .iter()
        .position(|&k| k == LinkKind::StandUp)
        .expect("stands up");
    assert!(crouch < stand_up, "{k:?}");
    let crouching = nav.pose_index("crouch").unwrap();
    for w in &path.waypoints[crouch..stand_up] {
        assert_eq!(w.pose, crouching, "{w:?}");
    }
    for w in &path.waypoints[stand_up..] {
        assert_eq!(w.pose, 0);
    }
    // Under the slab, crouching walks at a quarter of the speed: the path costs more than its
    // length at full speed.
    assert!(path.cost > path.length() / 320.0);
    // Standing only, there is no way through.
    let standing =
        NavMesh::build(&tree, &world, &[NavPose::stand()], &NavParams::default()).unwrap();
    assert!(plan(&standing, a, b).is_none());
    // The crouching graph keeps only what standing does not cover, and its neighbours.
    let stats = &nav.stats().poses[1];
    assert!(stats.areas < stats.areas_found, "{stats:?}");
}

/// The floor the slope and roof worlds stand on: 16 thick, its top at `z = 0`, `x` in
/// `-half..half`, `y` in -128..128.
fn strip(half: f64) -> Brush {
    Brush::from_aabb(cspace_geom::Aabb::new(
        DVec3::new(-half, -128.0, -16.0),
        DVec3::new(half, 128.0, 0.0),
    ))
    .expect("a floor")
}

/// A wedge: the floor rises from `x0` towards +x at `slope` (rise over run), up to `x1`.
fn ramp(x0: f64, x1: f64, slope: f64) -> Brush {
    let up = DVec3::new(-slope, 0.0, 1.0);
    Brush::from_planes(&[
        Plane::new(
            up,
            up.normalize().dot(DVec3::new(x0, 0.0, 0.0)) * up.length(),
        )
        .unwrap(),
        Plane::new(DVec3::X, x1).unwrap(),
        Plane::new(DVec3::NEG_Z, 0.0).unwrap(),
        Plane::new(DVec3::Y, 128.0).unwrap(),
        Plane::new(DVec3::NEG_Y, 128.0).unwrap(),
    ])
    .expect("a wedge")
}

#[test]
fn a_gentle_slope_is_walked_and_a_steep_one_is_not() {
    // 30 degrees (normal z 0.87) and 60 degrees (0.5), each rising 128 units onto a platform.
    for (slope, walkable) in [
        (30f64.to_radians().tan(), true),
        (60f64.to_radians().tan(), false),
    ] {
        let run = 128.0 / slope;
        let mut brushes = vec![strip(512.0), ramp(0.0, run, slope)];
        brushes.push(
            Brush::from_aabb(cspace_geom::Aabb::new(
                DVec3::new(run, -128.0, 0.0),
                DVec3::new(run + 256.0, 128.0, 128.0),
            ))
            .unwrap(),
        );
        let world = Arc::new(World::from_brushes(brushes));
        let (_, nav) = nav(&world);
        let sloped = nav
            .areas()
            .iter()
            .filter(|a| a.polygon.plane.normal().x < -1e-6)
            .count();
        assert_eq!(sloped > 0, walkable, "slope {slope}");
        let (low, high) = (stand(-300.0, 0.0), stand(run + 128.0, 128.0));
        let up = plan(&nav, low, high);
        assert_eq!(up.is_some(), walkable, "slope {slope}");
        if let Some(up) = up {
            assert_arrives(&up, high);
            assert!(
                kinds(&up).iter().all(|&k| k == LinkKind::Walk),
                "{:?}",
                kinds(&up)
            );
        }
    }
}

/// A roof across the floor (`y` in -128..128): up at `slope` (rise over run) from
/// `x = -64 / slope` to a ridge 64 high at `x = 0`, and down again.
fn roof(slope: f64) -> Brush {
    Brush::from_planes(&[
        Plane::new(DVec3::new(slope, 0.0, 1.0), 64.0).unwrap(),
        Plane::new(DVec3::new(-slope, 0.0, 1.0), 64.0).unwrap(),
        Plane::new(DVec3::NEG_Z, 0.0).unwrap(),
        Plane::new(DVec3::Y, 128.0).unwrap(),
        Plane::new(DVec3::NEG_Y, 128.0).unwrap(),
    ])
    .expect("a roof")
}

#[test]
fn a_walk_over_a_ridge_has_a_waypoint_on_the_crest_and_a_gentle_one_does_not() {
    // 45 degrees up and down. The box rests on the ridge over 32 units, so its floor (the
    // configuration space's) is the slope, 32 units level on top, and the slope down: the slope
    // along the path falls by 1 at either end of the top (more than `crest_bend`, 0.25). 5
    // degrees: by 0.09. The follower needs the crests as waypoints to slow down for them (an
    // agent at full speed flies off a crest); the hollows at the foot of the roof are not
    // crests.
    for (slope, crest) in [(1.0, true), (5f64.to_radians().tan(), false)] {
        let world = Arc::new(World::from_brushes([strip(1024.0), roof(slope)]));
        let (_, nav) = nav(&world);
        let foot = 64.0 / slope;
        let (a, b) = (stand(-foot - 100.0, 0.0), stand(foot + 100.0, 0.0));
        let path = plan(&nav, a, b).expect("over the roof");
        assert_arrives(&path, b);
        let xs: Vec<f64> = path.waypoints.iter().map(|w| w.position.x).collect();
        if crest {
            assert_eq!(xs.len(), 4, "{:#?}", path.waypoints);
            for w in &path.waypoints[1..3] {
                assert_eq!(w.kind, LinkKind::Walk);
                assert!((w.position.x.abs() - 16.0).abs() < 1e-6, "{w:?}");
                assert!((w.position.z - (64.0 + 24.0)).abs() < 0.1, "{w:?}");
            }
        } else {
            assert_eq!(xs.len(), 2, "{:#?}", path.waypoints);
        }
        // Straight over, seen from above.
        assert!(path.waypoints.iter().all(|w| w.position.y.abs() < 1e-6));
    }
}
