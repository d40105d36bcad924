//! Every Section 3 distance against dense sampling of the geometry: the distance is never above
//! a sample (it is a minimum) and is within the sampling step of the smallest sample.

use cspace_geom::generate::{Rng, random_convex_brush};
use glam::{DVec2, DVec3};

use super::bezier::{bernstein2, bernstein3, cubic_minimum, quadratic_minimum};
use super::*;

const SAMPLES: usize = 4000;

fn rng_vec2(rng: &mut Rng, scale: f64) -> DVec2 {
    DVec2::new(rng.range(-scale, scale), rng.range(-scale, scale))
}

fn rng_vec3(rng: &mut Rng, scale: f64) -> DVec3 {
    DVec3::new(
        rng.range(-scale, scale),
        rng.range(-scale, scale),
        rng.range(-scale, scale),
    )
}

fn unit2(rng: &mut Rng) -> DVec2 {
    let a = rng.range(0.0, std::f64::consts::TAU);
    DVec2::new(a.cos(), a.sin())
}

/// Checks `distance` against the samples: `distance <= min + tolerance_below` never fails for a
/// true minimum, and `distance >= min - slack` holds when the samples are dense enough.
fn check(distance: f64, samples: impl Iterator<Item = f64>, slack: f64, what: &str) {
    let min = samples.fold(f64::INFINITY, f64::min);
    assert!(
        distance <= min + 1e-9,
        "{what}: distance {distance} is above the smallest sample {min} (by {})",
        distance - min
    );
    assert!(
        distance >= min - slack,
        "{what}: distance {distance} is below the smallest sample {min} by {} > {slack}",
        min - distance
    );
}

#[test]
fn point_and_segment_distances_match_sampling() {
    let mut rng = Rng::new(1);
    for _ in 0..200 {
        let c = rng_vec3(&mut rng, 5.0);
        let v = rng.unit_vector();
        let p = rng_vec3(&mut rng, 5.0);
        assert_eq!(Point(p).signed_distance(c, v), (p - c).dot(v));
        let s = Segment {
            a: rng_vec3(&mut rng, 5.0),
            b: rng_vec3(&mut rng, 5.0),
        };
        let samples = (0..=SAMPLES).map(|i| {
            let t = i as f64 / SAMPLES as f64;
            (s.a + (s.b - s.a) * t - c).dot(v)
        });
        check(s.signed_distance(c, v), samples, 1e-9, "segment");
    }
}

