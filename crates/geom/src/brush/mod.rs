//! Convex brushes: the intersection of the back half-spaces of a set of planes.
//!
//! A [`Brush`] is built from planes only ([`Brush::from_planes`]); its vertices, faces and edges
//! come from clipping a large square on each plane by all the others (never from the three points
//! of a `.map` face, which need not be vertices). Bad input is an error, never a panic.

mod bevel;
mod flat;

use std::fmt;

use glam::DVec3;

use crate::aabb::Aabb;
use crate::plane::{Plane, PlaneError};
use crate::polygon::Polygon;
use crate::tolerance::MAX_BRUSH_FACES;
use crate::tolerance::VERTEX_SNAP_DETERMINANT;
use crate::tolerance::{NORMAL_EQUAL, PLANE_THICKNESS, VERTEX_WELD, WORLD_HALF_EXTENT};

/// The index of a brush in its [`World`](crate::World).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BrushId(pub u32);

impl fmt::Display for BrushId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why a set of planes is not a usable brush.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BrushError {
    /// A plane could not be made (zero normal, collinear points, non-finite numbers).
    #[error("face {face}: {error}")]
    DegeneratePlane {
        /// Index of the face (in input order).
        face: usize,
        /// What is wrong with it.
        error: PlaneError,
    },
    /// Fewer than four faces: no bounded volume is possible.
    #[error("brush has {count} faces; a closed brush needs at least 4")]
    TooFewFaces {
        /// How many faces remain.
        count: usize,
    },
    /// The half-spaces have no common interior (empty, or of zero thickness).
    #[error("brush is empty: its planes enclose no volume")]
    Empty,
    /// The half-spaces do not enclose a bounded region.
    #[error("brush is open: its planes do not enclose a bounded region")]
    Unbounded,
    /// A vertex lies beyond a limit: [`WORLD_HALF_EXTENT`] for any brush,
    /// [`MAX_COORDINATE`](crate::tolerance::MAX_COORDINATE) for the world's own brushes
    /// ([`Brush::check_domain`]).
    #[error(
        "brush reaches {} units from the origin, beyond the limit of +-{} units",
        crate::domain::number(*reach),
        crate::domain::number(*limit)
    )]
    OutOfWorld {
        /// The largest coordinate of its vertices, in magnitude.
        reach: f64,
        /// The limit, in units.
        limit: f64,
    },
    /// A brush written with more faces than [`MAX_BRUSH_FACES`] (refused before it is built).
    #[error(
        "brush has {count} faces; at most {limit} are read (tolerance::MAX_BRUSH_FACES): \
         building a brush costs about the square of its faces"
    )]
    TooManyFaces {
        /// How many faces are written.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// The vertices of a flat brush ([`Brush::from_polygon`]) are not in one plane.
    #[error(
        "facet is not planar: its vertices spread {distance} units across their plane (at most \
         twice FACET_PLANAR)"
    )]
    NotPlanar {
        /// The spread of the vertices along the polygon's normal, in units.
        distance: f64,
    },
    /// The polygon of a flat brush has a reflex or folded corner.
    #[error("facet is not a convex polygon")]
    NotConvex,
}

/// [`BrushError::TooManyFaces`] past [`MAX_BRUSH_FACES`].
fn check_face_count(count: usize) -> Result<(), BrushError> {
    if count > MAX_BRUSH_FACES {
        return Err(BrushError::TooManyFaces {
            count,
            limit: MAX_BRUSH_FACES,
        });
    }
    Ok(())
}

/// Planes dropped while building a brush; the brush is still valid.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DroppedPlanes {
    /// Planes equal to an earlier plane (same normal and distance within tolerance): the first is
    /// kept.
    pub duplicate: usize,
    /// Planes that do not bound a face of positive area (they touch the brush at most along an
    /// edge or a vertex, or lie entirely outside it).
    pub redundant: usize,
}

/// One face of a brush: its plane and its vertices, counter-clockwise seen from outside.
#[derive(Debug, Clone, PartialEq)]
pub struct Face {
    /// The face plane; its normal points out of the brush.
    pub plane: Plane,
    /// Indices into [`Brush::vertices`], counter-clockwise seen from outside.
    pub vertices: Vec<u32>,
}

