//! Convex polyhedra as face polygons, sliced by planes: the BSP cells walked while bevelling
//! (Melax Section 5, "we are already keeping track of the volume of space at each node") and the
//! `Slice` of `M()` (Section 6).

use cspace_geom::polygon::PolygonSide;
use cspace_geom::tolerance::PLANE_THICKNESS;
use cspace_geom::{Aabb, Brush, DVec3, Plane, Polygon};

/// A convex polyhedron: its faces, each wound counter-clockwise seen from outside.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexPolyhedron {
    faces: Vec<Polygon>,
}

impl ConvexPolyhedron {
    /// The box `bounds` (which must have volume).
    pub fn from_aabb(bounds: Aabb) -> ConvexPolyhedron {
        let brush = Brush::from_aabb(bounds).expect("a box with volume is a brush");
        ConvexPolyhedron::from_brush(&brush)
    }

    /// The faces of `brush`.
    pub fn from_brush(brush: &Brush) -> ConvexPolyhedron {
        ConvexPolyhedron {
            faces: (0..brush.faces().len())
                .map(|i| brush.face_polygon(i))
                .collect(),
        }
    }

    /// The faces.
    pub fn faces(&self) -> &[Polygon] {
        &self.faces
    }

    /// Every face vertex (shared vertices repeat).
    pub fn vertices(&self) -> impl Iterator<Item = DVec3> + '_ {
        self.faces.iter().flat_map(|f| f.vertices.iter().copied())
    }

    /// The bounding box of the vertices.
    pub fn bounds(&self) -> Aabb {
        Aabb::from_points(self.vertices())
    }

    /// How the polyhedron lies against `plane` (thickness [`PLANE_THICKNESS`]).
    pub fn side_of(&self, plane: &Plane) -> PolygonSide {
        cspace_geom::polygon::points_side_of(self.vertices(), plane, PLANE_THICKNESS)
    }

    /// `Slice` (Melax Section 6): the parts in front of and behind `plane`; a part of no volume
    /// (within [`PLANE_THICKNESS`]) is `None`.
    pub fn split(&self, plane: &Plane) -> (Option<ConvexPolyhedron>, Option<ConvexPolyhedron>) {
        match self.side_of(plane) {
            PolygonSide::Front => return (Some(self.clone()), None),
            PolygonSide::Back | PolygonSide::Coplanar => return (None, Some(self.clone())),
            PolygonSide::Straddle => {}
        }
        let mut front = Vec::with_capacity(self.faces.len() + 1);
        let mut back = Vec::with_capacity(self.faces.len() + 1);
        for face in &self.faces {
            let (b, f) = face.split(plane);
            if let Some(b) = b {
                back.push(b);
            }
            if let Some(f) = f {
                front.push(f);
            }
        }
        // The cap: a large square on the plane clipped by every face.
        let extent = self.bounds().size().max_element() * 2.0 + 1.0;
        let centre = self.bounds().centre();
        let on_plane = centre - plane.normal() * plane.signed_distance(centre);
        let mut cap = Some(Polygon::square_around(*plane, on_plane, extent));
        for face in &self.faces {
            cap = cap.and_then(|c| c.clipped_behind(&face.plane));
        }
        let Some(cap) = cap.filter(|c| c.area() > c.perimeter() * PLANE_THICKNESS) else {
            // The plane only grazes the polyhedron: keep it on the side with more of it.
            return if front.len() >= back.len() {
                (Some(self.clone()), None)
            } else {
                (None, Some(self.clone()))
            };
        };
        back.push(cap.clone());
        front.push(cap.flipped());
        let part = |faces: Vec<Polygon>| (faces.len() >= 4).then_some(ConvexPolyhedron { faces });
        (part(front), part(back))
    }

    /// The polyhedron as a geom [`Brush`] (vertices welded, edges with their faces, box bevels);
    /// `None` when it has no volume.
    pub fn to_brush(&self) -> Option<Brush> {
        let planes: Vec<Plane> = self.faces.iter().map(|f| f.plane).collect();
        Brush::from_planes(&planes).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn volume(p: &ConvexPolyhedron) -> f64 {
        p.to_brush().map_or(0.0, |b| b.volume())
    }

    #[test]
    fn slicing_a_cube_keeps_its_volume() {
        let cube = ConvexPolyhedron::from_aabb(Aabb::new(DVec3::ZERO, DVec3::splat(2.0)));
        let plane = Plane::new(DVec3::new(1.0, 1.0, 1.0), 1.0).unwrap();
        let (front, back) = cube.split(&plane);
        let (front, back) = (front.unwrap(), back.unwrap());
        assert!((volume(&front) + volume(&back) - 8.0).abs() < 1e-9);
        for v in back.vertices() {
            assert!(plane.signed_distance(v) < 1e-9);
        }
        for v in front.vertices() {
            assert!(plane.signed_distance(v) > -1e-9);
        }
        // A plane touching a face only keeps the cube whole on one side.
        let (front, back) = cube.split(&Plane::new(DVec3::X, 2.0).unwrap());
        assert!(front.is_none() && back.is_some());
    }
}
