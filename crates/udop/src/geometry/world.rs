//! Section 3 for the geometry of cspace worlds: convex brushes, their faces and boxes.

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
