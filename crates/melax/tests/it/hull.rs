//! Convex hulls shift the planes by their furthest vertex (Section 3's general convex offset): a
//! hull of a box's corners traces as the box does on the same tree, and its contact point is the
//! world point its touching vertex meets.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Aabb, Brush, Collider, DVec3, Shape, WithContext, World};
use cspace_melax::{BevelMode, MelaxCollider, compile};

use crate::common;

#[test]
fn a_hull_of_box_corners_traces_as_the_box() {
    let named = common::room();
    let tree = Arc::new(compile(&named.world, BevelMode::Exact).unwrap());
    let mut melax = WithContext::new(MelaxCollider::new(named.world.clone(), tree).unwrap());
    let (mins, maxs) = (DVec3::new(-12.0, -8.0, -20.0), DVec3::new(12.0, 10.0, 24.0));
    let corners: Vec<DVec3> = (0..8)
        .map(|i| {
            DVec3::new(
                if i & 1 == 0 { mins.x } else { maxs.x },
                if i & 2 == 0 { mins.y } else { maxs.y },
                if i & 4 == 0 { mins.z } else { maxs.z },
            )
        })
        .collect();
    let hull = melax.prepare(&Shape::new_hull(&corners).unwrap()).unwrap();
    let cuboid = melax.prepare(&Shape::new_box(mins, maxs).unwrap()).unwrap();
    let mut rng = Rng::new(12);
    let bounds = named.world.bounds();
    let mut hits = 0;
    for i in 0..3000 {
        let start = rng.point_in(&bounds);
        let end = start + rng.unit_vector() * rng.range(4.0, 300.0);
        let (a, b) = (
            melax.trace(&hull, start, end),
            melax.trace(&cuboid, start, end),
        );
        assert_eq!(
            (a.is_hit(), a.start_solid(), a.all_solid()),
            (b.is_hit(), b.start_solid(), b.all_solid()),
            "trace {i}: {a:?} {b:?}"
        );
        assert!(
            (a.fraction() - b.fraction()).abs() < 1e-9,
            "trace {i}: {a:?} {b:?}"
        );
        hits += usize::from(a.is_hit());
    }
    assert!(hits > 300, "{hits} hits");
}

#[test]
fn a_hull_lands_on_its_lowest_vertex() {
    let floor = Brush::from_aabb(Aabb::new(
        DVec3::new(-256.0, -256.0, -16.0),
        DVec3::new(256.0, 256.0, 0.0),
    ))
    .unwrap();
    let world = Arc::new(World::from_brushes([floor]));
    let mut melax = WithContext::new(
        MelaxCollider::new(
            world.clone(),
            Arc::new(compile(&world, BevelMode::PAPER).unwrap()),
        )
        .unwrap(),
    );
    // A tetrahedron whose lowest vertex is (3, -2, -10) from its origin.
    let tetra = Shape::new_hull(&[
        DVec3::new(3.0, -2.0, -10.0),
        DVec3::new(-8.0, -6.0, 5.0),
        DVec3::new(8.0, -6.0, 5.0),
        DVec3::new(0.0, 9.0, 6.0),
    ])
    .unwrap();
    let prepared = melax.prepare(&tetra).unwrap();
    let hit = melax.trace(
        &prepared,
        DVec3::new(20.0, 30.0, 100.0),
        DVec3::new(20.0, 30.0, -50.0),
    );
    let surface = hit.surface().unwrap();
    assert!((hit.end().z - (10.0 + 1.0 / 32.0)).abs() < 1e-9, "{hit:?}");
    assert!(
        surface.point.abs_diff_eq(DVec3::new(23.0, 28.0, 0.0), 1e-9),
        "{surface:?}"
    );
}
