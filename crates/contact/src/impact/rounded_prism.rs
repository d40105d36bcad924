//! The line against a rounded prism: a rectangle grown by a disc in xy, times a z interval.
//!
//! It is the configuration-space obstacle of every box/cylinder pair: box-box (radius 0),
//! box-cylinder and cylinder-box (the box's rectangle grown by the cylinder's radius),
//! cylinder-cylinder (a point grown by the sum of the radii).

use glam::{DVec2, DVec3};

/// `{ x : dist_xy(x, rect) <= radius, z_min <= x.z <= z_max }`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RoundedPrism {
    pub rect_min: DVec2,
    pub rect_max: DVec2,
    pub radius: f64,
    pub z_min: f64,
    pub z_max: f64,
}

/// Where a line meets the prism: `[enter, leave]` and the outward normal at the entry (zero when
/// the line is inside for all t).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Crossing {
    pub enter: f64,
    pub leave: f64,
    pub normal: DVec3,
}

impl RoundedPrism {
    /// The prism eroded by `e` units (dilated when negative).
    pub fn eroded(&self, e: f64) -> RoundedPrism {
        let (radius, shrink) = if self.radius >= e {
            (self.radius - e, 0.0)
        } else {
            (0.0, e - self.radius)
        };
        RoundedPrism {
            rect_min: self.rect_min + DVec2::splat(shrink),
            rect_max: self.rect_max - DVec2::splat(shrink),
            radius,
            z_min: self.z_min + e,
            z_max: self.z_max - e,
        }
    }

    fn is_empty(&self) -> bool {
        self.z_min > self.z_max
            || self.rect_min.x > self.rect_max.x
            || self.rect_min.y > self.rect_max.y
    }

    /// The xy distance from `p` to the rectangle (0 inside).
    fn rect_distance(&self, p: DVec2) -> f64 {
        let outside = (self.rect_min - p).max(p - self.rect_max).max(DVec2::ZERO);
        outside.length()
    }

    /// The parameter interval over which `s + t d` lies in the prism, with the entry normal.
    pub fn crossing(&self, s: DVec3, d: DVec3) -> Option<Crossing> {
        if self.is_empty() {
            return None;
        }
        // The z slab.
        let (mut enter, mut leave, mut normal) = if d.z == 0.0 {
            if s.z < self.z_min || s.z > self.z_max {
                return None;
            }
            (f64::NEG_INFINITY, f64::INFINITY, DVec3::ZERO)
        } else {
            let t_top = (self.z_max - s.z) / d.z;
            let t_bottom = (self.z_min - s.z) / d.z;
            if d.z < 0.0 {
                (t_top, t_bottom, DVec3::Z)
            } else {
                (t_bottom, t_top, DVec3::NEG_Z)
            }
        };
        // The rounded rectangle in xy.
        let (sxy, dxy) = (s.truncate(), d.truncate());
        if dxy == DVec2::ZERO {
            if self.rect_distance(sxy) > self.radius {
                return None;
            }
        } else {
            let (xy_enter, xy_leave, xy_normal) = self.xy_crossing(sxy, dxy)?;
            if xy_enter > enter {
                enter = xy_enter;
                normal = xy_normal.extend(0.0);
            }
            leave = leave.min(xy_leave);
        }
        (enter <= leave).then_some(Crossing {
            enter,
            leave,
            normal,
        })
    }

