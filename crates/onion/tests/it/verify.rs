//! `OnionTree::verify`: compiled trees verify against their worlds; edited trees do not.

use std::sync::Arc;

use cspace_geom::{DVec3, World};
use cspace_onion::{CompileOptions, OnionTree, Pose, VerifyError, VerifyOptions, compile};

use crate::common::{
    Layout, axial, convex_brushes, put, quake_poses, random_boxes, resealed, touching_floors,
};

fn verified(name: &str, world: World, poses: &[Pose]) -> OnionTree {
    let world = Arc::new(world);
    let tree = compile(&world, poses, &CompileOptions::default())
        .unwrap()
        .tree;
    let report = tree
        .verify(&world, &VerifyOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    println!("{name}: {report:?}");
    assert_eq!(report.leaves, tree.leaf_count(), "{name}");
    tree
}

#[test]
fn compiled_trees_verify_against_their_worlds() {
    let mut poses = quake_poses();
    verified("touching floors", touching_floors(), &poses);
    verified("random boxes 30", random_boxes(30, 4), &poses);
    verified("random boxes 200", random_boxes(200, 7), &poses);
    poses.push(Pose::point());
    verified("convex brushes", convex_brushes(40, 3), &poses);
}

/// Two boxes 1e-7 apart: the leaf between them is too thin for the exact query and is matched
/// against the compiler's classification; flipping any leaf's bit in any space is refused.
#[test]
fn thin_leaves_are_checked_too() {
    let world = Arc::new(World::from_brushes([
        axial([0.0; 3], [64.0; 3]),
        axial([64.0 + 1e-7, 0.0, 0.0], [128.0, 64.0, 64.0]),
    ]));
    let poses = [Pose::point(), Pose::quake_standing()];
    let tree = compile(&world, &poses, &CompileOptions::default())
        .unwrap()
        .tree;
    let report = tree.verify(&world, &VerifyOptions::default()).unwrap();
    assert!(report.thin_leaves > 0, "{report:?}");
    let at = Layout::of(&tree);
    for leaf in 0..tree.leaf_count() {
        for space in 0..poses.len() {
            let mut b = tree.to_bytes();
            let mask = tree.leaf_mask(leaf as u32) ^ 1 << space;
            put(&mut b, at.leaf(leaf), &mask.to_le_bytes());
            if let Ok(edited) = OnionTree::from_bytes(&resealed(b)) {
                assert!(
                    edited.verify(&world, &VerifyOptions::default()).is_err(),
                    "leaf {leaf} flipped in space {space}"
                );
            }
        }
    }
}

#[test]
fn a_sample_of_leaves_is_checked_as_asked() {
    let world = Arc::new(random_boxes(30, 4));
    let tree = compile(&world, &quake_poses(), &CompileOptions::default())
        .unwrap()
        .tree;
    let options = VerifyOptions {
        leaves: Some(100),
        seed: 3,
        points_per_leaf: 2,
    };
    let report = tree.verify(&world, &options).unwrap();
    assert_eq!((report.leaves, report.leaf_count), (100, tree.leaf_count()));
    assert_eq!(report.points, 200);
    assert_eq!(report.queries, 600);
    assert!(report.seconds > 0.0);
}

/// A closed room with a spawn point inside, compiled with the outside filled.
#[test]
fn filled_trees_verify_and_the_fill_is_not_proven() {
    let world = Arc::new(World::from_brushes([
        axial([-256.0, -256.0, -16.0], [256.0, 256.0, 0.0]),
        axial([-256.0, -256.0, 128.0], [256.0, 256.0, 144.0]),
        axial([-272.0, -256.0, -16.0], [-256.0, 256.0, 144.0]),
        axial([256.0, -256.0, -16.0], [272.0, 256.0, 144.0]),
        axial([-272.0, -272.0, -16.0], [272.0, -256.0, 144.0]),
        axial([-272.0, 256.0, -16.0], [272.0, 272.0, 144.0]),
        axial([0.0, 0.0, 0.0], [64.0, 64.0, 64.0]),
    ]));
    let options = CompileOptions {
        fill_outside: true,
        spawn_points: vec![DVec3::new(-128.0, -128.0, 40.0)],
        ..CompileOptions::default()
    };
    let tree = compile(&world, &quake_poses(), &options).unwrap().tree;
    let report = tree.verify(&world, &VerifyOptions::default()).unwrap();
    assert_eq!(report.filled_spaces, 0b111, "{report:?}");
    assert!(report.filled_points > 0, "{report:?}");
    // The documented limit: an empty leaf inside the room made solid in every space is taken
    // for filled outside.
    let inside = tree.find_leaf(DVec3::new(-128.0, -128.0, 40.0));
    assert_eq!(tree.leaf_mask(inside), 0);
    let at = Layout::of(&tree);
    let mut b = tree.to_bytes();
    put(&mut b, at.leaf(inside as usize), &0b111u64.to_le_bytes());
    let edited = OnionTree::from_bytes(&resealed(b)).unwrap();
    let report = edited.verify(&world, &VerifyOptions::default()).unwrap();
    assert_eq!(report.filled_spaces, 0b111, "{report:?}");
}

/// A one-box world for the point pose, its tree and its planes by normal and distance.
fn one_box() -> (Arc<World>, OnionTree, impl Fn(DVec3, f64) -> u32) {
    let world = Arc::new(World::from_brushes([axial([0.0; 3], [64.0; 3])]));
    let tree = compile(&world, &[Pose::point()], &CompileOptions::default())
        .unwrap()
        .tree;
    let planes = tree.planes().to_vec();
    let index = move |n: DVec3, d: f64| {
        planes
            .iter()
            .position(|p| p.normal() == n && p.dist() == d)
            .expect("a face plane of the box") as u32
    };
    (world, tree, index)
}

/// `tree`'s bytes with other nodes (`[plane, front, back]`, leaves tagged) and leaves.
fn rebuilt(tree: &OnionTree, nodes: &[[u32; 3]], leaves: &[u64]) -> Vec<u8> {
    let at = Layout::of(tree);
    let mut b = tree.to_bytes()[..at.nodes].to_vec();
    put(&mut b, 8 + 4 + 8 + 8, &(nodes.len() as u32).to_le_bytes());
    put(&mut b, 8 + 4 + 8 + 12, &(leaves.len() as u32).to_le_bytes());
    for v in nodes.iter().flatten() {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for m in leaves {
        b.extend_from_slice(&m.to_le_bytes());
    }
    b.extend_from_slice(&[0; 8]);
    resealed(b)
}

const LEAF: u32 = 1 << 31;

#[test]
fn every_disagreement_is_named() {
    let world = Arc::new(random_boxes(30, 4));
    let tree = compile(&world, &quake_poses(), &CompileOptions::default())
        .unwrap()
        .tree;
    let options = VerifyOptions::default();
    let at = Layout::of(&tree);
    let bytes = tree.to_bytes();
    let verify = |b: Vec<u8>| {
        OnionTree::from_bytes(&resealed(b))
            .expect("a valid tree")
            .verify(&world, &options)
            .expect_err("a wrong tree")
    };

    // Another world.
    let other = Arc::new(random_boxes(30, 5));
    let e = tree.verify(&other, &options).unwrap_err();
    assert!(matches!(e, VerifyError::World(_)), "{e}");

    // A plane moved.
    let mut b = bytes.clone();
    let plane = u32::from_le_bytes(bytes[at.node(5)..at.node(5) + 4].try_into().unwrap());
    let d = tree.planes()[plane as usize].dist() + 0.125;
    put(&mut b, at.plane(plane as usize) + 24, &d.to_le_bytes());
    let e = verify(b);
    assert!(
        matches!(e, VerifyError::Plane { plane: p, node: Some(_), .. } if p == plane),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("is no plane of any configuration space"),
        "{e}"
    );

    // A solid leaf made empty in every space, and an empty one made solid.
    let solid = (0..tree.leaf_count() as u32)
        .find(|&l| tree.leaf_mask(l) == 0b111)
        .unwrap();
    let mut b = bytes.clone();
    put(&mut b, at.leaf(solid as usize), &0u64.to_le_bytes());
    let e = verify(b);
    assert!(
        matches!(e, VerifyError::Solidity { leaf, tree_solid: false, world_solid: true, .. } if leaf == solid),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("the tree says empty, the world says solid"),
        "{e}"
    );
    let found = (0..tree.leaf_count() as u32)
        .filter(|&l| tree.leaf_mask(l) == 0)
        .find_map(|l| {
            let mut b = bytes.clone();
            put(&mut b, at.leaf(l as usize), &0b111u64.to_le_bytes());
            match verify(b) {
                e @ VerifyError::Solidity {
                    tree_solid: true,
                    world_solid: false,
                    ..
                } => Some(e),
                VerifyError::Outside { .. } => None,
                e => panic!("{e}"),
            }
        })
        .expect("an inner empty leaf");
    assert!(
        found
            .to_string()
            .contains("the tree says solid, the world says empty")
    );

    // An outer leaf made solid in every space: the outside is neither empty nor filled.
    let outer = tree.find_leaf(world.bounds().max + DVec3::splat(60.0));
    let mut b = bytes.clone();
    put(&mut b, at.leaf(outer as usize), &0b111u64.to_le_bytes());
    let e = verify(b);
    assert!(matches!(e, VerifyError::Outside { .. }), "{e}");
    assert!(e.to_string().contains("is solid and outer leaf"), "{e}");

    // A pose the world cannot be expanded by.
    let limit = cspace_geom::tolerance::WORLD_HALF_EXTENT;
    let edge = Arc::new(World::from_brushes([axial(
        [limit - 8.0, 0.0, 0.0],
        [limit, 8.0, 8.0],
    )]));
    let small = compile(&edge, &[Pose::point()], &CompileOptions::default())
        .unwrap()
        .tree;
    let mut b = small.to_bytes();
    let mins = Layout::of(&small).poses + 4 + "point".len();
    put(&mut b, mins, &(-64.0f64).to_le_bytes());
    let e = OnionTree::from_bytes(&resealed(b))
        .unwrap()
        .verify(&edge, &options)
        .unwrap_err();
    assert!(matches!(e, VerifyError::Expansion(_)), "{e}");

    // A face crossing a leaf: the box's tree cut by its +x face alone.
    let (one, tree, plane) = one_box();
    let px = plane(DVec3::X, 64.0);
    let e = OnionTree::from_bytes(&rebuilt(&tree, &[[px, LEAF, LEAF | 1]], &[0, 0]))
        .unwrap()
        .verify(&one, &options)
        .unwrap_err();
    assert!(
        matches!(
            e,
            VerifyError::Surface {
                leaf: 1,
                space: 0,
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string()
            .starts_with("leaf 1: a face of pose point (space 0) on"),
        "{e}"
    );

    // A leaf without volume left empty: in front of x = 64 and in front of -x = 0.
    let nx = plane(DVec3::NEG_X, 0.0);
    let nodes = [
        [px, 1, 2],
        [nx, LEAF, LEAF | 1],
        [nx, LEAF | 2, 3],
        [plane(DVec3::Y, 64.0), LEAF | 3, 4],
        [plane(DVec3::NEG_Y, 0.0), LEAF | 4, 5],
        [plane(DVec3::Z, 64.0), LEAF | 5, 6],
        [plane(DVec3::NEG_Z, 0.0), LEAF | 6, LEAF | 7],
    ];
    let solid_inside = [1, 0, 0, 0, 0, 0, 0, 1];
    let report = OnionTree::from_bytes(&rebuilt(&tree, &nodes, &solid_inside))
        .unwrap()
        .verify(&one, &options)
        .unwrap();
    assert_eq!(report.zero_volume_leaves, 1, "{report:?}");
    let empty_inside = [0, 0, 0, 0, 0, 0, 0, 1];
    let e = OnionTree::from_bytes(&rebuilt(&tree, &nodes, &empty_inside))
        .unwrap()
        .verify(&one, &options)
        .unwrap_err();
    assert_eq!(
        e,
        VerifyError::NoVolume {
            leaf: 0,
            space: 0,
            pose: "point".into()
        }
    );
}
