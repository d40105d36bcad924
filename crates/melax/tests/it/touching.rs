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
