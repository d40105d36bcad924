//! Patch facets in the bevelled tree: zero-thickness solid cells below the empty leaves they
//! reach.
//!
//! Plane shifting needs solid cells, and a facet (a flat brush, [`Brush::from_polygon`]) has no
//! volume, so the plain tree (the point pose of the onion compiler, in which a facet is never
//! solid) has no cell for it. Each facet is pushed down the plain tree as a polygon, split by the
//! node planes (a piece lying in a node's plane goes to both sides); the pieces reaching a solid
//! leaf are dropped there (the solid cell holds them), and the pieces reaching an empty leaf
//! become a small BSP in place of that leaf:
//!
//! - while a region holds more than 12 pieces, an axial plane through the median of their
//!   centres (along the axis they spread most on) parts them, so that a shape meets the pieces
//!   near it rather than a chain of all of them (chasm: 68 us a trace near its patches without,
//!   21 us with);
//! - the first piece's plane, both ways: a node on the plane (its normal in front), whose back
//!   child is a node on the plane reversed; the pieces in front go to the first node's front
//!   child, those behind to the second's (split where they cross), and the second's back child
//!   is the plane itself, a region of no thickness holding the pieces lying in it (within
//!   [`PLANE_THICKNESS`]; the two nodes are placed at their vertices' extremes);
//! - in the plane, the first piece's border planes (through each edge, perpendicular to the
//!   facet, facing out), the other pieces of the plane going to their front children;
//! - behind all of them, the cell: the two face planes of the piece's *whole facet*, then the
//!   whole facet's bevel chain ([`bevel_planes`]: with [`BevelMode::Exact`](crate::BevelMode::Exact), its axial planes and
//!   edge bevels), and a solid leaf whose brush is the facet.
//!
//! The pieces only place the cells; a cell's own planes are those of its whole facet's exact
//! Minkowski sum with a box, so shifted by a box they give that sum cut by the shifted region of
//! the piece. Each cut region holds its piece's sum, and the shifted regions of a node's two
//! children overlap and cover space, so the cells of one facet together give exactly its
//! Minkowski sum: box traces stay exact. Shifted by a shape's support, the two opposite face
//! planes become a slab as thick as the shape across the facet, so a box, a sphere or a cylinder
//! is stopped by the facet from either side, and a point (no thickness) never is.
//!
//! Known limit: facets lying in one plane and overlapping (a patch written twice) are held by the
//! first one's cell where they overlap.

use cspace_geom::polygon::PolygonSide;
use cspace_geom::tolerance::PLANE_THICKNESS;
use cspace_geom::{Aabb, Brush, BrushId, DVec3, Plane, Polygon, World};

use super::{EMPTY, MelaxTree};
use crate::bevel::bevel_planes;

/// A piece of a facet on its way down the tree.
#[derive(Debug, Clone)]
pub(crate) struct Piece {
    /// The facet's brush in the world.
    pub brush: BrushId,
    /// The part of the facet's polygon in the current region (in the plane of the facet's first
    /// face).
    pub polygon: Polygon,
}

impl Piece {
    /// Every facet of `world`, whole, in id order.
    pub(crate) fn all(world: &World) -> Vec<Piece> {
        world
            .brushes()
            .iter()
            .enumerate()
            .filter_map(|(id, wb)| {
                wb.brush.flat_polygon().map(|polygon| Piece {
                    brush: BrushId(id as u32),
                    polygon,
                })
            })
            .collect()
    }
}

/// The pieces in front of `plane` and those behind it, split where they cross it; a piece lying
/// in the plane goes to both (it bounds both regions).
pub(crate) fn split_pieces(pieces: Vec<Piece>, plane: &Plane) -> (Vec<Piece>, Vec<Piece>) {
    let mut front = Vec::new();
    let mut back = Vec::new();
    for piece in pieces {
        match piece.polygon.side_of(plane, PLANE_THICKNESS) {
            PolygonSide::Front => front.push(piece),
            PolygonSide::Back => back.push(piece),
            PolygonSide::Coplanar => {
                back.push(piece.clone());
                front.push(piece);
            }
            PolygonSide::Straddle => {
                let (b, f) = piece.polygon.split_with(plane, PLANE_THICKNESS);
                if let Some(polygon) = f {
                    front.push(Piece {
                        brush: piece.brush,
                        polygon,
                    });
                }
                if let Some(polygon) = b {
                    back.push(Piece {
                        brush: piece.brush,
                        polygon,
                    });
                }
            }
        }
    }
    (front, back)
}

/// Pieces an empty region takes one after the other; more are first parted by axial planes.
const GROUP: usize = 12;

/// The axial plane through the median of the pieces' centres along the axis they spread most
/// on, or `None` when they do not spread at all.
fn axial_split(pieces: &[Piece]) -> Option<Plane> {
    let centres: Vec<DVec3> = pieces.iter().map(|p| p.polygon.vertex_mean()).collect();
    let bounds = Aabb::from_points(centres.iter().copied());
    let size = bounds.size();
    let axis = if size.x >= size.y && size.x >= size.z {
        0
    } else if size.y >= size.z {
        1
    } else {
        2
    };
    if size[axis] <= PLANE_THICKNESS {
        return None;
    }
    let mut along: Vec<f64> = centres.iter().map(|c| c[axis]).collect();
    along.sort_by(f64::total_cmp);
    let median = along[along.len() / 2];
    let mut normal = DVec3::ZERO;
    normal[axis] = 1.0;
    Plane::new(normal, median).ok()
}

