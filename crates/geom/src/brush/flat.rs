//! Flat brushes: a convex polygon of zero thickness (a patch facet), as a [`Brush`] with two
//! opposite faces sharing every edge.
//!
//! Quake III collides with patches through *facets*: convex planar polygons, each with its plane
//! used both ways, its border planes and bevels (`cm_patch.c`, `CM_PatchCollideFromGrid` and
//! `CM_AddFacetBevels`). Here a facet is an ordinary [`Brush`] whose two faces are the polygon
//! seen from either side: its edges are the polygon's edges, each shared by both faces, and
//! [`Brush::box_planes`] gives, with no special case, the two face planes, the axial planes and
//! the edge bevels, which is exactly the Minkowski sum of the polygon and any box (the border
//! planes of Quake III are among the edge bevels where a box needs them). The exact backend's
//! rounded sweeps (faces, edge cylinders, vertex spheres) need no special case either.
//!
//! A flat brush has no interior: a point (or a zero-size box) is never deeper than
//! [`CONTACT`](crate::tolerance::CONTACT) inside it, so rays pass through facets.

use glam::DVec3;

use super::{Brush, BrushError, DroppedPlanes, Face, bevel};
use crate::plane::{Plane, PlaneError};
use crate::tolerance::{FACET_PLANAR, VERTEX_WELD, WORLD_HALF_EXTENT, ZERO_LENGTH};

impl Brush {
    /// A flat brush (a facet) from the vertices of a convex planar polygon, in either winding.
    ///
    /// Consecutive vertices closer than [`VERTEX_WELD`] are one vertex, and a vertex within
    /// [`VERTEX_WELD`] of the segment joining its neighbours is dropped (it only splits an edge).
    /// The two faces are the polygon's plane both ways, each placed at the polygon's support, so
    /// that every vertex lies within both faces (the slab is at most `2 * FACET_PLANAR` thick).
    ///
    /// Errors: a non-finite vertex ([`BrushError::DegeneratePlane`]); fewer than three distinct
    /// vertices or no area (a sliver narrower than twice [`VERTEX_WELD`]: [`BrushError::Empty`]);
    /// vertices farther than [`FACET_PLANAR`] from their common plane
    /// ([`BrushError::NotPlanar`]); a reflex or folded corner ([`BrushError::NotConvex`]);
    /// beyond the world ([`BrushError::OutOfWorld`]).
    pub fn from_polygon(points: &[DVec3]) -> Result<Brush, BrushError> {
        if points.iter().any(|p| !p.is_finite()) {
            return Err(BrushError::DegeneratePlane {
                face: 0,
                error: PlaneError::NonFinite,
            });
        }
        let reach = points
            .iter()
            .fold(0.0, |r: f64, p| r.max(p.abs().max_element()));
        if reach > WORLD_HALF_EXTENT {
            return Err(BrushError::OutOfWorld {
                reach,
                limit: WORLD_HALF_EXTENT,
            });
        }
        let mut loop_ = simplified_loop(points);
        if loop_.len() < 3 {
            return Err(BrushError::Empty);
        }
        // Newell's normal, about the first vertex (smaller numbers, same result).
        let origin = loop_[0];
        let mut twice_area = DVec3::ZERO;
        for i in 1..loop_.len() - 1 {
            twice_area += (loop_[i] - origin).cross(loop_[i + 1] - origin);
        }
        let perimeter: f64 = (0..loop_.len())
            .map(|i| loop_[i].distance(loop_[(i + 1) % loop_.len()]))
            .sum();
        // The same sliver rule as a face of `from_planes`.
        if 0.5 * twice_area.length() <= perimeter * VERTEX_WELD {
            return Err(BrushError::Empty);
        }
        let normal = twice_area.normalize();
        let high = loop_
            .iter()
            .map(|v| v.dot(normal))
            .fold(f64::NEG_INFINITY, f64::max);
        let low = loop_
            .iter()
            .map(|v| v.dot(normal))
            .fold(f64::INFINITY, f64::min);
        if high - low > 2.0 * FACET_PLANAR {
            return Err(BrushError::NotPlanar {
                distance: high - low,
            });
        }
        let count = loop_.len();
        for i in 0..count {
            let (a, b, c) = (loop_[i], loop_[(i + 1) % count], loop_[(i + 2) % count]);
            if (b - a).cross(c - b).dot(normal) <= 0.0 {
                return Err(BrushError::NotConvex);
            }
        }
        let front = Plane::from_unit(normal, high);
        let back = Plane::from_unit(-normal, -low);
        let forward: Vec<u32> = (0..count as u32).collect();
        let backward: Vec<u32> = forward.iter().rev().copied().collect();
        let faces = vec![
            Face {
                plane: front,
                vertices: forward,
            },
            Face {
                plane: back,
                vertices: backward,
            },
        ];
        loop_.shrink_to_fit();
        let mut brush = Brush::assemble(faces, loop_, DroppedPlanes::default());
        brush.box_planes = bevel::box_planes(&brush);
        Ok(brush)
    }

    /// True for a flat brush ([`Brush::from_polygon`]): two opposite faces on one polygon, no
    /// interior.
    pub fn is_flat(&self) -> bool {
        self.faces.len() == 2
    }

    /// The polygon of a flat brush, counter-clockwise seen from the front of its first face.
    pub fn flat_polygon(&self) -> Option<crate::polygon::Polygon> {
        self.is_flat().then(|| self.face_polygon(0))
    }

