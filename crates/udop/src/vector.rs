//! The dimension-generic vector the k-UDOP code is written over: glam's `DVec2` and `DVec3`.
//!
//! The paper's constructions (Algorithms 1-3, Section 3 distances, Section 4.1 vertices) hold in
//! any dimension `D >= 2`; the plane (`DVec2`) reproduces Table 1 and Figure 4, space (`DVec3`)
//! serves the simulator.

use std::fmt::Debug;
use std::ops::{Add, Mul, Neg, Sub};

use glam::{DVec2, DVec3};

/// A vector of `f64` in 2 or 3 dimensions.
///
/// Implemented for [`DVec2`] and [`DVec3`]; every operation is plain IEEE arithmetic (no fused
/// multiply-add), so results are bit-identical everywhere.
pub trait Vector:
    Copy
    + Debug
    + PartialEq
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<f64, Output = Self>
    + Neg<Output = Self>
{
    /// The dimension `D` (2 or 3).
    const DIM: usize;
    /// The zero vector.
    const ZERO: Self;

    /// The dot product.
    fn dot(self, rhs: Self) -> f64;

    /// Component `axis` (`0..DIM`).
    fn component(self, axis: usize) -> f64;

    /// The vector whose component `i` is `f(i)`.
    fn from_fn(f: impl FnMut(usize) -> f64) -> Self;

    /// `k` unit vectors spread evenly over the unit sphere: the circle at angles `2 pi i / k` in
    /// 2D, the Fibonacci (golden-angle) sphere in 3D.
    ///
    /// These use `sin`/`cos` from the platform's maths library, whose last bit may differ between
    /// platforms; a k-UDOP built from them only affects how much work a cache skips, never an
    /// answer.
    fn evenly_spread(k: usize) -> Vec<Self>;

    /// The unit vector along `axis`.
    fn axis(axis: usize) -> Self {
        Self::from_fn(|i| if i == axis { 1.0 } else { 0.0 })
    }

    /// The Euclidean length.
    fn length(self) -> f64 {
        self.dot(self).sqrt()
    }

    /// The sum of the absolute components (the support of the cube `[-1, 1]^D` along `self`).
    fn norm_l1(self) -> f64 {
        (0..Self::DIM).map(|i| self.component(i).abs()).sum()
    }

    /// True when every component is finite.
    fn is_finite_vector(self) -> bool {
        (0..Self::DIM).all(|i| self.component(i).is_finite())
    }
}

impl Vector for DVec2 {
    const DIM: usize = 2;
    const ZERO: Self = DVec2::ZERO;

    #[inline]
    fn dot(self, rhs: Self) -> f64 {
        self.x * rhs.x + self.y * rhs.y
    }

    #[inline]
    fn component(self, axis: usize) -> f64 {
        self[axis]
    }

    fn from_fn(mut f: impl FnMut(usize) -> f64) -> Self {
        DVec2::new(f(0), f(1))
    }

    fn evenly_spread(k: usize) -> Vec<Self> {
        (0..k)
            .map(|i| {
                let angle = std::f64::consts::TAU * i as f64 / k as f64;
                let (s, c) = angle.sin_cos();
                DVec2::new(c, s)
            })
            .collect()
    }
}

impl Vector for DVec3 {
    const DIM: usize = 3;
    const ZERO: Self = DVec3::ZERO;

    #[inline]
    fn dot(self, rhs: Self) -> f64 {
        self.x * rhs.x + self.y * rhs.y + self.z * rhs.z
    }

    #[inline]
    fn component(self, axis: usize) -> f64 {
        self[axis]
    }

    fn from_fn(mut f: impl FnMut(usize) -> f64) -> Self {
        DVec3::new(f(0), f(1), f(2))
    }

    fn evenly_spread(k: usize) -> Vec<Self> {
        // Fibonacci sphere: z evenly spaced in (-1, 1) at the centres of k equal-area bands, the
        // azimuth advancing by the golden angle pi (3 - sqrt 5).
        let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
        (0..k)
            .map(|i| {
                let z = 1.0 - (2.0 * i as f64 + 1.0) / k as f64;
                let r = (1.0 - z * z).max(0.0).sqrt();
                let (s, c) = (golden * i as f64).sin_cos();
                DVec3::new(r * c, r * s, z)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evenly_spread_vectors_are_unit() {
        for k in [3, 7, 40] {
            for v in DVec2::evenly_spread(k) {
                assert!((v.length() - 1.0).abs() < 1e-15);
            }
            for v in DVec3::evenly_spread(k) {
                assert!((v.length() - 1.0).abs() < 1e-15);
            }
        }
        assert_eq!(DVec3::axis(2), DVec3::Z);
        assert_eq!(DVec3::new(1.0, -2.0, 3.0).norm_l1(), 6.0);
    }
}
