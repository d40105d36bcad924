//! Random sweeps: the exact backend's time of impact checked against Blow's binary search in time
//! on independent overlap tests, and the skin rule checked after every hit.

use std::sync::Arc;

use cspace_geom::generate::{RandomPatches, Rng, oriented_box, random_convex_brush};
use cspace_geom::patch::TessellationOptions;
use cspace_geom::shape::Shape;
use cspace_geom::{Aabb, Brush, Collider, DVec3, ExactCollider, WithContext, World};

use crate::overlap::overlaps;

/// The agent shrunk by this much (units) and still overlapping is clearly overlapping.
const SHRINK: f64 = 1e-6;
/// The agent grown by this much (units) and overlapping is touching.
const GROW: f64 = 1e-6;
/// Samples along each segment for the search in time.
const SAMPLES: usize = 160;

/// Random patches (arches on pillars, pipes, sheets, cones, a terrain; [`RandomPatches`])
/// tessellated within 2 units into facets, moved into the region of the other worlds.
fn patch_world() -> Vec<Brush> {
    let patches = RandomPatches {
        count: 20,
        extent: 300.0,
        seed: 14,
    };
    let world = patches.world(&TessellationOptions::new(2.0).unwrap());
    let centre = DVec3::splat(150.0);
    world
        .brushes()
        .iter()
        .map(|b| {
            if let Some(polygon) = b.brush.flat_polygon() {
                let moved: Vec<DVec3> = polygon.vertices.iter().map(|v| *v - centre).collect();
                Brush::from_polygon(&moved).unwrap()
            } else {
                let bounds = b.brush.bounds();
                Brush::from_aabb(Aabb::new(bounds.min - centre, bounds.max - centre)).unwrap()
            }
        })
        .collect()
}

fn worlds() -> Vec<(&'static str, Vec<Brush>)> {
    let mut rng = Rng::new(11);
    let region = Aabb::new(DVec3::splat(-150.0), DVec3::splat(150.0));
    let convex = (0..30)
        .map(|_| {
            let centre = rng.point_in(&region);
            let radius = rng.range(10.0, 60.0);
            random_convex_brush(&mut rng, centre, radius, 10)
        })
        .collect();
    let mut rng = Rng::new(12);
    let boxes = (0..30)
        .map(|_| {
            let centre = rng.point_in(&region);
            let half = DVec3::new(
                rng.range(5.0, 50.0),
                rng.range(5.0, 50.0),
                rng.range(5.0, 50.0),
            );
            oriented_box(centre, half, rng.frame())
        })
        .collect();
    vec![
        ("convex", convex),
        ("rotated boxes", boxes),
        ("patch facets", patch_world()),
    ]
}

fn shapes() -> Vec<Shape> {
    let mut rng = Rng::new(13);
    let hull_points: Vec<DVec3> = (0..10)
        .map(|_| rng.unit_vector() * rng.range(6.0, 14.0))
        .collect();
    vec![
        Shape::POINT,
        Shape::new_box(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 32.0),
        )
        .unwrap(),
        Shape::new_box(DVec3::new(-3.0, -7.0, -1.0), DVec3::new(5.0, 2.0, 9.0)).unwrap(),
        Shape::new_sphere(12.0).unwrap(),
        Shape::new_cylinder(10.0, 20.0).unwrap(),
        Shape::new_hull(&hull_points).unwrap(),
    ]
}

fn overlaps_world(world: &World, shape: &Shape, at: DVec3, margin: f64) -> bool {
    let reach = shape.bounds().translated(at).loosened(margin.abs() + 1e-3);
    world
        .brushes()
        .iter()
        .filter(|b| b.brush.bounds().intersects(&reach))
        .any(|b| overlaps(&b.brush, shape, at, margin))
}

