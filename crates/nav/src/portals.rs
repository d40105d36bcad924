//! Leaf adjacency: Hammersley's planes of connection between the empty regions of one
//! configuration space, as portal polygons clipped to both cells.
//!
//! Hammersley finds the planes of connection of a leaf by comparing the sides of every plane the
//! leaves lie on ("XOR U with each bit code"), an `N x M` table. Here each face of a region's cell
//! (Listing 4's polyhedron) is pushed down the space's tree from the root, as hesperus2 and qbsp
//! push portals: a face on a node's plane goes to the side it faces, a straddling face is split.
//! The pieces that reach another empty region are the portal polygons (the face clipped to the
//! other cell), the pieces that reach solid are the region's walls, floors and ceilings. Every
//! face is pushed from both of its cells, so each portal is found twice; the two finds must
//! agree ([`LeafGraph::one_sided`] lists the pairs where they do not).

use cspace_geom::polygon::PolygonSide;
use cspace_geom::tolerance::{ONION_CUT, PORTAL_MIN_AREA};
use cspace_geom::{Aabb, Polygon, World};
use cspace_onion::{NodeRef, OnionTree, SolidEntry, SpaceChild, SpaceTree, WalkScratch};
use glam::DVec3;

use crate::cell::rounding_area;
use crate::cell::{Cell, CellBox, region_cells};
use crate::error::NavError;

/// What [`LeafGraph::floor_below`] meets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Below {
    /// The move starts in solid.
    InSolid,
    /// A walkable floor, at this time on the move.
    Floor(f64),
    /// No walkable floor: nothing, or a face too steep to stand on.
    Nothing,
}

/// A portal: where the cells of two empty regions share a face (Hammersley's plane of
/// connection), clipped to both.
#[derive(Debug, Clone, PartialEq)]
pub struct Portal {
    /// The two regions, `regions[0] < regions[1]`.
    pub regions: [u32; 2],
    /// The shared face; its plane faces from `regions[0]` into `regions[1]` (configuration
    /// space, units).
    pub polygon: Polygon,
}

/// A piece of a region's cell boundary against solid: a wall, floor or ceiling of the region.
#[derive(Debug, Clone, PartialEq)]
pub struct Boundary {
    /// The region.
    pub region: u32,
    /// The piece; its plane faces out of the region, into the solid.
    pub polygon: Polygon,
    /// The index of the region's cell face it is a piece of.
    pub face: u32,
}

/// A pair of regions whose portal was found from one cell only, or with areas from the two
/// cells that differ by more than the rounding of the cuts (a sliver [`PLANE_THICKNESS`] wide
/// along the portal's perimeter, plus [`PORTAL_MIN_AREA`]): a defect of the cells, listed for
/// the tests.
///
/// [`PLANE_THICKNESS`]: cspace_geom::tolerance::PLANE_THICKNESS
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OneSided {
    /// The two regions.
    pub regions: [u32; 2],
    /// The areas found from `regions[0]`'s and from `regions[1]`'s cell, square units.
    pub areas: [f64; 2],
}

/// The empty regions of one configuration space and the portals between them.
///
/// A *region* is a subtree of the onion tree whose leaves are all empty in the space (most often
/// a single leaf): its cell is the subtree root's cell, convex, and the region stands for all the
/// tree's empty leaves below it ([`LeafGraph::region_of_leaf`]).
#[derive(Debug, Clone)]
pub struct LeafGraph {
    space: usize,
    /// The space's tree, pruned to it: its regions are this graph's.
    pub(crate) bsp: SpaceTree,
    pub(crate) cells: Vec<Cell>,
    /// Per region: its cell touches the box around the world (the outside of a sealed map).
    outer: Vec<bool>,
    portals: Vec<Portal>,
    /// CSR: the portals of region `r` are `region_portals[portal_start[r]..portal_start[r + 1]]`.
    portal_start: Vec<u32>,
    region_portals: Vec<u32>,
    pub(crate) boundary: Vec<Boundary>,
    one_sided: Vec<OneSided>,
    /// For each leaf of the tree, its region (`u32::MAX` for leaves solid in the space).
    leaf_region: Vec<u32>,
}

/// How far the box the cells are cut from reaches beyond the world grown by the poses, units
/// (Listing 4's world box; the onion compiler's box is its polygons' bounds grown by 64).
const CELL_BOX_MARGIN: f64 = 128.0;

impl LeafGraph {
    /// The regions and portals of configuration space `space` of `tree`, compiled from `world`.
    /// Cells are cut inside a box around the world grown by every pose of the tree (Listing 4's
    /// world box).
    pub fn build(tree: &OnionTree, world: &World, space: usize) -> Result<LeafGraph, NavError> {
        if tree.world_fingerprint() != world.fingerprint() {
            return Err(NavError::WorldMismatch {
                tree: tree.world_fingerprint(),
                world: world.fingerprint(),
            });
        }
        if space >= tree.spaces() {
            return Err(NavError::PoseIndex {
                pose: space,
                poses: tree.spaces(),
            });
        }
        Ok(LeafGraph::new(
            tree,
            space,
            cell_bounds(tree, world),
            CELL_BOX_MARGIN,
        ))
    }

