//! The paper's situations as unit cases: Figure 1's spheres A and B, Section 8's ridge without a
//! flat top (with the horizontal bevel a sphere walks along it), and a wedge whose sharp edge
//! would otherwise protrude (Section 5, Figure 3).

use std::sync::Arc;

use cspace_geom::{
    Aabb, Brush, Collider, DVec3, ExactCollider, Hit, Plane, QueryContext, Shape, World,
};
use cspace_melax::{BevelMode, MelaxCollider, compile};

fn melax(brushes: Vec<Brush>, bevel: BevelMode) -> (MelaxCollider, ExactCollider) {
    let world = Arc::new(World::from_brushes(brushes));
    let tree = compile(&world, bevel).unwrap();
    tree.validate().unwrap();
    (
        MelaxCollider::new(world.clone(), Arc::new(tree)).unwrap(),
        ExactCollider::new(world),
    )
}

fn trace(c: &dyn Collider, shape: &Shape, start: DVec3, end: DVec3) -> Hit {
    let prepared = c.prepare(shape).unwrap();
    c.trace(&mut QueryContext::new(), &prepared, start, end)
}

const SKIN: f64 = 1.0 / 32.0;

/// Figure 1: sphere B lands on the middle of a face and rebounds from the right place; sphere A
/// passes beside the block's edge and the shifted planes stop it before its perimeter touches
/// anything (the square corner of the shifted planes against the exact rounded edge). Bevels at
/// 90 degrees leave a right-angled edge as it is, so A's error remains: it is bounded by the
/// corner of the square, `(sqrt(2) - 1) r`.
#[test]
fn figure_1_sphere_b_rebounds_exactly_and_sphere_a_early() {
    let block = Brush::from_aabb(Aabb::new(
        DVec3::new(-256.0, -256.0, -64.0),
        DVec3::new(0.0, 256.0, 0.0),
    ))
    .unwrap();
    let (melax, exact) = melax(vec![block.clone()], BevelMode::PAPER);
    let r = 16.0;
    let ball = Shape::new_sphere(r).unwrap();
    // Sphere B: straight down onto the face.
    let (start, end) = (
        DVec3::new(-100.0, 0.0, 80.0),
        DVec3::new(-100.0, 0.0, -20.0),
    );
    let (a, b) = (
        trace(&melax, &ball, start, end),
        trace(&exact, &ball, start, end),
    );
    assert!(
        (a.end().z - (r + SKIN)).abs() < 1e-9 && a.end().abs_diff_eq(b.end(), 1e-9),
        "{a:?} {b:?}"
    );
    assert_eq!(a.surface().unwrap().plane.normal(), DVec3::Z);
    // Sphere A: down beside the edge x = 0, z = 0, its centre 0.9 r out from the side face.
    let (start, end) = (
        DVec3::new(0.9 * r, 0.0, 80.0),
        DVec3::new(0.9 * r, 0.0, -40.0),
    );
    let (a, b) = (
        trace(&melax, &ball, start, end),
        trace(&exact, &ball, start, end),
    );
    let (ta, tb) = (
        a.surface().unwrap().time_of_impact,
        b.surface().unwrap().time_of_impact,
    );
    assert!(ta < tb, "A must stop early: melax {ta} exact {tb}");
    let centre = start + (end - start) * ta;
    let gap = centre.distance(block.closest_point(centre)) - r;
    assert!(
        gap > 0.3 * r && gap <= (2f64.sqrt() - 1.0) * r + 1e-9,
        "gap {gap}"
    );
    // The exact sphere touches the rounded edge: its centre r from the edge.
    let exact_centre = start + (end - start) * tb;
    assert!((exact_centre.distance(block.closest_point(exact_centre)) - r).abs() < 1e-6);
}

/// A ridge along y whose slopes rise 40 degrees to an apex at z = 32: the normals are only 80
/// degrees apart, so no edge bevel; Section 8's level plane at the highest vertex is what keeps
/// the shifted apex at `32 + r` instead of `32 + r / cos(40)`.
fn ridge() -> Brush {
    let s = 40f64.to_radians();
    let left = DVec3::new(-s.sin(), 0.0, s.cos());
    let right = DVec3::new(s.sin(), 0.0, s.cos());
    let apex = DVec3::new(0.0, 0.0, 32.0);
    Brush::from_planes(&[
        Plane::new(left, left.dot(apex)).unwrap(),
        Plane::new(right, right.dot(apex)).unwrap(),
        Plane::new(DVec3::NEG_Z, 0.0).unwrap(),
        Plane::new(DVec3::Y, 256.0).unwrap(),
        Plane::new(DVec3::NEG_Y, 256.0).unwrap(),
    ])
    .unwrap()
}