    /// The line against the rounded rectangle: min and max over the patches it meets (the four
    /// sides pushed out by the radius, and the four corner circles).
    fn xy_crossing(&self, s: DVec2, d: DVec2) -> Option<(f64, f64, DVec2)> {
        let (lo, hi, r) = (self.rect_min, self.rect_max, self.radius);
        let mut enter = (f64::INFINITY, DVec2::ZERO);
        let mut leave = f64::NEG_INFINITY;
        let mut add = |t: f64, n: DVec2| {
            if t < enter.0 {
                enter = (t, n);
            }
            leave = leave.max(t);
        };
        for axis in 0..2 {
            if d[axis] == 0.0 {
                continue;
            }
            let other = 1 - axis;
            for (plane, sign) in [(hi[axis] + r, 1.0), (lo[axis] - r, -1.0)] {
                let t = (plane - s[axis]) / d[axis];
                let q = s[other] + d[other] * t;
                if q >= lo[other] && q <= hi[other] {
                    let mut n = DVec2::ZERO;
                    n[axis] = sign;
                    add(t, n);
                }
            }
        }
        if r > 0.0 {
            let a = d.dot(d);
            for corner in [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)] {
                let w = s - corner;
                let b = 2.0 * w.dot(d);
                let c = w.dot(w) - r * r;
                let disc = b * b - 4.0 * a * c;
                if disc < 0.0 {
                    continue;
                }
                let q = -0.5 * (b + b.signum() * disc.sqrt());
                for t in [q / a, if q != 0.0 { c / q } else { q / a }] {
                    add(t, (w + d * t) / r);
                }
            }
        }
        (enter.0 <= leave).then_some((enter.0, leave, enter.1))
    }

    /// When `p` is strictly inside: the penetration depth and the direction out along which it
    /// is smallest.
    pub fn penetration(&self, p: DVec3) -> Option<(f64, DVec3)> {
        let xy = p.truncate();
        let outside_rect = self.rect_distance(xy);
        if (outside_rect > 0.0 && outside_rect >= self.radius)
            || p.z <= self.z_min
            || p.z >= self.z_max
        {
            return None;
        }
        let mut best = (self.z_max - p.z, DVec3::Z);
        let down = p.z - self.z_min;
        if down < best.0 {
            best = (down, DVec3::NEG_Z);
        }
        if outside_rect > 0.0 {
            // In a rounded corner or beside a side: out through the nearest rim point.
            let nearest = xy.clamp(self.rect_min, self.rect_max);
            let out = (xy - nearest) / outside_rect;
            let depth = self.radius - outside_rect;
            if depth < best.0 {
                best = (depth, out.extend(0.0));
            }
        } else {
            for (depth, n) in [
                (self.rect_max.x - xy.x, DVec3::X),
                (xy.x - self.rect_min.x, DVec3::NEG_X),
                (self.rect_max.y - xy.y, DVec3::Y),
                (xy.y - self.rect_min.y, DVec3::NEG_Y),
            ] {
                if depth + self.radius < best.0 {
                    best = (depth + self.radius, n);
                }
            }
        }
        (best.0 > 0.0).then_some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube() -> RoundedPrism {
        RoundedPrism {
            rect_min: DVec2::splat(-1.0),
            rect_max: DVec2::splat(1.0),
            radius: 0.0,
            z_min: -1.0,
            z_max: 1.0,
        }
    }

    #[test]
    fn box_slab_crossing() {
        let c = cube()
            .crossing(DVec3::new(-3.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0))
            .unwrap();
        assert_eq!((c.enter, c.leave, c.normal), (2.0, 4.0, DVec3::NEG_X));
        let c = cube()
            .crossing(DVec3::new(0.0, 0.0, 5.0), DVec3::new(0.0, 0.0, -1.0))
            .unwrap();
        assert_eq!((c.enter, c.leave, c.normal), (4.0, 6.0, DVec3::Z));
        assert!(
            cube()
                .crossing(DVec3::new(-3.0, 2.0, 0.0), DVec3::X)
                .is_none()
        );
    }

    #[test]
    fn rounded_corner_crossing() {
        let p = RoundedPrism {
            radius: 1.0,
            ..cube()
        };
        // Along y = 1.5: inside the rounded corner region beyond x = 1 only within the circle.
        let c = p.crossing(DVec3::new(-5.0, 1.5, 0.0), DVec3::X).unwrap();
        let half = (1.0f64 - 0.25).sqrt();
        assert!((c.enter - (5.0 - 1.0 - half)).abs() < 1e-12);
        assert!((c.leave - (5.0 + 1.0 + half)).abs() < 1e-12);
        assert!(c.normal.abs_diff_eq(DVec3::new(-half, 0.5, 0.0), 1e-12));
    }

    #[test]
    fn penetration_chooses_the_shallowest_way_out() {
        let (depth, n) = cube().penetration(DVec3::new(0.9, 0.0, 0.0)).unwrap();
        assert!((depth - 0.1).abs() < 1e-12);
        assert_eq!(n, DVec3::X);
        assert!(cube().penetration(DVec3::new(1.0, 0.0, 0.0)).is_none());
        let erode = cube().eroded(0.25);
        assert_eq!(erode.rect_max, DVec2::splat(0.75));
    }
}
