//! The bevelled tree: a plain solid BSP converted into one packed node array, with bevel nodes
//! inserted below every solid leaf (Melax Section 5, Figure 2).

pub mod facet;

use std::time::Instant;

use cspace_geom::plane::Side;
use cspace_geom::tolerance::PLANE_THICKNESS;
use cspace_geom::{Aabb, Brush, BrushId, DVec3, Plane, World};

use crate::bevel::{BevelMode, bevel_planes};
use crate::polyhedron::ConvexPolyhedron;
use cspace_geom::tolerance::UNIT_NORMAL;
use facet::{Piece, split_pieces};

/// A child or root of a plain BSP tree given to [`MelaxTree::from_bsp`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BspRef {
    /// An internal node.
    Node(u32),
    /// A leaf.
    Leaf(u32),
}

/// A plain solid BSP tree (one configuration space, zero-size shape): what bevelling starts
/// from. The onion compiler's single-point-pose tree is one.
pub trait PlainBsp {
    /// The root.
    fn root(&self) -> BspRef;
    /// The plane of an internal node; its front (normal side) is child 0.
    fn plane(&self, node: u32) -> Plane;
    /// `[front, back]` children of an internal node.
    fn children(&self, node: u32) -> [BspRef; 2];
    /// True when the leaf is solid.
    fn is_solid(&self, leaf: u32) -> bool;
}

/// The leaf flag of a packed child reference; the other bits are a cell index.
pub(crate) const LEAF: u32 = 1 << 31;
/// The (shared) empty leaf.
pub(crate) const EMPTY: u32 = u32::MAX;

/// One packed node (40 bytes): the plane (unit normal and distance) and the `[front, back]`
/// children.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Node {
    pub normal: DVec3,
    pub dist: f64,
    pub children: [u32; 2],
}

impl Node {
    /// The normal's horizontal length `sqrt(nx^2 + ny^2)` (the cylinder offset, Section 3;
    /// optimised away for every other shape, whose offsets do not read it).
    #[inline(always)]
    pub fn horizontal(&self) -> f64 {
        (self.normal.x * self.normal.x + self.normal.y * self.normal.y).sqrt()
    }

    /// The signed distances of `start` and `end` to the (unshifted) plane.
    #[inline(always)]
    pub fn distances(&self, start: DVec3, end: DVec3) -> (f64, f64) {
        (
            self.normal.dot(start) - self.dist,
            self.normal.dot(end) - self.dist,
        )
    }
}

/// A solid cell: the brushes whose interior meets it (for contact points and brush ids).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Cell {
    pub brushes: (u32, u32),
}

/// Statistics of a conversion (Melax Figure 5 and Section 8 report tree sizes).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MelaxStats {
    /// Internal nodes of the plain tree given.
    pub source_nodes: usize,
    /// Solid cells kept (leaves with volume).
    pub solid_cells: usize,
    /// Solid leaves of no volume (within the plane thickness), made empty: the neighbouring
    /// cells hold the solid around them.
    pub degenerate_cells: usize,
    /// Subtrees dropped because their region has no volume.
    pub empty_regions: usize,
    /// Bevel nodes inserted.
    pub bevel_nodes: usize,
    /// Internal nodes of this tree (plain nodes kept plus bevel nodes).
    pub nodes: usize,
    /// The largest number of internal nodes on a path from the root to a leaf.
    pub depth_max: usize,
    /// Solid cells of zero thickness standing for patch facets (flat brushes) in the empty leaves
    /// they reach, one per facet and leaf ([`facet`]).
    pub facet_cells: usize,
    /// Their nodes but the bevels: the facet planes both ways above each group of facets in one
    /// plane, the border planes, and each cell's own two face planes (their bevel nodes are
    /// counted in `bevel_nodes`).
    pub facet_nodes: usize,
    /// Seconds spent converting and bevelling.
    pub seconds: f64,
}

impl MelaxStats {
    /// The tree size counted as the paper does, nodes including leaves: `2 * nodes + 1`.
    pub fn size(&self) -> usize {
        2 * self.nodes + 1
    }
}

/// One plain BSP tree with bevel nodes below its solid leaves: answers every shape by plane
/// shifting ([`crate::MelaxCollider`]).
#[derive(Debug, Clone)]
pub struct MelaxTree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) cells: Vec<Cell>,
    pub(crate) cell_brushes: Vec<BrushId>,
    pub(crate) root: u32,
    bevel: BevelMode,
    pub(crate) stats: MelaxStats,
    /// The fingerprint of the world the tree was built from ([`World::fingerprint`]).
    world_fingerprint: u64,
}

/// A subtree of the plain tree to convert: its root, its region (`None` without volume), where
/// its converted root goes, its depth, and the facet pieces in its region.
type Task = (BspRef, Option<ConvexPolyhedron>, Slot, usize, Vec<Piece>);

