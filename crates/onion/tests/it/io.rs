//! Save/load round trips give bit-identical query results.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Collider, DVec3};
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
    let mut a = OnionCollider::new(tree, world.clone());
    let mut b = OnionCollider::new(loaded, world.clone());
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
                x.end.to_array().map(f64::to_bits),
                y.end.to_array().map(f64::to_bits)
            );
            assert_eq!(a.is_solid(&pa, s), b.is_solid(&pb, s));
        }
    }
    let _ = DVec3::ZERO;
}
