//! Hand-built cases with known answers for the exact backend.

use std::sync::Arc;

use glam::DVec3;

use crate::aabb::Aabb;
use crate::brush::Brush;
use crate::collider::{Collider, Hit, WithContext};
use crate::exact::ExactCollider;
use crate::plane::Plane;
use crate::shape::Shape;
use crate::tolerance::DEFAULT_SKIN;
use crate::world::World;

const SKIN: f64 = DEFAULT_SKIN;

fn boxed(min: [f64; 3], max: [f64; 3]) -> Brush {
    Brush::from_aabb(Aabb::new(DVec3::from_array(min), DVec3::from_array(max))).unwrap()
}

fn world(brushes: Vec<Brush>) -> WithContext<ExactCollider> {
    WithContext::new(ExactCollider::new(Arc::new(World::from_brushes(brushes))))
}

fn player() -> Shape {
    Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 32.0),
    )
    .unwrap()
}

fn trace(c: &mut WithContext<ExactCollider>, shape: &Shape, a: [f64; 3], b: [f64; 3]) -> Hit {
    let p = c.prepare(shape).unwrap();
    c.trace(&p, DVec3::from_array(a), DVec3::from_array(b))
}

fn close(a: f64, b: f64, tolerance: f64) {
    assert!(
        (a - b).abs() <= tolerance,
        "{a} vs {b} (difference {}, tolerance {tolerance})",
        (a - b).abs()
    );
}

fn wall() -> WithContext<ExactCollider> {
    // A wall occupying x in [64, 80].
    world(vec![boxed([64.0, -512.0, -512.0], [80.0, 512.0, 512.0])])
}

#[test]
fn box_into_a_wall_head_on() {
    let mut c = wall();
    let hit = trace(&mut c, &player(), [0.0, 0.0, 0.0], [100.0, 0.0, 0.0]);
    let s = hit.surface().unwrap();
    assert_eq!(s.plane.normal(), DVec3::NEG_X);
    // Configuration-space plane: the wall's face x = 64 moved out by the box's +x half (16).
    close(s.plane.dist(), -48.0, 1e-12);
    close(s.time_of_impact, 0.48, 1e-12);
    close(hit.fraction(), (48.0 - SKIN) / 100.0, 1e-12);
    close(hit.end().x, 48.0 - SKIN, 1e-9);
    // The contact point is on the wall's face, at the centre of the box's front face.
    assert!(
        s.point.abs_diff_eq(DVec3::new(64.0, 0.0, 4.0), 1e-9),
        "{}",
        s.point
    );
    assert!(!hit.start_solid() && !hit.all_solid());
}

#[test]
fn box_at_45_degrees_into_an_edge_and_a_corner() {
    // A pillar x, y in [64, 128]: approach its vertical edge at (64, 64) diagonally.
    let mut c = world(vec![boxed([64.0, 64.0, -512.0], [128.0, 128.0, 512.0])]);
    let hit = trace(&mut c, &player(), [0.0, 0.0, 0.0], [100.0, 100.0, 0.0]);
    let s = hit.surface().unwrap();
    // The box's corner (16, 16) meets the pillar's edge when the origin is at (48, 48): both
    // faces are touched at once.
    close(s.time_of_impact, 0.48, 1e-12);
    assert!(s.plane.normal() == DVec3::NEG_X || s.plane.normal() == DVec3::NEG_Y);
    assert!(hit.end().x <= 48.0 - SKIN + 1e-9 && hit.end().y <= 48.0 - SKIN + 1e-9);

    // A cube corner at (64, 64, 64) approached along the diagonal by a point.
    let mut c = world(vec![boxed([64.0, 64.0, 64.0], [128.0, 128.0, 128.0])]);
    let hit = trace(
        &mut c,
        &Shape::POINT,
        [0.0, 0.0, 0.0],
        [100.0, 100.0, 100.0],
    );
    close(hit.surface().unwrap().time_of_impact, 0.64, 1e-12);
}

