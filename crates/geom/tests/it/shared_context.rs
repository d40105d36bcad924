//! Regression (issue 32): one context serving two exact colliders of different worlds.
//!
//! The exact backend caches the prisms it sweeps cylinders through, per brush id, in the
//! context's scratch. A simulation with movers traces the static world and each mover's own
//! world with one context, and brush 0 of one world is not brush 0 of another: the cache keyed by
//! brush id alone answered a mover's trace with the static world's brush 0 (a cylinder walked
//! through a door). The cache is now keyed by the collider too, and every answer equals the
//! answer with a context of its own.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Aabb, Brush, Collider, DVec3, ExactCollider, QueryContext, Shape, World};

fn world(min: [f64; 3], max: [f64; 3]) -> Arc<World> {
    let b = Brush::from_aabb(Aabb::new(DVec3::from_array(min), DVec3::from_array(max))).unwrap();
    Arc::new(World::from_brushes([b]))
}

#[test]
fn one_context_serves_exact_colliders_of_different_worlds() {
    let a = ExactCollider::new(world([-64.0, -64.0, -16.0], [64.0, 64.0, 0.0]));
    let b = ExactCollider::new(world([200.0, -64.0, 0.0], [216.0, 64.0, 128.0]));
    let cylinder = Shape::new_cylinder(14.0, 28.0).unwrap();
    let (pa, pb) = (a.prepare(&cylinder).unwrap(), b.prepare(&cylinder).unwrap());
    let mut shared = QueryContext::new();
    let mut rng = Rng::new(5);
    let region = Aabb::new(
        DVec3::new(-100.0, -100.0, -60.0),
        DVec3::new(260.0, 100.0, 160.0),
    );
    let mut hits = 0;
    for i in 0..2000 {
        let start = rng.point_in(&region);
        let end = start + rng.unit_vector() * rng.range(1.0, 200.0);
        let (collider, prepared) = if i % 2 == 0 { (&a, &pa) } else { (&b, &pb) };
        let alone = collider.trace(&mut QueryContext::new(), prepared, start, end);
        let together = collider.trace(&mut shared, prepared, start, end);
        assert_eq!(together, alone, "trace {i}: {start} -> {end}");
        assert_eq!(
            collider.is_solid(&mut shared, prepared, start),
            collider.is_solid(&mut QueryContext::new(), prepared, start)
        );
        hits += usize::from(alone.is_hit());
    }
    assert!(hits > 100, "only {hits} hits");
}