/// An edge of a brush: two vertex indices and the two faces meeting there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// Indices into [`Brush::vertices`].
    pub vertices: [u32; 2],
    /// Indices into [`Brush::faces`] of the two faces sharing the edge.
    pub faces: [u32; 2],
}

/// A convex polyhedron with its boundary.
#[derive(Debug, Clone, PartialEq)]
pub struct Brush {
    faces: Vec<Face>,
    vertices: Vec<DVec3>,
    edges: Vec<Edge>,
    bounds: Aabb,
    /// Face planes followed by the box bevels (see [`Brush::box_planes`]).
    box_planes: Vec<Plane>,
    dropped: DroppedPlanes,
}

impl Brush {
    /// Builds a brush from the planes that bound it (normals pointing out).
    ///
    /// Duplicate and redundant planes are dropped and counted ([`Brush::dropped`]); an empty,
    /// unbounded or out-of-world brush, or one with fewer than four faces, is an error.
    pub fn from_planes(planes: &[Plane]) -> Result<Brush, BrushError> {
        if planes.len() < 4 {
            return Err(BrushError::TooFewFaces {
                count: planes.len(),
            });
        }
        let mut dropped = DroppedPlanes::default();
        let mut unique: Vec<Plane> = Vec::with_capacity(planes.len());
        for plane in planes {
            if unique
                .iter()
                .any(|u| u.approx_eq(plane, NORMAL_EQUAL, PLANE_THICKNESS))
            {
                dropped.duplicate += 1;
            } else {
                unique.push(*plane);
            }
        }

        // Golodetz Listing 4's device: a huge polygon on each plane, clipped by all the others.
        // It is larger than the world so that a polygon still touching its border proves the
        // brush open. Clipping is exact (no plane thickness), so the copies of one vertex computed
        // on different faces differ only by rounding and weld together; a plane that only touches
        // the brush leaves a sliver that welds away.
        let half = 4.0 * WORLD_HALF_EXTENT;
        let mut polygons: Vec<Polygon> = Vec::with_capacity(unique.len());
        for (i, plane) in unique.iter().enumerate() {
            let mut polygon = Some(Polygon::square_on(*plane, half));
            for (j, other) in unique.iter().enumerate() {
                if i == j {
                    continue;
                }
                polygon = polygon.and_then(|p| p.clipped_behind_with(other, 0.0));
                if polygon.is_none() {
                    break;
                }
            }
            match polygon {
                Some(p) => polygons.push(p),
                None => dropped.redundant += 1,
            }
        }
        if polygons.is_empty() {
            return Err(BrushError::Empty);
        }
        // A vertex left on the border of the huge square proves the brush open: a bounded brush
        // inside the world has every vertex within 2 * sqrt(3) * WORLD_HALF_EXTENT of the square's
        // centre, well inside its border at 4 * WORLD_HALF_EXTENT.
        for polygon in &polygons {
            let centre = polygon.plane.normal() * polygon.plane.dist();
            for v in &polygon.vertices {
                if v.distance(centre) > 0.99 * half {
                    return Err(BrushError::Unbounded);
                }
            }
        }
        let reach = polygons
            .iter()
            .flat_map(|p| &p.vertices)
            .fold(0.0, |r: f64, v| r.max(v.abs().max_element()));
        if reach > WORLD_HALF_EXTENT {
            return Err(BrushError::OutOfWorld {
                reach,
                limit: WORLD_HALF_EXTENT,
            });
        }

        // Weld vertices and turn polygons into index loops.
        let mut vertices: Vec<DVec3> = Vec::new();
        let mut faces: Vec<Face> = Vec::with_capacity(polygons.len());
        for polygon in &polygons {
            let mut loop_: Vec<u32> = Vec::with_capacity(polygon.vertices.len());
            for &v in &polygon.vertices {
                let index = match vertices.iter().position(|w| w.abs_diff_eq(v, VERTEX_WELD)) {
                    Some(i) => i as u32,
                    None => {
                        vertices.push(v);
                        (vertices.len() - 1) as u32
                    }
                };
                if loop_.last() != Some(&index) {
                    loop_.push(index);
                }
            }
            while loop_.len() > 1 && loop_.first() == loop_.last() {
                loop_.pop();
            }
            // A sliver narrower than twice the weld distance is an edge, not a face.
            if loop_.len() < 3 || polygon.area() <= polygon.perimeter() * VERTEX_WELD {
                dropped.redundant += 1;
                continue;
            }
            faces.push(Face {
                plane: polygon.plane,
                vertices: loop_,
            });
        }
        if faces.len() < 4 {
            // Every face collapsed: the planes meet in a point, a segment or a flat polygon.
            return Err(BrushError::Empty);
        }
        // Keep only vertices still used by a face (welding may have orphaned some).
        let mut used = vec![false; vertices.len()];
        for face in &faces {
            for &v in &face.vertices {
                used[v as usize] = true;
            }
        }
        let mut remap = vec![u32::MAX; vertices.len()];
        let mut kept = Vec::with_capacity(vertices.len());
        for (i, v) in vertices.iter().enumerate() {
            if used[i] {
                remap[i] = kept.len() as u32;
                kept.push(*v);
            }
        }
        for face in &mut faces {
            for v in &mut face.vertices {
                *v = remap[*v as usize];
            }
        }
        let vertices = exact_vertices(kept, &faces);
        let mut brush = Brush::assemble(faces, vertices, dropped);
        if brush.volume() <= PLANE_THICKNESS * brush.bounds.surface_area() {
            return Err(BrushError::Empty);
        }
        brush.box_planes = bevel::box_planes(&brush);
        Ok(brush)
    }

