//! Facets from the cut pieces: the vertex grid of a patch, cell by cell.

use glam::DVec3;

use super::bezier::{cell_bound, eval_piece};
use super::strips::PatchCuts;
use super::{ControlGrid, Facet, PatchTessellation};
use crate::tolerance::{FACET_PLANAR, VERTEX_WELD};

/// One vertex row or column of a patch: the piece it is computed in and the parameter there.
#[derive(Debug, Clone, Copy)]
struct Line {
    piece: usize,
    at: f64,
}

/// The vertex lines of a patch in one direction: each strip's cuts, the last cut of a strip
/// being the first of the next (the shared border is computed in the next piece, where it is the
/// same curve of control points).
fn lines(cuts: &[&[f64]]) -> Vec<Line> {
    let mut out = Vec::new();
    for (piece, strip) in cuts.iter().enumerate() {
        let last = piece + 1 == cuts.len();
        for (k, &at) in strip.iter().enumerate() {
            if k + 1 == strip.len() && !last {
                continue;
            }
            out.push(Line { piece, at });
        }
    }
    out
}

/// The facets of one patch from its cuts.
pub(super) fn facets_of(grid: &ControlGrid, cuts: &PatchCuts<'_>) -> PatchTessellation {
    let (s_lines, t_lines) = (lines(&cuts.s), lines(&cuts.t));
    let vertex = |a: usize, b: usize| {
        let (s, t) = (s_lines[a], t_lines[b]);
        grid.surface_point([s.piece, t.piece], s.at, t.at)
    };
    let vertices: Vec<Vec<DVec3>> = (0..s_lines.len())
        .map(|a| (0..t_lines.len()).map(|b| vertex(a, b)).collect())
        .collect();
    let mut out = PatchTessellation {
        facets: Vec::new(),
        grid: [s_lines.len(), t_lines.len()],
        error_bound: 0.0,
        degenerate_cells: 0,
    };
    for a in 0..s_lines.len() - 1 {
        // A cell lies in the piece of its far line's predecessor: the next line may start the
        // next piece at parameter 0, which is this piece's 1.
        let (s0, s1) = (s_lines[a], s_lines[a + 1]);
        let i = s0.piece;
        let s = [s0.at, if s1.piece == i { s1.at } else { 1.0 }];
        for b in 0..t_lines.len() - 1 {
            let (t0, t1) = (t_lines[b], t_lines[b + 1]);
            let j = t0.piece;
            let t = [t0.at, if t1.piece == j { t1.at } else { 1.0 }];
            let corners = [
                vertices[a][b],
                vertices[a][b + 1],
                vertices[a + 1][b + 1],
                vertices[a + 1][b],
            ];
            let bound = cell_bound(&grid.piece([i, j]), s, t);
            let piece = [i as u32, j as u32];
            let before = out.facets.len();
            cell_facets(corners, |vertices, planar| {
                let error_bound = if planar {
                    bound.deviation
                } else {
                    bound.split()
                };
                out.facets.push(Facet {
                    vertices,
                    piece,
                    cell: [s, t],
                    error_bound,
                });
            });
            if out.facets.len() == before {
                out.degenerate_cells += 1;
            }
        }
    }
    out.error_bound = out.facets.iter().map(|f| f.error_bound).fold(0.0, f64::max);
    out
}

/// Twice the area vector of a polygon (Newell), about its first vertex.
fn area_vector(points: &[DVec3]) -> DVec3 {
    let origin = points[0];
    let mut sum = DVec3::ZERO;
    for w in points[1..].windows(2) {
        sum += (w[0] - origin).cross(w[1] - origin);
    }
    sum
}

/// True when the polygon has area: more than [`VERTEX_WELD`] times its perimeter (the sliver
/// rule of [`Brush::from_polygon`](crate::Brush::from_polygon)).
fn has_area(points: &[DVec3]) -> bool {
    let n = points.len();
    let perimeter: f64 = (0..n)
        .map(|i| points[i].distance(points[(i + 1) % n]))
        .sum();
    0.5 * area_vector(points).length() > perimeter * VERTEX_WELD
}

