//! Section 3 for the geometry of cspace worlds: convex brushes, their faces, boxes and the
//! curved pieces of patches.

use glam::DVec3;

use super::Geometry;

impl Geometry<DVec3> for cspace_geom::Brush {
    /// A convex polyhedron reaches furthest towards the centre at a vertex.
    fn signed_distance(&self, centre: DVec3, direction: DVec3) -> f64 {
        self.vertices()
            .iter()
            .map(|v| (*v - centre).dot(direction))
            .fold(f64::INFINITY, f64::min)
    }
}

impl Geometry<DVec3> for cspace_geom::Polygon {
    /// A planar polygon (a brush face) reaches furthest towards the centre at a vertex.
    fn signed_distance(&self, centre: DVec3, direction: DVec3) -> f64 {
        self.vertices
            .iter()
            .map(|v| (*v - centre).dot(direction))
            .fold(f64::INFINITY, f64::min)
    }
}

impl Geometry<DVec3> for cspace_geom::Aabb {
    fn signed_distance(&self, centre: DVec3, direction: DVec3) -> f64 {
        super::AxisBox {
            min: self.min,
            max: self.max,
        }
        .signed_distance(centre, direction)
    }
}

impl Geometry<DVec3> for cspace_geom::patch::PatchPiece {
    /// The surface's bound of [`super::BiquadraticPatch`] over the net as the map wrote it.
    ///
    /// It bounds the piece's facets too, up to the weld: every facet vertex is a point of the
    /// surface of the welded net (at a cell corner), whose control points moved at most
    /// [`PATCH_WELD`](cspace_geom::tolerance::PATCH_WELD), which moves each surface point at most
    /// as much (its Bernstein weights sum to one); and a linear function is smallest over a facet
    /// at a vertex. So the facets' distance is at least this less `PATCH_WELD` (and the rounding
    /// of the facet's brush, see [`crate::world::PIECE_GUARD`]); no error bound of the
    /// tessellation enters.
    fn signed_distance(&self, centre: DVec3, direction: DVec3) -> f64 {
        super::BiquadraticPatch { net: self.net }.signed_distance(centre, direction)
    }
}
