//! The broadphase returns exactly the pairs that brute force over all pairs finds, in sorted
//! order whatever the input order, and every pair of agents that truly touch during the step.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{DVec3, Shape};
use cspace_udop::broadphase::SweptBounds;
use cspace_udop::{Broadphase, BroadphaseError, Directions, SweptAgent};

fn crowd(rng: &mut Rng, n: usize, shapes: &[Shape]) -> Vec<(u64, usize, DVec3, DVec3)> {
    (0..n)
        .map(|i| {
            let start = DVec3::new(
                rng.range(0.0, 600.0),
                rng.range(0.0, 600.0),
                rng.range(0.0, 120.0),
            );
            let end = start + rng.unit_vector() * rng.range(0.0, 40.0);
            // Ids are sparse and not in input order.
            (
                (i as u64 * 7919) % 100_003 + 1,
                rng.below(shapes.len()),
                start,
                end,
            )
        })
        .collect()
}

fn shapes() -> [Shape; 3] {
    cspace_geom::generate::agent_shapes()
}

#[test]
fn sweep_and_prune_finds_every_pair_brute_force_finds() {
    let shapes = shapes();
    let mut rng = Rng::new(51);
    let sets = [
        Directions::<DVec3>::standard(6).unwrap(),
        Directions::<DVec3>::standard(26).unwrap(),
        Directions::<DVec3>::evenly_spread(20).unwrap(),
    ];
    let mut total = 0;
    for directions in sets {
        let directions = Arc::new(directions);
        let mut broadphase = Broadphase::new(directions.clone()).with_margin(1.0 / 32.0);
        for round in 0..20 {
            let raw = crowd(&mut rng, 150 + 20 * round, &shapes);
            let agents: Vec<SweptAgent<'_>> = raw
                .iter()
                .map(|&(id, s, start, end)| SweptAgent {
                    id,
                    shape: &shapes[s],
                    start,
                    end,
                })
                .collect();
            let pairs = broadphase.pairs(&agents).unwrap();
            let bounds: Vec<SweptBounds> = agents
                .iter()
                .map(|a| SweptBounds::new(&directions, a, 1.0 / 32.0))
                .collect();
            let mut brute = Vec::new();
            for i in 0..agents.len() {
                for j in i + 1..agents.len() {
                    if bounds[i].overlaps(&bounds[j]) {
                        let (a, b) = (agents[i].id, agents[j].id);
                        brute.push((a.min(b), a.max(b)));
                    }
                }
            }
            brute.sort_unstable();
            assert_eq!(pairs, brute, "{}", directions.name());
            total += pairs.len();

            // True contacts (sampled in time) are all among the pairs: two spheres closer than
            // their radii, or two boxes whose boxes overlap, at the same instant.
            for i in 0..agents.len() {
                for j in i + 1..agents.len() {
                    let (a, b) = (&agents[i], &agents[j]);
                    let touch = (0..=32).any(|s| {
                        let t = s as f64 / 32.0;
                        let pa = a.start + (a.end - a.start) * t;
                        let pb = b.start + (b.end - b.start) * t;
                        match (a.shape, b.shape) {
                            (Shape::Sphere { radius: ra }, Shape::Sphere { radius: rb }) => {
                                pa.distance(pb) <= ra + rb
                            }
                            (Shape::Box(_), Shape::Box(_)) => a
                                .shape
                                .bounds()
                                .translated(pa)
                                .intersects(&b.shape.bounds().translated(pb)),
                            _ => false,
                        }
                    });
                    if touch {
                        let key = (a.id.min(b.id), a.id.max(b.id));
                        assert!(
                            pairs.binary_search(&key).is_ok(),
                            "missed touching pair {key:?}"
                        );
                    }
                }
            }

            // The same crowd in another order gives the same pairs.
            let mut shuffled = agents.clone();
            shuffled.reverse();
            shuffled.rotate_left(agents.len() / 3);
            assert_eq!(broadphase.pairs(&shuffled).unwrap(), pairs);
        }
    }
    assert!(total > 1000, "crowds too sparse: {total} pairs");
}

#[test]
fn bad_crowds_are_refused() {
    let shapes = shapes();
    let mut broadphase = Broadphase::new(Arc::new(Directions::<DVec3>::standard(14).unwrap()));
    let a = SweptAgent {
        id: 3,
        shape: &shapes[0],
        start: DVec3::ZERO,
        end: DVec3::X,
    };
    assert_eq!(
        broadphase.pairs(&[a, a]),
        Err(BroadphaseError::DuplicateId(3))
    );
    let b = SweptAgent {
        id: 4,
        end: DVec3::NAN,
        ..a
    };
    assert_eq!(
        broadphase.pairs(&[a, b]),
        Err(BroadphaseError::NonFinite(4))
    );
    assert_eq!(broadphase.pairs(&[]), Ok(Vec::new()));
}
