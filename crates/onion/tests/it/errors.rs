//! Every error path: compile errors, unsupported shapes, corrupt or truncated saved trees.

use std::sync::Arc;

use cspace_geom::{Collider, DVec3, Shape, WithContext, World};
use cspace_onion::{
    CompileError, CompileOptions, FORMAT_VERSION, LoadError, MAX_PLANE_DISTANCE, NodeRef,
    OnionCollider, OnionTree, Pose, compile,
};

use crate::common::{Layout, axial, put, quake_poses, random_boxes, resealed, shape};

fn small_world() -> World {
    World::from_brushes([
        axial([-256.0, -256.0, -16.0], [256.0, 256.0, 0.0]),
        axial([0.0, 0.0, 0.0], [64.0, 64.0, 64.0]),
    ])
}

#[test]
fn compile_errors_name_the_problem() {
    let w = small_world();
    let o = CompileOptions::default();
    assert_eq!(compile(&w, &[], &o).unwrap_err(), CompileError::NoPoses);
    let many: Vec<Pose> = (0..65)
        .map(|i| Pose::new(format!("p{i}"), DVec3::splat(-1.0), DVec3::splat(i as f64)))
        .collect();
    assert_eq!(
        compile(&w, &many, &o).unwrap_err(),
        CompileError::TooManyPoses { count: 65, max: 64 }
    );
    let inverted = Pose::new("upside", DVec3::splat(1.0), DVec3::splat(-1.0));
    let e = compile(&w, &[inverted], &o).unwrap_err();
    assert!(
        matches!(&e, CompileError::BadPose { pose, .. } if pose == "upside"),
        "{e}"
    );
    let nan = Pose::new("nan", DVec3::new(f64::NAN, 0.0, 0.0), DVec3::ONE);
    assert!(matches!(
        compile(&w, &[nan], &o).unwrap_err(),
        CompileError::BadPose { .. }
    ));
    let twice = [Pose::quake_standing(), Pose::quake_standing()];
    assert_eq!(
        compile(&w, &twice, &o).unwrap_err(),
        CompileError::DuplicatePose {
            pose: "stand".into()
        }
    );
    // A brush at the world's edge expanded beyond the world limit.
    let limit = cspace_geom::tolerance::WORLD_HALF_EXTENT;
    let edge = World::from_brushes([axial([limit - 8.0, 0.0, 0.0], [limit, 8.0, 8.0])]);
    let e = compile(&edge, &[Pose::quake_large()], &o).unwrap_err();
    assert!(
        matches!(
            &e,
            CompileError::Expansion {
                brush: 0,
                space: 0,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("large"), "{e}");
}

#[test]
fn shapes_other_than_a_compiled_pose_are_refused_with_the_poses_listed() {
    let world = Arc::new(small_world());
    let compiled = compile(&world, &quake_poses(), &CompileOptions::default()).unwrap();
    let onion = WithContext::new(
        OnionCollider::from_compiled(world, compiled)
            .expect("the tree was compiled from this world"),
    );
    for s in [
        Shape::new_sphere(16.0).unwrap(),
        Shape::new_box(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 31.0),
        )
        .unwrap(),
    ] {
        let e = onion.prepare(&s).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("stand=-16,-16,-24,16,16,32"), "{text}");
        assert!(
            text.contains("crouch=") && text.contains("large="),
            "{text}"
        );
    }
    assert!(onion.prepare(&shape(&Pose::quake_crouching())).is_ok());
}

pub fn saved() -> (OnionTree, Vec<u8>) {
    let world = random_boxes(30, 4);
    let tree = compile(&world, &quake_poses(), &CompileOptions::default())
        .unwrap()
        .tree;
    let bytes = tree.to_bytes();
    (tree, bytes)
}