#[test]
fn box_against_a_rotated_edge_hits_the_bevel() {
    // A diamond pillar (a square rotated 45 degrees about z) with its edge pointing at -x.
    let planes = [
        Plane::new(DVec3::new(-1.0, -1.0, 0.0), -100.0 / 2f64.sqrt() * 1.0).unwrap(),
        Plane::new(DVec3::new(-1.0, 1.0, 0.0), 0.0).unwrap(),
        Plane::new(DVec3::new(1.0, 1.0, 0.0), 200.0 / 2f64.sqrt()).unwrap(),
        Plane::new(DVec3::new(1.0, -1.0, 0.0), 100.0 / 2f64.sqrt()).unwrap(),
        Plane::new(DVec3::Z, 512.0).unwrap(),
        Plane::new(DVec3::NEG_Z, 512.0).unwrap(),
    ];
    let diamond = Brush::from_planes(&planes).unwrap();
    let leftmost = diamond.support_point(DVec3::NEG_X);
    let mut c = world(vec![diamond]);
    // A box moving along +x straight at the leftmost edge meets it with its flat +x face: the
    // hit plane is the axial bevel, not one of the slanted faces.
    let hit = trace(
        &mut c,
        &player(),
        [leftmost.x - 100.0, leftmost.y, 0.0],
        [leftmost.x, leftmost.y, 0.0],
    );
    let s = hit.surface().unwrap();
    assert_eq!(s.plane.normal(), DVec3::NEG_X);
    close(s.time_of_impact, (100.0 - 16.0) / 100.0, 1e-9);
}

#[test]
fn grazing_a_face_exactly_parallel_is_free() {
    let mut c = wall();
    // The box's +x face slides exactly on the wall's face x = 64 (origin at x = 48).
    let hit = trace(&mut c, &player(), [48.0, -100.0, 0.0], [48.0, 100.0, 0.0]);
    assert_eq!(hit, Hit::miss(DVec3::new(48.0, 100.0, 0.0)));
    // 1e-6 into the face: that is solid, and the move never leaves it.
    let hit = trace(
        &mut c,
        &player(),
        [48.0 + 1e-6, -100.0, 0.0],
        [48.0 + 1e-6, 100.0, 0.0],
    );
    assert!(hit.all_solid() && hit.start_solid());
    assert_eq!(hit.fraction(), 0.0);
}

#[test]
fn starting_exactly_on_a_face_moving_in_is_blocked_at_once() {
    let mut c = wall();
    let hit = trace(&mut c, &player(), [48.0, 0.0, 0.0], [60.0, 0.0, 0.0]);
    assert!(!hit.start_solid());
    assert_eq!(hit.fraction(), 0.0);
    assert_eq!(hit.surface().unwrap().time_of_impact, 0.0);
    // Moving out from the face is free.
    let hit = trace(&mut c, &player(), [48.0, 0.0, 0.0], [0.0, 0.0, 0.0]);
    assert_eq!(hit, Hit::miss(DVec3::ZERO));
}

#[test]
fn starting_slightly_and_deep_inside() {
    let mut c = wall();
    // 1e-6 inside, moving out: start solid, free to leave.
    let hit = trace(&mut c, &player(), [48.0 + 1e-6, 0.0, 0.0], [0.0, 0.0, 0.0]);
    assert!(hit.start_solid() && !hit.all_solid());
    assert_eq!(hit.fraction(), 1.0);
    assert!(hit.surface().is_none());
    // 1e-6 inside, moving in: never leaves.
    let hit = trace(&mut c, &player(), [48.0 + 1e-6, 0.0, 0.0], [60.0, 0.0, 0.0]);
    assert!(hit.all_solid());
    // Deep inside, moving through and out the far side: free to leave.
    let hit = trace(&mut c, &player(), [70.0, 0.0, 0.0], [200.0, 0.0, 0.0]);
    assert!(hit.start_solid() && !hit.all_solid() && hit.fraction() == 1.0);
    // Deep inside, leaving into a second wall beyond: blocked by the second wall only.
    let mut c = world(vec![
        boxed([64.0, -512.0, -512.0], [80.0, 512.0, 512.0]),
        boxed([200.0, -512.0, -512.0], [216.0, 512.0, 512.0]),
    ]);
    let hit = trace(&mut c, &player(), [70.0, 0.0, 0.0], [300.0, 0.0, 0.0]);
    assert!(hit.start_solid() && !hit.all_solid());
    close(hit.end().x, 184.0 - SKIN, 1e-9);
    assert_eq!(hit.surface().unwrap().brush.0, 1);
}

