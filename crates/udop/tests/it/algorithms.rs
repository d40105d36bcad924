//! Algorithm 2 (ray) and Algorithm 3 (containment) against brute force on the polytope of
//! Section 4.1, in the plane and in space; the three conversions agree with each other.

use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_udop::geometry::{Ball, Point, Segment};
use cspace_udop::{Directions, Kdop, Udop};
use glam::{DVec2, DVec3};

/// Margin below which a brute-force verdict is too close to call (units).
const CLOSE: f64 = 1e-9;

fn random_udop_3d(rng: &mut Rng, directions: &Arc<Directions<DVec3>>) -> Udop<DVec3> {
    let mut udop = Udop::capped(directions.clone(), DVec3::ZERO, 50.0);
    for _ in 0..12 {
        let p = rng.unit_vector() * rng.range(5.0, 40.0);
        if rng.next_f64() < 0.5 {
            udop.insert(&Point(p));
        } else if rng.next_f64() < 0.5 {
            udop.insert(&Ball {
                centre: p * 1.5,
                radius: rng.range(1.0, 8.0),
            });
        } else {
            udop.insert(&Segment {
                a: p,
                b: p + rng.unit_vector() * 20.0,
            });
        }
    }
    udop
}

fn random_udop_2d(rng: &mut Rng, directions: &Arc<Directions<DVec2>>) -> Udop<DVec2> {
    let mut udop = Udop::capped(directions.clone(), DVec2::new(1.0, -2.0), 50.0);
    for _ in 0..10 {
        let a = rng.range(0.0, std::f64::consts::TAU);
        let p = DVec2::new(1.0, -2.0) + DVec2::new(a.cos(), a.sin()) * rng.range(3.0, 40.0);
        udop.insert(&Point(p));
    }
    udop
}

fn direction_sets_3d() -> Vec<Arc<Directions<DVec3>>> {
    let mut sets: Vec<_> = [6, 14, 18, 26]
        .into_iter()
        .map(|k| Arc::new(Directions::<DVec3>::standard(k).unwrap()))
        .collect();
    sets.push(Arc::new(Directions::<DVec3>::evenly_spread(20).unwrap()));
    sets
}

/// The parameter interval of segment `a -> b` behind every plane (brute force: clip by each).
fn clip_segment(planes: &[(DVec3, f64)], a: DVec3, b: DVec3) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for (n, d) in planes {
        let (da, db) = (n.dot(a) - d, n.dot(b) - d);
        if da >= 0.0 && db >= 0.0 {
            return None;
        }
        if da > 0.0 {
            lo = lo.max(da / (da - db));
        } else if db > 0.0 {
            hi = hi.min(da / (da - db));
        }
    }
    (lo < hi).then_some((lo, hi))
}

#[test]
fn ray_intersection_matches_clipping_by_the_polyhedron_faces() {
    let mut rng = Rng::new(21);
    let (mut hits, mut checked) = (0, 0);
    for directions in direction_sets_3d() {
        for _ in 0..40 {
            let udop = random_udop_3d(&mut rng, &directions);
            let brush = udop
                .polyhedron()
                .expect("a capped k-UDOP around a free centre");
            let planes: Vec<(DVec3, f64)> =
                brush.planes().map(|p| (p.normal(), p.dist())).collect();
            for _ in 0..50 {
                let a = rng.unit_vector() * rng.range(0.0, 80.0);
                let b = rng.unit_vector() * rng.range(0.0, 80.0);
                let ours = udop.segment_interval(a, b);
                let brute = clip_segment(&planes, a, b);
                checked += 1;
                let length = (b - a).length();
                match (ours, brute) {
                    (Some((t1, t2)), Some((u1, u2))) => {
                        hits += 1;
                        assert!(
                            (t1 - u1).abs() * length < 1e-7 && (t2 - u2).abs() * length < 1e-7,
                            "{}: Algorithm 2 gives ({t1}, {t2}), clipping ({u1}, {u2})",
                            directions.name()
                        );
                    }
                    (None, None) => {}
                    (ours, brute) => {
                        // Only a segment grazing the polytope may disagree.
                        let span = ours.or(brute).map_or(0.0, |(s, t)| (t - s) * length);
                        assert!(
                            span < 1e-6,
                            "{}: Algorithm 2 gives {ours:?}, clipping {brute:?}",
                            directions.name()
                        );
                    }
                }
                // Sampled points agree with the open region and with the planes.
                for i in 0..=20 {
                    let t = i as f64 / 20.0;
                    let p = a + (b - a) * t;
                    let inside_planes = planes
                        .iter()
                        .map(|(n, d)| n.dot(p) - d)
                        .fold(f64::MIN, f64::max);
                    if inside_planes < -CLOSE {
                        assert!(udop.contains_point(p));
                        assert!(ours.is_some_and(|(s, u)| s <= t && t <= u));
                    } else if inside_planes > CLOSE {
                        assert!(!udop.contains_point(p));
                        assert!(!ours.is_some_and(|(s, u)| s < t && t < u));
                    }
                }
            }
        }
    }
    assert!(
        hits > checked / 4,
        "too few segments met the polytopes: {hits} of {checked}"
    );
}

