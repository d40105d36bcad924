//! Biquadratic Bézier arithmetic: evaluation, sub-nets by blossoming, and a cell's error bound.

use glam::DVec3;

/// The quadratic Bézier curve with control points `p` at `t`, computed symmetrically in the
/// curve's direction: `(p0 (1-t)^2 + p2 t^2) + p1 2 t (1-t)`, the end points exactly at 0 and 1,
/// and a coordinate shared by the three points exactly that coordinate. For a parameter `t` that is a binary fraction (every cut of [`super::tessellate`] is
/// one), `1 - t` is exact, so the curve reversed at `1 - t` gives the same bits: two patches
/// sharing a curve in opposite directions compute the same vertices on it.
pub fn eval_curve(p: [DVec3; 3], t: f64) -> DVec3 {
    if t == 0.0 {
        return p[0];
    }
    if t == 1.0 {
        return p[2];
    }
    let s = 1.0 - t;
    let mut out = (p[0] * (s * s) + p[2] * (t * t)) + p[1] * (2.0 * s * t);
    // A coordinate the three points share is the curve's all along: keep it exact, so that a
    // collapsed row or column of control points (a cone's apex, a cap's centre) gives the very
    // point written, as its neighbours' borders do.
    for k in 0..3 {
        if p[0][k] == p[1][k] && p[1][k] == p[2][k] {
            out[k] = p[0][k];
        }
    }
    out
}

/// The biquadratic piece with control net `net` (`net[a][b]`: `a` across rows, parameter `s`;
/// `b` along them, parameter `t`) at `(s, t)`: the three row curves at `t`, then the curve
/// through them at `s`. On the piece's border this is exactly [`eval_curve`] of the border's
/// three control points (rows at `s = 0, 1`, columns at `t = 0, 1`).
pub fn eval_piece(net: &[[DVec3; 3]; 3], s: f64, t: f64) -> DVec3 {
    let rows = [
        eval_curve(net[0], t),
        eval_curve(net[1], t),
        eval_curve(net[2], t),
    ];
    eval_curve(rows, s)
}

/// The control points of the quadratic curve `p` restricted to `[a, b]` (its blossom at
/// `(a, a)`, `(a, b)`, `(b, b)`).
fn sub_curve(p: [DVec3; 3], a: f64, b: f64) -> [DVec3; 3] {
    let blossom = |x: f64, y: f64| {
        p[0] * ((1.0 - x) * (1.0 - y)) + p[1] * ((1.0 - x) * y + x * (1.0 - y)) + p[2] * (x * y)
    };
    [blossom(a, a), blossom(a, b), blossom(b, b)]
}

/// The control net of the piece restricted to `[s0, s1] x [t0, t1]`.
fn sub_net(net: &[[DVec3; 3]; 3], s: [f64; 2], t: [f64; 2]) -> [[DVec3; 3]; 3] {
    let rows = [
        sub_curve(net[0], t[0], t[1]),
        sub_curve(net[1], t[0], t[1]),
        sub_curve(net[2], t[0], t[1]),
    ];
    let columns: [[DVec3; 3]; 3] =
        std::array::from_fn(|b| sub_curve([rows[0][b], rows[1][b], rows[2][b]], s[0], s[1]));
    std::array::from_fn(|a| std::array::from_fn(|b| columns[b][a]))
}

/// What [`cell_bound`] finds for one cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellBound {
    /// The largest distance of the cell's control net from the bilinear patch of its corners
    /// (degree-raised to a biquadratic net): by the convex hull property, a bound on the distance
    /// between the surface and that bilinear patch at equal parameters, in units.
    pub deviation: f64,
    /// A quarter of `|c00 - c01 - c10 + c11|` over the corners: the largest distance between the
    /// bilinear patch and either pair of triangles of its corners, in units (0 for a
    /// parallelogram).
    pub twist: f64,
    /// The bend across rows (along `s`): the largest `|q0 - 2 q1 + q2| / 4` over the net's
    /// columns, the distance of a quadratic from its chord at mid-parameter.
    pub bend_s: f64,
    /// The bend along rows (along `t`), likewise.
    pub bend_t: f64,
}

impl CellBound {
    /// The bound for the cell cut into two triangles.
    pub fn split(&self) -> f64 {
        self.deviation + self.twist
    }
}

/// The error bound of the cell `[s0, s1] x [t0, t1]` of piece `net`.
pub fn cell_bound(net: &[[DVec3; 3]; 3], s: [f64; 2], t: [f64; 2]) -> CellBound {
    let q = sub_net(net, s, t);
    let (c00, c02, c20, c22) = (q[0][0], q[0][2], q[2][0], q[2][2]);
    let bilinear = [
        [c00, (c00 + c02) * 0.5, c02],
        [
            (c00 + c20) * 0.5,
            ((c00 + c02) + (c20 + c22)) * 0.25,
            (c02 + c22) * 0.5,
        ],
        [c20, (c20 + c22) * 0.5, c22],
    ];
    let mut deviation: f64 = 0.0;
    for a in 0..3 {
        for b in 0..3 {
            deviation = deviation.max(q[a][b].distance(bilinear[a][b]));
        }
    }
    let twist = ((c00 - c02) - (c20 - c22)).length() * 0.25;
    let bend = |p: [DVec3; 3]| ((p[0] + p[2]) - p[1] * 2.0).length() * 0.25;
    let bend_s = (0..3)
        .map(|b| bend([q[0][b], q[1][b], q[2][b]]))
        .fold(0.0, f64::max);
    let bend_t = (0..3).map(|a| bend(q[a])).fold(0.0, f64::max);
    CellBound {
        deviation,
        twist,
        bend_s,
        bend_t,
    }
}