#[test]
fn touching_brushes_have_no_seam() {
    // A floor of two touching slabs; a box inside the floor crosses the seam: still all solid.
    let mut c = world(vec![
        boxed([-512.0, -512.0, -64.0], [0.0, 512.0, 0.0]),
        boxed([0.0, -512.0, -64.0], [512.0, 512.0, 0.0]),
    ]);
    let hit = trace(
        &mut c,
        &Shape::POINT,
        [-100.0, 3.0, -32.0],
        [100.0, 3.0, -32.0],
    );
    assert!(hit.all_solid());
    // Diagonally and almost parallel to the seam, too.
    let hit = trace(
        &mut c,
        &Shape::POINT,
        [-1e-5, -300.0, -32.0],
        [1e-5, 300.0, -32.0],
    );
    assert!(hit.all_solid());
    // A player sliding on top across the seam is free.
    let hit = trace(&mut c, &player(), [-100.0, 0.0, 24.0], [100.0, 0.0, 24.0]);
    assert_eq!(hit, Hit::miss(DVec3::new(100.0, 0.0, 24.0)));
}

#[test]
fn after_a_hit_the_end_is_a_skin_away_from_the_hit_plane_and_not_in_solid() {
    let mut c = wall();
    let p = c.prepare(&player()).unwrap();
    for (i, dy) in [-3.0, -0.5, 0.0, 0.7, 5.0].into_iter().enumerate() {
        let hit = c.trace(
            &p,
            DVec3::new(0.0, 0.0, i as f64),
            DVec3::new(90.0, 90.0 * dy, 3.0),
        );
        let s = hit.surface().unwrap();
        close(s.plane.signed_distance(hit.end()), SKIN, 1e-9);
        assert!(!c.is_solid(&p, hit.end()));
    }
}

#[test]
fn point_queries() {
    let mut c = wall();
    let p = c.prepare(&player()).unwrap();
    assert!(!c.is_solid(&p, DVec3::new(48.0, 0.0, 0.0)));
    assert!(c.is_solid(&p, DVec3::new(48.0 + 1e-6, 0.0, 0.0)));
    assert!(!c.is_solid(&p, DVec3::new(0.0, 0.0, 0.0)));
    // Zero-length traces are point queries.
    assert!(
        c.trace(&p, DVec3::new(60.0, 0.0, 0.0), DVec3::new(60.0, 0.0, 0.0))
            .all_solid()
    );
}

#[test]
fn sphere_rounds_the_edge() {
    // A pillar x, y in [0, 64]; a sphere of radius 10 passing its edge at (0, 0).
    let mut c = world(vec![boxed([0.0, 0.0, -512.0], [64.0, 64.0, 512.0])]);
    let sphere = Shape::new_sphere(10.0).unwrap();
    // Moving along y = -9 (the sphere's centre 9 below the face y = 0) from x = -50 towards +x:
    // it meets the edge (0, 0) when its centre is sqrt(100 - 81) = sqrt(19) before x = 0.
    let hit = trace(&mut c, &sphere, [-50.0, -9.0, 0.0], [50.0, -9.0, 0.0]);
    let s = hit.surface().unwrap();
    close(s.time_of_impact, (50.0 - 19f64.sqrt()) / 100.0, 1e-9);
    let expected_normal = DVec3::new(-19f64.sqrt(), -9.0, 0.0) / 10.0;
    assert!(
        s.plane.normal().abs_diff_eq(expected_normal, 1e-9),
        "{}",
        s.plane.normal()
    );
    assert!(
        s.point.abs_diff_eq(DVec3::new(0.0, 0.0, 0.0), 1e-9),
        "{}",
        s.point
    );
    // A box of the same half-width would hit the bevel much earlier; a sphere passing at 10.5 is free.
    let hit = trace(&mut c, &sphere, [-50.0, -10.5, 0.0], [50.0, -10.5, 0.0]);
    assert!(hit.surface().is_none());
    // Head-on into the face x = 0: touches at centre x = -10.
    let hit = trace(&mut c, &sphere, [-50.0, 30.0, 0.0], [50.0, 30.0, 0.0]);
    close(hit.surface().unwrap().time_of_impact, 0.4, 1e-12);
    close(hit.end().x, -10.0 - SKIN, 1e-9);
}

