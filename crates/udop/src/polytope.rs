//! Section 4.1's geometry (converting k-UDOPs to polytope meshes; `Udop::vertices`, `polygon`
//! and `polyhedron` use it): vertices in any dimension by intersecting every `D` planes, the
//! plane's O(k^2) polygon, and the planes of the polyhedron in space for
//! [`cspace_geom::Brush::from_planes`].

use glam::{DVec2, DVec3};

use crate::vector::Vector;
use cspace_geom::tolerance::{LINE_PARALLEL, POLYTOPE_WELD, VERTEX_SLACK, ZERO_LENGTH};

/// Why a k-DOP has no polytope to show.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PolytopeError {
    /// Some distance is infinite (an uncapped k-UDOP whose geometry never reached a side): the
    /// region may be unbounded.
    #[error("the k-DOP has an infinite distance along direction {direction}")]
    Infinite {
        /// The index of the direction.
        direction: usize,
    },
    /// The open region is empty (the centre is inside or on geometry and the sides cross).
    #[error("the k-DOP is empty")]
    Empty,
    /// The polyhedron could not be built (3D, through `Brush::from_planes`).
    #[error("the k-DOP's polyhedron could not be built: {0}")]
    Brush(#[from] cspace_geom::BrushError),
}

/// Relative tolerance of the vertex tests: a candidate vertex may lie this far (times the scale
/// of the distances) outside a plane and still count as on it.
const VERTEX_TOLERANCE: f64 = VERTEX_SLACK;

/// Solves the `D x D` system `rows[i] . x = rhs[i]` by Gaussian elimination with partial
/// pivoting; `None` when the rows are (nearly) dependent.
pub(crate) fn solve<V: Vector>(rows: &[V], rhs: &[f64]) -> Option<V> {
    let d = V::DIM;
    debug_assert!(d <= 3 && rows.len() == d && rhs.len() == d);
    let mut m = [[0.0f64; 4]; 3];
    for (i, (row, b)) in rows.iter().zip(rhs).enumerate() {
        for (j, cell) in m[i].iter_mut().take(d).enumerate() {
            *cell = row.component(j);
        }
        m[i][d] = *b;
    }
    for col in 0..d {
        let pivot = (col..d)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .expect("the range is not empty");
        // Unit normals: a pivot this small means two of the planes are (nearly) parallel.
        if m[pivot][col].abs() < ZERO_LENGTH {
            return None;
        }
        m.swap(col, pivot);
        for r in 0..d {
            if r != col {
                let f = m[r][col] / m[col][col];
                let pivot_row = m[col];
                for (cell, p) in m[r][col..=d].iter_mut().zip(&pivot_row[col..=d]) {
                    *cell -= f * p;
                }
            }
        }
    }
    Some(V::from_fn(|i| m[i][d] / m[i][i]))
}

/// Section 4.1: the vertices of `{x : normals[i] . x <= offsets[i]}`, by intersecting every `D`
/// planes and keeping the points inside all others ("in general, the algorithm is slow
/// `O(k^(D+1))`", less here since a candidate is dropped at the first plane it violates).
///
/// Vertices shared by more than `D` planes are reported once, in the order first found.
/// Infinite offsets must be filtered out by the caller.
pub fn halfspace_vertices<V: Vector>(normals: &[V], offsets: &[f64]) -> Vec<V> {
    let scale = offsets.iter().fold(1.0f64, |s, o| s.max(o.abs()));
    halfspace_vertices_within(normals, offsets, VERTEX_TOLERANCE * scale)
}

