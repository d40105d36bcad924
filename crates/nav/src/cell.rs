//! Region cells: Golodetz's Listing 4 polyhedron (the planes above a leaf inside a box around the
//! world), cut incrementally down a space's pruned tree.

use cspace_geom::{Aabb, Plane, Polygon};
use glam::DVec3;

use crate::bsp::{LEAF, SOLID, SpaceBsp};

/// A convex cell as its faces, each with an outward plane.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Cell {
    pub faces: Vec<Polygon>,
}

/// The box every cell is cut from, and the half side of the squares the cuts start from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CellBox {
    pub bounds: Aabb,
    pub half: f64,
}

impl CellBox {
    /// A box around `bounds` (loosened by `margin`): Listing 4's inward-facing world box.
    pub fn around(bounds: Aabb, margin: f64) -> CellBox {
        let bounds = if bounds.is_empty() {
            Aabb::new(DVec3::splat(-margin), DVec3::splat(margin))
        } else {
            bounds.loosened(margin)
        };
        CellBox {
            bounds,
            half: bounds.size().max_element() * 4.0 + 1024.0,
        }
    }

    /// The box's six outward planes.
    pub fn planes(&self) -> [Plane; 6] {
        let (min, max) = (self.bounds.min, self.bounds.max);
        [
            (DVec3::X, max.x),
            (DVec3::NEG_X, -min.x),
            (DVec3::Y, max.y),
            (DVec3::NEG_Y, -min.y),
            (DVec3::Z, max.z),
            (DVec3::NEG_Z, -min.z),
        ]
        .map(|(n, d)| Plane::new(n, d).expect("axial normals are unit"))
    }

    /// True when `plane` is one of the box's planes (bit for bit: cells copy them).
    pub fn is_box_plane(&self, plane: &Plane) -> bool {
        self.planes().iter().any(|p| p == plane)
    }
}

impl Cell {
    /// The box as a cell.
    pub fn from_box(cell_box: &CellBox) -> Cell {
        let planes = cell_box.planes();
        let mut faces = Vec::with_capacity(6);
        for (i, plane) in planes.iter().enumerate() {
            let mut face = Some(Polygon::square_on(*plane, cell_box.half));
            for (j, other) in planes.iter().enumerate() {
                if i != j {
                    face = face.and_then(|f| f.clipped_behind_with(other, 0.0));
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
}

/// The cell of every region of `bsp`, inside `cell_box` (regions without volume there get a cell
/// without faces).
pub(crate) fn region_cells(bsp: &SpaceBsp, cell_box: &CellBox) -> Vec<Cell> {
    let mut cells = vec![Cell::default(); bsp.regions()];
    let mut stack = vec![(bsp.root, Cell::from_box(cell_box))];
    while let Some((at, cell)) = stack.pop() {
        if at == SOLID {
            continue;
        }
        if at & LEAF != 0 {
            cells[(at & !LEAF) as usize] = cell;
            continue;
        }
        let node = &bsp.nodes[at as usize];
        let (front, back) = cell.split(&node.plane, cell_box.half);
        stack.push((node.children[1], back));
        stack.push((node.children[0], front));
    }
    cells
}