#[test]
fn cylinder_rests_on_a_ridge_and_rounds_vertical_edges() {
    // A ridge along y: a triangular prism with its apex line at z = 0, x = 0, slopes of 45 degrees.
    let planes = [
        Plane::new(DVec3::new(1.0, 0.0, 1.0), 0.0).unwrap(),
        Plane::new(DVec3::new(-1.0, 0.0, 1.0), 0.0).unwrap(),
        Plane::new(DVec3::NEG_Z, 64.0).unwrap(),
        Plane::new(DVec3::Y, 512.0).unwrap(),
        Plane::new(DVec3::NEG_Y, 512.0).unwrap(),
    ];
    let ridge = Brush::from_planes(&planes).unwrap();
    let mut c = world(vec![ridge]);
    let cylinder = Shape::new_cylinder(16.0, 24.0).unwrap();
    // Falling straight down onto the apex: the flat bottom lands on the ridge line, centre at z = 24.
    let hit = trace(&mut c, &cylinder, [0.0, 0.0, 100.0], [0.0, 0.0, 0.0]);
    let s = hit.surface().unwrap();
    close(s.time_of_impact, (100.0 - 24.0) / 100.0, 1e-9);
    assert!(s.plane.normal().abs_diff_eq(DVec3::Z, 1e-12));
    // Falling 10 units off to the side: the bottom rim's edge lands on the slope where the rim
    // (x = 10 - 16 = -6 .. 26) first touches: the slope z = -x at x = -6 is lower than the apex
    // inside the disc, so the disc rests on the apex (x = 0, within the disc): still z = 24.
    let hit = trace(&mut c, &cylinder, [10.0, 0.0, 100.0], [10.0, 0.0, 0.0]);
    close(
        hit.surface().unwrap().time_of_impact,
        (100.0 - 24.0) / 100.0,
        1e-9,
    );
    // 20 units off to the side: the apex is outside the disc; the rim touches the right slope
    // z = -x at x = 20 - 16 = 4: bottom at z = -4, centre at z = 20.
    let hit = trace(&mut c, &cylinder, [20.0, 0.0, 100.0], [20.0, 0.0, 0.0]);
    let s = hit.surface().unwrap();
    close(s.time_of_impact, (100.0 - 20.0) / 100.0, 1e-9);
    // The normal at a sheared-edge contact follows the slope.
    assert!(
        s.plane
            .normal()
            .abs_diff_eq(DVec3::new(1.0, 0.0, 1.0).normalize(), 1e-9),
        "{}",
        s.plane.normal()
    );

    // Passing a vertical edge: a cylinder rounds it like a circle in plan view.
    let mut c = world(vec![boxed([0.0, 0.0, -512.0], [64.0, 64.0, 512.0])]);
    let hit = trace(&mut c, &cylinder, [-50.0, -9.0, 0.0], [50.0, -9.0, 0.0]);
    close(
        hit.surface().unwrap().time_of_impact,
        (50.0 - (256.0f64 - 81.0).sqrt()) / 100.0,
        1e-9,
    );
}

#[test]
fn sphere_and_cylinder_start_solid_and_all_solid() {
    let mut c = wall();
    let sphere = Shape::new_sphere(8.0).unwrap();
    let hit = trace(&mut c, &sphere, [60.0, 0.0, 0.0], [0.0, 0.0, 0.0]);
    assert!(hit.start_solid() && !hit.all_solid() && hit.fraction() == 1.0);
    let hit = trace(&mut c, &sphere, [60.0, 0.0, 0.0], [70.0, 0.0, 0.0]);
    assert!(hit.all_solid());
    let cylinder = Shape::new_cylinder(8.0, 8.0).unwrap();
    let hit = trace(&mut c, &cylinder, [56.0, 0.0, 0.0], [56.0, 100.0, 0.0]);
    assert_eq!(
        hit,
        Hit::miss(DVec3::new(56.0, 100.0, 0.0)),
        "touching along the face is free"
    );
    let hit = trace(&mut c, &cylinder, [56.5, 0.0, 0.0], [56.5, 100.0, 0.0]);
    assert!(hit.all_solid());
}

#[test]
fn hull_agrees_with_box_for_a_box_hull() {
    let mut points = Vec::new();
    for x in [-16.0, 16.0] {
        for y in [-16.0, 16.0] {
            for z in [-24.0, 32.0] {
                points.push(DVec3::new(x, y, z));
            }
        }
    }
    let hull = Shape::new_hull(&points).unwrap();
    let planes = [
        Plane::new(DVec3::new(1.0, 2.0, 3.0), 40.0).unwrap(),
        Plane::new(DVec3::new(-1.0, 0.5, 0.2), 30.0).unwrap(),
        Plane::new(DVec3::new(0.3, -1.0, 0.1), 35.0).unwrap(),
        Plane::new(DVec3::new(0.1, 0.2, -1.0), 30.0).unwrap(),
    ];
    let mut c = world(vec![Brush::from_planes(&planes).unwrap()]);
    let mut seed = 7u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 300.0 - 150.0
    };
    for _ in 0..500 {
        let a = [next(), next(), next()];
        let b = [next(), next(), next()];
        let hb = trace(&mut c, &player(), a, b);
        let hh = trace(&mut c, &hull, a, b);
        assert_eq!(hb.is_hit(), hh.is_hit());
        assert_eq!(hb.start_solid(), hh.start_solid());
        assert_eq!(hb.all_solid(), hh.all_solid());
        assert!(
            hb.end().abs_diff_eq(hh.end(), 1e-7),
            "{} vs {}",
            hb.end(),
            hh.end()
        );
    }
}

