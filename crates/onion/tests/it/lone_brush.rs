//! Lone brushes compiled as worlds of their own (a mover's model, issue 32).

use cspace_mapfile::{BuildOptions, load_world};
use cspace_onion::{CompileOptions, compile};

use crate::common::quake_poses;

/// E1M1's entity 221 (a `func_door`, angle -2): one six-sided slanted prism.
const E1M1_DOOR_221: &str = r#"{
"classname" "worldspawn"
{
( 488 2008 -112 ) ( 760 2008 -112 ) ( 760 1984 -112 ) SFLOOR4_2 0 0 0 1.000000 1.000000
( 504 2008 -176 ) ( 488 2000 -112 ) ( 488 2008 -176 ) TLIGHT11 0 16 0 1.000000 1.000000
( 504 1992 -112 ) ( 488 1984 -176 ) ( 488 1992 -112 ) TLIGHT11 0 16 0 1.000000 1.000000
( 736 1872 -176 ) ( 744 1856 -112 ) ( 736 1856 -176 ) TLIGHT11 0 16 0 1.000000 1.000000
( 752 1872 -112 ) ( 760 1856 -176 ) ( 752 1856 -112 ) TLIGHT11 0 16 0 1.000000 1.000000
( 728 1992 -136 ) ( 712 2000 -136 ) ( 712 1992 -136 ) TLIGHT11 0 16 0 1.000000 1.000000
}
}
"#;

/// A lone brush far from the origin for its size compiles to a tree that passes the compiler's
/// own check, pose by pose: the squares the cells are cut from used to be sized by the box alone
/// and missed a box 2,000 units out, so every leaf's cell came out empty and its interior point
/// was sought far beyond the world, where a slanted plane put it on the wrong side of a node.
#[test]
fn a_lone_brush_far_from_the_origin_compiles_to_a_sound_tree() {
    let world = load_world(
        E1M1_DOOR_221.as_bytes(),
        "door221.map",
        &BuildOptions::default(),
    )
    .unwrap()
    .world;
    assert_eq!(world.len(), 1);
    for pose in quake_poses() {
        let compiled = compile(
            &world,
            std::slice::from_ref(&pose),
            &CompileOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", pose.name));
        assert!(
            compiled.leaf_points.iter().any(Option::is_some),
            "{}",
            pose.name
        );
    }
}