#[test]
fn polygon_ball_and_box_distances_match_sampling() {
    let mut rng = Rng::new(2);
    for _ in 0..100 {
        let c = rng_vec2(&mut rng, 3.0);
        let v = unit2(&mut rng);
        // A convex polygon: points on a circle in angular order.
        let centre = rng_vec2(&mut rng, 3.0);
        let n = 3 + rng.below(6);
        let mut angles: Vec<f64> = (0..n)
            .map(|_| rng.range(0.0, std::f64::consts::TAU))
            .collect();
        angles.sort_by(f64::total_cmp);
        let vertices: Vec<DVec2> = angles
            .iter()
            .map(|a| centre + DVec2::new(a.cos(), a.sin()) * 2.0)
            .collect();
        let polygon = Polygon {
            vertices: vertices.clone(),
        };
        // Samples on the edges and inside (fans from vertex 0).
        let mut samples = Vec::new();
        for i in 0..n {
            let (a, b) = (vertices[i], vertices[(i + 1) % n]);
            for s in 0..=200 {
                samples.push(a + (b - a) * (s as f64 / 200.0));
            }
        }
        for _ in 0..200 {
            let (i, s, t) = (1 + rng.below(n - 2), rng.next_f64(), rng.next_f64());
            let (s, t) = if s + t > 1.0 {
                (1.0 - s, 1.0 - t)
            } else {
                (s, t)
            };
            samples.push(
                vertices[0] + (vertices[i] - vertices[0]) * s + (vertices[i + 1] - vertices[0]) * t,
            );
        }
        check(
            polygon.signed_distance(c, v),
            samples.iter().map(|p| (*p - c).dot(v)),
            1e-9,
            "polygon",
        );

        let ball = Ball {
            centre: rng_vec3(&mut rng, 3.0),
            radius: rng.range(0.1, 2.0),
        };
        let (c3, v3) = (rng_vec3(&mut rng, 3.0), rng.unit_vector());
        let samples =
            (0..SAMPLES).map(|_| (ball.centre + rng.unit_vector() * ball.radius - c3).dot(v3));
        // Random sphere points come within about radius * (angle step)^2 of the extreme one.
        check(
            ball.signed_distance(c3, v3),
            samples,
            0.05 * ball.radius,
            "sphere",
        );

        let lo = rng_vec3(&mut rng, 3.0);
        let cube = AxisBox {
            min: lo,
            max: lo
                + DVec3::new(
                    rng.range(0.0, 2.0),
                    rng.range(0.0, 2.0),
                    rng.range(0.0, 2.0),
                ),
        };
        let corners = (0..8).map(|i| {
            DVec3::new(
                if i & 1 == 0 { cube.min.x } else { cube.max.x },
                if i & 2 == 0 { cube.min.y } else { cube.max.y },
                if i & 4 == 0 { cube.min.z } else { cube.max.z },
            )
        });
        let inside = (0..200).map(|_| {
            cube.min
                + (cube.max - cube.min) * DVec3::new(rng.next_f64(), rng.next_f64(), rng.next_f64())
        });
        let samples: Vec<f64> = corners.chain(inside).map(|p| (p - c3).dot(v3)).collect();
        check(
            cube.signed_distance(c3, v3),
            samples.into_iter(),
            1e-12,
            "box",
        );
        let aabb = cspace_geom::Aabb::new(cube.min, cube.max);
        assert_eq!(aabb.signed_distance(c3, v3), cube.signed_distance(c3, v3));
    }
}

#[test]
fn brush_distance_is_the_brush_support() {
    let mut rng = Rng::new(3);
    for _ in 0..50 {
        let centre = rng_vec3(&mut rng, 20.0);
        let brush = random_convex_brush(&mut rng, centre, 10.0, 12);
        let c = rng_vec3(&mut rng, 30.0);
        let v = rng.unit_vector();
        let d = brush.signed_distance(c, v);
        // The support function of the brush in -v.
        assert!((d - (-brush.support(-v) - c.dot(v))).abs() < 1e-9);
        // Every face polygon reaches no nearer, and one reaches exactly as near.
        let faces: Vec<f64> = (0..brush.faces().len())
            .map(|i| brush.face_polygon(i).signed_distance(c, v))
            .collect();
        check(d, faces.into_iter(), 1e-12, "brush faces");
        let inflated = Inflated {
            geometry: &brush,
            margin: 0.5,
        };
        assert_eq!(inflated.signed_distance(c, v), d - 0.5);
    }
}