    /// The regions and portals of configuration space `space` of `tree`, with cells cut inside
    /// `bounds` (loosened by `margin` units).
    pub(crate) fn new(tree: &OnionTree, space: usize, bounds: Aabb, margin: f64) -> LeafGraph {
        let bsp = tree.space_tree(space).clone();
        let cell_box = CellBox::around(bounds, margin);
        let cells = region_cells(&bsp, &cell_box);
        let regions = bsp.regions().len();
        let mut outer = vec![false; regions];
        // (from, to, piece) for every piece of a face reaching another region.
        let mut directed: Vec<(u32, u32, Polygon)> = Vec::new();
        let mut boundary = Vec::new();
        let mut stack: Vec<(u32, Polygon)> = Vec::new();
        for (r, cell) in cells.iter().enumerate() {
            let r = r as u32;
            for (f, face) in cell.faces.iter().enumerate() {
                if cell_box.is_box_plane(&face.plane) {
                    outer[r as usize] = true;
                    continue;
                }
                if face.area() < PORTAL_MIN_AREA {
                    continue;
                }
                stack.push((bsp.root(), face.clone()));
                while let Some((at, piece)) = stack.pop() {
                    let node = match SpaceChild::of(at) {
                        SpaceChild::Solid => {
                            boundary.push(Boundary {
                                region: r,
                                polygon: piece,
                                face: f as u32,
                            });
                            continue;
                        }
                        SpaceChild::Region(other) => {
                            if other != r {
                                directed.push((r, other, piece));
                            }
                            continue;
                        }
                        SpaceChild::Node(n) => &bsp.nodes()[n as usize],
                    };
                    match piece.side_of(&node.plane, ONION_CUT) {
                        PolygonSide::Front => stack.push((node.children[0], piece)),
                        PolygonSide::Back => stack.push((node.children[1], piece)),
                        PolygonSide::Coplanar => {
                            let to = if piece.plane.normal().dot(node.plane.normal()) > 0.0 {
                                node.children[0]
                            } else {
                                node.children[1]
                            };
                            stack.push((to, piece));
                        }
                        PolygonSide::Straddle => {
                            let (b, f) = piece.split_with(&node.plane, ONION_CUT);
                            for (part, to) in [(f, node.children[0]), (b, node.children[1])] {
                                if let Some(part) = part.filter(|p| p.area() >= PORTAL_MIN_AREA) {
                                    stack.push((to, part));
                                }
                            }
                        }
                    }
                }
            }
        }
        let (portals, one_sided) = pair_up(directed);
        let mut portal_start = vec![0u32; regions + 1];
        for p in &portals {
            for r in p.regions {
                portal_start[r as usize + 1] += 1;
            }
        }
        for r in 0..regions {
            portal_start[r + 1] += portal_start[r];
        }
        let mut fill = portal_start.clone();
        let mut region_portals = vec![0u32; portal_start[regions] as usize];
        for (i, p) in portals.iter().enumerate() {
            for r in p.regions {
                region_portals[fill[r as usize] as usize] = i as u32;
                fill[r as usize] += 1;
            }
        }
        let mut leaf_region = vec![u32::MAX; tree.leaf_count()];
        for (r, source) in bsp.regions().iter().enumerate() {
            let mut stack = vec![*source];
            while let Some(at) = stack.pop() {
                match at {
                    NodeRef::Leaf(l) => leaf_region[l as usize] = r as u32,
                    NodeRef::Node(n) => stack.extend(tree.node_children(n)),
                }
            }
        }
        LeafGraph {
            space,
            bsp,
            cells,
            outer,
            portals,
            portal_start,
            region_portals,
            boundary,
            one_sided,
            leaf_region,
        }
    }

    /// The configuration space (the tree's pose index).
    pub fn space(&self) -> usize {
        self.space
    }

    /// The number of empty regions.
    pub fn region_count(&self) -> usize {
        self.cells.len()
    }

    /// The faces of region `region`'s cell inside the world box, each with its outward plane
    /// (Listing 4's polyhedron); empty for a region without volume there.
    pub fn cell(&self, region: u32) -> &[Polygon] {
        &self.cells[region as usize].faces
    }

    /// True when region `region`'s cell reaches the box around the world: the outside of a
    /// sealed map, or the open sky of an open world.
    pub fn is_outer(&self, region: u32) -> bool {
        self.outer[region as usize]
    }

    /// Every portal, ordered by its pair of regions.
    pub fn portals(&self) -> &[Portal] {
        &self.portals
    }

    /// The portals of region `region` (indices into [`LeafGraph::portals`]), ascending.
    pub fn portals_of(&self, region: u32) -> &[u32] {
        let r = region as usize;
        &self.region_portals[self.portal_start[r] as usize..self.portal_start[r + 1] as usize]
    }

