//! Save/load round trips give bit-identical query results.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Collider, DVec3, WithContext};
use cspace_onion::{CompileOptions, OnionCollider, OnionTree, compile};

use crate::common::{quake_poses, random_boxes, shape};

#[test]
fn a_loaded_tree_answers_bit_for_bit_as_the_saved_one() {
    let world = Arc::new(random_boxes(120, 11));
    let poses = quake_poses();
    let tree = compile(&world, &poses, &CompileOptions::default())
        .unwrap()
        .tree;
    let bytes = tree.to_bytes();
    let loaded = OnionTree::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, tree);
    assert_eq!(loaded.to_bytes(), bytes);
    let mut a = WithContext::new(
        OnionCollider::new(world.clone(), tree).expect("the tree was compiled from this world"),
    );
    let mut b = WithContext::new(
        OnionCollider::new(world.clone(), loaded).expect("the tree was compiled from this world"),
    );
    let mut rng = Rng::new(12);
    let region = world.bounds();
    for pose in &poses {
        let (pa, pb) = (
            a.prepare(&shape(pose)).unwrap(),
            b.prepare(&shape(pose)).unwrap(),
        );
        for _ in 0..2000 {
            let s = rng.point_in(&region);
            let e = s + rng.unit_vector() * rng.range(1.0, 100.0);
            let (x, y) = (a.trace(&pa, s, e), b.trace(&pb, s, e));
            assert_eq!(format!("{x:?}"), format!("{y:?}"));
            assert_eq!(
                x.end().to_array().map(f64::to_bits),
                y.end().to_array().map(f64::to_bits)
            );
            assert_eq!(a.is_solid(&pa, s), b.is_solid(&pb, s));
        }
    }
    let _ = DVec3::ZERO;
}

#[test]
fn a_tree_is_refused_for_any_world_but_its_own_even_after_a_round_trip() {
    let world = Arc::new(random_boxes(40, 3));
    let other = Arc::new(random_boxes(40, 4));
    let tree = compile(&world, &quake_poses(), &CompileOptions::default())
        .unwrap()
        .tree;
    assert_eq!(tree.world_fingerprint(), world.fingerprint());
    assert_ne!(world.fingerprint(), other.fingerprint());
    let loaded = OnionTree::from_bytes(&tree.to_bytes()).unwrap();
    assert_eq!(loaded.world_fingerprint(), world.fingerprint());
    let refused = OnionCollider::new(other.clone(), loaded.clone()).unwrap_err();
    assert_eq!(refused.tree, world.fingerprint());
    assert_eq!(refused.world, other.fingerprint());
    assert!(refused.to_string().contains("compiled from another world"));
    assert!(OnionCollider::new(world, loaded).is_ok());
}

/// The compile expands and unions on rayon's threads: the tree (its saved bytes) is the same on
/// one thread as on four, for a world of brushes and one with patch facets.
#[test]
fn the_tree_does_not_depend_on_the_thread_count() {
    use cspace_geom::generate::{RandomBoxes, RandomPatches};
    use cspace_geom::patch::TessellationOptions;
    let worlds = [
        RandomBoxes::BENCHMARK.scaled(300).world(),
        RandomPatches::TEST.world(&TessellationOptions::new(8.0).unwrap()),
    ];
    let poses = [
        cspace_onion::Pose::quake_standing(),
        cspace_onion::Pose::quake_crouching(),
    ];
    for world in &worlds {
        let bytes = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                cspace_onion::compile(world, &poses, &cspace_onion::CompileOptions::default())
                    .unwrap()
                    .tree
                    .to_bytes()
            })
        };
        assert!(
            bytes(1) == bytes(4),
            "one thread and four give different trees"
        );
    }
}
