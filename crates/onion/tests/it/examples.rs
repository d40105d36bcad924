//! Golodetz's examples: the two rooms and corridor of Figure 1, the low tunnel (a crouching box
//! passes, a standing box is blocked), and the cases of Figure 4, with the leaf solidity patterns
//! expected (one letter per pose in order: `S` solid, `E` empty).

use std::sync::Arc;

use cspace_geom::{Collider, DVec3, WithContext, World};
use cspace_onion::{
    CompileOptions, OnionCollider, OnionTree, Pose, Transition, WalkScratch, compile,
};

use crate::common::{axial, shape};

/// The pattern of the leaf holding `p`.
fn pattern(tree: &OnionTree, p: DVec3) -> String {
    let leaf = tree.find_leaf(p);
    (0..tree.spaces())
        .map(|s| {
            if tree.leaf_is_solid(leaf, s) {
                'S'
            } else {
                'E'
            }
        })
        .collect()
}

/// Figure 1 in 3D: two rooms 256 x 256 joined by a corridor 48 wide, walls 16 thick, floor and
/// ceiling 128 apart.
fn two_rooms() -> World {
    let mut b = vec![
        // Floor and ceiling over everything.
        axial([-16.0, -16.0, -16.0], [784.0, 272.0, 0.0]),
        axial([-16.0, -16.0, 128.0], [784.0, 272.0, 144.0]),
        // Room A: x 0..256; room B: x 512..768; y 0..256.
        axial([-16.0, -16.0, 0.0], [0.0, 272.0, 128.0]),
        axial([768.0, -16.0, 0.0], [784.0, 272.0, 128.0]),
        axial([0.0, -16.0, 0.0], [768.0, 0.0, 128.0]),
        axial([0.0, 256.0, 0.0], [768.0, 272.0, 128.0]),
    ];
    // The wall between the rooms, x 256..512, with the corridor y 104..152 cut out of it.
    b.push(axial([256.0, 0.0, 0.0], [512.0, 104.0, 128.0]));
    b.push(axial([256.0, 152.0, 0.0], [512.0, 256.0, 128.0]));
    World::from_brushes(b)
}

#[test]
fn figure_1_two_rooms_and_a_corridor() {
    let world = Arc::new(two_rooms());
    let poses = [Pose::point(), Pose::quake_standing(), Pose::quake_large()];
    let compiled = compile(&world, &poses, &CompileOptions::default()).unwrap();
    let tree = &compiled.tree;
    // The rooms are empty for every pose; the corridor (48 wide) is empty for the point and the
    // standing box (32 wide) but solid for the large box (64 wide); the walls are solid.
    assert_eq!(pattern(tree, DVec3::new(128.0, 128.0, 64.0)), "EEE");
    assert_eq!(pattern(tree, DVec3::new(640.0, 128.0, 64.0)), "EEE");
    assert_eq!(pattern(tree, DVec3::new(384.0, 128.0, 64.0)), "EES");
    assert_eq!(pattern(tree, DVec3::new(384.0, 50.0, 64.0)), "SSS");
    // Near a wall: empty for the point, solid for the boxes, which overlap it.
    assert_eq!(pattern(tree, DVec3::new(250.0, 50.0, 64.0)), "ESS");
    // Walking from room A to room B through the corridor.
    let mut onion = WithContext::new(
        OnionCollider::from_compiled(world.clone(), compiled)
            .expect("the tree was compiled from this world"),
    );
    let (a, b) = (
        DVec3::new(128.0, 128.0, 64.0),
        DVec3::new(640.0, 128.0, 64.0),
    );
    for (pose, blocked) in poses.iter().zip([false, false, true]) {
        let p = onion.prepare(&shape(pose)).unwrap();
        let hit = onion.trace(&p, a, b);
        assert_eq!(hit.is_hit(), blocked, "{}", pose.name);
    }
    // The large box stops at the corridor's mouth: its front face (x + 32) meets x = 256.
    let p = onion.prepare(&shape(&poses[2])).unwrap();
    let hit = onion.trace(&p, a, b);
    let s = hit.surface().unwrap();
    assert_eq!(s.plane.normal(), DVec3::NEG_X);
    assert!((s.plane.dist() + 224.0).abs() < 1e-9, "{}", s.plane.dist());
}