    /// The regions sharing a portal with `region`, ascending, each once.
    pub fn neighbours(&self, region: u32) -> Vec<u32> {
        let mut out: Vec<u32> = self
            .portals_of(region)
            .iter()
            .map(|&p| {
                let [a, b] = self.portals[p as usize].regions;
                if a == region { b } else { a }
            })
            .collect();
        out.dedup();
        out
    }

    /// The pieces of the regions' cell boundaries against solid (walls, floors, ceilings).
    pub fn boundary(&self) -> &[Boundary] {
        &self.boundary
    }

    /// Pairs whose portal was found from one cell only, or with different areas (a defect; empty
    /// when the cells are consistent, up to pieces below `PORTAL_MIN_AREA`).
    pub fn one_sided(&self) -> &[OneSided] {
        &self.one_sided
    }

    /// The region of a leaf of the tree; `None` for a leaf solid in this space.
    pub fn region_of_leaf(&self, leaf: u32) -> Option<u32> {
        self.leaf_region
            .get(leaf as usize)
            .copied()
            .filter(|&r| r != u32::MAX)
    }

    /// The region holding `point` (on a plane, the front one); `None` in solid.
    pub fn region_at(&self, point: DVec3) -> Option<u32> {
        self.bsp.region_at(point)
    }

    /// True when `point` is solid in this space (touching is free), as the onion's point query.
    pub fn is_solid(&self, point: DVec3) -> bool {
        self.bsp.is_solid(point)
    }

    /// The first entry into solid along `start -> end` after the start: time and plane (facing
    /// the start), the collider's answer ([`SpaceTree::first_entry`]).
    pub(crate) fn first_entry(
        &self,
        start: DVec3,
        end: DVec3,
        scratch: &mut WalkScratch,
    ) -> SolidEntry {
        self.bsp.first_entry(start, end, scratch)
    }

    /// What a move straight down (or any move) from `top` to `bottom` meets first: solid at
    /// `top`, a walkable floor (a plane entered whose normal's z is at least `min_walk_normal`)
    /// at a time on the move, or neither (nothing, or a face too steep to stand on).
    pub(crate) fn floor_below(
        &self,
        top: DVec3,
        bottom: DVec3,
        min_walk_normal: f64,
        scratch: &mut WalkScratch,
    ) -> Below {
        match self.first_entry(top, bottom, scratch) {
            entry if entry.start_solid() => Below::InSolid,
            SolidEntry::Hit {
                time,
                plane: Some(plane),
                ..
            } if plane.normal().z >= min_walk_normal => Below::Floor(time),
            _ => Below::Nothing,
        }
    }

    /// The regions reachable from `from` through portals (a flood over the planes of
    /// connection), ascending, `from` included.
    pub fn flood(&self, from: u32) -> Vec<u32> {
        let mut seen = vec![false; self.region_count()];
        let mut stack = vec![from];
        seen[from as usize] = true;
        while let Some(r) = stack.pop() {
            for &p in self.portals_of(r) {
                for next in self.portals[p as usize].regions {
                    if !seen[next as usize] {
                        seen[next as usize] = true;
                        stack.push(next);
                    }
                }
            }
        }
        (0..self.region_count() as u32)
            .filter(|&r| seen[r as usize])
            .collect()
    }
}

/// The world grown by every pose of the tree: where the tree's planes matter.
pub(crate) fn cell_bounds(tree: &OnionTree, world: &World) -> Aabb {
    tree.poses().iter().fold(Aabb::EMPTY, |b, p| {
        b.merged(world.bounds().minkowski_sum(Aabb::new(-p.maxs, -p.mins)))
    })
}

/// The portals from the directed pieces: each unordered pair's pieces from its lower region,
/// checked against the pieces from the higher one.
fn pair_up(mut directed: Vec<(u32, u32, Polygon)>) -> (Vec<Portal>, Vec<OneSided>) {
    let key = |(a, b, _): &(u32, u32, Polygon)| (*a.min(b), *a.max(b));
    directed.sort_by_key(|d| (key(d), d.0));
    let mut portals = Vec::new();
    let mut one_sided = Vec::new();
    let mut pieces = directed.into_iter().peekable();
    while let Some(first) = pieces.next() {
        let (a, b) = key(&first);
        let mut group = vec![first];
        while pieces.peek().is_some_and(|d| key(d) == (a, b)) {
            group.push(pieces.next().expect("peeked"));
        }
        let (mut areas, mut perimeters) = ([0.0; 2], [0.0; 2]);
        for (from, _, polygon) in &group {
            let side = usize::from(*from != a);
            areas[side] += polygon.area();
            perimeters[side] += polygon.perimeter();
        }
        // From the lower region's cell when it found the portal, else from the higher one's.
        let from_low = areas[0] > 0.0;
        for (from, _, polygon) in group {
            if (from == a) == from_low {
                let polygon = if from == a {
                    polygon
                } else {
                    polygon.flipped()
                };
                portals.push(Portal {
                    regions: [a, b],
                    polygon,
                });
            }
        }
        if (areas[0] - areas[1]).abs() > rounding_area(perimeters[0].max(perimeters[1])) {
            one_sided.push(OneSided {
                regions: [a, b],
                areas,
            });
        }
    }
    (portals, one_sided)
}