#[test]
fn containment_matches_the_vertices_of_the_contained_kdop() {
    let mut rng = Rng::new(22);
    let (mut inside, mut outside) = (0, 0);
    for directions in direction_sets_3d() {
        for _ in 0..40 {
            let udop = random_udop_3d(&mut rng, &directions);
            for _ in 0..40 {
                let centre = rng.unit_vector() * rng.range(0.0, 10.0);
                let spread = rng.range(0.5, 12.0);
                let points: Vec<DVec3> = (0..6)
                    .map(|_| centre + rng.unit_vector() * rng.range(0.0, spread))
                    .collect();
                let kdop = Kdop::of_points(directions.clone(), centre, points);
                // Brute force: the k-DOP (tight around its points) is inside the open region
                // exactly when every vertex of its polytope is.
                let as_udop =
                    Udop::from_distances(directions.clone(), centre, kdop.extents().to_vec())
                        .unwrap();
                let vertices = as_udop.vertices().expect("a bounded k-DOP with volume");
                let c = udop.centre();
                let mut slack = f64::INFINITY;
                for x in &vertices {
                    for (v, h) in directions.vectors().iter().zip(udop.distances()) {
                        slack = slack.min(h - (*x - c).dot(*v));
                    }
                }
                let ours = udop.contains_kdop(&kdop);
                if slack > 1e-7 {
                    assert!(
                        ours,
                        "{}: every vertex inside by {slack}",
                        directions.name()
                    );
                    inside += 1;
                } else if slack < -1e-7 {
                    assert!(
                        !ours,
                        "{}: a vertex outside by {}",
                        directions.name(),
                        -slack
                    );
                    outside += 1;
                }
            }
        }
    }
    assert!(
        inside > 100 && outside > 100,
        "{inside} inside, {outside} outside"
    );
}

#[test]
fn plane_queries_match_the_polygon() {
    let mut rng = Rng::new(23);
    for k in [3, 4, 5, 8, 13, 40] {
        let directions = Arc::new(Directions::<DVec2>::evenly_spread(k).unwrap());
        for _ in 0..40 {
            let udop = random_udop_2d(&mut rng, &directions);
            let polygon = udop.polygon().unwrap();
            // Section 4.1 both ways: the clipped polygon and the vertex enumeration agree.
            let vertices = udop.vertices().unwrap();
            assert_eq!(polygon.len(), vertices.len(), "k = {k}");
            for p in &polygon {
                assert!(vertices.iter().any(|q| q.distance(*p) < 1e-9));
            }
            // The edges of the counter-clockwise polygon bound the open region.
            let n = polygon.len();
            for _ in 0..200 {
                let x = udop.centre() + DVec2::new(rng.range(-60.0, 60.0), rng.range(-60.0, 60.0));
                let margin = (0..n)
                    .map(|i| {
                        let (a, b) = (polygon[i], polygon[(i + 1) % n]);
                        (b - a).perp_dot(x - a) / (b - a).length()
                    })
                    .fold(f64::INFINITY, f64::min);
                if margin > CLOSE {
                    assert!(udop.contains_point(x));
                } else if margin < -CLOSE {
                    assert!(!udop.contains_point(x));
                }
                let y = udop.centre() + DVec2::new(rng.range(-60.0, 60.0), rng.range(-60.0, 60.0));
                if let Some((t1, t2)) = udop.segment_interval(x, y) {
                    let mid = x + (y - x) * ((t1 + t2) * 0.5);
                    assert!(udop.contains_point(mid) || (t2 - t1) * x.distance(y) < 1e-9);
                    // Just beyond an interior end of the interval the segment is outside.
                    let step = 1e-6 / x.distance(y);
                    if t1 > step {
                        assert!(!udop.contains_point(x + (y - x) * (t1 - step)));
                    }
                    if t2 < 1.0 - step {
                        assert!(!udop.contains_point(x + (y - x) * (t2 + step)));
                    }
                }
            }
        }
    }
}