/// Calls `emit` with the facets of one cell (corners in loop order) and whether each is the
/// whole cell made planar (`true`: a quadrilateral, or a triangle whose fourth corner was welded
/// onto another) or one of two triangles (`false`).
fn cell_facets(corners: [DVec3; 4], mut emit: impl FnMut(Vec<DVec3>, bool)) {
    // Weld coincident corners (collapsed rows and columns of control points).
    let mut welded: Vec<DVec3> = Vec::with_capacity(4);
    for c in corners {
        if welded.last().is_none_or(|w| !w.abs_diff_eq(c, VERTEX_WELD)) {
            welded.push(c);
        }
    }
    while welded.len() > 1 && welded[0].abs_diff_eq(welded[welded.len() - 1], VERTEX_WELD) {
        welded.pop();
    }
    match welded.len() {
        3 if has_area(&welded) => emit(welded, true),
        4 => {
            let normal = area_vector(&welded);
            if let Some(n) = normal.try_normalize() {
                let heights = welded.iter().map(|v| v.dot(n));
                let spread = heights.clone().fold(f64::NEG_INFINITY, f64::max)
                    - heights.fold(f64::INFINITY, f64::min);
                let convex = (0..4).all(|k| {
                    let (a, b, c) = (welded[k], welded[(k + 1) % 4], welded[(k + 2) % 4]);
                    (b - a).cross(c - b).dot(n) > 0.0
                });
                if spread <= 2.0 * FACET_PLANAR && convex && has_area(&welded) {
                    emit(welded, true);
                    return;
                }
            }
            let [a, b, c, d] = [welded[0], welded[1], welded[2], welded[3]];
            // The diagonal whose two triangles face the same way; the shorter when both do.
            let agree = |p: [DVec3; 3], q: [DVec3; 3]| area_vector(&p).dot(area_vector(&q)) > 0.0;
            let ac = agree([a, b, c], [a, c, d]);
            let bd = agree([a, b, d], [b, c, d]);
            let use_ac = match (ac, bd) {
                (true, false) => true,
                (false, true) => false,
                _ => a.distance_squared(c) <= b.distance_squared(d),
            };
            let triangles = if use_ac {
                [[a, b, c], [a, c, d]]
            } else {
                [[a, b, d], [b, c, d]]
            };
            for triangle in triangles {
                if has_area(&triangle) {
                    emit(triangle.to_vec(), false);
                }
            }
        }
        _ => {}
    }
}

/// See [`super::measured_error`].
pub(super) fn measured_error(
    grid: &ControlGrid,
    tessellation: &PatchTessellation,
    samples: usize,
) -> f64 {
    let mut worst: f64 = 0.0;
    let mut start = 0;
    let facets = &tessellation.facets;
    while start < facets.len() {
        // The facets of one cell are consecutive.
        let mut end = start + 1;
        while end < facets.len()
            && facets[end].cell == facets[start].cell
            && facets[end].piece == facets[start].piece
        {
            end += 1;
        }
        let polygons: Vec<crate::Brush> = facets[start..end]
            .iter()
            .filter_map(|f| crate::Brush::from_polygon(&f.vertices).ok())
            .collect();
        let piece = facets[start].piece.map(|x| x as usize);
        worst = worst.max(cell_error(
            &grid.piece(piece),
            facets[start].cell,
            polygons.iter(),
            samples,
        ));
        start = end;
    }
    worst
}

/// The largest distance from `samples x samples` points of the surface of `net` over `cell`
/// (corners and interior, evenly spaced; at least 2 a side) to the nearest of `facets`.
pub(super) fn cell_error<'a>(
    net: &[[DVec3; 3]; 3],
    cell: [[f64; 2]; 2],
    facets: impl Iterator<Item = &'a crate::Brush> + Clone,
    samples: usize,
) -> f64 {
    let samples = samples.max(2);
    let [[s0, s1], [t0, t1]] = cell;
    let mut worst: f64 = 0.0;
    for a in 0..samples {
        let s = s0 + (s1 - s0) * (a as f64 / (samples - 1) as f64);
        for b in 0..samples {
            let t = t0 + (t1 - t0) * (b as f64 / (samples - 1) as f64);
            let p = eval_piece(net, s, t);
            let d = facets
                .clone()
                .map(|f| f.closest_point(p).distance(p))
                .fold(f64::INFINITY, f64::min);
            if d.is_finite() {
                worst = worst.max(d);
            }
        }
    }
    worst
}
