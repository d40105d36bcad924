use glam::DVec3;

use super::*;

fn cube(min: f64, max: f64) -> Brush {
    Brush::from_aabb(Aabb::new(DVec3::splat(min), DVec3::splat(max))).unwrap()
}

#[test]
fn cube_has_eight_vertices_twelve_edges_six_faces() {
    let b = cube(0.0, 64.0);
    assert_eq!(b.vertices().len(), 8);
    assert_eq!(b.edges().len(), 12);
    assert_eq!(b.faces().len(), 6);
    assert!((b.volume() - 64.0f64.powi(3)).abs() < 1e-6);
    assert_eq!(b.bounds(), Aabb::new(DVec3::ZERO, DVec3::splat(64.0)));
    // Axial faces need no bevels.
    assert_eq!(b.box_planes().len(), 6);
    for e in b.edges() {
        assert_ne!(e.faces[0], e.faces[1], "every edge has two faces");
    }
}

#[test]
fn face_loops_wind_counter_clockwise_from_outside() {
    let b = cube(-1.0, 1.0);
    for i in 0..b.faces().len() {
        let p = b.face_polygon(i);
        let v = &p.vertices;
        let n = (v[1] - v[0]).cross(v[2] - v[1]);
        assert!(n.dot(p.plane.normal()) > 0.0);
    }
}

fn plane(n: [f64; 3], d: f64) -> Plane {
    Plane::new(DVec3::from_array(n), d).unwrap()
}

#[test]
fn open_brush_is_refused() {
    // Four planes of a square tube: open along z.
    let planes = [
        plane([1.0, 0.0, 0.0], 1.0),
        plane([-1.0, 0.0, 0.0], 1.0),
        plane([0.0, 1.0, 0.0], 1.0),
        plane([0.0, -1.0, 0.0], 1.0),
    ];
    assert_eq!(
        Brush::from_planes(&planes).unwrap_err(),
        BrushError::Unbounded
    );
}

#[test]
fn empty_brush_is_refused() {
    let mut planes = vec![
        plane([1.0, 0.0, 0.0], 1.0),
        plane([-1.0, 0.0, 0.0], 1.0),
        plane([0.0, 1.0, 0.0], 1.0),
        plane([0.0, -1.0, 0.0], 1.0),
        plane([0.0, 0.0, 1.0], 1.0),
    ];
    // z <= 1 and z >= 2: nothing.
    planes.push(plane([0.0, 0.0, -1.0], -2.0));
    assert_eq!(Brush::from_planes(&planes).unwrap_err(), BrushError::Empty);
    // z <= 1 and z >= 1: zero thickness.
    planes.pop();
    planes.push(plane([0.0, 0.0, -1.0], -1.0));
    assert_eq!(Brush::from_planes(&planes).unwrap_err(), BrushError::Empty);
}

#[test]
fn too_few_faces_and_degenerate_planes_are_refused() {
    let planes = [plane([1.0, 0.0, 0.0], 1.0), plane([-1.0, 0.0, 0.0], 1.0)];
    assert_eq!(
        Brush::from_planes(&planes).unwrap_err(),
        BrushError::TooFewFaces { count: 2 }
    );
    let faces = [[DVec3::ZERO, DVec3::X, DVec3::X * 2.0]; 4];
    assert!(matches!(
        Brush::from_map_points(&faces).unwrap_err(),
        BrushError::DegeneratePlane { face: 0, .. }
    ));
}

#[test]
fn duplicate_and_redundant_planes_are_dropped_and_counted() {
    let mut planes: Vec<Plane> = cube(0.0, 1.0).planes().collect();
    planes.push(planes[0]);
    // Outside the cube: does not touch it.
    planes.push(plane([1.0, 1.0, 1.0], 10.0));
    // Touches the cube along one edge only.
    planes.push(plane([1.0, 1.0, 0.0], 2.0));
    let b = Brush::from_planes(&planes).unwrap();
    assert_eq!(b.faces().len(), 6);
    assert_eq!(
        b.dropped(),
        DroppedPlanes {
            duplicate: 1,
            redundant: 2
        }
    );
}

#[test]
fn world_limit_is_enforced() {
    let far = Aabb::new(DVec3::splat(0.0), DVec3::new(2.0e6, 1.0, 1.0));
    assert!(matches!(
        Brush::from_aabb(far).unwrap_err(),
        BrushError::OutOfWorld { .. }
    ));
}