#[test]
fn truncation_at_every_offset_is_an_error() {
    let (_, bytes) = saved();
    for len in 0..bytes.len() {
        assert!(
            OnionTree::from_bytes(&bytes[..len]).is_err(),
            "truncated to {len}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        OnionTree::from_bytes(&longer).unwrap_err(),
        LoadError::TrailingBytes(1)
    );
}

#[test]
fn flipped_bytes_are_errors() {
    let (tree, bytes) = saved();
    // Every byte of the header, poses and first planes, then a spread over the rest.
    let step = (bytes.len() / 4000).max(1);
    for at in (0..bytes.len()).filter(|&i| i < 512 || i % step == 0) {
        for bit in [0x01u8, 0x80] {
            let mut b = bytes.clone();
            b[at] ^= bit;
            match OnionTree::from_bytes(&b) {
                Err(_) => {}
                Ok(t) => panic!("byte {at} flipped loads a tree (equal: {})", t == tree),
            }
        }
    }
}

#[test]
fn wrong_magic_version_and_checksum_are_named() {
    let (_, bytes) = saved();
    let mut b = bytes.clone();
    b[0] = b'X';
    assert_eq!(OnionTree::from_bytes(&b).unwrap_err(), LoadError::BadMagic);
    let mut b = bytes.clone();
    b[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert_eq!(
        OnionTree::from_bytes(&b).unwrap_err(),
        LoadError::UnsupportedVersion {
            found: FORMAT_VERSION + 1
        }
    );
    // A changed leaf with its checksum left: a checksum error.
    let mut b = bytes.clone();
    let n = b.len();
    b[n - 9] ^= 0x40;
    assert!(matches!(
        OnionTree::from_bytes(&b).unwrap_err(),
        LoadError::Checksum { .. }
    ));
    // Contents that break the tree's invariants, with a correct checksum: a leaf with bits
    // beyond its spaces; a node pointing back at the root.
    let (tree, _) = saved();
    let at = Layout::of(&tree);
    let mut b = bytes.clone();
    b[n - 16] |= 0x80;
    assert!(matches!(
        OnionTree::from_bytes(&resealed(b)).unwrap_err(),
        LoadError::Invalid(_)
    ));
    // The first node's front child set to 0.
    let mut b = bytes.clone();
    put(&mut b, at.node(0) + 4, &0u32.to_le_bytes());
    assert!(matches!(
        OnionTree::from_bytes(&resealed(b)).unwrap_err(),
        LoadError::Invalid(_)
    ));
    // A plane whose normal is not unit.
    let mut b = bytes.clone();
    put(&mut b, at.plane(0), &2.0f64.to_le_bytes());
    assert!(matches!(
        OnionTree::from_bytes(&resealed(b)).unwrap_err(),
        LoadError::BadPlane { index: 0 }
    ));
    // A pose name that is not UTF-8, and an inverted pose box.
    let mut b = bytes.clone();
    b[at.poses + 4] = 0xff;
    assert!(matches!(
        OnionTree::from_bytes(&resealed(b)).unwrap_err(),
        LoadError::BadPose { index: 0, .. }
    ));
    let mut b = bytes.clone();
    let mins_x = at.poses + 4 + tree.poses()[0].name.len();
    put(&mut b, mins_x, &1e9f64.to_le_bytes());
    assert!(matches!(
        OnionTree::from_bytes(&resealed(b)).unwrap_err(),
        LoadError::BadPose { index: 0, .. }
    ));
}

/// The load error of `bytes` resealed, which must break an invariant of the validator.
fn invalid(bytes: Vec<u8>) -> String {
    match OnionTree::from_bytes(&resealed(bytes)) {
        Err(LoadError::Invalid(e)) => e.to_string(),
        other => panic!("not an invalid tree: {other:?}"),
    }
}

#[test]
fn broken_meaningful_invariants_are_named() {
    let (tree, bytes) = saved();
    let at = Layout::of(&tree);
    // Two poses of one name ("large" renamed "stand").
    let mut b = bytes.clone();
    let large = at.poses
        + tree.poses()[..2]
            .iter()
            .map(|p| 4 + p.name.len() + 48)
            .sum::<usize>();
    assert_eq!(&b[large + 4..large + 9], b"large");
    put(&mut b, large + 4, b"stand");
    let e = invalid(b);
    assert!(e.contains("poses 0 and 2 are both named 'stand'"), "{e}");
    // A plane beyond any configuration space's.
    let mut b = bytes.clone();
    put(
        &mut b,
        at.plane(3) + 24,
        &(MAX_PLANE_DISTANCE * 1.5).to_le_bytes(),
    );
    let e = invalid(b);
    assert!(
        e.contains("plane 3 lies 3.145728e6 units from the origin"),
        "{e}"
    );
    // Two planes that are one, the same way round and facing each other.
    let mut b = bytes.clone();
    b.copy_within(at.plane(2)..at.plane(3), at.plane(5));
    let e = invalid(b);
    assert!(
        e.contains("planes 2 and 5 are one plane (within PLANE_MERGE)"),
        "{e}"
    );
    let mut b = bytes.clone();
    let p = tree.planes()[2].flipped();
    for (k, x) in [p.normal().x, p.normal().y, p.normal().z, p.dist()]
        .iter()
        .enumerate()
    {
        put(&mut b, at.plane(5) + 8 * k, &x.to_le_bytes());
    }
    let e = invalid(b);
    assert!(
        e.contains("planes 2 and 5 are one plane (within PLANE_MERGE, facing"),
        "{e}"
    );
    // A leaf solid crouching and empty standing (the crouching box lies inside the standing one).
    let empty = (0..tree.leaf_count() as u32)
        .find(|&l| tree.leaf_mask(l) == 0)
        .unwrap();
    let mut b = bytes.clone();
    put(&mut b, at.leaf(empty as usize), &0b010u64.to_le_bytes());
    let e = invalid(b);
    assert!(
        e.contains(&format!(
            "leaf {empty} is solid for pose 1 (crouch) and empty for pose 0 (stand), whose box contains it"
        )),
        "{e}"
    );
    // A node splitting by its parent's plane (node 1 is node 0's front child).
    assert_eq!(tree.node_children(0)[0], NodeRef::Node(1));
    let mut b = bytes.clone();
    b.copy_within(at.node(0)..at.node(0) + 4, at.node(1));
    let e = invalid(b);
    let plane = u32::from_le_bytes(bytes[at.node(0)..at.node(0) + 4].try_into().unwrap());
    assert!(
        e.contains(&format!(
            "node 1 splits by plane {plane}, as its ancestor node 0 does"
        )),
        "{e}"
    );
}
