//! Axis-aligned bounding boxes.

use glam::DVec3;

/// An axis-aligned box `[min, max]` (closed). An empty box has `min > max` on some axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    /// The smallest corner.
    pub min: DVec3,
    /// The largest corner.
    pub max: DVec3,
}

impl Aabb {
    /// The empty box: the neutral element of [`Aabb::merged`].
    pub const EMPTY: Aabb = Aabb {
        min: DVec3::splat(f64::INFINITY),
        max: DVec3::splat(f64::NEG_INFINITY),
    };

    /// The box with the given corners.
    pub const fn new(min: DVec3, max: DVec3) -> Aabb {
        Aabb { min, max }
    }

    /// The smallest box holding every point.
    pub fn from_points(points: impl IntoIterator<Item = DVec3>) -> Aabb {
        points.into_iter().fold(Aabb::EMPTY, |b, p| b.including(p))
    }

    /// True when the box holds no point.
    pub fn is_empty(&self) -> bool {
        self.min.x > self.max.x || self.min.y > self.max.y || self.min.z > self.max.z
    }

    /// The box grown to hold `point`.
    #[inline]
    pub fn including(self, point: DVec3) -> Aabb {
        Aabb {
            min: self.min.min(point),
            max: self.max.max(point),
        }
    }

    /// The smallest box holding both.
    #[inline]
    pub fn merged(self, other: Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// Grows this box in place to hold `other`.
    #[inline]
    pub fn merge(&mut self, other: Aabb) {
        *self = self.merged(other);
    }

    /// The box grown by `margin` units on every side.
    #[inline]
    pub fn loosened(self, margin: f64) -> Aabb {
        Aabb {
            min: self.min - DVec3::splat(margin),
            max: self.max + DVec3::splat(margin),
        }
    }

    /// The Minkowski sum with another box.
    #[inline]
    pub fn minkowski_sum(self, other: Aabb) -> Aabb {
        Aabb {
            min: self.min + other.min,
            max: self.max + other.max,
        }
    }

    /// The box moved by `offset`.
    #[inline]
    pub fn translated(self, offset: DVec3) -> Aabb {
        Aabb {
            min: self.min + offset,
            max: self.max + offset,
        }
    }

    /// The six face planes as `(outward unit normal, distance)`: `+x, -x, +y, -y, +z, -z`.
    pub fn face_planes(&self) -> [(DVec3, f64); 6] {
        [
            (DVec3::X, self.max.x),
            (DVec3::NEG_X, -self.min.x),
            (DVec3::Y, self.max.y),
            (DVec3::NEG_Y, -self.min.y),
            (DVec3::Z, self.max.z),
            (DVec3::NEG_Z, -self.min.z),
        ]
    }

    /// True when the closed boxes share a point.
    #[inline]
    pub fn intersects(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x
            && self.max.x >= other.min.x
            && self.min.y <= other.max.y
            && self.max.y >= other.min.y
            && self.min.z <= other.max.z
            && self.max.z >= other.min.z
    }

    /// True when the closed box holds `point`.
    #[inline]
    pub fn contains_point(&self, point: DVec3) -> bool {
        point.cmpge(self.min).all() && point.cmple(self.max).all()
    }

    /// True when `other` lies inside this box.
    #[inline]
    pub fn contains(&self, other: &Aabb) -> bool {
        other.min.cmpge(self.min).all() && other.max.cmple(self.max).all()
    }

    /// The centre point.
    #[inline]
    pub fn centre(&self) -> DVec3 {
        (self.min + self.max) * 0.5
    }

    /// The side lengths.
    #[inline]
    pub fn size(&self) -> DVec3 {
        self.max - self.min
    }

    /// The surface area (used to score tree splits).
    pub fn surface_area(&self) -> f64 {
        let s = self.size().max(DVec3::ZERO);
        2.0 * (s.x * s.y + s.y * s.z + s.z * s.x)
    }

    /// The parameter interval `[t0, t1]` within `[0, 1]` where the segment `a -> b` is inside the
    /// box, or `None` when it misses (slab test).
    pub fn segment_interval(&self, a: DVec3, b: DVec3) -> Option<(f64, f64)> {
        let d = b - a;
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for axis in 0..3 {
            if d[axis] == 0.0 {
                if a[axis] < self.min[axis] || a[axis] > self.max[axis] {
                    return None;
                }
                continue;
            }
            let inv = 1.0 / d[axis];
            let (mut near, mut far) = (
                (self.min[axis] - a[axis]) * inv,
                (self.max[axis] - a[axis]) * inv,
            );
            if near > far {
                std::mem::swap(&mut near, &mut far);
            }
            t0 = t0.max(near);
            t1 = t1.min(far);
            if t0 > t1 {
                return None;
            }
        }
        Some((t0, t1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_interval_slab_test() {
        let b = Aabb::new(DVec3::ZERO, DVec3::ONE);
        let (t0, t1) = b
            .segment_interval(DVec3::new(-1.0, 0.5, 0.5), DVec3::new(3.0, 0.5, 0.5))
            .unwrap();
        assert_eq!((t0, t1), (0.25, 0.5));
        assert!(
            b.segment_interval(DVec3::new(-1.0, 2.0, 0.5), DVec3::new(3.0, 2.0, 0.5))
                .is_none()
        );
        assert!(Aabb::EMPTY.is_empty());
        assert!(!b.is_empty());
    }
}
