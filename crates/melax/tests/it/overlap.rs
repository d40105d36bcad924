//! `M()` (merge with slicing) is exact for a stationary polytope; `F()` (no slice) reports every
//! cell `M()` does and maybe more; on the exactly bevelled tree `F()` of a box is the exact
//! overlap (Section 6).

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Aabb, Collider, DVec3, ExactCollider, Shape, WithContext};
use cspace_melax::overlap::{merge, no_slice};
use cspace_melax::polyhedron::ConvexPolyhedron;
use cspace_melax::{BevelMode, compile};

use crate::common;

#[test]
fn merge_is_exact_and_no_slice_finds_at_least_as_much() {
    let named = common::room();
    let plain = compile(&named.world, BevelMode::None).unwrap();
    let bevelled = compile(&named.world, BevelMode::Exact).unwrap();
    let mut exact = WithContext::new(ExactCollider::new(named.world.clone()));
    let mut rng = Rng::new(9);
    let bounds = named.world.bounds();
    let (mut solid, mut slices) = (0, 0);
    for _ in 0..300 {
        let centre = rng.point_in(&bounds);
        let half = DVec3::splat(rng.range(2.0, 40.0));
        let shape = exact
            .prepare(&Shape::new_box(-half, half).unwrap())
            .unwrap();
        let want = exact.is_solid(&shape, centre);
        let cube = ConvexPolyhedron::from_aabb(Aabb::new(centre - half, centre + half));
        let m = merge(&plain, &cube);
        let f = no_slice(&plain, &cube);
        assert_eq!(m.solid_cells > 0, want, "M() at {centre} half {half}");
        assert!(
            f.solid_cells >= m.solid_cells,
            "F() found fewer cells than M()"
        );
        assert_eq!(
            no_slice(&bevelled, &cube).solid_cells > 0,
            want,
            "F() on exact bevels at {centre}"
        );
        solid += usize::from(want);
        slices += m.slices;
    }
    assert!(solid > 30 && slices > 0, "{solid} solid, {slices} slices");
    let _ = Arc::new(0);
}
