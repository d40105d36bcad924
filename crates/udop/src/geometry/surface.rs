//! Section 3.3 on surfaces: the biquadratic Bézier pieces of Quake III patches, bounded through
//! their quadratic row and column curves.
//!
//! Along `v_j` a piece with control net `b_ab` has the distance
//! `d(s, t) = sum_a sum_b B_a(s) B_b(t) d_ab`, `d_ab = (b_ab - x0) . v_j`: a biquadratic Bernstein
//! polynomial. Row `a` of the coefficients is the distance of the quadratic row curve `R_a(t)`
//! (control points `b_a0, b_a1, b_a2`), whose minimum over `t` is Section 3.3's quadratic case.
//! For a fixed `t` the surface is the quadratic Bézier curve in `s` with control points
//! `R_0(t), R_1(t), R_2(t)`, so by the convex hull property
//! `d(s, t) >= min_a d(R_a(t)) >= min_a min_t d(R_a(t))`: the smallest row minimum bounds the
//! surface's distance from below, and so does the smallest column minimum. The border rows
//! (`a = 0, 2`) and columns (`b = 0, 2`) lie on the surface: their minima are values it reaches,
//! bounds of its minimum from above.
//!
//! When the two bounds are further apart than [`BEZIER_GAP`], the piece is halved (de Casteljau
//! on the coefficients, across rows when the row bound is the tighter one, else across columns)
//! and the halves are bounded alike, the lower first, keeping the smallest upper bound met
//! (branch and bound). A half is not cut again once its lower bound is within the gap of that
//! upper bound. The answer, the smallest lower bound of the halves kept, is never above the
//! surface's minimum and at most the gap below it: a halving divides the looser gap by four (a
//! quadratic lies within `|Delta^2 d| / 4` of its control polygon). Most directions need no
//! halving: the minimum is on a border curve and the bounds meet at once.

use cspace_geom::tolerance::BEZIER_GAP;

use super::Geometry;
use super::bezier::{QuadraticBezier, quadratic_minimum};
use crate::vector::Vector;

/// A biquadratic Bézier surface piece (a Quake III patch piece), solid or not: the 3 x 3
/// control net `net[a][b]`, row `a` along the parameter `s`, column `b` along `t` (the layout of
/// `cspace_geom::patch::PatchPiece::net`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BiquadraticPatch<V> {
    /// The control net.
    pub net: [[V; 3]; 3],
}

/// Bounds on the minimum of `(p - x0) . v_j` over a surface, in units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistanceBounds {
    /// Never above the minimum (the value a k-UDOP side may take).
    pub lower: f64,
    /// A value the surface reaches (never below the minimum, up to rounding); at most
    /// [`BEZIER_GAP`] above `lower` unless the halvings ran out ([`MAX_HALVINGS`]).
    pub upper: f64,
}

/// The deepest halving of the branch and bound: a halving divides the gap by four, so 30 of
/// them divide it by 2^60, beyond the precision of any coordinate.
pub const MAX_HALVINGS: u8 = 30;

/// The distance coefficients `d_ab` of a net along a direction.
type Coefficients = [[f64; 3]; 3];

impl<V: Vector> BiquadraticPatch<V> {
    /// The surface point at parameters `(s, t)` in `[0, 1]^2` (de Casteljau on the rows, then
    /// across them).
    pub fn at(&self, s: f64, t: f64) -> V {
        let rows = self.net.map(|row| QuadraticBezier { points: row }.at(t));
        QuadraticBezier { points: rows }.at(s)
    }

    /// The two halves of the piece (de Casteljau at parameter 1/2): across rows (`s` halved,
    /// the first half `s` in `[0, 1/2]`) or across columns (`t` halved).
    pub fn halves(&self, across_rows: bool) -> (BiquadraticPatch<V>, BiquadraticPatch<V>) {
        let halve = |q: [V; 3]| {
            let (a, b) = ((q[0] + q[1]) * 0.5, (q[1] + q[2]) * 0.5);
            let mid = (a + b) * 0.5;
            ([q[0], a, mid], [mid, b, q[2]])
        };
        let (mut first, mut second) = (self.net, self.net);
        for k in 0..3 {
            if across_rows {
                let (lo, hi) = halve([self.net[0][k], self.net[1][k], self.net[2][k]]);
                for a in 0..3 {
                    first[a][k] = lo[a];
                    second[a][k] = hi[a];
                }
            } else {
                (first[k], second[k]) = halve(self.net[k]);
            }
        }
        (
            BiquadraticPatch { net: first },
            BiquadraticPatch { net: second },
        )
    }

