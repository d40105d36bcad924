//! Section 3.5: shapes with continuous parametric boundaries, bounded through a piecewise
//! polynomial approximation and its error term.
//!
//! A boundary `p(t)`, `t` in `[a, b]`, is interpolated on `n` equal intervals `[t_k, t_k+1]` of
//! length `h` by two-point Hermite polynomials of order `m` (matching `p` and its first `m`
//! derivatives at both knots; degree `2m + 1`), written in Bernstein form; the distance of each
//! piece to the hyperplane `L_j` is Section 3.3's (a segment for `m = 0`, a cubic Bézier curve for
//! `m = 1`), and the error term is subtracted from it.
//!
//! The error term. For a scalar `f` with `2m + 2` continuous derivatives, the Hermite
//! interpolant `H` of order `m` on `[t_k, t_k+1]` satisfies
//! `f(t) - H(t) = f^(2m+2)(xi) / (2m+2)! (t - t_k)^(m+1) (t - t_k+1)^(m+1)` for some `xi` in the
//! interval, and `|(t - t_k)(t_k+1 - t)| <= (h / 2)^2`, so
//! `|f - H| <= E_m = M / (2m+2)! (h / 2)^(2m+2)` where `M` bounds `|f^(2m+2)|`: `M h^2 / 8` for
//! linear interpolation, `M h^4 / 384` for cubic Hermite. (The paper prints the bound as
//! `M / (k+1)! |(t_k+1 - t_k) / 2|^(2k)`, with `k` standing for both the order and the knot; the
//! standard remainder above is what holds.) Interpolation is linear, so the interpolant of
//! `f(t) = (p(t) - x0) . v_j` is the interpolant of `p` dotted with `v_j`, and
//! `|f^(2m+2)| <= ||p^(2m+2)||_2` for a unit `v_j`: with `M` a bound on the Euclidean norm of the
//! derivative, subtracting `E_m` from the distance of the approximation bounds the distance of
//! the boundary from below. With `M` a bound on each component instead (the paper's
//! `||p^(k+1)||_inf`), the Euclidean norm is at most `sqrt(D) M`: the paper's `sqrt(2) E_k` in the
//! plane ([`DerivativeBound`]).

use super::bezier::{CubicBezier, cubic_minimum};
use super::{Geometry, Segment};
use crate::vector::Vector;

/// The order of the Hermite pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HermiteOrder {
    /// `m = 0`: the chords between the knots (Section 3.2's segments); the bound is on the
    /// second derivative, `E = M h^2 / 8`.
    Linear,
    /// `m = 1`: cubic Hermite pieces matching `p` and `p'` at the knots, as cubic Bézier curves
    /// `p(t_k), p(t_k) + h p'(t_k) / 3, p(t_k+1) - h p'(t_k+1) / 3, p(t_k+1)` (Section 3.3's cubic
    /// case); the bound is on the fourth derivative, `E = M h^4 / 384`.
    Cubic,
}

/// What the bound `M` on the derivative of order `2m + 2` bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DerivativeBound {
    /// `||p^(2m+2)(t)||_2 <= M` for every `t`: the error term is `E_m`.
    Euclidean(f64),
    /// `|p_i^(2m+2)(t)| <= M` for every component `i` and `t` (the paper's infinity norm): the
    /// error term is `sqrt(D) E_m`.
    Componentwise(f64),
}

/// Why a boundary cannot be approximated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ParametricError {
    /// The parameter range must be finite with `a < b`.
    #[error("the parameter range [{0}, {1}] is not a finite interval with a < b")]
    Range(f64, f64),
    /// At least one piece.
    #[error("a piecewise approximation needs at least one piece")]
    NoPieces,
    /// The derivative bound must be finite and at least 0.
    #[error("the derivative bound must be finite and at least 0, got {0}")]
    Bound(f64),
    /// The boundary or its derivative is not finite at a knot.
    #[error("the boundary or its derivative is not finite at t = {0}")]
    NonFinite(f64),
}

/// The polynomial of one piece.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Piece<V> {
    Linear(Segment<V>),
    Cubic(CubicBezier<V>),
}

/// One piece of a [`HermiteApproximation`] with the error term: a conservative stand-in for the
/// boundary between two knots (the paper's unit: "the segment of `p(t)` between `t_k` and
/// `t_k+1`"). Algorithm 1 takes the pieces as separate geometries, so that a boundary around the
/// centre (a room's wall) is fitted piece by piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HermitePiece<V> {
    piece: Piece<V>,
    error: f64,
}

