//! A sphere (or anything grown by a sphere) against a convex core: the line against
//! `core + ball(radius)`, by the convexity of the distance to a convex set along a line.
//!
//! `f(t) = dist(s + t d, core) - radius` is convex in `t`, so its minimum over the move is found
//! by golden-section search and its first root before that minimum by bisection, both to the
//! precision of `f64`.

use glam::{DVec2, DVec3};

/// The convex core a sphere is grown around (relative coordinates).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Core {
    /// A point at the origin.
    Point,
    /// An axis-aligned box.
    Box { min: DVec3, max: DVec3 },
    /// A vertical cylinder centred at the origin.
    Cylinder { radius: f64, half_height: f64 },
}

impl Core {
    /// The point of the core closest to `p`.
    pub fn closest(&self, p: DVec3) -> DVec3 {
        match *self {
            Core::Point => DVec3::ZERO,
            Core::Box { min, max } => p.clamp(min, max),
            Core::Cylinder {
                radius,
                half_height,
            } => {
                let xy = p.truncate();
                let length = xy.length();
                let xy = if length > radius {
                    xy * (radius / length)
                } else {
                    xy
                };
                DVec3::new(xy.x, xy.y, p.z.clamp(-half_height, half_height))
            }
        }
    }

    /// How far inside the core `p` is (0 on or outside the boundary), and the way out.
    fn inner_depth(&self, p: DVec3) -> (f64, DVec3) {
        match *self {
            Core::Point => (0.0, DVec3::Z),
            Core::Box { min, max } => {
                let mut best = (f64::INFINITY, DVec3::Z);
                for axis in 0..3 {
                    for (depth, sign) in [(max[axis] - p[axis], 1.0), (p[axis] - min[axis], -1.0)] {
                        if depth < best.0 {
                            let mut n = DVec3::ZERO;
                            n[axis] = sign;
                            best = (depth, n);
                        }
                    }
                }
                (best.0.max(0.0), best.1)
            }
            Core::Cylinder {
                radius,
                half_height,
            } => {
                let xy = p.truncate();
                let side = radius - xy.length();
                let (top, bottom) = (half_height - p.z, p.z + half_height);
                let radial = xy.try_normalize().unwrap_or(DVec2::X).extend(0.0);
                let mut best = (side, radial);
                if top < best.0 {
                    best = (top, DVec3::Z);
                }
                if bottom < best.0 {
                    best = (bottom, DVec3::NEG_Z);
                }
                (best.0.max(0.0), best.1)
            }
        }
    }
}

/// The first touch of the line `s + t d`, `t` in `[0, 1]`, with `core + ball(radius)`, when the
/// line goes deeper than `contact` inside it: `(time, outward normal)`. `Err(depth, normal)` when
/// `s` itself is deeper than `contact` inside.
pub(crate) fn sweep(
    core: Core,
    radius: f64,
    s: DVec3,
    d: DVec3,
    contact: f64,
) -> Result<Option<(f64, DVec3)>, (f64, DVec3)> {
    let f = |t: f64| {
        let p = s + d * t;
        p.distance(core.closest(p)) - radius
    };
    let f0 = f(0.0);
    if f0 < -contact {
        let gap = s.distance(core.closest(s));
        return Err(if gap > 0.0 {
            (radius - gap, (s - core.closest(s)) / gap)
        } else {
            let (inner, n) = core.inner_depth(s);
            (radius + inner, n)
        });
    }
    if d == DVec3::ZERO {
        return Ok(None);
    }
    // Golden-section search for the minimum of the convex f on [0, 1].
    let phi = 0.5 * (5f64.sqrt() - 1.0);
    let (mut a, mut b) = (0.0f64, 1.0f64);
    let (mut x1, mut x2) = (b - phi * (b - a), a + phi * (b - a));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..90 {
        if f1 <= f2 {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - phi * (b - a);
            f1 = f(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + phi * (b - a);
            f2 = f(x2);
        }
    }
    let (t_min, f_min) = [(0.0, f0), (1.0, f(1.0)), (0.5 * (a + b), f(0.5 * (a + b)))]
        .into_iter()
        .fold(
            (0.0, f64::INFINITY),
            |best, x| if x.1 < best.1 { x } else { best },
        );
    if f_min >= -contact {
        return Ok(None);
    }
    // First root of f before the minimum (f decreases there).
    let time = if f0 <= 0.0 {
        0.0
    } else {
        let (mut lo, mut hi) = (0.0f64, t_min);
        for _ in 0..80 {
            let mid = 0.5 * (lo + hi);
            if f(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi
    };
    let p = s + d * time;
    let normal = (p - core.closest(p))
        .try_normalize()
        .unwrap_or(-d.normalize());
    Ok(Some((time, normal)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphere_sphere_head_on() {
        // Two spheres of radius 1 and 2: centres 10 apart, closing at 10 per unit time.
        let (t, n) = sweep(
            Core::Point,
            3.0,
            DVec3::new(-10.0, 0.0, 0.0),
            DVec3::new(10.0, 0.0, 0.0),
            1e-9,
        )
        .unwrap()
        .unwrap();
        assert!((t - 0.7).abs() < 1e-14, "{t}");
        assert!(n.abs_diff_eq(DVec3::NEG_X, 1e-12));
    }

    #[test]
    fn sphere_past_a_box_corner() {
        let core = Core::Box {
            min: DVec3::splat(-1.0),
            max: DVec3::splat(1.0),
        };
        // Passing the edge x = 1, y = 1 at a distance just over the radius: no hit.
        let s = DVec3::new(5.0, 1.0 + 0.5_f64.sqrt() * 1.01, 0.0) + DVec3::new(0.0, 0.0, 0.0);
        assert!(
            sweep(core, 0.5, s, DVec3::new(-10.0, 0.0, 0.0), 1e-9)
                .unwrap()
                .is_none()
        );
        // Starting inside: depth reported.
        let (depth, n) = sweep(core, 0.5, DVec3::new(1.25, 0.0, 0.0), DVec3::X, 1e-9).unwrap_err();
        assert!((depth - 0.25).abs() < 1e-12 && n == DVec3::X);
    }

    #[test]
    fn sphere_onto_a_cylinder_rim() {
        let core = Core::Cylinder {
            radius: 2.0,
            half_height: 1.0,
        };
        // Falling straight down at x = 2 + 0.6 onto the rim of the top cap: touches when the
        // distance to the rim circle (x = 2, z = 1) equals 1: z - 1 = 0.8.
        let (t, n) = sweep(
            core,
            1.0,
            DVec3::new(2.6, 0.0, 5.0),
            DVec3::new(0.0, 0.0, -5.0),
            1e-9,
        )
        .unwrap()
        .unwrap();
        assert!((t - (5.0 - 1.8) / 5.0).abs() < 1e-12, "{t}");
        assert!(n.abs_diff_eq(DVec3::new(0.6, 0.0, 0.8), 1e-9), "{n}");
    }
}
