//! Algorithm 2 (ray and k-DOP intersection).

use crate::udop::Udop;
use crate::vector::Vector;

impl<V: Vector> Udop<V> {
    /// Algorithm 2 (ray and k-DOP intersection): the parameters `(t1, t2)`, `t1 < t2`, such that
    /// `origin + t direction` lies in the open region exactly for `t` in `(t1, t2)`; `None` when
    /// the line misses it.
    ///
    /// Each side `(x - c) . v_i = h_i` is crossed at
    /// `t = (h_i - (p0 - c) . v_i) / (d . v_i)` (the paper's listing drops the `h_i`); sides
    /// facing the ray (`d . v_i < 0`) are entered, the furthest entry is `t1`, the others are
    /// left, the nearest exit is `t2`. A side parallel to the ray either holds the whole line or
    /// none of it. `t1` may be `-inf` and `t2` `+inf` on unbounded sides.
    pub fn ray_interval(&self, origin: V, direction: V) -> Option<(f64, f64)> {
        let offset = origin - self.centre();
        let (mut t1, mut t2) = (f64::NEG_INFINITY, f64::INFINITY);
        for (v, h) in self.directions().vectors().iter().zip(self.distances()) {
            let rate = direction.dot(*v);
            let gap = h - offset.dot(*v);
            if rate == 0.0 {
                // Parallel: inside this side everywhere or nowhere.
                if gap > 0.0 {
                    continue;
                }
                return None;
            }
            let t = gap / rate;
            if rate < 0.0 {
                t1 = t1.max(t);
            } else {
                t2 = t2.min(t);
            }
            // NaN (an infinite gap over an infinite rate) never happens for finite inputs; an
            // infinite `h` gives an infinite `t`, which is right.
            if t1.is_nan() || t2.is_nan() || t1 >= t2 {
                return None;
            }
        }
        Some((t1, t2))
    }

    /// Algorithm 2 restricted to the segment `a -> b`: the parameter interval within `[0, 1]`
    /// of the part of the segment inside the open region, or `None` (a segment of zero length
    /// gives `(0, 1)` when its point is inside).
    pub fn segment_interval(&self, a: V, b: V) -> Option<(f64, f64)> {
        let (t1, t2) = self.ray_interval(a, b - a)?;
        let (lo, hi) = (t1.max(0.0), t2.min(1.0));
        (lo < hi).then_some((lo, hi))
    }
}