/// A floor, and a slab whose underside is 48 above it from x = 128 to 384: a low tunnel.
fn tunnel() -> World {
    World::from_brushes([
        axial([-512.0, -512.0, -16.0], [1024.0, 512.0, 0.0]),
        axial([128.0, -512.0, 48.0], [384.0, 512.0, 96.0]),
    ])
}

#[test]
fn low_tunnel_passes_a_crouching_box_and_blocks_a_standing_one() {
    let world = Arc::new(tunnel());
    let poses = [Pose::quake_standing(), Pose::quake_crouching()];
    let compiled = compile(&world, &poses, &CompileOptions::default()).unwrap();
    let tree = &compiled.tree;
    // Inside the tunnel at walking height (origin 24 above the floor): the standing box's head
    // (at 56) is in the slab, the crouching box's (at 40) is not.
    assert_eq!(pattern(tree, DVec3::new(256.0, 0.0, 24.0)), "SE");
    assert_eq!(pattern(tree, DVec3::new(0.0, 0.0, 24.0)), "EE");
    assert_eq!(pattern(tree, DVec3::new(0.0, 0.0, -8.0)), "SS");
    let mut onion = WithContext::new(
        OnionCollider::new(world.clone(), compiled.tree.clone())
            .expect("the tree was compiled from this world"),
    );
    let stand = onion.prepare(&shape(&poses[0])).unwrap();
    let crouch = onion.prepare(&shape(&poses[1])).unwrap();
    let (a, b) = (DVec3::new(0.0, 0.0, 24.0), DVec3::new(600.0, 0.0, 24.0));
    let hit = onion.trace(&stand, a, b);
    let s = hit.surface().expect("the standing box is blocked");
    // Its front face (x + 16) meets the slab's face x = 128.
    assert_eq!(s.plane.normal(), DVec3::NEG_X);
    assert!((s.time_of_impact - 112.0 / 600.0).abs() < 1e-12);
    assert!(!onion.trace(&crouch, a, b).is_hit());
    // Listing 5 says the same: empty to solid for the standing box, all empty when crouching.
    match tree.find_first_transition(&mut WalkScratch::default(), 0, a, b) {
        Transition::EmptyToSolid(c) => assert!((c.point.x - 112.0).abs() < 1e-9),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        tree.find_first_transition(&mut WalkScratch::default(), 1, a, b),
        Transition::Empty
    );
}

#[test]
fn figure_4_cases() {
    let world = Arc::new(tunnel());
    let poses = [Pose::quake_standing(), Pose::quake_crouching()];
    let tree = compile(&world, &poses, &CompileOptions::default())
        .unwrap()
        .tree;
    // (a) Entirely on one side of every plane it meets: above the floor, clear of the slab.
    let t = tree.find_first_transition(
        &mut WalkScratch::default(),
        0,
        DVec3::new(-400.0, 0.0, 60.0),
        DVec3::new(0.0, 0.0, 90.0),
    );
    assert_eq!(t, Transition::Empty);
    // (b) Lying in a plane: a standing box resting on the floor (origin at z = 24, exactly on the
    // floor's configuration-space plane) slides along it: free, although the leaves below are
    // solid. Listing 5 literally would take the nearer transition of the two sides.
    let t = tree.find_first_transition(
        &mut WalkScratch::default(),
        0,
        DVec3::new(-400.0, 0.0, 24.0),
        DVec3::new(100.0, 0.0, 24.0),
    );
    assert_eq!(t, Transition::Empty);
    // ... and a crouching box sliding with its head touching the slab's underside (origin at
    // 48 - 16 = 32) passes under the overhang.
    let t = tree.find_first_transition(
        &mut WalkScratch::default(),
        1,
        DVec3::new(0.0, 0.0, 32.0),
        DVec3::new(600.0, 0.0, 32.0),
    );
    assert_eq!(t, Transition::Empty);
    // (c) Straddling: the near half is empty, the transition is in the far half.
    match tree.find_first_transition(
        &mut WalkScratch::default(),
        0,
        DVec3::new(0.0, 0.0, 100.0),
        DVec3::new(0.0, 0.0, -100.0),
    ) {
        Transition::EmptyToSolid(c) => {
            assert_eq!(c.plane.normal(), DVec3::Z);
            assert!((c.point.z - 24.0).abs() < 1e-9);
            assert!((c.time - 0.38).abs() < 1e-12);
        }
        other => panic!("{other:?}"),
    }
    // Starting inside the floor and leaving it upwards: solid to empty.
    match tree.find_first_transition(
        &mut WalkScratch::default(),
        0,
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(0.0, 0.0, 40.0),
    ) {
        Transition::SolidToEmpty(c) => assert!((c.point.z - 24.0).abs() < 1e-9),
        other => panic!("{other:?}"),
    }
    // All solid.
    let t = tree.find_first_transition(
        &mut WalkScratch::default(),
        0,
        DVec3::new(0.0, 0.0, -20.0),
        DVec3::new(50.0, 0.0, -20.0),
    );
    assert_eq!(t, Transition::Solid);
}

