//! Times of impact against Blow's binary search in time on direct overlap tests.

use cspace_geom::generate::Rng;
use cspace_geom::{DVec3, Shape};

use super::*;

/// Direct overlap of two placed agents, by how much (positive: overlapping by at least that
/// margin), written without configuration spaces.
fn overlap(a: &Shape, pa: DVec3, b: &Shape, pb: DVec3) -> f64 {
    match (a, b) {
        (Shape::Sphere { radius: ra }, Shape::Sphere { radius: rb }) => ra + rb - pa.distance(pb),
        (Shape::Sphere { radius }, other) | (other, Shape::Sphere { radius }) => {
            let (centre, op) = if matches!(a, Shape::Sphere { .. }) {
                (pa, pb)
            } else {
                (pb, pa)
            };
            let local = centre - op;
            let closest = match other {
                Shape::Box(bx) => local.clamp(bx.mins, bx.maxs),
                Shape::Cylinder {
                    radius: r,
                    half_height: h,
                } => {
                    let xy = local.truncate();
                    let xy = if xy.length() > *r {
                        xy.normalize() * *r
                    } else {
                        xy
                    };
                    xy.extend(local.z.clamp(-h, *h))
                }
                _ => unreachable!(),
            };
            radius - local.distance(closest)
        }
        _ => {
            // Boxes and cylinders: z overlap and an xy overlap.
            let (za, zb) = (z_range(a, pa), z_range(b, pb));
            let z = (za.1.min(zb.1)) - (za.0.max(zb.0));
            let xy = match (a, b) {
                (Shape::Box(x), Shape::Box(y)) => {
                    let lo = (pa + x.mins).truncate().max((pb + y.mins).truncate());
                    let hi = (pa + x.maxs).truncate().min((pb + y.maxs).truncate());
                    (hi - lo).min_element()
                }
                (Shape::Cylinder { radius: ra, .. }, Shape::Cylinder { radius: rb, .. }) => {
                    ra + rb - pa.truncate().distance(pb.truncate())
                }
                (Shape::Box(x), Shape::Cylinder { radius, .. })
                | (Shape::Cylinder { radius, .. }, Shape::Box(x)) => {
                    let (bp, cp) = if matches!(a, Shape::Box(_)) {
                        (pa, pb)
                    } else {
                        (pb, pa)
                    };
                    let c = cp.truncate();
                    let nearest = c.clamp((bp + x.mins).truncate(), (bp + x.maxs).truncate());
                    radius - c.distance(nearest)
                }
                _ => unreachable!(),
            };
            z.min(xy)
        }
    }
}

fn z_range(s: &Shape, p: DVec3) -> (f64, f64) {
    let b = s.bounds();
    (p.z + b.min.z, p.z + b.max.z)
}

fn shapes(rng: &mut Rng) -> Shape {
    match rng.below(3) {
        0 => Shape::new_box(
            DVec3::new(
                -rng.range(4.0, 20.0),
                -rng.range(4.0, 20.0),
                -rng.range(4.0, 30.0),
            ),
            DVec3::new(
                rng.range(4.0, 20.0),
                rng.range(4.0, 20.0),
                rng.range(4.0, 30.0),
            ),
        )
        .unwrap(),
        1 => Shape::new_sphere(rng.range(4.0, 20.0)).unwrap(),
        _ => Shape::new_cylinder(rng.range(4.0, 20.0), rng.range(4.0, 30.0)).unwrap(),
    }
}

#[test]
fn every_pair_matches_binary_search_in_time() {
    let mut rng = Rng::new(5);
    let mut hits = 0;
    let mut pairs_seen = std::collections::BTreeSet::new();
    for _ in 0..3000 {
        let (a, b) = (shapes(&mut rng), shapes(&mut rng));
        let pa = DVec3::new(
            rng.range(-60.0, 60.0),
            rng.range(-60.0, 60.0),
            rng.range(-40.0, 40.0),
        );
        let pb = DVec3::ZERO;
        if overlap(&a, pa, &b, pb) > -1e-6 {
            continue;
        }
        let ma =
            (DVec3::ZERO - pa) * rng.range(0.5, 2.0) + rng.unit_vector() * rng.range(0.0, 30.0);
        let mb = rng.unit_vector() * rng.range(0.0, 10.0);
        let impact = time_of_impact(&a, pa, ma, &b, pb, mb).unwrap();
        let at = |t: f64| overlap(&a, pa + ma * t, &b, pb + mb * t);
        let samples = 400;
        let first = (0..=samples)
            .map(|i| i as f64 / samples as f64)
            .find(|&t| at(t) > 1e-6);
        let what = format!(
            "{} at {pa} moving {ma} vs {} moving {mb}: {impact:?}",
            a.describe(),
            b.describe()
        );
        match impact {
            None => assert!(first.is_none(), "missed an overlap at {first:?}: {what}"),
            Some(i) => {
                hits += 1;
                pairs_seen.insert(format!("{}-{}", &a.describe()[..3], &b.describe()[..3]));
                assert!(
                    at(i.time) > -1e-6,
                    "not touching at the impact: {} : {what}",
                    at(i.time)
                );
                assert!(i.depth == 0.0);
                if let Some(t) = first {
                    let (mut lo, mut hi) = ((t - 1.0 / samples as f64).max(0.0), t);
                    for _ in 0..60 {
                        let mid = 0.5 * (lo + hi);
                        if at(mid) > 0.0 { hi = mid } else { lo = mid }
                    }
                    let speed = (ma - mb).length();
                    assert!(
                        (hi - i.time) * speed < 1e-6,
                        "binary search {hi} vs {}: {what}",
                        i.time
                    );
                }
                // The normal points from b to a.
                let rel = (pa + ma * i.time) - (pb + mb * i.time);
                assert!(
                    rel.dot(i.normal) > -1e-9 || i.normal.dot(ma - mb) < 0.0,
                    "{what}"
                );
            }
        }
    }
    assert!(hits > 500, "too few hits: {hits}");
    assert_eq!(
        pairs_seen.len(),
        9,
        "every ordered pair of kinds met: {pairs_seen:?}"
    );
}

#[test]
fn overlapping_at_the_start_reports_depth() {
    let a = Shape::new_box(DVec3::splat(-16.0), DVec3::splat(16.0)).unwrap();
    let i = time_of_impact(
        &a,
        DVec3::new(30.0, 0.0, 0.0),
        DVec3::ZERO,
        &a,
        DVec3::ZERO,
        DVec3::ZERO,
    )
    .unwrap()
    .unwrap();
    assert_eq!(i.time, 0.0);
    assert!((i.depth - 2.0).abs() < 1e-6, "{}", i.depth);
    assert_eq!(i.normal, DVec3::X);
    // Touching faces are not an overlap.
    assert!(
        time_of_impact(
            &a,
            DVec3::new(32.0, 0.0, 0.0),
            DVec3::Y,
            &a,
            DVec3::ZERO,
            DVec3::ZERO
        )
        .unwrap()
        .is_none()
    );
}

#[test]
fn hulls_are_not_agents() {
    let hull = Shape::new_hull(&[DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z]).unwrap();
    let err = time_of_impact(
        &hull,
        DVec3::ZERO,
        DVec3::X,
        &Shape::POINT,
        DVec3::X,
        DVec3::ZERO,
    )
    .unwrap_err();
    assert!(err.to_string().contains("no exact time of impact"));
}