#[test]
fn algorithm_1_excludes_every_geometry_whatever_the_order() {
    let mut rng = Rng::new(24);
    let directions = Arc::new(Directions::<DVec3>::standard(26).unwrap());
    for _ in 0..50 {
        let points: Vec<DVec3> = (0..30)
            .map(|_| rng.unit_vector() * rng.range(0.0, 20.0))
            .collect();
        let forward = Udop::build(
            directions.clone(),
            DVec3::ZERO,
            points.iter().map(|p| Point(*p)),
        );
        let backward = Udop::build(
            directions.clone(),
            DVec3::ZERO,
            points.iter().rev().map(|p| Point(*p)),
        );
        for udop in [&forward, &backward] {
            for p in &points {
                assert!(!udop.contains_point(*p));
            }
        }
        // A centre on a point gives a degenerate k-UDOP that still excludes everything.
        let on = Udop::build(
            directions.clone(),
            points[0],
            points.iter().map(|p| Point(*p)),
        );
        assert!(!on.contains_centre());
        for p in &points {
            assert!(!on.contains_point(*p));
        }
    }
}

/// Section 3.5: k-UDOPs built at points inside a closed parametric boundary, from its Hermite
/// pieces (each a geometry of its own, less the error term), hold no point of the boundary and
/// contain their centres, for linear and cubic pieces and several direction sets. The boundary
/// is `p(t) = (3 cos t + 0.6 cos 3t, 2.2 sin t + 0.4 sin 2t)`: `|p''| <= 9.22` and
/// `|p''''| <= 52.32` (the components' bounds added in quadrature).
#[test]
fn udops_inside_a_parametric_boundary_hold_none_of_it() {
    use cspace_udop::geometry::{DerivativeBound, HermiteApproximation, HermiteOrder};
    let p = |t: f64| {
        DVec2::new(
            3.0 * t.cos() + 0.6 * (3.0 * t).cos(),
            2.2 * t.sin() + 0.4 * (2.0 * t).sin(),
        )
    };
    let dp = |t: f64| {
        DVec2::new(
            -3.0 * t.sin() - 1.8 * (3.0 * t).sin(),
            2.2 * t.cos() + 0.8 * (2.0 * t).cos(),
        )
    };
    let tau = std::f64::consts::TAU;
    let boundary: Vec<DVec2> = (0..20_000).map(|i| p(tau * i as f64 / 20_000.0)).collect();
    let mut rng = Rng::new(81);
    for (order, pieces, m) in [
        (HermiteOrder::Linear, 24, 9.22),
        (HermiteOrder::Cubic, 8, 52.32),
    ] {
        let approx = HermiteApproximation::new(
            p,
            dp,
            [0.0, tau],
            pieces,
            order,
            DerivativeBound::Euclidean(m),
        )
        .unwrap();
        for k in [8, 12, 32] {
            let directions = Arc::new(Directions::<DVec2>::evenly_spread(k).unwrap());
            for _ in 0..20 {
                let centre = DVec2::new(rng.range(-1.5, 1.5), rng.range(-1.0, 1.0));
                let udop = Udop::build(directions.clone(), centre, approx.pieces());
                assert!(udop.contains_centre(), "{order:?}, k = {k}, at {centre}");
                for q in &boundary {
                    assert!(
                        !udop.contains_point(*q),
                        "{order:?}, k = {k}: the k-UDOP at {centre} holds {q}"
                    );
                }
            }
        }
    }
}
