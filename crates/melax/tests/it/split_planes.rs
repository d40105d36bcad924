//! Regression (issue 35, item 2): Melax let a point ray lying in a splitting plane through solid.
//! On E1M1 the vertical ray at (-576.5, 2400) lies in the plane y = 2400 the tree splits by, which
//! runs through brush 381: `HitCheckBSP` kept each side of a node only where the segment is
//! deeper than `CONTACT` past that side's (shifted) plane, and a segment in the plane is on
//! neither side, so it was dropped, fraction 1.0 through brush 381 and everything below it.
//!
//! The fix (`hit_check.rs`, `collect_thin`): a segment of a shape without width across a plane
//! it lies on walks both sides of the node, each noting the side it took, and geom's
//! `first_entry_across` takes the cells in the sectors around the segment their sides face: a
//! stretch is solid where every sector is (the exact backend's rule, whatever the order of the
//! tree's splits; taking both sides node by node and keeping what both hold missed the ray at
//! (-288, 1936), where three planes through the ray leave a side of no volume near it).

use std::sync::Arc;

use cspace_geom::touching::LatticeWorld;
use cspace_geom::{Collider, DVec3, ExactCollider, Shape, WithContext};
use cspace_melax::{BevelMode, MelaxCollider, compile};

/// A point ray up the plane x = 0 of lattice world 1 (geom's `touching`): the tree splits its
/// ceiling slab (x from -64 to 32) by that plane, a face plane of the boxes below it.
#[test]
fn a_point_ray_in_a_splitting_plane_stops_on_the_slab_it_splits() {
    let lattice = LatticeWorld::generate(1);
    let world = Arc::new(lattice.world());
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let (a, b) = (DVec3::new(0.0, 8.25, 72.0), DVec3::new(0.0, 8.25, 128.0));
    let pe = exact.prepare(&Shape::POINT).unwrap();
    let expected = exact
        .trace(&pe, a, b)
        .surface()
        .map(|s| (s.time_of_impact, s.brush));
    assert_eq!(
        expected.map(|e| e.0),
        Some(1.0 / 7.0),
        "the slab's underside at z = 80"
    );
    for bevel in [BevelMode::Exact, BevelMode::PAPER] {
        let tree = Arc::new(compile(&world, bevel).unwrap());
        let mut melax = WithContext::new(MelaxCollider::new(world.clone(), tree).unwrap());
        let pm = melax.prepare(&Shape::POINT).unwrap();
        let hit = melax.trace(&pm, a, b);
        assert_eq!(
            hit.surface().map(|s| (s.time_of_impact, s.brush)),
            expected,
            "{bevel:?}: {hit:?}"
        );
    }
}

#[test]
fn point_rays_in_splitting_planes_of_e1m1_stop_where_the_exact_backend_does() {
    let Some(map) = cspace_corpus::map(
        "point_rays_in_splitting_planes_of_e1m1_stop_where_the_exact_backend_does",
        "quake_e1m1.map",
    ) else {
        return;
    };
    let tree = Arc::new(compile(&map.world, BevelMode::PAPER).unwrap());
    let mut melax = WithContext::new(MelaxCollider::new(map.world.clone(), tree).unwrap());
    let point = melax.prepare(&Shape::POINT).unwrap();
    for (x, y, toi, brush) in [
        (-576.5, 2400.0, 0.07894736842105263, 381),
        (-288.0, 1936.0, 0.30701754385964913, 310),
    ] {
        let hit = melax.trace(&point, DVec3::new(x, y, 296.0), DVec3::new(x, y, -616.0));
        let s = hit
            .surface()
            .unwrap_or_else(|| panic!("({x}, {y}) went through: {hit:?}"));
        assert!(
            (s.time_of_impact - toi).abs() < 1e-12,
            "({x}, {y}): {hit:?}"
        );
        assert_eq!(s.brush.0, brush, "({x}, {y}): {hit:?}");
    }
}
