//! The onion backend against the exact reference on generated worlds: 100,000 traces per world
//! (split evenly over its poses; `CSPACE_ONION_TRACES` sets another total), a third starting in
//! empty space, a third on a face of an expanded brush (a third of those sliding along it), a
//! third anywhere (often inside solid).

use std::sync::Arc;

use cspace_geom::World;
use cspace_onion::Pose;

use crate::common::{
    assert_agrees, compare, convex_brushes, quake_poses, random_boxes, touching_floors,
};

fn per_pose(poses: usize) -> usize {
    let total: usize = std::env::var("CSPACE_ONION_TRACES")
        .ok()
        .map(|v| v.parse().expect("CSPACE_ONION_TRACES is a count"))
        .unwrap_or(100_000);
    total.div_ceil(poses)
}

fn agree(name: &str, world: World, poses: &[Pose], seed: u64) {
    let world = Arc::new(world);
    let tally = compare(&world, poses, per_pose(poses.len()), seed);
    assert_agrees(name, &tally);
}

#[test]
fn touching_floors_agree() {
    agree("touching floors", touching_floors(), &quake_poses(), 1);
}

#[test]
fn random_boxes_agree() {
    agree(
        "random boxes (150)",
        random_boxes(150, 7),
        &quake_poses(),
        2,
    );
}

#[test]
fn denser_random_boxes_agree() {
    agree(
        "random boxes (400)",
        random_boxes(400, 2024),
        &quake_poses(),
        4,
    );
}

#[test]
fn convex_brushes_agree() {
    let mut poses = quake_poses();
    poses.push(Pose::point());
    agree("convex brushes", convex_brushes(40, 3), &poses, 3);
}
