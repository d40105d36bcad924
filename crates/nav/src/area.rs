//! Walkable areas (van Waveren's AAS areas, from the configuration space): the floors of empty
//! regions, the flat-ish faces where an agent's origin rests on solid.

use cspace_geom::tolerance::{PLANE_THICKNESS, PORTAL_MIN_AREA};
use cspace_geom::{Aabb, Plane, Polygon};
use glam::{DVec2, DVec3};

use crate::cell::rounding_area;
use crate::portals::LeafGraph;

/// A walkable area: a convex piece of floor of one configuration space, where an agent of the
/// pose stands. Its polygon is in configuration space (the agent's origin, units): a face of the
/// expanded world with solid below and the region's empty space above.
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    /// The navigation pose (index into [`crate::NavMesh::poses`]).
    pub pose: usize,
    /// The empty region above it, in the pose's [`LeafGraph`].
    pub region: u32,
    /// The floor; its plane faces up (normal z at least [`crate::NavParams::min_walk_normal`]),
    /// vertices counter-clockwise seen from above.
    pub polygon: Polygon,
    /// The mean of the vertices (a point of the floor).
    pub centre: DVec3,
    /// The bounds of the polygon.
    pub bounds: Aabb,
}

impl Area {
    fn new(pose: usize, region: u32, polygon: Polygon) -> Area {
        let centre = polygon.vertex_mean();
        let bounds = Aabb::from_points(polygon.vertices.iter().copied());
        Area {
            pose,
            region,
            polygon,
            centre,
            bounds,
        }
    }

    /// The height of the floor's plane above `(x, y)`, units.
    pub fn floor_z(&self, x: f64, y: f64) -> f64 {
        floor_z(&self.polygon.plane, x, y)
    }

    /// The point of the floor above or below `point` (same x, y; on the floor's plane).
    pub fn on_floor(&self, point: DVec3) -> DVec3 {
        DVec3::new(point.x, point.y, self.floor_z(point.x, point.y))
    }

    /// True when `(x, y)` lies in the polygon seen from above, within `tolerance` units.
    pub fn contains_xy(&self, point: DVec3, tolerance: f64) -> bool {
        contains_xy(&self.polygon, point, tolerance)
    }
}

/// The slope of a floor of normal `normal` (not vertical) along the horizontal direction `u`:
/// the rise per unit across (positive uphill). The planner's crests and the simulator's
/// follower both read floors this way.
pub fn rise_along(normal: DVec3, u: DVec3) -> f64 {
    let across = u.truncate().length();
    if across == 0.0 {
        return 0.0;
    }
    -(normal.x * u.x + normal.y * u.y) / (normal.z * across)
}

/// The height of a plane that is not vertical above `(x, y)`.
pub(crate) fn floor_z(plane: &Plane, x: f64, y: f64) -> f64 {
    let n = plane.normal();
    (plane.dist() - n.x * x - n.y * y) / n.z
}

/// `a x b` of the horizontal parts: positive when `b` turns counter-clockwise from `a` (seen from
/// above).
#[inline]
pub(crate) fn cross2(a: DVec3, b: DVec3) -> f64 {
    a.x * b.y - a.y * b.x
}

/// True when `point` (seen from above) lies inside a polygon wound counter-clockwise seen from
/// above, within `tolerance` units of its edges.
pub(crate) fn contains_xy(polygon: &Polygon, point: DVec3, tolerance: f64) -> bool {
    let v = &polygon.vertices;
    (0..v.len()).all(|i| {
        let (a, b) = (v[i], v[(i + 1) % v.len()]);
        let edge = (b - a).truncate();
        let length = edge.length();
        length == 0.0 || cross2(b - a, point - a) >= -tolerance * length
    })
}

/// The part of `a` above or below `b` (seen from above), on `a`'s plane; `None` when they do not
/// overlap with positive area. Both are wound counter-clockwise seen from above.
pub(crate) fn overlap_xy(a: &Polygon, b: &Polygon) -> Option<Polygon> {
    let v = &b.vertices;
    let mut out = Some(a.clone());
    for i in 0..v.len() {
        let edge = v[(i + 1) % v.len()] - v[i];
        // The vertical plane through the edge, facing out of `b` (to the edge's right).
        let Ok(plane) = Plane::new(DVec3::new(edge.y, -edge.x, 0.0), 0.0) else {
            continue;
        };
        let plane = plane.with_dist(plane.normal().dot(v[i]));
        out = out.and_then(|p| p.clipped_behind_with(&plane, 0.0));
    }
    out.filter(|p| p.area() >= PORTAL_MIN_AREA)
}

