//! Paths: waypoints never in solid for their pose (the tree's point query and the exact
//! backend), determinism, reachability, nearest walkable points.

use std::sync::Arc;

use cspace_geom::generate::{Rng, oriented_box};
use cspace_geom::{Aabb, Brush, DVec3, World};
use cspace_nav::{LinkKind, NavContext, NavMesh, NavParams, NavPose};
use cspace_onion::OnionTree;

use crate::common::{Exact, boxes, nav, standing_point};

/// A floor cluttered with boxes standing on it (a third turned about the vertical, some low
/// enough to step onto, some to jump onto, some not) and a few floating above it.
fn cluttered(seed: u64) -> Arc<World> {
    let mut rng = Rng::new(seed);
    let mut brushes = vec![
        Brush::from_aabb(Aabb::new(
            DVec3::new(-100.0, -100.0, -16.0),
            DVec3::new(700.0, 700.0, 0.0),
        ))
        .unwrap(),
    ];
    for i in 0..60 {
        let half = DVec3::new(
            rng.range(8.0, 48.0),
            rng.range(8.0, 48.0),
            rng.range(4.0, 40.0),
        );
        let lift = if i % 6 == 5 {
            rng.range(40.0, 120.0)
        } else {
            0.0
        };
        let centre = DVec3::new(rng.range(0.0, 600.0), rng.range(0.0, 600.0), half.z + lift);
        let frame = if i % 3 == 0 {
            let a = rng.range(0.0, std::f64::consts::TAU);
            [
                DVec3::new(a.cos(), a.sin(), 0.0),
                DVec3::new(-a.sin(), a.cos(), 0.0),
                DVec3::Z,
            ]
        } else {
            [DVec3::X, DVec3::Y, DVec3::Z]
        };
        brushes.push(oriented_box(centre, half, frame));
    }
    Arc::new(World::from_brushes(brushes))
}

/// Checks every waypoint of `pairs` random paths; returns how many paths were found.
fn check_waypoints(
    world: &Arc<World>,
    tree: &OnionTree,
    nav: &NavMesh,
    pairs: usize,
    seed: u64,
) -> usize {
    let mut exact = Exact::new(world, nav);
    let mut ctx = NavContext::new();
    let mut rng = Rng::new(seed);
    let n = nav.areas().len();
    let mut found = 0;
    for _ in 0..pairs {
        let (a, b) = (rng.below(n) as u32, rng.below(n) as u32);
        let pose = nav.areas()[a as usize].pose;
        let (from, to) = (standing_point(nav, a), standing_point(nav, b));
        let Ok(Some(path)) = nav.path(from, to, pose, &mut ctx) else {
            continue;
        };
        found += 1;
        for w in &path.waypoints {
            let space = nav.poses()[w.pose].space;
            assert!(!tree.is_solid(space, w.position), "{w:?} in solid (tree)");
            assert!(
                !exact.is_solid(w.pose, w.position),
                "{w:?} in solid (exact)"
            );
            let area = &nav.areas()[w.area as usize];
            assert!(
                (w.position.z - area.floor_z(w.position.x, w.position.y)).abs()
                    <= nav.params().clearance + 1e-9,
                "{w:?} is on its area's floor"
            );
        }
    }
    found
}

#[test]
fn waypoints_are_never_in_solid_for_their_pose() {
    for seed in [21, 22, 23] {
        let world = cluttered(seed);
        let (tree, nav) = nav(&world);
        let found = check_waypoints(&world, &tree, &nav, 300, seed);
        assert!(found >= 240, "seed {seed}: {found} of 300 paths found");
    }
}

fn bits(nav: &NavMesh) -> String {
    format!("{:?} {:?}", nav.areas(), nav.links())
}

#[test]
fn graphs_and_paths_are_deterministic() {
    let world = cluttered(31);
    let (tree, first) = nav(&world);
    let again = NavMesh::build(
        &tree,
        &world,
        &[NavPose::stand(), NavPose::crouch()],
        &NavParams::default(),
    )
    .unwrap();
    assert_eq!(bits(&first), bits(&again));
    let mut rng = Rng::new(1);
    let mut reused = NavContext::new();
    let n = first.areas().len();
    for _ in 0..200 {
        let (a, b) = (rng.below(n) as u32, rng.below(n) as u32);
        let (from, to) = (standing_point(&first, a), standing_point(&first, b));
        let pose = first.areas()[a as usize].pose;
        let one = first.path(from, to, pose, &mut reused);
        let two = again.path(from, to, pose, &mut NavContext::new());
        assert_eq!(format!("{one:?}"), format!("{two:?}"));
    }
}

