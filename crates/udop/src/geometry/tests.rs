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
