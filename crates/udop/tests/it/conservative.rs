//! k-UDOPs built from generated worlds never hold solid: random points inside many k-UDOPs are
//! checked against the exact backend's point query with `Shape::POINT`, and every k-UDOP stays in
//! the box the builder asked the spatial index about (the cap's proof, checked).

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Collider, DVec3, ExactCollider, Shape, WithContext, World};
use cspace_udop::{BuildOrder, Directions, Udop, UdopBuilder};

use crate::common;

/// The builders every world is checked with: the standard sets, an evenly spread set without
/// axes (whose query box is larger than its cube), and both build orders.
pub fn builders() -> Vec<UdopBuilder> {
    let set = |k| Arc::new(Directions::<DVec3>::standard(k).unwrap());
    vec![
        UdopBuilder::new(set(26), 128.0).unwrap(),
        UdopBuilder::new(set(14), 64.0)
            .unwrap()
            .with_order(BuildOrder::Id),
        UdopBuilder::new(set(18), 256.0).unwrap(),
        UdopBuilder::new(set(6), 96.0).unwrap(),
        UdopBuilder::new(
            Arc::new(Directions::<DVec3>::evenly_spread(30).unwrap()),
            96.0,
        )
        .unwrap(),
        UdopBuilder::new(
            Arc::new(Directions::<DVec3>::evenly_spread(7).unwrap()),
            48.0,
        )
        .unwrap(),
    ]
}

/// A random point of the open region (`None` when none was found).
pub fn sample(rng: &mut Rng, udop: &Udop<DVec3>, bounds: &cspace_geom::Aabb) -> Option<DVec3> {
    if udop.contains_centre() {
        // Along a random ray from the centre, anywhere up to where it leaves; a quarter of the
        // samples hug the boundary.
        let u = rng.unit_vector();
        let (_, t2) = udop.ray_interval(udop.centre(), u)?;
        let t = if rng.below(4) == 0 {
            t2 * (1.0 - 1e-12)
        } else {
            t2 * rng.next_f64()
        };
        return Some(udop.centre() + u * t);
    }
    (0..200)
        .map(|_| rng.point_in(bounds))
        .find(|p| udop.contains_point(*p))
}

/// Checks `centres` k-UDOPs per builder in `world`, `points` samples each; returns how many
/// points were checked and how many centres were degenerate.
pub fn check_world(
    name: &str,
    world: &Arc<World>,
    centres: usize,
    points: usize,
    seed: u64,
) -> (usize, usize) {
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let point = exact.prepare(&Shape::POINT).unwrap();
    let mut rng = Rng::new(seed);
    let region = world.bounds().loosened(64.0);
    let (mut checked, mut degenerate) = (0, 0);
    for mut builder in builders() {
        for _ in 0..centres {
            let centre = rng.point_in(&region);
            let udop = builder.build(world, centre);
            let query = builder.query_box(centre);
            if !udop.contains_centre() {
                degenerate += 1;
            }
            for _ in 0..points {
                let Some(p) = sample(&mut rng, &udop, &query) else {
                    break;
                };
                assert!(
                    query.contains_point(p),
                    "{name} / {}: k-UDOP at {centre} reaches {p}, outside its query box",
                    builder.directions().name()
                );
                assert!(
                    !exact.is_solid(&point, p),
                    "{name} / {}: k-UDOP at {centre} holds {p}, which is in solid",
                    builder.directions().name()
                );
                checked += 1;
            }
            // The polyhedron of Section 4.1 lies in the query box too (vertices included).
            if let Ok(brush) = udop.polyhedron() {
                for v in brush.vertices() {
                    assert!(
                        query.loosened(1e-6).contains_point(*v),
                        "{name}: vertex {v} outside"
                    );
                }
            }
        }
    }
    (checked, degenerate)
}

#[test]
fn no_udop_holds_solid_in_random_boxes() {
    let named = common::random_boxes();
    let (checked, _) = check_world(named.name, &named.world, 120, 40, 41);
    assert!(checked > 20_000, "{checked}");
}

#[test]
fn no_udop_holds_solid_among_convex_brushes() {
    let named = common::convex_brushes();
    let (checked, _) = check_world(named.name, &named.world, 120, 40, 42);
    assert!(checked > 20_000, "{checked}");
}

#[test]
fn no_udop_holds_solid_between_floors_and_walls() {
    let named = common::floors_and_walls();
    let (checked, degenerate) = check_world(named.name, &named.world, 120, 40, 43);
    assert!(checked > 20_000, "{checked}");
    // Some centres fell inside walls and floors: degenerate, still checked.
    assert!(degenerate > 0);
}

#[test]
fn centres_inside_or_on_a_brush_give_degenerate_udops() {
    let named = common::floors_and_walls();
    let mut builder =
        UdopBuilder::new(Arc::new(Directions::<DVec3>::standard(26).unwrap()), 128.0).unwrap();
    // Inside the ground slab, and exactly on its top face.
    for centre in [DVec3::new(10.0, 10.0, -8.0), DVec3::new(10.0, 10.0, 0.0)] {
        let udop = builder.build(&named.world, centre);
        assert!(!udop.contains_centre(), "{centre}");
        assert!(!udop.contains_point(centre));
    }
    // Just above it, the centre is free and the side along -z sits on the floor.
    let udop = builder.build(&named.world, DVec3::new(10.0, 10.0, 5.0));
    assert!(udop.contains_centre());
    let down = builder
        .directions()
        .vectors()
        .iter()
        .position(|v| *v == DVec3::NEG_Z)
        .unwrap();
    assert!(
        (udop.distances()[down] - 5.0).abs() < 1e-5,
        "{}",
        udop.distances()[down]
    );
}