    /// A brush from its faces and vertices, with its edges and bounds (its box planes are left
    /// to the caller, which may still refuse it).
    fn assemble(faces: Vec<Face>, vertices: Vec<DVec3>, dropped: DroppedPlanes) -> Brush {
        let edges = edges_of(&faces);
        let bounds = Aabb::from_points(vertices.iter().copied());
        Brush {
            faces,
            vertices,
            edges,
            bounds,
            box_planes: Vec::new(),
            dropped,
        }
    }

    /// Builds a brush written in a world file (a map's faces, a TOML world's planes): as
    /// [`Brush::from_planes`], but a brush of more than [`MAX_BRUSH_FACES`] planes is refused
    /// before it is built ([`BrushError::TooManyFaces`]), since building one costs about the
    /// square of its planes (a 20,000-face brush took 27.8 s in `sim map`; issue 36).
    pub fn from_written_planes(planes: &[Plane]) -> Result<Brush, BrushError> {
        check_face_count(planes.len())?;
        Brush::from_planes(planes)
    }

    /// Builds a brush from `.map` faces, three points each (see [`Plane::from_map_points`]);
    /// at most [`MAX_BRUSH_FACES`] of them ([`Brush::from_written_planes`]).
    pub fn from_map_points(faces: &[[DVec3; 3]]) -> Result<Brush, BrushError> {
        check_face_count(faces.len())?;
        let planes = faces
            .iter()
            .enumerate()
            .map(|(face, p)| {
                Plane::from_map_points(p[0], p[1], p[2])
                    .map_err(|error| BrushError::DegeneratePlane { face, error })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Brush::from_planes(&planes)
    }

    /// The axis-aligned box `[min, max]` as a brush.
    pub fn from_aabb(bounds: Aabb) -> Result<Brush, BrushError> {
        if !bounds.min.is_finite() || !bounds.max.is_finite() {
            return Err(BrushError::DegeneratePlane {
                face: 0,
                error: PlaneError::NonFinite,
            });
        }
        let planes = [
            Plane::axial(DVec3::X, bounds.max.x),
            Plane::axial(DVec3::NEG_X, -bounds.min.x),
            Plane::axial(DVec3::Y, bounds.max.y),
            Plane::axial(DVec3::NEG_Y, -bounds.min.y),
            Plane::axial(DVec3::Z, bounds.max.z),
            Plane::axial(DVec3::NEG_Z, -bounds.min.z),
        ];
        Brush::from_planes(&planes)
    }

    /// The faces, each with its outward plane.
    pub fn faces(&self) -> &[Face] {
        &self.faces
    }

    /// The vertices.
    pub fn vertices(&self) -> &[DVec3] {
        &self.vertices
    }

    /// The edges, each shared by two faces.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// The bounding box of the vertices.
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Checks that the brush lies within [`MAX_COORDINATE`](crate::tolerance::MAX_COORDINATE),
    /// the limit of the world's own geometry (the numeric domain, [`crate::domain`]); the map and
    /// world readers call it on every brush they build.
    pub fn check_domain(&self) -> Result<(), BrushError> {
        let reach = self
            .bounds
            .min
            .abs()
            .max(self.bounds.max.abs())
            .max_element();
        if reach > crate::tolerance::MAX_COORDINATE {
            return Err(BrushError::OutOfWorld {
                reach,
                limit: crate::tolerance::MAX_COORDINATE,
            });
        }
        Ok(())
    }

    /// What was dropped while building the brush.
    pub fn dropped(&self) -> DroppedPlanes {
        self.dropped
    }

    /// The face planes, in face order.
    pub fn planes(&self) -> impl ExactSizeIterator<Item = Plane> + '_ {
        self.faces.iter().map(|f| f.plane)
    }

    /// The face planes followed by the bevel planes that make the set exact under Minkowski
    /// expansion by any axis-aligned box: the axial planes at the bounds and the planes through
    /// each edge whose normal is the edge direction crossed with a coordinate axis, with the whole
    /// brush behind (qbsp's bevels, q3map's `AddBrushBevels`). No bevel duplicates a face or axial
    /// plane. Every plane supports the brush (touches it with the brush behind).
    pub fn box_planes(&self) -> &[Plane] {
        &self.box_planes
    }

    /// Bytes the brush occupies: the struct and its arrays (capacity, not just length), for
    /// memory reports.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Brush>()
            + self.faces.capacity() * std::mem::size_of::<Face>()
            + self
                .faces
                .iter()
                .map(|f| f.vertices.capacity() * std::mem::size_of::<u32>())
                .sum::<usize>()
            + self.vertices.capacity() * std::mem::size_of::<DVec3>()
            + self.edges.capacity() * std::mem::size_of::<Edge>()
            + self.box_planes.capacity() * std::mem::size_of::<Plane>()
    }