#[test]
fn wedge_gets_edge_bevels_but_no_duplicate_axials() {
    // A wedge: floor, back wall, two sides, and a 45-degree ramp face.
    let planes = [
        plane([0.0, 0.0, -1.0], 0.0),
        plane([-1.0, 0.0, 0.0], 0.0),
        plane([0.0, -1.0, 0.0], 0.0),
        plane([0.0, 1.0, 0.0], 32.0),
        plane([1.0, 0.0, 1.0], 64.0 / 2.0f64.sqrt()),
    ];
    let b = Brush::from_planes(&planes).unwrap();
    assert_eq!(b.faces().len(), 5);
    assert_eq!(b.vertices().len(), 6);
    let box_planes = b.box_planes();
    // Faces (5) + the missing axial planes +X and +Z (2). The ramp's edges are parallel to y or
    // lie in axial faces, so their bevels coincide with existing planes.
    assert_eq!(box_planes.len(), 7, "{box_planes:#?}");
    for (i, p) in box_planes.iter().enumerate() {
        for q in &box_planes[i + 1..] {
            assert!(!p.normal().abs_diff_eq(q.normal(), 1e-9), "duplicate {p:?}");
        }
        assert!(
            (b.support(p.normal()) - p.dist()).abs() < 1e-9,
            "{p:?} does not support"
        );
    }
}

#[test]
fn rotated_box_gets_bevels_through_its_edges() {
    // A cube rotated 30 degrees about z and 20 about x: every edge is oblique.
    let (sz, cz) = 30f64.to_radians().sin_cos();
    let (sx, cx) = 20f64.to_radians().sin_cos();
    let rot = |v: DVec3| {
        let v = DVec3::new(v.x, v.y * cx - v.z * sx, v.y * sx + v.z * cx);
        DVec3::new(v.x * cz - v.y * sz, v.x * sz + v.y * cz, v.z)
    };
    let planes: Vec<Plane> = [
        DVec3::X,
        DVec3::NEG_X,
        DVec3::Y,
        DVec3::NEG_Y,
        DVec3::Z,
        DVec3::NEG_Z,
    ]
    .into_iter()
    .map(|n| Plane::new(rot(n), 10.0).unwrap())
    .collect();
    let b = Brush::from_planes(&planes).unwrap();
    assert_eq!(b.vertices().len(), 8);
    assert!((b.volume() - 8000.0).abs() < 1e-6);
    let box_planes = b.box_planes();
    assert!(
        box_planes.len() > 6 + 6,
        "faces + axials + bevels: {}",
        box_planes.len()
    );
    for p in box_planes {
        assert!((b.support(p.normal()) - p.dist()).abs() < 1e-9);
        // Every bevel passes through at least two vertices (an edge) or is axial at a vertex.
        let touching = b
            .vertices()
            .iter()
            .filter(|v| (p.signed_distance(**v)).abs() < 1e-9)
            .count();
        assert!(touching >= 1);
    }
}

#[test]
fn closest_point_and_plane_distance() {
    let b = cube(0.0, 10.0);
    assert_eq!(
        b.closest_point(DVec3::new(5.0, 5.0, 5.0)),
        DVec3::new(5.0, 5.0, 5.0)
    );
    assert_eq!(
        b.closest_point(DVec3::new(15.0, 5.0, 5.0)),
        DVec3::new(10.0, 5.0, 5.0)
    );
    assert_eq!(
        b.closest_point(DVec3::new(15.0, 15.0, 15.0)),
        DVec3::splat(10.0)
    );
    assert_eq!(b.plane_distance(DVec3::new(5.0, 5.0, 12.0)), 2.0);
    assert_eq!(b.plane_distance(DVec3::new(5.0, 5.0, 9.0)), -1.0);
}

/// The largest distance of a vertex on exactly three faces from those faces' planes (more faces
/// through one vertex need not meet in a point: hulls of nearly coplanar points), and of every box
/// plane's support from its distance (bevels are built from vertices).
fn worst_vertex_error(b: &Brush) -> f64 {
    let mut faces_through = vec![0usize; b.vertices().len()];
    for face in b.faces() {
        for &v in &face.vertices {
            faces_through[v as usize] += 1;
        }
    }
    let mut worst = 0.0f64;
    for face in b.faces() {
        for &v in &face.vertices {
            if faces_through[v as usize] == 3 {
                worst = worst.max(face.plane.signed_distance(b.vertices()[v as usize]).abs());
            }
        }
    }
    if faces_through.iter().all(|&n| n == 3) {
        for plane in b.box_planes() {
            worst = worst.max((b.support(plane.normal()) - plane.dist()).abs());
        }
    }
    worst
}

