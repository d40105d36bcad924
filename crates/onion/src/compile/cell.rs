//! Leaf cells (Listing 4's polyhedron), cut incrementally down the tree, and their interior
//! points.

use cspace_geom::{Aabb, Plane, Polygon};
use glam::DVec3;

/// A convex cell as its faces, each with an outward plane: Golodetz's Listing 4 polyhedron, cut
/// down a tree one plane at a time (the compiler's leaf cells, and `cspace-nav`'s region cells).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cell {
    /// The faces, each with its outward plane.
    pub faces: Vec<Polygon>,
}

/// The least half side of a square that covers, on any plane, the plane's part in `bounds`:
/// [`Polygon::square_on`] centres its square on the plane's point closest to the origin, which
/// lies within the box's farthest corner's distance `r` of the origin, as does every point of the
/// box, so a square of half side `2 r` (covering the disc of radius `2 r`) reaches all of it.
///
/// A box far from the origin for its size (a lone mover's brush model, issue 32: E1M1's door
/// brushes 14 units wide at 2,000 units out) needs more than a multiple of its size.
pub(crate) fn covering_half(bounds: Aabb) -> f64 {
    2.0 * bounds.min.abs().max(bounds.max.abs()).length()
}

impl Cell {
    /// The box `bounds` as a cell.
    pub fn from_box(bounds: Aabb) -> Cell {
        let (min, max) = (bounds.min, bounds.max);
        let planes = [
            (DVec3::X, max.x),
            (DVec3::NEG_X, -min.x),
            (DVec3::Y, max.y),
            (DVec3::NEG_Y, -min.y),
            (DVec3::Z, max.z),
            (DVec3::NEG_Z, -min.z),
        ]
        .map(|(n, d)| Plane::new(n, d).expect("axial normals are unit"));
        Cell::from_planes(
            &planes,
            (bounds.size().max_element() * 4.0).max(covering_half(bounds)),
        )
    }

    /// The cell bounded by outward `planes` (Listing 4: a large polygon on each plane clipped by
    /// all the others); `half` must exceed the cell's size.
    pub fn from_planes(planes: &[Plane], half: f64) -> Cell {
        let mut faces = Vec::new();
        for (i, plane) in planes.iter().enumerate() {
            let mut face = Some(Polygon::square_on(*plane, half));
            for (j, other) in planes.iter().enumerate() {
                if i != j {
                    face = face.and_then(|f| f.clipped_behind_with(other, 0.0));
                }
                if face.is_none() {
                    break;
                }
            }
            faces.extend(face);
        }
        Cell { faces }
    }

    /// The front and back parts of the cell cut by `plane` (exact crossings).
    pub fn split(&self, plane: &Plane, half: f64) -> (Cell, Cell) {
        let mut front = Vec::with_capacity(self.faces.len() + 1);
        let mut back = Vec::with_capacity(self.faces.len() + 1);
        for face in &self.faces {
            let (b, f) = face.split_with(plane, 0.0);
            front.extend(f);
            back.extend(b);
        }
        // The cap: the plane's polygon inside the cell; outward for the back part.
        let mut cap = Some(Polygon::square_on(*plane, half));
        for face in &self.faces {
            cap = cap.and_then(|c| c.clipped_behind_with(&face.plane, 0.0));
            if cap.is_none() {
                break;
            }
        }
        if let Some(cap) = cap {
            front.push(cap.flipped());
            back.push(cap);
        }
        (Cell { faces: front }, Cell { faces: back })
    }

    /// Listing 4's arbitrary interior point (the mean of the face midpoints) and its depth: the
    /// least distance from it to a face plane (0 or less for a cell without volume).
    pub fn interior_point(&self) -> (DVec3, f64) {
        if self.faces.len() < 4 {
            return (DVec3::ZERO, 0.0);
        }
        let point =
            self.faces.iter().map(Polygon::vertex_mean).sum::<DVec3>() / self.faces.len() as f64;
        let depth = self
            .faces
            .iter()
            .map(|f| -f.plane.signed_distance(point))
            .fold(f64::INFINITY, f64::min);
        (point, depth)
    }
}
