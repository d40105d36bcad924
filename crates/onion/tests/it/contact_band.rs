//! Regression (issue 35, item 3): the onion left an agent 1e-9 inside a wall. One Quake player
//! on `quake_e3m5.map` ended at y = -1968.0000000010002 against a configuration-space face at
//! -1968: 1.0002e-9 inside, past `CONTACT` (1e-9), free for the onion and in solid for
//! `sim run --verify` (the exact reference's point query). A tree's planes are its plane
//! table's, merged within `PLANE_MERGE` (1e-11), so a tree plane can lie that much beyond the
//! plane of the brush the exact backend evaluates, and a position within that of depth `CONTACT`
//! was judged on either side: of 151,164 moves of the standing box ending within 4e-13 of depth
//! `CONTACT` behind a face of e3m5, 1,178 ended free for the onion and in solid for the exact
//! backend.
//!
//! The fix: the tree backends compare with `TREE_BAND` (`CONTACT` less four times
//! `PLANE_MERGE`), so what the onion finds free the exact backend finds free, but at a corner of
//! several brushes (the contact-scale class of `common::contact_scale`).

use cspace_geom::generate::Rng;
use cspace_geom::{BoxShape, Collider, ExactCollider, Shape, WithContext};
use cspace_onion::{CompileOptions, OnionCollider, Pose, compile};

use crate::common::contact_scale;

#[test]
fn moves_ending_at_the_contact_depth_end_free_only_where_the_exact_backend_agrees() {
    let test = "moves_ending_at_the_contact_depth_end_free_only_where_the_exact_backend_agrees";
    let Some(map) = cspace_corpus::map(test, "quake_e3m5.map") else {
        return;
    };
    let world = map.world;
    let pose = Pose::quake_standing();
    let compiled = compile(
        &world,
        std::slice::from_ref(&pose),
        &CompileOptions::default(),
    )
    .unwrap();
    let mut onion =
        WithContext::new(OnionCollider::from_compiled(world.clone(), compiled).unwrap());
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    let shape = Shape::new_box(pose.mins, pose.maxs).unwrap();
    let box_shape = BoxShape {
        mins: pose.mins,
        maxs: pose.maxs,
    };
    let (po, pe) = (
        onion.prepare(&shape).unwrap(),
        exact.prepare(&shape).unwrap(),
    );
    let mut rng = Rng::new(5);
    let (mut tried, mut corners, mut wrong) = (0, 0, Vec::new());
    for _ in 0..400_000 {
        // A face of a brush expanded by the box, a point on it near the brush's middle, pushed
        // in by CONTACT give or take 4e-13; a move ending there from up to 30 units out.
        let brush = &world.brushes()[rng.below(world.len())].brush;
        let planes = cspace_geom::expand::box_expanded_planes(brush, &box_shape);
        let plane = planes[rng.below(brush.face_count())];
        let middle = brush.vertex_mean();
        let on = middle - plane.normal() * plane.signed_distance(middle);
        let end = on - plane.normal() * (1e-9 + rng.range(-1.0, 1.0) * 4e-13);
        let out = rng.unit_vector();
        let out = if out.dot(plane.normal()) < 0.0 {
            -out
        } else {
            out
        };
        let start = end + out * rng.range(1.0, 30.0);
        if exact.is_solid(&pe, start) || onion.is_solid(&po, start) {
            continue;
        }
        tried += 1;
        let hit = onion.trace(&po, start, end);
        if hit.fraction() == 1.0 && exact.is_solid(&pe, end) {
            if contact_scale(&world, &shape, end, end) {
                corners += 1;
            } else {
                wrong.push(format!("{start} -> {end}: {hit:?}"));
            }
        }
    }
    eprintln!("{tried} moves, {corners} free at a corner of several brushes");
    assert!(
        tried > 100_000 && corners * 1000 < tried,
        "{tried} {corners}"
    );
    assert!(
        wrong.is_empty(),
        "{} of {tried}: {:#?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
}
