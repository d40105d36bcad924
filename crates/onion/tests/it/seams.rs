//! Seams: a box sliding along a wall or a floor made of many touching brushes never reports a
//! hit from an internal face (the CSG union leaves none, and touching is free).

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Collider, DVec3, WithContext, World};
use cspace_onion::{CompileOptions, OnionCollider, compile};

use crate::common::{axial, quake_poses, shape};

/// A floor of 8 x 8 touching tiles 64 wide and a wall of 8 x 4 touching blocks along y = 256.
fn tiled() -> World {
    let mut b = Vec::new();
    for i in 0..8 {
        for j in 0..8 {
            let (x, y) = (i as f64 * 64.0 - 256.0, j as f64 * 64.0 - 256.0);
            b.push(axial([x, y, -16.0], [x + 64.0, y + 64.0, 0.0]));
        }
    }
    for i in 0..8 {
        for k in 0..4 {
            let (x, z) = (i as f64 * 64.0 - 256.0, k as f64 * 32.0);
            b.push(axial([x, 256.0, z], [x + 64.0, 272.0, z + 32.0]));
        }
    }
    World::from_brushes(b)
}

#[test]
fn sliding_over_tiles_and_along_a_block_wall_never_hits_a_seam() {
    let world = Arc::new(tiled());
    let poses = quake_poses();
    let compiled = compile(&world, &poses, &CompileOptions::default()).unwrap();
    // One space's faces: the floor's top is one union, so only its outline and the wall remain.
    let mut onion = WithContext::new(
        OnionCollider::from_compiled(world.clone(), compiled)
            .expect("the tree was compiled from this world"),
    );
    let mut rng = Rng::new(9);
    let mut moves = 0;
    for pose in &poses {
        let p = onion.prepare(&shape(pose)).unwrap();
        // Resting exactly on the floor, and one skin above it.
        for lift in [0.0, 1.0 / 32.0] {
            let z = -pose.mins.z + lift;
            for _ in 0..500 {
                let a = DVec3::new(rng.range(-200.0, 200.0), rng.range(-200.0, 200.0), z);
                let d = rng.range(0.0, std::f64::consts::TAU);
                let b = a + DVec3::new(d.cos(), d.sin(), 0.0) * rng.range(10.0, 150.0);
                let b = b.clamp(
                    DVec3::new(-240.0, -240.0, z),
                    DVec3::new(240.0, 256.0 - pose.maxs.y - 1.0, z),
                );
                let hit = onion.trace(&p, a, b);
                assert!(
                    !hit.is_hit() && !hit.start_solid(),
                    "{} {a} -> {b}: {hit:?}",
                    pose.name
                );
                moves += 1;
            }
        }
        // Touching the wall (its face at y = 256), sliding along it in x and z.
        let y = 256.0 - pose.maxs.y;
        for _ in 0..500 {
            let z = rng.range(-pose.mins.z, 100.0);
            let a = DVec3::new(rng.range(-200.0, 200.0), y, z);
            let b = DVec3::new(rng.range(-200.0, 200.0), y, rng.range(-pose.mins.z, 100.0));
            let hit = onion.trace(&p, a, b);
            assert!(
                !hit.is_hit() && !hit.start_solid(),
                "{} {a} -> {b}: {hit:?}",
                pose.name
            );
            moves += 1;
        }
        // Pressing into the floor from one skin above: the hit is the floor's top, never a seam.
        for _ in 0..300 {
            let a = DVec3::new(
                rng.range(-200.0, 200.0),
                rng.range(-200.0, 200.0),
                -pose.mins.z + 1.0 / 32.0,
            );
            let b = a + DVec3::new(rng.range(-40.0, 40.0), rng.range(-40.0, 40.0), -5.0);
            let hit = onion.trace(&p, a, b);
            let s = hit.surface().expect("the floor stops a move into it");
            assert_eq!(s.plane.normal(), DVec3::Z, "{} {a} -> {b}", pose.name);
            moves += 1;
        }
    }
    assert_eq!(moves, 3 * (1000 + 500 + 300));
}
