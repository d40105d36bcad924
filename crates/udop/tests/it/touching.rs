//! The free-space cache in front of the exact backend against the definition on touching
//! configurations (issue 35's defence): lattice worlds of touching boxes (geom's `touching`),
//! every shape kind, point queries and moves resting on, sliding beside and under faces, lying in
//! the planes of seams, crossing edges and corners (moves inside the k-UDOP of the cell they
//! start or end in are answered without the backend).

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::touching::{
    LatticeWorld, Oracle, Tally, Union, lattice_shapes, touching_segments,
};
use cspace_geom::{Collider, Shape};
use cspace_udop::CacheConfig;

/// Worlds, and queries per world and shape.
const WORLDS: u64 = 12;
const QUERIES: usize = 500;

#[test]
fn the_cache_answers_the_definition_on_touching_configurations() {
    let (mut tally, mut skipped) = (Tally::default(), 0);
    for seed in 0..WORLDS {
        let lattice = LatticeWorld::generate(seed);
        let world = Arc::new(lattice.world());
        for shape in lattice_shapes() {
            let mut cache = crate::common::exact_cache(&world, CacheConfig::default());
            let oracle = Oracle::new(&lattice, &shape, Union::Exact).unwrap();
            let prepared = cache.prepare(&shape).unwrap();
            let rounded = !matches!(shape, Shape::Box(_));
            let mut rng = Rng::new(seed * 31 + 7);
            for (start, end) in touching_segments(&lattice, &mut rng, QUERIES, rounded) {
                let before = cache.counters().cache_skips;
                let hit = cache.trace(&prepared, start, end);
                skipped += cache.counters().cache_skips - before;
                tally.record(oracle.trace(start, end).check(&hit), || {
                    format!("world {seed}, {}: {start} -> {end}", shape.describe())
                });
            }
        }
    }
    tally.assert_none();
    assert_eq!(tally.checked(), WORLDS as usize * 9 * QUERIES);
    // The cache answered some of them itself.
    assert!(skipped > 0, "no move skipped");
}
