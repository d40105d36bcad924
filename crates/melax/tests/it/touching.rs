//! Plane shifting against the definition on touching configurations (issue 35's defence):
//! lattice worlds of touching boxes (geom's `touching`), every shape kind, point queries and
//! moves resting on, sliding beside and under faces, lying in the planes of seams and of the
//! tree's splits, crossing edges and corners. Boxes answer the exact backend's rule
//! (`Union::Exact`); a sphere or a cylinder answers as the box bounding it (plane shifting does
//! not round the axis-aligned cells' edges, Melax Section 3; the error measurement of
//! `docs/melax.md` is that difference). Both bevel modes: the paper's bevels add nothing to
//! axis-aligned cells.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::touching::{LatticeWorld, Oracle, Union, lattice_shapes, touching_segments};
use cspace_geom::{Collider, Shape, WithContext};
use cspace_melax::{BevelMode, MelaxCollider, compile};

/// Worlds, and queries per world, shape and bevel mode.
const WORLDS: u64 = 12;
const QUERIES: usize = 500;

#[test]
fn plane_shifting_answers_the_definition_on_touching_configurations() {
    let (mut checked, mut failures) = (0, Vec::new());
    for seed in 0..WORLDS {
        let lattice = LatticeWorld::generate(seed);
        let world = Arc::new(lattice.world());
        for bevel in [BevelMode::Exact, BevelMode::PAPER] {
            let tree = Arc::new(compile(&world, bevel).unwrap());
            let mut melax = WithContext::new(MelaxCollider::new(world.clone(), tree).unwrap());
            for shape in lattice_shapes() {
                let oracle = match shape {
                    Shape::Box(_) => Oracle::new(&lattice, &shape, Union::Exact).unwrap(),
                    _ => Oracle::bounding_box(&lattice, &shape),
                };
                let prepared = melax.prepare(&shape).unwrap();
                let mut rng = Rng::new(seed * 31 + 7);
                for (start, end) in touching_segments(&lattice, &mut rng, QUERIES, false) {
                    let hit = melax.trace(&prepared, start, end);
                    checked += 1;
                    if let Err(why) = oracle.trace(start, end).check(&hit) {
                        failures.push(format!(
                            "world {seed}, {bevel:?}, {}: {start} -> {end}: {why}",
                            shape.describe()
                        ));
                    }
                }
            }
        }
    }
    let shown: Vec<&String> = failures.iter().take(20).collect();
    assert!(
        failures.is_empty(),
        "{} of {checked} disagree:\n{shown:#?}",
        failures.len()
    );
    assert_eq!(checked, WORLDS as usize * 2 * 9 * QUERIES);
}

/// On every corpus map, rays along the axes on a grid (geom's `grid_rays`: most lie in faces
/// and in the planes the tree splits by), for a point and a flat box: the exact bevels answer as
/// the exact backend (start, all solid, time of impact), and the paper's for the point. E1M1's vertical point rays every 16
/// units differed on 3,473 of 29,480 for melax-exact before issue 35.
#[test]
fn grid_rays_on_the_corpus_agree_with_the_exact_backend() {
    let Some(maps) = crate::common::corpus("grid_rays_on_the_corpus_agree_with_the_exact_backend")
    else {
        return;
    };
    let flat = Shape::new_box(
        cspace_geom::DVec3::new(0.0, -8.0, -8.0),
        cspace_geom::DVec3::new(0.0, 8.0, 8.0),
    )
    .unwrap();
    let (mut checked, mut failures) = (0, Vec::new());
    for map in &maps {
        let rays = cspace_geom::touching::grid_rays(&map.world.bounds(), 12_000);
        let mut exact = WithContext::new(cspace_geom::ExactCollider::new(map.world.clone()));
        for bevel in [BevelMode::Exact, BevelMode::PAPER] {
            let tree = Arc::new(compile(&map.world, bevel).unwrap());
            let mut melax = WithContext::new(MelaxCollider::new(map.world.clone(), tree).unwrap());
            // The paper's bevels are approximate for boxes near edges (docs/melax.md), for a point
            // the same as the exact ones.
            let shapes = match bevel {
                BevelMode::Exact => vec![Shape::POINT, flat.clone()],
                _ => vec![Shape::POINT],
            };
            for shape in shapes {
                let (pm, pe) = (
                    melax.prepare(&shape).unwrap(),
                    exact.prepare(&shape).unwrap(),
                );
                for &(a, b) in &rays {
                    let (hm, he) = (melax.trace(&pm, a, b), exact.trace(&pe, a, b));
                    checked += 1;
                    let toi = |h: &cspace_geom::Hit| h.surface().map(|s| s.time_of_impact);
                    let same_time = match (toi(&hm), toi(&he)) {
                        (Some(x), Some(y)) => (x - y).abs() <= 1e-9,
                        (x, y) => x == y,
                    };
                    if !same_time
                        || hm.start_solid() != he.start_solid()
                        || hm.all_solid() != he.all_solid()
                    {
                        failures.push(format!(
                            "{} {bevel:?} {}: {a} -> {b}: melax {hm:?}, exact {he:?}",
                            map.name,
                            shape.describe()
                        ));
                    }
                }
            }
        }
    }
    eprintln!("{checked} grid rays checked on {} maps", maps.len());
    let shown: Vec<&String> = failures.iter().take(10).collect();
    assert!(
        failures.is_empty(),
        "{} of {checked} differ:\n{shown:#?}",
        failures.len()
    );
}