/// The area of a convex polygon and its centroid (area-weighted, not the vertex mean).
pub(crate) fn centroid(polygon: &Polygon) -> (f64, DVec3) {
    let v = &polygon.vertices;
    let n = polygon.plane.normal();
    let (mut total, mut moment) = (0.0, DVec3::ZERO);
    for w in v[1..].windows(2) {
        let a = (w[0] - v[0]).cross(w[1] - v[0]).dot(n) * 0.5;
        total += a;
        moment += (v[0] + w[0] + w[1]) * (a / 3.0);
    }
    if total > 0.0 {
        (total, moment / total)
    } else {
        (0.0, polygon.vertex_mean())
    }
}

/// The walkable areas of one pose's graph: the floor pieces of its regions' boundaries. The
/// pieces of one cell face are joined back into the face when together they cover it.
pub(crate) fn areas_of(graph: &LeafGraph, pose: usize, min_walk_normal: f64) -> Vec<Area> {
    let mut out = Vec::new();
    let boundary = graph.boundary();
    let mut i = 0;
    while i < boundary.len() {
        // Pieces of one face are pushed in a row: group them.
        let (region, face) = (boundary[i].region, boundary[i].face);
        let mut j = i;
        while j < boundary.len() && boundary[j].region == region && boundary[j].face == face {
            j += 1;
        }
        let pieces = &boundary[i..j];
        i = j;
        let up = -pieces[0].polygon.plane.normal();
        if up.z < min_walk_normal {
            continue;
        }
        let whole = &graph.cell(region)[face as usize];
        let covered: f64 = pieces.iter().map(|p| p.polygon.area()).sum();
        if whole.area() - covered <= rounding_area(whole.perimeter()) {
            out.push(Area::new(pose, region, whole.flipped()));
        } else {
            out.extend(
                pieces
                    .iter()
                    .map(|p| Area::new(pose, region, p.polygon.flipped())),
            );
        }
    }
    out
}

/// A uniform grid over the areas seen from above: for each cell, the areas whose bounds meet it.
#[derive(Debug, Clone, Default)]
pub(crate) struct AreaGrid {
    origin: DVec2,
    cell: f64,
    dims: [usize; 2],
    start: Vec<u32>,
    items: Vec<u32>,
}

/// The most cells of an [`AreaGrid`].
const GRID_MAX_CELLS: usize = 1 << 18;
/// The smallest cell edge of an [`AreaGrid`], units: two Quake players.
const GRID_MIN_CELL: f64 = 64.0;

impl AreaGrid {
    pub fn new(areas: &[Area]) -> AreaGrid {
        let bounds = areas
            .iter()
            .fold(Aabb::EMPTY, |b, a| b.merged(a.bounds))
            .loosened(PLANE_THICKNESS);
        if areas.is_empty() {
            return AreaGrid {
                cell: GRID_MIN_CELL,
                dims: [0, 0],
                start: vec![0],
                ..AreaGrid::default()
            };
        }
        let size = bounds.size().truncate();
        let mut cell = GRID_MIN_CELL;
        while (size.x / cell).ceil() * (size.y / cell).ceil() > GRID_MAX_CELLS as f64 {
            cell *= 2.0;
        }
        let dims = [
            ((size.x / cell).ceil() as usize).max(1),
            ((size.y / cell).ceil() as usize).max(1),
        ];
        let mut grid = AreaGrid {
            origin: bounds.min.truncate(),
            cell,
            dims,
            start: vec![0; dims[0] * dims[1] + 1],
            items: Vec::new(),
        };
        let mut counts = vec![0u32; dims[0] * dims[1]];
        for a in areas {
            for c in grid.cells_of(a.bounds.loosened(PLANE_THICKNESS)) {
                counts[c] += 1;
            }
        }
        for (c, n) in counts.iter().enumerate() {
            grid.start[c + 1] = grid.start[c] + n;
        }
        let mut fill = grid.start.clone();
        grid.items = vec![0; grid.start[counts.len()] as usize];
        for (i, a) in areas.iter().enumerate() {
            for c in grid.cells_of(a.bounds.loosened(PLANE_THICKNESS)) {
                grid.items[fill[c] as usize] = i as u32;
                fill[c] += 1;
            }
        }
        grid
    }

    fn cell_range(&self, lo: f64, hi: f64, axis: usize) -> (usize, usize) {
        let o = [self.origin.x, self.origin.y][axis];
        let n = self.dims[axis];
        let a = ((lo - o) / self.cell).floor().clamp(0.0, (n - 1) as f64) as usize;
        let b = ((hi - o) / self.cell).floor().clamp(0.0, (n - 1) as f64) as usize;
        (a, b)
    }

