//! The onion against the definition on touching configurations (issue 35's defence): lattice
//! worlds of touching boxes (geom's `touching`), every box pose (a point, boxes without width
//! along one or two axes, full boxes), point queries and moves resting on, sliding beside and
//! under faces, lying in the planes of seams and of the tree's splits, crossing edges and
//! corners. The onion answers the union of the configuration spaces, each closed
//! (`Union::Closed`: its CSG union closes the gaps a box fits exactly, ARCHITECTURE.md
//! "Zero-clearance gaps"); everywhere else that is the exact backend's rule.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::touching::{LatticeWorld, Oracle, Union, lattice_shapes, touching_segments};
use cspace_geom::{Collider, Shape, WithContext};
use cspace_onion::{CompileOptions, OnionCollider, Pose, compile};

/// Worlds, and queries per world and pose.
const WORLDS: u64 = 12;
const QUERIES: usize = 600;

#[test]
fn the_onion_answers_the_closed_union_on_touching_configurations() {
    let (mut checked, mut failures) = (0, Vec::new());
    let boxes: Vec<Shape> = lattice_shapes()
        .into_iter()
        .filter(|s| matches!(s, Shape::Box(_)))
        .collect();
    let poses: Vec<Pose> = boxes
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let b = s.bounds();
            Pose::new(format!("p{i}"), b.min, b.max)
        })
        .collect();
    for seed in 0..WORLDS {
        let lattice = LatticeWorld::generate(seed);
        let world = Arc::new(lattice.world());
        let compiled = compile(&world, &poses, &CompileOptions::default()).unwrap();
        let mut onion = WithContext::new(OnionCollider::from_compiled(world, compiled).unwrap());
        for shape in &boxes {
            let oracle = Oracle::new(&lattice, shape, Union::Closed).unwrap();
            let prepared = onion.prepare(shape).unwrap();
            let mut rng = Rng::new(seed * 31 + 7);
            for (start, end) in touching_segments(&lattice, &mut rng, QUERIES, false) {
                let hit = onion.trace(&prepared, start, end);
                checked += 1;
                if let Err(why) = oracle.trace(start, end).check(&hit) {
                    failures.push(format!(
                        "world {seed}, {}: {start} -> {end}: {why}",
                        shape.describe()
                    ));
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
    assert_eq!(checked, WORLDS as usize * boxes.len() * QUERIES);
}