/// [`halfspace_vertices`] with an explicit absolute tolerance (units).
pub(crate) fn halfspace_vertices_within<V: Vector>(
    normals: &[V],
    offsets: &[f64],
    tolerance: f64,
) -> Vec<V> {
    let d = V::DIM;
    let k = normals.len();
    let mut vertices: Vec<V> = Vec::new();
    if k < d {
        return vertices;
    }
    let mut index: Vec<usize> = (0..d).collect();
    let mut rows = Vec::with_capacity(d);
    let mut rhs = Vec::with_capacity(d);
    loop {
        rows.clear();
        rhs.clear();
        for &i in &index {
            rows.push(normals[i]);
            rhs.push(offsets[i]);
        }
        if let Some(x) = solve(&rows, &rhs) {
            let inside = normals
                .iter()
                .zip(offsets)
                .all(|(n, o)| n.dot(x) <= o + tolerance);
            if inside
                && !vertices
                    .iter()
                    .any(|w| (*w - x).norm_l1() <= tolerance * d as f64)
            {
                vertices.push(x);
            }
        }
        // Next combination in lexicographic order.
        let mut pos = d;
        loop {
            if pos == 0 {
                return vertices;
            }
            pos -= 1;
            if index[pos] < k - d + pos {
                break;
            }
        }
        index[pos] += 1;
        for j in pos + 1..d {
            index[j] = index[j - 1] + 1;
        }
    }
}

/// Equation (4.1), the deltoid formula: for two vectors `a`, `b` in the plane, the point
/// `v = alpha a + beta b` with `(v - a) . a = 0` and `(v - b) . b = 0`, i.e. the vertex where the
/// lines with foot points `a` and `b` meet. `None` when `a` and `b` are parallel.
pub fn deltoid(a: DVec2, b: DVec2) -> Option<DVec2> {
    let (aa, bb, ab) = (a.dot(a), b.dot(b), a.dot(b));
    let det = aa * bb - ab * ab;
    if det <= LINE_PARALLEL * aa * bb {
        return None;
    }
    let alpha = bb * (aa - ab) / det;
    let beta = aa * (bb - ab) / det;
    Some(a * alpha + b * beta)
}

/// The convex polygon `{x : normals[i] . (x - centre) < distances[i]}` in the plane, counter-
/// clockwise, by clipping a square that holds it by each half-plane in turn (Sutherland-Hodgman,
/// cost `O(k m)` for `m` the size of the polygon so far). `square` is a half side known to hold
/// the region. Empty when no vertex is left.
pub(crate) fn clip_polygon(
    centre: DVec2,
    normals: &[DVec2],
    distances: &[f64],
    square: f64,
) -> Vec<DVec2> {
    let mut polygon = vec![
        DVec2::new(-square, -square),
        DVec2::new(square, -square),
        DVec2::new(square, square),
        DVec2::new(-square, square),
    ];
    let mut next = Vec::with_capacity(8);
    for (n, &h) in normals.iter().zip(distances) {
        if polygon.is_empty() {
            break;
        }
        next.clear();
        let count = polygon.len();
        for i in 0..count {
            let (p, q) = (polygon[i], polygon[(i + 1) % count]);
            let (dp, dq) = (n.dot(p) - h, n.dot(q) - h);
            if dp <= 0.0 {
                next.push(p);
            }
            if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
                next.push(p + (q - p) * (dp / (dp - dq)));
            }
        }
        std::mem::swap(&mut polygon, &mut next);
    }
    // Drop repeated vertices (a side that only touches a corner).
    let weld = POLYTOPE_WELD * square.max(1.0);
    let mut out: Vec<DVec2> = Vec::with_capacity(polygon.len());
    for p in polygon {
        if out.last().is_none_or(|q: &DVec2| q.distance(p) > weld) {
            out.push(p);
        }
    }
    while out.len() > 1 && out[0].distance(out[out.len() - 1]) <= weld {
        out.pop();
    }
    if out.len() < 3 || polygon_area(&out) <= 0.0 {
        return Vec::new();
    }
    out.into_iter().map(|p| p + centre).collect()
}

/// The signed area of a polygon (positive counter-clockwise), shoelace formula.
pub fn polygon_area(polygon: &[DVec2]) -> f64 {
    let n = polygon.len();
    let mut twice = 0.0;
    for i in 0..n {
        let (p, q) = (polygon[i], polygon[(i + 1) % n]);
        twice += p.x * q.y - q.x * p.y;
    }
    twice * 0.5
}

