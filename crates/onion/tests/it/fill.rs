//! Filling the outside of sealed maps from their spawn points.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Aabb, Collider, DVec3, ExactCollider, WithContext, World};
use cspace_onion::{CompileOptions, FillOutcome, OnionCollider, compile};

use crate::common::{axial, differ, quake_poses, shape};

/// A closed room 512 x 512 x 256 (walls 16 thick), a pillar inside, a block outside; with
/// `hole` a doorway of that width in the +x wall.
fn room(hole: Option<f64>) -> World {
    let mut b = vec![
        axial([-16.0, -16.0, -16.0], [528.0, 528.0, 0.0]),
        axial([-16.0, -16.0, 256.0], [528.0, 528.0, 272.0]),
        axial([-16.0, -16.0, 0.0], [0.0, 528.0, 256.0]),
        axial([0.0, -16.0, 0.0], [512.0, 0.0, 256.0]),
        axial([0.0, 512.0, 0.0], [512.0, 528.0, 256.0]),
        axial([200.0, 200.0, 0.0], [264.0, 264.0, 256.0]),
        axial([800.0, 0.0, 0.0], [900.0, 100.0, 100.0]),
    ];
    match hole {
        None => b.push(axial([512.0, 0.0, 0.0], [528.0, 512.0, 256.0])),
        Some(w) => {
            let (lo, hi) = (256.0 - w / 2.0, 256.0 + w / 2.0);
            b.push(axial([512.0, 0.0, 0.0], [528.0, lo, 256.0]));
            b.push(axial([512.0, hi, 0.0], [528.0, 512.0, 256.0]));
            b.push(axial([512.0, lo, 128.0], [528.0, hi, 256.0]));
        }
    }
    World::from_brushes(b)
}

fn filled(spawns: Vec<DVec3>) -> CompileOptions {
    CompileOptions {
        fill_outside: true,
        spawn_points: spawns,
        ..CompileOptions::default()
    }
}

#[test]
fn a_sealed_room_has_its_outside_filled_and_the_tree_shrinks() {
    let world = Arc::new(room(None));
    let poses = quake_poses();
    let plain = compile(&world, &poses, &CompileOptions::default()).unwrap();
    let spawn = DVec3::new(100.0, 100.0, 40.0);
    let compiled = compile(&world, &poses, &filled(vec![spawn])).unwrap();
    for (s, outcome) in compiled.stats.outside_fill.iter().enumerate() {
        assert!(
            matches!(outcome, FillOutcome::Filled { leaves } if *leaves > 0),
            "space {s}: {outcome:?}"
        );
    }
    assert!(
        compiled.stats.nodes < plain.stats.nodes,
        "{} nodes filled, {} plain",
        compiled.stats.nodes,
        plain.stats.nodes
    );
    let tree = &compiled.tree;
    // Outside (beyond the walls, in the block's region too): solid everywhere now.
    for p in [
        DVec3::new(700.0, 50.0, 50.0),
        DVec3::new(-200.0, 0.0, 0.0),
        DVec3::new(850.0, 50.0, 50.0),
    ] {
        assert_eq!(tree.point_mask(p), 0b111, "{p}");
    }
    // Inside: as before, and traces inside agree with the exact backend.
    assert_eq!(tree.point_mask(spawn), 0);
    let mut onion = WithContext::new(
        OnionCollider::new(world.clone(), compiled.tree.clone())
            .expect("the tree was compiled from this world"),
    );
    let p = onion.prepare(&shape(&poses[0])).unwrap();
    let hit = onion.trace(&p, spawn, DVec3::new(100.0, 400.0, 40.0));
    assert!(!hit.is_hit());
}

#[test]
fn inside_a_filled_room_the_onion_agrees_with_exact() {
    let world = Arc::new(room(None));
    let poses = quake_poses();
    let compiled = compile(
        &world,
        &poses,
        &filled(vec![DVec3::new(100.0, 100.0, 40.0)]),
    )
    .unwrap();
    let mut onion = WithContext::new(
        OnionCollider::from_compiled(world.clone(), compiled)
            .expect("the tree was compiled from this world"),
    );
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let mut rng = Rng::new(21);
    let inside = Aabb::new(DVec3::splat(0.0), DVec3::new(512.0, 512.0, 256.0));
    let mut traces = 0;
    for pose in &poses {
        let (o, e) = (
            onion.prepare(&shape(pose)).unwrap(),
            exact.prepare(&shape(pose)).unwrap(),
        );
        for _ in 0..3000 {
            let a = rng.point_in(&inside);
            let b = a + rng.unit_vector() * rng.range(1.0, 96.0);
            // Both ends inside the room, whose outside is now solid for the onion only.
            if !inside.contains_point(b) {
                continue;
            }
            let (x, y) = (onion.trace(&o, a, b), exact.trace(&e, a, b));
            assert_eq!(
                differ(&x, &y),
                None,
                "{} {a} -> {b}: {x:?} {y:?}",
                pose.name
            );
            traces += 1;
        }
    }
    assert!(traces > 5000, "{traces}");
}

#[test]
fn a_leaking_room_is_left_unfilled_and_smaller_poses_follow_larger_ones() {
    // A 48-wide doorway: the crouching and standing boxes (32 wide) get out, the large one (64)
    // does not.
    let world = Arc::new(room(Some(48.0)));
    let poses = quake_poses();
    let compiled = compile(
        &world,
        &poses,
        &filled(vec![DVec3::new(100.0, 100.0, 40.0)]),
    )
    .unwrap();
    let o = &compiled.stats.outside_fill;
    assert_eq!(o[0], FillOutcome::Leaked);
    assert_eq!(o[1], FillOutcome::Leaked);
    assert!(
        matches!(o[2], FillOutcome::Filled { leaves } if leaves > 0),
        "{o:?}"
    );
    let outside = DVec3::new(700.0, 50.0, 50.0);
    assert_eq!(compiled.tree.point_mask(outside), 0b100);
    // No spawn point in empty space: nothing filled.
    // (the only spawn point is inside the pillar)
    let none = compile(
        &world,
        &poses,
        &filled(vec![DVec3::new(230.0, 230.0, 40.0)]),
    )
    .unwrap();
    assert!(
        none.stats
            .outside_fill
            .iter()
            .all(|o| *o == FillOutcome::NoSpawn),
        "{:?}",
        none.stats.outside_fill
    );
}