#[test]
fn find_contact_names_the_brush_the_exact_backend_hit() {
    let mut c = world(vec![
        boxed([64.0, -512.0, -512.0], [80.0, 0.0, 512.0]),
        boxed([64.0, 0.0, -512.0], [80.0, 512.0, 512.0]),
        boxed([-80.0, -512.0, -512.0], [-64.0, 512.0, 512.0]),
    ]);
    let shape = player();
    for (y, expected) in [(-100.0, 0), (100.0, 1)] {
        let hit = trace(&mut c, &shape, [0.0, y, 0.0], [100.0, y, 0.0]);
        let s = hit.surface().unwrap();
        assert_eq!(s.brush.0, expected);
        let at = DVec3::new(0.0, y, 0.0) + DVec3::new(100.0, 0.0, 0.0) * s.time_of_impact;
        let (brush, point) = c
            .world()
            .find_contact(&shape, at, s.plane.normal(), 1e-6)
            .unwrap();
        assert_eq!(brush, s.brush);
        assert!(point.abs_diff_eq(s.point, 1e-9));
    }
}

/// A square facet of side 128 at height 0, centred on the origin (a patch facet lying flat).
fn floor_facet() -> Brush {
    Brush::from_polygon(&[
        DVec3::new(-64.0, -64.0, 0.0),
        DVec3::new(64.0, -64.0, 0.0),
        DVec3::new(64.0, 64.0, 0.0),
        DVec3::new(-64.0, 64.0, 0.0),
    ])
    .unwrap()
}

#[test]
fn a_facet_stops_boxes_spheres_and_cylinders_from_both_sides() {
    let mut c = world(vec![floor_facet()]);
    let shapes = [
        (player(), 24.0, 32.0),
        (Shape::new_sphere(10.0).unwrap(), 10.0, 10.0),
        (Shape::new_cylinder(12.0, 20.0).unwrap(), 20.0, 20.0),
    ];
    for (shape, below_feet, above_head) in shapes {
        // Falling onto it from above: stops with the feet the skin above the facet.
        let hit = trace(&mut c, &shape, [3.0, 5.0, 100.0], [3.0, 5.0, -100.0]);
        let s = hit.surface().expect("lands on the facet");
        assert_eq!(s.plane.normal(), DVec3::Z, "{}", shape.describe());
        close(hit.end().z, below_feet + SKIN, 1e-9);
        close(s.point.z, 0.0, 1e-9);
        // Rising into it from below: stops with the head the skin under it.
        let hit = trace(&mut c, &shape, [3.0, 5.0, -100.0], [3.0, 5.0, 100.0]);
        let s = hit.surface().expect("bumps its head on the facet");
        assert_eq!(s.plane.normal(), DVec3::NEG_Z, "{}", shape.describe());
        close(hit.end().z, -above_head - SKIN, 1e-9);
        // Resting on it is free; a millionth of a unit into it is solid.
        let p = c.prepare(&shape).unwrap();
        // (A cylinder resting exactly was solid, and one sliding exactly on it hit the far
        // side, before issue 35: see `resting_cylinders.rs`.)
        assert!(
            !c.is_solid(&p, DVec3::new(0.0, 0.0, below_feet)),
            "{}",
            shape.describe()
        );
        assert!(!c.is_solid(&p, DVec3::new(0.0, 0.0, below_feet + 1e-8)));
        assert!(c.is_solid(&p, DVec3::new(0.0, 0.0, below_feet - 1e-6)));
        assert!(c.is_solid(&p, DVec3::new(0.0, 0.0, -above_head + 1e-6)));
        // Sliding along it is free.
        let hit = trace(
            &mut c,
            &shape,
            [-200.0, 0.0, below_feet],
            [200.0, 0.0, below_feet],
        );
        assert!(!hit.is_hit(), "{}: {hit:?}", shape.describe());
        let above = below_feet + 1e-6;
        let hit = trace(&mut c, &shape, [-200.0, 0.0, above], [200.0, 0.0, above]);
        assert!(!hit.is_hit(), "{}: {hit:?}", shape.describe());
        // Past its edge it does not reach.
        let hit = trace(&mut c, &shape, [200.0, 0.0, 100.0], [200.0, 0.0, -100.0]);
        assert!(!hit.is_hit(), "{}: {hit:?}", shape.describe());
    }
}