impl<V: Vector> HermitePiece<V> {
    /// The polynomial's point at `u` in `[0, 1]` (the piece's own parameter).
    pub fn at(&self, u: f64) -> V {
        match self.piece {
            Piece::Linear(s) => s.a + (s.b - s.a) * u,
            Piece::Cubic(c) => c.at(u),
        }
    }

    /// The error term, in units.
    pub fn error(&self) -> f64 {
        self.error
    }
}

impl<V: Vector> Geometry<V> for HermitePiece<V> {
    /// Section 3.3's distance of the polynomial (a segment or a cubic Bézier curve), less the
    /// error term: never above the boundary piece's.
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        let polynomial = match self.piece {
            Piece::Linear(s) => s.signed_distance(centre, direction),
            Piece::Cubic(c) => cubic_minimum(c.points.map(|p| (p - centre).dot(direction))).1,
        };
        polynomial - self.error
    }
}

/// Section 3.5: a conservative stand-in for a parametric boundary, the piecewise Hermite
/// approximation and its error term (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct HermiteApproximation<V> {
    pieces: Vec<HermitePiece<V>>,
    error: f64,
}

impl<V: Vector> HermiteApproximation<V> {
    /// The approximation of `p` on `range` by `pieces` pieces of `order`; `derivative` is `p'`
    /// (only read for [`HermiteOrder::Cubic`]) and `bound` bounds the derivative of order
    /// `2m + 2` (the second for linear pieces, the fourth for cubic ones) over the range.
    pub fn new(
        p: impl Fn(f64) -> V,
        derivative: impl Fn(f64) -> V,
        range: [f64; 2],
        pieces: usize,
        order: HermiteOrder,
        bound: DerivativeBound,
    ) -> Result<HermiteApproximation<V>, ParametricError> {
        let [a, b] = range;
        if !(a.is_finite() && b.is_finite() && a < b) {
            return Err(ParametricError::Range(a, b));
        }
        if pieces == 0 {
            return Err(ParametricError::NoPieces);
        }
        let (m, scale) = match bound {
            DerivativeBound::Euclidean(m) => (m, 1.0),
            DerivativeBound::Componentwise(m) => (m, (V::DIM as f64).sqrt()),
        };
        if !(m.is_finite() && m >= 0.0) {
            return Err(ParametricError::Bound(m));
        }
        let h = (b - a) / pieces as f64;
        let knot = |k: usize| if k == pieces { b } else { a + h * k as f64 };
        let at = |t: f64| -> Result<(V, V), ParametricError> {
            let value = p(t);
            let slope = match order {
                HermiteOrder::Linear => V::ZERO,
                HermiteOrder::Cubic => derivative(t),
            };
            if value.is_finite_vector() && slope.is_finite_vector() {
                Ok((value, slope))
            } else {
                Err(ParametricError::NonFinite(t))
            }
        };
        let half = h * 0.5;
        let error = match order {
            HermiteOrder::Linear => m * (half * half) / 2.0,
            HermiteOrder::Cubic => m * (half * half) * (half * half) / 24.0,
        } * scale;
        let mut out = Vec::with_capacity(pieces);
        let mut start = at(knot(0))?;
        for k in 0..pieces {
            let end = at(knot(k + 1))?;
            let piece = match order {
                HermiteOrder::Linear => Piece::Linear(Segment {
                    a: start.0,
                    b: end.0,
                }),
                HermiteOrder::Cubic => Piece::Cubic(CubicBezier {
                    points: [
                        start.0,
                        start.0 + start.1 * (h / 3.0),
                        end.0 - end.1 * (h / 3.0),
                        end.0,
                    ],
                }),
            };
            out.push(HermitePiece { piece, error });
            start = end;
        }
        Ok(HermiteApproximation { pieces: out, error })
    }

    /// The error term subtracted from every distance, in units.
    pub fn error(&self) -> f64 {
        self.error
    }

    /// The number of pieces.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// True when there is no piece (never, for an approximation that was made).
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The pieces, in parameter order.
    pub fn pieces(&self) -> &[HermitePiece<V>] {
        &self.pieces
    }
}

impl<V: Vector> Geometry<V> for HermiteApproximation<V> {
    /// The whole boundary as one geometry: the smallest distance of its pieces.
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        self.pieces
            .iter()
            .map(|piece| piece.signed_distance(centre, direction))
            .fold(f64::INFINITY, f64::min)
    }
}