#[test]
fn bezier_minima_match_dense_sampling() {
    let mut rng = Rng::new(4);
    for _ in 0..2000 {
        let d2 = [
            rng.range(-1.0, 1.0),
            rng.range(-3.0, 3.0),
            rng.range(-1.0, 1.0),
        ];
        let (t, value) = quadratic_minimum(d2);
        assert!((bernstein2(d2, t) - value).abs() < 1e-15);
        check(
            value,
            (0..=SAMPLES).map(|i| bernstein2(d2, i as f64 / SAMPLES as f64)),
            1e-6,
            "quadratic Bernstein",
        );
        let d3 = [
            rng.range(-1.0, 1.0),
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
            rng.range(-1.0, 1.0),
        ];
        let (t, value) = cubic_minimum(d3);
        assert!((bernstein3(d3, t) - value).abs() < 1e-15);
        check(
            value,
            (0..=SAMPLES).map(|i| bernstein3(d3, i as f64 / SAMPLES as f64)),
            1e-6,
            "cubic Bernstein",
        );
    }
    // Extrema inside the interval are found where the paper's formulas put them.
    let (t, value) = quadratic_minimum([1.0, -1.0, 1.0]);
    assert_eq!((t, value), (0.5, 0.0));
    // 3 t^2 - 2 t^3 ... a cubic with a minimum inside: d = [0, -1, -1, 0] has it at t = 1/2.
    let (t, value) = cubic_minimum([0.0, -1.0, -1.0, 0.0]);
    assert!((t - 0.5).abs() < 1e-15 && (value + 0.75).abs() < 1e-15);
    // A degenerate cubic whose derivative is linear (Delta^2 e_0 = 0): d = [0, -1, -1.5, -1.5]
    // has e = [-1, -0.5, 0], a = 0, and its minimum at t = 1.
    let (t, value) = cubic_minimum([0.0, -1.0, -1.5, -1.5]);
    assert_eq!((t, value), (1.0, -1.5));
}

#[test]
fn bezier_curve_distances_match_sampling_the_curve() {
    let mut rng = Rng::new(5);
    for _ in 0..300 {
        let c = rng_vec2(&mut rng, 2.0);
        let v = unit2(&mut rng);
        let q = QuadraticBezier {
            points: [
                rng_vec2(&mut rng, 3.0),
                rng_vec2(&mut rng, 3.0),
                rng_vec2(&mut rng, 3.0),
            ],
        };
        check(
            q.signed_distance(c, v),
            (0..=SAMPLES).map(|i| (q.at(i as f64 / SAMPLES as f64) - c).dot(v)),
            1e-5,
            "quadratic curve",
        );
        let cubic = CubicBezier {
            points: [
                rng_vec2(&mut rng, 3.0),
                rng_vec2(&mut rng, 3.0),
                rng_vec2(&mut rng, 3.0),
                rng_vec2(&mut rng, 3.0),
            ],
        };
        check(
            cubic.signed_distance(c, v),
            (0..=SAMPLES).map(|i| (cubic.at(i as f64 / SAMPLES as f64) - c).dot(v)),
            1e-5,
            "cubic curve",
        );
    }
}

/// A random biquadratic net: `scale` wide around the origin, with a collapsed first row (a
/// cone's apex) or all points in one plane now and then.
fn random_net<V: Vector>(
    rng: &mut Rng,
    scale: f64,
    random: impl Fn(&mut Rng, f64) -> V,
) -> [[V; 3]; 3] {
    let mut net = [[V::ZERO; 3]; 3];
    for row in &mut net {
        for p in row.iter_mut() {
            *p = random(rng, scale);
        }
    }
    match rng.below(6) {
        0 => net[0] = [net[0][0]; 3],
        1 if V::DIM == 3 => {
            // Flatten onto the plane through the origin normal to the last axis.
            for row in &mut net {
                for p in row.iter_mut() {
                    *p = V::from_fn(|i| if i + 1 == V::DIM { 0.0 } else { p.component(i) });
                }
            }
        }
        _ => {}
    }
    net
}

/// The surface bound against a dense grid of surface points: the lower bound is never above a
/// sample, the upper within the gap of it, and both within the grid's reach of the smallest
/// sample (an interior or border minimum has no slope, so a grid of step `1/n` comes within
/// `O(1/n^2)` of it).
fn check_surface<V: Vector>(patch: &BiquadraticPatch<V>, c: V, v: V, what: &str) {
    const N: usize = 160;
    let bounds = patch.distance_bounds(c, v);
    assert!(
        bounds.upper - bounds.lower <= cspace_geom::tolerance::BEZIER_GAP,
        "{what}: bounds {bounds:?} are further apart than the gap"
    );
    let samples = (0..=N).flat_map(|i| {
        (0..=N).map(move |j| (patch.at(i as f64 / N as f64, j as f64 / N as f64) - c).dot(v))
    });
    check(bounds.lower, samples, 2e-3, what);
    assert_eq!(patch.signed_distance(c, v), bounds.lower);
}