#[test]
fn time_of_impact_matches_binary_search_in_time() {
    let mut checked_hits = 0;
    let mut bisected = 0;
    for (name, brushes) in worlds() {
        let hits_before = checked_hits;
        let world = Arc::new(World::from_brushes(brushes));
        let mut exact = WithContext::new(ExactCollider::new(world.clone()));
        let mut rng = Rng::new(99);
        let region = Aabb::new(DVec3::splat(-110.0), DVec3::splat(110.0));
        for shape in shapes() {
            let prepared = exact.prepare(&shape).unwrap();
            let mut traces = 0;
            while traces < 100 {
                let start = rng.point_in(&region);
                // Start clearly free (not even touching).
                if overlaps_world(&world, &shape, start, GROW) {
                    continue;
                }
                traces += 1;
                let end = start + rng.unit_vector() * rng.range(40.0, 200.0);
                let hit = exact.trace(&prepared, start, end);
                let at = |t: f64| start + (end - start) * t;
                let len = (end - start).length();
                let what = format!("{name} {} from {start} to {end}: {hit:?}", shape.describe());
                assert!(!hit.start_solid(), "{what}");
                let first_clear = (0..=SAMPLES)
                    .map(|i| i as f64 / SAMPLES as f64)
                    .find(|&t| overlaps_world(&world, &shape, at(t), -SHRINK));
                match hit.surface() {
                    None => assert!(
                        first_clear.is_none(),
                        "missed an overlap at t = {first_clear:?}: {what}"
                    ),
                    Some(surface) => {
                        checked_hits += 1;
                        let toi = surface.time_of_impact;
                        // Touching at the time of impact...
                        assert!(
                            overlaps_world(&world, &shape, at(toi), GROW),
                            "not touching at the time of impact: {what}"
                        );
                        // ...and never overlapping before it.
                        if let Some(t) = first_clear {
                            assert!(
                                t * len >= toi * len - GROW,
                                "overlap at t = {t} before the time of impact: {what}"
                            );
                            // Blow's binary search in time between the last free sample and the
                            // first overlapping one.
                            let (mut lo, mut hi) = ((t - 1.0 / SAMPLES as f64).max(0.0), t);
                            if lo <= toi {
                                for _ in 0..60 {
                                    let mid = 0.5 * (lo + hi);
                                    if overlaps_world(&world, &shape, at(mid), 1e-9) {
                                        hi = mid;
                                    } else {
                                        lo = mid;
                                    }
                                }
                                bisected += 1;
                                // Compared as depth along the hit normal, the natural measure of
                                // a contact (at grazing angles a tiny depth is a long way).
                                let rate = surface.plane.signed_distance(start)
                                    - surface.plane.signed_distance(end);
                                assert!(
                                    (hi - toi).abs() * rate < GROW,
                                    "binary search found {hi}, exact says {toi}: {what}"
                                );
                            }
                        }
                        // The skin rule.
                        assert!(
                            (surface.plane.signed_distance(hit.end()) - prepared.skin()).abs()
                                < 1e-9
                                || hit.fraction() == 0.0,
                            "{what}"
                        );
                        assert!(
                            !overlaps_world(&world, &shape, hit.end(), -SHRINK),
                            "end in solid: {what}"
                        );
                        assert!(
                            !exact.is_solid(&prepared, hit.end()),
                            "end in solid: {what}"
                        );
                    }
                }
            }
        }
        let hits = checked_hits - hits_before;
        eprintln!("{name}: {hits} hits");
        assert!(hits > 150, "{name}: too few hits to mean anything: {hits}");
    }
    eprintln!("time of impact checked on {checked_hits} hits, {bisected} of them by binary search");
    assert!(
        checked_hits > 400,
        "too few hits to mean anything: {checked_hits}"
    );
    assert!(bisected > 300, "too few bisections: {bisected}");
}

/// After a hit the end is the skin away from the hit plane (the Quake III rule of DESIGN.md) and
/// never in solid. Measured, not asserted away: how often the end comes closer than the skin to
/// some *other* brush. That happens when the move grazes a second brush at a shallow angle just
/// behind the first (the pull-back is along the first plane only, as in Quake III); the share is
/// bounded here and reported in the closing note of the foundation issue.
#[test]
fn after_a_hit_the_end_keeps_the_skin_from_the_hit_plane_and_stays_out_of_solid() {
    use cspace_geom::expand::box_expanded_planes;
    use cspace_geom::generate::{RandomBoxes, free_segments};
    use cspace_geom::shape::BoxShape;

    let world = Arc::new(RandomBoxes::BENCHMARK.world());
    let b = BoxShape {
        mins: DVec3::new(-16.0, -16.0, -24.0),
        maxs: DVec3::new(16.0, 16.0, 32.0),
    };
    let shape = Shape::Box(b);
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let prepared = exact.prepare(&shape).unwrap();
    let skin = prepared.skin();
    let (mut hits, mut closer) = (0usize, 0usize);
    for (a, e) in free_segments(&world, &shape, &world.bounds(), 6000, (10.0, 200.0), 3) {
        let hit = exact.trace(&prepared, a, e);
        let Some(surface) = hit.surface() else {
            continue;
        };
        hits += 1;
        assert!(
            (surface.plane.signed_distance(hit.end()) - skin).abs() < 1e-9 || hit.fraction() == 0.0
        );
        let near = shape.bounds().translated(hit.end()).loosened(skin + 1e-3);
        let mut nearest = f64::INFINITY;
        world.for_each_overlapping(&near, |id| {
            let planes = box_expanded_planes(&world.brush(id).brush, &b);
            let d = planes
                .iter()
                .map(|p| p.signed_distance(hit.end()))
                .fold(f64::NEG_INFINITY, f64::max);
            nearest = nearest.min(d);
        });
        assert!(nearest > 0.0, "end in solid: {a} -> {e}: {hit:?}");
        closer += (nearest < skin - 1e-9) as usize;
    }
    eprintln!("{hits} hits; {closer} ends closer than the skin to another brush");
    assert!(hits > 2000);
    assert!((closer as f64) < 0.005 * hits as f64, "{closer} of {hits}");
}