/// Regression: vertices came from clipping a square of half side 4 * 2^20 by every other plane,
/// which left them up to ~1e-9 units off their own planes (and the bevels built from them
/// inherited it); the onion compiler, cutting at 2.5e-10, then split faces into slivers. Each
/// vertex is now recomputed from the three best-conditioned planes through it.
#[test]
fn vertices_lie_on_their_planes() {
    use crate::generate::{RandomBoxes, Rng, random_convex_brush};
    let shape = crate::shape::BoxShape {
        mins: DVec3::new(-16.0, -16.0, -24.0),
        maxs: DVec3::new(16.0, 16.0, 32.0),
    };
    let mut worst = 0.0f64;
    for b in RandomBoxes::BENCHMARK.scaled(300).brushes() {
        worst = worst.max(worst_vertex_error(&b));
        let e = crate::expand::box_expanded_brush(&b, &shape).unwrap();
        worst = worst.max(worst_vertex_error(&e));
    }
    assert!(worst < 2e-11, "a box vertex is {worst:e} off its plane");
    // Hulls of random points have nearly parallel faces; their vertices are off by the
    // conditioning of the planes through them (they were off by up to ~1e-6 after welding).
    let mut worst = 0.0f64;
    let mut rng = Rng::new(5);
    for _ in 0..300 {
        let centre = DVec3::new(
            rng.range(-4000.0, 4000.0),
            rng.range(-4000.0, 4000.0),
            rng.range(-4000.0, 4000.0),
        );
        let radius = rng.range(8.0, 300.0);
        let b = random_convex_brush(&mut rng, centre, radius, 12);
        worst = worst.max(worst_vertex_error(&b));
        let e = crate::expand::box_expanded_brush(&b, &shape).unwrap();
        worst = worst.max(worst_vertex_error(&e));
    }
    assert!(worst < 1e-8, "a hull vertex is {worst:e} off its plane");
}

#[test]
fn a_flat_brush_is_a_polygon_seen_from_both_sides() {
    let square = [
        DVec3::new(0.0, 0.0, 8.0),
        DVec3::new(64.0, 0.0, 8.0),
        DVec3::new(64.0, 64.0, 8.0),
        DVec3::new(0.0, 64.0, 8.0),
    ];
    let b = Brush::from_polygon(&square).unwrap();
    assert!(b.is_flat());
    assert_eq!(b.faces().len(), 2);
    assert_eq!(b.vertices().len(), 4);
    assert_eq!(b.edges().len(), 4);
    for e in b.edges() {
        assert_eq!(e.faces, [0, 1], "every edge is shared by the two faces");
    }
    assert_eq!(b.faces()[0].plane.normal(), DVec3::Z);
    assert_eq!(b.faces()[1].plane.normal(), DVec3::NEG_Z);
    assert_eq!(b.faces()[0].plane.dist(), 8.0);
    assert_eq!(b.faces()[1].plane.dist(), -8.0);
    assert_eq!(b.volume(), 0.0);
    // The face planes both ways and the four axial planes of its sides: the Minkowski sum with
    // any box (the square is axial, so no edge bevel is needed).
    assert_eq!(b.box_planes().len(), 6);
    // Either winding is the same facet.
    let mut reversed = square;
    reversed.reverse();
    let r = Brush::from_polygon(&reversed).unwrap();
    assert_eq!(r.faces()[0].plane.normal(), DVec3::NEG_Z);
    // Closest points: above, beside, and on its plane outside it.
    assert_eq!(
        b.closest_point(DVec3::new(5.0, 6.0, 20.0)),
        DVec3::new(5.0, 6.0, 8.0)
    );
    assert_eq!(
        b.closest_point(DVec3::new(5.0, 6.0, -20.0)),
        DVec3::new(5.0, 6.0, 8.0)
    );
    assert_eq!(
        b.closest_point(DVec3::new(80.0, 6.0, 8.0)),
        DVec3::new(64.0, 6.0, 8.0)
    );
    assert!(!cube(0.0, 1.0).is_flat());
    assert!(cube(0.0, 1.0).flat_polygon().is_none());
}

#[test]
fn a_tilted_flat_brush_has_edge_bevels_that_support_it() {
    let b = Brush::from_polygon(&[
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(40.0, 10.0, 30.0),
        DVec3::new(-10.0, 50.0, 20.0),
    ])
    .unwrap();
    assert!(b.box_planes().len() > 2 + 6);
    for p in b.box_planes() {
        let support = b.support(p.normal());
        assert!(
            (support - p.dist()).abs() < 1e-9,
            "{p:?} does not support the facet"
        );
    }
}

