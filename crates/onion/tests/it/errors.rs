//! Every error path: compile errors, unsupported shapes, corrupt or truncated saved trees.

use std::sync::Arc;

use cspace_geom::{Collider, DVec3, Shape, WithContext, World};
use cspace_onion::{
    CompileError, CompileOptions, FORMAT_VERSION, LoadError, OnionCollider, OnionTree, Pose,
    compile, fnv1a64,
};

use crate::common::{axial, quake_poses, random_boxes, shape};

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

fn saved() -> (OnionTree, Vec<u8>) {
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
    // The header: magic 8, version 4, world fingerprint 8, four counts 16.
    const HEADER: usize = 8 + 4 + 8 + 16;
    let resealed = |mut b: Vec<u8>| {
        let n = b.len();
        let sum = fnv1a64(&b[..n - 8]);
        b[n - 8..].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let mut b = bytes.clone();
    b[n - 16] |= 0x80;
    assert!(matches!(
        OnionTree::from_bytes(&resealed(b)).unwrap_err(),
        LoadError::Invalid(_)
    ));
    // The first node's front child (after the header, poses and planes) set to 0.
    let (_, tree_bytes) = saved();
    let tree = OnionTree::from_bytes(&tree_bytes).unwrap();
    let poses_len: usize = tree.poses().iter().map(|p| 4 + p.name.len() + 48).sum();
    let first_node = HEADER + poses_len + tree.planes().len() * 32;
    let mut b = bytes.clone();
    b[first_node + 4..first_node + 8].copy_from_slice(&0u32.to_le_bytes());
    assert!(matches!(
        OnionTree::from_bytes(&resealed(b)).unwrap_err(),
        LoadError::Invalid(_)
    ));
    // A plane whose normal is not unit.
    let mut b = bytes.clone();
    let first_plane = HEADER + poses_len;
    b[first_plane..first_plane + 8].copy_from_slice(&2.0f64.to_le_bytes());
    assert!(matches!(
        OnionTree::from_bytes(&resealed(b)).unwrap_err(),
        LoadError::BadPlane { index: 0 }
    ));
    // A pose name that is not UTF-8, and an inverted pose box.
    let mut b = bytes.clone();
    b[HEADER + 4] = 0xff;
    assert!(matches!(
        OnionTree::from_bytes(&resealed(b)).unwrap_err(),
        LoadError::BadPose { index: 0, .. }
    ));
    let mut b = bytes.clone();
    let mins_x = HEADER + 4 + tree.poses()[0].name.len();
    b[mins_x..mins_x + 8].copy_from_slice(&1e9f64.to_le_bytes());
    assert!(matches!(
        OnionTree::from_bytes(&resealed(b)).unwrap_err(),
        LoadError::BadPose { index: 0, .. }
    ));
}