/// Where a converted child goes.
#[derive(Clone, Copy)]
enum Slot {
    Root,
    Child(u32, usize),
}

impl MelaxTree {
    /// Converts the plain tree `bsp` of `world`'s solid space and bevels every solid cell with
    /// `bevel` (Section 5: the cells are walked from the root, sliced by each node's plane).
    /// The facets of the world (flat brushes, which a plain tree has no cell for) are pushed down
    /// with the cells and become cells of no thickness below the empty leaves they reach
    /// ([`facet`]).
    pub fn from_bsp(world: &World, bsp: &impl PlainBsp, bevel: BevelMode) -> MelaxTree {
        let began = Instant::now();
        let bounds = if world.is_empty() {
            Aabb::new(DVec3::splat(-1.0), DVec3::ONE)
        } else {
            world.bounds()
        };
        let region = ConvexPolyhedron::from_aabb(bounds.loosened(16.0));
        let mut tree = MelaxTree {
            nodes: Vec::new(),
            cells: Vec::new(),
            cell_brushes: Vec::new(),
            root: EMPTY,
            bevel,
            stats: MelaxStats::default(),
            world_fingerprint: world.fingerprint(),
        };
        let facets = Piece::all(world);
        let mut tasks: Vec<Task> = vec![(bsp.root(), Some(region), Slot::Root, 0, facets)];
        while let Some((source, region, slot, depth, pieces)) = tasks.pop() {
            let child = match (source, region) {
                (BspRef::Node(node), None) => {
                    tree.stats.source_nodes += count_nodes(bsp, node);
                    tree.stats.empty_regions += 1;
                    EMPTY
                }
                (BspRef::Leaf(_), None) => EMPTY,
                (BspRef::Node(node), Some(region)) => {
                    tree.stats.source_nodes += 1;
                    let plane = bsp.plane(node);
                    let index = tree.push_node(plane, [EMPTY, EMPTY]);
                    let [front, back] = bsp.children(node);
                    let (front_region, back_region) = region.split(&plane);
                    let (front_pieces, back_pieces) = split_pieces(pieces, &plane);
                    tasks.push((
                        back,
                        back_region,
                        Slot::Child(index, 1),
                        depth + 1,
                        back_pieces,
                    ));
                    tasks.push((
                        front,
                        front_region,
                        Slot::Child(index, 0),
                        depth + 1,
                        front_pieces,
                    ));
                    index
                }
                (BspRef::Leaf(leaf), Some(region)) => {
                    if !bsp.is_solid(leaf) {
                        tree.facet_subtree(world, pieces, depth)
                    } else if let Some(cell) = region.to_brush() {
                        let head = tree.push_cell(world, &cell, depth);
                        tree.stats.depth_max = tree.stats.depth_max.max(depth);
                        head
                    } else {
                        tree.stats.degenerate_cells += 1;
                        EMPTY
                    }
                }
            };
            tree.stats.depth_max = tree.stats.depth_max.max(depth);
            match slot {
                Slot::Root => tree.root = child,
                Slot::Child(parent, side) => tree.nodes[parent as usize].children[side] = child,
            }
        }
        tree.stats.nodes = tree.nodes.len();
        tree.stats.seconds = began.elapsed().as_secs_f64();
        tree
    }

    pub(crate) fn push_node(&mut self, plane: Plane, children: [u32; 2]) -> u32 {
        let n = plane.normal();
        self.nodes.push(Node {
            normal: n,
            dist: plane.dist(),
            children,
        });
        assert!(self.nodes.len() < LEAF as usize, "a tree of 2^31 nodes");
        (self.nodes.len() - 1) as u32
    }

    /// Adds the solid cell with its bevel chain (each bevel node: empty in front, the rest of the
    /// chain behind, Figure 2) and returns the chain's head.
    fn push_cell(&mut self, world: &World, cell: &Brush, depth: usize) -> u32 {
        let brushes = brushes_meeting(world, cell);
        self.stats.solid_cells += 1;
        self.push_chain(&bevel_planes(cell, self.bevel), brushes, depth)
    }

    /// Adds a solid cell holding `brushes` below the chain of `planes` (each node: empty in
    /// front, the rest of the chain behind) and returns the chain's head.
    pub(crate) fn push_chain(
        &mut self,
        planes: &[Plane],
        brushes: Vec<BrushId>,
        depth: usize,
    ) -> u32 {
        let first = self.cell_brushes.len() as u32;
        self.cell_brushes.extend(brushes);
        let index = self.cells.len() as u32;
        self.cells.push(Cell {
            brushes: (first, self.cell_brushes.len() as u32),
        });
        self.stats.bevel_nodes += planes.len();
        self.stats.depth_max = self.stats.depth_max.max(depth + planes.len());
        // Head first, each node's back child right after it: a walk down the chain reads
        // memory forwards.
        let head = self.nodes.len() as u32;
        for (k, plane) in planes.iter().enumerate() {
            let next = if k + 1 < planes.len() {
                head + k as u32 + 1
            } else {
                LEAF | index
            };
            self.push_node(*plane, [EMPTY, next]);
        }
        if planes.is_empty() {
            LEAF | index
        } else {
            head
        }
    }