#[test]
fn bad_polygons_are_refused() {
    let z = |x: f64, y: f64, z: f64| DVec3::new(x, y, z);
    assert_eq!(
        Brush::from_polygon(&[z(0.0, 0.0, 0.0), z(1.0, 0.0, 0.0)]).unwrap_err(),
        BrushError::Empty
    );
    // Collinear points, and a repeated point.
    assert_eq!(
        Brush::from_polygon(&[z(0.0, 0.0, 0.0), z(1.0, 0.0, 0.0), z(2.0, 0.0, 0.0)]).unwrap_err(),
        BrushError::Empty
    );
    assert_eq!(
        Brush::from_polygon(&[z(0.0, 0.0, 0.0), z(1.0, 0.0, 0.0), z(1.0, 0.0, 0.0)]).unwrap_err(),
        BrushError::Empty
    );
    assert!(matches!(
        Brush::from_polygon(&[
            z(0.0, 0.0, 0.0),
            z(10.0, 0.0, 0.0),
            z(10.0, 10.0, 1.0),
            z(0.0, 10.0, 0.0)
        ])
        .unwrap_err(),
        BrushError::NotPlanar { .. }
    ));
    // A dart: one reflex corner.
    assert_eq!(
        Brush::from_polygon(&[
            z(0.0, 0.0, 0.0),
            z(10.0, 5.0, 0.0),
            z(0.0, 10.0, 0.0),
            z(3.0, 5.0, 0.0)
        ])
        .unwrap_err(),
        BrushError::NotConvex
    );
    assert!(matches!(
        Brush::from_polygon(&[z(0.0, 0.0, 0.0), z(1.0, f64::NAN, 0.0), z(0.0, 1.0, 0.0)])
            .unwrap_err(),
        BrushError::DegeneratePlane { .. }
    ));
    assert!(matches!(
        Brush::from_polygon(&[z(0.0, 0.0, 0.0), z(3e6, 0.0, 0.0), z(0.0, 1.0, 0.0)]).unwrap_err(),
        BrushError::OutOfWorld { .. }
    ));
    // A vertex in the middle of an edge is dropped, not an error.
    let b = Brush::from_polygon(&[
        z(0.0, 0.0, 0.0),
        z(5.0, 0.0, 0.0),
        z(10.0, 0.0, 0.0),
        z(0.0, 10.0, 0.0),
    ])
    .unwrap();
    assert_eq!(b.vertices().len(), 3);
}

#[test]
fn the_prism_of_a_facet_is_its_sum_with_a_vertical_segment() {
    // Tilted: a closed polyhedron with the facet raised and lowered.
    let tilted = Brush::from_polygon(&[
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(40.0, 0.0, 30.0),
        DVec3::new(0.0, 50.0, 10.0),
    ])
    .unwrap();
    let prism = tilted.flat_prism(20.0);
    assert!(!prism.is_flat());
    assert_eq!(prism.faces().len(), 5);
    assert_eq!(prism.vertices().len(), 6);
    assert_eq!(prism.edges().len(), 9);
    let expected = Aabb::new(DVec3::new(0.0, 0.0, -20.0), DVec3::new(40.0, 50.0, 50.0));
    assert_eq!(prism.bounds(), expected);
    // Its volume: area of the facet's shadow times the height 40.
    assert!((prism.volume() - 0.5 * 40.0 * 50.0 * 40.0).abs() < 1e-6);
    // Vertical: a flat brush again, the facet stretched up and down.
    let vertical = Brush::from_polygon(&[
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(40.0, 0.0, 0.0),
        DVec3::new(20.0, 0.0, 30.0),
    ])
    .unwrap();
    let prism = vertical.flat_prism(5.0);
    assert!(prism.is_flat());
    assert_eq!(prism.vertices().len(), 5);
    assert_eq!(
        prism.bounds(),
        Aabb::new(DVec3::new(0.0, 0.0, -5.0), DVec3::new(40.0, 0.0, 35.0))
    );
}

/// A brush written with more than `MAX_BRUSH_FACES` planes is refused before it is built
/// (issue 36: building costs about the square of the planes); `from_planes` itself takes any
/// number (configuration-space brushes have several times their brush's faces).
#[test]
fn written_brushes_have_at_most_max_brush_faces() {
    use crate::tolerance::MAX_BRUSH_FACES;
    let disc = |sides: usize| -> Vec<Plane> {
        let mut planes: Vec<Plane> = (0..sides)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / sides as f64;
                Plane::new(DVec3::new(a.cos(), a.sin(), 0.0), 512.0).unwrap()
            })
            .collect();
        planes.push(Plane::new(DVec3::Z, 64.0).unwrap());
        planes.push(Plane::new(DVec3::NEG_Z, 0.0).unwrap());
        planes
    };
    let over = disc(MAX_BRUSH_FACES - 1);
    assert_eq!(
        Brush::from_written_planes(&over),
        Err(BrushError::TooManyFaces {
            count: MAX_BRUSH_FACES + 1,
            limit: MAX_BRUSH_FACES
        })
    );
    assert!(Brush::from_written_planes(&disc(MAX_BRUSH_FACES - 2)).is_ok());
}
