//! Region cells: Golodetz's Listing 4 polyhedron (the planes above a leaf inside a box around the
//! world), cut incrementally down a space's pruned tree.

use cspace_geom::tolerance::{PLANE_THICKNESS, PORTAL_MIN_AREA};
use cspace_geom::{Aabb, Plane};
use glam::DVec3;

pub(crate) use cspace_onion::Cell;

use cspace_onion::{SpaceChild, SpaceTree};

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

/// The cell of every region of `bsp`, inside `cell_box` (regions without volume there get a cell
/// without faces).
pub(crate) fn region_cells(bsp: &SpaceTree, cell_box: &CellBox) -> Vec<Cell> {
    let mut cells = vec![Cell::default(); bsp.regions().len()];
    let mut stack = vec![(
        bsp.root(),
        Cell::from_planes(&cell_box.planes(), cell_box.half),
    )];
    while let Some((at, cell)) = stack.pop() {
        let node = match SpaceChild::of(at) {
            SpaceChild::Solid => continue,
            SpaceChild::Region(r) => {
                cells[r as usize] = cell;
                continue;
            }
            SpaceChild::Node(n) => &bsp.nodes()[n as usize],
        };
        let (front, back) = cell.split(&node.plane, cell_box.half);
        stack.push((node.children[1], back));
        stack.push((node.children[0], front));
    }
    cells
}

/// How much two computations of one area may differ by the rounding of the cuts, square units:
/// [`PORTAL_MIN_AREA`] plus a sliver [`PLANE_THICKNESS`] wide along the whole `perimeter`. Cell
/// vertices are exact plane crossings, but where nearly parallel planes cross they carry errors
/// up to about 1e-8 units (`geom::tolerance`), which moves an edge of a 1,000-square-unit portal
/// by a few 1e-6 square units; a piece thinner than the plane thickness is on the plane.
pub(crate) fn rounding_area(perimeter: f64) -> f64 {
    PORTAL_MIN_AREA + PLANE_THICKNESS * perimeter
}