#[test]
fn biquadratic_surface_bounds_match_dense_sampling() {
    let mut rng = Rng::new(6);
    for _ in 0..150 {
        let patch = BiquadraticPatch {
            net: random_net(&mut rng, 3.0, rng_vec3),
        };
        let (c, v) = (rng_vec3(&mut rng, 4.0), rng.unit_vector());
        check_surface(&patch, c, v, "3D piece");
        // Along an axis, where corners and borders tie.
        check_surface(&patch, c, DVec3::Z, "3D piece along z");
        let plane = BiquadraticPatch {
            net: random_net(&mut rng, 3.0, rng_vec2),
        };
        let (c, v) = (rng_vec2(&mut rng, 4.0), unit2(&mut rng));
        check_surface(&plane, c, v, "2D piece");
    }
}

#[test]
fn a_bowl_has_its_minimum_inside_and_the_bound_finds_it() {
    // z = (2s - 1)^2 + (2t - 1)^2 over [0, 1]^2 scaled: the net of the paraboloid, whose
    // minimum 0 at the centre is below every row and column border (rows and columns bound
    // it at -1 from below before halving).
    let net: [[DVec3; 3]; 3] = std::array::from_fn(|a| {
        std::array::from_fn(|b| {
            let z = |k: usize| if k == 1 { -1.0 } else { 1.0 };
            DVec3::new(a as f64, b as f64, z(a) + z(b))
        })
    });
    let patch = BiquadraticPatch { net };
    assert!((patch.at(0.5, 0.5).z - 0.0).abs() < 1e-15);
    let bounds = patch.distance_bounds(DVec3::ZERO, DVec3::Z);
    assert!(
        bounds.lower <= 0.0 && bounds.lower > -cspace_geom::tolerance::BEZIER_GAP,
        "{bounds:?}"
    );
    assert!(
        bounds.upper >= 0.0 && bounds.upper - bounds.lower <= cspace_geom::tolerance::BEZIER_GAP
    );
    // A non-finite control point gives NaN (a k-UDOP collapses on it).
    let mut bad = net;
    bad[1][1].x = f64::NAN;
    assert!(
        BiquadraticPatch { net: bad }
            .signed_distance(DVec3::ZERO, DVec3::X)
            .is_nan()
    );
}

/// Dense samples of a parametric curve on `[a, b]`.
fn curve_samples<V: Vector>(p: &impl Fn(f64) -> V, [a, b]: [f64; 2]) -> Vec<V> {
    (0..=SAMPLES)
        .map(|i| p(a + (b - a) * i as f64 / SAMPLES as f64))
        .collect()
}