    /// Bounds on `min { (p - centre) . direction : p on the surface }` (the module's branch and
    /// bound). NaN in both when a coefficient is not finite.
    pub fn distance_bounds(&self, centre: V, direction: V) -> DistanceBounds {
        surface_minimum(self.net.map(|row| row.map(|p| (p - centre).dot(direction))))
    }
}

impl<V: Vector> Geometry<V> for BiquadraticPatch<V> {
    /// The lower bound of [`BiquadraticPatch::distance_bounds`].
    fn signed_distance(&self, centre: V, direction: V) -> f64 {
        self.distance_bounds(centre, direction).lower
    }

    /// The control points first: the surface lies in their hull, so their smallest distance
    /// bounds it from below; when that reaches `side` the branch and bound is not needed.
    fn signed_distance_against(&self, centre: V, direction: V, side: f64) -> f64 {
        let d = self.net.map(|row| row.map(|p| (p - centre).dot(direction)));
        let hull = d.iter().flatten().fold(f64::INFINITY, |m, x| m.min(*x));
        if hull >= side {
            return hull;
        }
        surface_minimum(d).lower
    }
}

/// The bounds of one cell of the branch and bound.
#[derive(Debug, Clone, Copy)]
struct CellBounds {
    lower: f64,
    upper: f64,
    /// True when the row bound is the tighter: halve across rows (in `s`).
    across_rows: bool,
}

fn bound_cell(d: &Coefficients) -> CellBounds {
    let rows = d.map(|row| quadratic_minimum(row).1);
    let columns: [f64; 3] =
        std::array::from_fn(|b| quadratic_minimum([d[0][b], d[1][b], d[2][b]]).1);
    let by_rows = rows[0].min(rows[1]).min(rows[2]);
    let by_columns = columns[0].min(columns[1]).min(columns[2]);
    let upper = rows[0].min(rows[2]).min(columns[0]).min(columns[2]);
    CellBounds {
        // Never above a value reached, whatever the rounding.
        lower: by_rows.max(by_columns).min(upper),
        upper,
        across_rows: by_rows >= by_columns,
    }
}

/// The two halves of a quadratic's coefficients at `t = 1/2` (de Casteljau).
fn halve(q: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let (a, b) = ((q[0] + q[1]) * 0.5, (q[1] + q[2]) * 0.5);
    let mid = (a + b) * 0.5;
    ([q[0], a, mid], [mid, b, q[2]])
}

/// The two halves of a cell, across rows (`s` halved) or across columns (`t` halved).
fn halve_cell(d: &Coefficients, across_rows: bool) -> (Coefficients, Coefficients) {
    let (mut first, mut second) = ([[0.0; 3]; 3], [[0.0; 3]; 3]);
    for k in 0..3 {
        if across_rows {
            let (lo, hi) = halve([d[0][k], d[1][k], d[2][k]]);
            for a in 0..3 {
                first[a][k] = lo[a];
                second[a][k] = hi[a];
            }
        } else {
            (first[k], second[k]) = halve(d[k]);
        }
    }
    (first, second)
}

/// The branch and bound of the module's docs over the coefficients `d`.
pub fn surface_minimum(d: Coefficients) -> DistanceBounds {
    if !d.iter().flatten().all(|x| x.is_finite()) {
        return DistanceBounds {
            lower: f64::NAN,
            upper: f64::NAN,
        };
    }
    let first = bound_cell(&d);
    let mut upper = first.upper;
    let mut lower = f64::INFINITY;
    refine(&d, first, 0, &mut upper, &mut lower);
    DistanceBounds {
        lower: lower.min(upper),
        upper,
    }
}

/// One cell of the branch and bound, depth first: kept when its lower bound is within the gap
/// of the smallest upper bound met so far (which only falls, so the cell stays within the gap of
/// the final one), else halved, the half with the lower bound first.
fn refine(d: &Coefficients, bounds: CellBounds, depth: u8, upper: &mut f64, lower: &mut f64) {
    *upper = upper.min(bounds.upper);
    if bounds.lower >= *upper - BEZIER_GAP || depth >= MAX_HALVINGS {
        *lower = lower.min(bounds.lower);
        return;
    }
    let (first, second) = halve_cell(d, bounds.across_rows);
    let (a, b) = (bound_cell(&first), bound_cell(&second));
    if a.lower <= b.lower {
        refine(&first, a, depth + 1, upper, lower);
        refine(&second, b, depth + 1, upper, lower);
    } else {
        refine(&second, b, depth + 1, upper, lower);
        refine(&first, a, depth + 1, upper, lower);
    }
}
