//! The numeric domain's edge (issue 17): inside the limits every backend answers every shape
//! with finite numbers, and never panics (these tests run with debug assertions, so a query
//! outside the domain would panic on the precondition).

use std::sync::Arc;

use cspace_geom::generate::{Rng, random_convex_brush};
use cspace_geom::tolerance::{MAX_COORDINATE, MAX_SHAPE_EXTENT, WORLD_HALF_EXTENT};
use cspace_geom::{Aabb, Brush, DVec3, Hit, QueryContext, Shape, World};
use cspace_sim::backend::BackendKind;

/// Brushes at the corners and faces of the domain (reaching `MAX_COORDINATE` exactly), slanted
/// ones among them, and a floor at the origin.
fn world_at_the_edge() -> World {
    let m = MAX_COORDINATE;
    let mut rng = Rng::new(17);
    let mut brushes = vec![
        Brush::from_aabb(Aabb::new(DVec3::new(-m, -m, -16.0), DVec3::new(m, m, 0.0))).unwrap(),
        Brush::from_aabb(Aabb::new(DVec3::splat(m - 4096.0), DVec3::splat(m))).unwrap(),
        Brush::from_aabb(Aabb::new(DVec3::splat(-m), DVec3::splat(-m + 64.0))).unwrap(),
        Brush::from_aabb(Aabb::new(DVec3::new(m - 1.0, -m, -m), DVec3::new(m, m, m))).unwrap(),
    ];
    for centre in [
        DVec3::new(m - 5000.0, 0.0, m - 5000.0),
        DVec3::new(-m + 3000.0, m - 3000.0, 0.0),
        DVec3::new(0.0, -m + 20_000.0, -m + 20_000.0),
    ] {
        brushes.push(random_convex_brush(&mut rng, centre, 2500.0, 9));
    }
    for b in &brushes {
        b.check_domain().unwrap();
    }
    World::from_brushes(brushes)
}

/// The largest shapes of each kind, and the player.
fn shapes() -> Vec<Shape> {
    let e = MAX_SHAPE_EXTENT;
    vec![
        Shape::new_box(DVec3::splat(-e), DVec3::splat(e)).unwrap(),
        Shape::new_box(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 32.0),
        )
        .unwrap(),
        Shape::new_sphere(e).unwrap(),
        Shape::new_cylinder(e, e).unwrap(),
        Shape::new_cylinder(16.0, e).unwrap(),
    ]
}

/// Segments whose ends are corners, face centres and random points of the trace domain, and
/// points near the world's brushes.
fn segments() -> Vec<(DVec3, DVec3)> {
    let h = WORLD_HALF_EXTENT;
    let mut rng = Rng::new(1717);
    let domain = Aabb::new(DVec3::splat(-h), DVec3::splat(h));
    let near = Aabb::new(DVec3::splat(-MAX_COORDINATE), DVec3::splat(MAX_COORDINATE));
    let mut out = vec![
        (DVec3::splat(-h), DVec3::splat(h)),
        (DVec3::new(0.0, 0.0, h), DVec3::new(0.0, 0.0, -h)),
        (DVec3::new(h, 0.0, 100.0), DVec3::new(-h, 0.0, 100.0)),
        (DVec3::new(0.0, 0.0, 100.0), DVec3::splat(MAX_COORDINATE)),
        (DVec3::splat(h), DVec3::splat(h)),
    ];
    for _ in 0..40 {
        out.push((rng.point_in(&domain), rng.point_in(&domain)));
        out.push((rng.point_in(&near), rng.point_in(&near)));
    }
    out
}

fn finite(hit: &Hit) -> bool {
    hit.fraction().is_finite()
        && (0.0..=1.0).contains(&hit.fraction())
        && hit.end().is_finite()
        && hit.surface().is_none_or(|s| {
            s.plane.normal().is_finite()
                && s.plane.dist().is_finite()
                && s.point.is_finite()
                && s.time_of_impact.is_finite()
        })
}

#[test]
fn every_backend_answers_every_shape_finitely_at_the_limits() {
    let world = Arc::new(world_at_the_edge());
    let shapes = shapes();
    let segments = segments();
    let mut answered = 0;
    for kind in BackendKind::ALL {
        for shape in &shapes {
            let Some(collider) = kind
                .build_for(&world, std::slice::from_ref(shape))
                .unwrap_or_else(|e| panic!("{}: {e}", kind.name()))
            else {
                continue;
            };
            let prepared = collider.prepare(shape).unwrap();
            let mut ctx = QueryContext::new();
            for &(a, b) in &segments {
                let hit = collider.trace(&mut ctx, &prepared, a, b);
                assert!(
                    finite(&hit),
                    "{} {}: {a} -> {b}: {hit:?}",
                    kind.name(),
                    shape.describe()
                );
                collider.is_solid(&mut ctx, &prepared, a);
                answered += 1;
            }
        }
    }
    // Every backend takes the three round shapes; the onion takes the two boxes.
    assert!(answered >= segments.len() * 20, "{answered} answers");
}