    /// Whether `child` is a node whose over child is the empty leaf: a node of a back run (a
    /// bevel chain, or a plain node bounding empty space), which passes only its under side on.
    #[inline(always)]
    pub(crate) fn in_back_run(&self, child: u32) -> bool {
        child & LEAF == 0 && self.nodes[child as usize].children[0] == EMPTY
    }

    /// The fingerprint of the world the tree was built from: a [`crate::MelaxCollider`] answers
    /// for that world only.
    pub fn world_fingerprint(&self) -> u64 {
        self.world_fingerprint
    }

    /// The bevel rule the tree was built with.
    pub fn bevel(&self) -> BevelMode {
        self.bevel
    }

    /// The conversion's statistics.
    pub fn stats(&self) -> &MelaxStats {
        &self.stats
    }

    /// The number of internal nodes (plain and bevel).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes of the tree: its packed nodes, solid cells and the cells' brush lists.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<MelaxTree>()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.cells.capacity() * std::mem::size_of::<Cell>()
            + self.cell_brushes.capacity() * std::mem::size_of::<BrushId>()
    }

    /// The brushes meeting solid cell `cell`.
    pub(crate) fn brushes_of(&self, cell: u32) -> &[BrushId] {
        let (a, b) = self.cells[cell as usize].brushes;
        &self.cell_brushes[a as usize..b as usize]
    }

    /// Checks the layout: every child reference is in range, every node is reached exactly once
    /// from the root (a tree, no cycle), planes are finite with unit normals, and every cell is
    /// reached once. Tests call it after every build.
    pub fn validate(&self) -> Result<(), String> {
        let mut seen_nodes = vec![false; self.nodes.len()];
        let mut seen_cells = vec![false; self.cells.len()];
        let mut stack = vec![self.root];
        while let Some(child) = stack.pop() {
            if child == EMPTY {
                continue;
            }
            if child & LEAF != 0 {
                let cell = (child & !LEAF) as usize;
                let seen = seen_cells
                    .get_mut(cell)
                    .ok_or(format!("cell {cell} out of range"))?;
                if std::mem::replace(seen, true) {
                    return Err(format!("cell {cell} reached twice"));
                }
                continue;
            }
            let node = self
                .nodes
                .get(child as usize)
                .ok_or(format!("node {child} out of range"))?;
            if std::mem::replace(&mut seen_nodes[child as usize], true) {
                return Err(format!("node {child} reached twice"));
            }
            if !node.normal.is_finite()
                || !node.dist.is_finite()
                || (node.normal.length_squared() - 1.0).abs() > UNIT_NORMAL
            {
                return Err(format!("node {child} has a bad plane {node:?}"));
            }
            stack.extend(node.children);
        }
        if let Some(node) = seen_nodes.iter().position(|s| !s) {
            return Err(format!("node {node} is not reached from the root"));
        }
        if let Some(cell) = seen_cells.iter().position(|s| !s) {
            return Err(format!("cell {cell} is not reached from the root"));
        }
        Ok(())
    }
}

fn count_nodes(bsp: &impl PlainBsp, node: u32) -> usize {
    let mut count = 0;
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        count += 1;
        for child in bsp.children(n) {
            if let BspRef::Node(c) = child {
                stack.push(c);
            }
        }
    }
    count
}

/// The brushes whose interior meets `cell` (no face plane of either separates them), the one
/// holding the cell's centre first.
fn brushes_meeting(world: &World, cell: &Brush) -> Vec<BrushId> {
    let mut found = Vec::new();
    world.for_each_overlapping(&cell.bounds().loosened(PLANE_THICKNESS), |id| {
        let brush = &world.brush(id).brush;
        if brush.is_flat() {
            // A facet inside solid adds nothing: the facets have cells of their own.
            return;
        }
        let separated = |a: &Brush, b: &Brush| {
            a.planes().any(|p| {
                b.vertices()
                    .iter()
                    .all(|&v| p.side_of(v, PLANE_THICKNESS) != Side::Back)
            })
        };
        if !separated(brush, cell) && !separated(cell, brush) {
            found.push(id);
        }
    });
    found.sort_unstable();
    let centre = cell.vertex_mean();
    if let Some(i) = found
        .iter()
        .position(|id| world.brush(*id).brush.plane_distance(centre) < 0.0)
    {
        found[..=i].rotate_right(1);
    }
    found
}
