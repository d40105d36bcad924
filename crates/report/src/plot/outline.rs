//! Brush outlines for the plot's views: a brush seen along one axis is the convex hull of its
//! vertices projected on the other two, clipped to the view.

use cspace_geom::Brush;

/// An axis-aligned rectangle of a view, in world units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// The smallest corner (horizontal, vertical).
    pub min: (f64, f64),
    /// The largest corner.
    pub max: (f64, f64),
}

/// The outline of `brush` seen along the axis that is neither `a` nor `b` (0 = x, 1 = y, 2 = z):
/// the convex hull of its projected vertices, counter-clockwise, clipped to `view`. Empty when
/// the brush lies outside the view.
///
/// The clip is done here: plotters draws a polygon with corners outside its chart by dropping
/// them, which turned boxes running out of the view into triangles.
pub fn brush_outline(brush: &Brush, [a, b]: [usize; 2], view: Rect) -> Vec<(f64, f64)> {
    let outline = hull(brush.vertices().iter().map(|v| (v[a], v[b])).collect());
    clip(&outline, view)
}

/// The 2D convex hull of `points` (Andrew's monotone chain), counter-clockwise, not closed.
/// Points within a rounding of a hull edge are left out, so the copies of one vertex that
/// rounding left apart and the vertices inside a face seen edge-on do not become corners.
pub fn hull(points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    // `-0.0` sorts before `0.0` under `total_cmp` but equals it: the chain needs one order, so
    // the sign of zero goes first (brush vertices on a zero plane come out as either). Missing
    // this made the first plots draw boxes as triangles.
    let mut points: Vec<(f64, f64)> = points
        .into_iter()
        .map(|(x, y)| (x + 0.0, y + 0.0))
        .collect();
    points.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.total_cmp(&q.1)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let span = points
        .iter()
        .fold(0.0f64, |m, p| m.max(p.0.abs()).max(p.1.abs()))
        .max(1.0);
    // Twice the area of a triangle whose height is a rounding of the coordinates.
    let flat = cspace_geom::tolerance::PARALLEL * span * span;
    let cross = |o: (f64, f64), p: (f64, f64), q: (f64, f64)| {
        (p.0 - o.0) * (q.1 - o.1) - (p.1 - o.1) * (q.0 - o.0)
    };
    let mut h: Vec<(f64, f64)> = Vec::with_capacity(points.len() + 1);
    for pass in [points.clone(), points.iter().rev().copied().collect()] {
        let floor = h.len();
        for p in pass {
            while h.len() >= floor + 2 && cross(h[h.len() - 2], h[h.len() - 1], p) <= flat {
                h.pop();
            }
            h.push(p);
        }
        // Each chain's last point is the next chain's first.
        h.pop();
    }
    h
}

/// `polygon` (convex) clipped to `rect` (Sutherland-Hodgman, one side at a time).
pub fn clip(polygon: &[(f64, f64)], rect: Rect) -> Vec<(f64, f64)> {
    // Each side: (axis, bound, keep the side below the bound).
    let sides = [
        (0, rect.min.0, false),
        (0, rect.max.0, true),
        (1, rect.min.1, false),
        (1, rect.max.1, true),
    ];
    let mut out = polygon.to_vec();
    for (axis, bound, below) in sides {
        let coord = |p: (f64, f64)| if axis == 0 { p.0 } else { p.1 };
        let inside = |p: (f64, f64)| {
            if below {
                coord(p) <= bound
            } else {
                coord(p) >= bound
            }
        };
        let input = std::mem::take(&mut out);
        for (i, &p) in input.iter().enumerate() {
            let q = input[(i + 1) % input.len()];
            if inside(p) {
                out.push(p);
            }
            if inside(p) != inside(q) {
                let t = (bound - coord(p)) / (coord(q) - coord(p));
                out.push((p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t));
            }
        }
        if out.is_empty() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use cspace_geom::{Aabb, DVec3};

    use super::*;

    fn corners(outline: &[(f64, f64)]) -> Vec<(f64, f64)> {
        let mut c = outline.to_vec();
        c.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.total_cmp(&q.1)));
        c
    }

    /// The regression of the first plots: a box brush reaching out of the view (a tunnel wall)
    /// was drawn as a triangle. Its outline has four corners in both views, clipped to the view.
    #[test]
    fn a_box_brush_has_four_corners_in_both_views() {
        let wall = Brush::from_aabb(Aabb::new(
            DVec3::new(0.0, 152.0, 48.0),
            DVec3::new(640.0, 248.0, 128.0),
        ))
        .unwrap();
        let view = Rect {
            min: (-164.0, -300.0),
            max: (520.0, 300.0),
        };
        let top = brush_outline(&wall, [0, 1], view);
        assert_eq!(
            corners(&top),
            [(0.0, 152.0), (0.0, 248.0), (520.0, 152.0), (520.0, 248.0)]
        );
        let side = brush_outline(&wall, [0, 2], view);
        assert_eq!(
            corners(&side),
            [(0.0, 48.0), (0.0, 128.0), (520.0, 48.0), (520.0, 128.0)]
        );
        // Inside the view: the box as it is.
        let whole = Rect {
            min: (-1000.0, -1000.0),
            max: (1000.0, 1000.0),
        };
        assert_eq!(brush_outline(&wall, [1, 2], whole).len(), 4);
        // Outside: nothing.
        let away = Rect {
            min: (700.0, 0.0),
            max: (800.0, 10.0),
        };
        assert!(brush_outline(&wall, [0, 1], away).is_empty());
    }

    #[test]
    fn rounding_does_not_add_corners() {
        let noisy = vec![
            (0.0, 0.0),
            (1e-13, 0.0),
            (10.0, 0.0),
            (10.0, 5.0 - 1e-12),
            (10.0, 5.0),
            (5.0, 5.0 + 1e-13),
            (0.0, 5.0),
        ];
        assert_eq!(hull(noisy).len(), 4);
        // Both signs of zero on one edge.
        let zeros = vec![
            (-0.0, 248.0),
            (0.0, 248.0),
            (0.0, 152.0),
            (640.0, 152.0),
            (640.0, 248.0),
        ];
        assert_eq!(hull(zeros).len(), 4);
    }
}