#[test]
fn reachable_agrees_with_path() {
    let world = cluttered(41);
    let (_, nav) = nav(&world);
    let mut ctx = NavContext::new();
    let mut rng = Rng::new(2);
    let n = nav.areas().len();
    let (mut yes, mut no) = (0, 0);
    // Jumps onto ledges up to 55.6 units join most of the world: enough pairs for a dozen
    // unreachable ones.
    for _ in 0..1_000 {
        let (a, b) = (rng.below(n) as u32, rng.below(n) as u32);
        let (from, to) = (standing_point(&nav, a), standing_point(&nav, b));
        let pose = nav.areas()[a as usize].pose;
        let path = nav.path(from, to, pose, &mut ctx).unwrap();
        let reachable = nav.reachable(from, to, pose, &mut ctx).unwrap();
        assert_eq!(path.is_some(), reachable);
        if reachable {
            yes += 1;
            // Different groups of areas never reach each other.
            let path = path.unwrap();
            let (first, last) = (path.areas[0], *path.areas.last().unwrap());
            assert_eq!(nav.component(first), nav.component(last));
        } else {
            no += 1;
        }
    }
    assert!(yes > 50 && no > 10, "{yes} reachable, {no} not");
}

#[test]
fn the_nearest_walkable_point_is_the_closest_floor_point() {
    let world = cluttered(51);
    let (_, nav) = nav(&world);
    let mut rng = Rng::new(3);
    let region = world.bounds().loosened(200.0);
    for _ in 0..300 {
        let p = rng.point_in(&region);
        for pose in 0..nav.poses().len() {
            let found = nav.nearest_walkable(p, pose).unwrap().expect("areas exist");
            let brute = nav
                .areas()
                .iter()
                .filter(|a| a.pose == pose || a.pose == 0)
                .map(|a| a.polygon.closest_point(p).distance(p))
                .fold(f64::INFINITY, f64::min);
            let area = &nav.areas()[found.area as usize];
            let floor = area.on_floor(found.position);
            assert!(
                (floor.distance(p) - brute).abs() < 1e-6,
                "{p}: found {} at {}, brute force {brute}",
                floor.distance(p),
                found.position
            );
        }
    }
}

#[test]
fn a_flat_floor_is_crossed_in_a_straight_line_at_walk_speed() {
    let world = boxes(&[([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0])]);
    let (_, nav) = nav(&world);
    let (from, to) = (
        DVec3::new(-300.0, -200.0, 24.0),
        DVec3::new(250.0, 300.0, 30.0),
    );
    let path = nav
        .path(from, to, 0, &mut NavContext::new())
        .unwrap()
        .unwrap();
    assert_eq!(path.waypoints.len(), 2, "{path:?}");
    assert!(
        path.waypoints
            .iter()
            .all(|w| w.kind == LinkKind::Walk && w.pose == 0)
    );
    let distance = (to - from).truncate().length();
    assert!((path.length() - distance).abs() < 1e-9);
    assert!((path.cost - distance / 320.0).abs() < 1e-9, "{}", path.cost);
}

#[test]
fn one_context_serves_several_graphs() {
    let (small, large) = (cluttered(61), cluttered(62));
    let (_, a) = nav(&small);
    let (_, b) = nav(&large);
    let mut ctx = NavContext::new();
    for nav in [&a, &b, &a] {
        let (from, to) = (standing_point(nav, 0), standing_point(nav, 1));
        let shared = nav.path(from, to, 0, &mut ctx);
        let own = nav.path(from, to, 0, &mut NavContext::new());
        assert_eq!(format!("{shared:?}"), format!("{own:?}"));
    }
}

#[test]
fn a_crouching_start_where_standing_is_free_stands_up_first() {
    // An open floor: the crouching graph keeps nothing, so a crouching agent stands up.
    let world = boxes(&[([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0])]);
    let (_, nav) = nav(&world);
    assert_eq!(nav.stats().poses[1].areas, 0);
    let crouch = nav.pose_index("crouch").unwrap();
    let (from, to) = (DVec3::new(-300.0, 0.0, 24.0), DVec3::new(300.0, 0.0, 24.0));
    let path = nav
        .path(from, to, crouch, &mut NavContext::new())
        .unwrap()
        .unwrap();
    let w = &path.waypoints;
    assert_eq!((w[0].kind, w[0].pose), (LinkKind::Walk, crouch));
    assert_eq!((w[1].kind, w[1].pose), (LinkKind::StandUp, 0));
    assert_eq!(w[0].position, w[1].position);
    assert_eq!(w.last().unwrap().pose, 0);
}

#[test]
fn graphs_and_contexts_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<NavMesh>();
    send_sync::<NavContext>();
    send_sync::<cspace_nav::LineOfSight>();
    send_sync::<cspace_nav::LeafGraph>();
    // One graph, two threads, each with its own context: the same answers.
    let world = cluttered(71);
    let (_, nav) = nav(&world);
    let ends: Vec<(DVec3, DVec3)> = (0..50)
        .map(|i| {
            (
                standing_point(&nav, i),
                standing_point(&nav, (i * 7 + 3) % 50),
            )
        })
        .collect();
    let plan = |nav: &NavMesh| {
        let mut ctx = NavContext::new();
        ends.iter()
            .map(|&(a, b)| format!("{:?}", nav.path(a, b, 0, &mut ctx)))
            .collect::<Vec<_>>()
    };
    let here = plan(&nav);
    let there = std::thread::scope(|s| s.spawn(|| plan(&nav)).join().unwrap());
    assert_eq!(here, there);
}