#[test]
fn a_move_from_a_face_into_solid_is_an_entry_at_time_zero() {
    let world = Arc::new(tunnel());
    let poses = [Pose::quake_standing()];
    let compiled = compile(&world, &poses, &CompileOptions::default()).unwrap();
    // Exactly on the floor's configuration-space plane, moving down and along.
    let (a, b) = (DVec3::new(0.0, 0.0, 24.0), DVec3::new(30.0, 0.0, 10.0));
    match compiled
        .tree
        .find_first_transition(&mut WalkScratch::default(), 0, a, b)
    {
        Transition::EmptyToSolid(c) => {
            assert_eq!(c.time, 0.0);
            assert_eq!(c.plane.normal(), DVec3::Z);
        }
        other => panic!("{other:?}"),
    }
    let mut onion = WithContext::new(
        OnionCollider::from_compiled(world.clone(), compiled)
            .expect("the tree was compiled from this world"),
    );
    let p = onion.prepare(&shape(&poses[0])).unwrap();
    let hit = onion.trace(&p, a, b);
    assert!(hit.is_hit() && !hit.start_solid() && !hit.all_solid());
    assert_eq!(hit.fraction(), 0.0);
    assert_eq!(hit.surface().unwrap().plane.normal(), DVec3::Z);
}

#[test]
fn statistics_describe_the_tree() {
    let world = Arc::new(two_rooms());
    let poses = [Pose::point(), Pose::quake_standing(), Pose::quake_large()];
    let compiled = compile(&world, &poses, &CompileOptions::default()).unwrap();
    let (tree, stats) = (&compiled.tree, &compiled.stats);
    assert_eq!(stats.spaces, 3);
    assert_eq!(stats.nodes, tree.node_count());
    assert_eq!(stats.leaves, stats.nodes + 1);
    assert_eq!(stats.planes, tree.planes().len());
    assert_eq!(
        stats.leaf_patterns.iter().map(|p| p.leaves).sum::<usize>(),
        stats.leaves
    );
    // Patterns are nested (point within standing within large): only EEE, EES, ESS, SSS occur.
    for p in &stats.leaf_patterns {
        assert!(
            ["EEE", "EES", "ESS", "SSS"].contains(&p.pattern.as_str()),
            "{p:?}"
        );
    }
    assert!(stats.depth_max as f64 >= stats.depth_mean && stats.depth_mean > 0.0);
    for s in 0..3 {
        assert!(stats.polygons_before[s] > 0);
        assert!(stats.polygons_after[s] >= stats.polygons_before[s]);
    }
    assert!(stats.compile_seconds.total >= stats.compile_seconds.build);
    // The tree alone tells the same shape.
    let again = cspace_onion::TreeStats::of_tree(tree);
    assert_eq!(
        (again.nodes, again.leaves, again.depth_max),
        (stats.nodes, stats.leaves, stats.depth_max)
    );
    assert_eq!(again.leaf_patterns, stats.leaf_patterns);
}
