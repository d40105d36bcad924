//! Section 3.3: Bézier curves. Along `v_j` a degree-`n` curve's distance is the Bernstein
//! polynomial with coefficients `d_i = (b_i - x0) . v_j`; its minimum over `[0, 1]` is at an end
//! or where the derivative `n sum B_i^{n-1}(t) Delta d_i` vanishes.

use super::Geometry;
use crate::vector::Vector;
use cspace_geom::tolerance::BEZIER_LINEAR;

/// A quadratic Bézier curve with control points `b_0, b_1, b_2`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuadraticBezier<V> {
    /// The control points.
    pub points: [V; 3],
}

/// A cubic Bézier curve with control points `b_0 .. b_3`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubicBezier<V> {
    /// The control points.
    pub points: [V; 4],
}

impl<V: Vector> QuadraticBezier<V> {
    /// The point at parameter `t` (de Casteljau).
    pub fn at(&self, t: f64) -> V {
        let [a, b, c] = self.points;
        let (ab, bc) = (lerp(a, b, t), lerp(b, c, t));
        lerp(ab, bc, t)
    }
}

impl<V: Vector> CubicBezier<V> {
    /// The point at parameter `t` (de Casteljau).
    pub fn at(&self, t: f64) -> V {
        let [a, b, c, d] = self.points;
        let (ab, bc, cd) = (lerp(a, b, t), lerp(b, c, t), lerp(c, d, t));
        let (abc, bcd) = (lerp(ab, bc, t), lerp(bc, cd, t));
        lerp(abc, bcd, t)
    }
}

fn lerp<V: Vector>(a: V, b: V, t: f64) -> V {
    a + (b - a) * t
}

/// The quadratic Bernstein polynomial with coefficients `d` at `t` (de Casteljau).
pub fn bernstein2(d: [f64; 3], t: f64) -> f64 {
    let (a, b) = (d[0] + (d[1] - d[0]) * t, d[1] + (d[2] - d[1]) * t);
    a + (b - a) * t
}

/// The cubic Bernstein polynomial with coefficients `d` at `t` (de Casteljau).
pub fn bernstein3(d: [f64; 4], t: f64) -> f64 {
    let a = d[0] + (d[1] - d[0]) * t;
    let b = d[1] + (d[2] - d[1]) * t;
    let c = d[2] + (d[3] - d[2]) * t;
    let (ab, bc) = (a + (b - a) * t, b + (c - b) * t);
    ab + (bc - ab) * t
}

/// Section 3.3, quadratic case: the minimum over `t` in `[0, 1]` of the Bernstein polynomial
/// with coefficients `d`, and where it is. The interior candidate is
/// `t = -Delta d_0 / Delta^2 d_0` when `Delta^2 d_0 != 0`.
pub fn quadratic_minimum(d: [f64; 3]) -> (f64, f64) {
    let mut best = if d[0] <= d[2] {
        (0.0, d[0])
    } else {
        (1.0, d[2])
    };
    let delta = d[1] - d[0];
    let delta2 = d[2] - 2.0 * d[1] + d[0];
    if delta2 != 0.0 {
        let t = -delta / delta2;
        if t > 0.0 && t < 1.0 {
            let value = bernstein2(d, t);
            if value < best.1 {
                best = (t, value);
            }
        }
    }
    best
}

/// Section 3.3, cubic case: the minimum over `t` in `[0, 1]` of the Bernstein polynomial with
/// coefficients `d`, and where it is. With `e_i = Delta d_i` the derivative is
/// `3 (e_0 (1-t)^2 + 2 e_1 t (1-t) + e_2 t^2)`, whose roots are the paper's
/// `t = (-Delta e_0 +- sqrt(e_1^2 - e_0 e_2)) / Delta^2 e_0` (computed here in the form that does
/// not cancel; a linear derivative when `Delta^2 e_0 = 0`).
pub fn cubic_minimum(d: [f64; 4]) -> (f64, f64) {
    let mut best = if d[0] <= d[3] {
        (0.0, d[0])
    } else {
        (1.0, d[3])
    };
    let e = [d[1] - d[0], d[2] - d[1], d[3] - d[2]];
    // a t^2 + b t + c with a = Delta^2 e_0, b = 2 Delta e_0, c = e_0.
    let a = e[0] - 2.0 * e[1] + e[2];
    let b = 2.0 * (e[1] - e[0]);
    let c = e[0];
    let mut roots = [f64::NAN; 2];
    let scale = e.iter().fold(0.0f64, |s, x| s.max(x.abs()));
    if a.abs() <= BEZIER_LINEAR * scale {
        if b != 0.0 {
            roots[0] = -c / b;
        }
    } else {
        // Discriminant over 4: e_1^2 - e_0 e_2.
        let quarter = e[1] * e[1] - e[0] * e[2];
        if quarter >= 0.0 {
            let half_b = 0.5 * b;
            let q = -(half_b + half_b.signum() * quarter.sqrt());
            if q != 0.0 {
                roots = [q / a, c / q];
            } else {
                roots = [-half_b / a, f64::NAN];
            }
        }
    }
    for t in roots {
        if t > 0.0 && t < 1.0 {
            let value = bernstein3(d, t);
            if value < best.1 {
                best = (t, value);
            }
        }
    }
    best
}

impl<V: Vector> Geometry<V> for QuadraticBezier<V> {
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        let d = self.points.map(|p| (p - centre).dot(direction));
        quadratic_minimum(d).1
    }
}

impl<V: Vector> Geometry<V> for CubicBezier<V> {
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        let d = self.points.map(|p| (p - centre).dot(direction));
        cubic_minimum(d).1
    }
}