/// The perimeter of a polygon.
pub fn polygon_perimeter(polygon: &[DVec2]) -> f64 {
    let n = polygon.len();
    (0..n)
        .map(|i| polygon[i].distance(polygon[(i + 1) % n]))
        .sum()
}

/// The part of convex polygon `subject` inside convex polygon `clip` (both counter-clockwise).
pub fn convex_intersection(subject: &[DVec2], clip: &[DVec2]) -> Vec<DVec2> {
    let mut polygon = subject.to_vec();
    let mut next = Vec::with_capacity(polygon.len() + 4);
    let m = clip.len();
    for j in 0..m {
        if polygon.is_empty() {
            break;
        }
        let (a, b) = (clip[j], clip[(j + 1) % m]);
        // Inside is to the left of a -> b.
        let side = |p: DVec2| (b - a).perp_dot(p - a);
        next.clear();
        let count = polygon.len();
        for i in 0..count {
            let (p, q) = (polygon[i], polygon[(i + 1) % count]);
            let (sp, sq) = (side(p), side(q));
            if sp >= 0.0 {
                next.push(p);
            }
            if (sp > 0.0 && sq < 0.0) || (sp < 0.0 && sq > 0.0) {
                next.push(p + (q - p) * (sp / (sp - sq)));
            }
        }
        std::mem::swap(&mut polygon, &mut next);
    }
    if polygon.len() < 3 {
        polygon.clear();
    }
    polygon
}

/// The area of the symmetric difference of two convex polygons (Figure 4's measure).
pub fn symmetric_difference_area(a: &[DVec2], b: &[DVec2]) -> f64 {
    let common = polygon_area(&convex_intersection(a, b)).max(0.0);
    (polygon_area(a) + polygon_area(b) - 2.0 * common).max(0.0)
}

/// The planes `normal . x = normal . centre + distance` of a k-DOP in space, for
/// [`cspace_geom::Brush::from_planes`].
pub(crate) fn planes_3d(
    centre: DVec3,
    normals: &[DVec3],
    distances: &[f64],
) -> Vec<cspace_geom::Plane> {
    normals
        .iter()
        .zip(distances)
        .map(|(n, h)| {
            cspace_geom::Plane::new(*n, n.dot(centre) + h)
                .expect("directions are unit and distances finite")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_of_the_unit_cube() {
        let normals = [
            DVec3::X,
            DVec3::NEG_X,
            DVec3::Y,
            DVec3::NEG_Y,
            DVec3::Z,
            DVec3::NEG_Z,
        ];
        let v = halfspace_vertices(&normals, &[1.0; 6]);
        assert_eq!(v.len(), 8);
        assert!(v.iter().all(|p| p.abs() == DVec3::ONE));
    }

    #[test]
    fn deltoid_meets_both_lines() {
        let (a, b) = (DVec2::new(2.0, 0.0), DVec2::new(1.0, 1.0));
        let v = deltoid(a, b).unwrap();
        assert!(((v - a).dot(a)).abs() < 1e-12);
        assert!(((v - b).dot(b)).abs() < 1e-12);
        assert_eq!(v, DVec2::new(2.0, 0.0));
        assert!(deltoid(a, a * 3.0).is_none());
    }

    #[test]
    fn symmetric_difference_of_shifted_squares() {
        let square = |x: f64| {
            vec![
                DVec2::new(x, 0.0),
                DVec2::new(x + 1.0, 0.0),
                DVec2::new(x + 1.0, 1.0),
                DVec2::new(x, 1.0),
            ]
        };
        let d = symmetric_difference_area(&square(0.0), &square(0.25));
        assert!((d - 0.5).abs() < 1e-12, "{d}");
        assert_eq!(symmetric_difference_area(&square(0.0), &square(0.0)), 0.0);
    }
}