#[test]
fn hermite_approximations_bound_parametric_boundaries() {
    let tau = std::f64::consts::TAU;
    // An ellipse: p'' = -p and p'''' = p, so every even derivative is at most max(a, b) long.
    let (ea, eb) = (3.0, 1.5);
    let ellipse = |t: f64| DVec2::new(ea * t.cos(), eb * t.sin());
    let ellipse_d = |t: f64| DVec2::new(-ea * t.sin(), eb * t.cos());
    // A helix: the same for its circle, nothing along its axis.
    let r = 2.0;
    let helix = |t: f64| DVec3::new(r * t.cos(), r * t.sin(), 0.5 * t);
    let helix_d = |t: f64| DVec3::new(-r * t.sin(), r * t.cos(), 0.5);
    let mut rng = Rng::new(7);
    for (order, pieces) in [(HermiteOrder::Linear, 24), (HermiteOrder::Cubic, 6)] {
        let bound = DerivativeBound::Euclidean(ea);
        let approx =
            HermiteApproximation::new(ellipse, ellipse_d, [0.0, tau], pieces, order, bound)
                .unwrap();
        let samples = curve_samples(&ellipse, [0.0, tau]);
        for _ in 0..200 {
            let (c, v) = (rng_vec2(&mut rng, 5.0), unit2(&mut rng));
            // Never above the curve; at most the error term twice below it (the
            // approximation is within the error of the curve).
            check(
                approx.signed_distance(c, v),
                samples.iter().map(|p| (*p - c).dot(v)),
                2.0 * approx.error() + 1e-6,
                "ellipse",
            );
        }
        let approx = HermiteApproximation::new(
            helix,
            helix_d,
            [0.0, 2.0 * tau],
            2 * pieces,
            order,
            DerivativeBound::Euclidean(r),
        )
        .unwrap();
        let samples = curve_samples(&helix, [0.0, 2.0 * tau]);
        for _ in 0..200 {
            let (c, v) = (rng_vec3(&mut rng, 5.0), rng.unit_vector());
            check(
                approx.signed_distance(c, v),
                samples.iter().map(|p| (*p - c).dot(v)),
                2.0 * approx.error() + 1e-6,
                "helix",
            );
        }
    }
    // The error terms: M h^2 / 8 and M h^4 / 384, the componentwise bound sqrt(D) times more;
    // twice the pieces, a quarter and a sixteenth of the error.
    let h = tau / 6.0;
    let make = |pieces, order, bound| {
        HermiteApproximation::new(ellipse, ellipse_d, [0.0, tau], pieces, order, bound).unwrap()
    };
    let euclid = DerivativeBound::Euclidean(ea);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs();
    assert!(close(
        make(6, HermiteOrder::Linear, euclid).error(),
        ea * h * h / 8.0
    ));
    assert!(close(
        make(6, HermiteOrder::Cubic, euclid).error(),
        ea * h.powi(4) / 384.0
    ));
    assert!(close(
        make(6, HermiteOrder::Cubic, DerivativeBound::Componentwise(ea)).error(),
        2f64.sqrt() * ea * h.powi(4) / 384.0
    ));
    assert!(close(
        make(12, HermiteOrder::Cubic, euclid).error(),
        make(6, HermiteOrder::Cubic, euclid).error() / 16.0
    ));
    let cubic = make(6, HermiteOrder::Cubic, euclid);
    assert_eq!(cubic.len(), 6);
    // The pieces interpolate the knots.
    assert!(cubic.pieces()[1].at(0.0).abs_diff_eq(ellipse(h), 1e-12));
    assert!(cubic.pieces()[5].at(1.0).abs_diff_eq(ellipse(tau), 1e-12));
}

#[test]
fn hermite_approximations_refuse_bad_input() {
    let p = |t: f64| DVec2::new(t, t * t);
    let d = |t: f64| DVec2::new(1.0, 2.0 * t);
    let euclid = DerivativeBound::Euclidean(2.0);
    let new = |range, pieces, bound| {
        HermiteApproximation::new(p, d, range, pieces, HermiteOrder::Cubic, bound)
    };
    assert_eq!(
        new([1.0, 1.0], 4, euclid),
        Err(ParametricError::Range(1.0, 1.0))
    );
    assert_eq!(
        new([0.0, f64::INFINITY], 4, euclid),
        Err(ParametricError::Range(0.0, f64::INFINITY))
    );
    assert_eq!(new([0.0, 1.0], 0, euclid), Err(ParametricError::NoPieces));
    assert_eq!(
        new([0.0, 1.0], 4, DerivativeBound::Componentwise(-1.0)),
        Err(ParametricError::Bound(-1.0))
    );
    let singular = HermiteApproximation::new(
        |t: f64| DVec2::new(1.0 / t, 0.0),
        d,
        [0.0, 1.0],
        2,
        HermiteOrder::Linear,
        euclid,
    );
    assert_eq!(singular, Err(ParametricError::NonFinite(0.0)));
    assert!(
        ParametricError::Range(1.0, 0.0)
            .to_string()
            .contains("[1, 0]")
    );
}