    /// The cells the box meets (clamped to the grid), row by row.
    fn cells_of(&self, bounds: Aabb) -> impl Iterator<Item = usize> + use<> {
        let dims = self.dims;
        let ranges = (dims[0] > 0 && !bounds.is_empty()).then(|| {
            (
                self.cell_range(bounds.min.x, bounds.max.x, 0),
                self.cell_range(bounds.min.y, bounds.max.y, 1),
            )
        });
        ranges.into_iter().flat_map(move |((x0, x1), (y0, y1))| {
            (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| y * dims[0] + x))
        })
    }

    /// The areas listed in the cells the box meets (an area may come more than once).
    pub fn for_each_near(&self, bounds: Aabb, mut visit: impl FnMut(u32)) {
        for c in self.cells_of(bounds) {
            for &a in &self.items[self.start[c] as usize..self.start[c + 1] as usize] {
                visit(a);
            }
        }
    }

    /// The cell edge, units.
    pub fn cell(&self) -> f64 {
        self.cell
    }

    /// The grid's extent seen from above: `(min, max)`.
    pub fn extent(&self) -> (DVec2, DVec2) {
        (
            self.origin,
            self.origin + DVec2::new(self.dims[0] as f64, self.dims[1] as f64) * self.cell,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(min: (f64, f64), max: (f64, f64), z: f64) -> Polygon {
        Polygon {
            vertices: vec![
                DVec3::new(min.0, min.1, z),
                DVec3::new(max.0, min.1, z),
                DVec3::new(max.0, max.1, z),
                DVec3::new(min.0, max.1, z),
            ],
            plane: Plane::new(DVec3::Z, z).unwrap(),
        }
    }

    #[test]
    fn overlap_of_two_squares_is_their_common_square() {
        let a = square((0.0, 0.0), (10.0, 10.0), 5.0);
        let b = square((5.0, -5.0), (20.0, 8.0), 0.0);
        let o = overlap_xy(&a, &b).unwrap();
        assert!((o.area() - 40.0).abs() < 1e-9, "{}", o.area());
        assert!(o.vertices.iter().all(|v| v.z == 5.0));
        let far = square((30.0, 30.0), (40.0, 40.0), 5.0);
        assert!(overlap_xy(&a, &far).is_none());
        // Touching along an edge only: no area.
        let touching = square((10.0, 0.0), (20.0, 10.0), 5.0);
        assert!(overlap_xy(&a, &touching).is_none());
    }

    #[test]
    fn containment_seen_from_above_has_a_tolerance() {
        let a = square((0.0, 0.0), (10.0, 10.0), 0.0);
        assert!(contains_xy(&a, DVec3::new(5.0, 5.0, 100.0), 0.0));
        assert!(contains_xy(&a, DVec3::new(10.0, 5.0, 0.0), 0.0));
        assert!(!contains_xy(&a, DVec3::new(10.001, 5.0, 0.0), 0.0));
        assert!(contains_xy(&a, DVec3::new(10.001, 5.0, 0.0), 0.01));
    }

    #[test]
    fn centroids_weigh_by_area() {
        // A right triangle's centroid is the mean of its corners; a trapezoid's is not.
        let plane = Plane::new(DVec3::Z, 0.0).unwrap();
        let t = Polygon {
            vertices: vec![
                DVec3::ZERO,
                DVec3::new(3.0, 0.0, 0.0),
                DVec3::new(0.0, 3.0, 0.0),
            ],
            plane,
        };
        let (a, c) = centroid(&t);
        assert!((a - 4.5).abs() < 1e-12 && c.abs_diff_eq(DVec3::new(1.0, 1.0, 0.0), 1e-12));
        let q = Polygon {
            vertices: vec![
                DVec3::ZERO,
                DVec3::new(4.0, 0.0, 0.0),
                DVec3::new(3.0, 1.0, 0.0),
                DVec3::new(1.0, 1.0, 0.0),
            ],
            plane,
        };
        let (a, c) = centroid(&q);
        assert!((a - 3.0).abs() < 1e-12);
        // Moments about the x axis: the wide base pulls the centroid below the middle.
        assert!((c.y - 4.0 / 9.0).abs() < 1e-12, "{c}");
    }

    #[test]
    fn floor_height_follows_the_plane() {
        let n = DVec3::new(0.0, -0.6, 0.8);
        let plane = Plane::new(n, 8.0).unwrap();
        let z = floor_z(&plane, 3.0, 10.0);
        assert!((plane.signed_distance(DVec3::new(3.0, 10.0, z))).abs() < 1e-12);
    }
}