    /// The prism `F + [-h, h] z` of a flat brush `F` (the exact backend's first step for a
    /// vertical cylinder), built from its boundary rather than from planes: for a facet close to
    /// vertical the prism is a slab `2 h |n_z|` thin, which [`Brush::from_planes`] would take for
    /// empty.
    ///
    /// A facet that is not vertical gives a closed polyhedron: the facet raised and lowered by
    /// `h` and one vertical quadrilateral per edge (no edge of a facet that is not vertical is
    /// vertical). A vertical facet (or one whose edges are vertical to rounding) gives a flat
    /// brush again: the convex hull, in the facet's plane, of its vertices moved by `h` up and
    /// down along the plane's most vertical direction.
    pub(crate) fn flat_prism(&self, half_height: f64) -> Brush {
        debug_assert!(self.is_flat());
        let face = &self.faces[0];
        // Orient the loop to face up (n_z >= 0).
        let (normal, loop_): (DVec3, Vec<DVec3>) = if face.plane.normal().z >= 0.0 {
            (
                face.plane.normal(),
                face.vertices
                    .iter()
                    .map(|&v| self.vertices[v as usize])
                    .collect(),
            )
        } else {
            let back = &self.faces[1];
            (
                back.plane.normal(),
                back.vertices
                    .iter()
                    .map(|&v| self.vertices[v as usize])
                    .collect(),
            )
        };
        let count = loop_.len();
        let up = DVec3::Z * half_height;
        let vertical_edge = (0..count).any(|i| {
            let e = loop_[(i + 1) % count] - loop_[i];
            e.truncate().length() <= ZERO_LENGTH * e.length()
        });
        if normal.z == 0.0 || vertical_edge {
            // The plane's most vertical direction (Z itself for an exactly vertical facet).
            let rise = (DVec3::Z - normal * normal.z).normalize() * half_height;
            let moved: Vec<DVec3> = loop_.iter().flat_map(|&v| [v + rise, v - rise]).collect();
            let hull = convex_hull_in_plane(&moved, normal);
            return Brush::from_polygon(&hull)
                .expect("a vertical facet moved within its own plane stays a valid facet");
        }
        let mut vertices: Vec<DVec3> = loop_.iter().map(|&v| v + up).collect();
        vertices.extend(loop_.iter().map(|&v| v - up));
        let top: Vec<u32> = (0..count as u32).collect();
        let bottom: Vec<u32> = (0..count as u32).rev().map(|i| i + count as u32).collect();
        let support = |n: DVec3, range: std::ops::Range<usize>| {
            vertices[range]
                .iter()
                .map(|v| v.dot(n))
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let mut faces = vec![
            Face {
                plane: Plane::from_unit(normal, support(normal, 0..count)),
                vertices: top,
            },
            Face {
                plane: Plane::from_unit(-normal, support(-normal, count..2 * count)),
                vertices: bottom,
            },
        ];
        for i in 0..count {
            let j = (i + 1) % count;
            let side = (loop_[j] - loop_[i]).cross(DVec3::Z).normalize();
            faces.push(Face {
                plane: Plane::from_unit(side, side.dot(loop_[i])),
                vertices: vec![(i + count) as u32, (j + count) as u32, j as u32, i as u32],
            });
        }
        let mut brush = Brush::assemble(faces, vertices, DroppedPlanes::default());
        brush.box_planes = bevel::box_planes(&brush);
        brush
    }
}

/// The convex hull of points lying in a plane with unit `normal`, counter-clockwise seen from
/// its front (Andrew's monotone chain on coordinates in the plane; the points are returned
/// unchanged).
fn convex_hull_in_plane(points: &[DVec3], normal: DVec3) -> Vec<DVec3> {
    let plane = Plane::from_unit(normal, 0.0);
    let (u, v) = plane.basis();
    let mut order: Vec<(f64, f64, usize)> = points
        .iter()
        .enumerate()
        .map(|(i, p)| (p.dot(u), p.dot(v), i))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let cross = |o: (f64, f64, usize), a: (f64, f64, usize), b: (f64, f64, usize)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f64, f64, usize)> = Vec::with_capacity(order.len() + 1);
    for &q in &order {
        while hull.len() >= 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], q) <= 0.0 {
            hull.pop();
        }
        hull.push(q);
    }
    let lower = hull.len() + 1;
    for &q in order.iter().rev().skip(1) {
        while hull.len() >= lower && cross(hull[hull.len() - 2], hull[hull.len() - 1], q) <= 0.0 {
            hull.pop();
        }
        hull.push(q);
    }
    hull.pop();
    hull.into_iter().map(|(_, _, i)| points[i]).collect()
}

/// The loop without repeated vertices (within [`VERTEX_WELD`], first and last included) and
/// without vertices lying on the segment between their neighbours.
fn simplified_loop(points: &[DVec3]) -> Vec<DVec3> {
    let mut out: Vec<DVec3> = Vec::with_capacity(points.len());
    for &p in points {
        if out.last().is_none_or(|q| !q.abs_diff_eq(p, VERTEX_WELD)) {
            out.push(p);
        }
    }
    while out.len() > 1 && out[0].abs_diff_eq(*out.last().expect("not empty"), VERTEX_WELD) {
        out.pop();
    }
    // Drop vertices that only split a straight edge, until none is left.
    let mut changed = true;
    while changed && out.len() >= 3 {
        changed = false;
        for i in 0..out.len() {
            let count = out.len();
            let (a, b, c) = (out[(i + count - 1) % count], out[i], out[(i + 1) % count]);
            let on = crate::polygon::closest_on_segment(a, c, b);
            if on.distance(b) <= VERTEX_WELD {
                out.remove(i);
                changed = true;
                break;
            }
        }
    }
    out
}