#[test]
fn with_the_level_bevel_a_sphere_walks_along_a_ridge_without_a_flat_top() {
    let r = 16.0;
    let ball = Shape::new_sphere(r).unwrap();
    let (paper, exact) = melax(vec![ridge()], BevelMode::PAPER);
    let (plain, _) = melax(vec![ridge()], BevelMode::None);
    // Dropped on the ridge: the paper's tree rests it where the exact sphere rests.
    let (start, end) = (DVec3::new(0.0, 0.0, 100.0), DVec3::new(0.0, 0.0, 0.0));
    let (p, e, n) = (
        trace(&paper, &ball, start, end),
        trace(&exact, &ball, start, end),
        trace(&plain, &ball, start, end),
    );
    assert!((p.end().z - (32.0 + r + SKIN)).abs() < 1e-9, "{p:?}");
    assert!((e.end().z - p.end().z).abs() < 1e-6, "{e:?}");
    let spike = 32.0 + r / 40f64.to_radians().cos();
    assert!(
        (n.end().z - (spike + SKIN / 40f64.to_radians().cos())).abs() < 1e-9,
        "without bevels: {n:?}"
    );
    // Walking along the ridge just above its top: free with the level bevel, in solid without.
    let (start, end) = (
        DVec3::new(0.0, -200.0, 32.0 + r + 0.05),
        DVec3::new(0.0, 200.0, 32.0 + r + 0.05),
    );
    let p = trace(&paper, &ball, start, end);
    assert!(!p.is_hit() && !p.start_solid(), "{p:?}");
    let n = trace(&plain, &ball, start, end);
    assert!(n.start_solid(), "{n:?}");
    assert!(!trace(&exact, &ball, start, end).is_hit());
}

/// A wedge whose edge (at x = 100, along z) is 20 degrees sharp: unbevelled, its side planes
/// shifted by r meet `r / sin(10)` beyond the edge; the paper's bevel through the edge (normal +x)
/// stops the sphere where the exact one stops.
#[test]
fn a_sharp_wedge_does_not_protrude_once_bevelled() {
    let a = 10f64.to_radians();
    let tip = DVec3::new(100.0, 0.0, 0.0);
    let upper = DVec3::new(a.sin(), a.cos(), 0.0);
    let lower = DVec3::new(a.sin(), -a.cos(), 0.0);
    let wedge = Brush::from_planes(&[
        Plane::new(upper, upper.dot(tip)).unwrap(),
        Plane::new(lower, lower.dot(tip)).unwrap(),
        Plane::new(DVec3::NEG_X, 0.0).unwrap(),
        Plane::new(DVec3::Z, 64.0).unwrap(),
        Plane::new(DVec3::NEG_Z, 64.0).unwrap(),
    ])
    .unwrap();
    let r = 8.0;
    let ball = Shape::new_sphere(r).unwrap();
    let (paper, exact) = melax(vec![wedge.clone()], BevelMode::PAPER);
    let (plain, _) = melax(vec![wedge], BevelMode::None);
    let (start, end) = (DVec3::new(300.0, 0.0, 0.0), DVec3::new(0.0, 0.0, 0.0));
    let p = trace(&paper, &ball, start, end);
    let e = trace(&exact, &ball, start, end);
    let n = trace(&plain, &ball, start, end);
    assert!(
        (p.end().x - (100.0 + r + SKIN)).abs() < 1e-9 && p.end().abs_diff_eq(e.end(), 1e-6),
        "{p:?} {e:?}"
    );
    let protrusion = r / a.sin();
    // The skin is measured along the slope's normal, so along x the end sits a little further out.
    let out = n.end().x - (100.0 + protrusion);
    assert!(
        out > 0.0 && out < SKIN / a.sin() + 1e-6,
        "{n:?}, expected just beyond {}",
        100.0 + protrusion
    );
    // A cylinder too: the same bevel bounds it by its radius.
    let can = Shape::new_cylinder(r, 20.0).unwrap();
    let p = trace(&paper, &can, start, end);
    assert!((p.end().x - (100.0 + r + SKIN)).abs() < 1e-9, "{p:?}");
}