impl MelaxTree {
    /// The subtree standing for the facet pieces `facets` in an empty region (see the module
    /// documentation); [`EMPTY`] when there is none.
    pub(crate) fn facet_subtree(&mut self, world: &World, facets: Vec<Piece>, depth: usize) -> u32 {
        if facets.is_empty() {
            return EMPTY;
        }
        if facets.len() > GROUP
            && let Some(split) = axial_split(&facets)
        {
            // Many pieces: an axial plane through the median of their centres first, so a
            // shape meets the few pieces near it rather than a chain of all of them.
            let (front, back) = split_pieces(facets.clone(), &split);
            if front.len() < facets.len() && back.len() < facets.len() {
                let node = self.push_node(split, [EMPTY, EMPTY]);
                self.stats.facet_nodes += 1;
                let front = self.facet_subtree(world, front, depth + 1);
                let back = self.facet_subtree(world, back, depth + 1);
                self.nodes[node as usize].children = [front, back];
                self.stats.depth_max = self.stats.depth_max.max(depth + 1);
                return node;
            }
        }
        let first = &facets[0];
        let plane = first.polygon.plane;
        let n = plane.normal();
        let mut front = Vec::new();
        let mut back = Vec::new();
        let mut on = Vec::new();
        for facet in facets {
            match facet.polygon.side_of(&plane, PLANE_THICKNESS) {
                PolygonSide::Front => front.push(facet),
                PolygonSide::Back => back.push(facet),
                PolygonSide::Coplanar => on.push(facet),
                PolygonSide::Straddle => {
                    let (f, b) = split_pieces(vec![facet], &plane);
                    front.extend(f);
                    back.extend(b);
                }
            }
        }
        // The slab of the facets in the plane: their vertices' extremes along the normal.
        let heights = on
            .iter()
            .flat_map(|f| f.polygon.vertices.iter().map(|v| v.dot(n)));
        let high = heights.clone().fold(f64::NEG_INFINITY, f64::max);
        let low = heights.fold(f64::INFINITY, f64::min);
        let above = self.push_node(plane.with_dist(high), [EMPTY, EMPTY]);
        let below = self.push_node(plane.with_dist(low).flipped(), [EMPTY, EMPTY]);
        self.stats.facet_nodes += 2;
        let front = self.facet_subtree(world, front, depth + 1);
        let back = self.facet_subtree(world, back, depth + 2);
        let on = self.in_plane(world, on, depth + 2);
        self.nodes[above as usize].children = [front, below];
        self.nodes[below as usize].children = [back, on];
        self.stats.depth_max = self.stats.depth_max.max(depth + 2);
        above
    }

    /// The subtree for pieces lying in one plane (the region between the two opposite nodes):
    /// the first piece's border planes, the others in front of them, then its facet's cell.
    fn in_plane(&mut self, world: &World, facets: Vec<Piece>, depth: usize) -> u32 {
        let mut facets = facets.into_iter();
        let Some(first) = facets.next() else {
            return EMPTY;
        };
        let mut rest: Vec<Piece> = facets.collect();
        let brush = &world.brush(first.brush).brush;
        let n = first.polygon.plane.normal();
        let count = first.polygon.vertices.len();
        // The border planes, each with the facets in front of it (placed further on).
        let mut borders: Vec<(Plane, Vec<Piece>)> = Vec::with_capacity(count);
        for k in 0..count {
            let a = first.polygon.vertices[k];
            let b = first.polygon.vertices[(k + 1) % count];
            let Some(out) = (b - a).cross(n).try_normalize() else {
                continue;
            };
            let support = first
                .polygon
                .vertices
                .iter()
                .map(|v| v.dot(out))
                .fold(f64::NEG_INFINITY, f64::max);
            let border = Plane::new(out, support).expect("a unit normal and a finite distance");
            let (ahead, behind) = split_pieces(std::mem::take(&mut rest), &border);
            rest = behind;
            borders.push((border, ahead));
        }
        // What is left behind every border overlaps the first piece (a facet given twice): the
        // first facet's cell holds it.
        let leaf = self.push_facet_cell(brush, first.brush, depth + borders.len());
        let mut next = leaf;
        for (k, (border, ahead)) in borders.into_iter().enumerate().rev() {
            let node = self.push_node(border, [EMPTY, next]);
            self.stats.facet_nodes += 1;
            let front = self.in_plane(world, ahead, depth + k + 1);
            self.nodes[node as usize].children[0] = front;
            next = node;
        }
        next
    }

    /// The cell of facet `id` (brush `facet`): its two face planes and its bevels, then a solid
    /// leaf holding it.
    fn push_facet_cell(&mut self, facet: &Brush, id: BrushId, depth: usize) -> u32 {
        let mut planes: Vec<Plane> = facet.planes().collect();
        let faces = planes.len();
        planes.extend(bevel_planes(facet, self.bevel()));
        self.stats.facet_cells += 1;
        let head = self.push_chain(&planes, vec![id], depth);
        // The face planes count with the facet's nodes, the rest as bevels.
        self.stats.bevel_nodes -= faces;
        self.stats.facet_nodes += faces;
        head
    }
}
