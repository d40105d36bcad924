//! The onion backend against the exact reference on generated worlds.

use std::sync::Arc;

use crate::common::{
    assert_agrees, compare, convex_brushes, quake_poses, random_boxes, touching_floors,
};
use cspace_onion::Pose;

#[test]
fn touching_floors_agree() {
    let world = Arc::new(touching_floors());
    let tally = compare(&world, &quake_poses(), 3000, 1);
    assert_agrees("touching floors", &tally);
}

#[test]
fn random_boxes_agree() {
    let world = Arc::new(random_boxes(150, 7));
    let tally = compare(&world, &quake_poses(), 3000, 2);
    assert_agrees("random boxes", &tally);
}

#[test]
fn convex_brushes_agree() {
    let world = Arc::new(convex_brushes(40, 3));
    let mut poses = quake_poses();
    poses.push(Pose::point());
    let tally = compare(&world, &poses, 3000, 3);
    assert_agrees("convex brushes", &tally);
}