#[test]
fn a_point_passes_through_a_facet() {
    let mut c = world(vec![floor_facet()]);
    let hit = trace(&mut c, &Shape::POINT, [1.0, 2.0, 50.0], [1.0, 2.0, -50.0]);
    assert!(!hit.is_hit() && !hit.start_solid(), "{hit:?}");
    let p = c.prepare(&Shape::POINT).unwrap();
    assert!(!c.is_solid(&p, DVec3::new(1.0, 2.0, 0.0)));
}

#[test]
fn a_box_hits_a_facet_edge_on_its_bevel() {
    // A tilted triangle: the player box coming from the side meets its edge, not its plane.
    let facet = Brush::from_polygon(&[
        DVec3::new(0.0, -50.0, 0.0),
        DVec3::new(0.0, 50.0, 0.0),
        DVec3::new(60.0, 0.0, 80.0),
    ])
    .unwrap();
    let mut c = world(vec![facet]);
    let hit = trace(&mut c, &player(), [-100.0, 0.0, 0.0], [100.0, 0.0, 0.0]);
    let s = hit.surface().unwrap();
    // The box's +x face (x + 16) meets the edge at x = 0: an axial plane of the Minkowski sum.
    assert_eq!(s.plane.normal(), DVec3::NEG_X);
    close(hit.end().x, -16.0 - SKIN, 1e-9);
}

/// A floor under z = 0 and a wall beyond x = 64, as brushes 0 and 1.
fn floor_and_wall() -> WithContext<ExactCollider> {
    world(vec![
        boxed([-512.0, -512.0, -64.0], [512.0, 512.0, 0.0]),
        boxed([64.0, -512.0, -64.0], [80.0, 512.0, 512.0]),
    ])
}

#[test]
fn trace_among_the_brushes_a_move_can_meet_is_the_trace() {
    use crate::world::BrushId;
    let mut c = floor_and_wall();
    let p = c.prepare(&player()).unwrap();
    let resting = DVec3::new(0.0, 0.0, 24.0 + SKIN);
    let cases = [
        // The ground probe of a box resting a skin above the floor: a hit.
        (resting, resting - DVec3::new(0.0, 0.0, 0.25)),
        // A walk along the floor into the wall: a hit on the wall.
        (resting, resting + DVec3::new(100.0, 0.0, 0.0)),
        // A walk along the floor away from it: a miss.
        (resting, resting + DVec3::new(-100.0, 30.0, 0.0)),
    ];
    for (i, (start, end)) in cases.into_iter().enumerate() {
        let expected = c.trace(&p, start, end);
        assert_eq!(expected.is_hit(), i < 2, "{start} -> {end}");
        let among = c
            .collider
            .trace_among(&mut c.ctx, &p, start, end, &[BrushId(0), BrushId(1)]);
        assert_eq!(among, Some(expected), "{start} -> {end}");
    }
    // Only the listed brushes are asked: without the wall, the walk into it reaches its end.
    let (start, end) = cases[1];
    let floor_only = c
        .collider
        .trace_among(&mut c.ctx, &p, start, end, &[BrushId(0)])
        .unwrap();
    assert!(c.trace(&p, start, end).is_hit());
    assert_eq!(floor_only, Hit::miss(end));
}

#[test]
fn trace_among_declines_moves_that_stay_put_and_thin_boxes() {
    use crate::world::BrushId;
    let mut c = floor_and_wall();
    let all = [BrushId(0), BrushId(1)];
    let p = c.prepare(&player()).unwrap();
    let at = DVec3::new(0.0, 0.0, 30.0);
    assert_eq!(c.collider.trace_among(&mut c.ctx, &p, at, at, &all), None);
    let flat = Shape::new_box(DVec3::new(-16.0, -16.0, 0.0), DVec3::new(16.0, 16.0, 0.0)).unwrap();
    let q = c.prepare(&flat).unwrap();
    let end = at + DVec3::new(100.0, 0.0, 0.0);
    assert_eq!(c.collider.trace_among(&mut c.ctx, &q, at, end, &all), None);
    assert!(c.trace(&q, at, end).is_hit());
}