    /// The number of face planes at the start of [`Brush::box_planes`].
    pub fn face_count(&self) -> usize {
        self.faces.len()
    }

    /// The polygon of face `index`.
    pub fn face_polygon(&self, index: usize) -> Polygon {
        let face = &self.faces[index];
        Polygon {
            vertices: face
                .vertices
                .iter()
                .map(|&v| self.vertices[v as usize])
                .collect(),
            plane: face.plane,
        }
    }

    /// The support value `max v . direction` over the vertices.
    pub fn support(&self, direction: DVec3) -> f64 {
        self.vertices
            .iter()
            .map(|v| v.dot(direction))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The vertex maximising `v . direction` (the first one on ties).
    pub fn support_point(&self, direction: DVec3) -> DVec3 {
        let mut best = self.vertices[0];
        let mut best_d = best.dot(direction);
        for &v in &self.vertices[1..] {
            let d = v.dot(direction);
            if d > best_d {
                best = v;
                best_d = d;
            }
        }
        best
    }

    /// The largest signed distance of `point` to a face plane: negative inside (by how much the
    /// point is inside the nearest face plane), positive outside (a lower bound of the Euclidean
    /// distance to the brush).
    pub fn plane_distance(&self, point: DVec3) -> f64 {
        self.faces
            .iter()
            .map(|f| f.plane.signed_distance(point))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The volume, in cubic units.
    pub fn volume(&self) -> f64 {
        let origin = self.vertices[0];
        let mut six = 0.0;
        for face in &self.faces {
            let a = self.vertices[face.vertices[0] as usize] - origin;
            for w in face.vertices[1..].windows(2) {
                let b = self.vertices[w[0] as usize] - origin;
                let c = self.vertices[w[1] as usize] - origin;
                six += a.dot(b.cross(c));
            }
        }
        six / 6.0
    }

    /// The point of the brush closest to `point` (`point` itself when inside; a flat brush has
    /// no inside, so for it this is the closest point of its polygon).
    pub fn closest_point(&self, point: DVec3) -> DVec3 {
        if self.is_flat() {
            let face = &self.faces[0];
            return crate::polygon::closest_on_convex_loop(
                &face.plane,
                face.vertices.len(),
                |k| self.vertices[face.vertices[k] as usize],
                point,
            );
        }
        // The brush is usually cold here (a trace's hit surface): ask for its vertices and every
        // face's loop at once, rather than meeting each miss in turn below.
        // (Every other vertex, 48 bytes apart, and the last one's end: every 64-byte line.)
        for vertex in self.vertices.iter().step_by(2) {
            crate::hint::prefetch(vertex);
        }
        if let Some(last) = self.vertices.last() {
            crate::hint::prefetch(&last.z);
        }
        for face in &self.faces {
            if let Some(first) = face.vertices.first() {
                crate::hint::prefetch(first);
            }
        }
        let mut best = point;
        let mut best_d2 = f64::INFINITY;
        let mut outside = false;
        for face in &self.faces {
            if face.plane.signed_distance(point) > 0.0 {
                outside = true;
                let q = crate::polygon::closest_on_convex_loop(
                    &face.plane,
                    face.vertices.len(),
                    |k| self.vertices[face.vertices[k] as usize],
                    point,
                );
                let d2 = q.distance_squared(point);
                if d2 < best_d2 {
                    best_d2 = d2;
                    best = q;
                }
            }
        }
        if outside { best } else { point }
    }

    /// The mean of the vertices: a point inside the brush.
    pub fn vertex_mean(&self) -> DVec3 {
        self.vertices.iter().copied().sum::<DVec3>() / self.vertices.len() as f64
    }
}

/// Each vertex recomputed as the crossing of the three best-conditioned face planes through it
/// (the largest `|n1 . (n2 x n3)|`), so that it lies on its planes to rounding: the clipped
/// copies it was welded from carry the error of clipping a square of side 8 * 2^20 units (up to
/// ~1e-9 units), and welding keeps the first copy. A vertex on fewer than three faces, or whose
/// planes are too close to parallel, keeps its welded position.
fn exact_vertices(mut vertices: Vec<DVec3>, faces: &[Face]) -> Vec<DVec3> {
    let mut through: Vec<Vec<u32>> = vec![Vec::new(); vertices.len()];
    for (f, face) in faces.iter().enumerate() {
        for &v in &face.vertices {
            through[v as usize].push(f as u32);
        }
    }
    for (v, list) in through.iter().enumerate() {
        let list = &list[..list.len().min(12)];
        let mut best: Option<(f64, [u32; 3])> = None;
        for i in 0..list.len() {
            for j in i + 1..list.len() {
                for k in j + 1..list.len() {
                    let (a, b, c) = (
                        faces[list[i] as usize].plane.normal(),
                        faces[list[j] as usize].plane.normal(),
                        faces[list[k] as usize].plane.normal(),
                    );
                    let det = a.dot(b.cross(c)).abs();
                    if best.is_none_or(|(d, _)| det > d) {
                        best = Some((det, [list[i], list[j], list[k]]));
                    }
                }
            }
        }
        if let Some((det, [i, j, k])) = best
            && det > VERTEX_SNAP_DETERMINANT
            && let Some(p) = crate::plane::intersect_three(
                &faces[i as usize].plane,
                &faces[j as usize].plane,
                &faces[k as usize].plane,
            )
            && p.distance(vertices[v]) < VERTEX_WELD * 4.0
        {
            vertices[v] = p;
        }
    }
    vertices
}

/// The edges of a closed set of face loops, each with the two faces that share it, in order of
/// first appearance (deterministic).
fn edges_of(faces: &[Face]) -> Vec<Edge> {
    let mut edges: Vec<Edge> = Vec::new();
    let mut lookup: std::collections::BTreeMap<(u32, u32), usize> = Default::default();
    for (f, face) in faces.iter().enumerate() {
        let n = face.vertices.len();
        for i in 0..n {
            let (a, b) = (face.vertices[i], face.vertices[(i + 1) % n]);
            let key = (a.min(b), a.max(b));
            match lookup.get(&key) {
                Some(&e) => edges[e].faces[1] = f as u32,
                None => {
                    lookup.insert(key, edges.len());
                    edges.push(Edge {
                        vertices: [key.0, key.1],
                        faces: [f as u32, f as u32],
                    });
                }
            }
        }
    }
    edges
}

#[cfg(test)]
mod tests;
